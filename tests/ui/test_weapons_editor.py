"""The generic weapons editor: one column per weapon field of the game, every edit checked by the game, a
refusal shown under the table with nothing typed lost, and everything reachable by keyboard."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from PySide6.QtCore import QModelIndex, QPoint, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QComboBox, QLineEdit, QSpinBox, QWidget
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from rules.encounter import Weapon
from rules.errors import RulesError
from rules.systems.base import OptionSpec
from rules.weapons import MAGAZINE, ROUNDS
from tests.ui.armed_toy import CLUB, PISTOL, ArmedToy
from ui.models.weapons_model import NAME_COLUMN, WeaponRole, WeaponsModel
from ui.widgets.weapons_editor import WeaponsEditor

ARMED = ArmedToy()


class Unarmed(ArmedToy):
    """A game that keeps no weapons."""

    def weapon_fields(self) -> Sequence[OptionSpec]:
        return ()
COLUMNS = {spec.key: number + 1 for number, spec in enumerate(ARMED.weapon_fields())}


@pytest.fixture
def host(qtbot: QtBot) -> QWidget:
    """A plain window to put the editor in (a shown top-level with a layout makes the offscreen plugin warn)."""
    widget = QWidget()
    qtbot.addWidget(widget)
    return widget


@pytest.fixture
def editor(qtbot: QtBot, host: QWidget) -> WeaponsEditor:
    opened = WeaponsEditor(ARMED, (PISTOL, CLUB), host)
    host.resize(700, 300)
    opened.resize(host.size())
    with qtbot.waitExposed(host):
        host.show()
    with qtbot.waitActive(host):
        host.activateWindow()
    return opened


def _cell(editor: WeaponsEditor, row: int, key: str | None = None) -> QModelIndex:
    return editor.model.index(row, NAME_COLUMN if key is None else COLUMNS[key])


def _commit(qtbot: QtBot, widget: QWidget | None = None) -> None:
    """Enter in a cell's editor (the delegate commits on the next turn of the event loop)."""
    qtbot.keyClick(widget or QApplication.focusWidget(), Qt.Key.Key_Return)
    QApplication.processEvents()


def _open_editor(qtbot: QtBot, editor: WeaponsEditor, row: int, key: str | None = None) -> QWidget:
    index = _cell(editor, row, key)
    editor.table.setFocus()
    editor.table.setCurrentIndex(index)
    qtbot.keyClick(editor.table, Qt.Key.Key_F2)
    widget = QApplication.focusWidget()
    assert widget is not None and widget is not editor.table
    return widget


def test_one_column_per_field_with_the_games_words(editor: WeaponsEditor) -> None:
    model = editor.model
    headers = [model.headerData(column, Qt.Orientation.Horizontal) for column in range(model.columnCount())]
    assert headers == ["Name", "Damage", "Reach", "Two-handed", "Magazine", "Rounds"]
    assert model.headerData(COLUMNS["damage"], Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole) \
        == "A number or dice, e.g. 2 or 1d6."
    assert _cell(editor, 0).data() == "Pistol"
    assert _cell(editor, 0, "reach").data() == "Ranged"  # the label, not "ranged"
    assert _cell(editor, 1, "two_handed").data(Qt.ItemDataRole.CheckStateRole) == Qt.CheckState.Checked
    assert _cell(editor, 1, "two_handed").data() is None  # a check box, no text
    assert editor.weapons() == (PISTOL, CLUB) and editor.checked() == (PISTOL, CLUB)
    assert editor.problem() == "" and editor.message.text() == ""
    header = editor.table.horizontalHeader()
    for column in range(1, model.columnCount()):  # every header readable in full
        text = str(model.headerData(column, Qt.Orientation.Horizontal))
        assert header.sectionSize(column) >= editor.fontMetrics().horizontalAdvance(text) + 12, text


def test_each_kind_of_field_gets_its_own_editor(qtbot: QtBot, editor: WeaponsEditor) -> None:
    line = _open_editor(qtbot, editor, 0, "damage")
    assert isinstance(line, QLineEdit) and line.text() == "3"
    qtbot.keyClick(line, Qt.Key.Key_Escape)
    spin = _open_editor(qtbot, editor, 0, MAGAZINE)
    assert isinstance(spin, QSpinBox) and (spin.minimum(), spin.maximum(), spin.value()) == (0, 100, 10)
    assert spin.focusPolicy() == Qt.FocusPolicy.StrongFocus  # the wheel only once it has the focus
    qtbot.keyClick(spin, Qt.Key.Key_Escape)
    combo = _open_editor(qtbot, editor, 0, "reach")
    assert isinstance(combo, QComboBox) and [combo.itemText(i) for i in range(combo.count())] == ["Melee", "Ranged"]
    assert combo.currentText() == "Ranged" and combo.focusPolicy() == Qt.FocusPolicy.StrongFocus
    combo.setCurrentIndex(0)
    _commit(qtbot, combo)
    assert editor.weapons()[0].value("reach") == "melee"


