"""Tests that kill the mutants mutmut left alive in round 5 of issue 13 (docs/systems/intrigue.md,
"Mutation testing", "Round 5"): what a Combat Action's declaration may name, and what it records.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import (
    MINUTE,
    REFEREE_ONLY,
    Action,
    ActionError,
    Event,
    RuleError,
    ScenarioError,
    only,
)
from referee.dice import ScriptedSource
from referee.systems.intrigue import PROCEDURE, load_game
from referee.systems.intrigue.evolve import evolve
from referee.systems.intrigue.game import unworn_numbers
from referee.systems.intrigue.odds import upcoming
from referee.systems.intrigue.perception import perceive
from referee.systems.intrigue.rounds import pending_declarers

from .helpers import act, character, last, start, without_names
from .test_combat import (
    T,
    brawl,
    combat,
    declare,
    fight,
    knock_out_bob,
    resolve,
    two_dodges,
)
from .test_envelopes import TO_ALL, TO_SOME, evening
from .test_mutants import _armed, _line, _round3
from .test_mutants_resolve import _cast, _round

# -- declaring a Combat Action (combat_actions.validate, declare) ---------------------------


def test_a_combat_action_takes_only_its_own_parameters() -> None:
    """Combat Actions: a Defensive Action names nobody; an Attack names a target, an ability or
    a group, never an item. The refusal says what the action takes."""
    table = fight("alf", "bob")
    with pytest.raises(ActionError, match=r"defend takes no target \(it takes: nothing else\)"):
        declare(table, "alf", "defend", target="bob")
    with pytest.raises(
        ActionError, match=r"attack takes no item \(it takes: ability, group, target\)"
    ):
        declare(table, "alf", "attack", target="bob", item="cosh")


def _krockin_uses_mind(**changes: Any) -> T:
    """Alf and Krockin each defend in round 1; Krockin ranks by Mind in round 2."""
    table = declare(declare(fight("alf", "kro", **changes), "alf", "defend"), "kro", "defend")
    return act(resolve(resolve(table)), "kro", "use_mind")


def test_a_fighter_who_ranks_by_mind_may_still_hold_their_action() -> None:
    """Mixing Mental and Normal Combat: one who ranks by Mind uses a mental ability, or holds
    their action ("A character can choose to hold their action")."""
    table = declare(_krockin_uses_mind(), "kro", "hold")
    assert combat(table).declaration("kro").kind == "hold"


def test_only_a_mental_ability_on_the_sheet_makes_a_mental_attack() -> None:
    """Mental Combat: an Attack may name a mental ability the attacker has; an ability that is
    not mental, or one not on the sheet, is refused by that rule."""
    kro = brawl()["characters"]["kro"]
    abilities = {**kro["abilities"], "Fast Talk": {"value": 2}}
    table = fight("kro", "alf", kro={"abilities": abilities})
    for name in ("Fast Talk", "Fireball"):
        with pytest.raises(RuleError, match=f"kro has no mental ability '{name}'"):
            declare(table, "kro", "attack", target="alf", ability=name)


def _cat_holds_bob() -> T:
    """Cat grabs Bob in round 1 with Alf on her side; Alf defends and Bob's attack lapses."""
    table = act(fight("cat", "bob"), "alf", "join", **{"with": "cat"})
    table, _ = _round(
        table,
        [
            ("cat", {"action": "grab", "target": "bob"}),
            ("alf", {"action": "defend"}),
            ("bob", {"action": "attack", "target": "cat"}),
        ],
        [6, 6, 6],
    )
    assert combat(table).holder_of("bob") == "cat"
    return table


def test_the_held_may_be_attacked_but_not_grabbed_again() -> None:
    """Grabbing: a Held character may be hit by others ("other characters may attack the Held
    character"), but cannot be grabbed a second time."""
    table = _cat_holds_bob()
    with pytest.raises(RuleError, match="bob is already Held"):
        declare(table, "alf", "grab", target="bob")
    table = declare(table, "alf", "attack", target="bob")
    assert last(table, "combat.declared")["target"] == "bob"


def test_a_holder_may_not_join_a_group() -> None:
    """Multiple Attackers: a character Holding another Squeezes, Throws or Releases; they may not
    lend a hand to a group's Attack."""
    with pytest.raises(RuleError, match="cat is Holding or Held"):
        declare(_cat_holds_bob(), "alf", "attack", target="bob", group=["cat"])


def test_only_the_holder_throws_or_releases_and_each_declaration_names_the_other() -> None:
    """Squeeze, Throw, Release and Break Free are the holder's and the held's: another fighter
    may not Throw or Release; the holder's declaration names the held, the held's Break Free
    names the holder."""
    table = _cat_holds_bob()
    for kind in ("throw", "release", "squeeze"):
        with pytest.raises(RuleError, match="alf did not start the turn Holding a character"):
            declare(table, "alf", kind)
    for kind in ("throw", "release", "squeeze"):
        assert last(declare(table, "cat", kind), "combat.declared")["target"] == "bob"
    table = declare(declare(table, "cat", "squeeze"), "alf", "defend")
    table = declare(table, "bob", "break_free")
    assert last(table, "combat.declared")["target"] == "cat"


def test_a_group_member_is_another_fighter_named_once() -> None:
    """Multiple Attackers: the leader is not one of their own helpers."""
    table = act(fight("alf", "bob"), "cat", "join", **{"with": "alf"})
    with pytest.raises(RuleError, match="each member once"):
        declare(table, "alf", "attack", target="bob", group=["alf"])
    with pytest.raises(RuleError, match="each member once"):
        declare(table, "alf", "attack", target="bob", group=["cat", "cat"])


