"""Perk effects for WARSURGE (Book 2 ``000_94ecc6a4c74d351b.txt`` §12.1-§12.6).

Perks as data over a handful of effect kinds (:mod:`.model`), one stacking algebra in the
book's order (:mod:`.algebra`), the tests perks call for (:mod:`.rolls`), statuses with
durations and the end of a Game Turn (:mod:`.statuses`), the reviewed table of all 386 ranks
(:mod:`.table`, ``data/effects.json``), the rules that read it for a unit (:mod:`.runtime`)
and which ranks are played by a game-level test (:mod:`.coverage`). Nothing here imports the
game: the game calls it through its hook points (``game/hooks.py``, ``game/perk_effects.py``).
"""
