"""Exact odds of Walka's tests and damage, from the shared engine in :mod:`rules.odds`.

Floats for the window; the ``exact_*`` twins give Fractions (the tests compare them with icepool).
"""

from __future__ import annotations

from fractions import Fraction

from rules import odds
from rules.dice_rules import PERCENTILE, percentile_face
from rules.errors import RulesError
from rules.odds import Dist, P
from rules.systems.walka.contest import HIT_FACE, TEST_DICE, Outcome
from rules.text import _

_DIGITS = range(10)


def _check_die(die: int, tens: bool = False) -> None:
    if die not in TEST_DICE:
        raise RulesError(_("A Walka test rolls a d20 or a d100, not a d{sides}.").format(sides=die))
    if tens and die != PERCENTILE:
        raise RulesError(_("Only a d100 has tens dice."))


def _tens_kept(tenth: P, bonus: int, penalty: int) -> Dist[P]:
    """The kept face when the extra dice are tens dice beside one units die: for each units digit (1/10 each)
    the tens dice are fair over the ten faces ending in it, and the lowest or highest of them is kept."""
    parts = []
    for units in _DIGITS:
        single = Dist.from_mapping({percentile_face(tens, units): tenth for tens in _DIGITS})
        parts.append((tenth, _kept(single, bonus, penalty)))
    return odds.mixture(parts)


def _kept(single: Dist[P], bonus: int, penalty: int) -> Dist[P]:
    """The face that counts in a test: one die, or the lowest (net bonus) / highest (net penalty) of several."""
    if bonus < 0 or penalty < 0:
        raise RulesError(_("Bonus and penalty dice cannot be negative."))
    net = bonus - penalty
    if net > 0:
        return odds.keep_lowest(1 + net, single)
    if net < 0:
        return odds.keep_highest(1 - net, single)
    return single


def kept_distribution(die: int, bonus: int = 0, penalty: int = 0, tens: bool = False) -> Dist[float]:
    """Distribution of the kept face of a d20/d100 test with bonus and penalty dice (``tens``: a d100's extra
    dice are tens dice)."""
    _check_die(die, tens)
    if tens:
        return _tens_kept(0.1, bonus, penalty)
    return _kept(odds.die(die), bonus, penalty)


def exact_kept_distribution(die: int, bonus: int = 0, penalty: int = 0, tens: bool = False) -> Dist[Fraction]:
    """:func:`kept_distribution` in Fractions."""
    _check_die(die, tens)
    if tens:
        return _tens_kept(Fraction(1, 10), bonus, penalty)
    return _kept(odds.die(die, exact=True), bonus, penalty)


def _outcomes(attack: Dist[P], attack_skill: int, defence: Dist[P] | None, defence_skill: int) -> dict[Outcome, P]:
    """P(missed), P(defended), P(hit).

    The attacker hits with a successful roll a when the defender fails (D > defence skill) or rolls higher
    (D > a; a tie goes to the defender): both together are D > min(defence skill, a). So
    P(hit) = Σ over successful a of P(A = a)·P(D > min(defence skill, a)).
    """
    succeeded = attack.at_most(attack_skill)
    if defence is None:
        hit = succeeded
    else:
        hit = attack.probability(attack.low) * 0
        for roll, chance in attack.items():
            if roll > attack_skill:
                break
            hit += chance * defence.at_least(min(defence_skill, roll) + 1)
    return {Outcome.MISSED: 1 - succeeded, Outcome.DEFENDED: succeeded - hit, Outcome.HIT: hit}


def outcome_chances(attack_skill: int, defence_skill: int | None, die: int = 20, attack_bonus: int = 0,
                    attack_penalty: int = 0, defence_bonus: int = 0, defence_penalty: int = 0,
                    tens: bool = False) -> dict[Outcome, float]:
    """P(missed), P(defended), P(hit) of one attack; ``defence_skill`` None: the defender does not roll
    (``tens``: a d100's extra dice are tens dice; the two sides roll their own units dice)."""
    attack = kept_distribution(die, attack_bonus, attack_penalty, tens)
    defence = None if defence_skill is None else kept_distribution(die, defence_bonus, defence_penalty, tens)
    return _outcomes(attack, attack_skill, defence, defence_skill or 0)


def exact_outcome_chances(attack_skill: int, defence_skill: int | None, die: int = 20, attack_bonus: int = 0,
                          attack_penalty: int = 0, defence_bonus: int = 0,
                          defence_penalty: int = 0, tens: bool = False) -> dict[Outcome, Fraction]:
    """:func:`outcome_chances` in Fractions."""
    attack = exact_kept_distribution(die, attack_bonus, attack_penalty, tens)
    defence = None if defence_skill is None else exact_kept_distribution(die, defence_bonus, defence_penalty, tens)
    return _outcomes(attack, attack_skill, defence, defence_skill or 0)


def success_probability(skill: int, die: int = 20, bonus: int = 0, penalty: int = 0, tens: bool = False) -> float:
    """P(the kept roll is at or under ``skill``): an unopposed test, or an attack on an unaware defender."""
    return kept_distribution(die, bonus, penalty, tens).at_most(skill)


def attack_win_probability(attack_skill: int, defence_skill: int, die: int = 20, attack_bonus: int = 0,
                           attack_penalty: int = 0, defence_bonus: int = 0, defence_penalty: int = 0) -> float:
    """P(the attacker wins the opposed roll-under test): lowest successful roll wins, a tie to the defender."""
    return outcome_chances(attack_skill, defence_skill, die, attack_bonus, attack_penalty, defence_bonus,
                           defence_penalty)[Outcome.HIT]


def hit_points_lost(pool: int) -> Dist[float]:
    """Hit Points a damage pool of ``pool`` d6 removes: one per die showing 4 or more."""
    _check_pool(pool)
    return odds.count_successes(pool, odds.die(6), HIT_FACE)


def exact_hit_points_lost(pool: int) -> Dist[Fraction]:
    """:func:`hit_points_lost` in Fractions."""
    _check_pool(pool)
    return odds.count_successes(pool, odds.die(6, exact=True), HIT_FACE)


def _check_pool(pool: int) -> None:
    if pool < 0:
        raise RulesError(_("A damage pool cannot be negative (got {pool}).").format(pool=pool))


def hp_loss_distribution(pool: int) -> list[float]:
    """P(k Hit Points removed) for k = 0..pool, for a damage pool of ``pool`` d6."""
    return list(hit_points_lost(pool).probs)
