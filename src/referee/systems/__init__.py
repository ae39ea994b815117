"""One package per game, pure rules on :mod:`referee.core`. No game imports another."""
