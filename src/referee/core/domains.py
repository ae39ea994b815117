"""The domains of a choice's parameters (docs/kernel.md, "Actions as values: the catalogue"):
what values each may take, whether a value is inside, and a value drawn from it for a random
player. A :class:`~referee.core.actions.Choice` pairs each parameter with one; every name here
is importable from :mod:`referee.core.actions`, where they were first written.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from referee.core.values import Json

__all__ = ["AnyOf", "Between", "Depends", "Domain", "OneOf", "Record", "SomeOf", "Steps", "Text"]


@dataclass(frozen=True)
class OneOf:
    """One of these values (targets, maneuvers, zones).

    >>> OneOf(("krockin", "lady_rich")).contains("krockin")
    True
    """

    values: tuple[Json, ...]

    def contains(self, value: Any) -> bool:
        """True if ``value`` is one of the values."""
        return value in self.values

    def sample(self, rng: random.Random) -> Json:
        """A value drawn uniformly."""
        return self.values[rng.randrange(len(self.values))]

    def to_json(self) -> dict[str, Any]:
        """``{"one_of": [...]}``."""
        return {"one_of": list(self.values)}


@dataclass(frozen=True)
class Between:
    """A whole number from ``low`` to ``high`` inclusive (an amount, a modifier).

    >>> Between(0, 3).contains(4)
    False
    """

    low: int
    high: int

    def contains(self, value: Any) -> bool:
        """True for a whole number in range."""
        return (
            isinstance(value, int)
            and not isinstance(value, bool)
            and self.low <= value <= self.high
        )

    def sample(self, rng: random.Random) -> Json:
        """A number drawn uniformly."""
        return rng.randint(self.low, self.high)

    def to_json(self) -> dict[str, Any]:
        """``{"between": [low, high]}``."""
        return {"between": [self.low, self.high]}


@dataclass(frozen=True)
class SomeOf:
    """A list of distinct values from ``values``, from ``least`` to ``most`` of them.

    >>> SomeOf(("a", "b", "c"), least=1, most=2).contains(["a", "c"])
    True
    """

    values: tuple[Json, ...]
    least: int = 0
    most: int | None = None

    def contains(self, value: Any) -> bool:
        """True for a list of distinct values from the domain, of an allowed length."""
        if not isinstance(value, list) or len(set(map(repr, value))) != len(value):
            return False
        most = len(self.values) if self.most is None else self.most
        return self.least <= len(value) <= most and all(v in self.values for v in value)

    def sample(self, rng: random.Random) -> Json:
        """A list drawn uniformly in length, then in members."""
        most = len(self.values) if self.most is None else min(self.most, len(self.values))
        count = rng.randint(min(self.least, most), most)
        return rng.sample(list(self.values), count)

    def to_json(self) -> dict[str, Any]:
        """``{"some_of": [...], "least", "most"}``."""
        return {"some_of": list(self.values), "least": self.least, "most": self.most}


@dataclass(frozen=True)
class Text:
    """Free text (a note, a name); ``example`` is what a random player writes."""

    example: str = ""

    def contains(self, value: Any) -> bool:
        """True for any string."""
        return isinstance(value, str)

    def sample(self, rng: random.Random) -> Json:
        """The example."""
        return self.example

    def to_json(self) -> dict[str, Any]:
        """``{"text": example}``."""
        return {"text": self.example}


# ---------------------------------------------------------------- structured domains
#
# What a person *builds* rather than picks from a finished list: a record of fields, each with
# its own domain; one of several shapes; a list of steps; a field whose domain depends on a
# sibling field. A game describes the parts and their limits; it never enumerates every
# combination of steps to fit a menu.


def _resolved(fields: Mapping[str, Domain], value: Mapping[str, Any]) -> Iterator[tuple[str, Any]]:
    """Each field with its domain given the record's other values (``None``: not offered)."""
    for name, domain in fields.items():
        yield name, domain.given(value) if isinstance(domain, Depends) else domain


def _fits(
    fields: Mapping[str, Domain], optional: frozenset[str], value: Any, *, closed: bool
) -> bool:
    """True if ``value`` is a record of ``fields`` (``closed``: no other keys)."""
    if not isinstance(value, dict):
        return False
    if closed and not set(value) <= set(fields):
        return False
    for name, domain in _resolved(fields, value):
        if domain is None:  # a dependent field with no case for its sibling's value
            if name in value:
                return False
            continue
        if name not in value:
            if name in optional:
                continue
            return False
        if not domain.contains(value[name]):
            return False
    return True


def _drawn(
    fields: Mapping[str, Domain], optional: frozenset[str], rng: random.Random
) -> dict[str, Json]:
    """A record drawn field by field: independent fields first, then those that depend on them."""
    out: dict[str, Json] = {}
    plain = [(n, d) for n, d in fields.items() if not isinstance(d, Depends)]
    dependent = [(n, d) for n, d in fields.items() if isinstance(d, Depends)]
    for name, domain in plain:
        if name in optional and rng.random() < 0.5:
            continue
        out[name] = domain.sample(rng)
    for name, depends in dependent:
        given = depends.given(out)
        if given is not None and not (name in optional and rng.random() < 0.5):
            out[name] = given.sample(rng)
    return out


