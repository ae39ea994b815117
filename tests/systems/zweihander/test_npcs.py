"""Non-player characters (ruling 36): an NPC's Corruption, Order and Chaos Ranks and Disorders
("Corruption", "Corruption into Order & Chaos") are the GM's — no seat plays it, no player's
state, event, narration or record of an action holds them — while the fold is the same for
every seat."""

from __future__ import annotations

import json

from referee.core import REFEREE, REFEREE_ONLY, Event, Table, Viewer, observe, view
from referee.core.values import Json
from referee.systems.zweihander import PROCEDURE
from referee.systems.zweihander.npcs import guard, redact_state

from .helpers import act, last

ANNA = {"skills": {"Resolve": 40}, "bonuses": {"WB": 4}, "chaos_ranks": 2}
OTTO = {
    "npc": True,
    "skills": {"Resolve": 30},
    "bonuses": {"WB": 3},
    "corruption": 4,
    "order_ranks": 1,
    "chaos_ranks": 7,
    "disorders": ["Sanguine thrall"],
}
ANNAS = Viewer("alice", frozenset({"anna"}))


def _table() -> Table:  # type: ignore[type-arg]
    return Table.start(PROCEDURE, {"characters": {"anna": ANNA, "otto": OTTO}})


def test_an_npc_has_no_seat_and_its_secret_fields_are_the_gms() -> None:
    t = _table()
    assert PROCEDURE.characters(t.state) == ("anna",)
    players = PROCEDURE.visible_state(t.state, ANNAS)
    gms = PROCEDURE.visible_state(t.state, Viewer(REFEREE))
    assert players is not None and gms is not None
    otto, annas = players["characters"]["otto"], players["characters"]["anna"]  # type: ignore[index]
    for hidden in ("corruption", "order_ranks", "chaos_ranks", "disorders", "reputation"):
        assert hidden not in otto  # type: ignore[operator]
        assert hidden in annas  # type: ignore[operator]
    assert otto["peril_condition"] == "Unhindered"  # type: ignore[index]
    assert gms["characters"]["otto"]["chaos_ranks"] == 7  # type: ignore[index]


def test_corruption_given_to_an_npc_is_the_gms_event_and_record() -> None:
    t = act(_table(), REFEREE, "corruption", character="otto", weight="minor", offence="a bribe")
    t = act(t, REFEREE, "corruption", character="anna", weight="minor", offence="a lie")
    assert t.state.character("otto").corruption == 5
    seen = [(e.kind, e.data.get("character")) for e in view(t.log.events, ANNAS)]
    assert seen == [("corruption.gained", "anna")]
    assert [a.params["character"] for a in observe(t, ANNAS).actions] == []
    assert len(observe(t, REFEREE).actions) == 2
    said = json.dumps(observe(t, ANNAS).to_json())
    assert "a bribe" not in said and "Sanguine thrall" not in said
    assert "a lie" in said


def test_an_npcs_corruption_in_any_event_is_a_secret_part_and_folds_the_same() -> None:
    # Otto fails a Resolve Test against Fear: his 6 Corruption is the GM's; his Peril is seen
    t = act(_table(), "otto", "madness", [77, 5, 5], situation="Fear")
    assert t.state.character("otto").corruption == 10
    [event] = [e for e in view(t.log.events, ANNAS) if e.kind == "madness.withstood"]
    assert "corruption" not in event.data and "npc_characters" not in event.data
    assert event.data["characters"]["otto"] == {"peril": 2}  # type: ignore[index]
    told = PROCEDURE.describe(event, ANNAS)
    assert "Corruption" not in told and "12 mental Peril" in told
    assert last(t, "madness.withstood")["corruption"] == 6
    # a player's replay of the log folds the data whole: the same state as the GM's
    state = PROCEDURE.initial_state({"characters": {"anna": ANNA, "otto": OTTO}})
    for e in t.log.events:
        state = PROCEDURE.evolve(state, e)
    assert state == t.state


def test_the_end_of_session_of_an_npc_is_the_gms() -> None:
    t = act(_table(), REFEREE, "session.end", [3])
    kinds = [(e.kind, e.data.get("character")) for e in view(t.log.events, ANNAS)]
    assert kinds == [("corruption.resolved", "anna")]
    everyone = [e.data.get("character") for e in t.log.events if e.kind == "corruption.resolved"]
    assert everyone == ["anna", "otto"]


def test_a_state_with_no_sheets_to_redact_is_shown_as_it_is() -> None:
    """Ruling 36: only an NPC's sheet loses its secret fields; a state holding no sheets of
    characters (none at all, or not a mapping of them) is shown to a player as it is."""
    npcs = frozenset({"otto"})
    for data in ({"chase": None}, {"characters": None}, {"characters": ["otto"]}):
        assert redact_state(data, npcs) is data


def _offence(cid: str) -> dict[str, Json]:
    return {"character": cid, "offence": "Becoming Incapacitated!", "points": 6}


def test_an_npcs_offence_is_the_gms_and_a_players_is_seen() -> None:
    """Ruling 36 with "Corruption" (house rules): an NPC's Corruption for becoming
    Incapacitated! is listed under the event's offences; the list is the GM's when it names an
    NPC, and a player character's own offence, with no NPC's beside it, stays in sight."""
    state = _table().state
    npc_down = Event(
        "chase.attacked",
        {"participant": "anna", "offences": [_offence("anna"), _offence("otto")]},
    )
    guarded = guard(state, npc_down)
    assert "offences" not in guarded.payload
    assert [(s.name, s.audience) for s in guarded.secrets] == [("offences", REFEREE_ONLY)]
    assert guarded.data == npc_down.data
    [seen] = view([guarded], ANNAS)
    assert "offences" not in seen.data and seen.data["participant"] == "anna"
    pc_down = Event("chase.attacked", {"participant": "otto", "offences": [_offence("anna")]})
    assert guard(state, pc_down) is pc_down


def test_a_players_changes_stay_in_sight_beside_an_npcs_secret_ones() -> None:
    """Ruling 36: of one event's changes, only the NPC's secret fields are the GM's; the
    player character's changes and the NPC's Peril are everyone's."""
    state = _table().state
    changes = {"anna": {"peril": 1, "corruption": 2}, "otto": {"peril": 2, "corruption": 9}}
    event = Event("madness.withstood", {"character": "anna", "characters": changes})
    guarded = guard(state, event)
    assert guarded.payload["characters"] == {
        "anna": {"peril": 1, "corruption": 2},
        "otto": {"peril": 2},
    }
    assert guarded.data["npc_characters"] == {"otto": {"corruption": 9}}


def test_a_players_corruption_from_madness_stays_in_sight_beside_an_npc() -> None:
    """Ruling 36: only an NPC's Corruption is the GM's; Anna failing her Resolve Test against
    Fear at a table with an NPC shows her Corruption to every seat."""
    t = act(_table(), "anna", "madness", [77, 5, 5], situation="Fear")
    [event] = [e for e in view(t.log.events, ANNAS) if e.kind == "madness.withstood"]
    assert event.data["corruption"] == last(t, "madness.withstood")["corruption"]
    assert event.redacted == ()
