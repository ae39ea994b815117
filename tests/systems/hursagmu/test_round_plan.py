"""Declaring a round's actions as a plan built step by step (hursagmu-encounters.txt, "Action",
"Movement", "Haste", "Pushing Power"; issue 26): the structured domain ``declare`` and ``defend``
offer (``round_plan.plan_domain``), what it allows and forbids, plans drawn from it taken by the
rules, and the odds of each step with the round's penalty as the plan is built
(``round_plan.plan_odds``, ``defence_odds``)."""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.core import Action, AnyOf, Choice, OpposedCheck, RuleError, Steps, Table
from referee.core.cards import OddsPreview
from referee.core.table import preview
from referee.dice import RandomSource, ScriptedSource
from referee.systems.hursagmu.catalogue import MAX_STEPS, MODIFIER
from referee.systems.hursagmu.round_plan import (
    ATTACK,
    DEFEND,
    HASTE,
    MINOR,
    SHAPES,
    attack_skills,
    haste_room,
    penalty_words,
    plan_domain,
    plan_odds,
)
from referee.systems.hursagmu.rounds import RoundPlan, Step
from referee.systems.hursagmu.sheet import Character, SkillRoll, Stance
from referee.systems.hursagmu.state import HELD, WAITED, Encounter, Fighter

from .test_encounter import FIGHTER, SORCERER, initiative, play, start

OGRE = {
    "dexterity": 1,
    "strength": 4,
    "weapon": 6,
    "stamina": 30,
    "skills": {"quickness": 1, "striking": 3, "defense": 1},
}
KNIGHT = {**FIGHTER, "mount": 30, "weapon_type": "thrown weapon", "skills": {"throwing": 3}}
DEFEND_HASTE_ATTACK = [
    {"defend": "defense"},
    {"haste": True},
    {"attack": "ogre", "skill": "striking"},
]


def _bob_and_ogre(ogre_first: bool = False) -> Table[Encounter]:
    """bob (Initiative 16) and the ogre (Initiative 4), both maneuvering; or the other way."""
    table = start({"bob": FIGHTER, "ogre": OGRE})
    fast, slow = (6, 6), (1, 1)
    bob, ogre = (slow, (6, 6)) if ogre_first else (fast, slow)
    return initiative(table, {"bob": ("maneuver", *bob), "ogre": ("maneuver", *ogre)})


def _choice(table: Table[Encounter], who: str, kind: str) -> Choice:
    (choice,) = [c for c in table.legal_actions(who) if c.kind == kind]
    return choice


def _plan(table: Table[Encounter], who: str = "bob", kind: str = "declare") -> Steps:
    offered = _choice(table, who, kind).params["actions"]
    assert isinstance(offered, Steps)
    return offered


# -- the domain ------------------------------------------------------------------------------


def test_the_plan_is_built_from_six_shapes_of_steps() -> None:
    """ "There are two types of actions in combat: major and minor"; movement, Haste: each a
    shape of step with its own fields; at least one step, at most a declaration's."""
    offered = _plan(_bob_and_ogre())
    assert isinstance(offered.step, AnyOf)
    assert tuple(offered.step.options) == SHAPES
    assert (offered.least, offered.most) == (1, MAX_STEPS)
    attack = offered.step.options[ATTACK].to_json()["record"]
    assert attack == {"attack": {"one_of": ["ogre"]}, "skill": {"one_of": ["striking"]}}


def test_the_plan_allows_defend_and_attack_against_a_foe_with_haste() -> None:
    """Bob's "defend himself at the same time" and the duellist's Haste: defend, an action on
    Haste, then attack the ogre — offered, and taken by the rules with −4 to every skill."""
    table = _bob_and_ogre()
    offered = _plan(table)
    assert offered.contains(DEFEND_HASTE_ATTACK)
    assert offered.contains([{"defend": "defense"}, {"attack": "ogre", "skill": "striking"}])
    assert offered.contains([{"haste": True}] * 3 + [{"attack": "ogre", "skill": "striking"}])
    table = play(table, [("bob", "declare", {"actions": DEFEND_HASTE_ATTACK})])
    bob = table.state.fighters["bob"]
    assert [s.kind.value for s in bob.plan or ()] == ["defend", "haste", "attack"]
    assert bob.penalty(table.state.options.defence) == -4


