"""Dice a table can trust: every die fixed by a seed committed before play (docs/fairness.md).

A table's dice come from :class:`DiceSeeds`, the secret side, held by whoever keeps the table
(the store, or a file beside a record) and never put in the record: a 32-byte seed per *epoch*,
from the operating system's CSPRNG. Its commitment is a public event at the start of the log
(``dice.committed``), so the seed cannot be changed unseen. The faces of action ``n`` are
derived from the epoch's seed, mixed with every seed a seat has supplied
(``dice.seat_seeded``), the table's id, ``n`` and the die's position
(:func:`referee.dice.fairness.derive_face`): :func:`fair_dice` is that source.

The referee's seat (any seat, in a game without a referee) may reveal the seed at any time —
at the end of the evening or to settle a dispute: the kernel action ``reveal_dice`` publishes
it (``dice.revealed``), checks it against its commitment, and commits the next epoch's seed in
the same breath, so play goes on with dice nobody can predict. :func:`verify` then recomputes
every face of every revealed epoch and names each action whose faces differ.

>>> seeds = DiceSeeds.new("t-1")
>>> seeds.commitment_event().data["commitment"] == commitment(seeds.current)
True
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from referee.core.errors import RuleError, ScenarioError
from referee.core.events import EVERYONE, Audience, Event, Secret
from referee.dice import DiceSource, ScriptedSource
from referee.dice.fairness import (
    SALT_BYTES,
    DerivedSource,
    check_choice,
    check_seed,
    combine_seeds,
    commit_choice,
    commitment,
    new_salt,
    new_seed,
    verify_faces,
)

if TYPE_CHECKING:
    from referee.core.table import Table

__all__ = [
    "DICE_COMMITTED",
    "DICE_EVENTS",
    "DICE_REVEALED",
    "REVEAL_DICE",
    "SALT",
    "SEAT_SEEDED",
    "SEED_DICE",
    "ZERO_SALT",
    "DiceLedger",
    "DiceSeeds",
    "Verification",
    "draw_salt",
    "fair_dice",
    "reveal_params",
    "seal",
    "sealed_choices",
    "unseal",
    "verify",
]

DICE_COMMITTED = "dice.committed"
"""Event: the commitment (SHA-256) of an epoch's dice seed, public, before any of its dice."""
SEAT_SEEDED = "dice.seat_seeded"
"""Event: a seat mixed a seed of its own into the dice of every later action."""
DICE_REVEALED = "dice.revealed"
"""Event: an epoch's seed, revealed; its dice can now be verified by anyone."""

SEED_DICE = "seed_dice"
"""Kernel action: a seat supplies a seed of its own (``{"seed": text}``)."""
REVEAL_DICE = "reveal_dice"
"""Kernel action: reveal the dice seed and commit the next (``{"seed": hex, "next": hex}``)."""

SALT = "salt"
"""The name of the secret part that holds a sealed choice's salt (only its sealer sees it)."""

ZERO_SALT = bytes(SALT_BYTES)
"""The salt of a choice sealed in play with scripted dice (tests, worked examples), so their
events are the same on every run. A real table's dice are never scripted: its salts come from
the operating system's CSPRNG."""

SCHEME = "referee/die/v1"
"""The derivation: HMAC-SHA256 over (table, action, position, sides), no modulo bias."""