@dataclass(frozen=True)
class Record:
    """An object whose fields each have their own domain (a step of a plan, a defence).

    ``optional`` names the fields that may be left out; the others must be given.

    >>> step = Record({"attack": OneOf(("ogre",)), "skill": OneOf(("axe", "sword"))})
    >>> step.contains({"attack": "ogre", "skill": "axe"}), step.contains({"attack": "ogre"})
    (True, False)
    >>> step.to_json()["record"]["skill"]
    {'one_of': ['axe', 'sword']}
    """

    fields: Mapping[str, Domain]
    optional: frozenset[str] = frozenset()

    def contains(self, value: Any) -> bool:
        """True for an object with every required field, each in its domain, and no other."""
        return _fits(self.fields, self.optional, value, closed=True)

    def sample(self, rng: random.Random) -> Json:
        """A record drawn field by field (an optional field half the time)."""
        return _drawn(self.fields, self.optional, rng)

    def to_json(self) -> dict[str, Any]:
        """``{"record": {name: domain}, "optional": [...]}``, the fields in their order."""
        return {
            "record": {name: d.to_json() for name, d in self.fields.items()},
            "optional": sorted(self.optional),
        }


@dataclass(frozen=True)
class AnyOf:
    """One of several shapes, each named for a menu ("attack", "defend", "move").

    >>> shape = AnyOf({"defend": Record({"defend": OneOf(("dodge",))}),
    ...                "attack": Record({"attack": OneOf(("ogre",))})})
    >>> shape.contains({"attack": "ogre"}), shape.contains({"attack": "dodge"})
    (True, False)
    """

    options: Mapping[str, Domain]

    def contains(self, value: Any) -> bool:
        """True if ``value`` fits any one of the shapes."""
        return any(d.contains(value) for d in self.options.values())

    def sample(self, rng: random.Random) -> Json:
        """A shape drawn uniformly, then a value of it."""
        domains = list(self.options.values())
        return domains[rng.randrange(len(domains))].sample(rng)

    def to_json(self) -> dict[str, Any]:
        """``{"any_of": {label: domain}}``."""
        return {"any_of": {label: d.to_json() for label, d in self.options.items()}}


@dataclass(frozen=True)
class Steps:
    """A list of ``least`` to ``most`` steps, each in ``step`` (a round's plan of actions).

    >>> plan = Steps(OneOf(("attack", "defend")), least=1, most=2)
    >>> plan.contains(["attack", "attack"]), plan.contains([]), plan.contains(["a", "b", "c"])
    (True, False, False)
    """

    step: Domain
    least: int = 0
    most: int = 1

    def __post_init__(self) -> None:
        if not 0 <= self.least <= self.most:
            raise ValueError(f"steps from {self.least} to {self.most}: not a range")

    def contains(self, value: Any) -> bool:
        """True for a list of an allowed length whose every step is in the step's domain."""
        return (
            isinstance(value, list)
            and self.least <= len(value) <= self.most
            and all(self.step.contains(v) for v in value)
        )

    def sample(self, rng: random.Random) -> Json:
        """A length from ``least``, each further step half as likely as the one before (a
        person plans a few steps, rarely the most allowed), then each step."""
        count = self.least
        while count < self.most and rng.random() >= 0.5:
            count += 1
        return [self.step.sample(rng) for _ in range(count)]

    def to_json(self) -> dict[str, Any]:
        """``{"steps": domain, "least", "most"}``."""
        return {"steps": self.step.to_json(), "least": self.least, "most": self.most}


@dataclass(frozen=True)
class Depends:
    """A field whose domain depends on a sibling field's value: the skills of a defence given
    the kind of defence, the targets in reach given the weapon.

    ``cases`` pairs each value of the sibling ``on`` with the domain it opens; a sibling value
    with no case leaves the field out.

    >>> skill = Depends("defend", (("dodge", OneOf(("agility",))), ("parry", OneOf(("sword",)))))
    >>> parry = Record({"defend": OneOf(("dodge", "parry")), "skill": skill})
    >>> parry.contains({"defend": "parry", "skill": "sword"})
    True
    >>> parry.contains({"defend": "dodge", "skill": "sword"})
    False
    """

    on: str
    cases: tuple[tuple[Json, Domain], ...]

    def given(self, siblings: Mapping[str, Any]) -> Domain | None:
        """The domain for the sibling's value in ``siblings``, or ``None`` if it opens none."""
        if self.on not in siblings:
            return None
        value = siblings[self.on]
        for case, domain in self.cases:
            if case == value and type(case) is type(value):
                return domain
        return None

    def contains(self, value: Any) -> bool:
        """True if ``value`` is in the domain of some case (the record checks the right one)."""
        return any(d.contains(value) for _, d in self.cases)

    def sample(self, rng: random.Random) -> Json:
        """A value of a case drawn uniformly (a record draws from its sibling's own case)."""
        return self.cases[rng.randrange(len(self.cases))][1].sample(rng)

    def to_json(self) -> dict[str, Any]:
        """``{"depends": on, "cases": [[value, domain], ...]}``."""
        return {"depends": self.on, "cases": [[v, d.to_json()] for v, d in self.cases]}


Domain = OneOf | Between | SomeOf | Text | Record | AnyOf | Steps | Depends
"""What values a parameter of a :class:`Choice` may take."""
