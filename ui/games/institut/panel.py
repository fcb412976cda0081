"""Institute's parts of the details panel: the life pyramid (drawn as one) and the round's declarations.

:class:`PyramidWidget` draws the classes (five by default, or the character's own) as a real pyramid, the
heaviest class (Mortal's single box) at the top and the lightest row at the bottom, each row centred, with the
class name and the damage that enters it on the left and the penalty dice on the right. A click on an empty box
adds a wound of that class (it takes the first free box, overflowing upwards as the rules say); a click on a
filled box heals one. Like every panel widget it only asks: the sections turn requests into operations and the
document decides.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Final

from PySide6.QtCore import QEvent, QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QFocusEvent,
    QFont,
    QFontMetrics,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPainterPath,
    QPaintEvent,
    QPalette,
    QPen,
)
from PySide6.QtWidgets import (
    QCheckBox,
    QFrame,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSizePolicy,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.i18n import _, ngettext
from rules.combatants import ApplyHarm
from rules.encounter import Combatant, Encounter, Status
from rules.systems.base import RuleSystem
from rules.systems.institut import rounds
from rules.systems.institut.ops import (
    DeclareActions,
    HoldAction,
    ResolveHeld,
    SetInstitutFlag,
    SetPyramid,
    SkipRound,
    may_declare_now,
)
from rules.systems.institut.pyramid import (
    CLASSES,
    MAX_BOXES,
    MAX_CLASSES,
    MAX_NAME,
    MAX_PENALTY,
    MAX_THRESHOLD,
    Pyramid,
)
from rules.systems.institut.system import in_points, pyramid_for, tables
from ui.games.base import Apply, SectionFactory
from ui.widgets.condition_track import MARK_WHITE, TrackColors
from ui.widgets.inputs import spin_box

BOX: Final[int] = 24
GAP: Final[int] = 5
ROW_GAP: Final[int] = 7
PAD: Final[int] = 8
OVERFLOW_GAP: Final[int] = 10
MAX_OVERFLOW: Final[int] = 6
#: Filled boxes by class, lightest first: amber to deep red, each ≥ 3:1 against white and against #202020 is not
#: possible for one colour, so every filled box also carries a white stroke and a dark outline (readable without
#: colour, and in both themes).
CLASS_COLOURS: Final[dict[str, QColor]] = {
    "light": QColor("#e0a100"),
    "medium": QColor("#e8710a"),
    "heavy": QColor("#e53935"),
    "critical": QColor("#b71c1c"),
    "mortal": QColor("#6a1b9a"),
}


@dataclass(frozen=True)
class PyramidRow:
    """One class as drawn: its boxes, how many are filled, what enters it and what it costs."""

    key: str
    label: str
    range_text: str
    boxes: int
    filled: int
    penalty: int
    colour: QColor
    heaviest: bool  # a wound here means dying


def escaped(text: str) -> str:
    """``text`` as a tooltip shows it: a class name the GM typed is shown as typed, never read as markup."""
    return "<p style='white-space:pre'>{}</p>".format(html.escape(text).replace("\n", "<br>"))


def class_colour(pyramid: Pyramid, key: str) -> QColor:
    """A default class's own colour; a class the GM added takes the colour of its place, light to mortal."""
    if key in CLASS_COLOURS and pyramid.keys == CLASSES:
        return CLASS_COLOURS[key]
    shades = list(CLASS_COLOURS.values())
    count, position = len(pyramid.classes), pyramid.position(key)
    return shades[round(position * (len(shades) - 1) / (count - 1))] if count > 1 else shades[-1]


def pyramid_rows(pyramid: Pyramid, combatant: Combatant) -> list[PyramidRow]:
    """The rows to draw for ``combatant`` (lightest first, translated labels)."""
    return [PyramidRow(wound.key, _(wound.label), pyramid.range_text(wound.key), wound.boxes,
                       combatant.boxes(wound.key), wound.penalty, class_colour(pyramid, wound.key),
                       wound.key == pyramid.heaviest) for wound in pyramid.classes]


