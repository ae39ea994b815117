"""Alembic migrations of the store, shipped in the package and applied on first use.

Revisions (``versions/``): ``0001`` the log (tables, actions, events, seats); ``0002``
snapshots, and the write revision the store compares and sets; ``0003`` each table's secret
dice seeds.
"""
