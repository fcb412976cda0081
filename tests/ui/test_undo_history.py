"""The undo history dock's list over the fight's undo stack."""

from __future__ import annotations

import shiboken6
from pytestqt.qtbot import QtBot

from app.document import EncounterDocument
from rules.combatants import AddCombatant
from rules.history import new_history
from ui.widgets.undo_history import UndoHistory


def test_a_stack_deleted_first_at_exit_leaves_the_list_quiet(qtbot: QtBot) -> None:
    """At exit Qt may delete the stack before the list: its signals then reached a list asking a dead stack
    ("QUndoStack already deleted", a traceback printed as the app closed)."""
    document = EncounterDocument(new_history("sr3", "Exit"))
    document.apply(AddCombatant("c1", "Ganger 1"))
    stack = document.undo_stack
    view = UndoHistory(stack)
    qtbot.addWidget(view)
    model = view.model()
    assert model.rowCount() == 2 and model.data(model.index(1, 0)) == stack.undoText() != ""
    shiboken6.delete(stack)
    assert model.rowCount() == 0
    view._select_index()  # what the model's reset calls: no RuntimeError
