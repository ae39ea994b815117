"""Tests that kill the mutants mutmut left alive in the kernel, round 5, part A (issue 13,
docs/kernel.md, "Mutation testing", "Round 5"): what round 4 left of ``table.py``'s write path
(``ActionRecord.to_json``, ``to_record``, ``start``, ``seats_from``, ``advance``, the salts a
record replays), and ``clock.py``, ``events.py`` and ``errors.py``."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from referee.core import REFEREE, Action, Event, ScenarioError, SeatError, Table
from referee.core.table import RECORD_FORMAT, seats_from
from referee.dice import RandomSource, ScriptedSource

from .helpers import _NoReferee, _Planned
from .test_table import PLAYERS, SETUP, new_table
from .toy_procedure import PROCEDURE

# -- table.py: the record of an action, of a table ---------------------------------------------


def test_an_action_record_in_json_is_the_whole_record_dice_included() -> None:
    """The table record (docs/kernel.md, "The table record"): each action is written whole —
    its number, seat, actor, kind, parameters, time taken and asked, every die as (sides,
    face), the events it made and who may see it."""
    table = new_table().act(
        Action("scarface", "attack", {"target": "krockin"}),
        ScriptedSource([6, 5, 1, 2]),
        seat="alice",
        at=300,
    )
    assert table.actions[0].to_json() == {
        "number": 1,
        "seat": "alice",
        "actor": "scarface",
        "kind": "attack",
        "params": {"target": "krockin"},
        "at": 300,
        "asked_at": 300,
        "dice": [[6, 6], [6, 5], [6, 1], [6, 2]],
        "events": [2, 4],
        "audience": "everyone",
    }


def test_a_clock_move_is_recorded_as_the_referees_action_asked_for_the_time_it_moves_to() -> None:
    """Moving the clock is an action of the referee's seat: its record asks for and is taken at
    the time it moves to, rolls no dice, and names the events it made — the timers it passed
    (each at its own due time) and the clock's move, all caused by it."""
    table = new_table().advance(3 * 3600, seat=REFEREE)
    assert table.actions[-1].to_json() == {
        "number": 1,
        "seat": REFEREE,
        "actor": REFEREE,
        "kind": "advance",
        "params": {"to": 10800},
        "at": 10800,
        "asked_at": 10800,
        "dice": [],
        "events": [2, 3],
        "audience": "everyone",
    }
    rang, moved = table.log[1], table.log[2]
    assert (rang.kind, rang.at, rang.cause, rang.payload) == (
        "alarm.rang",
        7200,
        1,
        {"says": "nine o'clock"},
    )
    assert (moved.kind, moved.at, moved.cause, moved.payload) == (
        "clock.advanced",
        10800,
        1,
        {"to": 10800},
    )
    assert moved.audience.everyone
    assert table.now == 10800
    assert table.advance(10800, seat=REFEREE) is table


def test_in_a_game_without_a_referee_any_seat_moves_the_clock() -> None:
    """Only the referee's seat moves the clock in a game that has a referee; in one without,
    any seat does, and the move is recorded as that seat's."""
    table = Table.start(_NoReferee(), SETUP, players=PLAYERS)
    with pytest.raises(SeatError, match="no seat 'zed'"):
        table.advance(60, seat="zed")
    moved = table.advance(60, seat="alice")
    assert (moved.now, moved.actions[-1].seat, moved.actions[-1].actor) == (60, "alice", "alice")
    with pytest.raises(SeatError, match="only the referee moves the game clock"):
        new_table().advance(60, seat="alice")


def test_a_table_record_is_its_format_system_setup_seats_start_version_actions_and_events() -> None:
    """The table record holds the whole table, every secret included."""
    table = new_table().act(Action("krockin", "note", {"text": "hm"}), None)
    record = table.to_record()
    assert record == {
        "format": RECORD_FORMAT,
        "system": "kernel_toy",
        "setup": SETUP,
        "seats": [
            {"id": REFEREE, "plays": []},
            {"id": "alice", "plays": ["scarface"]},
            {"id": "bob", "plays": ["krockin"]},
            {"id": "edith", "plays": ["edith"]},
        ],
        "start": "19:00",
        "version": 2,
        "actions": [table.actions[0].to_json()],
        "events": table.log.to_json(),
    }


# -- table.py: a new table, its seats --------------------------------------------------------


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


