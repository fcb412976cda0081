"""Walka odds against icepool (test-only oracle): roll-under with bonus and penalty dice, d6 damage pools."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import Any

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.errors import RulesError
from rules.systems.walka import attack_win_probability, hp_loss_distribution
from rules.systems.walka.contest import Outcome, contest, threshold
from rules.systems.walka.odds import (
    exact_hit_points_lost,
    exact_kept_distribution,
    exact_outcome_chances,
    outcome_chances,
    success_probability,
)

TOLERANCE = 1e-12
skills = st.integers(min_value=-2, max_value=23)
extra_dice = st.integers(min_value=0, max_value=3)


@cache
def icepool_kept(die: int, bonus: int, penalty: int) -> Any:
    """The kept face: roll 1 + |net| dice, keep the lowest (net bonus) or the highest (net penalty)."""
    single = icepool.d(die)
    net = bonus - penalty
    if net == 0:
        return single
    dice = [single] * (1 + abs(net))
    return icepool.lowest(*dice) if net > 0 else icepool.highest(*dice)


def oracle_outcomes(attack_skill: int, defence_skill: int | None, die: int, ab: int, ap: int, db: int,
                    dp: int) -> dict[Outcome, Fraction]:
    """Every pair of kept rolls, judged by the rules' own contest (lowest success wins, tie to defender)."""
    attacker = icepool_kept(die, ab, ap)
    if defence_skill is None:
        judged = attacker.map(lambda a: contest(a, attack_skill, None, 0).value)
    else:
        defender = icepool_kept(die, db, dp)
        judged = icepool.map(lambda a, d: contest(a, attack_skill, d, defence_skill).value, attacker, defender)
    table = dict(zip(judged.outcomes(), judged.probabilities(), strict=True))
    return {outcome: table.get(outcome.value, Fraction(0)) for outcome in Outcome}


@settings(max_examples=120, deadline=None)
@given(skills, st.one_of(st.none(), skills), extra_dice, extra_dice, extra_dice, extra_dice)
def test_attack_outcomes_match_icepool_exactly(attack_skill: int, defence_skill: int | None, ab: int, ap: int,
                                              db: int, dp: int) -> None:
    exact = exact_outcome_chances(attack_skill, defence_skill, 20, ab, ap, db, dp)
    assert exact == oracle_outcomes(attack_skill, defence_skill, 20, ab, ap, db, dp)
    floats = outcome_chances(attack_skill, defence_skill, 20, ab, ap, db, dp)
    assert all(abs(floats[key] - float(exact[key])) < TOLERANCE for key in Outcome)


@pytest.mark.parametrize(("attack_skill", "defence_skill", "ab", "ap", "db", "dp"), [
    (45, 60, 0, 0, 0, 0), (45, 60, 1, 0, 0, 2), (80, 30, 0, 1, 1, 0), (1, 100, 2, 0, 0, 0), (100, 100, 0, 0, 0, 0),
])
def test_d100_outcomes_match_icepool_exactly(attack_skill: int, defence_skill: int, ab: int, ap: int, db: int,
                                             dp: int) -> None:
    assert exact_outcome_chances(attack_skill, defence_skill, 100, ab, ap, db, dp) == oracle_outcomes(
        attack_skill, defence_skill, 100, ab, ap, db, dp)


@given(skills, skills, extra_dice, extra_dice, extra_dice, extra_dice)
def test_attack_win_probability_is_the_chance_of_a_hit(attack_skill: int, defence_skill: int, ab: int, ap: int,
                                                       db: int, dp: int) -> None:
    exact = exact_outcome_chances(attack_skill, defence_skill, 20, ab, ap, db, dp)[Outcome.HIT]
    assert abs(attack_win_probability(attack_skill, defence_skill, 20, ab, ap, db, dp) - float(exact)) < TOLERANCE


def test_attack_win_probability_by_hand() -> None:
    # 10 against 10 on a d20: Σ over a = 1..10 of 1/20 · (20 − a)/20 = 145/400.
    assert attack_win_probability(10, 10) == pytest.approx(145 / 400, abs=TOLERANCE)
    assert attack_win_probability(20, 0) == pytest.approx(1.0)  # the defender never succeeds
    assert attack_win_probability(0, 20) == 0.0  # the attacker never succeeds
    assert attack_win_probability(20, 20) == pytest.approx(19 / 40)  # ties go to the defender
    assert attack_win_probability(10, 10, attack_bonus=1, attack_penalty=1) == attack_win_probability(10, 10)


