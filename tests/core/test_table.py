"""The table contract: a new table and its first events, parameters parsed before the rules,
seats, stale versions, records that replay exactly and refuse tampering, undo, and ``observe`` as
the one read path."""

from __future__ import annotations

import contextlib
import json
import random
from fractions import Fraction
from itertools import product
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.core import (
    REFEREE,
    Action,
    ActionError,
    Event,
    Log,
    RuleError,
    ScenarioError,
    SeatError,
    StaleTableError,
    Table,
    Viewer,
    observe,
    preview,
)
from referee.core.table import Seat, seats_from
from referee.dice import RandomSource, ScriptedSource

from .helpers import _Judged, _NoReferee
from .toy_procedure import MANEUVERS, PROCEDURE, ToyState

SETUP: dict[str, Any] = {
    "characters": {
        "scarface": {"skill": 2, "envelope": "owes the Guild"},
        "krockin": {"skill": 1, "envelope": "a Guild spy"},
        "edith": {"skill": 0, "envelope": "the Duke's daughter"},
    }
}
PLAYERS = {"alice": ["scarface"], "bob": ["krockin"]}


def new_table() -> Table[ToyState]:
    return Table.start(PROCEDURE, SETUP, system="kernel_toy", players=PLAYERS, start="19:00")


def test_seats_come_from_the_players_then_one_per_unplayed_character() -> None:
    table = new_table()
    assert [(s.id, s.plays) for s in table.seats] == [
        (REFEREE, ()),
        ("alice", ("scarface",)),
        ("bob", ("krockin",)),
        ("edith", ("edith",)),
    ]


@pytest.mark.parametrize(
    ("kind", "params", "message"),
    [
        ("attack", {}, r"^attack\.target: missing"),
        ("attack", {"target": 7}, r"^attack\.target: Input should be a valid string"),
        ("attack", {"taget": "krockin"}, r"^attack\.taget: not a parameter of this action"),
        ("rally", {"dice": "3"}, r"^rally\.dice: Input should be a valid integer"),
        ("rally", {"dice": 2, "modifer": -4}, r"^rally\.modifer: not a parameter"),
        ("write_slip", {"maneuver": "dance"}, r"^write_slip\.maneuver: Input should be"),
        ("dance", {}, r"^dance: no such action \(actions: attack, note, perceive, rally"),
    ],
)
def test_a_malformed_action_is_an_action_error_naming_the_parameter(
    kind: str, params: dict[str, Any], message: str
) -> None:
    table = new_table()
    with pytest.raises(ActionError, match=message):
        table.act(Action("scarface", kind, params), ScriptedSource([6] * 10))
    # and nothing changed: a table is a value, so the old one is still what it was
    assert table.version == 1 and len(table.actions) == 0


def test_a_well_formed_action_the_rules_forbid_stays_a_rule_error() -> None:
    with pytest.raises(RuleError, match="no other character 'nobody'"):
        new_table().act(Action("scarface", "attack", {"target": "nobody"}), None)


def test_a_seat_acts_only_for_what_it_plays_and_the_referee_for_anyone() -> None:
    table = new_table()
    attack = Action("scarface", "attack", {"target": "krockin"})
    with pytest.raises(SeatError, match="seat 'bob' does not play 'scarface'"):
        table.act(attack, ScriptedSource([6, 6, 1, 1]), seat="bob")
    with pytest.raises(SeatError, match="no seat 'mallory'"):
        table.act(attack, ScriptedSource([6, 6, 1, 1]), seat="mallory")
    assert table.act(attack, ScriptedSource([6, 6, 1, 1]), seat="alice").version == 3
    assert table.act(attack, ScriptedSource([6, 6, 1, 1]), seat=REFEREE).version == 3
    with pytest.raises(SeatError, match="only the referee moves the game clock"):
        table.advance(60, seat="alice")


def test_acting_on_a_stale_version_is_refused() -> None:
    table = new_table()
    first = table.act(Action("scarface", "note", {"text": "a"}), None, expect_version=1)
    with pytest.raises(StaleTableError, match="you read version 1, but the table is at version 2"):
        first.act(Action("krockin", "note", {"text": "b"}), None, expect_version=1)


