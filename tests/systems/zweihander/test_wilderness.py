"""Wilderness travel rules: Stretches, terrain, Threat Level, Roles, Toughness, Chaos, camp; the
GM's default play of a journey and its log. (Stretches, Role Checks, Toughness Tests and Strike
Camp each have a file of their own too.)"""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import (
    REFEREE,
    Action,
    ActionError,
    Event,
    RuleError,
    ScenarioError,
    Viewer,
)
from referee.dice import RandomSource, ScriptedSource
from referee.systems.zweihander import emit
from referee.systems.zweihander.events import (
    JOURNEY_CAMP,
    JOURNEY_ENDED,
    JOURNEY_ROLE_CHECK,
    JOURNEY_STRETCH_ENDED,
    describe,
)
from referee.systems.zweihander.percentile import ChaosDice
from referee.systems.zweihander.wilderness import (
    Stretch,
    parse_stretch,
    step_threat,
    terrain_difficulty,
    threat_level,
    toughness_tests,
    travel_on,
)

from .helpers import _journey, _lines, act, last, table

PARTY = {
    "g": {"bonuses": {"WB": 3}, "skills": {"Navigation": 50, "Toughness": 50}},
    "s": {"bonuses": {"WB": 3}, "skills": {"Survival": 50, "Toughness": 50}},
    "c": {"bonuses": {"WB": 3}, "skills": {"Stealth": 50, "Toughness": 50}},
}


def journey(
    length: str = "short",
    terrain: Any = "Standard",
    threat: Any = 1,
    conveyed: bool = False,
    bad_weather: bool = False,
    days: int | None = None,
    travellers: list[str] | None = None,
    party: dict[str, Any] | None = None,
) -> Any:
    if days is None:
        days = {"short": 3, "medium": 10, "long": 21}[length]
    return table(
        party or PARTY,
        journey={
            "travellers": travellers or ["g", "s", "c"],
            "stretches": [
                {
                    "name": "one",
                    "length": length,
                    "terrain": terrain,
                    "threat": threat,
                    "conveyed": conveyed,
                    "bad_weather": bad_weather,
                    "days": days,
                },
                {"name": "two", "length": "short", "terrain": "Standard", "days": 1},
            ],
        },
    )


def roles(t: Any, dice: list[int]) -> Any:
    return act(t, "referee", "journey.roles", dice, guide="g", survivalist="s", scout="c")


@pytest.mark.parametrize(("length", "tests"), [("short", 1), ("medium", 2), ("long", 3)])
def test_stretch_lengths_and_their_toughness_tests(length: str, tests: int) -> None:
    assert toughness_tests(length) == tests
    t = roles(journey(length=length), [40, 40, 40])
    assert t.state.journey.toughness_tests_left == tests  # type: ignore[union-attr]


def test_terrain_difficulty_and_bad_weather() -> None:
    assert terrain_difficulty("deserts") == -30
    assert terrain_difficulty("taiga") == -20
    assert terrain_difficulty("caverns") == -10
    assert terrain_difficulty("marshes") == 0
    assert terrain_difficulty("upriver") == 10
    assert terrain_difficulty("meadows") == 20
    assert terrain_difficulty("paved roads") == 30
    assert terrain_difficulty("meadows", bad_weather=True) == 10
    assert terrain_difficulty("mountains", bad_weather=True) == -30
    with pytest.raises(RuleError):
        terrain_difficulty("lava")


def test_threat_levels_are_chaos_dice() -> None:
    assert [
        threat_level(n)
        for n in ("No Danger", "Mildly Dangerous", "Moderately Dangerous", "Highly Dangerous")
    ] == [0, 1, 2, 3]
    assert step_threat(2, 1) == 3 and step_threat(0, -1) == 0


def test_role_checks_in_order_at_terrain_difficulty() -> None:
    t = roles(journey(terrain="Hard"), [20, 20, 20])
    checks = [e.data for e in t.log.events if e.kind == "journey.role_check"]
    assert [c["role"] for c in checks] == ["Guide", "Survivalist", "Scout"]
    assert [c["test"]["total_chance"] for c in checks] == [30, 30, 30]


