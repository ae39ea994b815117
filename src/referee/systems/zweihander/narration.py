"""The events of a Zweihänder table in words: one narrator per kind of event
(:func:`.events.describe` picks it).

A narrator reads an event's data already redacted for its viewer (a secret part it may not see
is absent, and the words never mention it), each character's id capitalised (:func:`named`:
a character has no name but its id, so "anna" reads "Anna").

>>> chase_moved(named({"participant": "anna", "d10": 4, "movement": 7, "value": 11}))
'Anna rolls 4 + Movement 7: Value 11.'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.core import RollCard
from referee.core.naming import possessive, title_of
from referee.systems.zweihander.character import PERIL_TRACK

__all__ = [
    "camp",
    "caught_up",
    "chase_action_taken",
    "chase_attacked",
    "chase_ended",
    "chase_moved",
    "chase_started",
    "complication",
    "corruption_gained",
    "corruption_resolved",
    "exchange_ended",
    "exchange_started",
    "fatigue",
    "forced_march",
    "gave_up",
    "journey_chaos",
    "journey_ended",
    "journey_started",
    "journey_toughness",
    "madness_withstood",
    "morale_checked",
    "named",
    "offences",
    "recovery_allowed",
    "reputation_awarded",
    "requisition_available",
    "requisition_made",
    "role_check",
    "round_ended",
    "simple_exchange",
    "skill_test",
    "stable_rewarded",
    "stretch_ended",
    "tactic_tested",
    "takedown",
]


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


def skill_test(data: Mapping[str, Any]) -> str:
    what = data.get("skill") or f"a chance of {data['total_chance']}"
    return f"{data['character']} tests {what} at {data['total_chance']}% — {_roll(data)}."


def morale_checked(data: Mapping[str, Any]) -> str:
    return f"Morale check for {data['foes']}: {_rolls(data)}. Result: {data['result']}."


def chase_started(data: Mapping[str, Any]) -> str:
    people = ", ".join(
        f"{title_of(str(p['id']))} ({p['side']}, {p['mode']}, Movement {p['movement']}, "
        f"Value {p['value']})"
        for p in data["participants"]
    )
    rolls = data.get("initiative_rolls") or {}
    rolled = "; ".join(
        f"{title_of(str(who))} 1D10 {r['d10']} + Initiative {r['initiative']} = {r['total']}"
        for who, r in rolls.items()
    )
    initiative = f" Pursuers' Initiative: {rolled}." if rolled else ""
    return (
        f"A chase begins (Escape Condition {data['escape_condition']} Rounds). "
        f"Ladder: {people}.{initiative}"
    )


def chase_moved(data: Mapping[str, Any]) -> str:
    return (
        f"{data['participant']} rolls {data['d10']} + Movement {data['movement']}: "
        f"Value {data['value']}."
    )


def chase_action_taken(data: Mapping[str, Any]) -> str:
    what = f" ({data['description']})" if data.get("description") else ""
    return (
        f"{data['participant']} takes an Action{what} — {_roll(data)}; "
        f"Value {data['change']:+d} → {data['value']}."
    )


def chase_attacked(data: Mapping[str, Any]) -> str:
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


def caught_up(data: Mapping[str, Any]) -> str:
    return (
        f"{data['participant']} catches up with {data['escapee']}: Pursuit Value "
        f"{data['was']} → {data['value']}."
    )


def takedown(data: Mapping[str, Any]) -> str:
    return (
        f"{data['participant']} attempts a Takedown on {data['escapee']} — {_rolls(data)}; "
        f"{data['result']}."
    )


def complication(data: Mapping[str, Any]) -> str:
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


def named(data: Mapping[str, Any]) -> dict[str, Any]:
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


def fatigue(data: Mapping[str, Any]) -> str:
    peril = (
        f"; {data['peril']} physical Peril{_condition(data, _id(data, 'participant'))}"
        if "peril" in data
        else ""
    )
    out = "; exhausted, out of the chase" if data.get("exhausted") else ""
    return f"{data['participant']} tests fatigue — {_roll(data)}{peril}{out}."


def journey_started(data: Mapping[str, Any]) -> str:
    names = ", ".join(str(s["name"]) for s in data["stretches"])
    return f"A journey begins for {', '.join(data['travellers'])}: {names}."


def role_check(data: Mapping[str, Any]) -> str:
    who = data.get("character") or "nobody (an automatic Failure)"
    shown = _roll(data) or "unfilled"
    return f"{data['role']} ({who}) — {shown}: {data['result']}"


def journey_toughness(data: Mapping[str, Any]) -> str:
    parts = []
    for t in data["tests"]:
        peril = f", {t['peril']} Peril → {t['peril_condition']}" if "peril" in t else ""
        parts.append(f"{title_of(str(t['character']))}: {t['test']['outcome']}{peril}")
    return "Toughness Tests: " + ("; ".join(parts) or "nobody can test") + "."


def journey_chaos(data: Mapping[str, Any]) -> str:
    if not data["chaos_dice"]:
        return "No Chaos Dice (No Danger)."
    hit = "an encounter!" if data["encounter"] else "nothing"
    surprise = f" ({data['surprise']} get the Surprise Turn)" if data.get("surprise") else ""
    return f"{data['chaos_dice']} Chaos Dice show {data['faces']}: {hit}{surprise}"


def camp(data: Mapping[str, Any]) -> str:
    parts = ", ".join(f"{title_of(str(c))}: {s}" for c, s in data["recovered"].items())
    return f"The party Strikes Camp for {data['hours']} hours — {parts}."


def _days(n: Any) -> str:
    return f"{n} day" if n == 1 else f"{n} days"


def stretch_ended(data: Mapping[str, Any]) -> str:
    return (
        f"{data['stretch']} is behind them: {_days(data['days'])}, "
        f"{_days(data['provisions'])} of provisions."
    )


def journey_ended(data: Mapping[str, Any]) -> str:
    return (
        f"Journey's end: survivors {', '.join(data['survivors']) or 'none'}; "
        f"Fortune Points +{data['fortune_points']}."
    )


def forced_march(data: Mapping[str, Any]) -> str:
    fate = "Incapacitated!, no recovery for 24 hours" if data["incapacitated"] else "holds on"
    return f"{data['character']} force-marches — {_roll(data)}: {fate}."


def simple_exchange(data: Mapping[str, Any]) -> str:
    peril = f"; {data['mental_peril']} mental Peril" if "mental_peril" in data else ""
    return f"{data['character']} tries a Simple Exchange — {_roll(data)}{peril}."


def exchange_started(data: Mapping[str, Any]) -> str:
    secret = ""
    if "favourable" in data:
        secret = (
            f" [GM's secret: Favourable {data['favourable']}, Unfavourable {data['unfavourable']}]"
        )
    return (
        f"A Complex Exchange with {data['npc']} ({data['disposition']}) begins: "
        f"{', '.join(data['participants'])} take part.{secret}"
    )


def tactic_tested(data: Mapping[str, Any]) -> str:
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


def exchange_ended(data: Mapping[str, Any]) -> str:
    return (
        f"The exchange with {data['npc']} ends. Favourable Skill: {data['favourable']}; "
        f"Unfavourable Skill: {data['unfavourable']}."
    )


def madness_withstood(data: Mapping[str, Any]) -> str:
    # an NPC's Corruption is the GM's (npcs.py): a player reads the Peril alone
    if data.get("corruption"):
        cost = f"; {data['mental_peril']} mental Peril and {data['corruption']} Corruption"
    elif "corruption" not in data and data.get("mental_peril"):
        cost = f"; {data['mental_peril']} mental Peril"
    else:
        cost = ""
    return f"{data['character']} withstands {data['situation']} — {_roll(data)}{cost}."


def corruption_gained(data: Mapping[str, Any]) -> str:
    what = f" ({data['offence']})" if data.get("offence") else ""
    return (
        f"{data['character']} gains {data['points']} Corruption for a {data['weight']} "
        f"offence{what}."
    )


def corruption_resolved(data: Mapping[str, Any]) -> str:
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


def reputation_awarded(data: Mapping[str, Any]) -> str:
    return f"{data['character']} earns {data['story_arc']} Reputation for a story arc."


def requisition_made(data: Mapping[str, Any]) -> str:
    what = f": {data['what']}" if data.get("what") else ""
    return (
        f"{data['character']} makes a {data['weight']} requisition for {data['cost']} "
        f"Reputation{what}."
    )


def requisition_available(data: Mapping[str, Any]) -> str:
    return f"{data['character']} may make a {data['weight']} requisition again."


def stable_rewarded(data: Mapping[str, Any]) -> str:
    parts = ", ".join(f"{title_of(str(c))} +{r}" for c, r in data["rewards"].items())
    return f"{possessive(data['player'])} stable earns Reward Points: {parts}."


def round_ended(data: Mapping[str, Any]) -> str:
    return f"End of Round {data['round']}."


def chase_ended(data: Mapping[str, Any]) -> str:
    return f"The chase ends: {data['reason']}."


def gave_up(data: Mapping[str, Any]) -> str:
    return f"The {data['side']}s give up the chase in Round {data['round']}."


def recovery_allowed(data: Mapping[str, Any]) -> str:
    return f"{data['character']} may recover from Peril again."


def offences(data: Mapping[str, Any]) -> str:
    """The Corruption an event's step gave for its offences (Becoming Incapacitated!)."""
    listed = data.get("offences")
    if not isinstance(listed, list):
        return ""
    return "".join(
        f" {title_of(str(o['character']))} gains {o['points']} Corruption ({o['offence']})."
        for o in listed
    )
