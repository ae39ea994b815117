"""The core roll: 2d6 + skill, tagged Aspects, difficulties and opposed rolls, with exact odds.

Gin Lane, "Dice": *Roll 2d6 and add a relevant skill.* You aim to beat a difficulty or the
opposition's roll + modifier ("beat" is strictly greater, RULINGS.md); a tie is "a Match"
("Success Levels"), which :class:`~referee.core.Outcome` calls ``TIE``.

Tagging an Aspect (RULINGS.md, Gin Lane), an *option* of the table:

- :attr:`TagMode.EXTRA_DIE` (option a, the default): one more d6 per tag, keep the best two
  (``4d6kh2`` for two tags). Tags are declared before the roll and all are paid.
- :attr:`TagMode.REROLL` (option b): after the roll, each tag re-rolls one or both dice. The
  player re-rolls only while the roll falls short and picks the re-roll that gives the best
  chance (:func:`reroll_policy`); only the tags used are paid.

Every check gives its exact odds before it is rolled (``.odds()``) and rolls from the same
definition (``.roll(source)``): option a through the kernel's :class:`~referee.core.TargetCheck`
and :class:`~referee.core.OpposedCheck`, option b through an exact dynamic programme over the
faces.

>>> check = DifficultyCheck(GinLaneRoll(skill=2, tags=1), difficulty=9)
>>> check.odds().success
Fraction(49, 72)
>>> from referee.dice import ScriptedSource
>>> result = check.roll(ScriptedSource([1, 5, 4]))
>>> result.total, result.outcome.value, result.success_level
(11, 'success', 'Fair')
"""

from __future__ import annotations

import enum
import functools
import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from referee.core import (
    CheckOdds,
    CheckResult,
    OpposedCheck,
    Outcome,
    RuleError,
    TargetCheck,
    TieRule,
    Total,
)
from referee.dice import DiceSource, roll
from referee.systems.ginlane.rerolls import FACES, final_sums, reroll_policy, untargeted_reroll
from referee.systems.ginlane.tables import success_level

__all__ = [
    "MAX_TAGS",
    "NO_RELEVANT_SKILL",
    "RELATED_SKILL",
    "DifficultyCheck",
    "GinLaneRoll",
    "OpposedRoll",
    "Resolution",
    "RollResult",
    "TagMode",
    "effective_skill",
    "limited_skill",
    "outcome_of",
    "reroll_policy",
    "untargeted_reroll",
]

NO_RELEVANT_SKILL = -2
"""No Relevant Skill: an effective skill of −2 for common tasks."""

RELATED_SKILL = 0
"""No Relevant Skill: a sort-of-relevant or related skill rolls at Skill = 0."""

MAX_TAGS = 12
"""The engine's bound on tags for one roll (the text sets none but the Aspects and the pool)."""

SIXTH = Fraction(1, 6)


class TagMode(enum.Enum):
    """How a tagged Aspect helps a roll (RULINGS.md, Gin Lane: an *option*, default a)."""

    EXTRA_DIE = "a"
    """Option a: roll one more d6 per tag and keep the best two."""
    REROLL = "b"
    """Option b: re-roll one or both dice per tag."""

    @classmethod
    def parse(cls, text: str) -> TagMode:
        """``"a"``/``"extra"`` or ``"b"``/``"reroll"``."""
        key = text.strip().lower()
        if key in ("a", "extra", "extra_die", "extra-die"):
            return cls.EXTRA_DIE
        if key in ("b", "reroll", "re-roll"):
            return cls.REROLL
        raise RuleError("Tagging an Aspect", f"no tagging option {text!r} (a or b)")


def effective_skill(level: int | None, *, related: bool = False, arcane: bool = False) -> int:
    """The skill to add to 2d6 ("No Relevant Skill").

    A skill the character has counts at its level. Without one: −2 for a common task, 0 with a
    related skill, and an Arcane or Obscure skill is impossible to the uninitiated (a
    :class:`RuleError`; Rulings: "worse or impossible" is read as impossible).

    >>> effective_skill(3), effective_skill(None), effective_skill(None, related=True)
    (3, -2, 0)
    """
    if level is not None:
        return level
    if arcane:
        raise RuleError("No Relevant Skill", "an Arcane or Obscure skill is impossible untrained")
    return RELATED_SKILL if related else NO_RELEVANT_SKILL


