"""One answer for an interface: the simulation of a table's main conflict, and the exact odds
beside it where a model gives them (the command line's ``referee simulate`` and the web
table's "how deadly is this?" both call :func:`answer`).

>>> from referee.core import system
>>> setup = {"characters": {
...     "ann": {"name": "Ann", "number": 11, "combat": 2, "strength": 3, "stamina": 4},
...     "bob": {"name": "Bob", "number": 12, "combat": 1, "strength": 2, "stamina": 4}}}
>>> result = answer(system("intrigue").new_table(setup), runs=50, seed=1)
>>> result["exact"]["exact"], result["simulation"]["runs"]
(True, 50)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from referee.core import RefereeError, Table
from referee.sim.conflicts import conflict_of
from referee.sim.simulate import simulate

__all__ = ["answer", "exact_answer"]


def exact_answer(table: Table[Any], seat: str | None = None) -> dict[str, Any] | None:
    """The exact odds of the conflict the default policy plays from ``table``, as JSON, where a
    model gives them (today: an Intrigue duel of two characters not yet in combat); ``None``
    otherwise (the answer is then the simulation's estimate alone)."""
    if table.system != "intrigue":
        return None
    begin = conflict_of(table).begin(table, seat)
    targets: Any = begin[0].params.get("targets") if len(begin) == 1 else None
    if not isinstance(targets, list) or len(targets) != 1:
        return None
    from referee.sim.exact.intrigue import duel_from_table, duel_odds

    try:
        duel = duel_from_table(table, begin[0].actor, str(targets[0]))
    except RefereeError:
        return None
    return duel_odds(duel).to_json()


def answer(
    table: Table[Any],
    *,
    runs: int = 1_000,
    seed: int | None = 0,
    policy: str = "default",
    seat: str | None = None,
    progress: Callable[[int], None] | None = None,
    time_limit: float | None = None,
) -> dict[str, Any]:
    """``{"system", "simulation", "exact"}``: the simulation's report and, for the default
    policy where a model exists, the exact odds of the same encounter (else ``None``).
    ``time_limit``: seconds of simulation at most (the report's ``runs`` says how many were
    played; see :func:`~referee.sim.simulate.simulate`)."""
    report = simulate(
        table,
        runs=runs,
        seed=seed,
        policy=policy,
        seat=seat,
        progress=progress,
        time_limit=time_limit,
    )
    exact = exact_answer(table, seat) if policy == "default" else None
    return {"system": table.system, "simulation": report.to_json(), "exact": exact}
