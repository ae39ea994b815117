"""The log paged in on demand (docs/server.md, "A table"): a table opened afresh carries only
its latest events and says from where older ones begin (``earlier``), so opening a table of
10,000 events costs the bytes of a young one; ``GET /events?before=`` pages back to the first
event, each page the seat's own view (``observe`` for that seat), with no gap and no double."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from referee.core import (
    Action,
    ActionSpec,
    Catalogue,
    Choice,
    Event,
    NoParams,
    Procedure,
    register_system,
)
from referee.core.scenario import load_scenario
from referee.core.table import observe
from referee.server.views import OPEN_EVENTS
from tests.server.conftest import Seated, Server
from tests.server.secrets_search import find_leaks, forbidden_for
from tests.server.test_secrets import EXAMPLES, _play


class Ledger(Procedure[int]):
    """A game whose state stays the same size however long it is played: only the log grows."""

    catalogue = Catalogue([ActionSpec("note", NoParams, section="Ledger", record="everyone")])

    def initial_state(self, setup: Mapping[str, Any]) -> int:
        return 0

    def legal_actions(self, state: int, actor: str) -> Sequence[Choice]:
        return (Choice(actor, "note"),)

    def decide(self, state: int, action: Action, dice: Any) -> Sequence[Event]:
        return (Event("noted", {"by": action.actor}),)

    def evolve(self, state: int, event: Event) -> int:
        return state + 1

    def actors(self, state: int) -> Sequence[str]:
        return ("ann", "bob")

    def state_json(self, state: int) -> dict[str, Any]:
        return {"notes": state}

    def visible_state(self, state: int, viewer: Any) -> dict[str, Any]:
        return self.state_json(state)


register_system("ledger", Ledger())


def aged(server: Server, events: int) -> Seated:
    """A ledger of ``events`` events, stored."""
    return server.grown(Ledger(), "ledger", "note", events)


def page_back(
    server: Server, table: Seated, seat: str, before: int | None, limit: int
) -> list[Any]:
    """Every event ``seat`` sees, paged back from ``before`` (from the latest if ``None``)
    ``limit`` at a time, oldest page first, each with its raw bytes."""
    pages: list[Any] = []
    params: dict[str, int] = (
        {"limit": limit} if before is None else {"before": before, "limit": limit}
    )
    while True:
        answer = server.client.get(
            f"/api/tables/{table.id}/events", params=params, headers=table.auth(seat)
        )
        assert answer.status_code == 200, answer.text
        page = answer.json()
        assert len(page["events"]) <= limit
        assert all(e["number"] < page["before"] for e in page["events"])
        pages.insert(0, (page, answer.content))
        if page["earlier"] is None:
            return pages
        params = {"before": page["earlier"], "limit": limit}


def test_opening_an_old_table_costs_the_bytes_of_a_young_one(sqlite_server: Server) -> None:
    sizes = {}
    for events in (100, 10_000):
        table = aged(sqlite_server, events)
        opened = sqlite_server.client.get(f"/api/tables/{table.id}", headers=table.auth("bob"))
        assert opened.status_code == 200
        seen = opened.json()
        assert seen["version"] == events
        assert seen["events"][-1]["number"] == events  # the latest are there
        assert len(seen["events"]) == min(events, OPEN_EVENTS)
        assert seen["state"]["notes"] in (events - 1, events)  # the state whole
        sizes[events] = len(opened.content)
    assert sizes[10_000] <= sizes[100] * 1.5, sizes
    assert sizes[10_000] <= sizes[100] * 1.1, sizes  # the aim: about the same


def test_the_events_page_back_to_the_first_with_no_gap_and_no_double(
    sqlite_server: Server,
) -> None:
    table = aged(sqlite_server, 10_000)
    opened = sqlite_server.client.get(f"/api/tables/{table.id}", headers=table.auth("bob")).json()
    assert opened["earlier"] == opened["events"][0]["number"] == 10_000 - OPEN_EVENTS + 1
    assert opened["since"] == opened["earlier"] - 1
    pages = page_back(sqlite_server, table, "bob", opened["earlier"], 1_000)
    assert pages[0][0]["earlier"] is None
    numbers = [e["number"] for page, _ in pages for e in page["events"]]
    numbers += [e["number"] for e in opened["events"]]
    assert numbers == list(range(1, 10_001))
    actions = [a["number"] for page, _ in pages for a in page["actions"]]
    actions += [a["number"] for a in opened["actions"]]
    assert actions == [a["number"] for a in sqlite_server.store.export(table.id)["actions"]]


def test_a_seat_asking_since_gets_every_event_it_missed(sqlite_server: Server) -> None:
    table = aged(sqlite_server, 1_000)
    seen = sqlite_server.client.get(
        f"/api/tables/{table.id}", params={"since": 10}, headers=table.auth("bob")
    ).json()
    assert [e["number"] for e in seen["events"]] == list(range(11, 1_001))
    assert seen["earlier"] is None


@pytest.mark.parametrize(
    "params",
    [{"before": 0}, {"before": "x"}, {"limit": 0}, {"limit": 100_000}, {"before": -3}],
)
def test_a_bad_page_is_a_422(sqlite_server: Server, params: dict[str, Any]) -> None:
    table = aged(sqlite_server, 10)
    answer = sqlite_server.client.get(
        f"/api/tables/{table.id}/events", params=params, headers=table.auth("bob")
    )
    assert answer.status_code == 422
    assert answer.json()["error"]["code"] == "invalid"


def test_the_events_route_opens_no_table_without_a_seat(sqlite_server: Server) -> None:
    table = aged(sqlite_server, 10)
    answer = sqlite_server.client.get(
        f"/api/tables/{table.id}/events", headers={"Authorization": "Bearer nobody"}
    )
    assert answer.status_code == 401


@pytest.mark.parametrize(
    "example", ["intrigue/perception-envelopes", "kingdoms/artha-and-the-tie-breaker"]
)
def test_each_page_is_the_seats_own_view_and_no_other_seats_secret(
    sqlite_server: Server, example: str
) -> None:
    *_, table = _play(load_scenario(EXAMPLES / f"{example}.yaml"))
    created = sqlite_server.store.import_record(table.to_record(), name=example)
    seated = Seated(created.id, dict(created.tokens))
    checked = 0
    for seat in created.tokens:
        pages = page_back(sqlite_server, seated, seat, None, 3)
        assert len(pages) > 1
        whole = observe(table, seat).to_json()
        assert [e for page, _ in pages for e in page["events"]] == whole["events"]
        assert [a for page, _ in pages for a in page["actions"]] == whole["actions"]
        forbidden = forbidden_for(table, seat)
        checked += len(forbidden)
        leaks = find_leaks([("events", body) for _, body in pages], forbidden)
        assert not leaks, f"{example}, seat {seat}:\n" + "\n".join(leaks[:20])
    assert checked > 0  # there were secrets to look for


def test_an_undo_on_an_old_table_answers_and_pushes_its_latest_events(
    sqlite_server: Server,
) -> None:
    import json

    from tests.server.test_secrets import receive

    table = aged(sqlite_server, 1_000)
    url = f"/api/tables/{table.id}/live?since={table.version}"
    with sqlite_server.client.websocket_connect(url, headers=table.auth("bob")) as ws:
        receive(ws)  # the socket's first message: nothing new
        undone = sqlite_server.client.post(
            f"/api/tables/{table.id}/undo", headers=table.auth("referee"), json={"version": 1_000}
        )
        assert undone.status_code == 200, undone.text
        pushed = json.loads(receive(ws)["text"])
    answer = undone.json()
    opened = sqlite_server.client.get(
        f"/api/tables/{table.id}", headers=table.auth("referee")
    ).json()
    assert answer["reset"] and answer["version"] == 999
    assert [e["number"] for e in answer["events"]] == list(range(900, 1_000))
    assert answer["earlier"] == 900 and answer["events"] == opened["events"]
    assert pushed["type"] == "observation" and pushed["reset"]  # a page, not the log in pages
    assert [e["number"] for e in pushed["events"]] == list(range(900, 1_000))
    assert pushed["earlier"] == 900
