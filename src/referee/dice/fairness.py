"""Dice a table can check: faces derived from a committed seed, and sealed choices.

``docs/fairness.md`` explains the scheme in plain words and in full; this module is its dice
library part. Everything here is a pure function of its arguments except :func:`new_seed` and
:func:`new_salt`, which read the operating system's CSPRNG.

**Seeds.** A table's dice seed is 32 random bytes (:func:`new_seed`). Its
:func:`commitment` (a SHA-256 hash) is published before play; the seed itself is revealed
later, and :func:`check_seed` confirms it is the one committed. Seeds that players supply when
they take a seat are mixed in with :func:`combine_seeds`.

**Faces.** The ``position``-th die (from 0) rolled by action number ``action`` of table
``table`` is derived from the seed with HMAC-SHA256 and mapped to a face without bias
(:func:`derive_face`). :class:`DerivedSource` hands out those faces in order, as any
:class:`~referee.dice.sources.DiceSource` does, and records ``(sides, face)`` for each;
:func:`verify_faces` recomputes a recorded action's faces and names the first that differs.

**Sealed choices.** :func:`commit_choice` hashes a JSON value (a slip, a plan) with a random
salt; :func:`check_choice` checks the value and salt revealed later against it.

>>> seed = bytes(32)  # a real table uses new_seed()
>>> commitment(seed)[:16]
'ccc18471fcddedce'
>>> source = DerivedSource(seed, "table-1", action=3)
>>> from referee.dice import roll
>>> roll("3d6", source).total
15
>>> source.rolled
((6, 4), (6, 6), (6, 5))
>>> verify_faces(seed, "table-1", 3, source.rolled) is None
True
>>> verify_faces(seed, "table-1", 3, [(6, 4), (6, 1), (6, 5)])
Mismatch(position=1, sides=6, recorded=1, derived=6)
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import struct
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from referee.dice.errors import DiceSourceError, FairnessError
from referee.dice.sources import face_of

__all__ = [
    "SALT_BYTES",
    "SEED_BYTES",
    "DerivedSource",
    "Mismatch",
    "canonical_json",
    "check_choice",
    "check_seed",
    "combine_seeds",
    "commit_choice",
    "commitment",
    "derive_face",
    "derive_words",
    "new_salt",
    "new_seed",
    "verify_faces",
]

#: Length of a table's dice seed, in bytes.
SEED_BYTES = 32
#: Length of a sealed choice's salt, in bytes.
SALT_BYTES = 32

# Domain separation: each use of a hash starts with its own label, so no value made for one
# purpose can pass for another.
_SEED_LABEL = b"referee/dice-seed/v1\x00"
_SEATS_LABEL = b"referee/seat-seeds/v1\x00"
_DIE_LABEL = b"referee/die/v1\x00"
_CHOICE_LABEL = b"referee/choice/v1\x00"

_WORD_BYTES = 8  # 64-bit words: a 32-byte HMAC gives four
_LIMIT = 1 << 64


def new_seed() -> bytes:
    """A fresh secret dice seed: 32 bytes from the operating system's CSPRNG.

    >>> len(new_seed()), new_seed() == new_seed()
    (32, False)
    """
    return secrets.token_bytes(SEED_BYTES)


def _check_seed_bytes(seed: bytes) -> None:
    if not isinstance(seed, bytes | bytearray) or len(seed) != SEED_BYTES:
        shown = f"{len(seed)} bytes" if isinstance(seed, bytes | bytearray) else type(seed).__name__
        raise FairnessError(f"a dice seed is {SEED_BYTES} bytes, not {shown}")


def commitment(seed: bytes) -> str:
    """The public commitment to a dice seed: SHA-256 of a label and the seed, in hex.

    Publishing it fixes the seed without showing it: nobody can find another seed with the same
    commitment, nor learn anything of the seed from it.

    >>> label = b"referee/dice-seed/v1\\x00"
    >>> commitment(bytes(32)) == hashlib.sha256(label + bytes(32)).hexdigest()
    True
    """
    _check_seed_bytes(seed)
    return hashlib.sha256(_SEED_LABEL + bytes(seed)).hexdigest()


def check_seed(seed: bytes, committed: str) -> bool:
    """Whether a revealed ``seed`` is the one whose :func:`commitment` was published.

    >>> seed = new_seed()
    >>> check_seed(seed, commitment(seed)), check_seed(new_seed(), commitment(seed))
    (True, False)
    """
    try:
        return hmac.compare_digest(commitment(seed), committed.lower())
    except (FairnessError, AttributeError, TypeError):
        return False


def _field(data: bytes) -> bytes:
    """``data`` preceded by its length, so two fields can never run into each other."""
    return len(data).to_bytes(4, "big") + data


def _text(value: str, what: str) -> bytes:
    try:
        return value.encode("utf-8")
    except (AttributeError, UnicodeEncodeError):
        raise FairnessError(f"a {what} is text, not {value!r}") from None


def combine_seeds(server_seed: bytes, seat_seeds: Mapping[str, bytes]) -> bytes:
    """The seed a table's dice are derived from: the server's seed with each seat's seed mixed
    in, ``HMAC-SHA256(server_seed, label ‖ (seat, seat seed) for each seat in sorted order)``.

    As long as the server's seed was committed before the seats' seeds were given, neither the
    server nor any player alone chooses the result. With no seat seeds, the result still
    differs from the server's seed (the server's seed never derives faces itself).

    >>> a = combine_seeds(bytes(32), {"alice": b"lucky", "bob": b"7"})
    >>> a == combine_seeds(bytes(32), {"bob": b"7", "alice": b"lucky"}), len(a)
    (True, 32)
    >>> a == combine_seeds(bytes(32), {"alice": b"lucky", "bob": b"8"})
    False
    """
    _check_seed_bytes(server_seed)
    message = bytearray(_SEATS_LABEL)
    for seat in sorted(seat_seeds):
        seat_seed = seat_seeds[seat]
        if not isinstance(seat_seed, bytes | bytearray):
            raise FairnessError(f"seat {seat!r}: a seat's seed is bytes, not {seat_seed!r}")
        message += _field(_text(seat, "seat id")) + _field(bytes(seat_seed))
    return hmac.digest(bytes(server_seed), bytes(message), "sha256")


def _prefix(seed: bytes, table: str, action: int) -> bytes:
    _check_seed_bytes(seed)
    if not isinstance(action, int) or not 0 <= action < _LIMIT:
        raise FairnessError(f"an action number is a whole number from 0, not {action!r}")
    return _DIE_LABEL + _field(_text(table, "table id")) + action.to_bytes(8, "big")


def _words(key: bytes, prefix: bytes, position: int, block: int) -> tuple[int, ...]:
    digest = hmac.digest(
        key, prefix + position.to_bytes(8, "big") + block.to_bytes(4, "big"), "sha256"
    )
    return struct.unpack(">4Q", digest)


def _face(key: bytes, prefix: bytes, position: int, sides: int) -> int:
    """The face of die ``position`` after ``prefix`` (label, table, action)."""
    if not isinstance(sides, int) or not 1 <= sides < _LIMIT:
        raise DiceSourceError(f"a die needs from 1 to 2**64 - 1 sides, not {sides!r}")
    block = 0
    while True:
        for word in _words(key, prefix, position, block):
            face = face_of(word, sides)
            if face:
                return face
        block += 1  # all four words rejected: fewer than (sides / 2**64) ** 4 of the time


def derive_words(
    seed: bytes, table: str, action: int, position: int, block: int = 0
) -> tuple[int, int, int, int]:
    """The four 64-bit words from which die ``position`` of an action takes its face:
    ``HMAC-SHA256(seed, label ‖ table ‖ action ‖ position ‖ block)`` read as four big-endian
    64-bit numbers. For auditors and tests; :func:`derive_face` is what a table uses.

    >>> words = derive_words(bytes(32), "table-1", 3, 0)
    >>> face_of(words[0], 6) == derive_face(bytes(32), "table-1", 3, 0, 6)
    True
    """
    if not isinstance(position, int) or not 0 <= position < _LIMIT:
        raise FairnessError(f"a die's position is a whole number from 0, not {position!r}")
    if not isinstance(block, int) or not 0 <= block < 1 << 32:
        raise FairnessError(f"a block number is a whole number from 0, not {block!r}")
    a, b, c, d = _words(bytes(seed), _prefix(seed, table, action), position, block)
    return a, b, c, d


def derive_face(seed: bytes, table: str, action: int, position: int, sides: int) -> int:
    """The face of the ``position``-th die (from 0) of action ``action`` at table ``table``.

    ``HMAC-SHA256(seed, label ‖ table ‖ action ‖ position ‖ block)`` gives four 64-bit words
    (:func:`derive_words`); the first that :func:`~referee.dice.sources.face_of` accepts for a
    die of ``sides`` faces is the face (``block`` counts up from 0 in the vanishingly rare case
    that all four are rejected). The die's size is not hashed: the ``position``-th die of an
    action gets the ``position``-th random number, whatever its size.

    >>> [derive_face(bytes(32), "table-1", 3, p, 6) for p in range(3)]
    [4, 6, 5]
    >>> derive_face(bytes(32), "table-1", 3, 0, 20)  # the same number, on a d20
    18
    """
    if not isinstance(position, int) or not 0 <= position < _LIMIT:
        raise FairnessError(f"a die's position is a whole number from 0, not {position!r}")
    return _face(bytes(seed), _prefix(seed, table, action), position, sides)


class DerivedSource:
    """The dice of one action at one table, derived from the table's seed.

    Each die asked for gets the next position (0, 1, 2 …), so the same seed, table, action and
    sequence of die sizes always give the same faces. ``rolled`` records ``(sides, face)`` for
    every die handed out, which is what a record keeps so that :func:`verify_faces` can check
    the action later.

    >>> source = DerivedSource(bytes(32), "table-1", action=0)
    >>> source.roll(20), source.roll(6)
    (11, 2)
    >>> source.rolled
    ((20, 11), (6, 2))
    """

    __slots__ = ("_key", "_prefix", "_rolled", "action", "table")

    def __init__(self, seed: bytes, table: str, action: int) -> None:
        self._prefix = _prefix(seed, table, action)
        self._key = bytes(seed)
        self.table = table
        self.action = action
        self._rolled: list[tuple[int, int]] = []

    @property
    def rolled(self) -> tuple[tuple[int, int], ...]:
        """Every die handed out so far, as ``(sides, face)``, in order."""
        return tuple(self._rolled)

    def roll(self, sides: int) -> int:
        """The face of the next die, of ``sides`` faces."""
        face = _face(self._key, self._prefix, len(self._rolled), sides)
        self._rolled.append((sides, face))
        return face

    def __repr__(self) -> str:
        return (
            f"DerivedSource(<seed>, {self.table!r}, action={self.action}, "
            f"rolled={len(self._rolled)})"
        )


@dataclass(frozen=True, slots=True)
class Mismatch:
    """A recorded face that the seed does not give: the die's position in its action (from 0),
    its size, the face recorded and the face derived from the seed."""

    position: int
    sides: int
    recorded: int
    derived: int


def verify_faces(
    seed: bytes, table: str, action: int, sides_and_faces: Iterable[tuple[int, int]]
) -> Mismatch | None:
    """Recompute the faces of one recorded action; the first that differs, or None.

    >>> faces = DerivedSource(bytes(32), "t", 9)
    >>> _ = [faces.roll(6) for _ in range(4)]
    >>> verify_faces(bytes(32), "t", 9, faces.rolled) is None
    True
    >>> verify_faces(bytes(32), "t", 10, faces.rolled)  # the same faces under another action
    Mismatch(position=0, sides=6, recorded=6, derived=3)
    """
    prefix = _prefix(seed, table, action)
    key = bytes(seed)
    for position, (sides, recorded) in enumerate(sides_and_faces):
        derived = _face(key, prefix, position, sides)
        if derived != recorded:
            return Mismatch(position, sides, recorded, derived)
    return None


# ------------------------------------------------------------------------ sealed choices


def new_salt() -> bytes:
    """A fresh salt for :func:`commit_choice`: 32 bytes from the operating system's CSPRNG.

    >>> len(new_salt())
    32
    """
    return secrets.token_bytes(SALT_BYTES)


def canonical_json(value: Any) -> str:
    """``value`` as canonical JSON: keys sorted, no spaces, text as UTF-8 (not escaped).

    Only JSON's own values are accepted (objects with text keys, arrays, text, whole numbers,
    true, false, null): a float's digits are not written the same way everywhere, so a choice
    with one is refused.

    >>> canonical_json({"b": [1, 2], "a": "café"})
    '{"a":"café","b":[1,2]}'
    """
    _check_json(value, "value")
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _check_json(value: Any, path: str) -> None:
    if value is None or isinstance(value, bool | int):
        return
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise FairnessError(f"{path}: text that is not valid Unicode") from None
        return
    if isinstance(value, list | tuple):
        for i, item in enumerate(value):
            _check_json(item, f"{path}[{i}]")
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise FairnessError(f"{path}: an object's keys are text, not {key!r}")
            _check_json(key, path)
            _check_json(item, f"{path}.{key}")
        return
    raise FairnessError(
        f"{path}: a sealed choice holds JSON text, whole numbers, true, false, null, arrays "
        f"and objects, not {type(value).__name__} {value!r}"
    )


def commit_choice(value: Any, salt: bytes) -> str:
    """The public commitment to a sealed choice: SHA-256 of a label, the 32-byte ``salt`` and
    the choice as :func:`canonical_json`, in hex.

    The salt keeps a choice with few possibilities (one of five maneuvers) from being found by
    trying each; it is revealed with the choice.

    >>> salt = bytes(range(32))
    >>> commit_choice({"maneuver": "Feint"}, salt)[:16]
    'f937ce12f2187758'
    """
    if not isinstance(salt, bytes | bytearray) or len(salt) != SALT_BYTES:
        raise FairnessError(f"a choice's salt is {SALT_BYTES} bytes")
    data = canonical_json(value).encode("utf-8")
    return hashlib.sha256(_CHOICE_LABEL + bytes(salt) + data).hexdigest()


def check_choice(value: Any, salt: bytes, committed: str) -> bool:
    """Whether a revealed choice and salt are the ones committed to (never raises).

    >>> salt = new_salt()
    >>> sealed = commit_choice({"maneuver": "Feint", "target": "north"}, salt)
    >>> check_choice({"target": "north", "maneuver": "Feint"}, salt, sealed)
    True
    >>> check_choice({"maneuver": "Charge", "target": "north"}, salt, sealed)
    False
    """
    try:
        return hmac.compare_digest(commit_choice(value, salt), committed.lower())
    except (FairnessError, AttributeError, TypeError, RecursionError):
        return False
