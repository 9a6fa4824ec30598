"""The WarEngine 2.1 game on the game protocol (``warbench.play``; docs/warengine-game.md).

Decisions (``pending``), one at a time, in this priority:

0. ``transfer``: a Transferable weapon of a figure removed from the table (L1847, kit.py);
1. ``hero``: a rolled attack waits for Hero Points (the attacker, then each defender, L493);
2. ``leader``: a tie for a unit's leader after rules 1-3, the owner picks (L334);
3. chance ``roll``: placement roll-offs (L305) and initiative (L362);
4. ``shape``: a Shapechanger's form in the Follow Up step (L1615, game/kit.py);
   ``place`` (L301-L309, ``Place.form``), ``first`` (who activates first, L362);
5. ``reserve``: the other player may use reserved attacks (a ``move`` or ``counter`` window);
6. ``activation``: choose a unit to activate; ``action``: the active unit's figures act.

Every decision has the engine's choice as ``default`` (the scripted play of :mod:`.ai`), so
``AutomaticPlayer`` and ``automate={"*"}`` play whole games.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, NotRequired

from typing_extensions import TypedDict

from warbench.kernel.dice import Dice
from warbench.kernel.errors import ProfileError
from warbench.play.codec import TypeCodec
from warbench.play.core import CHANCE, JSON, Decision, Event, Refusal, Result, digest_of, step_dice
from warbench.play.legal import Box, Family, LegalSet
from warbench.rulesets.warengine.dice import XkY
from warbench.rulesets.warengine.game import activation as act
from warbench.rulesets.warengine.game import attacks as atk
from warbench.rulesets.warengine.game import kit, terrain
from warbench.rulesets.warengine.game import movement as mov
from warbench.rulesets.warengine.game import reserve as res
from warbench.rulesets.warengine.game import resolution as rsl
from warbench.rulesets.warengine.game import setup as stp
from warbench.rulesets.warengine.game.control import check_control, group_figs
from warbench.rulesets.warengine.game.measure import free_spot, on_table
from warbench.rulesets.warengine.game.rout import terror_tests
from warbench.rulesets.warengine.game.state import (
    ACTION_TYPE,
    Activate,
    Attack,
    Deactivate,
    First,
    GameState,
    Hero,
    Kit,
    Leader,
    Move,
    Pass,
    Place,
    Push,
    Reroll,
    Reserve,
    ReserveFire,
    Roll,
    Shape,
    Surge,
    Transfer,
    WarEngineAction,
    rule,
)
from warbench.rulesets.warengine.game.victory import last_standing, scores

#: The behaviour version: 2 (issue 16) sight through the battlefield's query, Hero Points in
#: the Follow Up step as decisions, 21 more tweaks and powers, the state's ``marks``/``resume``;
#: 3: rerolls as ``reroll`` decisions, Telepathic Command's character and Induce Drug Frenzy's
#: Attack Value as choices of the Attack (``via``, ``av``).
#: 4: weapons, tweaks and form as state (``GameState.kit``, written only when not empty),
#: ``Attack.take`` (Scrounger) and ``Attack.lose`` (Drain Power), ``Place.form`` and the
#: Follow Up step's ``shape`` decision (Shapechanger), Restore Vehicle Spirit's wrecks and
#: combined figures (``Kit.wreck``, ``ride``, ``ridden``), ``View.kit``; the ``Push`` action
#: (Monstrously Huge), and Rally's and a friendly power's fixes (docs/rulings.md).
VERSION = "warengine-game-4"


class _LazyDice:
    """``step_dice(seed, step)``, made on the first roll (most steps roll nothing)."""

    def __init__(self, seed: int, step: int) -> None:
        self.seed, self.step = seed, step
        self._dice: Dice | None = None

    def __getattr__(self, name: str) -> Any:
        if self._dice is None:
            self._dice = step_dice(self.seed, self.step)
        return getattr(self._dice, name)


class LazyDecision(Decision[WarEngineAction]):
    """A :class:`~warbench.play.core.Decision` whose ``default`` (the engine's scripted
    choice, :func:`.ai.choose`) is computed on first reading, then kept (issue 16, speed).

    Asking who decides costs nothing of the scripted play: a random or human player, the
    conformance checks and a search's ``pending`` never pay for a default they do not read.
    Equality, hashing, ``repr`` and :meth:`to_json` read the default like any field, so a lazy
    decision is indistinguishable from an eager one with the same default."""

    def __init__(
        self,
        player: int,
        kind: str,
        rule: str = "",
        prompt: str = "",
        default: WarEngineAction | None = None,
        outcomes: tuple[tuple[WarEngineAction, float], ...] = (),
        *,
        thunk: Callable[[], WarEngineAction] | None = None,
    ) -> None:
        # the dataclass's own fields (``dataclasses.replace`` passes them all); the default
        # is either given or the thunk's answer, computed once when first read
        object.__setattr__(self, "player", player)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "rule", rule)
        object.__setattr__(self, "prompt", prompt)
        object.__setattr__(self, "outcomes", outcomes)
        object.__setattr__(self, "_thunk", thunk)
        if thunk is None:
            object.__setattr__(self, "_default", default)

    def eager(self) -> Decision[WarEngineAction]:
        """The same decision with its default computed (a plain :class:`Decision`)."""
        return Decision(self.player, self.kind, self.rule, self.prompt, self.default, self.outcomes)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LazyDecision):
            other = other.eager()
        return self.eager() == other

    def __hash__(self) -> int:
        return hash(self.eager())

    def __repr__(self) -> str:
        return repr(self.eager())

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled and copied as the plain decision (the thunk holds a state and a lambda)
        return (Decision, (self.player, self.kind, self.rule, self.prompt, self.default))

    def __getattribute__(self, name: str) -> Any:
        if name == "default":
            d = self.__dict__
            if "_default" not in d:
                object.__setattr__(self, "_default", d["_thunk"]())
            return d["_default"]
        return object.__getattribute__(self, name)


class FigureView(TypedDict):
    """One figure as every player sees it."""

    id: int
    side: int
    unit: int
    name: str
    x: float
    y: float
    placed: bool
    alive: bool
    hero: int
    reserved: int | None
    controlled: bool


class UnitView(TypedDict):
    """One unit as every player sees it."""

    id: int
    side: int
    name: str
    leader: int | None
    activated: bool
    gone: bool


class View(TypedDict):
    """A player's view: everything on the table is open information (L573)."""

    player: int
    turn: int
    phase: str
    to_act: int
    active_units: list[int]
    scores: list[int]
    figures: list[FigureView]
    units: list[UnitView]
    kit: NotRequired[dict[str, Kit]]  # weapons, tweaks, form changed (only when any, kit.py)
    #: the board as it stands, only once a power has changed it (L1031-L1331)
    board: NotRequired[dict[str, Any]]


