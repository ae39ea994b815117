"""Chase scene rules: every step of the procedure, every table row, every end condition."""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import ActionError, RuleError, Table
from referee.systems.zweihander.character import Character
from referee.systems.zweihander.chase import ladder, movement, takedown_difficulty
from referee.systems.zweihander.events import CHASE_FATIGUE
from referee.systems.zweihander.state import ZweihanderState
from referee.systems.zweihander.tables import movement_modes

from .helpers import _card, _line, act, last, table

RUNNER = {
    "bonuses": {"AB": 4, "BB": 3, "PB": 2},
    "skills": {"Coordination": 50, "Athletics": 50, "Toughness": 50, "Bows": 50},
}
CHASER = {
    "bonuses": {"AB": 3, "BB": 1, "PB": 4},
    "skills": {"Coordination": 45, "Toughness": 45, "Bows": 40},
}


def start(
    escapees: Any = None,
    pursuers: Any = None,
    dice: list[int] | None = None,
    chars: dict[str, Any] | None = None,
    **params: Any,
) -> Any:
    t = table(chars or {"runner": RUNNER, "chaser": CHASER})
    return act(
        t,
        "referee",
        "chase.start",
        dice if dice is not None else [5],
        escapees=escapees or {"runner": "on foot"},
        pursuers=pursuers or {"chaser": "on foot"},
        **params,
    )


@pytest.mark.parametrize("mode", list(movement_modes()))
def test_movement_for_every_mode(mode: str) -> None:
    row = movement_modes()[mode]
    c = Character("x", bonuses={"AB": 5, "BB": 2})
    expected = (5 if row.bonus == "AB" else 2) + row.modifier
    assert movement(c, mode) == max(row.minimum or 0, expected)


def test_movement_minimum_1_and_encumbrance_overage() -> None:
    weak = Character("x", bonuses={"AB": 0, "BB": 1})
    assert movement(weak, "climbing") == 1  # [BB] - 3 = -2, minimum 1
    assert movement(weak, "sneaking") == 1
    loaded = Character("y", bonuses={"AB": 4}, encumbrance_overage=2)
    assert movement(loaded, "on foot") == 5  # [AB] + 3 - 2
    assert movement(Character("z", bonuses={"AB": 0}, encumbrance_overage=9), "on foot") == 0
    with pytest.raises(RuleError, match="no mode"):
        movement(weak, "teleport")


def test_initiative_ladder_escapees_by_agility_then_pursuers_by_initiative() -> None:
    assert ladder([("a", 3), ("b", 5), ("c", 3)], [("x", 9), ("y", 12)]) == (
        "b",
        "a",
        "c",
        "y",
        "x",
    )
    t = start(
        escapees={"runner": "on foot", "slow": "on foot"},
        pursuers={"chaser": "on foot", "hound": "on foot"},
        dice=[2, 9],
        chars={
            "runner": RUNNER,
            "slow": {"bonuses": {"AB": 6}, "skills": {"Coordination": 30, "Toughness": 30}},
            "chaser": CHASER,
            "hound": {"bonuses": {"PB": 1}, "skills": {"Coordination": 30, "Toughness": 30}},
        },
    )
    started = last(t, "chase.started")
    assert started["ladder"] == ["slow", "runner", "hound", "chaser"]  # hound 9+4=13 > 2+7=9
    assert started["initiative_rolls"]["chaser"] == {"d10": 2, "initiative": 7, "total": 9}


@pytest.mark.parametrize(
    ("side", "runner", "chaser"), [("escapees", 3, 0), ("pursuers", 0, 3), (None, 0, 0)]
)
def test_head_start_is_plus_3_on_the_first_round(
    side: str | None, runner: int, chaser: int
) -> None:
    t = start(head_start=side) if side else start()
    chase = t.state.chase
    assert chase is not None
    assert (chase.participant("runner").value, chase.participant("chaser").value) == (
        runner,
        chaser,
    )


def test_escape_condition_is_3_6_or_9_rounds() -> None:
    with pytest.raises(ActionError, match=r"chase\.start\.escape_condition: .* 3, 6 or 9"):
        start(escape_condition=4)


def test_each_round_1d10_plus_movement_in_ladder_order() -> None:
    t = start()
    with pytest.raises(RuleError, match="it is Runner's move"):
        act(t, "chaser", "chase.move", [5])
    t = act(t, "runner", "chase.move", [4])
    assert last(t, "chase.moved")["value"] == 4 + 7
    with pytest.raises(RuleError, match="has not moved"):
        act(t, "referee", "chase.end_round", [])


