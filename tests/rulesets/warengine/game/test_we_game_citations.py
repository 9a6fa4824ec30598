"""The placing, initiative, leader and activation rules cite the lines of The WarEngine 2.1 that
hold them (004_f4ea5693af0644ce.txt L301-L379; session 35, s35-cite); so do the Move, Fast
Move, Charge, contact, range and closest-figure rules (L403-L425, L461-L469; session 36,
s36-cite).

Until session 35 these were cited 14-24 lines early (placing as L287-L293, an activation as
L354, the Rout paragraph); a player reading "[The WarEngine 2.1 L287]" found the book's
introduction. Until session 36 a Move was cited as L402 (a blank line), part inches as L406,
a Fast Move as L420, contact as L467 and range as L469 (the targeting paragraphs). Each check
here takes a citation from the code itself (a decision, a refusal, an event or a docstring of a
real game) and reads the book at that line: the line must hold the rule's own words, so a
citation moved off its rule fails.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from warbench.play.core import CHANCE
from warbench.rulesets.warengine.game import attacks as attacks_mod
from warbench.rulesets.warengine.game import measure as measure_mod
from warbench.rulesets.warengine.game import movement as movement_mod
from warbench.rulesets.warengine.game import reserve as reserve_mod
from warbench.rulesets.warengine.game import setup as setup_mod
from warbench.rulesets.warengine.game import state as state_mod
from warbench.rulesets.warengine.game.protocol import WarEngineRuleset
from warbench.rulesets.warengine.game.state import BOOK, Activate, Attack, First, Move, Place, Roll

from .helpers import WS, act, activate, captain, character, force, table, trooper

BOOK_PATH = Path("/work/shared/seeds/004_f4ea5693af0644ce.txt")

pytestmark = pytest.mark.skipif(not BOOK_PATH.exists(), reason="the rulebook is not here")

#: The rule's own words, as the book writes them (lower case, spaces collapsed).
PLACING = "each player takes turns placing his figures on the board, the slowest figures"
ROLL_OFF = "should roll a die and the one who rolls lowest has to place his figures first"
STRIPS = 'may then be placed up to 12" from the edge of the board on their own side'
INITIATIVE = "the highest roll gets to choose who goes first"
OPPONENT_FIRST = "you might have reason to make your opponent go first"
ACTIVATE = "when it's your turn to activate a unit, you will first pick the unit"
JOIN = "when a character activates with a unit of troopers as a single unit"
LEADER = "the figure in the unit with the highest mental is the leader"
YOU_PICK = "4. you pick"
MOVE = "to move a figure, tell your opponent where you are moving and measure the distance"
PART_INCHES = "'part inches' moved on the table to count as a whole inch"
PAUSE = "your opponent may require you to pause before your movement is complete"
SPECIAL = "there are also two 'special' moves"
FAST = "a figure can increase its movement allowance by one third, provided it does not"
FAST_NEAR = 'end its move within 6" of an enemy figure'
CHARGE = "increase its movement allowance by one third in order to enter close combat"
NO_RANGE = "close combat attacks are attacks with weapons that have no range value"
CONTACT = "the bases of the figures are touching"
RANGE = "if the number of inches is less than or equal to the range value of your weapon"
NO_RANGED = "you may not make ranged attacks if you are in base-to-base contact"
CLOSEST = "you must (where possible) target the closest figure in the unit"
MOVE_WORDS = (MOVE, PART_INCHES, PAUSE, SPECIAL, FAST, FAST_NEAR, CHARGE)
RANGE_WORDS = (NO_RANGE, CONTACT, RANGE, NO_RANGED, CLOSEST)


def book_line(n: int) -> str:
    """Line ``n`` of the book (1-based), lower case with its spaces collapsed."""
    lines = BOOK_PATH.read_text(encoding="utf-8").splitlines()
    return " ".join(lines[n - 1].lower().replace("*", "").split())


def cited(rule: str) -> int:
    """The line of a ``rule(...)`` reference: ``"004_f4ea5693af0644ce.txt L303"`` -> 303."""
    m = re.fullmatch(rf"{re.escape(BOOK)} L(\d+)", rule)
    assert m is not None, rule
    return int(m.group(1))


def lines_of(doc: str | None) -> list[int]:
    """Every line a docstring cites, ranges expanded (``L301-L309`` -> 301..309)."""
    out: list[int] = []
    for a, b in re.findall(r"\bL(\d{3,4})(?:-L?(\d{3,4}))?\b", doc or ""):
        out.extend(range(int(a), int(b or a) + 1))
    return out


def holds(lines: list[int], words: str) -> bool:
    """Whether one of ``lines`` holds ``words``."""
    return any(words in book_line(n) for n in lines)


def test_the_words_are_the_books_and_each_on_one_line() -> None:
    """The guard reads the book: each phrase is on exactly one line (L303, L305, ...), so the
    checks below cannot pass on a line that merely mentions the topic."""
    lines = BOOK_PATH.read_text(encoding="utf-8").splitlines()
    norm = [" ".join(x.lower().replace("*", "").split()) for x in lines]
    for words in (PLACING, ROLL_OFF, STRIPS, INITIATIVE, ACTIVATE, JOIN, LEADER, YOU_PICK):
        assert sum(words in x for x in norm) == 1, words
    for words in MOVE_WORDS + RANGE_WORDS:
        assert sum(words in x for x in norm) == 1, words
    assert "rout is a shorter way of saying running away" in book_line(354)  # the old L354
    assert book_line(402) == ""  # the old Move citation: a blank line
    assert book_line(467) == "you may target any unit within range and line of sight."


def test_placing_decisions_refusals_and_events_cite_the_placing_rules_L303_L305_L309() -> None:
    """A game from its start: the "place a figure" decision cites the slowest-first rule,
    the roll-off its die, a figure placed outside its strip the 12" rule."""
    slow = force(("A6", [(character("Aaron 6", 6), 1)]), ("A9", [(character("Aaron 9", 9), 1)]))
    fast = force(("D9", [(character("Dave 9", 9), 1)]))
    ws = WarEngineRuleset()
    s = ws.setup((slow, fast), None, {"builder_limits": False}, 1)
    place = ws.pending(s)[0]
    assert place.kind == "place" and PLACING in book_line(cited(place.rule))
    assert isinstance(place.default, Place)
    refusal = ws.check(s, Place(place.default.fig, 10, 20), place.player)
    assert refusal is not None and STRIPS in book_line(cited(refusal.rule))
    s, _ = ws.apply(s, place.default, place.player)
    roll = ws.pending(s)[0]
    assert (roll.player, roll.kind) == (CHANCE, "roll")
    assert ROLL_OFF in book_line(cited(roll.rule))
    refusal = ws.check(s, Roll(2), CHANCE)
    assert refusal is not None and ROLL_OFF in book_line(cited(refusal.rule))
    s, events = ws.apply(s, Roll(1), CHANCE)
    assert events and all(ROLL_OFF in book_line(cited(e.rule)) for e in events)


