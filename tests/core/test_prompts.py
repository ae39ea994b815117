"""Prompts: a game stops mid-procedure and waits for a seat to decide (DESIGN.md, "The table
contract"); and results: when a game or a conflict is over, and who won.

Played on the example game's duel (``examples/toy-game``, the game ``toy``): an attack asks
its target, in a secret blocking prompt, to parry or dodge.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from referee.core import (
    REFEREE,
    Action,
    Choice,
    Procedure,
    Prompt,
    Result,
    RuleError,
    Table,
    observe,
)
from referee.core.events import Viewer
from referee.core.prompts import (
    Waiting,
    check_prompts,
    open_choices,
    prompts_seen_by,
    waits_of,
)
from referee.dice import RandomSource, ScriptedSource
from referee_toy.duel import Duel

from .helpers import UNDECIDED

PROCEDURE = Duel()
PLAYERS = {"ann": ["ann"], "bob": ["bob"], "cat": ["cat"]}
SETUP: dict[str, Any] = {"duellists": {"ann": {}, "bob": {}, "cat": {}}}
REASON = "ann attacks bob with the sabre: parry or dodge"


def new_duel() -> Table[Any]:
    return Table.start(PROCEDURE, SETUP, system="toy", players=PLAYERS)


def attacked() -> Table[Any]:
    """Ann's plan: attack Bob with the sabre, then guard high."""
    plan = [{"attack": "bob", "weapon": "sabre"}, {"guard": "high"}]
    return new_duel().act(Action("ann", "declare", {"plan": plan}), None, seat="ann")


def test_an_attack_stops_the_duel_and_asks_its_target() -> None:
    table = attacked()
    (prompt,) = table.prompts()
    assert (prompt.actor, prompt.kinds, prompt.reason) == ("bob", ("defend",), REASON)
    assert prompt.section == "Duel: defending" and prompt.blocking
    assert prompt.cause == table.version - 0  # the attack's event raised it
    assert table.log[prompt.cause - 1].kind == "attack.declared"
    assert table.to_move() == ("bob",)
    # only the prompted seat decides, and only what answers the prompt
    assert [c.kind for c in table.legal_actions("bob")] == ["defend"]
    assert all(c.prompt for c in table.legal_actions("bob"))
    assert table.legal_actions("ann") == () and table.legal_actions("cat") == ()


def test_while_a_prompt_waits_nobody_else_acts_and_the_table_is_unchanged() -> None:
    table = attacked()
    with pytest.raises(RuleError, match="waits for bob to decide: " + REASON):
        table.act(Action("ann", "concede"), None, seat="ann")
    with pytest.raises(RuleError, match="Duel: defending"):
        table.act(Action("cat", "concede"), None, seat="cat")
    assert table.prompts() and table.version == attacked().version


def test_the_prompted_seat_answers_and_the_duel_goes_on() -> None:
    # ann's sabre 1 + 6 + 6 against bob's agility 1 + 1 + 1: a wound; then it is bob's turn
    table = attacked().act(
        Action("bob", "defend", {"defence": "dodge", "skill": "agility"}),
        ScriptedSource([6, 6, 1, 1]),
        seat="bob",
    )
    assert table.prompts() == ()
    assert [e.kind for e in table.log][-3:] == ["defence.rolled", "wound.taken", "turn.passed"]
    assert table.to_move() == ("bob",)
    assert {c.kind for c in table.legal_actions("bob")} == {"declare", "concede"}


def test_a_prompt_in_json_says_who_decides_what_why_and_whether_others_wait() -> None:
    (prompt,) = attacked().prompts()
    assert prompt.to_json() == {
        "actor": "bob",
        "kinds": ["defend"],
        "section": "Duel: defending",
        "reason": REASON,
        "cause": 2,
        "default": {"kind": "defend", "params": {"defence": "dodge", "skill": "agility"}},
        "blocking": True,
        "secret": True,
    }


def test_declining_takes_the_default_the_text_gives() -> None:
    table = attacked()
    (prompt,) = table.prompts()
    assert prompt.default == Action("bob", "defend", {"defence": "dodge", "skill": "agility"})
    assert prompt.to_json()["default"] == {
        "kind": "defend",
        "params": {"defence": "dodge", "skill": "agility"},
    }
    answered = table.act(prompt.default, ScriptedSource([1, 1, 6, 6]), seat="bob")
    assert answered.prompts() == ()


