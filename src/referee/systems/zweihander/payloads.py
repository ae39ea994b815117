"""The payload of each kind of event of a Zweihänder table, as a ``TypedDict``
(:data:`.events.PAYLOADS` maps each kind to its shape).

An event that changes characters also carries ``"characters"``, the changed fields by character
id (:func:`.emit.character_payload`), and one that rolls a check carries its roll card under
``"roll"`` or ``"rolls"``.
"""

from __future__ import annotations

from typing import Any, TypedDict

__all__ = [
    "ChaseActionTaken",
    "ChaseAttacked",
    "ChaseCaughtUp",
    "ChaseComplication",
    "ChaseEnded",
    "ChaseFatigue",
    "ChaseGaveUp",
    "ChaseMoved",
    "ChaseRoundEnded",
    "ChaseStarted",
    "ChaseTakedown",
    "CorruptionGained",
    "CorruptionResolved",
    "ExchangeEnded",
    "ExchangeStarted",
    "ExchangeTacticTested",
    "ForcedMarch",
    "JourneyCamp",
    "JourneyChaos",
    "JourneyEnded",
    "JourneyRoleCheck",
    "JourneyStarted",
    "JourneyStretchEnded",
    "JourneyToughness",
    "MadnessWithstood",
    "MoraleChecked",
    "RecoveryAllowed",
    "ReputationAwarded",
    "RequisitionAvailable",
    "RequisitionMade",
    "SimpleExchange",
    "StableRewarded",
    "TestJson",
    "TestRolled",
]


class TestJson(TypedDict):
    """A rolled percentile test as the payloads carry it (``emit.test_json``)."""

    skill: str
    base_chance: int
    difficulty: int
    difficulty_rating: str
    total_chance: int
    assist: bool
    odds: dict[str, str]
    faces: list[int]
    face: int
    margin: int
    outcome: str


class TestRolled(TestJson):
    """``test.rolled``: the test's fields at the top level, and its card."""

    character: str
    roll: dict[str, Any]


class MoraleChecked(TypedDict, total=False):
    """``morale.checked``; ``leadership`` only when a leader tested."""

    foes: str
    conditions: list[str]
    test: TestJson
    leadership: TestJson
    result: str
    gives_up: bool
    flees: bool
    inspired: bool
    rolls: list[dict[str, Any]]


class ChaseStarted(TypedDict):
    """``chase.started``: the ladder, each participant, the pursuers' initiative rolls."""

    ladder: list[str]
    participants: list[dict[str, Any]]
    initiative_rolls: dict[str, dict[str, int]]
    escape_condition: int
    head_start: str | None
    takedown_difficulty: int


class ChaseMoved(TypedDict):
    """``chase.moved``: 1D10 + Movement added to the Value."""

    participant: str
    d10: int
    movement: int
    gained: int
    value: int
    round: int


class ChaseActionTaken(TypedDict):
    """``chase.action_taken``."""

    participant: str
    description: str
    test: TestJson
    change: int
    value: int
    roll: dict[str, Any]


class ChaseAttacked(TypedDict):
    """``chase.attacked``."""

    participant: str
    target: str
    test: TestJson
    cost: int
    value: int
    hit: bool
    damage_ranks: int
    target_loss: int
    target_value: int
    target_slain: bool
    roll: dict[str, Any]


class ChaseCaughtUp(TypedDict):
    """``chase.caught_up``: the Pursuit Value ``was``, lowered to ``value``."""

    participant: str
    escapee: str
    was: int
    value: int


class ChaseTakedown(TypedDict, total=False):
    """``chase.takedown``; ``value`` when the Pursuer loses Value, ``taken_out`` when both go."""

    participant: str
    escapee: str
    test: TestJson
    escapee_test: TestJson
    value: int
    taken_out: list[str]
    result: str
    rolls: list[dict[str, Any]]


class ChaseComplication(TypedDict):
    """``chase.complication``: the rearmost Escapee's Chaos Die."""

    participant: str
    value: int
    faces: list[int]
    odds: str
    complication: bool
    roll: dict[str, Any]


class ChaseFatigue(TypedDict, total=False):
    """``chase.fatigue``; ``peril`` on a failure."""

    participant: str
    test: TestJson
    peril: int
    peril_faces: list[int]
    exhausted: bool
    roll: dict[str, Any]


