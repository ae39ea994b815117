"""Burning Kingdoms: one maneuver's engagements, solved exactly once the slips are written.

Rules text (Burning Kingdoms), "Maneuver Resolution", "Independent and Versus Maneuvers",
"Multiple Opponents" and each maneuver's "Effect/Description"; RULINGS.md, Burning Kingdoms.

At the reveal every slip's test is rolled at once: independent pools of dice, each with its own
distribution of successes. What the maneuver then does to each faction's disposition is a
function of those successes alone (the maneuver matrix, read by the game's resolution). So the
exact distribution of the maneuver's outcome is the **convolution** of the pools through that
function: for each vector of successes ``(k₁, …, kₙ)``, the product of the pools' chances
times the outcome the game resolves for it. ``n`` pools of ``d₁ … dₙ`` dice mean
``(d₁ + 1) × … × (dₙ + 1)`` resolutions, each computed once; exact
:class:`~fractions.Fraction` answers, no sampling.

Nothing of the rules is copied here. :func:`maneuver_odds` drives the game's own procedure
through the table contract:

- the steps before the reveal (writing slips, passing) are the default policy's
  (:mod:`referee.core.policies`), which roll nothing — where the slips are already written, the
  table's own slips are used;
- the chance of each number of successes of each pool is the game's own: the odds on the roll
  card the reveal makes (``test.rolled``);
- the outcome for each vector of successes is read from the game's state after the procedure
  resolves the maneuver with dice scripted to give exactly those successes (4s for successes,
  1s for failures, in the order the reveal rolls).

**Artha.** Artha written on a slip (Persona dice, Deeds before the roll, FoRKs) is part of its
pool, so it is in the answer: write the slips with the artha you want to weigh, and ask again.
Artha spent *after* the roll (Fate to open-end, Deeds to reroll failures) is the default
policy's choice: every roll is kept. A pool that is open-ended (a 6 adds a die: its successes
are unbounded) and a tie-breaker's roll are not modelled: :class:`ManeuverError` says so, and
the answer is then the simulation's alone.

>>> from referee.core import system
>>> setup = {"territory": "a hill", "strict_sheets": False, "factions": {
...     "orcs": {"disposition": 6, "leader": {"name": "Gor", "lifepaths": 5,
...              "skills": {"Tactics": "B2"}, "resources": 1}},
...     "elves": {"disposition": 6, "leader": {"name": "Ael", "lifepaths": 5,
...               "skills": {"Logistics": "B1"}, "resources": 1}}}}
>>> odds = maneuver_odds(system("kingdoms").new_table(setup))
>>> sum(odds.winners.values()) == 1
True
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from referee.core import Action, RefereeError, RuleError, Table, system
from referee.core.policies import default_policy, legal_choices
from referee.core.simulation import EncounterOutcome
from referee.dice import DiceSourceError, RandomSource, ScriptedSource
from referee.systems.kingdoms.simulation import MANEUVER

__all__ = ["ManeuverError", "ManeuverOdds", "Pool", "maneuver_odds"]

ZERO = Fraction(0)
SUCCESS_FACE = 4
"""A success on every shade's die, never a 6 (so it never explodes)."""
FAILURE_FACE = 1
"""A failure on every shade's die."""
MAX_RESOLUTIONS = 20_000
"""The most success vectors one answer may resolve (the product of the pools' sizes + 1)."""
SECONDS_PER_RESOLUTION = 0.005
"""What resolving one vector of successes costs the procedure, measured on this machine (378
in 1.2 s, docs/performance.md), with room for a loaded one: with a time given, a maneuver whose
resolutions would take longer is refused once they are counted, before any is resolved."""
_STEPS = 200


class ManeuverError(RuleError):
    """The maneuver cannot be solved exactly from this table (the reason says why)."""

    def __init__(self, reason: str) -> None:
        super().__init__("Whole-encounter odds (Burning Kingdoms maneuver)", reason)


@dataclass(frozen=True)
class Pool:
    """One roll the reveal makes: its label (the game's), its dice and the chance of each
    number of successes (the roll card's own odds)."""

    label: str
    dice: int
    successes: Mapping[int, Fraction]


@dataclass(frozen=True)
class ManeuverOdds:
    """The exact answer: the pools the reveal rolls, the chance of each way the maneuver
    ends (``winners``: the faction gaining the most disposition, or ``"tie"``, as the
    simulation counts it) and each faction's distribution of disposition change.
    ``resolutions`` is how many success vectors the procedure resolved."""

    pools: tuple[Pool, ...]
    winners: Mapping[str, Fraction]
    changes: Mapping[str, Mapping[int, Fraction]]
    resolutions: int

    def expected_change(self, faction: str) -> Fraction:
        """The expected change of ``faction``'s disposition."""
        return sum((d * p for d, p in self.changes[faction].items()), ZERO)

    def to_json(self) -> dict[str, Any]:
        """Every probability as a fraction string and a float (``referee simulate --json``,
        the web table's answer)."""

        def both(p: Fraction) -> dict[str, Any]:
            return {"exact": str(p), "value": float(p)}

        return {
            "exact": True,
            "model": "kingdoms maneuver",
            "wins": {k: both(v) for k, v in sorted(self.winners.items())},
            "changes": {
                f: {str(d): both(p) for d, p in sorted(dist.items())}
                for f, dist in sorted(self.changes.items())
            },
            "expected_change": {f: both(self.expected_change(f)) for f in sorted(self.changes)},
            "pools": [
                {
                    "label": p.label,
                    "dice": p.dice,
                    "successes": {str(k): both(v) for k, v in sorted(p.successes.items())},
                }
                for p in self.pools
            ],
            "resolutions": self.resolutions,
            "expected_rounds": both(Fraction(1)),
        }


