"""Manoeuvres (Gin Lane, "Manoeuvres", "Action: Manoeuvre", "Some Manoeuvres", "Disarm", "Take Aim",
"Team Work"): an Aspect set on someone, somewhere or oneself, tagged, removed and lapsing.
"""

from __future__ import annotations

import pytest

from referee.core import Action, RuleError, Table
from referee.core.decide import Builder
from referee.dice import ScriptedSource
from referee.systems.ginlane import PROCEDURE
from referee.systems.ginlane.aspects import taggable
from referee.systems.ginlane.manoeuvres import manoeuvre
from referee.systems.ginlane.scene import SceneState, state_json

from .test_procedure import BRAVO, act, duel, events, kinds, scene, start


def test_a_manoeuvres_aspect_lapses_at_the_end_of_the_scene() -> None:
    """Manoeuvres: the Aspect lasts "for the rest of the scene" (Rulings: "Manoeuvre Aspects are
    temporary, lasting no longer than the scene") — unlike a consequence, it is gone when the
    scene ends."""
    table = act(duel(), "moll", "manoeuvre", [4, 3], aspect="Ready", scene=True, skill="Agility")
    assert [a.name for a in table.state.aspects] == ["Ready"]
    assert table.state.aspects[0].consequence is False
    ended = act(table, "referee", "end_scene")
    assert ended.state.aspects == ()


def test_an_aim_lapses_out_of_sight_and_the_aspects_placed_after_it_stay() -> None:
    """Take Aim ("if the target doesn't do something to break the aim which might be as simple
    as walking out of sight"): kit aims at bob four zones off, bob does something else (a
    takes cover (an Aspect on himself), kit steps back to five zones: the aim lapses, the cover
    placed after it stays as it was."""
    table = _aimed()
    aim, cover = table.state.aspects
    assert (aim.name, aim.unique_to, cover.on) == ("Target", "kit", "bob")
    stepped = act(table, "kit", "move", [], to="a")
    assert stepped.state.aspects == (cover,)


def _aimed() -> Table[SceneState]:
    """kit (zone b) takes aim at bob four zones off (zone f, on a clear line a to f); bob
    takes cover."""
    setup = scene(
        kit={"side": "s", "zone": "b", "weapon": "pistol", "skills": {"Firearms": 1}},
        bob={"side": "m", "zone": "f"},
    )
    setup["links"] = [["a", "b"], ["b", "c"], ["c", "d"], ["d", "e"], ["e", "f"]]
    setup["costs"] = {}
    table = start(setup, 6, 6, 1, 1)
    table = act(
        table,
        "kit",
        "manoeuvre",
        [6, 6],
        target="bob",
        named="take aim",
        difficulty=7,
        skill="Firearms",
    )
    return act(table, "bob", "manoeuvre", [6, 6], named="take cover", difficulty=7)


def test_an_aim_is_kept_while_aimer_and_target_stay_in_sight() -> None:
    """Take Aim: "This can be kept up for as long as the aimer finds practical": kit steps one
    zone nearer bob (three zones off, in sight): the aim and bob's cover both stay."""
    table = _aimed()
    stepped = act(table, "kit", "move", [], to="c")
    assert stepped.state.get("kit").zone == "c"
    assert stepped.state.aspects == table.state.aspects


