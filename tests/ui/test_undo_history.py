"""The undo history dock's list over Qt's undo stack."""

from __future__ import annotations

import shiboken6
from PySide6.QtGui import QUndoCommand, QUndoStack
from pytestqt.qtbot import QtBot

from ui.widgets.undo_history import UndoHistory


def test_a_stack_deleted_first_at_exit_leaves_the_list_quiet(qtbot: QtBot) -> None:
    """At exit Qt may delete the stack before the list: its signals then reached a list asking a dead stack
    ("QUndoStack already deleted", a traceback printed as the app closed)."""
    stack = QUndoStack()
    stack.push(QUndoCommand("Damage"))
    view = UndoHistory(stack)
    qtbot.addWidget(view)
    model = view.model()
    assert model.rowCount() == 2 and model.data(model.index(1, 0)) == "Damage"
    shiboken6.delete(stack)
    assert model.rowCount() == 0
    view._select_index()  # what the model's reset calls: no RuntimeError
