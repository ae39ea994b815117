"""``referee table`` against the database, on SQLite and PostgreSQL: a table made with its
seats' tokens, played, undone, exported and imported, its tokens minted and revoked; bad input,
a corrupt file and a wrong URL are one line, exit 2, nothing written."""

from __future__ import annotations

import json
import re
from pathlib import Path

import typer
from typer.testing import CliRunner

from referee.cli.table import register
from referee.store import open_store
from tests.databases import drop_postgres, fresh_postgres

TOY = Path(__file__).resolve().parents[1] / "core" / "scenarios" / "toy.yaml"

app = typer.Typer()
register(app)
runner = CliRunner()


def run(url: str, *args: str | Path) -> tuple[int, str, str]:
    result = runner.invoke(app, ["table", "--database", url, *map(str, args)])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def new(url: str) -> tuple[str, dict[str, str]]:
    code, out, err = run(url, "new", "kernel_toy", TOY, "--name", "Winter war")
    assert code == 0, err
    table_id = re.search(r"in the database: (\w+)", out)
    assert table_id is not None, out
    tokens = dict(re.findall(r"seat (\w+)[^\n]*\n    token (\S+)", out))
    return table_id.group(1), tokens


def test_new_stores_the_table_and_prints_each_seats_token(url: str) -> None:
    table_id, tokens = new(url)
    assert set(tokens) == {"referee", "alice", "krockin"}
    store = open_store(url)
    for seat, token in tokens.items():
        assert store.seat_for_token(table_id, token) == seat
    assert store.load(table_id).start_time == "19:00"
    code, out, _ = run(url, "list")
    assert code == 0 and table_id in out and "Winter war" in out and "kernel_toy" in out
    code, out, _ = run(url, "list", "--json")
    assert json.loads(out)[0]["id"] == table_id


def test_a_stored_table_is_played_undone_and_shown_per_seat(url: str) -> None:
    table_id, _ = new(url)
    code, out, _ = run(url, "actions", table_id, "--as", "alice")
    assert code == 0 and "scarface: perceive" in out
    code, out, err = run(
        url, "act", table_id, "perceive", "target=krockin", "--as", "alice", "--seed", "3"
    )
    assert code == 0, err
    assert "perception.made" in out and "(version 4)" in out
    code, out, _ = run(url, "act", table_id, "note", "text=psst", "--as", "krockin")
    assert code == 0 and "(version 5)" in out
    code, out, _ = run(url, "log", table_id, "--as", "krockin")
    assert code == 0 and "Krockin's secret" not in out and "Krockin is a Guild spy" not in out
    code, out, _ = run(url, "show", table_id, "--as", "alice", "--json")
    assert json.loads(out)["version"] == 5
    code, out, _ = run(url, "undo", table_id)
    assert code == 0 and "undone: action 2 (note by krockin); version 4" in out
    assert open_store(url).version(table_id) == 4


def test_export_and_import_move_a_table(url: str, tmp_path: Path) -> None:
    table_id, _ = new(url)
    run(url, "act", table_id, "attack", "target=krockin", "--as", "alice", "--seed", "1")
    code, out, _ = run(url, "export", table_id)
    assert code == 0
    record = json.loads(out)
    assert record == open_store(url).export(table_id)
    saved = tmp_path / "t.json"
    saved.write_text(out, "utf-8")
    code, out, err = run(url, "import", saved, "--name", "again")
    assert code == 0, err
    copy = re.search(r"as (\w+) \(kernel_toy, version", out)
    assert copy is not None and "token" in out
    assert open_store(url).export(copy.group(1)) == record
    # the same file, played as a record file: a FILE argument still works
    code, out, _ = run(url, "show", saved, "--as", "alice", "--json")
    assert code == 0 and json.loads(out)["version"] == record["version"]
    # a forged record is refused, and nothing is stored
    rolled = next(e for e in record["events"] if e["kind"] == "attack.rolled")
    rolled["payload"]["faces"][0] = 7 - rolled["payload"]["faces"][0]
    saved.write_text(json.dumps(record), "utf-8")
    code, _, err = run(url, "import", saved)
    assert code == 2 and "is not what action 1 (attack) produces" in err and err.count("\n") == 1
    assert len(open_store(url).tables()) == 2


def test_seat_tokens_are_minted_and_revoked(url: str) -> None:
    table_id, tokens = new(url)
    code, out, _ = run(url, "seats", table_id, "--mint", "alice")
    assert code == 0
    fresh = re.search(r"token (\S+)", out)
    assert fresh is not None and "join  http" in out
    store = open_store(url)
    assert store.seat_for_token(table_id, fresh.group(1)) == "alice"
    assert store.seat_for_token(table_id, tokens["alice"]) is None
    code, out, _ = run(url, "seats", table_id, "--revoke", "krockin")
    assert code == 0 and "revoked" in out
    code, out, _ = run(url, "seats", table_id)
    assert (
        "seat krockin plays krockin: no token" in out
        and "seat alice plays scarface: token live" in out
    )
    code, _, err = run(url, "seats", table_id, "--mint", "mallory")
    assert code == 2 and "no seat 'mallory'" in err and err.count("\n") == 1


def test_bad_input_against_the_database_is_one_line_and_writes_nothing(url: str) -> None:
    table_id, _ = new(url)
    store = open_store(url)
    before = store.export(table_id)
    cases = [
        (("show", "nosuchtable", "--as", "alice"), "no table 'nosuchtable'"),
        (("act", table_id, "attack", "taget=krockin", "--as", "alice"), "did you mean 'target'"),
        (("act", table_id, "attack", "target=scarface", "--as", "alice"), "no other character"),
        (("act", table_id, "dance", "--as", "alice"), "no such action"),
        (("show", table_id, "--as", "mallory"), "no seat 'mallory'"),
        (("undo", table_id, "--as", "alice"), "only the referee"),
        (("new", "kernel_toy", TOY, "--out", "x.json", "--name", "n"), "--name"),
    ]
    for args, words in cases:
        code, _, err = run(url, *args)
        assert code == 2, args
        assert words in err and err.count("\n") == 1, (args, err)
    assert store.export(table_id) == before


def test_a_corrupt_file_or_a_wrong_url_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "tables.sqlite3"
    garbage = b"not a database at all\n" * 100
    path.write_bytes(garbage)
    for url, words in [
        (f"sqlite:///{path}", "corrupt"),
        ("postgresql://postgres@127.0.0.1:1/test", "cannot reach the database"),
        ("nonsense", "is not a URL"),
        (f"sqlite:///{tmp_path}/missing/t.sqlite3", "no folder"),
    ]:
        for args in (("list",), ("show", "abc", "--as", "referee"), ("new", "kernel_toy", TOY)):
            code, _, err = run(url, *args)
            assert code == 2 and words in err and err.count("\n") == 1, (url, args, err)
    assert path.read_bytes() == garbage
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tables.sqlite3"]


def test_a_database_gone_is_one_line(postgres_admin: str) -> None:
    url, name = fresh_postgres(postgres_admin)
    table_id, _ = new(url)
    drop_postgres(postgres_admin, name)
    code, _, err = run(url, "show", table_id, "--as", "alice")
    assert code == 2 and "does not exist" in err and err.count("\n") == 1
