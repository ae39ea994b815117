"""Manoeuvres: an Aspect set (or removed) against a defence or a difficulty; Disarm.

Gin Lane, "Action: Manoeuvre", "Manoeuvres", "Disarm".
Each rule takes a :class:`~referee.core.Builder` (the events so far, folded), the action and
the dice; it emits events or raises :class:`~referee.core.RuleError`. The section's choices
(``*_choices``) read the scene; its folds (``after_*``, in ``FOLDS``) change it by event.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from referee.core import (
    Action,
    Between,
    Builder,
    CheckOdds,
    Choice,
    Depends,
    Domain,
    OneOf,
    RuleError,
    Text,
)
from referee.core.naming import title_of
from referee.core.values import evolved
from referee.dice import DiceSource
from referee.systems.ginlane import actions as acts
from referee.systems.ginlane import conflict as rules
from referee.systems.ginlane import events as ev
from referee.systems.ginlane.aspects import modifier, pay, place, resolve_tags, roll_spec
from referee.systems.ginlane.cards import check_card, odds_json
from referee.systems.ginlane.defence import (
    DefenceCheck,
    ask_defence,
    defence_checks,
    defend,
    spin,
    standing_skill,
)
from referee.systems.ginlane.grapple import held
from referee.systems.ginlane.rolls import (
    DifficultyCheck,
    OpposedRoll,
    Resolution,
)
from referee.systems.ginlane.scene import (
    DEFAULT_DIFFICULTY,
    SCENE,
    Combatant,
    PendingAttack,
    Release,
    SceneFold,
    SceneState,
    opponents_of,
)
from referee.systems.ginlane.tables import Manoeuvre as NamedManoeuvre
from referee.systems.ginlane.tables import difficulty_number, manoeuvres
from referee.systems.ginlane.tables import manoeuvre as named_manoeuvre
from referee.systems.ginlane.tables import skill as skill_entry
from referee.systems.ginlane.tables import weapon as weapon_entry
from referee.systems.ginlane.zones import zones_between


def aspect_on(
    state: SceneState, me: Combatant, p: acts.Manoeuvre, named: NamedManoeuvre | None
) -> str:
    """What a manoeuvre's Aspect goes on: oneself for a named manoeuvre on "self", else the
    character, the zone or the scene named, else oneself."""
    if named is not None and named.on == "self":
        return me.id
    if p.target:
        state.get(p.target)
        return p.target
    if p.zone:
        if p.zone not in state.zones:
            raise RuleError("Zones", f"no zone {p.zone!r}")
        return p.zone
    if p.scene:
        return SCENE
    return me.id


def check_reach(state: SceneState, me: Combatant, opponent: Combatant, skill: str) -> None:
    """Zones: a manoeuvre on an opponent needs them in sight and in the reach of its skill
    (and, for Weapons, of the weapon in hand)."""
    far = state.distance(me.zone, opponent.zone)
    if far >= rules.OUT_OF_SIGHT:
        raise RuleError("Zones", f"{opponent.id} is {far} zones away: out of sight")
    reach = rules.manoeuvre_reach(skill, weapon_entry(me.weapon))
    if far > reach:
        raise RuleError(
            "Zones", f"{opponent.id} is {far} zones away: a {skill} manoeuvre reaches {reach}"
        )


def remove_aspect(b: Builder[SceneState], me: Combatant, name: str, on: str) -> None:
    """Manoeuvres: an Aspect removed; "Disarmed" removed from oneself puts the dropped weapon
    back in hand."""
    found = [a for a in b.state.aspects if a.name.lower() == name.lower() and a.on == on]
    if not found:
        raise RuleError("Manoeuvres", f"no Aspect {name!r} on {on} to remove")
    b.emit(ev.ASPECT_REMOVED, {"id": found[0].id, "name": found[0].name, "on": on})
    if found[0].name == "Disarmed" and on == me.id and me.dropped:
        b.emit(ev.WEAPON_RECOVERED, {"character": me.id, "weapon": me.dropped})


def _what(
    state: SceneState, me: Combatant, p: acts.Manoeuvre
) -> tuple[NamedManoeuvre | None, str, str, str]:
    """A manoeuvre's named manoeuvre (if any), its Aspect, its skill and what it goes on."""
    named = named_manoeuvre(p.named) if p.named else None
    name = p.aspect or (named.aspect if named else "")
    if not name:
        raise RuleError("Action: Manoeuvre", "needs an 'aspect' or a 'named' manoeuvre")
    if not (p.skill or named):
        raise RuleError("Action: Manoeuvre", "say which skill: 'skill' (or a 'named' one)")
    skill = skill_entry(p.skill or (named.skill if named else "")).name
    return named, name, skill, aspect_on(state, me, p, named)


