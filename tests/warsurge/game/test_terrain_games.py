"""Random-legal games on the sample boards, the hive city among them, in both playstyles:
every invariant holds on every state and the record replays to the identical state (issue 12,
001_d3f5e425c5e1196d.txt §8-§10: heights, climbing, sight from above L2360, custom cover
§10.4 in play).

Default: three hive-city games (units on the gantry, a piece destroyed) and two that split a
unit in a partial fit (random-legal play offers to go into the pieces with Fire Points). The
long run:
``WARBENCH_TERRAIN_GAMES=1000`` plays that many games in each playstyle (Standard, Advanced) on
the hive city (``WARBENCH_TERRAIN_BOARDS=a,b`` takes sample boards in turn instead), on
``WARBENCH_LONG_WORKERS`` processes (default 2); ``WARBENCH_LONG_LOG=FILE`` appends a line per
game (with its terrain attacks and destroyed pieces, §10.3). ``WARBENCH_TERRAIN_EMBARK=1``
has the players embark terrain pieces now and then (:class:`EmbarkingPlayer`), so units are
inside pieces when they fall (§10.3 with §6.6). The figures of the last long run are in
``docs/battlefield.md``.
"""

from __future__ import annotations

import os
import random
from concurrent.futures import ProcessPoolExecutor

import pytest

from tests.warsurge.game.helpers import ROSTERS, check_invariants
from warbench.rulesets.warsurge.battlefield import sample_board
from warbench.rulesets.warsurge.battlefield.measure import coherency_groups
from warbench.rulesets.warsurge.game import engine
from warbench.rulesets.warsurge.game.actions import Action, EmbarkTerrain
from warbench.rulesets.warsurge.game.geom import Field
from warbench.rulesets.warsurge.game.io import load_game_roster
from warbench.rulesets.warsurge.game.players import RandomLegalPlayer
from warbench.rulesets.warsurge.game.record import GameRecord, replay
from warbench.rulesets.warsurge.game.state import GameSetup, GameState, Location, build_setup
from warbench.rulesets.warsurge.game.terrain_field import field_of

GAMES = int(os.environ.get("WARBENCH_TERRAIN_GAMES", "0"))
#: the long run's boards, in turn: the hive city (every feature of issue 12) unless
#: ``WARBENCH_TERRAIN_BOARDS`` names others (comma-separated sample names)
BOARDS = os.environ.get("WARBENCH_TERRAIN_BOARDS", "hive_city_72x48").split(",")
PLAYSTYLES = ["standard", "advanced"]
EMBARK = os.environ.get("WARBENCH_TERRAIN_EMBARK", "") == "1"


class EmbarkingPlayer(RandomLegalPlayer):
    """Random-legal play that, in a Move or Dash Phase (or Step), first tries to embark a
    terrain piece with a Transport Stat with a unit of its own one time in three (§10.2)."""

    def choose(self, state: GameState) -> Action:
        legal = engine.legal_actions(state)
        if state.pause is None and state.restore is None and self.rng.random() < 1 / 3:
            pieces = [t.name for t in field_of(state).board.terrain if t.embarkable]
            units = list(legal.units())
            self.rng.shuffle(units)
            for uid in units[:3]:
                for name in pieces:
                    for dash in (False, True):
                        a = EmbarkTerrain(uid, name, dash=dash)
                        if engine.can(state, a):
                            return a
        return legal.sample(self.rng, self.pass_chance)


def setup_for(board: str, playstyle: str) -> GameSetup:
    players = [load_game_roster(ROSTERS / n) for n in ("skirmish_a.yaml", "skirmish_b.yaml")]
    return build_setup(players, Field(sample_board(board)), max_turns=6, playstyle=playstyle)


def check_terrain_invariants(before: GameState, state: GameState) -> None:
    """Terrain invariants (§10.3, §4.7, §4.2 III) on the battlefield as it stands: HP left
    within 0 and the piece's HP, never rising (destroyed stays destroyed); no base on
    Impassable Ground; every unit on the table coherent across and up (6", L1918)."""
    board = state.setup.field.board
    old = dict(before.terrain_hp)
    for name, hp in state.terrain_hp:
        full = board.terrain_named(name).hp
        assert full is not None and 0 <= hp <= full, f"{name}: {hp} HP left of {full}"
        assert hp <= old.get(name, full), f"{name} gained HP"
    assert set(old) <= set(dict(state.terrain_hp)), "a damaged piece was forgotten"
    field = field_of(state)
    for u in state.units:
        if u.location is not Location.TABLE:
            continue
        xy = u.present_xy()
        r = state.info(u.uid).radius
        assert not field.g.on_impassable(xy, r).any(), f"{state.info(u.uid).label} on §4.7"
        # a split unit's groups outside are linked through its piece (L4460; helpers)
        if not field.levels.flat and len(xy) > 1 and not u.inside:
            z = field.levels.z_of(xy)
            pts = [(float(x), float(y)) for x, y in xy]
            groups = coherency_groups(pts, [r] * len(pts), elevations=z.tolist())
            assert len(groups) == 1, f"{state.info(u.uid).label} out of vertical Coherency"


def play_checked(board: str, playstyle: str, seed: int) -> tuple[int, int]:
    """Play one seeded random-legal game to its end, checking the invariants on every state
    and the replay; returns (actions, states with a model standing above the board)."""
    steps, raised, _ = play_counted(board, playstyle, seed)
    return steps, raised


