"""SR3's stricter rule for an action delayed into the next pass (the optional rule "Odkládání akcí").

A delay into the next pass *replaces* the actor's normal action there: it must be used before the actor's own
normal phase in that pass, or it lapses and the normal action remains (characters cannot delay to act twice in
the same pass).
"""

from __future__ import annotations

from rules.encounter import Delay, Encounter, Slot, SlotKind
from rules.turns import delay_usable


def lost_at(encounter: Encounter, slot: Slot) -> tuple[Delay, ...]:
    """Delays into this pass whose actor's own normal phase is ``slot``: they are lost as it comes up."""
    if slot.kind is not SlotKind.ACTORS:
        return ()
    return tuple(delay for delay in encounter.delays.values()
                 if delay.into_next_pass and delay.combatant in slot.ids and delay_usable(delay, encounter))