def test_a_group_of_four_attacks_together() -> None:
    """Multiple Attackers: "up to 4 characters" may attack one target together."""
    table = fight("alf", "bob")
    for who in ("cat", "dan", "eve"):
        table = act(table, who, "join", **{"with": "alf"})
    table = declare(table, "alf", "attack", target="bob", group=["cat", "dan", "eve"])
    assert last(table, "combat.declared")["group"] == ["cat", "dan", "eve"]


def test_a_fighter_who_has_declared_may_not_join_a_later_group() -> None:
    """Multiple Attackers: a helper gives their own action to the group; one who has already
    declared theirs this round cannot join another's."""
    table = act(fight("alf", "bob"), "cat", "join", **{"with": "alf"})
    table, _ = _round(
        table,
        [
            ("alf", {"action": "defend"}),
            ("cat", {"action": "defend"}),
            ("bob", {"action": "defend"}),
        ],
    )
    table = declare(table, "cat", "defend")  # Combat 3 declares before Alf's 2
    with pytest.raises(RuleError, match="cat cannot join alf's action now"):
        declare(table, "alf", "attack", target="bob", group=["cat"])


def test_a_held_action_is_declared_once_and_keeps_its_place() -> None:
    """Initiative: "A character can choose to hold their action until a later time": they may
    not hold it again; the action they then take (here drawing their cosh) is their own and is
    declared at the rank they held."""
    table = resolve(declare(declare(fight("alf", "bob"), "alf", "hold"), "bob", "defend"))
    with pytest.raises(RuleError, match="alf is already holding their action"):
        declare(table, "alf", "hold")
    table = declare(table, "alf", "draw", item="cosh")
    assert last(table, "item.drawn") == {"combat": "combat-1", "character": "alf", "item": "cosh"}
    declared = [
        (e.data["character"], e.data["action"], e.data["rank"])
        for e in table.log
        if e.kind == "combat.declared"
    ]
    assert declared[-1][:2] == ("alf", "draw") and declared[-1][2] == declared[0][2]


# -- the fold (evolve.py) -------------------------------------------------------------------


def test_after_a_failed_escape_two_more_unhit_defences_earn_another_try() -> None:
    """Escaping Combat (ruling: a failed escape needs two more Defensive Actions): one try a
    round; Bob fails against Alf, defends two more rounds unhit, and may try again (nobody
    attacked him in those rounds: nobody to beat)."""
    table = act(start(_armed()), "alf", "start_combat", targets=["bob"])
    table = act(table, "dan", "join", **{"with": "bob"})
    table = _round3(_round3(table, "attack", [1, 1, 1]), "defend", [])
    table = act(table, "bob", "escape", [1, 1, 1, 6, 6, 6])
    assert last(table, "escape.rolled")["escaped"] is False
    assert "escape" not in {c.kind for c in table.legal_actions("bob")}
    table = _round3(_round3(table, "defend", []), "defend", [])
    offers = [c for c in table.legal_actions("bob") if c.kind == "escape"]
    assert [(c.actor, c.odds) for c in offers] == [("bob", ())]  # nobody to beat: no roll
    table = act(table, "bob", "escape")
    assert last(table, "escape.rolled")["escaped"] is True


def test_drawing_a_weapon_keeps_the_damage_already_taken() -> None:
    """Taking Damage counts over the whole combat: Bob's fist (3) hits Alf in round 1; Alf
    draws his cosh in round 2 and still carries those 3."""
    table = declare(declare(fight("alf", "bob"), "alf", "defend"), "bob", "attack", target="alf")
    table = resolve(resolve(table), (6, 6, 6))
    assert table.state.status("alf").damage == 3
    table = declare(declare(table, "alf", "draw", item="cosh"), "bob", "defend")
    table = resolve(resolve(table))
    assert table.state.status("alf").drawn == "cosh"
    assert table.state.status("alf").damage == 3


def test_a_perception_check_folded_at_another_time_starts_its_cooldown_then() -> None:
    """Perception Checks: "once every 15 minutes" from the check's own game time, even when one
    event's payload is folded twice, at two times (the fold's memo keys on the time)."""
    state = start(brawl()).state
    payload = {"perceiver": "alf", "target": "bob"}
    early = evolve(state, Event("perception.made", payload, at=0))
    later = evolve(state, Event("perception.made", payload, at=10 * MINUTE))
    assert early.cooldown_until("alf", "bob") == 15 * MINUTE
    assert later.cooldown_until("alf", "bob") == 25 * MINUTE


# -- the game file (game.py) ----------------------------------------------------------------


def test_items_in_a_game_file_are_a_mapping_of_item_cards() -> None:
    """Items: a character's items are cards by name; anything else is refused at its path."""
    for items, path, words in (
        (["knife"], ("characters", "a", "items"), "items is a mapping, not list"),
        (
            {"knife": 3},
            ("characters", "a", "items", "knife"),
            "an item card is a mapping, not int",
        ),
    ):
        with pytest.raises(ScenarioError) as error:
            load_game({"characters": {"a": character("A", 15, items=items)}})
        assert error.value.path == path
        assert str(error.value).endswith(words)


def test_envelopes_for_a_number_nobody_wears_are_pointed_out() -> None:
    """Character Badges: an envelope for a number no character wears is likely a slip in the
    game file; every such number is named, and a worn one is not."""
    state = load_game(
        {
            "characters": {
                "a": character(
                    "A",
                    15,
                    perception_envelopes=[{"to": [12, 53, 54], "target": 14, "contents": "x"}],
                    contingency_envelopes=[
                        {"see": 53, "contents": "y"},
                        {"talk": 12, "contents": "z"},
                    ],
                ),
                "b": character("B", 12),
            }
        }
    )
    assert unworn_numbers(state) == [
        "a-p1 (Give to Character 12, 53, 54, if they Roll 14 or more): nobody wears 53, 54",
        "a-c1 (Open if you see character 53): nobody wears 53",
    ]


