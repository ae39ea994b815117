"""Tests that kill the mutants mutmut left alive in round 5 of issue 13 (docs/systems/intrigue.md,
"Mutation testing", "Round 5"): what a Combat Action's declaration may name, and what it records.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import MINUTE, ActionError, Event, RuleError, ScenarioError
from referee.systems.intrigue import load_game
from referee.systems.intrigue.evolve import evolve
from referee.systems.intrigue.game import unworn_numbers

from .helpers import act, character, last, start
from .test_combat import T, brawl, combat, declare, fight, resolve
from .test_mutants import _armed, _round3
from .test_mutants_resolve import _round

# -- declaring a Combat Action (combat_actions.validate, declare) ---------------------------


def test_a_combat_action_takes_only_its_own_parameters() -> None:
    """Combat Actions: a Defensive Action names nobody; an Attack names a target, an ability or
    a group, never an item. The refusal says what the action takes."""
    table = fight("alf", "bob")
    with pytest.raises(ActionError, match=r"defend takes no target \(it takes: nothing else\)"):
        declare(table, "alf", "defend", target="bob")
    with pytest.raises(
        ActionError, match=r"attack takes no item \(it takes: ability, group, target\)"
    ):
        declare(table, "alf", "attack", target="bob", item="cosh")


def _krockin_uses_mind(**changes: Any) -> T:
    """Alf and Krockin each defend in round 1; Krockin ranks by Mind in round 2."""
    table = declare(declare(fight("alf", "kro", **changes), "alf", "defend"), "kro", "defend")
    return act(resolve(resolve(table)), "kro", "use_mind")


def test_a_fighter_who_ranks_by_mind_may_still_hold_their_action() -> None:
    """Mixing Mental and Normal Combat: one who ranks by Mind uses a mental ability, or holds
    their action ("A character can choose to hold their action")."""
    table = declare(_krockin_uses_mind(), "kro", "hold")
    assert combat(table).declaration("kro").kind == "hold"


def test_only_a_mental_ability_on_the_sheet_makes_a_mental_attack() -> None:
    """Mental Combat: an Attack may name a mental ability the attacker has; an ability that is
    not mental, or one not on the sheet, is refused by that rule."""
    kro = brawl()["characters"]["kro"]
    abilities = {**kro["abilities"], "Fast Talk": {"value": 2}}
    table = fight("kro", "alf", kro={"abilities": abilities})
    for name in ("Fast Talk", "Fireball"):
        with pytest.raises(RuleError, match=f"kro has no mental ability '{name}'"):
            declare(table, "kro", "attack", target="alf", ability=name)


def _cat_holds_bob() -> T:
    """Cat grabs Bob in round 1 with Alf on her side; Alf defends and Bob's attack lapses."""
    table = act(fight("cat", "bob"), "alf", "join", **{"with": "cat"})
    table, _ = _round(
        table,
        [
            ("cat", {"action": "grab", "target": "bob"}),
            ("alf", {"action": "defend"}),
            ("bob", {"action": "attack", "target": "cat"}),
        ],
        [6, 6, 6],
    )
    assert combat(table).holder_of("bob") == "cat"
    return table


def test_the_held_may_be_attacked_but_not_grabbed_again() -> None:
    """Grabbing: a Held character may be hit by others ("other characters may attack the Held
    character"), but cannot be grabbed a second time."""
    table = _cat_holds_bob()
    with pytest.raises(RuleError, match="bob is already Held"):
        declare(table, "alf", "grab", target="bob")
    table = declare(table, "alf", "attack", target="bob")
    assert last(table, "combat.declared")["target"] == "bob"


def test_a_holder_may_not_join_a_group() -> None:
    """Multiple Attackers: a character Holding another Squeezes, Throws or Releases; they may not
    lend a hand to a group's Attack."""
    with pytest.raises(RuleError, match="cat is Holding or Held"):
        declare(_cat_holds_bob(), "alf", "attack", target="bob", group=["cat"])


def test_only_the_holder_throws_or_releases_and_each_declaration_names_the_other() -> None:
    """Squeeze, Throw, Release and Break Free are the holder's and the held's: another fighter
    may not Throw or Release; the holder's declaration names the held, the held's Break Free
    names the holder."""
    table = _cat_holds_bob()
    for kind in ("throw", "release", "squeeze"):
        with pytest.raises(RuleError, match="alf did not start the turn Holding a character"):
            declare(table, "alf", kind)
    for kind in ("throw", "release", "squeeze"):
        assert last(declare(table, "cat", kind), "combat.declared")["target"] == "bob"
    table = declare(declare(table, "cat", "squeeze"), "alf", "defend")
    table = declare(table, "bob", "break_free")
    assert last(table, "combat.declared")["target"] == "cat"


def test_a_group_member_is_another_fighter_named_once() -> None:
    """Multiple Attackers: the leader is not one of their own helpers."""
    table = act(fight("alf", "bob"), "cat", "join", **{"with": "alf"})
    with pytest.raises(RuleError, match="each member once"):
        declare(table, "alf", "attack", target="bob", group=["alf"])
    with pytest.raises(RuleError, match="each member once"):
        declare(table, "alf", "attack", target="bob", group=["cat", "cat"])


def test_a_group_of_four_attacks_together() -> None:
    """Multiple Attackers: "up to 4 characters" may attack one target together."""
    table = fight("alf", "bob")
    for who in ("cat", "dan", "eve"):
        table = act(table, who, "join", **{"with": "alf"})
    table = declare(table, "alf", "attack", target="bob", group=["cat", "dan", "eve"])
    assert last(table, "combat.declared")["group"] == ["cat", "dan", "eve"]


