"""SR3 success tests: target numbers, the rule of six and the rule of one, and the dice line's ``tn``.

``12d6 tn 5``: every d6 reaching the target number is a success; above TN 6 a 6 is rolled again and added
(rule of six); all ones fail outright (rule of one). The functions take *chains* (one sequence of faces per
die, the rerolls after the first face), so the attack operations and the odds reuse them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from rules.dice import (
    FAILURE,
    MAX_REROLLS,
    SUCCESS,
    Chains,
    DiceExpression,
    DiceReader,
    DiceTerm,
    DiceWord,
    RollResult,
    dice_text,
    format_chain,
    summary_with_outcome,
)
from rules.text import N_, _

RULE_OF_ONE: Final[str] = N_("rule of one: catastrophic failure")


def sr3_target_number(tn: int) -> int:
    """The target number actually used: a modified TN is never below 2."""
    return max(2, tn)


def sr3_die_total(chain: Sequence[int]) -> int:
    """What one SR3 die counts as: its faces added up (rule of six: 6 + reroll + ...)."""
    return sum(chain)


def sr3_rerolls(chain: Sequence[int], tn: int) -> bool:
    """True when the die must be rolled again: TN above 6, last face a 6, total still below the TN."""
    target = sr3_target_number(tn)
    return target > 6 and chain[-1] == 6 and sr3_die_total(chain) < target


def count_sr3_successes(chains: Sequence[Sequence[int]], tn: int) -> int:
    """Number of dice whose total reaches the target number."""
    target = sr3_target_number(tn)
    return sum(1 for chain in chains if sr3_die_total(chain) >= target)


def rule_of_one(chains: Sequence[Sequence[int]]) -> bool:
    """True when every die shows 1: the test fails outright, whatever the TN."""
    return len(chains) > 0 and all(len(chain) > 0 and chain[0] == 1 for chain in chains)


def sr3_chain_problem(chain: Sequence[int], tn: int) -> str | None:
    """Why a typed-in SR3 die cannot be right (translated), or None when it can.

    Extra 6s after the TN is reached are accepted: players often keep rolling them, and it changes nothing.
    """
    target = sr3_target_number(tn)
    text = format_chain(chain)
    if len(chain) > 1 and target <= 6:
        return _("At TN {tn} a 6 is not rolled again ({chain}).").format(tn=target, chain=text)
    if any(face != 6 for face in chain[:-1]):
        return _("Only a 6 is rolled again ({chain}).").format(chain=text)
    if sr3_rerolls(chain, target) and len(chain) <= MAX_REROLLS:
        return _(
            "At TN {tn} a 6 is rolled again and added: type the reroll after a plus, e.g. {chain}+3."
        ).format(tn=target, chain=text)
    return None


@dataclass(frozen=True)
class Sr3Result(RollResult):
    """A success test's result; ``rule_of_one``: every die showed 1, so it failed whatever the successes."""

    rule_of_one: bool = False


@dataclass(frozen=True)
class TargetNumberTest(DiceExpression):
    """Shadowrun 3 success test ``12d6 tn 5``: a die reaching the TN is a success; rules of six and one."""

    count: int
    tn: int

    @property
    def text(self) -> str:
        """``12d6 TN 5``."""
        return f"{dice_text(self.count, 6)} TN {self.tn}"

    def label(self) -> str:
        """``12d6 TN 5`` in the GM's language, with the TN actually used (never below 2)."""
        return _("{dice} TN {tn}").format(dice=dice_text(self.count, 6), tn=sr3_target_number(self.tn))

    def die_sides(self) -> tuple[int, ...]:
        """All d6."""
        return (6,) * self.count

    def rerolls(self, chain: Sequence[int]) -> bool:
        """Rule of six: above TN 6 a 6 is rolled again and added until the TN is reached."""
        return sr3_rerolls(chain, self.tn)

    def chain_problem(self, chain: Sequence[int]) -> str | None:
        """Only a 6 above TN 6 is rolled again, and it must be while the TN is not reached."""
        return sr3_chain_problem(chain, self.tn)

    def evaluate(self, faces: Chains) -> Sr3Result:
        """Count successes; all ones is the rule of one, which fails outright."""
        if rule_of_one(faces):
            return Sr3Result(self, faces, 0, 0, outcome=RULE_OF_ONE, rule_of_one=True)
        successes = count_sr3_successes(faces, self.tn)
        return Sr3Result(self, faces, successes, successes, outcome=SUCCESS if successes else FAILURE)

    def summarize(self, result: RollResult) -> str:
        """ "4 successes"; with none, also the outcome (failure, or the rule of one)."""
        return summary_with_outcome(result, show_outcome=not result.successes)


class TargetNumberWord(DiceWord):
    """``tn N`` after a group of d6: an SR3 success test."""

    word = "tn"
    example = "12d6 tn 5"

    def read(self, dice: DiceTerm, reader: DiceReader) -> TargetNumberTest:
        self.require_sides(dice, 6, _("A TN test rolls d6, not d{sides}."))
        return TargetNumberTest(dice.count, reader.number(self.word))


#: The words SR3 adds to the dice line.
DICE_WORDS: Final[tuple[DiceWord, ...]] = (TargetNumberWord(),)