@pytest.mark.parametrize(
    ("face", "per_day", "terrain"), [(11, 1, 10), (40, 1, 0), (60, 2, 0), (99, 2, -10)]
)
def test_guide_provisions_and_terrain_steps(face: int, per_day: int, terrain: int) -> None:
    t = roles(journey(), [face, 40, 40])
    j = t.state.journey
    assert j is not None
    assert (j.provisions_per_day, j.terrain) == (per_day, terrain)
    # the Guide's terrain change applies to the checks that follow (Referee's ruling)
    assert last(t, "journey.role_check")["test"]["total_chance"] == 50 + terrain


@pytest.mark.parametrize(
    ("face", "recovery", "tests"),
    [(11, "Unhindered", 0), (40, "Unhindered", 1), (60, "Imperiled", 1), (99, "Imperiled", 2)],
)
def test_survivalist_recovery_and_toughness_tests(face: int, recovery: str, tests: int) -> None:
    t = roles(journey(), [40, face, 40])
    j = t.state.journey
    assert j is not None and (j.camp_recovery, j.toughness_tests_left) == (recovery, tests)


@pytest.mark.parametrize(
    ("face", "threat", "surprise"),
    [(11, 0, "party"), (40, 0, None), (60, 2, None), (99, 2, "enemies")],
)
def test_scout_threat_and_surprise(face: int, threat: int, surprise: str | None) -> None:
    t = roles(journey(threat=1), [40, 40, face])
    j = t.state.journey
    assert j is not None and (j.threat, j.surprise) == (threat, surprise)


def test_an_unfilled_role_counts_as_a_failure() -> None:
    t = act(
        journey(travellers=["g", "s"]),
        "referee",
        "journey.roles",
        [40, 40],
        guide="g",
        survivalist="s",
    )
    scout = last(t, "journey.role_check")
    assert scout["unfilled"] is True and scout["outcome"] == "failure"
    assert t.state.journey.threat == 2  # type: ignore[union-attr]


def test_every_character_takes_a_role_or_assists() -> None:
    with pytest.raises(RuleError, match="must take a Role or assist another: C has none"):
        act(journey(), "referee", "journey.roles", [], guide="g", survivalist="s")


def test_one_role_per_character_and_assists_give_an_assist_die() -> None:
    with pytest.raises(
        RuleError, match="G already is the guide and cannot also be the survivalist"
    ):
        act(
            journey(),
            "referee",
            "journey.roles",
            [40, 40, 40],
            guide="g",
            survivalist="g",
            scout="c",
        )
    t = act(
        journey(travellers=["g", "s", "c"]),
        "referee",
        "journey.roles",
        [57, 3, 40],
        guide="g",
        scout="c",
        assists={"guide": ["s"]},
    )
    guide = next(e.data for e in t.log.events if e.kind == "journey.role_check")
    assert guide["test"]["assist"] is True and guide["test"]["face"] == 37


def test_toughness_peril_and_chaos_dice_after_each_test() -> None:
    t = roles(journey(length="medium", threat=2), [40, 40, 40])  # threat 2 - 1 = 1
    t = act(t, "referee", "journey.toughness", [20, 60, 3, 4, 88, 10, 10, 10, 6])
    tests = last(t, "journey.toughness")["tests"]
    assert [x.get("peril") for x in tests] == [None, 9, 33]
    chaos = last(t, "journey.chaos")
    assert chaos["chaos_dice"] == 1 and chaos["encounter"] is True
    t = act(t, "referee", "journey.toughness", [20, 20, 5])  # c is Incapacitated!: no test
    assert len([e for e in t.log.events if e.kind == "journey.chaos"]) == 2
    with pytest.raises(RuleError, match="no Toughness Test is due"):
        act(t, "referee", "journey.toughness", [])


def test_assist_die_on_toughness_when_conveyed() -> None:
    t = roles(journey(conveyed=True, threat=0), [40, 40, 40])
    t = act(t, "referee", "journey.toughness", [57, 3, 57, 3, 57, 3])
    assert all(
        x["test"]["assist"] and x["test"]["face"] == 37
        for x in last(t, "journey.toughness")["tests"]
    )


def test_striking_camp_recovers_to_imperiled_or_unhindered() -> None:
    t = roles(journey(threat=0), [40, 60, 40])  # Survivalist fails: Imperiled
    t = act(t, "referee", "journey.toughness", [11, 99, 10, 10, 10, 99, 10, 10, 10])
    assert t.state.character("s").peril_condition == "Incapacitated!"
    t = act(t, "referee", "journey.camp")
    assert last(t, "journey.camp")["recovered"] == {
        "g": "Unhindered",
        "s": "Imperiled",
        "c": "Imperiled",
    }
    assert t.state.journey.days == 1  # type: ignore[union-attr]


