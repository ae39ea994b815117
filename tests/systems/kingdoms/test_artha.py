"""Artha (parent-games.md, "Burning Wheel": Fate, Persona, Deeds): what a sheet may spend, before
the roll (Persona +1D, Deeds doubling the exponent) and after it (Fate opening 6s or rerolling one
failed die, Deeds rerolling every failed die), the odds of each choice, and the roll artha is spent
on at the table.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from referee.core import Action, OneOf, Outcome, RuleError, Table, observe
from referee.core.checks import BLACK
from referee.dice import ScriptedSource
from referee.systems.kingdoms import PROCEDURE
from referee.systems.kingdoms.choices import has_a_move
from referee.systems.kingdoms.dice import (
    Artha,
    BurningPool,
    BurningTest,
    BurningVersus,
    Shade,
    artha_buys_nothing,
    artha_choices,
    obstacle_odds,
    roll_before,
    roll_pool,
    spend_after,
    success_distribution,
    versus_odds,
)
from referee.systems.kingdoms.outcomes import meetings
from referee.systems.kingdoms.scripting import pool_roll_from, reveal_odds
from referee.systems.kingdoms.state import Slip

from .helpers import (
    ALWAYS,
    EVERY_SEAT,
    PLAYERS,
    _act,
    _both_fortify,
    _kingdom,
    _menu,
    _new,
    _pass_all,
    _pools,
    _revealed,
    _scripted,
)
from .test_procedure import act, all_pass, sealed, setup


def test_no_artha_on_the_sheet_means_only_the_plain_roll() -> None:
    """Artha is spent from what the sheet holds: a sheet naming none offers only "no artha"."""
    assert artha_choices(BurningPool(3), {}) == [Artha()]


def test_two_deeds_offer_before_after_and_both() -> None:
    """Deeds: "before: double the base exponent; after: reroll every failed die; at most 2, one
    of each use" — with 2 Deeds and nothing else, exactly the four uses, in order."""
    assert artha_choices(BurningPool(3), {"deeds": 2}) == [
        Artha(),
        Artha(deeds_after=True),
        Artha(deeds_before=True),
        Artha(deeds_before=True, deeds_after=True),
    ]


def test_one_deed_and_one_fate() -> None:
    """One Deeds point buys one use, before or after; one Fate point is one Fate."""
    assert artha_choices(BurningPool(3), {"deeds": 1, "fate": 1, "persona": 1}) == [
        Artha(persona=p, deeds_before=b, fate=f, deeds_after=a)
        for p in (0, 1)
        for b, a in ((False, False), (False, True), (True, False))
        for f in (False, True)
    ]


def test_a_fated_test_gives_every_margin_and_the_failure() -> None:
    """Fate after the roll: the odds split into pass and fail (summing to 1), each margin is the
    successes less the Ob, and the successes are the roller's distribution."""
    odds = BurningTest(BurningPool(2), 2, Artha(fate=True)).odds()
    dist = success_distribution(2, Shade.BLACK, False, Artha(fate=True))
    assert odds.successes == dist
    assert odds.outcomes[Outcome.SUCCESS] == sum(p for k, p in dist.items() if k >= 2)
    assert odds.outcomes[Outcome.FAILURE] == sum(p for k, p in dist.items() if k < 2)
    assert odds.margins == {k - 2: p for k, p in sorted(dist.items())}
    assert sum(odds.margins.values()) == 1


@pytest.mark.parametrize("open_ended", [False, True], ids=["closed", "open-ended"])
def test_a_versus_test_with_artha_after_the_roll_keeps_each_pools_nature(
    open_ended: bool,
) -> None:
    """A versus test with Fate (attacker) and Deeds after (defender): each side's pool keeps its
    open-endedness ("Fate: make 6s open-ended, or reroll one failed die if the test is
    open-ended already"); the defender wins ties."""
    attacker = BurningPool(2, open_ended=open_ended)
    defender = BurningPool(2, Shade.GREY, open_ended=not open_ended)
    fate, deeds = Artha(fate=True), Artha(deeds_after=True)
    odds = BurningVersus(attacker, defender, fate, deeds).odds()
    assert odds.success == versus_odds(attacker, defender, fate, deeds)
    assert odds.outcomes[Outcome.FAILURE] == 1 - odds.success
    assert odds.successes == success_distribution(2, Shade.BLACK, open_ended, fate)