class ChaseRoundEnded(TypedDict):
    """``chase.round_ended``."""

    round: int


class ChaseEnded(TypedDict):
    """``chase.ended``."""

    reason: str
    round: int


class ChaseGaveUp(TypedDict):
    """``chase.gave_up``."""

    side: str
    round: int


class JourneyStarted(TypedDict):
    """``journey.started``: the route."""

    travellers: list[str]
    stretches: list[dict[str, Any]]


class JourneyRoleCheck(TypedDict, total=False):
    """``journey.role_check``; the Guide's, Survivalist's or Scout's results."""

    role: str
    skill: str
    character: str | None
    assisted_by: list[str]
    unfilled: bool
    test: TestJson
    outcome: str
    result: str
    provisions_per_day: int
    terrain: int
    camp_recovery: str
    toughness_tests: int
    threat: int
    surprise: str | None
    roll: dict[str, Any]


class JourneyToughness(TypedDict):
    """``journey.toughness``: each traveller's test."""

    tests: list[dict[str, Any]]
    unhindered_at_camp: list[str]
    rolls: list[dict[str, Any]]


class JourneyChaos(TypedDict):
    """``journey.chaos``."""

    chaos_dice: int
    faces: list[int]
    odds: str
    encounter: bool
    surprise: str | None
    roll: dict[str, Any]


class JourneyCamp(TypedDict):
    """``journey.camp``: where each traveller's Peril recovers to."""

    hours: int
    recovered: dict[str, str]


class JourneyStretchEnded(TypedDict):
    """``journey.stretch_ended``."""

    stretch: str
    days: int
    provisions_per_day: int
    provisions: int


class JourneyEnded(TypedDict):
    """``journey.ended``."""

    survivors: list[str]
    fortune_points: int


class ForcedMarch(TypedDict):
    """``travel.forced_march``."""

    character: str
    test: TestJson
    incapacitated: bool
    extra_miles: int
    roll: dict[str, Any]


class RecoveryAllowed(TypedDict):
    """``travel.recovery_allowed``."""

    character: str


class SimpleExchange(TypedDict, total=False):
    """``social.simple_exchange``; ``mental_peril`` on a Critical Failure."""

    character: str
    test: TestJson
    mental_peril: int
    peril_faces: list[int]
    roll: dict[str, Any]


class ExchangeStarted(TypedDict, total=False):
    """``exchange.started``; ``favourable`` and ``unfavourable`` are the referee's secret parts."""

    npc: str
    disposition: str
    npc_alignment: str
    npc_class: str
    participants: list[str]
    objectives: str
    stakes: str
    favourable: str
    unfavourable: str


class ExchangeTacticTested(TypedDict, total=False):
    """``exchange.tactic_tested``; ``bumped_by`` is the referee's secret part."""

    character: str
    tactic: str
    test: TestJson
    outcome: str
    disposition_read_as: str
    result: str
    burned_reputation: bool
    fortune_points: int
    mental_peril: int
    peril_faces: list[int]
    bumped_by: str | None
    roll: dict[str, Any]


class ExchangeEnded(TypedDict):
    """``exchange.ended``: the GM's Skills revealed."""

    npc: str
    favourable: str | None
    unfavourable: str | None
    results: dict[str, str]


class MadnessWithstood(TypedDict):
    """``madness.withstood``."""

    character: str
    situation: str
    test: TestJson
    mental_peril: int
    peril_faces: list[int]
    corruption: int
    roll: dict[str, Any]


class CorruptionGained(TypedDict):
    """``corruption.gained``."""

    character: str
    offence: str
    weight: str
    points: int


class CorruptionResolved(TypedDict, total=False):
    """``corruption.resolved``: the end-of-session roll for one character."""

    character: str
    corruption: int
    corruption_die: int | None
    order_gained: int
    chaos_gained: int
    fate_point: bool
    disorder: str | None
    roll: dict[str, Any]


class ReputationAwarded(TypedDict):
    """``reputation.awarded``."""

    character: str
    story_arc: int


class RequisitionMade(TypedDict):
    """``requisition.made``."""

    character: str
    weight: str
    cost: int
    what: str


class RequisitionAvailable(TypedDict):
    """``requisition.available``."""

    character: str
    weight: str


class StableRewarded(TypedDict):
    """``stable.rewarded``."""

    player: str
    rewards: dict[str, int]
