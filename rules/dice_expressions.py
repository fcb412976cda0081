"""Parsed dice expressions: how each kind is rolled, how typed-in faces are checked, what the result means.

:func:`rules.dice.parse` builds these; everything here is re-exported by :mod:`rules.dice`. These are the forms
every game may use; a game's own tests (SR3's ``tn``, Člověk's ``skill``) subclass :class:`DiceExpression` in
the game's package.
"""

from __future__ import annotations

import operator
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from rules.dice_faces import MAX_FACES_TEXT_LENGTH, Chains, format_faces, read_face, read_faces
from rules.dice_rules import (
    FAILURE,
    MAX_REROLLS,
    PERCENTILE,
    SUCCESS,
    format_chain,
    percentile_face,
    roll_under_dice,
    roll_under_kept,
    shared_units_problem,
)
from rules.errors import DiceError
from rules.text import _, ngettext

#: describe() lists at most this many dice, then an ellipsis, so one huge roll cannot flood the log.
DESCRIBE_MAX_DICE: Final[int] = 40
#: Typed faces longer than this are counted before they are read.
_LONG_FACES: Final[int] = 1000


class Roller:
    """Rolls dice with an injected ``random.Random``: seed it for reproducible rolls, never global state."""

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng

    @classmethod
    def seeded(cls, seed: int) -> Roller:
        """A roller with its own ``random.Random(seed)``."""
        return cls(random.Random(seed))

    def die(self, sides: int) -> int:
        """One die with faces 1..sides."""
        if sides < 1:
            raise DiceError(_("A die needs at least one side."))
        return self._rng.randint(1, sides)

    def dice(self, count: int, sides: int) -> list[int]:
        """``count`` dice with faces 1..sides."""
        return [self.die(sides) for _index in range(count)]


def roll_chain(roller: Roller, sides: int, rerolls: Callable[[Sequence[int]], bool]) -> tuple[int, ...]:
    """Roll one die and roll it again while ``rerolls(chain)`` says so, at most MAX_REROLLS times."""
    chain = [roller.die(sides)]
    while len(chain) <= MAX_REROLLS and rerolls(chain):
        chain.append(roller.die(sides))
    return tuple(chain)


@dataclass(frozen=True)
class RollResult:
    """One roll, rolled or typed in.

    ``total`` is the number the GM reads: the sum (dice and constants), the number of successes, or for a
    roll-under test the kept face. ``successes`` is None for plain sums (a roll-under test: 1 or 0).
    ``outcome`` is the untranslated outcome word ("" when there is none); it is translated when shown.
    A game's test may return a subclass that says more (SR3's rule of one, Člověk's critical failure).
    """

    expression: DiceExpression
    faces: Chains
    total: int
    successes: int | None = None
    outcome: str = ""

    def outcome_text(self) -> str:
        """The outcome word in the GM's language ("" when the roll has none)."""
        # gettext("") returns the catalog header, hence the guard.
        return _(self.outcome) if self.outcome else ""

    def faces_text(self) -> str:
        """All faces as the GM would type them; ``expression.from_faces`` reads it back."""
        return format_faces(self.faces)

    def describe(self) -> str:
        """One log line, e.g. "12d6 TN 5: 4 successes (1, 5, 6+2, …)"."""
        expression = self.expression.label()
        summary = self.expression.summarize(self)
        if not self.faces:
            return _("{expression}: {summary}").format(expression=expression, summary=summary)
        faces = format_faces(self.faces, DESCRIBE_MAX_DICE)
        return _("{expression}: {summary} ({faces})").format(
            expression=expression, summary=summary, faces=faces
        )


def successes_phrase(count: int) -> str:
    """ "1 success" / "4 successes" in the GM's language (with its plural forms)."""
    return ngettext("{count} success", "{count} successes", count).format(count=count)


def dice_text(count: int, sides: int) -> str:
    """Canonical dice notation: ``3d6``, and ``d20`` for a single die."""
    return f"d{sides}" if count == 1 else f"{count}d{sides}"


