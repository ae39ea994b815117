"""The declared steps of a round: what each is, and how a scenario or a player writes one.

hursagmu-encounters.txt, "Action" (major and minor actions, defences, tasks), "Movement",
"Haste". A round's steps are scheduled and penalised by :mod:`~referee.systems.hursagmu.rounds`.

>>> Step.from_json({"attack": "fred"}) == Step.attack("fred")
True
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.core import RuleError
from referee.systems.hursagmu.movement import Movement, range_increment
from referee.systems.hursagmu.sheet import skill_stance

__all__ = ["Step", "StepKind"]


class StepKind(enum.Enum):
    """What a declared step is ("Action", "Movement", "Haste")."""

    ATTACK = "attack"
    """A major action: a skill roll against a target, who may defend."""
    DEFEND = "defend"
    """A major action: a defensive roll (Defense, or Defiance against sorcery)."""
    TASK = "task"
    """A major action: any other skill roll (picking a lock, holding a door, a ritual)."""
    MOVE = "move"
    """Movement actions: no skill penalty, −2 Initiative each to what follows."""
    MINOR = "minor"
    """A minor action: no skill penalty; perhaps an Initiative penalty."""
    HASTE = "haste"
    """An action spent for +2 Initiative; counts for skill penalties."""

    @property
    def is_major(self) -> bool:
        """Attacks, defences, tasks and Haste are major actions for the skill penalty."""
        return self in (StepKind.ATTACK, StepKind.DEFEND, StepKind.TASK, StepKind.HASTE)


@dataclass(frozen=True)
class Step:
    """One declared action. Build with the class methods.

    ``skill`` for attacks, defences and tasks (a task may roll a bare attribute such as
    ``strength``); ``target`` for attacks; ``movement``/``yards`` for movement;
    ``initiative_penalty`` for a minor action the Master penalises; ``engrossing`` for an action
    that allows no defence; ``rounds`` for an action that takes several rounds; ``challenge`` the
    challenge level of a task; ``name`` a label; ``ability`` the range table entry of a ranged
    attack (``missile weapon``, ``Mahasu``…) and ``yards`` its distance.
    """

    kind: StepKind
    skill: str | None = None
    target: str | None = None
    movement: Movement | None = None
    yards: int = 0
    initiative_penalty: int = 0
    engrossing: bool = False
    rounds: int = 1
    challenge: int = 0
    name: str = ""
    ability: str | None = None
    slope: int = 0

    @classmethod
    def attack(
        cls, target: str, skill: str = "striking", *, yards: int = 0, ability: str | None = None
    ) -> Step:
        """An attack on ``target`` with ``skill`` (Striking by default)."""
        return cls(StepKind.ATTACK, skill=skill, target=target, yards=yards, ability=ability)

    @classmethod
    def defend(cls, skill: str = "defense") -> Step:
        """A defence (Defense; Defiance against sorcery)."""
        return cls(StepKind.DEFEND, skill=skill)

    @classmethod
    def task(
        cls,
        skill: str,
        challenge: int = 0,
        *,
        name: str = "",
        engrossing: bool = False,
        rounds: int = 1,
    ) -> Step:
        """Any other major action rolled against a challenge level."""
        return cls(
            StepKind.TASK,
            skill=skill,
            challenge=challenge,
            name=name,
            engrossing=engrossing,
            rounds=rounds,
        )

    @classmethod
    def move(
        cls, movement: Movement | str, yards: int = 0, *, challenge: int = 0, slope: int = 0
    ) -> Step:
        """A movement ("Movement").

        ``challenge``: the Master requires a roll for it — Acrobatics on treacherous ground
        ("base Dex for those without the skill"), Riding for a horse "in difficult
        circumstances". ``slope``: the Master's bonus (downhill) or penalty (uphill) in yards
        per movement action on foot.
        """
        return cls(
            StepKind.MOVE,
            movement=Movement(movement),
            yards=yards,
            challenge=challenge,
            slope=slope,
        )

    @property
    def roll_skill(self) -> str | None:
        """The skill a movement's required roll uses: Riding on horseback, else Acrobatics."""
        if self.kind is not StepKind.MOVE or not self.challenge:
            return None
        riding = (Movement.RIDE, Movement.MOUNT, Movement.DISMOUNT)
        return "riding" if self.movement in riding else "acrobatics"

    @classmethod
    def minor(cls, name: str = "", initiative_penalty: int = 0) -> Step:
        """A minor action (no skill penalty)."""
        return cls(StepKind.MINOR, name=name, initiative_penalty=initiative_penalty)

    @classmethod
    def haste(cls) -> Step:
        """An action spent on Haste."""
        return cls(StepKind.HASTE)

    def describe(self) -> str:
        """A few words for a person.

        >>> Step.move("foot", 16).describe(), Step.attack("fred").describe()
        ('move foot 16 yards', 'attack fred (striking)')
        """
        if self.kind is StepKind.ATTACK:
            at = f" at {self.yards} yards" if self.yards else ""
            return f"attack {self.target} ({self.skill}){at}"
        if self.kind is StepKind.DEFEND:
            return f"defend ({self.skill})"
        if self.kind is StepKind.TASK:
            label = self.name or self.skill
            return f"{label} ({self.skill} vs {self.challenge})"
        if self.kind is StepKind.MOVE:
            assert self.movement is not None
            yards = f" {self.yards} yards" if self.yards else ""
            roll = f" ({self.roll_skill} vs {self.challenge})" if self.roll_skill else ""
            return f"move {self.movement.value}{yards}{roll}"
        if self.kind is StepKind.MINOR:
            return f"minor: {self.name}" if self.name else "minor action"
        return "haste"

    def to_json(self) -> dict[str, Any]:
        """The step as JSON (only the fields that are set)."""
        data: dict[str, Any] = {"kind": self.kind.value}
        defaults = Step(self.kind)
        for key in (
            "skill",
            "target",
            "yards",
            "initiative_penalty",
            "engrossing",
            "rounds",
            "challenge",
            "name",
            "ability",
            "slope",
        ):
            value = getattr(self, key)
            if value != getattr(defaults, key):
                data[key] = value
        if self.movement is not None:
            data["movement"] = self.movement.value
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Step:
        """Inverse of :meth:`to_json`; also reads the short forms scenario files use.

        ``{attack: fred}``, ``{defend: true}``, ``{move: foot, yards: 16}``, ``{haste: 3}`` is
        not allowed (one step each), ``{minor: draw sword}``, ``{task: hold the door, skill:
        strength, challenge: 9}``.

        >>> Step.from_json({"move": "foot", "yards": 16}) == Step.move("foot", 16)
        True
        >>> Step.from_json(Step.attack("fred").to_json()) == Step.attack("fred")
        True
        """
        data = _long_form(dict(data))
        try:
            kind = StepKind(data.pop("kind"))
        except (KeyError, ValueError):
            kinds = ", ".join(k.value for k in StepKind)
            raise RuleError("Action", f"a step is one of {kinds}: {dict(data)!r}") from None
        movement = data.pop("movement", None)
        _check_fields(kind, data)
        step_movement = _movement_of(kind, movement, data)
        if int(data.get("rounds", 1)) < 1:
            raise RuleError("Action", "an action takes at least one round")
        return cls(kind, movement=step_movement, **data)


