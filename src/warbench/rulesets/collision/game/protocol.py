"""Collision on the game protocol (``warbench.play``; docs/protocol.md): registered as
``collision``.

Every decision a player makes is a protocol decision with the engine's automatic choice as its
``default`` (the scripted player of :mod:`.ai` for the action step): the side (``role``), the
zone (``zone``, ``diagonal``), objective tokens (``marker``), nominations (``nominate``), the
phase piles (``piles``), deployment (``deploy``), which character activates (``activate``),
a reinforcement's entry (``arrive``), each action (``action``), each reaction or "may"
(``reaction``), the side of a diagonal Knockback (``knockback``, L1943-1944), whether two
allies pay for a Checkmate (``checkmate``, L1659-1663), each ally's Haste move (``haste``,
L1820-1823), and at a D10: whether to use the Plan Ahead die instead (``plan``, L2062-2065)
and whether to spend a luck token on it (``luck``, L1977-1980). Dice are D10s from the
kernel's PCG64 stream, seeded per step (``step_seed(seed, step)``), so ``apply`` is pure and
a record replays exactly. A dice decision stops the action at its D10: the state is the one
before the action with the action, its dice and the answers kept (``suspended``); the answer
re-runs the action with the same dice.

Views hide what the rules hide: the opponent's phase piles of characters that have not yet
activated this turn (option ``hide_piles``, default on; L774-776) and the opponent's secret
Map Carrier (L1344).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from warbench.kernel.errors import DataFileError, RulesError
from warbench.play.codec import TypeCodec
from warbench.play.core import JSON, Decision, Event, Refusal, Result, digest_of, step_seed
from warbench.play.legal import Choice, Family, LegalSet
from warbench.rulesets.collision.dice import Roll, SeededD10
from warbench.rulesets.collision.game import ai
from warbench.rulesets.collision.game import setup as su
from warbench.rulesets.collision.game.board import FACINGS, face_towards, spaces
from warbench.rulesets.collision.game.core import (
    ELEVATION,
    Ask,
    Game,
    board_of,
    card_of,
    rule,
    tables,
)
from warbench.rulesets.collision.game.state import (
    ACTION_TYPE,
    Activate,
    Attack,
    ChooseDiagonal,
    ChooseRole,
    ChooseZone,
    CollisionAction,
    CollisionState,
    Deploy,
    EndActivation,
    HasteMove,
    Hold,
    Move,
    Nominate,
    PayCheckmate,
    Piles,
    PlaceMarker,
    Push,
    React,
    SpendLuck,
    Suspended,
    UseAbility,
    UsePlan,
    clone,
)

#: 2: Knockback's diagonal and Checkmate's payment are decisions (docs/collision-game.md)
#: 3: Luck, Plan Ahead, Haste, Trip, Upheaval and Shadow Hop in full (the ``plan``, ``luck``
#: and ``haste`` decisions)
VERSION = "collision-game-3"

_KIND = {
    "role": "role",
    "zone": "zone",
    "diagonal": "diagonal",
    "marker": "marker",
    "nominate": "nominate",
    "piles": "piles",
    "deploy": "deploy",
    "activate": "activate",
    "arrive": "arrive",
    "act": "action",
    "react": "reaction",
    "knockback": "knockback",
    "checkmate": "checkmate",
    "haste": "haste",
    "plan": "plan",
    "luck": "luck",
}
_RULE = {
    "role": "L620-627",
    "zone": "L626-674",
    "diagonal": "L664-674",
    "marker": "L557-565",
    "nominate": "L1222-1225, L1343-1346",
    "piles": "L682-686, L774-776",
    "deploy": "L688-724",
    "activate": "L778-784",
    "arrive": "L763-765",
    "act": "L800-899",
    "react": "L891-899",
    "knockback": "L1937-1944",
    "checkmate": "L1659-1663",
    "haste": "L1820-1823",
    "plan": "L2062-2065",
    "luck": "L1977-1980",
}


class JsonCodec:
    """Views are plain JSON objects."""

    name = "collision view"

    def dump(self, value: dict[str, Any]) -> JSON:
        """The view itself."""
        return value

    def load(self, data: JSON) -> dict[str, Any]:
        """A view (checked to be a JSON object)."""
        if not isinstance(data, dict):
            raise DataFileError("<collision view>", "a view is a JSON object")
        return data

    def schema(self) -> dict[str, JSON]:
        """The view's JSON Schema (what :func:`make_view` writes)."""
        unit_keys = [
            "id",
            "owner",
            "name",
            "card",
            "where",
            "pos",
            "facing",
            "endurance",
            "mana",
            "injuries",
            "toughness",
            "statuses",
            "luck",
            "pile",
            "activated",
            "statue",
        ]
        keys = [
            "player",
            "groups",
            "stage",
            "turn",
            "turn_limit",
            "phase",
            "deciding",
            "active",
            "objectives",
            "attacker",
            "zones",
            "rising",
            "board",
            "units",
            "markers",
            "nominated",
            "vp",
            "favor",
            "glory",
            "channel",
            "window",
            "dice",
            "planned",
            "haste",
            "winner",
            "scores",
            "log",
        ]
        return {
            "title": "collision view",
            "type": "object",
            "required": keys,
            "additionalProperties": False,
            "properties": {
                **{k: {} for k in keys},
                "units": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": unit_keys,
                        "additionalProperties": False,
                        "properties": {
                            **{k: {} for k in unit_keys},
                            "pile": {"type": ["integer", "null"]},
                            "pos": {"type": ["array", "null"]},
                        },
                    },
                },
                "board": {"type": "object", "required": ["cols", "rows", "elevation", "terrain"]},
                "log": {"type": "array", "items": {"type": "string"}},
            },
        }


