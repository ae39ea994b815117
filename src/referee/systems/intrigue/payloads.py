"""The shape of each Intrigue event's data: a ``TypedDict`` per kind (:data:`PAYLOADS`).

The public part and the secret parts merged, as :attr:`referee.core.Event.data` gives them, with
``names`` beside them (:func:`referee.core.naming.with_names`). The kinds are named in
:mod:`~referee.systems.intrigue.events`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NotRequired, TypedDict

from referee.systems.intrigue.events import (
    ATTACK_ROLLED,
    CHARACTER_DIED,
    CHARACTER_GRABBED,
    CHARACTER_KNOCKED_OUT,
    CHARACTER_SEARCHED,
    CHARACTER_WOKE,
    COMBAT_ACTION_LAPSED,
    COMBAT_ACTION_TAKEN,
    COMBAT_DECLARED,
    COMBAT_ENDED,
    COMBAT_JOINED,
    COMBAT_MIND_USED,
    COMBAT_PLACE_RESOLVED,
    COMBAT_ROUND_ENDED,
    COMBAT_ROUND_STARTED,
    COMBAT_STARTED,
    CONTINGENCY_OPENABLE,
    CONVERSATION_HELD,
    DAMAGE_TAKEN,
    ENVELOPE_OPENED,
    ESCAPE_ROLLED,
    HOLD_BREAK_FREE_ROLLED,
    HOLD_ENDS,
    ITEM_DRAWN,
    ITEM_ROBBED,
    MEDICINE_ROLLED,
    MENTAL_ATTACKED,
    MENTAL_EFFECT,
    PERCEPTION_MADE,
    PERCEPTION_READY,
    SKILL_ROLLED,
)

__all__ = ["PAYLOADS"]


class EnvelopeOutside(TypedDict):
    """An envelope as handed over: its id and what its front says."""

    id: str
    label: str


class Inside(TypedDict):
    """An envelope's inside: what the perceiver reads, and directions to follow."""

    contents: str
    directions: str


class PerceptionMade(TypedDict, total=False):
    """A Perception Check. Seen by the perceiver and the holder; ``perception``, ``faces``,
    ``roll`` and ``contents`` by the perceiver alone; ``chances``, ``rolls`` by the referee."""

    perceiver: str
    target: str
    total: int
    envelopes: list[EnvelopeOutside]
    perception: int
    faces: list[int]
    chances: dict[str, str]
    contents: dict[str, Inside]
    roll: dict[str, Any]
    rolls: list[dict[str, Any]]


class PerceptionReady(TypedDict):
    """The 15 minutes are up: the perceiver may check the target again (the perceiver's)."""

    perceiver: str
    target: str


class ContingencyOpenable(TypedDict):
    """The holder may now open these envelopes; ``why``: time, an event, an encounter."""

    holder: str
    envelopes: list[str]
    why: str


class EnvelopeOpened(TypedDict, total=False):
    """A Contingency Envelope opened; ``contents`` the holder's alone."""

    holder: str
    envelope: str
    label: str
    contents: str


class SkillRolled(TypedDict, total=False):
    """A skill roll; ``value``/``against_value`` each roller's own; ``chance`` and ``odds``
    the referee's. Against another character: ``total``/``faces`` the roller's,
    ``against_total``/``against_faces`` the other's, each total the winner's too (ruling 3)."""

    character: str
    skill: str
    value: int
    target: int
    against: str
    against_skill: str
    against_total: int
    against_value: int
    against_faces: list[int]
    total: int
    faces: list[int]
    success: bool
    chance: str
    roll: dict[str, Any]


class ConversationHeld(TypedDict, total=False):
    """Someone spoke; ``followed_by`` and ``content`` only for those who understand."""

    speaker: str
    language: str
    listeners: list[str]
    followed_by: list[str]
    content: str


class ItemDrawn(TypedDict, total=False):
    """A weapon or item drawn (in ``combat`` if one is named)."""

    character: str
    item: str
    combat: str


class CombatStarted(TypedDict):
    """ "three, two, one, START!"."""

    combat: str
    starter: str
    targets: list[str]
    surprised: list[str]


class CombatJoined(TypedDict):
    """``character`` joins ``side`` (0: the starter's, 1: the targets')."""

    combat: str
    character: str
    side: int


class CombatRound(TypedDict):
    """A round begins."""

    combat: str
    round: int


class CombatCharacter(TypedDict):
    """Something about one character in a combat (``combat.mind_used``)."""

    combat: str
    character: str


class CombatDeclared(TypedDict, total=False):
    """A Combat Action declared at ``rank`` in initiative order."""

    combat: str
    character: str
    rank: int
    action: str
    target: str | None
    item: str
    ability: str
    group: list[str]
    bonus: int


class CombatActionTaken(TypedDict):
    """A Defensive Action or a scream taken."""

    combat: str
    character: str
    action: str


class CombatActionLapsed(TypedDict):
    """A declared action that could not be taken."""

    combat: str
    character: str
    reason: str


class CombatPlaceResolved(TypedDict):
    """A place in initiative order resolved (ties together)."""

    combat: str
    characters: list[str]


class CombatRoundEnded(TypedDict):
    """A round ends; ``streaks``: consecutive unhit Defensive Actions."""

    combat: str
    round: int
    streaks: dict[str, int]


class CombatEnded(TypedDict):
    """A combat ends."""

    combat: str
    reason: str