@pytest.mark.parametrize(
    ("sheet", "path", "words"),
    [
        (
            {"items": {"knife": {"damge": 3}}},
            ("items", "knife", "damge"),
            "unknown field 'damge' (known: damage, description)",
        ),
        *(
            (
                {"items": {"knife": {"damage": bad}}},
                ("items", "knife", "damage"),
                f"damage is a whole number, not {bad!r}",
            )
            for bad in (-1, "big", True)
        ),
        (
            {"items": {"knife": {"description": 5}}},
            ("items", "knife", "description"),
            "description is text, not 5",
        ),
        ({"languages": "French"}, ("languages",), "languages is a list of language names"),
        ({"languages": [1]}, ("languages",), "languages is a list of language names"),
        (
            {"perception_envelopes": [3]},
            ("perception_envelopes", 0),
            "an envelope is a mapping, not int",
        ),
        (
            {"perception_envelopes": [{"to": "ALL", "target": 14, "contents": "x", "hue": 1}]},
            ("perception_envelopes", 0, "hue"),
            "unknown field 'hue' (known: contents, directions, id, target, to)",
        ),
    ],
)
def test_a_bad_item_language_or_envelope_is_refused_at_its_path(
    sheet: dict[str, Any], path: tuple[object, ...], words: str
) -> None:
    """The game file: an item card, a language list or a Perception Envelope that is not as the
    rules write it is refused, naming the field."""
    with pytest.raises(ScenarioError) as error:
        load_game({"characters": {"a": character("A", 15, **sheet)}})
    assert error.value.path == ("characters", "a", *path)
    assert str(error.value).endswith(words)


def test_an_item_card_may_do_no_damage_and_carry_a_description() -> None:
    """Items: a card's damage may be 0 and its description is kept (none: empty); an envelope
    may be for a single Character Number."""
    state = load_game(
        {
            "characters": {
                "a": character(
                    "A",
                    15,
                    items={"knife": {"damage": 0, "description": "a blade"}, "note": {}},
                    perception_envelopes=[{"to": 12, "target": 14, "contents": "x"}],
                )
            }
        }
    )
    knife, note = state.character("a").items
    assert (knife.damage, knife.description) == (0, "a blade")
    assert (note.damage, note.description) == (None, "")
    assert state.perception_envelopes[0].given_to == ("12",)


_A = {"number": 15}
_ALL_14 = {"to": "ALL", "target": 14, "contents": "x"}


def _envelope(**fields: Any) -> dict[str, Any]:
    """A game whose one character holds one Perception Envelope of ``fields``."""
    return {"characters": {"a": {"number": 15, "perception_envelopes": [fields]}}}


@pytest.mark.parametrize(
    ("setup", "refusal"),
    [
        ({"characters": [1]}, "characters: characters is a mapping, not list"),
        ({}, "characters: a game has characters"),
        (
            {"characters": {"a": _A}, "title": "x"},
            "title: unknown field 'title' (known: characters, start)",
        ),
        ({"characters": {"a": 3}}, "characters.a: a character is a mapping, not int"),
        *(
            ({"characters": {cid: _A}}, f"characters.{cid}: a character id is a name, not {cid!r}")
            for cid in ("15", "referee", "public", "ALL")
        ),
        (
            {"characters": {"a": {"number": 15, "skills": ["Perception"]}}},
            "characters.a.skills: skills is a mapping, not list",
        ),
        (
            {"characters": {"a": {"number": 7}}},
            "characters.a.number: a character number has two digits, not 7 "
            "(write numbers below 10 in quotes, like '07')",
        ),
        (
            {"characters": {"a": {"number": "abc"}}},
            "characters.a.number: a character number has two digits, not 'abc'",
        ),
        (
            _envelope(to="ALL", target="high", contents="x"),
            "characters.a.perception_envelopes.0.target: target is a whole number, at least 0, "
            "not 'high'",
        ),
        (
            _envelope(to="ALL", target=14),
            "characters.a.perception_envelopes.0.contents: contents is text, not None",
        ),
        (
            _envelope(to="ALL", target=14, contents="x", directions=5),
            "characters.a.perception_envelopes.0.directions: directions is text, not 5",
        ),
        (
            _envelope(to="ALL", target=14, contents="x", id=5),
            "characters.a.perception_envelopes.0.id: id is text, not 5",
        ),
        *(
            ({"characters": {"a": {"number": 15, **sheet}}}, f"characters.a.{refusal}")
            for sheet, refusal in (
                ({"name": 5}, "name: name is text, not 5"),
                ({"strength": "x"}, "strength: strength is a whole number, at least 0, not 'x'"),
                ({"mind": "x"}, "mind: mind is a whole number, at least 0, not 'x'"),
                (
                    {"speaks_english": "yes"},
                    "speaks_english: speaks_english is true or false, not 'yes'",
                ),
                ({"wounds": 0}, "wounds: wounds is a whole number, at least 1, not 0"),
                ({"wounds": "x"}, "wounds: wounds is a whole number, at least 1, not 'x'"),
            )
        ),
        *(
            (
                {"start": clock, "characters": {"a": _A}},
                f"start: a clock time runs from 00:00 to 23:59, not {clock!r}",
            )
            for clock in ("24:00", "25:00:00")
        ),
    ],
)
def test_a_bad_game_file_is_refused_by_the_field_at_fault(
    setup: dict[str, Any], refusal: str
) -> None:
    """The game file: what is not as the rules write it (a character id that is a number or a
    seat's name, a number not of two digits, a clock time past 23:59, ...) is refused by its
    path, in words."""
    with pytest.raises(ScenarioError) as error:
        load_game(setup)
    assert str(error.value) == refusal


