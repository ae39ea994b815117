"""An event's tag (the digest a seat sends back with ``since``) is worked out once for every seat
that sees the event alike, not once a seat (issue 29). Counted, never timed; the tags are the
ones :func:`~referee.server.views.observation` gives each seat on its own."""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import Action
from referee.core.registry import system
from referee.core.table import Table
from referee.dice import ScriptedSource
from referee.server import views
from referee.server.views import ObservationCache, observation

SEATS = ("referee", "scarface", "krockin", "lady")
RALLIES = 8


def _table() -> Table[Any]:
    import tests.core.toy_procedure  # noqa: F401

    setup = {"characters": {"scarface": {"skill": 10}, "krockin": {}, "lady": {}}}
    return system("kernel_toy").new_table(setup)


def test_a_public_event_is_digested_once_for_every_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    table = _table()
    cache = ObservationCache()
    for seat in SEATS:
        cache.observation(table, "t", seat, table.version)
    digests: list[str] = []
    digest = views._json_tag

    def counted(event: dict[str, Any]) -> str:
        digests.append(str(event["number"]))
        return digest(event)

    monkeypatch.setattr(views, "_json_tag", counted)
    for _ in range(RALLIES):
        before = table.version
        table = table.act(Action("krockin", "rally", {"dice": 2}), ScriptedSource([3, 6, 2]))
        for seat in SEATS:
            seen = cache.observation(table, "t", seat, before)
            monkeypatch.setattr(views, "_json_tag", digest)
            assert seen == observation(table, "t", seat, before)  # the same tag, every seat
            monkeypatch.setattr(views, "_json_tag", counted)
    # one digest an event (each rally's last event, the one every seat's tag is of)
    assert len(digests) == RALLIES
    assert len(set(digests)) == RALLIES


def test_a_redacted_event_has_each_view_its_own_tag() -> None:
    table = _table()
    cache = ObservationCache()
    before = table.version
    table = table.act(Action("scarface", "write_slip", {"maneuver": "feint"}), ScriptedSource([]))
    tags = {seat: cache.observation(table, "t", seat, before)["tag"] for seat in SEATS}
    assert tags == {seat: observation(table, "t", seat, before)["tag"] for seat in SEATS}
    assert len(set(tags.values())) > 1  # the slip's writer sees it, the others see it sealed
