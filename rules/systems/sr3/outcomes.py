"""How unlikely a resolved SR3 attack or melee exchange was: its outcome placed on its own outcome distribution.

The scale runs from the attacker's worst to best result: miss, dodged, staged to no damage, Light … Deadly.
The odds come from :func:`rules.systems.sr3.odds.attack_outcome_distribution` with the dice counts and target
numbers stored in the operation. An explosive round's misfire (every attack die a 1) is rarer than any miss:
its chance is that of all ones, (1/6)ⁿ.
"""

from __future__ import annotations

from typing import Final

from rules.encounter import Combatant, Encounter
from rules.history import Operation
from rules.odds import extreme_tail
from rules.systems.base import RuleSystem
from rules.systems.sr3.damage import resistance_tn, resolve_hit
from rules.systems.sr3.levels import LEVELS
from rules.systems.sr3.melee import Role
from rules.systems.sr3.melee_odds import ORDER, MeleeQuestion, Roll, melee_outcome_distribution
from rules.systems.sr3.melee_ops import Sr3Melee, outcome_key_of
from rules.systems.sr3.odds import attack_outcome_distribution, stopped_by_barrier
from rules.systems.sr3.ops import Sr3Attack
from rules.systems.sr3.system import resisting_body, tables
from rules.systems.sr3.tables import WeaponKind

#: Outcome keys of the attack distribution, from the attacker's worst result to the best.
SCALE: Final[tuple[str, ...]] = ("miss", "dodged", "none", *LEVELS)


def outcome_key(attack: Sr3Attack) -> str:
    """The outcome key (:data:`SCALE`) the attack's dice gave, as :meth:`Sr3Attack.apply` resolves it."""
    outcome = resolve_hit(attack.level, *attack.successes())
    if outcome.missed:
        return "miss"
    if attack.stopped():
        return "none"  # the barrier stopped the hit: no damage
    if outcome.dodged:
        return "dodged"
    return outcome.level or "none"


def misfired(attack: Sr3Attack) -> bool:
    """Whether explosive ammunition rolled all ones and detonated in the weapon."""
    return attack.misfires()


def attack_probability(attack: Sr3Attack) -> float:
    """P(an outcome at least as extreme as this attack's), see :meth:`RuleSystem.outcome_probability`."""
    if misfired(attack):
        return float((1 / 6) ** len(attack.attack_faces))
    odds = attack_outcome_distribution(len(attack.attack_faces), attack.attack_tn, len(attack.dodge_faces),
                                       attack.dodge_tn, len(attack.resist_faces), attack.resist_tn, attack.level)
    if attack.stopped():
        odds = stopped_by_barrier(odds)
    return extreme_tail([odds[key] for key in SCALE], SCALE.index(outcome_key(attack)))


#: A melee exchange from the attacker's worst result (its own Deadly wound) to its best (the defender's).
MELEE_SCALE: Final[tuple[str, ...]] = tuple(reversed(ORDER))


def melee_question(melee: Sr3Melee, before: Encounter) -> MeleeQuestion:
    """The odds question of a resolved exchange, from its dice counts and TNs; the side nobody hit resists with its
    Body from ``before`` against the Power of the blow it did not take."""
    rules = tables(before)
    attacker, defender = before.combatant(melee.attacker), before.combatant(melee.defender)
    hit = outcome_key_of(melee, before)
    rolled = Roll(len(melee.resist_faces), melee.resist_tn)

    def resisting(side: Combatant, blow_power: int, role: Role) -> Roll:
        if hit.startswith(role.value):
            return rolled
        return Roll(resisting_body(side), resistance_tn(blow_power, 0, side.attribute("impact"), WeaponKind.MELEE,
                                                          tables=rules))

    return MeleeQuestion(
        Roll(len(melee.attack_faces), melee.attack_tn), Roll(len(melee.defence_faces), melee.defence_tn),
        melee.level, resisting(defender, melee.power, Role.DEFENDER),
        melee.defender_level if melee.defender_weapon else None,
        resisting(attacker, melee.defender_power, Role.ATTACKER), melee.full_defence,
        rules.melee.defender_counterattacks, rules.melee.tie_rule, rules.melee.staging)


def melee_probability(melee: Sr3Melee, before: Encounter) -> float:
    """P(an exchange at least as extreme as this one), see :meth:`RuleSystem.outcome_probability`."""
    odds = melee_outcome_distribution(melee_question(melee, before))
    return extreme_tail([odds[key] for key in MELEE_SCALE], MELEE_SCALE.index(outcome_key_of(melee, before)))


def outcome_probability(operation: Operation, before: Encounter, system: RuleSystem) -> float | None:
    """The game's :meth:`RuleSystem.outcome_probability`: the rolls it knows the odds of, None for the rest."""
    if isinstance(operation, Sr3Attack):
        return attack_probability(operation)
    if isinstance(operation, Sr3Melee):
        return melee_probability(operation, before)
    return None
