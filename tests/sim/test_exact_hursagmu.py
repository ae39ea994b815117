"""The exact Hursagmu melee against brute-force enumeration through the real procedure, against
finer keys, and against the seeded simulation's intervals.

The brute force takes every action the default policy chooses (the policy asked at every state)
with **every face of every die** through ``Table.act`` — no face merged with another, no odds
read — and merges tables only where the game's whole state is equal (``repr`` of it). A round
in which every face of an attack and its defence is taken costs some thousands of actions, so
it starts once the Initiatives are rolled, and the damage roll is the Master's 1d6 option.
The Initiatives' order is checked against the whole state (the policy asked at every state,
nothing replayed), and the rounds' merging against a key that keeps the round's number, each
over every face of the Initiatives.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from referee.core import Action, RefereeError, Table, system
from referee.core.loader import load_file
from referee.dice import ScriptedSource
from referee.sim.conflicts import conflict_of
from referee.sim.simulate import default_policy, legal_choices, simulate
from referee.systems.hursagmu.exact import (
    MeleeError,
    RoundStep,
    _OutOfTime,
    _Solver,
    canonical,
    duel_odds,
    round_odds,
    whole,
)
from referee.systems.hursagmu.exact_rounds import absorb, forward
from referee.systems.hursagmu.exact_states import Work, action_branches, replay_branches
from referee.systems.hursagmu.simulation import MELEE
from tests.sim.faces import every_face as _every_face

ZERO, ONE = Fraction(0), Fraction(1)


def _sheet(stamina: int, defense: int = 3) -> dict[str, Any]:
    return {
        "dexterity": 2,
        "strength": 1,
        "weapon": 1,
        "stamina": stamina,
        "skills": {"quickness": 1, "striking": 3, "defense": defense},
    }


def _table(bob: dict[str, Any], fred: dict[str, Any], **options: Any) -> Table[Any]:
    setup = {"characters": {"bob": bob, "fred": fred}, "options": options}
    return system("hursagmu").new_table(setup)


def _roll(table: Table[Any], who: str, faces: list[int]) -> Table[Any]:
    return table.act(Action(who, "initiative", {"stance": "maneuver"}), ScriptedSource(faces))


# -- brute force --------------------------------------------------------------------------


def _policy(table: Table[Any]) -> list[tuple[Fraction, Table[Any]]]:
    """The default policy's action with every face, as ``simulate.play`` takes it (a choice
    the game refuses is dropped and the policy asked again)."""
    conflict = conflict_of(table)
    choices = legal_choices(table, conflict)
    while choices:
        action = default_policy(table, conflict, choices, random.Random(0))
        try:
            return _every_face(table, action)
        except RefereeError:
            choices = [
                c
                for c in choices
                if not (c.actor == action.actor and c.kind == action.kind)
                or not c.allows(action.params)
            ]
    return []


def brute_round(
    table: Table[Any],
) -> tuple[dict[tuple[str, int], Fraction], dict[str, Fraction]]:
    """The rest of ``table``'s round: (winner, rounds it adds) → chance, and the whole state
    the next round begins in → chance."""
    conflict = conflict_of(table)
    frontier: dict[Any, tuple[Fraction, Table[Any]]] = {whole(table.state): (Fraction(1), table)}
    ends: dict[tuple[str, int], Fraction] = {}
    nxt: dict[str, Fraction] = {}
    while frontier:
        grown: dict[Any, tuple[Fraction, Table[Any]]] = {}
        for k, (p, t) in frontier.items():
            begun = t.state.round > table.state.round
            if conflict.is_over(table, t):
                where = (conflict.outcome(table, t).winner, 2 if begun else 1)
                ends[where] = ends.get(where, Fraction(0)) + p
                continue
            if begun:
                nxt[k] = nxt.get(k, Fraction(0)) + p
                continue
            for q, after in _policy(t):
                k2 = whole(after.state)
                held = grown.get(k2)
                grown[k2] = (p * q, after) if held is None else (held[0] + p * q, held[1])
        frontier = grown
    return ends, nxt


def _by_state(step: RoundStep) -> tuple[dict[tuple[str, int], Fraction], dict[Any, Fraction]]:
    """A round's answer with the next rounds named by their whole states (all of one round
    number: two of them are one canonical round only if they are one state)."""
    nxt: dict[Any, Fraction] = {}
    for p, t in step.next.values():
        nxt[whole(t.state)] = nxt.get(whole(t.state), Fraction(0)) + p
    return dict(step.ends), nxt


@pytest.mark.slow
def test_an_attack_and_its_defence_are_every_face_of_every_die() -> None:
    """Bob on turn attacks; Fred, attacked before declaring, defends: the attack read from its
    odds and forced each way, against its 1,296 faces and each face of the damage after."""
    table = _table(_sheet(6), _sheet(5, defense=8), damage_roll="1d6")
    table = _roll(_roll(table, "bob", [6, 6]), "fred", [1, 1])
    ends, nxt = brute_round(table)
    assert _by_state(round_odds(table, key=whole)) == (ends, nxt)
    assert _by_state(round_odds(table)) == (ends, nxt)
    assert set(ends) == {("bob", 1)} and len(nxt) > 2  # some hits fell Fred, some did not
    assert sum(ends.values()) + sum(nxt.values()) == 1


def test_an_attack_that_misses_only_on_its_lowest_faces_is_forced_both_ways() -> None:
    """Bob strikes at 9 above Fred's defence: he misses only on double 1 against double 6
    (1 in 1,296), ties to the attacker; the miss is forced from the extreme faces too, and a
    blow fells Fred on a damage roll of 4 or more."""
    bob, fred = {**_sheet(6), "skills": {"striking": 9}}, {**_sheet(6, defense=0)}
    table = _table(bob, fred, damage_roll="1d6")
    table = _roll(_roll(table, "bob", [6, 6]), "fred", [1, 1])
    assert round_odds(table).ends == {("bob", 1): Fraction(1295, 1296) / 2}


def test_a_tie_of_initiatives_is_every_face_of_every_die() -> None:
    """Equal Initiatives: both declare an attack, so neither defends; Bob strikes first, and
    Fred strikes back only if he is still up."""
    table = _table(_sheet(6), _sheet(6), damage_roll="1d6")
    table = _roll(_roll(table, "bob", [3, 4]), "fred", [4, 3])
    ends, nxt = brute_round(table)
    assert _by_state(round_odds(table)) == (ends, nxt)
    assert set(ends) == {("bob", 1), ("fred", 1)} and len(nxt) > 3


# -- finer keys ---------------------------------------------------------------------------


def _forgets_the_initiatives(state: Any) -> Any:
    """A broken key: the Initiatives dropped, though the round still reads who is on turn."""
    fighters = {w: replace(f, initiative=None) for w, f in state.fighters.items()}
    return canonical(replace(state, fighters=fighters))


@pytest.mark.slow
def test_the_initiatives_order_is_all_the_round_reads_of_them() -> None:
    """A whole round, every face of both Initiatives: the canonical key (their order, actions
    replayed from states less their hits) against the whole state (as rolled, the policy asked
    at every state); and a key that forgets the Initiatives is caught."""
    table = _table(_sheet(6), _sheet(3), damage_roll="1d6")  # Fred falls to any hit
    exact = _by_state(round_odds(table, key=whole, replay=False))
    assert _by_state(round_odds(table)) == exact
    assert set(exact[0]) == {("bob", 1), ("fred", 1)} and len(exact[1]) > 3
    assert _by_state(round_odds(table, key=_forgets_the_initiatives)) != exact


def _numbered(state: Any) -> Any:
    """The canonical key and the round's number: no round merged with another."""
    return (state.round, canonical(state))


