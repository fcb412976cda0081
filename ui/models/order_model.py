"""The public turn order of the current pass, for the player view: names and roles, never scores (the status
word of someone out of the fight is shown with the name), and nobody the GM hides from the players.

Rows: the slot acting now, the slots still to act in this pass (as the RuleSystem orders them), then those
who have acted. A row is keyed by what it shows (a delayed action is a row of its own), so after a change
the model inserts and removes the rows that come and go, moves the others with ``layoutChanged`` and emits
``dataChanged`` only for the roles that changed; it resets only when another fight is loaded.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import IntEnum
from typing import Any

from PySide6.QtCore import QAbstractListModel, QByteArray, QModelIndex, QPersistentModelIndex, Qt

from app.document import Change, EncounterDocument
from app.i18n import _
from rules.combatants import is_hidden
from rules.encounter import STATUS_LABELS, Combatant, Encounter, Slot, SlotKind, Status
from rules.systems.base import RuleSystem
from rules.turns import pass_slots, played_order
from ui.models.base import sync_rows
from ui.widgets.messages import as_written

Index = QModelIndex | QPersistentModelIndex
RowKey = tuple[str, tuple[str, ...]]

ACTED = "acted"


class Role(IntEnum):
    """Named data roles of the turn order."""

    NAME = Qt.ItemDataRole.UserRole + 1
    IS_CURRENT = Qt.ItemDataRole.UserRole + 2
    SIDE = Qt.ItemDataRole.UserRole + 3
    STATUS = Qt.ItemDataRole.UserRole + 4
    HAS_ACTED = Qt.ItemDataRole.UserRole + 5
    KIND = Qt.ItemDataRole.UserRole + 6  # SlotKind value, or "acted"
    IDS = Qt.ItemDataRole.UserRole + 7


@dataclass(frozen=True)
class OrderRow:
    """What one row shows; compared field by field to find the roles that changed."""

    key: RowKey
    name: str
    display: str  # the names, with the status word of anyone out of the fight
    is_current: bool
    has_acted: bool
    side: str | None
    status: str | None
    kind: str
    title: str = ""  # the display without status words: the player view's big "now acting" heading

    def value(self, role: int) -> Any:
        """The row's data for ``role`` (None when it has none)."""
        attribute = _ROLE_FIELDS.get(role)
        if attribute is None:
            return None
        value = getattr(self, attribute)
        if role == Qt.ItemDataRole.ToolTipRole:
            return as_written(value)  # names are never markup
        return list(value[1]) if attribute == "key" else value


_ROLE_FIELDS: dict[int, str] = {
    Qt.ItemDataRole.DisplayRole: "display", Qt.ItemDataRole.ToolTipRole: "display",
    Role.NAME: "name", Role.IS_CURRENT: "is_current", Role.SIDE: "side", Role.STATUS: "status",
    Role.HAS_ACTED: "has_acted", Role.KIND: "kind", Role.IDS: "key",
}


def _roles_of(field_name: str) -> list[int]:
    return [role for role, name in _ROLE_FIELDS.items() if name == field_name]


def _slot_row(slot: Slot, state: Encounter, system: RuleSystem, current: bool) -> OrderRow | None:
    """A row for a slot still to play (or playing now); None when the GM hides everyone in it."""
    prefix = SlotKind.DELAYED.value if slot.kind is SlotKind.DELAYED else ""
    if slot.kind is SlotKind.TIMER:
        effect = state.effects.get(slot.ids[0])
        name = effect.name if effect is not None else _("Timer")
        return OrderRow((prefix, slot.ids), name, name, current, False, None, None, slot.kind.value, name)
    members = [state.combatants[i] for i in slot.ids if i in state.combatants]
    shown_members = [member for member in members if not is_hidden(member)]
    if members and not shown_members:
        return None
    name = ", ".join(c.name for c in shown_members)
    shown = ", ".join(_with_status(c, state, system) for c in shown_members)
    delayed = slot.kind is SlotKind.DELAYED
    display = _("{name} (delayed action)").format(name=shown) if delayed else shown
    title = _("{name} (delayed action)").format(name=name) if delayed else name
    first = shown_members[0] if shown_members else None
    # Keyed by whom it shows, so the row never names (even by id) someone hidden.
    key: RowKey = (prefix, tuple(c.id for c in shown_members) if len(shown_members) < len(members) else slot.ids)
    return OrderRow(key, name, display, current, False, first.side.value if first else None,
                    _worst(shown_members, state, system), slot.kind.value, title)