@dataclass(frozen=True)
class DiceSeeds:
    """The secret side of a table's dice: its id and one seed per epoch, the last one current.

    Never in a record, never in an observation; kept by the store or beside a record file.

    >>> seeds = DiceSeeds.new("t-1")
    >>> len(seeds.current), seeds.epoch
    (32, 0)
    >>> DiceSeeds.from_json(seeds.to_json()) == seeds
    True
    """

    table: str
    seeds: tuple[bytes, ...] = field(repr=False)

    @classmethod
    def new(cls, table: str | None = None) -> DiceSeeds:
        """Fresh seeds for a new table (a random id unless given)."""
        return cls(table or uuid.uuid4().hex, (new_seed(),))

    @property
    def epoch(self) -> int:
        """The current epoch: how many seeds have been revealed."""
        return len(self.seeds) - 1

    @property
    def current(self) -> bytes:
        """The seed the next action's dice come from."""
        return self.seeds[-1]

    def next_epoch(self) -> DiceSeeds:
        """These seeds with a fresh one for the epoch after a reveal."""
        return DiceSeeds(self.table, (*self.seeds, new_seed()))

    def commitment_event(self) -> Event:
        """The public ``dice.committed`` event of the current epoch."""
        return Event(
            DICE_COMMITTED,
            {
                "table": self.table,
                "epoch": self.epoch,
                "commitment": commitment(self.current),
                "scheme": SCHEME,
            },
            audience=EVERYONE,
        )

    def to_json(self) -> dict[str, Any]:
        """``{"table", "seeds": [hex, ...]}``: secret — for the keeper's own storage only."""
        return {"table": self.table, "seeds": [s.hex() for s in self.seeds]}

    @classmethod
    def from_json(cls, data: Any) -> DiceSeeds:
        """Inverse of :meth:`to_json`; :class:`ScenarioError` for a malformed one."""
        try:
            table = data["table"]
            seeds = tuple(bytes.fromhex(s) for s in data["seeds"])
        except (KeyError, TypeError, ValueError):
            raise ScenarioError("dice seeds: not a table's dice seeds") from None
        if not isinstance(table, str) or not seeds or any(len(s) != 32 for s in seeds):
            raise ScenarioError("dice seeds: not a table's dice seeds")
        return cls(table, seeds)


DICE_EVENTS = frozenset({DICE_COMMITTED, DICE_REVEALED, SEAT_SEEDED})
"""The kernel's fair-dice events: what a :class:`DiceLedger` folds."""


@dataclass(frozen=True)
class DiceLedger:
    """What a table's log says of its dice: the table's id in its commitments, the epoch now,
    each epoch's commitment and revealed seed, and the seeds the seats gave. A table keeps it
    folded as it goes (``Table.ledger``), so the next action's dice never read the old log.

    >>> ledger = DiceLedger().fold(Event(DICE_COMMITTED, {"table": "t", "epoch": 0,
    ...                                                   "commitment": "c"}))
    >>> ledger.table, ledger.epoch, dict(ledger.commitments)
    ('t', 0, {0: 'c'})
    """

    table: str | None = None
    epoch: int = 0
    commitments: Mapping[int, str] = field(default_factory=dict)
    revealed: Mapping[int, bytes] = field(default_factory=dict)
    seat_seeds: Mapping[str, bytes] = field(default_factory=dict)

    def fold(self, event: Event) -> DiceLedger:
        """The ledger after ``event`` (itself, for an event that is not about the dice)."""
        data = event.data
        if event.kind == DICE_COMMITTED:
            epoch = int(data["epoch"])  # type: ignore[arg-type]
            commitments = {**self.commitments, epoch: str(data["commitment"])}
            return replace(self, table=str(data["table"]), epoch=epoch, commitments=commitments)
        if event.kind == DICE_REVEALED:
            seed = bytes.fromhex(str(data["seed"]))
            return replace(self, revealed={**self.revealed, int(data["epoch"]): seed})  # type: ignore[arg-type]
        if event.kind == SEAT_SEEDED:
            seeds = {**self.seat_seeds, str(data["seat"]): str(data["seed"]).encode("utf-8")}
            return replace(self, seat_seeds=seeds)
        return self


def _dice_state(events: Iterable[Event]) -> DiceLedger:
    ledger = DiceLedger()
    for event in events:
        if event.kind in DICE_EVENTS:
            ledger = ledger.fold(event)
    return ledger


def is_fair(table: Table[Any]) -> bool:
    """True if the table's dice were committed when it started."""
    return table.ledger.table is not None


