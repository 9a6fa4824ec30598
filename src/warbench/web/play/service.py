"""Games in the browser over the game protocol (``warbench.play``), ruleset-neutral.

A :class:`PlayService` keeps games in the database (``storage.games``) and answers what a
page needs: the seat a token plays, that seat's view, its pending decision and legal actions,
``check`` of a proposed action (the refusal and its rule, live while a piece is dragged), and
``act``: the action is checked and applied by the ruleset for the seat the token plays, and
stored in one transaction. Then chance decisions, automated decisions (the game's
``automate`` kinds take their default) and AI seats are played, each step its own
transaction, until a person must decide. Every state is rebuilt from the stored record (and
kept in a small cache keyed by the last step's digest), so a game survives a restart and
resumes at its last action.

Access: each game has secret tokens (hot-seat: one token for every seat; against the AI: one
for the person's seats; network: one per seat) and a spectator token. A request acts only for
a seat whose decision is pending and which its token plays; anything else is
:class:`AccessDenied` (HTTP 403). Players receive their own view; a spectator receives the
*public view*: only what every player's view agrees on (:func:`public_view`).
"""

from __future__ import annotations

import functools
import hashlib
import secrets
import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import islice
from typing import Any

from warbench.kernel.errors import ProfileError, UnknownNameError, WarbenchError
from warbench.play.core import (
    CHANCE,
    JSON,
    Decision,
    Event,
    Preview,
    ProtocolError,
    Result,
    Ruleset,
    SetupArgs,
    chance_dice,
    pick_outcome,
)
from warbench.play.players import Budget, Lineup, player_kind_names
from warbench.play.record import GameRecord, RecordHeader, RecordResult, RecordStep
from warbench.play.registry import get_ruleset, ruleset_ids
from warbench.storage.games import GameData, GameStore, NewGame, StepData, TokenData
from warbench.storage.store import Store

#: How a game is played: one screen, against the AI, or one browser per player.
MODES = ("hotseat", "ai", "network")
HUMAN = "human"
#: Most listed actions a page receives for one decision (the rest stay checkable).
MAX_LISTED = 400
#: Most automatic steps (chance, automated defaults, AI seats) played after one action.
MAX_AUTO_STEPS = 5000


class AccessDenied(Exception):
    """The request's token may not do this (HTTP 403): no token, a spectator's, another
    seat's, or a game it does not belong to."""


class GameNotFound(Exception):
    """No game with this id (HTTP 404)."""


def token_hash(token: str) -> str:
    """The SHA-256 of a token: what the database stores."""
    return hashlib.sha256(token.encode()).hexdigest()


def ai_kinds() -> tuple[str, ...]:
    """The AI players a seat may have (the protocol's player kinds with their levels,
    ``search:1`` …; a new kind registered there appears here)."""
    return player_kind_names()


def seat_kinds(ruleset_id: str | None = None) -> tuple[str, ...]:
    """What may sit in a seat: a person or one of the AI kinds; with ``ruleset_id``, only the
    kinds that can play that ruleset (a search player needs the ruleset's search hooks, which
    The WarEngine and Collision do not have yet: the lobby must not offer a seat that fails
    at its first decision)."""
    kinds = ai_kinds() if ruleset_id is None else _kinds_for(ruleset_id)
    return (HUMAN, *(f"ai:{k}" for k in kinds))


@functools.cache
def _kinds_for(ruleset_id: str) -> tuple[str, ...]:
    """The AI kinds that build a player for ``ruleset_id`` over its first sample set-up
    (tried once per process)."""
    from warbench.web.play.scenes import presenter

    presets = presenter(ruleset_id).presets()
    knows = None
    if presets and isinstance(presets[0].get("setup"), dict):
        setup: dict[str, Any] = presets[0]["setup"]
        knows = SetupArgs(
            tuple(setup.get("rosters") or ()), setup.get("board"), setup.get("options") or {}
        )
    # a kind's levels play the same rulesets (``search:1`` … share the search hooks): each
    # kind is built once
    plays: dict[str, bool] = {}
    for k in ai_kinds():
        name = k.partition(":")[0]
        if name not in plays:
            plays[name] = _ai_refusal(k, ruleset_id, knows) is None
    return tuple(k for k in ai_kinds() if plays[k.partition(":")[0]])


def _ai_refusal(kind: str, ruleset_id: str, knowledge: SetupArgs | None) -> str | None:
    """Why an AI of ``kind`` cannot play ``ruleset_id`` (its factory's message), or ``None``."""
    from warbench.play.players import make_player

    try:
        make_player(kind, 0, 0, ruleset_id, knowledge)
    except WarbenchError as exc:
        return str(exc)
    return None


