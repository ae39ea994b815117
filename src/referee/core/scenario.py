"""Scenario files: YAML with a pydantic model behind it (DESIGN.md, "Scenario files").

A scenario names its game (``system``), sets up the table (``setup``, read by the game's
``initial_state``), fixes the dice (``seed: N`` or ``script: [faces...]``), lists the actions
(each with ``actor``, ``action``, ``params``, optionally ``at:`` a game time) and, optionally,
what to ``expect`` of the final state and the events. See docs/kernel.md, "Scenario files".

This module is the kernel's only I/O (:func:`load_scenario` reads a file) and is not imported by
:mod:`referee.core`: it needs pydantic and YAML.

>>> scenario = parse_scenario({"system": "toy", "dice": {"script": [3]}, "actions": [
...     {"actor": "ann", "action": "roll", "at": "+15m"}]})
>>> scenario.actions[0].at, scenario.dice.script
('+15m', [3])
>>> parse_scenario({"system": "toy", "dice": {"sead": 1}})
Traceback (most recent call last):
...
referee.core.errors.ScenarioError: dice.sead: Extra inputs are not permitted
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from referee.core.clock import GameTime, _clock_seconds, clock_time, parse_duration
from referee.core.errors import RefereeError, RuleError, ScenarioError
from referee.core.events import REFEREE, Event, Viewer, ViewerId, view
from referee.core.loader import load_file, yaml_loader
from referee.core.procedures import Action, Procedure
from referee.core.registry import system as get_game
from referee.core.table import Table
from referee.core.values import to_json
from referee.dice import DiceSource, DiceSourceError, RandomSource, ScriptedSource

__all__ = [
    "ActionStep",
    "DiceSpec",
    "Expectation",
    "ExpectationResult",
    "Scenario",
    "ScenarioRun",
    "load_scenario",
    "parse_scenario",
    "resolve_path",
    "run_scenario",
    "scenario_schema",
    "yaml_loader",
]

MISSING = "<missing>"
"""What :func:`resolve_path` returns for a path that leads nowhere."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class DiceSpec(_Model):
    """Where the scenario's dice come from: exactly one of ``seed`` and ``script``."""

    seed: int | None = Field(default=None, description="seed a reproducible random source")
    script: list[int] | None = Field(
        default=None, description="the faces to hand out, in order; running out is an error"
    )

    @model_validator(mode="after")
    def _one_of(self) -> DiceSpec:
        if (self.seed is None) == (self.script is None):
            raise ValueError("give exactly one of 'seed' and 'script'")
        return self

    def source(self) -> DiceSource:
        """A fresh dice source as the scenario says."""
        if self.script is not None:
            return ScriptedSource(self.script)
        return RandomSource(seed=self.seed)


def _check_time(value: Any) -> Any:
    if value is None or (isinstance(value, int) and not isinstance(value, bool) and value >= 0):
        return value
    if isinstance(value, str):
        text = value.strip()
        if text.startswith("+"):
            parse_duration(text[1:])
        else:
            _clock_seconds(text)
        return text
    raise ValueError(
        "a time is seconds since the start of play (0 or more), a clock time '21:00', "
        f"or '+15m' after the previous step, not {value!r}"
    )


class ActionStep(_Model):
    """One step: an actor's action, and/or a move of the clock to ``at``.

    ``at`` is seconds since the start of play, a wall-clock time (``"21:00"``, read with the
    scenario's ``start``), or ``"+15m"`` after the previous step. A step with only ``at``
    moves the clock (firing timers) and does nothing else.
    """

    actor: str | None = Field(default=None, description="who acts (a character, faction, player)")
    action: str | None = Field(default=None, description="the action's kind, as the game names it")
    params: dict[str, Any] = Field(default_factory=dict, description="the action's parameters")
    at: Any = Field(
        default=None,
        description="game time: seconds since start, '21:00', or '+15m' after the last step",
        json_schema_extra={"anyOf": [{"type": "integer", "minimum": 0}, {"type": "string"}]},
    )
    refused: str | None = Field(
        default=None,
        description="the step must be refused, by the rule whose name (or reason) contains this",
    )

    _at = field_validator("at", mode="before")(_check_time)

    @model_validator(mode="after")
    def _shape(self) -> ActionStep:
        if self.action is None:
            if self.actor is not None or self.params:
                raise ValueError("a step with an actor or params needs an 'action'")
            if self.at is None:
                raise ValueError("a step needs an 'action', an 'at', or both")
        elif self.actor is None:
            raise ValueError(f"action {self.action!r} needs an 'actor'")
        if self.refused is not None and self.action is None:
            raise ValueError("'refused' goes with an 'action'")
        return self


