"""Range, movement, encumbrance, jumps, charges, races and damage, with exact odds."""

from __future__ import annotations

import itertools
import math
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.core import Action, RuleError
from referee.dice import ScriptedSource
from referee.systems.hursagmu.action_phase import fold_moved, posture_after
from referee.systems.hursagmu.movement import (
    DamageRoll,
    charge_momentum,
    damage_base,
    jump_distance,
    movement_actions,
    movement_rate,
    race_check,
    race_gain,
    range_challenge,
    range_increment,
)
from referee.systems.hursagmu.rounds import RoundPlan, Step
from referee.systems.hursagmu.sheet import Character
from referee.systems.hursagmu.state import Fighter

from .helpers import _cinematic_round, _kinds, _moved, _odds, _with
from .test_encounter import FIGHTER, SORCERER, initiative, play, start, two_fighters

TWO_D6 = list(itertools.product(range(1, 7), repeat=2))


def test_bow_example() -> None:
    # "If a target is within ten yards, the challenge number is zero. If a target is between ten
    # and twenty yards, the challenge number is 1. Between twenty and thirty yards, it is 2."
    assert [range_challenge(y, "missile weapon") for y in (0, 5, 10)] == [0, 0, 0]
    assert [range_challenge(y, "missile weapon") for y in (11, 15, 20)] == [1, 1, 1]
    assert [range_challenge(y, "missile weapon") for y in (21, 25, 30)] == [2, 2, 2]


@given(st.integers(0, 5000), st.sampled_from([1, 2, 10, 100, 1000]))
def test_range_challenge_is_one_per_further_increment_or_part(yards: int, inc: int) -> None:
    challenge = range_challenge(yards, inc)
    assert challenge == max(0, math.ceil(yards / inc) - 1)
    assert (challenge + 1) * inc >= yards > challenge * inc or yards <= inc


def test_range_increments_by_name() -> None:
    assert range_increment("Thrown Weapon") == 2
    assert range_increment("talamu") == 1
    assert range_increment("hearing") == 10
    with pytest.raises(RuleError, match="no range increment for 'sling'"):
        range_increment("sling")
    with pytest.raises(RuleError, match="negative"):
        range_challenge(-1, 10)


def test_encumbrance_rate() -> None:
    # "If a character were carrying 50% of his maximum lift ... he would move 5 yards"
    assert movement_rate(200, 100) == 5
    assert movement_rate(200, 19) == 10  # under 10%: unencumbered
    assert movement_rate(200, 20) == 9
    assert movement_rate(200, 200) == 0
    with pytest.raises(RuleError):
        movement_rate(0, 0)
    with pytest.raises(RuleError):
        movement_rate(10, -1)


def test_movement_actions() -> None:
    assert movement_actions("foot", 16) == 2  # "one for every ten yards or fraction thereof"
    assert movement_actions("foot", 30) == 3
    assert movement_actions("stand") == movement_actions("leap") == 1
    assert movement_actions("mount") == movement_actions("dismount") == 1
    assert movement_actions("ride", 40, mount=40) == 1
    assert movement_actions("ride", 40, mount=20) == 2
    assert movement_actions("prone") == 0
    with pytest.raises(RuleError, match="too encumbered"):
        movement_actions("foot", 5, rate=0)
    with pytest.raises(RuleError, match="20 to 40"):
        movement_actions("ride", 40, mount=50)
    with pytest.raises(RuleError, match="needs a mount"):
        movement_actions("ride", 40)


def test_jumps() -> None:
    # "a standing long jump for a number of yards equal to his Maximum lift / 50. A running
    # start doubles the distance. Encumbrance lowers it at the same rate"
    assert jump_distance(250) == 5
    assert jump_distance(250, running=True) == 10
    assert jump_distance(250, 125, running=True) == 5


def test_charge_momentum() -> None:
    assert charge_momentum(40) == 4
    assert charge_momentum(9) == 0
    assert charge_momentum(16) == 1


def test_knight_and_spearman_damage() -> None:
    # "His lance does 14 damage (10 for the lance + 4 for Strength). He rolls a 6 ... 20 ...
    # adds his movement ... for a total of 24."
    assert damage_base(10, 4) == 14
    assert DamageRoll(14, charge_momentum(40)).roll(ScriptedSource([1, 5]))[0] == 24
    assert DamageRoll(11, 4).roll(ScriptedSource([2, 3]))[0] == 20
    assert DamageRoll(14, 4, dice="1d6").roll(ScriptedSource([6]))[0] == 24
    with pytest.raises(RuleError, match="2d6 or 1d6"):
        DamageRoll(1, dice="3d6")


