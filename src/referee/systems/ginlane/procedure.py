"""A Gin Lane scene in play: the :class:`GinLane` procedure (``system: ginlane``).

The procedure is thin: it reads the setup (:mod:`~referee.systems.ginlane.scene`), offers the
choices open now (:mod:`~referee.systems.ginlane.choices`), names for each action kind of its
catalogue (:mod:`~referee.systems.ginlane.actions`) the rule that decides it, in the module of
the text's section (the kernel's :class:`~referee.core.Handlers`: each event is folded once, as
it is emitted), folds the events (:mod:`~referee.systems.ginlane.fold`) and narrates them
(:mod:`~referee.systems.ginlane.events`):

- :mod:`~referee.systems.ginlane.turns`: "Initiative", turns, "Action: Wait", "Action: Full
  defence", "Action: Something Else ?";
- :mod:`~referee.systems.ginlane.zones`: "Zones", moving, "Action: Sprint", "Hold a doorway";
- :mod:`~referee.systems.ginlane.fighting`: "Action: Attack", "Resolving attacks", "Range";
- :mod:`~referee.systems.ginlane.defence`: "Defence" and spin;
- :mod:`~referee.systems.ginlane.answers`: the defence and the hit its target answers;
- :mod:`~referee.systems.ginlane.manoeuvres`: "Action: Manoeuvre", "Disarm";
- :mod:`~referee.systems.ginlane.blocks`: "Action: Block", "Hold a thing";
- :mod:`~referee.systems.ginlane.grapple`: "Grapple", "Releasing the Grapple";
- :mod:`~referee.systems.ginlane.grenades`: "Grenades" and the Fizzle;
- :mod:`~referee.systems.ginlane.consequences`: "Stress Tracks", "Taken Out", "Consequences";
- :mod:`~referee.systems.ginlane.aspects`: tagging, "Declarations", "Maintenance";
- :mod:`~referee.systems.ginlane.between_scenes`: Experience, rest, recovery, sheets, magic.

>>> from referee.core import REFEREE, Action, Table
>>> from referee.dice import ScriptedSource
>>> setup = {"characters": {"moll": {"skills": {"Alertness": 1}},
...                         "jack": {"side": "bravoes"}}}
>>> table = Table.start(PROCEDURE, setup).act(Action(REFEREE, "initiative"),
...                                            ScriptedSource([6, 6, 1, 1]))
>>> table.state.current, [c.kind for c in table.legal_actions("moll")][:3]
('moll', ['attack', 'manoeuvre', 'manoeuvre'])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.core import (
    Action,
    ActorId,
    Choice,
    Event,
    Handlers,
    OddsPreview,
    Procedure,
    Prompt,
    Result,
    RuleError,
    Viewer,
    Waiting,
)
from referee.core.values import JsonObject
from referee.systems.ginlane import (
    answers,
    aspects,
    between_scenes,
    blocks,
    choices,
    consequences,
    fighting,
    grapple,
    grenades,
    manoeuvres,
    turns,
    zones,
)
from referee.systems.ginlane import events as vocabulary
from referee.systems.ginlane.actions import CATALOGUE
from referee.systems.ginlane.fold import evolve
from referee.systems.ginlane.scene import SceneState, setup_scene, state_json
from referee.systems.ginlane.turns import FullAction

__all__ = ["PROCEDURE", "ROLLED", "GinLane", "Probe"]

ROLLED: Mapping[str, str] = {
    "attack": vocabulary.ATTACK_ROLLED,
    "manoeuvre": vocabulary.MANOEUVRE_ROLLED,
}
"""The action kinds whose odds follow their parameters, and the event holding their roll."""


class Probe:
    """Dice for working out which check an action would roll: every die shows its highest face.

    No rule's odds depend on them (odds are worked out before the roll); they only carry a
    step past its earlier rolls (a supplemental move past a held doorway) to the check asked
    about.

    >>> Probe().roll(6)
    6
    """

    def roll(self, sides: int) -> int:
        """The highest face of the die."""
        return sides


class GinLane(Procedure[SceneState]):
    """Gin Lane in play: a fight (or any scene) turn by turn, and recovery between scenes."""

    catalogue = CATALOGUE
    players_see_alike = True  # everything in a scene is in plain sight (visible_state)
    handlers = Handlers(
        {
            "initiative": turns.initiative,
            "attack": FullAction(fighting.attack),
            "defend": answers.answer,
            "concede": fighting.concede,
            "absorb": answers.absorb,
            "manoeuvre": FullAction(manoeuvres.manoeuvre),
            "block": FullAction(blocks.block),
            "grapple": FullAction(grapple.grapple),
            "release": FullAction(grapple.release),
            "seize": FullAction(blocks.seize),
            "overcome": FullAction(blocks.overcome),
            "move": FullAction(zones.move),
            "sprint": FullAction(zones.sprint),
            "wait": FullAction(turns.wait),
            "full_defence": FullAction(turns.full_defence),
            "something_else": FullAction(turns.something_else),
            "throw_grenade": FullAction(grenades.throw_grenade),
            "fuse": grenades.fuse,
            "declare": aspects.declare,
            "maintain": aspects.maintain,
            "end_scene": between_scenes.end_scene,
            "award": between_scenes.award,
            "rest": between_scenes.rest,
            "end_session": between_scenes.end_session,
            "recover": between_scenes.recover,
            "check_sheet": between_scenes.sheet,
            "ritual": between_scenes.ritual,
        },
        rule="Actions",
    )
    """Each action kind of the catalogue and the rule that decides it, in the module of its
    section; a Full Action (:data:`~referee.systems.ginlane.actions.TURN_ACTIONS`) is taken on
    the actor's turn, which passes after it (:class:`~referee.systems.ginlane.turns.FullAction`).
    """

    def initial_state(self, setup: Mapping[str, Any]) -> SceneState:
        """The scene from a setup (:class:`~referee.systems.ginlane.scene.Setup`)."""
        return setup_scene(setup)

    def evolve(self, state: SceneState, event: Event) -> SceneState:
        """The scene after an event (a fold: never rolls, never refuses)."""
        return evolve(state, event)

    def state_json(self, state: SceneState) -> JsonObject:
        """The scene as JSON: what scenario ``expect: path`` reads."""
        return state_json(state)

    def visible_state(self, state: SceneState, viewer: Viewer) -> JsonObject | None:
        """Everything in the scene is in plain sight; a Wait's plan lives only in its event."""
        return state_json(state)

    def actors(self, state: SceneState) -> Sequence[ActorId]:
        """Whose move it is: the referee before initiative; then whoever's turn it is, and
        anyone Waiting (who may act out of turn)."""
        return choices.actors(state)

    def characters(self, state: SceneState) -> Sequence[ActorId]:
        """Every character in the scene (a seat each, by default)."""
        return tuple(c.id for c in state.combatants)

    def legal_actions(self, state: SceneState, actor: ActorId) -> Sequence[Choice]:
        """The choices open to ``actor`` now, each with its parameters' domains."""
        return choices.legal_actions(state, actor)

    def prompts(self, state: SceneState) -> Sequence[Prompt]:
        """The decisions the rules give someone whose turn it is not: the target of an attack,
        a manoeuvre, a bum's rush or a grenade's blast chooses her defence ("Defence"), the
        target of a hit how to take it ("Consequences").
        Everything in a Gin Lane scene is in plain sight: no prompt is secret."""
        asked = (answers.defence_prompt(state), consequences.absorb_prompt(state))
        return tuple(p for p in asked if p is not None)

    def waiting(self, state: SceneState, actor: ActorId) -> Waiting | None:
        """Why a character with no choice now cannot act, and until when
        (:func:`~referee.systems.ginlane.choices.waiting`)."""
        return choices.waiting(state, actor)

    def previews(self, state: SceneState, viewer: Viewer) -> Sequence[OddsPreview]:
        """Odds of the checks the player whose turn it is may roll now (everything in a Gin
        Lane scene is in plain sight, so everyone may see them)."""
        return choices.previews(state)

    def odds_of(self, state: SceneState, action: Action, viewer: Viewer) -> Sequence[OddsPreview]:
        """The exact odds of an attack or a manoeuvre with its parameters as given — above all
        the Aspects tagged — as the rule rolls it: the check is the one :meth:`decide` builds,
        read from the roll card it writes (its odds are worked out before any die is rolled;
        the dice here are a :class:`Probe`, and nothing is kept). Nothing where the rules would
        refuse the action. Everything in a Gin Lane scene is in plain sight: every seat that
        may take the action may see its odds. Other kinds: the odds their choice carries.
        """
        rolled = ROLLED.get(action.kind)
        if rolled is None:
            return super().odds_of(state, action, viewer)
        try:
            events = list(self.decide(state, action, Probe()))
            after = state
            for event in events:
                after = self.evolve(after, event)
            asked = answers.defence_prompt(after)
            if asked is not None and asked.default is not None:
                # the attack waits for a defence: its odds are against her default, her best
                events += self.decide(after, asked.default, Probe())
        except RuleError:
            return ()
        card = next((e.data.get("roll") for e in events if e.kind == rolled), None)
        if not isinstance(card, Mapping):
            return ()
        shown = card.get("odds")
        if not isinstance(shown, Mapping):
            return ()
        tags = action.params.get("tags")
        tagged = [str(t) for t in tags] if isinstance(tags, list | tuple) else []
        label = str(card["label"]) + (
            ", tagging " + ", ".join(tagged) if tagged else ", no Aspect tagged"
        )
        odds = {str(k): str(v) for k, v in shown.items()}
        return (OddsPreview(label, str(card["rule"]), str(card["dice"]), odds),)

    def describe(self, event: Event, viewer: Viewer) -> str:
        """The event in words (:func:`referee.systems.ginlane.events.describe`)."""
        return vocabulary.describe(event, viewer)

    def conflict(self, state: SceneState) -> Result | None:
        """The fight ("Initiative" to "Taken Out"): ``None`` before initiative is rolled;
        over when no more than one side has anyone not Taken Out (``fight.over``); its winner
        that side (none if everyone is Taken Out). ``returns``: +1 each character of the
        winning side, -1 the others. A scene has no end of its own beyond its fights: the
        game is never over (:meth:`result` keeps the kernel's default).
        """
        if not state.order:  # before initiative (``fight.over`` leaves the order be)
            return None
        people = state.combatants
        sides = tuple(dict.fromkeys(c.side for c in people if not c.taken_out))
        if not state.over:
            return Result("the fight", summary=f"round {state.round}: {', '.join(sides)} fighting")
        returns = tuple((c.id, 1 if c.side in sides else -1) for c in people)
        if not sides:
            return Result("the fight", True, (), "everyone is Taken Out", returns)
        left = ", ".join(c.sheet.name for c in people if not c.taken_out)
        return Result(
            "the fight", True, sides, f"{', '.join(sides)} won: {left} still standing", returns
        )


PROCEDURE = GinLane()
"""The procedure scenario files with ``system: ginlane`` play."""
