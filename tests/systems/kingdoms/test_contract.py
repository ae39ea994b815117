"""Burning Kingdoms holds the table contract (issue 11): the catalogue in the text's words,
choices whose domains are taken or refused by a rule, roll cards, one narration, golden
``observe`` JSON per example and viewer, and no sealed slip in any other seat's view.

Regenerate the goldens with ``REGENERATE_GOLDEN=1 pytest tests/systems/kingdoms`` and read the
diff: only what the contract changed may change.
"""

from __future__ import annotations

import inspect
import json
import os
import random
import re
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
from referee.core.loader import load_file
from referee.core.scenario import load_scenario, run_scenario
from referee.dice import RandomSource, ScriptedSource
from referee.systems.kingdoms import PROCEDURE, SYSTEM
from referee.systems.kingdoms.actions import CATALOGUE, ManeuverName
from referee.systems.kingdoms.events import KINDS, describe
from referee.systems.kingdoms.resolution import MANEUVER_EFFECTS
from referee.systems.kingdoms.tables import MANEUVERS

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = sorted((ROOT / "examples" / "kingdoms").glob("*.yaml"))
GOLDEN = Path(__file__).parent / "golden"
RULES = Path("/work/shared/rules/burning-kingdoms.txt")
REGENERATE = bool(os.environ.get("REGENERATE_GOLDEN"))


# ------------------------------------------------------------------------------ catalogue


def test_the_catalogue_names_the_texts_sections() -> None:
    """Every action kind is a spec naming a section of the text, taken by a faction's seat."""
    assert SYSTEM.procedure.has_referee is False
    assert PROCEDURE.handlers is not None
    PROCEDURE.handlers.check(CATALOGUE)  # a handler for every kind, and for nothing else
    assert set(CATALOGUE) == set(PROCEDURE.handlers)
    sections = {
        "Prologues",
        "Chronicle Objective",
        "Structure of Play",
        "Maneuvering in the Chronicle",
        "Scene Economy",
        "Wound Recovery",
        "Spending Scenes",
        "Maneuver Resolution",
        "Independent and Versus Maneuvers",
        "Consequences",
        "Downtime",
    }
    assert {spec.section for spec in CATALOGUE.values()} <= sections
    if RULES.exists():
        headings = set(RULES.read_text(encoding="utf-8").splitlines())
        assert sections <= headings
    assert CATALOGUE["write_slip"].record == "actor"
    assert all(s.record == "everyone" for k, s in CATALOGUE.items() if k != "write_slip")


def test_the_maneuvers_are_one_list() -> None:
    """The parameter model's maneuvers, the data's and resolution's are the same eleven, and
    each maneuver's effect is a function named as the text names it."""
    assert ManeuverName.__args__ == MANEUVERS  # type: ignore[attr-defined]
    assert tuple(MANEUVER_EFFECTS) == MANEUVERS
    for name, effect in MANEUVER_EFFECTS.items():
        assert effect.__name__ == name.lower()
        assert f'"{name}"' in (inspect.getdoc(effect) or "")


@pytest.mark.parametrize(
    ("params", "path"),
    [
        ({"maneuver": "Fortify", "skils": "Logistics"}, "write_slip.skils"),
        ({"maneuver": "Fortify", "skill": "Logistics", "modifer": -4}, "write_slip.modifer"),
        ({"maneuver": "Fortify", "skill": 5}, "write_slip.skill"),
        ({"maneuver": "Fortify", "skill": "Logistics", "forks": "Tactics"}, "write_slip.forks"),
        ({"maneuver": "Fortify", "skill": "Logistics", "persona": True}, "write_slip.persona"),
        ({"maneuver": "Harry", "skill": "Law", "defence": 2.5}, "write_slip.defence"),
    ],
)
def test_a_malformed_slip_is_an_action_error_and_nothing_is_recorded(
    params: dict[str, Any], path: str
) -> None:
    """The kernel parses the parameters before the rules: nothing is logged or recorded."""
    table = SYSTEM.new_table(_setup())
    with pytest.raises(ActionError, match=rf"^{re.escape(path)}"):
        table.act(Action("elves", "write_slip", params), None, seat="elves")
    assert table.version == 1 and not table.actions


# ------------------------------------------------------------------------------ set-up


def _setup() -> dict[str, Any]:
    return {
        "territory": "the mountain",
        "strict_sheets": False,  # quick play: no 2iC or rivals needed here
        "factions": {
            "elves": {
                "disposition": 10,
                "leader": {"name": "Aeluin", "skills": {"Logistics": "B4"}},
            },
            "orcs": {"disposition": 9, "leader": {"name": "Gorbash", "skills": {"Tactics": "B4"}}},
        },
    }


