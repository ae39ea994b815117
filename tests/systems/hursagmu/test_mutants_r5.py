"""Tests that kill the mutants of HURSAGMU's rules that mutmut left alive in round 5 of issue 13
(docs/systems/hursagmu.md, "Mutation testing", "Round 5"): the odds an attacked character's
choices preview, and the modules earlier rounds did not reach.
"""

from __future__ import annotations

from referee.core import Action
from referee.core.table import preview

from .test_mutants_encounter import _fred_under_attack

# -- encounter.odds_of: a choice's odds, for kinds other than the Master's secret rolls ---------


def test_an_attacked_characters_defence_and_taking_the_hit_preview_their_choices_odds() -> None:
    """ "Action": fred, attacked, may defend or take the hit; the form for each shows the odds of
    that choice (the kernel's default ``odds_of``): the defence declared alone, 7/72, and the
    hit taken undefended, certain."""
    table = _fred_under_attack()
    defend = Action("fred", "defend", {"actions": [{"defend": "defense"}]})
    shown = [(p.label, dict(p.odds)) for p in preview(table, "fred", defend)]
    assert shown == [
        (
            "bob's striking against fred's defense, declared alone",
            {"failure": "65/72", "success": "7/72"},
        )
    ]
    taken = [(p.label, dict(p.odds)) for p in preview(table, "fred", Action("fred", "take", {}))]
    assert taken == [("bob's striking against fred, undefended", {"success": "1", "failure": "0"})]
