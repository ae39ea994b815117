"""The JSON API, resource by resource; every route about a table resolves its caller first.

See ``docs/server.md`` for the routes in a table and ``/openapi.json`` for their schemas. A
route that names a table takes its :class:`~referee.server.auth.Caller` as its first
dependency (:mod:`referee.server.answers`): no credential, an unknown or revoked token, or a
token of another table is the one 401, before anything about the table is looked at. What a seat
gets is built by :mod:`referee.server.views` from ``observe``; the whole record goes to the
referee's seat alone.

The games and the tables are here; a table's seats in :mod:`referee.server.seat_routes`; a table
seen and played, and its live socket, in :mod:`referee.server.play_routes`.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Request
from fastapi.responses import JSONResponse

from referee.core.errors import RefereeError
from referee.core.registry import system, systems
from referee.server import play_routes, seat_routes
from referee.server.answers import answers, client_of, json_answer
from referee.server.auth import cookie_name
from referee.server.errors import ApiError, from_referee_error
from referee.server.models import (
    CreatedTableOut,
    CreateTableBody,
    GameOut,
    GameSummaryOut,
    HealthOut,
    TableListOut,
)
from referee.server.state import state_of

__all__ = ["router"]

router = APIRouter(prefix="/api")
# FastAPI tries a request's path against the routes in the order they were added, included
# routers in turn: a table played first, its seats next, the games and the tables last (issue 29:
# an action was tried against every other route first, some 0.1 ms of CPU each time).
router.include_router(play_routes.router)
router.include_router(seat_routes.router)


# --------------------------------------------------------------------------------- games


@router.get("/games", response_model=list[GameSummaryOut], tags=["games"])
def list_games() -> JSONResponse:
    """Every game this server plays."""
    out = []
    for name in systems():
        try:
            game = system(name)
        except Exception:  # a game that cannot load is not offered
            continue
        out.append(
            {
                "name": game.name,
                "title": game.title,
                "summary": game.summary,
                "has_referee": game.procedure.has_referee,
            }
        )
    return json_answer(out)


@router.get("/health", response_model=HealthOut, tags=["games"])
def health(request: Request) -> JSONResponse:
    """This process is up; how many tables have a seat listening, how many live sockets are
    open and how many seats' observations are kept, here (counts: no table is named)."""
    state = state_of(request.app)
    return json_answer(
        {
            "ok": True,
            "live_tables": len(state.hub.live_tables),
            "live_sockets": state.hub.live_sockets,
            "observations_kept": state.observations.count(),
        }
    )


@router.get("/games/{name}", response_model=GameOut, responses=answers(404), tags=["games"])
def get_game(name: Annotated[str, Path(max_length=64)]) -> JSONResponse:
    """A game: its title, its setup's JSON Schema and its action catalogue."""
    if name not in systems():
        raise ApiError(404, "not_found", f"no game {name!r}", where=["name"])
    return json_answer(system(name).to_json())


# -------------------------------------------------------------------------------- tables


@router.post(
    "/tables",
    response_model=CreatedTableOut,
    status_code=201,
    responses=answers(413, 415, 422, 429),
    tags=["tables"],
)
def create_table(body: CreateTableBody, request: Request) -> JSONResponse:
    """Create a table from a setup. The answer holds every seat's token, once: hand each
    player the join link of theirs."""
    state = state_of(request.app)
    state.anonymous.check(f"create:{client_of(request)}")
    if body.system not in systems():
        raise ApiError(422, "setup", f"no game {body.system!r}", where=["body", "system"])
    try:
        created = state.store.create_table(
            system(body.system),
            body.setup,
            name=body.name,
            players=body.players,
            start=body.start,
        )
    except (KeyError, ValueError, TypeError) as error:  # as `referee run` treats a setup
        raise ApiError(
            422, "setup", f"the game could not set up: {error!r}", where=["body", "setup"]
        ) from None
    except Exception as error:
        raise _located(error, ["body"]) from None
    table = created.table
    tokens = created.tokens
    seats = [
        {
            **seat.to_json(),
            "token": tokens[seat.id],
            "join": f"/join/{created.id}#{tokens[seat.id]}",
        }
        for seat in table.seats
        if seat.id in tokens
    ]
    return json_answer(
        {
            "id": created.id,
            "name": body.name,
            "system": body.system,
            "version": table.version,
            "seats": seats,
        },
        201,
    )


def _located(error: Exception, prefix: list[str | int]) -> ApiError:
    from referee.core.errors import RefereeError, ScenarioError

    if isinstance(error, ScenarioError):
        # the body's own `players` and `start` are checked before the game sees the setup, so
        # a path is in the setup (whose game may have a `start` or `players` of its own: the
        # Intrigue clock, the Kingdoms players) unless it already says so
        where: list[str | int] = [*prefix, "setup", *error.path]
        if error.path and error.path[0] == "setup":
            where = [*prefix, *error.path]
        return ApiError(422, "setup", str(error), where=where, reason=error.reason)
    if isinstance(error, RefereeError):
        return from_referee_error(error)
    raise error


@router.get("/tables", response_model=TableListOut, responses=answers(), tags=["tables"])
def my_tables(request: Request) -> JSONResponse:
    """The tables this browser has joined (one cookie each), with its seat at each.

    A token checked a moment ago costs nothing; the first one not yet known costs one hash,
    and each further one is taken from the address's anonymous allowance (429 when it is
    spent), so a request of 200 made-up cookies cannot cost 200 hashes.
    """
    state = state_of(request.app)
    mine: list[tuple[str, str]] = []
    prefix = cookie_name("")
    hashed = 0
    for name, token in list(request.cookies.items())[:200]:
        if not name.startswith(prefix):
            continue
        table_id = name[len(prefix) :]
        key = state.resolver.key_of(token)
        seat = state.resolver.remembered(table_id, token, key)
        if seat is None:
            if hashed:
                state.anonymous.check(f"tables:{client_of(request)}")
            hashed += 1
            seat = state.resolver.seat(table_id, token, key)
        if seat is not None:
            mine.append((table_id, seat))
    rows = []
    for table_id, seat in mine:
        try:
            table = state.load(table_id)
            name = state.store.name(table_id)
        except RefereeError:  # gone since the cookie was set
            continue
        row = {"id": table_id, "name": name, "system": table.system, "version": table.version}
        rows.append({**row, "seat": seat})
    return json_answer({"tables": rows})
