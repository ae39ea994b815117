"""Variants of the kernel's toy game (``toy_procedure.py``) that several test files play: each
changes one thing the kernel must cope with — no referee, no catalogue, a kind only the
referee takes, a sealed plan, odds that read the time, a procedure of four methods alone."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from referee.core import (
    GREY,
    ActionSpec,
    ActorId,
    Catalogue,
    Choice,
    Event,
    ObstacleCheck,
    OddsPreview,
    Params,
    Viewer,
    Who,
    only,
)
from referee.core.clock import cancel_timer
from referee.core.procedures import Action, Procedure

from .toy_procedure import (
    ATTACK,
    NOTE,
    PERCEIVE,
    RALLY,
    RECALL,
    WRITE_SLIP,
    Toy,
    ToyState,
)


class _Shade(enum.Enum):
    GREY = "grey"
    WHITE = "white"


def _rally(dice: int, obstacle: int) -> ObstacleCheck:
    return ObstacleCheck(dice, obstacle, shade=GREY, open_ended=True)


HOUR = 3600

UNDECIDED = {
    "name": "the game",
    "over": False,
    "winners": [],
    "summary": "",
    "returns": {},
    "conflict": None,
}
"""The JSON of a game's result while nothing decides it: "the game", never over, no conflict."""


class _AfterDark(Toy):
    """The toy game with an empty catalogue (the table parses nothing: a procedure reads the
    parameters as given), where a rally an hour or more into play faces an obstacle one
    higher — odds that read the time of the action."""

    catalogue = Catalogue()

    def odds_of(self, state: ToyState, action: Action, viewer: Viewer) -> Sequence[OddsPreview]:
        if action.kind == "rally":
            rally = RALLY.parse(action.params)
            dark = action.at is not None and action.at >= HOUR
            return (OddsPreview.of(_rally(rally.dice, rally.obstacle + dark), "a rally"),)
        return super().odds_of(state, action, viewer)


class _Nothing(Params):
    """An action that takes no parameters (its model has no field on purpose)."""


JUDGE = ActionSpec("judge", _Nothing, section="Toy: judging", who=Who.REFEREE)


class _Watched(Toy):
    """The toy game where the referee may *judge* any character (a kind only the referee
    takes), any character may *shrug* (a kind the catalogue does not list, so the table has no
    spec for it), a wound is told to its own player in the second person, and each player sees
    the odds of their own characters' next rally (one die fewer per wound)."""

    catalogue = Catalogue([ATTACK, PERCEIVE, WRITE_SLIP, RALLY, RECALL, NOTE, JUDGE])

    def legal_actions(self, state: ToyState, actor: ActorId) -> Sequence[Choice]:
        if actor not in dict(state.characters):
            return ()
        return (Choice(actor, "judge"), Choice(actor, "shrug"))

    def describe(self, event: Event, viewer: Viewer) -> str:
        if event.kind == "wound.taken" and event.data["character"] in viewer.identities:
            return "You take a wound"
        return super().describe(event, viewer)

    def previews(self, state: ToyState, viewer: Viewer) -> Sequence[OddsPreview]:
        return tuple(
            OddsPreview.of(_rally(3 - c.wounds, 1), f"{name} rallies")
            for name, c in state.characters
            if name in viewer.identities
        )


def _handed(action: Action) -> str | None:
    """The name of the type of the parameters the game was handed, or ``None`` for none."""
    return None if action.args is None else type(action.args).__name__


class _Judged(_Watched):
    """The watched toy, where a *judge* or a *shrug* is told — and its odds labelled — by the
    parameters the game was handed: the checked model of its spec, or nothing for a kind with
    no spec."""

    def decide(self, state: ToyState, action: Action, dice: Any) -> Sequence[Event]:
        if action.kind in ("judge", "shrug"):
            return (Event("judged", {"by": action.actor, "args": _handed(action)}),)
        return super().decide(state, action, dice)

    def odds_of(self, state: ToyState, action: Action, viewer: Viewer) -> Sequence[OddsPreview]:
        if action.kind in ("judge", "shrug"):
            return (OddsPreview.of(_rally(1, 1), f"judged on {_handed(action)}"),)
        return super().odds_of(state, action, viewer)


class _Unlisted(_Judged):
    """The judged toy with an empty catalogue: no kind has a spec."""

    catalogue = Catalogue([])


class _Hushed(_Unlisted):
    """The toy without a catalogue, where any character may *hush* the alarm: its timer is
    cancelled."""

    def decide(self, state: ToyState, action: Action, dice: Any) -> Sequence[Event]:
        if action.kind == "hush":
            return (cancel_timer("alarm"),)
        return super().decide(state, action, dice)


class _Planned(_Hushed):
    """The hushed toy where a character may seal a *plan* (a choice sealed with a salt)."""

    def decide(self, state: ToyState, action: Action, dice: Any) -> Sequence[Event]:
        if action.kind == "plan":
            from referee.core.fairness import seal

            public, salt = seal(f"plan of {action.actor}", {"strike": "door"}, dice, only("x"))
            return (Event("planned", {"sealed": public}, secrets=(salt,)),)
        return super().decide(state, action, dice)


class _NoReferee(Toy):
    has_referee = False


@dataclass(frozen=True)
class _Count:
    value: int


class _Counter(Procedure[Any]):
    """A procedure that writes only the four methods: every other one is the kernel's."""

    def initial_state(self, setup: Any) -> Any:
        return setup.get("start", 0) if "boxed" not in setup else _Count(setup["start"])

    def legal_actions(self, state: Any, actor: ActorId) -> Sequence[Choice]:
        return (Choice(actor, "add"),)

    def decide(self, state: Any, action: Action, dice: Any) -> Sequence[Event]:
        return (Event("added"),)

    def evolve(self, state: Any, event: Event) -> Any:
        return state + 1
