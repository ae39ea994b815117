"""Estimates with their 95% intervals (:mod:`referee.core.stats`, where the games' own fast
paths find them too)."""

from referee.core.stats import Z95, Estimate, mean, proportion

__all__ = ["Z95", "Estimate", "mean", "proportion"]
