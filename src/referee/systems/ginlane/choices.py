"""What each seat may do now, with real domains: who is in reach, which zones, which Aspects.

Gin Lane, "Fighting": before the first turn the referee rolls "Initiative"; then the character
whose turn it is (and anyone Waiting) takes one Full Action; at any time a character may make a
Declaration, pay Maintenance or recover, and the referee awards Experience and ends sessions.
Each :class:`~referee.core.Choice` offers only values the scene allows: attack targets in the
weapon's reach, zones next door with a clear way, sprint paths of at most four zones, Aspects
the character bears (each section's module offers its own: ``fighting.attack_choices``,
``zones.movement_choices``, ...). An attack's choice carries the exact odds against each
target's best defence (everything in a Gin Lane scene is in plain sight, so every seat may see
them).

>>> from referee.systems.ginlane.scene import setup_scene
>>> state = setup_scene({"zones": ["room", "hall"], "links": [["room", "hall"]],
...                      "characters": {"moll": {"weapon": "sword"}, "jack": {}}})
>>> [c.kind for c in legal_actions(state, "referee")][:2], actors(state)  # ruling 44
(['initiative', 'award'], ('referee', 'moll', 'jack'))
"""

from __future__ import annotations

from referee.core import (
    REFEREE,
    ActorId,
    Between,
    Choice,
    OddsPreview,
    OneOf,
    SomeOf,
    Waiting,
)
from referee.core.naming import possessive_of, title_of
from referee.systems.ginlane.answers import defence_choices
from referee.systems.ginlane.aspects import aspect_choices
from referee.systems.ginlane.between_scenes import recovery_and_ritual_choices, sheet_choice
from referee.systems.ginlane.blocks import block_choices
from referee.systems.ginlane.consequences import absorb_choices
from referee.systems.ginlane.fighting import attack_check, attack_choices
from referee.systems.ginlane.grapple import grapple_choices
from referee.systems.ginlane.grenades import throw_choices
from referee.systems.ginlane.manoeuvres import manoeuvre_choices
from referee.systems.ginlane.scene import Combatant, Release, SceneState
from referee.systems.ginlane.turns import turn_choices
from referee.systems.ginlane.zones import movement_choices, sprint_paths

__all__ = ["actors", "attack_check", "legal_actions", "previews", "sprint_paths", "waiting"]


def actors(state: SceneState) -> tuple[ActorId, ...]:
    """Whose move it is: the referee and every character standing before initiative and after
    the fight; during it, whom an attack or a hit waits for, else the character whose turn it
    is and anyone Waiting."""
    if not state.order or state.over:
        # out of a fight anyone may act: the referee, and each character still standing (a
        # Declaration, Maintenance, recovery, a ritual)
        return (REFEREE, *(c.id for c in state.combatants if not c.taken_out))
    if state.pending is not None:  # the attack waits for its target's defence
        return (state.pending.target,)
    if state.hit is not None:  # the hit waits for its target to take it
        return (state.hit.character,)
    current = state.current
    waiting = tuple(c.id for c in state.combatants if c.waiting and c.id != current)
    return (str(current), *waiting)


def _full_actions(state: SceneState, me: Combatant) -> list[Choice]:
    """The Full Actions open on ``me``'s turn ("3. Actions"), each from the module of its
    section; only the fuse while a fizzled grenade of theirs lies waiting ("Fizzle")."""
    if any(f.thrower == me.id for f in state.fizzles):
        if state.current == me.id:
            return [Choice(me.id, "fuse", label="the fizzled grenade's fuse")]
        return []
    grappling = me.block is not None and me.block.kind == "grapple"
    release: Release = {"release": OneOf((True,))} if grappling else {}
    return [
        *attack_choices(state, me, release),
        *manoeuvre_choices(state, me, release),
        *block_choices(state, me, release),
        *grapple_choices(state, me),
        *movement_choices(state, me, release),
        *throw_choices(state, me, release),
        *turn_choices(me, release),
    ]


