"""Tests that kill the mutants mutmut left alive (issue 13, docs/systems/zweihander.md,
"Mutation testing"): each asserts an outcome of the house rules text.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml

from referee.core import (
    DAY,
    Action,
    Between,
    Event,
    OneOf,
    RuleError,
    ScenarioError,
    SomeOf,
    Table,
    Viewer,
)
from referee.core.cards import odds_of as card_odds
from referee.core.table import preview
from referee.dice import RandomSource, ScriptedSource
from referee.systems.zweihander import SYSTEM, emit
from referee.systems.zweihander.character import Character
from referee.systems.zweihander.chase import play_out
from referee.systems.zweihander.events import (
    CHASE_ATTACKED,
    CHASE_CAUGHT_UP,
    CHASE_ENDED,
    CHASE_FATIGUE,
    CHASE_ROUND_ENDED,
    CHASE_TAKEDOWN,
    FORCED_MARCH,
    JOURNEY_CAMP,
    JOURNEY_ENDED,
    JOURNEY_ROLE_CHECK,
    JOURNEY_STARTED,
    JOURNEY_STRETCH_ENDED,
    SIMPLE_EXCHANGE,
    describe,
)
from referee.systems.zweihander.madness import choices as madness_choices
from referee.systems.zweihander.madness import offence, withstand
from referee.systems.zweihander.morale import choices as morale_choices
from referee.systems.zweihander.overland import Route, miles_per_day, transport_row
from referee.systems.zweihander.percentile import (
    SkillTest,
    _difficulty_words,
    canonical,
    difficulty,
)
from referee.systems.zweihander.reputation import can_requisition
from referee.systems.zweihander.state import ZweihanderState
from referee.systems.zweihander.wilderness import travel_on

from .helpers import act, last
from .helpers import table as social_table
from .test_odds_of import exchange, table
from .test_social import CHARS


def test_a_requisition_waits_from_the_last_one_not_from_the_start() -> None:
    """Reputation, Requisition: a minor requisition once a day, counted from the last one (on
    day 5, the next on day 6, not before)."""
    last = 5 * DAY
    assert not can_requisition("minor", last=last, now=last + DAY - 1)
    assert can_requisition("minor", last=last, now=last + DAY)
    assert not can_requisition("middling", last=last, now=last + 7 * DAY - 1)


def test_a_transport_named_alone_finds_its_row() -> None:
    """Distance table: "dwarf, halfling, gnome (on foot)" — a gnome walks 10 miles a day by
    road; a row may be named whole, in any case."""
    assert transport_row("gnome").road == 10
    assert transport_row("Ogre").road == 15
    assert transport_row("Chariot, Wagon").path == 8


def test_currents_on_sea_and_no_forced_march_on_water() -> None:
    """Waterways: a current or good winds apply on river or sea (+5 at sea: 35); a forced
    march is made on road or path, never on river or sea."""
    assert miles_per_day("longship", "sea", current=5) == 35
    assert miles_per_day("longship", "river", current=-5) == 10
    for route in ("river", "sea"):
        with pytest.raises(RuleError, match="Forced march"):
            miles_per_day("longship", route, forced_march=True)
    assert miles_per_day("horse", "road", forced_march=True) == 50


def test_a_route_from_a_file_defaults_to_a_human_walking_by_road() -> None:
    """Overland exploration: a leg names its distance; transport, route and flags default to
    a human on foot, by road, no forced march, fair weather (15 miles a day)."""
    route = Route.from_data({"legs": [{"distance": 30}, {"distance": 0}]})
    first = route.legs[0]
    assert (first.transport, first.route, first.forced_march, first.bad_weather) == (
        "human",
        "road",
        False,
        False,
    )
    assert (first.days, route.legs[1].days) == (2, 0)


@pytest.mark.parametrize(
    "data",
    [
        [{"distance": 30}],
        {"legs": []},
        {"legs": [{"distance": "thirty"}]},
        {"legs": [{"distance": 30, "bad_weather": "yes"}]},
        {"legs": [{"distance": 30, "forced_march": 1}]},
    ],
    ids=["not-a-mapping", "no-legs", "distance-not-a-number", "weather-not-a-flag", "march-int"],
)
def test_a_bad_route_is_refused_by_name(data: object) -> None:
    """A route file's errors are ScenarioErrors naming the field, never a traceback."""
    with pytest.raises(ScenarioError):
        Route.from_data(data)


