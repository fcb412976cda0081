"""Člověk's dice banks drawn as d10s: one row per bank, spent dice greyed until the end of the round.

The widget never spends anything itself: hovering the n-th die still in a bank marks the n dice a click would
spend, and a click (or Enter on the keyboard) asks for them with ``spend_requested(bank, count)``. The banks'
sizes and spent dice come from the document through :meth:`DiceBanksWidget.set_banks`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from PySide6.QtCore import QEvent, QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QFocusEvent,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPainterPath,
    QPaintEvent,
    QPalette,
    QPen,
    QPolygonF,
)
from PySide6.QtWidgets import QSizePolicy, QWidget

from app.i18n import _, ngettext

DIE_WIDTH: Final[float] = 22.0
DIE_HEIGHT: Final[float] = 25.0  # the shape's proportions; the size follows the room there is
MIN_DIE: Final[float] = 15.0
MAX_DIE: Final[float] = 30.0
SPACING: Final[float] = 4.0
ROW_GAP: Final[float] = 8.0
MARGIN: Final[float] = 4.0
LABEL_GAP: Final[float] = 10.0
#: At most this many dice of a bank are drawn (its label gives the exact count): a bank is twice an attribute, and
#: an attribute of thousands (a roster entry may have one) drew tens of thousands of dice on every repaint.
MAX_DRAWN_DICE: Final[int] = 100

#: Bank colours, contrast-checked against white (light theme) and #2b2d30 (dark theme) for graphics (≥ 3:1).
LIGHT_COLOURS: Final[dict[str, QColor]] = {"physical": QColor("#c62828"), "social": QColor("#1565c0"),
                                           "mental": QColor("#7b1fa2")}
DARK_COLOURS: Final[dict[str, QColor]] = {"physical": QColor("#ef5350"), "social": QColor("#64b5f6"),
                                          "mental": QColor("#ce93d8")}


@dataclass(frozen=True)
class BankView:
    """What one row shows: the bank's key, its title in the GM's language, its size and spent dice."""

    key: str
    title: str
    size: int
    spent: int
    word: str = ""  # the bank's name inside a sentence ("3 physical dice"); the title if not given

    @property
    def left(self) -> int:
        """Dice still in the bank."""
        return max(0, self.size - self.spent)

    @property
    def drawn(self) -> int:
        """Dice the row draws."""
        return min(max(0, self.size), MAX_DRAWN_DICE)


def d10_outline(box: QRectF) -> QPolygonF:
    """A d10 seen face on: a kite, wider at the upper shoulders."""
    x, y, w, h = box.x(), box.y(), box.width(), box.height()
    return QPolygonF([QPointF(x + w / 2, y), QPointF(x + w, y + h * 0.42), QPointF(x + w / 2, y + h),
                      QPointF(x, y + h * 0.42)])


def d10_facets(box: QRectF) -> QPainterPath:
    """The facet lines inside the kite: the front face and the edges running to the side and bottom corners."""
    x, y, w, h = box.x(), box.y(), box.width(), box.height()
    top, left, right = QPointF(x + w / 2, y), QPointF(x + w * 0.24, y + h * 0.55), QPointF(x + w * 0.76, y + h * 0.55)
    low = QPointF(x + w / 2, y + h * 0.68)
    path = QPainterPath(top)
    for point in (left, low, right, top):
        path.lineTo(point)
    for start, end in ((left, QPointF(x, y + h * 0.42)), (right, QPointF(x + w, y + h * 0.42)),
                       (low, QPointF(x + w / 2, y + h))):
        path.moveTo(start)
        path.lineTo(end)
    return path


def is_dark(palette: QPalette) -> bool:
    """Whether the palette's window is dark (the dark theme)."""
    return palette.color(QPalette.ColorRole.Window).lightness() < 128


