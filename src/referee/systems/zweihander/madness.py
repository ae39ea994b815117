"""Madness, Corruption, Alignment and Disorders (house rules, "Madness", "Corruption",
"Corruption into Order & Chaos", "Resetting ranks", "Disorder").

Withstanding madness: Stress, Fear and Terror call for a Resolve Test (+20%, no modifier, −20%);
failing it, the character suffers the mental Peril (1D10+1, 2D10+2, 3D10+3) and the Corruption
(3, 6, 9) — the offence lists name "Suffer from Stress (3)", "… Fear (6)", "… Terror (9)".

At the end of a session (the detailed list, RULINGS.md): no Corruption → 1 rank towards Order;
1 rank towards Chaos per 10 points, and roll 1D10 for the remainder: at most the remainder → 1
rank towards Chaos, else if the Corruption is under 10 → 1 rank towards Order. Ten ranks of Order
→ a Fate Point and all Alignment ranks erased (but permanent ones); ten of Chaos → a Disorder
(GM's choice) and the same. Then discard the remaining Corruption.

>>> from referee.dice import ScriptedSource
>>> from referee.systems.zweihander.character import Character
>>> end = end_of_session(Character("anna", corruption=14), ScriptedSource([3]))
>>> end.chaos_gained, end.order_gained, end.character.corruption
(2, 0, 0)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field

from referee.core import (
    REFEREE,
    Action,
    ActionSpec,
    Builder,
    CheckResult,
    Choice,
    OneOf,
    Params,
    RollCard,
    RuleError,
    Text,
    Who,
)
from referee.core.naming import possessive, title_of
from referee.core.values import evolved
from referee.dice import DiceSource
from referee.systems.zweihander.character import Character
from referee.systems.zweihander.emit import (
    character_payload,
    test_card,
    test_json,
    test_preview,
)
from referee.systems.zweihander.events import (
    CORRUPTION_GAINED,
    CORRUPTION_RESOLVED,
    MADNESS_WITHSTOOD,
)
from referee.systems.zweihander.percentile import SkillTest, canonical, roll_peril
from referee.systems.zweihander.state import ZweihanderState
from referee.systems.zweihander.tables import (
    Offence as OffenceEntry,
)
from referee.systems.zweihander.tables import (
    OffenceWeight,
    Withstanding,
    disorders,
    offence_weights,
    withstanding_table,
)

__all__ = [
    "ALIGNMENT_LIMIT",
    "CORRUPTION",
    "CORRUPTION_PER_CHAOS_RANK",
    "MADNESS",
    "SESSION_END",
    "SPECS",
    "SessionEnd",
    "WithstandResult",
    "choices",
    "decide_corruption",
    "decide_madness",
    "decide_session_end",
    "disorder_kind",
    "end_of_session",
    "listed_offence",
    "offence",
    "offence_points",
    "situation",
    "withstand",
    "withstand_test",
]

ALIGNMENT_LIMIT = 10
"""Ten ranks towards Order (or Chaos) trigger a Fate Point (or a Disorder) and a reset."""
CORRUPTION_PER_CHAOS_RANK = 10
"""1 rank towards Chaos for each 10 points of Corruption."""


Situation = Annotated[
    Literal["Stress", "Fear", "Terror"], BeforeValidator(canonical(("Stress", "Fear", "Terror")))
]
"""What calls for a Resolve Test (any case)."""
Weight = Literal["minor", "middling", "major"]
"""An offence's weight."""


class Withstand(Params):
    """``madness``: the ``situation`` the character faces."""

    situation: Situation


class Offence(Params):
    """``corruption`` (the GM): the offending ``character``, what the ``offence`` was, its
    ``weight`` (a listed offence has its own) and the ``points`` (a listed offence's printed
    points, else within its weight's range; the least if not given)."""

    character: str
    weight: Weight | None = None
    points: int | None = Field(default=None, ge=1, le=10)
    offence: str = ""


class SessionEndParams(Params):
    """``session.end`` (the GM): the ``disorders`` the GM picks, by character, should ten ranks
    of Chaos be reached; ``characters`` limits the roll to some (all if empty)."""

    disorders: dict[str, str] = Field(default_factory=dict)
    characters: list[str] = Field(default_factory=list)


