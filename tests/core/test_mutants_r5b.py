"""Tests that kill the mutants mutmut left alive in the kernel, round 5, part B (issue 13,
docs/kernel.md, "Mutation testing", "Round 5, part B"): ``actions.py``, ``cards.py``,
``loader.py`` and ``scenario.py``, the functions earlier rounds never reached."""

from __future__ import annotations

import enum
import json
import random
import tracemalloc
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from referee.core import (
    Action,
    ActionError,
    ActionSpec,
    Between,
    Catalogue,
    Choice,
    NoParams,
    OneOf,
    Params,
    SomeOf,
    Text,
    Viewer,
    Who,
)
from referee.core import actions as actions_module
from referee.core.cards import OddsPreview, RollCard, dice_of, event_cards, odds_of
from referee.core.checks import (
    GREY,
    WHITE,
    CheckOdds,
    ObstacleCheck,
    OpposedCheck,
    PercentileCheck,
    Pool,
    TargetCheck,
    Total,
)
from referee.core.errors import ScenarioError
from referee.core.loader import (
    MAX_BYTES,
    MAX_DEPTH,
    MAX_DIGITS,
    MAX_NODES,
    load_file,
    parse_text,
)
from referee.core.scenario import (
    MISSING,
    ActionStep,
    load_scenario,
    parse_scenario,
    resolve_path,
    run_scenario,
)
from referee.core.values import to_json
from referee.dice import RandomSource, ScriptedSource

from .test_mutants import TOY_SCENARIO
from .test_table import SETUP
from .toy_procedure import NOTE, PROCEDURE, RALLY, Rally

# -- the catalogue and the parameters of an action (actions.py) --------------------------------


class _Inner(Params):
    mode: str


class _Nested(Params):
    inner: _Inner
    count: int = 0


_NESTED = ActionSpec("nest", _Nested, section="Toy: nesting")


def _refusal(spec: ActionSpec[Any], params: Any) -> tuple[str, tuple[str | int, ...], str]:
    with pytest.raises(ActionError) as info:
        spec.parse(params)
    return info.value.kind, info.value.path, info.value.reason


def test_an_actions_parameters_are_a_mapping_of_json_values() -> None:
    """The table contract (docs/kernel.md, "Actions as values"): an action's parameters are a
    mapping of names to JSON values; anything else is refused for the kind itself, before the
    game decides."""
    assert _refusal(RALLY, [2, 1]) == (
        "rally",
        (),
        "the parameters are a mapping of names to values",
    )
    kind, path, reason = _refusal(RALLY, {"dice": float("nan")})
    assert (kind, path) == ("rally", ())
    assert reason.startswith("the parameters are not JSON: ")
    kind, path, reason = _refusal(RALLY, {"dice": {1, 2}})
    assert (kind, path) == ("rally", ())
    assert reason.startswith("the parameters are not JSON: ")


def test_a_bad_parameter_is_named_by_its_path_and_what_is_wrong() -> None:
    """Actions as values: a misspelt parameter is named first (it is the cause of the missing
    one), with the name it was likely meant to be and every parameter the action has; a field
    that is no part of a nested parameter says so; a missing one says the action needs it."""
    assert _refusal(RALLY, {"dise": 2}) == (
        "rally",
        ("dise",),
        "not a parameter of this action (did you mean 'dice'? its parameters: dice, obstacle)",
    )
    assert _refusal(RALLY, {"zzz": 2}) == (
        "rally",
        ("zzz",),
        "not a parameter of this action (its parameters: dice, obstacle)",
    )
    assert _refusal(ActionSpec("pass", NoParams, section="Turns"), {"x": 1}) == (
        "pass",
        ("x",),
        "not a parameter of this action (its parameters: none)",
    )
    assert _refusal(_NESTED, {"inner": {"mode": "grey", "shade": 3}}) == (
        "nest",
        ("inner", "shade"),
        "not a field of this part of the action's parameters",
    )
    assert _refusal(_NESTED, {"count": 1, "innr": {}}) == (
        "nest",
        ("innr",),
        "not a parameter of this action (did you mean 'inner'? its parameters: count, inner)",
    )
    assert _refusal(_NESTED, {"count": 1}) == ("nest", ("inner",), "missing: this action needs it")
    assert _refusal(RALLY, {"dice": "2"}) == ("rally", ("dice",), "Input should be a valid integer")


