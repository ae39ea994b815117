"""What storing an action costs the database (issue 29): on SQLite every statement of an
action's transaction but its ``BEGIN IMMEDIATE`` goes straight through the driver — the table's
row read, the compare-and-set, the rows — none built by SQLAlchemy; on PostgreSQL the row is
read locked (``FOR UPDATE``). The statements are counted, never timed."""

from __future__ import annotations

from typing import Any

from sqlalchemy import event

from referee.core import Action
from referee.store import open_store


def test_an_action_on_sqlite_builds_one_statement_through_sqlalchemy(sqlite_url: str) -> None:
    with open_store(sqlite_url) as store:
        made = store.create_table("kernel_toy", {}, name="t")
        built: list[str] = []
        sent: list[str] = []

        def counted(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
            built.append(statement)

        def traced(dbapi: Any, _record: Any, _proxy: Any) -> None:
            dbapi.set_trace_callback(sent.append)

        event.listen(store.engine, "before_cursor_execute", counted)
        event.listen(store.engine, "checkout", traced)
        version = made.table.version
        for _ in range(3):
            built.clear()
            sent.clear()
            version = store.act(
                made.id,
                Action("scarface", "rally", {"dice": 2}),
                seat=None,
                expect_version=version,
            ).version
            assert built == ["BEGIN IMMEDIATE"]
            assert [s.split()[0] for s in sent] == [
                "BEGIN",
                "SELECT",  # the table's row
                "UPDATE",  # the compare-and-set
                "INSERT",  # the action
                "INSERT",  # its event
                "COMMIT",
            ], sent
            assert "referee_tables" in sent[1]


def test_the_row_read_before_an_action_is_locked_on_postgresql(postgres_url: str) -> None:
    with open_store(postgres_url) as store:
        made = store.create_table("kernel_toy", {}, name="t")
        built: list[str] = []
        event.listen(
            store.engine,
            "before_cursor_execute",
            lambda conn, cursor, statement, *args: built.append(statement),
        )
        store.act(
            made.id,
            Action("scarface", "rally", {"dice": 2}),
            seat=None,
            expect_version=made.table.version,
        )
        reads = [s for s in built if "FROM referee_tables" in s]
        assert len(reads) == 1 and reads[0].rstrip().endswith("FOR UPDATE"), built
