"""Tests that kill the mutants mutmut left alive in the kernel (issue 13, docs/kernel.md,
"Mutation testing")."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from referee.core import (
    GREY,
    REFEREE,
    REFEREE_ONLY,
    Action,
    Between,
    Catalogue,
    Choice,
    ObstacleCheck,
    OddsPreview,
    OneOf,
    RuleError,
    SeatError,
    SomeOf,
    Table,
    Text,
    Viewer,
    observe,
    preview,
)
from referee.core.cards import RollCard
from referee.core.clock import cancel_timer
from referee.core.errors import ScenarioError
from referee.core.events import Event, Log, only
from referee.core.fairness import (
    DICE_REVEALED,
    ZERO_SALT,
    DiceSeeds,
    Verification,
    draw_salt,
    fair_dice,
    reveal_params,
    seal,
    sealed_choices,
    unseal,
    verify,
)
from referee.core.loader import parse_text
from referee.core.scenario import (
    ExpectationResult,
    Scenario,
    _contains,
    load_scenario,
    parse_scenario,
    run_scenario,
    scenario_schema,
)
from referee.dice import RandomSource, ScriptedSource
from referee.dice.fairness import DerivedSource, combine_seeds, commit_choice, commitment
from referee.systems.intrigue import PROCEDURE as INTRIGUE

from .test_fairness import _redecided
from .test_table import SETUP, new_table
from .toy_procedure import PROCEDURE, RALLY, Toy, ToyState

COUNTESS: dict[str, Any] = {
    "start": "19:00",
    "characters": {
        "countess": {
            "name": "The Countess",
            "number": 40,
            "perception_envelopes": [{"id": "to-all", "to": "ALL", "target": 16, "contents": "x"}],
        },
        "twelve": {"name": "Miss Twelve", "number": 12, "skills": {"Perception": 3}},
    },
}


def test_the_referee_seat_moves_the_clock_and_the_record_names_it() -> None:
    """Only the referee's seat moves the game clock in a game that has one — and it does; the
    action record names the seat, the actor and the events the move made."""
    table = new_table()
    moved = table.advance(table.now + 60, seat=REFEREE)
    assert moved.now == table.now + 60
    record = moved.actions[-1]
    assert (record.seat, record.actor) == (REFEREE, REFEREE)
    assert record.events == (table.version + 1, moved.version)


def test_a_cancelled_timer_is_the_referees_by_default() -> None:
    """A timer is the referee's business unless its audience is given."""
    assert cancel_timer("alarm").audience == REFEREE_ONLY


# -- the dice actions' record and the odds preview (issue 13, round 2) --------------------------


def test_a_seats_own_dice_seed_is_recorded_as_that_seats_action() -> None:
    """The table record ("The table record", docs/kernel.md): a kernel dice action is recorded
    like any other — alice's ``seed_dice`` names her seat and her as its actor, its parameters,
    and the one event it made."""
    table = Table.start(
        PROCEDURE,
        SETUP,
        system="kernel_toy",
        players={"alice": ["scarface"]},
        dice=DiceSeeds.new(),
    )
    seeded = table.act(Action("alice", "seed_dice", {"seed": "lucky"}), None, seat="alice")
    record = seeded.actions[-1]
    assert (record.seat, record.actor, record.kind) == ("alice", "alice", "seed_dice")
    assert record.params == {"seed": "lucky"}
    assert record.events == (table.version + 1, seeded.version) == (seeded.version,) * 2


def test_a_preview_is_refused_to_a_seat_that_may_not_take_the_action() -> None:
    """One read path ("A seat that may not take it learns nothing of its odds"): a player's
    seat may not preview an action only the referee takes, even for the character it plays."""
    table = Table.start(INTRIGUE, COUNTESS, players={"ann": ["twelve"]})
    with pytest.raises(SeatError, match="only the referee may take 'admit'"):
        preview(
            table, "ann", Action("twelve", "admit", {"character": "twelve", "with": "countess"})
        )


def test_a_preview_is_the_odds_its_viewer_may_see() -> None:
    """One read path, ``preview``: the odds "as ``who`` may see them" — a Perception Check's
    odds per envelope are the referee's alone in Intrigue (they tell which envelopes a
    character carries; the player is shown her own total's chances); an onlooker with no seat
    is shown what the game shows everyone."""
    table = Table.start(INTRIGUE, COUNTESS, players={"ann": ["twelve"]})
    perceive = Action("twelve", "perceive", {"target": "countess"})
    assert preview(table, "referee", perceive)
    assert preview(table, "ann", perceive) != preview(table, "referee", perceive)
    toy = new_table()
    attack = Action("scarface", "attack", {"target": "krockin"})
    (shown,) = preview(toy, Viewer("onlooker"), attack)
    assert shown == preview(toy, REFEREE, attack)[0] and shown.label == "scarface attacks krockin"