def test_action_success_adds_1_to_3_critical_failure_loses_3() -> None:
    t = act(start(), "runner", "chase.move", [4])
    ok = act(t, "runner", "chase.action", [20], skill="Athletics", gain=3)
    assert last(ok, "chase.action_taken")["value"] == 11 + 3
    failed = act(t, "runner", "chase.action", [70], skill="Athletics", gain=3)
    assert last(failed, "chase.action_taken")["value"] == 11
    fumble = act(t, "runner", "chase.action", [77], skill="Athletics")
    assert last(fumble, "chase.action_taken")["value"] == 11 - 3
    with pytest.raises(ActionError, match=r"chase\.action\.gain: .*less than or equal to 3"):
        act(t, "runner", "chase.action", [20], skill="Athletics", gain=4)
    with pytest.raises(RuleError, match="already taken an Action"):
        act(ok, "runner", "chase.action", [20], skill="Athletics")


def test_only_the_participant_who_just_moved_may_act() -> None:
    t = act(start(), "runner", "chase.move", [4])
    with pytest.raises(RuleError, match="right after their own move"):
        act(t, "chaser", "chase.action", [20], skill="Coordination")


@pytest.mark.parametrize(
    ("face", "cost", "hit"), [(1, 1, True), (20, 3, True), (60, 3, False), (99, 6, False)]
)
def test_ranged_attack_costs_3_1_on_critical_success_6_on_critical_failure(
    face: int, cost: int, hit: bool
) -> None:
    t = act(start(head_start="pursuers"), "runner", "chase.move", [9])  # runner 16, chaser 3
    t = act(t, "runner", "chase.attack", [face], target="chaser", skill="Bows", damage_ranks=2)
    data = last(t, "chase.attacked")
    assert data["value"] == 16 - cost
    assert data["hit"] is hit
    chase = t.state.chase
    assert chase is not None
    assert chase.participant("chaser").value == (3 - 6 if hit else 3)  # 3 per damage rank
    assert t.state.character("chaser").damage == (2 if hit else 0)


def test_an_attack_that_slays_takes_the_victim_out() -> None:
    t = act(start(), "runner", "chase.move", [9])
    t = act(t, "runner", "chase.attack", [20], target="chaser", skill="Bows", damage_ranks=5)
    chase = t.state.chase
    assert chase is not None
    assert chase.participant("chaser").status == "slain"
    assert chase.ended == "all pursuers are Slain!"


def test_catching_up_lowers_pursuit_value_to_escape_value() -> None:
    t = act(start(), "runner", "chase.move", [1])  # 8
    t = act(t, "chaser", "chase.move", [9])  # 15 >= 8
    data = last(t, "chase.caught_up")
    assert (data["was"], data["value"], data["escapee"]) == (15, 8, "runner")
    chase = t.state.chase
    assert chase is not None and chase.participant("chaser").caught == "runner"


def caught() -> Any:
    t = act(start(takedown="Standard"), "runner", "chase.move", [1])
    return act(t, "chaser", "chase.move", [9])


def test_takedown_critical_failure_minus_3() -> None:
    t = act(caught(), "chaser", "chase.takedown", [99])
    assert t.state.chase.participant("chaser").value == 8 - 3  # type: ignore[union-attr]


def test_takedown_failure_minus_1() -> None:
    t = act(caught(), "chaser", "chase.takedown", [60])
    assert t.state.chase.participant("chaser").value == 8 - 1  # type: ignore[union-attr]


def test_takedown_critical_success_takes_both_out() -> None:
    t = act(caught(), "chaser", "chase.takedown", [33])
    chase = t.state.chase
    assert chase is not None
    assert {x.status for x in chase.participants} == {"taken down"}
    assert chase.ended == "all escapees have been taken down"


def test_takedown_success_then_the_escapee_tests_coordination() -> None:
    escaped = act(caught(), "chaser", "chase.takedown", [20, 30])
    assert escaped.state.chase.participant("runner").is_in  # type: ignore[union-attr]
    assert "escapee_test" in last(escaped, "chase.takedown")
    taken = act(caught(), "chaser", "chase.takedown", [20, 60])
    assert taken.state.chase.participant("runner").status == "taken down"  # type: ignore[union-attr]