def test_only_the_aim_breaks_out_of_sight_a_unique_manoeuvre_aspect_stays() -> None:
    """Take Aim: the aim breaks when the target walks "out of sight"; any other manoeuvre's
    Aspect stays "for the rest of the scene or until another manoeuvre removes it", even one
    unique to its setter ("Team Work"). m (zone a) Unbalances j (zone b) with ``unique: true``
    and Takes Aim at him; j sprints to f, five zones from m: the Target lapses, Off-Balance
    stays."""
    line = {
        "zones": list("abcdef"),
        "links": [[x, y] for x, y in zip("abcde", "bcdef", strict=True)],
    }
    chars = {
        "m": {"side": "s", "zone": "a", "weapon": "pistol", "skills": {"Agility": 1}},
        "n": {"side": "s", "zone": "a", "weapon": "pistol", "skills": {"Firearms": 1}},
        "j": {"side": "b", "zone": "b", "skills": {"Agility": 1}},
    }
    table = start({**line, "characters": chars}, 6, 6, 1, 1, 1, 1)
    assert table.state.order == ("m", "n", "j")
    table = act(
        table,
        "m",
        "manoeuvre",
        [6, 6, 1, 1],
        target="j",
        named="unbalance",
        skill="Agility",
        unique=True,
    )
    table = act(table, "n", "manoeuvre", [6, 6, 1, 1], target="j", named="take aim")
    assert [(a.name, a.unique_to) for a in table.state.aspects] == [
        ("Off-Balance", "m"),
        ("Target", "n"),
    ]
    gone = act(table, "j", "sprint", [6, 1], path=["c", "d", "e", "f"])
    assert gone.state.get("j").zone == "f"
    assert [a.name for a in gone.state.aspects] == ["Off-Balance"]


def test_aspects_placed_are_numbered_in_turn_and_removing_one_leaves_the_other() -> None:
    """Manoeuvres: each Aspect placed in the scene is a new one (its tags and its removal name
    it by its number). moll's Disarmed on jack is 1, jack's Under Cover 2; jack's removing
    Disarmed leaves his cover in play."""
    table = act(duel(), "moll", "manoeuvre", [6, 6, 1, 1], target="jack", named="disarm")
    table = act(table, "jack", "manoeuvre", [6, 6], named="take cover", difficulty="Fair")
    table = act(table, "moll", "full_defence")
    table = act(
        table,
        "jack",
        "manoeuvre",
        [6, 6],
        aspect="Disarmed",
        remove=True,
        difficulty=7,
        skill="Agility",
    )
    placed = events(table, "aspect.placed")
    assert [(p["id"], p["name"]) for p in placed] == [(1, "Disarmed"), (2, "Under Cover")]
    assert [(a.id, a.name) for a in table.state.aspects] == [(2, "Under Cover")]


def test_a_free_tag_spends_the_free_tag_of_the_aspect_tagged_only() -> None:
    """Team Work: the first to use a manoeuvre's Aspect gets its free tag. moll tags her
    Off-Balance on jack for free; jack's own Under Cover keeps its free tag (every seat sees
    the count)."""
    table = act(duel(), "moll", "manoeuvre", [6, 6, 1, 1], target="jack", named="unbalance")
    table = act(table, "jack", "manoeuvre", [6, 6], named="take cover", difficulty="Fair")
    table = act(table, "moll", "attack", [1, 1, 1, 2, 2], target="jack", tags=["Off-Balance"])
    assert [t["free"] for t in events(table, "aspect.tagged")] == [True]
    shown = state_json(table.state)["aspects"]
    assert [(a["name"], a["free_tags"]) for a in shown] == [("Off-Balance", 0), ("Under Cover", 1)]


def test_a_weapon_picked_up_is_in_hand_and_not_picked_up_again() -> None:
    """Disarm: jack picks his sword up as he removes Disarmed. A second Disarmed moll places
    on him later (free-form, so nothing is dropped) is removed with no weapon to pick up: the
    log tells of one pick-up only."""
    table = act(duel(), "moll", "manoeuvre", [6, 6, 1, 1], target="jack", named="disarm")
    again = {"aspect": "Disarmed", "remove": True, "difficulty": 7, "skill": "Agility"}
    table = act(table, "jack", "manoeuvre", [6, 6], **again)
    table = act(
        table, "moll", "manoeuvre", [6, 6, 1, 1], target="jack", aspect="Disarmed", skill="Weapons"
    )
    assert [(a.name, a.on) for a in table.state.aspects] == [("Disarmed", "jack")]
    table = act(table, "jack", "manoeuvre", [6, 6], **again)
    assert events(table, "weapon.recovered") == [{"character": "jack", "weapon": "sword"}]
    assert (table.state.get("jack").weapon, table.state.aspects) == ("sword", ())


