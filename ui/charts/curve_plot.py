"""The "by pool size" view of an odds chart: one line per result, its chance against the number of dice.

It answers "how many dice do I need?": follow the line of the result wanted to the height that is good
enough and read the pool size below. A dashed vertical line marks the pool the GM has now.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics, QPalette, QResizeEvent
from PySide6.QtWidgets import QWidget

from app.i18n import _
from ui.charts.bar_plot import fixed_chance_plot
from ui.charts.chart_style import colours_for, small_font, style_plot
from ui.charts.odds_data import Curve


class CurvePlot(pg.PlotWidget):  # type: ignore[misc]  # pyqtgraph ships no type hints
    """Lines of P(result or better) over pool sizes, with a legend and the current pool marked."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, background=None)
        plot = self.getPlotItem()
        fixed_chance_plot(plot)
        # Rising lines leave the bottom right empty (many dice, small chances): the legend goes there.
        self._legend = plot.addLegend(offset=(-6, -6), labelTextSize="8pt")
        self._lines: list[pg.PlotDataItem] = []
        self._labels: list[str] = []
        self._now = pg.InfiniteLine(angle=90, movable=False, label=_("now"), labelOpts={"position": 0.93})
        plot.addItem(self._now)
        self._sizes: list[int] = []
        self._curves: list[Curve] = []
        self._current: int | None = None
        self.restyle()

    def show_curves(self, sizes: range, curves: Sequence[Curve], current: int | None, axis: str) -> None:
        """Draw one line per curve over ``sizes``; mark the pool ``current`` (None: no mark)."""
        self._sizes, self._curves, self._current = list(sizes), list(curves), current
        while len(self._lines) < len(curves):
            self._lines.append(self.getPlotItem().plot())
        for index, line in enumerate(self._lines):
            if index < len(curves):
                line.setData(self._sizes, [100.0 * min(1.0, max(0.0, c)) for c in curves[index].chances])
            line.setVisible(index < len(curves))
        self._style_lines()
        self._update_legend()
        self._now.setVisible(current is not None and current in sizes)
        if current is not None:
            self._now.setValue(current)
        plot = self.getPlotItem()
        plot.setLabel("bottom", axis)
        low, high = (sizes[0], sizes[-1]) if sizes else (0, 1)
        plot.setXRange(low - 0.3, high + 0.3, padding=0)
        self._update_ticks()

    def curves(self) -> list[Curve]:
        """The lines drawn."""
        return list(self._curves)

    def drawn(self, index: int) -> tuple[list[float], list[float]]:
        """The x and y (percent) of the ``index``-th line as drawn."""
        xs, ys = self._lines[index].getData()
        return [float(x) for x in xs], [float(y) for y in ys]

    def legend_texts(self) -> list[str]:
        """The legend's entries."""
        return [label.text for _sample, label in self._legend.items]

    def restyle(self, palette: QPalette | None = None) -> None:
        """Take the colours of ``palette`` (the chart's, after a theme change; by default the widget's own)."""
        self._palette = palette or self.palette()
        colours = colours_for(self._palette)
        self.setBackground(colours.background)
        plot = self.getPlotItem()
        style_plot(plot, colours, small_font(self.font()))
        plot.showGrid(x=True, y=True, alpha=0.25)
        self._legend.setLabelTextColor(colours.text)
        fill = pg.mkColor(colours.background)
        fill.setAlphaF(0.85)
        self._legend.setBrush(fill)
        self._legend.setPen(pg.mkPen(colours.grid))
        pen = pg.mkPen(colours.text, width=1.5, style=Qt.PenStyle.DashLine)
        self._now.setPen(pen)
        self._now.label.setColor(colours.text)
        self._style_lines()
        self._labels = []  # redraw the legend: its samples copy the pens
        self._update_legend()

    def _style_lines(self) -> None:
        colours = colours_for(self._palette)
        for index, line in enumerate(self._lines):
            pen, colour, symbol = colours.line(index)
            line.setPen(pen)
            line.setSymbol(symbol)
            line.setSymbolSize(7)
            line.setSymbolBrush(colour)
            line.setSymbolPen(pg.mkPen(colour))

    def _update_legend(self) -> None:
        labels = [curve.label for curve in self._curves]
        if labels == self._labels:
            return
        self._legend.clear()
        for line, label in zip(self._lines, labels, strict=False):
            self._legend.addItem(line, label)
        self._labels = labels

    def _update_ticks(self) -> None:
        if not self._sizes:
            return
        metrics = QFontMetrics(small_font(self.font()))
        widest = metrics.horizontalAdvance(str(self._sizes[-1])) + 12
        per_size = (self.getPlotItem().getViewBox().width() or self.width() * 0.8) / len(self._sizes)
        step = max(1, math.ceil(widest / max(per_size, 1.0)))
        step = next(nice for nice in (1, 2, 5, 10, 20, 50) if nice >= step) if step <= 50 else step
        self.getPlotItem().getAxis("bottom").setTicks([[(float(s), str(s)) for s in self._sizes if s % step == 0
                                                        or s == self._sizes[0]]])

    def resizeEvent(self, event: QResizeEvent) -> None:
        """Thin the pool-size ticks to the room there is."""
        super().resizeEvent(event)
        if "_sizes" in self.__dict__:  # pyqtgraph resizes once while it is being built
            self._update_ticks()

