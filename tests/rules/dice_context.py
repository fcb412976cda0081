"""Dice lines read in their game's context, for tests that mix the games' words in one table.

A line using a game's own word (SR3's ``tn``, Člověk's ``skill``) is parsed with that game's dice words, any
other line with the generic forms alone, as the dice line of a game without words of its own reads it. The
games are found through the registry, so no test names them here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

from rules import dice
from rules.dice import DiceExpression, DiceWord
from rules.systems import all_systems


@cache
def _words_by_keyword() -> dict[str, tuple[DiceWord, ...]]:
    return {word.word: tuple(system.dice_words()) for system in all_systems().values()
            for word in system.dice_words()}


def words_for(line: str) -> Sequence[DiceWord]:
    """The dice words of the game whose keyword ``line`` uses first (none for a generic line)."""
    by_keyword = _words_by_keyword()
    return next((by_keyword[word] for word in re.findall(r"[a-z]+", line.lower()) if word in by_keyword), ())


def parse(line: str) -> DiceExpression:
    """:func:`rules.dice.parse` in the context of the game the line belongs to."""
    return dice.parse(line, words_for(line))
