"""Institute odds against icepool (the test-only oracle): summed d6 pools, contests, wound classes."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import Any

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.systems.institut import (
    attack_outcome_distribution,
    hit_probability,
    pool_total,
    success_probability,
    throw_distribution,
    wound_class,
    wound_class_distribution,
)
from rules.systems.institut.combat import Defence, DodgeTie
from rules.systems.institut.odds import MISS, NO_WOUND, OUTCOMES
from rules.systems.institut.pyramid import CLASSES, pyramid_from_rows

pools = st.integers(min_value=0, max_value=16)
difficulties = st.integers(min_value=-2, max_value=100)
pyramids = st.lists(st.integers(1, 12), min_size=5, max_size=5).map(
    lambda steps: pyramid_from_rows([(sum(steps[: i + 1]), 1, 0) for i in range(5)]))


@cache
def oracle_total(dice: int) -> Any:
    """icepool's summed pool (no dice: a certain 0)."""
    return dice @ icepool.d6 if dice else icepool.Die([0])


def table(die: Any) -> dict[int, Fraction]:
    return {int(k): Fraction(v) for k, v in zip(die.outcomes(), die.probabilities(), strict=True)}


@settings(max_examples=60, deadline=None)
@given(pools)
def test_a_pool_total_equals_icepools_sum_exactly(dice: int) -> None:
    assert pool_total(dice, exact=True).to_dict() == table(oracle_total(dice))


@settings(max_examples=80, deadline=None)
@given(pools, difficulties)
def test_reaching_a_difficulty_equals_icepool(dice: int, difficulty: int) -> None:
    expected = sum((p for total, p in table(oracle_total(dice)).items() if total >= difficulty), Fraction(0))
    assert success_probability(dice, difficulty, exact=True) == expected
    assert success_probability(dice, difficulty) == pytest.approx(float(expected), abs=1e-12)


@settings(max_examples=80, deadline=None)
@given(pools, pools, st.sampled_from(list(Defence)), st.sampled_from(list(DodgeTie)))
def test_opposed_pools_equal_icepool(attack: int, defence_dice: int, defence: Defence, tie: DodgeTie) -> None:
    if defence is Defence.DIFFICULTY:
        return
    strict = defence is Defence.DODGE and tie is DodgeTie.DEFENDER
    contest = (oracle_total(attack) > oracle_total(defence_dice)) if strict else (
        oracle_total(attack) >= oracle_total(defence_dice))
    expected = table(contest.map(int, star=False)).get(1, Fraction(0))
    assert hit_probability(attack, defence, defence_dice, tie, exact=True) == expected


@settings(max_examples=60, deadline=None)
@given(pools, pyramids)
def test_wound_class_distribution_equals_icepool(dice: int, pyramid: Any) -> None:
    index: dict[str | None, int] = {None: -1, **{key: n for n, key in enumerate(CLASSES)}}
    oracle = table(oracle_total(dice).map(lambda total: index[pyramid.classify(total)], star=False))
    ours = wound_class_distribution(dice, pyramid, exact=True)
    assert {index[key]: p for key, p in ours.items() if p} == oracle


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 10), st.integers(0, 10), st.integers(0, 10), st.sampled_from(list(Defence)),
       st.integers(0, 40))
def test_the_whole_attack_equals_icepool_enumerated(attack: int, defence_dice: int, damage: int,
                                                    defence: Defence, difficulty: int) -> None:
    opposing = difficulty if defence is Defence.DIFFICULTY else defence_dice
    if defence is Defence.DIFFICULTY:
        p_hit = table((oracle_total(attack) >= difficulty).map(int, star=False)).get(1, Fraction(0))
    else:
        p_hit = table((oracle_total(attack) >= oracle_total(defence_dice)).map(int, star=False)).get(1, Fraction(0))
    classes = table(oracle_total(damage).map(lambda total: (CLASSES.index(c) if (c := wound_class(total)) else -1),
                                             star=False))
    expected: dict[str, Fraction] = {MISS: 1 - p_hit, NO_WOUND: p_hit * classes.get(-1, Fraction(0))}
    expected.update({key: p_hit * classes.get(n, Fraction(0)) for n, key in enumerate(CLASSES)})
    ours = attack_outcome_distribution(attack, defence, opposing, damage, exact=True)
    assert ours == expected
    assert sum(ours.values()) == 1
    floats = attack_outcome_distribution(attack, defence, opposing, damage)
    assert all(floats[key] == pytest.approx(float(expected[key]), abs=1e-12) for key in OUTCOMES)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 12), st.integers(0, 60))
def test_grenade_deviation_equals_icepool(dice: int, distance: int) -> None:
    expected: dict[int, Fraction] = {}
    for total, p in table(oracle_total(dice)).items():
        off = max(0, distance - total)
        expected[off] = expected.get(off, Fraction(0)) + p
    assert throw_distribution(dice, distance, exact=True) == expected


def test_a_hit_without_damage_roll_is_one_outcome() -> None:
    odds = attack_outcome_distribution(3, Defence.DIFFICULTY, 10, None, exact=True)
    assert odds == {MISS: 1 - success_probability(3, 10, exact=True), "hit": success_probability(3, 10, exact=True)}


def test_known_values() -> None:
    """1d6 reaches 4 half the time; 2d6 reaches 7 with 21/36; 3 damage dice wound with 212/216."""
    assert success_probability(1, 4, exact=True) == Fraction(1, 2)
    assert success_probability(2, 7, exact=True) == Fraction(21, 36)
    light_or_worse = 1 - wound_class_distribution(3, exact=True)[None]
    assert light_or_worse == Fraction(216 - 4, 216)  # totals 3 and 4: 1 + 3 ways below 5
