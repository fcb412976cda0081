"""Faces typed without separators: ``4456`` for 4d6 reads one face per digit, where that cannot be misread."""

from __future__ import annotations

import pytest

from rules.dice import DiceError, parse


def test_single_digit_dice_may_be_typed_together() -> None:
    assert parse("4d6").from_faces("4456").total == 19
    assert parse("4d6").from_faces("4456") == parse("4d6").from_faces("4, 4, 5, 6")
    assert parse("2d6").from_faces("12").total == 3  # two dice: a 1 and a 2, not a twelve


@pytest.mark.parametrize(("expression", "typed", "message"), [
    ("4d6", "445", "needs 4 faces, you typed 1"),  # a run must have exactly one digit per die
    ("4d6", "4457", "7"),  # each digit is still checked against its die
    ("2d10", "10", "needs 2 faces, you typed 1"),  # a d10's 10 is never split into 1 and 0
    ("1d6", "66", "66"),  # one die: the usual reading, which refuses 66
])
def test_what_a_digit_run_cannot_mean_is_refused_as_before(expression: str, typed: str, message: str) -> None:
    with pytest.raises(DiceError, match=message):
        parse(expression).from_faces(typed)
