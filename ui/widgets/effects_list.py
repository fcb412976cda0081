"""The effects panel: every effect with what remains of it, an inline form to add one, and Remove.

The form offers only what the game has: durations counted on the hooks the RuleSystem fires, reminders on
its hooks. Adding and removing are operations (AddEffect / RemoveEffect), so both undo like anything else.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Final

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.document import Change, EncounterDocument
from app.i18n import N_, _
from rules.effects import AddEffect, RemoveEffect, meaning_named
from rules.encounter import Effect, Encounter, Timing
from rules.errors import RulesError
from rules.history import Operation
from rules.limits import EFFECT_COUNT
from rules.systems.base import Hook
from ui.models.effects_model import EffectsModel, ordered_hooks, timing_text
from ui.widgets.row_table import RowTable


class DurationKind(StrEnum):
    """How an effect added by hand lasts."""

    ROUNDS = "rounds"
    PASSES = "passes"
    TURNS = "turns"  # until the end of one combatant's next turn (or n turns)
    INDEFINITE = "indefinite"


DURATION_LABELS: Final[dict[DurationKind, str]] = {
    DurationKind.ROUNDS: N_("Rounds"),
    DurationKind.TURNS: N_("Until the end of a combatant's turn"),
    DurationKind.INDEFINITE: N_("Until removed"),
}

#: The hook each kind of duration counts down on.
DURATION_HOOKS: Final[dict[DurationKind, Hook]] = {
    DurationKind.ROUNDS: Hook.ROUND_END,
    DurationKind.PASSES: Hook.PASS_END,
    DurationKind.TURNS: Hook.TURN_END,
}

_TURN_HOOKS: Final[frozenset[Hook]] = frozenset({Hook.TURN_START, Hook.TURN_END})


def next_effect_id(state: Encounter) -> str:
    """An effect id not in use."""
    number = len(state.effects) + 1
    while f"e{number}" in state.effects:
        number += 1
    return f"e{number}"


def build_effect(state: Encounter, name: str, target: str | None, duration: DurationKind, count: int,
                 turn_of: str | None, reminder: Hook | None, meaning: str = "") -> Effect:
    """The effect the form describes; a turn-based reminder follows the target's turns."""
    expires = None
    if duration in DURATION_HOOKS:
        expires = Timing(DURATION_HOOKS[duration], turn_of if duration is DurationKind.TURNS else None)
    reminds = None
    if reminder is not None:
        reminds = Timing(reminder, target if reminder in _TURN_HOOKS else None)
    remaining = None if expires is None else count
    return Effect(next_effect_id(state), name.strip(), target=target, expires=expires, remaining=remaining,
                  reminds=reminds, meaning=meaning)


