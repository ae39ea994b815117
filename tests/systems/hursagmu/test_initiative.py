"""Initiative (hursagmu-encounters.txt, "Initiative"; the order of "Action"): the roll of
Quickness or Command and what it records, a minor action's bonus to it, the round that begins
once everyone has rolled, and "A character cannot use both Dex and Int skills during the same
round" — the stance chosen for the roll binds the round's skills and defences."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from referee.core import Action, RuleError
from referee.systems.hursagmu.action_phase import used_a_skill
from referee.systems.hursagmu.choices import legal_actions
from referee.systems.hursagmu.rounds import RoundPlan, Step, validate_plan
from referee.systems.hursagmu.sheet import Stance

from .helpers import _initiative_events
from .test_encounter import FIGHTER, SORCERER, initiative, play, start, two_fighters

# -- "Initiative": the roll ------------------------------------------------------------------------


def test_an_initiative_roll_records_its_stance_skill_total_and_a_card_without_odds() -> None:
    """ "Initiative": marcos concentrates and rolls Command (2d6 + Intelligence 3 + Command 2,
    here −1 from the Master): 2 and 5 make Initiative 11. "These skill checks do not count as
    actions" and have no success or failure: the card shows the total, no odds. bob has not
    rolled, so the Action phase does not begin yet."""
    state = start({"bob": FIGHTER, "marcos": SORCERER}).state
    events = _initiative_events(state, "marcos", "concentrate", [2, 5], modifier=-1)
    assert events == [
        (
            "initiative.rolled",
            {
                "character": "marcos",
                "stance": "concentrate",
                "skill": "command",
                "initiative": 11,
                "rank": 0,
                "modifier": -1,
                "faces": [2, 5],
                "expression": "2d6+4",
                "roll": {
                    "card": "roll",
                    "label": "Marcos' Initiative (command)",
                    "rule": "Initiative",
                    "dice": "2d6+4 ≥ 0",
                    "odds": None,
                    "faces": [2, 5],
                    "outcome": "success",
                    "margin": None,
                    "value": 11,
                    "opponent": None,
                    "shown": "2d6 (2, 5) + 4 = 11",
                },
            },
        )
    ]


def test_the_round_cannot_end_before_it_begins_naming_who_has_not_rolled_initiative() -> None:
    """ "Initiative": the round begins once everyone has rolled; the Master who ends it sooner
    is told who is still to roll (fred), not who has rolled (bob)."""
    table = initiative(start({"bob": FIGHTER, "fred": FIGHTER}), {"bob": ("maneuver", 6, 6)})
    with pytest.raises(RuleError, match=r"Initiative still to roll for fred$"):
        table.act(Action("referee", "end_round"), None)


def test_a_minor_actions_bonus_past_the_rounds_initiative_is_refused_naming_it() -> None:
    """ "Initiative" (ruling 25): a minor action's bonus of 1 raises bob's round to 13 — also a
    bonus, so past the round (at 12) it is refused; the refusal names the minor action's bonus,
    not Haste."""
    table = start({"ann": FIGHTER, "bob": FIGHTER})
    table = initiative(table, {"ann": ("maneuver", 6, 6), "bob": ("maneuver", 4, 4)})  # 16, 12
    table = play(table, [("ann", "declare", {"actions": [{"minor": "draw"}]}), ("ann", "act", {})])
    # The round's clock at bob's own Initiative 12, as when he is the next to act.
    table = replace(table, state=replace(table.state, clock=(0, 12)))
    dart = [{"minor": "dart", "initiative_penalty": -1}, {"attack": "ann"}]
    with pytest.raises(RuleError) as refused:
        table.act(Action("bob", "declare", {"actions": dart}), None)
    assert str(refused.value) == (
        "Initiative: the round has passed Initiative 13; a minor action's bonus must be declared "
        "before it comes (the last action was at 12)"
    )


# -- "A character cannot use both Dex and Int skills during the same round" ------------------------


def test_a_plan_of_the_other_kind_is_refused_naming_the_stance_declared() -> None:
    """ "A character cannot use both Dex and Int skills during the same round": the refusal
    says which stance the character declared."""
    with pytest.raises(RuleError, match="a character who maneuvers cannot use the Intelligence"):
        validate_plan(RoundPlan((Step.task("mahasu"),)), Stance.MANEUVER)
    with pytest.raises(RuleError, match="a character who concentrates cannot use the Dexterity"):
        validate_plan(RoundPlan((Step.attack("fred"),)), Stance.CONCENTRATE)


def test_a_movements_acrobatics_roll_is_a_dexterity_skill_used() -> None:
    """A movement already made with the Master's Acrobatics roll used a Dexterity skill; one
    without a roll used none."""
    state = two_fighters().state
    rolled = replace(state.fighters["bob"], plan=(Step.move("foot", 10, challenge=9),), next_step=1)
    assert used_a_skill(rolled) is True
    plain = replace(state.fighters["bob"], plan=(Step.move("foot", 10),), next_step=1)
    assert used_a_skill(plain) is False


def test_a_maneuvering_fighter_who_struck_cannot_defy_sorcery() -> None:
    """Action: "A character cannot use both Dex and Int skills during the same round": bob,
    maneuvering, has struck with a Dexterity skill, so zed's sorcery (defied with an
    Intelligence skill) finds him without a defence, and the reason names the Dexterity."""
    table = start({"bob": FIGHTER, "zed": SORCERER, "fred": FIGHTER})
    table = initiative(
        table,
        {"bob": ("maneuver", 6, 6), "zed": ("concentrate", 3, 3), "fred": ("maneuver", 1, 1)},
    )
    table = play(
        table,
        [
            ("bob", "declare", {"actions": [{"attack": "fred"}]}),
            ("bob", "act", {}),
            ("fred", "take", {}),
            ("zed", "declare", {"actions": [{"attack": "bob", "skill": "mahasu"}]}),
            ("zed", "act", {}),
        ],
        [6, 6, 1, 1, 1, 1, 1, 1, 1, 1],
    )
    made = [e.data for e in table.log if e.kind == "attack.made" and e.data["target"] == "bob"]
    assert [(m["defence"], m.get("reason")) for m in made] == [
        (
            "none",
            "already used a Dexterity skill this round: cannot use both Dex and Int skills "
            "during the same round",
        )
    ]


# -- the odds of the Initiative roll, shown before it (issue 28) -----------------------------------


def _two_d6() -> list[int]:
    return [a + b for a in range(1, 7) for b in range(1, 7)]


def test_the_initiative_choice_shows_the_odds_of_going_first_against_each_rival() -> None:
    """Initiative: "Whoever rolls the highest Initiative gets to go first". Bob (Quickness 2d6+4,
    Command 2d6+0) against Marcos still to roll (2d6+1 / 2d6+5): as a race, ahead, tie, behind;
    then against Marcos's rolled 9: above it (a tie acts together). Exact, by enumeration."""
    table = start({"bob": FIGHTER, "marcos": SORCERER})
    (choice,) = [c for c in legal_actions(table.state, "bob") if c.kind == "initiative"]
    odds = {o.label: o for o in choice.odds}
    quick = odds["Bob maneuvers (Quickness): ahead of Marcos' Quickness, if he maneuvers too"]
    pairs = [(a + 4, b + 1) for a in _two_d6() for b in _two_d6()]
    ahead = Fraction(sum(1 for a, b in pairs if a > b), len(pairs))
    tie = Fraction(sum(1 for a, b in pairs if a == b), len(pairs))
    assert (Fraction(quick.odds["success"]), Fraction(quick.odds["tie"])) == (ahead, tie)
    assert "Bob concentrates (Command): ahead of Marcos' Command, if he concentrates too" in odds
    rolled = initiative(table, {"marcos": ("concentrate", 3, 1)})  # 2d6+5: 9
    (choice,) = [c for c in legal_actions(rolled.state, "bob") if c.kind == "initiative"]
    odds = {o.label: o for o in choice.odds}
    before = odds["Bob maneuvers (Quickness): before Marcos' Initiative 9"]
    assert Fraction(before.odds["success"]) == Fraction(sum(1 for a in _two_d6() if a + 4 > 9), 36)


def test_one_who_held_his_action_over_is_shown_no_initiative_odds() -> None:
    """Waiting: "he automatically gets the Initiative for that round without needing to
    roll": no roll, no odds."""
    state = start({"bob": FIGHTER, "marcos": SORCERER}).state.with_fighter("bob", held_over=True)
    (choice,) = [c for c in legal_actions(state, "bob") if c.kind == "initiative"]
    assert choice.odds == () and choice.label == "acts first (held over)"


def test_one_who_held_his_action_over_takes_no_rival_from_the_initiative_odds() -> None:
    """Initiative odds against each rival still shown when another rival held his action over
    (he acts first whatever is rolled, so only he is left out): Bob's odds name Cy, not
    Marcos."""
    state = start({"bob": FIGHTER, "marcos": SORCERER, "cy": FIGHTER}).state
    state = state.with_fighter("marcos", held_over=True)
    (choice,) = [c for c in legal_actions(state, "bob") if c.kind == "initiative"]
    assert [o.label for o in choice.odds] == [
        "Bob maneuvers (Quickness): ahead of Cy's Quickness, if he maneuvers too",
        "Bob concentrates (Command): ahead of Cy's Command, if he concentrates too",
    ]
