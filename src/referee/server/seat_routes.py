"""The seats of a table over HTTP: join with a token (for a cookie) and leave, who am I, every
seat (the referee's), and a seat's token minted or revoked (docs/server.md, "Seats")."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from referee.core.registry import system
from referee.server.answers import (
    Seat,
    SeatName,
    TableId,
    answers,
    client_of,
    json_answer,
    referee_only,
)
from referee.server.auth import cookie_name
from referee.server.errors import ApiError, unauthorized
from referee.server.models import JoinBody, SeatOut, SeatTokenOut, WhoAmIOut
from referee.server.state import ServerState, state_of

__all__ = ["router"]

router = APIRouter()


@router.post(
    "/tables/{table_id}/join",
    response_model=WhoAmIOut,
    responses=answers(401, 413, 415, 422, 429),
    tags=["seats"],
)
def join(table_id: TableId, body: JoinBody, request: Request) -> JSONResponse:
    """Exchange a seat's token (from its join link) for an HttpOnly, SameSite=Strict cookie."""
    state = state_of(request.app)
    state.anonymous.check(f"join:{client_of(request)}")
    seat = state.resolver.seat(table_id, body.token)
    if seat is None:
        raise unauthorized()
    table = state.store.load(table_id)
    response = json_answer(_whoami(table_id, table, seat, state.store.name(table_id)))
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


@router.post("/tables/{table_id}/leave", status_code=204, responses=answers(422), tags=["seats"])
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
    responses=answers(401, 429),
    tags=["seats"],
)
def my_seat(who: Seat, request: Request) -> JSONResponse:
    """The caller's seat at this table."""
    store = state_of(request.app).store
    table = store.load(who.table_id)
    return json_answer(_whoami(who.table_id, table, who.seat, store.name(who.table_id)))


@router.get(
    "/tables/{table_id}/seats",
    response_model=list[SeatOut],
    responses=answers(401, 403, 429),
    tags=["seats"],
)
def list_seats(who: Seat, request: Request) -> JSONResponse:
    """Every seat of the table and what it plays (the referee's seat only)."""
    referee_only(who, "list the seats")
    table = state_of(request.app).store.load(who.table_id)
    return json_answer([seat.to_json() for seat in table.seats])


def _seat_of(state: ServerState, table_id: str, seat: str) -> None:
    table = state.store.load(table_id)
    if seat not in {s.id for s in table.seats}:
        raise ApiError(404, "not_found", f"this table has no seat {seat!r}", where=["seat"])


@router.post(
    "/tables/{table_id}/seats/{seat}/token",
    response_model=SeatTokenOut,
    status_code=201,
    responses=answers(401, 403, 404, 429),
    tags=["seats"],
)
def mint(who: Seat, seat: SeatName, request: Request) -> JSONResponse:
    """A new token for a seat (the referee's seat only): its old token stops working."""
    referee_only(who, "mint seats' tokens")
    state = state_of(request.app)
    _seat_of(state, who.table_id, seat)
    token = state.store.mint(who.table_id, seat)
    state.forget_seat(who.table_id, seat)
    table = state.store.load(who.table_id)
    return json_answer(
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
    responses=answers(401, 403, 404, 429),
    tags=["seats"],
)
def revoke(who: Seat, seat: SeatName, request: Request) -> Response:
    """Revoke a seat's token (the referee's seat only): its cookies and sockets stop working,
    in every server process."""
    referee_only(who, "revoke seats' tokens")
    state = state_of(request.app)
    _seat_of(state, who.table_id, seat)
    state.store.revoke(who.table_id, seat)
    state.forget_seat(who.table_id, seat)
    return Response(status_code=204)
