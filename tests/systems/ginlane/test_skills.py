"""Skills (Gin Lane, "The Skills List", "No Relevant Skill", "Skill Interaction", "Craft"): a skill
by its former name, a craft, a related or arcane skill, and a skill limited by another.
"""

from __future__ import annotations

import pytest

from referee.core import ActionError, RuleError
from referee.systems.ginlane.tables import skill, skills

from .helpers import _new
from .test_procedure import BRAVO, FIGHTER, act, browbeaten, duel, events, scene, start

# moll's pyramid with one skill at 1 swapped for another (the Skill Pyramid still holds)
_SWAPPED = {k: v for k, v in FIGHTER.items() if k != "Brawl"}


def _manoeuvre_total(skills: dict[str, int], skill: str) -> tuple[int, str]:
    """moll's manoeuvre against the surroundings (Fair, 7 to beat) with ``skill`` on 3 + 3."""
    table = duel(moll={"skills": skills})
    done = act(table, "moll", "manoeuvre", [3, 3], named="take cover", difficulty=7, skill=skill)
    (rolled,) = events(done, "manoeuvre.rolled")
    return rolled["rolled"]["total"], rolled["outcome"]


def test_a_skill_limited_by_a_higher_one_rolls_at_its_own_level() -> None:
    """Skill Interaction: "one limits the other, roll once using the lower skill value" — whichever
    of the two it is: moll's Brawl 1 limited by her Weapons 3 rolls at 1 (3 + 3 + 1 = 7)."""
    done = act(
        duel(),
        "moll",
        "manoeuvre",
        [3, 3],
        named="take cover",
        difficulty=7,
        skill="Brawl",
        limited_by="Weapons",
    )
    (rolled,) = [d for k, d in _new(duel(), done) if k == "manoeuvre.rolled"]
    assert (rolled["rolled"]["total"], rolled["outcome"]) == (7, "match")


def test_a_skill_named_by_its_former_name_rolls_at_the_sheets_level() -> None:
    """The Skills List: Rapport is now Charm; a roll of Rapport by a character with Charm 1 is
    a roll of Charm 1 (3 + 3 + 1 = 7), not an untrained one (−2)."""
    assert _manoeuvre_total({**_SWAPPED, "Charm": 1}, "Rapport") == (7, "match")


def test_a_sheet_that_keeps_a_former_name_rolls_it_at_its_level() -> None:
    """A sheet written with Rapport (Charm's former name) rolls Rapport at its level."""
    assert _manoeuvre_total({**_SWAPPED, "Rapport": 1}, "Rapport") == (7, "match")


def test_a_skill_asked_by_its_new_name_rolls_a_sheets_former_name() -> None:
    """The Skills List: Rapport is now Charm; a sheet written with Rapport 1 rolls Charm at 1."""
    assert _manoeuvre_total({**_SWAPPED, "Rapport": 1}, "Charm") == (7, "match")


def test_a_related_claim_never_lowers_a_skill_the_sheet_has_under_another_name() -> None:
    """No Relevant Skill: ``related: true`` rolls an untrained skill at 0; moll has Charm 1, so
    Rapport (Charm's former name) claimed as related still rolls at 1 (3 + 3 + 1 = 7)."""
    table = duel(moll={"skills": {**_SWAPPED, "Charm": 1}})
    done = act(
        table,
        "moll",
        "manoeuvre",
        [3, 3],
        named="take cover",
        difficulty=7,
        skill="Rapport",
        related=True,
    )
    (rolled,) = events(done, "manoeuvre.rolled")
    assert (rolled["rolled"]["total"], rolled["outcome"]) == (7, "match")


def test_a_skill_taken_for_one_craft_rolls_at_its_level() -> None:
    """The Skills List, "Craft" (a choice: Craft: tailor): the skill as the sheet names it counts
    at its level (3 + 3 + 1 = 7)."""
    assert _manoeuvre_total({**_SWAPPED, "Craft: tailor": 1}, "Craft: tailor") == (7, "match")


def test_a_craft_with_no_craft_named_does_not_count_for_tailoring() -> None:
    """Craft is taken for one craft: a sheet's bare Craft 1 does not make moll a tailor, who
    rolls Craft: tailor untrained (3 + 3 − 2 = 4)."""
    assert _manoeuvre_total({**_SWAPPED, "Craft": 1}, "Craft: tailor") == (4, "failure")


def test_an_arcane_skill_is_impossible_untrained() -> None:
    """No Relevant Skill: "Arcane or Obscure" skills are impossible to the uninitiated (Rulings:
    read as impossible): an untrained Lore roll is refused, not rolled at −2."""
    with pytest.raises(RuleError, match="No Relevant Skill: an Arcane or Obscure skill"):
        _manoeuvre_total(FIGHTER, "Lore")


