"""How unlikely a Člověk roll was: its outcome word placed on the roll's own outcome distribution.

The scale is the outcome ladder, worst first: critical failure, failure, basic, full, very good, total
success, after the roll's bonuses and penalties and the defender's successes (when someone defended). The odds
come from :func:`rules.systems.clovek.odds.outcome_odds` with the dice counts and skills stored in the check.
"""

from __future__ import annotations

from rules.encounter import Encounter
from rules.history import Operation
from rules.odds import extreme_tail
from rules.systems.base import RuleSystem
from rules.systems.clovek.check import ClovekCheck, SkillRoll
from rules.systems.clovek.dice import DEFAULT_ROLL_RULES, RollRules
from rules.systems.clovek.odds import OUTCOMES, RollOdds, outcome_key, outcome_odds, roll_odds
from rules.systems.clovek.rolls import roll_rules, skill_kind


def _odds(roll: SkillRoll, rules: RollRules) -> RollOdds[float]:
    return roll_odds(len(roll.faces), roll.skill, skill_kind(roll.skill_kind), roll.supernatural, rules)


def scale(check: ClovekCheck, rules: RollRules = DEFAULT_ROLL_RULES) -> dict[str, float]:
    """P of each outcome key (:data:`OUTCOMES`, worst first) of the check, its defence included."""
    defence = check.defence
    if defence is None or check.target is None:
        return outcome_odds(_odds(check.test, rules), check.test.bonus, check.test.penalty)
    return outcome_odds(_odds(check.test, rules), check.test.bonus, check.test.penalty, _odds(defence, rules),
                        defence.bonus, defence.penalty)


def check_key(check: ClovekCheck, rules: RollRules = DEFAULT_ROLL_RULES) -> str:
    """The outcome key the check's own dice gave, as :meth:`ClovekCheck.apply` works it out."""
    attack = check.test.result(rules)
    if attack.critical:
        return "critical"
    net = attack.successes
    if check.defence is not None and check.target is not None and attack.succeeded:
        net -= max(0, check.defence.result(rules).successes)
    return outcome_key(net)


def check_probability(check: ClovekCheck, rules: RollRules = DEFAULT_ROLL_RULES) -> float:
    """P(an outcome at least as extreme as this check's)."""
    chances = scale(check, rules)
    return extreme_tail([chances[key] for key in OUTCOMES], OUTCOMES.index(check_key(check, rules)))


def outcome_probability(operation: Operation, before: Encounter, system: RuleSystem) -> float | None:
    """The game's :meth:`RuleSystem.outcome_probability`: the rolls it knows the odds of, None for the rest."""
    if isinstance(operation, ClovekCheck):
        return check_probability(operation, roll_rules(system, before))
    return None
