"""Whole encounters played through the real procedures, many times over, with policies.

Every step is ``Table.act`` on the game's own procedure: the catalogue parses the parameters,
``decide`` rolls from a seeded :class:`~referee.dice.RandomSource`, ``evolve`` folds. A policy
only ever chooses among the choices ``legal_actions`` offers for the conflict's action kinds
(:mod:`referee.core.policies`), so it cannot take an action the rules do not list. The
conflict is the one the table's game offers (``System.simulations``,
:func:`referee.core.simulation.conflict_of`): nothing here names a game.

- :func:`random_policy`: a choice drawn uniformly, its parameters drawn from their domains;
- :func:`default_policy`: what a sensible player does (the conflict's own pick, else its
  preferred kinds with the first value of each domain).

Where a game plays the default policy's encounter on the same dice without its procedure's
steps, outcome for outcome the same (``SimulatedConflict.played_alike``), its
own path plays it (:func:`_encounters`). Python's cyclic collector is paused while an
encounter is played (``referee.core.markov.collector_paused``, counted across threads: the web
table simulates in a worker thread), and goes on between encounters: an encounter leaves no
cycle behind, and the young collections were some 5% of its time.

``tests/sim/test_simulate.py`` shows a simulation of each game's conflict.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.core import Action, Choice, RefereeError, Table
from referee.core.markov import collector_paused
from referee.core.policies import (
    POLICIES,
    Policy,
    default_policy,
    default_taken,
    legal_choices,
    offers,
    random_policy,
)
from referee.core.simulation import EncounterOutcome, SimulatedConflict, conflict_of
from referee.core.stats import Estimate, mean, proportion
from referee.dice import RandomSource

__all__ = [
    "POLICIES",
    "Policy",
    "SimulationReport",
    "default_policy",
    "default_taken",
    "legal_choices",
    "play",
    "random_policy",
    "simulate",
    "summarise",
]

MAX_STEPS = 2_000
"""Actions one encounter may take before it is called unfinished (a random policy may wander)."""
BATCH = 100
"""The fewest encounters played between two looks at the intervals (``precision``): a look
after every tenth of those played so far, and never before the first hundred."""


def play(
    table: Table[Any],
    conflict: SimulatedConflict,
    policy: Policy,
    dice: RandomSource,
    rng: random.Random,
    *,
    seat: str | None = None,
    max_steps: int = MAX_STEPS,
    check: Callable[[Action, Sequence[Choice]], None] | None = None,
    opening: Opening | None = None,
    read: Callable[[Table[Any]], Action | None] | None = None,
) -> tuple[EncounterOutcome, int, int]:
    """One encounter from ``table``: the outcome, the actions taken, and how many chosen
    actions ``decide`` refused (each is reported, never hidden; the policy then chooses again).
    ``check(action, choices)`` sees every action chosen (the tests use it). ``opening``: the
    default policy's steps from ``table`` before its first die (:func:`opening_of`), taken
    as they were once rather than again. ``read``: the policy's action read from the table
    where it can be (``SimulatedConflict.default_action``, for the default policy), the
    choices listed only where it cannot or the game refuses the action read."""
    start = table
    if opening is None:
        for begun in conflict.begin(table, seat):
            table = table.act(begun, dice)
        steps = 0
    else:
        table, steps = opening.table, opening.steps
    refused = 0
    choices: list[Choice] = []
    while steps < max_steps and not conflict.is_over(start, table):
        action: Action | None = read(table) if read is not None and not choices else None
        if action is None:
            choices = choices or legal_choices(table, conflict)
            if not choices:
                break
            action = policy(table, conflict, choices, rng)
            if check is not None:
                check(action, choices)
        steps += 1
        try:
            table = table.act(action, dice)
            choices = []
        except RefereeError:
            # the game listed a choice its ``decide`` refuses: count it, and choose again
            # among the other choices (never the same one twice in the same state)
            refused += 1
            choices = choices or legal_choices(table, conflict)
            choices = [c for c in choices if not offers(c, action)]
            if not choices:
                break
    outcome = conflict.outcome(start, table)
    if not conflict.is_over(start, table):
        outcome = EncounterOutcome(
            "unfinished", outcome.rounds, outcome.damage, False, outcome.extra
        )
    return outcome, steps, refused


class _DieAsked(Exception):
    """An action of the opening asked for a die (:class:`_NoDiceYet`)."""


class _NoDiceYet:
    """The dice of an opening: an action that asks for a die is not taken there (it is taken
    in each encounter, with the seeded dice). Salts are not dice: a sealed choice draws its
    salt from the operating system as it does with any dice (``referee.core.fairness``)."""

    def roll(self, sides: int) -> int:
        raise _DieAsked


@dataclass(frozen=True)
class Opening:
    """Where every encounter of the default policy from the same table gets to before its
    first die: ``table`` after ``steps`` actions (the conflict's beginning not counted)."""

    table: Table[Any]
    steps: int


def opening_of(
    table: Table[Any], conflict: SimulatedConflict, seat: str | None, max_steps: int
) -> Opening | None:
    """The default policy's encounter from ``table`` up to its first die, played once.

    A step that draws no die is the same in every encounter: the policy reads only the table,
    the game decides from the table, the action and the dice (none), and the seeded dice are
    left where they were. (Only the salts of choices sealed on the way differ from encounter
    to encounter; nothing counted reads them.) So each encounter can start where this one
    stops: before the first action that asks for a die or that the game refuses, with every
    step before it taken. ``None`` where nothing is taken before the first die (or the
    conflict's beginning itself rolls)."""
    start, steps = table, 0
    try:
        for action in conflict.begin(start, seat):
            table = table.act(action, _NoDiceYet())
    except _DieAsked:
        return None
    while steps < max_steps and not conflict.is_over(start, table):
        choices = legal_choices(table, conflict)
        if not choices:
            break
        action = default_policy(table, conflict, choices, random.Random(0))
        try:
            table = table.act(action, _NoDiceYet())
        except (_DieAsked, RefereeError):
            break
        steps += 1
    return Opening(table, steps) if table is not start else None


@dataclass(frozen=True)
class SimulationReport:
    """Many encounters summarised, each figure an estimate with its 95% interval.

    ``wins``: how many encounters each winner won; ``win_rates``: those as proportions
    (Wilson intervals); ``rounds`` and ``damage`` (per character): means (t intervals);
    ``rounds_seen``: how many encounters lasted each number of rounds. ``precision``: the
    width asked of every interval (``None``: none asked); ``stopped``: why no more encounters
    were played — ``"runs"`` (all asked, the precision not reached), ``"precision"`` (every
    interval narrower than ``precision``, :func:`precise`: before the last encounter asked, or
    with it) or ``"time"`` (the time given ran out).
    """

    system: str
    conflict: str
    policy: str
    runs: int
    seed: int | None
    wins: dict[str, int]
    win_rates: dict[str, Estimate]
    rounds: Estimate
    damage: dict[str, Estimate]
    extra: dict[str, Estimate]
    rounds_seen: dict[int, int]
    actions: int
    refused: int
    unfinished: int
    outcomes: list[EncounterOutcome] = field(default_factory=list, repr=False)
    precision: float | None = None
    stopped: str = "runs"

    def estimates(self) -> list[tuple[str, Estimate]]:
        """Every estimate reported, by name: each winner's rate, the rounds, each character's
        damage and each extra count."""
        return [
            *((f"wins:{k}", v) for k, v in self.win_rates.items()),
            ("rounds", self.rounds),
            *((f"damage:{k}", v) for k, v in self.damage.items()),
            *((f"extra:{k}", v) for k, v in self.extra.items()),
        ]

    def to_json(self) -> dict[str, Any]:
        """The report as JSON (estimates as ``{"value", "low", "high", "n"}``)."""
        return {
            "exact": False,
            "system": self.system,
            "conflict": self.conflict,
            "policy": self.policy,
            "runs": self.runs,
            "seed": self.seed,
            "wins": dict(self.wins),
            "win_rates": {k: v.to_json() for k, v in self.win_rates.items()},
            "rounds": self.rounds.to_json(),
            "rounds_seen": {str(k): v for k, v in sorted(self.rounds_seen.items())},
            "damage": {k: v.to_json() for k, v in self.damage.items()},
            "extra": {k: v.to_json() for k, v in self.extra.items()},
            "actions": self.actions,
            "refused": self.refused,
            "unfinished": self.unfinished,
            "precision": self.precision,
            "stopped": self.stopped,
        }


def width_allowed(estimate: Estimate, precision: float, share: bool) -> float:
    """How wide ``estimate``'s 95% interval may be at ``precision``: ``precision`` itself for
    a share of the encounters (a winner's rate, between 0 and 1); for a mean (rounds, damage,
    a count), ``precision`` of the mean's size, or of 1 where the mean is smaller than 1
    (docs/simulate.md, "Stopping at a precision")."""
    return precision if share else precision * max(1.0, abs(estimate.value))


def precise(report: SimulationReport, precision: float) -> bool:
    """True if every interval ``report`` gives is narrower than ``precision`` allows
    (:func:`width_allowed`).

    >>> from referee.core.simulation import EncounterOutcome
    >>> ties = [EncounterOutcome("a" if i % 2 else "b", 3, {}) for i in range(400)]
    >>> report = summarise(ties, system="any", conflict="a duel", policy="default", seed=0)
    >>> precise(report, 0.1), precise(report, 0.05)
    (True, False)
    """
    return all(
        estimate.n > 0
        and estimate.high - estimate.low
        < width_allowed(estimate, precision, name.startswith("wins:"))
        for name, estimate in report.estimates()
    )


def summarise(
    outcomes: Sequence[EncounterOutcome],
    *,
    system: str,
    conflict: str,
    policy: str,
    seed: int | None,
    actions: int = 0,
    refused: int = 0,
    precision: float | None = None,
    stopped: str = "runs",
) -> SimulationReport:
    """The report of ``outcomes``."""
    runs = len(outcomes)
    wins = Counter(o.winner for o in outcomes)
    people = sorted({c for o in outcomes for c in o.damage})
    extras = sorted({k for o in outcomes for k in o.extra})
    return SimulationReport(
        system,
        conflict,
        policy,
        runs,
        seed,
        dict(sorted(wins.items())),
        {w: proportion(n, runs) for w, n in sorted(wins.items())},
        mean([o.rounds for o in outcomes]),
        {c: mean([o.damage.get(c, 0) for o in outcomes]) for c in people},
        {k: mean([o.extra.get(k, 0) for o in outcomes]) for k in extras},
        dict(sorted(Counter(o.rounds for o in outcomes).items())),
        actions,
        refused,
        sum(1 for o in outcomes if not o.finished),
        list(outcomes),
        precision,
        stopped,
    )


def _encounters(
    table: Table[Any],
    conflict: SimulatedConflict,
    policy: str,
    dice: RandomSource,
    rng: random.Random,
    seat: str | None,
    max_steps: int,
) -> Callable[[], tuple[EncounterOutcome, int, int]]:
    """How each encounter is played: by the game's own path on the same dice where it plays
    the default policy's encounter from ``table`` alike (``SimulatedConflict.played_alike``:
    the same outcomes, step for step), else :func:`play` through the procedure."""
    alike = None
    if policy == "default" and conflict.played_alike is not None:
        alike = conflict.played_alike(table, seat)
    if alike is not None:
        played = alike

        def on_the_dice() -> tuple[EncounterOutcome, int, int]:
            outcome, steps = played(dice, max_steps)
            return outcome, steps, 0

        return on_the_dice
    chooser = POLICIES[policy]
    opening = read = None
    if policy == "default":
        opening = opening_of(table, conflict, seat, max_steps)
        read = conflict.default_action

    def through_the_procedure() -> tuple[EncounterOutcome, int, int]:
        return play(
            table,
            conflict,
            chooser,
            dice,
            rng,
            seat=seat,
            max_steps=max_steps,
            opening=opening,
            read=read,
        )

    return through_the_procedure


def simulate(
    table: Table[Any],
    *,
    runs: int = 1_000,
    seed: int | None = 0,
    policy: str = "default",
    seat: str | None = None,
    progress: Callable[[int], None] | None = None,
    max_steps: int = MAX_STEPS,
    time_limit: float | None = None,
    precision: float | None = None,
) -> SimulationReport:
    """Play ``table``'s main conflict ``runs`` times from the same table, through the real
    procedure, and summarise (``seed`` makes it reproducible; ``None``: the system's CSPRNG).
    ``seat``: whose character starts it, where the game asks; ``progress(done)`` is called after
    each encounter. ``time_limit``: seconds after which no further encounter is begun (at
    least one is always played; the report's ``runs`` says how many were). ``precision``
    (above 0, at most 1): stop once every interval is narrower than that (:func:`precise`),
    looked at in batches (:data:`BATCH`), never past ``runs``; the report's ``stopped`` says
    why it stopped."""
    if precision is not None and not 0 < precision <= 1:
        raise ValueError(f"precision {precision!r} is not above 0 and at most 1")
    conflict = conflict_of(table)
    dice = RandomSource(seed)
    rng = random.Random(seed)
    outcomes: list[EncounterOutcome] = []
    actions = refused = 0
    deadline = None if time_limit is None else time.monotonic() + time_limit
    stopped = "runs"
    look = BATCH
    encounter = _encounters(table, conflict, policy, dice, rng, seat, max_steps)
    for done in range(1, runs + 1):
        if deadline is not None and outcomes and time.monotonic() > deadline:
            stopped = "time"
            break
        if precision is not None and len(outcomes) == look:
            look += max(BATCH, look // 10)
            if precise(
                summarise(outcomes, system="", conflict="", policy="", seed=seed), precision
            ):
                stopped = "precision"
                break
        with collector_paused():  # one encounter's young objects, none left in a cycle
            outcome, steps, no = encounter()
        outcomes.append(outcome)
        actions += steps
        refused += no
        if progress is not None:
            progress(done)
    report = summarise(
        outcomes,
        system=table.system,
        conflict=conflict.name,
        policy=policy,
        seed=seed,
        actions=actions,
        refused=refused,
        precision=precision,
        stopped=stopped,
    )
    if stopped == "runs" and precision is not None and precise(report, precision):
        # reached with the last encounter asked for
        report = dataclasses.replace(report, stopped="precision")
    return report
