"""The selected combatant in full: condition tracks, pools, this phase's actions, weapons, attributes, effects, notes.

Every section asks the RuleSystem what to show and turns a click or an edit into one operation for the
document. A refused operation shows its message in the panel and the fields fall back to the state; the panel
refreshes only when its combatant (or its effects, or whether it is acting) changed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFocusEvent, QFont
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QFrame,
    QGridLayout,
    QGroupBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QStackedWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.document import Change, EncounterDocument
from app.i18n import _
from rules.combatants import EditCombatant, SetAttribute, SetDamage, SetPool, SpendAction, SpendPool
from rules.dice import Roller
from rules.encounter import SIDE_LABELS, STATUS_LABELS, Combatant, Encounter, Pool, Side
from rules.errors import RulesError
from rules.history import Operation
from rules.limits import POOL_SIZE
from rules.report import pool_label
from rules.systems.base import BudgetItem, RuleSystem
from ui.games import game_ui
from ui.games.base import RollingSection
from ui.models.effects_model import duration_text
from ui.widgets.condition_track import ConditionTrack
from ui.widgets.messages import as_written, plain
from ui.widgets.weapons_section import WeaponsSection

Apply = Callable[[Operation], bool]



def _clear(layout: QVBoxLayout | QGridLayout | QFormLayout) -> None:
    while layout.count():
        item = layout.takeAt(0)
        widget = item.widget() if item is not None else None
        if widget is not None:
            widget.setParent(None)
            widget.deleteLater()


class _Section(QGroupBox):
    """A titled part of the panel that builds operations through ``apply``."""

    def __init__(self, title: str, apply: Apply) -> None:
        super().__init__(title)
        self._apply = apply
        self._id = ""

    def refresh(self, combatant: Combatant, state: Encounter, system: RuleSystem) -> None:
        """Show ``combatant`` as it is in ``state``."""
        raise NotImplementedError


class _TracksSection(_Section):
    """One clickable ConditionTrack per track of the game, and what the wounds do now."""

    def __init__(self, apply: Apply) -> None:
        super().__init__(_("Condition"), apply)
        self._layout = QVBoxLayout(self)
        self._tracks: dict[str, ConditionTrack] = {}
        self._notes = plain(QLabel())  # the game's notes name who and what
        self._notes.setWordWrap(True)
        self._notes.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self._box = QVBoxLayout()
        self._layout.addLayout(self._box)
        self._layout.addWidget(self._notes)

    def tracks(self) -> dict[str, ConditionTrack]:
        """The track widgets by track key."""
        return dict(self._tracks)

    def notes_text(self) -> str:
        """The condition notes as shown."""
        return self._notes.text()

    def refresh(self, combatant: Combatant, state: Encounter, system: RuleSystem) -> None:
        self._id = combatant.id
        specs = system.tracks(combatant, state)
        if [spec.key for spec in specs] != list(self._tracks):
            _clear(self._box)
            self._tracks = {}
            for spec in specs:
                track = ConditionTrack(spec.key, _(spec.label), spec.size)
                track.damage_requested.connect(self._request)
                self._box.addWidget(track)
                self._tracks[spec.key] = track
        for spec in specs:
            self._tracks[spec.key].set_spec(_(spec.label), spec.size)
            self._tracks[spec.key].set_value(combatant.boxes(spec.key))
        notes = system.condition_notes(combatant, state)
        self._notes.setText("\n".join(notes))
        self._notes.setVisible(bool(notes))

    def _request(self, track: str, value: int) -> None:
        self._apply(SetDamage(self._id, track, value))


class _PoolRow(QWidget):
    """'combat: 4 of 6 left', − spends a die, + gives one back, the size can be typed."""

    def __init__(self, key: str, apply: Apply, combatant_id: Callable[[], str]) -> None:
        super().__init__()
        self._key, self._apply, self._combatant_id = key, apply, combatant_id
        self.label = plain(QLabel())  # a pool's name may come from a file
        self.spend = QToolButton()
        self.spend.setText("−")
        self.refund = QToolButton()
        self.refund.setText("+")
        self.size_spin = QSpinBox()
        self.size_spin.setRange(POOL_SIZE.low, POOL_SIZE.high)
        self.size_spin.setKeyboardTracking(False)
        self.size_spin.setToolTip(_("Pool size"))
        name = pool_label(key)
        self.spend.setToolTip(as_written(_("Spend one die from {pool}").format(pool=name)))
        self.spend.setAccessibleName(self.spend.toolTip())
        self.refund.setToolTip(as_written(_("Give one die back to {pool}").format(pool=name)))
        self.refund.setAccessibleName(self.refund.toolTip())
        self.size_spin.setAccessibleName(_("Size of {pool}").format(pool=name))
        layout = QGridLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.label, 0, 0)
        layout.addWidget(self.spend, 0, 1)
        layout.addWidget(self.refund, 0, 2)
        layout.addWidget(self.size_spin, 0, 3)
        layout.setColumnStretch(0, 1)
        self.spend.clicked.connect(lambda: self._apply(SpendPool(self._combatant_id(), self._key, 1)))
        self.refund.clicked.connect(lambda: self._apply(SpendPool(self._combatant_id(), self._key, -1)))
        self.size_spin.editingFinished.connect(self._commit_size)
        self._pool = Pool(0)

    def show_pool(self, pool: Pool) -> None:
        """Show the pool as it is now."""
        self._pool = pool
        self.label.setText(_("{pool}: {left} of {size} left").format(
            pool=pool_label(self._key), left=pool.remaining, size=pool.size))
        self.spend.setEnabled(pool.remaining > 0)
        self.refund.setEnabled(pool.spent > 0)
        if not self.size_spin.hasFocus():
            self.size_spin.blockSignals(True)
            self.size_spin.setValue(pool.size)
            self.size_spin.blockSignals(False)

    def _commit_size(self) -> None:
        if self.size_spin.value() != self._pool.size:
            self._apply(SetPool(self._combatant_id(), self._key, self.size_spin.value()))


class _PoolsSection(_Section):
    """Every dice pool the combatant has."""

    def __init__(self, apply: Apply) -> None:
        super().__init__(_("Pools"), apply)
        self._layout = QVBoxLayout(self)
        self._rows: dict[str, _PoolRow] = {}

    def rows(self) -> dict[str, _PoolRow]:
        """Pool rows by pool key."""
        return dict(self._rows)

    def refresh(self, combatant: Combatant, state: Encounter, system: RuleSystem) -> None:
        self._id = combatant.id
        if list(combatant.pools) != list(self._rows):
            _clear(self._layout)
            self._rows = {key: _PoolRow(key, self._apply, lambda: self._id) for key in combatant.pools}
            for row in self._rows.values():
                self._layout.addWidget(row)
        for key, pool in combatant.pools.items():
            self._rows[key].show_pool(pool)
        self.setVisible(bool(self._rows))


class _BudgetSection(_Section):
    """What the combatant may still do in this turn (the game names it), with a button per kind of action."""

    def __init__(self, apply: Apply) -> None:
        super().__init__(_("Actions this turn"), apply)
        self._layout = QGridLayout(self)
        self._labels: dict[str, QLabel] = {}
        self.buttons: dict[str, QPushButton] = {}

    def refresh(self, combatant: Combatant, state: Encounter, system: RuleSystem) -> None:
        self._id = combatant.id
        self.setTitle(_(system.time_units().budget))
        budget = system.action_budget(combatant, state)
        if [item.key for item in budget] != list(self.buttons):
            self._rebuild(budget)
        for item in budget:
            self._labels[item.key].setText(_("{action}: {left} of {allowed} left").format(
                action=_(item.label), left=item.left, allowed=item.allowed))
            self.buttons[item.key].setEnabled(item.left > 0)
        self.setVisible(bool(budget))

    def _rebuild(self, budget: Sequence[BudgetItem]) -> None:
        _clear(self._layout)
        self._labels, self.buttons = {}, {}
        for row, item in enumerate(budget):
            label, button = plain(QLabel()), QPushButton(_("Use"))
            button.setAccessibleName(_("Use a {action} action").format(action=_(item.label)))
            button.setToolTip(button.accessibleName())
            button.clicked.connect(lambda _checked=False, key=item.key: self._apply(SpendAction(self._id, key)))
            self._layout.addWidget(label, row, 0)
            self._layout.addWidget(button, row, 1)
            self._labels[item.key], self.buttons[item.key] = label, button
        self._layout.setColumnStretch(0, 1)


class _AttributesSection(_Section):
    """A spin box per attribute of the game; an edit is committed once, when it is finished."""

    def __init__(self, apply: Apply) -> None:
        super().__init__(_("Attributes"), apply)
        self._form = QFormLayout(self)
        self._form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.FieldsStayAtSizeHint)
        self.spins: dict[str, QSpinBox] = {}
        self._dirty: set[str] = set()
        self._values: dict[str, int] = {}

    def build(self, system: RuleSystem) -> None:
        """One spin box per attribute of ``system`` (again after a game change)."""
        while self._form.rowCount():
            self._form.removeRow(0)
        self.spins, self._dirty = {}, set()
        for spec in system.attribute_specs():
            spin = QSpinBox()
            spin.setRange(spec.minimum, spec.maximum)
            spin.setKeyboardTracking(False)
            spin.setAccessibleName(_(spec.label))
            # Arrow clicks and typing only mark the edit; it becomes an operation when editing finishes.
            spin.valueChanged.connect(lambda _value, key=spec.key: self._dirty.add(key))
            spin.editingFinished.connect(lambda key=spec.key: self._commit(key))
            self._form.addRow(_(spec.label), spin)
            self.spins[spec.key] = spin

    def refresh(self, combatant: Combatant, state: Encounter, system: RuleSystem) -> None:
        self._id = combatant.id
        specs = {spec.key: spec for spec in system.attribute_specs()}
        for key, spin in self.spins.items():
            spec = specs[key]
            value = combatant.attribute(key, spec.default)
            self._values[key] = value
            if key in self._dirty and spin.hasFocus():
                continue  # the GM is typing here; the edit wins until it is finished
            spin.blockSignals(True)
            # A value from a file or another game may lie outside the usual range: show it, don't clamp it.
            spin.setRange(min(spec.minimum, value), max(spec.maximum, value))
            spin.setValue(value)
            spin.blockSignals(False)
            self._dirty.discard(key)

    def _commit(self, key: str) -> None:
        if key not in self._dirty:
            return
        self._dirty.discard(key)
        value = self.spins[key].value()
        if value != self._values.get(key):
            self._apply(SetAttribute(self._id, key, value))


class _EffectsSection(_Section):
    """The effects on this combatant and how long they last."""

    def __init__(self, apply: Apply) -> None:
        super().__init__(_("Effects"), apply)
        self._text = plain(QLabel())  # effects' names
        self._text.setWordWrap(True)
        QVBoxLayout(self).addWidget(self._text)

    def text(self) -> str:
        """The effects as shown."""
        return self._text.text()

    def refresh(self, combatant: Combatant, state: Encounter, system: RuleSystem) -> None:
        lines = [_("{effect} — {remaining}").format(effect=effect.name, remaining=duration_text(effect, state))
                 for effect in state.effects.values() if effect.target == combatant.id]
        self._text.setText("\n".join(lines) or _("No effects"))


class NotesEdit(QPlainTextEdit):
    """A plain text edit that says when it loses focus (notes are committed then, not per key press)."""

    focus_lost = Signal()

    def focusOutEvent(self, event: QFocusEvent) -> None:
        super().focusOutEvent(event)
        self.focus_lost.emit()


class _HeaderSection(QWidget):
    """Name, side and status line."""

    def __init__(self, apply: Apply) -> None:
        super().__init__()
        self._apply = apply
        self._id = ""
        self.name = QLineEdit()
        self.name.setAccessibleName(_("Name"))
        font = QFont(self.name.font())
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.2)
        self.name.setFont(font)
        self.side = QComboBox()
        self.side.setAccessibleName(_("Side"))
        for side in Side:
            self.side.addItem(_(SIDE_LABELS[side]), side.value)
        self.status = plain(QLabel())
        self.status.setWordWrap(True)
        layout = QFormLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addRow(_("Name"), self.name)
        layout.addRow(_("Side"), self.side)
        layout.addRow(_("Status"), self.status)
        self.name.editingFinished.connect(self._commit_name)
        self.side.activated.connect(self._commit_side)
        self._name = self._side = ""

    def refresh(self, combatant: Combatant, state: Encounter, system: RuleSystem) -> None:
        """Show the combatant's name, side and status (a name being typed is left alone)."""
        self._id, self._name, self._side = combatant.id, combatant.name, combatant.side.value
        if not self.name.isModified():
            self.name.setText(combatant.name)
        self.side.setCurrentIndex(max(0, self.side.findData(combatant.side.value)))
        parts = [_(STATUS_LABELS[system.status(combatant, state)])]
        if combatant.initiative is not None:
            parts.append(_("initiative {score}").format(score=system.score_text(combatant, state)))
        current = state.clock.current
        if current is not None and combatant.id in current.ids:
            parts.append(_("acting now"))
        self.status.setText(" · ".join(parts))

    def _commit_name(self) -> None:
        self.name.setModified(False)
        if self.name.text() != self._name:
            self._apply(EditCombatant(self._id, "name", self.name.text()))

    def _commit_side(self, index: int) -> None:
        side = str(self.side.itemData(index))
        if side != self._side:
            self._apply(EditCombatant(self._id, "side", side))


