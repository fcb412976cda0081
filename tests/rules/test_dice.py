"""Tests for the dice line: the parser, rolling, typed-in faces and the game helpers (rules/dice*.py)."""

from __future__ import annotations

import ast
import contextlib
import gettext
import random
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import text
from rules.dice import (
    MAX_REROLLS,
    DiceError,
    DiceExpression,
    DiceTerm,
    Roller,
    RollResult,
    RollUnderTest,
    SumExpression,
    ThresholdCount,
    format_faces,
    roll_under_kept,
)
from rules.systems.clovek.dice import (
    ClovekResult,
    ClovekTest,
    SkillKind,
    clovek_critical_failure,
    clovek_outcome,
    clovek_reroll_number,
    clovek_success_number,
    count_clovek_successes,
)
from rules.systems.sr3.dice import Sr3Result, TargetNumberTest, count_sr3_successes, rule_of_one, sr3_die_total
from tests.rules.dice_context import parse

RULES_DIR = Path(__file__).resolve().parents[2] / "rules"
#: Hang guard, not a benchmark: a parse that backtracks without end takes seconds of CPU on a few hundred
#: characters. CPU time of this process, not wall time: a shared machine's stolen time is no hang (wall time
#: failed a 50 ms guard at 134 ms under xdist on a contended 2-core host).
HANG_GUARD_SECONDS = 1.0


def typed(expression: str, faces: str) -> RollResult:
    """Parse ``expression`` (in its game's context) and read ``faces`` typed in for it."""
    return parse(expression).from_faces(faces)


def sr3_typed(expression: str, faces: str) -> Sr3Result:
    """:func:`typed` for an SR3 success test, whose result also tells the rule of one."""
    result = typed(expression, faces)
    assert isinstance(result, Sr3Result)
    return result


def clovek_typed(expression: str, faces: str) -> ClovekResult:
    """:func:`typed` for a Člověk test, whose result also tells a critical failure."""
    result = typed(expression, faces)
    assert isinstance(result, ClovekResult)
    return result


class AlwaysTop(random.Random):
    """A rigged generator: every die shows its highest face, so every chain explodes as far as allowed."""

    def randint(self, a: int, b: int) -> int:
        return b


# --- Worked examples from the rule digests ---------------------------------------------------------------


def test_sr3_seed_example_tn_4() -> None:
    result = sr3_typed("10d6 tn 4", "3,4,3,2,5,5,1,2,6,5")
    assert result.successes == 5
    assert result.total == 5
    assert not result.rule_of_one


def test_sr3_seed_example_tn_5() -> None:
    assert typed("10d6 tn 5", "3,4,3,2,5,5,1,2,6,5").successes == 4


def test_sr3_tn_8_needs_a_six_then_two() -> None:
    assert typed("d6 tn 8", "6+1").successes == 0
    assert typed("d6 tn 8", "6+2").successes == 1


def test_sr3_tn_12_needs_six_then_six() -> None:
    assert typed("d6 tn 12", "6+6").successes == 1
    assert typed("d6 tn 12", "6+5").successes == 0


def test_sr3_tn_13_needs_six_six_then_one() -> None:
    result = typed("d6 tn 13", "6+6+1")
    assert result.successes == 1
    assert result.faces == ((6, 6, 1),)
    with pytest.raises(DiceError, match="At TN 13 a 6 is rolled again"):
        typed("d6 tn 13", "6+6")


def test_sr3_rule_of_one() -> None:
    result = sr3_typed("3d6 tn 2", "1,1,1")
    assert result.rule_of_one
    assert result.successes == 0
    assert "rule of one" in result.describe()
    assert not sr3_typed("3d6 tn 2", "1,1,2").rule_of_one


def test_clovek_stealth_example() -> None:
    result = clovek_typed("4d10 skill 1 ability", "2,9,5,0+2")
    assert result.faces == ((2,), (9,), (5,), (10, 2))
    assert result.successes == 2
    assert result.outcome_text() == "full success"
    assert not result.critical_failure


