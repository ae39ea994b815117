"""Characters of Burning Kingdoms: Faction Leaders, Seconds in Command and their rivals.

"Faction Leaders": 5 to 10 lifepaths, stat exponents at most 7, skill exponents at most 6, and
starting artha by lifepath count. "Mandatory Relationships": a Second in Command with two fewer
lifepaths and caps one lower, and two rival relationships with characters of opposing factions
(not player characters). Lifepath burning itself is not in the text: the sheet is entered.

>>> leader = Character.from_json("grannir", {"lifepaths": 7, "skills": {"Logistics": "B6"}})
>>> leader.skill("logistics")
Ability(shade=<Shade.BLACK: 4>, exponent=6, open_ended=False)
>>> leader.artha
{'fate': 2, 'persona': 1, 'deeds': 0}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from referee.core import RuleError, ScenarioError
from referee.core.values import evolved
from referee.systems.kingdoms.dice import WOUND_HEALTH_OB, Shade
from referee.systems.kingdoms.tables import setup_tables

__all__ = [
    "Ability",
    "Character",
    "Relationship",
    "check_leader",
    "check_rivals",
    "check_second",
    "starting_artha",
]


@dataclass(frozen=True)
class Ability:
    """A stat or skill: shade and exponent (``B6``), open-ended by nature or not.

    >>> Ability.parse("G5")
    Ability(shade=<Shade.GREY: 3>, exponent=5, open_ended=False)
    """

    shade: Shade
    exponent: int
    open_ended: bool = False

    @classmethod
    def parse(cls, value: Any) -> Ability:
        """From ``"B6"`` or ``{"shade": "B", "exponent": 6, "open_ended": false}``."""
        if isinstance(value, str) and len(value) >= 2 and value[1:].isdigit():
            return cls(Shade.parse(value[0]), int(value[1:]))
        if isinstance(value, Mapping):
            if "ability" in value:  # as to_json shows an open-ended ability
                plain = cls.parse(value["ability"])
                return cls(plain.shade, plain.exponent, bool(value.get("open_ended", False)))
            exponent = int(value["exponent"])
            if exponent < 0:
                raise RuleError("Abilities", f"an exponent is 0 or more, not {exponent}")
            return cls(
                Shade.parse(str(value.get("shade", "B"))),
                exponent,
                bool(value.get("open_ended", False)),
            )
        raise RuleError("Abilities", f"{value!r} is not an ability like 'B6'")

    def to_json(self) -> Any:
        """``"B6"``, or an object when open-ended."""
        text = f"{self.shade.letter}{self.exponent}"
        return {"ability": text, "open_ended": True} if self.open_ended else text


@dataclass(frozen=True)
class Relationship:
    """A relationship: with whom, in which faction, and whether it is inimical."""

    name: str
    faction: str
    inimical: bool = True


def starting_artha(lifepaths: int) -> dict[str, int]:
    """The Faction Leader's starting artha for ``lifepaths`` ("Faction Leaders", the table).

    >>> starting_artha(5)
    {'fate': 3, 'persona': 2, 'deeds': 1}
    """
    table = setup_tables().starting_artha
    if lifepaths not in table:
        low, high = setup_tables().leader_lifepaths
        raise RuleError(
            "Faction Leaders", f"a Faction Leader has {low} to {high} lifepaths, not {lifepaths}"
        )
    return dict(table[lifepaths])


def _abilities(data: Any, path: tuple[str, ...]) -> dict[str, Ability]:
    if data is None:
        return {}
    if not isinstance(data, Mapping):
        raise ScenarioError("a mapping of name to ability ('B6')", path)
    out: dict[str, Ability] = {}
    for name, value in data.items():
        try:
            out[str(name)] = Ability.parse(value)
        except (RuleError, KeyError, ValueError) as error:
            raise ScenarioError(str(error), (*path, str(name))) from None
    return out


@dataclass(frozen=True)
class Character:
    """A character's sheet as the maneuvers use it.

    ``wound_dice`` is the dice lost to wounds (Light 1 … Traumatic 4, cumulative);
    ``superficial`` a Superficial wound (+1 Ob). ``resources``/``circles`` are exponents;
    ``cash_on_hand`` dice; ``affiliations`` name → dice.
    """

    name: str
    lifepaths: int
    stats: Mapping[str, Ability] = field(default_factory=dict)
    skills: Mapping[str, Ability] = field(default_factory=dict)
    artha: Mapping[str, int] = field(default_factory=dict)
    resources: int = 0
    circles: int = 0
    cash_on_hand: int = 0
    affiliations: Mapping[str, int] = field(default_factory=dict)
    wound_dice: int = 0
    superficial: bool = False
    relationships: tuple[Relationship, ...] = ()
    burned_up: bool = True

    @classmethod
    def from_json(cls, name: str, data: Mapping[str, Any], *, leader: bool = True) -> Character:
        """A sheet from setup data; a leader's artha defaults to the starting artha table."""
        path = (name,)
        lifepaths = int(data.get("lifepaths", 10 if leader else 8))
        artha = data.get("artha")
        if artha is None:
            artha = starting_artha(lifepaths) if leader else {"fate": 0, "persona": 0, "deeds": 0}
        numbers = {
            **{f"artha.{k}": int(artha.get(k, 0)) for k in ("fate", "persona", "deeds")},
            **{k: int(data.get(k, 0)) for k in ("resources", "circles", "cash_on_hand")},
            "wound_dice": int(data.get("wound_dice", 0)),
            **{f"affiliations.{k}": int(v) for k, v in (data.get("affiliations") or {}).items()},
        }
        for key, number in numbers.items():
            if number < 0:
                raise RuleError("Sheets", f"{name}'s {key} is 0 or more, not {number}")
        return cls(
            name=str(data.get("name", name)),
            lifepaths=lifepaths,
            stats=_abilities(data.get("stats"), (*path, "stats")),
            skills=_abilities(data.get("skills"), (*path, "skills")),
            artha={k: int(artha.get(k, 0)) for k in ("fate", "persona", "deeds")},
            resources=int(data.get("resources", 0)),
            circles=int(data.get("circles", 0)),
            cash_on_hand=int(data.get("cash_on_hand", 0)),
            affiliations={str(k): int(v) for k, v in (data.get("affiliations") or {}).items()},
            wound_dice=int(data.get("wound_dice", 0)),
            superficial=bool(data.get("superficial", False)),
            relationships=tuple(
                Relationship(str(r["name"]), str(r["faction"]), bool(r.get("inimical", True)))
                for r in data.get("relationships", ())
            ),
            burned_up=bool(data.get("burned_up", True)),
        )

    def skill(self, name: str) -> Ability | None:
        """The skill ``name`` (case-insensitive), or ``None``."""
        key = name.casefold()
        for skill, ability in self.skills.items():
            if skill.casefold() == key:
                return ability
        return None

    def stat(self, name: str) -> Ability | None:
        """The stat ``name`` (case-insensitive), or ``None``."""
        key = name.casefold()
        for stat, ability in self.stats.items():
            if stat.casefold() == key:
                return ability
        return None

    def spend(self, spent: Mapping[str, int]) -> Character:
        """The sheet with ``spent`` artha taken away; refuses what the character lacks."""
        left = dict(self.artha)
        for kind, points in spent.items():
            if points > left.get(kind, 0):
                raise RuleError(
                    "Artha", f"{self.name} has {left.get(kind, 0)} {kind}, cannot spend {points}"
                )
            left[kind] = left.get(kind, 0) - points
        return evolved(self, artha=left)

    @property
    def health_ob(self) -> int:
        """The Health test Ob for the worst wound the penalty stands for (parent-games.md)."""
        severity = {1: "light", 2: "midi", 3: "severe"}.get(self.wound_dice)
        if self.wound_dice >= 4:
            severity = "traumatic"
        if severity is None:
            return WOUND_HEALTH_OB["superficial"]
        return WOUND_HEALTH_OB[severity]


