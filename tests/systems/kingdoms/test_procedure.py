"""The chronicle at the table: sealed slips, prerequisites, the scene economy, the reveal, artha
after the roll, tie-breakers, consequences and downtime (KingdomsProcedure)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.core import Action, ActionError, RuleError, ScenarioError, Table, Viewer, view
from referee.dice import ScriptedSource
from referee.systems.kingdoms import PROCEDURE

Faces = list[int]


def leader(**skills: str) -> dict[str, Any]:
    return {
        "name": "L",
        "lifepaths": 10,
        "skills": skills,
        "stats": {"Will": "B4", "Health": "B4"},
        "circles": 3,
        "resources": 3,
    }


def setup(**over: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "territory": "the mountain",
        "strict_sheets": False,  # quick play: the rules under test need no 2iC or rivals
        "factions": {
            "elves": {
                "disposition": 10,
                "leader": {
                    **leader(Logistics="B4", Tactics="B5", Observation="B3"),
                    "name": "Aeluin",
                },
            },
            "orcs": {
                "disposition": 10,
                "leader": {
                    **leader(Tactics="B4", Strategy="B3", Inconspicuous="B4"),
                    "name": "Gorbash",
                },
            },
            "dwarves": {
                "disposition": 12,
                "leader": {**leader(Fortifications="B5", Law="B4"), "name": "Grannir"},
            },
        },
    }
    data.update(over)
    return data


def start(**over: Any) -> Table[Any]:
    return Table.start(PROCEDURE, setup(**over))


def act(
    table: Table[Any], actor: str, what: str, faces: Faces | None = None, /, **params: Any
) -> Table[Any]:
    return table.act(Action(actor, what, params), ScriptedSource(faces or []))


def sealed(table: Table[Any]) -> Table[Any]:
    """Every faction that acts and has no slip yet seals a Fortify (scenes come after the
    slips: "At the beginning of each Maneuver, players decide their faction's intent")."""
    for f in table.state.acting():
        if f not in table.state.slips:
            skill = next(iter(table.state.factions[f].leader.skills))
            table = act(table, f, "write_slip", maneuver="Fortify", skill=skill, substitute=True)
    return table


def all_pass(table: Table[Any]) -> Table[Any]:
    for f in table.state.standing():
        if f not in table.state.passed:
            table = act(table, f, "pass")
    return table


def fortify_all(table: Table[Any]) -> Table[Any]:
    """Elves Fortify, Orcs Infiltrate the Elves (and direct their conflict scene at them, as
    an offensive maneuver must), Dwarves Fortify."""
    table = act(table, "elves", "write_slip", maneuver="Fortify", skill="Logistics")
    table = act(
        table, "orcs", "write_slip", maneuver="Infiltrate", skill="Inconspicuous", target="elves"
    )
    table = act(table, "dwarves", "write_slip", maneuver="Fortify", skill="Fortifications")
    return act(table, "orcs", "scene", kind="conflict", target="elves")


# ---------------------------------------------------------------------------- sealed slips


@settings(max_examples=60, deadline=None)
@given(
    order=st.permutations(["elves", "orcs", "dwarves"]),
    viewer=st.sampled_from(["elves", "orcs", "dwarves", "public", "someone"]),
    rewrite=st.booleans(),
)
def test_a_slip_is_invisible_to_every_other_viewer_until_the_reveal(
    order: list[str], viewer: str, rewrite: bool
) -> None:
    """Pick your Maneuvers privately: before the reveal no viewer sees another faction's slip,
    in the log or in the visible state; at the reveal all see all."""
    slips = {
        "elves": {"maneuver": "Fortify", "skill": "Logistics"},
        "orcs": {"maneuver": "Infiltrate", "skill": "Inconspicuous", "target": "elves"},
        "dwarves": {"maneuver": "Harry", "skill": "Law", "defence": 2},
    }
    table = start()
    for f in order:
        table = act(table, f, "write_slip", **slips[f])
        if rewrite:
            table = act(table, f, "write_slip", **slips[f])
    for event in view(table.log, viewer):
        if event.kind == "slip.written":
            seen = event.data.get("slip")
            if event.payload["faction"] == viewer:
                assert seen is not None
            else:
                assert seen is None and "slip" in event.redacted
    text = repr([e.to_json() for e in view(table.log, viewer)])
    for f, slip in slips.items():
        if f != viewer:
            assert f"'maneuver': '{slip['maneuver']}'" not in text
    state = table.visible_state(Viewer(viewer))
    assert state is not None
    assert set(state["slips"]) <= {viewer}
    table = all_pass(table)
    table = act(table, order[0], "reveal", [4] * 30)
    revealed = [e for e in view(table.log, viewer) if e.kind == "slips.revealed"]
    assert set(revealed[0].data["slips"]) == set(slips)  # type: ignore[arg-type]


def test_a_player_sees_their_factions_slip() -> None:
    """A player sees what their faction sees (the scenario's players: mapping)."""
    table = act(
        start(), "orcs", "write_slip", maneuver="Infiltrate", skill="Inconspicuous", target="elves"
    )
    bob = Viewer("bob", frozenset({"orcs"}))
    assert view(table.log, bob)[-1].data["slip"]["maneuver"] == "Infiltrate"  # type: ignore[index]


def test_a_slip_may_be_changed_before_the_first_scene_only() -> None:
    """ "At the beginning of each Maneuver, players decide their faction's intent, declare it
    privately" (Maneuver; Multiple Opponents: "written on the initial maneuver slip at the
    beginning of the maneuver"): a faction may change its mind while slips are being written,
    but once the first scene is played every slip is fixed, and no scene is played before
    every faction that acts has sealed its slip (audit W1). Whether a slip was rewritten is
    the writer's secret."""
    table = act(start(), "elves", "write_slip", maneuver="Fortify", skill="Logistics")
    table = act(table, "elves", "write_slip", maneuver="Assess", skill="Logistics", target="orcs")
    assert table.state.slips["elves"].maneuver == "Assess"
    assert "rewritten" not in table.log.events[-1].payload
    with pytest.raises(RuleError, match="every faction seals its slip before the first scene"):
        act(table, "elves", "scene", kind="color")
    table = act(table, "orcs", "write_slip", maneuver="Fortify", skill="Tactics", substitute=True)
    table = act(table, "dwarves", "write_slip", maneuver="Fortify", skill="Fortifications")
    table = act(table, "elves", "scene", kind="color")
    with pytest.raises(RuleError, match="slips are fixed"):
        act(table, "orcs", "write_slip", maneuver="Harry", skill="Tactics", defence=2)
    assert table.state.slips["orcs"].maneuver == "Fortify"


# ---------------------------------------------------------------------------- prerequisites


@pytest.mark.parametrize("name", ["Assault", "Gambit", "Onslaught"])
def test_assess_before_assault_gambit_onslaught(name: str) -> None:
    """Assault, Gambit and Onslaught need a successful Assess of that target earlier."""
    with pytest.raises(RuleError, match="must first successfully Assess orcs"):
        act(start(), "elves", "write_slip", maneuver=name, skill="Tactics", target="orcs")
    assessed = setup()
    assessed["factions"]["elves"]["assessed"] = ["orcs"]
    table = Table.start(PROCEDURE, assessed)
    table = act(table, "elves", "write_slip", maneuver=name, skill="Tactics", target="orcs")
    assert table.state.slips["elves"].maneuver == name


def test_a_successful_assess_marks_its_target_assessed_beside_those_assessed_before() -> None:
    """Assess: a success marks the target Assessed, for the Assault, Gambit or Onslaught that
    needs it. The elves, who Assessed the dwarves earlier, Assess the orcs (Logistics B4, every
    die a 4, independent against a Fortify: Ob 2): once resolved, both are Assessed."""
    data = setup()
    data["factions"]["elves"]["assessed"] = ["dwarves"]
    table = act(
        Table.start(PROCEDURE, data),
        "elves",
        "write_slip",
        maneuver="Assess",
        skill="Logistics",
        target="orcs",
    )
    table = all_pass(sealed(table))
    table = act(table, "elves", "reveal", [4] * 40)
    assert table.state.factions["elves"].assessed == {"dwarves"}
    table = act(table, "elves", "resolve")
    assert table.state.factions["elves"].assessed == {"dwarves", "orcs"}
    assert table.state.factions["orcs"].assessed == set()


@pytest.mark.parametrize("name,skill", [("Sap", "Tactics"), ("Ploy", "Tactics")])
def test_infiltrate_before_sap_and_ploy(name: str, skill: str) -> None:
    """Ploy and Sap need a successful Infiltrate first."""
    targets = ["elves", "dwarves"] if name == "Ploy" else ["elves"]
    with pytest.raises(RuleError, match="must first successfully Infiltrate"):
        act(start(), "orcs", "write_slip", maneuver=name, skill=skill, targets=targets)
    ok = setup()
    ok["factions"]["orcs"]["infiltrated"] = {"elves": 0}
    table = act(
        Table.start(PROCEDURE, ok),
        "orcs",
        "write_slip",
        maneuver=name,
        skill=skill,
        targets=targets,
    )
    assert table.state.slips["orcs"].targets == tuple(targets)


def test_skill_must_be_on_the_list_unless_substituted() -> None:
    """The skill must be on the maneuver's list; racial skills and spell songs by choice."""
    with pytest.raises(RuleError, match="'Law' is not one of Fortify's skills"):
        act(start(), "dwarves", "write_slip", maneuver="Fortify", skill="Law")
    table = act(start(), "dwarves", "write_slip", maneuver="Fortify", skill="Law", substitute=True)
    assert table.state.slips["dwarves"].substitute


def test_forks_only_from_the_maneuvers_list() -> None:
    """FoRKs only from other skills in the maneuver's list."""
    with pytest.raises(RuleError, match="FoRKs come only"):
        act(
            start(),
            "orcs",
            "write_slip",
            maneuver="Infiltrate",
            skill="Inconspicuous",
            target="elves",
            forks=["Tactics"],
        )


def test_targets_counted() -> None:
    """The slip names its target (two for Ploy, none for Fortify)."""
    with pytest.raises(RuleError, match="names 1 target"):
        act(start(), "elves", "write_slip", maneuver="Assess", skill="Logistics")
    with pytest.raises(RuleError, match="not an opposing faction"):
        act(start(), "elves", "write_slip", maneuver="Assess", skill="Logistics", target="elves")


def test_harry_split_at_least_two_each() -> None:
    """Harry: divide the dice with at least 2 in each pool."""
    with pytest.raises(RuleError, match="at least 2 in each pool"):
        act(start(), "dwarves", "write_slip", maneuver="Harry", skill="Law", defence=3)
    table = act(start(), "dwarves", "write_slip", maneuver="Harry", skill="Law", defence=2)
    assert table.state.slips["dwarves"].defence == 2


def test_cannot_act_scripts_nothing() -> None:
    """A faction that cannot act scripts no maneuver."""
    data = setup()
    data["factions"]["orcs"]["cannot_act"] = True
    with pytest.raises(RuleError, match="cannot act this maneuver"):
        act(
            Table.start(PROCEDURE, data),
            "orcs",
            "write_slip",
            maneuver="Fortify",
            skill="Tactics",
            substitute=True,
        )


def test_gambit_and_ploy_need_disposition_to_sacrifice() -> None:
    """Gambit and Ploy sacrifice 3 disposition: a faction with 3 or less cannot pay it."""
    data = setup()
    data["factions"]["elves"].update({"assessed": ["orcs"], "disposition": 3})
    with pytest.raises(RuleError, match="cannot sacrifice 3"):
        act(
            Table.start(PROCEDURE, data),
            "elves",
            "write_slip",
            maneuver="Gambit",
            skill="Tactics",
            target="orcs",
        )


# ---------------------------------------------------------------------------- scenes


def test_scene_economy_limits() -> None:
    """One color, one interstitial, three building scenes per faction per maneuver."""
    table = act(sealed(start()), "elves", "scene", kind="color")
    with pytest.raises(RuleError, match="spent their 1 color scene"):
        act(table, "elves", "scene", kind="color")
    for _ in range(3):
        table = act(table, "elves", "scene", [4, 4, 4, 4], kind="building", skill="Logistics", ob=2)
    with pytest.raises(RuleError, match="spent their 3 building scenes"):
        act(table, "elves", "scene", [4] * 4, kind="building", skill="Logistics", ob=2)


def test_color_scenes_roll_nothing() -> None:
    """No rolls may be made during color and interstitial scenes."""
    with pytest.raises(RuleError, match="no rolls"):
        act(sealed(start()), "elves", "scene", kind="color", skill="Logistics", ob=2)


def test_building_scene_rolls_once_with_odds() -> None:
    """A building scene: the dice hit the table once, with the odds shown."""
    table = act(
        sealed(start()), "elves", "scene", [4, 1, 5, 1], kind="building", skill="Logistics", ob=2
    )
    event = table.log.events[-1]
    assert event.payload["successes"] == 2 and event.payload["passed"] is True
    assert event.payload["odds"] == "11/16"


def test_conflict_scenes_follow_the_slip() -> None:
    """No conflict with Assess, Conserve, Fortify; otherwise it is directed at the target."""
    table = sealed(act(start(), "elves", "write_slip", maneuver="Fortify", skill="Logistics"))
    with pytest.raises(RuleError, match="cannot be used with Fortify"):
        act(table, "elves", "scene", kind="conflict", target="orcs")
    table = act(
        start(), "orcs", "write_slip", maneuver="Infiltrate", skill="Inconspicuous", target="elves"
    )
    table = sealed(table)
    with pytest.raises(RuleError, match="directed at the faction its maneuver targets"):
        act(table, "orcs", "scene", kind="conflict", target="dwarves")
    table = act(
        table,
        "orcs",
        "scene",
        kind="conflict",
        target="elves",
        outcome="a brawl",
        helpers=["dwarves"],
    )
    assert table.state.scenes[-1].helpers == ("dwarves",)
    with pytest.raises(RuleError, match="seals its slip before the first scene"):
        act(start(), "orcs", "scene", kind="conflict", target="elves")


def test_harry_retaliates_only_against_a_conflict_aimed_at_it() -> None:
    """Harry's retaliatory conflict goes against an enemy that targeted it with a conflict."""
    data = setup()
    data["factions"]["orcs"]["assessed"] = ["dwarves"]
    table = Table.start(PROCEDURE, data)
    table = act(table, "dwarves", "write_slip", maneuver="Harry", skill="Law", defence=2)
    table = act(table, "orcs", "write_slip", maneuver="Assault", skill="Tactics", target="dwarves")
    table = sealed(table)
    with pytest.raises(RuleError, match="retaliatory"):
        act(table, "dwarves", "scene", kind="conflict", target="orcs")
    table = act(table, "orcs", "scene", kind="conflict", target="dwarves")
    table = act(table, "dwarves", "scene", kind="conflict", target="orcs")
    assert len(table.state.scenes) == 2


def test_maneuver_ends_when_every_faction_has_spent_or_passed() -> None:
    """The reveal waits for every faction's scenes, and every acting faction's slip."""
    table = fortify_all(start())
    with pytest.raises(RuleError, match="waiting for"):
        act(table, "elves", "reveal")
    table = all_pass(act(start(), "elves", "write_slip", maneuver="Fortify", skill="Logistics"))
    with pytest.raises(RuleError, match="no slip yet from the Orcs, the Dwarves"):
        act(table, "elves", "reveal")


def test_spending_every_scene_passes() -> None:
    """A faction that has spent all its scenes has passed."""
    data = setup()
    data["factions"]["elves"]["assessed"] = ["orcs"]
    table = Table.start(PROCEDURE, data)
    table = sealed(
        act(table, "elves", "write_slip", maneuver="Assault", skill="Tactics", target="orcs")
    )
    table = act(table, "elves", "scene", kind="color")
    table = act(table, "elves", "scene", kind="interstitial", **{"with": "orcs"})
    for _ in range(3):
        table = act(table, "elves", "scene", [4] * 5, kind="building", skill="Tactics", ob=1)
    assert "elves" not in table.state.passed
    table = act(table, "elves", "scene", kind="conflict", target="orcs")
    assert "elves" in table.state.passed


# ---------------------------------------------------------------------------- the reveal


def _reveal(table: Table[Any], reader: str, faces: Faces) -> Table[Any]:
    return act(all_pass(table), reader, "reveal", faces)


def orcs_wiped_out_by_the_elves(data: dict[str, Any]) -> Table[Any]:
    """The table at the orcs' consequences: the elves, who have assessed the orcs, Assault them
    (disposition 2) and wipe them out, while the orcs Assess the dwarves by a substitute and
    the dwarves Fortify."""
    data["factions"]["elves"]["assessed"] = ["orcs"]
    data["factions"]["orcs"]["disposition"] = 2
    table = Table.start(PROCEDURE, data)
    table = act(table, "elves", "write_slip", maneuver="Assault", skill="Tactics", target="orcs")
    table = act(
        table,
        "orcs",
        "write_slip",
        maneuver="Assess",
        skill="Inconspicuous",
        target="dwarves",
        substitute=True,
    )
    table = act(table, "dwarves", "write_slip", maneuver="Fortify", skill="Fortifications")
    table = act(table, "elves", "scene", kind="conflict", target="orcs")
    table = act(_reveal(table, "elves", [4] * 14), "elves", "resolve")
    return table


def test_reveal_rolls_in_seat_order_from_the_reader() -> None:
    """Tests are rolled at once, in seat order starting from the player who read."""
    table = _reveal(fortify_all(start()), "orcs", [4] * 4 + [1] * 5 + [5] * 4)
    rolled = [e.payload["faction"] for e in table.log if e.kind == "test.rolled"]
    assert rolled == ["orcs", "dwarves", "elves"]
    assert table.state.rolls["orcs"].successes == 4
    assert table.state.rolls["dwarves"].successes == 0
    assert table.state.order == ("orcs", "dwarves", "elves")


def test_reveal_shows_odds_of_each_engagement() -> None:
    """The reveal shows each engagement's chance before the dice: here Infiltrate (4D) versus
    Fortify (4D): (1 - P(tie)) / 2 = (1 - 70/256) / 2."""
    table = _reveal(fortify_all(start()), "elves", [4] * 13)
    odds = next(e for e in table.log if e.kind == "slips.revealed").payload["odds"]
    assert odds[0] == {
        "needed": None,
        "attacker": "orcs",
        "target": "elves",
        "kind": "versus",
        "cell": "V",
        "dice": 4,
        "against_dice": 4,
        "chance": {"no artha": "93/256"},
    }
    # the Dwarves Fortify unopposed: Ob 2, and 3 successes of 5 black dice to gain disposition
    assert odds[1]["attacker"] == "dwarves" and odds[1]["chance"] == {"no artha": "1/2"}


def test_required_conflict_missing_voids_the_maneuver() -> None:
    """Assault requires a conflict scene at its target: without one the maneuver is void."""
    data = setup()
    data["factions"]["elves"]["assessed"] = ["orcs"]
    table = Table.start(PROCEDURE, data)
    table = act(table, "elves", "write_slip", maneuver="Assault", skill="Tactics", target="orcs")
    table = act(
        table, "orcs", "write_slip", maneuver="Infiltrate", skill="Inconspicuous", target="elves"
    )
    table = act(table, "dwarves", "write_slip", maneuver="Fortify", skill="Fortifications")
    table = _reveal(table, "elves", [4] * 9)
    assert "elves" in table.state.void and "elves" not in table.state.rolls


def test_being_attacked_first_fulfils_the_conflict() -> None:
    """Optional rule: if the target directed a conflict at you, your requirement is met."""
    data = setup()
    data["factions"]["elves"]["assessed"] = ["orcs"]
    data["factions"]["orcs"]["infiltrated"] = {"elves": 0}
    table = Table.start(PROCEDURE, data)
    table = act(table, "elves", "write_slip", maneuver="Assault", skill="Tactics", target="orcs")
    table = act(table, "orcs", "write_slip", maneuver="Sap", skill="Tactics", target="elves")
    table = act(table, "dwarves", "write_slip", maneuver="Fortify", skill="Fortifications")
    table = act(table, "orcs", "scene", kind="conflict", target="elves")
    table = _reveal(table, "elves", [4] * 14)
    assert table.state.void == {}
    off = Table.start(PROCEDURE, {**data, "attacked_first_fulfils": False})
    for entry in [e for e in table.log if e.kind in ("slip.written", "scene.played")]:
        off = off.act(
            Action(
                str(entry.data["faction"]),
                "write_slip" if entry.kind == "slip.written" else "scene",
                _params(entry.data),
            ),
            None,
        )
    off = _reveal(off, "elves", [4] * 14)
    assert "elves" in off.state.void


def _params(data: Any) -> dict[str, Any]:
    if "slip" in data:
        slip = dict(data["slip"])
        return {"maneuver": slip["maneuver"], "skill": slip["skill"], "targets": slip["targets"]}
    return {"kind": data["kind"], "target": data.get("target")}


def test_second_in_command_substitutes_with_two_thirds_of_building_rolls() -> None:
    """The 2iC rolls in the leader's place only with a skill the leader lacks, and only after
    making two thirds of the building rolls (or initiating the conflict scene)."""
    data = setup()
    data["factions"]["dwarves"]["second"] = {
        "name": "Dorin",
        "lifepaths": 8,
        "skills": {"Soldiering": "B4", "Fortifications": "B4"},
    }
    table = Table.start(PROCEDURE, data)
    with pytest.raises(RuleError, match="skill the leader lacks"):
        act(
            table,
            "dwarves",
            "write_slip",
            maneuver="Fortify",
            skill="Fortifications",
            roller="second",
        )
    table = act(
        table, "dwarves", "write_slip", maneuver="Fortify", skill="Soldiering", roller="second"
    )
    table = act(table, "elves", "write_slip", maneuver="Fortify", skill="Logistics")
    table = act(
        table, "orcs", "write_slip", maneuver="Infiltrate", skill="Inconspicuous", target="elves"
    )
    table = act(
        table, "dwarves", "scene", [4] * 4, kind="building", by="second", skill="Soldiering", ob=1
    )
    table = act(table, "dwarves", "scene", [4] * 5, kind="building", skill="Law", ob=1)
    voided = _reveal(table, "elves", [4] * 12)
    assert "dwarves" in voided.state.void
    table = act(
        table, "dwarves", "scene", [4] * 4, kind="building", by="second", skill="Soldiering", ob=1
    )
    table = _reveal(table, "elves", [4] * 12)
    assert table.state.rolls["dwarves"].roller == "second"


def test_help_between_factions_needs_help_lent_in_a_scene() -> None:
    """Helping dice between factions only if their leaders lent each other help in a scene."""
    table = act(start(), "elves", "write_slip", maneuver="Fortify", skill="Logistics")
    table = act(
        table, "orcs", "write_slip", maneuver="Infiltrate", skill="Inconspicuous", target="dwarves"
    )
    table = act(
        table, "dwarves", "write_slip", maneuver="Fortify", skill="Fortifications", helps="elves"
    )
    refused = _reveal(table, "elves", [4] * 20)
    revealed = next(e for e in refused.log if e.kind == "slips.revealed")
    assert "dwarves" in revealed.payload["help_refused"]  # type: ignore[operator]
    before_scenes = table
    table = act(
        table,
        "elves",
        "scene",
        [4] * 4,
        kind="building",
        skill="Logistics",
        ob=1,
        helpers=["dwarves"],
    )
    helped = _reveal(table, "elves", [4] * 20)
    revealed = next(e for e in helped.log if e.kind == "slips.revealed")
    assert revealed.payload["help"] == {}  # Grannir has no Logistics
    table = act(
        before_scenes,
        "dwarves",
        "write_slip",
        maneuver="Fortify",
        skill="Fortifications",
        helps="orcs",
    )
    table = act(
        table, "orcs", "scene", [4] * 4, kind="building", skill="Tactics", ob=1, helpers=["dwarves"]
    )
    table = act(table, "orcs", "scene", kind="conflict", target="dwarves")
    data = setup()
    data["factions"]["dwarves"]["leader"]["skills"]["Inconspicuous"] = "B5"
    table2 = Table.replay(PROCEDURE, data, table.log)
    helped = _reveal(table2, "elves", [4] * 20)
    revealed = next(e for e in helped.log if e.kind == "slips.revealed")
    assert revealed.payload["help"] == {"orcs": {"dwarves": 2}}
    assert (
        next(
            e for e in helped.log if e.kind == "test.rolled" and e.payload["faction"] == "orcs"
        ).payload["dice"]
        == 6
    )


def test_persona_and_deeds_before_spent_at_the_reveal() -> None:
    """Persona (+1D each) and Deeds (double the exponent) are spent from the roller's artha."""
    data = setup()
    data["factions"]["elves"]["leader"]["artha"] = {"fate": 1, "persona": 2, "deeds": 1}
    table = Table.start(PROCEDURE, data)
    with pytest.raises(RuleError, match="has 2 persona, cannot spend 3"):
        act(table, "elves", "write_slip", maneuver="Fortify", skill="Logistics", persona=3)
    table = act(
        table,
        "elves",
        "write_slip",
        maneuver="Fortify",
        skill="Logistics",
        persona=2,
        deeds_before=True,
    )
    table = act(
        table, "orcs", "write_slip", maneuver="Infiltrate", skill="Inconspicuous", target="dwarves"
    )
    table = act(table, "dwarves", "write_slip", maneuver="Fortify", skill="Fortifications")
    table = _reveal(table, "elves", [4] * 19)
    assert next(e for e in table.log if e.kind == "test.rolled").payload["dice"] == 10
    assert dict(table.state.factions["elves"].leader.artha) == {"fate": 1, "persona": 0, "deeds": 0}


def test_fate_after_the_roll_then_resolve() -> None:
    """Fate after the roll: 6s open-ended; the reader resolves once every roll is settled."""
    data = setup()
    data["factions"]["elves"]["leader"]["artha"] = {"fate": 1, "persona": 0, "deeds": 0}
    table = fortify_all(Table.start(PROCEDURE, data))
    table = _reveal(table, "elves", [6, 1, 1, 1] + [4] * 9)
    assert table.state.phase == "rolled"
    with pytest.raises(RuleError, match="waiting for the Elves"):
        act(table, "elves", "resolve")
    with pytest.raises(RuleError, match="has 0 deeds"):
        act(table, "elves", "spend_artha", deeds=True)
    table = act(table, "elves", "spend_artha", [6, 5], fate=True)
    assert table.state.rolls["elves"].successes == 3
    assert table.state.factions["elves"].leader.artha["fate"] == 0
    table = act(table, "elves", "resolve")
    assert table.state.phase in ("downtime", "consequences")


def perceptive(data: dict[str, Any]) -> dict[str, Any]:
    """``data`` with the elves' leader given Perception B4: the root of their Logistics, which
    a tie-breaker tests ("testing the root stats for the skills used")."""
    data["factions"]["elves"]["leader"]["stats"]["Perception"] = "B4"
    return data


def test_tie_breaker_on_root_stats_when_both_agree() -> None:
    """A tied versus test: if both agree, root stats are tested — each side a root of the
    skill it used (the elves' Logistics: Perception; the orcs' Inconspicuous: Will); extra
    successes count."""
    table = fortify_all(Table.start(PROCEDURE, perceptive(setup())))
    table = _reveal(table, "elves", [4, 4, 1, 1] + [4, 4, 1, 1] + [1] * 5)
    with pytest.raises(RuleError, match="no tied versus test"):
        act(table, "elves", "tie_break", opponent="dwarves", root="Perception")
    table = act(table, "orcs", "tie_break", opponent="elves", root="Will")
    table = act(
        table, "elves", "tie_break", [4, 4, 1, 1, 4, 1, 1, 1], opponent="orcs", root="Perception"
    )
    assert table.state.rolls["elves"].successes == 4
    assert table.state.rolls["orcs"].successes == 3
    table = act(table, "elves", "resolve")
    assert not [
        e for e in table.log if e.kind == "effect.applied" and e.payload["kind"] == "infiltrated"
    ]


def test_sapped_below_the_exponent_still_rolls_the_rest() -> None:
    """Sapped dice come off the next maneuver's pool; at or above the exponent, no roll."""
    data = setup()
    data["factions"]["dwarves"]["sapped"] = 2
    table = _reveal(fortify_all(Table.start(PROCEDURE, data)), "elves", [4] * 11)
    rolled = next(
        e for e in table.log if e.kind == "test.rolled" and e.payload["faction"] == "dwarves"
    )
    assert rolled.payload["dice"] == 3


def test_replay_gives_the_same_state_and_undo_works() -> None:
    """The state is a fold of the log: replay gives it back; undo replays without the last."""
    table = _reveal(fortify_all(start()), "elves", [4] * 13)
    table = act(table, "elves", "resolve")
    again = Table.replay(PROCEDURE, table.setup, table.log)
    assert PROCEDURE.state_json(again.state) == PROCEDURE.state_json(table.state)
    assert table.undo(1).state.phase == "rolled"  # the resolve taken back
    assert table.undo(2).state.phase == "maneuver"  # and the reveal


# ---------------------------------------------------------------------------- consequences


def test_join_the_conqueror_keeps_everything() -> None:
    """A defeated leader who joins the conqueror loses nothing."""
    data = setup()
    data["factions"]["orcs"]["leader"]["affiliations"] = {"Clan": 2}
    table = orcs_wiped_out_by_the_elves(data)
    assert table.state.phase == "consequences"
    with pytest.raises(RuleError, match="not a faction still in contention"):
        act(table, "orcs", "join", faction="orcs")
    table = act(table, "orcs", "join", faction="elves")
    assert table.state.factions["orcs"].leader.resources == 3
    with pytest.raises(RuleError, match="no defeated foe"):
        act(table, "elves", "buy_affiliation")


def test_tied_conquest_decided_by_the_defeated() -> None:
    """Two attackers with equal successes: the defeated player decides the conqueror."""
    data = setup()
    for f in ("elves", "dwarves"):
        data["factions"][f]["assessed"] = ["orcs"]
    data["factions"]["dwarves"]["leader"]["skills"]["Tactics"] = "B4"
    data["factions"]["elves"]["leader"]["skills"]["Tactics"] = "B4"
    data["factions"]["orcs"]["disposition"] = 6
    table = Table.start(PROCEDURE, data)
    for f in ("elves", "dwarves"):
        table = act(table, f, "write_slip", maneuver="Assault", skill="Tactics", target="orcs")
    table = act(
        table, "orcs", "write_slip", maneuver="Infiltrate", skill="Inconspicuous", target="elves"
    )
    for f in ("elves", "dwarves"):
        table = act(table, f, "scene", kind="conflict", target="orcs")
    table = act(_reveal(table, "elves", [4] * 4 + [1] * 4 + [4] * 4), "elves", "resolve")
    assert table.state.pending_conquest == {"orcs": ("elves", "dwarves")}
    with pytest.raises(RuleError, match="first choose"):
        act(table, "orcs", "join", faction="elves")
    table = act(table, "orcs", "choose_conqueror", conqueror="dwarves")
    table = act(table, "orcs", "join", faction="dwarves")
    assert table.state.factions["orcs"].conqueror == "dwarves"
    assert table.state.phase == "downtime"  # the Elves and the Dwarves still stand


# ---------------------------------------------------------------------------- downtime


def test_downtime_heals_and_maintenance_taxes() -> None:
    """Downtime: Fortify successes buy 3-month cycles; the others owe maintenance tests first;
    earning downtime heals wounds fully."""
    data = setup()
    data["factions"]["dwarves"]["leader"]["wound_dice"] = 1
    table = Table.start(PROCEDURE, data)
    table = act(table, "elves", "write_slip", maneuver="Fortify", skill="Logistics")
    table = act(
        table, "orcs", "write_slip", maneuver="Infiltrate", skill="Inconspicuous", target="elves"
    )
    table = act(
        table, "dwarves", "write_slip", maneuver="Fortify", skill="Fortifications", downtime=1
    )
    table = act(table, "orcs", "scene", kind="conflict", target="elves")
    # elves 0, orcs 0, dwarves (B5 -1D wound) 4 successes: margin 2 against Ob 2
    table = _reveal(table, "elves", [1] * 8 + [4] * 4)
    table = act(table, "elves", "resolve")
    dwarves = table.state.factions["dwarves"]
    assert dwarves.earned_downtime and dwarves.downtime_months == 3
    assert table.state.factions["elves"].maintenance == (0,)
    with pytest.raises(RuleError, match="maintenance tests owed by the Elves, the Orcs"):
        act(table, "dwarves", "next_maneuver")
    table = act(table, "elves", "maintenance", [1, 1, 1])
    assert table.state.factions["elves"].leader.resources == 2  # failed a Routine test: -1
    table = act(table, "orcs", "maintenance", [4, 1, 1])
    assert table.state.factions["orcs"].leader.resources == 3
    table = act(table, "orcs", "next_maneuver")
    assert table.state.maneuver == 2
    assert table.state.factions["dwarves"].leader.wound_dice == 0


def test_wound_recovery_health_test_once_a_maneuver() -> None:
    """Each maneuver a successful Health test recovers 1D of wound penalties."""
    data = setup()
    data["factions"]["elves"]["leader"]["wound_dice"] = 2
    table = act(
        Table.start(PROCEDURE, data), "elves", "health_test", [4, 4, 4, 1], character="leader"
    )
    assert table.state.factions["elves"].leader.wound_dice == 1
    event = table.log.events[-1]
    assert event.payload["ob"] == 3  # a Midi wound's Health Ob
    with pytest.raises(RuleError, match="has made a Health test this maneuver"):
        act(table, "elves", "health_test", [4] * 4, character="leader")
    with pytest.raises(RuleError, match="no wound"):
        act(table, "orcs", "health_test", [4] * 4, character="leader")


def test_wounds_from_a_conflict_cost_dice() -> None:
    """Wounds reported from a conflict scene cost dice on the maneuver test."""
    data = setup()
    data["factions"]["elves"]["assessed"] = ["orcs"]
    table = Table.start(PROCEDURE, data)
    table = act(table, "elves", "write_slip", maneuver="Assault", skill="Tactics", target="orcs")
    table = act(
        table, "orcs", "write_slip", maneuver="Infiltrate", skill="Inconspicuous", target="elves"
    )
    table = act(
        sealed(table),
        "elves",
        "scene",
        kind="conflict",
        target="orcs",
        wounds={"elves": "midi", "orcs": "superficial"},
    )
    assert table.state.factions["elves"].leader.wound_dice == 2
    assert table.state.factions["orcs"].leader.superficial
    with pytest.raises(ActionError, match=r"scene\.wounds\.elves: Input should be 'superficial'"):
        act(table, "orcs", "scene", kind="conflict", target="elves", wounds={"elves": "grazed"})


def test_bad_setup_names_the_field() -> None:
    """A bad set-up is a ScenarioError naming the faction."""
    with pytest.raises(ScenarioError, match=r"factions\.elves"):
        Table.start(PROCEDURE, {"factions": {"elves": {"disposition": 3}}})
    bad = setup()
    bad["factions"]["elves"]["leader"]["lifepaths"] = 11
    with pytest.raises(ScenarioError, match="5 to 10"):
        Table.start(PROCEDURE, bad)


def test_two_player_factions_split_building_and_conflict() -> None:
    """Six or more players: one player of a faction makes the building rolls, the other runs the
    conflict scene."""
    data = setup(players=6)
    data["factions"]["elves"]["players"] = ["ann", "amy"]
    data["factions"]["elves"]["assessed"] = ["orcs"]
    table = Table.start(PROCEDURE, data)
    table = act(table, "elves", "write_slip", maneuver="Assault", skill="Tactics", target="orcs")
    table = sealed(table)
    with pytest.raises(RuleError, match="say which of ann, amy"):
        act(table, "elves", "scene", [4] * 5, kind="building", skill="Tactics", ob=1)
    table = act(
        table, "elves", "scene", [4] * 5, kind="building", skill="Tactics", ob=1, player="ann"
    )
    with pytest.raises(RuleError, match="the other player plays its conflict scene"):
        act(table, "elves", "scene", kind="conflict", target="orcs", player="ann")
    table = act(table, "elves", "scene", kind="conflict", target="orcs", player="amy")
    assert [s.player for s in table.state.scenes] == ["ann", "amy"]


def test_sessions_are_recorded() -> None:
    """A chronicle takes many sessions: the record keeps the session number."""
    table = act(start(), "elves", "new_session")
    assert table.state.session == 2


def test_infiltrate_advantage_is_used_once_against_that_opponent() -> None:
    """Infiltrate's margin is an advantage (dice) on the next maneuver against that opponent,
    used up when used."""
    data = setup()
    data["factions"]["orcs"]["infiltrated"] = {"elves": 2}
    table = Table.start(PROCEDURE, data)
    table = act(table, "orcs", "write_slip", maneuver="Sap", skill="Tactics", target="elves")
    table = act(table, "elves", "write_slip", maneuver="Fortify", skill="Logistics")
    table = act(table, "dwarves", "write_slip", maneuver="Fortify", skill="Fortifications")
    table = act(table, "orcs", "scene", kind="conflict", target="elves")
    table = _reveal(table, "elves", [1] * 15)
    rolled = next(
        e for e in table.log if e.kind == "test.rolled" and e.payload["faction"] == "orcs"
    )
    assert rolled.payload["dice"] == 6
    assert table.state.factions["orcs"].infiltrated == {"elves": 0}


def test_a_faction_that_cannot_act_plays_scenes_but_directs_no_conflict() -> None:
    """Ruling: a hesitating faction may play color, interstitial and building scenes, but directs
    no conflict of its own."""
    data = setup()
    data["factions"]["orcs"]["cannot_act"] = True
    table = sealed(Table.start(PROCEDURE, data))
    assert "orcs" not in table.state.slips
    table = act(table, "orcs", "scene", kind="color")
    table = act(table, "orcs", "scene", [4] * 4, kind="building", skill="Tactics", ob=1)
    with pytest.raises(RuleError, match="direct none"):
        act(table, "orcs", "scene", kind="conflict", target="elves")


def test_a_wound_taken_this_maneuver_heals_from_the_next() -> None:
    """Wound Recovery: a character wounded in a conflict acts at the penalty until the next
    maneuver; the Health test comes then."""
    data = setup()
    data["factions"]["elves"]["assessed"] = ["orcs"]
    table = Table.start(PROCEDURE, data)
    table = act(table, "elves", "write_slip", maneuver="Assault", skill="Tactics", target="orcs")
    table = sealed(table)
    table = act(table, "elves", "scene", kind="conflict", target="orcs", wounds={"elves": "midi"})
    with pytest.raises(RuleError, match="wounded this maneuver"):
        act(table, "elves", "health_test", [4] * 4, character="leader")


def test_a_joined_leader_plays_in_the_new_factions_scenes() -> None:
    """Consequences: the defeated leader shares the scene economy of the faction joined."""
    data = setup()
    table = orcs_wiped_out_by_the_elves(data)
    table = act(table, "orcs", "join", faction="dwarves")
    table = sealed(act(table, "dwarves", "next_maneuver"))
    table = act(
        table, "dwarves", "scene", [4] * 4, kind="building", by="orcs", skill="Tactics", ob=2
    )
    assert table.state.scenes[-1].successes == 4
    assert table.log.events[-1].payload["character"] == "Gorbash"
    with pytest.raises(RuleError, match="are out of contention"):
        act(table, "orcs", "scene", kind="color")


@pytest.mark.parametrize(
    "what,params,path",
    [
        ("write_slip", {"maneuver": "Fortify", "skill": "Logistics", "forks": 5}, "forks"),
        ("write_slip", {"maneuver": "Fortify", "skill": "Logistics", "persona": "lots"}, "persona"),
        ("write_slip", {"maneuver": "Fortify", "skils": "Logistics"}, "skils"),
        ("write_slip", {"maneuver": "Fortify", "skill": "Logistics", "modifer": -4}, "modifer"),
        ("write_slip", {"maneuver": "Charge", "skill": "Logistics"}, "maneuver"),
        ("write_slip", {"skill": "Logistics"}, "maneuver"),
        ("write_slip", {"maneuver": "Fortify", "skill": "Logistics", "targets": "orcs"}, "targets"),
        ("write_slip", {"maneuver": "Fortify", "skill": "Logistics", "roller": "third"}, "roller"),
        (
            "write_slip",
            {"maneuver": "Assess", "skill": "Logistics", "target": "orcs", "targets": ["orcs"]},
            "",
        ),
        ("write_slip", {"maneuver": "Fortify", "skill": "Logistics", "deeds_before": "no"}, ""),
        ("scene", {"kind": "building", "skill": "Logistics", "ob": "hard"}, "ob"),
        ("scene", {"kind": "conflict", "wounds": [1]}, "wounds"),
        ("scene", {"kind": "battle"}, "kind"),
        ("scene", {"kind": "interstitial", "partner": "orcs"}, "partner"),
        ("spend_artha", {"fate": 1}, "fate"),
        ("spend_artha", {"fate": True, "pool": "offence"}, "pool"),
        ("pass", {"now": True}, "now"),
        ("health_test", {"character": "third"}, "character"),
        ("nonsense", {}, ""),
    ],
)
def test_malformed_actions_are_action_errors(what: str, params: dict[str, Any], path: str) -> None:
    """Parameters of the wrong shape, misspelt or missing are an ActionError naming the
    parameter's path, before any rule is consulted; an unknown faction is a RuleError."""
    with pytest.raises(ActionError, match=rf"^{what}{'.' + path if path else ''}"):
        act(start(), "elves", what, [4] * 6, **params)
    with pytest.raises(RuleError, match="not a faction"):
        act(start(), "goblins", "pass")


def test_strict_sheets_require_second_and_rivals() -> None:
    """strict_sheets (on unless false): every leader has a 2iC and two rivals, NPCs of
    opposing factions."""
    with pytest.raises(ScenarioError, match="need a Second in Command"):
        Table.start(PROCEDURE, setup(strict_sheets=True))
    data = setup(strict_sheets=True)
    for fid, f in data["factions"].items():
        f["second"] = {"name": f"{fid} 2iC", "lifepaths": 8}
        others = [o for o in data["factions"] if o != fid]
        f["leader"]["relationships"] = [{"name": f"{o} 2iC", "faction": o} for o in others[:2]]
    assert Table.start(PROCEDURE, data).state.phase == "maneuver"
    data["factions"]["elves"]["leader"]["relationships"][0]["name"] = "Gorbash"
    with pytest.raises(ScenarioError, match="player character"):
        Table.start(PROCEDURE, data)


@pytest.mark.parametrize(
    "what,params,words",
    [
        (
            "write_slip",
            {"maneuver": "Fortify", "skill": "Logistics", "downtime": -5},
            "write_slip.downtime: Input should be greater than or equal to 0",
        ),
        ("write_slip", {"maneuver": "Fortify", "skill": "Logistics", "persona": -1}, "persona"),
        ("write_slip", {"maneuver": "Fortify", "skill": "Logistics", "persona": 4}, "persona"),
        ("scene", {"kind": "building", "skill": "Logistics", "ob": 0}, "scene.ob"),
        ("scene", {"kind": "building", "skill": "Logistics", "ob": -3}, "scene.ob"),
        (
            "scene",
            {"kind": "building", "skill": "Logistics", "ob": 2, "help_exponents": [-4]},
            "scene.help_exponents.0",
        ),
    ],
)
def test_out_of_range_numbers_are_refused(what: str, params: dict[str, Any], words: str) -> None:
    """Fortify/Conserve put 0 or more successes into downtime (3 months each, never negative);
    a building scene's obstacle is at least 1; a helper's exponent is at least 1; at most 3
    Persona on one test. Each is an ActionError naming the parameter."""
    with pytest.raises(ActionError, match=words):
        act(start(), "elves", what, [4] * 6, **params)


def test_reveal_odds_count_a_superficial_wound() -> None:
    """The odds shown before the roll use the obstacle the rule applies: a Superficial wound
    makes the Elves' independent Assess Ob 3 and the Dwarves' unopposed Fortify Ob 3."""
    data = setup()
    data["factions"]["elves"]["leader"]["superficial"] = True
    data["factions"]["dwarves"]["leader"]["superficial"] = True
    table = Table.start(PROCEDURE, data)
    table = act(
        table, "elves", "write_slip", maneuver="Assess", skill="Logistics", target="dwarves"
    )
    table = act(table, "orcs", "write_slip", maneuver="Fortify", skill="Tactics", substitute=True)
    table = act(table, "dwarves", "write_slip", maneuver="Fortify", skill="Fortifications")
    table = _reveal(table, "elves", [4] * 13)
    odds = next(e for e in table.log if e.kind == "slips.revealed").payload["odds"]
    assess = next(r for r in odds if r["attacker"] == "elves")
    # Assess meets Fortify independently: Ob 2 + 1; 4 black dice, 3 or more = 5/16
    assert (assess["kind"], assess["obstacle"], assess["needed"]) == ("independent", 3, 3)
    assert assess["chance"] == {"no artha": "5/16"}
    fortify = next(r for r in odds if r["attacker"] == "dwarves")
    # 5 black dice: 4 or more successes (a margin over Ob 3) = (5 + 1) / 32
    assert (fortify["obstacle"], fortify["needed"]) == (3, 4)
    assert fortify["chance"] == {"no artha": "3/16"}
    # the Orcs, unwounded, keep Ob 2 (3 successes for a margin)
    orcs = next(r for r in odds if r["attacker"] == "orcs")
    assert (orcs["obstacle"], orcs["needed"]) == (2, 3)


@pytest.mark.parametrize("value", [-5, True, "lots"])
def test_a_starting_disposition_is_a_number_of_zero_or_more(value: object) -> None:
    """Disposition never falls below zero (RULINGS): a set-up cannot start a faction below it."""
    bad = setup()
    bad["factions"]["elves"]["disposition"] = value
    with pytest.raises(ScenarioError, match=r"disposition"):
        Table.start(PROCEDURE, bad)


def test_prologue_and_tie_breaker_show_their_odds() -> None:
    """Exact odds of every test: the Prologue's open-ended roll shows the chance of each number
    of successes (B4 open-ended: none = (1/2)^4; the top bucket is "or more"); the tie-breaker
    shows each side's chance of more extra successes (Perception B4 against Will B4, closed)."""
    table = start(prologue=True)
    table = act(table, "elves", "prologue", [4, 1, 1, 1], skill="Logistics")
    odds = table.log.events[-1].payload["odds"]
    assert odds["0"] == "1/16"
    assert sum(Fraction(p) for p in odds.values()) == 1
    assert list(odds)[-1] == "7+"
    table = fortify_all(Table.start(PROCEDURE, perceptive(setup())))
    table = _reveal(table, "elves", [4, 4, 1, 1] + [4, 4, 1, 1] + [1] * 5)
    table = act(table, "orcs", "tie_break", opponent="elves", root="Will")
    table = act(
        table, "elves", "tie_break", [4, 4, 1, 1, 4, 1, 1, 1], opponent="orcs", root="Perception"
    )
    rolled = table.log.events[-1].payload
    # two Bin(4, 1/2): P(X > Y) = (1 - C(8,4)/256) / 2 = 93/256, each way
    assert rolled["odds"] == {"elves": "93/256", "orcs": "93/256"}


def test_a_faction_sapped_out_of_its_roll_spends_no_artha_on_it() -> None:
    """Sap: a faction that "may not roll" this maneuver spends no Persona or Deeds on a roll
    that is not made."""
    data = setup()
    data["factions"]["dwarves"]["sapped"] = 5
    data["factions"]["dwarves"]["leader"]["lifepaths"] = 5  # 3 Fate, 2 Persona, 1 Deeds
    table = Table.start(PROCEDURE, data)
    table = act(table, "elves", "write_slip", maneuver="Fortify", skill="Logistics")
    table = act(
        table, "orcs", "write_slip", maneuver="Infiltrate", skill="Inconspicuous", target="elves"
    )
    table = act(
        table,
        "dwarves",
        "write_slip",
        maneuver="Fortify",
        skill="Fortifications",
        persona=2,
        deeds_before=True,
    )
    table = _reveal(table, "elves", [4] * 8)
    rolled = next(
        e for e in table.log if e.kind == "test.rolled" and e.payload["faction"] == "dwarves"
    )
    assert rolled.payload["dice"] == 0
    assert rolled.payload["artha"] == {"persona": 0, "deeds": 0}
    assert table.state.factions["dwarves"].leader.artha == {"fate": 3, "persona": 2, "deeds": 1}


def test_a_scene_is_played_by_the_leader_the_second_or_a_joined_leader() -> None:
    """Scenes: `by` names the Faction Leader, the 2iC or a defeated leader who joined; anything
    else is refused (it would otherwise count as the leader's scene under another name)."""
    with pytest.raises(RuleError, match="goblin"):
        act(sealed(start()), "elves", "scene", kind="color", by="goblin")
    with pytest.raises(RuleError, match="Second in Command"):
        act(sealed(start()), "elves", "scene", kind="color", by="second")
    table = act(sealed(start()), "elves", "scene", kind="color", by="leader")
    assert table.state.scenes[-1].by == "leader"


@pytest.mark.parametrize(
    "over,where",
    [
        ({"maneuver": "x"}, "maneuver"),
        ({"maneuver": 0}, "maneuver"),
        ({"cap": [1]}, "cap"),
        ({"cap": -1}, "cap"),
        ({"maintenance_ob": -4}, "maintenance_ob"),
        ({"players": "x"}, "players"),
    ],
)
def test_bad_chronicle_numbers_name_the_field(over: dict[str, Any], where: str) -> None:
    """A set-up's numbers (maneuver from 1, cap and maintenance Ob from 0, players) are whole
    numbers in range; anything else is a ScenarioError naming the field, never a crash."""
    with pytest.raises(ScenarioError, match=where):
        Table.start(PROCEDURE, setup(**over))


def test_bad_faction_statuses_name_the_faction() -> None:
    """`infiltrated:` is a mapping of faction to advantage dice; a list is refused by name."""
    bad = setup()
    bad["factions"]["elves"]["infiltrated"] = ["orcs"]
    with pytest.raises(ScenarioError, match=r"factions\.elves"):
        Table.start(PROCEDURE, bad)


def test_artha_after_the_roll_names_a_pool_that_exists() -> None:
    """Harry's after-the-roll artha goes on its defence or attack pool; another name is refused
    (not silently read as the defence)."""
    data = setup()
    data["factions"]["elves"]["leader"]["artha"] = {"fate": 1, "persona": 0, "deeds": 0}
    table = fortify_all(Table.start(PROCEDURE, data))
    table = _reveal(table, "elves", [6, 1, 1, 1] + [4] * 9)
    with pytest.raises(
        ActionError, match=r"spend_artha\.pool: Input should be 'defence' or 'attack'"
    ):
        act(table, "elves", "spend_artha", [6, 5], fate=True, pool="offence")
    with pytest.raises(RuleError, match="only a Harry"):
        act(table, "elves", "spend_artha", [6, 5], fate=True, pool="attack")
    assert table.state.factions["elves"].leader.artha["fate"] == 1


def harry_on_a_fortify() -> Table[Any]:
    """Two factions, both leaders Will B4 and Perception B4 (the root of Logistics and of Law):
    the elves (disposition 10) write a Fortify on Logistics B4, the dwarves (12) a Harry on
    Law B4 against the elves, two dice to defence."""
    sheet = {"lifepaths": 10, "stats": {"Will": "B4", "Perception": "B4"}}
    table = Table.start(
        PROCEDURE,
        {
            "strict_sheets": False,
            "factions": {
                "elves": {"disposition": 10, "leader": {**sheet, "skills": {"Logistics": "B4"}}},
                "dwarves": {"disposition": 12, "leader": {**sheet, "skills": {"Law": "B4"}}},
            },
        },
    )
    table = act(table, "elves", "write_slip", maneuver="Fortify", skill="Logistics")
    return act(
        table, "dwarves", "write_slip", maneuver="Harry", skill="Law", defence=2, target="elves"
    )


def test_a_tie_break_adds_to_the_pool_that_tied() -> None:
    """ "Extra successes count as if they were extra successes for the maneuver skill": a
    Harry whose attack dice tied a Fortify (aV) breaks the tie with its attack dice, not its
    defence (audit W3)."""
    table = harry_on_a_fortify()
    table = all_pass(table)
    table = act(table, "elves", "reveal", [4, 1, 1, 1, 1, 1, 4, 1])  # 1 vs the Harry's attack 1
    table = act(table, "dwarves", "tie_break", opponent="elves", root="Perception")
    table = act(
        table, "elves", "tie_break", [1, 1, 1, 1, 4, 4, 4, 4], opponent="dwarves", root="Perception"
    )
    rolled = table.state.rolls["dwarves"]
    assert (rolled.successes, rolled.attack) == (0, 5)
    table = act(table, "elves", "resolve")
    assert table.state.factions["elves"].disposition == 6  # the attack's margin of 4


def test_an_unopposed_conserve_is_not_rolled() -> None:
    """Conserve: "This is a strictly a defensive maneuver, only rolled against a versus
    maneuver": against an Assess (independent) its dice stay off the table — they do not make
    the narrator, and there is no roll to spend artha on (audit W4)."""
    data = setup()
    data["factions"]["orcs"]["leader"]["skills"]["Foraging"] = "B4"
    data["factions"]["orcs"]["leader"]["artha"] = {"fate": 1, "persona": 0, "deeds": 0}
    table = Table.start(PROCEDURE, data)
    table = act(table, "elves", "write_slip", maneuver="Assess", skill="Logistics", target="orcs")
    table = act(table, "orcs", "write_slip", maneuver="Conserve", skill="Foraging")
    table = act(table, "dwarves", "write_slip", maneuver="Fortify", skill="Fortifications")
    table = act(all_pass(table), "elves", "reveal", [4, 4, 1, 1, 4, 1, 1, 1, 1])
    rolled = {e.payload["faction"]: e.payload["dice"] for e in table.log if e.kind == "test.rolled"}
    assert rolled == {"elves": 4, "orcs": 0, "dwarves": 5}
    assert table.state.rolls["orcs"].decided  # nothing to keep or spend artha on
    table = act(table, "elves", "resolve")
    assert table.state.history[-1]["narrator"] == "elves"


# ------------------------------------------------------------- audit: clauses that went untested


def test_a_second_who_is_not_burned_up_does_not_roll() -> None:
    """Seconds in Command: "2iCs can only benefit their FL if they are completely burned up"
    (audit U1)."""
    data = setup()
    data["factions"]["dwarves"]["second"] = {
        "name": "Dorin",
        "lifepaths": 8,
        "skills": {"Soldiering": "B4"},
        "burned_up": False,
    }
    with pytest.raises(RuleError, match="only if burned up"):
        act(
            Table.start(PROCEDURE, data),
            "dwarves",
            "write_slip",
            maneuver="Fortify",
            skill="Soldiering",
            roller="second",
        )


def test_a_second_who_initiates_the_conflict_may_roll() -> None:
    """Seconds in Command: the 2iC substitutes after two thirds of the building rolls "and/or
    initiate that Faction's Conflict scene" (audit U3); one who did neither voids the
    maneuver, and the reveal says why."""
    data = setup()
    data["factions"]["orcs"]["assessed"] = ["elves"]
    data["factions"]["orcs"]["second"] = {
        "name": "Ugluk",
        "lifepaths": 8,
        "skills": {"Weapon Skill": "B4"},
    }
    table = Table.start(PROCEDURE, data)
    table = act(
        table,
        "orcs",
        "write_slip",
        maneuver="Assault",
        skill="Weapon Skill",
        target="elves",
        roller="second",
    )
    table = sealed(table)
    by_leader = act(table, "orcs", "scene", kind="conflict", target="elves")
    voided = _reveal(by_leader, "elves", [4] * 20)
    assert "orcs" in voided.state.void
    revealed = next(e for e in voided.log if e.kind == "slips.revealed")
    assert revealed.payload["void"] == {
        "orcs": "the 2iC substitutes only after making two thirds of the building rolls or "
        "initiating the conflict scene"
    }
    by_second = act(table, "orcs", "scene", kind="conflict", target="elves", by="second")
    rolled = _reveal(by_second, "elves", [4] * 20)
    assert "orcs" not in rolled.state.void and "orcs" in rolled.state.rolls


def test_a_prologue_skill_comes_from_the_list_unless_substituted() -> None:
    """Prologues: a skill "from the following list"; "Spellsongs and special racial skills can
    be substituted" (audit U4, U5)."""
    table = start(prologue=True)
    with pytest.raises(RuleError, match="not on the prologue list"):
        act(table, "orcs", "prologue", [4] * 4, skill="Inconspicuous")
    table = act(table, "orcs", "prologue", [4, 4, 1, 1], skill="Inconspicuous", substitute=True)
    assert table.state.factions["orcs"].prologue == 2


def test_an_interstitial_scene_rolls_nothing() -> None:
    """Intersitial: "an interstitial involves no rolling" (audit U6)."""
    with pytest.raises(RuleError, match="no rolls may be made during interstitial"):
        act(sealed(start()), "elves", "scene", kind="interstitial", skill="Logistics", ob=2)


def test_scenes_come_in_any_order() -> None:
    """Spending Scenes: "There is no requirement to start a Maneuver with a particular type of
    scene" (audit U7): a building scene first, then color, interstitial, conflict."""
    data = setup()
    data["factions"]["elves"]["assessed"] = ["orcs"]
    table = Table.start(PROCEDURE, data)
    table = act(table, "elves", "write_slip", maneuver="Assault", skill="Tactics", target="orcs")
    table = sealed(table)
    table = act(table, "elves", "scene", [4] * 5, kind="building", skill="Tactics", ob=1)
    table = act(table, "elves", "scene", kind="conflict", target="orcs")
    table = act(table, "elves", "scene", kind="interstitial", **{"with": "orcs"})
    table = act(table, "elves", "scene", kind="color")
    assert [s.kind for s in table.state.scenes] == ["building", "conflict", "interstitial", "color"]


def test_help_between_factions_needs_help_lent_even_with_the_skill() -> None:
    """Conquest Maneuvers: helping dice between factions only "if those Faction's Leaders lent
    each other helping dice in a scene" — a helper who has the skill but lent nothing is
    refused for that reason (audit U8)."""
    data = setup()
    data["factions"]["dwarves"]["leader"]["skills"]["Logistics"] = "B4"
    table = Table.start(PROCEDURE, data)
    table = act(table, "elves", "write_slip", maneuver="Fortify", skill="Logistics")
    table = act(table, "orcs", "write_slip", maneuver="Fortify", skill="Tactics", substitute=True)
    table = act(
        table, "dwarves", "write_slip", maneuver="Fortify", skill="Fortifications", helps="elves"
    )
    refused = _reveal(table, "elves", [4] * 20)
    revealed = next(e for e in refused.log if e.kind == "slips.revealed")
    assert "lent each other no helping dice" in str(revealed.payload["help_refused"])
    lent = act(table, "elves", "scene", [4] * 4, kind="building", skill="Logistics", ob=1,
               helpers=["dwarves"])  # fmt: skip
    helped = _reveal(lent, "elves", [4] * 20)
    revealed = next(e for e in helped.log if e.kind == "slips.revealed")
    assert revealed.payload["help"] == {"elves": {"dwarves": 1}}


def test_the_conqueror_inherits_the_resources_as_cash_on_hand() -> None:
    """Consequences: "The conqueror inherits the Resource dice as an equivalent amount of Cash
    on Hand" — before any affiliation is bought (audit U9)."""
    data = setup()
    data["factions"]["elves"]["assessed"] = ["orcs"]
    data["factions"]["orcs"]["disposition"] = 2
    data["factions"]["orcs"]["leader"]["resources"] = 4
    data["factions"]["orcs"]["leader"]["affiliations"] = {"Clan": 2}
    table = Table.start(PROCEDURE, data)
    table = act(table, "elves", "write_slip", maneuver="Assault", skill="Tactics", target="orcs")
    table = act(table, "orcs", "write_slip", maneuver="Fortify", skill="Tactics", substitute=True)
    table = act(table, "dwarves", "write_slip", maneuver="Fortify", skill="Fortifications")
    table = act(table, "elves", "scene", kind="conflict", target="orcs")
    table = act(_reveal(table, "elves", [4] * 5 + [1] * 4 + [4] * 5), "elves", "resolve")
    assert table.state.factions["orcs"].out
    table = act(table, "orcs", "join", faction="dwarves")
    assert table.state.factions["elves"].leader.cash_on_hand == 4
    assert table.state.factions["orcs"].leader.resources == 0


def test_the_last_faction_standing_wins() -> None:
    """Chronicle: "the last Faction standing has rulership over the territory" (audit U11)."""
    data = setup()
    del data["factions"]["dwarves"]
    data["factions"]["elves"]["assessed"] = ["orcs"]
    data["factions"]["orcs"]["disposition"] = 2
    table = Table.start(PROCEDURE, data)
    table = act(table, "elves", "write_slip", maneuver="Assault", skill="Tactics", target="orcs")
    table = act(table, "orcs", "write_slip", maneuver="Fortify", skill="Tactics", substitute=True)
    table = act(table, "elves", "scene", kind="conflict", target="orcs")
    table = act(_reveal(table, "elves", [4] * 5 + [1] * 4), "elves", "resolve")
    assert table.state.winner == "elves"
    assert any(e.kind == "chronicle.won" and e.payload["faction"] == "elves" for e in table.log)


@pytest.mark.parametrize(
    ("maneuver", "skill", "status"),
    [
        ("Onslaught", "Tactics", "assessed"),
        ("Infiltrate", "Tactics", None),
        ("Sap", "Tactics", "infiltrated"),
    ],
)
def test_an_offensive_maneuver_without_its_conflict_scene_is_void(
    maneuver: str, skill: str, status: str | None
) -> None:
    """Scene Economy: "If the faction chose an offensive maneuver aimed at another faction,
    they must also direct one conflict scene at the targetted faction" (audit W2)."""
    data = setup()
    if status == "assessed":
        data["factions"]["elves"]["assessed"] = ["orcs"]
    elif status == "infiltrated":
        data["factions"]["elves"]["infiltrated"] = {"orcs": 0}
    table = Table.start(PROCEDURE, data)
    params = {"maneuver": maneuver, "skill": skill, "target": "orcs", "substitute": True}
    table = sealed(act(table, "elves", "write_slip", **params))
    void = _reveal(table, "elves", [4] * 20)
    assert "elves" in void.state.void and "elves" not in void.state.rolls
    fought = act(table, "elves", "scene", kind="conflict", target="orcs")
    assert "elves" not in _reveal(fought, "elves", [4] * 20).state.void
