"""The audit of Gin Lane clause by clause (issue 13, ``../shared/audits/ginlane.md``): each
wrong, missing or untested clause, with the audit's reproducer turned into a test that fails
when the clause is broken."""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import Action, RuleError, Table
from referee.dice import ScriptedSource
from referee.systems.ginlane import PROCEDURE
from referee.systems.ginlane.procedure import SceneState

from .test_procedure import answered

LINE = {
    "zones": ["a", "b", "c", "d", "e", "f"],
    "links": [[x, y] for x, y in zip("abcde", "bcdef", strict=True)],
}


def go(table: Table[SceneState], who: str, kind: str, faces: Any = (), **params: Any) -> Any:
    """``who`` acts; a defence and a hit's taking are answered from the target's seat with the
    ``defence``/``defences``/``consequences`` given, else the prompts' defaults, with the same
    dice (``test_procedure.act``)."""
    dice = ScriptedSource(list(faces))
    given = ("defence", "defences", "consequences") if kind not in ("defend", "absorb") else ()
    answers = {k: params.pop(k) for k in given if k in params}
    table = table.act(Action(who, kind, params), dice)
    while asked := PROCEDURE.prompts(table.state):
        table = table.act(answered(asked[0], answers), dice)
    return table


def start(characters: dict[str, Any], **setup: Any) -> Table[SceneState]:
    table = Table.start(PROCEDURE, {**setup, "characters": characters})
    faces = [6, 6] + [1, 1] * (len(characters) - 1)
    return go(table, "referee", "initiative", faces)


def data(table: Table[SceneState], kind: str) -> list[dict[str, Any]]:
    return [dict(e.data) for e in table.log if e.kind == kind]


# ---------------------------------------------------------------------------------- wrong


def test_w1_manoeuvre_aspects_last_no_longer_than_the_scene() -> None:
    """Action: Manoeuvre: "Manoeuvre Aspects are temporary, lasting no longer than the scene"."""
    t = start({"m": {"side": "s", "skills": {"Brawl": 1}}, "j": {"side": "b"}})
    t = go(t, "m", "manoeuvre", [6, 6, 1, 1], target="j", named="blind")
    assert [a.name for a in t.state.aspects] == ["Blinded"]
    ended = go(t, "referee", "end_scene")
    assert ended.state.aspects == () and not ended.state.order
    assert data(ended, "scene.ended") == [{"lapsed": ["Blinded"]}]
    # a night's rest comes after the scene: it ends first
    rested = go(t, "referee", "rest", [1, 1])
    assert rested.state.aspects == ()
    assert [e.kind for e in rested.log][-3:] == ["scene.ended", "rested", "rested"]


def test_w1_a_consequence_outlasts_the_scene() -> None:
    t = start({"m": {"side": "s", "weapon": "sword", "skills": {"Weapons": 1}}, "j": {"side": "b"}})
    t = go(
        t,
        "m",
        "attack",
        [6, 6, 1, 1],
        target="j",
        consequences=[{"severity": "slight", "aspect": "Winded"}],
    )
    t = go(t, "referee", "end_scene")
    assert [a.name for a in t.state.aspects] == ["Winded"]


def test_w2_a_brawl_manoeuvre_reaches_only_the_same_zone() -> None:
    """Zones: "Characters in the same zone can punch each other"."""
    t = start(
        {"m": {"side": "s", "zone": "a", "skills": {"Brawl": 1}}, "j": {"side": "b", "zone": "e"}},
        **LINE,
    )
    with pytest.raises(RuleError, match="Zones: j is 4 zones away: a Brawl manoeuvre reaches 0"):
        go(t, "m", "manoeuvre", [6, 6, 1, 1], target="j", named="blind")
    near = start(
        {"m": {"side": "s", "zone": "a", "skills": {"Brawl": 1}}, "j": {"side": "b", "zone": "a"}},
        **LINE,
    )
    blinded = go(near, "m", "manoeuvre", [6, 6, 1, 1], target="j", named="blind")
    assert [(a.name, a.on) for a in blinded.state.aspects] == [("Blinded", "j")]