MADNESS = ActionSpec(
    "madness",
    Withstand,
    section="Madness (Withstanding madness)",
    who=Who.CHARACTER,
    summary="a Resolve Test against Stress, Fear or Terror; failing it, mental Peril and "
    "Corruption",
    record="everyone",
)
CORRUPTION = ActionSpec(
    "corruption",
    Offence,
    section="Corruption (offences)",
    who=Who.REFEREE,
    summary="Corruption for an offence, by its weight",
    # the GM's own bookkeeping: an NPC's offence is the GM's (npcs.py); the events tell the rest
    record="actor",
)
SESSION_END = ActionSpec(
    "session.end",
    SessionEndParams,
    section="Corruption into Order & Chaos; Resetting ranks; Disorder",
    who=Who.REFEREE,
    summary="the end-of-session roll: each character's Corruption into Order and Chaos",
    # the GM's: the Disorders chosen for NPCs are theirs (npcs.py); the events tell the rest
    record="actor",
)
SPECS = (MADNESS, CORRUPTION, SESSION_END)
"""The actions of Madness and Corruption."""


def situation(name: str) -> Withstanding:
    """Stress, Fear or Terror, by name."""
    table = withstanding_table()
    for key, row in table.items():
        if key.lower() == name.strip().lower():
            return row
    raise RuleError("Withstanding madness", f"a situation is Stress, Fear or Terror, not {name!r}")


def offence(weight: str, points: int | None = None) -> int:
    """The Corruption an offence of ``weight`` (minor, middling, major) gives: ``points`` if in
    its range, else the least of the range."""
    table = offence_weights()
    if weight not in table:
        raise RuleError("Corruption", f"an offence is minor, middling or major, not {weight!r}")
    w: OffenceWeight = table[weight]
    low, high = w.points
    if points is None:
        return low
    if not low <= points <= high:
        raise RuleError("Corruption", f"{weight} offences give {low}-{high} points, not {points}")
    return points


def disorder_kind(name: str) -> str:
    """The kind (addiction, insanity, mutation) of a Disorder the text lists."""
    for kind, names in disorders().items():
        if name in names:
            return kind
    raise RuleError(
        "Disorder", f"{name!r} is not an addiction, insanity or mutation the text lists"
    )


def withstand_test(resolve: int, situation_name: str) -> SkillTest:
    """The Resolve Test against Stress, Fear or Terror (for its odds before rolling)."""
    return SkillTest(resolve, situation(situation_name).resolve_modifier)


@dataclass(frozen=True)
class WithstandResult:
    """A Resolve Test against madness: the test, the mental Peril and Corruption suffered."""

    situation: str
    test: CheckResult
    mental_peril: int
    peril_faces: tuple[int, ...]
    corruption: int
    character: Character


def withstand(
    character: Character, situation_name: str, dice: DiceSource, skill: str = "Resolve"
) -> WithstandResult:
    """Roll Resolve against Stress, Fear or Terror; on a failure suffer its Peril and Corruption."""
    row = situation(situation_name)
    test = withstand_test(character.chance(skill), row.situation).roll(dice)
    if test.is_success:
        return WithstandResult(row.situation, test, 0, (), 0, character)
    peril, faces = roll_peril(row.mental_peril, dice)
    after = character.suffer_peril(peril)
    after = evolved(after, corruption=after.corruption + row.corruption)
    return WithstandResult(row.situation, test, peril, faces, row.corruption, after)


@dataclass(frozen=True)
class SessionEnd:
    """The end-of-session procedure for one character: what was rolled and gained."""

    corruption: int
    corruption_die: int | None
    order_gained: int
    chaos_gained: int
    fate_point: bool
    disorder: str | None
    character: Character