def test_deeds_spent_after_the_roll_are_gone_from_the_roller() -> None:
    """Artha (Deeds after the roll: "reroll all failed dice"): the elves' Fortify rolls
    4, 1, 1, 1 (1 success); their one Deeds point rerolls the three failures (4, 4, 1):
    3 successes, the test settled, and the leader's Deeds spent — Fate untouched."""
    setup = _kingdom({}, artha={"fate": 1, "persona": 0, "deeds": 1})
    table = Table.start(PROCEDURE, setup, players=PLAYERS)
    table = _act(table, "elves", "write_slip", maneuver="Fortify", skill="Logistics")
    table = _act(table, "orcs", "write_slip", maneuver="Fortify", skill="Logistics")
    for f in ("elves", "orcs"):
        table = _act(table, f, "pass")
    table = _act(table, "elves", "reveal", [4, 1, 1, 1, 4, 4, 1, 1])
    assert (table.state.rolls["elves"].successes, table.state.rolls["elves"].decided) == (1, False)
    table = _act(table, "elves", "spend_artha", [4, 4, 1], deeds=True)
    rolled = table.state.rolls["elves"]
    assert (rolled.successes, rolled.decided) == (3, True)
    assert dict(table.state.factions["elves"].leader.artha) == {
        "fate": 1,
        "persona": 0,
        "deeds": 0,
    }


def test_the_roll_artha_is_spent_on_is_the_roll_as_it_was_rolled() -> None:
    """Artha: Fate and Deeds after the roll work on the roll as rolled — its dice, shade,
    open-endedness, successes and failed dice (a 4 at Black is a success, a 3 fails). An
    open-ended B4 rolls 6, 4, 3, 1 and its 6 again, a 2: 2 successes, 3 failed dice; read back
    from the event every seat receives, it is the same roll."""
    rolled = roll_before(4, BLACK, True, ScriptedSource([6, 4, 3, 1, 2]))
    assert (rolled.successes, rolled.failed, rolled.sixes) == (2, 3, 1)
    assert pool_roll_from(rolled.to_json()) == rolled


def test_a_roll_already_settled_or_never_rolled_cannot_be_kept() -> None:
    """Artha: a faction keeps its roll once, while it waits for after-the-roll artha. The
    elves' roll is settled, the orcs rolled nothing: keeping either is refused."""
    state = _revealed(elves=("Fortify", (), 3, 0))
    settled = replace(state.rolls["elves"], decided=True)
    state = replace(state, phase="rolled", rolls={"elves": settled})
    for faction in ("elves", "orcs"):
        with pytest.raises(RuleError):
            PROCEDURE.decide(state, Action(faction, "keep", {}), ScriptedSource([]))


def test_artha_after_the_roll_is_refused_when_it_would_change_no_die() -> None:
    """parent-games.md: Fate makes a closed roll's 6s open-ended, or rerolls one failed die of
    an open-ended one; Deeds rerolls every failed die (audit B6: a point that buys nothing is
    refused). Each refusal, and each spend that buys something."""

    def closed(*faces: int):
        return roll_before(len(faces), BLACK, False, ScriptedSource(list(faces)))

    def opened(*faces: int):
        return roll_before(len(faces), BLACK, True, ScriptedSource(list(faces)))

    assert (
        artha_buys_nothing(closed(4, 2), fate=False, deeds=False)
        == "spend fate, deeds or both (or keep the roll)"
    )
    assert (
        artha_buys_nothing(closed(4, 5), fate=False, deeds=True)
        == "Deeds rerolls failed dice, and the roll has none"
    )
    assert artha_buys_nothing(closed(4, 2), fate=False, deeds=True) is None
    assert (
        artha_buys_nothing(closed(4, 2), fate=True, deeds=False)
        == "Fate makes the roll's 6s open-ended, and it rolled no 6s"
    )
    # Fate with Deeds: the rerolled dice are open-ended too, 6s or not
    assert artha_buys_nothing(closed(4, 2), fate=True, deeds=True) is None
    assert artha_buys_nothing(closed(6, 5), fate=True, deeds=False) is None
    assert (
        artha_buys_nothing(opened(4, 5), fate=True, deeds=False)
        == "Fate rerolls a failed die of an open-ended roll, and it has none"
    )
    assert artha_buys_nothing(opened(4, 2), fate=True, deeds=False) is None


