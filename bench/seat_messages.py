"""The CPU of every seat's push message of one change (issue 29), in this process, no server.

    .venv/bin/python bench/seat_messages.py                    # 300 rallies, three rounds
    PYTHONPATH=<folder>/src .venv/bin/python bench/seat_messages.py   # another tree's src

The convention bench's table (``bench/convention.py``: the kernel's toy, six player seats, the
action ``rally``): each change's message for each seat's socket built by ``Hub._message``, as
the route's worker thread builds them after an action (``Hub._prepare``), each socket taken
to have sent its message before the next change. Prints the CPU (``time.process_time``) per
change of the messages and of ``Table.act``, for each round; the best round is the figure.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.load_tool import PLAYERS, RALLY, SETUP  # noqa: E402


def round_of(changes: int) -> tuple[float, float]:
    """CPU seconds per change: every seat's message, and the action itself."""
    from tests.core.toy_procedure import PROCEDURE

    from referee.core import Action
    from referee.core.table import Table
    from referee.dice.sources import RandomSource
    from referee.server.live import Feed, Hub, Subscriber
    from referee.server.prepared import Sent
    from referee.server.pushes import Message

    table = Table.start(PROCEDURE, SETUP, system="kernel_toy", players=PLAYERS)
    dice = RandomSource(seed=29)
    hub = Hub(store=None)  # type: ignore[arg-type]
    feed = Feed("t", table)
    subs = [Subscriber("t", seat, None, 0, None, lambda: True) for seat in PLAYERS]  # type: ignore[arg-type]

    def push(now: Table[Any]) -> None:
        made: dict[tuple[Any, ...], Message] = {}
        feed.table = now
        for sub in subs:
            message = hub._message(sub, Sent.of(sub), now, 0, None, feed, made)
            assert not isinstance(message, int)
            sub.first, sub.epoch, sub.version = False, message.epoch, message.version
            sub.tag, sub.base, sub.marks = message.tag, message.base, message.marks

    push(table)
    seats = list(PLAYERS)
    pushing = acting = 0.0
    kind, params = RALLY
    for step in range(changes):
        seat = seats[step % len(seats)]
        start = time.process_time()
        table = table.act(Action(PLAYERS[seat][0], kind, dict(params)), dice, seat=seat)
        acted = time.process_time()
        push(table)
        acting += acted - start
        pushing += time.process_time() - acted
    return pushing / changes, acting / changes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--changes", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    import referee

    print(f"referee from {Path(referee.__file__).parent}")
    for _ in range(args.rounds):
        pushing, acting = round_of(args.changes)
        print(f"per change: six seats' messages {pushing * 1e3:.3f} ms, act {acting * 1e3:.3f} ms")


if __name__ == "__main__":
    main()
