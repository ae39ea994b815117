"""Mutation testing, round 5: the survivors of `chase.py`'s procedure (its Actions, Attacks,
menus and previews), `wilderness.py`, `procedure.py` and `events.py` — each test names the rule
it pins."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from referee.core import (
    REFEREE,
    REFEREE_ONLY,
    Between,
    Choice,
    Event,
    OneOf,
    RuleError,
    ScenarioError,
    SomeOf,
    Table,
    Viewer,
)
from referee.systems.zweihander import PROCEDURE, chase, stable, wilderness
from referee.systems.zweihander.character import INCAPACITATED
from referee.systems.zweihander.events import describe
from referee.systems.zweihander.narrative import needs_coordination_test
from referee.systems.zweihander.percentile import DIFFICULTY_NAMES
from referee.systems.zweihander.stable import secondary_reward
from referee.systems.zweihander.state import ZweihanderState
from referee.systems.zweihander.wilderness import step_threat

from .helpers import act, last, table
from .test_chase import CHASER, RUNNER, TWO_RUNNERS, caught, start
from .test_wilderness import PARTY, journey, roles

# ------------------------------------------------------------------------------ chase.py


def _incapacitated(state: ZweihanderState, who: str) -> ZweihanderState:
    return state.with_character(replace(state.character(who), peril=INCAPACITATED))


def test_a_chase_action_is_recorded_with_its_test_at_its_difficulty_and_its_card() -> None:
    """Chase scene rules (Actions): the described Action's Skill Test at the Difficulty the GM
    sets, its roll card, and the Value it changes."""
    t = act(start(), "runner", "chase.move", [4])  # 11
    t = act(
        t,
        "runner",
        "chase.action",
        [20],
        skill="Athletics",
        gain=2,
        difficulty="Hard",
        description="vaults a cart",
    )
    data = last(t, "chase.action_taken")
    assert data["description"] == "vaults a cart"
    assert data["test"]["skill"] == "Athletics"
    assert (data["test"]["difficulty_rating"], data["test"]["total_chance"]) == ("Hard", 30)
    assert data["test"]["outcome"] == "success"
    assert (data["roll"]["label"], data["roll"]["rule"], data["roll"]["dice"]) == (
        "Runner tests Athletics (a chase Action)",
        "Chase scene rules",
        "d100 ≤ 30",
    )
    assert (data["change"], data["value"]) == (2, 13)


def test_a_chase_attack_is_recorded_with_its_test_cost_and_what_it_does_to_the_target() -> None:
    """Chase scene rules (Ranged and Magick Attacks): the attack's Skill Test at its Difficulty
    and roll card; a hit costs the victim 3 per rank of Damage, a miss costs them nothing."""
    t = act(start(head_start="pursuers"), "runner", "chase.move", [9])  # runner 16, chaser 3
    hit = act(t, "runner", "chase.attack", [60], target="chaser", skill="Bows", difficulty="Easy")
    data = last(hit, "chase.attacked")
    assert data["test"]["skill"] == "Bows"
    assert (data["test"]["difficulty_rating"], data["test"]["total_chance"]) == ("Easy", 70)
    assert (data["roll"]["label"], data["roll"]["rule"], data["roll"]["dice"]) == (
        "Runner attacks Chaser",
        "Chase scene rules",
        "d100 ≤ 70",
    )
    assert (data["cost"], data["value"], data["hit"]) == (3, 13, True)
    ranks = act(t, "runner", "chase.attack", [20], target="chaser", skill="Bows", damage_ranks=2)
    data = last(ranks, "chase.attacked")
    assert (data["damage_ranks"], data["target_loss"], data["target_value"]) == (2, 6, -3)
    miss = act(t, "runner", "chase.attack", [70], target="chaser", skill="Bows", damage_ranks=2)
    data = last(miss, "chase.attacked")
    assert (data["hit"], data["damage_ranks"], data["target_loss"]) == (False, 0, 0)
    assert data["target_value"] == 3


def test_an_attack_is_only_on_an_opponent() -> None:
    """Chase scene rules (Ranged and Magick Attacks): an Escapee attacks a Pursuer, not another
    Escapee."""
    t = start(escapees={"runner": "on foot", "second": "on foot"}, chars=TWO_RUNNERS)
    t = act(t, "runner", "chase.move", [9])
    with pytest.raises(RuleError, match="second is not an opponent"):
        act(t, "runner", "chase.attack", [20], target="second", skill="Bows")


def test_only_the_one_who_moved_last_may_act_not_one_who_moved_earlier() -> None:
    """Chase scene rules (Actions): an Action is taken right after one's own move; once the next
    on the ladder has moved, the first may no longer act or attack."""
    t = act(start(), "runner", "chase.move", [9])  # 16
    t = act(t, "chaser", "chase.move", [1])  # 7: nobody caught
    for kind, extra in (("chase.action", {}), ("chase.attack", {"target": "chaser"})):
        with pytest.raises(RuleError, match="right after their own move") as refused:
            act(t, "runner", kind, [20], skill="Bows", **extra)
        assert refused.value.rule == kind


def test_an_action_or_attack_once_the_chase_has_ended_is_refused_under_its_own_name() -> None:
    t = act(start(), "referee", "chase.give_up", side="pursuers")
    for kind, extra in (("chase.action", {}), ("chase.attack", {"target": "chaser"})):
        with pytest.raises(RuleError, match="the chase has ended") as refused:
            act(t, "runner", kind, [20], skill="Bows", **extra)
        assert refused.value.rule == kind


def test_the_gm_may_start_a_chase_with_two_able_characters_who_have_its_skills() -> None:
    """Chase scene rules: the GM starts a chase among characters neither Incapacitated! nor
    Slain! who have Coordination (a Takedown) and Toughness (fatigue) entered; each may be the
    Escapee, any others the Pursuers; players start none."""
    both = {"Coordination": 40, "Toughness": 40}
    t = table(
        {
            "anna": {"skills": both},
            "bert": {"skills": {**both, "Bows": 30}},
            "carl": {"skills": both, "peril": "Incapacitated!"},
            "dora": {"skills": {"Coordination": 40}},
        }
    )

    def start_choice(escapee: str, others: tuple[str, ...]) -> Choice:
        return Choice(
            REFEREE,
            "chase.start",
            {
                "escapees": OneOf(([escapee],)),
                "pursuers": SomeOf(others, least=1),
                "head_start": OneOf((None, "escapees", "pursuers")),
                "escape_condition": OneOf((3, 6, 9)),
                "takedown": OneOf(DIFFICULTY_NAMES),
            },
            label=f"start a chase: {escapee.title()} runs",
        )

    assert chase.choices(t.state, REFEREE) == [
        start_choice("anna", ("bert",)),
        start_choice("bert", ("anna",)),
    ]
    assert chase.choices(t.state, "anna") == []
    alone = table({"anna": {"skills": both}, "carl": {"skills": both, "peril": "Incapacitated!"}})
    assert chase.choices(alone.state, REFEREE) == []


SKILLS = OneOf(("Athletics", "Bows", "Coordination", "Toughness"))


def _give_up(who: str, side: str) -> Choice:
    return Choice(who, "chase.give_up", {"side": OneOf((side,))}, label="give up")


GIVE_UP_ESCAPEES = _give_up("runner", "escapees")
GIVE_UP_PURSUERS = _give_up("chaser", "pursuers")
GM_GIVE_UP = Choice(
    REFEREE, "chase.give_up", {"side": OneOf(("escapees", "pursuers"))}, label="a side gives up"
)


def test_each_participants_menu_follows_the_ladder_through_a_round() -> None:
    """Chase scene rules: in ladder order each participant moves; right after their move they may
    describe an Action or attack an opponent (once); a Pursuer who caught up may attempt a
    Takedown; anyone may give up for their side; the GM ends the Round once all have moved."""
    t = start()
    assert chase.choices(t.state, REFEREE) == [GM_GIVE_UP]
    assert chase.choices(t.state, "runner") == [
        Choice("runner", "chase.move", label="move: 1D10 + Movement"),
        GIVE_UP_ESCAPEES,
    ]
    assert chase.choices(t.state, "chaser") == [GIVE_UP_PURSUERS]
    t = act(t, "runner", "chase.move", [1])  # 8
    assert chase.choices(t.state, "runner") == [
        Choice(
            "runner",
            "chase.action",
            {"skill": SKILLS, "gain": Between(1, 3)},
            label="describe an Action",
        ),
        Choice(
            "runner",
            "chase.attack",
            {"target": OneOf(("chaser",)), "skill": SKILLS, "damage_ranks": Between(0, 5)},
            label="a Ranged or Magick Attack",
        ),
        GIVE_UP_ESCAPEES,
    ]
    acted = act(t, "runner", "chase.action", [20], skill="Athletics")
    assert chase.choices(acted.state, "runner") == [GIVE_UP_ESCAPEES]
    assert chase.choices(_incapacitated(t.state, "runner"), "runner") == [GIVE_UP_ESCAPEES]
    t = act(t, "chaser", "chase.move", [9])  # caught up with the runner
    assert chase.choices(t.state, "runner") == [GIVE_UP_ESCAPEES]
    takedown = chase.choices(t.state, "chaser")
    assert [c.kind for c in takedown] == [
        "chase.action",
        "chase.attack",
        "chase.takedown",
        "chase.give_up",
    ]
    assert takedown[1].params["target"] == OneOf(("runner",))
    assert takedown[2].label == "attempt a Takedown on Runner"
    assert chase.choices(t.state, REFEREE) == [
        Choice(REFEREE, "chase.end_round", label="end the Round"),
        GM_GIVE_UP,
    ]


def test_a_takedown_is_previewed_at_the_chases_takedown_difficulty() -> None:
    """Chase scene rules (Takedown): the caught-up Pursuer's Coordination Test at the chase's
    Condition ("cornered", +30: 45 + 30 = 75), shown to everyone before it is rolled."""
    t = act(start(takedown="cornered"), "runner", "chase.move", [1])
    t = act(t, "chaser", "chase.move", [9])
    [preview] = chase.previews(t.state)
    assert (preview.label, preview.rule, preview.dice) == (
        "Chaser's Takedown (Coordination)",
        "Chase scene rules (Takedown)",
        "d100 ≤ 75",
    )
    assert preview.odds["critical success"] == "7/100"
    assert [c for c in chase.choices(t.state, "chaser") if c.kind == "chase.takedown"] == [
        Choice("chaser", "chase.takedown", odds=(preview,), label="attempt a Takedown on Runner")
    ]
    assert chase.previews(_incapacitated(t.state, "chaser")) == []
    assert chase.previews(caught().state)[0].dice == "d100 ≤ 45"
    assert chase.previews(table({"runner": RUNNER}).state) == []


def test_a_mounted_pursuer_who_caught_up_is_offered_a_takedown_naming_the_skills() -> None:
    """Audit M1, ruling R3 (b): mounted or in a vehicle, the GM names the skill of the Takedown
    and of the Escapee's test (Ride, Drive …), from the Skills each has entered; an
    Incapacitated! Pursuer attempts none."""
    rider = {**RUNNER, "skills": {"Coordination": 50, "Toughness": 50, "Ride": 70}}
    hunter = {**CHASER, "skills": {"Coordination": 45, "Toughness": 45, "Drive": 20}}
    t = start(
        escapees={"runner": "palfrey horse"},
        pursuers={"chaser": "stagecoach or wagon"},
        chars={"runner": rider, "chaser": hunter},
    )
    t = act(act(t, "runner", "chase.move", [1]), "chaser", "chase.move", [9])
    takedown = [c for c in chase.choices(t.state, "chaser") if c.kind == "chase.takedown"]
    assert takedown == [
        Choice(
            "chaser",
            "chase.takedown",
            {
                "skill": OneOf(("Coordination", "Drive", "Toughness")),
                "escapee_skill": OneOf(("Coordination", "Ride", "Toughness")),
            },
            label="attempt a Takedown on Runner (name the skills)",
        )
    ]
    assert [c.kind for c in chase.choices(_incapacitated(t.state, "chaser"), "chaser")] == [
        "chase.give_up"
    ]


def test_an_attack_is_offered_on_the_opponents_still_in_the_chase() -> None:
    """Chase scene rules (Ranged and Magick Attacks): the targets offered are the other side's
    participants still in the chase (not one taken down); one out of the chase, or at the table
    but not in it, is offered nothing."""
    chars = {**TWO_RUNNERS, "guard": CHASER, "bystander": CHASER}
    t = start(
        escapees={"runner": "on foot", "second": "on foot"},
        pursuers={"chaser": "on foot", "guard": "on foot"},
        chars=chars,
        dice=[9, 1],
    )
    t = act(t, "runner", "chase.move", [9])  # 16
    t = act(t, "second", "chase.move", [1])  # 7
    t = act(t, "chaser", "chase.move", [9])  # caught up with second
    t = act(t, "chaser", "chase.takedown", [20, 60])  # second and chaser are taken down
    t = act(t, "guard", "chase.move", [1])  # 7: nobody caught
    [attack] = [c for c in chase.choices(t.state, "guard") if c.kind == "chase.attack"]
    assert attack.params == {
        "target": OneOf(("runner",)),
        "skill": OneOf(("Bows", "Coordination", "Toughness")),
        "damage_ranks": Between(0, 5),
    }
    assert attack.label == "a Ranged or Magick Attack"
    assert chase.choices(t.state, "second") == []
    assert chase.choices(t.state, "bystander") == []


def test_a_chase_start_is_recorded_whole_and_folded_into_the_state() -> None:
    """Chase scene rules: the Initiative Ladder, each participant's side, mode, Movement and
    Value (a Head Start +3), the Pursuers' Initiative rolls, the Escape Condition, the Head
    Start's side and the Takedown's difficulty (a Condition of the table, "busy tavern": -10)."""
    t = start(
        escapees={"runner": "palfrey horse"},
        pursuers=["chaser"],
        head_start="escapees",
        escape_condition=6,
        takedown="busy tavern",
        dice=[4],
    )
    assert last(t, "chase.started") == {
        "ladder": ["runner", "chaser"],
        "participants": [
            dict(id="runner", side="escapee", mode="palfrey horse", movement=10, value=3),
            dict(id="chaser", side="pursuer", mode="on foot", movement=6, value=0),
        ],
        "initiative_rolls": {"chaser": {"d10": 4, "initiative": 7, "total": 11}},
        "escape_condition": 6,
        "head_start": "escapee",
        "takedown_difficulty": -10,
    }
    started = t.state.chase
    assert started is not None
    assert [
        (x.id, x.side, x.mode, x.movement, x.value, x.initiative, x.status)
        for x in started.participants
    ] == [
        ("runner", "escapee", "palfrey horse", 10, 3, None, "in"),
        ("chaser", "pursuer", "on foot", 6, 0, 11, "in"),
    ]
    assert (started.escape_rounds, started.takedown_difficulty, started.head_start) == (
        6,
        -10,
        "escapee",
    )
    assert (started.round, started.current, started.ended) == (1, None, None)


def test_one_chase_at_a_time_and_a_new_one_once_it_has_ended() -> None:
    t = start()
    assert t.state.chase is not None and t.state.chase.head_start is None
    with pytest.raises(RuleError, match="already under way"):
        act(t, "referee", "chase.start", [5], escapees=["runner"], pursuers=["chaser"])
    t = act(t, "referee", "chase.give_up", side="escapees")
    assert last(t, "chase.gave_up") == {"side": "escapee", "round": 1}
    again = act(t, "referee", "chase.start", [5], escapees=["chaser"], pursuers=["runner"])
    assert again.state.chase is not None and again.state.chase.ended is None
    assert again.state.chase.participant("chaser").side == "escapee"


@pytest.mark.parametrize(
    ("escapees", "pursuers", "refusal"),
    [
        (["runner"], ["runner"], "on both sides or named twice"),
        (["runner", "runner"], ["chaser"], "on both sides or named twice"),
        (["runner"], ["dead"], "dead is Slain! and cannot take part"),
        ([], ["chaser"], "at least one escapee and one pursuer"),
    ],
)
def test_a_chase_start_is_refused_for_who_cannot_take_part(
    escapees: list[str], pursuers: list[str], refusal: str
) -> None:
    """Chase scene rules: each participant once, on one side, neither Slain! nor
    Incapacitated!, at least one on each side."""
    chars = {"runner": RUNNER, "chaser": CHASER, "dead": {**CHASER, "damage": "Slain!"}}
    with pytest.raises(RuleError, match=refusal):
        act(table(chars), "referee", "chase.start", escapees=escapees, pursuers=pursuers)


def test_a_mounted_participant_needs_no_coordination_and_a_sturdy_one_no_toughness() -> None:
    """Audit B4: Coordination is asked only of a participant on foot (a Takedown tests it), and
    Toughness only of one whose Brawn Bonus is below the Escape Condition's Rounds."""
    rider = {"bonuses": {"AB": 4, "BB": 3}, "skills": {"Toughness": 50}}
    sturdy = {"bonuses": {"AB": 3, "BB": 3}, "skills": {"Coordination": 45}}
    t = start(
        escapees={"runner": "palfrey horse"},
        pursuers={"chaser": "on foot"},
        chars={"runner": rider, "chaser": sturdy},
        escape_condition=3,
    )
    assert t.state.chase is not None and t.state.chase.ended is None
    # a Pursuer on foot who catches a rider with no Coordination: no Takedown test to offer
    t = act(act(t, "runner", "chase.move", [1]), "chaser", "chase.move", [9])
    assert t.state.chase.participant("chaser").caught == "runner"
    assert [c.kind for c in chase.choices(t.state, "chaser")][-2:] == [
        "chase.attack",
        "chase.give_up",
    ]


