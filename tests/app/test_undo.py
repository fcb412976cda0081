"""The fight's undo stack over its history: Qt's QUndoStack behaviour (index, clean state, texts, signals, actions)
without one Qt command per step."""

from __future__ import annotations

from typing import Any

import shiboken6
from PySide6.QtCore import QObject

from app.document import EncounterDocument
from app.undo import UNREACHABLE, step_name
from rules.combatants import AddCombatant
from rules.history import new_history


def _document(steps: int = 3) -> EncounterDocument:
    document = EncounterDocument(new_history("sr3", "Undo"))
    for number in range(steps):
        document.apply(AddCombatant(f"c{number}", f"Ganger {number}"))
    return document


def _record(document: EncounterDocument) -> list[tuple[str, Any]]:
    stack, heard = document.undo_stack, []
    for name in ("indexChanged", "canUndoChanged", "undoTextChanged", "canRedoChanged", "redoTextChanged",
                 "cleanChanged"):
        getattr(stack, name).connect(lambda value, name=name: heard.append((name, value)))
    return heard


def test_the_stack_is_the_history_done_and_undone() -> None:
    document = _document()
    stack, history = document.undo_stack, document.history
    assert (stack.index(), stack.count(), stack.canUndo(), stack.canRedo()) == (3, 3, True, False)
    stack.undo()
    assert (stack.index(), stack.count(), stack.canRedo()) == (2, 3, True)
    undone = history.step(2)
    assert undone is not None and undone is history.next_redo
    assert stack.undoText() == step_name(history.entries[1]) and stack.redoText() == step_name(undone)
    assert [stack.text(slot) for slot in range(3)] == ["Ganger 0 joins the fight.", "Ganger 1 joins the fight.",
                                                      "Ganger 2 joins the fight."]
    assert stack.text(3) == stack.text(-1) == ""


def test_a_jump_moves_the_history_and_tells_once_in_qt_order() -> None:
    document = _document(5)
    document.undo_stack.setClean()  # saved after the fifth step
    heard = _record(document)
    document.undo_stack.setIndex(1)
    assert document.history.position == 1 and sorted(document.state.combatants) == ["c0"]
    assert [name for name, _value in heard] == ["indexChanged", "canUndoChanged", "undoTextChanged",
                                                "canRedoChanged", "redoTextChanged", "cleanChanged"]
    assert heard[0] == ("indexChanged", 1) and heard[-1] == ("cleanChanged", False)


def test_the_saved_step_is_clean_until_a_new_change_drops_it() -> None:
    document = _document()
    stack = document.undo_stack
    stack.setClean()
    heard = _record(document)
    stack.undo()
    stack.redo()
    assert stack.isClean() and [value for name, value in heard if name == "cleanChanged"] == [False, True]
    stack.undo()
    document.apply(AddCombatant("late", "Late"))  # the undone (saved) step is gone
    assert (stack.count(), stack.cleanIndex(), stack.isClean()) == (3, UNREACHABLE, False)
    stack.undo()
    stack.redo()
    assert not stack.isClean() and document.modified


def test_a_recovered_new_fight_is_modified_with_no_step_back_to_clean() -> None:
    document = EncounterDocument(new_history("sr3", "Recovered"))
    document.replace_history(new_history("sr3", "Recovered"), None, clean=False)
    assert document.modified and document.undo_stack.count() == 0
    document.undo_stack.setClean()
    assert not document.modified


def test_the_edit_actions_name_the_step_and_follow_the_stack(qapp: Any) -> None:
    document = _document(2)
    parent = QObject()
    undo = document.undo_stack.createUndoAction(parent, "&Undo")
    redo = document.undo_stack.createRedoAction(parent, "&Redo")
    assert undo.text() == "&Undo " + document.undo_stack.undoText() and undo.isEnabled()
    assert redo.text() == "&Redo" and not redo.isEnabled()
    undo.trigger()
    undo.trigger()
    assert document.history.position == 0 and not undo.isEnabled() and undo.text() == "&Undo"
    assert redo.isEnabled() and redo.text() == "&Redo " + document.undo_stack.redoText()
    redo.trigger()
    assert document.history.position == 1


def test_an_edit_action_gone_before_its_stack_is_no_longer_told(qapp: Any) -> None:
    document = _document(2)
    parent = QObject()
    undo = document.undo_stack.createUndoAction(parent, "&Undo")
    shiboken6.delete(parent)  # the window closed; the document stays (the workspace holds it)
    assert not shiboken6.isValid(undo)
    document.undo_stack.undo()  # told nobody: a slot of the deleted action would raise here
    assert document.history.position == 1