def test_a_rules_own_refusal_of_a_parameter_is_its_own_words() -> None:
    """Actions as values: a parameter model's own check is named in its words alone, without
    pydantic's "Value error, " prefix."""
    from pydantic import field_validator

    class Odd(Params):
        dice: int

        @field_validator("dice")
        @classmethod
        def _odd(cls, value: int) -> int:
            if value % 2 == 0:
                raise ValueError("an odd number of dice")
            return value

    spec = ActionSpec("roll", Odd, section="Toy: odd dice")
    assert _refusal(spec, {"dice": 2}) == ("roll", ("dice",), "an odd number of dice")
    assert spec.parse({"dice": 3}).dice == 3


def test_an_actions_parameters_are_recorded_as_given_and_parsed_once() -> None:
    """Actions as values: the record keeps only the parameters given (a default left out
    stays out), each time a fresh copy a caller may change without changing the next; the same
    parameters parse to the same model."""
    parsed, recorded = RALLY.normalise({"dice": 3})
    assert parsed == Rally(dice=3, obstacle=1)
    assert recorded == {"dice": 3}
    recorded["dice"] = 9
    again, fresh = RALLY.normalise({"dice": 3})
    assert again is parsed and fresh == {"dice": 3}
    nested, data = _NESTED.normalise({"inner": {"mode": "grey"}})
    assert nested.inner.mode == "grey" and data == {"inner": {"mode": "grey"}}
    data["inner"]["mode"] = "white"
    assert _NESTED.normalise({"inner": {"mode": "grey"}})[1] == {"inner": {"mode": "grey"}}
    with pytest.raises(ActionError):
        RALLY.normalise({"dice": "3"})


class _Shade(enum.Enum):
    GREY = "grey"
    WHITE = "white"


class _Helped(Params):
    shade: _Shade
    helpers: tuple[str, ...] = ()


def test_a_recorded_parameter_is_json_an_enum_by_its_value_a_tuple_a_list() -> None:
    """Actions as values: the record of an action's parameters is JSON — an enum by its value,
    a tuple as a list — each time a fresh copy, its lists too."""
    spec = ActionSpec("rally", _Helped, section="Toy: rally")
    parsed, recorded = spec.normalise({"shade": "grey", "helpers": ["ann", "bob"]})
    assert parsed == _Helped(shade=_Shade.GREY, helpers=("ann", "bob"))
    assert recorded == {"shade": "grey", "helpers": ["ann", "bob"]}
    assert type(recorded["helpers"]) is list and type(recorded["shade"]) is str
    recorded["helpers"].append("eve")
    assert spec.normalise({"shade": "grey", "helpers": ["ann", "bob"]})[1] == {
        "shade": "grey",
        "helpers": ["ann", "bob"],
    }


def test_the_parameters_remembered_are_forgotten_when_the_memory_is_full() -> None:
    """Actions as values: the memory of parsed parameters is bounded — full, it is emptied
    before the next is kept, and never grows past its size."""
    memory = actions_module._NORMALISED
    memory.clear()
    size = actions_module._NORMALISED_SIZE
    for n in range(size):
        RALLY.normalise({"dice": n})
    assert len(memory) == size
    RALLY.normalise({"dice": size})
    assert len(memory) == 1
    assert RALLY.normalise({"dice": size})[0].dice == size
    memory.clear()


def test_an_action_already_parsed_by_the_table_is_not_parsed_again() -> None:
    """Actions as values: the game reads an action's typed parameters — those the table parsed,
    else parsed now from its parameters."""
    parsed = Rally(dice=4)
    assert RALLY.of(Action("krockin", "rally", {"dice": 1}, args=parsed)) is parsed
    assert RALLY.of(Action("krockin", "rally", {"dice": 1})) == Rally(dice=1)
    assert RALLY.of(Action("krockin", "rally", {"dice": 1}, args="not parsed")) == Rally(dice=1)
    assert RALLY.of(SimpleNamespace(params={"dice": 5})) == Rally(dice=5)