@pytest.mark.parametrize(
    ("change", "path"),
    [
        (lambda s: s.update(teritory="x"), "teritory"),
        (lambda s: s["factions"]["elves"].update(dispositon=3), "factions.elves.dispositon"),
        (
            lambda s: s["factions"]["elves"]["leader"].update(skils={}),
            "factions.elves.leader.skils",
        ),
        (lambda s: s["factions"]["elves"].update(disposition="ten"), "factions.elves.disposition"),
        (lambda s: s["factions"]["elves"]["leader"].update(lifepaths="7"), "lifepaths"),
        (lambda s: s["factions"]["elves"]["leader"]["skills"].update(Tactics=[5]), "Tactics"),
        (lambda s: s.update(factions=[]), "factions"),
        (lambda s: s.update(prologue="yes"), "prologue"),
        (lambda s: s.update(players=10**40), "players"),
    ],
)
def test_a_setup_of_the_wrong_shape_is_refused_with_its_path(change: Any, path: str) -> None:
    """Through the registry and through the procedure alike: ScenarioError naming the path."""
    setup = _setup()
    change(setup)
    for start in (lambda: SYSTEM.new_table(setup), lambda: Table.start(PROCEDURE, setup)):
        with pytest.raises(ScenarioError) as error:
            start()
        assert path in str(error.value)


# ------------------------------------------------------------------------------ examples


def _seats(path: Path) -> list[str]:
    data = load_file(path)
    assert isinstance(data, dict)
    return sorted(data["players"])


def _viewers(path: Path) -> list[tuple[str, Viewer | str]]:
    return [
        ("whole-table", Viewer("referee")),
        *[(seat, seat) for seat in _seats(path)],
        ("stranger", Viewer("stranger")),
    ]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_golden_observe_per_viewer(path: Path) -> None:
    """``observe`` for the whole table, each player's seat and a stranger, as recorded."""
    table = run_scenario(load_scenario(path)).table
    for name, viewer in _viewers(path):
        seen = json.dumps(observe(table, viewer).to_json(), indent=1, sort_keys=True) + "\n"
        golden = GOLDEN / path.stem / f"{name}.json"
        if REGENERATE or not golden.exists():
            golden.parent.mkdir(parents=True, exist_ok=True)
            golden.write_text(seen, encoding="utf-8")
        assert seen == golden.read_text(encoding="utf-8"), f"{path.stem}: {name}"


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_roll_has_its_card_and_every_event_its_words(path: Path) -> None:
    """Each rolled test carries a roll card whose faces are the faces rolled; every kind is
    of the vocabulary and narrated in words."""
    table = run_scenario(load_scenario(path)).table
    rolled = {"prologue.rolled", "test.rolled", "health.tested", "maintenance.tested"}
    rolled |= {"artha.spent", "tie_break.rolled"}
    for event in table.log:
        assert event.kind in KINDS or event.kind.startswith(("clock.", "timer."))
        text = describe(event, Viewer("referee"))
        assert text and "{" not in text.split(" — ")[0], text
        cards = event_cards(event.data)
        if event.kind in rolled or event.data.get("kind") == "building":
            assert cards, event.kind
            for card in cards:
                assert card.rule and card.label
                assert card.faces or card.dice.startswith("0d6")  # Sapped to nothing
                if card.odds is not None:
                    assert sum(_fraction(p) for p in card.odds.values()) == 1


