"""How unlikely a resolved SR3 attack was: its outcome placed on the attack's own outcome distribution.

The scale runs from the attacker's worst to best result: miss, dodged, staged to no damage, Light … Deadly.
The odds come from :func:`rules.systems.sr3.odds.attack_outcome_distribution` with the dice counts and target
numbers stored in the operation. An explosive round's misfire (every attack die a 1) is rarer than any miss:
its chance is that of all ones, (1/6)ⁿ.
"""

from __future__ import annotations

from typing import Final

from rules.encounter import Encounter
from rules.history import Operation
from rules.odds import extreme_tail
from rules.systems.base import RuleSystem
from rules.systems.sr3.damage import EXPLOSIVE_AMMO, Ammo, resolve_hit
from rules.systems.sr3.dice import count_sr3_successes, rule_of_one
from rules.systems.sr3.levels import LEVELS
from rules.systems.sr3.odds import attack_outcome_distribution
from rules.systems.sr3.ops import Sr3Attack

#: Outcome keys of the attack distribution, from the attacker's worst result to the best.
SCALE: Final[tuple[str, ...]] = ("miss", "dodged", "none", *LEVELS)


def outcome_key(attack: Sr3Attack) -> str:
    """The outcome key (:data:`SCALE`) the attack's dice gave, as :meth:`Sr3Attack.apply` resolves it."""
    hits = 0 if rule_of_one(attack.attack_faces) else count_sr3_successes(attack.attack_faces, attack.attack_tn)
    dodge = count_sr3_successes(attack.dodge_faces, attack.dodge_tn) if attack.dodge_faces else 0
    resist = count_sr3_successes(attack.resist_faces, attack.resist_tn)
    outcome = resolve_hit(attack.level, hits, dodge, resist)
    if outcome.missed:
        return "miss"
    if outcome.dodged:
        return "dodged"
    return outcome.level or "none"


def misfired(attack: Sr3Attack) -> bool:
    """Whether explosive ammunition rolled all ones and detonated in the weapon."""
    return Ammo(attack.ammo) in EXPLOSIVE_AMMO and rule_of_one(attack.attack_faces)


def attack_probability(attack: Sr3Attack) -> float:
    """P(an outcome at least as extreme as this attack's), see :meth:`RuleSystem.outcome_probability`."""
    if misfired(attack):
        return float((1 / 6) ** len(attack.attack_faces))
    odds = attack_outcome_distribution(len(attack.attack_faces), attack.attack_tn, len(attack.dodge_faces),
                                       attack.dodge_tn, len(attack.resist_faces), attack.resist_tn, attack.level)
    return extreme_tail([odds[key] for key in SCALE], SCALE.index(outcome_key(attack)))


def outcome_probability(operation: Operation, before: Encounter, system: RuleSystem) -> float | None:
    """The game's :meth:`RuleSystem.outcome_probability`: the rolls it knows the odds of, None for the rest."""
    if isinstance(operation, Sr3Attack):
        return attack_probability(operation)
    return None