class EffectForm(QFrame):
    """The inline 'Add effect' form: name, target, duration with a count, optional reminder, and the game
    meaning (only in a game that has some), preselected from the name as the GM types it."""

    submitted = Signal(object)  # Effect
    cancelled = Signal()
    invalid = Signal(str)

    def __init__(self, document: EncounterDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._document = document
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.name = QLineEdit()
        self.name.setPlaceholderText(_("e.g. Bleeding, Stunned, Smoke"))
        self.target = QComboBox()
        self.duration = QComboBox()
        self.count = QSpinBox()
        self.count.setRange(EFFECT_COUNT.low, EFFECT_COUNT.high)
        self.turn_of = QComboBox()
        self.reminder = QComboBox()
        self.meaning = QComboBox()
        self._meaning_by_hand = False  # the GM picked one: typing no longer changes it
        self.add = QPushButton(_("Add"))
        self.add.setDefault(True)
        self.cancel = QPushButton(_("Cancel"))
        self._lay_out()
        self.add.clicked.connect(self._submit)
        self.cancel.clicked.connect(self.cancelled)
        self.name.returnPressed.connect(self._submit)
        self.name.textChanged.connect(self._name_edited)
        self.meaning.activated.connect(self._meaning_picked)
        self.duration.currentIndexChanged.connect(self._duration_changed)
        self.target.currentIndexChanged.connect(self._target_changed)

    def _lay_out(self) -> None:
        lasts = QHBoxLayout()
        lasts.addWidget(self.duration, 1)
        lasts.addWidget(self.count)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.add)
        buttons.addWidget(self.cancel)
        form = QFormLayout(self)
        form.addRow(_("Name"), self.name)
        form.addRow(_("On"), self.target)
        form.addRow(_("Lasts"), lasts)
        form.addRow(_("Whose turn"), self.turn_of)
        form.addRow(_("Remind"), self.reminder)
        form.addRow(_("Game meaning"), self.meaning)
        form.addRow(buttons)
        self._form = form

    def reset(self) -> None:
        """Clear the form and fill its choices from the encounter and the game."""
        self.name.clear()
        self.count.setValue(1)
        self.target.clear()
        self.duration.clear()
        self._fill_meanings()
        self.refill()

    def _fill_meanings(self) -> None:
        """The game's meanings after "None"; the row is hidden in a game that has none."""
        meanings = self._document.system.effect_meanings()
        self.meaning.clear()
        self.meaning.addItem(_("None — a reminder only"), "")
        for meaning in meanings:
            self.meaning.addItem(_(meaning.label), meaning.key)
            self.meaning.setItemData(self.meaning.count() - 1, _(meaning.help), Qt.ItemDataRole.ToolTipRole)
        self._meaning_by_hand = False
        self._form.setRowVisible(self.meaning, bool(meanings))

    def _name_edited(self, name: str) -> None:
        """A name that names a meaning ("Smoke", "Kouř") selects it, unless the GM chose one by hand."""
        if not self._meaning_by_hand:
            key = meaning_named(self._document.system.effect_meanings(), name)
            self.meaning.setCurrentIndex(max(0, self.meaning.findData(key)))

    def _meaning_picked(self) -> None:
        self._meaning_by_hand = True

    def refill(self) -> None:
        """Fill the choices again (the roster changed), keeping what the GM has chosen where it still exists."""
        state, hooks = self._document.state, self._document.system.hooks()
        passes = self._document.system.time_units().passes
        people = [(c.name, c.id) for c in state.combatants.values()]
        self._fill(self.target, [(_("Whole encounter"), None), *people])
        self._fill(self.turn_of, people)
        kinds = [kind for kind in DurationKind if kind not in DURATION_HOOKS or DURATION_HOOKS[kind] in hooks]
        if not state.combatants:
            kinds = [kind for kind in kinds if kind is not DurationKind.TURNS]
        if passes is None:
            kinds = [kind for kind in kinds if kind is not DurationKind.PASSES]
        labels = {**DURATION_LABELS, **({DurationKind.PASSES: passes.duration} if passes is not None else {})}
        self._fill(self.duration, [(_(labels[kind]), kind.value) for kind in kinds])
        self._target_changed()
        self._duration_changed()

    @staticmethod
    def _fill(combo: QComboBox, items: Sequence[tuple[str, str | None]]) -> None:
        """Replace the items; the previous choice stays selected if it is still offered."""
        chosen = combo.currentData()
        combo.blockSignals(True)
        combo.clear()
        for text, data in items:
            combo.addItem(text, data)
        combo.setCurrentIndex(max(0, combo.findData(chosen)) if chosen is not None else 0)
        combo.blockSignals(False)

    def choose_target(self, target: str | None) -> None:
        """Put the effect on ``target`` (None, or a combatant not in the fight: the whole encounter)."""
        self.target.setCurrentIndex(max(0, self.target.findData(target)) if target is not None else 0)

    def _target_changed(self) -> None:
        """Turn-based choices follow the target: its turns end the effect and remind the GM."""
        target = self.target.currentData()
        if target is not None:
            self.turn_of.setCurrentIndex(max(0, self.turn_of.findData(target)))
        state = self._document.state
        items: list[tuple[str, str | None]] = [(_("No reminder"), None)]
        for hook in ordered_hooks(self._document.system.hooks()):
            timing = Timing(hook, target if hook in _TURN_HOOKS else None)
            items.append((timing_text(timing, state), hook.value))
        self._fill(self.reminder, items)

    def _duration_changed(self) -> None:
        kind = self.duration_kind()
        self.count.setEnabled(kind is not DurationKind.INDEFINITE)
        self._form.setRowVisible(self.turn_of, kind is DurationKind.TURNS)

    def duration_kind(self) -> DurationKind:
        """The duration chosen."""
        data = self.duration.currentData()
        return DurationKind(data) if data else DurationKind.INDEFINITE

    def _submit(self) -> None:
        if not self.name.text().strip():
            self.invalid.emit(_("An effect needs a name."))
            self.name.setFocus()
            return
        reminder = self.reminder.currentData()
        effect = build_effect(self._document.state, self.name.text(), self.target.currentData(),
                              self.duration_kind(), self.count.value(), self.turn_of.currentData(),
                              Hook(reminder) if reminder else None, self.meaning.currentData() or "")
        self.submitted.emit(effect)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape:
            self.cancelled.emit()
            event.accept()
            return
        super().keyPressEvent(event)