def test_clovek_physics_example_critical_failure() -> None:
    result = clovek_typed("8d10 skill 3 knowledge", "2,4,5,3,6,1,2,5")
    assert result.successes == 0
    assert result.critical_failure
    assert result.outcome_text() == "critical failure"


def test_clovek_physics_example_with_four_dots() -> None:
    result = clovek_typed("8d10 skill 4 knowledge", "2,4,5,3,6,1,2,5")
    assert result.successes == 1
    assert not result.critical_failure
    assert result.outcome_text() == "basic success"


def test_walka_damage_counts_fours() -> None:
    assert typed("5d6 >= 4", "1,4,6,3,5").successes == 3


# --- Roller ----------------------------------------------------------------------------------------------


def test_seeded_rollers_repeat() -> None:
    assert Roller.seeded(7).dice(20, 6) == Roller.seeded(7).dice(20, 6)


def test_roller_uses_the_injected_random() -> None:
    assert Roller(AlwaysTop()).dice(3, 8) == [8, 8, 8]


def test_roller_refuses_a_die_without_sides() -> None:
    with pytest.raises(DiceError):
        Roller.seeded(1).die(0)


def test_no_global_random_state_in_rules() -> None:
    # Only random.Random may be named: random.randint() & co. would use the module's hidden global state.
    for path in RULES_DIR.glob("dice*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "random"
            ):
                assert node.attr == "Random", f"{path.name} uses random.{node.attr}"
            if isinstance(node, ast.ImportFrom):
                assert node.module != "random", f"{path.name} imports from random"


@pytest.mark.parametrize(
    ("expression", "length"),
    [("3d6 tn 1000", MAX_REROLLS + 1), ("3d10 skill 3", MAX_REROLLS + 1), ("3d6 tn 8", 2), ("3d6", 1)],
)
def test_explosion_chains_are_capped(expression: str, length: int) -> None:
    start = time.perf_counter()
    result = parse(expression).roll(Roller(AlwaysTop()))
    assert time.perf_counter() - start < 1.0  # hang guard
    assert [len(chain) for chain in result.faces] == [length] * 3
    assert parse(expression).from_faces(result.faces_text()) == result


# --- Parser: every syntax ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("3d6+2", SumExpression((DiceTerm(3, 6),), 2)),
        ("d20", SumExpression((DiceTerm(1, 20),))),
        ("1d20", SumExpression((DiceTerm(1, 20),))),
        ("2d10-1", SumExpression((DiceTerm(2, 10),), -1)),
        ("3d6+1d4+2", SumExpression((DiceTerm(3, 6), DiceTerm(1, 4)), 2)),
        ("3d6 - d4", SumExpression((DiceTerm(3, 6), DiceTerm(1, 4, -1)))),
        ("-d4+10", SumExpression((DiceTerm(1, 4, -1),), 10)),
        ("-1", SumExpression((), -1)),
        ("2 + 3 - 1", SumExpression((), 4)),
        ("d%", SumExpression((DiceTerm(1, 100),))),
        ("2d%", SumExpression((DiceTerm(2, 100),))),
        ("3k6+2", SumExpression((DiceTerm(3, 6),), 2)),
        ("  3 D 6  +  2 ", SumExpression((DiceTerm(3, 6),), 2)),
        ("3d6−1", SumExpression((DiceTerm(3, 6),), -1)),
        ("12d6 tn 5", TargetNumberTest(12, 5)),
        ("12D6TN5", TargetNumberTest(12, 5)),
        ("d6 TN 13", TargetNumberTest(1, 13)),
        ("4d6 tn 0", TargetNumberTest(4, 0)),
        ("8d10 skill 3 ability", ClovekTest(8, 3, SkillKind.ABILITY)),
        ("8d10 skill 3", ClovekTest(8, 3, SkillKind.ABILITY)),
        ("8d10 skill 3 talent", ClovekTest(8, 3, SkillKind.TALENT)),
        ("8d10 Skill 3 KNOWLEDGE", ClovekTest(8, 3, SkillKind.KNOWLEDGE)),
        ("8d10 skill 6 supernatural talent", ClovekTest(8, 6, SkillKind.TALENT, True)),
        ("8d10 skill 6 talent supernatural", ClovekTest(8, 6, SkillKind.TALENT, True)),
        ("d20 under 12", RollUnderTest(20, 12)),
        ("d20 under 12 +1b", RollUnderTest(20, 12, 1, 0)),
        ("d20 under 12 +2b +1p", RollUnderTest(20, 12, 2, 1)),
        ("d20 under 12 +1b+1b +3p", RollUnderTest(20, 12, 2, 3)),
        ("1d100 under 45 +1p", RollUnderTest(100, 45, 0, 1)),
        ("d% under 45", RollUnderTest(100, 45)),
        ("4d6 >=4", ThresholdCount(4, 6, ">=", 4)),
        ("4d6 ≥ 4", ThresholdCount(4, 6, ">=", 4)),
        ("4d6>4", ThresholdCount(4, 6, ">", 4)),
        ("4d6 <=2", ThresholdCount(4, 6, "<=", 2)),
        ("4d6 ≤2", ThresholdCount(4, 6, "<=", 2)),
        ("4d6 <3", ThresholdCount(4, 6, "<", 3)),
    ],
)
def test_parse(line: str, expected: DiceExpression) -> None:
    expression = parse(line)
    assert expression == expected
    assert parse(expression.text) == expression


