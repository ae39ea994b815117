"""Print-ready handouts (PDF) for a table: badges, envelopes, sheets and slips.

DESIGN.md, "Interfaces": ``referee.handouts`` reads a table only through
:func:`~referee.core.table.observe` for the seat the handouts are for, so a player's handout
cannot hold another seat's secret: the referee seat gets everything its game prints, a player
their own sheets. :func:`render_handouts` is the one entry point (the command line's
``referee handouts`` and the web table's download call it).

What a game prints from its rules — its maneuvers, its condition tracks, its tables — comes from
the game itself, through the registry (:meth:`~referee.core.registry.System.load_handout_data`),
never from a copy here. A game's layout is the module ``referee.handouts.<system>`` when there
is one (a function ``render(observation, game, paper)``); any other game, a sixth one
installed on its own included, prints the generic handout (:mod:`referee.handouts.generic`):
the seat's sheets as ``observe`` shows them and a card of the actions its catalogue offers.

>>> from referee.core.registry import system
>>> table = system("intrigue").new_table(
...     {"characters": {"kit": {"name": "Kit", "number": "07"}}}, players={"ann": ["kit"]})
>>> sorted(render_handouts(table, "ann"))
['badges.pdf', 'character-sheets.pdf']
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Mapping
from typing import Any, cast

from referee.core.errors import ScenarioError
from referee.core.registry import System, system
from referee.core.table import Table, observe
from referee.handouts import generic

__all__ = ["PAPERS", "layout", "render_handouts"]

#: The paper sizes handouts print on.
PAPERS = ("a4", "letter")

Layout = Callable[[Mapping[str, Any], System, str], dict[str, bytes]]
"""A game's handouts: (the seat's observation as JSON, the game, paper) → file name → PDF."""


def layout(name: str) -> Layout:
    """The handouts' layout of the game ``name``: its module's ``render`` if
    ``referee.handouts.<name>`` has one, the generic handout otherwise.

    >>> layout("kingdoms").__module__, layout("toy").__module__
    ('referee.handouts.kingdoms', 'referee.handouts.generic')
    """
    module_name = f"{__name__}.{name}"
    try:
        found = importlib.util.find_spec(module_name) is not None
    except (ImportError, ValueError):
        found = False
    if not found:
        return generic.render
    module = importlib.import_module(module_name)
    return cast(Layout, getattr(module, "render", generic.render))


def render_handouts(table: Table[Any], seat: str, paper: str = "a4") -> dict[str, bytes]:
    """The handouts of ``seat`` at ``table``: file name → PDF bytes, on ``paper`` (a4|letter).

    Only what ``observe(table, seat)`` shows is printed, beside what the game's own tables
    give every seat alike.
    """
    if paper not in PAPERS:
        raise ValueError(f"paper {paper!r} is not one of {', '.join(PAPERS)}")
    observation = observe(table, seat).to_json()
    return layout(table.system)(observation, _game(table), paper)


def _game(table: Table[Any]) -> System:
    """The game the table plays, from the registry; a table started on a procedure no one
    registered is a game of that procedure alone (no handout data)."""
    try:
        return system(table.system)
    except ScenarioError:
        return System(table.system, table.system or "A game", table.procedure)
