"""Condition tracks drawn small on paper: rows of boxes (SR3 monitors, the life pyramid's rows, Člověk's
tracks) or a bar (hit points), as vector drawings inside a QTextDocument.

The HTML carries a placeholder ``<img src="track:…">`` of the right size; :func:`install` swaps each one for
a text object that :class:`TrackDrawing` paints with lines and rectangles, so the boxes stay sharp on any
printer and at any zoom of the preview (an image would be resampled). Marked boxes are filled (Okabe–Ito
vermillion) *and* struck through, so they read on a black-and-white printout too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from PySide6.QtCore import QPointF, QRect, QRectF, QSizeF
from PySide6.QtGui import (
    QColor,
    QGuiApplication,
    QPainter,
    QPen,
    QPyTextObject,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextFormat,
)

from rules.report import TrackReading

FILLED: Final[QColor] = QColor("#D55E00")  # Okabe–Ito vermillion
OVERFLOW: Final[QColor] = QColor("#CC79A7")  # Okabe–Ito reddish purple
OUTLINE: Final[QColor] = QColor("#333333")
EMPTY: Final[QColor] = QColor("#ffffff")
BAR_REST: Final[QColor] = QColor("#e4e4e4")
MARK: Final[QColor] = QColor("#ffffff")

#: The summary draws a track as boxes up to this many, as a bar beyond (or for points).
SUMMARY_MAX_BOXES: Final[int] = 20
SUMMARY_BOX: Final[int] = 8
SUMMARY_BAR: Final[tuple[int, int]] = (70, 8)
#: The prep sheet draws boxes to tick by hand, this many to a row, up to PREP_MAX_BOXES in all.
PREP_BOX: Final[int] = 11
PREP_PER_ROW: Final[int] = 10
PREP_MAX_BOXES: Final[int] = 60
GAP: Final[int] = 2  # CSS px between boxes
CSS_DPI: Final[float] = 96.0

PREFIX: Final[str] = "track:"
OBJECT_TYPE: Final[int] = int(QTextFormat.ObjectTypes.UserObject) + 1
_SPEC: Final[int] = int(QTextFormat.Property.UserProperty) + 1


@dataclass(frozen=True)
class Drawing:
    """What to draw: ``size`` boxes (``per_row`` to a row, ``box`` CSS px each), or a bar when ``bar``."""

    marked: int
    size: int
    box: int = SUMMARY_BOX
    per_row: int = SUMMARY_MAX_BOXES
    bar: bool = False

    @property
    def shown_boxes(self) -> int:
        """Boxes drawn: the track, plus a row's worth of overflow at most."""
        return self.size + min(max(0, self.marked - self.size), self.per_row)

    def css_size(self) -> tuple[int, int]:
        """(width, height) in CSS pixels."""
        if self.bar:
            return SUMMARY_BAR[0] + 2, SUMMARY_BAR[1] + 2
        rows = max(1, -(-self.shown_boxes // self.per_row))
        columns = min(self.shown_boxes, self.per_row) or 1
        return columns * (self.box + GAP) + GAP, rows * (self.box + GAP) + GAP

    def key(self) -> str:
        """The placeholder's name, from which :meth:`parse` gets the drawing back."""
        return f"{PREFIX}{self.marked}/{self.size}/{self.box}/{self.per_row}/{int(self.bar)}"

    @classmethod
    def parse(cls, key: str) -> Drawing | None:
        """The drawing a placeholder names (None: not one of ours)."""
        if not key.startswith(PREFIX):
            return None
        marked, size, box, per_row, bar = (int(part) for part in key[len(PREFIX):].split("/"))
        return cls(marked, size, box, per_row, bool(bar))

    def tag(self) -> str:
        """The placeholder ``<img>`` of the drawing's size."""
        width, height = self.css_size()
        return f'<img src="{self.key()}" width="{width}" height="{height}">'


def summary_drawing(track: TrackReading) -> Drawing:
    """A track as it stands, compactly: boxes, or a bar for points and long tracks."""
    if track.kind == "boxes" and 0 < track.size <= SUMMARY_MAX_BOXES:
        return Drawing(track.marked, track.size)
    return Drawing(track.marked, track.size, bar=True)


def blank_drawing(track: TrackReading) -> Drawing | None:
    """Empty boxes to tick at the table, ten to a row; None when the track is too long to draw."""
    if not 0 < track.size <= PREP_MAX_BOXES:
        return None
    return Drawing(0, track.size, PREP_BOX, PREP_PER_ROW)


# --- painting ----------------------------------------------------------------------------------------


def _box(painter: QPainter, rect: QRectF, fill: QColor | None, cross: bool) -> None:
    painter.setPen(QPen(OUTLINE, 0.9))
    painter.setBrush(fill or EMPTY)
    painter.drawRect(rect)
    if fill is None:
        return
    painter.setPen(QPen(MARK, 1.0))
    painter.drawLine(rect.bottomLeft() + QPointF(1.2, -1.2), rect.topRight() + QPointF(-1.2, 1.2))
    if cross:
        painter.drawLine(rect.topLeft() + QPointF(1.2, 1.2), rect.bottomRight() + QPointF(-1.2, -1.2))


def paint_boxes(painter: QPainter, drawing: Drawing) -> None:
    """The boxes in CSS pixel units from (0, 0): marked ones filled, overflow ones crossed."""
    for index in range(drawing.shown_boxes):
        row, column = divmod(index, drawing.per_row)
        rect = QRectF(GAP + column * (drawing.box + GAP), GAP + row * (drawing.box + GAP), drawing.box, drawing.box)
        fill = OVERFLOW if index >= drawing.size else FILLED if index < drawing.marked else None
        _box(painter, rect, fill, index >= drawing.size)


def paint_bar(painter: QPainter, drawing: Drawing) -> None:
    """A bar filled in the proportion marked / size, in CSS pixel units from (0, 0)."""
    frame = QRectF(1, 1, *SUMMARY_BAR)
    painter.setPen(QPen(OUTLINE, 0.9))
    painter.setBrush(BAR_REST)
    painter.drawRect(frame)
    share = min(1.0, drawing.marked / drawing.size) if drawing.size > 0 else 0.0
    if share > 0:
        painter.setBrush(FILLED)
        painter.drawRect(QRectF(frame.left(), frame.top(), frame.width() * share, frame.height()))


class TrackDrawing(QPyTextObject):
    """Paints the track objects of a document (see :func:`install`)."""

    def intrinsicSize(self, document: QTextDocument, position: int, format: QTextFormat) -> QSizeF:
        width, height = _drawing(format).css_size()
        scale = _device_dpi(document) / CSS_DPI
        return QSizeF(width * scale, height * scale)

    def drawObject(self, painter: QPainter, rect: QRectF | QRect, document: QTextDocument, position: int,
                   format: QTextFormat) -> None:
        drawing = _drawing(format)
        width, height = drawing.css_size()
        area = QRectF(rect)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.translate(area.topLeft())
        painter.scale(area.width() / width, area.height() / height)
        (paint_bar if drawing.bar else paint_boxes)(painter, drawing)
        painter.restore()


def _drawing(format: QTextFormat) -> Drawing:
    return Drawing.parse(str(format.property(_SPEC))) or Drawing(0, 0)


def _device_dpi(document: QTextDocument) -> float:
    """The resolution the document is laid out for: its printer's, or the screen's."""
    device = document.documentLayout().paintDevice()
    if device is not None:
        return float(device.logicalDpiY())
    screen = QGuiApplication.primaryScreen()
    return screen.logicalDotsPerInchY() if screen is not None else CSS_DPI


def install(document: QTextDocument) -> None:
    """Swap every track placeholder of ``document`` for a track object, and paint those with vectors."""
    handler = TrackDrawing(document)  # the document owns it
    document.documentLayout().registerHandler(OBJECT_TYPE, handler)
    for start, key in reversed(_placeholders(document)):
        cursor = QTextCursor(document)
        cursor.setPosition(start)
        cursor.setPosition(start + 1, QTextCursor.MoveMode.KeepAnchor)
        drawn = QTextCharFormat()
        drawn.setObjectType(OBJECT_TYPE)
        drawn.setProperty(_SPEC, key)
        drawn.setVerticalAlignment(QTextCharFormat.VerticalAlignment.AlignMiddle)
        cursor.insertText("\ufffc", drawn)


def _placeholders(document: QTextDocument) -> list[tuple[int, str]]:
    """(position, key) of every track placeholder, in document order."""
    found = []
    block = document.begin()
    while block.isValid():
        fragments = block.begin()
        while not fragments.atEnd():
            fragment = fragments.fragment()
            image = fragment.charFormat().toImageFormat() if fragment.charFormat().isImageFormat() else None
            if image is not None and image.name().startswith(PREFIX):
                found += [(fragment.position() + offset, image.name()) for offset in range(fragment.length())]
            fragments += 1
        block = block.next()
    return found

