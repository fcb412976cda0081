"""The initiative table: one row per combatant, in the order of the current pass.

Rows run: those who have acted in this pass, the current actor, those still to act (as the RuleSystem
orders them), then everyone without a turn. After each change the model inserts and removes the rows of
combatants who came and went, moves the others with ``layoutChanged`` (the selection survives) and emits
``dataChanged`` only for what changed; it resets only when another fight is loaded.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import IntEnum
from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QBrush, QFont
from PySide6.QtWidgets import QApplication

from app.document import Change, EncounterDocument
from app.i18n import N_, _, ngettext
from rules.combatants import EditCombatant, is_hidden
from rules.encounter import SIDE_LABELS, STATUS_LABELS, Combatant, Encounter, Side, SlotKind, Status
from rules.errors import RulesError
from rules.history import Operation
from rules.systems.base import RuleSystem
from rules.time_units import TimeUnits
from rules.turns import SetInitiative, pass_slots, played_order
from ui.models.base import EnumTableModel, _runs
from ui.theme import soft_text
from ui.widgets.messages import as_written
from ui.widgets.status_icons import status_icon

Index = QModelIndex | QPersistentModelIndex

#: Roles drawn in the palette's colours: worked out on each call (a theme switch repaints with the new palette).
_PALETTE_ROLES = frozenset({Qt.ItemDataRole.ForegroundRole, Qt.ItemDataRole.DecorationRole})


class Column(IntEnum):
    """Columns of the initiative table."""

    NAME = 0
    SIDE = 1
    INITIATIVE = 2
    ACTIONS = 3
    CONDITION = 4
    EFFECTS = 5


_COLUMNS = tuple(Column)

HEADERS = {
    Column.NAME: N_("Name"),
    Column.SIDE: N_("Side"),
    Column.INITIATIVE: N_("Initiative"),
    Column.ACTIONS: N_("Actions left"),
    Column.CONDITION: N_("Condition"),
    Column.EFFECTS: N_("Effects"),
}


class Role(IntEnum):
    """Named data roles for delegates, views and tests."""

    COMBATANT_ID = Qt.ItemDataRole.UserRole + 1
    IS_CURRENT = Qt.ItemDataRole.UserRole + 2
    HAS_ACTED = Qt.ItemDataRole.UserRole + 3
    SIDE = Qt.ItemDataRole.UserRole + 4
    STATUS = Qt.ItemDataRole.UserRole + 5
    TRACKS = Qt.ItemDataRole.UserRole + 6  # list of (label, filled, size)


def ordered_ids(state: Encounter, system: RuleSystem) -> list[str]:
    """Everyone, in the order the GM reads the table during the current pass."""
    clock = state.clock
    current = list(clock.current.ids) if clock.current and clock.current.kind is not SlotKind.TIMER else []
    upcoming = [cid for slot in pass_slots(state, system) if slot.kind is not SlotKind.TIMER
                for cid in slot.ids if cid not in current]
    placed = set(current) | set(upcoming)
    acted = [cid for cid in played_order(state, system) if cid not in placed]
    placed |= set(acted)
    rest = [cid for cid in state.combatants if cid not in placed]
    rest.sort(key=lambda cid: -_rolled(state.combatants[cid]))
    return acted + current + _unique(upcoming) + rest


def _unique(ids: list[str]) -> list[str]:
    return list(dict.fromkeys(ids))


def _rolled(combatant: Combatant) -> int:
    return combatant.initiative.rolled if combatant.initiative else -10_000


class InitiativeModel(EnumTableModel):
    """Adapts the document's encounter to a table; edits go through the document as operations."""

    COLUMNS = Column
    HEADERS = HEADERS

    error = Signal(str)  # a refused edit, for the status bar

    def __init__(self, document: EncounterDocument) -> None:
        super().__init__()
        self._document = document
        self._ids: list[str] = ordered_ids(document.state, document.system)
        # Each state's statuses, asked by several roles of every painted cell (the state is immutable).
        self._statuses: tuple[Encounter | None, dict[str, Status]] = (None, {})
        # What each row's cells show, per (column, role): a repaint asks ~8 roles a cell, the delegate some twice.
        # Kept for the state it was filled from (``_cells_state``); a change drops the rows its summary names, as
        # it emits dataChanged for them, or all rows when the clock, effects or the game's own state moved.
        self._cells: dict[str, dict[tuple[int, int | str], Any]] = {}
        self._cells_state: Encounter | None = document.state
        self._clock = document.state.clock  # the clock the rows show, to tell which rows a turn moved
        document.changed.connect(self._on_changed)
        document.replaced.connect(self._on_replaced)

    # --- structure -----------------------------------------------------------------------------

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        base = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if index.column() in (Column.NAME, Column.INITIATIVE):
            base |= Qt.ItemFlag.ItemIsEditable
        return base

    def combatant_id(self, row: int) -> str:
        """The id shown in ``row``."""
        return self._ids[row]

    def row_of(self, combatant_id: str) -> int:
        """The row showing that combatant (-1 if none)."""
        try:
            return self._ids.index(combatant_id)
        except ValueError:
            return -1

    def derived(self, index: Index, name: str, compute: Callable[[], Any]) -> Any:
        """A value worked out from the cell's data (a delegate's key for what it painted), kept with the row's
        cached cells: dropped with them when a change reaches the row."""
        state = self._document.state
        if self._cells_state is not state or not 0 <= index.row() < len(self._ids):
            return compute()
        cells = self._cells.setdefault(self._ids[index.row()], {})
        key = (index.column(), name)
        try:
            return cells[key]
        except KeyError:
            value = cells[key] = compute()
            return value

    # --- data ----------------------------------------------------------------------------------
    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._ids):
            return None
        state = self._document.state
        combatant = state.combatants.get(self._ids[index.row()])
        if combatant is None:
            return None
        if self._cells_state is not state or role in _PALETTE_ROLES:  # a change not yet seen: no cache
            return self._value(combatant, index.column(), state, role)
        cells = self._cells.get(combatant.id)
        if cells is None:
            cells = self._cells[combatant.id] = {}
        key = (index.column(), role)
        try:
            return cells[key]
        except KeyError:
            value = cells[key] = self._value(combatant, index.column(), state, role)
            return value

    def _value(self, combatant: Combatant, column_number: int, state: Encounter, role: int) -> Any:
        column = _COLUMNS[column_number]  # not Column(...): an enum lookup on each of a repaint's ~400 calls
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            return self._text(combatant, column, state, role == Qt.ItemDataRole.EditRole)
        return self._other_role(combatant, column, state, role)

    def _text(self, combatant: Combatant, column: Column, state: Encounter, editing: bool) -> str:
        system = self._document.system
        if column is Column.NAME:
            return combatant.name
        if column is Column.SIDE:
            side = _(SIDE_LABELS[combatant.side])
            return _("{side} · hidden").format(side=side) if is_hidden(combatant) else side
        if column is Column.INITIATIVE:
            if editing:
                return str(combatant.initiative.rolled) if combatant.initiative else ""
            return system.score_text(combatant, state)
        if column is Column.ACTIONS:
            return self._actions_text(combatant, state)
        if column is Column.CONDITION:
            return self._condition_text(combatant, state)
        return self._effects_text(combatant, state)

    def _actions_text(self, combatant: Combatant, state: Encounter) -> str:
        delay = state.delays.get(combatant.id)
        if delay is not None:
            text = delay_text(self._document.system.time_units(), delay.into_next_pass, delay.pass_no)
            return _held_place(text, combatant.id, state, self._document.system)
        if combatant.id in state.clock.acted:  # a tick, not only a softer colour, says the turn is done
            return f"✓ {_('done')}"
        current = state.clock.current
        if current is None or combatant.id not in current.ids:
            return ""
        budget = self._document.system.action_budget(combatant, state)
        return " · ".join(f"{_(item.label)} {item.left}" for item in budget)

    def _condition_text(self, combatant: Combatant, state: Encounter) -> str:
        return condition_line(self._document.system, combatant, state, self._status(combatant, state))

    def _effects_text(self, combatant: Combatant, state: Encounter) -> str:
        names = [effect.name for effect in state.effects.values() if effect.target == combatant.id]
        return ", ".join(names)

    def _other_role(self, combatant: Combatant, column: Column, state: Encounter, role: int) -> Any:
        if role == Role.COMBATANT_ID:
            return combatant.id
        if role == Role.IS_CURRENT:
            return self._is_current(combatant, state)
        if role == Role.HAS_ACTED:
            return combatant.id in state.clock.acted
        if role == Role.SIDE:
            return combatant.side.value
        if role == Role.STATUS:
            return self._status(combatant, state).value
        if role == Role.TRACKS:
            return [(_(t.label), combatant.boxes(t.key), t.size)
                    for t in self._document.system.tracks(combatant, state)]
        if column is Column.CONDITION:
            return self._condition_role(combatant, state, role)
        return self._look(combatant, column, state, role)

    def _condition_role(self, combatant: Combatant, state: Encounter, role: int) -> Any:
        """The status icon, and for screen readers the cell's words (its text, then the notes)."""
        if role == Qt.ItemDataRole.DecorationRole:
            return status_icon(self._status(combatant, state))
        if role == Qt.ItemDataRole.AccessibleTextRole:
            return self._condition_text(combatant, state)
        if role == Qt.ItemDataRole.AccessibleDescriptionRole:
            return self._tooltip(combatant, Column.CONDITION, state)
        return self._look(combatant, Column.CONDITION, state, role)

    def _status(self, combatant: Combatant, state: Encounter) -> Status:
        known_state, statuses = self._statuses
        if known_state is not state:
            statuses = {}
            self._statuses = (state, statuses)
        status = statuses.get(combatant.id)
        if status is None:
            status = statuses[combatant.id] = self._document.system.status(combatant, state)
        return status

    def _is_current(self, combatant: Combatant, state: Encounter) -> bool:
        current = state.clock.current
        return current is not None and combatant.id in current.ids

    def _look(self, combatant: Combatant, column: Column, state: Encounter, role: int) -> Any:
        """Fonts, colours and tooltips: current actor bold, acted greyed, NPCs in italics."""
        if role == Qt.ItemDataRole.FontRole:
            font = QFont()
            font.setBold(self._is_current(combatant, state))
            font.setItalic(combatant.side is Side.OPPONENT)
            return font
        if role == Qt.ItemDataRole.ForegroundRole and self._dimmed(combatant, column, state):
            return QBrush(soft_text(QApplication.palette()))
        if role == Qt.ItemDataRole.ToolTipRole:
            tip = self._tooltip(combatant, column, state)
            return as_written(tip) if isinstance(tip, str) else tip
        if role == Qt.ItemDataRole.TextAlignmentRole and column is Column.INITIATIVE:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def _dimmed(self, combatant: Combatant, column: Column, state: Encounter) -> bool:
        """Those who have acted and those out of the fight are greyed, but never the word saying they are out."""
        active = self._status(combatant, state) is Status.ACTIVE
        if column is Column.CONDITION and not active:
            return False
        return combatant.id in state.clock.acted or not active

    def _tooltip(self, combatant: Combatant, column: Column, state: Encounter) -> str | None:
        if column in (Column.NAME, Column.SIDE) and is_hidden(combatant):
            return _("Hidden from the players: the player view leaves {name} out.").format(name=combatant.name)
        system = self._document.system
        status = self._status(combatant, state)
        word = _(STATUS_LABELS[status]) if status is not Status.ACTIVE else None
        if column is Column.EFFECTS:
            effects = [e for e in state.effects.values() if e.target == combatant.id]
            return "\n".join(f"{e.name}: {e.note}" if e.note else e.name for e in effects) or None
        if column is Column.CONDITION:
            notes = list(system.condition_notes(combatant, state))
            if word is not None and not any(word in note for note in notes):  # most games' notes say it already
                notes.insert(0, word)
            return "\n".join(notes) or None
        if column is Column.NAME:
            return word
        if column is Column.INITIATIVE and combatant.id in state.delays:
            return _(self._document.system.time_units().delayed_tip)
        return None

    # --- editing -------------------------------------------------------------------------------
    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.EditRole or not index.isValid():
            return False
        combatant_id = self._ids[index.row()]
        try:
            operation = self._edit_operation(combatant_id, Column(index.column()), str(value))
            if operation is None:
                return False
            self._document.apply(operation)
        except RulesError as refused:
            self.error.emit(str(refused))
            return False
        return True

    def _edit_operation(self, combatant_id: str, column: Column, text: str) -> Operation | None:
        if column is Column.NAME:
            return EditCombatant(combatant_id, "name", text)
        if column is Column.INITIATIVE:
            state, system = self._document.state, self._document.system
            own = system.score_edit(state.combatant(combatant_id), text, state)  # Člověk's place in the order
            return own if own is not None else SetInitiative(combatant_id, _parse_score(text))
        return None

    # --- keeping up with the document ----------------------------------------------------------
    def _on_replaced(self) -> None:
        self.beginResetModel()
        self._ids = ordered_ids(self._document.state, self._document.system)
        self._cells = {}
        self._cells_state = self._document.state
        self._clock = self._document.state.clock
        self.endResetModel()

    def _on_changed(self, change: Change) -> None:
        # The order depends on the clock, every score and the game's own state: recompute it, then move,
        # insert and remove only the rows that differ (the selection stays on the rows that stay).
        touched = self._touched(change)
        self._forget_cells(touched)
        self._sync_ids(ordered_ids(self._document.state, self._document.system))
        self._refresh(touched)

    def _touched(self, change: Change) -> frozenset[str] | None:
        """The combatants whose rows the change may alter, or None for every row.

        Every row: the effects, the delays, the options or the game's own state moved, or the round or the pass did
        (every game reads them for each row: scores, surprise, who may act). A turn within the same pass alters only
        the rows whose combatant started or ended its turn, acted or yielded (each game reads the clock for a row
        only as its own combatant's place in it), besides the combatants the change names; so does a roster change,
        which names those added and removed (a row reads its own combatant, as for a wound: adding ten gangers
        re-read every visible row)."""
        what = change.what
        if what.effects or what.effect_list or what.game_state or what.options or what.delays:
            return None
        touched = what.combatants
        if what.clock:
            old, new = self._clock, self._document.state.clock
            if (old.round, old.pass_no) != (new.round, new.pass_no):
                return None
            slots = [slot.ids for slot in (old.current, new.current) if slot is not None]
            touched = touched | {i for ids in slots for i in ids} | (old.acted ^ new.acted) \
                | (old.yielded ^ new.yielded)
        return touched

    def _forget_cells(self, touched: frozenset[str] | None) -> None:
        """Drop the cached cells of the rows the change may alter (those it emits dataChanged for)."""
        if touched is None:
            self._cells = {}
        else:
            for combatant_id in touched:
                self._cells.pop(combatant_id, None)
        self._cells_state = self._document.state
        self._clock = self._document.state.clock

    def _refresh(self, touched: frozenset[str] | None) -> None:
        if not self._ids:
            return
        if touched is None:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self._ids) - 1, len(Column) - 1))
            return
        rows = sorted(row for row in map(self.row_of, touched) if row >= 0)
        for first, last in _runs(rows):
            self.dataChanged.emit(self.index(first, 0), self.index(last, len(Column) - 1))


