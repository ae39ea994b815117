"""No player's handout holds a value that only the referee's view of the table holds."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from referee.core.table import Table, observe
from referee.handouts import render_handouts
from tests.handouts.conftest import example_table
from tests.handouts.pdftext import all_text

WITH_A_REFEREE = [
    "intrigue/perception-envelopes.yaml",
    "intrigue/contingency-envelopes.yaml",
    "intrigue/lady-rich.yaml",
    "intrigue/scarface-and-krockin.yaml",
    "ginlane/ambush.yaml",
    "zweihander/complex-exchange.yaml",
    "hursagmu/thief-and-sleeper.yaml",
]


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def secrets_kept_off_players_handouts(table: Table[Any]) -> int:
    """Search every player's handouts for each string of the referee's state that player's
    observation does not hold; fail on the first found. Returns how many were searched."""
    everything = observe(table, "referee").to_json()["state"]
    checked = 0
    for seat in table.seats:
        if seat.is_referee:
            continue
        seen = json.dumps(observe(table, seat.id).to_json(), ensure_ascii=False)
        secrets = {s for s in _strings(everything) if len(s) >= 4 and s not in seen}
        text = " ".join(all_text(pdf) for pdf in render_handouts(table, seat.id).values())
        for secret in secrets:
            assert " ".join(secret.split()) not in text, (seat.id, secret)
            checked += 1
    return checked


@pytest.mark.parametrize("example", WITH_A_REFEREE)
def test_every_secret_value_stays_off_a_players_handouts(example: str) -> None:
    checked = secrets_kept_off_players_handouts(example_table(example))
    if example.startswith("intrigue/perception"):
        assert checked > 0  # the envelopes' contents are secrets here