def test_a_manoeuvre_needs_an_aspect_or_a_named_manoeuvre() -> None:
    """Action: Manoeuvre: "the player describes the Aspect" — a manoeuvre naming no Aspect
    and no named manoeuvre is refused, not rolled."""
    with pytest.raises(RuleError, match="needs an 'aspect' or a 'named' manoeuvre"):
        act(duel(), "moll", "manoeuvre", [6, 6], skill="Agility", difficulty=7)


def test_a_manoeuvre_on_oneself_goes_on_oneself_whatever_target_is_named() -> None:
    """Some Manoeuvres: Take Cover is on oneself — naming jack as the target does not put
    Under Cover on him (Agility 2 + 4 + 4 = 10 beats Fair 7)."""
    table = act(
        duel(), "moll", "manoeuvre", [4, 4], named="take cover", target="jack", difficulty=7
    )
    assert [(a.name, a.on) for a in table.state.aspects] == [("Under Cover", "moll")]
    (rolled,) = events(table, "manoeuvre.rolled")
    assert rolled["on"] == "moll"


def test_a_manoeuvre_on_a_zone_places_the_aspect_on_the_zone_and_is_recorded() -> None:
    """Aspects on zones ("Manoeuvres"): moll fills the hall with smoke against a difficulty
    (Agility 2 + 4 + 4 = 10 beats 7); the roll is recorded with who, what, where and which
    skill, its card saying it was against a difficulty. A zone the scene lacks is refused."""
    table = act(
        duel(),
        "moll",
        "manoeuvre",
        [4, 4],
        aspect="Smoke-Filled",
        zone="hall",
        skill="Agility",
        difficulty=7,
    )
    assert [(a.name, a.on) for a in table.state.aspects] == [("Smoke-Filled", "hall")]
    (rolled,) = events(table, "manoeuvre.rolled")
    assert {k: rolled[k] for k in ("character", "aspect", "on", "skill")} == {
        "character": "moll",
        "aspect": "Smoke-Filled",
        "on": "hall",
        "skill": "Agility",
    }
    assert rolled["roll"]["label"] == (
        "Moll manoeuvres for Smoke-Filled on hall (Agility against a difficulty)"
    )
    with pytest.raises(RuleError, match="Zones: no zone 'cellar'"):
        act(duel(), "moll", "manoeuvre", [4, 4], aspect="Smoke", zone="cellar", skill="Agility")


def test_a_manoeuvre_tags_an_aspect_and_pays_for_it() -> None:
    """Tagging: moll tags her own Fencing Mistress for a manoeuvre (a point from her pool);
    the tag and the point are recorded as hers."""
    table = act(
        duel(),
        "moll",
        "manoeuvre",
        [6, 6, 1, 1, 1],
        target="jack",
        named="disarm",
        tags=["Fencing Mistress"],
    )
    assert [(e["character"], e["aspect"], e["free"]) for e in events(table, "aspect.tagged")] == [
        ("moll", "Fencing Mistress", False)
    ]
    assert [(e["character"], e["points"]) for e in events(table, "pool.spent")] == [("moll", 1)]


def test_removing_an_aspect_takes_that_one_only_and_only_disarmed_gives_the_weapon_back() -> None:
    """Manoeuvres ("remove"): jack, disarmed and blinded by moll, straightens his wig: Blinded
    goes, Disarmed stays, and he does not pick up his sword by it."""
    table = act(duel(), "moll", "manoeuvre", [6, 6, 1, 1], target="jack", named="disarm")
    table = act(table, "jack", "full_defence")
    table = act(table, "moll", "manoeuvre", [6, 6, 1, 1], target="jack", named="blind")
    table = act(
        table,
        "jack",
        "manoeuvre",
        [6, 6],
        aspect="Blinded",
        remove=True,
        difficulty=7,
        skill="Agility",
    )
    removed = events(table, "aspect.removed")
    assert [(e["name"], e["on"]) for e in removed] == [("Blinded", "jack")]
    assert [(a.name, a.on) for a in table.state.aspects] == [("Disarmed", "jack")]
    assert not events(table, "weapon.recovered")
    assert table.state.get("jack").weapon == "fists"