def test_ten_and_ninety_nine_are_badge_numbers_and_the_evening_may_start_at_23_59() -> None:
    """Character Badges: "A two digit number": 10 to 99. A game may start at 23:59; envelopes
    with no id are numbered from 1, with no directions."""
    state = load_game(
        {
            "start": "23:59",
            "characters": {
                "a": {"number": 10},
                "b": {"number": 99},
                "c": {"number": 15, "perception_envelopes": [_ALL_14, _ALL_14]},
            },
        }
    )
    assert [c.number for c in state.characters] == ["10", "99", "15"]
    assert [(p.id, p.directions) for p in state.perception_envelopes] == [
        ("c-p1", ""),
        ("c-p2", ""),
    ]


def test_a_sheet_without_statistics_has_the_games_defaults() -> None:
    """Statistics: a sheet that gives none has Combat, Strength and Mind 1 and Stamina 6, and
    as many wounds; a Stamina of 1 is allowed."""
    state = load_game({"characters": {"a": {"number": 15}, "b": {"number": 16, "stamina": 1}}})
    a, b = state.characters
    assert (a.combat, a.strength, a.mind, a.stamina, a.wounds) == (1, 1, 1, 6, 6)
    assert (b.stamina, b.wounds) == (1, 1)


# -- Perception Checks and Contingency Envelopes (perception.py) ---------------------------


def test_a_perception_check_tells_each_side_its_part_and_the_referee_every_envelopes_odds() -> None:
    """Perception Envelopes: Miss Twelve (Perception 3) rolls 14 on the Countess, whose
    envelopes are for number 20 (skipped: not for her), for 12, 20, 32 at 14 (matched: handed
    over) and for ALL at 16 (missed). Her skill, dice and total card are hers; each envelope's
    card and odds are the referee's."""
    game = evening()
    to_twenty = {"id": "to-twenty", "to": [20], "target": 10, "contents": "x"}
    game["characters"]["countess"]["perception_envelopes"] = [to_twenty, TO_SOME, TO_ALL]
    table = act(start(game), "twelve", "perceive", [4, 4, 3], target="countess")
    made = next(e for e in reversed(table.log.events) if e.kind == "perception.made")
    assert without_names(made.payload) == {
        "perceiver": "twelve",
        "target": "countess",
        "total": 14,
        "envelopes": [
            {"id": "to-some", "label": "Give to Character 12, 20, 32, if they Roll 14 or more"}
        ],
    }
    told = {s.name: (s.audience, s.value) for s in made.secrets}
    assert told["perception"] == (only("twelve"), 3)
    assert told["faces"] == (only("twelve"), [4, 4, 3])
    assert told["roll"] == (
        only("twelve"),
        {
            "card": "roll",
            "label": "Miss Twelve perceives The Countess",
            "rule": "Perception Envelopes",
            "dice": "3d6+3",
            "odds": None,
            "faces": [4, 4, 3],
            "outcome": "rolled",
            "margin": None,
            "value": 14,
            "opponent": None,
            "shown": "3d6 (4, 4, 3) + 3 = 14",
        },
    )
    assert told["contents"] == (
        only("twelve"),
        {"to-some": {"contents": TO_SOME["contents"], "directions": TO_SOME["directions"]}},
    )
    timer = table.log.events[-1]
    assert (timer.kind, timer.audience) == ("timer.set", only("twelve"))
    assert timer.payload == {
        "name": "perception:twelve:countess",
        "after": 15 * MINUTE,
        "label": "Miss Twelve may perceive The Countess again",
    }
    audience, chances = told["chances"]
    assert audience == REFEREE_ONLY and chances["to-twenty"] == "0" != chances["to-some"]
    audience, cards = told["rolls"]
    assert audience == REFEREE_ONLY
    assert [
        (c["label"], c["rule"], c["outcome"], c["margin"], c["value"], c["faces"]) for c in cards
    ] == [
        (
            "Miss Twelve perceives The Countess: to-some",
            "Perception Envelopes",
            "success",
            0,
            14,
            [4, 4, 3],
        ),
        (
            "Miss Twelve perceives The Countess: to-all",
            "Perception Envelopes",
            "failure",
            -2,
            14,
            [4, 4, 3],
        ),
    ]
    assert [c["shown"] for c in cards] == ["3d6 (4, 4, 3) + 3 = 14"] * 2


def test_the_holder_is_told_why_an_envelope_may_open_and_opens_it_alone() -> None:
    """Contingency Envelopes: seeing the Baron (53) or being shot makes the Countess's envelopes
    openable, and she is told why; opening one is her own business."""
    table = act(start(evening()), "countess", "encounter", character="baron", how="see")
    table = act(table, "countess", "report", event="shot")
    told = [
        (e.audience, without_names(e.payload))
        for e in table.log
        if e.kind == "contingency.openable"
    ]
    assert told == [
        (only("countess"), {"holder": "countess", "envelopes": ["see53"], "why": "see 53"}),
        (only("countess"), {"holder": "countess", "envelopes": ["shot"], "why": "event: shot"}),
    ]
    table = act(table, "countess", "open", envelope="shot")
    opened = table.log.events[-1]
    assert (opened.kind, opened.audience) == ("envelope.opened", only("countess"))
    assert without_names(opened.payload) == {
        "holder": "countess",
        "envelope": "shot",
        "label": "Open if shot",
    }


