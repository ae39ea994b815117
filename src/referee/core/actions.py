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
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from difflib import get_close_matches
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from referee.core.domains import (
    AnyOf,
    Between,
    Depends,
    Domain,
    OneOf,
    Record,
    SomeOf,
    Steps,
    Text,
    _drawn,
    _fits,
)
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
    "Later",
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

_NORMALISED: dict[tuple[type[Params], Any], tuple[Params, dict[str, Json]]] = {}
_NORMALISED_SIZE = 1024


_FLAT = frozenset({str, int, bool, type(None)})
"""The scalar types whose values stand for their JSON text in :func:`_flat_key`."""


def _flat_key(params: Any) -> tuple[Any, ...] | None:
    """The key an action's parameters are remembered by without writing them as JSON: for
    the usual shape (a dictionary of names to strings, whole numbers, booleans, nothing, and
    lists of those), each name with the type and value of what it is given (``True`` is not
    ``1``), in order. ``None`` for anything else: its JSON text is the key then.

    >>> _flat_key({"bonus": 1}) == _flat_key({"bonus": True}), _flat_key({"at": 1.5})
    (False, None)
    """
    if type(params) is not dict:
        return None
    key: list[tuple[str, type, Any]] = []
    for name, value in params.items():
        kind = type(value)
        if type(name) is not str:
            return None
        if kind is list:
            if any(type(v) not in _FLAT for v in value):
                return None
            value = tuple((type(v), v) for v in value)
        elif kind not in _FLAT:
            return None
        key.append((name, kind, value))
    return tuple(key)


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

        Remembered by the parameters (:func:`_flat_key`, else their JSON text): the same
        parameters parse to the same frozen model every time (a table sees the same few again
        and again); the JSON is a fresh copy.
        """
        flat = _flat_key(params)
        text = self._text(params) if flat is None else None
        key = (self.params, flat if flat is not None else text)
        known = _NORMALISED.get(key)
        if known is None:
            parsed = self._validate(text if text is not None else self._text(params))
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


class Later(tuple[Any, ...]):
    """A choice's odds previews, worked out only when someone reads them: ``Choice(...,
    odds=Later(lambda: previews(state)))``. Every interface that shows a choice reads its odds
    (they are then exactly what they would have been: ``work`` reads the same immutable state);
    a simulated player, choosing thousands of times, never does, and an odds preview (exact
    fractions of every roll the choice would make) can cost more than the rest of the step.
    ``work`` must not raise and must not roll.

    >>> worked = []
    >>> choice = Choice("bob", "attack", odds=Later(lambda: worked.append(1) or ("1/2",)))
    >>> worked
    []
    >>> choice.odds, choice.odds, worked
    (('1/2',), ('1/2',), [1])
    >>> choice == Choice("bob", "attack", odds=("1/2",))
    True
    """

    work: Callable[[], Iterable[Any]]

    def __new__(cls, work: Callable[[], Iterable[Any]]) -> Later:
        later = super().__new__(cls)
        later.work = work
        return later


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
    odds: tuple[Any, ...] = field(default_factory=tuple)
    """The previews; given as :class:`Later`, worked out when first read (a simulated player
    chooses without them). No class attribute stands for it, so that :meth:`__getattr__` is
    asked while it is not yet worked out."""
    label: str = ""
    prompt: bool = False
    """True if the choice answers a :class:`~referee.core.prompts.Prompt` to its actor."""

    def __post_init__(self) -> None:
        odds = self.__dict__["odds"]
        if type(odds) is Later:
            del self.__dict__["odds"]  # until it is read: :meth:`__getattr__`
            self.__dict__["_odds_later"] = odds.work

    if not TYPE_CHECKING:  # to mypy, ``odds`` is the field it reads

        def __getattr__(self, name: str) -> Any:
            work = self.__dict__.get("_odds_later") if name == "odds" else None
            if work is None:
                raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
            odds = tuple(work())
            self.__dict__["odds"] = odds  # worked out once, then read as any field
            return odds

    def __getstate__(self) -> dict[str, Any]:
        """What a pickle or a copy keeps: the fields, the odds worked out (a :class:`Later`'s
        work may be a closure, which no pickle holds)."""
        state = {k: v for k, v in self.__dict__.items() if k != "_odds_later"}
        state["odds"] = self.odds
        return state

    def answering(self) -> Choice:
        """This choice marked as answering a prompt (``prompt``): a plain copy, its odds still
        not worked out if they were not (``dataclasses.replace`` would read them)."""
        copy: Choice = object.__new__(Choice)
        copy.__dict__.update(self.__dict__)
        copy.__dict__["prompt"] = True
        return copy

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
