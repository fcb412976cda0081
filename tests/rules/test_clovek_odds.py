"""Člověk odds against icepool (test-only oracle): exact Fractions must match, floats within 1e-12."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import RulesError
from rules.odds import DEFAULT_TAIL, Dist
from rules.systems.clovek import success_number, successes_distribution
from rules.systems.clovek.dice import CRITICAL_RANGE, SkillKind
from rules.systems.clovek.odds import (
    OUTCOMES,
    PowerSpec,
    action_power_odds,
    exact_roll_odds,
    modified,
    net_successes,
    outcome_key,
    outcome_odds,
    power_odds,
    roll_odds,
)
from rules.systems.clovek.rolls import PowerSource, base_power, reroll_number

TOLERANCE = 1e-12
#: A critical die adds this to an icepool total, so totals encode (successes, critical dice) at once.
BIG = 10**6
#: Chains longer than icepool's depth end on this far-away sentinel (as in tests/rules/test_odds.py).
SENTINEL = 10_000

dice_counts = st.integers(min_value=0, max_value=7)
skills = st.integers(min_value=0, max_value=9)
kinds = st.sampled_from(list(SkillKind))


def icepool_pool(dice: int, skill: int, kind: SkillKind, supernatural: bool, depth: int,
                 critical_top: int | None = None) -> Any:
    """``dice`` Člověk dice as one icepool die of encoded totals: successes + BIG × (dice first rolled in the
    critical range)."""
    success_at, reroll_at = success_number(skill), reroll_number(skill, supernatural)
    top = CRITICAL_RANGE[kind] if critical_top is None else critical_top
    again = icepool.d10.map(lambda face: 1 + icepool.Again if face >= reroll_at else int(face >= success_at),
                            again_depth=depth, again_end=SENTINEL)
    first = icepool.d10.map(lambda face: 1 + again if face >= reroll_at else (
        int(face >= success_at) if face > top else BIG))
    return dice @ first if dice else icepool.Die([0])


def icepool_totals(dice: int, skill: int, kind: SkillKind, supernatural: bool, depth: int,
                   critical_top: int | None = None) -> dict[int, Fraction]:
    """The encoded totals with their exact probabilities."""
    pool = icepool_pool(dice, skill, kind, supernatural, depth, critical_top)
    return {outcome: Fraction(p) for outcome, p in zip(pool.outcomes(), pool.probabilities(), strict=True) if p}


def successes_of(totals: dict[int, Fraction]) -> dict[int, Fraction]:
    counts: dict[int, Fraction] = {}
    for total, p in totals.items():
        counts[total % BIG] = counts.get(total % BIG, Fraction(0)) + p
    return counts


def critical_of(totals: dict[int, Fraction]) -> Fraction:
    return sum((p for total, p in totals.items() if total >= BIG and total % BIG == 0), Fraction(0))


@settings(max_examples=40, deadline=None)
@given(dice_counts, skills, kinds, st.booleans())
def test_roll_odds_match_icepool_exactly(dice: int, skill: int, kind: SkillKind, supernatural: bool) -> None:
    exact = exact_roll_odds(dice, skill, kind, supernatural)
    totals = icepool_totals(dice, skill, kind, supernatural, depth=len(exact.dist.probs))
    counts = successes_of(totals)
    assert all(p == counts.get(k, 0) for k, p in exact.dist.items())
    assert exact.critical == critical_of(totals)
    assert exact.truncated == 1 - exact.dist.total() and 0 <= exact.truncated < DEFAULT_TAIL


@settings(max_examples=40, deadline=None)
@given(dice_counts, skills, kinds, st.booleans())
def test_public_successes_distribution_is_the_exact_one_in_floats(dice: int, skill: int, kind: SkillKind,
                                                                   supernatural: bool) -> None:
    probs, critical = successes_distribution(dice, skill, kind.value, supernatural)
    exact = exact_roll_odds(dice, skill, kind, supernatural)
    assert abs(critical - float(exact.critical)) <= TOLERANCE
    assert 1 - sum(probs) < DEFAULT_TAIL + TOLERANCE  # "until the tail is < 1e-12"
    assert all(abs(p - float(exact.dist.probability(k))) <= TOLERANCE for k, p in enumerate(probs))
    assert isinstance(probs, list) and all(isinstance(p, float) for p in probs)


def test_successes_distribution_of_the_seed_rolls() -> None:
    probs, critical = successes_distribution(4, 1)  # Stealth 1 dot: one die succeeds on 9 or 10
    assert probs[0] == pytest.approx(0.8**4)
    assert critical == pytest.approx(0.8**4 - 0.6**4)  # no success and a 1 or 2 somewhere
    _probs, physics = successes_distribution(8, 3, "knowledge")  # ≥ 7; critical 1–4
    assert physics == pytest.approx(0.6**8 - 0.2**8)
    assert successes_distribution(0, 3) == ([1.0], 0.0)
    with pytest.raises(RulesError):
        successes_distribution(3, 2, "spell")
    with pytest.raises(RulesError):
        successes_distribution(-1, 2)


def icepool_outcomes(totals: dict[int, Fraction], bonus: int, penalty: int) -> dict[str, Fraction]:
    """Outcome words from encoded totals; "total" is what the others leave (as in the rules module)."""
    result = dict.fromkeys(OUTCOMES, Fraction(0))
    for total, p in totals.items():
        rolled = total % BIG
        if total >= BIG and rolled == 0:
            result["critical"] += p
            continue
        final = rolled + (bonus if rolled > 0 else 0) - penalty
        if final < 5:
            result[outcome_key(final)] += p
    result["total"] = 1 - sum((result[key] for key in OUTCOMES[:-1]), Fraction(0))
    return result


@settings(max_examples=40, deadline=None)
@given(dice_counts, skills, kinds, st.integers(0, 3), st.integers(0, 3))
def test_outcome_odds_match_icepool_exactly(dice: int, skill: int, kind: SkillKind, bonus: int,
                                            penalty: int) -> None:
    exact = exact_roll_odds(dice, skill, kind)
    ours = outcome_odds(exact, bonus, penalty)
    assert ours == icepool_outcomes(icepool_totals(dice, skill, kind, False, len(exact.dist.probs)), bonus, penalty)
    floats = outcome_odds(roll_odds(dice, skill, kind), bonus, penalty)
    assert all(abs(floats[key] - float(ours[key])) <= TOLERANCE for key in OUTCOMES)


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 5), st.integers(0, 5), st.integers(0, 4), st.integers(0, 5), st.integers(0, 2),
       st.integers(0, 2))
def test_a_defence_takes_its_successes_off_as_icepool_says(dice: int, skill: int, defence_dice: int,
                                                           defence_skill: int, bonus: int, penalty: int) -> None:
    """Both rolls explode without end, so both cuts leave < 1e-12 out: exact up to that, never more."""
    attack = exact_roll_odds(dice, skill)
    defence = exact_roll_odds(defence_dice, defence_skill)
    ours = outcome_odds(attack, bonus, penalty, defence, 1, 0)
    depth = max(len(attack.dist.probs), len(defence.dist.probs)) + 2
    attack_ice = icepool_pool(dice, skill, SkillKind.ABILITY, False, depth)
    defence_ice = icepool_pool(defence_dice, defence_skill, SkillKind.ABILITY, False, depth).map(
        lambda total: total % BIG)

    def net(total: int, defended: int) -> int:
        rolled = total % BIG
        final = rolled + (bonus if rolled > 0 else 0) - penalty
        taken = max(0, defended + (1 if defended > 0 else 0))
        return (BIG if total >= BIG and rolled == 0 else 0) + (final - taken if final > 0 else min(final, 0)) + 100

    combined = icepool.map(net, attack_ice, defence_ice)
    theirs = dict.fromkeys(OUTCOMES, Fraction(0))
    for value, p in zip(combined.outcomes(), combined.probabilities(), strict=True):
        key = "critical" if value >= BIG else outcome_key(value - 100)
        theirs[key] += Fraction(p)
    assert all(abs(ours[key] - theirs[key]) < 4 * DEFAULT_TAIL for key in OUTCOMES)
    assert sum(ours.values()) == 1


def test_net_successes_keep_a_failed_action_failed() -> None:
    attack = Dist(-1, (Fraction(1, 4), Fraction(1, 4), Fraction(1, 2)))  # −1, 0, 1
    defence = Dist(0, (Fraction(1, 2), Fraction(1, 2)))  # 0 or 1
    net = net_successes(attack, defence)
    assert net.to_dict() == {0: Fraction(3, 4), 1: Fraction(1, 4)}
    assert net_successes(attack, None) is attack


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 6), st.integers(0, 8), st.sampled_from(list(PowerSource)), st.integers(0, 4),
       st.integers(0, 4), st.booleans(), st.integers(1, 4))
def test_power_odds_match_icepool_exactly(dice: int, value: int, source: PowerSource, bonus: int, penalty: int,
                                          drop: bool, critical_range: int) -> None:
    drop = drop and source is PowerSource.ATTRIBUTE
    spec = PowerSpec(source, value, bonus, penalty, drop, critical_range)
    ours = power_odds(Fraction(1), dice, spec)
    depth = len(exact_roll_odds(dice, value, SkillKind.ABILITY).dist.probs) + 2
    totals = icepool_totals(dice, value, SkillKind.ABILITY, False, depth, critical_top=critical_range)
    base = base_power(source, value, drop)
    theirs: dict[int, Fraction] = {}
    for total, p in totals.items():
        rolled = total % BIG
        power = 1 - penalty if total >= BIG and rolled == 0 else base + rolled + bonus - penalty
        theirs[power] = theirs.get(power, Fraction(0)) + p
    assert all(p == theirs.get(k, 0) for k, p in ours.items() if p)


def test_the_seeds_power_numbers_are_the_likeliest_shapes() -> None:
    # Cesare, Constitution 4, 3 successes: power 2 + 0..3+; a critical (no success, a 1 or 2) is power 1.
    cesare = power_odds(Fraction(1), 3, PowerSpec(PowerSource.ATTRIBUTE, 4))
    assert cesare.probability(1) == Fraction(5, 10) ** 3 - Fraction(3, 10) ** 3
    assert cesare.probability(2) == Fraction(3, 10) ** 3
    # The heavy pistol never goes below its base of 6 unless the power roll is critical.
    pistol = power_odds(Fraction(1), 2, PowerSpec(PowerSource.EQUIPMENT, 3))
    assert pistol.low == 1 and pistol.probability(2) == 0 and pistol.probability(6) > 0


def test_action_power_mixes_over_the_successes_that_get_through() -> None:
    net = modified(exact_roll_odds(3, 2), 0, 0)
    spec = PowerSpec(PowerSource.ATTRIBUTE, 3)
    mixed = action_power_odds(net, spec)
    assert mixed.total() == pytest.approx(float(net.at_least(1)), abs=TOLERANCE)
    expected = sum((net.probability(k) * power_odds(Fraction(1), k, spec).probability(3)
                    for k in range(1, net.high + 1)), Fraction(0))
    assert mixed.probability(3) == expected

