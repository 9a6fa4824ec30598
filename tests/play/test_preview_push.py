"""An Attack's preview says what a perk may move after it (issue 10, session 34, s34-ui): the
relocating perks need dice first (HP Loss, a Skill Test, a scatter), so the Attack places no
model, but its preview's ``note`` names the unit that would move, the perk and its Perks line
(000_94ecc6a4c74d351b.txt), how far and along which line, and when; ``apply`` then does what
the note said when the dice allow it. Knockback I-II (L3917, L3933), Force I-II (L3837, L3859),
Grapple (L3869), Upheaval (L3216), Kamikaze (L1302)."""

from __future__ import annotations

from tests.rulesets.warsurge.effects.play_helpers import to_phase_end
from tests.rulesets.warsurge.effects.test_s25_tactical_perks import _duel, _grapple
from warbench.kernel.dice import ScriptedDice
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Attack
from warbench.rulesets.warsurge.game.preview import preview
from warbench.rulesets.warsurge.game.state import Phase

GUN = Attack(0, (("Gun", 1),))


def _note(state: object, action: Attack) -> str:
    shown = preview(state, action)  # type: ignore[arg-type]
    assert shown is not None and shown.placements == ()
    assert shown.note is not None
    return shown.note


def test_p3917_an_attack_with_knockback_I_says_who_is_moved_how_far_and_when() -> None:
    state = _duel(["Knockback I"])
    note = _note(state, GUN)
    assert note.startswith("Knockback I (Perks L3917): if Gun causes ")
    assert 'Foes is moved 6" directly away from ' in note
    assert "Shooters at the end of the Attack Phase" in note
    # and apply does it: the Attack Dice 6, the Skill Test 6, 6" north at the Phase's end
    after, _ = engine.apply(state, GUN, dice=ScriptedDice([6, 6]))
    done, _ = to_phase_end(after, Phase.ATTACK)
    assert done.units[1].pos[0] == (24.0, 26.0)


def test_p3933_knockback_II_and_an_unaffected_target() -> None:
    assert 'is moved 12" directly away' in _note(_duel(["Knockback II"]), GUN)
    still = _note(_duel(["Knockback I"], foe_perks=("Unstoppable",)), GUN)
    assert "unaffected" in still and "is moved" not in still


def test_p3837_force_names_the_point_of_the_attack_or_away_from_the_user() -> None:
    state = _duel(["Force I"])
    assert 'Foes is pushed at once up to 6" directly away from ' in _note(state, GUN)
    aimed = Attack(0, (("Gun", 1),), aim=(("Gun", 30.0, 20.0),))
    note = _note(state, aimed)
    assert note.startswith("Force I (Perks L3837): ")
    assert 'up to 6" toward (30.0, 20.0)' in note and "D6 Attack Dice" in note
    # L3839-3853: the Target and each Unit it contacts take the dice
    assert "if it makes contact, it and each unit it touches take D6 Attack Dice (4+)" in note
    assert 'up to 12"' in _note(_duel(["Force II"]), GUN)


def test_p3869_grapple_names_the_unit_pulled_by_its_point_cost() -> None:
    hook = Attack(0, (("Hook", 1),))
    assert "Prey is pulled at once in a straight line to " in _note(_grapple(["Grapple"]), hook)
    assert "Hunter is pulled" in _note(_grapple(["Grapple"], theirs=200), hook)
    assert "nothing moves (their full Point Costs are equal)" in _note(
        _grapple(["Grapple"], theirs=100), hook
    )


def test_an_attack_without_a_relocating_perk_has_no_preview() -> None:
    assert preview(_duel([]), GUN) is None
    assert preview(_duel(["Knockback I"]), Attack(0, (("Gun", 5),))) is None  # refused


def test_p3216_upheaval_and_p1302_a_kamikaze_target_are_said() -> None:
    note = _note(_duel(["Upheaval"]), GUN)
    assert note.startswith("Upheaval (Perks L3216): at the end of the Attack Phase ")
    assert "Shooters takes a Skill Test for Gun" in note
    assert 'relocates 2D6" by the Scatter Arrow' in note
    note = _note(_duel([], foe_perks=("Kamikaze",)), GUN)
    assert note.startswith("Kamikaze (Perks L1302): if ")
    assert "Foes's last model falls, it scatters 2D6" in note


def test_each_perk_is_one_sentence_of_the_note_joined_by_semicolons() -> None:
    # the page and the terminal show one line per perk, split at "; "
    both = Attack(0, (("Gun", 1),))
    state = _duel(["Knockback I", "Force I", "Upheaval"], foe_perks=("Kamikaze",))
    parts = _note(state, both).split("; ")
    assert [p.split(" (Perks")[0] for p in parts] == [
        "Knockback I",
        "Force I",
        "Upheaval",
        "Kamikaze",
    ]
