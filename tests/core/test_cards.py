"""One roll card (docs/kernel.md, "One event vocabulary, one roll card"): a check's dice
and exact odds as a person reads them, the card recorded whole and read back the same, its
one line, and its margin — a number where the check has one, ``None`` (JSON null) where it has
nothing to beat."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace

from referee.core.cards import OddsPreview, RollCard, dice_of, event_cards, odds_of
from referee.core.checks import (
    GREY,
    WHITE,
    CheckOdds,
    ObstacleCheck,
    OpposedCheck,
    PercentileCheck,
    Pool,
    TargetCheck,
    Total,
)
from referee.dice import ScriptedSource


def test_a_total_against_a_target_has_its_margin() -> None:
    check = TargetCheck("3d6", 15, modifier=4)
    card = RollCard.of(check, check.roll(ScriptedSource([2, 5, 6])), "ScarFace perceives")
    assert card.margin == 2
    assert card.to_json()["margin"] == 2
    assert card.describe().endswith("→ success (margin +2)")


def test_an_opposed_check_has_its_margin() -> None:
    check = OpposedCheck(Total("1d6"), Total("1d6"))
    card = RollCard.of(check, check.roll(ScriptedSource([5, 2])), "Krockin escapes")
    assert card.margin == 3


def test_successes_against_an_obstacle_have_their_margin() -> None:
    check = ObstacleCheck(3, 1)
    card = RollCard.of(check, check.roll(ScriptedSource([4, 5, 1])), "Health")
    assert card.margin == 1


def test_a_roll_with_nothing_to_beat_has_no_margin() -> None:
    check = TargetCheck("2d6", 0)
    card = RollCard.of(
        check, check.roll(ScriptedSource([3, 4])), "Bob's Initiative", has_margin=False
    )
    assert card.margin is None
    assert card.value == 7
    assert "margin" not in card.describe()
    assert card.describe() == "Bob's Initiative: 2d6 ≥ 0: 2d6 (3, 4) = 7 → success"


def test_no_margin_is_null_in_json_and_round_trips() -> None:
    card = RollCard("Krockin's damage", "Damage", "1d6", None, (4,), "rolled", None, 4)
    data = card.to_json()
    assert data["margin"] is None
    assert '"margin": null' in json.dumps(data)
    assert RollCard.from_json(json.loads(json.dumps(data))) == card
    assert event_cards({"roll": data}) == [card]
    assert card.describe() == "Krockin's damage: 1d6: 4 → rolled"


# -- a check's dice and odds, as a person reads them ---------------------------------------------


@dataclass(frozen=True)
class _Unhashable:
    """A check a game built with a list in it: it cannot be remembered, only written out."""

    faces: list[int]

    def odds(self) -> CheckOdds:
        return TargetCheck("3d6", 15, 4).odds()


def test_a_checks_dice_are_written_as_a_person_writes_them() -> None:
    """One roll card (docs/kernel.md): the dice and what they are rolled against — a total
    at least or above its target, a pool of its shade (Black unnamed, Grey, White, any other
    by number), open-ended or not, against its obstacle, d100 under the total chance, one side
    against the other; a check of another kind by its name."""
    assert dice_of(TargetCheck("3d6", 15, modifier=4)) == "3d6+4 ≥ 15"
    assert dice_of(TargetCheck("2d6", 8, comparison=">")) == "2d6 > 8"
    assert dice_of(ObstacleCheck(4, 2)) == "4d6 vs Ob 2"
    assert (
        dice_of(ObstacleCheck(4, 2, shade=GREY, open_ended=True)) == "4d6 grey open-ended vs Ob 2"
    )
    assert dice_of(ObstacleCheck(3, 1, shade=WHITE)) == "3d6 white vs Ob 1"
    assert dice_of(ObstacleCheck(3, 1, shade=5)) == "3d6 shade 5 vs Ob 1"
    assert dice_of(PercentileCheck(45, modifier=-10)) == "d100 ≤ 35"
    opposed = OpposedCheck(Total("2d6", 2), Pool(3, GREY))
    assert dice_of(opposed) == "2d6+2 vs 3d6 grey"
    assert dice_of(OpposedCheck(Pool(2), Total("1d6"))) == "2d6 vs 1d6"
    assert dice_of(_Unhashable([1])) == "_Unhashable"


def test_a_checks_odds_are_exact_fractions_by_outcome() -> None:
    """One roll card: each outcome's exact probability as ``n/d``, for a menu before the roll
    (the preview: label, rule, dice, odds) and on the card after it — for a check that cannot
    be remembered too."""
    check = TargetCheck("3d6", 15, modifier=4, comparison=">")
    assert odds_of(check.odds()) == {"failure": "5/8", "success": "3/8"}
    preview = OddsPreview.of(check, "ScarFace perceives", rule="Perception Skill")
    assert preview == OddsPreview(
        "ScarFace perceives", "Perception Skill", "3d6+4 > 15", {"failure": "5/8", "success": "3/8"}
    )
    assert preview.to_json() == {
        "label": "ScarFace perceives",
        "rule": "Perception Skill",
        "dice": "3d6+4 > 15",
        "odds": {"failure": "5/8", "success": "3/8"},
    }
    assert OddsPreview.of(check, "x").rule == ""
    odd = OddsPreview.of(_Unhashable([1]), "odd")
    assert odd.odds == {"success": "1/2", "failure": "1/2"}
    assert odd.dice == "_Unhashable"


# -- the card: recorded, read back, one line -----------------------------------------------------


def test_a_roll_card_records_the_whole_roll_and_reads_back_the_same() -> None:
    """One roll card: a card records its label, rule, dice, odds (or none, where they would
    tell a secret), every face, the outcome, margin and value, the other side's value in an
    opposed check, and the roll die by die; its JSON reads back as the same card."""
    check = OpposedCheck(Total("2d6", 2), Pool(3, GREY))
    result = check.roll(ScriptedSource([3, 4, 6, 2, 5]))
    card = RollCard.of(check, result, "Krockin rallies", rule="Rally")
    assert card == RollCard(
        label="Krockin rallies",
        rule="Rally",
        dice="2d6+2 vs 3d6 grey",
        odds=odds_of(check.odds()),
        faces=(3, 4, 6, 2, 5),
        outcome="success",
        margin=7,
        value=9,
        opponent=2,
        shown="; ".join(r.describe() for r in result.rolls),
    )
    assert card.shown.count("; ") == 1
    data = card.to_json()
    assert data == {
        "card": "roll",
        "label": "Krockin rallies",
        "rule": "Rally",
        "dice": "2d6+2 vs 3d6 grey",
        "odds": dict(odds_of(check.odds())),
        "faces": [3, 4, 6, 2, 5],
        "outcome": "success",
        "margin": 7,
        "value": 9,
        "opponent": 2,
        "shown": card.shown,
    }
    assert RollCard.from_json(json.loads(json.dumps(data))) == card
    secret = RollCard.of(check, result, "Krockin rallies", show_odds=False)
    assert secret.odds is None and secret.rule == ""
    assert secret.to_json()["odds"] is None
    assert RollCard.from_json(secret.to_json()) == secret


def test_a_roll_card_read_from_json_takes_its_defaults_for_what_it_leaves_out() -> None:
    """One roll card: a card's JSON need only say its label, dice, outcome, margin and value;
    it has no rule, odds, faces, opponent or shown roll unless it says so, and its numbers are
    read as numbers."""
    card = RollCard.from_json(
        {"label": "x", "dice": "1d6", "outcome": "success", "margin": "2", "value": 5.0}
    )
    assert card == RollCard("x", "", "1d6", None, (), "success", 2, 5, None, "")
    full = RollCard.from_json(
        {
            "label": "x",
            "dice": "1d6",
            "odds": {"success": "1/2"},
            "faces": ["4"],
            "outcome": "success",
            "margin": 1,
            "value": 4,
            "opponent": "3",
            "shown": "1d6 (4) = 4",
        }
    )
    assert (full.odds, full.faces, full.opponent, full.shown) == (
        {"success": "1/2"},
        (4,),
        3,
        "1d6 (4) = 4",
    )
    assert RollCard.from_json({**full.to_json(), "opponent": 0}).opponent == 0


def test_an_events_roll_cards_are_its_roll_and_each_of_its_rolls() -> None:
    """One roll card: an event's cards are its ``roll`` and each card in ``rolls``, in order;
    anything else there is not a card."""
    one = RollCard("a", "", "1d6", None, (1,), "failure", -1, 1)
    two = RollCard("b", "", "1d6", None, (6,), "success", 2, 6)
    three = RollCard("c", "", "1d6", None, (3,), "success", 0, 3)
    data = {"roll": one.to_json(), "rolls": [two.to_json(), {"card": "other"}, 5, three.to_json()]}
    assert event_cards(data) == [one, two, three]
    assert event_cards({"rolls": (two.to_json(),)}) == [two]
    assert event_cards({"roll": {**one.to_json(), "card": "odds"}}) == []
    assert event_cards({"roll": [one.to_json()], "rolls": two.to_json()}) == []
    assert event_cards({}) == []


def test_a_roll_cards_line_shows_the_roll_its_outcome_and_margin() -> None:
    """One roll card (docs/kernel.md, "One event vocabulary, one roll card"): a card's one
    line is its label, its dice, the roll as shown (else its faces, else "no dice"), its
    outcome and its signed margin."""
    card = RollCard("Krockin strikes", "", "3d6", None, (3, 4, 5), "failure", -3, 12)
    assert card.describe() == "Krockin strikes: 3d6: 3, 4, 5 → failure (margin -3)"
    shown = replace(card, shown="3d6 (3, 4, 5) = 12", margin=0, outcome="tie")
    assert shown.describe() == "Krockin strikes: 3d6: 3d6 (3, 4, 5) = 12 → tie (margin +0)"
    none = replace(card, faces=(), margin=2, outcome="success")
    assert none.describe() == "Krockin strikes: 3d6: no dice → success (margin +2)"
