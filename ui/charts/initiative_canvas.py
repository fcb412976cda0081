"""The initiative chart's drawing: lanes, marks, links, labels and a legend (see :mod:`ui.charts.initiative_chart`).

:class:`InitiativeCanvas` draws a :class:`~ui.charts.initiative_series.ChartSeries`; every graphics item is
created once and later only given new data, so an operation costs a few ``setData`` calls, never a new scene.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Final

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QEvent, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtWidgets import QSizePolicy, QWidget

from app.i18n import _
from rules.timeline import MarkKind
from ui.charts.initiative_items import ColumnAxis, LaneAxis, TextLayer
from ui.charts.initiative_series import ChartSeries, Points
from ui.charts.initiative_style import (
    GROUP_LEGEND,
    LIGHT,
    MARK_STYLES,
    NOW_STYLE,
    STEP_STYLE,
    ChartColors,
    MarkStyle,
    qcolor,
)

#: Lanes in view at most when a chart is first shown; more are reached by dragging or the mouse wheel.
VISIBLE_LANES: Final[int] = 30
#: Fewer lanes are shown when a short dock would squeeze them thinner than this (pixels).
MIN_LANE_PIXELS: Final[float] = 16.0
#: Stacking order: backgrounds, then lines, then ghosts, marks, rings and texts on top.
Z_BACK, Z_LINES, Z_GHOSTS, Z_MARKS, Z_NOW, Z_TEXT = -20, -5, 0, 5, 10, 20


def _array(values: Sequence[float]) -> np.ndarray:
    return np.asarray(values, dtype=float)


class InitiativeCanvas(pg.GraphicsLayoutWidget):  # type: ignore[misc]  # pyqtgraph is untyped
    """The chart itself: a plot with lanes, marks, links and labels; its title and legend to the right.

    Title and legend sit beside the plot, not above or below it: the dock is usually a wide, short strip
    under the initiative table, and every pixel of height is a lane more.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.lane_axis = LaneAxis("left")
        self.column_axis = ColumnAxis("bottom")
        self.band_axis = ColumnAxis("top")
        self.plot: pg.PlotItem = self.addPlot(row=0, col=0, rowspan=3, axisItems={
            "left": self.lane_axis, "bottom": self.column_axis, "top": self.band_axis})
        self.plot.showAxis("top")
        self.plot.hideButtons()
        self.plot.setMenuEnabled(False)
        self.plot.invertY(True)
        self.plot.getViewBox().disableAutoRange()
        self.title = pg.LabelItem(justify="left", size="11pt")
        self.ci.addItem(self.title, row=0, col=1)
        self.legend = pg.LegendItem(colCount=1, verSpacing=-4)
        self.ci.addItem(self.legend, row=1, col=1)
        spacer = pg.GraphicsWidget()  # takes the spare height: title and legend stay on top
        spacer.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Expanding)
        for fixed in (self.title, self.legend):
            fixed.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.ci.addItem(spacer, row=2, col=1)
        self.ci.layout.setColumnStretchFactor(0, 1)
        self.ci.layout.setRowStretchFactor(2, 1)
        self.setToolTip(_("Drag to scroll through the lanes, turn the wheel to zoom"))
        self._build_items()
        self.plot.getViewBox().sigResized.connect(self._fit_lanes)
        self.series = ChartSeries("")
        self.colors = LIGHT
        self._view_key: tuple[object, ...] = ()
        self._legend_key: tuple[object, ...] = ()
        # The points each scatter item shows, by the item's id: an operation changes one or two series, and
        # rebuilding an unchanged one cost ~0.4 ms at 300 combatants.
        self._shown_points: dict[int, Points] = {}
        self.apply_colors(LIGHT)

    def _build_items(self) -> None:
        self.lane_stripes = pg.BarGraphItem(x0=[], x1=[], y0=[], y1=[], pen=None)
        self.band_shades = pg.BarGraphItem(x0=[], x1=[], y0=[], y1=[], pen=None)
        self.group_links = pg.PlotCurveItem(connect="pairs")
        self.shift_links = pg.PlotCurveItem(connect="pairs")
        self.delay_links = pg.PlotCurveItem(connect="pairs")
        self.marks = {kind: pg.ScatterPlotItem(pxMode=True, name=kind.value) for kind in MarkKind}
        self.steps = pg.ScatterPlotItem(pxMode=True)
        self.now_ring = pg.ScatterPlotItem(pxMode=True)
        self.now_line = pg.InfiniteLine(angle=90, movable=False)
        self.texts = TextLayer()
        layers = [(self.lane_stripes, Z_BACK), (self.band_shades, Z_BACK + 1), (self.group_links, Z_LINES),
                  (self.shift_links, Z_LINES), (self.delay_links, Z_LINES), (self.now_line, Z_LINES - 1),
                  (self.steps, Z_MARKS + 1), (self.now_ring, Z_NOW), (self.texts, Z_TEXT)]
        layers += [(item, Z_GHOSTS if kind is MarkKind.PLANNED else Z_MARKS) for kind, item in self.marks.items()]
        for item, z in layers:
            item.setZValue(z)
            self.plot.addItem(item)

    # --- theme ---------------------------------------------------------------------------------------
    def apply_colors(self, colors: ChartColors) -> None:
        """Draw in the colours of a theme (the data stay as they are)."""
        self.colors = colors
        self.setBackground(colors.background)
        # The layout paints its own background too, so SVG and PNG exports are never transparent.
        self.ci.setAutoFillBackground(True)
        palette = self.ci.palette()
        palette.setColor(palette.ColorRole.Window, QColor(colors.background))
        self.ci.setPalette(palette)
        for axis in (self.lane_axis, self.column_axis, self.band_axis):
            axis.setPen(pg.mkPen(colors.text))
            axis.setTextPen(pg.mkPen(colors.text))
        self.title.setText(self.series.title, color=colors.text)
        for kind, item in self.marks.items():
            self._style_marks(item, MARK_STYLES[kind], colors.mark(kind))
        self._style_marks(self.steps, STEP_STYLE, colors.wound)
        self._style_marks(self.now_ring, NOW_STYLE, colors.now, width=3.0)
        self.group_links.setPen(pg.mkPen(colors.group, width=3))
        self.shift_links.setPen(pg.mkPen(colors.wound, width=2))
        self.delay_links.setPen(pg.mkPen(colors.delay, width=2, style=Qt.PenStyle.DashLine))
        self.now_line.setPen(pg.mkPen(colors.now, width=2, style=Qt.PenStyle.DotLine))
        self.lane_stripes.setOpts(brush=pg.mkBrush(colors.lane))
        self.band_shades.setOpts(brush=pg.mkBrush(qcolor(colors.band, 150)))
        self.texts.set_style(QColor(colors.text), QColor(colors.background), self.font())
        self._legend_key = ()
        self._fill_legend()

    def _style_marks(self, item: pg.ScatterPlotItem, style: MarkStyle, color: str, width: float = 2.0) -> None:
        item.setSymbol(style.symbol)
        item.setSize(style.size)
        # Filled marks get an outline in the background colour, so neighbours stay apart where they touch.
        outline = self.colors.background if style.filled else color
        item.setPen(pg.mkPen(outline, width=1.0 if style.filled else width))
        item.setBrush(pg.mkBrush(color) if style.filled else pg.mkBrush(None))

    def _fill_legend(self) -> None:
        """The legend lists the kinds of marks this chart can show (ghosts and steps only with passes)."""
        passes = self.series.passes
        key = (self.colors, passes)
        if key == self._legend_key:
            return
        self._legend_key = key
        self.legend.clear()
        self.legend.setLabelTextColor(self.colors.text)
        for kind in (MarkKind.ACTED, MarkKind.SCHEDULED, MarkKind.DELAYED, MarkKind.TAKEN):
            self.legend.addItem(self.marks[kind], _(MARK_STYLES[kind].legend))
        if passes:
            self.legend.addItem(self.marks[MarkKind.PLANNED], _(MARK_STYLES[MarkKind.PLANNED].legend))
            self.legend.addItem(self.steps, _(STEP_STYLE.legend))
        else:
            self.legend.addItem(self.group_links, _(GROUP_LEGEND))
        self.legend.addItem(self.now_ring, _(NOW_STYLE.legend))

    # --- data ------------------------------------------------------------------------------------------
    def show_series(self, series: ChartSeries) -> None:
        """Show new data: every item keeps its identity and only gets new points."""
        self.series = series
        if self.title.text != series.title:
            self.title.setText(series.title, color=self.colors.text)
        for kind, item in self.marks.items():
            self._set_points(item, series.points.get(kind, ((), ())))
        self._set_points(self.steps, series.steps)
        self._set_points(self.now_ring, series.now_points)
        for curve, pairs in ((self.group_links, series.group_links), (self.shift_links, series.shift_links),
                             (self.delay_links, series.delay_links)):
            curve.setData(_array(pairs[0]), _array(pairs[1]), connect="pairs")
        self.now_line.setVisible(series.now_x is not None)
        if series.now_x is not None:
            self.now_line.setPos(series.now_x)
        self.texts.set_labels(series.labels)
        self._set_frame(series)
        self._fill_legend()

    def _set_points(self, item: pg.ScatterPlotItem, points: Points) -> None:
        if self._shown_points.get(id(item)) == points:
            return
        self._shown_points[id(item)] = points
        item.setData(x=_array(points[0]), y=_array(points[1]))

    def _set_frame(self, series: ChartSeries) -> None:
        """Axes, stripes and bands change only with the lanes or the bands; the view resets only then."""
        left, right = series.x_range()
        key = (series.lanes, tuple((band.left, band.right, band.title) for band in series.bands))
        if key == self._view_key:
            return
        self._view_key = key
        self.lane_axis.set_names(series.lane_names)
        self.column_axis.set_labels([tick for band in series.bands for tick in band.ticks])
        self.band_axis.set_labels([(band.centre, band.title) for band in series.bands])
        lanes = len(series.lanes)
        stripes = list(range(1, lanes, 2))
        self.lane_stripes.setOpts(x0=[left] * len(stripes), x1=[right] * len(stripes),
                                  y0=[lane - 0.5 for lane in stripes], y1=[lane + 0.5 for lane in stripes])
        self.band_shades.setOpts(x0=[band.left - 0.5 for band in series.bands],
                                 x1=[band.right + 0.5 for band in series.bands],
                                 y0=[-0.5] * len(series.bands), y1=[lanes - 0.5] * len(series.bands))
        self.plot.setLimits(xMin=left - 5, xMax=right + 5, yMin=-1.5, yMax=max(lanes, 1) + 0.5)
        self.plot.setXRange(left, right, padding=0)
        self.plot.setYRange(-0.7, min(max(lanes, 1), VISIBLE_LANES) - 0.3, padding=0)
        self._fit_lanes()

    def _fit_lanes(self) -> None:
        """Keep lanes at least MIN_LANE_PIXELS high (the rest are scrolled to), from the top lane in view."""
        view = self.plot.getViewBox()
        height = view.height()
        (top, bottom) = sorted(view.viewRange()[1])
        fitting = max(3.0, height / MIN_LANE_PIXELS) if height > 0 else float(VISIBLE_LANES)
        wanted = min(float(max(len(self.series.lanes), 1)), float(VISIBLE_LANES), fitting)
        if abs((bottom - top) - wanted) > 0.5:
            view.setYRange(top, top + wanted, padding=0)

    def chart_item(self) -> pg.GraphicsLayout:
        """The item to export: the plot and its legend."""
        return self.ci

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self.texts.set_style(QColor(self.colors.text), QColor(self.colors.background), self.font())


def render_image(canvas: InitiativeCanvas, size: QSize, pixel_ratio: float = 1.0) -> QImage:
    """Draw a canvas (shown or not) into an image of ``size`` logical pixels (``pixel_ratio`` device pixels each)."""
    canvas.resize(size)
    image = QImage(size * pixel_ratio, QImage.Format.Format_ARGB32)
    image.setDevicePixelRatio(pixel_ratio)
    image.fill(QColor(canvas.colors.background))
    painter = QPainter(image)
    try:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        # The target in logical pixels: left to itself the view fills the image's device pixels and the
        # device-pixel ratio then scales that again.
        canvas.render(painter, QRectF(0, 0, size.width(), size.height()), canvas.viewport().rect())
    finally:
        painter.end()
    image.setDevicePixelRatio(1.0)  # plain pixels for documents, which scale an image to the width they lay out
    return image
