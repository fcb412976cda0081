"""The weapons editor: a table of a combatant's or a library entry's weapons in its game's own fields.

One row per weapon: its name, then one column per :meth:`RuleSystem.weapon_fields` spec (a check box for a
yes/no field, a spin box within the field's range, a combo of the game's choices, a line for text). Every edit
is checked at once with :func:`rules.weapons.checked_weapons`; a refusal is shown under the table in the GM's
language and nothing typed is lost. A game without weapon fields shows nothing.
"""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, QSize, Qt, Signal
from PySide6.QtGui import QAction, QKeySequence, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.i18n import _
from app.library import copy_name
from rules.encounter import Weapon, frozen_map
from rules.errors import RulesError
from rules.systems.base import OptionKind, RuleSystem
from rules.weapons import MAX_TEXT_VALUE, MAX_WEAPON_NAME, MAX_WEAPONS, checked_weapons
from ui.models.weapons_model import NAME_COLUMN, WeaponRole, WeaponsModel, choice_label
from ui.widgets.inputs import calm
from ui.widgets.messages import show_message, text_label

Index = QModelIndex | QPersistentModelIndex
UNBOUNDED = 99_999  # the range of a whole-number field that names no limit
VISIBLE_ROWS = 4  # the table's height before it scrolls
NAME_CHARACTERS = 18  # the narrowest the name column gets


class WeaponDelegate(QStyledItemDelegate):
    """The editor a cell's field asks for (the name and text fields: a line; numbers: a calm spin box; choices:
    a calm combo of translated labels); yes/no fields are check boxes of the model itself."""

    def createEditor(self, parent: QWidget, option: QStyleOptionViewItem, index: Index) -> QWidget:
        spec = index.data(WeaponRole.SPEC)
        if spec is None or spec.kind is OptionKind.TEXT:
            line = QLineEdit(parent)
            line.setMaxLength(MAX_WEAPON_NAME if spec is None else MAX_TEXT_VALUE)
            return line
        if spec.kind is OptionKind.INT:
            box = QSpinBox(parent)
            calm(box)
            box.setRange(-UNBOUNDED if spec.minimum is None else spec.minimum,
                         UNBOUNDED if spec.maximum is None else spec.maximum)
            return box
        combo = QComboBox(parent)
        calm(combo)
        for value, label in spec.choices:
            combo.addItem(_(label), value)
        return combo

    def initStyleOption(self, option: QStyleOptionViewItem, index: Index) -> None:
        super().initStyleOption(option, index)
        spec = index.data(WeaponRole.SPEC)
        if spec is not None and spec.kind is OptionKind.BOOL:
            # A check box drawn on the row's own colour vanished in the dark theme: fill it as a button is.
            option.palette.setColor(QPalette.ColorRole.Base, option.palette.color(QPalette.ColorRole.Button))

    def setEditorData(self, editor: QWidget, index: Index) -> None:
        value = index.data(Qt.ItemDataRole.EditRole)
        if isinstance(editor, QLineEdit):
            editor.setText("" if value is None else str(value))
        elif isinstance(editor, QSpinBox):
            number = value if isinstance(value, int) and not isinstance(value, bool) else 0
            editor.setRange(min(editor.minimum(), number), max(editor.maximum(), number))  # shown, not clamped
            editor.setValue(number)
        elif isinstance(editor, QComboBox):
            editor.setCurrentIndex(max(0, editor.findData(value)))

    def setModelData(self, editor: QWidget, model: QAbstractItemModel, index: Index) -> None:
        if isinstance(editor, QLineEdit):
            model.setData(index, editor.text())
        elif isinstance(editor, QSpinBox):
            editor.interpretText()
            model.setData(index, editor.value())
        elif isinstance(editor, QComboBox):
            model.setData(index, editor.currentData())


