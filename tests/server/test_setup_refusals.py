"""A setup the game refuses is answered with the path of the bad field in the setup, even where
the setup has a field named like one of the request's own (``start``, ``players``)."""

from __future__ import annotations

import pytest

from tests.server.conftest import Server


@pytest.mark.parametrize(
    ("system", "setup", "where"),
    [
        # Intrigue's setup has the wall clock at game time 0; the request has a start of its own
        (
            "intrigue",
            {"start": "25:99", "characters": {"c": {"number": 40}}},
            ["body", "setup", "start"],
        ),
        # a Kingdoms setup may say how many players there are; the request names its players
        (
            "kingdoms",
            {"players": 0, "factions": {"a": {"disposition": 3, "leader": {}}}},
            ["body", "setup", "players"],
        ),
    ],
)
def test_a_refused_setup_field_named_like_a_request_field_is_placed_in_the_setup(
    server: Server, system: str, setup: dict[str, object], where: list[str]
) -> None:
    answer = server.client.post("/api/tables", json={"system": system, "setup": setup, "name": "t"})
    assert answer.status_code == 422, answer.text
    assert answer.json()["error"]["where"] == where