# -- verifying the dice (fairness.verify) -------------------------------------------------------


def test_a_table_whose_dice_were_never_committed_does_not_verify() -> None:
    """Fair dice (docs/kernel.md): a record with no commitment proves nothing — verification
    says so and counts nothing as checked."""
    table = Table.start(PROCEDURE, SETUP, system="kernel_toy", players={"alice": ["scarface"]})
    found = verify(table)
    assert not found.ok
    assert found == Verification(0, 0, 0, ("this table's dice were never committed",), 0)


def test_verification_counts_every_action_and_face_it_checked() -> None:
    """Fair dice: after the reveal, each of the four attacks (two dice a side, four faces
    each) is recomputed from the revealed seed — 4 actions, 16 faces, none still sealed; the
    last of them too, from the seeds as they stood before it (under this fixed seed it makes
    one event, and a seat's own seed follows it at once)."""
    seeds = DiceSeeds("t-1", (bytes([1]) * 32,))
    table = Table.start(
        PROCEDURE, SETUP, system="kernel_toy", players={"alice": ["scarface"]}, dice=seeds
    )
    for actor, target in [("scarface", "krockin"), ("krockin", "scarface")] * 2:
        table = table.act(Action(actor, "attack", {"target": target}), fair_dice(table, seeds))
    # a seat's own seed right after it: it changes the dice of later actions, not of that one
    table = table.act(Action("alice", "seed_dice", {"seed": "late"}), None, seat="alice")
    params, _ = reveal_params(seeds)
    table = table.act(Action(REFEREE, "reveal_dice", params), None, seat=REFEREE)
    rolled = [a for a in table.actions if a.dice]
    assert rolled[-1].events == (8, 8)
    found = verify(table)
    assert found.ok and (found.checked, found.sealed) == (len(rolled), 0) == (4, 0)
    assert found.dice == sum(len(a.dice) for a in rolled) == 16


def test_verification_checks_the_dice_after_an_action_that_rolled_none() -> None:
    """Fair dice: "recompute every face of every action" — a seat's own seed, an action with
    no dice, comes first and the attacks after it are all still checked."""
    seeds = DiceSeeds.new()
    table = Table.start(
        PROCEDURE, SETUP, system="kernel_toy", players={"alice": ["scarface"]}, dice=seeds
    )
    table = table.act(Action("alice", "seed_dice", {"seed": "mine"}), None, seat="alice")
    for actor, target in [("scarface", "krockin"), ("krockin", "scarface")]:
        table = table.act(Action(actor, "attack", {"target": target}), fair_dice(table, seeds))
    params, _ = reveal_params(seeds)
    table = table.act(Action(REFEREE, "reveal_dice", params), None, seat=REFEREE)
    found = verify(table)
    assert found.ok and (found.checked, found.dice) == (2, 8)


def test_a_face_the_seed_does_not_give_is_named_with_the_events_it_made() -> None:
    """Fair dice: a face altered in a record is named with its action and every event that
    action made, and no other (a fixed seed, under which that attack makes two events)."""
    seeds = DiceSeeds("t-1", (bytes([3]) * 32,))
    table = Table.start(
        PROCEDURE, SETUP, system="kernel_toy", players={"alice": ["scarface"]}, dice=seeds
    )
    for actor, target in [("scarface", "krockin"), ("krockin", "scarface")] * 2:
        table = table.act(Action(actor, "attack", {"target": target}), fair_dice(table, seeds))
    params, _ = reveal_params(seeds)
    table = table.act(Action(REFEREE, "reveal_dice", params), None, seat=REFEREE)
    data = json.loads(json.dumps(table.to_record()))
    data["actions"][1]["dice"][2][1] = data["actions"][1]["dice"][2][1] % 6 + 1
    forged = Table.from_record(_redecided(data), PROCEDURE)
    (problem,) = verify(forged).problems
    first, last = forged.actions[1].events
    made = ", ".join(f"#{n} {forged.log.events[n - 1].kind}" for n in range(first, last + 1))
    assert (first, last) == (5, 6) and problem.endswith(f" — events {made}")


# -- sealed choices (fairness.sealed_choices) ---------------------------------------------------

SLIP: dict[str, Any] = {"maneuver": "Assault", "target": "orcs"}
"""The content of a sealed maneuver slip (docs/fairness.md, "Sealed choices")."""


