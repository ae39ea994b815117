"""Perception, Observation, Stealth, Shadowing and Divination."""

from __future__ import annotations

import itertools
from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest

from referee.core import Action, Builder, OddsPreview, RuleError, Table, Viewer, view
from referee.core.cards import dice_of
from referee.core.table import preview
from referee.dice import ScriptedSource
from referee.systems.hursagmu import PROCEDURE
from referee.systems.hursagmu.perception import (
    SOFT_NOISE_WHILE_ASLEEP,
    Awareness,
    divination_check,
    observation_check,
    perception_check,
    shadowing_check,
    stealth_check,
)
from referee.systems.hursagmu.senses import decide_sneak
from referee.systems.hursagmu.sheet import Character

from .test_odds_of import table

SEER = Character(
    "seer",
    dexterity=2,
    intelligence=3,
    skills={"perception": 2, "observation": 1, "divination": 4, "stealth": 3, "shadowing": 1},
)
TWO_D6 = list(itertools.product(range(1, 7), repeat=2))


def test_perception_challenge_parts() -> None:
    check = perception_check(SEER, 8, sense="vision", yards=250, factors={"pitch darkness": 3})
    assert check.target == 8 + 2 + 3
    assert check.modifier == 5


def test_perception_odds_brute_force() -> None:
    check = perception_check(SEER, 12, sense="smell", yards=1)
    assert check.odds().success == Fraction(sum(1 for a, b in TWO_D6 if a + b + 5 >= 12), 36)


def test_unconscious_characters_get_no_roll() -> None:
    with pytest.raises(RuleError, match="unconscious"):
        perception_check(SEER, 8, awareness=Awareness.UNCONSCIOUS)


def test_sleepers_roll_hearing_only_harder_for_soft_noises() -> None:
    with pytest.raises(RuleError, match="hearing only"):
        perception_check(SEER, 8, sense="vision", awareness=Awareness.ASLEEP)
    loud = perception_check(SEER, 8, sense="hearing", awareness=Awareness.ASLEEP)
    soft = perception_check(SEER, 8, sense="hearing", awareness=Awareness.ASLEEP, soft_noise=True)
    assert soft.target == loud.target + SOFT_NOISE_WHILE_ASLEEP
    assert soft.odds().success < loud.odds().success


def test_unknown_factor_and_sense() -> None:
    with pytest.raises(RuleError, match="no factor 'rain'"):
        perception_check(SEER, 8, factors={"rain": 1})
    with pytest.raises(RuleError, match="smell, hearing or vision"):
        perception_check(SEER, 8, sense="divination")


def test_observation_distraction_raises_the_challenge() -> None:
    assert observation_check(SEER, 7, factors={"distraction": 3}).target == 10


def test_stealth_against_perception_sneak_wins_ties() -> None:
    watcher = Character("w", intelligence=1, skills={"perception": 2, "observation": 3})
    check = stealth_check(SEER, watcher)  # 2d6+5 against 2d6+3
    wins = sum(1 for a, b in TWO_D6 for c, d in TWO_D6 if a + b + 5 >= c + d + 3)
    assert check.odds().success == Fraction(wins, 36 * 36)
    shadow = shadowing_check(SEER, watcher)  # 2d6+3 against 2d6+4
    wins = sum(1 for a, b in TWO_D6 for c, d in TWO_D6 if a + b + 3 >= c + d + 4)
    assert shadow.odds().success == Fraction(wins, 36 * 36)


def test_divination_range_is_a_thousand_yards_an_increment() -> None:
    assert divination_check(SEER, 9, yards=1000).target == 9
    assert divination_check(SEER, 9, yards=1001).target == 10


# -- the Master's secret rolls, the odds he is shown, and what each seat learns --------------------


RULE = "Perception and Observation"


def _odds(t: Table[Any], actor: str, kind: str, **params: Any) -> tuple[OddsPreview, ...]:
    return tuple(preview(t, "referee", Action(actor, kind, params)))


