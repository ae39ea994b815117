"""Each game's main conflict, read through the table contract: how it begins, which action
kinds belong to it, when it is over, and what came of it.

Nothing here decides a rule. A conflict names the game's own action kinds (its catalogue's
words) and starts with the game's own actions. Whether it is over and who won, it asks the
game through the table contract (``procedure.conflict(state)``, a
:class:`~referee.core.Result`); what it counts besides (rounds, damage, who fell) it reads from
the game's state JSON (``procedure.state_json``, what scenario ``expect: path`` reads) and its
events. The games are reached through the registry (:func:`referee.core.system`), never
imported.

| game | conflict | over when | winner |
|---|---|---|---|
| intrigue | a combat to a knock-out ("Combat rules") | the combat ends | those left standing |
| ginlane | a fight ("Fighting") | the fight is over | the side with someone not Taken Out |
| hursagmu | a melee ("Action") | one side is unconscious | the side still conscious |
| zweihander | a chase ("Chase scene rules") | the chase ends | escapees (one escaped) or pursuers |
| kingdoms | a maneuver, slips to resolution | it ends | the faction gaining most disposition |

>>> sorted(CONFLICTS)
['ginlane', 'hursagmu', 'intrigue', 'kingdoms', 'zweihander']
>>> CONFLICTS["intrigue"].name
'a combat to a knock-out'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.core import Action, Choice, RefereeError, Result, Table

__all__ = ["CONFLICTS", "EXCHANGE", "Conflict", "Outcome", "conflict_of", "why_not_main"]


@dataclass(frozen=True)
class Outcome:
    """What came of one encounter: the winner (a side or a character, ``"none"`` if nobody is
    left, ``"unfinished"`` if it did not end within the step limit), the rounds it took, the
    damage each character took (the game's own measure: damage, stress, hits lost, disposition
    lost) and any other numbers worth counting (``extra``)."""

    winner: str
    rounds: int
    damage: Mapping[str, int]
    finished: bool = True
    extra: Mapping[str, int] = field(default_factory=dict)


_LAST: list[Any] = [None, None]
"""The last state read and its JSON: states are immutable, and one step reads it several times."""


def _state(table: Table[Any]) -> dict[str, Any]:
    if _LAST[0] is not table.state:
        _LAST[0], _LAST[1] = table.state, dict(table.procedure.state_json(table.state))
    state: dict[str, Any] = _LAST[1]
    return state


def _result(table: Table[Any]) -> Result | None:
    """The game's own word on its current (or last) conflict: over or not, who won."""
    found: Result | None = table.procedure.conflict(table.state)
    return found


def _is_over(table: Table[Any]) -> bool:
    """The game's conflict is over (or there is none to play)."""
    result = _result(table)
    return result is None or result.over


def _sole_winner(table: Table[Any]) -> str:
    """The game's one winner; ``"none"`` if it names none, ``"unfinished"`` if several."""
    result = _result(table)
    winners = () if result is None else result.winners
    if len(winners) == 1:
        return winners[0]
    return "none" if not winners else "unfinished"


@dataclass(frozen=True)
class Conflict:
    """A game's main conflict as the simulator drives it (see the module's doc).

    ``kinds``: the action kinds a policy may take in it (no administrative ones: no awards,
    no ending a session); ``preference``: the default policy's order of kinds;
    ``begin(table, seat)``: the actions that start it (none if it is under way);
    ``is_over(start, table)``; ``outcome(start, table)``; ``actors(table)``: who may move.
    """

    system: str
    name: str
    kinds: frozenset[str]
    preference: tuple[str, ...]
    begin: Callable[[Table[Any], str | None], list[Action]]
    is_over: Callable[[Table[Any], Table[Any]], bool]
    outcome: Callable[[Table[Any], Table[Any]], Outcome]
    actors: Callable[[Table[Any]], Sequence[str]] | None = None
    pick: Callable[[Table[Any], Sequence[Choice]], Action | None] | None = None
    first_mover: bool = False
    """True if only the first mover with a choice may move (the rest wait their turn)."""

    def movers(self, table: Table[Any]) -> Sequence[str]:
        """Who may move now: the conflict's own answer, else the procedure's and the referee."""
        if self.actors is not None:
            return self.actors(table)
        movers = list(table.procedure.actors(table.state))
        if "referee" not in movers and table.procedure.has_referee:
            movers.append("referee")
        return movers


# -- Intrigue in the Clouds: a combat to a knock-out -------------------------------------


def _intrigue_combat(table: Table[Any]) -> dict[str, Any] | None:
    combats = _state(table).get("combats") or {}
    return list(combats.values())[-1] if combats else None