def test_deeds_after_the_roll_rerolls_an_open_ended_pools_failures_open_ended() -> None:
    """Deeds rerolls the failed dice; on an open-ended pool the reroll is open-ended too, so
    one die can reach Ob 2 (4–6 first, or 1–3 then 6 then 4–6; or 6 then a success)."""
    test = BurningTest(BurningPool(1, open_ended=True), 2, Artha(deeds_after=True))
    closed = BurningTest(BurningPool(1), 2, Artha(deeds_after=True))
    assert closed.odds().success == 0
    assert test.odds().success == obstacle_odds(
        BurningPool(1, open_ended=True), Artha(deeds_after=True), 2
    )
    assert test.odds().success > 0


def test_odds_are_exact_past_sixty_successes() -> None:
    """Exact odds: an Ob above the usual cap of 60 is still counted, not rounded to nothing
    (one open-ended die with Fate: 61 successes need sixty 6s and a success)."""
    test = BurningTest(BurningPool(1, open_ended=True), 61, Artha(fate=True))
    assert test.odds().success > 0


def test_each_artha_choice_is_named_by_what_it_spends() -> None:
    """The odds of each artha choice are listed by its name: Persona, Deeds before (double),
    Fate, Deeds after (reroll), joined by "+"; "no artha" when none."""
    every = Artha(persona=2, deeds_before=True, fate=True, deeds_after=True)
    assert every.label() == "2 Persona + Deeds (double) + Fate + Deeds (reroll)"
    assert Artha().label() == "no artha"


@pytest.mark.parametrize(
    "artha,faces",
    [(Artha(fate=True), [6, 2, 4]), (Artha(deeds_after=True), [4, 2, 5])],
    ids=["fate", "deeds"],
)
def test_artha_after_the_roll_is_spent_once_on_a_test(artha: Artha, faces: list[int]) -> None:
    """Fate or Deeds after the roll, once spent, closes the test to more after-roll artha."""
    rolled = roll_pool(2, BLACK, False, artha, ScriptedSource(faces))
    with pytest.raises(RuleError, match="spent once"):
        spend_after(rolled, Artha(fate=True, deeds_after=True), ScriptedSource([4, 4, 4]))


def test_fate_on_an_open_ended_roll_leaves_the_other_failed_dice_failed() -> None:
    """Fate rerolls one failed die of an open-ended roll: of 1 and 2, the 2 stays failed when
    the reroll succeeds."""
    rolled = roll_pool(2, BLACK, True, Artha(fate=True), ScriptedSource([1, 2, 5]))
    assert (rolled.successes, rolled.failed) == (1, 1)


def test_fate_after_the_roll_is_carded_as_the_factions_artha_on_its_roll() -> None:
    """Artha: Fate after the roll; every seat receives the roll card of the spend, named for
    the faction and the pool it was spent on."""
    data = setup()
    data["factions"]["elves"]["leader"]["artha"] = {"fate": 1, "persona": 0, "deeds": 0}
    table = sealed(Table.start(PROCEDURE, data))
    table = act(all_pass(table), "elves", "reveal", [6, 1, 1, 1] + [4] * 9)
    table = act(table, "elves", "spend_artha", [6, 5], fate=True)
    spent = table.log.events[-1]
    assert spent.payload["roll"]["label"] == "the Elves' Fate on the roll"  # type: ignore[index,call-overload]
    assert spent.payload["successes"] == 3


def test_a_roll_waits_for_artha_after_it_only_while_the_roller_has_fate_or_deeds() -> None:
    """Artha: Fate and Deeds are spent after the roll. A leader with 1 Deeds (and no Fate), or
    1 Fate (and no Deeds), may still spend it: the roll is not settled; with neither, it is
    settled at once."""
    for artha, settled in (
        ({"fate": 0, "persona": 0, "deeds": 1}, False),
        ({"fate": 1, "persona": 0, "deeds": 0}, False),
        ({"fate": 0, "persona": 1, "deeds": 0}, True),
    ):
        table = _both_fortify(artha)
        assert table.state.rolls["elves"].decided is settled, artha


