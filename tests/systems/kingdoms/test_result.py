"""The end and the result (issue 26): a Burning Kingdoms chronicle is won by "the last Faction
standing" ("Structure of Play", ``chronicle.won``), or ends unwon if none stands; its conflict
is the maneuver under way or last ended, won by the faction that gained the most disposition
in it."""

from __future__ import annotations

from typing import Any

from referee.core import Action, Result, Table, Viewer, observe
from referee.dice import ScriptedSource
from referee.systems.kingdoms import PROCEDURE


def leader(name: str, **skills: str) -> dict[str, Any]:
    return {
        "name": name,
        "lifepaths": 10,
        "skills": skills,
        "stats": {"Will": "B4", "Health": "B4"},
        "circles": 3,
        "resources": 3,
    }


def setup() -> dict[str, Any]:
    return {
        "territory": "the mountain",
        "strict_sheets": False,  # quick play: no 2iC or rivals needed here
        "factions": {
            "elves": {
                "name": "the Elves of the Wood",
                "disposition": 10,
                "leader": leader("Aeluin", Logistics="B4", Tactics="B5", Observation="B3"),
            },
            "orcs": {
                "disposition": 10,
                "leader": leader("Gorbash", Tactics="B4", Strategy="B3", Inconspicuous="B4"),
            },
            "dwarves": {
                "disposition": 12,
                "leader": leader("Grannir", Fortifications="B5", Law="B4"),
            },
        },
    }


def act(table: Table[Any], actor: str, what: str, faces: list[int] | None = None, /,
        **params: Any) -> Table[Any]:  # fmt: skip
    return table.act(Action(actor, what, params), ScriptedSource(faces or []))


def revealed(table: Table[Any], faces: list[int]) -> Table[Any]:
    """Every standing faction passes its scenes; the elves (the reader) reveal the slips."""
    for f in table.state.standing():
        if f not in table.state.passed:
            table = act(table, f, "pass")
    return act(table, "elves", "reveal", faces)


def conflict(table: Table[Any]) -> Result:
    found = table.conflict()
    assert found is not None
    return found


def the_orcs_assaulted(data: dict[str, Any]) -> Table[Any]:
    """The elves, having assessed the orcs (disposition 2), Assault them; the orcs Fortify;
    slips revealed, not yet resolved (5 successes for the elves, none for the orcs)."""
    data["factions"]["elves"]["assessed"] = ["orcs"]
    data["factions"]["orcs"]["disposition"] = 2
    table = Table.start(PROCEDURE, data)
    table = act(table, "elves", "write_slip", maneuver="Assault", skill="Tactics", target="orcs")
    table = act(table, "orcs", "write_slip", maneuver="Fortify", skill="Tactics", substitute=True)
    if "dwarves" in data["factions"]:
        table = act(table, "dwarves", "write_slip", maneuver="Fortify", skill="Fortifications")
    table = act(table, "elves", "scene", kind="conflict", target="orcs")
    faces = [4] * 5 + [1] * 4 + ([1] * 5 if "dwarves" in data["factions"] else [])
    return revealed(table, faces)


def test_the_last_faction_standing_wins_the_chronicle() -> None:
    """ "The last Faction standing has rulership over the territory": the orcs wiped out, the
    elves stand alone (``chronicle.won``); the chronicle and its last maneuver are over."""
    data = setup()
    del data["factions"]["dwarves"]
    table = the_orcs_assaulted(data)
    assert not table.result().over and table.result().winners == ()
    assert not conflict(table).over
    table = act(table, "elves", "resolve")
    assert table.state.factions["orcs"].out
    chronicle = table.result()
    assert chronicle.name == "the chronicle of the mountain"
    assert chronicle.over
    assert chronicle.winners == ("elves",)
    assert dict(chronicle.returns) == {"elves": 1, "orcs": -1}
    assert "the Elves of the Wood stands alone" in chronicle.summary
    maneuver = conflict(table)
    assert maneuver.over and maneuver.name == "maneuver 1"
    assert maneuver.winners == ("elves",)
    assert dict(maneuver.returns) == {"elves": 0, "orcs": -2}


def test_the_chronicle_goes_on_while_two_factions_stand() -> None:
    """The orcs out, the elves and the dwarves stand: the maneuver is over, the chronicle is not."""
    table = act(the_orcs_assaulted(setup()), "elves", "resolve")
    assert table.state.factions["orcs"].out
    assert not table.result().over
    assert table.result().winners == ()
    assert conflict(table).over


