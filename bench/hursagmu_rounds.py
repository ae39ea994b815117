"""Benchmark: Hursagmu's encounter played round by round through the table (issue 11).

Two fighters roll Initiative, declare an attack each, strike in Initiative order and take the
blows, and the Master ends the round, again and again. Measured:

- **an action's cost** on a table of about 1,000 events against one of about 20,000 (goal: at
  most 1.2x, appending is amortised O(1));
- **observe** for a player's seat on the long table (every event narrated).

Ratios are what count: absolute numbers move with the machine and its load. Run it with
``.venv/bin/python bench/hursagmu_rounds.py``.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

from referee.core import Action, Table, observe
from referee.core.values import Json
from referee.dice import RandomSource
from referee.systems.hursagmu import SYSTEM
from referee.systems.hursagmu.state import on_turn

FIGHTER = {
    "dexterity": 2,
    "strength": 2,
    "weapon": 5,
    "stamina": 1_000_000,
    "skills": {"quickness": 2, "striking": 5, "defense": 6},
}
REPEATS = 5


def new_table() -> Table[Any]:
    return SYSTEM.new_table({"characters": {"bob": FIGHTER, "fred": FIGHTER}})


def play_round(table: Table[Any], dice: RandomSource) -> Table[Any]:
    """One round: Initiative, declarations, the attacks taken, the end of the round."""
    for who in ("bob", "fred"):
        table = table.act(Action(who, "initiative", {"stance": "maneuver"}), dice)
    for who, other in (("bob", "fred"), ("fred", "bob")):
        # Each declares an attack and a defence: the other's blow waits for him to take it.
        steps: list[Json] = [{"attack": other}, {"defend": True}]
        table = table.act(Action(who, "declare", {"actions": steps}), dice)
    for _ in range(2):
        table = table.act(Action(on_turn(table.state)[0], "act"), dice)
        if table.state.pending is not None:
            table = table.act(Action(table.state.pending.target, "take"), dice)
    return table.act(Action("referee", "end_round"), dice)


def grow(events: int, dice: RandomSource) -> Table[Any]:
    table = new_table()
    while table.version < events:
        table = play_round(table, dice)
    return table


def per_action(table: Table[Any], dice: RandomSource) -> float:
    """Seconds per action over one round played on ``table`` (best of REPEATS)."""
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        after = play_round(table, dice)
        times.append((time.perf_counter() - start) / (len(after.actions) - len(table.actions)))
    return min(times)


def main() -> None:
    dice = RandomSource(seed=1)
    start = time.perf_counter()
    short = grow(1_000, dice)
    long = grow(20_000, dice)
    built = time.perf_counter() - start
    small, large = per_action(short, dice), per_action(long, dice)
    print(f"built tables of {short.version} and {long.version} events in {built:.1f} s")
    print(f"an action on {short.version} events: {small * 1e6:8.0f} µs")
    print(f"an action on {long.version} events: {large * 1e6:8.0f} µs  ({large / small:.2f}x)")
    seen = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        observe(long, "bob")
        seen.append(time.perf_counter() - start)
    print(f"observe(bob) of {long.version} events: {statistics.median(seen) * 1e3:8.1f} ms")


if __name__ == "__main__":
    main()