def limited_skill(*levels: int) -> int:
    """Skill Interaction: two relevant skills, one limiting the other: roll the lower.

    >>> limited_skill(3, 1)  # shooting from horseback: Firearms 3, Ride 1
    1
    """
    if not levels:
        raise RuleError("Skill Interaction", "no skills given")
    return min(levels)


def outcome_of(margin: int) -> Outcome:
    """A margin's outcome: above 0 a success, 0 a Match (``TIE``), below 0 a failure."""
    if margin > 0:
        return Outcome.SUCCESS
    if margin == 0:
        return Outcome.TIE
    return Outcome.FAILURE


def _level_name(margin: int) -> str:
    return success_level(margin).success if margin >= 0 else "Failure"


@dataclass(frozen=True)
class GinLaneRoll:
    """One side's roll: 2d6 + ``skill`` + ``modifier``, with ``tags`` tagged Aspects.

    ``modifier`` gathers the rules' adjustments (−1 for a supplemental action, +2 on Full
    Defence, range penalties). ``free_tags`` of the tags cost nothing; the rest cost a point
    of the Experience Pool each (:attr:`paid_tags`).

    >>> GinLaneRoll(skill=3, tags=2).dice, GinLaneRoll(skill=3, tags=2, mode=TagMode.REROLL).dice
    ('4d6kh2', '2d6')
    """

    skill: int
    tags: int = 0
    mode: TagMode = TagMode.EXTRA_DIE
    modifier: int = 0
    free_tags: int = 0

    def __post_init__(self) -> None:
        if self.tags > MAX_TAGS:
            raise RuleError("Tagging an Aspect", f"{self.tags} tags: at most {MAX_TAGS} on a roll")
        if self.tags < 0 or not 0 <= self.free_tags <= self.tags:
            raise RuleError("Tagging an Aspect", f"bad tags {self.tags} / free {self.free_tags}")

    @property
    def bonus(self) -> int:
        """What is added to the dice: skill + modifier."""
        return self.skill + self.modifier

    @property
    def dice(self) -> str:
        """The dice notation rolled first: ``2d6`` or, with option a, ``(2+tags)d6kh2``."""
        if self.mode is TagMode.EXTRA_DIE and self.tags:
            return f"{2 + self.tags}d6kh2"
        return "2d6"

    @property
    def paid_tags(self) -> int:
        """Tags paid from the Experience Pool (option a: all declared tags that are not free)."""
        return self.tags - self.free_tags

    @property
    def side(self) -> Total:
        """The kernel's :class:`~referee.core.Total` for option a."""
        return Total(self.dice, self.bonus)

    def distribution(self) -> dict[int, Fraction]:
        """Exact distribution of the total with no number to beat.

        Option a: the kept best two. Option b without a number to beat: each tag re-rolls the
        dice showing 3 or less (Rulings), see :func:`untargeted_reroll`.
        """
        if self.mode is TagMode.EXTRA_DIE:
            return self.side.distribution()
        dist: dict[int, Fraction] = {}
        for a, b in itertools.product(FACES, FACES):
            for s, p in untargeted_reroll((a, b), self.tags).items():
                dist[s + self.bonus] = dist.get(s + self.bonus, Fraction(0)) + p / 36
        return dict(sorted(dist.items()))

    def roll_to(self, source: DiceSource, total: int, *, beat: bool) -> RollResult:
        """Roll knowing the number to reach: to beat ``total`` (``beat``) or not be beaten by
        it (a defence against a known attack); option b re-rolls as :func:`reroll_policy`."""
        if self.mode is TagMode.EXTRA_DIE:
            return _roll_extra(self, source)
        state = _Rolling(self, source)
        _reroll_to(state, self.tags, total - self.bonus, beat)
        return state.result()

    def roll(self, source: DiceSource) -> RollResult:
        """Roll with no number to beat (initiative, a Block's strength)."""
        if self.mode is TagMode.EXTRA_DIE:
            return _roll_extra(self, source)
        state = _Rolling(self, source)
        for _ in range(self.tags):
            low = [i for i, f in enumerate(state.kept) if f <= 3]
            if not low:
                break
            state.reroll(tuple(low))
        return state.result()


