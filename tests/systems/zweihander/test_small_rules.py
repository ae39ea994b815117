"""Morale checks, overland travel, narrative considerations, the character stable, characters."""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import (
    REFEREE,
    Between,
    Choice,
    OneOf,
    RuleError,
    ScenarioError,
    SomeOf,
    Waiting,
)
from referee.dice import ScriptedSource
from referee.systems.zweihander import PROCEDURE, emit, stable
from referee.systems.zweihander.character import Character, peril_steps
from referee.systems.zweihander.morale import choices as morale_choices
from referee.systems.zweihander.morale import morale_check, morale_difficulty
from referee.systems.zweihander.narrative import needs_coordination_test, piecemeal_encumbrance
from referee.systems.zweihander.overland import (
    Leg,
    Route,
    forced_march_test,
    miles_per_day,
    needs_pilot_test,
)
from referee.systems.zweihander.percentile import SkillTest
from referee.systems.zweihander.stable import secondary_reward, stable_rewards

from .helpers import act, last, table
from .test_social import CHARS


@pytest.mark.parametrize(
    ("condition", "modifier"),
    [
        ("ally_moderate_injury", 30),
        ("ally_serious_injury", 20),
        ("ally_grievous_injury", 10),
        ("ally_slain", 0),
        ("outnumbered_3_to_1", -10),
        ("outnumbered_6_to_1", -20),
        ("leader_slain", -30),
    ],
)
def test_morale_condition_modifiers(condition: str, modifier: int) -> None:
    assert morale_difficulty([condition]) == modifier


def test_morale_the_single_hardest_condition_applies() -> None:
    assert morale_difficulty(["ally_moderate_injury", "leader_slain"]) == -30
    with pytest.raises(RuleError):
        morale_difficulty(["sunburn"])


def test_morale_outcomes() -> None:
    assert morale_check(50, [], ScriptedSource([11])).inspired
    assert not morale_check(50, [], ScriptedSource([30])).gives_up
    assert morale_check(50, [], ScriptedSource([60])).gives_up
    rescued = morale_check(50, [], ScriptedSource([60, 20]), leader_leadership=40)
    assert not rescued.gives_up and rescued.leadership is not None
    assert morale_check(50, [], ScriptedSource([60, 50]), leader_leadership=40).gives_up
    assert morale_check(50, [], ScriptedSource([99])).flees


def test_morale_criticals_and_plain_results_differ() -> None:
    """Audit U1, U2: only a Critical Success inspires, only a Critical Failure makes the foes
    flee; a Critical Failure is no plain Failure: no Leadership Test rescues it."""
    plain = morale_check(50, [], ScriptedSource([30]))
    assert not plain.inspired and not plain.flees and not plain.gives_up
    failed = morale_check(50, [], ScriptedSource([60]))
    assert not failed.flees and not failed.inspired and failed.gives_up
    dice = ScriptedSource([99])
    fled = morale_check(50, [], dice, leader_leadership=90)
    assert fled.flees and fled.leadership is None and not fled.gives_up
    assert dice.remaining == ()


def test_morale_action() -> None:
    t = act(table({}), "referee", "morale", [40], resolve=45, conditions=["outnumbered_3_to_1"])
    data = last(t, "morale.checked")
    assert data["test"]["total_chance"] == 35 and data["gives_up"] is True


def test_miles_per_day_and_adjustments() -> None:
    assert miles_per_day("dwarf", "road") == 10
    assert miles_per_day("human", "path") == 8
    assert miles_per_day("human", "road", forced_march=True) == 25
    assert miles_per_day("river barge", "river", current=10) == 30
    assert miles_per_day("river barge", "river", current=-10) == 10
    assert miles_per_day("cog", "sea", bad_weather=True) == 25
    assert miles_per_day("dwarf", "path", bad_weather=True) == 1  # never below 1 (ruling)
    with pytest.raises(RuleError, match="cannot travel"):
        miles_per_day("carriage", "path")
    with pytest.raises(RuleError):
        miles_per_day("horse", "road", current=5)
    with pytest.raises(RuleError):
        miles_per_day("skiff", "river", current=15)


