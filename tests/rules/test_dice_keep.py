"""Keep highest / keep lowest on the dice line: ``2d20kh1`` (advantage), ``4d6kl3``, ``kh``/``kl`` alone keep one.

Every die is rolled or typed (the GM types all the faces rolled at the table, the line keeps the right ones);
a keep outside 1..dice is refused with a message that says what would fit, and so is a keep before a test.
"""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dice import DiceError, DiceTerm, Roller, SumExpression, format_faces, parse
from tests.rules.dice_context import parse as parse_in_context


@pytest.mark.parametrize(("line", "expected"), [
    ("2d20kh1", SumExpression((DiceTerm(2, 20, keep=1),))),
    ("4d6kl3", SumExpression((DiceTerm(4, 6, keep=3, lowest=True),))),
    ("2d20kh", SumExpression((DiceTerm(2, 20, keep=1),))),
    ("2d20kl", SumExpression((DiceTerm(2, 20, keep=1, lowest=True),))),
    ("2D20 KH 1", SumExpression((DiceTerm(2, 20, keep=1),))),
    ("4k6kl3", SumExpression((DiceTerm(4, 6, keep=3, lowest=True),))),  # the Czech and Polish dice letter
    ("2d20kh1+5", SumExpression((DiceTerm(2, 20, keep=1),), 5)),
    ("3d6kh2+1d4-1", SumExpression((DiceTerm(3, 6, keep=2), DiceTerm(1, 4)), -1)),
    ("-2d6kl1", SumExpression((DiceTerm(2, 6, -1, keep=1, lowest=True),))),
    ("d20kh", SumExpression((DiceTerm(1, 20, keep=1),))),
    ("3d6kh3", SumExpression((DiceTerm(3, 6, keep=3),))),
])
def test_parse(line: str, expected: SumExpression) -> None:
    assert parse(line) == expected
    assert parse_in_context(line) == expected  # every game's dice line knows the generic forms


@pytest.mark.parametrize(("line", "canonical"), [
    ("2d20kh", "2d20kh1"), ("4d6 kl 3", "4d6kl3"), ("2+2d20kh1", "2d20kh1+2"), ("d20kl", "d20kl1"),
])
def test_canonical_text(line: str, canonical: str) -> None:
    assert parse(line).text == canonical
    assert parse(canonical) == parse(line)


@pytest.mark.parametrize(("line", "faces", "total"), [
    ("2d20kh1", "4, 17", 17),
    ("2d20kl1", "4, 17", 4),
    ("2d20kh", "17 4", 17),
    ("4d6kl3", "6, 1, 3, 3", 7),
    ("4d6kh3", "6, 1, 3, 3", 12),
    ("4d6kh3", "5 5 5 5", 15),  # ties: any three fives
    ("2d20kh1+5", "9, 12", 17),
    ("3d6kh2+1d4-1", "1, 6, 4, 3", 12),  # 6 + 4 kept, + 3 − 1; the d4 is its own term
    ("-2d6kl1+10", "2, 5", 8),
    ("2d10kh1", "0, 7", 10),  # a d10's 0 is 10
])
def test_typed_faces_keep_the_right_dice(line: str, faces: str, total: int) -> None:
    result = parse(line).from_faces(faces)
    assert result.total == total
    assert result.faces_text() == format_faces(result.faces)  # every face typed is kept in the record


def test_the_log_line_shows_every_face_rolled() -> None:
    assert parse("4d6kl3").from_faces("6, 1, 3, 3").describe() == "4d6kl3: 7 (6, 1, 3, 3)"


@pytest.mark.parametrize(("line", "faces", "message"), [
    ("2d20kh1", "17", "needs 2 faces, you typed 1"),
    ("2d20kh1", "17, 4, 3", "needs 2 faces, you typed 3"),
    ("4d6kl3", "6, 1, 3, 7", "7"),
    ("2d20kh1", "20+3, 4", "not rolled again"),
])
def test_typed_faces_are_checked_like_any_sum(line: str, faces: str, message: str) -> None:
    with pytest.raises(DiceError, match=message):
        parse(line).from_faces(faces)


def test_a_seeded_roll_keeps_the_highest_of_the_dice_it_rolled() -> None:
    expression = parse("4d6kh3+1")
    for seed in range(50):
        result = expression.roll(Roller.seeded(seed))
        faces = [chain[0] for chain in result.faces]
        assert len(faces) == 4 and all(len(chain) == 1 for chain in result.faces)
        assert result.total == sum(sorted(faces)[1:]) + 1
        assert expression.roll(Roller.seeded(seed)) == result
    lowest = parse("2d20kl1")
    rolled = lowest.roll(Roller.seeded(7))
    assert rolled.total == min(chain[0] for chain in rolled.faces)


@pytest.mark.parametrize(("line", "message"), [
    ("3d6kh4", "3d6 rolls 3 dice: it can keep at most 3, not 4."),
    ("d20kh2", "d20 rolls 1 die: it can keep at most 1, not 2."),
    ("4d6kl0", "Keep at least one die: 4d6kl1, not kl0."),
    ("3d6kh9999999", "too large for a dice line"),
    ("kh1", "“kh” does not fit here"),
    ("3d6kh1kl1", "“kl” does not fit here"),
    ("3d6kh1d6", "Join the terms with + or -"),
    ("2d20kh1 under 12", "Keeping dice (“2d20kh1”) works in sums only, not before “under”"),
    ("4d6kh2 >= 4", "works in sums only"),
    ("12d6kh6 tn 5", "works in sums only, not before “tn”"),
    ("8d10kl4 skill 3", "works in sums only, not before “skill”"),
    ("201d6kh1", "at most 200 in one term"),
])
def test_refusals_say_what_would_fit(line: str, message: str) -> None:
    with pytest.raises(DiceError, match=message.replace("(", r"\(").replace(")", r"\)").replace("+", r"\+")):
        parse_in_context(line)


def test_unknown_words_list_kh_and_kl() -> None:
    with pytest.raises(DiceError, match="d, kh, kl, under, b, p"):
        parse("3d6 kx 2")


def test_the_largest_keeping_roll_is_quick() -> None:
    line = "+".join(["200d100kh199"] * 15)
    result = parse(line).roll(Roller.seeded(1))
    assert len(result.faces) == 3000


_keeps = st.builds(
    lambda n, sides, keep, word, bonus: f"{n}d{sides}{word}{min(keep, n)}{bonus}",
    st.integers(1, 12), st.sampled_from([4, 6, 10, 20, 100]), st.integers(1, 12), st.sampled_from(["kh", "kl"]),
    st.sampled_from(["", "+2", "-1d4", "+1d6kl1"]),
)


@given(_keeps)
def test_canonical_text_parses_back(line: str) -> None:
    expression = parse(line)
    assert parse(expression.text) == expression


@settings(max_examples=100)
@given(_keeps, st.integers(0, 2**32))
def test_typed_faces_round_trip(line: str, seed: int) -> None:
    expression = parse(line)
    result = expression.roll(Roller.seeded(seed))
    assert expression.from_faces(result.faces_text()) == result


@given(st.text(alphabet="0123456789dkhl+-, ", max_size=60))
def test_any_keep_like_text_parses_or_raises_dice_error(line: str) -> None:
    with contextlib.suppress(DiceError):
        parse(line)
