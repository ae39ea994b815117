"""Derived dice and sealed choices (issue 12): deterministic, unbiased, and verification catches
every change to a recorded face or a revealed choice."""

from __future__ import annotations

import doctest
import hashlib
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import chisquare

from referee.dice import ScriptedSource, roll
from referee.dice.errors import DiceSourceError, FairnessError
from referee.dice.fairness import (
    SALT_BYTES,
    SEED_BYTES,
    DerivedSource,
    Mismatch,
    canonical_json,
    check_choice,
    check_seed,
    combine_seeds,
    commit_choice,
    commitment,
    derive_face,
    derive_words,
    new_salt,
    new_seed,
    verify_faces,
)
from referee.dice.sources import face_of

SIZES = [2, 3, 4, 6, 8, 10, 12, 20, 100, 10_000]
LARGE = 1_000_003
SEED = bytes(range(32))
TABLE = "tbl-7f3a"
SAMPLES = 10**6

# ------------------------------------------------------------------ seeds and commitments


def test_a_seed_is_32_fresh_bytes() -> None:
    seeds = {new_seed() for _ in range(100)}
    assert len(seeds) == 100 and all(len(s) == SEED_BYTES for s in seeds)


def test_the_commitment_is_a_labelled_sha256() -> None:
    expected = hashlib.sha256(b"referee/dice-seed/v1\x00" + SEED).hexdigest()
    assert commitment(SEED) == expected
    assert commitment(SEED) != hashlib.sha256(SEED).hexdigest()  # domain separated
    assert check_seed(SEED, expected) and check_seed(SEED, expected.upper())
    other = bytearray(SEED)
    other[-1] ^= 1
    assert not check_seed(bytes(other), expected)
    assert not check_seed(SEED[:31], expected)  # never raises while checking
    with pytest.raises(FairnessError, match="32 bytes"):
        commitment(SEED[:16])


def test_seat_seeds_are_mixed_in_and_their_order_does_not_matter() -> None:
    seats = {"alice": b"a", "bob": b"b"}
    combined = combine_seeds(SEED, seats)
    assert combined == combine_seeds(SEED, dict(reversed(seats.items())))
    assert combined != combine_seeds(SEED, {"alice": b"a", "bob": b"c"})
    assert combined != combine_seeds(SEED, {"alice": b"ab", "bob": b""})  # fields are delimited
    assert combined != combine_seeds(new_seed(), seats)
    assert combine_seeds(SEED, {}) != SEED
    assert len(combined) == SEED_BYTES


# ------------------------------------------------------------------ derived faces


def test_the_same_seed_table_and_action_give_the_same_faces() -> None:
    first = roll("4d6kh3+1d20", DerivedSource(SEED, TABLE, 5))
    again = roll("4d6kh3+1d20", DerivedSource(SEED, TABLE, 5))
    assert first.describe() == again.describe()
    others = {
        roll("10d20", DerivedSource(seed, table, action)).faces
        for seed, table, action in [
            (SEED, TABLE, 5),
            (SEED, TABLE, 6),
            (SEED, TABLE + "x", 5),
            (new_seed(), TABLE, 5),
        ]
    }
    assert len(others) == 4


def test_the_source_records_every_die_it_hands_out() -> None:
    source = DerivedSource(SEED, TABLE, 0)
    result = roll("4d6r1!+1d8", source)
    assert [face for _, face in source.rolled] == list(result.faces)
    assert [sides for sides, _ in source.rolled] == [
        d.sides for d in sorted(result.dice, key=lambda d: d.order)
    ]
    # a record's faces replay the roll exactly
    assert roll("4d6r1!+1d8", ScriptedSource(result.faces)).describe() == result.describe()


def test_a_face_is_the_first_accepted_word() -> None:
    for position in range(200):
        words = derive_words(SEED, TABLE, 3, position)
        for sides in SIZES:
            expected = next(face_of(w, sides) for w in words if face_of(w, sides))
            assert derive_face(SEED, TABLE, 3, position, sides) == expected


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(FairnessError):
        DerivedSource(b"short", TABLE, 0)
    with pytest.raises(FairnessError):
        DerivedSource(SEED, TABLE, -1)
    with pytest.raises(DiceSourceError):
        DerivedSource(SEED, TABLE, 0).roll(0)


# ------------------------------------------------------------------ verification


def record(action: int, expression: str = "3d6+1d20") -> tuple[tuple[int, int], ...]:
    source = DerivedSource(SEED, TABLE, action)
    roll(expression, source)
    return source.rolled


def test_an_honest_record_verifies() -> None:
    for action in range(20):
        assert verify_faces(SEED, TABLE, action, record(action)) is None


@pytest.mark.parametrize("position", range(4))
def test_a_single_altered_face_is_caught(position: int) -> None:
    faces = list(record(1))
    sides, face = faces[position]
    faces[position] = (sides, face % sides + 1)
    assert verify_faces(SEED, TABLE, 1, faces) == Mismatch(position, sides, face % sides + 1, face)


def test_swapped_actions_are_caught() -> None:
    first, second = record(1, "10d20"), record(2, "10d20")
    assert verify_faces(SEED, TABLE, 1, second) is not None
    assert verify_faces(SEED, TABLE, 2, first) is not None


