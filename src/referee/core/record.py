"""The shape of a table record (``Table.to_record``), checked field by field when read.

A record read from a file or a database is hostile input: every field is typed, unknown fields
are refused with their path, and :meth:`~referee.core.table.Table.from_record` then re-decides
every action with its recorded dice, refusing a record whose events differ.

>>> parse_record({"format": "referee.table/1", "system": "toy", "setup": {}, "seats": [],
...               "actions": [], "events": [], "extra": 1})
Traceback (most recent call last):
...
referee.core.errors.ScenarioError: extra: Extra inputs are not permitted
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from referee.core.errors import ScenarioError

__all__ = ["RecordModel", "parse_record"]

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
