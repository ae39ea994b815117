"""The fight Gin Lane offers the simulator (``simulation.FIGHT``, "Fighting"): the referee rolls
Initiative; each turn the character Attacks the first foe offered, else Moves (or Sprints)
into a zone holding a foe not yet Taken Out ("Zones": you can only attack someone in your
zone); a defence with her best allowed skill, a hit on the track; the side left standing
wins, the damage is the Health stress ticked ("Stress Tracks")."""

from __future__ import annotations

from typing import Any

from referee.core import REFEREE, Action, Table, system
from referee.core.simulation import EncounterOutcome
from referee.dice import ScriptedSource
from referee.systems.ginlane.simulation import (
    begin,
    fighters,
    health_stress,
    is_over,
    outcome,
    pick,
)

SWORD = {"weapon": "sword", "skills": {"Weapons": 1, "Alertness": 1, "Agility": 1}}
INITIATIVE = Action(REFEREE, "initiative", {})


def _table(at: dict[str, str] | None = None, **setup: Any) -> Table[Any]:
    where = at or {}
    people = {
        "moll": {**SWORD, "side": "society", **({"zone": where["moll"]} if where else {})},
        "jack": {**SWORD, "side": "bravoes", **({"zone": where["jack"]} if where else {})},
    }
    return system("ginlane").new_table({**setup, "characters": people})


def _begun(table: Table[Any]) -> Table[Any]:
    """Moll first: her 6 + 6 against Jack's 1 + 1."""
    return table.act(INITIATIVE, ScriptedSource([6, 6, 1, 1]))


def _strike(table: Table[Any], actor: str, target: str, faces: list[int]) -> Table[Any]:
    """``actor`` attacks with these dice, the target answering as the simulation does."""
    dice = ScriptedSource(faces)
    after = table.act(Action(actor, "attack", {"target": target, "tags": []}), dice)
    while asked := after.prompts():
        choice = pick(after, after.legal_actions(asked[0].actor))
        assert choice is not None
        after = after.act(choice, dice)
    return after


def test_the_referee_rolls_initiative_once_a_scene_before_its_fight() -> None:
    """Gin Lane rolls Initiative once a scene ("Initiative"). A fight over while its scene goes on
    begins nothing (the simulation answers it as it stands: the rules refuse a second
    Initiative); once the scene has ended, the next fight begins with it."""
    table = _table()
    assert begin(table, None) == [INITIATIVE] == begin(table, "moll")
    assert begin(table, None)[0].actor == REFEREE
    begun = _begun(table)
    assert begun.state.order and begin(begun, None) == []
    over = _strike(begun, "moll", "jack", [6, 6, 1, 1])
    assert over.state.order and over.state.over
    assert begin(over, None) == []
    ended = over.act(Action(REFEREE, "end_scene", {}), ScriptedSource([]))
    assert begin(ended, None) == [INITIATIVE]
    assert ended.act(INITIATIVE, ScriptedSource([6, 6, 1, 1])).state.order


def test_a_fight_is_over_when_the_game_says_one_side_is_left_standing() -> None:
    table = _table()
    begun = _begun(table)
    assert not is_over(table, table) and not is_over(table, begun)
    assert is_over(table, _strike(begun, "moll", "jack", [6, 6, 1, 1]))


def test_the_damage_counted_is_each_characters_ticked_health_boxes() -> None:
    """A Match deals the sword's 2 (box 2); a hit by 1 deals 3 (box 3): 2 + 3 = 5."""
    begun = _begun(_table())
    matched = _strike(begun, "moll", "jack", [3, 3, 3, 3])
    hit = _strike(_strike(matched, "jack", "moll", [1, 1, 6, 6]), "moll", "jack", [3, 4, 3, 3])
    assert health_stress(hit.state) == {"moll": 0, "jack": 5}
    assert outcome(begun, hit) == EncounterOutcome(
        "unfinished", 2, {"moll": 0, "jack": 5}, False, {"taken_out": 0}
    )


