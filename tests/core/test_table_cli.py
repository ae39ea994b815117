"""``referee table`` end to end over a record file: one step at a time, bad input refused in one
line with nothing written, and racing writers that never lose or double an action."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import typer
from typer.testing import CliRunner

from referee.cli.table import register
from referee.core import Table

from .toy_procedure import PROCEDURE

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
TOY = HERE / "scenarios" / "toy.yaml"

app = typer.Typer()
register(app)
runner = CliRunner()


def run(*args: str | Path) -> tuple[int, str, str]:
    result = runner.invoke(app, ["table", *map(str, args)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def new(tmp_path: Path) -> Path:
    record = tmp_path / "evening.json"
    code, _, err = run("new", "kernel_toy", TOY, "--out", record)
    assert code == 0, err
    return record


def test_new_takes_a_scenarios_setup_and_players_and_prints_the_seats(tmp_path: Path) -> None:
    record = tmp_path / "evening.json"
    code, out, _ = run("new", "kernel_toy", TOY, "--out", record)
    assert code == 0
    assert "seat referee" in out and "seat alice plays scarface" in out
    table = Table.from_record(json.loads(record.read_text("utf-8")), PROCEDURE)
    assert table.version == 2  # the dice commitment, then the alarm and table.start_time == "19:00"
    code, _, err = run("new", "kernel_toy", TOY, "--out", record)
    assert code == 2 and "exists already" in err and err.count("\n") == 1


def test_a_seat_plays_step_by_step_and_sees_only_its_own(tmp_path: Path) -> None:
    record = new(tmp_path)
    code, out, _ = run("actions", record, "--as", "alice")
    assert code == 0
    assert "scarface: perceive  (Toy: perception)" in out
    assert 'target = "krockin"' in out
    assert "odds: scarface attacks krockin: 2d6+2 vs 2d6+1" in out
    code, out, err = run(
        "act", record, "perceive", "target=krockin", "--as", "alice", "--seed", "3"
    )
    assert code == 0, err
    assert "perception.made" in out and "(version 4)" in out
    code, out, _ = run("log", record, "--as", "krockin")
    assert code == 0
    assert "Krockin's secret" not in out  # the envelope goes to the perceiver alone
    code, out, _ = run("show", record, "--as", "alice", "--json")
    assert json.loads(out)["viewer"] == "alice"


def test_showing_needs_a_seat_of_the_table(tmp_path: Path) -> None:
    record = new(tmp_path)
    code, _, err = run("show", record)
    assert code == 2 and "--as" in err
    code, _, err = run("show", record, "--as", "mallory")
    assert code == 2 and "no seat 'mallory'" in err and err.count("\n") == 1


def test_bad_input_is_one_line_and_writes_nothing(tmp_path: Path) -> None:
    record = new(tmp_path)
    before = record.read_bytes()
    cases = [
        (("act", record, "attack", "taget=krockin", "--as", "alice"), "did you mean 'target'"),
        (("act", record, "rally", "dice=many", "--as", "alice"), "rally.dice: Input should be"),
        (
            ("act", record, "attack", "target=krockin", "--as", "krockin", "--actor", "scarface"),
            "does not play 'scarface'",
        ),
        (("act", record, "attack", "target=scarface", "--as", "alice"), "no other character"),
        (("act", record, "attack", "krockin", "--as", "alice"), "NAME=VALUE"),
        (("act", record, "dance", "--as", "alice"), "no such action"),
        (("act", record, "note", "--as", "alice", "--at", "25:00"), "25:00"),
        (("undo", record, "--as", "alice"), "only the referee"),
    ]
    for args, words in cases:
        code, _, err = run(*args)
        assert code == 2, args
        assert words in err and err.count("\n") == 1, (args, err)
        assert record.read_bytes() == before, args


def test_a_tampered_or_hostile_record_is_refused(tmp_path: Path) -> None:
    record = new(tmp_path)
    run("act", record, "attack", "target=krockin", "--as", "alice", "--seed", "1")
    data = json.loads(record.read_text("utf-8"))
    rolled = next(e for e in data["events"] if e["kind"] == "attack.rolled")
    rolled["payload"]["faces"][0] = 7 - rolled["payload"]["faces"][0]
    record.write_text(json.dumps(data), "utf-8")
    code, _, err = run("show", record, "--as", "alice")
    assert code == 2 and "is not what action 1 (attack) produces" in err
    record.write_bytes(b"\xff\xfe{}")
    code, _, err = run("show", record, "--as", "alice")
    assert code == 2 and "not UTF-8" in err
    record.write_text('{"format": "referee.table/1", "system": "os.path"}', "utf-8")
    code, _, err = run("show", record, "--as", "alice")
    assert code == 2 and "no game system 'os.path'" in err


def test_undo_takes_back_the_last_action(tmp_path: Path) -> None:
    record = new(tmp_path)
    start = record.read_bytes()
    run("act", record, "note", "text=hello", "--as", "alice")
    code, out, _ = run("undo", record)
    assert code == 0 and "undone: action 1 (note by scarface)" in out
    assert json.loads(record.read_bytes()) == json.loads(start)


WORKER = """
import sys
sys.path.insert(0, {root!r})
import tests.core.toy_procedure
from pathlib import Path
from referee.cli.table import read_table, write_table
from referee.core import Action
path = Path({path!r})
done = 0
retries = 0
while done < {count}:
    table = read_table(path)
    after = table.act(Action("scarface", "note", {{"text": "w{worker}-" + str(done)}}), None)
    try:
        write_table(path, after, read_version=table.version)
    except SystemExit:
        retries += 1
        continue
    print("w{worker}-" + str(done), flush=True)
    done += 1