def test_every_event_names_the_action_that_caused_it() -> None:
    table = new_table().act(
        Action("scarface", "perceive", {"target": "krockin"}),
        ScriptedSource([6, 6, 6]),
        at=600,
        seat="alice",
    )
    record = table.actions[0]
    assert (record.number, record.seat, record.actor, record.kind) == (
        1,
        "alice",
        "scarface",
        "perceive",
    )
    assert record.dice == ((6, 6), (6, 6), (6, 6))
    assert record.asked_at == 600 and record.at == 600
    caused = [e for e in table.log if e.cause == 1]
    assert [e.kind for e in caused] == ["clock.advanced", "perception.made", "timer.set"]
    assert record.events == (caused[0].number, caused[-1].number)
    assert table.log[0].cause == 0  # the alarm, set when play started


def test_a_recorded_action_is_seen_only_by_its_audience() -> None:
    table = new_table().act(
        Action("scarface", "write_slip", {"maneuver": "feint"}), None, seat="alice"
    )
    for seat in ("bob", "edith"):
        raw = json.dumps(observe(table, seat).to_json())
        assert '"maneuver": "feint"' not in raw, seat  # the recorded action's parameters
        assert '"value": "feint"' not in raw, seat  # the event's secret part
    assert observe(table, "alice").actions[0]["params"] == {"maneuver": "feint"}
    assert "dice" not in observe(table, "alice").actions[0]
    assert "dice" in observe(table, REFEREE).actions[0]


def play(seed: int, steps: int) -> Table[ToyState]:
    rng = random.Random(seed)
    dice = RandomSource(seed)
    table = new_table()
    for _ in range(steps):
        actor = rng.choice(PROCEDURE.actors(table.state))
        choice = rng.choice(list(table.legal_actions(actor)))
        with contextlib.suppress(RuleError):
            table = table.act(choice.sample(rng), dice, at=table.now + rng.choice([0, 300]))
    return table


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 20))
def test_a_record_round_trips_through_json_and_replays_exactly(seed: int, steps: int) -> None:
    table = play(seed, steps)
    record = json.loads(json.dumps(table.to_record()))
    again = Table.from_record(record, PROCEDURE)
    assert again == table
    assert again.to_record() == record


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 20))
def test_undoing_the_last_action_equals_replaying_without_it(seed: int, steps: int) -> None:
    table = play(seed, steps)
    if not table.actions:
        return
    record = table.to_record()
    last = record["actions"][-1]
    shorter = {
        **record,
        "actions": record["actions"][:-1],
        "events": record["events"][: last["events"][0] - 1],
        "version": last["events"][0] - 1,
    }
    assert table.undo() == Table.from_record(shorter, PROCEDURE)


def _tampered(record: dict[str, Any], change: str) -> dict[str, Any]:
    data = json.loads(json.dumps(record))
    if change == "face":
        rolled = next(e for e in data["events"] if e["kind"] == "attack.rolled")
        rolled["payload"]["faces"][0] = 7 - rolled["payload"]["faces"][0]
    elif change == "action dice":
        data["actions"][0]["dice"][0][1] = 7 - data["actions"][0]["dice"][0][1]
    elif change == "swapped actions":
        first, second = data["actions"][0], data["actions"][1]
        data["actions"][0], data["actions"][1] = second, first
        first["number"], second["number"] = 2, 1
    elif change == "forged event":
        data["events"].append({**data["events"][-1], "number": len(data["events"]) + 1})
        data["version"] += 1
    elif change == "dropped event":
        del data["events"][-1]
        data["version"] -= 1
    elif change == "audience":
        data["events"][-1]["audience"] = "everyone"
    elif change == "unknown field":
        data["events"][0]["sneaky"] = 1
    return data


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("face", r"^events\.\d+: event \d+ \(attack\.rolled\) is not what action 1"),
        ("action dice", r"^events\.\d+: event \d+ \(attack\.rolled\) is not what action 1"),
        ("swapped actions", r"^(events|actions)\.\d+"),
        ("forged event", r"^events\.\d+: the record holds \d+ events, but its actions produce"),
        ("dropped event", r"^events: action 2 \(note\) produces event \d+ \(note\.made\)"),
        ("audience", r"^events\.\d+: event \d+ \(note\.made\) is not what action 2"),
        ("unknown field", r"^events\.0\.sneaky: Extra inputs are not permitted"),
    ],
)
def test_a_record_whose_events_are_not_what_its_actions_produce_is_refused(
    change: str, message: str
) -> None:
    table = (
        new_table()
        .act(Action("scarface", "attack", {"target": "krockin"}), ScriptedSource([6, 5, 1, 2]))
        .act(Action("krockin", "note", {"text": "hm"}), None)
    )
    record = table.to_record()
    assert Table.from_record(record, PROCEDURE) == table
    with pytest.raises(ScenarioError, match=message):
        Table.from_record(_tampered(record, change), PROCEDURE)