class DiceBanksWidget(QWidget):
    """The three banks as rows of d10s; click the n-th die still in a bank to spend n dice."""

    spend_requested = Signal(str, int)  # (bank key, dice)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._banks: list[BankView] = []
        self._hovered: tuple[int, int] | None = None  # (row, dice) a click would spend
        self._cursor = (0, 1)  # keyboard: (row, dice)
        self._enabled_rows: set[str] = set()
        self._label_room: float | None = None  # the labels' width, measured once per change of banks or font
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setMouseTracking(True)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.setAccessibleName(_("Dice banks"))

    # --- state ---------------------------------------------------------------------------------
    def set_banks(self, banks: list[BankView]) -> None:
        """Show these banks (in order)."""
        if banks == self._banks:
            return
        rows_changed = len(banks) != len(self._banks) or any(
            old.size != new.size for old, new in zip(self._banks, banks, strict=False))
        self._banks = list(banks)
        self._label_room = None
        row, dice = self._cursor
        self._cursor = (min(row, max(0, len(banks) - 1)), dice)
        self._hovered = None
        self._describe()
        if rows_changed:
            self.updateGeometry()
        self.update()

    def banks(self) -> list[BankView]:
        """The banks shown."""
        return list(self._banks)

    def text(self) -> str:
        """The banks as the tooltip and screen readers say them."""
        return "\n".join(_("{bank}: {left} of {size} dice left").format(bank=view.title, left=view.left,
                                                                         size=view.size) for view in self._banks)

    def _describe(self) -> None:
        self.setToolTip(self.text() + "\n" + _("Click a die to spend it and those before it."))
        self.setAccessibleDescription(self.text())

    # --- geometry ------------------------------------------------------------------------------
    def _label_width(self) -> float:
        if self._label_room is None:
            metrics = self.fontMetrics()
            self._label_room = float(max((metrics.horizontalAdvance(self._label(view)) for view in self._banks),
                                         default=0))
        return self._label_room

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.FontChange:
            self._label_room = None
        super().changeEvent(event)

    @staticmethod
    def _label(view: BankView) -> str:
        return f"{view.title}  {view.left}/{view.size}"

    def _metrics(self, width: float) -> tuple[float, float, int]:
        """(die width, die height, dice per line) for a widget ``width`` wide.

        Dice grow up to MAX_DIE while the widest bank still fits on one line, and shrink to MIN_DIE before they
        wrap onto a second line.
        """
        area = width - 2 * MARGIN - self._label_width() - LABEL_GAP
        widest = max((view.drawn for view in self._banks), default=1) or 1
        die = min(MAX_DIE, max(MIN_DIE, (area + SPACING) / widest - SPACING))
        per_line = max(1, int((area + SPACING) // (die + SPACING)))
        return die, die * DIE_HEIGHT / DIE_WIDTH, per_line

    def _row_top(self, row: int, width: float) -> float:
        _die, height, per_line = self._metrics(width)
        return MARGIN + sum(max(1, -(-view.drawn // per_line)) * (height + SPACING) - SPACING + ROW_GAP
                            for view in self._banks[:row])

    def die_rect(self, row: int, index: int) -> QRectF:
        """Where die ``index`` (0-based, dice still in the bank first) of bank ``row`` is drawn."""
        width, height, per_line = self._metrics(self.width())
        line, column = divmod(index, per_line)
        left = MARGIN + self._label_width() + LABEL_GAP
        return QRectF(left + column * (width + SPACING), self._row_top(row, self.width()) + line * (height + SPACING),
                      width, height)

    def sizeHint(self) -> QSize:
        widest = max((view.drawn for view in self._banks), default=0)
        width = 2 * MARGIN + self._label_width() + LABEL_GAP + widest * (DIE_WIDTH + SPACING)
        return QSize(int(width), self.heightForWidth(int(width)))

    def minimumSizeHint(self) -> QSize:
        narrow = 2 * MARGIN + self._label_width() + LABEL_GAP + 4 * (MIN_DIE + SPACING)
        return QSize(int(narrow), self.heightForWidth(int(narrow)))

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        _die, height, per_line = self._metrics(width)
        lines = sum(max(1, -(-view.drawn // per_line)) for view in self._banks) or 1
        gaps = max(0, len(self._banks) - 1)
        return int(2 * MARGIN + lines * (height + SPACING) - SPACING + gaps * ROW_GAP + 1)

    def die_at(self, point: QPointF) -> tuple[int, int] | None:
        """(row, 0-based die) under ``point``, or None."""
        for row, view in enumerate(self._banks):
            for index in range(view.drawn):
                if self.die_rect(row, index).adjusted(-SPACING / 2, -SPACING / 2, SPACING / 2,
                                                      SPACING / 2).contains(point):
                    return row, index
        return None

    # --- painting ------------------------------------------------------------------------------
    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        for row, view in enumerate(self._banks):
            self._paint_label(painter, row, view)
            marked = self._marked(row)
            for index in range(view.drawn):
                self._paint_die(painter, self.die_rect(row, index), view.key, index < view.left, index < marked)
        painter.end()

    def _marked(self, row: int) -> int:
        """How many dice of this row a click (or Enter) would spend now."""
        if self._hovered is not None and self._hovered[0] == row:
            return self._hovered[1]
        if self.hasFocus() and self._cursor[0] == row and self._banks:
            return min(self._cursor[1], self._banks[row].left)
        return 0

    def _paint_label(self, painter: QPainter, row: int, view: BankView) -> None:
        palette = self.palette()
        role = QPalette.ColorRole.WindowText if view.left else QPalette.ColorRole.PlaceholderText
        painter.setPen(palette.color(role))
        _die, height, _per_line = self._metrics(self.width())
        rect = QRectF(MARGIN, self._row_top(row, self.width()), self._label_width() + 1, height)
        painter.drawText(rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, self._label(view))

    def _paint_die(self, painter: QPainter, box: QRectF, key: str, available: bool, marked: bool) -> None:
        palette = self.palette()
        colours = DARK_COLOURS if is_dark(palette) else LIGHT_COLOURS
        colour = colours.get(key, palette.color(QPalette.ColorRole.Highlight))
        outline = d10_outline(box.adjusted(1, 1, -1, -1))
        if available:
            painter.setPen(QPen(colour.darker(140) if not is_dark(palette) else colour.lighter(130), 1.2))
            painter.setBrush(colour)
            painter.drawPolygon(outline)
            facet = QColor("#ffffff") if not is_dark(palette) else QColor("#1f2023")
            facet.setAlpha(170)
            painter.setPen(QPen(facet, 1))
        else:  # spent: an empty, dashed silhouette until the end of the round
            grey = palette.color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)
            painter.setPen(QPen(grey, 1, Qt.PenStyle.DashLine))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawPolygon(outline)
            painter.setPen(QPen(grey, 0.8))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPath(d10_facets(box.adjusted(1, 1, -1, -1)))
        if marked:
            painter.setPen(QPen(palette.color(QPalette.ColorRole.Highlight), 2.5))
            painter.drawPolygon(d10_outline(box.adjusted(-1.5, -1.5, 1.5, 1.5)))

    # --- interaction ---------------------------------------------------------------------------
    def _spendable(self, hit: tuple[int, int] | None) -> tuple[int, int] | None:
        """(row, dice to spend) for a die under the mouse: only dice still in the bank can be spent."""
        if hit is None or not self.isEnabled():
            return None
        row, index = hit
        return (row, index + 1) if index < self._banks[row].left else None

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        hovered = self._spendable(self.die_at(event.position()))
        if hovered != self._hovered:
            self._hovered = hovered
            self.setCursor(Qt.CursorShape.PointingHandCursor if hovered else Qt.CursorShape.ArrowCursor)
            if hovered is not None:
                view = self._banks[hovered[0]]
                self.setToolTip(ngettext("Spend {count} {bank} die", "Spend {count} {bank} dice", hovered[1]).format(
                    count=hovered[1], bank=view.word or view.title))
            else:
                self._describe()
            self.update()
        super().mouseMoveEvent(event)

    def leaveEvent(self, event: QEvent) -> None:
        self._hovered = None
        self._describe()
        self.update()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        chosen = self._spendable(self.die_at(event.position()))
        if event.button() != Qt.MouseButton.LeftButton or chosen is None:
            super().mousePressEvent(event)
            return
        self.spend_requested.emit(self._banks[chosen[0]].key, chosen[1])
        event.accept()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Up/Down choose the bank, Left/Right how many dice, Enter or Space spends them."""
        if not self._banks:
            super().keyPressEvent(event)
            return
        row, dice = self._cursor
        key = Qt.Key(event.key())
        moves = {Qt.Key.Key_Up: (-1, 0), Qt.Key.Key_Down: (1, 0), Qt.Key.Key_Left: (0, -1), Qt.Key.Key_Right: (0, 1)}
        if key in moves:
            step_row, step_dice = moves[key]
            row = min(max(0, row + step_row), len(self._banks) - 1)
            dice = min(max(1, dice + step_dice), max(1, self._banks[row].left))
            self._cursor = (row, dice)
            self.update()
        elif key in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space) and self._banks[row].left:
            self.spend_requested.emit(self._banks[row].key, min(dice, self._banks[row].left))
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
