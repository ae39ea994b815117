"""The JSON API, resource by resource; every route about a table resolves its caller first.

See ``docs/server.md`` for the routes in a table and ``/openapi.json`` for their schemas. A
route that names a table takes its :class:`~referee.server.auth.Caller` as its first
dependency: no credential, an unknown or revoked token, or a token of another table is the one
401, before anything about the table is looked at. What a seat gets is built by
:mod:`referee.server.views` from ``observe``; the whole record goes to the referee's seat alone.
"""

from __future__ import annotations

import re
import threading
from typing import Annotated, Any, Literal

from anyio import to_thread
from fastapi import APIRouter, Depends, Path, Query, Request, WebSocket
from fastapi.responses import JSONResponse, Response

from referee.core.errors import RefereeError
from referee.core.procedures import Action
from referee.core.registry import system, systems
from referee.server.auth import TABLE_ID, Caller, cookie_name, token_from
from referee.server.errors import ApiError, ErrorBody, from_referee_error, unauthorized
from referee.server.live import Subscriber
from referee.server.models import (
    ActBody,
    ActionsOut,
    CreatedTableOut,
    CreateTableBody,
    GameOut,
    GameSummaryOut,
    JoinBody,
    ObservationOut,
    OddsBody,
    OddsOut,
    RecordOut,
    SeatOut,
    SeatTokenOut,
    SimulationOut,
    TableListOut,
    UndoBody,
    VerifyOut,
    WhoAmIOut,
)
from referee.server.state import ServerState, state_of
from referee.server.views import choices

__all__ = ["router"]

router = APIRouter(prefix="/api")

TableId = Annotated[str, Path(pattern=TABLE_ID, description="The table's id.")]
SeatName = Annotated[
    str, Path(pattern=r"^[A-Za-z0-9_][A-Za-z0-9_.\- ]{0,63}$", description="A seat's id.")
]

_ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorBody, "description": text}
    for status, text in {
        401: "No seat of this table: no token, or one that opens no seat here.",
        403: "This seat may not do that.",
        404: "No such thing.",
        413: "The body is too large.",
        415: "The body is not JSON.",
        422: "The request, the action or the setup is malformed, or the rules refuse it.",
        429: "Too many requests from this seat.",
        503: "The database is unavailable.",
    }.items()
}


