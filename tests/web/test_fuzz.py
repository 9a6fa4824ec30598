"""The API fuzzed from its own OpenAPI schema (issue 13, schemathesis): no 5xx, and every 4xx
our handlers send names the field in a JSON body. Examples are bounded so the run stays short."""

from __future__ import annotations

import tempfile
import warnings
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import schemathesis

from warbench.web.app import create_app

_DB = Path(tempfile.mkdtemp(prefix="warbench-fuzz-")) / "fuzz.db"
app = create_app(f"sqlite:///{_DB}")
schema = schemathesis.openapi.from_asgi("/openapi.json", app)


def _error_body_names_the_field(response: Any) -> None:
    if 400 <= response.status_code < 500:
        body = response.json()
        assert isinstance(body.get("detail"), str) and body["detail"], body
        assert "field" in body, body


@schema.parametrize()
@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)
@pytest.mark.filterwarnings("ignore")
def test_api_never_answers_5xx_and_every_4xx_is_explained(case: Any) -> None:
    response = case.call()
    assert response.status_code < 500, (case.method, case.path, case.body, response.text)
    _error_body_names_the_field(response)