def _new_events(before: Table[Any], after: Table[Any]) -> list[Any]:
    return [after.log[i] for i in range(before.version, after.version)]


def _cards(events: Sequence[Any]) -> list[dict[str, Any]]:
    """The roll cards of ``events``, in the order they were rolled."""
    found: list[dict[str, Any]] = []
    for event in events:
        data: dict[str, Any] = dict(event.data)
        rolls = [data.get("roll"), *list(data.get("rolls") or [])]
        found += [r for r in rolls if isinstance(r, dict) and r.get("card") == "roll"]
    return found


def _pool(card: dict[str, Any]) -> Pool:
    """A roll card as a pool of plain d6 with a bounded number of successes, or refused."""
    odds = card.get("odds") or {}
    faces = card.get("faces") or []
    if not odds or not all(str(k).isdigit() for k in odds):
        raise ManeuverError(f"{card.get('label')!r} is not a pool of successes")
    dist = {int(k): Fraction(v) for k, v in odds.items()}
    plain = re.fullmatch(r"(\d+)d6(?: grey| white)?", str(card.get("dice")))
    if max(dist) > len(faces) or plain is None or int(plain.group(1)) != len(faces):
        raise ManeuverError(f"{card.get('label')!r} is open-ended: its successes are unbounded")
    if sum(dist.values()) != 1:
        raise ManeuverError(f"{card.get('label')!r}: its odds do not sum to 1")
    return Pool(str(card.get("label")), len(faces), dist)


def _faces(pools: Sequence[Pool], successes: Sequence[int]) -> list[int]:
    out: list[int] = []
    for pool, k in zip(pools, successes, strict=True):
        out += [SUCCESS_FACE] * k + [FAILURE_FACE] * (pool.dice - k)
    return out


def _next(table: Table[Any]) -> Action | None:
    conflict = MANEUVER
    choices = legal_choices(table, conflict)
    if not choices:
        return None
    return default_policy(table, conflict, choices, random.Random(0))


def maneuver_odds(
    table: Table[Any], limit: int = MAX_RESOLUTIONS, time_limit: float | None = None
) -> ManeuverOdds:
    """The exact odds of the next maneuver at ``table`` (see the module's doc): its slips as
    written, or as the default policy writes them; every roll kept. Refused once the
    resolutions are counted (before any is resolved) where they are more than ``limit`` or,
    at :data:`SECONDS_PER_RESOLUTION`, would take longer than ``time_limit`` seconds.

    Raises :class:`ManeuverError` where the maneuver is not one this model solves."""
    if table.procedure is not system("kingdoms").procedure:
        raise ManeuverError(f"a maneuver is a Burning Kingdoms one, not {table.system}")
    conflict = MANEUVER
    start = table
    # the steps that roll nothing, up to the reveal
    for _ in range(_STEPS):
        action = _next(table)
        if action is None:
            raise ManeuverError("no maneuver can be played from this table")
        try:
            table = table.act(action, ScriptedSource([]))
        except DiceSourceError:
            break
    else:
        raise ManeuverError("the maneuver never reaches its reveal")
    reveal = action
    probe = table.act(reveal, RandomSource(0))
    pools = tuple(_pool(card) for card in _cards(_new_events(table, probe)))
    size = 1
    for pool in pools:
        size *= pool.dice + 1
    if size > limit:
        raise ManeuverError(f"{size} ways the pools can fall, more than the limit of {limit}")
    cost = size * SECONDS_PER_RESOLUTION
    if time_limit is not None and cost > time_limit:
        raise ManeuverError(
            f"{size:,} ways the pools can fall, some {cost:.0f} s to resolve at "
            f"{1000 * SECONDS_PER_RESOLUTION:g} ms each, more than the {time_limit:g} s given: "
            "too large to solve exactly within the time given"
        )
    winners: dict[str, Fraction] = {}
    changes: dict[str, dict[int, Fraction]] = {}
    resolutions = 0
    for successes in itertools.product(*(sorted(p.successes) for p in pools)):
        weight = Fraction(1)
        for pool, k in zip(pools, successes, strict=True):
            weight *= pool.successes[k]
        if not weight:
            continue
        outcome = _resolve(start, table, reveal, pools, successes)
        resolutions += 1
        winners[outcome.winner] = winners.get(outcome.winner, ZERO) + weight
        for key, value in outcome.extra.items():
            faction = key.removeprefix("change:")
            dist = changes.setdefault(faction, {})
            dist[int(value)] = dist.get(int(value), ZERO) + weight
    if conflict.name and not winners:
        raise ManeuverError("no outcome")
    return ManeuverOdds(pools, winners, changes, resolutions)


def _resolve(
    start: Table[Any],
    table: Table[Any],
    reveal: Action,
    pools: Sequence[Pool],
    successes: Sequence[int],
) -> EncounterOutcome:
    """The maneuver resolved by the procedure with the pools' successes forced."""
    conflict = MANEUVER
    after = table.act(reveal, ScriptedSource(_faces(pools, successes)))
    got = [int(card.get("value", -1)) for card in _cards(_new_events(table, after))]
    if got != list(successes):
        raise ManeuverError(f"the reveal rolled {got} successes where {list(successes)} were set")
    table = after
    for _ in range(_STEPS):
        if conflict.is_over(start, table):
            return conflict.outcome(start, table)
        action = _next(table)
        if action is None:
            break
        try:
            table = table.act(action, ScriptedSource([]))
        except DiceSourceError:
            raise ManeuverError(
                f"{action.kind} by {action.actor} rolls again after the reveal (a tie-breaker)"
            ) from None
        except RefereeError as error:
            raise ManeuverError(f"the procedure refused {action.kind}: {error}") from None
    raise ManeuverError("the maneuver does not end after its reveal")
