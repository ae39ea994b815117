"""Helpers for the Intrigue tests: a table from a game mapping, one action on it, and the casts,
scenes, log lines and menus that several rule files' tests share."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.core import Action, Event, Table, Viewer
from referee.dice import ScriptedSource
from referee.systems.intrigue import PROCEDURE, IntrigueState
from referee.systems.intrigue.events import describe


def start(setup: Mapping[str, Any]) -> Table[IntrigueState]:
    """A table at game time 0 for ``setup``."""
    return Table.start(PROCEDURE, setup)


def act(
    table: Table[IntrigueState],
    actor: str,
    kind: str,
    dice: Sequence[int] = (),
    at: int | None = None,
    **params: Any,
) -> Table[IntrigueState]:
    """``actor`` does ``kind`` with ``params``, rolling the scripted ``dice`` (all of them)."""
    source = ScriptedSource(dice)
    after = table.act(Action(actor, kind, params), source, at=at)
    assert source.remaining == (), f"unused dice {source.remaining}"
    return after


def kinds(table: Table[IntrigueState], since: int = 0) -> list[str]:
    """The kinds of the events logged after the first ``since``."""
    return [e.kind for e in table.log.events[since:]]


def without_names(data: Mapping[str, Any]) -> dict[str, Any]:
    """An event's data without the names it carries for its narration (``"names"``)."""
    return {k: v for k, v in data.items() if k != "names" and not k.endswith("_names")}


def last(table: Table[IntrigueState], kind: str) -> dict[str, Any]:
    """The data of the last event of ``kind`` (as the referee sees it), without its names."""
    for event in reversed(table.log.events):
        if event.kind == kind:
            return without_names(event.data)
    raise AssertionError(f"no {kind} event")


def character(name: str, number: int, **sheet: Any) -> dict[str, Any]:
    """A character sheet for a game mapping."""
    return {"name": name, "number": number, **sheet}


def cast(**sheets: dict[str, Any]) -> dict[str, Any]:
    return {"start": "20:00", "characters": sheets}


def _line(kind: str, **data: Any) -> str:
    return describe(Event(kind, data), Viewer("referee"))


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


def _previews(table: Any) -> list[tuple[str, str, str, dict[str, str]]]:
    shown = table.procedure.previews(table.state, Viewer("public"))
    return [(p.label, p.rule, p.dice, dict(p.odds)) for p in shown]


def _countess(*envelopes: Any) -> dict[str, Any]:
    return {
        "start": "20:00",
        "characters": {
            "countess": character("The Countess", 21, contingency_envelopes=list(envelopes))
        },
    }


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

_MENU_KINDS = ("declare", "resolve", "use_mind", "next_round", "escape")


def _menu(table: T, who: str) -> list[tuple[str, str, dict[str, Any]]]:
    """``who``'s combat choices: kind, label and each parameter's values (or bounds)."""
    assert {c.actor for c in table.legal_actions(who)} <= {who}
    return [
        (
            c.kind,
            c.label,
            {k: getattr(v, "values", None) or (v.low, v.high) for k, v in c.params.items()},
        )
        for c in table.legal_actions(who)
        if c.kind in _MENU_KINDS
    ]


def _d(action: str, label: str = "", **params: Any) -> tuple[str, str, dict[str, Any]]:
    return ("declare", label or action, {"action": (action,), **params})


_SCREAM = _d("scream", bonus=(0, 3))

_NEXT = ("next_round", "", {"combat": ("combat-1",)})

_RESOLVE = ("resolve", "", {"combat": ("combat-1",)})

_ARMS = _d("draw", item=("cosh", "pistol"))


def menu(table: T, who: str) -> list[tuple[str, str, dict[str, Any]]]:
    """Each offer to ``who`` as (kind, label, params), in the order offered."""
    offers = [c.to_json() for c in table.legal_actions(who)]
    assert {o["actor"] for o in offers} <= {who}
    return [(o["kind"], o["label"], o["params"]) for o in offers]


def odds(table: T, who: str, kind: str) -> list[tuple[str, str, str, dict[str, str]]]:
    """The odds shown with ``who``'s offers of ``kind``: (label, rule, dice, odds)."""
    return [
        (o["label"], o["rule"], o["dice"], o["odds"])
        for c in table.legal_actions(who)
        if c.kind == kind
        for o in c.to_json()["odds"]
    ]


def one_of(*values: Any) -> dict[str, Any]:
    return {"one_of": list(values)}


def some_of(*values: str, most: int | None = None) -> dict[str, Any]:
    return {"some_of": list(values), "least": 1, "most": most}


HOW = one_of("see", "meet", "talk")

SAY = {"text": "Hm."}


def kinds_offered(table: T, who: str) -> dict[str, list[dict[str, Any]]]:
    offered: dict[str, list[dict[str, Any]]] = {}
    for kind, _, params in menu(table, who):
        offered.setdefault(kind, []).append(params)
    return offered
