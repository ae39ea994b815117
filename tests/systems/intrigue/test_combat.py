"""Combat: declaring, initiative, surprise, every action, escaping, groups, damage, knock-out,
waking, wounds and death (rules text, "Combat rules" to "Taking Damage"; RULINGS.md)."""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import MINUTE, ActionError, OneOf, RuleError, Table, view
from referee.systems.intrigue import PROCEDURE, IntrigueState
from referee.systems.intrigue.combat import initiative_rank, preview
from referee.systems.intrigue.rules import group_attack, half, is_knocked_out, wounds_taken
from referee.systems.intrigue.state import Hold

from .helpers import act, character, kinds, last, start

T = Table[IntrigueState]


def brawl(**changes: dict[str, Any]) -> dict[str, Any]:
    cast = {
        "alf": character(
            "Alf",
            11,
            combat=2,
            strength=2,
            stamina=6,
            items={"cosh": {"damage": 4}, "pistol": {"damage": 5}},
        ),
        "bob": character("Bob", 12, combat=1, strength=3, stamina=5),
        "cat": character("Cat", 13, combat=3, strength=1, stamina=6, skills={"Medicine": 2}),
        "dan": character("Dan", 14, combat=1, strength=1, stamina=6),
        "eve": character("Eve", 15, combat=0, strength=1, stamina=6),
        "kro": character(
            "Krockin",
            33,
            combat=1,
            mind=3,
            stamina=6,
            abilities={
                "Energy Bolt": {"mental": True, "obvious": True, "target": 16, "damage": 3},
                "Befuddle": {
                    "mental": True,
                    "obvious": True,
                    "effect": "Dazed: drop what you hold.",
                },
                "Sleep": {"mental": True, "in_combat": False},
            },
        ),
    }
    for name, sheet in changes.items():
        cast[name] = {**cast[name], **sheet}
    return {"start": "22:00", "characters": cast}


def fight(attacker: str, *targets: str, surprised: tuple[str, ...] = (), **changes: Any) -> T:
    return act(
        start(brawl(**changes)),
        attacker,
        "start_combat",
        targets=list(targets),
        surprised=list(surprised),
    )


def declare(table: T, who: str, action: str, dice: tuple[int, ...] = (), **params: Any) -> T:
    return act(table, who, "declare", list(dice), action=action, **params)


def resolve(table: T, dice: tuple[int, ...] = ()) -> T:
    return act(table, "referee", "resolve", list(dice))


def combat(table: T) -> Any:
    return table.state.combats[-1]


# -- starting a combat --------------------------------------------------------------------


def test_anyone_nearby_may_join_when_start_is_called() -> None:
    """Starting Combat: "anyone in the reasonable vicinity can declare that they are part"."""
    table = fight("alf", "bob")
    table = act(table, "cat", "join", **{"with": "bob"})
    table = act(table, "dan", "join", **{"with": "alf"})
    assert dict(combat(table).sides) == {"alf": 0, "bob": 1, "cat": 1, "dan": 0}


def test_nobody_joins_a_running_combat_unless_the_referee_rules_so() -> None:
    """ "No-one else may join the combat until it has been resolved, unless a referee rules"."""
    table = declare(fight("alf", "bob"), "alf", "defend")
    with pytest.raises(RuleError, match="under way"):
        act(table, "cat", "join", **{"with": "bob"})
    table = act(table, "referee", "admit", character="cat", **{"with": "bob"})
    assert combat(table).side_of("cat") == 1


def test_after_a_surprise_only_the_attacker_and_targets_take_part() -> None:
    table = fight("alf", "bob", surprised=("bob",))
    with pytest.raises(RuleError, match="surprise"):
        act(table, "cat", "join", **{"with": "bob"})


def test_combat_needs_targets_who_can_fight() -> None:
    with pytest.raises(ActionError, match="targets"):
        fight("alf")
    with pytest.raises(RuleError):
        fight("alf", "alf")
    with pytest.raises(RuleError, match="only a target"):
        fight("alf", "bob", surprised=("cat",))
    table = fight("alf", "bob")
    with pytest.raises(RuleError, match="already in a combat"):
        act(table, "cat", "start_combat", targets=["bob"])


# -- initiative -----------------------------------------------------------------------------


def test_the_starter_goes_first_in_round_one_then_combat_high_to_low() -> None:
    """Initiative: "the character who started the combat goes first ... After that ... in the
    order of their Combat stat, highest to lowest"."""
    table = act(fight("bob", "cat"), "alf", "join", **{"with": "bob"})
    with pytest.raises(RuleError, match="bob declares before cat"):
        declare(table, "cat", "defend")
    table = declare(table, "bob", "defend")
    with pytest.raises(RuleError, match="cat declares before alf"):
        declare(table, "alf", "defend")
    table = declare(declare(table, "cat", "defend"), "alf", "defend")
    table = resolve(resolve(resolve(table)))
    assert [e.data["characters"] for e in table.log if e.kind == "combat.place_resolved"] == [
        ["bob"],
        ["cat"],
        ["alf"],
    ]
    # round 2: bob (Combat 1) is no longer first
    with pytest.raises(RuleError, match="cat"):
        declare(table, "bob", "defend")


