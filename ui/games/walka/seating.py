"""Walka's seating order: a tree model of seats and the characters each seat acts for, with drag and drop,
and the operations its edits make (the drawing of the table is in ``walka_table``).

The seating applies to the whole encounter. Dragging a seat reorders the table (clockwise from the GM's
left); dragging a character onto a seat gives it to that player (or to the GM). Every edit becomes one
:class:`~rules.systems.walka.SetSeating` applied through the document, so it undoes like anything else.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Final

from PySide6.QtCore import (
    QAbstractItemModel,
    QMimeData,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtGui import QFont

from app.i18n import N_, _, ngettext
from rules.encounter import Encounter, Side, frozen_map
from rules.history import Operation
from rules.systems.base import RuleSystem
from rules.systems.walka import GM_SEAT, SetSeating, WalkaSystem
from rules.systems.walka.seating import listed_seats, members, seat_label, table_seats
from ui.widgets.messages import as_written

Index = QModelIndex | QPersistentModelIndex
Apply = Callable[[Operation], bool]
MIME_TYPE: Final[str] = "application/x-bojovka-walka-seating"
_SEAT_ROW: Final[int] = 0  # internal id of a seat row; a member row stores its seat's row + 1


# --- what the views show, computed from the state --------------------------------------------------------


@dataclass(frozen=True)
class MemberRow:
    """A character a seat acts for."""

    id: str
    name: str
    side: Side
    able: bool


@dataclass(frozen=True)
class SeatRow:
    """A seat at the table: its d12, its place in this round's order, who it acts for."""

    seat: str
    label: str
    roll: int | None
    turn: int | None  # 1 = acts first this round; None: not in the order (nobody able, or not rolled)
    start: bool
    current: bool
    acted: bool
    members: tuple[MemberRow, ...]

    @property
    def is_gm(self) -> bool:
        """The GM's seat (it cannot be moved: the table starts at the GM's left)."""
        return self.seat == GM_SEAT


def seating_rows(state: Encounter, walka: WalkaSystem) -> list[SeatRow]:
    """Every seat in clockwise order from the GM's left, the GM's seat always last."""
    order = walka.order(state)
    able = set(walka.able(state))
    clock = state.clock
    current = set(clock.current.ids) if clock.current is not None else set()
    started = clock.pass_no > 0
    rows = []
    for seat in [*(s for s in table_seats(state) if s != GM_SEAT), GM_SEAT]:
        people = tuple(MemberRow(c.id, c.name, c.side, c.id in able) for c in members(state, seat))
        turn = order.seats.index(seat) + 1 if started and seat in order.seats else None
        waiting = [m.id for m in people if m.able and m.id not in clock.acted]
        rows.append(SeatRow(seat, seat_label(seat), order.rolls.get(seat), turn, started and seat == order.start,
                            bool(current & {m.id for m in people}), started and turn is not None and not waiting,
                            people))
    return rows


# --- the operations the edits make ---------------------------------------------------------------------


def player_seats(state: Encounter) -> list[str]:
    """The players' seats as the table has them now (seats only a character names included)."""
    return [seat for seat in table_seats(state) if seat != GM_SEAT]


def _seating(state: Encounter, seats: Sequence[str], moved: dict[str, str | None] | None = None) -> SetSeating | None:
    """The SetSeating that lists ``seats`` and moves ``moved`` (None when nothing would change).

    A player character sitting at the seat named after it, once that seat is listed, is given it by name, so
    that the seat keeps it when the character is renamed.
    """
    listed = set(seats)
    implicit = {c.id: c.name for c in state.combatants.values()
                if not c.seat and c.side is Side.PLAYER and c.name in listed}
    assignments = {**implicit, **(moved or {})}
    changed = {cid: seat for cid, seat in assignments.items() if state.combatant(cid).seat != seat}
    if tuple(seats) == listed_seats(state) and not changed:
        return None
    return SetSeating(tuple(seats), frozen_map(changed))