def condition_line(system: RuleSystem, combatant: Combatant, state: Encounter, status: Status | None = None) -> str:
    """The condition cell's words: the status when out of the fight, first so it is never elided, then the game's
    own short reading of the tracks (``Unconscious · P 4/10 · S 10/10``); ``status`` if the caller knows it."""
    summary = system.condition_summary(combatant, state)
    if status is None:
        status = system.status(combatant, state)
    if status is Status.ACTIVE:
        return summary
    word = _(STATUS_LABELS[status])
    return f"{word} · {summary}" if summary else word


def delay_text(units: TimeUnits, into_next_pass: bool, pass_no: int) -> str:
    """Where a delayed actor comes back, for the row of the initiative table, in the game's words."""
    if into_next_pass and units.passes is not None:
        return _(units.passes.delayed_into).format(number=pass_no + 1)
    return _(units.delayed)


def _held_place(text: str, combatant_id: str, state: Encounter, system: RuleSystem) -> str:
    """``text``, and where the held action comes among several taken at the end (the game's order of them: SR3
    orders them as tied initiative, not as they were held)."""
    held = [slot.ids[0] for slot in pass_slots(state, system) if slot.kind is SlotKind.DELAYED and slot.ids]
    if len(held) < 2 or combatant_id not in held:
        return text
    # The place first: the cell elides the end of a long text.
    return _("{place} of {count} at the end · {text}").format(text=text, place=held.index(combatant_id) + 1,
                                                              count=len(held))


def _parse_score(text: str) -> int | None:
    text = text.strip()
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        raise RulesError(_("An initiative score is a whole number, e.g. 17.")) from None


def plural_combatants(count: int) -> str:
    """"3 combatants" in the GM's language."""
    return ngettext("{count} combatant", "{count} combatants", count).format(count=count)
