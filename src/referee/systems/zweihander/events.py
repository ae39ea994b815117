"""The event vocabulary of a Zweihänder table: every kind, its payload, and its narration.

Every event the procedure emits has a kind named here (one constant per kind), a payload
shape (a ``TypedDict``; an event that changes characters also carries ``"characters"``, the
changed fields by character id, and one that rolls a check carries its roll card under
``"roll"`` or ``"rolls"``), and a line of narration from :func:`describe`. The event handed to
:func:`describe` is already redacted for its viewer: a secret part it may not see is absent,
and the narration never mentions it.

>>> from referee.core import Event, Viewer
>>> describe(Event(CHASE_ROUND_ENDED, {"round": 2}), Viewer("referee"))
'End of Round 2.'
>>> describe(Event(EXCHANGE_STARTED, {"npc": "Vollmer", "disposition": "Unfriendly",
...     "participants": ["anna"]}, redacted=("favourable", "unfavourable")), Viewer("alice"))
'A Complex Exchange with Vollmer (Unfriendly) begins: Anna take part.'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypedDict

from referee.core import Event, RollCard, Viewer
from referee.core.naming import possessive, title_of
from referee.systems.zweihander.character import PERIL_TRACK

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


class TestJson(TypedDict):
    """A rolled percentile test as the payloads carry it (``emit.test_json``)."""

    skill: str
    base_chance: int
    difficulty: int
    difficulty_rating: str
    total_chance: int
    assist: bool
    odds: dict[str, str]
    faces: list[int]
    face: int
    margin: int
    outcome: str


class TestRolled(TestJson):
    """``test.rolled``: the test's fields at the top level, and its card."""

    character: str
    roll: dict[str, Any]


class MoraleChecked(TypedDict, total=False):
    """``morale.checked``; ``leadership`` only when a leader tested."""

    foes: str
    conditions: list[str]
    test: TestJson
    leadership: TestJson
    result: str
    gives_up: bool
    flees: bool
    inspired: bool
    rolls: list[dict[str, Any]]


class ChaseStarted(TypedDict):
    """``chase.started``: the ladder, each participant, the pursuers' initiative rolls."""

    ladder: list[str]
    participants: list[dict[str, Any]]
    initiative_rolls: dict[str, dict[str, int]]
    escape_condition: int
    head_start: str | None
    takedown_difficulty: int


class ChaseMoved(TypedDict):
    """``chase.moved``: 1D10 + Movement added to the Value."""

    participant: str
    d10: int
    movement: int
    gained: int
    value: int
    round: int


class ChaseActionTaken(TypedDict):
    """``chase.action_taken``."""

    participant: str
    description: str
    test: TestJson
    change: int
    value: int
    roll: dict[str, Any]


class ChaseAttacked(TypedDict):
    """``chase.attacked``."""

    participant: str
    target: str
    test: TestJson
    cost: int
    value: int
    hit: bool
    damage_ranks: int
    target_loss: int
    target_value: int
    target_slain: bool
    roll: dict[str, Any]


class ChaseCaughtUp(TypedDict):
    """``chase.caught_up``: the Pursuit Value ``was``, lowered to ``value``."""

    participant: str
    escapee: str
    was: int
    value: int


class ChaseTakedown(TypedDict, total=False):
    """``chase.takedown``; ``value`` when the Pursuer loses Value, ``taken_out`` when both go."""

    participant: str
    escapee: str
    test: TestJson
    escapee_test: TestJson
    value: int
    taken_out: list[str]
    result: str
    rolls: list[dict[str, Any]]


class ChaseComplication(TypedDict):
    """``chase.complication``: the rearmost Escapee's Chaos Die."""

    participant: str
    value: int
    faces: list[int]
    odds: str
    complication: bool
    roll: dict[str, Any]


class ChaseFatigue(TypedDict, total=False):
    """``chase.fatigue``; ``peril`` on a failure."""

    participant: str
    test: TestJson
    peril: int
    peril_faces: list[int]
    exhausted: bool
    roll: dict[str, Any]


