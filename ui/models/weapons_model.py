"""A combatant's or a library entry's weapons as a table: the name, then one column per weapon field of the game.

The columns come from :meth:`RuleSystem.weapon_fields` (never from a game's name); the model keeps whatever the
GM types, valid or not, so a refusal can be shown next to the table without losing it. A text field is shown and
typed in the GM's language (SR3's damage code in the level letters of their book) and kept as the game stores it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any, Final

from PySide6.QtCore import QAbstractTableModel, QByteArray, QModelIndex, QObject, QPersistentModelIndex, Qt

from app.i18n import _
from rules.encounter import JsonValue, Weapon, frozen_map
from rules.systems.base import OptionKind, OptionSpec
from rules.weapons import MAGAZINE, ROUNDS

Index = QModelIndex | QPersistentModelIndex

#: The first column: the weapon's name; the game's fields follow in their own order.
NAME_COLUMN: Final[int] = 0
_CHECKED = (Qt.CheckState.Checked, Qt.CheckState.Checked.value)


class WeaponRole(IntEnum):
    """Named roles of the weapons table."""

    SPEC = Qt.ItemDataRole.UserRole + 1  # the column's OptionSpec (None in the name column)
    WEAPON = Qt.ItemDataRole.UserRole + 2  # the row's Weapon as typed


@dataclass
class _Row:
    name: str
    values: dict[str, JsonValue] = field(default_factory=dict)

    def weapon(self) -> Weapon:
        return Weapon(self.name, frozen_map(self.values))


def choice_label(spec: OptionSpec, value: JsonValue) -> str:
    """A CHOICE field's value as the GM reads it (an unknown value as it is)."""
    return next((_(label) for choice, label in spec.choices if choice == value), str(value))


