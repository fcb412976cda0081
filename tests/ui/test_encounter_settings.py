"""Encounter settings: built from the game's options, applied as one undoable step, bad input shown."""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QComboBox, QPlainTextEdit
from pytestqt.qtbot import QtBot

from app.document import EncounterDocument
from rules.history import new_history
from rules.systems import get_system
from ui.dialogs.encounter_settings import EncounterSettingsDialog


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
