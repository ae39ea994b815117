"""Whole-encounter odds: exact where a game's model gives them, simulated where it does not.

- :mod:`referee.sim.simulate`: encounters played through the real procedures with policies;
- :mod:`referee.sim.answer`: the simulation and the exact odds beside it, for an interface;
- :mod:`referee.sim.conflicts`: every game's main conflict, from the registry;
- :mod:`referee.sim.stats`: estimates with 95% intervals;
- :mod:`referee.sim.plot`: a chart of an answer.

It stands on the table contract alone: games are reached through the registry and the tables'
procedures, never imported (``pyproject.toml``, import-linter), and no game is named here
(``tests/sim/test_names_no_game.py``). Each game offers its conflicts and their exact models
in its own package (``System.simulations``; :mod:`referee.core.simulation`). See
``docs/simulate.md``.
"""