def test_damage_distribution_matches_brute_force() -> None:
    dist = DamageRoll(11, 4).distribution()
    for total, p in dist.items():
        assert p == Fraction(sum(1 for a, b in TWO_D6 if 15 + a + b == total), 36)


def test_race_odds_and_yards() -> None:
    check = race_check(5, 3)
    odds = check.odds()
    brute = {}
    for a, b in TWO_D6:
        for c, d in TWO_D6:
            m = (a + b + 5) - (c + d + 3)
            brute[m] = brute.get(m, 0) + 1
    assert dict(odds.margins) == {m: Fraction(n, 36 * 36) for m, n in sorted(brute.items())}
    assert race_gain(check.roll(ScriptedSource([1, 1, 6, 6]))) == -8
    assert race_gain(check.roll(ScriptedSource([2, 2, 3, 3]))) == 0


# -- "Range": the range challenge of an attack -----------------------------------------------------


def test_a_defended_ranged_attack_records_odds_with_the_range_challenge_on_the_defence() -> None:
    """Range: the range challenge is added to an evading target's defensive roll, so the odds a
    defended ranged attack records are those of 2d6+7 against 2d6+8+2, the attacker winning
    ties (RULINGS.md), counted here face by face."""
    archer = {**FIGHTER, "weapon_type": "missile weapon", "skills": {"quickness": 2, "missile": 5}}
    table = initiative(
        start({"ann": archer, "fred": FIGHTER}),
        {"ann": ("maneuver", 6, 6), "fred": ("maneuver", 1, 1)},
    )
    table = play(
        table,
        [
            ("ann", "declare", {"actions": [{"attack": "fred", "skill": "missile", "yards": 25}]}),
            ("ann", "act", {}),
            ("fred", "defend", {"actions": [{"defend": True}]}),
        ],
        [3, 3, 3, 3],
    )
    two_d6 = [a + b for a in range(1, 7) for b in range(1, 7)]
    hits = sum(1 for mine in two_d6 for theirs in two_d6 if mine + 7 >= theirs + 8 + 2)
    resolved = next(e for e in table.log if e.kind == "attack.resolved")
    assert resolved.data["expression"] == "2d6+7 vs 2d6+8+2"
    assert resolved.data["odds"] == str(Fraction(hits, 36 * 36))


ARCHER = dict(
    FIGHTER,
    weapon_type="missile weapon",
)


def test_a_ranged_attacks_odds_count_the_range_challenge() -> None:
    """A missile attack at 25 yards (10 yards an increment) has a range challenge of 2: the
    undefended roll needs 2, the defended one adds it to the defence."""
    table = start({"bob": ARCHER, "fred": FIGHTER})
    table = initiative(table, {"bob": ("maneuver", 6, 6), "fred": ("maneuver", 1, 1)})
    table = play(table, [("bob", "declare", {"actions": [{"attack": "fred", "yards": 25}]})])
    assert _odds(_kinds(table, "bob")["act"]) == [
        ("Bob's striking against Fred's defense", "2d6+7 vs 2d6+10", "Action"),
        ("Bob's striking against Fred, undefended", "2d6+7 ≥ 2", "Action"),
    ]


def test_an_unknown_range_increment_is_refused_naming_the_known_ones() -> None:
    """ "Range": the refusal names the attack types, sorcery types and senses that have one."""
    with pytest.raises(
        RuleError, match=r"known: thrown weapon, missile weapon, Talamu, .*, divination\)"
    ):
        range_increment("catapult")


# -- "Movement": the movement actions, on foot and on horseback ------------------------------------


def test_a_walk_needs_a_distance_and_one_yard_is_one_movement_action() -> None:
    """ "Movement": on foot, one movement action "for every ten yards or fraction thereof": one
    yard is one action; a walk of no yards (none given, or 0) is no movement and is refused."""
    assert movement_actions("foot", 1) == 1
    for walk in (lambda: movement_actions("foot"), lambda: movement_actions("foot", 0)):
        with pytest.raises(RuleError, match="moving on foot needs a distance"):
            walk()