def test_ties_act_simultaneously() -> None:
    """ "Ties act simultaneously" (RULINGS: both happen even if one knocks the other out)."""
    table = act(fight("bob", "dan"), "eve", "join", **{"with": "bob"})
    table = declare(table, "bob", "defend")
    table = declare(table, "dan", "attack", target="eve")
    table = declare(table, "eve", "scream")  # Combat 0
    table = resolve(resolve(resolve(table, ()), (6, 6, 6)))
    # round 2: bob and dan both Combat 1: bob knocks dan out, dan hits bob back in the same place
    table = declare(table, "dan", "attack", target="bob", dice=())
    table = declare(table, "bob", "attack", target="dan")
    table = declare(table, "eve", "defend")
    table = resolve(table, (6, 6, 6, 6, 6, 6))
    assert last(table, "combat.place_resolved")["characters"] == ["dan", "bob"]
    hits = [e.data for e in table.log if e.kind == "damage.taken"]
    assert {(h["character"], h["amount"]) for h in hits[-2:]} == {("bob", 1), ("dan", 3)}


def test_a_held_action_is_taken_later_in_the_round() -> None:
    """ "A character can choose to hold their action until a later time"."""
    table = fight("cat", "bob")
    table = declare(table, "cat", "hold")
    table = declare(table, "bob", "defend")
    table = resolve(table)  # bob's defence: cat holds
    assert not combat(table).declaration("cat").resolved
    table = declare(table, "cat", "attack", dice=(6, 6, 6), target="bob")
    assert last(table, "attack.rolled")["target_number"] == 14
    assert kinds(table)[-1] == "combat.round_ended"


def test_a_held_action_not_taken_lapses_at_the_end_of_the_round() -> None:
    table = declare(declare(fight("cat", "bob"), "cat", "hold"), "bob", "defend")
    table = resolve(resolve(table))
    assert kinds(table)[-1] == "combat.round_ended"


# -- surprise -------------------------------------------------------------------------------


def test_surprise_adds_three_to_the_attacker_and_the_surprised_do_not_act() -> None:
    """Surprise: "+3 is added to the Attacker's Combat Stat for the first turn ... The character
    who was surprised does not get an action during this first turn"."""
    table = fight("alf", "bob", surprised=("bob",))
    with pytest.raises(RuleError, match="does not get an action"):
        declare(declare(table, "alf", "defend"), "bob", "defend")
    table = declare(table, "alf", "attack", target="bob")
    table = resolve(table, (1, 1, 1))
    assert last(table, "attack.rolled")["modifier"] == 2 + 3
    table = declare(table, "alf", "attack", target="bob")
    table = declare(table, "bob", "defend")
    table = resolve(table, (1, 1, 1))
    assert last(table, "attack.rolled")["modifier"] == 2


# -- attacking and damage -------------------------------------------------------------------


def test_an_attack_must_be_greater_than_the_target_number() -> None:
    """Attacking: "If the total is greater than the Target's Combat Stat + 10"."""
    table = declare(declare(fight("alf", "bob"), "alf", "attack", target="bob"), "bob", "defend")
    # bob defends: 1 + 10 + 3 = 14; alf 3d6+2 = 14 misses
    table = resolve(table, (4, 4, 4))
    rolled = last(table, "attack.rolled")
    assert (rolled["target_number"], rolled["total"], rolled["hit"]) == (14, 14, False)


def test_unarmed_attacks_do_strength_and_weapons_their_card() -> None:
    """Doing Damage: "Hand-to-Hand attacks do the Attacker's Strength Stat in damage. If the
    Attacker is using a weapon, then the weapon's Item Card will state the amount"."""
    table = declare(declare(fight("alf", "cat"), "alf", "attack", target="cat"), "cat", "defend")
    table = resolve(resolve(table, (6, 6, 6)))
    assert last(table, "damage.taken")["amount"] == 2
    table = declare(table, "cat", "defend")
    table = declare(table, "alf", "draw", item="pistol")
    table = resolve(resolve(table))
    table = declare(table, "cat", "defend")
    table = declare(table, "alf", "attack", target="cat")
    table = resolve(resolve(table), (6, 6, 6))
    assert last(table, "damage.taken")["amount"] == 5  # "Guns are treated in exactly the same way"
    assert last(table, "damage.taken")["by"] == "pistol"


