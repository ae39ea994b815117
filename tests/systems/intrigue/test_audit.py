"""The audit of issue 13 (../shared/audits/intrigue.md): each wrong clause, each untested one.

Each test names its entry (W1, U3 …) and fails when that clause is broken.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import ActionError, RuleError, ScenarioError, Table
from referee.systems.intrigue import IntrigueState, load_game
from referee.systems.intrigue.combat import escape_plan, preview

from .helpers import act, character, last, start

T = Table[IntrigueState]


def cast(**sheets: dict[str, Any]) -> dict[str, Any]:
    return {"start": "20:00", "characters": sheets}


def declare(table: T, who: str, action: str, dice: tuple[int, ...] = (), **params: Any) -> T:
    return act(table, who, "declare", list(dice), action=action, **params)


def resolve(table: T, dice: tuple[int, ...] = ()) -> T:
    return act(table, "referee", "resolve", list(dice))


def attacks(table: T) -> list[list[str]]:
    return [list(e.data["attackers"]) for e in table.log if e.kind == "attack.rolled"]  # type: ignore[arg-type]


# -- wrong --------------------------------------------------------------------------------


def test_w1_a_held_action_waits_for_every_place_ranked_above_the_holder() -> None:
    """W1, Initiative: "A character can choose to 'hold' their action until a later time" —
    later than their own place: holding never buys initiative over a higher Combat Stat."""
    table = start(
        cast(cat=character("Cat", 13, combat=3), bob=character("Bob", 12, combat=1, stamina=9))
    )
    table = act(table, "cat", "start_combat", targets=["bob"])
    table = resolve(resolve(declare(declare(table, "cat", "defend"), "bob", "defend")))
    table = declare(declare(table, "cat", "attack", target="bob"), "bob", "hold")
    with pytest.raises(RuleError, match="cat acts first"):
        declare(table, "bob", "attack", (6, 6, 6), target="cat")
    table = resolve(table, (1, 1, 1))  # cat's attack, at Combat 3
    table = declare(table, "bob", "attack", (6, 6, 6), target="cat")
    assert attacks(table) == [["cat"], ["bob"]]


def test_w2_a_perception_envelope_names_its_numbers_and_its_target_number() -> None:
    """W2, Perception Envelopes: "Each will have one or more Character Numbers and a Target
    Number on them": a game file that leaves either out is refused, naming the field."""
    for missing in ("to", "target"):
        envelope = {"to": "ALL", "target": 16, "contents": "the secret"}
        del envelope[missing]
        with pytest.raises(ScenarioError) as error:
            load_game(cast(h=character("H", 11, perception_envelopes=[envelope])))
        assert error.value.path == ("characters", "h", "perception_envelopes", 0, missing)


# -- untested ------------------------------------------------------------------------------


def _holding(strength: int) -> T:
    """alf (Strength ``strength``) has grabbed bob and starts round 2 Holding him."""
    table = start(
        cast(
            alf=character("Alf", 11, combat=3, strength=strength, stamina=9),
            bob=character("Bob", 12, combat=1, strength=1, stamina=20),
        )
    )
    table = act(table, "alf", "start_combat", targets=["bob"])
    table = declare(declare(table, "alf", "grab", target="bob"), "bob", "defend")
    return resolve(resolve(table, (6, 6, 6)))  # the grab holds; bob's defence lapses


def test_u1_a_squeeze_does_half_the_strength_rounded_up() -> None:
    """U1, Squeeze: "doing half their Strength Stat in Damage" (Strength 5: 3)."""
    table = declare(declare(_holding(5), "alf", "squeeze"), "bob", "scream")
    table = resolve(resolve(table))
    assert last(table, "damage.taken")["amount"] == 3


def test_u2_a_throw_does_the_whole_strength() -> None:
    """U2, Throw: "doing their Strength Stat in Damage" (Strength 5: 5)."""
    table = declare(declare(_holding(5), "alf", "throw"), "bob", "scream")
    table = resolve(resolve(table))
    assert last(table, "damage.taken")["amount"] == 5


