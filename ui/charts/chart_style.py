"""Colours and pens of the odds charts: the Okabe–Ito palette, told apart by line style as well as colour,
and taken from the widget's palette so that the charts read as well in the dark theme as in the light one."""

from __future__ import annotations

from dataclasses import dataclass

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QPalette, QPen
from PySide6.QtWidgets import QGraphicsItem

# Okabe & Ito (2008): eight colours every common colour-vision deficiency still tells apart.
BLUE, SKY, ORANGE, VERMILLION = "#0072B2", "#56B4E9", "#E69F00", "#D55E00"
GREEN, PURPLE, YELLOW = "#009E73", "#CC79A7", "#F0E442"

#: Lines of a sweep on a light background, then on a dark one (yellow and sky vanish on white).
_LIGHT_LINES = (BLUE, VERMILLION, GREEN, PURPLE, ORANGE, "#000000")
_DARK_LINES = (SKY, ORANGE, GREEN, PURPLE, YELLOW, "#FFFFFF")
#: Dash patterns and symbols cycle with the colours, so no line depends on colour alone.
_DASHES = (Qt.PenStyle.SolidLine, Qt.PenStyle.DashLine, Qt.PenStyle.DotLine, Qt.PenStyle.DashDotLine)
SYMBOLS = ("o", "s", "t", "d", "+", "x")


@dataclass(frozen=True)
class ChartColours:
    """The colours one chart uses, worked out from its palette."""

    background: QColor
    text: QColor
    axis: QColor
    grid: QColor
    bar: QColor
    highlight: QColor
    unknown: QColor
    dark: bool

    def line(self, index: int) -> tuple[QPen, QColor, str]:
        """Pen, symbol colour and symbol of the ``index``-th line of a sweep."""
        colours = _DARK_LINES if self.dark else _LIGHT_LINES
        colour = QColor(colours[index % len(colours)])
        pen = pg.mkPen(colour, width=2.5)
        pen.setStyle(_DASHES[index % len(_DASHES)])
        return pen, colour, SYMBOLS[index % len(SYMBOLS)]


def colours_for(palette: QPalette) -> ChartColours:
    """Chart colours for a widget's palette (dark when its window colour is dark)."""
    background = palette.color(QPalette.ColorRole.Base)
    text = palette.color(QPalette.ColorRole.WindowText)
    dark = background.lightnessF() < 0.5
    axis = QColor(text)
    axis.setAlphaF(0.75)
    grid = QColor(text)
    grid.setAlphaF(0.12)
    unknown = QColor(palette.color(QPalette.ColorRole.Mid))
    return ChartColours(background, text, axis, grid, QColor(SKY if dark else BLUE),
                        QColor(ORANGE if dark else VERMILLION), unknown, dark)


def style_plot(plot: pg.PlotItem, colours: ChartColours, font: QFont) -> None:
    """Give a plot's axes and labels the chart colours and the widget's font."""
    for name in ("left", "bottom"):
        axis = plot.getAxis(name)
        axis.enableAutoSIPrefix(False)  # "Damage (x0.001)" helps nobody: the numbers are small already
        axis.setPen(pg.mkPen(colours.axis))
        axis.setTextPen(pg.mkPen(colours.text))
        axis.setTickFont(tick_font(font))
        axis.label.setDefaultTextColor(colours.text)
        axis.label.setFont(font)
        # The left axis draws the grid across the whole plot: every bar or mark that changes would replay it
        # (and the other axis) from scratch. A pixmap of each is drawn again only when the axis itself changes.
        axis.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
    plot.titleLabel.item.setDefaultTextColor(colours.text)


def small_font(font: QFont) -> QFont:
    """The widget's font, a little smaller: tick texts and percentages above the bars."""
    small = QFont(font)
    size = font.pointSizeF()
    if size > 0:
        small.setPointSizeF(max(7.0, size * 0.9))
    return small


def tick_font(font: QFont) -> QFont:
    """The texts along the axes: smaller still, so that outcome names fit under narrow bars."""
    small = QFont(font)
    size = font.pointSizeF()
    if size > 0:
        small.setPointSizeF(max(7.0, size * 0.85))
    return small
