"""Madness, Corruption, Order & Chaos, Disorders: withstanding, offences, the end of a session."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.core import Action, ActionError, OneOf, RuleError, Text
from referee.core.cards import odds_of as card_odds
from referee.core.table import preview
from referee.dice import ScriptedSource
from referee.systems.zweihander.character import Character
from referee.systems.zweihander.madness import choices as madness_choices
from referee.systems.zweihander.madness import (
    disorder_kind,
    end_of_session,
    offence,
    withstand,
    withstand_test,
)
from referee.systems.zweihander.percentile import SkillTest

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


def test_a_madness_test_is_previewed_with_the_odds_its_choice_carries() -> None:
    """Withstanding madness: Stress +20%, Fear no modifier, Terror −20% on the Resolve Test; an
    action that is neither a Skill Test nor a social Test is previewed with the odds of the
    character's choice (all three situations), and a choice without odds has none."""
    t = table({"anna": {"skills": {"Resolve": 40}}})
    shown = preview(t, "anna", Action("anna", "madness", {"situation": "Fear"}))
    assert [(p.label, p.rule, p.dice) for p in shown] == [
        ("Anna withstands Stress", "Madness", "d100 ≤ 60"),
        ("Anna withstands Fear", "Madness", "d100 ≤ 40"),
        ("Anna withstands Terror", "Madness", "d100 ≤ 20"),
    ]
    assert dict(shown[1].odds) == card_odds(SkillTest(40).odds())
    gm = Action("referee", "corruption", {"character": "anna", "weight": "minor"})
    assert preview(t, "referee", gm) == ()


def test_an_offence_gives_any_points_of_its_range_both_ends_included() -> None:
    """Corruption: "Minor offenses (1-3 points)", "Middling offenses (4-6 points)", "Major
    offenses (7-9 points)" — the least and the most of each range are given as asked."""
    assert [offence(w, p) for w, p in (("minor", 1), ("middling", 4), ("major", 7))] == [1, 4, 7]
    assert [offence(w, p) for w, p in (("minor", 3), ("middling", 6), ("major", 9))] == [3, 6, 9]
    for weight, points in (("middling", 3), ("major", 6), ("minor", 4)):
        with pytest.raises(RuleError, match="offences give"):
            offence(weight, points)


def test_a_passed_resolve_test_against_madness_costs_nothing() -> None:
    """Withstanding madness: only a failed Resolve Test brings the mental Peril and the
    Corruption; passed against Fear (40%, a 34), the event names the situation and records no
    Peril and no Corruption, and the character is unchanged."""
    t = table({"anna": {"skills": {"Resolve": 40}}})
    t = act(t, "anna", "madness", [34], situation="fear")
    data = last(t, "madness.withstood")
    assert (data["situation"], data["mental_peril"], data["peril_faces"], data["corruption"]) == (
        "Fear",
        0,
        [],
        0,
    )
    assert data["roll"]["label"] == "Anna withstands Fear"
    assert t.state.character("anna").corruption == 0
    passed = withstand(Character("c", skills={"Resolve": 40}), "Terror", ScriptedSource([15]))
    assert (passed.situation, passed.mental_peril, passed.corruption) == ("Terror", 0, 0)


def test_a_listed_offence_with_a_range_gives_any_points_of_it_and_names_it_when_refused() -> None:
    """Corruption, the offence lists: "Channeling power (1-3)" gives 1, 2 or 3 points as the GM
    says; points outside it are refused, the refusal naming the printed range ("1-3") or the
    printed points ("6") of an offence with one value."""
    t = table({"a": {}})
    for points in (1, 2):
        done = act(
            t, "referee", "corruption", character="a", offence="Channeling power", points=points
        )
        assert done.state.character("a").corruption == points
    with pytest.raises(RuleError, match=r"Channeling power gives 1-3 points, not 4$"):
        act(t, "referee", "corruption", character="a", offence="Channeling power", points=4)
    with pytest.raises(RuleError, match=r"Suffer a Serious Injury gives 6 points, not 5$"):
        act(t, "referee", "corruption", character="a", offence="Suffer a Serious Injury", points=5)


def test_the_gm_gives_corruption_and_ends_the_session_and_a_character_withstands_madness() -> None:
    """Corruption and Madness at the table: the GM gives Corruption for an offence (to any
    character, by weight) and ends the session (for every character, or, when one follows a
    daemon — whose rules are not in the text — for the others); a character with Resolve who is
    not Incapacitated! withstands Stress, Fear or Terror; nobody else has that choice."""
    t = table(
        {
            "anna": {"skills": {"Resolve": 40}},
            "bert": {"skills": {"Resolve": 40}, "peril": 5},
            "cora": {},
            "dora": {"daemon_expert": True, "skills": {"Resolve": 30}},
        }
    )
    corruption, end = madness_choices(t.state, "referee")
    assert (corruption.kind, corruption.label, corruption.params) == (
        "corruption",
        "Corruption for an offence",
        {
            "character": OneOf(("anna", "bert", "cora", "dora")),
            "weight": OneOf(("minor", "middling", "major")),
            "offence": Text(""),
        },
    )
    assert (corruption.actor, end.actor) == ("referee", "referee")
    assert (end.kind, end.label, end.params) == (
        "session.end",
        "end the session: resolve Corruption",
        {"characters": OneOf((["anna", "bert", "cora"],))},
    )
    (withstand_choice,) = madness_choices(t.state, "anna")
    assert (withstand_choice.kind, withstand_choice.label, withstand_choice.params) == (
        "madness",
        "withstand madness",
        {"situation": OneOf(("Stress", "Fear", "Terror"))},
    )
    assert [p.label for p in withstand_choice.odds] == [
        "Anna withstands Stress",
        "Anna withstands Fear",
        "Anna withstands Terror",
    ]
    (dora,) = madness_choices(t.state, "dora")
    assert dora.odds[0].label == "Dora withstands Stress"
    for nobody in ("bert", "cora", "zed"):
        assert madness_choices(t.state, nobody) == []
    plain = table({"anna": {"skills": {"Resolve": 40}}})
    assert [(c.actor, c.params) for c in madness_choices(plain.state, "referee")] == [
        (
            "referee",
            {
                "character": OneOf(("anna",)),
                "weight": OneOf(("minor", "middling", "major")),
                "offence": Text(""),
            },
        ),
        ("referee", {}),
    ]
    assert madness_choices(table({}).state, "referee") == []


def test_a_disorder_gained_is_recorded_as_a_list_and_folded_into_the_sheet() -> None:
    """Corruption into Order & Chaos: ten ranks of Chaos give a Disorder; the event records the
    sheet's changes in the sheet's order (the Disorders as a JSON list), and the fold adds the
    Disorder to the character."""
    t = table(
        {"a": {"chaos_ranks": 9, "order_ranks": 4, "permanent_order_ranks": 1, "corruption": 1}}
    )
    t = act(t, "referee", "session.end", [1], disorders={"a": "Pyromania"})
    changes = last(t, "corruption.resolved")["characters"]["a"]
    assert list(changes) == ["reputation", "order_ranks", "chaos_ranks", "corruption", "disorders"]
    assert changes["disorders"] == ["Pyromania"]
    assert t.state.character("a").disorders == ("Pyromania",)