def test_u3_the_escaper_must_beat_the_strongest_of_their_attackers() -> None:
    """U3, Escaping Combat; RULINGS: "the strongest character who attacked the escaper"."""
    table = start(
        cast(
            esc=character("Esc", 11, combat=1, stamina=30),
            weak=character("Weak", 12, combat=1, stamina=30),
            strong=character("Strong", 13, combat=3, stamina=30),
        )
    )
    table = act(table, "weak", "start_combat", targets=["esc"])
    table = act(table, "strong", "join", **{"with": "weak"})
    for order in (("weak", "strong"), ("strong", "weak")):  # the starter first in round 1
        for who in order:
            table = declare(table, who, "attack", target="esc")
        table = declare(table, "esc", "defend")
        while table.state.combats[-1].in_round:
            rolls = len(preview(table.state, "combat-1"))
            table = resolve(table, (1, 1, 1) * rolls)  # every attack misses
    combat = table.state.combats[-1]
    assert combat.streak("esc") == 2
    plan = escape_plan(table.state, combat, "esc")
    assert plan is not None and plan[0] == "strong"


def test_u4_tied_places_resolve_against_the_state_before_them() -> None:
    """U4, Initiative: "Ties act simultaneously"; RULINGS: both happen even if one knocks the
    other out."""
    table = start(
        cast(
            ann=character("Ann", 11, combat=2, strength=4, stamina=4),
            ben=character("Ben", 12, combat=2, strength=4, stamina=4),
        )
    )
    table = act(table, "ann", "start_combat", targets=["ben"])
    table = resolve(resolve(declare(declare(table, "ann", "defend"), "ben", "defend")))
    table = declare(declare(table, "ann", "attack", target="ben"), "ben", "attack", target="ann")
    table = resolve(table, (6, 6, 6, 6, 6, 6))  # both hit for 4 > half of Stamina 4
    out = [e.data["character"] for e in table.log if e.kind == "character.knocked_out"]
    assert sorted(out) == ["ann", "ben"]  # type: ignore[type-var]


def test_u5_surprise_adds_three_to_the_attacker_only() -> None:
    """U5, Surprise: "+3 is added to the Attacker's Combat Stat for the first turn": a target
    who was not surprised strikes back without it."""
    table = start(
        cast(
            ann=character("Ann", 11, combat=2, stamina=20),
            ben=character("Ben", 12, combat=1, stamina=20),
            cal=character("Cal", 13, combat=1, stamina=20),
        )
    )
    table = act(table, "ann", "start_combat", targets=["ben", "cal"], surprised=["ben"])
    table = declare(declare(table, "ann", "defend"), "cal", "attack", target="ann")
    table = resolve(resolve(table), (1, 1, 1))
    assert last(table, "attack.rolled")["modifier"] == 1


def _knocked_out(table: T) -> T:
    """alf knocks bob out (a knife of 5 > half of bob's Stamina 5), and the combat ends."""
    table = act(table, "alf", "draw", item="knife")
    table = act(table, "alf", "start_combat", targets=["bob"])
    table = declare(declare(table, "alf", "attack", target="bob"), "bob", "defend")
    return resolve(table, (6, 6, 6))


MEDIC = cast(
    alf=character("Alf", 11, combat=2, stamina=9, items={"knife": {"damage": 5}}),
    bob=character("Bob", 12, combat=1, stamina=5),
    doc=character("Doc", 13, skills={"Medicine": 0}),
)


def test_u6_a_failed_medicine_roll_leaves_the_recovery_to_its_five_minutes() -> None:
    """U6, Taking Damage: "Otherwise they will recover 5 minutes after the combat ends"."""
    table = _knocked_out(start(MEDIC))
    table = act(table, "doc", "revive", [1, 1, 1], target="bob")
    assert table.state.status("bob").knocked_out
    table = table.advance(table.now + 5 * 60)
    assert not table.state.status("bob").knocked_out


def test_u7_the_best_members_weapon_does_a_groups_damage() -> None:
    """U7, ruling 13: "the best member's Strength or weapon does the damage"."""
    table = start(
        cast(
            low=character("Low", 11, combat=2, strength=1, stamina=9),
            top=character("Top", 12, combat=3, strength=1, stamina=9, items={"axe": {"damage": 4}}),
            vic=character("Vic", 13, combat=1, stamina=20),
        )
    )
    table = act(table, "top", "draw", item="axe")
    table = act(table, "low", "start_combat", targets=["vic"])
    table = act(table, "top", "join", **{"with": "low"})
    table = declare(table, "low", "attack", target="vic", group=["top"])
    table = resolve(declare(table, "vic", "defend"), (6, 6, 6))
    assert last(table, "damage.taken")["amount"] == 4