# ------------------------------------------------------------------------------ wilderness.py


def test_each_role_check_is_recorded_with_its_role_skill_helpers_card_and_result() -> None:
    """Wilderness travel rules (Roles): the Guide tests Navigation (the others assisting: an
    Assist Die), the Survivalist Survival, the Scout Stealth, each at the terrain's Difficulty
    under its roll card, with the text's result; a Role nobody takes is a Failure."""
    t = act(
        journey(threat=1),
        "referee",
        "journey.roles",
        [40, 5, 99],
        guide="g",
        survivalist="s",
        assists={"guide": ["c"]},
    )
    guide, survivalist, scout = (
        dict(e.data) for e in t.log.events if e.kind == "journey.role_check"
    )
    assert {k: guide[k] for k in ("role", "skill", "character", "assisted_by")} == {
        "role": "Guide",
        "skill": "Navigation",
        "character": "g",
        "assisted_by": ["c"],
    }
    assert (guide["test"]["skill"], guide["test"]["assist"], guide["test"]["total_chance"]) == (
        "Navigation",
        True,
        50,
    )
    assert (guide["roll"]["label"], guide["roll"]["rule"], guide["roll"]["dice"]) == (
        "Guide G tests Navigation",
        "Wilderness travel rules (Roles)",
        "d100 ≤ 50, with an Assist Die",
    )
    assert (guide["outcome"], guide["result"]) == (
        "success",
        "1 day of provisions is required per day of travel",
    )
    assert (guide["provisions_per_day"], guide["terrain"]) == (1, 0)
    assert {k: survivalist[k] for k in ("role", "skill", "character", "assisted_by")} == {
        "role": "Survivalist",
        "skill": "Survival",
        "character": "s",
        "assisted_by": [],
    }
    assert survivalist["roll"]["label"] == "Survivalist S tests Survival"
    assert (survivalist["outcome"], survivalist["result"]) == (
        "critical failure",
        "as Failure, plus add an extra Toughness Test",
    )
    assert (survivalist["camp_recovery"], survivalist["toughness_tests"]) == ("Imperiled", 2)
    assert scout == {
        "role": "Scout",
        "skill": "Stealth",
        "character": None,
        "assisted_by": [],
        "unfilled": True,
        "outcome": "failure",
        "result": "increase Threat Level by 1 step",
        "threat": 2,
        "surprise": None,
    }