def _intrigue_begin(table: Table[Any], seat: str | None) -> list[Action]:
    combat = _intrigue_combat(table)
    if combat is not None and not combat["ended"]:
        return []
    sheets = _state(table)["characters"]
    able = [c for c, s in sheets.items() if not s["knocked_out"] and not s["dead"]]
    starter = seat if seat in able else (able[0] if able else None)
    others = [c for c in able if c != starter]
    if starter is None or not others:
        return []
    return [Action(starter, "start_combat", {"targets": [others[0]]})]


def _intrigue_over(start: Table[Any], table: Table[Any]) -> bool:
    return _is_over(table)


def _intrigue_outcome(start: Table[Any], table: Table[Any]) -> Outcome:
    """The winners the game names (everyone still standing, not escaped), joined; if none,
    ``"escaped"`` where someone got away (the game's return of 0: neither won nor fell)."""
    state = _state(table)
    combat = _intrigue_combat(table) or {}
    sheets = state["characters"]
    sides = combat.get("sides", {})
    result = _result(table)
    winners = () if result is None else result.winners
    winner = ",".join(sorted(winners)) or "none"
    if not winners and result is not None and any(r == 0 for _, r in result.returns):
        winner = "escaped"
    # a standing character's damage is wiped when the combat ends: count the events instead
    damage = dict.fromkeys(sides, 0)
    for i in range(start.version, table.version):
        event = table.log[i]
        data: dict[str, Any] = dict(event.data)
        if event.kind == "damage.taken" and data.get("character") in damage:
            damage[str(data["character"])] += int(data["amount"])
    deaths = sum(1 for c in sides if sheets[c]["dead"])
    return Outcome(
        winner,
        int(combat.get("round", 0)),
        damage,
        result is not None and result.over,
        {"deaths": deaths, "knocked_out": sum(1 for c in sides if sheets[c]["knocked_out"])},
    )


def _intrigue_actors(table: Table[Any]) -> Sequence[str]:
    combat = _intrigue_combat(table)
    return [*(combat or {}).get("sides", {}), "referee"]


def _intrigue_pick(table: Table[Any], choices: Sequence[Choice]) -> Action | None:
    """Attack the first opponent; the referee resolves when everyone has declared."""
    combat = _intrigue_combat(table) or {}
    sides = combat.get("sides", {})
    for choice in choices:
        if choice.kind == "declare" and choice.params.get("action") is not None:
            target = choice.params.get("target")
            if "attack" in getattr(choice.params["action"], "values", ()) and target is not None:
                mine = sides.get(choice.actor)
                foes = [t for t in getattr(target, "values", ()) if sides.get(t) != mine]
                if foes:
                    return Action(choice.actor, "declare", {"action": "attack", "target": foes[0]})
    for choice in choices:
        if choice.kind == "declare" and choice.actor != "referee":
            return None  # someone must declare but cannot attack: the generic default decides
    for choice in choices:
        if choice.kind == "resolve":
            return choice.sample(_FIRST)  # type: ignore[no-any-return]
    return None


# -- Gin Lane: a fight to Taken Out -------------------------------------------------------


def _ginlane_begin(table: Table[Any], seat: str | None) -> list[Action]:
    state = _state(table)
    if state.get("order") and not state.get("over"):
        return []
    return [Action("referee", "initiative", {})]


def _ginlane_over(start: Table[Any], table: Table[Any]) -> bool:
    result = _result(table)
    return result is not None and result.over  # before initiative, the fight is to come


def _ginlane_outcome(start: Table[Any], table: Table[Any]) -> Outcome:
    state = _state(table)
    chars = state["characters"]
    damage = {c: sum(int(x) for x in s["tracks"].get("Health", [])) for c, s in chars.items()}
    taken = sum(1 for s in chars.values() if s.get("taken_out"))
    over = _ginlane_over(start, table)
    return Outcome(
        _sole_winner(table) if over else "unfinished",
        int(state.get("round", 0)),
        damage,
        over,
        {"taken_out": taken},
    )


