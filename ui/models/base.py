"""What every table model over the encounter shares: enum columns with translated headers."""

from __future__ import annotations

from collections.abc import Mapping
from enum import IntEnum
from typing import Any, ClassVar

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

from app.i18n import _

Index = QModelIndex | QPersistentModelIndex


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