def test_a_prompt_is_part_of_the_record_replay_undo_and_export() -> None:
    table = attacked()
    answered = table.act(
        Action("bob", "defend", {"defence": "parry", "skill": "dagger"}),
        ScriptedSource([3, 3, 3, 3]),
        seat="bob",
    )
    assert answered.undo().prompts() == table.prompts()
    record = json.loads(json.dumps(table.to_record()))
    assert Table.from_record(record, PROCEDURE).prompts() == table.prompts()
    assert Table.replay(PROCEDURE, SETUP, table.log).state == table.state


def test_a_secret_prompt_is_seen_by_its_seat_and_the_referee_only() -> None:
    table = attacked()
    for seat, sees in (("bob", True), ("referee", True), ("ann", False), ("cat", False)):
        seen = observe(table, seat)
        raw = json.dumps(seen.to_json())
        assert (REASON in raw) is sees, seat
        assert [p.actor for p in seen.prompts] == (["bob"] if sees else [])
    bob = observe(table, "bob").to_json()
    assert bob["prompts"][0]["kinds"] == ["defend"]
    assert [c["prompt"] for c in bob["choices"]] == [True]
    assert observe(table, "ann").to_json()["choices"] == []


def test_a_dependent_field_offers_the_skills_of_the_defence_chosen() -> None:
    (choice,) = attacked().legal_actions("bob")
    assert choice.allows({"defence": "parry", "skill": "dagger"})
    assert not choice.allows({"defence": "dodge", "skill": "dagger"})
    assert choice.to_json()["params"]["skill"] == {
        "depends": "defence",
        "cases": [
            ["parry", {"one_of": ["sabre", "dagger"]}],
            ["dodge", {"one_of": ["agility"]}],
        ],
    }
    with pytest.raises(RuleError, match="a dodge is not made with dagger"):
        attacked().act(
            Action("bob", "defend", {"defence": "dodge", "skill": "dagger"}),
            ScriptedSource([1, 1, 1, 1]),
            seat="bob",
        )


def test_a_plan_is_built_step_by_step_not_picked_from_a_menu() -> None:
    (declare, _) = new_duel().legal_actions("ann")
    plan = declare.params["plan"]
    data = plan.to_json()
    assert (data["least"], data["most"]) == (1, 3)
    assert set(data["steps"]["any_of"]) == {"attack", "guard", "move"}
    assert data["steps"]["any_of"]["attack"]["record"]["attack"] == {"one_of": ["bob", "cat"]}
    assert declare.allows({"plan": [{"move": 2}, {"attack": "cat", "weapon": "dagger"}]})
    assert not declare.allows({"plan": []})
    assert not declare.allows({"plan": [{"move": 4}]})
    assert not declare.allows({"plan": [{"attack": "ann", "weapon": "sabre"}]})
    assert not declare.allows({"plan": [{"guard": "high", "move": 1}]})


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_every_sampled_plan_is_allowed_and_accepted(seed: int) -> None:
    table = new_duel()
    rng = random.Random(seed)
    for choice in table.legal_actions("ann"):
        action = choice.sample(rng)
        assert choice.allows(dict(action.params))
        table.act(action, RandomSource(seed), seat="ann")  # never refused


def test_random_play_answers_every_prompt_and_ends_the_duel() -> None:
    for seed in range(20):
        rng, dice = random.Random(seed), RandomSource(seed)
        table = new_duel()
        for _ in range(400):
            if table.result().over:
                break
            seats = [s for s in table.seats if observe(table, s.id).choices]
            seat = rng.choice(seats)
            waiting = {p.actor for p in table.prompts() if p.blocking}
            if waiting:  # only a prompted seat has anything to choose
                assert {s.id for s in seats} <= waiting | {"referee"}
            choice = rng.choice(observe(table, seat.id).choices)
            table = table.act(choice.sample(rng), dice, seat=seat.id)
        result = table.result()
        standing = {n for n, d in table.state.duellists if d.standing}
        assert result.over and set(result.winners) <= standing, seed
        assert table.prompts() == ()  # every prompt was answered
        assert table.conflict() == result


