"""Defensive actions (hursagmu-encounters.txt, "Action": "If a character is attacked before his
turn, he may choose to make a defensive action regardless of Initiative"): who may defend or take
the blow, declaring before the defensive roll, aborting the rest of the turn for a defence of the
other kind, an engrossing action, and the odds each seat is shown for its defence. The cinematic
option is in ``test_cinematic_defence.py``."""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import Action, AnyOf, RuleError, Steps, Table, Viewer
from referee.core.prompts import whose_move
from referee.core.table import preview
from referee.dice import ScriptedSource
from referee.systems.hursagmu import PROCEDURE, choices
from referee.systems.hursagmu.action_phase import fold_turn_aborted
from referee.systems.hursagmu.choices import legal_actions
from referee.systems.hursagmu.encounter import EncounterProcedure
from referee.systems.hursagmu.round_plan import DEFEND
from referee.systems.hursagmu.rounds import Step, defence_skill
from referee.systems.hursagmu.sheet import Stance
from referee.systems.hursagmu.state import Encounter

from .helpers import _bob_casts_mahasu_at_fred, _fred_under_attack, _kinds, _odds, _with
from .test_encounter import FIGHTER, SORCERER, initiative, play, start, two_fighters

# -- the target of the attack, and the defence he rolls --------------------------------------------


def _fred_attacks_cy() -> Any:
    """bob, fred and cy, fighters; fred acts first and attacks cy, whose answer is pending."""
    table = start({"bob": FIGHTER, "fred": FIGHTER, "cy": FIGHTER})
    table = initiative(
        table, {"fred": ("maneuver", 6, 6), "bob": ("maneuver", 1, 1), "cy": ("maneuver", 1, 2)}
    )
    return play(table, [("fred", "declare", {"actions": [{"attack": "cy"}]}), ("fred", "act", {})])


def test_only_the_target_of_the_attack_defends_against_it() -> None:
    """Action: "If a character is attacked" he may defend — he, not another: fred's attack on
    cy waits for cy, and bob may not defend in his place."""
    table = _fred_attacks_cy()
    assert table.state.pending is not None and table.state.pending.target == "cy"
    with pytest.raises(RuleError, match="the table waits for cy to decide: Fred attacks Cy"):
        play(table, [("bob", "defend", {})], [1, 1])


def test_only_the_target_of_the_attack_takes_it_undefended() -> None:
    """Action: the character attacked "may choose to make a defensive action" or take the
    blow — he, not another: bob may not take fred's attack on cy for him, and cy may."""
    table = _fred_attacks_cy()
    with pytest.raises(RuleError, match="the table waits for cy to decide: Fred attacks Cy"):
        play(table, [("bob", "take", {})], [6, 6, 1, 1])
    taken = play(table, [("cy", "take", {})], [6, 6, 1, 1])
    (resolved,) = [e.data for e in taken.log if e.kind == "attack.resolved"]
    assert (resolved["target"], resolved["defended"], resolved["hit"]) == ("cy", False, True)


@pytest.mark.parametrize("kind", ["take", "defend"])
def test_the_rules_themselves_refuse_another_character_answering_the_attack(kind: str) -> None:
    """Action: the attack is the target's to defend against or take. The table's prompt asks
    cy alone, and the rules refuse bob's answer even when asked without it (a simulation or the
    solver asks the procedure directly): the blow is never resolved on cy for bob's answer."""
    table = _fred_attacks_cy()
    with pytest.raises(RuleError, match="bob is not the target of a pending attack"):
        PROCEDURE.build(table.state, Action("bob", kind, {}), ScriptedSource([6, 6, 1, 1]))


def test_the_rules_themselves_refuse_another_action_while_the_attack_waits() -> None:
    """Action: while fred's attack waits for cy's answer, nothing else happens — the rules
    refuse bob's turn, naming who must answer whose attack, even when asked without the
    table's prompt."""
    table = _fred_attacks_cy()
    with pytest.raises(RuleError, match="cy must first defend against or take fred's attack"):
        PROCEDURE.build(table.state, Action("bob", "wait", {}), ScriptedSource([]))


def test_a_defence_built_in_code_is_a_defense_against_physical_attacks() -> None:
    """Action: a defensive action is a Defense roll against a physical attack (Defiance
    against sorcery): ``Step.defend()`` with no skill named is the scenario file's
    ``{defend: true}``, the defence a blow of striking needs."""
    assert Step.defend() == Step.from_json({"defend": True}) == Step.defend("defense")
    assert Step.defend().skill == defence_skill("striking") == "defense"


