"""The WarEngine 2.1 game (004_f4ea5693af0644ce.txt L285-L633) on the game protocol.

Files follow the book: :mod:`.setup` (forces, the stage, placing), :mod:`.activation`
(initiative, conflict, activation, deactivate, the end of the turn), :mod:`.control`
(leaders, Check Control), :mod:`.movement` (Move, Fast Moves, Charging, leaving close combat),
:mod:`.board` and :mod:`.measure` (line of sight, cover, distances), :mod:`.attacks`
(targeting, the adjustment charts, Massed Attacks, firing into close combat, Special Powers),
:mod:`.resolution` (Hero Points, resolving attacks, casualties), :mod:`.area` (Area Effect
weapons), :mod:`.reserve` (Reserve, reserved attacks, Lunge), :mod:`.followup`, :mod:`.rout`,
:mod:`.victory`, :mod:`.effects` (the tweaks and powers as data), :mod:`.ai` (candidate
actions, the automatic play) and :mod:`.protocol` (``WarEngineRuleset``, registered as
``warengine``).
"""
