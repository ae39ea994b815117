"""Gin Lane at the table: what one step costs (issue 11). Run by hand or by `make bench`.

Random legal duels through the real procedure, each action drawn from ``observe``'s choices:
the time of ``Table.act`` per action, of ``observe`` per seat, and of a whole duel; under
tagging option a and option b. Medians of repeats; ratios matter more than absolute numbers.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import Any

from referee.core import RuleError, Table, observe
from referee.dice import RandomSource
from referee.systems.ginlane import SYSTEM

FIGHTER = {"Weapons": 3, "Agility": 2, "Alertness": 2, "Endurance": 1, "Resolve": 1, "Brawl": 1}
BRAVO = {"Weapons": 2, "Agility": 1, "Alertness": 1}
DUELS = 20


def setup(mode: str) -> dict[str, Any]:
    return {
        "mode": mode,
        "zones": ["taproom", "yard"],
        "links": [["taproom", "yard"]],
        "characters": {
            "moll": {"side": "society", "weapon": "sword", "skills": FIGHTER},
            "jack": {"side": "bravoes", "weapon": "sword", "skills": BRAVO},
        },
    }


def duel(mode: str, seed: int) -> tuple[list[float], list[float], int]:
    rng, dice = random.Random(seed), RandomSource(seed)
    table: Table[Any] = SYSTEM.new_table(setup(mode))
    acts: list[float] = []
    looks: list[float] = []
    for _ in range(200):
        if table.state.over:
            break
        seat = table.procedure.actors(table.state)[0]
        started = time.perf_counter()
        offered = [c for c in observe(table, seat).choices if c.kind in ("initiative", "attack")]
        looks.append(time.perf_counter() - started)
        if not offered:
            break
        action = rng.choice(offered).sample(rng)
        started = time.perf_counter()
        try:
            table = table.act(action, dice, seat=seat)
        except RuleError:
            continue
        acts.append(time.perf_counter() - started)
    return acts, looks, table.version


def main() -> None:
    for mode in ("a", "b"):
        acts: list[float] = []
        looks: list[float] = []
        events = 0
        started = time.perf_counter()
        for seed in range(DUELS):
            a, o, v = duel(mode, seed)
            acts += a
            looks += o
            events += v
        whole = (time.perf_counter() - started) / DUELS
        print(
            f"ginlane option {mode}: act {statistics.median(acts) * 1e3:.2f} ms, "
            f"observe {statistics.median(looks) * 1e3:.2f} ms, "
            f"a duel to Taken Out {whole * 1e3:.0f} ms ({events / DUELS:.0f} events)"
        )


if __name__ == "__main__":
    main()