def test_the_attacked_character_chooses_to_defend_or_take_the_attack() -> None:
    """The two choices of an attacked character, as the menu words them."""
    table = two_fighters()
    table = play(
        table, [("bob", "declare", {"actions": [{"attack": "fred"}]}), ("bob", "act", {})], [6, 6]
    )
    assert [(c.actor, c.kind, c.label) for c in legal_actions(table.state, "fred")] == [
        ("fred", "defend", "defend"),
        ("fred", "take", "take the attack"),
    ]


def test_one_who_has_declared_nothing_takes_the_hit_if_he_declines() -> None:
    """Action: attacked before his turn, fred "may choose to make a defensive action" — his
    choice: having declared no defence, declining the prompt takes the hit (ruling 32)."""
    table = two_fighters()
    table = play(
        table, [("bob", "declare", {"actions": [{"attack": "fred"}]}), ("bob", "act", {})], [6, 6]
    )
    assert table.state.fighters["fred"].plan is None
    (prompt,) = PROCEDURE.prompts(table.state)
    assert prompt.default == Action("fred", "take", {})


def test_the_json_view_names_the_pending_attack() -> None:
    """``expect: pending.*`` reads who attacks whom, with which skill, and the defence asked."""
    state = _fred_under_attack().state
    assert EncounterProcedure().state_json(state)["pending"] == {
        "attacker": "bob",
        "target": "fred",
        "skill": "striking",
        "defence": "defend",
    }


def _sorcery_at_a_ritual(**options: Any) -> dict[str, Any]:
    """marcos busy with a three-round ritual that does not engross him, then attacked by zed's
    sorcery: the attack's ``attack.made`` payload."""
    ritual = {"task": "ritual", "skill": "mahasu", "challenge": 8, "rounds": 3}
    table = start({"marcos": SORCERER, "zed": SORCERER}, **options)
    table = initiative(table, {"marcos": ("concentrate", 6, 6), "zed": ("concentrate", 1, 1)})
    table = play(
        table,
        [
            ("marcos", "declare", {"actions": [ritual]}),
            ("marcos", "act", {}),
            ("zed", "declare", {"actions": [{"attack": "marcos", "skill": "mahasu"}]}),
            ("zed", "act", {}),
        ],
        [6, 6, 1, 1, 1, 1],
    )
    (made,) = [e.data for e in table.log if e.kind == "attack.made"]
    return dict(made)


def test_a_multi_round_action_that_does_not_engross_still_needs_a_declared_defence() -> None:
    """Action: only an engrossing action allows "no defensive actions at all"; a caster busy
    with a ritual that does not engross him is refused a defence only because he declared
    none ("declare all of his actions for the round"), under each defence option."""
    each = _sorcery_at_a_ritual()
    assert (each["defence"], each["reason"]) == ("none", "no declared defence left")
    cinematic = _sorcery_at_a_ritual(defence="cinematic")
    assert (cinematic["defence"], cinematic["reason"]) == ("none", "no defence declared")


# -- "declare all of his actions for the round and then make his defensive skill roll" -------------


def test_an_attacked_character_who_declared_his_defence_declares_nothing_more() -> None:
    """fred declared a defence: attacked, he defends with it (no new declaration offered)."""
    table = start({"bob": FIGHTER, "fred": FIGHTER})
    table = initiative(table, {"bob": ("maneuver", 1, 1), "fred": ("maneuver", 6, 6)})
    table = play(table, [("fred", "declare", {"actions": [{"defend": True}]})])
    table = play(
        table, [("bob", "declare", {"actions": [{"attack": "fred"}]}), ("bob", "act", {})], [6, 6]
    )
    defend = _kinds(table, "fred")["defend"]
    assert defend.params == {}
    assert defend.to_json()["params"] == {}
    assert _odds(defend) == [("Bob's striking against Fred's defense", "2d6+7 vs 2d6+8", "Action")]


