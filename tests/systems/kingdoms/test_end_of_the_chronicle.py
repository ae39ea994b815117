"""The end of the chronicle ("Chronicle": "the last Faction standing has rulership over the
territory"): once it is won, nothing more is played — no new session, no Chronicle Objective
offered or taken — and only the record, its export and the handouts remain (audit K-N2)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from referee.core import Action, RuleError, Table
from referee.dice import ScriptedSource

from .test_procedure import PROCEDURE, _reveal, act, setup


def _won() -> Table[Any]:
    """The elves wipe out the orcs (disposition 2) with an Assault: the chronicle is won."""
    data = setup()
    del data["factions"]["dwarves"]
    data["factions"]["elves"]["assessed"] = ["orcs"]
    data["factions"]["orcs"]["disposition"] = 2
    table = Table.start(PROCEDURE, data)
    table = act(table, "elves", "write_slip", maneuver="Assault", skill="Tactics", target="orcs")
    table = act(table, "orcs", "write_slip", maneuver="Fortify", skill="Tactics", substitute=True)
    table = act(table, "elves", "scene", kind="conflict", target="orcs")
    table = act(_reveal(table, "elves", [4] * 5 + [1] * 4), "elves", "resolve")
    assert any(e.kind == "chronicle.won" for e in table.log)
    return table


def test_nothing_is_offered_once_the_chronicle_is_won() -> None:
    """Chronicle: "the last Faction standing has rulership over the territory" — no faction,
    the winner or the defeated, is offered a new session or an objective after it."""
    table = _won()
    for faction in ("elves", "orcs"):
        assert PROCEDURE.legal_actions(table.state, faction) == ()
    assert PROCEDURE.actors(table.state) == ()


@pytest.mark.parametrize(
    ("actor", "kind", "params", "what"),
    [
        ("elves", "new_session", {}, "new session"),
        ("orcs", "new_session", {}, "new session"),
        ("elves", "objective", {"text": "Hold the mountain"}, "Chronicle Objective"),
        ("orcs", "objective", {"text": "Take it back"}, "Chronicle Objective"),
    ],
)
def test_a_new_session_or_an_objective_after_the_chronicle_is_won_is_refused(
    actor: str, kind: str, params: dict[str, Any], what: str
) -> None:
    """Chronicle: "the last Faction standing has rulership over the territory" — a new
    session or a Chronicle Objective after it is refused, naming the rule and what is
    refused; nothing is recorded."""
    table = _won()
    with pytest.raises(RuleError, match=r"Chronicle.*the chronicle is over \(won by the Elves\)"):
        act(table, actor, kind, **params)
    with pytest.raises(RuleError, match=rf"\(won by the Elves\): no {what} — the last Faction"):
        act(table, actor, kind, **params)


def test_an_affiliation_left_to_buy_is_not_bought_once_the_chronicle_is_won() -> None:
    """Chronicle: once "the last Faction standing has rulership over the territory", not even
    a defeated foe's affiliation left unbought earlier (Consequences) is bought: nothing is
    played after the chronicle is won."""
    table = _won()
    state = table.state
    foe = replace(state.factions["orcs"], conqueror="elves", lost_affiliation="Clan")
    state = replace(state, factions={**state.factions, "orcs": foe})
    with pytest.raises(RuleError, match=r"the chronicle is over .* no affiliation bought"):
        PROCEDURE.build(state, Action("elves", "buy_affiliation", {}), ScriptedSource([]))
    assert PROCEDURE.legal_actions(state, "elves") == ()


def test_a_defeated_leader_does_not_join_the_winner_once_the_chronicle_is_won() -> None:
    """Chronicle: once "the last Faction standing has rulership over the territory", the orcs'
    leader, defeated by the very Assault that won it, joins no faction (Consequences: a
    defeated leader joins "a faction still in contention"): refused."""
    table = _won()
    with pytest.raises(RuleError, match=r"over \(won by the Elves\): no defeated leader joins"):
        act(table, "orcs", "join", faction="elves")


def test_a_tied_conquest_left_when_the_chronicle_is_won_stays_undecided_on_record() -> None:
    """Chronicle and Consequences: the elves and the dwarves wipe out the orcs with equal
    successes ("the defeated player may decide who counts as the conqueror") while the orcs
    wipe out the dwarves, so the elves are "the last Faction standing": the chronicle is over
    and won, the tie stays on record undecided, and the orcs choose no conqueror after it."""
    data = setup()
    data["factions"]["orcs"].update(disposition=6, assessed=["dwarves"])
    data["factions"]["elves"]["assessed"] = ["orcs"]
    data["factions"]["dwarves"].update(disposition=3, assessed=["orcs"])
    data["factions"]["dwarves"]["leader"]["skills"]["Tactics"] = "B4"
    table = Table.start(PROCEDURE, data)
    attacks = (("elves", "orcs"), ("orcs", "dwarves"), ("dwarves", "orcs"))
    for faction, target in attacks:
        assault = {"maneuver": "Assault", "skill": "Tactics", "target": target}
        table = act(table, faction, "write_slip", **assault)
    for faction, target in attacks:
        table = act(table, faction, "scene", kind="conflict", target=target)
    table = _reveal(table, "elves", [4, 4, 4, 4, 1] + [4] * 8)
    table = act(table, "elves", "resolve")
    ended = table.log.events[-1]
    assert ended.kind == "maneuver.ended"
    assert ended.payload["pending_conquest"] == {"orcs": ["elves", "dwarves"]}
    assert (table.state.phase, table.state.winner) == ("over", "elves")
    assert table.state.pending_conquest == {"orcs": ("elves", "dwarves")}
    assert table.state.factions["dwarves"].conqueror == "orcs"
    assert PROCEDURE.legal_actions(table.state, "orcs") == ()
    with pytest.raises(RuleError, match="the chronicle is in its over phase"):
        act(table, "orcs", "choose_conqueror", conqueror="dwarves")
