"""WARSURGE on the game protocol (``warbench.play``, docs/protocol.md): an adapter, not a rewrite.

The engine (``engine.new_game``, ``check``, ``apply``, ``legal_actions``) plays the game; this
module only translates (STYLE.md principle 13):

* **setup**: rosters are game-roster JSON (``io.roster_to_data``), the board is
  ``board_to_data`` JSON or a sample board's name (``None``: ``ruins_48x48``), options are
  ``game_length``, ``max_turns``, ``automation`` (list of ``Automation`` values, default all),
  ``unit_points`` (the costs a record used), ``hide_roster_value`` and ``hide_reserves``.
  The engine's ``GameSetup`` is built once per distinct set-up and memoised.
* **players** are sides (§3.3: a team acts as one player): player ``k`` is side ``k``.
* **decisions**: ``"turn master"`` (§2.1, default: the roll-off winner takes it),
  ``"zone"`` (§3.6 step 2, default: the first free zone) and ``"activation"`` (§2.2: choose a
  unit's action, or Pass), whose ``default`` is the scripted AI's choice, worked out when read
  (``players.ScriptedPlayer``), so ``AutomaticPlayer`` or ``run_game(automate={"activation"})``
  plays the engine's own game. The AI chooses from the acting side's view
  (:func:`known_state`: what the view hides is a fixed placeholder). In the Advanced
  playstyle (option ``playstyle``, §9) the attacked side answers ``"counter"`` (§9.3,
  default: no Counter Action). Casualties (the target's and the attacker's own), model
  positions, a destroyed Transport's survivors (``"survivors"``, §6.6), Coherency
  (``"coherency"``, §4.2 IV) and Base Contact (``"contact"``, §4.4 III) after casualties, in
  both playstyles, are decisions without their automations; the random game end stays inside
  the engine (docs/protocol.md lists what does).
* **dice** are rolled inside ``apply`` from ``step_seed(seed, step)`` exactly as
  ``warbench battle`` rolls them, so a seeded game is the same game.
* **views** are JSON: everything on the table, with other sides' point values hidden under
  ``hide_roster_value`` and other sides' Reserve profiles hidden under ``hide_reserves``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace

from warbench.kernel.dice import Dice, SeededChoices
from warbench.kernel.errors import RulesError
from warbench.play.core import JSON, Decision, Event, Preview, Refusal, Result
from warbench.play.legal import Box, Choice, Family
from warbench.rulesets.warsurge.game import bases, engine, perk_timejump, terrain_army
from warbench.rulesets.warsurge.game import preview as game_preview
from warbench.rulesets.warsurge.game.actions import (
    Action,
    Attack,
    ChooseTurnMaster,
    ChooseZone,
    Delay,
    Deploy,
    Disembark,
    Move,
)
from warbench.rulesets.warsurge.game.codecs import (
    CORE,
    DEFAULT_BOARD,
    OPTIONS,
    ActionCodec,
    LaterMemory,
    Mine,
    StateCodec,
    ViewCodec,
    WarsurgeState,
    args_text,
    game_setup,
    unit_to_json,
)
from warbench.rulesets.warsurge.game.state import (
    Automation,
    GameState,
    Location,
    Phase,
)
from warbench.rulesets.warsurge.game.terrain_army import actor_label, armed_json
from warbench.rulesets.warsurge.game.terrain_control import control_json
from warbench.rulesets.warsurge.game.words import casualty_prompt

__all__ = [
    "CORE",
    "DEFAULT_BOARD",
    "OPTIONS",
    "ActionCodec",
    "StateCodec",
    "ViewCodec",
    "WarsurgeLegal",
    "WarsurgeRuleset",
    "WarsurgeState",
    "known_state",
    "scripted_choice",
    "setup_digest",
]

# --------------------------------------------------------------------------------------------
# Legal actions
# --------------------------------------------------------------------------------------------


class WarsurgeLegal:
    """What one player may do now: the engine's :class:`~.engine.LegalActions` for the acting
    side (empty for anyone else). Movement is continuous, so ``finite`` is false: iteration
    lists the engine's checked candidates, ``in`` checks any proposal."""

    def __init__(self, ruleset: WarsurgeRuleset, state: WarsurgeState, player: int) -> None:
        self._ruleset = ruleset
        self._state = state
        self._player = player
        game = state.game
        side = engine.acting_side(game)
        self._active = not game.over and side == player
        # without the engine placing models, the candidates are the engine's placed ones
        # written out as positions (what a player gives then)
        self._placing = game
        if Automation.MODEL_PLACEMENT not in game.setup.automation:
            self._placing = replace(game, setup=engine.placing_setup(game.setup))
        self._legal = engine.legal_actions(self._placing) if self._active else None

    def _given(self, action: Action) -> Action:
        action = engine.normalize(action)
        if self._placing is not self._state.game:
            action = engine.with_positions(self._state.game, action)
        return action

    @property
    def player(self) -> int:
        """The player these actions belong to."""
        return self._player

    @property
    def finite(self) -> bool:
        """False: a Move or a Deploy may go to any point (iteration lists candidates)."""
        return False

    def __contains__(self, action: object) -> bool:
        return self._ruleset.check(self._state, action, self._player) is None  # type: ignore[arg-type]

    def __iter__(self) -> Iterator[Action]:
        if self._legal is None:
            return
        seen: set[Action] = set()
        for a in self._legal:
            a = self._given(a)
            if a not in seen:  # the engine proposes some attacks twice
                seen.add(a)
                yield a

    @property
    def families(self) -> tuple[Family[Action], ...]:
        """The continuous choices, for a client to offer as a region to click: a Deploy at,
        a Move or Dash toward, a Disembark toward any point of the board, for the units that
        may act (``check`` decides each). Empty without ``Automation.MODEL_PLACEMENT``: then
        every model's position is given (a list of points, checked model by model; the
        decision's default lists the engine's)."""
        if self._legal is None:
            return ()
        g = self._state.game
        if Automation.MODEL_PLACEMENT not in g.setup.automation or g.pause is not None:
            return ()
        units = tuple(self._legal.units())
        if not units:
            return ()
        board = Box("to", 0.0, 0.0, g.setup.field.width, g.setup.field.height)
        who = Choice("unit", units)
        phase = g.flow.phase
        if phase is Phase.DEPLOY:
            # the point is named as the action's field (a Deploy's ``at``, a Move's ``to``): a
            # client fills a family's parameters into a listed action by name
            at = Box("at", 0.0, 0.0, g.setup.field.width, g.setup.field.height)
            return (Family("deploy at", (who, at), _deploy_at),)
        if phase in (Phase.MOVE, Phase.DASH):
            dash = phase is Phase.DASH
            embarked = tuple(u for u in units if g.units[u].location is Location.EMBARKED)
            out: list[Family[Action]] = [
                Family("dash to" if dash else "move to", (who, board), _move_to(dash))
            ]
            if embarked:
                out.append(
                    Family("disembark to", (Choice("unit", embarked), board), _disembark_to(dash))
                )
            return tuple(out)
        return ()

    def check(self, action: Action) -> Refusal | None:
        """Why ``action`` is refused (``None`` if legal): what a prompt explains."""
        return self._ruleset.check(self._state, action, self._player)

    def preview(self, action: Action) -> Preview | None:
        """Where ``action`` would put the unit's models (``None``: it places none, or is
        refused): what a prompt shows before asking to confirm (``game/preview.py``)."""
        return self._ruleset.preview(self._state, action, self._player)

    def asks_first(self, action: Action) -> bool:
        """Whether a listed ``action`` chosen by its number is previewed and confirmed before
        it is made (``PromptPlayer(confirm=True)``, session 32): one that places models
        without a point the person chose (a charge, a Move naming the unit it engages, §4.3;
        a Disembark the engine places, §6.3), as the play page asks; an Attack too, whose
        preview, when a perk of it may move a unit after the dice (Knockback, Force, Grapple,
        Upheaval, Kamikaze), is that note (``preview_push``; none: made at once; s34-play2)."""
        if isinstance(action, Attack):
            return True
        if isinstance(action, Move):
            return action.engage is not None and action.positions is None
        if isinstance(action, Disembark):
            return action.to is None and action.positions is None and not action.reserve
        return False

    def may_preview(self, action: Action) -> bool:
        """Whether ``action`` is of a kind :meth:`preview` can show (a Deploy not into a
        Transport, a Move, a Disembark not to Reserve): a page asks for no preview of any other
        (a Pass, an attack, a perk's choice, an Embark), so it sends no check before it."""
        if isinstance(action, Deploy):
            return action.into is None
        if isinstance(action, Disembark):
            return not action.reserve
        return isinstance(action, Move)

    def preview_lines(self, shown: Preview, *, board: bool = True) -> list[str]:
        """``shown`` in words for the terminal, with the board as text (``game/preview.py``)."""
        return game_preview.preview_lines(self._state.game, shown, board=board)

    def sample(self, rng: SeededChoices, n: int = 1) -> list[Action]:
        """``n`` random legal actions (the engine's sampler: a random unit and candidate,
        Pass one time in ten)."""
        if self._legal is None:
            return []
        return [self._given(self._legal.sample(rng, 0.1)) for _ in range(n)]