def _sealed(choice: str, content: Any, salt: bytes = ZERO_SALT) -> Event:
    """The public event of a slip sealed in play, its salt the sealer's secret part."""
    public, secret = seal(choice, content, ScriptedSource([]), only("elves"))
    assert public["commitment"] == commit_choice(content, ZERO_SALT)
    if salt != ZERO_SALT:
        public = {"choice": choice, "commitment": commit_choice(content, salt)}
    return Event("slip.sealed", {"faction": "elves", "sealed": public}, secrets=(secret,))


def _revealed(*entries: Any) -> Event:
    return Event("slips.revealed", {"unsealed": list(entries)})


def _checked(*events: Event) -> tuple[int, tuple[str, ...]]:
    """``sealed_choices`` over these events as a log numbers them (from 1)."""
    return sealed_choices(tuple(Log().append(*events)))


def test_an_honest_reveal_matches_its_commitment() -> None:
    """Sealed choices (docs/fairness.md): the slip and salt revealed are the ones committed
    when it was sealed — each reveal is checked once, and none is a problem; an event between
    them that seals or reveals nothing changes nothing."""
    salt = ZERO_SALT.hex()
    found = _checked(
        _sealed("maneuver 1: elves", SLIP),
        Event("clock.advanced", {"to": 60}),
        _sealed("maneuver 1: orcs", {"maneuver": "Feint"}),
        _revealed(
            unseal("maneuver 1: elves", SLIP, salt),
            unseal("maneuver 1: orcs", {"maneuver": "Feint"}, salt),
        ),
    )
    assert found == (2, ())


def test_every_reveal_in_every_event_is_counted() -> None:
    """Sealed choices: two reveals in two events are two choices checked, not one."""
    salt = ZERO_SALT.hex()
    found = _checked(
        _sealed("plan a", SLIP),
        _sealed("plan b", [1, 2]),
        _revealed(unseal("plan a", SLIP, salt)),
        _revealed(unseal("plan b", [1, 2], salt)),
    )
    assert found == (2, ())


def test_a_choice_revealed_with_other_content_is_not_the_one_sealed() -> None:
    """Sealed choices: "an order changed after sealing would not match" — a slip revealed
    with another maneuver is named as not the choice that was sealed."""
    found = _checked(
        _sealed("maneuver 1: elves", SLIP),
        _revealed(unseal("maneuver 1: elves", {**SLIP, "maneuver": "Feint"}, ZERO_SALT.hex())),
    )
    assert found == (
        1,
        (
            "event 2: 'maneuver 1: elves' is not the choice that was sealed "
            "(its content or salt differs from the commitment)",
        ),
    )


def test_a_choice_revealed_with_another_salt_is_not_the_one_sealed() -> None:
    """Sealed choices: the commitment binds the salt too — the same slip revealed with
    another salt, or with a salt that is not hexadecimal, does not match."""
    other = bytes([7]) * 32
    for salt in (ZERO_SALT.hex(), "not hex"):
        found = _checked(_sealed("slip", SLIP, salt=other), _revealed(unseal("slip", SLIP, salt)))
        assert found == (
            1,
            (
                "event 2: 'slip' is not the choice that was sealed "
                "(its content or salt differs from the commitment)",
            ),
        )
    honest = _revealed(unseal("slip", SLIP, other.hex()))
    assert _checked(_sealed("slip", SLIP, salt=other), honest) == (1, ())


def test_a_choice_revealed_but_never_sealed_is_named_and_the_rest_still_checked() -> None:
    """Sealed choices: a reveal of a choice nobody sealed is a problem of its own, and the
    reveals after it in the same event are still checked (here one honest, one forged)."""
    found = _checked(
        _sealed("plan", SLIP),
        Event("noise", {"sealed": "not a mapping"}),
        _revealed(
            unseal("ghost", SLIP, ZERO_SALT.hex()),
            unseal("plan", SLIP, ZERO_SALT.hex()),
            unseal("plan", {"maneuver": "Feint"}, ZERO_SALT.hex()),
        ),
    )
    assert found == (
        3,
        (
            "event 3: 'ghost' is revealed but was never sealed",
            "event 3: 'plan' is not the choice that was sealed "
            "(its content or salt differs from the commitment)",
        ),
    )


def test_a_reveal_that_is_not_a_choice_is_skipped_and_the_rest_still_checked() -> None:
    """Sealed choices: an entry of a reveal that is not a choice at all (a bare word) is not
    counted, and the choices after it in that event are checked; a reveal that is one text
    rather than a list is no reveal."""
    found = _checked(
        _sealed("plan", SLIP),
        _revealed("junk", unseal("plan", {"maneuver": "Feint"}, ZERO_SALT.hex())),
        Event("slips.revealed", {"unsealed": "plan"}),
    )
    assert found == (
        1,
        (
            "event 2: 'plan' is not the choice that was sealed "
            "(its content or salt differs from the commitment)",
        ),
    )


