"""A bare PySide6 + pyqtgraph window, frozen by the same spec (``BOJOVKA_BARE=1``) as the yardstick for size.

The issue's goal is a Bojovka bundle at most 1.3× this one: everything above it is our own code, data and
whatever our imports drag in. ``--selftest`` draws one plot offscreen and prints ``ok`` so the bench can also
time its start.
"""

import os
import sys

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

import pyqtgraph
from PySide6.QtWidgets import QApplication


def main() -> int:
    """Show a plot; with ``--selftest`` render it offscreen and exit."""
    selftest = "--selftest" in sys.argv
    if selftest:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    application = QApplication(sys.argv[:1])
    plot = pyqtgraph.PlotWidget()
    plot.plot([1, 3, 2, 4])
    plot.show()
    if selftest:
        application.processEvents()
        print("ok" if not plot.grab().isNull() else "could not draw")
        return 0
    return application.exec()


if __name__ == "__main__":
    sys.exit(main())