def _roles_choice(label: str, **params: object) -> Choice:
    return Choice(
        REFEREE,
        "journey.roles",
        {name: OneOf((value,)) for name, value in params.items()},
        label=f"assign the Roles: {label}",
    )


def test_the_gms_journey_menu_follows_the_stretch_and_players_have_none() -> None:
    """Wilderness travel rules: at a Stretch's beginning the GM assigns the Roles (each to a
    traveller with its Skill, or nobody, the others assisting the Guide; most Roles filled
    first); then the Toughness Tests; then the Stretch's end or journey's end; Strike Camp once
    the party has travelled; after journey's end, a new journey."""
    t = journey(threat=1, conveyed=True)
    assert wilderness.choices(t.state, REFEREE) == [
        _roles_choice("guide g, survivalist s, scout c", guide="g", survivalist="s", scout="c"),
        _roles_choice(
            "guide g, survivalist s, scout nobody",
            guide="g",
            survivalist="s",
            assists={"guide": ["c"]},
        ),
        _roles_choice(
            "guide g, survivalist nobody, scout c", guide="g", scout="c", assists={"guide": ["s"]}
        ),
        _roles_choice(
            "guide g, survivalist nobody, scout nobody", guide="g", assists={"guide": ["s", "c"]}
        ),
    ]
    assert wilderness.choices(t.state, "g") == []
    camp = Choice(REFEREE, "journey.camp", label="Strike Camp")
    t = roles(t, [40, 40, 60])  # the Scout fails: Threat 2
    assert wilderness.choices(t.state, REFEREE) == [
        Choice(REFEREE, "journey.toughness", label="the Toughness Tests"),
        camp,
    ]
    t = act(t, "referee", "journey.toughness", [20, 5, 60, 5, 95, 9, 3, 4, 6, 2])
    assert wilderness.choices(t.state, REFEREE) == [
        Choice(REFEREE, "journey.end_stretch", label="end the Stretch"),
        Choice(
            REFEREE, "journey.end", {"award_fortune": OneOf((False, True))}, label="journey's end"
        ),
        camp,
    ]
    t = act(t, "referee", "journey.end", award_fortune=True)
    assert [c.kind for c in wilderness.choices(t.state, REFEREE)] == ["journey.start"]
    assert wilderness.choices(table({}).state, REFEREE) == []