def test_the_gm_previews_an_unfavourable_tactic_with_its_bump() -> None:
    """Social Tactics: the GM's Unfavourable Skill turns the Test's failures critical; the GM's
    preview shows the odds as they will be read and names the bump; a player's does not."""
    t = exchange("Guile", "Charm")
    gm = preview(t, "referee", Action("anna", "exchange.tactic", {"tactic": "Charm"}))
    assert [(p.label, p.rule) for p in gm] == [
        ("Anna uses Charm (your Unfavourable Skill)", "Complex Exchange")
    ]
    assert dict(gm[0].odds) == card_odds(SkillTest(50, 20, unfavourable=True).odds())
    theirs = preview(t, "alice", Action("anna", "exchange.tactic", {"tactic": "Charm"}))
    assert [(p.label, p.rule) for p in theirs] == [("Anna uses Charm", "Complex Exchange")]
    fav = preview(
        exchange("Charm", "Guile"),
        "referee",
        Action("anna", "exchange.tactic", {"tactic": "Charm"}),
    )
    assert fav[0].label == "Anna uses Charm (your Favourable Skill)"


def test_a_simple_exchange_and_a_skill_test_preview_name_their_rule() -> None:
    """Simple Exchange and Skill Tests: the preview names the roller, the Skill and the rule."""
    t = table()
    simple = preview(
        t, "alice", Action("anna", "social.simple", {"skill": "Charm", "npc_alignment": "order"})
    )
    assert [(p.label, p.rule) for p in simple] == [("Anna tests Charm", "Simple Exchange")]
    chance = preview(t, "alice", Action("anna", "test", {"chance": 40}))
    assert [(p.label, p.rule) for p in chance] == [("Anna tests a chance", "Skill Test")]


def test_a_simple_exchange_records_who_tested_which_skill() -> None:
    """Simple Exchange: one Test of the Skill; its event names the character and the Skill, and
    its roll card the rule."""
    t = act(
        social_table(CHARS),
        "anna",
        "social.simple",
        [40],
        skill="Charm",
        npc_alignment="order",
        npc_class="burgher",
    )
    data = last(t, "social.simple_exchange")
    assert (data["character"], data["test"]["skill"], data["test"]["outcome"]) == (
        "anna",
        "Charm",
        "success",
    )
    card = data["roll"]
    assert (card["label"], card["rule"]) == (
        "Anna tests Charm (Simple Exchange)",
        "Simple Exchange",
    )


# -- the GM's default play of a chase and a journey (issue 13, round 2) -------------------------

CLI_FILES = Path(__file__).parents[3] / "examples" / "zweihander" / "cli"


def _chase(seed: int, escape_condition: int = 9) -> Table[ZweihanderState]:
    setup = yaml.safe_load((CLI_FILES / "chase.yaml").read_text(encoding="utf-8"))
    table = SYSTEM.new_table(setup)
    start: dict[str, Any] = {
        "escapees": ["cutpurse"],
        "pursuers": ["watchman", "hound"],
        "escape_condition": escape_condition,
    }
    return table.act(Action("referee", "chase.start", start), RandomSource(seed))


@pytest.mark.parametrize("seed", [1, 5, 9, 12])
def test_a_chase_played_out_ends_and_every_pursuer_who_catches_up_attempts_a_takedown(
    seed: int,
) -> None:
    """Chases ("Takedown": a Pursuer who catches up with an Escapee may attempt one): played
    out as the GM would by default, every catch-up is followed by that Pursuer's Takedown,
    the chase ends, and nothing is played after its end."""
    done = play_out(_chase(seed), RandomSource(seed))
    assert done.state.chase is not None and done.state.chase.ended is not None
    kinds = [e.kind for e in done.log.events]
    caught = [i for i, k in enumerate(kinds) if k == CHASE_CAUGHT_UP]
    assert caught, "each of these seeds has a pursuer catch up"
    for i in caught:
        who = done.log.events[i].data["participant"]
        takedown = next(e for e in done.log.events[i:] if e.kind == CHASE_TAKEDOWN)
        assert takedown.data["participant"] == who
    assert kinds.count(CHASE_TAKEDOWN) == len(caught)
    assert kinds[-1] == CHASE_ENDED