def fair_dice(table: Table[Any], seeds: DiceSeeds) -> DerivedSource:
    """The dice of the table's next action, derived from its committed seed.

    :class:`RuleError` if these seeds are not the table's (another table's, or an epoch the
    log has not committed).
    """
    state = table.ledger
    if state.table != seeds.table or state.commitments.get(state.epoch) != commitment(
        seeds.seeds[state.epoch] if state.epoch < len(seeds.seeds) else b"\0" * 32
    ):
        raise RuleError("Fair dice", "these dice seeds are not the ones this table committed to")
    seed = combine_seeds(seeds.seeds[state.epoch], dict(state.seat_seeds))
    return DerivedSource(seed, seeds.table, len(table.actions) + 1)


def reveal_params(seeds: DiceSeeds) -> tuple[dict[str, str], DiceSeeds]:
    """The parameters of a ``reveal_dice`` action for these seeds, and the seeds after it."""
    after = seeds.next_epoch()
    return {"seed": seeds.current.hex(), "next": commitment(after.current)}, after


def kernel_dice_events(
    table: Table[Any], kind: str, params: Mapping[str, Any], seat: str | None
) -> tuple[Event, ...]:
    """The events of the kernel's dice actions (``seed_dice``, ``reveal_dice``)."""
    state = table.ledger
    if state.table is None:
        raise RuleError("Fair dice", "this table's dice were not committed when it started")
    if kind == SEED_DICE:
        text = params.get("seed")
        if seat is None:
            raise RuleError("Fair dice", "a seat supplies its own seed: say which seat")
        if not isinstance(text, str) or not 1 <= len(text) <= 200:
            raise RuleError("Fair dice", "a seat's seed is text of 1 to 200 characters")
        return (Event(SEAT_SEEDED, {"seat": seat, "seed": text}, audience=EVERYONE),)
    seed_hex, next_commitment = params.get("seed"), params.get("next")
    try:
        seed = bytes.fromhex(str(seed_hex))
    except ValueError:
        raise RuleError("Fair dice", "a revealed seed is 64 hexadecimal digits") from None
    if not check_seed(seed, state.commitments.get(state.epoch, "")):
        raise RuleError("Fair dice", f"this seed is not the one committed for epoch {state.epoch}")
    if not isinstance(next_commitment, str) or len(next_commitment) != 64:
        raise RuleError("Fair dice", "the next epoch's commitment is 64 hexadecimal digits")
    return (
        Event(DICE_REVEALED, {"epoch": state.epoch, "seed": seed.hex()}, audience=EVERYONE),
        Event(
            DICE_COMMITTED,
            {
                "table": state.table,
                "epoch": state.epoch + 1,
                "commitment": next_commitment,
                "scheme": SCHEME,
            },
            audience=EVERYONE,
        ),
    )


@dataclass(frozen=True)
class Verification:
    """What :func:`verify` found: actions checked, actions whose epoch is still sealed, and
    each problem (an action whose faces the revealed seed does not give, naming its events; a
    revealed choice that is not the one sealed). ``choices`` counts the revealed choices
    checked against their commitments."""

    checked: int
    sealed: int
    dice: int
    problems: tuple[str, ...]
    choices: int = 0

    @property
    def ok(self) -> bool:
        """True when every checked face is the one the seed gives."""
        return not self.problems


