"""The event vocabulary of a Burning Kingdoms table: every kind, its payload, its narration.

Each kind is a constant here and nowhere else is its string written. Each payload's shape is a
``TypedDict`` in :mod:`.payloads` (what the folds read). :func:`describe` tells an event in
words as a viewer sees it: the event it is given is already redacted for that viewer (a sealed
slip's content is gone until the reveal), and it never narrates a redacted part.

Every rolled test carries a roll card (:class:`~referee.core.RollCard`) under ``"roll"`` (a
Harry's two pools and a tie-breaker's two sides under ``"rolls"``), which interfaces show
beside the narration (it is not repeated in the words); the Burning Wheel pool as rolled, stage
by stage, stays under ``"pool_roll"`` for the after-the-roll artha.

>>> from referee.core import Event, Secret, Viewer, only
>>> slip = Event(SLIP_WRITTEN, {"faction": "orcs", "maneuver_number": 1, "rewritten": False},
...              secrets=(Secret("slip", {"maneuver": "Sap", "skill": "Firebombs",
...                                       "targets": ["elves"]}, only("orcs")),))
>>> describe(slip.seen_by(Viewer("orcs")), Viewer("orcs"))
"The Orcs' maneuver slip is sealed: Sap with Firebombs against the Elves"
>>> describe(slip.seen_by(Viewer("elves")), Viewer("elves"))
"The Orcs' maneuver slip is sealed (hidden until the reveal)"
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from referee.core import Event, Viewer
from referee.core.naming import name_in, possessive, title_of

__all__ = [
    "AFFILIATION_BOUGHT",
    "ARTHA_SPENT",
    "CHRONICLE_BEGAN",
    "CHRONICLE_ENDED",
    "CHRONICLE_WON",
    "CONQUEROR_NAMED",
    "EFFECT_APPLIED",
    "HEALTH_TESTED",
    "KINDS",
    "LEADER_JOINED",
    "MAINTENANCE_TESTED",
    "MANEUVER_ENDED",
    "MANEUVER_RESOLVED",
    "MANEUVER_STARTED",
    "OBJECTIVE_SET",
    "PROLOGUE_ENDED",
    "PROLOGUE_ROLLED",
    "ROLL_KEPT",
    "SCENES_PASSED",
    "SCENE_PLAYED",
    "SESSION_STARTED",
    "SLIPS_REVEALED",
    "SLIP_WRITTEN",
    "TEST_ROLLED",
    "TIE_BREAK_OFFERED",
    "TIE_BREAK_ROLLED",
    "describe",
]

CHRONICLE_BEGAN = "chronicle.began"
"""Play starts: the territory and every faction's leader as the table knows them."""
PROLOGUE_ROLLED = "prologue.rolled"
"""A Faction Leader's prologue test ("Prologues"): successes add to disposition."""
PROLOGUE_ENDED = "prologue.ended"
"""Every prologue is rolled: the narration order and the disposition cap."""
SESSION_STARTED = "session.started"
"""A new session of the chronicle ("Structure of Play")."""
OBJECTIVE_SET = "objective.set"
"""A faction's Chronicle Objective."""
SLIP_WRITTEN = "slip.written"
"""A sealed maneuver slip: its content a secret of the writer until the reveal."""
SCENE_PLAYED = "scene.played"
"""A scene of the scene economy (a building scene's roll, a conflict's reported outcome)."""
SCENES_PASSED = "scenes.passed"
"""A faction has spent or passed its scenes this maneuver."""
HEALTH_TESTED = "health.tested"
"""A wounded character's Health test ("Wound Recovery")."""
SLIPS_REVEALED = "slips.revealed"
"""Every slip read at once, with each engagement's odds before the dice."""
EFFECT_APPLIED = "effect.applied"
"""One effect of a maneuver, in seat order from the reader."""
TEST_ROLLED = "test.rolled"
"""A faction's maneuver test, rolled at the reveal."""
ARTHA_SPENT = "artha.spent"
"""Fate and/or Deeds spent after the roll."""
ROLL_KEPT = "roll.kept"
"""A faction keeps its roll as it is."""
TIE_BREAK_OFFERED = "tie_break.offered"
"""One side agrees to break a tied versus test."""
TIE_BREAK_ROLLED = "tie_break.rolled"
"""Both sides agreed: each tests the root stat; extra successes count for the maneuver."""
MANEUVER_RESOLVED = "maneuver.resolved"
"""What the maneuver came to: engagements, effects, dispositions, the narrator."""
CONQUEROR_NAMED = "conqueror.named"
"""Who counts as a defeated faction's conqueror ("Consequences")."""
CHRONICLE_WON = "chronicle.won"
"""One faction stands."""
CHRONICLE_ENDED = "chronicle.ended"
"""Nobody is left standing: the chronicle ends unwon."""
MANEUVER_ENDED = "maneuver.ended"
"""The maneuver is over; conquests still to settle."""
LEADER_JOINED = "leader.joined"
"""A defeated Faction Leader joins a faction still in contention."""
AFFILIATION_BOUGHT = "affiliation.bought"
"""The conqueror buys the defeated leader's lost affiliation with the inherited Cash."""
MAINTENANCE_TESTED = "maintenance.tested"
"""A Resources maintenance test owed ("Downtime")."""
MANEUVER_STARTED = "maneuver.started"
"""The next maneuver begins (statuses of the last one take hold; downtime heals)."""


