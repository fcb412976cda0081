"""Icons for a combatant who is out of the fight: unconscious (“z Z”), dying (a broken heart), dead (a skull).

Drawn with QPainter paths rather than shipped as images, so they are sharp at any size and take the theme's
text colour (light and dark themes, a selected row's highlighted text). Each status has its own *shape*, and
the window always writes the status word beside the icon: nothing is told by colour alone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QGuiApplication, QIcon, QPainter, QPainterPath, QPalette, QPen, QPixmap

from rules.encounter import Status
from ui.widgets.condition_track import FILLED_RED, MARK_WHITE

#: Icon side in pixels for table rows and lists (the painters scale to any square).
ICON_SIZE: Final[int] = 16

Painter = Callable[[QPainter, QRectF, QColor], None]


def _zz(painter: QPainter, box: QRectF, ink: QColor) -> None:
    """Unconscious: a small z and a big Z, rising to the right, as comics draw sleep."""
    width = max(1.2, box.width() / 9)
    painter.setPen(QPen(ink, width, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap, Qt.PenJoinStyle.RoundJoin))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    for left, top, side in ((0.06, 0.58, 0.32), (0.5, 0.08, 0.44)):
        x, y, s = box.left() + left * box.width(), box.top() + top * box.height(), side * box.width()
        path = QPainterPath(QPointF(x, y))
        path.lineTo(x + s, y)
        path.lineTo(x, y + s)
        path.lineTo(x + s, y + s)
        painter.drawPath(path)


def _heart(box: QRectF) -> QPainterPath:
    x, y, w, h = box.left(), box.top(), box.width(), box.height()
    path = QPainterPath(QPointF(x + w / 2, y + h * 0.92))
    path.cubicTo(x - w * 0.1, y + h * 0.5, x + w * 0.05, y + h * 0.02, x + w / 2, y + h * 0.28)
    path.cubicTo(x + w * 0.95, y + h * 0.02, x + w * 1.1, y + h * 0.5, x + w / 2, y + h * 0.92)
    return path


def _broken_heart(painter: QPainter, box: QRectF, ink: QColor) -> None:
    """Dying: a red heart outlined in the text colour, split by a white zigzag crack."""
    inner = box.adjusted(box.width() * 0.04, box.height() * 0.06, -box.width() * 0.04, -box.height() * 0.02)
    painter.setPen(QPen(ink, max(1.0, box.width() / 14)))
    painter.setBrush(FILLED_RED)
    painter.drawPath(_heart(inner))
    x, y, w, h = inner.left(), inner.top(), inner.width(), inner.height()
    crack = QPainterPath(QPointF(x + w * 0.5, y + h * 0.3))
    for dx, dy in ((0.4, 0.48), (0.58, 0.6), (0.44, 0.74), (0.5, 0.88)):
        crack.lineTo(x + w * dx, y + h * dy)
    painter.setPen(QPen(MARK_WHITE, max(1.0, box.width() / 12), Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap,
                        Qt.PenJoinStyle.MiterJoin))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawPath(crack)


def _skull(painter: QPainter, box: QRectF, ink: QColor) -> None:
    """Dead: a skull in the text colour, its eyes and nose cut out (they show the background)."""
    x, y, w, h = box.left(), box.top(), box.width(), box.height()
    skull = QPainterPath()
    skull.setFillRule(Qt.FillRule.OddEvenFill)
    skull.addEllipse(QRectF(x + w * 0.1, y + h * 0.04, w * 0.8, h * 0.7))
    skull.addRoundedRect(QRectF(x + w * 0.28, y + h * 0.56, w * 0.44, h * 0.38), w * 0.06, w * 0.06)
    skull = skull.simplified()  # one outline: the jaw merged into the cranium
    skull.setFillRule(Qt.FillRule.OddEvenFill)
    skull.addEllipse(QRectF(x + w * 0.24, y + h * 0.32, w * 0.2, h * 0.2))
    skull.addEllipse(QRectF(x + w * 0.56, y + h * 0.32, w * 0.2, h * 0.2))
    nose = QPainterPath(QPointF(x + w * 0.5, y + h * 0.56))
    nose.lineTo(x + w * 0.43, y + h * 0.68)
    nose.lineTo(x + w * 0.57, y + h * 0.68)
    nose.closeSubpath()
    skull.addPath(nose)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(ink)
    painter.drawPath(skull)


PAINTERS: Final[dict[Status, Painter]] = {Status.UNCONSCIOUS: _zz, Status.DYING: _broken_heart, Status.DEAD: _skull}


def paint_status_icon(painter: QPainter, rect: QRectF, status: Status, ink: QColor) -> bool:
    """Draw ``status``'s icon in the largest square centred in ``rect``, in ``ink``; False (nothing drawn) for
    an active combatant."""
    draw = PAINTERS.get(status)
    if draw is None:
        return False
    side = min(rect.width(), rect.height())
    square = QRectF(rect.center().x() - side / 2, rect.center().y() - side / 2, side, side)
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
    draw(painter, square, ink)
    painter.restore()
    return True


def _pixmap(status: Status, ink: QColor, size: int, ratio: float) -> QPixmap:
    pixmap = QPixmap(QSize(round(size * ratio), round(size * ratio)))
    pixmap.setDevicePixelRatio(ratio)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    paint_status_icon(painter, QRectF(0, 0, size, size), status, ink)
    painter.end()
    return pixmap


def status_icon(status: Status, palette: QPalette | None = None, size: int = ICON_SIZE) -> QIcon | None:
    """``status``'s icon (None when active), inked with the palette's text colour, and its highlighted text colour
    when the row is selected."""
    if status not in PAINTERS or QGuiApplication.instance() is None:  # pixmaps need a GUI application
        return None
    palette = palette or QGuiApplication.palette()
    screen = QGuiApplication.primaryScreen()
    ratio = max(1.0, screen.devicePixelRatio()) if screen is not None else 1.0
    icon = QIcon()
    for mode, role in ((QIcon.Mode.Normal, QPalette.ColorRole.Text),
                       (QIcon.Mode.Selected, QPalette.ColorRole.HighlightedText),
                       (QIcon.Mode.Active, QPalette.ColorRole.Text)):
        icon.addPixmap(_pixmap(status, palette.color(QPalette.ColorGroup.Active, role), size, ratio), mode)
    return icon