class ChaseRoundEnded(TypedDict):
    """``chase.round_ended``."""

    round: int


class ChaseEnded(TypedDict):
    """``chase.ended``."""

    reason: str
    round: int


class ChaseGaveUp(TypedDict):
    """``chase.gave_up``."""

    side: str
    round: int


class JourneyStarted(TypedDict):
    """``journey.started``: the route."""

    travellers: list[str]
    stretches: list[dict[str, Any]]


class JourneyRoleCheck(TypedDict, total=False):
    """``journey.role_check``; the Guide's, Survivalist's or Scout's results."""

    role: str
    skill: str
    character: str | None
    assisted_by: list[str]
    unfilled: bool
    test: TestJson
    outcome: str
    result: str
    provisions_per_day: int
    terrain: int
    camp_recovery: str
    toughness_tests: int
    threat: int
    surprise: str | None
    roll: dict[str, Any]


class JourneyToughness(TypedDict):
    """``journey.toughness``: each traveller's test."""

    tests: list[dict[str, Any]]
    unhindered_at_camp: list[str]
    rolls: list[dict[str, Any]]


class JourneyChaos(TypedDict):
    """``journey.chaos``."""

    chaos_dice: int
    faces: list[int]
    odds: str
    encounter: bool
    surprise: str | None
    roll: dict[str, Any]


class JourneyCamp(TypedDict):
    """``journey.camp``: where each traveller's Peril recovers to."""

    hours: int
    recovered: dict[str, str]


class JourneyStretchEnded(TypedDict):
    """``journey.stretch_ended``."""

    stretch: str
    days: int
    provisions_per_day: int
    provisions: int


class JourneyEnded(TypedDict):
    """``journey.ended``."""

    survivors: list[str]
    fortune_points: int


class ForcedMarch(TypedDict):
    """``travel.forced_march``."""

    character: str
    test: TestJson
    incapacitated: bool
    extra_miles: int
    roll: dict[str, Any]


class RecoveryAllowed(TypedDict):
    """``travel.recovery_allowed``."""

    character: str


class SimpleExchange(TypedDict, total=False):
    """``social.simple_exchange``; ``mental_peril`` on a Critical Failure."""

    character: str
    test: TestJson
    mental_peril: int
    peril_faces: list[int]
    roll: dict[str, Any]


class ExchangeStarted(TypedDict, total=False):
    """``exchange.started``; ``favourable`` and ``unfavourable`` are the referee's secret parts."""

    npc: str
    disposition: str
    npc_alignment: str
    npc_class: str
    participants: list[str]
    objectives: str
    stakes: str
    favourable: str
    unfavourable: str


class ExchangeTacticTested(TypedDict, total=False):
    """``exchange.tactic_tested``; ``bumped_by`` is the referee's secret part."""

    character: str
    tactic: str
    test: TestJson
    outcome: str
    disposition_read_as: str
    result: str
    burned_reputation: bool
    fortune_points: int
    mental_peril: int
    peril_faces: list[int]
    bumped_by: str | None
    roll: dict[str, Any]


class ExchangeEnded(TypedDict):
    """``exchange.ended``: the GM's Skills revealed."""

    npc: str
    favourable: str | None
    unfavourable: str | None
    results: dict[str, str]


class MadnessWithstood(TypedDict):
    """``madness.withstood``."""

    character: str
    situation: str
    test: TestJson
    mental_peril: int
    peril_faces: list[int]
    corruption: int
    roll: dict[str, Any]


class CorruptionGained(TypedDict):
    """``corruption.gained``."""

    character: str
    offence: str
    weight: str
    points: int


class CorruptionResolved(TypedDict, total=False):
    """``corruption.resolved``: the end-of-session roll for one character."""

    character: str
    corruption: int
    corruption_die: int | None
    order_gained: int
    chaos_gained: int
    fate_point: bool
    disorder: str | None
    roll: dict[str, Any]


