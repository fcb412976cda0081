"""Ready-made SR3 encounters for tests: the seed's eight characters and helpers to drive a fight."""

from __future__ import annotations

from collections.abc import Mapping

from rules.combatants import AddCombatant
from rules.encounter import Encounter, Side, SlotKind, frozen_map
from rules.history import History
from rules.turns import NextTurn, RollInitiative

#: The seed's table: name → initiative score (Mike's character acts first, Camilla's last).
EIGHT: dict[str, int] = {
    "Mike": 37, "Ganger 1": 26, "Dave": 22, "Ganger 2": 19,
    "Sharon": 18, "Richie": 17, "Ganger 3": 15, "Camilla": 9,
}


def add(history: History, name: str, side: Side = Side.PLAYER, **attributes: int) -> str:
    """Add a combatant and return its id."""
    combatant_id = f"c{len(history.state.combatants) + 1}"
    history.do(AddCombatant(combatant_id, name, side, frozen_map(attributes)))
    return combatant_id


def eight_characters(body: int = 4) -> tuple[History, dict[str, str]]:
    """The eight characters with Reaction = score − 1 and one initiative die, not rolled yet."""
    history = History(Encounter("sr3", "Seed example"))
    ids = {}
    for name, score in EIGHT.items():
        side = Side.OPPONENT if name.startswith("Ganger") else Side.PLAYER
        ids[name] = add(history, name, side, reaction=score - 1, reaction_natural=min(score - 1, 6),
                        initiative_dice=1, body=body, quickness=4, intelligence=4, willpower=4)
    return history, ids


def roll_ones(history: History, ids: Mapping[str, str]) -> None:
    """Roll initiative with every die showing 1, so each score equals the seed's table."""
    rolls = dict.fromkeys(ids.values(), (1,))
    history.do(RollInitiative(frozen_map(rolls), frozen_map(dict.fromkeys(ids.values(), ()))))


def current_name(history: History) -> str:
    """Name(s) of whoever acts now, or the timer's name."""
    slot = history.state.clock.current
    assert slot is not None
    if slot.kind is SlotKind.TIMER:
        return history.state.effects[slot.ids[0]].name
    return ", ".join(history.state.combatant(i).name for i in slot.ids)


def play_round(history: History) -> list[tuple[int, str, int | None]]:
    """Press Next until the round ends; return (pass, who, phase) for every slot played."""
    played = []
    while history.state.clock.current is not None:
        slot = history.state.clock.current
        played.append((history.state.clock.pass_no, current_name(history), slot.phase))
        history.do(NextTurn())
    return played
