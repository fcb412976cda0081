"""The initiative-pass chart of the printed summary: the one place the chart meets the printout.

File → Print, Print preview, Export summary as PDF and ``bojovka --print-summary`` all take the chart from here
(app/summary.py lays it out, and leaves the section out when there is no chart to show).
"""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtGui import QImage

from rules.history import History
from ui.charts.initiative_chart import render_initiative_chart_image

#: Printed 660 CSS px wide: twice that in pixels keeps lines and labels sharp on paper.
PRINT_SIZE = QSize(1320, 700)


def summary_chart(history: History) -> QImage | None:
    """The chart of the fight's latest turn or rounds (light colours, as paper wants); None before any round."""
    if not history.entries or history.state.clock.round < 1:
        return None
    return render_initiative_chart_image(history, PRINT_SIZE)