def test_an_action_kind_in_json_is_its_rule_who_takes_it_and_its_schema() -> None:
    """The table contract: a game lists each action kind with its section of the rules, who may
    take it, its summary, who sees its record and its parameters' JSON Schema, in order."""
    spec = ActionSpec(
        "rally", Rally, section="Toy: rally", who=Who.REFEREE, summary="Rally", record="everyone"
    )
    assert spec.to_json() == {
        "kind": "rally",
        "section": "Toy: rally",
        "who": "referee",
        "summary": "Rally",
        "record": "everyone",
        "schema": Rally.model_json_schema(),
    }
    catalogue = Catalogue([NOTE, spec])
    assert catalogue.to_json() == [NOTE.to_json(), spec.to_json()]
    assert list(catalogue) == ["note", "rally"] and len(catalogue) == 2
    assert catalogue["rally"] is spec and catalogue.spec("note") is NOTE
    with pytest.raises(ValueError, match="record is 'actor' or 'everyone'"):
        ActionSpec("rally", Rally, section="Toy: rally", record="referee")
    assert ActionSpec("rally", Rally, section="s", record="actor").record == "actor"


def test_a_catalogue_has_one_spec_per_kind_and_names_the_kinds_it_has() -> None:
    """The table contract: two specs for one kind are refused; an unknown kind is refused
    naming every kind there is, or none."""
    with pytest.raises(ValueError, match="two action specs for kind 'note'"):
        Catalogue([NOTE, RALLY, NOTE])
    with pytest.raises(ActionError) as info:
        Catalogue([RALLY, NOTE]).spec("attack")
    assert (info.value.kind, info.value.path, info.value.reason) == (
        "attack",
        (),
        "no such action (actions: note, rally)",
    )
    with pytest.raises(ActionError) as info:
        Catalogue().spec("attack")
    assert info.value.reason == "no such action (actions: none)"


def test_a_random_player_draws_every_value_of_a_domain_and_nothing_outside_it() -> None:
    """Actions as values: a random player's draw of each domain — one of the values, every one
    of them in time; a whole number from low to high inclusive; distinct values from
    ``least`` to ``most`` of them (never more than there are); the text's example."""
    rng = random.Random(5)
    one = OneOf(("north", "south", "east"))
    assert {one.sample(rng) for _ in range(200)} == {"north", "south", "east"}
    between = Between(2, 4)
    assert {between.sample(rng) for _ in range(200)} == {2, 3, 4}
    some = SomeOf(("a", "b", "c"), least=1, most=2)
    drawn = [some.sample(rng) for _ in range(200)]
    assert all(some.contains(d) for d in drawn)
    assert {len(d) for d in drawn} == {1, 2}
    assert {v for d in drawn for v in d} == {"a", "b", "c"}
    every = SomeOf(("a", "b"))
    assert {len(every.sample(rng)) for _ in range(100)} == {0, 1, 2}
    capped = SomeOf(("a", "b"), least=1, most=5)
    assert {len(capped.sample(rng)) for _ in range(100)} == {1, 2}
    over = SomeOf(("a", "b"), least=3, most=5)
    assert {len(over.sample(rng)) for _ in range(20)} == {2}
    assert Text("suspects Scarface").sample(rng) == "suspects Scarface"
    choice = Choice("krockin", "rally", {"dice": Between(1, 1), "mode": OneOf(("grey",))})
    action = choice.sample(rng)
    assert (action.actor, action.kind, action.params) == (
        "krockin",
        "rally",
        {"dice": 1, "mode": "grey"},
    )