def test_pushing_power_is_offered_beside_the_plan_and_counts_in_its_odds() -> None:
    """ "Each hit expended will give the character +1 Strength and Willpower for a single
    round": ``push`` is offered with the plan, and a task of Strength declared after it rolls
    with the pushed Strength."""
    table = _bob_and_ogre()
    kinds = {c.kind for c in table.legal_actions("bob")}
    assert {"declare", "push"} <= kinds
    task = [{"task": "hold the door", "skill": "strength", "challenge": 12}]
    assert _plan(table).contains(task)
    before = preview(table, "bob", Action("bob", "declare", {"actions": task}))
    table = play(table, [("bob", "push", {"hits": 2})])
    after = preview(table, "bob", Action("bob", "declare", {"actions": task}))
    assert [p.dice for p in before] == ["2d6+2 ≥ 12"]
    assert [p.dice for p in after] == ["2d6+4 ≥ 12"]


def test_the_plan_forbids_what_the_text_forbids() -> None:
    """What one step can say is out of the domain: attacking himself, a skill of the other kind
    ("A character cannot use both Dex and Int skills during the same round"), a defence of the
    other kind, a range for a melee strike, more yards than four movement actions cover, a horse
    he has not got; and Haste once the round has passed the Initiative it would give."""
    offered = _plan(_bob_and_ogre())
    for step in (
        {"attack": "bob", "skill": "striking"},
        {"attack": "ogre", "skill": "mahasu"},
        {"attack": "ogre", "skill": "striking", "yards": 5},
        {"defend": "defiance"},
        {"move": "foot", "yards": 41},
        {"move": "ride", "yards": 20},
        {"task": "ritual", "skill": "seheru", "challenge": 9},
        {"haste": False},
    ):
        assert not offered.contains([step]), step
    assert not offered.contains([])
    assert not offered.contains([{"minor": "shout"}] * (MAX_STEPS + 1))
    # the ogre (Initiative 7) takes a step; bob, at 6, declares after it: one Haste would lift
    # him to 8, which the round has passed
    table = start({"bob": FIGHTER, "ogre": OGRE})
    table = initiative(table, {"bob": ("maneuver", 1, 1), "ogre": ("maneuver", 3, 2)})
    roar = [{"minor": "roar"}]
    table = play(table, [("ogre", "declare", {"actions": roar}), ("ogre", "act", {})])
    late = plan_domain(table.state, "bob")
    assert HASTE not in late.step.options  # type: ignore[union-attr]
    minor = late.step.options[MINOR].to_json()  # type: ignore[union-attr]
    assert minor["record"]["initiative_penalty"] == {"between": [-1, 20]}
    with pytest.raises(RuleError, match="passed Initiative"):
        table.act(
            Action("bob", "declare", {"actions": [{"haste": True}, {"attack": "ogre"}]}),
            ScriptedSource([]),
        )


def test_on_round_zero_one_who_did_not_open_the_conflict_only_defends() -> None:
    """ "the opponents may take no actions at all on round zero" but defend: attacked, the ogre
    is offered a plan of defences alone."""
    table = start({"bob": FIGHTER, "ogre": OGRE})
    table = play(table, [("bob", "round_zero", {"stance": "maneuver"})])
    assert _plan(table).contains(DEFEND_HASTE_ATTACK)
    table = play(
        table,
        [("bob", "declare", {"actions": [{"attack": "ogre"}]}), ("bob", "act", {})],
    )
    offered = _plan(table, "ogre", "defend")
    assert list(offered.step.options) == [DEFEND]  # type: ignore[union-attr]
    assert offered.contains([{"defend": "defense"}, {"defend": "defense"}])
    assert not offered.contains([{"defend": "defense"}, {"attack": "bob", "skill": "striking"}])