class WeaponsEditor(QWidget):
    """Edit a list of weapons; :meth:`weapons` is what was typed, :meth:`checked` what the game accepts."""

    changed = Signal()  # the weapons as typed changed (:meth:`problem` says whether the game accepts them)

    def __init__(self, system: RuleSystem, weapons: tuple[Weapon, ...] = (), parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._system = system
        self._problem = ""
        self._wanted_width = 0  # set with the table: room for every column
        self.model = WeaponsModel(system.weapon_fields(), self, system.shown_weapon_value, system.typed_weapon_value)
        self.table = self._make_table()
        self.add_button = QPushButton(_("Add &weapon"))
        self.duplicate_button = QPushButton(_("D&uplicate"))
        self.remove_button = QPushButton(_("Re&move"))
        self.up_button = self._arrow(Qt.ArrowType.UpArrow, _("Move up"), "Ctrl+Up")
        self.down_button = self._arrow(Qt.ArrowType.DownArrow, _("Move down"), "Ctrl+Down")
        self.message = text_label()
        self._build_layout()
        self._connect()
        self.set_weapons(weapons)
        self.setVisible(bool(self.model.fields))  # a game that keeps no weapons: nothing to edit

    # --- building -------------------------------------------------------------------------------
    def _make_table(self) -> QTableView:
        table = QTableView()
        table.setModel(self.model)
        table.setItemDelegate(WeaponDelegate(table))
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        table.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked | QAbstractItemView.EditTrigger.EditKeyPressed
                              | QAbstractItemView.EditTrigger.AnyKeyPressed
                              | QAbstractItemView.EditTrigger.SelectedClicked)
        table.setTabKeyNavigation(False)  # Tab leaves the table for the buttons; arrows move between cells
        table.setWordWrap(False)
        table.setAlternatingRowColors(True)
        table.verticalHeader().hide()
        table.setAccessibleName(_("Weapons"))
        header = table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(False)
        widths = [self._column_width(column) for column in range(1, self.model.columnCount())]
        for column, width in enumerate(widths, start=1):
            header.resizeSection(column, width)
        header.setMinimumSectionSize(self.fontMetrics().averageCharWidth() * 4)
        # The name keeps a readable width; the window asks for room for every column (sizeHint) but never more
        # than the screen: SR3's thirteen fields are wider than a laptop's screen, and the table then scrolls.
        name = max(self._column_width(NAME_COLUMN), self.fontMetrics().averageCharWidth() * NAME_CHARACTERS)
        header.resizeSection(NAME_COLUMN, name)
        header.setStretchLastSection(True)
        frame = 2 * table.frameWidth() + table.verticalScrollBar().sizeHint().width()
        self._wanted_width = sum(widths) + name + frame
        table.setMinimumWidth(name + frame)
        rows = table.verticalHeader().defaultSectionSize() * VISIBLE_ROWS
        table.setMinimumHeight(header.sizeHint().height() + rows + 2 * table.frameWidth())
        return table

    def sizeHint(self) -> QSize:
        """Room for every column (a dialog sizes itself from this, within the screen)."""
        hint = super().sizeHint()
        margins = self.contentsMargins()
        return QSize(max(hint.width(), self._wanted_width + margins.left() + margins.right()), hint.height())

    def _column_width(self, column: int) -> int:
        """Wide enough for the header and for the widest value the field can hold."""
        spec = self.model.spec(column)
        metrics = self.fontMetrics()
        header = metrics.horizontalAdvance(str(self.model.headerData(column, Qt.Orientation.Horizontal))) + 24
        if spec is None:
            return header
        if spec.kind is OptionKind.BOOL:
            content = 32
        elif spec.kind is OptionKind.INT:
            widest = max(len(str(spec.minimum if spec.minimum is not None else -UNBOUNDED)),
                         len(str(spec.maximum if spec.maximum is not None else UNBOUNDED)))
            content = metrics.horizontalAdvance("8" * widest) + 44  # the spin box's arrows
        elif spec.kind is OptionKind.CHOICE:
            content = max((metrics.horizontalAdvance(choice_label(spec, value)) for value, _label in spec.choices),
                          default=0) + 44
        else:
            content = metrics.horizontalAdvance("M" * 6) + 16
        return max(header, content)

    def _arrow(self, arrow: Qt.ArrowType, tip: str, keys: str) -> QToolButton:
        button = QToolButton()
        button.setArrowType(arrow)
        text = _("{action} ({keys})").format(action=tip, keys=QKeySequence(keys).toString(
            QKeySequence.SequenceFormat.NativeText))
        button.setToolTip(text)
        button.setAccessibleName(tip)
        return button

    def _build_layout(self) -> None:
        buttons = QHBoxLayout()
        for button in (self.add_button, self.duplicate_button, self.remove_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        buttons.addWidget(self.up_button)
        buttons.addWidget(self.down_button)
        # Room for two lines of message, kept while there is none: a refusal never pushes the form down.
        self.message.setMinimumHeight(self.fontMetrics().lineSpacing() * 2)
        self.message.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.table, 1)
        layout.addLayout(buttons)
        layout.addWidget(self.message)

    def _connect(self) -> None:
        self.add_button.clicked.connect(self.add_weapon)
        self.duplicate_button.clicked.connect(self.duplicate_weapon)
        self.remove_button.clicked.connect(self.remove_weapon)
        self.up_button.clicked.connect(lambda: self.move_weapon(-1))
        self.down_button.clicked.connect(lambda: self.move_weapon(1))
        for keys, slot in (("Ins", self.add_weapon), ("Del", self.remove_weapon),
                           ("Ctrl+Up", lambda: self.move_weapon(-1)), ("Ctrl+Down", lambda: self.move_weapon(1))):
            action = QAction(self.table)
            action.setShortcut(QKeySequence(keys))
            action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)  # not while a cell is being edited
            action.triggered.connect(slot)
            self.table.addAction(action)
        for signal in (self.model.dataChanged, self.model.rowsInserted, self.model.rowsRemoved,
                       self.model.rowsMoved, self.model.modelReset):
            signal.connect(self._on_model_changed)
        self.table.selectionModel().currentChanged.connect(self._update_buttons)

    # --- public -----------------------------------------------------------------------------------
    def has_fields(self) -> bool:
        """Whether the game keeps weapons at all."""
        return bool(self.model.fields)

    def set_weapons(self, weapons: tuple[Weapon, ...]) -> None:
        """Start over from these weapons."""
        self.model.set_weapons(weapons)
        if weapons:
            self.table.setCurrentIndex(self.model.index(0, NAME_COLUMN))

    def weapons(self) -> tuple[Weapon, ...]:
        """The weapons as typed (unchecked: see :meth:`checked`)."""
        return self.model.weapons()

    def checked(self) -> tuple[Weapon, ...]:
        """The weapons as the game accepts them (normalised); RulesError says what is wrong."""
        return checked_weapons(self.model.weapons(), self._system)

    def problem(self) -> str:
        """Why the game refuses the weapons as typed ("": it accepts them)."""
        return self._problem

    def current_row(self) -> int:
        """The row of the weapon the cursor is on (-1: none)."""
        index = self.table.currentIndex()
        return index.row() if index.isValid() else -1

    # --- editing ----------------------------------------------------------------------------------
    def add_weapon(self) -> None:
        """A new weapon after the current one, its fields at their defaults, its name ready to be typed."""
        if self.model.rowCount() >= MAX_WEAPONS:
            return
        taken = {weapon.name.casefold() for weapon in self.weapons()}
        name = next(name for name in (_("Weapon {number}").format(number=n) for n in range(1, MAX_WEAPONS + 2))
                    if name.casefold() not in taken)
        values = frozen_map({spec.key: spec.default for spec in self.model.fields})
        row = self.model.insert_weapon(self.current_row() + 1, Weapon(name, values))
        self._edit_name(row)

    def duplicate_weapon(self) -> None:
        """A copy of the current weapon right after it, under a name of its own."""
        weapon = self.model.weapon(self.current_row())
        if weapon is None or self.model.rowCount() >= MAX_WEAPONS:
            return
        name = copy_name(weapon.name, (other.name for other in self.weapons()), MAX_WEAPON_NAME)
        row = self.model.insert_weapon(self.current_row() + 1, Weapon(name, weapon.values))
        self._edit_name(row)

    def remove_weapon(self) -> None:
        """Take the current weapon out (the cursor stays on its row, or the one above)."""
        row = self.current_row()
        if row < 0:
            return
        column = max(0, self.table.currentIndex().column())
        self.model.remove_weapon(row)
        if self.model.rowCount():
            self.table.setCurrentIndex(self.model.index(min(row, self.model.rowCount() - 1), column))

    def move_weapon(self, delta: int) -> None:
        """Move the current weapon up (−1) or down (+1), the cursor with it."""
        row = self.current_row()
        if row < 0:
            return
        column = self.table.currentIndex().column()
        self.table.setCurrentIndex(self.model.index(self.model.move_weapon(row, delta), column))
        self._update_buttons()

    def _edit_name(self, row: int) -> None:
        index = self.model.index(row, NAME_COLUMN)
        self.table.setCurrentIndex(index)
        self.table.setFocus()
        self.table.edit(index)

    # --- reacting ---------------------------------------------------------------------------------
    def _on_model_changed(self) -> None:
        try:
            self.checked()
        except RulesError as problem:
            self._problem = str(problem)
        else:
            self._problem = ""
        show_message(self.message, self._problem, error=True)
        self._update_buttons()
        self.changed.emit()

    def _update_buttons(self) -> None:
        row, count = self.current_row(), self.model.rowCount()
        self.add_button.setEnabled(count < MAX_WEAPONS)
        self.duplicate_button.setEnabled(row >= 0 and count < MAX_WEAPONS)
        self.remove_button.setEnabled(row >= 0)
        self.up_button.setEnabled(row > 0)
        self.down_button.setEnabled(0 <= row < count - 1)

