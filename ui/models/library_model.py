"""Search results of the roster and bestiary as a table: name, kind, campaign and the game's stat line."""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QByteArray, QModelIndex, QObject, QPersistentModelIndex, Qt

from app.i18n import N_, _
from app.library import KIND_LABELS, LibraryEntry
from rules.systems.base import RuleSystem
from ui.models.base import sync_rows
from ui.widgets.messages import as_written

Index = QModelIndex | QPersistentModelIndex


class LibraryColumn(IntEnum):
    """Columns of the results table."""

    NAME = 0
    KIND = 1
    CAMPAIGN = 2
    STATS = 3


_HEADERS = {LibraryColumn.NAME: N_("Name"), LibraryColumn.KIND: N_("Kind"), LibraryColumn.CAMPAIGN: N_("Campaign"),
            LibraryColumn.STATS: N_("Key stats")}


class LibraryRole(IntEnum):
    """Named roles of result rows."""

    ENTRY = Qt.ItemDataRole.UserRole + 1  # the LibraryEntry itself
    ENTRY_ID = Qt.ItemDataRole.UserRole + 2


#: The role holding a row's :class:`~app.library.LibraryEntry`.
EntryRole = LibraryRole.ENTRY


def stat_line(entry: LibraryEntry, system: RuleSystem) -> str:
    """Compact numbers in the game's own order, e.g. ``B 4 · Q 4 · S 4``."""
    return " · ".join(f"{spec.short_name()} {entry.attributes[spec.key]}"
                      for spec in system.attribute_specs() if spec.key in entry.attributes)


def stat_tooltip(entry: LibraryEntry, system: RuleSystem) -> str:
    """Every number with its full name, one per line."""
    return "\n".join(f"{_(spec.label)}: {entry.attributes[spec.key]}"
                     for spec in system.attribute_specs() if spec.key in entry.attributes)


def _by_id(entries: Sequence[LibraryEntry]) -> dict[int, LibraryEntry] | None:
    """The entries by id, in order; None when one has no id yet or two share one."""
    keyed = {entry.id: entry for entry in entries if entry.id is not None}
    return keyed if len(keyed) == len(entries) else None


class LibraryModel(QAbstractTableModel):
    """Rows of library entries (one game's), following each new search by :meth:`set_entries`."""

    def __init__(self, system: RuleSystem, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._system = system
        self._entries: list[LibraryEntry] = []

    def set_entries(self, entries: Sequence[LibraryEntry]) -> None:
        """Show new search results: rows of entries still found stay (and stay selected), others come and go."""
        old, new = _by_id(self._entries), _by_id(entries)
        if old is None or new is None:  # entries not stored yet cannot be told apart: start over
            self.beginResetModel()
            self._entries = list(entries)
            self.endResetModel()
            return
        known = {**new, **old}  # a row that stays shows its old values until dataChanged below

        def show(ids: list[int]) -> None:
            self._entries = [known[entry_id] for entry_id in ids]

        sync_rows(self, list(old), list(new), show)
        self._entries = list(entries)
        for row, entry in enumerate(self._entries):
            if entry.id in old and old[entry.id] != entry:
                self.dataChanged.emit(self.index(row, 0), self.index(row, len(LibraryColumn) - 1))

    def entry(self, row: int) -> LibraryEntry | None:
        """The entry shown in ``row``, if any."""
        return self._entries[row] if 0 <= row < len(self._entries) else None

    def row_of(self, entry_id: int | None) -> int:
        """The row showing the entry with that id, or -1."""
        return next((row for row, entry in enumerate(self._entries) if entry.id == entry_id), -1)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else len(self._entries)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else len(LibraryColumn)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole \
                and 0 <= section < len(LibraryColumn):
            return _(_HEADERS[LibraryColumn(section)])
        return super().headerData(section, orientation, role)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        entry = self.entry(index.row()) if index.isValid() else None
        if entry is None or not 0 <= index.column() < len(LibraryColumn):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(entry, LibraryColumn(index.column()))
        if role == Qt.ItemDataRole.ToolTipRole:
            tip = self._tooltip(entry, LibraryColumn(index.column()))
            return as_written(tip) if isinstance(tip, str) else tip
        if role == LibraryRole.ENTRY:
            return entry
        if role == LibraryRole.ENTRY_ID:
            return entry.id
        return None

    def _text(self, entry: LibraryEntry, column: LibraryColumn) -> str:
        if column is LibraryColumn.NAME:
            return entry.name
        if column is LibraryColumn.KIND:
            return _(KIND_LABELS[entry.kind])
        if column is LibraryColumn.CAMPAIGN:
            return entry.campaign
        return stat_line(entry, self._system)

    def _tooltip(self, entry: LibraryEntry, column: LibraryColumn) -> str | None:
        if column is LibraryColumn.STATS:
            return stat_tooltip(entry, self._system)
        if column is LibraryColumn.NAME:
            return "\n\n".join(part for part in (entry.name, entry.tags, entry.notes) if part)
        return None

    def roleNames(self) -> dict[int, QByteArray]:
        names = dict(super().roleNames())
        names[LibraryRole.ENTRY] = QByteArray(b"entry")
        names[LibraryRole.ENTRY_ID] = QByteArray(b"entryId")
        return names
