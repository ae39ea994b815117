"""Print-ready handouts (PDF) for a table: badges, envelopes, sheets and slips.

DESIGN.md, "Interfaces": ``referee.handouts`` reads a table only through
:func:`~referee.core.table.observe` for the seat the handouts are for, so a player's handout
cannot hold another seat's secret: the referee seat gets everything its game prints, a player
their own sheets. :func:`render_handouts` is the one entry point (the command line's
``referee handouts`` and the web table's download call it).

>>> from referee.core.registry import system
>>> table = system("intrigue").new_table(
...     {"characters": {"kit": {"name": "Kit", "number": "07"}}}, players={"ann": ["kit"]})
>>> sorted(render_handouts(table, "ann"))
['badges.pdf', 'character-sheets.pdf']
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any, cast

from referee.core.table import Table, observe

__all__ = ["GAMES", "PAPERS", "render_handouts"]

#: The paper sizes handouts print on.
PAPERS = ("a4", "letter")

Renderer = Callable[[Mapping[str, Any], str], dict[str, bytes]]


#: The games that print handouts: each has a module ``referee.handouts.<game>`` with ``render``.
GAMES = ("intrigue", "ginlane", "zweihander", "kingdoms", "hursagmu")


def _renderer(system: str) -> Renderer:
    if system not in GAMES:
        raise ValueError(f"no handouts for system {system!r}")
    module = importlib.import_module(f"referee.handouts.{system}")
    return cast(Renderer, module.render)


def render_handouts(table: Table[Any], seat: str, paper: str = "a4") -> dict[str, bytes]:
    """The handouts of ``seat`` at ``table``: file name → PDF bytes, on ``paper`` (a4|letter).

    Only what ``observe(table, seat)`` shows is printed.
    """
    if paper not in PAPERS:
        raise ValueError(f"paper {paper!r} is not one of {', '.join(PAPERS)}")
    observation = observe(table, seat).to_json()
    return _renderer(table.system)(observation, paper)
