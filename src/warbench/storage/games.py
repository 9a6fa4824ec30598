"""Games played in the browser (issue 14): a game, its steps and its access tokens.

A game is what a protocol record holds (``warbench.play.record``): the ruleset id and version,
the seed, the set-up (rosters, board, options) and the initial digest, then one row per
applied step (actor, action JSON, digest). ``GameRecord`` text is rebuilt from these rows, so a
web game downloads as the same JSON lines the CLI reads and ``play.replay`` verifies.

* **Every action is one transaction** (:meth:`GameStore.append`): the step rows and the game's
  counters change together or not at all, and only if the game still has the number of steps
  the caller computed from (optimistic versioning: a concurrent writer gets
  :class:`~warbench.kernel.errors.ChangedElsewhereError`).
* **Undo keeps history**: an undone step is marked, not deleted, so the history lists every
  step ever played and which were taken back.
* **Tokens are stored hashed** (SHA-256): the database never holds a link that plays a seat.

The tables live in their own module (and migration ``0003a``) beside ``models.py``'s; every
operation runs through :meth:`Store._run` (retries, one ``StorageError``, advisory locks).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    select,
)
from sqlalchemy.orm import Mapped, Session, mapped_column

from warbench.kernel.errors import ChangedElsewhereError, StorageError
from warbench.storage.models import Base, Timestamps, _now
from warbench.storage.store import Store

__all__ = ["GameData", "GameStore", "NewGame", "StepData", "TokenData"]


class PlayGameRow(Timestamps, Base):
    """A game played through the web (its record is its header and its live steps)."""

    __tablename__ = "play_games"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    title: Mapped[str] = mapped_column(String(120), default="")
    ruleset: Mapped[str] = mapped_column(String(80))
    ruleset_version: Mapped[str] = mapped_column(String(120))
    seed: Mapped[int] = mapped_column(BigInteger)
    setup: Mapped[dict[str, Any]] = mapped_column(JSON)
    digest: Mapped[str] = mapped_column(String(64))
    mode: Mapped[str] = mapped_column(String(20))
    seats: Mapped[list[str]] = mapped_column(JSON)
    automate: Mapped[list[str]] = mapped_column(JSON, default=list)
    steps: Mapped[int] = mapped_column(Integer, default=0)
    revision: Mapped[int] = mapped_column(Integer, default=0)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)


class PlayStepRow(Base):
    """One applied step of a game; ``undone`` once taken back (kept for the history)."""

    __tablename__ = "play_steps"
    __table_args__ = (Index("ix_play_steps_game", "game_id", "undone", "step"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("play_games.id", ondelete="CASCADE"))
    step: Mapped[int] = mapped_column(Integer)
    actor: Mapped[int] = mapped_column(Integer)
    action: Mapped[Any] = mapped_column(JSON)
    digest: Mapped[str] = mapped_column(String(64))
    by: Mapped[str] = mapped_column(String(40), default="")
    undone: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=_now)


class PlayTokenRow(Base):
    """A secret link of a game: the seats it plays (none: a spectator)."""

    __tablename__ = "play_tokens"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("play_games.id", ondelete="CASCADE"))
    role: Mapped[str] = mapped_column(String(20))
    seats: Mapped[list[int]] = mapped_column(JSON)
    label: Mapped[str] = mapped_column(Text, default="")


@dataclass(frozen=True)
class StepData:
    """One step: its number, who acted (-1 chance), the action's JSON, the digest after it."""

    step: int
    actor: int
    action: Any
    digest: str
    by: str = ""
    undone: bool = False


@dataclass(frozen=True)
class TokenData:
    """A token's game, role (``"player"``, ``"spectator"``), seats and label."""

    game_id: str
    role: str
    seats: tuple[int, ...]
    label: str = ""


@dataclass(frozen=True)
class NewGame:
    """What a new game is made of (see :class:`PlayGameRow`)."""

    id: str
    ruleset: str
    ruleset_version: str
    seed: int
    setup: dict[str, Any]
    digest: str
    mode: str
    seats: tuple[str, ...]
    automate: tuple[str, ...] = ()
    title: str = ""


@dataclass(frozen=True)
class GameData:
    """A stored game and its live steps (in order)."""

    id: str
    title: str
    ruleset: str
    ruleset_version: str
    seed: int
    setup: dict[str, Any]
    digest: str
    mode: str
    seats: tuple[str, ...]
    automate: tuple[str, ...]
    revision: int
    result: dict[str, Any] | None
    steps: tuple[StepData, ...]
    created_at: datetime | None = None


def _game_data(row: PlayGameRow, steps: list[PlayStepRow]) -> GameData:
    return GameData(
        id=row.id,
        title=row.title,
        ruleset=row.ruleset,
        ruleset_version=row.ruleset_version,
        seed=int(row.seed),
        setup=dict(row.setup),
        digest=row.digest,
        mode=row.mode,
        seats=tuple(row.seats),
        automate=tuple(row.automate or ()),
        revision=row.revision,
        result=row.result,
        steps=tuple(_step(s) for s in steps),
        created_at=row.created_at,
    )


def _step(s: PlayStepRow) -> StepData:
    return StepData(s.step, s.actor, s.action, s.digest, s.by, s.undone)


