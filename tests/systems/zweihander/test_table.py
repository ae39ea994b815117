"""The table contract for Zweihänder: catalogue, typed parameters, choices, observe, secrets.

Golden ``observe`` files: set REFEREE_UPDATE_GOLDEN=1 to record them again after a deliberate
change (and read the diff).
"""

from __future__ import annotations

import json
import os
import random
import typing
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.core import (
    REFEREE,
    Action,
    ActionError,
    RuleError,
    ScenarioError,
    SeatError,
    Table,
    Viewer,
    observe,
)
from referee.core.scenario import load_scenario, run_scenario
from referee.dice import RandomSource, ScriptedSource
from referee.systems.zweihander import PROCEDURE, SYSTEM, morale, social
from referee.systems.zweihander import chase as chase_rules
from referee.systems.zweihander import events as vocabulary
from referee.systems.zweihander.chase import play_out
from referee.systems.zweihander.events import JOURNEY_CAMP
from referee.systems.zweihander.percentile import DIFFICULTY_NAMES
from referee.systems.zweihander.state import ZweihanderState
from referee.systems.zweihander.tables import (
    difficulty_ladder,
    morale_conditions,
    movement_modes,
    social_table,
    withstanding_table,
)
from referee.systems.zweihander.wilderness import travel_on

from .helpers import CLI_FILES, _chase, _journey, act, table
from .test_wilderness import journey

EXAMPLES = sorted((Path(__file__).parents[3] / "examples" / "zweihander").glob("*.yaml"))
GOLDEN = Path(__file__).parent / "golden" / "observe"
UPDATE = os.environ.get("REFEREE_UPDATE_GOLDEN") == "1"
STRANGER = Viewer("stranger")

# ------------------------------------------------------------------------------- catalogue


def test_the_catalogue_holds_every_kind_with_its_section_and_who() -> None:
    kinds = set(PROCEDURE.catalogue)
    assert {"test", "morale", "chase.start", "journey.roles", "exchange.start", "madness"} <= kinds
    assert len(kinds) == 26
    for spec in PROCEDURE.catalogue.values():
        assert spec.section and spec.summary, spec.kind
        assert spec.schema()["type"] == "object"
    referee_only = {k for k, s in PROCEDURE.catalogue.items() if s.who.value == "referee"}
    assert {"exchange.start", "exchange.end", "morale", "session.end"} <= referee_only
    assert "exchange.tactic" not in referee_only
    # the GM's secret Skills are in exchange.start's parameters: its record is the GM's alone
    assert PROCEDURE.catalogue["exchange.start"].record == "actor"


def test_closed_sets_in_parameters_are_the_data_files_own() -> None:
    def words(alias: Any) -> tuple[Any, ...]:
        return typing.get_args(typing.get_args(alias)[0]) if typing.get_args(alias) else ()

    assert typing.get_args(morale.MoraleCondition) == tuple(morale_conditions())
    assert typing.get_args(chase_rules.Mode) == tuple(movement_modes())
    assert words(social.Tactic) == tuple(social_table()["success"])
    assert words(social.Disposition) == social.DISPOSITIONS
    assert tuple(r.name for r in difficulty_ladder()) == DIFFICULTY_NAMES
    assert tuple(withstanding_table()) == ("Stress", "Fear", "Terror")


# ------------------------------------------------------------------------ typed parameters

ANNA = {"anna": {"skills": {"Stealth": 45, "Charm": 50}, "reputation": 3}}


