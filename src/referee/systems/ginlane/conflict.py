"""The rules of a fight as pure functions (Gin Lane, "Fighting").

Zones and reach ("Zones"), defences ("Defence"), attack stress, the Match and spin ("Resolving
attacks", "Spin", RULINGS.md), damage bonuses and range ("Weapons Notes", "Range"), grenades
("Grenades", "Fizzle"), Sprint ("Action: Sprint", "Difficult terrain"). The procedure in
:mod:`referee.systems.ginlane.procedure` plays them.

>>> attack_stress(attack=10, defence=8, bonus=2), attack_stress(9, 9, 2), attack_stress(9, 9, 0)
(4, 2, 0)
>>> is_spin(attack=6, defence=10), can_defend("Firearms", "Firearms")
(True, False)
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping, Sequence

from referee.core import RuleError
from referee.systems.ginlane.tables import Weapon

__all__ = [
    "FULL_DEFENCE_BONUS",
    "GRENADE_BONUS",
    "GRENADE_DIFFICULTY",
    "IMPROVISED_BONUS",
    "ON_TARGET_EXCESS",
    "OUT_OF_SIGHT",
    "PHYSICAL_SKILLS",
    "SOCIAL_ATTACKS",
    "SOCIAL_REACH",
    "SPIN_MARGIN",
    "SPRINT_MAX_ZONES",
    "SUPPLEMENTAL_PENALTY",
    "attack_stress",
    "can_defend",
    "damage_bonus",
    "defence_skills",
    "fuse_goes_off",
    "is_fizzle",
    "is_long_range",
    "is_spin",
    "manoeuvre_reach",
    "reach",
    "sprint_route",
    "throw_modifier",
    "zone_distance",
]

OUT_OF_SIGHT = 5
"""Zones: "at five are likely out of sight behind too much street clutter to interact"."""

SUPPLEMENTAL_PENALTY = -1
"""A supplemental action: "-1 to the main Action"."""

FULL_DEFENCE_BONUS = 2
"""Action: Full defence: "+2 on defensive rolls against attack or manoeuvre"."""

SPIN_MARGIN = 4
"""Spin: a defence better than the attack "by 4 or more"."""

GRENADE_DIFFICULTY = 7
"""Grenades: "simple Agility roll vs difficulty 7"."""

THROW_RANGE_PENALTY = -2
"""Grenades: "-2 for range 2 and possibly each zone thereafter" (Rulings: each zone past 1)."""

ON_TARGET_EXCESS = 3
"""Grenades: "An excess of 3+" puts the free-taggable On Target Aspect."""

GRENADE_BONUS = 2
"""A grenade's damage bonus: the text gives none; Rulings: +2, as "most firearms"."""

SPRINT_MAX_ZONES = 4
"""Action: Sprint: "The maximum distance in actual Zones that can moved in a Turn is 4"."""

PHYSICAL_SKILLS = frozenset(
    {
        "Agility",
        "Artillery",
        "Bow",
        "Brawl",
        "Burglary",
        "Firearms",
        "Sleight of Hand",
        "Sling",
        "Strength",
        "Weapons",
    }
)
"""Skills whose actions are "physical" for a grappled character (Rulings)."""

SOCIAL_ATTACKS = frozenset({"Intimidation", "Deceive", "Charm", "Oratory"})
"""Attacks on Composure by word; defended by Resolve, Empathy or Charm (Rulings)."""

SOCIAL_REACH = 1
"""Words reach the next zone by raising one's voice ("Zones": talking without raising voices
is the same zone) (Rulings)."""

IMPROVISED_BONUS = 1
"""A weapon used with another skill than its own (a pistol as a club) is improvised, +1."""


def can_defend(
    defence: str, attack: str, *, small_weapon: bool = False, track: str | None = None
) -> bool:
    """Defence: which skill may defend against which attack.

    *Brawl skill can defend against Brawl attacks, and Weapons attack with small items such as
    knives and coshes. Weapons can defend against Weapons and Brawl attacks. Firearms skill
    can't be used to defend [...] Agility skill (i.e. dodge) can be used as a defence against
    all.* Resolve defends against words and against an attack on Composure (covering fire,
    grenades: "defensive roll to oppose a Composure attack with a weapon", "The Skills List"),
    never against a blow or a shot meant for Health; Empathy and Charm ("Social Defence")
    against words. ``track`` is the track the attack would stress (``None``: not an attack
    on a track, e.g. a manoeuvre).

    >>> can_defend("Brawl", "Weapons", small_weapon=True), can_defend("Brawl", "Weapons")
    (True, False)
    >>> can_defend("Resolve", "Firearms"), can_defend("Resolve", "Firearms", track="Composure")
    (False, True)
    """
    if defence == "Agility":
        return True
    if defence == "Brawl":
        return attack == "Brawl" or (attack == "Weapons" and small_weapon)
    if defence == "Weapons":
        return attack in ("Weapons", "Brawl")
    if defence == "Resolve":
        return attack in SOCIAL_ATTACKS or track == "Composure"
    if defence in ("Empathy", "Charm"):
        return attack in SOCIAL_ATTACKS
    return False


def defence_skills(
    attack: str, *, small_weapon: bool = False, track: str | None = None
) -> tuple[str, ...]:
    """Every skill that may defend against an attack made with ``attack``.

    >>> defence_skills("Firearms"), defence_skills("Firearms", track="Composure")
    (('Agility',), ('Agility', 'Resolve'))
    """
    candidates = ("Agility", "Brawl", "Weapons", "Resolve", "Empathy", "Charm")
    return tuple(
        s for s in candidates if can_defend(s, attack, small_weapon=small_weapon, track=track)
    )


