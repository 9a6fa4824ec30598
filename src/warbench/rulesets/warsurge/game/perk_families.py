"""Hook registration of the perk families that have their own modules (issue 11).

``perk_hooks.register_perk_hooks`` calls :func:`register_family_hooks` last, so the order of
hooks on one event stays: the core perk hooks first, then each family in the order below.
The modules are imported here, inside the function, because several of them import
``perk_hooks`` themselves.
"""

from __future__ import annotations

from collections.abc import Callable

from warbench.rulesets.warsurge.game.hooks import Hook, HookRegistry
from warbench.rulesets.warsurge.game.work import Work


def register_family_hooks(reg: HookRegistry, restore_hp: Callable[[Work, int, int], int]) -> None:
    """Add the hooks of the family modules to ``reg`` (``restore_hp`` avoids an import cycle)."""
    from warbench.rulesets.warsurge.game import (
        perk_affliction,
        perk_challenger,
        perk_concealed,
        perk_decoy,
        perk_defect,
        perk_defensive,
        perk_delirium,
        perk_deployment,
        perk_dominate,
        perk_espionage,
        perk_horrific,
        perk_leader,
        perk_leadership,
        perk_limits,
        perk_mode,
        perk_movement,
        perk_nightmare,
        perk_residue,
        perk_respawn,
        perk_stealth,
        perk_summon,
        perk_tactical,
        perk_undead,
        perk_velocity,
    )

    perk_deployment.register_hooks(reg)  # Recon
    perk_movement.register_hooks(reg)  # Nonstop, Charge, Thrust
    perk_leadership.register_hooks(reg)  # Orders, Egotistical, Avenge, Despair
    perk_affliction.register_hooks(reg)  # Plague, Spread, Wild Instinct (lane c)
    perk_limits.lane_b_hooks(reg, restore_hp)  # Crew, Formation, Malfunction, HP Steal (lane b)
    perk_tactical.register_hooks(reg)  # Momentum, Disarm (lane a)
    perk_defensive.register_hooks(reg)  # Immortal (lane a)
    perk_stealth.register_hooks(reg)  # Stealth (issue 11, session 13)
    perk_velocity.register_hooks(reg)  # Velocity resets (issue 11, session 13)
    perk_delirium.register_hooks(reg)  # Delirium (issue 11, session 13)
    perk_horrific.register_hooks(reg)  # Horrific (issue 11, session 13)
    perk_espionage.register_hooks(reg)  # Espionage (issue 11, session 13)
    # -- session 25, s25-transform --------------------------------------------------------
    from warbench.rulesets.warsurge.game import perk_ascension, perk_eternal, perk_form, perk_fusion

    perk_ascension.register_hooks(reg)  # Ascension I-III, Descend I-III
    perk_eternal.register_hooks(reg)  # Eternal (Defensive)
    reg.register(  # it goes over the set-up's linked profiles alone (s37)
        Hook.TURN_START, perk_form.hold_linked, "Form: linked profiles held", when=perk_form.links
    )
    reg.register(Hook.DEPLOY, perk_fusion.form_on_deploy, "Fusion formed as it deploys")

    # -- s25-aeon (issue 11, session 25) --
    from warbench.rulesets.warsurge.game import perk_seed

    perk_seed.register_hooks(reg)  # Seed II

    # -- session 25, lane s25-lead (Leadership, Trait, Mode, Limitation) --
    perk_challenger.register_hooks(reg)  # Challenger (L1957)
    perk_respawn.register_hooks(reg)  # Respawn (L4205)
    perk_residue.register_hooks(reg, perk_mode._strike)  # Residue, Vortex (L3481-L3545)
    perk_decoy.register_hooks(reg)  # Decoy I-III (L4161-L4203)
    perk_summon.register_hooks(reg)  # Summon (L4219)
    perk_concealed.register_hooks(reg)  # Concealed (L4147)
    perk_leader.register_hooks(reg)  # Leader (L2017)

    # -- s25-tactical (issue 11, session 25) ----------------------------------------------------
    from warbench.rulesets.warsurge.game import (
        perk_displace,
        perk_grapple,
        perk_trap,
        perk_windows,
    )

    perk_displace.register_hooks(reg)  # Force I-II, Knockback I-II
    perk_grapple.register_hooks(reg)  # Grapple
    perk_windows.register_hooks(reg)  # Preliminary, Postliminary
    perk_trap.register_hooks(reg)  # Trap
    # -- session 25, s25-ability (issue 11) --
    perk_nightmare.register_hooks(reg)  # Nightmare Anomaly (Roster Perk, L4354)
    perk_defect.register_hooks(reg)  # Traitorous (L2313), Enslaved (L1254)
    perk_dominate.register_hooks(reg)  # Dominate (L745)
    perk_undead.register_hooks(reg)  # Undead Legion (Roster Perk, L4386)

    # -- session 25 wave 2, w2-timejump (issue 11) --
    from warbench.rulesets.warsurge.game import casualties, perk_imprison_use

    perk_imprison_use.register_hooks(reg, casualties.place_survivors)  # Imprison (L821)
    # -- session 25, w2-state (issue 11) --
    from warbench.rulesets.warsurge.game import perk_loot, perk_simulacrum

    perk_simulacrum.register_hooks(reg)  # Simulacrum (L4059)
    perk_loot.register_hooks(reg)  # Loot (L3090)

    # -- session 25 wave 2, w2-transport (issue 11) --
    from warbench.rulesets.warsurge.game import perk_crew

    perk_crew.register_hooks(reg)  # Hijack (L1298), Crew III (L1194)

    # -- session 25 wave 2, w2-transform (issue 11) --
    from warbench.rulesets.warsurge.game import perk_incorporeal_use

    perk_incorporeal_use.register_hooks(reg)  # Incorporeal (L2466)
    from warbench.rulesets.warsurge.game import perk_doppelganger

    perk_doppelganger.register_hooks(reg)  # Doppelganger I/II (L2386-L2406)

    # -- session 25 wave 2, w2-illusion (issue 11) --
    from warbench.rulesets.warsurge.game import perk_illusion

    perk_illusion.register_hooks(reg)  # Illusion I-III (L779-L817)
    # -- session 25 wave 2, w2-kernel (issue 11) --
    from warbench.rulesets.warsurge.game import perk_bodyguard

    perk_bodyguard.register_hooks(reg)  # Bodyguard (L1935)

    # -- session 25 wave 2, w3-gateway (issue 11) --
    from warbench.rulesets.warsurge.game import perk_gateway

    perk_gateway.register_hooks(reg)  # Gateway (L4314)

    # -- session 37, s37-speeda (issue 10): the core perk hooks (``perk_hooks``) that go over
    # the set-up's units with their perks alone, fired only where there are some --
    from warbench.rulesets.warsurge.game import perk_revive, perk_turn

    reg.limit(perk_turn.on_turn_start, perk_revive.turn_start_units)
    reg.limit(perk_turn.resurrection, perk_revive.risers)
    reg.limit(perk_limits.forms_at_turn_start, perk_limits._turn_rollers)
    reg.limit(perk_revive.on_casualty, perk_revive._users_of)