@pytest.mark.parametrize(
    ("actor", "kind", "params", "message"),
    [
        ("anna", "test", {"skill": "Stealth", "modifer": -4}, "test.modifer: not a parameter"),
        ("anna", "social.simple", {"skils": "Charm", "npc_alignment": "order"}, "skils"),
        ("anna", "test", {"skill": "Stealth", "difficulty": True}, "test.difficulty: Input"),
        ("anna", "test", {"skill": "Stealth", "difficulty": "Hardish"}, "test.difficulty"),
        ("anna", "test", {"skill": "Stealth", "assist": "yes"}, "test.assist"),
        ("anna", "test", {}, "name the skill tested"),
        ("referee", "reputation.award", {"character": "anna", "story_arc": "2"}, "story_arc"),
        ("referee", "reputation.award", {"character": "anna", "story_arc": 4}, "story_arc"),
        ("referee", "morale", {"resolve": 40, "conditions": ["outnumbered"]}, "conditions.0"),
        ("referee", "morale", {"resolve": 10**40}, "morale.resolve"),
        ("anna", "madness", {"situation": "Dread"}, "madness.situation"),
        ("anna", "requisition", {"weight": "huge"}, "requisition.weight"),
        (
            "referee",
            "exchange.start",
            {
                "npc": "x",
                "disposition": "Polite",
                "npc_alignment": "order",
                "participants": ["anna"],
                "favourable": "Charme",
                "unfavourable": "Guile",
            },
            "exchange.start.favourable",
        ),
        (
            "referee",
            "chase.start",
            {"escapees": ["anna"], "pursuers": {"x": "by broom"}},
            "chase.start.pursuers",
        ),
        ("referee", "journey.roles", {"guide": "anna", "asists": {}}, "journey.roles.asists"),
        ("referee", "session.end", {"disorders": {"anna": 3}}, "session.end.disorders.anna"),
        ("anna", "fly", {}, "fly: no such action"),
    ],
)
def test_a_malformed_parameter_is_an_action_error_naming_its_path(
    actor: str, kind: str, params: dict[str, Any], message: str
) -> None:
    t = table(ANNA)
    with pytest.raises(ActionError, match=message):
        t.act(Action(actor, kind, params), ScriptedSource([]))


def test_a_well_formed_action_the_rules_forbid_is_a_rule_error() -> None:
    t = table(ANNA)
    with pytest.raises(RuleError, match="no Base Chance entered for 'Guile'"):
        act(t, "anna", "test", [50], skill="Guile")
    with pytest.raises(RuleError, match="a minor requisition costs 1-3 points"):
        act(t, "anna", "requisition", weight="minor", cost=5)


def test_parameters_are_recorded_as_the_model_reads_them() -> None:
    t = act(table(ANNA), "anna", "test", [20], skill="Stealth", difficulty="hard")
    assert t.actions[-1].params == {"skill": "Stealth", "difficulty": "Hard"}
    assert t.log[-1].data["total_chance"] == 25


def test_a_player_seat_cannot_take_the_gms_actions() -> None:
    t = SYSTEM.new_table({"characters": ANNA}, players={"alice": ["anna"]})
    with pytest.raises(SeatError, match="only the referee"):
        t.act(Action(REFEREE, "session.end"), ScriptedSource([]), seat="alice")
    with pytest.raises(SeatError, match="does not play"):
        t.act(Action("bert", "test", {"chance": 40}), ScriptedSource([5]), seat="alice")
    t = t.act(Action("anna", "test", {"skill": "Stealth"}), ScriptedSource([5]), seat="alice")
    assert t.log[-1].data["outcome"] == "success"


# ----------------------------------------------------------------------------------- setup


@pytest.mark.parametrize(
    ("setup", "path"),
    [
        ({"charakters": {}}, ("charakters",)),
        ({"characters": {"anna": {"skils": {"Charm": 50}}}}, ("characters", "anna", "skils")),
        (
            {"characters": {"anna": {"skills": {"Charm": "50"}}}},
            ("characters", "anna", "skills", "Charm"),
        ),
        ({"characters": ["anna"]}, ("characters",)),
        ({"fortune_points": "2"}, ("fortune_points",)),
        ({"fortune_points": -1}, ("fortune_points",)),
        ({"stables": {"alice": "anna"}}, ("stables", "alice")),
        (
            {
                "characters": {"anna": {}},
                "journey": {"travellers": ["anna"], "stretches": [{"days": "3"}]},
            },
            ("journey", "stretches", 0, "days"),
        ),
        (
            {
                "characters": {"anna": {}},
                "journey": {"travellers": ["anna"], "stretches": [{"lenght": "short"}]},
            },
            ("journey", "stretches", 0, "lenght"),
        ),
    ],
)
def test_a_setup_of_the_wrong_shape_is_refused_with_its_path(
    setup: dict[str, Any], path: tuple[Any, ...]
) -> None:
    with pytest.raises(ScenarioError) as raised:
        Table.start(PROCEDURE, setup)
    assert raised.value.path == path
    with pytest.raises(ScenarioError) as again:
        SYSTEM.check_setup(setup)
    assert again.value.path == path


