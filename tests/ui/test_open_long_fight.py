"""Opening a long fight into the window renders only what is shown: log rows and undo steps on demand."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtWidgets import QApplication

from app.storage import load_encounter, save_encounter
from tests.rules.test_documents import long_fight, spy_on_log
from tests.ui.conftest import WindowFactory
from ui.models.log_model import LogRole


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    path = tmp_path / "long.bojovka"
    save_encounter(long_fight(), path)
    return path


def test_opening_renders_only_the_log_rows_and_undo_steps_shown(open_window: WindowFactory, saved: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    window = open_window("sr3")
    decoded = spy_on_log(monkeypatch)
    load_encounter(saved)
    checked = len(decoded)  # opening replays the last segments and checks their saved log against it
    decoded.clear()
    window.workspace.open(saved)
    QApplication.processEvents()
    window.grab()
    entries = window.document.history.entries
    assert len(entries) > 300
    assert len(decoded) - checked < 60  # besides: the rows the log list paints, the steps Edit → Undo names
    model = window.log_model
    assert model.rowCount() > len(entries)  # every line has its row (and the headings theirs)
    assert model.index(model.rowCount() - 1, 0).data() == entries[-1].log[-1].render()
    assert window.actions_by_name["undo"].text().endswith(entries[-1].label or entries[-1].log[0].render())


def test_a_log_row_far_back_is_right_when_scrolled_to_and_searched(open_window: WindowFactory, saved: Path) -> None:
    window = open_window("sr3")
    window.workspace.open(saved)
    model, view = window.log_model, window.log_view
    rows = [row for row in range(model.rowCount()) if not model.index(row, 0).data(LogRole.IS_HEADING)]
    row = rows[40]
    number = model.index(row, 0).data(LogRole.ENTRY_NUMBER)
    entry = window.document.history.entries[number - 1]
    text = model.index(row, 0).data()
    assert text in [line.render() for line in entry.log]
    view.search.setText(text)
    found = [view.list.model().index(r, 0).data() for r in range(view.list.model().rowCount())]
    assert found and all(text.casefold() in shown.casefold() for shown in found)


def test_the_undo_history_names_a_step_far_back_when_shown(open_window: WindowFactory, saved: Path) -> None:
    window = open_window("sr3")
    window.workspace.open(saved)
    window.undo_dock.toggleViewAction().trigger()
    QApplication.processEvents()
    view, stack = window.undo_view, window.document.undo_stack
    entries = window.document.history.entries
    named: Any = view.model()
    shown = named.named
    assert shown < 60  # the rows painted, not all of them
    assert view.currentIndex().row() == stack.index() == len(entries)  # the current step is selected
    view.scrollTo(view.model().index(5, 0))
    assert view.model().index(0, 0).data() == "<start of the fight>"
    assert view.model().index(5, 0).data() == (entries[4].label or entries[4].log[0].render())


def test_the_log_shows_the_newest_line_and_copies_the_rows_picked(open_window: WindowFactory, saved: Path) -> None:
    window = open_window("sr3")
    window.workspace.open(saved)
    window.log_dock.show()
    window.log_dock.raise_()
    QApplication.processEvents()
    view, model = window.log_view, window.log_model
    table = view.list
    last = table.model().index(table.model().rowCount() - 1, 0)
    assert table.viewport().rect().intersects(table.visualRect(last))  # a loaded fight opens at its newest line
    assert last.data(Qt.ItemDataRole.ToolTipRole) == last.data()  # a line elided to the panel's width, whole here
    table.selectRow(2)
    table.selectionModel().select(table.model().index(5, 0), QItemSelectionModel.SelectionFlag.Select
                                  | QItemSelectionModel.SelectionFlag.Rows)
    view.copy_selection()
    assert QApplication.clipboard().text() == model.plain_text([2, 5])
