"""Hursagmu at the table (issue 11): the catalogue, typed parameters, choices with real domains,
roll cards, ``observe`` per seat, and secrets kept from every seat not entitled to them.

Golden ``observe(table, seat).to_json()`` files for every worked example, per viewer (the
referee, each player, a stranger), are under ``golden/observe/``. Regenerate after an intended
change with ``REFEREE_UPDATE_GOLDEN=1 pytest tests/systems/hursagmu``, and read the diff.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.core import (
    Action,
    ActionError,
    RuleError,
    ScenarioError,
    SeatError,
    Table,
    Viewer,
    observe,
    system,
)
from referee.core.cards import event_cards
from referee.core.scenario import load_scenario, run_scenario
from referee.dice import RandomSource, ScriptedSource
from referee.systems.hursagmu import PROCEDURE, SYSTEM
from referee.systems.hursagmu.catalogue import CATALOGUE
from referee.systems.hursagmu.encounter import FOLD, HANDLERS
from referee.systems.hursagmu.events import KINDS, describe
from referee.systems.hursagmu.round_plan import ATTACK, DEFEND, TASK
from referee.systems.hursagmu.setup import encounter_from_setup

from .test_encounter import start

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "examples" / "hursagmu"
FILES = sorted(EXAMPLES.glob("*.yaml"))
GOLDEN = Path(__file__).resolve().parent / "golden" / "observe"
UPDATE = os.environ.get("REFEREE_UPDATE_GOLDEN") == "1"
STRANGER = Viewer("stranger")

FIGHTER = {
    "dexterity": 2,
    "strength": 2,
    "weapon": 5,
    "stamina": 20,
    "skills": {"quickness": 2, "striking": 5, "defense": 6},
}


def played(path: Path) -> Table[Any]:
    """The table a worked example leads to."""
    run = run_scenario(load_scenario(path))
    assert not run.failures, [r.description for r in run.failures]
    return run.table


def viewers(table: Table[Any]) -> list[str | Viewer]:
    return [*(seat.id for seat in table.seats), STRANGER]


# -- the catalogue ------------------------------------------------------------------------------


def test_the_catalogue_is_every_action_decide_takes() -> None:
    assert set(CATALOGUE) == set(HANDLERS)
    HANDLERS.check(CATALOGUE)
    assert PROCEDURE.handlers is HANDLERS and isinstance(KINDS, frozenset)
    sections = {spec.kind: spec.section for spec in CATALOGUE.values()}
    assert sections["initiative"] == "Initiative" and sections["sneak"] == (
        "Perception and Observation"
    )
    text = (ROOT.parent / "shared" / "rules" / "hursagmu-encounters.txt").read_text()
    for spec in CATALOGUE.values():
        assert spec.section in text, f"{spec.kind}: no section {spec.section!r} in the text"


def test_the_masters_actions_and_the_secret_ones() -> None:
    who = {spec.kind: spec.who.value for spec in CATALOGUE.values()}
    assert {k for k, w in who.items() if w == "referee"} == {"end_round", "condition", "perceive"}
    secret = {spec.kind for spec in CATALOGUE.values() if spec.record == "actor"}
    assert secret == {"perceive", "sneak"}


def test_a_player_cannot_take_the_masters_actions() -> None:
    table = SYSTEM.new_table({"characters": {"bob": FIGHTER, "fred": FIGHTER}})
    with pytest.raises(SeatError, match="only the referee"):
        table.act(
            Action("bob", "perceive", {"character": "fred"}), ScriptedSource([1, 1]), seat="bob"
        )


def test_every_event_kind_is_in_the_vocabulary_and_narrated() -> None:
    kinds: set[str] = set()
    for path in FILES:
        kinds |= {e.kind for e in played(path).log}
    assert kinds <= set(KINDS)
    assert set(FOLD) <= set(KINDS)
    for path in FILES:
        table = played(path)
        for event in table.log:
            text = describe(event, Viewer("referee"))
            assert text and not text.startswith(f"{event.kind}:"), event.kind


# -- typed parameters ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "params", "path"),
    [
        ("initiative", {"stance": "maneuver", "modifer": -4}, "initiative.modifer"),
        ("initiative", {"stance": "maneuver", "modifier": "-4"}, "initiative.modifier"),
        ("initiative", {"stance": "manoeuvre"}, "initiative.stance"),
        ("initiative", {}, "initiative.stance"),
        ("declare", {"actions": [{"task": "pick", "skils": "stealth"}]}, "declare.actions.0.skils"),
        ("declare", {"actions": [{"move": "foot", "yards": "ten"}]}, "declare.actions.0.yards"),
        ("declare", {"actions": [{"move": "foot", "yards": -10}]}, "declare.actions.0.yards"),
        ("declare", {"actions": {"attack": "fred"}}, "declare.actions"),
        ("declare", {"action": [{"attack": "fred"}]}, "declare.action"),
        ("push", {"hits": True}, "push.hits"),
        ("push", {"hits": 0}, "push.hits"),
        ("race", {"agianst": "fred"}, "race.agianst"),
        ("sneak", {"perceiver": "fred", "asleep": True}, "sneak.asleep"),
        ("sneak", {"perceiver": "fred", "skill": "luck"}, "sneak.skill"),
        ("round_zero", {"surprised": "fred"}, "round_zero.surprised"),
        ("act", {"step": 1}, "act.step"),
    ],
)
def test_a_misspelt_or_ill_typed_parameter_is_an_action_error(
    kind: str, params: dict[str, Any], path: str
) -> None:
    table = SYSTEM.new_table({"characters": {"bob": FIGHTER, "fred": FIGHTER}})
    with pytest.raises(ActionError) as error:
        table.act(Action("bob", kind, params), ScriptedSource([3, 3]), seat="bob")
    assert str(error.value).startswith(f"{path}:")


@pytest.mark.parametrize(
    ("params", "path"),
    [
        ({"character": "bob", "factors": {"darkness": "2"}}, "perceive.factors.darkness"),
        ({"character": "bob", "sense": "taste"}, "perceive.sense"),
        ({"character": "bob", "soft": "yes"}, "perceive.soft"),
        ({"charcter": "bob"}, "perceive.charcter"),
    ],
)
def test_the_masters_parameters_are_checked_too(params: dict[str, Any], path: str) -> None:
    table = SYSTEM.new_table({"characters": {"bob": FIGHTER}})
    with pytest.raises(ActionError) as error:
        table.act(Action("referee", "perceive", params), ScriptedSource([3, 3]), seat="referee")
    assert str(error.value).startswith(f"{path}:")


def test_well_formed_but_forbidden_stays_a_rule_error() -> None:
    table = SYSTEM.new_table({"characters": {"bob": FIGHTER, "fred": FIGHTER}})
    with pytest.raises(RuleError, match="Pushing Power"):
        table.act(Action("bob", "push", {"hits": 21}), None, seat="bob")
    with pytest.raises(RuleError, match="no skill 'juggling'"):
        table.act(Action("bob", "round_zero", {}), None, seat="bob").act(
            Action("bob", "declare", {"actions": [{"task": "x", "skill": "juggling"}]}), None
        )


@pytest.mark.parametrize(
    ("setup", "path"),
    [
        ({"characters": {"bob": {"dexterty": 2}}}, ("characters", "bob", "dexterty")),
        ({"characters": {"bob": {"dexterity": "2"}}}, ("characters", "bob", "dexterity")),
        ({"characters": {"bob": {}}, "optoins": {}}, ("optoins",)),
        ({"characters": {"bob": {}}, "options": {"defence": "heroic"}}, ("options", "defence")),
        ({"characters": {"bob": {"skills": {"luck": 2}}}}, ("characters", "bob", "skills")),
        ({"characters": []}, ("characters",)),
    ],
)
def test_a_bad_setup_is_refused_with_its_path(setup: dict[str, Any], path: tuple[str, ...]) -> None:
    with pytest.raises(ScenarioError) as error:
        SYSTEM.check_setup(setup)
        SYSTEM.procedure.initial_state(setup)
    assert tuple(error.value.path)[: len(path)] == path


@pytest.mark.parametrize(
    "setup",
    [
        [],
        {"characters": {"bob": []}},
        {"characters": {"bob": {"skills": ["striking"]}}},
        {"characters": {"bob": {"stamina": 10**40}}, "options": []},
        {"characters": {"referee": {}}},
    ],
)
def test_initial_state_refuses_a_setup_of_the_wrong_shape(setup: Any) -> None:
    with pytest.raises(ScenarioError):
        PROCEDURE.initial_state(setup)


# -- roll cards ---------------------------------------------------------------------------------


def test_every_rolled_check_carries_a_roll_card() -> None:
    rolled = {
        "initiative.rolled",
        "character.moved",
        "character.stumbled",
        "task.rolled",
        "attack.resolved",
        "race.rolled",
        "perception.rolled",
        "stealth.rolled",
    }
    seen: set[str] = set()
    for path in FILES:
        for event in played(path).log:
            if event.kind not in rolled or not event.data.get("faces", event.data.get("roll")):
                continue
            (card,) = event_cards(event.data)
            assert card.rule and card.label and card.faces
            seen.add(event.kind)
            if event.kind != "initiative.rolled":
                assert (
                    card.odds is not None
                    and sum(__import__("fractions").Fraction(p) for p in card.odds.values()) == 1
                )
    assert {"initiative.rolled", "attack.resolved", "perception.rolled"} <= seen


def test_the_attack_card_is_the_rule_applied() -> None:
    table = played(EXAMPLES / "bob-against-fred.yaml")
    for event in table.log:
        if event.kind == "attack.resolved":
            (card,) = event_cards(event.data)
            assert card.outcome == ("success" if event.data["hit"] else "failure")
            assert card.value == event.data["value"] and list(card.faces) == event.data["faces"]


# -- observe, per seat --------------------------------------------------------------------------


def _name(viewer: str | Viewer) -> str:
    return viewer.id if isinstance(viewer, Viewer) else viewer


CASES = [(p, v) for p in FILES for v in viewers(played(p))]


@pytest.mark.parametrize(("path", "viewer"), CASES, ids=[f"{p.stem}-{_name(v)}" for p, v in CASES])
def test_golden_observe(path: Path, viewer: str | Viewer) -> None:
    data = observe(played(path), viewer).to_json()
    golden = GOLDEN / f"{path.stem}.{_name(viewer)}.json"
    text = json.dumps(data, indent=1, ensure_ascii=False, sort_keys=True) + "\n"
    if UPDATE:
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(text, encoding="utf-8")
    assert json.loads(text) == json.loads(golden.read_text(encoding="utf-8"))


def _secrets(table: Table[Any]) -> dict[str, set[str]]:
    """Each secret text of a table, with who the rules entitle to it (the referee always is),
    read from the rules, not from the events' own audiences:

    - a secret roll's card (its label and its dice shown): the Master's alone;
    - that a character sneaked (``stealth.rolled``): the sneak's; that the Master rolled for a
      character (``perception.rolled``): that character's;
    - the record of a ``sneak``: the sneak's; of a ``perceive``: the Master's.
    """
    found: dict[str, set[str]] = {}
    for event in table.log:
        if event.kind not in ("stealth.rolled", "perception.rolled"):
            continue
        for card in event_cards(event.data):
            found.setdefault(card.label, set())
            found.setdefault(card.shown, set())
        signature = f'"number": {event.number}, "at": {event.at}, "cause": {event.cause}, '
        found.setdefault(signature + f'"kind": "{event.kind}"', set()).add(
            str(event.data["character"])
        )
    for record in table.actions:
        if record.kind in ("sneak", "perceive"):
            text = json.dumps(record.params, ensure_ascii=False)
            found.setdefault(text, set()).update({record.actor} - {"referee"})
    return found


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_no_seat_sees_a_secret_it_is_not_entitled_to(path: Path) -> None:
    table = played(path)
    secrets = _secrets(table)
    for viewer in viewers(table):
        seen = table.viewer(viewer)
        if seen.is_referee:
            continue
        raw = json.dumps(observe(table, viewer).to_json(), ensure_ascii=False)
        for text, entitled in secrets.items():
            if not entitled & seen.identities:
                assert text not in raw, f"{seen.id} sees {text!r}"


def test_the_secret_search_finds_a_leak() -> None:
    """The search above is real: the thief's roll, shown to the guard, is found."""
    table = played(EXAMPLES / "thief-and-sleeper.yaml")
    secrets = _secrets(table)
    label = "Thief's stealth against Guard's perception"
    assert label in secrets and secrets[label] == set()
    assert "Sleeper's perception (in secret)" in secrets
    raw = json.dumps(observe(table, "referee").to_json(), ensure_ascii=False)
    assert label in raw  # the referee sees it, so a leak to a player would be found
    for seat in ("alice", "bruno"):
        assert label not in json.dumps(observe(table, seat).to_json(), ensure_ascii=False)