# -- joining and initiative (combat.py, rounds.py) ------------------------------------------


def test_the_knocked_out_and_those_already_fighting_may_not_join_a_new_combat() -> None:
    """Starting Combat: the referee may not admit Bob, knocked out, to Cat's fight with Dan, nor
    may Cat attack him; Alf, in a fight of his own, may neither join another nor start one."""
    table = act(knock_out_bob(), "cat", "start_combat", targets=["dan"])
    with pytest.raises(RuleError, match="bob is out of action"):
        act(table, "referee", "admit", character="bob", **{"with": "dan"})
    with pytest.raises(RuleError, match="bob is out of action"):
        act(knock_out_bob(), "cat", "start_combat", targets=["bob"])
    table = act(fight("alf", "bob"), "cat", "start_combat", targets=["dan"])
    with pytest.raises(RuleError, match="alf is already in a combat"):
        act(table, "alf", "join", **{"with": "cat"})
    with pytest.raises(RuleError, match="alf is already in a combat"):
        act(table, "alf", "start_combat", targets=["eve"])


def test_after_round_one_the_higher_combat_stat_declares_first() -> None:
    """Initiative: "the character with the highest Combat Stat goes first": Bob started the
    fight, but in round 2 Cat (Combat 3) declares before him (Combat 1), and a refusal names
    the rule."""
    table = declare(declare(fight("bob", "cat"), "bob", "defend"), "cat", "defend")
    table = act(resolve(resolve(table)), "referee", "next_round")
    assert pending_declarers(table.state, combat(table)) == ("cat", "bob")
    with pytest.raises(RuleError) as error:
        declare(table, "bob", "defend")
    assert error.value.rule == "Combat rules: Initiative"


def test_only_a_mental_ability_usable_in_combat_lets_a_fighter_rank_by_mind() -> None:
    """Mixing Mental and Normal Combat: Krockin, whose only mental ability (Sleep) "cannot be
    used during normal combat", may not rank by Mind."""
    sleep = brawl()["characters"]["kro"]["abilities"]["Sleep"]
    table = fight("alf", "kro", kro={"abilities": {"Sleep": sleep}})
    assert "use_mind" not in {c.kind for c in table.legal_actions("kro")}
    with pytest.raises(RuleError, match="kro has no mental ability usable in combat"):
        act(table, "kro", "use_mind")


def test_a_held_fighter_may_not_rank_by_mind() -> None:
    """Grabbing: a Held character may only Break Free or Scream; they cannot turn to a mental
    ability the next round."""
    table = declare(declare(fight("cat", "kro"), "cat", "grab", target="kro"), "kro", "defend")
    table = resolve(resolve(table, (6, 6, 6)))
    assert combat(table).holder_of("kro") == "cat"
    assert "use_mind" not in {c.kind for c in table.legal_actions("kro")}
    with pytest.raises(RuleError, match="kro is Holding or Held"):
        act(table, "kro", "use_mind")


def test_a_refused_second_check_names_the_time_it_may_be_made() -> None:
    """Perception Checks: "once every 15 minutes": a second check on the Countess is refused,
    naming when the next may be made; asked with no clock, the refusal names only that time."""
    table = act(start(evening()), "twelve", "perceive", [4, 4, 3], target="countess")
    state = table.state
    twelve, countess = state.character("twelve"), state.character("countess")
    with pytest.raises(RuleError) as error:
        perceive(state, twelve, countess, ScriptedSource([]), None)
    assert error.value.reason.endswith("the next check may be made at 19:15")


# -- what each seat is offered in a combat (procedure.py's menus) ---------------------------

_MENU_KINDS = ("declare", "resolve", "use_mind", "next_round", "escape")


def _menu(table: T, who: str) -> list[tuple[str, str, dict[str, Any]]]:
    """``who``'s combat choices: kind, label and each parameter's values (or bounds)."""
    assert {c.actor for c in table.legal_actions(who)} <= {who}
    return [
        (
            c.kind,
            c.label,
            {k: getattr(v, "values", None) or (v.low, v.high) for k, v in c.params.items()},
        )
        for c in table.legal_actions(who)
        if c.kind in _MENU_KINDS
    ]


def _d(action: str, label: str = "", **params: Any) -> tuple[str, str, dict[str, Any]]:
    return ("declare", label or action, {"action": (action,), **params})


_SCREAM = _d("scream", bonus=(0, 3))
_NEXT = ("next_round", "", {"combat": ("combat-1",)})
_RESOLVE = ("resolve", "", {"combat": ("combat-1",)})
_ARMS = _d("draw", item=("cosh", "pistol"))


def test_each_fighter_is_offered_the_combat_actions_open_to_them_in_their_turn() -> None:
    """Initiative and Combat Actions: Alf (first in round 1) may Defend, Scream, hold, Attack
    or Grab Bob, or draw; Bob waits until Alf has declared; once all have, the round may be
    resolved, and Alf's held action is offered again, without holding a second time."""
    table = act(fight("alf", "bob"), "referee", "next_round")
    alf_full = [
        _d("defend"),
        _SCREAM,
        _d("hold"),
        _d("attack", target=("bob",)),
        _d("grab", target=("bob",)),
        _ARMS,
    ]
    assert (_menu(table, "alf"), _menu(table, "bob")) == (alf_full, [])
    table = declare(table, "alf", "hold")
    assert _menu(table, "alf") == []
    assert _menu(table, "bob") == [
        _d("defend"),
        _SCREAM,
        _d("hold"),
        _d("attack", target=("alf",)),
        _d("grab", target=("alf",)),
    ]
    table = resolve(declare(table, "bob", "defend"))
    assert _menu(table, "alf") == [*alf_full[:2], *alf_full[3:], _RESOLVE]
    assert _menu(table, "bob") == [_RESOLVE]


