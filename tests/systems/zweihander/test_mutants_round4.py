"""Round 4 of issue 13's mutation testing (docs/systems/zweihander.md, "Mutation testing"):
tests that kill the mutants of ``percentile.py``, ``skill_tests.py`` and ``social.py`` that the
suite left alive. Each asserts an outcome of the rules text (parent-games.md's d100 core, the
house rules' "Social Intrigue")."""

from __future__ import annotations

from fractions import Fraction

import pytest

from referee.core import Choice, OddsPreview, OneOf, Outcome, RuleError, view
from referee.dice import ScriptedSource
from referee.systems.zweihander import emit, percentile, social, tables
from referee.systems.zweihander.percentile import ChaosDice, SkillTest, total_chance
from referee.systems.zweihander.state import ZweihanderState

from .helpers import act, last, table
from .test_social import CHARS, exchange


class _Recording:
    """A dice source that records the die asked for and rolls its highest face."""

    def __init__(self) -> None:
        self.asked: list[int] = []

    def roll(self, sides: int) -> int:
        self.asked.append(sides)
        return sides


def test_total_chance_without_a_difficulty_is_the_base_chance() -> None:
    """parent-games.md: Total Chance = Base Chance + Difficulty Rating; none given is Standard
    (+0)."""
    assert total_chance(45) == 45
    assert total_chance(1) == 1
    assert total_chance(99) == 99


def test_an_unfavourable_skill_turns_a_failure_critical_in_the_tests_own_reading() -> None:
    """Social Intrigue, Complex Exchange: the Unfavourable Skill turns Failures into Critical
    Failures; a Success stays a Success."""
    test = SkillTest(40, unfavourable=True)
    assert test.outcome_of(57) is Outcome.CRITICAL_FAILURE
    assert test.outcome_of(23) is Outcome.SUCCESS
    assert test.roll(ScriptedSource([57])).outcome is Outcome.CRITICAL_FAILURE
    assert test.odds().outcomes[Outcome.FAILURE] == 0


def test_a_tests_odds_and_its_roll_card_read_best_outcome_first() -> None:
    """A roll card lists the outcomes best first: critical success, success, failure,
    critical failure."""
    # the odds are memoised, and other test modules fill the memo when they are imported
    percentile._test_odds.cache_clear()
    assert list(SkillTest(50).odds().outcomes) == [
        Outcome.CRITICAL_SUCCESS,
        Outcome.SUCCESS,
        Outcome.FAILURE,
        Outcome.CRITICAL_FAILURE,
    ]
    card = emit.test_card(SkillTest(50), SkillTest(50).roll(ScriptedSource([50])), "x", "r")
    assert list(card["odds"]) == ["critical success", "success", "failure", "critical failure"]


def test_a_rolled_test_reports_its_d100_and_its_assist_die() -> None:
    """A Skill Test rolls d100; with an Assist Die, a d10 after it (parent-games.md)."""
    result = SkillTest(40, assist=True).roll(ScriptedSource([57, 3]))
    assert result.value == 37
    assert [r.describe() for r in result.rolls] == ["1d100 (57) = 57", "1d10 (3) = 3"]
    assert result.describe() == "1d100 (57) = 57; 1d10 (3) = 3 → success (margin +3)"
    plain = SkillTest(40).roll(ScriptedSource([57]))
    assert plain.describe() == "1d100 (57) = 57 → failure (margin -17)"


def test_a_chaos_die_is_a_d6() -> None:
    """parent-games.md, "Chaos Die": a d6 that triggers on a 6."""
    source = _Recording()
    rolled = ChaosDice(2).roll(source)
    assert source.asked == [6, 6]
    assert rolled.faces == (6, 6)
    assert rolled.sixes == 2


