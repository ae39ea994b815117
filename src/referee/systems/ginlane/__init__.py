"""Gin Lane: the rules as values and procedures on referee.core (see docs/systems/ginlane.md)."""
