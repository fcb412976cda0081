"""The bars of an odds chart: one per outcome, its percentage above it, the outcome that happened marked.

Every item is created once; a new distribution only moves and recolours them (``setOpts``, ``setText``), so
the chart keeps up while the GM changes a modifier. The outcome rolled is a bar of its own drawn over the
others, so marking it (every resolved attack) redraws one bar, not all of them.
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence

import pyqtgraph as pg
from PySide6.QtCore import QPointF
from PySide6.QtGui import QColor, QCursor, QFont, QFontMetrics, QPalette, QResizeEvent
from PySide6.QtWidgets import QToolTip, QWidget

from app.i18n import _
from ui.charts.chart_style import ChartColours, colours_for, small_font, style_plot, tick_font
from ui.widgets.odds_table import format_percent

BAR_WIDTH = 0.72
#: Percent scale with room above a full bar for its label; the x axis itself is the 0 % line.
TOP, BOTTOM = 124.0, 0.0
#: A lone bar or two stay bar-shaped: the axis always has room for this many.
MIN_SLOTS = 4
#: Below this many pixels per bar the percentages above the bars would collide: hover shows them instead.
MIN_LABEL_SPACING = 4
#: Pixels kept free between two texts under the bars.
TICK_GAP = 3


def percent_ticks() -> list[list[tuple[float, str]]]:
    """Left-axis ticks: 25 %, … 100 % (the scale never moves, so bars compare across changes)."""
    return [[(value, _("{percent} %").format(percent=value)) for value in (25, 50, 75, 100)]]


def fixed_chance_plot(plot: pg.PlotItem) -> None:
    """A still plot of chances: no menu, no panning or zoom, a fixed 0–100 % scale on the left."""
    plot.setMenuEnabled(False)
    plot.hideButtons()
    plot.setMouseEnabled(x=False, y=False)
    plot.getAxis("left").setTicks(percent_ticks())
    plot.getAxis("left").setWidth(44)
    plot.setYRange(BOTTOM, TOP, padding=0)


class BarPlot(pg.PlotWidget):  # type: ignore[misc]  # pyqtgraph ships no type hints
    """Bars of chances (0..1) over outcomes, with tick texts under them and names on hover."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, background=None)
        plot = self.getPlotItem()
        fixed_chance_plot(plot)
        plot.getAxis("bottom").setStyle(hideOverlappingLabels=40)  # an edge bar's text may reach past it
        plot.getAxis("bottom").setTicks([[]])  # our texts only, never pyqtgraph's numbers
        self._bars = pg.BarGraphItem(x=[], height=[], width=BAR_WIDTH)
        plot.addItem(self._bars)
        self._mark = pg.BarGraphItem(x=[0], height=[0.0], width=BAR_WIDTH)
        self._mark.setZValue(self._bars.zValue() + 1)
        self._mark.setVisible(False)
        plot.addItem(self._mark)
        self._labels: list[pg.TextItem] = []
        self._ticks: list[str] = []
        self._shown_ticks: list[tuple[float, str]] = []
        self._names: list[str] = []
        self._chances: list[float] = []
        self._highlighted: int | None = None
        self._known = True
        self._colours = colours_for(self.palette())
        self.scene().sigMouseMoved.connect(self._hover)
        self.restyle()

    # --- data ------------------------------------------------------------------------------------
    def show_bars(self, ticks: Sequence[str], names: Sequence[str], chances: Sequence[float],
                  highlighted: int | None, known: bool = True) -> None:
        """Draw ``chances`` (one per outcome, 0..1) with ``ticks`` under the bars and ``names`` on hover."""
        self._ticks, self._names = list(ticks), list(names)
        self._chances = [min(1.0, max(0.0, chance)) for chance in chances]
        self._highlighted, self._known = highlighted, known
        count = len(self._chances)
        self._bars.setOpts(x=list(range(count)), height=[100.0 * c for c in self._chances], width=BAR_WIDTH,
                           **self._colour_opts())
        self._place_mark()
        margin = (max(count, MIN_SLOTS) - count) / 2 + 0.6
        self.getPlotItem().setXRange(-margin, count - 1 + margin, padding=0)
        self._update_labels()
        self._update_ticks()

    def set_highlighted(self, highlighted: int | None) -> None:
        """Mark another bar as the outcome rolled (None: none), the bars themselves unchanged: only the colours,
        the outlines, the bold percentages and the ticks follow (a resolved attack marks its outcome at once)."""
        if highlighted == self._highlighted:
            return
        before, self._highlighted = self._highlighted, highlighted
        self._place_mark()
        font = small_font(self.font())
        for index in (before, highlighted):
            if index is not None and index < len(self._labels):
                self._embolden(self._labels[index], font, index == highlighted)
        self._update_ticks()

    def _place_mark(self) -> None:
        """The marked bar over the plain one of the outcome rolled (hidden when none is, or chances are unknown)."""
        index = self._highlighted
        shown = self._known and index is not None and 0 <= index < self._count()
        if shown and index is not None:
            self._mark.setOpts(x=[index], height=[100.0 * self._chances[index]])
        self._mark.setVisible(shown)

    def set_axis_title(self, text: str, shown: bool) -> None:
        """What the bars count (plain text), shown under the ticks or not (a compact chart, until export)."""
        item = self.getPlotItem()
        item.setLabel("bottom", html.escape(text))
        item.showLabel("bottom", shown)
        self._fit_axis()

    def _fit_axis(self) -> None:
        # pyqtgraph sizes the axis from the texts it managed to draw, and draws none in a too-low axis: a
        # compact chart would lose its ticks for good. Room for one line of ticks (and the title) instead.
        axis = self.getPlotItem().getAxis("bottom")
        height = QFontMetrics(tick_font(self.font())).height() + 10
        if axis.label.isVisible():
            height += QFontMetrics(small_font(self.font())).height() + 6
        axis.setHeight(height)

    def heights(self) -> list[float]:
        """The bar heights drawn, as chances (0..1)."""
        return [height / 100.0 for height in self._bars.opts["height"]]

    def bar_brush(self, index: int) -> QColor:
        """The fill colour one bar is seen in (tests check the highlight)."""
        if index == self._highlighted and self._mark.isVisible():
            return QColor(self._mark.opts["brush"])
        return QColor(self._bars.opts["brush"])

    def label_texts(self) -> list[str]:
        """The percentages shown above the bars ("" where hidden)."""
        return [label.textItem.toPlainText() if label.isVisible() else "" for label in self._labels[:self._count()]]

    def tick_texts(self) -> list[str]:
        """The texts under the bars, thinned out when they would overlap."""
        return [text for _position, text in self._shown_ticks]

    def hover_text(self, index: int) -> str:
        """What hovering over a bar says: the outcome's full name and its chance."""
        if not 0 <= index < self._count():
            return ""
        chance = format_percent(self._chances[index]) if self._known else "–"
        return _("{outcome}: {chance}").format(outcome=self._names[index], chance=chance)

    def _count(self) -> int:
        return len(self._chances)

    # --- looks -----------------------------------------------------------------------------------
    def restyle(self, palette: QPalette | None = None) -> None:
        """Take the colours of ``palette`` (the chart's, after a theme change; by default the widget's own)."""
        self._palette = palette or self.palette()
        self._colours = colours_for(self._palette)
        self.setBackground(self._colours.background)
        plot = self.getPlotItem()
        style_plot(plot, self._colours, small_font(self.font()))
        plot.showGrid(x=False, y=True, alpha=0.25)
        self._bars.setOpts(**self._colour_opts())
        self._restyle_mark()
        self._fit_axis()
        for label in self._labels:
            label.setColor(self._colours.text)

    def colours(self) -> ChartColours:
        """The colours in use."""
        return self._colours

    def _colour_opts(self) -> dict[str, object]:
        return {"brush": self._colours.bar if self._known else self._colours.unknown, "pen": pg.mkPen(None)}

    def _restyle_mark(self) -> None:
        # The outcome that happened also gets a thick outline: it must not be told by its colour alone.
        self._mark.setOpts(brush=self._colours.highlight, pen=pg.mkPen(self._colours.text, width=2.5))

    def _update_labels(self) -> None:
        font = small_font(self.font())
        while len(self._labels) < self._count():
            label = pg.TextItem(anchor=(0.5, 1.0), color=self._colours.text)
            label.setFont(font)
            self.getPlotItem().addItem(label)
            self._labels.append(label)
        room = self._labels_fit(font)
        for index, label in enumerate(self._labels):
            shown = index < self._count() and room and self._known
            label.setVisible(bool(shown))
            if shown:
                label.setText(format_percent(self._chances[index]))
                label.setPos(QPointF(index, 100.0 * self._chances[index] + 1.0))
                self._embolden(label, font, index == self._highlighted)

    @staticmethod
    def _embolden(label: pg.TextItem, font: QFont, bold: bool) -> None:
        """The percentage of the outcome rolled in bold, the others in ``font``."""
        if label.textItem.font().bold() != bold:
            chosen = QFont(font)
            chosen.setBold(bold)
            label.setFont(chosen)

    def _pixels_per_bar(self) -> float:
        """Pixels from one bar's centre to the next (the view spans the bars and their side margins)."""
        width = float(self.getPlotItem().getViewBox().width() or self.width() * 0.8)
        low, high = self.getPlotItem().getViewBox().viewRange()[0]
        return width / max(float(high - low), 1.0)

    def _labels_fit(self, font: QFont) -> bool:
        needed = QFontMetrics(font).horizontalAdvance(format_percent(0.555)) + MIN_LABEL_SPACING
        return self._pixels_per_bar() >= needed

    def _update_ticks(self) -> None:
        fitting = self._fitting_ticks()
        if fitting != self._shown_ticks:  # a new set of ticks redraws the whole axis
            self._shown_ticks = fitting
            self.getPlotItem().getAxis("bottom").setTicks([self._shown_ticks])

    def _fitting_ticks(self) -> list[tuple[float, str]]:
        """Tick texts from left to right, each shown only if it clears the last one shown (the outcome that
        happened always shows): narrow numbers stay dense, long words make room for each other."""
        metrics = QFontMetrics(tick_font(self.font()))
        spacing = self._pixels_per_bar()
        shown: list[tuple[float, str]] = []
        right_edge = -math.inf
        for index, tick in enumerate(self._ticks):
            half = (metrics.horizontalAdvance(tick) + TICK_GAP) / 2
            centre = index * spacing
            if centre - half >= right_edge or index == self._highlighted:
                if index == self._highlighted and shown and centre - half < right_edge:
                    shown.pop()  # the rolled outcome's text wins over its neighbour's
                shown.append((float(index), tick))
                right_edge = centre + half
        return shown

    def resizeEvent(self, event: QResizeEvent) -> None:
        """More or less room: show or hide the percentages and thin the ticks again."""
        super().resizeEvent(event)
        if "_labels" in self.__dict__:  # pyqtgraph resizes once while it is being built
            self._update_labels()
            self._update_ticks()

    def _hover(self, position: QPointF) -> None:
        view = self.getPlotItem().getViewBox()
        if not view.sceneBoundingRect().contains(position):
            return
        index = round(view.mapSceneToView(position).x())
        text = self.hover_text(index)
        if text:
            QToolTip.showText(QCursor.pos(), text, self)
        else:
            QToolTip.hideText()

