"""The initiative-pass chart of the printed summary: the one place the chart meets the printout.

LEAD (merging issue 5): ``ui/charts/initiative_chart.py`` provides ``render_initiative_chart_image(...)`` ->
QImage. Return its image here; File → Print, Print preview, Export summary as PDF and
``bojovka --print-summary`` all take the chart from this function (app/summary.py's ``_chart`` lays it out,
and leaves the section out while this returns None).
"""

from __future__ import annotations

from PySide6.QtGui import QImage

from rules.history import History


def summary_chart(history: History) -> QImage | None:
    """The chart image for ``history``'s summary, or None while no chart renderer is wired in."""
    return None