def test_the_skills_follow_the_stance_the_weapon_and_the_sheet() -> None:
    """A thrown weapon's skill has a range ("Each ranged ability has an increment"), a melee
    strike has none; a sorcerer strikes with his sorcery, at a range; a rider may ride four
    actions' worth and dismount; the unconscious may be struck (after those awake)."""
    table = start({"knight": KNIGHT, "marcos": SORCERER, "down": {**OGRE, "hits": 0}})
    table = initiative(table, {"knight": ("maneuver", 6, 6), "marcos": ("concentrate", 1, 1)})
    knight = _plan(table, "knight")
    assert knight.contains([{"attack": "marcos", "skill": "throwing", "yards": 7}])
    assert knight.contains([{"attack": "down", "skill": "striking"}])
    assert not knight.contains([{"attack": "marcos", "skill": "striking", "yards": 7}])
    assert knight.contains([{"move": "dismount"}, {"move": "foot", "yards": 40}])
    assert knight.contains([{"move": "ride", "yards": 120}])
    assert knight.contains([{"move": "ride", "yards": 1}])
    assert not knight.contains([{"move": "ride", "yards": 121}])
    assert knight.contains([{"move": "prone"}, {"move": "stand"}])  # each in its turn
    attack = knight.step.options[ATTACK].to_json()["record"]  # type: ignore[union-attr]
    assert attack["attack"] == {"one_of": ["marcos", "down"]}
    marcos = plan_domain(table.state, "marcos")
    assert not marcos.contains([{"move": "ride", "yards": 20}])  # no horse
    assert marcos.contains([{"attack": "knight", "skill": "mahasu", "yards": 30}])
    assert not marcos.contains([{"attack": "knight", "skill": "seheru"}])  # not on his sheet
    assert marcos.contains([{"defend": "defiance"}])


def test_one_who_declared_no_stance_strikes_as_one_who_maneuvers() -> None:
    """Initiative's stance: one who has declared none (as the others on round zero) strikes as
    one maneuvering; one concentrating, with each sorcery type on his sheet at any rating."""
    assert attack_skills(Fighter(Character("ann"), 10)) == ("striking",)
    mo = Fighter(Character("mo", skills={"mahasu": 1}), 10, stance=Stance.CONCENTRATE)
    assert attack_skills(mo) == ("mahasu",)


def test_haste_is_offered_while_the_round_has_not_passed_the_initiative_it_gives() -> None:
    """Haste and the Master's Initiative bonus (ruling 25): the round's Initiative may be raised
    freely before the round reaches his rank, by what the round has not yet passed at his rank
    (Haste, +2, only with two to spare), and not at all once it has passed his rank."""
    state = _bob_and_ogre().state  # bob at Initiative 16, rank 0
    bob = state.fighters["bob"]
    assert haste_room(state, bob) == MODIFIER
    assert haste_room(replace(state, clock=(HELD, 3)), bob) == MODIFIER
    assert haste_room(replace(state, clock=(0, 30)), replace(bob, rank=WAITED)) == 0
    room = {
        reached: haste_room(replace(state, clock=(0, reached)), bob) for reached in (18, 17, 16, 15)
    }
    assert room == {18: 2, 17: 1, 16: 0, 15: 0}

    def offers_haste(reached: int) -> bool:
        shapes = plan_domain(replace(state, clock=(0, reached)), "bob").step
        assert isinstance(shapes, AnyOf)
        return HASTE in shapes.options

    assert (offers_haste(18), offers_haste(17)) == (True, False)


def test_a_heavy_load_leaves_one_yard_on_foot_and_one_yard_of_leap() -> None:
    """ "Encumbrance lowers it at the same rate that it lowers running speed": carrying 97% of
    his maximum lift bob covers 0.3 yards a movement action — one yard in four actions — and a
    running leap of 40 yards unladen reaches 1.2, one yard."""
    table = start({"bob": {**FIGHTER, "max_lift": 1000, "load": 970}, "ogre": OGRE})
    offered = _plan(initiative(table, {"bob": ("maneuver", 6, 6), "ogre": ("maneuver", 1, 1)}))
    for move in ("foot", "leap"):
        assert offered.contains([{"move": move, "yards": 1}]), move
        assert not offered.contains([{"move": move, "yards": 2}]), move


