"""Issue 13: each defect of ../shared/audits/hursagmu.md, with a test written to fail first.

Each test names its entry (W: wrong, M: missing, U: untested) and the text's section.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import Action, RuleError, ScenarioError, Table
from referee.dice import ScriptedSource
from referee.systems.hursagmu import PROCEDURE
from referee.systems.hursagmu.state import Encounter

F = {"dexterity": 2, "stamina": 20, "skills": {"quickness": 2, "striking": 5, "defense": 6}}
M = {"dexterity": 1, "intelligence": 3, "skills": {"command": 2, "mahasu": 4, "defense": 1}}
HITTER = {"dexterity": 2, "strength": 2, "weapon": 5, "stamina": 40, **{"skills": F["skills"]}}


def play(
    characters: dict[str, Any],
    steps: list[tuple[str, str, dict[str, Any], list[int]]],
    **options: Any,
) -> Table[Encounter]:
    setup: dict[str, Any] = {"characters": characters}
    if options:
        setup["options"] = options
    table = Table.start(PROCEDURE, setup)
    for who, kind, params, faces in steps:
        table = table.act(Action(who, kind, params), ScriptedSource(faces))
    return table


def events(table: Table[Encounter], kind: str) -> list[dict[str, Any]]:
    return [e.data for e in table.log if e.kind == kind]


# -- W1 Action: "must abort the rest of his turn if he wants to make a defensive action" --------


def test_w1_aborting_declares_all_of_his_actions_for_the_round() -> None:
    """The aborting defender declares his actions for the round (here two defences, each a
    major action), so a second attacker meets the second defence."""
    table = play(
        {"bob": F, "fred": F, "marcos": M},
        [
            ("bob", "initiative", {"stance": "maneuver"}, [6, 6]),
            ("fred", "initiative", {"stance": "maneuver"}, [5, 5]),
            ("marcos", "initiative", {"stance": "concentrate"}, [1, 1]),
            ("bob", "declare", {"actions": [{"attack": "marcos"}]}, []),
            ("bob", "act", {}, []),
            (
                "marcos",
                "defend",
                {"actions": [{"defend": "defense"}, {"defend": "defense"}]},
                [1, 1, 6, 6],
            ),
            ("fred", "declare", {"actions": [{"attack": "marcos"}]}, []),
            ("fred", "act", {}, []),
        ],
    )
    (aborted,) = [d for d in events(table, "plan.declared") if d["character"] == "marcos"]
    assert [s["kind"] for s in aborted["steps"]] == ["defend", "defend"]
    assert aborted["penalty"] == -2
    assert events(table, "attack.made")[-1]["defence"] == "defend"
    assert table.state.pending is not None and table.state.pending.target == "marcos"


def test_w1_an_aborting_declaration_must_hold_the_defence_and_fit_its_kind() -> None:
    steps = [
        ("bob", "initiative", {"stance": "maneuver"}, [6, 6]),
        ("marcos", "initiative", {"stance": "concentrate"}, [1, 1]),
        ("bob", "declare", {"actions": [{"attack": "marcos"}]}, []),
        ("bob", "act", {}, []),
    ]
    table = play({"bob": F, "marcos": M}, steps)
    with pytest.raises(RuleError, match="no defense defence"):
        table.act(Action("marcos", "defend", {"actions": [{"minor": "duck"}]}), ScriptedSource([]))
    with pytest.raises(RuleError, match="cannot use the Intelligence skill 'mahasu'"):
        table.act(
            Action(
                "marcos",
                "defend",
                {"actions": [{"defend": True}, {"attack": "bob", "skill": "mahasu"}]},
            ),
            ScriptedSource([1, 1, 1, 1]),
        )
    # Without a declaration, the abort keeps one defence (the smallest turn).
    table = table.act(Action("marcos", "defend"), ScriptedSource([1, 1, 6, 6]))
    (aborted,) = [d for d in events(table, "plan.declared") if d["character"] == "marcos"]
    assert [s["kind"] for s in aborted["steps"]] == ["defend"]


# -- W2 Action: engrossing actions allow "no defensive actions at all" --------------------------


def test_w2_a_defence_cannot_be_declared_beside_an_engrossing_action() -> None:
    table = play(
        {"bob": HITTER, "fred": HITTER},
        [
            ("bob", "initiative", {"stance": "maneuver"}, [6, 6]),
            ("fred", "initiative", {"stance": "maneuver"}, [1, 1]),
        ],
    )
    portcullis = {
        "task": "lift the portcullis",
        "skill": "strength",
        "challenge": 10,
        "engrossing": True,
    }
    with pytest.raises(RuleError, match="no defensive actions at all"):
        table.act(
            Action("fred", "declare", {"actions": [{"defend": "defense"}, portcullis]}),
            ScriptedSource([]),
        )
    table = table.act(Action("fred", "declare", {"actions": [portcullis]}), ScriptedSource([]))
    table = table.act(Action("bob", "declare", {"actions": [{"attack": "fred"}]}), None)
    table = table.act(Action("bob", "act"), ScriptedSource([1, 1, 1, 1]))
    assert events(table, "attack.made")[-1]["reason"] == "engrossed: no defensive actions at all"


# -- W3 Initiative: minor actions "may give bonuses or penalties to Initiative" -------------------


def test_w3_a_minor_actions_bonus_raises_the_rounds_initiative_never_a_later_step() -> None:
    steps = [
        ("a", "initiative", {"stance": "maneuver"}, [6, 6]),
        ("b", "initiative", {"stance": "maneuver"}, [5, 5]),
        ("a", "declare", {"actions": [{"minor": "x"}]}, []),
        ("a", "act", {}, []),
    ]
    big = {**F, "stamina": 40}
    table = play({"a": big, "b": big}, steps)
    # b's Initiative 14 raised by 10 is 24, which the round has passed (a acted at 16).
    with pytest.raises(RuleError, match="has passed Initiative 24"):
        table.act(
            Action(
                "b",
                "declare",
                {"actions": [{"minor": "dart", "initiative_penalty": -10}, {"attack": "a"}]},
            ),
            ScriptedSource([]),
        )
    table = play({"a": big, "b": big}, steps[:2])
    table = table.act(
        Action(
            "b",
            "declare",
            {"actions": [{"minor": "dart", "initiative_penalty": -2}, {"attack": "a"}]},
        ),
        ScriptedSource([]),
    )
    # The bonus raises the whole round's Initiative, like Haste: the minor action and the
    # attack after it both at 16 (a minor action takes no Initiative of its own).
    assert [
        s["initiative"] for s in PROCEDURE.state_json(table.state)["characters"]["b"]["plan"]
    ] == [16, 16]
    assert table.state.fighters["b"].penalty(table.state.options.defence) == 0


# -- W4 Conflict: rounds of about six seconds; Round Zero "marks the beginning" -----------------


def test_w4_round_zero_counts_six_seconds() -> None:
    big = {**F, "stamina": 40}
    table = play(
        {"a": big, "b": big},
        [
            ("a", "round_zero", {"surprised": ["b"]}, []),
            ("a", "declare", {"actions": [{"minor": "x"}]}, []),
            ("a", "act", {}, []),
        ],
    )
    assert PROCEDURE.state_json(table.state)["elapsed_seconds"] == 0
    table = table.act(Action("referee", "end_round"), None)
    assert PROCEDURE.state_json(table.state)["elapsed_seconds"] == 6
    for who in ("a", "b"):
        table = table.act(Action(who, "initiative", {"stance": "maneuver"}), ScriptedSource([1, 1]))
    for who in ("a", "b"):
        table = table.act(Action(who, "declare", {"actions": [{"minor": "x"}]}), None)
    for who in ("a", "b"):
        table = table.act(Action(who, "act"), None)
    table = table.act(Action("referee", "end_round"), None)
    assert PROCEDURE.state_json(table.state)["elapsed_seconds"] == 12


# -- M1 Perception and Observation: "someone sneaking toward the sleeper" -------------------------


def test_m1_sneaking_toward_a_sleeper_is_far_harder_to_hear() -> None:
    sleeper = {"intelligence": 2, "skills": {"perception": 3, "observation": 1}}
    thief = {"dexterity": 3, "skills": {"stealth": 4, "shadowing": 2}}
    table = play({"thief": thief, "sleeper": sleeper}, [])
    awake = table.act(Action("thief", "sneak", {"perceiver": "sleeper"}), ScriptedSource([3] * 4))
    table = table.act(
        Action("referee", "condition", {"character": "sleeper", "asleep": True}), None
    )
    assert table.state.fighters["sleeper"].asleep
    asleep = table.act(Action("thief", "sneak", {"perceiver": "sleeper"}), ScriptedSource([3] * 4))
    (card_awake,) = [e.data["roll"] for e in awake.log if e.kind == "stealth.rolled"]
    (card_asleep,) = [e.data["roll"] for e in asleep.log if e.kind == "stealth.rolled"]
    assert card_awake["dice"] == "2d6+7 vs 2d6+5"
    # "far more difficult": the sleeper's hearing roll at -4 (ruling 16's +4 to the challenge)
    assert card_asleep["dice"] == "2d6+7 vs 2d6+1"
    # Shadowing is against Observation: a sleeper observes nothing.
    shadowed = table.act(
        Action("thief", "sneak", {"perceiver": "sleeper", "skill": "shadowing"}), None
    )
    (event,) = [e.data for e in shadowed.log if e.kind == "stealth.rolled"][-1:]
    assert event["noticed"] is False and "asleep" in event["reason"]


def test_m1_noticing_the_sneak_wakes_the_sleeper() -> None:
    sleeper = {"intelligence": 2, "skills": {"perception": 3}}
    table = play(
        {"thief": {"dexterity": 3}, "sleeper": sleeper},
        [("referee", "condition", {"character": "sleeper", "asleep": True}, [])],
    )
    table = table.act(
        Action("thief", "sneak", {"perceiver": "sleeper"}), ScriptedSource([1, 1, 6, 6])
    )
    assert events(table, "sneak.noticed")
    assert not table.state.fighters["sleeper"].asleep


# -- U1 Pushing Power: "+1 Strength and Willpower for a single round" in damage -----------------


def test_u1_pushed_strength_adds_to_damage() -> None:
    table = play(
        {"bob": HITTER, "fred": HITTER},
        [
            ("bob", "initiative", {"stance": "maneuver"}, [6, 6]),
            ("fred", "initiative", {"stance": "maneuver"}, [1, 1]),
            ("bob", "push", {"hits": 3}, []),
            ("bob", "declare", {"actions": [{"attack": "fred"}]}, []),
            ("bob", "act", {}, []),
            ("fred", "take", {}, [6, 6, 2, 3]),
        ],
    )
    (damage,) = events(table, "damage.taken")
    assert damage["strength"] == 2 + 3
    assert damage["damage"] == 5 + (2 + 3) + (2 + 3)


# -- U2 Recovery: a defence is an action --------------------------------------------------------


def test_u2_a_defence_is_an_action_for_recovery() -> None:
    hurt = {**F, "hits": 15}
    table = play(
        {"bob": F, "fred": hurt},
        [
            ("bob", "initiative", {"stance": "maneuver"}, [6, 6]),
            ("fred", "initiative", {"stance": "maneuver"}, [1, 1]),
            ("bob", "declare", {"actions": [{"attack": "fred"}]}, []),
            ("bob", "act", {}, []),
            ("fred", "defend", {"actions": [{"defend": True}]}, [1, 1, 6, 6]),
        ],
    )
    assert table.state.fighters["fred"].acted
    table = table.act(Action("referee", "end_round"), None)
    assert not [d for d in events(table, "hit.recovered") if d["character"] == "fred"]
    assert table.state.fighters["fred"].hits == 15


# -- U3 Action: "the action fails and must be attempted again" ----------------------------------


def test_u3_a_failed_multi_round_action_starts_again_from_its_first_round() -> None:
    ritual = {"task": "ritual", "skill": "mahasu", "challenge": 8, "rounds": 3}
    chant = {"task": "chant", "skill": "mahasu", "challenge": 8, "rounds": 3}
    first_round = [
        ("priest", "initiative", {"stance": "concentrate"}, [6, 6]),
        ("bob", "initiative", {"stance": "maneuver"}, [1, 1]),
        ("priest", "declare", {"actions": [ritual]}, []),
        ("priest", "act", {}, []),
        ("bob", "declare", {"actions": [{"minor": "wait"}]}, []),
        ("bob", "act", {}, []),
        ("referee", "end_round", {}, []),
        ("priest", "initiative", {"stance": "concentrate"}, [6, 6]),
        ("bob", "initiative", {"stance": "maneuver"}, [1, 1]),
    ]
    # A one-round task beside the ritual leaves the ritual's count alone (it went back to its
    # first round, before issue 13); a second multi-round action at once is refused.
    door = {"task": "bar the door", "skill": "command", "challenge": 2}
    table = play(
        {"priest": {**M, "stamina": 30}, "bob": HITTER},
        [
            *first_round,
            ("priest", "declare", {"actions": [door, ritual]}, []),
            ("priest", "act", {}, [6, 6]),
            ("priest", "act", {}, []),
        ],
    )
    assert [(d["task"], d["round_of_task"]) for d in events(table, "task.continued")] == [
        ("ritual", 1),
        ("ritual", 2),
    ]
    table = play({"priest": {**M, "stamina": 30}, "bob": HITTER}, first_round)
    with pytest.raises(RuleError, match="one multi-round action at a time"):
        table.act(Action("priest", "declare", {"actions": [chant, ritual]}), None)
    # Injured meanwhile, the ritual fails and "must be attempted again": from its first round.
    table = play(
        {"priest": {**M, "stamina": 30}, "bob": HITTER},
        [
            *first_round,
            ("bob", "declare", {"actions": [{"attack": "priest"}]}, []),
            ("priest", "declare", {"actions": [ritual]}, []),
            ("priest", "act", {}, []),
        ],
    )
    assert table.state.fighters["priest"].task_rounds == 2
    table = table.act(Action("bob", "act"), ScriptedSource([6, 6, 1, 1]))
    table = (
        table.act(Action("priest", "take"), ScriptedSource([6, 6, 1, 1]))
        if (table.state.pending)
        else table
    )
    assert events(table, "task.failed") and table.state.fighters["priest"].task is None


# -- U4 Movement: charge momentum "from any enemy melee weapon" ---------------------------------


def test_u4_charge_momentum_is_for_melee_weapons_only() -> None:
    archer = {**HITTER, "weapon_type": "missile weapon", "skills": {"quickness": 2, "missile": 6}}
    table = play(
        {"ann": archer, "fred": HITTER},
        [
            ("ann", "initiative", {"stance": "maneuver"}, [6, 6]),
            ("fred", "initiative", {"stance": "maneuver"}, [1, 1]),
            (
                "ann",
                "declare",
                {
                    "actions": [
                        {"move": "foot", "yards": 20},
                        {"attack": "fred", "skill": "missile", "yards": 5},
                    ]
                },
                [],
            ),
            ("ann", "act", {}, []),
            ("ann", "act", {}, []),
            ("fred", "take", {}, [6, 6, 1, 1]),
        ],
        charge_momentum=True,
    )
    (damage,) = events(table, "damage.taken")
    assert damage["momentum"] == 0


# -- M2 Movement: "Standing from a prone position", "Mounting or dismounting a horse" -----------


def test_m2_posture_and_mount_bound_the_movements() -> None:
    rider = {"dexterity": 2, "mount": 30, "skills": {"quickness": 2}}
    table = play(
        {"a": {**rider, "mounted": False}}, [("a", "initiative", {"stance": "maneuver"}, [6, 6])]
    )
    for steps, message in [
        ([{"move": "stand"}], "not prone"),
        ([{"move": "dismount"}], "not on a horse"),
        ([{"move": "ride", "yards": 30}], "not on a horse"),
        ([{"move": "prone"}, {"move": "foot", "yards": 10}], "stands up before moving on foot"),
        ([{"move": "mount"}, {"move": "foot", "yards": 10}], "mounted: he rides"),
        ([{"move": "mount"}, {"move": "mount"}], "already mounted"),
    ]:
        with pytest.raises(RuleError, match=message):
            table.act(Action("a", "declare", {"actions": steps}), None)
    table = table.act(
        Action(
            "a",
            "declare",
            {
                "actions": [
                    {"move": "mount"},
                    {"move": "ride", "yards": 30},
                    {"move": "dismount"},
                    {"move": "prone"},
                ]
            },
        ),
        None,
    )
    for _ in range(4):
        table = table.act(Action("a", "act"), None)
    a = table.state.fighters["a"]
    assert a.prone and not a.mounted
    table = table.act(Action("referee", "end_round"), None)
    assert table.state.fighters["a"].prone  # he lies there into the next round
    table = table.act(Action("a", "initiative", {"stance": "maneuver"}), ScriptedSource([1, 1]))
    with pytest.raises(RuleError, match="lying prone: he stands up first"):
        table.act(Action("a", "declare", {"actions": [{"move": "mount"}]}), None)


def test_m2_fred_the_swift_lies_prone_and_a_knight_starts_on_his_horse() -> None:
    fred = {"dexterity": 3, "prone": True, "skills": {"quickness": 2}}
    table = play({"fred": fred}, [("fred", "initiative", {"stance": "maneuver"}, [3, 3])])
    assert table.state.fighters["fred"].prone
    table = table.act(
        Action("fred", "declare", {"actions": [{"move": "stand"}, {"move": "foot", "yards": 16}]}),
        None,
    )
    assert not play({"k": {"mount": 40}}, []).state.fighters["k"].prone
    assert play({"k": {"mount": 40}}, []).state.fighters["k"].mounted
    with pytest.raises(ScenarioError, match="mounted on no horse"):
        play({"k": {"mounted": True}}, [])


# -- R3 Movement: "Falling to a prone position on the ground is a free action" ------------------


def test_r3_falling_prone_is_free_and_keeps_recovery() -> None:
    hurt = {**F, "hits": 15}
    table = play(
        {"a": hurt},
        [
            ("a", "initiative", {"stance": "maneuver"}, [6, 6]),
            ("a", "declare", {"actions": [{"move": "prone"}]}, []),
            ("a", "act", {}, []),
            ("referee", "end_round", {}, []),
        ],
    )
    assert table.state.fighters["a"].prone
    assert events(table, "hit.recovered") == [{"character": "a", "hits": 16}]


# -- Suspected: a waiter's later step re-ticks the round's clock backwards ---------------------


def test_a_waiters_later_step_never_turns_the_rounds_clock_back() -> None:
    big = {**F, "stamina": 40}
    table = play(
        {"a": big, "b": big, "c": big},
        [
            ("a", "initiative", {"stance": "maneuver"}, [6, 6]),  # 16
            ("b", "initiative", {"stance": "maneuver"}, [4, 4]),  # 12
            ("c", "initiative", {"stance": "maneuver"}, [3, 4]),  # 11
            ("a", "wait", {}, []),
            ("b", "declare", {"actions": [{"minor": "x"}]}, []),
            ("b", "act", {}, []),  # the round is at 12
            ("a", "declare", {"actions": [{"minor": "y"}, {"minor": "z"}]}, []),
            ("a", "act", {}, []),  # after waiting: now
            ("a", "act", {}, []),  # his second step: still now, not back at 16
        ],
    )
    assert table.state.clock == (0, 12)
    # c's Haste would put him at 13, which the round has passed (ruling 25)
    with pytest.raises(RuleError, match="has passed Initiative 13"):
        table.act(Action("c", "declare", {"actions": [{"haste": True}, {"minor": "w"}]}), None)