def _deploy_at(v: tuple[JSON, ...]) -> Action:
    return Deploy(int(v[0]), at=(float(v[1][0]), float(v[1][1])))


def _move_to(dash: bool) -> Callable[[tuple[JSON, ...]], Action]:
    def build(v: tuple[JSON, ...]) -> Action:
        return Move(int(v[0]), to=(float(v[1][0]), float(v[1][1])), dash=dash)

    return build


def _disembark_to(dash: bool) -> Callable[[tuple[JSON, ...]], Action]:
    def build(v: tuple[JSON, ...]) -> Action:
        return Disembark(int(v[0]), to=(float(v[1][0]), float(v[1][1])), dash=dash)

    return build


# --------------------------------------------------------------------------------------------
# The ruleset
# --------------------------------------------------------------------------------------------


class WarsurgeRuleset:
    """WARSURGE (Core Rules 001_d3f5e425c5e1196d.txt) on the game protocol."""

    id = "warsurge"

    def __init__(self) -> None:
        from warbench.rulesets.warsurge import RULESET_VERSION
        from warbench.rulesets.warsurge.game import ENGINE_VERSION

        #: the behaviour version: the rules' and the engine's (a seeded game is the same game
        #: exactly when both are the same).
        self.version = f"{RULESET_VERSION}+{ENGINE_VERSION}"
        self._actions = ActionCodec()
        self._states = StateCodec()
        self._views = ViewCodec()

    @property
    def actions(self) -> ActionCodec:
        """JSON for actions."""
        return self._actions

    @property
    def states(self) -> StateCodec:
        """JSON for states."""
        return self._states

    @property
    def views(self) -> ViewCodec:
        """JSON for views."""
        return self._views

    # -- setup and flow -----------------------------------------------------------------
    def setup(
        self, rosters: Sequence[JSON], board: JSON, options: Mapping[str, JSON], seed: int
    ) -> WarsurgeState:
        """Every unit in Reserve, then the first Turn Master roll-off (§2.2 step 1)."""
        args = args_text(rosters, board, options)
        game, _ = engine.new_game(game_setup(args), seed)
        return WarsurgeState(args, game)

    def pending(self, state: WarsurgeState) -> tuple[Decision[Action], ...]:
        """The acting side's decision (WARSURGE is one decision at a time, §2.2)."""
        g = state.game
        if g.over:
            return ()
        side = engine.acting_side(g)
        assert side is not None
        phase = g.flow.phase
        if perk_timejump.offered(g):  # Perks L1067: undo the unit's action, or keep it
            r = g.rewind
            return (
                Decision(
                    side,
                    "time jump",
                    perk_timejump.rule(r.perk),
                    f"{g.info(r.unit).label} made a {r.kind}: undo it with {r.perk} and "
                    f"decide again (use_perks), or keep it (pass)",
                    perk_timejump.choices(g)[1],
                ),
            )
        if g.pause is not None:
            p = g.pause
            cause = "its own weapon" if p.own else g.info(p.attacker).label
            return (
                Decision(
                    side,
                    "casualties",
                    f"{CORE} §5.11, §5.13",
                    # models numbered from 1, as the board and the Play Manager number them
                    casualty_prompt(g.info(p.target).label, p.loss, cause, p.candidates),
                    engine.default_casualties(g),
                ),
            )
        if g.restore is not None:
            uid = g.restore.units[0]
            label = g.info(uid).label
            if g.restore.stage == "survivors":  # §6.6: a destroyed Transport's passengers
                kind, rule = "survivors", f"{CORE} §6.6"
                prompt = (
                    f"{label}'s Transport is destroyed: place its surviving models where it "
                    "stood, then around (models that cannot be placed are lost)"
                )
            elif g.restore.stage == "contact":  # §4.4 III, §5.11: back into Base Contact
                a, b = g.restore.pairs[0]
                foe = g.info(b if a == uid else a).label
                kind, rule = "contact", f"{CORE} §4.4 III, §5.11"
                prompt = (
                    f"casualties broke the Base Contact of {label} with {foe}: move the fewest "
                    "models back into Base Contact, keeping Coherency"
                )
            else:
                kind, rule = "coherency", f"{CORE} §4.2 IV"
                prompt = (
                    f"end of the Attack Phase: {label} is out of Coherency after its "
                    "casualties; give every model's position (one coherent group)"
                )
            return (Decision(side, kind, rule, prompt, engine.default_restore(g)),)
        ask = g.flow.adv.counter if g.flow.adv is not None else None
        if ask is not None:  # Advanced: the attacked unit answers (§9.3)
            return (
                Decision(
                    side,
                    "counter",
                    f"{CORE} §9.3",
                    f"{actor_label(g.setup, ask.attacker)} makes an Attack Action on "
                    f"{g.info(ask.asked[0]).label}: a Counter Action (none, attack, guard, perk)",
                    engine.default_counter(g),
                ),
            )
        if phase is Phase.TURN_MASTER:
            return (
                Decision(
                    side,
                    "turn master",
                    f"{CORE} §2.1",
                    "you won the roll-off: name the Turn Master",
                    ChooseTurnMaster(side),
                ),
            )
        if phase is Phase.ZONES:
            free = [z for z in range(len(g.setup.field.zones)) if z not in g.zones]
            return (
                Decision(
                    side,
                    "zone",
                    f"{CORE} §3.6",
                    "choose a Deployment Zone",
                    ChooseZone(free[0]),
                ),
            )
        return (
            Decision.on_demand(
                side,
                "activation",
                f"{CORE} §2.2",
                _activation_prompt(g, side),
                # the scripted AI's choice, worked out when a caller reads the default
                lambda: scripted_choice(state)[0],
            ),
        )

    def legal_actions(self, state: WarsurgeState, player: int) -> WarsurgeLegal:
        """The acting side's legal actions (nothing for the other sides)."""
        return WarsurgeLegal(self, state, player)

    def check(self, state: WarsurgeState, action: Action, player: int) -> Refusal | None:
        """The engine's check, and the acting side must be ``player``."""
        g = state.game
        if g.over:
            return Refusal("the game is over", f"{CORE} §2.2 step 8")
        side = engine.acting_side(g)
        if side != player:
            name = g.setup.sides[side] if side is not None else "nobody"
            return Refusal(f"it is {name}'s decision, not player {player}'s", f"{CORE} §2.2")
        try:
            engine.check(g, action)
        except RulesError as exc:
            return Refusal(exc.reason, exc.rule)
        return None

    def preview(self, state: WarsurgeState, action: Action, player: int) -> Preview | None:
        """Where a legal Deploy, Move (a Dash, a charge into contact) or Disembark would put
        the unit's models: the engine's own plan, nothing applied (``game/preview.py``);
        ``None`` for another action or one ``check`` refuses."""
        if self.check(state, action, player) is not None:
            return None
        return game_preview.preview(state.game, action)

    def apply(
        self, state: WarsurgeState, action: Action, player: int, dice: Dice | None = None
    ) -> tuple[WarsurgeState, list[Event]]:
        """Check and apply with the engine; its events become protocol events."""
        refusal = self.check(state, action, player)
        if refusal is not None:
            raise refusal.error()
        memo = state.memory
        if (
            state.game.pause is None
            and state.game.restore is None
            and state.game.flow.phase
            not in (
                Phase.TURN_MASTER,
                Phase.ZONES,
            )
        ):
            side = engine.acting_side(state.game)
            assert side is not None
            # worked out when a later default asks for it (issue 10: a search's playouts
            # apply actions whose states' defaults nobody asks)
            memo = LaterMemory(state, side, len(state.game.setup.sides), _scripted_memory)
        game, evs = engine.apply(state.game, action, dice=dice)
        out = [
            Event(
                e.kind,
                e.text,
                e.rule,
                {**_jsonable(e.data), "turn": e.turn, "phase": str(e.phase)},
            )
            for e in evs
        ]
        return WarsurgeState(state.args, game, memo), out

    def is_over(self, state: WarsurgeState) -> bool:
        """Whether the game has ended (§2.2 step 7)."""
        return state.game.over

    def result(self, state: WarsurgeState) -> Result | None:
        """Point values left on the battlefield decide (§2.2 step 8)."""
        r = state.game.result
        if not state.game.over or r is None:
            return None
        return Result(
            r.winner,
            tuple(round(v, 4) for v in r.values),
            f"values on the battlefield after Game Turn {r.turns} ({CORE} §2.2 step 8)",
        )

    def digest(self, state: WarsurgeState) -> str:
        """The engine's digest (the one its own records keep)."""
        return state.game.digest()

    # -- views -----------------------------------------------------------------------------
    def view(self, state: WarsurgeState, player: int) -> dict[str, JSON]:
        """What ``player`` sees: the table, the flow, every unit's position and HP; with
        ``hide_roster_value`` no point value of another side; with ``hide_reserves`` nothing
        but the count of another side's units in Reserve."""
        g = state.game
        opts = state.options
        hide_value = bool(opts.get("hide_roster_value"))
        hide_reserves = bool(opts.get("hide_reserves"))
        units: list[dict[str, JSON]] = []
        hidden_reserve = [0] * len(g.setup.sides)
        for u in g.units:
            info = g.info(u.uid)
            mine = info.side == player
            if hide_reserves and not mine and u.location is Location.RESERVE:
                hidden_reserve[info.side] += 1
                continue
            d = unit_to_json(u)
            d.update(
                side=info.side,
                label=info.label,
                profile=info.unit.name,
                models=info.real_models,
                hp_per_model=info.hp_per_model,
                radius=info.radius,
                weapons={
                    w: [info.weapon_types[w], info.weapon_range[w]] for w in info.weapon_types
                },
            )
            if info.base is not None:  # an oval or rectangular base or hull (§1.3): its shape
                length, width = (round(2 * h, 6) for h in info.base.half_extents)
                d["base"] = {"shape": info.base.shape, "length": length, "width": width}
                d["facing"] = [bases.facing_of(g, u.uid, i) for i in range(len(u.hp))]
            if mine or not hide_value:
                d["points"] = info.points
                d["value"] = round(g.current_value(u.uid), 4)
            units.append(d)
        values = g.side_values()
        sides = [
            {
                "name": name,
                "zone": g.zones[s],
                "hidden_reserve": hidden_reserve[s],
                **(
                    {"roster_points": g.setup.roster_points(s), "value": round(values[s], 4)}
                    if s == player or not hide_value
                    else {}
                ),
            }
            for s, name in enumerate(g.setup.sides)
        ]
        return {
            "player": player,
            "turn": g.flow.turn,
            "phase": g.flow.phase.value,
            "active": engine.acting_side(g),
            "turn_master": g.flow.turn_master,
            "passed": sorted(g.flow.passed),
            "engaged": sorted(list(p) for p in g.engaged),
            "sides": sides,
            "units": units,
            "over": g.over,
            **({"casualties": g.pause.to_json()} if g.pause is not None else {}),
            **({"coherency": g.restore.to_json()} if g.restore is not None else {}),
            # destructible terrain's HP left, once any is damaged (§10.3; 0: destroyed)
            **({"terrain_hp": dict(g.terrain_hp)} if g.terrain_hp else {}),
            # who holds terrain with a profile and the Objectives (§10.2 L4404-4407, Perks L95)
            **({"control": control_json(g)} if _holdable(g) else {}),
            # terrain that attacks, by the number an Attack names it with (§10.2)
            **({"armed_terrain": armed_json(g)} if terrain_army.in_play(g.setup) else {}),
            **({"pieces_acted": list(g.pieces_acted)} if g.pieces_acted else {}),
            # the Advanced playstyle's Command Points and Action Step, public to every player
            # (§9.1-9.3: CP are spent openly)
            **({"advanced": g.flow.adv.to_json()} if g.flow.adv is not None else {}),
        }


