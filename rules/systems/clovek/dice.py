"""Člověk d10 tests: success and reroll numbers, critical failures, the outcome ladder, the dice line's ``skill``.

``8d10 skill 3 knowledge``: a die showing 10 − skill (at least 5) is a success, a 10 is rolled again (a
supernatural skill rerolls from 15 − skill); no success with a die in the kind's critical range is a critical
failure. The functions take *chains* (one sequence of faces per die, the rerolls after the first face), so the
check operation, the odds and the dice line share them. Two readings of the text are the encounter's
(:class:`RollRules`): whom the minimum success number 5 binds, and what rerolls when 15 − skill is below the
success number.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Final

from rules.dice import (
    FAILURE,
    MAX_REROLLS,
    Chains,
    DiceError,
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

CRITICAL_FAILURE: Final[str] = N_("critical failure")
#: Člověk outcome ladder indexed by successes (5 or more is the last word).
CLOVEK_LADDER: Final[tuple[str, ...]] = (
    FAILURE,
    N_("basic success"),
    N_("full success"),
    N_("very good success"),
    N_("very good success"),
    N_("total success"),
)


class SkillKind(StrEnum):
    """What a Člověk skill is; it sets the critical failure range."""

    TALENT = "talent"
    ABILITY = "ability"
    KNOWLEDGE = "knowledge"

    def label(self) -> str:
        """The kind in the GM's language."""
        return _(_KIND_WORDS[self])


_KIND_WORDS: Final[dict[SkillKind, str]] = {
    SkillKind.TALENT: N_("talent"),
    SkillKind.ABILITY: N_("ability"),
    SkillKind.KNOWLEDGE: N_("knowledge"),
}
#: Highest original face that counts toward a critical failure: talent 1, ability 1–2, knowledge 1–4.
CRITICAL_RANGE: Final[dict[SkillKind, int]] = {
    SkillKind.TALENT: 1,
    SkillKind.ABILITY: 2,
    SkillKind.KNOWLEDGE: 4,
}


def clovek_face(face: int) -> int:
    """A d10 face as it reads: the 0 on the die is a 10."""
    return 10 if face == 0 else face


#: clovek.md: "u nadpřirozených dovedností je minimální číslo úspěchu 5"; the summary: "min. číslo na kostce pro
#: úspěch je 5" for every roll.
MIN_SUCCESS_NUMBER: Final[int] = 5
#: A literal reroll from 15 − skill would reroll every face from skill 14 on, and a die would never stop: a 1
#: always ends the chain.
LOWEST_REROLL: Final[int] = 2


@dataclass(frozen=True)
class RollRules:
    """The encounter's reading of the two Decisions of clovek.md "Rolling".

    ``floor_every_skill``: the minimum success number 5 binds every roll (default, as the summary says) or only
    supernatural skills (as the text's parenthesis says). ``literal_reroll``: a supernatural skill whose 15 − skill
    is below its success number (skill 11+) rerolls every die at or above 15 − skill, a failed one too (literal),
    or only its successful dice (default: the reroll is "pro zisk dalšího úspěchu", for further successes).
    """

    floor_every_skill: bool = True
    literal_reroll: bool = False
    two_digit_faces: bool = False  # the table's d10s show 00–90: a typed "10" is a 1 (see read_clovek_faces)


DEFAULT_ROLL_RULES: Final[RollRules] = RollRules()


#: clovek.md "Dice banks": "10 je potom tedy jedna, 20 je dva, 00 je deset" (on d10s whose faces all have two
#: digits, the second a zero, the second digit is ignored).
TWO_DIGIT_FACES: Final[dict[str, int]] = {"00": 10, **{f"{digit}0": digit for digit in range(1, 10)}}
_NUMBER: Final[re.Pattern[str]] = re.compile(r"\d+", re.ASCII)


