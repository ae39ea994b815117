"""The odds of a Zweihänder action with its parameters as given (``odds_of``, through
``preview``): the very test the rule rolls, different for different parameters, none for what
the rules refuse, and never the GM's secret Skills for a player."""

from __future__ import annotations

from typing import Any

from referee.core import Action, Table, Viewer
from referee.core.cards import odds_of as card_odds
from referee.core.table import preview
from referee.dice import ScriptedSource
from referee.systems.zweihander import PROCEDURE
from referee.systems.zweihander.percentile import SkillTest

SETUP = {
    "characters": {
        "anna": {
            "skills": {"Charm": 50, "Guile": 40},
            "order_ranks": 3,
            "chaos_ranks": 1,
            "social_class": "burgher",
            "reputation": 1,
        },
        "bert": {"skills": {"Intimidate": 45}, "chaos_ranks": 2, "social_class": "peasant"},
    }
}
PLAYERS = {"alice": ["anna"], "bob": ["bert"]}


def table() -> Table[Any]:
    return Table.start(PROCEDURE, SETUP, system="zweihander", players=PLAYERS)


def exchange(favourable: str, unfavourable: str) -> Table[Any]:
    params = {
        "npc": "Magistrate Vollmer",
        "disposition": "Unfriendly",
        "npc_alignment": "order",
        "npc_class": "burgher",
        "participants": ["anna", "bert"],
        "favourable": favourable,
        "unfavourable": unfavourable,
    }
    return table().act(Action("referee", "exchange.start", params), ScriptedSource([]))


def odds(t: Table[Any], seat: str, actor: str, kind: str, **params: Any) -> dict[str, str]:
    shown = preview(t, seat, Action(actor, kind, params))
    assert len(shown) == 1, shown
    return dict(shown[0].odds)


def test_a_skill_test_shows_the_odds_of_the_test_it_rolls() -> None:
    t = table()
    assert odds(t, "alice", "anna", "test", skill="Charm", difficulty="Hard") == card_odds(
        SkillTest(50, -20).odds()
    )
    assert odds(t, "alice", "anna", "test", skill="Charm", assist=True) == card_odds(
        SkillTest(50, assist=True).odds()
    )
    # criticals are odds of their own
    assert "critical success" in odds(t, "alice", "anna", "test", skill="Charm")


def test_other_parameters_other_odds() -> None:
    t = table()
    standard = odds(t, "alice", "anna", "test", skill="Charm")
    assert standard != odds(t, "alice", "anna", "test", skill="Charm", difficulty="Hard")
    assert standard != odds(t, "alice", "anna", "test", skill="Charm", assist=True)
    assert standard != odds(t, "alice", "anna", "test", skill="Guile")


def test_what_the_rules_refuse_has_no_odds() -> None:
    t = table()
    assert preview(t, "alice", Action("anna", "test", {"skill": "Stealth"})) == ()
    # no exchange under way
    assert preview(t, "alice", Action("anna", "exchange.tactic", {"tactic": "Charm"})) == ()
    t = exchange("Charm", "Guile")
    bert = Action("bert", "exchange.tactic", {"tactic": "Intimidate"})
    assert preview(t, "bob", bert) != ()
    # a participant tests once
    assert preview(t.act(bert, ScriptedSource([10])), "bob", bert) == ()
    # a Reputation Point burnt must be there to burn
    poor = Table.start(
        PROCEDURE,
        {"characters": {"anna": {**SETUP["characters"]["anna"], "reputation": 0}}},
        system="zweihander",
        players={"alice": ["anna"]},
    ).act(
        Action(
            "referee",
            "exchange.start",
            {
                "npc": "V",
                "disposition": "Polite",
                "npc_alignment": "order",
                "participants": ["anna"],
                "favourable": "Charm",
                "unfavourable": "Guile",
            },
        ),
        ScriptedSource([]),
    )
    burn = Action("anna", "exchange.tactic", {"tactic": "Charm", "burn_reputation": True})
    assert preview(poor, "alice", burn) == ()


def test_a_player_never_sees_the_gms_secret_skills_in_the_odds() -> None:
    charm = {"tactic": "Charm"}
    favoured, neutral = exchange("Charm", "Intimidate"), exchange("Guile", "Intimidate")
    shown = odds(favoured, "alice", "anna", "exchange.tactic", **charm)
    # the odds of the Test as rolled, whatever the GM chose
    assert shown == odds(neutral, "alice", "anna", "exchange.tactic", **charm)
    assert shown == card_odds(SkillTest(50, 20).odds())
    label = preview(favoured, "alice", Action("anna", "exchange.tactic", charm))[0].label
    assert "Favourable" not in label
    # the GM sees the outcome as it will be read: his Favourable Skill makes every success
    # critical
    gm = odds(favoured, "referee", "anna", "exchange.tactic", **charm)
    assert gm == card_odds(SkillTest(50, 20, favourable=True).odds()) != shown
    assert gm["success"] == "0"
    assert odds(neutral, "referee", "anna", "exchange.tactic", **charm) == shown
    # and the procedure answers a stranger as it answers a player
    action = Action("anna", "exchange.tactic", charm)
    assert PROCEDURE.odds_of(favoured.state, action, Viewer("stranger")) == PROCEDURE.odds_of(
        neutral.state, action, Viewer("stranger")
    )


def test_a_simple_exchange_follows_the_npcs_alignment() -> None:
    t = table()
    order = odds(
        t,
        "alice",
        "anna",
        "social.simple",
        skill="Charm",
        npc_alignment="order",
        npc_class="burgher",
    )
    chaos = odds(
        t,
        "alice",
        "anna",
        "social.simple",
        skill="Charm",
        npc_alignment="chaos",
        npc_class="burgher",
    )
    assert order == card_odds(SkillTest(50, 20).odds())
    assert order != chaos


def test_the_gm_previews_an_unfavourable_tactic_with_its_bump() -> None:
    """Social Tactics: the GM's Unfavourable Skill turns the Test's failures critical; the GM's
    preview shows the odds as they will be read and names the bump; a player's does not."""
    t = exchange("Guile", "Charm")
    gm = preview(t, "referee", Action("anna", "exchange.tactic", {"tactic": "Charm"}))
    assert [(p.label, p.rule) for p in gm] == [
        ("Anna uses Charm (your Unfavourable Skill)", "Complex Exchange")
    ]
    assert dict(gm[0].odds) == card_odds(SkillTest(50, 20, unfavourable=True).odds())
    theirs = preview(t, "alice", Action("anna", "exchange.tactic", {"tactic": "Charm"}))
    assert [(p.label, p.rule) for p in theirs] == [("Anna uses Charm", "Complex Exchange")]
    fav = preview(
        exchange("Charm", "Guile"),
        "referee",
        Action("anna", "exchange.tactic", {"tactic": "Charm"}),
    )
    assert fav[0].label == "Anna uses Charm (your Favourable Skill)"


def test_a_simple_exchange_and_a_skill_test_preview_name_their_rule() -> None:
    """Simple Exchange and Skill Tests: the preview names the roller, the Skill and the rule."""
    t = table()
    simple = preview(
        t, "alice", Action("anna", "social.simple", {"skill": "Charm", "npc_alignment": "order"})
    )
    assert [(p.label, p.rule) for p in simple] == [("Anna tests Charm", "Simple Exchange")]
    chance = preview(t, "alice", Action("anna", "test", {"chance": 40}))
    assert [(p.label, p.rule) for p in chance] == [("Anna tests a chance", "Skill Test")]
