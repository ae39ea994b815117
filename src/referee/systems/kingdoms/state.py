"""The state of a Burning Kingdoms chronicle: factions, the maneuver under way, its slips and
scenes ("Structure of Play": campaign, chronicle, session, maneuver, scene, conflict).

All values are immutable; the procedure (:mod:`referee.systems.kingdoms.procedure`) folds events
into them. The record keeps the hierarchy: the chronicle (territory, factions), the maneuver
number, its scenes and conflicts, and a summary of every maneuver resolved, so a table can stop
after any maneuver and pick up next week by replaying the log.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from referee.core.values import evolved
from referee.systems.kingdoms.sheets import Character

__all__ = ["Faction", "KingdomsState", "RolledTest", "SceneRecord", "Slip"]


@dataclass(frozen=True)
class Faction:
    """A faction at the table: its leader and 2iC, disposition and statuses.

    ``assessed``: factions it has successfully Assessed; ``infiltrated``: factions it has
    Infiltrated, with the advantage (dice) not yet used against them. ``sapped`` and
    ``cannot_act`` hold for the maneuver under way; ``next_sapped``/``next_cannot_act`` for the
    next one. ``maintenance``: Resources maintenance tests owed, each as its extra Ob.
    """

    id: str
    name: str
    leader: Character
    second: Character | None = None
    players: tuple[str, ...] = ()
    disposition: int = 0
    starting_disposition: int = 0
    objective: str = ""
    assessed: frozenset[str] = frozenset()
    infiltrated: Mapping[str, int] = field(default_factory=dict)
    sapped: int = 0
    cannot_act: bool = False
    next_sapped: int = 0
    next_cannot_act: bool = False
    out: bool = False
    joined: str | None = None
    conqueror: str | None = None
    lost_resources: int = 0
    lost_affiliation: str | None = None
    lost_affiliation_dice: int = 0
    affiliation_bought: bool = False
    allies: tuple[str, ...] = ()
    downtime_months: int = 0
    earned_downtime: bool = False
    maintenance: tuple[int, ...] = ()
    prologue: int | None = None

    def character(self, who: str) -> Character:
        """``"leader"`` or ``"second"``."""
        if who == "second":
            if self.second is None:
                from referee.core import RuleError

                raise RuleError("Seconds in Command", f"{self.id} has no Second in Command")
            return self.second
        return self.leader


@dataclass(frozen=True)
class Slip:
    """A maneuver slip ("Pick your Maneuvers privately"): sealed until the reveal.

    ``roller`` is ``"leader"`` or ``"second"`` (the 2iC substituting); ``forks`` skills from the
    maneuver's list; ``persona``/``deeds_before`` artha before the roll; ``defence`` Harry's
    defence dice (the rest attack); ``helps`` a faction whose maneuver this faction's leader
    helps; ``downtime`` spare Conserve/Fortify successes to put into downtime; ``substitute``:
    a racial skill or spell song used in place of a listed skill.
    """

    faction: str
    maneuver: str
    skill: str
    targets: tuple[str, ...] = ()
    roller: str = "leader"
    forks: tuple[str, ...] = ()
    persona: int = 0
    deeds_before: bool = False
    defence: int = 0
    helps: str | None = None
    downtime: int = 0
    substitute: bool = False

    def to_json(self) -> dict[str, Any]:
        """Every field."""
        return {
            "faction": self.faction,
            "maneuver": self.maneuver,
            "skill": self.skill,
            "targets": list(self.targets),
            "roller": self.roller,
            "forks": list(self.forks),
            "persona": self.persona,
            "deeds_before": self.deeds_before,
            "defence": self.defence,
            "helps": self.helps,
            "downtime": self.downtime,
            "substitute": self.substitute,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Slip:
        """Inverse of :meth:`to_json`."""
        return cls(
            faction=str(data["faction"]),
            maneuver=str(data["maneuver"]),
            skill=str(data["skill"]),
            targets=tuple(str(t) for t in data.get("targets", ())),
            roller=str(data.get("roller", "leader")),
            forks=tuple(str(f) for f in data.get("forks", ())),
            persona=int(data.get("persona", 0)),
            deeds_before=bool(data.get("deeds_before", False)),
            defence=int(data.get("defence", 0)),
            helps=None if data.get("helps") is None else str(data["helps"]),
            downtime=int(data.get("downtime", 0)),
            substitute=bool(data.get("substitute", False)),
        )


@dataclass(frozen=True)
class SceneRecord:
    """A scene played: color, interstitial, building (one roll) or conflict (recorded)."""

    faction: str
    kind: str
    by: str = "leader"
    target: str | None = None
    helpers: tuple[str, ...] = ()
    skill: str | None = None
    obstacle: int | None = None
    successes: int | None = None
    outcome: str = ""
    player: str | None = None


@dataclass(frozen=True)
class RolledTest:
    """A faction's maneuver test, rolled at the reveal.

    ``successes`` (Harry: its defence dice), ``attack`` (Harry's attack dice); ``artha`` what
    is left to decide after the roll: ``"open"`` until the faction keeps or spends.
    """

    faction: str
    roller: str
    skill: str
    exponent: int
    successes: int
    attack: int = 0
    pool: Mapping[str, Any] = field(default_factory=dict)
    attack_pool: Mapping[str, Any] | None = None
    decided: bool = False
    tie_break: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class KingdomsState:
    """A chronicle in play.

    ``phase``: ``prologue`` → ``maneuver`` (slips and scenes) → ``rolled`` (artha after the
    roll, tie-breakers) → ``consequences`` (conquest choices) → ``downtime`` (maintenance
    tests) → the next ``maneuver``; ``over`` when one faction stands. ``quick_play``: what
    a table set up with ``strict_sheets: false`` plays without (missing 2iCs and rivals;
    ``None`` when the sheets were checked strictly).
    """

    territory: str
    factions: Mapping[str, Faction]
    phase: str = "maneuver"
    maneuver: int = 1
    cap: int = 0
    players: int = 0
    maintenance_ob: int = 1
    attacked_first_fulfils: bool = True
    slips: Mapping[str, Slip] = field(default_factory=dict)
    salts: Mapping[str, str] = field(default_factory=dict)
    scenes: tuple[SceneRecord, ...] = ()
    passed: frozenset[str] = frozenset()
    health_tested: frozenset[str] = frozenset()
    wounded: frozenset[str] = frozenset()
    reader: str | None = None
    order: tuple[str, ...] = ()
    void: Mapping[str, str] = field(default_factory=dict)
    rolls: Mapping[str, RolledTest] = field(default_factory=dict)
    tie_offers: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    pending_conquest: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    history: tuple[Mapping[str, Any], ...] = ()
    winner: str | None = None
    session: int = 1
    quick_play: tuple[str, ...] | None = None

    @property
    def seats(self) -> tuple[str, ...]:
        """Faction ids in seat order (clockwise)."""
        return tuple(self.factions)

    def standing(self) -> tuple[str, ...]:
        """Factions not out of contention, in seat order."""
        return tuple(f for f, x in self.factions.items() if not x.out)

    def acting(self) -> tuple[str, ...]:
        """Factions that script a maneuver this maneuver (standing and able to act)."""
        return tuple(f for f, x in self.factions.items() if not x.out and not x.cannot_act)

    def with_faction(self, fid: str, **changes: Any) -> KingdomsState:
        """This state with faction ``fid``'s fields changed (its seat kept)."""
        faction = evolved(self.factions[fid], **changes)
        return evolved(self, factions={**self.factions, fid: faction})
