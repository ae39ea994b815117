"""Scenario files (docs/kernel.md, "Scenario files"): a scenario's dice, steps and times, a step
that must be refused, its expectations and what each viewer may see of a run, a start from a
setup or from a record mid-play."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from referee.core import Viewer
from referee.core.errors import ScenarioError
from referee.core.loader import load_file
from referee.core.scenario import (
    MISSING,
    ActionStep,
    ExpectationResult,
    Scenario,
    _contains,
    load_scenario,
    parse_scenario,
    resolve_path,
    run_scenario,
    scenario_schema,
)
from referee.core.values import to_json
from referee.dice import RandomSource

from .helpers import HOUR, _AfterDark
from .test_table import SETUP
from .toy_procedure import PROCEDURE

# -- a scenario's fields: dice, start, steps -----------------------------------------------------


TOY_SCENARIO = Path(__file__).parent / "scenarios" / "toy.yaml"


def test_the_scenario_schema_is_a_json_schema_of_its_draft() -> None:
    """Scenario files: ``referee schema`` is the scenario model's JSON Schema, declared as
    draft 2020-12 and titled for editors."""
    schema = scenario_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["title"] == "Referee scenario"
    rest = {k: v for k, v in schema.items() if k not in ("$schema", "title")}
    assert rest == {k: v for k, v in Scenario.model_json_schema().items() if k != "title"}


def _scenario_error(data: Any) -> tuple[str, tuple[str | int, ...]]:
    with pytest.raises(ScenarioError) as info:
        parse_scenario(data)
    return info.value.reason, info.value.path


def _toy(**fields: Any) -> dict[str, Any]:
    return {"system": "kernel_toy", "setup": SETUP, "dice": {"script": [6] * 12}, **fields}


def test_a_scenarios_dice_are_a_seed_or_a_script_and_play_as_said() -> None:
    """Scenario files (docs/kernel.md): the dice are exactly one of a seed (a reproducible
    random source: the same seed, the same faces) and a script (the faces in order)."""
    for dice in ({}, {"seed": 1, "script": [1]}):
        assert _scenario_error(_toy(dice=dice)) == (
            "give exactly one of 'seed' and 'script'",
            ("dice",),
        )
    seeded = parse_scenario(_toy(dice={"seed": 42})).dice.source()
    expected = RandomSource(seed=42)
    assert [seeded.roll(20) for _ in range(8)] == [expected.roll(20) for _ in range(8)]
    scripted = parse_scenario(_toy(dice={"script": [3, 5]})).dice.source()
    assert [scripted.roll(6), scripted.roll(6)] == [3, 5]
    assert parse_scenario(_toy(dice={"seed": 0})).dice.seed == 0


def test_a_steps_time_is_seconds_a_clock_time_or_a_delay_after_the_last_step() -> None:
    """Scenario files: a step's ``at`` is seconds since the start of play (0 or more), a wall
    clock time read with the scenario's ``start``, or ``+15m`` after the previous step;
    anything else is refused naming the step."""
    scenario = parse_scenario(
        _toy(
            start="19:00",
            actions=[{"at": 0}, {"at": " 21:00 "}, {"at": "+15m"}, {"at": 90}],
        )
    )
    times = [step.at for step in scenario.actions]
    assert times == [0, "21:00", "+15m", 90]
    assert [scenario.time_of(step, 600) for step in scenario.actions] == [0, 7200, 1500, 90]
    assert scenario.time_of(parse_scenario(_toy(actions=[{"at": 5}])).actions[0], 9) == 5
    bare = ActionStep(actor="scarface", action="attack", params={"target": "krockin"})
    assert scenario.time_of(bare, 600) is None
    for bad in (-1, True, 1.5, "+soon", "+x15m", "25:99", ["21:00"]):
        reason, path = _scenario_error(_toy(actions=[{"at": bad}]))
        assert path == ("actions", 0, "at"), bad
    reason, _ = _scenario_error(_toy(actions=[{"at": -1}]))
    assert reason == (
        "a time is seconds since the start of play (0 or more), a clock time '21:00', "
        "or '+15m' after the previous step, not -1"
    )


def test_a_step_is_an_action_by_an_actor_or_a_move_of_the_clock() -> None:
    """Scenario files: a step is an actor's action, a move of the clock, or both; an actor or
    parameters without an action, an action without an actor, a step with neither action nor
    time, and ``refused`` without an action are refused naming the step."""
    cases = [
        ({"actor": "scarface", "at": 5}, "a step with an actor or params needs an 'action'"),
        ({"params": {"target": "x"}, "at": 5}, "a step with an actor or params needs an 'action'"),
        ({}, "a step needs an 'action', an 'at', or both"),
        ({"action": "attack"}, "action 'attack' needs an 'actor'"),
        ({"at": 5, "refused": "cooldown"}, "'refused' goes with an 'action'"),
    ]
    for step, reason in cases:
        assert _scenario_error(_toy(actions=[{"at": 0}, step])) == (reason, ("actions", 1)), step
    fine = [
        {"at": 5},
        {"actor": "scarface", "action": "attack"},
        {"actor": "scarface", "action": "attack", "at": 5, "refused": "x"},
    ]
    assert len(parse_scenario(_toy(actions=fine)).actions) == 3


def test_a_scenario_starts_at_a_clock_time_from_a_setup_or_a_record_not_both() -> None:
    """Scenario files: ``start`` is a wall-clock time; a scenario starts from a setup or from a
    record, never both; a player sees as their characters; a scenario is a mapping."""
    assert _scenario_error(_toy(start="25:99"))[1] == ("start",)
    assert parse_scenario(_toy(start="21:30")).start == "21:30"
    assert _scenario_error(_toy(record={"system": "kernel_toy"})) == (
        "a scenario starts from a 'setup' or a 'record', not both",
        (),
    )
    assert parse_scenario({**_toy(record={"a": 1}), "setup": {}}).record == {"a": 1}
    scenario = parse_scenario(_toy(players={"alice": ["scarface", "edith"]}))
    assert scenario.viewer("alice") == Viewer("alice", frozenset({"scarface", "edith"}))
    assert scenario.viewer("bob") == Viewer("bob", frozenset())
    with pytest.raises(ScenarioError) as info:
        parse_scenario(["system", "kernel_toy"])
    assert info.value.reason == "a scenario is a mapping of fields, not list"
    assert info.value.path == ()


# -- a scenario run ------------------------------------------------------------------------------


def test_a_scenario_table_has_the_scenarios_game_seats_and_wall_clock() -> None:
    """Scenario files: the table a scenario starts is of its game (a procedure given is played
    under the scenario's game name), with a seat for each player playing their characters,
    and the scenario's wall clock at the start of play."""
    scenario = parse_scenario(_toy(start="19:00", players={"alice": ["scarface"]}))
    for procedure in (None, PROCEDURE):
        table = run_scenario(scenario, procedure).table
        assert table.system == "kernel_toy"
        assert table.start_time == "19:00"
        alice = table.seat("alice")
        assert alice.plays == ("scarface",)
    assert run_scenario(parse_scenario(_toy())).table.start_time == "00:00"


def test_a_scenario_may_start_mid_play_from_a_record_beside_it(tmp_path: Path) -> None:
    """Scenario files: ``record:`` starts from a table record (mid-play) instead of a setup —
    the record itself, or the name of a record file beside the scenario; a record that is not
    of the scenario's game is refused under ``record``."""
    first = run_scenario(parse_scenario(_toy(actions=[{"at": 60}])))
    record = first.table.to_record()
    (tmp_path / "evening.json").write_text(json.dumps(record), encoding="utf-8")
    (tmp_path / "later.yaml").write_text(
        "system: kernel_toy\nrecord: evening.json\ndice: {script: [6, 6, 6, 6, 6, 6]}\n"
        "actions:\n  - {actor: krockin, action: attack, params: {target: scarface}}\n",
        encoding="utf-8",
    )
    later = run_scenario(load_scenario(tmp_path / "later.yaml"))
    assert later.table.now == 60
    assert [a.kind for a in later.table.actions] == ["advance", "attack"]
    inline = run_scenario(
        parse_scenario({"system": "kernel_toy", "record": record, "dice": {"seed": 1}}),
        PROCEDURE,
    )
    assert inline.table.log == first.table.log
    with pytest.raises(ScenarioError) as info:
        run_scenario(
            parse_scenario(
                {"system": "kernel_toy", "record": {**record, "system": "x"}, "dice": {"seed": 1}}
            )
        )
    assert info.value.path == ("record", "system")


def test_a_setup_the_game_cannot_read_is_refused_under_setup() -> None:
    """Scenario files: a setup the game refuses is named under ``setup``; one it cannot read at
    all is refused in one line under ``setup``, never a crash."""
    with pytest.raises(ScenarioError) as info:
        run_scenario(parse_scenario(_toy(setup={"characters": {"scarface": {}}})))
    assert (info.value.reason, info.value.path) == (
        "give at least two characters",
        ("setup", "characters"),
    )
    bad = {"characters": {"scarface": {"stamina": "lots"}, "krockin": {}}}
    with pytest.raises(ScenarioError) as info:
        run_scenario(parse_scenario(_toy(setup=bad)))
    assert info.value.path == ("setup",)
    assert info.value.reason.startswith("the game could not set up: ValueError(")


def test_a_scenario_is_played_with_the_procedure_it_is_given() -> None:
    """Scenario files: ``run_scenario(scenario, procedure)`` plays the given procedure, not the
    registry's game of that name (a test's variant of a game)."""
    after_dark = _AfterDark()
    run = run_scenario(_toy_scenario({"at": HOUR}), after_dark)
    assert run.table.procedure is after_dark
    assert run_scenario(_toy_scenario({"at": HOUR})).table.procedure is not after_dark


# -- a step that must be refused -----------------------------------------------------------------


def _toy_scenario(*steps: dict[str, Any]) -> Scenario:
    return parse_scenario(
        {"system": "kernel_toy", "setup": SETUP, "dice": {"script": [6] * 12}, "actions": steps}
    )


def test_a_step_that_must_be_refused_is_refused_by_that_rule() -> None:
    """Scenario files: ``refused: RULE`` — the step must be refused by the rule whose name (or
    reason) contains it, any case; then nothing changes and the run goes on. Refused by
    another rule, or allowed, the scenario is wrong: the error names the step's ``refused``
    field (``actions.<i>.refused``) once, not wrapped again as ``actions.<i>: step <i>: …``."""
    perceive = {"actor": "scarface", "action": "perceive", "params": {"target": "krockin"}}
    run = run_scenario(
        _toy_scenario(
            perceive, {**perceive, "refused": "PERCEPTION"}, {**perceive, "refused": "cooldown"}
        )
    )
    assert [a.kind for a in run.table.actions] == ["perceive"]
    with pytest.raises(ScenarioError) as info:
        run_scenario(_toy_scenario(perceive, {**perceive, "refused": "toy: attack"}))
    assert info.value.path == ("actions", 1, "refused")
    assert str(info.value) == (
        "actions.1.refused: step 1 (scarface: perceive) was refused by another rule: "
        "Toy: perception cooldown: scarface perceived krockin less than 15 minutes ago"
    )
    with pytest.raises(ScenarioError) as info:
        run_scenario(_toy_scenario({**perceive, "refused": "cooldown"}))
    assert info.value.path == ("actions", 0, "refused")
    assert str(info.value) == (
        "actions.0.refused: step 0 (scarface: perceive) was allowed, but should be refused by "
        "'cooldown'"
    )


def test_a_step_that_must_be_refused_is_tried_at_its_own_time_and_matched_on_its_reason() -> None:
    """Scenario files: a ``refused:`` step with ``at:`` is tried at that time — fifteen minutes
    on, the perception's cooldown is over, so the step is allowed and the scenario is wrong;
    ``refused:`` matches the refusal's reason too, in any case ("less than 15 minutes")."""
    perceive = {"actor": "scarface", "action": "perceive", "params": {"target": "krockin"}}
    later = {**perceive, "at": "+15m", "refused": "cooldown"}
    with pytest.raises(ScenarioError) as info:
        run_scenario(_toy_scenario(perceive, later))
    assert str(info.value) == (
        "actions.1.refused: step 1 (scarface: perceive) was allowed, but should be refused by "
        "'cooldown'"
    )
    run = run_scenario(_toy_scenario(perceive, {**perceive, "refused": "less than 15 MINUTES"}))
    assert [a.kind for a in run.table.actions] == ["perceive"]


def test_a_clock_step_the_rules_refuse_is_named_by_its_number_alone() -> None:
    """Scenario files: a step that only moves the clock, refused (back in time), is named
    ``step <i>`` with no actor or action: it has none."""
    with pytest.raises(ScenarioError) as info:
        run_scenario(_toy_scenario({"at": 600}, {"at": 60}))
    assert info.value.path == ("actions", 1)
    assert str(info.value) == (
        "actions.1: step 1 refused: Clock: game time cannot go back from 600s to 60s"
    )


# -- expectations --------------------------------------------------------------------------------


def test_an_expectation_asks_one_thing_in_one_shape() -> None:
    """Scenario files: an expectation is exactly one of ``path`` (with exactly one of
    ``equals``/``contains``), ``event`` (with ``where``/``count``) and ``events``."""
    one_kind = "an expectation has exactly one of 'path', 'event', 'events'"
    one_test = "a 'path' expectation has exactly one of 'equals', 'contains'"
    not_path = "'where' and 'count' go with 'event', not 'path'"
    path_only = "'equals' and 'contains' go with 'path'"
    not_events = "'where' and 'count' go with 'event', not 'events'"
    wrong = [
        ({}, one_kind),
        ({"path": "a", "event": "b", "equals": 1}, one_kind),
        ({"path": "a"}, one_test),
        ({"path": "a", "equals": 1, "contains": 1}, one_test),
        ({"path": "a", "equals": 1, "where": {}}, not_path),
        ({"path": "a", "equals": 1, "count": 1}, not_path),
        ({"event": "a", "equals": 1}, path_only),
        ({"event": "a", "contains": 1}, path_only),
        ({"events": ["a"], "where": {}}, not_events),
        ({"events": ["a"], "count": 1}, not_events),
    ]
    for expectation, reason in wrong:
        assert _scenario_error(_toy(expect=[expectation])) == (reason, ("expect", 0)), expectation
    fine = [
        {"path": "a", "equals": None},
        {"path": "a", "contains": 1},
        {"event": "a", "where": {"b": 1}, "count": 0},
        {"events": ["a", "b"]},
    ]
    assert len(parse_scenario(_toy(expect=fine)).expect) == 4


def test_an_expectation_says_in_words_what_it_asks() -> None:
    """Scenario files: an expectation in words, as the run reports it."""
    words = [
        e.describe()
        for e in parse_scenario(
            _toy(
                expect=[
                    {"path": "characters.scarface.wounds", "equals": 2},
                    {"path": "revealed", "contains": "feint"},
                    {"event": "wound.taken", "where": {"character": "scarface"}, "count": 1},
                    {"event": "wound.taken", "count": 2},
                    {"event": "wound.taken"},
                    {"events": ["slip.written", "alarm.rang"]},
                ]
            )
        ).expect
    ]
    assert words == [
        "characters.scarface.wounds equals 2",
        "revealed contains 'feint'",
        "exactly 1 'wound.taken' event where {'character': 'scarface'}",
        "exactly 2 'wound.taken' events",
        "at least 1 'wound.taken' events",
        "events in order: slip.written, alarm.rang",
    ]


def test_a_path_leads_into_objects_by_name_and_lists_by_index_or_nowhere() -> None:
    """Scenario files: a ``path`` expectation reads the state by dotted names, list items by
    index (from the end when negative); a path that leads nowhere is missing."""
    state = {"c": {"w": [10, 20, 30]}, "t": (1, 2), "1": "one", "n": 5}
    assert [resolve_path(state, p) for p in ("c.w.0", "c.w.2", "c.w.-1", "c.w.-3", "t.1")] == [
        10,
        30,
        30,
        10,
        2,
    ]
    assert resolve_path(state, "1") == "one"
    assert resolve_path(state, "c") == {"w": [10, 20, 30]}
    for nowhere in ("c.w.3", "c.w.-4", "c.w.x", "c.w.X1", "c.x", "n.0", "c.w.0.0", "x", "c.w.1-"):
        assert resolve_path(state, nowhere) is MISSING, nowhere


def test_a_contains_expectation_asks_what_the_value_holds() -> None:
    """Scenario files (docs/kernel.md): ``contains:`` asks that a list, text or object contain
    the value — text holds text (not a number), an object holds a key or every pair of a
    smaller object, a list holds an item; a number holds nothing."""
    assert _contains("Krockin is a Guild spy", "Guild")
    assert not _contains("Krockin is a Guild spy", "guild")
    assert not _contains("Krockin 7", 7)
    assert _contains({"wounds": 0, "skill": 1}, {"wounds": 0})
    assert not _contains({"wounds": 0, "skill": 1}, {"wounds": 1})
    assert not _contains({"wounds": 0}, {"wounds": 0, "skill": 1})
    assert _contains({"wounds": 0}, "wounds")
    assert not _contains({"wounds": 0}, "skill")
    assert _contains([1, 2], 2) and _contains((1,), 1)
    assert not _contains([1, 2], 3)
    assert not _contains(5, 5)


def _toy_run(*expect: dict[str, Any]) -> list[tuple[int, bool, Any]]:
    data = load_file(TOY_SCENARIO)
    run = run_scenario(parse_scenario({**data, "expect": list(expect)}))
    return [(r.index, r.passed, r.actual) for r in run.expectations]


def test_each_expectation_is_checked_on_the_final_state_and_the_events() -> None:
    """Scenario files: a path equals or contains a value (a missing one neither equals nor
    contains anything, not even the word for missing); an event is counted where its data
    include ``where`` (exactly ``count``, else at least one); events occur in the order
    given, others between."""
    assert _toy_run(
        {"path": "characters.scarface.wounds", "equals": 1},
        {"path": "characters.scarface.wounds", "equals": 2},
        {"path": "nowhere", "equals": MISSING},
        {"path": "nowhere", "contains": "miss"},
        {"path": "characters.krockin", "contains": "wounds"},
    ) == [
        (0, True, 1),
        (1, False, 1),
        (2, False, MISSING),
        (3, False, MISSING),
        (4, True, {"envelope": "Krockin is a Guild spy", "skill": 1, "stamina": 3, "wounds": 0}),
    ]
    assert _toy_run(
        {"event": "perception.made", "count": 2},
        {"event": "perception.made", "count": 1},
        {"event": "perception.made"},
        {"event": "wound.taken", "where": {"character": "scarface"}},
        {"event": "wound.taken", "where": {"character": "krockin"}},
        {"event": "wound.taken", "where": {"character": "krockin"}, "count": 0},
        {"event": "no.such"},
    ) == [
        (0, True, 2),
        (1, False, 2),
        (2, True, 2),
        (3, True, 1),
        (4, False, 0),
        (5, True, 0),
        (6, False, 0),
    ]
    kinds = [e.kind for e in run_scenario(load_scenario(TOY_SCENARIO)).table.log.events]
    results = _toy_run(
        {"events": ["slip.written", "slips.revealed", "alarm.rang"]},
        {"events": ["alarm.rang", "slip.written"]},
        {"events": ["slip.written", "slip.written", "slip.written"]},
        {"events": []},
    )
    assert results == [(0, True, kinds), (1, False, kinds), (2, False, kinds), (3, True, kinds)]


def test_a_run_passes_when_every_expectation_holds_and_names_those_that_failed() -> None:
    """Scenario files: a run passes only when every expectation held; its failures are those
    that did not, in order."""
    data = load_file(TOY_SCENARIO)
    run = run_scenario(parse_scenario(data))
    assert run.passed and run.failures == ()
    wrong = [
        {"path": "alarm_rang", "equals": False},
        {"path": "alarm_rang", "equals": True},
        {"event": "no.such"},
    ]
    run = run_scenario(parse_scenario({**data, "expect": wrong}))
    assert not run.passed
    assert [f.index for f in run.failures] == [0, 2]
    assert run_scenario(parse_scenario({**data, "expect": []})).passed


# -- what each viewer may see of a run -----------------------------------------------------------


def test_a_scenario_run_shows_each_viewer_what_they_may_see() -> None:
    """Scenario files and visibility: a run's log as the referee sees it is all of it; a
    player sees as their characters too (alice plays scarface: krockin's envelope is hers to
    see, krockin's slip is not), and krockin sees neither scarface's envelope nor slip."""
    run = run_scenario(load_scenario(TOY_SCENARIO))
    everything = run.events()
    assert len(everything) == len(run.table.log) == 19
    assert not any(e.redacted for e in everything)
    alice = run.events("alice")
    assert len(alice) == 16
    assert [(e.number, e.redacted) for e in alice if e.redacted] == [(8, ("maneuver",))]
    krockin = run.events("krockin")
    assert len(krockin) == 13
    assert [(e.number, e.redacted) for e in krockin if e.redacted] == [
        (2, ("envelope",)),
        (7, ("maneuver",)),
    ]


def test_an_expectations_words_and_value_are_the_referees_alone() -> None:
    """Scenario files: an expectation's words may quote a secret, so another viewer learns
    only whether it held; the referee reads its words and the actual value."""
    result = ExpectationResult(1, "revealed equals {'scarface': 'feint'}", False, {"a": 1})
    assert result.to_json() == {
        "expect": 1,
        "description": "revealed equals {'scarface': 'feint'}",
        "passed": False,
        "actual": {"a": 1},
    }
    assert result.to_json(with_actual=False) == {"expect": 1, "passed": False}


def test_a_scenario_run_in_json_is_what_its_viewer_may_see() -> None:
    """Scenario files and visibility: a run in JSON is its game, its viewer, the events and the
    state as that viewer may see them, and each expectation's verdict (its words and value
    for the referee alone)."""
    run = run_scenario(load_scenario(TOY_SCENARIO))
    referee = run.to_json()
    assert referee["system"] == "kernel_toy" and referee["viewer"] == "referee"
    assert referee["events"] == [e.to_json() for e in run.table.log.events]
    assert referee["state"] == to_json(run.table.procedure.state_json(run.table.state))
    assert referee["expectations"] == [e.to_json() for e in run.expectations]
    krockin = run.to_json("krockin")
    viewer = Viewer("krockin", frozenset())
    assert krockin["viewer"] == "krockin"
    assert krockin["events"] == [e.to_json() for e in run.events("krockin")]
    assert krockin["state"] == to_json(run.table.procedure.visible_state(run.table.state, viewer))
    assert krockin["expectations"] == [e.to_json(with_actual=False) for e in run.expectations]
    assert "envelope" in referee["state"]["characters"]["krockin"]
    assert "envelope" not in krockin["state"]["characters"]["krockin"]
    perceive = {"actor": "scarface", "action": "perceive", "params": {"target": "krockin"}}
    once = run_scenario(parse_scenario(_toy(players={"alice": ["scarface"]}, actions=[perceive])))
    assert once.to_json("alice")["state"]["cooldowns"] == ["scarface->krockin"]
    assert once.to_json("krockin")["state"]["cooldowns"] == []
