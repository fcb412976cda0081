"""The dice line: one parser for everything a GM types, and the public dice API of the rules layer.

Grammar (case-insensitive; spaces are free between tokens; ``d`` may also be written ``k``, as Czech and
Polish players do; ``N`` is a whole number of at most 6 digits)::

    line     := sum                                  3d6+2, d20, 2d10-1, 3d6+1d4+2, -1, d%
              | die "under" N extra* ["tens"]        d20 under 12 +1b   (roll-under, d20 or d100; "tens":
                                                     a d100's extra dice are tens dice, d100 under 45 +1b tens)
              | dice compare N                       4d6 >= 4           (count the dice that meet it)
              | dice WORD …                          a game's own test, read by the game's DiceWord
    sum      := ["+" | "-"] term (("+" | "-") term)*
    term     := dice [keep] | N
    dice     := [N] ("d" | "k") (N | "%")            d% is d100
    keep     := ("kh" | "kl") [N]                    2d20kh1, 4d6kl3: count only the N highest / lowest
                                                     (no N: one); in sums only, never before a test
    extra    := "+" N "b" | "+" N "p"                bonus / penalty dice, may repeat; they cancel one for one
    compare  := ">=" | ">" | "<=" | "<" | "≥" | "≤"

A game adds its words through :meth:`RuleSystem.dice_words` (SR3: ``12d6 tn 5``; Člověk:
``8d10 skill 3 ability``); :func:`parse` knows only the words it is given, so a line is read in the context of
one game (:func:`rules.rolls.parse_for`). Limits, checked before any work so that any input is answered at
once: 200 characters, 20 terms, 200 dice per term (a roll-under test: 200 dice in all), 2..1000 sides, a
keeping term keeps 1 to all of its dice, and :data:`MAX_REROLLS` rerolls per die. Parentheses are refused
with a clear message. Every roll can also be typed in: see :meth:`DiceExpression.from_faces`; a keeping term
is typed with all its dice, and the line keeps the right ones. The exact odds of a keeping term are
:func:`rules.odds.sum_of_kept` (like a plain sum's, :func:`rules.odds.sum_of`, they are not part of the
expression).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from rules.dice_expressions import (
    COMPARISONS,
    DESCRIBE_MAX_DICE,
    KEEP_HIGHEST,
    KEEP_LOWEST,
    TENS_WORD,
    DiceExpression,
    DiceTerm,
    Roller,
    RollResult,
    RollUnderTest,
    SumExpression,
    ThresholdCount,
    dice_text,
    roll_chain,
    successes_phrase,
    summary_with_outcome,
)
from rules.dice_faces import MAX_FACES_TEXT_LENGTH, Chains, format_faces, read_face, read_faces
from rules.dice_rules import FAILURE, MAX_REROLLS, PERCENTILE, SUCCESS, format_chain, roll_under_kept
from rules.dice_words import DiceReader, DiceWord, UnknownDiceWord
from rules.errors import DiceError
from rules.limits import SIDES
from rules.text import _, ngettext

__all__ = [
    "DESCRIBE_MAX_DICE",
    "FAILURE",
    "MAX_DICE_PER_TERM",
    "MAX_FACES_TEXT_LENGTH",
    "MAX_REROLLS",
    "MAX_SIDES",
    "MAX_TERMS",
    "MAX_TEXT_LENGTH",
    "SUCCESS",
    "Chains",
    "DiceError",
    "DiceExpression",
    "DiceReader",
    "DiceTerm",
    "DiceWord",
    "RollResult",
    "RollUnderTest",
    "Roller",
    "SumExpression",
    "ThresholdCount",
    "UnknownDiceWord",
    "dice_examples",
    "dice_text",
    "format_chain",
    "format_faces",
    "known_words",
    "parse",
    "read_face",
    "read_faces",
    "roll_chain",
    "roll_under_kept",
    "successes_phrase",
    "summary_with_outcome",
]

MAX_TEXT_LENGTH: Final[int] = 200
MAX_TERMS: Final[int] = 20
MAX_DICE_PER_TERM: Final[int] = 200
MAX_SIDES: Final[int] = SIDES.high
#: Numbers longer than this are refused before int() sees them.
MAX_NUMBER_DIGITS: Final[int] = 6

_DIGITS: Final[frozenset[str]] = frozenset("0123456789")
_DICE_LETTERS: Final[frozenset[str]] = frozenset({"d", "k"})
#: Words every dice line knows: the dice letters, keep highest / lowest, and the roll-under test's ``under``,
#: ``b``, ``p`` and ``tens``.
_UNDER: Final[str] = "under"
_KEEP_WORDS: Final[tuple[str, str]] = (KEEP_HIGHEST, KEEP_LOWEST)
_GENERIC_WORDS: Final[frozenset[str]] = _DICE_LETTERS | {*_KEEP_WORDS, _UNDER, "b", "p", TENS_WORD}
#: One-character symbols and what they mean (the typographic minus and ≥ ≤ come from pasted text).
_SYMBOLS: Final[dict[str, str]] = {
    "+": "+",
    "-": "-",
    "−": "-",
    "%": "%",
    ">": ">",
    "<": "<",
    "≥": ">=",
    "≤": "<=",
}
_BRACKETS: Final[frozenset[str]] = frozenset("()[]{}")
_SUM_EXAMPLE: Final[str] = "3d6+2"
_KEEP_EXAMPLE: Final[str] = "2d20kh1"
_UNDER_EXAMPLE: Final[str] = "d20 under 12"
_COMPARE_EXAMPLE: Final[str] = "4d6 >= 4"


@dataclass(frozen=True)
class _Token:
    kind: str  # "number", "word", "symbol" or "end"
    text: str


_END: Final[_Token] = _Token("end", "")


def dice_examples(words: Iterable[DiceWord] = ()) -> tuple[str, ...]:
    """Lines a GM could type where the dice line knows ``words`` (a game's), e.g. for a tooltip."""
    return (_SUM_EXAMPLE, *(word.example for word in words if word.example), _KEEP_EXAMPLE, _UNDER_EXAMPLE,
            _COMPARE_EXAMPLE)


def known_words(words: Iterable[DiceWord] = ()) -> tuple[str, ...]:
    """The words a dice line with ``words`` knows, as a message lists them: d, kh, kl, the game's words, under,
    b, p, tens."""
    extra = [name for word in words for name in (word.word, *sorted(word.flags))]
    return ("d", *_KEEP_WORDS, *dict.fromkeys(extra), _UNDER, "b", "p", TENS_WORD)


class _Grammar:
    """The dice line in one context: the generic forms plus the words a game contributes."""

    def __init__(self, words: Sequence[DiceWord]) -> None:
        self.tests = {word.word: word for word in words}
        added = frozenset[str]().union(*(word.words for word in words))
        if clash := sorted(added & _GENERIC_WORDS):
            raise ValueError(f"dice words {clash} are the dice line's own")  # a programming error, not the GM's
        self.known = _GENERIC_WORDS | added
        self.listed = known_words(words)
        self.examples = ", ".join(dice_examples(words))


def parse(text: str, words: Sequence[DiceWord] = ()) -> DiceExpression:
    """Parse a dice line knowing the generic forms and ``words`` (a game's: :meth:`RuleSystem.dice_words`).

    Raises DiceError (with a message for the GM) for anything it cannot use; a word it does not know raises
    :class:`UnknownDiceWord`, naming the words it knows.
    """
    grammar = _Grammar(words)
    if len(text) > MAX_TEXT_LENGTH:
        raise DiceError(
            _("A dice line can be at most {limit} characters long.").format(limit=MAX_TEXT_LENGTH)
        )
    tokens = _tokenize(text, grammar)
    if not tokens:
        raise DiceError(_("Type a dice expression, e.g. {examples}.").format(examples=grammar.examples))
    return _Parser(tokens, grammar).line()


# --- Tokenizer: a hand-written scanner, linear in the length of the text (no regex, no backtracking) ------


def _tokenize(text: str, grammar: _Grammar) -> list[_Token]:
    tokens: list[_Token] = []
    index = 0
    while index < len(text):
        if text[index].isspace():
            index += 1
            continue
        token, index = _read_token(text, index, grammar)
        tokens.append(token)
    return tokens


def _read_token(text: str, start: int, grammar: _Grammar) -> tuple[_Token, int]:
    char = text[start]
    if char in _DIGITS:
        end = _scan(text, start, lambda c: c in _DIGITS)
        return _Token("number", text[start:end]), end
    if char.isascii() and char.isalpha():
        end = _scan(text, start, lambda c: c.isascii() and c.isalpha())
        return _word(text[start:end].lower(), grammar), end
    if text.startswith((">=", "<="), start):
        return _Token("symbol", text[start : start + 2]), start + 2
    if char in _SYMBOLS:
        return _Token("symbol", _SYMBOLS[char]), start + 1
    if char in _BRACKETS:
        raise DiceError(
            _("Parentheses are not supported: write the terms one after another, e.g. 2d6+1d4+3.")
        )
    shown = char if char.isprintable() else ascii(char)  # a control character would vanish in the message
    raise DiceError(_("“{char}” cannot be used in a dice line.").format(char=shown))


def _scan(text: str, start: int, belongs: Callable[[str], bool]) -> int:
    end = start
    while end < len(text) and belongs(text[end]):
        end += 1
    return end


def _word(word: str, grammar: _Grammar) -> _Token:
    if word not in grammar.known:
        shown = word if len(word) <= 20 else word[:20] + "…"
        message = _("Unknown word “{word}”: this dice line knows {words}.").format(
            word=shown, words=", ".join(grammar.listed)
        )
        raise UnknownDiceWord(message, word, grammar.listed)
    return _Token("word", word)


# --- Parser: recursive descent over the tokens -----------------------------------------------------------


class _Parser(DiceReader):
    def __init__(self, tokens: list[_Token], grammar: _Grammar) -> None:
        self._tokens = tokens
        self._index = 0
        self._grammar = grammar

    def _peek(self) -> _Token:
        return self._tokens[self._index] if self._index < len(self._tokens) else _END

    def _next(self) -> _Token:
        token = self._peek()
        self._index += 1
        return token

    def _accept(self, *texts: str) -> _Token | None:
        token = self._peek()
        if token.kind in ("word", "symbol") and token.text in texts:
            return self._next()
        return None

    def accept(self, *words: str) -> str | None:
        """The next word if it is one of ``words`` (consumed), else None: what a game's DiceWord reads."""
        token = self._peek()
        return self._next().text if token.kind == "word" and token.text in words else None

    def number(self, after: str) -> int:
        """The next token as a number (``after`` names what it follows in the message when it is not one)."""
        token = self._next()
        if token.kind != "number":
            raise DiceError(_("Put a number after “{word}”.").format(word=after))
        if len(token.text) > MAX_NUMBER_DIGITS:
            shown = token.text if len(token.text) <= 12 else token.text[:12] + "…"
            raise DiceError(_("{number} is too large for a dice line.").format(number=shown))
        return int(token.text)

    def line(self) -> DiceExpression:
        terms, constant = self._sum()
        token = self._peek()
        if token.kind == "end":
            return SumExpression(tuple(terms), constant)
        if token.text not in self._grammar.tests and token.text != _UNDER and token.text not in COMPARISONS:
            raise self._unexpected(token)
        dice = _single_group(terms, constant, self._next().text, self._example(token.text))
        expression = self._test(token.text, dice)
        extra = self._peek()
        if extra.kind != "end":
            raise DiceError(
                _("Nothing can follow {expression}; “{token}” is extra.").format(
                    expression=expression.text, token=extra.text
                )
            )
        return expression

    def _example(self, keyword: str) -> str:
        word = self._grammar.tests.get(keyword)
        if word is not None:
            return word.example or keyword
        return _UNDER_EXAMPLE if keyword == _UNDER else _COMPARE_EXAMPLE

    def _sum(self) -> tuple[list[DiceTerm], int]:
        terms: list[DiceTerm] = []
        constant = 0
        sign = self._accept("+", "-")
        for _count in range(MAX_TERMS):
            term = self._term(-1 if sign is not None and sign.text == "-" else 1)
            if isinstance(term, DiceTerm):
                terms.append(term)
            else:
                constant += term
            sign = self._accept("+", "-")
            if sign is None:
                return terms, constant
        raise DiceError(_("A dice line can have at most {limit} terms.").format(limit=MAX_TERMS))

    def _term(self, sign: int) -> DiceTerm | int:
        token = self._peek()
        if token.kind == "number":
            count = self.number("+")
            if self._accept(*_DICE_LETTERS) is None:
                return sign * count
            return self._keep(DiceTerm(_check_count(count), self._sides(), sign))
        if self._accept(*_DICE_LETTERS) is not None:
            return self._keep(DiceTerm(1, self._sides(), sign))
        raise self._unexpected(token)

    def _keep(self, dice: DiceTerm) -> DiceTerm:
        """``dice`` with the ``kh``/``kl`` after it, if any (no number: keep one)."""
        word = self.accept(*_KEEP_WORDS)
        if word is None:
            return dice
        keep = self.number(word) if self._peek().kind == "number" else 1
        return DiceTerm(dice.count, dice.sides, dice.sign, _check_keep(keep, dice, word), word == KEEP_LOWEST)

    def _sides(self) -> int:
        if self._accept("%") is not None:
            return 100
        if self._peek().kind != "number":
            raise DiceError(_("Put the number of sides after the d, e.g. 3d6."))
        return _check_sides(self.number("d"))

    def _test(self, keyword: str, dice: DiceTerm) -> DiceExpression:
        word = self._grammar.tests.get(keyword)
        if word is not None:
            return word.read(dice, self)
        if keyword == _UNDER:
            return self._roll_under(dice)
        return ThresholdCount(dice.count, dice.sides, keyword, self.number(keyword))

    def _roll_under(self, dice: DiceTerm) -> RollUnderTest:
        if dice.count != 1 or dice.sides not in (20, 100):
            raise DiceError(
                _("A roll-under test rolls one d20 or d100; add bonus dice as +1b and penalty dice as +1p.")
            )
        target = self.number(_UNDER)
        bonus = penalty = 0
        while (sign := self._accept("+", "-")) is not None:
            count, letter = self.number(sign.text), self._next()
            if letter.text not in ("b", "p") or sign.text == "-":
                raise DiceError(
                    _("Write bonus dice as +{count}b and penalty dice as +{count}p.").format(count=count)
                )
            bonus, penalty = (bonus + count, penalty) if letter.text == "b" else (bonus, penalty + count)
        if abs(bonus - penalty) >= MAX_DICE_PER_TERM:
            raise DiceError(
                _("A roll-under test rolls at most {limit} dice.").format(limit=MAX_DICE_PER_TERM)
            )
        tens = self._accept(TENS_WORD) is not None
        if tens and dice.sides != PERCENTILE:
            raise DiceError(_("Only a d100 has tens dice: write e.g. d100 under 45 +1b tens."))
        return RollUnderTest(dice.sides, target, bonus, penalty, tens)

    def _unexpected(self, token: _Token) -> DiceError:
        examples = self._grammar.examples
        if token.kind == "number" or token.text in _DICE_LETTERS:
            return DiceError(
                _("Join the terms with + or -, e.g. 3d6+2; “{token}” stands alone.").format(token=token.text)
            )
        if token.kind == "end":
            return DiceError(_("The dice line ends too early; write e.g. {examples}.").format(examples=examples))
        return DiceError(
            _("“{token}” does not fit here; write e.g. {examples}.").format(token=token.text, examples=examples)
        )


def _check_count(count: int) -> int:
    if count < 1:
        raise DiceError(_("Roll at least one die."))
    if count > MAX_DICE_PER_TERM:
        raise DiceError(
            _("{count} dice are too many: at most {limit} in one term.").format(
                count=count, limit=MAX_DICE_PER_TERM
            )
        )
    return count


def _check_keep(keep: int, dice: DiceTerm, word: str) -> int:
    if keep < 1:
        raise DiceError(_("Keep at least one die: {dice}{word}1, not {word}{keep}.").format(
            dice=dice_text(dice.count, dice.sides), word=word, keep=keep))
    if keep > dice.count:
        message = ngettext("{dice} rolls {count} die: it can keep at most {count}, not {keep}.",
                           "{dice} rolls {count} dice: it can keep at most {count}, not {keep}.", dice.count)
        raise DiceError(message.format(dice=dice_text(dice.count, dice.sides), count=dice.count, keep=keep))
    return keep


def _check_sides(sides: int) -> int:
    if sides < 2:
        raise DiceError(_("A die needs at least 2 sides, not {sides}.").format(sides=sides))
    if sides > MAX_SIDES:
        raise DiceError(
            _("A die can have at most {limit} sides, not {sides}.").format(limit=MAX_SIDES, sides=sides)
        )
    return sides


def _single_group(terms: list[DiceTerm], constant: int, keyword: str, example: str) -> DiceTerm:
    # A test rolls one group of dice: "12d6+2 tn 5" would silently drop the +2, so refuse it; and a test counts
    # every die it rolls, so "2d20kh1 under 12" would silently roll both dice.
    if len(terms) == 1 and terms[0].keep and constant == 0 and terms[0].sign > 0:
        raise DiceError(
            _("Keeping dice (“{dice}”) works in sums only, not before “{keyword}”; write e.g. {example}.").format(
                dice=terms[0].text, keyword=keyword, example=example
            )
        )
    if constant != 0 or len(terms) != 1 or terms[0].sign < 0:
        raise DiceError(
            _("Put exactly one group of dice before “{keyword}”, e.g. {example}.").format(
                keyword=keyword, example=example
            )
        )
    return terms[0]