KINDS = frozenset(
    {
        CHRONICLE_BEGAN,
        PROLOGUE_ROLLED,
        PROLOGUE_ENDED,
        SESSION_STARTED,
        OBJECTIVE_SET,
        SLIP_WRITTEN,
        SCENE_PLAYED,
        SCENES_PASSED,
        HEALTH_TESTED,
        SLIPS_REVEALED,
        EFFECT_APPLIED,
        TEST_ROLLED,
        ARTHA_SPENT,
        ROLL_KEPT,
        TIE_BREAK_OFFERED,
        TIE_BREAK_ROLLED,
        MANEUVER_RESOLVED,
        CONQUEROR_NAMED,
        CHRONICLE_WON,
        CHRONICLE_ENDED,
        MANEUVER_ENDED,
        LEADER_JOINED,
        AFFILIATION_BOUGHT,
        MAINTENANCE_TESTED,
        MANEUVER_STARTED,
    }
)
"""Every event kind of the game (:data:`.payloads.PAYLOADS` gives each its payload's shape)."""


# ------------------------------------------------------------------------------- narration


def _percent(chance: Any) -> str:
    """A chance written as a fraction ("193/512") as a person reads it ("37.7%")."""
    try:
        value = Fraction(str(chance))
    except (ValueError, ZeroDivisionError):
        return str(chance)
    return f"{float(value) * 100:.1f}%"


def _successes(count: Any) -> str:
    return f"{count} success" if count == 1 else f"{count} successes"


def the(fid: str) -> str:
    """A faction with no name of its own, as the text names factions: "the Elves" for
    ``elves`` (Rulings: "Names in the log")."""
    return f"the {title_of(fid)}"


def _faction(d: Mapping[str, Any], fid: Any) -> str:
    """A faction by its name from the set-up, else as the text names one ("the Elves")."""
    return name_in(d, fid, the)


def _own(d: Mapping[str, Any], fid: Any) -> str:
    """A faction's name in the possessive: "the Elves'"."""
    return possessive(_faction(d, fid))


def _names(d: Mapping[str, Any], items: Any) -> str:
    return ", ".join(_faction(d, item) for item in items) if items else "nobody"


def _began(d: Mapping[str, Any]) -> str:
    factions = d.get("factions") or {}
    parts = [
        f"{_faction(d, fid)} (led by {f.get('leader')}, disposition {f.get('disposition')})"
        for fid, f in factions.items()
    ]
    began = f"The chronicle of {d.get('territory') or 'the territory'} begins: {'; '.join(parts)}"
    quick = d.get("quick_play")
    if quick is None:
        return began
    without = "; ".join(str(q) for q in quick) or "none is missing"
    return (
        f"{began}. Quick play (strict_sheets: false): the Seconds in Command and rival "
        f"relationships the text requires are not enforced — {without}"
    )


def _prologue(d: Mapping[str, Any]) -> str:
    return (
        f"{_own(d, d['faction'])} prologue: {d['skill']} tested, "
        f"{_successes(d['successes'])} added to disposition"
    )


def _slip(d: Mapping[str, Any]) -> str:
    again = "rewritten" if d.get("rewritten") else "sealed"
    slip = d.get("slip")
    if not isinstance(slip, Mapping):
        return f"{_own(d, d['faction'])} maneuver slip is {again} (hidden until the reveal)"
    targets = slip.get("targets") or []
    against = f" against {' and '.join(_faction(d, t) for t in targets)}" if targets else ""
    what = f"{slip['maneuver']} with {slip['skill']}{against}"
    return f"{_own(d, d['faction'])} maneuver slip is {again}: {what}"


