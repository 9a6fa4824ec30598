"""The Collision grid game on the game protocol (``003_fc239e71486306e1.txt``), registered as
ruleset ``collision`` (docs/collision-game.md).

Files follow the book: ``board`` (the battlefield, facing, line of sight and cover),
``setup`` (starting a pick-up game, sides, zones, deployment), ``turns`` (maintenance, phases,
activation, the recovery step, the end phase), ``actions`` (the action step and the special
actions), ``movement``, ``attacks`` (on the one attack kernel, ``collision.attack``),
``reactions``, ``abilities`` (the glossary's effects table), ``objectives`` (tokens and
scoring), ``victory``; ``core`` (shared context), ``state`` (state and actions), ``protocol``
(the ruleset), ``ai`` (the scripted player), ``render`` (text and SVG boards).
"""