def _ginlane_pick(table: Table[Any], choices: Sequence[Choice]) -> Action | None:
    """Close with the enemy: where nobody can Attack, Move (else Sprint) into a zone that holds
    a foe not yet Taken Out ("Zones": you can only attack someone in your zone); otherwise the
    conflict's preferences (Attack first)."""
    if any(choice.kind == "attack" for choice in choices):
        return None
    chars = _state(table)["characters"]

    def has_foe(actor: str, zone: Any) -> bool:
        side = chars.get(actor, {}).get("side", actor)
        return any(
            s.get("zone") == zone and s.get("side", c) != side and not s.get("taken_out")
            for c, s in chars.items()
        )

    for kind, param in (("move", "to"), ("sprint", "path")):
        for choice in choices:
            if choice.kind != kind or param not in choice.params:
                continue
            for value in getattr(choice.params[param], "values", ()):
                zone = value[-1] if isinstance(value, list) and value else value
                if has_foe(choice.actor, zone):
                    return Action(choice.actor, kind, {param: value})
    return None


# -- Hursagmu: a melee until one side is unconscious ------------------------------------


def _hursagmu_over(start: Table[Any], table: Table[Any]) -> bool:
    return _is_over(table)


def _hursagmu_outcome(start: Table[Any], table: Table[Any]) -> Outcome:
    state = _state(table)
    before = _state(start)["characters"]
    damage = {
        c: max(0, int(before[c]["hits"]) - int(s["hits"])) for c, s in state["characters"].items()
    }
    over = _is_over(table)
    return Outcome(
        _sole_winner(table) if over else "unfinished",
        int(state.get("round", 1)) - int(_state(start).get("round", 1)) + 1,
        damage,
        over,
    )


# -- Zweihänder: a chase ------------------------------------------------------------------


def _zweihander_begin(table: Table[Any], seat: str | None) -> list[Action]:
    chase = _state(table).get("chase")
    if chase is not None and not chase.get("ended"):
        return []
    chars = list(_state(table)["characters"])
    if len(chars) < 2:
        return []
    escapee: str = seat if seat is not None and seat in chars else chars[0]
    pursuers = [c for c in chars if c != escapee]
    return [
        Action(
            "referee",
            "chase.start",
            {
                "escapees": {escapee: "on foot"},
                "pursuers": {p: "on foot" for p in pursuers},
                "head_start": "escapees",
                "escape_condition": 3,
            },
        )
    ]


def _zweihander_over(start: Table[Any], table: Table[Any]) -> bool:
    """The game's conflict is over. (A chase played while a Complex Exchange is under way
    ends with the exchange as the game's current conflict: not over, so "unfinished".)"""
    return _is_over(table)


def _zweihander_outcome(start: Table[Any], table: Table[Any]) -> Outcome:
    """The side the game names as winning (``escapees`` or ``pursuers``); until the chase
    ends, ``pursuers`` (the simulation reads a winner only once it is over)."""
    state = _state(table)
    chase = state.get("chase") or {}
    people = chase.get("participants", {})
    result = _result(table)
    won = result.winners[0] if result is not None and result.over and result.winners else None
    before = _state(start)["characters"]
    damage = {
        c: int(state["characters"][c].get("peril", 0)) - int(before[c].get("peril", 0))
        for c in people
    }
    # the rounds played: once a Round has ended the counter names the next one, not yet begun
    begun = any(p.get("moved") for p in people.values())
    return Outcome(
        won or "pursuers",
        int(chase.get("round", 0)) - (0 if begun else 1),
        damage,
        result is not None and result.over,
        {"taken_down": sum(1 for p in people.values() if p["status"] == "taken down")},
    )


def _zweihander_can_chase(table: Table[Any]) -> str | None:
    """``None`` if the simulation's chase can be played from ``table`` (one under way, or the
    game accepts its ``chase.start``); else the game's own reason it cannot."""
    chase = _state(table).get("chase")
    if chase is not None and not chase.get("ended"):
        return None
    begin = _zweihander_begin(table, None)
    if not begin:
        return "a chase needs two characters"
    try:
        table.act(begin[0], _Ones())
    except RefereeError as error:
        return str(error)
    return None


class _Ones:
    """A dice source of 1s: only to ask the game whether it accepts an action."""

    def roll(self, sides: int) -> int:
        return 1


def _exchange(table: Table[Any]) -> dict[str, Any] | None:
    found: dict[str, Any] | None = _state(table).get("exchange")
    return found


