"""A decision's prompt is read by a person at the terminal and on the page (session 26 review):
Time Jump's (Perks 000_94ecc6a4c74d351b.txt L1067) names the unit, its action and the two
answers in the protocol's words, with no Python code in it (it said ``UsePerks(1, ('Time Jump
I',))``)."""

from __future__ import annotations

from tests.rulesets.warsurge.effects.test_w2_timejump_perks import _skirmish_with
from warbench.play import run_game
from warbench.rulesets.warsurge.game.protocol import WarsurgeRuleset, WarsurgeState


def test_p1067_the_time_jump_prompt_reads_as_words() -> None:
    ws = WarsurgeRuleset()
    seen: list[WarsurgeState] = []
    run_game(ws, _skirmish_with("Time Jump I"), [], 3, automate={"*"},
             on_step=lambda s, _e: seen.append(s))  # fmt: skip
    offer = next(s for s in seen if not ws.is_over(s) and ws.pending(s)[0].kind == "time jump")
    (decision,) = ws.pending(offer)
    label = offer.game.info(offer.game.rewind.unit).label
    assert decision.prompt.startswith(f"{label} made a ")
    assert "undo it with Time Jump I and decide again (use_perks), or keep it (pass)" in (
        decision.prompt
    )
    assert "UsePerks(" not in decision.prompt and "'" not in decision.prompt