def test_the_holder_and_the_held_are_offered_only_their_own_actions() -> None:
    """Grabbing: Cat, Holding Bob, may Squeeze, Throw or Release; Alf may not Grab the Held
    Bob; Bob, Held and ranked last, may then only Break Free or Scream. Between rounds the
    first to declare may begin the next round by declaring."""
    table = _cat_holds_bob()
    cat = [_d("squeeze"), _d("throw"), _d("release")]
    alf = [_d("defend"), _SCREAM, _d("hold"), _d("attack", target=("bob",)), _ARMS]
    assert _menu(table, "cat") == [_NEXT, *cat]
    assert _menu(table, "alf") == [_NEXT, *alf]
    assert _menu(table, "bob") == [_NEXT]
    table = act(table, "referee", "next_round")
    assert (_menu(table, "cat"), _menu(table, "alf"), _menu(table, "bob")) == (cat, alf, [])
    table = declare(declare(table, "cat", "squeeze"), "alf", "defend")
    assert _menu(table, "bob") == [_d("break_free"), _SCREAM]


def test_ranking_by_mind_is_offered_before_the_rounds_first_declaration() -> None:
    """Mixing Mental and Normal Combat: Krockin may rank by Mind until the round's first
    declaration; then he may use a mental ability usable in combat, or hold, and declares
    before Alf (Mind 3 against Combat 2)."""
    table = declare(declare(fight("alf", "kro"), "alf", "defend"), "kro", "defend")
    table = resolve(resolve(table))
    alf = [
        _d("defend"),
        _SCREAM,
        _d("hold"),
        _d("attack", target=("kro",)),
        _d("grab", target=("kro",)),
        _ARMS,
    ]
    assert _menu(table, "kro") == [_NEXT, ("use_mind", "", {})]
    assert _menu(table, "alf") == [_NEXT, *alf]
    in_round = act(table, "referee", "next_round")
    assert _menu(in_round, "kro") == [("use_mind", "", {})]
    assert _menu(in_round, "alf") == alf
    assert _menu(declare(in_round, "alf", "defend"), "kro") == [
        _d("defend"),
        _SCREAM,
        _d("hold"),
        _d("attack", target=("alf",)),
        _d("grab", target=("alf",)),
    ]
    by_mind = act(table, "kro", "use_mind")
    assert _menu(by_mind, "alf") == []
    assert _menu(by_mind, "kro") == [
        _d("attack", "mental attack", target=("alf",), ability=("Energy Bolt", "Befuddle")),
        _d("hold"),
    ]


def _referee_menu(table: T) -> list[tuple[Any, ...]]:
    return [
        (
            c.actor,
            c.kind,
            c.label,
            {k: getattr(v, "values", None) for k, v in c.params.items()},
            [(o.label, o.rule) for o in c.odds],
        )
        for c in table.legal_actions("referee")
    ]


def test_the_referee_resolves_a_round_once_all_have_declared_and_may_admit_the_able() -> None:
    """The referee resolves a round once everyone has declared, seeing its odds; may end a
    running combat; and may admit into it ("unless a referee rules otherwise") anyone able who
    is in no combat: not those fighting, nor the Knocked Out."""
    c1 = {"combat": ("combat-1",)}
    admit = (
        "referee",
        "admit",
        "",
        {"character": ("cat", "dan", "eve", "kro"), "with": ("alf", "bob")},
        [],
    )
    table = act(fight("alf", "bob"), "referee", "next_round")
    assert _referee_menu(table) == [("referee", "end_combat", "", c1, []), admit]
    table = declare(declare(table, "alf", "attack", target="bob"), "bob", "defend")
    assert _referee_menu(table) == [
        ("referee", "resolve", "resolve", c1, [("Alf attack Bob", "Combat Actions")]),
        ("referee", "end_combat", "", c1, []),
        admit,
    ]
    table = act(knock_out_bob(), "cat", "start_combat", targets=["dan"])
    c2 = {"combat": ("combat-2",)}
    assert _referee_menu(table) == [
        ("referee", "next_round", "", c2, []),
        ("referee", "end_combat", "", c2, []),
        ("referee", "admit", "", {"character": ("alf", "eve", "kro"), "with": ("cat", "dan")}, []),
    ]


# -- the log's words (events.describe) -------------------------------------------------------


def test_the_log_says_who_attacked_whom_with_what_and_whether_it_hit() -> None:
    """Attacking, Multiple Attackers, Mental Combat: the attack line names every attacker, the
    action or the mental ability, the total against the Target Number, and hit or miss."""
    attack = {"target": "bob", "total": 14, "target_number": 12}
    assert (
        _line("attack.rolled", attackers=["alf", "dan"], action="attack", hit=True, **attack)
        == "alf+dan attack bob: 14 against 12: hit."
    )
    assert (
        _line("attack.rolled", attackers=["cat"], action="grab", hit=False, **attack)
        == "cat grab bob: 14 against 12: miss."
    )
    assert (
        _line("attack.rolled", attackers=["kro"], ability="Befuddle", hit=True, **attack)
        == "kro Befuddle bob: 14 against 12: hit."
    )
    assert (
        _line("attack.rolled", attackers=["kro"], hit=False, **attack)
        == "kro attack bob: 14 against 12: miss."
    )


