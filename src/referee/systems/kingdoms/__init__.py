"""Burning Kingdoms: the rules as values and procedures on referee.core.

See docs/systems/kingdoms.md.
"""
