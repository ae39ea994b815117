"""Tests that kill the mutants mutmut left alive (issue 13, docs/systems/intrigue.md, "Mutation
testing"): each asserts an outcome of the rules text with scripted dice.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import MINUTE, Event, RuleError, ScenarioError, Viewer, view
from referee.systems.intrigue.damage import victors
from referee.systems.intrigue.envelopes import ConditionKind, encounter_meets
from referee.systems.intrigue.events import (
    CHARACTER_SEARCHED,
    CHARACTER_WOKE,
    MENTAL_ATTACKED,
    SKILL_ROLLED,
    describe,
)
from referee.systems.intrigue.game import load_game

from .helpers import act, character, last, start, without_names


def cast(**sheets: dict[str, Any]) -> dict[str, Any]:
    return {"start": "20:00", "characters": sheets}


ROLLERS = cast(
    a=character(
        "Ann",
        11,
        skills={"Medicine": 1, "Stealth": 2},
        abilities={"Lockpicking": {"value": 4}},
    ),
    b=character("Bob", 12, skills={"Medicine": 3, "Perception": 5}),
)


def seen(table: Any, who: str, kind: str) -> dict[str, Any] | None:
    """The data of the last event of ``kind`` that ``who`` sees, or None."""
    events = [e for e in view(table.log, Viewer(who)) if e.kind == kind]
    return without_names(events[-1].data) if events else None


def test_a_skill_roll_against_a_target_number_tells_the_roller_only() -> None:
    """Skill Rolls: "roll 3d6 and add their sum to your skill value": 6+6+1 + Medicine 1 = 14
    meets a Target Number of 14. The roller sees their own value and dice; the odds stay the
    referee's (module ruling)."""
    table = act(start(ROLLERS), "a", "roll", [6, 6, 1], skill="Medicine", target=14)
    data = last(table, "skill.rolled")
    assert (data["character"], data["skill"], data["target"]) == ("a", "Medicine", 14)
    assert (data["total"], data["faces"], data["success"]) == (14, [6, 6, 1], True)
    assert data["value"] == 1
    card = data["roll"]
    assert (card["label"], card["rule"], card["odds"]) == (
        "Ann's Medicine ≥ 14",
        "Skill Rolls",
        None,
    )
    assert (card["dice"], card["margin"]) == ("3d6+1 ≥ 14", 0)
    mine = seen(table, "a", "skill.rolled")
    assert mine is not None and mine["value"] == 1 and "odds" not in mine
    assert "chance" not in mine
    assert seen(table, "b", "skill.rolled") is None
    assert seen(table, "public", "skill.rolled") is None


def test_a_skill_roll_one_short_of_the_target_fails() -> None:
    """Skill Rolls: 13 does not meet a Target Number of 14."""
    table = act(start(ROLLERS), "a", "roll", [6, 5, 1], skill="Medicine", target=14)
    assert last(table, "skill.rolled")["success"] is False


def test_a_special_ability_rolls_with_its_own_value_and_name() -> None:
    """Skill Rolls: a special ability with a skill value adds it to 3d6 (4 + 1+1+1 = 7)."""
    table = act(start(ROLLERS), "a", "roll", [1, 1, 1], ability="lockpicking", target=7)
    data = last(table, "skill.rolled")
    assert (data["skill"], data["value"], data["total"], data["success"]) == (
        "Lockpicking",
        4,
        7,
        True,
    )


def test_an_opposed_roll_shows_each_side_the_others_total_only() -> None:
    """Skill Rolls: the Target Number "may be a roll + skill value from another character":
    Ann's Stealth 2 + 6+6+6 = 20 against Bob's Perception 5 + 1+1+1 = 8. Each sees the other's
    total; Bob alone sees his own skill value; the roll card is the referee's."""
    table = act(
        start(ROLLERS),
        "a",
        "roll",
        [6, 6, 6, 1, 1, 1],
        skill="Stealth",
        against="b",
        against_skill="Perception",
    )
    data = last(table, "skill.rolled")
    assert (data["against"], data["against_skill"], data["against_total"]) == ("b", "Perception", 8)
    assert (data["total"], data["success"], data["faces"][:3]) == (20, True, [6, 6, 6])
    assert data["against_value"] == 5 and data["value"] == 2
    card = data["roll"]
    assert (card["label"], card["rule"]) == ("Ann's Stealth vs Bob's Perception", "Skill Rolls")
    for who in ("a", "b"):
        mine = seen(table, who, "skill.rolled")
        assert mine is not None and mine["against_total"] == 8 and "roll" not in mine
    ann, bob = seen(table, "a", "skill.rolled"), seen(table, "b", "skill.rolled")
    assert ann is not None and bob is not None
    assert "against_value" not in ann and bob["against_value"] == 5
    assert seen(table, "public", "skill.rolled") is None