# -- plans drawn from the domain -------------------------------------------------------------

#: What one step cannot say of another, and so the rules refuse of a plan drawn from the domain.
ACROSS_STEPS = re.compile(
    "|".join(
        (
            r"movement actions; a character may perform up to 4",  # four in all
            r"is not prone: nothing to stand up from",  # the posture, step after step
            r"is already prone",
            r"is lying prone: he stands up",
            r"is mounted: he rides",
            r"is on horseback: he dismounts first",
            r"is already mounted",
            r"is not on a horse: he cannot",
            r"a standing long jump reaches",  # a leap's running start
            r"one multi-round action at a time",
            r"an engrossing action allows no defensive actions",
            r"the round has passed Initiative",  # several Hastes together
            r"include no (defense|defiance) defence",  # answering an attack
        )
    )
)


def _tables() -> list[tuple[Table[Encounter], str, str]]:
    """Tables where a plan may be declared, the one who declares it and how."""
    plain = _bob_and_ogre()
    knight = start({"knight": KNIGHT, "ogre": {**OGRE, "prone": True}})
    knight = initiative(knight, {"knight": ("maneuver", 6, 6), "ogre": ("maneuver", 1, 1)})
    marcos = start({"marcos": SORCERER, "ogre": OGRE})
    marcos = initiative(marcos, {"marcos": ("concentrate", 6, 6), "ogre": ("maneuver", 1, 1)})
    attacked = play(
        _bob_and_ogre(),
        [("bob", "declare", {"actions": [{"attack": "ogre"}]}), ("bob", "act", {})],
    )
    return [
        (plain, "bob", "declare"),
        (knight, "knight", "declare"),
        (marcos, "marcos", "declare"),
        (attacked, "ogre", "defend"),
    ]


TABLES = _tables()


def _taken(table: Table[Encounter], action: Action, seed: int) -> str | None:
    """``None`` if the rules take ``action``, else the reason they refuse it."""
    try:
        table.act(action, RandomSource(seed))
    except RuleError as error:
        return str(error)
    return None


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(range(len(TABLES))), st.randoms(use_true_random=False))
def test_every_plan_drawn_is_taken_or_refused_for_what_one_step_cannot_say(
    which: int, rng: random.Random
) -> None:
    """``Choice.sample``: every plan drawn is within the domain, and the rules take it or
    refuse it only for what one step cannot say of another (``ACROSS_STEPS``)."""
    table, who, kind = TABLES[which]
    choice = _choice(table, who, kind)
    action = choice.sample(rng)
    assert choice.allows(action.params)
    refused = _taken(table, action, 0)
    assert refused is None or ACROSS_STEPS.search(refused), (action.params, refused)


def test_most_plans_drawn_are_taken() -> None:
    """The share of plans drawn that the rules take, on each table (seeded: reproducible);
    plans of a few steps — those a player makes — are taken far more often."""
    shares: dict[str, float] = {}
    short: Counter[bool] = Counter()
    for table, who, kind in TABLES:
        choice = _choice(table, who, kind)
        rng = random.Random(26)
        taken = 0
        for seed in range(200):
            action = choice.sample(rng)
            ok = _taken(table, action, seed) is None
            taken += ok
            if len(action.params["actions"]) <= 4:
                short[ok] += 1
        shares[who] = taken / 200
    assert min(shares.values()) >= 0.1, shares
    assert short[True] / (short[True] + short[False]) >= 0.6, short


# -- odds as the plan is built ---------------------------------------------------------------


def _odds(table: Table[Encounter], actions: list[dict[str, Any]]) -> list[OddsPreview]:
    return list(preview(table, "bob", Action("bob", "declare", {"actions": actions})))


