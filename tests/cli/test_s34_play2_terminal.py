"""``warbench play``'s board at the terminal, from session 34's walks (issue 10, s34-play2):

* the key line under the map was 102 columns and a 100-column terminal broke it mid-word
  ("impassabl / e"): it is wrapped at the terminal's width between its entries;
* the Deployment Zones are named by compass ("south edge", "north-east corner") and the map
  said nowhere which way is north: the key says it (south at the bottom: y = 0, as
  ``battlefield/model.py`` draws the zones);
* a unit in Reserve was listed at "0 pts" (it counts nothing on the battlefield yet, Core Rules
  001_d3f5e425c5e1196d.txt §2.2 step 8), which read like its price: it says the value it
  brings once deployed.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from warbench.cli.app import main
from warbench.rulesets.warsurge.battlefield import render_text, sample_board
from warbench.rulesets.warsurge.game.protocol import WarsurgeRuleset
from warbench.rulesets.warsurge.game.render import render_state_text
from warbench.web.play.scenes import presenter

ROSTERS = Path(__file__).parents[2] / "examples" / "warsurge" / "rosters"
WS = WarsurgeRuleset()


def _key(text: str) -> list[str]:
    lines = text.splitlines()
    first = next(i for i, s in enumerate(lines) if s.startswith("Key: "))
    end = first + 1
    while end < len(lines) and lines[end].startswith("     "):
        end += 1
    return lines[first:end]


@pytest.mark.parametrize("width", [100, 80, 40])
def test_the_key_wraps_at_the_width_between_entries_and_keeps_every_word(width: int) -> None:
    board = sample_board("ruins_48x48")
    whole = _key(render_text(board, key=True))
    assert len(whole) == 1 and len(whole[0]) > 100  # one line wider than a 100-column terminal
    rows = _key(render_text(board, key=True, width=width))
    assert len(rows) > 1 and all(len(r) <= width for r in rows), rows
    # the same words in the same order: no word broken ("impassabl / e")
    assert " ".join(r.strip() for r in rows) == whole[0]
    # no entry split from its character: a row ends at an entry's end
    assert all(r.endswith((",", ";")) for r in rows[:-1]), rows
    assert any(r.strip().startswith("# impassable") or ", # impassable" in r for r in rows)


def test_the_key_names_the_compass_south_at_the_bottom() -> None:
    board = sample_board("ruins_48x48")
    south = next(z for z in board.zones if z.name == "south edge")
    assert max(y for _, y in south.polygon) < board.height / 2  # the zone is at y = 0 ...
    text = render_text(board, key=True)
    rows = text.splitlines()[1:49]
    assert ":" in rows[-1] and ":" not in rows[len(rows) // 2]  # ... drawn at the bottom
    assert (
        "compass: north at the top, south at the bottom, west at the left, east at the "
        in (_key(text)[0])
    )


def test_units_in_reserve_say_their_value_once_deployed_not_0_pts_S2_2() -> None:
    setup = presenter("warsurge").presets()[0]["setup"]
    st = WS.setup(setup["rosters"], setup["board"], setup["options"], 1)
    text = render_state_text(st.game)
    assert "[0] Red: Troopers: in Reserve, 10/10 models, 10/10 HP, 120 pts once deployed" in text
    assert " 0 pts" not in text
    assert "Value on the battlefield: Red 0, Blue 0" in text  # counted nothing yet
    for _ in range(12):  # the deployments made: the value on the battlefield, as before
        d = WS.pending(st)[0]
        st, _ = WS.apply(st, d.default, d.player)
    text = render_state_text(st.game)
    assert "[0] Red: Troopers: on the table, 10/10 models, 10/10 HP, 120 pts\n" in text


def test_play_wraps_the_key_to_a_100_column_terminal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setenv("LINES", "40")
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n1\n\n"))
    a, b = (str(ROSTERS / f) for f in ("skirmish_a.yaml", "skirmish_b.yaml"))
    with pytest.raises(SystemExit) as exit_info:
        main(["play", a, b, "--seed", "3", "--turns", "4", "--no-confirm"])
    out = capsys.readouterr().out
    assert not exit_info.value.code, out
    keys = [i for i, s in enumerate(out.splitlines()) if s.startswith("Key: ")]
    assert keys
    for row in _key("\n".join(out.splitlines()[keys[0] :])):
        assert len(row) <= 100, row
    assert re.search(r"^     .*compass: north at the top", out, re.M)