def move_seat(state: Encounter, seat: str, position: int) -> SetSeating | None:
    """Put a player's seat at ``position`` (0 = at the GM's left); None when nothing would change.

    Every seat at the table gets listed, those only a character named too: their place is now decided.
    """
    seats = player_seats(state)
    if seat not in seats:
        return None
    index = seats.index(seat)
    seats.pop(index)
    position = max(0, min(position if position <= index else position - 1, len(seats)))
    seats.insert(position, seat)
    return _seating(state, seats)


def assign(state: Encounter, combatant_id: str, seat: str) -> SetSeating | None:
    """Give a character to a seat (a player's, or the GM's); None when it already sits there."""
    if combatant_id not in state.combatants:
        return None
    seats = list(listed_seats(state))
    if seat != GM_SEAT and seat not in seats:
        seats.append(seat)  # a seat only a character named so far: it is a real seat from now on
    return _seating(state, seats, {combatant_id: seat})


def add_seat(state: Encounter, name: str) -> SetSeating | None:
    """A new, empty seat after the listed ones (at the GM's right, before seats not placed yet)."""
    return _seating(state, [*listed_seats(state), name.strip()])


def remove_seat(state: Encounter, seat: str) -> SetSeating | None:
    """Take a listed seat away; whoever sat there goes back to their default seat."""
    if seat not in listed_seats(state):
        return None
    moved: dict[str, str | None] = {c.id: None for c in members(state, seat) if c.seat is not None}
    return _seating(state, [s for s in listed_seats(state) if s != seat], moved)


def rename_seat(state: Encounter, seat: str, name: str) -> SetSeating | None:
    """Rename a seat; whoever sits there stays (the seat is listed where it sits now)."""
    seats = player_seats(state)
    if seat not in seats or name.strip() == seat:
        return None
    renamed = [name.strip() if s == seat else s for s in seats]
    return _seating(state, renamed, {c.id: name.strip() for c in members(state, seat)})


# --- the tree model ----------------------------------------------------------------------------------


class SeatColumn(IntEnum):
    """Columns of the seating tree."""

    NAME = 0
    ROLL = 1
    TURN = 2


HEADERS: Final[dict[SeatColumn, str]] = {SeatColumn.NAME: N_("Seat"), SeatColumn.ROLL: N_("d12"),
                                         SeatColumn.TURN: N_("Turn")}


class SeatRole(IntEnum):
    """Named data roles of the seating tree."""

    SEAT = Qt.ItemDataRole.UserRole + 1
    COMBATANT_ID = Qt.ItemDataRole.UserRole + 2
    IS_GM = Qt.ItemDataRole.UserRole + 3
    IS_CURRENT = Qt.ItemDataRole.UserRole + 4


