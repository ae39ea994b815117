"""Philosophy and Magia (Gin Lane, "The Sephirot", "Magia", "How you do magic", "Society")."""

from __future__ import annotations

import pytest

from referee.core import RuleError
from referee.dice import ScriptedSource
from referee.systems.ginlane.character import Character
from referee.systems.ginlane.magia import (
    Ritual,
    can_practise,
    interruption_risk,
    philosophy_aspect,
    ritual_skill,
    sephira,
)
from referee.systems.ginlane.tables import sephirot

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
