"""Players (automatic, random, callback, queue) and legal-action sets with families."""

from __future__ import annotations

import queue
import threading

import pytest

from warbench.kernel.dice import SeededChoices
from warbench.play import (
    AutomaticPlayer,
    Box,
    Budget,
    CallbackPlayer,
    Choice,
    Decision,
    Family,
    Interval,
    LegalSet,
    ProtocolError,
    QueuePlayer,
    RandomLegalPlayer,
    Refusal,
)
from warbench.play.players import Ask, PlayerTimeout

Point = tuple[float, float]


def within_six(p: Point) -> Refusal | None:
    """A move "to any point within 6 inches" of the origin (a continuous choice)."""
    if p[0] ** 2 + p[1] ** 2 <= 36:
        return None
    return Refusal("a Move is at most 6 inches", "001_d3f5e425c5e1196d.txt §4.1")


def move_set() -> LegalSet[Point]:
    fam: Family[Point] = Family(
        "move", (Box("to", -6, -6, 6, 6),), lambda v: (float(v[0][0]), float(v[0][1]))
    )
    return LegalSet(0, within_six, ((0.0, 0.0),), (fam,))


def test_a_continuous_set_samples_only_checked_actions() -> None:
    legal = move_set()
    assert not legal.finite and (3.0, 4.0) in legal and (6.0, 6.0) not in legal
    picks = legal.sample(SeededChoices(1), 200)
    assert len(picks) == 200 and all(within_six(p) is None for p in picks)
    assert (0.0, 0.0) in picks and len(set(picks)) > 50  # the listed action and the family
    with pytest.raises(TypeError, match="no length"):
        len(legal)
    assert legal.to_json(list)["families"][0]["params"][0]["type"] == "box"


def test_a_family_with_no_legal_point_is_given_up() -> None:
    fam: Family[Point] = Family("far", (Interval("x", 10, 20),), lambda v: (float(v[0]), 0.0))
    legal = LegalSet(0, within_six, (), (fam,), tries=8)
    assert legal.sample(SeededChoices(1), 3) == []
    assert bool(legal)  # it has a family, even if it turned out to be empty


def test_a_finite_set_lists_and_counts() -> None:
    legal: LegalSet[str] = LegalSet(1, lambda a: None, ("attack", "guard"))
    assert legal.finite and len(legal) == 2 and list(legal) == ["attack", "guard"]
    fam = Family("pick", (Choice("w", ("a", "b")),), lambda v: str(v[0]))
    assert fam.draw(SeededChoices(3)) in ("a", "b")


def test_random_player_is_repeatable_by_seed() -> None:
    d: Decision[Point] = Decision(0, "positions")
    a = [RandomLegalPlayer[Point](5).choose(None, move_set(), d, Budget()) for _ in range(2)]
    assert a[0] == a[1]


def test_automatic_player_takes_the_default_or_the_fallback() -> None:
    d: Decision[Point] = Decision(0, "positions", default=(1.0, 1.0))
    assert AutomaticPlayer[Point]().choose(None, move_set(), d, Budget()) == (1.0, 1.0)
    turn: Decision[Point] = Decision(0, "turn", rule="§2.2")
    with pytest.raises(ProtocolError, match="no default"):
        AutomaticPlayer[Point]().choose(None, move_set(), turn, Budget())
    fb = AutomaticPlayer(RandomLegalPlayer[Point](1))
    assert within_six(fb.choose(None, move_set(), turn, Budget())) is None


def test_callback_player_gets_the_whole_question() -> None:
    asks: list[Ask[Point]] = []
    p = CallbackPlayer[Point](lambda ask: asks.append(ask) or (2.0, 0.0))  # type: ignore[func-returns-value]
    d: Decision[Point] = Decision(0, "positions")
    assert p.choose("view", move_set(), d, Budget(seconds=3)) == (2.0, 0.0)
    assert asks[0].view == "view" and asks[0].budget.seconds == 3


def test_queue_player_answers_from_another_thread() -> None:
    p = QueuePlayer[Point]()

    def remote() -> None:
        ask = p.outbox.get(timeout=5)
        p.inbox.put(ask.legal.sample(SeededChoices(2))[0])

    t = threading.Thread(target=remote)
    t.start()
    got = p.choose(None, move_set(), Decision(0, "positions"), Budget(seconds=5))
    t.join()
    assert within_six(got) is None


def test_queue_player_times_out_to_the_default_or_an_error() -> None:
    p = QueuePlayer[Point](inbox=queue.Queue())
    d: Decision[Point] = Decision(0, "may", default=(0.0, 0.0))
    assert p.choose(None, move_set(), d, Budget(seconds=0)) == (0.0, 0.0)
    with pytest.raises(PlayerTimeout, match="did not answer"):
        p.choose(None, move_set(), Decision(0, "turn"), Budget(seconds=0))


def test_prompt_player_lists_choices_explains_refusals_and_takes_the_default() -> None:
    from warbench.play import PromptPlayer, SetupArgs
    from warbench.play.toy import SAMPLE_SETUP, DiceDuel, Move

    duel = DiceDuel()
    s = duel.setup(SAMPLE_SETUP["rosters"], SAMPLE_SETUP["board"], SAMPLE_SETUP["options"], 1)
    s, _ = duel.apply(s, duel.actions.load({"kind": "initiative", "first": 0}), -1)
    s, _ = duel.apply(s, duel.actions.load({"kind": "stance", "stance": "attack"}), 0)
    s, _ = duel.apply(s, duel.actions.load({"kind": "stance", "stance": "guard"}), 1)
    (d,) = duel.pending(s)
    answers = iter(["nonsense", '{"kind": "move", "to": 5}', '{"kind": "move", "to": 1.5}'])
    shown: list[str] = []
    p = PromptPlayer(duel.actions, read=lambda _: next(answers), write=shown.append)
    assert p.choose(duel.view(s, 0), duel.legal_actions(s, 0), d, Budget()) == Move(1.5)
    text = "\n".join(shown)
    assert "move along the line [toy §4]" in text and "(default)" in text
    assert "not understood" in text and "refused: a move from 0 may end between 0 and 3" in text
    # the family's domain is offered in words, with an action of it to type (session 35)
    assert "or any move to (to: 0 to 3) as JSON, e.g. {" in text
    blank = PromptPlayer(duel.actions, read=lambda _: "", write=shown.append)
    assert blank.choose(None, duel.legal_actions(s, 0), d, Budget()) == d.default
    one = PromptPlayer(duel.actions, read=lambda _: "1", write=shown.append)
    assert one.choose(None, duel.legal_actions(s, 0), d, Budget()) == d.default
    assert SetupArgs((1, 2)).to_json()["rosters"] == [1, 2]