def test_a_horse_rides_twenty_to_forty_yards_an_action_and_a_ride_needs_a_distance() -> None:
    """ "Movement": riding, one action per the horse's 20 to 40 yards; 41 is no horse of the
    text; a ride of one yard is one action, a ride of none is refused."""
    assert movement_actions("ride", 1, mount=40) == 1
    with pytest.raises(RuleError, match="a horse rides 20 to 40 yards an action, not 41"):
        movement_actions("ride", 40, mount=41)
    with pytest.raises(RuleError, match="riding needs a distance"):
        movement_actions("ride", 0, mount=40)


def test_a_ride_is_counted_in_the_mounts_yards() -> None:
    """ "Movement": riding uses "the movement rate of the mount", 20 to 40 yards an action: 40
    yards on a 40-yard horse is one movement action, on a 20-yard one two."""
    ride = (Step.move("ride", 40),)
    assert RoundPlan(ride, mount=40).movement_actions() == 1
    assert RoundPlan(ride, mount=20).movement_actions() == 2


def test_an_unknown_movement_is_refused_naming_the_movements() -> None:
    """The movements of "Movement" are listed when a step names another."""
    with pytest.raises(
        RuleError, match="no movement 'swim' \\(known: stand, foot, mount, dismount, ride, leap"
    ):
        Step.from_json({"move": "swim"})


# -- "Movement": encumbrance and jumps -------------------------------------------------------------


def test_only_a_character_who_cannot_move_at_all_is_too_encumbered_to_walk() -> None:
    """Encumbrance lowers the yards per movement action; at 1 yard an action he still walks."""
    assert movement_actions("foot", 1, rate=1) == 1
    with pytest.raises(RuleError, match="too encumbered to move"):
        movement_actions("foot", 1, rate=0)


def test_a_maximum_lift_of_one_is_a_positive_lift() -> None:
    """Encumbrance: any positive maximum lift moves; unloaded, 10 yards an action."""
    assert movement_rate(1, 0) == 10
    with pytest.raises(RuleError, match="maximum lift must be positive"):
        movement_rate(0, 0)


def test_a_loaded_characters_walk_counts_his_encumbered_movement_actions_when_taken() -> None:
    """ "Movement", Encumbrance: carrying half his maximum lift bob moves 5 yards a movement
    action; his walk of 10 yards, when he takes it, is two movement actions, as declared."""
    loaded = {**FIGHTER, "max_lift": 200, "load": 100}
    table = initiative(
        start({"bob": loaded, "fred": FIGHTER}),
        {"bob": ("maneuver", 6, 6), "fred": ("maneuver", 1, 1)},
    )
    walk = {"actions": [{"move": "foot", "yards": 10}]}
    table = play(table, [("bob", "declare", walk), ("bob", "act", {})])
    moved = next(e for e in table.log if e.kind == "character.moved")
    assert moved.data["movement_actions"] == 2


def test_a_loaded_characters_declared_leap_and_walk_follow_his_encumbrance() -> None:
    """ "Movement", Encumbrance: carrying half his maximum lift (100 of 200) bob moves 5 yards a
    movement action, so 10 yards on foot are two; his standing long jump, 200 / 50 = 4 yards,
    is lowered at the same rate to 2: a 3-yard leap is refused."""
    loaded = {**FIGHTER, "max_lift": 200, "load": 100}
    table = start({"bob": loaded, "fred": FIGHTER})
    table = initiative(table, {"bob": ("maneuver", 6, 6), "fred": ("maneuver", 1, 1)})
    with pytest.raises(RuleError) as refused:
        table.act(Action("bob", "declare", {"actions": [{"move": "leap", "yards": 3}]}), None)
    assert str(refused.value) == (
        "Movement: a standing long jump reaches 2 yards (maximum lift / 50), not 3"
    )
    table = table.act(Action("bob", "declare", {"actions": [{"move": "foot", "yards": 10}]}), None)
    assert table.log[-1].data["movement_actions"] == 2


def test_a_long_jump_with_no_load_is_maximum_lift_over_fifty() -> None:
    """Movement: a long jump is "his Maximum lift / 50"; encumbrance lowers it, and no load
    is none — even for a weakling whose maximum lift is 5."""
    assert jump_distance(5) == Fraction(1, 10)
    assert jump_distance(5, running=True) == Fraction(1, 5)


# -- "Movement": the Master's Acrobatics or Riding roll, and what a movement leaves of the
# posture ------------------------------------------------------------------------------------------


