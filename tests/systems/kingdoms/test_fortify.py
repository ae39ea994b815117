"""Fortify ("Conquest Maneuvers", "Fortify"): "In an independent test when no other side is
attacking, test vs. ob 2"; versus, the disposition goes up by the margin; spare successes go to
downtime.
"""

from __future__ import annotations

from referee.systems.kingdoms.resolution import Effect, Entry, resolve

from .test_resolution import board


def test_an_unopposed_fortify_buys_downtime_then_disposition_and_an_assess_marks_it() -> None:
    """Fortify: "In an independent test when no other side is attacking, test vs. ob 2"; its
    spare successes go to downtime as the slip says, then disposition; "the rest of the players
    are required to make resource maintenance checks" ("Downtime"). Assess: a success marks the
    target Assessed. a Fortifies with 4 (margin 2: 1 to downtime, 3 months; 1 to disposition);
    b's Assess (independent against a Fortify, Ob 2) succeeds with 2. Every effect, in order."""
    r = resolve(
        {"a": Entry("a", "Fortify", (), 4, downtime=1), "b": Entry("b", "Assess", ("a",), 2)},
        board(),
    )
    why = "(margin against Ob 2, unopposed)"
    owed = "a's 1 maintenance cycles of downtime: {} must make 1 Resources maintenance tests"
    assert r.effects == (
        Effect("a", "downtime", "a", f"a's Fortify: 1 successes buy 3 months of downtime {why}", 3),
        Effect("a", "disposition", "a", f"a's Fortify adds 1 disposition {why}", 1, 11),
        *(Effect(f, "maintenance", "a", owed.format(f), 0, 1) for f in "bcd"),
        Effect("b", "assessed", "b", "b's Assess of a succeeds", target="a"),
    )


def test_a_fortify_against_an_assault_adds_its_margin_over_the_attacker() -> None:
    """Fortify: versus, the disposition goes up by the smallest margin over every attacker.
    b's 4 against a's Assault of 2 (versus: the Assault fails): b adds 2, and says why."""
    r = resolve({"a": Entry("a", "Assault", ("b",), 2), "b": Entry("b", "Fortify", (), 4)}, board())
    assert r.effects == (
        Effect(
            "b",
            "disposition",
            "b",
            "b's Fortify adds 2 disposition (smallest margin over its attackers)",
            2,
            12,
        ),
    )
