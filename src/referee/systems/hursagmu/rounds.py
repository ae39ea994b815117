"""A character's round: declared actions, their Initiatives and the skill penalty.

hursagmu-encounters.txt, "Conflict", "Initiative", "Action", "Movement", "Haste", "Recovery".

A character's actions for a round are a :class:`RoundPlan`: an ordered tuple of :class:`Step`.
:func:`schedule` gives each step its Initiative:

- "each action after the first happens at an Initiative two lower than the previous action";
- "each movement action reduces a character's Initiative for any actions performed after the
  movement ... a cumulative -2 to Initiative for each movement action";
- Haste: "spend an action to get a +2 to his Initiative" (it raises the whole round's
  Initiative and takes no place in the order);
- a minor action may carry an Initiative penalty "at the whim of The Master".

:func:`skill_penalty`: "any skills used during a round suffer a cumulative -2 penalty for each
major action taken that round" beyond the first; Haste counts, movement and minor actions don't;
a defence counts once per defence, or once a round under the Master's cinematic option.

>>> bob = RoundPlan((Step.defend(), Step.attack("fred"), Step.attack("fred")))
>>> [s.initiative for s in schedule(bob, 12)], skill_penalty(bob)
([12, 10, 8], -4)
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from referee.core import RuleError
from referee.core.values import evolved
from referee.systems.hursagmu.movement import (
    MAX_MOVEMENT_ACTIONS,
    MOVEMENT_INITIATIVE_STEP,
    Movement,
    jump_distance,
    movement_actions,
)
from referee.systems.hursagmu.sheet import Stance, skill_stance
from referee.systems.hursagmu.steps import Step, StepKind

__all__ = [
    "ACTION_PENALTY",
    "ACTION_STEP",
    "HASTE_BONUS",
    "DefenceMode",
    "DefenceResponse",
    "RoundPlan",
    "ScheduledStep",
    "Step",
    "StepKind",
    "can_recover",
    "defence_response",
    "defence_skill",
    "major_actions",
    "plan_from_json",
    "push_power",
    "schedule",
    "skill_penalty",
    "validate_plan",
]

ACTION_PENALTY = -2
""""a cumulative -2 penalty for each major action taken that round" (beyond the first)."""
ACTION_STEP = 2
""""each action after the first happens at an Initiative two lower than the previous action" """
HASTE_BONUS = 2
""""A character ... may spend an action to get a +2 to his Initiative" ("Haste")."""


class DefenceMode(enum.Enum):
    """How defences count ("Action"): the Master's option, default first.

    ``EACH``: "each defensive action [is] a major action"; ``CINEMATIC``: "the use of a
    defensive skill is only one major action per round, regardless of how many attacks are
    evaded".
    """

    EACH = "each"
    CINEMATIC = "cinematic"


@dataclass(frozen=True)
class ScheduledStep:
    """A step with the Initiative it happens at (``None`` for Haste, which has no place)."""

    step: Step
    initiative: int | None
    movement_actions: int = 0


@dataclass(frozen=True)
class RoundPlan:
    """Everything a character declares for a round, in order ("Action").

    ``rate`` is the character's yards per movement action on foot (encumbrance) and ``mount``
    the yards of a riding action; ``max_lift`` and ``load`` (when given) limit leaps.
    """

    steps: tuple[Step, ...]
    rate: Fraction | int = 10
    mount: int = 0
    mode: DefenceMode = field(default=DefenceMode.EACH)
    max_lift: int | None = None
    load: int = 0

    def step_movement_actions(self, step: Step) -> int:
        """The movement actions of one movement step (slope and encumbrance included)."""
        if step.kind is not StepKind.MOVE or step.movement is None:
            return 0
        rate = self.rate + step.slope if step.movement is Movement.FOOT else self.rate
        return movement_actions(step.movement, step.yards, rate=rate, mount=self.mount)

    @property
    def haste(self) -> int:
        """Actions spent on Haste."""
        return sum(1 for s in self.steps if s.kind is StepKind.HASTE)

    @property
    def initiative_bonus(self) -> int:
        """What the round's Initiative is raised by: +2 for each Haste, and the bonus the
        Master gives a minor action (a negative ``initiative_penalty``). A bonus raises the
        whole round, like Haste: never a step above one before it (ruling 26)."""
        minor = sum(
            -s.initiative_penalty
            for s in self.steps
            if s.kind is StepKind.MINOR and s.initiative_penalty < 0
        )
        return HASTE_BONUS * self.haste + minor

    def movement_actions(self) -> int:
        """The movement actions of the round."""
        return sum(self.step_movement_actions(s) for s in self.steps)

    @property
    def defences(self) -> int:
        """Defences declared."""
        return sum(1 for s in self.steps if s.kind is StepKind.DEFEND)

    @property
    def is_engrossing(self) -> bool:
        """True when an engrossing action allows "no defensive actions at all"."""
        return any(s.engrossing for s in self.steps)

    def skills(self) -> tuple[str, ...]:
        """The skills the plan rolls, in order, without repeats."""
        seen: list[str] = []
        for s in self.steps:
            if s.skill is not None and s.skill not in seen:
                seen.append(s.skill)
        return tuple(seen)


def major_actions(plan: RoundPlan) -> int:
    """Major actions for the skill penalty: attacks, tasks, Haste, and defences (each, or one
    a round under the cinematic option). Movement and minor actions never count.

    >>> major_actions(RoundPlan((Step.haste(),) * 3 + (Step.attack("x"),)))
    4
    >>> major_actions(RoundPlan((Step.defend(), Step.defend()), mode=DefenceMode.CINEMATIC))
    1
    """
    count = sum(1 for s in plan.steps if s.kind.is_major and s.kind is not StepKind.DEFEND)
    if plan.mode is DefenceMode.CINEMATIC:
        return count + (1 if plan.defences else 0)
    return count + plan.defences


def skill_penalty(plan: RoundPlan) -> int:
    """The penalty to every skill used this round: −2 for each major action after the first.

    "For performing two actions, he has a -2 penalty to both skills" (Bob the Fighter);
    "four [actions], giving him a -6 to his Striking skill roll" (Haste).

    >>> skill_penalty(RoundPlan((Step.attack("fred"), Step.defend())))
    -2
    >>> skill_penalty(RoundPlan((Step.move("stand"), Step.minor("draw"), Step.attack("x"))))
    0
    """
    return ACTION_PENALTY * max(0, major_actions(plan) - 1)


def schedule(plan: RoundPlan, initiative: int) -> tuple[ScheduledStep, ...]:
    """Each step with the Initiative it happens at, from the round's Initiative roll.

    Haste raises the base by 2 per action spent. A major action after the first comes 2 later
    than the one before it; each movement action takes 2 off whatever follows; a minor action
    takes off its Master-given penalty.

    Fred the Swift: "These four movement actions combine to give Fred a -8 penalty to the
    Initiative of his attack."

    >>> fred = RoundPlan((Step.move("stand"), Step.move("foot", 16), Step.move("leap"),
    ...                   Step.attack("foe")))
    >>> [s.initiative for s in schedule(fred, 10)]
    [10, 8, 4, 2]
    """
    current = initiative + plan.initiative_bonus
    seen_major = False
    seen_defence = False
    out: list[ScheduledStep] = []
    for step in plan.steps:
        if step.kind is StepKind.HASTE:
            out.append(ScheduledStep(step, None))
        elif step.kind is StepKind.MOVE:
            assert step.movement is not None
            n = plan.step_movement_actions(step)
            out.append(ScheduledStep(step, current, n))
            current -= MOVEMENT_INITIATIVE_STEP * n
        elif step.kind is StepKind.MINOR:
            out.append(ScheduledStep(step, current))
            current -= max(0, step.initiative_penalty)  # a bonus raised the whole round
        else:
            # Under the cinematic option every defence after the first is the same one major
            # action, so it takes no further Initiative.
            repeat = (
                step.kind is StepKind.DEFEND and seen_defence and plan.mode is DefenceMode.CINEMATIC
            )
            if seen_major and not repeat:
                current -= ACTION_STEP
            seen_major = True
            seen_defence = seen_defence or step.kind is StepKind.DEFEND
            out.append(ScheduledStep(step, current))
    return tuple(out)


def validate_plan(plan: RoundPlan, stance: Stance | None) -> None:
    """Refuse a plan the rules forbid (:class:`RuleError` naming the rule).

    - "A character may perform up to four of these [movement actions] during a single round."
    - A leap reaches at most "his Maximum lift / 50. A running start doubles the distance"
      (a leap straight after moving on foot is a running one), lowered by encumbrance.
    - "A character cannot use both Dex and Int skills during the same round": every skill of
      the plan belongs to the stance declared at Initiative.

    >>> validate_plan(RoundPlan((Step.attack("x"), Step.task("mahasu"))), Stance.MANEUVER)
    Traceback (most recent call last):
    ...
    referee.core.errors.RuleError: Initiative: a character who maneuvers cannot use the \