def test_the_system_lists_its_setup_schema_and_catalogue() -> None:
    data = SYSTEM.to_json()
    assert data["has_referee"] is True
    assert set(data["setup_schema"]["properties"]) == {
        "characters",
        "fortune_points",
        "stables",
        "journey",
    }
    assert len(data["actions"]) == len(PROCEDURE.catalogue)
    assert "d100" in data["summary"]


# --------------------------------------------------------------------------- random play


def _play(setup: dict[str, Any], players: dict[str, list[str]] | None, seed: int) -> Table[Any]:
    rng = random.Random(seed)
    t = SYSTEM.new_table(setup, players=players)
    dice = RandomSource(seed=seed)
    for _ in range(50):
        choices = [c for a in PROCEDURE.actors(t.state) for c in t.legal_actions(a)]
        if not choices:
            break
        action = rng.choice(choices).sample(rng)
        try:
            t = t.act(action, dice)
        except RuleError:
            continue
    return t


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(st.sampled_from(EXAMPLES), st.integers(0, 2**20))
def test_random_legal_play_is_accepted_or_refused_by_a_rule(path: Path, seed: int) -> None:
    """Every choice sampled from legal_actions' domains is well formed (never an ActionError)
    and either accepted or refused with a RuleError; the record round-trips and replays."""
    scenario = load_scenario(path)
    t = _play(scenario.setup, scenario.players or None, seed)
    again = Table.from_record(json.loads(json.dumps(t.to_record())), PROCEDURE)
    assert again.state == t.state
    for seat in t.seats:
        observe(t, seat.id).to_json()


# ------------------------------------------------------------------------ observe goldens


def _viewers(t: Table[Any]) -> list[tuple[str, Any]]:
    return [(s.id, s.id) for s in t.seats] + [("stranger", STRANGER)]


def _golden_cases() -> list[tuple[Path, str]]:
    cases = []
    for path in EXAMPLES:
        t = run_scenario(load_scenario(path)).table
        cases += [(path, name) for name, _ in _viewers(t)]
    return cases


CASES = _golden_cases()


@pytest.mark.parametrize(("path", "viewer"), CASES, ids=[f"{p.stem}.{v}" for p, v in CASES])
def test_observe_matches_its_golden_file(path: Path, viewer: str) -> None:
    t = run_scenario(load_scenario(path)).table
    who = dict(_viewers(t))[viewer]
    data = observe(t, who).to_json()
    golden = GOLDEN / f"{path.stem}.{viewer}.json"
    if UPDATE:
        golden.parent.mkdir(exist_ok=True)
        golden.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    assert data == json.loads(golden.read_text(encoding="utf-8"))


def test_every_event_of_every_example_is_narrated() -> None:
    assert set(vocabulary.PAYLOADS) == vocabulary.KINDS
    seen = set()
    for path in EXAMPLES:
        t = run_scenario(load_scenario(path)).table
        for name, who in _viewers(t):
            for event in observe(t, who).to_json()["events"]:
                assert "malformed" not in event["text"], (path.stem, name, event)
                assert not event["text"].startswith(event["kind"]), event["text"]
                seen.add(event["kind"])
    assert {"chase.takedown", "journey.chaos", "exchange.ended", "corruption.resolved"} <= seen


# --------------------------------------------------------------------------------- secrets

PARTY = {
    "anna": {"skills": {"Charm": 50, "Resolve": 40}, "order_ranks": 2, "reputation": 2},
    "bert": {"skills": {"Intimidate": 45, "Rumor": 30}, "chaos_ranks": 2},
}
SECRET_SKILLS = ("Guile", "Bargain")  # skills nobody at this table has


