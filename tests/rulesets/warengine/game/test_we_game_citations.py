"""The placing, initiative, leader and activation rules cite the lines of The WarEngine 2.1 that
hold them (004_f4ea5693af0644ce.txt L301-L379; session 35, s35-cite); so do the Move, Fast
Move, Charge, contact, range and closest-figure rules (L403-L425, L461-L469; session 36,
s36-cite); so do line of sight, cover, the charts, area effects, reserves, victory and the
rule strings of the powers and tweaks (L399-L631, L838, L999-L1893; session 37, s37-cite).

Until session 35 these were cited 14-24 lines early (placing as L287-L293, an activation as
L354, the Rout paragraph); a player reading "[The WarEngine 2.1 L287]" found the book's
introduction. Until session 36 a Move was cited as L402 (a blank line), part inches as L406,
a Fast Move as L420, contact as L467 and range as L469 (the targeting paragraphs). Until
session 37 line of sight was cited as L434 (blank), a lunge as L591 (Check Control), Telepathic
Command as L1299 (Teleport's heading) and every Monstrously Huge refusal as L1401 (the tweak's
points line). Each check here takes a citation from the code itself (a decision, a refusal, an
event or a docstring of a real game, or a rule string read in the engine's source) and reads
the book at that line: the line must hold the rule's own words, so a citation moved off its
rule fails.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from warbench.play.core import CHANCE
from warbench.rulesets.warengine.game import area as area_mod
from warbench.rulesets.warengine.game import attacks as attacks_mod
from warbench.rulesets.warengine.game import board as board_mod
from warbench.rulesets.warengine.game import measure as measure_mod
from warbench.rulesets.warengine.game import movement as movement_mod
from warbench.rulesets.warengine.game import reserve as reserve_mod
from warbench.rulesets.warengine.game import setup as setup_mod
from warbench.rulesets.warengine.game import state as state_mod
from warbench.rulesets.warengine.game import victory as victory_mod
from warbench.rulesets.warengine.game.protocol import WarEngineRuleset
from warbench.rulesets.warengine.game.state import (
    BOOK,
    Activate,
    Attack,
    Deactivate,
    First,
    Move,
    Place,
    Reserve,
    Roll,
)

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


# -- session 37 (s37-cite): sight, cover, the charts, reserves, area effects, victory, powers --

ACTIONS = "one at a time, you perform all the actions for each figure in the unit"
ONE_WEAPON = 'attack with one weapon, move 4", attack with another weapon'
LOS = "a figure has line of sight to another figure if the figure sighting is able to see the other"
BLOCK = "friendly vehicles and monster do block line of sight"
COVER = "there are four levels of cover"
ENTRENCH = "entrenching cover is heavy cover that is a prepared defensive position"
TARGET = "you may target any unit within range and line of sight"
OPPONENT = "your opponent looks up his figure's defense value"
ATTACK_CHART = "attack adjustments chart"
DID_NOT_MOVE = "did not move may not be combined with heavy cover"
HERO = "the figure may use hero points to adjust his attack or defense roll upward"
CC_AE = "the attacker can target multiple figures in base-to-base contact with him"
CC_FEWER = "the attacker may choose to affect less than the maximum number allowed"
EX_HEAVY = (
    "secondary targets not within line of sight of the attacker are treated as being in heavy"
)
EX_TIE = "use a die roll to randomly"
LI_STOP = "vehicles and monsters also will prevent the shot from affecting any further secondary"
FIRING_CC = "it is perfectly acceptable to shoot at figures in close combat with one another"
LEAVING = "if you want to move your figure out of base-to-base contact with an enemy figure"
LAST_ACTION = "a reserve attack action, if taken, must always be the last action a figure takes"
SIMULTANEOUS = "your attack is simultaneous with your opponent's"
ACTIVE_ENEMY = "when you wish to use the reserved attack against the currently active enemy unit"
LUNGE = "the figure may lunge 1 inch for every 9 inches of his movement allowance"
FOLLOW_UP = "the game progresses to the follow up step"
LAST_MAN = "you've destroyed all your opponent's figures"
VP_TARGET = "if one player has passed the target total, he wins"
UNIT_100 = "each player receives 100 points for each enemy unit destroyed or routed"
MARGIN = "if one player scores more than 250 points more than his opponent, he wins"
POWERS = "the special powers listed below modify the actual effect of the"
RVS = "the user may choose to use its own attacks or powers or the attacks or powers of the vehicle"
FUTURE = "if the user force loses initiative, it is instead considered to have won initiative"
STATIC = "is zapped with a 2k2 av attack"
STORM = "any non-vengequan figures"
RESET = "one of the other basic troopers is field-upgraded"
TELEPATHIC = "the user must be within the control radius of a selected character"
WAVE = 'hit by the wave are moved directly 3" away'
HUGE = 'every 9" of movement given up in this way generates 1" of movement for the vehicle'
S37_WORDS = (
    ACTIONS, ONE_WEAPON, LOS, BLOCK, COVER, ENTRENCH, TARGET, OPPONENT, ATTACK_CHART,
    DID_NOT_MOVE, HERO, CC_AE, CC_FEWER, EX_HEAVY, EX_TIE, LI_STOP, FIRING_CC, LEAVING,
    LAST_ACTION, SIMULTANEOUS, ACTIVE_ENEMY, LUNGE, FOLLOW_UP, LAST_MAN, VP_TARGET, UNIT_100,
    MARGIN, POWERS, RVS, FUTURE, STATIC, STORM, RESET, TELEPATHIC, WAVE, HUGE,
)  # fmt: skip
ENGINE = Path(movement_mod.__file__).resolve().parents[1]  # src/warbench/rulesets/warengine
#: A heading or a points line ("#### +5 points", "## - 5 points"): the name of an entry, no rule.
HEADING = re.compile(r"^#")


def _sources() -> dict[str, str]:
    """The engine's source files by their path under ``rulesets/warengine``."""
    return {
        str(p.relative_to(ENGINE)): p.read_text(encoding="utf-8")
        for p in sorted(ENGINE.rglob("*.py"))
    }


