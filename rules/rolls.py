"""A dice-line roll recorded in the fight's log (it changes no numbers, but the GM wants it on record)."""

from __future__ import annotations

from dataclasses import dataclass

from rules.dice import parse
from rules.encounter import Encounter
from rules.history import Applied, LogLine, Operation
from rules.systems.base import RuleSystem

Chains = tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class RecordRoll(Operation):
    """A roll from the dice line: the expression and the faces (rolled or typed); ``who`` is optional."""

    kind = "record_roll"
    expression: str
    faces: Chains
    who: str = ""

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        result = parse(self.expression).from_chains(self.faces)  # validates the faces (DiceError)
        if self.who:
            return Applied(encounter, (LogLine("{who} rolls {roll}", {"who": self.who, "roll": result.describe()}),))
        return Applied(encounter, (LogLine("Roll: {roll}", {"roll": result.describe()}),))