def test_only_the_disarmed_picks_up_his_weapon_by_removing_disarmed() -> None:
    """Disarm: ann, jack's friend, removes the Disarmed moll put on jack: the Aspect goes,
    but nobody picks up a weapon by it (ann dropped none)."""
    ann = {"side": "bravoes", "weapon": "sword", "skills": BRAVO, "experience": 5}
    table = act(
        duel(others={"ann": ann}), "moll", "manoeuvre", [6, 6, 1, 1], target="jack", named="disarm"
    )
    table = act(table, "jack", "full_defence")
    table = act(
        table,
        "ann",
        "manoeuvre",
        [6, 6],
        aspect="Disarmed",
        remove=True,
        target="jack",
        difficulty=7,
        skill="Agility",
    )
    assert [(e["name"], e["on"]) for e in events(table, "aspect.removed")] == [("Disarmed", "jack")]
    assert "weapon.recovered" not in kinds(table)
    assert table.state.get("ann").weapon == "sword"


def _marked_by_moll_beside_ann() -> Table[SceneState]:
    """Moll, her ally ann beside her, sets the Marked Aspect on jack unique to herself; jack
    takes a Full Defence: ann's turn."""
    ann = {"side": "society", "skills": BRAVO, "experience": 5}
    table = act(
        duel(others={"ann": ann}),
        "moll",
        "manoeuvre",
        [6, 6],
        aspect="Marked",
        target="jack",
        difficulty=7,
        skill="Weapons",
        unique=True,
    )
    return act(table, "jack", "full_defence")


def test_a_manoeuvre_said_unique_sets_an_aspect_only_its_setter_may_tag() -> None:
    """Team Work: a manoeuvre may set an Aspect unique to its setter (``unique: true``), as
    Take Aim does: moll's ally ann may not tag the Marked moll put on jack."""
    table = _marked_by_moll_beside_ann()
    with pytest.raises(RuleError, match="Team Work: 'Marked' is unique to its setter"):
        act(table, "ann", "attack", [1, 1, 1, 2, 2], target="jack", tags=["Marked"])


def test_an_aspect_unique_to_its_setter_is_offered_to_tag_to_her_alone() -> None:
    """Team Work: "Some Aspects, like Target aspect above are unique to the setter though and
    can't be passed on": the Marked moll put on jack is among the Aspects she may tag against
    him, not among those her ally ann's attack offers."""
    table = _marked_by_moll_beside_ann()
    assert table.state.current == "ann"
    attack = next(c for c in table.legal_actions("ann") if c.kind == "attack")
    assert "Marked" not in attack.params["tags"].values
    assert "Marked" in taggable(table.state, table.state.get("moll"), ["jack"])


def test_a_player_words_the_aspect_of_a_manoeuvre_herself() -> None:
    """Manoeuvres: the named manoeuvres are the text's examples; a player may set an Aspect in
    her own words with a skill of her sheet. Moll's page offers it on an opponent in that
    skill's reach and on the scene; "Sand in His Eyes" on Jack is taken as she worded it."""
    table = duel()
    own = [
        c for c in table.legal_actions("moll") if c.kind == "manoeuvre" and "own words" in c.label
    ]
    assert [c.label for c in own] == [
        "an Aspect in your own words on an opponent",
        "an Aspect in your own words on the scene",
    ]
    on_jack = own[0]
    params = {"aspect": "Sand in His Eyes", "skill": on_jack.params["skill"].values[0]}
    params["target"] = "jack"
    assert on_jack.allows(params)
    table = act(table, "moll", "manoeuvre", [6, 6, 1, 1], **params)  # against Jack's defence
    assert [(a.name, a.on) for a in table.state.aspects] == [("Sand in His Eyes", "jack")]