def _opponent(state: SceneState, me: Combatant, on: str) -> str | None:
    return on if on in {c.id for c in state.combatants} and on != me.id else None


def manoeuvre(b: Builder[SceneState], action: Action, dice: DiceSource) -> None:
    """Action: Manoeuvre: set (or remove) an Aspect, against a defence or a difficulty. Against
    a character's defence it waits for her to choose it ("Defence": "Choose a skill to defend
    with in response to an Attack or Manoeuvre"), unless a defence of hers that may meet it is
    on the table in this Turn."""
    p = acts.MANOEUVRE.of(action)
    me = b.state.get(action.actor)
    _, name, skill, on = _what(b.state, me, p)
    mod = modifier(b, me, p, dice)
    me = b.state.get(me.id)
    resolve_tags(b.state, me, p.tags, [on])
    opponent = _opponent(b.state, me, on)
    if opponent is not None:
        check_reach(b.state, me, b.state.get(opponent), skill)
    asked = opponent is not None and p.difficulty is None
    if asked and standing_skill(b.state.get(str(opponent)), skill, False, None) is None:
        ask_defence(
            b,
            attacker=me.id,
            target=str(opponent),
            kind="manoeuvre",
            skill=skill,
            modifier=mod,
            params=json.dumps(action.params, sort_keys=True),
            what=f"{title_of(me.id)} manoeuvres for {name} on {title_of(str(opponent))} ({skill})",
        )
        return
    resolve(b, me, p, mod, None, dice)


def answered(
    b: Builder[SceneState], pending: PendingAttack, chosen: acts.Defence, dice: DiceSource
) -> None:
    """Defence: the manoeuvre waiting for its target rolled against the defence she chose."""
    p = acts.MANOEUVRE.parse(json.loads(pending.params))
    resolve(b, b.state.get(pending.attacker), p, pending.modifier, chosen, dice)


def manoeuvre_checks(state: SceneState, pending: PendingAttack) -> list[tuple[str, DefenceCheck]]:
    """Each skill the text allows against the manoeuvre waiting for a defence, best first,
    with the check it would make (no Aspect tagged)."""
    p = acts.MANOEUVRE.parse(json.loads(pending.params))
    me = state.get(pending.attacker)
    _, _, skill, on = _what(state, me, p)
    tags = resolve_tags(state, me, p.tags, [on])
    spec = roll_spec(state, me, p.skill or skill, tags, pending.modifier, p)
    return defence_checks(state, state.get(pending.target), spec, skill)