def test_the_log_says_the_damage_taken_the_combats_total_and_a_knock_out() -> None:
    """Taking Damage: the line gives the damage, by what, the combat's total (and the Stamina,
    for those who may read it) and says when it knocks the character out."""
    hit = {"character": "bob", "amount": 4, "by": "alf's cosh", "total": 6}
    assert (
        _line("damage.taken", knocked_out=True, stamina=5, **hit)
        == "bob takes 4 damage (alf's cosh; 6 this combat, Stamina 5): KNOCKED OUT."
    )
    assert (
        _line("damage.taken", knocked_out=False, **hit)
        == "bob takes 4 damage (alf's cosh; 6 this combat)."
    )


def test_the_log_says_what_each_fighter_declared() -> None:
    """Combat Actions: a declaration's line names the action, its target, ability, item and
    group, and the initiative it acts at."""
    assert (
        _line(
            "combat.declared", character="alf", action="attack", target="bob", group=["dan"], rank=2
        )
        == "alf declares attack on bob, with dan (initiative 2)."
    )
    assert (
        _line(
            "combat.declared",
            character="kro",
            action="attack",
            target="alf",
            ability="Befuddle",
            rank=3,
        )
        == "kro declares attack on alf with Befuddle (initiative 3)."
    )
    assert (
        _line("combat.declared", character="alf", action="draw", item="cosh", rank=2)
        == "alf declares draw (cosh) (initiative 2)."
    )


def test_the_log_says_which_envelopes_a_perception_check_hands_over_and_what_they_say() -> None:
    """Perception Envelopes: the line gives the total and the envelopes handed over; for those
    who may read them, each one's contents and directions."""
    check = {"perceiver": "twelve", "target": "countess", "total": 14}
    assert (
        _line("perception.made", envelopes=[], **check)
        == "twelve makes a Perception Check on countess: total 14; no envelope is handed over."
    )
    handed = [{"id": "a", "label": "A"}, {"id": "b", "label": "B"}]
    contents = {"a": {"contents": "x", "directions": "d"}, "b": {"contents": "y", "directions": ""}}
    assert (
        _line("perception.made", envelopes=handed, contents=contents, **check)
        == "twelve makes a Perception Check on countess: total 14; hands over a (A), b (B)."
        " a reads: x Directions: d b reads: y"
    )
    assert (
        _line("perception.made", envelopes=handed[:1], **check)
        == "twelve makes a Perception Check on countess: total 14; hands over a (A)."
    )


def test_the_log_says_who_spoke_in_which_language_and_who_understood() -> None:
    """Languages: the line names the speaker, the language, the listeners and, with what was
    said, those who followed it."""
    said = {"speaker": "a", "language": "French"}
    assert (
        _line(
            "conversation.held", listeners=["b", "c"], content="Bonjour", followed_by=["b"], **said
        )
        == 'a speaks in French to b, c (understood by b): "Bonjour"'
    )
    assert (
        _line("conversation.held", listeners=["b"], content="Oui", followed_by=[], **said)
        == 'a speaks in French to b (understood by nobody): "Oui"'
    )
    assert _line("conversation.held", listeners=[], **said) == "a speaks in French to nobody."
    assert _line("conversation.held", **said) == "a speaks in French to nobody."
    assert (
        _line("conversation.held", listeners=["b"], content="Oui", **said)
        == 'a speaks in French to b (understood by nobody): "Oui"'
    )


def test_a_held_action_is_offered_once_those_ranked_above_have_acted() -> None:
    """Initiative: "hold their action until a later time": Alf (Combat 2) holds; while Cat
    (Combat 3) has still to act he may only see the round resolved; once her place is resolved
    he may take his action, before Bob (Combat 1)."""
    table = act(fight("cat", "bob"), "alf", "join", **{"with": "cat"})
    table = declare(declare(declare(table, "cat", "defend"), "alf", "hold"), "bob", "defend")
    assert _menu(table, "alf") == [_RESOLVE]
    assert _menu(resolve(table), "alf") == [
        _d("defend"),
        _SCREAM,
        _d("attack", target=("bob",)),
        _d("grab", target=("bob",)),
        _ARMS,
        _RESOLVE,
    ]


def test_the_referee_has_no_combat_to_run_before_one_starts() -> None:
    """Starting Combat: with no combat under way the referee may not resolve, end or admit."""
    assert list(start(brawl()).legal_actions("referee")) == []


def test_escape_is_offered_after_two_unhit_defences_with_the_odds_of_beating_the_attacker() -> None:
    """Escaping Combat: after one unhit Defensive Action Bob may not escape; after two he is
    offered it, with the odds of his 3d6 + Combat beating Alf's."""
    table = declare(declare(fight("alf", "bob"), "alf", "attack", target="bob"), "bob", "defend")
    table = resolve(resolve(table, (1, 1, 1)))
    assert "escape" not in {c.kind for c in table.legal_actions("bob")}
    table = two_dodges()
    assert _menu(table, "bob") == [_NEXT, ("escape", "", {})]
    (offer,) = [c for c in table.legal_actions("bob") if c.kind == "escape"]
    ((label, dice, odds),) = [(o.label, o.dice, o.odds) for o in offer.odds]
    assert (label, dice) == ("bob escapes alf", "3d6+1 vs 3d6+2")
    assert odds == {"failure": "9905/15552", "success": "5647/15552"}


def test_the_knocked_out_are_not_among_those_who_may_act() -> None:
    """Taking Damage: a Knocked Out character takes no action until they wake."""
    actors = PROCEDURE.actors(knock_out_bob().state)
    assert "bob" not in actors and {"alf", "cat", "referee"} <= set(actors)


# -- the odds shown before an action (odds.py) -----------------------------------------------


