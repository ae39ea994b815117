"""A conflict a game offers for simulation: how it begins, who moves, when it is over, what came
of it, and its exact model where the game has one.

A game lists its conflicts in its own package (``System.simulations``, a ``"module:attr"``
string loaded only when a simulation is asked for), so the simulator (:mod:`referee.sim`) names
no game. Whether a conflict is over and who won, a conflict asks the game through the table
contract (``procedure.conflict(state)``, a :class:`~referee.core.prompts.Result`:
:func:`conflict_over`, :func:`sole_winner`); what it counts besides (rounds, damage, who fell)
the game's own simulation module reads from its own state.

A game's first conflict is its main one; a later one is played where the main one cannot be
(:func:`conflict_of`): Zweihänder plays a Complex Exchange where its characters cannot chase.

>>> from referee.core.registry import system
>>> [c.name for c in system("zweihander").simulated_conflicts()]
['a chase', 'a Complex Exchange']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.core.actions import Choice
from referee.core.events import REFEREE
from referee.core.procedures import Action, Procedure
from referee.core.prompts import Result
from referee.core.table import Table
from referee.dice import DiceSource

__all__ = [
    "EncounterOutcome",
    "ExactModel",
    "FirstOfEverything",
    "PlayedAlike",
    "SimulatedConflict",
    "conflict_of",
    "conflict_over",
    "conflict_result",
    "first_of_choice",
    "procedures_conflict",
    "sole_winner",
    "why_not_main",
]


@dataclass(frozen=True)
class EncounterOutcome:
    """What came of one encounter: the winner (a side or a character, ``"none"`` if nobody is
    left, ``"unfinished"`` if it did not end within the step limit), the rounds it took, the
    damage each character took (the game's own measure: damage, stress, hits lost, disposition
    lost) and any other numbers worth counting (``extra``)."""

    winner: str
    rounds: int
    damage: Mapping[str, int]
    finished: bool = True
    extra: Mapping[str, int] = field(default_factory=dict)


PlayedAlike = Callable[[DiceSource, int], tuple["EncounterOutcome", int]]
"""One encounter played by a game's own shorter path: ``(dice, max_steps) -> (outcome, actions
taken)``, drawing the same dice in the same order as the procedure would (so a seeded
simulation gives the same encounters either way)."""

ExactModel = Callable[[Table[Any], "str | None", "float | None"], Mapping[str, Any]]
"""A conflict's exact odds from a table: ``(table, seat, time_limit) -> JSON`` sharing
``{"exact": True, "wins": {outcome: {"exact", "value"}}, "expected_rounds"}`` with the
outcomes named as the simulation names its winners; it raises a
:class:`~referee.core.errors.RefereeError` whose text says why where this table has none."""


@dataclass(frozen=True)
class SimulatedConflict:
    """A conflict a game offers for simulation, as the simulator drives it.

    ``kinds``: the action kinds a policy may take in it (no administrative ones: no awards,
    no ending a session); ``preference``: the default policy's order of kinds;
    ``begin(table, seat)``: the actions that start it (none if it is under way);
    ``is_over(start, table)``; ``outcome(start, table)``; ``actors(table)``: who may move;
    ``pick(table, choices)``: the sensible player's choice where the game has one (``None``:
    the preferences decide); ``first_mover``: only the first mover with a choice may move (the
    rest wait their turn); ``cannot_play(table)``: why it cannot be played from ``table``
    (``None`` if it can); ``exact``: its exact model, or ``None`` and ``why_not_exact``;
    ``played_alike(table, seat)``: where the default policy's encounter from ``table`` is one
    the game plays on the dice without its procedure's steps, outcome for outcome the same
    (:data:`PlayedAlike`), that player (``None`` where it is not); ``default_action(table)``:
    where the game reads the default policy's action from the table without every choice
    being listed, that action (``None``: the choices are listed and the policy picks).
    """

    name: str
    kinds: frozenset[str]
    preference: tuple[str, ...]
    begin: Callable[[Table[Any], str | None], list[Action]]
    is_over: Callable[[Table[Any], Table[Any]], bool]
    outcome: Callable[[Table[Any], Table[Any]], EncounterOutcome]
    actors: Callable[[Table[Any]], Sequence[str]] | None = None
    pick: Callable[[Table[Any], Sequence[Choice]], Action | None] | None = None
    first_mover: bool = False
    cannot_play: Callable[[Table[Any]], str | None] | None = None
    exact: ExactModel | None = None
    why_not_exact: str = ""
    played_alike: Callable[[Table[Any], str | None], PlayedAlike | None] | None = None
    default_action: Callable[[Table[Any]], Action | None] | None = None

    def movers(self, table: Table[Any]) -> Sequence[str]:
        """Who may move now: the conflict's own answer, else the procedure's and the referee."""
        if self.actors is not None:
            return self.actors(table)
        movers = list(table.remembered.actors(table.state))
        if REFEREE not in movers and table.procedure.has_referee:
            movers.append(REFEREE)
        return movers

    def why_not(self, table: Table[Any]) -> str | None:
        """Why this conflict cannot be played from ``table`` (``None`` if it can)."""
        return None if self.cannot_play is None else self.cannot_play(table)


def conflict_result(table: Table[Any]) -> Result | None:
    """The game's own word on its current (or last) conflict: over or not, who won."""
    return table.conflict()  # asked once per state, however many times a step reads it