def _asleep(t: Table[Any], who: str) -> Table[Any]:
    return t.act(Action("referee", "condition", {"character": who, "asleep": True}), None)


def test_the_masters_observation_roll_is_the_characters_skill_against_the_challenge() -> None:
    """ "Perception and Observation": the Master rolls Observation in secret; the guard
    (Intelligence 1, Observation 2) rolls 2d6+3 against 8, with no modifier of its own; he
    learns only that he noticed, the challenge and the card are the Master's."""
    t = table()
    perceive = {"character": "guard", "skill": "observation", "challenge": 8}
    assert _odds(t, "referee", "perceive", **perceive) == (
        OddsPreview(
            "Guard's observation (in secret)",
            RULE,
            "2d6+3 ≥ 8",
            {"failure": "1/6", "success": "5/6"},
        ),
    )
    t = t.act(Action("referee", "perceive", perceive), ScriptedSource([3, 1]))
    event = t.log[-1]
    assert event.kind == "perception.rolled"
    assert event.audience.viewers == frozenset({"guard"})
    assert {k: event.data[k] for k in ("character", "skill", "noticed", "challenge")} == {
        "character": "guard",
        "skill": "observation",
        "noticed": False,
        "challenge": 8,
    }
    card = event.data["roll"]
    assert (card["label"], card["dice"], card["shown"]) == (
        "Guard's observation (in secret)",
        "2d6+3 ≥ 8",
        "2d6 (3, 1) + 3 = 7",
    )


def test_the_masters_divination_roll_counts_its_thousand_yard_increments() -> None:
    """ "Range": Divination's increment is 1000 yards: sorcery 2500 yards off is +2 to the
    challenge, 7 + 2 = 9; the guard, without the skill, rolls 2d6 + Intelligence 1."""
    (shown,) = _odds(
        table(),
        "referee",
        "perceive",
        character="guard",
        skill="divination",
        challenge=7,
        yards=2500,
    )
    assert shown == OddsPreview(
        "Guard's divination (in secret)", RULE, "2d6+1 ≥ 9", {"failure": "7/12", "success": "5/12"}
    )


def test_observation_and_divination_rolls_take_the_masters_modifier() -> None:
    """A modifier the Master gives goes on the roll: +2 is 2d6 + attribute + skill + 2."""
    seer = Character("seer", intelligence=2, skills={"observation": 1, "divination": 3})
    assert dice_of(observation_check(seer, 8)) == "2d6+3 ≥ 8"
    assert dice_of(observation_check(seer, 8, modifier=2)) == "2d6+5 ≥ 8"
    assert dice_of(divination_check(seer, 8)) == "2d6+5 ≥ 8"
    assert dice_of(divination_check(seer, 8, modifier=-1)) == "2d6+4 ≥ 8"


def test_a_sneaks_odds_are_labelled_for_the_master_with_its_modifier() -> None:
    """Stealth against Perception: the thief (Dexterity 3, Stealth 4, +2 from the Master)
    against the guard (Intelligence 1, Perception 2); the odds the Master sees name both."""
    (shown,) = _odds(table(), "thief", "sneak", perceiver="guard", skill="stealth", modifier=2)
    assert shown == OddsPreview(
        "Thief's stealth against Guard's perception",
        RULE,
        "2d6+9 vs 2d6+3",
        {"success": "1261/1296", "failure": "35/1296"},
    )


def test_a_sleeper_is_sneaked_up_on_with_his_perception_at_minus_four() -> None:
    """ "Perception and Observation": a sleeper hears "someone sneaking toward the sleeper"
    only with a "far more difficult" roll (ruling 16: Perception −4): the odds shown for a
    Stealth are those; a sleeper observes nothing, so a Shadowing has no roll and no odds."""
    t = _asleep(table(), "guard")
    (stealth,) = _odds(t, "thief", "sneak", perceiver="guard", skill="stealth")
    assert (stealth.dice, stealth.rule) == ("2d6+7 vs 2d6-1", RULE)
    assert _odds(t, "thief", "sneak", perceiver="guard", skill="shadowing") == ()


