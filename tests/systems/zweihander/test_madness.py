"""Madness, Corruption, Order & Chaos, Disorders: withstanding, offences, the end of a session."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.core import ActionError, RuleError
from referee.dice import ScriptedSource
from referee.systems.zweihander.character import Character
from referee.systems.zweihander.madness import (
    disorder_kind,
    end_of_session,
    offence,
    withstand,
    withstand_test,
)

from .helpers import act, last, table


@pytest.mark.parametrize(
    ("situation", "total", "peril_dice", "corruption"),
    [("Stress", 60, [9], 3), ("Fear", 40, [9, 9], 6), ("Terror", 20, [9, 9, 9], 9)],
)
def test_withstanding_stress_fear_terror(
    situation: str, total: int, peril_dice: list[int], corruption: int
) -> None:
    assert withstand_test(40, situation).total_chance == total
    c = Character("c", skills={"Resolve": 40}, peril_threshold=6)
    passed = withstand(c, situation, ScriptedSource([total]))
    assert passed.mental_peril == 0 and passed.character == c
    failed = withstand(c, situation, ScriptedSource([98, *peril_dice]))
    assert failed.mental_peril == sum(peril_dice) + len(peril_dice)
    assert failed.corruption == corruption and failed.character.corruption == corruption


def test_offences_by_weight() -> None:
    assert offence("minor") == 1 and offence("minor", 3) == 3
    assert offence("middling", 5) == 5 and offence("major", 9) == 9
    with pytest.raises(RuleError, match="4-6"):
        offence("middling", 7)
    with pytest.raises(RuleError):
        offence("heinous")


def test_disorder_kinds() -> None:
    assert disorder_kind("Hophead") == "addiction"
    assert disorder_kind("Pyromania") == "insanity"
    assert disorder_kind("Moon fever") == "mutation"
    with pytest.raises(RuleError):
        disorder_kind("Hiccups")


def test_no_corruption_gains_a_rank_towards_order_without_a_roll() -> None:
    end = end_of_session(Character("a"), ScriptedSource([]))
    assert (end.order_gained, end.chaos_gained, end.corruption_die) == (1, 0, None)


@pytest.mark.parametrize(
    ("corruption", "die", "order", "chaos"),
    [
        (4, 4, 0, 1),
        (4, 5, 1, 0),
        (9, 9, 0, 1),
        (9, 10, 1, 0),
        (13, 3, 0, 2),
        (13, 4, 0, 1),
        (20, None, 0, 2),
        (10, None, 0, 1),
    ],
)
def test_a_chaos_rank_per_ten_and_the_d10_for_the_remainder(
    corruption: int, die: int | None, order: int, chaos: int
) -> None:
    end = end_of_session(
        Character("a", corruption=corruption), ScriptedSource([] if die is None else [die])
    )
    assert (end.corruption_die, end.order_gained, end.chaos_gained) == (die, order, chaos)
    assert end.character.corruption == 0


def test_ten_ranks_of_order_give_a_fate_point_and_erase_ranks_but_permanent() -> None:
    c = Character(
        "a", order_ranks=9, chaos_ranks=3, permanent_chaos_ranks=2, fate_points=1, reputation=2
    )
    end = end_of_session(c, ScriptedSource([]))
    assert end.fate_point and end.character.fate_points == 2
    assert (end.character.order_ranks, end.character.chaos_ranks) == (0, 2)
    assert end.character.reputation == 3


def test_ten_ranks_of_chaos_give_a_disorder_of_the_gms_choice() -> None:
    c = Character("a", chaos_ranks=9, order_ranks=4, permanent_order_ranks=1, corruption=1)
    end = end_of_session(c, ScriptedSource([1]), disorder="The hunger")
    assert end.disorder == "The hunger" and end.character.disorders == ("The hunger",)
    assert (end.character.order_ranks, end.character.chaos_ranks) == (1, 0)
    unnamed = end_of_session(c, ScriptedSource([1]))
    assert unnamed.disorder == "Disorder"
    with pytest.raises(RuleError):
        end_of_session(c, ScriptedSource([1]), disorder="Hiccups")


@given(st.integers(0, 60), st.integers(1, 10), st.integers(0, 9), st.integers(0, 9))
def test_end_of_session_matches_the_detailed_list(
    corruption: int, die: int, order: int, chaos: int
) -> None:
    c = Character("a", corruption=corruption, order_ranks=order, chaos_ranks=chaos)
    end = end_of_session(c, ScriptedSource([die]))
    exp_order = 1 if corruption == 0 else 0
    exp_chaos = corruption // 10
    rem = corruption % 10
    if rem:
        if die <= rem:
            exp_chaos += 1
        elif corruption < 10:
            exp_order += 1
    assert (end.order_gained, end.chaos_gained) == (exp_order, exp_chaos)
    assert end.character.corruption == 0
    assert end.character.order_ranks < 10 and end.character.chaos_ranks < 10
    assert end.fate_point == (order + exp_order >= 10)
    assert (end.disorder is not None) == (chaos + exp_chaos >= 10)


def test_session_end_action_for_every_character() -> None:
    t = table({"a": {"corruption": 3}, "b": {}})
    t = act(t, "referee", "session.end", [2])
    assert last(t, "corruption.resolved")["character"] == "b"
    assert t.state.character("a").chaos_ranks == 1
    assert t.state.character("b").order_ranks == 1


def test_corruption_action_and_madness_action() -> None:
    t = table({"a": {"skills": {"Resolve": 50}, "bonuses": {"WB": 4}}})
    t = act(t, "referee", "corruption", character="a", weight="major", points=8)
    assert t.state.character("a").corruption == 8
    t = act(t, "a", "madness", [90, 1], situation="Stress")
    assert last(t, "madness.withstood")["mental_peril"] == 2
    assert t.state.character("a").corruption == 11
    assert replace(t.state.character("a")).peril == 0  # 2 is under the threshold of 7


@pytest.mark.parametrize("points", ["five", 5.5, False])
def test_offence_points_that_are_not_a_whole_number_are_refused(points: object) -> None:
    t = table({"a": {}})
    with pytest.raises(ActionError, match=r"corruption\.points"):
        act(t, "referee", "corruption", character="a", weight="middling", points=points)


def test_session_end_refuses_characters_it_does_not_know() -> None:
    t = table({"bert": {"chaos_ranks": 9, "corruption": 10}})
    with pytest.raises(RuleError, match="bret"):
        act(t, "referee", "session.end", [], disorders={"bret": "Pyromania"})
    with pytest.raises(RuleError, match="bret"):
        act(t, "referee", "session.end", [], characters=["bret"])


@pytest.mark.parametrize(
    ("offence_name", "weight", "points"),
    [
        ("Becoming Intoxicated!", None, 1),
        ("Bleeding", "minor", 1),
        ("Channeling power", None, 1),
        ("Suffer a Moderate Injury", None, 3),
        ("Use elixir", "minor", 3),
        ("Use laudanum, tincture, smelling salts, quicksilver or deliriant", None, 1),
        ("Becoming Incapacitated! on the Peril Condition Track", None, 6),
        ("suffer a serious injury", "middling", 6),
        ("Suffer a Grievous Injury", None, 9),
        ("Premeditated murder", None, 7),
    ],
)
def test_a_listed_offence_gives_its_printed_points_and_weight(
    offence_name: str, weight: str | None, points: int
) -> None:
    """Audit W2: the points the text prints for a named offence, and its weight."""
    params = {"character": "a", "offence": offence_name}
    if weight is not None:
        params["weight"] = weight
    t = act(table({"a": {}}), "referee", "corruption", **params)
    assert t.state.character("a").corruption == points


def test_a_listed_offence_of_another_weight_or_other_points_is_refused() -> None:
    t = table({"a": {}})
    with pytest.raises(RuleError, match="Premeditated murder is a major offence, not minor"):
        act(
            t, "referee", "corruption", character="a", weight="minor", offence="Premeditated murder"
        )
    with pytest.raises(RuleError, match="Suffer a Serious Injury gives 6"):
        act(t, "referee", "corruption", character="a", offence="Suffer a Serious Injury", points=5)
    with pytest.raises(RuleError, match="give its weight"):
        act(t, "referee", "corruption", character="a", offence="Kicking a dog")
    ok = act(t, "referee", "corruption", character="a", offence="Channeling power", points=3)
    assert ok.state.character("a").corruption == 3
    bled = act(t, "referee", "corruption", character="a", offence="Bleeding", points=2)
    assert bled.state.character("a").corruption == 2  # 1 per turn, two turns