@pytest.mark.parametrize(("related", "dice"), [(True, "2d6+0"), (False, "2d6-2")])
def test_the_odds_a_manoeuvres_target_sees_are_of_the_roll_as_it_will_be_made(
    related: bool, dice: str
) -> None:
    """Action: Manoeuvre and "Defence": jack, asked to defend against moll's Winded (Strength,
    not on her sheet), sees the odds of her roll as she will make it — "No Relevant Skill" as a
    related skill is 0, else −2 — against his Agility 1."""
    waiting = act(
        duel(),
        "moll",
        "manoeuvre",
        [],
        target="jack",
        aspect="Winded",
        skill="Strength",
        related=related,
        answer=False,
    )
    (defend,) = [c for c in waiting.legal_actions("jack") if c.kind == "defend"]
    assert [o.dice for o in defend.odds] == [f"{dice} vs 2d6+1"]


def test_a_brawl_manoeuvre_reaches_no_one_in_the_next_zone() -> None:
    """Zones (Rulings: a Brawl manoeuvre reaches the same zone): moll may not shove jack off
    balance from the room while he is in the hall."""
    with pytest.raises(RuleError, match="a Brawl manoeuvre reaches 0"):
        act(duel(jack={"zone": "hall"}), "moll", "manoeuvre", [], target="jack", named="unbalance")


def _after_a_defence(skill: str) -> Builder[SceneState]:
    """moll's Turn, jack's defence with ``skill`` on the table for 5 (RULINGS.md, Round 3)."""
    b = Builder(
        duel(jack={"skills": {**BRAVO, "Brawl": 1}, "experience": 7}).state, PROCEDURE.evolve
    )
    rolled = {"character": "jack", "skill": skill, "total": 5, "full_defence": False}
    b.emit("defence.rolled", {**rolled, "rolled": {}})
    return b


def test_a_weapons_manoeuvre_meets_a_parry_on_the_table_and_asks_no_one() -> None:
    """Defence (RULINGS.md, Round 3): jack's parry (Weapons) for 5 is on the table; moll's
    Weapons manoeuvre meets it at once: 3 + 3 + Weapons 3 = 9, Off-Balance, no one asked."""
    b = _after_a_defence("Weapons")
    act_ = Action("moll", "manoeuvre", {"target": "jack", "named": "unbalance", "skill": "Weapons"})
    manoeuvre(b, act_, ScriptedSource([3, 3]))
    kinds_ = [e.kind for e in b.events[1:]]
    assert "defence.asked" not in kinds_ and "defence.stands" in kinds_


def test_a_weapons_manoeuvre_waits_for_a_defence_though_a_brawl_parry_is_on_the_table() -> None:
    """Defence ("Brawl [...] Weapons attack with small items"): jack's Brawl parry on the
    table cannot meet moll's Weapons manoeuvre; she asks him for his defence, saying what
    waits."""
    b = _after_a_defence("Brawl")
    act_ = Action("moll", "manoeuvre", {"target": "jack", "named": "unbalance", "skill": "Weapons"})
    manoeuvre(b, act_, ScriptedSource([]))
    (asked,) = [e.data for e in b.events if e.kind == "defence.asked"]
    assert asked["what"] == "Moll manoeuvres for Off-Balance on Jack (Weapons)"


def test_an_aspect_in_ones_own_words_reaches_as_far_as_its_skill() -> None:
    """Action: Manoeuvre, Zones (Rulings: each manoeuvre's reach is its skill's): with jack in
    the hall, moll's own-words manoeuvre on him may be rolled with Alertness (as far as he is
    in sight), not with Brawl (the same zone)."""
    table = duel(jack={"zone": "hall"})
    (on_him,) = [c for c in table.legal_actions("moll") if c.label.endswith("on an opponent")]
    skills = on_him.params["skill"].values
    assert "Alertness" in skills and "Brawl" not in skills


def test_a_manoeuvre_waiting_for_a_defence_keeps_its_supplemental_penalty() -> None:
    """3. Actions (a supplemental action: −1): moll's Unbalance, taken with a supplemental
    action, waits for jack's defence at Brawl 1 − 1: his odds show 2d6+0."""
    table = act(
        duel(),
        "moll",
        "manoeuvre",
        [],
        target="jack",
        named="unbalance",
        supplemental=True,
        answer=False,
    )
    assert state_json(table.state)["pending"]["modifier"] == -1
    (defend,) = table.legal_actions("jack")
    assert defend.odds[0].dice == "2d6+0 vs 2d6+2"