def test_bonus_dice_help_and_penalty_dice_hurt() -> None:
    plain = attack_win_probability(12, 10)
    assert attack_win_probability(12, 10, attack_bonus=1) > plain > attack_win_probability(12, 10, attack_penalty=1)
    assert attack_win_probability(12, 10, defence_bonus=1) < plain < attack_win_probability(12, 10,
                                                                                          defence_penalty=1)


@pytest.mark.parametrize(("die", "bonus", "penalty"), [(20, 0, 0), (20, 2, 0), (20, 0, 3), (100, 1, 0), (100, 1, 2)])
def test_the_kept_face_matches_icepool(die: int, bonus: int, penalty: int) -> None:
    ours = exact_kept_distribution(die, bonus, penalty)
    oracle = icepool_kept(die, bonus, penalty)
    assert ours.to_dict() == dict(zip(oracle.outcomes(), oracle.probabilities(), strict=True))


def test_an_unaware_defender_leaves_only_the_attackers_roll() -> None:
    assert outcome_chances(12, None)[Outcome.HIT] == pytest.approx(success_probability(12)) == pytest.approx(0.6)
    assert outcome_chances(12, None)[Outcome.DEFENDED] == 0


@given(st.integers(min_value=0, max_value=40))
def test_hp_loss_distribution_matches_icepool(pool: int) -> None:
    oracle = pool @ (icepool.d6 >= 4) if pool else icepool.Die([0])
    table = dict(zip(oracle.outcomes(), oracle.probabilities(), strict=True))
    exact = exact_hit_points_lost(pool)
    assert list(exact.probs) == [table.get(k, Fraction(0)) for k in range(pool + 1)]
    floats = hp_loss_distribution(pool)
    assert len(floats) == pool + 1
    assert all(abs(f - float(e)) < TOLERANCE for f, e in zip(floats, exact.probs, strict=True))


def test_hp_loss_distribution_by_hand() -> None:
    assert hp_loss_distribution(0) == [1.0]
    assert hp_loss_distribution(1) == [0.5, 0.5]  # 4, 5, 6 of a d6
    assert hp_loss_distribution(3) == pytest.approx([1 / 8, 3 / 8, 3 / 8, 1 / 8])
    with pytest.raises(RulesError):
        hp_loss_distribution(-1)


def test_only_d20_and_d100() -> None:
    with pytest.raises(RulesError, match="d20 or a d100"):
        attack_win_probability(10, 10, die=12)


def _strict_judgement(a: int, d: int | None, attack_skill: int, defence_skill: int) -> str:
    """walka.md, the option "< the skill", written out: a roll equal to the skill fails; the lowest success wins,
    a tie to the defender."""
    if not a < attack_skill:
        return Outcome.MISSED.value
    if d is None or not d < defence_skill:
        return Outcome.HIT.value
    return Outcome.DEFENDED.value if d <= a else Outcome.HIT.value


@pytest.mark.parametrize(("attack_skill", "defence_skill", "ab", "ap", "db", "dp"), [
    (12, 9, 0, 0, 0, 0), (12, None, 1, 0, 0, 0), (1, 20, 0, 0, 2, 0), (20, 20, 0, 1, 0, 1), (7, 15, 2, 0, 0, 0),
])
def test_under_the_skill_by_option_matches_icepool(attack_skill: int, defence_skill: int | None, ab: int, ap: int,
                                                   db: int, dp: int) -> None:
    # walka.md Decision: "a roll succeeds if it is ≤ the skill (option: < the skill)".
    attacker = icepool_kept(20, ab, ap)
    if defence_skill is None:
        judged = attacker.map(lambda a: _strict_judgement(a, None, attack_skill, 0))
    else:
        defender = icepool_kept(20, db, dp)
        judged = icepool.map(lambda a, d: _strict_judgement(a, d, attack_skill, defence_skill), attacker, defender)
    table = dict(zip(judged.outcomes(), judged.probabilities(), strict=True))
    oracle = {outcome: table.get(outcome.value, Fraction(0)) for outcome in Outcome}
    ours = exact_outcome_chances(threshold(attack_skill, True),
                                 None if defence_skill is None else threshold(defence_skill, True), 20, ab, ap, db, dp)
    assert ours == oracle
