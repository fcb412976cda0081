"""The main window: composition, shortcuts, and a whole SR3 fight driven through the UI layer."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication

from app.library import Library
from app.workspace import Workspace
from rules.combatants import AddCombatant
from rules.encounter import Side, Status
from rules.serialize import to_data
from rules.systems.sr3.tables import RangeCategory
from tests.ui.conftest import WindowFactory
from ui.actions import ACTIONS
from ui.dialogs.add_combatants import AddCombatantsDialog
from ui.dialogs.harm import HarmDialog
from ui.dialogs.initiative import RollInitiativeDialog
from ui.games.sr3.attack import Sr3AttackDialog
from ui.main_window import MainWindow
from ui.models.initiative_model import Column

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")

RUNNERS = {"Twitch": {"reaction": 9, "initiative_dice": 3, "quickness": 6, "body": 4, "ballistic": 5},
           "Wedge": {"reaction": 6, "initiative_dice": 2, "quickness": 5, "body": 5, "ballistic": 6}}


@pytest.fixture
def window(open_window: WindowFactory) -> MainWindow:
    return open_window("sr3", "Warehouse", seed=11)


def _ids_by_name(window: MainWindow) -> dict[str, str]:
    return {c.name: c.id for c in window.document.state.combatants.values()}


def _trigger(window: MainWindow, name: str) -> None:
    window.actions_by_name[name].trigger()


def _add_party_and_gangers(window: MainWindow) -> None:
    dialog = AddCombatantsDialog(window.document, window.workspace.library, window)
    dialog.tabs.setCurrentWidget(dialog.quick_tab)
    for name, stats in RUNNERS.items():
        dialog.quick_tab.name_edit.setText(name)
        dialog.quick_tab.side_combo.setCurrentIndex(dialog.quick_tab.side_combo.findData(Side.PLAYER.value))
        for key, value in stats.items():
            dialog.quick_tab.attribute_boxes[key].setValue(value)
        dialog.add()
    dialog.tabs.setCurrentWidget(dialog.roster_tab)
    dialog.roster_tab.search_edit.setText("Ganger")
    dialog.roster_tab.count_box.setValue(3)
    dialog.add()
    dialog.close()


def _roll(window: MainWindow, twitch: str, wedge: str) -> None:
    ids = _ids_by_name(window)
    dialog = RollInitiativeDialog(window.session, window)
    dialog.fields[ids["Twitch"]].setText(twitch)
    dialog.fields[ids["Wedge"]].setText(wedge)
    dialog.roll()
    assert dialog.result() == dialog.DialogCode.Accepted


def _shoot(window: MainWindow, target: str, attack: str, resist: str, rolled: bool = False) -> None:
    ids = _ids_by_name(window)
    dialog = Sr3AttackDialog(window.document, window.session.roller, window.session.current_actor(), ids[target],
                             window)
    dialog.weapon.name.setText("Ares Predator")
    dialog.weapon.code.setText("9M")
    dialog.weapon.range.select(RangeCategory.SHORT)
    dialog.dice.skill.setValue(len(attack.split(",")) if attack else 5)
    if rolled:
        dialog.roll_remaining()
    else:
        dialog.dice.attack_entry.set_faces_text(attack)
        dialog.dice.resist_entry.set_faces_text(resist)
    assert dialog.resolve_button.isEnabled(), dialog.status_label.text()
    dialog.resolve()
    dialog.close()


def test_every_action_has_a_shortcut_shown_in_its_menu(window: MainWindow) -> None:
    for spec in ACTIONS:
        action = window.actions_by_name[spec.name]
        assert not action.shortcut().isEmpty(), spec.name
        assert action.shortcut().toString() in action.toolTip()
    assert window.actions_by_name["next_turn"].shortcut().toString() == "Space"
    assert window.actions_by_name["undo"].shortcut().toString() == "Ctrl+Z"


def test_a_whole_sr3_fight_through_the_window(window: MainWindow) -> None:
    empty = to_data(window.document.state)
    _add_party_and_gangers(window)
    ids = _ids_by_name(window)
    assert list(ids) == ["Twitch", "Wedge", "Ganger 1", "Ganger 2", "Ganger 3"]

    # Round 1: typed dice for the players; the gangers roll (once, as a grunt group? no: plain bestiary adds).
    _roll(window, "5,2,6", "3,4")  # Twitch 9 + 13 = 22, Wedge 6 + 7 = 13
    assert window.session.current_actor() == ids["Twitch"]
    _shoot(window, "Ganger 1", "5,6,4,2,5", "3,1,6,4")  # 4 hits − 1 resisted: M staged to S
    assert window.document.state.combatant(ids["Ganger 1"]).boxes("physical") == 6
    _trigger(window, "next_turn")
    while window.session.current_actor() != ids["Wedge"]:
        _trigger(window, "next_turn")
    _trigger(window, "delay")  # Wedge holds his action to the end of the pass
    assert window.session.current_actor() != ids["Wedge"]
    while window.session.current_actor() != ids["Wedge"]:
        _trigger(window, "next_turn")
    _shoot(window, "Ganger 2", "6,6,5,1", "1,1,2,3")  # 3 hits, none resisted: M staged to S
    while window.document.state.clock.current is not None:
        _trigger(window, "next_turn")

    # Rounds 2 and 3: everybody rolls; a wound mid-pass and a rolled attack each round.
    for round_number in (2, 3):
        _roll(window, "", "")
        assert window.document.state.clock.round == round_number
        HarmDialog(window.session, ids["Wedge"], parent=window).apply()  # 1 box: Light, initiative −1
        _shoot(window, "Ganger 3", "", "", rolled=True)
        while window.document.state.clock.current is not None:
            _trigger(window, "next_turn")

    state = window.document.state
    assert state.clock.round == 3 and state.clock.pass_no == 0
    assert state.combatant(ids["Wedge"]).boxes("physical") == 2
    assert state.combatant(ids["Ganger 2"]).boxes("physical") == 6
    assert window.document.system.status(state.combatant(ids["Twitch"]), state) is Status.ACTIVE
    row = window.initiative_model.row_of(ids["Ganger 1"])
    assert window.initiative_model.index(row, Column.NAME).data() == "Ganger 1"
    assert "Round 3" in window.round_label.text()
    final = to_data(state)

    while window.document.undo_stack.canUndo():
        _trigger(window, "back")
    assert to_data(window.document.state) == empty
    assert window.initiative_model.rowCount() == 0 and window.log_model.rowCount() == 0
    while window.document.undo_stack.canRedo():
        window.actions_by_name["redo"].trigger()
    assert to_data(window.document.state) == final


def test_refused_command_shows_a_message_not_a_traceback(window: MainWindow) -> None:
    _trigger(window, "next_turn")  # nobody has rolled initiative yet
    assert "Roll initiative" in window.statusBar().currentMessage()


def test_save_and_reopen_from_the_window(window: MainWindow, tmp_path: Path) -> None:
    _add_party_and_gangers(window)
    path = window.workspace.save(tmp_path / "warehouse")
    assert path.name == "warehouse.bojovka" and not window.document.modified
    before = to_data(window.document.state)
    window.workspace.new("sr3")
    window.files.open_file(path)
    assert to_data(window.document.state) == before
    assert window.windowTitle().startswith("warehouse")


def test_keep_export_and_import_the_library(window: MainWindow, tmp_path: Path) -> None:
    _add_party_and_gangers(window)
    ids = _ids_by_name(window)
    window.table.select_combatant(ids["Twitch"])
    _trigger(window, "save_to_library")
    assert "Twitch is now in the roster/bestiary." in window.statusBar().currentMessage()
    assert [e.name for e in window.workspace.library.search("Twitch")] == ["Twitch"]
    exported = tmp_path / "library.json"
    count = window.workspace.export_library(exported)
    assert count == len(window.workspace.library.search(system_id="sr3"))
    other = Workspace(library=Library(tmp_path / "other.sqlite3", seed=False))
    assert other.import_library(exported) == count
    other.close(keep_journal=False)


def test_a_damaged_file_changes_nothing(window: MainWindow, tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    _add_party_and_gangers(window)
    saved = window.workspace.save(tmp_path / "good")
    before, good_bytes = to_data(window.document.state), saved.read_bytes()
    bad = tmp_path / "bad.bojovka"
    bad.write_bytes(good_bytes[: len(good_bytes) // 2])
    shown: list[str] = []
    monkeypatch.setattr("ui.main_window.QMessageBox.warning", lambda _parent, _title, text: shown.append(text))
    window.files.open_file(bad)
    assert shown and "bad.bojovka" in shown[0]
    assert to_data(window.document.state) == before and window.document.path == saved
    assert saved.read_bytes() == good_bytes


def test_the_log_and_chart_share_one_tab_bar(window: MainWindow) -> None:
    # Hiding a tabbed dock before the log's tab group was built once made Qt draw the group's tab bar twice,
    # the second over the dice line.
    from PySide6.QtWidgets import QTabBar

    window.resize(1366, 768)
    window.show()
    QApplication.processEvents()
    bars = [bar for bar in window.findChildren(QTabBar) if bar.isVisible() and bar.geometry().top() >= 0
            and "Combat log" in [bar.tabText(i) for i in range(bar.count())]]
    assert len(bars) == 1


def test_late_docks_join_the_layout_when_first_opened(window: MainWindow) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QDockWidget

    window.show()
    undo = window.findChild(QDockWidget, "dock_undo")
    assert undo is not None and not undo.isVisible()
    assert window.dockWidgetArea(undo) == Qt.DockWidgetArea.NoDockWidgetArea
    undo.toggleViewAction().trigger()  # View → Undo history
    QApplication.processEvents()
    assert undo.isVisible() and not undo.isFloating()
    assert window.dockWidgetArea(undo) == Qt.DockWidgetArea.RightDockWidgetArea
    window.actions_by_name["odds"].trigger()
    assert window.dockWidgetArea(window.odds_dock) == Qt.DockWidgetArea.BottomDockWidgetArea


def test_a_gm_file_in_a_folder_called_samples_opens_that_file(open_window: WindowFactory, tmp_path: Path) -> None:
    window = open_window("walka", "Mine")
    window.document.apply(AddCombatant("c-ania", "Ania", Side.PLAYER))
    own = tmp_path / "samples" / "sr3.bojovka"  # named like the shipped SR3 sample, in a folder named like theirs
    own.parent.mkdir()
    window.workspace.save(own)
    window.workspace.new("souboj")
    window.files.open_file(own)
    assert window.document.system.id == "walka"
    assert [c.name for c in window.document.state.combatants.values()] == ["Ania"]
    assert window.document.path == own


def test_the_welcome_page_opens_a_sample_as_a_sample(open_window: WindowFactory) -> None:
    window = open_window("walka")
    page = window.welcome_page()
    item = next(page.samples.item(row) for row in range(page.samples.count())
                if "Shadowrun" in page.samples.item(row).text())
    page.samples.itemActivated.emit(item)
    assert window.document.system.id == "sr3"
    assert window.document.path is None  # a copy: saving asks for a new file
    assert window.document.state.combatants


def test_a_held_last_action_is_moved_on_from_its_slot_with_shift_l(window: MainWindow) -> None:
    """sr3.md, Delaying: "Last actions of the turn may be held through later passes to the end of the turn"; the
    seed: delayed actions may be moved into the next pass too. Camilla (9) holds hers in pass 1; when it comes up
    at the pass's end, "Delay into the next pass" moves it on to the end of pass 2."""
    from rules.encounter import frozen_map
    from rules.turns import RollInitiative

    for cid, name, reaction in (("m", "Mike", 36), ("c", "Camilla", 8)):
        window.document.apply(AddCombatant(cid, name, Side.PLAYER, frozen_map({"reaction": reaction})))
    window.document.apply(RollInitiative(frozen_map({"m": (1,), "c": (1,)}), frozen_map()))
    _trigger(window, "next_turn")  # Mike 37 done: Camilla 9
    assert window.session.current_actor() == "c"
    _trigger(window, "delay")
    slot = window.document.state.clock.current
    assert slot is not None and slot.kind.value == "delayed" and slot.ids == ("c",)  # the end of pass 1
    assert window.actions_by_name["delay_next_pass"].isEnabled()
    _trigger(window, "delay_next_pass")
    clock = window.document.state.clock
    assert clock.pass_no == 2 and window.session.current_actor() == "m"  # Mike's 27
    assert window.document.state.delays["c"].into_next_pass
    _trigger(window, "next_turn")
    slot = window.document.state.clock.current
    assert slot is not None and slot.kind.value == "delayed" and slot.ids == ("c",)  # the end of pass 2