def test_end_of_stretch_provisions_and_the_next_stretch() -> None:
    t = roles(journey(days=3), [60, 40, 40])  # 2 provisions per day
    t = act(t, "referee", "journey.toughness", [20, 20, 20])  # Threat 0: no Chaos Dice
    t = act(t, "referee", "journey.end_stretch")
    assert last(t, "journey.stretch_ended")["provisions"] == 3 * 2 * 3
    j = t.state.journey
    assert j is not None and (j.index, j.phase, j.days) == (1, "roles", 3)


def test_fortune_points_for_survivors_at_the_gms_choice() -> None:
    t = act(journey(), "referee", "journey.end", award_fortune=True)
    assert t.state.fortune_points == 3
    assert act(journey(), "referee", "journey.end").state.fortune_points == 0


def test_a_bad_route_is_refused_with_its_path() -> None:
    with pytest.raises(ScenarioError, match=r"journey\.stretches\.0"):
        table(PARTY, journey={"travellers": ["g"], "stretches": [{"length": "endless"}]})


def test_a_journey_started_by_action() -> None:
    route = {"travellers": ["g"], "stretches": [{"terrain": "meadows", "days": 2}]}
    t = act(table(PARTY), "referee", "journey.start", **route)
    j = t.state.journey
    assert j is not None and j.terrain == 20 and j.stretch.days == 2
    with pytest.raises(RuleError, match="already under way"):
        act(t, "referee", "journey.start", **route)
    with pytest.raises(ActionError, match=r"journey\.start\.travellers: missing"):
        act(table(PARTY), "referee", "journey.start", stretches=[{}])


def test_a_stretch_with_no_toughness_test_left_still_rolls_its_chaos_dice() -> None:
    """Threat Level's Chaos Dice are rolled at the beginning of every Stretch: when the
    Survivalist's Critical Success leaves a Short Stretch with no Toughness Test, they are rolled
    right after the Role Checks."""
    t = roles(journey(threat=2), [40, 11, 60, 6, 2, 3])  # Scout fails: Threat 3
    j = t.state.journey
    assert j is not None and j.toughness_tests_left == 0
    chaos = last(t, "journey.chaos")
    assert chaos["chaos_dice"] == 3 and chaos["faces"] == [6, 2, 3] and chaos["encounter"]
    assert j.encounters == 1
    t = act(t, "referee", "journey.end_stretch")
    assert len([e for e in t.log.events if e.kind == "journey.chaos"]) == 1


def test_a_stretch_flag_that_is_not_true_or_false_is_refused() -> None:
    with pytest.raises(ScenarioError, match=r"journey\.stretches\.0\.bad_weather"):
        table(PARTY, journey={"travellers": ["g"], "stretches": [{"bad_weather": "false"}]})


def test_an_incapacitated_character_cannot_assist_a_role_check() -> None:
    party = {**PARTY, "s": {**PARTY["s"], "peril": "Incapacitated!"}}
    t = table(party, journey={"travellers": ["g", "s", "c"], "stretches": [{"days": 1}]})
    with pytest.raises(RuleError, match="S is Incapacitated! and cannot help"):
        act(
            t,
            "referee",
            "journey.roles",
            [57, 3, 40],
            guide="g",
            scout="c",
            assists={"guide": ["s"]},
        )


def test_striking_camp_recovers_peril_not_damage() -> None:
    """Audit M2, ruling R1 (b): Striking Camp recovers Peril as the Survivalist's and Toughness
    results say; Damage needs treatment (the parent game's), not a night's rest."""
    hurt = {**PARTY, "g": {**PARTY["g"], "damage": "Moderately Wounded", "peril": 2}}
    t = roles(journey(threat=0, party=hurt), [40, 40, 40])
    t = act(t, "referee", "journey.toughness", [20, 20, 20])
    t = act(t, "referee", "journey.camp")
    g = t.state.character("g")
    assert g.peril_condition == "Unhindered" and g.damage_condition == "Moderately Wounded"


