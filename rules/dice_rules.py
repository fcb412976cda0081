"""Game arithmetic on rolled faces: SR3 success tests, Člověk d10 tests, roll-under tests.

Every function takes *chains*: one sequence of faces per die, the first face being the die as rolled and
any further faces its rerolls (an SR3 ``6+2``, a Člověk ``10+10+3``). The system modules reuse these, so they
stay free of parsing and of randomness. Re-exported by :mod:`rules.dice`.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Final

from rules.errors import DiceError
from rules.text import N_, _, ngettext

#: A die may be rolled again at most this many times (a chain holds at most MAX_REROLLS + 1 faces), so a
#: rigged ``random.Random`` that always shows a 6 or a 10 cannot hang the app.
MAX_REROLLS: Final[int] = 100

#: Outcome words, marked for extraction and translated when shown (so a language switch re-renders them).
FAILURE: Final[str] = N_("failure")
SUCCESS: Final[str] = N_("success")
RULE_OF_ONE: Final[str] = N_("rule of one: catastrophic failure")
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


def format_chain(chain: Sequence[int]) -> str:
    """One die as the GM types it: ``6``, or ``6+2`` for a die rolled again."""
    return "+".join(str(face) for face in chain)


# --- Shadowrun 3 -------------------------------------------------------------------------------------


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


# --- Člověk --------------------------------------------------------------------------------------------


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


def clovek_success_number(skill: int) -> int:
    """Lowest face that is a success: 10 − skill, never below 5."""
    return max(5, 10 - skill)


def clovek_reroll_number(skill: int, supernatural: bool) -> int:
    """Lowest face that is rolled again: 10, or 15 − skill for a supernatural skill.

    A 10 always rerolls, and the reroll number never drops below the success number.
    """
    if not supernatural:
        return 10
    return min(10, max(15 - skill, clovek_success_number(skill)))


def count_clovek_successes(chains: Sequence[Sequence[int]], skill: int, supernatural: bool = False) -> int:
    """Faces at or above the success number, rerolls included.

    Faces typed after a die that does not reroll are ignored, so a wrong chain cannot add successes.
    """
    success = clovek_success_number(skill)
    reroll = clovek_reroll_number(skill, supernatural)
    total = 0
    for chain in chains:
        for face in map(clovek_face, chain):
            total += face >= success
            if face < reroll:
                break
    return total


def clovek_critical_failure(chains: Sequence[Sequence[int]], skill: int, kind: SkillKind) -> bool:
    """No success and at least one die (as first rolled, not a reroll) in the kind's critical range."""
    if count_clovek_successes(chains, skill) > 0:
        return False
    top = CRITICAL_RANGE[SkillKind(kind)]
    return any(1 <= clovek_face(chain[0]) <= top for chain in chains if len(chain) > 0)


def clovek_outcome_id(successes: int) -> str:
    """The untranslated outcome word for a number of successes (store this, translate when shown)."""
    return CLOVEK_LADDER[min(max(successes, 0), len(CLOVEK_LADDER) - 1)]


def clovek_outcome(successes: int) -> str:
    """The outcome word in the GM's language: failure, basic, full, very good, total success (5+)."""
    return _(clovek_outcome_id(successes))


def clovek_chain_problem(chain: Sequence[int], skill: int, supernatural: bool) -> str | None:
    """Why a typed-in Člověk die cannot be right (translated), or None when it can."""
    reroll = clovek_reroll_number(skill, supernatural)
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
