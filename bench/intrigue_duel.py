"""Intrigue duels per second, through the real procedures (issue 11: goal ≥ 2,000 duels/s;
issue 31: ≥ 5,000 per CPU second).

A duel: a table of two characters (ScarFace, knife drawn, and the Amazing Krockin), "Combat!",
then round after round each declares an Attack on the other in initiative order and the referee
resolves, until one is Knocked Out and the combat ends. Every step goes through
``Table.act`` on the Intrigue procedure (the catalogue parses the parameters, ``decide`` rolls
from a seeded ``RandomSource``, ``evolve`` folds). Run ``.venv/bin/python bench/intrigue_duel.py``
(``--profile`` for the top of a cProfile).
"""

from __future__ import annotations

import statistics
import sys
import time
from typing import Any

from referee.core import Action, Table
from referee.dice import RandomSource
from referee.systems.intrigue import PROCEDURE

SETUP: dict[str, Any] = {
    "start": "21:30",
    "characters": {
        "scarface": {
            "name": "ScarFace",
            "number": 15,
            "combat": 2,
            "strength": 2,
            "stamina": 5,
            "items": {"knife": {"damage": 3}},
        },
        "krockin": {
            "name": "The Amazing Krockin",
            "number": 33,
            "combat": 1,
            "strength": 2,
            "stamina": 6,
        },
    },
}
START = Table.start(PROCEDURE, SETUP).act(Action("scarface", "draw", {"item": "knife"}), None)
RESOLVE = Action("referee", "resolve", {})


def duel(dice: RandomSource) -> tuple[int, str]:
    """One duel to a knock-out: the number of actions taken, and who is left standing."""
    table = START.act(Action("scarface", "start_combat", {"targets": ["krockin"]}), dice)
    actions = 1
    while True:
        combat = table.state.combats[-1]
        if combat.ended:
            break
        if combat.in_round and not _waiting(table):
            table = table.act(RESOLVE, dice)
        else:
            who = _next(table)
            other = "krockin" if who == "scarface" else "scarface"
            attack = Action(who, "declare", {"action": "attack", "target": other})
            table = table.act(attack, dice)
        actions += 1
    standing = [c.id for c in table.state.characters if table.state.status(c.id).can_act]
    return actions, ",".join(standing)


def _waiting(table: Table[Any]) -> tuple[str, ...]:
    from referee.systems.intrigue.combat import pending_declarers

    return pending_declarers(table.state, table.state.combats[-1])


def _next(table: Table[Any]) -> str:
    from referee.systems.intrigue.combat import round_start

    state, combat, _ = round_start(table.state, table.state.combats[-1])
    from referee.systems.intrigue.combat import pending_declarers

    return pending_declarers(state, combat)[0]


def measure(
    seconds: float = 2.0, seed: int = 11, clock: Any = time.perf_counter
) -> tuple[float, float]:
    """Duels per second and actions per duel, over about ``seconds`` of ``clock`` (wall time by
    default; ``time.process_time`` for CPU time, steadier on a shared machine)."""
    dice = RandomSource(seed=seed)
    duels = actions = 0
    begin = clock()
    while clock() - begin < seconds:
        taken, _ = duel(dice)
        duels += 1
        actions += taken
    elapsed = clock() - begin
    return duels / elapsed, actions / duels


def main() -> None:
    if "--profile" in sys.argv:
        import cProfile
        import pstats

        profile = cProfile.Profile()
        profile.enable()
        measure(3.0)
        profile.disable()
        pstats.Stats(profile).sort_stats("cumulative").print_stats(30)
        return
    measure(0.5)  # warm up: the odds of every check the duel meets are then memoised
    rates = [measure(1.0, seed) for seed in range(5)]
    per_second = statistics.median(r for r, _ in rates)
    per_duel = statistics.median(a for _, a in rates)
    cpu = statistics.median(measure(1.0, seed, time.process_time)[0] for seed in range(5))
    print(
        f"intrigue duels: {per_second:,.0f} duels/s ({cpu:,.0f} per CPU second; "
        f"{per_duel:.1f} actions per duel)"
    )


if __name__ == "__main__":
    main()