def test_takedown_difficulty_table() -> None:
    assert takedown_difficulty("cornered") == 30
    assert takedown_difficulty("busy tavern") == -10
    assert takedown_difficulty("Arduous") == -30
    t = act(caught(), "chaser", "chase.takedown", [50, 30], condition="cornered")
    assert last(t, "chase.takedown")["test"]["total_chance"] == 75


def test_no_takedown_without_catching_up() -> None:
    t = act(start(), "runner", "chase.move", [9])
    t = act(t, "chaser", "chase.move", [1])
    with pytest.raises(RuleError, match="has not caught up"):
        act(t, "chaser", "chase.takedown", [20])


def test_the_lowest_escapee_rolls_a_chaos_die_for_a_complication() -> None:
    t = act(start(), "runner", "chase.move", [9])
    t = act(t, "chaser", "chase.move", [1])
    t = act(t, "referee", "chase.end_round", [6])
    assert last(t, "chase.complication") == {
        "participant": "runner",
        "value": 16,
        "faces": [6],
        "odds": "1/6",
        "complication": True,
        "roll": {
            "card": "roll",
            "label": "Runner's Complication",
            "rule": "Chase scene rules (Complications)",
            "dice": "1 Chaos Die (d6, a 6 triggers)",
            "odds": {"triggered": "1/6", "not triggered": "5/6"},
            "faces": [6],
            "outcome": "triggered",
            "margin": None,
            "value": 1,
            "opponent": None,
            "shown": "6",
        },
    }
    t2 = act(
        act(act(t, "runner", "chase.move", [1]), "chaser", "chase.move", [1]),
        "referee",
        "chase.end_round",
        [3, 20],
    )  # chaser BB 1: fatigue from round 2
    assert last(t2, "chase.complication")["complication"] is False


def play_round(t: Any, moves: list[int], end: list[int]) -> Any:
    for who, face in zip(("runner", "chaser"), moves, strict=True):
        t = act(t, who, "chase.move", [face])
    return act(t, "referee", "chase.end_round", end)


def test_fatigue_after_brawn_bonus_rounds() -> None:
    t = start(escape_condition=6)
    t = play_round(t, [9, 1], [1])  # round 1: nobody past their [BB]
    assert not [e for e in t.log.events if e.kind == "chase.fatigue"]
    t = play_round(t, [9, 1], [1, 60, 10, 10])  # round 2: chaser ([BB] 1) fails: 2d10+2 = 22
    data = last(t, "chase.fatigue")
    assert data["participant"] == "chaser" and data["test"]["total_chance"] == 35
    assert data["peril"] == 22
    # chaser's Peril Threshold is [WB] 0 + 3: 22 Peril is 1 + 19 // 6 = 4 steps
    assert t.state.character("chaser").peril_condition == "Ignore 3 Skill Ranks"


def test_fatigue_critical_failure_3d10_plus_3_and_exhaustion_ends_the_chase() -> None:
    t = start(escape_condition=6)
    t = play_round(t, [9, 1], [1])
    t = play_round(t, [9, 1], [1, 99, 10, 10, 10])
    data = last(t, "chase.fatigue")
    assert data["peril"] == 33 and data["exhausted"] is True
    chase = t.state.chase
    assert chase is not None and chase.ended == "all pursuers are exhausted"
    assert chase.participant("runner").status == "escaped"


def test_escape_condition_ends_the_chase_after_its_rounds() -> None:
    t = start(
        escape_condition=3,
        chars={"runner": RUNNER, "chaser": {**CHASER, "bonuses": {"AB": 3, "BB": 5, "PB": 4}}},
    )
    for _ in range(3):
        t = play_round(t, [9, 1], [1])
    chase = t.state.chase
    assert chase is not None
    assert chase.ended == "the Escape Condition is met (3 Rounds have passed)"
    with pytest.raises(RuleError, match="has ended"):
        act(t, "runner", "chase.move", [1])


def test_one_side_gives_up() -> None:
    t = act(start(), "referee", "chase.give_up", side="pursuers")
    chase = t.state.chase
    assert chase is not None and chase.ended == "the pursuers give up"


def test_only_the_referee_starts_a_chase() -> None:
    t = table({"runner": RUNNER, "chaser": CHASER})
    with pytest.raises(RuleError, match="only the referee"):
        act(t, "runner", "chase.start", [5], escapees=["runner"], pursuers=["chaser"])