def test_w2_taking_aim_reaches_as_far_as_sight() -> None:
    t = start(
        {
            "m": {"side": "s", "zone": "a", "weapon": "pistol", "skills": {"Firearms": 1}},
            "j": {"side": "b", "zone": "e"},
        },
        **LINE,
    )
    aimed = go(t, "m", "manoeuvre", [6, 6, 1, 1], target="j", named="take aim")
    assert [(a.name, a.on) for a in aimed.state.aspects] == [("Target", "j")]


def test_w3_a_grenade_is_thrown_from_where_the_supplemental_move_ends() -> None:
    """Grenades: "-2 for range 2": stepping back b→a and throwing into c is range 2."""
    t = start(
        {
            "n": {"side": "s", "zone": "b", "skills": {"Agility": 1}},
            "d": {"side": "x", "zone": "c"},
        },
        **LINE,
    )
    t = go(t, "n", "throw_grenade", [4, 4, 1, 1], zone="c", move_to="a")
    thrown = data(t, "grenade.thrown")[0]
    # 4+4 + Agility 1 − 1 (supplemental move) − 2 (range 2) = 6 against 7
    assert (thrown["distance"], thrown["rolled"]["total"], thrown["outcome"]) == (2, 6, "failure")


def test_w4_a_grapple_lays_hands_on_whoever_is_in_the_zone_after_the_move() -> None:
    """Grapple: "to lay hands on the target of the grapple": the same zone, after moving."""
    chars = {
        "g": {"side": "s", "zone": "b", "skills": {"Strength": 1}, "experience": 2},
        "v": {"side": "x", "zone": "b", "aspects": ["Drunk"]},
    }
    t = start(chars, **LINE)
    with pytest.raises(RuleError, match="Grapple: v is not in g's zone"):
        go(t, "g", "grapple", [4, 4, 4], target="v", tag="Drunk", move_to="a")
    apart = start({**chars, "g": {**chars["g"], "zone": "a"}}, **LINE)
    with pytest.raises(RuleError, match="Grapple: v is not in g's zone"):
        go(apart, "g", "grapple", [4, 4, 4], target="v", tag="Drunk")
    stepped_in = go(apart, "g", "grapple", [4, 4, 4], target="v", tag="Drunk", move_to="b")
    block = stepped_in.state.get("g").block
    assert stepped_in.state.get("g").zone == "b" and block is not None and block.target == "v"


# ---------------------------------------------------------------------------------- missing


def test_m1_a_session_starts_with_a_full_pool_unless_it_runs_on() -> None:
    """Experience Pool Refresh: "Characters usually start a session with a full experience pool.
    There may be exceptions if this is an immediate run-on"."""
    t = Table.start(
        PROCEDURE,
        {"characters": {"k": {"aspects": ["Gossip"], "skills": {"Charm": 1}, "experience": 4}}},
    )
    for _ in range(3):
        t = go(t, "k", "declare", aspect="Gossip", fact="f")
    assert t.state.get("k").pool.points == 0
    assert go(t, "referee", "end_session", run_on=True).state.get("k").pool.points == 0
    assert go(t, "referee", "end_session").state.get("k").pool.points == 3


def test_m2_a_throw_through_a_door_or_over_a_wall_is_harder() -> None:
    """Grenades: "Throwing through doors, over walls [...] will be more difficult"."""
    for harder, total in ((0, 9), (2, 7)):
        t = start(
            {"n": {"side": "s", "zone": "a", "skills": {"Agility": 1}}, "d": {"side": "x"}},
            zones=["a", "b"],
            links=[["a", "b", 3]],
        )
        t = go(t, "n", "throw_grenade", [4, 4, 1, 1], zone="b", harder=harder)
        assert data(t, "grenade.thrown")[0]["rolled"]["total"] == total