def test_the_result_says_who_won_in_the_observation() -> None:
    table = new_duel().act(Action("ann", "concede"), None, seat="ann")
    assert table.result() == Result(
        "the duel",
        over=True,
        winners=("bob", "cat"),
        summary="bob and cat stands",
        returns=(("ann", -1), ("bob", 1), ("cat", 1)),
    )
    seen = observe(table, "cat").to_json()["result"]
    assert seen["over"] and seen["winners"] == ["bob", "cat"]
    assert seen["conflict"]["name"] == "the duel"
    assert seen["returns"] == {"ann": -1, "bob": 1, "cat": 1}
    assert observe(table, "cat").choices == ()


def test_a_game_without_prompts_or_result_keeps_the_defaults() -> None:
    from tests.core.toy_procedure import PROCEDURE as TOY

    table = Table.start(TOY, {}, system="kernel_toy")
    assert table.prompts() == () and table.conflict() is None
    assert table.result() == Result("the game")
    data = observe(table, "referee").to_json()
    assert data["prompts"] == []
    assert data["result"] == UNDECIDED


def test_a_prompt_names_what_answers_it() -> None:
    with pytest.raises(ValueError, match="names the action kinds"):
        Prompt("bob", (), "s", "r")
    with pytest.raises(ValueError, match="does not answer"):
        Prompt("bob", ("defend",), "s", "r", default=Action("bob", "flee"))


def test_table_actions_shows_the_prompt_first(tmp_path: Any) -> None:
    from referee.cli import app

    record = tmp_path / "duel.json"
    record.write_text(json.dumps(attacked().to_record()), "utf-8")
    out = CliRunner().invoke(app, ["table", "actions", str(record), "--as", "bob"])
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert lines[0] == f"DECIDE — bob: {REASON}  (Duel: defending; everyone waits)"
    assert lines[1] == "    answer with: defend"
    assert lines[2] == '    if declined: defend {"defence": "dodge", "skill": "agility"}'
    assert "[answers a prompt]" in lines[3]
    assert "skill = by defence (" in out.output
    ann = CliRunner().invoke(app, ["table", "actions", str(record), "--as", "ann"])
    assert REASON not in ann.output and "Nothing for ann to do now (to move: bob)" in ann.output


def test_a_seat_with_nothing_to_do_is_told_why_and_until_when() -> None:
    table = attacked()
    ann = observe(table, "ann").to_json()
    assert ann["choices"] == []
    # bob's prompt is secret: ann learns the table waits for him, not what he is asked
    assert ann["waiting"] == [
        {
            "actor": "ann",
            "reason": "the table waits for bob to decide",
            "until": "until it is answered",
            "section": "",
        }
    ]
    assert REASON not in json.dumps(ann)
    assert observe(table, "bob").to_json()["waiting"] == []  # he has a choice
    assert observe(table, "referee").to_json()["waiting"] == []  # the referee acts for all
    answered = table.act(
        Action("bob", "defend", {"defence": "dodge", "skill": "agility"}),
        ScriptedSource([6, 6, 1, 1]),
        seat="bob",
    )
    (cat,) = observe(answered, "cat").to_json()["waiting"]
    assert cat["reason"] == "it is bob's move" and cat["until"] == "until they have acted"


def test_the_game_says_why_a_seat_waits_where_it_knows_better() -> None:
    from referee.core import Waiting

    class Knocked(Duel):
        def waiting(self, state: Any, actor: str) -> Waiting | None:
            return Waiting(actor, f"{actor} is knocked out", "until 19:40", "Damage")

    table = Table.start(Knocked(), SETUP, system="toy", players=PLAYERS)
    (ann,) = observe(
        table.act(Action("ann", "declare", {"plan": [{"guard": "high"}]}), None, seat="ann"), "ann"
    ).to_json()["waiting"]
    assert ann == {
        "actor": "ann",
        "reason": "ann is knocked out",
        "until": "until 19:40",
        "section": "Damage",
    }