def test_a_choice_sealed_again_is_checked_against_its_last_commitment() -> None:
    """Sealed choices: "the last, if it was sealed again" — a slip rewritten before the
    reveal is checked against its new commitment, not the first."""
    first = _sealed("plan", SLIP)
    again = _sealed("plan", {"maneuver": "Feint"})
    assert (
        _checked(first, again, _revealed(unseal("plan", {"maneuver": "Feint"}, ZERO_SALT.hex())))[1]
        == ()
    )
    assert _checked(first, again, _revealed(unseal("plan", SLIP, ZERO_SALT.hex())))[1] != ()


def test_a_choice_whose_content_is_null_is_checked_like_any_other() -> None:
    """Sealed choices: a sealed ``null`` (a plan of nothing) is revealed as ``null`` and
    matches; revealed as something else it does not."""
    assert _checked(_sealed("plan", None), _revealed(unseal("plan", None, ZERO_SALT.hex()))) == (
        1,
        (),
    )
    assert _checked(_sealed("plan", None), _revealed(unseal("plan", SLIP, ZERO_SALT.hex())))[1]


# -- where a file's bad value is (loader._where) and a roll card's line (RollCard.describe) -----


def test_a_refused_yaml_value_is_named_by_its_line_and_column() -> None:
    """The one file reader (docs/kernel.md, "Files: one loader with limits"): a hostile value
    is refused in one line naming the file and where the value starts, counted from 1 — here
    line 3, column 8, and a recursive alias where it starts; JSON's reader names no place."""
    with pytest.raises(ScenarioError) as info:
        parse_text("a: 1\nb:\n  c:   " + "9" * 40, "f.yaml")
    assert str(info.value) == "f.yaml: line 3, column 8: an integer of 40 digits (at most 30)"
    with pytest.raises(ScenarioError) as info:
        parse_text("a: 1\nb: &x [1, *x]", "f.yaml")
    assert str(info.value) == "f.yaml: line 2, column 4: an alias refers to itself"
    with pytest.raises(ScenarioError) as info:
        parse_text('{"n": ' + "9" * 40 + "}", "r.json")
    assert str(info.value) == "r.json: an integer of 40 digits (at most 30)"


def test_a_roll_cards_line_shows_the_roll_its_outcome_and_margin() -> None:
    """One roll card (docs/kernel.md, "One event vocabulary, one roll card"): a card's one
    line is its label, its dice, the roll as shown (else its faces, else "no dice"), its
    outcome and its signed margin."""
    card = RollCard("Krockin strikes", "", "3d6", None, (3, 4, 5), "failure", -3, 12)
    assert card.describe() == "Krockin strikes: 3d6: 3, 4, 5 → failure (margin -3)"
    shown = replace(card, shown="3d6 (3, 4, 5) = 12", margin=0, outcome="tie")
    assert shown.describe() == "Krockin strikes: 3d6: 3d6 (3, 4, 5) = 12 → tie (margin +0)"
    none = replace(card, faces=(), margin=2, outcome="success")
    assert none.describe() == "Krockin strikes: 3d6: no dice → success (margin +2)"


# -- scenario files (scenario.py) ----------------------------------------------------------------

TOY_SCENARIO = Path(__file__).parent / "scenarios" / "toy.yaml"


def test_a_contains_expectation_asks_what_the_value_holds() -> None:
    """Scenario files (docs/kernel.md): ``contains:`` asks that a list, text or object contain
    the value — text holds text (not a number), an object holds a key or every pair of a
    smaller object, a list holds an item; a number holds nothing."""
    assert _contains("Krockin is a Guild spy", "Guild")
    assert not _contains("Krockin is a Guild spy", "guild")
    assert not _contains("Krockin 7", 7)
    assert _contains({"wounds": 0, "skill": 1}, {"wounds": 0})
    assert not _contains({"wounds": 0, "skill": 1}, {"wounds": 1})
    assert not _contains({"wounds": 0}, {"wounds": 0, "skill": 1})
    assert _contains({"wounds": 0}, "wounds")
    assert not _contains({"wounds": 0}, "skill")
    assert _contains([1, 2], 2) and _contains((1,), 1)
    assert not _contains([1, 2], 3)
    assert not _contains(5, 5)


def test_the_scenario_schema_is_a_json_schema_of_its_draft() -> None:
    """Scenario files: ``referee schema`` is the scenario model's JSON Schema, declared as
    draft 2020-12 and titled for editors."""
    schema = scenario_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["title"] == "Referee scenario"
    rest = {k: v for k, v in schema.items() if k not in ("$schema", "title")}
    assert rest == {k: v for k, v in Scenario.model_json_schema().items() if k != "title"}