def test_an_attacked_character_who_has_not_declared_may_defend_alone_or_defend_and_attack() -> None:
    """Declaring before his defensive roll, fred is offered the defence alone, or the defence
    and an attack."""
    table = start({"bob": FIGHTER, "fred": FIGHTER})
    table = initiative(table, {"bob": ("maneuver", 6, 6), "fred": ("maneuver", 1, 1)})
    table = play(
        table, [("bob", "declare", {"actions": [{"attack": "fred"}]}), ("bob", "act", {})], [6, 6]
    )
    defend = _kinds(table, "fred")["defend"]
    offered = defend.params["actions"]
    assert isinstance(offered, Steps) and isinstance(offered.step, AnyOf)
    assert next(iter(offered.step.options)) == DEFEND  # the defence first: the default
    assert offered.contains([{"defend": "defense"}])
    assert offered.contains([{"defend": "defense"}, {"attack": "bob", "skill": "striking"}])
    assert not offered.contains([{"defend": "defiance"}])


def test_an_attacked_character_who_has_not_declared_is_offered_plans_holding_the_defence() -> None:
    """ "Action": fred, attacked before he declared, defends by declaring the round's actions;
    the plan offered starts with the defence against the attack's skill (Defense against
    Striking: the form's default), and one without it is refused by the rules."""
    table = _fred_under_attack()
    choices = {c.kind: c.params for c in legal_actions(table.state, "fred")}
    offered = choices["defend"]["actions"]
    assert offered.sample(_FirstOnly()) == [{"defend": "defense"}]
    assert offered.contains([{"defend": "defense"}, {"attack": "bob", "skill": "striking"}])
    assert not offered.contains([{"defend": "defiance"}])
    with pytest.raises(RuleError, match="include no defense defence"):
        table.act(Action("fred", "defend", {"actions": [{"attack": "bob"}]}), ScriptedSource([]))


class _FirstOnly:
    """A random source for ``sample`` that takes the first of everything, as few as allowed."""

    def randrange(self, n: int) -> int:
        return 0

    def randint(self, low: int, high: int) -> int:
        return low

    def random(self) -> float:
        return 0.0


def test_a_defence_declared_before_the_roll_must_be_a_defence_not_a_task_of_its_skill() -> None:
    """ "Action": fred, attacked before he declared, declares all of his actions then; a task
    rolled with Defense is not a defence, and the declaration is refused."""
    parry = [{"task": "parry", "skill": "defense", "challenge": 5}]
    with pytest.raises(RuleError, match="fred's declared actions include no defense defence"):
        play(_fred_under_attack(), [("fred", "defend", {"actions": parry})], [])


# -- the odds shown for a defence and for the blow taken -------------------------------------------


def test_an_attacked_characters_choices_show_the_odds_the_roll_then_has() -> None:
    """Action ("declare all of his actions for the round and then make his defensive skill
    roll"): bob, attacked before declaring, is shown the odds of defending with the defence
    declared alone and of taking the blow undefended — the very odds each roll then records."""
    table = start({"bob": FIGHTER, "fred": FIGHTER})
    table = initiative(table, {"fred": ("maneuver", 6, 6), "bob": ("maneuver", 1, 1)})
    table = play(
        table, [("fred", "declare", {"actions": [{"attack": "bob"}]}), ("fred", "act", {})]
    )
    shown = {c.kind: c.odds for c in table.legal_actions("bob")}
    (defended,) = shown["defend"]
    (taken,) = shown["take"]
    assert (defended.label, defended.rule) == (
        "Fred's striking against Bob's defense, declared alone",
        "Action",
    )
    assert (taken.label, taken.rule) == ("Fred's striking against Bob, undefended", "Action")

    def rolled(after: Any) -> dict[str, str]:
        (resolved,) = [e.data for e in after.log if e.kind == "attack.resolved"]
        return dict(resolved["roll"]["odds"])

    defending = play(table, [("bob", "defend", {"actions": [{"defend": True}]})], [1, 1, 6, 6])
    assert dict(defended.odds) == rolled(defending) != dict(taken.odds)
    assert dict(taken.odds) == rolled(play(table, [("bob", "take", {})], [3] * 10))


