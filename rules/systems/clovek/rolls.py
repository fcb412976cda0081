"""Člověk roll arithmetic on faces already rolled: successes, outcome, critical failure, practice, power.

clovek.md, "Rolling", "Bonuses and penalties" and "Power". The dice helpers of :mod:`rules.dice` count the
successes of a chain of faces; this module adds what follows from them: bonuses first, then penalties, the
outcome word, when a practice point is earned, and the power of a successful action.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from rules.encounter import Encounter
from rules.errors import RulesError
from rules.systems.base import RuleSystem
from rules.systems.clovek.dice import (
    CRITICAL_FAILURE,
    DEFAULT_ROLL_RULES,
    RollRules,
    SkillKind,
    clovek_critical_failure,
    clovek_face,
    clovek_outcome,
    clovek_outcome_id,
    clovek_reroll_number,
    clovek_success_number,
    count_clovek_successes,
)
from rules.text import N_, _

#: Successes from which a roll is a total success (and, on the dice alone, earns a practice point).
TOTAL_SUCCESS: Final[int] = 5
#: Highest face of a power roll that makes a critical failure (digest: 1–2; the seed's 2, 5, 4 example reads as 1).
POWER_CRITICAL_RANGE: Final[int] = 2

Chains = Sequence[Sequence[int]]

#: clovek.md Decision: the minimum success number 5 binds every roll (default) or only supernatural skills.
SUCCESS_FLOOR, FLOOR_EVERY_SKILL, FLOOR_SUPERNATURAL = "success_floor", "every_skill", "supernatural"
#: clovek.md Decision: at skill 11+ a supernatural skill rerolls its successful dice only (default) or, literally,
#: every die at or above 15 − skill.
SUPERNATURAL_REROLL, REROLL_SUCCESSES, REROLL_LITERAL = "supernatural_reroll", "successes", "literal"

#: clovek.md "Dice banks": some d10s show 00–90 ("10 je potom tedy jedna … 00 je deset"): how a typed "10" reads.
D10_FACES, FACES_PLAIN, FACES_TWO_DIGIT = "d10_faces", "plain", "two_digit"


def roll_rules(system: RuleSystem, encounter: Encounter) -> RollRules:
    """The encounter's reading of the two Rolling Decisions and of its d10s' faces, for every roll it makes."""
    return RollRules(floor_every_skill=system.option(encounter, SUCCESS_FLOOR) != FLOOR_SUPERNATURAL,
                     literal_reroll=system.option(encounter, SUPERNATURAL_REROLL) == REROLL_LITERAL,
                     two_digit_faces=system.option(encounter, D10_FACES) == FACES_TWO_DIGIT)


def success_number(skill: int, supernatural: bool = False, rules: RollRules = DEFAULT_ROLL_RULES) -> int:
    """Lowest face that succeeds: 10 − skill, never below 5 (for every skill, or by the encounter's option only
    for a supernatural one)."""
    _check_skill(skill)
    return clovek_success_number(skill, supernatural, rules)


def reroll_number(skill: int, supernatural: bool = False, rules: RollRules = DEFAULT_ROLL_RULES) -> int:
    """Lowest face rolled again: 10, or 15 − skill for a supernatural skill (by default never below the success
    number)."""
    _check_skill(skill)
    return clovek_reroll_number(skill, supernatural, rules)


def _check_skill(skill: int) -> None:
    if skill < 0:
        raise RulesError(_("A skill has at least 0 dots, not {skill}.").format(skill=skill))


def skill_kind(kind: str) -> SkillKind:
    """The skill kind named ``kind`` (talent, ability, knowledge), or a RulesError naming the choices."""
    try:
        return SkillKind(kind)
    except ValueError:
        raise RulesError(_("Unknown skill kind {kind!r}: talent, ability or knowledge.").format(kind=kind)) from None


def modified_successes(rolled: int, bonus: int, penalty: int) -> int:
    """Successes after bonuses (only when the dice rolled one) and then penalties; 0 or less is a failure."""
    return rolled + (bonus if rolled > 0 else 0) - penalty


def outcome_id(successes: int, critical: bool) -> str:
    """The untranslated outcome word: critical failure, failure, basic, full, very good or total success."""
    return CRITICAL_FAILURE if critical else clovek_outcome_id(successes)


@dataclass(frozen=True)
class CheckResult:
    """One skill roll worked out: dice successes, successes after bonuses and penalties, and what they mean."""

    rolled: int
    successes: int
    critical: bool
    practice: bool

    @property
    def succeeded(self) -> bool:
        """At least one success after bonuses and penalties."""
        return self.successes > 0

    @property
    def outcome(self) -> str:
        """The untranslated outcome word."""
        return outcome_id(self.successes, self.critical)

    def outcome_text(self) -> str:
        """The outcome word in the GM's language."""
        return _(self.outcome) if self.critical else clovek_outcome(self.successes)


