"""The combat log model: grouped by round and pass, follows do/undo/redo, copyable."""

from __future__ import annotations

from typing import Any

from app.document import EncounterDocument
from rules.combatants import ApplyHarm
from rules.turns import NextTurn
from tests.rules.sr3_scenes import eight_characters, roll_ones
from ui.models.log_model import LogModel, LogRole


def test_log_follows_undo_and_redo(qtmodeltester: Any) -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    document = EncounterDocument(history)
    model = LogModel(document)
    qtmodeltester.check(model, force_py=True)
    text = model.plain_text()
    assert text.splitlines()[0] == "Before the fight"
    assert "Round 1 · initiative pass 1" in text
    rows = model.rowCount()
    document.apply(ApplyHarm(ids["Dave"], "physical", 3))
    assert model.rowCount() == rows + 1
    assert model.plain_text().splitlines()[-1] == "Dave takes 3 on the Physical track."
    document.undo_stack.undo()
    assert model.rowCount() == rows
    document.undo_stack.redo()
    assert model.rowCount() == rows + 1
    document.apply(NextTurn())
    headings = [model.index(r, 0).data() for r in range(model.rowCount()) if model.index(r, 0).data(LogRole.IS_HEADING)]
    assert headings == ["Before the fight", "Round 1 · initiative pass 1"]


def test_copy_selected_rows() -> None:
    history, _ids = eight_characters()
    document = EncounterDocument(history)
    model = LogModel(document)
    assert model.plain_text([1, 2]) == "Mike joins the fight.\nGanger 1 joins the fight."