def _raw(n: int) -> str:
    return BOOK_PATH.read_text(encoding="utf-8").splitlines()[n - 1].strip()


def test_s37_the_words_are_the_books_and_each_on_one_line() -> None:
    """Each phrase is on exactly one line, and the lines cited before are what the docs say:
    L398, L400, L434 and L519 blank, L587 the Check Control heading, L999 a heading and L1401
    a points line (the rule strings cited them until session 37)."""
    norm = [
        " ".join(x.lower().replace("*", "").split()) for x in BOOK_PATH.read_text().splitlines()
    ]
    for words in S37_WORDS:
        assert sum(words in x for x in norm) == 1, words
    for old in (398, 400, 434, 438, 456, 517, 519, 535):
        assert book_line(old) == "", old
    assert book_line(587) == "# check control" and book_line(999).startswith("#")
    assert book_line(1401) == "#### - 4 points; vehicles only"
    assert "telepathic command" in book_line(1293) and book_line(1299) == "#### teleport"


def _rule_numbers(text: str) -> list[int]:
    """Every line number a rule reference can cite: inside ``rule(...)`` (``rule(1303 if ...
    else 1219)`` too) and in the line tables (``LINES = {...}``, ``line = {...}``,
    ``REROLL_LINES = {...}``) and the strike tuples of a power's plain attack."""
    out: list[int] = []
    for body in re.findall(r"rule\(([^()]*)\)", text):
        out += [int(n) for n in re.findall(r"\b(\d{3,4})\b", body)]
    for body in re.findall(r"(?:LINES|line) = \{([^}]*)\}", text):
        out += [int(n) for n in re.findall(r"\b(\d{3,4})\b", body)]
    out += [int(n) for n in re.findall(r'"attack", (\d{4})\)\)', text)]
    return out


def test_every_rule_reference_names_a_line_of_rule_text() -> None:
    """A refusal, decision or event cites a line that holds words of a rule: never a blank
    line (L398, L400, L434, L519 until session 37), a heading ("# Check Control" for a reserve
    decision, "# WarEngine Special Powers") or an entry's points line ("#### - 4 points;
    Vehicles only" for every Monstrously Huge refusal, "## - 5 points" for Blood Rage)."""
    bad = []
    seen = 0
    for name, text in _sources().items():
        for n in _rule_numbers(text):
            seen += 1
            if not _raw(n) or HEADING.match(_raw(n)):
                bad.append((name, n, _raw(n)[:40]))
    assert seen > 200, seen  # the guard reads the engine, not an empty list
    assert not bad, bad


