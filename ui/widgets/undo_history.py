"""The undo history dock: every step of the fight, which asks before a click rewinds it by more than one step."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractListModel, QItemSelectionModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QAbstractItemView, QListView, QMessageBox, QWidget
from shiboken6 import isValid

from app.i18n import _, ngettext
from app.undo import HistoryStack

Index = QModelIndex | QPersistentModelIndex


class UndoStackModel(QAbstractListModel):
    """The rows of an undo view (the empty label, then one per step), each step named when shown.

    Qt's ``QUndoView`` reads every step's text, so every step of a loaded fight had to be named on opening
    (10,000 log lines decoded); this model asks the stack for the rows the view paints.
    """

    def __init__(self, stack: HistoryStack, empty_label: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._stack = stack
        self._empty_label = empty_label
        self.named = 0  # rows named so far (a test checks that opening a long fight names only a few)
        stack.indexChanged.connect(self._on_stack_changed)
        stack.cleanChanged.connect(self._on_stack_changed)

    def stack(self) -> HistoryStack:
        """The undo stack shown."""
        return self._stack

    def alive(self) -> bool:
        """Whether the stack still exists: at exit Qt may delete it before this model, which then still answers."""
        return isValid(self._stack)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() or not self.alive() else self._stack.count() + 1

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role != Qt.ItemDataRole.DisplayRole or not index.isValid() or not self.alive():
            return None
        row = index.row()
        if row == 0:
            return self._empty_label
        if row > self._stack.count():
            return None
        self.named += 1
        return self._stack.text(row - 1)

    def _on_stack_changed(self) -> None:
        # Like QUndoModel: the count may have changed anywhere (a push drops the redo steps), so start over;
        # with uniform row heights a reset reads only the rows painted.
        self.beginResetModel()
        self.endResetModel()


class UndoHistory(QListView):
    """Every step of the fight; clicking one goes back (or forward) to it.

    A click lands easily on the wrong line of a long list, and going back many steps at once is a big change
    to make by accident (the steps can be redone, until the next change drops them): so a click that would
    undo more than one step asks first.
    """

    def __init__(self, stack: HistoryStack, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._stack = stack
        self._model = UndoStackModel(stack, _("<start of the fight>"), self)
        self.setModel(self._model)
        self.setUniformItemSizes(True)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.selectionModel().currentChanged.connect(self._on_current_changed)
        self._model.modelReset.connect(self._select_index)
        self._select_index()
        self._refused = False  # the last press was refused: dragging on from it must not select either

    def stack(self) -> HistoryStack:
        """The undo stack shown."""
        return self._stack

    def _select_index(self) -> None:
        """The row of the stack's index is the current one (as in Qt's undo view)."""
        if not self._model.alive():
            return
        self.selectionModel().setCurrentIndex(self._model.index(self._stack.index(), 0),
                                              QItemSelectionModel.SelectionFlag.ClearAndSelect)

    def _on_current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if current.isValid() and current.row() != self._stack.index():
            self._stack.setIndex(current.row())

    def steps_back_to(self, row: int) -> int:
        """How many steps a click on ``row`` would undo (0 for the current step or one after it)."""
        return max(0, self.stack().index() - row)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        index = self.indexAt(event.position().toPoint())
        self._refused = (index.isValid() and event.button() == Qt.MouseButton.LeftButton
                         and not self.may_go_back(self.steps_back_to(index.row())))
        if self._refused:
            event.accept()  # stays where it is: the press never reaches the view's selection
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._refused:
            event.accept()
            return
        super().mouseMoveEvent(event)

    def may_go_back(self, steps: int) -> bool:
        """True for one step or none; for more, whether the GM says yes."""
        if steps <= 1:
            return True
        answer = QMessageBox.question(
            self, _("Go back in the fight"),
            ngettext("Undo the last {count} step?", "Undo the last {count} steps?", steps).format(count=steps)
            + "\n\n" + _("Edit → Redo brings them back until you make a new change."),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No, QMessageBox.StandardButton.No)
        return answer == QMessageBox.StandardButton.Yes