def test_an_incapacitated_character_cannot_join_a_chase() -> None:
    with pytest.raises(RuleError, match="cannot take part"):
        start(chars={"runner": {**RUNNER, "peril": "Incapacitated!"}, "chaser": CHASER})


def test_a_caught_up_pursuer_is_offered_a_takedown() -> None:
    t = caught()
    takedown = [c for c in t.legal_actions("chaser") if c.kind == "chase.takedown"]
    assert len(takedown) == 1 and takedown[0].odds[0].dice == "d100 ≤ 45"
    chase = [a.kind for a in t.legal_actions("referee") if a.kind.startswith("chase.")]
    assert chase == ["chase.end_round", "chase.give_up"]


TWO_RUNNERS = {
    "runner": RUNNER,
    "second": {**RUNNER, "bonuses": {"AB": 3, "BB": 3}},
    "chaser": CHASER,
}


@pytest.mark.parametrize("head_start", [None, "pursuers"])
def test_no_catching_up_with_an_escapee_who_has_not_yet_run_in_round_1(
    head_start: str | None,
) -> None:
    """Round 1: the second escapee's 0 is no Escape Value yet; the pursuer's 0 (or Head Start 3)
    catches nobody before that escapee has moved."""
    extra = {"head_start": head_start} if head_start else {}
    t = start(
        escapees={"runner": "on foot", "second": "on foot"},
        chars=TWO_RUNNERS,
        **extra,
    )
    t = act(t, "runner", "chase.move", [5])
    assert not [e for e in t.log.events if e.kind == "chase.caught_up"]
    with pytest.raises(RuleError, match="has not caught up"):
        act(t, "chaser", "chase.takedown", [10, 90])
    t = act(t, "second", "chase.move", [5])  # 5 + 6 = 11
    t = act(t, "chaser", "chase.move", [9])  # 9 + 6 (+3) >= 11: caught up with the rearmost
    assert last(t, "chase.caught_up")["escapee"] == "second"


def test_a_takedown_the_escapee_shrugs_off_is_not_offered_again_in_the_round() -> None:
    chars = {**TWO_RUNNERS, "guard": CHASER}
    t = start(pursuers={"chaser": "on foot", "guard": "on foot"}, chars=chars, dice=[9, 1])
    t = act(t, "runner", "chase.move", [1])  # 8
    t = act(t, "chaser", "chase.move", [9])  # 15: caught up, lowered to 8
    t = act(t, "chaser", "chase.takedown", [20, 30])  # success; the runner passes
    t = act(t, "guard", "chase.move", [1])  # 7: any later change re-checks catching up
    assert len([e for e in t.log.events if e.kind == "chase.caught_up"]) == 1
    with pytest.raises(RuleError, match="has not caught up"):
        act(t, "chaser", "chase.takedown", [20, 30])


def test_a_participant_gives_up_only_for_their_own_side() -> None:
    t = start(chars={"runner": RUNNER, "chaser": CHASER, "bystander": {}})
    with pytest.raises(RuleError, match="only for the escapees"):
        act(t, "runner", "chase.give_up", side="pursuers")
    with pytest.raises(RuleError, match="not in the chase"):
        act(t, "bystander", "chase.give_up", side="escapees")
    t = act(t, "runner", "chase.give_up", side="escapees")
    assert t.state.chase is not None and t.state.chase.ended == "the escapees give up"


@pytest.mark.parametrize("words", ["", "crowd", "an"])
def test_takedown_condition_words_must_name_one_row(words: str) -> None:
    """Words that name no row, or several ("crowd" is in the Routine and the Arduous rows), are
    refused rather than read as the first row that contains them."""
    with pytest.raises(RuleError, match="Takedown"):
        takedown_difficulty(words)
    assert takedown_difficulty("large crowd") == -30
    assert takedown_difficulty("crowd are barring") == 10