def test_the_perceiver_learns_only_whether_he_noticed() -> None:
    table = played(EXAMPLES / "thief-and-sleeper.yaml")
    (event,) = [e for e in observe(table, "bruno").events if e.kind == "perception.rolled"]
    assert set(event.data) == {"character", "skill", "noticed"}
    assert set(event.redacted) == {"challenge", "roll"}
    assert not observe(table, "bruno").actions  # the Master's record of the roll is his alone


# -- choices, sampled -------------------------------------------------------------------------


SETUPS = [load_scenario(p) for p in FILES]


@settings(
    max_examples=int(os.environ.get("HURSAGMU_PLAY_RUNS", "12")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(st.sampled_from(SETUPS), st.integers(0, 2**32))
def test_every_choice_is_taken_or_refused_by_a_rule(scenario: Any, seed: int) -> None:
    table = system("hursagmu").new_table(scenario.setup, players=scenario.players or None)
    rng = random.Random(seed)
    dice = RandomSource(seed)
    taken = 0
    for _ in range(40):
        seat = rng.choice(table.seats)
        choices = observe(table, seat.id).choices
        if not choices:
            continue
        choice = rng.choice(choices)
        action = choice.sample(rng)
        assert choice.allows(action.params)
        try:
            table = table.act(action, dice, seat=seat.id, expect_version=table.version)
            taken += 1
        except RuleError:
            continue
    assert Table.replay(PROCEDURE, table.setup, table.log).state == table.state


def test_choices_offer_only_what_the_rules_allow() -> None:
    table = SYSTEM.new_table({"characters": {"bob": FIGHTER, "fred": FIGHTER, "down": {"hits": 0}}})
    (race,) = [c for c in table.legal_actions("bob") if c.kind == "race"]
    assert race.params["against"].to_json() == {"one_of": ["fred"]}  # not the unconscious
    (push,) = [c for c in table.legal_actions("bob") if c.kind == "push"]
    assert push.params["hits"].to_json() == {"between": [1, 20]}
    assert table.legal_actions("down") == ()
    dice = ScriptedSource([6, 6, 1, 1])
    table = table.act(Action("bob", "initiative", {"stance": "concentrate"}), dice)
    table = table.act(Action("fred", "initiative", {"stance": "maneuver"}), dice)
    (declare,) = [c for c in table.legal_actions("bob") if c.kind == "declare"]
    shapes = declare.params["actions"].to_json()["steps"]["any_of"]
    skills = set(shapes[ATTACK]["record"]["skill"]["one_of"])
    skills |= set(shapes[DEFEND]["record"]["defend"]["one_of"])
    skills |= set(shapes[TASK]["record"]["skill"]["one_of"])
    assert "striking" not in skills and "defense" not in skills  # concentrating: Int skills
    assert {"mahasu", "defiance"} <= skills
    assert [c.kind for c in table.legal_actions("fred")] == ["push", "race", "sneak"]
    assert table.procedure.actors(table.state) == ("bob",)


def test_a_pending_attack_offers_defend_and_take_with_their_odds() -> None:
    table = SYSTEM.new_table({"characters": {"bob": FIGHTER, "fred": FIGHTER}})
    dice = ScriptedSource([6, 6, 1, 1])
    table = table.act(Action("bob", "initiative", {"stance": "maneuver"}), dice)
    table = table.act(Action("fred", "initiative", {"stance": "maneuver"}), dice)
    table = table.act(Action("bob", "declare", {"actions": [{"attack": "fred"}]}), None)
    table = table.act(Action("bob", "act"), None)
    choices = {c.kind: c for c in observe(table, "fred").choices}
    assert set(choices) == {"defend", "take"}
    (defended,) = choices["defend"].odds
    assert (
        defended.dice == "2d6+7 vs 2d6+8" and defended.odds["success"] == "575/1296"
    )  # (1 - 146/1296) / 2
    (undefended,) = choices["take"].odds
    assert undefended.odds == {"success": "1", "failure": "0"}
    assert observe(table, "bob").previews == ()  # the odds are the target's and the referee's
    assert [p.dice for p in observe(table, "referee").previews] == [defended.dice, undefended.dice]
    assert observe(table, "fred").to_move == ("fred",)


def test_the_next_attack_shows_its_odds_before_it_is_made() -> None:
    table = SYSTEM.new_table({"characters": {"bob": FIGHTER, "fred": FIGHTER}})
    dice = ScriptedSource([6, 6, 1, 1])
    table = table.act(Action("bob", "initiative", {"stance": "maneuver"}), dice)
    table = table.act(Action("fred", "initiative", {"stance": "maneuver"}), dice)
    table = table.act(Action("fred", "declare", {"actions": [{"defend": True}]}), None)
    table = table.act(Action("bob", "declare", {"actions": [{"attack": "fred"}]}), None)
    (act,) = [c for c in table.legal_actions("bob") if c.kind == "act"]
    assert [o.label for o in act.odds] == [
        "Bob's striking against Fred's defense",
        "Bob's striking against Fred, undefended",
    ]
    assert act.odds[0].dice == "2d6+7 vs 2d6+8"


# -- the encounter as the scenario sets it up ------------------------------------------------------


def test_the_setup_gives_charge_momentum_and_each_characters_posture_hits_and_horse() -> None:
    """The Master's optional charge momentum ("Movement", off by default); each character as his
    sheet starts him: lying prone, on his horse or not, awake with even 1 hit left."""
    assert start({"bob": FIGHTER}, defence="cinematic").state.options.charge_momentum is False
    state = start(
        {
            "bob": {**FIGHTER, "prone": True, "hits": 1},
            "fred": {**FIGHTER, "mount": 30},
            "ann": {**FIGHTER, "mount": 30, "mounted": False},
        },
        charge_momentum=True,
    ).state
    assert state.options.charge_momentum is True
    bob, fred, ann = (state.fighters[w] for w in ("bob", "fred", "ann"))
    assert (bob.sheet.name, bob.prone, bob.conscious, bob.mounted) == ("bob", True, True, False)
    assert (fred.prone, fred.mounted, ann.mounted) == (False, True, False)


@pytest.mark.parametrize(
    "setup",
    [
        {"characters": {"bob": FIGHTER}, "options": {"luck": 1}},
        {"characters": {"bob": FIGHTER}, "luck": 1},
        {"characters": {}},
        {"characters": {"": FIGHTER}},
    ],
)
def test_a_setup_with_an_unknown_field_or_no_characters_is_refused(
    setup: dict[str, object],
) -> None:
    with pytest.raises(ScenarioError):
        encounter_from_setup(setup)