def _dump(codec: TypeCodec[GameState], state: GameState) -> dict[str, JSON]:
    """The state's JSON; ``kit`` only when a figure's kit changed (older digests stay)."""
    data = codec.dump(state)
    assert isinstance(data, dict)
    if not state.kit:
        data.pop("kit", None)
    return data


class StateCodec:
    """States as JSON with their set-up arguments (so a saved state loads anywhere)."""

    def __init__(self) -> None:
        self._codec: TypeCodec[GameState] = TypeCodec(GameState, "warengine state")

    def dump(self, value: GameState) -> JSON:
        """JSON of the state plus its set-up."""
        data = _dump(self._codec, value)
        data["setup"] = stp.context(value.setup_key).args
        return data

    def load(self, data: JSON) -> GameState:
        """Read a state written by :meth:`dump` (rebuilding its set-up if needed)."""
        body = dict(data)
        args = body.pop("setup", None)
        state = self._codec.load(body)
        stp.context(state.setup_key, args)
        return state

    def schema(self) -> dict[str, JSON]:
        """The JSON Schema of the state; ``setup`` holds the set-up arguments (an object)."""
        out = self._codec.schema()
        props = out.get("properties")
        if isinstance(props, dict):
            props["setup"] = {"type": "object", "description": "the set-up arguments"}
        return out