def test_a_scenario_run_shows_each_viewer_what_they_may_see() -> None:
    """Scenario files and visibility: a run's log as the referee sees it is all of it; a
    player sees as their characters too (alice plays scarface: krockin's envelope is hers to
    see, krockin's slip is not), and krockin sees neither scarface's envelope nor slip."""
    run = run_scenario(load_scenario(TOY_SCENARIO))
    everything = run.events()
    assert len(everything) == len(run.table.log) == 19
    assert not any(e.redacted for e in everything)
    alice = run.events("alice")
    assert len(alice) == 16
    assert [(e.number, e.redacted) for e in alice if e.redacted] == [(8, ("maneuver",))]
    krockin = run.events("krockin")
    assert len(krockin) == 13
    assert [(e.number, e.redacted) for e in krockin if e.redacted] == [
        (2, ("envelope",)),
        (7, ("maneuver",)),
    ]


def test_an_expectations_words_and_value_are_the_referees_alone() -> None:
    """Scenario files: an expectation's words may quote a secret, so another viewer learns
    only whether it held; the referee reads its words and the actual value."""
    result = ExpectationResult(1, "revealed equals {'scarface': 'feint'}", False, {"a": 1})
    assert result.to_json() == {
        "expect": 1,
        "description": "revealed equals {'scarface': 'feint'}",
        "passed": False,
        "actual": {"a": 1},
    }
    assert result.to_json(with_actual=False) == {"expect": 1, "passed": False}


# -- the preview of a game with no catalogue, and a dice action's parameters (table.py) --------

HOUR = 3600


class _AfterDark(Toy):
    """The toy game with an empty catalogue (the table parses nothing: a procedure reads the
    parameters as given), where a rally an hour or more into play faces an obstacle one
    higher — odds that read the time of the action."""

    catalogue = Catalogue()

    def odds_of(self, state: ToyState, action: Action, viewer: Viewer) -> Sequence[OddsPreview]:
        if action.kind == "rally":
            rally = RALLY.parse(action.params)
            dark = action.at is not None and action.at >= HOUR
            return (OddsPreview.of(_rally(rally.dice, rally.obstacle + dark), "a rally"),)
        return super().odds_of(state, action, viewer)


def _rally(dice: int, obstacle: int) -> ObstacleCheck:
    return ObstacleCheck(dice, obstacle, shade=GREY, open_ended=True)


def test_a_preview_is_of_the_action_as_given_and_at_the_tables_time() -> None:
    """One read path, ``preview``: the odds of the action "would roll now" — in a game with no
    catalogue its parameters as given, and the table's time now (after dark, Ob 3 for Ob 2)."""
    table = Table.start(_AfterDark(), SETUP, system="kernel_toy", players={"ann": ["scarface"]})
    rally = Action("scarface", "rally", {"dice": 2, "obstacle": 2})
    assert preview(table, "ann", rally) == (OddsPreview.of(_rally(2, 2), "a rally"),)
    dark = table.advance(HOUR)
    (shown,) = preview(dark, "ann", rally)
    assert shown == OddsPreview.of(_rally(2, 3), "a rally")
    assert shown.odds != OddsPreview.of(_rally(2, 2), "a rally").odds


def test_a_dice_action_whose_parameters_are_not_a_mapping_is_refused_by_the_kernel() -> None:
    """Fair dice (docs/fairness.md): a seat's seed is text of 1 to 200 characters — parameters
    that are not even a mapping are refused by that rule, as a refusal, not a crash."""
    table = Table.start(
        PROCEDURE, SETUP, system="kernel_toy", players={"alice": ["scarface"]}, dice=DiceSeeds.new()
    )
    bad = Action("alice", "seed_dice", ["lucky"])  # type: ignore[arg-type]
    with pytest.raises(RuleError, match="a seat's seed is text of 1 to 200 characters"):
        table.act(bad, None, seat="alice")


# -- verification of a record with sealed choices, and of a forged reveal (fairness.verify) ----


def test_verification_counts_the_sealed_choices_it_checked() -> None:
    """Fair play (docs/fairness.md): ``referee verify`` checks the revealed sealed choices as
    well as the dice — on a committed table, two choices revealed honestly are two checked, and
    the attack's four faces are checked after the seed's reveal."""
    seeds = DiceSeeds("t-1", (bytes([1]) * 32,))
    salt = ZERO_SALT.hex()
    preamble = [
        seeds.commitment_event(),
        _sealed("plan a", SLIP),
        _sealed("plan b", [1, 2]),
        _revealed(unseal("plan a", SLIP, salt), unseal("plan b", [1, 2], salt)),
    ]
    table = Table.start(
        PROCEDURE, SETUP, system="kernel_toy", players={"alice": ["scarface"]}, preamble=preamble
    )
    attack = Action("scarface", "attack", {"target": "krockin"})
    table = table.act(attack, fair_dice(table, seeds))
    params, _ = reveal_params(seeds)
    table = table.act(Action(REFEREE, "reveal_dice", params), None, seat=REFEREE)
    assert verify(table) == Verification(1, 0, 4, (), 2)