def test_m3_the_aim_breaks_when_the_target_walks_out_of_sight() -> None:
    """Take Aim: "if the target doesn't do something to break the aim which might be as simple
    as walking out of sight"."""
    chars = {
        "m": {"side": "s", "zone": "a", "weapon": "pistol", "skills": {"Firearms": 1}},
        "j": {"side": "b", "zone": "b", "skills": {"Agility": 1}},
    }
    t = start(chars, **LINE)
    t = go(t, "m", "manoeuvre", [6, 6, 1, 1], target="j", named="take aim")
    near = go(t, "j", "sprint", [3, 1], path=["c", "d"])  # 2 + 1: three zones from m, in sight
    assert near.state.get("j").zone == "d" and [a.name for a in near.state.aspects] == ["Target"]
    gone = go(t, "j", "sprint", [6, 1], path=["c", "d", "e", "f"])  # 5 + 1: out of sight
    assert gone.state.get("j").zone == "f" and gone.state.aspects == ()


def test_m5_initiative_may_be_tagged() -> None:
    """Rolling the Dice: "Almost any 2d6 roll may be affected by invoking, 'tagging', a relevant
    Aspect" — initiative too, for a point."""
    t = Table.start(
        PROCEDURE,
        {
            "characters": {
                "m": {
                    "side": "s",
                    "aspects": ["Quick"],
                    "experience": 4,
                    "skills": {"Alertness": 1},
                },
                "j": {"side": "b"},
            }
        },
    )
    # m: 3d6kh2 (1, 1, 6) + 1 = 8 against j: 2d6 (3, 3) − 2 = 4
    t = go(t, "referee", "initiative", [1, 1, 6, 3, 3], tags={"m": ["Quick"]})
    assert data(t, "initiative.rolled")[0]["totals"] == {"m": [8], "j": [4]}
    assert t.state.get("m").pool.points == 2 and t.state.current == "m"  # the tag's point


def test_m6_a_defence_beating_a_manoeuvre_by_four_gets_spin() -> None:
    """Success Levels: "-4 [...] defence gets spin" — against a manoeuvre too (Rulings)."""
    t = start(
        {"m": {"side": "s", "skills": {"Brawl": 1}}, "j": {"side": "b", "skills": {"Agility": 1}}}
    )
    t = go(t, "m", "manoeuvre", [1, 1, 6, 6], target="j", named="blind")
    assert data(t, "spin") == [{"character": "j", "against": "m"}]
    assert [(a.name, a.on, a.free_side) for a in t.state.aspects] == [("Over-Extended", "m", "b")]


def test_m7_a_charm_is_held_until_it_is_needed() -> None:
    """Magia: charms "hold that effect for a period until it is needed"."""
    t = Table.start(
        PROCEDURE,
        {
            "characters": {
                "k": {"aspects": ["Student of Yesod"], "skills": {"Occult Philosophy: Yesod": 1}}
            }
        },
    )
    after = go(t, "k", "ritual", [6, 6], sephira="Yesod", effect="ward", hours=2)
    assert [(c.sephira, c.effect, c.maker) for c in after.state.charms] == [("Yesod", "ward", "k")]
    assert PROCEDURE.state_json(after.state)["charms"][0]["strength"] == 5


# ---------------------------------------------------------------------------------- untested


def grenadier(**extra: Any) -> Table[SceneState]:
    chars = {
        "n": {"side": "s", "zone": "a", "skills": {"Agility": 1, "Firearms": 1}},
        "d": {"side": "x", "zone": "b", "skills": {"Agility": 1, "Resolve": 1}},
        **extra,
    }
    return start(chars, **LINE)


def test_u1_a_throw_that_matches_seven_arrives() -> None:
    """Grenades: "Agility roll vs difficulty 7": a Match arrives (Rulings)."""
    t = go(grenadier(), "n", "throw_grenade", [3, 3, 1, 1, 1, 1], zone="b")  # 3+3+1 = 7
    assert data(t, "grenade.thrown")[0]["outcome"] == "match"
    assert not data(t, "grenade.astray") and data(t, "grenade.attack")


