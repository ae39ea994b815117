"""What a simulated fight asks of the rules, counted (issue 31): the referee's choices, none of
them the fight's, are not worked out at every step; the checks each defence would make against
an attack waiting are worked out once per state, not once for its prompt and again for its
choices; the referee's sheet choice is built once."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from referee.core import REFEREE, CheckOdds, Outcome, system
from referee.core.loader import load_file
from referee.sim.simulate import simulate
from referee.systems.ginlane import (
    answers,
    between_scenes,
    cards,
    choices,
    fight_dice,
    fighting,
    manoeuvres,
    rolls,
    scene,
    tables,
)
from referee.systems.ginlane.character import Character

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"


@pytest.fixture(autouse=True)
def _through_the_procedure(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fight_dice, "fight_on_dice", lambda table: None)


def _duel() -> Any:
    data = load_file(EXAMPLES / "ginlane" / "duel.yaml")
    return system("ginlane").new_table(data["setup"])


def _counted(real: Callable[..., Any], calls: list[Any], name: str) -> Callable[..., Any]:
    def counted(*args: Any) -> Any:
        found = real(*args)
        calls.append((name, args, found))
        return found

    return counted


def test_a_simulated_fight_never_asks_for_the_referees_choices(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[Any] = []
    monkeypatch.setattr(choices, "legal_actions", _counted(choices.legal_actions, calls, "asked"))
    report = simulate(_duel(), runs=10, seed=2)
    assert report.actions > 50 and len(calls) > 50
    assert [args for _, args, _ in calls if args[1] == REFEREE] == []


def test_the_defence_checks_are_worked_out_once_a_state(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[Any] = []
    monkeypatch.setitem(
        answers.CHECKS, "attack", _counted(answers.CHECKS["attack"], calls, "checks")
    )
    monkeypatch.setattr(
        answers, "defence_choices", _counted(answers.defence_choices, calls, "choices")
    )
    monkeypatch.setattr(choices, "defence_choices", answers.defence_choices)
    simulate(_duel(), runs=10, seed=2)
    checked = [id(args[0]) for name, args, _ in calls if name == "checks"]
    asked = [id(args[0]) for name, args, found in calls if name == "choices" and found]
    assert len(asked) > 10
    assert len(checked) == len(set(checked)) <= len(asked)


def test_the_sheet_choice_is_built_once() -> None:
    table = _duel()
    first = [c for c in table.legal_actions(REFEREE) if c.kind == "check_sheet"]
    assert first and first[0] is between_scenes.sheet_choice()


def test_a_skill_is_found_by_name_in_any_case_the_first_of_a_name_counting() -> None:
    sheet = Character("moll", skills=(("Brawl", 2), ("Craft: tailor", 1), ("BRAWL", 4)))
    assert [sheet.level(n) for n in ("brawl", "Brawl", "craft: Tailor", "Agility")] == [
        2,
        2,
        1,
        None,
    ]
    assert Character("jack", skills=(("Brawl", 3),)).level("brawl") == 3  # another sheet


def test_a_skill_is_looked_up_once_a_name(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[Any] = []
    monkeypatch.setattr(
        tables, "_skills_by_name", _counted(tables._skills_by_name, calls, "looked up")
    )
    tables.skill.cache_clear()
    report = simulate(_duel(), runs=10, seed=2)
    assert report.actions > 50  # some 90 names asked at each action
    assert 0 < len(calls) <= 40  # the names the duel's sheets, weapons and rules use
    assert tables.skill("Rapport") is tables.skill("rapport") is tables.skill("Charm")


def test_the_manoeuvres_are_built_once_for_the_same_reach(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[Any] = []
    manoeuvres._built.clear()
    real = manoeuvres._manoeuvre_choices
    monkeypatch.setattr(manoeuvres, "_manoeuvre_choices", _counted(real, calls, "built"))
    monkeypatch.setattr(
        choices, "manoeuvre_choices", _counted(manoeuvres.manoeuvre_choices, calls, "asked")
    )
    simulate(_duel(), runs=10, seed=2)
    asked = [found for name, _, found in calls if name == "asked"]
    built = [found for name, _, found in calls if name == "built"]
    assert len(asked) > 50
    assert 0 < len(built) <= 6  # each fighter, with and without a foe in reach, and so on


def test_the_manoeuvres_kept_are_those_built_afresh() -> None:
    table = _duel()
    state = table.state
    for me in state.combatants:
        kept = manoeuvres.manoeuvre_choices(state, me, {})
        fresh = manoeuvres._manoeuvre_choices(
            me,
            manoeuvres.zones_away(state, me),
            (),
            tuple(name for name, _ in me.sheet.skills),
            {},
        )
        assert kept == fresh and kept
        assert manoeuvres.own_words_choices(state, me, {}) == [
            c for c in fresh if "aspect" in c.params and "named" not in c.params
        ]


def test_an_odds_text_is_written_once_for_each_odds(monkeypatch: pytest.MonkeyPatch) -> None:
    reads: list[Any] = []
    real = CheckOdds.success
    assert isinstance(real, property) and real.fget is not None
    summed = real.fget
    monkeypatch.setattr(CheckOdds, "success", property(lambda o: reads.append(o) or summed(o)))
    odds = CheckOdds(
        {
            Outcome.SUCCESS: Fraction(1, 2),
            Outcome.TIE: Fraction(1, 6),
            Outcome.FAILURE: Fraction(1, 3),
        },
        {},
    )
    first, second = cards.odds_json(odds), cards.odds_json(odds)
    assert first == second == {"success": "1/2", "match": "1/6", "failure": "1/3"}
    assert first is not second and len(reads) == 1
    asked: list[Any] = []
    monkeypatch.setattr(cards, "odds_json", _counted(cards.odds_json, asked, "asked"))
    monkeypatch.setattr(fighting, "odds_json", cards.odds_json)
    reads.clear()
    simulate(_duel(), runs=10, seed=2)
    assert len(asked) > 20
    assert len(reads) < len(asked) / 3


def test_a_fighters_level_is_worked_out_once_a_sheet_and_skill(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    worked: list[Any] = []

    def effective_skill(level: int | None, *, arcane: bool = False) -> int:
        worked.append(level)
        return rolls.effective_skill(level, arcane=arcane)

    monkeypatch.setattr(scene, "effective_skill", effective_skill)
    asked: list[Any] = []
    monkeypatch.setattr(scene.Combatant, "level", _counted(scene.Combatant.level, asked, "asked"))
    getattr(scene._level, "cache_clear", lambda: None)()  # what earlier tests kept
    simulate(_duel(), runs=10, seed=2)
    assert len(asked) > 100
    assert 0 < len(worked) <= 12  # two sheets, the few skills a duel asks of each
    for _, (me, skill), level in asked:
        assert level == rolls.effective_skill(me.rated(skill), arcane=tables.skill(skill).arcane)
