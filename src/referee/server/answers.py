"""What every route of the JSON API shares: the caller's seat resolved first (:func:`caller`,
:data:`Seat`), the error answers a route documents (:func:`answers`), the referee-only check
and the JSON answer.

A route that names a table takes its :class:`~referee.server.auth.Caller` as its first
dependency: no credential, an unknown or revoked token, or a token of another table is the one
401, before anything about the table is looked at.
"""

from __future__ import annotations

from typing import Annotated, Any

from anyio import to_thread
from fastapi import Depends, Path, Request
from fastapi.responses import JSONResponse

from referee.server.auth import TABLE_ID, Caller, token_from
from referee.server.errors import ApiError, ErrorBody, from_referee_error, unauthorized
from referee.server.state import state_of

__all__ = [
    "STALE",
    "Seat",
    "SeatName",
    "TableId",
    "answers",
    "caller",
    "client_of",
    "json_answer",
    "referee_only",
    "refused",
]

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


def answers(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The error answers a route documents: ``statuses``, 422 (a malformed path, query or
    body, in the one error body) and 503 (the database)."""
    return {status: _ERRORS[status] for status in sorted({*statuses, 422, 503})}


STALE: dict[int | str, dict[str, Any]] = {
    409: {"model": ErrorBody, "description": "Stale: the table moved on since that version."}
}


def client_of(request: Request) -> str:
    """The address the request came from (what anonymous requests are limited by)."""
    return request.client.host if request.client is not None else "?"


async def caller(request: Request, table_id: TableId) -> Caller:
    """The seat the request's token opens at ``table_id``, rate-limited (or the one 401).

    A token checked a moment ago is known at once; any other is checked by the store in a
    worker thread (a hash and a query), never in the event loop.
    """
    state = state_of(request.app)
    token, via = token_from(request.headers, request.cookies, table_id)
    hashed = state.resolver.key_of(token)  # (one hash a request, whoever asks for it)
    seat = state.resolver.remembered(table_id, token, hashed)
    if seat is None:
        seat = await to_thread.run_sync(state.resolver.seat, table_id, token, hashed)
    if seat is None:
        state.anonymous.check(f"fail:{client_of(request)}")
        raise unauthorized()
    state.limiter.check(f"{table_id}:{seat}")
    return Caller(table_id, seat, via)


Seat = Annotated[Caller, Depends(caller)]


def referee_only(who: Caller, what: str) -> None:
    """Nothing for the referee's seat; any other seat may not do ``what`` (403)."""
    if not who.is_referee:
        raise ApiError(403, "forbidden", f"only the referee's seat may {what}")


def json_answer(data: Any, status: int = 200) -> JSONResponse:
    """``data`` as a JSON answer with ``status``."""
    return JSONResponse(data, status_code=status)


def refused(error: Exception) -> Exception:
    """A refusal of the rules or the store as its error answer; any other error as it is."""
    from referee.core.errors import RefereeError

    if isinstance(error, RefereeError):
        return from_referee_error(error)
    return error
