"""Wilderness travel rules, Stretches: a route divided into Stretches (Short, Medium, Long and
their days of travel), setting out, each Stretch's end, journey's end."""

from __future__ import annotations

from referee.systems.zweihander.events import JOURNEY_STARTED

from .helpers import _line


def test_the_log_names_a_journeys_travellers_and_stretches_in_order() -> None:
    """Wilderness travel: a journey is its travellers and its Stretches, in order."""
    assert (
        _line(
            JOURNEY_STARTED,
            travellers=["anna", "bert"],
            stretches=[{"name": "the Moor", "days": 2}, {"name": "the Pass"}],
        )
        == "A journey begins for Anna, Bert: the Moor, the Pass."
    )