def test_u2_an_excess_of_exactly_three_puts_on_target() -> None:
    """Grenades: "An excess of 3+, allows the thrower to apply an On Target" Aspect."""
    t = go(grenadier(), "n", "throw_grenade", [5, 4, 1, 1, 1, 1], zone="b", on_target="d")
    assert data(t, "grenade.thrown")[0]["margin"] == 3
    assert ("On Target", "d") in [(a.name, a.on) for a in t.state.aspects]
    short = go(grenadier(), "n", "throw_grenade", [4, 4, 1, 1, 1, 1], zone="b", on_target="d")
    assert "On Target" not in [a.name for a in short.state.aspects]


def test_u3_the_on_target_victim_may_not_defend_on_resolve() -> None:
    """Grenades: defend on Agility "or perhaps Resolve (for stiff upper lip defences against
    Composure attacks)" — On Target is Health stress."""
    with pytest.raises(RuleError, match="defends on Agility"):
        go(
            grenadier(),
            "n",
            "throw_grenade",
            [5, 5, 4, 4, 1, 1],
            zone="b",
            on_target="d",
            defences={"d": "Resolve"},
        )
    others = go(
        grenadier(e={"side": "x", "zone": "b", "skills": {"Resolve": 1}}),
        "n",
        "throw_grenade",
        [5, 5, 4, 4, 4, 1, 1, 1, 1],
        zone="b",
        on_target="d",
        defences={"e": "Resolve"},
    )
    assert {(x["character"], x["skill"]) for x in data(others, "defence.rolled")} == {
        ("d", "Agility"),
        ("e", "Resolve"),
    }


def test_u4_a_block_lasts_until_the_blockers_next_turn() -> None:
    """Action: Block: "The Block lasts until the Blocker's next turn"."""
    t = start({"m": {"side": "s", "skills": {"Weapons": 1}}, "j": {"side": "b"}}, **LINE)
    t = go(t, "m", "block", [3, 3], doorway="b")
    assert t.state.get("m").block is not None
    t = go(t, "j", "full_defence")  # m's turn again: the Block lapses
    assert t.state.current == "m" and t.state.get("m").block is None


def test_u5_a_wealth_consequence_keeps_wealth_stress_at_the_session_end() -> None:
    """Stress Recovery: Wealth clears "at the end of a session in which the character takes no
    Wealth stress or consequences"."""
    chars = {
        "m": {"side": "s", "weapon": "sword", "skills": {"Weapons": 1}},
        "j": {"side": "b", "skills": {"Agility": 1}},
    }
    t = start(chars)
    t = go(t, "m", "attack", [4, 4, 3, 3], target="j", track="Wealth")  # 9 v 7: 2 + 2 = 4
    first = t.state.get("j").track("Wealth").marked
    assert first == (4,)
    t = go(t, "referee", "end_session")
    t = go(t, "referee", "initiative", [6, 6, 1, 1])
    # next session: a Wealth consequence soaks the whole hit (no Wealth stress marked)
    t = go(
        t,
        "m",
        "attack",
        [3, 3, 2, 1],  # 7 v 4: 3 + 2 = 5, all soaked by a heavy consequence (6)
        target="j",
        track="Wealth",
        consequences=[{"severity": "heavy", "aspect": "In Debt"}],
    )
    assert t.state.get("j").track("Wealth").marked == first
    t = go(t, "referee", "end_session")
    assert t.state.get("j").track("Wealth").marked == first  # a Wealth consequence this session
    assert go(t, "referee", "end_session").state.get("j").track("Wealth").marked == ()


def test_draw_is_a_supplemental_action_at_minus_one() -> None:
    """3. Actions: "draw and cock a pistol" is supplemental, −1 to the main action."""
    t = start({"m": {"side": "s", "skills": {"Firearms": 1}}, "j": {"side": "b"}})
    t = go(t, "m", "attack", [4, 4, 1, 1], target="j", draw="pistol")
    assert data(t, "weapon.drawn") == [{"character": "m", "weapon": "pistol"}]
    assert data(t, "attack.rolled")[0]["total"] == 8  # 4+4 + Firearms 1 − 1


