"""Dice line abuse: enormous pools, deep parentheses, long or strange inputs are refused at once, clearly.

"At once" is a benchmark figure (``make bench``: goal under 10 ms each); this test checks every refusal
against a bound ten times as generous (100 ms), so a slow machine cannot make it fail but a parser that
does real work on hostile input (backtracking, rolling a million dice first) would.
"""

from __future__ import annotations

import pytest

from rules.dice import MAX_TEXT_LENGTH, Roller
from rules.errors import DiceError
from tests.rules.dice_context import parse  # SR3's tn and Člověk's skill, in their game's context

#: (dice line, typed faces) pairs that must be refused; faces "" means the line alone is refused.
HOSTILE: list[tuple[str, str]] = [
    ("1000000d6", ""), ("201d6", ""), ("d1001", ""), ("99999999d99999999", ""), ("d" + "9" * 100, ""),
    ("(" * 100 + "d6" + ")" * 100, ""), ("((2d6)+1)", ""), ("[2d6]", ""), ("{d20}", ""),
    ("x" * 10_000, ""), ("d6+" * 100, ""), ("1" * (MAX_TEXT_LENGTH + 1), ""), (" " * 100_000 + "d6", ""),
    ("12d6 tn " + "9" * 50, ""), ("12d6 tn 5 skill 3", ""), ("+".join(["1d6"] * 21), ""),
    ("+".join(["200d1000"] * 21), ""), ("d20 under 12 +999999b", ""), ("20d20 under 5", ""), ("-", ""),
    ("+-+-+", ""), ("\x00", ""), ("d6\u202e", ""), ("١٢d٦", ""), ("\U0001f3b2", ""), ("0d6", ""), ("d1", ""),
    ("1e9d6", ""), ("0x10d6", ""), ("d6 tn 5 tn 5", ""), ("12d6 tn 4 talent talent", ""), ("", ""),
    ("12d6 tn 5", "6+" * 20_000), ("12d6 tn 5", "1," * 100_000), ("12d6 tn 5", "9" * 1000),
    ("12d6 tn 5", "6+6+1"), ("12d6 tn 5", "1,2,3"), ("12d6 tn 5", "7,1,1,1,1,1,1,1,1,1,1,1"),
    ("3d6", "a,b,c"), ("3d6", "-1,2,3"), ("3d6", "1,2,3,4"), ("3d6", "1;2;" * 5000), ("3d6", "1 " * 20_000),
    ("3d6", "6 + 2 " * 5000),
    ("200d1000", ",".join(["1001"] * 200)), ("d20 under 12 +2b", "5,5"),
]

def refuse(line: str, faces: str) -> str:
    """Parse (and read the typed faces); return the message (how long it takes: `make bench`, "Dice line abuse")."""
    try:
        expression = parse(line)
        if faces:
            expression.from_faces(faces)  # what the dice line does with typed faces
    except DiceError as error:
        return str(error)
    raise AssertionError(f"accepted: {line[:40]!r} / {faces[:40]!r}")


@pytest.mark.parametrize(("line", "faces"), HOSTILE, ids=[f"{i}" for i in range(len(HOSTILE))])
def test_hostile_dice_lines_are_refused_with_a_short_message(line: str, faces: str) -> None:
    message = refuse(line, faces)
    assert 10 < len(message) <= 200 and "Traceback" not in message


def test_the_largest_accepted_roll_is_quick_too() -> None:
    """The limits are what makes every accepted line cheap: 20 terms of 200 d1000 (just within the length)."""
    line = "+".join(["200d100"] * 16)
    assert len(line) <= MAX_TEXT_LENGTH
    result = parse(line).roll(Roller.seeded(1))
    assert len(result.faces) == 3200
