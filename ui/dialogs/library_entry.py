"""One roster or bestiary entry, edited: name, kind, campaign, side, tags, notes, the game's attributes and its
weapons. Saving stores it in the library; a refusal is shown in the dialog and nothing typed is lost."""

from __future__ import annotations

from contextlib import suppress
from dataclasses import replace

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLineEdit,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from app.i18n import _
from app.library import KIND_LABELS, EntryKind, Library, LibraryEntry
from rules.combatants import MAX_NAME
from rules.encounter import SIDE_LABELS, Side
from rules.errors import RulesError
from rules.systems.base import RuleSystem
from ui.widgets.attribute_grid import attribute_box, attribute_group
from ui.widgets.inputs import calm
from ui.widgets.layout import size_window
from ui.widgets.messages import show_message, text_label
from ui.widgets.weapons_editor import WeaponsEditor

#: The side an entry of each kind usually has (a change of kind carries the side along unless the GM chose).
USUAL_SIDE = {EntryKind.PC: Side.PLAYER, EntryKind.NPC: Side.OPPONENT}
NOTES_LINES = 4
MINIMUM_SIZE = (880, 640)


def blank_entry(system: RuleSystem, kind: EntryKind = EntryKind.NPC) -> LibraryEntry:
    """A new entry of ``system`` with the game's default attributes, not stored yet."""
    side = USUAL_SIDE[kind]
    attributes = {spec.key: system.attribute_default(spec, side) for spec in system.attribute_specs()}
    return LibraryEntry(kind=kind, system_id=system.id, name="", side=side, attributes=attributes)


def _combo(items: list[tuple[str, str]]) -> QComboBox:
    combo = QComboBox()
    calm(combo)
    for label, value in items:
        combo.addItem(label, value)
    return combo


class EntryDialog(QDialog):
    """Edit an entry (a new one when its ``id`` is None); :meth:`save` stores it and emits :attr:`saved`."""

    saved = Signal(object)  # the LibraryEntry as stored

    def __init__(self, library: Library, system: RuleSystem, entry: LibraryEntry,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._library, self._system, self._entry = library, system, entry
        self._kind = entry.kind
        self.setWindowTitle(_("Edit “{name}”").format(name=entry.name) if entry.id is not None
                            else _("New roster or bestiary entry"))
        self.name_edit = QLineEdit(entry.name)
        self.name_edit.setMaxLength(MAX_NAME)
        self.kind_combo = _combo([(_(label), kind.value) for kind, label in KIND_LABELS.items()])
        self.side_combo = _combo([(_(label), side.value) for side, label in SIDE_LABELS.items()])
        self.campaign_combo = self._campaigns()
        self.tags_edit = QLineEdit(entry.tags)
        self.tags_edit.setPlaceholderText(_("e.g. gang, street"))
        self.tags_edit.setCursorPosition(0)  # the start of a long list, not its end
        self.notes_edit = QPlainTextEdit(entry.notes)
        self.notes_edit.setTabChangesFocus(True)  # Tab moves on, as in every other field of the form
        self.notes_edit.setMinimumHeight(self.fontMetrics().lineSpacing() * NOTES_LINES + 12)
        self.notes_edit.setMaximumHeight(self.fontMetrics().lineSpacing() * NOTES_LINES * 2 + 12)
        self.attribute_boxes = {spec.key: attribute_box(spec, entry.attributes.get(spec.key))
                                for spec in system.attribute_specs()}
        self.weapons = WeaponsEditor(system, entry.weapons)
        self.message = text_label()
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        self._choose(self.kind_combo, entry.kind.value)
        self._choose(self.side_combo, entry.side.value)
        self._build_layout()
        self.kind_combo.currentIndexChanged.connect(self._kind_changed)
        self.buttons.accepted.connect(self.save)
        self.buttons.rejected.connect(self.reject)
        size_window(self, self.sizeHint().expandedTo(QSize(*MINIMUM_SIZE)))
        self.name_edit.setFocus()

    @staticmethod
    def _choose(combo: QComboBox, value: str) -> None:
        combo.setCurrentIndex(max(0, combo.findData(value)))

    def _campaigns(self) -> QComboBox:
        combo = QComboBox()
        calm(combo)
        combo.setEditable(True)
        combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        with suppress(RulesError):  # a library that cannot be read is reported where it is listed
            combo.addItems(self._library.campaigns(self._system.id))
        combo.setEditText(self._entry.campaign)
        editor = combo.lineEdit()
        if editor is not None:
            editor.setPlaceholderText(_("None (any campaign)"))
        return combo

    def _build_layout(self) -> None:
        form = QFormLayout()
        form.addRow(_("&Name:"), self.name_edit)
        form.addRow(_("&Kind:"), self.kind_combo)
        form.addRow(_("&Side:"), self.side_combo)
        form.addRow(_("&Campaign:"), self.campaign_combo)
        form.addRow(_("&Tags:"), self.tags_edit)
        top = QHBoxLayout()
        top.addLayout(form, 1)
        top.addWidget(attribute_group(_("Attributes"), self._system.attribute_specs(), self.attribute_boxes))
        weapons = QGroupBox(_("Weapons"))
        QVBoxLayout(weapons).addWidget(self.weapons)
        weapons.setVisible(self.weapons.has_fields())
        notes = QGroupBox(_("N&otes"))
        QVBoxLayout(notes).addWidget(self.notes_edit)
        notes.setFocusProxy(self.notes_edit)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(weapons, 1)
        layout.addWidget(notes)
        layout.addWidget(self.message)
        layout.addWidget(self.buttons)
        self.message.setMinimumHeight(self.fontMetrics().lineSpacing() * 2)  # room kept: nothing moves
        self.message.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)

    def _kind_changed(self) -> None:
        new = EntryKind(self.kind_combo.currentData())
        if self.side_combo.currentData() == USUAL_SIDE[self._kind].value:  # not chosen by the GM: it follows
            self._choose(self.side_combo, USUAL_SIDE[new].value)
        self._kind = new

    # --- public -----------------------------------------------------------------------------------
    def entry(self) -> LibraryEntry:
        """The entry as the form has it; RulesError when its weapons are refused."""
        attributes = {**self._entry.attributes, **{key: box.value() for key, box in self.attribute_boxes.items()}}
        return replace(
            self._entry, name=self.name_edit.text(), kind=EntryKind(self.kind_combo.currentData()),
            side=Side(self.side_combo.currentData()), campaign=self.campaign_combo.currentText().strip(),
            tags=self.tags_edit.text(), notes=self.notes_edit.toPlainText(), attributes=attributes,
            weapons=self.weapons.checked() if self.weapons.has_fields() else self._entry.weapons)

    def save(self) -> bool:
        """Store the entry (added when new); a refusal is shown here and the dialog stays open."""
        try:
            entry = self.entry()
            stored = self._library.update(entry) if entry.id is not None else self._library.add(entry)
        except RulesError as problem:
            show_message(self.message, str(problem), error=True)
            return False
        show_message(self.message, "")
        self._entry = stored
        self.saved.emit(stored)
        self.accept()
        return True