def test_another_seed_or_table_is_caught() -> None:
    assert verify_faces(new_seed(), TABLE, 1, record(1, "10d20")) is not None
    assert verify_faces(SEED, "another", 1, record(1, "10d20")) is not None


def test_a_verified_log_of_many_actions() -> None:
    log = [record(action, "2d6") for action in range(2000)]
    assert all(verify_faces(SEED, TABLE, a, faces) is None for a, faces in enumerate(log))


# ------------------------------------------------------------------ no bias, at scale


@pytest.fixture(scope="module")
def first_words() -> np.ndarray:
    """The first word of each of 10^6 dice positions of one action."""
    return np.array([derive_words(SEED, TABLE, 42, p)[0] for p in range(SAMPLES)], dtype=np.uint64)


@pytest.mark.slow
@pytest.mark.parametrize("sides", [*SIZES, LARGE])
def test_a_million_derived_faces_pass_chi_square(first_words: np.ndarray, sides: int) -> None:
    # Every word below 2**64 - 2**32 is accepted by every die of up to 2**32 sides (the
    # exhaustive test of face_of shows only the top 2**64 % sides words are rejected), so the
    # face of each position is its first word mod sides, plus 1 — checked on a sample.
    assert (first_words < np.uint64(2**64 - 2**32)).all()
    faces = first_words % np.uint64(sides) + np.uint64(1)
    rng = random.Random(sides)
    for position in rng.sample(range(SAMPLES), 200):
        assert derive_face(SEED, TABLE, 42, position, sides) == int(faces[position])
    if sides <= 100_000:
        observed = np.bincount(faces.astype(np.int64), minlength=sides + 1)[1:]
        expected = np.full(sides, SAMPLES / sides)
    else:  # 1000 bins of (nearly) equal width, each with its exact expected count
        edges = np.linspace(1, sides + 1, 1001).astype(np.int64)
        observed = np.histogram(faces.astype(np.int64), bins=edges)[0]
        expected = np.diff(edges) * (SAMPLES / sides)
    assert chisquare(observed, expected).pvalue > 1e-4


# ------------------------------------------------------------------ sealed choices


def test_a_sealed_choice_checks_only_with_its_own_value_and_salt() -> None:
    slip = {"maneuver": "Feint", "target": "North Keep", "artha": [1, 0]}
    salt = new_salt()
    sealed = commit_choice(slip, salt)
    assert len(salt) == SALT_BYTES and len(sealed) == 64
    assert check_choice(dict(reversed(slip.items())), salt, sealed)  # key order is not content
    assert not check_choice({**slip, "maneuver": "Charge"}, salt, sealed)
    assert not check_choice({**slip, "artha": [1, 1]}, salt, sealed)
    assert not check_choice(slip, new_salt(), sealed)
    assert not check_choice(slip, salt, sealed[:-1] + ("0" if sealed[-1] != "0" else "1"))
    assert not check_choice(slip, salt[:5], sealed)  # never raises while checking
    assert commit_choice(slip, new_salt()) != sealed  # a fresh salt hides a repeated choice


def test_the_commitment_is_a_labelled_sha256_of_canonical_json() -> None:
    salt = bytes(32)
    text = canonical_json({"b": 1, "a": ["x", None, True]})
    assert text == '{"a":["x",null,true],"b":1}'
    expected = hashlib.sha256(b"referee/choice/v1\x00" + salt + text.encode()).hexdigest()
    assert commit_choice({"a": ["x", None, True], "b": 1}, salt) == expected


@pytest.mark.parametrize("value", [1.5, {"a": float("nan")}, {1: "x"}, {"a": {1, 2}}, "\ud800"])
def test_values_without_one_canonical_form_are_refused(value: object) -> None:
    with pytest.raises(FairnessError):
        commit_choice(value, new_salt())


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=200, deadline=None)
@given(JSON, JSON, st.binary(min_size=32, max_size=32))
def test_a_commitment_opens_only_to_its_own_value(a: object, b: object, salt: bytes) -> None:
    sealed = commit_choice(a, salt)
    assert check_choice(a, salt, sealed)
    assert check_choice(b, salt, sealed) == (canonical_json(a) == canonical_json(b))


# ------------------------------------------------------------------ docs/fairness.md

FAIRNESS_DOC = Path(__file__).resolve().parents[2] / "docs" / "fairness.md"


def test_the_documents_examples_run() -> None:
    from tests.dice.test_docs import blocks

    found = blocks(FAIRNESS_DOC.read_text("utf-8"), "python")
    assert len(found) == 2
    for first, lines in found:
        text = "\n".join(lines) + "\n"
        if ">>>" not in text:  # the API summary: it must at least be Python
            compile(text, f"docs/fairness.md:{first}", "exec")
            continue
        test = doctest.DocTestParser().get_doctest(
            text, {}, "fairness.md", str(FAIRNESS_DOC), first
        )
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        runner.run(test)
        outcome = runner.summarize(verbose=False)
        assert outcome.attempted >= 10 and outcome.failed == 0, f"docs/fairness.md line {first}"