@pytest.mark.slow
def test_rounds_merged_across_their_numbers_are_the_same_melee() -> None:
    """Three rounds from the start, every Initiative face: canonical rounds merged whatever
    their numbers, actions replayed, against rounds kept apart and played afresh."""
    table = _table(_sheet(6), _sheet(3), damage_roll="1d6")  # Fred falls to any hit
    odds = duel_odds(table, rounds=3)
    apart = duel_odds(table, rounds=3, key=_numbered, replay=False)
    assert (odds.wins, odds.by_round, odds.unfinished) == (
        apart.wins,
        apart.by_round,
        apart.unfinished,
    )
    assert odds.rounds < apart.rounds
    assert 0 < odds.unfinished < 1 and set(odds.wins) == {"bob", "fred"}
    replayed = duel_odds(table, rounds=3, key=_numbered)  # kept apart, actions replayed
    assert replayed.wins == apart.wins and replayed.acts < apart.acts


# -- to the end ---------------------------------------------------------------------------


@pytest.mark.slow
def test_the_seeded_simulation_holds_the_exact_melee_in_its_intervals() -> None:
    table = _table(_sheet(6), _sheet(3), damage_roll="1d6")
    odds = duel_odds(table)
    assert odds.unfinished == 0 and sum(odds.wins.values()) == 1
    assert odds.expected_rounds is not None
    within = duel_odds(table, rounds=3)
    assert within.by_round == odds.by_round[:3]
    assert all(within.wins[w] <= odds.wins[w] for w in within.wins)
    report = simulate(table, runs=250, seed=2)
    for winner, p in odds.wins.items():
        estimate = report.win_rates[winner]
        assert estimate.low <= p <= estimate.high, (winner, float(p), estimate)
    assert report.rounds.low <= odds.expected_rounds <= report.rounds.high
    json_ = odds.to_json()
    assert json_["exact"] is True and json_["horizon"] is None
    assert json_["wins"]["bob"]["exact"] == str(odds.wins["bob"])
    assert json_["expected_rounds"]["exact"] == str(odds.expected_rounds)