def test_the_reveal_odds_offer_each_after_the_roll_artha_the_roller_has() -> None:
    """Artha after the roll: each engagement's odds with no artha, Fate and Deeds, as far as
    the roller has them. The elves' Assess of the orcs meets their Fortify independently at
    Ob 2 (4 black dice: 11/16; with Fate 35/48; with Deeds 243/256); the unopposed Fortify
    of the orcs is at Ob 2, needing 3 for a margin (5/16)."""
    state = Table.start(PROCEDURE, _kingdom({}), players=PLAYERS).state
    state = _scripted(
        state, Slip("elves", "Assess", "Logistics", ("orcs",)), Slip("orcs", "Fortify", "Logistics")
    )
    order, pools = ("elves", "orcs"), _pools(elves=(4, 0), orcs=(4, 0))
    chances = {
        "no artha": "11/16",
        "Fate": "35/48",
        "Deeds (reroll)": "243/256",
    }
    for artha, shown in (
        ({"fate": 1, "persona": 0, "deeds": 0}, ["no artha", "Fate"]),
        ({"fate": 0, "persona": 0, "deeds": 1}, ["no artha", "Deeds (reroll)"]),
        ({"fate": 1, "persona": 0, "deeds": 1}, ["no artha", "Fate", "Deeds (reroll)"]),
    ):
        elves = state.factions["elves"]
        with_artha = replace(
            state,
            factions={
                **state.factions,
                "elves": replace(elves, leader=replace(elves.leader, artha=artha)),
            },
        )
        assess, fortify = reveal_odds(with_artha, order, {}, pools)
        assert (assess["attacker"], assess["target"], assess["kind"]) == (
            "elves",
            "orcs",
            "independent",
        )
        assert (assess["needed"], assess["obstacle"], assess["dice"]) == (2, 2, 4)
        assert assess["chance"] == {k: chances[k] for k in shown}
        assert fortify == {
            "needed": 3,
            "attacker": "orcs",
            "target": None,
            "kind": "independent",
            "cell": "-",
            "dice": 4,
            "obstacle": 2,
            "chance": {"no artha": "5/16"},
        }


def test_artha_on_a_test_spends_a_point_for_each_use() -> None:
    """Artha: Persona (+1D each), Deeds before (double) and after (reroll) — one point each
    use, so both uses cost 2 — and Fate, 1 point. Recorded by each use."""
    assert Artha().spent() == {"fate": 0, "persona": 0, "deeds": 0}
    everything = Artha(persona=2, deeds_before=True, fate=True, deeds_after=True)
    assert everything.spent() == {"fate": 1, "persona": 2, "deeds": 2}
    assert Artha(deeds_after=True).spent() == {"fate": 0, "persona": 0, "deeds": 1}
    assert Artha(persona=3, fate=True).to_json() == {
        "persona": 3,
        "deeds_before": False,
        "fate": True,
        "deeds_after": False,
    }
    assert Artha(deeds_before=True, deeds_after=True).to_json() == {
        "persona": 0,
        "deeds_before": True,
        "fate": False,
        "deeds_after": True,
    }


def _after_the_roll(artha: dict[str, int], slip: dict[str, Any], dice: list[int]) -> Table[Any]:
    """The elves (Logistics B4, Tactics B5, ``artha``) script ``slip``, the orcs (no artha)
    Fortify; both pass; the elves read, rolling ``dice``."""
    leader = {"skills": {"Logistics": "B4", "Tactics": "B5"}, "artha": artha}
    table = Table.start(PROCEDURE, _kingdom({}, **leader), players=PLAYERS)
    table = _act(table, "elves", "write_slip", **slip)
    table = _act(table, "orcs", "write_slip", maneuver="Fortify", skill="Logistics")
    for f in ("elves", "orcs"):
        table = _act(table, f, "pass")
    return _act(table, "elves", "reveal", dice)


def _spend(
    fate: bool, deeds: bool, words: str, pool: str | None = None
) -> tuple[str, str, dict[str, Any]]:
    domains = {"fate": OneOf((fate,)), "deeds": OneOf((deeds,))}
    if pool is not None:
        domains["pool"] = OneOf((pool,))
    return ("spend_artha", f"spend {words}", domains)


