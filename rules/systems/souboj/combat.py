"""Souboj's arithmetic: attack and defence totals, damage by kind, critical hits, shadow damage fading.

Both sides roll 1d6 and add their numbers (the table in :mod:`rules.systems.souboj.tables`). The attack hits
when it beats the defence by at least 1; the difference is the base of the damage (30 against 25: base 5),
to which the kind of weapon adds the attacker's Strength and from which it takes the armor quality. A
critical hit multiplies the damage by the attacker's level, at most 10.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from enum import StrEnum
from fractions import Fraction
from typing import Final

from rules.errors import RulesError
from rules.systems.souboj.model import Kind
from rules.systems.souboj.tables import KindRule, SoubojTables, load_tables
from rules.text import N_, _


class Rounding(StrEnum):
    """How the part of the shadow damage that fades is rounded (digest **Decision**: down)."""

    DOWN = "down"
    UP = "up"
    NEAREST = "nearest"


ROUNDING_LABELS: Final[Mapping[Rounding, str]] = {
    Rounding.DOWN: N_("Round the removed part down"),
    Rounding.UP: N_("Round the removed part up"),
    Rounding.NEAREST: N_("Round the removed part to the nearest (halves up)"),
}


def parse_kind(kind: str) -> Kind:
    """The attack kind named ``kind``, or a RulesError listing the kinds."""
    try:
        return Kind(kind)
    except ValueError:
        names = ", ".join(k.value for k in Kind)
        raise RulesError(_("Unknown kind of attack {kind!r} (one of {names}).").format(kind=kind, names=names)) \
            from None


def base_damage(attack_total: int, defence_total: int) -> int | None:
    """Attack minus defence when the attack beats the defence by at least 1, else None (no hit)."""
    margin = attack_total - defence_total
    return margin if margin >= 1 else None


def damage_from_base(base: int, rule: KindRule, strength: int = 0, armor: int = 0) -> int:
    """The kind's damage for a hit with ``base``: Strength added and armor taken off as the kind says, ≥ 0."""
    total = base + (strength if rule.damage_strength else 0) - (armor if rule.damage_armor else 0)
    return max(0, total)


def damage(attack_total: int, defence_total: int, kind: str, strength: int = 0, armor: int = 0) -> int:
    """Damage of an attack of ``kind`` ("ranged", "thrown", "firearm", "melee"; also "unarmed").

    0 when the attack does not beat the defence by at least 1. Ranged: base − armor; thrown: base +
    Strength − armor; firearm: base; melee: base + Strength − armor (never below 0). Before criticals.
    """
    rule = load_tables().rule(parse_kind(kind))
    base = base_damage(attack_total, defence_total)
    return 0 if base is None else damage_from_base(base, rule, strength, armor)


def critical_multiplier(level: int, tables: SoubojTables | None = None) -> int:
    """A critical hit multiplies the damage by the attacker's level, at most 10."""
    if level < 1:
        raise RulesError(_("A level is at least 1."))
    return min((tables or load_tables()).critical_cap, level)


def roll_bonus(parts: tuple[str, ...], attributes: Mapping[str, int]) -> int:
    """The numbers added to a 1d6 roll: the named attributes summed."""
    return sum(attributes.get(part, 0) for part in parts)


def shadow_removed(shadow: int, part: Fraction, rounding: Rounding) -> int:
    """How much of ``shadow`` fades after the recovery time (three quarters, rounded as the GM chose)."""
    exact = part * max(0, shadow)
    if rounding is Rounding.DOWN:
        return math.floor(exact)
    if rounding is Rounding.UP:
        return math.ceil(exact)
    return math.floor(exact + Fraction(1, 2))
