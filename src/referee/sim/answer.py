"""One answer for an interface: the simulation of a table's main conflict, and the exact odds
beside it where a model gives them (the command line's ``referee simulate`` and the web
table's "how deadly is this?" both call :func:`answer`). The exact model is the game's own
(``SimulatedConflict.exact``); nothing here names a game (``tests/sim/test_answer.py`` shows
an answer).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from referee.core import RefereeError, Table
from referee.core.simulation import conflict_of, why_not_main
from referee.sim.simulate import simulate

__all__ = ["answer", "exact_answer", "why_not_exact"]


EXACT_SECONDS = 60.0
"""Seconds an exact chain may take before the answer is the simulation's alone."""


def exact_answer(table: Table[Any], seat: str | None = None) -> dict[str, Any] | None:
    """The exact odds of the conflict the default policy plays from ``table``, as JSON, where a
    model gives them; ``None`` otherwise (the answer is then the simulation's estimate alone:
    :func:`why_not_exact` says why)."""
    return _exact(table, seat)[0]


def why_not_exact(table: Table[Any], seat: str | None = None) -> str | None:
    """Why ``table``'s conflict has no exact answer (``None`` if it has one)."""
    return _exact(table, seat)[1]


def _exact(
    table: Table[Any], seat: str | None, time_limit: float | None = EXACT_SECONDS
) -> tuple[dict[str, Any] | None, str | None]:
    """The exact model of the conflict played (the game's own, ``SimulatedConflict.exact``):
    every model's JSON shares ``{"exact": True, "wins": {outcome: {"exact", "value"}},
    "expected_rounds"}`` with the outcomes named as the simulation names its winners; the rest
    is the model's own. A model that refuses the table says why."""
    conflict = conflict_of(table)
    if conflict.exact is None:
        why = conflict.why_not_exact or f"no exact model of {conflict.name} (docs/simulate.md)"
        return None, f"{why}: estimates only"
    try:
        return dict(conflict.exact(table, seat, time_limit)), None
    except RefereeError as error:
        return None, str(error)


def answer(
    table: Table[Any],
    *,
    runs: int = 1_000,
    seed: int | None = 0,
    policy: str = "default",
    seat: str | None = None,
    progress: Callable[[int], None] | None = None,
    time_limit: float | None = None,
    exact_seconds: float = EXACT_SECONDS,
    precision: float | None = None,
) -> dict[str, Any]:
    """``{"system", "conflict", "conflict_reason", "simulation", "exact", "exact_reason"}``:
    the conflict played (``conflict_reason``: why it is not the game's main one, where it is
    not — a game plays its next conflict where its main one cannot be played), the simulation's
    report and, for the default policy where a model exists, the exact odds of the same
    encounter (else ``None``, and ``exact_reason`` says why; an exact model gets at most
    ``exact_seconds``, or ``time_limit`` if less).
    ``time_limit``: seconds of simulation at most (the report's ``runs`` says how many were
    played; see :func:`~referee.sim.simulate.simulate`). ``precision``: stop the simulation
    once every interval is narrower than that (its ``stopped`` says ``"precision"``)."""
    report = simulate(
        table,
        runs=runs,
        seed=seed,
        policy=policy,
        seat=seat,
        progress=progress,
        time_limit=time_limit,
        precision=precision,
    )
    exact_time = exact_seconds if time_limit is None else min(exact_seconds, time_limit)
    exact, why = (
        _exact(table, seat, exact_time) if policy == "default" else (None, "policy " + policy)
    )
    return {
        "system": table.system,
        "conflict": report.conflict,
        "conflict_reason": why_not_main(table),
        "simulation": report.to_json(),
        "exact": exact,
        "exact_reason": why,
    }