def test_a_block_its_overcoming_and_a_seize_roll_a_craft_at_the_sheets_level() -> None:
    """The Skills List, "Craft" (a choice): a Block "in an appropriate skill", the roll to
    overcome it and a seize each roll Craft: locksmith at the sheet's 1, not untrained (−2)
    — until round 5 the actions looked the skill up as Craft, which the sheet does not have."""
    lock = {"Craft: locksmith": 1}
    setup = scene(
        m={"side": "s", "zone": "a", "skills": lock}, j={"side": "b", "zone": "a", "skills": lock}
    )
    table = start(setup, 6, 6, 1, 1)
    blocked = act(table, "m", "block", [3, 3], action="pick the lock", skill="Craft: locksmith")
    assert blocked.state.get("m").block.strength == 7
    passed = act(blocked, "j", "overcome", [4, 3], blocker="m", skill="Craft: locksmith")
    (tested,) = events(passed, "block.tested")
    assert (tested["strength"], tested["rolled"]["total"]) == (7, 8)
    seized = act(table, "m", "seize", [1, 1], thing="the key", skill="Craft: locksmith")
    assert events(seized, "seized") == [{"character": "m", "thing": "the key"}]


def test_a_skill_is_found_before_its_speciality_and_a_name_of_no_skill_is_refused() -> None:
    """The Skills List: "Craft (tailor)" and "Craft: tailor" are Craft; a name with no skill in
    it (blank, or only a speciality) is no skill — it used to find Agility, the first skill
    with no former name, and a manoeuvre with the skill "(x)" rolled Agility."""
    assert [skill(n).name for n in ("Craft (tailor)", "craft: peruquier", "Rapport")] == [
        "Craft",
        "Craft",
        "Charm",
    ]
    for name in ("", " ", "(tailor)", "xxxx"):
        with pytest.raises(RuleError, match="The Skills List: no skill"):
            skill(name)
    with pytest.raises(ActionError, match="no skill"):
        act(duel(), "moll", "manoeuvre", [4, 3], skill="(x)", aspect="Ready", scene=True)


def test_an_attack_limited_by_another_skill_rolls_the_lower() -> None:
    """Skill Interaction: jack's Weapons 2 attack limited by his Agility 1 rolls 1."""
    table = act(duel(), "moll", "full_defence")
    table = act(table, "jack", "attack", [3, 3, 1, 1], target="moll", limited_by="Agility")
    assert events(table, "attack.rolled")[0]["total"] == 3 + 3 + 1


def test_an_untrained_attack_of_a_related_skill_rolls_at_zero() -> None:
    """No Relevant Skill: jack (no Intimidation) browbeats moll at 0 with ``related``, not at
    the untrained level."""
    table = act(duel(), "moll", "full_defence")
    table = act(
        table, "jack", "attack", [3, 3, 1, 1], target="moll", skill="Intimidation", related=True
    )
    assert events(table, "attack.rolled")[0]["total"] == 3 + 3
    assert BRAVO.get("Intimidation") is None


def test_every_skill_is_found_by_its_name_and_former_name_as_the_list_read_in_order() -> None:
    """The Skills List, looked up by name on every roll and every choice (issue 31: an index
    of the list, read once): each name and former name, in any case and with a speciality,
    finds the skill the list read in order finds first."""

    def first_on_the_list(name: str) -> str:
        base = name.split(":")[0].split("(")[0].strip().lower()
        return next(
            s.name
            for s in skills()
            if s.name.lower() == base or (s.formerly is not None and s.formerly.lower() == base)
        )

    names = [s.name for s in skills()] + [s.formerly for s in skills() if s.formerly]
    assert len(names) > len(skills())  # some skills have a former name
    for name in names:
        for asked in (name, name.upper(), f" {name.lower()} (a speciality)", f"{name}: x"):
            assert skill(asked).name == first_on_the_list(asked)


def test_the_defence_offered_against_a_limited_or_related_attack_shows_the_skill_it_rolls() -> None:
    """Skill Interaction, No Relevant Skill, Defence: the odds moll is offered against jack's
    attack are of the skill he rolls — his Weapons 2 limited by his Agility 1 at 1, an untrained
    Intimidation claimed as related at 0 — not of the skill's own level."""
    table = act(duel(), "moll", "full_defence")
    limited = act(table, "jack", "attack", [], target="moll", limited_by="Agility", answer=False)
    defend, _ = limited.legal_actions("moll")
    assert [o.dice for o in defend.odds] == ["2d6+1 vs 2d6+5", "2d6+1 vs 2d6+4"]
    related = browbeaten(table)
    defend, _ = related.legal_actions("moll")
    assert [o.dice for o in defend.odds] == [
        "2d6+0 vs 2d6+4",
        "2d6+0 vs 2d6+3",
        "2d6+0 vs 2d6+0",
        "2d6+0 vs 2d6+0",
    ]