def test_a_seat_waiting_is_not_told_of_anothers_secret_prompt() -> None:
    """Bob is asked something secret that blocks nobody (an envelope to open): Cat, waiting,
    is told whose move it is, and Bob is not named in it, nor in whose move it is."""

    class Secretly(Duel):
        def prompts(self, state: Any) -> tuple[Prompt, ...]:
            secret = Prompt("bob", ("concede",), "Envelopes", "open it", blocking=False)
            return (*super().prompts(state), replace(secret, secret=True))

    table = Table.start(Secretly(), SETUP, system="toy", players=PLAYERS)
    cat = observe(table, "cat").to_json()
    assert "bob" not in cat["to_move"] and cat["prompts"] == []
    (waiting,) = cat["waiting"]
    assert waiting["reason"] == "it is ann's move"
    assert "bob" in observe(table, "referee").to_json()["to_move"]


# -- what a seat with nothing to do is told, from the kernel's own words -------------------------


class _Room(Procedure[int]):
    """Whose move it is, what is asked and what the game says of a wait are set by each test;
    the game's own word on a wait names the state it was asked about."""

    def __init__(
        self,
        movers: tuple[str, ...] = (),
        asked: tuple[Prompt, ...] = (),
        says: tuple[str, ...] = (),
    ) -> None:
        self.movers, self.asked, self.says = movers, asked, says

    def initial_state(self, setup: Any) -> int:
        return 7

    def actors(self, state: int) -> tuple[str, ...]:
        return self.movers

    def prompts(self, state: int) -> tuple[Prompt, ...]:
        return self.asked

    def legal_actions(self, state: int, actor: str) -> tuple[Choice, ...]:
        return ()

    def evolve(self, state: int, event: Any) -> int:
        return state

    def waiting(self, state: int, actor: str) -> Waiting | None:
        return Waiting(actor, f"{actor} sleeps at {state}") if actor in self.says else None


def _waits(room: _Room, viewer: Viewer, acting: tuple[str, ...] = ()) -> tuple[Waiting, ...]:
    return waits_of(room, 7, viewer, prompts_seen_by(room, 7, viewer), acting)


PLAYS_THREE = Viewer("pat", frozenset({"cat", "ann", "dan"}))


def test_each_character_a_seat_plays_without_a_choice_is_told_why_it_waits() -> None:
    """In the order of their names, those with a choice left out; the game's word first."""
    room = _Room(movers=("bob",), says=("dan",))
    assert _waits(room, PLAYS_THREE, acting=("ann",)) == (
        Waiting("cat", "it is bob's move", "until they have acted"),
        Waiting("dan", "dan sleeps at 7"),
    )
    assert _waits(room, Viewer(REFEREE)) == ()


def test_a_seat_waiting_for_a_prompt_it_may_see_is_told_what_is_asked_and_where() -> None:
    asked = (
        Prompt("bob", ("defend",), "Duel: defending", "ann attacks bob"),
        Prompt("eve", ("defend",), "Duel: defending", "ann attacks eve"),
        Prompt("bob", ("yield",), "Duel: yielding", "yield?"),
    )
    ann, _, _ = _waits(_Room(movers=("ann",), asked=asked), PLAYS_THREE)
    assert ann == Waiting(
        "ann",
        "the table waits for bob, eve to decide: ann attacks bob",
        "until it is answered",
        "Duel: defending",
    )
    assert [w.actor for w in _waits(_Room(asked=asked), PLAYS_THREE)] == ["ann", "cat", "dan"]


def test_a_seat_told_whose_move_it_is_hears_every_mover_but_itself() -> None:
    room = _Room(movers=("bob", "cat", "eve", "fay"))
    ann, cat, dan = _waits(room, PLAYS_THREE)
    assert ann == Waiting("ann", "bob, cat, eve and fay are to move", "until they have acted")
    assert cat == Waiting("cat", "bob, eve and fay are to move", "until they have acted")
    assert dan.reason == ann.reason
    two = _waits(_Room(movers=("bob", "eve")), PLAYS_THREE)
    assert two[0] == Waiting("ann", "bob and eve are to move", "until they have acted")