def test_a_declared_defence_is_shown_with_the_rounds_penalty_it_has() -> None:
    """Action: bob has declared a defence and an attack (two major actions) before fred's
    blow: the odds shown for his defence are those of his plan as declared, not of a defence
    declared alone — the odds the roll then records."""
    table = start({"bob": FIGHTER, "fred": FIGHTER})
    table = initiative(table, {"fred": ("maneuver", 6, 6), "bob": ("maneuver", 1, 1)})
    table = play(
        table,
        [
            ("bob", "declare", {"actions": [{"defend": True}, {"attack": "fred"}]}),
            ("fred", "declare", {"actions": [{"attack": "bob"}]}),
            ("fred", "act", {}),
        ],
    )
    (defended,) = {c.kind: c.odds for c in table.legal_actions("bob")}["defend"]
    assert defended.label == "Fred's striking against Bob's defense"
    after = play(table, [("bob", "defend", {})], [1, 1, 6, 6])
    resolved: Any = next(e.data for e in after.log if e.kind == "attack.resolved")
    odds = {"success": "287/432", "failure": "145/432"}
    assert dict(defended.odds) == dict(resolved["roll"]["odds"]) == odds


def test_a_player_seat_sees_the_odds_of_the_attack_on_the_character_it_plays() -> None:
    """The target of the pending attack sees its odds; a seat named otherwise that plays him
    (``Viewer("seat1", {"fred"})``) sees them as fred, not as "seat1", who is no character."""
    state = _fred_under_attack().state
    seat = EncounterProcedure().previews(state, Viewer("seat1", frozenset({"fred"})))
    assert seat == choices.previews(state, "fred", is_referee=False)
    assert [(p.label, p.dice, dict(p.odds)) for p in seat] == [
        (
            "Bob's striking against Fred's defense, declared alone",
            "2d6+3 vs 2d6+8",
            {"failure": "65/72", "success": "7/72"},
        ),
        ("Bob's striking against Fred, undefended", "2d6+3 ≥ 0", {"success": "1", "failure": "0"}),
    ]


def test_an_attacked_characters_defence_and_taking_the_hit_preview_their_choices_odds() -> None:
    """ "Action": fred, attacked, may defend or take the hit; the form for each shows the odds of
    that choice (``round_plan.defence_odds`` for the defence with the plan declared): the
    defence declared alone, 7/72, and the hit taken undefended, certain."""
    table = _fred_under_attack()
    defend = Action("fred", "defend", {"actions": [{"defend": "defense"}]})
    shown = [(p.label, dict(p.odds)) for p in preview(table, "fred", defend)]
    assert shown == [
        (
            "Bob's striking against Fred's defense, no penalty for one action",
            {"failure": "65/72", "success": "7/72"},
        )
    ]
    taken = [(p.label, dict(p.odds)) for p in preview(table, "fred", Action("fred", "take", {}))]
    assert taken == [("Bob's striking against Fred, undefended", {"success": "1", "failure": "0"})]


# -- "the character must abort the rest of his turn if he wants to make a defensive action" --------


def test_an_aborted_turn_drops_the_plan_takes_the_defences_stance_and_ends_waiting() -> None:
    """ "Action": defending with the other kind of skill aborts the rest of the turn; the stance
    becomes the defence's; the steps already taken stay counted."""
    state = _with(
        two_fighters().state,
        "bob",
        plan=(Step.move("foot", 10), Step.attack("fred")),
        next_step=1,
        waiting=True,
    )
    bob = fold_turn_aborted(state, {"character": "bob", "stance": "concentrate"}).fighters["bob"]
    assert (bob.plan, bob.stance, bob.next_step, bob.waiting) == (
        None,
        Stance.CONCENTRATE,
        1,
        False,
    )


def _bob_prone_when_the_blast_comes() -> Table[Encounter]:
    """bob maneuvers: he has walked 40 yards and dropped prone (no skill rolled) when marcos's
    Mahasu comes at Initiative 7; he must abort to defy it."""
    bob = {**FIGHTER, "intelligence": 1, "skills": {**FIGHTER["skills"], "defiance": 2}}
    table = start({"bob": bob, "marcos": SORCERER})
    table = initiative(table, {"bob": ("maneuver", 6, 6), "marcos": ("concentrate", 1, 1)})
    walk_and_drop = [{"move": "foot", "yards": 40}, {"move": "prone"}]
    mahasu = [{"attack": "bob", "skill": "mahasu"}]
    steps = [
        ("bob", "declare", {"actions": walk_and_drop}),
        ("bob", "act", {}),
        ("bob", "act", {}),
        ("marcos", "declare", {"actions": mahasu}),
        ("marcos", "act", {}),
    ]
    return play(table, steps, [])


