"""Declaring a round's actions, as a person builds them (hursagmu-encounters.txt, "Action",
"Movement", "Haste"; DESIGN.md, "Structured choices").

"Once a character is required to make a skill roll, however, he must then declare all of his
actions for the round so that he knows how much to penalize his skills." A declaration is a list
of steps, each an attack, a defence, a movement, a task, a minor action or an action spent on
Haste. :func:`plan_domain` offers it as a :class:`~referee.core.Steps` of the six shapes, each a
:class:`~referee.core.Record` of the step's own fields with the domains the state allows:

- **attack**: any other character (ally or foe, conscious ones first: "a knocked out" one may be
  struck too), a skill of the stance declared at Initiative the attacker can strike with
  (Striking, and Throwing or Missile with such a weapon; when concentrating, his sorcery types),
  and, for a ranged skill only, the ``yards`` to the target (:class:`~referee.core.Depends` on
  the skill: "Each ranged ability has an increment");
- **defend**: Defense when maneuvering, Defiance when concentrating;
- **move**: every movement his posture may allow at some step (a horse's only with one), with
  ``yards`` (depending on the kind) up to what four movement actions cover ("up to four of
  these during a single round"): on foot at his rate, riding at his horse's, a leap up to a
  running jump;
- **another skill roll** (a task): a skill of the stance (or bare Strength or Willpower)
  against a challenge, optionally over several rounds or engrossing;
- **minor action**: a name, and optionally the Master's Initiative penalty (or bonus);
- **haste**: +2 Initiative, only while the round has not passed the Initiative it would give.

The text sets no number of major actions ("A character may perform multiple major actions,
but at a price"): a plan holds up to :data:`~referee.systems.hursagmu.catalogue.MAX_STEPS`
steps, the most one declaration's parameters take. What one step cannot say of another is left
to ``decide``, which stays the authority: at most four movement actions in all, a posture that
allows each movement in turn ("Standing from a prone position"), a leap's running start, one
multi-round action, no defence beside an engrossing action, the Haste of several steps together,
and — answering an attack — a defence of the kind needed among the steps.

:func:`plan_odds` gives the odds of each step that rolls, with the round's multiple-action
penalty, for the plan as it stands: what the form shows as steps are added.

>>> from referee.systems.hursagmu.setup import encounter_from_setup
>>> from referee.systems.hursagmu.state import Fighter
>>> state = encounter_from_setup({"characters": {"bob": {}, "ogre": {}}})
>>> state = state.with_fighter("bob", stance=Stance.MANEUVER, initiative=9)
>>> state = state.with_fighter("ogre", stance=Stance.MANEUVER, initiative=7)
>>> from dataclasses import replace
>>> state = replace(state, phase="action")
>>> for shape in plan_domain(state, "bob").step.options:
...     print(shape)
attack
defend
move
another skill roll
minor action
haste (+2 Initiative)
>>> for odds in plan_odds(state, "bob", [{"defend": "defense"}, {"haste": True},
...                                      {"attack": "ogre"}]):
...     print(odds.label)
step 1 at Initiative 11: Ogre's striking against Bob's defense, −4 for three actions
step 3 at Initiative 9: attack ogre (striking) against his defense, −4 for three actions
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping, Sequence
from typing import Any

from referee.core import (
    AnyOf,
    Between,
    Depends,
    Domain,
    OddsPreview,
    OneOf,
    Record,
    RuleError,
    Steps,
    Text,
)
from referee.core.naming import possessive_of as _own
from referee.core.values import Json
from referee.systems.hursagmu.action_phase import declare_plan, fold_plan_declared, ranged_ability
from referee.systems.hursagmu.catalogue import MAX_STEPS, MAX_YARDS, MODIFIER
from referee.systems.hursagmu.combat import attack_check, defence_declared, response
from referee.systems.hursagmu.movement import (
    MAX_MOVEMENT_ACTIONS,
    Movement,
    jump_distance,
    range_challenge,
)
from referee.systems.hursagmu.rounds import (
    HASTE_BONUS,
    DefenceResponse,
    RoundPlan,
    StepKind,
    defence_skill,
    major_actions,
    schedule,
    skill_penalty,
)
from referee.systems.hursagmu.sheet import Stance
from referee.systems.hursagmu.state import HELD, Encounter, Fighter, Pending
from referee.systems.hursagmu.tables import SKILL_ATTRIBUTES, SORCERY_TYPES

__all__ = [
    "ATTACK",
    "CHALLENGE",
    "DEFEND",
    "HASTE",
    "MINOR",
    "MOST_STEPS",
    "MOVE",
    "SHAPES",
    "TASK",
    "attack_skills",
    "defence_odds",
    "haste_room",
    "penalty_words",
    "plan_domain",
    "plan_odds",
    "steps_odds",
]

MOST_STEPS = MAX_STEPS
"""The most steps a plan offers: the text limits movement ("up to four of these"), not the
number of actions, so the declaration's own bound."""
CHALLENGE = Between(0, 18)
"""A task's challenge level, as the Master's secret rolls offer it."""
TASK_ROUNDS = Between(1, 100)
"""How many rounds a multi-round task takes ("Some actions may require more than one round")."""
ATTACK = "attack"
DEFEND = "defend"
MOVE = "move"
TASK = "another skill roll"
MINOR = "minor action"
HASTE = "haste (+2 Initiative)"
SHAPES = (ATTACK, DEFEND, MOVE, TASK, MINOR, HASTE)
"""Each shape of a step, by its label in a menu, in the text's words (a task is "any other"
major action: "picking a lock ... or casting a spell"); what each costs is in the odds shown."""
BOTH: tuple[Json, ...] = (True, False)
_WEAPON_SKILL = {"thrown weapon": "throwing", "missile weapon": "missile"}
_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def attack_skills(f: Fighter, stance: Stance | None = None) -> tuple[str, ...]:
    """The skills ``f`` may attack with this round: Striking, and the skill of a thrown or
    missile weapon, when maneuvering; when concentrating, the sorcery types on his sheet (all
    six if it lists none: "a missing skill rolls at 0").

    >>> from referee.systems.hursagmu.sheet import Character
    >>> archer = Fighter(Character("ann", weapon_type="missile weapon"), 10)
    >>> attack_skills(archer, Stance.MANEUVER)
    ('striking', 'missile')
    >>> attack_skills(Fighter(Character("mo", skills={"mahasu": 3}), 10), Stance.CONCENTRATE)
    ('mahasu',)
    """
    if (stance or f.stance or Stance.MANEUVER) is Stance.MANEUVER:
        weapon = _WEAPON_SKILL.get(f.sheet.weapon_type)
        return ("striking", weapon) if weapon else ("striking",)
    sorcery = tuple(s.lower() for s in SORCERY_TYPES)
    known = tuple(s for s in sorcery if f.sheet.skill(s) > 0)
    return known or sorcery


