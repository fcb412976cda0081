"""Člověk odds: successes of exploding d10 pools, critical failures, outcome words after a defence, power.

Built on :func:`rules.odds.exploding_successes` (exact with Fractions, or floats). Infinite distributions are
cut where the tail left out is below 1e-12 (:data:`rules.odds.DEFAULT_TAIL`).

A roll of one face either succeeds or not, and either rerolls or not. A failed face that rerolls (the literal
reading of the supernatural reroll) adds nothing and only starts another roll, so leaving those rolls out changes
no total: the other three kinds keep their shares relative to each other, divided by 1 − P(failed reroll). A
critical failure needs no success on any die and a die whose first face is in the critical range (a face that
succeeded is never critical): with q the chance that one die ends with no success, q = a + b·q (a: a face
that fails and stops, b: one that fails and rerolls), and q' the same with first faces outside the range,
P(critical) = qⁿ − q'ⁿ.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction
from typing import Final, Generic

from rules import odds
from rules.errors import RulesError
from rules.odds import Dist, P
from rules.systems.clovek.dice import (
    CLOVEK_LADDER,
    CRITICAL_FAILURE,
    CRITICAL_RANGE,
    DEFAULT_ROLL_RULES,
    RollRules,
    SkillKind,
)
from rules.systems.clovek.rolls import (
    POWER_CRITICAL_RANGE,
    PowerSource,
    base_power,
    reroll_number,
    skill_kind,
    success_number,
)
from rules.text import _

#: Outcome keys of :func:`outcome_odds`, in display order, and their (untranslated) words.
OUTCOMES: Final[tuple[str, ...]] = ("critical", "failure", "basic", "full", "very_good", "total")
OUTCOME_WORDS: Final[dict[str, str]] = {"critical": CRITICAL_FAILURE, "failure": CLOVEK_LADDER[0],
                                        "basic": CLOVEK_LADDER[1], "full": CLOVEK_LADDER[2],
                                        "very_good": CLOVEK_LADDER[3], "total": CLOVEK_LADDER[5]}
MAX_DICE: Final[int] = 200


@dataclass(frozen=True)
class RollOdds(Generic[P]):
    """A skill roll's odds: successes on the dice (tail cut below 1e-12) and the chance of a critical failure."""

    dist: Dist[P]
    truncated: P
    critical: P


def outcome_key(successes: int) -> str:
    """The :data:`OUTCOMES` key of a number of successes (not a critical failure)."""
    if successes <= 0:
        return "failure"
    return ("basic", "full", "very_good", "very_good")[successes - 1] if successes < 5 else "total"


def _check_dice(dice: int) -> None:
    if not 0 <= dice <= MAX_DICE:
        raise RulesError(_("Roll from 0 to {limit} dice, not {count}.").format(limit=MAX_DICE, count=dice))


FACES: Final[range] = range(1, 11)


def _share(one: P, faces: list[int]) -> P:
    return one * len(faces) / 10


def _roll(one: P, dice: int, success_at: int, reroll_at: int, critical_top: int) -> RollOdds[P]:
    """``one`` is 1.0 or Fraction(1): it sets the number type of every probability."""
    _check_dice(dice)
    failed = [face for face in FACES if face < success_at]
    stop = _share(one, [face for face in failed if face < reroll_at])
    again = _share(one, [face for face in failed if face >= reroll_at])
    explode = _share(one, [face for face in FACES if face >= max(success_at, reroll_at)]) / (1 - again)
    succeed = _share(one, [face for face in FACES if face >= success_at]) / (1 - again)
    counted = odds.exploding_successes(dice, succeed, explode)
    fails = stop / (1 - again)
    outside = [face for face in failed if face > critical_top]
    fails_outside = (_share(one, [face for face in outside if face < reroll_at])
                     + _share(one, [face for face in outside if face >= reroll_at]) * fails)
    return RollOdds(counted.dist, counted.truncated, fails**dice - fails_outside**dice)


@functools.lru_cache(maxsize=256)
def _float_roll(dice: int, success_at: int, reroll_at: int, critical_top: int) -> RollOdds[float]:
    return _roll(1.0, dice, success_at, reroll_at, critical_top)


@functools.lru_cache(maxsize=256)
def _exact_roll(dice: int, success_at: int, reroll_at: int, critical_top: int) -> RollOdds[Fraction]:
    return _roll(Fraction(1), dice, success_at, reroll_at, critical_top)


def roll_odds(dice: int, skill: int, kind: SkillKind = SkillKind.ABILITY, supernatural: bool = False,
              rules: RollRules = DEFAULT_ROLL_RULES) -> RollOdds[float]:
    """Odds of a skill roll of ``dice`` d10 at ``skill`` dots (floats), under the encounter's ``rules``."""
    return _float_roll(dice, success_number(skill, supernatural, rules), reroll_number(skill, supernatural, rules),
                       CRITICAL_RANGE[kind])


