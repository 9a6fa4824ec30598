"""``warbench play`` says an Attack's push note before the player confirms it (issue 10, session
34, s34-play2): s34-ui's note (``game/preview_push.py``: Knockback, Force, Grapple, Upheaval,
Kamikaze; Perks 000_94ecc6a4c74d351b.txt L3917 ...) was shown on the play page only, and the
terminal previewed only actions with placements, so an Attack with Knockback I was made at
once and its Target moved 6" after the dice with no word before."""

from __future__ import annotations

import json
from collections.abc import Iterator

from tests.rulesets.warsurge.effects.test_s25_tactical_perks import _duel
from warbench.play import Budget, PromptPlayer
from warbench.rulesets.warsurge.game.actions import Attack
from warbench.rulesets.warsurge.game.codecs import WarsurgeState
from warbench.rulesets.warsurge.game.protocol import WarsurgeRuleset

WS = WarsurgeRuleset()
GUN = Attack(0, (("Gun", 1),))
ARGS = json.dumps({"rosters": [], "board": None, "options": {}})


def _ask(perks: list[str], answers: list[str]) -> tuple[Attack | object, list[str], Iterator[str]]:
    st = WarsurgeState(ARGS, _duel(perks))
    (d,) = [d for d in WS.pending(st) if d.player == 0]
    it = iter(answers)
    shown: list[str] = []
    p = PromptPlayer(WS.actions, read=lambda _: next(it), write=shown.append, confirm=True)
    got = p.choose(WS.view(st, 0), WS.legal_actions(st, 0), d, Budget())
    return got, shown, it


def test_p3917_an_attack_with_knockback_shows_its_note_and_asks_before_it_is_made() -> None:
    gun = '{"kind": "attack", "targets": [["Gun", 1]], "unit": 0}'
    assert WS.actions.load(json.loads(gun)) == GUN
    # typed, then refused at the note ("n"), asked again, typed, confirmed (Enter)
    got, shown, rest = _ask(["Knockback I"], [gun, "n", gun, ""])
    assert got == GUN and next(rest, None) is None
    text = "\n".join(shown)
    assert text.count("after the dice, a perk may move a unit:") == 2
    assert "  note: Knockback I (Perks L3917): if Gun causes P1: Foes HP Loss" in text
    assert 'Foes is moved 6" directly away from P0: Shooters at the end of the Attack Phase' in text
    assert "not made: your choice again" in text


def test_the_note_is_shown_for_the_default_taken_with_enter_and_for_a_listed_number() -> None:
    st = WarsurgeState(ARGS, _duel(["Knockback I"]))
    (d,) = [d for d in WS.pending(st) if d.player == 0]
    assert isinstance(d.default, Attack)
    got, shown, rest = _ask(["Knockback I"], ["", "y"])  # Enter, then yes
    assert got == d.default and next(rest, None) is None
    assert any(s.startswith("  note: Knockback I (Perks L3917)") for s in shown)


def test_an_attack_without_a_relocating_perk_is_made_at_once() -> None:
    got, shown, rest = _ask([], ["", "never read"])
    assert isinstance(got, Attack) and next(rest) == "never read"
    assert not any("note:" in s for s in shown)