class Expectation(_Model):
    """A check on the final state or the events; exactly one of ``path``, ``event``, ``events``.

    - ``{path: characters.scarface.wounds, equals: 2}``: the value at a dotted path in the
      game's ``state_json`` (list items by index) equals the value; ``contains:`` instead asks
      that a list, text or object contain it.
    - ``{event: wound.taken, where: {character: scarface}, count: 2}``: the number of events of
      that kind whose data include ``where``; without ``count``, at least one.
    - ``{events: [combat.started, wound.taken]}``: events of these kinds occur in this order
      (others may come between).
    """

    path: str | None = None
    equals: Any = None
    contains: Any = None
    event: str | None = None
    where: dict[str, Any] | None = None
    count: int | None = Field(default=None, ge=0)
    events: list[str] | None = None

    @model_validator(mode="after")
    def _shape(self) -> Expectation:
        kinds = [k for k in ("path", "event", "events") if getattr(self, k) is not None]
        if len(kinds) != 1:
            raise ValueError("an expectation has exactly one of 'path', 'event', 'events'")
        given = self.model_fields_set
        if self.path is not None:
            if len(given & {"equals", "contains"}) != 1:
                raise ValueError("a 'path' expectation has exactly one of 'equals', 'contains'")
            if given & {"where", "count"}:
                raise ValueError("'where' and 'count' go with 'event', not 'path'")
        else:
            if given & {"equals", "contains"}:
                raise ValueError("'equals' and 'contains' go with 'path'")
            if self.events is not None and given & {"where", "count"}:
                raise ValueError("'where' and 'count' go with 'event', not 'events'")
        return self

    def describe(self) -> str:
        """The expectation in words: ``characters.scarface.wounds equals 2``."""
        if self.path is not None:
            if "equals" in self.model_fields_set:
                return f"{self.path} equals {self.equals!r}"
            return f"{self.path} contains {self.contains!r}"
        if self.event is not None:
            where = f" where {self.where!r}" if self.where else ""
            many = f"exactly {self.count}" if self.count is not None else "at least 1"
            plural = "" if self.count == 1 else "s"
            return f"{many} {self.event!r} event{plural}{where}"
        return f"events in order: {', '.join(self.events or ())}"


class Scenario(_Model):
    """A scenario file."""

    system: str = Field(
        description="the game: one of the registered systems", pattern=r"^[a-z_][a-z0-9_]*$"
    )
    title: str = ""
    description: str = ""
    start: str = Field(default="00:00", description="the wall clock at the start of play")
    players: dict[str, list[str]] = Field(
        default_factory=dict, description="each player's characters (who sees what they see)"
    )
    setup: dict[str, Any] = Field(default_factory=dict, description="the game's set-up")
    record: dict[str, Any] | None = Field(
        default=None,
        description="start from a table record (mid-play) instead of the setup: the record, or "
        "in a file, the path of a record file beside it",
    )
    dice: DiceSpec
    actions: list[ActionStep] = Field(default_factory=list)
    expect: list[Expectation] = Field(default_factory=list)

    @field_validator("start")
    @classmethod
    def _start(cls, value: str) -> str:
        _clock_seconds(value)
        return value

    @model_validator(mode="after")
    def _record_or_setup(self) -> Scenario:
        if self.record is not None and self.setup:
            raise ValueError("a scenario starts from a 'setup' or a 'record', not both")
        return self

    def viewer(self, viewer_id: ViewerId) -> Viewer:
        """The viewer ``viewer_id``: a player sees as their characters too (``players:``)."""
        return Viewer(viewer_id, frozenset(self.players.get(viewer_id, ())))

    def time_of(self, step: ActionStep, now: GameTime) -> GameTime | None:
        """The game time of a step's ``at`` (``None`` if it has none), given the time now."""
        at = step.at
        if at is None:
            return None
        if isinstance(at, int):
            return at
        if at.startswith("+"):
            return now + parse_duration(at[1:])
        return clock_time(at, self.start)