def test_drawing_needs_the_item_card() -> None:
    with pytest.raises(RuleError, match="no item card"):
        declare(fight("alf", "bob"), "alf", "draw", item="sword")
    with pytest.raises(RuleError, match="no item card"):
        act(start(brawl()), "bob", "draw", item="pistol")


def test_a_defensive_action_counts_for_the_whole_round() -> None:
    """Defensive Action: +3 — RULINGS: including attacks resolved before the defender's place."""
    table = declare(declare(fight("cat", "bob"), "cat", "attack", target="bob"), "bob", "defend")
    table = resolve(table, (1, 1, 1))
    assert last(table, "attack.rolled")["target_number"] == 1 + 10 + 3


def test_screaming_adds_the_referees_bonus_if_attacked() -> None:
    """Screaming in Terror: "a bonus of up to +3 may be added to the character's Combat Stat"."""
    table = fight("cat", "bob")
    table = declare(table, "cat", "attack", target="bob")
    with pytest.raises(ActionError, match="bonus: Input should be less than or equal to 3"):
        declare(table, "bob", "scream", bonus=4)
    table = resolve(declare(table, "bob", "scream", bonus=2), (1, 1, 1))
    assert last(table, "attack.rolled")["target_number"] == 1 + 10 + 2


def test_knocked_out_by_more_than_half_stamina_in_one_attack() -> None:
    """Taking Damage: "greater than half the Character's Stamina Stat in damage from a single
    attack" (exact: 3 of Stamina 5 knocks out; 3 of Stamina 6 does not)."""
    assert is_knocked_out(single=3, total=3, stamina=5)
    assert not is_knocked_out(single=3, total=3, stamina=6)
    assert not is_knocked_out(single=2, total=2, stamina=5)
    assert is_knocked_out(single=1, total=6, stamina=5)
    assert not is_knocked_out(single=1, total=5, stamina=5)


def test_wounds_are_damage_beyond_stamina() -> None:
    assert wounds_taken(total=7, stamina=5) == 2
    assert wounds_taken(total=4, stamina=5) == 0


def knock_out_bob(dice: tuple[int, ...] = (6, 6, 6)) -> T:
    """Alf (cosh, 4 damage) knocks Bob (Stamina 5) out in round 1: the combat ends."""
    table = act(start(brawl()), "alf", "draw", item="cosh")
    table = act(table, "alf", "start_combat", targets=["bob"])
    table = declare(declare(table, "alf", "attack", target="bob"), "bob", "defend")
    return resolve(table, dice)


def test_the_combat_ends_when_a_side_is_out_and_they_recover_five_minutes_later() -> None:
    """ "Otherwise they will recover 5 minutes after the combat ends"."""
    table = knock_out_bob()
    assert kinds(table)[-3:] == ["combat.round_ended", "combat.ended", "timer.set"]
    assert table.state.status("bob").wake_due == 5 * MINUTE
    sheet = table.visible_state("bob")
    assert sheet is not None and sheet["characters"]["bob"]["wakes_at"] == "22:05"
    with pytest.raises(RuleError, match="Knocked Out"):
        act(table, "bob", "perceive", [1, 1, 1], target="alf")
    table = table.advance(5 * MINUTE - 1)
    assert table.state.status("bob").knocked_out
    table = table.advance(5 * MINUTE)
    assert not table.state.status("bob").knocked_out
    assert table.state.status("bob").wounds_marked == 0  # 4 damage, not over Stamina 5


def test_medicine_of_fourteen_or_more_wakes_them_sooner() -> None:
    """ "Knocked Out Characters can be awakened with a Medicine roll of 14 or more"."""
    table = knock_out_bob()
    with pytest.raises(RuleError, match="no Medicine"):
        act(table, "dan", "revive", [6, 6, 6], target="bob")
    table = act(table, "cat", "revive", [4, 4, 3], target="bob")  # 11 + 2 = 13
    assert table.state.status("bob").knocked_out
    table = act(table, "cat", "revive", [4, 4, 4], target="bob")  # 14
    assert not table.state.status("bob").knocked_out
    assert last(table, "medicine.rolled")["chance"] == "3/8"
    table = table.advance(10 * MINUTE)  # the recovery timer was cancelled
    assert [e.data["how"] for e in table.log if e.kind == "character.woke"] == ["medicine"]