def test_the_odds_follow_the_plan_as_steps_are_added() -> None:
    """ "any skills used during a round suffer a cumulative -2 penalty for each major action";
    "each action after the first happens at an Initiative two lower"; Haste "+2 to his
    Initiative": each step that rolls, labelled with its number, Initiative and the penalty."""
    table = _bob_and_ogre()
    labels = [[p.label for p in _odds(table, DEFEND_HASTE_ATTACK[:n])] for n in (1, 2, 3)]
    assert labels == [
        [
            "step 1 at Initiative 16: Ogre's striking against Bob's defense, "
            "no penalty for one action"
        ],
        ["step 1 at Initiative 18: Ogre's striking against Bob's defense, −2 for two actions"],
        [
            "step 1 at Initiative 18: Ogre's striking against Bob's defense, −4 for three actions",
            "step 3 at Initiative 16: attack ogre (striking) against his defense, "
            "−4 for three actions",
        ],
    ]
    dice = [[p.dice for p in _odds(table, DEFEND_HASTE_ATTACK[:n])] for n in (1, 3)]
    assert dice == [["2d6+4 vs 2d6+8"], ["2d6+4 vs 2d6+4", "2d6+3 vs 2d6+2"]]
    # a plan the rules refuse has no odds; a step that rolls nothing has none
    assert _odds(table, [{"move": "foot", "yards": 60}]) == []
    assert _odds(table, [{"haste": True}, {"minor": "draw"}]) == []


def test_each_steps_odds_are_those_of_the_check_the_rule_rolls() -> None:
    """The attack's preview is the card ``decide`` writes when the attack is rolled; the
    defence's is the ogre's attack against it, rolled later that round."""
    table = _bob_and_ogre(ogre_first=True)
    table = play(table, [("ogre", "declare", {"actions": [{"defend": "defense"}]})])
    shown = _odds(table, DEFEND_HASTE_ATTACK)
    table = play(table, [("bob", "declare", {"actions": DEFEND_HASTE_ATTACK})])
    table = play(table, [("bob", "act", {}), ("ogre", "defend", {})], [3, 4, 2, 2, 3, 3])
    (card,) = [e.data["roll"] for e in table.log if e.kind == "attack.resolved"]
    attack = next(p for p in shown if "attack ogre" in p.label)
    assert (card["dice"], card["odds"]) == (attack.dice, dict(attack.odds))
    defence = next(p for p in shown if "against Bob's defense" in p.label)
    ogre, bob = SkillRoll(1, 3), SkillRoll(2, 6, -4)
    assert dict(defence.odds) == OddsPreview.of(ogre.versus(bob), "").odds
    assert isinstance(ogre.versus(bob), OpposedCheck)


def test_the_defence_declared_with_a_plan_carries_its_penalty() -> None:
    """ "he must then declare all of his actions for the round and then make his defensive skill
    roll with any appropriate penalties": the defence's odds follow the plan given with it."""
    table = _bob_and_ogre(ogre_first=True)
    table = play(
        table,
        [("ogre", "declare", {"actions": [{"attack": "bob"}]}), ("ogre", "act", {})],
    )

    def shown(actions: list[dict[str, Any]]) -> list[tuple[str, str]]:
        asked = Action("bob", "defend", {"actions": actions})
        return [(p.label, p.dice) for p in preview(table, "bob", asked)]

    assert shown([{"defend": "defense"}]) == [
        ("Ogre's striking against Bob's defense, no penalty for one action", "2d6+4 vs 2d6+8")
    ]
    assert shown(DEFEND_HASTE_ATTACK) == [
        ("Ogre's striking against Bob's defense, −4 for three actions", "2d6+4 vs 2d6+4"),
        (  # the ogre declared no defence: he takes it
            "step 3 at Initiative 6: attack ogre (striking) undefended, −4 for three actions",
            "2d6+3 ≥ 0",
        ),
    ]
    assert shown([{"attack": "ogre"}]) == []  # no defence: the rules refuse it
    rolled = play(table, [("bob", "defend", {"actions": DEFEND_HASTE_ATTACK})], [1, 1, 6, 6])
    (card,) = [e.data["roll"] for e in rolled.log if e.kind == "attack.resolved"]
    assert card["dice"] == "2d6+4 vs 2d6+4"