def _exchange_begin(table: Table[Any], seat: str | None) -> list[Action]:
    """The GM begins a Complex Exchange with every character able to test a Social Tactic:
    an Indifferent NPC of the first Alignment and Social Class offered, and as the GM's secret
    Favourable and Unfavourable Skills two Tactics no participant can use, so that the GM's
    secret tilts nothing (the simulation cannot know it)."""
    ex = _exchange(table)
    if ex is not None and not ex.get("ended"):
        return []
    offered = [c for c in table.legal_actions("referee") if c.kind == "exchange.start"]
    if not offered:
        return []
    params = offered[0].params
    people = list(getattr(params["participants"], "values", ()))
    sheets = _state(table)["characters"]
    used = {t for c in people for t in sheets[c].get("skills", {})}
    tactics = list(getattr(params["favourable"], "values", ()))
    spare = [t for t in tactics if t not in used] + [t for t in tactics if t in used]
    dispositions = list(getattr(params["disposition"], "values", ()))
    return [
        Action(
            "referee",
            "exchange.start",
            {
                "npc": "the NPC",
                "disposition": "Indifferent" if "Indifferent" in dispositions else dispositions[0],
                "npc_alignment": _first_of(params["npc_alignment"]),
                "participants": people,
                "favourable": spare[0],
                "unfavourable": spare[1] if len(spare) > 1 else spare[0],
            },
        )
    ]


def _first_of(domain: Any) -> Any:
    return getattr(domain, "values", (None,))[0]


def _exchange_over(start: Table[Any], table: Table[Any]) -> bool:
    return _is_over(table)


def _exchange_actors(table: Table[Any]) -> Sequence[str]:
    ex = _exchange(table) or {}
    tested = set(ex.get("tested", ()))
    return [*(c for c in ex.get("participants", ()) if c not in tested), "referee"]


_OUTCOMES = ("critical success", "success", "failure", "critical failure")


def _exchange_outcome(start: Table[Any], table: Table[Any]) -> Outcome:
    """The party's best Tactic Test (critical success … critical failure), read from the
    log: the game names no winner of an exchange (it is over when the game says so); the
    mental Peril each took; the Fortune Points the party gained."""
    seen = []
    for i in range(start.version, table.version):
        event = table.log[i]
        if event.kind == "exchange.tactic_tested":
            seen.append(str(dict(event.data).get("outcome")))
    best = min(seen, key=lambda o: _OUTCOMES.index(o) if o in _OUTCOMES else 9, default="none")
    before, after = _state(start), _state(table)
    people = (_exchange(table) or {}).get("participants", [])
    peril = {
        c: int(after["characters"][c].get("peril", 0))
        - int(before["characters"][c].get("peril", 0))
        for c in people
    }
    gained = int(after.get("fortune_points", 0)) - int(before.get("fortune_points", 0))
    return Outcome(best, 1, peril, _exchange_over(start, table), {"fortune_points_gained": gained})


# -- Burning Kingdoms: one maneuver, slips to resolution --------------------------------


def _kingdoms_over(start: Table[Any], table: Table[Any]) -> bool:
    """The game's maneuver is over, and it is not the one already over at ``start`` (a table
    between maneuvers waits for the next: the simulation plays none of that)."""
    now = _result(table)
    if now is None or not now.over:
        return False
    then = _result(start)
    return then is None or not then.over or then.name != now.name


def _kingdoms_outcome(start: Table[Any], table: Table[Any]) -> Outcome:
    """The faction the game names as the maneuver's winner (the most disposition gained),
    ``"tie"`` if it names several; each faction's change of disposition from ``start``."""
    before = _state(start)["factions"]
    after = _state(table)["factions"]
    change = {f: int(after[f]["disposition"]) - int(before[f]["disposition"]) for f in after}
    result = _result(table)
    top = () if result is None else result.winners
    return Outcome(
        top[0] if len(top) == 1 else "tie",
        1,
        {f: -c for f, c in change.items()},
        _kingdoms_over(start, table),
        {f"change:{f}": c for f, c in change.items()},
    )


_BOLDNESS = ("Sap", "Infiltrate", "Fortify", "Conserve", "Assess")


def _kingdoms_pick(table: Table[Any], choices: Sequence[Choice]) -> Action | None:
    """Each faction writes one slip (the boldest maneuver it may: Sap, then Infiltrate, Fortify,
    Conserve, Assess), then passes its scenes; then the maneuver is revealed and resolved
    (keeping every roll, the first tie-break offered)."""
    state = _state(table)
    written, passed = state.get("slips") or {}, set(state.get("passed") or ())

    def boldness(choice: Choice) -> int:
        named = getattr(choice.params.get("maneuver"), "values", ("",))[0]
        return _BOLDNESS.index(named) if named in _BOLDNESS else len(_BOLDNESS)

    for kind, done in (("write_slip", set(written)), ("pass", passed)):
        for choice in sorted(choices, key=boldness):
            if choice.kind == kind and choice.actor not in done:
                return choice.sample(_FIRST)  # type: ignore[no-any-return]
    offers = state.get("tie_offers") or {}
    agreed = set(offers) | {str(v) for v in offers.values() if isinstance(v, str)}
    for kind in ("reveal", "keep", "tie_break", "resolve"):
        for choice in choices:
            if choice.kind == kind and not (kind == "tie_break" and choice.actor in agreed):
                return choice.sample(_FIRST)  # type: ignore[no-any-return]
    return None