class WarEngineRuleset:
    """The WarEngine 2.1 ruleset (registered as ``warengine``)."""

    id = "warengine"
    version = VERSION

    def __init__(self) -> None:
        self.actions: TypeCodec[WarEngineAction] = TypeCodec(ACTION_TYPE, "warengine action")
        self.states = StateCodec()
        self.views: TypeCodec[View] = TypeCodec(View, "warengine view")

    # -- setup ---------------------------------------------------------------------------------
    def setup(
        self, rosters: Sequence[JSON], board: JSON, options: Mapping[str, JSON], seed: int
    ) -> GameState:
        """Two forces (WarEngine force JSON), a board (sample name or data), options
        ``turns``, ``vp_target``, ``objectives``, ``quarters``, ``deploy_depth``."""
        return stp.new_game(rosters, board, options, seed)

    # -- decisions -----------------------------------------------------------------------------
    def pending(self, state: GameState) -> tuple[Decision[WarEngineAction], ...]:
        """The one decision pending now (see the module docstring)."""
        if state.phase == "over":
            return ()
        ctx = kit.context_of(state)
        tq = kit.transfer_question(state, ctx)
        if tq is not None:
            return (
                Decision(
                    tq[0],
                    "transfer",
                    rule(1847),
                    f"pass {ctx.profiles[tq[1]].name} #{tq[1]}'s Transferable weapon?",
                    Transfer(tq[1], tq[2]),
                ),
            )
        rq = rsl.reroll_question(state, ctx)
        if rq is not None:
            player, fig, why, use, _i = rq
            whose = "your" if player == state.figs[fig].side else "the enemy's"
            return (
                Decision(
                    player,
                    "reroll",
                    rule(rsl.reroll_line(why)),
                    f"reroll {whose} {ctx.profiles[fig].name} #{fig}'s roll ({why})?",
                    Reroll(use),
                ),
            )
        q = rsl.hero_question(state, ctx)
        if q is not None:
            player, _fig, _most, default = q
            return (
                Decision(
                    player,
                    "hero",
                    rule(493),
                    rsl.hero_words(state, ctx),  # the rolls and the points needed
                    Hero(default),
                ),
            )
        if state.leader_choice:
            unit, *cands = state.leader_choice
            return (
                Decision(
                    state.units[unit].side,
                    "leader",
                    rule(334),
                    f"pick the leader of {state.units[unit].name} among {cands}",
                    Leader(cands[0]),
                ),
            )
        sq = kit.shape_question(state, ctx)
        if sq is not None:
            return (
                Decision(
                    sq[0],
                    "shape",
                    rule(1615),
                    f"change {ctx.profiles[sq[1]].name} #{sq[1]} to another form?",
                    Shape(sq[1], kit.form_of(state, sq[1])),
                ),
            )
        if state.phase == "placement":
            if state.place_roll:
                return (_roll("placement roll-off", 305),)
            assert state.placing is not None
            fid = stp.group_figs(state, ctx)[0]
            return (
                LazyDecision(
                    state.placing,
                    "place",
                    rule(303),
                    f"place {ctx.profiles[fid].name} #{fid}",
                    thunk=lambda: Place(fid, *stp.auto_place(state, ctx, fid)),
                ),
            )
        if state.phase == "initiative":
            if state.initiative is None:
                return (_roll("initiative", 362),)
            return (
                Decision(
                    state.initiative,
                    "first",
                    rule(362),
                    "who activates first?",
                    First(state.initiative),
                ),
            )
        if state.window is not None:
            window = state.window
            prompt, line = res.window_words(state, ctx, window)  # what opened it (L575, L577)
            return (
                LazyDecision(
                    state.window.player,
                    "reserve",
                    line,
                    prompt,
                    thunk=lambda: res.default_answer(state, ctx, window),
                ),
            )
        from warbench.rulesets.warengine.game.ai import choose

        if state.active_unit is None:
            return (
                LazyDecision(
                    state.to_act,
                    "activation",
                    rule(366),
                    "activate a unit",
                    thunk=lambda: choose(state, ctx, state.to_act),
                ),
            )
        side = state.units[state.active_unit].side
        return (
            LazyDecision(
                side,
                "action",
                rule(399),
                "act with a figure, or Deactivate",
                thunk=lambda: choose(state, ctx, side),
            ),
        )

    def legal_actions(self, state: GameState, player: int) -> LegalSet[WarEngineAction]:
        """The listed actions, plus a family of moves to any point for each active figure."""

        def check(a: WarEngineAction) -> Refusal | None:
            return self.check(state, a, player)

        if state.phase == "over" or _who(state).player != player:
            return LegalSet(player, check)
        d = _who(state)
        ctx = kit.context_of(state)
        if d.kind == "reroll":
            return LegalSet(player, check, (Reroll(False), Reroll(True)))
        if d.kind == "hero":
            q = rsl.hero_question(state, ctx)
            assert q is not None
            return LegalSet(player, check, tuple(Hero(k) for k in range(q[2] + 1)))
        if d.kind == "leader":
            return LegalSet(player, check, tuple(Leader(i) for i in state.leader_choice[1:]))
        if d.kind == "transfer":
            tq = kit.transfer_question(state, ctx)
            assert tq is not None
            return LegalSet(player, check, (Transfer(tq[1], True), Transfer(tq[1], False)))
        if d.kind == "shape":
            sq = kit.shape_question(state, ctx)
            assert sq is not None
            opts = kit.shape_options(state, ctx, sq[1])
            return LegalSet(player, check, tuple(Shape(sq[1], k) for k in opts))
        if d.kind == "roll":
            return LegalSet(player, check, (Roll(0), Roll(1)))
        if d.kind == "first":
            return LegalSet(player, check, (First(0), First(1)))
        if d.kind == "place":
            fid = stp.group_figs(state, ctx)[0]
            default = Place(fid, *stp.auto_place(state, ctx, fid))
            box = stp.deploy_box(ctx, player, ctx.profiles[fid].radius)
            fam: Family[WarEngineAction] = Family(
                "place",
                (Box("at", *box),),
                _place_builder(fid),
            )
            return LegalSet(player, check, (default,), (fam,))
        if d.kind == "reserve":
            assert state.window is not None
            return LegalSet(player, check, (*res.options(state, ctx, state.window), Pass()))
        if d.kind == "activation":
            from warbench.rulesets.warengine.game.ai import activations

            return LegalSet(player, check, tuple(activations(state, ctx, player)))
        from warbench.rulesets.warengine.game.ai import figure_actions

        listed = list(figure_actions(state, ctx, player))
        revive: list[WarEngineAction] = [*kit.revive_actions(state, ctx, player)]
        revive += kit.revive_moves(state, ctx)
        listed += [a for a in revive if check(a) is None]
        listed += res.own_reserve_attacks(state, ctx, player)  # L579
        listed += [  # Invigorate's Hero Points on movement (L1135)
            Surge(fid, k)
            for fid in group_figs(state, state.active_units)
            if state.figs[fid].side == player and not state.figs[fid].done
            for k in range(1, mov.surge_left(state.figs[fid]) + 1)
        ]
        if ctx.huge:  # Monstrously Huge: pushes (L1403)
            from warbench.rulesets.warengine.game.huge import push_actions

            listed += push_actions(state, ctx, player)
        if ctx.raging:  # Blood Rage's compelled moves and attacks (L1367)
            listed = _rage_listed(state, ctx, player, listed)
        if state.log_kills:  # Actuate Casualty's corpses (L1009)
            from warbench.rulesets.warengine.game.allegiance import corpse_attacks

            listed += corpse_attacks(state, ctx, player)
        for a in list(listed):
            if isinstance(a, Attack):
                listed += power_choices(state, ctx, a)
                listed += kit.take_choices(ctx, state, a) + kit.drain_choices(state, ctx, a)
            elif isinstance(a, Reserve) and res.bushwhacked(
                state, ctx, state.figs[a.fig], a.weapon
            ):
                listed.append(replace(a, every=True))  # Bushwhacker (L1471)
        fams: list[Family[WarEngineAction]] = []
        for fid in group_figs(state, state.active_units):
            f = state.figs[fid]
            if f.done or f.side != player:
                continue
            left = mov.allowance(state, ctx, f, f.mode or "move") - f.used
            if left <= 0:
                continue
            mode = f.mode or "move"
            fams.append(
                Family(
                    f"move #{fid}",
                    (Box("to", f.x - left, f.y - left, f.x + left, f.y + left),),
                    _move_builder(fid, mode),
                )
            )
        return LegalSet(player, check, tuple(listed), tuple(fams))

    # -- check and apply -----------------------------------------------------------------------
    def check(self, state: GameState, action: WarEngineAction, player: int) -> Refusal | None:
        """The refusal (sentence and book line), or None. Rolls no dice."""
        if state.phase == "over":
            return Refusal("the game is over", rule(619))
        d = _who(state)
        if d.player != player:
            who = "chance" if player == CHANCE else f"player {player}"
            return Refusal(f"no decision of {who} is pending now", _rule_now(state))
        ctx = kit.context_of(state)
        want: dict[str, tuple[type, ...]] = {
            "reroll": (Reroll,),
            "hero": (Hero,),
            "leader": (Leader,),
            "roll": (Roll,),
            "place": (Place,),
            "first": (First,),
            "reserve": (ReserveFire, Pass),
            "activation": (Activate,),
            "action": (Move, Attack, Reserve, Deactivate, Push, Surge),
            "shape": (Shape,),
            "transfer": (Transfer,),
        }
        if not isinstance(action, want[d.kind]):
            return Refusal(f"{d.prompt} is pending, not {type(action).__name__}", d.rule)
        if isinstance(action, Reroll):
            return None  # either answer is allowed (L1391, L1489, L1585)
        if isinstance(action, Transfer):
            tq = kit.transfer_question(state, ctx)
            if tq is None or action.fig != tq[1]:
                return Refusal(
                    f"the weapon of figure {tq and tq[1]} waits, not {action.fig}", rule(1847)
                )
            return None
        if isinstance(action, Shape):
            why = kit.shape_refusal(state, ctx, action)
            return None if why is None else Refusal(why, rule(1615))
        if isinstance(action, Hero):
            q = rsl.hero_question(state, ctx)
            assert q is not None
            if not 0 <= action.points <= q[2]:
                return Refusal(f"spend 0 to {q[2]} Hero Points, not {action.points}", rule(493))
            return None
        if isinstance(action, Leader):
            if action.fig not in state.leader_choice[1:]:
                return Refusal(f"the leader is one of {state.leader_choice[1:]}", rule(334))
            return None
        if isinstance(action, Roll):
            return None if action.winner in (0, 1) else Refusal("the winner is 0 or 1", rule(305))
        if isinstance(action, First):
            return (
                None if action.player in (0, 1) else Refusal("player 0 or 1 goes first", rule(362))
            )
        if isinstance(action, Place):
            group = stp.group_figs(state, ctx)
            if action.fig not in group:
                return Refusal(
                    f"place a figure of the current Movement group {group}, not {action.fig}",
                    rule(303),
                )
            if not (math.isfinite(action.x) and math.isfinite(action.y)):
                return Refusal("a placement needs a finite point", rule(309))
            why = kit.place_form_refusal(state, ctx, action.fig, action.form)
            if why is not None:
                return Refusal(why, rule(1615))
            why = kit.placed_refusal(state, action.fig, action.form, action.x, action.y)
            return None if why is None else Refusal(why, rule(309))
        if isinstance(action, Pass):
            assert state.window is not None
            for o in res.options(state, ctx, state.window):
                of = state.figs[o.fig]
                if (
                    ctx.profiles[o.fig].has("trigger_happy")
                    and of.reserved is not None
                    and not ctx.profiles[o.fig].weapons[of.reserved].cc
                ):
                    return Refusal(
                        f"{ctx.profiles[o.fig].name} #{o.fig} is Trigger Happy and must fire",
                        rule(1439),
                    )
            return None
        if isinstance(action, ReserveFire):
            assert state.window is not None
            if action not in res.options(state, ctx, state.window):
                return Refusal(
                    f"figure {action.fig} has no reserved attack it may use on {action.target} now",
                    rule(577),
                )
            return None
        if ctx.raging and isinstance(action, (Move, Attack, Reserve, Deactivate)):
            from warbench.rulesets.warengine.game.bloodrage import refusal as rage_refusal

            rage = rage_refusal(state, ctx, action, player)  # Blood Rage (L1367)
            if rage is not None:
                return Refusal(*rage)
        if isinstance(action, Activate):
            why = act.activate_refusal(state, ctx, action, player)
            return (
                None if why is None else Refusal(why, rule(375 if action.join is not None else 366))
            )
        if isinstance(action, Deactivate):
            return None
        if isinstance(action, Surge):  # Invigorate's points on movement (L1135)
            sr = mov.surge_refusal(state, ctx, action, player)
            return None if sr is None else Refusal(*sr)
        if isinstance(action, Push):
            from warbench.rulesets.warengine.game.huge import push_refusal

            p = push_refusal(state, ctx, action, player)
            return None if p is None else Refusal(*p)
        if isinstance(action, Move):
            m = mov.move_refusal(state, ctx, action, player)
            return None if m is None else Refusal(*m)
        if isinstance(action, Reserve):
            r = res.reserve_refusal(state, ctx, action, player)
            return None if r is None else Refusal(*r)
        assert isinstance(action, Attack)
        if kit.is_revive(ctx, action):  # Restore Vehicle Spirit: a wreck is its target
            why = kit.revive_refusal(state, ctx, action, player)
            if why is None:
                bad = atk.weapon_refusal(state, ctx, state.figs[action.fig], action.weapon)
                why = None if bad is None else bad.reason
            return None if why is None else Refusal(why, rule(1201))
        a = atk.attack_refusal(state, ctx, action, player)
        if a is not None:
            return Refusal(a.reason, a.rule)
        why = kit.take_refusal(ctx, state, action) or kit.drain_refusal(state, ctx, action)
        if why is not None:
            return Refusal(why, rule(1609 if action.take is not None else 1069))
        return _choice_refusal(state, ctx, action)

    def apply(
        self, state: GameState, action: WarEngineAction, player: int, dice: Dice | None = None
    ) -> tuple[GameState, list[Event]]:
        """Check, then apply to a copy of the state."""
        refusal = self.check(state, action, player)
        if refusal is not None:
            raise refusal.error()
        roll: Any = dice if dice is not None else _LazyDice(state.seed, state.step)
        s = state.clone()
        s.step += 1
        ctx = kit.context_of(s)
        events: list[Event] = []
        _apply(s, ctx, action, player, roll, events)
        terrain.expire(s, events)  # walls end with their user (L1321, L1327)
        if ctx.projections:  # Astral Projection's leash (L1021)
            from warbench.rulesets.warengine.game.astral import leash

            leash(s, ctx, events)
        return s, events

    # -- views and the end -----------------------------------------------------------------------
    def view(self, state: GameState, player: int) -> View:
        """Everything on the table is open information in WarEngine (reserved weapons are
        announced, L573): the view is the state without its set-up."""
        ctx = kit.context_of(state)
        out: View = {
            "player": player,
            "turn": state.turn,
            "phase": state.phase,
            "to_act": state.to_act,
            "active_units": list(state.active_units),
            "scores": scores(state, ctx),
            "figures": [
                {
                    "id": f.id,
                    "side": f.side,
                    "unit": f.unit,
                    "name": ctx.profiles[f.id].name,
                    "x": f.x,
                    "y": f.y,
                    "placed": f.placed,
                    "alive": f.alive,
                    "hero": f.hero,
                    "reserved": f.reserved,
                    "controlled": f.controlled,
                }
                for f in state.figs
            ],
            "units": [
                {
                    "id": u.id,
                    "side": u.side,
                    "name": u.name,
                    "leader": u.leader,
                    "activated": u.activated,
                    "gone": u.gone,
                }
                for u in state.units
            ],
        }
        if state.kit:
            out["kit"] = {str(i): copy.deepcopy(k) for i, k in state.kit.items()}
        if "+" in state.setup_key:
            out["board"] = terrain.board_data(ctx)
        return out

    def is_over(self, state: GameState) -> bool:
        """Whether the game has ended."""
        return state.phase == "over"

    def result(self, state: GameState) -> Result | None:
        """Winner (None: a draw) and victory points (L619-L633)."""
        if state.phase != "over":
            return None
        sc = scores(state, kit.context_of(state))
        return Result(state.winner, (float(sc[0]), float(sc[1])), state.reason)

    def digest(self, state: GameState) -> str:
        """The digest of the state's JSON (without the set-up, which the key names)."""
        return digest_of(_dump(self.states._codec, state))


