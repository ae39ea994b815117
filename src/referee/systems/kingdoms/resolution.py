"""Maneuver resolution: who meets whom, and what each maneuver does ("Maneuver Resolution",
"Independent and Versus Maneuvers", "Multiple Opponents", each maneuver's "Effect/Description",
"Consequences"; RULINGS.md, Burning Kingdoms).

Every test has been rolled; :func:`resolve` is a pure function of the revealed maneuvers
(:class:`Entry`: maneuver, targets, successes) and the table (:class:`Board`). It finds every
engagement — an offensive maneuver against its target, Harry's attack dice against each faction
that targeted the Harrier (and its named target), an Ensnare against its declared target — and
reads the matrix for each: independent (the maneuver's own Ob, or every success counting) or
versus (the target's successes are the Ob; the defender wins ties). Then each faction's
maneuver takes effect in seat order, starting from the reader.

>>> board = Board(order=("orcs", "elves", "dwarves"),
...               disposition={"orcs": 10, "elves": 9, "dwarves": 12}, cap=12)
>>> entries = {
...     "orcs": Entry("orcs", "Sap", ("elves",), successes=8, exponent=5),
...     "elves": Entry("elves", "Assess", ("dwarves",), successes=3, exponent=6),
...     "dwarves": Entry("dwarves", "Fortify", (), successes=1, exponent=4),
... }
>>> result = resolve(entries, board)
>>> [(e.attacker, e.target, e.kind, e.obstacle, e.is_success) for e in result.engagements]
[('orcs', 'elves', 'independent', 6, True), ('elves', 'dwarves', 'independent', 2, True)]
>>> result.dispositions["elves"], result.sapped["elves"]
(7, 8)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.systems.kingdoms.engagements import (
    Board,
    Engagement,
    Entry,
    directed_targets,
    engagements,
)
from referee.systems.kingdoms.tables import maneuver, setup_tables

__all__ = [
    "MANEUVER_EFFECTS",
    "Board",
    "Effect",
    "Engagement",
    "Entry",
    "Resolution",
    "directed_targets",
    "engagements",
    "resolve",
]


@dataclass(frozen=True)
class Effect:
    """One effect, in the order applied: ``kind`` says what changes for ``faction``.

    Kinds: ``disposition`` (``amount`` the change, ``value`` the result), ``assessed`` and
    ``infiltrated`` (``target``; ``amount`` the advantage), ``sapped`` (``amount`` dice off
    ``faction``'s next maneuver), ``cannot_act`` (next maneuver), ``downtime`` (``amount``
    months), ``maintenance`` (``value`` Resources maintenance tests owed, each at ``amount``
    extra Ob), ``out``.
    ``by`` is the faction whose maneuver caused it; ``text`` explains it.
    """

    faction: str
    kind: str
    by: str
    text: str
    amount: int = 0
    value: int | None = None
    target: str | None = None

    def to_json(self) -> dict[str, Any]:
        """Every field."""
        return {
            "faction": self.faction,
            "kind": self.kind,
            "by": self.by,
            "amount": self.amount,
            "value": self.value,
            "target": self.target,
            "text": self.text,
        }


@dataclass(frozen=True)
class Resolution:
    """What a maneuver came to."""

    engagements: tuple[Engagement, ...]
    effects: tuple[Effect, ...]
    dispositions: Mapping[str, int]
    out: tuple[str, ...]
    conquerors: Mapping[str, tuple[str, ...]]
    narrator: str | None
    sapped: Mapping[str, int]
    cannot_act: tuple[str, ...]
    attackers: Mapping[str, Mapping[str, int]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """Plain JSON of the whole resolution."""
        return {
            "engagements": [e.to_json() for e in self.engagements],
            "effects": [e.to_json() for e in self.effects],
            "dispositions": dict(self.dispositions),
            "out": list(self.out),
            "conquerors": {k: list(v) for k, v in self.conquerors.items()},
            "narrator": self.narrator,
            "sapped": dict(self.sapped),
            "cannot_act": list(self.cannot_act),
            "attackers": {k: dict(v) for k, v in self.attackers.items()},
        }


class Ledger:
    """Dispositions as effects apply: the floor 0, the cap, who is out, who damaged whom."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.value = dict(board.disposition)
        self.effects: list[Effect] = []
        self.out: list[str] = []
        self.damaged_by: dict[str, dict[str, int]] = {}

    def change(self, faction: str, amount: int, by: str, text: str, *, attack: int = 0) -> None:
        if faction in self.out or amount == 0:
            return
        before = self.value[faction]
        if amount > 0:
            after = max(before, min(self.board.cap, before + amount))
        else:
            after = max(0, before + amount)
        self.value[faction] = after
        if amount > 0 and after - before < amount:
            text += f" (held at the cap of {self.board.cap}, the highest starting disposition)"
        self.effects.append(Effect(faction, "disposition", by, text, after - before, after))
        if amount < 0 and by != faction:
            self.damaged_by.setdefault(faction, {})[by] = max(
                attack, self.damaged_by.get(faction, {}).get(by, 0)
            )
        if after == 0 and faction not in self.out:
            self.out.append(faction)
            self.effects.append(
                Effect(
                    faction,
                    "out",
                    by,
                    f"{self.board.name(faction)}: reduced to 0, out of contention",
                )
            )

    def note(self, effect: Effect) -> None:
        self.effects.append(effect)


