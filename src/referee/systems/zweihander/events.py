"""The event vocabulary of a Zweihänder table: every kind, its payload, and its narration.

Every event the procedure emits has a kind named here (one constant per kind), a payload
shape (a ``TypedDict`` of :mod:`.payloads`, by kind in :data:`PAYLOADS`; an event that changes
characters also carries ``"characters"``, the changed fields by character id, and one that
rolls a check carries its roll card under ``"roll"`` or ``"rolls"``), and a line of narration
from :func:`describe` (a narrator of :mod:`.narration` for each kind). The event handed to
:func:`describe` is already redacted for its viewer: a secret part it may not see is absent,
and the narration never mentions it.

>>> from referee.core import REFEREE, Event, Viewer
>>> describe(Event(CHASE_ROUND_ENDED, {"round": 2}), Viewer(REFEREE))
'End of Round 2.'
>>> describe(Event(EXCHANGE_STARTED, {"npc": "Vollmer", "disposition": "Unfriendly",
...     "participants": ["anna"]}, redacted=("favourable", "unfavourable")), Viewer("alice"))
'A Complex Exchange with Vollmer (Unfriendly) begins: Anna take part.'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from referee.core import Event, Viewer
from referee.systems.zweihander import narration as told
from referee.systems.zweihander import payloads as shapes

__all__ = [
    "CHASE_ACTION_TAKEN",
    "CHASE_ATTACKED",
    "CHASE_CAUGHT_UP",
    "CHASE_COMPLICATION",
    "CHASE_ENDED",
    "CHASE_FATIGUE",
    "CHASE_GAVE_UP",
    "CHASE_MOVED",
    "CHASE_ROUND_ENDED",
    "CHASE_STARTED",
    "CHASE_TAKEDOWN",
    "CORRUPTION_GAINED",
    "CORRUPTION_RESOLVED",
    "EXCHANGE_ENDED",
    "EXCHANGE_STARTED",
    "EXCHANGE_TACTIC_TESTED",
    "FORCED_MARCH",
    "JOURNEY_CAMP",
    "JOURNEY_CHAOS",
    "JOURNEY_ENDED",
    "JOURNEY_ROLE_CHECK",
    "JOURNEY_STARTED",
    "JOURNEY_STRETCH_ENDED",
    "JOURNEY_TOUGHNESS",
    "KINDS",
    "MADNESS_WITHSTOOD",
    "MORALE_CHECKED",
    "PAYLOADS",
    "RECOVERY_ALLOWED",
    "REPUTATION_AWARDED",
    "REQUISITION_AVAILABLE",
    "REQUISITION_MADE",
    "SIMPLE_EXCHANGE",
    "STABLE_REWARDED",
    "TEST_ROLLED",
    "describe",
]

# ------------------------------------------------------------------------------- kinds

TEST_ROLLED = "test.rolled"
"""A Skill Test (the d100 core)."""
MORALE_CHECKED = "morale.checked"
"""Combat rules, "Morale checks"."""
CHASE_STARTED = "chase.started"
"""Chase scene rules: the Initiative Ladder is set."""
CHASE_MOVED = "chase.moved"
"""A participant rolls 1D10 + Movement."""
CHASE_ACTION_TAKEN = "chase.action_taken"
"""A participant's described Action."""
CHASE_ATTACKED = "chase.attacked"
"""A Ranged or Magick Attack in a chase."""
CHASE_CAUGHT_UP = "chase.caught_up"
"""A Pursuit Value reached an Escape Value and was lowered to it."""
CHASE_TAKEDOWN = "chase.takedown"
"""A Takedown attempt."""
CHASE_COMPLICATION = "chase.complication"
"""The rearmost Escapee's Chaos Die."""
CHASE_FATIGUE = "chase.fatigue"
"""A fatigue Toughness Test past the Brawn Bonus in Rounds."""
CHASE_ROUND_ENDED = "chase.round_ended"
"""The end of a chase Round."""
CHASE_ENDED = "chase.ended"
"""The chase ends (and why)."""
CHASE_GAVE_UP = "chase.gave_up"
"""A side gives up the chase."""
JOURNEY_STARTED = "journey.started"
"""Wilderness travel rules: the route (travellers and Stretches)."""
JOURNEY_ROLE_CHECK = "journey.role_check"
"""A Role Check (Guide, Survivalist, Scout)."""
JOURNEY_TOUGHNESS = "journey.toughness"
"""One Toughness Test of the Stretch, for every traveller."""
JOURNEY_CHAOS = "journey.chaos"
"""The Threat Level's Chaos Dice."""
JOURNEY_CAMP = "journey.camp"
"""Striking Camp."""
JOURNEY_STRETCH_ENDED = "journey.stretch_ended"
"""The end of a Stretch: its days and provisions."""
JOURNEY_ENDED = "journey.ended"
"""Journey's end."""
FORCED_MARCH = "travel.forced_march"
"""Overland exploration, "Forced march": the Toughness Test."""
RECOVERY_ALLOWED = "travel.recovery_allowed"
"""24 hours after a failed forced march: Peril may be recovered again."""
SIMPLE_EXCHANGE = "social.simple_exchange"
"""Social Intrigue, Simple Exchange."""
EXCHANGE_STARTED = "exchange.started"
"""Social Intrigue, Complex Exchange: it begins (the GM's secret Skills are secret parts)."""
EXCHANGE_TACTIC_TESTED = "exchange.tactic_tested"
"""A Social Tactic Test."""
EXCHANGE_ENDED = "exchange.ended"
"""The Complex Exchange ends and the GM's Skills are revealed."""
MADNESS_WITHSTOOD = "madness.withstood"
"""Madness: a Resolve Test against Stress, Fear or Terror."""
CORRUPTION_GAINED = "corruption.gained"
"""Corruption from an offence."""
CORRUPTION_RESOLVED = "corruption.resolved"
"""Corruption into Order & Chaos at the end of a session."""
REPUTATION_AWARDED = "reputation.awarded"
"""Reputation points for a story arc."""
REQUISITION_MADE = "requisition.made"
"""A requisition (Reputation spent)."""
REQUISITION_AVAILABLE = "requisition.available"
"""A requisition's once-a-day/week/month limit has passed."""
STABLE_REWARDED = "stable.rewarded"
"""Character stable: Reward Points for every member."""