Intelligence skill 'mahasu' this round ("A character cannot use both Dex and Int skills during \
the same round")
    """
    previous: Step | None = None
    for step in plan.steps:
        if step.movement is Movement.LEAP and step.yards and plan.max_lift is not None:
            running = previous is not None and previous.movement is Movement.FOOT
            longest = jump_distance(plan.max_lift, plan.load, running=running)
            if step.yards > longest:
                start = "running" if running else "standing"
                raise RuleError(
                    "Movement",
                    f"a {start} long jump reaches {float(longest):g} yards (maximum lift / 50"
                    f"{', doubled running' if running else ''}), not {step.yards}",
                )
        previous = step
    if plan.is_engrossing and plan.defences:
        raise RuleError(
            "Action",
            "an engrossing action allows no defensive actions at all: declare the defence or "
            "the engrossing action, not both",
        )
    moves = plan.movement_actions()
    if moves > MAX_MOVEMENT_ACTIONS:
        raise RuleError(
            "Movement",
            f"{moves} movement actions; a character may perform up to {MAX_MOVEMENT_ACTIONS}"
            " during a single round",
        )
    if stance is None:
        return
    for skill in plan.skills():
        kind = skill_stance(skill)
        if kind is not None and kind is not stance:
            other = "Intelligence" if kind is Stance.CONCENTRATE else "Dexterity"
            verb = "maneuvers" if stance is Stance.MANEUVER else "concentrates"
            raise RuleError(
                "Initiative",
                f"a character who {verb} cannot use the {other} skill {skill!r} this round "
                '("A character cannot use both Dex and Int skills during the same round")',
            )


class DefenceResponse(enum.Enum):
    """What a character attacked before his turn may do ("Action")."""

    DEFEND = "defend"
    """Same kind as declared: "declare all of his actions ... and then make his defensive skill
    roll with any appropriate penalties"."""
    ABORT = "abort"
    """Other kind: "must abort the rest of his turn if he wants to make a defensive action"."""
    NONE = "none"
    """No defence at all: surprised on round zero, engrossed, or out of declared defences."""