def conflict_over(table: Table[Any]) -> bool:
    """The game's conflict is over (or there is none to play)."""
    result = conflict_result(table)
    return result is None or result.over


def sole_winner(table: Table[Any]) -> str:
    """The game's one winner; ``"none"`` if it names none, ``"unfinished"`` if several."""
    result = conflict_result(table)
    winners = () if result is None else result.winners
    if len(winners) == 1:
        return winners[0]
    return "none" if not winners else "unfinished"


def _conflict_over(start: Table[Any], table: Table[Any]) -> bool:
    result = conflict_result(table)
    return result is not None and result.over


def _conflict_outcome(start: Table[Any], table: Table[Any]) -> EncounterOutcome:
    """The winners the game names, joined (``"none"`` if it names none); each participant's
    return, where the game scores them; the actions it took (no rounds: the kernel cannot
    count them)."""
    result = conflict_result(table)
    over = result is not None and result.over
    winners = () if result is None else result.winners
    returns = {} if result is None else {f"return:{who}": score for who, score in result.returns}
    return EncounterOutcome(
        ",".join(sorted(winners)) or "none" if over else "unfinished",
        0,
        {},
        over,
        {"actions": table.version - start.version, **returns},
    )


def _nothing_to_begin(table: Table[Any], seat: str | None) -> list[Action]:
    return []


def _to_move(table: Table[Any]) -> Sequence[str]:
    movers = list(table.to_move())
    if REFEREE not in movers and table.procedure.has_referee:
        movers.append(REFEREE)
    return movers


def procedures_conflict(procedure: Procedure[Any]) -> SimulatedConflict:
    """The conflict of a game that offers none of its own but says, through the table
    contract, when its conflict is over and who won (``procedure.conflict(state)``): every
    action kind of its catalogue, whoever the table waits for (prompts first), the preferred
    choice the catalogue's first kind; no exact model. A new game is simulated with no more
    than its procedure (``docs/new-game.md``)."""
    return SimulatedConflict(
        "the conflict the game reports",
        frozenset(procedure.catalogue),
        tuple(procedure.catalogue),
        _nothing_to_begin,
        _conflict_over,
        _conflict_outcome,
        _to_move,
        first_mover=True,
        why_not_exact="the game offers no exact model",
    )


def _conflicts(table: Table[Any]) -> tuple[SimulatedConflict, ...]:
    from referee.core.registry import system

    return system(table.system).simulated_conflicts()


def conflict_of(table: Table[Any]) -> SimulatedConflict:
    """The conflict the simulation plays from ``table``: the game's main one, or where that
    cannot be played (:func:`why_not_main`) the first of its others that can (``KeyError``
    naming the game if it offers none).

    >>> from referee.core.registry import system
    >>> talker = {"bonuses": {"WB": 4}, "skills": {"Charm": 50}}
    >>> conflict_of(system("zweihander").new_table({"characters": {"a": talker}})).name
    'a Complex Exchange'
    """
    offered = _conflicts(table)
    if not offered:
        raise KeyError(f"no whole-encounter simulation for system {table.system!r}")
    main, *others = offered
    if main.why_not(table) is not None:
        for other in others:
            if other.why_not(table) is None:
                return other
    return main


def why_not_main(table: Table[Any]) -> str | None:
    """Why the game's main conflict cannot be played from ``table`` (``None`` if it can)."""
    offered = _conflicts(table)
    return offered[0].why_not(table) if offered else None


class FirstOfEverything:
    """A stand-in random source for ``Choice.sample`` and a structured domain's ``sample``: the
    first of everything, as few steps as allowed, no optional field."""

    def randrange(self, n: int) -> int:
        return 0

    def randint(self, low: int, high: int) -> int:
        return low

    def random(self) -> float:
        return 0.0

    def sample(self, values: list[Any], count: int) -> list[Any]:
        return values[:count]


FIRST = FirstOfEverything()


def first_of_choice(choice: Choice) -> Action:
    """The action ``choice`` offers with the first of everything in its domains."""
    return choice.sample(FIRST)  # type: ignore[arg-type, no-any-return]
