"""The one file reader: hostile files are refused quickly, in one line naming the file."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from referee.core import ScenarioError, loader
from referee.core.loader import MAX_BYTES, MAX_DEPTH, load_file, parse_text, yaml_loader

BILLION_LAUGHS = "\n".join(
    ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    + [
        f"{chr(ord('a') + i)}: &{chr(ord('a') + i)} "
        + "["
        + ", ".join([f"*{chr(ord('a') + i - 1)}"] * 9)
        + "]"
        for i in range(1, 9)
    ]
)


@dataclass
class Work:
    """What the reader did before refusing, counted (never timed): YAML events read,
    collections walked while measuring, documents built."""

    events: int = 0
    walked: int = 0
    built: int = 0


WORK = Work()


def refused(text: str, source: str = "f.yaml") -> str:
    """The one-line refusal of ``text``, made before anything is built from it; the work it
    took is left in :data:`WORK`."""
    WORK.events = WORK.walked = WORK.built = 0
    reader = yaml_loader()
    get_event, construct, children = reader.get_event, reader.construct_document, loader._children

    def counted_event(self: Any) -> Any:
        WORK.events += 1
        return get_event(self)

    def counted_construct(self: Any, node: Any) -> Any:
        WORK.built += 1
        return construct(self, node)

    def counted_children(node: Any) -> list[Any]:
        WORK.walked += 1
        return children(node)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(reader, "get_event", counted_event)
        patch.setattr(reader, "construct_document", counted_construct)
        patch.setattr(loader, "_children", counted_children)
        with pytest.raises(ScenarioError) as info:
            parse_text(text, source)
    assert WORK.built == 0, "a refused document was built"
    message = str(info.value)
    assert "\n" not in message and message.startswith(source)
    return message


def test_a_billion_laughs_is_measured_not_expanded() -> None:
    assert len(BILLION_LAUGHS) < 1000
    assert "values once its aliases are expanded" in refused(BILLION_LAUGHS)
    # each of its nine collections is walked twice (down, then up): not its 9**9 expansions
    assert WORK.walked <= 2 * BILLION_LAUGHS.count("[") + 2


def test_a_few_aliases_are_fine() -> None:
    assert parse_text("a: &x {b: 1}\nc: [*x, *x]", "f.yaml") == {
        "a": {"b": 1},
        "c": [{"b": 1}, {"b": 1}],
    }


def test_deep_nesting_is_refused_in_yaml_and_json() -> None:
    assert "nested more than" in refused("[" * 20000 + "]" * 20000)
    # refused from the event stream once past the limit, before composing 20,000 levels
    assert WORK.events <= MAX_DEPTH + 3 and WORK.walked == 0
    assert "nested more than" in refused("[" * (MAX_DEPTH + 5) + "]" * (MAX_DEPTH + 5))
    assert "nested more than" in refused("[" * 20000 + "]" * 20000, "r.json")
    assert "nested more than" in refused("[" * (MAX_DEPTH + 5) + "]" * (MAX_DEPTH + 5), "r.json")
    assert parse_text("[" * 50 + "]" * 50, "f.yaml") is not None


def test_huge_integers_are_refused() -> None:
    assert "an integer of 5000 digits" in refused("n: " + "9" * 5000)
    assert "an integer of 5000 digits" in refused('{"n": ' + "9" * 5000 + "}", "r.json")
    assert parse_text("n: 123456", "f.yaml") == {"n": 123456}


def test_json_constants_and_bad_syntax_are_refused_with_the_line() -> None:
    assert "NaN is not a JSON number" in refused('{"n": NaN}', "r.json")
    assert "line 2, column" in refused('{"a": 1,\n "b": }', "r.json")
    assert "line 2" in refused("a: [1, 2\nb: c: d", "f.yaml")


def test_a_recursive_alias_is_refused() -> None:
    assert "refers to itself" in refused("a: &x [1, *x]")


def test_clock_times_dates_and_leading_zeros_stay_text() -> None:
    assert parse_text("start: 21:00\nnumber: 07\nday: 2026-11-23", "f.yaml") == {
        "start": "21:00",
        "number": "07",
        "day": "2026-11-23",
    }


def test_files_not_utf8_too_large_or_missing_are_refused(tmp_path: Path) -> None:
    latin = tmp_path / "latin.yaml"
    latin.write_bytes("name: Zweihänder\n".encode("latin-1"))
    with pytest.raises(ScenarioError, match=r"latin\.yaml: not UTF-8 text \(byte 12, line 1\)"):
        load_file(latin)
    big = tmp_path / "big.yaml"
    with big.open("wb") as handle:
        handle.write(b"a: [" + b"1, " * (MAX_BYTES // 3) + b"1]\n")
    parsed: list[str] = []
    with (
        pytest.MonkeyPatch.context() as patch,
        pytest.raises(ScenarioError, match=r"big\.yaml: larger than 16 MiB"),
    ):
        patch.setattr(loader, "parse_text", lambda text, source: parsed.append(source))
        load_file(big)
    assert parsed == [], "a file over the limit was parsed"
    with pytest.raises(ScenarioError, match=r"^cannot read .*nothing\.yaml"):
        load_file(tmp_path / "nothing.yaml")
    bom = tmp_path / "bom.yaml"
    bom.write_bytes("\ufeffa: 1\n".encode())
    assert load_file(bom) == {"a": 1}


# -- the limits, exactly (docs/kernel.md, "Files: one loader with limits") -----------------------


def _loader_refusal(text: str, source: str) -> str:
    with pytest.raises(ScenarioError) as info:
        parse_text(text, source)
    return str(info.value)


@pytest.mark.parametrize("source", ["f.yaml", "r.json"])
def test_a_file_nests_at_most_a_hundred_collections_whatever_is_innermost(source: str) -> None:
    """One loader with limits (docs/kernel.md, "Files"): at most ``MAX_DEPTH`` nested lists
    and mappings, in YAML and JSON alike, whether the innermost holds a value or is empty; one
    more is refused."""
    deep = MAX_DEPTH
    for inner in ("", "1"):
        assert parse_text("[" * deep + inner + "]" * deep, source) is not None
        assert "nested more than 100 levels deep" in _loader_refusal(
            "[" * (deep + 1) + inner + "]" * (deep + 1), source
        )
    mappings = '{"a": ' * (deep - 2) + '{"a": 1, "b": []}' + "}" * (deep - 2)
    assert parse_text(mappings, source) is not None
    assert "nested more than 100 levels deep" in _loader_refusal(
        '{"a": ' * (deep - 1) + '{"a": 1, "b": []}' + "}" * (deep - 1), source
    )
    assert "nested more than 100 levels deep" in _loader_refusal(
        '{"a": 1, "b": ' + "[" * deep + "]" * deep + "}", source
    )


@pytest.mark.parametrize("source", ["f.yaml", "r.json"])
def test_an_integer_has_at_most_thirty_digits_its_sign_not_counted(source: str) -> None:
    """One loader with limits: an integer of at most ``MAX_DIGITS`` (30) digits, a sign not
    counted; one more is refused naming its length."""
    from referee.core.loader import MAX_DIGITS

    assert parse_text(f'{{"n": -{"9" * MAX_DIGITS}}}', source) == {"n": -int("9" * MAX_DIGITS)}
    assert parse_text(f'{{"n": {"9" * MAX_DIGITS}}}', source) == {"n": int("9" * MAX_DIGITS)}
    assert _loader_refusal(f'{{"n": -{"9" * (MAX_DIGITS + 1)}}}', source).endswith(
        "an integer of 31 digits (at most 30)"
    )


def test_the_depth_of_yaml_is_counted_down_as_each_collection_closes() -> None:
    """One loader with limits: the depth is that of the collections open at a point — a
    hundred and fifty lists side by side are two deep; a list closed two deep, then a
    hundred nested beside it, is refused where the hundred-and-first opens."""
    assert parse_text("- []\n" * 150, "f.yaml") == [[]] * 150
    assert parse_text("[[[], " + "[" * 98 + "]" * 98 + "]]", "f.yaml") is not None
    assert _loader_refusal("[[[], " + "[" * 99 + "]" * 99 + "]]", "f.yaml") == (
        "f.yaml: line 1, column 105: nested more than 100 levels deep"
    )


def test_a_file_larger_than_the_limit_is_refused_without_reading_it_whole(tmp_path: Path) -> None:
    """One loader with limits: a file past ``MAX_BYTES`` is refused having read no more than
    one byte past the limit (a 64 MiB file costs no more than a 16 MiB one)."""
    import tracemalloc

    huge = tmp_path / "huge.yaml"
    with huge.open("wb") as handle:
        handle.truncate(4 * MAX_BYTES)
    tracemalloc.start()
    try:
        with pytest.raises(ScenarioError, match=r"huge\.yaml: larger than 16 MiB"):
            load_file(huge)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2 * MAX_BYTES


def test_a_file_of_exactly_the_limit_is_read_whole_and_one_byte_more_is_refused(
    tmp_path: Path,
) -> None:
    """One loader with limits: a file (or text) of exactly ``MAX_BYTES`` is read whole; one
    byte more is refused."""
    text = '"' + "a" * (MAX_BYTES - 2) + '"'
    exact = tmp_path / "exact.json"
    exact.write_text(text, encoding="utf-8")
    assert len(load_file(exact)) == MAX_BYTES - 2
    assert len(parse_text(text, "exact.json")) == MAX_BYTES - 2
    over = tmp_path / "over.json"
    over.write_text(text + " ", encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"over\.json: larger than 16 MiB$"):
        load_file(over)
    assert _loader_refusal(text + " ", "over.json") == "over.json: larger than 16 MiB"


def _aliased(values: int, uses: int, extra: str = "") -> str:
    """A list of ``values`` zeros, and a list of ``uses`` aliases of it: 4 + (uses + 1) *
    (values + 1) values once expanded (the mapping, two keys, both lists and their items)."""
    return f"x: &x [{', '.join(['0'] * values)}]\ny: [{extra}{', '.join(['*x'] * uses)}]\n"


def test_a_yaml_file_holds_at_most_a_million_values_once_its_aliases_are_expanded() -> None:
    """One loader with limits: a document is measured as if every alias were expanded —
    exactly ``MAX_NODES`` values is read (each alias shares its value), one more refused."""
    from referee.core.loader import MAX_NODES

    assert MAX_NODES == 4 + (1001 + 1) * (997 + 1)
    data = parse_text(_aliased(997, 1001), "f.yaml")
    assert len(data["y"]) == 1001 and data["y"][0] is data["x"]
    assert _loader_refusal(_aliased(997, 1001, "0, "), "f.yaml") == (
        "f.yaml: line 1, column 1: more than 1,000,000 values once its aliases are expanded"
    )


def test_a_lower_limit_given_refuses_what_the_default_reads() -> None:
    """``parse_text``'s ``max_nodes`` (a request body's lower limit) is the one measured: a
    document of 4 + 2 * 11 = 26 values once expanded is read at 26 and refused at 25."""
    text = _aliased(10, 1)
    assert parse_text(text, "body.yaml")["y"] == [[0] * 10]
    assert parse_text(text, "body.yaml", max_nodes=26)["y"] == [[0] * 10]
    with pytest.raises(ScenarioError) as info:
        parse_text(text, "body.yaml", max_nodes=25)
    assert str(info.value) == (
        "body.yaml: line 1, column 1: more than 25 values once its aliases are expanded"
    )


def test_a_yaml_file_nests_at_most_a_hundred_collections_once_its_aliases_are_expanded() -> None:
    """One loader with limits: nesting is measured through aliases too — an alias of a list 60
    deep inside 39 lists of the top mapping is 100 deep and read; inside 40 it is refused."""

    def nested(lists: int) -> str:
        return f"a: &a {'[' * 60}{']' * 60}\nb: {'[' * lists}*a{']' * lists}\n"

    assert parse_text(nested(39), "f.yaml") is not None
    assert _loader_refusal(nested(40), "f.yaml") == (
        "f.yaml: line 1, column 1: nested more than 100 levels deep"
    )


# -- where a refusal says the problem is ---------------------------------------------------------


def test_a_files_refusal_names_the_file_and_the_line_of_a_bad_byte(tmp_path: Path) -> None:
    """One loader with limits: a refusal names the file (a ``.json`` file is read as JSON),
    and a byte that is not UTF-8 by its place and line; a byte-order mark is not content."""
    latin = tmp_path / "latin.yaml"
    latin.write_bytes("a: 1\nb: 2\nname: Zweih\u00e4nder\n".encode("latin-1"))
    with pytest.raises(ScenarioError) as info:
        load_file(latin)
    assert str(info.value) == f"{latin}: not UTF-8 text (byte 22, line 3)"
    record = tmp_path / "record.json"
    record.write_text('{"n": NaN}', encoding="utf-8")
    with pytest.raises(ScenarioError) as info:
        load_file(record)
    assert str(info.value) == f"{record}: NaN is not a JSON number"
    bom = tmp_path / "bom.json"
    bom.write_text('\ufeff{"a": 1}', encoding="utf-8")
    assert load_file(bom) == {"a": 1}


def test_a_yaml_refusal_names_the_line_and_column_of_the_problem() -> None:
    """One loader with limits: bad YAML is refused in one line naming the file (``<text>``
    when none is named), the line and column where the reader found the problem, and the
    problem — in its syntax, its aliases, its documents, its tags and its keys alike; a
    character no YAML may hold, which has no place, is "not valid YAML"."""
    refusals = {
        "a: 1\nb: [1, 2\nc: d": "line 3, column 2: did not find expected ',' or ']'",
        "a: \x07": "not valid YAML",
        "a: *x": "line 1, column 4: found undefined alias",
        "a: 1\n---\nb: 2": "line 2, column 1: but found another document",
        "a: !foo 1": "line 1, column 4: could not determine a constructor for the tag '!foo'",
        "? [a]\n: 1": "line 1, column 3: found unhashable key",
    }
    for text, reason in refusals.items():
        assert _loader_refusal(text, "f.yaml") == f"f.yaml: {reason}", text
    with pytest.raises(ScenarioError) as info:
        parse_text("a: [")
    assert str(info.value) == "<text>: line 2, column 1: did not find expected node content"


def test_a_refused_yaml_value_is_named_by_its_line_and_column() -> None:
    """The one file reader (docs/kernel.md, "Files: one loader with limits"): a hostile value
    is refused in one line naming the file and where the value starts, counted from 1 — here
    line 3, column 8, and a recursive alias where it starts; JSON's reader names no place."""
    with pytest.raises(ScenarioError) as info:
        parse_text("a: 1\nb:\n  c:   " + "9" * 40, "f.yaml")
    assert str(info.value) == "f.yaml: line 3, column 8: an integer of 40 digits (at most 30)"
    with pytest.raises(ScenarioError) as info:
        parse_text("a: 1\nb: &x [1, *x]", "f.yaml")
    assert str(info.value) == "f.yaml: line 2, column 4: an alias refers to itself"
    with pytest.raises(ScenarioError) as info:
        parse_text('{"n": ' + "9" * 40 + "}", "r.json")
    assert str(info.value) == "r.json: an integer of 40 digits (at most 30)"