@pytest.mark.parametrize(
    ("line", "canonical"),
    [
        ("2+3d6", "3d6+2"),
        ("1d20", "d20"),
        ("d%", "d100"),
        ("-1", "-1"),
        ("12d6 tn 5", "12d6 TN 5"),
        ("8d10 skill 3", "8d10 skill 3 ability"),
        ("d20 under 12 +1b+1b", "d20 under 12 +2b"),
        ("4d6>=4", "4d6 >= 4"),
    ],
)
def test_canonical_text(line: str, canonical: str) -> None:
    assert parse(line).text == canonical
    assert str(parse(line)) == canonical


# --- Parser: every class of bad input, with a message the GM understands -------------------------------


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("", "Type a dice expression"),
        ("   ", "Type a dice expression"),
        ("x" * 201, "at most 200 characters"),
        ("(3d6)+2", "Parentheses are not supported"),
        ("3d6+[2]", "Parentheses are not supported"),
        ("3d6*2", "“*” cannot be used"),
        ("3d6\x00", "'\\x00'"),
        ("²d6", "“²” cannot be used"),
        ("3d6 foo", "Unknown word “foo”"),
        ("3dd6", "Unknown word “dd”"),
        ("3d", "number of sides after the d"),
        ("3d+2", "number of sides after the d"),
        ("0d6", "at least one die"),
        ("201d6", "201 dice are too many: at most 200"),
        ("d1", "at least 2 sides"),
        ("d1001", "at most 1000 sides"),
        ("1234567", "1234567 is too large"),
        ("d" + "9" * 40, "999999999999… is too large"),
        ("3d6 2", "Join the terms with + or -"),
        ("3d6+", "ends too early"),
        ("+", "ends too early"),
        ("3d6++2", "“+” does not fit here"),
        ("+".join(["1"] * 21), "at most 20 terms"),
        ("tn 5", "“tn” does not fit here"),
        ("12d6 tn", "Put a number after “tn”"),
        ("12d6 tn x5", "Unknown word"),
        ("12d6 tn 5 +2", "Nothing can follow 12d6 TN 5"),
        ("12d6+2 tn 5", "exactly one group of dice before “tn”"),
        ("12d6+1d6 tn 5", "exactly one group of dice before “tn”"),
        ("-12d6 tn 5", "exactly one group of dice before “tn”"),
        ("12d8 tn 5", "A TN test rolls d6, not d8"),
        ("8d6 skill 3", "A skill test rolls d10, not d6"),
        ("8d10 skill", "Put a number after “skill”"),
        ("8d10 skill 3 talent knowledge", "only once"),
        ("8d10 skill 3 supernatural supernatural", "only once"),
        ("8d10 skill 3 ability 2", "Nothing can follow"),
        ("2d20 under 12", "one d20 or d100"),
        ("d12 under 8", "one d20 or d100"),
        ("d20 under", "Put a number after “under”"),
        ("d20 under 12 -1b", "Write bonus dice as +1b and penalty dice as +1p"),
        ("d20 under 12 +1", "Write bonus dice as +1b"),
        ("d20 under 12 +2x", "Unknown word “x”"),
        ("d20 under 12 +1d", "Write bonus dice as +1b"),
        ("d20 under 12 +200b", "at most 200 dice"),
        ("4d6 >=", "Put a number after “>=”"),
        ("4d6 => 4", "“=” cannot be used"),
        ("4d6 >= 4 4", "Nothing can follow"),
    ],
)
def test_parse_errors(line: str, message: str) -> None:
    with pytest.raises(DiceError) as caught:
        parse(line)
    assert message in str(caught.value)


