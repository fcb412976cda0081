"""A game's data table (an encounter option) edited as a form, not as JSON.

Three shapes cover the games' tables: named numbers or texts (Institute's dice modifiers, Člověk's capacity names)
become a form of fields; named records (Institute's weapons and wound pyramid, Člověk's track sizes) become a grid,
a row per record and a column per field, with rows to add and remove; names each choosing some of a set (Walka's
defences against each attack skill) become a grid of check boxes. Cells are typed by their column (whole
numbers, yes/no boxes, texts); a cell left empty is a field the record does not have, or "none" where the table
uses that (a called shot at the pistol does no damage). Anything else (SR3's nested tables) stays JSON.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.i18n import _
from rules.encounter import JsonValue
from rules.errors import RulesError

#: The spin boxes' range: far past any table's numbers, short of nonsense.
NUMBER_LIMIT = 99_999


class Shape(Enum):
    """How a table is edited."""

    FIELDS = "fields"  # name → number or text
    RECORDS = "records"  # name → {field → number, yes/no or text}
    CHOICES = "choices"  # name → some of a set of names (Walka: attack skill → the defences that answer it)


def _is_scalar(value: object) -> bool:
    return value is None or isinstance(value, bool | int | float | str)


def table_shape(value: object) -> Shape | None:
    """The form that edits ``value``, or None (JSON stays the editor)."""
    if not isinstance(value, Mapping) or not value:
        return None
    if all(_is_scalar(item) and item is not None for item in value.values()):
        return Shape.FIELDS
    if all(isinstance(item, Mapping) and item and all(_is_scalar(field) for field in item.values())
           for item in value.values()):
        return Shape.RECORDS
    if all(isinstance(item, tuple | list) and all(isinstance(name, str) for name in item) for item in value.values()):
        return Shape.CHOICES
    return None


def _column_type(values: list[JsonValue]) -> type:
    """A column's type from the values it holds (bool before int: a bool is an int in Python)."""
    present = [value for value in values if value is not None]
    for kind in (bool, int, float):
        if present and all(isinstance(value, kind) and (kind is bool or not isinstance(value, bool))
                           for value in present):
            return kind
    return str


def _number_text(value: JsonValue) -> str:
    return "" if value is None else str(value)


