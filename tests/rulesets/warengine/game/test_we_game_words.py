"""The WarEngine 2.1 choices in words at the terminal (session 26 review): ``warbench play
--ruleset warengine`` numbers each choice with its words (``game/words.py``) and its action's
JSON under them, so a push reads "Crew #1 gives its movement left to push Hulk #0 toward
Raider #2" (004_f4ea5693af0644ce.txt L1403), not ``{"fig": 1, "kind": "push", ...}``."""

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


def test_shape_and_transfer_in_words_L1615_L1847() -> None:
    wolf = {"name": "Wolf", "type": "L", "mv": '9"', "df": "3k3", "mn": "2k2",
            "tweaks": ["Shapechanger"], "weapons": [{"name": "Claws", "av": "3k3"}]}  # fmt: skip
    wolfman = trooper("Wolfman", type="C", tweaks=["Shapechanger"], forms=[wolf])
    plasma = {"name": "Plasma", "range": '24"', "av": "3k3", "tweaks": ["Transferable"]}
    carrier = trooper("Carrier", weapons=[{"name": "Knife", "av": "1k1"}, plasma])
    s = table(
        force(("W", [(wolfman, 1)]), ("G", [(carrier, 2)])),
        force(("D", [(trooper("Foe"), 1)])),
        [(10, 5), (20, 5), (22, 5), (10, 40)],
    )
    ctx, view = ctx_of(s), WS.views.dump(WS.view(s, 0))
    assert describe(ctx, view, {"kind": "shape", "fig": 0, "form": 0}) == (
        "Wolfman #0 stays in its Wolfman form (form 0, Shapechanger L1615)"
    )
    assert describe(ctx, view, {"kind": "shape", "fig": 0, "form": 1}) == (
        "Wolfman #0 changes to its Wolf form (form 1, Shapechanger L1615)"
    )
    passed = describe(ctx, view, {"kind": "transfer", "fig": 1, "use": True}) or ""
    kept = describe(ctx, view, {"kind": "transfer", "fig": 1, "use": False}) or ""
    assert passed.startswith("pass Carrier #1's Transferable weapon to the nearest figure")
    assert kept.startswith("keep Carrier #1's Transferable weapon")