# --- Typed-in faces ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "faces", "total"),
    [
        ("3d6+2", "3,4,6", 15),
        ("3d6+2", "3 4 6", 15),
        ("3d6+2", " 3 ; 4 ;6 ", 15),
        ("3d6+1d4+2", "3,4,6,1", 16),
        ("2d10-1", "0, 3", 12),
        ("3d6 - d4", "6,6,6,4", 14),
        ("-1", "", -1),
        ("d%", "00", 100),
        ("d100", "0", 100),
        ("5d6 tn 8", "3,4,6+2,6 + 1,1", 1),
        ("5d6 tn 8", "3; 4; 6 +2; 6+ 1; 1", 1),
        ("d6 tn 7", "6+6+6", 1),  # sixes rolled on after the TN is reached change nothing: accepted
        ("3d10 skill 3", "10+10+3, 7, 1", 3),
        ("d10 skill 7 supernatural", "8+9+3", 2),
        ("d20 under 12 +1b", "7, 15", 7),
        ("d20 under 12 +1p", "7, 15", 15),
        ("d20 under 12 +2b +2p", "13", 13),
    ],
)
def test_from_faces(line: str, faces: str, total: int) -> None:
    assert typed(line, faces).total == total


@pytest.mark.parametrize(
    ("line", "faces", "message"),
    [
        ("12d6 tn 5", "1,2,3,4,5", "12d6 TN 5 needs 12 faces, you typed 5."),
        ("d6", "1,2", "d6 needs 1 face, you typed 2."),
        ("3d6", "", "3d6 needs 3 faces, you typed 0."),
        ("3d6", "1,2,7", "A d6 cannot show 7."),
        ("3d6", "1,2,0", "A d6 cannot show 0."),
        ("d20 under 5", "21", "A d20 cannot show 21."),
        ("3d6", "1,x,3", "“x” is not a face"),
        ("3d6", "1,-2,3", "“-2” is not a face"),
        ("3d6", "1,²,3", "“²” is not a face"),
        ("3d6", "1,2,12345", "12345 is too large"),
        ("3d6", "1,2,6+", "“6+” is incomplete"),
        ("3d6", "1,2,+6", "“+6” is incomplete"),
        ("3d6", "1," * 30_000, "at most 50000 characters"),
        ("d6 tn 1000", "+".join(["6"] * (MAX_REROLLS + 2)), f"at most {MAX_REROLLS} times"),
        ("3d6+2", "6+2,1,1", "Dice in 3d6+2 are not rolled again (6+2)."),
        ("3d6 >= 4", "6+2,1,1", "are not rolled again"),
        ("d20 under 12", "20+3", "are not rolled again"),
        ("d20 under 12 +1b", "7", "needs 2 faces, you typed 1"),
        ("3d6 tn 5", "6+2,1,1", "At TN 5 a 6 is not rolled again (6+2)."),
        ("3d6 tn 8", "5+2,1,1", "Only a 6 is rolled again (5+2)."),
        ("d6 tn 8", "6", "At TN 8 a 6 is rolled again and added: type the reroll after a plus, e.g. 6+3."),
        ("d6 tn 8", "6+6+5+1", "Only a 6 is rolled again (6+6+5+1)."),
        ("4d10 skill 1", "2,9,5,0", "A 10 is rolled again: type the reroll after a plus, e.g. 10+3."),
        ("4d10 skill 1", "2+3,9,5,0+2", "Only a 10 is rolled again (2+3)."),
        ("d10 skill 7 supernatural", "7+3", "Only a die showing 8 or more is rolled again (7+3)."),
        ("d10 skill 7 supernatural", "9", "A 9 is rolled again"),
        ("d10 skill 3", "11", "“11” is no d10 face: type 1 to 10 (0 is 10)"),
    ],
)
def test_from_faces_errors(line: str, faces: str, message: str) -> None:
    with pytest.raises(DiceError) as caught:
        typed(line, faces)
    assert message in str(caught.value)