def test_a_revealed_seed_that_is_not_the_one_committed_is_named() -> None:
    """Fair dice: a record whose revealed seed is not the one committed for its epoch (a
    forged reveal) names that epoch."""
    seeds = DiceSeeds("t-1", (bytes([1]) * 32,))
    forged = Event(DICE_REVEALED, {"epoch": 0, "seed": (bytes([2]) * 32).hex()})
    table = Table.start(
        PROCEDURE,
        SETUP,
        system="kernel_toy",
        players={"alice": ["scarface"]},
        preamble=[seeds.commitment_event(), forged],
    )
    assert verify(table) == Verification(
        0, 0, 0, ("the seed revealed for epoch 0 is not the one committed",), 0
    )


# -- the domains of a choice (actions.py) and a step that must be refused (scenario.py) ---------


def test_a_choices_domains_hold_only_what_the_rules_allow() -> None:
    """Actions as values (docs/kernel.md, "the catalogue"): a domain holds only what the rules
    allow now — ``Between`` whole numbers from low to high inclusive (not a flag, not text),
    ``SomeOf`` distinct values of the domain from ``least`` to ``most`` of them (at most all
    of them unless told), ``OneOf`` its values, ``Text`` any text."""
    between = Between(1, 3)
    assert [between.contains(v) for v in (0, 1, 2, 3, 4)] == [False, True, True, True, False]
    assert not between.contains(True) and not between.contains("2") and not between.contains(2.0)
    some = SomeOf(("a", "b", "c"), least=1, most=2)
    assert some.contains(["a"]) and some.contains(["c", "a"])
    assert not some.contains([]) and not some.contains(["a", "b", "c"])
    assert not some.contains(["a", "a"]) and not some.contains(["a", "d"])
    assert not some.contains(("a",)) and not some.contains("a")
    every = SomeOf(("a", "b", "c"))
    assert every.contains([]) and every.contains(["a", "b", "c"])
    assert not every.contains(["a", "b", "c", "d"])
    assert OneOf(("north", "south")).contains("north")
    assert not OneOf(("north", "south")).contains("east")
    assert Text("hmm").contains("") and not Text("hmm").contains(3)


def test_a_choice_allows_an_action_only_with_every_parameter_in_its_domain() -> None:
    """Actions as values: ``Choice.allows`` — every parameter with a domain is given, and
    given a value inside it; others are free."""
    choice = Choice("scarface", "rally", {"dice": Between(1, 3), "mode": OneOf(("grey",))})
    assert choice.allows({"dice": 2, "mode": "grey"})
    assert choice.allows({"dice": 3, "mode": "grey", "note": "anything"})
    assert not choice.allows({"dice": 4, "mode": "grey"})
    assert not choice.allows({"dice": 2, "mode": "white"})
    assert not choice.allows({"dice": 2})
    assert not choice.allows({"mode": "grey"})
    assert Choice("scarface", "rally").allows({})


def _toy_scenario(*steps: dict[str, Any]) -> Scenario:
    return parse_scenario(
        {"system": "kernel_toy", "setup": SETUP, "dice": {"script": [6] * 12}, "actions": steps}
    )


def test_a_step_that_must_be_refused_is_refused_by_that_rule() -> None:
    """Scenario files: ``refused: RULE`` — the step must be refused by the rule whose name (or
    reason) contains it, any case; then nothing changes and the run goes on. Refused by
    another rule, or allowed, the scenario is wrong: the error names the step's ``refused``
    field (``actions.<i>.refused``) once, not wrapped again as ``actions.<i>: step <i>: …``."""
    perceive = {"actor": "scarface", "action": "perceive", "params": {"target": "krockin"}}
    run = run_scenario(
        _toy_scenario(
            perceive, {**perceive, "refused": "PERCEPTION"}, {**perceive, "refused": "cooldown"}
        )
    )
    assert [a.kind for a in run.table.actions] == ["perceive"]
    with pytest.raises(ScenarioError) as info:
        run_scenario(_toy_scenario(perceive, {**perceive, "refused": "toy: attack"}))
    assert info.value.path == ("actions", 1, "refused")
    assert str(info.value) == (
        "actions.1.refused: step 1 (scarface: perceive) was refused by another rule: "
        "Toy: perception cooldown: scarface perceived krockin less than 15 minutes ago"
    )
    with pytest.raises(ScenarioError) as info:
        run_scenario(_toy_scenario({**perceive, "refused": "cooldown"}))
    assert info.value.path == ("actions", 0, "refused")
    assert str(info.value) == (
        "actions.0.refused: step 0 (scarface: perceive) was allowed, but should be refused by "
        "'cooldown'"
    )


