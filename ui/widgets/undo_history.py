"""The undo history dock: Qt's undo view, which asks before a click rewinds the fight by more than one step."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QMouseEvent, QUndoStack
from PySide6.QtWidgets import QMessageBox, QUndoView, QWidget

from app.i18n import _, ngettext


class UndoHistory(QUndoView):
    """Every step of the fight; clicking one goes back (or forward) to it.

    A click lands easily on the wrong line of a long list, and going back many steps at once is a big change
    to make by accident (the steps can be redone, until the next change drops them): so a click that would
    undo more than one step asks first.
    """

    def __init__(self, stack: QUndoStack, parent: QWidget | None = None) -> None:
        super().__init__(stack, parent)
        self.setEmptyLabel(_("<start of the fight>"))
        self._refused = False  # the last press was refused: dragging on from it must not select either

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
