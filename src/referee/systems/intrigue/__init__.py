"""Intrigue in the Clouds: the rules as values and procedures on referee.core (see docs/systems/intrigue.md)."""