def _task_skills(stance: Stance) -> tuple[Json, ...]:
    """Every skill of the stance's attribute, the bare attribute, Strength and Willpower."""
    attribute = stance.attribute
    own = [s for s, a in SKILL_ATTRIBUTES.items() if a == attribute]
    return (*own, attribute, "strength", "willpower")


def haste_room(state: Encounter, f: Fighter) -> int:
    """How much the round's Initiative may still be raised (Haste, a minor action's bonus)
    before the round passes it ("the round has passed Initiative", ruling 25): unbounded
    (:data:`~referee.systems.hursagmu.catalogue.MODIFIER`) until a step is taken."""
    if state.clock is None or f.initiative is None:
        return MODIFIER
    rank, reached = state.clock
    if f.rank < rank:
        return MODIFIER
    if f.rank > rank:
        return 0
    return max(0, min(MODIFIER, reached - f.initiative))


def _movements(f: Fighter) -> Record:
    """The movement kinds and their yards: four movement actions' worth at most. Every kind his
    posture may allow at some step of the round is offered (he may fall prone, then stand up);
    the horse's only with a horse, and on foot or leaping only if he can move at all."""
    foot = math.floor(MAX_MOVEMENT_ACTIONS * f.rate)
    leap = math.floor(jump_distance(f.sheet.max_lift, f.sheet.load, running=True))
    return _movement_record(foot, leap, f.sheet.mount)


