"""The brute force the exact models are checked against: an action taken with every sequence
of faces it may ask for, each sequence weighted by its chance (every die fair)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from referee.core import Action, Table


class OutOfFaces(Exception):
    """The action asked for one die more than the faces given (``args[0]``: its sides)."""


class Faces:
    """Hands out the given faces in order; one die more is :class:`OutOfFaces`."""

    def __init__(self, faces: list[int]) -> None:
        self.faces, self.used = faces, 0

    def roll(self, sides: int) -> int:
        if self.used == len(self.faces):
            raise OutOfFaces(sides)
        self.used += 1
        return self.faces[self.used - 1]


def every_face(table: Table[Any], action: Action) -> list[tuple[Fraction, Table[Any]]]:
    """``action`` taken with every sequence of faces it may ask for, each with its chance."""
    found: list[tuple[Fraction, Table[Any]]] = []

    def go(prefix: list[int], weight: Fraction) -> None:
        try:
            found.append((weight, table.act(action, Faces(prefix))))
        except OutOfFaces as need:
            sides = int(need.args[0])
            for face in range(1, sides + 1):
                go([*prefix, face], weight / sides)

    go([], Fraction(1))
    return found