def test_aborting_to_defend_previews_the_defence_with_the_new_plans_penalty() -> None:
    """ "the character must abort the rest of his turn if he wants to make a defensive action":
    marcos, concentrating, struck at by bob's sword, declares anew of the maneuvering kind; the
    defence's odds carry that plan's penalty, and so does the plan's attack."""
    table = start({"bob": FIGHTER, "marcos": SORCERER})
    table = initiative(table, {"bob": ("maneuver", 6, 6), "marcos": ("concentrate", 1, 1)})
    table = play(
        table,
        [("bob", "declare", {"actions": [{"attack": "marcos"}]}), ("bob", "act", {})],
    )
    offered = _plan(table, "marcos", "defend")
    plan = [{"defend": "defense"}, {"attack": "bob", "skill": "striking"}]
    assert offered.contains(plan)
    assert not offered.contains([{"defend": "defense"}, {"attack": "bob", "skill": "mahasu"}])
    asked = Action("marcos", "defend", {"actions": plan})
    assert [p.label for p in preview(table, "marcos", asked)] == [
        "Bob's striking against Marcos' defense, aborting his turn, −2 for two actions",
        # bob declared no defence: he takes it
        "step 2 at Initiative 5: attack bob (striking) undefended, −2 for two actions",
    ]


def test_each_steps_odds_name_the_section_of_the_text_they_follow() -> None:
    """An attack's, a defence's and a task's odds follow "Action"; a movement's required roll
    (Acrobatics for a leap the Master sets a challenge for) follows "Movement"."""
    table = _bob_and_ogre()
    assert [p.rule for p in _odds(table, [{"attack": "ogre"}])] == ["Action"]
    steps = [
        {"defend": "defense"},
        {"task": "hold the door", "skill": "striking", "challenge": 9},
        {"move": "foot", "yards": 2},
        {"move": "leap", "yards": 2, "challenge": 8},
    ]
    assert [(p.label, p.dice, p.rule) for p in _odds(table, steps)] == [
        (
            "step 1 at Initiative 16: Ogre's striking against Bob's defense, −2 for two actions",
            "2d6+4 vs 2d6+6",
            "Action",
        ),
        (
            "step 2 at Initiative 14: hold the door (striking vs 9), −2 for two actions",
            "2d6+5 ≥ 9",
            "Action",
        ),
        (
            "step 4 at Initiative 12: move leap 2 yards (acrobatics vs 8), −2 for two actions",
            "2d6 ≥ 8",
            "Movement",
        ),
    ]


def test_under_the_cinematic_option_the_odds_count_the_defences_once() -> None:
    """ "the use of a defensive skill is only one major action per round, regardless of how many
    attacks are evaded": two defences and a task are two actions, −2, in every step's odds —
    the defence rolled now against a pending attack too."""
    table = start({"bob": FIGHTER, "ogre": OGRE}, defence="cinematic")
    table = initiative(table, {"bob": ("maneuver", 6, 6), "ogre": ("maneuver", 1, 1)})
    steps = [
        {"defend": "defense"},
        {"defend": "defense"},
        {"task": "hold the door", "skill": "striking", "challenge": 9},
        {"move": "foot", "yards": 2},
        {"move": "leap", "yards": 2, "challenge": 8},
    ]
    shown = _odds(table, steps)
    assert [p.label.rsplit(", ", 1)[1] for p in shown] == ["−2 for two actions"] * 4
    assert [p.dice for p in shown] == ["2d6+4 vs 2d6+6"] * 2 + ["2d6+5 ≥ 9", "2d6 ≥ 8"]
    attacked = start({"bob": FIGHTER, "ogre": OGRE}, defence="cinematic")
    attacked = initiative(attacked, {"bob": ("maneuver", 1, 1), "ogre": ("maneuver", 6, 6)})
    attacked = play(
        attacked, [("ogre", "declare", {"actions": [{"attack": "bob"}]}), ("ogre", "act", {})]
    )
    plan = [{"defend": "defense"}, {"defend": "defense"}, {"attack": "ogre"}]
    asked = Action("bob", "defend", {"actions": plan})
    assert [(p.label, p.rule) for p in preview(attacked, "bob", asked)] == [
        ("Ogre's striking against Bob's defense, −2 for two actions", "Action"),
        ("step 3 at Initiative 4: attack ogre (striking) undefended, −2 for two actions", "Action"),
    ]