def test_u8_medicine_is_not_tried_from_inside_a_combat() -> None:
    """U8, ruling 19: Medicine is tried by a character not in a combat."""
    table = _knocked_out(start(MEDIC))
    table = act(table, "doc", "start_combat", targets=["alf"])
    with pytest.raises(RuleError, match="doc is in a combat"):
        act(table, "doc", "revive", [6, 6, 6], target="bob")


def test_u9_wounds_count_from_the_stamina_after_earlier_wounds() -> None:
    """U9, ruling 18: wounds are counted from the Stamina after earlier wounds (a character
    woken by Medicine with a wound fights on at Stamina 4, not 5)."""
    setup = cast(
        alf=character("Alf", 11, combat=2, stamina=9, items={"knife": {"damage": 6}}),
        bob=character("Bob", 12, combat=1, stamina=5),
        doc=character("Doc", 13, skills={"Medicine": 5}),
    )
    table = _knocked_out(start(setup))  # 6 damage against Stamina 5: one wound
    table = act(table, "doc", "revive", [6, 6, 6], target="bob")
    assert table.state.stamina("bob") == 4
    table = _knocked_out(table)  # 6 more, against Stamina 4: two wounds
    table = act(table, "doc", "revive", [6, 6, 6], target="bob")  # woken by Medicine again
    assert table.state.status("bob").wounds_marked == 3


# -- bad input -----------------------------------------------------------------------------


def test_b3_a_negative_target_number_is_refused() -> None:
    """B3: "3d6+0 ≥ -5" is not a Target Number."""
    table = start(cast(a=character("A", 11)))
    with pytest.raises(ActionError, match=r"roll\.target"):
        act(table, "a", "roll", [1, 1, 1], skill="Medicine", target=-5)


def test_r3_waking_the_knocked_out_needs_medicine_on_the_sheet() -> None:
    """R3, ruling 19 (the exception to ruling 2): a character without Medicine on their sheet
    does not try to wake the Knocked Out."""
    setup = {**MEDIC, "characters": {**MEDIC["characters"], "nurse": character("Nurse", 14)}}
    table = _knocked_out(start(setup))
    with pytest.raises(RuleError, match="nurse has no Medicine skill"):
        act(table, "nurse", "revive", [6, 6, 6], target="bob")


def test_r2_only_the_victor_has_their_way_with_the_knocked_out() -> None:
    """M1/R2, Taking Damage: "the victor can have his or her way with them": a passer-by who
    never fought may not slay the Knocked Out (reading (a))."""
    setup = {**MEDIC, "characters": {**MEDIC["characters"], "passer": character("Passer", 14)}}
    table = _knocked_out(start(setup))
    with pytest.raises(RuleError, match="only the victor"):
        act(table, "passer", "slay", target="bob")
    assert "slay" not in {c.kind for c in table.legal_actions("passer")}
    table = act(table, "alf", "slay", target="bob")
    assert table.state.status("bob").dead


def test_r4_a_characters_stamina_is_theirs_and_the_referees_alone() -> None:
    """R4, ruling 27: the Stamina Stat is on the Character Card, so the damage a character
    takes is public but their Stamina is not: only they (and the referee) see it."""
    from referee.core import Viewer, observe

    table = _knocked_out(start(MEDIC))
    [taken] = [e for e in table.log if e.kind == "damage.taken"]
    assert taken.data["stamina"] == 5 and taken.data["amount"] == 5
    for viewer, sees in (("bob", True), ("referee", True), ("alf", False), ("doc", False)):
        [seen] = [e for e in table.view(Viewer(viewer)) if e.kind == "damage.taken"]
        assert ("stamina" in seen.data) is sees, viewer
        assert seen.data["amount"] == 5 and seen.data["knocked_out"]
    stranger = observe(table, Viewer("stranger")).to_json()
    [public] = [e for e in stranger["events"] if e["kind"] == "damage.taken"]
    assert "Stamina" not in public["text"] and "stamina" not in public["payload"]
