"""SR3 odds against icepool (test-only oracle) and against the seed example of sr3.md."""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache
from typing import Any

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import RulesError
from rules.systems.sr3 import odds
from rules.systems.sr3.levels import LEVELS, stage

TOLERANCE = 1e-12

dice_counts = st.integers(min_value=0, max_value=40)
target_numbers = st.integers(min_value=2, max_value=24)
small_pools = st.integers(min_value=0, max_value=20)
small_tns = st.integers(min_value=1, max_value=14)
levels = st.sampled_from(LEVELS)
#: Arguments of the attack functions: attack dice and TN, dodge dice and TN, body dice and TN, damage level.
Attack = tuple[int, int, int, int, int, int, str]
attacks = st.tuples(small_pools, small_tns, small_pools, small_tns, small_pools, small_tns, levels)


@cache
def icepool_successes(dice: int, tn: int) -> Any:
    """Successes of ``dice`` d6 against ``tn``: each die explodes on 6 often enough to reach any TN."""
    one = icepool.d6.explode(depth=math.ceil(tn / 6)).map(lambda total: int(total >= tn))
    return dice @ one


def as_list(die: Any, length: int) -> list[Fraction]:
    table = dict(zip(die.outcomes(), die.probabilities(), strict=True))
    return [table.get(k, Fraction(0)) for k in range(length)]


def oracle_outcomes(args: Attack) -> dict[str, Fraction]:
    """The ranged procedure of sr3.md, enumerated outcome by outcome from icepool's success counts."""
    attack_dice, attack_tn, dodge_dice, dodge_tn, body_dice, resist_tn, level = args
    tests = ((attack_dice, attack_tn), (dodge_dice, dodge_tn), (body_dice, resist_tn))
    a_die, d_die, r_die = (icepool_successes(dice, max(tn, 2)) for dice, tn in tests)
    result = dict.fromkeys(odds.OUTCOMES, Fraction(0))
    for a, pa in zip(a_die.outcomes(), a_die.probabilities(), strict=True):
        if a == 0:
            result["miss"] += pa
            continue
        for d, pd in zip(d_die.outcomes(), d_die.probabilities(), strict=True):
            if d > a:
                result["dodged"] += pa * pd
                continue
            for r, pr in zip(r_die.outcomes(), r_die.probabilities(), strict=True):
                result[stage(level, a - (d + r)) or "none"] += pa * pd * pr
    return result


def certain(successes: int) -> list[Fraction]:
    """A typed-in roll: exactly ``successes`` successes."""
    return [Fraction(0)] * successes + [Fraction(1)]


# --- one die and success tests -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tn", "expected"),
    [
        (2, Fraction(5, 6)),
        (4, Fraction(1, 2)),
        (6, Fraction(1, 6)),
        (7, Fraction(1, 6)),
        (8, Fraction(1, 6) * Fraction(5, 6)),
        (12, Fraction(1, 36)),
        (13, Fraction(1, 36)),
        (14, Fraction(1, 36) * Fraction(5, 6)),
        (18, Fraction(1, 216)),
        (1, Fraction(5, 6)),
        (-3, Fraction(5, 6)),
    ],
)
def test_success_probability_rule_of_six(tn: int, expected: Fraction) -> None:
    assert odds.success_fraction(tn) == expected
    assert odds.success_probability(tn) == pytest.approx(float(expected), abs=TOLERANCE)


@settings(max_examples=60, deadline=None)
@given(dice_counts, target_numbers)
def test_successes_distribution_matches_icepool(dice: int, tn: int) -> None:
    exact = odds.successes_distribution(dice, tn, exact=True)
    assert exact == as_list(icepool_successes(dice, tn), dice + 1)
    assert sum(exact) == 1
    floats = odds.successes_distribution(dice, tn)
    assert len(floats) == dice + 1
    assert all(abs(float(e) - f) <= TOLERANCE for e, f in zip(exact, floats, strict=True))


@settings(max_examples=30, deadline=None)
@given(dice_counts, st.integers(min_value=-10, max_value=1))
def test_tn_below_two_counts_as_two(dice: int, tn: int) -> None:
    floor = odds.successes_distribution(dice, 2, exact=True)
    assert odds.successes_distribution(dice, tn, exact=True) == floor
    assert odds.successes_distribution(dice, tn) == odds.successes_distribution(dice, 2)


def test_callers_cannot_poison_the_cache() -> None:
    first = odds.successes_distribution(3, 4)
    first[0] = 42.0
    assert odds.successes_distribution(3, 4)[0] == pytest.approx(1 / 8)


def test_clear_cache_keeps_results() -> None:
    before = odds.successes_distribution(12, 5, exact=True)
    odds.clear_cache()
    assert odds.successes_distribution(12, 5, exact=True) == before


def test_negative_dice_are_rules_errors() -> None:
    with pytest.raises(RulesError):
        odds.successes_distribution(-1, 4)
    with pytest.raises(RulesError):
        odds.damage_distribution(3, 4, -1, 4, 3, 4, "M")