def test_artha_after_the_roll_is_offered_where_the_roller_has_it_and_it_can_change_a_die() -> None:
    """Artha: Fate opens a closed roll's 6s, Deeds rerolls its failed dice (audit B6: a
    point that buys nothing is not offered); a Harry spends on its defence or its attack
    roll. The orcs, with no artha, have settled: only the elves may spend or keep; once they
    keep, the reader resolves. Deeds alone is offered without Fate."""
    fortify: dict[str, Any] = {"maneuver": "Fortify", "skill": "Logistics"}
    both = {"fate": 1, "persona": 0, "deeds": 1}
    keep: tuple[str, str, dict[str, Any]] = ("keep", "keep the roll", {})
    no_six = _after_the_roll(both, fortify, [3] * 8)
    assert _menu(no_six.state, "elves") == [
        *ALWAYS,
        _spend(False, True, "Deeds"),
        _spend(True, True, "Fate and Deeds"),
        keep,
    ]
    assert _menu(no_six.state, "orcs") == ALWAYS
    assert not has_a_move(no_six.state, "orcs")
    assert has_a_move(no_six.state, "elves")
    a_six = _after_the_roll(both, fortify, [6, 3, 3, 3] + [3] * 4)
    assert _menu(a_six.state, "elves") == [
        *ALWAYS,
        _spend(True, False, "Fate"),
        _spend(False, True, "Deeds"),
        _spend(True, True, "Fate and Deeds"),
        keep,
    ]
    deeds = _after_the_roll({"fate": 0, "persona": 0, "deeds": 2}, fortify, [3] * 8)
    assert _menu(deeds.state, "elves") == [*ALWAYS, _spend(False, True, "Deeds"), keep]
    fate = {"fate": 1, "persona": 0, "deeds": 0}
    # the Harry's attack dice meet the orcs' Fortify (aV); nothing attacks the elves, so
    # Fate on their defence dice buys nothing (audit K-N3)
    harry: dict[str, Any] = {"maneuver": "Harry", "skill": "Tactics", "defence": 2}
    split = _after_the_roll(fate, {**harry, "target": "orcs"}, [6, 4, 6, 3, 3] + [3] * 4)
    assert _menu(split.state, "elves") == [
        *ALWAYS,
        _spend(True, False, "Fate on the attack roll", pool="attack"),
        keep,
    ]
    kept = _act(split, "elves", "keep")
    assert _menu(kept.state, "elves") == [*ALWAYS, ("resolve", "", {})]
    assert _menu(kept.state, "orcs") == ALWAYS


def test_fate_on_an_open_ended_roll_keeps_its_dice_and_a_reroll_that_fails_stays_failed() -> None:
    """Fate on an open-ended test rerolls one failed die (parent-games.md); the roll is the
    same roll with that die added. Two open-ended black dice roll 6 (then 2) and 1: one
    success, two failed dice, one 6. Fate rerolls one failed die: a 3, failed again — still
    one success and two failed dice; the roll is still 2 open-ended dice with its one 6."""
    rolled = roll_before(2, Shade.BLACK, True, ScriptedSource([6, 1, 2]))
    fated = spend_after(rolled, Artha(fate=True), ScriptedSource([3]))
    assert (fated.dice, fated.open_ended, fated.successes) == (2, True, 1)
    assert (fated.failed, fated.sixes) == (2, 1)
    assert fated.to_json() == {
        "dice": 2,
        "shade": "B",
        "open_ended": True,
        "successes": 1,
        "stages": {"pool": [6, 2, 1], "fate": [3]},
    }


def test_a_pool_of_no_dice_rolls_nothing_and_fate_buys_nothing_on_it() -> None:
    """A pool of no dice (Sapped to nothing) rolls nothing: no success, no failed die, no 6 —
    so Fate, which opens a closed roll's 6s, would change no die."""
    empty = roll_before(0, Shade.BLACK, False, ScriptedSource([]))
    assert (empty.dice, empty.successes, empty.failed, empty.sixes, empty.faces) == (0, 0, 0, 0, ())
    assert artha_buys_nothing(empty, fate=True, deeds=False) is not None


