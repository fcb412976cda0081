"""The Roll initiative dialog asks the game what the GM chooses per combatant (Člověk: the mental dice risked):
faces typed there are taken without visiting the side panel, and the choices and the roll are one undo step.
The panel's own spin box logs one line per edit."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit
from pytestqt.qtbot import QtBot

from app.document import EncounterDocument
from app.session import FightSession
from rules.dice import Roller
from rules.serialize import to_data
from tests.rules.sr3_scenes import eight_characters
from tests.rules.test_clovek_scenes import left, seed_fight
from tests.ui.test_clovek_panel import banks_of, details_for
from ui.dialogs.initiative import RollInitiativeDialog

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")


def _dialog(qtbot: QtBot, document: EncounterDocument) -> RollInitiativeDialog:
    dialog = RollInitiativeDialog(FightSession(document, Roller.seeded(5)))
    qtbot.addWidget(dialog)
    return dialog


def test_typed_faces_are_taken_without_touching_the_side_panel(qtbot: QtBot) -> None:
    document = EncounterDocument(seed_fight())
    dialog = _dialog(qtbot, document)
    before, steps = to_data(document.state), document.undo_stack.count()
    assert set(dialog.inputs) == {"b", "c", "a"}  # the opponent's dice are the GM's choice too
    dialog.fields["b"].setText("2, 5, 7, 8, 3")
    assert dialog.inputs["b"]["initiative_dice"].value() == 5  # the faces say how many dice she risked
    dialog.inputs["a"]["initiative_dice"].setValue(4)
    dialog.roll()
    assert dialog.result() == dialog.DialogCode.Accepted, dialog.message.text()
    state = document.state
    assert document.system.score_text(state.combatant("b"), state) == "10"
    assert left(document.history, "b")[2] == 3 and left(document.history, "a")[2] == 2
    assert left(document.history, "c")[2] == 4  # nothing chosen: Composure alone, no die spent
    assert document.undo_stack.count() == steps + 1
    document.undo_stack.undo()
    assert to_data(document.state) == before


def test_the_dice_shown_follow_the_choice(qtbot: QtBot) -> None:
    dialog = _dialog(qtbot, EncounterDocument(seed_fight()))
    assert dialog.fields["c"].placeholderText().startswith("3:")  # no dice: Composure 3 alone
    dialog.inputs["c"]["initiative_dice"].setValue(3)
    assert "3d10" in dialog.fields["c"].placeholderText()
    assert dialog.inputs["c"]["initiative_dice"].maximum() == 4  # Cesare's mental bank
    labels = [label.text() for label in dialog._dice_labels.values()]
    assert labels and "rolled automatically" in labels[0]


def test_too_many_typed_faces_are_refused_by_name(qtbot: QtBot) -> None:
    document = EncounterDocument(seed_fight())
    dialog = _dialog(qtbot, document)
    dialog.fields["c"].setText("1 2 3 4 5")  # Cesare has four mental dice
    dialog.roll()
    assert dialog.result() != dialog.DialogCode.Accepted
    assert "Cesare" in dialog.message.text() and "0 to 4" in dialog.message.text()
    assert document.state.clock.round == 0


def test_a_game_without_choices_shows_none(qtbot: QtBot) -> None:
    history, _ids = eight_characters()
    dialog = _dialog(qtbot, EncounterDocument(history))
    assert dialog.inputs and not any(dialog.inputs.values())
    dialog.roll()
    assert dialog.result() == dialog.DialogCode.Accepted, dialog.message.text()


def _lines(document: EncounterDocument) -> list[str]:
    return [line for entry in document.history.entries for line in entry.text().splitlines()
            if "on initiative" in line]


def test_one_edit_of_the_panel_spin_box_is_one_line_and_one_undo(qtbot: QtBot) -> None:
    document = EncounterDocument(seed_fight())
    details = details_for(qtbot, document, "b")
    banks = banks_of(details)
    box = banks.initiative_dice
    steps = document.undo_stack.count()
    box.setFocus()
    editor = box.findChild(QLineEdit)
    assert editor is not None
    editor.selectAll()
    qtbot.keyClicks(editor, "5")
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    box.clearFocus()  # focus leaves the box: no second commit
    details.setFocus()
    assert document.state.combatant("b").extra["initiative_dice"] == 5
    assert _lines(document) == ["Beatrice will risk 5 mental dice on initiative."]
    assert document.undo_stack.count() == steps + 1
    box.stepUp()  # an arrow step is an edit of its own
    assert len(_lines(document)) == 2 and document.undo_stack.count() == steps + 2


def test_mental_dice_typed_as_two_digit_d10s_show_them_are_read_and_shown_as_read(qtbot: QtBot) -> None:
    # clovek.md: "On d10s with two-digit faces ignore the second digit: "10" = 1, "20" = 2, "00" = 10".
    # The seed's Beatrice: 2, 5, 7, 8, 3 + Composure 2 = 10, typed as her two-digit dice show them.
    from rules.combatants import SetOption

    document = EncounterDocument(seed_fight())
    dialog = _dialog(qtbot, document)
    dialog.fields["b"].setText("20, 50, 70, 80, 30")
    assert dialog.readings["b"].text() == "dice: 10 (read as 2, 5, 7, 8, 3)"
    dialog.fields["b"].setText("35, 50")
    assert dialog.readings["b"].text() == "✗" and "“35” is no d10 face" in dialog.message.text()
    dialog.fields["b"].setText("10, 20")  # another face spelled so: the dice have two digits, 10 is a 1
    assert dialog.readings["b"].text() == "dice: 4 (read as 1, 2)"
    dialog.reject()
    document.apply(SetOption("d10_faces", "two_digit"))
    dialog = _dialog(qtbot, document)
    dialog.inputs["b"]["initiative_dice"].setValue(1)  # one die: a lone number is its face
    dialog.fields["b"].setText("10")
    assert dialog.readings["b"].text() == "dice: 3 (read as 1)"
    dialog.fields["b"].setText("=12")  # a total stays a total
    assert dialog.readings["b"].text() == "total: 12"
    dialog.fields["b"].setText("00, 10")
    dialog.roll()
    assert document.system.score_text(document.state.combatant("b"), document.state) == "12"


def test_a_long_reading_widens_the_dialog_instead_of_being_clipped(qtbot: QtBot) -> None:
    dialog = _dialog(qtbot, EncounterDocument(seed_fight()))
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.fields["b"].setText("20, 50, 70, 80, 30, 60, 90, 00")
    label = dialog.readings["b"]
    assert "(read as 2, 5, 7, 8, 3, 6, 9, 10)" in label.text()
    assert label.width() >= label.sizeHint().width()
