"""Walka's sections of the combatant details panel: the seating order (for the whole encounter) and the
combatant's actions, knock-down and Chances.

Each section is built with the panel's ``apply`` and refreshed with the combatant shown; every click becomes
one operation. The seating concerns everyone, so the section also follows the open document when it can
find it (the main window's), and after its own edits it asks the panel to show the new state.
"""

from __future__ import annotations

from typing import Final

from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QToolButton,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from app.document import Change, EncounterDocument
from app.i18n import N_, _, ngettext
from rules.encounter import Combatant, Encounter, Status
from rules.errors import OperationError
from rules.history import Operation
from rules.systems.base import RuleSystem
from rules.systems.walka import (
    GM_SEAT,
    DecideGmTie,
    SetDying,
    SetKnockedDown,
    SpendChance,
    WalkaAction,
    WalkaSystem,
)
from rules.systems.walka import actions as walka_actions
from rules.systems.walka.ops import MAX_EVENT
from rules.systems.walka.seating import effective_seat, listed_seats, seat_label
from rules.systems.walka.system import chances_left, hit_points
from ui.games.base import Apply, SectionFactory
from ui.games.walka.seating import (
    SeatColumn,
    SeatingModel,
    SeatRole,
    add_seat,
    assign,
    move_seat,
    player_seats,
    remove_seat,
)
from ui.games.walka.table import TableDiagram
from ui.widgets.inputs import spin_box
from ui.widgets.messages import as_written

#: The action buttons of the actions section, in the order they are laid out.
ACTION_BUTTONS: Final[tuple[str, ...]] = (
    walka_actions.MOVE, walka_actions.RUN, walka_actions.CHANGE_WEAPON, walka_actions.AIM,
    walka_actions.PREPARE, walka_actions.NON_COMBAT, walka_actions.STAND_UP,
)
ACTION_TIPS: Final[dict[str, str]] = {
    walka_actions.MOVE: N_("Up to 5 squares (10 m): the squares beside it."),
    walka_actions.RUN: N_("Both actions on moving: 10 squares (20 m)."),
    walka_actions.CHANGE_WEAPON: N_("An attack later this round takes a penalty die."),
    walka_actions.AIM: N_("Doubles the damage pool of the next attack."),
    walka_actions.PREPARE: N_("One advantage die on the prepared action next round."),
    walka_actions.STAND_UP: N_("Needed after being knocked down, before fighting again."),
    walka_actions.NON_COMBAT: N_("Use an item, search for an access point, stabilise an ally, talk someone "
                                 "into a truce."),
}


def _walka(system: RuleSystem) -> WalkaSystem | None:
    return system if isinstance(system, WalkaSystem) else None


def _find_document(widget: QWidget) -> EncounterDocument | None:
    """The open document, if an ancestor (the main window) offers it as ``document``."""
    current: QWidget | None = widget
    while current is not None:
        document = getattr(current, "document", None)
        if isinstance(document, EncounterDocument):
            return document
        current = current.parentWidget()
    return None


def _refresh_panel(widget: QWidget) -> None:
    """Ask the details panel around ``widget`` to show the document's state now (public ``refresh``)."""
    from ui.widgets.details import CombatantDetails

    current: QWidget | None = widget.parentWidget()
    while current is not None:
        if isinstance(current, CombatantDetails):
            current.refresh()
            return
        current = current.parentWidget()


# --- actions, knock-down and Chances -----------------------------------------------------------------


