"""Crossing an area under suppression fire: one dodge per square metre crossed, or one for standing in it.

institut.md: "For the whole round anyone crossing a covered square must dodge against difficulty = «общему числу
выпущенных по квадратному метру пуль» (the total number of bullets fired at that square metre, from all
shooters) × 4, once per square crossed, or take one bullet; anyone standing in the area dodges once." The
difficulty is the area's (:func:`rules.systems.institut.rounds.suppressed_area`), every shooter's bullets added
up; the dodge is imposed, not chosen, so it is no action. Each failed dodge is one bullet: a damage roll read off
the creature's pyramid.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from rules.encounter import ADDED_LATER, Combatant, Encounter
from rules.errors import OperationError
from rules.history import Applied, LogArg, LogLine, Operation, require_combatant
from rules.systems.base import RuleSystem
from rules.systems.institut import move_limit, rounds
from rules.systems.institut.ops import Faces, _check_faces, _check_text, _points, _wound
from rules.systems.institut.system import pool_die, tables
from rules.text import _, ngettext

MAX_SQUARES: Final[int] = 100


def dodges_needed(squares: int) -> int:
    """Dodges a creature makes: one per square crossed, one for standing in the area (``squares`` 0)."""
    return max(1, squares)


@dataclass(frozen=True)
class SuppressionRoll:
    """One dodge in suppressed squares, and the bullet's damage roll when it fails (none when it is made)."""

    dodge_faces: Faces
    damage_faces: Faces = ()


@dataclass(frozen=True)
class CrossSuppression(Operation):
    """Someone crosses ``squares`` covered squares of ``area`` (0: stands in it): a dodge per square against the
    area's difficulty, each failed one a bullet."""

    kind = "institut_cross_suppression"
    target: str
    area: str
    squares: int
    rolls: tuple[SuppressionRoll, ...]
    #: Running flat out, the round's only action: the move may be four times as long (institut.md, Movement).
    sprinting: bool = field(default=False, metadata=ADDED_LATER)
    #: The GM lets the creature cross farther than the rules allow this round (the log notes it).
    gm_override: bool = field(default=False, metadata=ADDED_LATER)

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        target = require_combatant(encounter, self.target)
        _check_text(self.area, _("The area"))
        area = rounds.suppressed_area(encounter, self.area, tables(encounter).modifiers)
        if area is None:
            raise OperationError(_("Nobody lays suppression fire on {area} this round.").format(
                area=self.area.strip() or "—"))
        if not 0 <= self.squares <= MAX_SQUARES:
            raise OperationError(_("Cross 0 to {limit} squares (0: standing in the area).").format(limit=MAX_SQUARES))
        needed = dodges_needed(self.squares)
        if len(self.rolls) != needed:
            raise OperationError(ngettext("{name} makes {count} dodge here, not {given}.",
                                          "{name} makes {count} dodges here, not {given}.", needed).format(
                name=target.name, count=needed, given=len(self.rolls)))
        sides = pool_die(encounter)
        state, log, bullets = encounter, [self._opening(target.name, area)], 0
        if move_limit.enforced(encounter):
            state = self._move(state, target, log)
        for number, roll in enumerate(self.rolls, 1):
            _check_faces(roll.dodge_faces, sides)
            _check_faces(roll.damage_faces, sides)
            dodged = sum(roll.dodge_faces)
            log.append(_points("Dodge {number}: {points} point.", "Dodge {number}: {points} points.",
                               {"number": number}, dodged))
            if dodged >= area.difficulty:
                if roll.damage_faces:
                    raise OperationError(_("Dodge {number} is made: no bullet, so no damage roll.").format(
                        number=number))
                log.append(LogLine("Made."))
                continue
            bullets += 1
            log.append(LogLine("{name} takes a bullet.", {"name": target.name}))
            state = _wound(state, system, target.id, sum(roll.damage_faces), 1, log)
        log.append(self._closing(target.name, area.name, bullets))
        return Applied(state, tuple(log))

    def _move(self, encounter: Encounter, target: Combatant, log: list[LogLine]) -> Encounter:
        """Count the squares crossed (square metres) against the round's movement; refused past it unless the
        GM overrides, which the log notes."""
        modifiers = tables(encounter).modifiers
        refused = move_limit.refusal(target, encounter, modifiers, self.squares, self.sprinting)
        if refused and not self.gm_override:
            raise OperationError(refused)
        if refused:
            log.append(LogLine("GM's override: {name} crosses {metres} m, past what the rules allow this round "
                               "({limit} m, {done} m already moved).",
                               {"name": target.name, "metres": self.squares,
                                "done": move_limit.moved(target, encounter),
                                "limit": move_limit.allowance(target, modifiers, self.sprinting)}))
        return encounter.with_combatant(move_limit.after_move(target, encounter, self.squares))

    def _opening(self, name: str, area: rounds.SuppressedArea) -> LogLine:
        args: dict[str, LogArg] = {"name": name, "area": area.name, "difficulty": area.difficulty,
                                   "squares": self.squares}
        if not self.squares:
            return LogLine("{name} stands in the suppression fire on {area}: one dodge against {difficulty}.", args)
        return LogLine("{name} crosses {squares} square under suppression fire on {area}: a dodge against "
                       "{difficulty}.", args,
                       plural="{name} crosses {squares} squares under suppression fire on {area}: a dodge against "
                              "{difficulty} in each.", count=self.squares)

    @staticmethod
    def _closing(name: str, area: str, bullets: int) -> LogLine:
        if not bullets:
            return LogLine("{name} gets through {area} unhurt.", {"name": name, "area": area})
        return LogLine("{name} takes {count} bullet in {area}.", {"name": name, "area": area, "count": bullets},
                       plural="{name} takes {count} bullets in {area}.", count=bullets)
