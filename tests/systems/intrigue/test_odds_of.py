"""``odds_of``: the odds a form shows as its fields change are the odds of the very checks the
rules roll with those parameters (docs/kernel.md, "One read path: observe", ``preview``).

Each case compares the preview with the check built by the rules' own functions
(:mod:`referee.systems.intrigue.rules`), shows that other parameters give other odds, that an
action the rules would refuse has none, and that a player is never given the odds that are the
referee's (a Perception Check's tell which envelopes a character carries).
"""

from __future__ import annotations

from typing import Any

from referee.core import Action, OddsPreview, Table, preview
from referee.core.cards import odds_of
from referee.systems.intrigue import PROCEDURE, IntrigueState
from referee.systems.intrigue.rules import (
    attack_check,
    attack_target_number,
    opposed_skill_check,
    skill_check,
)

from .helpers import act, character

COUNTESS: dict[str, Any] = {
    "start": "19:00",
    "characters": {
        "countess": character(
            "The Countess",
            40,
            mind=4,
            perception_envelopes=[
                {"id": "to-all", "to": "ALL", "target": 16, "contents": "Her pearls are paste."},
                {"id": "to-some", "to": [12], "target": 14, "contents": "A cook in Vienna."},
            ],
        ),
        "twelve": character("Miss Twelve", 12, skills={"Perception": 3, "Charm": 1}),
        "fifteen": character("Mr Fifteen", 15, skills={"Perception": 1}),
        "krockin": character(
            "The Amazing Krockin",
            33,
            mind=3,
            abilities={"Read Mind": {"mental": True, "description": "Read a mind."}},
        ),
    },
}
PLAYERS = {"ann": ["twelve"], "bob": ["fifteen"]}


def _table() -> Table[IntrigueState]:
    return Table.start(PROCEDURE, COUNTESS, players=PLAYERS)


def _odds(previews: tuple[Any, ...]) -> list[dict[str, str]]:
    assert all(isinstance(p, OddsPreview) for p in previews)
    return [dict(p.odds) for p in previews]


def test_a_perception_checks_odds_are_each_envelopes_own_check_for_the_referee() -> None:
    table = _table()
    shown = preview(table, "referee", Action("twelve", "perceive", {"target": "countess"}))
    # Miss Twelve (Perception 3) may earn both envelopes; each is 3d6+3 ≥ its Target Number
    assert _odds(shown) == [odds_of(skill_check(3, 16).odds()), odds_of(skill_check(3, 14).odds())]
    assert ["to-all" in p.label for p in shown] == [True, False]
    # Mr Fifteen (Perception 1) may earn the envelope for ALL only
    other = preview(table, "referee", Action("fifteen", "perceive", {"target": "countess"}))
    assert _odds(other) == [odds_of(skill_check(1, 16).odds())]
    # a character who carries no envelope: nothing is rolled for any envelope
    assert preview(table, "referee", Action("twelve", "perceive", {"target": "fifteen"})) == ()


def test_a_perception_checks_odds_per_envelope_are_the_referees_alone() -> None:
    """A player is shown the chance their own total (3d6 + their own Perception) reaches each
    number: the same whoever the target, so it tells nothing of the envelopes they carry."""
    table = _table()
    (shown,) = preview(table, "ann", Action("twelve", "perceive", {"target": "countess"}))
    assert shown.dice == "3d6 + 3" and "to-all" not in shown.label
    assert dict(shown.odds) == {
        f"{n} or more": str(skill_check(3, n).odds().success) for n in (12, 14, 16, 18, 20)
    }
    (empty,) = preview(table, "ann", Action("twelve", "perceive", {"target": "fifteen"}))
    assert dict(empty.odds) == dict(shown.odds)  # Mr Fifteen carries no envelope: the same


def test_a_refused_perception_check_has_no_odds() -> None:
    table = _table()
    # oneself
    assert preview(table, "referee", Action("twelve", "perceive", {"target": "twelve"})) == ()
    # within the 15-minute cooldown
    after = act(table, "twelve", "perceive", dice=[1, 1, 1], target="countess")
    assert preview(after, "referee", Action("twelve", "perceive", {"target": "countess"})) == ()
    # 15 minutes on, the check may be made again, with the same odds
    later = after.advance(15 * 60)
    again = preview(later, "referee", Action("twelve", "perceive", {"target": "countess"}))
    assert _odds(again) == [odds_of(skill_check(3, 16).odds()), odds_of(skill_check(3, 14).odds())]