def _worst(members: list[Combatant], state: Encounter, system: RuleSystem) -> str | None:
    """The row's status: the worst of its members' (one out of the fight marks the row)."""
    statuses = [system.status(c, state) for c in members]
    return max(statuses, key=list(Status).index).value if statuses else None


def _acted_row(combatant: Combatant, state: Encounter, system: RuleSystem) -> OrderRow:
    return OrderRow(("", (combatant.id,)), combatant.name, _with_status(combatant, state, system), False, True,
                    combatant.side.value, system.status(combatant, state).value, ACTED, combatant.name)


def _with_status(combatant: Combatant, state: Encounter, system: RuleSystem) -> str:
    """The name, and the status word of someone out of the fight (``Ganger 1 · Dying``): a word players may
    read, never a number."""
    status = system.status(combatant, state)
    if status is Status.ACTIVE:
        return combatant.name
    return f"{combatant.name} · {_(STATUS_LABELS[status])}"


def _same_slot(first: Slot, second: Slot) -> bool:
    return first.kind is second.kind and first.ids == second.ids


def order_rows(state: Encounter, system: RuleSystem) -> list[OrderRow]:
    """The current slot, then the rest of this pass in order, then those who have acted."""
    clock = state.clock
    slots: list[OrderRow | None] = []
    if clock.current is not None:
        slots.append(_slot_row(clock.current, state, system, current=True))
    if clock.pass_no > 0:  # pass 0: this round's initiative is not rolled yet, so there is no order
        slots += [_slot_row(slot, state, system, current=False) for slot in pass_slots(state, system)
                  if clock.current is None or not _same_slot(slot, clock.current)]
    rows = [row for row in slots if row is not None]
    placed = {i for row in rows for i in row.key[1]}
    rows += [_acted_row(state.combatant(cid), state, system) for cid in played_order(state, system)
             if cid not in placed and not is_hidden(state.combatant(cid))]
    return _unique(rows)


def _unique(rows: list[OrderRow]) -> list[OrderRow]:
    """One row per key (a game could list a slot twice; a view must not get duplicate rows)."""
    seen: set[RowKey] = set()
    unique = []
    for row in rows:
        if row.key not in seen:
            seen.add(row.key)
            unique.append(row)
    return unique


class TurnOrderModel(QAbstractListModel):
    """The order players may see: who acts now, who comes next, who has acted."""

    NameRole = Role.NAME
    IsCurrentRole = Role.IS_CURRENT
    SideRole = Role.SIDE
    StatusRole = Role.STATUS
    HasActedRole = Role.HAS_ACTED
    KindRole = Role.KIND
    IdsRole = Role.IDS

    def __init__(self, document: EncounterDocument) -> None:
        super().__init__()
        self._document = document
        self._rows = order_rows(document.state, document.system)
        document.changed.connect(self._on_changed)
        document.replaced.connect(self._reset)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        return self._rows[index.row()].value(role)

    def row(self, number: int) -> OrderRow:
        """Everything row ``number`` shows."""
        return self._rows[number]

    def roleNames(self) -> dict[int, QByteArray]:
        names = super().roleNames()
        extra = {Role.NAME: b"name", Role.IS_CURRENT: b"isCurrent", Role.SIDE: b"side", Role.STATUS: b"status",
                 Role.HAS_ACTED: b"hasActed", Role.KIND: b"kind", Role.IDS: b"ids"}
        names.update({role: QByteArray(name) for role, name in extra.items()})
        return names

    # --- updates -------------------------------------------------------------------------------
    def _reset(self) -> None:
        self.beginResetModel()
        self._rows = order_rows(self._document.state, self._document.system)
        self.endResetModel()

    def _on_changed(self, change: Change) -> None:
        del change  # the order depends on the whole clock and every score: recompute, then diff
        new = order_rows(self._document.state, self._document.system)
        old_by_key = {row.key: row for row in self._rows}
        new_by_key = {row.key: row for row in new}
        known = {**new_by_key, **old_by_key}  # rows that stay show what they showed until dataChanged below

        def show(keys: list[RowKey]) -> None:
            self._rows = [known[key] for key in keys]

        sync_rows(self, [row.key for row in self._rows], [row.key for row in new], show)
        self._rows = new
        self._announce(old_by_key)

    def _announce(self, old_by_key: dict[RowKey, OrderRow]) -> None:
        for number, row in enumerate(self._rows):
            before = old_by_key.get(row.key)
            if before is None:
                continue  # a row just inserted: nothing shown before
            roles = [role for spec in fields(OrderRow) if getattr(before, spec.name) != getattr(row, spec.name)
                     for role in _roles_of(spec.name)]
            if roles:
                index = self.index(number, 0)
                self.dataChanged.emit(index, index, roles)
