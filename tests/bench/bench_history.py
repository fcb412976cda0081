"""Time GM actions through the history API on fights of several sizes (the window adds its own cost later)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from rules.combatants import AddCombatant, ApplyHarm
from rules.dice import Roller
from rules.encounter import Encounter, Side, frozen_map
from rules.history import History
from rules.systems import get_system
from rules.turns import NextTurn, roll_initiative

SIZES = (10, 100, 300, 1000)
REPEATS = 200


def fight(size: int) -> History:
    """``size`` combatants with initiative rolled and the first pass under way."""
    history = History(Encounter("sr3", f"{size} combatants"))
    roller = Roller.seeded(size)
    for index in range(size):
        side = Side.PLAYER if index % 4 == 0 else Side.OPPONENT
        history.do(AddCombatant(f"c{index + 1}", f"Fighter {index + 1}", side,
                                frozen_map({"reaction": roller.die(12), "initiative_dice": roller.die(3)})))
    history.do(roll_initiative(history.state, get_system("sr3"), roller))
    return history


def _median(action: Callable[[], object], undo: Callable[[], object]) -> float:
    samples = []
    for _index in range(REPEATS):
        start = time.perf_counter()
        action()
        samples.append(time.perf_counter() - start)
        undo()
    return statistics.median(samples)


def _rows_for(size: int) -> list[tuple[str, float]]:
    history = fight(size)
    target = next(iter(history.state.combatants))
    rows = [
        (f"next turn, {size} combatants", _median(lambda: history.do(NextTurn()), history.undo)),
        (f"damage, {size} combatants", _median(lambda: history.do(ApplyHarm(target, "physical", 3)), history.undo)),
    ]
    history.do(NextTurn())
    rows.append((f"undo, {size} combatants", _median(history.undo, history.redo)))
    history.undo()
    rows.append((f"redo, {size} combatants", _median(history.redo, history.undo)))
    return rows


def run() -> list[tuple[str, float]]:
    """(action at size, median seconds) rows."""
    return [row for size in SIZES for row in _rows_for(size)]
