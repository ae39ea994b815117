"""Who meets whom in a maneuver ("Independent and Versus Maneuvers", "Multiple Opponents"):
each revealed, rolled maneuver (:class:`Entry`) against each faction it is directed at, read
from the matrix as independent (the maneuver's own Ob, or every success counting) or versus
(the target's successes are the Ob; the defender wins ties).

>>> board = Board(order=("orcs", "elves"), disposition={"orcs": 10, "elves": 9}, cap=12)
>>> entries = {
...     "orcs": Entry("orcs", "Assault", ("elves",), successes=4),
...     "elves": Entry("elves", "Fortify", (), successes=3),
... }
>>> [(e.attacker, e.target, e.kind, e.defence, e.is_success) for e in engagements(entries, board)]
[('orcs', 'elves', 'versus', 3, True)]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from referee.core.naming import possessive
from referee.systems.kingdoms.tables import maneuver, matrix

__all__ = ["Board", "Engagement", "Entry", "directed_targets", "engagements"]


@dataclass(frozen=True)
class Entry:
    """A revealed, rolled maneuver.

    ``successes`` is the maneuver test's (for Harry: its defence dice's); ``attack`` Harry's
    attack dice's successes; ``exponent`` the skill exponent tested (a Sap's or a Ploy's Ob
    when independent); ``downtime`` how many spare successes a Conserve or Fortify puts into
    downtime (the rest raise disposition).
    """

    faction: str
    maneuver: str
    targets: tuple[str, ...] = ()
    successes: int = 0
    attack: int = 0
    exponent: int = 0
    downtime: int = 0
    ob_penalty: int = 0

    @property
    def total(self) -> int:
        """All successes rolled for the maneuver (Harry: both pools)."""
        return self.successes + (self.attack if self.maneuver == "Harry" else 0)


@dataclass(frozen=True)
class Board:
    """The table as resolution needs it: seat order from the reader, dispositions, the cap
    (highest starting disposition after the Prologue) and each faction's base Circles."""

    order: tuple[str, ...]
    disposition: Mapping[str, int]
    cap: int
    circles: Mapping[str, int] = field(default_factory=dict)
    names: Mapping[str, str] = field(default_factory=dict)
    """Each faction's name from the set-up, where it has one: what an effect's words say."""

    def name(self, faction: str) -> str:
        """``faction``'s name ("the Elves"), or its id where it has none."""
        return self.names.get(faction, faction)

    def own(self, faction: str) -> str:
        """``faction``'s name as a possessive: "the Elves'", "orcs'", "Mordor's"."""
        return possessive(self.name(faction))


@dataclass(frozen=True)
class Engagement:
    """One maneuver meeting one target.

    ``kind`` is ``"versus"`` (``defence`` is the Ob; strictly more to win) or
    ``"independent"`` (``obstacle``; successes ≥ Ob to pass; 0 when every success counts).
    ``cell`` is the matrix cell read; ``role`` is ``"attack"`` or, for an Ensnare against its
    declared target, ``"ensnare"``, for Harry's attack dice ``"harry"``.
    """

    attacker: str
    target: str
    maneuver: str
    cell: str
    kind: str
    successes: int
    defence: int | None = None
    obstacle: int | None = None
    role: str = "attack"

    @property
    def margin(self) -> int:
        """Margin of success: successes minus the Ob or the defence."""
        against = self.defence if self.kind == "versus" else self.obstacle
        return self.successes - (against or 0)

    @property
    def is_strict(self) -> bool:
        """A Ploy must "overcome" the opponent's exponent: strictly more, even independent."""
        return self.maneuver == "Ploy"

    @property
    def needed(self) -> int:
        """Successes needed to succeed and do something (at least 1 where every success
        counts)."""
        if self.kind == "versus":
            return (self.defence or 0) + 1
        return max(1, (self.obstacle or 0) + (1 if self.is_strict else 0))

    @property
    def is_success(self) -> bool:
        """Versus: more than the defence; independent: at least the Ob (a Ploy: more), and
        never with no successes at all (Ob 0: a faction that cannot act, no Circles)."""
        if self.kind == "versus":
            return self.successes > (self.defence or 0)
        return self.successes >= self.needed

    @property
    def net(self) -> int:
        """Net successes (RULINGS.md): the margin if positive, else nothing."""
        return max(0, self.margin) if self.is_success else 0

    def to_json(self) -> dict[str, Any]:
        """Every field, and the margin, success and net successes."""
        return {
            "attacker": self.attacker,
            "target": self.target,
            "maneuver": self.maneuver,
            "cell": self.cell,
            "kind": self.kind,
            "role": self.role,
            "successes": self.successes,
            "defence": self.defence,
            "obstacle": self.obstacle,
            "margin": self.margin,
            "success": self.is_success,
            "net": self.net,
        }