def _split(ledger: Ledger, entry: Entry, spare: int, why: str) -> None:
    """Spare successes of a Conserve or Fortify: downtime first (as the slip says), then
    disposition."""
    months = setup_tables().downtime_months_per_success
    to_downtime = min(entry.downtime, spare)
    if to_downtime:
        ledger.note(
            Effect(
                entry.faction,
                "downtime",
                entry.faction,
                f"{ledger.board.own(entry.faction)} {entry.maneuver}: {to_downtime} successes buy "
                f"{to_downtime * months} months of downtime ({why})",
                amount=to_downtime * months,
            )
        )
    rest = spare - to_downtime
    if rest:
        ledger.change(
            entry.faction,
            rest,
            entry.faction,
            f"{ledger.board.own(entry.faction)} {entry.maneuver} adds {rest} disposition ({why})",
        )


@dataclass
class Resolving:
    """What the maneuvers of one resolution share as their effects apply in seat order."""

    entries: Mapping[str, Entry]
    ledger: Ledger
    against: Mapping[str, list[Engagement]]
    sapped: dict[str, int] = field(default_factory=dict)
    cannot_act: list[str] = field(default_factory=list)

    @property
    def board(self) -> Board:
        """The board: its names for the effects' words."""
        return self.ledger.board

    @property
    def months(self) -> int:
        """Months of downtime one success (or a Sap's increment) buys ("Downtime")."""
        return setup_tables().downtime_months_per_success


def _take_net(game: Resolving, entry: Entry, mine: Sequence[Engagement]) -> None:
    """Net successes are subtracted from each target's disposition."""
    for e in mine:
        if e.net:
            how = "margin" if e.kind == "versus" else "successes"
            takes = "attack dice take" if e.role == "harry" else "takes"
            game.ledger.change(
                e.target,
                -e.net,
                entry.faction,
                f"{game.board.own(entry.faction)} {entry.maneuver} {takes} {e.net} "
                f"disposition from {game.board.name(e.target)} ({how})",
                attack=e.successes,
            )


def assault(game: Resolving, entry: Entry, mine: Sequence[Engagement]) -> None:
    """ "Assault": "Whether independent or versus, net successes are subtracted directly from
    the targets disposition."
    """
    _take_net(game, entry, mine)


def assess(game: Resolving, entry: Entry, mine: Sequence[Engagement]) -> None:
    """ "Assess": a success against the target marks it Assessed (Assault, Gambit and
    Onslaught need it, from the next maneuver on)."""
    for e in mine:
        if e.is_success:
            game.ledger.note(
                Effect(
                    entry.faction,
                    "assessed",
                    entry.faction,
                    f"{game.board.own(entry.faction)} Assess of {game.board.name(e.target)} "
                    "succeeds",
                    target=e.target,
                )
            )


def conserve(game: Resolving, entry: Entry, mine: Sequence[Engagement]) -> None:
    """ "Conserve": "Successes from a Conserve subtract from all versus actions. If the
    successes from a conserve reduce all opposing actions to zero, the action is stopped. Extra
    successes can be allocated to increasing your disposition or generating downtime."
    """
    attacks = game.against.get(entry.faction, [])
    if attacks and all(not a.is_success for a in attacks):
        spare = entry.successes - max(a.successes for a in attacks)
        if spare > 0:
            _split(game.ledger, entry, spare, "successes beyond every opposing action")


def ensnare(game: Resolving, entry: Entry, mine: Sequence[Engagement]) -> None:
    """ "Ensnare": "In a successful versus test, the enemy's successes hurt their disposition
    and the ensnaring side must sacrifice disposition equal to the margin of success."
    """
    for e in mine:
        if e.kind == "versus" and e.is_success:
            game.ledger.change(
                e.target,
                -e.defence if e.defence else 0,
                entry.faction,
                f"{game.board.own(entry.faction)} Ensnare turns {game.board.own(e.target)} "
                f"{e.defence} successes against it",
                attack=e.successes,
            )
            game.ledger.change(
                entry.faction,
                -e.margin,
                entry.faction,
                f"{game.board.own(entry.faction)} Ensnare springs at the cost of {e.margin} "
                "disposition (the margin)",
            )


