"""Time the initiative chart on a long fight: 300 combatants, 5,000 operations (one frame is 16 ms).

Each sample applies one operation through the document (as the GM's key press does) and lets the shown chart
catch up; the figures are medians. Nothing here asserts a time: `make bench` prints them.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

from PySide6.QtCore import qInstallMessageHandler
from PySide6.QtWidgets import QApplication

from app.document import EncounterDocument
from rules.combatants import ApplyHarm
from rules.dice import Roller
from rules.history import History, Operation
from rules.timeline import Timeline
from rules.turns import DelayAction, NextTurn, roll_initiative
from tests.bench.bench_history import fight
from ui.charts.initiative_chart import InitiativeChart

COMBATANTS = 300
OPERATIONS = 5000
SAMPLES = 200


def next_operation(history: History, roller: Roller, count: int) -> Operation:
    """What a GM does next in the long fight: mostly Next, a wound every tenth step, a delay now and then."""
    state = history.state
    current = state.clock.current
    if current is None:
        return roll_initiative(state, history.system, roller)
    if count % 10 == 0:
        return ApplyHarm(f"c{roller.die(COMBATANTS)}", "stun", 1)
    if count % 25 == 0 and current.kind.value == "actors":
        return DelayAction(current.ids[0])
    return NextTurn()


def long_fight() -> tuple[History, Roller]:
    """300 combatants, 5,000 operations in, somewhere in the middle of a combat turn."""
    history = fight(COMBATANTS)
    roller = Roller.seeded(5)
    count = 0
    while len(history.entries) < OPERATIONS:
        count += 1
        history.do(next_operation(history, roller, count))
    return history, roller


def _median(step: Callable[[], object]) -> float:
    samples = []
    for _index in range(SAMPLES):
        start = time.perf_counter()
        step()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def run() -> list[tuple[str, float]]:
    """(what, median seconds) rows."""
    application = QApplication.instance() or QApplication([])
    history, roller = long_fight()
    start = time.perf_counter()
    Timeline(history).sync()
    read_all = time.perf_counter() - start
    document = EncounterDocument(history)
    chart = InitiativeChart(document)
    chart.resize(1200, 600)
    quiet = qInstallMessageHandler(lambda *_message: None)  # offscreen Qt's "propagateSizeHints" notes
    chart.show()
    application.processEvents()
    qInstallMessageHandler(quiet)
    counter = iter(range(1, 10**9))

    def apply() -> None:
        document.apply(next_operation(history, roller, next(counter)))

    def apply_and_paint() -> None:
        apply()
        chart.canvas.grab()  # the whole chart drawn into a pixmap: an upper bound of the repaint

    rows = [
        (f"read a {OPERATIONS}-operation history into a timeline", read_all),
        (f"one operation + chart update, {COMBATANTS} combatants", _median(apply)),
        (f"one operation + chart update + full redraw, {COMBATANTS} combatants", _median(apply_and_paint)),
        (f"one operation alone, {COMBATANTS} combatants", _median(lambda: history.do(
            next_operation(history, roller, next(counter))))),
    ]
    chart.close()
    return rows
