"""Characters: entered base chances and bonuses, the Condition Tracks, and the party's pools.

The house rules lean on Zweihänder's character sheet (parent-games.md, "Zweihänder"): Base
Chances per Skill, Bonuses ([AB] Agility, [BB] Brawn, [PB] Perception, [WB] Willpower …), the
Peril and Damage Condition Tracks, Fate Points, and the party's Fortune Points. The house rules
add Reputation, Order and Chaos Ranks, Corruption and Disorders.

>>> c = Character.from_setup("anna", {"bonuses": {"AB": 4, "WB": 3}})
>>> c.movement_on_foot, c.peril_threshold
(7, 6)
>>> c.suffer_peril(13).peril_condition
'Ignore 1 Skill Rank'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from referee.core import RuleError, ScenarioError
from referee.core.values import evolved

__all__ = [
    "BONUSES",
    "DAMAGE_TRACK",
    "INCAPACITATED",
    "PERIL_TRACK",
    "SLAIN",
    "Character",
    "peril_steps",
]

PERIL_TRACK = (
    "Unhindered",
    "Imperiled",
    "Ignore 1 Skill Rank",
    "Ignore 2 Skill Ranks",
    "Ignore 3 Skill Ranks",
    "Incapacitated!",
)
"""The Peril Condition Track, best first (parent-games.md)."""

DAMAGE_TRACK = (
    "Unharmed",
    "Lightly Wounded",
    "Moderately Wounded",
    "Seriously Wounded",
    "Grievously Wounded",
    "Slain!",
)
"""The Damage Condition Track, best first (parent-games.md)."""

INCAPACITATED = len(PERIL_TRACK) - 1
"""The index of Incapacitated! on the Peril Condition Track."""
SLAIN = len(DAMAGE_TRACK) - 1
"""The index of Slain! on the Damage Condition Track."""

BONUSES = ("CB", "BB", "AB", "PB", "IB", "WB", "FB")
"""The primary attribute Bonuses: Combat, Brawn, Agility, Perception, Intelligence, Willpower,
Fellowship."""


def peril_steps(peril: int, threshold: int) -> int:
    """Steps down the Peril Condition Track for ``peril`` points against the Peril Threshold.

    Peril at or above the threshold moves one step, each further 6 another (parent-games.md,
    *chosen* as the Foundry system does).

    >>> [peril_steps(p, 6) for p in (5, 6, 11, 12, 18)]
    [0, 1, 1, 2, 3]
    """
    if peril < threshold:
        return 0
    return 1 + (peril - threshold) // 6


def _int(
    data: Mapping[str, Any], key: str, default: int, path: tuple[str, ...], low: int = 0
) -> int:
    value = data.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise ScenarioError(
            f"expected a whole number of at least {low}, not {value!r}", (*path, key)
        )
    return value


def _track(data: Mapping[str, Any], key: str, track: tuple[str, ...], path: tuple[str, ...]) -> int:
    value = data.get(key, 0)
    if isinstance(value, str):
        for i, name in enumerate(track):
            if name.lower().rstrip("!") == value.lower().rstrip("!"):
                return i
        raise ScenarioError(
            f"not a step of the track ({', '.join(track)}): {value!r}", (*path, key)
        )
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(track):
        return value
    raise ScenarioError(f"a step 0–{len(track) - 1} or its name, not {value!r}", (*path, key))


@dataclass(frozen=True)
class Character:
    """A character as the house rules need it; every number is entered, not derived from a sheet.

    ``skills`` maps a Skill to its Base Chance; ``ranks`` its Skill Ranks (for the Peril track's
    "Ignore N Skill Ranks"). ``peril`` and ``damage`` are steps on the tracks (0 = Unhindered /
    Unharmed). ``initiative`` defaults to [PB] + 3, ``peril_threshold`` to [WB] + 3.
    """

    id: str
    skills: Mapping[str, int] = field(default_factory=dict)
    ranks: Mapping[str, int] = field(default_factory=dict)
    bonuses: Mapping[str, int] = field(default_factory=dict)
    initiative: int = 3
    peril_threshold: int = 3
    encumbrance_overage: int = 0
    peril: int = 0
    damage: int = 0
    fate_points: int = 1
    reputation: int = 1
    order_ranks: int = 0
    chaos_ranks: int = 0
    permanent_order_ranks: int = 0
    permanent_chaos_ranks: int = 0
    corruption: int = 0
    disorders: tuple[str, ...] = ()
    reward_points: int = 0
    social_class: str = ""
    daemon_expert: bool = False
    """An expert profession devoted to a daemon: its end of session's rules are not in the text
    (house rules, end of session: "see Aspects & Alignment")."""
    npc: bool = False
    """A non-player character, the GM's: no seat plays it, and its Corruption, Order and Chaos
    Ranks and Disorders are the GM's to know (:mod:`.npcs`)."""

    @classmethod
    def from_setup(
        cls, character_id: str, data: Mapping[str, Any], path: tuple[str, ...] = ()
    ) -> Character:
        """A character from a scenario's setup mapping; :class:`ScenarioError` names a bad field."""
        path = path or ("characters", character_id)
        if not isinstance(data, Mapping):
            raise ScenarioError("a character is a mapping of fields", path)
        known = {
            "skills",
            "ranks",
            "bonuses",
            "initiative",
            "peril_threshold",
            "encumbrance_overage",
            "peril",
            "damage",
            "fate_points",
            "reputation",
            "order_ranks",
            "chaos_ranks",
            "permanent_order_ranks",
            "permanent_chaos_ranks",
            "corruption",
            "disorders",
            "reward_points",
            "social_class",
            "daemon_expert",
            "npc",
        }
        for key in data:
            if key not in known:
                raise ScenarioError(
                    f"unknown field (known: {', '.join(sorted(known))})", (*path, key)
                )
        skills = _mapping(data.get("skills", {}), (*path, "skills"), 1)
        ranks = _mapping(data.get("ranks", {}), (*path, "ranks"), 0)
        bonuses = _mapping(data.get("bonuses", {}), (*path, "bonuses"), 0)
        for b in bonuses:
            if b not in BONUSES:
                raise ScenarioError(f"not a Bonus ({', '.join(BONUSES)})", (*path, "bonuses", b))
        disorders = data.get("disorders", [])
        if not isinstance(disorders, list) or not all(isinstance(d, str) for d in disorders):
            raise ScenarioError("a list of Disorder names", (*path, "disorders"))
        return cls(
            id=character_id,
            skills=skills,
            ranks=ranks,
            bonuses=bonuses,
            initiative=_int(data, "initiative", bonuses.get("PB", 0) + 3, path),
            peril_threshold=_int(data, "peril_threshold", bonuses.get("WB", 0) + 3, path, 1),
            encumbrance_overage=_int(data, "encumbrance_overage", 0, path),
            peril=_track(data, "peril", PERIL_TRACK, path),
            damage=_track(data, "damage", DAMAGE_TRACK, path),
            fate_points=_int(data, "fate_points", 1, path),
            reputation=_int(
                data,
                "reputation",
                # "1 point at the start, +1 for each Fate Point, +1 for each Disorder"
                # (house rules, "Reputation points"), unless the sheet enters it
                1 + _int(data, "fate_points", 1, path) + len(disorders),
                path,
            ),
            order_ranks=_int(data, "order_ranks", 0, path),
            chaos_ranks=_int(data, "chaos_ranks", 0, path),
            permanent_order_ranks=_int(data, "permanent_order_ranks", 0, path),
            permanent_chaos_ranks=_int(data, "permanent_chaos_ranks", 0, path),
            corruption=_int(data, "corruption", 0, path),
            disorders=tuple(disorders),
            reward_points=_int(data, "reward_points", 0, path),
            social_class=str(data.get("social_class", "")),
            daemon_expert=data.get("daemon_expert") is True,
            npc=data.get("npc") is True,
        )

    # -- reading ------------------------------------------------------------------------------

    def bonus(self, name: str) -> int:
        """A Bonus ([AB], [BB] …) as entered; 0 if not entered."""
        return self.bonuses.get(name.strip("[]").upper(), 0)

    @property
    def movement_on_foot(self) -> int:
        """Movement = [AB] + 3 (parent-games.md)."""
        return self.bonus("AB") + 3

    @property
    def peril_condition(self) -> str:
        """The step of the Peril Condition Track, by name."""
        return PERIL_TRACK[self.peril]

    @property
    def damage_condition(self) -> str:
        """The step of the Damage Condition Track, by name."""
        return DAMAGE_TRACK[self.damage]

    @property
    def is_incapacitated(self) -> bool:
        """True at Incapacitated! on the Peril Condition Track."""
        return self.peril >= INCAPACITATED

    @property
    def is_slain(self) -> bool:
        """True at Slain! on the Damage Condition Track."""
        return self.damage >= SLAIN

    def chance(self, skill: str) -> int:
        """The Skill's Base Chance, less 10 per Skill Rank the Peril Condition Track ignores.

        "Ignore N Skill Ranks" ignores at most the ranks the Skill has (0 if none entered).
        Refuses a Skill with no Base Chance entered, and a test while Incapacitated!.
        """
        if self.is_incapacitated:
            raise RuleError("Peril Condition Track", f"{self.id} is Incapacitated! and cannot act")
        if skill not in self.skills:
            raise RuleError("Skill Test", f"{self.id} has no Base Chance entered for {skill!r}")
        ignored = min(max(0, self.peril - 1), 3, self.ranks.get(skill, 0))
        return self.skills[skill] - 10 * ignored

    # -- changing -----------------------------------------------------------------------------

    def suffer_peril(self, peril: int) -> Character:
        """This character after ``peril`` points of Peril (:func:`peril_steps`)."""
        steps = peril_steps(peril, self.peril_threshold)
        return evolved(self, peril=min(INCAPACITATED, self.peril + steps))

    def suffer_damage(self, ranks: int) -> Character:
        """This character ``ranks`` steps down the Damage Condition Track."""
        return evolved(self, damage=min(SLAIN, self.damage + max(0, ranks)))

    def recover_to(self, step: str) -> Character:
        """Recover on the Peril Condition Track to ``step`` ("Imperiled", "Unhindered") if worse."""
        target = PERIL_TRACK.index(step)
        return evolved(self, peril=min(self.peril, target))


def _mapping(value: Any, path: tuple[str, ...], low: int) -> dict[str, int]:
    if not isinstance(value, Mapping):
        raise ScenarioError("a mapping of names to whole numbers", path)
    out: dict[str, int] = {}
    for k, v in value.items():
        if not isinstance(v, int) or isinstance(v, bool) or v < low:
            raise ScenarioError(f"a whole number of at least {low}, not {v!r}", (*path, str(k)))
        out[str(k)] = v
    return out
