"""Souboj odds against icepool (the test-only oracle), exactly, and against hand-counted cases."""

from __future__ import annotations

from fractions import Fraction

import icepool
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.systems.souboj import attack_odds, damage
from rules.systems.souboj.model import Kind
from rules.systems.souboj.odds import margin_distribution
from rules.systems.souboj.tables import WEAPON_KINDS

MISS = -1  # damage is never negative, so -1 can stand for a miss (icepool sorts outcomes)
bonuses = st.integers(-15, 40)
kinds = st.sampled_from(WEAPON_KINDS)
small = st.integers(0, 12)


def oracle(attack_bonus: int, defence_bonus: int, kind: Kind, strength: int, armor: int,
           multiplier: int) -> dict[int, Fraction]:
    """icepool: (d6 + A) against (d6 + D), each pair of totals through the public ``damage`` function."""

    def outcome(attack: int, defence: int) -> int:
        if attack < defence + 1:
            return MISS
        return damage(attack, defence, kind.value, strength, armor) * multiplier

    die = icepool.map(outcome, icepool.d6 + attack_bonus, icepool.d6 + defence_bonus)
    return dict(zip(die.outcomes(), die.probabilities(), strict=True))


@settings(max_examples=300, deadline=None)
@given(bonuses, bonuses, kinds, small, small, st.sampled_from([1, 2, 4, 10]))
def test_attack_odds_equal_icepools_exactly(attack_bonus: int, defence_bonus: int, kind: Kind, strength: int,
                                            armor: int, multiplier: int) -> None:
    ours = attack_odds(attack_bonus, defence_bonus, kind, strength, armor, multiplier, exact=True)
    expected = oracle(attack_bonus, defence_bonus, kind, strength, armor, multiplier)
    assert ours.miss == expected.get(MISS, Fraction(0))
    assert dict(ours.damage) == {k: v for k, v in expected.items() if k != MISS}
    assert ours.miss + ours.hit() == 1


@given(bonuses, bonuses)
def test_the_margin_is_the_difference_of_two_d6(attack_bonus: int, defence_bonus: int) -> None:
    die = (icepool.d6 + attack_bonus) - (icepool.d6 + defence_bonus)
    assert margin_distribution(attack_bonus, defence_bonus).to_dict() == dict(
        zip(die.outcomes(), die.probabilities(), strict=True))


def test_floats_agree_with_the_exact_odds() -> None:
    exact = attack_odds(14, 7, Kind.MELEE, 8, 1, exact=True)
    floats = attack_odds(14, 7, Kind.MELEE, 8, 1)
    assert abs(floats.miss - float(exact.miss)) < 1e-15
    assert floats.damage.keys() == exact.damage.keys()


def test_hand_counted_equal_numbers() -> None:
    """Equal numbers on both sides: 15 of 36 pairs have the attacker's die higher, 21 miss."""
    odds = attack_odds(10, 10, Kind.FIREARM, exact=True)
    assert odds.miss == Fraction(21, 36)
    assert odds.damage == {1: Fraction(5, 36), 2: Fraction(4, 36), 3: Fraction(3, 36), 4: Fraction(2, 36),
                           5: Fraction(1, 36)}


def test_armor_that_takes_everything_is_a_hit_without_damage() -> None:
    odds = attack_odds(10, 10, Kind.RANGED, armor=3, exact=True)
    assert odds.damage[0] == Fraction(5 + 4 + 3, 36)  # margins 1 to 3
    assert odds.hit() == Fraction(15, 36)