def exact_roll_odds(dice: int, skill: int, kind: SkillKind = SkillKind.ABILITY, supernatural: bool = False,
                    rules: RollRules = DEFAULT_ROLL_RULES) -> RollOdds[Fraction]:
    """The same with exact Fractions (the tests' reference)."""
    return _exact_roll(dice, success_number(skill, supernatural, rules), reroll_number(skill, supernatural, rules),
                       CRITICAL_RANGE[kind])


def successes_distribution(dice: int, skill: int, kind: str = "ability", supernatural: bool = False,
                           rules: RollRules = DEFAULT_ROLL_RULES) -> tuple[list[float], float]:
    """(P(k successes) for k = 0, 1, … until the tail left is below 1e-12, P(critical failure)).

    P(0 successes) includes the critical failures; the critical failure's chance is given apart.
    """
    result = roll_odds(dice, skill, skill_kind(kind), supernatural, rules)
    return list(result.dist.probs), result.critical


# --- after bonuses, penalties and a defence ---------------------------------------------------------------


def modified(roll: RollOdds[P], bonus: int, penalty: int) -> Dist[P]:
    """Successes after bonuses (only with a success on the dice), then penalties; ≤ 0 is a failure."""
    return roll.dist.map(lambda rolled: rolled + (bonus if rolled > 0 else 0) - penalty)


def net_successes(attack: Dist[P], defence: Dist[P] | None) -> Dist[P]:
    """The action's successes less the defence's (a failed defence takes nothing off); 0 or less fails.

    An action that fails on its own is not helped or harmed by the defence: all of it lands on 0.
    """
    if defence is None:
        return attack
    zero = attack.probs[0] * 0
    failed = attack.at_most(0)
    weights: dict[int, P] = {0: failed}
    positive = {successes: p for successes, p in attack.items() if successes >= 1}
    if positive:
        landed = Dist.from_mapping(positive)
        taken = defence.map(lambda successes: max(0, successes))
        for net, p in odds.add(landed, -taken).items():
            weights[net] = weights.get(net, zero) + p
    return Dist.from_mapping(weights)


def outcome_odds(attack: RollOdds[P], bonus: int = 0, penalty: int = 0, defence: RollOdds[P] | None = None,
                 defence_bonus: int = 0, defence_penalty: int = 0) -> dict[str, P]:
    """P(each :data:`OUTCOMES` key) of an action after its bonuses, penalties and an optional defence.

    "total" is what the other outcomes leave, so the tail cut from the dice lands where it belongs.
    """
    defended = modified(defence, defence_bonus, defence_penalty) if defence is not None else None
    net = net_successes(modified(attack, bonus, penalty), defended)
    zero = attack.critical * 0
    result = dict.fromkeys(OUTCOMES, zero)
    for successes, p in net.items():
        if successes < 5:
            result[outcome_key(successes)] += p
    result["failure"] -= attack.critical
    result["critical"] = attack.critical
    result["total"] = 1 - sum((result[key] for key in OUTCOMES[:-1]), zero)
    return result


# --- power ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PowerSpec:
    """How a successful action's power is rolled: source, value, bonuses and penalties, dropped base."""

    source: PowerSource
    value: int
    bonus: int = 0
    penalty: int = 0
    drop_base: bool = False
    critical_range: int = POWER_CRITICAL_RANGE
    rules: RollRules = DEFAULT_ROLL_RULES


def power_odds(one: P, dice: int, spec: PowerSpec) -> Dist[P]:
    """Final power of an action with ``dice`` successes (``one`` = 1.0 or Fraction(1) picks the number type)."""
    base = base_power(spec.source, spec.value, spec.drop_base)
    rolled = _power_roll(one, dice, spec.value, spec.critical_range, spec.rules)
    no_success = rolled.dist.probability(0) - rolled.critical
    weights: dict[int, P] = {}
    for successes, p in rolled.dist.items():
        value = base + successes + spec.bonus - spec.penalty
        weights[value] = weights.get(value, one * 0) + (no_success if successes == 0 else p)
    crit = 1 - spec.penalty
    weights[crit] = weights.get(crit, one * 0) + rolled.critical
    return Dist.from_mapping(weights)


def _power_roll(one: P, dice: int, value: int, critical_range: int, rules: RollRules) -> RollOdds[P]:
    success_at, reroll_at = success_number(value, False, rules), reroll_number(value, False, rules)
    if isinstance(one, Fraction):
        return _exact_roll(dice, success_at, reroll_at, critical_range)
    return _float_roll(dice, success_at, reroll_at, critical_range)


def action_power_odds(net: Dist[P], spec: PowerSpec) -> Dist[P]:
    """Power of an action whose net successes are ``net``, given that it succeeds (a sub-distribution:
    its total is the chance of success)."""
    one = net.probs[0] * 0 + 1
    weights: dict[int, P] = {}
    for successes, p in net.items():
        if successes <= 0 or not p:
            continue
        for power, q in power_odds(one, successes, spec).items():
            weights[power] = weights.get(power, one * 0) + p * q
    return Dist.from_mapping(weights) if weights else Dist(0, (one * 0,))