@dataclass
class Live:
    """A game's state after its live steps, and the events of each step."""

    steps: int
    digest: str
    state: Any
    events: list[list[Event]] = field(default_factory=list)


@dataclass(frozen=True)
class Created:
    """A new game: its id and the secret tokens (shown once)."""

    id: str
    tokens: dict[str, str]  # label -> token
    seats: tuple[str, ...]


def public_view(views: Sequence[JSON]) -> JSON:
    """What every player may see: the parts on which all the players' views agree.

    Objects keep the keys every view has (merged recursively); lists of equal length merge
    item by item; lists of objects with a ``uid``/``id`` keep the items every view lists;
    anything else that differs (a value one player may not see) becomes ``None``.
    """
    first = views[0]
    if all(v == first for v in views[1:]):
        return first
    if all(isinstance(v, dict) for v in views):
        keys = [k for k in first if all(k in v for v in views[1:])]
        return {k: public_view([v[k] for v in views]) for k in keys}
    if all(isinstance(v, list) for v in views):
        if all(len(v) == len(first) for v in views):
            return [public_view(list(items)) for items in zip(*views, strict=True)]
        key = _id_key(views)
        if key is not None:
            index = [{item[key]: item for item in v} for v in views]
            shared = [i for i in index[0] if all(i in ix for ix in index[1:])]
            return [public_view([ix[i] for ix in index]) for i in shared]
    return None


def _id_key(views: Sequence[JSON]) -> str | None:
    for key in ("uid", "id"):
        if all(isinstance(item, dict) and key in item for v in views for item in v):
            return key
    return None


def action_label(action: JSON) -> str:
    """A short label of an action's JSON (its kind, then its other fields)."""
    if not isinstance(action, dict):
        return str(action)
    kind = str(action.get("kind", "action"))
    rest = []
    for k, v in action.items():
        if k == "kind":
            continue
        if isinstance(v, float):
            v = round(v, 2)
        elif isinstance(v, list) and v and all(isinstance(x, float) for x in v):
            v = [round(x, 2) for x in v]
        rest.append(f"{k} {v}")
    return kind + (": " + ", ".join(rest) if rest else "")