def test_a_melee_in_which_nobody_can_be_hurt_never_ends() -> None:
    harmless = {**_sheet(6), "strength": -20}  # "a feeble blow does no damage"
    odds = duel_odds(_table(harmless, harmless))
    assert not odds.wins and odds.unfinished == 1 and odds.expected_rounds is None
    assert odds.rounds == 2  # the first round (not yet begun), then one that loops on itself
    ((_, second),) = round_odds(_table(harmless, harmless)).next.values()
    assert duel_odds(second).rounds == 1  # from the second round's start: it loops on itself
    within = duel_odds(_table(harmless, harmless), rounds=1)  # the first round played alone
    assert (within.rounds, within.unfinished, within.by_round) == (1, ONE, (ZERO,))


def test_a_melee_ended_by_exhaustion_at_the_rounds_end_ends_as_the_next_round_begins() -> None:
    """Fred spends his last 2 hits ("Pushing Power": he "will collapse from exhaustion");
    nobody can be hurt, so he falls at the round's end ("Recovery": at 0 or less) and the melee
    ends as the second round begins: in round 2, not within the first."""
    harmless = {**_sheet(6), "strength": -20}
    table = _table(harmless, {**harmless, "stamina": 2})
    table = table.act(Action("fred", "push", {"hits": 2}), ScriptedSource([]))
    assert round_odds(table).ends == {("bob", 2): 1}
    odds = duel_odds(table)
    assert odds.wins == {"bob": 1} and odds.expected_rounds == 2
    assert odds.by_round[:3] == (ZERO, ONE, ZERO)
    within = duel_odds(table, rounds=1)
    assert (within.wins, within.by_round, within.unfinished) == ({}, (ZERO,), ONE)
    within = duel_odds(table, rounds=2)
    assert (within.wins, within.by_round, within.unfinished) == ({"bob": ONE}, (ZERO, ONE), ZERO)
    conflict = conflict_of(table)  # played on to the Master's end of the round: one step left
    while True:
        action = default_policy(table, conflict, legal_choices(table, conflict), random.Random(0))
        if action.kind == "end_round":
            break
        table = table.act(action, ScriptedSource([3] * 4))
    assert round_odds(table).ends == {("bob", 2): 1}