def _exchange(favourable: str, unfavourable: str, faces: list[int] | int) -> Table[Any]:
    t = SYSTEM.new_table({"characters": PARTY}, players={"alice": ["anna"], "bob": ["bert"]})
    start = {
        "npc": "the reeve",
        "disposition": "Polite",
        "npc_alignment": "order",
        "participants": ["anna", "bert"],
        "favourable": favourable,
        "unfavourable": unfavourable,
    }
    t = t.act(Action(REFEREE, "exchange.start", start), ScriptedSource([]), seat=REFEREE)
    dice = ScriptedSource(faces) if isinstance(faces, list) else RandomSource(seed=faces)
    t = t.act(Action("anna", "exchange.tactic", {"tactic": "Charm"}), dice, seat="alice")
    return t.act(Action("bert", "exchange.tactic", {"tactic": "Intimidate"}), dice, seat="bob")


def _raw(t: Table[Any], who: Any) -> str:
    return json.dumps(observe(t, who).to_json(), ensure_ascii=False)


@pytest.mark.parametrize(
    ("favourable", "unfavourable"),
    [("Guile", "Bargain"), ("Bargain", "Guile")],
)
def test_the_gms_secret_skills_never_reach_a_players_observe(
    favourable: str, unfavourable: str
) -> None:
    t = _exchange(favourable, unfavourable, [40, 70, 3, 4])
    referee = _raw(t, REFEREE)
    assert favourable in referee and unfavourable in referee
    for who in ("alice", "bob", STRANGER):
        raw = _raw(t, who)
        for secret in SECRET_SKILLS:
            assert secret not in raw, (who, secret)
        assert '"bumped_by": "' not in raw and '"bumped_by": null' not in raw
        assert "GM's secret" not in raw
        assert '"favourable": "' not in raw and '"unfavourable": "' not in raw


def test_the_bump_and_the_secret_skills_are_the_referees_alone_until_the_reveal() -> None:
    # Charm favourable: anna's Success becomes a Critical Success; the card keeps the roll's own
    # outcome and odds, and only the referee sees why.
    t = _exchange("Charm", "Intimidate", [40, 70, 3, 4])
    tactic = [e for e in observe(t, "alice").to_json()["events"] if e["kind"].endswith("tested")]
    anna = tactic[0]["payload"]
    assert anna["outcome"] == "critical success"
    assert anna["roll"]["outcome"] == "success"
    assert "bumped_by" in tactic[0]["redacted"]
    assert "bumped_by" not in anna
    gm = [e for e in observe(t, REFEREE).to_json()["events"] if e["kind"].endswith("tested")]
    assert gm[0]["secrets"][0] == {
        "name": "bumped_by",
        "value": "favourable",
        "audience": [],
    }
    assert gm[1]["secrets"][0]["value"] == "unfavourable"
    assert tactic[0]["secrets"] == []
    state = observe(t, "bob").to_json()["state"]["exchange"]
    assert "favourable" not in state and "unfavourable" not in state
    ended = t.act(Action(REFEREE, "exchange.end"), ScriptedSource([]), seat=REFEREE)
    last = observe(ended, "bob").to_json()["events"][-1]
    assert last["payload"]["favourable"] == "Charm"
    assert "Favourable Skill: Charm" in last["text"]


def test_players_choices_and_previews_carry_no_secret_odds() -> None:
    """The Tactic choices' odds are the plain test's: the same whatever the GM picked."""
    one = _exchange("Guile", "Bargain", [40, 70, 3, 4]).undo(1)
    two = _exchange("Intimidate", "Charm", [40, 70, 3, 4]).undo(1)
    for who in ("bob",):
        a = observe(one, who).to_json()
        b = observe(two, who).to_json()
        assert a["choices"] == b["choices"] and a["previews"] == b["previews"]
        tactic = [c for c in a["choices"] if c["kind"] == "exchange.tactic"]
        assert tactic and tactic[0]["params"]["tactic"] == {"one_of": ["Intimidate", "Rumour"]}


@settings(max_examples=30, deadline=None)
@given(
    st.sampled_from([("Guile", "Bargain"), ("Bargain", "Guile")]),
    st.integers(0, 2**32),
)
def test_no_roll_of_the_dice_leaks_the_secret_skills(secret: tuple[str, str], seed: int) -> None:
    t = _exchange(*secret, seed)
    for who in ("alice", "bob", STRANGER):
        raw = _raw(t, who)
        assert not any(s in raw for s in SECRET_SKILLS), who