def test_wounds_reduce_stamina_from_the_next_awakening_and_mark_off() -> None:
    """ "On awakening, characters have their Stamina reduced by their number of wounds"."""
    setup = brawl(alf={"items": {"cannon": {"damage": 7}}})
    table = act(start(setup), "alf", "draw", item="cannon")
    table = act(table, "alf", "start_combat", targets=["dan"])
    table = declare(declare(table, "alf", "attack", target="dan"), "dan", "defend")
    table = resolve(table, (6, 6, 6))  # 7 damage against Stamina 6: out, one wound
    assert table.state.status("dan").pending_wounds == 1
    assert table.state.stamina("dan") == 6  # not yet: "On awakening"
    table = table.advance(5 * MINUTE)
    assert table.state.stamina("dan") == 5 and table.state.status("dan").wounds_marked == 1
    sheet = table.procedure.state_json(table.state)
    assert sheet["characters"]["dan"]["wounds_left"] == 5
    # now 3 damage in one attack is over half his Stamina (5), where it was not of 6
    table = act(table, "bob", "start_combat", targets=["dan"])
    table = declare(declare(table, "bob", "attack", target="dan"), "dan", "defend")
    table = resolve(table, (6, 6, 6))
    assert last(table, "damage.taken") | {"stamina": 5, "knocked_out": True} == last(
        table, "damage.taken"
    )


def test_every_wound_marked_is_death() -> None:
    """ "When all of the Wounds are marked off, the character is dead" (RULINGS)."""
    table = knock_out_bob()
    table = act(table, "referee", "end_combat") if table.state.running else table
    # ScarFace-like: Bob, Stamina 5, Wounds 5, takes 10 in a combat: 5 wounds -> dead
    setup = brawl(bob={"stamina": 5}, alf={"items": {"cannon": {"damage": 10}}})
    table = act(start(setup), "alf", "draw", item="cannon")
    table = act(table, "alf", "start_combat", targets=["bob"])
    table = declare(declare(table, "alf", "attack", target="bob"), "bob", "defend")
    table = resolve(table, (6, 6, 6))
    assert last(table, "character.died") == {"character": "bob", "wounds": 5}
    assert table.state.status("bob").dead
    with pytest.raises(RuleError, match="dead"):
        act(table, "bob", "perceive", [1, 1, 1], target="alf")


def test_the_victor_may_slit_the_throat_of_the_knocked_out() -> None:
    """ "the victor can have his or her way with them (search them, rob them, slit their
    throats…)"."""
    table = knock_out_bob()
    table = act(table, "alf", "slay", target="bob")
    assert table.state.status("bob").dead
    table = table.advance(10 * MINUTE)
    assert not [e for e in table.log if e.kind == "character.woke"]
    with pytest.raises(RuleError, match="not Knocked Out"):
        act(table, "dan", "slay", target="alf")


def test_the_knocked_out_cannot_be_attacked_in_the_combat() -> None:
    table = act(fight("alf", "bob"), "cat", "join", **{"with": "bob"})
    table = declare(table, "alf", "draw", item="pistol")
    table = declare(declare(table, "cat", "defend"), "bob", "defend")
    table = resolve(resolve(resolve(table)))
    table = declare(table, "cat", "defend")
    table = declare(table, "alf", "attack", target="bob")
    table = declare(table, "bob", "defend")
    table = resolve(resolve(resolve(table), (6, 6, 6)))  # bob out; his defence lapses
    assert table.state.status("bob").knocked_out
    assert last(table, "combat.action_lapsed")["character"] == "bob"
    with pytest.raises(RuleError, match="not a target"):
        declare(table, "cat", "attack", target="bob")


# -- grabbing -------------------------------------------------------------------------------


def grabbed() -> T:
    """Cat (Combat 3) grabs Bob (Combat 1) in round 1; Bob's later action lapses."""
    table = declare(
        declare(fight("cat", "bob"), "cat", "grab", target="bob"), "bob", "attack", target="cat"
    )
    return resolve(resolve(table, (6, 6, 6)))


def test_a_grab_is_plus_eleven_and_halves_both_combat_stats() -> None:
    """Grabbing: "add +11, not +10 ... Both ... at half their Combat Stat (round up)"."""
    table = grabbed()
    assert [e.data["target_number"] for e in table.log if e.kind == "attack.rolled"] == [12]
    assert combat(table).holder_of("bob") == "cat"
    assert table.state.effective_combat(combat(table), "cat") == half(3) == 2
    assert table.state.effective_combat(combat(table), "bob") == 1


def test_once_held_the_target_takes_no_further_action_and_no_damage_that_turn() -> None:
    table = grabbed()
    assert last(table, "combat.action_lapsed")["character"] == "bob"
    assert not [e for e in table.log if e.kind == "damage.taken"]


def test_a_held_character_may_only_break_free_or_scream() -> None:
    table = declare(grabbed(), "cat", "squeeze")
    with pytest.raises(RuleError, match="Breaking Free or Screaming"):
        declare(table, "bob", "attack", target="cat")
    declare(table, "bob", "scream")


