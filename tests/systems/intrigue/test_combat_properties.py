"""Hypothesis: random fights never break the rules engine, and their invariants hold.

Random casts fight with random (often illegal) actions. Every refusal is a ``RuleError`` with the
rule's reason — never another exception; the log replays to the same state; damage and knock-out
agree with "Taking Damage"; the dead do nothing more.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.core import MINUTE, Action, RuleError, Table
from referee.dice import RandomSource
from referee.systems.intrigue import PROCEDURE, IntrigueState
from referee.systems.intrigue.combat import pending_declarers

IDS = ("ann", "bea", "cid", "dov", "eli")


@st.composite
def casts(draw: st.DrawFn) -> dict[str, Any]:
    count = draw(st.integers(2, 5))
    characters = {}
    for index in range(count):
        stamina = draw(st.integers(1, 7))
        characters[IDS[index]] = {
            "number": 10 + index,
            "combat": draw(st.integers(0, 4)),
            "strength": draw(st.integers(0, 4)),
            "stamina": stamina,
            "mind": draw(st.integers(0, 4)),
            "skills": {"Medicine": draw(st.integers(0, 3))},
            "items": {"gun": {"damage": draw(st.integers(1, 6))}},
            "abilities": {
                "Bolt": {
                    "mental": True,
                    "obvious": True,
                    "damage": draw(st.integers(0, 4)),
                    "target": draw(st.sampled_from([None, 12, 16])),
                },
            },
        }
    return {"characters": characters}


DECLARATIONS = (
    "attack",
    "grab",
    "defend",
    "scream",
    "hold",
    "squeeze",
    "throw",
    "release",
    "break_free",
    "draw",
    "mental",
    "group",
)
FALLBACKS = ("defend", "break_free", "squeeze", "scream")
WILD: dict[str, Any] = {
    "revive": lambda other: {"target": other},
    "slay": lambda other: {"target": other},
    "escape": lambda other: {},
    "use_mind": lambda other: {},
    "join": lambda other: {"with": other},
    "draw": lambda other: {"item": "gun"},
}


def _try(table: Table[IntrigueState], action: Action, dice: RandomSource) -> Table[IntrigueState]:
    """Play ``action``; a refusal must be a RuleError naming its rule."""
    try:
        return table.act(action, dice)
    except RuleError as error:
        assert ":" in str(error)
        return table


def _declaration(kind: str, target: str, third: str, extra: int) -> dict[str, Any]:
    if kind == "mental":
        return {"action": "attack", "target": target, "ability": "Bolt"}
    if kind == "group":
        return {"action": "attack", "target": target, "group": [third]}
    if kind in ("attack", "grab"):
        return {"action": kind, "target": target}
    if kind == "scream":
        return {"action": kind, "bonus": extra}
    if kind == "draw":
        return {"action": kind, "item": "gun"}
    return {"action": kind}


def play(setup: dict[str, Any], data: st.DataObject, seed: int) -> Table[IntrigueState]:
    """Drive an evening of fights: sensible actions mostly, wild ones sometimes."""
    table = Table.start(PROCEDURE, setup)
    dice = RandomSource(seed=seed)
    ids = list(setup["characters"])
    pick = data.draw
    for _ in range(pick(st.integers(5, 80))):
        state = table.state
        me = pick(st.sampled_from(ids))
        other = pick(st.sampled_from(ids))
        third = pick(st.sampled_from(ids))
        extra = pick(st.integers(0, 3))
        running = state.running
        if pick(st.integers(0, 9)) == 0:  # a wild action, legal or not
            kind = pick(st.sampled_from(("revive", "slay", "escape", "use_mind", "join", "draw")))
            params = WILD[kind](other)
            table = _try(table, Action(me, kind, params), dice)
            continue
        if not running:
            if pick(st.booleans()):
                table = table.advance(table.now + extra * 2 * MINUTE)
            surprised = [other] if extra == 0 else []
            params = {"targets": [other], "surprised": surprised}
            table = _try(table, Action(me, "start_combat", params), dice)
            continue
        fight = running[0]
        if fight.round == 0 and extra == 1:
            table = _try(table, Action(me, "join", {"with": other}), dice)
        waiting = pending_declarers(table.state, fight) if fight.in_round else ()
        if not fight.in_round and fight.round > 0:
            for who in fight.participants:
                if fight.streak(who) >= 2 and pick(st.booleans()):
                    table = _try(table, Action(who, "escape"), dice)
            if table.state.combat(fight.id).ended:
                continue
        if fight.in_round and not waiting:
            table = _try(table, Action("referee", "resolve", {"combat": fight.id}), dice)
            continue
        if not fight.in_round and pick(st.integers(0, 3)) == 0:
            mind = [c for c in fight.participants if table.state.status(c).can_act]
            if mind:
                table = _try(table, Action(pick(st.sampled_from(mind)), "use_mind"), dice)
        fight = table.state.combat(fight.id)
        waiting = pending_declarers(table.state, fight) if fight.in_round else ()
        actor = waiting[0] if waiting else pick(st.sampled_from(fight.participants))
        targets = [c for c in fight.participants if c != actor] or [other]
        target = pick(st.sampled_from(targets))
        before = len(table.log)
        kind = pick(st.sampled_from(DECLARATIONS))
        table = _try(
            table, Action(actor, "declare", _declaration(kind, target, third, extra)), dice
        )
        for fallback in (*FALLBACKS, "mental"):
            if len(table.log) > before:
                break
            params = _declaration(fallback, target, third, extra)
            table = _try(table, Action(actor, "declare", params), dice)
        if len(table.log) == before:
            table = _try(table, Action("referee", "end_combat", {"combat": fight.id}), dice)
    return table


SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.slow
@SETTINGS
@given(casts(), st.data(), st.integers(0, 2**16))
def test_random_fights_refuse_only_by_the_rules_and_replay(
    setup: dict[str, Any], data: st.DataObject, seed: int
) -> None:
    table = play(setup, data, seed)
    assert Table.replay(PROCEDURE, setup, table.log).state == table.state


@pytest.mark.slow
@SETTINGS
@given(casts(), st.data(), st.integers(0, 2**16))
def test_knock_out_agrees_with_taking_damage(
    setup: dict[str, Any], data: st.DataObject, seed: int
) -> None:
    """Taking Damage, against an oracle kept from the log alone (not the events' own figures):
    the combat's running total, the Stamina after earlier wounds, knock-out by more than half
    the Stamina in one attack or a total over it, and one wound per point beyond it on waking."""
    table = play(setup, data, seed)
    sheets = setup["characters"]
    total: dict[str, int] = dict.fromkeys(sheets, 0)
    marked: dict[str, int] = dict.fromkeys(sheets, 0)
    out: set[str] = set()
    fighters: dict[str, set[str]] = {}  # each combat's participants not escaped, from the log
    for event in table.log:
        d = event.data
        if event.kind == "combat.started":
            fighters[str(d["combat"])] = {str(d["starter"]), *map(str, d["targets"])}  # type: ignore[call-overload]
        elif event.kind == "combat.joined":
            fighters[str(d["combat"])].add(str(d["character"]))
        if event.kind == "damage.taken":
            who, amount = str(d["character"]), int(d["amount"])  # type: ignore[call-overload]
            stamina = int(sheets[who]["stamina"]) - marked[who]
            total[who] += amount
            assert d["total"] == total[who] and d["stamina"] == stamina
            assert d["knocked_out"] == (2 * amount > stamina or total[who] > stamina)
            if d["knocked_out"]:
                out.add(who)
        elif event.kind == "character.woke":
            who = str(d["character"])
            stamina = int(sheets[who]["stamina"]) - marked[who]
            assert d["wounds"] == max(0, total[who] - stamina)
            marked[who] += max(0, total[who] - stamina)
            assert d["stamina"] == int(sheets[who]["stamina"]) - marked[who]
            total[who] = 0
            out.discard(who)
        elif event.kind == "escape.rolled" and d["escaped"]:
            total[str(d["character"])] = 0  # out of that combat: its damage is done with
            fighters[str(d["combat"])].discard(str(d["character"]))
        elif event.kind == "combat.ended":
            for who in fighters[str(d["combat"])]:
                if who not in out:
                    total[who] = 0
    for who, n in marked.items():
        assert table.state.status(who).wounds_marked == n


@pytest.mark.slow
@SETTINGS
@given(casts(), st.data(), st.integers(0, 2**16))
def test_the_dead_and_the_knocked_out_do_nothing(
    setup: dict[str, Any], data: st.DataObject, seed: int
) -> None:
    table = play(setup, data, seed)
    out: set[str] = set()
    dead: set[str] = set()
    for event in table.log:
        d = event.data
        if event.kind == "combat.declared":
            assert d["character"] not in out | dead
        if event.kind == "character.knocked_out":
            out.add(str(d["character"]))
        if event.kind == "character.woke":
            out.discard(str(d["character"]))
            assert d["character"] not in dead
        if event.kind == "character.died":
            dead.add(str(d["character"]))
    for who in dead:
        assert table.state.status(who).dead and not table.state.status(who).knocked_out


@pytest.mark.slow
@SETTINGS
@given(casts(), st.data(), st.integers(0, 2**16))
def test_wounds_never_exceed_the_wounds_stat_of_the_living(
    setup: dict[str, Any], data: st.DataObject, seed: int
) -> None:
    table = play(setup, data, seed)
    for character in table.state.characters:
        status = table.state.status(character.id)
        if not status.dead:
            assert status.wounds_marked < character.wounds
            assert table.state.stamina(character.id) >= 1 - character.wounds
