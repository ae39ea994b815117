"""Alembic's environment: run on the connection (and in the transaction) the store hands in."""

from __future__ import annotations

from alembic import context

from referee.store.migrate import VERSION_TABLE


def run() -> None:
    """Run the migrations Alembic asked for on the store's connection."""
    connection = context.config.attributes["connection"]
    context.configure(
        connection=connection,
        target_metadata=None,
        version_table=VERSION_TABLE,
        transactional_ddl=True,
        render_as_batch=True,
    )
    with context.begin_transaction():
        context.run_migrations()


try:
    context.config  # noqa: B018 - set only while Alembic runs this file
except (AttributeError, NameError):  # imported on its own (a doctest run): nothing to migrate
    pass
else:
    run()