def test_the_holder_squeezes_for_half_strength_and_the_target_stays_held() -> None:
    """Squeeze: "half their Strength Stat in Damage ... a Target starts the next turn Held"."""
    table = grabbed()
    with pytest.raises(RuleError, match="Squeeze, Throw or Release"):
        declare(table, "cat", "attack", target="bob")
    table = declare(declare(table, "cat", "squeeze"), "bob", "scream")
    table = resolve(resolve(table))
    assert last(table, "damage.taken")["amount"] == half(1) == 1
    table = declare(table, "cat", "squeeze")
    assert combat(table).holder_of("bob") == "cat"


def test_a_throw_does_strength_and_releases_at_the_start_of_the_next_turn() -> None:
    table = grabbed()
    table = declare(declare(table, "cat", "throw"), "bob", "scream")
    table = resolve(resolve(table))
    assert last(table, "damage.taken")["amount"] == 1
    assert combat(table).holder_of("bob") == "cat"  # until the start of the next turn
    table = declare(table, "cat", "defend")
    assert combat(table).holder_of("bob") is None
    declare(table, "bob", "attack", target="cat")


def test_release() -> None:
    table = declare(declare(grabbed(), "cat", "release"), "bob", "scream")
    table = resolve(resolve(table))
    table = act(table, "referee", "next_round")
    assert combat(table).holds == ()


def test_break_free_must_exceed_the_holders_strength_roll() -> None:
    """Break Free: "If the Held Character's total exceeds the Attacker's total"."""
    table = declare(declare(grabbed(), "cat", "squeeze"), "bob", "break_free")
    table = resolve(resolve(table), (3, 3, 3, 4, 4, 4))  # 9 + 3 = 12 against 12 + 1 = 13
    assert last(table, "hold.break_free_rolled")["broke_free"] is False
    table = declare(declare(table, "cat", "squeeze"), "bob", "break_free")
    table = resolve(resolve(table), (4, 4, 3, 4, 4, 4))  # 14 against 13
    assert last(table, "hold.break_free_rolled")["broke_free"] is True
    table = declare(table, "cat", "defend")
    declare(table, "bob", "attack", target="cat")  # "free to take any Action"


def test_only_the_held_break_free_and_only_holders_squeeze() -> None:
    table = fight("cat", "bob")
    with pytest.raises(RuleError, match="not Held"):
        declare(table, "cat", "break_free")
    with pytest.raises(RuleError, match="did not start the turn Holding"):
        declare(table, "cat", "squeeze")


# -- groups ---------------------------------------------------------------------------------


def test_a_group_rolls_once_with_the_best_combat_plus_one_per_able_helper() -> None:
    """Multiple Attackers: "the Combat Stat of the character with the best Combat Stat. Each
    character (whose Combat Stat is at least half of that of the best) adds +1"."""
    assert group_attack([2, 1, 0]) == (2, 1)
    assert group_attack([3, 1]) == (3, 0)  # 1 is less than half of 3
    assert group_attack([2, 2, 2, 2]) == (2, 3)


def test_a_group_attack_through_the_procedure() -> None:
    table = act(fight("alf", "cat"), "dan", "join", **{"with": "alf"})
    table = act(table, "eve", "join", **{"with": "alf"})
    table = declare(table, "alf", "attack", target="cat", group=["dan", "eve"])
    with pytest.raises(RuleError, match="already declared"):
        declare(table, "dan", "defend")
    table = declare(table, "cat", "defend")
    assert preview(table.state, "combat-1")[0][0] == "Alf+Dan+Eve attack Cat: 3d6+3 > 16"
    table = resolve(table, (1, 1, 1))
    rolled = last(table, "attack.rolled")
    assert rolled["attackers"] == ["alf", "dan", "eve"] and rolled["modifier"] == 2 + 1
    assert last(table, "combat.place_resolved")["characters"] == ["alf", "dan", "eve"]


def test_groups_are_up_to_four_on_one_side() -> None:
    table = fight("alf", "bob")
    for who in ("cat", "dan", "eve"):
        table = act(table, who, "join", **{"with": "alf"})
    table = act(table, "kro", "join", **{"with": "alf"})
    with pytest.raises(RuleError, match="up to 4"):
        declare(table, "alf", "attack", target="bob", group=["cat", "dan", "eve", "kro"])
    table2 = act(fight("alf", "bob"), "cat", "join", **{"with": "bob"})
    with pytest.raises(RuleError, match="not on alf's side"):
        declare(table2, "alf", "attack", target="bob", group=["cat"])


# -- escaping -------------------------------------------------------------------------------


def two_dodges() -> T:
    """Alf attacks Bob twice; Bob dodges and is missed twice."""
    table = fight("alf", "bob")
    for _ in range(2):
        table = declare(declare(table, "alf", "attack", target="bob"), "bob", "defend")
        table = resolve(resolve(table, (1, 1, 1)))
    return table


