"""Names in the log, found (issue 26): the ids an event mentions get their display names, found
by one walk of the payload per event — in the order they are first met, wherever they sit (a key, a
value, a list, a tuple, a nested mapping), and the same as the plain recursive walk the names
were first found by (issue 31 made the walk cheaper, not different)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType
from typing import Any, NamedTuple

from referee.core.events import Event, Secret, only
from referee.core.naming import NAMES, _named, with_names

ROSTER = {"ann": "Ann", "bob": "Bob the Bold", "cid": "Cid", "dot": "Dot"}


def _plain(value: Any, found: dict[str, str]) -> None:
    """The first walk, as it was written before issue 31: a reference to hold the fast one to."""
    if isinstance(value, str):
        if value in ROSTER:
            found[value] = ROSTER[value]
    elif isinstance(value, Mapping):
        for key, inner in value.items():
            if key in ROSTER:
                found[key] = ROSTER[key]
            _plain(inner, found)
    elif isinstance(value, list | tuple):
        for inner in value:
            _plain(inner, found)


def _payload(rng: random.Random, depth: int = 0) -> Any:
    leaves = [*ROSTER, "eve", "", 0, 1, True, False, None, 2.5, "ann's"]
    roll = rng.random()
    if depth > 3 or roll < 0.4:
        return rng.choice(leaves)
    if roll < 0.6:
        return [_payload(rng, depth + 1) for _ in range(rng.randrange(4))]
    if roll < 0.7:
        return tuple(_payload(rng, depth + 1) for _ in range(rng.randrange(4)))
    keys = [*ROSTER, "who", "target", "n"]
    made = {rng.choice(keys): _payload(rng, depth + 1) for _ in range(rng.randrange(4))}
    return MappingProxyType(made) if roll < 0.75 else made


def test_the_names_an_event_carries_are_those_of_the_plain_walk_in_the_same_order() -> None:
    rng = random.Random(31)
    for _ in range(2_000):
        payload = {f"k{i}": _payload(rng) for i in range(rng.randrange(1, 5))}
        expected: dict[str, str] = {}
        for value in payload.values():
            _plain(value, expected)
        found = _named(payload.items(), ROSTER)
        assert list(found.items()) == list(expected.items())
        named = with_names(Event("x.happened", payload), ROSTER)
        if expected:
            assert list(named.payload[NAMES].items()) == list(expected.items())  # type: ignore[union-attr]
            assert {k: v for k, v in named.payload.items() if k != NAMES} == payload
        else:
            assert named.payload == payload


def test_a_name_is_found_as_a_key_in_a_list_in_a_tuple_and_in_a_nested_mapping() -> None:
    event = Event(
        "attack.rolled",
        {"n": 3, "by": {"dot": 1}, "targets": ["cid", ("bob", 2)], "roll": {"who": {"x": "ann"}}},
    )
    assert with_names(event, ROSTER).payload[NAMES] == {
        "dot": "Dot",
        "cid": "Cid",
        "bob": "Bob the Bold",
        "ann": "Ann",
    }


def test_a_value_of_no_json_kind_is_passed_over_as_the_plain_walk_passes_it() -> None:
    odd = frozenset({"bob"})  # not a string, a list, a tuple or a mapping: read as nothing
    event = Event("x.happened", {"who": "ann", "odd": odd, "deep": {"cid": odd}})
    expected: dict[str, str] = {}
    _plain(dict(event.payload), expected)
    assert with_names(event, ROSTER).payload[NAMES] == expected == {"ann": "Ann", "cid": "Cid"}


def test_an_id_given_in_a_kind_of_string_or_of_tuple_is_found_as_in_the_plain_one() -> None:
    class Who(StrEnum):  # a str, though not exactly one: the walk's isinstance branch takes it
        BOB = "bob"
        CID = "cid"

    class Pair(NamedTuple):  # a tuple, though not exactly one
        who: str
        n: int

    event = Event(
        "x.happened",
        {"who": Who.BOB, "deep": [{"by": Who.CID}], "also": "ann", "pair": Pair("dot", 2)},
    )
    expected: dict[str, str] = {}
    _plain(dict(event.payload), expected)
    assert with_names(event, ROSTER).payload[NAMES] == expected
    assert expected == {"bob": "Bob the Bold", "cid": "Cid", "ann": "Ann", "dot": "Dot"}


def test_an_event_that_mentions_nobody_is_the_event_itself_and_a_named_one_a_copy() -> None:
    quiet = Event("clock.ticked", {"n": 3, "why": "eve", "list": [1, None, 2.5]})
    assert with_names(quiet, ROSTER) is quiet
    loud = Event("hit", {"target": "ann"}, number=4, at=7, cause=2)
    named = with_names(loud, ROSTER)
    assert named is not loud and loud.payload == {"target": "ann"}  # the event is unchanged
    assert (named.number, named.at, named.cause, named.kind) == (4, 7, 2, "hit")
    assert named.payload == {"target": "ann", NAMES: {"ann": "Ann"}}


def test_a_name_only_a_secret_part_mentions_is_a_secret_part_with_that_audience() -> None:
    slip = Event(
        "slip.written", {"faction": "ann"}, secrets=(Secret("slip", ["bob", "ann"], only("ann")),)
    )
    named = with_names(slip, ROSTER)
    assert named.payload[NAMES] == {"ann": "Ann"}
    assert [(s.name, s.value, s.audience) for s in named.secrets[1:]] == [
        ("slip_names", {"bob": "Bob the Bold"}, only("ann"))
    ]