def _rage_listed(
    state: GameState, ctx: stp.Context, player: int, listed: list[WarEngineAction]
) -> list[WarEngineAction]:
    """The listed actions a Blood Rage compulsion allows, and its compelled ones (L1367)."""
    from warbench.rulesets.warengine.game import bloodrage as br

    out = [a for a in listed if br.refusal(state, ctx, a, player) is None]
    for fid in group_figs(state, state.active_units):
        f = state.figs[fid]
        if f.side == player and br.raging(ctx, fid) and not f.done:
            out += [m for m in br.compelled_moves(state, ctx, f, player) if m not in out]
            out += [a for a in br.cc_attacks(state, ctx, f) if a not in out]
    return out


def _place_builder(fid: int) -> Any:
    def build(v: tuple[JSON, ...]) -> WarEngineAction:
        return Place(fid, round(v[0][0], 3), round(v[0][1], 3))

    return build


def _move_builder(fid: int, mode: str) -> Any:
    def build(v: tuple[JSON, ...]) -> WarEngineAction:
        return Move(fid, round(v[0][0], 3), round(v[0][1], 3), mode)  # type: ignore[arg-type]

    return build


def power_choices(state: GameState, ctx: stp.Context, a: Attack) -> list[Attack]:
    """The other choices of a power's attack (``Attack.via``, ``Attack.av``): each character
    Telepathic Command may select (L1297), each lower Attack Value of Induce Drug Frenzy
    (L1123: fewer dice rolled, fewer kept, or both). The listed attack itself (``None``:
    the engine's choice) is the default."""
    from warbench.rulesets.warengine.game.powers import lenders

    w = ctx.profiles[a.fig].weapons[a.weapon]
    if w.power == "Telepathic Command":
        return [replace(a, via=c) for c in lenders(state, ctx, state.figs[a.fig])]
    if w.power == "Induce Drug Frenzy":
        return [replace(a, av=str(p)) for p in _lower(w.av)]
    if w.power in terrain.KINDS:  # where the board changes (L1031-L1331)
        return [replace(a, at=p) for p in terrain.choices(state, ctx, state.figs[a.fig], w)]
    if w.power == "Summoning":  # which Summoned figure (L1279)
        from warbench.rulesets.warengine.game.summoning import waiting

        return [replace(a, via=i) for i in waiting(state, ctx, state.figs[a.fig].side)]
    if w.power in ("Teleport", "Shove"):
        from warbench.rulesets.warengine.game.powers import point_refusal

        f, t = state.figs[a.fig], state.figs[a.target]
        rng = (w.range or 0.0) if w.power == "Teleport" else 12.0
        base = (f.x, f.y) if w.power == "Teleport" else (t.x, t.y)
        out = []
        for k in range(8):  # the compass points at the power's Range (Shove: 12")
            ang = k * math.pi / 4
            pt = (round(base[0] + rng * math.cos(ang), 3), round(base[1] + rng * math.sin(ang), 3))
            if point_refusal(state, ctx, f, w, t, pt) is None:
                out.append(replace(a, at=pt))
        return out
    return []


