"""The exact models on every example of every game: the CPU time of each answer or refusal, the
work it took, and (``--fractions``) the answer itself, to compare two trees (issue 31).

    .venv/bin/python bench/exact_models.py [--limit SECONDS] [--only TEXT] [--fractions]

Each example's table is made as ``referee simulate`` makes it (a scenario's setup and players),
its conflict's exact model asked with ``--limit`` seconds (default 60, the command's), and one
line printed: the CPU seconds of that call alone (``time.process_time``), its wall seconds, the
work counts the answer gives (states, procedure steps, rounds, resolutions) or the refusal.
With ``--fractions`` the answer's JSON follows it, the work counts left out, so that two trees'
outputs can be compared with ``diff`` (``git archive <commit> src`` and ``PYTHONPATH``, as
docs/performance.md says). The load average is printed before and after: the machine is shared.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path
from typing import Any

from referee.core import RefereeError, system
from referee.core.loader import load_file
from referee.core.simulation import conflict_of

ROOT = Path(__file__).resolve().parent.parent
WORK = ("states", "procedure_steps", "rounds", "resolutions")
BARE = {"docs/setups/zweihander-foot-chase.yaml": "zweihander"}
"""Bare setups (no ``system`` field) with the game they are for."""


def examples() -> list[tuple[str, str | None]]:
    """Every game's examples, then the bare setups the docs simulate."""
    found = sorted(
        str(p.relative_to(ROOT))
        for p in (ROOT / "examples").glob("*/*.yaml")
        if p.parent.name != "toy-game"
    )
    return [(p, None) for p in found] + list(BARE.items())


def table_of(path: str, game: str | None) -> Any:
    """The table ``referee simulate`` makes from ``path`` (``None`` if it is not a setup)."""
    data = load_file(ROOT / path)
    if not isinstance(data, dict):
        return None
    if game is not None:
        return system(game).new_table(data)
    if "setup" not in data or not isinstance(data.get("system"), str):
        return None
    return system(data["system"]).new_table(
        data["setup"], players=data.get("players"), start=str(data.get("start", "00:00"))
    )


def strip(value: Any) -> Any:
    """The answer without its work counts (they differ between trees; the answer must not)."""
    if isinstance(value, dict):
        return {k: strip(v) for k, v in value.items() if k not in WORK}
    if isinstance(value, list):
        return [strip(v) for v in value]
    return value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--limit", type=float, default=60.0)
    parser.add_argument("--only", default="")
    parser.add_argument("--fractions", action="store_true")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()}")
    for path, game in examples():
        if args.only not in path:
            continue
        try:
            table = table_of(path, game)
            conflict = None if table is None else conflict_of(table)
        except (RefereeError, KeyError) as error:
            print(f"{path}: no conflict ({error})")
            continue
        if conflict is None or conflict.exact is None:
            print(f"{path}: no exact model")
            continue
        cpu, wall = time.process_time(), time.monotonic()
        try:
            answer: dict[str, Any] | None = dict(conflict.exact(table, None, args.limit))
        except RefereeError as error:
            answer, refusal = None, str(error)
        cpu, wall = time.process_time() - cpu, time.monotonic() - wall
        done = (
            "refused: " + refusal
            if answer is None
            else ", ".join(f"{k} {answer[k]}" for k in WORK if answer.get(k) is not None)
        )
        print(f"{path}: {cpu:.3f} s CPU, {wall:.3f} s wall; {done}", flush=True)
        if args.fractions and answer is not None:
            print("  " + json.dumps(strip(answer), sort_keys=True))
    print(f"load average {os.getloadavg()}")


if __name__ == "__main__":
    main()
