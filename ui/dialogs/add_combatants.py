"""Add combatants (ux.md step 2): from the roster and bestiary with a count, or quick-add by name and numbers.

Everything one click adds goes through one ``document.apply(Batch(...))``, so one Undo removes it. What to ask
for (which numbers, their names and ranges) comes from the game's RuleSystem, never from a game's name. The
roster and bestiary list is also where entries are kept up: new, edit (F2), duplicate (Ctrl+D), delete (Del,
after a confirmation naming the entry).
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass

from PySide6.QtCore import QModelIndex, Qt, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.document import EncounterDocument
from app.i18n import _, ngettext
from app.library import EntryKind, Library, LibraryEntry, LibraryError, to_operations
from rules.encounter import SIDE_LABELS, Side
from rules.errors import RulesError
from rules.history import Batch
from rules.systems.base import RuleSystem
from ui.dialogs.library_entry import EntryDialog, blank_entry
from ui.models.library_model import LibraryColumn, LibraryModel, LibraryRole
from ui.widgets.attribute_grid import attribute_box, attribute_group
from ui.widgets.messages import show_message

MAX_COUNT = 20


@dataclass(frozen=True)
class AddRequest:
    """What the GM asked one tab to add."""

    entry: LibraryEntry
    count: int
    group: str | None
    shared_monitor: bool
    side: Side | None = None
    save: bool = False  # also store the entry in the roster or bestiary
    seat: str | None = None  # who acts for them (Walka: an ally in its player's seat); None: the game's default


def names_summary(names: Sequence[str]) -> str:
    """``Ganger 1–3`` for a numbered run, else the names joined."""
    if len(names) > 1:
        first_base, _sep, first_number = names[0].rpartition(" ")
        last_base, _sep, last_number = names[-1].rpartition(" ")
        if first_base == last_base and first_number.isdigit() and last_number.isdigit():
            return f"{first_base} {first_number}–{last_number}"
    return ", ".join(names)


def _count_box() -> QSpinBox:
    box = QSpinBox()
    box.setRange(1, MAX_COUNT)
    box.setPrefix("×")
    box.setAccessibleName(_("Count"))
    return box


def _side_combo(keep_label: str | None = None) -> QComboBox:
    """Sides of the fight; with ``keep_label`` a first item (data None) keeps each entry's own side."""
    combo = QComboBox()
    if keep_label:
        combo.addItem(keep_label, None)
    for side, label in SIDE_LABELS.items():
        combo.addItem(_(label), side.value)
    return combo


def _selected_side(combo: QComboBox) -> Side | None:
    value = combo.currentData()
    return Side(value) if value else None


class GruntGroupFields(QWidget):
    """"Grunt group" (one initiative roll), the group's name, and "one shared condition monitor"."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.enabled_box = QCheckBox(_("&Grunt group (one initiative roll)"))
        self.name_edit = QLineEdit()
        self.name_edit.setPlaceholderText(_("Group name"))
        self.name_edit.setAccessibleName(_("Group name"))
        self.shared_box = QCheckBox(_("One shared condition &monitor"))
        self._name_typed = False
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.enabled_box)
        layout.addWidget(self.name_edit, 1)
        layout.addWidget(self.shared_box)
        self.name_edit.textEdited.connect(self._on_name_typed)
        self.enabled_box.toggled.connect(self._update_enabled)
        self._update_enabled()

    def _on_name_typed(self, text: str) -> None:
        self._name_typed = bool(text)  # cleared by hand: follow the entry's name again

    def _update_enabled(self) -> None:
        on = self.enabled_box.isChecked()
        self.name_edit.setEnabled(on)
        self.shared_box.setEnabled(on)

    def suggest_name(self, name: str) -> None:
        """Prefill the group's name from the entry, unless the GM typed one."""
        if not self._name_typed:
            self.name_edit.setText(name)

    def grouping(self) -> tuple[str | None, bool]:
        """(group name or None, shared monitor); a checked group without a name is refused."""
        if not self.enabled_box.isChecked():
            return None, False
        name = self.name_edit.text().strip()
        if not name:
            raise LibraryError(_("A grunt group needs a name."))
        return name, self.shared_box.isChecked()