def test_against_skill_needs_a_character_to_roll_against() -> None:
    """Skill Rolls: ``against_skill`` names the other character's skill; without ``against`` it
    is refused."""
    with pytest.raises(RuleError, match="against_skill"):
        act(start(ROLLERS), "a", "roll", skill="Medicine", target=10, against_skill="Perception")


# -- the log's words for what the rules decided (events.describe; issue 13, round 2) ----------


def _line(kind: str, **data: Any) -> str:
    return describe(Event(kind, data), Viewer("referee"))


def test_the_log_says_whether_a_skill_roll_succeeds_and_against_what() -> None:
    """Skill Rolls: the log line names the total, the Target Number or the other roller's
    total, and the verdict the rules reached."""
    assert (
        _line(SKILL_ROLLED, character="a", skill="Stealth", total=9, target=8, success=True)
        == "a rolls Stealth: 9 against 8: succeeds."
    )
    assert (
        _line(
            SKILL_ROLLED,
            character="a",
            skill="Stealth",
            total=7,
            against="b",
            against_total=11,
            success=False,
        )
        == "a rolls Stealth: 7 against b's 11: fails."
    )


def test_the_log_says_how_a_knocked_out_character_came_round() -> None:
    """Taking Damage: a character comes round after five minutes, or sooner with Medicine."""
    assert _line(CHARACTER_WOKE, character="a", how="medicine") == "a comes round with Medicine."
    assert (
        _line(CHARACTER_WOKE, character="a", how="time", wounds=2, stamina=3)
        == "a comes round after five minutes, with 2 wound(s) marked (Stamina 3)."
    )


def test_the_log_says_what_a_search_finds() -> None:
    """Searching a character: what the searcher finds, items and envelopes, or nothing."""
    assert _line(CHARACTER_SEARCHED, character="a", target="b") == "a searches b."
    assert (
        _line(CHARACTER_SEARCHED, character="a", target="b", items=[])
        == "a searches b: finds nothing."
    )
    assert (
        _line(
            CHARACTER_SEARCHED,
            character="a",
            target="b",
            envelopes=[{"id": "p1", "label": "a letter"}],
        )
        == "a searches b: finds envelope p1 (a letter)."
    )
    assert (
        _line(
            CHARACTER_SEARCHED,
            character="a",
            target="b",
            items=[{"name": "knife", "damage": 2}, {"name": "ring"}],
        )
        == "a searches b: finds knife (damage 2), ring."
    )


def test_the_log_says_whether_a_mental_attack_works() -> None:
    """Mental Combat: the attacker's total against the Target Number, the verdict, and the
    effect only when there is one."""
    base = {"attacker": "a", "ability": "Read Mind", "target": "b", "target_number": 12}
    assert (
        _line(MENTAL_ATTACKED, **base, total=14, hit=True, effect="reads a secret")
        == "a uses Read Mind on b: 14 against 12: works — reads a secret."
    )
    assert (
        _line(MENTAL_ATTACKED, **base, total=9, hit=False)
        == "a uses Read Mind on b: 9 against 12: fails."
    )


# -- Mental Combat outside a combat, Escaping Combat, Taking Damage (issue 13, round 3) ---------


def _minds() -> dict[str, Any]:
    read_mind = {"mental": True, "effect": "She answers one question."}
    return cast(
        krockin=character("Krockin", 33, mind=3, abilities={"Read Mind": read_mind}),
        maid=character("The Maid", 51, mind=1, abilities={"Read Mind": read_mind}),
        butler=character("The Butler", 50),
        lady=character("Lady Rich", 21, mind=2),
    )