class WeaponsModel(QAbstractTableModel):
    """Rows of weapons as typed; :meth:`weapons` hands them back (checking is the editor's)."""

    def __init__(self, fields: Sequence[OptionSpec], parent: QObject | None = None,
                 shown: Callable[[str, JsonValue], JsonValue] = lambda _key, value: value,
                 typed: Callable[[str, str], JsonValue] = lambda _key, text: text) -> None:
        super().__init__(parent)
        self._fields = tuple(fields)
        self._rows: list[_Row] = []
        self._shown, self._typed = shown, typed  # RuleSystem.shown_weapon_value and typed_weapon_value

    @property
    def fields(self) -> tuple[OptionSpec, ...]:
        """The game's weapon fields, one column each after the name."""
        return self._fields

    def spec(self, column: int) -> OptionSpec | None:
        """The field shown in ``column`` (None: the name column, or none)."""
        return self._fields[column - 1] if 1 <= column <= len(self._fields) else None

    def column_of(self, key: str) -> int:
        """The column of the field ``key`` (-1: the game has no such field)."""
        return next((number + 1 for number, spec in enumerate(self._fields) if spec.key == key), -1)

    def set_weapons(self, weapons: Iterable[Weapon]) -> None:
        """Show these weapons (the rows typed so far are dropped)."""
        self.beginResetModel()
        self._rows = [_Row(weapon.name, dict(weapon.values)) for weapon in weapons]
        self.endResetModel()

    def weapons(self) -> tuple[Weapon, ...]:
        """The weapons as typed, unchecked."""
        return tuple(row.weapon() for row in self._rows)

    def weapon(self, row: int) -> Weapon | None:
        """The weapon of ``row`` as typed."""
        return self._rows[row].weapon() if 0 <= row < len(self._rows) else None

    def insert_weapon(self, row: int, weapon: Weapon) -> int:
        """Insert ``weapon`` before ``row`` (clamped); returns the row it went to."""
        row = max(0, min(row, len(self._rows)))
        self.beginInsertRows(QModelIndex(), row, row)
        self._rows.insert(row, _Row(weapon.name, dict(weapon.values)))
        self.endInsertRows()
        return row

    def remove_weapon(self, row: int) -> None:
        """Take the weapon of ``row`` out."""
        if 0 <= row < len(self._rows):
            self.beginRemoveRows(QModelIndex(), row, row)
            del self._rows[row]
            self.endRemoveRows()

    def move_weapon(self, row: int, delta: int) -> int:
        """Move the weapon of ``row`` up (−1) or down (+1); returns its row afterwards."""
        target = row + delta
        if not (0 <= row < len(self._rows) and 0 <= target < len(self._rows)) or delta == 0:
            return row
        # Qt's destination is the row the moved one goes before, counted before the move.
        if not self.beginMoveRows(QModelIndex(), row, row, QModelIndex(), target + 1 if delta > 0 else target):
            return row
        self._rows.insert(target, self._rows.pop(row))
        self.endMoveRows()
        return target

    # --- Qt's interface ---------------------------------------------------------------------------
    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else 1 + len(self._fields)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < self.columnCount():
            return super().headerData(section, orientation, role)
        spec = self.spec(section)
        if role == Qt.ItemDataRole.DisplayRole:
            return _("Name") if spec is None else _(spec.label)
        if role == Qt.ItemDataRole.ToolTipRole and spec is not None:
            return _(spec.help) if spec.help else _(spec.label)
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        base = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        spec = self.spec(index.column())
        if spec is not None and spec.kind is OptionKind.BOOL:
            return base | Qt.ItemFlag.ItemIsUserCheckable
        return base | Qt.ItemFlag.ItemIsEditable

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row, spec = self._rows[index.row()], self.spec(index.column())
        if role == WeaponRole.SPEC:
            return spec
        if role == WeaponRole.WEAPON:
            return row.weapon()
        if spec is None:
            return row.name if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole) else None
        value = row.values.get(spec.key, spec.default)
        if spec.kind is OptionKind.TEXT:
            value = self._shown(spec.key, value)
        return self._field_data(spec, value, role)

    @staticmethod
    def _field_data(spec: OptionSpec, value: JsonValue, role: int) -> Any:
        if spec.kind is OptionKind.BOOL:
            if role == Qt.ItemDataRole.CheckStateRole:
                return Qt.CheckState.Checked if value is True else Qt.CheckState.Unchecked
            return (_("yes") if value is True else _("no")) if role == Qt.ItemDataRole.AccessibleTextRole else None
        if role == Qt.ItemDataRole.EditRole:
            return value
        if role == Qt.ItemDataRole.DisplayRole:
            return choice_label(spec, value) if spec.kind is OptionKind.CHOICE else value
        if role == Qt.ItemDataRole.TextAlignmentRole and spec.kind is OptionKind.INT:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ToolTipRole and spec.help:
            return _(spec.help)
        return None

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return False
        row, spec = self._rows[index.row()], self.spec(index.column())
        if spec is None:
            if role != Qt.ItemDataRole.EditRole or not isinstance(value, str):
                return False
            row.name = value
        elif spec.kind is OptionKind.BOOL:
            if role != Qt.ItemDataRole.CheckStateRole:
                return False
            row.values[spec.key] = value in _CHECKED
        elif role == Qt.ItemDataRole.EditRole:
            typed = self._typed(spec.key, value) if spec.kind is OptionKind.TEXT and isinstance(value, str) else value
            self._set_value(index.row(), spec, typed)
        else:
            return False
        self.dataChanged.emit(index, index)
        return True

    def _set_value(self, row_number: int, spec: OptionSpec, value: JsonValue) -> None:
        row = self._rows[row_number]
        previous = row.values.get(spec.key, spec.default)
        row.values[spec.key] = value
        rounds_column = self.column_of(ROUNDS)
        # A full magazine stays full when its size changes (a new weapon is typed loaded, not empty).
        if spec.key == MAGAZINE and rounds_column > 0:
            rounds_spec = self._fields[rounds_column - 1]
            if row.values.get(ROUNDS, rounds_spec.default) == previous:
                row.values[ROUNDS] = value
                rounds = self.index(row_number, rounds_column)
                self.dataChanged.emit(rounds, rounds)

    def roleNames(self) -> dict[int, QByteArray]:
        names = dict(super().roleNames())
        names[WeaponRole.SPEC] = QByteArray(b"spec")
        names[WeaponRole.WEAPON] = QByteArray(b"weapon")
        return names