"""


def test_racing_writers_never_lose_or_double_an_action(tmp_path: Path) -> None:
    record = new(tmp_path)
    workers, count = 4, 15
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-c",
                WORKER.format(root=str(ROOT), path=str(record), count=count, worker=w),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        for w in range(workers)
    ]
    acknowledged: list[str] = []
    for proc in procs:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == 0, err
        acknowledged += out.split()
    table = Table.from_record(json.loads(record.read_text("utf-8")), PROCEDURE)
    written = [str(r.params["text"]) for r in table.actions]
    assert sorted(written) == sorted(acknowledged)  # each once: none lost, none doubled
    assert len(written) == workers * count
    assert not list(tmp_path.glob(".*.tmp"))


def test_an_existing_file_is_a_record_file_whatever_the_database(tmp_path: Path) -> None:
    from referee.cli.table import DATABASE_ENV
    from referee.store import DATABASE_ENV as STORE_DATABASE_ENV

    assert DATABASE_ENV == STORE_DATABASE_ENV
    record = new(tmp_path)
    nowhere = f"sqlite:///{tmp_path}/no/such/folder/t.sqlite3"  # never opened for a file
    result = runner.invoke(
        app, ["table", "--database", nowhere, "act", str(record), "note", "--as", "alice"]
    )
    assert result.exit_code == 0, result.stderr
    assert json.loads(record.read_text("utf-8"))["version"] == 3
    result = runner.invoke(app, ["table", "--database", nowhere, "show", "nosuch", "--as", "a"])
    assert result.exit_code == 2 and "no folder" in result.stderr


def test_a_file_tables_dice_are_committed_revealed_and_verified(tmp_path: Path) -> None:
    from referee.cli.verify import register as register_verify

    verify_app = typer.Typer()
    register_verify(verify_app)
    record = new(tmp_path)
    seeds = record.with_name(record.name + ".seeds")
    assert seeds.exists() and (seeds.stat().st_mode & 0o077) == 0  # the owner's alone
    secret = json.loads(seeds.read_text("utf-8"))["seeds"][0]
    run("act", record, "attack", "target=krockin", "--as", "alice")
    run("act", record, "rally", "dice=3", "--as", "alice")
    assert secret not in record.read_text("utf-8")
    result = runner.invoke(verify_app, ["verify", str(record)])
    assert result.exit_code == 0 and "2 actions of a seed not yet revealed" in result.stdout
    code, _, err = run("act", record, "reveal_dice", "--as", "referee")
    assert code == 0, err
    assert secret in record.read_text("utf-8")  # revealed, and a new seed committed
    assert json.loads(seeds.read_text("utf-8"))["seeds"][0] == secret
    result = runner.invoke(verify_app, ["verify", str(record)])
    assert result.exit_code == 0, result.stdout
    assert "2 actions (" in result.stdout and "0 mismatched" in result.stdout