def test_the_narration_says_what_the_gm_must_announce() -> None:
    """Audit F2, F5: the exchange's Fortune Point, the Reputation burnt, the Peril condition
    after mental Peril, and "1 day"."""
    t = run_scenario(load_scenario(EXAMPLES[1])).table  # complex-exchange
    texts = [e["text"] for e in observe(t, "bob").to_json()["events"]]
    assert "a Reputation Point burnt for the Assist Die" in texts[1]
    assert "the party gains 1 Fortune Point" in texts[1]
    assert "9 mental Peril → Imperiled" in texts[2]
    ended = vocabulary.describe(
        vocabulary_event("journey.stretch_ended", stretch="a", days=1, provisions=1),
        Viewer("x"),
    )
    assert ended == "a is behind them: 1 day, 1 day of provisions."


def vocabulary_event(kind: str, **data: Any) -> Any:
    from referee.core import Event

    return Event(kind, data)


def test_the_texts_typo_and_the_right_spelling_both_name_the_courser() -> None:
    """Audit F5: the table prints "couser horse"; "courser horse" reads as it."""
    sheet = {"bonuses": {"AB": 3}, "skills": {"Coordination": 40, "Toughness": 40}}
    t = table({"a": sheet, "b": sheet})
    for mode in ("courser horse", "couser horse"):
        started = act(
            t, REFEREE, "chase.start", [5], escapees={"a": mode}, pursuers={"b": "on foot"}
        )
        assert started.state.chase is not None
        assert started.state.chase.participant("a").movement == 3 + 8


def test_an_unknown_terrain_is_refused_naming_the_terrains_too() -> None:
    """Audit F5: "lava" is refused with the terrain words the text lists, not only ratings."""
    with pytest.raises(ScenarioError, match=r"neither a terrain the text lists .*mountains"):
        table({"g": {}}, journey={"travellers": ["g"], "stretches": [{"terrain": "lava"}]})


def test_a_players_state_holds_no_name_of_the_referees_timers() -> None:
    """The waits name the kernel timers, which only the referee sees being set."""
    t = SYSTEM.new_table({"characters": ANNA}, players={"alice": ["anna"]})
    t = t.act(Action("anna", "requisition", {"weight": "minor"}), ScriptedSource([]), seat="alice")
    assert observe(t, REFEREE).to_json()["state"]["waits"] == [["requisition:anna:minor", 24]]
    assert "requisition:anna:minor" not in json.dumps(observe(t, "alice").to_json())


def test_a_journey_travelled_on_at_a_seated_table_is_the_referees_doing() -> None:
    """The table record: at a table with seats, every step of the GM's default play is taken
    from the referee's seat and recorded as his."""
    setup = yaml.safe_load((CLI_FILES / "route.yaml").read_text(encoding="utf-8"))
    table = SYSTEM.new_table(setup, players={"pat": ["anna"]})
    done = travel_on(table, RandomSource(3), camp=True)
    taken = list(done.actions)[len(table.actions) :]
    assert taken and {(a.seat, a.actor) for a in taken} == {("referee", "referee")}
    assert [e.kind for e in done.log.events].count(JOURNEY_CAMP) == 2


def _faces(table: Table[ZweihanderState]) -> set[int]:
    found: set[int] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if key in ("faces", "peril_faces") and isinstance(item, list):
                    found.update(int(f) for f in item)
                else:
                    walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    for event in table.log.events:
        walk(dict(event.data))
    return found


def test_the_gms_default_play_rolls_the_dice_it_is_given() -> None:
    """The table record: a chase played out and a journey travelled on roll the dice they are
    handed, every step of the way (here every die shows 5)."""
    fives = ScriptedSource([5] * 2000)
    journey = travel_on(_journey(), fives, camp=True)
    assert _faces(journey) == {5}
    chase = play_out(_chase(1), ScriptedSource([5] * 2000))
    assert _faces(chase) <= {5} | _faces(_chase(1))