def test_escape_needs_two_consecutive_unhit_defensive_actions() -> None:
    """Escaping Combat: "succeed in two consecutive Defensive Actions (that is, avoid being hit
    for two turns)"."""
    table = fight("alf", "bob")
    table = declare(declare(table, "alf", "attack", target="bob"), "bob", "defend")
    table = resolve(resolve(table, (1, 1, 1)))
    with pytest.raises(RuleError, match="1 consecutive"):
        act(table, "bob", "escape", [6, 6, 6, 1, 1, 1])
    table = declare(declare(table, "alf", "attack", target="bob"), "bob", "defend")
    with pytest.raises(RuleError, match="end of a round"):
        act(table, "bob", "escape", [6, 6, 6, 1, 1, 1])


def test_being_hit_breaks_the_streak() -> None:
    table = fight("alf", "bob")
    table = declare(declare(table, "alf", "attack", target="bob"), "bob", "defend")
    table = resolve(resolve(table, (1, 1, 1)))
    table = declare(declare(table, "alf", "attack", target="bob"), "bob", "defend")
    table = resolve(resolve(table, (6, 6, 6)))
    assert combat(table).streak("bob") == 0


def test_the_escape_roll_must_beat_the_attackers() -> None:
    table = two_dodges()
    failed = act(table, "bob", "escape", [3, 3, 3, 3, 3, 2])  # 10 vs 10: not beaten
    assert last(failed, "escape.rolled")["escaped"] is False
    assert combat(failed).streak("bob") == 0  # ruling: two more Defensive Actions
    with pytest.raises(RuleError, match="already tried"):
        act(failed, "bob", "escape", [6, 6, 6, 1, 1, 1])
    table = act(table, "bob", "escape", [3, 3, 3, 3, 3, 1])
    assert last(table, "escape.rolled")["escaped"] is True
    assert combat(table).ended and kinds(table)[-1] == "combat.ended"


def test_the_escaped_may_not_rejoin() -> None:
    table = act(fight("alf", "bob"), "cat", "join", **{"with": "bob"})
    table = declare(table, "alf", "attack", target="bob")
    table = declare(declare(table, "cat", "defend"), "bob", "defend")
    table = resolve(resolve(resolve(table, (1, 1, 1))))
    table = declare(table, "cat", "defend")
    table = declare(declare(table, "alf", "attack", target="bob"), "bob", "defend")
    table = resolve(resolve(resolve(table), (1, 1, 1)))
    table = act(table, "bob", "escape", [6, 6, 6, 1, 1, 1])
    assert "bob" in combat(table).escaped and not combat(table).ended
    with pytest.raises(RuleError):
        act(table, "referee", "admit", character="bob", **{"with": "cat"})


def test_with_no_attacker_in_those_rounds_the_escape_needs_no_roll() -> None:
    """Ruling: nobody attacked the escaper in the two rounds: nobody to beat."""
    table = fight("alf", "bob")
    for _ in range(2):
        table = resolve(resolve(declare(declare(table, "alf", "defend"), "bob", "defend")))
    table = act(table, "bob", "escape")
    assert last(table, "escape.rolled")["escaped"] is True


# -- mental abilities in combat --------------------------------------------------------------


def test_a_mental_attacker_ranks_by_mind() -> None:
    """Mixing: "the Attacker determines initiative using the Mental Stat"."""
    table = declare(declare(fight("alf", "kro"), "alf", "defend"), "kro", "defend")
    table = resolve(resolve(table))
    table = act(table, "kro", "use_mind")
    assert initiative_rank(table.state, combat(table), "kro") == 3
    with pytest.raises(RuleError, match="kro declares before alf"):
        declare(table, "alf", "defend")
    with pytest.raises(RuleError, match="name the mental ability"):
        declare(table, "kro", "attack", target="alf")
    with pytest.raises(RuleError, match="cannot be used during normal combat"):
        declare(table, "kro", "attack", target="alf", ability="Sleep")
    table = declare(table, "kro", "attack", target="alf", ability="Befuddle")
    table = declare(table, "alf", "defend")
    table = resolve(table, (6, 6, 6))
    rolled = last(table, "attack.rolled")
    # a mental attack with no physical damage cannot be dodged: Alf's Mind 1 + 10
    assert (rolled["modifier"], rolled["target_number"], rolled["hit"]) == (3, 11, True)
    # "others can have more subtle effects when an Attack is successful"
    assert last(table, "mental.effect")["effect"] == "Dazed: drop what you hold."