def _lower(av: XkY) -> list[XkY]:
    """Every Attack Value below ``av``: XkY with 1 <= Y <= X, X <= av.X, Y <= av.Y, not av."""
    return [
        XkY(x, y)
        for x in range(1, av.rolled + 1)
        for y in range(1, min(x, av.kept) + 1)
        if (x, y) != (av.rolled, av.kept)
    ]


def _choice_refusal(state: GameState, ctx: stp.Context, a: Attack) -> Refusal | None:
    """Refuse a power choice the rules do not allow (L1123, L1297)."""
    from warbench.rulesets.warengine.game.powers import lenders

    w = ctx.profiles[a.fig].weapons[a.weapon]
    if a.via is not None and w.power == "Summoning":
        from warbench.rulesets.warengine.game.summoning import waiting

        ready = waiting(state, ctx, state.figs[a.fig].side)
        if a.via not in ready:
            return Refusal(
                f"via {a.via}: not a Summoned figure of your force waiting to be deployed; "
                f"allowed: {ready}",
                rule(1279),
            )
    elif a.via is not None:
        if w.power != "Telepathic Command":
            return Refusal(
                "only Telepathic Command (a character) and Summoning (a Summoned figure) "
                "select a figure (via)",
                rule(1297),
            )
        allowed = lenders(state, ctx, state.figs[a.fig])
        if a.via not in allowed:
            return Refusal(
                f"via {a.via}: the user must be within the Control Radius of the selected "
                f"character; allowed: {allowed}",
                rule(1297),
            )
    if a.at is not None and w.power == "Astral Projection":
        from warbench.rulesets.warengine.game.astral import projection_of
        from warbench.rulesets.warengine.game.summoning import spot_refusal

        pid = projection_of(state, ctx, a.fig)
        why = None if pid is None else spot_refusal(state, ctx, state.figs[a.fig], pid, *a.at)
        if why is not None:
            return Refusal(why, rule(1021))
    elif a.at is not None and w.power == "Summoning":
        from warbench.rulesets.warengine.game.summoning import spot_refusal, waiting

        user = state.figs[a.fig]
        pick = a.via if a.via is not None else next(iter(waiting(state, ctx, user.side)), None)
        why = None if pick is None else spot_refusal(state, ctx, user, pick, *a.at)
        if why is not None:
            return Refusal(why, rule(1279))
    elif a.at is not None:
        from warbench.rulesets.warengine.game.powers import point_refusal

        if w.power in terrain.KINDS:
            why = terrain.at_refusal(state, ctx, state.figs[a.fig], w, a.at)
            return (
                None if why is None else Refusal(why, rule(terrain.LINES[terrain.KINDS[w.power]]))
            )
        if w.power not in ("Teleport", "Shove"):
            return Refusal(
                "only Teleport, Shove, Summoning, Astral Projection and the powers that change the "
                "board name a point (at)",
                rule(1303),
            )
        why = point_refusal(state, ctx, state.figs[a.fig], w, state.figs[a.target], a.at)
        if why is not None:
            return Refusal(why, rule(1303 if w.power == "Teleport" else 1219))
    if a.av is not None:
        if w.power != "Induce Drug Frenzy":
            return Refusal("only Induce Drug Frenzy takes a lower Attack Value (av)", rule(1123))
        try:
            pool = XkY.parse(a.av, "av")
        except ProfileError as exc:
            return Refusal(str(exc), rule(1123))
        if pool.rolled > w.av.rolled or pool.kept > w.av.kept:
            return Refusal(
                f"av {pool}: a lower Attack Value than the power's {w.av} (L1123)", rule(1123)
            )
    return None