class ReputationAwarded(TypedDict):
    """``reputation.awarded``."""

    character: str
    story_arc: int


class RequisitionMade(TypedDict):
    """``requisition.made``."""

    character: str
    weight: str
    cost: int
    what: str


class RequisitionAvailable(TypedDict):
    """``requisition.available``."""

    character: str
    weight: str


class StableRewarded(TypedDict):
    """``stable.rewarded``."""

    player: str
    rewards: dict[str, int]


PAYLOADS: Mapping[str, type] = {
    TEST_ROLLED: TestRolled,
    MORALE_CHECKED: MoraleChecked,
    CHASE_STARTED: ChaseStarted,
    CHASE_MOVED: ChaseMoved,
    CHASE_ACTION_TAKEN: ChaseActionTaken,
    CHASE_ATTACKED: ChaseAttacked,
    CHASE_CAUGHT_UP: ChaseCaughtUp,
    CHASE_TAKEDOWN: ChaseTakedown,
    CHASE_COMPLICATION: ChaseComplication,
    CHASE_FATIGUE: ChaseFatigue,
    CHASE_ROUND_ENDED: ChaseRoundEnded,
    CHASE_ENDED: ChaseEnded,
    CHASE_GAVE_UP: ChaseGaveUp,
    JOURNEY_STARTED: JourneyStarted,
    JOURNEY_ROLE_CHECK: JourneyRoleCheck,
    JOURNEY_TOUGHNESS: JourneyToughness,
    JOURNEY_CHAOS: JourneyChaos,
    JOURNEY_CAMP: JourneyCamp,
    JOURNEY_STRETCH_ENDED: JourneyStretchEnded,
    JOURNEY_ENDED: JourneyEnded,
    FORCED_MARCH: ForcedMarch,
    RECOVERY_ALLOWED: RecoveryAllowed,
    SIMPLE_EXCHANGE: SimpleExchange,
    EXCHANGE_STARTED: ExchangeStarted,
    EXCHANGE_TACTIC_TESTED: ExchangeTacticTested,
    EXCHANGE_ENDED: ExchangeEnded,
    MADNESS_WITHSTOOD: MadnessWithstood,
    CORRUPTION_GAINED: CorruptionGained,
    CORRUPTION_RESOLVED: CorruptionResolved,
    REPUTATION_AWARDED: ReputationAwarded,
    REQUISITION_MADE: RequisitionMade,
    REQUISITION_AVAILABLE: RequisitionAvailable,
    STABLE_REWARDED: StableRewarded,
}
"""The payload shape of each kind."""

# ----------------------------------------------------------------------------- narration


def _short(card: Mapping[str, Any]) -> str:
    shown = RollCard.from_json(card)
    return f"{shown.shown or shown.faces}: {shown.outcome}"


def _roll(data: Mapping[str, Any]) -> str:
    """The roll in a few words (the card itself is the interfaces' to show in full)."""
    card = data.get("roll")
    if isinstance(card, Mapping) and card.get("card") == "roll":
        return _short(card)
    return ""


def _rolls(data: Mapping[str, Any]) -> str:
    cards = data.get("rolls")
    if not isinstance(cards, list):
        return _roll(data)
    return "; ".join(
        f"{c['label']}: {_short(c)}"
        for c in cards
        if isinstance(c, Mapping) and c.get("card") == "roll"
    )


def _test(data: Mapping[str, Any]) -> str:
    what = data.get("skill") or f"a chance of {data['total_chance']}"
    return f"{data['character']} tests {what} at {data['total_chance']}% — {_roll(data)}."


def _morale(data: Mapping[str, Any]) -> str:
    return f"Morale check for {data['foes']}: {_rolls(data)}. Result: {data['result']}."


