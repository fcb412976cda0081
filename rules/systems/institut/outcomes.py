"""How unlikely an Institute roll was: its outcome placed on the roll's own outcome distribution.

* An attack: miss, a hit that wounds nobody, then the first damage roll's wound class, lightest first (a hit
  with no damage roll: miss or hit), from :func:`attack_outcome_distribution` with the dice counts stored.
* A dodge through suppression fire: failed or made, from the dodge pool against the difficulty.
* Crossing suppression fire: how many bullets the creature took, of its dodges (a binomial count).
* A grenade throw: how many metres off target it landed, from :func:`throw_distribution`.
* A skill check: made or failed, from its pool (and points) against the difficulty.
"""

from __future__ import annotations

from rules.encounter import Encounter
from rules.history import Operation
from rules.odds import extreme_tail
from rules.systems.base import RuleSystem
from rules.systems.institut import rounds
from rules.systems.institut.checks import SkillCheck, succeeds
from rules.systems.institut.combat import Defence, DodgeTie, hits
from rules.systems.institut.crossing import CrossSuppression
from rules.systems.institut.odds import (
    HIT,
    MISS,
    NO_WOUND,
    attack_outcome_distribution,
    bullets_distribution,
    pool_total,
    success_probability,
    throw_distribution,
)
from rules.systems.institut.ops import InstitutAttack, SuppressionDodge, ThrowGrenade
from rules.systems.institut.system import dodge_tie, pool_die, pyramid_for, tables


def _tie(system: RuleSystem, encounter: Encounter) -> DodgeTie:
    return dodge_tie(encounter)  # the attack was applied: the option is one the game knows


def attack_scale(attack: InstitutAttack, encounter: Encounter, system: RuleSystem) -> dict[str, float]:
    """P of each outcome key, from the attacker's worst result to the best."""
    defence = Defence(attack.defence)
    opposing = attack.difficulty if defence is Defence.DIFFICULTY else len(attack.defence_faces)
    damage = len(attack.damage_rolls[0]) if attack.damage_rolls else None
    pyramid = pyramid_for(encounter.combatant(attack.target), encounter)
    tie = _tie(system, encounter)
    return attack_outcome_distribution(len(attack.attack_faces), defence, opposing, damage, pyramid, tie,
                                       sides=pool_die(encounter), attack_points=attack.attack_points,
                                       damage_points=attack.damage_points)


def attack_key(attack: InstitutAttack, encounter: Encounter, system: RuleSystem) -> str:
    """The outcome key the attack's own dice gave, as :meth:`InstitutAttack.apply` resolves it."""
    defence = Defence(attack.defence)
    opposing = attack.difficulty if defence is Defence.DIFFICULTY else sum(attack.defence_faces)
    if not hits(attack.attack_total(), defence, opposing, _tie(system, encounter)):
        return MISS
    if not attack.damage_rolls:
        return HIT
    pyramid = pyramid_for(encounter.combatant(attack.target), encounter)
    return pyramid.classify(sum(attack.damage_rolls[0]) + attack.damage_points) or NO_WOUND


def attack_probability(attack: InstitutAttack, encounter: Encounter, system: RuleSystem) -> float:
    """P(an outcome at least as extreme as this attack's)."""
    scale = attack_scale(attack, encounter, system)
    return extreme_tail(list(scale.values()), list(scale).index(attack_key(attack, encounter, system)))


def suppression_probability(dodge: SuppressionDodge, encounter: Encounter) -> float | None:
    """P(the dodge ended the way it did): made (total ≥ difficulty) or failed."""
    fire = rounds.suppression(encounter.combatant(dodge.shooter), encounter)
    difficulty = fire.get("difficulty") if fire is not None else None
    if not isinstance(difficulty, int):
        return None
    made = pool_total(len(dodge.dodge_faces), sides=pool_die(encounter)).at_least(difficulty)
    return made if sum(dodge.dodge_faces) >= difficulty else 1 - made


def crossing_probability(crossing: CrossSuppression, encounter: Encounter) -> float | None:
    """P(as few or as many bullets as this crossing took), each dodge the first one's dice against the area."""
    area = rounds.suppressed_area(encounter, crossing.area, tables(encounter).modifiers)
    if area is None or not crossing.rolls:
        return None
    dice = len(crossing.rolls[0].dodge_faces)
    scale = bullets_distribution(dice, area.difficulty, len(crossing.rolls), sides=pool_die(encounter))
    taken = sum(1 for roll in crossing.rolls if sum(roll.dodge_faces) < area.difficulty)
    return extreme_tail(list(scale.values()), taken)


def throw_probability(throw: ThrowGrenade, encounter: Encounter) -> float:
    """P(a landing at least as far from (or as close to) the target as this one)."""
    scale = throw_distribution(len(throw.throw_faces), throw.distance, sides=pool_die(encounter), points=throw.points)
    deviation = max(0, throw.distance - throw.total())
    return extreme_tail(list(scale.values()), list(scale).index(deviation))


def check_probability(check: SkillCheck, encounter: Encounter) -> float:
    """P(the check ended the way it did): made (its total covers the difficulty) or failed."""
    made = success_probability(len(check.faces), check.difficulty, sides=pool_die(encounter), points=check.points)
    return made if succeeds(sum(check.faces) + check.points, check.difficulty) else 1 - made


def outcome_probability(operation: Operation, before: Encounter, system: RuleSystem) -> float | None:
    """The game's :meth:`RuleSystem.outcome_probability`: the rolls it knows the odds of, None for the rest."""
    if isinstance(operation, InstitutAttack):
        return attack_probability(operation, before, system)
    if isinstance(operation, SuppressionDodge):
        return suppression_probability(operation, before)
    if isinstance(operation, CrossSuppression):
        return crossing_probability(operation, before)
    if isinstance(operation, ThrowGrenade):
        return throw_probability(operation, before)
    if isinstance(operation, SkillCheck):
        return check_probability(operation, before)
    return None