def test_a_movements_acrobatics_roll_is_recorded_with_its_card_under_the_cinematic_option() -> None:
    """ "Movement": "the master may require an Acrobatics roll (base Dex for those without the
    skill)". Under the cinematic option ("Action") bob's two declared defences are one major
    action, so his round has no skill penalty: Acrobatics is 2d6 + Dex 2 against 12."""
    events = _cinematic_round(
        [{"move": "foot", "yards": 10, "challenge": 12}, {"defend": True}, {"defend": True}]
    )
    assert events == [
        (
            "character.moved",
            {
                "character": "bob",
                "step": 0,
                "initiative": 16,
                "movement": "foot",
                "yards": 10,
                "movement_actions": 1,
                "skill": "acrobatics",
                "challenge": 12,
                "expression": "2d6+2",
                "odds": "1/6",
                "outcome": "success",
                "value": 13,
                "margin": 1,
                "faces": [6, 5],
                "roll": {
                    "card": "roll",
                    "label": "Bob's acrobatics (foot)",
                    "rule": "Movement",
                    "dice": "2d6+2 ≥ 12",
                    "odds": {"failure": "5/6", "success": "1/6"},
                    "faces": [6, 5],
                    "outcome": "success",
                    "margin": 1,
                    "value": 13,
                    "opponent": None,
                    "shown": "2d6 (6, 5) + 2 = 13",
                },
            },
        )
    ]


def test_a_movements_acrobatics_roll_card_names_the_character_who_moves() -> None:
    """ "the master may require an Acrobatics roll": the roll card of bob's walk over treacherous
    ground is labelled as his."""
    walk = {"actions": [{"move": "foot", "yards": 10, "challenge": 12}]}
    table = play(two_fighters(), [("bob", "declare", walk), ("bob", "act", {})], [1, 1])
    stumble = next(e for e in table.log if e.kind == "character.stumbled")
    assert stumble.data["roll"]["label"] == "Bob's acrobatics (foot)"


def test_the_next_movements_acrobatics_odds_carry_the_rounds_penalty() -> None:
    """A movement the Master asks a roll for previews its Acrobatics roll, under the Movement
    rule, with the round's penalty (attack and cinematic defences: -2)."""
    table = start({"bob": FIGHTER, "fred": FIGHTER}, defence="cinematic")
    table = initiative(table, {"bob": ("maneuver", 6, 6), "fred": ("maneuver", 1, 1)})
    plan = [
        {"move": "foot", "yards": 10, "challenge": 8},
        {"attack": "fred"},
        {"defend": True},
        {"defend": True},
    ]
    table = play(table, [("bob", "declare", {"actions": plan})])
    assert _odds(_kinds(table, "bob")["act"]) == [("Bob's acrobatics", "2d6 ≥ 8", "Movement")]


def test_a_stumble_getting_up_leaves_him_prone() -> None:
    """ "Movement": a failed Acrobatics roll gets him nowhere (``character.stumbled``): one who
    fails to stand up is still prone, and one who fails to mount is still on foot."""
    state = _with(two_fighters().state, "bob", prone=True)
    failed = {"skill": "acrobatics", "outcome": "failure"}
    assert fold_moved(state, _moved("stand", **failed)).fighters["bob"].prone is True
    failed_riding = {"skill": "riding", "outcome": "failure"}
    on_foot = two_fighters().state
    assert fold_moved(on_foot, _moved("mount", **failed_riding)).fighters["bob"].mounted is False


def test_a_successful_roll_getting_up_stands_him_up() -> None:
    """ "Movement": standing "from a prone position", with the Master's Acrobatics roll made."""
    state = _with(two_fighters().state, "bob", prone=True)
    made = {"skill": "acrobatics", "outcome": "success"}
    assert fold_moved(state, _moved("stand", **made)).fighters["bob"].prone is False
    assert fold_moved(state, _moved("stand")).fighters["bob"].prone is False


def test_mounting_puts_him_on_horseback_and_dismounting_takes_him_off() -> None:
    """ "Movement": mounting and dismounting are movement actions that change his posture."""
    state = two_fighters().state
    mounted = fold_moved(state, _moved("mount")).fighters["bob"]
    assert mounted.mounted is True
    state = _with(state, "bob", mounted=True)
    assert fold_moved(state, _moved("dismount")).fighters["bob"].mounted is False


