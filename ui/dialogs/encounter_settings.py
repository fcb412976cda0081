"""Encounter settings: the encounter's name and every option the game lets the GM decide.

The form is built from the game's ``option_specs()`` (on/off, numbers, choices, sets of choices as check boxes,
data tables as forms or grids, JSON only for the nested ones), so a new game's Decisions appear here without
code. OK applies every change as one undoable step.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGridLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.document import EncounterDocument
from app.i18n import _
from rules.combatants import EditEncounter, SetOption
from rules.encounter import JsonValue
from rules.errors import RulesError
from rules.history import Batch, Operation
from rules.systems.base import OptionKind, OptionSpec
from ui.widgets.layout import ScrolledContent
from ui.widgets.messages import show_message
from ui.widgets.table_option import TableOptionEditor, table_shape

Reader = Callable[[], JsonValue]


def _plain(value: Any) -> Any:
    """Read-only mappings and tuples as plain JSON-able values (for the table editors)."""
    if isinstance(value, dict) or hasattr(value, "items"):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    return value


class EncounterSettingsDialog(QDialog):
    """Name + one editor per option of the game."""

    def __init__(self, document: EncounterDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(_("Encounter settings"))
        self._document = document
        self.name = QLineEdit(document.state.name)
        self.readers: dict[str, Reader] = {}
        self.editors: dict[str, QWidget] = {}
        self.message = QLabel()
        self.message.setWordWrap(True)
        form = QFormLayout()
        form.addRow(_("Name"), self.name)
        for spec in document.system.option_specs():
            editor, reader = self._editor(spec)
            self.readers[spec.key] = reader
            self.editors[spec.key] = editor
            form.addRow(_(spec.label), editor)
        self._layout(form)

    def _layout(self, form: QFormLayout) -> None:
        content = QWidget()
        column = QVBoxLayout(content)
        column.addWidget(QLabel(_("{game}: every choice the rules leave to the GM.").format(
            game=_(self._document.system.title))))
        column.addLayout(form)
        column.addStretch(1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.apply)
        buttons.rejected.connect(self.reject)
        # Sized for its content when first shown (a fixed 620 pixels cut off long Czech labels and the second
        # column of a set's check boxes); on a small screen the form scrolls.
        self._body = ScrolledContent(self, content, self.message, buttons, chrome_height=80)

    def showEvent(self, event: QShowEvent) -> None:
        """Size the dialog for the form once Qt has laid it out."""
        super().showEvent(event)
        self._body.shown()

    def _current(self, spec: OptionSpec) -> JsonValue:
        return self._document.system.option(self._document.state, spec.key)

    def _editor(self, spec: OptionSpec) -> tuple[QWidget, Reader]:
        value = self._current(spec)
        if spec.kind is OptionKind.BOOL:
            box = QCheckBox()
            box.setChecked(bool(value))
            return box, box.isChecked
        if spec.kind is OptionKind.INT:
            spin = QSpinBox(minimum=spec.minimum if spec.minimum is not None else -9999,
                            maximum=spec.maximum if spec.maximum is not None else 9999)
            spin.setValue(int(value) if isinstance(value, int) else 0)
            return spin, spin.value
        if spec.kind is OptionKind.CHOICE:
            combo = QComboBox()
            for choice, label in spec.choices:
                combo.addItem(_(label), choice)
            combo.setCurrentIndex(max(0, combo.findData(value)))
            return combo, combo.currentData
        if spec.kind is OptionKind.SET:
            return self._set_editor(spec, value)
        return self._table_editor(spec, value)

    @staticmethod
    def _set_editor(spec: OptionSpec, value: JsonValue) -> tuple[QWidget, Reader]:
        """A check box per choice, two to a row; reads the ticked values in the choices' order."""
        chosen = set(value) if isinstance(value, list | tuple) else set()
        editor = QWidget()
        grid = QGridLayout(editor)
        grid.setContentsMargins(0, 0, 0, 0)
        boxes: list[tuple[str, QCheckBox]] = []
        for index, (choice, label) in enumerate(spec.choices):
            box = QCheckBox(_(label))
            box.setChecked(choice in chosen)
            grid.addWidget(box, index // 2, index % 2)
            boxes.append((choice, box))
        if spec.help:
            editor.setToolTip(_(spec.help))

        def read() -> JsonValue:
            ticked: JsonValue = tuple(choice for choice, box in boxes if box.isChecked())
            return ticked

        return editor, read

    def _table_editor(self, spec: OptionSpec, value: JsonValue) -> tuple[QWidget, Reader]:
        shown = self._document.system.shown_table(self._document.state, spec.key)
        if isinstance(shown, Mapping) and table_shape(shown) is not None:
            form = TableOptionEditor(_(spec.label), shown, {key: _(label) for key, label in spec.labels})
            form.setToolTip(_(spec.help) if spec.help else "")

            def read_form() -> JsonValue:
                edited = form.value()
                return value if _plain(edited) == _plain(shown) else edited  # untouched: the option stays as it is

            return form, read_form
        edit = QPlainTextEdit(json.dumps(_plain(value), ensure_ascii=False, indent=1))
        edit.setPlaceholderText(_("Only the entries you change, as JSON, e.g. {example}").format(
            example='{"pools": {"combat_pool_divisor": 2}}'))
        edit.setMinimumHeight(self.fontMetrics().height() * 6)
        edit.setToolTip(_(spec.help) if spec.help else "")

        def read() -> JsonValue:
            text = edit.toPlainText().strip() or "{}"
            try:
                parsed = json.loads(text)
            except ValueError as problem:
                raise RulesError(_("“{option}” is not valid JSON: {problem}").format(
                    option=_(spec.label), problem=problem)) from None
            if not isinstance(parsed, dict):
                raise RulesError(_("“{option}” must be a JSON object.").format(option=_(spec.label)))
            result: JsonValue = parsed
            return result

        return edit, read

    def operations(self) -> list[Operation]:
        """What OK would apply (RulesError if an editor holds something unreadable)."""
        operations: list[Operation] = []
        if self.name.text().strip() != self._document.state.name:
            operations.append(EditEncounter("name", self.name.text()))
        for spec in self._document.system.option_specs():
            value = self.readers[spec.key]()
            if _plain(value) != _plain(self._current(spec)):
                operations.append(SetOption(spec.key, value))
        return operations

    def apply(self) -> None:
        """Apply every change as one undoable step, or show what is wrong and keep the dialog open."""
        try:
            operations = self.operations()
            if operations:
                self._document.apply(Batch(tuple(operations), _("Encounter settings")))
        except RulesError as problem:
            show_message(self.message, str(problem))
            return
        self.accept()