class TableOptionEditor(QWidget):
    """Edit one table option; :meth:`value` reads it back (RulesError naming the cell when one is unreadable)."""

    def __init__(self, label: str, value: Mapping[str, JsonValue], names: Mapping[str, str] | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._label = label
        self._names = dict(names or {})  # data key → the label shown (translated)
        shape = table_shape(value)
        if shape is None:
            raise ValueError("not a table this editor knows")
        self.shape = shape
        self._original = {key: dict(item) if isinstance(item, Mapping) else item for key, item in value.items()}
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        if shape is Shape.FIELDS:
            self._fields: dict[str, QWidget] = {}
            layout.addLayout(self._fields_form())
        elif shape is Shape.CHOICES:
            self.grid = self._choices_grid()
            layout.addWidget(self.grid)
        else:
            self._columns = self._record_columns()
            self.grid = self._records_grid()
            layout.addWidget(self.grid)
            layout.addLayout(self._row_buttons())

    # --- named numbers or texts -------------------------------------------------------------------
    def _fields_form(self) -> QFormLayout:
        form = QFormLayout()
        form.setContentsMargins(0, 0, 0, 0)
        for key, item in self._original.items():
            editor: QWidget
            if isinstance(item, bool):
                editor = QCheckBox()
                editor.setChecked(item)
            elif isinstance(item, int):
                editor = QSpinBox(minimum=-NUMBER_LIMIT, maximum=NUMBER_LIMIT)
                editor.setValue(item)
            else:
                editor = QLineEdit(str(item))
            editor.setAccessibleName(key)
            self._fields[key] = editor
            form.addRow(self._shown(key), editor)
        return form

    def _read_fields(self) -> dict[str, JsonValue]:
        result: dict[str, JsonValue] = {}
        for key, editor in self._fields.items():
            original = self._original[key]
            if isinstance(editor, QCheckBox):
                result[key] = editor.isChecked()
            elif isinstance(editor, QSpinBox):
                result[key] = editor.value()
            else:
                assert isinstance(editor, QLineEdit)
                result[key] = self._parsed(editor.text(), type(original), key, "")
        return result

    def _shown(self, key: str) -> str:
        """A field's name as the GM reads it (the game's label, else the key in words)."""
        return self._names.get(key) or key.replace("_", " ")

    # --- named records ----------------------------------------------------------------------------
    def _record_columns(self) -> list[tuple[str, type, bool]]:
        """(field, type, whether an empty cell means "none") in the order the records first name them."""
        names: list[str] = []
        for record in self._original.values():
            assert isinstance(record, dict)
            names += [name for name in record if name not in names]
        columns = []
        for name in names:
            values = [record[name] for record in self._original.values()
                      if isinstance(record, dict) and name in record]
            columns.append((name, _column_type(values), any(value is None for value in values)))
        return columns

    def _records_grid(self) -> QTableWidget:
        grid = QTableWidget(0, len(self._columns) + 1)
        grid.setHorizontalHeaderLabels([_("Name"), *(self._shown(name) for name, _kind, _n in self._columns)])
        grid.verticalHeader().setVisible(False)
        grid.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        grid.horizontalHeader().setStretchLastSection(True)
        grid.setAccessibleName(self._label)
        for key, record in self._original.items():
            assert isinstance(record, dict)
            self._add_row(grid, key, record)
        grid.setMinimumHeight(grid.verticalHeader().defaultSectionSize() * min(8, len(self._original) + 2))
        grid.resizeColumnsToContents()
        # Wide enough for every column: the dialog is sized for its form, and a grid scrolling sideways in it hid
        # the Institute's "armor" column.
        grid.setMinimumWidth(grid.horizontalHeader().length() + 2 * grid.frameWidth()
                             + grid.verticalScrollBar().sizeHint().width())
        return grid

    def _add_row(self, grid: QTableWidget, key: str, record: Mapping[str, JsonValue]) -> None:
        row = grid.rowCount()
        grid.insertRow(row)
        name = QTableWidgetItem(key)
        name.setData(Qt.ItemDataRole.UserRole, key if key in self._original else None)  # the record it was
        if key in self._names:  # one of the game's own rows (a wound class, a bank): its name shown, not renamed
            name.setText(self._names[key])
            name.setFlags(name.flags() & ~Qt.ItemFlag.ItemIsEditable)
        grid.setItem(row, 0, name)
        for column, (field, kind, _nullable) in enumerate(self._columns, start=1):
            item = QTableWidgetItem()
            if kind is bool:
                item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable | Qt.ItemFlag.ItemIsUserCheckable)
                item.setCheckState(Qt.CheckState.Checked if record.get(field) is True else Qt.CheckState.Unchecked)
            else:
                item.setText(_number_text(record.get(field)))
            grid.setItem(row, column, item)

    def _row_buttons(self) -> QHBoxLayout:
        add, remove = QPushButton(_("Add a row")), QPushButton(_("Remove the row"))
        add.setAutoDefault(False)
        remove.setAutoDefault(False)
        add.clicked.connect(self.add_row)
        remove.clicked.connect(self.remove_row)
        row = QHBoxLayout()
        row.addWidget(add)
        row.addWidget(remove)
        row.addStretch(1)
        return row

    def add_row(self) -> None:
        """A new record, its name to be typed (the cell is ready for it)."""
        self._add_row(self.grid, "", {})
        self.grid.setCurrentCell(self.grid.rowCount() - 1, 0)
        name = self.grid.item(self.grid.rowCount() - 1, 0)
        if name is not None:
            self.grid.editItem(name)

    def remove_row(self) -> None:
        """Remove the record of the current row."""
        if self.grid.currentRow() >= 0:
            self.grid.removeRow(self.grid.currentRow())

    def _read_records(self) -> dict[str, JsonValue]:
        result: dict[str, JsonValue] = {}
        for row in range(self.grid.rowCount()):
            name_item = self.grid.item(row, 0)
            key = self._row_key(name_item)
            if not key:
                raise RulesError(_("“{table}”, row {row}: every row needs a name.").format(
                    table=self._label, row=row + 1))
            if key in result:
                raise RulesError(_("“{table}”: two rows are named “{name}”.").format(table=self._label, name=key))
            was = name_item.data(Qt.ItemDataRole.UserRole) if name_item is not None else None
            original = self._original.get(was, {}) if isinstance(was, str) else {}
            assert isinstance(original, dict)
            result[key] = self._read_record(row, key, original)
        return result

    def _row_key(self, name_item: QTableWidgetItem | None) -> str:
        """The data key of a row: a named row of the game's keeps its key, a typed one is its text."""
        if name_item is None:
            return ""
        was = name_item.data(Qt.ItemDataRole.UserRole)
        if isinstance(was, str) and was in self._names and not name_item.flags() & Qt.ItemFlag.ItemIsEditable:
            return was
        return name_item.text().strip()

    def _read_record(self, row: int, key: str, original: Mapping[str, JsonValue]) -> dict[str, JsonValue]:
        record: dict[str, JsonValue] = {}
        for column, (field, kind, nullable) in enumerate(self._columns, start=1):
            item = self.grid.item(row, column)
            if kind is bool:
                checked = item is not None and item.checkState() == Qt.CheckState.Checked
                if checked or field in original:
                    record[field] = checked
                continue
            text = item.text().strip() if item is not None else ""
            if text:
                record[field] = self._parsed(text, kind, key, field)
            elif nullable or (field in original and original[field] is None):
                record[field] = None
        return record

    # --- names → some of a set of names -----------------------------------------------------------------
    def _choices_grid(self) -> QTableWidget:
        """A row per name, a check box per choice any row names (rows fixed: they are the game's own)."""
        self._choices: list[str] = []
        for chosen in self._original.values():
            assert isinstance(chosen, tuple | list)
            self._choices += [str(name) for name in chosen if name not in self._choices]
        self._choices += [name for name in self._names if name not in self._choices and name not in self._original]
        grid = QTableWidget(len(self._original), len(self._choices))
        grid.setHorizontalHeaderLabels([self._shown(name) for name in self._choices])
        grid.setVerticalHeaderLabels([self._shown(key) for key in self._original])
        grid.setAccessibleName(self._label)
        for row, chosen in enumerate(self._original.values()):
            assert isinstance(chosen, tuple | list)
            for column, name in enumerate(self._choices):
                item = QTableWidgetItem()
                item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable)
                item.setCheckState(Qt.CheckState.Checked if name in chosen else Qt.CheckState.Unchecked)
                grid.setItem(row, column, item)
        grid.resizeColumnsToContents()
        grid.setMinimumWidth(grid.horizontalHeader().length() + grid.verticalHeader().width()
                             + 2 * grid.frameWidth() + 4)
        grid.setMinimumHeight(grid.verticalHeader().length() + grid.horizontalHeader().height()
                              + 2 * grid.frameWidth() + 4)
        return grid

    def _read_choices(self) -> dict[str, JsonValue]:
        result: dict[str, JsonValue] = {}
        for row, key in enumerate(self._original):
            checked = [name for column, name in enumerate(self._choices)
                       if (item := self.grid.item(row, column)) is not None
                       and item.checkState() == Qt.CheckState.Checked]
            result[key] = tuple(checked)
        return result

    # --- reading -----------------------------------------------------------------------------------
    def _parsed(self, text: str, kind: type, row: str, field: str) -> JsonValue:
        place = f"{row} · {self._shown(field)}" if field else self._shown(row)
        if kind is str:
            return text
        try:
            number = float(text.replace("−", "-").replace(",", ".")) if kind is float else int(
                text.replace("−", "-"))
        except ValueError:
            expected = _("a whole number") if kind is int else _("a number")
            raise RulesError(_("“{table}”, {place}: “{text}” is not {expected}.").format(
                table=self._label, place=place, text=text, expected=expected)) from None
        if abs(number) > NUMBER_LIMIT:
            raise RulesError(_("“{table}”, {place}: {number} is too large.").format(
                table=self._label, place=place, number=text))
        return number

    def value(self) -> JsonValue:
        """The table as edited (RulesError naming the table, row and field of an unreadable cell)."""
        readers = {Shape.FIELDS: self._read_fields, Shape.RECORDS: self._read_records,
                   Shape.CHOICES: self._read_choices}
        read = readers[self.shape]()
        table: JsonValue = read
        return table