def test_an_unnoticed_mental_attack_is_refused_if_either_side_is_in_a_combat() -> None:
    """Mental Combat: "no need to declare combat ... Simply take the target character to one
    side" — out of a combat only; in one, it is a Combat Action ("Mixing Mental and Normal
    Combat"). Krockin fights the Butler: he may not attack the Lady unnoticed, nor the Maid
    him; the Maid may still attack the Lady (Mind 1 + 4+4+4 = 13, over her Mind 2 + 10)."""
    table = act(start(_minds()), "krockin", "start_combat", targets=["butler"])
    with pytest.raises(RuleError, match="in a combat, declare it as a Combat Action"):
        act(table, "krockin", "mental_attack", target="lady", ability="Read Mind")
    with pytest.raises(RuleError, match="in a combat, declare it as a Combat Action"):
        act(table, "maid", "mental_attack", target="krockin", ability="Read Mind")
    after = act(table, "maid", "mental_attack", [4, 4, 4], target="lady", ability="Read Mind")
    data = last(after, "mental.attacked")
    assert (data["attacker"], data["target"], data["total"], data["hit"]) == (
        "maid",
        "lady",
        13,
        True,
    )


def test_only_an_encounter_opens_an_envelope_that_names_one() -> None:
    """Contingency Envelopes: "Open at nine o'clock" and "Open if shot" are opened by the time
    and by the event, never by seeing, meeting or talking to someone; and an encounter is
    met only by a report of seeing, meeting or talking (ruling: talking is also meeting and
    seeing)."""
    encounters = (ConditionKind.SEE, ConditionKind.MEET, ConditionKind.TALK)
    for other in (ConditionKind.AT, ConditionKind.EVENT):
        for how in encounters:
            assert encounter_meets(other, how) is False
            assert encounter_meets(how, other) is False
        assert encounter_meets(other, other) is False
    assert encounter_meets(ConditionKind.MEET, ConditionKind.TALK) is True


# -- Taking Damage: Medicine, the victor's way; Escaping Combat (issue 13, round 4) -------------


def _fighters() -> dict[str, Any]:
    return cast(
        alf=character("Alf", 11, combat=2, strength=2, stamina=6, items={"cannon": {"damage": 7}}),
        bob=character("Bob", 12, combat=1, strength=3, stamina=5),
        cat=character("Cat", 13, combat=3, strength=1, stamina=6, skills={"Medicine": 2}),
        dan=character("Dan", 14, combat=1, strength=1, stamina=6),
    )


def _bob_out_with_two_wounds() -> Any:
    """Alf's cannon (7) against Bob's Stamina 5: Bob is out, two wounds to mark on waking."""
    table = act(start(_fighters()), "alf", "draw", item="cannon")
    table = act(table, "alf", "start_combat", targets=["bob"])
    table = act(table, "alf", "declare", action="attack", target="bob")
    table = act(table, "bob", "declare", action="defend")
    table = act(table, "referee", "resolve", [6, 6, 6])
    assert table.state.status("bob").pending_wounds == 2 and not table.state.running
    return table


def test_medicine_of_fourteen_wakes_the_knocked_out_and_tells_them_alone_their_wounds() -> None:
    """Taking Damage: "Knocked Out Characters can be awakened with a Medicine roll of 14 or
    more"; "On awakening, characters have their Stamina reduced by their number of wounds".
    Cat's Medicine 2 + 4+4+4 = 14 wakes Bob at once (the five-minute timer is cancelled); his
    two wounds and Stamina 3 are his alone; the roll is everyone's."""
    table = _bob_out_with_two_wounds()
    before = len(table.log.events)
    table = act(table, "cat", "revive", [4, 4, 4], target="bob")
    rolled, cancelled, woke = (e.to_json() for e in table.log.events[before:])
    assert rolled["kind"] == "medicine.rolled" and rolled["audience"] == "everyone"
    assert without_names(rolled["payload"]) == {
        "character": "cat",
        "target": "bob",
        "medicine": 2,
        "chance": "3/8",
        "total": 14,
        "faces": [4, 4, 4],
        "success": True,
        "roll": {
            "card": "roll",
            "label": "Cat wakes Bob",
            "rule": "Taking Damage",
            "dice": "3d6+2 ≥ 14",
            "odds": {"failure": "5/8", "success": "3/8"},
            "faces": [4, 4, 4],
            "outcome": "success",
            "margin": 0,
            "value": 14,
            "opponent": None,
            "shown": "3d6 (4, 4, 4) + 2 = 14",
        },
    }
    assert (cancelled["kind"], cancelled["payload"]) == (
        "timer.cancelled",
        {"name": "wake:bob", "label": "Bob wakes"},
    )
    assert (woke["kind"], woke["audience"], woke["payload"]) == (
        "character.woke",
        "everyone",
        {"character": "bob", "how": "medicine", "names": {"bob": "Bob"}},
    )
    assert woke["secrets"] == [
        {"name": "wounds", "value": 2, "audience": ["bob"]},
        {"name": "stamina", "value": 3, "audience": ["bob"]},
    ]
    assert table.state.stamina("bob") == 3 and not table.state.status("bob").knocked_out
    for other in ("cat", "alf", "public"):
        mine = [e for e in view(table.log, Viewer(other)) if e.kind == "character.woke"]
        assert [without_names(e.data) for e in mine] == [{"character": "bob", "how": "medicine"}]