def test_a_stretchs_toughness_tests_chaos_dice_camp_and_end_are_recorded() -> None:
    """Wilderness travel rules (Toughness Tests, Threat Level, Strike Camp, Stretches): each fit
    traveller's Toughness Test (conveyed: an Assist Die) with its card and result, a Failure's
    2D10+2 Peril; then the Threat Level's Chaos Dice; a camp of 24 hours recovers Peril; the
    Stretch's end counts its days and provisions and moves on to the next Stretch."""
    t = roles(journey(threat=1, conveyed=True), [40, 40, 60])  # the Scout fails: Threat 2
    assert [p.label for p in wilderness.previews(t.state)] == [
        "G tests Toughness",
        "S tests Toughness",
        "C tests Toughness",
    ]
    assert {(p.rule, p.dice) for p in wilderness.previews(t.state)} == {
        ("Wilderness travel rules (Toughness Tests)", "d100 ≤ 50, with an Assist Die")
    }
    t = act(t, "referee", "journey.toughness", [20, 5, 60, 5, 95, 9, 3, 4, 6, 2])
    assert wilderness.previews(t.state) == []
    toughness = last(t, "journey.toughness")
    g, s, c = toughness["tests"]
    assert (g["character"], g["test"]["skill"], g["test"]["assist"]) == ("g", "Toughness", True)
    assert (g["result"], s["result"], c["result"]) == (
        "no Peril is suffered",
        "no Peril is suffered",
        "suffer 2D10+2 Peril",
    )
    assert "peril" not in g
    assert (c["peril"], c["peril_faces"], c["peril_condition"]) == (9, [3, 4], "Imperiled")
    assert toughness["unhindered_at_camp"] == []
    assert [(r["label"], r["rule"]) for r in toughness["rolls"]] == [
        (f"{who.upper()} tests Toughness", "Wilderness travel rules (Toughness Tests)")
        for who in "gsc"
    ]
    chaos = last(t, "journey.chaos")
    assert {k: v for k, v in chaos.items() if k != "roll"} == {
        "chaos_dice": 2,
        "faces": [6, 2],
        "odds": "11/36",
        "encounter": True,
        "surprise": None,
    }
    assert (chaos["roll"]["label"], chaos["roll"]["rule"]) == (
        "the Threat Level's Chaos Dice",
        "Wilderness travel rules (Threat Level)",
    )
    t = act(t, "referee", "journey.camp")
    assert last(t, "journey.camp")["hours"] == 24
    assert t.state.character("c").peril_condition == "Unhindered"
    t = act(t, "referee", "journey.end_stretch")
    assert last(t, "journey.stretch_ended") == {
        "stretch": "one",
        "days": 3,
        "provisions_per_day": 1,
        "provisions": 9,
    }
    j = t.state.journey
    assert j is not None
    assert (j.index, j.phase, j.terrain, j.threat, j.surprise) == (1, "roles", 0, 0, None)
    assert (j.days, j.provisions, j.encounters) == (4, 9, 1)
    assert t.state.travel_hours == 24 + 3 * 24