def legal_actions(state: SceneState, actor: ActorId) -> tuple[Choice, ...]:
    """The choices open to ``actor`` now (see the module's doc)."""
    everyone = tuple(c.id for c in state.combatants)
    if actor == REFEREE:
        out: list[Choice] = []
        if not state.order and any(not c.taken_out for c in state.combatants):
            out.append(Choice(REFEREE, "initiative", label="roll initiative"))
        out += [
            Choice(
                REFEREE, "award", {"points": Between(1, 5), "characters": SomeOf(everyone, least=1)}
            ),
            Choice(REFEREE, "end_scene", label="the end of the scene"),
            Choice(REFEREE, "rest", label="a night's rest for everyone"),
            Choice(REFEREE, "end_session", label="the end of the session"),
            sheet_choice(),
        ]
        return tuple(out)
    if actor not in everyone:
        return ()
    me = state.get(actor)
    if me.taken_out:
        return ()
    asked = defence_choices(state, me) + absorb_choices(state, me)
    if state.pending is not None or state.hit is not None:
        return tuple(asked)
    out = aspect_choices(me) + recovery_and_ritual_choices(me)
    if state.order and not state.over and (actor == state.current or me.waiting):
        out = _full_actions(state, me) + out
    return tuple(out)


def previews(state: SceneState) -> tuple[OddsPreview, ...]:
    """The odds of the attacks whoever's turn it is could make now."""
    if not state.order or state.over or state.current is None:
        return ()
    me = state.get(state.current)
    return tuple(
        odds
        for choice in _full_actions(state, me)
        if choice.kind == "attack"
        for odds in choice.odds
    )


def waiting(state: SceneState, actor: ActorId) -> Waiting | None:
    """Why ``actor`` cannot act now, and until when — only what their seat may know (all of a
    Gin Lane scene is in plain sight): Taken Out ("Taken Out": out of the fight, and the text
    names no return, so it outlasts the scene); an attack or a hit waiting for someone's answer;
    another's turn ("Fighting": "Characters take Turns to act in order of Initiative")."""
    people = {c.id: c for c in state.combatants}
    if actor not in people:
        return None
    me = people[actor]
    if me.taken_out:
        return Waiting(
            actor,
            f"{title_of(actor)} has been Taken Out: the victor decides what happens",
            "for the rest of the scene and after it: the text names no return",
            "Taken Out",
        )
    if state.over:  # (Initiative is rolled once a scene: the next fight waits for its end)
        return Waiting(
            actor,
            "the fight is over",
            "until the referee ends the scene and rolls initiative again",
            "Initiative",
        )
    if not state.order:
        why = "the referee has not rolled initiative"
        return Waiting(actor, why, "until the referee starts a fight", "Initiative")
    asked = state.pending.target if state.pending else state.hit.character if state.hit else None
    if asked == actor:  # the table waits for her: she has her answer to give
        return None
    if state.pending is not None:
        doing = {"attack": "attacks", "manoeuvre": "manoeuvres on", "rush": "rushes"}
        what = (
            f"{title_of(state.pending.attacker)} {doing[state.pending.kind]} "
            f"{title_of(state.pending.target)}"
            if state.pending.kind in doing
            else f"{possessive_of(state.pending.attacker)} grenade goes off"
        )
        return Waiting(
            actor,
            f"{what}: the table waits for {title_of(state.pending.target)} to choose a defence",
            "until the defence is chosen",
            "Defence",
        )
    if state.hit is not None:
        return Waiting(
            actor,
            f"the table waits for {title_of(state.hit.character)} to take "
            f"{title_of(state.hit.attacker)}'s hit",
            "until the hit is taken",
            "Consequences",
        )
    current = str(state.current)
    if current != actor:
        return Waiting(actor, f"it is {title_of(current)}'s Turn", "until your Turn", "Initiative")
    return None