def test_equal_values_left_by_last_rounds_catch_are_no_new_catch_before_the_escapee_runs() -> None:
    """Round 2 starts with the pursuer's Value lowered to the escapee's last Round (and the
    escapee having passed the Takedown): nobody is caught again before that escapee moves."""
    t = start(
        escapees={"runner": "on foot", "second": "on foot"},
        chars=TWO_RUNNERS,
        escape_condition=6,
    )
    t = act(t, "runner", "chase.move", [9])  # 16
    t = act(t, "second", "chase.move", [1])  # 7
    t = act(t, "chaser", "chase.move", [9])  # 15: caught up with second, lowered to 7
    t = act(t, "chaser", "chase.takedown", [20, 30])  # success; second passes: both at 7
    t = act(t, "referee", "chase.end_round", [1])
    t = act(t, "runner", "chase.move", [1])  # round 2: second has not run yet
    assert len([e for e in t.log.events if e.kind == "chase.caught_up"]) == 1
    with pytest.raises(RuleError, match="has not caught up"):
        act(t, "chaser", "chase.takedown", [20, 30])


def test_a_mounted_takedown_tests_the_skill_the_gm_names() -> None:
    """Audit M1, ruling R3 (b): "a Coordination Test (assuming a chase on foot)": mounted or in a
    vehicle, the GM names the skill of the Takedown (and of the Escapee's test)."""
    rider = {**RUNNER, "skills": {**RUNNER["skills"], "Ride": 70}}
    hunter = {**CHASER, "skills": {**CHASER["skills"], "Ride": 20}}
    t = start(
        escapees={"runner": "palfrey horse"},
        pursuers={"chaser": "destrier horse or flying"},
        chars={"runner": rider, "chaser": hunter},
    )
    t = act(act(t, "runner", "chase.move", [1]), "chaser", "chase.move", [9])
    # Ride 20 (Standard): 19 succeeds where Coordination 45 would too; the Escapee's Ride 70
    t = act(t, "chaser", "chase.takedown", [19, 65], skill="Ride", escapee_skill="Ride")
    takedown = last(t, "chase.takedown")
    assert takedown["test"]["skill"] == "Ride" and takedown["test"]["total_chance"] == 20
    assert takedown["escapee_test"]["skill"] == "Ride"
    assert "stays in the chase" in takedown["result"]
    on_foot = act(caught(), "chaser", "chase.takedown", [19, 65])
    assert last(on_foot, "chase.takedown")["test"]["skill"] == "Coordination"


def test_of_two_escapees_the_one_with_the_lower_escape_value_rolls_the_chaos_die() -> None:
    """Audit U3: "Escapee with the lower Escape Value the roll 1 Chaos Die"."""
    second = {**RUNNER, "bonuses": {"AB": 3, "BB": 3, "PB": 2}}
    t = start(
        escapees={"runner": "on foot", "second": "on foot"},
        chars={"runner": RUNNER, "second": second, "chaser": CHASER},
    )
    t = act(t, "runner", "chase.move", [9])  # 16
    t = act(t, "second", "chase.move", [2])  # 8
    t = act(t, "chaser", "chase.move", [1])  # 7: nobody caught
    t = act(t, "referee", "chase.end_round", [6])
    assert last(t, "chase.complication")["participant"] == "second"


def test_a_chase_needs_the_base_chances_its_tests_will_ask_for() -> None:
    """Audit B4: a participant on foot with no Coordination (Takedowns) or, past their Brawn
    Bonus in Rounds, no Toughness (fatigue) is refused at the start, not rounds later."""
    clumsy = {**CHASER, "skills": {"Toughness": 45}}
    with pytest.raises(RuleError, match="Chaser has no Base Chance entered for Coordination"):
        start(chars={"runner": RUNNER, "chaser": clumsy})
    tireless = {**CHASER, "skills": {"Coordination": 45}}
    with pytest.raises(RuleError, match="Chaser has no Base Chance entered for Toughness"):
        start(chars={"runner": RUNNER, "chaser": tireless}, escape_condition=9)
    # [BB] 1, but with no Toughness a chase of 3 Rounds could reach fatigue: refused too
    with pytest.raises(RuleError, match="Toughness"):
        start(chars={"runner": RUNNER, "chaser": tireless}, escape_condition=3)
    sturdy = {**tireless, "bonuses": {**CHASER["bonuses"], "BB": 3}}
    assert start(chars={"runner": RUNNER, "chaser": sturdy}, escape_condition=3).state.chase


