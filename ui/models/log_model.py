"""The combat log: every line every operation wrote, grouped under "Round n · pass p" headings.

Rows are appended when an operation is done and removed when it is undone; the whole list is rebuilt
only when a different fight is loaded. Text is rendered on demand, so a language switch re-renders it, and
rows are not built ahead either: the model keeps each entry's first row and row count (a loaded entry's
lines are counted in the file, not decoded), and works out a row when the view asks for it.
"""

from __future__ import annotations

from bisect import bisect_right
from enum import IntEnum
from typing import Any, NamedTuple

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QFont

from app.document import Change, EncounterDocument
from rules.history import Entry
from rules.report import heading_text, moment_key
from ui.widgets.messages import as_written

Index = QModelIndex | QPersistentModelIndex


class LogRole(IntEnum):
    """Named roles of log rows."""

    IS_HEADING = Qt.ItemDataRole.UserRole + 1
    ENTRY_NUMBER = Qt.ItemDataRole.UserRole + 2  # 1-based position in the history


class _Row(NamedTuple):  # worked out when asked for: a long fight's log has tens of thousands of rows
    entry_number: int  # 0 for headings
    line: int  # index into the entry's log lines; -1 for a heading
    round: int
    pass_no: int


class LogModel(QAbstractListModel):
    """Rows of the combat log for a one-column view (filter it with a QSortFilterProxyModel)."""

    def __init__(self, document: EncounterDocument) -> None:
        super().__init__()
        self._document = document
        self._starts: list[int] = []  # per entry: its first row
        self._counts: list[int] = []  # per entry: its rows (a heading included), to remove them on undo
        self._headed: list[bool] = []  # per entry: whether its rows start with a heading
        self._total = 0
        self._moment: tuple[int, int] | None = None  # (round, pass) of the last row
        self._rebuild()
        document.changed.connect(self._on_changed)
        document.replaced.connect(self._on_replaced)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else self._total

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < self._total:
            return None
        row = self._row(index.row())
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(row)
        if role == Qt.ItemDataRole.ToolTipRole:  # a long line is elided in the view; its names are never markup
            return as_written(self._text(row))
        if role == LogRole.IS_HEADING:
            return row.line < 0
        if role == LogRole.ENTRY_NUMBER:
            return row.entry_number
        if role == Qt.ItemDataRole.FontRole and row.line < 0:
            font = QFont()
            font.setBold(True)
            return font
        return None

    def _row(self, row: int) -> _Row:
        number = bisect_right(self._starts, row)  # the last entry starting at or before it (1-based)
        entry = self._document.history.entries[number - 1]
        line = row - self._starts[number - 1] - self._headed[number - 1]
        return _Row(0 if line < 0 else number, line, entry.round, entry.pass_no)

    def _text(self, row: _Row) -> str:
        if row.line < 0:
            return heading_text(row.round, row.pass_no, self._document.system.time_units())
        entry = self._document.history.entries[row.entry_number - 1]
        return entry.log[row.line].render()

    def plain_text(self, rows: list[int] | None = None) -> str:
        """The log (or some rows of it) as text for the clipboard; headings keep their place."""
        chosen = rows if rows is not None else range(self._total)
        return "\n".join(self._text(self._row(row)) for row in chosen)

    # --- keeping up with the document ----------------------------------------------------------
    def _on_replaced(self) -> None:
        self.beginResetModel()
        self._rebuild()
        self.endResetModel()

    def _rebuild(self) -> None:
        """:meth:`_add` of every entry, in one loop of local names (a long fight has 100,000 entries)."""
        starts: list[int] = []
        counts: list[int] = []
        headed: list[bool] = []
        total, moment = 0, None
        for entry in self._document.history.entries:
            key = moment_key(entry)
            heading = key != moment
            count = heading + entry.log_size
            starts.append(total)
            counts.append(count)
            headed.append(heading)
            total += count
            if heading:
                moment = key
        self._starts, self._counts, self._headed, self._total, self._moment = starts, counts, headed, total, moment

    def _rows_for(self, entry: Entry) -> tuple[bool, int]:
        """Whether the entry's rows start with a heading (the round or pass changed), and how many it has."""
        headed = moment_key(entry) != self._moment
        return headed, headed + entry.log_size

    def _add(self, entry: Entry, headed: bool, count: int) -> None:
        self._starts.append(self._total)
        self._counts.append(count)
        self._headed.append(headed)
        self._total += count
        if headed:
            self._moment = moment_key(entry)

    def _on_changed(self, change: Change) -> None:
        entries = self._document.history.entries
        if change.undone and len(self._counts) > len(entries):
            self._remove_last()
        elif not change.undone and len(entries) == len(self._counts) + 1:
            self._append(entries[-1])
        else:  # out of step (should not happen): start over rather than show a wrong log
            self._on_replaced()

    def _remove_last(self) -> None:
        count = self._counts[-1]
        if count:
            self.beginRemoveRows(QModelIndex(), self._total - count, self._total - 1)
        self._starts.pop()
        self._counts.pop()
        self._headed.pop()
        self._total -= count
        kept = next((number for number in range(len(self._counts), 0, -1) if self._counts[number - 1]), 0)
        self._moment = moment_key(self._document.history.entries[kept - 1]) if kept else None
        if count:
            self.endRemoveRows()

    def _append(self, entry: Entry) -> None:
        headed, count = self._rows_for(entry)
        if count:
            self.beginInsertRows(QModelIndex(), self._total, self._total + count - 1)
        self._add(entry, headed, count)
        if count:
            self.endInsertRows()