def test_a_held_action_shows_its_roll_only_when_it_may_be_taken() -> None:
    """Initiative: a held action "until a later time" resolves at once when taken, so its roll
    is previewed then — not while Cat, ranked above, has still to act; an ordinary declaration,
    a second one, or one by a character in no combat rolls nothing."""
    attack = Action("alf", "declare", {"action": "attack", "target": "bob"})
    table = act(act(fight("cat", "bob"), "alf", "join", **{"with": "cat"}), "referee", "next_round")
    assert upcoming(table.state, Action("bob", "declare", {"action": "defend"})) == []
    table = declare(declare(table, "cat", "defend"), "alf", "hold")
    assert upcoming(table.state, attack) == []  # Bob has still to declare
    table = declare(table, "bob", "defend")
    assert upcoming(table.state, attack) == []
    table = resolve(table)
    assert [
        (words, check.target, check.modifier) for words, check in upcoming(table.state, attack)
    ] == [("Alf attack Bob: 3d6+2 > 14", 14, 2)]
    assert upcoming(table.state, Action("dan", "declare", {"action": "defend"})) == []
    table = act(fight("alf", "bob"), "referee", "next_round")
    table = declare(declare(table, "alf", "attack", target="bob"), "bob", "defend")
    assert upcoming(table.state, attack) == []


def test_the_rounds_odds_are_previewed_for_its_own_combat() -> None:
    """Combat Actions: the round's rolls are previewed before it is resolved — for the referee
    when one combat runs or the combat is named (not when two run and none is named), and for
    a fighter, their own combat."""
    table = declare(declare(fight("alf", "bob"), "alf", "attack", target="bob"), "bob", "defend")
    two = act(table, "cat", "start_combat", targets=["dan"])
    roll = ["Alf attack Bob: 3d6+2 > 14"]
    for state, action, words in (
        (table.state, Action("referee", "resolve", {}), roll),
        (two.state, Action("referee", "resolve", {}), []),
        (two.state, Action("referee", "resolve", {"combat": "combat-1"}), roll),
        (two.state, Action("alf", "resolve", {}), roll),
    ):
        assert [w for w, _ in upcoming(state, action)] == words


def test_a_special_abilitys_roll_adds_its_value_or_nothing() -> None:
    """Skill Rolls: "some special abilities do not have a skill value, so you simply roll 3d6";
    one with a value adds it."""
    kro = brawl()["characters"]["kro"]
    abilities = {**kro["abilities"], "Fast Talk": {"value": 2}, "Luck": {}}
    state = start(brawl(kro={"abilities": abilities, "skills": {"Luck": 1}})).state
    rolls = [
        (words, check.modifier)
        for param, name in (("ability", "Fast Talk"), ("ability", "Luck"), ("skill", "Luck"))
        for words, check in upcoming(state, Action("kro", "roll", {param: name, "target": 10}))
    ]
    assert rolls == [
        ("kro Fast Talk: 3d6+2 ≥ 10", 2),
        ("kro Luck: 3d6+0 ≥ 10", 0),
        ("kro Luck: 3d6+1 ≥ 10", 1),  # the skill of that name, not the ability
    ]


def test_the_odds_shown_are_those_of_the_roll_the_action_would_make() -> None:
    """Each roll previewed before it is made: an escape against the strongest attacker, a
    Medicine roll to wake (14 or more), an opposed Skill Roll against the other's named skill,
    a mental attack against its set number or Mind + 10, and only the envelopes meant for the
    perceiver."""

    def words(state: Any, actor: str, kind: str, **params: Any) -> list[str]:
        return [w for w, _ in upcoming(state, Action(actor, kind, params))]

    assert words(two_dodges().state, "bob", "escape") == [
        "bob escapes alf: 3d6+Combat > 3d6+Combat"
    ]
    assert words(knock_out_bob().state, "cat", "revive", target="bob") == [
        "cat wakes bob: 3d6+2 ≥ 14"
    ]
    evening_ = start(evening()).state
    assert words(evening_, "fifteen", "roll", skill="Perception", against="twelve") == [
        "fifteen Perception: 3d6+3 ≥ twelve's 3d6+3"
    ]
    assert words(
        evening_, "fifteen", "roll", skill="Perception", against="twelve", against_skill="Medicine"
    ) == ["fifteen Perception: 3d6+3 ≥ twelve's 3d6+0"]
    assert words(evening_, "fifteen", "perceive", target="countess") == [
        "fifteen is given to-all (Give to ALL with a Roll of 16 or more): 3d6+3 ≥ 16"
    ]
    assert words(evening_, "twelve", "perceive", target="countess") == [
        "twelve is given to-all (Give to ALL with a Roll of 16 or more): 3d6+3 ≥ 16",
        "twelve is given to-some (Give to Character 12, 20, 32, if they Roll 14 or more):"
        " 3d6+3 ≥ 14",
    ]
    assert words(evening_, "fifteen", "resolve") == []  # in no combat
    brawl_ = start(brawl()).state
    assert words(brawl_, "kro", "mental_attack", target="alf", ability="Energy Bolt") == [
        "kro Energy Bolt alf: 3d6+3 > 16"
    ]
    assert words(brawl_, "kro", "mental_attack", target="alf", ability="Befuddle") == [
        "kro Befuddle alf: 3d6+3 > 11"
    ]
    assert words(brawl_, "kro", "mental_attack", target="alf", ability="Nope") == []


def test_the_referee_may_admit_nobody_when_everyone_is_fighting() -> None:
    """Starting Combat: "unless a referee rules otherwise" — but with all four in the fight
    there is nobody left to admit."""
    table = act(start(_cast()), "alf", "start_combat", targets=["bob"])
    table = act(act(table, "cat", "join", **{"with": "alf"}), "dan", "join", **{"with": "bob"})
    assert [c.kind for c in table.legal_actions("referee")] == ["next_round", "end_combat"]
