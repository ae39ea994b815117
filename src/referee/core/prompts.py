"""Prompts and results: a game stops to ask a seat, and says when it is over and who won.

DESIGN.md, "The table contract".

- **Prompts.** Mid-procedure, the rules often give a decision to someone other than the seat
  whose turn it is: a defender chooses her defence, a hit character takes a Consequence, a
  knocked-out character opens an envelope "if shot". A game says so with
  :meth:`~referee.core.procedures.Procedure.prompts`: each :class:`Prompt` names who decides
  (``actor``), which action kinds answer (``kinds``), why (``section`` of the text, ``reason`` in
  words, the ``cause`` event), what is taken if they decline (``default``), and whether the
  others wait meanwhile (``blocking``). Prompts are read from the state, so replay, undo, export
  and ``observe`` treat them like the rest of the state. The kernel makes ``to_move``, the
  choices and :meth:`~referee.core.table.Table.act` follow from them (:func:`open_choices`,
  :func:`whose_move`, :func:`check_prompts`): no interface needs to know a game for it.
- **Results.** :meth:`~referee.core.procedures.Procedure.result` says whether the whole game is
  over and who won, :meth:`~referee.core.procedures.Procedure.conflict` the same of the current
  (or last) conflict: a :class:`Result` each, in the spirit of OpenSpiel's
  ``is_terminal``/``returns``. The simulator and the pages read them, never a state key.

>>> from referee.core.procedures import Action
>>> p = Prompt("moll", ("defend",), "Fighting: Defending", "Jack attacks Moll: defend",
...            default=Action("moll", "defend", {"skill": "Agility"}))
>>> p.to_json()["default"]
{'kind': 'defend', 'params': {'skill': 'Agility'}}
>>> Result("the fight", over=True, winners=("heroes",)).to_json()["winners"]
['heroes']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from referee.core.actions import Choice
from referee.core.errors import RuleError
from referee.core.events import REFEREE, Viewer
from referee.core.values import to_json

if TYPE_CHECKING:
    from referee.core.procedures import Action, ActorId, Procedure

__all__ = [
    "Prompt",
    "Result",
    "Waiting",
    "check_prompts",
    "open_choices",
    "prompts_seen_by",
    "waits_of",
    "whose_move",
    "whose_move_seen_by",
]


@dataclass(frozen=True)
class Prompt:
    """A decision the rules give ``actor`` now: the table waits for it.

    - ``actor``: the character, faction or player who decides (the seat playing them, or the
      referee for anyone).
    - ``kinds``: the action kinds that answer it (the game offers them as choices).
    - ``section``: the section of the rules text that gives the decision.
    - ``reason``: why, in words, for the person deciding ("Jack attacks you: choose a defence").
    - ``cause``: the number of the event that raised it, where one did.
    - ``default``: the action taken if they decline, where the text gives one.
    - ``blocking``: whether everyone else waits for it (``False``: others may act meanwhile).
    - ``secret``: whether only the actor's seat (and the referee) may know of it.
    """

    actor: ActorId
    kinds: tuple[str, ...]
    section: str
    reason: str
    cause: int | None = None
    default: Action | None = None
    blocking: bool = True
    secret: bool = False

    def __post_init__(self) -> None:
        if not self.kinds:
            raise ValueError(f"a prompt to {self.actor!r} names the action kinds that answer it")
        if self.default is not None and self.default.kind not in self.kinds:
            raise ValueError(f"the default {self.default.kind!r} does not answer the prompt")

    def is_seen_by(self, viewer: Viewer) -> bool:
        """True if ``viewer`` may know of the prompt: everyone, or (a secret one) the actor's
        seat and the referee."""
        return not self.secret or viewer.is_referee or self.actor in viewer.identities

    def to_json(self) -> dict[str, Any]:
        """``{"actor", "kinds", "section", "reason", "cause", "default", "blocking", "secret"}``."""
        default = self.default
        return {
            "actor": self.actor,
            "kinds": list(self.kinds),
            "section": self.section,
            "reason": self.reason,
            "cause": self.cause,
            "default": (
                None
                if default is None
                else {"kind": default.kind, "params": to_json(default.params)}
            ),
            "blocking": self.blocking,
            "secret": self.secret,
        }


@dataclass(frozen=True)
class Result:
    """Whether a game (or one conflict in it) is over, and who won.

    ``name`` says what is judged ("the chronicle", "the fight at the docks"); ``winners`` are
    sides, characters or factions in the game's own ids; ``summary`` says it in words.
    ``returns`` (optional) scores each participant, as OpenSpiel's ``returns``.
    """

    name: str
    over: bool = False
    winners: tuple[str, ...] = ()
    summary: str = ""
    returns: tuple[tuple[str, int], ...] = ()

    def to_json(self) -> dict[str, Any]:
        """``{"name", "over", "winners", "summary", "returns": {who: score}}``."""
        return {
            "name": self.name,
            "over": self.over,
            "winners": list(self.winners),
            "summary": self.summary,
            "returns": dict(self.returns),
        }


@dataclass(frozen=True)
class Waiting:
    """Why ``actor`` cannot act now, and until when: what a seat with nothing to do is told.

    - ``reason``: in words, for the person waiting ("Moll is knocked out", "the table waits for
      Jack to choose a defence").
    - ``until``: when it ends, in words, where it is known ("until 19:40", "until the next
      round"); ``None`` where nothing says.
    - ``section``: the section of the rules text that holds them back, where one does.
    """

    actor: ActorId
    reason: str
    until: str | None = None
    section: str = ""

    def to_json(self) -> dict[str, Any]:
        """``{"actor", "reason", "until", "section"}``."""
        return {
            "actor": self.actor,
            "reason": self.reason,
            "until": self.until,
            "section": self.section,
        }


def waits_of(
    procedure: Procedure[Any],
    state: Any,
    viewer: Viewer,
    prompts: Sequence[Prompt],
    acting: Sequence[ActorId],
) -> tuple[Waiting, ...]:
    """Why each actor ``viewer`` plays who has no choice now cannot act, and until when.

    ``prompts`` are those ``viewer`` may know of, ``acting`` the actors with a choice open now.
    The game says first (:meth:`~referee.core.procedures.Procedure.waiting`); where it says
    nothing the kernel does: a blocking prompt the table waits for, or whose move it is.
    The referee acts for everyone and is told nothing.
    """
    if viewer.is_referee:
        return ()
    found = []
    for actor in sorted(viewer.characters):
        if actor in acting:
            continue
        said = procedure.waiting(state, actor)
        found.append(
            said if said is not None else _kernel_waiting(procedure, state, actor, prompts, viewer)
        )
    return tuple(found)


def _kernel_waiting(
    procedure: Procedure[Any],
    state: Any,
    actor: ActorId,
    seen: Sequence[Prompt],
    viewer: Viewer,
) -> Waiting:
    blocking = _blocking(procedure.prompts(state))
    if blocking:
        known = [p for p in blocking if p in seen]
        who = ", ".join(dict.fromkeys(p.actor for p in blocking))
        if known:
            return Waiting(
                actor,
                f"the table waits for {who} to decide: {known[0].reason}",
                "until it is answered",
                known[0].section,
            )
        return Waiting(actor, f"the table waits for {who} to decide", "until it is answered")
    movers = [a for a in whose_move_seen_by(procedure, state, viewer) if a != actor]
    if len(movers) == 1:
        return Waiting(actor, f"it is {movers[0]}'s move", "until they have acted")
    if movers:
        names = f"{', '.join(movers[:-1])} and {movers[-1]}"
        return Waiting(actor, f"{names} are to move", "until they have acted")
    return Waiting(actor, "nothing is open to you now")


def _blocking(prompts: Sequence[Prompt]) -> tuple[Prompt, ...]:
    return tuple(p for p in prompts if p.blocking)


def whose_move(procedure: Procedure[Any], state: Any) -> tuple[ActorId, ...]:
    """Who may act now: the prompted actors alone while a blocking prompt waits; otherwise the
    procedure's own answer, then anyone with an open prompt."""
    prompts = procedure.prompts(state)
    blocking = _blocking(prompts)
    if blocking:
        return tuple(dict.fromkeys(p.actor for p in blocking))
    movers = tuple(procedure.actors(state))
    return tuple(dict.fromkeys((*movers, *(p.actor for p in prompts))))


def whose_move_seen_by(
    procedure: Procedure[Any], state: Any, viewer: Viewer
) -> tuple[ActorId, ...]:
    """:func:`whose_move` as ``viewer`` may know it: an actor who is to move only because of a
    secret, non-blocking prompt ``viewer`` may not see is left out (that they have anything to
    do tells of the prompt: a knocked-out character asked to open an envelope). A blocking
    prompt stops the table, which everyone sees, so its actor stays named."""
    moving = whose_move(procedure, state)
    if viewer.is_referee:
        return moving
    prompts = procedure.prompts(state)
    if _blocking(prompts):
        return moving
    hidden = {p.actor for p in prompts if not p.is_seen_by(viewer)} - set(procedure.actors(state))
    return tuple(a for a in moving if a not in hidden)


def open_choices(procedure: Procedure[Any], state: Any, actor: ActorId) -> tuple[Choice, ...]:
    """The choices open to ``actor`` now, the prompts taken into account.

    While a blocking prompt waits, only its actor has choices, and only those that answer it.
    Otherwise the choices that answer ``actor``'s prompts come first (marked ``prompt``),
    then the rest.
    """
    prompts = procedure.prompts(state)
    if not prompts:
        return tuple(procedure.legal_actions(state, actor))
    blocking = _blocking(prompts)
    if blocking and all(p.actor != actor for p in blocking):
        return ()
    mine = [p for p in (blocking or prompts) if p.actor == actor]
    answering = {kind for p in mine for kind in p.kinds}
    offered = tuple(procedure.legal_actions(state, actor))
    first = tuple(c.answering() for c in offered if c.kind in answering)
    if blocking:
        return first
    return first + tuple(c for c in offered if c.kind not in answering)


def check_prompts(procedure: Procedure[Any], state: Any, action: Action) -> None:
    """Refuse ``action`` if a blocking prompt waits for someone else, or for this actor to
    answer it with another kind (:class:`RuleError` naming the prompt's section and reason)."""
    prompts = procedure.prompts(state)
    if not prompts:
        return
    blocking = _blocking(prompts)
    if not blocking:
        return
    mine = [p for p in blocking if p.actor == action.actor]
    if not mine:
        first = blocking[0]
        waiting = ", ".join(dict.fromkeys(p.actor for p in blocking))
        raise RuleError(first.section, f"the table waits for {waiting} to decide: {first.reason}")
    if all(action.kind not in p.kinds for p in mine):
        kinds = ", ".join(dict.fromkeys(k for p in mine for k in p.kinds))
        raise RuleError(
            mine[0].section, f"{action.actor} must first answer: {mine[0].reason} ({kinds})"
        )


def prompts_seen_by(procedure: Procedure[Any], state: Any, viewer: Viewer) -> tuple[Prompt, ...]:
    """The prompts ``viewer`` may know of: their own first, then the others they may see."""
    seen = [p for p in procedure.prompts(state) if p.is_seen_by(viewer)]
    own = [p for p in seen if p.actor in viewer.identities or p.actor == REFEREE]
    return tuple(own + [p for p in seen if p not in own])