def test_use_mind_comes_before_the_rounds_declarations() -> None:
    table = declare(fight("alf", "kro"), "alf", "defend")
    with pytest.raises(RuleError, match="initiative is set"):
        act(table, "kro", "use_mind")
    with pytest.raises(RuleError, match="must use_mind"):
        declare(table, "kro", "attack", target="alf", ability="Energy Bolt")


def test_dodging_a_physical_mental_attack_subtracts_three_from_a_set_number_roll() -> None:
    """ "adding his Mind Stat and subtracting three for ScarFace's dodge"."""
    table = declare(declare(fight("alf", "kro"), "alf", "defend"), "kro", "defend")
    table = act(resolve(resolve(table)), "kro", "use_mind")
    table = declare(table, "kro", "attack", target="alf", ability="Energy Bolt")
    table = resolve(declare(table, "alf", "defend"), (6, 6, 5))
    rolled = last(table, "attack.rolled")
    assert (rolled["modifier"], rolled["total"], rolled["hit"]) == (0, 17, True)
    assert last(table, "damage.taken")["amount"] == 3


def test_combat_is_seen_by_everyone() -> None:
    table = knock_out_bob()
    public = [e.kind for e in view(table.log, "public")]
    assert "combat.started" in public and "character.knocked_out" in public


# -- rulings --------------------------------------------------------------------------------


def test_holding_and_held_halve_combat_for_initiative_too() -> None:
    """Ruling: "at half their Combat Stat" counts for the order of the next rounds as well."""
    table = declare(grabbed(), "cat", "squeeze")
    assert initiative_rank(table.state, combat(table), "cat") == 2


def test_the_grab_does_no_damage_but_others_may_hit_the_held() -> None:
    """Ruling: "No damage is done to the Target that turn" is the grab's own: a third party's
    attack later in the turn still hurts."""
    table = act(fight("cat", "bob"), "alf", "join", **{"with": "cat"})
    table = declare(table, "cat", "grab", target="bob")
    table = declare(table, "alf", "attack", target="bob")
    table = declare(table, "bob", "defend")
    table = resolve(resolve(table, (6, 6, 6)), (6, 6, 6))
    assert last(table, "damage.taken")["amount"] == 2


def test_knocked_out_when_the_combats_total_exceeds_stamina() -> None:
    """ "If the total damage taken ... during a combat exceeds the Stamina Stat"."""
    table = fight("bob", "dan")  # Bob (Strength 3) against Dan (Stamina 6)
    table = declare(declare(table, "bob", "attack", target="dan"), "dan", "defend")
    table = resolve(resolve(table, (6, 6, 6)))  # round 1: Bob first, then Dan
    for _ in range(2):  # rounds 2 and 3: Combat 1 each, one simultaneous place
        table = declare(declare(table, "bob", "attack", target="dan"), "dan", "defend")
        table = resolve(table, (6, 6, 6))
    damage = [
        (e.data["total"], e.data["knocked_out"]) for e in table.log if e.kind == "damage.taken"
    ]
    assert damage == [(3, False), (6, False), (9, True)]


def test_a_damaging_mental_ability_is_obvious_unless_its_card_says_otherwise() -> None:
    """Mixing Mental and Normal Combat: "some of them are more violent and obvious ... If the
    Attacker is using an obvious mental attack ..., then the Attacker must declare combat in the
    normal way" — a damaging ability is obvious unless its card says ``obvious: false``
    (RULINGS.md, Round 3): Krockin's Mind Spike, whose card says nothing, is declared as a
    combat, never resolved aside."""
    setup = brawl(kro={"abilities": {"Mind Spike": {"mental": True, "damage": 2}}})
    with pytest.raises(RuleError, match="obvious mental attack: the Attacker must declare combat"):
        act(start(setup), "kro", "mental_attack", target="alf", ability="Mind Spike")
    table = act(start(setup), "kro", "start_combat", targets=["alf"])
    table = act(table, "kro", "use_mind")
    table = declare(table, "kro", "attack", target="alf", ability="Mind Spike")
    table = resolve(declare(table, "alf", "defend"), (6, 6, 6))
    assert last(table, "damage.taken")["by"] == "Mind Spike"


def test_the_referee_may_rule_a_damaging_ability_undodgeable() -> None:
    setup = brawl(
        kro={"abilities": {"Lightning": {"mental": True, "damage": 2, "dodgeable": False}}}
    )
    table = declare(
        declare(act(start(setup), "alf", "start_combat", targets=["kro"]), "alf", "defend"),
        "kro",
        "defend",
    )
    table = act(resolve(resolve(table)), "kro", "use_mind")
    table = declare(table, "kro", "attack", target="alf", ability="Lightning")
    table = resolve(declare(table, "alf", "defend"), (1, 1, 1))
    assert last(table, "attack.rolled")["target_number"] == 1 + 10  # no +3 for the dodge


