"""Burning Kingdoms: the rules as values and procedures on referee.core (see docs/systems/kingdoms.md)."""
