"""The combat Intrigue in the Clouds offers the simulator (``referee.systems.intrigue.simulation``):
who starts it, who acts in it, and what came of it — the winners the game names, the damage
counted from the encounter's own events, the dead and the Knocked Out ("Combat rules",
"Taking Damage", "Escaping Combat")."""

from __future__ import annotations

from typing import Any

from referee.core import REFEREE, Action, Result, Table, system
from referee.core.simulation import EncounterOutcome
from referee.dice import ScriptedSource
from referee.systems.intrigue.simulation import actors, begin, outcome, pick

HIT, MISS = [6, 6, 6], [1, 1, 1]

TRIO = {
    "characters": {
        "ann": {"name": "Ann", "number": 11, "combat": 2, "strength": 3, "stamina": 6},
        "bob": {"name": "Bob", "number": 12, "combat": 1, "strength": 1, "stamina": 1},
        "carl": {"name": "Carl", "number": 13, "combat": 1, "strength": 1, "stamina": 6},
    }
}


def _round(table: Table[Any], *hits: bool) -> Table[Any]:
    """Every side declares an Attack on the first foe, in turn; then the referee resolves the
    round place by place, each roll (in the order they come) a hit or a miss as told."""
    combat = table.state.combats[-1]
    sides = dict(combat.sides)
    waiting = list(sides)
    while (who := next((w for w in waiting if _declares(table, w)), None)) is not None:
        waiting.remove(who)
        foe = next(c for c in sides if sides[c] != sides[who] and c not in combat.escaped)
        table = table.act(Action(who, "declare", {"action": "attack", "target": foe}), None)
    left = list(hits)
    while table.state.combats[-1].in_round and not table.state.combats[-1].ended:
        rolls = len(table.procedure.previews(table.state, None))  # the next place's
        faces = [face for hit in left[:rolls] for face in (HIT if hit else MISS)]
        del left[:rolls]
        table = table.act(Action(REFEREE, "resolve", {}), ScriptedSource(faces))
    assert not left
    return table


def _declares(table: Table[Any], who: str) -> bool:
    return any(choice.kind == "declare" for choice in table.legal_actions(who))


def _first_combat() -> Table[Any]:
    """Ann starts on Bob. Round 1: Ann misses, Bob hits (1 damage to Ann); round 2: Ann (the
    higher Combat Stat) first, hits, and Bob (Stamina 1) is out before he strikes."""
    table = system("intrigue").new_table(TRIO)
    table = table.act(Action("ann", "start_combat", {"targets": ["bob"]}), None)
    table = _round(table, False, True)
    return _round(table, True)


def test_a_combat_is_begun_only_once_the_last_one_has_ended_and_by_one_able_to_act() -> None:
    """The simulator's encounter is a new combat: none while one is running; once it has
    ended, the first character able to act starts on the next able one — Bob, Knocked Out,
    is neither."""
    table = system("intrigue").new_table(TRIO)
    assert begin(table, "bob") == [Action("bob", "start_combat", {"targets": ["ann"]})]
    running = table.act(Action("ann", "start_combat", {"targets": ["bob"]}), None)
    assert begin(running, None) == [] and begin(running, "carl") == []
    over = _first_combat()
    assert over.state.combats[-1].ended and not over.state.status("bob").can_act
    assert begin(over, None) == [Action("ann", "start_combat", {"targets": ["carl"]})]
    assert begin(over, "bob") == [Action("ann", "start_combat", {"targets": ["carl"]})]


def test_nobody_left_able_to_act_begins_no_combat() -> None:
    """Equal Combat Stats strike together from round 2 ("Ties act simultaneously"): both hit,
    both fall, and nobody is left to start another combat."""
    setup = {
        "characters": {
            c: {"name": c.title(), "number": n, "combat": 1, "strength": 2, "stamina": 1}
            for c, n in (("ann", 11), ("bob", 12))
        }
    }
    table = system("intrigue").new_table(setup)
    table = table.act(Action("ann", "start_combat", {"targets": ["bob"]}), None)
    table = _round(_round(table, False, False), True, True)
    assert not any(table.state.status(c).can_act for c in ("ann", "bob"))
    assert begin(table, None) == [] and begin(table, "ann") == []


def test_an_encounters_damage_is_counted_from_its_own_start() -> None:
    """Ann's hit taken in the first combat is not the second's: only the damage taken since
    the encounter began counts, for each side of its combat."""
    start = _first_combat()
    table = start.act(Action("ann", "start_combat", {"targets": ["carl"]}), None)
    table = _round(table, True, False)  # round 1: Ann first, hits Carl (3); Carl misses
    seen = outcome(start, table)
    assert seen.damage == {"ann": 0, "carl": 3}
    assert (seen.winner, seen.rounds, seen.finished) == ("none", 1, False)
    assert actors(table) == ["ann", "carl", REFEREE]


def test_before_any_combat_nothing_has_come_of_the_encounter() -> None:
    table = system("intrigue").new_table(TRIO)
    assert outcome(table, table) == EncounterOutcome(
        "none", 0, {}, False, {"deaths": 0, "knocked_out": 0}
    )
    assert actors(table) == [REFEREE]
    assert pick(table, table.legal_actions("ann")) is None  # no declaration, nothing to resolve


def told(result: Result) -> Table[Any]:
    """Ann's combat on Bob begun at a table whose game answers ``result`` for it."""
    procedure = system("intrigue").procedure

    class Told(type(procedure)):  # type: ignore[misc]
        def conflict(self, state: Any) -> Result | None:
            return result if procedure.conflict(state) is not None else None

    table = Table.start(Told(), system("intrigue").new_table(TRIO).setup, system="intrigue")
    return table.act(Action("ann", "start_combat", {"targets": ["bob"]}), None)


def test_the_winners_are_those_the_game_names_joined_else_escaped_where_one_got_away() -> None:
    """The game's winners, sorted and joined; with none, "escaped" where one scored 0 (got
    away: neither won nor fell), else "none"."""
    cases = [
        (Result("told", True, ("bob", "ann"), returns=(("ann", 1), ("bob", 1))), "ann,bob"),
        (Result("told", True, ("ann",), returns=(("ann", 1), ("bob", 0))), "ann"),
        (Result("told", True, (), returns=(("ann", -1), ("bob", 0))), "escaped"),
        (Result("told", True, (), returns=(("ann", -1), ("bob", -1))), "none"),
        (Result("told", False, (), returns=(("ann", 1), ("bob", 1))), "none"),
    ]
    for result, winner in cases:
        table = told(result)
        seen = outcome(table, table)
        assert (seen.winner, seen.finished) == (winner, result.over), result


def test_each_side_attacks_its_first_foe_and_the_referee_resolves_once_all_have_declared() -> None:
    """The simulator's policy in a combat: each character declares an Attack on the first
    opponent, in turn ("Combat Actions"); the referee then resolves the round."""
    table = system("intrigue").new_table(TRIO)
    table = table.act(Action("ann", "start_combat", {"targets": ["bob"]}), None)
    assert pick(table, table.legal_actions(REFEREE)) is None  # nobody has declared yet
    for who, foe in (("ann", "bob"), ("bob", "ann")):
        declared = pick(table, table.legal_actions(who))
        assert declared == Action(who, "declare", {"action": "attack", "target": foe})
        table = table.act(declared, None)
    combat = table.state.combats[-1].id
    for who in ("ann", REFEREE):  # the simulator asks the sides first: Ann may resolve too
        assert pick(table, table.legal_actions(who)) == Action(who, "resolve", {"combat": combat})
