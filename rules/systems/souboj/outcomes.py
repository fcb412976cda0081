"""How unlikely a resolved Souboj attack was: its outcome placed on the attack's own outcome distribution.

The scale runs from a miss to the largest damage the two d6 allow: miss, then each amount of damage in
increasing order (criticals multiplied in, as the attack was declared). The odds come from
:func:`rules.systems.souboj.odds.attack_odds`. A spell rolls nothing here, so it has no odds.
"""

from __future__ import annotations

from rules.encounter import Encounter
from rules.history import Operation
from rules.odds import extreme_tail
from rules.systems.base import RuleSystem
from rules.systems.souboj.attack import SoubojAttack
from rules.systems.souboj.combat import base_damage, critical_multiplier, damage_from_base
from rules.systems.souboj.model import Kind
from rules.systems.souboj.odds import attack_odds
from rules.systems.souboj.system import tables

MISS = -1  # below every damage, even 0 (a hit the armor takes all of)


def scale(attack: SoubojAttack, encounter: Encounter) -> dict[int, float]:
    """P(miss) under :data:`MISS`, then P(each damage) in increasing order."""
    odds = attack_odds(attack.attack_bonus, attack.defence_bonus, attack.weapon_kind, attack.strength, attack.armor,
                       _multiplier(attack, encounter), tables(encounter))
    return {MISS: odds.miss, **odds.damage}


def dealt(attack: SoubojAttack, encounter: Encounter) -> int:
    """The damage the attack's own dice dealt (criticals included), or :data:`MISS`."""
    base = base_damage(*attack.totals())
    if base is None:
        return MISS
    rule = tables(encounter).rule(attack.weapon_kind)
    return damage_from_base(base, rule, attack.strength, attack.armor) * _multiplier(attack, encounter)


def _multiplier(attack: SoubojAttack, encounter: Encounter) -> int:
    return critical_multiplier(attack.level, tables(encounter)) if attack.causes else 1


def attack_probability(attack: SoubojAttack, encounter: Encounter) -> float | None:
    """P(an outcome at least as extreme as this attack's); None for a spell (no dice rolled here)."""
    if attack.weapon_kind is Kind.MAGIC:
        return None
    chances = scale(attack, encounter)
    return extreme_tail(list(chances.values()), list(chances).index(dealt(attack, encounter)))


def outcome_probability(operation: Operation, before: Encounter, system: RuleSystem) -> float | None:
    """The game's :meth:`RuleSystem.outcome_probability`: the rolls it knows the odds of, None for the rest."""
    if isinstance(operation, SoubojAttack):
        return attack_probability(operation, before)
    return None
