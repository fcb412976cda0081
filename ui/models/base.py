"""What every table model over the encounter shares: enum columns with translated headers, and rows that
follow the fight by insertions, removals and moves (never a reset, so selections stay on their rows)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from enum import IntEnum
from typing import Any, ClassVar, TypeVar

from PySide6.QtCore import QAbstractItemModel, QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from app.i18n import _

Index = QModelIndex | QPersistentModelIndex
Key = TypeVar("Key", bound=Hashable)


def _runs(rows: Sequence[int]) -> list[tuple[int, int]]:
    """Ascending row numbers as (first, last) runs of consecutive rows."""
    runs: list[tuple[int, int]] = []
    for row in rows:
        if runs and runs[-1][1] == row - 1:
            runs[-1] = (runs[-1][0], row)
        else:
            runs.append((row, row))
    return runs


def sync_rows(model: QAbstractItemModel, old: Sequence[Key], new: Sequence[Key],
              show: Callable[[list[Key]], None]) -> None:
    """Turn the flat rows keyed ``old`` into ``new``: removals, one layout change if the rows that stay are
    reordered, then insertions, each announced as it happens.

    ``show(keys)`` makes the model hold exactly those rows; it is called between each step's begin and end, so
    the model always agrees with what it has announced. Keys are unique within ``old`` and within ``new``.
    """
    current = list(old)
    wanted = set(new)
    for first, last in reversed(_runs([row for row, key in enumerate(current) if key not in wanted])):
        model.beginRemoveRows(QModelIndex(), first, last)
        del current[first:last + 1]
        show(list(current))
        model.endRemoveRows()
    kept = set(current)
    order = [key for key in new if key in kept]
    if order != current:
        _move(model, current, order, show)
    current = order
    for first, last in _runs([row for row, key in enumerate(new) if key not in kept]):
        model.beginInsertRows(QModelIndex(), first, last)
        current[first:first] = new[first:last + 1]
        show(list(current))
        model.endInsertRows()


def _move(model: QAbstractItemModel, current: list[Key], order: list[Key], show: Callable[[list[Key]], None]) -> None:
    """The same rows in another order: persistent indexes (selection, current row) follow their rows."""
    model.layoutAboutToBeChanged.emit()
    where = {key: row for row, key in enumerate(order)}
    moved_from = model.persistentIndexList()
    show(list(order))
    moved_to = [model.index(where[current[index.row()]], index.column(), index.parent()) for index in moved_from]
    model.changePersistentIndexList(moved_from, moved_to)
    model.layoutChanged.emit()


class EnumTableModel(QAbstractTableModel):
    """A flat table whose columns are an IntEnum and whose rows are ids in ``self._ids``."""

    COLUMNS: ClassVar[type[IntEnum]]
    HEADERS: ClassVar[Mapping[Any, str]]  # column → English header, translated when shown

    def __init__(self) -> None:
        super().__init__()
        self._ids: list[str] = []

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else len(self._ids)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole and (
                0 <= section < len(self.COLUMNS)):
            return _(self.HEADERS[self.COLUMNS(section)])
        return None

    def _sync_ids(self, new_ids: Sequence[str]) -> None:
        """Rows follow ``new_ids`` by insertions, removals and moves."""
        if list(new_ids) != self._ids:
            sync_rows(self, self._ids, new_ids, self._show_ids)

    def _show_ids(self, ids: list[str]) -> None:
        self._ids = ids
