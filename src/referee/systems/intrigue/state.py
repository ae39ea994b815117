"""The state of an evening of Intrigue in the Clouds: characters, envelopes, cooldowns, combats.

Immutable values only; the procedure (:mod:`referee.systems.intrigue.procedure`) folds events
into them. Rules text: Intrigue in the Clouds, throughout.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.core import GameTime, RuleError
from referee.core.values import evolved  # (the folds' copy: dataclasses.replace without its cost)
from referee.systems.intrigue.characters import Character, CharacterId
from referee.systems.intrigue.envelopes import (
    ContingencyEnvelope,
    EnvelopeId,
    PerceptionEnvelope,
)
from referee.systems.intrigue.rules import half

__all__ = [
    "ACTIONS",
    "Combat",
    "CombatAttack",
    "Declaration",
    "Hold",
    "IntrigueState",
    "Status",
    "evolved",
]

ACTIONS = (
    "draw",
    "attack",
    "grab",
    "squeeze",
    "throw",
    "release",
    "break_free",
    "defend",
    "scream",
    "hold",
)
"""The Combat Actions ("Combat Actions"), and holding one ("Initiative")."""


@dataclass(frozen=True)
class Status:
    """What has happened to a character: damage, knock-out, wounds, death, a drawn weapon.

    ``damage`` is taken in the current combat ("Taking Damage"); ``pending_wounds`` are marked on
    waking; ``wake_due`` is when a Knocked Out character recovers (5 minutes after the combat
    ends), ``None`` while their combat goes on; ``foes``, while Knocked Out after it, those of
    the other side not escaped when it ended (the attacker of an unnoticed mental attack):
    the victors, as long as they are on their feet ("the victor can have his or her way").
    """

    damage: int = 0
    knocked_out: bool = False
    wake_due: GameTime | None = None
    pending_wounds: int = 0
    wounds_marked: int = 0
    dead: bool = False
    drawn: str | None = None
    foes: tuple[CharacterId, ...] = ()

    @property
    def can_act(self) -> bool:
        """True if neither Knocked Out nor dead."""
        return not (self.knocked_out or self.dead)


_NOTHING_YET = Status()


@dataclass(frozen=True)
class Declaration:
    """A declared Combat Action for this round, with the rank it resolves at.

    ``kind`` is one of :data:`ACTIONS`, or ``"group"`` for a member of another's group action.
    """

    actor: CharacterId
    kind: str
    rank: int
    target: CharacterId | None = None
    item: str | None = None
    ability: str | None = None
    group: tuple[CharacterId, ...] = ()
    bonus: int = 0
    resolved: bool = False


@dataclass(frozen=True)
class Hold:
    """``holder`` Holds ``held``; ``ending``: released at the start of the next turn."""

    holder: CharacterId
    held: CharacterId
    ending: bool = False


@dataclass(frozen=True)
class CombatAttack:
    """An Attack or Grab made in a round, for escaping ("avoid being hit for two turns")."""

    round: int
    attackers: tuple[CharacterId, ...]
    target: CharacterId
    hit: bool


@dataclass(frozen=True)
class Combat:
    """One combat, from "Combat! three, two, one, START!" to its end."""

    id: str
    starter: CharacterId
    sides: tuple[tuple[CharacterId, int], ...]
    surprised: frozenset[CharacterId] = frozenset()
    round: int = 0
    ended: bool = False
    in_round: bool = False
    by_mind: frozenset[CharacterId] = frozenset()
    declarations: tuple[Declaration, ...] = ()
    holds: tuple[Hold, ...] = ()
    held_at_start: frozenset[CharacterId] = frozenset()
    holding_at_start: frozenset[CharacterId] = frozenset()
    streaks: tuple[tuple[CharacterId, int], ...] = ()
    attacks: tuple[CombatAttack, ...] = ()
    escaped: frozenset[CharacterId] = frozenset()
    escape_tried: frozenset[CharacterId] = frozenset()

    @property
    def is_surprise(self) -> bool:
        """True if a target was surprised ("only you and your target(s) may take part")."""
        return bool(self.surprised)

    @property
    def participants(self) -> tuple[CharacterId, ...]:
        """Everyone in the combat, in the order they came in."""
        return tuple(c for c, _ in self.sides)

    def side_of(self, character: CharacterId) -> int | None:
        """The side (0: the starter's, 1: the targets') of ``character``, or ``None``."""
        for who, side in reversed(self.sides):  # the last entry, as a dict of them would
            if who == character:
                return side
        return None

    def declaration(self, character: CharacterId) -> Declaration | None:
        """``character``'s declaration this round, if any."""
        for declaration in self.declarations:
            if declaration.actor == character:
                return declaration
        return None

    def streak(self, character: CharacterId) -> int:
        """Consecutive unhit Defensive Actions up to the last round ended."""
        return dict(self.streaks).get(character, 0)

    def holder_of(self, character: CharacterId) -> CharacterId | None:
        """Who Holds ``character``, if anyone."""
        for hold in self.holds:
            if hold.held == character:
                return hold.holder
        return None

    def held_by(self, character: CharacterId) -> CharacterId | None:
        """Whom ``character`` Holds, if anyone."""
        for hold in self.holds:
            if hold.holder == character:
                return hold.held
        return None

    def is_in_hold(self, character: CharacterId) -> bool:
        """True if Holding or Held: "at half their Combat Stat ... until the Target is Released"."""
        return any(character in (h.holder, h.held) for h in self.holds)


