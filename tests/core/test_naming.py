"""Names in the log (``referee.core.naming``; issue 26): a person reads "ScarFace" and "the
Elves'", never ``scarface`` or ``elves's``. An event carries the names of the ids it mentions,
and a name only a secret part mentions travels in a secret part of the same audience, so a name
never tells a viewer more than the part they may see."""

from __future__ import annotations

from referee.core.events import Event, Secret, only
from referee.core.naming import (
    NAMES,
    name_in,
    names_in,
    possessive,
    possessive_of,
    title_of,
    titled,
    with_names,
)

ROSTER = {"orcs": "the Orcs", "elves": "the Elves", "moll": "Moll", "jack": "Jack"}


def test_a_possessive_takes_an_apostrophe_alone_after_an_s() -> None:
    assert possessive("Artha") == "Artha's"
    assert possessive("the Elves") == "the Elves'"
    assert possessive("ATLAS") == "ATLAS'"
    assert possessive("ScarFace") == "ScarFace's"


def test_an_id_reads_as_a_name_word_by_word() -> None:
    assert title_of("moll_cutpurse") == "Moll Cutpurse"
    assert title_of("jack-in-the-box") == "Jack In The Box"
    assert title_of("ScarFace") == "ScarFace"
    assert title_of("  old__bob ") == "Old Bob"
    assert title_of("") == ""
    assert possessive_of("marcos") == "Marcos'"
    assert possessive_of("black_bob") == "Black Bob's"


def test_the_ids_under_the_keys_given_read_as_names_and_the_rest_is_left() -> None:
    data = {"attacker": "moll_cutpurse", "targets": ["jack", 3], "zone": "alley", "n": 2}
    assert titled(data, ["attacker", "targets", "n", "absent"]) == {
        "attacker": "Moll Cutpurse",
        "targets": ["Jack", 3],
        "zone": "alley",
        "n": 2,
    }
    assert data["attacker"] == "moll_cutpurse"  # the event's data is not changed


def test_every_name_an_event_carries_is_read_from_its_payload_and_its_parts() -> None:
    data = {
        NAMES: {"orcs": "the Orcs"},
        "slip_names": {"elves": "the Elves", 7: 8},
        "target": "elves",
        "odd_names": "not a mapping",
    }
    assert names_in(data) == {"orcs": "the Orcs", "elves": "the Elves", "7": "8"}
    assert names_in({"names_x": {"a": "A"}}) == {}


def test_a_name_is_read_from_the_payload_then_a_part_then_the_default() -> None:
    data = {NAMES: {"orcs": "the Orcs", "3": "Third"}, "slip_names": {"elves": "the Elves"}}
    assert name_in(data, "orcs") == "the Orcs"
    assert name_in(data, 3) == "Third"
    assert name_in(data, "elves") == "the Elves"
    assert name_in(data, "dwarves") == "dwarves"
    assert name_in(data, "moll_cutpurse", title_of) == "Moll Cutpurse"
    assert name_in({NAMES: ["orcs"]}, "orcs") == "orcs"
    assert name_in({NAMES: {"orcs": "Orcs"}, "x_names": {"orcs": "Not"}}, "orcs") == "Orcs"


def test_an_event_carries_the_names_of_every_id_its_payload_mentions() -> None:
    """Ids as values, as keys and inside lists, tuples and mappings at any depth."""
    event = Event(
        "fight.began",
        {
            "sides": [["moll"], ("jack",)],
            "scores": {"orcs": 3, "nested": {"elves": 1}},
            "zone": "alley",
        },
    )
    named = with_names(event, ROSTER)
    assert named.payload[NAMES] == {
        "moll": "Moll",
        "jack": "Jack",
        "orcs": "the Orcs",
        "elves": "the Elves",
    }
    assert {k: v for k, v in named.payload.items() if k != NAMES} == event.payload
    assert (named.kind, named.audience, named.secrets) == (event.kind, event.audience, ())


def test_an_event_that_mentions_nobody_or_a_game_with_no_roster_is_left_as_it_is() -> None:
    event = Event("weather.changed", {"sky": "grey"}, secrets=(Secret("omen", "storm"),))
    assert with_names(event, ROSTER) is event
    mentions = Event("fled", {"who": "moll"})
    assert with_names(mentions, {}) is mentions