def test_from_chains_checks_like_typed_text() -> None:
    expression = parse("4d10 skill 1")
    assert expression.from_chains([[2], [9], [5], [0, 2]]) == expression.from_faces("2,9,5,0+2")
    with pytest.raises(DiceError, match="Every die needs a face"):
        expression.from_chains([[2], [9], [5], []])
    with pytest.raises(DiceError, match="at most 100 times"):
        parse("d6 tn 1000").from_chains([[6] * (MAX_REROLLS + 2)])


# --- Results and the log line ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "faces", "expected"),
    [
        ("3d6+2", "3,4,6", "3d6+2: 15 (3, 4, 6)"),
        ("-1", "", "-1: -1"),
        (
            "12d6 tn 5",
            "1,5,6,2,2,2,2,2,2,2,2,5",
            "12d6 TN 5: 3 successes (1, 5, 6, 2, 2, 2, 2, 2, 2, 2, 2, 5)",
        ),
        ("2d6 tn 8", "6+2,3", "2d6 TN 8: 1 success (6+2, 3)"),
        ("2d6 tn 4", "2,3", "2d6 TN 4: 0 successes, failure (2, 3)"),
        ("2d6 tn 1", "2,3", "2d6 TN 2: 2 successes (2, 3)"),
        ("2d6 tn 4", "1,1", "2d6 TN 4: 0 successes, rule of one: catastrophic failure (1, 1)"),
        ("4d10 skill 1", "2,9,5,0+2", "4d10 skill 1 (ability): 2 successes, full success (2, 9, 5, 10+2)"),
        ("2d10 skill 9 talent supernatural", "9+9+1,1", "2d10 supernatural skill 9 (talent): "),
        ("d10 skill 0 talent", "1", "d10 skill 0 (talent): 0 successes, critical failure (1)"),
        ("d20 under 12 +1b", "7,15", "d20 under 12, 1 bonus die: rolled 7, success (7, 15)"),
        ("d20 under 12 +2p", "7,15,13", "d20 under 12, 2 penalty dice: rolled 15, failure (7, 15, 13)"),
        ("4d6 >= 4", "1,4,6,3", "4d6 >= 4: 2 successes (1, 4, 6, 3)"),
    ],
)
def test_describe(line: str, faces: str, expected: str) -> None:
    assert typed(line, faces).describe().startswith(expected)


def test_describe_shortens_huge_rolls() -> None:
    line = typed("100d6", ",".join(["3"] * 100)).describe()
    assert line.endswith(", …)")
    assert line.count("3, ") == 40


@pytest.mark.parametrize(
    ("successes", "word"),
    [
        (0, "failure"),
        (1, "basic success"),
        (2, "full success"),
        (3, "very good success"),
        (4, "very good success"),
        (5, "total success"),
        (9, "total success"),
    ],
)
def test_clovek_outcome_ladder(successes: int, word: str) -> None:
    assert clovek_outcome(successes) == word


class _CzechSuccesses(gettext.NullTranslations):
    """Just enough of a Czech catalog to prove plurals go through ngettext (three forms)."""

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        if msgid1 != "{count} success":
            return super().ngettext(msgid1, msgid2, n)
        if n == 1:
            return "{count} úspěch"
        return "{count} úspěchy" if 2 <= n <= 4 else "{count} úspěchů"