def _who(state: GameState) -> Decision[WarEngineAction]:
    """Who decides what now, without the default (cheap: ``check`` uses it)."""
    if state.phase == "over":
        return Decision(CHANCE - 1, "none")
    ctx = kit.context_of(state)
    tq = kit.transfer_question(state, ctx)
    if tq is not None:
        return Decision(tq[0], "transfer", rule(1847), "pass the Transferable weapon?")
    rq = rsl.reroll_question(state, ctx)
    if rq is not None:
        return Decision(rq[0], "reroll", rule(rsl.reroll_line(rq[2])), "reroll this roll?")
    q = rsl.hero_question(state, ctx)
    if q is not None:
        return Decision(q[0], "hero", rule(493), "spend Hero Points")
    if state.leader_choice:
        return Decision(
            state.units[state.leader_choice[0]].side, "leader", rule(334), "pick the leader"
        )
    sq = kit.shape_question(state, ctx)
    if sq is not None:
        return Decision(sq[0], "shape", rule(1615), "change form?")
    if state.phase == "placement":
        if state.place_roll:
            return Decision(CHANCE, "roll", rule(305), "placement roll-off")
        assert state.placing is not None
        return Decision(state.placing, "place", rule(303), "place a figure")
    if state.phase == "initiative":
        if state.initiative is None:
            return Decision(CHANCE, "roll", rule(362), "initiative")
        return Decision(state.initiative, "first", rule(362), "who activates first?")
    if state.window is not None:
        return Decision(state.window.player, "reserve", rule(577), "use a reserved attack now?")
    if state.active_unit is None:
        return Decision(state.to_act, "activation", rule(366), "activate a unit")
    return Decision(
        state.units[state.active_unit].side, "action", rule(399), "act with a figure, or Deactivate"
    )