@dataclass(frozen=True)
class RollResult:
    """A rolled :class:`GinLaneRoll`: the two dice that count, the total, tags used and paid.

    ``natural`` is the sum of the two dice that count (before skill): the grenade's Fizzle
    reads it. ``faces`` are every face in the order rolled (re-rolls included).
    """

    kept: tuple[int, int]
    total: int
    faces: tuple[int, ...]
    tags_used: int
    tags_paid: int
    shown: str

    @property
    def natural(self) -> int:
        """The two counted dice, summed."""
        return self.kept[0] + self.kept[1]

    def to_json(self) -> dict[str, Any]:
        """Plain JSON for an event."""
        return {
            "dice": list(self.kept),
            "natural": self.natural,
            "total": self.total,
            "faces": list(self.faces),
            "tags_used": self.tags_used,
            "tags_paid": self.tags_paid,
            "shown": self.shown,
        }


def _roll_extra(spec: GinLaneRoll, source: DiceSource) -> RollResult:
    rolled = roll(spec.dice, source)
    kept = sorted((d.face for d in rolled.dice if d.kept), reverse=True)
    total = int(rolled.total) + spec.bonus
    return RollResult(
        kept=(kept[0], kept[1]),
        total=total,
        faces=rolled.faces,
        tags_used=spec.tags,
        tags_paid=spec.paid_tags,
        shown=f"{rolled.describe()} {spec.bonus:+d} = {total}",
    )


class _Rolling:
    """Option b in progress: the two dice, re-rolled one tag at a time."""

    def __init__(self, spec: GinLaneRoll, source: DiceSource) -> None:
        self.spec = spec
        self.source = source
        first = roll("2d6", source)
        self.kept = [d.face for d in first.dice]
        self.faces = list(first.faces)
        self.used = 0
        self.steps = [f"2d6 ({self.kept[0]}, {self.kept[1]})"]

    def reroll(self, which: tuple[int, ...]) -> None:
        old = list(self.kept)
        for i in which:
            face = source_face(self.source)
            self.kept[i] = face
            self.faces.append(face)
        self.used += 1
        before = [old[i] for i in which]
        after = [self.kept[i] for i in which]
        self.steps.append(f"tag: re-roll {before} → {after}")

    def sum(self) -> int:
        return self.kept[0] + self.kept[1]

    def result(self) -> RollResult:
        total = self.sum() + self.spec.bonus
        paid = max(0, self.used - self.spec.free_tags)
        return RollResult(
            kept=(self.kept[0], self.kept[1]),
            total=total,
            faces=tuple(self.faces),
            tags_used=self.used,
            tags_paid=paid,
            shown=f"{'; '.join(self.steps)} {self.spec.bonus:+d} = {total}",
        )


def source_face(source: DiceSource) -> int:
    """One d6 from ``source`` through the dice layer (so a scripted source checks the face)."""
    return int(roll("1d6", source).total)


def _reroll_to(state: _Rolling, tags: int, need: int, strict: bool) -> None:
    for left in range(tags, 0, -1):
        which = reroll_policy((state.kept[0], state.kept[1]), left, need, strict=strict)
        if which is None:
            return
        state.reroll(which)


def _odds_from(pairs: Mapping[int, Fraction]) -> CheckOdds:
    outcomes = {o: Fraction(0) for o in (Outcome.SUCCESS, Outcome.TIE, Outcome.FAILURE)}
    for margin, p in pairs.items():
        outcomes[outcome_of(margin)] += p
    return CheckOdds(outcomes=outcomes, margins=dict(sorted(pairs.items())))