def _answers(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The error answers a route documents: ``statuses``, 422 (a malformed path, query or
    body, in the one error body) and 503 (the database)."""
    return {status: _ERRORS[status] for status in sorted({*statuses, 422, 503})}


_STALE: dict[int | str, dict[str, Any]] = {
    409: {"model": ErrorBody, "description": "Stale: the table moved on since that version."}
}


def _client(request: Request) -> str:
    return request.client.host if request.client is not None else "?"


async def caller(request: Request, table_id: TableId) -> Caller:
    """The seat the request's token opens at ``table_id``, rate-limited (or the one 401).

    A token checked a moment ago is known at once; any other is checked by the store in a
    worker thread (a hash and a query), never in the event loop.
    """
    state = state_of(request.app)
    token, via = token_from(request.headers, request.cookies, table_id)
    seat = state.resolver.remembered(table_id, token)
    if seat is None:
        seat = await to_thread.run_sync(state.resolver.seat, table_id, token)
    if seat is None:
        state.anonymous.check(f"fail:{_client(request)}")
        raise unauthorized()
    state.limiter.check(f"{table_id}:{seat}")
    return Caller(table_id, seat, via)


Seat = Annotated[Caller, Depends(caller)]


def _referee(who: Caller, what: str) -> None:
    if not who.is_referee:
        raise ApiError(403, "forbidden", f"only the referee's seat may {what}")


def _json(data: Any, status: int = 200) -> JSONResponse:
    return JSONResponse(data, status_code=status)


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
    return _json(out)


@router.get("/games/{name}", response_model=GameOut, responses=_answers(404), tags=["games"])
def get_game(name: Annotated[str, Path(max_length=64)]) -> JSONResponse:
    """A game: its title, its setup's JSON Schema and its action catalogue."""
    if name not in systems():
        raise ApiError(404, "not_found", f"no game {name!r}", where=["name"])
    return _json(system(name).to_json())


# -------------------------------------------------------------------------------- tables


@router.post(
    "/tables",
    response_model=CreatedTableOut,
    status_code=201,
    responses=_answers(413, 415, 422, 429),
    tags=["tables"],
)
def create_table(body: CreateTableBody, request: Request) -> JSONResponse:
    """Create a table from a setup. The answer holds every seat's token, once: hand each
    player the join link of theirs."""
    state = state_of(request.app)
    state.anonymous.check(f"create:{_client(request)}")
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
    return _json(
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


@router.get("/tables", response_model=TableListOut, responses=_answers(), tags=["tables"])
def my_tables(request: Request) -> JSONResponse:
    """The tables this browser has joined (one cookie each), with its seat at each."""
    state = state_of(request.app)
    mine: list[tuple[str, str]] = []
    prefix = cookie_name("")
    for name, token in list(request.cookies.items())[:200]:
        if not name.startswith(prefix):
            continue
        table_id = name[len(prefix) :]
        seat = state.resolver.seat(table_id, token)
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
    return _json({"tables": rows})


# --------------------------------------------------------------------------------- seats


@router.post(
    "/tables/{table_id}/join",
    response_model=WhoAmIOut,
    responses=_answers(401, 413, 415, 422, 429),
    tags=["seats"],
)
def join(table_id: TableId, body: JoinBody, request: Request) -> JSONResponse:
    """Exchange a seat's token (from its join link) for an HttpOnly, SameSite=Strict cookie."""
    state = state_of(request.app)
    state.anonymous.check(f"join:{_client(request)}")
    seat = state.resolver.seat(table_id, body.token)
    if seat is None:
        raise unauthorized()
    table = state.store.load(table_id)
    response = _json(_whoami(table_id, table, seat, state.store.name(table_id)))
    response.set_cookie(
        cookie_name(table_id),
        body.token,
        max_age=state.settings.cookie_max_age,
        path="/",
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
    )
    return response


@router.post("/tables/{table_id}/leave", status_code=204, responses=_answers(422), tags=["seats"])
def leave(table_id: TableId, request: Request) -> Response:
    """Forget this browser's seat at the table (its cookie); the token itself stays valid."""
    response = Response(status_code=204)
    response.delete_cookie(
        cookie_name(table_id),
        path="/",
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
    )
    return response


def _whoami(table_id: str, table: Any, seat: str, name: str) -> dict[str, Any]:
    plays = list(table.seat(seat).plays)
    return {
        "table": table_id,
        "name": name,
        "title": system(table.system).title,
        "system": table.system,
        "seat": seat,
        "plays": plays,
        "is_referee": seat == "referee",
        "version": table.version,
    }


@router.get(
    "/tables/{table_id}/seat",
    response_model=WhoAmIOut,
    responses=_answers(401, 429),
    tags=["seats"],
)
def my_seat(who: Seat, request: Request) -> JSONResponse:
    """The caller's seat at this table."""
    store = state_of(request.app).store
    table = store.load(who.table_id)
    return _json(_whoami(who.table_id, table, who.seat, store.name(who.table_id)))


@router.get(
    "/tables/{table_id}/seats",
    response_model=list[SeatOut],
    responses=_answers(401, 403, 429),
    tags=["seats"],
)
def list_seats(who: Seat, request: Request) -> JSONResponse:
    """Every seat of the table and what it plays (the referee's seat only)."""
    _referee(who, "list the seats")
    table = state_of(request.app).store.load(who.table_id)
    return _json([seat.to_json() for seat in table.seats])


def _seat_of(state: ServerState, table_id: str, seat: str) -> None:
    table = state.store.load(table_id)
    if seat not in {s.id for s in table.seats}:
        raise ApiError(404, "not_found", f"this table has no seat {seat!r}", where=["seat"])


@router.post(
    "/tables/{table_id}/seats/{seat}/token",
    response_model=SeatTokenOut,
    status_code=201,
    responses=_answers(401, 403, 404, 429),
    tags=["seats"],
)
def mint(who: Seat, seat: SeatName, request: Request) -> JSONResponse:
    """A new token for a seat (the referee's seat only): its old token stops working."""
    _referee(who, "mint seats' tokens")
    state = state_of(request.app)
    _seat_of(state, who.table_id, seat)
    token = state.store.mint(who.table_id, seat)
    state.forget_seat(who.table_id, seat)
    table = state.store.load(who.table_id)
    return _json(
        {
            **table.seat(seat).to_json(),
            "token": token,
            "join": f"/join/{who.table_id}#{token}",
        },
        201,
    )


@router.delete(
    "/tables/{table_id}/seats/{seat}/token",
    status_code=204,
    responses=_answers(401, 403, 404, 429),
    tags=["seats"],
)
def revoke(who: Seat, seat: SeatName, request: Request) -> Response:
    """Revoke a seat's token (the referee's seat only): its cookies and sockets stop working,
    in every server process."""
    _referee(who, "revoke seats' tokens")
    state = state_of(request.app)
    _seat_of(state, who.table_id, seat)
    state.store.revoke(who.table_id, seat)
    state.forget_seat(who.table_id, seat)
    return Response(status_code=204)


# -------------------------------------------------------------------------- a table seen


@router.get(
    "/tables/{table_id}",
    response_model=ObservationOut,
    responses=_answers(401, 422, 429),
    tags=["table"],
)
def observe_table(
    who: Seat,
    request: Request,
    since: Annotated[int, Query(ge=0, le=2**31)] = 0,
    tag: Annotated[str | None, Query(max_length=64)] = None,
) -> JSONResponse:
    """The table as this seat observes it: the events after ``since`` (all by default), the
    action records, state, choices and previews it may see. Send back ``tag`` with ``since``
    to be told (``reset``) when an undo rewrote what you had."""
    state = state_of(request.app)
    table = state.load(who.table_id)
    return _json(state.observations.observation(table, who.table_id, who.seat, since, tag))


@router.get(
    "/tables/{table_id}/actions",
    response_model=ActionsOut,
    responses=_answers(401, 429),
    tags=["table"],
)
def table_actions(who: Seat, request: Request) -> JSONResponse:
    """The actions this seat may take now, with their parameters' domains, JSON Schemas and
    odds previews."""
    state = state_of(request.app)
    table = state.load(who.table_id)
    return _json(choices(table, state.observations.observation(table, who.table_id, who.seat)))


@router.post(
    "/tables/{table_id}/actions",
    response_model=ObservationOut,
    responses={**_answers(401, 403, 413, 415, 422, 429), **_STALE},
    tags=["table"],
)
def act(who: Seat, body: ActBody, request: Request) -> JSONResponse:
    """Take an action, decided on ``version`` (409 if the table moved on since). The answer is
    the table as this seat observes it after the version it read."""
    state = state_of(request.app)
    table = state.load(who.table_id)
    seat = table.seat(who.seat)
    if body.at is not None and table.procedure.has_referee and not who.is_referee:
        raise ApiError(403, "forbidden", "only the referee's seat sets the game time", where=["at"])
    actor = body.actor
    if actor is None:
        actor = seat.plays[0] if len(seat.plays) == 1 else seat.id
    try:
        after = state.store.act(
            who.table_id,
            Action(actor, body.kind, dict(body.params)),
            seat=who.seat,
            expect_version=body.version,
            at=body.at,
        )
    except Exception as error:
        raise _refused(error) from None
    state.changed(who.table_id, after)
    return _json(state.observations.observation(after, who.table_id, who.seat, body.version))


@router.post(
    "/tables/{table_id}/odds",
    response_model=OddsOut,
    responses=_answers(401, 403, 413, 415, 422, 429),
    tags=["table"],
)
def odds(who: Seat, body: OddsBody, request: Request) -> JSONResponse:
    """The exact odds of the checks this action would roll with these parameters, before it is
    taken (what a form shows as its fields change). Nothing is rolled or stored; the
    parameters are checked as for acting (422), and only a seat that may take the action is
    told its odds (403)."""
    from referee.core.table import preview

    state = state_of(request.app)
    table = state.load(who.table_id)
    seat = table.seat(who.seat)
    actor = body.actor
    if actor is None:
        actor = seat.plays[0] if len(seat.plays) == 1 else seat.id
    try:
        shown = preview(table, who.seat, Action(actor, body.kind, dict(body.params)))
    except Exception as error:
        raise _refused(error) from None
    data = {
        "table": who.table_id,
        "version": table.version,
        "kind": body.kind,
        "actor": actor,
        "odds": [p.to_json() for p in shown],
    }
    return _json(data)


def _refused(error: Exception) -> Exception:
    from referee.core.errors import RefereeError

    if isinstance(error, RefereeError):
        return from_referee_error(error)
    return error


SIMULATION_RUNS = 2_000
"""The most encounters one ``GET /simulate`` may ask for."""
SIMULATION_SECONDS = 20.0
"""Seconds of simulation one request may take; the answer says how many encounters were played."""
_SIMULATIONS = threading.BoundedSemaphore(1)
"""One simulation at a time in a process: they are CPU-bound (each runs in a worker thread)."""


@router.get(
    "/tables/{table_id}/simulate",
    response_model=SimulationOut,
    responses=_answers(401, 403, 429),
    tags=["table"],
)
def simulate_table(
    who: Seat,
    request: Request,
    runs: Annotated[int, Query(ge=1, le=SIMULATION_RUNS)] = 300,
    seed: Annotated[int, Query(ge=0, le=2**31)] = 0,
) -> JSONResponse:
    """How deadly is this? The table's main conflict played ``runs`` times from the table as
    stored, through the game's own procedure (estimates with 95% intervals), and its exact odds
    where a model gives them (``referee.sim``, docs/simulate.md). The referee's seat only: the
    answer reads every secret of the table. A game without a referee's seat (Burning Kingdoms)
    answers no seat: the odds of a maneuver would tell of sealed slips. The same ``seed`` and
    table give the same answer; at most ``SIMULATION_SECONDS`` of play (``simulation.runs``
    says how many were played)."""
    from referee.sim.answer import answer
    from referee.sim.conflicts import CONFLICTS

    _referee(who, "ask how deadly the table's conflict is")
    state = state_of(request.app)
    table = state.load(who.table_id)
    if table.system not in CONFLICTS:
        raise ApiError(
            422, "no_simulation", f"the game {table.system!r} has no whole-encounter simulation"
        )
    if not _SIMULATIONS.acquire(blocking=False):
        raise ApiError(
            429,
            "rate_limited",
            "another simulation is running on this server: try again shortly",
            headers={"Retry-After": "5"},
        )
    try:
        result = answer(table, runs=runs, seed=seed, time_limit=SIMULATION_SECONDS)
    except Exception as error:
        raise _refused(error) from None
    finally:
        _SIMULATIONS.release()
    return _json({"table": who.table_id, "version": table.version, "runs_asked": runs, **result})


@router.post(
    "/tables/{table_id}/undo",
    response_model=ObservationOut,
    responses={**_answers(401, 403, 413, 415, 422, 429), **_STALE},
    tags=["table"],
)
def undo(who: Seat, request: Request, body: UndoBody | None = None) -> JSONResponse:
    """Take the last action back (the referee's seat; in a game without one, the seat that took
    it). The answer starts again from the first event (``reset``)."""
    state = state_of(request.app)
    expect = body.version if body is not None else None
    try:
        after = state.store.undo(who.table_id, seat=who.seat, expect_version=expect)
    except Exception as error:
        raise _refused(error) from None
    state.changed(who.table_id, after)
    data = {**state.observations.observation(after, who.table_id, who.seat), "reset": True}
    return _json(data)


@router.get(
    "/tables/{table_id}/verify",
    response_model=VerifyOut,
    responses=_answers(401, 429),
    tags=["table"],
)
def verify_dice(who: Seat, request: Request) -> JSONResponse:
    """Check every die rolled in an epoch whose seed has been revealed against that seed, and
    every revealed sealed choice against its commitment: any seat may ask (docs/fairness.md).
    Nothing of a seed not yet revealed is told, only how many actions wait for it."""
    from referee.core.fairness import verify

    state = state_of(request.app)
    table = state.load(who.table_id)
    report = verify(table)
    data = {
        "table": who.table_id,
        "version": table.version,
        "ok": report.ok,
        "checked": report.checked,
        "sealed": report.sealed,
        "dice": report.dice,
        "choices": report.choices,
        "problems": list(report.problems),
    }
    return _json(data)


@router.get(
    "/tables/{table_id}/record",
    response_model=RecordOut,
    responses=_answers(401, 403, 429),
    tags=["table"],
)
def export(who: Seat, request: Request) -> JSONResponse:
    """The whole table record, every secret in it: the referee's seat only."""
    _referee(who, "export the table's record")
    return _json(state_of(request.app).store.export(who.table_id))


@router.get(
    "/tables/{table_id}/handouts",
    responses={
        200: {"content": {"application/zip": {}}, "description": "The seat's handouts, zipped"},
        **_answers(401, 404, 429),
    },
    response_class=Response,
    tags=["table"],
)
def handouts(
    who: Seat,
    request: Request,
    paper: Annotated[Literal["a4", "letter"], Query()] = "a4",
) -> Response:
    """This seat's handouts as PDF files in a zip (``referee.handouts``): the referee's seat
    gets everything, a player their own — each printed from ``observe`` for the seat."""
    import io
    import zipfile

    from referee.handouts import render_handouts

    state = state_of(request.app)
    table = state.load(who.table_id)
    try:
        files = render_handouts(table, who.seat, paper)
    except ValueError:
        raise ApiError(
            404, "no_handouts", f"the game {table.system!r} prints no handouts"
        ) from None
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in sorted(files.items()):
            archive.writestr(name, data)
    filename = f"handouts-{who.seat}-{paper}.zip"
    return Response(
        buffer.getvalue(),
        media_type="application/zip",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


# ------------------------------------------------------------------------------ the live


_HOST = re.compile(r"^[a-z][a-z0-9+.\-]*://([^/]+)")


def _same_origin(websocket: WebSocket) -> bool:
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    host = websocket.headers.get("host", "")
    match = _HOST.match(origin.lower())
    return match is not None and match.group(1) == host.lower()


@router.websocket("/tables/{table_id}/live")
async def live(
    websocket: WebSocket,
    table_id: str,
    since: int = 0,
    tag: str | None = None,
) -> None:
    """Each change of the table, as this seat observes it (see :mod:`referee.server.live`)."""
    state = state_of(websocket.app)
    token, via = token_from(websocket.headers, websocket.cookies, table_id)
    seat = await to_thread.run_sync(state.resolver.seat, table_id, token)
    problem: ApiError | None = None
    if seat is None or (via == "cookie" and not _same_origin(websocket)):
        problem = ApiError(401, "unauthorized", "this socket opens no seat here")
    elif not state.limiter.allow(f"{table_id}:{seat}"):
        problem = ApiError(429, "rate_limited", "too many requests: slow down")
    elif since < 0 or (tag is not None and len(tag) > 64):
        problem = ApiError(422, "invalid", "since is a version (0 or more)", where=["since"])
    if problem is not None or seat is None:
        assert problem is not None
        await websocket.send_denial_response(problem.response())
        return
    table = await to_thread.run_sync(state.load, table_id)
    await websocket.accept()
    known_seat = seat

    def still_valid() -> bool:
        return state.resolver.seat(table_id, token) == known_seat

    subscriber = Subscriber(table_id, seat, websocket, since, tag, still_valid)
    await state.hub.serve(subscriber, table)