def end_of_session(
    character: Character, dice: DiceSource, disorder: str | None = None
) -> SessionEnd:
    """Turn the session's Corruption into Order and Chaos ranks (the detailed list).

    The 1D10 is rolled only when there is a remainder under 10 to roll for (with none, no roll
    can change anything). ``disorder`` names the GM's choice should ten ranks of Chaos be reached
    (``"Disorder"`` if not named). A Fate Point or a Disorder gained adds 1 Reputation point
    (house rules, "Reputation points": +1 for each Fate Point, +1 for each Disorder).
    """
    if disorder is not None:
        disorder_kind(disorder)
    corruption = character.corruption
    order = 1 if corruption == 0 else 0
    chaos = corruption // CORRUPTION_PER_CHAOS_RANK
    remainder = corruption % CORRUPTION_PER_CHAOS_RANK
    die = None
    if remainder:
        die = dice.roll(10)
        if die <= remainder:
            chaos += 1
        elif corruption < CORRUPTION_PER_CHAOS_RANK:
            order += 1
    after = evolved(
        character,
        order_ranks=character.order_ranks + order,
        chaos_ranks=character.chaos_ranks + chaos,
        corruption=0,
    )
    fate = False
    gained_disorder = None
    if after.order_ranks >= ALIGNMENT_LIMIT:
        fate = True
        after = evolved(after, fate_points=after.fate_points + 1, reputation=after.reputation + 1)
    elif after.chaos_ranks >= ALIGNMENT_LIMIT:
        gained_disorder = disorder or "Disorder"
        after = evolved(
            after, disorders=(*after.disorders, gained_disorder), reputation=after.reputation + 1
        )
    if fate or gained_disorder:
        after = evolved(
            after,
            order_ranks=after.permanent_order_ranks,
            chaos_ranks=after.permanent_chaos_ranks,
        )
    return SessionEnd(corruption, die, order, chaos, fate, gained_disorder, after)


# ------------------------------------------------------------------------------ at the table


def decide_madness(b: Builder[ZweihanderState], action: Action, dice: DiceSource) -> None:
    """``madness``: withstand it (one event, the test's card)."""
    c = b.state.character(action.actor)
    p = MADNESS.of(action)
    r = withstand(c, p.situation, dice)
    test = withstand_test(c.chance("Resolve"), p.situation)
    payload = {
        "character": c.id,
        "situation": r.situation,
        "test": test_json(test, r.test, "Resolve"),
        "roll": test_card(test, r.test, f"{title_of(c.id)} withstands {r.situation}", "Madness"),
        "mental_peril": r.mental_peril,
        "peril_faces": list(r.peril_faces),
        "corruption": r.corruption,
    }
    b.emit(MADNESS_WITHSTOOD, character_payload(b.state, payload, [r.character]))


def listed_offence(name: str) -> tuple[str, OffenceEntry] | None:
    """The weight and entry of an offence the text lists, by name (any case), or ``None``.

    >>> weight, entry = listed_offence("suffer a serious injury")
    >>> weight, entry.points
    ('middling', (6, 6))
    """
    key = " ".join(name.lower().split())
    for weight, row in offence_weights().items():
        for entry in row.examples:
            if " ".join(entry.offence.lower().split()) == key:
                return weight, entry
    return None


def offence_points(name: str, weight: str | None, points: int | None) -> tuple[str, int]:
    """The weight and Corruption points of an offence: a listed one's own weight and printed
    points (per turn: any number of turns, within its weight), else ``weight``'s range.

    >>> offence_points("Use elixir", None, None), offence_points("Grave robbery", None, 2)
    (('minor', 3), ('minor', 2))
    """
    listed = listed_offence(name) if name else None
    if listed is None:
        if weight is None:
            raise RuleError("Corruption", f"{name or 'the offence'} is not listed: give its weight")
        return weight, offence(weight, points)
    own, entry = listed
    if weight is not None and weight != own:
        raise RuleError("Corruption", f"{entry.offence} is a {own} offence, not {weight}")
    if entry.points is None or entry.per is not None:
        return own, offence(own, points if points is not None else None)
    low, high = entry.points
    if points is None:
        return own, low
    if not low <= points <= high:
        printed = str(low) if low == high else f"{low}-{high}"
        raise RuleError("Corruption", f"{entry.offence} gives {printed} points, not {points}")
    return own, points


