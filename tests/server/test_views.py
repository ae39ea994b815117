"""A seat's observation cut from its whole one is exactly ``observe(since=...)``'s, tag and all."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from referee.core import Action
from referee.core.registry import system
from referee.core.table import Table
from referee.dice import ScriptedSource
from referee.server.views import ObservationCache, observation


def toy_table() -> Table[Any]:
    """A toy table with public, private and secret events, and an undo in its past."""
    setup = {"characters": {"scarface": {"skill": 10}, "krockin": {}, "lady": {}}}
    table = system("kernel_toy").new_table(setup)
    steps = [
        (Action("scarface", "perceive", {"target": "krockin"}), [6, 6, 6]),
        (Action("scarface", "write_slip", {"maneuver": "feint"}), []),
        (Action("lady", "recall", {"chance": 40}), [12]),
        (Action("krockin", "note", {"text": "hm"}), []),
        (Action("krockin", "rally", {"dice": 2}), [3, 6, 2]),
    ]
    for action, faces in steps:
        table = table.act(action, ScriptedSource(faces))
    return table


def test_every_cut_of_the_whole_observation_is_observes_own() -> None:
    import tests.core.toy_procedure  # noqa: F401

    table = toy_table()
    cache = ObservationCache()
    for seat in ("referee", "scarface", "krockin", "lady"):
        for since in range(table.version + 2):
            right = observation(table, "t", seat, since)["tag"]
            for tag in (None, right, "wrong"):
                expected = observation(table, "t", seat, since, tag)
                assert cache.observation(table, "t", seat, since, tag) == expected, (seat, since)


def test_a_tag_from_before_an_undo_is_a_reset() -> None:
    import tests.core.toy_procedure  # noqa: F401

    table = toy_table()
    held = observation(table, "t", "krockin", 0)
    rewritten = table.undo(2).act(
        Action("krockin", "rally", {"dice": 1}), ScriptedSource([1, 1, 1, 1, 1, 1])
    )
    cache = ObservationCache()
    seen = cache.observation(rewritten, "t", "krockin", held["version"], held["tag"])
    assert seen["reset"] and seen["since"] == 0
    assert seen == observation(rewritten, "t", "krockin", held["version"], held["tag"])


def test_the_table_cache_keeps_no_read_that_raced_a_change() -> None:
    from referee.server.state import TableCache

    table = toy_table()
    cache = TableCache()
    assert cache.get("t") == (None, 0)
    cache.put("t", table, 0)
    assert cache.get("t")[0] is None  # not trusted: no LISTEN connection yet
    cache.trust(True)
    _, generation = cache.get("t")
    cache.put("t", table, generation)
    assert cache.get("t")[0] is table
    _, generation = cache.get("t")
    cache.changed("t")  # a notification while a read was under way
    cache.put("t", table, generation)
    assert cache.get("t")[0] is None
    _, generation = cache.get("t")
    cache.put("t", table, generation)
    cache.trust(False)  # the connection dropped: nothing is trusted
    assert cache.get("t")[0] is None


def test_a_grown_tables_observation_is_built_from_the_last_one_to_the_byte() -> None:
    import json

    import tests.core.toy_procedure  # noqa: F401

    table = toy_table()
    cache = ObservationCache()
    seats = ("referee", "scarface", "krockin", "lady")
    steps = [
        (Action("krockin", "rally", {"dice": 1}), [2, 6, 3]),
        (Action("krockin", "write_slip", {"maneuver": "feint"}), []),
        (Action("lady", "write_slip", {"maneuver": "assault"}), []),
        (Action("scarface", "note", {"text": "the lady lies"}), []),
        (Action("lady", "perceive", {"target": "scarface"}), [1, 1, 1]),
    ]
    tables = [table]
    for action, faces in steps:
        tables.append(tables[-1].act(action, ScriptedSource(faces)))
    tables.append(tables[-1].undo(2))  # rewritten: built again from the first event
    tables.append(tables[-1].act(Action("lady", "recall", {"chance": 90}), ScriptedSource([7])))
    for before, after in pairwise(tables):
        for seat in seats:
            cache.observation(before, "t", seat)
            grown = cache.observation(after, "t", seat)
            expected = observation(after, "t", seat)
            assert json.dumps(grown) == json.dumps(expected), seat
            for since in range(after.version + 1):
                tag = observation(after, "t", seat, since)["tag"]
                assert cache.observation(after, "t", seat, since, tag) == observation(
                    after, "t", seat, since, tag
                )