def test_a_check_box_toggles_with_the_space_bar(qtbot: QtBot, editor: WeaponsEditor) -> None:
    editor.table.setFocus()
    editor.table.setCurrentIndex(_cell(editor, 0, "two_handed"))
    qtbot.keyClick(editor.table, Qt.Key.Key_Space)
    assert editor.weapons()[0].value("two_handed") is True


def test_typing_on_a_cell_starts_editing_it(qtbot: QtBot, editor: WeaponsEditor) -> None:
    editor.table.setFocus()
    editor.table.setCurrentIndex(_cell(editor, 1, "damage"))
    qtbot.keyClicks(editor.table, "2")  # the first key opens the line with it
    focused = QApplication.focusWidget()
    assert isinstance(focused, QLineEdit) and focused.text() == "2"
    qtbot.keyClicks(focused, "D6")
    _commit(qtbot, focused)
    assert editor.weapons()[1].value("damage") == "2D6"  # as typed
    assert editor.checked()[1].value("damage") == "2d6"  # as the game keeps it


def test_a_refusal_is_shown_in_place_and_nothing_typed_is_lost(qtbot: QtBot, editor: WeaponsEditor) -> None:
    changes: list[int] = []
    editor.changed.connect(lambda: changes.append(1))
    height = editor.message.height()
    editor.model.setData(_cell(editor, 0, ROUNDS), 12)
    assert editor.problem() == "Pistol: 12 rounds loaded, but the magazine holds 10."
    assert editor.message.text() == editor.problem() and editor.message.property("error") is True
    assert editor.weapons()[0].number(ROUNDS) == 12 and changes == [1]  # kept as typed
    assert editor.message.height() == height  # room was kept for it: nothing below moves
    editor.model.setData(_cell(editor, 1), "pistol")
    assert "Pistol" in editor.problem()
    editor.model.setData(_cell(editor, 0, ROUNDS), 10)
    assert editor.problem() == "Two weapons are called “pistol”: give each its own name."
    editor.model.setData(_cell(editor, 1, "damage"), "lots")
    editor.model.setData(_cell(editor, 1), "Club")
    assert editor.problem() == "Club: damage must be a number or dice, not “lots”."  # the game's own check
    editor.model.setData(_cell(editor, 1, "damage"), "4")
    assert editor.problem() == "" and editor.message.text() == "" and editor.checked()[1].value("damage") == "4"
    editor.model.setData(_cell(editor, 1, "damage"), "x")
    with pytest.raises(RulesError, match="damage must be"):
        editor.checked()


def test_add_duplicate_remove_and_move_by_buttons(qtbot: QtBot, editor: WeaponsEditor) -> None:
    editor.table.setCurrentIndex(_cell(editor, 0))
    QTest.mouseClick(editor.add_button, Qt.MouseButton.LeftButton)
    name = QApplication.focusWidget()
    assert isinstance(name, QLineEdit) and name.text() == "Weapon 1"  # ready to be typed over
    name.selectAll()
    qtbot.keyClicks(name, "Knife")
    _commit(qtbot, name)
    knife = editor.weapons()[1]
    assert [w.name for w in editor.weapons()] == ["Pistol", "Knife", "Club"]
    assert dict(knife.values) == {"damage": "1", "reach": "melee", "two_handed": False, MAGAZINE: 0, ROUNDS: 0}
    QTest.mouseClick(editor.duplicate_button, Qt.MouseButton.LeftButton)
    _commit(qtbot)
    assert [w.name for w in editor.weapons()] == ["Pistol", "Knife", "Knife (copy)", "Club"]
    QTest.mouseClick(editor.up_button, Qt.MouseButton.LeftButton)
    QTest.mouseClick(editor.up_button, Qt.MouseButton.LeftButton)
    assert [w.name for w in editor.weapons()] == ["Knife (copy)", "Pistol", "Knife", "Club"]
    assert not editor.up_button.isEnabled() and editor.current_row() == 0
    QTest.mouseClick(editor.down_button, Qt.MouseButton.LeftButton)
    assert [w.name for w in editor.weapons()] == ["Pistol", "Knife (copy)", "Knife", "Club"]
    QTest.mouseClick(editor.remove_button, Qt.MouseButton.LeftButton)
    assert [w.name for w in editor.weapons()] == ["Pistol", "Knife", "Club"] and editor.current_row() == 1
    assert editor.problem() == ""