@functools.lru_cache(maxsize=256)
def _movement_record(foot: int, leap: int, mount: int) -> Record:
    """The movements of one who may go ``foot`` yards on foot and leap ``leap`` (the yards of
    four movement actions), with a horse of ``mount`` yards an action (0: none): the same for
    the same yards, built once."""
    kinds: list[Json] = [Movement.STAND.value]
    cases: list[tuple[Json, Domain]] = []
    if foot >= 1:
        kinds += [Movement.FOOT.value, Movement.LEAP.value]
        cases.append((Movement.FOOT.value, Between(1, foot)))
        if leap >= 1:
            cases.append((Movement.LEAP.value, Between(1, leap)))
    if mount:
        kinds += [Movement.MOUNT.value, Movement.RIDE.value, Movement.DISMOUNT.value]
        cases.append((Movement.RIDE.value, Between(1, MAX_MOVEMENT_ACTIONS * mount)))
    kinds.append(Movement.PRONE.value)
    return Record({"move": OneOf(tuple(kinds)), "yards": Depends("move", tuple(cases))})


def plan_domain(
    state: Encounter,
    who: str,
    *,
    stance: Stance | None = None,
    defence: str | None = None,
) -> Steps:
    """The plan ``who`` may declare now, one step at a time (the module's doc).

    ``stance``: the kind the steps are of when not the one declared at Initiative (aborting to
    defend); ``defence``: the defence an attack on him needs (declaring before his defensive
    roll: the defence is the first shape offered). On round zero one who did not open the
    conflict only defends.
    """
    f = state.fighters[who]
    kind = stance or f.stance or Stance.MANEUVER
    guard = "defiance" if kind is Stance.CONCENTRATE else "defense"
    others = [w for w in state.fighters if w != who]
    targets = tuple(
        sorted(others, key=lambda w: not state.fighters[w].conscious)  # conscious first
    )
    shapes: dict[str, Domain] = {}
    defend = Record({"defend": OneOf((defence or guard,))})
    if defence is not None:
        shapes[DEFEND] = defend
    if state.round != 0 or f.rank == HELD:  # round zero: the others only defend
        if targets:
            skills = attack_skills(f, kind)
            attack: dict[str, Domain] = {"attack": OneOf(targets), "skill": OneOf(skills)}
            ranged = tuple((s, Between(0, MAX_YARDS)) for s in skills if _is_ranged(f, s))
            if ranged:
                attack["yards"] = Depends("skill", ranged)
            optional = frozenset({"yards"}) if ranged else frozenset()
            shapes[ATTACK] = Record(attack, optional=optional)
        shapes.setdefault(DEFEND, defend)
        shapes[MOVE] = _movements(f)
        shapes[TASK] = _task_record(kind)
        room = haste_room(state, f)
        shapes[MINOR] = Record(
            {"minor": Text("draw a weapon"), "initiative_penalty": Between(-room, MODIFIER)},
            optional=frozenset({"initiative_penalty"}),
        )
        if room >= HASTE_BONUS:
            shapes[HASTE] = Record({"haste": OneOf((True,))})
    shapes.setdefault(DEFEND, defend)
    return Steps(AnyOf(shapes), least=1, most=MOST_STEPS)


@functools.cache
def _task_record(kind: Stance) -> Record:
    """A task of the stance's kind: the same for every fighter, built once."""
    return Record(
        {
            "task": Text("search"),
            "skill": OneOf(_task_skills(kind)),
            "challenge": CHALLENGE,
            "rounds": TASK_ROUNDS,
            "engrossing": OneOf(BOTH),
        },
        optional=frozenset({"rounds", "engrossing"}),
    )


def _is_ranged(f: Fighter, skill: str) -> bool:
    """True if an attack with ``skill`` has a range table entry (a sorcery type, or the
    character's thrown or missile weapon for its own skill)."""
    if skill.capitalize() in SORCERY_TYPES:
        return True
    return _WEAPON_SKILL.get(f.sheet.weapon_type) == skill


def penalty_words(plan: RoundPlan) -> str:
    """The round's multiple-action penalty in words.

    >>> from referee.systems.hursagmu.rounds import Step
    >>> penalty_words(RoundPlan((Step.defend(), Step.haste(), Step.attack("ogre"))))
    '−4 for three actions'
    >>> penalty_words(RoundPlan((Step.move("foot", 10), Step.attack("ogre"))))
    'no penalty for one action'
    """
    majors = major_actions(plan)
    count = _NUMBERS[majors] if majors < len(_NUMBERS) else str(majors)
    if majors <= 1:
        return f"no penalty for {count} action{'s' if majors != 1 else ''}"
    return f"−{-skill_penalty(plan)} for {count} actions"