class _NoDice:
    def __call__(self, label: str) -> int:
        raise RulesError("check rolls no dice", "docs/protocol.md")


class _StepD10:
    """The step's D10s, made on the first roll (most steps roll nothing)."""

    def __init__(self, seed: int, step: int) -> None:
        self.seed, self.step = seed, step
        self._d: SeededD10 | None = None

    def __call__(self, label: str) -> int:
        if self._d is None:
            self._d = SeededD10(step_seed(self.seed, self.step))
        return self._d(label)


class CollisionRuleset:
    """The Collision grid game (``003_fc239e71486306e1.txt``)."""

    id = "collision"
    version = VERSION

    def __init__(self) -> None:
        self.actions: TypeCodec[CollisionAction] = TypeCodec(ACTION_TYPE, "collision action")
        self.states: TypeCodec[CollisionState] = TypeCodec(CollisionState, "collision state")
        self.views = JsonCodec()

    # -- setup -----------------------------------------------------------------------------
    def setup(
        self, rosters: Sequence[JSON], board: JSON, options: Mapping[str, JSON], seed: int
    ) -> CollisionState:
        """Two battle groups (inline cards), a board (``None``: the sample board of the point
        limit) and options (``major``, ``minors``, ``turn_limit``, ``hide_piles``)."""
        s = su.setup_state(rosters, board, options, seed)
        g = Game(s, _NoDice())
        _settle(g)
        return s

    # -- who decides -----------------------------------------------------------------------
    def pending(self, state: CollisionState) -> tuple[Decision[CollisionAction], ...]:
        """One decision at a time."""
        if state.stage == "over":
            return ()
        g = Game(state, _NoDice(), readonly=True)
        return (
            Decision(
                state.player,
                _KIND[state.stage],
                rule(_RULE[state.stage]),
                _prompt(g),
                _default(g),
            ),
        )

    def legal_actions(self, state: CollisionState, player: int) -> LegalSet[CollisionAction]:
        """Listed actions (checked) plus families for free choices (facings, piles)."""

        def check(a: CollisionAction) -> Refusal | None:
            return self.check(state, a, player)

        if state.stage == "over" or player != state.player:
            return LegalSet(player, check)
        g = Game(state, _NoDice(), readonly=True)
        listed, families = _listed(g)
        return LegalSet(player, check, tuple(listed), tuple(families))

    # -- check and apply -------------------------------------------------------------------
    def check(self, state: CollisionState, action: CollisionAction, player: int) -> Refusal | None:
        """The refusal (reason and rule) or ``None``. Rolls no dice, changes nothing."""
        if state.stage == "over":
            return Refusal("the game is over", rule("L1108-1114"))
        if player != state.player:
            return Refusal(
                f"no decision of player {player} is pending now ({_KIND[state.stage]} of "
                f"player {state.player})",
                rule(_RULE[state.stage]),
            )
        try:
            _check(Game(state, _NoDice(), readonly=True), action)
        except RulesError as exc:
            return Refusal(exc.reason, exc.rule)
        return None

    def apply(
        self,
        state: CollisionState,
        action: CollisionAction,
        player: int,
        dice: Roll | Any | None = None,
    ) -> tuple[CollisionState, list[Event]]:
        """Check, then apply to a copy; D10s from the step unless injected (a D10 roller:
        ``label -> face``, such as :class:`~warbench.rulesets.collision.dice.ScriptedD10`)."""
        refusal = self.check(state, action, player)
        if refusal is not None:
            raise refusal.error()
        roll: Roll = dice if callable(dice) else _StepD10(state.seed, state.step)
        sus = state.suspended
        base = _copy(state)
        todo, who, first = action, player, 0
        answers: dict[str, bool] = {}
        draws: list[int] = []
        if sus is not None and isinstance(action, UsePlan | SpendLuck):
            # the answer: re-run the stopped action with the same dice and the answers so far
            index, kind, uid = sus.ask[0], sus.ask[1], sus.ask[2]
            key = f"{index}:plan" if kind == "plan" else f"{index}:luck:{uid}"
            answer = action.use if isinstance(action, UsePlan) else action.spend
            answers = {**sus.answers, key: answer}
            draws = list(sus.draws)
            base.suspended, base.stage, base.player = None, sus.stage, sus.player
            todo, who, first = sus.action, sus.player, sus.emitted
        s = _copy(base)
        g = Game(s, roll, asking=True, answers=answers, replay=draws)
        try:
            _apply(g, todo)
            _settle(g)
        except Ask as q:
            return _suspend(base, todo, who, g, q, answers, first)
        s.step += 1
        events = g.events[first:]
        # the views' log is everyone's: an event meant for some players only gives its
        # public sentence there (Event.data["public_text"])
        s.log = [str(e.data.get("public_text", e.text)) for e in events][-40:]
        return s, events

    # -- views and the end -----------------------------------------------------------------
    def view(self, state: CollisionState, player: int) -> dict[str, Any]:
        """What ``player`` may see."""
        return make_view(state, player)

    def is_over(self, state: CollisionState) -> bool:
        """At the end of the turn limit (L796-798)."""
        return state.stage == "over"

    def result(self, state: CollisionState) -> Result | None:
        """Winner on Victory Points (L1108-1114); scores are Victory Points."""
        if state.stage != "over":
            return None
        return Result(state.winner, (state.scores[0], state.scores[1]), state.reason)

    def digest(self, state: CollisionState) -> str:
        """The digest of the state's JSON."""
        return digest_of(self.states.dump(state))