def _s_and_c_take_roles(t: Table[ZweihanderState], dice: list[int]) -> Table[ZweihanderState]:
    """The Role Checks with g unable to take part: s the Survivalist, c the Scout."""
    return act(t, "referee", "journey.roles", dice, survivalist="s", scout="c")


def test_camp_is_struck_once_the_party_has_travelled_and_only_then() -> None:
    """Wilderness travel rules (Strike Camp): not before the party has set out; on the road,
    and at the beginning of a later Stretch, it may."""
    t = journey(threat=0)
    with pytest.raises(RuleError, match="has not travelled yet"):
        act(t, "referee", "journey.camp")
    t = roles(t, [40, 40, 40])
    assert last(act(t, "referee", "journey.camp"), "journey.camp")["hours"] == 24
    t = act(t, "referee", "journey.toughness", [20, 20, 20])
    t = act(t, "referee", "journey.end_stretch")  # the second Stretch's Role Checks are next
    assert t.state.journey is not None and t.state.journey.index == 1
    assert act(t, "referee", "journey.camp").state.journey.days == 4  # type: ignore[union-attr]
    with pytest.raises(RuleError, match="no journey is under way") as refused:
        act(table(PARTY), "referee", "journey.camp")
    assert refused.value.rule == "journey.camp"


def test_a_slain_traveller_or_a_forced_marcher_at_camp_does_not_stop_the_others_recovering() -> (
    None
):
    """Strike Camp: the Slain! recover nothing, a forced marcher recovers nothing for 24 hours;
    every other traveller still recovers."""
    weary = {
        "g": {**PARTY["g"], "peril": 2},
        "s": {**PARTY["s"], "peril": 2},
        "c": {**PARTY["c"], "peril": 2},
    }
    slain = {**weary, "g": {**weary["g"], "damage": "Slain!"}}
    t = _s_and_c_take_roles(journey(threat=0, party=slain), [40, 40])
    t = act(t, "referee", "journey.camp")
    assert last(t, "journey.camp")["recovered"] == {"s": "Unhindered", "c": "Unhindered"}
    t = act(
        journey(threat=0, party=weary),
        "referee",
        "travel.forced_march",
        [80, 20, 20],
        characters=["g", "s", "c"],
    )
    t = _s_and_c_take_roles(t, [40, 40])  # g: Incapacitated!
    t = act(t, "referee", "journey.camp")
    recovered = last(t, "journey.camp")["recovered"]
    assert recovered["g"].endswith("(no recovery: forced march)")
    assert (recovered["s"], recovered["c"]) == ("Unhindered", "Unhindered")


