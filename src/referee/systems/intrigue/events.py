"""The event vocabulary of an evening: every kind, and its narration.

Every event the game logs has a kind named here (:data:`KINDS`), a payload shaped as its
``TypedDict`` in :mod:`~referee.systems.intrigue.payloads` says (the public part and the secret
parts merged, as :attr:`referee.core.Event.data` gives them) with ``names`` beside it (the badge
names of the characters it mentions, by id: :func:`referee.core.naming.with_names`), and one
line of narration from :func:`describe`. ``describe`` is given the event already redacted for
its viewer (:func:`referee.core.view`), so it narrates only what the viewer may know: a part
that was redacted is simply absent.

>>> from referee.core import Event, Secret, Viewer, only, view, Log
>>> made = Event(PERCEPTION_MADE, {"perceiver": "fifteen", "target": "countess", "total": 18,
...     "envelopes": [{"id": "p1", "label": "Give to ALL with a Roll of 16 or more"}],
...     "names": {"fifteen": "Fifteen", "countess": "The Countess"}},
...     secrets=(Secret("contents", {"p1": {"contents": "The pearls are paste.",
...                                          "directions": ""}}, only("fifteen")),))
>>> print(describe(made, Viewer("fifteen")))
Fifteen makes a Perception Check on The Countess: total 18; hands over p1 (Give to ALL with a \
Roll of 16 or more). p1 reads: The pearls are paste.
>>> seen = view(Log().append(made), "countess")[0]
>>> print(describe(seen, Viewer("countess")))
Fifteen makes a Perception Check on The Countess: total 18; hands over p1 (Give to ALL with a \
Roll of 16 or more).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from referee.core import Event, Json, Viewer
from referee.core.naming import name_in, possessive

__all__ = [
    "ATTACK_ROLLED",
    "CHARACTER_DIED",
    "CHARACTER_GRABBED",
    "CHARACTER_KNOCKED_OUT",
    "CHARACTER_SEARCHED",
    "CHARACTER_WOKE",
    "COMBAT_ACTION_LAPSED",
    "COMBAT_ACTION_TAKEN",
    "COMBAT_DECLARED",
    "COMBAT_ENDED",
    "COMBAT_JOINED",
    "COMBAT_MIND_USED",
    "COMBAT_PLACE_RESOLVED",
    "COMBAT_ROUND_ENDED",
    "COMBAT_ROUND_STARTED",
    "COMBAT_STARTED",
    "CONTINGENCY_OPENABLE",
    "CONVERSATION_HELD",
    "DAMAGE_TAKEN",
    "ENVELOPE_OPENED",
    "ESCAPE_ROLLED",
    "HOLD_BREAK_FREE_ROLLED",
    "HOLD_ENDS",
    "ITEM_DRAWN",
    "ITEM_ROBBED",
    "KINDS",
    "MEDICINE_ROLLED",
    "MENTAL_ATTACKED",
    "MENTAL_EFFECT",
    "PERCEPTION_MADE",
    "PERCEPTION_READY",
    "SKILL_ROLLED",
    "describe",
]

# -- Perception Envelopes ------------------------------------------------------------------
PERCEPTION_MADE = "perception.made"
PERCEPTION_READY = "perception.ready"
# -- Contingency Envelopes -----------------------------------------------------------------
CONTINGENCY_OPENABLE = "contingency.openable"
ENVELOPE_OPENED = "envelope.opened"
# -- Skill Rolls, Languages ----------------------------------------------------------------
SKILL_ROLLED = "skill.rolled"
CONVERSATION_HELD = "conversation.held"
# -- Combat --------------------------------------------------------------------------------
ITEM_DRAWN = "item.drawn"
COMBAT_STARTED = "combat.started"
COMBAT_JOINED = "combat.joined"
COMBAT_ROUND_STARTED = "combat.round_started"
COMBAT_MIND_USED = "combat.mind_used"
COMBAT_DECLARED = "combat.declared"
COMBAT_ACTION_TAKEN = "combat.action_taken"
COMBAT_ACTION_LAPSED = "combat.action_lapsed"
COMBAT_PLACE_RESOLVED = "combat.place_resolved"
COMBAT_ROUND_ENDED = "combat.round_ended"
COMBAT_ENDED = "combat.ended"
ATTACK_ROLLED = "attack.rolled"
CHARACTER_GRABBED = "character.grabbed"
HOLD_ENDS = "hold.ends"
HOLD_BREAK_FREE_ROLLED = "hold.break_free_rolled"
ESCAPE_ROLLED = "escape.rolled"
# -- Taking Damage -------------------------------------------------------------------------
DAMAGE_TAKEN = "damage.taken"
CHARACTER_KNOCKED_OUT = "character.knocked_out"
CHARACTER_WOKE = "character.woke"
CHARACTER_DIED = "character.died"
MEDICINE_ROLLED = "medicine.rolled"
CHARACTER_SEARCHED = "character.searched"
ITEM_ROBBED = "item.robbed"
# -- Mental Combat -------------------------------------------------------------------------
MENTAL_ATTACKED = "mental.attacked"
MENTAL_EFFECT = "mental.effect"


KINDS: frozenset[str] = frozenset(
    {
        PERCEPTION_MADE,
        PERCEPTION_READY,
        CONTINGENCY_OPENABLE,
        ENVELOPE_OPENED,
        SKILL_ROLLED,
        CONVERSATION_HELD,
        ITEM_DRAWN,
        COMBAT_STARTED,
        COMBAT_JOINED,
        COMBAT_ROUND_STARTED,
        COMBAT_MIND_USED,
        COMBAT_DECLARED,
        COMBAT_ACTION_TAKEN,
        COMBAT_ACTION_LAPSED,
        COMBAT_PLACE_RESOLVED,
        COMBAT_ROUND_ENDED,
        COMBAT_ENDED,
        ATTACK_ROLLED,
        CHARACTER_GRABBED,
        HOLD_ENDS,
        HOLD_BREAK_FREE_ROLLED,
        ESCAPE_ROLLED,
        DAMAGE_TAKEN,
        CHARACTER_KNOCKED_OUT,
        CHARACTER_WOKE,
        CHARACTER_DIED,
        MEDICINE_ROLLED,
        CHARACTER_SEARCHED,
        ITEM_ROBBED,
        MENTAL_ATTACKED,
        MENTAL_EFFECT,
    }
)
"""Every event kind of the game (the shape of each: :data:`.payloads.PAYLOADS`)."""


# -- narration -----------------------------------------------------------------------------
# A person reads names, not ids: each event carries the badge names of the characters it
# mentions (``"names"``, :func:`referee.core.naming.with_names`).


def _who(d: Mapping[str, Any], ident: Any) -> str:
    return name_in(d, ident)


def _names(d: Mapping[str, Any], value: Json) -> str:
    if isinstance(value, list):
        return ", ".join(_who(d, v) for v in value) or "nobody"
    return _who(d, value)


def _combat(value: Any) -> str:
    return str(value)


def _perception(d: Mapping[str, Any]) -> str:
    line = (
        f"{_who(d, d['perceiver'])} makes a Perception Check on {_who(d, d['target'])}: "
        f"total {d['total']}"
    )
    handed = d.get("envelopes") or []
    if not handed:
        return line + "; no envelope is handed over."
    line += "; hands over " + ", ".join(f"{e['id']} ({e['label']})" for e in handed) + "."
    contents = d.get("contents")
    if isinstance(contents, Mapping):
        for envelope in handed:
            inside = contents.get(envelope["id"])
            if isinstance(inside, Mapping):
                line += f" {envelope['id']} reads: {inside['contents']}"
                if inside.get("directions"):
                    line += f" Directions: {inside['directions']}"
    return line


def _skill(d: Mapping[str, Any]) -> str:
    """A skill roll, with the totals this viewer may know (ruling 3: the loser of a roll
    against another character is told the outcome, not the winner's total)."""
    verdict = "succeeds" if d.get("success") else "fails"
    total = f": {d['total']}" if "total" in d else ""
    if "against" in d:
        theirs = f" {d['against_total']}" if "against_total" in d else ""
        skill = d.get("against_skill", d["skill"])
        against = f" against {possessive(_who(d, d['against']))} {skill}{theirs}"
    else:
        against = f" against {d.get('target')}"
    return f"{_who(d, d['character'])} rolls {d['skill']}{total}{against}: {verdict}."


def _conversation(d: Mapping[str, Any]) -> str:
    line = (
        f"{_who(d, d['speaker'])} speaks in {d['language']} to {_names(d, d.get('listeners', []))}"
    )
    if "content" in d:
        followed = _names(d, d.get("followed_by", []))
        return f'{line} (understood by {followed}): "{d["content"]}"'
    return line + "."


def _attack(d: Mapping[str, Any]) -> str:
    who = "+".join(_who(d, a) for a in d["attackers"])
    what = d.get("ability") or d.get("action", "attack")
    verdict = "hit" if d["hit"] else "miss"
    return (
        f"{who} {what} {_who(d, d['target'])}: {d['total']} against {d['target_number']}: "
        f"{verdict}."
    )


def _damage(d: Mapping[str, Any]) -> str:
    out = ": KNOCKED OUT" if d["knocked_out"] else ""
    stamina = f", Stamina {d['stamina']}" if "stamina" in d else ""
    so_far = f"unnoticed{stamina}" if d.get("aside") else f"{d['total']} this combat{stamina}"
    return f"{_who(d, d['character'])} takes {d['amount']} damage ({d['by']}; {so_far}){out}."


def _escape(d: Mapping[str, Any]) -> str:
    who = _who(d, d["character"])
    if d.get("against") is None:
        return f"{who} escapes: nobody attacked them to beat."
    verdict = "escapes" if d["escaped"] else "fails to escape"
    return (
        f"{who} {verdict}: {d.get('total')} against {possessive(_who(d, d['against']))} "
        f"{d.get('opponent_total')}."
    )


def _woke(d: Mapping[str, Any]) -> str:
    how = "with Medicine" if d.get("how") == "medicine" else "after five minutes"
    line = f"{_who(d, d['character'])} comes round {how}"
    if "wounds" in d:
        line += f", with {d['wounds']} wound(s) marked (Stamina {d.get('stamina')})"
    return line + "."


def _searched(d: Mapping[str, Any]) -> str:
    line = f"{_who(d, d['character'])} searches {_who(d, d['target'])}"
    if "items" not in d and "envelopes" not in d:
        return line + "."
    found = [
        i["name"] if i.get("damage") is None else f"{i['name']} (damage {i['damage']})"
        for i in d.get("items") or []
    ]
    found += [f"envelope {e['id']} ({e['label']})" for e in d.get("envelopes") or []]
    return f"{line}: finds {', '.join(found) or 'nothing'}."


def _declared(d: Mapping[str, Any]) -> str:
    line = f"{_who(d, d['character'])} declares {d['action']}"
    if d.get("target"):
        line += f" on {_who(d, d['target'])}"
    if d.get("ability"):
        line += f" with {d['ability']}"
    if d.get("item"):
        line += f" ({d['item']})"
    if d.get("group"):
        line += f", with {_names(d, d['group'])}"
    return line + f" (initiative {d['rank']})."


def _mental(d: Mapping[str, Any]) -> str:
    verdict = "works" if d["hit"] else "fails"
    line = (
        f"{_who(d, d['attacker'])} uses {d['ability']} on {_who(d, d['target'])}: {d['total']} "
        f"against {d['target_number']}: {verdict}"
    )
    return line + (f" — {d['effect']}" if d.get("effect") else "") + "."


def _openable(d: Mapping[str, Any]) -> str:
    envelopes = ", ".join(str(e) for e in d.get("envelopes") or []) or "nothing"
    return f"{_who(d, d['holder'])} may now open: {envelopes} ({d['why']})."


_SIMPLE: Mapping[str, Callable[[Mapping[str, Any]], str]] = {
    PERCEPTION_READY: lambda d: (
        f"{_who(d, d['perceiver'])} may make a Perception Check on {_who(d, d['target'])} again."
    ),
    CONTINGENCY_OPENABLE: _openable,
    ITEM_DRAWN: lambda d: f"{_who(d, d['character'])} draws {d['item']}.",
    COMBAT_STARTED: lambda d: (
        f"{_who(d, d['starter'])} shouts Combat at {_names(d, d['targets'])}: "
        f"{_combat(d['combat'])} starts."
    ),
    COMBAT_JOINED: lambda d: (
        f"{_who(d, d['character'])} joins {_combat(d['combat'])} on side {d['side']}."
    ),
    COMBAT_ROUND_STARTED: lambda d: f"{_combat(d['combat'])}: round {d['round']} begins.",
    COMBAT_MIND_USED: lambda d: f"{_who(d, d['character'])} ranks by Mind this round.",
    COMBAT_ACTION_TAKEN: lambda d: f"{_who(d, d['character'])} takes their action: {d['action']}.",
    COMBAT_ACTION_LAPSED: lambda d: (
        f"{possessive(_who(d, d['character']))} action lapses: {d['reason']}."
    ),
    COMBAT_PLACE_RESOLVED: lambda d: (
        f"{_combat(d['combat'])}: {_names(d, d['characters'])} resolved."
    ),
    COMBAT_ROUND_ENDED: lambda d: f"{_combat(d['combat'])}: round {d['round']} ends.",
    COMBAT_ENDED: lambda d: f"{_combat(d['combat'])} ends ({d['reason']}).",
    CHARACTER_GRABBED: lambda d: (
        f"{_who(d, d['holder'])} grabs {_who(d, d['held'])}: {_who(d, d['held'])} is Held."
    ),
    HOLD_ENDS: lambda d: (
        f"{_who(d, d['holder'])} no longer Holds {_who(d, d['held'])} ({d['how']})."
    ),
    CHARACTER_KNOCKED_OUT: lambda d: f"{_who(d, d['character'])} is Knocked Out.",
    MENTAL_EFFECT: lambda d: (
        f"{d['ability']} takes effect on {_who(d, d['target'])}: {d['effect']}"
    ),
}


def describe(event: Event, viewer: Viewer) -> str:
    """One line for ``viewer`` (``event`` already redacted for them): what happened, in words,
    naming each character by the name on their badge.

    >>> from referee.core import Event, Viewer
    >>> describe(Event(DAMAGE_TAKEN, {"character": "scarface", "amount": 5, "total": 7,
    ...     "stamina": 5, "by": "knife", "knocked_out": True,
    ...     "names": {"scarface": "ScarFace"}}), Viewer("referee"))
    'ScarFace takes 5 damage (knife; 7 this combat, Stamina 5): KNOCKED OUT.'
    """
    d: dict[str, Any] = dict(event.data)
    kind = event.kind
    if kind == PERCEPTION_MADE:
        return _perception(d)
    if kind == SKILL_ROLLED:
        return _skill(d)
    if kind == CONVERSATION_HELD:
        return _conversation(d)
    if kind == COMBAT_DECLARED:
        return _declared(d)
    if kind == ATTACK_ROLLED:
        return _attack(d)
    if kind == DAMAGE_TAKEN:
        return _damage(d)
    if kind == ESCAPE_ROLLED:
        return _escape(d)
    if kind == CHARACTER_WOKE:
        return _woke(d)
    if kind == MENTAL_ATTACKED:
        return _mental(d)
    if kind == ENVELOPE_OPENED:
        inside = f": {d['contents']}" if "contents" in d else ""
        return f"{_who(d, d['holder'])} opens {d['envelope']} ({d['label']}){inside}"
    if kind == HOLD_BREAK_FREE_ROLLED:
        verdict = "breaks free" if d["broke_free"] else "is still Held"
        who = _who(d, d["character"])
        return f"{who} {verdict}: {d['total']} against {d['holder_total']}."
    if kind == MEDICINE_ROLLED:
        verdict = "wakes" if d["success"] else "stays out"
        target = _who(d, d["target"])
        return f"{_who(d, d['character'])} tends {target}: {d['total']}: {target} {verdict}."
    if kind == CHARACTER_SEARCHED:
        return _searched(d)
    if kind == ITEM_ROBBED:
        taken = f" of {d['item']}" if "item" in d else ""
        return f"{_who(d, d['character'])} robs {_who(d, d['target'])}{taken}."
    if kind == CHARACTER_DIED:
        by = f" at {possessive(_who(d, d['by']))} hand" if d.get("by") else ""
        return f"{_who(d, d['character'])} is dead{by}."
    simple = _SIMPLE.get(kind)
    if simple is not None:
        try:
            return simple(d)
        except KeyError:
            pass
    data = ", ".join(f"{k}={v!r}" for k, v in d.items())
    return f"{kind}: {data}" if data else kind
