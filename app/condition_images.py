"""Condition tracks drawn small for paper: rows of boxes (SR3 monitors, the life pyramid's rows, Člověk's
tracks) or a bar (hit points), as images a QTextDocument embeds.

Drawn at several image pixels per CSS pixel so they stay sharp at printer resolution. Marked boxes are
filled (Okabe–Ito vermillion) *and* struck through, so they read on a black-and-white printout too.
"""

from __future__ import annotations

from typing import Final

from PySide6.QtCore import QPointF, QRectF, QUrl
from PySide6.QtGui import QColor, QImage, QPainter, QPen, QTextDocument

from rules.report import TrackReading

#: Image pixels per CSS pixel of the document.
SCALE: Final[int] = 4
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


def _painter(image: QImage) -> QPainter:
    image.fill(QColor(0, 0, 0, 0))
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.scale(SCALE, SCALE)
    return painter


def _box(painter: QPainter, rect: QRectF, fill: QColor | None, cross: bool) -> None:
    painter.setPen(QPen(OUTLINE, 0.8))
    painter.setBrush(fill or EMPTY)
    painter.drawRect(rect)
    if fill is None:
        return
    painter.setPen(QPen(MARK, 1.0))
    painter.drawLine(rect.bottomLeft() + QPointF(1.2, -1.2), rect.topRight() + QPointF(-1.2, 1.2))
    if cross:
        painter.drawLine(rect.topLeft() + QPointF(1.2, 1.2), rect.bottomRight() + QPointF(-1.2, -1.2))


def boxes_size(count: int, box: int, per_row: int) -> tuple[int, int]:
    """(width, height) in CSS px of ``count`` boxes of ``box`` px, ``per_row`` to a row."""
    rows = max(1, -(-count // per_row))
    columns = min(count, per_row) or 1
    return columns * (box + GAP) + GAP, rows * (box + GAP) + GAP


def boxes_image(marked: int, size: int, box: int, per_row: int) -> QImage:
    """``size`` boxes, the first ``marked`` filled; marks beyond ``size`` (overflow) get extra crossed boxes."""
    overflow = max(0, marked - size)
    count = size + min(overflow, per_row)
    width, height = boxes_size(count, box, per_row)
    image = QImage(width * SCALE, height * SCALE, QImage.Format.Format_ARGB32_Premultiplied)
    painter = _painter(image)
    for index in range(count):
        row, column = divmod(index, per_row)
        rect = QRectF(GAP + column * (box + GAP), GAP + row * (box + GAP), box, box)
        fill = OVERFLOW if index >= size else FILLED if index < marked else None
        _box(painter, rect, fill, index >= size)
    painter.end()
    return image


def bar_image(marked: int, size: int, width: int, height: int) -> QImage:
    """A bar ``width`` × ``height`` px filled in the proportion ``marked`` / ``size``."""
    image = QImage((width + 2) * SCALE, (height + 2) * SCALE, QImage.Format.Format_ARGB32_Premultiplied)
    painter = _painter(image)
    frame = QRectF(1, 1, width, height)
    painter.setPen(QPen(OUTLINE, 0.8))
    painter.setBrush(BAR_REST)
    painter.drawRect(frame)
    share = min(1.0, marked / size) if size > 0 else 0.0
    if share > 0:
        painter.setBrush(FILLED)
        painter.drawRect(QRectF(frame.left(), frame.top(), frame.width() * share, frame.height()))
    painter.end()
    return image


class TrackImages:
    """Collects each distinct drawing once and returns the ``<img>`` tag that shows it.

    A document forgets its resources when its HTML is set, so :meth:`attach` adds them afterwards.
    """

    def __init__(self) -> None:
        self._images: dict[str, QImage] = {}

    def tag(self, name: str, image: QImage, width: int | None = None) -> str:
        """The ``<img>`` tag for ``image`` under ``name``, ``width`` CSS px wide (its own size by default)."""
        self._images.setdefault(name, image)
        shown = width or image.width() // SCALE
        height = round(image.height() * shown / image.width()) if image.width() else 0
        return f'<img src="{name}" width="{shown}" height="{height}" align="middle">'

    def attach(self, document: QTextDocument) -> None:
        """Give ``document`` every image a tag refers to (call after ``setHtml``)."""
        for name, image in self._images.items():
            document.addResource(QTextDocument.ResourceType.ImageResource, QUrl(name), image)

    def summary(self, track: TrackReading) -> str:
        """A compact drawing of the track as it stands: boxes, or a bar for points and long tracks."""
        if track.kind == "boxes" and 0 < track.size <= SUMMARY_MAX_BOXES:
            name = f"track:boxes/{track.marked}/{track.size}"
            return self.tag(name, boxes_image(track.marked, track.size, SUMMARY_BOX, SUMMARY_MAX_BOXES))
        name = f"track:bar/{track.marked}/{track.size}"
        return self.tag(name, bar_image(track.marked, track.size, *SUMMARY_BAR))

    def blank(self, track: TrackReading) -> str | None:
        """Empty boxes to tick at the table, ten to a row; None when the track is too long to draw."""
        if not 0 < track.size <= PREP_MAX_BOXES:
            return None
        return self.tag(f"track:blank/{track.size}", boxes_image(0, track.size, PREP_BOX, PREP_PER_ROW))