def _roll(what: str, line: int) -> Decision[WarEngineAction]:
    return Decision(CHANCE, "roll", rule(line), what, outcomes=((Roll(0), 0.5), (Roll(1), 0.5)))


def _rule_now(state: GameState) -> str:
    return rule({"placement": 303, "initiative": 362}.get(state.phase, 366))


def _apply(
    s: GameState,
    ctx: stp.Context,
    action: WarEngineAction,
    player: int,
    dice: Dice,
    events: list[Event],
) -> None:
    if isinstance(action, Reroll):
        rsl.reroll(s, ctx, action.use, dice, events, player)
        _settle(s, ctx, dice, events)
        return
    if isinstance(action, Hero):
        rsl.spend(s, action.points)
        events.append(
            Event("hero", f"player {player} spends {action.points} Hero Points", rule(493))
        )
        _settle(s, ctx, dice, events)
        return
    if isinstance(action, Leader):
        unit = s.leader_choice[0]
        s.units[unit].leader = action.fig
        s.leader_choice = []
        if s.active_units:
            check_control(s, ctx, s.active_units)
        events.append(
            Event("leader", f"{ctx.profiles[action.fig].name} #{action.fig} leads", rule(334))
        )
        return
    if isinstance(action, Roll):
        if s.phase == "placement":
            stp.after_roll(s, ctx, action.winner)
            events.append(
                Event(
                    "roll-off",
                    f"player {action.winner} rolls higher: player {1 - action.winner} places first",
                    rule(305),
                )
            )
        else:
            s.initiative = action.winner
            events.append(
                Event("initiative", f"player {action.winner} wins the initiative", rule(362))
            )
            act.see_the_future(s, ctx, events)
        return
    if isinstance(action, Transfer):
        kit.apply_transfer(s, ctx, action, events)
        return
    if isinstance(action, Shape):
        kit.apply_shape(s, ctx, action, events)
        act.resume_follow_up(s, ctx, dice, events)
        return
    if isinstance(action, Place):
        f = s.figs[action.fig]
        kit.place_in_form(s, ctx, f.id, action.form)
        f.x, f.y, f.placed = action.x, action.y, True
        events.append(
            Event(
                "place",
                f"{ctx.profiles[f.id].name} #{f.id} placed at ({f.x:g}, {f.y:g})",
                rule(309),
            )
        )
        stp.after_place(s, ctx)
        if s.phase == "initiative":
            for u in s.units:
                from warbench.rulesets.warengine.game.control import choose_leader

                choose_leader(s, ctx, u.id)
                check_control(s, ctx, [u.id])
            events.append(Event("turn", "turn 1", rule(338)))
        return
    if isinstance(action, First):
        events.append(Event("first", f"player {action.player} activates first", rule(362)))
        act.after_first(s, ctx, action.player, dice, events)
        return
    if isinstance(action, Activate):
        act.activate(s, ctx, action, dice, events)
        return
    if isinstance(action, Deactivate):
        act.deactivate(s, ctx, dice, events)
        return
    if isinstance(action, Push):
        from warbench.rulesets.warengine.game.huge import push

        push(s, ctx, action, events)
        return
    if isinstance(action, Surge):  # Invigorate's Hero Points on movement, 1" each (L1135)
        f = s.figs[action.fig]
        f.hero -= action.points
        f.bonus["surge"] = f.bonus.get("surge", 0) + action.points
        events.append(
            Event(
                "surge",
                f"{ctx.profiles[f.id].name} #{f.id} spends {action.points} of Invigorate's Hero "
                f'Points on {action.points}" more movement',
                rule(1135),
            )
        )
        return
    if isinstance(action, Reserve):
        f = s.figs[action.fig]
        w = ctx.profiles[f.id].weapons[action.weapon]
        f.reserve_more = res.bushwhacked(s, ctx, f, action.weapon) if action.every else []
        f.reserved = action.weapon
        f.done = True
        f.attacked = True
        events.append(
            Event("reserve", f"{ctx.profiles[f.id].name} #{f.id} reserves {w.name}", rule(573))
        )
        if f.reserve_more:
            more = ", ".join(ctx.profiles[f.id].weapons[i].name for i in f.reserve_more)
            events.append(
                Event(
                    "reserve",
                    f"{ctx.profiles[f.id].name} #{f.id} is a Bushwhacker: also reserves {more}",
                    rule(1471),
                )
            )
        return
    if isinstance(action, Pass):
        assert s.window is not None
        win = s.window
        s.window = None
        if win.kind == "counter":
            assert win.declared is not None
            _attack(s, ctx, win.declared, dice, events)
        _settle(s, ctx, dice, events)
        return
    if isinstance(action, ReserveFire):
        assert s.window is not None
        win = s.window
        f = s.figs[action.fig]
        wi = f.reserved
        assert wi is not None
        win.used.append(f.id)
        t = s.figs[action.target]
        if action.lunge:
            x, y = mov.toward(s, ctx, f, t, float(res.lunge_inches(ctx, f.id)))
            f.x, f.y, f.moved = x, y, True
            events.append(Event("lunge", f"{ctx.profiles[f.id].name} #{f.id} lunges", rule(583)))
        atk.declare(s, ctx, f, wi, t.id, (), (), dice, events, reserve_use=True)
        if win.kind == "counter":
            s.window = None
            assert win.declared is not None
            _attack(s, ctx, win.declared, dice, events)  # simultaneous (L575)
        elif not res.options(s, ctx, win):
            s.window = None
        _settle(s, ctx, dice, events)
        return
    if isinstance(action, Move):
        f = s.figs[action.fig]
        leavers = mov.leaving_attackers(s, ctx, f, action)
        if leavers:
            for g in leavers:
                for wi, w in enumerate(ctx.profiles[g.id].weapons):
                    if w.cc and w.power is None and atk.can_reach(s, ctx, g, w, f) is None:
                        who = f"{ctx.profiles[g.id].name} #{g.id}"
                        events.append(
                            Event(
                                "leave combat",
                                f"{who} attacks the figure leaving close combat",
                                rule(567),
                            )
                        )
                        atk.declare(s, ctx, g, wi, f.id, (), (), dice, events, free=True)
            s.then = action
            _settle(s, ctx, dice, events)
            return
        _move(s, ctx, f, action, events, dice)
        return
    assert isinstance(action, Attack)
    if res.counter_window(s, ctx, action):
        events.append(
            Event(
                "declare",
                f"attack declared on #{action.target}, which has a reserved attack",
                rule(575),
            )
        )
        return
    _attack(s, ctx, action, dice, events)
    _settle(s, ctx, dice, events)