def test_the_log_says_what_a_failed_fatigue_test_costs() -> None:
    """Chases, fatigue: past the Brawn Bonus in Rounds a participant tests Toughness; a
    Failure costs physical Peril (the line names the step of the Peril Condition Track it
    reaches) and may leave them exhausted, out of the chase; a Success costs nothing."""
    assert (
        _line(CHASE_FATIGUE, participant="hound", roll=_card(12))
        == "Hound tests fatigue — d100 12: success."
    )
    assert (
        _line(
            CHASE_FATIGUE,
            participant="hound",
            roll=_card(78),
            peril=4,
            characters={"hound": {"peril": 2}},
        )
        == "Hound tests fatigue — d100 78: failure; 4 physical Peril → Ignore 1 Skill Rank."
    )
    assert (
        _line(
            CHASE_FATIGUE,
            participant="hound",
            roll=_card(78),
            peril=9,
            characters={"hound": {"peril": 5}},
            exhausted=True,
        )
        == "Hound tests fatigue — d100 78: failure; 9 physical Peril → Incapacitated!; "
        "exhausted, out of the chase."
    )


def test_a_failed_fatigue_test_is_recorded_with_its_toughness_test_card_and_peril_dice() -> None:
    """Chase scene rules (Fatigue): past the [BB] in Rounds, a Toughness Test; a Failure rolls
    2D10 + 2 physical Peril, and the event keeps the dice; each Round's end is recorded with its
    number."""
    t = start(escape_condition=6)
    t = play_round(t, [9, 1], [1])
    assert last(t, "chase.round_ended") == {"round": 1}
    t = play_round(t, [9, 1], [1, 60, 10, 10])
    data = last(t, "chase.fatigue")
    assert data["test"]["skill"] == "Toughness"
    assert (data["roll"]["label"], data["roll"]["rule"]) == (
        "Chaser resists fatigue",
        "Chase scene rules (Fatigue)",
    )
    assert (data["peril"], data["peril_faces"], data["exhausted"]) == (22, [10, 10], False)
    assert last(t, "chase.round_ended") == {"round": 2}


def _a_runner_chased_by_two() -> Table[ZweihanderState]:
    """A chase on foot: the runner (escape condition 6) ahead of the chaser and a hound (a
    chaser with more Agility), pursuers in that order on the Ladder."""
    hound = {**CHASER, "bonuses": {"AB": 3, "BB": 2, "PB": 4}}
    t = table({"runner": RUNNER, "chaser": CHASER, "hound": hound})
    return act(
        t,
        "referee",
        "chase.start",
        [9, 1],
        escapees={"runner": "on foot"},
        pursuers={"chaser": "on foot", "hound": "on foot"},
        escape_condition=6,
    )


def test_a_pursuer_out_of_the_chase_skips_fatigue_and_the_next_one_still_tests() -> None:
    """Chase scene rules (Fatigue): only those still in the chase test Toughness; an exhausted
    Pursuer earlier on the Ladder does not spare the next one its test."""
    t = _a_runner_chased_by_two()
    for who in ("runner", "chaser", "hound"):
        t = act(t, who, "chase.move", [9 if who == "runner" else 1])
    t = act(t, "referee", "chase.end_round", [1])
    for who in ("runner", "chaser", "hound"):
        t = act(t, who, "chase.move", [9 if who == "runner" else 1])
    t = act(t, "referee", "chase.end_round", [1, 99, 10, 10, 10])  # chaser: exhausted
    assert t.state.chase is not None
    assert [p.id for p in t.state.chase.participants] == ["runner", "chaser", "hound"]
    assert t.state.chase.participant("chaser").status == "exhausted"
    for who in ("runner", "hound"):
        t = act(t, who, "chase.move", [9 if who == "runner" else 1])
    t = act(t, "referee", "chase.end_round", [1, 20])  # round 3: hound ([BB] 2) tests
    assert last(t, "chase.fatigue")["participant"] == "hound"
    assert [e.data["participant"] for e in t.log.events if e.kind == "chase.fatigue"] == [
        "chaser",
        "hound",
    ]


def test_a_complication_is_the_chases_own_and_a_second_chase_starts_with_none() -> None:
    """Chase scene rules (Complications): a Complication arises in a Round of this chase; the
    chase keeps it (the GM describes it) — and a new chase begins with none of the last's."""
    t = act(start(escape_condition=3), "runner", "chase.move", [9])
    t = act(t, "chaser", "chase.move", [1])
    t = act(t, "referee", "chase.end_round", [6])
    assert t.state.chase.complications == ((1, "runner"),)
    t = act(t, "referee", "chase.give_up", side="pursuers")
    assert t.state.chase.ended is not None
    t = act(t, "referee", "chase.start", [5], escapees=["runner"], pursuers=["chaser"])
    assert t.state.chase.complications == ()
