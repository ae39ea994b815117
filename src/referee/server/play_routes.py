"""A table seen and played over HTTP, by one seat: observe it, its choices, act, the odds of an
action, how deadly its conflict is, undo, verify the dice, the whole record, the handouts, and
the live socket (docs/server.md, "A table"). Every answer is built from ``observe``
(:mod:`referee.server.views`); the whole record goes to the referee's seat alone.
"""

from __future__ import annotations

import re
import threading
from typing import Annotated, Literal

from anyio import to_thread
from fastapi import APIRouter, Query, Request, WebSocket
from fastapi.responses import JSONResponse, Response

from referee.core.procedures import Action
from referee.server.answers import (
    STALE,
    Seat,
    answers,
    json_answer,
    referee_only,
    refused,
)
from referee.server.auth import token_from
from referee.server.errors import ApiError
from referee.server.live import Subscriber
from referee.server.models import (
    ActBody,
    ActionsOut,
    EventsOut,
    ObservationOut,
    OddsBody,
    OddsOut,
    RecordOut,
    SimulationOut,
    UndoBody,
    VerifyOut,
)
from referee.server.state import state_of
from referee.server.views import OPEN_EVENTS, choices

__all__ = ["EVENTS_PAGE_MAX", "SIMULATION_RUNS", "SIMULATION_SECONDS", "router"]

router = APIRouter()

EVENTS_PAGE_MAX = 1_000
"""The most events one page of the log (or one opening of a table) may ask for."""


