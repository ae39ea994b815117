"""The log: game tables, the actions taken, their events, and the seats' token hashes.

Revision ID: 0001
Revises:
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def _table_id() -> sa.Column[str]:
    return sa.Column(
        "table_id",
        sa.String(32),
        sa.ForeignKey("referee_tables.id", ondelete="CASCADE"),
        primary_key=True,
    )


def upgrade() -> None:
    """Create the four tables of the log."""
    op.create_table(
        "referee_tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("system", sa.String(64), nullable=False),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("setup", sa.Text, nullable=False),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column("start", sa.String(8), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("actions", sa.Integer, nullable=False),
        sa.Column("token_salt", sa.LargeBinary, nullable=False),
    )
    op.create_table(
        "referee_actions",
        _table_id(),
        sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("seat", sa.String(64)),
        sa.Column("actor", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(64), nullable=False),
        sa.Column("params", sa.Text, nullable=False),
        sa.Column("at", sa.Integer, nullable=False),
        sa.Column("asked_at", sa.Integer),
        sa.Column("dice", sa.Text, nullable=False),
        sa.Column("first_event", sa.Integer, nullable=False),
        sa.Column("last_event", sa.Integer, nullable=False),
        sa.Column("audience", sa.Text, nullable=False),
    )
    op.create_table(
        "referee_events",
        _table_id(),
        sa.Column("number", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("cause", sa.Integer, nullable=False),
        sa.Column("at", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(64), nullable=False),
        sa.Column("audience", sa.Text, nullable=False),
        sa.Column("payload", sa.Text, nullable=False),
        sa.Column("secrets", sa.Text, nullable=False),
    )
    op.create_table(
        "referee_seats",
        _table_id(),
        sa.Column("seat", sa.String(64), primary_key=True),
        sa.Column("token_hash", sa.LargeBinary),
        sa.Column("minted", sa.DateTime(timezone=True)),
    )


def downgrade() -> None:
    """Drop them (and every table in them)."""
    for name in ("referee_seats", "referee_events", "referee_actions", "referee_tables"):
        op.drop_table(name)