# --------------------------------------------------------------------------------------------
# Stage by stage
# --------------------------------------------------------------------------------------------


def _suspend(
    base: CollisionState,
    action: CollisionAction,
    player: int,
    g: Game,
    q: Ask,
    answers: dict[str, bool],
    first: int,
) -> tuple[CollisionState, list[Event]]:
    """The action stopped at a D10 a player decides about: the state before it, with the
    action, the dice drawn and the answers kept, and the question pending."""
    s = base
    s.suspended = Suspended(
        action,
        player,
        s.stage,
        list(g.draws),
        dict(answers),
        len(g.events),
        (q.index, q.kind, q.unit.uid, q.unit.owner, q.label, q.face, q.good),
    )
    s.stage, s.player = q.kind, q.unit.owner
    s.step += 1
    if q.kind == "plan":
        text = f"{q.unit.name} may use the Plan Ahead die instead of rolling: {q.label}"
        lines = "L2062-2065"
    else:
        text = f"{q.unit.name} may spend a luck token to re-roll the {q.face}: {q.label}"
        lines = "L1977-1980"
    events = g.events[first:] + [
        Event(q.kind, text, rule(lines), {"unit": q.unit.uid, "face": q.face})
    ]
    s.log = [str(e.data.get("public_text", e.text)) for e in events][-40:]
    return s, events


def _settle(g: Game) -> None:
    """Take the steps nobody decides: a token with nowhere to go."""
    from warbench.rulesets.collision.game.objectives import place, placement_squares

    s = g.s
    for _ in range(100):
        if s.stage == "marker" and s.placements and not placement_squares(g, s.placements[0]):
            place(g, None)
            continue
        break
    if s.stage == "act" and s.haste and s.window is None and s.attack is None:
        # Haste (L1820-1823): the allies within command move now, one at a time
        s.haste = [uid for uid in s.haste if g.unit(uid).where == "board"]
        if s.haste and s.active is not None:
            s.stage, s.player = "haste", g.unit(s.active).owner


def _contest_won(s: CollisionState) -> str:
    """The totals of the Command contest for sides, the winner's first (" 17 against 12"), as
    the log has them (the contest is rolled in the set-up, before any step's events: a player
    saw only "you won", session 35); "" when the side was won by Swift Assault (L2206-2211)."""
    for line in reversed(s.log):
        head, _, totals = line.partition(": ")
        if head == "Command contest for sides":
            a, _, b = totals.partition(" against ")
            if a.isdigit() and b.isdigit():
                mine, theirs = (a, b) if s.player == 0 else (b, a)
                return f", {mine} against {theirs}"
    return ""


