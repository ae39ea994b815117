"""Events, the log and visibility (docs/kernel.md, "Events and the log", "Visibility"): JSON round
trip; no secret reaches a viewer not allowed it; events told in words."""

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
    Action,
    Audience,
    Event,
    Log,
    Secret,
    Table,
    Viewer,
    observe,
    only,
    view,
)
from referee.core.clock import cancel_timer
from referee.core.fairness import DiceSeeds, reveal_params
from referee.core.table import narrate
from referee.dice import ScriptedSource
from referee.dice.fairness import commitment

from .test_table import SETUP
from .toy_procedure import PROCEDURE

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


# -- events told in words ------------------------------------------------------------------------


def test_the_kernels_own_events_are_narrated_in_words() -> None:
    """Events and the log (docs/kernel.md): the kernel narrates its own kinds — a timer set
    (due at the time it was set plus its delay, on the wall clock), a timer cancelled, the dice
    sealed (the first 16 digits of the commitment), a seat's own seed, a seed revealed."""
    table = Table.start(
        PROCEDURE, SETUP, system="kernel_toy", players={"alice": ["scarface"]}, start="19:00"
    ).advance(600)
    perceived = table.act(
        Action("scarface", "perceive", {"target": "krockin"}), ScriptedSource([6, 6, 6])
    )
    timer = next(e for e in perceived.view(REFEREE) if e.kind == "timer.set" and e.at == 600)
    referee = perceived.viewer(REFEREE)
    assert narrate(perceived, timer, referee) == "Timer cooldown:scarface:krockin is set for 19:25."
    assert narrate(table, cancel_timer("alarm"), referee) == "Timer alarm is cancelled."

    seeds = DiceSeeds("t-1", (bytes([1]) * 32,))
    fair = Table.start(
        PROCEDURE, SETUP, system="kernel_toy", players={"alice": ["scarface"]}, dice=seeds
    )
    fair = fair.act(Action("alice", "seed_dice", {"seed": "lucky"}), None, seat="alice")
    params, after = reveal_params(seeds)
    fair = fair.act(Action(REFEREE, "reveal_dice", params), None, seat=REFEREE)
    said = observe(fair, "alice").narration
    assert (
        "The dice are sealed: every face of epoch 0 comes from a seed whose SHA-256 is "
        f"{commitment(bytes([1]) * 32)[:16]}…"
    ) in said
    assert "alice mixes a seed of their own into the dice." in said
    assert (
        "The dice seed of epoch 0 is revealed: every face rolled with it can now be checked "
        "('referee verify')."
    ) in said
    assert (
        "The dice are sealed: every face of epoch 1 comes from a seed whose SHA-256 is "
        f"{commitment(after.current)[:16]}…"
    ) == said[-1]


def test_an_event_a_game_does_not_narrate_is_told_by_its_kind_and_data() -> None:
    """Events and the log: a game narrates each kind of its vocabulary; one it does not is told
    as its kind and its data, or its kind alone when it has none."""
    viewer = Viewer(REFEREE)
    said = PROCEDURE.describe(Event("alarm.rang", {"says": "nine o'clock", "loud": 2}), viewer)
    assert said == 'alarm.rang: says="nine o\'clock", loud=2'
    assert PROCEDURE.describe(Event("alarm.rang"), viewer) == "alarm.rang"
