"""Why a character cannot act now, and until when (hursagmu-encounters.txt, "Initiative",
"Action", "Waiting", "Round Zero"; the kernel's ``Procedure.waiting``).

"Participants carry out their movement, attacks, or other actions in the order of their
Initiative rolls": a character with no choice open is told whose Initiative comes before his,
or that the round has passed his, or that he is out of the fight. Everything said here is in
the open state every seat sees (the encounter is played in the open), so no seat learns a
secret from it. The attack pending is the kernel's to explain (the prompt the table waits
for): :func:`waiting` says nothing then.

>>> from dataclasses import replace
>>> from referee.systems.hursagmu.setup import encounter_from_setup
>>> state = encounter_from_setup({"characters": {"bob": {}, "marcos": {}}})
>>> state = state.with_fighter("bob", initiative=12).with_fighter("marcos", initiative=15)
>>> waiting(replace(state, phase="action"), "bob").reason
"his Initiative 12 comes after Marcos's 15"
"""

from __future__ import annotations

from referee.core import Waiting
from referee.core.naming import title_of
from referee.systems.hursagmu.recovery import round_done
from referee.systems.hursagmu.state import HELD, Encounter, next_key, on_turn

__all__ = ["waiting"]


def waiting(state: Encounter, who: str) -> Waiting | None:
    """Why ``who`` has no choice now, in the text's words, and until when; ``None`` where the
    kernel says it better (an attack pending: the table waits for its target's answer)."""
    f = state.fighters.get(who)
    if f is None:
        return None
    if not f.conscious:
        return Waiting(
            who,
            f"{title_of(who)} is knocked out: he gets no action",
            "until the Master rules him able again",
            "Action",
        )
    if state.pending is not None:
        return None
    if state.phase == "initiative":
        return _initiative_phase(state, who)
    if state.round == 0 and f.rank != HELD:
        return Waiting(
            who,
            "only the initiators act on round zero; he may only defend if attacked",
            "until round 1",
            "Round Zero",
        )
    if f.holding:
        return Waiting(
            who,
            f"he holds his action over into round {state.round + 1}",
            "until the next round",
            "Waiting",
        )
    mine = next_key(state, who)
    if mine is None:
        return _round_past(state, who)
    return _turn_to_come(state, who, mine)


def _initiative_phase(state: Encounter, who: str) -> Waiting:
    f = state.fighters[who]
    left = [title_of(w) for w, g in state.fighters.items() if g.conscious and g.initiative is None]
    rolled = "he acts first (held over)" if f.held_over else f"he has Initiative {f.initiative}"
    return Waiting(
        who,
        f"{rolled}; {', '.join(left)} still to roll Initiative",
        "until everyone has rolled Initiative",
        "Initiative",
    )


def _round_past(state: Encounter, who: str) -> Waiting:
    f = state.fighters[who]
    if round_done(state):
        return Waiting(
            who,
            f"round {state.round} is over: the Master ends it (Recovery)",
            "until the next round",
            "Recovery",
        )
    if f.plan is not None and len(f.plan) > f.next_step:
        reason = "his declared steps are done; his defences come when he is attacked"
    else:
        reason = f"the round is past his Initiative {f.initiative}"
    return Waiting(who, reason, "until the next round", "Action")


def _turn_to_come(state: Encounter, who: str, mine: tuple[int, int]) -> Waiting:
    ahead = [w for w in on_turn(state) if w != who]
    if not ahead:
        return Waiting(who, "his turn comes once the waiting characters act", None, "Waiting")
    names = " and ".join(title_of(w) for w in ahead)
    until = f"until {names} {'has' if len(ahead) == 1 else 'have'} acted"
    key = next_key(state, ahead[0])
    assert key is not None  # on turn: a next step
    if key[0] > mine[0]:
        why = "held his action over" if key[0] == HELD else "played the waiting game"
        return Waiting(who, f"{names} {why} and acts before everyone this round", until, "Waiting")
    return Waiting(who, f"his Initiative {mine[1]} comes after {names}'s {key[1]}", until, "Action")
