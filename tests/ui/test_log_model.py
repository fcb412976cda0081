"""The combat log model: grouped by round and pass, follows do/undo/redo, copyable."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.document import EncounterDocument
from app.storage import load_encounter, save_encounter
from rules.combatants import ApplyHarm
from rules.encounter import frozen_map
from rules.report import heading_text
from rules.turns import NextTurn, RollInitiative
from tests.rules.sr3_scenes import eight_characters, roll_ones
from tests.rules.test_documents import long_fight
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


def _expected(document: EncounterDocument) -> list[tuple[str, bool]]:
    """The log as the model showed it when it built every row ahead: a heading wherever the moment changes."""
    rows: list[tuple[str, bool]] = []
    moment = None
    for entry in document.history.entries:
        if (entry.round, entry.pass_no) != moment:
            moment = (entry.round, entry.pass_no)
            rows.append((heading_text(entry.round, entry.pass_no, document.system.time_units()), True))
        rows += [(line.render(), False) for line in entry.log]
    return rows


def _row_counts(document: EncounterDocument) -> list[int]:
    """How many rows :func:`_expected` gives for each beginning of the history: ``counts[k]`` for its first k
    entries (a heading wherever the moment changes, then the entry's lines), without rendering a line."""
    counts, total, moment = [0], 0, None
    for entry in document.history.entries:
        if (entry.round, entry.pass_no) != moment:
            moment = (entry.round, entry.pass_no)
            total += 1
        total += len(entry.log)
        counts.append(total)
    return counts


def _expected_rows(document: EncounterDocument) -> list[str]:
    return [text for text, _heading in _expected(document)]


def test_a_loaded_long_fight_has_every_row_worked_out_on_demand(tmp_path: Path, qtmodeltester: Any) -> None:
    path = tmp_path / "long.bojovka"
    save_encounter(long_fight(), path)
    document = EncounterDocument(load_encounter(path), path)
    model = LogModel(document)
    # Qt's own tester (C++): it rechecks the 3,000 rows on every signal of the 60 steps, as the Python one did in 10 s
    qtmodeltester.check(model)
    assert model.plain_text().splitlines() == _expected_rows(document)
    counts = _row_counts(document)  # rendering the whole expected log after each undo took most of this test
    for _step in range(30):  # back over headings and entries that wrote nothing, and forward again
        document.undo_stack.undo()
        assert model.rowCount() == counts[len(document.history.entries)]
    assert model.plain_text().splitlines() == _expected_rows(document)
    for _step in range(30):
        document.undo_stack.redo()
    document.apply(NextTurn())
    assert model.plain_text().splitlines() == _expected_rows(document)
    assert [model.index(row, 0).data(LogRole.IS_HEADING) for row in range(model.rowCount())] == [
        heading for _text, heading in _expected(document)]


def test_a_rebuilt_log_is_the_log_grown_step_by_step() -> None:
    """A model made for a fight (or a fight loaded) builds its rows in one loop: the same rows and headings as
    appending them entry by entry, and the same place to head the next entry's rows."""
    history, ids = eight_characters()
    document = EncounterDocument(history)
    grown = LogModel(document)
    rolls = frozen_map(dict.fromkeys(ids.values(), (1,)))
    for operation in (RollInitiative(rolls, frozen_map(dict.fromkeys(ids.values(), ()))),
                      ApplyHarm(ids["Dave"], "stun", 1), NextTurn(), NextTurn(), ApplyHarm(ids["Dave"], "stun", 1)):
        document.apply(operation)
    rebuilt = LogModel(document)

    def rows(model: LogModel) -> list[tuple[str, bool]]:
        return [(model.index(row, 0).data(), model.index(row, 0).data(LogRole.IS_HEADING))
                for row in range(model.rowCount())]

    assert rows(grown) == rows(rebuilt) == _expected(document)
    headings = sum(heading for _text, heading in rows(rebuilt))
    moment = (document.history.entries[-1].round, document.history.entries[-1].pass_no)
    document.apply(ApplyHarm(ids["Dave"], "stun", 1))  # the same moment: no heading
    assert sum(heading for _text, heading in rows(rebuilt)) == headings
    while (document.history.entries[-1].round, document.history.entries[-1].pass_no) == moment:
        document.apply(NextTurn())  # until the next pass: its rows under a heading of their own
    assert sum(heading for _text, heading in rows(rebuilt)) == headings + 1
    assert rows(grown) == rows(rebuilt) == _expected(document)
