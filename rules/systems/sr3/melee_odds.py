"""Exact odds of an SR3 melee exchange: who is hurt, and how badly, before any die is rolled.

Both opposed tests and the resistance test of whoever is hit are success counts (:func:`successes_distribution`,
with the rule of six); the exchange is judged by :func:`~rules.systems.sr3.melee.resolve_melee`'s rules and the
level by :func:`~rules.systems.sr3.melee.hit_level`, outcome by outcome. Keys: ``"defender:L"`` … ``"defender:D"``,
``"attacker:L"`` … (a winning defender's counterblow), and ``"none"`` (nobody hurt: a tie, a defence, damage staged
away).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

from rules.errors import RulesError
from rules.odds import P
from rules.systems.sr3.damage import DamageCode, resistance_tn
from rules.systems.sr3.levels import LEVELS
from rules.systems.sr3.melee import MeleeFighter, Role, hit_level, melee_tns
from rules.systems.sr3.odds import successes_distribution
from rules.systems.sr3.ranged import TargetNumber
from rules.systems.sr3.tables import MeleeStaging, Sr3Tables, TieRule, WeaponKind
from rules.text import _

NOBODY: Final[str] = "none"


def outcome_key(role: Role, level: str | None) -> str:
    """``"defender:S"``; ``"none"`` when the blow is staged away."""
    return NOBODY if level is None else f"{role.value}:{level}"


#: Keys in the order the dialog shows them: the defender's wounds worst first, nobody, the attacker's lightest first.
ORDER: Final[tuple[str, ...]] = (*(outcome_key(Role.DEFENDER, level) for level in reversed(LEVELS)), NOBODY,
                                 *(outcome_key(Role.ATTACKER, level) for level in LEVELS))


@dataclass(frozen=True)
class Roll:
    """Dice against a target number."""

    dice: int
    tn: int


@dataclass(frozen=True)
class MeleeQuestion:
    """Everything the odds of one exchange depend on: both tests, each side's blow level and resistance test
    (``counter_level`` None: the defender cannot strike back), and the GM's melee rules."""

    attack: Roll
    defence: Roll
    attack_level: str
    defender_resists: Roll
    counter_level: str | None = None
    attacker_resists: Roll = Roll(0, 2)
    full_defence: bool = False
    counterattacks: bool = True
    tie: TieRule = TieRule.NOBODY
    staging: MeleeStaging = MeleeStaging.ONCE


def _blow(role: Role, net: int, level: str, resists: Sequence[P], staging: MeleeStaging) -> dict[str, P]:
    """Where one landed blow ends, over the hit one's resistance successes."""
    result: dict[str, P] = {}
    for successes, chance in enumerate(resists):
        key = outcome_key(role, hit_level(level, net, successes, staging))
        result[key] = result[key] + chance if key in result else chance
    return result


def _judged(question: MeleeQuestion, tests: tuple[Sequence[P], Sequence[P], Sequence[P], Sequence[P]],
            zero: P) -> dict[str, P]:
    """Every pair of opposed results, judged, and each landed blow spread over its resistance test."""
    attack, defence, defender_resists, attacker_resists = tests
    counter = question.counter_level if question.counterattacks and not question.full_defence else None
    result: dict[str, P] = dict.fromkeys(ORDER, zero)
    blows: dict[tuple[Role, int], dict[str, P]] = {}
    for a, pa in enumerate(attack):
        for d, pd in enumerate(defence):
            chance, net = pa * pd, a - d
            if net > 0 or (net == 0 and a > 0 and question.tie is TieRule.ATTACKER):
                role, level, resists = Role.DEFENDER, question.attack_level, defender_resists
            elif net < 0 and counter is not None:
                role, level, resists, net = Role.ATTACKER, counter, attacker_resists, -net
            else:
                result[NOBODY] += chance
                continue
            if (role, net) not in blows:
                blows[(role, net)] = _blow(role, net, level, resists, question.staging)
            for key, p in blows[(role, net)].items():
                result[key] += chance * p
    return result


def _tests(question: MeleeQuestion) -> tuple[Roll, Roll, Roll, Roll]:
    return question.attack, question.defence, question.defender_resists, question.attacker_resists


def melee_outcome_distribution(question: MeleeQuestion) -> dict[str, float]:
    """P of every :data:`ORDER` key for one exchange."""
    a, d, rd, ra = (successes_distribution(test.dice, test.tn) for test in _tests(question))
    return _judged(question, (a, d, rd, ra), 0.0)


def exact_melee_outcome_distribution(question: MeleeQuestion) -> dict[str, Fraction]:
    """:func:`melee_outcome_distribution` in Fractions."""
    a, d, rd, ra = (successes_distribution(test.dice, test.tn, exact=True) for test in _tests(question))
    return _judged(question, (a, d, rd, ra), Fraction(0))


# --- the sheet the dialog shows ------------------------------------------------------------------------------


@dataclass(frozen=True)
class MeleeSide:
    """One side of an exchange as the form has it: dice (skill + pool), the TN's modifiers, its blow (None: it
    cannot strike back), and its resistance (Body + pool dice, impact armor)."""

    dice: int
    fighter: MeleeFighter
    blow: DamageCode | None
    resist_dice: int
    impact: int


@dataclass(frozen=True)
class MeleeSheet:
    """Both target numbers, the resistance TN against each blow, and the exact odds of the exchange."""

    attack_tn: TargetNumber
    defence_tn: TargetNumber
    defender_resist_tn: int
    attacker_resist_tn: int | None
    odds: dict[str, float]


def _resist_tn(blow: DamageCode, impact: int, tables: Sr3Tables) -> int:
    """Power − impact armor (sr3.md: "Resistance: Body + pool vs Power − impact armor")."""
    return resistance_tn(blow.power, 0, impact, WeaponKind.MELEE, tables=tables)


def work_out_melee(attacker: MeleeSide, defender: MeleeSide, full_defence: bool, tables: Sr3Tables) -> MeleeSheet:
    """The target numbers and odds of one exchange; the attacker's blow must be known (Strength resolved)."""
    if attacker.blow is None or attacker.blow.strength_based or (defender.blow and defender.blow.strength_based):
        raise RulesError(_("Resolve a Strength-based damage code for the wielder first."))
    attack_tn, defence_tn = melee_tns(attacker.fighter, defender.fighter, tables)
    defender_resist = _resist_tn(attacker.blow, defender.impact, tables)
    attacker_resist = _resist_tn(defender.blow, attacker.impact, tables) if defender.blow else None
    rules = tables.melee
    question = MeleeQuestion(
        Roll(attacker.dice, attack_tn.value), Roll(defender.dice, defence_tn.value), attacker.blow.level,
        Roll(defender.resist_dice, defender_resist), defender.blow.level if defender.blow else None,
        Roll(attacker.resist_dice, attacker_resist or tables.minimum_tn), full_defence,
        rules.defender_counterattacks, rules.tie_rule, rules.staging)
    return MeleeSheet(attack_tn, defence_tn, defender_resist, attacker_resist, melee_outcome_distribution(question))