class SeatingModel(QAbstractItemModel):
    """Seats (top level, clockwise from the GM's left, the GM last) and the characters each acts for."""

    def __init__(self, apply: Apply) -> None:
        super().__init__()
        self._apply = apply
        self._state: Encounter | None = None
        self._rows: list[SeatRow] = []

    # --- keeping up with the state ----------------------------------------------------------
    def set_state(self, state: Encounter, system: RuleSystem) -> None:
        """Show ``state``: rows that keep their shape are updated in place, anything else resets."""
        self._state = state
        rows = seating_rows(state, system) if isinstance(system, WalkaSystem) else []
        if rows == self._rows:
            return
        if _shape(rows) != _shape(self._rows):
            self.beginResetModel()
            self._rows = rows
            self.endResetModel()
            return
        self._rows = rows
        last = self.index(len(rows) - 1, len(SeatColumn) - 1)
        self.dataChanged.emit(self.index(0, 0), last)
        for row in range(len(rows)):
            parent = self.index(row, 0)
            count = self.rowCount(parent)
            if count:
                self.dataChanged.emit(self.index(0, 0, parent), self.index(count - 1, len(SeatColumn) - 1, parent))

    def rows(self) -> list[SeatRow]:
        """The seats as shown."""
        return list(self._rows)

    def seat_index(self, seat: str) -> QModelIndex:
        """The index of a seat's row (invalid if not shown)."""
        for row, shown in enumerate(self._rows):
            if shown.seat == seat:
                return self.index(row, 0)
        return QModelIndex()

    # --- structure --------------------------------------------------------------------------
    def index(self, row: int, column: int, parent: Index = QModelIndex()) -> QModelIndex:  # noqa: B008
        if not self.hasIndex(row, column, parent):
            return QModelIndex()
        if not parent.isValid():
            return self.createIndex(row, column, _SEAT_ROW)
        return self.createIndex(row, column, parent.row() + 1)

    def parent(self, index: Index = QModelIndex()) -> QModelIndex:  # type: ignore[override]  # noqa: B008
        if not index.isValid() or index.internalId() == _SEAT_ROW:
            return QModelIndex()
        return self.createIndex(int(index.internalId()) - 1, 0, _SEAT_ROW)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        if not parent.isValid():
            return len(self._rows)
        if parent.internalId() == _SEAT_ROW and parent.column() == 0 and 0 <= parent.row() < len(self._rows):
            return len(self._rows[parent.row()].members)
        return 0

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return len(SeatColumn)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole and (
                0 <= section < len(SeatColumn)):
            return _(HEADERS[SeatColumn(section)])
        return None

    def _seat_of(self, index: Index) -> SeatRow | None:
        if not index.isValid():
            return None
        row = index.row() if index.internalId() == _SEAT_ROW else int(index.internalId()) - 1
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def _member_of(self, index: Index) -> MemberRow | None:
        seat = self._seat_of(index)
        if seat is None or index.internalId() == _SEAT_ROW or not 0 <= index.row() < len(seat.members):
            return None
        return seat.members[index.row()]

    # --- data -------------------------------------------------------------------------------
    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        seat = self._seat_of(index)
        if seat is None:
            return None
        member = self._member_of(index)
        column = SeatColumn(index.column())
        if role == SeatRole.SEAT:
            return seat.seat
        if role == SeatRole.COMBATANT_ID:
            return member.id if member is not None else None
        if role == SeatRole.IS_GM:
            return seat.is_gm
        if role == SeatRole.IS_CURRENT:
            return seat.current
        if member is not None:
            return _member_data(member, column, role)
        return _seat_data(seat, column, role)

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.ItemIsDropEnabled  # between seats
        base = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        seat = self._seat_of(index)
        if self._member_of(index) is not None:
            return base | Qt.ItemFlag.ItemIsDragEnabled | Qt.ItemFlag.ItemIsDropEnabled
        if seat is None or seat.is_gm:
            return base | Qt.ItemFlag.ItemIsDropEnabled
        editable = Qt.ItemFlag.ItemIsEditable if index.column() == SeatColumn.NAME else Qt.ItemFlag.NoItemFlags
        return base | editable | Qt.ItemFlag.ItemIsDragEnabled | Qt.ItemFlag.ItemIsDropEnabled

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        seat = self._seat_of(index)
        if role != Qt.ItemDataRole.EditRole or seat is None or self._member_of(index) is not None or seat.is_gm:
            return False
        return self._run(rename_seat(self._state, seat.seat, str(value)) if self._state else None)

    # --- drag and drop ----------------------------------------------------------------------
    def supportedDropActions(self) -> Qt.DropAction:
        return Qt.DropAction.MoveAction

    def supportedDragActions(self) -> Qt.DropAction:
        return Qt.DropAction.MoveAction

    def mimeTypes(self) -> list[str]:
        return [MIME_TYPE]

    def mimeData(self, indexes: Sequence[QModelIndex]) -> QMimeData:
        data = QMimeData()
        for index in indexes:
            member, seat = self._member_of(index), self._seat_of(index)
            if member is not None:
                data.setData(MIME_TYPE, json.dumps({"combatant": member.id}).encode())
                break
            if seat is not None and not seat.is_gm:
                data.setData(MIME_TYPE, json.dumps({"seat": seat.seat}).encode())
                break
        return data

    def canDropMimeData(self, data: QMimeData, action: Qt.DropAction, row: int, column: int,
                        parent: Index) -> bool:
        return self._drop_operation(data, row, parent) is not None

    def dropMimeData(self, data: QMimeData, action: Qt.DropAction, row: int, column: int, parent: Index) -> bool:
        if action == Qt.DropAction.IgnoreAction:
            return True
        return self._run(self._drop_operation(data, row, parent))

    def _drop_operation(self, data: QMimeData, row: int, parent: Index) -> SetSeating | None:
        payload = _payload(data)
        if self._state is None or payload is None:
            return None
        target = self._seat_of(parent)
        if "combatant" in payload:
            return assign(self._state, payload["combatant"], target.seat) if target is not None else None
        return move_seat(self._state, payload["seat"], self._drop_position(row, target))

    def _drop_position(self, row: int, target: SeatRow | None) -> int:
        """Where a dropped seat goes among the players' seats: before the seat dropped on, else at ``row``."""
        players = len(self._rows) - 1  # the GM's row is last
        if target is not None:
            return players if target.is_gm else self._rows.index(target)
        return players if row < 0 else min(row, players)

    def _run(self, operation: SetSeating | None) -> bool:
        return operation is not None and self._apply(operation)


