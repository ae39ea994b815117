"""The shape of a table record (``Table.to_record``), checked field by field when read.

A record read from a file or a database is hostile input: every field is typed, unknown fields
are refused with their path, and :meth:`~referee.core.table.Table.from_record` then re-decides
every action with its recorded dice (:func:`replay_record`), refusing a record whose events
differ.

>>> parse_record({"format": "referee.table/1", "system": "toy", "setup": {}, "seats": [],
...               "actions": [], "events": [], "extra": 1})
Traceback (most recent call last):
...
referee.core.errors.ScenarioError: extra: Extra inputs are not permitted
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from referee.core.clock import ADVANCE
from referee.core.errors import RefereeError, ScenarioError
from referee.core.events import Event, Log
from referee.core.fairness import DICE_COMMITTED, REVEAL_DICE, SALT, SEED_DICE
from referee.core.procedures import Action, Procedure
from referee.core.recording import ActionRecord, ReplayingDice
from referee.core.seats import Seat

if TYPE_CHECKING:
    from referee.core.table import Table

__all__ = ["RECORD_FORMAT", "RecordModel", "parse_record", "replay_record"]

S = TypeVar("S")

RECORD_FORMAT = "referee.table/1"
"""The ``format`` of a table record."""

_NAME = r"^[A-Za-z0-9_][A-Za-z0-9_.\- ]{0,63}$"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class SeatModel(_Strict):
    """A seat: its id and what it plays."""

    id: str = Field(pattern=_NAME)
    plays: list[str] = Field(default_factory=list)


AudienceModel = Literal["everyone"] | list[str]
_Pair = Annotated[list[int], Field(min_length=2, max_length=2)]


class SecretModel(_Strict):
    """A secret part of an event."""

    name: str
    value: Any
    audience: AudienceModel


class EventModel(_Strict):
    """An event as recorded."""

    number: int = Field(ge=1)
    at: int = Field(ge=0)
    cause: int = Field(default=0, ge=0)
    kind: str = Field(min_length=1, max_length=100)
    audience: AudienceModel = "everyone"
    payload: dict[str, Any] = Field(default_factory=dict)
    secrets: list[SecretModel] = Field(default_factory=list)
    redacted: list[str] = Field(default_factory=list, max_length=0)


class ActionModel(_Strict):
    """An action as recorded."""

    number: int = Field(ge=1)
    seat: str | None = None
    actor: str
    kind: str = Field(min_length=1, max_length=100)
    params: dict[str, Any] = Field(default_factory=dict)
    at: int = Field(ge=0)
    asked_at: int | None = Field(default=None, ge=0)
    dice: list[_Pair] = Field(default_factory=list)
    events: _Pair
    audience: AudienceModel = "everyone"


class RecordModel(_Strict):
    """A whole table record."""

    format: Literal["referee.table/1"]
    system: str = Field(pattern=r"^[a-z_][a-z0-9_]*$")
    setup: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatModel] = Field(default_factory=list)
    start: str = "00:00"
    version: int | None = Field(default=None, ge=0)
    actions: list[ActionModel] = Field(default_factory=list)
    events: list[EventModel] = Field(default_factory=list)


def parse_record(data: Any) -> RecordModel:
    """A record's fields, typed; :class:`ScenarioError` naming the first bad field's path."""
    if not isinstance(data, dict):
        raise ScenarioError(f"a table record is a mapping of fields, not {type(data).__name__}")
    try:
        return RecordModel.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        message = str(first["msg"]).removeprefix("Value error, ")
        raise ScenarioError(message, tuple(first["loc"])) from None


def replay_record(cls: type[Table[S]], data: Any, procedure: Procedure[S]) -> Table[S]:
    """The table a record holds, re-decided action by action with the recorded dice
    (:meth:`Table.from_record <referee.core.table.Table.from_record>`).

    :class:`ScenarioError` (with the path in the record) for a malformed record, and for
    one whose events are not what its actions produce, naming the first event that differs.
    """
    record = parse_record(data)
    table = _started(cls, record, procedure)
    recorded = [Event.from_json(e.model_dump()) for e in record.events]
    _same_events(recorded, table.log, 0, "the start of play")
    for index, entry in enumerate(record.actions):
        table = _replayed(table, index, ActionRecord.from_json(entry.model_dump()), recorded)
    if len(recorded) != table.version:
        raise ScenarioError(
            f"the record holds {len(recorded)} events, but its actions produce {table.version}",
            ("events", table.version),
        )
    if record.version is not None and record.version != table.version:
        raise ScenarioError(
            f"the record says version {record.version}, but it holds {table.version} events",
            ("version",),
        )
    return table


def _started(cls: type[Table[S]], record: RecordModel, procedure: Procedure[S]) -> Table[S]:
    """The record's table at the start of play, its dice commitment logged first as recorded."""
    try:
        preamble = []
        for first in record.events:
            if first.cause != 0 or first.kind != DICE_COMMITTED:
                break
            preamble.append(replace(Event.from_json(first.model_dump()), number=0, at=0))
        return cls.start(
            procedure,
            record.setup,
            system=record.system,
            seats=[Seat(s.id, tuple(s.plays)) for s in record.seats],
            start=record.start,
            preamble=preamble,
        )
    except ScenarioError as error:
        raise ScenarioError(error.reason, ("setup", *error.path)) from None
    except RefereeError as error:
        raise ScenarioError(f"the game could not set up: {error}", ("setup",)) from None