def test_a_fighter_who_has_declared_may_not_join_a_later_group() -> None:
    """Multiple Attackers: a helper gives their own action to the group; one who has already
    declared theirs this round cannot join another's."""
    table = act(fight("alf", "bob"), "cat", "join", **{"with": "alf"})
    table, _ = _round(
        table,
        [
            ("alf", {"action": "defend"}),
            ("cat", {"action": "defend"}),
            ("bob", {"action": "defend"}),
        ],
    )
    table = declare(table, "cat", "defend")  # Combat 3 declares before Alf's 2
    with pytest.raises(RuleError, match="cat cannot join alf's action now"):
        declare(table, "alf", "attack", target="bob", group=["cat"])


def test_a_held_action_is_declared_once_and_keeps_its_place() -> None:
    """Initiative: "A character can choose to hold their action until a later time": they may
    not hold it again; the action they then take (here drawing their cosh) is their own and is
    declared at the rank they held."""
    table = resolve(declare(declare(fight("alf", "bob"), "alf", "hold"), "bob", "defend"))
    with pytest.raises(RuleError, match="alf is already holding their action"):
        declare(table, "alf", "hold")
    table = declare(table, "alf", "draw", item="cosh")
    assert last(table, "item.drawn") == {"combat": "combat-1", "character": "alf", "item": "cosh"}
    declared = [
        (e.data["character"], e.data["action"], e.data["rank"])
        for e in table.log
        if e.kind == "combat.declared"
    ]
    assert declared[-1][:2] == ("alf", "draw") and declared[-1][2] == declared[0][2]


# -- the fold (evolve.py) -------------------------------------------------------------------


def test_after_a_failed_escape_two_more_unhit_defences_earn_another_try() -> None:
    """Escaping Combat (ruling: a failed escape needs two more Defensive Actions): one try a
    round; Bob fails against Alf, defends two more rounds unhit, and may try again (nobody
    attacked him in those rounds: nobody to beat)."""
    table = act(start(_armed()), "alf", "start_combat", targets=["bob"])
    table = act(table, "dan", "join", **{"with": "bob"})
    table = _round3(_round3(table, "attack", [1, 1, 1]), "defend", [])
    table = act(table, "bob", "escape", [1, 1, 1, 6, 6, 6])
    assert last(table, "escape.rolled")["escaped"] is False
    table = _round3(_round3(table, "defend", []), "defend", [])
    table = act(table, "bob", "escape")
    assert last(table, "escape.rolled")["escaped"] is True


def test_drawing_a_weapon_keeps_the_damage_already_taken() -> None:
    """Taking Damage counts over the whole combat: Bob's fist (3) hits Alf in round 1; Alf
    draws his cosh in round 2 and still carries those 3."""
    table = declare(declare(fight("alf", "bob"), "alf", "defend"), "bob", "attack", target="alf")
    table = resolve(resolve(table), (6, 6, 6))
    assert table.state.status("alf").damage == 3
    table = declare(declare(table, "alf", "draw", item="cosh"), "bob", "defend")
    table = resolve(resolve(table))
    assert table.state.status("alf").drawn == "cosh"
    assert table.state.status("alf").damage == 3


def test_a_perception_check_folded_at_another_time_starts_its_cooldown_then() -> None:
    """Perception Checks: "once every 15 minutes" from the check's own game time, even when one
    event's payload is folded twice, at two times (the fold's memo keys on the time)."""
    state = start(brawl()).state
    payload = {"perceiver": "alf", "target": "bob"}
    early = evolve(state, Event("perception.made", payload, at=0))
    later = evolve(state, Event("perception.made", payload, at=10 * MINUTE))
    assert early.cooldown_until("alf", "bob") == 15 * MINUTE
    assert later.cooldown_until("alf", "bob") == 25 * MINUTE


# -- the game file (game.py) ----------------------------------------------------------------


def test_items_in_a_game_file_are_a_mapping_of_item_cards() -> None:
    """Items: a character's items are cards by name; anything else is refused at its path."""
    for items, path, words in (
        (["knife"], ("characters", "a", "items"), "items is a mapping, not list"),
        (
            {"knife": 3},
            ("characters", "a", "items", "knife"),
            "an item card is a mapping, not int",
        ),
    ):
        with pytest.raises(ScenarioError) as error:
            load_game({"characters": {"a": character("A", 15, items=items)}})
        assert error.value.path == path
        assert str(error.value).endswith(words)


def test_envelopes_for_a_number_nobody_wears_are_pointed_out() -> None:
    """Character Badges: an envelope for a number no character wears is likely a slip in the
    game file; every such number is named, and a worn one is not."""
    state = load_game(
        {
            "characters": {
                "a": character(
                    "A",
                    15,
                    perception_envelopes=[{"to": [12, 53, 54], "target": 14, "contents": "x"}],
                    contingency_envelopes=[
                        {"see": 53, "contents": "y"},
                        {"talk": 12, "contents": "z"},
                    ],
                ),
                "b": character("B", 12),
            }
        }
    )
    assert unworn_numbers(state) == [
        "a-p1 (Give to Character 12, 53, 54, if they Roll 14 or more): nobody wears 53, 54",
        "a-c1 (Open if you see character 53): nobody wears 53",
    ]