def test_medicine_of_thirteen_leaves_the_knocked_out_to_wake_in_five_minutes() -> None:
    """Taking Damage: 13 is not "14 or more": only the roll is logged, and Bob still wakes
    five minutes after the combat."""
    table = _bob_out_with_two_wounds()
    before = len(table.log.events)
    table = act(table, "cat", "revive", [4, 4, 3], target="bob")
    assert [e.kind for e in table.log.events[before:]] == ["medicine.rolled"]
    data = last(table, "medicine.rolled")
    assert (data["total"], data["success"], data["roll"]["outcome"]) == (13, False, "failure")
    assert table.state.status("bob").knocked_out
    assert table.state.status("bob").wake_due == 5 * MINUTE


def test_medicine_wakes_only_the_knocked_out() -> None:
    """Taking Damage: Medicine "awakens" the Knocked Out; on anyone else it is refused, and the
    refusal says why."""
    with pytest.raises(
        RuleError,
        match=r"^Taking Damage: dan is not Knocked Out after a combat "
        r"\(Medicine wakes the Knocked Out\)$",
    ):
        act(start(_fighters()), "cat", "revive", [4, 4, 4], target="dan")


def test_the_victor_slits_the_throat_of_the_knocked_out_and_the_log_names_the_hand() -> None:
    """Taking Damage: "the victor can have his or her way with them (... slit their
    throats...)": Bob dies at Alf's hand, the five-minute timer is cancelled, and everyone
    reads who did it."""
    table = _bob_out_with_two_wounds()
    before = len(table.log.events)
    table = act(table, "alf", "slay", target="bob")
    cancelled, died = (e.to_json() for e in table.log.events[before:])
    assert (cancelled["kind"], cancelled["payload"]) == (
        "timer.cancelled",
        {"name": "wake:bob", "label": "Bob wakes"},
    )
    assert (died["kind"], died["audience"], died["payload"]) == (
        "character.died",
        "everyone",
        {"character": "bob", "by": "alf", "names": {"bob": "Bob", "alf": "Alf"}},
    )
    assert describe(table.log.events[-1], Viewer("public")) == "Bob is dead at Alf's hand."
    assert table.state.status("bob").dead


def _round(table: Any, alf: str, bob: str, dice: list[int]) -> Any:
    """One round of Alf against Bob: each declares, the referee resolves (Alf acts first)."""
    if alf == "attack":
        table = act(table, "alf", "declare", action="attack", target="bob")
    else:
        table = act(table, "alf", "declare", action=alf)
    table = act(table, "bob", "declare", action=bob)
    table = act(table, "referee", "resolve", dice)
    return act(table, "referee", "resolve")


def _armed(**more: dict[str, Any]) -> dict[str, Any]:
    """Four fighters, each with a weapon of 7 (over half of anyone's Stamina)."""
    sheets = {
        "alf": character("Alf", 11, combat=2, stamina=6, items={"cannon": {"damage": 7}}),
        "bob": character("Bob", 12, combat=1, stamina=5, items={"gun": {"damage": 7}}),
        "cat": character("Cat", 13, combat=1, stamina=6, items={"axe": {"damage": 7}}),
        "dan": character("Dan", 14, combat=1, stamina=6),
        "eve": character("Eve", 15, combat=0, stamina=6),
    }
    for name, sheet in more.items():
        sheets[name] = {**sheets[name], **sheet}
    return cast(**sheets)


