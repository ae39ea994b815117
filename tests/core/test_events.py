"""Events, the log and visibility: JSON round trip; no secret reaches a viewer not allowed it."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.core import (
    EVERYONE,
    PUBLIC,
    REFEREE,
    REFEREE_ONLY,
    Audience,
    Event,
    Log,
    Secret,
    Viewer,
    only,
    view,
)

PEOPLE = ["alice", "bob", "scarface", "krockin", "elves"]
PLAYERS = {"alice": frozenset({"scarface"}), "bob": frozenset({"krockin", "elves"})}
VIEWERS = [Viewer(REFEREE), Viewer(PUBLIC)] + [
    Viewer(p, PLAYERS.get(p, frozenset())) for p in PEOPLE
]

audiences = st.one_of(
    st.just(EVERYONE),
    st.just(REFEREE_ONLY),
    st.frozensets(st.sampled_from(PEOPLE), min_size=1, max_size=3).map(
        lambda s: Audience(viewers=s)
    ),
)


@st.composite
def events(draw: st.DrawFn) -> Event:
    payload = {f"p{i}": "PUB" for i in range(draw(st.integers(0, 2)))}
    secrets = tuple(
        Secret(f"s{i}", "SECRET", draw(audiences)) for i in range(draw(st.integers(0, 3)))
    )
    return Event(draw(st.sampled_from(["a.b", "c"])), payload, draw(audiences), secrets)


def tokenised(evs: list[Event]) -> list[Event]:
    """Every value a unique token, so that a leak shows up as a token in the JSON."""
    return [
        Event(
            e.kind,
            {k: f"PUB-{i}-{k}" for k in e.payload},
            e.audience,
            tuple(Secret(s.name, f"SECRET-{i}-{s.name}", s.audience) for s in e.secrets),
        )
        for i, e in enumerate(evs)
    ]


def may_see(viewer: Viewer, audience: Audience) -> bool:
    return viewer.id == REFEREE or audience.everyone or bool(audience.viewers & viewer.identities)


@settings(max_examples=200)
@given(st.lists(events(), max_size=8))
def test_no_event_or_part_a_viewer_may_not_see_appears_in_their_view(evs: list[Event]) -> None:
    log = Log().append(*tokenised(evs))
    for viewer in VIEWERS:
        seen = view(log, viewer)
        text = json.dumps([e.to_json() for e in seen])
        for event in log:
            event_ok = may_see(viewer, event.audience)
            assert (event.number in {e.number for e in seen}) == event_ok
            for value in event.payload.values():
                assert (f'"{value}"' in text) == event_ok
            for secret in event.secrets:
                allowed = event_ok and may_see(viewer, secret.audience)
                assert (f'"{secret.value}"' in text) == allowed
        for e in seen:
            assert set(e.redacted).isdisjoint(e.data)


@settings(max_examples=100)
@given(st.lists(events(), max_size=6))
def test_log_json_round_trip(evs: list[Event]) -> None:
    log = Log().append(*evs)
    text = json.dumps(log.to_json())
    assert Log.from_json(json.loads(text)) == log


def test_log_numbers_and_is_append_only() -> None:
    log = Log().append(Event("a"))
    longer = log.append(Event("b"), Event("c"))
    assert [e.number for e in longer] == [1, 2, 3]
    assert len(log) == 1  # the old log is unchanged
    assert longer.without_last(2) == log
    with pytest.raises(ValueError):
        longer.without_last(-1)


def test_a_player_sees_what_their_characters_see() -> None:
    log = Log().append(
        Event("envelope.read", {"who": "scarface"}, only("scarface")),
        Event("aside", {}, only("alice")),
        Event("referee.note", {}, REFEREE_ONLY),
    )
    alice = Viewer("alice", frozenset({"scarface"}))
    assert [e.kind for e in view(log, alice)] == ["envelope.read", "aside"]
    assert [e.kind for e in view(log, "scarface")] == ["envelope.read"]
    assert [e.kind for e in view(log, PUBLIC)] == []
    assert len(view(log, REFEREE)) == 3


def test_secret_names_cannot_clash_with_the_payload() -> None:
    with pytest.raises(ValueError, match="clash"):
        Event("x", {"target": 1}, secrets=(Secret("target", 2),))


def test_audience_json() -> None:
    assert Audience.from_json("everyone") == EVERYONE
    assert Audience.from_json([]) == REFEREE_ONLY
    assert Audience.from_json(["b", "a"]).to_json() == ["a", "b"]
    with pytest.raises(ValueError):
        Audience.from_json(3)
