"""What artha after the roll buys, engagement by engagement ("Independent and Versus
Maneuvers"): the chance that each engagement a faction's roll takes part in is won, tied or
lost, once it keeps its roll or spends Fate and/or Deeds on it.

All the maneuver tests are rolled at once, so after the roll every other count is showing: an
engagement's outcome is this faction's final count (:func:`after_distribution`, from the faces
already showing) against the other side's successes as they stand — a versus test's defence
(the defender wins ties, unless both agree to a tie-breaker), or an independent test's Ob (at
least 1 success, a Ploy's strictly more). A side still free to spend its own Fate or Deeds is
named in the preview, since its count may still rise.

>>> mine = Meeting("the Elves", "the Orcs' Infiltrate", "versus", 1, attacking=False,
...                theirs_settled=True)
>>> outcome_odds({1: Fraction(1, 2), 2: Fraction(1, 2)}, mine)
{'win': Fraction(1, 2), 'tie': Fraction(1, 2)}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from referee.core import OddsPreview
from referee.core.naming import possessive
from referee.systems.kingdoms.engagements import Board, engagements
from referee.systems.kingdoms.scripting import can_spend_after, entries_of
from referee.systems.kingdoms.state import KingdomsState
from referee.systems.kingdoms.tables import matrix

__all__ = ["Meeting", "meetings", "outcome_odds", "outcome_previews"]

RULE = "Independent and Versus Maneuvers"


@dataclass(frozen=True)
class Meeting:
    """One engagement as the faction whose roll it is sees it: ``what`` it meets ("the Orcs'
    Infiltrate", "Ob 2"), its ``kind`` (versus or independent), the other side's count as it
    stands (``against``: the defence, the attack, or the successes needed), whether this side
    is ``attacking``, and whether the other side's count is settled."""

    name: str
    what: str
    kind: str
    against: int
    attacking: bool
    theirs_settled: bool = True

    def label(self, choice: str) -> str:
        """The preview's label: who meets what, with which choice of artha."""
        if self.kind == "independent":
            return f"{self.name} against {self.what}, with {choice}"
        side = "attacking" if self.attacking else "defending against"
        stands = "" if self.theirs_settled else ", as it stands (they may still spend artha)"
        return (
            f"{self.name} {side} {self.what} ({self.against} success"
            f"{'' if self.against == 1 else 'es'}{stands}), with {choice}"
        )


def outcome_odds(final: Mapping[int, Fraction], meeting: Meeting) -> dict[str, Fraction]:
    """The chance of each outcome of ``meeting`` if this side's count ends as ``final`` says:
    an independent test's ``success``/``failure`` (``against`` is the successes needed); a
    versus test's ``win`` (more than the other side), ``tie`` (as many: the defender holds
    unless both agree to a tie-breaker) or ``lose``. Outcomes that cannot happen are left out.

    >>> m = Meeting("the Orcs", "the Elves' Fortify", "versus", 2, attacking=True)
    >>> outcome_odds({1: Fraction(1, 4), 2: Fraction(1, 4), 3: Fraction(1, 2)}, m)
    {'win': Fraction(1, 2), 'tie': Fraction(1, 4), 'lose': Fraction(1, 4)}
    """
    if meeting.kind == "independent":
        passed = sum((p for n, p in final.items() if n >= meeting.against), Fraction(0))
        odds = {"success": passed, "failure": 1 - passed}
    else:
        odds = {"win": Fraction(0), "tie": Fraction(0), "lose": Fraction(0)}
        for n, p in final.items():
            key = "win" if n > meeting.against else "tie" if n == meeting.against else "lose"
            odds[key] += p
    return {k: p for k, p in odds.items() if p}


def meetings(state: KingdomsState, faction: str, pool: str = "defence") -> tuple[Meeting, ...]:
    """The engagements ``faction``'s ``pool`` takes part in, from the counts showing: each of
    its attacks (a Harry's attack dice are its ``attack`` pool), and each versus attack its
    successes defend against (a Harry meets an aV cell with its attack dice)."""
    entries = entries_of(state)
    board = Board(
        order=state.order,
        disposition={f: x.disposition for f, x in state.factions.items()},
        cap=state.cap,
        names={f: x.name for f, x in state.factions.items()},
    )
    mine = entries.get(faction)
    if mine is None:
        return ()
    out: list[Meeting] = []
    for e in engagements(entries, board):
        if e.attacker == faction and (pool == "attack") == (e.role == "harry"):
            other = entries.get(e.target)
            if e.kind == "versus":
                what = f"{board.own(e.target)} {other.maneuver if other else 'maneuver'}"
                out.append(
                    Meeting(
                        board.name(faction),
                        what,
                        "versus",
                        e.defence or 0,
                        attacking=True,
                        theirs_settled=_settled(state, e.target),
                    )
                )
            else:
                needed = e.needed
                what = f"{board.name(e.target)}: needs {needed}"
                out.append(Meeting(board.name(faction), what, "independent", needed, True))
        elif e.target == faction and e.kind == "versus":
            harry_attack = mine.maneuver == "Harry" and matrix().cell("Harry", e.maneuver) == "aV"
            if (pool == "attack") != harry_attack:
                continue
            out.append(
                Meeting(
                    board.name(faction),
                    f"{board.own(e.attacker)} {e.maneuver}",
                    "versus",
                    e.successes,
                    attacking=False,
                    theirs_settled=_settled(state, e.attacker),
                )
            )
    return tuple(out)


def _settled(state: KingdomsState, faction: str) -> bool:
    """True if ``faction``'s count can no longer change by its own artha after the roll."""
    test = state.rolls.get(faction)
    if test is None or test.decided:
        return True
    return not can_spend_after(state.factions[faction].character(test.roller))


def outcome_previews(
    state: KingdomsState, faction: str, final: Mapping[int, Fraction], choice: str, pool: str
) -> tuple[OddsPreview, ...]:
    """One preview per engagement of ``faction``'s ``pool``: the chance of each outcome if its
    count ends as ``final`` (the roll kept, or ``choice`` of artha spent on it)."""
    dice = f"{possessive(state.factions[faction].name)} roll, {choice}"
    return tuple(
        OddsPreview(
            m.label(choice),
            RULE,
            dice,
            {k: str(p) for k, p in outcome_odds(final, m).items()},
        )
        for m in meetings(state, faction, pool)
    )
