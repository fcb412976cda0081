"""The initiative-pass chart of the printed summary: the one place the chart meets the printout.

File → Print, Print preview, Export summary as PDF and ``bojovka --print-summary`` all take the chart from here
(app/summary.py lays it out, and leaves the section out when there is no chart to show).
"""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtGui import QImage

from rules.history import History
from ui.charts.initiative_chart import render_initiative_chart_image

#: Laid out 760 px wide, printed 660 CSS px wide: labels stay readable (about 8 pt on paper); drawn at three
#: device pixels per pixel so lines and text stay sharp on a printer.
PRINT_SIZE = QSize(760, 420)
PRINT_PIXEL_RATIO = 3.0


def summary_chart(history: History) -> QImage | None:
    """The chart of the fight's latest turn or rounds (light colours, as paper wants); None before any round."""
    if not history.entries or history.state.clock.round < 1:
        return None
    return render_initiative_chart_image(history, PRINT_SIZE, pixel_ratio=PRINT_PIXEL_RATIO)