def decide_corruption(b: Builder[ZweihanderState], action: Action, dice: DiceSource) -> None:
    """``corruption``: the offence's weight and points."""
    p = CORRUPTION.of(action)
    c = b.state.character(p.character)
    weight, pts = offence_points(p.offence, p.weight, p.points)
    payload = {"character": c.id, "offence": p.offence, "weight": weight, "points": pts}
    after = evolved(c, corruption=c.corruption + pts)
    b.emit(CORRUPTION_GAINED, character_payload(b.state, payload, [after]))


def _corruption_card(end: SessionEnd, who: str) -> dict[str, Any] | None:
    if end.corruption_die is None:
        return None
    remainder = end.corruption % CORRUPTION_PER_CHAOS_RANK
    chaos = end.corruption_die <= remainder
    return RollCard(
        label=f"{possessive(title_of(who))} Corruption remainder {remainder}",
        rule="Corruption into Order & Chaos",
        dice=f"d10 ≤ {remainder}",
        odds={
            "a rank towards Chaos": str(Fraction(remainder, 10)),
            "no rank towards Chaos": str(Fraction(10 - remainder, 10)),
        },
        faces=(end.corruption_die,),
        outcome="a rank towards Chaos" if chaos else "no rank towards Chaos",
        margin=remainder - end.corruption_die,
        value=end.corruption_die,
        shown=str(end.corruption_die),
    ).to_json()


def decide_session_end(b: Builder[ZweihanderState], action: Action, dice: DiceSource) -> None:
    """``session.end``: every character's (or the named ones') Corruption resolved."""
    p = SESSION_END.of(action)
    for cid in (*p.disorders, *p.characters):
        b.state.character(cid)  # refuses a character nobody plays
    for c in b.state.characters:
        if c.daemon_expert and (not p.characters or c.id in p.characters):
            # the text names the rules and gives none: refuse rather than apply the list
            raise RuleError(
                SESSION_END.section,
                f"{c.id} follows an expert profession devoted to a daemon, whose end-of-session "
                "rules are different and not in the text (it names only 'Aspects & Alignment'): "
                "resolve theirs by hand and name the others in 'characters'",
            )
    for c in b.state.characters:
        if p.characters and c.id not in p.characters:
            continue
        end = end_of_session(c, dice, p.disorders.get(c.id))
        payload: dict[str, Any] = {
            "character": c.id,
            "corruption": end.corruption,
            "corruption_die": end.corruption_die,
            "order_gained": end.order_gained,
            "chaos_gained": end.chaos_gained,
            "fate_point": end.fate_point,
            "disorder": end.disorder,
        }
        card = _corruption_card(end, c.id)
        if card is not None:
            payload["roll"] = card
        b.emit(CORRUPTION_RESOLVED, character_payload(b.state, payload, [end.character]))


def _session_end_choice(state: Any, actor: str) -> Choice:
    """The end of session for every character, or, if some follow a daemon (whose rules are not
    in the text), for the others."""
    label = "end the session: resolve Corruption"
    if not any(c.daemon_expert for c in state.characters):
        return Choice(actor, SESSION_END.kind, label=label)
    others = [c.id for c in state.characters if not c.daemon_expert]
    return Choice(actor, SESSION_END.kind, {"characters": OneOf((others,))}, label=label)


def choices(state: Any, actor: str) -> list[Choice]:
    """The GM's Corruption and end of session; a character's Resolve Test against madness
    (with its odds for each situation)."""
    if actor == REFEREE:
        names = tuple(c.id for c in state.characters)
        if not names:
            return []
        return [
            Choice(
                actor,
                CORRUPTION.kind,
                {
                    "character": OneOf(names),
                    "weight": OneOf(("minor", "middling", "major")),
                    "offence": Text(""),
                },
                label="Corruption for an offence",
            ),
            _session_end_choice(state, actor),
        ]
    mine = [c for c in state.characters if c.id == actor]
    if not mine or mine[0].is_incapacitated or "Resolve" not in mine[0].skills:
        return []
    c = mine[0]
    names = tuple(withstanding_table())
    return [
        Choice(
            actor,
            MADNESS.kind,
            {"situation": OneOf(names)},
            odds=tuple(
                test_preview(
                    withstand_test(c.chance("Resolve"), n),
                    f"{title_of(actor)} withstands {n}",
                    "Madness",
                )
                for n in names
            ),
            label="withstand madness",
        )
    ]