def test_the_toughness_previews_leave_out_who_cannot_test() -> None:
    """Wilderness travel rules (Toughness Tests): the GM sees the odds of each fit traveller's
    next Toughness Test; an Incapacitated! one tests none."""
    party = {**PARTY, "g": {**PARTY["g"], "peril": "Incapacitated!"}}
    t = _s_and_c_take_roles(journey(threat=0, party=party), [40, 40])
    assert [p.label for p in wilderness.previews(t.state)] == [
        "S tests Toughness",
        "C tests Toughness",
    ]
    hard = roles(journey(terrain="Hard", threat=0), [40, 40, 40])
    assert {p.dice for p in wilderness.previews(hard.state)} == {"d100 ≤ 30"}
    ended = act(hard, "referee", "journey.end")
    assert wilderness.previews(ended.state) == []
    assert wilderness.previews(table(PARTY).state) == []


def test_an_incapacitated_traveller_is_offered_no_role() -> None:
    """Wilderness travel rules (Roles): the Roles go to fit travellers; an Incapacitated! one
    neither takes one nor assists."""
    party = {**PARTY, "g": {**PARTY["g"], "peril": "Incapacitated!"}}
    t = journey(threat=0, party=party)
    offered = wilderness.choices(t.state, REFEREE)
    assert offered[0] == _roles_choice(
        "guide nobody, survivalist s, scout c", survivalist="s", scout="c"
    )
    for choice in offered:
        params = {k: v.values[0] for k, v in choice.params.items() if isinstance(v, OneOf)}
        helpers = params.pop("assists", {"guide": []})
        assert "g" not in [*params.values(), *helpers["guide"]]


def test_with_no_guide_every_fit_traveller_must_take_a_role() -> None:
    """Wilderness travel rules (Roles): with nobody to be the Guide, nobody is left to assist,
    so each fit traveller takes the Role their Skills allow (g may scout, only s is left the
    Survivalist's)."""
    t = table(
        {"g": {"skills": {"Survival": 40, "Stealth": 40}}, "s": {"skills": {"Survival": 40}}},
        journey={"travellers": ["g", "s"], "stretches": [{"days": 1}]},
    )
    assert wilderness.choices(t.state, REFEREE) == [
        _roles_choice("guide nobody, survivalist s, scout g", survivalist="s", scout="g")
    ]


def test_the_toughness_tests_are_at_the_terrains_difficulty_for_each_fit_traveller() -> None:
    """Wilderness travel rules (Toughness Tests): at the terrain's Difficulty (Hard: 50 - 20);
    an Incapacitated! traveller tests none, the others still do."""
    party = {**PARTY, "g": {**PARTY["g"], "peril": "Incapacitated!"}}
    t = journey(terrain="Hard", threat=0, party=party)
    t = _s_and_c_take_roles(t, [20, 20])
    t = act(t, "referee", "journey.toughness", [20, 20])
    tests = last(t, "journey.toughness")["tests"]
    assert [(x["character"], x["test"]["total_chance"]) for x in tests] == [("s", 30), ("c", 30)]
    with pytest.raises(RuleError, match="no journey is under way") as refused:
        act(table(PARTY), "referee", "journey.toughness")
    assert refused.value.rule == "journey.toughness"


def test_travel_that_ends_a_wait_cancels_its_timer_for_the_referee_only() -> None:
    """Waits (ruling 31): the journey's days that end a forced marcher's 24 hours cancel the
    kernel timer, an event only the referee sees, as the timer would have fired."""
    t = act(journey(threat=0), "referee", "travel.forced_march", [80], characters=["g"])
    t = _s_and_c_take_roles(t, [20, 20])
    t = act(t, "referee", "journey.camp")
    [cancelled] = [e for e in t.log.events if e.kind == "timer.cancelled"]
    assert cancelled.data == {"name": "forced-march:g"}
    assert cancelled.audience == REFEREE_ONLY
    assert last(t, "travel.recovery_allowed") == {"character": "g"}


@pytest.mark.parametrize(("face", "surprise"), [(6, "party"), (2, None)])
def test_the_scouts_surprise_comes_with_an_encounter_only(face: int, surprise: str | None) -> None:
    """Wilderness travel rules (Scout, Threat Level): the Scout's Critical Success lowers the
    Threat Level one step and the party surprises an encounter — if the Chaos Dice bring one."""
    t = roles(journey(threat=2), [40, 40, 11])  # Threat 1: one Chaos Die
    t = act(t, "referee", "journey.toughness", [20, 20, 20, face])
    chaos = last(t, "journey.chaos")
    assert (chaos["encounter"], chaos["surprise"]) == (face == 6, surprise)


def test_a_scouts_failure_at_the_highest_threat_level_stays_there() -> None:
    """Threat Level: Highly Dangerous (3 Chaos Dice) is the top of the ladder."""
    assert step_threat(3, 1) == 3
    t = roles(journey(threat=3), [40, 40, 60])
    assert t.state.journey is not None and t.state.journey.threat == 3


