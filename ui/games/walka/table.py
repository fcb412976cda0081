"""Walka's table drawn from above: the GM at the bottom, the players' seats clockwise from the GM's left.

Each seat shows its place in this round's order, its d12 (on a pentagon, the face of a d12) and whom it acts
for; the seat acting now is filled, the starting seat has a strong border, the GM's a dashed one, and an
arrow shows which way play goes. It only draws :class:`~ui.games.walka.seating.SeatRow` values.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, QSize, QSizeF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPainterPath, QPaintEvent, QPalette, QPen, QPolygonF
from PySide6.QtWidgets import QSizePolicy, QWidget

from app.i18n import _
from ui.games.walka.seating import SeatRow, turn_text


class TableDiagram(QWidget):
    """The table seen from above: the GM at the bottom, the seats clockwise from the GM's left, each with its
    d12 and its turn this round; the seat acting now highlighted, the starting seat marked, an arrow showing
    which way play goes."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._rows: list[SeatRow] = []
        self._caption = ""
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setAccessibleName(_("Seating order around the table"))

    def set_rows(self, rows: list[SeatRow], caption: str) -> None:
        """Draw these seats, with ``caption`` in the middle of the table."""
        if rows == self._rows and caption == self._caption:
            return
        resized = len(rows) != len(self._rows)
        self._rows, self._caption = rows, caption
        self.setToolTip(self.describe())
        if resized:
            self.updateGeometry()  # more seats need a taller table
        self.update()

    def describe(self) -> str:
        """The drawing in words (tooltip, accessibility, tests): "Ania (7, now) → Bartek (4, 3.) → …"."""
        parts = []
        for row in self._rows:
            roll = "–" if row.roll is None else str(row.roll)
            turn = turn_text(row)
            parts.append(_("{seat} ({roll}, {turn})").format(seat=row.label, roll=roll, turn=turn) if turn
                         else _("{seat} ({roll})").format(seat=row.label, roll=roll))
        return " → ".join(parts)

    def sizeHint(self) -> QSize:
        return QSize(340, self.heightForWidth(340))

    def minimumSizeHint(self) -> QSize:
        return QSize(240, 220)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        extra = 26 * max(0, len(self._rows) - 5)  # beyond five seats, room for the plates down the sides
        return max(220, min(320, int(width * 0.72)) + min(extra, 160))

    # --- geometry ---------------------------------------------------------------------------
    def _plate_size(self) -> QSizeF:
        metrics = QFontMetrics(self._bold())
        count = max(1, len(self._rows))
        # Narrower plates for a fuller table, so that neighbours at the top and bottom do not overlap.
        share = 2.2 if count <= 4 else 3.0 if count <= 6 else 3.6
        width = min(118.0, max(64.0, self.width() / share))
        return QSizeF(width, metrics.height() * 2 + 12)

    def _ellipse(self) -> tuple[QPointF, float, float]:
        """Centre and radii of the ellipse the seat centres sit on."""
        plate = self._plate_size()
        rx = max(10.0, self.width() / 2 - plate.width() / 2 - 4)
        ry = max(10.0, self.height() / 2 - plate.height() / 2 - 4)
        return QPointF(self.width() / 2, self.height() / 2), rx, ry

    def _centres(self) -> list[QPointF]:
        """Seat centres on an ellipse: the GM (last row) at the bottom, the others clockwise from its left."""
        centre, rx, ry = self._ellipse()
        count = len(self._rows)
        points = []
        for number in range(count):
            steps = (number + 1) % count if count else 0  # the GM (last) sits at step 0: the bottom
            angle = math.radians(90 + 360 * steps / count)
            points.append(QPointF(centre.x() + rx * math.cos(angle), centre.y() + ry * math.sin(angle)))
        return points

    def _caption_rect(self) -> QRectF:
        """The middle of the table, clear of the plates at its left and right."""
        centre, rx, ry = self._ellipse()
        half = rx - self._plate_size().width() / 2 - 6
        return QRectF(centre.x() - half, centre.y() - ry * 0.45, 2 * half, ry * 0.9)

    # --- painting ---------------------------------------------------------------------------
    def _bold(self) -> QFont:
        font = QFont(self.font())
        font.setBold(True)
        return font

    def paintEvent(self, event: QPaintEvent) -> None:
        """Table, direction arrow, caption, then one plate per seat."""
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        self._paint_table(painter)
        for row, centre in zip(self._rows, self._centres(), strict=True):
            self._paint_plate(painter, row, centre)
        painter.end()

    def _table_rect(self) -> QRectF:
        plate = self._plate_size()
        return QRectF(plate.width() * 0.55, plate.height() * 0.9, self.width() - plate.width() * 1.1,
                      self.height() - plate.height() * 1.8)

    def _paint_table(self, painter: QPainter) -> None:
        palette = self.palette()
        rect = self._table_rect()
        wood = QColor(palette.color(QPalette.ColorRole.Mid))
        wood.setAlpha(70)
        painter.setPen(QPen(palette.color(QPalette.ColorRole.Mid), 1.5))
        painter.setBrush(wood)
        painter.drawEllipse(rect)
        self._paint_arrow(painter, rect.adjusted(rect.width() * 0.2, rect.height() * 0.16, -rect.width() * 0.2,
                                                 -rect.height() * 0.16))
        painter.setPen(palette.color(QPalette.ColorRole.WindowText))
        painter.setFont(self.font())
        inner = self._caption_rect()
        if inner.width() > 40:  # too narrow to read: the tooltip still says it
            painter.drawText(inner, int(Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap), self._caption)

    def _paint_arrow(self, painter: QPainter, rect: QRectF) -> None:
        """A clockwise arc (as seen from above, the way play goes) with an arrowhead."""
        colour = QColor(self.palette().color(QPalette.ColorRole.Highlight))
        painter.setPen(QPen(colour, 2.5, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        path = QPainterPath()
        path.arcMoveTo(rect, 160)
        path.arcTo(rect, 160, -140)  # Qt's angles run counter-clockwise: a negative sweep is clockwise
        painter.drawPath(path)
        end = path.currentPosition()
        tangent = path.angleAtPercent(1.0)
        head = QPolygonF([QPointF(0, 0), QPointF(-9, -4.5), QPointF(-9, 4.5)])
        painter.save()
        painter.translate(end)
        painter.rotate(-tangent)
        painter.setBrush(colour)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.drawPolygon(head)
        painter.restore()

    def _paint_plate(self, painter: QPainter, row: SeatRow, centre: QPointF) -> None:
        palette = self.palette()
        size = self._plate_size()
        rect = QRectF(centre.x() - size.width() / 2, centre.y() - size.height() / 2, size.width(), size.height())
        fill = QColor(palette.color(QPalette.ColorRole.Highlight if row.current else QPalette.ColorRole.Base))
        text = palette.color(QPalette.ColorRole.HighlightedText if row.current else QPalette.ColorRole.Text)
        if row.acted and not row.current:
            text = palette.color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)
        border = QPen(palette.color(QPalette.ColorRole.Highlight) if row.start else palette.color(
            QPalette.ColorRole.Mid), 2.5 if row.start else 1.0)
        if row.is_gm:
            border.setStyle(Qt.PenStyle.DashLine)
        painter.setPen(border)
        painter.setBrush(fill)
        painter.drawRoundedRect(rect, 7, 7)
        self._paint_plate_text(painter, row, rect, text)

    def _paint_plate_text(self, painter: QPainter, row: SeatRow, rect: QRectF, colour: QColor) -> None:
        bold = self._bold()
        metrics = QFontMetrics(bold)
        badge = self._paint_badge(painter, row, rect, metrics)
        top = QRectF(rect.left() + 6, rect.top() + 4, badge.left() - rect.left() - 9, metrics.height())
        painter.setPen(colour)
        painter.setFont(bold)
        title = _("{number}. {seat}").format(number=row.turn, seat=row.label) if row.turn is not None else row.label
        painter.drawText(top, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                         metrics.elidedText(title, Qt.TextElideMode.ElideRight, int(top.width())))
        small = QFont(self.font())
        small.setPointSizeF(max(6.5, small.pointSizeF() * 0.85))
        painter.setFont(small)
        names = ", ".join(member.name for member in row.members) or _("nobody")
        bottom = QRectF(rect.left() + 6, top.bottom() + 2, rect.width() - 12, rect.bottom() - top.bottom() - 4)
        painter.drawText(bottom, int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                         QFontMetrics(small).elidedText(names, Qt.TextElideMode.ElideRight, int(bottom.width())))

    def _paint_badge(self, painter: QPainter, row: SeatRow, rect: QRectF, metrics: QFontMetrics) -> QRectF:
        """The seat's d12 in a small die-like badge at the plate's top right ("–" before rolling)."""
        text = "–" if row.roll is None else str(row.roll)
        side = max(metrics.height() + 2, metrics.horizontalAdvance("12") + 8)
        badge = QRectF(rect.right() - side - 4, rect.top() + 3, side, side)
        palette = self.palette()
        ink = palette.color(QPalette.ColorRole.Text)
        painter.setPen(QPen(palette.color(QPalette.ColorRole.Highlight) if row.start else ink, 1.2))
        painter.setBrush(palette.color(QPalette.ColorRole.Base))
        centre, radius = badge.center(), side / 2
        corners = [QPointF(centre.x() + radius * math.cos(math.radians(-90 + 72 * k)),
                           centre.y() + radius * math.sin(math.radians(-90 + 72 * k))) for k in range(5)]
        painter.drawPolygon(QPolygonF(corners))  # a pentagon: the face of a d12
        painter.setPen(ink)
        painter.setFont(self._bold())
        painter.drawText(badge.adjusted(0, 1, 0, 1), int(Qt.AlignmentFlag.AlignCenter), text)
        return badge
