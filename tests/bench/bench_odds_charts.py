"""How long an odds chart takes to follow a modifier: the GM changes a number, the dialog recomputes its odds,
the chart moves its bars (or recomputes its pool-size curves) and Qt paints it. One frame is 16 ms.

:func:`run` returns ``(name, median seconds, 95th percentile seconds)`` rows; nothing here asserts a time.
Each sample is one change of a spin box followed by the paint it causes (``processEvents`` on a shown window,
offscreen), so it is what the GM waits for.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

from PySide6.QtWidgets import QApplication, QSpinBox, QWidget  # after the platform is chosen

SAMPLES = 60

Row = tuple[str, float, float]


def _application() -> QApplication:
    existing = QApplication.instance()
    return existing if isinstance(existing, QApplication) else QApplication([])


def _time_changes(spin: QSpinBox, values: tuple[int, int]) -> tuple[float, float]:
    """Median and 95th percentile of "set the spin box, then paint": alternating two values."""
    application = _application()
    samples = []
    for index in range(SAMPLES):
        start = time.perf_counter()
        spin.setValue(values[index % 2])
        application.processEvents()  # the repaint the change scheduled
        samples.append(time.perf_counter() - start)
    samples.sort()
    return statistics.median(samples), samples[int(0.95 * (len(samples) - 1))]


@contextmanager
def _shown(window: QWidget) -> Iterator[QWidget]:
    window.resize(1366, 700)
    window.show()
    _application().processEvents()
    try:
        yield window
    finally:
        window.close()
        window.deleteLater()
        _application().processEvents()


def _sr3_rows() -> list[Row]:
    from app.document import EncounterDocument
    from rules.dice import Roller
    from tests.rules.sr3_scenes import eight_characters, roll_ones
    from ui.charts.odds_data import View
    from ui.games.sr3.attack import Sr3AttackDialog

    history, ids = eight_characters()
    roll_ones(history, ids)
    dialog = Sr3AttackDialog(EncounterDocument(history), Roller.seeded(1))
    dialog.dice.skill.setValue(6)
    dialog.dice.dodge.setValue(2)
    rows = []
    with _shown(dialog):
        rows.append(("SR3 dialog, GM modifier, bars", *_time_changes(dialog.situation.gm, (0, 2))))
        dialog.chart.set_view(View.BY_POOL)
        rows.append(("SR3 dialog, GM modifier, curve over 1..12 dice",
                     *_time_changes(dialog.situation.gm, (0, 2))))
    return rows


def _clovek_rows() -> list[Row]:
    from app.document import EncounterDocument
    from rules.dice import Roller
    from rules.systems.clovek.sample import sample
    from ui.games.clovek.attack import ClovekCheckDialog

    dialog = ClovekCheckDialog(EncounterDocument(sample()), Roller.seeded(3), attacker_id="c2", target_id="c4")
    dialog.roll_box.skill.setValue(3)
    dialog.roll_box.dice.setValue(4)
    dialog.defends.setChecked(True)
    dialog.defence_box.dice.setValue(2)
    dialog.power_box.source.setCurrentIndex(1)
    with _shown(dialog):
        return [("Člověk dialog, bonus, outcome and power charts",
                 *_time_changes(dialog.roll_box.bonus, (0, 1)))]


def _institut_rows() -> list[Row]:
    from app.document import EncounterDocument
    from rules.dice import Roller
    from rules.systems.institut.sample import sample
    from ui.games.institut.attack import InstitutAttackDialog

    dialog = InstitutAttackDialog(EncounterDocument(sample()), Roller.seeded(1))
    dialog.attack.skill.setValue(5)
    with _shown(dialog):
        return [("Institute dialog, damage dice", *_time_changes(dialog.attack.damage, (6, 9)))]


def _dock_rows() -> list[Row]:
    from app.document import EncounterDocument
    from rules.history import new_history
    from ui.charts.odds_data import View
    from ui.charts.odds_dock import OddsDock

    dock = OddsDock(EncounterDocument(new_history("sr3")))
    dock.select("test")
    spin = dock.inputs()["tn"]
    assert isinstance(spin, QSpinBox)
    rows = []
    with _shown(dock):
        rows.append(("Odds dock, SR3 TN, bars", *_time_changes(spin, (4, 6))))
        dock.chart.set_view(View.BY_POOL)
        rows.append(("Odds dock, SR3 TN, curve over 1..12 dice", *_time_changes(spin, (4, 6))))
    return rows


def run() -> list[Row]:
    """Every row: a dialog or the dock, the modifier changed, what the chart showed."""
    _application()
    steps: tuple[Callable[[], list[Row]], ...] = (_sr3_rows, _clovek_rows, _institut_rows, _dock_rows)
    return [row for step in steps for row in step()]
