"""Optional advancement: the character stable (house rules, "Character stable").

Players each create 3 characters and may change character before each session. Each secondary
character of the player's stable earns half the Reward Points (RP) the played one has gained;
half rounds up (RULINGS.md, "Everywhere").

>>> secondary_reward(25)
13
>>> stable_rewards(["anna", "bert", "cora"], played="bert", reward=10)
{'anna': 5, 'bert': 10, 'cora': 5}
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.core import RuleError

__all__ = ["STABLE_SIZE", "check_stable", "secondary_reward", "stable_rewards"]

STABLE_SIZE = 3
"""Players create each 3 characters."""


def secondary_reward(reward: int) -> int:
    """Half the played character's RP, rounded up."""
    if reward < 0:
        raise RuleError("Character stable", f"a reward cannot be negative ({reward})")
    return (reward + 1) // 2


def check_stable(characters: Sequence[str]) -> None:
    """Refuse a stable of more than 3 characters, or with one named twice."""
    if len(characters) > STABLE_SIZE or len(set(characters)) != len(characters):
        raise RuleError(
            "Character stable",
            f"a stable is up to {STABLE_SIZE} different characters: {list(characters)}",
        )


def stable_rewards(characters: Sequence[str], played: str, reward: int) -> dict[str, int]:
    """RP each character of a stable earns when ``played`` earned ``reward``."""
    check_stable(characters)
    if played not in characters:
        raise RuleError("Character stable", f"{played!r} is not in the stable {list(characters)}")
    return {c: reward if c == played else secondary_reward(reward) for c in characters}
