"""Aspects (Gin Lane, "Aspects", "What do Aspects Do?", "Declarations", "Maintenance"):
a declaration or a maintenance paid from the pool, recorded and offered at any time.
"""

from __future__ import annotations

from typing import Any

from referee.core import Table
from referee.systems.ginlane.aspects import taggable
from referee.systems.ginlane.scene import SceneState

from .helpers import _SOCIETY, _menu, _new, _said
from .test_procedure import act, duel

_AGILE = {"skill": "Agility", "difficulty": 7}


def _any_time(table: Table[SceneState], who: str) -> list[tuple[str, str, dict[str, Any]]]:
    return [c for c in _menu(table, who) if c[0] in {"declare", "maintain", "recover", "ritual"}]


def test_a_declaration_is_recorded_with_its_aspect_its_fact_and_the_point_paid() -> None:
    """Declarations: "declare small points of fact covered by an Aspect to be true by making the
    declaration and [...] paying an Experience Point" — the log names the Aspect and the fact,
    and the point paid says what it paid for."""
    table = duel()
    declared = act(table, "moll", "declare", aspect="Fencing Mistress", fact="the master owes her")
    made = {"character": "moll", "aspect": "Fencing Mistress", "fact": "the master owes her"}
    spent = {"character": "moll", "points": 1, "for": "declaration"}
    assert _new(table, declared) == [("declaration.made", made), ("pool.spent", spent)]
    assert [_said(k, d) for k, d in _new(table, declared)] == [
        "Moll declares, by Fencing Mistress: the master owes her",
        "Moll pays 1 from the pool (declaration)",
    ]
    assert declared.state.get("moll").pool.points == 2


def test_maintenance_pays_the_points_asked_and_says_for_which_aspect() -> None:
    """Maintenance: an Aspect "requiring Experience Points to run" — the points asked are paid,
    and the log says which Aspect they kept running."""
    table = duel()
    kept = act(table, "moll", "maintain", aspect="Fencing Mistress", points=2)
    spent = {"character": "moll", "points": 2, "for": "maintain Fencing Mistress"}
    assert _new(table, kept) == [("pool.spent", spent)]
    assert _said("pool.spent", spent) == "Moll pays 2 from the pool (maintain Fencing Mistress)"
    assert kept.state.get("moll").pool.points == 1


def test_a_wounded_character_may_recover_and_anyone_with_a_point_may_declare_at_any_time() -> None:
    """Declarations, Maintenance and "Consequences" (recovery): at any time, on one's turn or
    not, a character with an Aspect and at least one point may make a Declaration or pay
    Maintenance of 1 point up to the whole pool; one who has taken a consequence may spend 1
    to 60 days recovering; out of turn nothing else is offered. moll's attack gives jack a
    heavy consequence (his pool: 2 points); moll's pool is 3."""
    table = act(
        duel(),
        "moll",
        "attack",
        [3, 3, 1, 1],
        target="jack",
        consequences=[{"severity": "heavy", "aspect": "Broken Arm"}],
    )
    assert table.state.current == "jack"
    mine = {"aspect": {"one_of": ["Fencing Mistress", _SOCIETY]}}
    assert _menu(table, "moll") == [
        (
            "declare",
            "a Declaration covered by an Aspect, for a point",
            {**mine, "fact": {"text": "it was always so"}},
        ),
        (
            "maintain",
            "Maintenance: points paid to run an Aspect",
            {**mine, "points": {"between": [1, 3]}},
        ),
    ]
    assert _any_time(table, "jack") == [
        (
            "declare",
            "a Declaration covered by an Aspect, for a point",
            {"aspect": {"one_of": [_SOCIETY]}, "fact": {"text": "it was always so"}},
        ),
        (
            "maintain",
            "Maintenance: points paid to run an Aspect",
            {"aspect": {"one_of": [_SOCIETY]}, "points": {"between": [1, 2]}},
        ),
        ("recover", "days of recovery", {"days": {"between": [1, 60]}}),
    ]
    assert _menu(table, "jack")[0][0] == "attack"


def test_a_character_with_no_point_in_the_pool_may_neither_declare_nor_maintain() -> None:
    """Declarations: "a declaration needs 1 point"; Maintenance pays points: with an empty pool
    moll (Experience 10, all spent on her sheet) is offered neither, on her turn or out of it."""
    table = duel(moll={"experience": 10})
    assert table.state.get("moll").pool.points == 0
    assert _any_time(table, "moll") == []
    assert _menu(table, "moll")[-1][0] == "something_else"


def test_the_aspects_offered_to_tag_are_the_relevant_ones_own_the_targets_and_those_near() -> None:
    """Aspects ("tagging a relevant Aspect"): jack's attack on moll offers his own Aspects and
    moll's, not the Smoke-Filled moll set on the hall, a zone neither stands in; moll's own
    attack offers jack's Gin-Soaked, an Aspect of her target's sheet."""
    table = duel(jack={"aspects": ["Gin-Soaked"]})
    table = act(table, "moll", "manoeuvre", [6, 6], aspect="Smoke-Filled", zone="hall", **_AGILE)
    (smoke,) = table.state.aspects
    assert (smoke.on, table.state.get("jack").zone) == ("hall", "room")
    attack = next(c for c in table.legal_actions("jack") if c.kind == "attack")
    assert attack.params["tags"].values == ("Gin-Soaked", _SOCIETY, "Fencing Mistress")
    moll = table.state.get("moll")
    assert taggable(table.state, moll, ["jack"]) == ("Fencing Mistress", _SOCIETY, "Gin-Soaked")