def test_the_keyboard_adds_removes_and_moves(qtbot: QtBot, editor: WeaponsEditor) -> None:
    editor.table.setFocus()
    editor.table.setCurrentIndex(_cell(editor, 1))
    qtbot.keyClick(editor.table, Qt.Key.Key_Up, Qt.KeyboardModifier.ControlModifier)
    assert [w.name for w in editor.weapons()] == ["Club", "Pistol"] and editor.current_row() == 0
    qtbot.keyClick(editor.table, Qt.Key.Key_Down, Qt.KeyboardModifier.ControlModifier)
    assert [w.name for w in editor.weapons()] == ["Pistol", "Club"] and editor.current_row() == 1
    qtbot.keyClick(editor.table, Qt.Key.Key_Insert)
    _commit(qtbot)
    assert [w.name for w in editor.weapons()] == ["Pistol", "Club", "Weapon 1"]
    qtbot.keyClick(editor.table, Qt.Key.Key_Delete)
    assert [w.name for w in editor.weapons()] == ["Pistol", "Club"]
    line = _open_editor(qtbot, editor, 0)
    qtbot.keyClick(line, Qt.Key.Key_Delete)  # Delete in a cell being typed edits the text, not the list
    assert len(editor.weapons()) == 2
    qtbot.keyClick(line, Qt.Key.Key_Escape)


def test_tab_leaves_the_table_for_the_buttons(qtbot: QtBot, editor: WeaponsEditor) -> None:
    editor.table.setFocus()
    qtbot.keyClick(editor.table, Qt.Key.Key_Tab)
    assert editor.add_button.hasFocus()


def test_a_full_magazine_stays_full_when_its_size_changes(editor: WeaponsEditor) -> None:
    editor.set_weapons((PISTOL.with_value(ROUNDS, 10),))
    editor.model.setData(_cell(editor, 0, MAGAZINE), 15)
    assert editor.weapons()[0].number(ROUNDS) == 15
    editor.model.setData(_cell(editor, 0, ROUNDS), 4)
    editor.model.setData(_cell(editor, 0, MAGAZINE), 20)
    assert editor.weapons()[0].number(ROUNDS) == 4  # half empty stays as it is


def test_the_wheel_passing_over_a_number_changes_nothing(qtbot: QtBot, editor: WeaponsEditor) -> None:
    spin = _open_editor(qtbot, editor, 0, MAGAZINE)
    assert isinstance(spin, QSpinBox)
    editor.add_button.setFocus()  # the editor closes and commits; a new one never opens by the wheel alone
    centre = editor.table.visualRect(_cell(editor, 0, MAGAZINE)).center()
    event = QWheelEvent(centre, editor.table.viewport().mapToGlobal(centre), QPoint(), QPoint(0, 120),
                        Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(editor.table.viewport(), event)
    assert editor.weapons()[0].number(MAGAZINE) == 10


def test_a_game_without_weapon_fields_shows_nothing(qtbot: QtBot, host: QWidget) -> None:
    editor = WeaponsEditor(Unarmed(), (), host)
    host.show()
    assert not editor.has_fields() and not editor.isVisible()
    assert editor.weapons() == () == editor.checked()


def test_the_weapons_model_passes_the_model_tester(qtmodeltester: ModelTester) -> None:
    model = WeaponsModel(ARMED.weapon_fields())
    qtmodeltester.check(model)
    model.set_weapons((PISTOL, CLUB))
    qtmodeltester.check(model)
    model.move_weapon(0, 1)
    model.insert_weapon(5, Weapon("Bow"))
    model.remove_weapon(0)
    qtmodeltester.check(model)
    assert [w.name for w in model.weapons()] == ["Pistol", "Bow"]
    assert model.index(1, NAME_COLUMN).data(WeaponRole.WEAPON) == Weapon("Bow")
    assert model.index(0, COLUMNS["damage"]).data(WeaponRole.SPEC).key == "damage"
    assert model.move_weapon(0, -1) == 0 and model.move_weapon(1, 1) == 1  # nowhere to go


def test_a_copy_of_a_long_name_still_fits(editor: WeaponsEditor) -> None:
    editor.set_weapons((Weapon("x" * 80, PISTOL.values),))
    editor.duplicate_weapon()
    names = [w.name for w in editor.weapons()]
    assert len(names[1]) == 80 and names[1].endswith(" (copy)") and editor.problem() == ""