def test_the_outcome_names_the_side_left_standing_and_counts_the_taken_out() -> None:
    begun = _begun(_table())
    over = _strike(begun, "moll", "jack", [6, 6, 1, 1])
    jack = next(c for c in over.state.combatants if c.id == "jack")
    assert jack.taken_out
    assert outcome(begun, over) == EncounterOutcome(
        "society", 1, health_stress(over.state), True, {"taken_out": 1}
    )


def test_the_fighters_are_the_procedures_actors_less_the_referee() -> None:
    table = _table()
    assert REFEREE in table.remembered.actors(table.state)
    assert fighters(table) == ("moll", "jack")
    assert fighters(_begun(table)) == ("moll",)


def test_a_defence_takes_her_first_allowed_skill_and_a_hit_goes_on_the_track() -> None:
    begun = _begun(_table())
    attacked = begun.act(Action("moll", "attack", {"target": "jack", "tags": []}), None)
    offered = attacked.legal_actions("jack")
    skills = next(c for c in offered if c.kind == "defend").params["skill"].values
    assert len(skills) > 1
    assert pick(attacked, offered) == Action("jack", "defend", {"skill": skills[0], "tags": []})
    dice = ScriptedSource([6, 6, 1, 1])
    hit = attacked.act(Action("jack", "defend", {"skill": skills[0], "tags": []}), dice)
    absorb = pick(hit, hit.legal_actions("jack"))
    assert absorb == Action("jack", "absorb", {"consequences": []})


def test_the_attack_is_on_the_first_foe_offered_tagging_nothing() -> None:
    begun = _begun(_table())
    assert pick(begun, begun.legal_actions("moll")) == Action(
        "moll", "attack", {"target": "jack", "tags": []}
    )


def test_out_of_reach_she_moves_else_sprints_into_a_zone_with_a_foe_standing() -> None:
    """A foe out of reach ("Zones"): a Move to the next zone where she stands there; a Sprint
    where it takes two or three; nothing where no way leads to a foe."""
    zones = ["yard", "street", "lane", "far"]
    links = [["yard", "street"], ["street", "lane"], ["lane", "far"]]
    for where, chosen in (
        ("street", Action("moll", "move", {"to": "street"})),
        ("lane", Action("moll", "sprint", {"path": ["street", "lane"]})),
        ("far", Action("moll", "sprint", {"path": ["street", "lane", "far"]})),
    ):
        begun = _begun(_table({"moll": "yard", "jack": where}, zones=zones, links=links))
        assert pick(begun, begun.legal_actions("moll")) == chosen, where
    apart = _begun(_table({"moll": "yard", "jack": "far"}, zones=zones, links=links[:1]))
    assert pick(apart, apart.legal_actions("moll")) is None


def test_a_zone_of_friends_or_of_foes_taken_out_is_not_closed_with() -> None:
    """Kit (Moll's side) in the street Takes Jack Out there; Bill stands in the lane: Moll,
    in the yard, Sprints past the street to the lane."""
    zones = ["yard", "street", "lane"]
    links = [["yard", "street"], ["street", "lane"]]
    people = {
        "kit": {**SWORD, "side": "society", "zone": "street"},
        "moll": {**SWORD, "side": "society", "zone": "yard"},
        "jack": {**SWORD, "side": "bravoes", "zone": "street"},
        "bill": {**SWORD, "side": "bravoes", "zone": "lane"},
    }
    table = system("ginlane").new_table({"zones": zones, "links": links, "characters": people})
    begun = table.act(INITIATIVE, ScriptedSource([6, 6, 1, 1, 1, 2, 1, 3]))
    assert begun.state.order[:2] == ("kit", "moll")
    struck = _strike(begun, "kit", "jack", [6, 6, 1, 1])
    assert next(c for c in struck.state.combatants if c.id == "jack").taken_out
    offered = struck.legal_actions("moll")
    assert any(c.kind == "move" for c in offered)
    assert pick(struck, offered) == Action("moll", "sprint", {"path": ["street", "lane"]})