def _prompt(g: Game) -> str:
    s = g.s
    st = s.stage
    if st == "role":
        return f"you won the Command contest{_contest_won(s)}: be the Attacker or the Defender?"
    if st == "zone":
        return "choose your deployment zone: " + ", ".join(su.zone_choices(g))
    if st == "diagonal":
        return "divide the board diagonally: rising (bottom-left to top-right) or falling?"
    if st == "marker":
        return f"place the {s.placements[0].kind} token"
    if st == "nominate":
        return "nominate a character" + (
            " (in secret)" if s.turn > 0 or "map" in str(s.minors) else ""
        )
    if st == "piles":
        return "sort your hand into the phase 1, 2 and 3 piles"
    if st == "deploy":
        return f"deploy a phase {s.phase} character"
    if st == "activate":
        return f"turn {s.turn}, phase {s.phase}: activate a character"
    if st == "arrive":
        return "your reinforcement moves onto the edge of your deployment zone"
    if st == "act":
        u = g.unit(s.active) if s.active is not None else None
        return (
            f"{u.name if u else '?'}: choose an action (E {u.endurance if u else 0}, "
            f"M {u.mana if u else 0})"
        )
    if st == "react":
        assert s.window is not None
        return f"react to: {s.window.trigger}?"
    if st == "knockback":
        assert s.attack is not None
        return (
            f"{g.unit(s.attack.target).name} is knocked back diagonally: push it along which side?"
        )
    if st == "checkmate":
        assert s.checkmate is not None
        return "Checkmate: may two allies pay their weapon's EC (Slay on a hit)?"
    if st == "haste":
        return "Haste: move an ally within command up to its Move, or not"
    if st in ("plan", "luck"):
        assert s.suspended is not None
        _i, _k, uid, _p, label, face, _good = s.suspended.ask
        if st == "plan":
            return f"{label}: use the Plan Ahead die ({s.planned[s.player]}) instead of rolling?"
        return f"{label}: {g.unit(uid).name} may spend a luck token to re-roll the {face}"
    return ""


def _default(g: Game) -> CollisionAction | None:
    from warbench.rulesets.collision.game.objectives import default_square, nominees
    from warbench.rulesets.collision.game.reactions import default_reaction
    from warbench.rulesets.collision.game.turns import candidates

    s = g.s
    st = s.stage
    if st == "role":
        return ChooseRole("attacker")
    if st == "zone":
        return ChooseZone(su.zone_choices(g)[0])
    if st == "diagonal":
        return ChooseDiagonal(True)
    if st == "marker":
        return PlaceMarker(default_square(g, s.placements[0]))
    if st == "nominate":
        ns = nominees(g)
        return Nominate(max(ns, key=lambda u: (g.card(u).points, -u.uid)).uid)
    if st == "piles":
        return Piles(su.default_piles(g, s.player))
    if st == "deploy":
        u = su.to_deploy(g)[0]
        at, facing = su.default_deploy(g, u.uid)
        return Deploy(u.uid, at, facing)
    if st == "activate":
        return Activate(min(candidates(g), key=lambda u: u.uid).uid)
    if st == "arrive":
        return _arrive_default(g)
    if st == "act":
        return ai.choose_action(g)
    if st == "react":
        return default_reaction(g, s.player)
    if st == "knockback":
        return Push(_push_choices(g)[0])
    if st == "checkmate":
        return PayCheckmate(tuple(_helpers(g)[:2]))
    if st == "haste":
        return _haste_default(g)
    if st in ("plan", "luck"):
        assert s.suspended is not None
        _i, _k, _uid, _p, _label, face, good = s.suspended.ask
        if st == "plan":
            planned = s.planned[s.player] or 0
            return UsePlan(planned >= 6 if good else planned <= 5)  # better than a roll
        assert face is not None
        return SpendLuck(face <= 2 if good else face >= 9)  # only a bad die is worth a token
    return None


def _haste_default(g: Game) -> HasteMove:
    """The first ally's Haste move: the scripted player's move for it, else none."""
    s = g.s
    u = g.unit(s.haste[0])
    m = ai.best_move(g, u, ("haste",)) if u.pos is not None else None
    if m is None:
        return HasteMove(u.uid, None)
    return HasteMove(u.uid, m.to, m.facing)