def resolve(
    b: Builder[SceneState],
    me: Combatant,
    p: acts.Manoeuvre,
    mod: int,
    defence: acts.Defence | None,
    dice: DiceSource,
) -> None:
    """Action: Manoeuvre, rolled: against the defence chosen (or on the table) or a
    difficulty; on a success the Aspect is placed (or removed)."""
    named, name, skill, on = _what(b.state, me, p)
    tags = resolve_tags(b.state, me, p.tags, [on])
    spec = roll_spec(b.state, me, p.skill or skill, tags, mod, p)
    opponent = _opponent(b.state, me, on)

    def announce(
        check: DifficultyCheck | OpposedRoll, result: Resolution, dskill: str, odds: CheckOdds
    ) -> None:
        pay(b, me.id, tags, result.actor)
        against = f"{dskill} of {opponent}" if isinstance(check, OpposedRoll) else "a difficulty"
        b.emit(
            ev.MANOEUVRE_ROLLED,
            {
                "character": me.id,
                "aspect": name,
                "on": on,
                "skill": skill,
                **result.to_json(),
                "odds": odds_json(odds),
                "roll": check_card(
                    check,
                    result,
                    f"{title_of(me.id)} manoeuvres for {name} on {on} ({skill} against {against})",
                    rule="Action: Manoeuvre",
                    odds=odds,
                ),
            },
        )

    if opponent is not None and p.difficulty is None:
        target = b.state.get(opponent)
        result, _ = defend(b, me, target, spec, skill, defence, dice=dice, announce=announce)
    else:
        given = p.difficulty if p.difficulty is not None else DEFAULT_DIFFICULTY
        difficulty = difficulty_number(given)
        fixed = DifficultyCheck(spec, difficulty)
        odds = fixed.odds()
        result = fixed.roll(dice)
        announce(fixed, result, skill, odds)
    if held(b, me, skill, result.total, breaking=on):
        return
    if opponent is not None and p.difficulty is None:
        # Success Levels: "-4 [...] defence gets spin" — against a manoeuvre as against an
        # attack (Rulings)
        defender = b.state.get(opponent)
        if rules.is_spin(result.total, result.total - result.margin):
            spin(b, defender, against=me)
    if not result.is_success:
        return
    if p.remove:
        remove_aspect(b, me, name, on)
        return
    unique = p.unique if p.unique is not None else bool(named and named.unique)
    place(
        b,
        name,
        on=on,
        setter=me.id,
        free_side=me.side,
        unique_to=me.id if unique else None,
        aim=named is not None and named.name == "take aim",
    )
    if named is not None and named.name == "disarm" and opponent is not None:
        b.emit(ev.WEAPON_DROPPED, {"character": opponent, "weapon": b.state.get(opponent).weapon})


# -- the choices


def zones_away(state: SceneState, me: Combatant) -> list[tuple[str, int]]:
    """Each opponent there is a way to, and how many zones away (each manoeuvre's reach is
    measured against these)."""
    return [
        (t.id, d)
        for t in opponents_of(state, me)
        if (d := zones_between(state, me.zone, t.zone)) is not None
    ]


MANOEUVRE_CHOICES_KEPT = 256
"""The most sets of manoeuvre choices kept (:func:`manoeuvre_choices`)."""

_built: dict[tuple[Any, ...], tuple[Choice, ...]] = {}


def manoeuvre_choices(state: SceneState, me: Combatant, release: Release) -> list[Choice]:
    """Action: Manoeuvre: the named manoeuvres on an opponent in their reach, one on oneself,
    and the removal of an Aspect on oneself. They read no more of the scene than who ``me``
    is, the weapon in hand, the skills on the sheet, how far each opponent is, the Aspects on
    ``me`` and whether she grapples: built once for each of those (a simulated duel offered
    the same few at every turn)."""
    away = zones_away(state, me)
    mine = tuple(a.name for a in state.aspects if a.on == me.id)
    skills = tuple(name for name, _ in me.sheet.skills)
    key = (me.id, me.weapon, skills, tuple(away), tuple(release.items()), mine)
    found = _built.get(key)
    if found is None:
        if len(_built) >= MANOEUVRE_CHOICES_KEPT:
            _built.clear()
        found = _built[key] = tuple(_manoeuvre_choices(me, away, mine, skills, release))
    return list(found)


