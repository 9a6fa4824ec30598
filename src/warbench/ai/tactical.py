"""The ``tactical`` player: WARSURGE's scripted AI made sensible, still a fast baseline.

The engine's own scripted AI (``rulesets.warsurge.game.players.ScriptedPlayer``) is every
decision's ``default`` and the player of the seeded fingerprint games, so it stays as it is;
this player is a separate kind (issue 15) that changes these habits:

* **deployment is spread** over the front of the Deployment Zone (Core Rules
  001_d3f5e425c5e1196d.txt §3.6) instead of every unit aiming at the same spot: spots on a
  grid of the zone (of any shape: the diagonal layout's zones are triangles), the front
  measured strip by strip along it, each unit at its own slot along the front; Transports
  first and carrying units that want to get close (§6.2: a Transport deploys with its
  passengers embarked);
* **paths round terrain**: the engine moves a unit in a straight line (§4.1), so the player
  aims each move along the cheapest path round Impassable Ground (§4.7), Difficult (§4.5) and
  Dangerous Ground (§4.6) on a grid of the board (``ai.navigate``), checking where the
  engine's placement of the formation really ends; a wide formation that cannot squeeze
  through a gap is routed with its whole width, and one whose rigid move stalls against a
  wall is placed model by model (session 29, :mod:`warbench.ai.formation`, §4.1-4.2);
* **focus fire**: each weapon attacks the target where it is worth most, not the nearest
  (§5.2): the point value it is expected to take, from the exact odds engine's distribution
  of HP lost (``warbench.api.odds``, the target's Cover Bonus against it counted, §5.6),
  going to wounded models first (§5.12) and never beyond the HP left (overkill is worth
  nothing), plus the enemy output removed with the models it is expected to slay, weighed
  by the Attack Phases left; so a second unit finishes what a first has wounded, and a
  unit's later weapons count what its earlier ones are expected to take
  (:mod:`warbench.ai.tactics`);
* **holds out of reach when ahead**: in the Move Phase, while its side is ahead on points,
  a unit out of every enemy's Move plus Range does not walk into it without a target of its
  own to shoot from there (§2.2 steps 3-4, 8);
* **seeks cover on the way**: of the path moves that make nearly the most progress, the one
  where the enemy's shooters are expected to take least (out of their sight, else in cover,
  §5.5-5.6; each worked out on the engine's state after the move) comes first;
* **charges when its melee beats its shooting**: a unit with both kinds of weapon moves into
  Base Contact (§4.3) when its expected melee damage against a reachable enemy is larger than
  its best shooting, not only pure-melee units; a charge is made only when it is expected to
  take at least half what the foe's melee takes back, and a melee unit heads for the Melee
  it wins (damage dealt less damage taken, the farther the less), not the nearest enemy;
* **advances with nothing in sight**: a unit that sees no target moves (toward the enemy,
  else around what blocks its sight) instead of holding its ground by distance alone; a
  shooter that fired no Battle or Heavy weapon this Game Turn also Dashes toward the enemy
  (§5.1) where the enemy's expected damage on it next Game Turn grows by no more than its
  own shooting gains (sixth session; it used to Dash only out of every enemy's Move plus
  Range, so a fast long-ranged enemy kept it at a walk all game);
* **a melee unit runs only where it is no more exposed** (sixth session): its Dash ends
  where the enemy's expected damage on it next Game Turn, by sight and Cover (§5.5-5.6),
  is no more than where it stands, or within its Move of an enemy (a charge next Game
  Turn, §4.3): it does not run alone into a long-ranged gun's sight ahead of its friends;
* **a unit blocked by a friend tries again** once another unit of its side has moved, instead
  of sitting out the phase;
* **embarks and disembarks**: a unit far from the enemy with a friendly Transport in reach
  embarks (§6.3), and passengers disembark toward the enemy once it is close (a melee
  unit embarks by the distance to the foe it heads for; ``embark_by_nearest=True``, off,
  session 38: by the nearest enemy's, the one that makes it get out again).
* **fights from the better spot** (session 28, :mod:`warbench.ai.tactical_reach`): both
  sides fire in an Attack Phase before casualties are removed (L2872), so a shooter with a
  target in sight moves to the spot within its Move (a ring, and the edge of its Range)
  where its expected take less the enemy's beats standing still, and a shooter coming into
  Range stops at such a spot when the exchange there favours it.
* **does not spend a melee unit on an even trade** (session 29,
  :mod:`warbench.ai.tactical_melee`): a Melee is simultaneous too, but what a unit takes is
  capped by its foe's value; while its side is not behind, a melee unit does not charge into
  a Melee that is expected to cost it (nearly) itself without taking more, and keeps out of
  the enemy's reach when every Melee on the table would.
* **a small army fights from the better spot** (session 30,
  :mod:`warbench.ai.tactical_kinds`): an army of one or two units plays the fire position
  and approach above at every level (with so few units one or two exchanges decide the game).
* **shoots the melee unit that is coming** (session 31, :mod:`warbench.ai.tactical_threat`):
  the focus fire prices each shot with the Melee's Dice Modifiers (§5.8 L2668-2682), so a
  unit in a Melee strikes its foe there instead of shooting out at -2, and counts the threat
  of an enemy melee unit that reaches one of the player's units within two Game Turns.
* **the slain do not threaten** (session 32, :mod:`warbench.ai.tactical_slain`): that threat
  counts only the enemy's models still standing, not those slain earlier in the Attack Phase
  and not yet removed (L2872), so the last HP of a unit cut down in a Melee no longer carries
  the threat of the whole unit.
* **the melee unit deploys last, out of the guns' sight** (session 35,
  :mod:`warbench.ai.tactical_unseen`, ``reach_deploy``): a melee unit that an enemy gun
  outruns, when no gun of its own side answers that gun, is placed after the side's other
  units, where the enemy's guns on the table are expected to take least off it (§3.6
  L1798-1800, §5.4-5.6): 79.0% against the scripted player instead of 70.0%.
* **a melee unit closes when it threatens as much as it risks** (session 36,
  :mod:`warbench.ai.tactical_close`, ``even_dash``): a melee unit with a gun also Dashes
  where the enemy's expected damage on it next Game Turn grows by no more than what its own
  attacks threaten from there (a Behemoth closes on another at its Move plus Dash).

* **plays for the lead** (session 37, :mod:`warbench.ai.tactical_lead`,
  ``play_for_lead``): an army of one or two units that is ahead on points makes no charge
  into an even Melee and keeps its melee unit out of the enemy's Move plus Dash (§2.2 step
  8, §4.4: a Melee is locked); behind in a Game Turn that may be the last, its melee unit
  runs at the enemy.
* **counts the models left in a Melee, and who can join it** (session 39,
  :mod:`warbench.ai.tactical_count`, ``melee_count`` and ``melee_joiners``): a melee price
  is the exact odds of the attacker's models left against the target's models left, not the
  whole unit's odds (capped at the target's HP) scaled by its share of models, and a
  charge's expected loss adds the melee of the other enemy units that can join the Melee
  before it is fought (§4.3-4.4): ten Breachers ahead on points no longer charge seven
  (expected to slay 9.9 of them, not 7) and throw the lead away.

One habit is measured but off by default: **the most dangerous first** (session 31,
:mod:`warbench.ai.tactical_danger`, ``TacticalBot(danger_fire=True)``) counts the share of
an enemy unit's threat removed with the share of its HP taken; alone it won 13 and lost 6
paired games of 800 against random-legal, with ``threat_fire`` it added nothing. So is
**the melee unit stays unseen** (session 35, ``hidden_approach=True``: no gain), and **goes
round Dangerous Ground** (session 36, :mod:`warbench.ai.tactical_close`,
``shun_danger=True``: path moves in which no model crosses Dangerous Ground, §4.6, first),
and **prices Dangerous Ground** (session 38, :mod:`warbench.ai.tactical_ground`,
``price_danger=True``: when the best path move is expected to cost half an HP or more there,
the near path move expected to lose least first), and **gets back in only for a ride into an
attack** (session 39, :mod:`warbench.ai.tactical_ferry`, ``ride_to_attack=True``),
and **a full volley or none** (session 39,
:mod:`warbench.ai.tactical_volley`, ``full_volley=True``: a shooter whose best move or Dash
would end with only a sliver of its models within Range of a target, L851-860 step II, moves
where most of them are, else stops short out of Range, in one Game Turn only), and **the
models that reach** (``range_share=True``: the focus fire scales a shot by the share of the
unit's models within the weapon's Range of the target).

It plays from its view only: the view is written back as a state with the search hooks'
determinizer (``ai.warsurge``), and the engine's public functions answer what is legal.
Decisions other than activations and Advanced Counter Actions (casualties, the Turn Master,
the zone) take the engine's default. In the Advanced playstyle (§9) it also minds Command
Points: each Action Step goes to the unit whose Action costs least (§9.2: the cost doubles
with each reuse), a second move is a Dash where a first Dash is cheaper than a reused Move
and bars no weapon, and an attacked unit Counter Attacks when it can (§9.3).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

import numpy as np

from warbench.ai.formation import pass_moves
from warbench.ai.navigate import nav_grid
from warbench.ai.tactical_close import danger_last, threat_from
from warbench.ai.tactical_count import CountKey, counted_melee_hp, joiners, melee_key
from warbench.ai.tactical_danger import danger_score, danger_threat
from warbench.ai.tactical_end import may_be_last
from warbench.ai.tactical_ferry import got_out_lately, ride_pays
from warbench.ai.tactical_ground import danger_priced
from warbench.ai.tactical_kinds import small_army
from warbench.ai.tactical_lead import (
    keeps_lead,
    lead_charges,
    lead_steps,
    must_fight,
)
from warbench.ai.tactical_melee import fair_charges, held_back, value_left
from warbench.ai.tactical_reach import enemy_units, fire_positions
from warbench.ai.tactical_slain import present_share, standing_share
from warbench.ai.tactical_threat import PLAIN, situated_dist, situation, threat_bonus
from warbench.ai.tactical_unseen import hides, melee_last, unseen_first, unseen_moves
from warbench.ai.tactical_volley import may_wait, range_share, volley_moves
from warbench.ai.tactics import expected_take, target_score, wounded_first
from warbench.kernel.errors import WarbenchError
from warbench.play.core import Decision, LegalActions, Ruleset, SetupArgs
from warbench.play.players import Budget
from warbench.rulesets.warsurge.game import engine, terrain_army
from warbench.rulesets.warsurge.game.actions import (
    Action,
    Attack,
    Deploy,
    Disembark,
    Embark,
    Move,
    Pass,
)
from warbench.rulesets.warsurge.game.actions_advanced import EndStep
from warbench.rulesets.warsurge.game.advanced import action_name
from warbench.rulesets.warsurge.game.hooks import DEFAULT_HOOKS
from warbench.rulesets.warsurge.game.movement import plan_towards, unit_allowance
from warbench.rulesets.warsurge.game.players import (
    ScriptedPlayer,
    seek_sight,
    sees_a_target,
    turned_toward,
)
from warbench.rulesets.warsurge.game.state import Automation, GameState, Location, Phase
from warbench.rulesets.warsurge.game.targeting import view_target
from warbench.rulesets.warsurge.game.work import Work

#: A unit farther than this (inches, edge to edge) from every enemy rides a Transport in reach.
EMBARK_DISTANCE = 18.0
#: Passengers disembark once an enemy is this close to them (inches).
DISEMBARK_DISTANCE = 14.0
#: A unit with guns fights as a melee unit when its melee is expected to take this many times
#: what its guns take off the nearest enemy.
MELEE_FIRST = 3.0
#: A charge is made only when its expected damage is at least this share of what the foe's
#: melee is expected to take back.
CHARGE_RISK = 0.5
#: Deployment spots tried per unit (each is a placement search by the engine).
DEPLOY_TRIES = 16
#: Clearance added to a base's radius on the navigation grid (inches).
PATH_MARGIN = 0.25
#: An enemy model's attack counts this much for each Attack Phase left (focus fire).
OUTPUT_WEIGHT = 0.5
#: A side is ahead when its value on the battlefield beats every other side's by this share.
AHEAD_MARGIN = 0.02
#: Moves toward the enemy whose exposure after the move is compared (each an engine step).
SHELTER_TRIES = 4
#: Path moves whose real placement is worked out (the cheapest proposals first).
PATH_TRIES = 6
#: With ``reach_deploy``, a melee unit weighs this many times ``DEPLOY_TRIES`` spots.
REACH_SPOTS = 3


@dataclass
class TacticalBot(ScriptedPlayer):
    """The engine-state half of the tactical player: the scripted AI's loop with the
    changes of the module docstring (``choose(state) -> action`` like every engine player)."""

    name: str = "tactical"
    _stuck: set[int] = field(default_factory=set)
    _odds: dict[tuple[int, int, str, bool], float] = field(default_factory=dict)
    _dists: dict[tuple[int, int, str, bool, bool], Mapping[int, float]] = field(
        default_factory=dict
    )
    # per move proposed along a path: the grid's cost to the enemy where it ends, and the
    # formation's centre there (the engine's own placement)
    _progress: dict[Move, float] = field(default_factory=dict)
    _landing: dict[Move, tuple[float, float]] = field(default_factory=dict)
    #: A shooter Dashes where the enemy's expected damage on it next Game Turn grows by no
    #: more than what it gains in shooting (sixth session); ``False``: the fifth session's
    #: rule, a Dash only while it stays out of every enemy's Move plus Range.
    dash_in_reach: bool = True
    #: A melee unit Dashes only where it is no more exposed to the enemy's attacks next Game
    #: Turn than where it stands, or to within its Move of an enemy (sixth session).
    melee_dash_hidden: bool = True
    #: With ``melee_dash_hidden``, a melee unit also Dashes where the enemy's expected damage
    #: on it next Game Turn grows by no more than what its own attacks threaten from there
    #: (session 36, ``ai.tactical_close``): a Behemoth closes on another at its Move plus
    #: Dash; ``False``: only where it is no more exposed, or to charge distance.
    even_dash: bool = True
    #: Path moves in which no model passes through Dangerous Ground come first (§4.6; session
    #: 36, ``ai.tactical_close``): a wide formation no longer sweeps its outer models across
    #: a small Fuel depot or Pit beside its centre's path. Off by default: the way round can
    #: be much shorter, and against random-legal it cost the Assault Squad a charge on the
    #: Car (docs/ai.md, session 36); ``False``: the path's own order.
    shun_danger: bool = False
    #: An army of one or two units (``small_army``) plays for the lead (session 37,
    #: ``ai.tactical_lead``): while its side is ahead on points, no charge into an even Melee,
    #: and a melee unit for which every Melee is even keeps out of the enemy's reach; behind
    #: in a Game Turn that may be the last, a melee unit runs at the enemy. On by default:
    #: the big and melee mirrors won 8 of main's non-won games and lost none; the skirmish
    #: ladder (three units a side) plays main's games (docs/ai.md, session 37).
    play_for_lead: bool = True
    #: Among the path moves that make nearly the most progress (within a third of the
    #: allowance), the one expected to lose least point value to Dangerous Ground comes first
    #: (§4.6; session 38, ``ai.tactical_ground``): a horde no longer sweeps its outer models
    #: through the Fuel depot beside its centre's path, and a way round that gives up more
    #: than a third of the move is not taken (``shun_danger`` takes any way round first).
    price_danger: bool = False
    #: A unit gets into a Transport only when the nearest enemy is over ``EMBARK_DISTANCE``
    #: away, the enemy that decides when passengers get out (``DISEMBARK_DISTANCE``), not the
    #: foe a melee unit heads for (§6.3; session 38, s38-ferry): two Breachers no longer get
    #: out and back in every Game Turn with an enemy 14-18" away. Off by default (the
    #: distance to the foe it heads for): the transport mirror at seed 0 won that game and
    #: lost three of main's results, one where the Rhino carried the unit into its attack
    #: (docs/ai.md, session 38).
    embark_by_nearest: bool = False
    #: A unit that got out of a Transport this Game Turn or the last gets back in only when
    #: the Transport then carries it into an attack on the foe it heads for that it could not
    #: make on foot by the next Game Turn's Attack Phase (§6.2-6.3; session 39,
    #: ``ai.tactical_ferry``); ``False``: it gets in by the distance alone.
    ride_to_attack: bool = False
    #: A unit's melee is priced with the exact odds of its models left against the target's
    #: models left (session 39, ``ai.tactical_count``), not the whole unit's odds scaled by
    #: its share of models: those are capped at the target's HP, so six Breachers counted 6
    #: HP off ten where their own odds say 9.5; ``False``: the scaled price. On by default
    #: with ``melee_joiners``: the transport mirror's 166-166 draws at seed 0 went from five
    #: to none (docs/ai.md, session 39).
    melee_count: bool = True
    _counted: dict[CountKey, float | None] = field(default_factory=dict)
    #: A charge's expected loss also counts the melee of the other enemy units that can join
    #: the Melee before it is fought (session 39, ``ai.tactical_count.joiners``): ten
    #: Breachers no longer charge a Rhino beside seven enemy Breachers; ``False``: the foe's.
    #: The loss is capped at the unit's value left (§5.11; s39-draws: uncapped it cost the
    #: melee mirror four wins at seed 0).
    melee_joiners: bool = True
    # the Game Turn in which each of the player's units last got out of a Transport
    _got_out: dict[int, int] = field(default_factory=dict)
    #: A shooter with a target in sight picks the spot within its Move where its expected
    #: take less the enemy's beats standing still (session 28, ``ai.tactical_reach``). Off at
    #: the default level: it cost the +1 Defence/+1 Power army its edge (docs/ai.md,
    #: session 28); ``tactical:2`` plays with it and ``fire_approach``.
    fire_position: bool = False
    #: A shooter coming into Range moves to such a spot when the exchange there is expected
    #: to favour it (session 28), before walking along its path (off at the default level).
    fire_approach: bool = False
    #: A wide formation whose rigid path move stalls (against a wall) places its models one
    #: by one, narrowing to pass (session 29, ``ai.formation``); ``False``: the rigid moves.
    pass_gaps: bool = True
    #: While its side is not behind, a melee unit neither charges into a Melee that is
    #: expected to cost it (nearly) its whole value without taking more, nor walks into the
    #: enemy's charge reach when every Melee on the table is such (session 29,
    #: ``ai.tactical_melee``; on at both levels: the ladder kept its records, docs/ai.md).
    trade_up: bool = True
    #: An army of at most ``SMALL_ARMY`` units fights from the better spot
    #: (``fire_position`` and ``fire_approach``) at every level (session 30,
    #: ``ai.tactical_kinds``): with one or two units a side one or two exchanges decide the
    #: game, so where each is fought weighs most.
    few_units_reach: bool = True
    #: The focus fire prices a shot with the Melee's Dice Modifiers (§5.8 L2668-2682: Battle
    #: -1 and Heavy -2 while engaged, -1 out of a Melee, -1 into one; session 31,
    #: ``ai.tactical_threat``); ``False``: every shot at the odds of a plain attack.
    melee_modifiers: bool = True
    #: The focus fire adds the threat an enemy unit's HP carries (session 31,
    #: ``ai.tactical_threat``): what it is expected to take off one of the player's units it
    #: reaches, shared over its HP left, for each Attack Phase left.
    threat_fire: bool = True
    #: Focus fire counts the share of an enemy unit's threat (its best attack next Game Turn
    #: on the units it reaches) removed with the share of its HP taken, so the first hits on
    #: a many-HP model count (session 31, ``ai.tactical_danger``). Off by default: with
    #: ``threat_fire`` on it gained nothing measurable (docs/ai.md, session 31); ``False``:
    #: only the output of the models expected to be slain.
    danger_fire: bool = False
    #: The threat an enemy unit carries into the next Attack Phases counts only its models
    #: still standing, not those slain in this one and not yet removed (session 32,
    #: ``ai.tactical_slain``; L2872); ``False``: every model not yet removed.
    slain_gone: bool = True
    #: In the Attack Phase of a Game Turn that may be the last (§2.2 step 7), each weapon
    #: goes where the point value it is expected to take is most, the enemy output and
    #: threat it would remove for later Attack Phases not counted (session 35,
    #: ``ai.tactical_end``): what is left when the game ends decides it (§2.2 step 8).
    end_points: bool = True
    #: The side's melee units that an enemy gun outruns, and that no gun of their own side
    #: answers, are deployed after its other units, each where the enemy's guns on the table
    #: are expected to take least off it (out of their sight, in cover, beyond their Move
    #: plus Range; session 35, ``ai.tactical_unseen``). On by default since s35-ai2: 79.0%
    #: against the scripted player instead of 70.0%; the guards are main's games (docs/ai.md,
    #: session 35).
    reach_deploy: bool = True
    #: A melee unit that no enemy sees or reaches where it stands moves only where that
    #: stays so, else holds until it can charge (session 35, ``ai.tactical_unseen``). Off
    #: by default (docs/ai.md, session 35).
    hidden_approach: bool = False
    #: A shooter whose best move (or Dash) toward the enemy would end with only a sliver of
    #: its models within Range of a target it sees moves where most of them are, else stops
    #: short out of Range (session 39, ``ai.tactical_volley``; L851-860 step II, L2872).
    full_volley: bool = False
    #: The focus fire scales a shot by the share of the unit's models within the weapon's
    #: Range of the target (session 39, ``ai.tactical_volley``; L851-860 step II), not by
    #: the share still standing only: a target that one model reaches is worth one model's
    #: shot.
    range_share: bool = False
    _sdists: dict[tuple[int, int, str, bool, tuple[bool, bool]], Mapping[int, float]] = field(
        default_factory=dict
    )
    # the Game Turn in which a unit first stopped short of a sliver in Range (session 39)
    _waits: dict[int, int] = field(default_factory=dict)
    # HP one model of a unit is expected to lose crossing a Dangerous piece (session 38)
    _danger_hp: dict[tuple[int, str], float] = field(default_factory=dict)

    def forget(self) -> None:
        """Forget what this phase taught (units with nothing to do, units stuck): for a bot
        asked about states of different games (a search's playouts); the odds stay."""
        self._phase_key = (0, "")
        self._skip = set()
        self._stuck = set()
        self._got_out = {}

    def choose(self, state: GameState) -> Action:
        """The scripted loop, Transports first when deploying (they carry passengers)."""
        flow = state.flow
        if state.pause is not None or flow.phase in (Phase.TURN_MASTER, Phase.ZONES):
            return super().choose(state)
        if flow.adv is not None and flow.adv.counter is not None:
            return super().choose(state)
        key = (flow.turn, flow.phase.value)
        if key != self._phase_key:
            self._phase_key = key
            self._skip = set()
            self._stuck = set()
        legal = engine.legal_actions(state)
        w = legal._work
        self._progress.clear()
        self._landing.clear()
        n = len(state.units)  # terrain that attacks (§10.2, ``terrain_army``) fires first
        last = self.reach_deploy and flow.phase is Phase.DEPLOY  # session 35
        units = sorted(
            (u for u in legal.units() if u not in self._skip and u not in self._stuck),
            key=lambda u: (
                (
                    melee_last(w, u) if last else 0,
                    -state.setup.units[u].transport,
                    -state.setup.units[u].points,
                    u,
                )
                if u < n
                else (-1, -math.inf, 0.0, u)
            ),
        )
        # Advanced, a new Action Step: each unit's Action is weighed by its CP cost, which
        # doubles with each reuse on the Game Turn (§9.2, 001_d3f5e425c5e1196d.txt L3720-3722)
        priced = flow.adv is not None and flow.phase is Phase.ACTIONS and flow.adv.step_unit is None
        cheapest: tuple[int, Action] | None = None
        for uid in units:
            options = (
                self._options(w, uid, flow.phase, state)
                if uid < n
                else terrain_army.piece_candidates(w, uid)
            )
            for action in options:
                if engine.can(state, action):
                    if not priced:
                        if isinstance(action, Move | Deploy | Disembark | Embark):
                            self._stuck = set()  # a unit out of the way: the stuck try again
                        if isinstance(action, Disembark):
                            self._got_out[uid] = flow.turn  # session 39, ``ride_to_attack``
                        return action
                    cost = _cp_cost(state, action)
                    if cheapest is None or cost < cheapest[0]:
                        cheapest = (cost, action)
                    break
            else:
                # nothing to do stays so for the phase; a unit whose every option was refused
                # (a friend in the way, most often) tries again once another unit has moved
                (self._stuck if options else self._skip).add(uid)
                continue
            if cheapest is not None and cheapest[0] <= 1:
                break  # nothing is cheaper than a first use (Deploy, 0 CP, comes first anyway)
        if cheapest is not None:
            if isinstance(cheapest[1], Move | Deploy | Disembark | Embark):
                self._stuck = set()
            return cheapest[1]
        if flow.phase is Phase.ACTIONS and flow.adv is not None and flow.adv.step_done:
            return EndStep()
        return Pass()

    # -- per phase -----------------------------------------------------------------------
    def _options(
        self, w: Work, uid: int, phase: Phase, state: GameState | None = None
    ) -> list[Action]:
        u = w.units[uid]
        if phase is Phase.OPPORTUNIST:  # what the unit delayed (Perks L1340)
            return list(engine.opportunist_candidates(w, uid))
        if phase is Phase.ACTIONS:
            if u.location is Location.RESERVE:
                return self._options(w, uid, Phase.DEPLOY, state)
            moves = self._options(w, uid, Phase.MOVE, state)
            return self._options(w, uid, Phase.ATTACK, state) + _dash_if_cheaper(w, uid, moves)
        if phase is Phase.DEPLOY:
            return self._deploy(w, uid, state)
        if phase is Phase.ATTACK:
            return self._attack(w, uid)
        return self._move(w, uid, phase is Phase.DASH, state)

    def _deploy(self, w: Work, uid: int, state: GameState | None = None) -> list[Action]:
        """Spread along the front of the zone; Transports carry close-range units (§3.6, §6.2).

        The spots are a grid of points inside the Deployment Zone (any shape: the diagonal
        layout's zones are triangles), ordered by depth behind the zone's front (toward the
        enemy's zone) in 2" bands, then by distance from this unit's slot along the front:
        the side's units take slots spread over the front, middle first."""
        info = w.info(uid)
        spots = _front_spots(w, info.side, info.radius)
        # the engine places the models round the point: keep the formation's depth behind it
        depth = 1.2 * info.radius * math.sqrt(max(1, info.models))
        spots = [s for s in spots if s[0] * 2 >= depth - 2] or spots
        if not spots:
            return []
        mine = [v for v in w.side_units(info.side) if w.units[v].location is not Location.EMBARKED]
        placed = sum(1 for v in mine if w.units[v].location is not Location.RESERVE)
        lateral = [lat for _, lat, _ in spots]
        lo, hi = min(lateral), max(lateral)
        n = max(1, len(mine))
        slots = _spread_order([(lo + (j + 0.5) * (hi - lo) / n, 0.0) for j in range(n)])
        slot = slots[placed % len(slots)][0]
        ordered = sorted(spots, key=lambda s: (s[0], abs(s[1] - slot)))
        points = [p for _, _, p in ordered[:DEPLOY_TRIES]]
        passengers = self._passengers(w, uid) if info.transport else ()
        if self.reach_deploy and state is not None and hides(w, uid) and not passengers:
            # session 35: out of the sight of the enemy's guns on the table, else in cover
            wide = [Deploy(uid, at=p) for _, _, p in ordered[: DEPLOY_TRIES * REACH_SPOTS]]
            return list(unseen_first(state, uid, wide, self._exposure)[:DEPLOY_TRIES])
        opts: list[Action] = []
        if passengers:
            opts.extend(Deploy(uid, at=p, passengers=passengers) for p in points[:4])
        opts.extend(Deploy(uid, at=p) for p in points)
        return opts

    def _passengers(self, w: Work, uid: int) -> tuple[int, ...]:
        """Units in Reserve to carry: the shortest-ranged first, within the capacity (§6.1)."""
        info = w.info(uid)
        cap = info.transport * info.models
        free = [
            p
            for p in w.side_units(info.side)
            if p != uid and w.units[p].location is Location.RESERVE and not w.info(p).transport
        ]
        free.sort(key=lambda p: (_reach(w, p), -w.info(p).points, p))
        load = 0.0
        chosen: list[int] = []
        for p in free:
            if _reach(w, p) > 12:
                break  # long guns shoot from the start; they need no ride
            if load + w.info(p).points <= cap:
                chosen.append(p)
                load += w.info(p).points
        return tuple(chosen)

    def _attack(self, w: Work, uid: int) -> list[Action]:
        """Each weapon at the target where it is worth most (:meth:`_fire_value`): the point
        value it is expected to take, overkill excluded, plus the enemy output it removes,
        so the side's units finish what another has wounded (focus fire)."""
        wt = engine.weapon_targets(w, uid, limit=4)
        if not wt:
            self._blind[uid] = w.flow.turn
            return []
        self._blind.pop(uid, None)
        engaged = set(w.engaged_with(w.outermost(uid)))
        planned: dict[int, float] = {}  # HP this unit's earlier weapons are expected to take
        picks: list[tuple[str, int]] = []
        for wn, ts in wt.items():
            scores = {
                t: self._fire_value(w, uid, t, wn, t in engaged, planned.get(t, 0.0)) for t in ts
            }
            best = max(ts, key=lambda t: (scores[t], -ts.index(t)))
            picks.append((wn, best))
            dist = self._shot_dist(w, uid, best, wn, best in engaged, self._covered(w, uid, best))
            planned[best] = planned.get(best, 0.0) + sum(k * p for k, p in dist.items())
        nearest = tuple((wn, ts[0]) for wn, ts in wt.items())
        opts: list[Action] = [Attack(uid, tuple(picks))]
        if nearest != tuple(picks):
            opts.append(Attack(uid, nearest))
        return opts

    def _move(self, w: Work, uid: int, dash: bool, state: GameState | None) -> list[Action]:
        info = w.info(uid)
        u = w.units[uid]
        foes = engine.nearest_enemies(w, uid)
        if u.location is Location.EMBARKED:
            if foes and foes[0][0] < DISEMBARK_DISTANCE:
                tgt = w.xy(foes[0][1]).mean(axis=0)
                return [Disembark(uid, to=(float(tgt[0]), float(tgt[1])), dash=dash)]
            return []
        if w.engaged_with(uid) or not foes:
            return []
        allowance = unit_allowance(w, uid, dash)
        reach = _reach(w, uid)
        has_melee = any(wp.range <= 1 for wp in info.unit.weapons)
        melee_unit = reach <= 1
        heavy = any(wp.type.value == "Heavy" for wp in info.unit.weapons)
        dist, foe = foes[0]
        opts: list[Action] = []
        if has_melee and not melee_unit:
            # a unit whose melee is worth far more than its guns fights as a melee unit:
            # it closes to charge instead of holding at range (§4.3, §5.8)
            melee = self._worth(w, uid, foe, None, True)
            if melee > MELEE_FIRST * self._worth(w, uid, foe, None, False):
                melee_unit = True
        if has_melee:
            shooting = self._best_shot(w, uid, foes)
            charges = [
                (self._worth(w, uid, f, None, True), self._worth(w, f, uid, None, True), f)
                for d, f in foes[:4]
                if d <= allowance
            ]
            if self.melee_joiners:  # session 39: the enemy units that can join the Melee
                own = value_left(w, uid)  # s39-draws: no more than the unit has (§5.11)
                charges = [
                    (
                        g,
                        min(
                            own,
                            b
                            + sum(
                                self._worth(w, j, uid, None, True) for j in joiners(w, uid, f, dash)
                            ),
                        ),
                        f,
                    )
                    for g, b, f in charges
                ]
            charges.sort(key=lambda c: -(c[0] - c[1]))
            if self.trade_up and melee_unit and state is not None:
                charges = fair_charges(charges, state, w, uid)  # session 29
            if self._plays_for_lead(w, uid) and state is not None:
                charges = lead_charges(charges, state, w, uid)  # session 37
            opts.extend(
                Move(uid, engage=f, dash=dash)
                for gain, loss, f in charges
                if (melee_unit or gain > shooting) and gain >= CHARGE_RISK * loss
            )
        if melee_unit and len(foes) > 1:
            # head for the Melee it wins: what it takes off the foe less what the foe's melee
            # takes back, the farther the less (§4.3, §5.8)
            scale = 2.0 * max(1.0, float(allowance))
            dist, foe = max(
                foes[:4],
                key=lambda df: (self._melee_edge(w, uid, df[1]) / (1.0 + df[0] / scale), -df[0]),
            )
        nearest = foes[0][0] if self.embark_by_nearest else dist  # session 38, s38-ferry
        if not info.transport and nearest > EMBARK_DISTANCE:
            back_in = self.ride_to_attack and got_out_lately(self._got_out.get(uid), w.flow.turn)
            opts.extend(
                Embark(uid, tr, dash=dash)
                for tr in w.side_units(info.side)
                if tr != uid and w.info(tr).transport and w.units[tr].location is Location.TABLE
                if not back_in or ride_pays(w, uid, tr, foe, dash)  # session 39
            )
        if dash and not melee_unit and _fired(u):
            return opts  # models that used a Battle/Heavy weapon may not Dash (§5.1)
        old_rule = dash and not melee_unit and not self.dash_in_reach
        if old_rule and dist - allowance < _threat(w, foes):
            return opts  # the fifth session: only while out of the enemy's reach
        sees = state is not None and sees_a_target(w, uid)
        in_range = (heavy and dist <= reach) or (not melee_unit and dist <= reach * 0.75)
        # one or two units a side: each exchange decides the game (session 30)
        few = self.few_units_reach and small_army(w, info.side)
        if in_range and sees:  # a target in sight: shoot (Heavy weapons bar a Move, §5.1)
            if (self.fire_position or few) and not heavy and not dash and state is not None:
                return opts + fire_positions(state, w, uid, allowance, self._dist, self._covered)
            return opts
        paths = self._path_moves(w, uid, foe, allowance, dash, state)
        if self.hidden_approach and melee_unit and state is not None:  # session 35
            unseen = unseen_moves(state, uid, paths, partial(self._seen, state, w, uid))
            if unseen is not None:
                return opts + unseen
        lead = self._plays_for_lead(w, uid) and melee_unit and state is not None  # session 37
        if lead and state is not None and keeps_lead(state, w, uid, foes, self._worth):
            seen = partial(self._seen, state, w, uid)
            return opts + lead_steps(w, uid, foes, self._worth, seen)
        if self.trade_up and melee_unit and state is not None:  # session 29
            seen = partial(self._seen, state, w, uid)
            held = held_back(
                state, w, uid, foes, paths, self._landing, self._worth, self._incoming, seen
            )
            if held is not None:
                return opts + held
        tgt = w.xy(foe).mean(axis=0)
        straight = Move(uid, to=(float(tgt[0]), float(tgt[1])), dash=dash)
        toward = next((m for m in paths if m.to is not None), straight)  # not a placement
        if dash and not melee_unit and self.dash_in_reach and state is not None:
            dashes = self._dashes_worth_it(w, uid, paths)
            if self.full_volley and not heavy:  # session 39: a full volley or none
                dashes = self._volley(state, w, uid, dashes) or dashes
            return opts + dashes
        if in_range and state is not None:
            return opts + seek_sight(state, w, uid, toward, allowance)
        shooter = state is not None and not (dash or melee_unit or heavy)
        if (self.fire_approach or few) and shooter and dist <= allowance + reach:
            assert state is not None  # a spot where the exchange favours it (session 28)
            best = fire_positions(
                state, w, uid, allowance, self._dist, self._covered, paths, floor=0.0
            )
            if best:
                return opts + best
        if state is not None and self._holds(state, w, uid, toward, melee_unit):
            return opts  # out of the enemy's reach, and the move would walk into its fire
        if self.full_volley and shooter and state is not None:  # session 39
            volley = self._volley(state, w, uid, paths)
            if volley is not None:
                return opts + volley
        opts.extend(turned_toward(w, uid, toward))  # oval and rectangular bases face their way
        if melee_unit and dash and state is not None and self.melee_dash_hidden:
            run = self._plays_for_lead(w, uid) and must_fight(state, w, uid)  # session 37
            if not run:
                return opts + self._melee_dashes(state, w, uid, paths)
        opts.extend(paths)
        opts.append(straight)
        return opts

    def _volley(self, state: GameState, w: Work, uid: int, moves: list[Move]) -> list[Move] | None:
        """:func:`~warbench.ai.tactical_volley.volley_moves` (session 39), a stop short
        allowed in the unit's first Game Turn of waiting only (``_waits``)."""
        turn = w.flow.turn
        got = volley_moves(state, w, uid, moves, may_wait(self._waits, uid, turn))
        if got is None:
            return None
        chosen, stop = got
        if stop and not (uid in self._waits and self._waits[uid] <= turn):
            self._waits[uid] = turn
        return chosen

    def _plays_for_lead(self, w: Work, uid: int) -> bool:
        """``play_for_lead`` applies: the switch is on and ``uid``'s side is a small army
        (``ai.tactical_kinds.small_army``: with three units or more, one unit kept out of a
        Melee does not keep the side's lead while the others fight on; session 37)."""
        return self.play_for_lead and small_army(w, w.info(uid).side)

    def _dashes_worth_it(self, w: Work, uid: int, paths: list[Move]) -> list[Move]:
        """The path Dashes (sixth session) after which the point value the enemy is expected
        to take off the shooter next Game Turn (:meth:`_incoming` with each enemy's Move)
        grows by no more than the point value the shooter's guns gain from there
        (:meth:`_outgoing`). An enemy that already reaches it where it stands (a fast
        long-ranged vehicle: Move 12" plus Range 30") reaches it after the Dash too: it
        closes the distance for nothing, where the old rule (out of every enemy's Move plus
        Range, :func:`_threat`) kept it at a walk for the whole game. Models that Dash may not
        use Battle or Heavy weapons in that Game Turn (§5.1), which has passed its Attack
        Phase when the Dash Phase comes (§2.2)."""
        here = w.xy(uid).mean(axis=0)
        at = (float(here[0]), float(here[1]))
        risk_here = self._incoming(w, uid, at, next_turn=True)
        gain_here = self._outgoing(w, uid, at)
        out: list[Move] = []
        for m in paths:
            end = self._landing.get(m)
            if end is None:
                continue
            risk = self._incoming(w, uid, end, next_turn=True) - risk_here
            gain = self._outgoing(w, uid, end) - gain_here
            if risk <= max(0.0, gain) + 1e-9:
                out.append(m)
        return out

    def _melee_dashes(self, state: GameState, w: Work, uid: int, paths: list[Move]) -> list[Move]:
        """The path Dashes of a melee unit (sixth session) that end within its Move of an
        enemy (a charge next Game Turn, §4.3) or where the enemy's expected damage on it
        next Game Turn, by sight and Cover from where each enemy stands (:meth:`_exposure`,
        §5.5-5.6), is no more than where it stands: it crosses open ground under a
        long-ranged gun no faster than its friends, and runs the last stretch."""
        now = self._exposure(w, uid)
        reach = float(w.info(uid).unit.profile.move)
        spread = _spread(w, uid) + w.info(uid).radius
        here = w.xy(uid).mean(axis=0)
        threat_here: float | None = None
        out: list[Move] = []
        for m in paths:
            end = self._landing.get(m)
            if end is None:
                continue
            charge = self._gap_at(w, uid, end) <= reach
            risk = self._exposure_if_reached(state, w, uid, m) if not charge else 0.0
            if charge or risk <= now + 1e-9:
                out.append(m)
            elif self.even_dash:  # session 36: it threatens as much as it risks
                if threat_here is None:
                    at = (float(here[0]), float(here[1]))
                    threat_here = threat_from(w, uid, at, spread, self._worth)
                gain = threat_from(w, uid, end, spread, self._worth) - threat_here
                if risk - now <= max(0.0, gain) + 1e-9:
                    out.append(m)
        return out

    def _gap_at(self, w: Work, uid: int, at: tuple[float, float]) -> float:
        """About the edge distance from ``uid`` with its centre at ``at`` to the nearest enemy
        model on the table (its formation's spread taken as kept)."""
        spread = _spread(w, uid) + w.info(uid).radius
        best = math.inf
        for v in w.units:
            f = v.uid
            if v.location is not Location.TABLE or not w.enemies(uid, f):
                continue
            fxy = w.xy(f)
            if len(fxy):
                d = float(np.hypot(fxy[:, 0] - at[0], fxy[:, 1] - at[1]).min())
                best = min(best, d - w.info(f).radius - spread)
        return best

    def _holds(self, state: GameState, w: Work, uid: int, move: Move, melee_unit: bool) -> bool:
        """Hold out of the enemy's reach (issue 15, fifth session): in the Move Phase, while
        its side is ahead on points (the game is decided on the value left, §2.2 step 8), a
        unit that no enemy can attack where it stands stays there when ``move`` would bring
        it within an enemy's Move plus Range (or charge) before the Attack Phase (§2.2 steps
        3-4) without a target of its own to shoot from there. A side that is not ahead seeks
        the exchange (or two careful armies would never meet)."""
        if w.flow.phase is not Phase.MOVE or move.dash:
            return False
        here = w.xy(uid).mean(axis=0)
        if self._incoming(w, uid, (float(here[0]), float(here[1]))) > 0.0:
            return False  # already in reach: standing still saves nothing
        end = self._landing.get(move)
        if end is None:
            return False
        if self._incoming(w, uid, end) <= 0.0:
            return False  # a safe advance
        if not melee_unit and self._outgoing(w, uid, end) > 0.0:
            return False  # it trades shots from there
        values = state.side_values()
        mine = values[w.info(uid).side]
        others = max((v for k, v in enumerate(values) if k != w.info(uid).side), default=0.0)
        return mine > others * (1.0 + AHEAD_MARGIN)

    def _incoming(
        self, w: Work, uid: int, at: tuple[float, float], next_turn: bool = False
    ) -> float:
        """The point value enemy units are expected to take off ``uid`` standing at ``at`` in
        the coming Attack Phase: each that can still move this phase adds its Move to its
        Range (shooting) or reaches it with its Move (a charge, §4.3); with ``next_turn``,
        every enemy adds its Move (the next Game Turn's Move Phase); sight is not checked."""
        spread = _spread(w, uid) + w.info(uid).radius
        total = 0.0
        for v, fi, longest in enemy_units(w, uid):
            f = v.uid
            step = 0.0 if v.acted or w.flow.phase is not Phase.MOVE else float(fi.unit.profile.move)
            if next_turn:
                step = float(fi.unit.profile.move)
            fxy = w.xy(f)
            if not len(fxy):
                continue
            d = float(np.hypot(fxy[:, 0] - at[0], fxy[:, 1] - at[1]).min()) - fi.radius - spread
            best = 0.0
            if longest is not None and d <= longest + step:
                best = self._worth(w, f, uid, None, False)
            if any(wp.range <= 1 for wp in fi.unit.weapons) and d <= step:
                best = max(best, self._worth(w, f, uid, None, True))
            total += best
        return total

    def _outgoing(self, w: Work, uid: int, at: tuple[float, float]) -> float:
        """The most point value ``uid``'s shooting is expected to take off one enemy unit in
        Range from ``at`` (sight is not checked)."""
        info = w.info(uid)
        spread = _spread(w, uid) + info.radius
        longest = max((wp.range for wp in info.unit.weapons if wp.range > 1), default=None)
        if longest is None:
            return 0.0
        best = 0.0
        for _, f in engine.nearest_enemies(w, uid)[:4]:
            fxy = w.xy(f)
            if not len(fxy):
                continue
            d = float(np.hypot(fxy[:, 0] - at[0], fxy[:, 1] - at[1]).min())
            if d - w.info(f).radius - spread <= longest:
                best = max(best, self._worth(w, uid, f, None, False))
        return best

    def _path_moves(
        self,
        w: Work,
        uid: int,
        foe: int,
        allowance: float,
        dash: bool,
        state: GameState | None = None,
    ) -> list[Move]:
        """Straight moves toward ``foe`` along the cheapest path round the terrain
        (:mod:`warbench.ai.navigate`), best first by where the engine's own placement of the
        formation ends (``plan_towards``); empty when none makes progress."""
        info = w.info(uid)
        goals = [(float(x), float(y)) for x, y in w.xy(foe)]
        if not goals:
            return []
        xy = w.xy(uid)
        centre = xy.mean(axis=0)
        start = (float(centre[0]), float(centre[1]))
        # the centre's clearance first; then the whole formation's, so a wide unit that
        # cannot squeeze through a gap goes round it (the engine moves it rigidly, §4.1)
        spread = float(np.hypot(*(xy - centre).T).max()) if len(xy) > 1 else 0.0
        for radius in (info.radius + PATH_MARGIN, info.radius + spread + PATH_MARGIN):
            moves = self._paths_on(w, uid, start, goals, radius, allowance, dash)
            if self.pass_gaps and spread >= 1.0 and radius == info.radius + PATH_MARGIN:
                grid = nav_grid(w.field.board, radius)  # stalled: model by model (session 29)
                moves = pass_moves(
                    w, uid, start, grid, grid.cost_to(goals), allowance, dash, moves,
                    self._progress, self._landing,
                )  # fmt: skip
            if moves or spread < 1.0:
                moves = self._sheltered_first(state, w, uid, moves, allowance)
                if self.shun_danger:  # session 36: round Dangerous Ground (§4.6)
                    moves = danger_last(w, uid, moves, allowance)
                elif self.price_danger:  # session 38: the least loss among the near ones
                    goal = w.xy(foe).mean(axis=0)
                    moves = danger_priced(
                        w, uid, moves, allowance, self._progress, self._landing,
                        (float(goal[0]), float(goal[1])), self._danger_hp,
                    )  # fmt: skip
                return moves
        return []

    def _sheltered_first(
        self, state: GameState | None, w: Work, uid: int, moves: list[Move], allowance: float
    ) -> list[Move]:
        """Among the moves that make nearly the most progress (within a third of the
        allowance), the one where the enemy's shooters are expected to take least comes
        first: out of their sight, else with a Cover Bonus against them (§5.5-5.6)."""
        if state is None or len(moves) < 2:
            return moves
        best = self._progress.get(moves[0], 0.0)
        near = [
            m for m in moves[:SHELTER_TRIES] if self._progress.get(m, 0.0) <= best + allowance / 3
        ]
        if len(near) < 2:
            return moves
        # where no enemy reaches (Move plus Range, or a charge) nothing is exposed: the
        # engine's state after the move is worked out only where one does
        exposure = {m: self._exposure_if_reached(state, w, uid, m) for m in near}
        near.sort(key=lambda m: (exposure[m], self._progress.get(m, 0.0)))
        return near + [m for m in moves if m not in exposure]

    def _exposure_if_reached(self, state: GameState, w: Work, uid: int, move: Move) -> float:
        """:meth:`_exposure_after`, or 0 without the engine's state after the move when the
        place it ends (its landing, when known) is beyond every enemy unit's Move plus its
        longest Range with 2" to spare (where :meth:`_exposure` counts nothing)."""
        landing = self._landing.get(move)
        if landing is None:
            return self._exposure_after(state, uid, move)
        spread = _spread(w, uid) + w.info(uid).radius + 2.0
        for v in w.units:
            f = v.uid
            if v.location is not Location.TABLE or not w.enemies(uid, f):
                continue
            fi = w.info(f)
            fxy = w.xy(f)
            if not len(fxy):
                continue
            d = float(np.hypot(fxy[:, 0] - landing[0], fxy[:, 1] - landing[1]).min())
            if d - fi.radius - spread <= _reach(w, f) + float(fi.unit.profile.move):
                return self._exposure_after(state, uid, move)
        return 0.0

    def _seen(self, state: GameState, w: Work, uid: int, move: Move | None) -> float:
        """:meth:`_exposure` where ``uid`` stands (``move`` ``None``) or after ``move``."""
        return self._exposure(w, uid) if move is None else self._exposure_after(state, uid, move)

    def _exposure_after(self, state: GameState, uid: int, move: Move) -> float:
        """:meth:`_exposure` of ``uid`` after ``move``; infinite when the engine refuses it."""
        if not engine.can(state, move):
            return math.inf
        after, _ = engine.apply(state, move)
        return self._exposure(Work(after, None, DEFAULT_HOOKS), uid)

    def _exposure(self, w: Work, uid: int) -> float:
        """What the enemy units are expected to take off ``uid`` in the coming Attack Phase
        where it stands in ``w``: a shooter that sees it (from where the shooter stands, §5.5)
        within its Range plus the Move it may still make before then, with ``uid``'s Cover
        Bonus against it (§5.6); a unit with a melee weapon within its Move (a charge, §4.3).
        Each enemy counts its best attack."""
        ui = w.info(uid)
        per_hp = ui.value / ui.max_hp if ui.max_hp else 0.0
        hp_left = float(w.units[uid].current_hp)
        total = 0.0
        for v in w.units:
            f = v.uid
            if v.location is not Location.TABLE or not w.enemies(uid, f) or w.engaged_with(f):
                continue
            fi = w.info(f)
            moving = w.flow.phase is not Phase.MOVE or not v.acted
            step = float(fi.unit.profile.move) if moving else 0.0
            longest = max((wp.range for wp in fi.unit.weapons if wp.range > 1), default=None)
            try:
                view = view_target(w, f, uid)
            except WarbenchError:
                continue
            best = 0.0
            if longest is not None and view.distance <= longest + step and view.visible:
                dist = self._dist(w, f, uid, None, False, view.cover > 0)
                best = min(sum(k * p for k, p in dist.items()), hp_left) * per_hp
            if view.distance <= step and any(wp.range <= 1 for wp in fi.unit.weapons):
                best = max(best, self._worth(w, f, uid, None, True))
            total += best
        return total

    def _paths_on(
        self,
        w: Work,
        uid: int,
        start: tuple[float, float],
        goals: list[tuple[float, float]],
        radius: float,
        allowance: float,
        dash: bool,
    ) -> list[Move]:
        """:meth:`_path_moves` on the grid for bases of ``radius``."""
        grid = nav_grid(w.field.board, radius)
        dist = grid.cost_to(goals)
        here = grid.at(dist, start)
        scored: list[tuple[float, int, tuple[float, float], tuple[float, float]]] = []
        for k, (_, end) in enumerate(grid.steps(start, allowance, dist)[:PATH_TRIES]):
            try:
                new = plan_towards(w, uid, end, allowance, dash)
            except WarbenchError:
                continue
            xy = np.asarray(new, dtype=np.float64).mean(axis=0)
            value = grid.at(dist, (float(xy[0]), float(xy[1])))
            if value < here - 0.25:
                scored.append((value, k, end, (float(xy[0]), float(xy[1]))))
        scored.sort()
        out: list[Move] = []
        for value, _, end, landing in scored:
            m = Move(uid, to=end, dash=dash)
            self._progress[m] = value
            self._landing[m] = landing
            out.append(m)
        return out

    # -- expected damage -------------------------------------------------------------------
    def _melee_edge(self, w: Work, uid: int, foe: int) -> float:
        """What the unit's melee is expected to take off ``foe`` less what ``foe``'s takes back."""
        return self._worth(w, uid, foe, None, True) - self._worth(w, foe, uid, None, True)

    def _best_shot(self, w: Work, uid: int, foes: list[tuple[float, int]]) -> float:
        """The most point value the unit's shooting is expected to take off one enemy unit
        in range (0 when none is)."""
        ranged = [wp for wp in w.info(uid).unit.weapons if wp.range > 1]
        best = 0.0
        for d, f in foes[:4]:
            if any(d <= wp.range for wp in ranged):
                best = max(best, self._worth(w, uid, f, None, False))
        return best

    def _fire_value(
        self, w: Work, a: int, b: int, weapon: str | None, melee: bool, planned: float = 0.0
    ) -> float:
        """What ``a``'s attack with ``weapon`` on ``b`` is worth (:func:`tactics.target_score`):
        the point value expected to be taken off ``b`` as it is now (its wounded models first,
        never more than its HP left, after ``planned`` HP of this unit's other weapons) plus
        the output of the models expected to be slain, weighed by the Attack Phases left."""
        ub, ib = w.units[b], w.info(b)
        hps = wounded_first(ub.hp, ub.removed)
        spent = int(planned + 0.5)
        while spent > 0 and hps:  # the HP this unit's other weapons take, wounded first
            cut = min(spent, hps[0])
            spent -= cut
            hps[0] -= cut
            if hps[0] <= 0:
                hps.pop(0)
        if not hps:
            return 0.0
        dist = self._shot_dist(w, a, b, weapon, melee, not melee and self._covered(w, a, b))
        alive = sum(1 for gone in w.units[a].removed if not gone) / max(1, w.info(a).models)
        if self.range_share and not melee:  # session 39: the models that reach it
            alive *= range_share(w, a, b, weapon)
        taken, slain = expected_take(dist, alive, hps)
        per_hp = ib.value / ib.max_hp if ib.max_hp else 0.0
        if self.end_points and may_be_last(w):
            return taken * per_hp  # the points that are there (session 35, §2.2 step 8)
        if self.danger_fire:  # session 31: the most dangerous first (``ai.tactical_danger``)
            danger = danger_threat(w, b, self._worth)
            score = danger_score(taken, float(sum(hps)), per_hp, danger, self._output_weight(w))
        else:
            per_model = self._output(w, b) / max(1, ib.models)
            score = target_score(taken, slain, per_hp, per_model, self._output_weight(w))
        if self.threat_fire:  # session 31: the threat it carries (``ai.tactical_threat``)
            worth = partial(self._worth, standing=True) if self.slain_gone else self._worth
            score += threat_bonus(w, b, taken, worth, self._phases_left(w))
        return score

    def _phases_left(self, w: Work) -> float:
        """The Attack Phases left, this one counted (one at least: the game may go on past
        its length, §2.2 step 7)."""
        length = w.setup.game_length or 4
        return max(1.0, float(length - w.flow.turn + 1))

    def _covered(self, w: Work, a: int, b: int) -> bool:
        """``b`` has a Cover Bonus against ``a``'s attack (§5.6; none in a Melee, §5.9)."""
        if b in w.engaged_with(w.outermost(a)):
            return False
        try:
            return view_target(w, a, b).cover > 0
        except WarbenchError:
            return False

    def _output(self, w: Work, b: int) -> float:
        """What ``b`` at full strength is expected to take off the best of its enemies on the
        table in one attack (point value, uncapped; shooting or melee, whichever is more)."""
        side = w.info(b).side
        best = 0.0
        for v in w.units:
            m = v.uid
            if v.location is not Location.TABLE or w.info(m).side == side:
                continue
            im = w.info(m)
            per_hp = im.value / im.max_hp if im.max_hp else 0.0
            for melee in (False, True):
                dist = self._dist(w, b, m, None, melee, False)
                best = max(best, sum(k * p for k, p in dist.items()) * per_hp)
        return best

    def _output_weight(self, w: Work) -> float:
        """How much an enemy model's attack counts: half for each Attack Phase left after this
        one (a quarter at least: the game may go on past its length, §2.2 step 7)."""
        length = w.setup.game_length or 4
        return OUTPUT_WEIGHT * max(0.5, float(length - w.flow.turn))

    def _dist(
        self, w: Work, a: int, b: int, weapon: str | None, melee: bool, cover: bool
    ) -> Mapping[int, float]:
        """The exact distribution of the HP ``a``'s whole unit takes off ``b``'s whole unit
        in one attack with ``weapon`` (``None``: all that apply), with the Cover Bonus."""
        key = (a, b, weapon or "", melee, cover)
        hit = self._dists.get(key)
        if hit is None:
            from warbench.api import odds

            try:
                got = odds(
                    w.info(a).unit,
                    w.info(b).unit,
                    melee=melee,
                    cover=cover,
                    weapons=(weapon,) if weapon else (),
                )
                hit = {int(k): float(p) for k, p in got.hp_lost.items()}
            except WarbenchError:
                hit = {}
            self._dists[key] = hit
        return hit

    def _shot_dist(
        self, w: Work, a: int, b: int, weapon: str | None, melee: bool, cover: bool
    ) -> Mapping[int, float]:
        """:meth:`_dist` in the situation the engine attacks in (session 31,
        :mod:`warbench.ai.tactical_threat`): a shot from inside a Melee or into one counts
        the Melee's Dice Modifiers (§5.8 L2668-2682)."""
        where = situation(w, a, b, melee) if self.melee_modifiers else PLAIN
        if where == PLAIN:
            return self._dist(w, a, b, weapon, melee, cover)
        key = (a, b, weapon or "", cover, where)
        hit = self._sdists.get(key)
        if hit is None:
            hit = self._sdists[key] = situated_dist(w, a, b, weapon, cover, where)
        return hit

    def _worth(
        self, w: Work, a: int, b: int, weapon: str | None, melee: bool, standing: bool = False
    ) -> float:
        """Expected point value ``a`` takes off ``b`` with ``weapon`` (``None``: all that
        apply) in one attack: exact odds for whole units, scaled by the models ``a`` has
        left (``standing``: only those not slain in this Attack Phase, session 32), capped at
        the HP ``b`` has left, priced at ``b``'s points per HP."""
        if melee and self.melee_count:  # session 39: the models left, not a scaled cap
            ck = melee_key(w, a, b, weapon, standing)
            if ck is None:
                return 0.0
            if ck not in self._counted:
                self._counted[ck] = counted_melee_hp(w, ck)
            hp = self._counted[ck]
            if hp is not None:
                ib = w.info(b)
                return min(hp, float(w.units[b].current_hp)) * (
                    ib.value / ib.max_hp if ib.max_hp else 0.0
                )
        key = (a, b, weapon or "", melee)
        frac = self._odds.get(key)
        if frac is None:
            from warbench.api import odds

            try:
                got = odds(
                    w.info(a).unit, w.info(b).unit, melee=melee, weapons=(weapon,) if weapon else ()
                )
                frac = float(got.expected_hp_lost)
            except WarbenchError:
                frac = 0.0
            self._odds[key] = frac
        ua, ub, ib = w.units[a], w.units[b], w.info(b)
        share = standing_share if standing else present_share
        alive = share(ua, w.info(a).models)
        hp_left = ub.current_hp
        per_hp = ib.value / ib.max_hp if ib.max_hp else 0.0
        return min(frac * alive, float(hp_left)) * per_hp


def _dash_if_cheaper(w: Work, uid: int, moves: list[Action]) -> list[Action]:
    """Advanced: the unit's moves made as a Dash where a Dash costs fewer CP than a Move (a
    Move reused: 2 CP, a first Dash 1 CP, §9.2 L3720-3722, Example 2 L3732) and loses
    nothing: the Dash goes at least as far (§4.1) and the unit has no Battle or Heavy weapon
    that a Dash would bar for the rest of the Game Turn (§9.2 Dash, §5.1)."""
    adv = w.flow.adv
    if adv is None or adv.cost(uid, "Dash") >= adv.cost(uid, "Move"):
        return moves
    if any(t in ("Battle", "Heavy") for t in w.info(uid).weapon_types.values()):
        return moves
    if unit_allowance(w, uid, True) < unit_allowance(w, uid, False):
        return moves
    return [replace(m, dash=True) if isinstance(m, Move | Embark | Disembark) else m for m in moves]


def _cp_cost(state: GameState, action: Action) -> int:
    """The Command Points ``action`` costs now in an Advanced game (§9.2: 1 CP, doubling with
    each reuse by the unit on the Game Turn; Deploy free), 0 for what is no priced Action."""
    name = action_name(action)
    adv = state.flow.adv
    if name is None or adv is None or not hasattr(action, "unit"):
        return 0
    return adv.cost(action.unit, name)


def _threat(w: Work, foes: list[tuple[float, int]]) -> float:
    """How far the nearest enemy units reach in a Game Turn: Move plus their longest Range."""
    out = 0.0
    for _, f in foes[:4]:
        info = w.info(f)
        out = max(out, float(info.unit.profile.move) + _reach(w, f))
    return out


def _spread(w: Work, uid: int) -> float:
    """How far the unit's models stand from their centre (0 for one model)."""
    xy = w.xy(uid)
    if len(xy) < 2:
        return 0.0
    return float(np.hypot(*(xy - xy.mean(axis=0)).T).max())


def _fired(u: Any) -> bool:
    """Some model of the unit used a Battle or Heavy weapon this Game Turn (§5.1)."""
    return any(u.heavy) or any(u.battle)


def _reach(w: Work, uid: int) -> int:
    return max((wp.range for wp in w.info(uid).unit.weapons), default=0)


def _front_spots(w: Work, side: int, radius: float) -> list[tuple[int, float, tuple[float, float]]]:
    """Points of ``side``'s Deployment Zone on a 1.5" grid where a base of ``radius`` fits,
    as ``(2" band behind the front, position along the front, point)``; the front faces the
    other sides' zones (the board's centre when none is known)."""
    zone = w.zones[side]
    assert zone is not None
    field = w.field
    x0, y0, x1, y1 = field.zone_bounds(zone)
    cx, cy = field.zone_centre(zone)
    others = [field.zone_centre(z) for s, z in enumerate(w.zones) if s != side and z is not None]
    if others:
        tx = sum(p[0] for p in others) / len(others)
        ty = sum(p[1] for p in others) / len(others)
    else:
        tx, ty = field.width / 2, field.height / 2
    dx, dy = tx - cx, ty - cy
    norm = math.hypot(dx, dy) or 1.0
    fx, fy = dx / norm, dy / norm
    xs = np.arange(x0 + 0.75, x1, 1.5)
    ys = np.arange(y0 + 0.75, y1, 1.5)
    gx, gy = np.meshgrid(xs, ys)
    pts = np.column_stack([gx.ravel(), gy.ravel()])
    if not len(pts):
        return []
    ok = field.zone_holds(zone, pts, radius)
    pts = pts[ok]
    if not len(pts):
        return []
    clear = ~np.asarray(field.g.on_impassable(pts, radius))
    pts = pts[clear]
    if not len(pts):
        return []
    ahead = (pts[:, 0] - cx) * fx + (pts[:, 1] - cy) * fy
    along = (pts[:, 0] - cx) * -fy + (pts[:, 1] - cy) * fx
    # depth behind the front at each place along it (2" strips): a zone's front need not
    # face the enemy squarely (the diagonal layout's triangles)
    strip = np.floor(along / 2).astype(int)
    top: dict[int, float] = {}
    for k, a in zip(strip.tolist(), ahead.tolist(), strict=True):
        top[k] = max(top.get(k, a), a)
    return [
        (int((top[k] - a) // 2), round(b, 3), (round(x, 3), round(y, 3)))
        for (x, y), a, b, k in zip(
            pts.tolist(), ahead.tolist(), along.tolist(), strip.tolist(), strict=True
        )
    ]


def _spread_order(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Front spots middle first, then alternately farther out either side."""
    if not points:
        return []
    xs = {round(p[0], 3) for p in points}
    axis = 1 if len(xs) == 1 else 0
    mid = sum(p[axis] for p in points) / len(points)
    return sorted(points, key=lambda p: (abs(p[axis] - mid), p[axis]))


@dataclass
class TacticalPlayer:
    """The ``tactical`` kind: a protocol player for seat ``seat`` of a WARSURGE game set up as
    ``knowledge``, choosing from its view with :class:`TacticalBot` (module docstring)."""

    ruleset: Ruleset[Any, Any, Any]
    knowledge: SetupArgs
    seat: int
    seed: int = 0
    bot: TacticalBot = field(default_factory=TacticalBot)
    _hooks: Any = field(default=None, repr=False)

    def choose(
        self, view: Any, legal: LegalActions[Any], decision: Decision[Any], budget: Budget
    ) -> Any:
        """The bot's action for an activation and an Advanced Counter Action (§9.3: a Counter
        Attack when the attacked unit can make one, as the bot does on engine states; the
        default when it is not legal here); the decision's default for everything else."""
        if decision.kind not in ("activation", "counter") and decision.default is not None:
            return decision.default
        action = self.action_for(self.state_of(view).game)
        if action in legal or decision.default is None:
            return action
        return decision.default

    def state_of(self, view: Any) -> Any:
        """The view written back as a protocol state (what the player may know)."""
        if self._hooks is None:
            from warbench.ai.warsurge import WarsurgeHooks

            self._hooks = WarsurgeHooks(self.ruleset)
        return self._hooks.determinizer(view, self.seat, self.knowledge)(self.seed)

    def action_for(self, game: GameState) -> Action:
        """The bot's choice on an engine state (:func:`bot_action`)."""
        return bot_action(self.bot, game)


def bot_action(bot: TacticalBot, game: GameState) -> Action:
    """``bot``'s choice on an engine state, with model positions as the engine places them
    when the set-up leaves model placement to the players (as the protocol's defaults)."""
    placing = game
    if Automation.MODEL_PLACEMENT not in game.setup.automation:
        placing = replace(game, setup=engine.placing_setup(game.setup))
    action = engine.normalize(bot.choose(placing))
    if placing is not game:
        action = engine.with_positions(game, action)
    return action
