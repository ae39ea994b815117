"""Consequences (Gin Lane, "Consequences"): a slot of each severity, mitigation, recovery, the
extreme one replacing an Aspect, and a consequence as an Aspect in play.
"""

from __future__ import annotations

import pytest

from referee.core import ScenarioError
from referee.systems.ginlane.scene import state_json
from referee.systems.ginlane.stress import Consequences, TakenConsequence

from .helpers import _hit_of_13, _new
from .test_procedure import act, duel, events


def test_a_taken_consequence_closes_its_severity_only() -> None:
    """Consequences: one slot of each severity; taking a moderate one leaves the others open."""
    slots = Consequences().take(TakenConsequence("moderate", "Bleeding Cut"))
    assert slots.free_severities() == ("slight", "heavy", "extreme")
    assert Consequences().free_severities() == ("slight", "moderate", "heavy", "extreme")


def test_a_recovered_consequence_goes_and_the_others_keep_their_days() -> None:
    """Consequences: a slight one lasts a day, a moderate a week, a heavy a month: a day's
    recovery removes the slight one and counts a day on each of the others."""
    slots = (
        Consequences()
        .take(TakenConsequence("slight", "Winded"))
        .take(TakenConsequence("moderate", "Bleeding Cut"))
        .take(TakenConsequence("heavy", "Broken Arm"))
    )
    left = slots.recover(1)
    assert [(c.aspect, c.recovered_days) for c in left.taken] == [
        ("Bleeding Cut", 1),
        ("Broken Arm", 1),
    ]


def test_consequences_mitigate_a_hit_and_what_is_left_is_marked() -> None:
    """Consequences: slight mitigates 2, moderate 4, heavy 6, extreme 8 (replacing an Aspect,
    named in any case); what is left of the 13 is marked: 3, then 1, then nothing at all."""
    extreme = {"severity": "extreme", "aspect": "Scarred Face", "replaces": "handsome jack"}
    table = _hit_of_13(extreme, {"severity": "slight", "aspect": "Winded"})
    assert events(table, "consequence.taken") == [
        {
            "character": "jack",
            "severity": "extreme",
            "aspect": "Scarred Face",
            "track": "Health",
            "mitigates": 8,
            "inflicted_by": "society",
            "replaces": "handsome jack",
        },
        {
            "character": "jack",
            "severity": "slight",
            "aspect": "Winded",
            "track": "Health",
            "mitigates": 2,
            "inflicted_by": "society",
            "replaces": None,
        },
    ]
    assert table.state.get("jack").sheet.aspects == ("Scarred Face",)
    (hit,) = events(table, "stress.taken")
    assert (hit["character"], hit["track"], hit["stress"]) == ("jack", "Health", 3)
    table = _hit_of_13(extreme, {"severity": "moderate", "aspect": "Bleeding Cut"})
    assert [e["stress"] for e in events(table, "stress.taken")] == [1]
    table = _hit_of_13(extreme, {"severity": "heavy", "aspect": "Broken Arm"})
    assert not events(table, "stress.taken")
    assert not table.state.get("jack").taken_out


def test_a_named_consequence_recovers_and_the_others_stay_on_the_scene() -> None:
    """Consequences recover only with their circumstances: a week's treatment of jack's
    Bleeding Cut (moderate, a week) heals it; his Winded (slight, a day) had no treatment and
    stays, an Aspect still on him."""
    table = _hit_of_13(
        {"severity": "slight", "aspect": "Winded"},
        {"severity": "moderate", "aspect": "Bleeding Cut"},
    )
    treated = act(table, "jack", "recover", days=7, aspect="Bleeding Cut")
    assert _new(table, treated) == [
        (
            "consequence.recovering",
            {
                "character": "jack",
                "days": 7,
                "aspect": "Bleeding Cut",
                "recovered": ["Bleeding Cut"],
            },
        )
    ]
    assert treated.state.get("jack").consequences.aspects() == ("Winded",)
    assert [(a.name, a.on) for a in treated.state.aspects] == [("Winded", "jack")]


def test_an_extreme_consequence_replaces_the_aspect_it_names_and_no_other() -> None:
    """Consequences: an extreme consequence "replaces one of the character's Aspects" — jack's
    Scarred Face replaces Handsome Jack (named in any case); his Quick Temper stays."""
    table = act(
        duel(jack={"aspects": ["Handsome Jack", "Quick Temper"]}),
        "moll",
        "attack",
        [6, 6, 1, 1],
        target="jack",
        consequences=[
            {"severity": "extreme", "aspect": "Scarred Face", "replaces": "handsome jack"}
        ],
    )
    assert table.state.get("jack").sheet.aspects == ("Scarred Face", "Quick Temper")
    shown = state_json(table.state)["characters"]["jack"]["aspects"]
    assert shown == ["Scarred Face", "Quick Temper"]


def test_a_consequence_is_an_aspect_numbered_before_the_next_one_placed() -> None:
    """Consequences: jack's heavy Broken Arm (7 stress, 6 soaked, 1 marked) is an Aspect in
    play, number 1; his Under Cover, placed next, is number 2, and both stay in play."""
    table = act(
        duel(),
        "moll",
        "attack",
        [3, 3, 1, 1],
        target="jack",
        consequences=[{"severity": "heavy", "aspect": "Broken Arm"}],
    )
    table = act(table, "jack", "manoeuvre", [6, 6], named="take cover", difficulty="Fair")
    assert [p["id"] for p in events(table, "aspect.placed")] == [2]
    assert [(a.id, a.name) for a in table.state.aspects] == [(1, "Broken Arm"), (2, "Under Cover")]


@pytest.mark.parametrize("side", ["", "  "])
def test_a_blank_side_is_refused_at_setup(side: str) -> None:
    """Consequences: a consequence is free to tag for the side that inflicted it, so every
    character's side is a name: a blank one is refused, naming where."""
    with pytest.raises(ScenarioError, match=r"characters\.moll\.side: a side is named"):
        duel(moll={"side": side})