def _secrets_of(table: Table[ToyState]) -> dict[str, set[str]]:
    """Each secret text in the table, with the viewer ids entitled to it."""
    found: dict[str, set[str]] = {}
    for event in table.log:
        if event.audience.everyone:
            entitled_event: set[str] | None = None
        else:
            entitled_event = set(event.audience.viewers)
        for secret in event.secrets:
            if isinstance(secret.value, str) and secret.value not in MANEUVERS:
                entitled = set(secret.audience.viewers)
                if entitled_event is not None:
                    entitled &= entitled_event
                found.setdefault(secret.value, set()).update(entitled)
    return found


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(0, 25))
def test_observe_never_holds_a_secret_its_viewer_may_not_see(seed: int, steps: int) -> None:
    table = play(seed, steps)
    envelopes = {c["envelope"]: name for name, c in SETUP["characters"].items()}
    secrets = _secrets_of(table)
    for seat in table.seats:
        if seat.is_referee:
            continue
        raw = json.dumps(observe(table, seat.id).to_json(), ensure_ascii=False)
        for value, entitled in secrets.items():
            if not entitled & seat.viewer.identities:
                assert value not in raw, (seat.id, value)
        # an envelope is only ever in the view of one who perceived it, never its holder's
        for envelope, holder in envelopes.items():
            if holder in seat.plays:
                assert envelope not in raw, (seat.id, envelope)


def test_observe_is_everything_one_seat_may_know() -> None:
    table = new_table().act(
        Action("scarface", "perceive", {"target": "krockin"}), ScriptedSource([6, 6, 6])
    )
    alice = observe(table, "alice")
    assert alice.viewer.identities == {"alice", "scarface"}
    assert {c.actor for c in alice.choices} == {"scarface"}
    assert "perceive" not in {
        c.kind for c in alice.choices if "krockin" in getattr(c.params.get("target"), "values", ())
    } or all(
        not c.params["target"].contains("krockin") for c in alice.choices if c.kind == "perceive"
    )
    perceived = next(e for e in alice.events if e.kind == "perception.made")
    assert perceived.data["envelope"] == "a Guild spy"
    bob = observe(table, "bob")
    assert "a Guild spy" not in json.dumps(bob.to_json())
    assert "envelope" in next(e for e in bob.events if e.kind == "perception.made").redacted
    assert observe(table, "bob", since=table.version).events == ()
    attack = next(c for c in alice.choices if c.kind == "attack")
    # 2d6+2 against 2d6+1, ties to the attacker: counted face by face
    wins = sum(a + b + 2 >= c + d + 1 for a, b, c, d in product(range(1, 7), repeat=4))
    assert Fraction(attack.odds[0].odds["success"]) == Fraction(wins, 6**4)
    referee = observe(table, REFEREE)
    assert {c.actor for c in referee.choices} == {"scarface", "krockin", "edith"}
    text = [t for t in referee.narration]
    assert text[0] == "Something is due at 21:00."


def test_a_viewer_must_be_a_seat_of_the_table() -> None:
    with pytest.raises(SeatError, match="no seat 'scarface'"):
        observe(new_table(), "scarface")
    assert observe(new_table(), Seat("alice", ("scarface",))).viewer.id == "alice"


def test_undo_is_the_referees_and_takes_back_the_whole_action() -> None:
    table = new_table()
    after = table.act(
        Action("scarface", "perceive", {"target": "krockin"}),
        ScriptedSource([6, 6, 6]),
        at=300,
        seat="alice",
    )
    with pytest.raises(SeatError, match="only the referee undoes"):
        after.undo(seat="alice")
    undone = after.undo(seat=REFEREE)
    assert undone == table
    with pytest.raises(RuleError, match="only 0 actions to undo"):
        undone.undo()


