"""Gin Lane's event vocabulary: every kind of event, the shape of its payload, its narration.

Every event a Gin Lane table logs has one of the kinds below (a named constant), a payload of
the :class:`typing.TypedDict` shape named after it (:mod:`~referee.systems.ginlane.payloads`,
by kind in :data:`PAYLOADS`), and one sentence from :func:`describe`. A
rolled check carries its roll card under ``"roll"`` (initiative: a list under ``"rolls"``),
which an interface shows beside the words (the narration does not repeat the dice);
``"rolled"`` keeps the roll as Gin Lane reads it (the two dice that count, tags used and paid)
and ``"odds"`` the exact chances worked out before the dice.

Visibility: everything in a Gin Lane scene happens in plain sight, except a Wait's plan, a
:class:`~referee.core.Secret` part of :data:`WAITING` that only the waiter (and the referee)
sees until they act. :func:`describe` narrates the event as the viewer received it, so a
redacted plan is never in its words.

>>> from referee.core import Event, Viewer
>>> describe(Event(STRESS_TAKEN, {"character": "jack", "track": "Health", "stress": 2,
...                               "box": 2, "taken_out": False}), Viewer("referee"))
'Jack takes 2 Health stress: box 2 is marked'
>>> describe(Event(WAITING, {"character": "moll"}, redacted=("plan",)), Viewer("jack"))
'Moll waits (with a plan of their own)'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from referee.core import Event, Viewer
from referee.core.naming import possessive, titled
from referee.systems.ginlane import payloads as shape

__all__ = [
    "ASPECT_PLACED",
    "ASPECT_REMOVED",
    "ASPECT_TAGGED",
    "ATTACK_DECLARED",
    "ATTACK_MATCH",
    "ATTACK_ROLLED",
    "BLOCK_OVERCOME",
    "BLOCK_SET",
    "BLOCK_TESTED",
    "CHARM_MADE",
    "CONCEDED",
    "CONSEQUENCE_RECOVERING",
    "CONSEQUENCE_TAKEN",
    "DECLARATION_MADE",
    "DEFENCE_ASKED",
    "DEFENCE_ROLLED",
    "DEFENCE_STANDS",
    "FIGHT_OVER",
    "FULL_DEFENCE",
    "GRAPPLE_BROKEN",
    "GRAPPLE_HELD",
    "GRAPPLE_RELEASED",
    "GRAPPLE_SET",
    "GRENADE_ASTRAY",
    "GRENADE_ATTACK",
    "GRENADE_BLAST",
    "GRENADE_FIZZLED",
    "GRENADE_FUSE",
    "GRENADE_THROWN",
    "HIT_LANDED",
    "INITIATIVE_ROLLED",
    "KINDS",
    "MANOEUVRE_ROLLED",
    "MOVED",
    "PAYLOADS",
    "POOL_AWARDED",
    "POOL_SPENT",
    "RESTED",
    "RITUAL_ROLLED",
    "RUSH_ROLLED",
    "SCENE_ENDED",
    "SEIZED",
    "SEIZE_ROLLED",
    "SESSION_ENDED",
    "SHEET_CHECKED",
    "SOMETHING_ELSE",
    "SPIN",
    "SPRINT_ROLLED",
    "STRESS_TAKEN",
    "TAKEN_OUT",
    "TURN_STARTED",
    "WAITING",
    "WAIT_ACTED",
    "WEAPON_DRAWN",
    "WEAPON_DROPPED",
    "WEAPON_RECOVERED",
    "describe",
]

# -- "Initiative" and turns
INITIATIVE_ROLLED = "initiative.rolled"
TURN_STARTED = "turn.started"
WAITING = "waiting"
WAIT_ACTED = "wait.acted"
FULL_DEFENCE = "full_defence"
SOMETHING_ELSE = "something_else"
FIGHT_OVER = "fight.over"
SCENE_ENDED = "scene.ended"
# -- "Aspects", "Team Work", "Declarations", "The Free Experience Pool"
ASPECT_PLACED = "aspect.placed"
ASPECT_REMOVED = "aspect.removed"
ASPECT_TAGGED = "aspect.tagged"
DECLARATION_MADE = "declaration.made"
POOL_SPENT = "pool.spent"
POOL_AWARDED = "pool.awarded"
# -- "Action: Attack", "Defence", "Spin", "Action: Manoeuvre", "Disarm"
ATTACK_DECLARED = "attack.declared"
ATTACK_ROLLED = "attack.rolled"
ATTACK_MATCH = "attack.match"
DEFENCE_ASKED = "defence.asked"
DEFENCE_ROLLED = "defence.rolled"
DEFENCE_STANDS = "defence.stands"
SPIN = "spin"
MANOEUVRE_ROLLED = "manoeuvre.rolled"
WEAPON_DROPPED = "weapon.dropped"
WEAPON_RECOVERED = "weapon.recovered"
WEAPON_DRAWN = "weapon.drawn"
# -- "Action: Block", "Hold a thing", "Grapple"
BLOCK_SET = "block.set"
BLOCK_TESTED = "block.tested"
BLOCK_OVERCOME = "block.overcome"
SEIZE_ROLLED = "seize.rolled"
SEIZED = "seized"
GRAPPLE_SET = "grapple.set"
GRAPPLE_HELD = "grapple.held"
GRAPPLE_BROKEN = "grapple.broken"
GRAPPLE_RELEASED = "grapple.released"
RUSH_ROLLED = "rush.rolled"
# -- "Zones", "Action: Sprint"
MOVED = "moved"
SPRINT_ROLLED = "sprint.rolled"
# -- "Grenades"
GRENADE_THROWN = "grenade.thrown"
GRENADE_ASTRAY = "grenade.astray"
GRENADE_ATTACK = "grenade.attack"
GRENADE_BLAST = "grenade.blast"
GRENADE_FIZZLED = "grenade.fizzled"
GRENADE_FUSE = "grenade.fuse"
# -- "Stress Tracks", "Taken Out", "Consequences", "Stress Recovery"
STRESS_TAKEN = "stress.taken"
TAKEN_OUT = "taken_out"
CONCEDED = "conceded"
HIT_LANDED = "hit.landed"
CONSEQUENCE_TAKEN = "consequence.taken"
CONSEQUENCE_RECOVERING = "consequence.recovering"
RESTED = "rested"
SESSION_ENDED = "session.ended"
# -- "Characters", "How you do magic"
SHEET_CHECKED = "sheet.checked"
RITUAL_ROLLED = "ritual.rolled"
CHARM_MADE = "charm.made"


PAYLOADS: Mapping[str, type] = {
    INITIATIVE_ROLLED: shape.InitiativeRolled,
    TURN_STARTED: shape.TurnStarted,
    WAITING: shape.Waiting,
    WAIT_ACTED: shape.WaitActed,
    FULL_DEFENCE: shape.Character,
    SOMETHING_ELSE: shape.SomethingElse,
    FIGHT_OVER: shape.FightOver,
    SCENE_ENDED: shape.SceneEnded,
    ASPECT_PLACED: shape.AspectPlaced,
    ASPECT_REMOVED: shape.AspectRemoved,
    ASPECT_TAGGED: shape.AspectTagged,
    DECLARATION_MADE: shape.DeclarationMade,
    POOL_SPENT: shape.PoolSpent,
    POOL_AWARDED: shape.PoolAwarded,
    ATTACK_DECLARED: shape.AttackDeclared,
    ATTACK_ROLLED: shape.AttackRolled,
    ATTACK_MATCH: shape.AttackMatch,
    DEFENCE_ASKED: shape.DefenceAsked,
    DEFENCE_ROLLED: shape.DefenceRolled,
    DEFENCE_STANDS: shape.DefenceStands,
    SPIN: shape.Spin,
    MANOEUVRE_ROLLED: shape.ManoeuvreRolled,
    WEAPON_DROPPED: shape.Weapon,
    WEAPON_RECOVERED: shape.Weapon,
    WEAPON_DRAWN: shape.Weapon,
    BLOCK_SET: shape.BlockSet,
    BLOCK_TESTED: shape.BlockTested,
    BLOCK_OVERCOME: shape.BlockOvercome,
    SEIZE_ROLLED: shape.SeizeRolled,
    SEIZED: shape.Seized,
    GRAPPLE_SET: shape.GrappleSet,
    GRAPPLE_HELD: shape.GrappleHeld,
    GRAPPLE_BROKEN: shape.GrappleBroken,
    GRAPPLE_RELEASED: shape.GrappleReleased,
    RUSH_ROLLED: shape.RushRolled,
    MOVED: shape.Moved,
    SPRINT_ROLLED: shape.SprintRolled,
    GRENADE_THROWN: shape.GrenadeThrown,
    GRENADE_ASTRAY: shape.GrenadeAstray,
    GRENADE_ATTACK: shape.GrenadeAttack,
    GRENADE_BLAST: shape.GrenadeBlast,
    GRENADE_FIZZLED: shape.GrenadeFizzled,
    GRENADE_FUSE: shape.GrenadeFuse,
    STRESS_TAKEN: shape.StressTaken,
    TAKEN_OUT: shape.TakenOut,
    CONCEDED: shape.Conceded,
    HIT_LANDED: shape.HitLanded,
    CONSEQUENCE_TAKEN: shape.ConsequenceTaken,
    CONSEQUENCE_RECOVERING: shape.ConsequenceRecovering,
    RESTED: shape.Rested,
    SESSION_ENDED: shape.SessionEnded,
    SHEET_CHECKED: shape.SheetChecked,
    RITUAL_ROLLED: shape.RitualRolled,
    CHARM_MADE: shape.CharmMade,
}
"""The payload shape of each kind."""

KINDS = frozenset(PAYLOADS)
"""Every event kind a Gin Lane table logs."""


# ------------------------------------------------------------------------------ narration


def _outcome(d: Mapping[str, Any]) -> str:
    outcome = d.get("outcome")
    if outcome == "success":
        return f"succeeds ({d.get('success_level', '')}, by {d.get('margin')})"
    if outcome == "match":
        return "is a Match"
    return f"fails (by {-int(d.get('margin', 0))})"


def _initiative(d: Mapping[str, Any]) -> str:
    order = ", ".join(d.get("order", []))
    return f"Initiative: {d.get('winner')} wins and goes first; the order is {order}"


def _waiting(d: Mapping[str, Any]) -> str:
    if "plan" in d:
        return f"{d['character']} waits, planning to {d['plan']}"
    return f"{d['character']} waits (with a plan of their own)"


def _placed(d: Mapping[str, Any]) -> str:
    where = "the scene" if d.get("on") == "scene" else d.get("on")
    extra = f", unique to {d['unique_to']}" if d.get("unique_to") else ""
    return f"the Aspect {d.get('name')} is placed on {where} by {d.get('setter')}{extra}"


def _tagged(d: Mapping[str, Any]) -> str:
    how = "free" if d.get("free") else "for a point"
    return f"{d.get('character')} tags {d.get('aspect')} ({how})"


def _attack(d: Mapping[str, Any]) -> str:
    return (
        f"{d['character']} attacks {d['target']} with {d.get('skill')} ({d.get('weapon')}): "
        f"{d.get('total')} against {d.get('defence_skill')} {d.get('defence')}"
    )


def _defence(d: Mapping[str, Any]) -> str:
    full = " on Full defence" if d.get("full_defence") else ""
    return f"{d['character']} defends with {d.get('skill')}{full}: {d.get('total')}"


def _manoeuvre(d: Mapping[str, Any]) -> str:
    return (
        f"{d['character']} manoeuvres for {d.get('aspect')} on {d.get('on')} with "
        f"{d.get('skill')} and {_outcome(d)}"
    )


def _block_tested(d: Mapping[str, Any]) -> str:
    if "outcome" in d:
        return (
            f"{d.get('character')} tries to get past {possessive(str(d.get('blocker')))} Block "
            f"({d.get('strength')}) and {_outcome(d)}"
        )
    blocker = possessive(str(d.get("blocker")))
    return f"{blocker} Block ({d.get('strength')}) is tested by {d.get('total')}"


def _seize(d: Mapping[str, Any]) -> str:
    against = "" if d.get("against") is None else f" against a Block of {d['against']}"
    return f"{d['character']} tries to seize {d.get('thing')}{against} and {_outcome(d)}"


def _moved(d: Mapping[str, Any]) -> str:
    by = f", pushed by {d['by']}" if d.get("by") else ""
    return f"{d['character']} moves from {d.get('from')} to {d.get('to')}{by}"


def _sprint(d: Mapping[str, Any]) -> str:
    route = " → ".join(d.get("route", [])) or "nowhere"
    return f"{d['character']} sprints with {d.get('points')} points of movement: {route}"


def _stress(d: Mapping[str, Any]) -> str:
    head = f"{d['character']} takes {d.get('stress')} {d.get('track')} stress"
    if d.get("taken_out"):
        return f"{head}: past the end of the track"
    return f"{head}: box {d.get('box')} is marked"


def _consequence(d: Mapping[str, Any]) -> str:
    replaces = f", replacing {d['replaces']}" if d.get("replaces") else ""
    severity = str(d.get("severity"))
    article = "an" if severity[:1] in "aeiou" else "a"
    return (
        f"{d['character']} takes {article} {severity} consequence, {d.get('aspect')} "
        f"(mitigates {d.get('mitigates')} {d.get('track')} stress{replaces})"
    )


def _recovering(d: Mapping[str, Any]) -> str:
    done = ", ".join(d.get("recovered", [])) or "nothing yet"
    days = d.get("days")
    return f"{d['character']} recovers for {days} day{'' if days == 1 else 's'}: {done} recovered"


def _sheet(d: Mapping[str, Any]) -> str:
    if d.get("valid"):
        return f"the sheet of {d.get('name')} is legal"
    return f"the sheet of {d.get('name')} breaks the rules: " + "; ".join(d.get("problems", []))


NARRATION: Mapping[str, Callable[[Mapping[str, Any]], str]] = {
    INITIATIVE_ROLLED: _initiative,
    TURN_STARTED: lambda d: f"round {d.get('round')}: {possessive(d['character'])} turn",
    WAITING: _waiting,
    WAIT_ACTED: lambda d: (
        f"{d['character']} stops waiting and acts now, taking this place"
        + "".join(f" (the plan, sealed till now: {u['content']})" for u in d.get("unsealed", ()))
    ),
    FULL_DEFENCE: lambda d: f"{d['character']} takes Full defence (+2 on defences)",
    SOMETHING_ELSE: lambda d: f"{d['character']} does something else: {d.get('what') or '…'}",
    FIGHT_OVER: lambda d: (
        "the fight is over: " + (", ".join(d.get("standing", [])) or "nobody") + " standing"
    ),
    SCENE_ENDED: lambda d: (
        "the scene ends"
        + (": " + ", ".join(d.get("lapsed", [])) + " lapse" if d.get("lapsed") else "")
    ),
    ASPECT_PLACED: _placed,
    ASPECT_REMOVED: lambda d: f"the Aspect {d.get('name')} on {d.get('on')} is removed",
    ASPECT_TAGGED: _tagged,
    DECLARATION_MADE: lambda d: f"{d['character']} declares, by {d.get('aspect')}: {d.get('fact')}",
    POOL_SPENT: lambda d: f"{d['character']} pays {d.get('points')} from the pool ({d.get('for')})",
    POOL_AWARDED: lambda d: f"{d['character']} is awarded {d.get('points')} Experience",
    ATTACK_DECLARED: lambda d: (
        f"{d['character']} attacks {d.get('target')} with the {d.get('weapon')} "
        f"({d.get('skill')}): {d.get('target')} chooses a defence"
    ),
    ATTACK_ROLLED: _attack,
    ATTACK_MATCH: lambda d: (
        f"a Match: {possessive(d['character'])} attack deals only its weapon's bonus "
        f"({d.get('stress')})"
    ),
    DEFENCE_ASKED: lambda d: f"{d.get('what')}: {d.get('target')} chooses a defence",
    DEFENCE_ROLLED: _defence,
    DEFENCE_STANDS: lambda d: (
        f"{possessive(d['character'])} {d.get('skill')} defence of {d.get('total')} is still on "
        "the table"
    ),
    SPIN: lambda d: (
        f"Spin! {possessive(d['character'])} defence leaves {d.get('against')} Over-Extended"
    ),
    MANOEUVRE_ROLLED: _manoeuvre,
    WEAPON_DROPPED: lambda d: f"{d['character']} is disarmed: the {d.get('weapon')} falls",
    WEAPON_RECOVERED: lambda d: f"{d['character']} picks up the {d.get('weapon')}",
    WEAPON_DRAWN: lambda d: f"{d['character']} draws a {d.get('weapon')}",
    BLOCK_SET: lambda d: (
        f"{d['character']} blocks ({d.get('kind')} {d.get('target')}) "
        f"with {d.get('skill')}: strength {d.get('strength')}"
    ),
    BLOCK_TESTED: _block_tested,
    BLOCK_OVERCOME: lambda d: (
        f"{d['character']} beats {possessive(str(d.get('blocker')))} Block and may "
        f"{d.get('action')}"
    ),
    SEIZE_ROLLED: _seize,
    SEIZED: lambda d: f"{d['character']} seizes {d.get('thing')}",
    GRAPPLE_SET: lambda d: (
        f"{d['character']} "
        f"{'keeps' if d.get('maintained') else 'grapples'} {d.get('target')}"
        f"{'' if not d.get('maintained') else ' in the grapple'}: strength {d.get('strength')}"
    ),
    GRAPPLE_HELD: lambda d: (
        f"{d['character']} is held by {possessive(str(d.get('by')))} grapple "
        f"(strength {d.get('strength')}) and can't do it"
    ),
    GRAPPLE_BROKEN: lambda d: f"{d['character']} breaks {possessive(str(d.get('by')))} grapple",
    GRAPPLE_RELEASED: lambda d: f"{d['character']} releases {d.get('target')}",
    RUSH_ROLLED: lambda d: (
        f"{d['character']} rushes {d.get('target')} towards {d.get('to')} and {_outcome(d)}"
    ),
    MOVED: _moved,
    SPRINT_ROLLED: _sprint,
    GRENADE_THROWN: lambda d: (
        f"{d['character']} throws a grenade into {d.get('zone')} and {_outcome(d)}"
        + (
            f": {d['on_target_missed']} is not On Target (an excess of 3 is needed)"
            if d.get("on_target_missed")
            else ""
        )
    ),
    GRENADE_ASTRAY: lambda d: f"{possessive(d['character'])} grenade goes astray",
    GRENADE_ATTACK: lambda d: (
        f"the grenade in {d.get('zone')} attacks everyone there: {d.get('rolled', {}).get('total')}"
    ),
    GRENADE_BLAST: lambda d: (
        f"{possessive(d['character'])} grenade goes off in {d.get('zone')}: its "
        f"{d.get('attack')} against {', '.join(d.get('victims') or ['nobody'])}"
    ),
    GRENADE_FIZZLED: lambda d: f"the grenade in {d.get('zone')} fizzles: smoke from the fuse",
    GRENADE_FUSE: lambda d: (
        f"the fizzled grenade in {d.get('zone')} {'goes off' if d.get('goes_off') else 'goes phut'}"
    ),
    STRESS_TAKEN: _stress,
    TAKEN_OUT: lambda d: f"{d['character']} is Taken Out by {d.get('by')}",
    CONCEDED: lambda d: f"{d['character']} concedes to {d.get('to')} before the roll",
    HIT_LANDED: lambda d: (
        f"{possessive(str(d.get('by')))} hit lands on {d['character']}: {d.get('stress')} "
        f"{d.get('track')} stress to take on the track or as Consequences"
    ),
    CONSEQUENCE_TAKEN: _consequence,
    CONSEQUENCE_RECOVERING: _recovering,
    RESTED: lambda d: (
        f"{d['character']} rests: Health and Composure clear, the pool is now {d.get('pool')}"
    ),
    SESSION_ENDED: lambda d: (
        f"the session ends for {d['character']}"
        + (": Wealth stress clears" if d.get("wealth_cleared") else "")
        + f"; the pool is {d.get('pool')} for the next"
    ),
    SHEET_CHECKED: _sheet,
    RITUAL_ROLLED: lambda d: (
        f"{possessive(d['character'])} ritual on the path of {d.get('sephira')} "
        f"({d.get('hours')} hours) {_outcome(d)}"
    ),
    CHARM_MADE: lambda d: (
        f"{d.get('maker')} makes a charm of {d.get('sephira')} "
        f"(strength {d.get('strength')}): {d.get('effect') or 'an effect held'}"
    ),
}


_PEOPLE = frozenset({"character", "blocker", "setter", "winner", "order", "maker"})
"""The fields that name characters: a character has no name but its id, so the log writes the id
capitalised ("moll" reads "Moll"; zones and Aspects are written as given)."""
_PEOPLE_BY_KIND: Mapping[str, frozenset[str]] = {
    ATTACK_ROLLED: frozenset({"target"}),
    ATTACK_DECLARED: frozenset({"target"}),
    DEFENCE_ASKED: frozenset({"target"}),
    GRENADE_BLAST: frozenset({"victims", "on_target"}),
    CONCEDED: frozenset({"to"}),
    HIT_LANDED: frozenset({"by"}),
    GRAPPLE_SET: frozenset({"target"}),
    GRAPPLE_RELEASED: frozenset({"target"}),
    RUSH_ROLLED: frozenset({"target"}),
    SPIN: frozenset({"against"}),
    TAKEN_OUT: frozenset({"by"}),
    GRAPPLE_HELD: frozenset({"by"}),
    GRAPPLE_BROKEN: frozenset({"by"}),
    MOVED: frozenset({"by"}),
    ASPECT_PLACED: frozenset({"unique_to"}),
}


def _named(kind: str, data: Mapping[str, Any]) -> dict[str, Any]:
    people = _PEOPLE | _PEOPLE_BY_KIND.get(kind, frozenset())
    if kind == BLOCK_SET and data.get("kind") == "protect":  # a Block protecting someone
        people |= {"target"}
    return titled(data, people)


def describe(event: Event, viewer: Viewer) -> str:
    """The event in words, as ``viewer`` received it (already redacted for them), each
    character by their id capitalised.

    A kind this vocabulary does not know (the kernel's clock) is given as its kind and data.

    >>> describe(Event(ATTACK_MATCH, {"character": "moll_cutpurse", "stress": 2}), Viewer("x"))
    "a Match: Moll Cutpurse's attack deals only its weapon's bonus (2)"
    """
    narrate = NARRATION.get(event.kind)
    if narrate is None:
        data = ", ".join(f"{k}={v!r}" for k, v in event.data.items())
        return f"{event.kind}: {data}" if data else event.kind
    return narrate(_named(event.kind, event.data))