def _manoeuvre_choices(
    me: Combatant,
    away: list[tuple[str, int]],
    mine: tuple[str, ...],
    skills: tuple[str, ...],
    release: Release,
) -> list[Choice]:
    out: list[Choice] = []
    in_hand = weapon_entry(me.weapon)
    for named in (m for m in manoeuvres() if m.on != "self"):
        reach = rules.manoeuvre_reach(named.skill, in_hand)
        within = tuple(t for t, d in away if d <= reach)
        if within:
            out.append(
                Choice(
                    me.id,
                    "manoeuvre",
                    {"named": OneOf((named.name,)), "target": OneOf(within), **release},
                    label=f"{named.name}: {named.aspect} on an opponent ({named.skill})",
                )
            )
    on_self = tuple(m.name for m in manoeuvres() if m.on == "self")
    out.append(
        Choice(
            me.id,
            "manoeuvre",
            {"named": OneOf(on_self), "difficulty": Between(6, 12), **release},
            label="a manoeuvre on oneself",
        )
    )
    out.extend(_own_words(me, away, skills, release))
    if mine:
        removal: dict[str, Domain] = {
            "aspect": OneOf(mine),
            "remove": OneOf((True,)),
            "skill": OneOf(("Agility", "Resolve")),
            "difficulty": Between(6, 12),
            **release,
        }
        out.append(Choice(me.id, "manoeuvre", removal, label="a manoeuvre to remove an Aspect"))
    return out


def own_words_choices(state: SceneState, me: Combatant, release: Release) -> list[Choice]:
    """Action: Manoeuvre: an Aspect in the player's own words ("Sand in His Eyes"), rolled with
    any skill on the sheet: on an opponent in that skill's reach (against their defence), or on
    the scene (against a difficulty). The named manoeuvres are the text's examples, not a
    limit."""
    skills = tuple(name for name, _ in me.sheet.skills)
    return _own_words(me, zones_away(state, me), skills, release)


def _own_words(
    me: Combatant, away: list[tuple[str, int]], skills: tuple[str, ...], release: Release
) -> list[Choice]:
    if not skills:
        return []
    in_hand = weapon_entry(me.weapon)
    reach: list[tuple[str, Domain]] = []
    for skill in skills:
        most = rules.manoeuvre_reach(skill, in_hand)
        within = tuple(t for t, d in away if d <= most)
        if within:
            reach.append((skill, OneOf(within)))
    words = Text("Sand in His Eyes")
    out: list[Choice] = []
    if reach:
        out.append(
            Choice(
                me.id,
                "manoeuvre",
                {
                    "aspect": words,
                    "skill": OneOf(tuple(skill for skill, _ in reach)),
                    "target": Depends("skill", tuple(reach)),
                    **release,
                },
                label="an Aspect in your own words on an opponent",
            )
        )
    out.append(
        Choice(
            me.id,
            "manoeuvre",
            {
                "aspect": words,
                "skill": OneOf(skills),
                "scene": OneOf((True,)),
                "difficulty": Between(6, 12),
                **release,
            },
            label="an Aspect in your own words on the scene",
        )
    )
    return out


# -- the fold: the scene after a Disarm and a weapon recovered


def after_weapon_dropped(state: SceneState, d: Mapping[str, Any]) -> SceneState:
    """Disarm: the weapon is on the floor; fists are what is in hand."""
    me = state.get(str(d["character"]))
    return state.put(evolved(me, weapon="fists", dropped=str(d["weapon"])))


def after_weapon_recovered(state: SceneState, d: Mapping[str, Any]) -> SceneState:
    """Disarm removed: the dropped weapon is back in hand."""
    me = state.get(str(d["character"]))
    return state.put(evolved(me, weapon=str(d["weapon"]), dropped=None))


FOLDS: Mapping[str, SceneFold] = {
    ev.WEAPON_DROPPED: after_weapon_dropped,
    ev.WEAPON_RECOVERED: after_weapon_recovered,
}
"""The scene after each event of this section."""