class ActionsSection(QGroupBox):
    """The two actions of the round (with buttons for Walka's own actions), knocked down, and Chances."""

    def __init__(self, apply: Apply) -> None:
        super().__init__(_("Walka actions and Chances"))
        self._apply = apply
        self._id = ""
        self.counter = QLabel()
        self.buttons: dict[str, QPushButton] = {}
        self.knocked_down = QCheckBox(_("Knocked down"))
        self.knocked_down.setToolTip(_("A knocked-down character must stand up before fighting again."))
        self.dying = QCheckBox(_("Dying (your call)"))
        self.dying.setToolTip(_("The rules define no dying state: mark it at 0 Hit Points if the fight calls for "
                                "it; untick it when a team-mate stabilises them."))
        self.chances = QLabel()
        self.spend_chance = QPushButton(_("Spend a Chance"))
        # How far a Move goes (walka.md Decision: 5 squares is the most; by option always 5).
        self.squares = spin_box(1, walka_actions.SQUARES_PER_MOVE, walka_actions.SQUARES_PER_MOVE,
                                suffix=_(" sq."), name=_("Squares of the Move"))
        # What a Prepare is for (walka.md: "declared for a specific event"), typed before pressing Prepare.
        self.prepare_for = QLineEdit(placeholderText=_("Prepare for… e.g. the guard opens the door"))
        self.prepare_for.setMaxLength(MAX_EVENT)
        self.prepare_for.setAccessibleName(_("What the Prepare is for"))
        grid = QGridLayout()
        for number, kind in enumerate(ACTION_BUTTONS):
            button = QPushButton(_(walka_actions.ACTION_LABELS[kind]))
            button.clicked.connect(lambda _checked=False, action=kind: self._act(action))
            self.buttons[kind] = button
            if kind == walka_actions.MOVE:
                move = QHBoxLayout()
                move.addWidget(button, 1)
                move.addWidget(self.squares)
                grid.addLayout(move, number // 2, number % 2)
            else:
                grid.addWidget(button, number // 2, number % 2)  # two a row: three overflowed the dock in Polish
        chance_row = QHBoxLayout()
        chance_row.addWidget(self.chances, 1)
        chance_row.addWidget(self.spend_chance)
        layout = QVBoxLayout(self)
        layout.addWidget(self.counter)
        layout.addLayout(grid)
        layout.addWidget(self.prepare_for)
        layout.addWidget(self.knocked_down)
        layout.addWidget(self.dying)
        layout.addLayout(chance_row)
        self.knocked_down.clicked.connect(lambda down: self._apply(SetKnockedDown(self._id, bool(down))))
        self.dying.clicked.connect(self._set_dying)
        self.spend_chance.clicked.connect(lambda: self._apply(SpendChance(self._id)))

    def refresh(self, combatant: Combatant, state: Encounter, system: RuleSystem) -> None:
        """Show what the combatant may still do this round and its Chances."""
        self._id = combatant.id
        walka = _walka(system)
        if walka is None:
            return
        left = walka_actions.left(combatant)
        dots = "●" * left + "○" * (walka_actions.ACTIONS_PER_ROUND - left)
        self.counter.setText(_("Actions this round: {dots} {left} of {total} left").format(
            dots=dots, left=left, total=walka_actions.ACTIONS_PER_ROUND))
        for kind, button in self.buttons.items():
            self._show_button(kind, button, combatant, state, walka)
        self.squares.setVisible(not walka.move_exactly(state))
        self.squares.setEnabled(self.buttons[walka_actions.MOVE].isEnabled())
        self.knocked_down.setChecked(walka_actions.knocked_down(combatant))
        self.dying.setChecked(walka_actions.dying(combatant))
        self.dying.setEnabled(walka_actions.dying(combatant) or walka.status(combatant, state) is Status.UNCONSCIOUS)
        self._show_chances(combatant, state, walka)

    def _show_button(self, kind: str, button: QPushButton, combatant: Combatant, state: Encounter,
                     walka: WalkaSystem) -> None:
        tip = _(ACTION_TIPS[kind])
        try:
            walka.check_action(combatant, kind, state)
        except OperationError as reason:
            button.setEnabled(False)
            button.setToolTip(as_written(f"{tip}\n{reason}"))
            return
        button.setEnabled(True)
        button.setToolTip(tip)

    def _show_chances(self, combatant: Combatant, state: Encounter, walka: WalkaSystem) -> None:
        left, size = chances_left(combatant), combatant.pools["chance"].size if "chance" in combatant.pools else 0
        self.chances.setText(ngettext("Chance: {left} of {size} left", "Chances: {left} of {size} left", size)
                             .format(left=left, size=size))
        down = hit_points(combatant) == 0 and walka.status(combatant, state) in (Status.UNCONSCIOUS, Status.DYING)
        self.spend_chance.setEnabled(down and left > 0)
        self.spend_chance.setToolTip(as_written(_("At 0 Hit Points {name} falls unconscious unless a Chance is "
                                                  "spent.").format(name=combatant.name)))

    def _set_dying(self, dying: bool) -> None:
        if not self._apply(SetDying(self._id, dying)):
            self.dying.setChecked(not dying)  # refused (the message says why): the box shows the fight as it is

    def _act(self, kind: str) -> None:
        short = kind == walka_actions.MOVE and not self.squares.isHidden() and \
            self.squares.value() < walka_actions.SQUARES_PER_MOVE
        event = self.prepare_for.text().strip() if kind == walka_actions.PREPARE else ""
        if self._apply(WalkaAction(self._id, kind, self.squares.value() if short else 0, event)):
            self.squares.setValue(walka_actions.SQUARES_PER_MOVE)  # the next Move is a whole one again
            if kind == walka_actions.PREPARE:
                self.prepare_for.clear()


# --- the seating order ---------------------------------------------------------------------------------


class SeatingSection(QGroupBox):
    """The table's seating order, for the whole encounter: drag seats to reorder them, drag characters onto
    seats; the d12 of each seat, who starts, whose turn it is; the GM's call when the GM ties for lowest."""

    def __init__(self, apply: Apply) -> None:
        super().__init__(_("Seating order — applies to the whole encounter"))
        self._apply = apply
        self._id = ""
        self._state: Encounter | None = None
        self._system: RuleSystem | None = None
        self._document: EncounterDocument | None = None
        self.diagram = TableDiagram()
        self.model = SeatingModel(self._apply_and_show)
        self.view = self._build_view()
        self.new_seat = QLineEdit(placeholderText=_("Player's name"))
        self.new_seat.setAccessibleName(_("Name of a new seat"))
        self.add_button = QPushButton(_("Add seat"))
        self.up_button, self.down_button = QToolButton(), QToolButton()
        self.remove_button = QPushButton(_("Remove seat"))
        self.seat_combo = QComboBox()
        self.tie_label = QLabel()
        self.players_first = QPushButton(_("Players first"))
        self.gm_first = QPushButton(_("GM first"))
        self.tie_box = QWidget()
        self._build_layout()
        self._connect()

    def _build_view(self) -> QTreeView:
        view = QTreeView()
        view.setModel(self.model)
        view.setAccessibleName(_("Seats and the characters each seat acts for"))
        view.setDragDropMode(QAbstractItemView.DragDropMode.DragDrop)
        view.setDefaultDropAction(Qt.DropAction.MoveAction)
        view.setDragEnabled(True)
        view.setAcceptDrops(True)
        view.setDropIndicatorShown(True)
        view.setUniformRowHeights(True)
        view.setEditTriggers(QAbstractItemView.EditTrigger.DoubleClicked | QAbstractItemView.EditTrigger.EditKeyPressed)
        header = view.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(SeatColumn.NAME, QHeaderView.ResizeMode.Stretch)
        for column in (SeatColumn.ROLL, SeatColumn.TURN):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.model.modelReset.connect(view.expandAll)
        return view

    def _build_layout(self) -> None:
        self.up_button.setText("↑")
        self.down_button.setText("↓")
        self.up_button.setToolTip(_("Move the seat one place towards the GM's left"))
        self.down_button.setToolTip(_("Move the seat one place towards the GM's right"))
        self.up_button.setAccessibleName(self.up_button.toolTip())
        self.down_button.setAccessibleName(self.down_button.toolTip())
        hint = QLabel(_("Clockwise from the GM's left. Drag seats to reorder, characters onto seats."))
        hint.setWordWrap(True)
        add_row = QHBoxLayout()
        add_row.addWidget(self.new_seat, 1)
        add_row.addWidget(self.add_button)
        move_row = QHBoxLayout()
        move_row.addWidget(self.up_button)
        move_row.addWidget(self.down_button)
        move_row.addStretch(1)
        move_row.addWidget(self.remove_button)
        seat_form = QFormLayout()
        seat_form.addRow(_("This character's seat"), self.seat_combo)
        tie = QGridLayout(self.tie_box)
        tie.setContentsMargins(0, 0, 0, 0)
        self.tie_label.setWordWrap(True)
        tie.addWidget(self.tie_label, 0, 0, 1, 2)
        tie.addWidget(self.players_first, 1, 0)
        tie.addWidget(self.gm_first, 1, 1)
        layout = QVBoxLayout(self)
        for part in (self.diagram, self.tie_box, hint, self.view):
            layout.addWidget(part)
        layout.addLayout(move_row)
        layout.addLayout(add_row)
        layout.addLayout(seat_form)

    def _connect(self) -> None:
        self.add_button.clicked.connect(self._add_seat)
        self.new_seat.returnPressed.connect(self._add_seat)
        self.up_button.clicked.connect(lambda: self._move_selected(-1))
        self.down_button.clicked.connect(lambda: self._move_selected(+1))
        self.remove_button.clicked.connect(self._remove_selected)
        self.seat_combo.activated.connect(self._assign_from_combo)
        self.players_first.clicked.connect(lambda: self._apply_and_show(DecideGmTie(players_first=True)))
        self.gm_first.clicked.connect(lambda: self._apply_and_show(DecideGmTie(players_first=False)))
        self.view.selectionModel().selectionChanged.connect(self._update_buttons)

    # --- showing ----------------------------------------------------------------------------
    def refresh(self, combatant: Combatant, state: Encounter, system: RuleSystem) -> None:
        """Show the table as it is in ``state`` (``combatant`` is the one whose seat the combo edits)."""
        self._id = combatant.id
        self._attach()
        self._show(state, system)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._attach()

    def _attach(self) -> None:
        """Follow the document directly when the window offers it: the seating is everybody's business."""
        if self._document is not None:
            return
        self._document = _find_document(self)
        if self._document is not None:
            self._document.changed.connect(self._on_document_changed)

    def _on_document_changed(self, change: Change) -> None:
        document = self._document
        if document is not None and self._id in document.state.combatants and _walka(document.system):
            self._show(document.state, document.system)

    def _show(self, state: Encounter, system: RuleSystem) -> None:
        self._state, self._system = state, system
        walka = _walka(system)
        if walka is None:
            return
        selected = self._selected_seat()
        self.model.set_state(state, system)
        self.view.expandAll()
        self._fit_view()
        self._reselect(selected)
        self.diagram.set_rows(self.model.rows(), self._caption(state, walka))
        self._show_seat_combo(state)
        self._show_tie(state, walka)
        self._update_buttons()

    def _fit_view(self) -> None:
        """Tall enough for every seat and character (the panel scrolls, the tree should not)."""
        rows = sum(1 + len(row.members) for row in self.model.rows())
        height = self.view.sizeHintForRow(0) if self.model.rowCount() else self.fontMetrics().height() + 2
        header = self.view.header().sizeHint().height()
        self.view.setFixedHeight(min(360, max(3, rows) * max(height, 1) + header + 2 * self.view.frameWidth() + 2))

    @staticmethod
    def _caption(state: Encounter, walka: WalkaSystem) -> str:
        order = walka.order(state)
        if state.clock.round == 0 or order.start is None:
            return _("Each seat rolls one d12: the lowest starts, then clockwise.")
        roll = order.rolls.get(order.start)
        return _("Round {round}: {seat} starts ({roll})").format(round=state.clock.round,
                                                                 seat=seat_label(order.start), roll=roll)

    def _show_seat_combo(self, state: Encounter) -> None:
        combatant = state.combatants.get(self._id)
        self.seat_combo.blockSignals(True)
        self.seat_combo.clear()
        for seat in player_seats(state):
            self.seat_combo.addItem(seat, seat)
        self.seat_combo.addItem(_("GM"), GM_SEAT)
        if combatant is not None:
            self.seat_combo.setCurrentIndex(max(0, self.seat_combo.findData(effective_seat(combatant))))
            self.seat_combo.setToolTip(as_written(_("Who acts for {name}").format(name=combatant.name)))
        self.seat_combo.blockSignals(False)

    def _show_tie(self, state: Encounter, walka: WalkaSystem) -> None:
        order = walka.order(state)
        tie = order.tie if state.clock.pass_no > 0 else None
        self.tie_box.setVisible(tie is not None)
        if tie is None:
            return
        undecided = walka.open_tie(state) is not None
        side = _("the players' side") if order.players_first else _("the GM's side")
        text = _("The GM ties with {seats} on {roll}: which side goes first?").format(
            seats=", ".join(tie.player_seats), roll=tie.roll)
        status = _("Until you decide, {side} goes first.") if undecided else _("Decided: {side} goes first.")
        self.tie_label.setText(text + " " + status.format(side=side))
        self.players_first.setEnabled(undecided or not order.players_first)
        self.gm_first.setEnabled(undecided or order.players_first)

    # --- selection and buttons --------------------------------------------------------------
    def _selected_seat(self) -> str | None:
        indexes = self.view.selectionModel().selectedRows() if self.view.selectionModel() else []
        if not indexes:
            return None
        index = indexes[0]
        if index.data(SeatRole.COMBATANT_ID) is not None:
            return None
        seat = index.data(SeatRole.SEAT)
        return seat if isinstance(seat, str) and seat != GM_SEAT else None

    def _reselect(self, seat: str | None) -> None:
        if seat is None:
            return
        index = self.model.seat_index(seat)
        if index.isValid():
            flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
            self.view.selectionModel().select(index, flags)
            self.view.setCurrentIndex(index)

    def _update_buttons(self) -> None:
        seat = self._selected_seat()
        seats = player_seats(self._state) if self._state is not None else []
        place = seats.index(seat) if seat in seats else -1
        self.up_button.setEnabled(place > 0)
        self.down_button.setEnabled(0 <= place < len(seats) - 1)
        self.remove_button.setEnabled(self._state is not None and seat in listed_seats(self._state))
        self.remove_button.setToolTip(_("Whoever sits there goes back to their default seat."))

    # --- changing ---------------------------------------------------------------------------
    def _apply_and_show(self, operation: Operation) -> bool:
        applied = self._apply(operation)
        if applied and self._document is None:
            _refresh_panel(self)  # no document to follow: have the panel show the new state
        return applied

    def _add_seat(self) -> None:
        if self._state is None or not self.new_seat.text().strip():
            return
        operation = add_seat(self._state, self.new_seat.text())
        if operation is not None and self._apply_and_show(operation):
            self.new_seat.clear()

    def _move_selected(self, step: int) -> None:
        seat = self._selected_seat()
        if seat is None or self._state is None:
            return
        position = player_seats(self._state).index(seat) + step
        operation = move_seat(self._state, seat, position + (1 if step > 0 else 0))
        if operation is not None:
            self._apply_and_show(operation)
            self._reselect(seat)
            self._update_buttons()

    def _remove_selected(self) -> None:
        seat = self._selected_seat()
        if seat is not None and self._state is not None:
            operation = remove_seat(self._state, seat)
            if operation is not None:
                self._apply_and_show(operation)

    def _assign_from_combo(self, index: int) -> None:
        seat = self.seat_combo.itemData(index)
        if self._state is None or not isinstance(seat, str):
            return
        operation = assign(self._state, self._id, seat)
        if operation is not None:
            self._apply_and_show(operation)


#: The sections this game adds to the details panel, top to bottom.
SECTIONS: tuple[SectionFactory, ...] = (ActionsSection, SeatingSection)
