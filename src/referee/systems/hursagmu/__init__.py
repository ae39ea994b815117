"""Hursagmu's encounter rules: the rules as values and procedures on referee.core (see docs/systems/hursagmu.md)."""
