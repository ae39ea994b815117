"""Rules the house rules only name from the parent game's book, with no numbers (issue 13):
Referee refuses them, or records the bare fact and acts on nothing it does not have."""

from __future__ import annotations

import pytest

from referee.core import RuleError

from .helpers import act, last, table


def test_an_expert_devoted_to_a_daemon_is_refused_at_the_end_of_session() -> None:
    """End of session ("see Aspects & Alignment mg"): the different rules are not in the text,
    so the general list is not applied to such a character as if they were."""
    t = table({"cultist": {"corruption": 12, "daemon_expert": True}, "b": {"corruption": 3}})
    with pytest.raises(RuleError, match="cultist follows an expert profession devoted to a daemon"):
        act(t, "referee", "session.end", [2])
    with pytest.raises(RuleError, match="not in the text"):
        act(t, "referee", "session.end", [2], characters=["cultist"])
    t = act(t, "referee", "session.end", [2], characters=["b"])
    assert t.state.character("b").chaos_ranks == 1
    assert t.state.character("cultist").corruption == 12  # left to the GM, untouched
    (end,) = [c for c in t.legal_actions("referee") if c.kind == "session.end"]
    assert end.params["characters"].values == (["b"],)  # type: ignore[attr-defined]


def test_inspiring_words_are_recorded_not_applied() -> None:
    """Morale checks: a Critical Success "benefits from the effects of Inspiring Words", whose
    effects the text does not give: the event says so (``inspired``) and nothing else changes."""
    t = table({"a": {}})
    before = t.state
    t = act(t, "referee", "morale", [11], resolve=45)
    checked = last(t, "morale.checked")
    assert checked["inspired"] is True and checked["test"]["outcome"] == "critical success"
    assert t.state == before
