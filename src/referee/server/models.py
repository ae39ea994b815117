"""The JSON the API takes and gives, as pydantic models: what ``/openapi.json`` describes.

Requests are strict (unknown fields refused, ``"3"`` is not a number). Responses are built from
:func:`~referee.core.table.observe` and the registry; the models document their shape.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from referee.server.auth import TABLE_ID

__all__ = [
    "ActBody",
    "ActionsOut",
    "ChoiceOut",
    "CreateTableBody",
    "CreatedTableOut",
    "EventOut",
    "EventsOut",
    "GameOut",
    "GameSummaryOut",
    "JoinBody",
    "ObservationOut",
    "RecordOut",
    "SeatOut",
    "SeatTokenOut",
    "SimulationOut",
    "TableListOut",
    "TableRowOut",
    "UndoBody",
    "WhoAmIOut",
]

_NAME = r"^[A-Za-z0-9_][A-Za-z0-9_.\- ]{0,63}$"
Json = Any


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


# ----------------------------------------------------------------------------- requests


class CreateTableBody(_Request):
    """A new table: the game, its setup (as the game's setup schema says), a name, and
    optionally which player plays what and the time of day play starts."""

    system: str = Field(min_length=1, max_length=64, pattern=r"^[a-z_][a-z0-9_]*$")
    setup: dict[str, Json] = Field(default_factory=dict)
    name: str = Field(min_length=1, max_length=100)
    players: dict[str, list[str]] | None = None
    start: str = Field(default="00:00", pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$")


class JoinBody(_Request):
    """A seat's token, from its join link."""

    token: str = Field(min_length=1, max_length=512)


class ActBody(_Request):
    """An action: who acts (a character, faction or player this seat plays; by default the
    one it plays, or the seat itself), its kind and parameters, the version of the table it
    was decided on, and (the referee only) the game time to take it at."""

    kind: str = Field(min_length=1, max_length=100)
    params: dict[str, Json] = Field(default_factory=dict)
    version: int = Field(ge=0)
    actor: str | None = Field(default=None, min_length=1, max_length=100)
    at: int | None = Field(default=None, ge=0, le=10**9)


class OddsBody(_Request):
    """An action as a form holds it before it is sent: whose (by default the one this seat
    plays), its kind and its parameters so far."""

    kind: str = Field(min_length=1, max_length=100)
    params: dict[str, Json] = Field(default_factory=dict)
    actor: str | None = Field(default=None, min_length=1, max_length=100)


class UndoBody(_Request):
    """Undo the last action; ``version``, if given, is the version read (409 if stale)."""

    version: int | None = Field(default=None, ge=0)


# ---------------------------------------------------------------------------- responses


class GameSummaryOut(BaseModel):
    """A game in the list of games."""

    name: str
    title: str
    summary: str
    has_referee: bool


class GameOut(GameSummaryOut):
    """A game: its setup schema and its action catalogue (each kind with its JSON Schema)."""

    rules: str
    setup_schema: dict[str, Json]
    actions: list[dict[str, Json]]


class SeatOut(BaseModel):
    """A seat and what it plays."""

    id: str
    plays: list[str]


class SeatTokenOut(SeatOut):
    """A seat's token and its join link (``/join/<table>#<token>``: the token sits after the
    ``#``, so it never reaches a server's log)."""

    token: str
    join: str


class CreatedTableOut(BaseModel):
    """A table just created, with every seat's token: hand each player theirs."""

    id: str = Field(pattern=TABLE_ID)
    name: str
    system: str
    version: int
    seats: list[SeatTokenOut]


class TableRowOut(BaseModel):
    """A table this browser has joined, and its seat there."""

    id: str
    name: str
    system: str
    version: int
    seat: str


class TableListOut(BaseModel):
    """The tables the caller holds a seat at."""

    tables: list[TableRowOut]


class WhoAmIOut(BaseModel):
    """The caller's seat at a table: the table's id and name, its game (and the game's
    title), the seat, what it plays."""

    table: str
    name: str
    title: str
    system: str
    seat: str
    plays: list[str]
    is_referee: bool
    version: int


class EventOut(BaseModel):
    """An event as this seat may see it (secret parts it may not see are named in
    ``redacted``), with its narration."""

    number: int
    at: int
    cause: int
    kind: str
    audience: Literal["everyone"] | list[str]
    payload: dict[str, Json]
    secrets: list[dict[str, Json]]
    redacted: list[str]
    text: str


class ChoiceOut(BaseModel):
    """An action open to this seat now: the domain of each parameter, its odds previews, and
    the JSON Schema of its parameters."""

    actor: str
    kind: str
    label: str
    params: dict[str, Json]
    odds: list[Json]
    prompt: bool = False
    section: str = ""
    summary: str = ""
    parameters: dict[str, Json] = Field(default_factory=dict)


class ObservationOut(BaseModel):
    """A table as one seat observes it (``observe``): the events after ``since``, the action
    records it may see, the state it may see, the choices open to it, whose move it is and
    the odds previews it may see. ``reset`` is true when the events start again from the
    first (the log was rewritten by an undo since ``since``); ``tag`` is what to send back
    with ``since`` to catch up."""

    table: str
    system: str
    viewer: str
    plays: list[str]
    version: int
    since: int
    now: int
    start: str
    events: list[EventOut]
    actions: list[dict[str, Json]]
    state: Json
    choices: list[dict[str, Json]]
    to_move: list[str]
    previews: list[Json]
    prompts: list[dict[str, Json]] = Field(
        default_factory=list,
        description="the decisions the table waits for that this seat may know of, its own first",
    )
    result: dict[str, Json] = Field(
        default_factory=dict,
        description="whether the game (and its current conflict) is over, and who won",
    )
    waiting: list[dict[str, Json]] = Field(
        default_factory=list,
        description="why each character this seat plays that has no choice now cannot act, "
        "and until when",
    )
    reset: bool
    tag: str
    earlier: int | None = Field(
        default=None,
        description="opened afresh: the ``before`` to page back from (GET .../events) if this "
        "seat may see older events than these, else null",
    )


class EventsOut(BaseModel):
    """A page of the log as one seat observes it: the events numbered below ``before`` (the
    last ``limit`` of them), the action records that end among them, and ``earlier``: the
    ``before`` of the page older still, or null when this page reaches the first event."""

    table: str
    version: int
    before: int
    events: list[EventOut]
    actions: list[dict[str, Json]]
    earlier: int | None


class ActionsOut(BaseModel):
    """The actions this seat may take now."""

    table: str
    version: int
    to_move: list[str]
    prompts: list[dict[str, Json]] = Field(default_factory=list)
    choices: list[ChoiceOut]


class OddsOut(BaseModel):
    """The exact odds of the checks an action would roll with these parameters, as this seat
    may see them (none where it may see none, or the action rolls nothing)."""

    table: str
    version: int
    kind: str
    actor: str
    odds: list[dict[str, Json]]


class VerifyOut(BaseModel):
    """Every die of the table checked against its revealed dice seed, and every revealed sealed
    choice against its commitment (``referee.core.fairness.verify``)."""

    table: str
    version: int
    ok: bool
    checked: int
    sealed: int
    dice: int
    choices: int
    problems: list[str]


class RecordOut(BaseModel):
    """A whole table record (``Table.to_record``): for the referee's seat only."""

    model_config = ConfigDict(extra="allow")

    format: str
    system: str
    setup: dict[str, Json]
    seats: list[dict[str, Json]]
    start: str
    version: int
    actions: list[dict[str, Json]]
    events: list[dict[str, Json]]


class HealthOut(BaseModel):
    """What this process holds for live tables, in counts (nothing that names a table)."""

    ok: bool
    live_tables: int
    live_sockets: int
    observations_kept: int


class SimulationOut(BaseModel):
    """How deadly is this: the table's main conflict played ``simulation.runs`` times from
    where it stands (estimates with 95% intervals) and, where a model gives them, its exact
    odds (``referee.sim.answer``; docs/simulate.md). For the referee's seat only."""

    model_config = ConfigDict(extra="allow")

    table: str
    version: int
    system: str
    runs_asked: int
    simulation: dict[str, Json]
    exact: dict[str, Json] | None