# -- table.py: the salts a record replays ---------------------------------------------------------


class _Schemed(_Planned):
    """The planning toy whose plan is sealed in one event and noted in a second."""

    def decide(self, state, action, dice):  # type: ignore[no-untyped-def]
        events = super().decide(state, action, dice)
        if action.kind == "plan":
            return (*events, Event("plan.noted", {"by": action.actor}))
        return events


@pytest.mark.parametrize("game", [_Planned(), _Schemed()], ids=["sealed last", "sealed first"])
def test_each_sealed_choice_replays_with_the_salt_of_its_own_actions_events(game: _Planned) -> None:
    """Sealed choices (docs/kernel.md, "Fair dice"): each action's seal replays with the salt
    recorded in its own events — wherever among them it is, and never the salt of the action
    before it."""
    table = Table.start(game, SETUP, system="kernel_toy", players=PLAYERS)
    table = table.act(Action("scarface", "plan", {}), RandomSource(7))
    table = table.act(Action("krockin", "plan", {}), RandomSource(8))
    loaded = Table.from_record(table.to_record(), game)
    assert list(loaded.log) == list(table.log)


def test_a_record_whose_salt_is_not_hexadecimal_is_refused_as_a_record() -> None:
    table = Table.start(_Planned(), SETUP, system="kernel_toy", players=PLAYERS)
    record = table.act(Action("scarface", "plan", {}), RandomSource(7)).to_record()
    salt = record["events"][-1]["secrets"][0]
    assert salt["name"] == "salt"
    salt["value"] = "not hex"
    with pytest.raises(ScenarioError, match=r"^actions\.0: action 1 \(plan\) is refused"):
        Table.from_record(record, _Planned())


# -- clock.py: wall-clock times, durations, timers ----------------------------------------------


def test_a_time_of_day_runs_from_00_00_to_23_59_59() -> None:
    """A scenario's wall-clock times (docs/kernel.md, "Clock"): hours 0 to 23, minutes and
    seconds 0 to 59, each counted."""
    from referee.core.clock import clock_time

    assert clock_time("23:59:59") == 23 * 3600 + 59 * 60 + 59
    assert clock_time("12:59") == 12 * 3600 + 59 * 60
    assert clock_time("00:00:59") == 59
    assert clock_time("21:00:30", start="21:00") == 30
    for bad in ("24:00", "25:00", "99:59"):
        with pytest.raises(ValueError, match="is not a time of day"):
            clock_time(bad)


def test_play_starts_at_midnight_unless_told() -> None:
    from referee.core.clock import clock_time, format_time

    assert clock_time("01:00") == 3600
    assert format_time(3600) == "01:00"


def test_a_wall_clock_time_shows_its_seconds_only_when_there_are_some() -> None:
    from referee.core.clock import format_time

    assert format_time(7230, start="19:00") == "21:00:30"
    assert format_time(7200, start="19:00") == "21:00"


def test_a_timer_whose_event_has_secrets_shows_that_event_to_the_referee_alone() -> None:
    """Setting a timer never shows its event early: an event with secret parts is kept for the
    referee alone until it fires; one without keeps its own audience."""
    from referee.core import EVERYONE, REFEREE_ONLY, Secret, only
    from referee.core.clock import set_timer

    secret = Event("slip.opened", {"by": "elves"}, secrets=(Secret("maneuver", "feint"),))
    assert set_timer("open", secret, after=60).secrets[0].audience == REFEREE_ONLY
    public = Event("alarm.rang", audience=only("elves"))
    assert set_timer("alarm", public, at=60).secrets[0].audience == only("elves")
    assert set_timer("alarm", Event("alarm.rang"), at=60).secrets[0].audience == EVERYONE


# -- events.py: an event read back, the log ----------------------------------------------------


def test_an_event_read_from_json_takes_its_defaults_for_what_it_leaves_out() -> None:
    """An event is everyone's, with no payload, secrets or redactions, number 0 at time 0 and
    caused by no action, unless its JSON says otherwise."""
    event = Event.from_json({"kind": "note.made"})
    assert event == Event("note.made")
    assert (event.payload, event.secrets, event.number, event.at, event.cause) == ({}, (), 0, 0, 0)
    assert event.audience.everyone and event.redacted == ()
    seen = Event.from_json({"kind": "slip.written", "redacted": ["maneuver"], "number": 3})
    assert (seen.redacted, seen.number) == (("maneuver",), 3)