def test_initiative_and_activation_cite_the_conflict_step_L362_L366_L375() -> None:
    """After placing: the initiative roll, who goes first, the activation decision, the
    "activates" event and a join refused all cite the lines that say so."""
    f = force(("A", [(character("Solo", 6), 1)]))
    ws = WarEngineRuleset()
    s = ws.setup((f, f), None, {"builder_limits": False}, 2)
    while s.phase == "placement":
        d = ws.pending(s)[0]
        s, _ = ws.apply(s, Roll(0) if d.player == CHANCE else d.default, d.player)  # type: ignore[arg-type]
    roll = ws.pending(s)[0]
    assert roll.kind == "roll" and INITIATIVE in book_line(cited(roll.rule))
    s, events = ws.apply(s, Roll(1), CHANCE)
    assert any(INITIATIVE in book_line(cited(e.rule)) for e in events)
    first = ws.pending(s)[0]
    assert first.kind == "first" and INITIATIVE in book_line(cited(first.rule))
    s, events = ws.apply(s, First(0), 1)
    assert any(INITIATIVE in book_line(cited(e.rule)) for e in events if e.kind == "first")
    activation = ws.pending(s)[0]
    assert activation.kind == "activation" and ACTIVATE in book_line(cited(activation.rule))
    s, events = ws.apply(s, Activate(0), 0)
    said = [e for e in events if e.kind == "activate"]
    assert said and all(ACTIVATE in book_line(cited(e.rule)) for e in said)