@pytest.fixture
def czech() -> Iterator[None]:
    text.install(_CzechSuccesses())
    try:
        yield
    finally:
        text.install(gettext.NullTranslations())


@pytest.mark.usefixtures("czech")
@pytest.mark.parametrize(("faces", "word"), [("5,1,1,1,1", "1 úspěch"), ("5,5,1,1,1", "2 úspěchy")])
def test_describe_uses_the_languages_plural_forms(faces: str, word: str) -> None:
    assert f": {word} (" in typed("5d6 tn 5", faces).describe()


@pytest.mark.usefixtures("czech")
def test_describe_five_successes_in_czech() -> None:
    assert "5 úspěchů" in typed("5d6 tn 5", "5,5,5,5,5").describe()


# --- Game helpers ------------------------------------------------------------------------------------------


def test_sr3_helpers() -> None:
    assert sr3_die_total((6, 2)) == 8
    assert count_sr3_successes([(6, 2), (6, 1), (3,)], 8) == 1
    assert count_sr3_successes([(1,), (2,)], 0) == 1  # TN below 2 counts as 2
    assert rule_of_one([(1,), (1,)])
    assert not rule_of_one([(1,), (2,)])
    assert not rule_of_one([])


@pytest.mark.parametrize(("skill", "number"), [(0, 10), (1, 9), (3, 7), (5, 5), (8, 5)])
def test_clovek_success_number(skill: int, number: int) -> None:
    assert clovek_success_number(skill) == number


@pytest.mark.parametrize(
    ("skill", "supernatural", "number"),
    [(3, False, 10), (9, False, 10), (3, True, 10), (6, True, 9), (7, True, 8), (10, True, 5), (12, True, 5)],
)
def test_clovek_reroll_number(skill: int, supernatural: bool, number: int) -> None:
    assert clovek_reroll_number(skill, supernatural) == number


def test_clovek_reroll_number_never_below_success_number() -> None:
    for skill in range(20):
        assert clovek_reroll_number(skill, True) >= clovek_success_number(skill)


def test_count_clovek_successes() -> None:
    assert count_clovek_successes([(10, 10, 3)], 1) == 2
    assert count_clovek_successes([(0, 2)], 1) == 1  # the 0 on a d10 reads as 10
    assert count_clovek_successes([(9, 10)], 1) == 1  # a 9 does not reroll: the stray 10 is ignored
    assert count_clovek_successes([(9, 10)], 7, supernatural=True) == 2


@pytest.mark.parametrize(
    ("face", "kind", "critical"),
    [
        (1, SkillKind.TALENT, True),
        (2, SkillKind.TALENT, False),
        (2, SkillKind.ABILITY, True),
        (3, SkillKind.ABILITY, False),
        (4, SkillKind.KNOWLEDGE, True),
        (5, SkillKind.KNOWLEDGE, False),
    ],
)
def test_clovek_critical_range(face: int, kind: SkillKind, critical: bool) -> None:
    assert clovek_critical_failure([(face,), (7,)], 1, kind) is critical


def test_no_critical_failure_with_a_success() -> None:
    assert not clovek_critical_failure([(1,), (9,)], 1, SkillKind.KNOWLEDGE)


@pytest.mark.parametrize(
    ("faces", "bonus", "penalty", "kept"),
    [([9], 0, 0, 9), ([7, 15], 1, 0, 7), ([7, 15], 0, 1, 15), ([7, 15], 2, 1, 7), ([9], 3, 3, 9)],
)
def test_roll_under_kept(faces: list[int], bonus: int, penalty: int, kept: int) -> None:
    assert roll_under_kept(faces, bonus, penalty) == kept


def test_roll_under_kept_errors() -> None:
    with pytest.raises(DiceError, match="rolls 2 dice, not 1"):
        roll_under_kept([7], 1, 0)
    with pytest.raises(DiceError, match="cannot be negative"):
        roll_under_kept([7], -1, -1)


