"""How unlikely a resolved Walka attack was: its outcome placed on the attack's own outcome distribution.

The scale runs from the attacker's worst to best result: missed, defended, then a hit removing 0, 1, 2 …
Hit Points (one per damage die showing 4 or more). The odds come from :func:`outcome_chances` (the opposed
roll-under test with its bonus and penalty dice) and :func:`hp_loss_distribution` (the damage pool).
"""

from __future__ import annotations

from rules.encounter import Encounter
from rules.history import Operation
from rules.odds import extreme_tail
from rules.systems.base import RuleSystem
from rules.systems.walka.contest import Outcome, hit_points_removed, threshold
from rules.systems.walka.odds import hp_loss_distribution, outcome_chances
from rules.systems.walka.ops import WalkaAttack
from rules.systems.walka.system import WalkaSystem


def scale(attack: WalkaAttack, aim_before_armor: bool = False, under: bool = False) -> list[float]:
    """P(missed), P(defended), then P(a hit removing k Hit Points) for k = 0 … the damage pool (``under``: a roll
    must be under the skill)."""
    chances = outcome_chances(threshold(attack.attack_skill, under),
                              threshold(attack.defence_skill, under) if attack.defence else None, attack.die,
                              attack.attack_bonus, attack.attack_penalty, attack.defence_bonus,
                              attack.defence_penalty, attack.tens)
    damage = hp_loss_distribution(attack.pool(aim_before_armor))
    return [chances[Outcome.MISSED], chances[Outcome.DEFENDED], *(chances[Outcome.HIT] * p for p in damage)]


def scale_index(attack: WalkaAttack, under: bool = False) -> int:
    """Where the attack's own dice put it on :func:`scale`."""
    outcome = attack.outcome(under)
    if outcome is Outcome.MISSED:
        return 0
    if outcome is Outcome.DEFENDED:
        return 1
    return 2 + hit_points_removed(attack.damage_faces)


def attack_probability(attack: WalkaAttack, aim_before_armor: bool = False, under: bool = False) -> float:
    """P(an outcome at least as extreme as this attack's), see :meth:`RuleSystem.outcome_probability`."""
    return extreme_tail(scale(attack, aim_before_armor, under), scale_index(attack, under))


def outcome_probability(operation: Operation, before: Encounter, system: RuleSystem) -> float | None:
    """The game's :meth:`RuleSystem.outcome_probability`: the rolls it knows the odds of, None for the rest."""
    if isinstance(operation, WalkaAttack) and isinstance(system, WalkaSystem):
        return attack_probability(operation, system.aim_before_armor(before), system.strictly_under(before))
    return None