class PlayService:
    """Web games over one :class:`~warbench.storage.store.Store` (thread-safe)."""

    def __init__(self, store: Store, cache_size: int = 256) -> None:
        self.games = GameStore(store)
        self._rulesets: dict[str, Ruleset[Any, Any, Any]] = {}
        self._cache: OrderedDict[str, Live] = OrderedDict()
        self._cache_size = cache_size
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()
        self._changed = threading.Condition(threading.RLock())
        self._revisions: dict[str, int] = {}
        self._tokens: dict[str, TokenData] = {}  # tokens never change once made
        self._waiters: dict[str, set[tuple[Any, Any]]] = {}
        self._answers: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
        self._data: OrderedDict[str, GameData] = OrderedDict()  # the last read of each game

    # -- rulesets --------------------------------------------------------------------------
    def ruleset(self, ruleset_id: str) -> Ruleset[Any, Any, Any]:
        """The registered ruleset (one object per id; rulesets are stateless)."""
        with self._guard:
            rs = self._rulesets.get(ruleset_id)
            if rs is None:
                rs = self._rulesets[ruleset_id] = get_ruleset(ruleset_id)
            return rs

    def _lock(self, game_id: str) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(game_id, threading.Lock())

    # -- creating --------------------------------------------------------------------------
    def create(
        self,
        ruleset_id: str,
        setup: Mapping[str, JSON],
        *,
        mode: str = "hotseat",
        seats: Sequence[str] | None = None,
        seed: int | None = None,
        automate: Iterable[str] = (),
        title: str = "",
    ) -> Created:
        """Set up a game (the ruleset validates the set-up), store it, hand out its tokens,
        and play any automatic opening steps (a chance roll, an AI's first move)."""
        if ruleset_id not in ruleset_ids():
            raise UnknownNameError("ruleset", ruleset_id, ruleset_ids())
        if mode not in MODES:
            raise ProfileError("mode", mode, ", ".join(MODES))
        rs = self.ruleset(ruleset_id)
        rosters = setup.get("rosters")
        if not isinstance(rosters, list) or not rosters:
            raise ProfileError("setup.rosters", rosters, "a list with one roster per player")
        board = setup.get("board")
        options = setup.get("options") or {}
        if not isinstance(options, dict):
            raise ProfileError("setup.options", options, "an object of the ruleset's options")
        if seed is None:
            # not game randomness: the recorded seed of a new game (as `warbench play`)
            seed = secrets.randbits(31)
        state = rs.setup(rosters, board, options, seed)
        n = len(rosters)
        seat_list = tuple(seats) if seats else _default_seats(mode, n)
        if len(seat_list) != n:
            raise ProfileError("seats", list(seat_list), f"one entry per roster ({n})")
        knows = SetupArgs(tuple(rosters), board, options)
        for i, s in enumerate(seat_list):
            # every AI seat is built once now: a kind that cannot play this ruleset (a search
            # player without the ruleset's search hooks) is refused here, not at its first turn
            known = s in seat_kinds()
            why = _ai_refusal(s[3:], rs.id, knows) if known and s != HUMAN else None
            if not known or why is not None:
                allowed = ", ".join(seat_kinds(rs.id))
                raise ProfileError(f"seats[{i}]", s, allowed + (f" ({why})" if why else ""))
        humans = tuple(i for i, s in enumerate(seat_list) if s == HUMAN)
        if mode == "hotseat" and len(humans) != n:
            raise ProfileError("seats", list(seat_list), "every seat human in a hot-seat game")
        if mode == "ai" and not humans:
            raise ProfileError("seats", list(seat_list), "at least one human seat against the AI")
        game_id = secrets.token_hex(6)
        tokens: dict[str, str] = {}
        rows: list[tuple[str, TokenData]] = []

        def add(label: str, role: str, seat_ids: tuple[int, ...]) -> None:
            tok = secrets.token_urlsafe(18)
            tokens[label] = tok
            rows.append((token_hash(tok), TokenData(game_id, role, seat_ids, label)))

        if mode == "network":
            for i in humans:
                add(f"seat {i}", "player", (i,))
        elif humans:
            add("players", "player", humans)
        add("spectator", "spectator", ())
        new = NewGame(
            id=game_id,
            ruleset=rs.id,
            ruleset_version=rs.version,
            seed=seed,
            setup={"rosters": rosters, "board": board, "options": options},
            digest=rs.digest(state),
            mode=mode,
            seats=seat_list,
            automate=tuple(automate),
            title=title[:120],
        )
        self.games.create(new, rows)
        with self._lock(game_id):
            self._advance(self.games.load(game_id))
        self._notify(game_id)
        return Created(game_id, tokens, seat_list)

    # -- reading ---------------------------------------------------------------------------
    def load(self, game_id: str) -> GameData:
        """The stored game (``GameNotFound`` when there is none)."""
        if not game_id or len(game_id) > 40:
            raise GameNotFound(game_id)
        try:
            with self._guard:
                hit = self._data.get(game_id)
            # the game as last read, when its revision (one column, a step or an undo bumps
            # it, in any server process) has not moved: no re-read of every step per request
            if hit is not None and self.games.revision(game_id) == hit.revision:
                return hit
            data = self.games.load(game_id)
        except WarbenchError as exc:
            if "no game with id" in str(exc):
                raise GameNotFound(game_id) from None
            raise
        self._keep(data)
        return data

    def _keep(self, data: GameData) -> None:
        with self._guard:
            self._data[data.id] = data
            self._data.move_to_end(data.id)
            while len(self._data) > self._cache_size:
                self._data.popitem(last=False)

    def live(self, data: GameData) -> Live:
        """The state after the game's live steps: from the cache when its last digest
        matches, else replayed from the stored record (digest-checked)."""
        if data.mode == "manager":
            raise ProtocolError(
                f"{data.id} is a Play Manager table, not a protocol game: open /play/manager",
                "docs/web-play.md",
            )
        last = data.steps[-1].digest if data.steps else data.digest
        with self._guard:
            hit = self._cache.get(data.id)
            if hit is not None and hit.steps == len(data.steps) and hit.digest == last:
                self._cache.move_to_end(data.id)
                return hit
        rs = self.ruleset(data.ruleset)
        if rs.version != data.ruleset_version:
            raise ProtocolError(
                f"game {data.id} was made with {data.ruleset} {data.ruleset_version}; "
                f"this server has {rs.version}",
                "game record",
            )
        s = data.setup
        state = rs.setup(s["rosters"], s.get("board"), s.get("options") or {}, data.seed)
        if rs.digest(state) != data.digest:
            raise ProtocolError(f"game {data.id}: the set-up state differs", "game record")
        events: list[list[Event]] = []
        for st in data.steps:
            state, evs = rs.apply(state, rs.actions.load(st.action), st.actor)
            if rs.digest(state) != st.digest:
                raise ProtocolError(
                    f"game {data.id}: step {st.step} replays differently", "game record"
                )
            events.append(evs)
        live = Live(len(data.steps), last, state, events)
        self._remember(data.id, live)
        return live

    def _remember(self, game_id: str, live: Live) -> None:
        with self._guard:
            self._cache[game_id] = live
            self._cache.move_to_end(game_id)
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)

    def token(self, game_id: str, token: str | None) -> TokenData | None:
        """The token's data if it belongs to this game (``None`` for no or a foreign token)."""
        if not token or len(token) > 200:
            return None
        h = token_hash(token)
        t = self._tokens.get(h)
        if t is None:
            t = self.games.token(h)
            if t is not None:
                with self._guard:
                    self._tokens[h] = t
        if t is None or t.game_id != game_id:
            return None
        return t

    def require(self, game_id: str, token: str | None) -> TokenData:
        """The token's data, or :class:`AccessDenied`."""
        t = self.token(game_id, token)
        if t is None:
            raise AccessDenied("this game needs its secret link (a player's or spectator's token)")
        return t

    def seat_for(self, rs: Ruleset[Any, Any, Any], state: Any, t: TokenData) -> int | None:
        """The seat this token decides for now: its first seat with a pending decision."""
        for d in rs.pending(state):
            if d.player in t.seats:
                return d.player
        return None

    def view_player(self, rs: Ruleset[Any, Any, Any], state: Any, t: TokenData) -> int | None:
        """Whose view a token sees: the seat deciding now, else its first seat; ``None``
        (the public view) for a spectator."""
        if not t.seats:
            return None
        seat = self.seat_for(rs, state, t)
        return seat if seat is not None else t.seats[0]

    def snapshot(self, game_id: str, token: str | None, since: int = 0) -> dict[str, JSON]:
        """Everything a page shows for this token: the game, the view it may see, the
        decision it must answer (with its legal actions), the events from step ``since``,
        the result and the scene to draw."""
        from warbench.web.play.scenes import presenter

        data = self.load(game_id)
        t = self.require(game_id, token)
        rs = self.ruleset(data.ruleset)
        live = self.live(data)
        state = live.state
        key = (data.id, live.steps, live.digest)
        decisions = self._memo((*key, "pending"), lambda: rs.pending(state))
        seat = next((d.player for d in decisions if d.player in t.seats), None)
        # whose view: the seat deciding now, else the token's first seat; a spectator: public
        player = seat if seat is not None else (t.seats[0] if t.seats else None)

        def make_view() -> JSON:
            if player is None:
                players = range(len(data.seats))
                return public_view([rs.views.dump(rs.view(state, p)) for p in players])
            return rs.views.dump(rs.view(state, player))

        view = self._memo((*key, "view", player), make_view)
        decision: dict[str, JSON] | None = None
        if seat is not None:
            d = next(d for d in decisions if d.player == seat)
            decision = self._memo(
                (*key, "decision", seat),
                lambda: self._decision_json(rs, state, d, data.setup, view),
            )
        pending = [
            {"player": d.player, "kind": d.kind, "rule": d.rule, "prompt": d.prompt}
            for d in decisions
        ]
        result = rs.result(state) if rs.is_over(state) else None
        since = max(0, min(since, live.steps))
        pres = presenter(data.ruleset)
        events = self._events(data, live, since, t, pres, view)
        return {
            "id": data.id,
            "title": data.title,
            "ruleset": data.ruleset,
            "ruleset_version": data.ruleset_version,
            "mode": data.mode,
            "seats": list(data.seats),
            "names": pres.seat_names(data.setup, len(data.seats)),
            "you": {"role": t.role, "seats": list(t.seats), "label": t.label},
            "viewer": player,
            "revision": data.revision,
            "steps": live.steps,
            "pending": pending,
            "decision": decision,
            "view": view,
            "scene": self._memo((*key, "scene", player), lambda: pres.scene(data.setup, view)),
            "events": events,
            "result": None
            if result is None
            else pres.result_words(result.to_json(), pres.seat_names(data.setup, len(data.seats))),
            # none once the game is over: its result stands (s34-play2)
            "can_undo": result is None
            and self._may_undo(data, t)
            and self._undo_point(data) is not None,
            "can_download": result is not None or set(range(len(data.seats))) <= set(t.seats),
        }

    def _events(
        self, data: GameData, live: Live, since: int, t: TokenData, pres: Any, view: JSON
    ) -> list[dict[str, JSON]]:
        """The events of the steps after ``since`` as this token may see them: whole for a
        link that plays every seat (hot-seat), else each as the presenter's ``event_view``
        gives it for the token's seats (a spectator: none), with ``view`` the token's view."""
        every = set(range(len(data.seats))) <= set(t.seats)
        seats = frozenset(t.seats)
        names = pres.seat_names(data.setup, len(data.seats))
        out: list[dict[str, JSON]] = []
        for k in range(since, live.steps):
            for e in live.events[k]:
                shown = (
                    e.to_json() if every else pres.event_view(data.setup, view, e.to_json(), seats)
                )
                if shown is not None:
                    out.append({"step": k + 1, **pres.event_words(shown, names)})
        return out

    def _memo(self, key: tuple[Any, ...], make: Any) -> Any:
        """What ``make()`` gives for this state (games' states are immutable: a key holds
        the game's id, step count and digest), kept for the next reader (both players and
        the spectators read each state)."""
        with self._guard:
            if key in self._answers:
                self._answers.move_to_end(key)
                return self._answers[key]
        value = make()
        with self._guard:
            self._answers[key] = value
            while len(self._answers) > 4 * self._cache_size:
                self._answers.popitem(last=False)
        return value

    def _decision_json(
        self,
        rs: Ruleset[Any, Any, Any],
        state: Any,
        d: Decision[Any],
        setup: dict[str, JSON],
        view: JSON,
    ) -> dict[str, JSON]:
        from warbench.play.legal import family_example
        from warbench.web.play.scenes import presenter

        legal = rs.legal_actions(state, d.player)
        acts = list(islice(iter(legal), MAX_LISTED))
        listed = [rs.actions.dump(a) for a in acts]
        shown = presenter(rs.id)
        # each distinct choice once (a WARSURGE casualty order that removes the same models as
        # another, session 39); the engine's actions are unchanged
        keep = shown.distinct(listed, state)
        if len(keep) < len(listed):
            acts, listed = [acts[k] for k in keep], [listed[k] for k in keep]
        # the actions a preview may show (the legal actions' ``may_preview``, WARSURGE): the page
        # checks only those before making them (a Pass is made with no check first)
        may = getattr(legal, "may_preview", None)
        fams = list(getattr(legal, "families", ()))
        families = [f.to_json() for f in fams]
        # each family's example, one the rules accept where one is found (the page's form
        # starts from it), and the family in a player's words (whose piece, what it does),
        # not its name ("move #10"; session 36): the presenter words its example
        check = getattr(legal, "check", None)
        found = [family_example(f, check if callable(check) else None) for f in fams]
        examples: list[JSON] = [None if x is None else rs.actions.dump(x[0]) for x in found]
        fam_words = shown.family_labels(setup, view, families, examples)
        for fam, example, label in zip(families, examples, fam_words, strict=True):
            if example is not None:
                fam["example"] = example
            if label:
                fam["label"] = label
        spots = shown.spots(setup, view, listed)
        words = shown.decision_labels(setup, view, listed, state)
        actions: list[JSON] = []
        for made, a, spot, said in zip(acts, listed, spots, words, strict=True):
            entry: dict[str, JSON] = {"action": a, "label": said or action_label(a)}
            if spot is not None:
                entry["spot"] = spot
            if callable(may) and may(made):
                entry["preview"] = True
            actions.append(entry)
        rest = shown.rest_as_suggested().get(d.kind)
        return {
            "player": d.player,
            "kind": d.kind,
            "rule": d.rule,
            "prompt": d.prompt,
            "default": None if d.default is None else rs.actions.dump(d.default),
            "actions": actions,
            "finite": bool(getattr(legal, "finite", False)),
            "families": families,
            # the suggested choice for the rest of a run of this kind, in one tap (``rest``)
            **({"rest": rest} if rest and d.default is not None else {}),
        }

    # -- checking and acting ---------------------------------------------------------------
    def _acting(
        self, data: GameData, token: str | None
    ) -> tuple[Ruleset[Any, Any, Any], Live, int]:
        t = self.require(data.id, token)
        if not t.seats:
            raise AccessDenied("a spectator's link cannot act")
        rs = self.ruleset(data.ruleset)
        live = self.live(data)
        seat = self.seat_for(rs, live.state, t)
        if seat is None:
            pending = [d.player for d in rs.pending(live.state)]
            who = "nobody (the game is over)" if not pending else f"seat {pending}"
            raise AccessDenied(
                f"this link plays seat {list(t.seats)}; the decision pending is {who}'s"
            )
        return rs, live, seat

    def check(self, game_id: str, token: str | None, action: JSON) -> dict[str, JSON]:
        """``{"ok": true}`` or ``{"ok": false, "reason", "rule"}`` for a proposed action of
        the token's seat (nothing changes; what a page calls while a piece is dragged). A legal
        action that places pieces, in a ruleset that previews actions, adds ``"preview"``:
        where each piece would stand, the ruleset's own plan (:class:`~warbench.play.Preview`,
        e.g. a WARSURGE Move toward a point routed round a building)."""
        data = self.load(game_id)
        rs, live, seat = self._acting(data, token)
        a = rs.actions.load(action)
        refusal = rs.check(live.state, a, seat)
        if refusal is not None:
            return {"ok": False, "reason": refusal.reason, "rule": refusal.rule}
        from warbench.web.play.scenes import Presenter, presenter

        # an action of the player's own in words (a WARSURGE casualty order, session 39)
        pres = presenter(rs.id)
        if type(pres).checked_words is not Presenter.checked_words:
            key = (data.id, live.steps, live.digest)
            view = self._memo(
                (*key, "view", seat), lambda: rs.views.dump(rs.view(live.state, seat))
            )
            said = pres.checked_words(data.setup, view, rs.actions.dump(a), live.state)
            if said:
                return {"ok": True, "said": said}
        planned = getattr(rs, "preview", None)
        shown = planned(live.state, a, seat) if callable(planned) else None
        if isinstance(shown, Preview):
            return {"ok": True, "preview": shown.to_json()}
        return {"ok": True}

    def reach(
        self, game_id: str, token: str | None, action: JSON, param: str, box: Sequence[float]
    ) -> dict[str, JSON]:
        """Where the point parameter ``param`` of ``action`` may go: the ruleset's ``check``
        on a grid over ``box`` (``x0, y0, x1, y1``), at most 24x24 points. ``param`` is a
        field holding ``[x, y]`` (``to``, ``at``), or ``"xy"`` for an action with ``x`` and
        ``y`` fields (WarEngine's placements and moves)."""
        data = self.load(game_id)
        rs, live, seat = self._acting(data, token)
        if not isinstance(action, dict) or len(box) != 4:
            raise ProfileError("action", action, "an action object and a box x0, y0, x1, y1")
        x0, y0, x1, y1 = (float(v) for v in box)
        n = 24
        step = max((x1 - x0) / n, (y1 - y0) / n, 1e-6)
        ok: list[list[float]] = []
        for i in range(n + 1):
            for j in range(n + 1):
                x, y = x0 + i * step, y0 + j * step
                if x > x1 + 1e-9 or y > y1 + 1e-9:
                    continue
                point = {"x": round(x, 6), "y": round(y, 6)}
                proposal = (
                    {**action, **point}
                    if param == "xy"
                    else {**action, param: [point["x"], point["y"]]}
                )
                try:
                    a = rs.actions.load(proposal)
                except WarbenchError:
                    continue
                if rs.check(live.state, a, seat) is None:
                    ok.append([round(x, 3), round(y, 3)])
        return {"param": param, "step": step, "points": ok}

    def odds(self, game_id: str, token: str | None, action: JSON) -> dict[str, JSON] | None:
        """The exact odds of an attack the token's deciding seat proposes, as its ruleset's
        presenter gives them (``None`` where it offers none); only the seat deciding now may
        ask (the odds read the situation as that seat may know it)."""
        from warbench.web.play.scenes import presenter

        data = self.load(game_id)
        rs, live, seat = self._acting(data, token)
        view = rs.views.dump(rs.view(live.state, seat))
        return presenter(rs.id).odds(data.setup, view, action, live.state, seat)

    def act(self, game_id: str, token: str | None, action: JSON) -> dict[str, JSON]:
        """Apply the token's seat's action (checked by the ruleset) and the automatic steps
        that follow it (chance, automated decisions, AI seats, until a person must decide),
        stored together as one transaction. Returns the new revision and the steps applied."""
        with self._lock(game_id):
            data = self.load(game_id)
            rs, live, seat = self._acting(data, token)
            a = rs.actions.load(action)
            state, evs = rs.apply(live.state, a, seat)  # IllegalAction: the rule and reason
            step = StepData(live.steps + 1, seat, rs.actions.dump(a), rs.digest(state), "human")
            auto, data = self._advance(data, live, (step, state, evs))
        self._notify(game_id)
        return {"steps": 1 + auto, "revision": data.revision}

    def rest(self, game_id: str, token: str | None, kind: str) -> dict[str, JSON]:
        """Take the suggested choice for each decision of ``kind`` the token's deciding seat
        meets next, one after another (each its own step, checked by the ruleset as any
        action; chance, automated decisions and AI seats in between as after any action),
        until the seat's next decision is of another kind, another seat decides or the game
        ends: the presenter's :meth:`~.scenes.Presenter.rest_as_suggested` kinds only (The
        WarEngine's placement, L303-309). Returns the steps made and the revision."""
        from warbench.web.play.scenes import presenter

        data = self.load(game_id)
        rs = self.ruleset(data.ruleset)
        allowed = presenter(rs.id).rest_as_suggested()
        if kind not in allowed:
            raise ProfileError("kind", kind, ", ".join(allowed) or "none for this ruleset")
        _, live, seat = self._acting(data, token)
        made, steps, revision = 0, 0, data.revision
        while made < MAX_AUTO_STEPS:
            ahead = [d for d in rs.pending(live.state) if d.player == seat]
            if rs.is_over(live.state) or not ahead or ahead[0].kind != kind:
                break
            if ahead[0].default is None:
                break
            out = self.act(game_id, token, rs.actions.dump(ahead[0].default))
            made += 1
            steps += int(out["steps"])
            revision = int(out["revision"])
            data = self.load(game_id)
            live = self.live(data)
            if self.seat_for(rs, live.state, self.require(game_id, token)) != seat:
                break
        if made == 0:
            raise ProfileError("kind", kind, f"the decision pending: not a {kind} of this seat")
        return {"steps": steps, "made": made, "revision": revision}

    def _store(
        self,
        data: GameData,
        rs: Ruleset[Any, Any, Any],
        live: Live,
        steps: list[StepData],
        state: Any,
        events: list[list[Event]],
    ) -> tuple[GameData, Live]:
        """Append ``steps`` (one transaction); the game and its live state after them."""
        result = rs.result(state) if rs.is_over(state) else None
        result_json = None if result is None else result.to_json()
        revision = self.games.append(data.id, live.steps, steps, result_json)
        after = Live(live.steps + len(steps), steps[-1].digest, state, live.events + events)
        self._remember(data.id, after)
        data = replace(data, steps=data.steps + tuple(steps), revision=revision, result=result_json)
        self._keep(data)
        return data, after

    def _advance(
        self,
        data: GameData,
        live: Live | None = None,
        first: tuple[StepData, Any, list[Event]] | None = None,
    ) -> tuple[int, GameData]:
        """Play chance, automated and AI decisions until a person must decide, after the
        person's step ``first`` if given; all the steps are stored in one transaction.
        Returns how many automatic steps were played, and the game."""
        rs = self.ruleset(data.ruleset)
        start = live or self.live(data)
        state, count = start.state, start.steps
        steps: list[StepData] = []
        events: list[list[Event]] = []
        if first is not None:
            step, state, evs = first
            steps.append(step)
            events.append(evs)
            count += 1
        auto = frozenset(data.automate)
        while not rs.is_over(state) and len(steps) <= MAX_AUTO_STEPS:
            pending = rs.pending(state)
            if not pending:
                raise ProtocolError(f"{rs.id}: nothing pending in a running game", "pending")
            choice: tuple[int, Any, str] | None = None
            for d in pending:
                if d.player == CHANCE:
                    choice = (CHANCE, pick_outcome(d, chance_dice(data.seed, count)), "chance")
                elif d.default is not None and (d.kind in auto or "*" in auto):
                    choice = (d.player, d.default, "automated")
                elif 0 <= d.player < len(data.seats) and data.seats[d.player] != HUMAN:
                    kind = data.seats[d.player].removeprefix("ai:")
                    setup = data.setup
                    knows = SetupArgs(
                        tuple(setup["rosters"]), setup.get("board"), setup.get("options") or {}
                    )
                    lineup = Lineup((kind,), data.ruleset, knows)  # search players need both
                    player = lineup(data.seed * 7919 + count + 1, d.player)
                    view = rs.view(state, d.player)
                    legal = rs.legal_actions(state, d.player)
                    choice = (d.player, player.choose(view, legal, d, Budget()), f"ai:{kind}")
                if choice is not None:
                    break
            if choice is None:
                break
            actor, action, by = choice
            state, evs = rs.apply(state, action, actor)
            count += 1
            steps.append(StepData(count, actor, rs.actions.dump(action), rs.digest(state), by))
            events.append(evs)
        if steps:
            data, _ = self._store(data, rs, start, steps, state, events)
        return len(steps) - (first is not None), data

    # -- undo and history ------------------------------------------------------------------
    def _may_undo(self, data: GameData, t: TokenData) -> bool:
        humans = {i for i, s in enumerate(data.seats) if s == HUMAN}
        return bool(humans) and humans <= set(t.seats)

    def _undo_point(self, data: GameData) -> int | None:
        """How many steps stay after undoing the last person's step and the automatic ones
        after it (``None``: nothing to undo)."""
        for st in reversed(data.steps):
            if st.by == "human":
                return st.step - 1
        return None

    def undo(self, game_id: str, token: str | None) -> dict[str, JSON]:
        """Take back the last person's step (and the automatic steps after it); only for a
        token that plays every human seat (hot-seat, against the AI, the Play Manager), and
        only while the game runs: a finished game's result stands (s34-play2)."""
        with self._lock(game_id):
            data = self.load(game_id)
            t = self.require(game_id, token)
            if not self._may_undo(data, t):
                raise AccessDenied("undo needs the link that plays every human seat")
            if data.result is not None:
                raise ProtocolError(
                    "the game is over: its result stands and no step is taken back (undo is "
                    "for a game still running; start a new game to play it again)",
                    "undo",
                )
            keep = self._undo_point(data)
            if keep is None:
                raise ProtocolError("there is no step of a player to undo", "undo")
            with self._guard:
                self._cache.pop(game_id, None)
            revision = self.games.undo(game_id, len(data.steps), keep)
        self._notify(game_id)
        return {"steps": keep, "revision": revision}

    def history(self, game_id: str, token: str | None) -> list[dict[str, JSON]]:
        """Every step ever played (undone ones marked), for a player or spectator."""
        self.load(game_id)
        self.require(game_id, token)
        return [
            {
                "step": s.step,
                "actor": s.actor,
                "by": s.by,
                "action": s.action,
                "label": action_label(s.action),
                "undone": s.undone,
            }
            for s in self.games.history(game_id)
        ]

    # -- records ---------------------------------------------------------------------------
    def record(self, game_id: str, token: str | None) -> GameRecord:
        """The game as a protocol record (the JSON lines the CLI writes and replays)."""
        data = self.load(game_id)
        t = self.require(game_id, token)
        if data.mode == "manager":
            self.live(data)  # refused: a table is not a protocol game
        if data.result is None and not set(range(len(data.seats))) <= set(t.seats):
            # the header holds the seed (every later die) and every roster: while the game
            # runs, only a link that plays every seat may have it
            raise AccessDenied(
                "the record (its seed decides every later die) is given out when the game is "
                "over, or to the link that plays every seat"
            )
        return record_of(data)

    # -- live updates ----------------------------------------------------------------------
    def _notify(self, game_id: str) -> None:
        with self._changed:
            self._revisions[game_id] = self._revisions.get(game_id, 0) + 1
            self._changed.notify_all()
            waiters = list(self._waiters.get(game_id, ()))
        for loop, event in waiters:  # wake the live streams of this game (on their loops)
            loop.call_soon_threadsafe(event.set)

    #: set by :meth:`stop_streams` when the server is stopping: the live streams end
    stopping: bool = False

    def stop_streams(self) -> None:
        """End every live stream of this process now (the server is stopping: Ctrl+C). A
        stream otherwise stays open for up to 55 s, and the server waits for it; the browser's
        ``EventSource`` reconnects once a server is back (issue 10, session 37). Safe to call
        from a signal handler: the lock is re-entrant and the streams are woken on their own
        loops."""
        self.stopping = True
        with self._changed:
            waiters = [w for ws in self._waiters.values() for w in ws]
        for loop, event in waiters:
            loop.call_soon_threadsafe(event.set)

    def watch(self, game_id: str, loop: Any, event: Any) -> None:
        """Set ``event`` (an ``asyncio.Event`` of ``loop``) whenever the game changes here."""
        with self._changed:
            self._waiters.setdefault(game_id, set()).add((loop, event))

    def unwatch(self, game_id: str, loop: Any, event: Any) -> None:
        """Stop setting ``event``."""
        with self._changed:
            self._waiters.get(game_id, set()).discard((loop, event))

    def local_revision(self, game_id: str) -> int:
        """A counter this process bumps whenever it changes the game (the live stream
        also polls the database, for changes made by another server process)."""
        with self._changed:
            return self._revisions.get(game_id, 0)


def record_of(data: GameData) -> GameRecord:
    """A stored game as a :class:`~warbench.play.record.GameRecord`."""
    s = data.setup
    header = RecordHeader(
        ruleset=data.ruleset,
        ruleset_version=data.ruleset_version,
        seed=data.seed,
        rosters=list(s["rosters"]),
        board=s.get("board"),
        options=dict(s.get("options") or {}),
        digest=data.digest,
    )
    steps = [RecordStep(st.step, st.actor, st.action, st.digest) for st in data.steps]
    rec = GameRecord(header, steps)
    if data.result is not None and steps:
        r = Result.from_json(data.result)
        rec.result = RecordResult(r.winner, list(r.scores), r.reason, len(steps), steps[-1].digest)
    return rec


def _default_seats(mode: str, n: int) -> tuple[str, ...]:
    if mode == "ai":
        return (HUMAN, *(["ai:automatic"] * (n - 1)))
    return (HUMAN,) * n
