"""Each table's secret dice seeds (``referee.core.fairness``): the faces of its actions are
derived from them, and only their commitment is in the log.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the seeds (``NULL``: a table whose dice were not committed, e.g. an imported one)."""
    with op.batch_alter_table("referee_tables") as batch:
        batch.add_column(sa.Column("dice_seeds", sa.Text, nullable=True))


def downgrade() -> None:
    """Drop the seeds (the tables' later dice then come from the random source)."""
    with op.batch_alter_table("referee_tables") as batch:
        batch.drop_column("dice_seeds")