def test_a_choice_in_json_is_what_a_menu_is_built_from() -> None:
    """Actions as values: a choice in JSON — its actor, kind, label, each parameter's domain
    and the odds it previews — is all a menu or a form needs."""

    class _Odds:
        def to_json(self) -> dict[str, Any]:
            return {"odds": {"success": "1/2"}}

    choice = Choice(
        "krockin",
        "rally",
        {
            "dice": Between(1, 3),
            "mode": OneOf(("grey", "white")),
            "helpers": SomeOf(("ann", "bob"), least=1, most=2),
            "note": Text("hmm"),
        },
        odds=(_Odds(),),
        label="Krockin rallies",
    )
    assert choice.to_json() == {
        "actor": "krockin",
        "kind": "rally",
        "label": "Krockin rallies",
        "params": {
            "dice": {"between": [1, 3]},
            "mode": {"one_of": ["grey", "white"]},
            "helpers": {"some_of": ["ann", "bob"], "least": 1, "most": 2},
            "note": {"text": "hmm"},
        },
        "odds": [{"odds": {"success": "1/2"}}],
        "prompt": False,
    }
    assert SomeOf(("a",)).to_json() == {"some_of": ["a"], "least": 0, "most": None}


# -- scenario files (scenario.py) -----------------------------------------------------------------


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


# -- the one file reader (loader.py) --------------------------------------------------------------


def _loader_refusal(text: str, source: str) -> str:
    with pytest.raises(ScenarioError) as info:
        parse_text(text, source)
    return str(info.value)


@pytest.mark.parametrize("source", ["f.yaml", "r.json"])
def test_a_file_nests_at_most_a_hundred_collections_whatever_is_innermost(source: str) -> None:
    """One loader with limits (docs/kernel.md, "Files"): at most ``MAX_DEPTH`` nested lists
    and mappings, in YAML and JSON alike, whether the innermost holds a value or is empty; one
    more is refused."""
    deep = MAX_DEPTH
    for inner in ("", "1"):
        assert parse_text("[" * deep + inner + "]" * deep, source) is not None
        assert "nested more than 100 levels deep" in _loader_refusal(
            "[" * (deep + 1) + inner + "]" * (deep + 1), source
        )
    mappings = '{"a": ' * (deep - 2) + '{"a": 1, "b": []}' + "}" * (deep - 2)
    assert parse_text(mappings, source) is not None
    assert "nested more than 100 levels deep" in _loader_refusal(
        '{"a": ' * (deep - 1) + '{"a": 1, "b": []}' + "}" * (deep - 1), source
    )
    assert "nested more than 100 levels deep" in _loader_refusal(
        '{"a": 1, "b": ' + "[" * deep + "]" * deep + "}", source
    )


@pytest.mark.parametrize("source", ["f.yaml", "r.json"])
def test_an_integer_has_at_most_thirty_digits_its_sign_not_counted(source: str) -> None:
    """One loader with limits: an integer of at most ``MAX_DIGITS`` (30) digits, a sign not
    counted; one more is refused naming its length."""
    assert parse_text(f'{{"n": -{"9" * MAX_DIGITS}}}', source) == {"n": -int("9" * MAX_DIGITS)}
    assert parse_text(f'{{"n": {"9" * MAX_DIGITS}}}', source) == {"n": int("9" * MAX_DIGITS)}
    assert _loader_refusal(f'{{"n": -{"9" * (MAX_DIGITS + 1)}}}', source).endswith(
        "an integer of 31 digits (at most 30)"
    )


# -- the roll card (cards.py) ---------------------------------------------------------------------


@dataclass(frozen=True)
class _Unhashable:
    """A check a game built with a list in it: it cannot be remembered, only written out."""

    faces: list[int]

    def odds(self) -> CheckOdds:
        return TargetCheck("3d6", 15, 4).odds()