def test_a_senseless_perceiver_gives_a_sneak_no_odds() -> None:
    """An unconscious perceiver "get[s] no perception rolls for anything": no odds to show."""
    state = table().state
    state = replace(
        state,
        fighters={**state.fighters, "guard": replace(state.fighters["guard"], conscious=False)},
    )
    sneak = Action("thief", "sneak", {"perceiver": "guard", "skill": "stealth"})
    assert PROCEDURE.odds_of(state, sneak, Viewer("referee")) == ()


def _last(t: Table[Any], seat: str, n: int = 1) -> list[tuple[str, dict[str, Any]]]:
    return [(e.kind, dict(e.data)) for e in view(t.log, seat)[-n:]]


def test_the_guard_learns_only_that_he_noticed_the_master_sees_the_challenge_and_roll() -> None:
    """ "the Master should make these rolls in secret": the guard's own view of his
    Observation roll says what he noticed, not the challenge nor the roll (which would tell
    him how hard it was); the Master's has both."""
    perceive = {"character": "guard", "skill": "observation", "challenge": 8}
    t = table().act(Action("referee", "perceive", perceive), ScriptedSource([6, 5]))
    mine = {"character": "guard", "skill": "observation", "noticed": True}
    assert _last(t, "guard") == [("perception.rolled", mine)]
    ((_, masters),) = _last(t, "referee")
    assert masters["challenge"] == 8
    assert (masters["roll"]["label"], masters["roll"]["rule"], masters["roll"]["value"]) == (
        "Guard's observation (in secret)",
        RULE,
        14,
    )
    assert "perception.rolled" not in {e.kind for e in view(t.log, "thief")}


def test_a_shadow_who_is_seen_learns_it_and_the_watcher_learns_who() -> None:
    """ "Shadowing is to Observation what Stealth is to Perception": the thief (Dexterity 3,
    Shadowing 2, +1 from the Master) rolls 8 against the guard's 15: noticed. The thief learns
    that; the guard learns who he noticed; the roll (which tells the guard's Observation) is the
    Master's."""
    sneak = {"perceiver": "guard", "skill": "shadowing", "modifier": 1}
    t = table().act(Action("thief", "sneak", sneak), ScriptedSource([1, 1, 6, 6]))
    rolled = {
        "character": "thief",
        "perceiver": "guard",
        "skill": "shadowing",
        "against": "observation",
        "noticed": True,
    }
    noticed = ("sneak.noticed", {"character": "guard", "noticed": "thief", "skill": "observation"})
    assert _last(t, "thief", 2) == [("stealth.rolled", rolled), noticed]
    assert _last(t, "guard", 2) == [_last(t, "guard", 2)[0], noticed]
    assert "stealth.rolled" not in {e.kind for e in view(t.log, "guard")}
    assert [e.kind for e in view(t.log, "sleeper")] == ["encounter.began"]
    ((kind, masters), _) = _last(t, "referee", 2)
    card = masters["roll"]
    assert (kind, card["label"], card["rule"], card["dice"]) == (
        "stealth.rolled",
        "Thief's shadowing against Guard's observation",
        RULE,
        "2d6+6 vs 2d6+3",
    )


