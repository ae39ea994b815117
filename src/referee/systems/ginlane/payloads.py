"""The shape of each Gin Lane event's payload, as a :class:`typing.TypedDict` named after its kind.

:data:`~referee.systems.ginlane.events.PAYLOADS` maps each kind of
:mod:`~referee.systems.ginlane.events` to its shape here. A rolled check carries its roll card
under ``"roll"`` (:data:`Card`), the roll as Gin Lane reads it under ``"rolled"``
(:data:`Rolled`) and the exact odds worked out before the dice under ``"odds"``.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

__all__ = [
    "AspectPlaced",
    "AspectRemoved",
    "AspectTagged",
    "AttackMatch",
    "AttackRolled",
    "BlockOvercome",
    "BlockSet",
    "BlockTested",
    "Card",
    "Character",
    "CharmMade",
    "ConsequenceRecovering",
    "ConsequenceTaken",
    "DeclarationMade",
    "DefenceRolled",
    "DefenceStands",
    "FightOver",
    "GrappleBroken",
    "GrappleHeld",
    "GrappleReleased",
    "GrappleSet",
    "GrenadeAstray",
    "GrenadeAttack",
    "GrenadeFizzled",
    "GrenadeFuse",
    "GrenadeThrown",
    "InitiativeRolled",
    "ManoeuvreRolled",
    "Moved",
    "PoolAwarded",
    "PoolSpent",
    "Resolved",
    "Rested",
    "RitualRolled",
    "Rolled",
    "RushRolled",
    "SceneEnded",
    "SeizeRolled",
    "Seized",
    "SessionEnded",
    "SheetChecked",
    "SomethingElse",
    "Spin",
    "SprintRolled",
    "StressTaken",
    "TakenOut",
    "TurnStarted",
    "WaitActed",
    "Waiting",
    "Weapon",
]

Card = dict[str, Any]
"""A roll card's JSON (:meth:`referee.core.RollCard.to_json`)."""
Rolled = dict[str, Any]
"""A roll as Gin Lane reads it: ``dice`` (the two that count), ``natural``, ``total``,
``faces``, ``tags_used``, ``tags_paid``, ``shown``."""


class Resolved(TypedDict, total=False):
    """A check resolved: ``outcome`` (success, match, failure), ``margin``, the success level,
    the actor's roll, the ``difficulty`` or the ``opposition``'s roll."""

    outcome: str
    margin: int
    success_level: str
    rolled: Rolled
    difficulty: int
    opposition: Rolled
    odds: dict[str, str]
    roll: Card


class InitiativeRolled(TypedDict):
    totals: dict[str, list[int]]
    order: list[str]
    winner: str
    rolls: list[Card]


class TurnStarted(TypedDict):
    character: str
    turn: int
    round: int


class Waiting(TypedDict, total=False):
    character: str
    plan: str  # a Secret part: the waiter's alone
    sealed: dict[str, str]
    salt: str


class WaitActed(TypedDict):
    character: str
    order: list[str]
    turn: int
    #: the Wait's plan, sealed when it waited, now published with its salt (issue 12)
    unsealed: NotRequired[list[dict[str, Any]]]


class Character(TypedDict):
    """Payload of :data:`FULL_DEFENCE`, :data:`TAKEN_OUT` (and ``by``), :data:`SPIN`..."""

    character: str


class SomethingElse(TypedDict):
    character: str
    what: str


class FightOver(TypedDict):
    standing: list[str]


class SceneEnded(TypedDict):
    """The scene is over: its manoeuvre Aspects lapse, turns and Blocks end."""

    lapsed: list[str]


class AspectPlaced(TypedDict):
    id: int
    name: str
    on: str
    setter: str
    free_side: str
    until_turn_of: str | None
    unique_to: str | None
    consequence: bool
    aim: NotRequired[bool]


class AspectRemoved(TypedDict):
    id: int
    name: str
    on: str


class AspectTagged(TypedDict):
    character: str
    aspect: str
    free: bool
    id: int | None


class DeclarationMade(TypedDict):
    character: str
    aspect: str
    fact: str


class PoolSpent(TypedDict):
    character: str
    points: int
    # "for": what the points paid for (tags, a declaration, maintenance)


class PoolAwarded(TypedDict):
    character: str
    points: int


class AttackRolled(TypedDict):
    character: str
    target: str
    skill: str
    weapon: str
    total: int
    defence: int
    defence_skill: str
    rolled: Rolled
    long_range: bool
    bonus: int
    odds: dict[str, str]
    roll: Card


class AttackMatch(TypedDict):
    character: str
    target: str
    stress: int