def test_an_aborted_turn_keeps_the_movements_taken_and_checks_only_the_rest() -> None:
    """ "Movement": one moves on foot "only standing"; bob walked before he dropped prone, and
    the aborted turn keeps both: his new declaration is checked from where he lies now, not
    from the start of the round (which would refuse the walk of a prone man)."""
    table = play(_bob_prone_when_the_blast_comes(), [("bob", "defend", {})], [1, 1, 6, 6])
    bob = table.state.fighters["bob"]
    assert bob.plan is not None and [s.to_json() for s in bob.plan] == [
        {"kind": "move", "movement": "foot", "yards": 40},
        {"kind": "move", "movement": "prone"},
        {"kind": "defend", "skill": "defiance"},
    ]
    assert bob.prone
    assert [e.data["defence_skill"] for e in table.log if e.kind == "attack.resolved"] == [
        "defiance"
    ]


def test_an_aborted_turns_declaration_must_hold_a_defence_not_a_task_of_its_skill() -> None:
    """ "Action": to defy the blast he aborts and declares anew; a task rolled with Defiance is
    not a Defiance defence."""
    focus = [{"task": "focus", "skill": "defiance", "challenge": 5}]
    with pytest.raises(RuleError, match="bob's declared actions include no defiance defence"):
        play(_bob_prone_when_the_blast_comes(), [("bob", "defend", {"actions": focus})], [])


def test_the_defence_of_the_other_kind_is_previewed_as_aborting_the_turn() -> None:
    """Attacked with Mahasu while maneuvering, fred must abort his turn to roll Defiance: the
    preview says so, and the plans offered are of the concentrating kind, the defence the first
    shape offered (the form's default)."""
    table = start({"bob": SORCERER, "fred": FIGHTER})
    table = initiative(table, {"bob": ("concentrate", 6, 6), "fred": ("maneuver", 1, 1)})
    table = _bob_casts_mahasu_at_fred(table)
    defend = _kinds(table, "fred")["defend"]
    assert _odds(defend) == [
        ("Bob's mahasu against Fred's defiance, aborting his turn", "2d6+7 vs 2d6", "Action")
    ]
    offered = defend.params["actions"]
    assert offered.sample(_FirstOnly()) == [{"defend": "defiance"}]  # the defence first
    assert offered.contains([{"defend": "defiance"}])
    assert offered.contains([{"defend": "defiance"}, {"attack": "bob", "skill": "mahasu"}])
    assert not offered.contains([{"defend": "defiance"}, {"attack": "bob", "skill": "striking"}])


def test_an_attack_on_one_who_maneuvers_asks_him_to_abort_to_defy_it_or_take_the_hit() -> None:
    """Action: "the character must abort the rest of his turn if he wants to make a defensive
    action" of the other kind: fred chose to maneuver, and Mahasu needs Defiance."""
    table = start({"bob": SORCERER, "fred": FIGHTER})
    table = initiative(table, {"bob": ("concentrate", 6, 6), "fred": ("maneuver", 1, 1)})
    (prompt,) = PROCEDURE.prompts(_bob_casts_mahasu_at_fred(table).state)
    assert prompt.reason == (
        "Bob attacks Fred with mahasu: he chose to maneuver, so defending with defiance aborts "
        "the rest of his turn; abort and defend, or take the hit and hope to survive to his "
        "Initiative"
    )


def test_a_concentrating_character_struck_at_aborts_to_maneuver_and_defend() -> None:
    """The other way round: fred concentrates, bob's sword needs Defense; aborting, fred is
    offered plans of the maneuvering kind (Defense, Striking)."""
    table = start({"bob": FIGHTER, "fred": SORCERER})
    table = initiative(table, {"bob": ("maneuver", 6, 6), "fred": ("concentrate", 1, 1)})
    table = play(
        table, [("bob", "declare", {"actions": [{"attack": "fred"}]}), ("bob", "act", {})], [6, 6]
    )
    defend = _kinds(table, "fred")["defend"]
    offered = defend.params["actions"]
    assert offered.contains([{"defend": "defense"}])
    assert offered.contains([{"defend": "defense"}, {"attack": "bob", "skill": "striking"}])
    assert not offered.contains([{"defend": "defiance"}])
    assert not offered.contains([{"defend": "defense"}, {"attack": "bob", "skill": "mahasu"}])
    assert _odds(defend) == [
        ("Bob's striking against Fred's defense, aborting his turn", "2d6+7 vs 2d6+1", "Action")
    ]