def _path(loc: tuple[int | str, ...]) -> tuple[int | str, ...]:
    return tuple(
        part for part in loc if not (isinstance(part, str) and part.startswith("function-"))
    )


def parse_scenario(data: Any) -> Scenario:
    """A scenario from parsed YAML/JSON data; :class:`ScenarioError` names the bad field."""
    if not isinstance(data, Mapping):
        raise ScenarioError(f"a scenario is a mapping of fields, not {type(data).__name__}")
    try:
        return Scenario.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        message = str(first["msg"]).removeprefix("Value error, ")
        raise ScenarioError(message, _path(tuple(first["loc"]))) from None


def load_scenario(path: str | Path) -> Scenario:
    """Read and validate a scenario file; :class:`ScenarioError` for anything wrong with it.

    ``record: FILE`` (a string) names a record file beside the scenario, read here.
    """
    file = Path(path)
    data = load_file(file)
    if isinstance(data, dict) and isinstance(data.get("record"), str):
        data = {**data, "record": load_file(file.parent / data["record"])}
    return parse_scenario(data)


def scenario_schema() -> dict[str, Any]:
    """The JSON Schema of scenario files (for editors)."""
    schema = Scenario.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "Referee scenario"
    return schema


def resolve_path(data: Any, path: str) -> Any:
    """The value at dotted ``path`` in JSON ``data`` (list items by index), or :data:`MISSING`.

    >>> state = {"characters": {"scarface": {"wounds": [1, 2]}}}
    >>> resolve_path(state, "characters.scarface.wounds.1"), resolve_path(state, "factions")
    (2, '<missing>')
    """
    value = data
    for part in path.split("."):
        if isinstance(value, Mapping) and part in value:
            value = value[part]
        elif isinstance(value, list | tuple) and part.lstrip("-").isdigit():
            index = int(part)
            if not -len(value) <= index < len(value):
                return MISSING
            value = value[index]
        else:
            return MISSING
    return value


@dataclass(frozen=True)
class ExpectationResult:
    """One expectation checked: its index in ``expect``, words, verdict and the actual value."""

    index: int
    description: str
    passed: bool
    actual: Any

    def to_json(self, *, with_actual: bool = True) -> dict[str, Any]:
        """``{"expect", "passed"}`` and, for the referee (``with_actual``), ``"description"``
        and ``"actual"``: an expectation's words may quote a secret, so other viewers learn
        only whether it held."""
        data: dict[str, Any] = {"expect": self.index}
        if with_actual:
            data["description"] = self.description
        data["passed"] = self.passed
        if with_actual:
            data["actual"] = self.actual
        return data


def _contains(container: Any, item: Any) -> bool:
    if isinstance(container, str):
        return isinstance(item, str) and item in container
    if isinstance(container, Mapping):
        if isinstance(item, Mapping):
            return all(k in container and container[k] == v for k, v in item.items())
        return item in container
    if isinstance(container, list | tuple):
        return item in container
    return False


def _check(
    expectation: Expectation, index: int, state: Any, events: tuple[Event, ...]
) -> ExpectationResult:
    words = expectation.describe()
    if expectation.path is not None:
        actual = resolve_path(state, expectation.path)
        if "equals" in expectation.model_fields_set:
            passed = actual is not MISSING and actual == expectation.equals
        else:
            passed = actual is not MISSING and _contains(actual, expectation.contains)
        return ExpectationResult(index, words, passed, actual)
    if expectation.event is not None:
        where = expectation.where or {}
        matching = [
            e
            for e in events
            if e.kind == expectation.event
            and all(to_json(e.data.get(k)) == v for k, v in where.items())
        ]
        count = len(matching)
        wanted = expectation.count
        passed = count == wanted if wanted is not None else count >= 1
        return ExpectationResult(index, words, passed, count)
    kinds = [e.kind for e in events]
    position = 0
    for kind in kinds:
        if (
            position < len(expectation.events or ())
            and kind == (expectation.events or ())[position]
        ):
            position += 1
    passed = position == len(expectation.events or ())
    return ExpectationResult(index, words, passed, kinds)