def test_a_checks_dice_are_written_as_a_person_writes_them() -> None:
    """One roll card (docs/kernel.md): the dice and what they are rolled against — a total
    at least or above its target, a pool of its shade (Black unnamed, Grey, White, any other
    by number), open-ended or not, against its obstacle, d100 under the total chance, one side
    against the other; a check of another kind by its name."""
    assert dice_of(TargetCheck("3d6", 15, modifier=4)) == "3d6+4 ≥ 15"
    assert dice_of(TargetCheck("2d6", 8, comparison=">")) == "2d6 > 8"
    assert dice_of(ObstacleCheck(4, 2)) == "4d6 vs Ob 2"
    assert (
        dice_of(ObstacleCheck(4, 2, shade=GREY, open_ended=True)) == "4d6 grey open-ended vs Ob 2"
    )
    assert dice_of(ObstacleCheck(3, 1, shade=WHITE)) == "3d6 white vs Ob 1"
    assert dice_of(ObstacleCheck(3, 1, shade=5)) == "3d6 shade 5 vs Ob 1"
    assert dice_of(PercentileCheck(45, modifier=-10)) == "d100 ≤ 35"
    opposed = OpposedCheck(Total("2d6", 2), Pool(3, GREY))
    assert dice_of(opposed) == "2d6+2 vs 3d6 grey"
    assert dice_of(OpposedCheck(Pool(2), Total("1d6"))) == "2d6 vs 1d6"
    assert dice_of(_Unhashable([1])) == "_Unhashable"


def test_a_checks_odds_are_exact_fractions_by_outcome() -> None:
    """One roll card: each outcome's exact probability as ``n/d``, for a menu before the roll
    (the preview: label, rule, dice, odds) and on the card after it — for a check that cannot
    be remembered too."""
    check = TargetCheck("3d6", 15, modifier=4, comparison=">")
    assert odds_of(check.odds()) == {"failure": "5/8", "success": "3/8"}
    preview = OddsPreview.of(check, "ScarFace perceives", rule="Perception Skill")
    assert preview == OddsPreview(
        "ScarFace perceives", "Perception Skill", "3d6+4 > 15", {"failure": "5/8", "success": "3/8"}
    )
    assert preview.to_json() == {
        "label": "ScarFace perceives",
        "rule": "Perception Skill",
        "dice": "3d6+4 > 15",
        "odds": {"failure": "5/8", "success": "3/8"},
    }
    assert OddsPreview.of(check, "x").rule == ""
    odd = OddsPreview.of(_Unhashable([1]), "odd")
    assert odd.odds == {"success": "1/2", "failure": "1/2"}
    assert odd.dice == "_Unhashable"


def test_a_roll_card_records_the_whole_roll_and_reads_back_the_same() -> None:
    """One roll card: a card records its label, rule, dice, odds (or none, where they would
    tell a secret), every face, the outcome, margin and value, the other side's value in an
    opposed check, and the roll die by die; its JSON reads back as the same card."""
    check = OpposedCheck(Total("2d6", 2), Pool(3, GREY))
    result = check.roll(ScriptedSource([3, 4, 6, 2, 5]))
    card = RollCard.of(check, result, "Krockin rallies", rule="Rally")
    assert card == RollCard(
        label="Krockin rallies",
        rule="Rally",
        dice="2d6+2 vs 3d6 grey",
        odds=odds_of(check.odds()),
        faces=(3, 4, 6, 2, 5),
        outcome="success",
        margin=7,
        value=9,
        opponent=2,
        shown="; ".join(r.describe() for r in result.rolls),
    )
    assert card.shown.count("; ") == 1
    data = card.to_json()
    assert data == {
        "card": "roll",
        "label": "Krockin rallies",
        "rule": "Rally",
        "dice": "2d6+2 vs 3d6 grey",
        "odds": dict(odds_of(check.odds())),
        "faces": [3, 4, 6, 2, 5],
        "outcome": "success",
        "margin": 7,
        "value": 9,
        "opponent": 2,
        "shown": card.shown,
    }
    assert RollCard.from_json(json.loads(json.dumps(data))) == card
    secret = RollCard.of(check, result, "Krockin rallies", show_odds=False)
    assert secret.odds is None and secret.rule == ""
    assert secret.to_json()["odds"] is None
    assert RollCard.from_json(secret.to_json()) == secret