@pytest.mark.parametrize(
    ("stretch", "length", "days"),
    [
        ({"length": "short"}, "short", 1),
        ({"length": "medium"}, "medium", 7),
        ({"length": "long"}, "long", 21),
        ({"days": 5}, "short", 5),
        ({"days": 10}, "medium", 10),
        ({"days": 30}, "long", 30),
        ({"length": "short", "days": 7}, "short", 7),
        ({"length": "medium", "days": 7}, "medium", 7),
    ],
)
def test_a_stretchs_length_and_its_days_agree(
    stretch: dict[str, Any], length: str, days: int
) -> None:
    """Audit M3: "A Short Stretch is about anything from a day to a week's travel", a Medium
    "somewhere between a week or two", a Long "three weeks or more": one gives the other."""
    t = table(PARTY, journey={"travellers": ["g"], "stretches": [stretch]})
    j = t.state.journey
    assert j is not None and (j.stretch.length, j.stretch.days) == (length, days)


@pytest.mark.parametrize(
    "stretch",
    [
        {"length": "short", "days": 30},
        {"length": "medium", "days": 2},
        {"length": "long", "days": 20},
    ],
)
def test_a_stretch_whose_days_do_not_fit_its_length_is_refused(stretch: dict[str, Any]) -> None:
    with pytest.raises(ScenarioError, match=r"journey\.stretches\.0"):
        table(PARTY, journey={"travellers": ["g"], "stretches": [stretch]})


def test_becoming_incapacitated_gives_6_corruption() -> None:
    """Audit M4: "Becoming Incapacitated! on the Peril Condition Track (6)", whatever made it so
    (here a journey's Toughness Test)."""
    t = roles(journey(threat=0), [40, 40, 40])
    t = act(t, "referee", "journey.toughness", [20, 99, 10, 10, 10, 20])  # s: 33 Peril
    assert t.state.character("s").is_incapacitated
    assert t.state.character("s").corruption == 6
    assert last(t, "journey.toughness")["offences"] == [
        {
            "character": "s",
            "offence": "Becoming Incapacitated! on the Peril Condition Track",
            "points": 6,
        }
    ]
    assert t.state.character("g").corruption == 0


def test_a_critical_success_at_toughness_recovers_to_unhindered_at_camp() -> None:
    """Audit U4: "Critical Success; as Success, plus recover to Unhindered if they Strike
    Camp", even when the Survivalist failed (the others recover to Imperiled)."""
    weary = {**PARTY, "c": {**PARTY["c"], "peril": "Ignore 2 Skill Ranks"}}
    t = roles(journey(threat=0, party=weary), [40, 60, 40])  # the Survivalist fails
    t = act(t, "referee", "journey.toughness", [20, 20, 11])  # c: 11, a Critical Success
    t = act(t, "referee", "journey.camp")
    assert last(t, "journey.camp")["recovered"]["c"] == "Unhindered"


def test_fortune_points_are_for_the_surviving_characters_only() -> None:
    """Audit U5: "Fortune Points equal to the number of surviving characters"."""
    slain = {**PARTY, "c": {**PARTY["c"], "damage": "Slain!"}}
    t = act(journey(party=slain), "referee", "journey.end", award_fortune=True)
    assert t.state.fortune_points == 2
    assert last(t, "journey.ended")["survivors"] == ["g", "s"]


def test_a_journey_travelled_on_by_default_makes_no_camp_and_awards_no_fortune() -> None:
    """Wilderness travel: Strike Camp and the Fortune Points at journey's end are the GM's to
    give; travelled on by default, each Stretch gets its Roles and Toughness Tests, no camp, and
    the journey ends with no Fortune awarded — the same journey, with the same dice, each time."""
    done = travel_on(_journey(), RandomSource(3))
    kinds = [e.kind for e in done.log.events]
    assert kinds.count(JOURNEY_STRETCH_ENDED) == 2 and JOURNEY_CAMP not in kinds
    roles = {e.data["role"]: e.data["character"] for e in done.log if e.kind == JOURNEY_ROLE_CHECK}
    assert roles == {"Guide": "anna", "Survivalist": "bert", "Scout": "cora"}  # each by Skill
    assert kinds[-1] == JOURNEY_ENDED and done.log.events[-1].data["fortune_points"] == 0
    assert travel_on(_journey(), RandomSource(3)).log.events == done.log.events
    with pytest.raises(RuleError, match="no journey is under way"):
        travel_on(done, RandomSource(3))


