"""Turn structure (``003_fc239e71486306e1.txt`` L748-799) and the recovery step (L901-910).

Maintenance: reinforcements roll from turn 2 (D10 + Command + turn >= 8, L756-769), a total
Command contest decides who activates first (L771-773), each player sorts the hand into the
three phase piles (L774-776). Phases 1-3: the first player activates the characters of the
phase one by one, then the other player (L778-788); each activation is the action step, then
the recovery step. End phase: the turn marker goes up; at the end of the turn limit the game
is over (L790-798).
"""

from __future__ import annotations

from warbench.rulesets.collision.game.core import Game
from warbench.rulesets.collision.game.state import Unit


def start_turn(g: Game) -> None:
    """Maintenance (L756-776)."""
    from warbench.rulesets.collision.game.setup import command_total, contest

    s = g.s
    s.turn += 1
    s.active = None
    g.event("turn", f"turn {s.turn} of {s.turn_limit}", "L756-776", turn=s.turn)
    for u in s.units:
        u.activated = False
        u.moved = ""
        u.special_moved = False
        u.weapons_used = []
        u.used = []
        u.spent = 0
        u.hasted = False
    s.planned = [None, None]  # Plan Ahead's die lasts the turn it is rolled (L2063-2064)
    if s.turn > 1:
        for u in s.units:
            if u.where != "reserve" or u.statue:
                continue
            face = g.roll(f"{u.name}: reinforcements", by=u)
            total = face + g.card(u).stats.command + s.turn
            ok = total >= 8  # L761-763
            g.event(
                "reinforcements",
                f"{u.name} rolls {total} for reinforcements: "
                + ("it joins the hand" if ok else "not yet"),
                "L756-769",
            )
            if ok:
                u.where = "hand"
        _meteors(g)
    s.first = contest(
        g,
        "Command contest to activate first",
        (command_total(g, 0), command_total(g, 1)),
        "L771-773",
    )
    s.stage, s.player, s.phase = "piles", s.first, 1
    if not _hand(g, s.first):
        after_piles(g, s.first)


def _hand(g: Game, p: int) -> list[Unit]:
    from warbench.rulesets.collision.game.setup import hand

    return hand(g, p)


def after_piles(g: Game, player: int) -> None:
    """The other player sorts, then phase 1 begins."""
    s = g.s
    if player == s.first and _hand(g, 1 - s.first):
        s.player = 1 - s.first
        return
    s.phase, s.player = 1, s.first
    next_activation(g)


def candidates(g: Game) -> list[Unit]:
    """The characters the current player may activate in the current phase (L778-784)."""
    s = g.s
    return [
        u
        for u in s.units
        if u.owner == s.player
        and not u.statue
        and not u.activated
        and u.pile == s.phase
        and (u.where == "board" or (u.where == "hand" and s.turn > 0))
    ]


def next_activation(g: Game) -> None:
    """The next (phase, player) with a character to activate, else the end phase."""
    s = g.s
    order = [(ph, p) for ph in (1, 2, 3) for p in (s.first, 1 - s.first)]
    i = order.index((s.phase, s.player)) if (s.phase, s.player) in order else 0
    while i < len(order):
        s.phase, s.player = order[i]
        if candidates(g):
            s.stage = "activate"
            return
        i += 1
    end_phase(g)


def activate(g: Game, uid: int) -> None:
    """Begin an activation (L778-784): effects that last "until its next activation" end,
    Flame Wreath burns an enemy starting adjacent (L1771-1772), then Out-Maneuver and Kiss of
    Death may react (L2037-2043, L1929-1935)."""
    from warbench.rulesets.collision.game.reactions import open_window

    s = g.s
    u = g.unit(uid)
    u.activated = True
    u.acted = False
    u.held = False
    u.last_hit = None
    s.active = uid
    g.event("activate", f"{u.name} activates (phase {s.phase})", "L778-784", unit=uid)
    if u.persevere:
        u.persevere = False  # L2057
        if g.defeated_by_injuries(u):
            g.defeat(u, None, "L2056-2060")
    for v in s.units:
        if v.pain_warp == uid:
            v.pain_warp = None  # L2048-2049: "until its next activation" (the target's own)
    if u.pain_warp is not None:
        u.pain_warp = None
    if u.where == "hand":
        s.stage = "arrive"  # L763-765: a reinforcement moves onto the edge of its zone
        return
    from warbench.rulesets.collision.game.movement import flame_wreath_at_start

    flame_wreath_at_start(g, u)
    if u.where != "board":
        finish_activation(g)
        return
    s.stage = "act"
    if open_window(g, "activation", u, None):
        return
    maybe_end_activation(g)


def arrive(g: Game, at: tuple[int, int] | None, facing: str) -> None:
    """A reinforcement enters on a free square of its zone's board edge (ruling 21); a
    character that Shadow Hopped may be placed anywhere not within 3 of an enemy or on
    impassable terrain instead (L2136-2138)."""
    s = g.s
    assert s.active is not None
    u = g.unit(s.active)
    if at is None:
        g.event("arrive", f"{u.name} finds no free square and stays off the board", "L763-765")
        finish_activation(g, recover=False)
        return
    u.where, u.pos, u.facing = "board", at, facing
    g.event(
        "arrive",
        f"{u.name} arrives at {at}" + (" (Shadow Hop)" if u.hopped else ""),
        "L2136-2138" if u.hopped else "L763-765",
        unit=u.uid,
    )
    u.hopped = False
    s.stage = "act"


