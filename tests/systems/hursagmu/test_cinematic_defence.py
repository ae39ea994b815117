"""The cinematic option for defensive actions (hursagmu-encounters.txt, "Action": "The Master may
wish to rule that the use of a defensive skill is only one major action per round, regardless of
how many attacks are evaded"): the round's skill penalty, the Initiative of each step, the turn
order, and the rolls, odds and views that follow from counting the defences once."""

from __future__ import annotations

from dataclasses import replace

from referee.core import Action
from referee.systems.hursagmu.action_phase import step_base
from referee.systems.hursagmu.encounter import EncounterProcedure
from referee.systems.hursagmu.rounds import DefenceMode, RoundPlan, Step, schedule, skill_penalty
from referee.systems.hursagmu.state import on_turn

from .helpers import _cinematic_round, _kinds, _odds, _with
from .test_encounter import FIGHTER, initiative, play, start, two_fighters

# -- the skill penalty -----------------------------------------------------------------------------


def test_the_cinematic_option_counts_no_defence_when_none_is_declared() -> None:
    """ "Action", the cinematic option: defences are one major action a round — and none when
    the round has no defence: two attacks are −2, as under the default."""
    two = (Step.attack("fred"), Step.attack("fred"))
    assert skill_penalty(RoundPlan(two, mode=DefenceMode.CINEMATIC)) == -2
    assert skill_penalty(RoundPlan(two[:1], mode=DefenceMode.CINEMATIC)) == 0


def test_a_declaration_under_the_cinematic_option_counts_its_defences_once() -> None:
    """ "Action", cinematic option: bob's two declared defences are one major action, so his
    declared round has no skill penalty and his Defense stays 6."""
    table = start({"bob": FIGHTER, "fred": FIGHTER}, defence="cinematic")
    table = initiative(table, {"bob": ("maneuver", 6, 6), "fred": ("maneuver", 1, 1)})
    steps = [{"move": "foot", "yards": 10}, {"defend": True}, {"defend": True}]
    table = table.act(Action("bob", "declare", {"actions": steps}), None)
    declared = dict(table.log[-1].data)
    assert (declared["penalty"], declared["skills"], declared["initiatives"]) == (
        0,
        {"defense": 6},
        [16, 14, 14],
    )


def test_the_json_view_counts_two_defences_as_one_action_under_the_cinematic_option() -> None:
    """ "Action", cinematic option: the declared defences are one major action, at one
    Initiative. bob's attack and two defences are two actions: penalty -2 (not -4), Striking
    5 - 2 and Defense 6 - 2, both defences at Initiative 14."""
    table = start({"bob": FIGHTER, "fred": FIGHTER}, defence="cinematic")
    table = initiative(table, {"bob": ("maneuver", 6, 6), "fred": ("maneuver", 1, 1)})
    actions = [{"attack": "fred"}, {"defend": True}, {"defend": True}]
    table = play(table, [("bob", "declare", {"actions": actions})], [])
    bob = EncounterProcedure().state_json(table.state)["characters"]["bob"]
    assert bob["penalty"] == -2
    assert bob["skills"] == {"striking": 3, "defense": 4}
    assert bob["plan"] == [
        {"kind": "attack", "skill": "striking", "target": "fred", "initiative": 16},
        {"kind": "defend", "skill": "defense", "initiative": 14},
        {"kind": "defend", "skill": "defense", "initiative": 14},
    ]


