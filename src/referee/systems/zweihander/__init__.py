"""Zweihänder house rules: the rules as values and procedures on referee.core (see docs/systems/zweihander.md)."""
