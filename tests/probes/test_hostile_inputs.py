"""Fuzzing every reader through the CLI (issue 19): no traceback, no wrong success, one line.

Hypothesis draws damaged files, share codes and game records from valid examples
(``hostile.py``) and runs the ``warbench`` command that reads each. The default run is small
and derandomised so the suite stays fast and repeatable; set ``WARBENCH_PROBE_EXAMPLES=500``
for a long random probe (``tests/probes/report.py`` prints the counts).
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .hostile import (
    EXAMPLES_PER_TEST,
    FILE_KINDS,
    hostile_codes,
    hostile_documents,
    hostile_records,
    run_code_case,
    run_file_case,
    run_record_case,
)

PROBE = settings(
    max_examples=EXAMPLES_PER_TEST,
    deadline=None,
    derandomize="WARBENCH_PROBE_EXAMPLES" not in os.environ,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

_BASES: dict[str, Any] = {}


def _base(kind: str) -> Any:
    if kind not in _BASES:
        _BASES[kind] = FILE_KINDS[kind][0]()
    return _BASES[kind]


@pytest.mark.parametrize("kind", list(FILE_KINDS))
@PROBE
@given(data=st.data())
def test_hostile_files_are_refused_in_one_line(kind: str, data: st.DataObject) -> None:
    case = data.draw(hostile_documents(_base(kind), kind), label="case")
    out = run_file_case(kind, case)
    assert not out.problems(case.must_fail), (case.what, out.problems(case.must_fail))


@PROBE
@given(case=hostile_codes())
def test_hostile_share_codes_are_refused_in_one_line(case: Any) -> None:
    out = run_code_case(case)
    assert not out.problems(case.must_fail), (case.what, out.problems(case.must_fail))


@PROBE
@given(case=hostile_records())
def test_hostile_game_records_are_refused_in_one_line(case: Any) -> None:
    out = run_record_case(case)
    assert not out.problems(case.must_fail), (case.what, out.problems(case.must_fail))
