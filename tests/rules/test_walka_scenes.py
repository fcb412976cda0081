"""Ready-made Walka tables for the tests (imported by the other test_walka_* modules), and checks of them.

The table: Ania (GM's left) plays Kira and her drone, Bartek plays Wedge, Celina plays Nova; the GM runs
two gangers. Clockwise from the GM's left: Ania, Bartek, Celina, then the GM.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.combatants import AddCombatant
from rules.encounter import Encounter, JsonValue, Side, frozen_map
from rules.history import History
from rules.systems.walka import GM_SEAT, SYSTEM, SetSeating
from rules.systems.walka.seating import listed_seats
from rules.turns import NextTurn, RollInitiative

PARTY: dict[str, tuple[Side, str | None]] = {
    "Kira": (Side.PLAYER, "Ania"),
    "Drone": (Side.ALLY, "Ania"),
    "Wedge": (Side.PLAYER, "Bartek"),
    "Nova": (Side.PLAYER, "Celina"),
    "Ganger 1": (Side.OPPONENT, None),
    "Ganger 2": (Side.OPPONENT, None),
}
SEATS = ("Ania", "Bartek", "Celina")
STATS = {"hit_points": 6, "chances": 1, "firearms": 12, "melee": 11, "brawling": 9, "dodge": 8, "parry": 7,
         "weapon_dice": 3}


def table(options: Mapping[str, JsonValue] | None = None) -> tuple[History, dict[str, str]]:
    """The table above, seated, initiative not rolled."""
    history = History(Encounter("walka", "Test table", options=frozen_map(dict(options or {}))))
    ids: dict[str, str] = {}
    for number, (name, (side, seat)) in enumerate(PARTY.items(), start=1):
        ids[name] = f"c{number}"
        history.do(AddCombatant(ids[name], name, side, frozen_map(STATS), seat=seat))
    history.do(SetSeating(SEATS))
    return history, ids


def roll(history: History, **by_seat: int) -> None:
    """Roll initiative with each seat's d12 given by seat name (``GM=…`` for the GM's seat)."""
    state = history.state
    rolls = {}
    for combatant in state.combatants.values():
        if not SYSTEM.can_act(combatant, state):
            continue
        seat = SYSTEM.initiative_group(combatant, state)
        rolls[combatant.id] = (by_seat["GM" if seat == GM_SEAT else str(seat)],)
    history.do(RollInitiative(frozen_map(rolls), frozen_map({})))


def acting(history: History) -> list[str]:
    """Names acting now."""
    slot = history.state.clock.current
    assert slot is not None
    return [history.state.combatant(i).name for i in slot.ids]


def round_order(history: History) -> list[list[str]]:
    """Who acts, slot by slot, until the round ends (presses Next)."""
    order = []
    start = history.state.clock.round
    while history.state.clock.current is not None and history.state.clock.round == start:
        order.append(acting(history))
        history.do(NextTurn())
    return order


def test_the_table_seats_everyone_where_the_party_says() -> None:
    history, ids = table()
    state = history.state
    assert listed_seats(state) == SEATS
    assert [SYSTEM.initiative_group(state.combatant(ids[name]), state) for name in PARTY] == [
        "Ania", "Ania", "Bartek", "Celina", GM_SEAT, GM_SEAT]


def test_roll_gives_a_seat_one_shared_d12() -> None:
    history, ids = table()
    roll(history, Ania=4, Bartek=9, Celina=2, GM=7)
    state = history.state
    assert [SYSTEM.score_text(state.combatant(ids[name]), state) for name in PARTY] == ["4", "4", "9", "2", "7", "7"]