def _push_choices(g: Game) -> list[tuple[int, int]]:
    """The squares a diagonal Knockback may push onto first (x axis, then y axis)."""
    from warbench.rulesets.collision.game.movement import push_choices

    s = g.s
    assert s.attack is not None
    att, tgt = g.unit(s.attack.attacker), g.unit(s.attack.target)
    origin = s.attack.centre or att.pos
    assert tgt.pos is not None and origin is not None
    return push_choices(tgt.pos, origin)


def _helpers(g: Game) -> list[int]:
    from warbench.rulesets.collision.game.attacks import checkmate_helpers

    assert g.s.checkmate is not None
    uid, a = g.s.checkmate
    return checkmate_helpers(g, g.unit(uid), a.target)


def _arrive_default(g: Game) -> Deploy:
    from warbench.rulesets.collision.game.movement import arrive_squares

    s = g.s
    assert s.active is not None
    u = g.unit(s.active)
    squares = arrive_squares(g, u)
    if not squares:
        return Deploy(u.uid, None)
    b = g.board
    c = ((b.cols - 1) // 2, (b.rows - 1) // 2)
    sq = min(squares, key=lambda q: (spaces(q, c), q))
    return Deploy(u.uid, sq, face_towards(sq, c) if sq != c else "N")


def _listed(g: Game) -> tuple[list[CollisionAction], list[Family[CollisionAction]]]:
    from warbench.rulesets.collision.game.actions import ability_options
    from warbench.rulesets.collision.game.attacks import attack_options
    from warbench.rulesets.collision.game.movement import (
        NORMAL,
        arrive_squares,
        check_move,
        reachable,
    )
    from warbench.rulesets.collision.game.objectives import nominees, placement_squares
    from warbench.rulesets.collision.game.reactions import options
    from warbench.rulesets.collision.game.turns import candidates

    s = g.s
    st = s.stage
    facings = tuple(FACINGS)
    out: list[CollisionAction] = []
    fams: list[Family[CollisionAction]] = []
    if st == "role":
        out = [ChooseRole("attacker"), ChooseRole("defender")]
    elif st == "zone":
        out = [ChooseZone(z) for z in su.zone_choices(g)]
    elif st == "diagonal":
        out = [ChooseDiagonal(True), ChooseDiagonal(False)]
    elif st == "marker":
        out = [PlaceMarker(sq) for sq in placement_squares(g, s.placements[0])]
    elif st == "nominate":
        out = [Nominate(u.uid) for u in nominees(g)]
    elif st == "piles":
        base = su.default_piles(g, s.player)
        out = [Piles(base)]
        flat = [x for p in base for x in p]
        sizes = [len(p) for p in base]
        shuffles: list[JSON] = []
        for k in range(1, len(flat)):
            rot = flat[k:] + flat[:k]
            shuffles.append(rot)
        if shuffles:

            def build(v: tuple[JSON, ...], sizes: list[int] = sizes) -> CollisionAction:
                order = list(v[0])
                a, b = sizes[0], sizes[0] + sizes[1]
                return Piles((tuple(order[:a]), tuple(order[a:b]), tuple(order[b:])))

            fams.append(Family("piles", (Choice("order", tuple(shuffles)),), build))
    elif st in ("deploy", "arrive"):
        if st == "deploy":
            units = su.to_deploy(g)
            squares = su.deploy_squares(g, s.player)
        else:
            assert s.active is not None
            units = [g.unit(s.active)]
            squares = arrive_squares(g, units[0])
        b = g.board
        c = ((b.cols - 1) // 2, (b.rows - 1) // 2)
        for u in units:
            if not squares:
                out.append(Deploy(u.uid, None))
            for sq in squares:
                out.append(Deploy(u.uid, sq, face_towards(sq, c) if sq != c else "N"))
        if squares:
            fams.append(
                Family(
                    "deploy",
                    (
                        Choice("unit", tuple(u.uid for u in units)),
                        Choice("at", tuple(list(q) for q in squares)),
                        Choice("facing", facings),
                    ),
                    lambda v: Deploy(int(v[0]), (int(v[1][0]), int(v[1][1])), str(v[2])),
                )
            )
    elif st == "activate":
        out = [Activate(u.uid) for u in candidates(g)]
    elif st == "react":
        assert s.window is not None
        out = list(options(g, s.window, s.player))
    elif st == "knockback":
        out = [Push(sq) for sq in _push_choices(g)]
    elif st == "checkmate":
        from itertools import combinations

        out = [PayCheckmate(pair) for pair in combinations(_helpers(g), 2)]
        out.append(PayCheckmate(()))
    elif st == "haste":
        by_unit: dict[int, list[list[int]]] = {}
        for uid in s.haste:
            v = g.unit(uid)
            out.append(HasteMove(uid, None))
            if v.pos is None or v.statuses.get("flee", 0):
                continue
            reach = sorted(reachable(g, v, "haste"))
            foes = [e.pos for e in g.on_board(1 - v.owner) if e.pos is not None]
            for sq in reach:
                look = min(foes, key=lambda e: (spaces(sq, e), e)) if foes else sq
                out.append(HasteMove(uid, sq, face_towards(sq, look) if look != sq else v.facing))
            if reach:
                by_unit[uid] = [list(q) for q in reach]
        for uid, hsq in by_unit.items():
            fams.append(
                Family(
                    f"haste {uid}",
                    (Choice("to", tuple(hsq)), Choice("facing", facings)),
                    lambda v, uid=uid: HasteMove(uid, (int(v[0][0]), int(v[0][1])), str(v[1])),  # type: ignore[misc]
                )
            )
    elif st == "plan":
        out = [UsePlan(False), UsePlan(True)]
    elif st == "luck":
        out = [SpendLuck(False), SpendLuck(True)]
    elif st == "act":
        assert s.active is not None
        u = g.unit(s.active)
        out.append(EndActivation())
        out += attack_options(g, u)  # attacks and abilities first: a person reads the top
        out += ability_options(g, u)
        if not u.acted and not u.moved and not u.special_moved:
            out += [Hold(f) for f in facings]
        enemies = [v.pos for v in g.on_board(1 - u.owner) if v.pos is not None]
        modes = list(NORMAL) + (["haste"] if u.hasted else [])
        squares_by_mode: dict[str, list[list[int]]] = {}
        for mode in modes:
            try:
                check_move_ok = True
                squares = sorted(reachable(g, u, mode)) if u.pos is not None else []
            except Exception:
                check_move_ok = False
                squares = []
            if not check_move_ok:
                continue
            ok_squares = []
            for sq in squares:
                look = min(enemies, key=lambda e: (spaces(sq, e), e)) if enemies else sq
                f = face_towards(sq, look) if look != sq else u.facing
                try:
                    check_move(g, u, mode, sq, f)
                except RulesError:
                    break  # the mode itself is not allowed now
                out.append(Move(mode, sq, f))  # type: ignore[arg-type]
                ok_squares.append(list(sq))
            if ok_squares:
                squares_by_mode[mode] = ok_squares
        for mode, sqs in squares_by_mode.items():
            fams.append(
                Family(
                    f"{mode} facing",
                    (Choice("to", tuple(sqs)), Choice("facing", facings)),
                    lambda v, mode=mode: Move(mode, (int(v[0][0]), int(v[0][1])), str(v[1])),  # type: ignore[misc]
                )
            )
    return out, fams


def _check(g: Game, action: CollisionAction) -> None:
    """Refuse an action that is not the pending decision's or that the rules forbid."""
    from warbench.rulesets.collision.game.actions import check_act
    from warbench.rulesets.collision.game.movement import arrive_squares
    from warbench.rulesets.collision.game.objectives import nominees, placement_squares
    from warbench.rulesets.collision.game.reactions import check_react
    from warbench.rulesets.collision.game.turns import candidates

    s = g.s
    st = s.stage
    want: dict[str, tuple[type, ...]] = {
        "role": (ChooseRole,),
        "zone": (ChooseZone,),
        "diagonal": (ChooseDiagonal,),
        "marker": (PlaceMarker,),
        "nominate": (Nominate,),
        "piles": (Piles,),
        "deploy": (Deploy,),
        "activate": (Activate,),
        "arrive": (Deploy,),
        "act": (Move, Attack, UseAbility, Hold, EndActivation),
        "react": (React,),
        "knockback": (Push,),
        "checkmate": (PayCheckmate,),
        "haste": (HasteMove,),
        "plan": (UsePlan,),
        "luck": (SpendLuck,),
    }
    if not isinstance(action, want[st]):
        raise RulesError(
            f"a {_KIND[st]} decision is pending, not {type(action).__name__}",
            rule(_RULE[st]),
        )
    if isinstance(action, ChooseZone) and action.zone not in su.zone_choices(g):
        raise RulesError(
            f"zone {action.zone!r}; allowed: {', '.join(su.zone_choices(g))}", rule("L626-674")
        )
    elif isinstance(action, PlaceMarker):
        squares = placement_squares(g, s.placements[0])
        if action.at is None and squares:
            raise RulesError("place the token on an allowed square", rule(s.placements[0].rule))
        if action.at is not None and tuple(action.at) not in squares:
            raise RulesError(
                f"the {s.placements[0].kind} can't go on {tuple(action.at)}",
                rule(s.placements[0].rule),
            )
    elif isinstance(action, Nominate):
        if action.unit not in [u.uid for u in nominees(g)]:
            raise RulesError(
                "nominate one of: " + ", ".join(f"{u.uid} {u.name}" for u in nominees(g)),
                rule(_RULE["nominate"]),
            )
    elif isinstance(action, Piles):
        su.check_piles(g, s.player, action.piles)
    elif isinstance(action, Deploy) and st == "deploy":
        su.check_deploy(g, action.unit, action.at, action.facing)
    elif isinstance(action, Deploy):  # arrive
        if action.unit != s.active:
            raise RulesError("the arriving character is the active one", rule("L763-765"))
        squares = arrive_squares(g, g.unit(action.unit))
        if action.facing not in FACINGS:
            raise RulesError(f"facing {action.facing!r}; allowed: N, E, S, W", rule("L763-765"))
        if action.at is None and squares:
            raise RulesError("enter on a free square of your zone's edge", rule("L763-765"))
        if action.at is not None and tuple(action.at) not in squares:
            raise RulesError(
                f"{tuple(action.at)} is not a free square on your zone's board edge",
                rule("L763-767"),
            )
    elif isinstance(action, Activate):
        if action.unit not in [u.uid for u in candidates(g)]:
            raise RulesError(
                f"character {action.unit} can't activate now; phase {s.phase}: "
                + ", ".join(f"{u.uid} {u.name}" for u in candidates(g)),
                rule("L778-784"),
            )
    elif st == "act":
        assert s.active is not None
        check_act(g, g.unit(s.active), action)
    elif isinstance(action, React):
        check_react(g, s.player, action)
    elif isinstance(action, Push):
        choices = _push_choices(g)
        if tuple(action.to) not in choices:
            raise RulesError(
                f"push onto {tuple(action.to)}; allowed: {', '.join(map(str, choices))}",
                rule("L1937-1944"),
            )
    elif isinstance(action, PayCheckmate):
        from warbench.rulesets.collision.game.attacks import check_checkmate

        check_checkmate(g, tuple(action.helpers))
    elif isinstance(action, HasteMove):
        from warbench.rulesets.collision.game.movement import check_move

        if action.unit not in s.haste:
            raise RulesError(
                f"character {action.unit} has no Haste move now; allies to move: {s.haste}",
                rule("L1820-1823"),
            )
        if action.to is not None:
            check_move(g, g.unit(action.unit), "haste", tuple(action.to), action.facing)  # type: ignore[arg-type]


def _apply(g: Game, action: CollisionAction) -> None:
    from warbench.rulesets.collision.game.actions import do_act
    from warbench.rulesets.collision.game.objectives import nominate, place
    from warbench.rulesets.collision.game.reactions import apply_react
    from warbench.rulesets.collision.game.turns import activate, arrive, maybe_end_activation

    s = g.s
    if isinstance(action, ChooseRole):
        su.choose_role(g, action.role)
    elif isinstance(action, ChooseDiagonal):
        su.choose_diagonal(g, action.rising)
    elif isinstance(action, ChooseZone):
        su.choose_zone(g, action.zone)
    elif isinstance(action, PlaceMarker):
        place(g, None if action.at is None else (action.at[0], action.at[1]))
    elif isinstance(action, Nominate):
        nominate(g, action.unit)
    elif isinstance(action, Piles):
        su.set_piles(g, s.player, action.piles)
    elif isinstance(action, Deploy) and s.stage == "deploy":
        at = None if action.at is None else (action.at[0], action.at[1])
        su.deploy(g, action.unit, at, action.facing)
    elif isinstance(action, Deploy):
        at = None if action.at is None else (action.at[0], action.at[1])
        arrive(g, at, action.facing)
    elif isinstance(action, Activate):
        activate(g, action.unit)
    elif isinstance(action, React):
        apply_react(g, s.player, action)
    elif isinstance(action, HasteMove):
        from warbench.rulesets.collision.game.movement import start_move
        from warbench.rulesets.collision.game.turns import maybe_end_activation

        u = g.unit(action.unit)
        s.stage = "act"
        if s.active is not None:
            s.player = g.unit(s.active).owner
        if action.to is None:
            s.haste.remove(u.uid)
            g.event("haste", f"{u.name} does not make its Haste move", "L1820-1823")
        else:
            start_move(g, u, "haste", (action.to[0], action.to[1]), action.facing)
        if s.stage == "act" and s.active is not None:
            maybe_end_activation(g)
    elif isinstance(action, Push | PayCheckmate):
        from warbench.rulesets.collision.game.attacks import pay_checkmate, run_attack
        from warbench.rulesets.collision.game.turns import maybe_end_activation

        if isinstance(action, Push):
            assert s.attack is not None and s.attack.target is not None
            tgt = g.unit(s.attack.target)
            assert tgt.pos is not None
            s.attack.push = "x" if action.to[0] != tgt.pos[0] else "y"
            s.stage = "act"
            active = g.unit(s.active) if s.active is not None else None
            if active is not None:
                s.player = active.owner
            run_attack(g)
        else:
            pay_checkmate(g, tuple(action.helpers))
        if s.stage == "act" and s.active is not None:
            maybe_end_activation(g)
    else:
        assert s.active is not None
        do_act(g, g.unit(s.active), action)
        if s.stage == "act":
            maybe_end_activation(g)


# --------------------------------------------------------------------------------------------
# Views
# --------------------------------------------------------------------------------------------


def make_view(state: CollisionState, player: int) -> dict[str, Any]:
    """The game as ``player`` sees it (hidden: the opponent's piles of characters that have not
    activated this turn, with ``hide_piles``; the opponent's Map Carrier)."""
    t = tables(state)
    hide = bool(t.options.get("hide_piles", True)) and player in (0, 1) and (state.stage != "over")
    units = []
    for u in state.units:
        card = card_of(state, u)
        mine = u.owner == player
        units.append(
            {
                "id": u.uid,
                "owner": u.owner,
                "name": u.name,
                "card": card.name,
                "where": u.where,
                "pos": list(u.pos) if u.pos is not None else None,
                "facing": u.facing,
                "endurance": u.endurance,
                "mana": u.mana,
                "injuries": u.injuries,
                "toughness": card.stats.toughness,
                "statuses": dict(u.statuses),
                "luck": u.luck,
                "pile": u.pile if (mine or not hide or u.activated or state.turn == 0) else None,
                "activated": u.activated,
                "statue": u.statue,
            }
        )
    nominated = {
        k: v
        for k, v in state.nominated.items()
        if not (k.startswith("map") and hide and k != f"map{player}")
    }
    b = board_of(state)  # as it stands: Upheaval's elevation piece raises a square
    sus = state.suspended
    return {
        "player": player,
        "groups": list(t.groups),
        "stage": state.stage,
        "turn": state.turn,
        "turn_limit": state.turn_limit,
        "phase": state.phase,
        "deciding": state.player,
        "active": state.active,
        "objectives": {"major": state.major, "minors": list(state.minors)},
        "attacker": state.attacker,
        "zones": list(state.zone_of),
        "rising": state.rising,  # the diagonal of a diagonal deployment (L664-674)
        "board": {
            "cols": b.cols,
            "rows": b.rows,
            "elevation": [list(r) for r in b.elevation],
            "terrain": [list(x) for x in state.terrain if x[2] != ELEVATION],
        },
        "units": units,
        "markers": [
            {
                "kind": m.kind,
                "at": list(m.at) if m.at else None,
                "holder": m.holder,
                "owner": m.owner,
                "gone": m.gone,
            }
            for m in state.markers
        ],
        "nominated": nominated,
        "vp": list(state.vp),
        "favor": list(state.favor),
        "glory": list(state.glory),
        "channel": list(state.channel),
        "window": None
        if state.window is None
        else {
            "trigger": state.window.trigger,
            "unit": state.window.unit,
            "source": state.window.source,
        },
        "dice": None
        if sus is None
        else {
            "kind": sus.ask[1],
            "unit": sus.ask[2],
            "label": sus.ask[4],
            "face": sus.ask[5],
            "planned": state.planned[sus.ask[3]] if sus.ask[1] == "plan" else None,
        },
        "planned": list(state.planned),  # each player's Plan Ahead die (L2062-2065)
        "haste": list(state.haste),
        "winner": state.winner,
        "scores": list(state.scores),
        "log": list(state.log),
    }


def perturb_hidden(state: CollisionState, player: int) -> CollisionState:
    """A state that differs only in what ``player`` may not see: the opponent's piles of
    characters not yet activated this turn and the opponent's Map Carrier."""
    if state.stage == "over" or player not in (0, 1) or state.turn == 0:
        return state
    if not tables(state).options.get("hide_piles", True):
        return state
    s = _copy(state)
    for u in s.units:
        if u.owner != player and not u.activated:
            u.pile = 1 + (u.pile % 3)
    key = f"map{1 - player}"
    if key in s.nominated:
        s.nominated[key] = s.nominated[key] + 1000
    return s


def _copy(state: CollisionState) -> CollisionState:
    """A deep copy without the read-only memo."""
    return clone(state)