def _scene(d: Mapping[str, Any]) -> str:
    who = f"{d.get('character')} of {_faction(d, d['faction'])}"
    kind = d.get("kind")
    if kind == "building":
        verdict = "passes" if d.get("passed") else "fails"
        test = f"{d.get('skill')} against Ob {d.get('ob')}"
        return f"{who} plays a building scene: {test} {verdict}"
    if kind == "conflict":
        wounds = d.get("wounds") or {}
        hurt = (
            f"; wounds: {', '.join(f'{_wounded(d, k)} {v}' for k, v in wounds.items())}"
            if wounds
            else ""
        )
        outcome = f": {d['outcome']}" if d.get("outcome") else ""
        return f"{who} directs a conflict scene at {_faction(d, d.get('target'))}{outcome}{hurt}"
    if kind == "interstitial":
        partner = f" with {_faction(d, d['with'])}" if d.get("with") else ""
        return f"{who} plays an interstitial scene{partner}"
    return f"{who} plays a {kind} scene"


def _wounded(d: Mapping[str, Any], ref: Any) -> str:
    """Who a conflict wounded: ``elves`` or ``elves.leader`` is the Elves' leader,
    ``elves.second`` their 2iC."""
    fid, _, role = str(ref).partition(".")
    return f"{_own(d, fid)} {'2iC' if role == 'second' else 'leader'}"


def _passed(d: Mapping[str, Any]) -> str:
    if d.get("spent"):
        return f"Every scene of {_faction(d, d['faction'])} is spent this maneuver"
    return f"{_own(d, d['faction'])} remaining scenes are passed"


def _health(d: Mapping[str, Any]) -> str:
    verdict = "recovers 1D" if d.get("passed") else "does not recover"
    who = f"{_own(d, d['faction'])} {d['character']}"
    return f"{who} tests Health against Ob {d['ob']} and {verdict}"


def _revealed(d: Mapping[str, Any]) -> str:
    slips = d.get("slips") or {}
    reader, order = _faction(d, d.get("reader")), _names(d, d.get("order"))
    lines = [f"Slips revealed, read by {reader}; seat order {order}"]
    for fid, slip in slips.items():
        targets = " and ".join(_faction(d, t) for t in slip.get("targets") or [])
        against = f" against {targets}" if targets else ""
        lines.append(f"  {_own(d, fid)} {slip.get('maneuver')} with {slip.get('skill')}{against}")
    for fid, why in (d.get("void") or {}).items():
        lines.append(f"  {possessive(_faction(d, fid))} maneuver is void: {why}")
    for row in d.get("odds") or []:
        chances = ", ".join(f"{k} {_percent(v)}" for k, v in (row.get("chance") or {}).items())
        against = f" against {_faction(d, row['target'])}" if row.get("target") else ""
        lines.append(
            f"  chance that {possessive(_faction(d, row.get('attacker')))} maneuver "
            f"succeeds{against} ({row.get('kind')}): {chances}"
        )
    return "\n".join(lines)


def _test(d: Mapping[str, Any]) -> str:
    extra = f", attack {d['attack']}" if d.get("attack_pool_roll") else ""
    notes = f" ({'; '.join(str(n) for n in d['notes'])})" if d.get("notes") else ""
    return (
        f"{_own(d, d['faction'])} {d['maneuver']} with {d['skill']}, {d['dice']}D{notes}: "
        f"{_successes(d['successes'])}{extra}"
    )


def _artha(d: Mapping[str, Any]) -> str:
    spent = " and ".join(n for n, on in (("Fate", d.get("fate")), ("Deeds", d.get("deeds"))) if on)
    count = d.get("attack") if d.get("pool") == "attack" else d.get("successes")
    return f"{spent} spent on {_own(d, d['faction'])} roll: {_successes(count)}"


def _tie_offered(d: Mapping[str, Any]) -> str:
    faction, opponent = _faction(d, d["faction"]), _faction(d, d["opponent"])
    return f"A tie-breaker with {opponent} on {d['root']}: agreed by {faction}"


def _tie_rolled(d: Mapping[str, Any]) -> str:
    extra = ", ".join(f"{_faction(d, f)} +{n}" for f, n in (d.get("extra") or {}).items())
    return f"Tie-breaker between {' and '.join(_faction(d, f) for f in d['factions'])}: {extra}"