@dataclass(frozen=True)
class IntrigueState:
    """An evening: the cast, the envelopes, the perception cooldowns and the combats.

    ``start`` is the wall clock at game time 0 (for "Open at nine o'clock"). ``combats`` are the
    running combats and the last one begun, even over (the evening's conflict): an ended combat
    leaves the live state for the log once another has begun or ended after it, what a rule
    later reads of it kept in each Knocked Out character's ``Status.foes`` (issue 29).
    ``combats_begun`` counts every combat begun (each named ``combat-N``).
    """

    characters: tuple[Character, ...]
    perception_envelopes: tuple[PerceptionEnvelope, ...] = ()
    contingency_envelopes: tuple[ContingencyEnvelope, ...] = ()
    start: str = "00:00"
    statuses: tuple[tuple[CharacterId, Status], ...] = ()
    openable: frozenset[EnvelopeId] = frozenset()
    opened: frozenset[EnvelopeId] = frozenset()
    cooldowns: tuple[tuple[CharacterId, CharacterId, GameTime], ...] = ()
    combats: tuple[Combat, ...] = ()
    combats_begun: int = 0

    # -- characters --------------------------------------------------------------------

    def character(self, ref: str) -> Character:
        """The character whose id or Character Number is ``ref``; :class:`RuleError` if none."""
        for character in self.characters:
            if ref in (character.id, character.number):
                return character
        raise RuleError("Character Badges", f"no character {ref!r} (give an id or a number)")

    def names(self) -> dict[CharacterId, str]:
        """Each character's name from their badge, by id: what the log says ("ScarFace")."""
        return {c.id: c.name for c in self.characters}

    def name(self, ref: str) -> str:
        """The badge name of the character whose id or number is ``ref`` (``ref`` if none)."""
        return self.character(ref).name if self.has_character(ref) else ref

    def has_character(self, ref: str) -> bool:
        """True if ``ref`` is a character's id or number."""
        return any(ref in (c.id, c.number) for c in self.characters)

    def status(self, character: CharacterId) -> Status:
        """What has happened to ``character`` so far."""
        for who, status in self.statuses:
            if who == character:
                return status
        return _NOTHING_YET

    def with_status(self, character: CharacterId, status: Status) -> IntrigueState:
        """The state with ``character``'s status replaced."""
        others = tuple((c, s) for c, s in self.statuses if c != character)
        return evolved(self, statuses=(*others, (character, status)))

    def stamina(self, character: CharacterId) -> int:
        """Stamina now: "On awakening, characters have their Stamina reduced by their number of
        wounds"."""
        return self.character(character).stamina - self.status(character).wounds_marked

    # -- envelopes ---------------------------------------------------------------------

    def envelopes_of(self, holder: CharacterId) -> tuple[PerceptionEnvelope, ...]:
        """``holder``'s Perception Envelopes."""
        return tuple(e for e in self.perception_envelopes if e.holder == holder)

    def contingency(self, envelope: EnvelopeId) -> ContingencyEnvelope:
        """The Contingency Envelope ``envelope``; :class:`RuleError` if none."""
        for e in self.contingency_envelopes:
            if e.id == envelope:
                return e
        raise RuleError("Contingency Envelopes", f"no contingency envelope {envelope!r}")

    def cooldown_until(self, perceiver: CharacterId, target: CharacterId) -> GameTime | None:
        """When ``perceiver`` may next check ``target`` (``None``: now)."""
        for a, b, until in self.cooldowns:
            if (a, b) == (perceiver, target):
                return until
        return None

    # -- combats -----------------------------------------------------------------------

    def combat(self, combat_id: str) -> Combat:
        """The combat ``combat_id``; :class:`RuleError` if none."""
        for combat in self.combats:
            if combat.id == combat_id:
                return combat
        number = combat_id.removeprefix("combat-")
        if number.isdigit() and 0 < int(number) <= self.combats_begun:
            raise RuleError("Combat rules", f"{combat_id} is over")  # and gone to the log
        raise RuleError("Combat rules", f"no combat {combat_id!r}")

    @property
    def running(self) -> tuple[Combat, ...]:
        """The combats not yet resolved."""
        return tuple(c for c in self.combats if not c.ended)

    def combat_of(self, character: CharacterId) -> Combat | None:
        """The running combat ``character`` is in (escaped characters are out of it)."""
        for combat in self.running:
            if combat.side_of(character) is not None and character not in combat.escaped:
                return combat
        return None

    def with_combat(self, combat: Combat) -> IntrigueState:
        """The state with ``combat`` replaced (or added)."""
        combats = self.combats
        for i, c in enumerate(combats):
            if c.id == combat.id:  # ids are unique: the one with_combat added
                return evolved(self, combats=(*combats[:i], combat, *combats[i + 1 :]))
        return evolved(self, combats=(*combats, combat))

    def without_ended_combats(self) -> IntrigueState:
        """The state keeping only the running combats and the last one begun: an ended combat
        is the log's, once another has begun or ended after it (issue 29)."""
        combats = self.combats
        kept = tuple(c for c in combats[:-1] if not c.ended) + combats[-1:]
        return self if len(kept) == len(combats) else evolved(self, combats=kept)

    def effective_combat(self, combat: Combat, character: CharacterId) -> int:
        """The Combat Stat in ``combat``: halved (round up) while Holding or Held ("Grabbing")."""
        stat = self.character(character).combat
        return half(stat) if combat.is_in_hold(character) else stat

    def is_active(self, combat: Combat, character: CharacterId) -> bool:
        """True if ``character`` still fights in ``combat``: in it, not escaped, not out."""
        return (
            combat.side_of(character) is not None
            and character not in combat.escaped
            and self.status(character).can_act
        )
