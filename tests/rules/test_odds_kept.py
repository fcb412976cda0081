"""The sum of the kept dice (the dice line's ``2d20kh1``, ``4d6kl3``) against icepool, the test-only oracle, and
against the dice line itself: every roll the parsed line can see, counted, gives the engine's distribution."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import odds
from rules.dice import parse
from rules.errors import RulesError
from tests.rules.test_odds import close, oracle, ours

SETTINGS = settings(max_examples=60, deadline=None)


def icepool_kept(n: int, sides: int, keep: int, lowest: bool) -> dict[int, Fraction]:
    pool = icepool.d(sides).pool(n)
    return oracle((pool.lowest(keep) if lowest else pool.highest(keep)).sum())


@SETTINGS
@given(st.integers(1, 8), st.integers(2, 12), st.integers(1, 8), st.booleans())
def test_sum_of_kept_matches_icepool(n: int, sides: int, keep: int, lowest: bool) -> None:
    keep = min(keep, n)
    exact = odds.sum_of_kept(n, sides, keep, lowest=lowest, exact=True)
    assert ours(exact) == icepool_kept(n, sides, keep, lowest)
    assert close(exact, odds.sum_of_kept(n, sides, keep, lowest=lowest))


@pytest.mark.parametrize(("n", "sides", "keep", "lowest"), [
    (4, 6, 3, False), (4, 6, 3, True), (2, 20, 1, False), (2, 20, 1, True), (5, 10, 2, False),
    (20, 20, 10, False), (12, 100, 6, True), (6, 100, 3, False),
])
def test_pools_a_table_rolls_match_icepool(n: int, sides: int, keep: int, lowest: bool) -> None:
    assert ours(odds.sum_of_kept(n, sides, keep, lowest=lowest, exact=True)) == icepool_kept(n, sides, keep, lowest)


def test_four_d6_drop_the_lowest_is_the_known_table() -> None:
    dist = odds.sum_of_kept(4, 6, 3, exact=True)
    assert dist.probability(18) == Fraction(21, 1296) and dist.probability(3) == Fraction(1, 1296)
    assert dist.mean() == Fraction(15869, 1296)


@pytest.mark.parametrize(("line", "n", "sides", "keep", "lowest"), [
    ("3d4kh2", 3, 4, 2, False), ("3d4kl2", 3, 4, 2, True), ("2d6kh", 2, 6, 1, False), ("4d3kl3", 4, 3, 3, True),
])
def test_the_dice_line_keeps_what_the_engine_counts(line: str, n: int, sides: int, keep: int, lowest: bool) -> None:
    expression = parse(line)
    totals = Counter(expression.from_chains([(face,) for face in faces]).total
                     for faces in itertools.product(range(1, sides + 1), repeat=n))
    counted = {total: Fraction(ways, sides**n) for total, ways in totals.items()}
    assert counted == ours(odds.sum_of_kept(n, sides, keep, lowest=lowest, exact=True))


def test_refusals() -> None:
    with pytest.raises(RulesError):
        odds.sum_of_kept(3, 6, 0)
    with pytest.raises(RulesError, match="cannot keep 4"):
        odds.sum_of_kept(3, 6, 4)
    with pytest.raises(RulesError, match="too much work"):
        odds.sum_of_kept(200, 1000, 100)
    assert odds.sum_of_kept(200, 1000, 1).high == 1000  # one die kept: the fast formula, any pool
    assert odds.sum_of_kept(200, 6, 200).high == 1200  # every die kept: a plain sum
