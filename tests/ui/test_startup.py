"""Start-up pieces: the exception hook logs instead of showing a traceback; the layout is remembered."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from app import main as entry
from app.library import Library
from app.paths import log_dir
from app.workspace import Workspace
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