def _replayed(
    table: Table[S], index: int, saved: ActionRecord, recorded: Sequence[Event]
) -> Table[S]:
    """``table`` after the recorded action ``saved`` (the ``index``-th), re-decided with its
    recorded dice and salts, refused unless it replays to the same record and events."""
    if saved.number != index + 1:
        raise ScenarioError(
            f"action {index + 1} is numbered {saved.number}", ("actions", index, "number")
        )
    before = table.version
    dice = ReplayingDice(saved.dice, _salts(recorded, saved.events))
    try:
        if saved.kind == ADVANCE:
            to = int(saved.params.get("to", -1))  # type: ignore[arg-type]
            table = table.advance(to, seat=saved.seat)
        elif saved.kind in (SEED_DICE, REVEAL_DICE):
            action = Action(saved.actor, saved.kind, dict(saved.params))
            table = table.act(action, None, seat=saved.seat)
        else:
            action = Action(saved.actor, saved.kind, dict(saved.params))
            table = table.act(action, dice, at=saved.asked_at, seat=saved.seat)
    except RefereeError as error:
        raise ScenarioError(
            f"action {saved.number} ({saved.kind}) is refused on replay: {error}",
            ("actions", index),
        ) from None
    if dice.used != len(saved.dice):
        raise ScenarioError(
            f"action {saved.number} ({saved.kind}) rolled {dice.used} dice on replay, "
            f"but {len(saved.dice)} are recorded",
            ("actions", index, "dice"),
        )
    _same_events(recorded, table.log, before, f"action {saved.number} ({saved.kind})")
    replayed = table.actions[-1] if table.actions else None
    if replayed is None or replayed.to_json() != saved.to_json():
        raise ScenarioError(
            f"action {saved.number} ({saved.kind}) is recorded differently from how it "
            "replays (seat, time, dice or events)",
            ("actions", index),
        )
    return table


def _salts(recorded: Sequence[Event], span: tuple[int, int]) -> list[bytes]:
    """The salts of the choices sealed by the events ``span`` (first, last) of a record."""
    out: list[bytes] = []
    for event in recorded[span[0] - 1 : span[1]]:
        for part in event.secrets:
            if part.name == SALT:
                try:
                    out.append(bytes.fromhex(str(part.value)))
                except ValueError:
                    out.append(b"")
    return out


def _same_events(recorded: Sequence[Event], log: Log, before: int, cause: str) -> None:
    for number in range(before + 1, len(log) + 1):
        produced = log[number - 1]
        if number > len(recorded):
            raise ScenarioError(
                f"{cause} produces event {number} ({produced.kind}), which the record lacks",
                ("events",),
            )
        if recorded[number - 1] != produced:
            raise ScenarioError(
                f"event {number} ({recorded[number - 1].kind}) is not what {cause} produces "
                f"({produced.kind}): the record was altered or is corrupt",
                ("events", number - 1),
            )