class DiceExpression(ABC):
    """A parsed dice line: roll it with a :class:`Roller`, or read the faces the players typed in."""

    @property
    @abstractmethod
    def text(self) -> str:
        """Canonical text; ``parse(expression.text)`` gives an equal expression."""

    @abstractmethod
    def die_sides(self) -> tuple[int, ...]:
        """The sides of every die rolled, in order (one entry per die, not per face)."""

    @abstractmethod
    def evaluate(self, faces: Chains) -> RollResult:
        """The result of already checked faces."""

    @abstractmethod
    def summarize(self, result: RollResult) -> str:
        """The result part of a log line, translated ("4 successes", "13")."""

    def label(self) -> str:
        """The expression in the GM's language, for the log."""
        return self.text

    def rerolls(self, chain: Sequence[int]) -> bool:
        """True when the die must be rolled again (only the exploding tests say so)."""
        return False

    def chain_problem(self, chain: Sequence[int]) -> str | None:
        """Why a typed-in chain cannot be right (translated), or None."""
        if len(chain) > 1:
            return _("Dice in {expression} are not rolled again ({chain}).").format(
                expression=self.label(), chain=format_chain(chain)
            )
        return None

    def roll(self, roller: Roller) -> RollResult:
        """Roll every die (with its rerolls) and evaluate."""
        return self.evaluate(tuple(roll_chain(roller, sides, self.rerolls) for sides in self.die_sides()))

    def from_faces(self, text: str) -> RollResult:
        """Evaluate faces typed in as text, e.g. ``"3,4,6,6+2,1"``; raises DiceError with a clear message."""
        # A long paste with too many dice is refused before it is read: every comma starts another die, and
        # so does every space, except where a plus (a standalone "+" joins up to three words) glues them.
        if _LONG_FACES < len(text) <= MAX_FACES_TEXT_LENGTH:
            words = len(text.replace(",", " ").replace(";", " ").split())
            least = max(text.count(",") + text.count(";") + 1, words - 2 * text.count("+"))
            if least > len(self.die_sides()):
                raise self._count_error(least)
        run = self._digit_run(text)
        return self.from_chains(run if run is not None else read_faces(text))

    def _digit_run(self, text: str) -> tuple[tuple[int], ...] | None:
        """``44516`` for five d6: one face per digit, when every die has at most 9 sides and the digits are exactly
        as many as the dice (at the table, four keys for 4d6 instead of ten; a d10's "10" is never read so)."""
        compact, sides = text.strip(), self.die_sides()
        if 1 < len(sides) == len(compact) and compact.isascii() and compact.isdigit() and max(sides) <= 9:
            return tuple((int(digit),) for digit in compact)
        return None

    def from_chains(self, chains: Sequence[Sequence[int]]) -> RollResult:
        """Check faces given as numbers (one chain per die, 0 allowed on a d10) and evaluate them."""
        sides = self.die_sides()
        if len(chains) != len(sides):
            raise self._count_error(len(chains))
        return self.evaluate(
            tuple(self._check_chain(chain, size) for chain, size in zip(chains, sides, strict=True))
        )

    def _count_error(self, typed: int) -> DiceError:
        needed = len(self.die_sides())
        message = ngettext(
            "{expression} needs {needed} face, you typed {typed}.",
            "{expression} needs {needed} faces, you typed {typed}.",
            needed,
        )
        return DiceError(message.format(expression=self.label(), needed=needed, typed=typed))

    def _check_chain(self, chain: Sequence[int], sides: int) -> tuple[int, ...]:
        if not chain:
            raise DiceError(_("Every die needs a face."))
        if len(chain) > MAX_REROLLS + 1:
            raise DiceError(_("A die can be rolled again at most {limit} times.").format(limit=MAX_REROLLS))
        faces = tuple(read_face(face, sides) for face in chain)
        problem = self.chain_problem(faces)
        if problem is not None:
            raise DiceError(problem)
        return faces

    def __str__(self) -> str:
        return self.text


#: The dice line's words for keeping only some dice of a term: ``2d20kh1``, ``4d6kl3``.
KEEP_HIGHEST: Final[str] = "kh"
KEEP_LOWEST: Final[str] = "kl"


@dataclass(frozen=True)
class DiceTerm:
    """``count`` dice of ``sides`` sides, added (sign +1) or subtracted (sign -1).

    ``keep`` > 0 counts only that many of them, the highest (``2d20kh1``) or with ``lowest`` the lowest
    (``4d6kl3``); 0 counts every die. Every die is still rolled (or typed in).
    """

    count: int
    sides: int
    sign: int = 1
    keep: int = 0
    lowest: bool = False

    @property
    def text(self) -> str:
        """``3d6``, ``d20``, ``4d6kl3``, with a leading minus when subtracted."""
        kept = f"{KEEP_LOWEST if self.lowest else KEEP_HIGHEST}{self.keep}" if self.keep else ""
        return ("-" if self.sign < 0 else "") + dice_text(self.count, self.sides) + kept

    def kept(self, faces: Sequence[int]) -> list[int]:
        """The faces this term counts, of the faces its dice show."""
        if not self.keep:
            return list(faces)
        ordered = sorted(faces, reverse=not self.lowest)
        return ordered[: self.keep]


@dataclass(frozen=True)
class SumExpression(DiceExpression):
    """Dice and constants added up: ``3d6+1d4+2``, ``2d10-1``, ``-1``, ``2d20kh1+3``."""

    terms: tuple[DiceTerm, ...]
    constant: int = 0

    @property
    def text(self) -> str:
        """Dice terms first, then the constant (``2+3d6`` reads back as ``3d6+2``)."""
        parts = [term.text for term in self.terms]
        if self.constant or not parts:
            parts.append(str(self.constant))
        return "".join(
            part if index == 0 or part[0] == "-" else "+" + part for index, part in enumerate(parts)
        )

    def die_sides(self) -> tuple[int, ...]:
        """One entry per die, term after term (a keeping term's dropped dice too: they are rolled)."""
        return tuple(term.sides for term in self.terms for _index in range(term.count))

    def evaluate(self, faces: Chains) -> RollResult:
        """Add the dice each term keeps (with its sign) and the constant."""
        total, start = self.constant, 0
        for term in self.terms:
            shown = [sum(chain) for chain in faces[start : start + term.count]]
            total += term.sign * sum(term.kept(shown))
            start += term.count
        return RollResult(self, faces, total)

    def summarize(self, result: RollResult) -> str:
        """Just the total."""
        return str(result.total)