def test_the_chronicle_ends_unwon_when_nobody_is_left_standing() -> None:
    """The last two factions Assault each other (each has assessed the other, each at
    disposition 2) and wipe each other out: ``chronicle.ended``, over, and nobody wins."""
    data = setup()
    del data["factions"]["dwarves"]
    for f, foe in (("elves", "orcs"), ("orcs", "elves")):
        data["factions"][f]["assessed"] = [foe]
        data["factions"][f]["disposition"] = 2
    table = Table.start(PROCEDURE, data)
    for f, foe in (("elves", "orcs"), ("orcs", "elves")):
        table = act(table, f, "write_slip", maneuver="Assault", skill="Tactics", target=foe)
    for f, foe in (("elves", "orcs"), ("orcs", "elves")):
        table = act(table, f, "scene", kind="conflict", target=foe)
    table = act(revealed(table, [4] * 9), "elves", "resolve")
    assert any(e.kind == "chronicle.ended" for e in table.log)
    result = table.result()
    assert result.over
    assert result.winners == ()
    assert dict(result.returns) == {"elves": -1, "orcs": -1}
    assert "ends unwon" in result.summary


def test_a_maneuver_is_won_by_the_faction_gaining_most_disposition_in_it() -> None:
    """Two maneuvers: each maneuver's winner and returns count from its own start, not the
    chronicle's. The first: the elves Fortify against the orcs' Infiltrate, the dwarves Fortify
    (5 successes against Ob 2, under a cap of 20)."""
    table = Table.start(PROCEDURE, {**setup(), "cap": 20})
    assert not conflict(table).over and conflict(table).winners == ()
    table = act(table, "elves", "write_slip", maneuver="Fortify", skill="Logistics")
    table = act(
        table, "orcs", "write_slip", maneuver="Infiltrate", skill="Inconspicuous", target="elves"
    )
    table = act(table, "dwarves", "write_slip", maneuver="Fortify", skill="Fortifications")
    table = act(table, "orcs", "scene", kind="conflict", target="elves")
    table = revealed(table, [1] * 8 + [4] * 5)
    assert not conflict(table).over
    table = act(table, "elves", "resolve")
    first = conflict(table)
    assert first.over and first.name == "maneuver 1"
    gained = {f: x.disposition - d for (f, x), d in zip(
        table.state.factions.items(), (10, 10, 12), strict=True)}  # fmt: skip
    assert dict(first.returns) == gained
    assert gained["dwarves"] == 3 and max(gained["elves"], gained["orcs"]) <= 0
    assert first.winners == ("dwarves",)
    assert "the Dwarves gained the most disposition (+3)" in first.summary
    assert not table.result().over
    # downtime, then the next maneuver: under way, and nobody has gained anything in it yet
    for f in ("elves", "orcs"):
        while table.state.factions[f].maintenance:
            table = act(table, f, "maintenance", [4, 4, 4, 4, 4, 4])
    table = act(table, "orcs", "next_maneuver")
    second = conflict(table)
    assert second.name == "maneuver 2" and not second.over
    assert set(dict(second.returns).values()) == {0}


def test_a_tie_for_the_most_disposition_names_every_tied_faction() -> None:
    """Everyone Fortifies and fails: nobody gains, all three tie."""
    table = Table.start(PROCEDURE, setup())
    table = act(table, "elves", "write_slip", maneuver="Fortify", skill="Logistics")
    table = act(table, "orcs", "write_slip", maneuver="Fortify", skill="Tactics", substitute=True)
    table = act(table, "dwarves", "write_slip", maneuver="Fortify", skill="Fortifications")
    table = act(revealed(table, [1] * 13), "elves", "resolve")
    result = conflict(table)
    assert result.over
    assert result.winners == ("elves", "orcs", "dwarves")
    assert "tie" in result.summary


def test_the_prologue_is_no_maneuver() -> None:
    data = setup()
    data["prologue"] = True
    table = Table.start(PROCEDURE, data)
    assert table.state.phase == "prologue"
    assert table.conflict() is None
    assert not table.result().over


def test_every_page_is_sent_the_chronicle_and_the_maneuver() -> None:
    data = setup()
    del data["factions"]["dwarves"]
    table = act(the_orcs_assaulted(data), "elves", "resolve")
    seen = observe(table, Viewer("orcs", frozenset({"orcs"}))).to_json()["result"]
    assert seen["over"] is True and seen["winners"] == ["elves"]
    assert seen["conflict"]["name"] == "maneuver 1" and seen["conflict"]["over"] is True