KINDS = frozenset(
    {
        TEST_ROLLED,
        MORALE_CHECKED,
        CHASE_STARTED,
        CHASE_MOVED,
        CHASE_ACTION_TAKEN,
        CHASE_ATTACKED,
        CHASE_CAUGHT_UP,
        CHASE_TAKEDOWN,
        CHASE_COMPLICATION,
        CHASE_FATIGUE,
        CHASE_ROUND_ENDED,
        CHASE_ENDED,
        CHASE_GAVE_UP,
        JOURNEY_STARTED,
        JOURNEY_ROLE_CHECK,
        JOURNEY_TOUGHNESS,
        JOURNEY_CHAOS,
        JOURNEY_CAMP,
        JOURNEY_STRETCH_ENDED,
        JOURNEY_ENDED,
        FORCED_MARCH,
        RECOVERY_ALLOWED,
        SIMPLE_EXCHANGE,
        EXCHANGE_STARTED,
        EXCHANGE_TACTIC_TESTED,
        EXCHANGE_ENDED,
        MADNESS_WITHSTOOD,
        CORRUPTION_GAINED,
        CORRUPTION_RESOLVED,
        REPUTATION_AWARDED,
        REQUISITION_MADE,
        REQUISITION_AVAILABLE,
        STABLE_REWARDED,
    }
)
"""Every kind of event a Zweihänder table emits."""

# ------------------------------------------------------------------------------ payloads