def test_a_cinematic_defence_counts_once_in_the_rolls_a_seat_is_shown() -> None:
    """Action, the cinematic option: "the use of a defensive skill is only one major action per
    round, regardless of how many attacks are evaded". bob declares an attack and two defences,
    fred three defences and an attack: a penalty of -2 each (two major actions), not -4 and -6
    — in the roll made and in the roll the log shows: Striking 2+5-2 + 4+4 = 13 against Defense
    2+6-2 + 3+3 = 12, bob by 1 (the attacker wins ties)."""
    table = start({"bob": FIGHTER, "fred": FIGHTER}, defence="cinematic")
    table = initiative(table, {"bob": ("maneuver", 6, 6), "fred": ("maneuver", 1, 1)})
    defend = {"defend": True}
    table = play(
        table,
        [
            ("fred", "declare", {"actions": [defend, defend, defend, {"attack": "bob"}]}),
            ("bob", "declare", {"actions": [{"attack": "fred"}, defend, defend]}),
            ("bob", "act", {}),
            ("fred", "defend", {}),
        ],
        [4, 4, 3, 3, 1, 1],
    )
    (resolved,) = [e.data for e in table.log if e.kind == "attack.resolved"]
    assert resolved["expression"] == "2d6+5 vs 2d6+6"
    assert (resolved["value"], resolved["margin"], resolved["hit"]) == (13, 1, True)


def test_a_tasks_roll_counts_two_defences_as_one_action_under_the_cinematic_option() -> None:
    """ "Action": a task and two defences under the cinematic option are two major actions, −2
    (not three, −4): Quickness is 2d6 + Dex 2 + 2 − 2."""
    events = _cinematic_round(
        [
            {"task": "vault", "skill": "quickness", "challenge": 9},
            {"defend": True},
            {"defend": True},
        ]
    )
    assert [(kind, data["expression"], data["odds"]) for kind, data in events] == [
        ("task.rolled", "2d6+2", "7/12")
    ]


def test_the_next_tasks_odds_carry_the_rounds_penalty_under_the_cinematic_option() -> None:
    """ "act" previews the task's roll: its name, the skill against the challenge, with the
    round's penalty. Under the cinematic option two defences are one major action: task and
    defences are two, -2 (counting each defence it would be -4)."""
    table = start({"bob": FIGHTER, "fred": FIGHTER}, defence="cinematic")
    table = initiative(table, {"bob": ("maneuver", 6, 6), "fred": ("maneuver", 1, 1)})
    plan = [
        {"task": "climb", "skill": "acrobatics", "challenge": 9},
        {"defend": True},
        {"defend": True},
    ]
    table = play(table, [("bob", "declare", {"actions": plan})])
    assert _odds(_kinds(table, "bob")["act"]) == [("Bob: climb", "2d6 ≥ 9", "Action")]


# -- the Initiative of each step, and the turn order -----------------------------------------------


def test_the_first_defence_after_an_attack_is_two_initiative_later_under_the_cinematic_option() -> (
    None
):
    """ "each action after the first happens at an Initiative two lower than the previous
    action"; under the cinematic option only a second defence is the same action as the first."""
    plan = RoundPlan(
        (Step.attack("fred"), Step.defend(), Step.defend(), Step.attack("fred")),
        mode=DefenceMode.CINEMATIC,
    )
    assert [s.initiative for s in schedule(plan, 12)] == [12, 10, 10, 8]


def test_a_step_happens_at_its_initiative_under_the_cinematic_option() -> None:
    """ "Action", cinematic option: a second defence is the same action as the first, so the
    attack after two defences comes 2 (not 4) after bob's Initiative 16."""
    state = two_fighters().state
    state = replace(state, options=replace(state.options, defence=DefenceMode.CINEMATIC))
    state = _with(state, "bob", plan=(Step.defend(), Step.defend(), Step.attack("fred")))
    bob = state.fighters["bob"]
    assert step_base(state, "bob", bob, 2) == {"character": "bob", "step": 2, "initiative": 14}


def test_turn_order_follows_the_cinematic_options_initiatives() -> None:
    """ "Action", cinematic option: bob's two declared defences are one action, so his second
    attack comes at 12, before fred's 11 (each defence counted, it would come at 10, after)."""
    table = start({"bob": FIGHTER, "fred": FIGHTER}, defence="cinematic")
    table = initiative(table, {"bob": ("maneuver", 6, 6), "fred": ("maneuver", 3, 4)})
    plan = [{"attack": "fred"}, {"defend": True}, {"defend": True}, {"attack": "fred"}]
    steps = [("bob", "declare", {"actions": plan}), ("bob", "act", {}), ("fred", "take", {})]
    table = play(table, steps, [1] * 6)
    assert on_turn(table.state) == ("bob",)
