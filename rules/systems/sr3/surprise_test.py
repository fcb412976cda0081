"""SR3 surprise test as an operation: everyone's Reaction successes decide who may act against whom.

The matrix and the TN are :mod:`rules.systems.sr3.surprise`'s; here the recorded test and the question the attack
operations ask of it (:func:`may_act_against`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from rules.encounter import ADDED_LATER, Encounter, Side
from rules.errors import OperationError
from rules.history import Applied, LogLine, Operation, require_combatant
from rules.systems.base import RuleSystem
from rules.systems.sr3.surprise import may_act_against_now, surprise_matrix, with_surprise
from rules.text import _


def party_of(side: Side) -> str:
    """The side a combatant is on in a surprise test: the opposition against everyone else."""
    return "opposition" if side is Side.OPPONENT else "party"


@dataclass(frozen=True)
class SurpriseTest(Operation):
    """Everyone's Reaction-test successes; decides who may act against whom in the first pass."""

    kind = "sr3_surprise"
    successes: Mapping[str, int]
    #: Each fighter's losses end with its next phase (sr3.md: "The losses apply to the current action, or to the
    #: next phase if not acting now"); False, as tests recorded before: at the end of the first pass.
    ends_by_phase: bool = field(default=False, metadata=ADDED_LATER)

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        if encounter.clock.current is not None:
            raise OperationError(_("Make the surprise test before rolling initiative."))
        for combatant_id in self.successes:
            require_combatant(encounter, combatant_id)
        sides = {cid: party_of(encounter.combatant(cid).side) for cid in self.successes}
        result = surprise_matrix(self.successes, sides)
        surprise = {cid: tuple(sorted(result.may_act_against.get(cid, frozenset())))
                    for cid in self.successes if cid in result.completely_surprised or _has_opponent(cid, sides)}
        log = [LogLine("Surprise test: {name} has {count} success.", {"name": encounter.combatant(cid).name,
                                                                       "count": n},
                       plural="Surprise test: {name} has {count} successes.", count=n)
               for cid, n in self.successes.items()]
        log += [LogLine("{name} is completely surprised and cannot act in the first pass.",
                        {"name": encounter.combatant(cid).name}) for cid in sorted(result.completely_surprised)]
        return Applied(with_surprise(encounter, surprise, self.ends_by_phase), tuple(log))


def _has_opponent(combatant_id: str, sides: Mapping[str, str]) -> bool:
    return any(side != sides[combatant_id] for side in sides.values())


def may_act_against(encounter: Encounter, actor: str, opponent: str) -> bool:
    """Whether the surprise test (if one is in force) lets ``actor`` act against ``opponent``."""
    allowed = may_act_against_now(encounter, actor)
    return allowed is None or opponent in allowed
