"""Encounter settings: built from the game's options, applied as one undoable step, bad input shown."""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QComboBox, QPlainTextEdit, QTableWidgetItem
from pytestqt.qtbot import QtBot

from app.document import EncounterDocument
from rules.history import new_history
from rules.systems import get_system
from ui.dialogs.encounter_settings import EncounterSettingsDialog
from ui.widgets.table_option import TableOptionEditor


def _dialog(qtbot: QtBot) -> tuple[EncounterSettingsDialog, EncounterDocument]:
    document = EncounterDocument(new_history("sr3", "Warehouse"))
    dialog = EncounterSettingsDialog(document)
    qtbot.addWidget(dialog)
    return dialog, document


def test_every_option_of_the_game_has_an_editor(qtbot: QtBot) -> None:
    dialog, document = _dialog(qtbot)
    assert set(dialog.readers) == {spec.key for spec in document.system.option_specs()}
    assert dialog.operations() == []  # nothing changed yet


def test_changes_apply_as_one_undo_step(qtbot: QtBot) -> None:
    dialog, document = _dialog(qtbot)
    dialog.name.setText("Stuffer Shack")
    tie = dialog.editors["melee_tie"]
    assert isinstance(tie, QComboBox)
    tie.setCurrentIndex(tie.findData("attacker"))
    dialog.apply()
    assert document.state.name == "Stuffer Shack"
    assert get_system("sr3").option(document.state, "melee_tie") == "attacker"
    assert document.undo_stack.count() == 1
    document.undo_stack.undo()
    assert document.state.name == "Warehouse"


def test_bad_table_json_is_shown_and_nothing_changes(qtbot: QtBot) -> None:
    dialog, document = _dialog(qtbot)
    table = dialog.editors["tables"]
    assert isinstance(table, QPlainTextEdit)
    table.setPlainText("{not json")
    dialog.apply()
    assert "not valid JSON" in dialog.message.text()
    table.setPlainText('{"pools": {"combat_pool_divisor": "two"}}')
    dialog.apply()
    assert "SR3 data" in dialog.message.text()
    assert document.undo_stack.count() == 0
    table.setPlainText('{"pools": {"combat_pool_divisor": 3}}')
    dialog.apply()
    assert document.undo_stack.count() == 1


def test_a_set_of_choices_is_check_boxes_not_json(qtbot: QtBot) -> None:
    # Walka's "what a knocked-down character may not do" (walka.md: "the list is GM-editable").
    document = EncounterDocument(new_history("walka", "Alley"))
    dialog = EncounterSettingsDialog(document)
    qtbot.addWidget(dialog)
    editor = dialog.editors["down_forbids"]
    boxes = {box.text(): box for box in editor.findChildren(QCheckBox)}
    assert not editor.findChildren(QPlainTextEdit)
    assert [text for text, box in boxes.items() if box.isChecked()] == ["Attack", "Aim"]  # the digest's default
    assert "Stand up" not in boxes
    boxes["Aim"].setChecked(False)
    boxes["Move"].setChecked(True)
    dialog.apply()
    assert get_system("walka").option(document.state, "down_forbids") == ("attack", "move")
    reopened = EncounterSettingsDialog(document)
    qtbot.addWidget(reopened)
    assert [box.text() for box in reopened.editors["down_forbids"].findChildren(QCheckBox) if box.isChecked()] == [
        "Attack", "Move"]
    document.undo_stack.undo()
    assert get_system("walka").option(document.state, "down_forbids") == ("attack", "aim")


def _option(document: EncounterDocument, key: str) -> Any:
    """An option's value as plain dicts and lists (the state keeps read-only ones)."""
    return json.loads(json.dumps(document.state.options[key], default=dict))


def _institute(qtbot: QtBot) -> tuple[EncounterSettingsDialog, EncounterDocument]:
    document = EncounterDocument(new_history("institut", "Depot"))
    dialog = EncounterSettingsDialog(document)
    qtbot.addWidget(dialog)
    return dialog, document


def _cell(editor: TableOptionEditor, row_name: str, column: str) -> QTableWidgetItem:
    grid = editor.grid
    headers = [grid.horizontalHeaderItem(index).text() for index in range(grid.columnCount())]  # type: ignore[union-attr]
    row = next(r for r in range(grid.rowCount()) if grid.item(r, 0).text() == row_name)  # type: ignore[union-attr]
    item = grid.item(row, headers.index(column))
    assert item is not None
    return item


def test_the_institutes_tables_are_grids_and_forms_not_json(qtbot: QtBot) -> None:
    dialog, document = _institute(qtbot)
    for key in ("pyramid", "called_shots", "modifiers", "weapons"):
        assert isinstance(dialog.editors[key], TableOptionEditor), key
    assert dialog.operations() == []  # read back exactly as they were: the pistol's "no damage" included
    pyramid = dialog.editors["pyramid"]
    assert isinstance(pyramid, TableOptionEditor)
    assert not _cell(pyramid, "Light", "Name").flags() & Qt.ItemFlag.ItemIsEditable  # the game's own wound class
    _cell(pyramid, "Light", "Boxes").setText("5")
    dialog.apply()
    assert _option(document, "pyramid")["light"]["boxes"] == 5
    assert _option(document, "called_shots")["pistol"]["damage"] is None