def attack_stress(attack: int, defence: int, bonus: int) -> int:
    """Stress a resolved attack inflicts ("Resolving attacks"; RULINGS.md: a Match).

    A success inflicts attack − defence + the weapon's damage bonus; a Match (a tie) only the
    bonus (none unarmed); a failure nothing.
    """
    margin = attack - defence
    if margin > 0:
        return margin + bonus
    if margin == 0:
        return bonus
    return 0


def is_spin(attack: int, defence: int) -> bool:
    """Spin: the defence beats the attack by 4 or more."""
    return defence - attack >= SPIN_MARGIN


def zone_distance(links: Iterable[tuple[str, str]], start: str, end: str) -> int | None:
    """Zones between two zones (0 for the same zone), ``None`` if there is no way.

    >>> zone_distance([("a", "b"), ("b", "c")], "a", "c")
    2
    """
    graph: dict[str, set[str]] = {}
    for a, b in links:
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set()).add(a)
    seen = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        if here == end:
            return seen[here]
        for there in sorted(graph.get(here, ())):
            if there not in seen:
                seen[there] = seen[here] + 1
                queue.append(there)
    return None


def reach(distance: int) -> str:
    """Zones' rule of thumb: what can reach at a distance.

    >>> [reach(d) for d in range(6)]
    ['punch', 'poke', 'throw', 'shoot', 'shoot', 'out of sight']
    """
    if distance <= 0:
        return "punch"
    if distance == 1:
        return "poke"
    if distance == 2:
        return "throw"
    if distance < 5:
        return "shoot"
    return "out of sight"


def manoeuvre_reach(skill: str, weapon: Weapon) -> int:
    """How many zones away a manoeuvre against an opponent reaches ("Zones": "Characters in the
    same zone can punch each other, in adjacent zones can poke things at each other [...] at
    five are likely out of sight"; Rulings).

    A Brawl manoeuvre (a wig pulled over the eyes, a shove off balance) reaches the same zone;
    a Weapons one as far as the weapon in hand reaches when it is a Weapons weapon (else the
    same zone); words as far as a raised voice carries; anything else (taking aim) as far as
    the opponent is in sight.

    >>> from referee.systems.ginlane.tables import weapon
    >>> manoeuvre_reach("Brawl", weapon("sword")), manoeuvre_reach("Firearms", weapon("pistol"))
    (0, 4)
    """
    if skill == "Brawl":
        return 0
    if skill == "Weapons":
        return weapon.range if weapon.skill == "Weapons" else 0
    if skill in SOCIAL_ATTACKS:
        return SOCIAL_REACH
    return OUT_OF_SIGHT - 1


def is_long_range(weapon: Weapon, distance: int) -> bool:
    """Range: the target is in the weapon's furthest zone (a ranged weapon)."""
    return weapon.range > 0 and distance == weapon.range


def damage_bonus(weapon: Weapon, distance: int) -> int:
    """The damage bonus at a distance: the blunderbuss's +1 past range 0; −1 at long range,
    not below 0 ("Range").

    >>> from referee.systems.ginlane.tables import weapon
    >>> damage_bonus(weapon("pistol"), 3), damage_bonus(weapon("blunderbuss"), 0)
    (1, 3)
    """
    if distance > weapon.range:
        raise RuleError("Range", f"a {weapon.name} reaches {weapon.range} zones, not {distance}")
    bonus = weapon.bonus
    if distance > 0 and weapon.bonus_beyond_0 is not None:
        bonus = weapon.bonus_beyond_0
    if is_long_range(weapon, distance):
        bonus = max(0, bonus - 1)
    return bonus


def throw_modifier(distance: int) -> int:
    """Grenades: the throw's range penalty, −2 at range 2 and −2 more for each zone beyond.

    >>> [throw_modifier(d) for d in range(5)]
    [0, 0, -2, -4, -6]
    """
    return THROW_RANGE_PENALTY * max(0, distance - 1)


def is_fizzle(natural: int) -> bool:
    """Fizzle: a natural attack roll of 2 or 3."""
    return natural in (2, 3)


def fuse_goes_off(natural: int) -> bool:
    """Fizzle, the next turn's roll: EVEN is a 'phut', ODD a normal attack."""
    return natural % 2 == 1


def sprint_route(
    path: Sequence[str],
    start: str,
    points: int,
    links: Mapping[tuple[str, str], int],
    zone_costs: Mapping[str, int],
) -> tuple[str, ...]:
    """How far a Sprint gets along ``path`` with ``points`` of movement.

    Each step goes to an adjacent zone and costs the barrier's cost (``links``, default 1)
    plus what the zone costs beyond 1 ("Difficult terrain"); at most 4 zones; the sprinter
    stops where the points run out. Returns the zones entered.

    >>> sprint_route(["b", "c"], "a", 3, {("a", "b"): 1, ("b", "c"): 3}, {})
    ('b',)
    """
    if len(path) > SPRINT_MAX_ZONES:
        raise RuleError("Action: Sprint", f"at most {SPRINT_MAX_ZONES} zones, not {len(path)}")
    here = start
    left = points
    entered: list[str] = []
    for there in path:
        cost = links.get((here, there), links.get((there, here)))
        if cost is None:
            raise RuleError("Zones", f"{there!r} is not next to {here!r}")
        cost += max(0, zone_costs.get(there, 1) - 1)
        if cost > left:
            break
        left -= cost
        entered.append(there)
        here = there
    return tuple(entered)
