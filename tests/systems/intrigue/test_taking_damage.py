"""Taking Damage (rules text, "Doing Damage", "Taking Damage"): damage over a combat, knock-out,
Medicine, waking five minutes after the combat, death, and the log's lines.
"""

from __future__ import annotations

import pytest

from referee.core import MINUTE, RuleError, Viewer, view
from referee.systems.intrigue import PROCEDURE
from referee.systems.intrigue.events import CHARACTER_WOKE

from .helpers import (
    C1,
    _armed,
    _bob_out_with_two_wounds,
    _cast,
    _fighters,
    _line,
    _round,
    _round3,
    _two_against_one,
    act,
    kinds_offered,
    last,
    one_of,
    start,
    without_names,
)
from .test_combat import brawl, declare, fight, knock_out_bob, resolve


def test_the_log_says_how_a_knocked_out_character_came_round() -> None:
    """Taking Damage: a character comes round after five minutes, or sooner with Medicine."""
    assert _line(CHARACTER_WOKE, character="a", how="medicine") == "a comes round with Medicine."
    assert (
        _line(CHARACTER_WOKE, character="a", how="time", wounds=2, stamina=3)
        == "a comes round after five minutes, with 2 wound(s) marked (Stamina 3)."
    )


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


def test_an_attack_by_or_on_a_fighter_knocked_out_earlier_in_the_round_lapses() -> None:
    """Taking Damage: Alf's cannon (7) knocks Bob (Stamina 5) out at the first place; Cat's
    attack on Bob and Bob's own attack then lapse, each with its reason; Dan still defends."""
    table = act(start(_cast()), "alf", "draw", item="cannon")
    table = act(table, "alf", "start_combat", targets=["bob"])
    table = act(table, "cat", "join", **{"with": "alf"})
    table = act(table, "dan", "join", **{"with": "bob"})
    _, told = _round(
        table,
        [
            ("alf", {"action": "attack", "target": "bob"}),
            ("cat", {"action": "attack", "target": "bob"}),
            ("bob", {"action": "attack", "target": "cat"}),
            ("dan", {"action": "defend"}),
        ],
        [6, 6, 6],
    )
    out = "Bob is out of the combat"
    assert told == [
        (
            "damage.taken",
            {
                "character": "bob",
                "amount": 7,
                "total": 7,
                "by": "cannon",
                "knocked_out": True,
                "stamina": 5,
            },
        ),
        ("character.knocked_out", {"character": "bob"}),
        ("combat.action_lapsed", {"combat": C1, "character": "cat", "reason": out}),
        ("combat.action_lapsed", {"combat": C1, "character": "bob", "reason": out}),
        ("combat.action_taken", {"combat": C1, "character": "dan", "action": "defend"}),
    ]


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


def test_the_log_says_the_damage_taken_the_combats_total_and_a_knock_out() -> None:
    """Taking Damage: the line gives the damage, by what, the combat's total (and the Stamina,
    for those who may read it) and says when it knocks the character out."""
    hit = {"character": "bob", "amount": 4, "by": "alf's cosh", "total": 6}
    assert (
        _line("damage.taken", knocked_out=True, stamina=5, **hit)
        == "bob takes 4 damage (alf's cosh; 6 this combat, Stamina 5): KNOCKED OUT."
    )
    assert (
        _line("damage.taken", knocked_out=False, **hit)
        == "bob takes 4 damage (alf's cosh; 6 this combat)."
    )


def test_the_knocked_out_are_not_among_those_who_may_act() -> None:
    """Taking Damage: a Knocked Out character takes no action until they wake."""
    actors = PROCEDURE.actors(knock_out_bob().state)
    assert "bob" not in actors and {"alf", "cat", "referee"} <= set(actors)


def test_the_knocked_out_in_a_combat_still_running_are_not_yet_woken_by_medicine() -> None:
    """Taking Damage: "Knocked Out Characters can be awakened with a Medicine roll of 14 or
    more. Otherwise they will recover 5 minutes after the combat ends": while their combat goes
    on, nobody outside it is offered the Medicine roll; once it ends, they are."""
    setup = brawl(alf={"items": {"knife": {"damage": 5}}})
    table = act(start(setup), "alf", "draw", item="knife")
    table = act(table, "alf", "start_combat", targets=["bob", "dan"])
    table = declare(table, "alf", "attack", target="bob")
    table = declare(declare(table, "bob", "defend"), "dan", "defend")
    table = resolve(table, (6, 6, 6))
    assert table.state.status("bob").knocked_out and table.state.running
    assert "revive" not in kinds_offered(table, "cat")
    table = act(table, "referee", "end_combat")
    assert kinds_offered(table, "cat")["revive"] == [{"target": one_of("bob")}]


def test_the_wounds_marked_before_count_toward_a_death_on_coming_round() -> None:
    """Taking Damage: "One Wound is taken for each point of damage taken in the combat in
    excess of their Stamina Stat"; RULINGS: one whose every Wound would be marked dies. Bob
    woke from his first fall with two of his five Wounds marked (Stamina 3); Alf's cannon (7)
    fells him again, four Wounds more: six of five, and he dies at the combat's end, where the
    four alone would have let him wake."""
    table = _bob_out_with_two_wounds().advance(5 * MINUTE)
    assert table.state.status("bob").wounds_marked == 2 and table.state.stamina("bob") == 3
    table = act(table, "alf", "start_combat", targets=["bob"])
    table = act(table, "alf", "declare", action="attack", target="bob")
    table = act(table, "bob", "declare", action="defend")
    table = act(table, "referee", "resolve", [6, 6, 6])
    assert last(table, "character.died") == {"character": "bob", "wounds": 4}
    assert table.state.status("bob").dead and table.state.status("bob").wake_due is None
