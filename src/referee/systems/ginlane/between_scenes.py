"""Between scenes (and at any time): Experience, rest, recovery, sheets and magic.

Gin Lane, "Getting Experience", "Experience Pool Refresh", "Stress Recovery", "Consequences",
"Characters", "How you do magic".
Each rule takes a :class:`~referee.core.Builder` (the events so far, folded), the action and
the dice; it emits events or raises :class:`~referee.core.RuleError`. The section's choices
(``*_choices``) read the scene; its folds (``after_*``, in ``FOLDS``) change it by event.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

from referee.core import (
    REFEREE,
    Action,
    Between,
    Builder,
    Choice,
    OneOf,
    Record,
    RollCard,
    RuleError,
    Steps,
    Text,
)
from referee.core.naming import possessive_of
from referee.core.values import evolved, to_json
from referee.dice import DiceSource, roll
from referee.systems.ginlane import actions as acts
from referee.systems.ginlane import events as ev
from referee.systems.ginlane.aspects import pay, resolve_tags
from referee.systems.ginlane.cards import check_card, odds_json
from referee.systems.ginlane.character import Character, check_sheet
from referee.systems.ginlane.magia import Charm, Ritual, interruption_risk
from referee.systems.ginlane.rolls import (
    DifficultyCheck,
)
from referee.systems.ginlane.scene import (
    Combatant,
    SceneFold,
    SceneState,
)
from referee.systems.ginlane.tables import difficulty_number, sephirot
from referee.systems.ginlane.tables import skills as skill_rows


def concerned(b: Builder[SceneState], action: Action, names: Sequence[str]) -> list[Combatant]:
    """The characters named, else everyone (the referee) or the actor (a player)."""
    if names:
        return [b.state.get(n) for n in names]
    if action.actor == REFEREE:
        return list(b.state.combatants)
    return [b.state.get(action.actor)]


def end_scene(b: Builder[SceneState], action: Action, dice: DiceSource) -> None:
    """The end of a scene ("Action: Manoeuvre": "Manoeuvre Aspects are temporary, lasting no
    longer than the scene"): its Aspects lapse (consequences stay), turns and Blocks end."""
    lapsed = sorted({a.name for a in b.state.aspects if not a.consequence})
    b.emit(ev.SCENE_ENDED, {"lapsed": lapsed})


def _scene_over(b: Builder[SceneState]) -> None:
    """A night's rest or a session's end comes after the scene: end it first if need be."""
    state = b.state
    if state.order or any(not a.consequence for a in state.aspects) or state.fizzles:
        end_scene(b, Action(REFEREE, "end_scene"), NoDice())


class NoDice:
    """The dice of a step that rolls none (the end of a scene): any roll is refused."""

    def roll(self, sides: int) -> int:
        raise RuleError("Dice", "the end of a scene rolls no dice")


def award(b: Builder[SceneState], action: Action, dice: DiceSource) -> None:
    """Experience awarded in play goes to the pool."""
    params = acts.AWARD.of(action)
    points = params.points
    for c in concerned(b, action, params.characters):
        b.emit(ev.POOL_AWARDED, {"character": c.id, "points": points})


def rest(b: Builder[SceneState], action: Action, dice: DiceSource) -> None:
    """A night's rest and a strong coffee: Health and Composure clear; the pool +1d6."""
    _scene_over(b)
    for c in concerned(b, action, acts.REST.of(action).characters):
        rolled = roll("1d6", dice)
        d6 = int(rolled.total)
        card = RollCard(
            label=f"{c.id} rests: the pool refreshes",
            rule="Experience Pool Refresh",
            dice="1d6",
            odds=None,
            faces=tuple(rolled.faces),
            outcome="rolled",
            margin=None,
            value=d6,
            shown=rolled.describe(),
        )
        b.emit(
            ev.RESTED,
            {
                "character": c.id,
                "d6": d6,
                "pool": c.pool.refresh(d6).points,
                "roll": card.to_json(),
            },
        )


def end_session(b: Builder[SceneState], action: Action, dice: DiceSource) -> None:
    """Wealth stress clears at the end of a session without Wealth stress or consequences."""
    _scene_over(b)
    params = acts.END_SESSION.of(action)
    for c in concerned(b, action, params.characters):
        # "Characters usually start a session with a full experience pool. There may be
        # exceptions if this is an immediate run-on from a previous game." ("Experience Pool
        # Refresh")
        pool = c.pool.points if params.run_on else c.pool.full
        b.emit(
            ev.SESSION_ENDED,
            {"character": c.id, "wealth_cleared": not c.wealth_hit, "pool": pool},
        )


def recover(b: Builder[SceneState], action: Action, dice: DiceSource) -> None:
    """Consequences recover only with their circumstances (rest, treatment) for their time."""
    me = b.state.get(action.actor)
    params = acts.RECOVER.of(action)
    days, aspect = params.days, params.aspect
    before = set(me.consequences.aspects())
    after = me.consequences.recover(days, aspect=aspect or None)
    b.emit(
        ev.CONSEQUENCE_RECOVERING,
        {
            "character": me.id,
            "days": days,
            "aspect": aspect,
            "recovered": sorted(before - set(after.aspects())),
        },
    )


def sheet(b: Builder[SceneState], action: Action, dice: DiceSource) -> None:
    """A character sheet checked: the pyramid, Experience, Aspects, tracks, languages."""
    p = acts.CHECK_SHEET.of(action)
    name = p.name
    sheet = Character.from_json(name, p.model_dump(mode="json", exclude_unset=True))
    problems = check_sheet(sheet)
    b.emit(
        ev.SHEET_CHECKED,
        {
            "name": name,
            "valid": not problems,
            "problems": [f"{rule}: {reason}" for rule, reason in problems],
            "spent": sheet.spent,
            "unspent": sheet.unspent,
            "extra_aspects": sheet.extra_aspects,
            "tracks": sheet.tracks,
            "language_allowance": sheet.language_allowance,
        },
    )


def ritual(b: Builder[SceneState], action: Action, dice: DiceSource) -> None:
    """Magia: a ritual of hours on a Sephira's path makes a charm; interruptions threaten."""
    p = acts.RITUAL.of(action)
    me = b.state.get(action.actor)
    ritual = Ritual(me.sheet, p.sephira, p.effect, difficulty_number(p.difficulty), p.hours)
    tags = resolve_tags(b.state, me, p.tags, [])
    check = ritual.check(tags=len(tags), mode=b.state.mode)
    spec = evolved(check.roll_spec, free_tags=sum(1 for t in tags if t.free))
    ritual_check = DifficultyCheck(spec, check.difficulty)
    odds = ritual_check.odds()
    result = ritual_check.roll(dice)
    pay(b, me.id, tags, result.actor)
    place = list(p.place) or list(me.sheet.all_aspects)
    charm = ritual.charm(result.margin)
    b.emit(
        ev.RITUAL_ROLLED,
        {
            "character": me.id,
            "sephira": ritual.sephira,
            "hours": ritual.hours,
            "interruption": interruption_risk(place),
            **result.to_json(),
            "odds": odds_json(odds),
            "roll": check_card(
                ritual_check,
                result,
                f"{possessive_of(me.id)} ritual on the path of {ritual.sephira}",
                rule="How you do magic",
                odds=odds,
            ),
        },
    )
    if charm is not None:
        b.emit(ev.CHARM_MADE, to_json(charm))


# -- the choices


@functools.cache
def sheet_choice() -> Choice:
    """Characters: a sheet to check, built on the referee's page — a name, levels in any of
    the Skills List's skills, Aspects and Experience (the pyramid, Experience, Aspects, tracks
    and languages are checked). The same at every step: built once."""
    levels = Record(
        {s.name: Between(0, 6) for s in skill_rows() if s.name != "Rapport"},
        optional=frozenset(s.name for s in skill_rows()),
    )
    return Choice(
        REFEREE,
        "check_sheet",
        {
            "name": Text("a new character"),
            "skills": levels,
            "aspects": Steps(Text("Gin-Soaked Bravo"), least=0, most=12),
            "experience": Between(0, 60),
        },
        label="check a character sheet",
    )


def recovery_and_ritual_choices(me: Combatant) -> list[Choice]:
    """At any time: days of recovery from consequences taken ("Consequences"), a ritual for a
    Philosopher ("How you do magic")."""
    out: list[Choice] = []
    if me.consequences.taken:
        out.append(Choice(me.id, "recover", {"days": Between(1, 60)}, label="days of recovery"))
    if any(s.startswith("Occult Philosophy") for s, _ in me.sheet.skills):
        paths = tuple(s.name for s in sephirot())
        out.append(
            Choice(
                me.id,
                "ritual",
                {"sephira": OneOf(paths), "hours": Between(1, 12), "difficulty": Between(6, 12)},
                label="a ritual on a Sephira's path",
            )
        )
    return out


# -- the fold: the scene after each event between scenes


def after_scene_ended(state: SceneState, d: Mapping[str, Any]) -> SceneState:
    """The end of a scene: "Manoeuvre Aspects are temporary, lasting no longer than the
    scene" (consequences stay); turns, Blocks, defences and fizzled fuses end."""
    calm = tuple(
        evolved(c, block=None, full_defence=False, defences=(), waiting=False)
        for c in state.combatants
    )
    return evolved(
        state,
        combatants=calm,
        aspects=tuple(a for a in state.aspects if a.consequence),
        order=(),
        turn=0,
        round=0,
        over=False,
        fizzles=(),
    )


def after_pool_awarded(state: SceneState, d: Mapping[str, Any]) -> SceneState:
    """Getting Experience: points awarded in play go to the pool."""
    me = state.get(str(d["character"]))
    return state.put(evolved(me, pool=me.pool.award(int(d["points"]))))


def after_rested(state: SceneState, d: Mapping[str, Any]) -> SceneState:
    """Stress Recovery: a night's rest clears every track but Wealth; the pool refreshes."""
    me = state.get(str(d["character"]))
    tracks = tuple(t if t.name == "Wealth" else t.cleared() for t in me.tracks)
    return state.put(evolved(me, tracks=tracks, pool=me.pool.refresh(int(d["d6"]))))


def after_session_ended(state: SceneState, d: Mapping[str, Any]) -> SceneState:
    """The end of a session: Wealth clears if untouched; the pool as the session leaves it."""
    me = state.get(str(d["character"]))
    tracks = me.tracks
    if d.get("wealth_cleared"):
        tracks = tuple(t.cleared() if t.name == "Wealth" else t for t in tracks)
    pool = me.pool
    if isinstance(d.get("pool"), int):
        pool = evolved(pool, points=int(d["pool"]))
    return state.put(evolved(me, tracks=tracks, wealth_hit=False, pool=pool))


def after_consequence_recovering(state: SceneState, d: Mapping[str, Any]) -> SceneState:
    """Consequences: days of recovery; a consequence recovered is no longer an Aspect."""
    me = state.get(str(d["character"]))
    named = d.get("aspect")
    cons = me.consequences.recover(int(d["days"]), aspect=str(named) if named else None)
    gone = {str(x).lower() for x in d.get("recovered", [])}
    aspects = tuple(
        a for a in state.aspects if not (a.consequence and a.on == me.id and a.name.lower() in gone)
    )
    return evolved(state.put(evolved(me, consequences=cons)), aspects=aspects)


def after_charm_made(state: SceneState, d: Mapping[str, Any]) -> SceneState:
    """Magia: charms "hold that effect for a period until it is needed"."""
    charm = Charm(str(d["sephira"]), str(d["effect"]), str(d["maker"]), int(d["strength"]))
    return evolved(state, charms=(*state.charms, charm))


FOLDS: Mapping[str, SceneFold] = {
    ev.SCENE_ENDED: after_scene_ended,
    ev.POOL_AWARDED: after_pool_awarded,
    ev.RESTED: after_rested,
    ev.SESSION_ENDED: after_session_ended,
    ev.CONSEQUENCE_RECOVERING: after_consequence_recovering,
    ev.CHARM_MADE: after_charm_made,
}
"""The scene after each event of this section."""
