"""Collision (``003_fc239e71486306e1.txt``): character cards, battle groups, the abilities
glossary and exact attack odds. The grid game comes with the game protocol (issue 17).

Submodules are imported on use (start-up, issue 18): ``glossary``, ``models``, ``io``,
``validation``, ``attack``, ``odds``, ``card``.
"""