def test_a_roll_card_read_from_json_takes_its_defaults_for_what_it_leaves_out() -> None:
    """One roll card: a card's JSON need only say its label, dice, outcome, margin and value;
    it has no rule, odds, faces, opponent or shown roll unless it says so, and its numbers are
    read as numbers."""
    card = RollCard.from_json(
        {"label": "x", "dice": "1d6", "outcome": "success", "margin": "2", "value": 5.0}
    )
    assert card == RollCard("x", "", "1d6", None, (), "success", 2, 5, None, "")
    full = RollCard.from_json(
        {
            "label": "x",
            "dice": "1d6",
            "odds": {"success": "1/2"},
            "faces": ["4"],
            "outcome": "success",
            "margin": 1,
            "value": 4,
            "opponent": "3",
            "shown": "1d6 (4) = 4",
        }
    )
    assert (full.odds, full.faces, full.opponent, full.shown) == (
        {"success": "1/2"},
        (4,),
        3,
        "1d6 (4) = 4",
    )
    assert RollCard.from_json({**full.to_json(), "opponent": 0}).opponent == 0


def test_an_events_roll_cards_are_its_roll_and_each_of_its_rolls() -> None:
    """One roll card: an event's cards are its ``roll`` and each card in ``rolls``, in order;
    anything else there is not a card."""
    one = RollCard("a", "", "1d6", None, (1,), "failure", -1, 1)
    two = RollCard("b", "", "1d6", None, (6,), "success", 2, 6)
    three = RollCard("c", "", "1d6", None, (3,), "success", 0, 3)
    data = {"roll": one.to_json(), "rolls": [two.to_json(), {"card": "other"}, 5, three.to_json()]}
    assert event_cards(data) == [one, two, three]
    assert event_cards({"rolls": (two.to_json(),)}) == [two]
    assert event_cards({"roll": {**one.to_json(), "card": "odds"}}) == []
    assert event_cards({"roll": [one.to_json()], "rolls": two.to_json()}) == []
    assert event_cards({}) == []


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


def test_a_file_larger_than_the_limit_is_refused_without_reading_it_whole(tmp_path: Path) -> None:
    """One loader with limits: a file past ``MAX_BYTES`` is refused having read no more than
    one byte past the limit (a 64 MiB file costs no more than a 16 MiB one)."""
    huge = tmp_path / "huge.yaml"
    with huge.open("wb") as handle:
        handle.truncate(4 * MAX_BYTES)
    tracemalloc.start()
    try:
        with pytest.raises(ScenarioError, match=r"huge\.yaml: larger than 16 MiB"):
            load_file(huge)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2 * MAX_BYTES


def test_a_file_of_exactly_the_limit_is_read_whole_and_one_byte_more_is_refused(
    tmp_path: Path,
) -> None:
    """One loader with limits: a file (or text) of exactly ``MAX_BYTES`` is read whole; one
    byte more is refused."""
    text = '"' + "a" * (MAX_BYTES - 2) + '"'
    exact = tmp_path / "exact.json"
    exact.write_text(text, encoding="utf-8")
    assert len(load_file(exact)) == MAX_BYTES - 2
    assert len(parse_text(text, "exact.json")) == MAX_BYTES - 2
    over = tmp_path / "over.json"
    over.write_text(text + " ", encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"over\.json: larger than 16 MiB$"):
        load_file(over)
    assert _loader_refusal(text + " ", "over.json") == "over.json: larger than 16 MiB"


def test_a_files_refusal_names_the_file_and_the_line_of_a_bad_byte(tmp_path: Path) -> None:
    """One loader with limits: a refusal names the file (a ``.json`` file is read as JSON),
    and a byte that is not UTF-8 by its place and line; a byte-order mark is not content."""
    latin = tmp_path / "latin.yaml"
    latin.write_bytes("a: 1\nb: 2\nname: Zweih\u00e4nder\n".encode("latin-1"))
    with pytest.raises(ScenarioError) as info:
        load_file(latin)
    assert str(info.value) == f"{latin}: not UTF-8 text (byte 22, line 3)"
    record = tmp_path / "record.json"
    record.write_text('{"n": NaN}', encoding="utf-8")
    with pytest.raises(ScenarioError) as info:
        load_file(record)
    assert str(info.value) == f"{record}: NaN is not a JSON number"
    bom = tmp_path / "bom.json"
    bom.write_text('\ufeff{"a": 1}', encoding="utf-8")
    assert load_file(bom) == {"a": 1}