def read_clovek_faces(text: str, two_digit: bool = False) -> str:
    """Typed Člověk faces with the two-digit dice's spellings read as the faces they are (``"10, 50, 00+30"`` →
    ``"1, 5, 10+3"``); the text unchanged when it has none, so a lone "10" stays a ten.

    "10" is both a ten of a 0–9 die and a one of a 00–90 die: it is a one when the table's dice have two digits
    (``two_digit``, the encounter's option) or when another face of the text is spelled so (00, 20–90).
    DiceError for a number no d10 shows in either spelling.
    """
    numbers = _NUMBER.findall(text)
    spelled = two_digit or any(number in TWO_DIGIT_FACES and number != "10" for number in numbers)
    for number in numbers:
        if len(number) > 1 and number not in TWO_DIGIT_FACES:
            raise DiceError(_("“{face}” is no d10 face: type 1 to 10 (0 is 10), or as two-digit dice show it, "
                              "10 to 90 and 00 (10 is 1, 00 is 10).").format(face=number[:16]))
    if not spelled:
        return text
    return _NUMBER.sub(lambda match: str(TWO_DIGIT_FACES.get(match.group(), match.group())), text)


def clovek_success_number(skill: int, supernatural: bool = False, rules: RollRules = DEFAULT_ROLL_RULES) -> int:
    """Lowest face that is a success: 10 − skill, never below 5 where the floor binds (below 1 every face
    succeeds, so it is said as 1)."""
    floor = MIN_SUCCESS_NUMBER if rules.floor_every_skill or supernatural else 1
    return max(floor, 10 - skill)


def clovek_reroll_number(skill: int, supernatural: bool, rules: RollRules = DEFAULT_ROLL_RULES) -> int:
    """Lowest face that is rolled again: 10, or 15 − skill for a supernatural skill.

    A 10 always rerolls. By default the reroll number never drops below the success number; read literally it
    may (a failed die rerolls too), though never to 1.
    """
    if not supernatural:
        return 10
    if rules.literal_reroll:
        return min(10, max(15 - skill, LOWEST_REROLL))
    return min(10, max(15 - skill, clovek_success_number(skill, supernatural, rules)))


def count_clovek_successes(chains: Sequence[Sequence[int]], skill: int, supernatural: bool = False,
                           rules: RollRules = DEFAULT_ROLL_RULES) -> int:
    """Faces at or above the success number, rerolls included.

    Faces typed after a die that does not reroll are ignored, so a wrong chain cannot add successes.
    """
    success = clovek_success_number(skill, supernatural, rules)
    reroll = clovek_reroll_number(skill, supernatural, rules)
    total = 0
    for chain in chains:
        for face in map(clovek_face, chain):
            total += face >= success
            if face < reroll:
                break
    return total


def clovek_critical_failure(chains: Sequence[Sequence[int]], skill: int, kind: SkillKind, supernatural: bool = False,
                            rules: RollRules = DEFAULT_ROLL_RULES) -> bool:
    """No success and at least one die (as first rolled, not a reroll) in the kind's critical range."""
    if count_clovek_successes(chains, skill, supernatural, rules) > 0:
        return False
    top = CRITICAL_RANGE[SkillKind(kind)]
    return any(1 <= clovek_face(chain[0]) <= top for chain in chains if len(chain) > 0)


def clovek_outcome_id(successes: int) -> str:
    """The untranslated outcome word for a number of successes (store this, translate when shown)."""
    return CLOVEK_LADDER[min(max(successes, 0), len(CLOVEK_LADDER) - 1)]


def clovek_outcome(successes: int) -> str:
    """The outcome word in the GM's language: failure, basic, full, very good, total success (5+)."""
    return _(clovek_outcome_id(successes))


def clovek_chain_problem(chain: Sequence[int], skill: int, supernatural: bool,
                         rules: RollRules = DEFAULT_ROLL_RULES) -> str | None:
    """Why a typed-in Člověk die cannot be right (translated), or None when it can."""
    reroll = clovek_reroll_number(skill, supernatural, rules)
    faces = [clovek_face(face) for face in chain]
    text = format_chain(faces)
    if any(face < reroll for face in faces[:-1]):
        if reroll == 10:
            return _("Only a 10 is rolled again ({chain}).").format(chain=text)
        return _("Only a die showing {number} or more is rolled again ({chain}).").format(
            number=reroll, chain=text
        )
    if faces[-1] >= reroll and len(faces) <= MAX_REROLLS:
        return _("A {face} is rolled again: type the reroll after a plus, e.g. {chain}+3.").format(
            face=faces[-1], chain=text
        )
    return None