def test_a_skill_rolls_odds_follow_its_target_number_and_opponent() -> None:
    table = _table()

    def roll(**params: Any) -> list[dict[str, str]]:
        return _odds(preview(table, "referee", Action("twelve", "roll", params)))

    assert roll(skill="Perception", target=12) == [odds_of(skill_check(3, 12).odds())]
    assert roll(skill="Perception", target=15) == [odds_of(skill_check(3, 15).odds())]
    assert roll(skill="Charm", target=12) == [odds_of(skill_check(1, 12).odds())]
    assert roll(skill="Perception", against="fifteen") == [
        odds_of(opposed_skill_check(3, 1).odds())
    ]
    assert roll(skill="Perception", target=12) != roll(skill="Perception", target=15)
    # the player rolling against a Target Number is given the exact odds: every number is hers
    mine = Action("twelve", "roll", {"skill": "Perception", "target": 12})
    assert _odds(preview(table, "ann", mine)) == [odds_of(skill_check(3, 12).odds())]
    # against another character, whose skill is not hers to know: her own total's chances
    versus = Action("twelve", "roll", {"skill": "Perception", "against": "fifteen"})
    (own,) = preview(table, "ann", versus)
    assert own.dice == "3d6 + 3" and dict(own.odds)["14 or more"] == "1/2"
    assert odds_of(opposed_skill_check(3, 1).odds())["success"] not in dict(own.odds).values()
    # a Target Number outside what the choices allow (3 to 24) is not a roll the form offers
    assert (
        preview(table, "referee", Action("twelve", "roll", {"skill": "Perception", "target": 40}))
        == ()
    )


def test_a_mental_attacks_odds_are_its_attackers_for_the_target_chosen() -> None:
    table = _table()
    on_twelve = Action("krockin", "mental_attack", {"target": "twelve", "ability": "Read Mind"})
    shown = preview(table, "krockin", on_twelve)
    minds = {c.id: c.mind for c in table.state.characters}
    expected = attack_check(3, attack_target_number(minds["twelve"]))
    assert _odds(shown) == [odds_of(expected.odds())]
    assert shown[0].rule == "Mental Combat"
    on_countess = Action("krockin", "mental_attack", {"target": "countess", "ability": "Read Mind"})
    other = preview(table, "krockin", on_countess)
    assert _odds(other) == [odds_of(attack_check(3, attack_target_number(4)).odds())]
    assert _odds(other) != _odds(shown)
    # a knocked-out or otherwise refused target: none; oneself is not a target either
    itself = Action("krockin", "mental_attack", {"target": "krockin", "ability": "Read Mind"})
    assert preview(table, "krockin", itself) == ()
    unknown = Action("krockin", "mental_attack", {"target": "twelve", "ability": "Fly"})
    assert preview(table, "krockin", unknown) == ()


def test_a_skill_with_a_colon_in_its_name_is_named_whole_in_its_odds() -> None:
    """The odds' label is the roll's words without its dice: a skill named "Lore: Egypt" is
    shown whole, not cut at its own colon."""
    setup = {
        **COUNTESS,
        "characters": {
            **COUNTESS["characters"],
            "twelve": character("Miss Twelve", 12, skills={"Lore: Egypt": 2}),
        },
    }
    table = Table.start(PROCEDURE, setup, players=PLAYERS)
    shown = preview(
        table, "referee", Action("twelve", "roll", {"skill": "Lore: Egypt", "target": 12})
    )
    assert _odds(shown) == [odds_of(skill_check(2, 12).odds())]
    assert [p.label for p in shown] == ["twelve Lore: Egypt"]
    against = preview(
        table, "referee", Action("twelve", "roll", {"skill": "Lore: Egypt", "against": "fifteen"})
    )
    assert [p.label for p in against] == ["twelve Lore: Egypt"]


def test_an_attack_being_declared_shows_the_odds_of_the_roll_it_will_make() -> None:
    """Combat Actions: declaring an Attack, a fighter is shown the roll it will make when the
    round resolves (3d6 + Combat > the target's Combat + 10), with the words saying that a
    target still to declare may yet take a Defensive Action; a declaration rolling nothing
    (a Defensive Action) has none."""
    setup = {
        "start": "19:00",
        "characters": {
            "alf": character("Alf", 11, combat=2),
            "bob": character("Bob", 12, combat=1),
        },
    }
    table = Table.start(PROCEDURE, setup, players={"ann": ["alf"], "bea": ["bob"]})
    table = act(table, "alf", "start_combat", targets=["bob"])
    table = act(table, "referee", "next_round", combat="combat-1")
    attack = Action("alf", "declare", {"action": "attack", "target": "bob"})
    (shown,) = preview(table, "ann", attack)
    assert dict(shown.odds) == odds_of(attack_check(2, 11).odds())
    assert shown.dice == "3d6+2 > 11" and "if bob takes no Defensive Action" in shown.label
    assert preview(table, "ann", Action("alf", "declare", {"action": "defend"})) == ()


def test_a_player_who_plays_both_sides_of_a_skill_roll_is_given_its_exact_odds() -> None:
    """Skill Rolls, against "a roll + skill value from another character": a player who plays
    both characters knows both skills, so is given the exact odds; one who plays only the
    roller is given their own total's chances, under the same rule."""
    versus = Action("twelve", "roll", {"skill": "Perception", "against": "fifteen"})
    both = Table.start(PROCEDURE, COUNTESS, players={"ann": ["twelve", "fifteen"]})
    (exact,) = preview(both, "ann", versus)
    assert dict(exact.odds) == odds_of(opposed_skill_check(3, 1).odds())
    assert exact.rule == "Skill Rolls"
    (own,) = preview(_table(), "ann", versus)
    assert own.dice == "3d6 + 3" and own.rule == "Skill Rolls"