def fortify(game: Resolving, entry: Entry, mine: Sequence[Engagement]) -> None:
    """ "Fortify": versus, the disposition increases by the smallest margin over every
    attacker; "In an independent test when no other side is attacking, test vs. ob 2" (the Ob
    is the maneuver's ``independent_ob`` in data/maneuvers.yaml)."""
    attacks = game.against.get(entry.faction, [])
    if not attacks:
        ob = maneuver(entry.maneuver).independent_ob
        assert isinstance(ob, int)
        margin = entry.successes - ob - entry.ob_penalty
        if margin > 0:
            _split(game.ledger, entry, margin, f"margin against Ob {ob}, unopposed")
    elif all(entry.successes > a.successes for a in attacks):
        margin = entry.successes - max(a.successes for a in attacks)
        _split(game.ledger, entry, margin, "smallest margin over its attackers")


def gambit(game: Resolving, entry: Entry, mine: Sequence[Engagement]) -> None:
    """ "Gambit": "Successes from the gambit are subtracted directly from opponent's
    disposition" (its cost was sacrificed at the reveal)."""
    _take_net(game, entry, mine)


def harry(game: Resolving, entry: Entry, mine: Sequence[Engagement]) -> None:
    """ "Harry": "your attack margin of success reduces the disposition of all attacking
    enemies" (the defence dice only defend)."""
    _take_net(game, entry, mine)


def infiltrate(game: Resolving, entry: Entry, mine: Sequence[Engagement]) -> None:
    """ "Infiltrate": "Whether independent or Versus, you gain an advantage to your next
    maneuver against that opponent equal to your margin of success."
    """
    for e in mine:
        if e.is_success:
            game.ledger.note(
                Effect(
                    entry.faction,
                    "infiltrated",
                    entry.faction,
                    f"{game.board.own(entry.faction)} Infiltration of {game.board.name(e.target)} "
                    f"succeeds: +{e.margin}D to its next maneuver against them",
                    amount=e.margin,
                    target=e.target,
                )
            )


def onslaught(game: Resolving, entry: Entry, mine: Sequence[Engagement]) -> None:
    """ "Onslaught": "Successes are deducted from the target's disposition" (its +3D is the
    maneuver's ``bonus``; the hesitation is :func:`onslaught_hesitates`, once every maneuver
    has applied)."""
    _take_net(game, entry, mine)


def onslaught_hesitates(game: Resolving, entry: Entry) -> None:
    """ "If an Onslaught fails to completely deplete the targets disposition, the side
    performing the onslaught hesitates for the next maneuver and cannot act."
    """
    for target in entry.targets:
        if game.ledger.value.get(target, 0) > 0:
            game.cannot_act.append(entry.faction)
            game.ledger.note(
                Effect(
                    entry.faction,
                    "cannot_act",
                    entry.faction,
                    f"{game.board.own(entry.faction)} Onslaught did not wipe out "
                    f"{game.board.name(target)}: it hesitates "
                    "and cannot act next maneuver",
                )
            )


def ploy(game: Resolving, entry: Entry, mine: Sequence[Engagement]) -> None:
    """ "Ploy": "Any target you beat loses a number of disposition points equal to your margin
    of success"; damaging neither, the Ployer's faction cannot act next maneuver."""
    hit = False
    for e in mine:
        if e.is_success and e.margin > 0:
            hit = True
            game.ledger.change(
                e.target,
                -e.margin,
                entry.faction,
                f"{game.board.own(entry.faction)} Ploy beats {game.board.name(e.target)} by "
                f"{e.margin}",
                attack=e.successes,
            )
    if not hit:
        game.cannot_act.append(entry.faction)
        game.ledger.note(
            Effect(
                entry.faction,
                "cannot_act",
                entry.faction,
                f"{game.board.own(entry.faction)} Ploy damaged neither target: it cannot act next "
                "maneuver",
            )
        )


