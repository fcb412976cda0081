"""The round's order: 1d6 (+ effect modifiers) every round, highest first, equal scores act together.

Everyone with the same score is one simultaneous group (one slot of the turn engine with several ids). Inside
a group the GM resolves magic first, then ranged and firearm attacks, then melee; a non-combat action goes
where the GM placed it; a combatant who chose to act after another one follows it; those who let their ties go
first (the engine's *yield*) come last. A score of −1 or less loses the round; 0 still acts. Whoever gave up
the initiative for a reaction has no place in the order of that round.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace

from rules.encounter import Combatant, Encounter, Slot, SlotKind
from rules.systems.souboj.model import (
    UNDECLARED_RANK,
    act_after,
    declared_now,
    gave_up_now,
    initiative_modifiers,
)
from rules.systems.souboj.round_one import order_bucket

CanAct = Callable[[Combatant, Encounter], bool]


def score(combatant: Combatant) -> int | None:
    """This round's initiative score (rolled + modifiers, or the GM's override); None before the roll."""
    return combatant.initiative.rolled if combatant.initiative is not None else None


def same_group(first: Combatant, second: Combatant, encounter: Encounter) -> bool:
    """Whether the two share a simultaneous group this round: the same score (and, in a readier-first round 1, the
    same side of it)."""
    return score(first) == score(second) and order_bucket(first, encounter) == order_bucket(second, encounter)


def loses_round(combatant: Combatant) -> bool:
    """A score of −1 or less loses the round."""
    value = score(combatant)
    return value is not None and value <= -1


def modifier_now(combatant: Combatant, encounter: Encounter) -> int:
    """The initiative modifiers of the combatant's effects that are still in force."""
    return sum(value for effect_id, value in initiative_modifiers(combatant).items() if effect_id in encounter.effects)


def takes_part(combatant: Combatant, encounter: Encounter, can_act: CanAct) -> bool:
    """Has a place in this round's order (acted or not): a score of 0 or more, able, not holding a reaction."""
    value = score(combatant)
    return (value is not None and value >= 0 and can_act(combatant, encounter)
            and not gave_up_now(combatant, encounter))


def _rank(combatant: Combatant, encounter: Encounter) -> int:
    declared = declared_now(combatant, encounter)
    return declared.rank() if declared is not None else UNDECLARED_RANK


def group_order(members: Iterable[Combatant], encounter: Encounter) -> list[str]:
    """Ids of one simultaneous group in the order the GM resolves them."""
    roster = {combatant_id: index for index, combatant_id in enumerate(encounter.combatants)}
    yielded = encounter.clock.yielded
    ordered = sorted(members, key=lambda c: (c.id in yielded, _rank(c, encounter), roster.get(c.id, 0)))
    return _followers_after_leaders(ordered, encounter)


def _followers_after_leaders(ordered: list[Combatant], encounter: Encounter) -> list[str]:
    """Each combatant who acts after another comes right after it (chains allowed; a cycle is ignored)."""
    ids = [combatant.id for combatant in ordered]
    present = set(ids)
    leader_of = {c.id: leader for c in ordered
                 if (leader := act_after(c, encounter)) is not None and leader in present and leader != c.id}
    followers: dict[str, list[str]] = {}
    for combatant_id in ids:
        if combatant_id in leader_of:
            followers.setdefault(leader_of[combatant_id], []).append(combatant_id)
    result: list[str] = []
    seen: set[str] = set()
    # Popped from the end: leaders in order first, then (only if a cycle kept them unseen) the followers.
    stack = [i for i in reversed(ids) if i in leader_of] + [i for i in reversed(ids) if i not in leader_of]
    while stack:  # depth first, leader before its followers; what a cycle left over comes last, in order
        combatant_id = stack.pop()
        if combatant_id in seen:
            continue
        seen.add(combatant_id)
        result.append(combatant_id)
        stack.extend(reversed(followers.get(combatant_id, [])))
    return result


def groups(encounter: Encounter, can_act: CanAct, skip: frozenset[str] = frozenset()) -> list[Slot]:
    """Every simultaneous group of this round not in ``skip``, highest score first (in a round 1 played with the
    readier side first, that side's groups before the others')."""
    by_key: dict[tuple[int, int], list[Combatant]] = {}
    for combatant in encounter.combatants.values():
        if combatant.id not in skip and takes_part(combatant, encounter, can_act):
            key = (order_bucket(combatant, encounter), -(score(combatant) or 0))
            by_key.setdefault(key, []).append(combatant)
    return [Slot(SlotKind.ACTORS, tuple(group_order(by_key[key], encounter)), -key[1]) for key in sorted(by_key)]


def still_to_act(encounter: Encounter, can_act: CanAct) -> list[Slot]:
    """The current group (what is left of it) first, then the groups still to come."""
    clock = encounter.clock
    current = clock.current if clock.current is not None and clock.current.kind is SlotKind.ACTORS else None
    head: list[Slot] = []
    taken = frozenset(current.ids) if current is not None else frozenset()
    if current is not None:
        # A simultaneous group plays out together: whoever the others struck down still acts in it.
        rest = tuple(i for i in current.ids if i not in clock.acted and i in encounter.combatants)
        if rest:
            head = [replace(current, ids=rest)]
    return head + groups(encounter, can_act, skip=clock.acted | taken)


def place_in_group(combatant: Combatant, encounter: Encounter, can_act: CanAct) -> tuple[int, int] | None:
    """(place, size) of the combatant in its simultaneous group this round; None if it has no group."""
    if not takes_part(combatant, encounter, can_act):
        return None
    value, bucket = score(combatant), order_bucket(combatant, encounter)
    members = [c for c in encounter.combatants.values() if score(c) == value and takes_part(c, encounter, can_act)
               and order_bucket(c, encounter) == bucket]
    current = encounter.clock.current
    if current is not None and combatant.id in current.ids:
        order = list(current.ids)
    else:
        order = group_order(members, encounter)
    return (order.index(combatant.id) + 1, len(order)) if combatant.id in order else None


def reorder_current(encounter: Encounter) -> Encounter:
    """Keep the group acting now in the order its declarations and "act after" choices now give."""
    current = encounter.clock.current
    if current is None or current.kind is not SlotKind.ACTORS or len(current.ids) < 2:
        return encounter
    members = [encounter.combatants[i] for i in current.ids if i in encounter.combatants]
    ordered = tuple(group_order(members, encounter))
    if ordered == current.ids:
        return encounter
    return encounter.with_clock(current=replace(current, ids=ordered))