def test_a_journey_past_its_first_stretch_is_travelled_on_to_its_end() -> None:
    """Wilderness travel: a journey whose first Stretch the GM has played by hand is travelled
    on from its second — one more Stretch, then journey's end."""
    dice = RandomSource(3)
    t = _journey().act(
        Action(
            "referee", "journey.roles", {"guide": "anna", "survivalist": "bert", "scout": "cora"}
        ),
        dice,
    )
    while (j := t.state.journey) is not None and j.toughness_tests_left > 0:
        t = t.act(Action("referee", "journey.toughness"), dice)
    t = t.act(Action("referee", "journey.end_stretch"), dice)
    assert t.state.journey is not None and t.state.journey.index == 1
    done = travel_on(t, dice)
    ended = [e.data["stretch"] for e in done.log if e.kind == JOURNEY_STRETCH_ENDED]
    assert ended == ["the old forest road", "the Grey Peaks"]
    assert done.log.events[-1].kind == JOURNEY_ENDED
    assert done.state.journey is not None and done.state.journey.ended


def test_a_scouts_failure_at_the_highest_threat_level_stays_there() -> None:
    """Threat Level: Highly Dangerous (3 Chaos Dice) is the top of the ladder."""
    assert step_threat(3, 1) == 3
    t = roles(journey(threat=3), [40, 40, 60])
    assert t.state.journey is not None and t.state.journey.threat == 3


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


def test_bad_weather_makes_the_terrain_a_step_harder_and_a_conveyed_party_is_kept() -> None:
    """Wilderness travel rules (Terrain): bad weather makes the terrain's Difficulty one step
    harder; the Stretch keeps whether the party is conveyed."""
    s = parse_stretch(
        {
            "name": "the pass",
            "length": "medium",
            "terrain": "Standard",
            "threat": 2,
            "days": 9,
            "bad_weather": True,
            "conveyed": True,
        },
        0,
    )
    assert s == Stretch("the pass", "medium", -10, 2, 9, True, True)


def test_chaos_dice_with_no_six_bring_no_encounter() -> None:
    """Wilderness travel rules (Threat Level): only a 6 on the Chaos Dice is an encounter."""
    t = roles(journey(threat=1), [40, 40, 60])  # the Scout fails: Threat 2, two Chaos Dice
    t = act(t, "referee", "journey.toughness", [20, 20, 20, 1, 2])
    assert last(t, "journey.chaos")["encounter"] is False
    assert t.state.journey is not None and t.state.journey.encounters == 0


def test_an_unknown_terrain_is_refused_naming_the_terrains_the_text_lists() -> None:
    """Wilderness travel rules (Terrain): a terrain is one the text lists or a Difficulty
    Rating; the refusal lists the text's terrains, one after the other."""
    with pytest.raises(RuleError) as refused:
        terrain_difficulty("lava")
    reason = refused.value.reason
    assert "rough seas and oceans, river rapids, blighted areas" in reason
    assert "paved roads, gravelled paths, signed and patrolled roadways" in reason
    assert "XX" not in reason


def test_there_are_four_threat_levels_and_no_fifth() -> None:
    """Wilderness travel rules (Threat Level): No Danger, Mildly, Moderately and Highly
    Dangerous — 0 to 3 Chaos Dice; a fifth level is refused, naming the four."""
    assert [threat_level(n) for n in range(4)] == [0, 1, 2, 3]
    for bad in (4, -1):
        with pytest.raises(RuleError) as refused:
            threat_level(bad)
        assert refused.value.reason == (
            f"{bad} is not a Threat Level (No Danger, Mildly Dangerous, Moderately Dangerous, "
            "Highly Dangerous, or 0-3)"
        )


def test_no_chaos_dice_show_no_dice() -> None:
    """Threat Level "No Danger" rolls 0 Chaos Dice: the card shows "no dice", never
    triggered."""
    none = ChaosDice(0)
    card = emit.chaos_card(none, none.roll(ScriptedSource([])), "Chaos Dice", "Threat Level")
    assert (card["shown"], card["outcome"], card["faces"]) == ("no dice", "not triggered", [])
    two = ChaosDice(2)
    card = emit.chaos_card(two, two.roll(ScriptedSource([6, 2])), "Chaos Dice", "Threat Level")
    assert card["shown"] == "6, 2"