@dataclass(frozen=True)
class Resolution:
    """A rolled check: outcome (``TIE`` is a Match), margin, success level, the rolls.

    ``check`` is the kernel's :class:`~referee.core.CheckResult` of the same roll (for events).
    """

    outcome: Outcome
    margin: int
    actor: RollResult
    opponent: RollResult | None = None
    difficulty: int | None = None
    check: CheckResult | None = field(default=None, compare=False)

    @property
    def total(self) -> int:
        """The actor's total."""
        return self.actor.total

    @property
    def is_success(self) -> bool:
        """True when the roll beat the difficulty or the opposition."""
        return self.outcome is Outcome.SUCCESS

    @property
    def success_level(self) -> str:
        """The "Success Levels" name of the margin (Match … Near Perfect), or ``Failure``."""
        return _level_name(self.margin)

    def to_json(self) -> dict[str, Any]:
        """Plain JSON for an event payload."""
        data: dict[str, Any] = {
            "outcome": "match" if self.outcome is Outcome.TIE else self.outcome.value,
            "margin": self.margin,
            "success_level": self.success_level,
            "rolled": self.actor.to_json(),
        }
        if self.difficulty is not None:
            data["difficulty"] = self.difficulty
        if self.opponent is not None:
            data["opposition"] = self.opponent.to_json()
        return data


@dataclass(frozen=True)
class DifficultyCheck:
    """2d6 + skill (+ tags) against a difficulty ("Difficulty & Target Number"): beat it.

    Outcomes: ``SUCCESS`` (beat), ``TIE`` (a Match), ``FAILURE``. Margin: total − difficulty.

    >>> DifficultyCheck(GinLaneRoll(skill=1), difficulty=7).odds().outcomes[Outcome.TIE]
    Fraction(5, 36)
    """

    roll_spec: GinLaneRoll
    difficulty: int

    def kernel_check(self) -> TargetCheck:
        """The kernel check behind option a (``>``: beat the difficulty)."""
        spec = self.roll_spec
        return TargetCheck(spec.dice, self.difficulty, spec.bonus, ">")

    def odds(self) -> CheckOdds:
        """Exact odds of a success, a Match and a failure, and of each margin (memoised:
        checks are values)."""
        return _memoised(self)

    def _odds(self) -> CheckOdds:
        spec = self.roll_spec
        if spec.mode is TagMode.EXTRA_DIE:
            return _odds_from(self.kernel_check().odds().margins)
        need = self.difficulty - spec.bonus
        margins: dict[int, Fraction] = {}
        for a, b in itertools.product(FACES, FACES):
            for s, p in final_sums((a, b), spec.tags, need, True).items():
                m = s - need
                margins[m] = margins.get(m, Fraction(0)) + p / 36
        return _odds_from(margins)

    def roll(self, source: DiceSource) -> Resolution:
        """Roll it (option b re-rolls while short of the difficulty, as the policy says)."""
        spec = self.roll_spec
        if spec.mode is TagMode.EXTRA_DIE:
            rolled = _roll_extra(spec, source)
        else:
            state = _Rolling(spec, source)
            _reroll_to(state, spec.tags, self.difficulty - spec.bonus, True)
            rolled = state.result()
        margin = rolled.total - self.difficulty
        outcome = outcome_of(margin)
        check = CheckResult(outcome, rolled.total, margin, faces=rolled.faces)
        return Resolution(outcome, margin, rolled, None, self.difficulty, check)