def _one_blow(table: Any, attacker: str, weapon: str, target: str) -> Any:
    """``attacker`` draws ``weapon``, starts a combat with ``target`` and knocks them out in
    round one (6+6+6 hits; 7 damage is over half of any Stamina here)."""
    table = act(table, attacker, "draw", item=weapon)
    table = act(table, attacker, "start_combat", targets=[target])
    table = act(table, attacker, "declare", action="attack", target=target)
    table = act(table, target, "declare", action="defend")
    table = act(table, "referee", "resolve", [6, 6, 6])
    assert table.state.status(target).knocked_out and table.state.combats[-1].ended
    return table


def _two_against_one(**more: dict[str, Any]) -> Any:
    """Alf and Dan against Bob: in round 1 Bob's gun knocks Dan out; in round 2 Alf's cannon
    knocks Bob out, and the combat ends."""
    table = act(start(_armed(**more)), "alf", "draw", item="cannon")
    table = act(table, "bob", "draw", item="gun")
    table = act(table, "alf", "start_combat", targets=["bob"])
    table = act(table, "dan", "join", **{"with": "alf"})
    table = act(table, "alf", "declare", action="defend")
    table = act(table, "dan", "declare", action="defend")
    table = act(table, "bob", "declare", action="attack", target="dan")
    table = act(act(table, "referee", "resolve"), "referee", "resolve", [6, 6, 6])
    table = act(table, "alf", "declare", action="attack", target="bob")
    table = act(table, "bob", "declare", action="defend")
    table = act(table, "referee", "resolve", [6, 6, 6])
    assert table.state.combats[-1].ended
    return table


def test_the_victor_is_of_the_fallens_own_combat_not_a_later_one() -> None:
    """Taking Damage, "the victor can have his or her way with them" (audit R2, reading (a)):
    Alf knocks Bob out; then Cat knocks Dan out in a combat of their own. Alf is Bob's victor,
    not Cat: Cat may not search Bob, Alf may."""
    table = _one_blow(start(_armed()), "alf", "cannon", "bob")
    table = _one_blow(table, "cat", "axe", "dan")
    assert victors(table.state, "bob") == ("alf",)
    assert victors(table.state, "dan") == ("cat",)
    with pytest.raises(RuleError, match="only the victor has their way with bob, and cat is not"):
        act(table, "cat", "search", target="bob")
    assert last(act(table, "alf", "search", target="bob"), "character.searched")["target"] == "bob"


def test_a_victor_in_a_new_combat_may_not_have_their_way_meanwhile() -> None:
    """Taking Damage: the victor has their way "in the meantime" — not while fighting again:
    Alf, who knocked Bob out, starts a combat with Eve and may not search Bob during it."""
    table = _one_blow(start(_armed()), "alf", "cannon", "bob")
    table = act(table, "alf", "start_combat", targets=["eve"])
    with pytest.raises(RuleError, match=r"^Combat Actions: alf is in a combat$"):
        act(table, "alf", "search", target="bob")


def test_only_the_knocked_out_are_at_the_victors_mercy_and_the_refusal_says_so() -> None:
    """Taking Damage: the victor has their way with those Knocked Out after the combat; Bob on
    his feet cannot be searched."""
    with pytest.raises(
        RuleError,
        match=r"^Taking Damage: bob is not Knocked Out after a combat "
        r"\(only the Knocked Out are at the victor's mercy\)$",
    ):
        act(start(_armed()), "alf", "search", target="bob")


def test_a_fallen_ally_is_no_victor() -> None:
    """Taking Damage (audit R2, reading (a)): the victors are those of the other side still on
    their feet at the end. Dan fell on Alf's side before Alf felled Bob: only Alf is Bob's
    victor, and Dan (whose foe Bob fell too) has none."""
    table = _two_against_one()
    assert victors(table.state, "bob") == ("alf",)
    assert victors(table.state, "dan") == ()


def test_a_death_at_the_end_of_a_combat_does_not_keep_the_others_from_waking() -> None:
    """Taking Damage: each Knocked Out character "will recover 5 minutes after the combat
    ends"; RULINGS: one whose every Wound would be marked dies. Bob takes 10 from Alf's
    cannon against Stamina 5, five wounds of his five, and dies at the end; Dan, out before
    him, still wakes at five minutes with his one wound."""
    table = _two_against_one(alf={"items": {"cannon": {"damage": 10}}})
    tail = [e.kind for e in table.log.events[-3:]]
    assert tail == ["combat.ended", "character.died", "timer.set"]
    assert last(table, "character.died") == {"character": "bob", "wounds": 5}
    assert table.state.status("dan").wake_due == 5 * MINUTE
    table = table.advance(5 * MINUTE)
    assert table.state.stamina("dan") == 5 and not table.state.status("dan").knocked_out


