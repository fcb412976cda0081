"""Arithmetic on rolled faces that no one game owns: chains, the plain outcome words, roll-under tests.

Faces come as *chains*: one sequence of faces per die, the first face being the die as rolled and any further
faces its rerolls (``6+2``). A game's own arithmetic (SR3's target numbers, Člověk's d10 tests) lives in the
game's package, beside the dice-line word that uses it. Re-exported by :mod:`rules.dice`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rules.errors import DiceError
from rules.text import N_, _, ngettext

#: A die may be rolled again at most this many times (a chain holds at most MAX_REROLLS + 1 faces), so a
#: rigged ``random.Random`` that always shows a 6 or a 10 cannot hang the app.
MAX_REROLLS: Final[int] = 100

#: Outcome words, marked for extraction and translated when shown (so a language switch re-renders them).
FAILURE: Final[str] = N_("failure")
SUCCESS: Final[str] = N_("success")


def format_chain(chain: Sequence[int]) -> str:
    """One die as the GM types it: ``6``, or ``6+2`` for a die rolled again."""
    return "+".join(str(face) for face in chain)


# --- Roll-under -----------------------------------------------------------------------------------------


def roll_under_dice(bonus: int, penalty: int) -> int:
    """How many dice a roll-under test rolls: one, plus one per bonus or penalty die left after cancelling."""
    return 1 + abs(bonus - penalty)


def roll_under_kept(faces: Sequence[int], bonus: int, penalty: int) -> int:
    """The face that counts: the lowest with net bonus dice, the highest with net penalty dice."""
    if bonus < 0 or penalty < 0:
        raise DiceError(_("Bonus and penalty dice cannot be negative."))
    needed = roll_under_dice(bonus, penalty)
    if len(faces) != needed:
        message = ngettext(
            "This roll-under test rolls {needed} die, not {typed}.",
            "This roll-under test rolls {needed} dice, not {typed}.",
            needed,
        )
        raise DiceError(message.format(needed=needed, typed=len(faces)))
    if bonus > penalty:
        return min(faces)
    if penalty > bonus:
        return max(faces)
    return faces[0]


# --- d100 with extra tens dice ------------------------------------------------------------------------------
# One way to roll a d100 bonus or penalty die (walka.md Decision, "option for d100: an extra tens die"): the
# units die is rolled once and every die of the test is one more tens die beside it. A face is still read as
# 1..100 (tens 00 with units 0 is 100), so keeping the lowest or highest face keeps the lowest or highest tens.

PERCENTILE: Final[int] = 100


def percentile_face(tens_digit: int, units_digit: int) -> int:
    """The d100 face of a tens die (0..9) and a units die (0..9): ``00`` and ``0`` read as 100."""
    face = 10 * tens_digit + units_digit
    return face or PERCENTILE


def units_digit(face: int) -> int:
    """The units die of a d100 face (100 shows 0)."""
    return face % 10


def shared_units_problem(faces: Sequence[int]) -> str | None:
    """Why faces rolled with one units die cannot be right (translated), or None: they must all end alike."""
    endings = {units_digit(face) for face in faces}
    if len(endings) <= 1:
        return None
    return _("The extra dice are tens dice beside one units die, so every face ends in the same digit "
             "({faces}).").format(faces=", ".join(str(face) for face in faces))