def test_a_skill_test_as_json_names_its_chances_and_assist_die() -> None:
    """A Skill Test as JSON: Base Chance, Difficulty Rating, the Total Chance they make
    (clamped to 1–99) and whether an Assist Die helps."""
    assert SkillTest(45, -20, assist=True).to_json() == {
        "base_chance": 45,
        "difficulty": -20,
        "total_chance": 25,
        "assist": True,
    }
    assert SkillTest(90, 30).to_json() == {
        "base_chance": 90,
        "difficulty": 30,
        "total_chance": 99,
        "assist": False,
    }


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


def test_a_test_of_a_chance_given_outright_is_labelled_with_that_chance() -> None:
    """Skill Test: with no Skill named, the chance given outright is the Base Chance; the roll
    card says so ("anna tests a chance of 45")."""
    t = act(table(CHARS), "anna", "test", [20], chance=45, difficulty="Hard")
    data = last(t, "test.rolled")
    assert data["roll"]["label"] == "Anna tests a chance of 45"
    assert data["roll"]["dice"] == "d100 ≤ 25"
    assert data["outcome"] == "success"


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


def test_no_chaos_dice_show_no_dice() -> None:
    """Threat Level "No Danger" rolls 0 Chaos Dice: the card shows "no dice", never
    triggered."""
    none = ChaosDice(0)
    card = emit.chaos_card(none, none.roll(ScriptedSource([])), "Chaos Dice", "Threat Level")
    assert (card["shown"], card["outcome"], card["faces"]) == ("no dice", "not triggered", [])
    two = ChaosDice(2)
    card = emit.chaos_card(two, two.roll(ScriptedSource([6, 2])), "Chaos Dice", "Threat Level")
    assert card["shown"] == "6, 2"


def test_a_probability_reads_as_a_percentage() -> None:
    assert emit.percent(Fraction(1, 4)) == "25.0%"
    assert emit.percent(Fraction(377, 500)) == "75.4%"


def test_a_table_cell_range_is_low_then_high_and_may_be_one_value() -> None:
    """The data files' ranges (a requisition's cost, an offence's Corruption points) are
    [low, high] with low ≤ high; anything else names the field."""
    assert tables._range([1, 3], "w") == (1, 3)
    assert tables._range([2, 2], "w") == (2, 2)
    for bad in ((1, 3), [1], [1, 2, 3], [1, "3"], ["1", 3], [3, 1], None):
        with pytest.raises(tables.TableError, match=r"w: expected \[low, high\]"):
            tables._range(bad, "w")


def test_a_table_list_of_texts_has_only_non_empty_texts() -> None:
    assert tables._strings(["Stress", "Fear"], "w") == ("Stress", "Fear")
    for bad in ("Stress", ["Stress", ""], ["Stress", 3], None):
        with pytest.raises(tables.TableError, match="w: expected a list of texts"):
            tables._strings(bad, "w")


def test_a_table_field_of_the_wrong_type_is_refused_a_flag_is_no_number() -> None:
    """A data file's field must have its type: ``true`` is no modifier, but a flag may be a
    flag."""
    assert tables._get({"forced": True}, "forced", "w", bool) is True
    assert tables._get({"modifier": -20}, "modifier", "w", int) == -20
    with pytest.raises(tables.TableError, match=r"w\.modifier: expected"):
        tables._get({"modifier": True}, "modifier", "w", int)
    with pytest.raises(tables.TableError, match="w: missing 'modifier'"):
        tables._get({}, "modifier", "w", int)


def test_a_tables_rows_are_read_from_its_file_and_named_by_file_list_and_index(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A malformed data file raises TableError naming the file and the field."""
    rows = list(tables._rows("difficulty", "ratings"))
    assert [where for where, _ in rows][:2] == [
        "difficulty.yaml.ratings.0",
        "difficulty.yaml.ratings.1",
    ]
    assert rows[0][1] == {"name": "Trivial", "modifier": 30}
    monkeypatch.setattr(tables, "load", lambda name: {"other": []})
    with pytest.raises(tables.TableError, match=r"^difficulty\.yaml: missing 'ratings'$"):
        list(tables._rows("difficulty", "ratings"))