# -- the kernel's dice actions and the dice seeds (fairness.py) ---------------------------------


def _fair_toy(seeds: DiceSeeds) -> Table[Any]:
    return Table.start(
        PROCEDURE, SETUP, system="kernel_toy", players={"alice": ["scarface"]}, dice=seeds
    )


def test_a_seats_own_seed_is_text_of_1_to_200_characters() -> None:
    """Fair dice (docs/fairness.md, "Where it is done": a seat mixes in a seed of its own,
    ``seed_dice``): a seed of 1 or 200 characters is taken; none, or 201, is refused."""
    table = _fair_toy(DiceSeeds.new())
    for text in ("x", "y" * 200):
        seeded = table.act(Action("alice", "seed_dice", {"seed": text}), None, seat="alice")
        assert seeded.log[-1].data == {"seat": "alice", "seed": text}
    for text in ("", "y" * 201):
        with pytest.raises(RuleError, match="a seat's seed is text of 1 to 200 characters"):
            table.act(Action("alice", "seed_dice", {"seed": text}), None, seat="alice")


def test_a_reveal_commits_the_next_epochs_seed_in_the_same_breath() -> None:
    """Fair dice: ``reveal_dice`` publishes epoch 0's seed and commits epoch 1's — the next
    commitment is 64 hexadecimal digits, for epoch 1 of this table, under the same scheme."""
    seeds = DiceSeeds("t-1", (bytes([1]) * 32,))
    table = _fair_toy(seeds)
    params, after = reveal_params(seeds)
    with pytest.raises(RuleError, match="the next epoch's commitment is 64 hexadecimal digits"):
        table.act(Action(REFEREE, "reveal_dice", {**params, "next": "ab" * 31}), None)
    revealed = table.act(Action(REFEREE, "reveal_dice", params), None, seat=REFEREE)
    first = revealed.log[-2]
    assert (first.kind, first.data) == (DICE_REVEALED, {"epoch": 0, "seed": seeds.current.hex()})
    assert revealed.log[-1].data == after.commitment_event().data
    assert revealed.log[-1].data == {
        "table": "t-1",
        "epoch": 1,
        "commitment": commitment(after.current),
        "scheme": "referee/die/v1",
    }
    assert fair_dice(revealed, after) is not None


def test_the_seeds_of_an_epoch_already_revealed_do_not_roll_the_next() -> None:
    """Fair dice: after a reveal the table's dice come from the next epoch's seed; the seeds
    kept from before it (one epoch short) are refused as not this table's, never read past
    their end."""
    seeds = DiceSeeds("t-1", (bytes([1]) * 32,))
    params, _ = reveal_params(seeds)
    table = _fair_toy(seeds).act(Action(REFEREE, "reveal_dice", params), None, seat=REFEREE)
    with pytest.raises(RuleError, match="not the ones this table committed to"):
        fair_dice(table, seeds)


def test_dice_seeds_are_a_tables_id_and_32_byte_seeds() -> None:
    """Fair dice: the keeper's seeds read back are a table's id (text) and one 32-byte seed per
    epoch; the next epoch's seeds keep the table's id."""
    seeds = DiceSeeds("t-1", (bytes([1]) * 32,))
    assert seeds.next_epoch().table == "t-1" and seeds.next_epoch().epoch == 1
    for bad in (
        {"table": "t-1", "seeds": ["ab" * 31]},
        {"table": 5, "seeds": ["ab" * 32]},
        {"table": "t-1", "seeds": []},
    ):
        with pytest.raises(ScenarioError, match="not a table's dice seeds"):
            DiceSeeds.from_json(bad)
    assert DiceSeeds.from_json({"table": "t-1", "seeds": ["01" * 32]}) == seeds


def test_every_seats_own_seed_is_mixed_into_the_dice_of_later_actions() -> None:
    """Fair dice (docs/fairness.md, "The table"): the faces of action ``n`` come from the
    epoch's seed mixed with every seed a seat has supplied — alice's and bob's, each under its
    own seat — so neither the keeper nor one player alone chooses them."""
    seeds = DiceSeeds("t-1", (bytes([1]) * 32,))
    table = Table.start(
        PROCEDURE,
        SETUP,
        system="kernel_toy",
        players={"alice": ["scarface"], "bob": ["krockin"]},
        dice=seeds,
    )
    table = table.act(Action("alice", "seed_dice", {"seed": "lucky"}), None, seat="alice")
    table = table.act(Action("bob", "seed_dice", {"seed": "charm"}), None, seat="bob")
    mixed = {"alice": b"lucky", "bob": b"charm"}
    assert dict(table.ledger.seat_seeds) == mixed
    dice = fair_dice(table, seeds)
    expected = DerivedSource(combine_seeds(seeds.current, mixed), "t-1", 3)
    unmixed = DerivedSource(combine_seeds(seeds.current, {}), "t-1", 3)
    faces = [dice.roll(20) for _ in range(8)]
    assert faces == [expected.roll(20) for _ in range(8)]
    assert faces != [unmixed.roll(20) for _ in range(8)]


