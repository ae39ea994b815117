"""Why a character cannot act now, and until when; the envelopes that wait to be opened.

Rules text (Intrigue in the Clouds), "Taking Damage" (the dead do nothing; the Knocked Out
"recover 5 minutes after the combat ends"), "Initiative" (declaring in the order of the Combat
Stat), "Surprise" (no action in the first turn) and "Contingency Envelopes" (an envelope whose
condition is met is opened by its holder: a prompt, rulings 28 and 29).

>>> from referee.systems.intrigue.game import load_game
>>> from referee.systems.intrigue.state import evolved
>>> evening = load_game({"start": "19:00", "characters": {
...     "ann": {"name": "Ann", "number": 12},
...     "bob": {"name": "Bob", "number": 13,
...             "contingency_envelopes": [{"id": "nine", "at": "19:00", "contents": "Run."}]}}})
>>> why_waiting(evening, "ann") is None
True
>>> envelope_prompts(evening)  # Bob's envelope is sealed until its timer fires
()
>>> [p.reason for p in envelope_prompts(evolved(evening, openable=frozenset({"nine"})))]
['your envelope “Open at 19:00” (nine) may be opened now']
"""

from __future__ import annotations

from referee.core import Prompt, Waiting
from referee.core.clock import time_of_day
from referee.systems.intrigue.characters import CharacterId
from referee.systems.intrigue.rounds import can_declare, initiative_rank, pending_declarers
from referee.systems.intrigue.state import IntrigueState

__all__ = ["envelope_prompts", "why_waiting"]


def why_waiting(state: IntrigueState, who: CharacterId) -> Waiting | None:
    """Why ``who`` (who has nothing open to them) waits, in words their own seat may know:
    dead; Knocked Out until the time they wake ("until 19:40"), or until five minutes after
    their combat ends while it goes on; surprised in the first turn; or the characters of
    higher initiative who declare before them. ``None`` where none of these holds."""
    if not state.has_character(who):
        return None
    name = state.name(who)
    status = state.status(who)
    if status.dead:
        return Waiting(who, f"{name} is dead", None, "Taking Damage")
    if status.knocked_out:
        until = (
            f"until {time_of_day(status.wake_due, state.start)}"
            if status.wake_due is not None
            else "until 5 minutes after the combat ends (or a Medicine roll of 14 or more)"
        )
        return Waiting(who, f"{name} is knocked out", until, "Taking Damage")
    combat = state.combat_of(who)
    if combat is None or not combat.in_round:
        return None
    if combat.round == 1 and who in combat.surprised:
        return Waiting(
            who, f"{name} was surprised: no action this first turn", "until round 2", "Surprise"
        )
    if not can_declare(state, combat, who):
        return None
    pending = pending_declarers(state, combat)
    if who not in pending:
        return None
    rank = initiative_rank(state, combat, who)
    before = [c for c in pending if initiative_rank(state, combat, c) > rank]
    if not before:
        return None
    named = ", ".join(state.name(c) for c in before)
    return Waiting(
        who,
        f"{named} declare{'s' if len(before) == 1 else ''} first in {combat.id} "
        f"(higher initiative)",
        "until they have declared",
        "Initiative",
    )


def envelope_prompts(state: IntrigueState) -> tuple[Prompt, ...]:
    """The sealed Contingency Envelopes whose condition is met, as one prompt to each holder to
    open them: at their time, when the engine sees the happening ("Open if shot", Knocked Out,
    robbed, searched) or when the holder reports one — even a Knocked Out holder (ruling 29).
    Secret (the holder's and the referee's), blocking nobody, with no default: "You are on
    your honour only to open them if the condition is met" gives no other answer."""
    waiting: dict[CharacterId, list[str]] = {}
    for e in state.contingency_envelopes:
        if e.id in state.openable and e.id not in state.opened:
            waiting.setdefault(e.holder, []).append(f"“{e.condition.label}” ({e.id})")
    return tuple(
        Prompt(
            holder,
            ("open",),
            "Contingency Envelopes",
            f"your envelope{'s' if len(labels) > 1 else ''} {_listed(labels)} may be opened now",
            blocking=False,
            secret=True,
        )
        for holder, labels in waiting.items()
        if not state.status(holder).dead
    )


def _listed(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
