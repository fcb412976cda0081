"""Člověk's turn order without an initiative roll: the GM's order of the conflict, alternated or followed as it is.

clovek.md, "Actions, reactions, turns": in a round the characters take turns "ordered by alternation, by the
conflict's logic or, in some kinds of conflict, by initiative"; **Decision**: "the GM picks the ordering per
conflict (default: initiative in fights)". Without initiative the GM arranges who goes when: each combatant's place
is kept in its ``extra`` (so it holds for the whole conflict, round after round) and set by :class:`SetTurnPlace`,
one undoable step. By the conflict's logic the turns follow that order; by alternation a player, then an opponent,
each side in that order. Combatants the GM has not placed follow, in the list's order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from rules.encounter import Combatant, Encounter, Side
from rules.errors import OperationError
from rules.history import Applied, LogLine, Operation, require_combatant
from rules.systems.base import RuleSystem
from rules.systems.clovek.banks import with_extra
from rules.text import _

#: The encounter option and its choices.
TURN_ORDER: Final[str] = "turn_order"
BY_INITIATIVE: Final[str] = "initiative"
BY_ALTERNATION: Final[str] = "alternation"
BY_LOGIC: Final[str] = "logic"
#: A combatant's place in the GM's order (1 first), kept in ``extra``.
TURN_PLACE: Final[str] = "turn_place"


def turn_order(system: RuleSystem, encounter: Encounter) -> str:
    """How the encounter's turns go: by initiative (default), by alternation or by the conflict's logic."""
    chosen = system.option(encounter, TURN_ORDER)
    return chosen if chosen in (BY_ALTERNATION, BY_LOGIC) else BY_INITIATIVE


def _place(combatant: Combatant) -> int | None:
    value = combatant.extra.get(TURN_PLACE)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def gm_order(combatants: Sequence[Combatant]) -> list[Combatant]:
    """The combatants in the GM's order: the placed ones by place, then the others in the list's order."""
    listed = {c.id: index for index, c in enumerate(combatants)}
    return sorted(combatants, key=lambda c: (_place(c) is None, _place(c) or 0, listed[c.id]))


def alternation(combatants: Sequence[Combatant]) -> dict[str, int]:
    """Each combatant's place when the sides alternate: the players' side (and its allies) first, then an opponent,
    each side in the GM's order; when one side runs out, the other's go on in order."""
    ordered = gm_order(combatants)
    players = [c.id for c in ordered if c.side is not Side.OPPONENT]
    opponents = [c.id for c in ordered if c.side is Side.OPPONENT]
    places: dict[str, int] = {}
    for index in range(max(len(players), len(opponents))):
        for side in (players, opponents):
            if index < len(side):
                places[side[index]] = len(places)
    return places


def round_places(system: RuleSystem, encounter: Encounter, combatants: Sequence[Combatant]) -> dict[str, int]:
    """Each combatant's place in the round (0 first) when the turns go without initiative."""
    if turn_order(system, encounter) == BY_ALTERNATION:
        return alternation(combatants)
    return {c.id: index for index, c in enumerate(gm_order(combatants))}


@dataclass(frozen=True)
class SetTurnPlace(Operation):
    """The GM moves a combatant to ``place`` (1 first) in the conflict's order; the others keep theirs in turn."""

    kind = "clovek_turn_place"
    combatant_id: str
    place: int

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        moved = require_combatant(encounter, self.combatant_id)
        if turn_order(system, encounter) == BY_INITIATIVE:
            raise OperationError(_("Turns go by initiative in this encounter: a place in the order counts only by "
                                   "alternation or by the conflict's logic (Encounter settings)."))
        ordered = [c for c in gm_order(list(encounter.combatants.values())) if c.id != moved.id]
        if not 1 <= self.place <= len(ordered) + 1:
            raise OperationError(_("A place in the order is from 1 to {count}, not {place}.").format(
                count=len(ordered) + 1, place=self.place))
        ordered.insert(self.place - 1, moved)
        state = encounter
        for index, combatant in enumerate(ordered, start=1):
            if _place(combatant) != index:
                state = state.with_combatant(with_extra(combatant, TURN_PLACE, index))
        line = LogLine("The GM puts {name} at place {place} of {count} in the turn order.",
                       {"name": moved.name, "place": self.place, "count": len(ordered)})
        return Applied(state, (line,))
