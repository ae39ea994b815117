"""What the events of every section carry: roll cards, rolled tests, and character changes.

Events are built and folded by the kernel's :class:`~referee.core.decide.Builder` (each handler
emits into it, the state folded as it goes); what is the game's own is the payload:
:func:`character_payload` puts the changed fields of characters in it (and the Corruption for
Becoming Incapacitated!), the ``test_*`` and ``chaos_card`` functions the dice.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

from referee.core import CheckResult, OddsPreview, RollCard
from referee.core.cards import odds_of
from referee.core.values import evolved
from referee.systems.zweihander.character import Character
from referee.systems.zweihander.percentile import ChaosDice, ChaosResult, SkillTest, difficulty_name
from referee.systems.zweihander.state import ZweihanderState, character_changes

__all__ = [
    "INCAPACITATED_CORRUPTION",
    "INCAPACITATED_OFFENCE",
    "chaos_card",
    "character_payload",
    "odds_json",
    "test_card",
    "test_dice",
    "test_json",
    "test_preview",
]


INCAPACITATED_OFFENCE = "Becoming Incapacitated! on the Peril Condition Track"
"""A middling offence the text prints with its points (house rules, "Corruption")."""
INCAPACITATED_CORRUPTION = 6
"""Its Corruption: "(6)"."""


def test_dice(test: SkillTest) -> str:
    """The test's dice as a person writes them.

    >>> test_dice(SkillTest(45, -20)), test_dice(SkillTest(45, assist=True))
    ('d100 ≤ 25', 'd100 ≤ 45, with an Assist Die')
    """
    return f"d100 ≤ {test.total_chance}" + (", with an Assist Die" if test.assist else "")


def test_card(test: SkillTest, result: CheckResult, label: str, rule: str) -> dict[str, Any]:
    """The roll card (JSON) of a rolled percentile test: label, rule, dice, exact odds, faces.

    >>> from referee.dice import ScriptedSource
    >>> t = SkillTest(45)
    >>> card = test_card(t, t.roll(ScriptedSource([33])), "anna tests Stealth", rule="Skill Test")
    >>> card["dice"], card["outcome"], card["margin"], card["odds"]["critical success"]
    ('d100 ≤ 45', 'critical success', 12, '1/20')
    """
    card = RollCard(
        label=label,
        rule=rule,
        dice=test_dice(test),
        odds=odds_of(test.odds()),
        faces=tuple(result.faces),
        outcome=result.outcome.value,
        margin=result.margin,
        value=result.value,
        shown=_shown(result),
    )
    return card.to_json()


def _shown(result: CheckResult) -> str:
    if len(result.faces) == 1:
        return f"d100 {result.faces[0]}"
    return f"d100 {result.faces[0]}, Assist Die {result.faces[1]} → {result.value}"


def test_preview(test: SkillTest, label: str, rule: str) -> OddsPreview:
    """The exact odds of a test about to be rolled, for a menu.

    >>> test_preview(SkillTest(45, -20), "anna sneaks", "Skill Test").odds["success"]
    '11/50'
    """
    return OddsPreview(label, rule, test_dice(test), odds_of(test.odds()))


def chaos_card(chaos: ChaosDice, rolled: ChaosResult, label: str, rule: str) -> dict[str, Any]:
    """The roll card (JSON) of Chaos Dice: "triggered" when any shows a 6.

    >>> from referee.dice import ScriptedSource
    >>> c = ChaosDice(2)
    >>> card = chaos_card(c, c.roll(ScriptedSource([6, 2])), "Chaos Dice", "Threat Level")
    >>> card["outcome"], card["odds"]
    ('triggered', {'triggered': '11/36', 'not triggered': '25/36'})
    """
    p = chaos.odds()
    card = RollCard(
        label=label,
        rule=rule,
        dice=f"{chaos.count} Chaos {'Die' if chaos.count == 1 else 'Dice'} (d6, a 6 triggers)",
        odds={"triggered": str(p), "not triggered": str(1 - p)},
        faces=rolled.faces,
        outcome="triggered" if rolled.triggered else "not triggered",
        margin=None,
        value=rolled.sixes,
        shown=", ".join(map(str, rolled.faces)) or "no dice",
    )
    return card.to_json()


def odds_json(test: SkillTest) -> dict[str, str]:
    """The exact odds of a test before it is rolled: each outcome's probability, as "n/d"."""
    odds = test.odds()
    out = {o.value: str(p) for o, p in odds.outcomes.items()}
    out["success (any)"] = str(odds.success)
    return out


def test_json(test: SkillTest, result: CheckResult, skill: str = "") -> dict[str, Any]:
    """A rolled test as an event payload: the test, its odds, the dice and the outcome."""
    return {
        "skill": skill,
        "base_chance": test.base_chance,
        "difficulty": test.difficulty,
        "difficulty_rating": _rating(test.difficulty),
        "total_chance": test.total_chance,
        "assist": test.assist,
        "odds": odds_json(test),
        "faces": list(result.faces),
        "face": result.value,
        "margin": result.margin,
        "outcome": result.outcome.value,
    }


def _rating(modifier: int) -> str:
    try:
        return difficulty_name(modifier)
    except Exception:
        return f"{modifier:+d}"


def percent(p: Fraction) -> str:
    """A probability as a percentage, for people."""
    return f"{float(p) * 100:.1f}%"


def character_payload(
    state: ZweihanderState, payload: Mapping[str, Any], characters: Iterable[Character]
) -> dict[str, Any]:
    """An event's payload with the changes to ``characters`` (their new versions) under
    ``"characters"`` (:func:`~.state.character_changes`, what the fold reads), ``state`` being
    the state before the event.

    A character the event makes Incapacitated! also gains its Corruption, the offence listed
    under ``"offences"``: "Becoming Incapacitated! on the Peril Condition Track (6)" (house
    rules, "Corruption"), whatever the step that brought it about.

    >>> from referee.systems.zweihander.character import INCAPACITATED
    >>> from referee.systems.zweihander.state import ZweihanderState
    >>> s = ZweihanderState(characters=(Character("anna"),))
    >>> data = character_payload(s, {"why": "a fall"}, [Character("anna", peril=INCAPACITATED)])
    >>> data["characters"], [o["points"] for o in data["offences"]]
    ({'anna': {'peril': 5, 'corruption': 6}}, [6])
    """
    data = dict(payload)
    changes = {}
    offences = []
    for after in characters:
        before = state.character(after.id)
        if after.is_incapacitated and not before.is_incapacitated:
            after = evolved(after, corruption=after.corruption + INCAPACITATED_CORRUPTION)
            offences.append(
                {
                    "character": after.id,
                    "offence": INCAPACITATED_OFFENCE,
                    "points": INCAPACITATED_CORRUPTION,
                }
            )
        diff = character_changes(before, after)
        if diff:
            changes[after.id] = diff
    if offences:
        data["offences"] = offences
    if changes:
        data["characters"] = changes
    return data