def test_a_log_shares_its_storage_and_copies_only_on_a_branch() -> None:
    base = Log().append(Event("a"))
    left = base.append(Event("b"))
    right = base.append(Event("c"))  # appended to an older log: a branch
    assert [e.kind for e in left] == ["a", "b"]
    assert [e.kind for e in right] == ["a", "c"]
    assert [e.kind for e in left.without_last().append(Event("d"))] == ["a", "d"]
    assert [e.kind for e in left] == ["a", "b"]
    assert left[1].number == 2 and right[-1].number == 2
    assert left.since(1) == (left[1],)


def test_preview_gives_the_odds_of_an_action_with_its_parameters_as_given() -> None:
    """``preview``: what a form shows as its fields change, from the game's own checks."""
    table = new_table()
    # the attack's odds follow the target chosen: against each the game's own opposed check
    on_krockin = preview(table, "alice", Action("scarface", "attack", {"target": "krockin"}))
    on_edith = preview(table, "alice", Action("scarface", "attack", {"target": "edith"}))
    assert [p.label for p in on_krockin] == ["scarface attacks krockin"]
    assert on_krockin[0].odds != on_edith[0].odds  # skill 1 against skill 0
    check = PROCEDURE._attack(table.state, "scarface", "krockin")
    assert {k: Fraction(v) for k, v in on_krockin[0].odds.items()} == {
        o.value: p for o, p in check.odds().outcomes.items()
    }
    # a pool's odds follow its dice and obstacle; more dice, better odds
    small = preview(table, "alice", Action("scarface", "rally", {"dice": 1, "obstacle": 1}))
    large = preview(table, "alice", Action("scarface", "rally", {"dice": 4, "obstacle": 1}))
    assert Fraction(large[0].odds["success"]) > Fraction(small[0].odds["success"])
    # parameters are parsed as for acting; a seat learns nothing of another's action
    with pytest.raises(ActionError, match="taget"):
        preview(table, "alice", Action("scarface", "attack", {"taget": "krockin"}))
    with pytest.raises(SeatError, match="does not play"):
        preview(table, "bob", Action("scarface", "attack", {"target": "krockin"}))
    # an action the rules would refuse has no odds, and nothing is ever rolled or recorded
    assert preview(table, "alice", Action("scarface", "note", {"text": "x"})) == ()
    assert table.version == 1 and not table.actions


# -- a new table ---------------------------------------------------------------------------------


def test_a_table_started_with_no_more_said_is_of_no_system_at_midnight_with_a_seat_each() -> None:
    """``Table.start`` with only a game and a setup: no system name, play starting at 00:00,
    the referee's seat and one seat per character, and the game's first events logged at time
    0, caused by no action."""
    table = Table.start(PROCEDURE, SETUP)
    assert (table.system, table.start_time, table.setup) == ("", "00:00", SETUP)
    assert [(s.id, s.plays) for s in table.seats] == [
        (REFEREE, ()),
        ("scarface", ("scarface",)),
        ("krockin", ("krockin",)),
        ("edith", ("edith",)),
    ]
    assert [(e.number, e.kind, e.at, e.cause) for e in table.log] == [(1, "timer.set", 0, 0)]
    assert table.clock.timers[0].due == 7200


def test_a_table_started_with_seats_given_has_exactly_those_seats() -> None:
    from referee.core.table import Seat

    seats = (Seat(REFEREE), Seat("carol", ("scarface", "krockin")))
    table = Table.start(PROCEDURE, SETUP, seats=seats, players=PLAYERS)
    assert table.seats == seats


def test_a_table_logs_its_preamble_first_unless_it_has_dice_seeds_to_commit() -> None:
    """A record's dice commitment is replayed as the table's preamble, before the game's own
    first events; a table given dice seeds logs their commitment there instead."""
    from referee.core.fairness import DiceSeeds

    replayed, seeds = DiceSeeds.new("replayed"), DiceSeeds.new("fresh")
    preamble = (replayed.commitment_event(),)
    table = Table.start(PROCEDURE, SETUP, preamble=preamble)
    assert [(e.kind, e.payload, e.cause) for e in table.log] == [
        ("dice.committed", preamble[0].payload, 0),
        ("timer.set", {"name": "alarm", "due": 7200}, 0),
    ]
    fair = Table.start(PROCEDURE, SETUP, dice=seeds, preamble=preamble)
    assert [(e.kind, e.payload) for e in fair.log] == [
        ("dice.committed", seeds.commitment_event().payload),
        ("timer.set", {"name": "alarm", "due": 7200}),
    ]


