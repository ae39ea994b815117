"""Bring a database to the schema this Referee knows: Alembic, run on first use.

:func:`ensure_schema` costs one query when the database is already at :data:`HEAD` (Alembic is
imported only when there is something to do). Migrating holds a lock (PostgreSQL: an advisory
lock; SQLite: the write lock), so two processes starting at once migrate once.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, Engine, text

from referee.store.engine import is_postgresql, write_transaction
from referee.store.errors import StoreError

__all__ = ["HEAD", "REVISIONS", "VERSION_TABLE", "current_revision", "ensure_schema", "migrate"]

VERSION_TABLE = "referee_alembic_version"
"""Where Alembic keeps the database's revision."""

REVISIONS = ("0001", "0002", "0003")
"""Every revision, oldest first."""

HEAD = REVISIONS[-1]
"""The revision this Referee writes."""

_LOCK_KEY = 0x52454645  # "REFE": the advisory lock PostgreSQL migrations hold


def current_revision(engine: Engine) -> str | None:
    """The database's revision (``None``: an empty database)."""
    with engine.connect() as connection:
        return _revision(connection)


def _revision(connection: Connection) -> str | None:
    if not connection.dialect.has_table(connection, VERSION_TABLE):
        return None
    value = connection.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).scalar()
    return None if value is None else str(value)


def ensure_schema(engine: Engine) -> None:
    """Upgrade the database to :data:`HEAD` if it is not there; refuse one from a newer Referee."""
    revision = current_revision(engine)
    if revision == HEAD:
        return
    if revision is not None and revision not in REVISIONS:
        raise StoreError(
            f"the database is at schema revision {revision!r}, which this Referee does not "
            f"know (it knows up to {HEAD!r}): upgrade Referee"
        )
    migrate(engine, "head")


def migrate(engine: Engine, revision: str, *, down: bool = False) -> None:
    """Upgrade (or with ``down=True`` downgrade) the database to ``revision`` (``"head"``,
    ``"base"`` or one of :data:`REVISIONS`), in one transaction under a lock."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", "referee.store:migrations")
    attributes: dict[str, Any] = config.attributes
    if is_postgresql(engine):
        with write_transaction(engine) as connection:
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _LOCK_KEY})
            attributes["connection"] = connection
            (command.downgrade if down else command.upgrade)(config, revision)
        return
    # SQLite rebuilds a table to alter it (copy, drop, rename): with foreign keys on, the drop
    # would delete every action and event of the table through ON DELETE CASCADE. They are
    # turned off (outside the transaction, as SQLite requires), checked after, and this
    # connection is not reused.
    with engine.connect() as connection:
        raw = connection.connection.dbapi_connection
        assert raw is not None
        raw.execute("PRAGMA foreign_keys=OFF")
        try:
            connection.execution_options(referee_write=True)
            with connection.begin():
                attributes["connection"] = connection
                (command.downgrade if down else command.upgrade)(config, revision)
                broken = connection.exec_driver_sql("PRAGMA foreign_key_check").first()
                if broken is not None:
                    raise StoreError(f"migrating broke a reference: {tuple(broken)}")
        finally:
            connection.invalidate()