PAYLOADS: Mapping[str, type] = {
    TEST_ROLLED: shapes.TestRolled,
    MORALE_CHECKED: shapes.MoraleChecked,
    CHASE_STARTED: shapes.ChaseStarted,
    CHASE_MOVED: shapes.ChaseMoved,
    CHASE_ACTION_TAKEN: shapes.ChaseActionTaken,
    CHASE_ATTACKED: shapes.ChaseAttacked,
    CHASE_CAUGHT_UP: shapes.ChaseCaughtUp,
    CHASE_TAKEDOWN: shapes.ChaseTakedown,
    CHASE_COMPLICATION: shapes.ChaseComplication,
    CHASE_FATIGUE: shapes.ChaseFatigue,
    CHASE_ROUND_ENDED: shapes.ChaseRoundEnded,
    CHASE_ENDED: shapes.ChaseEnded,
    CHASE_GAVE_UP: shapes.ChaseGaveUp,
    JOURNEY_STARTED: shapes.JourneyStarted,
    JOURNEY_ROLE_CHECK: shapes.JourneyRoleCheck,
    JOURNEY_TOUGHNESS: shapes.JourneyToughness,
    JOURNEY_CHAOS: shapes.JourneyChaos,
    JOURNEY_CAMP: shapes.JourneyCamp,
    JOURNEY_STRETCH_ENDED: shapes.JourneyStretchEnded,
    JOURNEY_ENDED: shapes.JourneyEnded,
    FORCED_MARCH: shapes.ForcedMarch,
    RECOVERY_ALLOWED: shapes.RecoveryAllowed,
    SIMPLE_EXCHANGE: shapes.SimpleExchange,
    EXCHANGE_STARTED: shapes.ExchangeStarted,
    EXCHANGE_TACTIC_TESTED: shapes.ExchangeTacticTested,
    EXCHANGE_ENDED: shapes.ExchangeEnded,
    MADNESS_WITHSTOOD: shapes.MadnessWithstood,
    CORRUPTION_GAINED: shapes.CorruptionGained,
    CORRUPTION_RESOLVED: shapes.CorruptionResolved,
    REPUTATION_AWARDED: shapes.ReputationAwarded,
    REQUISITION_MADE: shapes.RequisitionMade,
    REQUISITION_AVAILABLE: shapes.RequisitionAvailable,
    STABLE_REWARDED: shapes.StableRewarded,
}
"""The payload shape of each kind."""

# ----------------------------------------------------------------------------- narration

_NARRATORS: Mapping[str, Callable[[Mapping[str, Any]], str]] = {
    TEST_ROLLED: told.skill_test,
    MORALE_CHECKED: told.morale_checked,
    CHASE_STARTED: told.chase_started,
    CHASE_MOVED: told.chase_moved,
    CHASE_ACTION_TAKEN: told.chase_action_taken,
    CHASE_ATTACKED: told.chase_attacked,
    CHASE_CAUGHT_UP: told.caught_up,
    CHASE_TAKEDOWN: told.takedown,
    CHASE_COMPLICATION: told.complication,
    CHASE_FATIGUE: told.fatigue,
    CHASE_ROUND_ENDED: told.round_ended,
    CHASE_ENDED: told.chase_ended,
    CHASE_GAVE_UP: told.gave_up,
    JOURNEY_STARTED: told.journey_started,
    JOURNEY_ROLE_CHECK: told.role_check,
    JOURNEY_TOUGHNESS: told.journey_toughness,
    JOURNEY_CHAOS: told.journey_chaos,
    JOURNEY_CAMP: told.camp,
    JOURNEY_STRETCH_ENDED: told.stretch_ended,
    JOURNEY_ENDED: told.journey_ended,
    FORCED_MARCH: told.forced_march,
    RECOVERY_ALLOWED: told.recovery_allowed,
    SIMPLE_EXCHANGE: told.simple_exchange,
    EXCHANGE_STARTED: told.exchange_started,
    EXCHANGE_TACTIC_TESTED: told.tactic_tested,
    EXCHANGE_ENDED: told.exchange_ended,
    MADNESS_WITHSTOOD: told.madness_withstood,
    CORRUPTION_GAINED: told.corruption_gained,
    CORRUPTION_RESOLVED: told.corruption_resolved,
    REPUTATION_AWARDED: told.reputation_awarded,
    REQUISITION_MADE: told.requisition_made,
    REQUISITION_AVAILABLE: told.requisition_available,
    STABLE_REWARDED: told.stable_rewarded,
}
"""The narrator of each kind (:mod:`.narration`)."""


def describe(event: Event, viewer: Viewer) -> str:
    """The event in words, as ``viewer`` sees it (``event`` is already redacted for them),
    each character by their id capitalised.

    Kinds not of this game (the kernel's clock and timers) are told by kind and data.
    """
    narrate = _NARRATORS.get(event.kind)
    if narrate is None:
        data = ", ".join(f"{k}={v!r}" for k, v in event.data.items())
        return f"{event.kind}: {data}" if data else event.kind
    try:
        return narrate(told.named(event.data)) + told.offences(event.data)
    except (KeyError, TypeError, ValueError):
        return f"{event.kind} (malformed payload)"