class CombatantDetails(QWidget):
    """The details panel of the selected combatant (a dock about 320 px wide)."""

    message_changed = Signal(str)  # the inline message ('' when cleared), e.g. for a status bar

    def __init__(self, document: EncounterDocument, parent: QWidget | None = None,
                 roller: Roller | None = None) -> None:
        super().__init__(parent)
        self._document = document
        self._roller = roller or Roller(random.Random())  # the session's, from the window
        self._id: str | None = None
        self._build()
        self._attributes.build(document.system)
        self._build_game_sections()
        document.changed.connect(self._on_changed)
        document.replaced.connect(self._on_replaced)
        self._show_page()

    def _build(self) -> None:
        apply = self._apply
        self.header = _HeaderSection(apply)
        self.message = plain(QLabel())  # refusals name who
        self.message.setObjectName("detailsMessage")
        self.message.setWordWrap(True)
        self.message.setFrameShape(QFrame.Shape.StyledPanel)
        self.message.hide()
        self.condition = _TracksSection(apply)
        self.pools = _PoolsSection(apply)
        self.budget = _BudgetSection(apply)
        self.weapons = WeaponsSection(apply, self.message.text)
        self._attributes = _AttributesSection(apply)
        self.effects = _EffectsSection(apply)
        self._game_box = QVBoxLayout()  # the game's own sections (dice banks, life pyramid…)
        self._game_box.setContentsMargins(0, 0, 0, 0)
        self._game_sections: list[QWidget] = []
        self._game_id = ""
        self.notes = NotesEdit()
        self.notes.setAccessibleName(_("Notes"))
        self.notes.setPlaceholderText(_("Notes for the GM"))
        self.notes.setMinimumHeight(self.fontMetrics().height() * 4)
        self.notes.focus_lost.connect(self._commit_notes)
        self._stack = QStackedWidget()
        self._stack.addWidget(self._placeholder())
        self._stack.addWidget(self._scroll_page())
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self._stack)

    def _placeholder(self) -> QLabel:
        label = QLabel(_("Select a combatant"))
        label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        label.setWordWrap(True)
        font = QFont(label.font())
        font.setPointSizeF(font.pointSizeF() * 1.15)
        label.setFont(font)  # full text colour: the theme's disabled grey is too faint to read
        return label

    def _scroll_page(self) -> QScrollArea:
        content = QWidget()
        layout = QVBoxLayout(content)
        for part in (self.header, self.message, self.condition, self._game_box, self.pools, self.budget,
                     self.weapons, self._attributes, self.effects):
            if isinstance(part, QVBoxLayout):
                layout.addLayout(part)
            else:
                layout.addWidget(part)
        notes = QGroupBox(_("Notes"))
        QVBoxLayout(notes).addWidget(self.notes)
        layout.addWidget(notes)
        layout.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(content)
        return scroll

    # --- public --------------------------------------------------------------------------------
    def combatant_id(self) -> str | None:
        """The combatant shown, or None."""
        return self._id

    def set_combatant(self, combatant_id: str | None) -> None:
        """Show this combatant (None, or an id no longer in the encounter: the placeholder)."""
        if combatant_id is not None and combatant_id not in self._document.state.combatants:
            combatant_id = None
        if combatant_id != self._id:
            self._show_message("")
            self.header.name.setModified(False)
            self.notes.document().setModified(False)
        self._id = combatant_id
        self._show_page()

    def attribute_spins(self) -> dict[str, QSpinBox]:
        """The attribute spin boxes by attribute key."""
        return dict(self._attributes.spins)

    def message_text(self) -> str:
        """The inline message ('' when none)."""
        return self.message.text() if self.message.isVisibleTo(self) else ""

    # --- refreshing ----------------------------------------------------------------------------
    def _show_page(self) -> None:
        self._stack.setCurrentIndex(0 if self._id is None else 1)
        if self._id is not None:
            self.refresh()

    def refresh(self) -> None:
        """Show the combatant as the document has it now."""
        state, system = self._document.state, self._document.system
        combatant = state.combatants.get(self._id or "")
        if combatant is None:
            self.set_combatant(None)
            return
        for section in (self.header, self.condition, self.pools, self.budget, self.weapons, self._attributes,
                        self.effects):
            section.refresh(combatant, state, system)
        for game_section in self._game_sections:
            game_section.refresh(combatant, state, system)  # type: ignore[attr-defined]
        if not self.notes.document().isModified() and self.notes.toPlainText() != combatant.notes:
            self.notes.setPlainText(combatant.notes)
            self.notes.document().setModified(False)

    def _concerns_me(self, change: Change) -> bool:
        combatant_id = self._id or ""
        if combatant_id in change.combatants:
            return True
        state = self._document.state
        if any(e.target == combatant_id for e in state.effects.values() if e.id in change.what.effects):
            return True
        if change.what.effect_list:  # an effect on anyone was added or removed: cheap to recheck
            return True
        if change.what.options:  # a GM option may change what the combatant's condition means (Souboj's clock)
            return True
        return combatant_id in change.what.turn  # the turn came to or left this combatant

    def _on_changed(self, change: Change) -> None:
        if self._id is not None and self._concerns_me(change):
            self.refresh()

    def _on_replaced(self) -> None:
        self._attributes.build(self._document.system)
        self._build_game_sections()
        self.set_combatant(self._id)

    def _build_game_sections(self) -> None:
        """The sections the game adds (rebuilt only when a fight of another game is opened)."""
        system_id = self._document.system.id
        if system_id == self._game_id:
            return
        self._game_id = system_id
        _clear(self._game_box)
        self._game_sections = [factory(self._apply) for factory in game_ui(system_id).sections()]
        for section in self._game_sections:
            if isinstance(section, RollingSection):
                section.use_roller(self._roller)
            self._game_box.addWidget(section)

    # --- changing ------------------------------------------------------------------------------
    def _apply(self, operation: Operation) -> bool:
        """Apply through the document; a refusal becomes a message here and the fields show the state."""
        try:
            self._document.apply(operation)
        except RulesError as error:
            self._show_message(str(error))
            self.refresh()
            return False
        self._show_message("")
        return True

    def _show_message(self, text: str) -> None:
        if text == self.message.text() and self.message.isVisibleTo(self) == bool(text):
            return
        self.message.setText(text)
        self.message.setVisible(bool(text))
        self.message_changed.emit(text)

    def _commit_notes(self) -> None:
        if self._id is None or not self.notes.document().isModified():
            return
        self.notes.document().setModified(False)
        combatant = self._document.state.combatants.get(self._id)
        if combatant is not None and self.notes.toPlainText() != combatant.notes:
            self._apply(EditCombatant(self._id, "notes", self.notes.toPlainText()))
