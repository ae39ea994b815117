"""The ``hursagmu`` procedure: turn order, declarations, defences, waiting, Recovery, secrecy."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.core import Action, ActionError, RuleError, ScenarioError, Table, get_system, view
from referee.dice import RandomSource, ScriptedSource
from referee.systems.hursagmu import PROCEDURE
from referee.systems.hursagmu.state import Encounter

FIGHTER = {
    "dexterity": 2,
    "strength": 2,
    "weapon": 5,
    "stamina": 20,
    "skills": {"quickness": 2, "striking": 5, "defense": 6},
}
SORCERER = {
    "dexterity": 1,
    "intelligence": 3,
    "stamina": 12,
    "skills": {"command": 2, "mahasu": 4, "defiance": 3},
}


def start(characters: dict[str, Any], **options: Any) -> Table[Encounter]:
    setup: dict[str, Any] = {"characters": characters}
    if options:
        setup["options"] = options
    return Table.start(PROCEDURE, setup)


def play(
    table: Table[Encounter],
    steps: list[tuple[str, str, dict[str, Any]]],
    faces: list[int] | None = None,
) -> Table[Encounter]:
    dice = ScriptedSource(faces or [])
    for actor, kind, params in steps:
        table = table.act(Action(actor, kind, params), dice)
    return table


def initiative(table: Table[Encounter], order: dict[str, tuple[str, int, int]]) -> Table[Encounter]:
    for who, (stance, a, b) in order.items():
        table = table.act(Action(who, "initiative", {"stance": stance}), ScriptedSource([a, b]))
    return table


def two_fighters() -> Table[Encounter]:
    table = start({"bob": FIGHTER, "fred": FIGHTER})
    return initiative(table, {"bob": ("maneuver", 6, 6), "fred": ("maneuver", 1, 1)})


def test_registered_for_scenarios() -> None:
    assert get_system("hursagmu") is PROCEDURE


def test_initiative_rolls_quickness_or_command() -> None:
    table = start({"bob": FIGHTER, "marcos": SORCERER})
    table = initiative(table, {"bob": ("maneuver", 3, 4), "marcos": ("concentrate", 3, 4)})
    assert table.state.fighters["bob"].initiative == 7 + 2 + 2
    assert table.state.fighters["marcos"].initiative == 7 + 3 + 2
    assert table.state.phase == "action"
    with pytest.raises(RuleError, match="past its Initiative phase"):
        table.act(Action("bob", "initiative", {"stance": "maneuver"}), ScriptedSource([1, 1]))


def test_highest_initiative_acts_first() -> None:
    table = two_fighters()
    table = play(table, [("fred", "declare", {"actions": [{"attack": "bob"}]})])
    with pytest.raises(RuleError, match="not fred's turn"):
        table.act(Action("fred", "act"), ScriptedSource([]))


def test_the_first_skill_roll_needs_every_action_declared() -> None:
    table = two_fighters()
    with pytest.raises(RuleError, match="must declare all of his actions"):
        table.act(Action("bob", "act"), ScriptedSource([]))
    table = play(table, [("bob", "declare", {"actions": [{"attack": "fred"}]}), ("bob", "act", {})])
    with pytest.raises(RuleError, match="must declare all of his actions"):
        table.act(Action("fred", "defend"), ScriptedSource([1, 1, 1, 1]))
    with pytest.raises(RuleError, match="the table waits for fred to decide: Bob attacks Fred"):
        table.act(Action("bob", "wait"), ScriptedSource([]))


def test_declared_actions_are_fixed_and_kinds_bind_the_round() -> None:
    table = start({"bob": FIGHTER, "marcos": SORCERER})
    table = initiative(table, {"bob": ("maneuver", 6, 6), "marcos": ("concentrate", 1, 1)})
    with pytest.raises(RuleError, match="cannot use the Intelligence skill 'mahasu'"):
        table.act(
            Action("bob", "declare", {"actions": [{"attack": "marcos", "skill": "mahasu"}]}), None
        )
    table = play(table, [("bob", "declare", {"actions": [{"attack": "marcos"}]})])
    with pytest.raises(RuleError, match="declared this round's actions already"):
        table.act(Action("bob", "declare", {"actions": [{"attack": "marcos"}]}), None)


def test_each_defence_option_runs_out_cinematic_does_not() -> None:
    def round_of(mode: str) -> Table[Encounter]:
        table = start({"bob": FIGHTER, "fred": FIGHTER}, defence=mode)
        table = initiative(table, {"bob": ("maneuver", 6, 6), "fred": ("maneuver", 1, 1)})
        return play(
            table,
            [
                ("bob", "declare", {"actions": [{"attack": "fred"}, {"attack": "fred"}]}),
                ("bob", "act", {}),
                ("fred", "defend", {"actions": [{"defend": True}]}),
                ("bob", "act", {}),
            ],
            [6, 6, 1, 1, 1, 1, 6, 6, 1, 1],
        )

    each = round_of("each")
    assert each.state.pending is None  # no declared defence left: the strike went home
    assert [e.data.get("defended") for e in each.log if e.kind == "attack.resolved"] == [
        True,
        False,
    ]
    cinematic = round_of("cinematic")
    assert cinematic.state.pending is not None and cinematic.state.pending.target == "fred"
    cinematic = play(cinematic, [("fred", "defend", {})], [1, 1, 6, 6])
    assert [e.data["defended"] for e in cinematic.log if e.kind == "attack.resolved"] == [
        True,
        True,
    ]
    assert cinematic.state.fighters["fred"].penalty(cinematic.state.options.defence) == 0


def test_defending_with_the_other_kind_aborts_the_turn() -> None:
    table = start({"bob": FIGHTER, "marcos": SORCERER})
    table = initiative(table, {"bob": ("maneuver", 6, 6), "marcos": ("concentrate", 1, 1)})
    table = play(
        table,
        [
            ("marcos", "declare", {"actions": [{"attack": "bob", "skill": "mahasu"}]}),
            ("bob", "declare", {"actions": [{"attack": "marcos"}]}),
            ("bob", "act", {}),
            ("marcos", "defend", {}),
        ],
        [1, 1, 6, 6],
    )
    marcos = table.state.fighters["marcos"]
    assert marcos.plan is not None and [s.kind.value for s in marcos.plan] == ["defend"]
    assert any(e.kind == "turn.aborted" for e in table.log)
    with pytest.raises(RuleError, match=r"no declared action left|not marcos's turn"):
        table.act(Action("marcos", "act"), ScriptedSource([]))


def test_taking_the_hit_keeps_the_turn() -> None:
    table = start({"bob": FIGHTER, "marcos": SORCERER})
    table = initiative(table, {"bob": ("maneuver", 6, 6), "marcos": ("concentrate", 1, 1)})
    table = play(
        table,
        [
            ("marcos", "declare", {"actions": [{"attack": "bob", "skill": "mahasu"}]}),
            ("bob", "declare", {"actions": [{"attack": "marcos"}]}),
            ("bob", "act", {}),
            ("marcos", "take", {}),
            ("marcos", "act", {}),
        ],
        [3, 3, 1, 1, 2, 2, 3, 3, 1, 1],
    )
    kinds = [e.kind for e in table.log]
    assert "turn.aborted" not in kinds
    assert [e.data["character"] for e in table.log if e.kind == "attack.made"] == ["bob", "marcos"]


def test_knocked_out_before_his_turn_gets_no_action() -> None:
    table = start({"bob": FIGHTER, "fred": {**FIGHTER, "stamina": 5}})
    table = initiative(table, {"bob": ("maneuver", 6, 6), "fred": ("maneuver", 1, 1)})
    table = play(
        table,
        [
            ("fred", "declare", {"actions": [{"attack": "bob"}]}),
            ("bob", "declare", {"actions": [{"attack": "fred"}]}),
            ("bob", "act", {}),
        ],
        [3, 3, 3, 3],
    )
    assert not table.state.fighters["fred"].conscious
    with pytest.raises(RuleError, match="unconscious"):
        table.act(Action("fred", "act"), ScriptedSource([]))
    table = play(table, [("referee", "end_round", {})])
    assert table.state.round == 2


def test_end_round_waits_for_everyone() -> None:
    table = two_fighters()
    with pytest.raises(RuleError, match="still to act or wait"):
        table.act(Action("referee", "end_round"), None)
    with pytest.raises(RuleError, match="the Master's action"):
        table.act(Action("bob", "end_round"), None)


def test_waiting_character_acts_inside_another_action() -> None:
    table = two_fighters()
    table = play(
        table,
        [
            ("bob", "wait", {}),
            ("fred", "declare", {"actions": [{"move": "foot", "yards": 20}, {"attack": "bob"}]}),
            ("fred", "act", {}),
            ("bob", "declare", {"actions": [{"attack": "fred"}]}),
            ("bob", "act", {}),
            ("fred", "act", {}),
        ],
        [1, 1, 1, 1, 1, 1, 1, 1],
    )
    attacks = [e.data["character"] for e in table.log if e.kind == "attack.made"]
    assert attacks == ["bob", "fred"]


def test_wait_only_upon_reaching_ones_initiative() -> None:
    table = two_fighters()
    with pytest.raises(RuleError, match="only upon reaching his Initiative"):
        table.act(Action("fred", "wait"), None)


def test_hold_needs_waiting() -> None:
    table = two_fighters()
    with pytest.raises(RuleError, match="only a waiting character"):
        table.act(Action("bob", "hold"), None)


def test_an_action_held_over_is_held_once() -> None:
    """Holding over carries one waiting action into the next round: once held, "hold" is no
    longer offered, and a second is refused (the log holds one ``action.held``)."""
    table = two_fighters()
    table = play(table, [("bob", "wait", {}), ("bob", "hold", {})])
    offered = {c.kind for c in PROCEDURE.legal_actions(table.state, "bob")}
    assert "hold" not in offered
    with pytest.raises(RuleError, match="already holds"):
        table.act(Action("bob", "hold"), None)
    assert [e.kind for e in table.log].count("action.held") == 1


def test_recovery_one_hit_for_the_idle_none_for_the_injured() -> None:
    hurt = {**FIGHTER, "hits": 10}
    table = start({"bob": hurt, "fred": hurt, "ann": {**hurt, "health_ok": False}})
    table = initiative(
        table, {"bob": ("maneuver", 6, 6), "fred": ("maneuver", 1, 1), "ann": ("maneuver", 5, 5)}
    )
    table = play(
        table,
        [
            ("bob", "declare", {"actions": [{"attack": "fred"}]}),
            ("bob", "act", {}),
            ("fred", "take", {}),
            ("ann", "wait", {}),
            ("fred", "wait", {}),
            ("referee", "end_round", {}),
        ],
        [3, 3, 1, 1],
    )
    hits = {w: f.hits for w, f in table.state.fighters.items()}
    assert hits == {"bob": 10, "fred": 10 - 9, "ann": 10}


def test_condition_sets_health_and_sanity() -> None:
    table = play(
        start({"bob": FIGHTER}),
        [("referee", "condition", {"character": "bob", "sanity_ok": False})],
    )
    assert table.state.fighters["bob"].sanity_ok is False
    with pytest.raises(RuleError, match="Master's action"):
        table.act(Action("bob", "condition", {"character": "bob"}), None)


def test_round_zero_only_initiators_act_surprised_cannot_defend() -> None:
    table = play(
        start({"ann": FIGHTER, "bob": FIGHTER, "cy": FIGHTER}),
        [
            ("ann", "round_zero", {"surprised": ["bob"]}),
        ],
    )
    with pytest.raises(RuleError, match="not an initiator"):
        table.act(Action("cy", "declare", {"actions": [{"attack": "ann"}]}), None)
    table = play(table, [("ann", "declare", {"actions": [{"attack": "bob"}, {"attack": "cy"}]})])
    with pytest.raises(RuleError, match="has begun"):
        table.act(Action("cy", "round_zero", {}), None)
    table = play(table, [("ann", "act", {})], [1, 1, 1, 1])
    assert table.state.pending is None  # bob, surprised, could not even defend
    table = play(table, [("ann", "act", {})])
    assert table.state.pending is not None and table.state.pending.target == "cy"


def test_more_than_four_movement_actions_refused() -> None:
    table = two_fighters()
    with pytest.raises(RuleError, match="up to 4"):
        table.act(Action("bob", "declare", {"actions": [{"move": "foot", "yards": 50}]}), None)


def test_bad_setup_names_the_field() -> None:
    with pytest.raises(ScenarioError, match="characters"):
        PROCEDURE.initial_state({})
    with pytest.raises(ScenarioError) as error:
        PROCEDURE.initial_state({"characters": {"bob": {}}, "options": {"defence": "heroic"}})
    assert error.value.path == ("options", "defence")
    with pytest.raises(ActionError, match=r"dance: no such action"):
        two_fighters().act(Action("bob", "dance"), None)


def test_legal_actions_follow_the_phase() -> None:
    table = start({"bob": FIGHTER, "fred": FIGHTER})
    kinds = {a.kind for a in table.legal_actions("bob")}
    assert {"initiative", "round_zero"} <= kinds
    table = two_fighters()
    assert {a.kind for a in table.legal_actions("bob")} >= {"declare", "wait"}
    assert "declare" not in {a.kind for a in table.legal_actions("fred")}
    assert [a.kind for a in table.legal_actions("referee")] == ["condition", "perceive"]


# -- replay, undo, and secrecy ---------------------------------------------------------------

SNEAKS = {
    "thief": {"dexterity": 3, "skills": {"stealth": 4, "shadowing": 2}},
    "guard": {"intelligence": 1, "skills": {"perception": 2, "observation": 2}},
    "cook": {"intelligence": 1, "skills": {"perception": 1}},
}


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 10_000),
    st.lists(st.sampled_from(["stealth", "shadowing", "perceive"]), min_size=1, max_size=6),
)
def test_secrets_never_reach_another_viewer(seed: int, moves: list[str]) -> None:
    table = start(SNEAKS)
    dice = RandomSource(seed=seed)
    for move in moves:
        if move == "perceive":
            action = Action(
                "referee",
                "perceive",
                {"character": "guard", "challenge": 9, "sense": "hearing", "yards": 12},
            )
        else:
            action = Action("thief", "sneak", {"perceiver": "guard", "skill": move})
        table = table.act(action, dice)
    for event in view(table.log, "cook"):
        assert event.kind == "encounter.began", f"the cook saw {event.kind}"
    for event in view(table.log, "guard"):
        assert event.kind != "stealth.rolled"
        assert "roll" not in event.data and "challenge" not in event.data
    for event in view(table.log, "thief"):
        assert event.kind != "perception.rolled"
        assert "roll" not in event.data  # the roll tells the guard's Perception
    noticed = [e for e in table.log if e.kind == "stealth.rolled" and e.data["noticed"]]
    assert len([e for e in view(table.log, "guard") if e.kind == "sneak.noticed"]) == len(noticed)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000))
def test_replay_gives_the_same_state(seed: int) -> None:
    dice = RandomSource(seed=seed)
    table = start({"bob": FIGHTER, "fred": FIGHTER})
    table = table.act(Action("bob", "initiative", {"stance": "maneuver"}), dice)
    table = table.act(Action("fred", "initiative", {"stance": "maneuver"}), dice)
    for _ in range(30):
        if table.state.round > 3:
            break
        state = table.state
        if state.pending is not None:
            action = Action(state.pending.target, "take")
        elif state.phase == "initiative":
            who = next(w for w, f in state.fighters.items() if f.initiative is None)
            action = Action(who, "initiative", {"stance": "maneuver"})
        else:
            from referee.systems.hursagmu.state import on_turn

            turn = on_turn(state)
            if not turn:
                action = Action("referee", "end_round")
            else:
                who = turn[0]
                other = "fred" if who == "bob" else "bob"
                if state.fighters[who].plan is None:
                    action = Action(who, "declare", {"actions": [{"attack": other}]})
                else:
                    action = Action(who, "act")
        try:
            table = table.act(action, dice)
        except RuleError:
            break
    replayed = Table.replay(PROCEDURE, table.setup, table.log)
    assert PROCEDURE.state_json(replayed.state) == PROCEDURE.state_json(table.state)
    if len(table.log) > 1:
        undone = table.undo()
        assert len(undone.log) == len(table.log) - 1


def test_treacherous_ground_failed_acrobatics_moves_nobody() -> None:
    table = two_fighters()
    table = play(
        table,
        [
            (
                "bob",
                "declare",
                {
                    "actions": [
                        {"move": "foot", "yards": 10, "challenge": 12},
                        {"move": "foot", "yards": 10, "challenge": 12},
                    ]
                },
            ),
            ("bob", "act", {}),
            ("bob", "act", {}),
        ],
        [1, 1, 6, 6],
    )
    kinds = [e.kind for e in table.log if e.kind.startswith("character.")]
    assert kinds == ["character.stumbled", "character.moved"]
    assert table.state.fighters["bob"].yards_moved == 10
    stumble = next(e for e in table.log if e.kind == "character.stumbled")
    assert stumble.data["expression"] == "2d6+2" and stumble.data["odds"] == "1/6"


def test_race_a_yard_per_point() -> None:
    table = play(
        start({"bob": FIGHTER, "fred": {**FIGHTER, "skills": {"quickness": 0}}}),
        [
            ("bob", "race", {"against": "fred"}),
            ("fred", "race", {"against": "bob"}),
        ],
        [3, 3, 3, 3, 6, 6, 1, 1],
    )
    races = [e.data for e in table.log if e.kind == "race.rolled"]
    assert (races[0]["leader"], races[0]["yards"]) == ("bob", 2)
    assert (races[1]["leader"], races[1]["yards"]) == ("fred", 8)
    # The exact odds before the roll (brute force over 6**4 faces): 2d6+4 against 2d6+2.
    assert races[0]["odds"] == {"ahead": "287/432", "tie": "125/1296", "behind": "155/648"}


def test_round_zero_on_a_prearranged_signal() -> None:
    table = play(
        start({"ann": FIGHTER, "bob": FIGHTER, "cy": FIGHTER}),
        [
            ("ann", "round_zero", {"with": ["bob"], "surprised": ["cy"]}),
        ],
    )
    from referee.systems.hursagmu.state import on_turn

    assert set(on_turn(table.state)) == {"ann", "bob"}


def test_damage_roll_option_one_die() -> None:
    table = start({"bob": FIGHTER, "fred": FIGHTER}, damage_roll="1d6")
    table = initiative(table, {"bob": ("maneuver", 6, 6), "fred": ("maneuver", 1, 1)})
    table = play(
        table,
        [
            ("fred", "declare", {"actions": [{"attack": "bob"}]}),
            ("bob", "declare", {"actions": [{"attack": "fred"}]}),
            ("bob", "act", {}),
        ],
        [1, 1, 4],
    )
    damage = next(e for e in table.log if e.kind == "damage.taken")
    assert damage.data["damage"] == 5 + 2 + 4


def test_range_challenge_adds_to_an_evading_targets_defence() -> None:
    archer = {**FIGHTER, "weapon_type": "missile weapon", "skills": {"quickness": 2, "missile": 5}}
    table = start({"ann": archer, "fred": FIGHTER})
    table = initiative(table, {"ann": ("maneuver", 6, 6), "fred": ("maneuver", 1, 1)})
    table = play(
        table,
        [
            ("ann", "declare", {"actions": [{"attack": "fred", "skill": "missile", "yards": 25}]}),
            ("ann", "act", {}),
            ("fred", "defend", {"actions": [{"defend": True}]}),
        ],
        [3, 3, 3, 3],
    )
    resolved = next(e for e in table.log if e.kind == "attack.resolved")
    assert resolved.data["expression"] == "2d6+7 vs 2d6+8+2"
    assert resolved.data["hit"] is False  # 13 against 15
    made = next(e for e in table.log if e.kind == "attack.made")
    assert made.data["range_challenge"] == 2


def test_initiative_modifier_for_surprise_or_minor_actions() -> None:
    # "Environmental factors (such as surprise) or minor actions ... may give bonuses or
    # penalties to Initiative, at the whim of The Master."
    table = start({"bob": FIGHTER, "fred": FIGHTER})
    table = table.act(
        Action("bob", "initiative", {"stance": "maneuver", "modifier": -3}), ScriptedSource([3, 4])
    )
    assert table.state.fighters["bob"].initiative == 7 + 4 - 3
    with pytest.raises(ActionError, match=r"initiative.modifier: Input should be a valid integer"):
        table.act(
            Action("fred", "initiative", {"stance": "maneuver", "modifier": "lots"}),
            ScriptedSource([3, 4]),
        )
    with pytest.raises(ActionError, match=r"initiative.stance: Input should be 'maneuver' or"):
        table.act(Action("fred", "initiative", {"stance": "dance"}), ScriptedSource([3, 4]))


def test_an_undefended_target_is_an_unopposed_roll_against_the_range_challenge() -> None:
    archer = {**FIGHTER, "weapon_type": "missile weapon", "skills": {"quickness": 2, "missile": 0}}
    table = start({"ann": archer, "fred": FIGHTER})
    table = initiative(table, {"ann": ("maneuver", 6, 6), "fred": ("maneuver", 1, 1)})
    table = play(
        table,
        [
            ("ann", "declare", {"actions": [{"attack": "fred", "skill": "missile", "yards": 95}]}),
            ("ann", "act", {}),
            ("fred", "take", {}),
        ],
        [1, 2],
    )
    resolved = next(e for e in table.log if e.kind == "attack.resolved")
    assert resolved.data["expression"] == "2d6+2 vs 9"
    assert resolved.data["odds"] == "7/12" and resolved.data["hit"] is False


PLANS = st.lists(
    st.sampled_from(
        [
            {"attack": "TARGET"},
            {"defend": True},
            {"haste": True},
            {"minor": "draw"},
            {"move": "stand"},
            {"move": "foot", "yards": 12},
            {"move": "leap"},
        ]
    ),
    min_size=1,
    max_size=5,
)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.lists(PLANS, min_size=3, max_size=3))
def test_steps_happen_in_initiative_order(seed: int, plans: list[list[dict[str, Any]]]) -> None:
    from referee.systems.hursagmu.state import next_key, on_turn

    names = ["ann", "bob", "cy"]
    dice = RandomSource(seed=seed)
    table = start({n: {**FIGHTER, "stamina": 99} for n in names})
    for n in names:
        table = table.act(Action(n, "initiative", {"stance": "maneuver"}), dice)
    order: list[tuple[int, int]] = []
    for _ in range(60):
        state = table.state
        if state.pending is not None:
            table = table.act(Action(state.pending.target, "take"), dice)
            continue
        turn = on_turn(state)
        if not turn:
            break
        who = turn[0]
        f = state.fighters[who]
        if f.plan is None:
            target = names[(names.index(who) + 1) % 3]
            mine = plans[names.index(who)]
            steps = [{**s, "attack": target} if "attack" in s else s for s in mine]
            try:
                table = table.act(Action(who, "declare", {"actions": steps}), dice)
            except RuleError:
                table = table.act(Action(who, "declare", {"actions": [{"minor": "x"}]}), dice)
            continue
        key = next_key(state, who)
        assert key is not None
        order.append(key)
        table = table.act(Action(who, "act"), dice)
    assert order == sorted(order, reverse=True)
    assert table.state.pending is None
    table.act(Action("referee", "end_round"), dice)


def test_haste_must_come_before_the_round_passes_its_initiative() -> None:
    table = start({"ann": FIGHTER, "bob": FIGHTER})
    table = initiative(table, {"ann": ("maneuver", 6, 6), "bob": ("maneuver", 4, 4)})  # 16, 12
    table = play(table, [("ann", "declare", {"actions": [{"minor": "draw"}]}), ("ann", "act", {})])
    with pytest.raises(RuleError, match="passed Initiative 18"):
        table.act(
            Action(
                "bob",
                "declare",
                {"actions": [{"haste": True}, {"haste": True}, {"haste": True}, {"attack": "ann"}]},
            ),
            None,
        )
    table = play(table, [("bob", "declare", {"actions": [{"haste": True}, {"attack": "ann"}]})])
    assert table.state.fighters["bob"].scheduled(table.state.options.defence)[1].initiative == 14


def test_perceive_divination_and_the_unconscious() -> None:
    seer = {"intelligence": 3, "stamina": 5, "hits": 0, "skills": {"divination": 2}}
    table = start({"seer": {**seer, "hits": 5}, "sleeper": seer, "thief": SNEAKS["thief"]})
    table = play(
        table,
        [
            (
                "referee",
                "perceive",
                {"character": "seer", "skill": "divination", "challenge": 9, "yards": 2500},
            )
        ],
        [2, 2],
    )
    event = next(e for e in table.log if e.kind == "perception.rolled")
    assert event.data["challenge"] == 11 and event.data["noticed"] is False
    with pytest.raises(RuleError, match="unconscious"):
        table.act(Action("referee", "perceive", {"character": "sleeper"}), ScriptedSource([6, 6]))
    table = play(table, [("thief", "sneak", {"perceiver": "sleeper"})])
    sneak = next(e for e in table.log if e.kind == "stealth.rolled")
    assert sneak.data["noticed"] is False and "senseless" in str(sneak.data["reason"])
    with pytest.raises(ActionError, match=r"perceive.skill: .*'observation' or 'divination'"):
        table.act(Action("referee", "perceive", {"character": "seer", "skill": "smell"}), None)
    with pytest.raises(ActionError, match=r"sneak.skill: .*'stealth' or 'shadowing'"):
        table.act(Action("thief", "sneak", {"perceiver": "seer", "skill": "luck"}), None)


def test_multi_round_action_carried_on_or_abandoned() -> None:
    priest = {"intelligence": 3, "stamina": 12, "skills": {"command": 2, "seheru": 4}}
    ritual = {"task": "binding", "skill": "seheru", "challenge": 9, "rounds": 2, "engrossing": True}

    def two_rounds(second: list[dict[str, Any]]) -> Table[Encounter]:
        table = start({"priest": priest})
        table = play(
            table,
            [
                ("priest", "initiative", {"stance": "concentrate"}),
                ("priest", "declare", {"actions": [ritual]}),
                ("priest", "act", {}),
                ("referee", "end_round", {}),
                ("priest", "initiative", {"stance": "concentrate"}),
                ("priest", "declare", {"actions": second}),
                ("priest", "act", {}),
            ],
            [3, 3, 3, 3, 4, 4],
        )
        return table

    done = two_rounds([ritual])
    rolled = [e for e in done.log if e.kind == "task.rolled"]
    assert len(rolled) == 1 and rolled[0].data["success"] is True
    abandoned = two_rounds([{"task": "other", "skill": "seheru", "challenge": 9}])
    assert abandoned.state.fighters["priest"].task is None
    assert [e.data["task"] for e in abandoned.log if e.kind == "task.rolled"] == ["other"]


def test_a_sorcery_attack_uses_its_types_range_increment() -> None:
    table = start({"marcos": SORCERER, "bob": FIGHTER})
    table = initiative(table, {"marcos": ("concentrate", 6, 6), "bob": ("maneuver", 1, 1)})
    table = play(
        table,
        [
            ("marcos", "declare", {"actions": [{"attack": "bob", "skill": "nekelmu", "yards": 5}]}),
            ("marcos", "act", {}),
        ],
    )
    made = next(e for e in table.log if e.kind == "attack.made")
    assert made.data["range_challenge"] == 2  # Nekelmu: 2 yards an increment
    table = start({"bob": FIGHTER, "fred": FIGHTER})
    table = initiative(table, {"bob": ("maneuver", 6, 6), "fred": ("maneuver", 1, 1)})
    with pytest.raises(RuleError, match="names its range table entry"):
        table.act(Action("bob", "declare", {"actions": [{"attack": "fred", "yards": 5}]}), None)
    with pytest.raises(RuleError, match="no range increment for 'sling'"):
        table.act(
            Action(
                "bob", "declare", {"actions": [{"attack": "fred", "yards": 5, "ability": "sling"}]}
            ),
            None,
        )


def test_no_abort_after_a_skill_of_the_declared_kind_was_used() -> None:
    # "A character cannot use both Dex and Int skills during the same round": Marcos, who has
    # already blasted Bob with Mahasu (Intelligence), cannot then defend with Defense
    # (Dexterity); there is no rest of his turn left to abort, so he takes the hit.
    table = start({"bob": FIGHTER, "marcos": {**SORCERER, "stamina": 40}})
    table = initiative(table, {"bob": ("maneuver", 1, 1), "marcos": ("concentrate", 6, 6)})
    table = play(
        table,
        [
            ("marcos", "declare", {"actions": [{"attack": "bob", "skill": "mahasu"}]}),
            ("marcos", "act", {}),
            ("bob", "take", {}),
            ("bob", "declare", {"actions": [{"attack": "marcos"}]}),
            ("bob", "act", {}),
        ],
        [6, 6, 1, 1, 1, 1, 1, 1],
    )
    made = [e for e in table.log if e.kind == "attack.made"][-1]
    assert made.data["character"] == "bob"
    assert made.data["defence"] == "none"
    assert "Dex and Int" in str(made.data["reason"])
    assert table.state.pending is None
    assert "turn.aborted" not in [e.kind for e in table.log]


def test_no_abort_after_defending_with_the_declared_kind() -> None:
    # Bob maneuvers and has already rolled Defense against Fred: he cannot also roll Defiance
    # against Marcos's blast this round.
    table = start({"bob": {**FIGHTER, "stamina": 40}, "fred": FIGHTER, "marcos": SORCERER})
    table = initiative(
        table,
        {"bob": ("maneuver", 1, 1), "fred": ("maneuver", 6, 6), "marcos": ("concentrate", 5, 5)},
    )
    table = play(
        table,
        [
            ("fred", "declare", {"actions": [{"attack": "bob"}]}),
            ("fred", "act", {}),
            ("bob", "defend", {"actions": [{"defend": "defense"}, {"attack": "fred"}]}),
            ("marcos", "declare", {"actions": [{"attack": "bob", "skill": "mahasu"}]}),
            ("marcos", "act", {}),
        ],
        [1, 1, 6, 6, 1, 1, 1, 1],
    )
    made = [e for e in table.log if e.kind == "attack.made"][-1]
    assert made.data["character"] == "marcos"
    assert made.data["defence"] == "none"
    assert table.state.fighters["bob"].plan is not None
    assert len(table.state.fighters["bob"].plan) == 2


def test_a_lone_waiter_plays_no_waiting_game() -> None:
    # "If two characters both decide to wait for the other to act ...": one waiter alone, while
    # the others acted, waits for nobody; he ranks with everyone else next round.
    table = start({"ann": FIGHTER, "bob": FIGHTER, "cy": FIGHTER})
    table = initiative(
        table, {"ann": ("maneuver", 6, 6), "bob": ("maneuver", 3, 3), "cy": ("maneuver", 1, 1)}
    )
    table = play(
        table,
        [
            ("ann", "wait", {}),
            ("bob", "declare", {"actions": [{"minor": "draw"}]}),
            ("bob", "act", {}),
            ("cy", "declare", {"actions": [{"minor": "draw"}]}),
            ("cy", "act", {}),
            ("referee", "end_round", {}),
        ],
    )
    ended = [e for e in table.log if e.kind == "round.ended"][-1]
    assert ended.data["waiting_game"] == []
    table = initiative(
        table, {"ann": ("maneuver", 1, 1), "bob": ("maneuver", 6, 6), "cy": ("maneuver", 2, 2)}
    )
    assert table.state.fighters["ann"].rank == 0
    assert table.state.fighters["ann"].hits == 20
    assert set(table.state.fighters) == {"ann", "bob", "cy"}


def test_damage_never_heals_and_no_damage_is_no_injury() -> None:
    # Weapon + Strength + the damage roll, with a feeble Strength, can total less than 1: no
    # damage, not negative damage; "takes even 1 point of damage" is what injures.
    weakling = {**FIGHTER, "strength": -6, "weapon": 0}
    table = start({"bob": weakling, "fred": {**FIGHTER, "hits": 10}})
    table = initiative(table, {"bob": ("maneuver", 6, 6), "fred": ("maneuver", 1, 1)})
    table = play(
        table,
        [
            ("bob", "declare", {"actions": [{"attack": "fred"}]}),
            ("bob", "act", {}),
            ("fred", "take", {}),
        ],
        [3, 3, 1, 1],
    )
    fred = table.state.fighters["fred"]
    assert fred.hits == 10
    assert not fred.injured
    taken = next(e for e in table.log if e.kind == "damage.taken")
    assert taken.data["damage"] == 0


def test_aborting_drops_an_unused_defence_of_the_old_kind() -> None:
    # Bob maneuvers: [defend, move 40 yards, attack at 16 - 8]. He has moved (no skill rolled)
    # when Marcos's blast comes at 9: he aborts; his unused Defense goes with the rest of his
    # turn, so his Defiance is his only major action (no penalty).
    table = start(
        {
            "bob": {**FIGHTER, "intelligence": 1, "skills": {**FIGHTER["skills"], "defiance": 2}},
            "marcos": SORCERER,
        }
    )
    table = initiative(table, {"bob": ("maneuver", 6, 6), "marcos": ("concentrate", 2, 2)})
    table = play(
        table,
        [
            (
                "bob",
                "declare",
                {
                    "actions": [
                        {"defend": "defense"},
                        {"move": "foot", "yards": 40},
                        {"attack": "marcos"},
                    ]
                },
            ),
            ("bob", "act", {}),
            ("marcos", "declare", {"actions": [{"attack": "bob", "skill": "mahasu"}]}),
            ("marcos", "act", {}),
            ("bob", "defend", {}),
        ],
        [1, 1, 6, 6, 1, 1],
    )
    bob = table.state.fighters["bob"]
    assert bob.plan is not None
    assert [s.to_json() for s in bob.plan] == [
        {"kind": "move", "movement": "foot", "yards": 40},
        {"kind": "defend", "skill": "defiance"},
    ]
    assert bob.penalty(table.state.options.defence) == 0
    aborted = next(e for e in table.log if e.kind == "turn.aborted")
    assert aborted.data["dropped"] == 2


@pytest.mark.parametrize("key", ["asleep", "soft"])
def test_perceive_flags_are_true_or_false(key: str) -> None:
    table = start({"bob": {**FIGHTER, "intelligence": 1}})
    with pytest.raises(ActionError, match=rf"perceive.{key}: Input should be a valid boolean"):
        table.act(
            Action(
                "referee",
                "perceive",
                {"character": "bob", "sense": "hearing", "asleep": True, key: "no"},
            ),
            ScriptedSource([1, 1]),
        )
