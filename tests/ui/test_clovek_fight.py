"""A whole Člověk fight driven through the window: quick-add, initiative dice in the panel, typed and rolled
initiative, dice clicked off the banks, attacks in the roll dialog; then undo to the empty encounter and redo."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from rules.encounter import Side
from rules.serialize import to_data
from tests.ui.conftest import WindowFactory
from ui.dialogs.add_combatants import AddCombatantsDialog
from ui.dialogs.initiative import RollInitiativeDialog
from ui.games.clovek.attack import ClovekCheckDialog
from ui.games.clovek.panel import DiceBanksSection
from ui.main_window import MainWindow

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")

SHOTS = os.environ.get("BOJOVKA_SHOTS")
PEOPLE = {
    "Beatrice": (Side.PLAYER, {"agility": 2, "charm": 3, "intelligence": 4, "constitution": 1, "composure": 2,
                               "mental_capacity": 4}),
    "Cesare": (Side.PLAYER, {"agility": 3, "charm": 3, "intelligence": 2, "constitution": 4, "composure": 3}),
    "Adriana": (Side.OPPONENT, {"agility": 3, "charm": 4, "intelligence": 3, "constitution": 2, "composure": 4}),
}


@pytest.fixture
def window(open_window: WindowFactory) -> MainWindow:
    return open_window("clovek", "Saint Roch", seed=11)


def _ids(window: MainWindow) -> dict[str, str]:
    return {c.name: c.id for c in window.document.state.combatants.values()}


def _add_people(window: MainWindow) -> None:
    dialog = AddCombatantsDialog(window.document, window.workspace.library, window)
    dialog.tabs.setCurrentWidget(dialog.quick_tab)
    for name, (side, stats) in PEOPLE.items():
        dialog.quick_tab.name_edit.setText(name)
        dialog.quick_tab.side_combo.setCurrentIndex(dialog.quick_tab.side_combo.findData(side.value))
        for key, value in stats.items():
            dialog.quick_tab.attribute_boxes[key].setValue(value)
        dialog.add()
    dialog.close()


def _banks(window: MainWindow, combatant_id: str) -> DiceBanksSection:
    window.table.select_combatant(combatant_id)
    assert window.details.combatant_id() == combatant_id
    found = [part for part in window.details._game_sections if isinstance(part, DiceBanksSection)]
    return found[0]


def _left(window: MainWindow, combatant_id: str) -> tuple[int, ...]:
    pools = window.document.state.combatant(combatant_id).pools
    return tuple(pools[name].remaining for name in ("physical", "social", "mental"))


def _roll_initiative(window: MainWindow, typed: dict[str, str]) -> None:
    ids = _ids(window)
    dialog = RollInitiativeDialog(window.session, window)
    for name, faces in typed.items():
        dialog.fields[ids[name]].setText(faces)
    dialog.roll()
    assert dialog.result() == dialog.DialogCode.Accepted, dialog.message.text()


def _attack(window: MainWindow, target: str, dice: int, skill: int, typed: tuple[str, str, str] | None,
            defence: int = 0, power: tuple[int, int, int, int] | None = None) -> ClovekCheckDialog:
    """Roll from the current actor at ``target``; ``power`` = (source index, value, bonus, penalty)."""
    ids = _ids(window)
    dialog = ClovekCheckDialog(window.document, window.session.roller, window.session.current_actor(), ids[target],
                               window)
    dialog.roll_box.skill.setValue(skill)
    dialog.roll_box.dice.setValue(dice)
    if defence:
        dialog.defends.setChecked(True)
        dialog.defence_box.skill.setValue(1)
        dialog.defence_box.dice.setValue(defence)
    if power is not None:
        dialog.power_box.source.setCurrentIndex(power[0])
        dialog.power_box.value.setValue(power[1])
        dialog.power_box.bonus.setValue(power[2])
        dialog.power_box.penalty.setValue(power[3])
    if typed is None:
        dialog.roll_remaining()
    else:
        dialog.roll_entry.set_faces_text(typed[0])
        dialog.defence_entry.set_faces_text(typed[1])
        dialog.power_entry.set_faces_text(typed[2])
    assert dialog.resolve_button.isEnabled(), dialog.status_label.text()
    dialog.resolve()
    assert dialog.result_label.text()
    dialog.close()
    return dialog


def _next(window: MainWindow) -> None:
    window.actions_by_name["next_turn"].trigger()


def test_a_whole_clovek_fight_through_the_window(window: MainWindow, qtbot: QtBot, tmp_path: Path) -> None:
    empty = to_data(window.document.state)
    _add_people(window)
    ids = _ids(window)
    assert list(ids) == ["Beatrice", "Cesare", "Adriana"]
    assert _left(window, ids["Beatrice"]) == (4, 6, 8)

    # Beatrice risks five mental dice; typed 2, 5, 7, 8, 3 → 8 + Composure 2 = 10; three mental dice left.
    banks = _banks(window, ids["Beatrice"])
    banks.initiative_dice.setValue(5)
    _roll_initiative(window, {"Beatrice": "2, 5, 7, 8, 3", "Cesare": ""})
    state = window.document.state
    assert window.document.system.score_text(state.combatant(ids["Beatrice"]), state) == "10"
    assert _left(window, ids["Beatrice"]) == (4, 6, 3)
    assert window.session.current_actor() == ids["Beatrice"]

    # Her shield blow: 9, 8 at 2 dots = 2 successes; Adriana's 1 die parries nothing; power 1 + 0 + 4 − 2 = 3.
    _attack(window, "Adriana", 2, 2, ("9, 8", "3", "4, 5"), defence=1, power=(1, 1, 4, 2))
    assert window.document.state.combatant(ids["Adriana"]).boxes("physical_wounds") == 3
    banks = _banks(window, ids["Beatrice"])
    assert banks.role() == "action"
    assert banks.extra_action.isEnabled()  # she has acted: a second action needs something that grants it
    banks.extra_action.setCurrentIndex(banks.extra_action.findData("ability"))
    qtbot.mouseClick(banks.dice, Qt.MouseButton.LeftButton, pos=banks.dice.die_rect(0, 0).center().toPoint())
    assert "burns a physical stun wound for a bonus action" in window.document.history.entries[-1].text()
    _next(window)

    # Adriana (4) fires her pistol at Cesare with rolled dice; Cesare reacts with two clicked dice.
    assert window.session.current_actor() == ids["Adriana"]
    _attack(window, "Cesare", 3, 3, None, power=(2, 3, 0, 0))
    banks = _banks(window, ids["Cesare"])
    assert banks.role() == "reaction"
    qtbot.mouseClick(banks.dice, Qt.MouseButton.LeftButton, pos=banks.dice.die_rect(2, 1).center().toPoint())
    assert _left(window, ids["Cesare"])[2] == 2
    _next(window)
    _attack(window, "Adriana", 2, 3, None)  # Cesare's own turn: a rolled fencing attack, no power
    _next(window)  # the round ends: every bank full again
    state = window.document.state
    assert state.clock.pass_no == 0 and all(c.initiative is None for c in state.combatants.values())
    assert all(_left(window, cid) == tuple(p.size for p in state.combatant(cid).pools.values()) for cid in ids.values())

    # Round 2: everyone rolled by the app.
    _roll_initiative(window, {})
    assert window.document.state.clock.round == 2
    while window.document.state.clock.current is not None:
        _next(window)
    final = to_data(window.document.state)
    assert window.document.state.combatant(ids["Beatrice"]).boxes("physical_stun") == 1
    window.resize(1366, 700)
    QApplication.processEvents()
    for folder in filter(None, (str(tmp_path), SHOTS)):
        window.grab().save(str(Path(folder) / "clovek_window.png"))

    while window.document.undo_stack.canUndo():
        window.actions_by_name["back"].trigger()
    assert to_data(window.document.state) == empty
    while window.document.undo_stack.canRedo():
        window.actions_by_name["redo"].trigger()
    assert to_data(window.document.state) == final