def check_leader(leader: Character) -> None:
    """Refuse a Faction Leader outside "Faction Leaders": 5–10 lifepaths, caps 7 and 6."""
    t = setup_tables()
    low, high = t.leader_lifepaths
    if not low <= leader.lifepaths <= high:
        raise RuleError(
            "Faction Leaders",
            f"{leader.name} has {leader.lifepaths} lifepaths; a leader has {low} to {high}",
        )
    _caps(leader, t.leader_stat_cap, t.leader_skill_cap, "Faction Leaders")


def _caps(who: Character, stat_cap: int, skill_cap: int, rule: str) -> None:
    for name, ability in who.stats.items():
        if ability.exponent > stat_cap:
            raise RuleError(
                rule, f"{who.name}'s {name} {ability.exponent} is over the cap {stat_cap}"
            )
    for name, ability in who.skills.items():
        if ability.exponent > skill_cap:
            raise RuleError(
                rule, f"{who.name}'s {name} {ability.exponent} is over the cap {skill_cap}"
            )


def check_second(leader: Character, second: Character) -> None:
    """Refuse a Second in Command outside "Seconds in Command": two fewer lifepaths, caps −1."""
    t = setup_tables()
    wanted = leader.lifepaths - t.second_lifepaths_fewer
    if second.lifepaths != wanted:
        raise RuleError(
            "Seconds in Command",
            f"{second.name} has {second.lifepaths} lifepaths; {leader.name}'s 2iC has {wanted}",
        )
    _caps(
        second,
        t.leader_stat_cap - t.second_cap_lower,
        t.leader_skill_cap - t.second_cap_lower,
        "Seconds in Command",
    )


def check_rivals(
    leader: Character,
    faction: str,
    player_characters: frozenset[str],
    opposing: frozenset[str] | None = None,
) -> None:
    """Refuse a leader without two rival relationships with NPCs of opposing factions (the
    other factions of the chronicle, ``opposing``, where given)."""
    t = setup_tables()
    rivals = [
        r
        for r in leader.relationships
        if r.faction != faction and (opposing is None or r.faction in opposing)
    ]
    if len(rivals) < t.rival_relationships:
        raise RuleError(
            "Rival Relationships",
            f"{leader.name} needs {t.rival_relationships} relationships with members of "
            f"opposing factions, has {len(rivals)}",
        )
    for r in rivals:
        if r.name in player_characters:
            raise RuleError(
                "Rival Relationships",
                f"{leader.name}'s rival {r.name} is a player character; rivals must be NPCs",
            )