def _activation_prompt(g: GameState, side: int) -> str:
    """The activation's question; with Opportunist (Perks L1340) the units that may delay, or
    the window at the end of the Game Turn."""
    turn, phase = g.flow.turn, g.flow.phase
    if phase is Phase.OPPORTUNIST:
        return (
            f"Game Turn {turn}, its end (Opportunist, Perks L1340): a delayed Move, Dash, "
            "Heal Weapons' Attack or perk use, or pass"
        )
    text = f"Game Turn {turn}, {phase.value} Phase: a unit's action, or pass"
    from warbench.rulesets.warsurge.game.perk_opportunist import OPPORTUNIST
    from warbench.rulesets.warsurge.game.perk_turn import index

    perks = index(g.setup).units
    delayers = [
        uid
        for uid in range(len(g.units))
        if OPPORTUNIST in perks[uid].unit and engine.can(g, Delay(uid))
    ]
    if delayers:
        units = ", ".join(str(u) for u in delayers)
        text += f"; or delay to the end of the Game Turn (Opportunist): delay, unit {units}"
    if any("Orders" in p.unit for p in perks):  # Perks L2033 (session 26, s26b-choices)
        from warbench.rulesets.warsurge.game import perk_hooks, perk_orders
        from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
        from warbench.rulesets.warsurge.game.work import Work

        w = Work(g, None, DEFAULT_HOOKS)
        text += perk_orders.prompt(w, side, perk_hooks._turn_start)
    if phase is Phase.ATTACK:  # a Mode template's placement (Perks L3321, s26b-choices)
        from warbench.rulesets.warsurge.game import perk_placement
        from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
        from warbench.rulesets.warsurge.game.work import Work

        text += perk_placement.prompt(Work(g, None, DEFAULT_HOOKS), side)
    if g.flow.turn == 1 and any("Recon" in n for p in perks for n in p.unit):  # Perks L1882
        from warbench.rulesets.warsurge.game import perk_recon
        from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
        from warbench.rulesets.warsurge.game.work import Work

        text += perk_recon.prompt(Work(g, None, DEFAULT_HOOKS), side)
    return text


