"""The chronicle's structure at the table ("Structure of Play": campaign, chronicle, session,
maneuver, scene, conflict): a refusal names its rule, an action its faction and the phase it
belongs to, an event the factions it mentions; and the new session.

Every handler of the game (:data:`referee.core.decide.Handler`) reads its faction with
:func:`acting_faction` and emits with :func:`tell`, so every event carries the names of the
factions it mentions, as the log says them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeAlias

from referee.core import Action, ActorId, Builder, Event, RuleError, Secret
from referee.core.naming import with_names
from referee.core.values import evolved
from referee.dice import DiceSource
from referee.systems.kingdoms.actions import NEW_SESSION
from referee.systems.kingdoms.events import SESSION_STARTED
from referee.systems.kingdoms.state import Faction, KingdomsState

__all__ = [
    "FOLDS",
    "Fold",
    "acting_faction",
    "faction_name",
    "faction_of",
    "names_of",
    "names_of_ids",
    "new_session",
    "refuse",
    "require_phase",
    "require_under_way",
    "tell",
]

Fold: TypeAlias = Callable[[KingdomsState, Event], KingdomsState]
"""How one kind of event changes the chronicle: never rolls, never refuses."""


def refuse(rule: str, reason: str) -> RuleError:
    """A :class:`RuleError` naming the rule."""
    return RuleError(rule, reason)


def faction_of(state: KingdomsState, actor: ActorId) -> Faction:
    """The faction ``actor`` plays, or a refusal."""
    if actor not in state.factions:
        raise refuse("Factions", f"{actor!r} is not a faction at this table")
    return state.factions[actor]


def require_phase(state: KingdomsState, *phases: str) -> None:
    """Refuse an action out of its phase."""
    if state.phase not in phases:
        raise refuse("Structure of Play", f"not now: the chronicle is in its {state.phase} phase")


def require_under_way(state: KingdomsState, what: str) -> None:
    """Refuse ``what`` once the chronicle is over: "the last Faction standing has rulership
    over the territory" ("Chronicle"), so nothing is played after it is won (or after nobody
    is left standing); the record, its export and the handouts remain."""
    if state.phase == "over":
        raise refuse(
            "Chronicle",
            f"the chronicle is over ({_how_over(state)}): no {what} — "
            "the last Faction standing has rulership over the territory",
        )


def _how_over(state: KingdomsState) -> str:
    if state.winner is None:
        return "nobody is left standing"
    return f"won by {faction_name(state, state.winner)}"


def names_of(state: KingdomsState) -> dict[str, str]:
    """Each faction's name from the set-up, by id, where it has one of its own ("the Elves"):
    what the log says (an event carries the names of the factions it mentions)."""
    return {fid: f.name for fid, f in state.factions.items() if f.name != fid}


def faction_name(state: KingdomsState, fid: str) -> str:
    """The faction ``fid`` by its name from the set-up (its id where it has none)."""
    faction = state.factions.get(fid)
    return faction.name if faction is not None else fid


def names_of_ids(state: KingdomsState, fids: Iterable[str]) -> list[str]:
    """The factions ``fids`` by their names, in the order given: what a refusal lists."""
    return [faction_name(state, f) for f in fids]


def acting_faction(b: Builder[KingdomsState], action: Action) -> Faction:
    """The faction ``action``'s actor plays, or the refusal ("Factions")."""
    return faction_of(b.state, action.actor)


def tell(
    b: Builder[KingdomsState],
    kind: str,
    payload: Mapping[str, Any],
    *,
    secrets: tuple[Secret, ...] = (),
) -> Event:
    """Emit the event ``kind`` into ``b`` (folded at once), with the names of the factions it
    mentions."""
    event = Event(kind, dict(payload), secrets=secrets)
    return b.add(with_names(event, names_of(b.state)))


# -------------------------------------------------------------------------------- sessions


def new_session(b: Builder[KingdomsState], action: Action, dice: DiceSource) -> None:
    """``new_session``: a new day of play; the record keeps sessions."""
    acting_faction(b, action)
    NEW_SESSION.of(action)
    state = b.state
    require_under_way(state, "new session")
    tell(b, SESSION_STARTED, {"session": state.session + 1, "maneuver_number": state.maneuver})


def session_started(state: KingdomsState, event: Event) -> KingdomsState:
    """:data:`SESSION_STARTED`: the session number."""
    data: dict[str, Any] = dict(event.data)
    return evolved(state, session=int(data["session"]))


FOLDS: Mapping[str, Fold] = {SESSION_STARTED: session_started}
"""This section's folds, by event kind."""