def _move(s: GameState, ctx: stp.Context, f: Any, m: Move, events: list[Event], dice: Dice) -> None:
    start = (f.x, f.y)
    if m.mode == "continue":
        f.x, f.y = m.x, m.y
        events.append(Event("move", f"{ctx.profiles[f.id].name} #{f.id} moves on", rule(407)))
        _moved_near_terror(s, ctx, f, start, dice, events)
        return
    pause = res.lunge_pause(s, ctx, f.id, start, (m.x, m.y))
    mov.do_move(s, ctx, f, m)
    if pause is not None:
        # L407: the move pauses where it passes a figure ready to lunge (L583)
        f.x, f.y = pause
        if terrain.burn(s, ctx, f, start, dice, events):  # through a Wall of Fire (L1327)
            rsl.advance(s, ctx, events)
        s.then = Move(f.id, m.x, m.y, "continue")
        events.append(
            Event("pause", f"{ctx.profiles[f.id].name} #{f.id} passes an enemy figure", rule(583))
        )
        res.open_move_window(s, ctx, f.id, start)
        if s.window is None:
            m2, s.then = s.then, None
            _move(s, ctx, f, m2, events, dice)
        return
    events.append(
        Event(
            "move", f"{ctx.profiles[f.id].name} #{f.id} {m.mode}s to ({m.x:g}, {m.y:g})", rule(403)
        )
    )
    _moved_near_terror(s, ctx, f, start, dice, events)


def _moved_near_terror(
    s: GameState, ctx: stp.Context, f: Any, start: Any, dice: Dice, events: list[Event]
) -> None:
    """After a move stage: a Static Charge zaps (L1249), Terrifying's immediate rout tests
    (L1649), then the other player's chance to use reserved attacks on the mover if it is
    still there (L407)."""
    atk.rain_storms(s, ctx)
    if terrain.burn(s, ctx, f, start, dice, events):  # through a Wall of Fire (L1327)
        rsl.advance(s, ctx, events)
    if atk.static_charge(s, ctx, f, dice, events):
        rsl.advance(s, ctx, events)  # resolved now, unless it waits for Hero Points
    terror_tests(s, ctx, dice, events)
    if on_table(f):
        res.open_move_window(s, ctx, f.id, start)


def _attack(s: GameState, ctx: stp.Context, a: Attack, dice: Dice, events: list[Event]) -> None:
    f = s.figs[a.fig]
    if kit.is_revive(ctx, a):
        kit.revive(s, ctx, a, dice, events)
        return
    corpse = atk.targets_corpse(ctx.profiles[f.id].weapons[a.weapon])  # Actuate Casualty
    if not f.alive or not (s.figs[a.target].alive or corpse):
        return
    atk.declare(
        s,
        ctx,
        f,
        a.weapon,
        a.target,
        a.helpers,
        a.secondary,
        dice,
        events,
        reserve_use=atk.own_reserve(s, f, a.weapon),  # its reserve fire, its own unit's (L579)
        via=a.via,
        av=None if a.av is None else XkY.parse(a.av),
        at=None if a.at is None else (float(a.at[0]), float(a.at[1])),
        lose=a.lose,
    )
    kit.note_take(s, a)
    w = ctx.profiles[f.id].weapons[a.weapon]
    if w.cc:
        f.charged = False  # the bonus is for the first attack only (L425)
    if ctx.profiles[f.id].has("sniper") and not f.moved:
        f.used = 10**6  # L1633: a Sniper forgoes all movement


def _settle(s: GameState, ctx: stp.Context, dice: Dice, events: list[Event]) -> None:
    """Resolve what needs no decision: queued attacks, a move waiting on free attacks, the end."""
    rsl.advance(s, ctx, events)
    if last_standing(s, events):
        return
    if s.queue or s.window is not None:
        return
    if s.phase == "follow up":  # a follow-up attack was resolved: the step goes on (L599)
        act.resume_follow_up(s, ctx, dice, events)
        return
    if s.then is not None:
        m, s.then = s.then, None
        f = s.figs[m.fig]
        captor = s.figs[f.entangled_by] if f.entangled_by is not None else None
        held = captor is not None and on_table(captor)
        if on_table(f) and not held and free_spot(s, ctx, f, m.x, m.y):
            _move(s, ctx, f, m, events, dice)  # an entangled figure may not escape (L1765)
    if s.active_unit is not None and not any(
        on_table(s.figs[i]) for u in s.active_units for i in s.units[u].figs
    ):
        act.deactivate(s, ctx, dice, events)