def test_the_slain_are_dead_not_knocked_out_on_every_sheet() -> None:
    """Taking Damage: a slain character is dead, no longer Knocked Out and due to wake at no
    time; their sheet keeps the damage they took. Their own sheet and the badge others see
    say so."""
    table = act(_bob_out_with_two_wounds(), "alf", "slay", target="bob")
    assert table.visible_state("bob")["characters"]["bob"] == {  # type: ignore[index]
        "name": "Bob",
        "number": "12",
        "combat": 1,
        "strength": 3,
        "stamina": 5,
        "stamina_stat": 5,
        "mind": 1,
        "wounds": 5,
        "wounds_marked": 0,
        "wounds_left": 5,
        "damage": 7,
        "knocked_out": False,
        "wake_due": None,
        "wakes_at": None,
        "pending_wounds": 2,
        "dead": True,
        "drawn": None,
        "skills": {},
        "languages": ["English"],
        "abilities": [],
        "items": [],
    }
    assert table.visible_state("cat")["characters"]["bob"] == {  # type: ignore[index]
        "name": "Bob",
        "number": "12",
        "knocked_out": False,
        "dead": True,
    }


def test_a_robbed_card_passes_to_the_robber_alone() -> None:
    """Taking Damage: the victor may "rob them": Bob's gun passes to Alf; Cat, who looked on,
    gains nothing."""
    table = _one_blow(start(_armed()), "alf", "cannon", "bob")
    table = act(table, "alf", "rob", target="bob", item="gun")
    held = {c.id: [i.name for i in c.items] for c in table.state.characters}
    assert held == {"alf": ["cannon", "gun"], "bob": [], "cat": ["axe"], "dan": [], "eve": []}


def _bob_held_and_felled(*, alf_grabs_dan: bool) -> Any:
    """Cat, Alf and Eve against Bob and Dan. Round 1: Cat grabs Bob (and Alf grabs Dan, or
    defends); Eve's club (7) then knocks the Held Bob out."""
    table = act(start(_armed(eve={"items": {"club": {"damage": 7}}})), "eve", "draw", item="club")
    table = act(table, "cat", "start_combat", targets=["bob"])
    for who, side in (("alf", "cat"), ("eve", "cat"), ("dan", "bob")):
        table = act(table, who, "join", **{"with": side})
    table = act(table, "cat", "declare", action="grab", target="bob")
    if alf_grabs_dan:
        table = act(table, "alf", "declare", action="grab", target="dan")
    else:
        table = act(table, "alf", "declare", action="defend")
    table = act(table, "bob", "declare", action="defend")
    table = act(table, "dan", "declare", action="defend")
    table = act(table, "eve", "declare", action="attack", target="bob")
    table = act(table, "referee", "resolve", [6, 6, 6])
    table = act(table, "referee", "resolve", [6, 6, 6] if alf_grabs_dan else [])
    table = act(act(table, "referee", "resolve"), "referee", "resolve", [6, 6, 6])
    assert table.state.status("bob").knocked_out and not table.state.combats[-1].in_round
    return table


def _standoff() -> Any:
    """Alf and Cat against Bob and Dan; nobody attacks for two rounds: Bob and Dan each have
    two unhit Defensive Actions."""
    table = act(start(_armed()), "alf", "start_combat", targets=["bob"])
    table = act(act(table, "cat", "join", **{"with": "alf"}), "dan", "join", **{"with": "bob"})
    for _ in range(2):
        for who in ("alf", "cat", "bob", "dan"):
            table = act(table, who, "declare", action="defend")
        while table.state.combats[-1].in_round:
            table = act(table, "referee", "resolve")
    return table


def _round3(table: Any, alf: str, dice: list[int]) -> Any:
    """Alf attacks Bob (or defends); Bob and Dan defend; the referee resolves the round."""
    if alf == "attack":
        table = act(table, "alf", "declare", action="attack", target="bob")
    else:
        table = act(table, "alf", "declare", action=alf)
    table = act(act(table, "bob", "declare", action="defend"), "dan", "declare", action="defend")
    table = act(table, "referee", "resolve", dice)
    while table.state.combats[-1].in_round:
        table = act(table, "referee", "resolve")
    return table


