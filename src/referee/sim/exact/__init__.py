"""Exact whole-exchange odds, one module per game's main conflict (docs/simulate.md).

Each model reads what it needs from a table through the table contract (the game's own odds
previews, its state, its events when dice are forced), so the rules are never copied here.
"""