def test_a_ranged_attacks_odds_carry_the_range_challenge() -> None:
    """ "Each ranged ability has an increment": the knight's throw at marcos from 30 yards
    rolls against his Defiance plus the range's challenge; from beside him, against it alone."""
    table = start({"knight": KNIGHT, "marcos": SORCERER})
    table = initiative(table, {"knight": ("maneuver", 6, 6), "marcos": ("concentrate", 1, 1)})

    def dice(yards: int) -> list[str]:
        step = {"attack": "marcos", "skill": "throwing", "yards": yards}
        asked = Action("knight", "declare", {"actions": [step]})
        return [p.dice for p in preview(table, "knight", asked)]

    assert (dice(0), dice(30)) == (["2d6+5 vs 2d6+1"], ["2d6+5 vs 2d6+15"])


def test_a_defences_odds_are_those_of_the_attacks_it_can_meet() -> None:
    """Defense meets a strike, Defiance sorcery: bob's Defense is shown against the ogre's
    striking, not against marcos, who concentrates and strikes with his sorcery."""
    table = start({"bob": FIGHTER, "marcos": SORCERER, "ogre": OGRE})
    order = {"bob": ("maneuver", 6, 6), "marcos": ("concentrate", 1, 1), "ogre": ("maneuver", 1, 2)}
    table = initiative(table, order)
    assert [p.label for p in _odds(table, [{"defend": "defense"}])] == [
        "step 1 at Initiative 16: Ogre's striking against Bob's defense, no penalty for one action"
    ]


def test_on_round_zero_the_one_who_opened_the_conflict_is_shown_his_odds() -> None:
    """ "only the initiators act on round zero": bob, who opened it, is shown his attack's odds,
    at the Initiative of a round no one rolled for (0); the ogre's plan has none."""
    table = start({"bob": FIGHTER, "ogre": OGRE})
    table = play(table, [("bob", "round_zero", {"stance": "maneuver"})])
    assert [p.label for p in _odds(table, [{"attack": "ogre"}])] == [
        "step 1 at Initiative 0: attack ogre (striking) against his defense, "
        "no penalty for one action"
    ]
    assert plan_odds(table.state, "ogre", [{"defend": "defense"}]) == ()


def test_there_are_no_odds_for_one_not_in_the_encounter_nor_for_a_defence_against_nothing() -> None:
    """Nothing the rules would refuse has odds: a plan of one not in the encounter, a defence
    declared while no attack is pending on him."""
    table = _bob_and_ogre()
    assert plan_odds(table.state, "nobody", [{"defend": "defense"}]) == ()
    asked = Action("bob", "defend", {"actions": [{"defend": "defense"}]})
    assert preview(table, "bob", asked) == ()


def test_the_penalty_is_told_in_words_for_any_number_of_actions() -> None:
    """ "a cumulative -2 penalty for each major action": none for no major action at all (a
    minor one), in figures past ten."""
    assert penalty_words(RoundPlan((Step.minor("draw"),))) == "no penalty for no actions"
    assert penalty_words(RoundPlan((Step.attack("ogre"),) * 10)) == "−18 for ten actions"
    assert penalty_words(RoundPlan((Step.attack("ogre"),) * 11)) == "−20 for 11 actions"


def test_a_task_that_names_a_character_is_shown_as_the_task_it_is() -> None:
    """ "any other" major action rolls its skill against the Master's challenge: a task that
    names the ogre (binding him) is not an attack on him, and its odds are the task's."""
    table = _bob_and_ogre()
    bind = {"task": "bind the ogre", "skill": "striking", "challenge": 9, "target": "ogre"}
    assert [(p.label, p.dice) for p in _odds(table, [bind])] == [
        (
            "step 1 at Initiative 16: bind the ogre (striking vs 9), no penalty for one action",
            "2d6+7 ≥ 9",
        )
    ]