def test_role_checks_are_refused_to_the_slain_to_one_with_a_role_and_without_a_journey() -> None:
    """Wilderness travel rules (Roles): one Role per character, none for the Slain!; no Role
    Checks with no journey under way."""
    slain = {**PARTY, "c": {**PARTY["c"], "damage": "Slain!"}}
    with pytest.raises(RuleError, match="c is Slain! and cannot help"):
        act(journey(party=slain), "referee", "journey.roles", guide="g", scout="c")
    with pytest.raises(RuleError, match=r"g already has a Role \(guide\)"):
        act(journey(), "referee", "journey.roles", guide="g", survivalist="g")
    with pytest.raises(RuleError, match="no journey is under way") as refused:
        act(table(PARTY), "referee", "journey.roles", guide="g")
    assert refused.value.rule == "journey.roles"


# ------------------------------------------------------------------------------ events.py


def _lines(t: Table[ZweihanderState], prefix: str) -> list[str]:
    return [describe(e, Viewer(REFEREE)) for e in t.log.events if e.kind.startswith(prefix)]


def test_the_log_tells_a_chase_round_as_it_was_played() -> None:
    """What a person reads of a chase: the ladder with each side, mode, Movement and Value; each
    move's d10; an Action's description, roll and change; a catch; a Takedown's roll and result;
    the Complication die; the end of the Round."""
    t = start(head_start="pursuers")
    t = act(t, "runner", "chase.move", [1])
    t = act(t, "runner", "chase.action", [20], skill="Athletics", description="vaults a cart")
    t = act(t, "chaser", "chase.move", [9])
    t = act(t, "chaser", "chase.takedown", [60])
    t = act(t, "referee", "chase.end_round", [6])
    assert _lines(t, "chase.") == [
        "A chase begins (Escape Condition 3 Rounds). Ladder: Runner (escapee, on foot, "
        "Movement 7, Value 0), Chaser (pursuer, on foot, Movement 6, Value 3).",
        "Runner rolls 1 + Movement 7: Value 8.",
        "Runner takes an Action (vaults a cart) — d100 20: success; Value +1 → 9.",
        "Chaser rolls 9 + Movement 6: Value 18.",
        "Chaser catches up with Runner: Pursuit Value 18 → 9.",
        "Chaser attempts a Takedown on Runner — Chaser's Takedown (Coordination): d100 60: "
        "failure; the Pursuer reduces their Pursuit Value by 1.",
        "Runner's Chaos Die shows [6]: a Complication!",
        "End of Round 1.",
    ]
    quiet = act(
        act(start(), "runner", "chase.move", [1]), "runner", "chase.action", [70], skill="Athletics"
    )
    quiet = act(act(quiet, "chaser", "chase.move", [1]), "referee", "chase.end_round", [3])
    assert _lines(quiet, "chase.")[2:4] == [
        "Runner takes an Action — d100 70: failure; Value +0 → 8.",
        "Chaser rolls 1 + Movement 6: Value 7.",
    ]
    assert _lines(quiet, "chase.complication") == ["Runner's Chaos Die shows [3]: no Complication"]


def test_the_log_tells_a_journey_stretch_by_stretch() -> None:
    """What a person reads of a journey: each Role Check (an unfilled Role an automatic
    Failure), the Toughness Tests and their Peril, the Chaos Dice, the camp, each Stretch's days
    and provisions, journey's end."""
    j = act(
        journey(threat=0, travellers=["g", "s"]),
        "referee",
        "journey.roles",
        [40, 99],
        guide="g",
        survivalist="s",
    )
    j = act(j, "referee", "journey.toughness", [20, 95, 3, 4, 2])
    j = act(j, "referee", "journey.toughness", [20, 20, 6])
    j = act(j, "referee", "journey.camp")
    j = act(j, "referee", "journey.end_stretch")
    j = act(j, "referee", "journey.roles", [40, 40], guide="g", survivalist="s")
    j = act(j, "referee", "journey.toughness", [20, 20, 3])
    j = act(j, "referee", "journey.end_stretch")
    j = act(j, "referee", "journey.end")
    assert _lines(j, "journey.") == [
        "Guide (G) — d100 40: success: 1 day of provisions is required per day of travel",
        "Survivalist (S) — d100 99: critical failure: as Failure, plus add an extra Toughness Test",
        "Scout (nobody (an automatic Failure)) — unfilled: increase Threat Level by 1 step",
        "Toughness Tests: G: success; S: failure, 9 Peril → Imperiled.",
        "1 Chaos Dice show [2]: nothing",
        "Toughness Tests: G: success; S: success.",
        "1 Chaos Dice show [6]: an encounter!",
        "The party Strikes Camp for 24 hours — G: Unhindered, S: Imperiled.",
        "one is behind them: 3 days, 6 days of provisions.",
        "Guide (G) — d100 40: success: 1 day of provisions is required per day of travel",
        "Survivalist (S) — d100 40: success: if they Strike Camp, they may recover to Unhindered",
        "Scout (nobody (an automatic Failure)) — unfilled: increase Threat Level by 1 step",
        "Toughness Tests: G: success; S: success.",
        "1 Chaos Dice show [3]: nothing",
        "two is behind them: 1 day, 2 days of provisions.",
        "Journey's end: survivors G, S; Fortune Points +0.",
    ]
    safe = act(roles(journey(threat=0), [40, 40, 40]), "referee", "journey.toughness", [20, 20, 20])
    assert _lines(safe, "journey.chaos") == ["No Chaos Dice (No Danger)."]