def _chase_started(data: Mapping[str, Any]) -> str:
    people = ", ".join(
        f"{title_of(str(p['id']))} ({p['side']}, {p['mode']}, Movement {p['movement']}, "
        f"Value {p['value']})"
        for p in data["participants"]
    )
    return f"A chase begins (Escape Condition {data['escape_condition']} Rounds). Ladder: {people}."


def _chase_moved(data: Mapping[str, Any]) -> str:
    return (
        f"{data['participant']} rolls {data['d10']} + Movement {data['movement']}: "
        f"Value {data['value']}."
    )


def _chase_action(data: Mapping[str, Any]) -> str:
    what = f" ({data['description']})" if data.get("description") else ""
    return (
        f"{data['participant']} takes an Action{what} — {_roll(data)}; "
        f"Value {data['change']:+d} → {data['value']}."
    )


def _chase_attacked(data: Mapping[str, Any]) -> str:
    hit = (
        f"hits: {data['damage_ranks']} Damage ranks, {data['target']} loses {data['target_loss']}"
        if data["hit"]
        else "misses"
    )
    slain = f"; {data['target']} is Slain!" if data.get("target_slain") else ""
    return (
        f"{data['participant']} attacks {data['target']} — {_roll(data)}; {hit}{slain}; "
        f"the attack costs {data['cost']} Value."
    )


def _caught_up(data: Mapping[str, Any]) -> str:
    return (
        f"{data['participant']} catches up with {data['escapee']}: Pursuit Value "
        f"{data['was']} → {data['value']}."
    )


def _takedown(data: Mapping[str, Any]) -> str:
    return (
        f"{data['participant']} attempts a Takedown on {data['escapee']} — {_rolls(data)}; "
        f"{data['result']}."
    )


def _complication(data: Mapping[str, Any]) -> str:
    hit = "a Complication!" if data["complication"] else "no Complication"
    return f"{possessive(data['participant'])} Chaos Die shows {data['faces']}: {hit}"


_PEOPLE = frozenset(
    {
        "character",
        "participant",
        "target",
        "escapee",
        "travellers",
        "participants",
        "survivors",
        "player",
    }
)
"""The fields that name characters (or players): a character has no name but its id, so the
log writes the id capitalised ("anna" reads "Anna")."""