def test_a_chase_played_out_at_a_seated_table_is_the_referees_doing() -> None:
    """The table record: the GM's default play of a chase is taken from the referee's seat
    when the table has seats; with no chase under way there is nothing to play out."""
    setup = yaml.safe_load((CLI_FILES / "chase.yaml").read_text(encoding="utf-8"))
    table = SYSTEM.new_table(setup, players={"pat": ["cutpurse"]})
    with pytest.raises(RuleError, match="no chase is under way"):
        play_out(table, RandomSource(1))
    start = {"escapees": ["cutpurse"], "pursuers": ["watchman", "hound"]}
    table = table.act(Action("referee", "chase.start", start), RandomSource(5), seat="referee")
    done = play_out(table, RandomSource(5))
    taken = list(done.actions)[len(table.actions) :]
    assert taken and {a.seat for a in taken} == {"referee"}
    assert {a.kind for a in taken} >= {"chase.move", "chase.end_round"}


def test_the_gms_default_play_at_a_table_without_seats_is_taken_by_no_seat() -> None:
    """The table record: a table played through the library may have no seats at all; the GM's
    default play of a journey and of a chase then takes its steps from no seat (there is no
    referee's seat to take them from) and records them so."""
    setup = yaml.safe_load((CLI_FILES / "route.yaml").read_text(encoding="utf-8"))
    journey = Table.start(SYSTEM.procedure, setup, seats=())
    done = travel_on(journey, RandomSource(3))
    assert done.actions and {(a.seat, a.actor) for a in done.actions} == {(None, "referee")}
    setup = yaml.safe_load((CLI_FILES / "chase.yaml").read_text(encoding="utf-8"))
    chase = Table.start(SYSTEM.procedure, setup, seats=())
    start = {"escapees": ["cutpurse"], "pursuers": ["watchman", "hound"]}
    chase = chase.act(Action("referee", "chase.start", start), RandomSource(5))
    played = play_out(chase, RandomSource(5))
    assert played.state.chase is not None and played.state.chase.ended is not None
    assert {a.seat for a in played.actions} == {None}


@pytest.mark.parametrize(
    ("sheet", "reason"),
    [
        ({"wits": 3}, "Extra inputs are not permitted"),
        ({"bonuses": {"XB": 3}}, "not a Bonus (CB, BB, AB, PB, IB, WB, FB)"),
    ],
)
def test_a_bad_setup_field_is_refused_with_a_plain_reason(
    sheet: dict[str, Any], reason: str
) -> None:
    """A setup's refusal reads as the rule it breaks: an unknown field, a Bonus that is none."""
    with pytest.raises(ScenarioError) as refused:
        table({"a": sheet})
    assert refused.value.reason == reason
    with pytest.raises(ScenarioError) as refused:
        table({"a": {}}, fortune_points=-1)
    assert (refused.value.reason, refused.value.path) == (
        "Input should be greater than or equal to 0",
        ("fortune_points",),
    )


def test_the_setup_seats_its_characters_fortune_points_stables_and_journey() -> None:
    """The table's setup: each character (a blank sheet for one given nothing), the party's
    Fortune Points (none unless given), each player's stable, and a journey only if one is set."""
    t = table({"a": None, "b": {}}, stables={"pat": ["a", "b"]})
    assert [c.id for c in t.state.characters] == ["a", "b"]
    assert t.state.character("a").reputation == t.state.character("b").reputation
    assert t.state.fortune_points == 0
    assert t.state.stables == {"pat": ("a", "b")}
    assert t.state.journey is None
    assert table({"a": {}}, fortune_points=3, journey=None).state.fortune_points == 3
    assert PROCEDURE.initial_state({}).characters == ()
    j = journey().state.journey
    assert j is not None and j.travellers == ("g", "s", "c") and j.stretch.name == "one"


def test_only_the_gm_takes_the_gms_actions_and_only_a_seated_character_acts() -> None:
    """The table: the GM's actions (a journey's steps) are refused to a player; an action by
    someone who is no character at the table is refused."""
    with pytest.raises(RuleError) as player:
        act(journey(), "g", "journey.camp")
    assert (player.value.rule, player.value.reason) == (
        "journey.camp",
        "only the referee (the GM) takes this action, not 'g'",
    )
    with pytest.raises(RuleError, match="no character 'z'"):
        PROCEDURE.decide(journey().state, Action("z", "chase.move", {}), None)
