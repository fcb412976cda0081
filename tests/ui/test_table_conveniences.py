"""Conveniences a GM expects of the table: the row menu, duplicate, hide from the players, effects by key,
File → Open recent, the list of shortcuts, a wheel that edits nothing by passing, a steady reminder line and an
undo history that asks before it rewinds several steps."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QItemSelectionModel, QPoint, QPointF, Qt, QTimer
from PySide6.QtGui import QAction, QContextMenuEvent, QWheelEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QComboBox, QMenu, QMessageBox, QSpinBox, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from app.i18n import install_language
from app.storage import load_encounter
from rules.combatants import SetHidden, is_hidden
from rules.effects import AddEffect
from rules.encounter import Effect, Timing
from rules.errors import OperationError
from rules.systems import get_system
from rules.systems.base import Hook
from tests.ui.conftest import WindowFactory
from ui.dialogs.shortcuts import ShortcutsDialog, command_name, keys_text, plain
from ui.main_window import ROW_ACTIONS, MainWindow
from ui.models.initiative_model import Column
from ui.theme import apply_theme
from ui.widgets.inputs import WheelCalmingStyle, spin_box

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support (propagateSizeHints\(\)|raise\(\)|grabbing)")


def _active(qtbot: QtBot, window: MainWindow) -> MainWindow:
    """The window shown and active, so its shortcuts take the keys QTest sends."""
    window.show()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    return window


@pytest.fixture
def window(qtbot: QtBot, open_window: WindowFactory) -> MainWindow:
    """The SR3 sample mid-fight: Wedge acts, Twitch has acted, five gangers wait."""
    return _active(qtbot, open_window(sample="sr3"))


def _id(window: MainWindow, name: str) -> str:
    return next(c.id for c in window.document.state.combatants.values() if c.name == name)


def _select(window: MainWindow, name: str) -> str:
    combatant_id = _id(window, name)
    window.table.select_combatant(combatant_id)
    window.table.setFocus()
    return combatant_id


def _row(window: MainWindow, name: str) -> int:
    return window.initiative_model.row_of(_id(window, name))


# --- the row menu --------------------------------------------------------------------------------


def _menu_actions(menu: QMenu) -> list[QAction | None]:
    return [None if action.isSeparator() else action for action in menu.actions()]


def test_the_row_menu_offers_the_windows_own_commands(window: MainWindow) -> None:
    menu = window.table.row_menu(_row(window, "Ganger 1"))
    assert menu is not None
    assert window.table.selected_id() == _id(window, "Ganger 1")  # the row right-clicked is the one acted on
    expected = [window.actions_by_name[name] if name else None for name in ROW_ACTIONS
                if name is None or window.actions_by_name[name].isVisible()]
    assert _menu_actions(menu) == expected  # the very QActions: same texts, same shortcuts as the menus
    names = {action.objectName() for action in menu.actions() if not action.isSeparator()}
    assert {"action_damage", "action_heal", "action_delay", "action_add_effect", "action_remove",
            "action_duplicate", "action_hide_from_players"} <= names
    assert not window.actions_by_name["delay"].isEnabled()  # only the acting combatant's row may delay
    window.table._prepare_menu(None)  # the menu closed
    assert window.actions_by_name["delay"].isEnabled()  # L still delays whoever acts
    menu = window.table.row_menu(_row(window, "Wedge"))
    assert window.actions_by_name["delay"].isEnabled()


def test_a_right_click_selects_the_row_and_shows_the_menu(window: MainWindow, qtbot: QtBot) -> None:
    seen: list[list[str]] = []

    def look_and_close() -> None:
        popup = QApplication.activePopupWidget()
        assert isinstance(popup, QMenu)
        seen.append([action.text() for action in popup.actions() if not action.isSeparator()])
        popup.close()

    row = _row(window, "Ganger 2")
    position = window.table.visualRect(window.initiative_model.index(row, Column.NAME)).center()
    QTimer.singleShot(50, look_and_close)
    event = QContextMenuEvent(QContextMenuEvent.Reason.Mouse, position, window.table.viewport().mapToGlobal(position))
    QApplication.sendEvent(window.table.viewport(), event)
    qtbot.waitUntil(lambda: bool(seen))
    assert window.table.selected_id() == _id(window, "Ganger 2")
    assert window.actions_by_name["damage"].text() in seen[0]
    assert window.actions_by_name["delay"].isEnabled()  # put back once the menu closed


def test_remove_from_the_row_menu_asks_and_removes_that_row(window: MainWindow,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(QMessageBox, "question", lambda *_args: QMessageBox.StandardButton.Yes)
    menu = window.table.row_menu(_row(window, "Ganger 3"))
    assert menu is not None
    next(a for a in menu.actions() if a.objectName() == "action_remove").trigger()
    assert "Ganger 3" not in {c.name for c in window.document.state.combatants.values()}


# --- duplicate -----------------------------------------------------------------------------------


def test_duplicate_adds_a_numbered_copy_by_key_and_undoes(window: MainWindow) -> None:
    original = window.document.state.combatant(_select(window, "Ganger 2"))
    QTest.keyClick(window.table, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)
    copy = next(c for c in window.document.state.combatants.values() if c.name == "Ganger 6")  # after Ganger 5
    assert (copy.side, dict(copy.attributes), copy.notes) == (original.side, dict(original.attributes), original.notes)
    assert copy.initiative is None and not any(copy.damage.values())  # a fresh one
    assert window.table.selected_id() == copy.id  # ready for the next command
    window.document.undo_stack.undo()
    assert copy.id not in window.document.state.combatants


def test_duplicating_a_named_character_numbers_the_copy(window: MainWindow) -> None:
    _select(window, "Twitch")
    window.actions_by_name["duplicate"].trigger()
    assert "Twitch 2" in {c.name for c in window.document.state.combatants.values()}
    _select(window, "Twitch")
    window.actions_by_name["duplicate"].trigger()
    assert "Twitch 3" in {c.name for c in window.document.state.combatants.values()}


# --- hidden from the players ---------------------------------------------------------------------


def test_hide_and_reveal_by_key_is_undoable_and_saved(window: MainWindow, tmp_path: Path) -> None:
    ganger = _select(window, "Ganger 1")
    action = window.actions_by_name["hide_from_players"]
    assert action.isEnabled() and not action.isChecked()
    QTest.keyClick(window.table, Qt.Key.Key_H, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert is_hidden(window.document.state.combatant(ganger))
    assert action.isChecked()
    side = window.initiative_model.index(_row(window, "Ganger 1"), Column.SIDE).data()
    assert "hidden" in side  # the GM sees who is hidden in the table
    saved = window.workspace.save(tmp_path / "ambush.bojovka")
    assert is_hidden(load_encounter(saved).state.combatant(ganger))
    window.document.undo_stack.undo()
    assert not is_hidden(window.document.state.combatant(ganger))
    assert not action.isChecked()
    window.document.undo_stack.redo()
    action.trigger()  # the menu's checkbox reveals again
    assert not is_hidden(window.document.state.combatant(ganger))


def test_player_characters_cannot_be_hidden(window: MainWindow) -> None:
    twitch = _select(window, "Twitch")
    assert not window.actions_by_name["hide_from_players"].isEnabled()
    with pytest.raises(OperationError):
        window.document.apply(SetHidden(twitch, True))


# --- effects by key ------------------------------------------------------------------------------


def test_e_opens_the_effect_form_on_the_selected_combatant(window: MainWindow, qtbot: QtBot) -> None:
    ganger = _select(window, "Ganger 4")
    QTest.keyClick(window.table, Qt.Key.Key_E)
    form = window.effects.form
    assert form.isVisible()
    assert form.target.currentData() == ganger
    qtbot.waitUntil(form.name.hasFocus)
    QTest.keyClicks(form.name, "Smoke")
    QTest.keyClick(form.name, Qt.Key.Key_Return)
    assert [(e.name, e.target) for e in window.document.state.effects.values()] == [("Smoke", ganger)]


def test_without_a_selection_the_effect_goes_on_whoever_acts(window: MainWindow) -> None:
    window.table.clearSelection()
    window.actions_by_name["add_effect"].trigger()
    assert window.effects.form.target.currentData() == window.session.current_actor()


def test_no_two_commands_share_a_key(window: MainWindow) -> None:
    keys: dict[str, str] = {}
    for action in window.findChildren(QAction):
        for sequence in action.shortcuts():
            text = sequence.toString()
            assert keys.setdefault(text, action.objectName() or action.text()) == (action.objectName()
                                                                                     or action.text()), text
    assert keys["E"] == "action_add_effect"


# --- File → Open recent --------------------------------------------------------------------------


def _recent_entries(window: MainWindow) -> list[QAction]:
    window.recent_menu.aboutToShow.emit()
    return [action for action in window.recent_menu.actions() if not action.isSeparator()]


def test_open_recent_lists_files_greys_missing_ones_and_clears(window: MainWindow, tmp_path: Path) -> None:
    file_menu = window.menuBar().actions()[0].menu()
    assert isinstance(file_menu, QMenu)
    entries = file_menu.actions()
    assert entries[entries.index(window.actions_by_name["open"]) + 1] is window.recent_menu.menuAction()
    kept = window.workspace.save(tmp_path / "kept.bojovka")
    gone = tmp_path / "gone.bojovka"
    window.workspace.update_settings(recent_files=(str(kept), str(gone)))
    first, missing, clear = _recent_entries(window)
    assert "kept" in first.text() and first.isEnabled() and first.toolTip() == str(kept)
    assert "gone" in missing.text() and not missing.isEnabled()
    assert str(gone) in missing.toolTip() and "no longer there" in missing.toolTip()
    window.workspace.new("walka")
    first.trigger()
    assert window.document.path == kept and window.document.system.id == "sr3"
    window.actions_by_name["welcome"].trigger()
    assert window.welcome is not None and window.welcome.recent.count() == 2
    clear.trigger()
    assert window.workspace.settings.recent_files == ()
    assert window.pages.currentWidget() is window.welcome and window.welcome.recent.count() == 0  # rebuilt
    placeholder, clear = _recent_entries(window)  # rebuilt each time the menu opens
    assert not placeholder.isEnabled() and not clear.isEnabled()


# --- Help → Keyboard shortcuts -------------------------------------------------------------------


def test_the_shortcuts_dialog_lists_every_action_with_a_key(window: MainWindow, qtbot: QtBot) -> None:
    dialog = ShortcutsDialog(window)
    qtbot.addWidget(dialog)
    rows = dialog.rows()
    listed = {(command.split(" → ")[-1], keys) for _menu, command, keys in rows}
    for action in window.findChildren(QAction):
        if not action.shortcut().isEmpty() and action.isVisible():
            assert (command_name(action), keys_text(action)) in listed, action.text()
    menus = {command: menu for menu, command, _keys in rows}
    assert menus["Next"] == "Fight" and menus["Keyboard shortcuts"] == "Help"
    assert menus["Undo"] == "Edit" and menus["Redo"] == "Edit"  # not "Undo Wedge acts in phase 13."
    default_game = get_system(window.workspace.settings.default_system).title  # Ctrl+N makes the default game
    assert menus[f"New encounter → {default_game}"] == "File"  # a submenu's entry, named as the menu names it
    assert ("Player view", "Full screen", "F11") in rows
    assert "Delay into the next pass" in menus  # SR3 has passes


def test_the_shortcuts_dialog_opens_by_key_in_the_gms_language(open_window: WindowFactory, qtbot: QtBot) -> None:
    install_language("cs")
    try:
        window = _active(qtbot, open_window("walka"))
        QTest.keyClick(window, Qt.Key.Key_F1, Qt.KeyboardModifier.ControlModifier)
        dialog = next(child for child in window.findChildren(ShortcutsDialog))
        commands = {command for _menu, command, _keys in dialog.rows()}
        assert plain(window.actions_by_name["next_turn"].text()) in commands
        assert "Next" not in commands  # Czech, not the English source
        assert "Delay into the next pass" not in commands and not any("pass" in c for c in commands)  # no passes
        dialog.close()
    finally:
        install_language("en")


# --- the mouse wheel -----------------------------------------------------------------------------


def _wheel(widget: QWidget, steps: int = 1) -> None:
    centre = QPointF(widget.rect().center())
    event = QWheelEvent(centre, QPointF(widget.mapToGlobal(centre.toPoint())), QPoint(), QPoint(0, 120 * steps),
                        Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(widget, event)


def test_the_wheel_edits_only_a_focused_number_or_choice(window: MainWindow, qtbot: QtBot) -> None:
    host = QWidget()
    qtbot.addWidget(host)
    plain_box, helper_box, combo = QSpinBox(), spin_box(0, 10, 5), QComboBox()
    combo.addItems(["one", "two", "three"])
    layout = QVBoxLayout(host)
    for widget in (plain_box, helper_box, combo):
        layout.addWidget(widget)
    host.show()
    host.activateWindow()
    qtbot.waitUntil(host.isActiveWindow)
    for widget in (plain_box, helper_box, combo):  # a plain Qt widget is calmed too, when it is polished
        assert widget.focusPolicy() == Qt.FocusPolicy.StrongFocus
    _wheel(helper_box)
    _wheel(combo, -1)
    assert (helper_box.value(), combo.currentIndex()) == (5, 0)  # the pointer passed over them
    helper_box.setFocus()
    qtbot.waitUntil(helper_box.hasFocus)
    _wheel(helper_box)
    assert helper_box.value() == 6
    combo.setFocus()
    qtbot.waitUntil(combo.hasFocus)
    _wheel(combo, -1)
    assert combo.currentIndex() == 1


def test_the_style_guards_the_wheel_and_survives_a_theme_change(window: MainWindow, qtbot: QtBot) -> None:
    application = QApplication.instance()
    assert isinstance(application, QApplication)
    style = application.style()
    assert isinstance(style, WheelCalmingStyle)
    apply_theme(application, "dark")
    apply_theme(application, "light")
    assert application.style() is style  # set once: a second setStyle would delete the one widgets hold
    box = spin_box(0, 10, 5)  # made after the switch: polished by the same style, guarded once
    qtbot.addWidget(box)
    box.show()
    box.activateWindow()
    qtbot.waitUntil(box.isActiveWindow)
    _wheel(box, 2)
    assert box.value() == 5 and box.focusPolicy() == Qt.FocusPolicy.StrongFocus
    box.setFocus()
    qtbot.waitUntil(box.hasFocus)
    _wheel(box)
    assert box.value() == 6  # one step: a guard installed twice would still pass it once


def test_the_details_panel_numbers_ignore_a_passing_wheel(window: MainWindow) -> None:
    _select(window, "Ganger 1")
    boxes = [box for box in window.details.findChildren(QSpinBox) if box.isVisibleTo(window)]
    assert boxes
    before = [box.value() for box in boxes]
    for box in boxes:
        _wheel(box, 3)
    assert [box.value() for box in boxes] == before


# --- the reminder line ---------------------------------------------------------------------------


def test_a_reminder_does_not_push_the_table_down(window: MainWindow) -> None:
    QApplication.processEvents()
    top = window.table.y()
    long = "Reminder: " + "the smoke grenade still blocks the corridor, " * 6
    window.document.apply(AddEffect(Effect("e1", long, reminds=Timing(Hook.TURN_START))))
    window.session.next_turn()
    QApplication.processEvents()
    assert window.reminder.isVisible() and long in window.reminder.text()
    assert window.table.y() == top
    window.reminder.show_reminders([long, "Reminder: Bleeding"])
    shown = window.reminder.shown_text(400)
    assert "Bleeding" in shown and window.reminder.fontMetrics().horizontalAdvance(shown) <= 400  # one line each
    assert window.reminder.toolTip() == f"{long}\nReminder: Bleeding"
    window.reminder.show_reminders(())  # the timer ran out
    QApplication.processEvents()
    assert not window.reminder.isVisible() and window.table.y() == top


# --- the undo history ----------------------------------------------------------------------------


def test_the_undo_history_is_built_when_first_opened_and_lists_every_step(window: MainWindow, qtbot: QtBot) -> None:
    """Start-up (issue 14): the undo history is out of the first paint; opened later, it holds the whole fight."""
    for _turn in range(2):
        window.session.next_turn()
    QApplication.processEvents()
    assert window._undo_content.content is None
    window.undo_dock.toggleViewAction().trigger()
    # Built as it is placed, so the dock gets the room its list asks for (not a placeholder's squeezed line).
    assert window._undo_content.content is not None
    view = window.undo_view
    qtbot.waitUntil(view.isVisible)
    stack = window.document.undo_stack
    assert stack.count() >= 2
    assert view.model().rowCount() == stack.count() + 1  # and the "<start of the fight>" line
    assert view.selectionModel().currentIndex().row() == stack.index()
    window.session.next_turn()  # it follows the fight from now on
    assert view.model().rowCount() == stack.count() + 1
    assert view.selectionModel().currentIndex().row() == stack.index()


def _click_step(window: MainWindow, row: int) -> None:
    view = window.undo_view
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     view.visualRect(view.model().index(row, 0)).center())


def test_a_click_that_undoes_several_steps_asks_first(window: MainWindow, monkeypatch: pytest.MonkeyPatch,
                                                       qtbot: QtBot) -> None:
    asked: list[str] = []
    answer = [QMessageBox.StandardButton.No]

    def question(_parent: Any, _title: str, text: str, *_args: Any) -> Any:
        asked.append(text)
        return answer[0]

    monkeypatch.setattr(QMessageBox, "question", question)
    window.undo_dock.toggleViewAction().trigger()
    for _turn in range(3):
        window.session.next_turn()
    stack = window.document.undo_stack
    qtbot.waitUntil(window.undo_view.isVisible)
    top = stack.index()
    _click_step(window, top - 3)
    assert asked == ["Undo the last 3 steps?\n\nEdit → Redo brings them back until you make a new change."]
    assert stack.index() == top  # the GM said no
    answer[0] = QMessageBox.StandardButton.Yes
    _click_step(window, top - 2)
    assert stack.index() == top - 2
    _click_step(window, top - 3)  # one step: no question
    assert stack.index() == top - 3 and len(asked) == 2
    _click_step(window, top)  # forward again: redoing asks nothing
    assert stack.index() == top and len(asked) == 2


def test_the_row_menu_selects_its_row_while_ctrl_is_held(window: MainWindow) -> None:
    # Ctrl held (here: left stuck by a Ctrl+ shortcut sent as one click) made the row toggle off.
    QTest.keyClick(window.table, Qt.Key.Key_F1, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier)
    window.table.row_menu(_row(window, "Ganger 1"))
    assert window.table.selected_ids() == [_id(window, "Ganger 1")]
    window.table.row_menu(_row(window, "Ganger 3"))
    assert window.table.selected_ids() == [_id(window, "Ganger 3")]


def test_a_right_click_inside_a_selection_keeps_it_for_the_menus_damage(window: MainWindow) -> None:
    first, second = _id(window, "Ganger 1"), _id(window, "Ganger 2")
    window.table.select_combatant(first)
    window.table.selectionModel().select(window.initiative_model.index(_row(window, "Ganger 2"), 0),
                                         QItemSelectionModel.SelectionFlag.Select
                                         | QItemSelectionModel.SelectionFlag.Rows)
    window.table.row_menu(_row(window, "Ganger 2"))
    assert set(window.table.selected_ids()) == {first, second}
    assert window.table.selected_id() == second  # the row clicked is the current one