def test_forced_march_and_pilot_tests() -> None:
    assert forced_march_test(45).total_chance == 25
    assert needs_pilot_test("sea", True) and not needs_pilot_test("river", True)


def test_days_for_a_route_of_several_legs() -> None:
    route = Route((Leg(100, "human", "road"), Leg(45, "knorr", "sea"), Leg(16, "horse", "path")))
    assert [leg.days for leg in route.legs] == [7, 2, 1]
    assert route.days == 10 and route.distance == 161


def test_piecemeal_armor_and_fog() -> None:
    assert piecemeal_encumbrance({"leather": 1, "mail": 2}, ["leather", "mail", "leather"]) == 2
    assert piecemeal_encumbrance({"leather": 1}, []) == 0
    with pytest.raises(RuleError):
        piecemeal_encumbrance({"leather": 1}, ["plate"])
    assert needs_coordination_test("run", ["smoke"])
    assert not needs_coordination_test("run", "rain")


def test_character_stable_half_rounded_up() -> None:
    assert secondary_reward(7) == 4
    assert stable_rewards(["a", "b", "c"], "a", 7) == {"a": 7, "b": 4, "c": 4}
    with pytest.raises(RuleError):
        stable_rewards(["a", "b", "c", "d"], "a", 7)
    t = table({"a": {}, "b": {}, "c": {}}, stables={"pat": ["a", "b", "c"]})
    t = act(t, "referee", "stable.reward", player="pat", played="b", reward=5)
    assert [c.reward_points for c in t.state.characters] == [3, 5, 3]
    with pytest.raises(ScenarioError, match=r"stables\.pat"):
        table({"a": {}}, stables={"pat": ["a", "a"]})


def test_peril_condition_track() -> None:
    assert [peril_steps(p, 7) for p in (0, 6, 7, 12, 13, 19)] == [0, 0, 1, 1, 2, 3]
    c = Character("a", skills={"Stealth": 55}, ranks={"Stealth": 2}, peril_threshold=5)
    assert c.chance("Stealth") == 55
    hurt = c.suffer_peril(11)  # 2 steps: Ignore 1 Skill Rank
    assert hurt.peril_condition == "Ignore 1 Skill Rank" and hurt.chance("Stealth") == 45
    worse = hurt.suffer_peril(5).suffer_peril(5)  # Ignore 3, but Stealth has only 2 ranks
    assert worse.chance("Stealth") == 35
    out = worse.suffer_peril(30)
    assert out.is_incapacitated
    with pytest.raises(RuleError, match="Incapacitated"):
        out.chance("Stealth")
    assert out.recover_to("Imperiled").peril_condition == "Imperiled"
    assert c.recover_to("Imperiled").peril == 0


def test_damage_condition_track() -> None:
    assert Character("a").suffer_damage(2).damage_condition == "Moderately Wounded"
    assert Character("a").suffer_damage(9).is_slain


def test_character_setup_errors_name_the_field() -> None:
    with pytest.raises(ScenarioError, match=r"characters\.a\.bonuses\.XB"):
        table({"a": {"bonuses": {"XB": 3}}})
    with pytest.raises(ScenarioError, match=r"characters\.a\.peril"):
        table({"a": {"peril": "Dizzy"}})
    with pytest.raises(ScenarioError, match=r"characters\.a\.wits"):
        table({"a": {"wits": 3}})
    assert Character.from_setup("a", {"bonuses": {"PB": 4, "WB": 2}}).initiative == 7


def _morale_card(test: SkillTest, face: int, label: str) -> dict[str, Any]:
    return emit.test_card(test, test.roll(ScriptedSource([face])), label, "Morale checks")


