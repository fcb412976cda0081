"""A condition track drawn as a row of boxes: clickable, keyboard accessible, readable in light and dark themes.

The widget never changes damage itself: it asks for a value with ``damage_requested`` and shows whatever the
document then says. :func:`paint_track` draws the same boxes compactly for the initiative table's delegate, or a
bar filled in proportion when the boxes would be too thin to count (30 hit points in a table cell).
Filled boxes carry a diagonal stroke and overflow boxes a cross, the bar's filled part a hatching, so the track
reads without colour too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from PySide6.QtCore import QEvent, QPointF, QRect, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFocusEvent,
    QGuiApplication,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QPen,
)
from PySide6.QtWidgets import QSizePolicy, QWidget

from app.i18n import _, ngettext

#: Filled boxes: ~4.2:1 against white and ~3.8:1 against a #202020 background (WCAG asks 3:1 for graphics).
FILLED_RED: Final[QColor] = QColor("#e53935")
#: Overflow boxes (damage beyond the track, e.g. SR3 physical overflow): ~4.8:1 on white, ~3.4:1 on #202020.
OVERFLOW_PURPLE: Final[QColor] = QColor("#ab47bc")
#: The mark drawn inside filled boxes contrasts with both fill colours.
MARK_WHITE: Final[QColor] = QColor("#ffffff")
#: At most this many overflow boxes are drawn; the tooltip and the header give the exact number.
MAX_OVERFLOW_BOXES: Final[int] = 12

BOX: Final[int] = 22
MIN_BOX: Final[int] = 10
SPACING: Final[int] = 3
OVERFLOW_GAP: Final[int] = 10
MARGIN: Final[int] = 3
#: Boxes narrower than this (pixels) cannot be counted: :func:`paint_track` draws a proportional bar instead.
MIN_SEGMENT: Final[float] = 4.0


def relative_luminance(color: QColor) -> float:
    """WCAG 2 relative luminance of an opaque colour."""

    def channel(value: float) -> float:
        return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(color.redF()) + 0.7152 * channel(color.greenF()) + 0.0722 * channel(color.blueF())


def contrast_ratio(first: QColor, second: QColor) -> float:
    """WCAG 2 contrast ratio (1 to 21) between two colours."""
    light, dark = sorted((relative_luminance(first), relative_luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@dataclass(frozen=True)
class TrackColors:
    """The colours a track is drawn with, taken from a palette so both themes work."""

    border: QColor
    empty: QColor
    filled: QColor
    overflow: QColor
    mark: QColor
    highlight: QColor

    @classmethod
    def from_palette(cls, palette: QPalette) -> TrackColors:
        """Borders and empty boxes follow the theme; damage keeps its fixed, contrast-checked colours."""
        group = QPalette.ColorGroup.Active
        return cls(border=palette.color(group, QPalette.ColorRole.Text),
                   empty=palette.color(group, QPalette.ColorRole.Base),
                   filled=FILLED_RED, overflow=OVERFLOW_PURPLE, mark=MARK_WHITE,
                   highlight=palette.color(group, QPalette.ColorRole.Highlight))


def box_rects(rect: QRectF, size: int, overflow: int, *, spacing: float, gap: float,
              square: bool, max_box: float = BOX) -> list[QRectF]:
    """Boxes of a track laid out left to right in ``rect``: ``size`` boxes, a gap, then ``overflow`` boxes."""
    count = size + overflow
    if count <= 0:
        return []
    between = spacing * (count - 1) + (gap - spacing if overflow and size else 0)
    width = max(1.0, (rect.width() - between) / count)
    height = rect.height()
    if square:
        width = height = min(width, max_box, rect.height())
    top = rect.top() + (rect.height() - height) / 2
    rects, x = [], rect.left()
    for index in range(count):
        if index == size and size:
            x += gap - spacing
        rects.append(QRectF(x, top, width, height))
        x += width + spacing
    return rects


def _paint_box(painter: QPainter, box: QRectF, state: int, colors: TrackColors) -> None:
    """``state``: 0 empty, 1 filled (diagonal stroke), 2 overflow (cross)."""
    fill = (colors.empty, colors.filled, colors.overflow)[state]
    painter.setPen(QPen(colors.border, 1))
    painter.setBrush(fill)
    painter.drawRect(box.adjusted(0.5, 0.5, -0.5, -0.5))
    if state == 0:
        return
    inset = max(1.5, min(box.width(), box.height()) * 0.2)
    inner = box.adjusted(inset, inset, -inset, -inset)
    painter.setPen(QPen(colors.mark, max(1.0, min(box.width(), box.height()) / 10)))
    painter.drawLine(inner.bottomLeft(), inner.topRight())
    if state == 2:
        painter.drawLine(inner.topLeft(), inner.bottomRight())


def paint_boxes(painter: QPainter, boxes: list[QRectF], filled: int, size: int, colors: TrackColors) -> None:
    """Draw laid-out boxes: the first ``filled`` of the track filled, everything past ``size`` as overflow."""
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    for index, box in enumerate(boxes):
        state = 2 if index >= size else (1 if index < filled else 0)
        _paint_box(painter, box, state, colors)
    painter.restore()


def paint_bar(painter: QPainter, rect: QRectF, filled: int, size: int, colors: TrackColors) -> None:
    """One bar, its left part filled (and hatched) in the proportion ``filled`` / ``size``."""
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    frame = rect.adjusted(0.5, 0.5, -0.5, -0.5)
    painter.setPen(QPen(colors.border, 1))
    painter.setBrush(colors.empty)
    painter.drawRect(frame)
    share = min(1.0, max(0.0, filled / size)) if size > 0 else 0.0
    if share > 0:
        part = QRectF(frame.left(), frame.top(), frame.width() * share, frame.height())
        painter.fillRect(part, colors.filled)
        painter.fillRect(part, QBrush(colors.mark, Qt.BrushStyle.BDiagPattern))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(frame)
    painter.restore()


def paint_track(painter: QPainter, rect: QRect | QRectF, filled: int, size: int, overflow: int = 0,
                palette: QPalette | None = None) -> None:
    """Compact version for table cells: ``filled`` of ``size`` segments, then ``overflow`` segments; a
    proportional bar when the segments would be narrower than :data:`MIN_SEGMENT`."""
    area = QRectF(rect)
    colors = TrackColors.from_palette(palette or QGuiApplication.palette())
    boxes = compact_boxes(area, size, overflow)
    if boxes is None:
        paint_bar(painter, area, filled, size, colors)
    else:
        paint_boxes(painter, boxes, min(filled, size), size, colors)


def compact_boxes(area: QRectF, size: int, overflow: int) -> list[QRectF] | None:
    """The boxes :func:`paint_track` draws in ``area``, or None when even the track's own boxes would be
    narrower than :data:`MIN_SEGMENT` (it draws a bar then). Overflow boxes are drawn only as far as they leave
    the boxes countable: the words beside the drawing give the number."""
    if size * (MIN_SEGMENT + 1) > area.width() + 1:  # the track's own boxes alone are too narrow: a bar, worked out
        return None  # without laying them out (a track of 9,999 hit points took a third of a second per cell)
    for shown in range(min(max(0, overflow), MAX_OVERFLOW_BOXES), -1, -1):
        boxes = box_rects(area, size, shown, spacing=1, gap=4, square=False)
        if boxes and boxes[0].width() >= MIN_SEGMENT:
            return boxes
    return None


class ConditionTrack(QWidget):
    """One condition track: a label, ``size`` boxes, overflow after a gap; click or use arrow keys to set it."""

    damage_requested = Signal(str, int)  # (track key, value wanted)

    def __init__(self, track_key: str, label: str, size: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._key = track_key
        self._label = label
        self._size = max(0, size)
        self._value = 0
        self._hovered: int | None = None
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setMouseTracking(True)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self._describe()

    # --- state ---------------------------------------------------------------------------------
    @property
    def track_key(self) -> str:
        """The rules' key of this track (e.g. ``physical``)."""
        return self._key

    def value(self) -> int:
        """Damage shown (may exceed the size: overflow)."""
        return self._value

    def size_boxes(self) -> int:
        """Boxes in the track proper."""
        return self._size

    def set_value(self, value: int) -> None:
        """Show ``value`` boxes of damage."""
        if value != self._value:
            self._value = max(0, value)
            self._describe()
            self.updateGeometry()
            self.update()

    def set_spec(self, label: str, size: int) -> None:
        """Change the label or the number of boxes (a game may resize a track when an attribute changes)."""
        self._label, self._size = label, max(0, size)
        self._describe()
        self.updateGeometry()
        self.update()

    def text(self) -> str:
        """'n of size', as the tooltip and screen readers say it."""
        overflow = self._value - self._size
        base = _("{label}: {value} of {size}").format(label=self._label, value=self._value, size=self._size)
        if overflow <= 0:
            return base
        extra = ngettext("{count} overflow box", "{count} overflow boxes", overflow).format(count=overflow)
        return f"{base} ({extra})"

    def _describe(self) -> None:
        self.setToolTip(self.text())
        self.setAccessibleName(self._label)
        self.setAccessibleDescription(self.text())

    # --- geometry ------------------------------------------------------------------------------
    def _overflow_shown(self) -> int:
        return min(max(0, self._value - self._size), MAX_OVERFLOW_BOXES)

    def _header_height(self) -> int:
        return self.fontMetrics().height() + 2

    def _boxes_area(self) -> QRectF:
        top = MARGIN + self._header_height()
        return QRectF(MARGIN, top, self.width() - 2 * MARGIN, BOX)

    def _boxes(self) -> list[QRectF]:
        return box_rects(self._boxes_area(), self._size, self._overflow_shown(), spacing=SPACING,
                         gap=OVERFLOW_GAP, square=True)

    def sizeHint(self) -> QSize:
        count = self._size + self._overflow_shown()
        width = count * (BOX + SPACING) + (OVERFLOW_GAP if self._overflow_shown() else 0) + 2 * MARGIN
        header = self.fontMetrics().horizontalAdvance(f"{self._label}   {self._value} / {self._size}")
        return QSize(max(width, header + 2 * MARGIN), self._header_height() + BOX + 2 * MARGIN)

    def minimumSizeHint(self) -> QSize:
        count = self._size + self._overflow_shown()
        width = count * (MIN_BOX + SPACING) + (OVERFLOW_GAP if self._overflow_shown() else 0) + 2 * MARGIN
        return QSize(width, self._header_height() + BOX + 2 * MARGIN)

    def box_at(self, point: QPointF) -> int | None:
        """1-based number of the box under ``point`` (overflow boxes continue past ``size``), or None."""
        for index, box in enumerate(self._boxes()):
            if box.adjusted(-SPACING / 2, -MARGIN, SPACING / 2, MARGIN).contains(point):
                return index + 1
        return None

    def box_rect(self, number: int) -> QRect:
        """Where box ``number`` (1-based) is drawn, for tests and accessibility."""
        return self._boxes()[number - 1].toAlignedRect()

    # --- painting ------------------------------------------------------------------------------
    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        colors = TrackColors.from_palette(self.palette())
        self._paint_header(painter)
        boxes = self._boxes()
        paint_boxes(painter, boxes, min(self._value, self._size), self._size, colors)
        if self._hovered is not None and self._hovered <= len(boxes):
            painter.setPen(QPen(colors.highlight, 2))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRect(boxes[self._hovered - 1].adjusted(-1, -1, 1, 1))
        if self.hasFocus() and boxes:
            pen = QPen(colors.highlight, 1, Qt.PenStyle.DashLine)
            painter.setPen(pen)
            painter.drawRect(boxes[0].united(boxes[-1]).adjusted(-2, -2, 2, 2))
        painter.end()

    def _paint_header(self, painter: QPainter) -> None:
        painter.setPen(self.palette().color(QPalette.ColorRole.WindowText))
        header = QRect(MARGIN, MARGIN, self.width() - 2 * MARGIN, self._header_height())
        painter.drawText(header, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, self._label)
        painter.drawText(header, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                         f"{self._value} / {self._size}")

    # --- interaction ---------------------------------------------------------------------------
    def _request(self, value: int) -> None:
        value = max(0, min(value, self._size + MAX_OVERFLOW_BOXES))
        if value != self._value:
            self.damage_requested.emit(self._key, value)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        number = self.box_at(event.position())
        if event.button() != Qt.MouseButton.LeftButton or number is None:
            super().mousePressEvent(event)
            return
        # Clicking the last filled box again takes it off: the quickest way to heal one box.
        self._request(number - 1 if number == self._value else number)
        event.accept()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        hovered = self.box_at(event.position())
        if hovered != self._hovered:
            self._hovered = hovered
            self.update()
        super().mouseMoveEvent(event)

    def leaveEvent(self, event: QEvent) -> None:
        self._hovered = None
        self.update()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        steps = {Qt.Key.Key_Left: -1, Qt.Key.Key_Down: -1, Qt.Key.Key_Right: 1, Qt.Key.Key_Up: 1}
        key = Qt.Key(event.key())
        if key in steps:
            self._request(self._value + steps[key])
        elif key == Qt.Key.Key_Home:
            self._request(0)
        elif key == Qt.Key.Key_End:
            self._request(self._size)
        else:
            super().keyPressEvent(event)
            return
        event.accept()

    def focusInEvent(self, event: QFocusEvent) -> None:
        self.update()
        super().focusInEvent(event)

    def focusOutEvent(self, event: QFocusEvent) -> None:
        self.update()
        super().focusOutEvent(event)
