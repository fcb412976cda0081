"""Typed-in faces: what players rolled at the table, as the GM types it (``3, 4, 6+2; 1``).

Dice are separated by commas, semicolons or spaces; a plus joins a die to its rerolls (``6+2``, ``6 + 2``).
Reading is split from checking: :func:`read_faces` only turns text into numbers, the expression then checks
the count, the range of every face and every chain against its own rules. Re-exported by :mod:`rules.dice`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rules.dice_rules import MAX_REROLLS, format_chain
from rules.errors import DiceError
from rules.text import _

#: Faces of every die, one chain per die: the first face as rolled, then its rerolls.
Chains = tuple[tuple[int, ...], ...]

#: Longest typed-in text accepted: room for 20 terms of 200 dice with short chains, checked before any work.
MAX_FACES_TEXT_LENGTH: Final[int] = 50_000
#: A face never has more digits than the largest die (d1000) needs.
_MAX_FACE_DIGITS: Final[int] = 4
#: Dice whose 0 face reads as the highest face (a d10's 0 is 10, percentile 00 is 100).
_ZERO_IS_TOP: Final[frozenset[int]] = frozenset({10, 100})


def read_faces(text: str) -> Chains:
    """Turn typed-in faces into chains of numbers; raises DiceError on anything that is not a face."""
    if len(text) > MAX_FACES_TEXT_LENGTH:
        raise DiceError(
            _("Typed faces can be at most {limit} characters long.").format(limit=MAX_FACES_TEXT_LENGTH)
        )
    groups = text.replace(";", ",").split(",")
    return tuple(_read_chain(word) for group in groups for word in _join_plus(group.split()))


def _join_plus(words: list[str]) -> list[str]:
    # Spaces separate dice too, but "6 + 2" is still one die: glue words that meet at a plus (never across a
    # comma, so "6,+2" stays an error rather than a guess).
    joined: list[str] = []
    for word in words:
        if joined and (joined[-1].endswith("+") or word.startswith("+")):
            joined[-1] += word
        else:
            joined.append(word)
    return joined


def _read_chain(word: str) -> tuple[int, ...]:
    parts = word.split("+")
    if len(parts) > MAX_REROLLS + 1:
        raise DiceError(_("A die can be rolled again at most {limit} times.").format(limit=MAX_REROLLS))
    if "" in parts and len(parts) > 1:
        raise DiceError(
            _("A plus joins a die to its reroll, e.g. 6+2; “{word}” is incomplete.").format(word=_shown(word))
        )
    return tuple(_read_number(part) for part in parts)


def _read_number(part: str) -> int:
    # isdigit() alone accepts "²" and other digits int() rejects, hence the isascii() check.
    if not (part.isascii() and part.isdigit()):
        raise DiceError(
            _("“{word}” is not a face: type numbers separated by commas, e.g. 3, 4, 6+2.").format(word=_shown(part))
        )
    if len(part) > _MAX_FACE_DIGITS:
        raise DiceError(_("{face} is too large for a die face.").format(face=_shown(part)))
    return int(part)


def _shown(word: str) -> str:
    """A typed word as a message quotes it: a 40,000-character paste would drown the message."""
    return word if len(word) <= 16 else word[:16] + "…"


def read_face(face: int, sides: int) -> int:
    """Check one face against a d``sides`` and return how it reads (a d10's 0 is 10)."""
    if face == 0 and sides in _ZERO_IS_TOP:
        return sides
    if not 1 <= face <= sides:
        raise DiceError(_("A d{sides} cannot show {face}.").format(sides=sides, face=face))
    return face


def format_faces(faces: Sequence[Sequence[int]], limit: int | None = None) -> str:
    """Faces as the GM types them (``3, 4, 6+2``); with ``limit``, only the first dice and an ellipsis."""
    shown = faces if limit is None else faces[:limit]
    text = ", ".join(format_chain(chain) for chain in shown)
    return text + ", …" if len(shown) < len(faces) else text