def test_a_refused_join_cites_the_character_with_troopers_rule_L375() -> None:
    hero = captain()
    far = table(
        force(("Captain", [(hero, 1)]), ("Squad", [(trooper(), 2)])),
        force(("Foe", [(trooper("Foe"), 1)])),
        [(10, 5), (30, 5), (31, 5), (10, 40)],
    )
    refusal = WS.check(far, Activate(0, 1), 0)
    assert refusal is not None and JOIN in book_line(cited(refusal.rule))


@pytest.mark.parametrize(
    ("what", "doc", "words"),
    [
        ("setup.py, Placing", setup_mod.__doc__, PLACING),
        ("setup.py, the strips", setup_mod.__doc__, STRIPS),
        ("Place", Place.__doc__, PLACING),
        ("Place, the strips", Place.__doc__, STRIPS),
        ("Roll, the roll-off", Roll.__doc__, ROLL_OFF),
        ("Roll, the initiative", Roll.__doc__, INITIATIVE),
        ("First", First.__doc__, INITIATIVE),
        ("First, the opponent first", First.__doc__, OPPONENT_FIRST),
        ("Activate", Activate.__doc__, JOIN),
        ("Leader", state_mod.Leader.__doc__, YOU_PICK),
        ("deploy_box", setup_mod.deploy_box.__doc__, STRIPS),
    ],
)
def test_docstrings_cite_the_lines_of_their_rule(what: str, doc: str | None, words: str) -> None:
    """The public docstrings of placing and activation cite a line holding the rule."""
    assert lines_of(doc), what
    assert holds(lines_of(doc), words), (what, lines_of(doc), words)


def test_a_leader_tie_decision_cites_you_pick_and_the_rules_cite_highest_mental() -> None:
    """The leader decision (a tie after rules 1-3) cites "4. You Pick"; control.py's rules cite
    the Leader paragraph."""
    from warbench.rulesets.warengine.game import control

    assert holds(lines_of(control.__doc__), LEADER)
    assert holds(lines_of(control.__doc__), YOU_PICK)
    line = re.search(r'"leader", rule\((\d+)\)', _protocol_source())
    assert line is not None and YOU_PICK in book_line(int(line.group(1)))


def _protocol_source() -> str:
    from warbench.rulesets.warengine.game import protocol

    assert protocol.__file__ is not None
    with open(protocol.__file__, encoding="utf-8") as fh:
        return fh.read()


