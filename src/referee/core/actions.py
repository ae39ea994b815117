"""Actions as values: each game's catalogue of action kinds, and the choices open now.

DESIGN.md, "The table contract". Every action kind a game offers is an :class:`ActionSpec`: its
parameters as a typed model whose field names are the rules text's own words, the section of the
text it implements, who may take it, and its JSON Schema. The kernel parses an action's
parameters with its spec *before* the game's ``decide`` runs, so a missing, misspelt or
ill-typed parameter is an :class:`~referee.core.errors.ActionError` naming the parameter's path;
a well-formed action the rules forbid stays a :class:`~referee.core.errors.RuleError`.

``legal_actions`` returns :class:`Choice` s: an action kind for an actor, with the domain of
each parameter (:class:`OneOf`, :class:`Between`, :class:`SomeOf`, :class:`Text`), so a menu, a
form or a random player can be built from them alone.

>>> class Perceive(Params):
...     target: str
...     modifier: int = 0
>>> spec = ActionSpec("perceive", Perceive, section="Perception Skill", who=Who.REFEREE)
>>> spec.parse({"target": "krockin"}).modifier
0
>>> spec.parse({"target": "krockin", "modifer": -4})
Traceback (most recent call last):
...
referee.core.errors.ActionError: perceive.modifer: not a parameter of this action \
(did you mean 'modifier'? its parameters: modifier, target)
>>> spec.parse({"target": 15})
Traceback (most recent call last):
...
referee.core.errors.ActionError: perceive.target: Input should be a valid string
"""

from __future__ import annotations

import enum
import json
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from difflib import get_close_matches
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from referee.core.errors import ActionError
from referee.core.values import Json, JsonObject

__all__ = [
    "ActionSpec",
    "AnyOf",
    "Between",
    "Catalogue",
    "Choice",
    "Depends",
    "Domain",
    "NoParams",
    "OneOf",
    "Params",
    "Record",
    "SomeOf",
    "Steps",
    "Text",
    "Who",
]


class Params(BaseModel):
    """The base of every action's parameter model: unknown fields refused, values frozen.

    Parameters are JSON: they are validated in pydantic's strict JSON mode, so ``"3"`` is not
    an integer and ``"no"`` is not ``False``, while an enum takes its value and a tuple a list.
    """

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class NoParams(Params):
    """An action with no parameters."""


P = TypeVar("P", bound=Params)


class Who(enum.Enum):
    """Who may take an action kind.

    - ``REFEREE``: only the referee seat.
    - ``CHARACTER`` / ``FACTION``: the seat playing the acting character or faction (and the
      referee seat, which may act for anyone).
    - ``ANYONE``: any seat, for any actor it plays (a GM-less game's shared steps).
    """

    REFEREE = "referee"
    CHARACTER = "character"
    FACTION = "faction"
    ANYONE = "anyone"


_ENCODER = json.JSONEncoder(allow_nan=False)
"""``json.dumps(..., allow_nan=False)`` without building an encoder per call."""

_NORMALISED: dict[tuple[type[Params], str], tuple[Params, dict[str, Json]]] = {}
_NORMALISED_SIZE = 1024


def _copy(value: Any) -> Any:
    """A copy of a JSON value: fresh dicts and lists, the same scalars."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


@dataclass(frozen=True)
class ActionSpec(Generic[P]):
    """One action kind: its parameter model, the rule it implements and who may take it.

    ``record`` says who sees the recorded action (its kind, actor and parameters): ``"actor"``
    (the acting seat and the referee: a sealed slip, a secret plan) or ``"everyone"``. The
    events the action causes carry audiences of their own.
    """

    kind: str
    params: type[P]
    section: str
    who: Who = Who.CHARACTER
    summary: str = ""
    record: str = "actor"

    def __post_init__(self) -> None:
        if self.record not in ("actor", "everyone"):
            raise ValueError(f"record is 'actor' or 'everyone', not {self.record!r}")

    def parse(self, params: Mapping[str, Any]) -> P:
        """The typed parameters; :class:`ActionError` naming the first bad parameter's path."""
        return self._validate(self._text(params))

    def _text(self, params: Mapping[str, Any]) -> str:
        if not isinstance(params, Mapping):
            raise ActionError(self.kind, (), "the parameters are a mapping of names to values")
        try:
            return _ENCODER.encode(params)
        except (TypeError, ValueError) as error:
            raise ActionError(self.kind, (), f"the parameters are not JSON: {error}") from None

    def _validate(self, text: str) -> P:
        try:
            return self.params.model_validate_json(text)
        except ValidationError as error:
            errors = error.errors()
            # a misspelt name is the cause of the "missing" one: name it first
            first = next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])
            path = tuple(first["loc"])
            if first["type"] == "extra_forbidden":
                if len(path) == 1:
                    known = ", ".join(sorted(self.params.model_fields)) or "none"
                    close = get_close_matches(str(path[0]), list(self.params.model_fields), 1)
                    hint = f"did you mean {close[0]!r}? " if close else ""
                    message = f"not a parameter of this action ({hint}its parameters: {known})"
                else:
                    message = "not a field of this part of the action's parameters"
            elif first["type"] == "missing":
                message = "missing: this action needs it"
            else:
                message = str(first["msg"]).removeprefix("Value error, ")
            limits = {
                k: v
                for k, v in (first.get("ctx") or {}).items()
                if isinstance(v, str | int | float) and not isinstance(v, bool)
            }
            raise ActionError(
                self.kind, path, message, problem=first["type"], limits=limits
            ) from None

    def normalise(self, params: Mapping[str, Any]) -> tuple[P, dict[str, Json]]:
        """The typed parameters and their JSON as recorded (only the parameters given).

        Remembered by the parameters' JSON text: the same parameters parse to the same frozen
        model every time (a table sees the same few again and again); the JSON is a fresh copy.
        """
        key = (self.params, self._text(params))
        known = _NORMALISED.get(key)
        if known is None:
            parsed = self._validate(key[1])
            known = (parsed, parsed.model_dump(mode="json", exclude_unset=True))
            if len(_NORMALISED) >= _NORMALISED_SIZE:
                _NORMALISED.clear()
            _NORMALISED[key] = known
        return known[0], _copy(known[1])  # type: ignore[return-value]

    def of(self, action: Any) -> P:
        """The typed parameters of ``action`` (parsed by the table already, or parsed now)."""
        args = getattr(action, "args", None)
        if isinstance(args, self.params):
            return args
        return self.parse(action.params)

    def schema(self) -> dict[str, Any]:
        """The JSON Schema of the parameters."""
        return self.params.model_json_schema()

    def to_json(self) -> dict[str, Any]:
        """``{"kind", "section", "who", "summary", "record", "schema"}``."""
        return {
            "kind": self.kind,
            "section": self.section,
            "who": self.who.value,
            "summary": self.summary,
            "record": self.record,
            "schema": self.schema(),
        }