class DefenceRolled(TypedDict, total=False):
    character: str
    skill: str
    total: int
    rolled: Rolled
    full_defence: bool
    roll: Card


class DefenceStands(TypedDict):
    character: str
    skill: str
    total: int


class Spin(TypedDict):
    character: str
    against: str


class ManoeuvreRolled(Resolved, total=False):
    character: str
    aspect: str
    on: str
    skill: str


class Weapon(TypedDict):
    character: str
    weapon: str


class BlockSet(TypedDict):
    character: str
    kind: str
    target: str
    strength: int
    skill: str
    rolled: Rolled
    roll: Card


class BlockTested(Resolved, total=False):
    blocker: str
    strength: int
    character: str
    total: int
    action: str


class BlockOvercome(TypedDict):
    character: str
    blocker: str
    action: str


class SeizeRolled(Resolved, total=False):
    character: str
    thing: str
    against: int | None


class Seized(TypedDict):
    character: str
    thing: str


class GrappleSet(TypedDict):
    character: str
    target: str
    strength: int
    maintained: bool
    supplemental: bool | str | None
    rolled: Rolled
    roll: Card


class GrappleHeld(TypedDict):
    character: str
    by: str
    strength: int


class GrappleBroken(TypedDict):
    character: str
    by: str
    total: int


class GrappleReleased(TypedDict):
    character: str
    target: str


class RushRolled(Resolved, total=False):
    character: str
    target: str
    to: str
    defence_skill: str


class Moved(TypedDict, total=False):
    character: str
    to: str
    by: str
    # "from": the zone left


class SprintRolled(TypedDict):
    character: str
    dice: list[int]
    points: int
    route: list[str]
    roll: Card


class GrenadeThrown(Resolved, total=False):
    character: str
    zone: str
    distance: int
    on_target_missed: str  # On Target asked for, the excess under 3


class GrenadeAstray(TypedDict):
    character: str
    zone: str


class GrenadeAttack(TypedDict):
    character: str
    zone: str
    rolled: Rolled
    odds: dict[str, str]
    roll: Card


class GrenadeFizzled(TypedDict):
    character: str
    zone: str
    on_target: str | None


class GrenadeFuse(TypedDict):
    character: str
    zone: str
    rolled: Rolled
    goes_off: bool
    odds: dict[str, str]
    roll: Card


class StressTaken(TypedDict):
    character: str
    track: str
    stress: int
    box: int | None
    taken_out: bool


class TakenOut(TypedDict):
    character: str
    by: str


class ConsequenceTaken(TypedDict):
    character: str
    severity: str
    aspect: str
    track: str
    mitigates: int
    inflicted_by: str
    replaces: str | None


class ConsequenceRecovering(TypedDict):
    character: str
    days: int
    aspect: str | None
    recovered: list[str]


class Rested(TypedDict):
    character: str
    d6: int
    pool: int
    roll: Card


class SessionEnded(TypedDict):
    character: str
    wealth_cleared: bool


class SheetChecked(TypedDict):
    name: str
    valid: bool
    problems: list[str]
    spent: int
    unspent: int
    extra_aspects: int
    tracks: dict[str, int]
    language_allowance: int


class RitualRolled(Resolved, total=False):
    character: str
    sephira: str
    hours: int
    interruption: str


class CharmMade(TypedDict):
    sephira: str
    effect: str
    maker: str
    strength: int


class AttackDeclared(TypedDict):
    """An attack waiting for its target's defence ("Defence")."""

    character: str
    target: str
    skill: str
    weapon: str
    track: str
    modifier: int
    params: str


class Conceded(TypedDict):
    """A character gives up before the roll ("Taken Out": "lost the will … to resist")."""

    character: str
    to: str


class HitLanded(TypedDict):
    """A hit waiting to be taken as stress or Consequences ("Consequences"); ``fuse``: from a
    fizzled grenade's fuse (the turn does not pass once it is taken)."""

    character: str
    by: str
    stress: int
    track: str
    fuse: NotRequired[bool]


class DefenceAsked(TypedDict):
    """A manoeuvre, a bum's rush or a grenade's blast waiting for its target's defence
    ("Defence": "Choose a skill to defend with in response to an Attack or Manoeuvre")."""

    character: str
    target: str
    kind: str
    skill: str
    track: str
    modifier: int
    params: str
    fuse: bool
    what: str


class GrenadeBlast(TypedDict):
    """A grenade's one attack on everyone in its zone, each to defend in turn ("Grenades")."""

    character: str
    zone: str
    attack: int
    on_target: str | None
    victims: list[str]
    fuse: bool