def _holdable(g: GameState) -> bool:
    """Whether the board has terrain with a profile or Objectives to hold."""
    board = g.setup.field.board
    return bool(board.objectives) or any(t.profile is not None for t in board.terrain)


def scripted_choice(state: WarsurgeState) -> tuple[Action, Mine]:
    """The engine's automatic choice for the acting side: what ``warbench battle``'s
    :class:`~.players.ScriptedPlayer` for that side chooses here, given its memory of this
    phase (``state.scripted``); and its memory afterwards. Points are rounded as a record
    keeps them (so the default survives JSON exactly). Memoised on the engine state.

    Without ``Automation.MODEL_PLACEMENT`` the players place every model: the AI chooses as
    if the engine placed them, and the default gives the positions the engine would
    (:func:`~.engine.with_positions`), so taking it plays the automated game."""
    from warbench.rulesets.warsurge.game.players import ScriptedPlayer

    game = state.game
    side = engine.acting_side(game)
    assert side is not None
    turn, phase, skip, blind = state.scripted_of(side)
    key = f"protocol default {turn} {phase} {skip} {blind}"
    hit = game.cache.get(key)
    if hit is None:
        placing = known = known_state(game, side, state.options)
        if Automation.MODEL_PLACEMENT not in game.setup.automation:
            placing = replace(known, setup=engine.placing_setup(known.setup))
        player = ScriptedPlayer(_skip=set(skip), _phase_key=(turn, phase), _blind=dict(blind))
        action = engine.normalize(player.choose(placing))
        if placing is not known:
            action = engine.with_positions(game, action)
        t, p = player._phase_key
        # a unit blind before the last Game Turn is never asked about again (players.py)
        seen = tuple(sorted((u, n) for u, n in player._blind.items() if n >= game.flow.turn - 1))
        hit = game.cache[key] = (action, (t, p, tuple(sorted(player._skip)), seen))
    return hit  # type: ignore[return-value]


