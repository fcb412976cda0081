"""The initiative table view: current actor highlighted, sides marked, condition drawn as compact bars."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize, Qt, Signal
from PySide6.QtGui import QColor, QPainter, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QWidget,
)

from ui.models.initiative_model import Column, InitiativeModel, Role
from ui.widgets.condition_track import paint_track
from ui.widgets.row_table import RowTable

Index = QModelIndex | QPersistentModelIndex

#: Side colours, chosen to stay distinguishable for the common colour-vision deficiencies (blue/orange).
SIDE_COLOURS = {"player": QColor("#2f74c0"), "ally": QColor("#2a9d8f"), "opponent": QColor("#d9730d")}
STRIPE = 4
LABEL_WIDTH = 12
MIN_BOX = 6  # pixels: below this a row of boxes stops being readable


class InitiativeDelegate(QStyledItemDelegate):
    """Paints the current row's highlight, the side stripe and the condition bars."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        if index.data(Role.IS_CURRENT) and not option.state & QStyle.StateFlag.State_Selected:
            highlight = option.palette.color(QPalette.ColorRole.Highlight)
            highlight.setAlpha(70)
            painter.fillRect(option.rect, highlight)
        if index.column() == Column.CONDITION:
            self._paint_condition(painter, option, index)
            return
        super().paint(painter, option, index)
        if index.column() == Column.NAME:
            colour = SIDE_COLOURS.get(index.data(Role.SIDE), QColor("gray"))
            rect: QRect = option.rect
            painter.fillRect(QRect(rect.left(), rect.top() + 2, STRIPE, rect.height() - 4), colour)

    def _paint_condition(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        if option.state & QStyle.StateFlag.State_Selected:
            painter.fillRect(option.rect, option.palette.highlight())
        tracks = index.data(Role.TRACKS) or []
        rect: QRect = option.rect.adjusted(4, 3, -4, -3)
        if not tracks:
            return
        if len(tracks) > 2:  # pyramids and per-type tracks: one row, or words when that would be unreadable
            self._paint_many(painter, option, rect, tracks)
            return
        height = max(4, (rect.height() - 2 * (len(tracks) - 1)) // len(tracks))
        text_colour = option.palette.color(QPalette.ColorRole.Text)
        painter.save()
        font = painter.font()
        font.setPointSizeF(max(6.0, font.pointSizeF() * 0.75))
        painter.setFont(font)
        painter.setPen(text_colour)
        for number, (label, filled, size) in enumerate(tracks):
            row = QRect(rect.left(), rect.top() + number * (height + 2), rect.width(), height)
            painter.drawText(row.adjusted(0, -2, 0, 2), Qt.AlignmentFlag.AlignVCenter, label[:1])
            paint_track(painter, row.adjusted(LABEL_WIDTH, 0, 0, 0), min(filled, size), size,
                        max(0, filled - size), option.palette)
        painter.restore()

    @staticmethod
    def _paint_many(painter: QPainter, option: QStyleOptionViewItem, rect: QRect,
                    tracks: list[tuple[str, int, int]]) -> None:
        total = sum(size for _label, _filled, size in tracks)
        text_colour = option.palette.color(QPalette.ColorRole.Text)
        if total and rect.width() / (total + len(tracks)) >= MIN_BOX:
            cell = rect.width() / (total + len(tracks))
            left = float(rect.left())
            for _label, filled, size in tracks:
                width = int(cell * size)
                paint_track(painter, QRect(int(left), rect.top() + 4, width, rect.height() - 8), min(filled, size),
                            size, 0, option.palette)
                left += cell * (size + 1)
            return
        hurt = [f"{label} {filled}" for label, filled, _size in tracks if filled]
        painter.save()
        painter.setPen(text_colour)
        painter.drawText(rect, Qt.AlignmentFlag.AlignVCenter, " · ".join(hurt) if hurt else "–")
        painter.restore()

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        hint = super().sizeHint(option, index)
        if index.column() == Column.CONDITION:
            return QSize(max(hint.width(), 140), max(hint.height(), 26))
        return hint


class InitiativeTable(RowTable):
    """The order of the fight; selecting a row selects the combatant the other panels show."""

    selected = Signal(object)  # combatant id or None

    def __init__(self, model: InitiativeModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setModel(model)
        self.setItemDelegate(InitiativeDelegate(self))
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        # Several rows (Ctrl/Shift+click, Shift+arrows) take one hit together: a grenade, a blast.
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked
                             | QAbstractItemView.EditTrigger.EditKeyPressed)
        self.setAlternatingRowColors(True)
        self.verticalHeader().setVisible(False)
        self.verticalHeader().setDefaultSectionSize(30)
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        for column, width in ((Column.NAME, 170), (Column.SIDE, 130), (Column.INITIATIVE, 120),
                              (Column.ACTIONS, 200), (Column.CONDITION, 160)):
            self.setColumnWidth(column, width)
        self.selectionModel().currentRowChanged.connect(self._on_current_row)

    def _on_current_row(self, current: QModelIndex, _previous: QModelIndex) -> None:
        self.selected.emit(current.data(Role.COMBATANT_ID) if current.isValid() else None)

    def selected_id(self) -> str | None:
        """The combatant the GM selected (a row Qt merely made current on focus does not count).

        With several rows selected: the current one if it is among them (the one the details panel shows), else
        the first in the table's order."""
        current = self.currentIndex()
        if current.isValid() and self.selectionModel().isRowSelected(current.row(), current.parent()):
            return str(current.data(Role.COMBATANT_ID))
        chosen = self.selected_ids()
        return chosen[0] if chosen else None

    def selected_ids(self) -> list[str]:
        """Every combatant selected, in the table's order (empty: nobody)."""
        rows = sorted(self.selectionModel().selectedRows(), key=lambda index: index.row())
        return [str(index.data(Role.COMBATANT_ID)) for index in rows]

    def select_combatant(self, combatant_id: str) -> None:
        """Select that combatant's row."""
        model = self.model()
        assert isinstance(model, InitiativeModel)
        row = model.row_of(combatant_id)
        if row >= 0:
            self.selectRow(row)