def test_full_defence_lapses_at_the_defenders_next_turn() -> None:
    t = start({"m": {"side": "s"}, "j": {"side": "b"}})
    t = go(t, "m", "full_defence")
    assert t.state.get("m").full_defence
    t = go(t, "j", "full_defence")
    assert t.state.current == "m" and not t.state.get("m").full_defence


def test_a_fizzled_fuse_is_rolled_only_on_the_throwers_turn() -> None:
    t = go(grenadier(), "n", "throw_grenade", [4, 4, 1, 1], zone="b")  # natural 2: a Fizzle
    assert data(t, "grenade.fizzled")
    with pytest.raises(RuleError, match="Fizzle: the fuse is rolled on the thrower's next turn"):
        go(t, "n", "fuse", [3, 3])


def test_words_reach_the_next_zone_and_no_further() -> None:
    """Zones: talking without raising voices is the same zone; a raised voice the next (Rulings)."""
    chars = {
        "m": {"side": "s", "zone": "a", "skills": {"Intimidation": 1}},
        "j": {"side": "b", "zone": "b", "skills": {"Resolve": 1}},
    }
    t = go(start(chars, **LINE), "m", "attack", [3, 3, 1, 1], target="j", skill="Intimidation")
    assert data(t, "attack.rolled")[0]["defence_skill"] == "Resolve"
    far = start({**chars, "j": {**chars["j"], "zone": "c"}}, **LINE)
    with pytest.raises(RuleError, match="out of earshot"):
        go(far, "m", "attack", [3, 3, 1, 1], target="j", skill="Intimidation")


def test_a_grenade_in_the_next_turn_meets_a_fresh_defence() -> None:
    """Defence: "that result remains 'on the table' for any further uses of that particular
    defence in the Turn" — the Turn it was rolled in (RULINGS.md, Round 3): in the next
    character's Turn a grenade's blast is met by a fresh roll."""
    chars = {
        "m": {"side": "s", "zone": "b", "weapon": "sword", "skills": {"Weapons": 1}},
        "n": {"side": "s", "zone": "a", "skills": {"Agility": 1, "Firearms": 1}},
        "d": {"side": "x", "zone": "b", "skills": {"Agility": 1}},
    }
    t = start(chars, **LINE)
    t = go(t, "m", "attack", [3, 3, 5, 4], target="d")  # 7 against d's Agility 5+4+1 = 10
    assert t.state.get("d").standing("Agility") is None  # n's Turn has begun
    # n throws into b: 5+5+1 = 11; the attack 4+4+1 = 9; m dodges, d dodges afresh
    t = go(t, "n", "throw_grenade", [5, 5, 4, 4, 3, 3, 2, 2], zone="b")
    blast = {x["character"]: x for x in data(t, "defence.rolled")[1:]}
    assert blast["d"]["total"] == 5 and "roll" in blast["d"]


def test_m4_a_block_of_a_named_action_must_be_beaten_to_do_it() -> None:
    """Action: Block: "Say what action you want to prevent and roll an appropriate skill. The
    result is the Block's strength, and must be beaten in an appropriate skill roll by anyone
    wanting to succeed in the named action"."""
    t = start(
        {
            "m": {"side": "s", "skills": {"Strength": 1}},
            "j": {"side": "b", "skills": {"Agility": 1}},
        }
    )
    with pytest.raises(RuleError, match="Action: Block: say which skill blocks 'open the door'"):
        go(t, "m", "block", [3, 3], action="open the door")
    t = go(t, "m", "block", [3, 3], action="open the door", skill="Strength")  # 7
    assert data(t, "block.set")[0]["kind"] == "action"
    stopped = go(t, "j", "overcome", [3, 3], blocker="m", skill="Agility")  # 7: a Match
    assert not data(stopped, "block.overcome")
    passed = go(t, "j", "overcome", [4, 3], blocker="m", skill="Agility")  # 8 beats 7
    assert data(passed, "block.overcome") == [
        {"character": "j", "blocker": "m", "action": "open the door"}
    ]
    with pytest.raises(RuleError, match="j blocks no named action"):
        go(go(t, "j", "full_defence"), "m", "overcome", [4, 4], blocker="j", skill="Agility")
