"""Walka's opposed roll-under test and damage pool, as plain functions of the dice.

A test rolls one die (d20, or d100 by option) and succeeds on a roll at or under the skill. Bonus and
penalty dice cancel one for one; each one left adds a die: keep the lowest with bonus dice, the highest
with penalty dice (by option on a d100, each one left adds a tens die beside the one units die). In an
attack the lowest *successful* roll wins and a tie goes to the defender; if only one side succeeds it wins;
if neither does the attack fails. An unaware or immobile defender does not roll.

Damage: pool = weapon dice + damage modifiers − armor class (never below 0), doubled by aiming; roll that
many d6, and each die showing 4 or more removes one Hit Point.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Final

from rules.dice_rules import PERCENTILE, roll_under_dice, roll_under_kept, shared_units_problem
from rules.errors import OperationError
from rules.text import N_, _, ngettext

TEST_DICE: Final[tuple[int, ...]] = (20, 100)
HIT_FACE: Final[int] = 4  # a damage die showing this or more removes one Hit Point
MAX_EXTRA_DICE: Final[int] = 20  # bonus or penalty dice on one side of a test
MAX_POOL: Final[int] = 200


class Outcome(StrEnum):
    """How an attack test ends."""

    MISSED = "missed"  # the attacker's roll fails (whatever the defender rolls)
    DEFENDED = "defended"  # both succeed and the defender's roll is as low or lower
    HIT = "hit"  # the attacker succeeds and the defender fails, rolls higher, or does not roll


OUTCOME_LABELS: Final[dict[Outcome, str]] = {
    Outcome.MISSED: N_("Missed"),
    Outcome.DEFENDED: N_("Defended"),
    Outcome.HIT: N_("Hit"),
}


def dice_rolled(bonus: int, penalty: int) -> int:
    """How many dice a test rolls: one, plus one per bonus or penalty die left after they cancel."""
    return roll_under_dice(bonus, penalty)


def check_extra_dice(bonus: int, penalty: int) -> None:
    """Bonus and penalty dice are counts from 0 to :data:`MAX_EXTRA_DICE`."""
    for count in (bonus, penalty):
        if not 0 <= count <= MAX_EXTRA_DICE:
            raise OperationError(_("Bonus and penalty dice must be between 0 and {limit}.").format(
                limit=MAX_EXTRA_DICE))


def check_tens(die: int, tens: bool) -> None:
    """Only a d100 test rolls its extra dice as tens dice."""
    if tens and die != PERCENTILE:
        raise OperationError(_("Only a d100 has tens dice."))


def check_faces(faces: Sequence[int], die: int, bonus: int, penalty: int, who: str, tens: bool = False) -> None:
    """The faces of one test: the right number of dice, each a face of the die (``tens``: all ending alike, the
    extra dice being tens dice beside one units die)."""
    needed = dice_rolled(bonus, penalty)
    if len(faces) != needed:
        raise OperationError(ngettext("{who} rolls {count} die, not {typed}.", "{who} rolls {count} dice, not {typed}.",
                                      needed).format(who=who, count=needed, typed=len(faces)))
    for face in faces:
        if not 1 <= face <= die:
            raise OperationError(_("A d{sides} cannot show {face}.").format(sides=die, face=face))
    problem = shared_units_problem(faces) if tens else None
    if problem is not None:
        raise OperationError(problem)


def kept_face(faces: Sequence[int], bonus: int, penalty: int) -> int:
    """The die that counts: the lowest with net bonus dice, the highest with net penalty dice."""
    return roll_under_kept(faces, bonus, penalty)


def succeeds(kept: int, skill: int) -> bool:
    """A roll-under test succeeds on a roll at or under the skill (pass :func:`threshold`'s skill for the option)."""
    return kept <= skill


def threshold(skill: int, strictly_under: bool) -> int:
    """The highest roll that succeeds: the skill, or one less when the option says a roll must be under it
    (walka.md Decision: "a roll succeeds if it is ≤ the skill (option: < the skill)")."""
    return skill - 1 if strictly_under else skill


def contest(attack: int, attack_skill: int, defence: int | None, defence_skill: int) -> Outcome:
    """The outcome of an attack from the kept rolls (``defence`` None: the defender does not roll)."""
    if not succeeds(attack, attack_skill):
        return Outcome.MISSED
    if defence is None or not succeeds(defence, defence_skill):
        return Outcome.HIT
    return Outcome.DEFENDED if defence <= attack else Outcome.HIT


def damage_pool(weapon_dice: int, modifiers: int, armor: int, aimed: bool = False, before_armor: bool = False,
                twice: bool = False) -> int:
    """Weapon dice + damage modifiers − armor class, never below 0; aiming doubles the pool after armor (walka.md
    Decision, default) or, by option, the dice before armor is taken off; ``twice``: a second Aim doubled it again
    (the option)."""
    factor = (4 if twice else 2) if aimed else 1
    if aimed and before_armor:
        return max(0, factor * (weapon_dice + modifiers) - armor)
    return factor * max(0, weapon_dice + modifiers - armor)


def hit_points_removed(faces: Sequence[int]) -> int:
    """Each damage die showing 4 or more removes one Hit Point."""
    return sum(1 for face in faces if face >= HIT_FACE)


def check_damage_faces(faces: Sequence[int], pool: int) -> None:
    """One d6 per die of the pool."""
    if pool > MAX_POOL:
        raise OperationError(_("A damage pool holds at most {limit} dice.").format(limit=MAX_POOL))
    if len(faces) != pool:
        raise OperationError(ngettext("The damage pool is {count} die, not {typed}.",
                                      "The damage pool is {count} dice, not {typed}.", pool).format(
            count=pool, typed=len(faces)))
    if any(not 1 <= face <= 6 for face in faces):
        raise OperationError(_("A d6 shows 1 to 6."))