def evaluate_check(faces: Chains, skill: int, kind: SkillKind, supernatural: bool = False, bonus: int = 0,
                   penalty: int = 0, rules: RollRules = DEFAULT_ROLL_RULES) -> CheckResult:
    """Work out a skill roll from its faces (one chain per die, rerolls after the first face).

    A critical failure needs no success on the dice (penalties never make one); a practice point is earned by a
    critical failure or by a total success on the dice alone, and never on a knowledge.
    """
    rolled = count_clovek_successes(faces, skill, supernatural, rules)
    critical = clovek_critical_failure(faces, skill, kind, supernatural, rules)
    practice = kind is not SkillKind.KNOWLEDGE and (critical or rolled >= TOTAL_SUCCESS)
    return CheckResult(rolled, modified_successes(rolled, bonus, penalty), critical, practice)


# --- power ------------------------------------------------------------------------------------------------


class PowerSource(StrEnum):
    """Where an action's power comes from."""

    ATTRIBUTE = "attribute"  # a capacity attribute: base = value ÷ 2 rounded up, may be dropped
    EQUIPMENT = "equipment"  # an item's power value: base = 2 × value, always counts


POWER_SOURCE_LABELS: Final[dict[PowerSource, str]] = {
    PowerSource.ATTRIBUTE: N_("Capacity attribute"),
    PowerSource.EQUIPMENT: N_("Equipment power value"),
}


def power_source(value: str) -> PowerSource:
    """The power source named ``value``, or a RulesError."""
    try:
        return PowerSource(value)
    except ValueError:
        raise RulesError(_("Power comes from a capacity attribute or from equipment, not {value!r}.").format(
            value=value)) from None


def base_power(source: PowerSource, value: int, drop_base: bool = False) -> int:
    """Capacity attribute ÷ 2 rounded up (0 when the player holds it back), or 2 × the equipment's value."""
    if value < 0:
        raise RulesError(_("A power value cannot be negative."))
    if source is PowerSource.EQUIPMENT:
        if drop_base:
            raise RulesError(_("Equipment power always counts its base; only a capacity attribute's can be dropped."))
        return 2 * value
    return 0 if drop_base else math.ceil(value / 2)


@dataclass(frozen=True)
class PowerResult:
    """The power of a successful action: base + successes rolled + bonuses − penalties, or 1 − penalties."""

    base: int
    rolled: int
    bonus: int
    penalty: int
    critical: bool
    practice: bool

    @property
    def total(self) -> int:
        """The final power (may be 0 or less: the action succeeded but had no lasting effect)."""
        if self.critical:
            return 1 - self.penalty
        return self.base + self.rolled + self.bonus - self.penalty

    @property
    def lasting(self) -> bool:
        """Whether the action has a lasting effect (power above 0)."""
        return self.total > 0


def power_critical(faces: Chains, value: int, critical_range: int = POWER_CRITICAL_RANGE,
                   rules: RollRules = DEFAULT_ROLL_RULES) -> bool:
    """No power success rolled and some die (as first rolled) at or below ``critical_range``."""
    if count_clovek_successes(faces, value, False, rules) > 0:
        return False
    return any(chain and 1 <= clovek_face(chain[0]) <= critical_range for chain in faces)


def resolve_power(source: PowerSource, value: int, faces: Chains, bonus: int = 0, penalty: int = 0,
                  drop_base: bool = False, critical_range: int = POWER_CRITICAL_RANGE,
                  rules: RollRules = DEFAULT_ROLL_RULES) -> PowerResult:
    """Roll the action's successes as dice against ``value`` (the capacity attribute or the item's power value).

    The roll "funguje totožně s hodem na dovednost" (works as a skill roll) on a skill that is not supernatural,
    so the encounter's minimum-success reading binds it as it binds skills. On a critical failure the power is 1
    before penalties, without base or bonuses; on a capacity attribute it also earns a practice point on that
    attribute.
    """
    base = base_power(source, value, drop_base)
    critical = power_critical(faces, value, critical_range, rules)
    rolled = count_clovek_successes(faces, value, False, rules)
    practice = critical and source is PowerSource.ATTRIBUTE
    return PowerResult(base, rolled, bonus, penalty, critical, practice)