def test_deeds_before_the_roll_is_offered_on_the_slip_where_the_leader_has_deeds() -> None:
    """Artha: "Deeds: before, doubles the base exponent" — a spending choice of the slip, like
    Persona: offered (spend it or not) to a leader with a Deeds point, with the odds of the pool
    it makes (Logistics B4 doubled: 8 dice against the Fortify's Ob 2); not to one without."""
    rich = Table.start(PROCEDURE, _kingdom({}, artha={"fate": 0, "persona": 0, "deeds": 1}))
    fortify = next(
        c
        for c in PROCEDURE.legal_actions(rich.state, "elves")
        if c.kind == "write_slip" and c.params["maneuver"] == OneOf(("Fortify",))
    )
    assert fortify.params["deeds_before"] == OneOf((False, True))
    slip = {"maneuver": "Fortify", "skill": "Logistics"}
    plain = PROCEDURE.odds_of(rich.state, Action("elves", "write_slip", slip), EVERY_SEAT)
    doubled = PROCEDURE.odds_of(
        rich.state, Action("elves", "write_slip", {**slip, "deeds_before": True}), EVERY_SEAT
    )
    assert (plain[0].dice, doubled[0].dice) == ("4d6 vs Ob 2", "8d6 vs Ob 2")
    poor = Table.start(PROCEDURE, _kingdom({}, artha={"fate": 0, "persona": 0, "deeds": 0}))
    assert all(
        "deeds_before" not in c.params
        for c in PROCEDURE.legal_actions(poor.state, "elves")
        if c.kind == "write_slip"
    )


def test_fate_on_a_harrys_defence_dice_is_offered_only_when_an_attack_on_it_is_rolled() -> None:
    """Artha ("a Fate point re-rolls a 6", parent-games.md) buys something only where the
    dice it opens meet a roll. Harry: "Your defense successes reduce all versus enemy's
    successes" — with no attack on the elves rolled (the orcs Fortify), Fate on their defence
    dice is neither offered nor taken; when the orcs Infiltrate them it is (audit K-N3)."""
    fate = {"fate": 1, "persona": 0, "deeds": 0}
    harry: dict[str, Any] = {"maneuver": "Harry", "skill": "Tactics", "defence": 2}
    faces = [6, 4, 3, 3, 3] + [3] * 4  # the defence dice show a 6, the attack dice none
    alone = _after_the_roll(fate, harry, faces)
    assert [c for c in _menu(alone.state, "elves") if c[0] == "spend_artha"] == []
    with pytest.raises(RuleError, match="buys nothing: no attack they defend against"):
        _act(alone, "elves", "spend_artha", [4], fate=True, pool="defence")
    # nor on its attack dice, directed at no one and met by no attack, though they show a 6
    unmet = _after_the_roll(fate, harry, [4, 4, 6, 3, 3] + [3] * 4)
    with pytest.raises(RuleError, match="buys nothing: nothing they meet is rolled"):
        _act(unmet, "elves", "spend_artha", [4], fate=True, pool="attack")
    setup = _kingdom({}, skills={"Logistics": "B4", "Tactics": "B5"}, artha=fate)
    table = Table.start(PROCEDURE, setup, players=PLAYERS)
    table = _act(table, "elves", "write_slip", **harry)
    infiltrate = {"maneuver": "Infiltrate", "skill": "Inconspicuous", "target": "elves"}
    table = _act(table, "orcs", "write_slip", **infiltrate)
    table = _act(table, "orcs", "scene", kind="conflict", target="elves")
    table = _act(_act(table, "elves", "pass"), "orcs", "pass")
    attacked = _act(table, "elves", "reveal", [*faces, 3])
    assert [c for c in _menu(attacked.state, "elves") if c[0] == "spend_artha"] == [
        _spend(True, False, "Fate on the defence roll", pool="defence")
    ]
    (offer,) = [c for c in observe(attacked, "ann").choices if c.kind == "spend_artha"]
    shown = {"2": "1/2", "3": "5/12", "4": "5/72", "5": "5/432", "6+": "1/432"}  # 6, 4 open
    assert dict(offer.odds[-1].odds) == {f"{k} successes": v for k, v in shown.items()}
    spent = _act(attacked, "elves", "spend_artha", [4], fate=True, pool="defence")
    assert spent.state.rolls["elves"].successes == 3
    card: Any = spent.log.events[-1].payload["roll"]
    assert card["label"] == "the Elves' Fate on the defence roll"  # a Harry's pool named


