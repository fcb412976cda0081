"""Every UI test runs with its own BOJOVKA_HOME, so nothing touches the developer's real data."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from app.library import Library
from app.workspace import Workspace
from rules.dice import Roller
from ui.main_window import MainWindow


@pytest.fixture(autouse=True)
def isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point every user directory at a fresh temporary folder."""
    home = tmp_path / "bojovka-home"
    monkeypatch.setenv("BOJOVKA_HOME", str(home))
    return home


@pytest.fixture(autouse=True)
def released_modifiers(qapp: QApplication) -> Iterator[None]:
    """After each test, no modifier key counts as held: QTest's Ctrl+ key clicks and Ctrl+clicks leave Qt's
    keyboard state at Ctrl, and the next test's selectRow() then toggled rows instead of selecting them."""
    yield
    probe = QWidget()
    QTest.keyClick(probe, Qt.Key.Key_F35)  # any key event without modifiers resets the state
    probe.deleteLater()


@pytest.fixture(scope="session")
def seeded_library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A roster and bestiary database with the bundled bestiaries seeded, made once per test session.

    Seeding validates every bundled entry and its weapons (about a quarter of a second); each window's test
    starts from a copy instead. Seeding itself is tested in tests/app/test_library*.py.
    """
    path = tmp_path_factory.mktemp("seeded-library") / "library.sqlite3"
    Library(path).close()  # closing the last connection checkpoints the WAL into the file: it copies whole
    return path


@dataclass
class WindowFactory:
    """Opens main windows over fresh workspaces and closes every one of them after the test."""

    library_path: Path
    seeded: Path | None = None
    opened: list[MainWindow] = field(default_factory=list)

    def _library(self) -> Library:
        """The test's own library, starting as a copy of the session's seeded one."""
        if self.seeded is not None and not self.library_path.exists():
            shutil.copyfile(self.seeded, self.library_path)
        return Library(self.library_path)

    def __call__(self, system_id: str | None = None, name: str = "", seed: int = 11,
                 sample: str | None = None) -> MainWindow:
        """A window on a new encounter of ``system_id`` (or on the shipped ``sample`` of a game)."""
        workspace = Workspace(roller=Roller.seeded(seed), library=self._library())
        window = MainWindow(workspace)  # closed here, not by qtbot: qtbot would close it before the teardown
        if sample is not None:
            workspace.open_sample(sample)
        elif system_id is not None:
            workspace.new(system_id, name)
        window.show_fight()
        self.opened.append(window)
        return window

    def close_all(self) -> None:
        for window in self.opened:
            window.document.undo_stack.setClean()  # closing must not stop at "Save the changes first?"
            window.close()
            window.deleteLater()
            QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)  # gone now, not in a GC pass at exit
            window.workspace.close(keep_journal=False)


@pytest.fixture
def open_window(qtbot: QtBot, tmp_path: Path, seeded_library: Path) -> Iterator[WindowFactory]:
    """The one way tests open the main window: ``open_window("walka", "Night Market")``."""
    factory = WindowFactory(tmp_path / "library.sqlite3", seeded_library)
    yield factory
    factory.close_all()
