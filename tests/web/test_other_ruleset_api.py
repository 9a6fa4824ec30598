"""Another ruleset's document sent to the API (issue 10, session 34, s34-review).

s34-user's ``rulesets/file_kinds.py`` names a file of another ruleset in one line, with the
commands that read it. A request's body is no file: the API answers 422 naming what the body
is (a Collision card, a WARSURGE unit) and what the endpoint reads, without CLI commands to
run on a "file" called ``figure`` (it said "check it with: warbench collision validate
figure"). A real file's commands quote its path for the shell.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from fastapi.testclient import TestClient

from warbench.rulesets.collision.io import load as load_collision
from warbench.rulesets.file_kinds import other_ruleset_error

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
CARD = EXAMPLES / "collision" / "virgil.yaml"
UNIT = EXAMPLES / "warsurge" / "troopers_laser.yaml"


@pytest.mark.parametrize(
    ("path", "said"),
    [
        (CARD, "figure: is a Collision character card (Virgil), not a figure or force"),
        (UNIT, "figure: is a WARSURGE unit file (Troopers), not a figure or force"),
    ],
)
def test_a_figure_request_holding_another_rulesets_document(
    client: TestClient, path: Path, said: str
) -> None:
    body = yaml.safe_load(path.read_text("utf-8"))
    r = client.post("/api/warengine/figures/cost", json=body)
    assert r.status_code == 422, r.text
    detail = r.json()["detail"]
    assert detail == said
    assert "warbench" not in detail  # no command to run on a path that is none


def test_a_file_s_commands_quote_its_path(tmp_path: Path) -> None:
    spaced = tmp_path / "my card.yaml"
    spaced.write_text(CARD.read_text("utf-8"), encoding="utf-8")
    data = yaml.safe_load(spaced.read_text("utf-8"))
    err = other_ruleset_error(data, str(spaced), "warengine", "figure", "warbench warengine")
    assert err is not None
    assert f"warbench collision validate '{spaced}'" in str(err)
    assert "not a figure; warbench warengine reads a figure" in str(err)
    # the Collision reader of the same file reads it: no error of this kind
    assert load_collision(spaced).name == "Virgil"
