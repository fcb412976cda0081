"""Člověk's two Rolling Decisions as encounter options (clovek.md "Rolling"), from the digest's text and numbers.

- "A die succeeds on ≥ 10 − skill … Decision: floor 5 for every skill (default); option: supernatural skills only."
- "Supernatural skills reroll every die showing ≥ 15 − skill. Decision: when 15 − skill is below the success number
  (skill 11+), only successful dice reroll (default); option: literal."

The odds of both readings are compared with icepool (test-only oracle), each die an absorbing chain of rolls, so
failed dice that reroll are counted exactly.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.combatants import SetOption
from rules.dice import DiceError
from rules.errors import RulesError
from rules.history import History
from rules.systems import all_systems
from rules.systems.base import DiceSpec
from rules.systems.clovek import ClovekCheck, PowerRoll, SkillRoll
from rules.systems.clovek.dice import CRITICAL_RANGE, ClovekTest, RollRules, SkillKind, read_clovek_faces
from rules.systems.clovek.odds import PowerSpec, exact_roll_odds, outcome_odds, power_odds, roll_odds
from rules.systems.clovek.outcomes import check_probability
from rules.systems.clovek.rolls import (
    FLOOR_SUPERNATURAL,
    REROLL_LITERAL,
    SUCCESS_FLOOR,
    SUPERNATURAL_REROLL,
    PowerSource,
    evaluate_check,
    reroll_number,
    resolve_power,
    success_number,
)
from tests.rules.test_clovek_rules import beatrice_first

EVERY = RollRules()
SUPERNATURAL_ONLY = RollRules(floor_every_skill=False)
LITERAL = RollRules(literal_reroll=True)
BOTH = RollRules(floor_every_skill=False, literal_reroll=True)
ALL_RULES = (EVERY, SUPERNATURAL_ONLY, LITERAL, BOTH)

# --- the numbers ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", ALL_RULES)
def test_the_seeds_rolls_read_the_same_under_every_reading(rules: RollRules) -> None:
    # "Stealth 1 dot (≥ 9), 4 dice: 2, 9, 5, 0 → 9 and 10 succeed; the 0 rerolls 2 → 2 successes".
    assert success_number(1, False, rules) == 9
    assert evaluate_check(((2,), (9,), (5,), (10, 2)), 1, SkillKind.ABILITY, rules=rules).rolled == 2
    # "Physics (knowledge) 3 dots (≥ 7) … no success, several dice in 1–4 → critical failure"; 4 dots: 1 success.
    physics = ((2,), (4,), (5,), (3,), (6,), (1,), (2,), (5,))
    assert evaluate_check(physics, 3, SkillKind.KNOWLEDGE, rules=rules).critical
    four = evaluate_check(physics, 4, SkillKind.KNOWLEDGE, rules=rules)
    assert (four.rolled, four.critical) == (1, False)


def test_the_floor_of_5_binds_every_skill_by_default_and_only_supernatural_ones_by_option() -> None:
    # "≥ 10 − skill … floor 5 for every skill (default); option: supernatural skills only".
    assert [success_number(skill) for skill in (4, 5, 6, 7, 9)] == [6, 5, 5, 5, 5]
    assert [success_number(skill, True) for skill in (6, 7)] == [5, 5]
    assert [success_number(skill, False, SUPERNATURAL_ONLY) for skill in (5, 6, 7, 9, 12)] == [5, 4, 3, 1, 1]
    assert [success_number(skill, True, SUPERNATURAL_ONLY) for skill in (6, 7, 12)] == [5, 5, 5]


def test_a_skill_of_7_by_the_option_succeeds_on_3_and_its_critical_range_shrinks_to_the_failed_faces() -> None:
    # Knowledge 7, not supernatural, floor only for supernatural skills: 3 and 4 succeed although in the range 1–4.
    assert evaluate_check(((3,), (4,)), 7, SkillKind.KNOWLEDGE, rules=SUPERNATURAL_ONLY).rolled == 2
    assert evaluate_check(((3,), (4,)), 7, SkillKind.KNOWLEDGE).rolled == 0  # the default: ≥ 5
    assert evaluate_check(((3,), (4,)), 7, SkillKind.KNOWLEDGE).critical
    crit = evaluate_check(((2,), (1,)), 7, SkillKind.KNOWLEDGE, rules=SUPERNATURAL_ONLY)
    assert crit.critical and crit.rolled == 0


def test_a_supernatural_skill_rerolls_from_15_minus_skill_and_from_11_only_its_successes_by_default() -> None:
    # "Supernatural skills reroll every die showing ≥ 15 − skill": skill 8 rerolls 7 or more under both readings.
    assert reroll_number(8, True) == reroll_number(8, True, LITERAL) == 7
    # Skill 12: 15 − 12 = 3, below the success number 5: default only successes (≥ 5) reroll; literally ≥ 3.
    assert reroll_number(12, True) == 5
    assert reroll_number(12, True, LITERAL) == 3
    # "Decision: … only successful dice reroll (default; the reroll is 'for further successes')".
    assert evaluate_check(((3,), (6, 2)), 12, SkillKind.ABILITY, True).rolled == 1
    # Literal: the 3 fails but rerolls (10: a success, rerolled again: 2 ends it).
    assert evaluate_check(((3, 10, 2), (6, 2)), 12, SkillKind.ABILITY, True, rules=LITERAL).rolled == 2
    # A 1 never rerolls, or a literal skill 14+ would roll forever.
    assert reroll_number(14, True, LITERAL) == reroll_number(20, True, LITERAL) == 2


def test_typed_chains_follow_the_reading() -> None:
    roll = SkillRoll("physical", ((3, 10, 2),), 12, supernatural=True)
    with pytest.raises(DiceError, match="5 or more is rolled again"):
        roll.checked()
    assert roll.checked(LITERAL) == ((3, 10, 2),)
    with pytest.raises(DiceError, match="type the reroll"):
        SkillRoll("physical", ((3,),), 12, supernatural=True).checked(LITERAL)


def test_power_rolls_follow_the_floor_as_skills_that_are_not_supernatural() -> None:
    # "Hod funguje totožně s hodem na dovednost": Constitution 7 succeeds on 5 (default) or 3 (option).
    assert resolve_power(PowerSource.ATTRIBUTE, 7, ((3,), (4,))).total == 4  # base 4, no success
    assert resolve_power(PowerSource.ATTRIBUTE, 7, ((3,), (4,)), rules=SUPERNATURAL_ONLY).total == 6
    # Cesare (Constitution 4, ≥ 6): 7, 0 (rerolls 6 → 3), 1 → power 5 under either reading.
    for rules in (EVERY, SUPERNATURAL_ONLY):
        assert resolve_power(PowerSource.ATTRIBUTE, 4, ((7,), (10, 6, 3), (1,)), rules=rules).total == 5


# --- the operation reads the encounter's options --------------------------------------------------------------


def set_options(history: History, floor: str | None = None, reroll: str | None = None) -> None:
    if floor is not None:
        history.do(SetOption(SUCCESS_FLOOR, floor))
    if reroll is not None:
        history.do(SetOption(SUPERNATURAL_REROLL, reroll))


def test_a_check_counts_by_the_encounters_floor_and_an_undo_restores_the_default() -> None:
    history = beatrice_first()
    roll = SkillRoll("physical", ((3,), (4,)), 7, skill_name="Fencing")
    entry = history.do(ClovekCheck("b", roll))
    assert "0 successes: failure" in entry.text()
    history.undo()
    set_options(history, floor=FLOOR_SUPERNATURAL)
    entry = history.do(ClovekCheck("b", roll))
    assert "2 successes: full success" in entry.text()
    history.undo()
    history.undo()  # the option
    assert "0 successes" in history.do(ClovekCheck("b", roll)).text()


def test_a_check_rerolls_by_the_encounters_reading_and_a_wrong_chain_is_refused_with_the_rule() -> None:
    history = beatrice_first()
    literal = SkillRoll("physical", ((3, 10, 2), (6, 2)), 12, supernatural=True)
    with pytest.raises(DiceError, match="5 or more"):
        history.do(ClovekCheck("b", literal))
    set_options(history, reroll=REROLL_LITERAL)
    assert "2 successes" in history.do(ClovekCheck("b", literal)).text()


def test_the_power_in_a_check_follows_the_floor() -> None:
    history = beatrice_first()
    set_options(history, floor=FLOOR_SUPERNATURAL)
    check = ClovekCheck("b", SkillRoll("physical", ((9,),), 1), target="c",
                        power=PowerRoll(PowerSource.ATTRIBUTE, 7, ((3,),)), track="physical_wounds")
    history.do(check)
    assert history.state.combatant("c").boxes("physical_wounds") == 5  # base 4 + the 3 (≥ 3)


def test_the_logged_odds_of_a_check_use_the_encounters_reading() -> None:
    system = all_systems()["clovek"]
    history = beatrice_first()
    check = ClovekCheck("b", SkillRoll("physical", ((3,), (4,)), 7))
    default = system.outcome_probability(check, history.state)
    set_options(history, floor=FLOOR_SUPERNATURAL)
    by_option = system.outcome_probability(check, history.state)
    assert default == pytest.approx(check_probability(check))
    assert by_option == pytest.approx(check_probability(check, SUPERNATURAL_ONLY))
    assert default != by_option


def test_the_options_are_choices_and_refuse_anything_else() -> None:
    system = all_systems()["clovek"]
    specs = {spec.key: spec for spec in system.option_specs()}
    assert specs[SUCCESS_FLOOR].default == "every_skill"
    assert specs[SUPERNATURAL_REROLL].default == "successes"
    with pytest.raises(RulesError):
        system.validate_option(specs[SUCCESS_FLOOR], "sometimes")


# --- odds against icepool -----------------------------------------------------------------------------------

#: A die's chain stops counting here (states must be finite); totals below it are exact.
CAP = 30
BIG = 10**6


def icepool_die(success_at: int, reroll_at: int, top: int) -> Any:
    """One die as an absorbing chain of rolls: successes, whether its first face was a failed critical one."""

    def step(count: int, critical: bool, rolling: bool, first: bool) -> Any:
        if not rolling:
            return count, critical, False, False
        return icepool.d10.map(lambda face: (min(CAP, count + (face >= success_at)),
                                             critical or (first and face <= top and face < success_at),
                                             face >= reroll_at and count + (face >= success_at) < CAP, False))

    chain = icepool.Die([(0, False, True, True)]).map(step, star=True, repeat="inf")
    return chain.map(lambda count, critical, _rolling, _first: count + (BIG if critical else 0), star=True)


def icepool_roll(dice: int, success_at: int, reroll_at: int, top: int) -> tuple[dict[int, Fraction], Fraction]:
    """(P(k successes) for k below the cap, P(critical failure))."""
    pool = dice @ icepool_die(success_at, reroll_at, top) if dice else icepool.Die([0])
    counts: dict[int, Fraction] = {}
    critical = Fraction(0)
    for total, p in zip(pool.outcomes(), pool.probabilities(), strict=True):
        counts[total % BIG] = counts.get(total % BIG, Fraction(0)) + Fraction(p)
        if total >= BIG and total % BIG == 0:
            critical += Fraction(p)
    return counts, critical


rules_strategy = st.sampled_from(ALL_RULES)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 5), st.integers(0, 20), st.sampled_from(list(SkillKind)), st.booleans(), rules_strategy)
def test_roll_odds_match_icepool_exactly_under_every_reading(dice: int, skill: int, kind: SkillKind,
                                                              supernatural: bool, rules: RollRules) -> None:
    ours = exact_roll_odds(dice, skill, kind, supernatural, rules)
    counts, critical = icepool_roll(dice, success_number(skill, supernatural, rules),
                                    reroll_number(skill, supernatural, rules), CRITICAL_RANGE[kind])
    assert all(p == counts.get(k, 0) for k, p in ours.dist.items() if k < CAP - 1)
    assert ours.critical == critical
    floats = roll_odds(dice, skill, kind, supernatural, rules)
    assert abs(floats.critical - float(critical)) < 1e-12


def test_a_literal_reroll_adds_successes_to_the_odds() -> None:
    # Skill 12 supernatural, 1 die: by default ≥ 5 succeeds and rerolls; literally 3 and 4 reroll too.
    default = exact_roll_odds(1, 12, SkillKind.ABILITY, True)
    literal = exact_roll_odds(1, 12, SkillKind.ABILITY, True, LITERAL)
    assert default.dist.probability(0) == Fraction(4, 10)
    # No success: a face 1–2 at once, or 3–4 and then no success again: q = 2/10 + 2/10·q → q = 1/4.
    assert literal.dist.probability(0) == Fraction(1, 4)
    assert outcome_odds(literal)["failure"] + outcome_odds(literal)["critical"] == Fraction(1, 4)


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 4), st.integers(0, 12), st.sampled_from([EVERY, SUPERNATURAL_ONLY]))
def test_power_odds_follow_the_floor_as_icepool_says(dice: int, value: int, rules: RollRules) -> None:
    ours = power_odds(Fraction(1), dice, PowerSpec(PowerSource.ATTRIBUTE, value, rules=rules))
    counts, critical = icepool_roll(dice, success_number(value, False, rules), 10, 2)
    base = (value + 1) // 2
    # "No power success: … still the base"; a critical failure: power 1.
    theirs = {1: critical}
    for rolled, p in counts.items():
        power = base + rolled
        theirs[power] = theirs.get(power, Fraction(0)) + (p - critical if rolled == 0 else p)
    assert all(p == theirs.get(k, 0) for k, p in ours.items() if k < base + CAP - 1)


# --- two-digit d10s -------------------------------------------------------------------------------------------


def test_two_digit_faces_read_as_the_digest_says() -> None:
    # clovek.md "Dice banks": "On d10s with two-digit faces ignore the second digit: "10" = 1, "20" = 2, "00" = 10".
    assert read_clovek_faces("10", two_digit=True) == "1"
    assert read_clovek_faces("20, 00", two_digit=True) == "2, 10"
    assert read_clovek_faces("10, 20, 00") == "1, 2, 10"  # another face spelled so: the dice have two digits
    assert read_clovek_faces("10+3") == "10+3"  # a 0–9 die's ten (typed 10), rerolled: as before
    assert read_clovek_faces("2, 9, 5, 0+2") == "2, 9, 5, 0+2"
    with pytest.raises(DiceError, match="“35” is no d10 face"):
        read_clovek_faces("35, 1")
    with pytest.raises(DiceError, match="“11” is no d10 face"):
        read_clovek_faces("11", two_digit=True)


def test_the_seeds_stealth_roll_typed_on_two_digit_dice_is_the_same_roll_shown_as_read() -> None:
    # "Stealth 1 dot (≥ 9), 4 dice: 2, 9, 5, 0 → 9 and 10 succeed; the 0 rerolls 2 → 2 successes".
    test = ClovekTest(4, 1)
    result = test.from_faces("20, 90, 50, 00+20")
    assert result.faces == ((2,), (9,), (5,), (10, 2)) and result.successes == 2
    assert test.summarize(result) == "2 successes, full success (read as 2, 9, 5, 10+2)"
    plain = test.from_faces("2, 9, 5, 0+2")
    assert test.summarize(plain) == "2 successes, full success"
    # With the table's dice set to two digits, "10" is a 1: no reroll, no success.
    ones = ClovekTest(2, 1, rules=RollRules(two_digit_faces=True)).from_faces("10, 10")
    assert ones.faces == ((1,), (1,)) and ones.successes == 0


def test_initiative_faces_typed_on_two_digit_dice_and_totals_left_alone() -> None:
    system = all_systems()["clovek"]
    history = beatrice_first()
    spec = DiceSpec(5, 10, 2)
    assert system.typed_faces("20, 50, 70, 80, 30", spec, history.state) == "2, 5, 7, 8, 3"
    assert system.typed_faces("=20", spec, history.state) == "=20"
    assert system.typed_faces("12", spec, history.state) == "12"  # a lone number for five dice: the total
    assert system.typed_faces("10", DiceSpec(1, 10, 2), history.state) == "10"
    history.do(SetOption("d10_faces", "two_digit"))
    assert system.typed_faces("10", DiceSpec(1, 10, 2), history.state) == "1"
