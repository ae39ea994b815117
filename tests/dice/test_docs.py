"""docs/dice.md cannot drift: every example in it is rerun here and must match exactly.

The document has three machine-readable kinds of example:

* table rows whose first cell is a command `` `referee roll 'EXPR' --seed N` `` (or
  `` `referee roll --seed N -- 'EXPR'` ``): the second cell is the plain output of that roll,
  the third the summary of its exact odds (see :func:`summary`);
* ``console`` blocks: ``$ referee ...`` lines are run through the command line (Typer's
  runner), the lines after one are its output (standard output and error), and ``$ echo $?``
  checks the previous command's exit status;
* ``python`` blocks, which are doctests.
"""

from __future__ import annotations

import doctest
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli import app
from referee.dice import RandomSource, roll
from referee.dice.probability import Odds, odds

DOC = Path(__file__).resolve().parents[2] / "docs" / "dice.md"
TEXT = DOC.read_text("utf-8")

runner = CliRunner()

_COMMAND = re.compile(
    r"^`referee roll (?:--seed (?P<seed_first>\d+) -- )?'(?P<expr>[^']*)'"
    r"(?: --seed (?P<seed_last>\d+))?`$"
)


@dataclass(frozen=True)
class Row:
    """One documented example from a table."""

    line: int
    expression: str
    seed: int
    output: str
    odds: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.expression}"