def _resolved(d: Mapping[str, Any]) -> str:
    dispo = ", ".join(f"{_faction(d, f)} {v}" for f, v in (d.get("dispositions") or {}).items())
    out = f"; out: {_names(d, d['out'])}" if d.get("out") else ""
    narrator = d.get("narrator")
    # nobody narrates a maneuver in which no faction acted (every slip void or unable to act)
    told = (
        f"the narrator is {_faction(d, narrator)} (most successes)"
        if narrator
        else "no faction acted"
    )
    return (
        f"Maneuver {d['maneuver_number']} resolved in seat order — {told}; "
        f"dispositions: {dispo}{out}"
    )


def _joined(d: Mapping[str, Any]) -> str:
    defeated, joined = _faction(d, d["defeated"]), _faction(d, d["faction"])
    text = f"{d['leader']} of {defeated}, defeated, joins {joined}"
    if d.get("resources_lost") is not None:
        text += (
            f", losing {d['resources_lost']} Resources (Cash on Hand to "
            f"{_faction(d, d['cash_on_hand_to'])}) "
            f"and the affiliation {d.get('affiliation_lost')}"
        )
    return text


def _maintenance(d: Mapping[str, Any]) -> str:
    verdict = "passes" if d.get("passed") else f"fails: taxed {d.get('tax')}"
    return (
        f"{_own(d, d['faction'])} Resources maintenance test against Ob {d['ob']} "
        f"{verdict}; Resources {d['resources']}"
    )


_NARRATION: Mapping[str, Callable[[Mapping[str, Any]], str]] = {
    CHRONICLE_BEGAN: _began,
    PROLOGUE_ROLLED: _prologue,
    PROLOGUE_ENDED: lambda d: (
        f"The prologue is over: narration order {_names(d, d['narration_order'])}; no "
        f"disposition "
        f"rises above {d['cap']}"
    ),
    SESSION_STARTED: lambda d: f"Session {d['session']} begins (maneuver {d['maneuver_number']})",
    OBJECTIVE_SET: lambda d: f"{_own(d, d['faction'])} Chronicle Objective: {d['objective']}",
    SLIP_WRITTEN: _slip,
    SCENE_PLAYED: _scene,
    SCENES_PASSED: _passed,
    HEALTH_TESTED: _health,
    SLIPS_REVEALED: _revealed,
    EFFECT_APPLIED: lambda d: str(d.get("text", "")),
    TEST_ROLLED: _test,
    ARTHA_SPENT: _artha,
    ROLL_KEPT: lambda d: f"{_own(d, d['faction'])} roll is kept as it stands",
    TIE_BREAK_OFFERED: _tie_offered,
    TIE_BREAK_ROLLED: _tie_rolled,
    MANEUVER_RESOLVED: _resolved,
    CONQUEROR_NAMED: lambda d: (
        f"The conqueror of {_faction(d, d['defeated'])}: {_faction(d, d['conqueror'])} ({d['why']})"
    ),
    CHRONICLE_WON: lambda d: (
        f"The chronicle is won by {_faction(d, d['faction'])}, the last faction standing"
    ),
    CHRONICLE_ENDED: lambda d: "Nobody is left standing: the chronicle ends unwon",
    MANEUVER_ENDED: lambda d: (
        f"Maneuver {d['maneuver_number']} ends"
        + (
            f"; a conqueror is still to be chosen for {_names(d, d['pending_conquest'])}"
            if d.get("pending_conquest")
            else ""
        )
    ),
    LEADER_JOINED: _joined,
    AFFILIATION_BOUGHT: lambda d: (
        f"{d['cash_spent']} of {_own(d, d['faction'])} Cash on Hand spent on "
        f"{_own(d, d['from'])} lost affiliation {d['affiliation']} ({d['dice']}D)"
    ),
    MAINTENANCE_TESTED: _maintenance,
    MANEUVER_STARTED: lambda d: (
        f"Maneuver {d['maneuver_number']} begins"
        + (f"; downtime heals {_names(d, d['healed'])}" if d.get("healed") else "")
    ),
}


def describe(event: Event, viewer: Viewer) -> str:
    """``event`` in words, as ``viewer`` sees it (already redacted for them)."""
    narrate = _NARRATION.get(event.kind)
    if narrate is None:
        data = ", ".join(f"{k}={v!r}" for k, v in event.data.items())
        return f"{event.kind}: {data}" if data else event.kind
    text = narrate(event.data)
    return text[:1].upper() + text[1:]