def test_no_roll_against_a_sleeper_who_observes_nothing_or_a_senseless_perceiver() -> None:
    """A sleeper "hears, no more": a Shadowing against him is not noticed, without a roll; an
    unconscious perceiver is senseless. The thief alone is told why."""
    t = _asleep(table(), "sleeper")
    t = t.act(Action("thief", "sneak", {"perceiver": "sleeper", "skill": "shadowing"}), None)
    reason = "asleep: he observes nothing (a sleeper hears, no more)"
    unnoticed = {
        "character": "thief",
        "perceiver": "sleeper",
        "skill": "shadowing",
        "noticed": False,
        "reason": reason,
    }
    assert _last(t, "thief") == [("stealth.rolled", unnoticed)]
    assert "stealth.rolled" not in {e.kind for e in view(t.log, "sleeper")}
    state = replace(
        t.state,
        fighters={**t.state.fighters, "guard": replace(t.state.fighters["guard"], conscious=False)},
    )
    sneak = Action("thief", "sneak", {"perceiver": "guard", "skill": "stealth"})
    b = Builder(state, PROCEDURE.evolve)
    decide_sneak(b, sneak, ScriptedSource([]))
    (event,) = b.events
    assert dict(event.data) == {
        "character": "thief",
        "perceiver": "guard",
        "skill": "stealth",
        "noticed": False,
        "reason": "unconscious: senseless",
    }
    assert event.audience.viewers == frozenset({"thief"})


def test_a_sleeper_who_hears_something_wakes_one_who_hears_nothing_sleeps_on() -> None:
    """ "Perception and Observation": the Master rolls "to see if they wake up": the sleeper
    (Intelligence 2, Perception 3) hears at 9 — 2 on the dice is nothing, and he sleeps; 12 wakes
    him (the state then says he is awake: false, not nothing)."""
    t = _asleep(table(), "sleeper")
    hear = {"character": "sleeper", "sense": "hearing", "challenge": 9}
    still = t.act(Action("referee", "perceive", hear), ScriptedSource([1, 1]))
    assert still.state.fighters["sleeper"].asleep is True
    woken = t.act(Action("referee", "perceive", hear), ScriptedSource([6, 6]))
    assert PROCEDURE.state_json(woken.state)["characters"]["sleeper"]["asleep"] is False


def test_a_perception_roll_reads_the_sleepers_state_unless_the_master_says() -> None:
    """A sleeping character "rolls for hearing only": the sleeper, asleep, gets no vision
    roll unless the Master says he is awake for it; the guard, awake, gets one."""
    t = _asleep(table(), "sleeper")
    look = {"sense": "vision", "challenge": 9}
    assert _odds(t, "referee", "perceive", character="sleeper", **look) == ()
    (awake,) = _odds(t, "referee", "perceive", character="sleeper", asleep=False, **look)
    assert awake.dice == "2d6+5 ≥ 9"
    (guard,) = _odds(t, "referee", "perceive", character="guard", **look)
    assert guard.dice == "2d6+3 ≥ 9"


def test_a_perception_roll_counts_the_range_and_the_factors_the_master_names() -> None:
    """ "Perception and Observation": the challenge is the Master's, plus the sense's range
    challenge (vision: 100 yards an increment, 250 yards is +2) and the named factors (a
    distraction of 2): 6 + 2 + 2 = 10; an Observation counts its factors too: 8 + 2."""
    t = table()
    factors = {"distraction": 2}
    (seen,) = _odds(
        t, "referee", "perceive", character="guard", challenge=6, yards=250, factors=factors
    )
    assert seen.dice == "2d6+3 ≥ 10"
    (observed,) = _odds(
        t,
        "referee",
        "perceive",
        character="guard",
        skill="observation",
        challenge=8,
        factors=factors,
    )
    assert observed.dice == "2d6+3 ≥ 10"


def test_perception_and_shadowing_rolls_take_the_modifiers_given() -> None:
    """A modifier given to a Perception roll, or to the watcher of a Shadowing, goes on it."""
    guard = Character("guard", intelligence=1, skills={"perception": 2, "observation": 2})
    shadow = Character("shadow", dexterity=3, skills={"shadowing": 2})
    assert dice_of(perception_check(guard, 8, modifier=-2)) == "2d6+1 ≥ 8"
    assert dice_of(shadowing_check(shadow, guard, watcher_modifier=-4)) == "2d6+5 vs 2d6-1"
    assert dice_of(shadowing_check(shadow, guard, shadow_modifier=2)) == "2d6+7 vs 2d6+3"
