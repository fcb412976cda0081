"""SR3's surprise test as an operation: everyone's Reaction successes, the sides the GM chose, before the turn or
mid-turn (sr3.md, Surprise)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from rules.encounter import ADDED_LATER, Encounter, Side, frozen_map
from rules.errors import OperationError
from rules.history import Applied, LogLine, Operation, require_combatant
from rules.systems.base import RuleSystem
from rules.systems.sr3.surprise import SURPRISE_LOST_PASS, SurpriseResult, lost_pass, surprise_matrix, with_surprise
from rules.text import _

#: The two parties of a test recorded without sides (the names are saved in no file: only compared).
PARTY, OPPOSITION = "party", "opposition"


def party_of(side: Side) -> str:
    """The side a combatant is on in a surprise test: the opposition against everyone else."""
    return OPPOSITION if side is Side.OPPONENT else PARTY


@dataclass(frozen=True)
class SurpriseTest(Operation):
    """Everyone's Reaction-test successes; decides who may act against whom until each one's next phase.

    Made before the turn's first action, or mid-turn ("unless it arises mid-turn"): then the losses apply to each
    fighter's current action or next phase, and the completely surprised lose that phase entirely.
    """

    kind = "sr3_surprise"
    successes: Mapping[str, int]
    #: Each fighter's losses end with its next phase (sr3.md: "The losses apply to the current action, or to the
    #: next phase if not acting now"); False, as tests recorded before: at the end of the first pass.
    ends_by_phase: bool = field(default=False, metadata=ADDED_LATER)
    #: Each fighter's side in the test ("any number of sides"), chosen by the GM; empty, as tests recorded before:
    #: the players and their allies against the opponents (:func:`party_of`).
    sides: Mapping[str, str] = field(default_factory=frozen_map, metadata=ADDED_LATER)

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        for combatant_id in self.successes:
            require_combatant(encounter, combatant_id)
        sides = self._sides(encounter)
        result = surprise_matrix(self.successes, sides)
        surprise = {cid: tuple(sorted(result.may_act_against.get(cid, frozenset())))
                    for cid in self.successes if cid in result.completely_surprised or _has_opponent(cid, sides)}
        log = [LogLine("Surprise test: {name} has {count} success.", {"name": encounter.combatant(cid).name,
                                                                       "count": n},
                       plural="Surprise test: {name} has {count} successes.", count=n)
               for cid, n in self.successes.items()]
        if encounter.clock.current is None:
            log += [LogLine("{name} is completely surprised and cannot act in the first pass.",
                            {"name": encounter.combatant(cid).name}) for cid in sorted(result.completely_surprised)]
            if self.sides:
                log += _pair_lines(encounter, result, self.successes)
            # A test before the turn replaces a mid-turn one still in force: its losses end as a turn's test's do.
            before_turn = encounter.with_game_item(SURPRISE_LOST_PASS, None)
            return Applied(with_surprise(before_turn, surprise, self.ends_by_phase), tuple(log))
        return self._mid_turn(encounter, result, surprise, log)

    def _sides(self, encounter: Encounter) -> dict[str, str]:
        if not self.sides:
            return {cid: party_of(encounter.combatant(cid).side) for cid in self.successes}
        if set(self.sides) != set(self.successes) or not all(side.strip() for side in self.sides.values()):
            raise OperationError(_("Every combatant in the surprise test needs both a side and a number of "
                                   "successes."))
        return dict(self.sides)

    def _mid_turn(self, encounter: Encounter, result: SurpriseResult, surprise: Mapping[str, tuple[str, ...]],
                  log: list[LogLine]) -> Applied:
        """sr3.md: "Decided before the turn's first action, unless it arises mid-turn": the losses apply to each
        fighter's current action or next phase; the completely surprised lose that phase, free actions too."""
        lost = {cid: lost_pass(encounter, cid) for cid in sorted(result.completely_surprised)}
        log.append(LogLine("The surprise test comes mid-turn: the losses apply to each fighter's current action or "
                           "next phase."))
        log += [LogLine("{name} is completely surprised: no actions at all, not even free ones, until their next "
                        "phase (pass {pass_no}) has passed.", {"name": encounter.combatant(cid).name,
                                                              "pass_no": lost[cid][1]}) for cid in lost]
        log += _pair_lines(encounter, result, self.successes)
        return Applied(with_surprise(encounter, surprise, True, lost), tuple(log))


def _pair_lines(encounter: Encounter, result: SurpriseResult, successes: Mapping[str, int]) -> list[LogLine]:
    """Whom each fighter who is not completely surprised may act against (the test's pairs)."""
    lines = []
    for cid in successes:
        opponents = result.may_act_against.get(cid, frozenset())
        if opponents and cid not in result.completely_surprised:
            names = ", ".join(sorted(encounter.combatant(other).name for other in opponents))
            lines.append(LogLine("{name} may act against: {opponents}.", {"name": encounter.combatant(cid).name,
                                                                         "opponents": names}))
    return lines


def _has_opponent(combatant_id: str, sides: Mapping[str, str]) -> bool:
    return any(side != sides[combatant_id] for side in sides.values())