def verify(table: Table[Any]) -> Verification:
    """Recompute every face of every action in a revealed epoch from its revealed seed, and
    check every revealed choice against the commitment made when it was sealed."""
    events = tuple(table.log)
    final = _dice_state(events)
    choices, problems_of_choices = sealed_choices(events)
    problems: list[str] = list(problems_of_choices)
    if final.table is None:
        problems.insert(0, "this table's dice were never committed")
        return Verification(0, 0, 0, tuple(problems), choices)
    for epoch, revealed in final.revealed.items():
        if not check_seed(revealed, final.commitments.get(epoch, "")):
            problems.append(f"the seed revealed for epoch {epoch} is not the one committed")
    checked = sealed = dice = 0
    for record in table.actions:
        if not record.dice:
            continue
        before = _dice_state(events[: record.events[0] - 1])
        seed = final.revealed.get(before.epoch)
        if seed is None:
            sealed += 1
            continue
        checked += 1
        dice += len(record.dice)
        derived = combine_seeds(seed, dict(before.seat_seeds))
        mismatch = verify_faces(derived, final.table, record.number, record.dice)
        if mismatch is not None:
            first = record.events[0]
            kinds = ", ".join(f"#{e.number} {e.kind}" for e in events[first - 1 : record.events[1]])
            problems.append(
                f"action {record.number} ({record.kind} by {record.actor}): die "
                f"{mismatch.position + 1} (a d{mismatch.sides}) is recorded as "
                f"{mismatch.recorded}, but the seed gives {mismatch.derived} — events {kinds}"
            )
    return Verification(checked, sealed, dice, tuple(problems), choices)


# ------------------------------------------------------------------------ sealed choices


def draw_salt(dice: DiceSource | None) -> bytes:
    """A fresh salt for a choice sealed by the action ``dice`` serves: the table's dice source
    hands it out (and records it, so the record replays); scripted dice give
    :data:`ZERO_SALT`; any other source a salt from the operating system's CSPRNG.

    Never derived from the dice seed: revealing the seed mid-play reveals nothing sealed.
    """
    salt = getattr(dice, "salt", None)
    if callable(salt):
        drawn = salt()
        assert isinstance(drawn, bytes)
        return drawn
    if dice is None or isinstance(dice, ScriptedSource):
        return ZERO_SALT
    return new_salt()


def seal(
    choice: str, content: Any, dice: DiceSource | None, audience: Audience
) -> tuple[dict[str, str], Secret]:
    """Seal ``content`` (JSON) as the choice named ``choice`` (unique in the table, e.g.
    ``"maneuver 1: the elves' slip"``): the public ``{"choice", "commitment"}`` to put in the
    event's data under ``"sealed"``, and the salt as a :class:`Secret` part for ``audience``
    (the sealer and whoever may see the content).

    >>> from referee.core.events import only
    >>> public, salt = seal("plan", {"strike": "door"}, ScriptedSource([]), only("moll"))
    >>> public["choice"], len(public["commitment"]), salt.name, salt.value == ZERO_SALT.hex()
    ('plan', 64, 'salt', True)
    """
    salt = draw_salt(dice)
    return {"choice": choice, "commitment": commit_choice(content, salt)}, Secret(
        SALT, salt.hex(), audience
    )


def unseal(choice: str, content: Any, salt: str) -> dict[str, Any]:
    """What a reveal publishes of a sealed choice (a list of these under ``"unsealed"`` in the
    reveal's data): the choice's name, its content and its salt (hex)."""
    return {"choice": choice, "content": content, "salt": salt}


def sealed_choices(events: Sequence[Event]) -> tuple[int, tuple[str, ...]]:
    """Every choice revealed in ``events`` checked against the commitment published when it
    was sealed (the last, if it was sealed again): how many were checked, and each problem."""
    committed: dict[str, str] = {}
    checked = 0
    problems: list[str] = []
    for event in events:
        sealed = event.data.get("sealed")
        if isinstance(sealed, Mapping):
            committed[str(sealed.get("choice"))] = str(sealed.get("commitment"))
        revealed = event.data.get("unsealed")
        if not isinstance(revealed, Sequence) or isinstance(revealed, str):
            continue
        for entry in revealed:
            if not isinstance(entry, Mapping):
                continue
            name = str(entry.get("choice"))
            checked += 1
            if name not in committed:
                problems.append(f"event {event.number}: {name!r} is revealed but was never sealed")
                continue
            try:
                salt = bytes.fromhex(str(entry.get("salt")))
            except ValueError:
                salt = b""
            if not check_choice(entry.get("content"), salt, committed[name]):
                problems.append(
                    f"event {event.number}: {name!r} is not the choice that was sealed "
                    "(its content or salt differs from the commitment)"
                )
    return checked, tuple(problems)