def test_a_name_only_a_secret_part_mentions_travels_in_a_part_of_that_audience() -> None:
    slip = Event(
        "slip.written",
        {"faction": "orcs"},
        secrets=(Secret("slip", {"targets": ["elves", "orcs"]}, only("orcs")),),
    )
    named = with_names(slip, ROSTER)
    assert named.payload[NAMES] == {"orcs": "the Orcs"}
    assert named.secrets == (
        Secret("slip", {"targets": ["elves", "orcs"]}, only("orcs")),
        Secret("slip_names", {"elves": "the Elves"}, only("orcs")),
    )
    seen = named.seen_by("orcs")
    assert seen is not None and name_in(seen.data, "elves") == "the Elves"
    hidden = named.seen_by("dwarves")
    assert hidden is not None and name_in(hidden.data, "elves") == "elves"


def test_a_secret_mention_alone_names_nothing_in_the_payload() -> None:
    event = Event("aim.taken", {"zone": "alley"}, secrets=(Secret("target", "jack", only("moll")),))
    named = with_names(event, ROSTER)
    assert NAMES not in named.payload
    assert named.payload == {"zone": "alley"}
    assert named.secrets[1] == Secret("target_names", {"jack": "Jack"}, only("moll"))


def test_names_already_carried_are_not_written_twice() -> None:
    """A part's names already in the event's payload (its ``…_names``) are not added again."""
    event = Event(
        "aim.taken",
        {"zone": "alley", "target_names": {"jack": "Jack"}},
        secrets=(Secret("target", "jack", only("moll")),),
    )
    assert with_names(event, ROSTER) is event


def test_a_timers_event_to_fire_is_named_too() -> None:
    """``timer.set`` holds the event it will fire in a secret part ``event``: its names are
    written into it, so the event reads the same when it fires."""
    to_fire = Event("envelope.opened", {"by": "moll"})
    timer = Event(
        "timer.set",
        {"timer": "envelope"},
        secrets=(Secret("event", to_fire.to_json(), only("moll")),),
    )
    named = with_names(timer, ROSTER)
    assert NAMES not in named.payload
    (part,) = named.secrets
    assert (part.name, part.audience) == ("event", only("moll"))
    assert Event.from_json(part.value).payload == {"by": "moll", NAMES: {"moll": "Moll"}}
    quiet = Event("timer.set", {}, secrets=(Secret("event", Event("bell").to_json()),))
    assert with_names(quiet, ROSTER) is quiet
    not_an_event = Event("timer.set", {}, secrets=(Secret("event", {"by": "moll"}),))
    assert with_names(not_an_event, ROSTER).secrets[1] == Secret("event_names", {"moll": "Moll"})


def test_names_are_read_from_every_field_after_the_names_already_there() -> None:
    event = Event("x", {NAMES: {"orcs": "the Orcs"}, "by": "moll", "at": "jack"})
    assert with_names(event, ROSTER).payload[NAMES] == {"moll": "Moll", "jack": "Jack"}


def test_every_secret_part_is_named_after_a_part_of_names_or_an_event_to_fire() -> None:
    """A part of names already there is kept as it is; the parts after it, and after a
    timer's event to fire, are named each in turn."""
    event = Event(
        "timer.set",
        {"by": "moll"},
        secrets=(
            Secret("old_names", {"cat": "Cat"}, only("moll")),
            Secret("event", Event("rang", {"for": "elves"}).to_json(), only("moll")),
            Secret("note", {"about": "jack"}, only("moll")),
        ),
    )
    named = with_names(event, ROSTER)
    assert named.payload == {"by": "moll", NAMES: {"moll": "Moll"}}
    assert [s.name for s in named.secrets] == ["old_names", "event", "note", "note_names"]
    assert named.secrets[0] == event.secrets[0]
    assert Event.from_json(named.secrets[1].value).payload[NAMES] == {"elves": "the Elves"}
    assert named.secrets[3] == Secret("note_names", {"jack": "Jack"}, only("moll"))