class SeatChoice(QWidget):
    """In a game with seats (Walka), whose seat acts for an ally: walka.md, "a player's allies (drones,
    followers) in that player's seat". Shown only for an ally, in a game that has seats (the dialog gives them)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.combo = QComboBox()
        self.combo.setToolTip(_("Whose seat acts for this ally: a player's allies (drones, followers) act in "
                                "that player's seat."))
        self.caption = QLabel(_("Ally o&f (seat):"))
        self.caption.setBuddy(self.combo)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.caption)
        layout.addWidget(self.combo, 1)
        self._seats: tuple[tuple[str, str], ...] = ()
        self._side: Side | None = None

    def set_seats(self, seats: Sequence[tuple[str, str]]) -> None:
        """The seats an ally may act in (the game's, the default first; none: the game has no seats)."""
        chosen = self.combo.currentData()
        self._seats = tuple(seats)
        self.combo.clear()
        for seat, label in self._seats:
            self.combo.addItem(label, seat)
        self.combo.setCurrentIndex(max(0, self.combo.findData(chosen)))
        self.follow_side(self._side)

    def follow_side(self, side: Side | None) -> None:
        """Offered for an ally only."""
        self._side = side
        self.setVisible(self.offered())

    def offered(self) -> bool:
        """Whether the combatant added is an ally in a game with seats."""
        return bool(self._seats) and self._side is Side.ALLY

    def chosen(self) -> str | None:
        """The seat picked (None: not offered, the game's default seat)."""
        seat = self.combo.currentData()
        return seat if self.offered() and isinstance(seat, str) else None


def confirm_delete(parent: QWidget, entry: LibraryEntry) -> bool:
    """Ask before deleting ``entry`` from the library (there is no undo there); Cancel is the default."""
    question = (_("Delete “{name}” from the roster? This cannot be undone.") if entry.kind is EntryKind.PC
                else _("Delete “{name}” from the bestiary? This cannot be undone."))
    box = QMessageBox(QMessageBox.Icon.Question, _("Delete entry"), question.format(name=entry.name),
                      QMessageBox.StandardButton.Cancel, parent)
    delete = box.addButton(_("&Delete"), QMessageBox.ButtonRole.DestructiveRole)
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    box.exec()
    return box.clickedButton() is delete


class RosterTab(QWidget):
    """Search the roster and bestiary, pick an entry, choose how many; keep the entries up."""

    failed = Signal(str)  # the library could not be read; the message for the GM
    told = Signal(str, bool)  # what an edit did (the text, whether it is a problem)
    edited = Signal()  # an entry was saved, duplicated or deleted

    def __init__(self, library: Library, system: RuleSystem, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._library = library
        self._system = system
        self.search_edit = QLineEdit()
        self.search_edit.setPlaceholderText(_("Search names and tags…"))
        self.search_edit.setClearButtonEnabled(True)
        self.search_edit.setAccessibleName(_("Search"))
        self.kind_combo = QComboBox()
        self.kind_combo.addItem(_("Roster and bestiary"), None)
        self.kind_combo.addItem(_("Player characters"), EntryKind.PC.value)
        self.kind_combo.addItem(_("NPC templates"), EntryKind.NPC.value)
        self.campaign_combo = QComboBox()
        self.model = LibraryModel(system, self)
        self.table = self._make_table()
        self.count_box = _count_box()
        self.side_combo = _side_combo(_("Side as saved"))
        self.grunts = GruntGroupFields()
        self.seat = SeatChoice()
        self.new_button = QPushButton(_("&New…"))
        self.edit_button = QPushButton(_("&Edit…"))
        self.duplicate_button = QPushButton(_("Du&plicate"))
        self.delete_button = QPushButton(_("&Delete…"))
        self.entry_dialog: EntryDialog | None = None  # the one open, if any
        self._build_layout()
        self._connect()
        self._add_list_actions()
        self.reload_campaigns()

    def edit_buttons(self) -> list[QPushButton]:
        """New, Edit, Duplicate, Delete, in their order on screen."""
        return [self.new_button, self.edit_button, self.duplicate_button, self.delete_button]

    def _make_table(self) -> QTableView:
        table = QTableView()
        table.setModel(self.model)
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        table.setAlternatingRowColors(True)
        table.setWordWrap(False)
        table.verticalHeader().hide()
        header = table.horizontalHeader()
        for column in (LibraryColumn.NAME, LibraryColumn.KIND, LibraryColumn.CAMPAIGN):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(LibraryColumn.STATS, QHeaderView.ResizeMode.Stretch)
        return table

    def _build_layout(self) -> None:
        filters = QHBoxLayout()
        filters.addWidget(self.search_edit, 1)
        filters.addWidget(self.kind_combo)
        filters.addWidget(self.campaign_combo)
        how = QHBoxLayout()
        for label, widget in ((_("&Count:"), self.count_box), (_("&Side:"), self.side_combo)):
            caption = QLabel(label)
            caption.setBuddy(widget)
            how.addWidget(caption)
            how.addWidget(widget)
            how.addSpacing(12)
        how.addWidget(self.seat, 1)
        edits = QHBoxLayout()
        for button in self.edit_buttons():
            edits.addWidget(button)
        edits.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addLayout(filters)
        layout.addWidget(self.table, 1)
        layout.addLayout(edits)
        layout.addLayout(how)
        layout.addWidget(self.grunts)

    def _connect(self) -> None:
        self.search_edit.textChanged.connect(self.refresh)
        self.side_combo.currentIndexChanged.connect(self._follow_side)
        self.kind_combo.currentIndexChanged.connect(self.refresh)
        self.campaign_combo.currentIndexChanged.connect(self.refresh)
        self.table.selectionModel().currentRowChanged.connect(self._on_current_changed)
        self.model.modelReset.connect(self._update_buttons)
        self.model.rowsRemoved.connect(self._update_buttons)
        self.new_button.clicked.connect(self.new_entry)
        self.edit_button.clicked.connect(self.edit_selected)
        self.duplicate_button.clicked.connect(self.duplicate_selected)
        self.delete_button.clicked.connect(self.delete_selected)

    def _add_list_actions(self) -> None:
        """F2, Ctrl+D and Del within the list (and its right-click menu); elsewhere the keys are the fields'."""
        self.list_actions: dict[str, QAction] = {}
        for name, text, keys, slot in (("edit", _("&Edit…"), "F2", self.edit_selected),
                                       ("duplicate", _("Du&plicate"), "Ctrl+D", self.duplicate_selected),
                                       ("delete", _("&Delete…"), "Del", self.delete_selected)):
            action = QAction(text, self.table)
            action.setShortcut(QKeySequence(keys))
            action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
            action.triggered.connect(slot)
            self.table.addAction(action)
            self.list_actions[name] = action
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        for button, name in ((self.edit_button, "edit"), (self.duplicate_button, "duplicate"),
                             (self.delete_button, "delete")):
            keys = self.list_actions[name].shortcut().toString(QKeySequence.SequenceFormat.NativeText)
            button.setToolTip(_("{action} ({keys})").format(action=button.text().replace("&", ""), keys=keys))

    def reload_campaigns(self) -> None:
        """Refill the campaign filter (keeping the choice) and the results."""
        chosen = self.campaign_combo.currentData()
        try:
            campaigns = self._library.campaigns(self._system.id)
        except RulesError as error:
            campaigns = []
            self.failed.emit(str(error))
        self.campaign_combo.blockSignals(True)
        self.campaign_combo.clear()
        self.campaign_combo.addItem(_("All campaigns"), None)
        for campaign in campaigns:
            self.campaign_combo.addItem(campaign, campaign)
        self.campaign_combo.setCurrentIndex(max(0, self.campaign_combo.findData(chosen)))
        self.campaign_combo.blockSignals(False)
        self.refresh()

    def refresh(self) -> None:
        """Search again with the current filters, keeping the selected entry when it is still shown."""
        kept = self.selected_entry()
        try:
            entries = self._library.search(self.search_edit.text(), system_id=self._system.id,
                                           kind=self.kind_combo.currentData(),
                                           campaign=self.campaign_combo.currentData())
        except RulesError as error:
            entries = []
            self.failed.emit(str(error))
        self.model.set_entries(entries)
        row = self.model.row_of(kept.id) if kept else -1
        if self.model.rowCount():
            self.table.selectRow(max(row, 0))  # Enter right after typing adds the best match
        self._update_buttons()

    def select_entry(self, entry_id: int | None) -> None:
        """Put the cursor on the entry with that id, if it is listed."""
        row = self.model.row_of(entry_id)
        if row >= 0:
            self.table.selectRow(row)

    def _update_buttons(self) -> None:
        picked = self.selected_entry() is not None
        for button in (self.edit_button, self.duplicate_button, self.delete_button):
            button.setEnabled(picked)
        for action in getattr(self, "list_actions", {}).values():
            action.setEnabled(picked)

    # --- keeping the entries up ---------------------------------------------------------------
    def new_entry(self) -> EntryDialog:
        """Open the entry dialog on a new template of this game (a player character when the list shows those)."""
        kind = EntryKind.PC if self.kind_combo.currentData() == EntryKind.PC.value else EntryKind.NPC
        return self._open_entry(blank_entry(self._system, kind))

    def edit_selected(self) -> EntryDialog | None:
        """Open the entry dialog on the picked entry (None: nothing picked)."""
        entry = self.selected_entry()
        if entry is None:
            self.told.emit(_("Pick an entry from the list first."), True)
            return None
        return self._open_entry(entry)

    def _open_entry(self, entry: LibraryEntry) -> EntryDialog:
        dialog = EntryDialog(self._library, self._system, entry, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.saved.connect(self._saved)
        dialog.finished.connect(lambda _result: self.table.setFocus())
        self.entry_dialog = dialog
        dialog.destroyed.connect(lambda: setattr(self, "entry_dialog", None))
        dialog.open()
        return dialog

    def _saved(self, entry: LibraryEntry) -> None:
        self.reload_campaigns()
        self.select_entry(entry.id)
        self.edited.emit()
        self.told.emit(_("Saved “{name}”.").format(name=entry.name), False)

    def duplicate_selected(self) -> LibraryEntry | None:
        """Store a copy of the picked entry and pick the copy."""
        entry = self.selected_entry()
        if entry is None or entry.id is None:
            return None
        try:
            copy = self._library.duplicate(entry.id)
        except RulesError as error:
            self.told.emit(str(error), True)
            return None
        self.refresh()
        self.select_entry(copy.id)
        self.edited.emit()
        self.told.emit(_("Duplicated “{name}” as “{copy}”.").format(name=entry.name, copy=copy.name), False)
        return copy

    def delete_selected(self) -> bool:
        """Delete the picked entry once the GM confirms it."""
        entry = self.selected_entry()
        if entry is None or entry.id is None or not confirm_delete(self, entry):
            return False
        row = self.table.currentIndex().row()
        try:
            self._library.delete(entry.id)
        except RulesError as error:
            self.told.emit(str(error), True)
            return False
        self.reload_campaigns()
        if self.model.rowCount():
            self.table.selectRow(min(row, self.model.rowCount() - 1))
        self.edited.emit()
        self.told.emit(_("Deleted “{name}”.").format(name=entry.name), False)
        return True

    def selected_entry(self) -> LibraryEntry | None:
        """The entry picked in the table."""
        index = self.table.currentIndex()
        entry = index.data(LibraryRole.ENTRY) if index.isValid() else None
        return entry if isinstance(entry, LibraryEntry) else None

    def _on_current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        entry = current.data(LibraryRole.ENTRY) if current.isValid() else None
        if isinstance(entry, LibraryEntry):
            self.grunts.suggest_name(entry.name)
        self._update_buttons()
        self._follow_side()

    def _follow_side(self) -> None:
        """The side the added combatants will have: the one chosen, else the picked entry's."""
        entry = self.selected_entry()
        self.seat.follow_side(_selected_side(self.side_combo) or (entry.side if entry is not None else None))

    def request(self) -> AddRequest:
        """What to add; LibraryError when nothing is picked or the group is incomplete."""
        entry = self.selected_entry()
        if entry is None:
            raise LibraryError(_("Pick an entry from the list first."))
        group, shared = self.grunts.grouping()
        return AddRequest(entry, self.count_box.value(), group, shared, _selected_side(self.side_combo),
                          seat=self.seat.chosen())


class QuickAddTab(QWidget):
    """A name and the numbers the game needs, typed in."""

    def __init__(self, library: Library, system: RuleSystem, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._library = library
        self._system = system
        self.name_edit = QLineEdit()
        self.name_edit.setPlaceholderText(_("e.g. Ganger"))
        self.side_combo = _side_combo()
        self.side_combo.setCurrentIndex(self.side_combo.findData(Side.OPPONENT.value))
        self.count_box = _count_box()
        self._defaults_side = Side.OPPONENT
        self.attribute_boxes = {spec.key: attribute_box(spec, system.attribute_default(spec, Side.OPPONENT))
                                for spec in system.attribute_specs()}
        self.grunts = GruntGroupFields()
        self.save_box = QCheckBox()
        self.campaign_combo = QComboBox()
        self.campaign_combo.setEditable(True)
        self.campaign_combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        editor = self.campaign_combo.lineEdit()
        if editor is not None:
            editor.setPlaceholderText(_("Campaign"))
        self.campaign_combo.setAccessibleName(_("Campaign"))
        self.seat = SeatChoice()
        self._build_layout()
        self.name_edit.textChanged.connect(self.grunts.suggest_name)
        self.side_combo.currentIndexChanged.connect(self._update_save_fields)
        self.side_combo.currentIndexChanged.connect(self._follow_side_defaults)
        self.side_combo.currentIndexChanged.connect(lambda _index: self.seat.follow_side(self._side()))
        self.save_box.toggled.connect(self._update_save_fields)
        self.reload_campaigns()
        self._update_save_fields()
        self.seat.follow_side(self._side())

    def _build_layout(self) -> None:
        top = QFormLayout()
        top.addRow(_("&Name:"), self.name_edit)
        how = QHBoxLayout()
        how.addWidget(self.side_combo)
        how.addSpacing(12)
        caption = QLabel(_("&Count:"))
        caption.setBuddy(self.count_box)
        how.addWidget(caption)
        how.addWidget(self.count_box)
        how.addStretch(1)
        side_caption = QLabel(_("&Side:"))
        side_caption.setBuddy(self.side_combo)
        top.addRow(side_caption, how)
        top.addRow(self.seat)
        save = QHBoxLayout()
        save.addWidget(self.save_box)
        save.addWidget(self.campaign_combo, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(attribute_group(_("Numbers"), self._system.attribute_specs(), self.attribute_boxes))
        layout.addWidget(self.grunts)
        layout.addLayout(save)
        layout.addStretch(1)

    def reload_campaigns(self) -> None:
        """Offer the campaigns the roster already has (none when the library cannot be read)."""
        typed = self.campaign_combo.currentText()
        self.campaign_combo.clear()
        with suppress(RulesError):  # the roster tab reports the same problem
            self.campaign_combo.addItems(self._library.campaigns(self._system.id))
        self.campaign_combo.setEditText(typed)

    def _side(self) -> Side:
        return _selected_side(self.side_combo) or Side.OPPONENT


    def _follow_side_defaults(self) -> None:
        """Another side: numbers still at the old side's default take the new side's (Walka's Chances); what the GM
        typed stays."""
        side, before = self._side(), self._defaults_side
        for spec in self._system.attribute_specs():
            box = self.attribute_boxes[spec.key]
            if box.value() == self._system.attribute_default(spec, before):
                box.setValue(self._system.attribute_default(spec, side))
        self._defaults_side = side

    def _update_save_fields(self) -> None:
        player = self._side() is Side.PLAYER
        self.save_box.setText(_("Also sa&ve to the roster (player characters)") if player
                              else _("Also sa&ve to the bestiary (NPC templates)"))
        self.campaign_combo.setVisible(player)
        self.campaign_combo.setEnabled(player and self.save_box.isChecked())

    def request(self) -> AddRequest:
        """What to add, as an entry built from the fields."""
        side = self._side()
        player = side is Side.PLAYER
        entry = LibraryEntry(
            kind=EntryKind.PC if player else EntryKind.NPC, system_id=self._system.id, name=self.name_edit.text(),
            campaign=self.campaign_combo.currentText().strip() if player else "", side=side,
            attributes={key: box.value() for key, box in self.attribute_boxes.items()})
        group, shared = self.grunts.grouping()
        return AddRequest(entry, self.count_box.value(), group, shared, save=self.save_box.isChecked(),
                          seat=self.seat.chosen())

    def after_add(self) -> None:
        """Ready for the next one: the name selected, so typing replaces it."""
        self.name_edit.selectAll()
        self.name_edit.setFocus()


class AddCombatantsDialog(QDialog):
    """Build the encounter: add from the roster/bestiary or quick-add; stays open for more (Esc closes)."""

    def __init__(self, document: EncounterDocument, library: Library, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(_("Add combatants"))
        self._document = document
        self._library = library
        self.tabs = QTabWidget()
        self.status_label = QLabel()
        self.roster_tab = RosterTab(library, document.system)
        self.quick_tab = QuickAddTab(library, document.system)
        self.tabs.addTab(self.roster_tab, _("From &roster and bestiary"))
        self.tabs.addTab(self.quick_tab, _("&Quick add"))
        self.status_label.setWordWrap(True)
        self.status_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.add_button = QPushButton(_("&Add"))
        buttons = QDialogButtonBox()
        buttons.addButton(self.add_button, QDialogButtonBox.ButtonRole.ActionRole)
        close_button = buttons.addButton(QDialogButtonBox.StandardButton.Close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(self.status_label)
        layout.addWidget(buttons)
        self.add_button.setDefault(True)  # once in the dialog, so it stays the default when focus moves
        self.add_button.clicked.connect(self.add)
        close_button.clicked.connect(self.reject)
        self.roster_tab.table.doubleClicked.connect(self.add)
        self.roster_tab.failed.connect(lambda message: self._show(message, error=True))
        self.roster_tab.told.connect(self._show)
        self.roster_tab.edited.connect(self.quick_tab.reload_campaigns)  # a campaign may have come or gone
        previous: QWidget = self.add_button  # the list's edits after Add: Tab still goes pick → count → Add
        for button in self.roster_tab.edit_buttons():
            QWidget.setTabOrder(previous, button)
            previous = button
        self.tabs.currentChanged.connect(self._focus_tab)
        self._offer_seats()
        self.resize(760, 520)
        self._focus_tab()

    def _focus_tab(self) -> None:
        if self.tabs.currentWidget() is self.quick_tab:
            self.quick_tab.name_edit.setFocus()
        else:
            self.roster_tab.search_edit.setFocus()

    def add(self) -> None:
        """Add what the current tab describes, as one undoable step; problems are shown, never raised."""
        tab = self.quick_tab if self.tabs.currentWidget() is self.quick_tab else self.roster_tab
        try:
            request = tab.request()
            names = self._apply(request)
        except RulesError as error:
            self._show(str(error), error=True)
            return
        message = ngettext("Added {names}.", "Added {names}.", len(names)).format(names=names_summary(names))
        if request.save:
            self._save(request.entry, message)
        else:
            self._show(message)
        if tab is self.quick_tab:
            self.quick_tab.after_add()

    def _apply(self, request: AddRequest) -> list[str]:
        operations = to_operations(request.entry, request.count, self._document.state, self._document.system,
                                   group=request.group, shared_monitor=request.shared_monitor, side=request.side,
                                   seat=request.seat)
        names = [operation.name for operation in operations]
        self._document.apply(Batch(tuple(operations), names_summary(names)))
        self._offer_seats()  # a new player's seat
        return names

    def _offer_seats(self) -> None:
        seats = self._document.system.ally_seats(self._document.state)
        self.quick_tab.seat.set_seats(seats)
        self.roster_tab.seat.set_seats(seats)

    def _save(self, entry: LibraryEntry, added: str) -> None:
        """Store a quick-added entry; the combatants stay in the fight even if this fails."""
        try:
            self._library.add(entry)
        except RulesError as error:
            self._show(_("{added} It was not saved: {reason}").format(added=added, reason=error), error=True)
            return
        self.roster_tab.reload_campaigns()
        self.quick_tab.reload_campaigns()
        where = _("Saved to the roster.") if entry.kind is EntryKind.PC else _("Saved to the bestiary.")
        self._show(f"{added} {where}")

    def _show(self, text: str, error: bool = False) -> None:
        show_message(self.status_label, text, error)