def test_a_log_without_its_last_events_keeps_the_rest_and_none_when_all_are_removed() -> None:
    from referee.core import Log

    log = Log().append(Event("a"), Event("b"), Event("c"))
    assert [e.kind for e in log.without_last()] == ["a", "b"]
    assert log.without_last(0) == log
    assert len(log.without_last(5)) == 0
    with pytest.raises(ValueError, match="cannot remove -1 events"):
        log.without_last(-1)


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


# -- errors.py: what a refusal carries -----------------------------------------------------------


def test_a_refusal_carries_its_rule_reason_kind_and_path() -> None:
    """A refused action names the rule and the reason apart (a scenario matches on them), and a
    malformed one its kind and the dotted path to the bad parameter."""
    from referee.core import ActionError, RuleError

    rule = RuleError("Perception cooldown", "checked 5 minutes ago")
    assert (rule.rule, rule.reason) == ("Perception cooldown", "checked 5 minutes ago")
    bad = ActionError("perceive", ("target", 0), "not a character")
    assert (bad.kind, bad.path, bad.reason) == ("perceive", ("target", 0), "not a character")
    assert str(bad) == "perceive.target.0: not a character"
    assert str(ScenarioError("expected an integer", ("dice", "seed"))) == (
        "dice.seed: expected an integer"
    )


def test_acting_on_a_stale_table_names_the_version_read_and_the_version_now() -> None:
    from referee.core import StaleTableError

    table = new_table().act(Action("krockin", "note", {"text": "hm"}), None)
    with pytest.raises(StaleTableError) as refused:
        table.act(Action("krockin", "note", {"text": "hm"}), None, expect_version=1)
    assert (refused.value.expected, refused.value.current) == (1, 2)
    assert str(refused.value) == (
        "stale table: you read version 1, but the table is at version 2 (someone else acted first)"
    )


# -- checks.py: odds and results in JSON, the order of outcomes -----------------------------------


def test_a_checks_odds_in_json_are_fractions_written_n_over_d() -> None:
    """What a preview shows (docs/kernel.md, "Checks"): each outcome's and each margin's exact
    probability as ``"n/d"``, and for a pool the distribution of its successes."""
    from referee.core import ObstacleCheck, TargetCheck

    assert TargetCheck("1d6", 4).odds().to_json() == {
        "outcomes": {"failure": "1/2", "success": "1/2"},
        "margins": {"-3": "1/6", "-2": "1/6", "-1": "1/6", "0": "1/6", "1": "1/6", "2": "1/6"},
        "successes": None,
    }
    assert ObstacleCheck(1, 1).odds().to_json() == {
        "outcomes": {"failure": "1/2", "success": "1/2"},
        "margins": {"-1": "1/2", "0": "1/2"},
        "successes": {"0": "1/2", "1": "1/2"},
    }


def test_a_rolled_checks_json_names_the_opponents_value_only_in_an_opposed_check() -> None:
    from referee.core import OpposedCheck, TargetCheck, Total

    target = TargetCheck("1d6", 4).roll(ScriptedSource([5]))
    assert target.to_json() == {"outcome": "success", "value": 5, "margin": 1, "faces": [5]}
    opposed = OpposedCheck(Total("1d6"), Total("1d6", 1)).roll(ScriptedSource([2, 4]))
    assert opposed.to_json() == {
        "outcome": "failure",
        "value": 2,
        "margin": -3,
        "faces": [2, 4],
        "opponent_value": 5,
    }


def test_a_total_is_written_with_the_sign_of_its_modifier() -> None:
    from referee.core import Total

    assert [Total("2d6", m).expression for m in (-2, 0, 3)] == ["2d6-2", "2d6", "2d6+3"]


