"""Start-up pieces: the exception hook logs instead of showing a traceback; the layout is remembered."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication, QMessageBox
from pytestqt.qtbot import QtBot

from app import main as entry
from app.library import Library
from app.paths import log_dir
from app.storage import save_encounter
from app.workspace import Workspace
from rules.dice import Roller
from rules.documents import fight_data
from tests.rules.sr3_scenes import eight_characters, roll_ones
from ui.main_window import MainWindow

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")


def test_unexpected_errors_go_to_the_log_not_to_the_gm(capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)  # restored after the test
    log = entry._setup_logging()
    entry.install_exception_hook(log)
    try:
        raise ValueError("the dice fell off the table")
    except ValueError as error:
        sys.excepthook(type(error), error, error.__traceback__)
    for handler in entry.LOG.handlers:
        handler.flush()
    written = log.read_text(encoding="utf-8")
    assert "Traceback" in written and "the dice fell off the table" in written
    told = capsys.readouterr().err
    assert "the dice fell off the table" in told and "Traceback" not in told
    assert log.parent == log_dir()


def test_window_layout_is_remembered(qtbot: QtBot, tmp_path: Path) -> None:
    workspace = Workspace(library=Library(tmp_path / "library.sqlite3"))
    window = MainWindow(workspace)
    qtbot.addWidget(window)
    window.log_dock.setVisible(False)  # the GM hides the combat log
    window.close()
    reopened = MainWindow(Workspace(library=Library(tmp_path / "library.sqlite3")))
    qtbot.addWidget(reopened)
    assert reopened.workspace.settings.window_state
    assert not reopened.log_dock.isVisibleTo(reopened)
    assert reopened.details_dock.isVisibleTo(reopened)


def test_selftest_prints_ok(capsys: pytest.CaptureFixture[str]) -> None:
    from ui.selftest import selftest

    assert selftest() == 0
    assert capsys.readouterr().out.strip() == "ok"


def test_a_lazy_dock_the_layout_shows_is_built_for_the_first_paint(qtbot: QtBot, tmp_path: Path) -> None:
    """The GM left the undo history open: the next start shows its list in the first paint, not a placeholder.
    The chart, a tab behind the log, and the closed odds still wait."""
    workspace = Workspace(library=Library(tmp_path / "library.sqlite3"))
    window = MainWindow(workspace)
    qtbot.addWidget(window)
    assert window._undo_content.content is None and window._chart_content.content is None
    window.undo_dock.toggleViewAction().trigger()
    window.close()
    reopened = MainWindow(Workspace(library=Library(tmp_path / "library.sqlite3")))
    qtbot.addWidget(reopened)
    assert reopened.undo_dock.isVisibleTo(reopened)
    assert reopened._undo_content.content is not None
    assert reopened._chart_content.content is None and reopened._odds_content.content is None


# --- crashes at start-up (issue 19) ---------------------------------------------------------------


class Questions:
    """The start-up's questions, answered as the GM would; every message box recorded."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, answer: QMessageBox.StandardButton) -> None:
        self.asked: list[str] = []
        self.told: list[tuple[str, str]] = []
        self._answer = answer
        monkeypatch.setattr(QMessageBox, "question", self._question)
        for name in ("warning", "information", "critical"):
            monkeypatch.setattr(QMessageBox, name, self._tell)

    def _question(self, _parent: Any, _title: str, text: str, *_args: Any) -> QMessageBox.StandardButton:
        self.asked.append(text)
        return self._answer

    def _tell(self, _parent: Any, title: str, text: str, *_args: Any) -> QMessageBox.StandardButton:
        self.told.append((title, text))
        return QMessageBox.StandardButton.Ok


def _start(tmp_path: Path) -> MainWindow:
    """Start as the GM does (no file named on the command line)."""
    workspace = Workspace(roller=Roller.seeded(3), library=Library(tmp_path / "library.sqlite3"))
    return entry.start_window(workspace, None).window


def _killed(window: MainWindow) -> None:
    """SIGKILL: nothing is closed or saved; the process, and every lock it held, is gone."""
    journal = window.workspace.journal
    journal._close_file()
    journal._lock.release()
    window.workspace._release()
    window.retire()  # closes without the questions and without deleting the journal
    window.deleteLater()


def test_a_first_start_killed_untouched_asks_nothing_next_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              qapp: QApplication) -> None:
    questions = Questions(monkeypatch, QMessageBox.StandardButton.Yes)
    first = _start(tmp_path)
    assert first.welcome is not None and first.pages.currentWidget() is first.welcome  # the sample behind it
    _killed(first)
    second = _start(tmp_path)
    assert questions.asked == [] and questions.told == []
    second.close()


def test_a_fight_restored_and_killed_at_once_is_offered_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             qapp: QApplication) -> None:
    """Issue 19, as found: open a saved fight, Space ×3, kill -9; restart, Yes, nothing, kill -9; restart."""
    questions = Questions(monkeypatch, QMessageBox.StandardButton.Yes)
    path = tmp_path / "fight.bojovka"
    history, ids = eight_characters()
    roll_ones(history, ids)
    save_encounter(history, path)
    window = _start(tmp_path)
    window.files.open_file(path)
    for _space in range(3):
        window.actions_by_name["next_turn"].trigger()
    played = fight_data(window.document.history)
    _killed(window)
    for start in range(2):
        window = _start(tmp_path)
        assert len(questions.asked) == start + 1 and "3 unsaved actions" in questions.asked[0]
        assert fight_data(window.document.history) == played and window.document.path == path
        assert window.isWindowModified()
        _killed(window)
    assert questions.told == []


def test_a_journal_damaged_past_its_header_is_told_and_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            qapp: QApplication) -> None:
    questions = Questions(monkeypatch, QMessageBox.StandardButton.Yes)
    window = _start(tmp_path)
    window.show_fight()
    window.actions_by_name["next_turn"].trigger()
    journal = window.workspace.journal.path
    _killed(window)
    with journal.open("ab") as stream:
        stream.write(b'{"op":{"op":"no_such_thing"}}\n{"undo":1}\n')
    window = _start(tmp_path)
    assert len(questions.asked) == 1
    assert [title for title, _text in questions.told] == ["Cannot restore the fight"]
    assert "damaged at line 3" in questions.told[0][1]
    assert journal.exists()  # kept: offered again, and the GM may still want it looked at
    window.close()


def test_redo_survives_a_restore(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, qapp: QApplication) -> None:
    """Issue 19: after a restore Edit → Redo was greyed (the window's undo stack was rebuilt from the entries in
    effect only); it brings back what was undone before the crash, also after a second crash."""
    Questions(monkeypatch, QMessageBox.StandardButton.Yes)
    window = _start(tmp_path)
    window.show_fight()
    for _space in range(3):
        window.actions_by_name["next_turn"].trigger()
    window.actions_by_name["undo"].trigger()
    window.actions_by_name["undo"].trigger()
    undone = fight_data(window.document.history)
    window.actions_by_name["redo"].trigger()
    redone = fight_data(window.document.history)
    window.actions_by_name["undo"].trigger()
    _killed(window)
    for _start_again in range(2):
        window = _start(tmp_path)
        assert fight_data(window.document.history) == undone
        assert window.actions_by_name["redo"].isEnabled()
        _killed(window)
    window = _start(tmp_path)
    window.actions_by_name["redo"].trigger()
    assert fight_data(window.document.history) == redone
    window.actions_by_name["redo"].trigger()
    assert not window.actions_by_name["redo"].isEnabled()
    window.document.undo_stack.setClean()  # closes without asking to save
    window.close()