def test_every_line_the_engine_cites_has_words() -> None:
    """Every ``L<n>`` of the engine's docstrings and comments (ranges by both ends) is a line
    with words: no blank line like the old L400, L434-L440 or L442-L458."""
    bad = []
    for name, text in _sources().items():
        for a, b in re.findall(r"(?<![\w-])L(\d{3,4})(?:-L?(\d{3,4}))?\b", text):
            for n in {int(a), int(b or a)}:
                if n <= 1893 and not _raw(n):
                    bad.append((name, n))
    assert not bad, bad


def test_sight_refusals_cite_the_line_of_sight_rule_L429() -> None:
    """A vehicle between shooter and target: refused with the line-of-sight definition."""
    tank = trooper("Tank", type="L", tweaks=["Vehicle"])
    f0 = force(("A", [(trooper("Shooter"), 1)]), ("T", [(tank, 1)]))
    foe = force(("Foe", [(trooper("Foe"), 1)]))
    s = activate(table(f0, foe, [(10, 5), (10, 15), (10, 30)]), 0)
    refusal = WS.check(s, Attack(0, 0, 2), 0)
    assert refusal is not None and "line of sight" in refusal.reason
    assert LOS in book_line(cited(refusal.rule))


def test_a_weapon_twice_another_units_figure_off_table_and_a_friend_L399_L467_L471() -> None:
    """The rifle again in one activation, a figure of another unit, a target that is not
    there, and a friend: each refusal's line holds its rule."""
    f0 = force(("A", [(trooper("Gunner", type="C"), 1)]), ("B", [(trooper("Pal"), 1)]))
    foe = force(("Foe", [(trooper("Foe", type="C", df="6k5"), 1)]))
    s = activate(table(f0, foe, [(10, 5), (14, 5), (10, 20)]), 0)
    refusal = WS.check(s, Attack(1, 0, 2), 0)  # the Pal is not in the activating unit
    assert refusal is not None and ACTIONS in book_line(cited(refusal.rule))
    refusal = WS.check(s, Attack(0, 0, 9), 0)
    assert refusal is not None and TARGET in book_line(cited(refusal.rule))
    refusal = WS.check(s, Attack(0, 0, 1), 0)  # the Pal, a friend
    assert refusal is not None and OPPONENT in book_line(cited(refusal.rule))
    s, _ = act(s, Attack(0, 0, 2), 0, [1] * 10)
    refusal = WS.check(s, Attack(0, 0, 2), 0)
    assert refusal is not None and ONE_WEAPON in book_line(cited(refusal.rule))


def test_reserve_refusal_and_decision_cite_L573_L577() -> None:
    """A reserved figure may not move (its last action); an enemy's move into its range opens
    a window whose decision cites the rule that reserved attacks go at the active enemy unit."""
    gun = trooper("Gunslinger", type="C")
    fast = trooper("Foe", type="C", mv='15"')
    s = activate(table(force(("A", [(gun, 1)])), force(("B", [(fast, 1)])), [(10, 5), (10, 40)]), 0)
    s, _ = act(s, Reserve(0, 0), 0)
    refusal = WS.check(s, Move(0, 10, 7), 0)
    assert refusal is not None and LAST_ACTION in book_line(cited(refusal.rule))
    s, _ = act(s, Deactivate(), 0)
    s = activate(s, 1)
    s, _ = act(s, Move(1, 10, 28), 1)
    window = WS.pending(s)[0]
    assert (window.player, window.kind) == (0, "reserve")
    assert ACTIVE_ENEMY in book_line(cited(window.rule))


