"""The odds engine against icepool (test-only oracle): exact Fractions must match, floats within 1e-12."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import odds
from rules.errors import RulesError

TOLERANCE = 1e-12
SETTINGS = settings(max_examples=40, deadline=None)


def oracle(die: Any) -> dict[int, Fraction]:
    """An icepool die as ``{outcome: probability}`` without zero entries."""
    return {k: p for k, p in zip(die.outcomes(), die.probabilities(), strict=True) if p}


def ours(dist: odds.Dist[Fraction]) -> dict[int, Fraction]:
    return {k: p for k, p in dist.items() if p}


def close(exact: odds.Dist[Fraction], approx: odds.Dist[float]) -> bool:
    """Same outcomes, and every float within TOLERANCE of its exact value."""
    return exact.offset == approx.offset and all(
        abs(float(e) - a) <= TOLERANCE for e, a in zip(exact.probs, approx.probs, strict=True)
    )


def icepool_counter(p: Fraction) -> Any:
    """One try as an icepool die: 1 with probability p, else 0."""
    return icepool.Die({1: p.numerator, 0: p.denominator - p.numerator})


sides = st.integers(min_value=1, max_value=20)
counts = st.integers(min_value=0, max_value=12)
fractions = st.fractions(min_value=0, max_value=1, max_denominator=50)


# --- single dice and constants ------------------------------------------------------------------------------


@given(sides)
def test_die_is_uniform(n_sides: int) -> None:
    assert ours(odds.die(n_sides, exact=True)) == oracle(icepool.d(n_sides))
    assert odds.die(n_sides).outcomes() == range(1, n_sides + 1)


def test_constant() -> None:
    assert odds.constant(7, exact=True).to_dict() == {7: Fraction(1)}
    assert odds.constant(-2).to_dict() == {-2: 1.0}


def test_bad_dice_are_rules_errors() -> None:
    with pytest.raises(RulesError):
        odds.die(0)
    with pytest.raises(RulesError):
        odds.sum_of(-1, odds.die(6))
    with pytest.raises(RulesError):
        odds.binomial(-1, 0.5)
    with pytest.raises(RulesError):
        odds.keep_lowest(0, 20)
    with pytest.raises(ValueError, match="probability"):
        odds.binomial(3, 1.5)
    with pytest.raises(ValueError, match="outcome"):
        odds.Dist.from_mapping({})


# --- sums ---------------------------------------------------------------------------------------------------


@SETTINGS
@given(counts, sides)
def test_sum_of_matches_icepool(n: int, n_sides: int) -> None:
    exact = odds.sum_of(n, odds.die(n_sides, exact=True))
    assert ours(exact) == oracle(n @ icepool.d(n_sides))
    assert close(exact, odds.sum_of(n, odds.die(n_sides)))


weights = st.lists(st.integers(min_value=0, max_value=9), min_size=1, max_size=8).filter(any)


@SETTINGS
@given(counts, weights, st.integers(min_value=-3, max_value=3))
def test_sum_of_any_distribution_matches_icepool(n: int, weight_list: list[int], low: int) -> None:
    total = sum(weight_list)
    single = odds.Dist(low, tuple(Fraction(w, total) for w in weight_list))
    ice = icepool.Die({low + i: w for i, w in enumerate(weight_list) if w})
    exact = odds.sum_of(n, single)
    assert ours(exact) == oracle(n @ ice)
    assert close(exact, odds.sum_of(n, single.as_floats()))


@SETTINGS
@given(sides, sides, st.integers(min_value=-5, max_value=5))
def test_add_subtract_shift_match_icepool(a: int, b: int, bonus: int) -> None:
    x, y = odds.die(a, exact=True), odds.die(b, exact=True)
    assert ours(x + y) == oracle(icepool.d(a) + icepool.d(b))
    assert ours(x - y) == oracle(icepool.d(a) - icepool.d(b))
    assert ours(x + bonus) == ours(bonus + x) == oracle(icepool.d(a) + bonus)
    assert ours(-x) == oracle(-icepool.d(a))
    assert close(x + y, odds.die(a) + odds.die(b))
    assert close(x - y, odds.die(a) - odds.die(b))


def test_institute_pool_sum() -> None:
    # Institute sums pools of d6: 20 dice are well inside what the dialogs ask for.
    exact = odds.sum_of(20, odds.die(6, exact=True))
    assert ours(exact) == oracle(20 @ icepool.d6)
    assert exact.mean() == 70
    assert close(exact, odds.sum_of(20, odds.die(6)))


def test_sum_of_zero_dice_is_zero() -> None:
    assert odds.sum_of(0, odds.die(6, exact=True)).to_dict() == {0: 1}


# --- success counts -----------------------------------------------------------------------------------------


@SETTINGS
@given(st.integers(min_value=0, max_value=40), fractions)
def test_binomial_matches_icepool(n: int, p: Fraction) -> None:
    exact = odds.binomial(n, p)
    assert ours(exact) == oracle(n @ icepool_counter(p))
    assert exact.outcomes() == range(n + 1)
    assert close(exact, odds.binomial(n, float(p)))


@SETTINGS
@given(counts, sides, st.integers(min_value=0, max_value=22))
def test_count_successes_matches_icepool(n: int, n_sides: int, target: int) -> None:
    exact = odds.count_successes(n, odds.die(n_sides, exact=True), target)
    faces = [face for face in range(1, n_sides + 1) if face >= target]
    assert ours(exact) == oracle(icepool.d(n_sides).count(n, faces))


# --- keep lowest / highest ----------------------------------------------------------------------------------


@SETTINGS
@given(st.integers(min_value=1, max_value=8), sides)
def test_keep_lowest_and_highest_match_icepool(n: int, n_sides: int) -> None:
    assert ours(odds.keep_lowest(n, n_sides, exact=True)) == oracle(icepool.d(n_sides).lowest(n))
    assert ours(odds.keep_highest(n, n_sides, exact=True)) == oracle(icepool.d(n_sides).highest(n))
    assert ours(odds.keep_highest(n, n_sides, exact=True)) == oracle(icepool.d(n_sides).keep(n, -1))
    assert close(odds.keep_lowest(n, n_sides, exact=True), odds.keep_lowest(n, n_sides))
    assert close(odds.keep_highest(n, n_sides, exact=True), odds.keep_highest(n, n_sides))


@SETTINGS
@given(st.integers(min_value=1, max_value=5), st.integers(min_value=1, max_value=4))
def test_keep_of_any_distribution(n: int, dice: int) -> None:
    pool = odds.sum_of(dice, odds.die(6, exact=True))
    assert ours(odds.keep_highest(n, pool)) == oracle((dice @ icepool.d6).highest(n))
    assert ours(odds.keep_lowest(n, pool)) == oracle((dice @ icepool.d6).lowest(n))


def test_walka_bonus_die_keep_lowest_3d20() -> None:
    assert ours(odds.keep_lowest(3, 20, exact=True)) == oracle(icepool.d20.lowest(3))
    assert odds.keep_lowest(3, odds.die(20, exact=True)) == odds.keep_lowest(3, 20, exact=True)


# --- comparisons --------------------------------------------------------------------------------------------


@SETTINGS
@given(st.integers(min_value=1, max_value=3), sides, sides, st.integers(min_value=-8, max_value=8))
def test_compare_matches_icepool(n: int, a_sides: int, b_sides: int, bonus: int) -> None:
    a_ours = odds.sum_of(n, odds.die(a_sides, exact=True)) + bonus
    b_ours = odds.die(b_sides, exact=True)
    a_ice, b_ice = n @ icepool.d(a_sides) + bonus, icepool.d(b_sides)
    result = odds.compare(a_ours, b_ours)
    assert result.greater == (a_ice > b_ice).probability(True)
    assert result.equal == (a_ice == b_ice).probability(True)
    assert result.less == (a_ice < b_ice).probability(True)
    assert sum(result) == 1
    floats = odds.compare(a_ours.as_floats(), b_ours.as_floats())
    assert all(abs(float(e) - f) <= TOLERANCE for e, f in zip(result, floats, strict=True))


def test_compare_disjoint_ranges() -> None:
    low, high = odds.die(6, exact=True), odds.die(6, exact=True) + 10
    zero, one = Fraction(0), Fraction(1)
    assert odds.compare(low, high) == odds.Comparison(zero, zero, one)
    assert odds.compare(high, low) == odds.Comparison(one, zero, zero)


# --- queries ------------------------------------------------------------------------------------------------


@SETTINGS
@given(st.integers(min_value=1, max_value=4), sides, st.integers(min_value=-2, max_value=30))
def test_queries_match_icepool(n: int, n_sides: int, k: int) -> None:
    dist, ice = odds.sum_of(n, odds.die(n_sides, exact=True)), n @ icepool.d(n_sides)
    assert dist.at_least(k) == ice.probability(">=", k)
    assert dist.at_most(k) == ice.probability("<=", k)
    assert dist.probability(k) == ice.probability(k)
    assert dist.cdf() == list(ice.probabilities("<="))
    assert dist.survival() == list(ice.probabilities(">="))
    assert dist.mean() == ice.mean()
    assert dist.variance() == ice.variance()
    assert dist.sd() == pytest.approx(ice.standard_deviation(), abs=TOLERANCE)
    assert dist.total() == 1


@SETTINGS
@given(st.integers(min_value=1, max_value=3), sides, st.integers(min_value=0, max_value=15))
def test_map_and_clip_match_icepool(n: int, n_sides: int, cap: int) -> None:
    dist, ice = odds.sum_of(n, odds.die(n_sides, exact=True)), n @ icepool.d(n_sides)
    assert ours(dist.map(lambda x: x % 3)) == oracle(ice.map(lambda x: x % 3))
    assert ours(dist.clip(high=cap)) == oracle(ice.map(lambda x: min(x, cap)))
    assert ours(dist.clip(low=cap)) == oracle(ice.map(lambda x: max(x, cap)))


def test_clip_rejects_empty_range() -> None:
    with pytest.raises(ValueError, match="clip"):
        odds.die(6).clip(5, 2)


def test_as_floats_and_hashable() -> None:
    exact = odds.die(4, exact=True)
    assert exact.as_floats() == odds.die(4)
    assert len({exact, odds.die(4, exact=True)}) == 1


# --- exploding success counts (Člověk) ----------------------------------------------------------------------


def icepool_exploding(n: int, n_sides: int, success_at: int, explode_at: int, depth: int) -> Any:
    """Successes of n exploding dice; chains longer than ``depth`` land on a far-away sentinel."""
    one = icepool.d(n_sides).map(
        lambda face: 1 + icepool.Again if face >= explode_at else int(face >= success_at),
        again_depth=depth,
        again_end=10_000,
    )
    return n @ one


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=0, max_value=10), st.integers(min_value=5, max_value=10), st.data())
def test_exploding_pool_matches_icepool(n: int, success_at: int, data: st.DataObject) -> None:
    explode_at = data.draw(st.integers(min_value=max(success_at, 6), max_value=10))
    exact = odds.exploding_pool(n, 10, success_at, explode_at, exact=True)
    # Any total up to `depth` comes from chains no longer than `depth`, so those entries are exact in icepool.
    depth = len(exact.dist.probs)
    ice = oracle(icepool_exploding(n, 10, success_at, explode_at, depth))
    assert all(p == ice.get(k, 0) for k, p in exact.dist.items())
    assert exact.truncated == 1 - exact.dist.total()
    assert 0 <= exact.truncated < odds.DEFAULT_TAIL
    floats = odds.exploding_pool(n, 10, success_at, explode_at)
    # Rounding may stop the float series one outcome earlier or later; the tail beyond is below 1e-12.
    assert all(
        abs(float(exact.dist.probability(k)) - floats.dist.probability(k)) <= TOLERANCE
        for k in range(max(exact.dist.high, floats.dist.high) + 1)
    )
    assert abs(float(exact.truncated) - floats.truncated) <= TOLERANCE


def test_clovek_seed_stealth_one_die() -> None:
    # Stealth 1 dot: success on 9 or 10, a 10 rolls again. One die: 0 with 8/10, 1 with 1/10 + 1/10 · 8/10 …
    one = odds.exploding_pool(1, 10, 9, 10, exact=True).dist
    assert one.probability(0) == Fraction(8, 10)
    assert one.probability(1) == Fraction(1, 10) + Fraction(1, 10) * Fraction(8, 10)


def test_exploding_without_explosions_is_binomial() -> None:
    result = odds.exploding_successes(6, Fraction(1, 2), Fraction(0))
    assert result.dist == odds.binomial(6, Fraction(1, 2))
    assert result.truncated == 0


def test_exploding_rejects_impossible_dice() -> None:
    with pytest.raises(ValueError, match="success"):
        odds.exploding_pool(3, 10, 9, 8)
    with pytest.raises(ValueError, match="explode"):
        odds.exploding_successes(3, 1.0, 1.0)