def test_unknown_level_is_a_rules_error() -> None:
    with pytest.raises(RulesError):
        odds.attack_outcome_distribution(3, 4, 3, 4, 3, 4, "X")


# --- the attack procedure ----------------------------------------------------------------------------------


def test_seed_liam_versus_snot() -> None:
    # Liam: 5 successes, Predator 9M. Snot dodges 2 and resists 1: net +2 stages M to S.
    seed = odds.outcomes_from_successes(certain(5), certain(2), certain(1), "M")
    assert seed["S"] == 1
    assert stage("M", 5 - (2 + 1)) == "S"
    # Snot needs 4 net successes (9 in all) to take nothing; 3 net only stages down to L.
    assert odds.outcomes_from_successes(certain(5), certain(2), certain(7), "M")["none"] == 1
    assert odds.outcomes_from_successes(certain(5), certain(2), certain(6), "M")["L"] == 1


def test_typed_in_dodge_above_attack_is_dodged_and_zero_is_a_miss() -> None:
    assert odds.outcomes_from_successes(certain(3), certain(4), certain(0), "D")["dodged"] == 1
    assert odds.outcomes_from_successes(certain(3), certain(3), certain(0), "L")["L"] == 1
    assert odds.outcomes_from_successes(certain(0), certain(0), certain(0), "D")["miss"] == 1


@settings(max_examples=25, deadline=None)
@given(attacks)
def test_attack_outcomes_match_icepool(args: Attack) -> None:
    expected = oracle_outcomes(args)
    exact = odds.attack_outcome_distribution(*args, exact=True)
    assert exact == expected
    assert list(exact) == list(odds.OUTCOMES)
    damage = odds.damage_distribution(*args, exact=True)
    assert list(damage) == list(odds.DAMAGE_KEYS)
    assert damage[None] == expected["miss"] + expected["dodged"] + expected["none"]
    assert all(damage[key] == expected[key] for key in LEVELS)


def test_largest_pools_match_icepool() -> None:
    args: Attack = (20, 4, 20, 4, 20, 4, "M")
    assert odds.attack_outcome_distribution(*args, exact=True) == oracle_outcomes(args)


@settings(max_examples=40, deadline=None)
@given(attacks)
def test_probabilities_sum_to_one_and_floats_agree(args: Attack) -> None:
    exact, floats = odds.damage_distribution(*args, exact=True), odds.damage_distribution(*args)
    assert sum(exact.values()) == 1
    assert sum(floats.values()) == pytest.approx(1, abs=TOLERANCE)
    assert all(abs(float(exact[key]) - floats[key]) <= TOLERANCE for key in odds.DAMAGE_KEYS)
    outcomes = odds.attack_outcome_distribution(*args)
    assert sum(outcomes.values()) == pytest.approx(1, abs=TOLERANCE)


@settings(max_examples=40, deadline=None)
@given(attacks)
def test_no_dodge_dice_means_no_dodge(args: Attack) -> None:
    attack_dice, attack_tn, _, dodge_tn, body_dice, resist_tn, level = args
    outcomes = odds.attack_outcome_distribution(attack_dice, attack_tn, 0, dodge_tn, body_dice, resist_tn, level)
    assert outcomes["dodged"] == 0
    assert outcomes["miss"] == pytest.approx(odds.successes_distribution(attack_dice, attack_tn)[0])


def hit(outcomes: dict[str, Fraction]) -> Fraction:
    return 1 - outcomes["miss"] - outcomes["dodged"]


def at_least_level(outcomes: dict[str, Fraction], level: str) -> Fraction:
    return sum((outcomes[key] for key in LEVELS[LEVELS.index(level) :]), Fraction(0))


@settings(max_examples=40, deadline=None)
@given(attacks)
def test_more_attack_dice_never_hurt_the_attacker(args: Attack) -> None:
    attack_dice, attack_tn, dodge_dice, dodge_tn, body_dice, resist_tn, level = args
    rest = (dodge_dice, dodge_tn, body_dice, resist_tn, level)
    fewer = odds.attack_outcome_distribution(attack_dice, attack_tn, *rest, exact=True)
    more = odds.attack_outcome_distribution(attack_dice + 1, attack_tn, *rest, exact=True)
    assert hit(more) >= hit(fewer)
    for threshold in LEVELS:
        assert at_least_level(more, threshold) >= at_least_level(fewer, threshold)


def test_labels_cover_every_outcome() -> None:
    assert set(odds.OUTCOME_LABELS) == set(odds.OUTCOMES)
    assert all(isinstance(label, str) and label for label in odds.OUTCOME_LABELS.values())


def test_zero_dice_everywhere() -> None:
    outcomes = odds.attack_outcome_distribution(0, 4, 0, 4, 0, 4, "S", exact=True)
    assert outcomes["miss"] == 1
    assert sum(outcomes.values()) == 1
    no_body = odds.attack_outcome_distribution(1, 2, 0, 4, 0, 4, "S", exact=True)
    assert no_body["S"] == Fraction(5, 6)
