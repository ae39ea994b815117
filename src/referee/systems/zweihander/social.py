"""Social Intrigue (house rules, "Social Intrigue").

A Simple Exchange is one Test of the appropriate Skill; its Difficulty comes from the NPC's
Alignment, which of the PC's Ranks (Order or Chaos) is higher, and whether they share a Social
Class. A Critical Failure imposes 2D10+2 mental Peril.

A Complex Exchange: each character picks a Social Tactic (a Skill); the GM secretly picks a
Favourable Skill (Successes become Critical Successes) and an Unfavourable one (Failures become
Critical Failures); burning 1 Reputation Point grants an Assist Die; the NPC's Disposition and
the Test's result give the outcome from the success and failure tables. A Critical Success
treats the Disposition as Helpful and awards the party 1 Fortune Point; a Critical Failure treats
it as Hostile and imposes 2D10+2 mental Peril.

>>> simple_exchange_difficulty("order", pc_order_ranks=3, pc_chaos_ranks=1, same_class=True)
20
>>> tactic_outcome("Charm", "Indifferent", success=True)
'Favorable'
>>> from referee.core import Outcome
>>> exchange_outcome("Guile", "Unfriendly", Outcome.CRITICAL_SUCCESS)
('Helpful', 'Gullible')
"""

from __future__ import annotations

from referee.core import Outcome, RuleError
from referee.systems.zweihander.percentile import difficulty
from referee.systems.zweihander.tables import social_table

__all__ = [
    "ALIGNMENTS",
    "DISPOSITIONS",
    "TACTICS",
    "disposition",
    "exchange_outcome",
    "rank_standing",
    "simple_exchange_difficulty",
    "tactic",
    "tactic_outcome",
]

ALIGNMENTS = ("order", "chaos")
"""An NPC is Order-aligned or Chaos-aligned."""

TACTICS = ("Bargain", "Charm", "Guile", "Interrogation", "Intimidate", "Leadership", "Rumour")
"""The Social Tactics, each a Skill."""

DISPOSITIONS = ("Helpful", "Friendly", "Polite", "Indifferent", "Impolite", "Unfriendly", "Hostile")
"""An NPC's Disposition toward the characters, best first."""


def rank_standing(pc_order_ranks: int, pc_chaos_ranks: int) -> str:
    """Which of the PC's Ranks is higher: "order higher", "chaos higher" or "equal"."""
    if pc_order_ranks > pc_chaos_ranks:
        return "order higher"
    if pc_chaos_ranks > pc_order_ranks:
        return "chaos higher"
    return "equal"


def simple_exchange_difficulty(
    npc_alignment: str, *, pc_order_ranks: int, pc_chaos_ranks: int, same_class: bool
) -> int:
    """The Difficulty Rating of a Simple Exchange (and of a Social Tactic Test), from the tables."""
    alignment = npc_alignment.lower().removesuffix("-aligned")
    if alignment not in ALIGNMENTS:
        raise RuleError(
            "Simple Exchange", f"an NPC is order or chaos aligned, not {npc_alignment!r}"
        )
    standing = rank_standing(pc_order_ranks, pc_chaos_ranks)
    cls = "same class" if same_class else "different class"
    return difficulty(social_table()["simple_exchange"][alignment][standing][cls])


def tactic(name: str) -> str:
    """The Social Tactic by name ("Rumor" is read as "Rumour", as the tables spell it)."""
    for t in TACTICS:
        if t.lower() == name.strip().lower() or (t == "Rumour" and name.strip().lower() == "rumor"):
            return t
    raise RuleError(
        "Complex Exchange", f"a Social Tactic is one of {', '.join(TACTICS)}, not {name!r}"
    )


def disposition(name: str) -> str:
    """The Disposition by name."""
    for d in DISPOSITIONS:
        if d.lower() == name.strip().lower():
            return d
    raise RuleError(
        "Complex Exchange", f"a Disposition is one of {', '.join(DISPOSITIONS)}, not {name!r}"
    )


def tactic_outcome(tactic_name: str, disposition_name: str, *, success: bool) -> str:
    """The cell of the SUCCESSFUL or FAILED SOCIAL TACTICS CHECK table."""
    row = social_table()["success" if success else "failure"][tactic(tactic_name)]
    return str(row[DISPOSITIONS.index(disposition(disposition_name))])


def exchange_outcome(tactic_name: str, disposition_name: str, outcome: Outcome) -> tuple[str, str]:
    """The Disposition the result is read at, and the outcome: a Critical Success reads as
    Helpful, a Critical Failure as Hostile."""
    read_as = disposition(disposition_name)
    if outcome is Outcome.CRITICAL_SUCCESS:
        read_as = "Helpful"
    elif outcome is Outcome.CRITICAL_FAILURE:
        read_as = "Hostile"
    return read_as, tactic_outcome(tactic_name, read_as, success=outcome.is_success)