def test_a_movement_is_an_action_but_falling_prone_is_free() -> None:
    """ "Falling to a prone position on the ground is a free action" (ruling 29): it does not
    count as acting (for Recovery); any other movement does; the yards add up."""
    state = _with(two_fighters().state, "bob", acted=False, yards_moved=5)
    walked = fold_moved(state, _moved("foot", yards=10)).fighters["bob"]
    assert (walked.acted, walked.yards_moved, walked.next_step) == (True, 15, 1)
    fell = fold_moved(state, _moved("prone")).fighters["bob"]
    assert (fell.acted, fell.prone) == (False, True)
    already = _with(state, "bob", acted=True)
    assert fold_moved(already, _moved("prone")).fighters["bob"].acted is True


def test_a_movement_his_posture_does_not_allow_is_refused_saying_why() -> None:
    """ "Movement": one falls prone only standing on the ground, mounts only off his horse and
    standing, and moves on foot or leaps only standing up."""
    fred = Fighter(Character("fred", mount=40), 10)
    cases = [
        (True, False, Step.move("prone"), "fred is already prone"),
        (False, True, Step.move("prone"), "fred is on horseback: he dismounts first"),
        (False, True, Step.move("mount"), "fred is already mounted"),
        (True, False, Step.move("mount"), "fred is lying prone: he stands up first"),
        (True, False, Step.move("leap"), "fred is lying prone: he stands up before leaping"),
        (
            True,
            False,
            Step.move("foot", 5),
            "fred is lying prone: he stands up before moving on foot",
        ),
    ]
    for prone, mounted, step, message in cases:
        with pytest.raises(RuleError) as refused:
            posture_after(replace(fred, prone=prone, mounted=mounted), [step])
        assert str(refused.value) == f"Movement: {message}"


def test_a_prone_character_cannot_walk_after_an_attack_either() -> None:
    """ "Movement": the posture is checked through every step, not only up to the first one
    that is no movement."""
    fred = Fighter(Character("fred"), 10, prone=True)
    with pytest.raises(RuleError, match="stands up before moving on foot"):
        posture_after(fred, [Step.attack("bob"), Step.move("foot", 5)])


# -- "Movement": the charge and the race -----------------------------------------------------------


def test_charge_momentum_is_not_added_to_sorcery() -> None:
    """Movement, the optional charge rule: momentum is added to "the damage of an attack" from
    "any enemy melee weapon" — a melee weapon's Striking, not sorcery: marcos runs 20 yards
    and strikes fred with Mahasu; his damage has no momentum (weapon 0, Strength 0, 1+1)."""
    table = start({"marcos": SORCERER, "fred": FIGHTER}, charge_momentum=True)
    table = initiative(table, {"marcos": ("concentrate", 6, 6), "fred": ("maneuver", 1, 1)})
    steps = [{"move": "foot", "yards": 20}, {"attack": "fred", "skill": "mahasu"}]
    table = play(
        table,
        [
            ("marcos", "declare", {"actions": steps}),
            ("marcos", "act", {}),
            ("marcos", "act", {}),
            ("fred", "take", {}),
        ],
        [6, 6, 1, 1],
    )
    (dealt,) = [e.data for e in table.log if e.kind == "damage.taken"]
    assert (dealt["momentum"], dealt["damage"]) == (0, 2)


def races(dice: list[int]) -> list[dict[str, object]]:
    table = play(
        start({"bob": FIGHTER, "fred": {**FIGHTER, "skills": {"quickness": 0}}}),
        [("bob", "race", {"against": "fred"})],
        dice,
    )
    return [dict(e.data) for e in table.log if e.kind == "race.rolled"]


def test_a_race_round_leader_by_one_behind_and_tied() -> None:
    """Movement, races: "For every point by which one character's roll beats another's, that
    character gains one yard of distance": bob's 2d6+4 against fred's 2d6+2 — 10 against 9 is
    bob by a yard; 6 against 14 is fred by 8; 10 against 10 is nobody's yard."""
    (ahead,) = races([3, 3, 3, 4])
    assert (ahead["character"], ahead["against"], ahead["leader"], ahead["yards"]) == (
        "bob",
        "fred",
        "bob",
        1,
    )
    (behind,) = races([1, 1, 6, 6])
    assert (behind["leader"], behind["yards"]) == ("fred", 8)
    (tied,) = races([3, 3, 4, 4])
    assert (tied["leader"], tied["yards"]) == (None, 0)
    card = tied["roll"]
    assert isinstance(card, dict)
    assert (card["label"], card["rule"]) == ("Bob races Fred (Quickness)", "Movement")