def test_a_failed_morale_check_rescued_by_the_leader_is_one_event_with_both_tests() -> None:
    """Morale checks: the Resolve Test at the hardest condition's Difficulty Rating (one ally
    Slain! 0, outnumbered 3:1 −10%: −10); on a Failure the leader tests Leadership (Standard),
    and a Success keeps the foes fighting. One event records both tests and both cards."""
    t = act(
        table({}),
        "referee",
        "morale",
        [60, 20],
        resolve=50,
        conditions=["ally_slain", "outnumbered_3_to_1"],
        leader_leadership=40,
        foes="the bandits",
    )
    resolve, leader = SkillTest(50, -10), SkillTest(40)
    assert last(t, "morale.checked") == {
        "foes": "the bandits",
        "conditions": ["ally_slain", "outnumbered_3_to_1"],
        "test": emit.test_json(resolve, resolve.roll(ScriptedSource([60])), "Resolve"),
        "leadership": emit.test_json(leader, leader.roll(ScriptedSource([20])), "Leadership"),
        "result": "the foes give up on their next turn, unless a leader successfully pass a "
        "Leadership Test",
        "gives_up": False,
        "flees": False,
        "inspired": False,
        "rolls": [
            _morale_card(resolve, 60, "the bandits test Resolve"),
            _morale_card(leader, 20, "their leader tests Leadership"),
        ],
    }
    data = last(t, "morale.checked")
    assert (data["test"]["total_chance"], data["test"]["difficulty_rating"]) == (40, "Challenging")
    assert (data["leadership"]["total_chance"], data["leadership"]["outcome"]) == (40, "success")
    assert t.log.events[-1].audience.everyone


def test_a_failed_morale_check_without_a_leader_gives_up() -> None:
    """Morale checks: a Failure with no leader to test Leadership — the foes give up on their
    next turn; one Resolve Test, one card, no Leadership."""
    t = act(table({}), "referee", "morale", [60], resolve=50)
    data = last(t, "morale.checked")
    test = SkillTest(50)
    assert "leadership" not in data
    assert (data["foes"], data["conditions"], data["gives_up"], data["flees"]) == (
        "the foes",
        [],
        True,
        False,
    )
    assert data["rolls"] == [_morale_card(test, 60, "the foes test Resolve")]


def test_a_leader_with_no_leadership_still_tests_and_fails() -> None:
    """Morale checks: a leader with Leadership 0 tests at the least chance a Test has (1%) and
    cannot rescue the foes from a 20; the event keeps the Base Chance as given (0)."""
    t = act(table({}), "referee", "morale", [60, 20], resolve=50, leader_leadership=0)
    data = last(t, "morale.checked")
    assert (data["leadership"]["base_chance"], data["leadership"]["total_chance"]) == (0, 1)
    assert (data["leadership"]["outcome"], data["gives_up"]) == ("failure", True)
    assert data["rolls"][1]["dice"] == "d100 ≤ 1"


def test_a_morale_check_critical_failure_flees_and_no_leader_tests() -> None:
    """Morale checks: a Critical Failure — the foes flee; no Leadership Test rescues it."""
    t = act(table({}), "referee", "morale", [99], resolve=50, leader_leadership=90)
    data = last(t, "morale.checked")
    assert "leadership" not in data and len(data["rolls"]) == 1
    assert (data["flees"], data["gives_up"], data["inspired"]) == (True, False, False)
    assert data["result"].startswith("the foes flee")


def test_only_the_gm_calls_a_morale_check() -> None:
    """Morale checks are the GM's to call, at any time: the referee's menu offers a Resolve of
    1–99 and up to two of the table's conditions; a character has no such choice."""
    t = table(CHARS)
    (choice,) = [c for c in t.legal_actions("referee") if c.kind == "morale"]
    assert choice.label == "call a morale check" and choice.odds == ()
    assert choice.params == {
        "resolve": Between(1, 99),
        "conditions": SomeOf(
            (
                "ally_moderate_injury",
                "ally_serious_injury",
                "ally_grievous_injury",
                "ally_slain",
                "outnumbered_3_to_1",
                "outnumbered_6_to_1",
                "leader_slain",
            ),
            least=0,
            most=2,
        ),
    }
    assert not [c for c in t.legal_actions("anna") if c.kind == "morale"]
    assert morale_choices(t.state, "anna") == []


