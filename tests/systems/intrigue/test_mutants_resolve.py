"""Tests that kill the mutants of ``combat_actions._resolve_one`` that mutmut left alive (issue 13,
round 4, second wave; docs/systems/intrigue.md, "Mutation testing"): what the log records when a
Combat Action is resolved, with scripted dice.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from referee.core import Action, Table
from referee.dice import ScriptedSource
from referee.systems.intrigue import IntrigueState

from .helpers import act, character, start, without_names

T = Table[IntrigueState]

# what a Combat Action's resolution logs, beside the rolls' own cards (as the referee sees it:
# a damage.taken carries the Stamina secret)
TOLD = (
    "item.drawn",
    "combat.action_taken",
    "combat.action_lapsed",
    "character.grabbed",
    "damage.taken",
    "character.knocked_out",
    "hold.ends",
    "mental.effect",
)


def _cast(**changes: dict[str, Any]) -> dict[str, Any]:
    sheets = {
        "alf": character(
            "Alf", 11, combat=3, strength=2, stamina=6, items={"cannon": {"damage": 7}}
        ),
        "bob": character("Bob", 12, combat=1, strength=3, stamina=5),
        "cat": character("Cat", 13, combat=2, strength=1, stamina=6),
        "dan": character("Dan", 14, combat=0, strength=1, stamina=6),
    }
    for who, sheet in changes.items():
        sheets[who] = {**sheets[who], **sheet}
    return {"start": "20:00", "characters": sheets}


def _round(
    table: T, declarations: Sequence[tuple[str, dict[str, Any]]], dice: Sequence[int] = ()
) -> tuple[T, list[tuple[str, dict[str, Any]]]]:
    """Declare ``declarations`` (starting the next round if none is under way), resolve the round
    to its end with ``dice`` (all of them), and return the table and what the round told."""
    if not table.state.combats[-1].in_round:
        table = act(table, "referee", "next_round")
    since = len(table.log.events)
    for who, declared in declarations:
        table = act(table, who, "declare", **declared)
    source = ScriptedSource(dice)
    while table.state.combats[-1].in_round:
        table = table.act(Action("referee", "resolve", {}), source)
    assert source.remaining == (), f"unused dice {source.remaining}"
    told = [(e.kind, without_names(e.data)) for e in table.log.events[since:] if e.kind in TOLD]
    return table, told


def _rolled(table: T, kind: str) -> dict[str, Any]:
    for event in reversed(table.log.events):
        if event.kind == kind:
            return without_names(event.data)
    raise AssertionError(f"no {kind} event")


C1 = "combat-1"


def _alf_holds_bob(**changes: dict[str, Any]) -> T:
    table = act(start(_cast(**changes)), "alf", "start_combat", targets=["bob"])
    table, _ = _round(
        table,
        [("alf", {"action": "grab", "target": "bob"}), ("bob", {"action": "defend"})],
        [6, 6, 6],
    )
    assert table.state.combats[-1].holder_of("bob") == "alf"
    return table


def _krockin(ability: str) -> T:
    """Alf against Krockin (Mind 3); round 1 both defend; in round 2 Krockin uses his mind and
    ``ability`` on Alf, who defends, and hits (6+6+6)."""
    abilities = {
        "Energy Bolt": {"mental": True, "obvious": True, "target": 16, "damage": 3},
        "Befuddle": {"mental": True, "obvious": True, "effect": "Dazed: drop what you hold."},
    }
    kro = character("Krockin", 33, combat=1, mind=3, stamina=6, abilities=abilities)
    table = act(
        start({"start": "20:00", "characters": {**_cast()["characters"], "kro": kro}}),
        "alf",
        "start_combat",
        targets=["kro"],
    )
    table, _ = _round(table, [("alf", {"action": "defend"}), ("kro", {"action": "defend"})])
    table = act(table, "referee", "next_round")
    table = act(table, "kro", "use_mind")
    table, told = _round(
        table,
        [
            ("kro", {"action": "attack", "target": "alf", "ability": ability}),
            ("alf", {"action": "defend"}),
        ],
        [6, 6, 6],
    )
    assert _rolled(table, "attack.rolled")["hit"] is True
    return told


# -- resolve and _after_place (issue 13, round 4, second wave) ---------------------------------