@dataclass(frozen=True)
class RollUnderTest(DiceExpression):
    """Roll-under test ``d20 under 12 +1b``: keep the lowest (bonus) or highest (penalty) die, <= target.

    ``tens`` (a d100 only, ``d100 under 45 +1b tens``): the bonus and penalty dice are extra tens dice beside one
    units die, so every face ends in the same digit (:mod:`rules.dice_rules`).
    """

    sides: int
    target: int
    bonus: int = 0
    penalty: int = 0
    tens: bool = False

    def __post_init__(self) -> None:
        if self.tens and self.sides != PERCENTILE:
            raise DiceError(_("Only a d100 has tens dice."))

    @property
    def text(self) -> str:
        """``d20 under 12 +1b +2p`` (bonus and penalty dice as typed, before cancelling)."""
        extras = (f" +{self.bonus}b" if self.bonus else "") + (f" +{self.penalty}p" if self.penalty else "")
        return f"d{self.sides} under {self.target}{extras}" + (f" {TENS_WORD}" if self.tens else "")

    def label(self) -> str:
        """The test in the GM's language, e.g. "d20 under 12, 1 bonus die"."""
        parts = [_("d{sides} under {target}").format(sides=self.sides, target=self.target)]
        if self.bonus:
            parts.append(
                ngettext("{count} bonus die", "{count} bonus dice", self.bonus).format(count=self.bonus)
            )
        if self.penalty:
            parts.append(
                ngettext("{count} penalty die", "{count} penalty dice", self.penalty).format(
                    count=self.penalty
                )
            )
        if self.tens and self.bonus != self.penalty:
            parts.append(_("as tens dice"))
        return ", ".join(parts)

    def die_sides(self) -> tuple[int, ...]:
        """One die, plus one per bonus or penalty die left after cancelling."""
        return (self.sides,) * roll_under_dice(self.bonus, self.penalty)

    def roll(self, roller: Roller) -> RollResult:
        """Every die on its own, or with ``tens`` one units die shared by all the tens dice."""
        if not self.tens:
            return super().roll(roller)
        units = roller.die(10) - 1
        return self.evaluate(tuple((percentile_face(roller.die(10) - 1, units),) for _die in self.die_sides()))

    def from_chains(self, chains: Sequence[Sequence[int]]) -> RollResult:
        """Typed faces, checked as any test's and, with ``tens``, for their shared units die."""
        result = super().from_chains(chains)
        problem = shared_units_problem([chain[0] for chain in result.faces]) if self.tens else None
        if problem is not None:
            raise DiceError(problem)
        return result

    def evaluate(self, faces: Chains) -> RollResult:
        """Keep the right die and compare it with the target."""
        kept = roll_under_kept([chain[0] for chain in faces], self.bonus, self.penalty)
        succeeded = kept <= self.target
        return RollResult(self, faces, kept, int(succeeded), outcome=SUCCESS if succeeded else FAILURE)

    def summarize(self, result: RollResult) -> str:
        """ "rolled 7, success"."""
        return _("rolled {face}, {outcome}").format(face=result.total, outcome=result.outcome_text())


#: The dice line's word after a d100 roll-under test whose bonus and penalty dice are extra tens dice.
TENS_WORD: Final[str] = "tens"


#: Comparisons a threshold count accepts, by their canonical symbol.
COMPARISONS: Final[dict[str, Callable[[int, int], bool]]] = {
    ">=": operator.ge,
    ">": operator.gt,
    "<=": operator.le,
    "<": operator.lt,
}


@dataclass(frozen=True)
class ThresholdCount(DiceExpression):
    """Count the dice meeting a threshold: ``4d6 >=4`` (also ``>``, ``<=``, ``<``)."""

    count: int
    sides: int
    comparison: str
    threshold: int

    @property
    def text(self) -> str:
        """``4d6 >= 4``."""
        return f"{dice_text(self.count, self.sides)} {self.comparison} {self.threshold}"

    def die_sides(self) -> tuple[int, ...]:
        """All the same die."""
        return (self.sides,) * self.count

    def evaluate(self, faces: Chains) -> RollResult:
        """How many dice meet the threshold."""
        meets = COMPARISONS[self.comparison]
        successes = sum(1 for chain in faces if meets(chain[0], self.threshold))
        return RollResult(self, faces, successes, successes)

    def summarize(self, result: RollResult) -> str:
        """ "2 successes"."""
        return successes_phrase(result.total)


def summary_with_outcome(result: RollResult, show_outcome: bool) -> str:
    """ "2 successes", and with ``show_outcome`` the outcome word too ("0 successes, failure")."""
    phrase = successes_phrase(result.successes or 0)
    if not show_outcome:
        return phrase
    return _("{successes}, {outcome}").format(successes=phrase, outcome=result.outcome_text())