# an action first: the route most asked for (FastAPI tries them in order)
@router.post(
    "/tables/{table_id}/actions",
    response_model=ObservationOut,
    responses={**answers(401, 403, 413, 415, 422, 429), **STALE},
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
        raise refused(error) from None
    state.changed(who.table_id, after)
    return json_answer(state.observations.observation(after, who.table_id, who.seat, body.version))


@router.get(
    "/tables/{table_id}",
    response_model=ObservationOut,
    responses=answers(401, 422, 429),
    tags=["table"],
)
def observe_table(
    who: Seat,
    request: Request,
    since: Annotated[int, Query(ge=0, le=2**31)] = 0,
    tag: Annotated[str | None, Query(max_length=64)] = None,
    limit: Annotated[int, Query(ge=1, le=EVENTS_PAGE_MAX)] = OPEN_EVENTS,
) -> JSONResponse:
    """The table as this seat observes it: the events after ``since``, the action records,
    state, choices and previews it may see. Send back ``tag`` with ``since`` to be told
    (``reset``) when an undo rewrote what you had. Opened afresh (no ``since``, or ``reset``),
    only the last ``limit`` events come, and ``earlier`` says from where to ask for older ones
    (``GET .../events?before=``); with ``since``, every event missed comes."""
    state = state_of(request.app)
    table = state.load(who.table_id)
    return json_answer(state.observations.opening(table, who.table_id, who.seat, since, tag, limit))


@router.get(
    "/tables/{table_id}/events",
    response_model=EventsOut,
    responses=answers(401, 422, 429),
    tags=["table"],
)
def earlier(
    who: Seat,
    request: Request,
    before: Annotated[int | None, Query(ge=1, le=2**31)] = None,
    limit: Annotated[int, Query(ge=1, le=EVENTS_PAGE_MAX)] = OPEN_EVENTS,
) -> JSONResponse:
    """A page of the log as this seat observes it: the last ``limit`` events numbered below
    ``before`` (below the table's next event by default), the action records that end among
    them, and ``earlier``: the ``before`` of the page older still, or null at the first."""
    state = state_of(request.app)
    table = state.load(who.table_id)
    end = table.version + 1 if before is None else before
    return json_answer(state.observations.earlier(table, who.table_id, who.seat, end, limit))


@router.get(
    "/tables/{table_id}/actions",
    response_model=ActionsOut,
    responses=answers(401, 429),
    tags=["table"],
)
def table_actions(who: Seat, request: Request) -> JSONResponse:
    """The actions this seat may take now, with their parameters' domains, JSON Schemas and
    odds previews."""
    state = state_of(request.app)
    table = state.load(who.table_id)
    return json_answer(
        choices(table, state.observations.observation(table, who.table_id, who.seat, table.version))
    )


@router.post(
    "/tables/{table_id}/odds",
    response_model=OddsOut,
    responses=answers(401, 403, 413, 415, 422, 429),
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
        raise refused(error) from None
    data = {
        "table": who.table_id,
        "version": table.version,
        "kind": body.kind,
        "actor": actor,
        "odds": [p.to_json() for p in shown],
    }
    return json_answer(data)


SIMULATION_RUNS = 2_000
"""The most encounters one ``GET /simulate`` may ask for."""
SIMULATION_SECONDS = 20.0
"""Seconds of simulation one request may take; the answer says how many encounters were played."""
_SIMULATIONS = threading.BoundedSemaphore(1)
"""One simulation at a time in a process: they are CPU-bound (each runs in a worker thread)."""


@router.get(
    "/tables/{table_id}/simulate",
    response_model=SimulationOut,
    responses=answers(401, 403, 429),
    tags=["table"],
)
def simulate_table(
    who: Seat,
    request: Request,
    runs: Annotated[int, Query(ge=1, le=SIMULATION_RUNS)] = 300,
    seed: Annotated[int, Query(ge=0, le=2**31)] = 0,
    precision: Annotated[float | None, Query(gt=0, le=1)] = None,
) -> JSONResponse:
    """How deadly is this? The table's main conflict played ``runs`` times from the table as
    stored, through the game's own procedure (estimates with 95% intervals), and its exact odds
    where a model gives them (``referee.sim``, docs/simulate.md). The referee's seat only: the
    answer reads every secret of the table. A game without a referee's seat (Burning Kingdoms)
    answers no seat: the odds of a maneuver would tell of sealed slips. The same ``seed`` and
    table give the same answer; at most ``SIMULATION_SECONDS`` of play (``simulation.runs``
    says how many were played). ``precision``: stop once every 95% interval is narrower than
    that (``simulation.stopped`` is then ``"precision"``)."""
    from referee.sim.answer import answer
    from referee.sim.conflicts import CONFLICTS

    referee_only(who, "ask how deadly the table's conflict is")
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
        result = answer(
            table, runs=runs, seed=seed, time_limit=SIMULATION_SECONDS, precision=precision
        )
    except Exception as error:
        raise refused(error) from None
    finally:
        _SIMULATIONS.release()
    return json_answer(
        {"table": who.table_id, "version": table.version, "runs_asked": runs, **result}
    )


@router.post(
    "/tables/{table_id}/undo",
    response_model=ObservationOut,
    responses={**answers(401, 403, 413, 415, 422, 429), **STALE},
    tags=["table"],
)
def undo(who: Seat, request: Request, body: UndoBody | None = None) -> JSONResponse:
    """Take the last action back (the referee's seat; in a game without one, the seat that took
    it). The answer starts again (``reset``), with the latest events as an open has them
    (``earlier``: where older ones begin)."""
    state = state_of(request.app)
    expect = body.version if body is not None else None
    try:
        after = state.store.undo(who.table_id, seat=who.seat, expect_version=expect)
    except Exception as error:
        raise refused(error) from None
    state.changed(who.table_id, after)
    data = {**state.observations.opening(after, who.table_id, who.seat), "reset": True}
    return json_answer(data)


@router.get(
    "/tables/{table_id}/verify",
    response_model=VerifyOut,
    responses=answers(401, 429),
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
    return json_answer(data)


@router.get(
    "/tables/{table_id}/record",
    response_model=RecordOut,
    responses=answers(401, 403, 429),
    tags=["table"],
)
def export(who: Seat, request: Request) -> JSONResponse:
    """The whole table record, every secret in it: the referee's seat only."""
    referee_only(who, "export the table's record")
    return json_answer(state_of(request.app).store.export(who.table_id))


@router.get(
    "/tables/{table_id}/handouts",
    responses={
        200: {"content": {"application/zip": {}}, "description": "The seat's handouts, zipped"},
        **answers(401, 404, 429),
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
    hashed = state.resolver.key_of(token)  # (once a socket, not once a push)
    seat = await to_thread.run_sync(state.resolver.seat, table_id, token, hashed)
    problem: ApiError | None = None
    if seat is None or (via == "cookie" and not _same_origin(websocket)):
        problem = ApiError(401, "unauthorized", "this socket opens no seat here")
    elif not state.limiter.allow(f"{table_id}:{seat}"):
        problem = ApiError(429, "rate_limited", "too many requests: slow down")
    elif since < 0 or (tag is not None and len(tag) > 64):
        problem = ApiError(422, "invalid", "since is a version (0 or more)", where=["since"])
    address = websocket.client.host if websocket.client is not None else "?"
    if problem is None and seat is not None:
        settings = state.settings
        full = state.hub.counts.admit(
            table_id, seat, address, settings.sockets_per_seat, settings.sockets_per_address
        )
        if full:
            problem = ApiError(429, "too_many_sockets", full)
    if problem is not None or seat is None:
        assert problem is not None
        await websocket.send_denial_response(problem.response())
        return
    try:
        table = await to_thread.run_sync(state.load, table_id)
        await websocket.accept()
        known_seat = seat

        def still_valid() -> bool:
            return state.resolver.seat(table_id, token, hashed) == known_seat

        subscriber = Subscriber(table_id, seat, websocket, since, tag, still_valid)
        await state.hub.serve(subscriber, table)
    finally:
        state.hub.counts.leave(table_id, seat, address)
