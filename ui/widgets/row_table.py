"""A table of rows that come and go with the fight (combatants, effects), whose selection stays on its rows."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex
from PySide6.QtWidgets import QTableView


class RowTable(QTableView):
    """A table whose selection and current row stay on their rows while others are inserted, removed or moved.

    A removed row takes its selection with it: Qt would hand the current row (and, with single selection, the
    selection) to a neighbour, and the GM's next Remove or Delete would hit a row never picked.
    """

    def rowsAboutToBeRemoved(self, parent: QModelIndex | QPersistentModelIndex, start: int, end: int) -> None:
        current = self.currentIndex()
        if current.isValid() and current.parent() == parent and start <= current.row() <= end:
            self.selectionModel().clear()
        super().rowsAboutToBeRemoved(parent, start, end)
