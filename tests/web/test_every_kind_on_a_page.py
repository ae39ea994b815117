"""Every action kind of every game's catalogue is offered on some seat's page (issue 28, "All
five"): a kind no page offers is a rule nobody at the table can use.

Each of the game's worked examples (``examples/<game>/*.yaml``) is played as written; before
each of its steps, and at its end, every seat's page is read as the server builds it
(:func:`referee.core.observe`), and the kinds it offers are gathered. A kind of the catalogue
that no page offered at any moment of any example fails, named. The seats are the example's
players and the referee; a kind the example never reaches counts only if some page offers it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from referee.core import Action, Table, observe
from referee.core.errors import RefereeError
from referee.core.registry import system as get_game
from referee.core.scenario import load_scenario, start_table

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
GAMES = ("ginlane", "hursagmu", "intrigue", "kingdoms", "zweihander")


def offered(table: Table[Any]) -> set[str]:
    """The kinds every seat's page of ``table`` offers now."""
    return {c.kind for seat in table.seats for c in observe(table, seat.id).choices}


def kinds_on_pages(game: str) -> set[str]:
    """The kinds offered on some seat's page at some moment of ``game``'s worked examples."""
    seen: set[str] = set()
    for path in sorted((EXAMPLES / game).glob("*.yaml")):
        scenario = load_scenario(path)
        table = start_table(scenario)
        dice = scenario.dice.source()
        for step in scenario.actions:
            seen |= offered(table)
            at = scenario.time_of(step, table.now)
            try:
                if step.action is None:
                    table = table.advance(at if at is not None else table.now)
                else:
                    action = Action(step.actor or "", step.action, step.params)
                    table = table.act(action, dice, at=at)
            except RefereeError:
                if step.refused is None:
                    raise
        seen |= offered(table)
    return seen


@pytest.mark.parametrize("game", GAMES)
def test_every_kind_of_the_catalogue_is_offered_on_some_page(game: str) -> None:
    catalogue = get_game(game).procedure.catalogue
    assert catalogue, f"{game} has a catalogue"
    missing = sorted(set(catalogue) - kinds_on_pages(game))
    assert not missing, f"{game}: no seat's page offers {', '.join(missing)}"
