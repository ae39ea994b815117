"""Whole-encounter odds: exact where the state space allows, simulated where it does not.

- :mod:`referee.sim.exact`: exact models of each game's main conflict, as fractions;
- :mod:`referee.sim.simulate`: encounters played through the real procedures with policies;
- :mod:`referee.sim.fast`: the Intrigue duel vectorised with NumPy;
- :mod:`referee.sim.stats`: estimates with 95% intervals.

It stands on the table contract alone: games are reached through the registry and the tables'
procedures, never imported (``pyproject.toml``, import-linter). See ``docs/simulate.md``.
"""
