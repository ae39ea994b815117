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


# -- an event in JSON ----------------------------------------------------------------------------


def _slip() -> Event:
    from referee.core import Secret, only

    return Event(
        "slip.written",
        {"faction": "elves"},
        audience=only("elves", "orcs"),
        secrets=(Secret("maneuver", "Assault", only("elves")),),
        number=2,
        at=60,
        cause=1,
        redacted=("earlier",),
    )


def test_an_event_in_json_is_its_number_time_cause_kind_audience_payload_secrets_redactions() -> (
    None
):
    assert _slip().to_json() == {
        "number": 2,
        "at": 60,
        "cause": 1,
        "kind": "slip.written",
        "audience": ["elves", "orcs"],
        "payload": {"faction": "elves"},
        "secrets": [{"name": "maneuver", "value": "Assault", "audience": ["elves"]}],
        "redacted": ["earlier"],
    }
    assert Event.from_json(_slip().to_json()) == _slip()


def test_an_event_read_from_json_takes_its_defaults_for_what_it_leaves_out() -> None:
    """An event is everyone's, with no payload, secrets or redactions, number 0 at time 0 and
    caused by no action, unless its JSON says otherwise."""
    event = Event.from_json({"kind": "note.made"})
    assert event == Event("note.made")
    assert (event.payload, event.secrets, event.number, event.at, event.cause) == ({}, (), 0, 0, 0)
    assert event.audience.everyone and event.redacted == ()
    seen = Event.from_json({"kind": "slip.written", "redacted": ["maneuver"], "number": 3})
    assert (seen.redacted, seen.number) == (("maneuver",), 3)


def test_secret_parts_may_not_share_a_name_with_each_other_or_the_payload() -> None:
    from referee.core import Secret

    with pytest.raises(ValueError, match=r"clash with the payload: \{'faction'\}"):
        Event("slip", {"faction": "elves"}, secrets=(Secret("faction", "orcs"),))
    with pytest.raises(ValueError, match=r"clash with the payload: \{'m'\}"):
        Event("slip", secrets=(Secret("m", 1), Secret("m", 2)))
    assert Event("slip", {"a": 1}, secrets=(Secret("b", 2), Secret("c", 3))).data == {
        "a": 1,
        "b": 2,
        "c": 3,
    }


# -- visibility ----------------------------------------------------------------------------------


def test_an_audience_is_everyone_or_its_viewers_and_always_the_referee() -> None:
    """Visibility (docs/kernel.md, "Visibility"): the referee is in every audience; a player
    sees what is shown to them or to a character they play; anything else is not an
    audience."""
    from referee.core import EVERYONE, REFEREE_ONLY, Audience, Viewer, only

    alice = Viewer("alice", frozenset({"scarface"}))
    assert only("scarface").includes(alice) and only("alice").includes(alice)
    assert not only("krockin").includes(alice) and not REFEREE_ONLY.includes("alice")
    assert REFEREE_ONLY.includes(REFEREE) and EVERYONE.includes("anyone")
    assert (EVERYONE.to_json(), REFEREE_ONLY.to_json(), only("b", "a").to_json()) == (
        "everyone",
        [],
        ["a", "b"],
    )
    assert Audience.from_json("everyone") == EVERYONE
    assert Audience.from_json(["b", "a"]) == only("a", "b")
    assert Audience.from_json(("a",)) == only("a")
    for bad in ("nobody", [1], None):
        with pytest.raises(ValueError, match="an audience is 'everyone' or a list"):
            Audience.from_json(bad)


def test_a_viewer_sees_an_event_without_the_secret_parts_they_may_not_see_named_as_redacted() -> (
    None
):
    from referee.core import Log, Viewer, view

    slip = _slip()
    assert slip.seen_by("elves") is slip
    assert slip.seen_by(REFEREE) is slip
    seen = slip.seen_by(Viewer("bob", frozenset({"orcs"})))
    assert seen is not None
    assert (seen.data, seen.redacted) == ({"faction": "elves"}, ("earlier", "maneuver"))
    assert slip.seen_by("dwarves") is None
    log = Log().append(slip, Event("public.note"))
    assert [e.kind for e in view(log, "dwarves")] == ["public.note"]
    assert [e.data for e in view(log, "elves")] == [
        {"faction": "elves", "maneuver": "Assault"},
        {},
    ]


