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

from pydantic import Field

from referee.core import (
    REFEREE,
    Action,
    ActionSpec,
    Between,
    Builder,
    Choice,
    OneOf,
    Params,
    RuleError,
    Who,
)
from referee.core.naming import possessive, title_of
from referee.core.values import evolved
from referee.dice import DiceSource
from referee.systems.zweihander.emit import character_payload
from referee.systems.zweihander.events import STABLE_REWARDED
from referee.systems.zweihander.state import ZweihanderState

__all__ = [
    "STABLE_REWARD",
    "STABLE_SIZE",
    "check_stable",
    "choices",
    "decide_stable",
    "secondary_reward",
    "stable_rewards",
]

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


class StableReward(Params):
    """``stable.reward`` (the GM): the ``player``, the character they ``played`` and its
    ``reward`` in Reward Points."""

    player: str
    played: str
    reward: int = Field(ge=0, le=10_000)


STABLE_REWARD = ActionSpec(
    "stable.reward",
    StableReward,
    section="Character stable",
    who=Who.REFEREE,
    summary="Reward Points for the played character, half for the rest of the stable",
    record="everyone",
)


def decide_stable(b: Builder[ZweihanderState], action: Action, dice: DiceSource) -> None:
    """``stable.reward``: every member's Reward Points in one event."""
    p = STABLE_REWARD.of(action)
    if p.player not in b.state.stables:
        raise RuleError("Character stable", f"no stable for player {p.player!r}")
    rewards = stable_rewards(b.state.stables[p.player], p.played, p.reward)
    changed = [
        evolved(b.state.character(m), reward_points=b.state.character(m).reward_points + r)
        for m, r in rewards.items()
    ]
    payload = {"player": p.player, "rewards": rewards}
    b.emit(STABLE_REWARDED, character_payload(b.state, payload, changed))


def choices(state: ZweihanderState, actor: str) -> list[Choice]:
    """The GM rewards a stable: one choice per player, the played character one of theirs."""
    if actor != REFEREE:
        return []
    return [
        Choice(
            actor,
            STABLE_REWARD.kind,
            {"player": OneOf((player,)), "played": OneOf(members), "reward": Between(0, 30)},
            label=f"Reward Points for {possessive(title_of(player))} stable",
        )
        for player, members in sorted(state.stables.items())
        if members
    ]
