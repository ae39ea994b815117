"""Social Intrigue: Simple and Complex Exchanges, the GM's secret Skills, Reputation for an
Assist Die, the outcome tables, Critical Success and Critical Failure."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.core import (
    Action,
    Choice,
    Event,
    OddsPreview,
    OneOf,
    Outcome,
    RuleError,
    Viewer,
    view,
)
from referee.dice import ScriptedSource
from referee.systems.zweihander import social
from referee.systems.zweihander.events import SIMPLE_EXCHANGE
from referee.systems.zweihander.percentile import SkillTest
from referee.systems.zweihander.social import (
    DISPOSITIONS,
    TACTICS,
    exchange_outcome,
    rank_standing,
    simple_exchange_difficulty,
    tactic,
    tactic_outcome,
)
from referee.systems.zweihander.state import ZweihanderState
from referee.systems.zweihander.tables import social_table

from .helpers import _card, _line, act, last, table


def test_rank_standing() -> None:
    assert rank_standing(3, 1) == "order higher"
    assert rank_standing(1, 3) == "chaos higher"
    assert rank_standing(2, 2) == "equal"


@pytest.mark.parametrize(
    ("npc", "order", "chaos", "same", "expected"),
    [
        ("order", 3, 0, True, 20),
        ("order", 3, 0, False, 10),
        ("order", 0, 3, True, 0),
        ("order", 0, 3, False, -20),
        ("order", 1, 1, True, 10),
        ("order", 1, 1, False, 0),
        ("chaos", 3, 0, True, 0),
        ("chaos", 3, 0, False, -20),
        ("chaos", 0, 3, True, 20),
        ("chaos", 0, 3, False, 10),
        ("chaos", 1, 1, True, 10),
        ("chaos", 1, 1, False, 0),
    ],
)
def test_simple_exchange_difficulty_every_cell(
    npc: str, order: int, chaos: int, same: bool, expected: int
) -> None:
    assert (
        simple_exchange_difficulty(npc, pc_order_ranks=order, pc_chaos_ranks=chaos, same_class=same)
        == expected
    )


def test_tactic_outcome_every_cell() -> None:
    data = social_table()
    for (t, d), success in itertools.product(
        itertools.product(TACTICS, DISPOSITIONS), (True, False)
    ):
        expected = data["success" if success else "failure"][t][DISPOSITIONS.index(d)]
        assert tactic_outcome(t, d, success=success) == expected
    assert tactic("Rumor") == "Rumour"
    with pytest.raises(RuleError):
        tactic("Seduction")


def test_critical_success_reads_helpful_critical_failure_reads_hostile() -> None:
    assert exchange_outcome("Bargain", "Hostile", Outcome.CRITICAL_SUCCESS) == (
        "Helpful",
        "Generous",
    )
    assert exchange_outcome("Bargain", "Helpful", Outcome.CRITICAL_FAILURE) == (
        "Hostile",
        "Unhappy",
    )
    assert exchange_outcome("Bargain", "Polite", Outcome.SUCCESS) == ("Polite", "Civil")
    assert exchange_outcome("Bargain", "Polite", Outcome.FAILURE) == ("Polite", "Disgruntled")


CHARS = {
    "anna": {
        "bonuses": {"WB": 3},
        "skills": {"Charm": 50, "Guile": 50},
        "order_ranks": 2,
        "social_class": "noble",
        "reputation": 1,
    },
    "bert": {"bonuses": {"WB": 3}, "skills": {"Intimidate": 50, "Rumor": 40}, "reputation": 0},
}


def exchange(favourable: str = "Charm", unfavourable: str = "Intimidate") -> Any:
    return act(
        table(CHARS, fortune_points=1),
        "referee",
        "exchange.start",
        npc="Countess",
        disposition="Indifferent",
        npc_alignment="order",
        npc_class="noble",
        participants=["anna", "bert"],
        favourable=favourable,
        unfavourable=unfavourable,
    )


def test_simple_exchange_critical_failure_imposes_mental_peril() -> None:
    t = act(
        table(CHARS),
        "anna",
        "social.simple",
        [99, 5, 5],
        skill="Charm",
        npc_alignment="chaos",
        npc_class="peasant",
    )
    data = last(t, "social.simple_exchange")
    assert data["test"]["total_chance"] == 50 - 20  # Chaos NPC, Order higher, other class
    assert (data["mental_peril"], data["peril_faces"]) == (12, [5, 5])  # 2D10+2: the d10s rolled
    assert t.state.character("anna").peril_condition == "Ignore 1 Skill Rank"


def test_favourable_skill_bumps_success_and_awards_a_fortune_point() -> None:
    t = act(exchange(), "anna", "exchange.tactic", [40], tactic="Charm")
    data = last(t, "exchange.tactic_tested")
    assert data["test"]["total_chance"] == 70  # Order NPC, Order higher, same class: Easy
    assert data["outcome"] == "critical success" and data["result"] == "Affectionate"
    assert t.state.fortune_points == 2


def test_unfavourable_skill_drops_failure_and_imposes_mental_peril() -> None:
    t = act(exchange(), "bert", "exchange.tactic", [80, 1, 1], tactic="Intimidate")
    data = last(t, "exchange.tactic_tested")
    assert data["outcome"] == "critical failure" and data["result"] == "Aggressive"
    assert data["mental_peril"] == 4
    assert t.state.fortune_points == 1


def test_burning_reputation_grants_an_assist_die() -> None:
    t = act(
        exchange(favourable="Bargain"),
        "anna",
        "exchange.tactic",
        [74, 2],
        tactic="Guile",
        burn_reputation=True,
    )
    data = last(t, "exchange.tactic_tested")
    assert data["test"]["face"] == 24 and data["outcome"] == "success"
    assert data["result"] == "Trusting"
    assert t.state.character("anna").reputation == 0
    with pytest.raises(RuleError, match="no Reputation Point"):
        act(t, "bert", "exchange.tactic", [50], tactic="Rumour", burn_reputation=True)


def test_each_participant_tests_once_and_only_participants() -> None:
    t = act(exchange(), "anna", "exchange.tactic", [40], tactic="Charm")
    with pytest.raises(RuleError, match="already made"):
        act(t, "anna", "exchange.tactic", [40], tactic="Guile")
    with pytest.raises(RuleError, match="only the referee"):
        act(t, "anna", "exchange.end")


def test_the_rumour_tactic_reads_a_skill_spelled_rumor() -> None:
    t = act(exchange(), "bert", "exchange.tactic", [30], tactic="Rumour")
    assert last(t, "exchange.tactic_tested")["result"] == "Familiar"


@settings(max_examples=30, deadline=None)
@given(
    fav=st.sampled_from(TACTICS),
    unfav=st.sampled_from(TACTICS),
    face=st.integers(1, 100),
    end=st.booleans(),
)
def test_the_gms_secret_skills_never_reach_a_player_before_the_exchange_ends(
    fav: str, unfav: str, face: int, end: bool
) -> None:
    if fav == unfav:
        return
    t = exchange(fav, unfav)
    t = t.act(Action("anna", "exchange.tactic", {"tactic": "Charm"}), ScriptedSource([face, 5, 5]))
    for viewer in (Viewer("alice", frozenset({"anna"})), Viewer("bert"), Viewer("public")):
        for e in view(t.log, viewer):
            assert "favourable" not in e.data and "unfavourable" not in e.data
            assert "bumped_by" not in e.data
        state = t.visible_state(viewer)
        assert state is not None and "favourable" not in state["exchange"]
    assert last(t, "exchange.started")["favourable"] == fav  # the referee sees it
    if end:
        t = act(t, "referee", "exchange.end")
        for viewer in ("alice", "bert", "public"):
            ended = [e for e in view(t.log, viewer) if e.kind == "exchange.ended"]
            assert ended[0].data["favourable"] == fav
            assert ended[0].data["unfavourable"] == unfav


def _player_views(fav: str, unfav: str, anna: int, bert: int) -> list[Any]:
    t = exchange(fav, unfav)  # each test's d100, then 2d10 of Peril should it need them
    t = t.act(Action("anna", "exchange.tactic", {"tactic": "Charm"}), ScriptedSource([anna, 5, 5]))
    t = t.act(
        Action("bert", "exchange.tactic", {"tactic": "Intimidate"}), ScriptedSource([bert, 5, 5])
    )
    views = []
    for viewer in (Viewer("alice", frozenset({"anna"})), Viewer("bert"), Viewer("public")):
        views.append(
            (
                [(e.kind, e.data, e.redacted) for e in view(t.log, viewer)],
                t.visible_state(viewer),
            )
        )
    return views


OTHER_SKILLS = [s for s in TACTICS if s not in ("Charm", "Intimidate")]


@settings(max_examples=40, deadline=None)
@given(
    first=st.permutations(OTHER_SKILLS).map(lambda p: p[:2]),
    second=st.permutations(OTHER_SKILLS).map(lambda p: p[:2]),
    anna=st.integers(1, 100),
    bert=st.integers(1, 100),
)
def test_a_players_view_is_the_same_whichever_skills_the_gm_chose(
    first: list[str], second: list[str], anna: int, bert: int
) -> None:
    """Before the exchange ends, nothing a player or the public sees depends on the GM's secret
    Skills when no tactic used is one of them: not a value, not a redaction, not the state."""
    assert _player_views(*first, anna, bert) == _player_views(*second, anna, bert)


def test_every_tactic_test_hides_the_same_parts_bumped_or_not() -> None:
    """The list of hidden parts is no tell: a test no secret Skill touched hides 'bumped_by' too."""
    plain = act(exchange(), "anna", "exchange.tactic", [40], tactic="Guile")
    bumped = act(exchange(), "anna", "exchange.tactic", [40], tactic="Charm")
    for t in (plain, bumped):
        tested = [e for e in view(t.log, "alice") if e.kind == "exchange.tactic_tested"]
        assert tested[0].redacted == ("bumped_by",)
    assert last(plain, "exchange.tactic_tested")["bumped_by"] is None
    assert last(bumped, "exchange.tactic_tested")["bumped_by"] == "favourable"


def test_a_simple_exchange_records_who_tested_which_skill() -> None:
    """Simple Exchange: one Test of the Skill; its event names the character and the Skill, and
    its roll card the rule."""
    t = act(
        table(CHARS),
        "anna",
        "social.simple",
        [40],
        skill="Charm",
        npc_alignment="order",
        npc_class="burgher",
    )
    data = last(t, "social.simple_exchange")
    assert (data["character"], data["test"]["skill"], data["test"]["outcome"]) == (
        "anna",
        "Charm",
        "success",
    )
    card = data["roll"]
    assert (card["label"], card["rule"]) == (
        "Anna tests Charm (Simple Exchange)",
        "Simple Exchange",
    )


def test_the_log_says_what_a_simple_exchange_costs() -> None:
    """Simple Exchange: a Critical Failure costs mental Peril; otherwise nothing."""
    assert (
        _line(SIMPLE_EXCHANGE, character="anna", roll=_card(99), mental_peril=5)
        == "Anna tries a Simple Exchange — d100 99: critical failure; 5 mental Peril."
    )
    assert (
        _line(SIMPLE_EXCHANGE, character="anna", roll=_card(34))
        == "Anna tries a Simple Exchange — d100 34: success."
    )


def test_an_unfavourable_skill_turns_a_failure_critical_in_the_tests_own_reading() -> None:
    """Social Intrigue, Complex Exchange: the Unfavourable Skill turns Failures into Critical
    Failures; a Success stays a Success."""
    test = SkillTest(40, unfavourable=True)
    assert test.outcome_of(57) is Outcome.CRITICAL_FAILURE
    assert test.outcome_of(23) is Outcome.SUCCESS
    assert test.roll(ScriptedSource([57])).outcome is Outcome.CRITICAL_FAILURE
    assert test.odds().outcomes[Outcome.FAILURE] == 0


def test_one_complex_exchange_at_a_time_and_a_new_one_once_it_has_ended() -> None:
    """Social Intrigue, Complex Exchange: the GM starts one exchange; another can begin only
    after it ends; an exchange ends once."""
    baron = {
        "npc": "Baron",
        "disposition": "Polite",
        "npc_alignment": "chaos",
        "participants": ["anna"],
        "favourable": "Guile",
        "unfavourable": "Charm",
    }
    t = exchange()
    with pytest.raises(RuleError, match="already under way"):
        act(t, "referee", "exchange.start", **baron)
    t = act(t, "referee", "exchange.end")
    with pytest.raises(RuleError, match="no Complex Exchange"):
        act(t, "referee", "exchange.end")
    t = act(t, "referee", "exchange.start", **baron)
    assert t.state.exchange is not None
    assert (t.state.exchange.npc, t.state.exchange.ended) == ("Baron", False)
    with pytest.raises(RuleError, match="no Complex Exchange"):
        act(table(CHARS), "referee", "exchange.end")


def test_a_simple_exchange_during_a_complex_one_does_not_end_it() -> None:
    """A Simple Exchange is its own Test: the Complex Exchange under way goes on, and its
    participants still make their Social Tactic Tests."""
    t = act(
        exchange(),
        "anna",
        "social.simple",
        [40],
        skill="Guile",
        npc_alignment="order",
        npc_class="noble",
    )
    assert t.state.exchange is not None and not t.state.exchange.ended
    t = act(t, "bert", "exchange.tactic", [30], tactic="Rumour")
    assert last(t, "exchange.tactic_tested")["result"] == "Familiar"


def test_a_players_view_of_an_exchange_leaves_the_gms_skills_unknown() -> None:
    """Complex Exchange: the Favourable and Unfavourable Skills are the GM's secret; folded
    from a player's view of the log the exchange names neither, folded from the GM's it names
    both."""
    t = exchange()
    (started,) = [e for e in view(t.log, "anna") if e.kind == "exchange.started"]
    ex = social.evolve(ZweihanderState(), started).exchange
    assert ex is not None
    assert (ex.favourable, ex.unfavourable) == (None, None)
    (full,) = [e for e in view(t.log, "referee") if e.kind == "exchange.started"]
    ex = social.evolve(ZweihanderState(), full).exchange
    assert ex is not None
    assert (ex.favourable, ex.unfavourable) == ("Charm", "Intimidate")


def test_an_exchange_recorded_without_objectives_or_a_list_of_participants_folds_none() -> None:
    """Complex Exchange: the GM's objectives and stakes are optional (none recorded: none
    folded), and its participants are a list (a record's other value places nobody)."""
    (started,) = [e for e in exchange().log.events if e.kind == "exchange.started"]
    payload = {k: v for k, v in started.payload.items() if k not in ("objectives", "stakes")}
    ex = social.evolve(ZweihanderState(), Event(started.kind, {**payload, "participants": "ab"}))
    assert ex.exchange is not None
    assert (ex.exchange.objectives, ex.exchange.stakes, ex.exchange.participants) == ("", "", ())


def test_a_participants_menu_offers_each_tactic_with_its_odds_and_reputation_to_burn() -> None:
    """Complex Exchange: each participant who has not tested picks a Social Tactic they have a
    Base Chance for, at the exchange's Difficulty (an Order NPC, Order higher, same class: Easy,
    +20), and may burn a Reputation Point for an Assist Die only with one to burn; the GM's
    menu ends the exchange."""
    t = exchange()
    anna, bert = CHARS["anna"]["skills"], CHARS["bert"]["skills"]
    assert (anna["Charm"], bert["Intimidate"], bert["Rumor"]) == (50, 50, 40)
    assert social.choices(t.state, "anna")[0] == Choice(
        "anna",
        "exchange.tactic",
        {"tactic": OneOf(("Charm", "Guile")), "burn_reputation": OneOf((False, True))},
        odds=tuple(
            OddsPreview(
                f"anna uses {tactic}",
                "Complex Exchange",
                "d100 ≤ 70",
                {
                    "critical success": "7/100",
                    "success": "63/100",
                    "failure": "13/50",
                    "critical failure": "1/25",
                },
            )
            for tactic in ("Charm", "Guile")
        ),
        label="make your Social Tactic Test",
    )
    bert_menu = social.choices(t.state, "bert")[0]
    assert bert_menu.params["burn_reputation"] == OneOf((False,))  # no Reputation Point
    assert [(o.label, o.dice) for o in bert_menu.odds] == [
        ("bert uses Intimidate", "d100 ≤ 50"),  # Order NPC, ranks equal, other class: Standard
        ("bert uses Rumour", "d100 ≤ 40"),
    ]
    assert social.choices(t.state, "referee") == [
        Choice("referee", "exchange.end", label="end the Complex Exchange")
    ]


def test_an_npcs_alignment_may_be_written_order_aligned() -> None:
    """Simple Exchange: "Order-aligned" or "Chaos-Aligned" reads as the Alignment."""
    for written, expected in (("Order-aligned", 10), ("Chaos-Aligned", -20), ("chaos", -20)):
        assert (
            social.simple_exchange_difficulty(
                written, pc_order_ranks=3, pc_chaos_ranks=0, same_class=False
            )
            == expected
        )