#: (what, a pattern of the engine's source whose group is the cited line, the rule's words)
SOURCE_CITES = [
    ("hero decision", r'"hero", rule\((\d+)\), "spend Hero Points"', HERO),
    ("hero event", r'spends \{action.points\} Hero Points", rule\((\d+)\)', HERO),
    ("CC area effect", r'weapons choose their targets", rule\((\d+)\)', CC_AE),
    ("CC area effect, at most", r"other figures\", rule\((\d+)\)", CC_AE),
    ("CC area effect, contact", r'is not in base contact", rule\((\d+)\)', CC_AE),
    ("firing into close combat", r'figures affected",\s*rule\((\d+)\)', FIRING_CC),
    ("leaving close combat", r'the figure leaving close combat",\s*rule\((\d+)\)', LEAVING),
    ("answering an attack", r'which has a reserved attack",\s*rule\((\d+)\)', SIMULTANEOUS),
    ("lunge", r'lunges", rule\((\d+)\)', LUNGE),
    ("a move passing a lunger", r'passes an enemy figure", rule\((\d+)\)', LUNGE),
    ("Follow Up", r'Follow Up", rule\((\d+)\)', FOLLOW_UP),
    ("unit destroyed", r'is destroyed", rule\((\d+)\)', UNIT_100),
    ("last force standing", r'game over: \{state.reason\}", rule\((\d+)\)', LAST_MAN),
    ("victory points target", r'passed \(.*\n.*rule\((\d+)\)', VP_TARGET),
    ("the 250-point margin", r'victory points: \{verdict\}"\n.*rule\((\d+)\)', MARGIN),
    ("a power's own limits", r'f"\{w.power\}: \{why_not\}", rule\((\d+)\)', POWERS),
    ("Restore Vehicle Spirit", r"Refused\(both, rule\((\d+)\)\)", RVS),
    ("See the Future", r'saw the future: it wins the initiative", rule\((\d+)\)', FUTURE),
    ("Static Charge", r'"static charge",(?:.|\n){0,400}?rule\((\d+)\)', STATIC),
    ("System Reset", r'#\{tid\} is field-upgraded to(?:.|\n){0,120}?rule\((\d+)\)', RESET),
    ("Telepathic Command", r'f"character; allowed: \{allowed\}",\s*rule\((\d+)\)', TELEPATHIC),
    ("Wave", r'back 3"\', rule\((\d+)\)', WAVE),
    ("Monstrously Huge", r'may not push now", rule\((\d+)\)', HUGE),
]  # fmt: skip


@pytest.mark.parametrize(
    ("what", "pattern", "words"), SOURCE_CITES, ids=[c[0] for c in SOURCE_CITES]
)
def test_the_engines_rule_strings_cite_their_rule(what: str, pattern: str, words: str) -> None:
    """Events and refusals that a short game does not reach, read in the engine's source: the
    line their ``rule(...)`` names holds the rule's words (session 37 moved each one there)."""
    found = [
        int(n)
        for text in _sources().values()
        for m in re.finditer(pattern, text)
        for n in m.groups()
        if n
    ]
    assert found, what
    assert all(words in book_line(n) for n in found), (what, found, words)


@pytest.mark.parametrize(
    ("what", "doc", "words"),
    [
        ("board.py, sight", board_mod.__doc__, BLOCK),
        ("board.py, cover", board_mod.__doc__, COVER),
        ("board.py, entrenching", board_mod.__doc__, ENTRENCH),
        ("Field.sight", board_mod.Field.sight.__doc__, LOS),
        ("Field.cover", board_mod.Field.cover.__doc__, COVER),
        ("measure.sees", measure_mod.sees.__doc__, LOS),
        ("cover_of", attacks_mod.cover_of.__doc__, COVER),
        ("attack_pool", attacks_mod.attack_pool.__doc__, ATTACK_CHART),
        ("area.py, CC", area_mod.__doc__, CC_AE),
        ("area.py, fewer", area_mod.__doc__, CC_FEWER),
        ("area.py, ties", area_mod.__doc__, EX_TIE),
        ("area.py, linear", area_mod.__doc__, LI_STOP),
        ("reserve.py, last action", reserve_mod.__doc__, LAST_ACTION),
        ("reserve.py, the active enemy", reserve_mod.__doc__, ACTIVE_ENEMY),
        ("reserve.py, simultaneous", reserve_mod.__doc__, SIMULTANEOUS),
        ("reserve.py, lunge", reserve_mod.__doc__, LUNGE),
        ("Reserve", Reserve.__doc__, LAST_ACTION),
        ("ReserveFire, out of sequence", state_mod.ReserveFire.__doc__, ACTIVE_ENEMY),
        ("ReserveFire, lunge", state_mod.ReserveFire.__doc__, LUNGE),
        ("movement.py, leaving", movement_mod.__doc__, LEAVING),
        ("victory.py, last force", victory_mod.__doc__, LAST_MAN),
        ("victory.py, margin", victory_mod.__doc__, MARGIN),
        ("Hero", state_mod.Hero.__doc__, HERO),
    ],
)
def test_sight_cover_reserve_and_victory_docstrings_cite_their_rule(
    what: str, doc: str | None, words: str
) -> None:
    """The public docstrings of sight, cover, area effects, reserves and victory cite a line
    holding the rule (they cited L432-L440, L442-L458, L515-L519, L583-L591 and L621-L633)."""
    assert lines_of(doc), what
    assert holds(lines_of(doc), words), (what, lines_of(doc), words)