# --- Properties ----------------------------------------------------------------------------------------


def _parse_or_error(line: str) -> None:
    start = time.process_time()
    with contextlib.suppress(DiceError):
        parse(line)
    assert time.process_time() - start < HANG_GUARD_SECONDS


@given(st.text(max_size=300))
def test_any_text_parses_or_raises_dice_error(line: str) -> None:
    _parse_or_error(line)


@given(st.text(alphabet="0123456789dkDtnskilunderabtyowgpv%+-−<>=≥≤ ,()", max_size=300))
def test_dice_like_text_parses_or_raises_dice_error(line: str) -> None:
    _parse_or_error(line)


@given(st.text(alphabet="0123456789+,; \t-x", max_size=300))
def test_any_typed_faces_are_read_or_refused(faces: str) -> None:
    for line in ("3d6+2", "3d6 tn 8", "3d10 skill 2"):
        with contextlib.suppress(DiceError):
            typed(line, faces)


_counts = st.integers(1, 12)
_dice = st.builds(lambda n, s: f"{n}d{s}", _counts, st.sampled_from(["2", "4", "6", "10", "20", "%", "1000"]))
_sums = st.lists(
    st.tuples(st.sampled_from(["+", "-"]), st.one_of(_dice, st.integers(0, 99).map(str))),
    min_size=1,
    max_size=5,
).map(lambda terms: "".join(sign + term for sign, term in terms))
_sr3 = st.builds(lambda n, tn: f"{n}d6 tn {tn}", _counts, st.integers(0, 25))
_clovek = st.builds(
    lambda n, skill, kind, supernatural: f"{n}d10 skill {skill} {kind} {supernatural}",
    _counts,
    st.integers(0, 12),
    st.sampled_from(["", "talent", "ability", "knowledge"]),
    st.sampled_from(["", "supernatural"]),
)
_under = st.builds(
    lambda sides, target, bonus, penalty: f"d{sides} under {target} +{bonus}b +{penalty}p",
    st.sampled_from([20, 100]),
    st.integers(0, 120),
    st.integers(0, 4),
    st.integers(0, 4),
)
_counted = st.builds(
    lambda n, sides, compare, threshold: f"{n}d{sides} {compare} {threshold}",
    _counts,
    st.integers(2, 20),
    st.sampled_from([">=", ">", "<=", "<", "≥", "≤"]),
    st.integers(0, 21),
)
expressions = st.one_of(_sums, _sr3, _clovek, _under, _counted).map(parse)


@given(expressions)
def test_canonical_text_parses_back(expression: DiceExpression) -> None:
    assert parse(expression.text) == expression


@given(expressions, st.integers(0, 2**32))
def test_seeded_rolls_are_reproducible(expression: DiceExpression, seed: int) -> None:
    assert expression.roll(Roller.seeded(seed)) == expression.roll(Roller.seeded(seed))


@given(expressions, st.integers(0, 2**32))
def test_rolled_faces_are_in_range_and_follow_the_rules(expression: DiceExpression, seed: int) -> None:
    result = expression.roll(Roller.seeded(seed))
    assert len(result.faces) == len(expression.die_sides())
    for chain, sides in zip(result.faces, expression.die_sides(), strict=True):
        assert all(1 <= face <= sides for face in chain)
        assert expression.chain_problem(chain) is None


@settings(max_examples=200)
@given(expressions, st.integers(0, 2**32))
def test_typed_in_faces_round_trip(expression: DiceExpression, seed: int) -> None:
    result = expression.roll(Roller.seeded(seed))
    again = expression.from_faces(format_faces(result.faces))
    assert again == result
    assert again.describe() == result.describe()


@given(st.lists(st.lists(st.integers(0, 10), min_size=1, max_size=4), max_size=10), st.integers(0, 12))
def test_critical_failure_only_without_successes(chains: list[list[int]], skill: int) -> None:
    for kind in SkillKind:
        if clovek_critical_failure(chains, skill, kind):
            assert count_clovek_successes(chains, skill) == 0
