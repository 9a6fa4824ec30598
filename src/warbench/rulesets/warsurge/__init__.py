"""WARSURGE (Core Rules + Perks) on top of the ruleset-agnostic kernel."""

RULESET_VERSION = "warsurge-core-1.0/perks-1.0+warbench.1"