def test_move_refusals_and_events_cite_the_move_rules_L403_L405_L411_L415_L419_L425() -> None:
    """Each refusal of a Move and the "moves" event cite the line that holds their rule."""
    runner = force(("A", [(trooper("Runner", mv='9"'), 1)]))
    foe = force(("Foe", [(trooper("Foe"), 1)]))
    s = activate(table(runner, foe, [(10, 5), (10, 40)]), 0)
    refusal = WS.check(s, Move(0, 10, 5), 0)  # nowhere
    assert refusal is not None and MOVE in book_line(cited(refusal.rule))
    refusal = WS.check(s, Move(0, 10, 10, "sprint"), 0)
    assert refusal is not None and SPECIAL in book_line(cited(refusal.rule))
    moved, events = act(s, Move(0, 14.25, 5), 0)
    said = [e for e in events if e.kind == "move"]
    assert said and all(MOVE in book_line(cited(e.rule)) for e in said)
    refusal = WS.check(moved, Move(0, 18.75, 5), 0)  # 4.5" more would use 5" of the 4" left
    assert refusal is not None and PART_INCHES in book_line(cited(refusal.rule))
    fast, _ = act(s, Move(0, 10, 17, "fast"), 0)
    refusal = WS.check(fast, Attack(0, 0, 1), 0)
    assert refusal is not None and FAST in book_line(cited(refusal.rule))
    near = activate(table(runner, foe, [(10, 5), (10, 23)]), 0)
    refusal = WS.check(near, Move(0, 10, 17, "fast"), 0)
    assert refusal is not None and FAST_NEAR in book_line(cited(refusal.rule))
    refusal = WS.check(s, Move(0, 10, 10, "charge"), 0)
    assert refusal is not None and CHARGE in book_line(cited(refusal.rule))


def test_attack_refusals_cite_contact_range_and_closest_L463_L465_L469() -> None:
    """A knife out of reach, a rifle in base contact or out of range, a farther figure."""
    shooter = force(("A", [(trooper("Shooter"), 1)]))
    foes = force(("Foe", [(trooper("Foe"), 2)]))
    s = activate(table(shooter, foes, [(10, 5), (10, 6), (20, 20)]), 0)
    refusal = WS.check(s, Attack(0, 0, 2), 0)  # the rifle, in contact
    assert refusal is not None and NO_RANGED in book_line(cited(refusal.rule))
    s = activate(table(shooter, foes, [(10, 5), (10, 15), (14, 18)]), 0)
    refusal = WS.check(s, Attack(0, 1, 1), 0)  # the knife, 10" away
    assert refusal is not None and CONTACT in book_line(cited(refusal.rule))
    refusal = WS.check(s, Attack(0, 0, 2), 0)  # the rifle at the farther figure
    assert refusal is not None and CLOSEST in book_line(cited(refusal.rule))
    far = activate(table(shooter, foes, [(10, 5), (10, 40), (12, 45)]), 0)
    refusal = WS.check(far, Attack(0, 0, 1), 0)  # the rifle's 24", 35" away
    assert refusal is not None and RANGE in book_line(cited(refusal.rule))


@pytest.mark.parametrize(
    ("what", "doc", "words"),
    [
        ("Move", Move.__doc__, MOVE),
        ("Move, Fast Move", Move.__doc__, FAST),
        ("Move, Charging", Move.__doc__, CHARGE),
        ("Move, the pause", Move.__doc__, PAUSE),
        ("movement.py, Move", movement_mod.__doc__, MOVE),
        ("movement.py, part inches", movement_mod.__doc__, PART_INCHES),
        ("movement.py, Fast Move", movement_mod.__doc__, FAST),
        ("movement.py, Fast Move 6 inches", movement_mod.__doc__, FAST_NEAR),
        ("movement.py, Charge", movement_mod.__doc__, CHARGE),
        ("measure.py, a move", measure_mod.__doc__, MOVE),
        ("measure.py, contact", measure_mod.__doc__, CONTACT),
        ("measure.py, range", measure_mod.__doc__, RANGE),
        ("in_contact", measure_mod.in_contact.__doc__, CONTACT),
        ("allowed_targets", attacks_mod.allowed_targets.__doc__, CLOSEST),
        ("Reserve window", state_mod.Window.__doc__, PAUSE),
        ("reserve.py", reserve_mod.__doc__, PAUSE),
    ],
)
def test_move_and_range_docstrings_cite_their_rule(what: str, doc: str | None, words: str) -> None:
    """The public docstrings of moving and attacking cite a line holding the rule."""
    assert lines_of(doc), what
    assert holds(lines_of(doc), words), (what, lines_of(doc), words)
