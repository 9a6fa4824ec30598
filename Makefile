# warbench: two commands on a fresh machine.
#   make demo   sets up .venv and runs the demo (profile, chart row, odds of a sample attack)
#   make test   sets up .venv and runs lint, types, the whole test suite and every benchmark
#               once (timings off), so that the benchmarks cannot rot
#   make bench  runs the benchmarks with timings and prints the figures
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

# The web workbench's TypeScript (frontend/) compiles into the package (gitignored, shipped in
# the wheel); it is rebuilt when a frontend source changes. Needs Node 20 and npm.
WEB_JS := src/warbench/web/static/js/.built
WEB_SRC := frontend/package.json frontend/package-lock.json frontend/tsconfig.json $(wildcard frontend/src/*.ts)

.PHONY: setup demo test lint types unit bench-smoke bench clean browser

$(STAMP): pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -c constraints.txt -e ".[dev]"
	touch $(STAMP)

$(WEB_JS): $(WEB_SRC)
	cd frontend && npm ci --no-audit --no-fund --loglevel=error && npm run build --silent
	touch $(WEB_JS)

# Chromium for the end-to-end browser tests (Debian's package; Playwright's own download does
# not work here). Installs it when missing and apt-get is usable (CI runs as root); otherwise the
# browser tests are skipped with a reason.
browser:
	@command -v chromium >/dev/null || (apt-get update -qq && apt-get install -y -qq chromium) \
		|| echo "warning: chromium is not installed; the browser tests will be skipped"

setup: $(STAMP) $(WEB_JS) browser

demo: $(STAMP)
	$(BIN)/warbench demo

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

types: $(STAMP)
	$(BIN)/mypy

unit: setup
	$(BIN)/pytest

# Every benchmark once, with pytest-benchmark's timings off (a few seconds).
bench-smoke: $(STAMP)
	$(BIN)/pytest benchmarks -o python_files='bench_*.py' --benchmark-disable -p no:cacheprovider -q

test: lint types unit bench-smoke

bench: $(STAMP)
	$(BIN)/pytest benchmarks -o python_files='bench_*.py' --benchmark-enable --benchmark-only -p no:cacheprovider --benchmark-columns=min,median,mean,max,rounds

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache frontend/node_modules src/warbench/web/static/js