@dataclass(frozen=True)
class OpposedRoll:
    """The actor's roll against the opposition's roll + modifier: the actor must beat it.

    A tie is a Match (``TIE``). With option b the actor rolls, the opposition rolls and re-rolls
    to reach at least the actor's first total, then the actor re-rolls to beat the opposition's
    final total (Rulings). ``floor`` is a number the actor must beat as well (a Block
    protecting the target: "exceed both your block and perhaps the protected target's own
    defence"). Margin: actor's total − the higher of the opposition's total and ``floor``.

    >>> OpposedRoll(GinLaneRoll(2), GinLaneRoll(2)).odds().tie
    Fraction(73, 648)
    >>> OpposedRoll(GinLaneRoll(2), GinLaneRoll(2), floor=14).odds().success
    Fraction(0, 1)
    """

    actor: GinLaneRoll
    opponent: GinLaneRoll
    floor: int | None = None

    def kernel_check(self) -> OpposedCheck:
        """The kernel check behind option a (ties stand as a Match)."""
        return OpposedCheck(self.actor.side, self.opponent.side, TieRule.TIE)

    def _against(self, theirs: int) -> int:
        return theirs if self.floor is None else max(theirs, self.floor)

    def _opponent_need(self, actor_total: int) -> int:
        """What the opposition re-rolls to reach: the actor's total, unless the floor holds."""
        if self.floor is not None and self.floor >= actor_total:
            return -100  # already not beaten: no re-roll
        return actor_total - self.opponent.bonus

    def odds(self) -> CheckOdds:
        """Exact odds of a success, a Match and a failure, and of each margin (memoised:
        checks are values)."""
        return _memoised(self)

    def _odds(self) -> CheckOdds:
        a, o = self.actor, self.opponent
        both_a = a.mode is TagMode.EXTRA_DIE and o.mode is TagMode.EXTRA_DIE
        if both_a and self.floor is None:
            return _odds_from(self.kernel_check().odds().margins)
        margins: dict[int, Fraction] = {}
        if a.mode is TagMode.EXTRA_DIE:
            for mine, p_a in a.side.distribution().items():
                for theirs, p_t in self._opponentfinal_sums(mine).items():
                    m = mine - self._against(theirs)
                    margins[m] = margins.get(m, Fraction(0)) + p_a * p_t
            return _odds_from(margins)
        for first in itertools.product(FACES, FACES):
            a0 = first[0] + first[1] + a.bonus
            for theirs, p_t in self._opponentfinal_sums(a0).items():
                need = self._against(theirs) - a.bonus
                for s, p_a in self._actorfinal_sums(first, need).items():
                    m = s - need
                    margins[m] = margins.get(m, Fraction(0)) + p_t * p_a / 36
        return _odds_from(margins)

    def _opponentfinal_sums(self, actor_first: int) -> dict[int, Fraction]:
        o = self.opponent
        out: dict[int, Fraction] = {}
        if o.mode is TagMode.EXTRA_DIE:
            return o.side.distribution()
        need = self._opponent_need(actor_first)
        for d in itertools.product(FACES, FACES):
            for s, p in final_sums(d, o.tags, need, False).items():
                out[s + o.bonus] = out.get(s + o.bonus, Fraction(0)) + p / 36
        return out

    def _actorfinal_sums(self, first: tuple[int, int], need: int) -> dict[int, Fraction]:
        return final_sums(first, self.actor.tags, need, True)

    def roll(self, source: DiceSource) -> Resolution:
        """Roll the actor, then the opposition (each re-rolling under option b as ruled)."""
        a, o = self.actor, self.opponent
        if a.mode is TagMode.EXTRA_DIE and o.mode is TagMode.EXTRA_DIE:
            mine = _roll_extra(a, source)
            theirs = _roll_extra(o, source)
        elif a.mode is TagMode.EXTRA_DIE:
            mine = _roll_extra(a, source)
            ostate = _Rolling(o, source)
            _reroll_to(ostate, o.tags, self._opponent_need(mine.total), False)
            theirs = ostate.result()
        else:
            astate = _Rolling(a, source)
            first_total = astate.sum() + a.bonus
            if o.mode is TagMode.EXTRA_DIE:
                theirs = _roll_extra(o, source)
            else:
                ostate = _Rolling(o, source)
                _reroll_to(ostate, o.tags, self._opponent_need(first_total), False)
                theirs = ostate.result()
            _reroll_to(astate, a.tags, self._against(theirs.total) - a.bonus, True)
            mine = astate.result()
        margin = mine.total - self._against(theirs.total)
        outcome = outcome_of(margin)
        check = CheckResult(
            outcome,
            mine.total,
            margin,
            faces=mine.faces + theirs.faces,
            opponent_value=theirs.total,
        )
        return Resolution(outcome, margin, mine, theirs, None, check)


@functools.lru_cache(maxsize=8192)
def _memoised(check: DifficultyCheck | OpposedRoll) -> CheckOdds:
    """The odds of a check, worked out once per distinct check."""
    return check._odds()
