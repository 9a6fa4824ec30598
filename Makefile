# warbench: two commands on a fresh machine.
#   make demo   sets up .venv and runs the demo (profile, chart row, odds of a sample attack)
#   make test   sets up .venv and runs lint, types, the whole test suite and every benchmark
#               once (timings off), so that the benchmarks cannot rot
#   make bench  runs the benchmarks with timings and prints the figures
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup demo test lint types unit bench-smoke bench clean

$(STAMP): pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -c constraints.txt -e ".[dev]"
	touch $(STAMP)

setup: $(STAMP)

demo: $(STAMP)
	$(BIN)/warbench demo

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

types: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest

# Every benchmark once, with pytest-benchmark's timings off (a few seconds).
bench-smoke: $(STAMP)
	$(BIN)/pytest benchmarks -o python_files='bench_*.py' --benchmark-disable -p no:cacheprovider -q

test: lint types unit bench-smoke

bench: $(STAMP)
	$(BIN)/pytest benchmarks -o python_files='bench_*.py' --benchmark-enable --benchmark-only -p no:cacheprovider --benchmark-columns=min,median,mean,max,rounds

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
