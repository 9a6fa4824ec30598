"""The per-``apply`` constant (issue 10, s27-apply): the shortcuts of the apply path give the
very answers of the paths they stand in for.

* ``Work.contact_map`` (every unit's Base Contacts from one distance matrix, for the sweep
  after the Attack Phase's casualties) equals ``Work.contacts`` asked unit by unit, at every
  sweep of seeded scripted, random-legal and perk-heavy games (Traitorous, Dominate and
  Enslaved change sides there).
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.rulesets.warsurge.effects.test_perk_heavy_games import setup_for
from warbench.rulesets.warsurge.battlefield import sample_board
from warbench.rulesets.warsurge.game import engine, work
from warbench.rulesets.warsurge.game.geom import Field
from warbench.rulesets.warsurge.game.io import load_game_roster
from warbench.rulesets.warsurge.game.players import (
    Player,
    RandomLegalPlayer,
    ScriptedPlayer,
    play,
)
from warbench.rulesets.warsurge.game.state import GameSetup, Location, build_setup

ROSTERS = Path(__file__).parents[3] / "examples" / "warsurge" / "rosters"


def _sample(board: str) -> GameSetup:
    rosters = [load_game_roster(ROSTERS / n) for n in ("sci_fi_humans.yaml", "scavengers.yaml")]
    return build_setup(rosters, Field(sample_board(board)))


@pytest.mark.parametrize(
    ("kind", "k"), [("scripted", 0), ("random", 1), ("heavy", 0), ("heavy", 2), ("heavy", 4)]
)
def test_contact_map_equals_contacts_unit_by_unit(
    kind: str, k: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    contact_map = work.Work.contact_map
    sweeps = 0
    touching = 0

    def checked(self: work.Work) -> dict[int, set[int]] | None:
        nonlocal sweeps, touching
        got = contact_map(self)
        assert got is not None  # round bases in these games
        for u in self.units:
            if u.location is Location.TABLE:
                assert got.get(u.uid, set()) == self.contacts(u.uid), u.uid
                touching += bool(got.get(u.uid))
        assert set(got) <= {u.uid for u in self.units if u.location is Location.TABLE}
        sweeps += 1
        return got

    monkeypatch.setattr(work.Work, "contact_map", checked)
    if kind == "heavy":
        setup, seed = setup_for(k), random.Random(1000 + k).randrange(2**31)
    else:
        setup, seed = _sample("ruins_48x48"), k
    players: list[Player] = (
        [ScriptedPlayer(), ScriptedPlayer()]
        if kind == "scripted"
        else [RandomLegalPlayer(seed * 7 + 1), RandomLegalPlayer(seed * 7 + 2)]
    )
    state, events = engine.new_game(setup, seed)
    assert play(state, players, events=events).state.over
    assert sweeps >= 2
    if kind == "scripted":
        assert touching > 0  # the scripted players charge into Melees
