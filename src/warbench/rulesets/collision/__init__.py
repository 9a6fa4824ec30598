"""Collision (``003_fc239e71486306e1.txt``): character cards, battle groups, the abilities
glossary and exact attack odds. The grid game comes with the game protocol (issue 17).

Submodules are imported on use (start-up, issue 18): ``glossary`` (abilities glossary),
``models`` and ``io`` (cards, battle groups), ``validation`` (battle-group limits),
``dice`` (D10s), ``attack`` and ``odds`` (one attack, exact odds), ``objectives``,
``deployment`` (zones), ``card`` (printable HTML).
"""