def test_at_the_end_of_a_combat_the_standing_shed_its_damage_and_the_fallen_wait_to_wake() -> None:
    """Taking Damage: knock-out counts "the total damage taken by a Character during a combat",
    and the Knocked Out "recover 5 minutes after the combat ends". Dan's stick (2) hits Alf in
    round 1; Bob escapes after round 2; Alf's cannon knocks Dan out in round 3. At the end Alf
    stands with no damage carried on, and Dan — after the escaped Bob among the fighters —
    is due to wake at five minutes."""
    table = start(_armed(dan={"items": {"stick": {"damage": 2}}}))
    table = act(act(table, "dan", "draw", item="stick"), "alf", "draw", item="cannon")
    table = act(table, "alf", "start_combat", targets=["bob"])
    table = act(table, "dan", "join", **{"with": "bob"})
    table = act(table, "alf", "declare", action="defend")
    table = act(table, "bob", "declare", action="defend")
    table = act(table, "dan", "declare", action="attack", target="alf")
    table = act(act(table, "referee", "resolve"), "referee", "resolve", [6, 6, 6])
    assert table.state.status("alf").damage == 2
    table = _round3(table, "defend", [])
    table = act(table, "bob", "escape")
    table = act(table, "alf", "declare", action="attack", target="dan")
    table = act(table, "dan", "declare", action="defend")
    table = act(table, "referee", "resolve", [6, 6, 6])
    assert table.state.combats[-1].ended
    sheet = table.procedure.state_json(table.state)["characters"]
    assert (sheet["alf"]["damage"], sheet["alf"]["knocked_out"]) == (0, False)
    assert (sheet["dan"]["wake_due"], sheet["dan"]["wakes_at"]) == (5 * MINUTE, "20:05")
    assert sheet["dan"]["pending_wounds"] == 1


def _holding(alf: str) -> Any:
    """Alf against Bob and Dan, round 1: Alf (the starter) declares ``alf``, Bob holds his
    action, Dan (Combat 1, Bob's rank) attacks Alf."""
    table = act(start(_armed()), "alf", "start_combat", targets=["bob"])
    table = act(table, "dan", "join", **{"with": "bob"})
    table = act(table, "alf", "declare", action=alf)
    table = act(table, "bob", "declare", action="hold")
    return act(table, "dan", "declare", action="attack", target="alf")


def _previews(table: Any) -> list[tuple[str, str, str, dict[str, str]]]:
    shown = table.procedure.previews(table.state, Viewer("public"))
    return [(p.label, p.rule, p.dice, dict(p.odds)) for p in shown]


def test_a_sheet_lists_english_only_for_those_who_speak_it() -> None:
    """Languages: "Every player in the game speaks English, unless they are told otherwise" —
    Eve, told otherwise, sees French alone on her sheet."""
    table = start(_armed(eve={"speaks_english": False, "languages": ["French"]}))
    sheet = table.visible_state("eve")["characters"]["eve"]  # type: ignore[index]
    assert sheet["languages"] == ["French"]
    assert table.visible_state("dan")["characters"]["dan"]["languages"] == ["English"]  # type: ignore[index]


def _krockin_in_round_two(alf: str, *, use_mind: bool = True) -> Any:
    """Alf against Krockin (Mind 3); round 1 both defend; in round 2 Krockin uses his mind and
    Alf then declares ``alf`` (a Defensive Action or an Attack on Krockin)."""
    bolt = {"mental": True, "obvious": True, "target": 16, "damage": 3}
    blast = {"mental": True, "obvious": True, "damage": 2}
    fighters = cast(
        alf=character("Alf", 11, combat=2, stamina=6),
        kro=character(
            "Krockin",
            33,
            combat=1,
            mind=3,
            stamina=6,
            abilities={"Energy Bolt": bolt, "Mind Blast": blast},
        ),
    )
    table = act(start(fighters), "alf", "start_combat", targets=["kro"])
    table = act(act(table, "alf", "declare", action="defend"), "kro", "declare", action="defend")
    table = act(act(table, "referee", "resolve"), "referee", "resolve")
    return (act(table, "kro", "use_mind") if use_mind else table), alf


def _bolt(ability: str, alf: str) -> dict[str, Any]:
    table, alf_does = _krockin_in_round_two(alf)
    table = act(table, "kro", "declare", action="attack", target="alf", ability=ability)
    if alf_does == "attack":
        table = act(table, "alf", "declare", action="attack", target="kro")
    else:
        table = act(table, "alf", "declare", action=alf_does)
    table = act(table, "referee", "resolve", [1, 1, 1])
    return last(table, "attack.rolled")