def test_a_chase_played_out_stops_at_its_escape_condition() -> None:
    """Chases, the Escape Condition: "3, 6 or 9 Rounds have passed" — a chase set to end after
    3 Rounds is played out to no more than 3."""
    done = play_out(_chase(15, escape_condition=3), RandomSource(15))
    kinds = [e.kind for e in done.log.events]
    assert kinds.count(CHASE_ROUND_ENDED) <= 3 and kinds[-1] == CHASE_ENDED


def _journey() -> Table[ZweihanderState]:
    setup = yaml.safe_load((CLI_FILES / "route.yaml").read_text(encoding="utf-8"))
    return SYSTEM.new_table(setup)


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


def test_a_journey_travelled_on_at_a_seated_table_is_the_referees_doing() -> None:
    """The table record: at a table with seats, every step of the GM's default play is taken
    from the referee's seat and recorded as his."""
    setup = yaml.safe_load((CLI_FILES / "route.yaml").read_text(encoding="utf-8"))
    table = SYSTEM.new_table(setup, players={"pat": ["anna"]})
    done = travel_on(table, RandomSource(3), camp=True)
    taken = list(done.actions)[len(table.actions) :]
    assert taken and {(a.seat, a.actor) for a in taken} == {("referee", "referee")}
    assert [e.kind for e in done.log.events].count(JOURNEY_CAMP) == 2


def _faces(table: Table[ZweihanderState]) -> set[int]:
    found: set[int] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if key in ("faces", "peril_faces") and isinstance(item, list):
                    found.update(int(f) for f in item)
                else:
                    walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for event in table.log.events:
        walk(dict(event.data))
    return found


def test_the_gms_default_play_rolls_the_dice_it_is_given() -> None:
    """The table record: a chase played out and a journey travelled on roll the dice they are
    handed, every step of the way (here every die shows 5)."""
    fives = ScriptedSource([5] * 2000)
    journey = travel_on(_journey(), fives, camp=True)
    assert _faces(journey) == {5}
    chase = play_out(_chase(1), ScriptedSource([5] * 2000))
    assert _faces(chase) <= {5} | _faces(_chase(1))


def test_a_chase_played_out_at_a_seated_table_is_the_referees_doing() -> None:
    """The table record: the GM's default play of a chase is taken from the referee's seat
    when the table has seats; with no chase under way there is nothing to play out."""
    setup = yaml.safe_load((CLI_FILES / "chase.yaml").read_text(encoding="utf-8"))
    table = SYSTEM.new_table(setup, players={"pat": ["cutpurse"]})
    with pytest.raises(RuleError, match="no chase is under way"):
        play_out(table, RandomSource(1))
    start = {"escapees": ["cutpurse"], "pursuers": ["watchman", "hound"]}
    table = table.act(Action("referee", "chase.start", start), RandomSource(5), seat="referee")
    done = play_out(table, RandomSource(5))
    taken = list(done.actions)[len(table.actions) :]
    assert taken and {a.seat for a in taken} == {"referee"}
    assert {a.kind for a in taken} >= {"chase.move", "chase.end_round"}


# -- the log's words for what the rules decided (events.describe; issue 13, round 3) ----------


def _card(face: int, chance: int = 50) -> dict[str, Any]:
    test = SkillTest(chance)
    return emit.test_card(test, test.roll(ScriptedSource([face])), "a test", "Chases")


def _line(kind: str, **data: Any) -> str:
    return describe(Event(kind, data), Viewer("referee"))


