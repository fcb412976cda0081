"""The start-up floor for P1: PySide6 + pyqtgraph imported, an empty QMainWindow shown, first paint reported.

``python -m tests.bench.bare_window`` prints ``startup-probe <epoch seconds>`` after the first paint and quits,
exactly as ``python -m app.main --startup-probe`` does.
"""

from __future__ import annotations

import os
import sys
import time

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

import pyqtgraph  # noqa: F401  (the floor includes importing the chart library)
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QMainWindow


class _FirstPaint(QObject):
    def __init__(self, window: QMainWindow) -> None:
        super().__init__(window)
        self._window = window

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            watched.removeEventFilter(self)
            QTimer.singleShot(0, self._report)
        return False

    def _report(self) -> None:
        print(f"startup-probe {time.time():.6f}", flush=True)
        self._window.close()


def main() -> int:
    """Show the window, report its first paint, quit."""
    application = QApplication(sys.argv[:1])
    window = QMainWindow()
    window.installEventFilter(_FirstPaint(window))
    window.show()
    return application.exec()


if __name__ == "__main__":
    sys.exit(main())