def test_an_opposed_checks_outcomes_are_listed_as_the_margins_reach_them() -> None:
    """The odds list an opposed check's outcomes in the order the lowest margins reach them,
    then those that cannot happen; a tie stands only under ``TieRule.TIE``."""
    from referee.core import OpposedCheck, Pool, TieRule, Total

    even = OpposedCheck(Total("1d6"), Total("1d6"), TieRule.TIE).odds()
    assert [o.value for o in even.outcomes] == ["tie", "failure", "success"]
    assert (even.tie, even.success, even.failure) == (
        Fraction(1, 6),
        Fraction(5, 12),
        Fraction(5, 12),
    )
    ahead = OpposedCheck(Total("1d6", 3), Total("1d6"), TieRule.TIE).odds()
    assert [o.value for o in ahead.outcomes] == ["success", "tie", "failure"]
    behind = OpposedCheck(Total("1d6"), Total("1d6", 3), TieRule.OPPONENT_WINS).odds()
    assert [o.value for o in behind.outcomes] == ["failure", "success"]
    alone = OpposedCheck(Pool(2, shade=4), Pool(0), TieRule.TIE).odds()
    assert [o.value for o in alone.outcomes] == ["tie", "success", "failure"]
    assert alone.successes == {0: Fraction(1, 4), 1: Fraction(1, 2), 2: Fraction(1, 4)}


def test_a_percentile_checks_odds_count_criticals_as_successes_and_failures() -> None:
    from referee.core import PercentileCheck

    odds = PercentileCheck(50).odds()
    assert (odds.success, odds.failure) == (Fraction(1, 2), Fraction(1, 2))
    assert (odds.critical_success, odds.critical_failure, odds.tie) == (
        Fraction(1, 20),
        Fraction(3, 50),
        0,
    )


def test_a_record_that_holds_fewer_dice_than_its_action_rolls_is_refused_as_a_record() -> None:
    """A record replays each action with its recorded dice: one that needs a die the record
    does not hold is refused, naming the action."""
    table = new_table().act(
        Action("scarface", "attack", {"target": "krockin"}), ScriptedSource([6, 5, 1, 2])
    )
    record = table.to_record()
    record["actions"][0]["dice"].pop()
    with pytest.raises(ScenarioError, match=r"^actions\.0: .*the record holds no more dice"):
        Table.from_record(record, PROCEDURE)


def _played() -> Table:  # type: ignore[type-arg]
    """Three actions from three seats: alice's attack asked for five minutes on, bob's note,
    the referee's clock move past the alarm."""
    return (
        new_table()
        .act(
            Action("scarface", "attack", {"target": "krockin"}),
            ScriptedSource([6, 5, 1, 2]),
            seat="alice",
            at=300,
        )
        .act(Action("krockin", "note", {"text": "hm"}), None, seat="bob")
        .advance(3 * 3600, seat=REFEREE)
    )


def test_a_record_of_actions_from_several_seats_at_several_times_replays_to_the_same_table() -> (
    None
):
    table = _played()
    record = table.to_record()
    loaded = Table.from_record(record, PROCEDURE)
    assert loaded == table
    assert loaded.to_record() == record
    del record["version"]
    assert Table.from_record(record, PROCEDURE) == table


def test_a_record_whose_action_is_written_otherwise_than_it_replays_is_refused() -> None:
    """Each action must replay to the very record written: one that claims its attack was the
    referee's secret (an audience the game did not give it) is not the record of this
    table."""
    record = _played().to_record()
    record["actions"][0]["audience"] = []
    with pytest.raises(ScenarioError, match=r"^actions\.0: action 1 \(attack\) is recorded"):
        Table.from_record(record, PROCEDURE)


def test_a_record_that_says_another_version_than_it_holds_is_refused() -> None:
    record = _played().to_record()
    record["version"] += 1
    with pytest.raises(ScenarioError, match=r"^version: the record says version \d+, but"):
        Table.from_record(record, PROCEDURE)


# -- events.py: visibility, an event in JSON, the log's numbering -------------------------------


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


@pytest.mark.parametrize(
    ("number", "cause"),
    [
        (2, "action 1 (attack)"),
        (4, "action 1 (attack)"),
        (6, "action 3 (advance)"),
        (7, "action 3 (advance)"),
    ],
)
def test_a_record_is_refused_at_any_event_its_action_did_not_produce(
    number: int, cause: str
) -> None:
    """Every event an action makes is checked against the record, its first and its last:
    one altered is named, with the action that produces something else."""
    record = _played().to_record()
    record["events"][number - 1]["audience"] = ["nobody"]
    with pytest.raises(
        ScenarioError,
        match=rf"^events\.{number - 1}: event {number} \(.*\) is not what {re.escape(cause)} ",
    ):
        Table.from_record(record, PROCEDURE)