def table_rows(text: str) -> list[Row]:
    """Every table row of the document whose first cell is a ``referee roll`` command."""
    rows = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.startswith("| `referee roll"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        match = _COMMAND.match(cells[0])
        assert match, f"line {number}: cannot read the command {cells[0]!r}"
        assert len(cells) >= 3, f"line {number}: a row needs command, output and odds"
        output = cells[1]
        assert output.startswith("`") and output.endswith("`"), f"line {number}: {output!r}"
        seed = match["seed_first"] or match["seed_last"]
        assert seed is not None, f"line {number}: the command needs --seed"
        rows.append(Row(number, match["expr"], int(seed), output[1:-1], cells[2]))
    return rows


def summary(result: Odds) -> str:
    """The documented summary of exact odds: ``P(true) …`` for a comparison of totals,
    ``mean …`` otherwise (rounded only when an explosion was truncated)."""
    if result.distribution and all(type(o) is bool for o in result.distribution):
        p = result.probability(True)
        text = f"P(true) {p} ≈ {float(p) * 100:.2f}%"
    elif result.truncated:
        text = f"mean ≈ {float(result.mean):.6f}"
    else:
        text = f"mean {result.mean} ≈ {float(result.mean):.4f}"
    if result.truncated:
        text += f"; truncated ≈ {float(result.truncated):.1e}"
    return text


@dataclass(frozen=True)
class Command:
    """One ``$ referee ...`` line of a console block, the output shown after it, and the exit
    status shown by a following ``$ echo $?`` (None when not shown)."""

    line: int
    argv: tuple[str, ...]
    output: tuple[str, ...]
    status: int | None

    def __str__(self) -> str:
        return f"line {self.line}: {shlex.join(self.argv)}"


_PYTHON_ARG = re.compile(r"""\$\(python3 -c "print\((?P<code>[^"]*)\)"\)""")


def _argv(command: str) -> tuple[str, ...]:
    """Split a shell command line; ``"$(python3 -c "print(EXPR)")"`` becomes EXPR's value."""
    match = _PYTHON_ARG.search(command)
    if match:
        value = eval(match["code"], {"__builtins__": {}})  # the document's own expression
        command = command[: match.start() - 1] + shlex.quote(value) + command[match.end() + 1 :]
    return tuple(shlex.split(command))


def blocks(text: str, language: str) -> list[tuple[int, list[str]]]:
    """The fenced blocks of ``language``: (line of the first content line, lines)."""
    found = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        if lines[i].strip() == f"```{language}":
            start = i + 1
            end = start
            while lines[end].strip() != "```":
                end += 1
            found.append((start + 1, lines[start:end]))
            i = end
        i += 1
    return found


def console_commands(text: str) -> list[Command]:
    """Every ``$ referee`` command of the document's console blocks."""
    commands: list[Command] = []
    for first, lines in blocks(text, "console"):
        i = 0
        while i < len(lines):
            line = lines[i]
            assert line.startswith("$ referee "), f"line {first + i}: {line!r} is not a command"
            j = i + 1
            while j < len(lines) and not lines[j].startswith("$ "):
                j += 1
            status = None
            k = j
            if j < len(lines) and lines[j] == "$ echo $?":
                status = int(lines[j + 1])
                k = j + 2
            argv = _argv(line[2:])[1:]
            commands.append(Command(first + i, argv, tuple(lines[i + 1 : j]), status))
            i = k
    return commands


ROWS = table_rows(TEXT)
COMMANDS = console_commands(TEXT)


def test_the_document_has_its_examples() -> None:
    # A parser that silently read nothing would pass every test below.
    assert len(ROWS) >= 80
    assert len(COMMANDS) >= 25
    assert len(blocks(TEXT, "python")) >= 2
    sections = re.findall(r"^## (.+)$", TEXT, flags=re.M)
    for form in (
        "Numbers and dice",
        "Keep and drop",
        "Rerolls",
        "Explosions",
        "Minimum and maximum (`mi` and `ma`)",
        "Sets",
        "Arithmetic",
        "Comparisons (of totals)",
        "Success counting",
        "Success counting vs comparing the total",
        "Functions",
        "Annotations",
    ):
        assert form in sections
        body = TEXT.split(f"## {form}\n", 1)[1].split("\n## ", 1)[0]
        assert len(table_rows(body)) >= 1, f"section {form!r} has no example"


@pytest.mark.parametrize("row", ROWS, ids=str)
def test_documented_roll(row: Row) -> None:
    assert roll(row.expression, RandomSource(row.seed)).describe() == row.output


@pytest.mark.parametrize("row", ROWS, ids=str)
def test_documented_odds(row: Row) -> None:
    assert summary(odds(row.expression)) == row.odds


@pytest.mark.parametrize("row", ROWS, ids=str)
def test_documented_command_prints_the_output(row: Row) -> None:
    result = runner.invoke(app, ["roll", "--seed", str(row.seed), "--", row.expression])
    assert result.exit_code == 0, result.output
    assert result.stdout == row.output + "\n"


@pytest.mark.parametrize("command", COMMANDS, ids=str)
def test_documented_console_session(command: Command) -> None:
    result = runner.invoke(app, list(command.argv))
    shown = [line.rstrip() for line in result.output.rstrip("\n").splitlines()]
    assert shown == list(command.output)
    if command.status is not None:
        assert result.exit_code == command.status
    elif any(line.startswith("referee: error: ") for line in command.output):
        assert result.exit_code == 2
    else:
        assert result.exit_code == 0


def test_documented_side_by_side_pairs() -> None:
    # The table the brief asks for compares these forms pairwise; they must all be in it.
    body = TEXT.split("## Success counting vs comparing the total\n", 1)[1].split("\n## ")[0]
    written = {row.expression for row in table_rows(body)}
    assert {
        "8d6>=4",
        "(8d6)>=4",
        "6d6!>=4",
        "6d6!+0>=4",
        "3d6>=12",
        "(3d6)>=12",
    } <= written


@pytest.mark.parametrize("block", blocks(TEXT, "python"), ids=lambda b: f"line {b[0]}")
def test_documented_python(block: tuple[int, list[str]]) -> None:
    first, lines = block
    parser = doctest.DocTestParser()
    test = parser.get_doctest("\n".join(lines) + "\n", {}, "docs/dice.md", str(DOC), first)
    runner_ = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner_.run(test)
    outcome = runner_.summarize(verbose=False)
    assert outcome.failed == 0, f"a doctest at line {first} of docs/dice.md failed"
