"""Godslayer special abilities (``002_bb37dae35014233a.txt``): a searchable catalogue.

The Godslayer core rules are not in the sources, so warbench has no Godslayer game, points
or odds; the catalogue keeps every ability's text, category, parameters, source lines and its
links to related WARSURGE perks and Collision glossary entries (docs/godslayer.md).
"""

from warbench.rulesets.godslayer.catalog import Ability, AbilityCatalog, Category, Link

__all__ = ["Ability", "AbilityCatalog", "Category", "Link"]