class PyramidWidget(QWidget):
    """The life pyramid: rows centred, the heaviest (narrowest) on top; clickable and keyboard accessible."""

    wound_requested = Signal(str, int)  # (class key, +1 to add a wound of that class, −1 to heal one)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._rows: list[PyramidRow] = []
        self._hovered: tuple[str, int] | None = None
        self._cursor: tuple[str, int] = ("", 0)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setMouseTracking(True)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setAccessibleName(_("Life pyramid"))

    # --- state ---------------------------------------------------------------------------------
    def set_rows(self, rows: list[PyramidRow]) -> None:
        """Show these rows (lightest first, as the rules list them)."""
        if rows == self._rows:
            return
        resized = [(r.key, r.boxes, r.filled > r.boxes) for r in rows] != [
            (r.key, r.boxes, r.filled > r.boxes) for r in self._rows]
        self._rows = rows
        key, index = self._cursor
        row = self._row(key)
        if row is None or index >= row.boxes:
            self._cursor = (rows[0].key, 0) if rows else ("", 0)
        self.setAccessibleDescription(self.text())
        self.setToolTip(escaped(self.text()))
        if resized:
            self.updateGeometry()
        self.update()

    def rows(self) -> list[PyramidRow]:
        """The rows shown, lightest first."""
        return list(self._rows)

    def text(self) -> str:
        """Each row as a screen reader says it: "Light (5–9): 2 of 4"."""
        return "\n".join(_("{wound} ({range}): {filled} of {boxes}").format(
            wound=row.label, range=row.range_text, filled=row.filled, boxes=row.boxes) for row in self._rows)

    def _row(self, key: str) -> PyramidRow | None:
        return next((row for row in self._rows if row.key == key), None)

    # --- geometry ------------------------------------------------------------------------------
    def _small_font(self) -> QFont:
        font = QFont(self.font())
        font.setPointSizeF(max(6.0, font.pointSizeF() * 0.85))
        return font

    def _label_width(self) -> int:
        bold = QFont(self.font())
        bold.setBold(True)
        names = QFontMetrics(bold)
        small = QFontMetrics(self._small_font())
        return max((max(names.horizontalAdvance(row.label), small.horizontalAdvance(row.range_text))
                    for row in self._rows), default=40)

    def _penalty_width(self) -> int:
        return self.fontMetrics().horizontalAdvance(_("−{count} dice").format(count=MAX_PENALTY)) + 2

    def _widest(self) -> int:
        return max((row.boxes + min(max(0, row.filled - row.boxes), MAX_OVERFLOW) for row in self._rows),
                   default=1)

    def _row_height(self) -> int:
        return max(BOX, self.fontMetrics().height() * 2 - 2)

    def sizeHint(self) -> QSize:
        boxes = self._widest() * (BOX + GAP) + OVERFLOW_GAP + 2 * PAD
        return QSize(self._label_width() + self._penalty_width() + boxes + 4 * PAD,
                     len(self._rows) * (self._row_height() + ROW_GAP) + 2 * PAD)

    def minimumSizeHint(self) -> QSize:
        hint = self.sizeHint()
        return QSize(self._label_width() + self._penalty_width() + self._widest() * (BOX // 2 + 2) + 4 * PAD,
                     hint.height())

    def _box_size(self) -> int:
        room = self.width() - self._label_width() - self._penalty_width() - 4 * PAD - OVERFLOW_GAP
        return max(BOX // 2, min(BOX, room // max(1, self._widest()) - GAP))

    def _row_top(self, position: int) -> int:
        """Top of the ``position``-th row drawn (0 = the top of the pyramid)."""
        return PAD + position * (self._row_height() + ROW_GAP)

    def _drawn(self) -> list[PyramidRow]:
        """Rows in drawing order: the heaviest class on top."""
        return list(reversed(self._rows))

    def _centre_x(self) -> float:
        left = PAD + self._label_width() + PAD
        right = self.width() - PAD - self._penalty_width() - PAD
        return (left + right) / 2

    def box_rects(self, key: str) -> list[QRectF]:
        """Where the boxes of a class are drawn (its own boxes, then any overflow after a gap)."""
        for position, row in enumerate(self._drawn()):
            if row.key == key:
                return self._rects(position, row)
        return []

    def _rects(self, position: int, row: PyramidRow) -> list[QRectF]:
        size = self._box_size()
        overflow = min(max(0, row.filled - row.boxes), MAX_OVERFLOW)
        width = row.boxes * (size + GAP) - GAP
        top = self._row_top(position) + (self._row_height() - size) / 2
        left = self._centre_x() - width / 2
        rects = [QRectF(left + index * (size + GAP), top, size, size) for index in range(row.boxes)]
        start = left + width + OVERFLOW_GAP
        rects += [QRectF(start + index * (size + GAP), top, size, size) for index in range(overflow)]
        return rects

    def box_at(self, point: QPointF) -> tuple[str, int] | None:
        """(class key, box index) under ``point``, or None."""
        for position, row in enumerate(self._drawn()):
            for index, rect in enumerate(self._rects(position, row)):
                if rect.adjusted(-GAP / 2, -ROW_GAP / 2, GAP / 2, ROW_GAP / 2).contains(point):
                    return row.key, index
        return None

    # --- painting ------------------------------------------------------------------------------
    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        colors = TrackColors.from_palette(self.palette())
        self._paint_backdrop(painter)
        worst = next((row.key for row in self._drawn() if row.filled), None)
        for position, row in enumerate(self._drawn()):
            self._paint_labels(painter, position, row, row.key == worst)
            for index, rect in enumerate(self._rects(position, row)):
                self._paint_box(painter, rect, row, index, colors)
        painter.end()

    def _paint_backdrop(self, painter: QPainter) -> None:
        """A soft trapezoid behind the rows, so the shape reads as a pyramid at a glance."""
        drawn = self._drawn()
        if not drawn:
            return
        top, bottom = self._rects(0, drawn[0]), self._rects(len(drawn) - 1, drawn[-1])
        top_boxes, bottom_boxes = top[: drawn[0].boxes], bottom[: drawn[-1].boxes]
        apex = top_boxes[0].united(top_boxes[-1]).adjusted(-PAD, -PAD / 2, PAD, 0)
        base = bottom_boxes[0].united(bottom_boxes[-1]).adjusted(-PAD * 2, 0, PAD * 2, PAD / 2)
        path = QPainterPath(apex.topLeft())
        path.lineTo(apex.topRight())
        path.lineTo(base.bottomRight())
        path.lineTo(base.bottomLeft())
        path.closeSubpath()
        shade = QColor(self.palette().color(QPalette.ColorRole.Highlight))
        shade.setAlpha(28)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(shade)
        painter.drawPath(path)

    def _paint_labels(self, painter: QPainter, position: int, row: PyramidRow, worst: bool) -> None:
        palette = self.palette()
        top, height = self._row_top(position), self._row_height()
        half = height / 2
        name = QFont(self.font())
        name.setBold(worst)
        painter.setPen(palette.color(QPalette.ColorRole.WindowText))
        painter.setFont(name)
        left = QRectF(PAD, top, self._label_width(), half + 1)
        painter.drawText(left, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignBottom, row.label)
        painter.setFont(self._small_font())
        muted = QColor(palette.color(QPalette.ColorRole.WindowText))
        muted.setAlpha(165)  # secondary text that still reads in both themes
        painter.setPen(muted)
        painter.drawText(QRectF(PAD, top + half, self._label_width(), half),
                         Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop, row.range_text)
        painter.setFont(name)
        painter.setPen(palette.color(QPalette.ColorRole.WindowText))
        right = QRectF(self.width() - PAD - self._penalty_width(), top, self._penalty_width(), height)
        text = _("→ dying") if row.heaviest else (
            ngettext("−{count} die", "−{count} dice", row.penalty).format(count=row.penalty) if row.penalty else "–")
        painter.drawText(right, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, text)

    def _paint_box(self, painter: QPainter, rect: QRectF, row: PyramidRow, index: int, colors: TrackColors) -> None:
        filled, overflow = index < row.filled, index >= row.boxes
        fill = colors.overflow if overflow else (row.colour if filled else colors.empty)
        painter.setPen(QPen(colors.border, 1.2))
        painter.setBrush(fill)
        painter.drawRoundedRect(rect.adjusted(0.5, 0.5, -0.5, -0.5), 3, 3)
        if filled or overflow:
            inset = rect.width() * 0.24
            inner = rect.adjusted(inset, inset, -inset, -inset)
            painter.setPen(QPen(MARK_WHITE, max(1.5, rect.width() / 9)))
            painter.drawLine(inner.bottomLeft(), inner.topRight())
            if overflow:
                painter.drawLine(inner.topLeft(), inner.bottomRight())
        if self._hovered == (row.key, index) and not overflow:
            painter.setPen(QPen(colors.highlight, 2))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRoundedRect(rect.adjusted(-2, -2, 2, 2), 4, 4)
        if self.hasFocus() and self._cursor == (row.key, index):
            painter.setPen(QPen(colors.highlight, 1.5, Qt.PenStyle.DashLine))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRoundedRect(rect.adjusted(-3, -3, 3, 3), 4, 4)

    # --- interaction ---------------------------------------------------------------------------
    def _toggle(self, key: str, index: int) -> None:
        row = self._row(key)
        if row is None or index >= row.boxes:
            return
        self.wound_requested.emit(key, -1 if index < row.filled else 1)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        hit = self.box_at(event.position())
        if event.button() != Qt.MouseButton.LeftButton or hit is None:
            super().mousePressEvent(event)
            return
        self._cursor = hit
        self._toggle(*hit)
        event.accept()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        hovered = self.box_at(event.position())
        if hovered != self._hovered:
            self._hovered = hovered
            self.setToolTip(escaped(self._box_tip(hovered) if hovered else self.text()))
            self.update()
        super().mouseMoveEvent(event)

    def _box_tip(self, hit: tuple[str, int]) -> str:
        row = self._row(hit[0])
        if row is None or hit[1] >= row.boxes:
            return self.text()
        action = _("click to heal one") if hit[1] < row.filled else _("click to add a wound")
        return _("{wound} ({range}): {action}").format(wound=row.label, range=row.range_text, action=action)

    def leaveEvent(self, event: QEvent) -> None:
        self._hovered = None
        self.update()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Arrows move between boxes (Up = heavier class), Space toggles, + and − add or heal on the row."""
        key = Qt.Key(event.key())
        row_key, index = self._cursor
        if key in (Qt.Key.Key_Left, Qt.Key.Key_Right):
            self._move_to(row_key, index + (1 if key == Qt.Key.Key_Right else -1))
        elif key in (Qt.Key.Key_Up, Qt.Key.Key_Down):
            step = 1 if key == Qt.Key.Key_Up else -1
            keys = [row.key for row in self._rows]
            position = keys.index(row_key) + step if row_key in keys else 0
            if 0 <= position < len(keys):
                self._move_to(keys[position], index)
        elif key in (Qt.Key.Key_Space, Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self._toggle(row_key, index)
        elif key in (Qt.Key.Key_Plus, Qt.Key.Key_Minus):
            self.wound_requested.emit(row_key, 1 if key == Qt.Key.Key_Plus else -1)
        else:
            super().keyPressEvent(event)
            return
        event.accept()

    def _move_to(self, key: str, index: int) -> None:
        row = self._row(key)
        if row is None:
            return
        self._cursor = (key, min(max(0, index), row.boxes - 1))
        self.update()

    def focusInEvent(self, event: QFocusEvent) -> None:
        self.update()
        super().focusInEvent(event)

    def focusOutEvent(self, event: QFocusEvent) -> None:
        self.update()
        super().focusOutEvent(event)


class PyramidEditor(QFrame):
    """The character's own pyramid: per class its name, the damage that enters it, its boxes and its penalty dice;
    classes may be added (a heavier one on top) and removed (institut.md: "editable per character (number of
    classes, names, thresholds and boxes)"). Apply hands the rows to the rules, which say what is wrong."""

    def __init__(self) -> None:
        super().__init__()
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self._grid = QGridLayout(self)
        self._grid.setContentsMargins(6, 6, 6, 6)
        for column, title in enumerate((_("Class"), _("From"), _("Boxes"), _("Penalty"))):
            self._grid.addWidget(QLabel(f"<b>{title}</b>"), 0, column)
        self.lines: list[tuple[QLineEdit, QSpinBox, QSpinBox, QSpinBox]] = []
        self._renamed = False  # the GM typed a name: the classes are the GM's own from now on
        self.add_button = QPushButton(_("Add a class"))
        self.add_button.setToolTip(_("A heavier class on top of the pyramid."))
        self.remove_button = QPushButton(_("Remove the heaviest"))
        self.apply_button = QPushButton(_("Apply"))
        self.default_button = QPushButton(_("Use the encounter's pyramid"))
        self._buttons = QGridLayout()
        for index, button in enumerate((self.add_button, self.remove_button, self.apply_button,
                                        self.default_button)):
            self._buttons.addWidget(button, index // 2, index % 2)
        self.add_button.clicked.connect(self.add_class)
        self.remove_button.clicked.connect(self.remove_class)

    def _line(self) -> tuple[QLineEdit, QSpinBox, QSpinBox, QSpinBox]:
        edit = QLineEdit()
        edit.setAccessibleName(_("Class name"))
        edit.setMaxLength(MAX_NAME)
        edit.textEdited.connect(self._on_renamed)
        line = (edit, spin_box(1, MAX_THRESHOLD), spin_box(1, MAX_BOXES), spin_box(0, MAX_PENALTY))
        # A screen reader names each number by its class, as the class is named now (typed or filled in).
        edit.textChanged.connect(lambda name, numbers=line[1:]: _name_numbers(numbers, name))
        return line

    def _on_renamed(self) -> None:
        self._renamed = True

    def _set_count(self, count: int) -> None:
        """Keep ``count`` rows of inputs (lightest first), the buttons under the last."""
        self._grid.removeItem(self._buttons)
        while len(self.lines) > count:
            removed: tuple[QWidget, ...] = self.lines.pop()
            for widget in removed:
                self._grid.removeWidget(widget)
                widget.deleteLater()
        while len(self.lines) < count:
            line = self._line()
            row = len(self.lines) + 1
            for column, widget in enumerate(line):
                self._grid.addWidget(widget, row, column)
            self.lines.append(line)
        self._grid.addLayout(self._buttons, count + 1, 0, 1, 4)
        self.add_button.setEnabled(count < MAX_CLASSES)
        self.remove_button.setEnabled(count > 1)

    def show_pyramid(self, pyramid: Pyramid) -> None:
        """Fill the fields from a pyramid."""
        self._set_count(len(pyramid.classes))
        self._renamed = pyramid.names() is not None
        for line, wound in zip(self.lines, pyramid.classes, strict=True):
            line[0].setText(_(wound.label))
            for spin, value in zip(line[1:], (wound.entered_at, wound.boxes, wound.penalty), strict=True):
                spin.setValue(value)

    def add_class(self) -> None:
        """One more class, heavier than the last: entered 5 points above it, one box, its penalty + 1."""
        last = self.lines[-1] if self.lines else None
        self._set_count(len(self.lines) + 1)
        self._renamed = True
        edit, threshold, boxes, penalty = self.lines[-1]
        edit.setText(_("Class {number}").format(number=len(self.lines)))
        threshold.setValue(min(MAX_THRESHOLD, last[1].value() + 5) if last else 5)
        boxes.setValue(1)
        penalty.setValue(min(MAX_PENALTY, last[3].value() + 1) if last else 0)
        edit.setFocus()
        edit.selectAll()

    def remove_class(self) -> None:
        """Drop the heaviest class (its wounds pass to the new heaviest when applied)."""
        if len(self.lines) > 1:
            self._set_count(len(self.lines) - 1)
            self._renamed = True

    def rows(self) -> tuple[tuple[int, int, int], ...]:
        """The pyramid as typed, lightest first."""
        return tuple((line[1].value(), line[2].value(), line[3].value()) for line in self.lines)

    def names(self) -> tuple[str, ...]:
        """The classes' names as typed, or () while they are the five default classes, unrenamed."""
        return tuple(line[0].text().strip() for line in self.lines) if self._renamed else ()


class PyramidSection(QGroupBox):
    """The life pyramid, what the wounds cost now, the character's own pyramid, and the GM's ruling on death."""

    def __init__(self, apply: Apply) -> None:
        super().__init__(_("Life pyramid"))
        self._apply = apply
        self._id = ""
        self.pyramid = PyramidWidget()
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.own = QToolButton()
        self.own.setText(_("Own pyramid…"))
        self.own.setCheckable(True)
        self.own.setToolTip(_("Give this character its own thresholds, boxes and penalties."))
        self.dead = QCheckBox(_("Dead (the GM's ruling)"))
        self.editor = PyramidEditor()
        self.editor.hide()
        layout = QVBoxLayout(self)
        layout.addWidget(self.pyramid)
        layout.addWidget(self.summary)
        row = QHBoxLayout()
        row.addWidget(self.own)
        row.addStretch(1)
        row.addWidget(self.dead)
        layout.addLayout(row)
        layout.addWidget(self.editor)
        self.pyramid.wound_requested.connect(self._wound)
        self.own.toggled.connect(self.editor.setVisible)
        self.dead.clicked.connect(lambda checked: self._apply(SetInstitutFlag(self._id, "dead", checked)))
        self.editor.apply_button.clicked.connect(
            lambda: self._apply(SetPyramid(self._id, self.editor.rows(), self.editor.names())))
        self.editor.default_button.clicked.connect(lambda: self._apply(SetPyramid(self._id, None)))

    def refresh(self, combatant: Combatant, state: Encounter, system: RuleSystem) -> None:
        """Show ``combatant``'s pyramid as it is in ``state``."""
        changed = combatant.id != self._id
        self._id = combatant.id
        pyramid = pyramid_for(combatant, state)
        self.pyramid.set_rows(pyramid_rows(pyramid, combatant))
        self.summary.setText(_summary(combatant, state, system, pyramid))
        self.dead.setChecked(system.status(combatant, state) is Status.DEAD)
        self.editor.default_button.setEnabled(rounds.PYRAMID in combatant.extra)
        if changed or not self.editor.isVisible():
            self.editor.show_pyramid(pyramid)

    def _wound(self, key: str, delta: int) -> None:
        self._apply(ApplyHarm(self._id, key, delta, _("life pyramid")))


def _name_numbers(numbers: tuple[QSpinBox, ...], wound: str) -> None:
    threshold, boxes, penalty = numbers
    threshold.setAccessibleName(_("{wound}: damage that enters it").format(wound=wound))
    boxes.setAccessibleName(_("{wound}: boxes").format(wound=wound))
    penalty.setAccessibleName(_("{wound}: penalty dice").format(wound=wound))


def _summary(combatant: Combatant, state: Encounter, system: RuleSystem, pyramid: Pyramid) -> str:
    status = system.status(combatant, state)
    if status is Status.DEAD:
        return _("Dead.")
    if status is Status.DYING:
        return _("Dying: a box of the {wound} class is filled. The GM decides death.").format(
            wound=_(pyramid.label(pyramid.heaviest)))
    worst = pyramid.worst(combatant.damage)
    if worst is None:
        return _("Unhurt.")
    penalty = pyramid.penalty(combatant.damage)
    if not penalty:
        return _("Worst wound: {wound}; no penalty.").format(wound=_(pyramid.label(worst)))
    return ngettext("Worst wound: {wound}; −{count} die on every action.",
                    "Worst wound: {wound}; −{count} dice on every action.", penalty).format(
        wound=_(pyramid.label(worst)), count=penalty)


class RoundSection(QGroupBox):
    """This round: declared actions and their cost, held declarations, movement, skipping, ambush."""

    def __init__(self, apply: Apply) -> None:
        super().__init__(_("This round"))
        self._apply = apply
        self._id = ""
        self._pending: tuple[str, ...] = ()
        self.declared = QSpinBox()
        self.declared.setRange(1, rounds.MAX_DECLARED)
        self.declared.setAccessibleName(_("Actions declared"))
        self.declare = QPushButton(_("Declare"))
        self.declare.setToolTip(_("Each action beyond the first: −1 die on every roll this round."))
        self.cost = QLabel()
        self.cost.setWordWrap(True)
        self.movement = QLabel()
        self.movement.setWordWrap(True)
        self.condition = QLineEdit(placeholderText=_("e.g. if he shoots, I dodge"))
        self.condition.setAccessibleName(_("Condition of a held action"))
        self.hold = QPushButton(_("Hold"))
        self.hold.setToolTip(_("A conditional declaration: it counts as an action and is used up either way."))
        self._held_box = QVBoxLayout()
        self._held_box.setContentsMargins(0, 0, 0, 0)
        self.skip = QPushButton(_("Give up this round"))
        self.skip.setToolTip(_("Do nothing this round and act first in the next."))
        self.ambush = QCheckBox(_("In ambush (+3 dice to hit in the first round)"))
        # institut.md: "A shot may be blocked instead of dodged only with a suitable object already in hand."
        self.in_hand = QCheckBox(_("Holds an object that can block a shot"))
        self.in_hand.setToolTip(_("A shield, a blade, a chair… already in hand: the attack dialog offers a block "
                                  "against a shot only then."))
        self._build_layout()
        self.declare.clicked.connect(
            lambda: self._apply(DeclareActions(self._id, self.declared.value(), after_roll_checked=True,
                                               turn_checked=True)))
        self.hold.clicked.connect(self._hold)
        self.condition.returnPressed.connect(self._hold)
        self.skip.clicked.connect(lambda: self._apply(SkipRound(self._id)))
        self.ambush.clicked.connect(lambda checked: self._apply(SetInstitutFlag(self._id, "ambush", checked)))
        self.in_hand.clicked.connect(lambda checked: self._apply(SetInstitutFlag(self._id, "in_hand", checked)))

    def _build_layout(self) -> None:
        layout = QVBoxLayout(self)
        declare = QHBoxLayout()
        declare.addWidget(QLabel(_("Actions")))
        declare.addWidget(self.declared)
        declare.addWidget(self.declare)
        declare.addStretch(1)
        layout.addLayout(declare)
        layout.addWidget(self.cost)
        layout.addWidget(self.movement)
        hold = QHBoxLayout()
        hold.addWidget(self.condition, 1)
        hold.addWidget(self.hold)
        layout.addLayout(hold)
        layout.addLayout(self._held_box)
        layout.addWidget(self.skip, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.ambush)
        layout.addWidget(self.in_hand)

    def held_rows(self) -> int:
        """How many held declarations are listed."""
        return self._held_box.count()

    def refresh(self, combatant: Combatant, state: Encounter, system: RuleSystem) -> None:
        """Show ``combatant``'s round."""
        self._id = combatant.id
        actions = rounds.round_actions(combatant)
        modifiers = tables(state).modifiers
        running = rounds.round_running(state)
        able = running and system.status(combatant, state) is Status.ACTIVE and not rounds.skips_this_round(
            combatant, state)
        if not self.declared.hasFocus():
            self.declared.setValue(max(1, actions.declared))
        # The count is declared in one's own turn, or out of turn while the turn is still to come (institut.md).
        may_declare = able and may_declare_now(combatant, state)
        self.declared.setEnabled(may_declare)
        self.declare.setEnabled(may_declare)
        self.declare.setToolTip(_("Each action beyond the first: −1 die on every roll this round.") if may_declare
                                or not able else _("The count was declared in this combatant's turn."))
        # Held declarations are made "во время своего хода", during one's own turn.
        own_turn = state.clock.current is not None and combatant.id in state.clock.current.ids
        self.condition.setEnabled(able and own_turn)
        self.hold.setEnabled(able and own_turn)
        self.hold.setToolTip(_("A conditional declaration: it counts as an action and is used up either way.")
                             if own_turn else _("Held actions are declared during the combatant's own turn."))
        self.skip.setEnabled(able and actions.nothing_declared and combatant.id not in state.clock.acted)
        self.cost.setText(_cost_text(actions, rounds.action_penalty(actions, modifiers), combatant, state, running))
        agility, athletics = combatant.attribute("agility"), combatant.attribute("athletics")
        self.movement.setText(_("Movement: {metres} m; sprinting as the only action: {sprint} m.").format(
            metres=rounds.movement(agility, athletics, actions.total_declared, modifiers),
            sprint=rounds.sprint(agility, athletics, modifiers)))
        text = (_("In ambush (+{count} points to hit in the first round)") if in_points(state)
                else _("In ambush (+{count} dice to hit in the first round)"))
        self.ambush.setText(text.format(count=modifiers.ambush_hit))
        self.ambush.setChecked(rounds.flag(combatant, rounds.AMBUSH))
        self.in_hand.setChecked(rounds.flag(combatant, rounds.IN_HAND))
        if actions.pending != self._pending:
            self._show_held(actions.pending)

    def _show_held(self, pending: tuple[str, ...]) -> None:
        self._pending = pending
        while (item := self._held_box.takeAt(0)) is not None:
            widget = item.widget()
            if widget is not None:
                widget.setParent(None)
                widget.deleteLater()
        for condition in pending:
            self._held_box.addWidget(self._held_row(condition))

    def _held_row(self, condition: str) -> QWidget:
        row = QWidget()
        layout = QHBoxLayout(row)
        layout.setContentsMargins(0, 0, 0, 0)
        label = QLabel(_("Held: {condition}").format(condition=condition))
        label.setWordWrap(True)
        label.setTextFormat(Qt.TextFormat.PlainText)  # the GM's own words, never markup
        happened, lapsed = QToolButton(), QToolButton()
        happened.setText(_("Happens"))
        happened.setToolTip(_("The condition came: the action happens (roll it)."))
        lapsed.setText(_("Lapses"))
        lapsed.setToolTip(_("The condition did not come: the declaration is used up."))
        happened.clicked.connect(lambda: self._apply(ResolveHeld(self._id, condition, True)))
        lapsed.clicked.connect(lambda: self._apply(ResolveHeld(self._id, condition, False)))
        layout.addWidget(label, 1)
        layout.addWidget(happened)
        layout.addWidget(lapsed)
        return row

    def _hold(self) -> None:
        if self._apply(HoldAction(self._id, self.condition.text(), in_own_turn=True)):
            self.condition.clear()


def _cost_text(actions: rounds.RoundActions, penalty: int, combatant: Combatant, state: Encounter,
               running: bool) -> str:
    if not running:
        return _("Declarations are made once the round has started.")
    if rounds.skips_this_round(combatant, state):
        return _("Gave up this round: acts first in the next.")
    parts = [ngettext("{count} action declared", "{count} actions declared", actions.total_declared).format(
        count=actions.total_declared) if not actions.nothing_declared else _("Nothing declared yet (one action)"),
        ngettext("{count} done", "{count} done", actions.taken).format(count=actions.taken)]
    if penalty:
        parts.append(ngettext("every roll −{count} die", "every roll −{count} dice", penalty).format(count=penalty))
    if rounds.goes_first(combatant, state):
        parts.append(_("acts first (gave up the last round)"))
    return " · ".join(parts)


#: The sections this game adds to the details panel, top to bottom.
SECTIONS: tuple[SectionFactory, ...] = (PyramidSection, RoundSection)