def test_a_viewer_is_told_only_the_names_of_the_secret_parts_hidden_from_them() -> None:
    from referee.core import Secret, only

    event = Event(
        "slips.written",
        secrets=(Secret("elves", "feint", only("elves")), Secret("orcs", "hold", only("orcs"))),
    )
    seen = event.seen_by("orcs")
    assert seen is not None
    assert (seen.data, seen.redacted) == ({"orcs": "hold"}, ("elves",))


# -- the log -------------------------------------------------------------------------------------


def test_a_log_numbers_each_event_after_the_last_and_reads_those_since_a_number() -> None:
    from referee.core import Log

    log = Log([Event("a", number=1)]).append(Event("b"), Event("c"))
    assert [(e.number, e.kind) for e in log] == [(1, "a"), (2, "b"), (3, "c")]
    stamped = log.append_stamped(Event("d"), at=90, cause=4)
    assert (stamped[-1].number, stamped[-1].at, stamped[-1].cause, len(stamped)) == (4, 90, 4, 4)
    assert [e.kind for e in stamped.since(2)] == ["c", "d"]
    assert [e.kind for e in stamped.since(-3)] == ["a", "b", "c", "d"]
    assert Log.from_json(stamped.to_json()) == stamped
    assert Event("e").stamped(number=7, at=5) == Event("e", number=7, at=5)


def test_a_log_is_read_by_index_and_by_slice() -> None:
    from referee.core import Log

    log = Log().append(*(Event(k) for k in "abcde"))
    assert [e.kind for e in log[1:3]] == ["b", "c"]
    assert [e.kind for e in log[::2]] == ["a", "c", "e"]
    assert [e.kind for e in log[-2:]] == ["d", "e"]
    assert log[-1].kind == "e"
    with pytest.raises(IndexError):
        log[5]


def test_a_log_equals_only_a_log_of_the_same_events_and_hashes_and_reads_as_them() -> None:
    from referee.core import Log

    log = Log().append(Event("a"))
    assert log == Log().append(Event("a"))
    assert log != "a log"
    assert log != Log().append(Event("b"))
    assert hash(Log()) == hash(())
    assert repr(log) == f"Log({list(log)!r})"


def test_a_log_without_its_last_events_keeps_the_rest_and_none_when_all_are_removed() -> None:
    from referee.core import Log

    log = Log().append(Event("a"), Event("b"), Event("c"))
    assert [e.kind for e in log.without_last()] == ["a", "b"]
    assert log.without_last(0) == log
    assert len(log.without_last(5)) == 0
    with pytest.raises(ValueError, match="cannot remove -1 events"):
        log.without_last(-1)


def test_a_log_without_its_last_events_never_reads_the_ones_it_dropped() -> None:
    from referee.core import Log

    log = Log().append(Event("a"), Event("b"), Event("c")).without_last(1)
    with pytest.raises(IndexError):
        log[2]


def test_a_paged_log_reads_its_stored_events_then_the_new_ones() -> None:
    """How a store hands over a table of any age: the stored events fetched when read, then
    the events added since."""
    from referee.core import Log
    from referee.core.chunked import CHUNK

    stored = [Event("old", number=n + 1) for n in range(CHUNK)]
    log = Log.paged(CHUNK, lambda start, stop: stored[start:stop], [Event("new", number=CHUNK + 1)])
    assert len(log) == CHUNK + 1
    assert (log[0], log[CHUNK - 1].kind, log[CHUNK].kind) == (stored[0], "old", "new")
    assert [e.kind for e in log.since(CHUNK - 1)] == ["old", "new"]


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
    assert narrate(perceived, timer, referee) == "Something is due at 19:25."
    assert narrate(table, cancel_timer("alarm"), referee) == "A timer is cancelled."

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