def test_where_nobody_may_end_the_round_what_would_go_on_never_ends() -> None:
    """Without the Master's end of the round ("Recovery") nobody can move once everyone has
    acted: what would have gone on to the next round is stuck there (``never``), the round's
    ends the same."""
    table = _table(_sheet(6), _sheet(3), damage_roll="1d6")
    played = round_odds(table)
    stuck = replace(MELEE, kinds=MELEE.kinds - {"end_round"})
    solver = _Solver(stuck, canonical)
    alone = solver.round(table)
    assert alone.ends == played.ends and set(played.ends) == {("bob", 1), ("fred", 1)}
    assert not alone.next and 0 < alone.never == sum(p for p, _ in played.next.values())
    assert solver.round(table) == alone  # played again from the steps it remembers


def test_past_the_time_allowed_the_answer_is_that_of_the_rounds_played(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The time runs out in the second round: the answer is the first round's, what goes on
    from it still going, within a horizon of one round."""
    harmless = {**_sheet(6), "strength": -20}
    table = _table(harmless, harmless)
    played, calls = _Solver.round, []

    def round_once(solver: _Solver, begin: Table[Any]) -> RoundStep:
        calls.append(begin)
        if len(calls) > 1:  # the second round: out of time
            raise _OutOfTime
        return played(solver, begin)

    monkeypatch.setattr(_Solver, "round", round_once)
    odds = duel_odds(table, time_limit=600)
    assert (odds.horizon, odds.rounds, odds.unfinished, odds.by_round) == (1, 1, ONE, (ZERO,))
    assert odds.wins == {} and odds.expected_rounds is None


def test_the_melees_exact_odds_are_the_duels_answer_and_keep_its_time_limit() -> None:
    """What the simulator asks of the melee (``MELEE.exact``: the table, the seat, the seconds
    allowed) is the duel's exact answer in JSON, and a limit of 0 s is refused as the duel's."""
    harmless = {**_sheet(6), "strength": -20}
    table = _table(harmless, harmless)
    assert MELEE.exact is not None
    assert MELEE.exact(table, "bob", None) == duel_odds(table).to_json()
    assert MELEE.exact(table, None, 600) == duel_odds(table).to_json()  # solved well within
    with pytest.raises(MeleeError, match="not played out in 0 s"):
        MELEE.exact(_table(_sheet(6), _sheet(6)), None, 0)


def test_the_answer_in_json_gives_each_chance_as_a_fraction_and_a_float() -> None:
    """The JSON the simulator and the web table read: every chance both exact (a fraction
    string) and as a float, the model named, the work counted."""
    odds = duel_odds(_table(_sheet(6), _sheet(3), damage_roll="1d6"), rounds=1)
    answer = odds.to_json()
    assert set(answer) == {
        "exact",
        "model",
        "wins",
        "by_round",
        "unfinished",
        "horizon",
        "expected_rounds",
        "rounds",
        "states",
        "procedure_steps",
    }
    assert (answer["exact"], answer["model"], answer["horizon"]) == (True, "hursagmu melee", 1)
    assert answer["wins"]["fred"] == {
        "exact": str(odds.wins["fred"]),
        "value": float(odds.wins["fred"]),
    }
    assert list(answer["wins"]) == ["bob", "fred"]
    assert answer["by_round"] == [{"exact": str(p), "value": float(p)} for p in odds.by_round]
    assert answer["unfinished"]["exact"] == str(odds.unfinished) != "0"
    assert answer["expected_rounds"] is None
    assert (answer["rounds"], answer["states"], answer["procedure_steps"]) == (
        odds.rounds,
        odds.states,
        odds.acts,
    )
    assert odds.rounds > 0 and odds.states > 0 and odds.acts > 0


def test_the_procedure_steps_counted_are_the_procedures_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``acts`` (the answer's ``procedure_steps``) is how many actions the game's procedure
    decided — each action taken afresh, replayed, or forced — however the work was saved."""
    table = _table(_sheet(6), _sheet(3), damage_roll="1d6")
    procedure = type(table.procedure)
    decide, decided = procedure.decide, []

    def counted(self: Any, *args: Any) -> Any:
        decided.append(args[1])
        return decide(self, *args)

    monkeypatch.setattr(procedure, "decide", counted)
    for replay, shift in ((True, True), (True, False), (False, False)):
        decided.clear()
        odds = duel_odds(table, rounds=3, replay=replay, shift=shift)
        assert odds.acts == len(decided) > 0, (replay, shift)


def test_a_round_from_which_nobody_can_move_leaves_the_melee_unfinished() -> None:
    """The chain of rounds by hand: from round A Bob wins a quarter of the time, a quarter
    nobody can move and it is not over (``never``), a quarter A again, a quarter B; from B
    Fred wins half the time (in the round, or as the next begins), and half the time both fall
    as the next round begins."""
    table = _table(_sheet(6), _sheet(6))
    q = Fraction(1, 4)
    plays: dict[Hashable, RoundStep] = {
        "A": RoundStep({("bob", 1): q}, {"A": (q, table), "B": (q, table)}, never=q),
        "B": RoundStep({("fred", 1): q, ("fred", 2): q, ("none", 2): Fraction(1, 2)}, {}),
    }
    wins, expected, never = absorb("A", plays)
    assert wins == {"bob": Fraction(1, 3), "fred": Fraction(1, 6), "none": Fraction(1, 6)}
    assert (expected, never) == (None, Fraction(1, 3))  # it may never end: no expected rounds
    wins, expected, never = absorb("B", plays)
    assert wins == {"bob": 0, "fred": Fraction(1, 2), "none": Fraction(1, 2)}
    assert (expected, never) == (Fraction(7, 4), Fraction(0))  # one round, or two
    wins, by_round, unfinished = forward("A", plays, 3)
    assert wins == {"bob": Fraction(21, 64), "fred": Fraction(9, 64), "none": Fraction(1, 8)}
    assert by_round == [q, Fraction(1, 8), Fraction(7, 32)]
    # still going after three rounds (3/64 of it ending as the fourth begins), or never ending
    assert unfinished == Fraction(26, 64)


def test_a_melee_that_ends_as_the_round_after_the_last_begins_is_still_going_within_them() -> None:
    """Within a horizon, a melee that ends as the next round begins (felled at the last
    round's Recovery, its round adds 2) ends in the round after the last, as the simulation
    counts: neither a win within the horizon nor a chance by round there, but still going —
    each winner's chance within the rounds is the sum of his chances by round."""
    table = _table(_sheet(6), _sheet(6))
    q, half = Fraction(1, 4), Fraction(1, 2)
    plays: dict[Hashable, RoundStep] = {
        "A": RoundStep({("bob", 1): q, ("fred", 2): q}, {"A": (half, table)}),
    }
    assert forward("A", plays, 1) == ({"bob": q}, [q], Fraction(3, 4))
    wins, by_round, unfinished = forward("A", plays, 2)
    assert wins == {"bob": q + Fraction(1, 8), "fred": q}
    assert by_round == [q, q + Fraction(1, 8)]
    assert unfinished == Fraction(1, 8) + Fraction(1, 4)  # A again, or Fred as the third begins
    assert sum(wins.values()) == sum(by_round) == 1 - unfinished


def test_rounds_that_lead_back_to_each_other_are_solved_together() -> None:
    """Rounds A and C lead to each other (A to C, C back to A or on to B, where Fred wins),
    listed after a round D, apart from them, that leads to B too: A and C are one set, solved
    together once B is; D and B are solved whatever their place in the list. Then two rounds
    that lead to each other, reached from a first that neither leads back to."""
    table = _table(_sheet(6), _sheet(6))
    half, quarter = Fraction(1, 2), Fraction(1, 4)
    plays: dict[Hashable, RoundStep] = {
        "D": RoundStep({("bob", 1): half}, {"B": (half, table)}),
        "B": RoundStep({("fred", 1): Fraction(1)}, {}),
        "A": RoundStep({("bob", 1): half}, {"C": (half, table)}),
        "C": RoundStep({("fred", 1): half}, {"A": (quarter, table), "B": (quarter, table)}),
    }
    wins, expected, never = absorb("A", plays)
    assert wins == {"bob": Fraction(4, 7), "fred": Fraction(3, 7)}
    assert (expected, never) == (Fraction(13, 7), Fraction(0))
    # C and E lead to each other, reached from A, which neither leads back to
    plays = {
        "A": RoundStep({("bob", 1): half}, {"C": (half, table)}),
        "C": RoundStep({("fred", 1): half}, {"E": (half, table)}),
        "E": RoundStep({("bob", 1): half}, {"C": (half, table)}),
    }
    wins, expected, never = absorb("A", plays)
    assert wins == {"bob": Fraction(2, 3), "fred": Fraction(1, 3)}
    assert (expected, never) == (Fraction(2), Fraction(0))


def test_rounds_not_played_in_the_time_allowed_are_still_going() -> None:
    """Forward over rounds Y and Z that the time allowed did not play: what reaches them
    stays there, still going, beside what round A goes on to."""
    table = _table(_sheet(6), _sheet(6))
    q, half = Fraction(1, 4), Fraction(1, 2)
    plays: dict[Hashable, RoundStep] = {
        "A": RoundStep({("bob", 1): q}, {"Y": (q, table), "A": (q, table), "Z": (q, table)}),
    }
    wins, by_round, unfinished = forward("A", plays, 3)
    assert wins == {"bob": Fraction(21, 64)}
    assert by_round == [q, Fraction(1, 16), Fraction(1, 64)]
    assert unfinished == Fraction(43, 64)
    # chances over other denominators: a third goes to round Y, or nobody can move
    third = Fraction(1, 3)
    for step in (
        RoundStep({("bob", 1): half}, {"Y": (third, table)}),
        RoundStep({("bob", 1): half}, {}, never=third),
    ):
        assert forward("A", {"A": step}, 1) == ({"bob": half}, [half], third)


def test_what_cannot_be_solved_is_refused_with_the_reason() -> None:
    table = _table(_sheet(6), _sheet(6))
    with pytest.raises(MeleeError, match="not played out"):
        duel_odds(table, time_limit=0)
    with pytest.raises(MeleeError, match="at least 1") as refused:
        duel_odds(table, rounds=0)
    assert refused.value.rule == "Whole-encounter odds (Hursagmu melee)"
    ann = {"name": "Ann", "number": 11, "combat": 2, "strength": 3, "stamina": 4}
    duel = system("intrigue").new_table({"characters": {"ann": ann}})
    with pytest.raises(RefereeError, match="not intrigue"):
        duel_odds(duel)
    three = system("hursagmu").new_table(
        {"characters": {"bob": _sheet(6), "fred": _sheet(6), "guard": _sheet(6)}}
    )
    with pytest.raises(MeleeError, match="a duel of 2 characters; this melee has 3"):
        duel_odds(three)  # refused for its size, not after a time allowed


def test_a_round_may_take_as_many_actions_as_the_limit_and_no_more(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Equal Initiatives: both declare, both strike, the Master ends the round — five
    actions. Under a limit of five the round is played out; under four it is refused as still
    going after four."""
    table = _table(_sheet(6), _sheet(6), damage_roll="1d6")
    table = _roll(_roll(table, "bob", [3, 4]), "fred", [4, 3])
    monkeypatch.setattr("referee.systems.hursagmu.exact.MAX_STEPS", 5)
    assert set(round_odds(table).ends) == {("bob", 1), ("fred", 1)}
    monkeypatch.setattr("referee.systems.hursagmu.exact.MAX_STEPS", 4)
    with pytest.raises(MeleeError, match="a round still going after 4 actions"):
        round_odds(table)


def test_replayed_branches_that_reach_one_state_are_one_branch_their_chances_added() -> None:
    """Bob's blow (equal Initiatives, both declared): its branches replayed under a key that
    makes every state one are one branch — the chance of all of them, the first's state and
    faces (in a melee two branches apart stay apart from a state with other hits: the keys
    keep the hits)."""
    table = _table(_sheet(6), _sheet(6), damage_roll="1d6")
    table = _roll(_roll(table, "bob", [3, 4]), "fred", [4, 3])
    conflict = conflict_of(table)
    while True:  # both declare; then Bob's blow
        action = default_policy(table, conflict, legal_choices(table, conflict), random.Random(0))
        if action.kind == "act":
            break
        table = table.act(action, ScriptedSource([]))
    branches = list(action_branches(table, action, canonical, Work()).values())
    assert len(branches) > 2 and sum(b.chance for b in branches) == 1
    merged = replay_branches(table.state, lambda: table, action, branches, lambda s: 0, Work())
    assert merged is not None and list(merged) == [0]
    assert merged[0][:3] == (ONE, branches[0].state, branches[0].faces)
    # with no branch kept from a state less these hits for its faces: each taken again
    again = replay_branches(table.state, lambda: table, action, branches, canonical, Work(), {})
    assert again == action_branches(table, action, canonical, Work())


def test_a_limit_of_the_model_met_while_choosing_is_raised_not_taken_for_a_refusal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A choice the game refuses is dropped and the policy asked again, as the simulator
    plays; but where the exact model cannot take the action (a :class:`MeleeError`), the
    melee is refused with that reason, not played on without the choice."""

    def beyond(*args: Any) -> Any:
        raise MeleeError("the attack's roll changes with its own faces")

    monkeypatch.setattr("referee.systems.hursagmu.exact.action_branches", beyond)
    with pytest.raises(MeleeError, match="changes with its own faces"):
        duel_odds(_table(_sheet(6), _sheet(6)))


EXAMPLES = Path(__file__).parents[2] / "examples" / "hursagmu"


def _example(name: str) -> Table[Any]:
    return system("hursagmu").new_table(load_file(EXAMPLES / name)["setup"])


@pytest.mark.slow
def test_a_branch_with_its_hits_moved_is_the_branch_taken_again() -> None:
    """Bob against Marcos to the end: each replayed branch made from one taken before, its
    hits moved where they stay on the same sides of 0 and of Stamina, against each taken again
    through the procedure — the same fractions, in fewer procedure steps."""
    table = _example("bob-against-marcos.yaml")
    moved = duel_odds(table)
    taken = duel_odds(table, shift=False)
    assert (moved.wins, moved.by_round, moved.expected_rounds) == (
        taken.wins,
        taken.by_round,
        taken.expected_rounds,
    )
    assert (moved.rounds, moved.states) == (taken.rounds, taken.states)
    assert moved.acts * 4 < taken.acts


def test_bob_against_fred_takes_few_procedure_steps() -> None:
    """Bob against Fred to the end: 239 canonical rounds, 6,352 states, from the 1,062
    procedure steps docs/simulate.md gives (it was 23,762: every branch of every replayed action
    taken again): a branch kept without the hits it went through, or an attack forced and then
    taken again, is a step more."""
    odds = duel_odds(_example("bob-against-fred.yaml"))
    assert (odds.rounds, odds.states) == (239, 6_352)
    # within two rounds: the first, and the 144 canonical rounds it leads to
    assert duel_odds(_example("bob-against-fred.yaml"), rounds=2).rounds == 145
    assert odds.acts == 1_062
    assert float(odds.wins["bob"]) == pytest.approx(0.8343, abs=1e-4)


def test_a_branchs_room_for_moved_hits_keeps_every_value_on_its_sides() -> None:
    """The least and the most a character's hits may be moved by (``_room``, remembered per
    trail and Stamina) against the sides themselves: every move from -30 to 30 of every trail
    of one or two values from -6 to 12, Stamina 1 to 8, is in the room exactly where each
    value of the trail, moved, stays on the same side of 0 and of Stamina — counted."""
    from itertools import product

    from referee.systems.hursagmu.exact_states import _room

    checked = 0
    for top in range(1, 9):
        for size in (1, 2):
            for trail in product(range(-6, 13), repeat=size):
                low, high = _room(trail, top)
                for m in range(-30, 31):
                    same = all((v <= 0, v >= top) == (v + m <= 0, v + m >= top) for v in trail)
                    assert (low <= m <= high) == same, (trail, top, m)
                    checked += 1
    assert checked == 8 * (19 + 19**2) * 61