def test_a_secondary_character_earns_half_the_reward_rounded_up_even_of_nothing() -> None:
    """Character stable: each secondary character earns half the played one's Reward Points,
    rounded up (6 → 3, 7 → 4); a reward of 0 gives 0; a negative reward is refused."""
    assert [secondary_reward(r) for r in (0, 1, 6, 7)] == [0, 1, 3, 4]
    with pytest.raises(RuleError, match="cannot be negative"):
        secondary_reward(-1)


def test_a_stable_reward_is_recorded_for_every_member_and_offered_to_the_gm_per_player() -> None:
    """Character stable: the GM rewards a player's stable (one choice per player with
    characters, the played one among them); the event names the player and each reward."""
    t = table({"a": {}, "b": {}, "c": {}, "d": {}}, stables={"pat": ["a", "b", "c"], "sam": ["d"]})
    assert stable.choices(t.state, REFEREE) == [
        Choice(
            REFEREE,
            "stable.reward",
            {"player": OneOf((player,)), "played": OneOf(members), "reward": Between(0, 30)},
            label=f"Reward Points for {player.title()}'s stable",
        )
        for player, members in (("pat", ("a", "b", "c")), ("sam", ("d",)))
    ]
    assert stable.choices(t.state, "a") == []
    t = act(t, "referee", "stable.reward", player="pat", played="b", reward=6)
    assert last(t, "stable.rewarded") == {
        "player": "pat",
        "rewards": {"a": 3, "b": 6, "c": 3},
        "characters": {
            "a": {"reward_points": 3},
            "b": {"reward_points": 6},
            "c": {"reward_points": 3},
        },
    }


def test_charging_or_running_in_fog_mist_or_smoke_may_need_a_coordination_test() -> None:
    """Narrative considerations (Fog, mist & smoke), a condition named alone or among others."""
    assert needs_coordination_test("charge", "fog") is True
    assert needs_coordination_test("charge", ["rain", "smoke"]) is True
    assert needs_coordination_test("walk", "fog") is False


@pytest.mark.parametrize(
    ("stable", "reason"),
    [(["a", "z"], "no character 'z'"), (["a", "a"], "a stable is up to 3 different characters")],
)
def test_a_stable_of_strangers_or_one_naming_a_character_twice_is_refused(
    stable: list[str], reason: str
) -> None:
    """Character stable: up to three different characters of the table, per player."""
    with pytest.raises(ScenarioError) as refused:
        table({"a": {}}, stables={"pat": stable})
    assert refused.value.path == ("stables", "pat")
    assert reason in refused.value.reason


def test_a_slain_or_incapacitated_character_is_told_why_they_cannot_act() -> None:
    """Peril and Damage Condition Tracks: Incapacitated! a character cannot act ("Once
    Incapacitated, they cannot continue") until they recover; Slain! for good. Their seat is
    told which, and until when."""
    from referee.core import Viewer, observe

    t = table(
        {
            "anna": {"skills": {"Charm": 50}, "peril": "Incapacitated!"},
            "bert": {"skills": {"Charm": 50}, "damage": "Slain!"},
        }
    )
    [anna] = observe(t, Viewer("alice", frozenset({"anna"}))).waiting
    assert (anna.reason, anna.until, anna.section) == (
        "Anna is Incapacitated! and cannot act",
        "until they recover: Striking Camp on a journey recovers Peril",
        "Peril Condition Track",
    )
    [bert] = observe(t, Viewer("bob", frozenset({"bert"}))).waiting
    assert bert == Waiting("bert", "Bert is Slain!", None, "Damage Condition Track")


def test_the_gm_and_one_who_is_no_character_of_the_table_wait_for_nothing_of_the_game() -> None:
    """Peril and Damage Condition Tracks hold back characters only: the GM, and a seat's name
    that is no character at the table, have no wait of the game's (the kernel says the rest)."""
    t = table({"anna": {"skills": {"Charm": 50}, "peril": "Incapacitated!"}})
    assert PROCEDURE.waiting(t.state, REFEREE) is None
    assert PROCEDURE.waiting(t.state, "zed") is None