class _RollCalled(type(PROCEDURE)):  # type: ignore[misc]
    """The toy game whose first event calls the roll of the characters its setup lists."""

    def initial_events(self, state):  # type: ignore[no-untyped-def]
        names = [name for name, _ in state.characters]
        return (Event("roll.called", {"characters": names}), *super().initial_events(state))


def test_a_table_starts_with_the_first_events_the_game_makes_of_its_setup() -> None:
    table = Table.start(_RollCalled(), SETUP)
    assert table.log[0].payload == {"characters": ["scarface", "krockin", "edith"]}


# -- seats ---------------------------------------------------------------------------------------


def test_seats_are_the_referees_then_each_players_then_one_per_character_no_one_plays() -> None:
    """A player whose id is a character's name plays that character: it gets no second seat.
    A game without a referee has no referee's seat."""
    state = PROCEDURE.initial_state(SETUP)
    seats = seats_from(PROCEDURE, state, {"edith": ["scarface"]})
    assert [(s.id, s.plays) for s in seats] == [
        (REFEREE, ()),
        ("edith", ("scarface",)),
        ("krockin", ("krockin",)),
    ]
    assert [s.id for s in seats_from(_NoReferee(), state)] == ["scarface", "krockin", "edith"]


def test_a_seat_acts_for_what_it_plays_and_as_itself_the_referee_for_anyone() -> None:
    """Seats (docs/kernel.md): a seat acts for the characters it plays and as itself; the
    referee's seat acts for anyone."""
    alice = Seat("alice", ("scarface",))
    assert alice.may_play("scarface") and alice.may_play("alice")
    assert not alice.may_play("krockin")
    assert Seat(REFEREE).may_play("krockin")


def test_a_player_may_not_take_what_only_the_referee_takes_even_for_their_own_character() -> None:
    """Who may act (docs/kernel.md, "Seats"): a kind only the referee takes is refused to a
    player's seat, even for the character that seat plays."""
    table = Table.start(_Judged(), SETUP, system="kernel_toy", players=PLAYERS)
    with pytest.raises(SeatError, match=r"only the referee may take 'judge' \(Toy: judging\)"):
        table.act(Action("scarface", "judge", {}), None, seat="alice")


def test_a_seat_is_found_by_its_id_and_an_unknown_one_refused_naming_the_seats_there_are() -> None:
    """Seats (docs/kernel.md): a seat is looked up by its own id; an id the table has no seat
    for is refused with the seats it has, in order, or "none" at a table without seats."""
    table = Table.start(PROCEDURE, SETUP, system="kernel_toy", players=PLAYERS)
    assert table.seat("bob") == Seat("bob", ("krockin",))
    with pytest.raises(SeatError, match=r"no seat 'zed' \(seats: referee, alice, bob, edith\)$"):
        table.seat("zed")
    seatless = Table.start(PROCEDURE, SETUP, seats=())
    with pytest.raises(SeatError, match=r"no seat 'zed' \(seats: none\)$"):
        seatless.seat("zed")


def test_a_table_without_seats_reads_any_id_as_that_viewer() -> None:
    """A table played through the library has no seats: any id is a bare viewer of that id."""
    seatless = Table.start(PROCEDURE, SETUP, seats=())
    assert seatless.viewer("alice") == Viewer("alice")


# -- a stale table -------------------------------------------------------------------------------


def test_acting_on_a_stale_table_names_the_version_read_and_the_version_now() -> None:
    from referee.core import StaleTableError

    table = new_table().act(Action("krockin", "note", {"text": "hm"}), None)
    with pytest.raises(StaleTableError) as refused:
        table.act(Action("krockin", "note", {"text": "hm"}), None, expect_version=1)
    assert (refused.value.expected, refused.value.current) == (1, 2)
    assert str(refused.value) == (
        "stale table: you read version 1, but the table is at version 2 (someone else acted first)"
    )