def known_state(game: GameState, side: int, options: Mapping[str, JSON]) -> GameState:
    """The engine state as ``side`` may know it: what :meth:`WarsurgeRuleset.view` shows that
    side, with everything the view hides set to a fixed placeholder, so the engine's own
    player (every decision's ``default``) chooses from the view, not from the engine state.

    ``hide_roster_value``: another side's units cost 0 (value factor 1); ``hide_reserves``:
    another side's units in Reserve are at full HP with no traits (the view gives only their
    count). With neither option (or nothing hidden) it is ``game`` itself, so the defaults
    and their speed are unchanged."""
    hide_value = bool(options.get("hide_roster_value"))
    hide_reserves = bool(options.get("hide_reserves"))
    if not (hide_value or hide_reserves):
        return game
    setup = game.setup
    hidden = {
        u.uid
        for u in game.units
        if hide_reserves and u.location is Location.RESERVE and setup.units[u.uid].side != side
    }
    infos = tuple(
        i
        if i.side == side or (not hide_value and i.uid not in hidden)
        else replace(
            i,
            points=0.0 if hide_value else i.points,
            value_factor=1.0 if hide_value else i.value_factor,
            traits=() if i.uid in hidden else i.traits,
        )
        for i in setup.units
    )
    units = tuple(
        replace(u, hp=(setup.units[u.uid].hp_per_model,) * len(u.hp)) if u.uid in hidden else u
        for u in game.units
    )
    if all(a is b for a, b in zip(infos, setup.units, strict=True)) and all(
        a is b for a, b in zip(units, game.units, strict=True)
    ):
        return game
    return replace(game, setup=replace(setup, units=infos), units=units)


def _scripted_memory(state: WarsurgeState) -> Mine:
    """The acting side's memory after the scripted AI's choice in ``state``."""
    return scripted_choice(state)[1]


def _jsonable(data: Mapping[str, object]) -> dict[str, JSON]:
    out: dict[str, JSON] = {}
    for k, v in data.items():
        try:
            json.dumps(v, allow_nan=False)
            out[str(k)] = v
        except (TypeError, ValueError):
            out[str(k)] = repr(v)
    return out


def setup_digest(rosters: Sequence[JSON], board: JSON, options: Mapping[str, JSON]) -> str:
    """A short hash of a set-up (rosters, board, options)."""
    return hashlib.sha256(args_text(rosters, board, options).encode()).hexdigest()[:16]
