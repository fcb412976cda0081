"""The combat log: every line every operation wrote, grouped under "Round n · pass p" headings.

Rows are appended when an operation is done and removed when it is undone; the whole list is rebuilt
only when a different fight is loaded. Text is rendered on demand, so a language switch re-renders it.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any, NamedTuple

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QFont

from app.document import Change, EncounterDocument
from rules.history import Entry
from rules.report import heading_text, moment_key

Index = QModelIndex | QPersistentModelIndex


class LogRole(IntEnum):
    """Named roles of log rows."""

    IS_HEADING = Qt.ItemDataRole.UserRole + 1
    ENTRY_NUMBER = Qt.ItemDataRole.UserRole + 2  # 1-based position in the history


class _Row(NamedTuple):  # a tuple: a long fight's log has tens of thousands of rows, built on every load
    entry_number: int  # 0 for headings
    line: int  # index into the entry's log lines; -1 for a heading
    round: int
    pass_no: int


class LogModel(QAbstractListModel):
    """Rows of the combat log for a QListView (filter it with a QSortFilterProxyModel)."""

    def __init__(self, document: EncounterDocument) -> None:
        super().__init__()
        self._document = document
        self._rows: list[_Row] = []
        self._counts: list[int] = []  # rows added per entry, to remove them on undo
        self._rebuild()
        document.changed.connect(self._on_changed)
        document.replaced.connect(self._on_replaced)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row = self._rows[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(row)
        if role == LogRole.IS_HEADING:
            return row.line < 0
        if role == LogRole.ENTRY_NUMBER:
            return row.entry_number
        if role == Qt.ItemDataRole.FontRole and row.line < 0:
            font = QFont()
            font.setBold(True)
            return font
        return None

    def _text(self, row: _Row) -> str:
        if row.line < 0:
            return heading_text(row.round, row.pass_no, self._document.system.time_units())
        entry = self._document.history.entries[row.entry_number - 1]
        return entry.log[row.line].render()

    def plain_text(self, rows: list[int] | None = None) -> str:
        """The log (or some rows of it) as text for the clipboard; headings keep their place."""
        chosen = rows if rows is not None else range(len(self._rows))
        return "\n".join(self._text(self._rows[row]) for row in chosen)

    # --- keeping up with the document ----------------------------------------------------------
    def _on_replaced(self) -> None:
        self.beginResetModel()
        self._rebuild()
        self.endResetModel()

    def _rebuild(self) -> None:
        self._rows, self._counts = [], []
        for number, entry in enumerate(self._document.history.entries, start=1):
            new_rows = self._rows_for(number, entry)
            self._rows.extend(new_rows)
            self._counts.append(len(new_rows))

    def _rows_for(self, number: int, entry: Entry) -> list[_Row]:
        rows = []
        last = self._rows[-1] if self._rows else None
        if last is None or (last.round, last.pass_no) != moment_key(entry):
            rows.append(_Row(0, -1, entry.round, entry.pass_no))
        rows += [_Row(number, line, entry.round, entry.pass_no) for line in range(entry.log_size)]
        return rows

    def _on_changed(self, change: Change) -> None:
        entries = self._document.history.entries
        if change.undone and len(self._counts) > len(entries):
            self._remove_last()
        elif not change.undone and len(entries) == len(self._counts) + 1:
            self._append(len(entries), entries[-1])
        else:  # out of step (should not happen): start over rather than show a wrong log
            self._on_replaced()

    def _remove_last(self) -> None:
        count = self._counts.pop()
        if count:
            first = len(self._rows) - count
            self.beginRemoveRows(QModelIndex(), first, len(self._rows) - 1)
            del self._rows[first:]
            self.endRemoveRows()

    def _append(self, number: int, entry: Entry) -> None:
        new_rows = self._rows_for(number, entry)
        self._counts.append(len(new_rows))
        if new_rows:
            self.beginInsertRows(QModelIndex(), len(self._rows), len(self._rows) + len(new_rows) - 1)
            self._rows.extend(new_rows)
            self.endInsertRows()
