"""One JSON body for every error the server returns, and the map from Referee's errors to it.

Every error is ``{"error": {"status", "code", "message", "where", "rule", "reason",
"version"}}``: what was wrong (``code`` for a program, ``message`` for a person) and where
(``where``: the path to the bad field in the request, e.g. ``["params", "target"]``). Which
status each of Referee's errors becomes:

====================  ======  ==============  =================================================
error                 status  code            notes
====================  ======  ==============  =================================================
no or unknown token   401     unauthorized    the same whether the table exists or not
SeatError             403     forbidden       a seat asked for what it may not do
NoSuchTable           404     not_found       only ever after a seat of that table was resolved
StaleTableError       409     stale           ``version``: the table's version now
ActionError           422     action          ``where``: ``["kind"]`` or ``["params", ...]``
RuleError             422     rule            ``rule`` and ``reason``: the rule that refused it
ScenarioError         422     setup           ``where``: ``["setup", ...]`` (or the record's path)
malformed request     422     invalid         ``where``: the path in the body or the query
body too large        413     too_large
not JSON              415     unsupported
too many requests     429     rate_limited    with a ``Retry-After`` header
StoreError            503     unavailable     the database failed; its message is only logged
====================  ======  ==============  =================================================

An ``action`` error's ``message`` says what is wrong with which field in a
person's words (:mod:`referee.server.refusals`: "‘move’ (plan, step 1) must be 3 or less."), the
parameter model's own words kept in ``reason``; a ``rule`` error's ``message`` is the rule's
refusal, ``rule`` naming its section. The table page shows each at its field, or a rule's at the
form's button (docs/web.md, "Refusals at the field").

409 is kept for a stale table alone, so a client can treat it generically: read the table again
and decide again. An action the rules refuse is 422, like any other action that cannot be taken
as sent: sending it again unchanged will not help.

>>> body = error_body(409, "stale", "the table moved on", version=7)
>>> body["error"]["status"], body["error"]["version"]
(409, 7)
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException

from referee.core.errors import (
    ActionError,
    RefereeError,
    RuleError,
    ScenarioError,
    SeatError,
    StaleTableError,
)
from referee.server.refusals import in_words

__all__ = ["ApiError", "ErrorBody", "ErrorDetail", "error_body", "install_handlers"]

log = logging.getLogger("referee.server")

Where = list[str | int]


class ErrorDetail(BaseModel):
    """What was wrong, and where."""

    status: int
    code: str
    message: str
    where: Where | None = None
    rule: str | None = None
    reason: str | None = None
    version: int | None = None


class ErrorBody(BaseModel):
    """The body of every error response."""

    error: ErrorDetail


class ApiError(Exception):
    """An error the server answers with :func:`error_body` and ``status``."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        *,
        where: Sequence[str | int] | None = None,
        rule: str | None = None,
        reason: str | None = None,
        version: int | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.where = None if where is None else list(where)
        self.rule = rule
        self.reason = reason
        self.version = version
        self.headers = headers

    def body(self) -> dict[str, Any]:
        """The JSON body."""
        return error_body(
            self.status,
            self.code,
            self.message,
            where=self.where,
            rule=self.rule,
            reason=self.reason,
            version=self.version,
        )

    def response(self) -> JSONResponse:
        """The response."""
        return JSONResponse(self.body(), status_code=self.status, headers=self.headers)


def error_body(
    status: int,
    code: str,
    message: str,
    *,
    where: Sequence[str | int] | None = None,
    rule: str | None = None,
    reason: str | None = None,
    version: int | None = None,
) -> dict[str, Any]:
    """``{"error": {...}}``: see the module's doc."""
    return {
        "error": {
            "status": status,
            "code": code,
            "message": message,
            "where": None if where is None else list(where),
            "rule": rule,
            "reason": reason,
            "version": version,
        }
    }


UNAUTHORIZED = (
    "sign in to this table with a seat's token (a cookie from joining, or a bearer token)"
)


def unauthorized() -> ApiError:
    """The one answer to a request whose credential opens no seat of the table it names."""
    return ApiError(401, "unauthorized", UNAUTHORIZED, headers={"WWW-Authenticate": "Bearer"})


def from_referee_error(error: RefereeError) -> ApiError:
    """The API error for one of Referee's own errors (see the module's table)."""
    if isinstance(error, StaleTableError):
        return ApiError(409, "stale", str(error), version=error.current)
    if isinstance(error, ActionError):
        if not error.path:
            return ApiError(422, "action", str(error), where=["kind"], reason=error.reason)
        said = in_words(error.problem, error.limits, error.path, error.reason)
        return ApiError(422, "action", said, where=["params", *error.path], reason=error.reason)
    if isinstance(error, RuleError):
        return ApiError(422, "rule", str(error), rule=error.rule, reason=error.reason)
    if isinstance(error, ScenarioError):
        return ApiError(422, "setup", str(error), where=list(error.path), reason=error.reason)
    if isinstance(error, SeatError):
        return ApiError(403, "forbidden", str(error))
    from referee.store import NoSuchTable, StoreError

    if isinstance(error, NoSuchTable):
        return ApiError(404, "not_found", "no such table")
    if isinstance(error, StoreError):
        # the message names the database: for the server's log, not for a client
        log.error("the store failed: %s", error)
        return ApiError(503, "unavailable", "the database is unavailable; try again shortly")
    return ApiError(422, "refused", str(error))


def _validation_message(error: dict[str, Any]) -> str:
    # never echo the input: it may be a token
    return str(error.get("msg", "invalid")).removeprefix("Value error, ")


def install_handlers(app: FastAPI) -> None:
    """Answer every error, FastAPI's own included, with :func:`error_body`."""

    async def on_api_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, ApiError)
        return exc.response()

    async def on_referee_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RefereeError)
        return from_referee_error(exc).response()

    async def on_validation(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        errors = list(exc.errors())
        first = errors[0] if errors else {"loc": (), "msg": "invalid request"}
        where = [p for p in first.get("loc", ()) if isinstance(p, str | int)]
        message = _validation_message(first)
        shown = ".".join(str(p) for p in where)
        return ApiError(
            422, "invalid", f"{shown}: {message}" if shown else message, where=where
        ).response()

    async def on_http(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        if exc.status_code == 400:  # FastAPI could not read the body (not UTF-8, say)
            return ApiError(422, "invalid", "the body is not JSON", where=["body"]).response()
        codes = {404: "not_found", 405: "method_not_allowed", 400: "bad_request"}
        message = str(exc.detail) if isinstance(exc.detail, str) else "request refused"
        return ApiError(
            exc.status_code,
            codes.get(exc.status_code, "http"),
            message,
            headers=dict(exc.headers) if exc.headers else None,
        ).response()

    async def on_crash(request: Request, exc: Exception) -> JSONResponse:
        # the path only: never the query, the headers or the body (they may hold a token)
        log.error("error on %s %s", request.method, request.url.path, exc_info=exc)
        return ApiError(500, "internal", "the server failed; this is a bug").response()

    app.add_exception_handler(ApiError, on_api_error)
    app.add_exception_handler(RefereeError, on_referee_error)
    app.add_exception_handler(RequestValidationError, on_validation)
    app.add_exception_handler(StarletteHTTPException, on_http)
    app.add_exception_handler(Exception, on_crash)