def _none(table: Table[Any], seat: str | None) -> list[Action]:
    return []


class _First:
    """A stand-in random source for ``Choice.sample`` that always takes the first value."""

    def randrange(self, n: int) -> int:
        return 0

    def randint(self, low: int, high: int) -> int:
        return low

    def sample(self, values: list[Any], count: int) -> list[Any]:
        return values[:count]


_FIRST: Any = _First()

CONFLICTS: dict[str, Conflict] = {
    "intrigue": Conflict(
        "intrigue",
        "a combat to a knock-out",
        frozenset({"declare", "resolve"}),
        ("declare", "resolve"),
        _intrigue_begin,
        _intrigue_over,
        _intrigue_outcome,
        _intrigue_actors,
        _intrigue_pick,
        first_mover=True,  # the characters declare in turn; the referee resolves after them
    ),
    "ginlane": Conflict(
        "ginlane",
        "a fight to Taken Out",
        frozenset(
            {"attack", "manoeuvre", "block", "grapple", "release", "move", "sprint", "wait"}
            | {"full_defence", "seize", "overcome", "throw_grenade", "fuse", "something_else"}
        ),
        ("attack", "seize", "overcome", "release", "full_defence", "move"),
        _ginlane_begin,
        _ginlane_over,
        _ginlane_outcome,
        pick=_ginlane_pick,
    ),
    "hursagmu": Conflict(
        "hursagmu",
        "a melee to unconsciousness",
        frozenset({"initiative", "declare", "act", "defend", "take", "wait", "hold", "end_round"}),
        ("initiative", "declare", "defend", "act", "take", "end_round"),
        _none,
        _hursagmu_over,
        _hursagmu_outcome,
    ),
    "zweihander": Conflict(
        "zweihander",
        "a chase",
        frozenset({"chase.move", "chase.takedown", "chase.action", "chase.end_round"}),
        ("chase.takedown", "chase.move", "chase.end_round"),
        _zweihander_begin,
        _zweihander_over,
        _zweihander_outcome,
    ),
    "kingdoms": Conflict(
        "kingdoms",
        "a maneuver, slips to resolution",
        frozenset({"write_slip", "pass", "reveal", "keep", "tie_break", "resolve"}),
        ("write_slip", "pass", "reveal", "keep", "tie_break", "resolve"),
        _none,
        _kingdoms_over,
        _kingdoms_outcome,
        pick=_kingdoms_pick,
    ),
}
"""The main conflict of each game, by system name."""


EXCHANGE = Conflict(
    "zweihander",
    "a Complex Exchange",
    frozenset({"exchange.tactic", "exchange.end"}),
    ("exchange.tactic", "exchange.end"),
    _exchange_begin,
    _exchange_over,
    _exchange_outcome,
    _exchange_actors,
    first_mover=True,
)
"""Zweihänder's other conflict ("Social Intrigue", Complex Exchange): where the table cannot
chase (its characters have no Coordination, say) the simulation plays the exchange — each
participant tests their first Social Tactic, no Reputation burnt, then the GM ends it."""


def conflict_of(table: Table[Any]) -> Conflict:
    """The main conflict of ``table``'s game (``KeyError`` naming the game if it has none);
    a Zweihänder table that cannot chase (:func:`why_not_main`) plays its Complex Exchange.

    >>> from referee.core import system
    >>> talker = {"bonuses": {"WB": 4}, "skills": {"Charm": 50}}
    >>> conflict_of(system("zweihander").new_table({"characters": {"a": talker}})).name
    'a Complex Exchange'
    """
    name = table.system
    if name not in CONFLICTS:
        raise KeyError(f"no whole-encounter simulation for system {name!r}")
    if name == "zweihander" and why_not_main(table) is not None:
        ex = _exchange(table)
        if (ex is not None and not ex.get("ended")) or _exchange_begin(table, None):
            return EXCHANGE
    return CONFLICTS[name]


def why_not_main(table: Table[Any]) -> str | None:
    """Why the game's main conflict cannot be played from ``table`` (``None`` if it can): for
    now only Zweihänder's chase asks (the game's own refusal of ``chase.start``)."""
    if table.system == "zweihander":
        return _zweihander_can_chase(table)
    return None
