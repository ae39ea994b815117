"""``referee.store``: every table's log in a database — SQLite by default, PostgreSQL for many
tables and processes (DESIGN.md, "referee.store"; docs/store.md).

>>> import tempfile, os
>>> import tests.core.toy_procedure
>>> from referee.core import Action
>>> folder = tempfile.mkdtemp()
>>> store = open_store(f"sqlite:///{folder}/tables.sqlite3")
>>> created = store.create_table("kernel_toy", {}, name="Winter war")
>>> sorted(created.tokens)
['krockin', 'referee', 'scarface']
>>> table = store.act(created.id, Action("scarface", "note", {"text": "hm"}), seat="scarface",
...                   expect_version=created.table.version)
>>> store.version(created.id), store.load(created.id) == table
(3, True)
>>> store.seat_for_token(created.id, created.tokens["scarface"])
'scarface'
>>> store.act(created.id, Action("scarface", "note", {}), seat="scarface", expect_version=2)
Traceback (most recent call last):
...
referee.core.errors.StaleTableError: stale table: you read version 2, but the table is at ...
>>> store.close()
"""

from referee.store.engine import DATABASE_ENV, database_url, default_sqlite_path
from referee.store.errors import NoSuchTable, StoreError
from referee.store.store import (
    NOTIFY_CHANNEL,
    CreatedTable,
    Store,
    TableInfo,
    open_store,
)
from referee.store.tokens import join_link

__all__ = [
    "DATABASE_ENV",
    "NOTIFY_CHANNEL",
    "CreatedTable",
    "NoSuchTable",
    "Store",
    "StoreError",
    "TableInfo",
    "database_url",
    "default_sqlite_path",
    "join_link",
    "open_store",
]