def defence_skill(attack_skill: str) -> str:
    """Defiance against sorcery and other mental attacks, Defense against physical ones.

    >>> defence_skill("striking"), defence_skill("mahasu")
    ('defense', 'defiance')
    """
    return "defiance" if skill_stance(attack_skill) is Stance.CONCENTRATE else "defense"


def defence_response(stance: Stance | None, attack_skill: str) -> DefenceResponse:
    """Whether a defence keeps the character's turn or aborts it (Bob, Fred and Marcos).

    >>> defence_response(Stance.MANEUVER, "striking")
    <DefenceResponse.DEFEND: 'defend'>
    >>> defence_response(Stance.CONCENTRATE, "striking")
    <DefenceResponse.ABORT: 'abort'>
    """
    needed = skill_stance(defence_skill(attack_skill))
    if stance is None or needed is stance:
        return DefenceResponse.DEFEND
    return DefenceResponse.ABORT


def can_recover(*, acted: bool, injured: bool, health_ok: bool, sanity_ok: bool) -> bool:
    """ "If a character has taken no actions during the round and is OK on both Health and
    Sanity, then the character may recover one hit at the end of the round. If a character is
    injured during the round ... the character gets no recovery." ("Recovery")

    >>> can_recover(acted=False, injured=False, health_ok=True, sanity_ok=True)
    True
    >>> can_recover(acted=False, injured=True, health_ok=True, sanity_ok=True)
    False
    """
    return not acted and not injured and health_ok and sanity_ok


def push_power(hits_left: int, spend: int) -> tuple[int, bool]:
    """Pushing power: spend hits of Stamina for +1 Strength and Willpower each, for one round.

    Returns the hits left and whether the character collapses ("until his stamina reaches zero,
    at which point he will collapse from exhaustion"). One cannot spend hits one lacks.

    >>> push_power(12, 6), push_power(6, 6)
    ((6, False), (0, True))
    """
    if spend < 1:
        raise RuleError("Pushing Power", f"spend at least one hit, not {spend}")
    if spend > hits_left:
        raise RuleError("Pushing Power", f"only {hits_left} hits of Stamina left, not {spend}")
    left = hits_left - spend
    return left, left <= 0


def plan_from_json(
    steps: Sequence[Mapping[str, Any]],
    *,
    rate: Fraction | int = 10,
    mount: int = 0,
    mode: DefenceMode = DefenceMode.EACH,
    max_lift: int | None = None,
    load: int = 0,
) -> RoundPlan:
    """A :class:`RoundPlan` from JSON steps (see :meth:`Step.from_json`)."""
    if not isinstance(steps, Sequence) or isinstance(steps, str | bytes):
        raise RuleError("Action", "the declared actions are a list of steps")
    parsed: list[Step] = []
    for raw in steps:
        if not isinstance(raw, Mapping):
            raise RuleError("Action", f"a step is a mapping, not {raw!r}")
        parsed.append(Step.from_json(raw))
    return evolved(
        RoundPlan(tuple(parsed)), rate=rate, mount=mount, mode=mode, max_lift=max_lift, load=load
    )