@dataclass(frozen=True)
class Catalogue(Mapping[str, ActionSpec[Any]]):
    """A game's action kinds, by kind.

    >>> Catalogue([ActionSpec("pass", NoParams, section="Turns")])["pass"].section
    'Turns'
    """

    specs: Sequence[ActionSpec[Any]] = ()
    _by_kind: dict[str, ActionSpec[Any]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        by_kind: dict[str, ActionSpec[Any]] = {}
        for spec in self.specs:
            if spec.kind in by_kind:
                raise ValueError(f"two action specs for kind {spec.kind!r}")
            by_kind[spec.kind] = spec
        object.__setattr__(self, "_by_kind", by_kind)

    def __getitem__(self, kind: str) -> ActionSpec[Any]:
        return self._by_kind[kind]

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_kind)

    def __len__(self) -> int:
        return len(self._by_kind)

    def spec(self, kind: str) -> ActionSpec[Any]:
        """The spec of ``kind``; :class:`ActionError` listing the kinds there are."""
        try:
            return self._by_kind[kind]
        except KeyError:
            known = ", ".join(sorted(self._by_kind)) or "none"
            raise ActionError(kind, (), f"no such action (actions: {known})") from None

    def to_json(self) -> list[dict[str, Any]]:
        """Every spec's JSON, in the catalogue's order."""
        return [spec.to_json() for spec in self.specs]


# ------------------------------------------------------------------------------ domains


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


@dataclass(frozen=True)
class Choice:
    """An action kind open to ``actor`` now, with the domain of each parameter.

    Parameters not in ``params`` keep their defaults. ``odds`` previews the checks the action
    would roll (:class:`~referee.core.cards.OddsPreview`), where they are known before the
    parameters are chosen; ``label`` says it in words for a menu.

    >>> choice = Choice("scarface", "attack", {"target": OneOf(("krockin",))})
    >>> choice.sample(random.Random(1)).params
    {'target': 'krockin'}
    """

    actor: str
    kind: str
    params: Mapping[str, Domain] = field(default_factory=dict)
    odds: tuple[Any, ...] = ()
    label: str = ""
    prompt: bool = False
    """True if the choice answers a :class:`~referee.core.prompts.Prompt` to its actor."""

    def sample(self, rng: random.Random) -> Any:
        """A concrete :class:`~referee.core.procedures.Action` with each parameter drawn (a
        parameter whose domain depends on another after the one it depends on)."""
        from referee.core.procedures import Action

        return Action(self.actor, self.kind, _drawn(self.params, frozenset(), rng))

    def allows(self, params: JsonObject) -> bool:
        """True if every parameter with a domain is given a value inside it (a dependent one
        in the domain its sibling's value opens, or absent if that opens none)."""
        return _fits(self.params, frozenset(), params, closed=False)

    def to_json(self) -> dict[str, Any]:
        """``{"actor", "kind", "label", "params": {name: domain}, "odds": [...], "prompt"}``."""
        return {
            "actor": self.actor,
            "kind": self.kind,
            "label": self.label,
            "params": {name: d.to_json() for name, d in self.params.items()},
            "odds": [o.to_json() for o in self.odds],
            "prompt": self.prompt,
        }
