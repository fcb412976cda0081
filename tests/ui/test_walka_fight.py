"""A whole Walka fight driven through the window: add, seat, roll by seat, the GM's tie, actions, attacks
with typed and rolled dice, a Chance; then undo everything back to the empty encounter and redo it all."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QModelIndex, Qt
from pytestqt.qtbot import QtBot

from rules.dice import Roller
from rules.encounter import Side, Status
from rules.serialize import to_data
from rules.systems.walka import GM_SEAT
from rules.systems.walka.seating import listed_seats
from tests.ui.conftest import WindowFactory
from ui.dialogs.add_combatants import AddCombatantsDialog
from ui.dialogs.initiative import RollInitiativeDialog
from ui.games.walka.attack import WalkaAttackDialog
from ui.games.walka.panel import ActionsSection, SeatingSection
from ui.main_window import MainWindow
from ui.models.initiative_model import Column

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")

SEED = 11
PARTY = {"Kira": {"hit_points": 8, "chances": 1, "firearms": 14, "dodge": 10, "weapon_dice": 3, "armor": 1},
         "Wedge": {"hit_points": 5, "chances": 1, "melee": 13, "parry": 11, "dodge": 8, "weapon_dice": 4}}
GANGER = {"hit_points": 6, "chances": 0, "firearms": 11, "dodge": 8, "weapon_dice": 3, "armor": 1}


@pytest.fixture
def window(open_window: WindowFactory) -> MainWindow:
    return open_window("walka", "Night Market", seed=SEED)


def _ids(window: MainWindow) -> dict[str, str]:
    return {c.name: c.id for c in window.document.state.combatants.values()}


def _trigger(window: MainWindow, name: str) -> None:
    window.actions_by_name[name].trigger()


def _acting(window: MainWindow) -> list[str]:
    slot = window.document.state.clock.current
    return [window.document.state.combatant(i).name for i in slot.ids] if slot is not None else []


def _add_everyone(window: MainWindow) -> None:
    dialog = AddCombatantsDialog(window.document, window.workspace.library, window)
    dialog.tabs.setCurrentWidget(dialog.quick_tab)
    quick = dialog.quick_tab
    for name, stats in [*PARTY.items(), ("Ganger", GANGER)]:
        quick.name_edit.setText(name)
        side = Side.OPPONENT if name == "Ganger" else Side.PLAYER
        quick.side_combo.setCurrentIndex(quick.side_combo.findData(side.value))
        quick.count_box.setValue(2 if name == "Ganger" else 1)
        for spec in window.document.system.attribute_specs():  # the tab keeps the last entry's numbers
            quick.attribute_boxes[spec.key].setValue(stats.get(spec.key, spec.default))
        dialog.add()
    dialog.close()


def _sections(window: MainWindow, name: str) -> tuple[SeatingSection, ActionsSection]:
    window.table.select_combatant(_ids(window)[name])
    seating = window.details.findChild(SeatingSection)
    actions = window.details.findChild(ActionsSection)
    assert seating is not None and actions is not None
    return seating, actions


def _seat_the_table(window: MainWindow, qtbot: QtBot) -> None:
    seating, _actions = _sections(window, "Kira")
    for player in ("Ania", "Bartek"):
        seating.new_seat.setText(player)
        qtbot.mouseClick(seating.add_button, Qt.MouseButton.LeftButton)
    seating.seat_combo.activated.emit(seating.seat_combo.findData("Ania"))  # Kira is Ania's character
    model = seating.model
    wedge_seat = model.seat_index("Wedge")  # a player character without a seat sits at one of its own
    wedge = model.index(0, 0, wedge_seat)
    assert model.dropMimeData(model.mimeData([wedge]), Qt.DropAction.MoveAction, -1, -1, model.seat_index("Bartek"))


def _roll(window: MainWindow, kira: str, wedge: str) -> None:
    dialog = RollInitiativeDialog(window.session, window)
    ids = _ids(window)
    dialog.fields[ids["Kira"]].setText(kira)
    dialog.fields[ids["Wedge"]].setText(wedge)
    dialog.roll()
    assert dialog.result() == dialog.DialogCode.Accepted


def _attack(window: MainWindow, target: str, attack: str = "", defence: str = "", damage: str = "",
            rolled: bool = False) -> WalkaAttackDialog:
    dialog = WalkaAttackDialog(window.document, window.session.roller, window.session.current_actor(),
                               _ids(window)[target], window)
    if rolled:
        dialog.roll_remaining()
    else:
        dialog.dice.attack_entry.set_faces_text(attack)
        dialog.dice.defence_entry.set_faces_text(defence)
        dialog.dice.damage_entry.set_faces_text(damage)
    assert dialog.resolve_button.isEnabled(), dialog.status_label.text()
    dialog.resolve()
    return dialog


def _next_until(window: MainWindow, names: list[str]) -> None:
    for _step in range(10):
        if _acting(window) == names:
            return
        _trigger(window, "next_turn")
    raise AssertionError(f"{names} never acted; now {_acting(window)}")


def test_a_whole_walka_fight_through_the_window(window: MainWindow, qtbot: QtBot) -> None:
    empty = to_data(window.document.state)
    _add_everyone(window)
    ids = _ids(window)
    assert list(ids) == ["Kira", "Wedge", "Ganger 1", "Ganger 2"]
    _seat_the_table(window, qtbot)
    state = window.document.state
    assert listed_seats(state) == ("Ania", "Bartek")
    assert (state.combatant(ids["Kira"]).seat, state.combatant(ids["Wedge"]).seat) == ("Ania", "Bartek")

    # Each seat rolls one d12; the GM's gangers share the window's first roll. Ania ties with the GM.
    gm_roll = Roller.seeded(SEED).die(12)
    _roll(window, str(gm_roll), "12")
    seating, _actions = _sections(window, "Kira")
    assert seating.tie_box.isVisibleTo(seating)
    assert _acting(window) == ["Kira"]  # until the GM decides, the players' side goes first
    qtbot.mouseClick(seating.gm_first, Qt.MouseButton.LeftButton)
    assert _acting(window) == ["Ganger 1", "Ganger 2"]
    assert seating.diagram.describe().endswith(f"GM ({gm_roll}, now)")

    # Round 1. The GM's seat: Ganger 1 shoots Kira (typed dice), Ganger 2 runs.
    _attack(window, "Kira", "5", "12", "6, 4")  # 3 weapon dice − armor 1: two dice, both remove a point
    assert window.document.state.combatant(ids["Kira"]).boxes("hp") == 2
    _seating, actions = _sections(window, "Ganger 2")
    qtbot.mouseClick(actions.buttons["run"], Qt.MouseButton.LeftButton)
    _trigger(window, "next_turn")

    # Ania's seat: Kira aims, then shoots with rolled dice (aim doubles her pool).
    assert _acting(window) == ["Kira"]
    _seating, actions = _sections(window, "Kira")
    qtbot.mouseClick(actions.buttons["aim"], Qt.MouseButton.LeftButton)
    dialog = _attack(window, "Ganger 1", rolled=True)
    assert dialog.modifiers.aimed.isChecked()
    kira = window.document.state.combatant(ids["Kira"])
    assert sum(kira.actions_used.values()) == 2 and "aimed" not in kira.extra
    _trigger(window, "next_turn")

    # Bartek's seat: Wedge moves and attacks Ganger 2 with his machete (typed), parried.
    assert _acting(window) == ["Wedge"]
    _seating, actions = _sections(window, "Wedge")
    qtbot.mouseClick(actions.buttons["move"], Qt.MouseButton.LeftButton)
    dialog = WalkaAttackDialog(window.document, window.session.roller, ids["Wedge"], ids["Ganger 2"], window)
    dialog.attack.skill.setCurrentIndex(dialog.attack.skill.findData("melee"))
    assert dialog.attack.value.value() == 13
    dialog.defence.defence.setCurrentIndex(dialog.defence.defence.findData("dodge"))
    dialog.dice.attack_entry.set_faces_text("7")
    dialog.dice.defence_entry.set_faces_text("6")
    dialog.resolve()
    assert "Ganger 2 defends" in dialog.result_label.text()
    _trigger(window, "next_turn")

    # Round 2 begins by itself (rolled once per combat), the GM's seat first again.
    assert window.document.state.clock.round == 2 and _acting(window) == ["Ganger 1", "Ganger 2"]
    dialog = _attack(window, "Wedge", "2", "15", "6, 5, 4")  # Wedge: 5 Hit Points, 3 removed
    dialog.next_attack()
    dialog.attacker.setCurrentIndex(dialog.attacker.findData(ids["Ganger 2"]))
    dialog.target.setCurrentIndex(dialog.target.findData(ids["Wedge"]))
    dialog.dice.attack_entry.set_faces_text("3")
    dialog.dice.defence_entry.set_faces_text("20")
    dialog.dice.damage_entry.set_faces_text("5, 6, 1")
    dialog.resolve()
    assert "Wedge is now Unconscious." in dialog.result_label.text()
    assert dialog.chance_button.isVisibleTo(dialog)
    dialog.spend_chance()
    wedge = window.document.state.combatant(ids["Wedge"])
    assert wedge.boxes("hp") == 5 and window.document.system.status(wedge, window.document.state) is Status.ACTIVE
    _next_until(window, ["Kira"])
    _next_until(window, ["Wedge"])
    _trigger(window, "next_turn")

    state = window.document.state
    final = to_data(state)
    assert state.clock.round == 3
    assert state.combatant(ids["Wedge"]).pools["chance"].remaining == 0
    assert state.combatant(ids["Kira"]).boxes("hp") == 2
    assert state.combatant(ids["Ganger 1"]).seat is None  # the GM's, by default
    row = window.initiative_model.row_of(ids["Ganger 1"])
    assert window.initiative_model.index(row, Column.INITIATIVE).data() == str(gm_roll)
    assert "Round 3" in window.round_label.text()
    model = seating.model
    assert [row.seat for row in model.rows()] == ["Ania", "Bartek", GM_SEAT]
    assert model.rowCount(QModelIndex()) == 3

    while window.document.undo_stack.canUndo():
        _trigger(window, "back")
    assert to_data(window.document.state) == empty
    assert window.initiative_model.rowCount() == 0 and window.log_model.rowCount() == 0
    while window.document.undo_stack.canRedo():
        window.actions_by_name["redo"].trigger()
    assert to_data(window.document.state) == final


def test_the_attack_action_opens_walkas_dialog(window: MainWindow, monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[WalkaAttackDialog] = []

    def record(dialog: WalkaAttackDialog) -> int:
        opened.append(dialog)
        return 0

    monkeypatch.setattr(WalkaAttackDialog, "exec", record)
    _add_everyone(window)
    _trigger(window, "attack")
    assert len(opened) == 1 and isinstance(opened[0], WalkaAttackDialog)