def test_the_log_says_whether_a_chase_attack_hits_and_what_it_costs() -> None:
    """Chases, Ranged and Magick Attacks: the attacker pays Value for the attack; a hit deals
    Damage ranks and the target loses Value (and may be Slain!); a miss deals nothing."""
    attack = {"participant": "watchman", "target": "cutpurse", "cost": 2}
    assert (
        _line(
            CHASE_ATTACKED,
            **attack,
            hit=True,
            damage_ranks=2,
            target_loss=3,
            target_slain=False,
            roll=_card(34),
        )
        == "Watchman attacks Cutpurse — d100 34: success; hits: 2 Damage ranks, Cutpurse "
        "loses 3; the attack costs 2 Value."
    )
    assert (
        _line(
            CHASE_ATTACKED,
            **attack,
            hit=True,
            damage_ranks=4,
            target_loss=5,
            target_slain=True,
            roll=_card(12),
        )
        == "Watchman attacks Cutpurse — d100 12: success; hits: 4 Damage ranks, Cutpurse "
        "loses 5; Cutpurse is Slain!; the attack costs 2 Value."
    )
    assert (
        _line(
            CHASE_ATTACKED,
            **attack,
            hit=False,
            damage_ranks=0,
            target_loss=0,
            target_slain=False,
            roll=_card(78),
        )
        == "Watchman attacks Cutpurse — d100 78: failure; misses; the attack costs 2 Value."
    )


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


def test_the_log_names_a_peril_step_only_for_whoever_moved_on_the_track() -> None:
    """The Peril Condition Track: the step is named when the event moved that character on it;
    another character's change, or no change at all, names none."""
    for characters in ({"cora": {"peril": 3}}, {"hound": {"damage": 1}}, None):
        data: dict[str, Any] = {"participant": "hound", "roll": _card(78), "peril": 2}
        if characters is not None:
            data["characters"] = characters
        assert (
            _line(CHASE_FATIGUE, **data)
            == "Hound tests fatigue — d100 78: failure; 2 physical Peril."
        )
    assert (
        _line(
            CHASE_FATIGUE,
            participant="hound",
            roll=_card(78),
            peril=2,
            characters={"hound": {"peril": 0}, "cora": {"peril": 3}},
        )
        == "Hound tests fatigue — d100 78: failure; 2 physical Peril → Unhindered."
    )


def test_the_log_says_whether_a_forced_march_incapacitates() -> None:
    """Overland exploration, Forced march: a failed Toughness Test leaves the character
    Incapacitated!, with no Peril recovery for 24 hours; a passed one holds on."""
    assert (
        _line(FORCED_MARCH, character="anna", incapacitated=True, roll=_card(78))
        == "Anna force-marches — d100 78: failure: Incapacitated!, no recovery for 24 hours."
    )
    assert (
        _line(FORCED_MARCH, character="anna", incapacitated=False, roll=_card(34))
        == "Anna force-marches — d100 34: success: holds on."
    )


def test_the_log_names_a_journeys_travellers_and_stretches_in_order() -> None:
    """Wilderness travel: a journey is its travellers and its Stretches, in order."""
    assert (
        _line(
            JOURNEY_STARTED,
            travellers=["anna", "bert"],
            stretches=[{"name": "the Moor", "days": 2}, {"name": "the Pass"}],
        )
        == "A journey begins for Anna, Bert: the Moor, the Pass."
    )


def test_the_log_says_what_a_simple_exchange_costs() -> None:
    """Simple Exchange: a Critical Failure costs mental Peril; otherwise nothing."""
    assert (
        _line(SIMPLE_EXCHANGE, character="anna", roll=_card(99), mental_peril=5)
        == "Anna tries a Simple Exchange — d100 99: critical failure; 5 mental Peril."
    )
    assert (
        _line(SIMPLE_EXCHANGE, character="anna", roll=_card(34))
        == "Anna tries a Simple Exchange — d100 34: success."
    )


# -- morale checks at the table (morale.py; issue 13, round 3) ---------------------------------


def _morale_card(test: SkillTest, face: int, label: str) -> dict[str, Any]:
    return emit.test_card(test, test.roll(ScriptedSource([face])), label, "Morale checks")


