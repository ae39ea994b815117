"""Snapshots of the folded state every N events, and the write revision of each table.

``revision`` is bumped by every write (the store's compare-and-set); ``last_undo`` is the
revision of the last undo, so a reader knows whether its cached table is still a prefix.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the write revision and the snapshots."""
    with op.batch_alter_table("referee_tables") as batch:
        batch.add_column(
            sa.Column("revision", sa.Integer, nullable=False, server_default=sa.text("0"))
        )
        batch.add_column(
            sa.Column("last_undo", sa.Integer, nullable=False, server_default=sa.text("0"))
        )
    op.create_table(
        "referee_snapshots",
        sa.Column(
            "table_id",
            sa.String(32),
            sa.ForeignKey("referee_tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("version", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("actions", sa.Integer, nullable=False),
        sa.Column("fingerprint", sa.String(64), nullable=False),
        sa.Column("state", sa.LargeBinary, nullable=False),
    )


def downgrade() -> None:
    """Drop the snapshots and the revision columns (the log itself is untouched)."""
    op.drop_table("referee_snapshots")
    with op.batch_alter_table("referee_tables") as batch:
        batch.drop_column("last_undo")
        batch.drop_column("revision")