@dataclass(frozen=True)
class ClovekResult(RollResult):
    """A d10 test's result; ``critical_failure``: no success and a die in the critical range; ``read_as``: the
    faces as read when the GM typed a two-digit die's spellings ("" otherwise)."""

    critical_failure: bool = False
    read_as: str = ""


def read_as_note(summary: str, result: RollResult) -> str:
    """The summary, and the faces as read when they were typed as two-digit dice show them."""
    read_as = result.read_as if isinstance(result, ClovekResult) else ""
    return _("{summary} (read as {faces})").format(summary=summary, faces=read_as) if read_as else summary


@dataclass(frozen=True)
class ClovekTest(DiceExpression):
    """Člověk test ``8d10 skill 3 ability``: success on 10 − skill (min 5), a 10 (or more) rerolls."""

    count: int
    skill: int
    kind: SkillKind = SkillKind.ABILITY
    supernatural: bool = False
    rules: RollRules = DEFAULT_ROLL_RULES

    @property
    def text(self) -> str:
        """``8d10 skill 3 ability`` (plus ``supernatural``)."""
        text = f"{dice_text(self.count, 10)} skill {self.skill} {self.kind.value}"
        return text + " supernatural" if self.supernatural else text

    def label(self) -> str:
        """The test in the GM's language."""
        if self.supernatural:
            message = _("{dice} supernatural skill {skill} ({kind})")
        else:
            message = _("{dice} skill {skill} ({kind})")
        return message.format(dice=dice_text(self.count, 10), kind=self.kind.label(), skill=self.skill)

    def die_sides(self) -> tuple[int, ...]:
        """All d10."""
        return (10,) * self.count

    def rerolls(self, chain: Sequence[int]) -> bool:
        """A die at or above the reroll number is rolled again."""
        return chain[-1] >= clovek_reroll_number(self.skill, self.supernatural, self.rules)

    def chain_problem(self, chain: Sequence[int]) -> str | None:
        """Rerolls only after a reroll face, and always after one."""
        return clovek_chain_problem(chain, self.skill, self.supernatural, self.rules)

    def from_faces(self, text: str) -> RollResult:
        """Typed faces, a two-digit die's spellings included ("10" is a 1 there, "00" a 10), shown as read."""
        plain = read_clovek_faces(text, self.rules.two_digit_faces)
        result = super().from_faces(plain)
        if plain == text or not isinstance(result, ClovekResult):
            return result
        return replace(result, read_as=result.faces_text())

    def evaluate(self, faces: Chains) -> ClovekResult:
        """Count successes, name the outcome, flag a critical failure."""
        successes = count_clovek_successes(faces, self.skill, self.supernatural, self.rules)
        if clovek_critical_failure(faces, self.skill, self.kind, self.supernatural, self.rules):
            return ClovekResult(self, faces, 0, 0, outcome=CRITICAL_FAILURE, critical_failure=True)
        return ClovekResult(self, faces, successes, successes, outcome=clovek_outcome_id(successes))

    def summarize(self, result: RollResult) -> str:
        """ "2 successes, full success" (and the faces as read, typed as two-digit dice show them)."""
        return read_as_note(summary_with_outcome(result, show_outcome=True), result)


SUPERNATURAL: Final[str] = "supernatural"


class SkillWord(DiceWord):
    """``skill N`` after a group of d10, then the kind and ``supernatural`` (each once, in any order)."""

    word = "skill"
    flags = frozenset({*(kind.value for kind in SkillKind), SUPERNATURAL})
    example = "8d10 skill 3 ability"

    def read(self, dice: DiceTerm, reader: DiceReader) -> ClovekTest:
        self.require_sides(dice, 10, _("A skill test rolls d10, not d{sides}."))
        skill = reader.number(self.word)
        kind: SkillKind | None = None
        supernatural = False
        while (flag := reader.accept(*sorted(self.flags))) is not None:
            if flag == SUPERNATURAL and not supernatural:
                supernatural = True
            elif flag != SUPERNATURAL and kind is None:
                kind = SkillKind(flag)
            else:
                raise DiceError(_("Say “{word}” or another skill kind only once.").format(word=flag))
        return ClovekTest(dice.count, skill, kind or SkillKind.ABILITY, supernatural)


#: The words Člověk adds to the dice line.
DICE_WORDS: Final[tuple[DiceWord, ...]] = (SkillWord(),)