def _aliased(values: int, uses: int, extra: str = "") -> str:
    """A list of ``values`` zeros, and a list of ``uses`` aliases of it: 4 + (uses + 1) *
    (values + 1) values once expanded (the mapping, two keys, both lists and their items)."""
    return f"x: &x [{', '.join(['0'] * values)}]\ny: [{extra}{', '.join(['*x'] * uses)}]\n"


def test_a_yaml_file_holds_at_most_a_million_values_once_its_aliases_are_expanded() -> None:
    """One loader with limits: a document is measured as if every alias were expanded —
    exactly ``MAX_NODES`` values is read (each alias shares its value), one more refused."""
    assert MAX_NODES == 4 + (1001 + 1) * (997 + 1)
    data = parse_text(_aliased(997, 1001), "f.yaml")
    assert len(data["y"]) == 1001 and data["y"][0] is data["x"]
    assert _loader_refusal(_aliased(997, 1001, "0, "), "f.yaml") == (
        "f.yaml: line 1, column 1: more than 1,000,000 values once its aliases are expanded"
    )


def test_a_yaml_file_nests_at_most_a_hundred_collections_once_its_aliases_are_expanded() -> None:
    """One loader with limits: nesting is measured through aliases too — an alias of a list 60
    deep inside 39 lists of the top mapping is 100 deep and read; inside 40 it is refused."""

    def nested(lists: int) -> str:
        return f"a: &a {'[' * 60}{']' * 60}\nb: {'[' * lists}*a{']' * lists}\n"

    assert parse_text(nested(39), "f.yaml") is not None
    assert _loader_refusal(nested(40), "f.yaml") == (
        "f.yaml: line 1, column 1: nested more than 100 levels deep"
    )


def test_a_yaml_refusal_names_the_line_and_column_of_the_problem() -> None:
    """One loader with limits: bad YAML is refused in one line naming the file (``<text>``
    when none is named), the line and column where the reader found the problem, and the
    problem — in its syntax, its aliases, its documents, its tags and its keys alike; a
    character no YAML may hold, which has no place, is "not valid YAML"."""
    refusals = {
        "a: 1\nb: [1, 2\nc: d": "line 3, column 2: did not find expected ',' or ']'",
        "a: \x07": "not valid YAML",
        "a: *x": "line 1, column 4: found undefined alias",
        "a: 1\n---\nb: 2": "line 2, column 1: but found another document",
        "a: !foo 1": "line 1, column 4: could not determine a constructor for the tag '!foo'",
        "? [a]\n: 1": "line 1, column 3: found unhashable key",
    }
    for text, reason in refusals.items():
        assert _loader_refusal(text, "f.yaml") == f"f.yaml: {reason}", text
    with pytest.raises(ScenarioError) as info:
        parse_text("a: [")
    assert str(info.value) == "<text>: line 2, column 1: did not find expected node content"


def test_the_depth_of_yaml_is_counted_down_as_each_collection_closes() -> None:
    """One loader with limits: the depth is that of the collections open at a point — a
    hundred and fifty lists side by side are two deep; a list closed two deep, then a
    hundred nested beside it, is refused where the hundred-and-first opens."""
    assert parse_text("- []\n" * 150, "f.yaml") == [[]] * 150
    assert parse_text("[[[], " + "[" * 98 + "]" * 98 + "]]", "f.yaml") is not None
    assert _loader_refusal("[[[], " + "[" * 99 + "]" * 99 + "]]", "f.yaml") == (
        "f.yaml: line 1, column 105: nested more than 100 levels deep"
    )