def start_table(scenario: Scenario, procedure: Procedure[Any] | None = None) -> Table[Any]:
    """The table a scenario starts from: its setup (with seats from ``players``), or its record."""
    if procedure is None:
        game = get_game(scenario.system)
    else:
        from referee.core.registry import System

        game = System(scenario.system, scenario.system, procedure)
    try:
        if scenario.record is not None:
            return game.load(scenario.record)
        return game.new_table(
            scenario.setup, players=scenario.players or None, start=scenario.start
        )
    except ScenarioError as error:
        where = ("record",) if scenario.record is not None else ("setup",)
        raise ScenarioError(error.reason, (*where, *error.path)) from None
    except (KeyError, ValueError, TypeError) as error:
        raise ScenarioError(f"the game could not set up: {error!r}", ("setup",)) from None


class _WrongRefusal(ScenarioError):
    """A step that should have been refused and was not, or was refused by another rule: the
    error already names its step and the path ``actions.<i>.refused``."""


def _expect_refusal(
    table: Table[Any], step: ActionStep, dice: DiceSource, at: GameTime | None, index: int
) -> None:
    action = Action(step.actor or "", step.action or "", step.params)
    try:
        table.act(action, dice, at=at)
    except RuleError as error:
        wanted = (step.refused or "").lower()
        if wanted in error.rule.lower() or wanted in str(error).lower():
            return
        raise _WrongRefusal(
            f"step {index} ({step.actor}: {step.action}) was refused by another rule: {error}",
            ("actions", index, "refused"),
        ) from None
    raise _WrongRefusal(
        f"step {index} ({step.actor}: {step.action}) was allowed, but should be refused by "
        f"{step.refused!r}",
        ("actions", index, "refused"),
    )


@dataclass(frozen=True)
class ScenarioRun:
    """A scenario played: the table it left and its expectations checked."""

    scenario: Scenario
    table: Table[Any]
    expectations: tuple[ExpectationResult, ...]

    @property
    def passed(self) -> bool:
        """True when every expectation held."""
        return all(e.passed for e in self.expectations)

    @property
    def failures(self) -> tuple[ExpectationResult, ...]:
        """The expectations that failed."""
        return tuple(e for e in self.expectations if not e.passed)

    def events(self, viewer_id: ViewerId = REFEREE) -> tuple[Event, ...]:
        """The log as ``viewer_id`` may see it."""
        return view(self.table.log, self.scenario.viewer(viewer_id))

    def to_json(self, viewer_id: ViewerId = REFEREE) -> dict[str, Any]:
        """``{"system", "viewer", "events", "state", "expectations"}`` as ``viewer_id`` may see.

        Expectations are checked on the referee's view; other viewers get each verdict without
        the actual value (it may be secret).
        """
        viewer = self.scenario.viewer(viewer_id)
        return {
            "system": self.scenario.system,
            "viewer": viewer_id,
            "events": [e.to_json() for e in view(self.table.log, viewer)],
            "state": to_json(self.table.procedure.visible_state(self.table.state, viewer)),
            "expectations": [e.to_json(with_actual=viewer.is_referee) for e in self.expectations],
        }


def run_scenario(scenario: Scenario, procedure: Procedure[Any] | None = None) -> ScenarioRun:
    """Play ``scenario`` with its game's procedure (from the registry unless given).

    A refused action, or dice that run out, raise :class:`ScenarioError` with the path
    ``actions.<i>`` (counting from 0) and the rule's message.
    """
    table = start_table(scenario, procedure)
    game = table.procedure
    dice = scenario.dice.source()
    for index, step in enumerate(scenario.actions):
        try:
            at = scenario.time_of(step, table.now)
            if step.action is None:
                table = table.advance(at if at is not None else table.now)
            elif step.refused is not None:
                _expect_refusal(table, step, dice, at, index)
            else:
                action = Action(step.actor or "", step.action, step.params)
                table = table.act(action, dice, at=at)
        except (RuleError, DiceSourceError) as error:
            who = f" ({step.actor}: {step.action})" if step.action else ""
            raise ScenarioError(f"step {index}{who} refused: {error}", ("actions", index)) from None
        except _WrongRefusal:
            raise
        except RefereeError as error:
            raise ScenarioError(f"step {index}: {error}", ("actions", index)) from None
    state = to_json(game.state_json(table.state))
    results = tuple(
        _check(expectation, i, state, table.log.events)
        for i, expectation in enumerate(scenario.expect)
    )
    return ScenarioRun(scenario, table, results)
