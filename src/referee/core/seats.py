"""Seats at a table: who sits there and what they play (DESIGN.md, "The table contract").

A :class:`Seat` is a player and the characters or factions they play; the seat ``"referee"``
(where the game has one) sees everything and may act for anyone. :func:`permit` is the one rule
of who may take an action: the referee anything, a player only for what they play and only an
action the catalogue does not keep to the referee.

>>> permit(Seat("bob", ("bob",)), "ann", None)
Traceback (most recent call last):
...
referee.core.errors.SeatError: seat 'bob' does not play 'ann'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.core.actions import ActionSpec, Who
from referee.core.errors import SeatError
from referee.core.events import REFEREE, Viewer
from referee.core.procedures import ActorId, Procedure

__all__ = ["Seat", "SeatId", "permit", "seats_from"]

SeatId = str
"""A seat: ``"referee"`` or a player's name."""


@dataclass(frozen=True)
class Seat:
    """A seat at the table: a player (or the referee) and what they play.

    >>> Seat("alice", ("scarface",)).viewer
    Viewer(id='alice', characters=frozenset({'scarface'}))
    """

    id: SeatId
    plays: tuple[ActorId, ...] = ()

    @property
    def is_referee(self) -> bool:
        """True for the referee's seat."""
        return self.id == REFEREE

    @property
    def viewer(self) -> Viewer:
        """Who this seat reads the log as: the seat and everything it plays."""
        return Viewer(self.id, frozenset(self.plays))

    def may_play(self, actor: ActorId) -> bool:
        """True if this seat acts for ``actor`` (the referee acts for anyone)."""
        return self.is_referee or actor == self.id or actor in self.plays

    def to_json(self) -> dict[str, Any]:
        """``{"id", "plays"}``."""
        return {"id": self.id, "plays": list(self.plays)}


def seats_from(
    procedure: Procedure[Any], state: Any, players: Mapping[str, Sequence[str]] | None = None
) -> tuple[Seat, ...]:
    """The seats of a new table: the referee's (where the game has one), then each player's.

    ``players`` maps a player to the characters or factions they play; each character the game
    lists that no player plays gets a seat of its own, named after it.
    """
    seats = [Seat(REFEREE)] if procedure.has_referee else []
    players = dict(players or {})
    seats += [Seat(player, tuple(plays)) for player, plays in players.items()]
    played = {actor for plays in players.values() for actor in plays} | set(players)
    seats += [Seat(actor, (actor,)) for actor in procedure.characters(state) if actor not in played]
    return tuple(seats)


def permit(seat: Seat, actor: ActorId, spec: ActionSpec[Any] | None) -> None:
    """Nothing if ``seat`` may take an action of ``spec`` for ``actor``; else :class:`SeatError`.

    The referee's seat takes any action; another seat only one not kept to the referee
    (``Who.REFEREE``), and only for an actor it plays.
    """
    if seat.is_referee:
        return
    if spec is not None and spec.who is Who.REFEREE:
        raise SeatError(f"only the referee may take {spec.kind!r} ({spec.section})")
    if not seat.may_play(actor):
        raise SeatError(f"seat {seat.id!r} does not play {actor!r}")