def test_a_mental_attack_in_combat_rolls_mind_against_its_number_less_three_if_dodged() -> None:
    """Mental Combat / Mixing Mental and Normal Combat: Krockin's Energy Bolt (a set Target
    Number of 16) adds his Mind 3, less three only when Alf dodges a bolt that does physical
    damage ("adding his Mind Stat and subtracting three for ScarFace's dodge"); a damaging
    ability with no set number is against Alf's Mind + 10, + 3 when dodged. Each is logged as
    an Attack."""
    undodged = _bolt("Energy Bolt", "attack")
    assert (undodged["action"], undodged["modifier"], undodged["target_number"]) == (
        "attack",
        3,
        16,
    )
    blasted = _bolt("Mind Blast", "defend")
    assert (blasted["action"], blasted["modifier"], blasted["target_number"]) == (
        "attack",
        3,
        1 + 10 + 3,
    )


def test_a_mind_user_may_still_strike_with_a_fist() -> None:
    """Attacking: Krockin, who has mental abilities, does not use his mind in round 2 and
    attacks Alf with no ability named — an ordinary Attack, his Combat 1 against Alf's
    Combat 2 + 10 + 3 for the dodge."""
    table, _ = _krockin_in_round_two("defend", use_mind=False)
    table = act(table, "alf", "declare", action="defend")
    table = act(table, "kro", "declare", action="attack", target="alf")
    table = act(table, "referee", "resolve")
    table = act(table, "referee", "resolve", [1, 1, 1])
    data = last(table, "attack.rolled")
    assert (data["ability"], data["modifier"], data["target_number"]) == (None, 1, 15)


def test_a_mental_attacks_preview_names_the_ability() -> None:
    """Mental Combat (combat is fought in the open): the preview of Krockin's Energy Bolt names
    the ability, not a bare Attack."""
    table, _ = _krockin_in_round_two("attack")
    table = act(table, "kro", "declare", action="attack", target="alf", ability="Energy Bolt")
    table = act(table, "alf", "declare", action="attack", target="kro")
    assert [label for label, *_ in _previews(table)] == ["Krockin Energy Bolt Alf"]


# -- a game file's Contingency Envelopes (game.py; issue 13, round 4) --------------------------


def _countess(*envelopes: Any) -> dict[str, Any]:
    return {
        "start": "20:00",
        "characters": {
            "countess": character("The Countess", 21, contingency_envelopes=list(envelopes))
        },
    }


def test_an_envelope_opened_at_a_game_time_in_seconds_from_the_start() -> None:
    """Contingency Envelopes, "Open at nine o'clock": the time may be a clock time or seconds
    from the evening's start — 0 is the start itself, 3600 is 21:00 of an evening begun at
    20:00."""
    state = load_game(
        _countess({"at": 0, "contents": "now"}, {"id": "late", "at": 3600, "contents": "later"})
    )
    first, late = state.contingency_envelopes
    assert (first.id, first.condition.at, first.condition.clock) == ("countess-c1", 0, "20:00")
    assert (late.id, late.condition.at, late.condition.clock) == ("late", 3600, "21:00")


def test_a_bad_envelope_in_a_game_file_is_refused_by_its_path() -> None:
    """A game file's errors name the bad field: an envelope that is not a mapping, and an
    unknown field of the second envelope."""
    with pytest.raises(
        ScenarioError,
        match=r"^characters\.countess\.contingency_envelopes\.0: "
        r"an envelope is a mapping, not str$",
    ):
        load_game(_countess("open me"))
    with pytest.raises(
        ScenarioError,
        match=r"^characters\.countess\.contingency_envelopes\.1\.colour: unknown field 'colour'",
    ):
        load_game(
            _countess({"at": 0, "contents": "x"}, {"at": 0, "contents": "y", "colour": "red"})
        )


def test_abilities_in_a_game_file_are_a_mapping_by_name() -> None:
    """A game file's abilities are a mapping of name to card; a list is refused by its path."""
    cast_ = {"characters": {"kro": character("Krockin", 33, abilities=["Energy Bolt"])}}
    with pytest.raises(
        ScenarioError, match=r"^characters\.kro\.abilities: abilities is a mapping, not list$"
    ):
        load_game(cast_)