def play_counted(
    board: str, playstyle: str, seed: int, embark: bool = EMBARK
) -> tuple[int, int, dict[str, int]]:
    """:func:`play_checked`, also counting terrain events: ``terrain_attacks`` (shares at a
    terrain piece), ``destroyed`` (pieces destroyed, §10.3), ``stood_on`` (units on a piece
    when it fell), ``inside`` (units inside it then), ``split`` (partial fits, L4459-4464) and
    ``piece_attacks`` (Attacks made by terrain pieces, §10.2 L4386-4430)."""
    counts = {"terrain_attacks": 0, "destroyed": 0, "stood_on": 0, "inside": 0, "split": 0}
    counts["piece_attacks"] = 0
    setup = setup_for(board, playstyle)
    state, _ = engine.new_game(setup, seed)
    check_invariants(state)
    rec = GameRecord(setup, seed)
    kind = EmbarkingPlayer if embark else RandomLegalPlayer
    players = [kind(seed * 7 + 1), kind(seed * 7 + 2)]
    levels = setup.field.levels
    steps = raised = 0
    while not state.over:
        side = engine.acting_side(state)
        assert side is not None
        action = players[side].choose(state)
        before = state
        state, events = engine.apply(state, action)
        for e in events:
            if e.kind == "attack" and "terrain" in e.data and "target" in e.data:
                counts["piece_attacks"] += 1  # a piece that attacks (§10.2, terrain_army)
            elif e.kind == "attack" and "terrain" in e.data:
                counts["terrain_attacks"] += 1
            elif e.kind == "embark" and "models" in e.data:  # a partial fit (L4459-4464)
                counts["split"] += 1
            elif e.kind == "terrain_destroyed":
                counts["destroyed"] += 1
                counts["stood_on"] += len(e.data["units"])
                counts["inside"] += len(e.data.get("inside", ()))
        rec.add(action, state)
        check_invariants(state)
        check_terrain_invariants(before, state)
        if not levels.flat and any(
            u.location is Location.TABLE and (levels.z_of(u.present_xy()) > 0).any()
            for u in state.units
        ):
            raised += 1
        steps += 1
        assert steps < 5000, "the game does not end"
    assert state.result is not None
    assert replay(rec).state.digest() == state.digest()
    return steps, raised, counts


@pytest.mark.parametrize(
    ("playstyle", "seed", "what"),
    [("standard", 17, "raised"), ("standard", 3, "destroyed"), ("advanced", 2, "raised")],
)
def test_a_hive_city_game_plays_to_the_end_with_every_invariant(
    playstyle: str, seed: int, what: str
) -> None:
    # these seeds put units on the gantry (a level 3" up) for part of the game, or shoot a
    # destructible piece down (§10.3)
    steps, raised, counts = play_counted("hive_city_72x48", playstyle, seed)
    assert steps > 0
    assert counts["terrain_attacks"] > 0
    assert (raised if what == "raised" else counts["destroyed"]) > 0


@pytest.mark.parametrize(("playstyle", "seed"), [("standard", 23), ("advanced", 35)])
def test_random_legal_hive_city_play_splits_units_in_part_fits_L4459(
    playstyle: str, seed: int
) -> None:
    # random-legal play offers to go into the pieces with Fire Points (§6.7; the hive city's
    # bunker and guard posts), which hold fewer points than most units: partial fits
    # (L4459-4464) without WARBENCH_TERRAIN_EMBARK (rulings 14 of "WARSURGE terrain in play")
    _, _, counts = play_counted("hive_city_72x48", playstyle, seed)
    assert counts["split"] > 0


@pytest.mark.parametrize(("playstyle", "seed"), [("standard", 804039318), ("advanced", 1389655312)])
def test_s4_4_iii_base_contact_restored_keeps_a_split_units_link_to_its_piece_L4460(
    playstyle: str, seed: int
) -> None:
    # games 153 (Standard) and 255 (Advanced) of the 1000-game embarking run (session 27):
    # a split unit's casualties were removed, its outside models restored Coherency with the
    # North guard post, then the engine moved one back into Base Contact with its foe (§4.4
    # III) over 2" from the piece, breaking the link L4460-4462 asks (the invariant failed)
    steps, _, counts = play_counted("hive_city_72x48", playstyle, seed, embark=True)
    assert steps > 0 and counts["split"] > 0


def _one(job: tuple[int, str]) -> str:
    k, playstyle = job
    board = BOARDS[k % len(BOARDS)]
    seed = random.Random(f"{playstyle}-{k}").randrange(2**31)
    steps, raised, c = play_counted(board, playstyle, seed)
    line = (
        f"{playstyle} {k} {board} seed={seed} actions={steps} raised={raised} "
        f"terrain_attacks={c['terrain_attacks']} destroyed={c['destroyed']} "
        f"stood_on={c['stood_on']} inside={c['inside']} split={c['split']} "
        f"piece_attacks={c['piece_attacks']} ok"
    )
    log = os.environ.get("WARBENCH_LONG_LOG")
    if log:
        with open(log, "a", encoding="utf-8") as f:
            f.write(line + "\n")
    return line


@pytest.mark.skipif(GAMES == 0, reason="long: set WARBENCH_TERRAIN_GAMES=N (N per playstyle)")
@pytest.mark.parametrize("playstyle", PLAYSTYLES)
def test_long_run_random_legal_games_over_the_sample_boards(playstyle: str) -> None:
    jobs = [(k, playstyle) for k in range(GAMES)]
    workers = int(os.environ.get("WARBENCH_LONG_WORKERS", "2"))
    if workers <= 1:
        done = [_one(j) for j in jobs]
    else:
        with ProcessPoolExecutor(workers) as pool:
            done = list(pool.map(_one, jobs, chunksize=4))
    assert len(done) == GAMES