def test_a_weapon_added_in_the_grid_keeps_only_the_fields_typed(qtbot: QtBot) -> None:
    dialog, document = _institute(qtbot)
    weapons = dialog.editors["weapons"]
    assert isinstance(weapons, TableOptionEditor)
    weapons.add_row()
    row = weapons.grid.rowCount() - 1
    weapons.grid.item(row, 0).setText("Crowbar")  # type: ignore[union-attr]
    _cell(weapons, "Crowbar", "Kind").setText("melee")
    _cell(weapons, "Crowbar", "Damage dice").setText("2")
    _cell(weapons, "Crowbar", "One-handed").setCheckState(Qt.CheckState.Checked)
    dialog.apply()
    assert dict(_option(document, "weapons")["Crowbar"]) == {"kind": "melee", "damage": 2, "one_handed": True}
    assert dict(_option(document, "weapons")["AK-74"]) == {"kind": "firearm", "damage": 7, "burst": "3/2",
                                                                "magazine": 30}


def test_a_weapons_dice_to_hit_are_a_column_of_the_grid(qtbot: QtBot) -> None:
    dialog, document = _institute(qtbot)
    weapons = dialog.editors["weapons"]
    assert isinstance(weapons, TableOptionEditor)
    assert _cell(weapons, "Makarov", "Dice to hit").text() == "0"
    _cell(weapons, "Sawn-off", "Dice to hit").setText("1")
    dialog.apply()
    assert _option(document, "weapons")["Sawn-off"]["hit"] == 1
    assert "hit" not in _option(document, "weapons")["Makarov"]


def test_an_unreadable_cell_is_named_and_nothing_changes(qtbot: QtBot) -> None:
    dialog, document = _institute(qtbot)
    called = dialog.editors["called_shots"]
    assert isinstance(called, TableOptionEditor)
    _cell(called, "head", "Dice to hit").setText("minus four")
    dialog.apply()
    assert dialog.message.text() == "“Called shots”, head · Dice to hit: “minus four” is not a whole number."
    assert document.undo_stack.count() == 0
    _cell(called, "head", "Dice to hit").setText("−3")  # the typographic minus reads as well
    called.grid.setCurrentCell(2, 0)
    called.remove_row()  # "limb" goes
    dialog.apply()
    assert _option(document, "called_shots")["head"]["hit"] == -3
    assert "limb" not in _option(document, "called_shots")


def test_walkas_defences_are_a_grid_of_check_boxes_over_the_bundled_table(qtbot: QtBot) -> None:
    # walka.md: "which defence answers which attack is a GM-editable table" (default: Firearms → Dodge; Melee
    # weapons → Dodge or Parry; Brawling → Dodge; Interface → Concentration).
    document = EncounterDocument(new_history("walka", "Alley"))
    dialog = EncounterSettingsDialog(document)
    qtbot.addWidget(dialog)
    defences = dialog.editors["defences"]
    assert isinstance(defences, TableOptionEditor)
    grid = defences.grid
    rows = [grid.verticalHeaderItem(row).text() for row in range(grid.rowCount())]
    columns = [grid.horizontalHeaderItem(c).text() for c in range(grid.columnCount())]  # type: ignore[union-attr]
    assert rows == ["Firearms", "Melee weapons", "Brawling", "Interface"]
    assert columns == ["Dodge", "Parry", "Concentration"]
    ticked = {(rows[r], columns[c]) for r in range(len(rows)) for c in range(len(columns))
              if grid.item(r, c).checkState() == Qt.CheckState.Checked}  # type: ignore[union-attr]
    assert ticked == {("Firearms", "Dodge"), ("Melee weapons", "Dodge"), ("Melee weapons", "Parry"),
                      ("Brawling", "Dodge"), ("Interface", "Concentration")}
    assert dialog.operations() == []  # the bundled table untouched: the option stays empty
    grid.item(rows.index("Brawling"), columns.index("Parry")).setCheckState(  # type: ignore[union-attr]
        Qt.CheckState.Checked)
    dialog.apply()
    assert get_system("walka").defences(document.state)["brawling"] == ("dodge", "parry")  # type: ignore[attr-defined]
    assert get_system("walka").defences(document.state)["firearms"] == ("dodge",)  # type: ignore[attr-defined]


def test_the_sr3_tie_step_is_a_choice_of_the_form(qtbot: QtBot) -> None:
    # sr3.md, Ties: the Decision (scores before this turn's wounds) for a new fight, the option "previous pass's
    # scores", and the rolled results that fights saved before the choice compared.
    dialog, document = _dialog(qtbot)
    step = dialog.editors["tie_first_step"]
    assert isinstance(step, QComboBox)
    assert [step.itemData(index) for index in range(step.count())] == ["turn_start", "pass_start", "rolled"]
    assert step.currentData() == "turn_start"
    step.setCurrentIndex(step.findData("pass_start"))
    dialog.apply()
    assert get_system("sr3").option(document.state, "tie_first_step") == "pass_start"