# -- the attack waits for its target's answer: a prompt (issue 28) ---------------------------------


def _bob_strikes_marcos() -> Table[Encounter]:
    """bob (maneuvering, Initiative 16) strikes marcos, who chose to concentrate."""
    table = start({"bob": FIGHTER, "marcos": SORCERER})
    table = initiative(table, {"bob": ("maneuver", 6, 6), "marcos": ("concentrate", 1, 1)})
    return play(
        table, [("bob", "declare", {"actions": [{"attack": "marcos"}]}), ("bob", "act", {})]
    )


def test_an_attack_on_one_who_concentrates_asks_him_to_abort_his_turn_or_take_the_hit() -> None:
    """Action: "If ... the defensive action required is a different type of action than the
    character had planned, the character must abort the rest of his turn if he wants to make a
    defensive action. That, or take the hit": the attack waits (a blocking prompt) for marcos,
    whose answers are ``defend`` (aborting) and ``take``; declining takes the hit."""
    table = _bob_strikes_marcos()
    (prompt,) = PROCEDURE.prompts(table.state)
    assert (prompt.actor, prompt.kinds, prompt.section, prompt.blocking) == (
        "marcos",
        ("defend", "take"),
        "Action",
        True,
    )
    assert prompt.reason == (
        "Bob attacks Marcos with striking: he chose to concentrate, so defending with defense "
        "aborts the rest of his turn; abort and defend, or take the hit and hope to survive to "
        "his Initiative"
    )
    assert prompt.default is not None and prompt.default.kind == "take"
    assert whose_move(PROCEDURE, table.state) == ("marcos",)
    declined = table.act(prompt.default, ScriptedSource([6, 6, 1, 1]))
    (resolved,) = [e.data for e in declined.log if e.kind == "attack.resolved"]
    assert (resolved["target"], resolved["defended"]) == ("marcos", False)
    assert PROCEDURE.prompts(declined.state) == ()


def test_the_prompt_answered_by_aborting_to_defend_rolls_the_defence() -> None:
    """Action: Marcos "chooses to Defend. Because he had chosen to concentrate rather than
    manuever during the Initiative phase, he must abort his spell and any other actions"."""
    table = _bob_strikes_marcos()
    answered = play(
        table, [("marcos", "defend", {"actions": [{"defend": "defense"}]})], [6, 6, 1, 1, 3, 3]
    )
    last = answered.log[-1].cause
    kinds = [e.kind for e in answered.log if e.cause == last]
    assert kinds[:3] == ["turn.aborted", "plan.declared", "attack.resolved"]
    assert PROCEDURE.prompts(answered.state) == ()


def test_one_who_declared_a_defence_makes_it_if_he_declines() -> None:
    """Action, ruling 32: fred declared "Defend and ... attack once" (Bob and Fred): bob's
    attack asks him to defend or take it, and declining makes the defence he declared."""
    table = start({"bob": FIGHTER, "fred": FIGHTER})
    table = initiative(table, {"bob": ("maneuver", 6, 6), "fred": ("maneuver", 1, 1)})
    table = play(
        table,
        [
            ("fred", "declare", {"actions": [{"defend": "defense"}, {"attack": "bob"}]}),
            ("bob", "declare", {"actions": [{"attack": "fred"}]}),
            ("bob", "act", {}),
        ],
    )
    (prompt,) = PROCEDURE.prompts(table.state)
    assert prompt.reason == "Bob attacks Fred with striking: defend with defense, or take the hit"
    assert prompt.default is not None and prompt.default.kind == "defend"
    declined = table.act(prompt.default, ScriptedSource([6, 6, 1, 1, 3, 3]))
    (resolved,) = [e.data for e in declined.log if e.kind == "attack.resolved"]
    assert (resolved["target"], resolved["defended"]) == ("fred", True)


def test_nobody_but_the_target_acts_while_the_attack_waits() -> None:
    """The attack waits for marcos alone: bob may not go on meanwhile (the kernel's words,
    naming the prompt)."""
    table = _bob_strikes_marcos()
    with pytest.raises(RuleError, match="the table waits for marcos to decide: Bob attacks"):
        play(table, [("bob", "wait", {})])