def _first_odds(table: Table[Any], label: str) -> tuple[str, str, str, dict[str, str]]:
    """The first preview of the elves' choice ``label``: its label, rule, dice and odds."""
    (choice,) = [c for c in observe(table, "ann").choices if c.label == label]
    first = choice.odds[0]
    return first.label, first.rule, first.dice, dict(first.odds)


def test_artha_after_the_roll_shows_the_chance_of_each_engagement_it_changes() -> None:
    """Independent and Versus Maneuvers: after the roll, each way of keeping or spending
    shows the chance of each outcome of the engagements the roll meets. The elves' Assess of
    the orcs meets their Fortify independently, needing 2 successes: 1 showing (6, 1, 1, 1)
    fails as kept; Fate rerolls the 6, a success half the time. Their Harry's attack dice (a
    6 among 1, 1, 6) meet the orcs' Fortify as a versus test: against 1 success, Fate wins
    it half the time and ties it otherwise; against none, the 1 showing already wins."""
    rule = "Independent and Versus Maneuvers"
    fate = {"fate": 1, "persona": 0, "deeds": 0}
    assess = {"maneuver": "Assess", "skill": "Logistics", "target": "orcs"}
    table = _after_the_roll(fate, assess, [6, 1, 1, 1, 4, 1, 1, 1])
    assert _first_odds(table, "keep the roll") == (
        "the Elves against the Orcs: needs 2, with the roll kept",
        rule,
        "the Elves' roll, the roll kept",
        {"failure": "1"},
    )
    assert _first_odds(table, "spend Fate") == (
        "the Elves against the Orcs: needs 2, with Fate",
        rule,
        "the Elves' roll, Fate",
        {"success": "1/2", "failure": "1/2"},
    )
    # Deeds rerolls the three failed dice: at least one more success 7/8; each count of them
    deeds = _after_the_roll({"deeds": 1}, assess, [6, 1, 1, 1, 4, 1, 1, 1])
    (spend,) = [c for c in observe(deeds, "ann").choices if c.label == "spend Deeds"]
    assert [(p.label, dict(p.odds)) for p in spend.odds] == [
        (
            "the Elves against the Orcs: needs 2, with Deeds (reroll)",
            {"success": "7/8", "failure": "1/8"},
        ),
        (
            "the Elves: Deeds (reroll)",
            {"1 success": "1/8", "2 successes": "3/8", "3 successes": "3/8", "4 successes": "1/8"},
        ),
    ]
    harry = {"maneuver": "Harry", "skill": "Tactics", "defence": 2, "target": "orcs"}
    for orcs, against, odds in (
        ([4, 1, 1, 1], "1 success", {"win": "1/2", "tie": "1/2"}),
        ([1, 1, 1, 1], "0 successes", {"win": "1"}),
    ):
        table = _after_the_roll(fate, harry, [1, 1, 6, 1, 1, *orcs])
        assert _first_odds(table, "spend Fate on the attack roll") == (
            f"the Elves attacking the Orcs' Fortify ({against}), with Fate",
            rule,
            "the Elves' roll, Fate",
            odds,
        )


def test_a_harrys_attack_dice_meet_an_ensnare_of_it_so_artha_goes_on_them() -> None:
    """Harry: its attack dice meet an Ensnare directed at it (the matrix's aV), its defence
    dice no attack. The orcs Ensnare the elves' Harry: Fate is offered on the attack roll
    alone (a 6 shows in each pool), and its previews are both sides of that engagement, the
    elves' attack on the Ensnare and their attack dice meeting it."""
    fate = {"fate": 1, "persona": 0, "deeds": 0}
    setup = _kingdom({}, skills={"Logistics": "B4", "Tactics": "B5"}, artha=fate)
    setup["factions"]["orcs"]["leader"]["skills"]["Tactics"] = "B4"
    table = Table.start(PROCEDURE, setup, players=PLAYERS)
    table = _act(table, "elves", "write_slip", maneuver="Harry", skill="Tactics", defence=2)
    ensnare = {"maneuver": "Ensnare", "skill": "Tactics", "target": "elves"}
    table = _act(table, "orcs", "write_slip", **ensnare)
    table = _act(table, "orcs", "scene", kind="conflict", target="elves")
    table = _act(_act(table, "elves", "pass"), "orcs", "pass")
    table = _act(table, "elves", "reveal", [6, 1, 6, 1, 1, 4, 4, 1, 1])
    offered = {c.label: c for c in observe(table, "ann").choices if c.kind == "spend_artha"}
    assert list(offered) == ["spend Fate on the attack roll"]
    assert [p.label for p in offered["spend Fate on the attack roll"].odds] == [
        "the Elves attacking the Orcs' Ensnare (2 successes), with Fate",
        "the Elves defending against the Orcs' Ensnare (2 successes), with Fate",
        "the Elves: Fate on the attack roll",
    ]


