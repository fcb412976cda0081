"""Ready-made Institute fights for the tests: two agents and two bandits, and helpers to drive a round."""

from __future__ import annotations

from collections.abc import Mapping

from rules.combatants import AddCombatant
from rules.encounter import Encounter, Side, frozen_map
from rules.history import History
from rules.systems import get_system
from rules.turns import NextTurn, RollInitiative

INSTITUT = get_system("institut")

#: name → (side, attributes). Initiative pools: Sokolov 6, Vera 5, Bandits 4.
CAST: dict[str, tuple[Side, dict[str, int]]] = {
    "Sokolov": (Side.PLAYER, {"agility": 3, "thinking": 3, "strength": 3, "athletics": 2, "shooting": 5,
                              "dodge": 3, "boxing": 2, "martial_arts": 1, "armor": 2}),
    "Vera": (Side.PLAYER, {"agility": 3, "thinking": 2, "strength": 2, "athletics": 3, "shooting": 4,
                           "dodge": 4, "fencing": 3}),
    "Bandit 1": (Side.OPPONENT, {"agility": 2, "thinking": 2, "strength": 3, "athletics": 1, "shooting": 3,
                                 "dodge": 2, "melee": 2}),
    "Bandit 2": (Side.OPPONENT, {"agility": 2, "thinking": 2, "strength": 3, "athletics": 1, "shooting": 3,
                                 "dodge": 2, "melee": 2}),
}


def cast(names: tuple[str, ...] = tuple(CAST)) -> tuple[History, dict[str, str]]:
    """A history with the named combatants added (not rolled yet); ids by name."""
    history = History(Encounter("institut", "Test"))
    ids = {}
    for number, name in enumerate(names, start=1):
        side, attributes = CAST[name]
        ids[name] = f"c{number}"
        history.do(AddCombatant(ids[name], name, side, frozen_map(attributes)))
    return history, ids


def roll(history: History, faces: Mapping[str, tuple[int, ...]], tiebreaks: Mapping[str, tuple[int, ...]] | None
         = None) -> None:
    """Roll initiative with the given faces (by id)."""
    history.do(RollInitiative(frozen_map(dict(faces)), frozen_map(dict(tiebreaks or {}))))


def uniform(ids: Mapping[str, str], history: History, face: int) -> dict[str, tuple[int, ...]]:
    """Every pool showing ``face`` on every die."""
    return {cid: (face,) * INSTITUT.initiative_dice(history.state.combatant(cid), history.state).count
            for cid in ids.values()}


def current(history: History) -> str:
    """The name of whoever acts now (or the timer's name)."""
    slot = history.state.clock.current
    assert slot is not None
    if slot.ids[0] in history.state.effects:
        return history.state.effects[slot.ids[0]].name
    return history.state.combatant(slot.ids[0]).name


def play_round(history: History) -> list[str]:
    """Press Next until the round ends; the names in the order they acted."""
    order = []
    while history.state.clock.current is not None:
        order.append(current(history))
        history.do(NextTurn())
    return order


def state_of(history: History) -> Encounter:
    """The current state (a shorthand)."""
    return history.state


def test_the_cast_rolls_the_pools_the_digest_gives() -> None:
    """Initiative is Agility + Thinking d6: 6, 5, 4 and 4 dice."""
    history, ids = cast()
    counts = {name: INSTITUT.initiative_dice(history.state.combatant(cid), history.state).count
              for name, cid in ids.items()}
    assert counts == {"Sokolov": 6, "Vera": 5, "Bandit 1": 4, "Bandit 2": 4}
