"""Tests that kill the mutants mutmut left alive (issue 13, docs/systems/intrigue.md, "Mutation
testing"): each asserts an outcome of the rules text with scripted dice.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import Event, ScenarioError, Viewer, view
from referee.systems.intrigue.envelopes import ConditionKind, encounter_meets
from referee.systems.intrigue.events import (
    describe,
)
from referee.systems.intrigue.game import load_game

from .helpers import act, character, last, start, without_names


def cast(**sheets: dict[str, Any]) -> dict[str, Any]:
    return {"start": "20:00", "characters": sheets}


ROLLERS = cast(
    a=character(
        "Ann",
        11,
        skills={"Medicine": 1, "Stealth": 2},
        abilities={"Lockpicking": {"value": 4}},
    ),
    b=character("Bob", 12, skills={"Medicine": 3, "Perception": 5}),
)


def seen(table: Any, who: str, kind: str) -> dict[str, Any] | None:
    """The data of the last event of ``kind`` that ``who`` sees, or None."""
    events = [e for e in view(table.log, Viewer(who)) if e.kind == kind]
    return without_names(events[-1].data) if events else None


# -- the log's words for what the rules decided (events.describe; issue 13, round 2) ----------


def _line(kind: str, **data: Any) -> str:
    return describe(Event(kind, data), Viewer("referee"))


# -- Mental Combat outside a combat, Escaping Combat, Taking Damage (issue 13, round 3) ---------


def _minds() -> dict[str, Any]:
    read_mind = {"mental": True, "effect": "She answers one question."}
    return cast(
        krockin=character("Krockin", 33, mind=3, abilities={"Read Mind": read_mind}),
        maid=character("The Maid", 51, mind=1, abilities={"Read Mind": read_mind}),
        butler=character("The Butler", 50),
        lady=character("Lady Rich", 21, mind=2),
    )


def test_only_an_encounter_opens_an_envelope_that_names_one() -> None:
    """Contingency Envelopes: "Open at nine o'clock" and "Open if shot" are opened by the time
    and by the event, never by seeing, meeting or talking to someone; and an encounter is
    met only by a report of seeing, meeting or talking (ruling: talking is also meeting and
    seeing)."""
    encounters = (ConditionKind.SEE, ConditionKind.MEET, ConditionKind.TALK)
    for other in (ConditionKind.AT, ConditionKind.EVENT):
        for how in encounters:
            assert encounter_meets(other, how) is False
            assert encounter_meets(how, other) is False
        assert encounter_meets(other, other) is False
    assert encounter_meets(ConditionKind.MEET, ConditionKind.TALK) is True


# -- Taking Damage: Medicine, the victor's way; Escaping Combat (issue 13, round 4) -------------


def _fighters() -> dict[str, Any]:
    return cast(
        alf=character("Alf", 11, combat=2, strength=2, stamina=6, items={"cannon": {"damage": 7}}),
        bob=character("Bob", 12, combat=1, strength=3, stamina=5),
        cat=character("Cat", 13, combat=3, strength=1, stamina=6, skills={"Medicine": 2}),
        dan=character("Dan", 14, combat=1, strength=1, stamina=6),
    )


def _bob_out_with_two_wounds() -> Any:
    """Alf's cannon (7) against Bob's Stamina 5: Bob is out, two wounds to mark on waking."""
    table = act(start(_fighters()), "alf", "draw", item="cannon")
    table = act(table, "alf", "start_combat", targets=["bob"])
    table = act(table, "alf", "declare", action="attack", target="bob")
    table = act(table, "bob", "declare", action="defend")
    table = act(table, "referee", "resolve", [6, 6, 6])
    assert table.state.status("bob").pending_wounds == 2 and not table.state.running
    return table


def _round(table: Any, alf: str, bob: str, dice: list[int]) -> Any:
    """One round of Alf against Bob: each declares, the referee resolves (Alf acts first)."""
    if alf == "attack":
        table = act(table, "alf", "declare", action="attack", target="bob")
    else:
        table = act(table, "alf", "declare", action=alf)
    table = act(table, "bob", "declare", action=bob)
    table = act(table, "referee", "resolve", dice)
    return act(table, "referee", "resolve")


def _armed(**more: dict[str, Any]) -> dict[str, Any]:
    """Four fighters, each with a weapon of 7 (over half of anyone's Stamina)."""
    sheets = {
        "alf": character("Alf", 11, combat=2, stamina=6, items={"cannon": {"damage": 7}}),
        "bob": character("Bob", 12, combat=1, stamina=5, items={"gun": {"damage": 7}}),
        "cat": character("Cat", 13, combat=1, stamina=6, items={"axe": {"damage": 7}}),
        "dan": character("Dan", 14, combat=1, stamina=6),
        "eve": character("Eve", 15, combat=0, stamina=6),
    }
    for name, sheet in more.items():
        sheets[name] = {**sheets[name], **sheet}
    return cast(**sheets)


def _one_blow(table: Any, attacker: str, weapon: str, target: str) -> Any:
    """``attacker`` draws ``weapon``, starts a combat with ``target`` and knocks them out in
    round one (6+6+6 hits; 7 damage is over half of any Stamina here)."""
    table = act(table, attacker, "draw", item=weapon)
    table = act(table, attacker, "start_combat", targets=[target])
    table = act(table, attacker, "declare", action="attack", target=target)
    table = act(table, target, "declare", action="defend")
    table = act(table, "referee", "resolve", [6, 6, 6])
    assert table.state.status(target).knocked_out and table.state.combats[-1].ended
    return table


def _two_against_one(**more: dict[str, Any]) -> Any:
    """Alf and Dan against Bob: in round 1 Bob's gun knocks Dan out; in round 2 Alf's cannon
    knocks Bob out, and the combat ends."""
    table = act(start(_armed(**more)), "alf", "draw", item="cannon")
    table = act(table, "bob", "draw", item="gun")
    table = act(table, "alf", "start_combat", targets=["bob"])
    table = act(table, "dan", "join", **{"with": "alf"})
    table = act(table, "alf", "declare", action="defend")
    table = act(table, "dan", "declare", action="defend")
    table = act(table, "bob", "declare", action="attack", target="dan")
    table = act(act(table, "referee", "resolve"), "referee", "resolve", [6, 6, 6])
    table = act(table, "alf", "declare", action="attack", target="bob")
    table = act(table, "bob", "declare", action="defend")
    table = act(table, "referee", "resolve", [6, 6, 6])
    assert table.state.combats[-1].ended
    return table


def _bob_held_and_felled(*, alf_grabs_dan: bool) -> Any:
    """Cat, Alf and Eve against Bob and Dan. Round 1: Cat grabs Bob (and Alf grabs Dan, or
    defends); Eve's club (7) then knocks the Held Bob out."""
    table = act(start(_armed(eve={"items": {"club": {"damage": 7}}})), "eve", "draw", item="club")
    table = act(table, "cat", "start_combat", targets=["bob"])
    for who, side in (("alf", "cat"), ("eve", "cat"), ("dan", "bob")):
        table = act(table, who, "join", **{"with": side})
    table = act(table, "cat", "declare", action="grab", target="bob")
    if alf_grabs_dan:
        table = act(table, "alf", "declare", action="grab", target="dan")
    else:
        table = act(table, "alf", "declare", action="defend")
    table = act(table, "bob", "declare", action="defend")
    table = act(table, "dan", "declare", action="defend")
    table = act(table, "eve", "declare", action="attack", target="bob")
    table = act(table, "referee", "resolve", [6, 6, 6])
    table = act(table, "referee", "resolve", [6, 6, 6] if alf_grabs_dan else [])
    table = act(act(table, "referee", "resolve"), "referee", "resolve", [6, 6, 6])
    assert table.state.status("bob").knocked_out and not table.state.combats[-1].in_round
    return table


def _standoff() -> Any:
    """Alf and Cat against Bob and Dan; nobody attacks for two rounds: Bob and Dan each have
    two unhit Defensive Actions."""
    table = act(start(_armed()), "alf", "start_combat", targets=["bob"])
    table = act(act(table, "cat", "join", **{"with": "alf"}), "dan", "join", **{"with": "bob"})
    for _ in range(2):
        for who in ("alf", "cat", "bob", "dan"):
            table = act(table, who, "declare", action="defend")
        while table.state.combats[-1].in_round:
            table = act(table, "referee", "resolve")
    return table


def _round3(table: Any, alf: str, dice: list[int]) -> Any:
    """Alf attacks Bob (or defends); Bob and Dan defend; the referee resolves the round."""
    if alf == "attack":
        table = act(table, "alf", "declare", action="attack", target="bob")
    else:
        table = act(table, "alf", "declare", action=alf)
    table = act(act(table, "bob", "declare", action="defend"), "dan", "declare", action="defend")
    table = act(table, "referee", "resolve", dice)
    while table.state.combats[-1].in_round:
        table = act(table, "referee", "resolve")
    return table


def _holding(alf: str) -> Any:
    """Alf against Bob and Dan, round 1: Alf (the starter) declares ``alf``, Bob holds his
    action, Dan (Combat 1, Bob's rank) attacks Alf."""
    table = act(start(_armed()), "alf", "start_combat", targets=["bob"])
    table = act(table, "dan", "join", **{"with": "bob"})
    table = act(table, "alf", "declare", action=alf)
    table = act(table, "bob", "declare", action="hold")
    return act(table, "dan", "declare", action="attack", target="alf")


def _previews(table: Any) -> list[tuple[str, str, str, dict[str, str]]]:
    shown = table.procedure.previews(table.state, Viewer("public"))
    return [(p.label, p.rule, p.dice, dict(p.odds)) for p in shown]


def _krockin_in_round_two(alf: str, *, use_mind: bool = True) -> Any:
    """Alf against Krockin (Mind 3); round 1 both defend; in round 2 Krockin uses his mind and
    Alf then declares ``alf`` (a Defensive Action or an Attack on Krockin)."""
    bolt = {"mental": True, "obvious": True, "target": 16, "damage": 3}
    blast = {"mental": True, "obvious": True, "damage": 2}
    fighters = cast(
        alf=character("Alf", 11, combat=2, stamina=6),
        kro=character(
            "Krockin",
            33,
            combat=1,
            mind=3,
            stamina=6,
            abilities={"Energy Bolt": bolt, "Mind Blast": blast},
        ),
    )
    table = act(start(fighters), "alf", "start_combat", targets=["kro"])
    table = act(act(table, "alf", "declare", action="defend"), "kro", "declare", action="defend")
    table = act(act(table, "referee", "resolve"), "referee", "resolve")
    return (act(table, "kro", "use_mind") if use_mind else table), alf


def _bolt(ability: str, alf: str) -> dict[str, Any]:
    table, alf_does = _krockin_in_round_two(alf)
    table = act(table, "kro", "declare", action="attack", target="alf", ability=ability)
    if alf_does == "attack":
        table = act(table, "alf", "declare", action="attack", target="kro")
    else:
        table = act(table, "alf", "declare", action=alf_does)
    table = act(table, "referee", "resolve", [1, 1, 1])
    return last(table, "attack.rolled")


# -- a game file's Contingency Envelopes (game.py; issue 13, round 4) --------------------------


def _countess(*envelopes: Any) -> dict[str, Any]:
    return {
        "start": "20:00",
        "characters": {
            "countess": character("The Countess", 21, contingency_envelopes=list(envelopes))
        },
    }


def test_an_envelope_opened_at_a_game_time_in_seconds_from_the_start() -> None:
    """Contingency Envelopes, "Open at nine o'clock": the time may be a clock time or seconds
    from the evening's start — 0 is the start itself, 3600 is 21:00 of an evening begun at
    20:00."""
    state = load_game(
        _countess({"at": 0, "contents": "now"}, {"id": "late", "at": 3600, "contents": "later"})
    )
    first, late = state.contingency_envelopes
    assert (first.id, first.condition.at, first.condition.clock) == ("countess-c1", 0, "20:00")
    assert (late.id, late.condition.at, late.condition.clock) == ("late", 3600, "21:00")


def test_a_bad_envelope_in_a_game_file_is_refused_by_its_path() -> None:
    """A game file's errors name the bad field: an envelope that is not a mapping, and an
    unknown field of the second envelope."""
    with pytest.raises(
        ScenarioError,
        match=r"^characters\.countess\.contingency_envelopes\.0: "
        r"an envelope is a mapping, not str$",
    ):
        load_game(_countess("open me"))
    with pytest.raises(
        ScenarioError,
        match=r"^characters\.countess\.contingency_envelopes\.1\.colour: unknown field 'colour'",
    ):
        load_game(
            _countess({"at": 0, "contents": "x"}, {"at": 0, "contents": "y", "colour": "red"})
        )


def test_abilities_in_a_game_file_are_a_mapping_by_name() -> None:
    """A game file's abilities are a mapping of name to card; a list is refused by its path."""
    cast_ = {"characters": {"kro": character("Krockin", 33, abilities=["Energy Bolt"])}}
    with pytest.raises(
        ScenarioError, match=r"^characters\.kro\.abilities: abilities is a mapping, not list$"
    ):
        load_game(cast_)
