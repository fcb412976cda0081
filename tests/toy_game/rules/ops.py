"""The toy game's one operation: an attack, 1d6 + Skill against the target's Defence, for the attacker's Damage."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from rules.encounter import Encounter
from rules.errors import OperationError
from rules.history import Applied, LogLine, Operation, require_combatant
from rules.systems.base import RuleSystem
from rules.text import N_, _
from tests.toy_game.rules.system import HP


@dataclass(frozen=True)
class ToyAttack(Operation):
    """``attacker`` rolls ``face`` on 1d6 (rolled by the app or typed in): a hit when face + Skill reaches the
    target's Defence."""

    kind = "toy_attack"
    attacker: str
    target: str
    face: int

    def hits(self, encounter: Encounter) -> bool:
        """Whether the roll reaches the target's Defence."""
        attacker, target = encounter.combatant(self.attacker), encounter.combatant(self.target)
        return self.face + attacker.attribute("skill") >= target.attribute("defence")

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        attacker = require_combatant(encounter, self.attacker)
        target = require_combatant(encounter, self.target)
        if not 1 <= self.face <= 6:
            raise OperationError(_("A d6 cannot show {face}.").format(face=self.face))
        args: dict[str, str | int] = {"attacker": attacker.name, "target": target.name, "face": self.face,
                                      "skill": attacker.attribute("skill"), "defence": target.attribute("defence")}
        if not self.hits(encounter):
            return Applied(encounter, (LogLine(N_("{attacker} rolls {face} + {skill} against {target}'s Defence "
                                                  "{defence}: a miss."), args),))
        damage = attacker.attribute("damage")
        hurt = system.apply_harm(target, HP, damage, encounter)
        line = LogLine(N_("{attacker} rolls {face} + {skill} against {target}'s Defence {defence}: a hit for "
                          "{damage}."), {**args, "damage": damage})
        return Applied(encounter.with_combatant(hurt), (line,))

    def attacker_id(self) -> str | None:
        return self.attacker


def hit_chance(attack: ToyAttack, encounter: Encounter) -> float:
    """The chance that a d6 plus the attacker's Skill reaches the target's Defence."""
    attacker, target = encounter.combatant(attack.attacker), encounter.combatant(attack.target)
    needed = target.attribute("defence") - attacker.attribute("skill")
    return float(Fraction(sum(1 for face in range(1, 7) if face >= needed), 6))