def _named(data: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` with each character's id capitalised for the words (the ids themselves kept
    under ``"_ids"`` for what reads the state's changes by id)."""
    out = dict(data)
    for key in _PEOPLE & out.keys():
        value = out[key]
        if isinstance(value, str):
            out[key] = title_of(value)
        elif isinstance(value, list):
            out[key] = [title_of(v) if isinstance(v, str) else v for v in value]
    out["_ids"] = data
    return out


def _id(data: Mapping[str, Any], key: str) -> str:
    ids = data.get("_ids", data)
    return str(ids[key])


def _condition(data: Mapping[str, Any], who: str) -> str:
    """`` → <Peril condition>`` when the event moved ``who`` on the Peril Condition Track."""
    changed = data.get("characters")
    step = changed.get(who, {}).get("peril") if isinstance(changed, Mapping) else None
    return f" → {PERIL_TRACK[int(step)]}" if isinstance(step, int) else ""


def _fatigue(data: Mapping[str, Any]) -> str:
    peril = (
        f"; {data['peril']} physical Peril{_condition(data, _id(data, 'participant'))}"
        if "peril" in data
        else ""
    )
    out = "; exhausted, out of the chase" if data.get("exhausted") else ""
    return f"{data['participant']} tests fatigue — {_roll(data)}{peril}{out}."


def _journey_started(data: Mapping[str, Any]) -> str:
    names = ", ".join(str(s["name"]) for s in data["stretches"])
    return f"A journey begins for {', '.join(data['travellers'])}: {names}."


def _role_check(data: Mapping[str, Any]) -> str:
    who = data.get("character") or "nobody (an automatic Failure)"
    shown = _roll(data) or "unfilled"
    return f"{data['role']} ({who}) — {shown}: {data['result']}"


def _journey_toughness(data: Mapping[str, Any]) -> str:
    parts = []
    for t in data["tests"]:
        peril = f", {t['peril']} Peril → {t['peril_condition']}" if "peril" in t else ""
        parts.append(f"{title_of(str(t['character']))}: {t['test']['outcome']}{peril}")
    return "Toughness Tests: " + ("; ".join(parts) or "nobody can test") + "."


def _journey_chaos(data: Mapping[str, Any]) -> str:
    if not data["chaos_dice"]:
        return "No Chaos Dice (No Danger)."
    hit = "an encounter!" if data["encounter"] else "nothing"
    surprise = f" ({data['surprise']} get the Surprise Turn)" if data.get("surprise") else ""
    return f"{data['chaos_dice']} Chaos Dice show {data['faces']}: {hit}{surprise}"


def _camp(data: Mapping[str, Any]) -> str:
    parts = ", ".join(f"{title_of(str(c))}: {s}" for c, s in data["recovered"].items())
    return f"The party Strikes Camp for {data['hours']} hours — {parts}."


def _days(n: Any) -> str:
    return f"{n} day" if n == 1 else f"{n} days"


def _stretch_ended(data: Mapping[str, Any]) -> str:
    return (
        f"{data['stretch']} is behind them: {_days(data['days'])}, "
        f"{_days(data['provisions'])} of provisions."
    )


def _journey_ended(data: Mapping[str, Any]) -> str:
    return (
        f"Journey's end: survivors {', '.join(data['survivors']) or 'none'}; "
        f"Fortune Points +{data['fortune_points']}."
    )


def _forced_march(data: Mapping[str, Any]) -> str:
    fate = "Incapacitated!, no recovery for 24 hours" if data["incapacitated"] else "holds on"
    return f"{data['character']} force-marches — {_roll(data)}: {fate}."


def _simple(data: Mapping[str, Any]) -> str:
    peril = f"; {data['mental_peril']} mental Peril" if "mental_peril" in data else ""
    return f"{data['character']} tries a Simple Exchange — {_roll(data)}{peril}."


def _exchange_started(data: Mapping[str, Any]) -> str:
    secret = ""
    if "favourable" in data:
        secret = (
            f" [GM's secret: Favourable {data['favourable']}, Unfavourable {data['unfavourable']}]"
        )
    return (
        f"A Complex Exchange with {data['npc']} ({data['disposition']}) begins: "
        f"{', '.join(data['participants'])} take part.{secret}"
    )


def _tactic(data: Mapping[str, Any]) -> str:
    peril = (
        f"; {data['mental_peril']} mental Peril{_condition(data, _id(data, 'character'))}"
        if "mental_peril" in data
        else ""
    )
    if data.get("burned_reputation"):
        peril += "; a Reputation Point burnt for the Assist Die"
    if data.get("fortune_points"):
        peril += f"; the party gains {data['fortune_points']} Fortune Point"
    bumped = ""
    if data.get("bumped_by"):
        bumped = f" [GM's secret: bumped by the {data['bumped_by']} Skill]"
    return (
        f"{data['character']} uses {data['tactic']} — {_roll(data)}; read as "
        f"{data['outcome']} at {data['disposition_read_as']}: {data['result']}{peril}.{bumped}"
    )


def _exchange_ended(data: Mapping[str, Any]) -> str:
    return (
        f"The exchange with {data['npc']} ends. Favourable Skill: {data['favourable']}; "
        f"Unfavourable Skill: {data['unfavourable']}."
    )


def _madness(data: Mapping[str, Any]) -> str:
    cost = (
        f"; {data['mental_peril']} mental Peril and {data['corruption']} Corruption"
        if data["corruption"]
        else ""
    )
    return f"{data['character']} withstands {data['situation']} — {_roll(data)}{cost}."


def _corruption_gained(data: Mapping[str, Any]) -> str:
    what = f" ({data['offence']})" if data.get("offence") else ""
    return (
        f"{data['character']} gains {data['points']} Corruption for a {data['weight']} "
        f"offence{what}."
    )


def _corruption_resolved(data: Mapping[str, Any]) -> str:
    die = "no roll" if data.get("corruption_die") is None else f"d10 {data['corruption_die']}"
    extra = ""
    if data.get("fate_point"):
        extra = "; ten ranks of Order: a Fate Point, ranks erased"
    if data.get("disorder"):
        extra = f"; ten ranks of Chaos: the Disorder {data['disorder']}, ranks erased"
    return (
        f"{data['character']}: Corruption {data['corruption']} ({die}) → "
        f"+{data['order_gained']} Order, +{data['chaos_gained']} Chaos{extra}."
    )


def _reputation(data: Mapping[str, Any]) -> str:
    return f"{data['character']} earns {data['story_arc']} Reputation for a story arc."


def _requisition(data: Mapping[str, Any]) -> str:
    what = f": {data['what']}" if data.get("what") else ""
    return (
        f"{data['character']} makes a {data['weight']} requisition for {data['cost']} "
        f"Reputation{what}."
    )


def _requisition_available(data: Mapping[str, Any]) -> str:
    return f"{data['character']} may make a {data['weight']} requisition again."


def _stable(data: Mapping[str, Any]) -> str:
    parts = ", ".join(f"{title_of(str(c))} +{r}" for c, r in data["rewards"].items())
    return f"{possessive(data['player'])} stable earns Reward Points: {parts}."


_NARRATORS: Mapping[str, Callable[[Mapping[str, Any]], str]] = {
    TEST_ROLLED: _test,
    MORALE_CHECKED: _morale,
    CHASE_STARTED: _chase_started,
    CHASE_MOVED: _chase_moved,
    CHASE_ACTION_TAKEN: _chase_action,
    CHASE_ATTACKED: _chase_attacked,
    CHASE_CAUGHT_UP: _caught_up,
    CHASE_TAKEDOWN: _takedown,
    CHASE_COMPLICATION: _complication,
    CHASE_FATIGUE: _fatigue,
    CHASE_ROUND_ENDED: lambda d: f"End of Round {d['round']}.",
    CHASE_ENDED: lambda d: f"The chase ends: {d['reason']}.",
    CHASE_GAVE_UP: lambda d: f"The {d['side']}s give up the chase in Round {d['round']}.",
    JOURNEY_STARTED: _journey_started,
    JOURNEY_ROLE_CHECK: _role_check,
    JOURNEY_TOUGHNESS: _journey_toughness,
    JOURNEY_CHAOS: _journey_chaos,
    JOURNEY_CAMP: _camp,
    JOURNEY_STRETCH_ENDED: _stretch_ended,
    JOURNEY_ENDED: _journey_ended,
    FORCED_MARCH: _forced_march,
    RECOVERY_ALLOWED: lambda d: f"{d['character']} may recover from Peril again.",
    SIMPLE_EXCHANGE: _simple,
    EXCHANGE_STARTED: _exchange_started,
    EXCHANGE_TACTIC_TESTED: _tactic,
    EXCHANGE_ENDED: _exchange_ended,
    MADNESS_WITHSTOOD: _madness,
    CORRUPTION_GAINED: _corruption_gained,
    CORRUPTION_RESOLVED: _corruption_resolved,
    REPUTATION_AWARDED: _reputation,
    REQUISITION_MADE: _requisition,
    REQUISITION_AVAILABLE: _requisition_available,
    STABLE_REWARDED: _stable,
}


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
        text = narrate(_named(event.data))
        offences = event.data.get("offences")
        if isinstance(offences, list):
            text += "".join(
                f" {title_of(str(o['character']))} gains {o['points']} Corruption ({o['offence']})."
                for o in offences
            )
        return text
    except (KeyError, TypeError, ValueError):
        return f"{event.kind} (malformed payload)"