def plan_odds(
    state: Encounter, who: str, steps: Sequence[Mapping[str, Any]]
) -> tuple[OddsPreview, ...]:
    """The odds of each step of ``steps`` that rolls, were ``who`` to declare them now: an
    attack against its target (defended if he may defend, else undefended), each other
    character's attack against a declared defence, a task's or a movement's required roll — each
    with the round's penalty ("a cumulative -2 penalty for each major action"), labelled with the
    step's number, its Initiative and the penalty. Nothing if the rules would refuse the plan.
    """
    f = state.fighters.get(who)
    if f is None or not f.conscious:
        return ()
    try:
        if state.round == 0 and f.rank != HELD:
            return ()  # "only the initiators act on round zero" (decide_declare)
        _, event = declare_plan(state, who, steps)
    except RuleError:
        return ()
    return steps_odds(fold_plan_declared(state, event.data), who)


def defence_odds(
    state: Encounter, who: str, steps: Sequence[Mapping[str, Any]]
) -> tuple[OddsPreview, ...]:
    """The odds of the attack pending on ``who`` were he to declare ``steps`` and defend now
    ("declare all of his actions for the round and then make his defensive skill roll with any
    appropriate penalties"; aborting his turn if need be), then those of his other steps that
    roll. Nothing if the rules would refuse it."""
    p = state.pending
    if p is None or p.target != who:
        return ()
    try:
        _, then = defence_declared(state, [dict(s) for s in steps])
    except RuleError:
        return ()
    plan = then.fighters[who].round_plan(state.options.defence)
    assert plan is not None
    label = f"{_own(p.attacker)} {p.skill} against {_own(who)} {defence_skill(p.skill)}"
    if p.response is DefenceResponse.ABORT:
        label += ", aborting his turn"
    defended = OddsPreview.of(
        attack_check(then, p, defended=True), f"{label}, {penalty_words(plan)}", rule="Action"
    )
    return (defended, *steps_odds(then, who, skip_defences=True))


def steps_odds(
    after: Encounter, who: str, *, skip_defences: bool = False
) -> tuple[OddsPreview, ...]:
    """The odds of each step of ``who``'s declared plan that rolls, in ``after`` (the state with
    the plan declared); ``skip_defences``: not those of his defences."""
    me = after.fighters[who]
    mode = after.options.defence
    plan = me.round_plan(mode)
    if plan is None:
        return ()
    cost = penalty_words(plan)
    at = [s.initiative for s in schedule(plan, me.initiative or 0)]
    out: list[OddsPreview] = []
    for index, step in enumerate(plan.steps):
        where = f"step {index + 1}" + (
            f" at Initiative {at[index]}" if at[index] is not None else ""
        )
        if step.kind is StepKind.ATTACK and step.target in after.fighters:
            assert step.skill is not None and step.target is not None
            try:
                challenge = (
                    range_challenge(step.yards, ranged_ability(me, step)) if step.yards else 0
                )
            except RuleError:
                continue
            answer, _ = response(after, step.target, step.skill)
            defended = answer is not DefenceResponse.NONE
            pending = Pending(who, step.target, step.skill, challenge, answer)
            how = f"against his {defence_skill(step.skill)}" if defended else "undefended"
            out.append(
                OddsPreview.of(
                    attack_check(after, pending, defended=defended),
                    f"{where}: {step.describe()} {how}, {cost}",
                    rule="Action",
                )
            )
        elif step.kind is StepKind.DEFEND and step.skill is not None and not skip_defences:
            for other, g in after.fighters.items():
                if other == who or not g.conscious:
                    continue
                skill = next((s for s in attack_skills(g) if defence_skill(s) == step.skill), None)
                if skill is None:
                    continue
                pending = Pending(other, who, skill, 0, DefenceResponse.DEFEND)
                out.append(
                    OddsPreview.of(
                        attack_check(after, pending, defended=True),
                        f"{where}: {_own(other)} {skill} against {_own(who)} {step.skill}, {cost}",
                        rule="Action",
                    )
                )
        elif step.kind is StepKind.TASK and step.skill is not None:
            check = me.roll_of(step.skill, mode).against(step.challenge)
            out.append(OddsPreview.of(check, f"{where}: {step.describe()}, {cost}", rule="Action"))
        elif step.kind is StepKind.MOVE and step.roll_skill is not None:
            check = me.roll_of(step.roll_skill, mode).against(step.challenge)
            out.append(
                OddsPreview.of(check, f"{where}: {step.describe()}, {cost}", rule="Movement")
            )
    return tuple(out)