def test_a_seat_with_no_one_to_wait_for_is_told_nothing_is_open() -> None:
    alone = _waits(_Room(movers=("cat",)), Viewer("cat", frozenset({"cat"})))
    assert alone == (Waiting("cat", "nothing is open to you now"),)


class _Offering(_Room):
    """The same room, whose game offers every character a defence, a yield and a dance
    whatever is asked: the kernel keeps the choices to the prompts."""

    def legal_actions(self, state: int, actor: str) -> tuple[Choice, ...]:
        return tuple(Choice(actor, kind) for kind in ("dance", "defend", "yield"))


def test_while_a_blocking_prompt_waits_only_its_answers_are_open_and_only_to_its_actor() -> None:
    room = _Offering(movers=("ann",), asked=(Prompt("bob", ("defend",), "Duel", "defend!"),))
    assert open_choices(room, 7, "bob") == (Choice("bob", "defend", prompt=True),)
    assert open_choices(room, 7, "ann") == ()


def test_an_open_prompts_answers_come_first_and_the_rest_stay_open() -> None:
    """A prompt that blocks nobody: its actor's answers come first, marked; the others'
    choices are theirs as the game offers them."""
    asked = (Prompt("bob", ("yield",), "Duel", "yield?", blocking=False),)
    room = _Offering(movers=("ann", "bob"), asked=asked)
    assert open_choices(room, 7, "bob") == (
        Choice("bob", "yield", prompt=True),
        Choice("bob", "dance"),
        Choice("bob", "defend"),
    )
    assert open_choices(room, 7, "ann") == room.legal_actions(7, "ann")


def test_an_observation_offers_first_the_choices_of_those_an_open_prompt_asks() -> None:
    """One read path (``observe``): of the characters a seat may act for, those an open prompt
    asks (each of them to move for it) come first in its choices, before the game's own
    order of the move; the referee's own choices come after everyone's."""
    asked = tuple(
        Prompt(who, ("yield",), "Duel", "yield?", blocking=False) for who in ("bob", "eve")
    )
    room = _Offering(movers=("ann", "bob"), asked=asked)
    table = Table.start(room, {}, system="room", players={"pat": ["ann", "bob", "eve"]})
    actors = {
        seat: list(dict.fromkeys(c.actor for c in observe(table, seat).choices))
        for seat in ("pat", REFEREE)
    }
    assert actors == {"pat": ["bob", "eve", "ann"], REFEREE: ["bob", "eve", "ann", REFEREE]}


def test_an_action_that_does_not_answer_a_blocking_prompt_is_refused_naming_the_answers() -> None:
    asked = (
        Prompt("bob", ("defend",), "Duel: defending", "ann attacks bob"),
        Prompt("bob", ("yield", "defend"), "Duel: yielding", "yield?"),
        Prompt("eve", ("defend",), "Duel: defending", "ann attacks eve"),
    )
    room = _Offering(asked=asked)
    with pytest.raises(RuleError) as refused:
        check_prompts(room, 7, Action("bob", "dance"))
    assert str(refused.value) == (
        "Duel: defending: bob must first answer: ann attacks bob (defend, yield)"
    )
    with pytest.raises(RuleError) as other:
        check_prompts(room, 7, Action("ann", "dance"))
    assert str(other.value) == (
        "Duel: defending: the table waits for bob, eve to decide: ann attacks bob"
    )
    check_prompts(room, 7, Action("bob", "yield"))


def test_a_seat_sees_its_own_prompts_first_then_the_others_it_may_see() -> None:
    theirs = Prompt("eve", ("defend",), "Duel", "eve?", blocking=False)
    hidden = Prompt("fay", ("defend",), "Duel", "fay?", blocking=False, secret=True)
    mine = Prompt("cat", ("defend",), "Duel", "cat?", blocking=False)
    referees = Prompt(REFEREE, ("defend",), "Duel", "judge?", blocking=False)
    room = _Room(asked=(theirs, hidden, mine, referees))
    assert prompts_seen_by(room, 7, PLAYS_THREE) == (mine, referees, theirs)
    assert prompts_seen_by(room, 7, Viewer(REFEREE)) == (referees, theirs, hidden, mine)