def test_the_log_tells_a_journeys_corruption_surprise_and_losses() -> None:
    """The log also says who gains Corruption by becoming Incapacitated!, who gets the Surprise
    Turn, when nobody can test Toughness, and a journey that nobody survived; the kernel's own
    events are told by kind and data."""
    t = roles(journey(threat=0), [40, 40, 40])
    t = act(t, "referee", "journey.toughness", [20, 99, 10, 10, 10, 20])
    assert _lines(t, "journey.toughness") == [
        "Toughness Tests: G: success; S: critical failure, 33 Peril → Incapacitated!; "
        "C: success. S gains 6 Corruption (Becoming Incapacitated! on the Peril Condition Track)."
    ]
    t = act(roles(journey(threat=2), [40, 40, 11]), "referee", "journey.toughness", [20, 20, 20, 6])
    assert _lines(t, "journey.chaos") == [
        "1 Chaos Dice show [6]: an encounter! (party get the Surprise Turn)"
    ]
    down = {who: {**PARTY[who], "peril": "Incapacitated!"} for who in PARTY}
    t = act(journey(threat=0, party=down), "referee", "journey.roles")
    t = act(t, "referee", "journey.toughness", [2])
    assert _lines(t, "journey.toughness") == ["Toughness Tests: nobody can test."]
    slain = {who: {**PARTY[who], "damage": "Slain!"} for who in PARTY}
    t = act(journey(party=slain), "referee", "journey.end")
    assert _lines(t, "journey.ended") == ["Journey's end: survivors none; Fortune Points +0."]
    assert describe(Event("timer.cancelled", {"name": "x"}), Viewer(REFEREE)) == (
        "timer.cancelled: name='x'"
    )
    assert describe(Event("timer.fired", {}), Viewer(REFEREE)) == "timer.fired"


def test_the_log_names_every_corruption_gained_and_every_field_of_a_kernel_event() -> None:
    t = roles(journey(threat=0), [40, 40, 40])
    t = act(t, "referee", "journey.toughness", [99, 10, 10, 10, 99, 10, 10, 10, 20])
    [line] = _lines(t, "journey.toughness")
    assert line.endswith(
        " G gains 6 Corruption (Becoming Incapacitated! on the Peril Condition Track)."
        " S gains 6 Corruption (Becoming Incapacitated! on the Peril Condition Track)."
    )
    assert PROCEDURE.describe(Event("timer.set", {"name": "x", "after": 3}), Viewer("g")) == (
        "timer.set: name='x', after=3"
    )


def test_the_gm_previews_the_journeys_toughness_tests_and_everyone_a_chases_takedowns() -> None:
    """The checks about to be rolled: a caught-up Pursuer's Takedown for everyone, the next
    Toughness Tests of a journey for the GM only."""
    hunt = act(start(), "runner", "chase.move", [1])
    hunt = act(hunt, "chaser", "chase.move", [9])
    trek = roles(journey(threat=0), [40, 40, 40])
    both = replace(
        hunt.state,
        journey=trek.state.journey,
        characters=trek.state.characters + hunt.state.characters,
    )
    takedown = chase.previews(both)
    toughness = wilderness.previews(both)
    assert len(takedown) == 1 and len(toughness) == 3
    assert PROCEDURE.previews(both, Viewer(REFEREE)) == (*takedown, *toughness)
    assert PROCEDURE.previews(both, Viewer("runner")) == tuple(takedown)


# ------------------------------------------------------------------------------ procedure.py


def test_whose_move_it_is_follows_the_chase_ladder_and_otherwise_every_living_character() -> None:
    """Outside a chase the GM and every character not Slain! may act; in a chase, the GM, the
    one who just moved (their Action), a Pursuer who caught up (their Takedown) and the next on
    the ladder; once the chase has ended, everyone again."""
    chars = {"runner": RUNNER, "chaser": CHASER, "dead": {**CHASER, "damage": "Slain!"}}
    t = start(chars=chars)
    assert PROCEDURE.actors(table(chars).state) == (REFEREE, "runner", "chaser")
    assert PROCEDURE.actors(t.state) == (REFEREE, "runner")
    t = act(t, "runner", "chase.move", [1])
    assert PROCEDURE.actors(t.state) == (REFEREE, "runner", "chaser")
    t = act(t, "chaser", "chase.move", [9])  # caught up; nobody left to move
    assert PROCEDURE.actors(t.state) == (REFEREE, "chaser")
    t = act(t, "referee", "chase.give_up", side="escapees")
    assert PROCEDURE.actors(t.state) == (REFEREE, "runner", "chaser")


# ---------------------------------------------------------------- waits, stable, narrative


def test_travel_releases_every_wait_it_passes_at_once() -> None:
    """Waits (ruling 31): a camp that ends two forced marchers' 24 hours releases both."""
    t = act(journey(threat=0), "referee", "travel.forced_march", [80, 80], characters=["g", "s"])
    t = act(t, "referee", "journey.roles", [20], scout="c")
    t = act(t, "referee", "journey.camp")
    cancelled = [e.data["name"] for e in t.log.events if e.kind == "timer.cancelled"]
    assert cancelled == ["forced-march:g", "forced-march:s"]
    assert t.state.no_recovery == () and t.state.waits == ()


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
    ("sheet", "reason"),
    [
        ({"wits": 3}, "Extra inputs are not permitted"),
        ({"bonuses": {"XB": 3}}, "not a Bonus (CB, BB, AB, PB, IB, WB, FB)"),
    ],
)
def test_a_bad_setup_field_is_refused_with_a_plain_reason(
    sheet: dict[str, Any], reason: str
) -> None:
    """A setup's refusal reads as the rule it breaks: an unknown field, a Bonus that is none."""
    with pytest.raises(ScenarioError) as refused:
        table({"a": sheet})
    assert refused.value.reason == reason
    with pytest.raises(ScenarioError) as refused:
        table({"a": {}}, fortune_points=-1)
    assert (refused.value.reason, refused.value.path) == (
        "Input should be greater than or equal to 0",
        ("fortune_points",),
    )
