"""The WarEngine 2.1 choices in words at the terminal (session 26 review): ``warbench play
--ruleset warengine`` numbers each choice with its words (``game/words.py``) and its action's
JSON under them, so a push reads "Crew #1 gives its movement left to push Hulk #0 toward
Raider #2" (004_f4ea5693af0644ce.txt L1401), not ``{"fig": 1, "kind": "push", ...}``."""

from __future__ import annotations

import math

from warbench.play import Budget, PromptPlayer
from warbench.rulesets.warengine.game.words import describe

from .helpers import WS, activate, ctx_of, force, table, trooper


def _hulk() -> dict[str, object]:
    return trooper("Hulk", type="L", mv='0"', tweaks=["Vehicle", "Monstrously Huge"])


def test_a_push_is_asked_in_words_with_its_json_L1401() -> None:
    s = table(
        force(("Hulk", [(_hulk(), 1)]), ("Crew", [(trooper("Crew"), 1)])),
        force(("Foe", [(trooper("Raider"), 1)])),
        [(20, 10), (20, 8.5), (20, 40)],
    )
    ctx = ctx_of(s)
    f = s.figs[1]  # put the Crew exactly in base contact behind the Hulk
    d = math.hypot(f.x - 20, f.y - 10)
    reach = ctx.profiles[0].radius + ctx.profiles[1].radius
    f.x, f.y = 20 + (f.x - 20) / d * reach, 10 + (f.y - 10) / d * reach
    s = activate(s, 1)
    (decision,) = WS.pending(s)
    shown: list[str] = []

    def say(view: object, action: object) -> str | None:
        return describe(ctx, WS.views.dump(view), WS.actions.dump(action))

    p = PromptPlayer(WS.actions, read=lambda _: "", write=shown.append, describe=say)
    p.choose(WS.view(s, 0), WS.legal_actions(s, 0), decision, Budget())
    text = "\n".join(shown)
    assert "gives its movement left to push Hulk #0 toward Raider #2" in text
    assert '"kind": "push"' in text  # the JSON under its words
    plain: list[str] = []
    PromptPlayer(WS.actions, read=lambda _: "", write=plain.append).choose(
        WS.view(s, 0), WS.legal_actions(s, 0), decision, Budget()
    )
    assert not any("gives its movement" in line for line in plain)  # without words: JSON only
