"""How much work one dice expression may cost: a CPU-time budget checked while it computes.

A server works out odds for whatever a player types, so every roll and every odds
computation carries a :class:`Budget`. The work checks it as it goes (every few hundred steps
of its loops, every transition of icepool's pool evaluation, every pair an icepool ``map``
visits), and a step that cannot be interrupted (icepool adding two dice) first asks whether
its estimated cost still fits. When the budget runs out, the work stops with a
:class:`~referee.dice.errors.NotationError` saying so.

The budget is CPU time of the calling thread (:func:`time.thread_time`), so other threads and
waiting do not count against it, and neither do the garbage collector's pauses that land inside
the work (a full collection of a long-lived server's heap is the process's cost, not the
expression's: :func:`spent`). An expression close to a limit may be answered on a fast
machine and refused on a slow one; anything well inside or outside is the same everywhere.

>>> budget = Budget(0.5, "this takes too long")
>>> budget.check()
>>> budget.afford(0.1)
>>> try:
...     budget.afford(10.0)
... except NotationError as error:
...     print(error)
this takes too long
"""

from __future__ import annotations

import gc
import threading
import time
from typing import Any

from referee.dice.errors import NotationError

#: What ``odds(expr)`` promises: an answer or a refusal within this much CPU time.
ODDS_SECONDS = 1.0
#: The part of it the computation itself may use (the rest: parsing, building fractions).
ODDS_WORK_SECONDS = 0.8
#: What ``roll(expr)`` promises.
ROLL_SECONDS = 0.1
#: The part of it the roll may use.
ROLL_WORK_SECONDS = 0.05

#: Checks of the clock are this many steps apart in tight loops.
TICK = 256


class _Collections(threading.local):
    """The calling thread's CPU time spent in the garbage collector so far."""

    started: float | None = None
    paused: float = 0.0


_COLLECTIONS = _Collections()


def _count_collection(phase: str, info: dict[str, Any]) -> None:
    """A :data:`gc.callbacks` hook: add each collection's CPU time to its thread's total."""
    if phase == "start":
        _COLLECTIONS.started = time.thread_time()
    elif _COLLECTIONS.started is not None:
        _COLLECTIONS.paused += time.thread_time() - _COLLECTIONS.started
        _COLLECTIONS.started = None


gc.callbacks.append(_count_collection)


def spent() -> float:
    """The calling thread's CPU time, less what the garbage collector took of it."""
    return time.thread_time() - _COLLECTIONS.paused


class Budget:
    """``seconds`` of CPU time that a piece of work may spend from now; ``message`` is what
    the :class:`NotationError` that stops it says."""

    __slots__ = ("_countdown", "deadline", "message", "seconds")

    def __init__(self, seconds: float, message: str) -> None:
        self.seconds = seconds
        self.message = message
        self.deadline = spent() + seconds
        self._countdown = TICK

    def refuse(self) -> NotationError:
        """The error that ends work over budget."""
        return NotationError(self.message)

    def check(self) -> None:
        """Stop the work if its time is up."""
        if spent() > self.deadline:
            raise self.refuse()

    def tick(self) -> None:
        """One small step of a loop: looks at the clock every :data:`TICK` steps."""
        self._countdown -= 1
        if self._countdown <= 0:
            self._countdown = TICK
            self.check()

    def afford(self, seconds: float) -> None:
        """Refuse, before starting it, a step estimated to take ``seconds`` more than is left."""
        if spent() + seconds > self.deadline:
            raise self.refuse()

    @property
    def left(self) -> float:
        """Seconds of CPU time still available (negative when over)."""
        return self.deadline - spent()