def _fraction(text: str) -> Any:
    from fractions import Fraction

    return Fraction(text)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_no_seat_sees_another_factions_slip_before_the_reveal(path: Path) -> None:
    """Step by step through each example: before the reveal, no seat but the writer's (nor
    a stranger) has a sealed slip in its raw ``observe`` JSON — not the slip, not the
    recorded action's parameters. After the reveal every seat sees every slip."""
    scenario = load_scenario(path)
    table = SYSTEM.new_table(scenario.setup, players=scenario.players)
    dice = scenario.dice.source()
    viewers = [*(s.id for s in table.seats), "stranger"]
    checked = 0
    for step in scenario.actions:
        assert step.action is not None and step.actor is not None
        seat = next(s.id for s in table.seats if step.actor in s.plays)
        table = table.act(Action(step.actor, step.action, step.params), dice, seat=seat)
        sealed = {
            f: slip for f, slip in table.state.slips.items() if table.state.phase == "maneuver"
        }
        earlier = json.dumps(
            [e.payload for e in table.log if e.kind == "slips.revealed"], ensure_ascii=False
        )
        for writer, slip in sealed.items():
            if json.dumps(slip.to_json(), ensure_ascii=False) in earlier:
                continue  # the same slip as one revealed in an earlier maneuver
            for viewer in viewers:
                if viewer != "stranger" and writer in table.seat(viewer).plays:
                    continue
                who: Viewer | str = Viewer(viewer) if viewer == "stranger" else viewer
                seen = observe(table, who)
                raw = json.dumps(seen.to_json(), ensure_ascii=False)
                assert json.dumps(slip.to_json(), ensure_ascii=False) not in raw
                for record in table.actions:
                    if record.kind == "write_slip" and record.actor == writer:
                        assert json.dumps(record.params, ensure_ascii=False) not in raw
                assert not any(
                    r["kind"] == "write_slip" and r["actor"] == writer for r in seen.actions
                )
                checked += 1
    assert checked > 0
    if any(e.kind == "slips.revealed" for e in table.log):
        for viewer in viewers:
            who = Viewer(viewer) if viewer == "stranger" else viewer
            seen = observe(table, who)
            revealed = [e for e in seen.events if e.kind == "slips.revealed"]
            assert revealed and revealed[-1].data["slips"]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_a_slip_written_is_recorded_for_its_writer_alone(path: Path) -> None:
    """The recorded ``write_slip`` action (its parameters) is seen by the writer's seat alone."""
    run = run_scenario(load_scenario(path))
    table = run.table
    for record in table.actions:
        if record.kind != "write_slip":
            continue
        for seat in table.seats:
            records = observe(table, seat.id).actions
            mine = record.actor in seat.plays
            visible = any(r["number"] == record.number for r in records)
            assert visible == mine or record.events[1] < record.events[0], (seat.id, record)
        assert not any(
            r["number"] == record.number for r in observe(table, Viewer("stranger")).actions
        )


# --------------------------------------------------------------------------- random play


def _random_setup() -> dict[str, Any]:
    from referee.systems.kingdoms.tables import maneuver

    factions = ("elves", "orcs", "dwarves")
    skills = {s: "B5" for m in MANEUVERS for s in maneuver(m).skills[:2]}
    return {
        "strict_sheets": False,  # quick play: no 2iC or rivals needed here
        "factions": {
            f: {
                "disposition": d,
                "leader": {
                    "name": f.title(),
                    "lifepaths": 6,
                    "skills": skills,
                    "stats": {"Will": "B4", "Health": "B4"},
                    "resources": 3,
                    "circles": 3,
                },
                "assessed": [o for o in factions if o != f],
                "infiltrated": {o: 0 for o in factions if o != f},
            }
            for f, d in zip(factions, (6, 7, 5), strict=True)
        },
    }


SETUPS = [(p.stem, load_file(p)) for p in EXAMPLES] + [
    ("every-maneuver", {"setup": _random_setup(), "players": {}})
]


@pytest.mark.parametrize(("stem", "data"), SETUPS, ids=[s for s, _ in SETUPS])
@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(seed=st.integers(0, 2**32))
def test_every_choice_is_taken_or_refused_by_a_rule(stem: str, data: Any, seed: int) -> None:
    """Random play from each example's setup, drawn from the choices ``observe`` offers each
    seat: every action is taken or refused with a RuleError (never an ActionError, a SeatError
    or anything else); replay is the fold; the record round-trips."""
    rng = random.Random(seed)
    dice = RandomSource(seed)
    table = system("kingdoms").new_table(data["setup"], players=data.get("players") or None)
    taken = 0
    for _ in range(60):
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
        except (ActionError, SeatError) as error:
            raise AssertionError(f"{seat.id} was offered {action}: {error}") from None
    assert Table.replay(PROCEDURE, table.setup, table.log).state == table.state
    assert SYSTEM.load(json.loads(json.dumps(table.to_record()))) == table


def test_whose_move_it_is() -> None:
    """Every standing faction has a slip to write; once all have passed, any may read."""
    table = SYSTEM.new_table(_setup())
    assert tuple(PROCEDURE.actors(table.state)) == ("elves", "orcs")
    assert [s.id for s in table.seats] == ["elves", "orcs"]
    table = table.act(
        Action("elves", "write_slip", {"maneuver": "Fortify", "skill": "Logistics"}), None
    )
    table = table.act(
        Action(
            "orcs", "write_slip", {"maneuver": "Fortify", "skill": "Tactics", "substitute": True}
        ),
        None,
    )
    for f in ("elves", "orcs"):
        table = table.act(Action(f, "pass"), None)
    kinds = {c.kind for c in PROCEDURE.legal_actions(table.state, "orcs")}
    assert "reveal" in kinds and "write_slip" in kinds
    table = table.act(Action("orcs", "reveal"), ScriptedSource([4] * 8))
    assert tuple(PROCEDURE.actors(table.state)) == ("orcs",)  # the reader resolves
    assert [c.kind for c in PROCEDURE.legal_actions(table.state, "elves")] == [
        "objective",
        "new_session",
    ]
