"""Actions as values: the catalogue (docs/kernel.md, "Actions as values: the catalogue"): an
action kind's spec and its parameters, checked before the rules and recorded as JSON; the
domains of a choice, what they hold and what a random player draws from them."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest

from referee.core import (
    REFEREE,
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
    Table,
    Text,
    Who,
)
from referee.core import actions as actions_module
from referee.dice import ScriptedSource

from .helpers import _Judged, _Shade, _Unlisted
from .test_table import PLAYERS, SETUP, new_table
from .toy_procedure import NOTE, PROCEDURE, RALLY, Rally

# -- an action's parameters (actions.py) ---------------------------------------------------------


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


def test_a_refusal_carries_the_bounds_the_parameter_broke_and_nothing_else() -> None:
    """Actions as values: a refused parameter says the bounds it broke (``limits``: what the
    pages and the command line show beside it), numbers and words only — not a rule's own
    exception, nor anything that is not a bound."""
    from pydantic import Field, field_validator

    class Bounded(Params):
        dice: int = Field(ge=1, le=5)
        mode: str = "x"

        @field_validator("mode")
        @classmethod
        def _mode(cls, value: str) -> str:
            if value != "x":
                raise ValueError("only x")
            return value

    spec = ActionSpec("roll", Bounded, section="Toy: bounded dice")
    with pytest.raises(ActionError) as info:
        spec.normalise({"dice": 9})
    assert info.value.limits == {"le": 5}
    with pytest.raises(ActionError) as info:
        spec.normalise({"dice": 2, "mode": "y"})
    assert info.value.limits == {}


def test_a_games_own_refusal_of_a_parameter_names_no_kind_of_wrong_and_no_bounds() -> None:
    """Actions as values: a refusal a game raises itself (not its parameter model's) carries no
    model's kind of wrong and no bounds — an interface then says the game's own words."""
    error = ActionError("attack", ["target"], "no such target")
    assert (error.problem, error.limits) == ("", {})
    assert (error.kind, error.path) == ("attack", ("target",))


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


class _Counted(Params):
    counts: list[int | bool]


def test_parameters_remembered_by_value_tell_each_list_and_each_type_apart() -> None:
    """Actions as values: parameters parsed before are remembered by what they hold (each
    value with its type: ``True`` is not ``1``), so two lists of different values, or of the
    same values of different types, each parse as themselves."""
    spec = ActionSpec("count", _Counted, section="Toy: counting")
    helped = ActionSpec("rally", _Helped, section="Toy: rally")
    assert helped.normalise({"shade": "grey", "helpers": ["ann"]})[1]["helpers"] == ["ann"]
    assert helped.normalise({"shade": "grey", "helpers": ["bob"]})[1]["helpers"] == ["bob"]
    assert spec.normalise({"counts": [1, 2]})[1] == {"counts": [1, 2]}
    assert spec.normalise({"counts": [True, 2]})[1] == {"counts": [True, 2]}
    assert type(spec.normalise({"counts": [True]})[1]["counts"][0]) is bool
    assert type(spec.normalise({"counts": [1]})[1]["counts"][0]) is int


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


def test_the_game_decides_on_the_checked_parameters_of_a_kind_it_has_a_spec_for() -> None:
    """Actions (docs/kernel.md, "Action specs"): the game decides on the parameters as its
    spec's model checked them; in a game without a catalogue it is handed none."""
    table = Table.start(_Judged(), SETUP, system="kernel_toy", players=PLAYERS)
    judged = table.act(Action("scarface", "judge", {}), None, seat=REFEREE)
    assert judged.log[-1].data == {"by": "scarface", "args": "_Nothing"}
    bare = Table.start(_Unlisted(), SETUP, system="kernel_toy", players=PLAYERS)
    shrugged = bare.act(Action("scarface", "shrug", {}), None, seat="alice")
    assert shrugged.log[-1].data == {"by": "scarface", "args": None}


# -- the catalogue: one spec per kind ------------------------------------------------------------


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


def test_the_table_has_a_spec_for_each_kind_its_game_lists_and_none_for_a_clock_move() -> None:
    table = new_table()
    spec = table.spec("attack")
    assert spec is not None and spec.kind == "attack"
    assert table.spec("advance") is None


# -- choices and their domains -------------------------------------------------------------------


def test_a_choices_domains_hold_only_what_the_rules_allow() -> None:
    """Actions as values (docs/kernel.md, "the catalogue"): a domain holds only what the rules
    allow now — ``Between`` whole numbers from low to high inclusive (not a flag, not text),
    ``SomeOf`` distinct values of the domain from ``least`` to ``most`` of them (at most all
    of them unless told), ``OneOf`` its values, ``Text`` any text."""
    between = Between(1, 3)
    assert [between.contains(v) for v in (0, 1, 2, 3, 4)] == [False, True, True, True, False]
    assert not between.contains(True) and not between.contains("2") and not between.contains(2.0)
    some = SomeOf(("a", "b", "c"), least=1, most=2)
    assert some.contains(["a"]) and some.contains(["c", "a"])
    assert not some.contains([]) and not some.contains(["a", "b", "c"])
    assert not some.contains(["a", "a"]) and not some.contains(["a", "d"])
    assert not some.contains(("a",)) and not some.contains("a")
    every = SomeOf(("a", "b", "c"))
    assert every.contains([]) and every.contains(["a", "b", "c"])
    assert not every.contains(["a", "b", "c", "d"])
    assert OneOf(("north", "south")).contains("north")
    assert not OneOf(("north", "south")).contains("east")
    assert Text("hmm").contains("") and not Text("hmm").contains(3)


def test_a_choice_allows_an_action_only_with_every_parameter_in_its_domain() -> None:
    """Actions as values: ``Choice.allows`` — every parameter with a domain is given, and
    given a value inside it; others are free."""
    choice = Choice("scarface", "rally", {"dice": Between(1, 3), "mode": OneOf(("grey",))})
    assert choice.allows({"dice": 2, "mode": "grey"})
    assert choice.allows({"dice": 3, "mode": "grey", "note": "anything"})
    assert not choice.allows({"dice": 4, "mode": "grey"})
    assert not choice.allows({"dice": 2, "mode": "white"})
    assert not choice.allows({"dice": 2})
    assert not choice.allows({"mode": "grey"})
    assert Choice("scarface", "rally").allows({})


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


def test_the_choices_of_an_actor_are_the_games_for_the_table_now() -> None:
    table = new_table().act(
        Action("scarface", "perceive", {"target": "krockin"}), ScriptedSource([6, 6, 6])
    )
    choices = table.legal_actions("scarface")
    assert choices == PROCEDURE.legal_actions(table.state, "scarface")
    assert choices != PROCEDURE.legal_actions(new_table().state, "scarface")
    assert table.legal_actions("krockin") == PROCEDURE.legal_actions(table.state, "krockin")
