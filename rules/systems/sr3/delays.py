"""SR3's rules for held actions (the optional rule "Odkládání akcí", sr3.md "Delaying").

- A delay into the next pass *replaces* the actor's normal action there: "characters cannot delay to act twice in
  the same pass". Taken before the actor's own normal phase in that pass, it is the actor's action of the pass
  (:func:`replacing_the_pass_action`); not taken by then, it lapses as that phase comes up and the normal action
  remains (:func:`lost_at`; the engine logs it).
- Held actions taken at the end of a pass: "ordered as for tied initiative" (:func:`end_of_pass`), not in the
  order they were held.
"""

from __future__ import annotations

from rules.encounter import Delay, Encounter, Slot, SlotKind
from rules.systems.sr3.initiative import tie_chain
from rules.turns import delay_usable, delayed_slots


def lost_at(encounter: Encounter, slot: Slot) -> tuple[Delay, ...]:
    """Delays into this pass whose actor's own normal phase is ``slot``: they are lost as it comes up."""
    if slot.kind is not SlotKind.ACTORS:
        return ()
    return tuple(delay for delay in encounter.delays.values()
                 if delay.into_next_pass and delay.combatant in slot.ids and delay_usable(delay, encounter))


def replacing_the_pass_action(encounter: Encounter) -> Encounter:
    """As a delay carried into this pass is taken (the current slot), its actor has had the action of this pass:
    the normal phase there is gone from the order, so nobody acts twice in one pass."""
    slot = encounter.clock.current
    if slot is None or slot.kind is not SlotKind.DELAYED:
        return encounter
    carried = {cid for cid in slot.ids if _carried_into_now(encounter, cid)}
    if carried <= encounter.clock.acted:
        return encounter
    return encounter.with_clock(acted=encounter.clock.acted | carried)


def _carried_into_now(encounter: Encounter, combatant_id: str) -> bool:
    delay = encounter.delays.get(combatant_id)
    return delay is not None and delay.into_next_pass and delay_usable(delay, encounter)


def end_of_pass(encounter: Encounter) -> list[Slot]:
    """Held actions still to be taken in this pass, at its end, highest in the tie chain first (a stable sort:
    a full tie keeps the order they were held in; the d6 tie-breaks rolled with initiative settle nearly all)."""
    pass_no = encounter.clock.pass_no
    slots = delayed_slots(encounter)
    return sorted(slots, key=lambda slot: _tie_order(encounter, slot.ids[0], pass_no), reverse=True)


def _tie_order(encounter: Encounter, combatant_id: str, pass_no: int) -> tuple[int, ...]:
    combatant = encounter.combatants.get(combatant_id)
    if combatant is None or combatant.initiative is None:
        return (-10_000,)  # no initiative (added after the roll): after everyone who rolled
    return tie_chain(combatant, pass_no)
