"""Graphics items of the initiative chart: axes labelled with names and captions, and a layer of short texts.

The axes compute only the labels in view and thin them out when they would overlap, so a 300-combatant
fight costs no more to draw than the thirty rows on screen. The text layer paints every label of the chart
in one item, in pixels (the labels keep their size when the GM zooms).
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from typing import Any, Final

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter
from PySide6.QtWidgets import QStyleOptionGraphicsItem, QWidget

from ui.charts.initiative_series import Label

#: Longest name shown on the lane axis; longer names end with an ellipsis.
NAME_CHARS: Final[int] = 24
#: Pixels between two labels of the column axis.
LABEL_GAP: Final[float] = 6.0


def short_name(name: str) -> str:
    """A name cut to fit the lane axis."""
    return name if len(name) <= NAME_CHARS else name[:NAME_CHARS - 1] + "…"


class LaneAxis(pg.AxisItem):  # type: ignore[misc]  # pyqtgraph is untyped
    """The left axis: one combatant name per lane (lane i at y = i), every n-th when the lanes are dense."""

    def __init__(self, orientation: str = "left", **kwargs: Any) -> None:
        super().__init__(orientation, **kwargs)
        self._names: tuple[str, ...] = ()

    def set_names(self, names: Sequence[str]) -> None:
        """Label the lanes (only when they changed: the axis redraws its picture)."""
        names = tuple(short_name(name) for name in names)
        if names != self._names:
            self._names = names
            # Sized to the longest name: pyqtgraph would drop, not show, a label wider than the axis.
            metrics = QFontMetricsF(self.font())
            self.setWidth(int(max((metrics.horizontalAdvance(name) for name in names), default=20.0)) + 16)
            self.picture = None
            self.update()

    def tickValues(self, minVal: float, maxVal: float, size: float) -> list[tuple[float, list[float]]]:
        low, high = sorted((minVal, maxVal))  # an inverted view (first lane on top) gives them reversed
        first, last = max(0, math.ceil(low)), min(len(self._names) - 1, math.floor(high))
        if last < first:
            return []
        height = QFontMetricsF(self.font()).height()
        step = max(1, math.ceil((last - first + 1) * height / max(size, 1.0)))
        return [(float(step), [float(value) for value in range(first, last + 1, step)])]

    def tickStrings(self, values: list[float], scale: float, spacing: float) -> list[str]:
        return [self._names[int(value)] if 0 <= int(value) < len(self._names) else "" for value in values]


class ColumnAxis(pg.AxisItem):  # type: ignore[misc]  # pyqtgraph is untyped
    """A horizontal axis with labels at given x positions (phases, seats, pass titles), thinned to fit."""

    def __init__(self, orientation: str = "bottom", **kwargs: Any) -> None:
        super().__init__(orientation, **kwargs)
        self._ticks: tuple[tuple[float, str], ...] = ()
        self._labels: dict[float, str] = {}

    def set_labels(self, ticks: Sequence[tuple[float, str]]) -> None:
        """Put these labels on the axis (only when they changed)."""
        ticks = tuple(sorted(ticks))
        if ticks != self._ticks:
            self._ticks = ticks
            self._labels = dict(ticks)
            self.picture = None
            self.update()

    def tickValues(self, minVal: float, maxVal: float, size: float) -> list[tuple[float, list[float]]]:
        if not self._ticks or maxVal <= minVal:
            return []
        metrics = QFontMetricsF(self.font())
        per_unit = size / (maxVal - minVal)
        shown: list[float] = []
        right_edge = -math.inf
        for x, text in self._ticks:
            if not minVal <= x <= maxVal:
                continue
            half = metrics.horizontalAdvance(text) / 2
            centre = (x - minVal) * per_unit
            if centre - half >= right_edge + LABEL_GAP:
                shown.append(x)
                right_edge = centre + half
        return [(1.0, shown)]

    def tickStrings(self, values: list[float], scale: float, spacing: float) -> list[str]:
        return [self._labels.get(value, "") for value in values]


class TextLayer(pg.GraphicsObject):  # type: ignore[misc]  # pyqtgraph is untyped
    """Short labels at chart points, painted in pixels to the right of their point."""

    def __init__(self) -> None:
        super().__init__()
        self._labels: tuple[Label, ...] = ()
        self._data = QRectF()
        self._color = QColor("#000000")
        self._halo = QColor("#ffffff")
        self._font = QFont()

    def set_labels(self, labels: Sequence[Label]) -> None:
        """Show these labels (nothing is redrawn when they did not change)."""
        labels = tuple(labels)
        if labels == self._labels:
            return
        self.prepareGeometryChange()
        self._labels = labels
        xs, ys = [label.x for label in labels], [label.y for label in labels]
        self._data = QRectF(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)) if labels else QRectF()
        self.update()

    @property
    def labels(self) -> tuple[Label, ...]:
        """The labels shown."""
        return self._labels

    def set_style(self, color: QColor, background: QColor, font: QFont) -> None:
        """Text colour and the chart's background (a halo behind each label keeps it readable on lines)."""
        self._color, self._font = QColor(color), QFont(font)
        self._halo = QColor(background)
        self._halo.setAlpha(210)
        self.update()

    def dataBounds(self, axis: int, frac: float = 1.0, orthoRange: Any = None) -> tuple[float, float] | None:
        if not self._labels:
            return None
        return (self._data.left(), self._data.right()) if axis == 0 else (self._data.top(), self._data.bottom())

    def viewTransformChanged(self) -> None:
        self.prepareGeometryChange()  # the margin around the labels is in pixels

    def boundingRect(self) -> QRectF:
        if not self._labels:
            return QRectF()
        width, height = abs(self.pixelWidth() or 0.0), abs(self.pixelHeight() or 0.0)
        return self._data.adjusted(-60 * width, -30 * height, 60 * width, 30 * height)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        if not self._labels:
            return
        transform = painter.transform()
        painter.save()
        painter.resetTransform()  # draw in device pixels so the text never stretches with the view
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        painter.setFont(self._font)
        painter.setPen(self._color)
        metrics = QFontMetricsF(self._font)
        lane = abs(transform.map(QPointF(0.0, 1.0)).y() - transform.map(QPointF(0.0, 0.0)).y())
        if lane < metrics.height() * 0.8:
            painter.restore()
            return  # lanes thinner than a line of text: the numbers would only be smudges
        for label in self._labels:
            point = transform.map(QPointF(label.x, label.y))
            # Right of the point, centred on it: clear of the ring around the slot being played.
            box = QRectF(point.x() + 12, point.y() - metrics.height() / 2,
                         metrics.horizontalAdvance(label.text) + 2, metrics.height())
            painter.fillRect(box, self._halo)
            painter.drawText(box, Qt.AlignmentFlag.AlignCenter, label.text)
        painter.restore()