class GameStore:
    """Web games in a :class:`~warbench.storage.store.Store`'s database."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def _live(self, s: Session, game_id: str) -> list[PlayStepRow]:
        q = (
            select(PlayStepRow)
            .where(PlayStepRow.game_id == game_id, PlayStepRow.undone.is_(False))
            .order_by(PlayStepRow.step)
        )
        return list(s.scalars(q))

    def _row(self, s: Session, game_id: str) -> PlayGameRow:
        row = s.get(PlayGameRow, game_id)
        if row is None:
            raise StorageError(f"no game with id {game_id!r}")
        return row

    def create(self, game: NewGame, tokens: list[tuple[str, TokenData]]) -> None:
        """Store a new game and its tokens (``(hash, token)`` pairs) in one transaction."""

        def work(s: Session) -> None:
            s.add(
                PlayGameRow(
                    id=game.id,
                    title=game.title,
                    ruleset=game.ruleset,
                    ruleset_version=game.ruleset_version,
                    seed=game.seed,
                    setup=game.setup,
                    digest=game.digest,
                    mode=game.mode,
                    seats=list(game.seats),
                    automate=list(game.automate),
                    steps=0,
                    revision=0,
                )
            )
            s.flush()
            for h, t in tokens:
                s.add(
                    PlayTokenRow(
                        token_hash=h,
                        game_id=game.id,
                        role=t.role,
                        seats=list(t.seats),
                        label=t.label,
                    )
                )

        self.store._run(f"game {game.id!r}", work, write=True, lock=f"play:{game.id}")

    def load(self, game_id: str) -> GameData:
        """The game and its live steps (one read snapshot)."""

        def work(s: Session) -> GameData:
            return _game_data(self._row(s, game_id), self._live(s, game_id))

        return self.store._run(f"game {game_id!r}", work, write=False)

    def revision(self, game_id: str) -> int:
        """The game's revision (bumped by every step and every undo)."""

        def work(s: Session) -> int:
            # the one column (not the row, whose set-up JSON may be large): the play service
            # asks this before every request to reuse the game it read last
            rev = s.scalar(select(PlayGameRow.revision).where(PlayGameRow.id == game_id))
            if rev is None:
                raise StorageError(f"no game with id {game_id!r}")
            return int(rev)

        return self.store._run(f"game {game_id!r}", work, write=False)

    def token(self, token_hash: str) -> TokenData | None:
        """The token with this hash, or ``None``."""

        def work(s: Session) -> TokenData | None:
            row = s.get(PlayTokenRow, token_hash)
            if row is None:
                return None
            return TokenData(row.game_id, row.role, tuple(row.seats), row.label)

        return self.store._run("game token", work, write=False)

    def append(
        self,
        game_id: str,
        expected_steps: int,
        steps: list[StepData],
        result: dict[str, Any] | None,
    ) -> int:
        """Add ``steps`` after the game's ``expected_steps`` live steps, in one transaction
        (the result too, once the game is over); returns the new revision. A game that has
        another number of steps by now raises :class:`ChangedElsewhereError`."""

        def work(s: Session) -> int:
            row = self._row(s, game_id)
            if row.steps != expected_steps:
                raise ChangedElsewhereError(f"game {game_id!r}", expected_steps, row.steps)
            for k, st in enumerate(steps):
                if st.step != expected_steps + k + 1:
                    raise StorageError(
                        f"game {game_id!r}: step {st.step} follows step {expected_steps + k}"
                    )
                s.add(
                    PlayStepRow(
                        game_id=game_id,
                        step=st.step,
                        actor=st.actor,
                        action=st.action,
                        digest=st.digest,
                        by=st.by,
                    )
                )
            row.steps = expected_steps + len(steps)
            row.revision += 1
            row.result = result
            s.flush()
            return row.revision

        return self.store._run(f"game {game_id!r}", work, write=True, lock=f"play:{game_id}")

    def undo(self, game_id: str, expected_steps: int, keep: int) -> int:
        """Mark every live step after the first ``keep`` as undone (history keeps them), in
        one transaction; the result is cleared. Returns the new revision."""

        def work(s: Session) -> int:
            row = self._row(s, game_id)
            if row.steps != expected_steps:
                raise ChangedElsewhereError(f"game {game_id!r}", expected_steps, row.steps)
            for st in self._live(s, game_id):
                if st.step > keep:
                    st.undone = True
            row.steps = keep
            row.revision += 1
            row.result = None
            s.flush()
            return row.revision

        return self.store._run(f"game {game_id!r}", work, write=True, lock=f"play:{game_id}")

    def history(self, game_id: str) -> list[StepData]:
        """Every step ever applied, in the order they were played (undone ones marked)."""

        def work(s: Session) -> list[StepData]:
            self._row(s, game_id)
            q = select(PlayStepRow).where(PlayStepRow.game_id == game_id).order_by(PlayStepRow.id)
            return [_step(r) for r in s.scalars(q)]

        return self.store._run(f"game {game_id!r}", work, write=False)

    def games(self, limit: int = 50) -> list[GameData]:
        """The newest games (without their steps)."""

        def work(s: Session) -> list[GameData]:
            q = select(PlayGameRow).order_by(PlayGameRow.created_at.desc()).limit(limit)
            return [_game_data(r, []) for r in s.scalars(q)]

        return self.store._run("games", work, write=False)