def test_a_failed_morale_check_rescued_by_the_leader_is_one_event_with_both_tests() -> None:
    """Morale checks: the Resolve Test at the hardest condition's Difficulty Rating (one ally
    Slain! 0, outnumbered 3:1 −10%: −10); on a Failure the leader tests Leadership (Standard),
    and a Success keeps the foes fighting. One event records both tests and both cards."""
    t = act(
        social_table({}),
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
    t = act(social_table({}), "referee", "morale", [60], resolve=50)
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
    t = act(social_table({}), "referee", "morale", [60, 20], resolve=50, leader_leadership=0)
    data = last(t, "morale.checked")
    assert (data["leadership"]["base_chance"], data["leadership"]["total_chance"]) == (0, 1)
    assert (data["leadership"]["outcome"], data["gives_up"]) == ("failure", True)
    assert data["rolls"][1]["dice"] == "d100 ≤ 1"


def test_a_morale_check_critical_failure_flees_and_no_leader_tests() -> None:
    """Morale checks: a Critical Failure — the foes flee; no Leadership Test rescues it."""
    t = act(social_table({}), "referee", "morale", [99], resolve=50, leader_leadership=90)
    data = last(t, "morale.checked")
    assert "leadership" not in data and len(data["rolls"]) == 1
    assert (data["flees"], data["gives_up"], data["inspired"]) == (True, False, False)
    assert data["result"].startswith("the foes flee")


def test_only_the_gm_calls_a_morale_check() -> None:
    """Morale checks are the GM's to call, at any time: the referee's menu offers a Resolve of
    1–99 and up to two of the table's conditions; a character has no such choice."""
    t = social_table(CHARS)
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


# -- the GM's default play, the longest chase and a journey resumed (issue 13, round 3) ---------


class _FailedTakedowns:
    """Every d10 a 10, every d100 a 60 (a plain Failure at 50), every d6 a 1 (no Complication)."""

    def roll(self, sides: int) -> int:
        return {10: 10, 100: 60, 6: 1}.get(sides, 1)


def test_a_chase_of_failed_takedowns_is_played_out_to_its_escape_condition() -> None:
    """Chases: the Escape Condition "9 Rounds have passed"; every Round each of four Pursuers
    catches up with the slow Escapee, attempts a Takedown and fails it (Pursuit Value −1), and
    nobody tests fatigue (Brawn Bonus 9): all nine Rounds are played out, every Takedown
    included, and the chase ends by its Escape Condition."""
    slow = {"bonuses": {"AB": 1, "BB": 9}, "skills": {"Coordination": 50, "Toughness": 50}}
    fast = {"bonuses": {"AB": 5, "BB": 9}, "skills": {"Coordination": 50, "Toughness": 50}}
    names = ["p0", "p1", "p2", "p3"]
    t = SYSTEM.new_table({"characters": {"thief": slow, **dict.fromkeys(names, fast)}})
    start: dict[str, Any] = {"escapees": ["thief"], "pursuers": names, "escape_condition": 9}
    t = t.act(Action("referee", "chase.start", start), _FailedTakedowns())
    done = play_out(t, _FailedTakedowns())
    kinds = [e.kind for e in done.log.events]
    assert kinds.count(CHASE_TAKEDOWN) == 9 * 4
    assert kinds.count(CHASE_ROUND_ENDED) == 9
    assert len(done.actions) - len(t.actions) == 9 * (5 + 4 + 1)
    assert done.state.chase is not None
    assert done.state.chase.ended == "the Escape Condition is met (9 Rounds have passed)"


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


def test_the_gms_default_play_at_a_table_without_seats_is_taken_by_no_seat() -> None:
    """The table record: a table played through the library may have no seats at all; the GM's
    default play of a journey and of a chase then takes its steps from no seat (there is no
    referee's seat to take them from) and records them so."""
    setup = yaml.safe_load((CLI_FILES / "route.yaml").read_text(encoding="utf-8"))
    journey = Table.start(SYSTEM.procedure, setup, seats=())
    done = travel_on(journey, RandomSource(3))
    assert done.actions and {(a.seat, a.actor) for a in done.actions} == {(None, "referee")}
    setup = yaml.safe_load((CLI_FILES / "chase.yaml").read_text(encoding="utf-8"))
    chase = Table.start(SYSTEM.procedure, setup, seats=())
    start = {"escapees": ["cutpurse"], "pursuers": ["watchman", "hound"]}
    chase = chase.act(Action("referee", "chase.start", start), RandomSource(5))
    played = play_out(chase, RandomSource(5))
    assert played.state.chase is not None and played.state.chase.ended is not None
    assert {a.seat for a in played.actions} == {None}


def test_a_madness_test_is_previewed_with_the_odds_its_choice_carries() -> None:
    """Withstanding madness: Stress +20%, Fear no modifier, Terror −20% on the Resolve Test; an
    action that is neither a Skill Test nor a social Test is previewed with the odds of the
    character's choice (all three situations), and a choice without odds has none."""
    t = social_table({"anna": {"skills": {"Resolve": 40}}})
    shown = preview(t, "anna", Action("anna", "madness", {"situation": "Fear"}))
    assert [(p.label, p.rule, p.dice) for p in shown] == [
        ("Anna withstands Stress", "Madness", "d100 ≤ 60"),
        ("Anna withstands Fear", "Madness", "d100 ≤ 40"),
        ("Anna withstands Terror", "Madness", "d100 ≤ 20"),
    ]
    assert dict(shown[1].odds) == card_odds(SkillTest(40).odds())
    gm = Action("referee", "corruption", {"character": "anna", "weight": "minor"})
    assert preview(t, "referee", gm) == ()


# -- madness and Corruption (madness.py; issue 13, round 3) ------------------------------------


def test_an_offence_gives_any_points_of_its_range_both_ends_included() -> None:
    """Corruption: "Minor offenses (1-3 points)", "Middling offenses (4-6 points)", "Major
    offenses (7-9 points)" — the least and the most of each range are given as asked."""
    assert [offence(w, p) for w, p in (("minor", 1), ("middling", 4), ("major", 7))] == [1, 4, 7]
    assert [offence(w, p) for w, p in (("minor", 3), ("middling", 6), ("major", 9))] == [3, 6, 9]
    for weight, points in (("middling", 3), ("major", 6), ("minor", 4)):
        with pytest.raises(RuleError, match="offences give"):
            offence(weight, points)


def test_a_passed_resolve_test_against_madness_costs_nothing() -> None:
    """Withstanding madness: only a failed Resolve Test brings the mental Peril and the
    Corruption; passed against Fear (40%, a 34), the event names the situation and records no
    Peril and no Corruption, and the character is unchanged."""
    t = social_table({"anna": {"skills": {"Resolve": 40}}})
    t = act(t, "anna", "madness", [34], situation="fear")
    data = last(t, "madness.withstood")
    assert (data["situation"], data["mental_peril"], data["peril_faces"], data["corruption"]) == (
        "Fear",
        0,
        [],
        0,
    )
    assert data["roll"]["label"] == "Anna withstands Fear"
    assert t.state.character("anna").corruption == 0
    passed = withstand(Character("c", skills={"Resolve": 40}), "Terror", ScriptedSource([15]))
    assert (passed.situation, passed.mental_peril, passed.corruption) == ("Terror", 0, 0)


def test_a_listed_offence_with_a_range_gives_any_points_of_it_and_names_it_when_refused() -> None:
    """Corruption, the offence lists: "Channeling power (1-3)" gives 1, 2 or 3 points as the GM
    says; points outside it are refused, the refusal naming the printed range ("1-3") or the
    printed points ("6") of an offence with one value."""
    t = social_table({"a": {}})
    for points in (1, 2):
        done = act(
            t, "referee", "corruption", character="a", offence="Channeling power", points=points
        )
        assert done.state.character("a").corruption == points
    with pytest.raises(RuleError, match=r"Channeling power gives 1-3 points, not 4$"):
        act(t, "referee", "corruption", character="a", offence="Channeling power", points=4)
    with pytest.raises(RuleError, match=r"Suffer a Serious Injury gives 6 points, not 5$"):
        act(t, "referee", "corruption", character="a", offence="Suffer a Serious Injury", points=5)


def test_the_gm_gives_corruption_and_ends_the_session_and_a_character_withstands_madness() -> None:
    """Corruption and Madness at the table: the GM gives Corruption for an offence (to any
    character, by weight) and ends the session (for every character, or, when one follows a
    daemon — whose rules are not in the text — for the others); a character with Resolve who is
    not Incapacitated! withstands Stress, Fear or Terror; nobody else has that choice."""
    t = social_table(
        {
            "anna": {"skills": {"Resolve": 40}},
            "bert": {"skills": {"Resolve": 40}, "peril": 5},
            "cora": {},
            "dora": {"daemon_expert": True, "skills": {"Resolve": 30}},
        }
    )
    corruption, end = madness_choices(t.state, "referee")
    assert (corruption.kind, corruption.label, corruption.params) == (
        "corruption",
        "Corruption for an offence",
        {
            "character": OneOf(("anna", "bert", "cora", "dora")),
            "weight": OneOf(("minor", "middling", "major")),
        },
    )
    assert (corruption.actor, end.actor) == ("referee", "referee")
    assert (end.kind, end.label, end.params) == (
        "session.end",
        "end the session: resolve Corruption",
        {"characters": OneOf((["anna", "bert", "cora"],))},
    )
    (withstand_choice,) = madness_choices(t.state, "anna")
    assert (withstand_choice.kind, withstand_choice.label, withstand_choice.params) == (
        "madness",
        "withstand madness",
        {"situation": OneOf(("Stress", "Fear", "Terror"))},
    )
    assert [p.label for p in withstand_choice.odds] == [
        "Anna withstands Stress",
        "Anna withstands Fear",
        "Anna withstands Terror",
    ]
    (dora,) = madness_choices(t.state, "dora")
    assert dora.odds[0].label == "Dora withstands Stress"
    for nobody in ("bert", "cora", "zed"):
        assert madness_choices(t.state, nobody) == []
    plain = social_table({"anna": {"skills": {"Resolve": 40}}})
    assert [(c.actor, c.params) for c in madness_choices(plain.state, "referee")] == [
        (
            "referee",
            {"character": OneOf(("anna",)), "weight": OneOf(("minor", "middling", "major"))},
        ),
        ("referee", {}),
    ]
    assert madness_choices(social_table({}).state, "referee") == []


@pytest.mark.parametrize(
    "test",
    [SkillTest(45), SkillTest(50, difficulty=-20), SkillTest(60, assist=True)],
    ids=["plain", "hard", "assisted"],
)
def test_a_skill_tests_margins_are_the_margins_its_rolls_make(test: SkillTest) -> None:
    """Skill Tests: the margin shown before the roll is Total Chance − the face kept (after an
    Assist Die, when one helps): the odds of each margin are those of rolling every d100 face
    (and every d10) through the test's own roll, counted one by one."""
    faces = [[d100, d10] for d100 in range(1, 101) for d10 in range(1, 11)]
    if not test.assist:
        faces = [[d100] for d100 in range(1, 101)]
    margins = Counter(test.roll(ScriptedSource(f)).margin for f in faces)
    counted = {m: Fraction(n, len(faces)) for m, n in sorted(margins.items())}
    assert test.odds().margins == counted


def test_a_difficulty_rating_is_read_by_name_or_modifier_as_a_referee_writes_it() -> None:
    """Difficulty Rating: a rating is named ("hard", any case and spacing) or given as its
    modifier, with or without "%" and "+/-" (the ladder's own "+/-0%"); anything else is
    refused naming the ladder."""
    for written, modifier in [("-20%", -20), ("+/-0%", 0), ("+/-0", 0), (" hard ", -20)]:
        assert difficulty(written) == modifier
    assert [_difficulty_words(w) for w in ("-20%", "+/-0%", " hard ", "+10%", "x")] == [
        -20,
        0,
        "Hard",
        10,
        "x",
    ]
    for not_a_rating in (False, True):
        with pytest.raises(RuleError, match="Difficulty Rating"):
            difficulty(not_a_rating)
    with pytest.raises(RuleError) as refused:
        difficulty("x")
    assert str(refused.value) == (
        "Difficulty Rating: 'x' is not one of Trivial, Easy, Routine, Standard, Challenging, "
        "Hard, Arduous"
    )
    read = canonical(("Hard Going", "Fear"))
    assert (read("hard   going"), read(" fear"), read("Anger"), read(3)) == (
        "Hard Going",
        "Fear",
        "Anger",
        3,
    )
