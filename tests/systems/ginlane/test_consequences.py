"""Consequences (Gin Lane, "Consequences"): a slot of each severity, mitigation, recovery, the
extreme one replacing an Aspect, and a consequence as an Aspect in play.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import Action, RuleError, ScenarioError, Table
from referee.dice import ScriptedSource
from referee.systems.ginlane import PROCEDURE
from referee.systems.ginlane.scene import SceneState, state_json
from referee.systems.ginlane.stress import Consequences, TakenConsequence

from .helpers import _hit_of_13, _new
from .test_procedure import act, duel, events, kinds


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


def _seven() -> Table[SceneState]:
    """moll's sword, 4 + 4 + Weapons 3 = 11, against jack's parry 2 + 2 + 2 = 6: 5 + 2 = 7
    Health stress, past his five boxes; the hit waits for jack."""
    return _seven_on(duel())


def _seven_on(table: Table[SceneState]) -> Table[SceneState]:
    """moll's attack of 11 on jack's parry of 6 (:func:`_seven`) on ``table``."""
    table = act(table, "moll", "attack", [], target="jack", answer=False)
    return act(table, "jack", "defend", [4, 4, 2, 2], answer=False, skill="Weapons")


def test_a_hit_short_of_the_track_asks_its_target_naming_the_box_it_would_tick() -> None:
    """Stress Tracks: "Hit for N stress? So tick off the Nth Stress box." moll beats jack by 1
    (Weapons 3 + 3 + 3 = 9 against 2 + 3 + 3 = 8), her sword adding 2: a hit of 3, which the
    table asks jack to take, saying that on the track it ticks box 3; declined, it does."""
    table = act(duel(), "moll", "attack", [3, 3, 3, 3], target="jack", answer=False)
    table = act(table, "jack", "defend", [3, 3, 3, 3], answer=False, skill="Weapons")
    (asked,) = PROCEDURE.prompts(table.state)
    assert "3 Health stress (box 3 marked if taken on the track)" in asked.reason
    assert asked.default is not None
    taken = table.act(asked.default, ScriptedSource([]))
    assert events(taken, "stress.taken")[-1]["box"] == 3


def test_a_hit_waits_for_its_target_who_takes_a_consequence_instead_of_being_taken_out() -> None:
    """Consequences: "Rather than take too may stress hits and be Taken Out characters can chose
    to take a Consequence instead." A 7-stress hit on jack's five boxes does not take him out
    at once: the table asks him how he takes it (the slots open, with what each mitigates;
    declining puts it on the track). He takes a moderate Bleeding Cut: 7 − 4 = 3, box 3."""
    table = _seven()
    assert events(table, "hit.landed") == [
        {"character": "jack", "by": "moll", "stress": 7, "track": "Health"}
    ]
    assert not table.state.get("jack").taken_out and table.state.current == "moll"
    (asked,) = PROCEDURE.prompts(table.state)
    assert (asked.actor, asked.kinds, asked.section) == ("jack", ("absorb",), "Consequences")
    assert "7 Health stress (Taken Out if taken on the track)" in asked.reason
    assert asked.default is not None and asked.default.params == {"consequences": []}
    (absorb,) = table.legal_actions("jack")
    step = absorb.params["consequences"].step
    assert step.fields["severity"].values == ("slight", "moderate", "heavy")
    assert "slight 2, moderate 4, heavy 6, extreme 8" in absorb.label
    with pytest.raises(RuleError, match="the table waits for jack to decide"):
        act(table, "moll", "full_defence")
    taken = act(
        table,
        "jack",
        "absorb",
        answer=False,
        consequences=[{"severity": "moderate", "aspect": "Bleeding Cut"}],
    )
    assert events(taken, "stress.taken")[-1] == {
        "character": "jack",
        "track": "Health",
        "stress": 3,
        "box": 3,
        "taken_out": False,
    }
    assert not taken.state.get("jack").taken_out and taken.state.hit is None
    assert taken.state.current == "jack"  # the turn passes once the hit is taken


def test_a_hit_she_will_not_soak_past_the_track_takes_her_out() -> None:
    """Taken Out: "If N is greater than the length of the Stress track … the character is Taken
    Out" — only when she cannot or will not take a Consequence: declining (the prompt's
    default) puts the 7 on the track, and jack is Taken Out."""
    table = _seven()
    (asked,) = PROCEDURE.prompts(table.state)
    assert asked.default is not None
    out = table.act(asked.default, ScriptedSource([]))
    assert kinds(out, table.version)[:2] == ["stress.taken", "taken_out"]
    assert out.state.get("jack").taken_out and out.state.over


def test_a_hit_is_taken_only_by_its_target_and_each_severity_once() -> None:
    """Consequences: the hit is jack's to take, not moll's; one consequence of each severity."""
    table = _seven()
    with pytest.raises(RuleError, match="Consequences: no hit waits for Moll to take"):
        PROCEDURE.decide(table.state, Action("moll", "absorb", {}), ScriptedSource([]))
    twice = [{"severity": "slight", "aspect": "Winded"}, {"severity": "slight", "aspect": "Sore"}]
    with pytest.raises(RuleError, match="already has a slight consequence"):
        act(table, "jack", "absorb", answer=False, consequences=twice)


def _absorb_offered(table: Table[SceneState], who: str) -> dict[str, Any]:
    (absorb,) = table.legal_actions(who)
    assert (absorb.actor, absorb.kind) == (who, "absorb")
    return dict(absorb.to_json()["params"]["consequences"])


def test_an_extreme_consequence_is_offered_while_open_replacing_one_of_the_sheets_aspects() -> None:
    """Consequences: "Extreme [...] replaces one of the character's Aspects": jack, with Handsome
    Jack on his sheet, is offered all four severities against moll's 7, the extreme one naming
    the Aspect it may replace (optional: the others replace none), up to three of them ("three
    consequence slots but four consequence options"). He takes the extreme Scarred Face for
    Handsome Jack; against her next hit (5, in his Full defence) only slight, moderate and heavy
    are left to him, up to two: the slots still free."""
    table = _seven_on(duel(jack={"aspects": ["Handsome Jack"]}))
    one = {
        "severity": {"one_of": ["slight", "moderate", "heavy"]},
        "aspect": {"text": "Bruised Hand"},
    }
    assert _absorb_offered(table, "jack") == {
        "steps": {
            "record": {
                "severity": {"one_of": ["slight", "moderate", "heavy", "extreme"]},
                "aspect": {"text": "Bruised Hand"},
                "replaces": {"one_of": ["Handsome Jack"]},
            },
            "optional": ["replaces"],
        },
        "least": 0,
        "most": 3,
    }
    extreme = {"severity": "extreme", "aspect": "Scarred Face", "replaces": "Handsome Jack"}
    table = act(table, "jack", "absorb", answer=False, consequences=[extreme])
    assert table.state.get("jack").sheet.aspects == ("Scarred Face",)
    table = _seven_on(act(table, "jack", "full_defence"))
    assert events(table, "hit.landed")[-1]["stress"] == 5
    assert _absorb_offered(table, "jack") == {
        "steps": {"record": one, "optional": ["replaces"]},
        "least": 0,
        "most": 2,
    }


def test_every_seat_sees_the_hit_waiting_for_its_target_and_none_once_it_is_taken() -> None:
    """Consequences: the scene every seat sees shows moll's hit of 7 Health stress waiting for
    jack to take it; once he has taken it on the track, no hit waits."""
    table = _seven()
    assert PROCEDURE.state_json(table.state)["hit"] == {
        "character": "jack",
        "attacker": "moll",
        "stress": 7,
        "track": "Health",
        "fuse": False,
    }
    (asked,) = PROCEDURE.prompts(table.state)
    assert asked.default is not None
    taken = table.act(asked.default, ScriptedSource([]))
    assert PROCEDURE.state_json(taken.state)["hit"] is None


def test_a_hit_on_a_character_with_every_slot_full_goes_on_the_track_with_no_asking() -> None:
    """Consequences: "at most three": jack takes a slight, a moderate and a heavy one against
    moll's 7 (mitigating it all); her next hit, 5 against his Full defence, has nothing left to
    choose: the table asks him nothing, and box 5 of his Health is marked at once."""
    three = [("slight", "Winded"), ("moderate", "Bleeding Cut"), ("heavy", "Broken Arm")]
    chosen = [{"severity": s, "aspect": a} for s, a in three]
    table = act(_seven(), "jack", "absorb", answer=False, consequences=chosen)
    assert table.state.get("jack").consequences.free_severities() == ()
    assert events(table, "stress.taken") == []
    before = table.version
    table = _seven_on(act(table, "jack", "full_defence"))
    assert "hit.landed" not in kinds(table, before)
    assert events(table, "stress.taken") == [
        {"character": "jack", "track": "Health", "stress": 5, "box": 5, "taken_out": False}
    ]
    assert PROCEDURE.prompts(table.state) == () and table.state.hit is None
