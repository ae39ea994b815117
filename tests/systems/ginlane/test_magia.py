"""Philosophy and Magia (Gin Lane, "The Sephirot", "Magia", "How you do magic", "Society")."""

from __future__ import annotations

import pytest

from referee.core import RuleError, Table
from referee.dice import ScriptedSource
from referee.systems.ginlane import PROCEDURE
from referee.systems.ginlane.character import SOCIETY, Character
from referee.systems.ginlane.magia import (
    Ritual,
    can_practise,
    interruption_risk,
    philosophy_aspect,
    ritual_skill,
    sephira,
)
from referee.systems.ginlane.scene import SceneState
from referee.systems.ginlane.tables import sephirot

from .helpers import _new
from .test_procedure import act

DEE = Character.build("Dee", aspects=["Adept of Hod"], skills={"Occult Philosophy: Hod": 1})


def test_ten_sephirot_and_nine_ritual_skills() -> None:
    assert len(sephirot()) == 10
    skills = [ritual_skill(s.name) for s in sephirot() if s.ritual]
    assert len(skills) == 9  # "The nine skills of sephirotic ritual magic"
    with pytest.raises(RuleError, match="Kether is too pure for mortal ritual"):
        ritual_skill("Kether")
    with pytest.raises(RuleError):
        sephira("Daath")


def test_a_philosopher_needs_the_aspect_and_the_skill() -> None:
    assert philosophy_aspect(DEE, "Hod") == "Adept of Hod"
    assert can_practise(DEE, "hod")
    assert not can_practise(DEE, "Yesod")  # one sephira cannot be worked by another's ritual
    no_aspect = Character.build("Kelly", skills={"Occult Philosophy: Hod": 1})
    assert not can_practise(no_aspect, "Hod")
    assert not can_practise(DEE, "Kether")


def test_ritual_check_and_charm() -> None:
    ritual = Ritual(DEE, "Hod", "find the lost letter", difficulty=8, hours=4)
    check = ritual.check()
    assert check.roll_spec.skill == 1 and check.difficulty == 8
    result = check.roll(ScriptedSource([4, 4]))
    charm = ritual.charm(result.margin)
    assert charm is not None and charm.strength == 1 and charm.sephira == "Hod"
    assert ritual.charm(0) is None
    with pytest.raises(RuleError, match="needs an Aspect in Yesod"):
        Ritual(DEE, "Yesod", "dream", difficulty=8).check()


def test_interruption_risk_and_the_place_of_art() -> None:
    assert interruption_risk(["Sanctum beneath St Bride's"]) == "protected"
    assert interruption_risk(["Lodgings in Grub Street"]) == "reduced"
    assert interruption_risk(["Adept of Hod"]) == "exposed"


def test_the_aspect_must_name_the_sephira_as_a_word() -> None:
    """Magia: "an Aspect in the supernatural ... in a Sephira": a Methodist Preacher's Aspect
    names no Sephira, though "Hod" hides inside "Methodist"."""
    preacher = Character.build(
        "Wesley", aspects=["Methodist Preacher"], skills={"Occult Philosophy: Hod": 1}
    )
    assert philosophy_aspect(preacher, "Hod") is None
    assert not can_practise(preacher, "Hod")
    adept = Character.build("Dee", aspects=["Hod's Own Scholar"], skills={})
    assert philosophy_aspect(adept, "hod") == "Hod's Own Scholar"


def test_a_place_is_named_by_whole_words() -> None:
    """Society: a Residence or a Place of Art protects; a Lighthouse Keeper has no house."""
    assert interruption_risk(["Lighthouse Keeper"]) == "exposed"
    assert interruption_risk(["A House in Soho"]) == "reduced"
    assert interruption_risk(["Sanctums of the Mind"]) == "exposed"


DEE_AT_THE_TABLE = {
    "side": "s",
    "aspects": ["Adept of Hod"],
    "skills": {"Occult Philosophy: Hod": 1},
    "experience": 3,
}


def _ritual(mode: str, faces: list[int], *tags: str) -> tuple[Table[SceneState], Table[SceneState]]:
    table = Table.start(PROCEDURE, {"mode": mode, "characters": {"dee": DEE_AT_THE_TABLE}})
    params = {"sephira": "Hod", "effect": "find the letter", "difficulty": "Fair"}
    return table, act(table, "dee", "ritual", faces, **params, tags=list(tags))


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


def test_the_philosophers_aspect_names_the_sephira_in_any_case() -> None:
    """Magia: a Philosopher needs an Aspect in the Sephira — "student of hod" names Hod."""
    dee = Character.build("Dee", aspects=["student of hod"], skills={"Occult Philosophy: Hod": 1})
    assert philosophy_aspect(dee, "Hod") == "student of hod"
    assert can_practise(dee, "HOD")