class EffectsPanel(QWidget):
    """Every effect of the encounter, with Add effect… and Remove."""

    message_changed = Signal(str)

    def __init__(self, document: EncounterDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._document = document
        self.model = EffectsModel(document)
        self.table = self._make_table()
        self.add_button = QPushButton(_("Add effect…"))
        self.remove_button = QPushButton(_("Remove"))
        self.remove_button.setEnabled(False)
        self.form = EffectForm(document)
        self.form.hide()
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.message.hide()
        self._lay_out()
        self.add_button.clicked.connect(lambda _checked=False: self.open_form())  # not the checked flag as target
        self.remove_button.clicked.connect(self.remove_selected)
        self.form.submitted.connect(self._add)
        self.form.cancelled.connect(self._close_form)
        self.form.invalid.connect(self._show_message)
        self.table.selectionModel().selectionChanged.connect(self._selection_changed)
        self.model.modelReset.connect(self._selection_changed)
        document.changed.connect(self._on_changed)

    def _make_table(self) -> QTableView:
        table = RowTable()
        table.setModel(self.model)
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        table.verticalHeader().hide()
        table.setWordWrap(False)
        header = table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        header.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        return table

    def _lay_out(self) -> None:
        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table, 1)
        layout.addLayout(buttons)
        layout.addWidget(self.form)
        layout.addWidget(self.message)

    # --- actions -------------------------------------------------------------------------------
    def open_form(self, target: str | None = None) -> None:
        """Show the inline form, filled from the encounter, the effect on ``target`` (None: the whole encounter)."""
        self.form.reset()
        self.form.choose_target(target)
        self.form.show()
        self.form.name.setFocus()

    def _close_form(self) -> None:
        self.form.hide()
        self._show_message("")
        self.add_button.setFocus()

    def selected_effect(self) -> str | None:
        """The id of the selected effect, if any."""
        rows = self.table.selectionModel().selectedRows()
        return self.model.effect_id(rows[0].row()) if rows else None

    def remove_selected(self) -> None:
        """End the selected effect (undoable)."""
        effect_id = self.selected_effect()
        if effect_id is not None:
            self._apply(RemoveEffect(effect_id))

    def _add(self, effect: Effect) -> None:
        if self._apply(AddEffect(effect)):
            self.form.hide()
            self.add_button.setFocus()

    def _apply(self, operation: Operation) -> bool:
        try:
            self._document.apply(operation)
        except RulesError as error:
            self._show_message(str(error))
            return False
        self._show_message("")
        return True

    def _show_message(self, text: str) -> None:
        self.message.setText(text)
        self.message.setVisible(bool(text))
        self.message_changed.emit(text)

    def message_text(self) -> str:
        """The inline message ('' when none)."""
        return self.message.text() if self.message.isVisibleTo(self) else ""

    # --- updates -------------------------------------------------------------------------------
    def _selection_changed(self) -> None:
        self.remove_button.setEnabled(self.selected_effect() is not None)

    def _on_changed(self, change: Change) -> None:
        if change.roster_changed and self.form.isVisible():
            self.form.refill()  # the target list must not offer someone who left