_FIELDS = frozenset(
    {
        "skill",
        "target",
        "yards",
        "initiative_penalty",
        "engrossing",
        "rounds",
        "challenge",
        "name",
        "ability",
        "slope",
    }
)
"""What a step may say besides its kind and movement."""


def _long_form(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` with a short form (``{attack: fred}``, ``{defend: true}``, ``{move: foot}``,
    ``{minor: draw sword}``...) written out as ``kind`` and its field."""
    if "kind" in data:
        return data
    for kind in StepKind:
        if kind.value not in data:
            continue
        value = data.pop(kind.value)
        data["kind"] = kind.value
        if kind is StepKind.ATTACK:
            data["target"] = value
        elif kind is StepKind.MOVE:
            data["movement"] = value
        elif kind in (StepKind.MINOR, StepKind.TASK):
            if not isinstance(value, str):
                raise RuleError("Action", f"a {kind.value}'s name is a name, not {value!r}")
            data["name"] = value
        elif kind is StepKind.DEFEND:
            if isinstance(value, str):
                data["skill"] = value
            elif value is not True:
                raise RuleError(
                    "Action",
                    "write defend: true (or defend: defense, "
                    f"defend: defiance), not defend: {value!r}",
                )
        elif kind is StepKind.HASTE and value is not True:
            raise RuleError(
                "Haste",
                "one Haste a step (haste: true); spend more "
                f"actions with more steps, not haste: {value!r}",
            )
        break
    return data


def _check_fields(kind: StepKind, data: dict[str, Any]) -> None:
    """Refuse a field a step does not have or of the wrong type; fill in an attack's and a
    defence's skill ("Action"), and check the skill and the range table entry named."""
    unknown = set(data) - _FIELDS
    if unknown:
        raise RuleError("Action", f"unknown fields {sorted(unknown)} in a {kind.value} step")
    for key in ("yards", "initiative_penalty", "rounds", "challenge", "slope"):
        if key in data and (isinstance(data[key], bool) or not isinstance(data[key], int)):
            raise RuleError("Action", f"{key} is a whole number, not {data[key]!r}")
    for key in ("skill", "target", "name", "ability"):
        if key in data and data[key] is not None and not isinstance(data[key], str):
            raise RuleError("Action", f"{key} is a name, not {data[key]!r}")
    if "engrossing" in data and not isinstance(data["engrossing"], bool):
        raise RuleError("Action", f"engrossing is true or false, not {data['engrossing']!r}")
    if data.get("skill") is not None:
        skill_stance(data["skill"])  # a known skill or attribute, or a RuleError
        data["skill"] = data["skill"].lower()
    if data.get("ability") is not None:
        range_increment(data["ability"])  # a range table entry, or a RuleError
    if kind is StepKind.ATTACK:
        data.setdefault("skill", "striking")
        if not data.get("target"):
            raise RuleError("Action", "an attack needs a target")
    if kind is StepKind.DEFEND:
        data.setdefault("skill", "defense")
        if str(data["skill"]).lower() not in ("defense", "defiance"):
            raise RuleError("Action", f"a defence rolls Defense or Defiance, not {data['skill']!r}")
    if kind is StepKind.TASK and not data.get("skill"):
        raise RuleError("Action", "a task needs a skill (or an attribute) to roll")


def _movement_of(kind: StepKind, movement: Any, data: Mapping[str, Any]) -> Movement | None:
    """A movement step's movement, and the yards only foot, riding and a leap cover
    ("Movement")."""
    if int(data.get("yards", 0)) < 0:
        raise RuleError("Action", f"a distance cannot be negative ({data['yards']} yards)")
    if kind is not StepKind.MOVE:
        return None
    try:
        step_movement = Movement(movement)
    except ValueError:
        names = ", ".join(m.value for m in Movement)
        raise RuleError("Movement", f"no movement {movement!r} (known: {names})") from None
    if data.get("yards") and step_movement not in (Movement.FOOT, Movement.RIDE, Movement.LEAP):
        raise RuleError(
            "Movement", f"{step_movement.value} covers no yards (yards: {data['yards']})"
        )
    return step_movement