def test_a_harrys_defence_dice_meet_each_versus_attack_but_an_ensnare() -> None:
    """Harry: "Your defense successes reduce all versus enemy's successes"; its attack dice
    meet an Ensnare (the matrix's aV). The orcs Ensnare the elves' Harry (3 successes), the
    dwarves Infiltrate it (2), in that seat order: what artha on the defence dice can change
    is the Infiltrate alone, met after the Ensnare is passed over."""
    state = _revealed(
        elves=("Harry", (), 1, 2),
        orcs=("Ensnare", ("elves",), 3, 0),
        dwarves=("Infiltrate", ("elves",), 2, 0),
    )
    dwarves = replace(state.factions["dwarves"], name="the Dwarves")
    state = replace(state, factions={**state.factions, "dwarves": dwarves})
    defence = [(m.what, m.kind, m.against) for m in meetings(state, "elves", "defence")]
    assert defence == [("the Dwarves' Infiltrate", "versus", 2)]


def test_a_roll_recorded_without_the_artha_spent_spends_what_its_slip_wrote() -> None:
    """Artha before the roll (Persona, written on the slip): a ``test.rolled`` recorded
    without the artha it spent (a record older than that field) spends what the slip wrote —
    the elves' Fortify with 1 Persona leaves their leader the same artha either way."""
    table = Table.start(PROCEDURE, _kingdom({}, artha={"persona": 2}), players=PLAYERS)
    table = _act(table, "elves", "write_slip", maneuver="Fortify", skill="Logistics", persona=1)
    table = _act(table, "orcs", "write_slip", maneuver="Fortify", skill="Logistics")
    table = _pass_all(table)
    before = len(table.log.events)
    state = table.state
    for event in _new(_act(table, "elves", "reveal", [3] * 40), before):
        if event.kind == "test.rolled" and event.payload["faction"] == "elves":
            older = replace(event, payload={k: v for k, v in event.payload.items() if k != "artha"})
            assert event.payload["artha"] == {"persona": 1, "deeds": 0}
            assert PROCEDURE.evolve(state, older) == PROCEDURE.evolve(state, event)
            assert PROCEDURE.evolve(state, older).factions["elves"].leader.artha["persona"] == 1
        state = PROCEDURE.evolve(state, event)


def test_keeping_a_harrys_roll_shows_the_odds_of_its_defence_and_its_attack_dice() -> None:
    """Keeping the roll (no artha after it) carries the odds of each pool the roll has: a
    Harry's defence dice (6, 4: 2 successes, which nothing attacks) and its attack dice (6, 3,
    3: 1 success, against the orcs' Fortify, won), each named and each as it stands."""
    fate = {"fate": 1, "persona": 0, "deeds": 0}
    harry = {"maneuver": "Harry", "skill": "Tactics", "defence": 2, "target": "orcs"}
    split = _after_the_roll(fate, harry, [6, 4, 6, 3, 3] + [3] * 4)
    (keep,) = [c for c in PROCEDURE.legal_actions(split.state, "elves") if c.kind == "keep"]
    assert [(o.label, o.odds) for o in keep.odds] == [
        ("the Elves: no artha: the roll kept on the defence roll", {"2 successes": "1"}),
        ("the Elves attacking the Orcs' Fortify (0 successes), with the roll kept", {"win": "1"}),
        ("the Elves: no artha: the roll kept on the attack roll", {"1 success": "1"}),
    ]
