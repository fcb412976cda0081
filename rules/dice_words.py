"""How a game extends the dice line: a word after one group of dice (SR3's ``12d6 tn 5``, Člověk's ``skill``).

The generic parser (:func:`rules.dice.parse`) reads plain dice expressions and the forms every game may use
(``d20 under 12 +1b``, ``4d6 >= 4``). A game contributes :class:`DiceWord` objects through
:meth:`rules.systems.base.RuleSystem.dice_words`: the parser hands a word the dice before it and a
:class:`DiceReader` over the rest of the line, and the word builds the expression that rolls and counts them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Protocol

from rules.errors import DiceError

if TYPE_CHECKING:  # the expressions import nothing from here; only the checker needs them
    from rules.dice_expressions import DiceExpression, DiceTerm


class DiceReader(Protocol):
    """The rest of a dice line, as a word reads it (numbers and the words it knows)."""

    def number(self, after: str) -> int:
        """The next token as a number; a clear DiceError naming ``after`` when it is not one."""
        ...

    def accept(self, *words: str) -> str | None:
        """The next token if it is one of ``words`` (then it is consumed), else None."""
        ...


class DiceWord(ABC):
    """One word a game adds to its dice line: ``dice WORD …``. Subclasses are stateless values."""

    #: The keyword that follows the dice, lower case ("tn").
    word: str
    #: Further words the extension reads after its keyword (Člověk: "talent", "supernatural"…).
    flags: frozenset[str] = frozenset()
    #: A line the GM could type, shown in examples and help ("12d6 tn 5"); dice syntax, not translated.
    example: str = ""

    @property
    def words(self) -> frozenset[str]:
        """Every word the extension needs the tokenizer to know."""
        return self.flags | {self.word}

    @abstractmethod
    def read(self, dice: DiceTerm, reader: DiceReader) -> DiceExpression:
        """Build the expression for ``dice`` followed by this word; the reader stands just after the word."""

    @staticmethod
    def require_sides(dice: DiceTerm, sides: int, message: str) -> None:
        """Refuse dice of another size with ``message`` (translated, ``{sides}`` is the size typed)."""
        if dice.sides != sides:
            raise DiceError(message.format(sides=dice.sides))


class UnknownDiceWord(DiceError):
    """A word the dice line in this context does not know; ``word`` is it, ``known`` what would fit."""

    def __init__(self, message: str, word: str, known: tuple[str, ...]) -> None:
        super().__init__(message)
        self.word = word
        self.known = known