def sap(game: Resolving, entry: Entry, mine: Sequence[Engagement]) -> None:
    """ "Sap": "The margin of success is subtracted from the target's next maneuver" (RULINGS:
    against an independent maneuver, every success); reducing the skill below 0 costs the
    extra successes in disposition; the Sapper gets one increment of downtime and the target
    a Resources maintenance test at +margin Ob."""
    faction = entry.faction
    for e in mine:
        if not e.is_success:
            continue
        dice = e.successes if e.kind == "independent" else e.margin
        game.sapped[e.target] = max(game.sapped.get(e.target, 0), dice)
        game.ledger.note(
            Effect(
                e.target,
                "sapped",
                faction,
                f"{game.board.own(faction)} Sap takes {dice}D from {game.board.own(e.target)} next "
                "maneuver",
                amount=dice,
            )
        )
        skill = game.entries[e.target].exponent if e.target in game.entries else 0
        extra = dice - skill
        if extra > 0:
            game.ledger.change(
                e.target,
                -extra,
                faction,
                f"{game.board.own(faction)} Sap reduces {game.board.own(e.target)} skill ({skill}) "
                f"below 0: {extra} damage",
                attack=e.successes,
            )
        game.ledger.note(
            Effect(
                faction,
                "downtime",
                faction,
                f"{game.board.own(faction)} Sap earns one free maintenance cycle",
                amount=game.months,
            )
        )
        game.ledger.note(
            Effect(
                e.target,
                "maintenance",
                faction,
                f"{game.board.name(e.target)} must make a Resources maintenance test at "
                f"+{e.margin} Ob",
                amount=e.margin,
                value=1,
            )
        )


MANEUVER_EFFECTS: Mapping[str, Callable[[Resolving, Entry, Sequence[Engagement]], None]] = {
    "Assault": assault,
    "Assess": assess,
    "Conserve": conserve,
    "Ensnare": ensnare,
    "Fortify": fortify,
    "Gambit": gambit,
    "Harry": harry,
    "Infiltrate": infiltrate,
    "Onslaught": onslaught,
    "Ploy": ploy,
    "Sap": sap,
}
"""Each maneuver's "Effect/Description", by its name in the text."""


def _downtime_for_others(game: Resolving, entry: Entry, order: Sequence[str]) -> None:
    """ "In a succesful Conserve or Fortify, the winner gets one 3-month resource maintenance
    cycle for free per success allocated to downtime and the rest of the players are required
    to make resource maintenance checks" ("Downtime")."""
    if entry.maneuver not in ("Conserve", "Fortify"):
        return
    cycles = sum(
        e.amount // game.months
        for e in game.ledger.effects
        if e.kind == "downtime" and e.by == entry.faction
    )
    if not cycles:
        return
    for other in order:
        if other != entry.faction and other not in game.ledger.out:
            game.ledger.note(
                Effect(
                    other,
                    "maintenance",
                    entry.faction,
                    f"{game.board.own(entry.faction)} {cycles} maintenance cycles of "
                    f"downtime: {game.board.name(other)} must make {cycles} Resources "
                    "maintenance tests",
                    amount=0,
                    value=cycles,
                )
            )


def resolve(entries: Mapping[str, Entry], board: Board) -> Resolution:
    """Apply every maneuver in seat order (:data:`MANEUVER_EFFECTS`) and report the
    consequences ("Maneuver Resolution", "Consequences")."""
    found = engagements(entries, board)
    ledger = Ledger(board)
    against: dict[str, list[Engagement]] = {}
    for e in found:
        if e.kind == "versus" and e.role != "ensnare":
            against.setdefault(e.target, []).append(e)
    game = Resolving(entries, ledger, against)
    for faction in board.order:
        entry = entries.get(faction)
        if entry is None:
            continue
        mine = [e for e in found if e.attacker == faction]
        MANEUVER_EFFECTS[entry.maneuver](game, entry, mine)
        _downtime_for_others(game, entry, board.order)
    for faction in board.order:
        entry = entries.get(faction)
        if entry is not None and entry.maneuver == "Onslaught":
            onslaught_hesitates(game, entry)
    conquerors: dict[str, tuple[str, ...]] = {}
    for defeated in ledger.out:
        attackers = ledger.damaged_by.get(defeated, {})
        if not attackers:
            conquerors[defeated] = ()
            continue
        best = max(attackers.values())
        conquerors[defeated] = tuple(a for a in board.order if attackers.get(a) == best)
    acting = [f for f in board.order if f in entries]
    narrator = max(acting, key=lambda f: entries[f].total) if acting else None
    return Resolution(
        engagements=found,
        effects=tuple(ledger.effects),
        dispositions=dict(ledger.value),
        out=tuple(ledger.out),
        conquerors=conquerors,
        narrator=narrator,
        sapped=game.sapped,
        cannot_act=tuple(dict.fromkeys(game.cannot_act)),
        attackers={d: dict(ledger.damaged_by.get(d, {})) for d in ledger.out},
    )