def _shape(rows: Sequence[SeatRow]) -> list[tuple[str, tuple[str, ...]]]:
    return [(row.seat, tuple(member.id for member in row.members)) for row in rows]


def _payload(data: QMimeData) -> dict[str, str] | None:
    if not data.hasFormat(MIME_TYPE):
        return None
    try:
        payload = json.loads(bytes(data.data(MIME_TYPE).data()).decode())
    except (ValueError, UnicodeDecodeError):
        return None
    if isinstance(payload, dict) and len(payload) == 1:
        key, value = next(iter(payload.items()))
        if key in ("combatant", "seat") and isinstance(value, str):
            return {key: value}
    return None


def _seat_data(seat: SeatRow, column: SeatColumn, role: int) -> Any:
    if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
        if column is SeatColumn.NAME:
            return seat.label if role == Qt.ItemDataRole.DisplayRole or seat.is_gm else seat.seat
        if column is SeatColumn.ROLL:
            return "–" if seat.roll is None else str(seat.roll)
        return turn_text(seat)
    if role == Qt.ItemDataRole.FontRole:
        font = QFont()
        font.setBold(seat.current or column is SeatColumn.NAME)
        return font
    if role == Qt.ItemDataRole.ToolTipRole:
        return as_written(seat_tooltip(seat))
    if role == Qt.ItemDataRole.TextAlignmentRole and column is not SeatColumn.NAME:
        return int(Qt.AlignmentFlag.AlignCenter)
    return None


def _member_data(member: MemberRow, column: SeatColumn, role: int) -> Any:
    if role == Qt.ItemDataRole.DisplayRole and column is SeatColumn.NAME:
        return member.name if member.able else _("{name} (cannot act)").format(name=member.name)
    if role == Qt.ItemDataRole.FontRole:
        font = QFont()
        font.setItalic(member.side is Side.OPPONENT)
        return font
    if role == Qt.ItemDataRole.ToolTipRole:
        return as_written(_("Drag onto another seat to give {name} to that player (or to the GM).").format(
            name=member.name))
    return None


def turn_text(seat: SeatRow) -> str:
    """"now", "1.", "done" or "" for the seat's place in this round."""
    if seat.current:
        return _("now")
    if seat.acted:
        return _("done")
    return "" if seat.turn is None else _("{number}.").format(number=seat.turn)


def seat_tooltip(seat: SeatRow) -> str:
    """Who the seat is and what it does this round."""
    if seat.is_gm:
        lines = [_("The GM's seat acts for every character without a player.")]
    else:
        lines = [_("{seat}'s seat; drag to move it around the table, double-click to rename.").format(
            seat=seat.label)]
    if seat.start:
        lines.append(_("Lowest roll: this seat starts the round."))
    lines.append(ngettext("Acts for {count} character.", "Acts for {count} characters.", len(seat.members)).format(
        count=len(seat.members)))
    return "\n".join(lines)
