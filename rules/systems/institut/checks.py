"""A general skill check: a pool of the skill's rating in dice against a difficulty the GM sets.

institut.md "Dice (Decision)": "a skill check rolls the skill's rating in dice (the text names only the skill; the
GM may add an attribute); equalling a difficulty ("покрыть сложность", to cover the difficulty) succeeds". Wounds
and extra actions take dice off it like off any roll; when the check is one of the combatant's actions in a
running round it is counted as one (a held one if named).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from rules.encounter import Combatant, Encounter
from rules.errors import OperationError
from rules.history import Applied, LogArg, LogLine, Operation, require_combatant
from rules.systems.base import RuleSystem
from rules.systems.institut import rounds
from rules.systems.institut.combat import Pool, pool
from rules.systems.institut.ops import MAX_POOL, Faces, _check_faces, _take_action, roll_penalties
from rules.systems.institut.system import pool_die
from rules.text import N_, _

#: The skills a check may roll (attribute keys) and their names, as the character sheet has them.
CHECK_SKILLS: Final[dict[str, str]] = {
    "athletics": N_("Athletics"), "shooting": N_("Shooting"), "dodge": N_("Dodge"), "boxing": N_("Boxing"),
    "melee": N_("Melee"), "fencing": N_("Fencing"), "martial_arts": N_("Martial arts"),
}
#: The attributes the GM may add to the skill's dice.
CHECK_ATTRIBUTES: Final[dict[str, str]] = {
    "agility": N_("Agility"), "thinking": N_("Thinking"), "strength": N_("Strength"),
}
MAX_DIFFICULTY: Final[int] = 999


def check_pool(combatant: Combatant, skill: str, attribute: str, wounds: int, actions: int, modifier: int,
               in_points: bool) -> Pool:
    """The check's dice: the skill's rating (and the attribute's, if the GM adds one) less wounds and extra
    actions; ``modifier`` is the GM's for the situation, in dice or (``in_points``) in points."""
    skill_name = CHECK_SKILLS.get(skill, N_("Skill"))
    return pool((skill_name, combatant.attribute(skill)),
                (CHECK_ATTRIBUTES.get(attribute, N_("Attribute")), combatant.attribute(attribute) if attribute else 0),
                (N_("Wounds"), -wounds), (N_("Additional actions this round"), -actions),
                (N_("Situation"), modifier), keep_zero=(skill_name,),
                in_points=(N_("Situation"),) if in_points else ())


def succeeds(total: int, difficulty: int) -> bool:
    """Equalling the difficulty covers it."""
    return total >= difficulty


@dataclass(frozen=True)
class SkillCheck(Operation):
    """One skill check as rolled: the faces, the points added (modifiers counted in points), the difficulty.

    ``as_action``: it is one of the combatant's actions this round (counted while a round runs; ``held`` the held
    declaration it fulfils); otherwise it costs no action (a reaction the GM asks for).
    """

    kind = "institut_check"
    combatant_id: str
    skill: str
    difficulty: int
    faces: Faces
    attribute: str = ""
    points: int = 0
    as_action: bool = True
    held: str = ""

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        combatant = require_combatant(encounter, self.combatant_id)
        self._validate(encounter)
        state = _take_action(encounter, combatant, self.held) if self.as_action else encounter
        total = sum(self.faces) + self.points
        args: dict[str, LogArg] = {"name": combatant.name, "skill": CHECK_SKILLS[self.skill],
                                   "attribute": CHECK_ATTRIBUTES.get(self.attribute, ""), "points": total,
                                   "difficulty": self.difficulty}
        made = succeeds(total, self.difficulty)
        if self.attribute:
            text = (N_("{name} checks {skill} + {attribute}: {points} against difficulty {difficulty} — success.")
                    if made else
                    N_("{name} checks {skill} + {attribute}: {points} against difficulty {difficulty} — failure."))
        else:
            text = (N_("{name} checks {skill}: {points} against difficulty {difficulty} — success.") if made
                    else N_("{name} checks {skill}: {points} against difficulty {difficulty} — failure."))
        log = [LogLine(text, args, translate=("skill", "attribute"))]
        if self.points:
            log.append(LogLine("Modifiers: {modifier:+d} point (in the total).", {"modifier": self.points},
                               plural="Modifiers: {modifier:+d} points (in the total).", count=abs(self.points)))
        return Applied(state, tuple(log))

    def _validate(self, encounter: Encounter) -> None:
        if self.skill not in CHECK_SKILLS:
            raise OperationError(_("Unknown skill {skill!r}.").format(skill=self.skill))
        if self.attribute and self.attribute not in CHECK_ATTRIBUTES:
            raise OperationError(_("Unknown attribute {attribute!r}.").format(attribute=self.attribute))
        if not 0 <= self.difficulty <= MAX_DIFFICULTY:
            raise OperationError(_("A difficulty is between 0 and 999."))
        if not -MAX_POOL <= self.points <= MAX_POOL:
            raise OperationError(_("Modifiers in points are between −{limit} and +{limit}.").format(limit=MAX_POOL))
        if self.held and not self.as_action:
            raise OperationError(_("A check that costs no action fulfils no held declaration."))
        _check_faces(self.faces, pool_die(encounter))


def check_penalties(combatant: Combatant, encounter: Encounter, as_action: bool, held: str = "") -> tuple[int, int]:
    """(wound dice, extra-action dice) a check loses: counted as one more action if it is one."""
    if as_action and rounds.round_running(encounter):
        return roll_penalties(combatant, encounter, rounds.after_action(rounds.round_actions(combatant), held))
    return roll_penalties(combatant, encounter)