def test_a_tables_dice_commitment_names_its_table_epoch_and_scheme() -> None:
    """Fair dice: the first public event commits to epoch 0's seed, naming the table and the
    derivation (``referee/die/v1``), for everyone."""
    seeds = DiceSeeds("t-1", (bytes([1]) * 32,))
    event = seeds.commitment_event()
    assert event.audience.everyone
    assert event.data == {
        "table": "t-1",
        "epoch": 0,
        "commitment": commitment(bytes([1]) * 32),
        "scheme": "referee/die/v1",
    }


def test_a_step_that_must_be_refused_is_tried_at_its_own_time_and_matched_on_its_reason() -> None:
    """Scenario files: a ``refused:`` step with ``at:`` is tried at that time — fifteen minutes
    on, the perception's cooldown is over, so the step is allowed and the scenario is wrong;
    ``refused:`` matches the refusal's reason too, in any case ("less than 15 minutes")."""
    perceive = {"actor": "scarface", "action": "perceive", "params": {"target": "krockin"}}
    later = {**perceive, "at": "+15m", "refused": "cooldown"}
    with pytest.raises(ScenarioError) as info:
        run_scenario(_toy_scenario(perceive, later))
    assert str(info.value) == (
        "actions.1.refused: step 1 (scarface: perceive) was allowed, but should be refused by "
        "'cooldown'"
    )
    run = run_scenario(_toy_scenario(perceive, {**perceive, "refused": "less than 15 MINUTES"}))
    assert [a.kind for a in run.table.actions] == ["perceive"]


def test_a_clock_step_the_rules_refuse_is_named_by_its_number_alone() -> None:
    """Scenario files: a step that only moves the clock, refused (back in time), is named
    ``step <i>`` with no actor or action: it has none."""
    with pytest.raises(ScenarioError) as info:
        run_scenario(_toy_scenario({"at": 600}, {"at": 60}))
    assert info.value.path == ("actions", 1)
    assert str(info.value) == (
        "actions.1: step 1 refused: Clock: game time cannot go back from 600s to 60s"
    )


def test_a_scenario_is_played_with_the_procedure_it_is_given() -> None:
    """Scenario files: ``run_scenario(scenario, procedure)`` plays the given procedure, not the
    registry's game of that name (a test's variant of a game)."""
    after_dark = _AfterDark()
    run = run_scenario(_toy_scenario({"at": HOUR}), after_dark)
    assert run.table.procedure is after_dark
    assert run_scenario(_toy_scenario({"at": HOUR})).table.procedure is not after_dark


def test_a_choice_sealed_with_real_dice_has_a_fresh_secret_salt() -> None:
    """Sealed choices (docs/fairness.md, "a fresh salt for every sealed choice keeps two equal
    choices from having equal" commitments): with a real table's dice (fair or random) the salt
    is 32 bytes from the CSPRNG — never the zero salt of scripted dice, which would let anyone
    find one of five maneuvers by trying each — and only the sealer (and the referee) sees it."""
    for dice in (RandomSource(1), DerivedSource(bytes(32), "t-1", 1)):
        public, secret = seal("plan", SLIP, dice, only("moll"))
        salt = bytes.fromhex(str(secret.value))
        assert len(salt) == 32 and salt != ZERO_SALT
        assert public == {"choice": "plan", "commitment": commit_choice(SLIP, salt)}
        assert (secret.name, secret.audience) == ("salt", only("moll"))
    assert draw_salt(RandomSource(1)) != draw_salt(RandomSource(1))
    assert draw_salt(None) == draw_salt(ScriptedSource([])) == ZERO_SALT


def test_the_clocks_move_is_narrated_on_the_tables_own_wall_clock() -> None:
    """Clock (docs/kernel.md): game time is seconds since the start of play, shown on the
    table's wall clock — fifteen minutes into an evening that starts at 19:00 is 19:15."""
    table = Table.start(
        PROCEDURE, SETUP, system="kernel_toy", players={"alice": ["scarface"]}, start="19:00"
    ).advance(15 * 60)
    seen = observe(table, "alice", since=table.version - 1)
    assert seen.narration == ("The clock moves on to 19:15.",)