def directed_targets(entries: Mapping[str, Entry]) -> dict[str, tuple[str, ...]]:
    """Whom each faction's maneuver is directed at ("Multiple Opponents").

    Offensive maneuvers and Ensnare: the targets on the slip. Harry: its named target, if any,
    and every faction whose maneuver was directed at the Harrier ("all attacking enemies").

    >>> directed_targets({"a": Entry("a", "Assault", ("b",)), "b": Entry("b", "Harry")})
    {'a': ('b',), 'b': ('a',)}
    """
    plain = {f: e.targets for f, e in entries.items()}
    out: dict[str, tuple[str, ...]] = {}
    for faction, entry in entries.items():
        if entry.maneuver != "Harry":
            out[faction] = entry.targets
            continue
        found = list(entry.targets)
        for other, targets in plain.items():
            if other != faction and faction in targets and other not in found:
                found.append(other)
        out[faction] = tuple(found)
    return out


def _independent_ob(entry: Entry, target: str, board: Board, entries: Mapping[str, Entry]) -> int:
    stated = maneuver(entry.maneuver).independent_ob != "none"
    return (entry.ob_penalty if stated else 0) + _base_ob(entry, target, board, entries)


def _base_ob(entry: Entry, target: str, board: Board, entries: Mapping[str, Entry]) -> int:
    ob = maneuver(entry.maneuver).independent_ob
    if isinstance(ob, int):
        return ob
    if ob == "circles":
        return board.circles.get(target, 0)
    if ob == "exponent":
        other = entries.get(target)
        return other.exponent if other is not None else 0
    return 0


def _defence(defender: Entry, attacker_maneuver: str) -> int:
    """The defender's successes that meet ``attacker_maneuver`` (Harry splits its dice)."""
    if defender.maneuver != "Harry":
        return defender.successes
    cell = matrix().cell("Harry", attacker_maneuver)
    return defender.attack if cell == "aV" else defender.successes


def engagements(entries: Mapping[str, Entry], board: Board) -> tuple[Engagement, ...]:
    """Every engagement of the maneuver, in seat order of the acting faction."""
    targets = directed_targets(entries)
    out: list[Engagement] = []
    for faction in board.order:
        entry = entries.get(faction)
        if entry is None:
            continue
        is_harry = entry.maneuver == "Harry"
        role = "harry" if is_harry else "ensnare" if entry.maneuver == "Ensnare" else "attack"
        mine = entry.attack if is_harry else entry.successes
        for target in targets[faction]:
            other = entries.get(target)
            if other is None:
                # RULINGS: a faction that cannot act is met independently, every success counting
                ob = _independent_ob(entry, target, board, entries)
                out.append(
                    Engagement(
                        faction,
                        target,
                        entry.maneuver,
                        "-",
                        "independent",
                        mine,
                        obstacle=ob,
                        role=role,
                    )
                )
                continue
            cell = matrix().cell(entry.maneuver, other.maneuver)
            versus = cell in ("V", "aV")
            if versus:
                out.append(
                    Engagement(
                        faction,
                        target,
                        entry.maneuver,
                        cell,
                        "versus",
                        mine,
                        defence=_defence(other, entry.maneuver),
                        role=role,
                    )
                )
            else:
                ob = 0 if is_harry else _independent_ob(entry, target, board, entries)
                out.append(
                    Engagement(
                        faction,
                        target,
                        entry.maneuver,
                        cell,
                        "independent",
                        mine,
                        obstacle=ob,
                        role=role,
                    )
                )
    return tuple(out)