def after_activation_window(g: Game) -> None:
    """After Out-Maneuver / Kiss of Death: carry on, or the next activation."""
    s = g.s
    if s.active is None:  # Out-Maneuver moved it to phase 3
        s.stage = "activate"
        if not candidates(g):
            next_activation(g)
        return
    s.stage = "act"


def maybe_end_activation(g: Game) -> None:
    """An activation whose character left the board ends at once."""
    s = g.s
    if s.active is not None and g.unit(s.active).where != "board" and s.stage == "act":
        finish_activation(g, recover=False)


def hold(g: Game, facing: str) -> None:
    """Hold (L883-889): may change facing; ends the action step."""
    s = g.s
    assert s.active is not None
    u = g.unit(s.active)
    u.held = True
    u.facing = facing
    g.event("hold", f"{u.name} holds, facing {facing}", "L883-889", unit=u.uid)
    finish_activation(g)


def finish_activation(g: Game, *, recover: bool = True) -> None:
    """The recovery step, then the next activation (L786-788)."""
    s = g.s
    assert s.active is not None
    u = g.unit(s.active)
    s.haste = []  # allies' Haste moves are made while the Haste user is active
    if recover and u.where == "board":
        recovery(g, u)
    s.active = None
    s.stage = "activate"
    if not candidates(g):
        next_activation(g)


def recovery(g: Game, u: Unit) -> None:
    """The recovery step (L901-910, with Stun L2195-2197, Flee L1781-1786, Poison L2067-2071,
    Recovery L2098, Serenity L2131, Cling to Life L1676-1678, Kiss of Death L1934-1935)."""
    from warbench.rulesets.collision.game.movement import flee_run
    from warbench.rulesets.collision.game.objectives import near_obelisk, on_blessed

    card = g.card(u)
    st = u.statuses
    base = 1 if st.get("stun", 0) else card.stats.endure  # L2196
    got = g.gain_endurance(u, base + (2 if u.held else 0))  # L903-906
    g.event(
        "recovery", f"{u.name} recovers {got} Endurance ({u.endurance})", "L901-906", unit=u.uid
    )
    if st.get("flee", 0) and u.where == "board":
        flee_run(g, u)
    if st.get("poison", 0) and u.where == "board":
        src = g.unit(u.poisoned_by) if u.poisoned_by is not None else None
        g.suffer_hit(u, u.spent, "Acid", src, "L2067-2071")
    if u.held and u.where == "board" and u.injuries > 0:
        face = g.roll(f"{u.name}: recover an injury", by=u)
        if face >= 4:  # L886-887, L906-907 (docs/rulings.md, Collision 24)
            u.injuries -= 1
            g.event("heal", f"{u.name} rolls {face}: recovers an injury ({u.injuries})", "L883-887")
        else:
            g.event("heal", f"{u.name} rolls {face}: no injury recovered", "L883-887")
    for name in ("stun", "poison", "hex", "flee"):  # L908-910
        if st.get(name, 0):
            st[name] -= 1
            if not st[name]:
                del st[name]
    if u.where == "board":
        recov = g.has(u, "Recovery") or near_obelisk(g, u) or on_blessed(g, u)
        if recov and g.gain_mana(u, 1):
            g.event("mana", f"{u.name} recovers 1 Mana (Recovery)", "L2098")
        if g.has(u, "Serenity") and u.injuries == 0 and g.gain_mana(u, 1):
            g.event("mana", f"{u.name} recovers 1 Mana (Serenity)", "L2131")
    if u.clinging and u.where == "board":
        u.clinging = False
        g.defeat(u, None, "L1676-1678")
    elif u.clinging:
        u.clinging = False
    if u.kissed and u.where == "board":
        u.kissed = False
        if not g.has(u, "Immune to Slay"):
            g.defeat(u, None, "L1934-1935", slay=True)


def end_phase(g: Game) -> None:
    """End phase (L790-798): defeated characters are already removed; the turn marker goes
    up; at the end of the turn limit the game is over."""
    s = g.s
    g.event("end phase", f"end of turn {s.turn}", "L790-798")
    if s.turn >= s.turn_limit:
        from warbench.rulesets.collision.game.victory import finish

        finish(g)
        return
    start_turn(g)


def _meteors(g: Game) -> None:
    """Meteor (L2016-2021): the blast called last turn falls now (docs/rulings.md, 25)."""
    from warbench.rulesets.collision.game.attacks import run_attack
    from warbench.rulesets.collision.game.board import spaces
    from warbench.rulesets.collision.game.state import AttackCtx

    s = g.s
    for m in list(s.markers):
        if m.kind != "meteor" or m.gone or m.at is None or m.holder is None:
            continue
        m.gone = True
        caster = g.unit(m.holder)
        if caster.where != "board":
            g.event("meteor", "the meteor fades: its caster is gone", "L2016-2021")
            continue
        g.event("meteor", f"{caster.name}'s meteor falls on {m.at}", "L2016-2021")
        for v in list(g.on_board()):
            if v.pos is not None and spaces(v.pos, m.at) <= 3:
                s.attack = AttackCtx(caster.uid, v.uid, "Meteor", None, centre=m.at, free=True)
                s.attack_stack = []
                run_attack(g)
        s.attack = None
