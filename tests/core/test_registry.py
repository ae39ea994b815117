"""The registry (docs/kernel.md, "The registry"): a game by its name — installed or registered —
its setup checked by its model, what a client is told of it, and a record loaded only by its
own game."""

from __future__ import annotations

from typing import Annotated

import pytest
from pydantic import AfterValidator, BaseModel, ConfigDict

from referee.core import REFEREE, Action, registry
from referee.core.errors import ScenarioError
from referee.core.registry import System, register_system, system, systems

from .helpers import _Counter
from .toy_procedure import PROCEDURE


def _clock(text: str) -> str:
    if ":" not in text:
        raise ValueError("a time is hh:mm")
    return text


class _CounterSetup(BaseModel):
    model_config = ConfigDict(extra="forbid")
    start: int = 0
    alarm: Annotated[str, AfterValidator(_clock)] | int = 0


COUNTER = System(
    "counter",
    "The Counter",
    _Counter(),
    rules="counter.md",
    setup_model=_CounterSetup,
    summary="Count to ten.",
)


def test_a_setup_is_checked_by_its_model_and_a_bad_field_named_by_its_path() -> None:
    """The registry (docs/kernel.md): a setup is checked with the game's model before play; the
    first bad field is named by its path in the setup (no pydantic ``function-…`` part), with
    the validator's own words."""
    assert COUNTER.check_setup({"start": 2, "alarm": "21:00"}) == {"start": 2, "alarm": "21:00"}
    with pytest.raises(ScenarioError) as bad:
        COUNTER.check_setup({"alarm": "nine"})
    assert (bad.value.reason, bad.value.path) == ("a time is hh:mm", ("alarm",))
    with pytest.raises(ScenarioError) as extra:
        COUNTER.check_setup({"bell": 1})
    assert (extra.value.reason, extra.value.path) == ("Extra inputs are not permitted", ("bell",))
    with pytest.raises(ScenarioError) as not_int:
        COUNTER.check_setup({"start": "x"})
    assert not_int.value.path == ("start",)
    assert not_int.value.reason.startswith("Input should be a valid integer")


def test_a_new_table_of_a_game_is_of_that_game_with_its_seats_and_start() -> None:
    """The registry: ``System.new_table`` starts a table of this game, with the players' seats
    and the wall clock's start as given (00:00 unless told)."""
    table = COUNTER.new_table({"start": 1}, players={"alice": ["ann"]}, start="19:00")
    assert (table.system, table.start_time, table.state) == ("counter", "19:00", 1)
    assert [s.id for s in table.seats] == [REFEREE, "alice"]
    plain = COUNTER.new_table({})
    assert (plain.system, plain.start_time) == ("counter", "00:00")
    assert [s.id for s in plain.seats] == [REFEREE]
    seated = COUNTER.new_table({}, seats=table.seats)
    assert seated.seats == table.seats


def test_a_game_in_json_is_its_names_rules_referee_setup_schema_and_actions() -> None:
    """The registry: what a client is told of a game."""
    assert COUNTER.setup_schema() == _CounterSetup.model_json_schema()
    assert COUNTER.to_json() == {
        "name": "counter",
        "title": "The Counter",
        "rules": "counter.md",
        "summary": "Count to ten.",
        "has_referee": True,
        "setup_schema": _CounterSetup.model_json_schema(),
        "actions": [],
    }
    assert System("toy", "Toy", PROCEDURE).setup_schema() == {}


def test_a_record_is_loaded_only_by_its_own_game_with_its_setup_checked() -> None:
    """The registry (``System.load``): a record of another game is refused, naming
    ``system``; a bad setup is named under ``setup``; a good record is the table again."""
    table = COUNTER.new_table({"start": 1}).act(Action("ann", "add"), None)
    record = table.to_record()
    loaded = COUNTER.load(record)
    assert (loaded.state, loaded.version) == (2, table.version)
    with pytest.raises(ScenarioError) as other:
        COUNTER.load({**record, "system": "kernel_toy"})
    assert other.value.path == ("system",)
    assert other.value.reason == "this record is of system 'kernel_toy', not 'counter'"
    with pytest.raises(ScenarioError) as bad:
        COUNTER.load({**record, "setup": {"alarm": "nine"}})
    assert (bad.value.reason, bad.value.path) == ("a time is hh:mm", ("setup", "alarm"))


def test_an_installed_game_is_loaded_once_by_its_name(monkeypatch: pytest.MonkeyPatch) -> None:
    """The registry: ``system: intrigue`` loads the installed game through its entry point,
    keeps it, and gives the same game the next time."""
    monkeypatch.delitem(registry._REGISTERED, "intrigue", raising=False)
    game = system("intrigue")
    assert isinstance(game, System) and game.title == "Intrigue in the Clouds"
    assert system("intrigue") is game
    assert registry._REGISTERED["intrigue"] is game


def test_a_procedure_registered_by_name_is_a_game_of_that_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The registry (``register_system``): a procedure registered by name is the game of that
    name, titled by it; a whole :class:`System` is registered as it is."""
    monkeypatch.setattr(registry, "_REGISTERED", dict(registry._REGISTERED))
    counter = _Counter()
    register_system("counter_proc", counter)
    game = system("counter_proc")
    assert (game.name, game.title, game.procedure) == ("counter_proc", "counter_proc", counter)
    register_system("counter", COUNTER)
    assert system("counter") is COUNTER


def test_a_record_that_is_not_a_mapping_is_refused_as_a_record() -> None:
    """The registry (``System.load``): a record read from a file is hostile input — a list is
    refused in words, as a record, not with a crash."""
    with pytest.raises(ScenarioError, match="a table record is a mapping of fields, not list"):
        COUNTER.load(["not", "a", "record"])


def test_an_unknown_game_is_refused_naming_every_known_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """The registry: ``system:`` names a known game; the refusal lists them, or says none is
    installed."""
    with pytest.raises(ScenarioError) as unknown:
        system("no_such_game")
    assert unknown.value.reason == f"no game system 'no_such_game' (known: {', '.join(systems())})"
    monkeypatch.setattr(registry, "_REGISTERED", {})
    monkeypatch.setattr(registry, "_installed", dict)
    with pytest.raises(ScenarioError) as none:
        system("intrigue")
    assert none.value.reason == "no game system 'intrigue' (known: none installed)"
