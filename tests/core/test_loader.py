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
