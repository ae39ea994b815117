"""The payload of each event kind of a Burning Kingdoms table, as a ``TypedDict``: what its
folds read (the kinds and their narration are :mod:`.events`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NotRequired, TypedDict

from referee.systems.kingdoms.events import (
    AFFILIATION_BOUGHT,
    ARTHA_SPENT,
    CHRONICLE_BEGAN,
    CHRONICLE_ENDED,
    CHRONICLE_WON,
    CONQUEROR_NAMED,
    EFFECT_APPLIED,
    HEALTH_TESTED,
    LEADER_JOINED,
    MAINTENANCE_TESTED,
    MANEUVER_ENDED,
    MANEUVER_RESOLVED,
    MANEUVER_STARTED,
    OBJECTIVE_SET,
    PROLOGUE_ENDED,
    PROLOGUE_ROLLED,
    ROLL_KEPT,
    SCENE_PLAYED,
    SCENES_PASSED,
    SESSION_STARTED,
    SLIP_WRITTEN,
    SLIPS_REVEALED,
    TEST_ROLLED,
    TIE_BREAK_OFFERED,
    TIE_BREAK_ROLLED,
)

__all__ = ["PAYLOADS"]


class ChronicleBegan(TypedDict):
    """:data:`CHRONICLE_BEGAN`."""

    territory: str
    factions: dict[str, dict[str, Any]]
    quick_play: NotRequired[list[str]]


class PrologueRolled(TypedDict):
    """:data:`PROLOGUE_ROLLED`."""

    faction: str
    skill: str
    odds: dict[str, str]
    successes: int
    roll: dict[str, Any]
    pool_roll: dict[str, Any]


class PrologueEnded(TypedDict):
    """:data:`PROLOGUE_ENDED`."""

    narration_order: list[str]
    cap: int


class SessionStarted(TypedDict):
    """:data:`SESSION_STARTED`."""

    session: int
    maneuver_number: int


class ObjectiveSet(TypedDict):
    """:data:`OBJECTIVE_SET`."""

    faction: str
    objective: str


class SlipWritten(TypedDict, total=False):
    """:data:`SLIP_WRITTEN`; ``slip`` is a secret part seen by the writer alone."""

    faction: str
    maneuver_number: int
    rewritten: bool
    slip: dict[str, Any]


ScenePlayed = TypedDict(
    "ScenePlayed",
    {
        "player": "str | None",
        "faction": str,
        "kind": str,
        "by": str,
        "character": str,
        "helpers": list[str],
        "with": "str | None",
        "skill": str,
        "ob": int,
        "dice": int,
        "odds": str,
        "successes": int,
        "passed": bool,
        "roll": dict[str, Any],
        "target": str,
        "outcome": str,
        "wounds": dict[str, str],
    },
    total=False,
)
""":data:`SCENE_PLAYED`: building scenes add the roll, conflicts the outcome and wounds."""


class ScenesPassed(TypedDict):
    """:data:`SCENES_PASSED`; ``spent``: every scene used, not a pass."""

    faction: str
    spent: bool


class HealthTested(TypedDict):
    """:data:`HEALTH_TESTED`."""

    faction: str
    character: str
    ob: int
    odds: str
    successes: int
    passed: bool
    wound_dice: int
    superficial: bool
    roll: dict[str, Any]


class SlipsRevealed(TypedDict, total=False):
    """:data:`SLIPS_REVEALED`."""

    maneuver_number: int
    reader: str
    order: list[str]
    slips: dict[str, dict[str, Any]]
    cannot_act: list[str]
    void: dict[str, str]
    help: dict[str, dict[str, int]]
    help_refused: dict[str, str]
    odds: list[dict[str, Any]]


class EffectApplied(TypedDict):
    """:data:`EFFECT_APPLIED` (:class:`~.resolution.Effect`)."""

    faction: str
    kind: str
    by: str
    amount: int
    value: int | None
    target: str | None
    text: str


class TestRolled(TypedDict, total=False):
    """:data:`TEST_ROLLED`; a Harry adds ``attack``, ``attack_pool_roll``, the dice split and
    its two cards under ``rolls``."""

    faction: str
    roller: str
    character: str
    maneuver: str
    skill: str
    exponent: int
    pool: dict[str, Any]
    dice: int
    notes: list[str]
    artha: dict[str, int]
    advantage_used: list[str]
    successes: int
    roll: dict[str, Any]
    rolls: list[dict[str, Any]]
    pool_roll: dict[str, Any]
    attack: int
    attack_pool_roll: dict[str, Any]
    defence_dice: int
    attack_dice: int


class ArthaSpent(TypedDict, total=False):
    """:data:`ARTHA_SPENT`; ``successes`` (or a Harry's ``attack``) after the artha."""

    faction: str
    fate: bool
    deeds: bool
    pool: str
    successes: int
    attack: int
    roll: dict[str, Any]
    pool_roll: dict[str, Any]


class RollKept(TypedDict):
    """:data:`ROLL_KEPT`."""

    faction: str


class TieBreakOffered(TypedDict):
    """:data:`TIE_BREAK_OFFERED`."""

    faction: str
    opponent: str
    root: str


class TieBreakRolled(TypedDict):
    """:data:`TIE_BREAK_ROLLED`."""

    factions: list[str]
    odds: dict[str, str]
    extra: dict[str, int]
    pools: dict[str, str]
    rolls: list[dict[str, Any]]
    pool_rolls: dict[str, dict[str, Any]]


class ManeuverResolved(TypedDict):
    """:data:`MANEUVER_RESOLVED` (:class:`~.resolution.Resolution`)."""

    maneuver_number: int
    engagements: list[dict[str, Any]]
    effects: list[dict[str, Any]]
    dispositions: dict[str, int]
    out: list[str]
    conquerors: dict[str, list[str]]
    narrator: str | None
    sapped: dict[str, int]
    cannot_act: list[str]
    attackers: dict[str, dict[str, int]]


class ConquerorNamed(TypedDict):
    """:data:`CONQUEROR_NAMED`."""

    defeated: str
    conqueror: str
    why: str


class ChronicleWon(TypedDict):
    """:data:`CHRONICLE_WON`."""

    faction: str


class ChronicleEnded(TypedDict):
    """:data:`CHRONICLE_ENDED`."""

    winner: None


class ManeuverEnded(TypedDict):
    """:data:`MANEUVER_ENDED`."""

    maneuver_number: int
    pending_conquest: dict[str, list[str]]


class LeaderJoined(TypedDict, total=False):
    """:data:`LEADER_JOINED`; joining another than the conqueror adds what is lost."""

    defeated: str
    leader: str
    faction: str
    conqueror: str | None
    resources_lost: int
    affiliation_lost: str | None
    affiliation_dice: int
    cash_on_hand_to: str


AffiliationBought = TypedDict(
    "AffiliationBought",
    {"faction": str, "from": str, "affiliation": str, "dice": int, "cash_spent": int},
)
""":data:`AFFILIATION_BOUGHT` (``from`` is the defeated faction)."""


class MaintenanceTested(TypedDict):
    """:data:`MAINTENANCE_TESTED`."""

    faction: str
    ob: int
    extra_ob: int
    dice: int
    odds: str
    successes: int
    passed: bool
    difficulty: str
    tax: int
    resources: int
    roll: dict[str, Any]


class ManeuverStarted(TypedDict):
    """:data:`MANEUVER_STARTED`."""

    maneuver_number: int
    healed: list[str]


PAYLOADS: Mapping[str, type] = {
    CHRONICLE_BEGAN: ChronicleBegan,
    PROLOGUE_ROLLED: PrologueRolled,
    PROLOGUE_ENDED: PrologueEnded,
    SESSION_STARTED: SessionStarted,
    OBJECTIVE_SET: ObjectiveSet,
    SLIP_WRITTEN: SlipWritten,
    SCENE_PLAYED: ScenePlayed,
    SCENES_PASSED: ScenesPassed,
    HEALTH_TESTED: HealthTested,
    SLIPS_REVEALED: SlipsRevealed,
    EFFECT_APPLIED: EffectApplied,
    TEST_ROLLED: TestRolled,
    ARTHA_SPENT: ArthaSpent,
    ROLL_KEPT: RollKept,
    TIE_BREAK_OFFERED: TieBreakOffered,
    TIE_BREAK_ROLLED: TieBreakRolled,
    MANEUVER_RESOLVED: ManeuverResolved,
    CONQUEROR_NAMED: ConquerorNamed,
    CHRONICLE_WON: ChronicleWon,
    CHRONICLE_ENDED: ChronicleEnded,
    MANEUVER_ENDED: ManeuverEnded,
    LEADER_JOINED: LeaderJoined,
    AFFILIATION_BOUGHT: AffiliationBought,
    MAINTENANCE_TESTED: MaintenanceTested,
    MANEUVER_STARTED: ManeuverStarted,
}
"""Each kind's payload shape."""