class AttackRolled(TypedDict, total=False):
    """An Attack or Grab (or a group's, or a mental attack in combat) rolled."""

    combat: str
    action: str
    attackers: list[str]
    target: str
    ability: str | None
    modifier: int
    target_number: int
    chance: str
    total: int
    faces: list[int]
    hit: bool
    roll: dict[str, Any]


class CharacterGrabbed(TypedDict):
    """``holder`` now Holds ``held``."""

    combat: str
    holder: str
    held: str


class HoldEnds(TypedDict):
    """A hold ends at the start of the next turn (``how``: thrown, released, broke free)."""

    combat: str
    holder: str
    held: str
    how: str


class BreakFreeRolled(TypedDict, total=False):
    """Break Free: 3d6 + Strength each."""

    combat: str
    character: str
    holder: str
    total: int
    holder_total: int
    chance: str
    faces: list[int]
    broke_free: bool
    roll: dict[str, Any]


class EscapeRolled(TypedDict, total=False):
    """The escape roll (``against`` ``None``: nobody to beat)."""

    combat: str
    character: str
    against: str | None
    total: int
    opponent_total: int
    chance: str
    faces: list[int]
    escaped: bool
    roll: dict[str, Any]


class DamageTaken(TypedDict):
    """Damage from one attack (``by``: the weapon, ability, hand, squeeze, throw; ``aside``:
    the attacker of an unobvious mental attack resolved out of any combat)."""

    character: str
    amount: int
    total: int
    stamina: int
    by: str
    knocked_out: bool
    aside: NotRequired[str]


class CharacterOnly(TypedDict):
    """Something about one character (``character.knocked_out``)."""

    character: str


class CharacterWoke(TypedDict, total=False):
    """A Knocked Out character comes round; ``wounds`` and ``stamina`` theirs alone."""

    character: str
    how: str
    wounds: int
    stamina: int


class CharacterDied(TypedDict, total=False):
    """A character is dead (every Wound marked, or slain by ``by``)."""

    character: str
    wounds: int
    by: str


class MedicineRolled(TypedDict, total=False):
    """A Medicine roll to wake a Knocked Out character (14 or more)."""

    character: str
    target: str
    medicine: int
    chance: str
    total: int
    faces: list[int]
    success: bool
    roll: dict[str, Any]


class FoundItem(TypedDict):
    """An Item Card found on a search."""

    name: str
    damage: int | None
    description: str


class FoundEnvelope(TypedDict):
    """An envelope found on a search: its outside only (``kind``: perception, contingency)."""

    id: str
    kind: str
    label: str


class CharacterSearched(TypedDict, total=False):
    """The victor searches the Knocked Out; ``items`` and ``envelopes`` the searcher's alone."""

    character: str
    target: str
    items: list[FoundItem]
    envelopes: list[FoundEnvelope]


class ItemRobbed(TypedDict, total=False):
    """The victor takes an Item Card; ``item`` the robber's and the robbed's alone."""

    character: str
    target: str
    item: str


class MentalAttacked(TypedDict, total=False):
    """An unnoticed mental attack: its two characters' alone."""

    attacker: str
    target: str
    ability: str
    modifier: int
    target_number: int
    chance: str
    total: int
    faces: list[int]
    hit: bool
    effect: str
    roll: dict[str, Any]


class MentalEffect(TypedDict):
    """A mental ability's subtler effect on a hit in combat."""

    combat: str
    attacker: str
    target: str
    ability: str
    effect: str


PAYLOADS: Mapping[str, type] = {
    PERCEPTION_MADE: PerceptionMade,
    PERCEPTION_READY: PerceptionReady,
    CONTINGENCY_OPENABLE: ContingencyOpenable,
    ENVELOPE_OPENED: EnvelopeOpened,
    SKILL_ROLLED: SkillRolled,
    CONVERSATION_HELD: ConversationHeld,
    ITEM_DRAWN: ItemDrawn,
    COMBAT_STARTED: CombatStarted,
    COMBAT_JOINED: CombatJoined,
    COMBAT_ROUND_STARTED: CombatRound,
    COMBAT_MIND_USED: CombatCharacter,
    COMBAT_DECLARED: CombatDeclared,
    COMBAT_ACTION_TAKEN: CombatActionTaken,
    COMBAT_ACTION_LAPSED: CombatActionLapsed,
    COMBAT_PLACE_RESOLVED: CombatPlaceResolved,
    COMBAT_ROUND_ENDED: CombatRoundEnded,
    COMBAT_ENDED: CombatEnded,
    ATTACK_ROLLED: AttackRolled,
    CHARACTER_GRABBED: CharacterGrabbed,
    HOLD_ENDS: HoldEnds,
    HOLD_BREAK_FREE_ROLLED: BreakFreeRolled,
    ESCAPE_ROLLED: EscapeRolled,
    DAMAGE_TAKEN: DamageTaken,
    CHARACTER_KNOCKED_OUT: CharacterOnly,
    CHARACTER_WOKE: CharacterWoke,
    CHARACTER_DIED: CharacterDied,
    MEDICINE_ROLLED: MedicineRolled,
    CHARACTER_SEARCHED: CharacterSearched,
    ITEM_ROBBED: ItemRobbed,
    MENTAL_ATTACKED: MentalAttacked,
    MENTAL_EFFECT: MentalEffect,
}
"""Every event kind of the game, with the shape of its data."""