def test_the_referee_may_end_a_combat() -> None:
    table = act(fight("alf", "bob"), "referee", "end_combat", reason="they shake hands")
    assert combat(table).ended and last(table, "combat.ended")["reason"] == "they shake hands"


def test_with_two_combats_the_referee_names_the_one_to_resolve() -> None:
    table = act(fight("alf", "bob"), "cat", "start_combat", targets=["dan"])
    table = declare(declare(table, "alf", "defend"), "bob", "defend")
    with pytest.raises(RuleError, match="name the combat"):
        resolve(table)
    table = act(table, "referee", "resolve", combat="combat-1")
    assert last(table, "combat.place_resolved")["characters"] == ["alf"]


def test_the_menus_list_what_may_be_done() -> None:
    table = fight("alf", "bob")
    assert "alf" in PROCEDURE.actors(table.state) and "referee" in PROCEDURE.actors(table.state)
    alf = table.legal_actions("alf")
    assert {a.kind for a in alf} == {"declare", "next_round"}
    declared = {c.params["action"].values[0] for c in alf if c.kind == "declare"}
    assert declared == {"attack", "grab", "defend", "scream", "hold", "draw"}
    attack = next(c for c in alf if c.label == "attack")
    assert attack.params["target"] == OneOf(("bob",))
    assert {c.kind for c in table.legal_actions("bob")} == {"next_round"}  # alf declares first
    cat = {a.kind for a in table.legal_actions("cat")}
    assert {"perceive", "start_combat", "join", "roll", "encounter", "speak"} <= cat
    referee = table.legal_actions("referee")
    assert [c.kind for c in referee] == ["next_round", "end_combat", "admit"]
    assert referee[0].params == {"combat": OneOf(("combat-1",))}


def test_a_holder_who_is_grabbed_may_only_break_free_or_scream() -> None:
    """Ruling: being Held comes first — a Held holder may Break Free or Scream, not Squeeze."""
    table = act(fight("cat", "bob"), "alf", "join", **{"with": "bob"})
    table = declare(table, "cat", "grab", target="bob")
    table = declare(table, "alf", "grab", target="cat")
    table = declare(table, "bob", "defend")
    table = resolve(resolve(table, (6, 6, 6)), (6, 6, 6))
    assert last(table, "attack.rolled")["target_number"] == half(3) + 11  # cat is Holding
    table = resolve(table)  # bob's defence lapses: he is Held
    with pytest.raises(RuleError, match="Breaking Free"):
        declare(table, "cat", "squeeze")
    declare(table, "cat", "break_free")


def test_a_second_grab_on_the_held_lapses() -> None:
    """Ruling: a character is Held by one holder at a time."""
    table = act(fight("cat", "bob"), "alf", "join", **{"with": "cat"})
    table = declare(table, "cat", "grab", target="bob")
    table = declare(table, "alf", "grab", target="bob")
    table = declare(table, "bob", "defend")
    table = resolve(resolve(table, (6, 6, 6)))
    assert last(table, "combat.action_lapsed") == {
        "combat": "combat-1",
        "character": "alf",
        "reason": "Bob is already Held",
    }
    assert combat(table).holds == (Hold("cat", "bob"),)


def test_an_escaper_carries_no_damage_into_another_combat() -> None:
    """Taking Damage counts "the total damage taken by a Character during a combat": a character
    who escaped one combat (which goes on without them) and fights another starts it afresh,
    and the first combat's end does not wipe what they take in the second."""
    table = fight("alf", "bob")
    table = act(table, "dan", "join", **{"with": "bob"})
    table = act(table, "cat", "join", **{"with": "alf"})
    table = declare(table, "alf", "attack", target="dan")
    for who in ("cat", "bob", "dan"):
        table = declare(table, who, "defend")
    table = resolve(table, (6, 6, 6))  # alf first: 20 > 1 + 10 + 3, 2 damage
    while combat(table).in_round:
        table = resolve(table)
    assert table.state.status("dan").damage == 2
    for _ in range(2):
        for who in ("cat", "alf", "bob", "dan"):
            table = declare(table, who, "defend")
        while combat(table).in_round:
            table = resolve(table)
    table = act(table, "dan", "escape")
    assert "dan" in combat(table).escaped and not combat(table).ended
    table = act(table, "dan", "start_combat", targets=["eve"])
    assert table.state.status("dan").damage == 0
    table = declare(declare(table, "dan", "defend"), "eve", "attack", target="dan")
    table = act(table, "referee", "resolve", combat="combat-2")  # dan's defence
    table = act(table, "referee", "resolve", [6, 6, 6], combat="combat-2")  # 18 > 14: 1 damage
    assert table.state.status("dan").damage == 1
    table = act(table, "referee", "end_combat", combat="combat-1")
    assert table.state.status("dan").damage == 1
