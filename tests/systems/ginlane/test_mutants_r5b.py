"""Tests that kill the mutants of ``between_scenes.py``, ``magia.py``, ``actions.py``,
``character.py``, ``tables.py`` and ``cards.py`` mutmut left alive in round 5 of issue 13
(docs/systems/ginlane.md, "Mutation testing", "Round 5, part B"): each asserts an outcome of the
rules text ("Getting Experience", "Experience Pool Refresh", "Consequences", "Magia", "How you do
magic", "Characters")."""

from __future__ import annotations

from typing import Any

from referee.core import Table
from referee.systems.ginlane import PROCEDURE
from referee.systems.ginlane.character import SOCIETY, Character
from referee.systems.ginlane.magia import can_practise, philosophy_aspect
from referee.systems.ginlane.scene import SceneState

from .test_mutants import _hit_of_13
from .test_procedure import act, duel

DEE = {
    "side": "s",
    "aspects": ["Adept of Hod"],
    "skills": {"Occult Philosophy: Hod": 1},
    "experience": 3,
}
"""A Philosopher of Hod with 2 points in her pool."""


def _new(before: Table[SceneState], after: Table[SceneState]) -> list[tuple[str, dict[str, Any]]]:
    return [(e.kind, dict(e.data)) for e in after.log.events[len(before.log.events) :]]


def _ritual(mode: str, faces: list[int], *tags: str) -> tuple[Table[SceneState], Table[SceneState]]:
    table = Table.start(PROCEDURE, {"mode": mode, "characters": {"dee": DEE}})
    params = {"sephira": "Hod", "effect": "find the letter", "difficulty": "Fair"}
    return table, act(table, "dee", "ritual", faces, **params, tags=list(tags))


# ------------------------------------------------------------------ between_scenes.py


def test_experience_awarded_to_one_character_goes_to_that_pool_only() -> None:
    """Getting Experience: the referee awards points to the characters named; named none, to
    everyone at the table."""
    table = duel()
    one = act(table, "referee", "award", points=2, characters=["moll"])
    assert _new(table, one) == [("pool.awarded", {"character": "moll", "points": 2})]
    assert (one.state.get("moll").pool.points, one.state.get("jack").pool.points) == (5, 2)
    everyone = act(table, "referee", "award", points=2)
    assert [d["character"] for _, d in _new(table, everyone)] == ["moll", "jack"]


def test_the_end_of_a_session_refills_only_the_pools_of_those_named() -> None:
    """Experience Pool Refresh: "Characters usually start a session with a full experience
    pool" — a session ended for jack alone refills jack's pool, not moll's."""
    table = act(duel(), "moll", "declare", aspect="Fencing Mistress", fact="x")
    ended = act(table, "referee", "end_session", characters=["jack"])
    assert _new(table, ended) == [
        ("scene.ended", {"lapsed": []}),
        ("session.ended", {"character": "jack", "wealth_cleared": True, "pool": 2}),
    ]
    assert ended.state.get("moll").pool.points == 2


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


def test_a_ritual_under_option_b_tags_only_when_short() -> None:
    """How you do magic, with tagging option b: Dee's 4 + 5 + Occult Philosophy: Hod 1 = 10
    beats Fair (8) without the Aspect she offered, so no die is re-rolled and no point paid; the
    charm's strength is the margin, 2."""
    before, after = _ritual("b", [4, 5], "Adept of Hod")
    new = _new(before, after)
    assert [k for k, _ in new] == ["ritual.rolled", "charm.made"]
    rolled = new[0][1]
    assert (rolled["rolled"]["faces"], rolled["rolled"]["tags_used"]) == ([4, 5], 0)
    assert (rolled["margin"], rolled["roll"]["dice"]) == (2, "2d6+1 > 8")
    assert new[1][1]["strength"] == 2
    assert after.state.get("dee").pool.points == 2


def test_a_ritual_tags_the_society_for_free() -> None:
    """Aspects: the Society membership is free-taggable — tagged for a ritual it adds its die
    (3d6, the best two kept) and costs no point from the pool."""
    before, after = _ritual("a", [3, 3, 4], SOCIETY)
    new = _new(before, after)
    assert [k for k, _ in new] == ["aspect.tagged", "ritual.rolled"]
    assert new[0][1]["free"] is True
    rolled = new[1][1]
    assert (rolled["rolled"]["total"], rolled["rolled"]["tags_paid"]) == (8, 0)
    assert after.state.get("dee").pool.points == 2


# ------------------------------------------------------------------ magia.py


def test_the_philosophers_aspect_names_the_sephira_in_any_case() -> None:
    """Magia: a Philosopher needs an Aspect in the Sephira — "student of hod" names Hod."""
    dee = Character.build("Dee", aspects=["student of hod"], skills={"Occult Philosophy: Hod": 1})
    assert philosophy_aspect(dee, "Hod") == "student of hod"
    assert can_practise(dee, "HOD")


def test_a_rest_after_the_scene_ends_no_scene_again_and_keeps_the_consequences() -> None:
    """Experience Pool Refresh: "a night's rest" comes after the scene — once the scene has
    ended, a rest only rests: jack's consequence (no Aspect of the scene) does not end it again,
    and it stays on him."""
    table = _hit_of_13({"severity": "slight", "aspect": "Winded"})
    ended = act(table, "referee", "end_scene")
    rested = act(ended, "referee", "rest", [1, 1])
    assert [k for k, _ in _new(ended, rested)] == ["rested", "rested"]
    assert [(a.name, a.on) for a in rested.state.aspects] == [("Winded", "jack")]


def test_a_rest_for_one_character_rests_that_character_only() -> None:
    """Stress Recovery: a night's rest clears the Health of the one who rests — moll rests,
    jack (not named) keeps his stress and his pool."""
    table = act(duel(), "moll", "attack", [5, 4, 4, 4], target="jack")
    rested = act(table, "referee", "rest", [6], characters=["moll"])
    assert [d["character"] for k, d in _new(table, rested) if k == "rested"] == ["moll"]
    assert rested.state.get("jack").track("Health").marked != ()
