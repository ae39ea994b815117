"""Referee: a rules engine and referee's toolkit for five tabletop games.

Layers, from the bottom: :mod:`referee.dice` (notation, rolls, exact odds),
:mod:`referee.core` (checks, procedures, events, visibility, clock, scenarios),
:mod:`referee.systems` (one package per game), and the interfaces (:mod:`referee.cli`).
"""

__version__ = "0.1.0"