class _RollCalled(type(PROCEDURE)):  # type: ignore[misc]
    """The toy game whose first event calls the roll of the characters its setup lists."""

    def initial_events(self, state):  # type: ignore[no-untyped-def]
        names = [name for name, _ in state.characters]
        return (Event("roll.called", {"characters": names}), *super().initial_events(state))


def test_a_table_starts_with_the_first_events_the_game_makes_of_its_setup() -> None:
    table = Table.start(_RollCalled(), SETUP)
    assert table.log[0].payload == {"characters": ["scarface", "krockin", "edith"]}


def test_the_table_has_a_spec_for_each_kind_its_game_lists_and_none_for_a_clock_move() -> None:
    table = new_table()
    spec = table.spec("attack")
    assert spec is not None and spec.kind == "attack"
    assert table.spec("advance") is None


def test_a_chain_of_records_holds_what_it_was_made_of_and_never_what_it_dropped() -> None:
    from referee.core.table import Chain

    chain = Chain(["a", "b", "c"])
    assert list(chain) == ["a", "b", "c"]
    shorter = chain.without_last()
    assert list(shorter) == ["a", "b"] and len(shorter) == 2
    with pytest.raises(IndexError):
        shorter[2]


def test_a_log_without_its_last_events_never_reads_the_ones_it_dropped() -> None:
    from referee.core import Log

    log = Log().append(Event("a"), Event("b"), Event("c")).without_last(1)
    with pytest.raises(IndexError):
        log[2]


def test_a_viewer_is_told_only_the_names_of_the_secret_parts_hidden_from_them() -> None:
    from referee.core import Secret, only

    event = Event(
        "slips.written",
        secrets=(Secret("elves", "feint", only("elves")), Secret("orcs", "hold", only("orcs"))),
    )
    seen = event.seen_by("orcs")
    assert seen is not None
    assert (seen.data, seen.redacted) == ({"orcs": "hold"}, ("elves",))


def test_the_choices_of_an_actor_are_the_games_for_the_table_now() -> None:
    table = new_table().act(
        Action("scarface", "perceive", {"target": "krockin"}), ScriptedSource([6, 6, 6])
    )
    choices = table.legal_actions("scarface")
    assert choices == PROCEDURE.legal_actions(table.state, "scarface")
    assert choices != PROCEDURE.legal_actions(new_table().state, "scarface")
    assert table.legal_actions("krockin") == PROCEDURE.legal_actions(table.state, "krockin")


def test_a_rolled_checks_line_shows_every_roll_behind_it() -> None:
    """A roll card's line (docs/kernel.md, "Checks"): the rolls behind a result, the actor's
    then the opponent's; an empty pool rolls nothing and says so, a pool of one die rolls it."""
    from referee.core import ObstacleCheck, OpposedCheck, PercentileCheck, Total

    percentile = PercentileCheck(50).roll(ScriptedSource([33]))
    assert percentile.describe() == "1d100 (33) = 33 → critical success (margin +17)"
    opposed = OpposedCheck(Total("1d6"), Total("1d6", 1)).roll(ScriptedSource([2, 4]))
    assert opposed.describe() == "1d6 (2) = 2; 1d6 (4) + 1 = 5 → failure (margin -3)"
    one = ObstacleCheck(1, 1).roll(ScriptedSource([6]))
    assert (one.value, one.faces, one.describe()) == (
        1,
        (6,),
        "1d6>=4 (6*) = 1 → success (margin +0)",
    )
    empty = ObstacleCheck(0, 1).roll(ScriptedSource([]))
    assert (empty.value, empty.rolls, empty.describe()) == (0, (), "no dice → failure (margin -1)")


def test_an_opposed_check_that_cannot_tie_lists_the_tie_last() -> None:
    """An actor whose every value beats every opponent's: success is the only outcome that can
    happen, then failure and the tie that cannot, in their usual order."""
    from referee.core import OpposedCheck, TieRule, Total

    odds = OpposedCheck(Total("1d6", 10), Total("1d6"), TieRule.TIE).odds()
    assert [o.value for o in odds.outcomes] == ["success", "failure", "tie"]
    assert odds.success == 1


def test_a_pool_of_one_die_is_rolled_in_an_opposed_check() -> None:
    from referee.core import OpposedCheck, Pool, TieRule

    odds = OpposedCheck(Pool(1, shade=4), Pool(0), TieRule.TIE).odds()
    assert odds.margins == {0: Fraction(1, 2), 1: Fraction(1, 2)}
