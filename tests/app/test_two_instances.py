"""Two Bojovkas of the same user at once: a second one opening the same encounter is warned, never offered
the first one's live journal, and takes both over once the first has died (a stale lock is noticed).

(Two processes writing the roster at once: tests/app/test_library.py, 400 concurrent writes, WAL.)
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from app.library import Library
from app.storage import StorageError, save_encounter
from app.workspace import Workspace
from rules.documents import fight_data
from tests.rules.sr3_scenes import eight_characters, roll_ones

ROOT = Path(__file__).resolve().parents[2]

#: The first Bojovka: opens the encounter, makes a change it does not save, says so, then waits.
FIRST = """
import sys
from pathlib import Path
from app.library import Library
from app.workspace import Workspace
workspace = Workspace(library=Library(Path(sys.argv[2])))
workspace.open(Path(sys.argv[1]))
workspace.session.next_turn()
print("ready", flush=True)
sys.stdin.read()
"""


@pytest.fixture
def fight_file(tmp_path: Path) -> Path:
    history, ids = eight_characters()
    roll_ones(history, ids)
    path = tmp_path / "fight.bojovka"
    save_encounter(history, path)
    return path


def start_first(path: Path, home: Path, library: Path) -> subprocess.Popen[str]:
    env = dict(os.environ, BOJOVKA_HOME=str(home), QT_QPA_PLATFORM="offscreen")
    process = subprocess.Popen([sys.executable, "-c", FIRST, str(path), str(library)], cwd=ROOT, env=env,
                               text=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert process.stdout is not None and process.stdout.readline().strip() == "ready"
    return process


def test_a_second_bojovka_is_warned_until_the_first_dies(fight_file: Path, bojovka_home: Path,
                                                         tmp_path: Path) -> None:
    first = start_first(fight_file, bojovka_home, tmp_path / "library.sqlite3")
    second = Workspace(library=Library(tmp_path / "library.sqlite3"))
    try:
        with pytest.raises(StorageError) as refused:
            second.open(fight_file)
        message = str(refused.value)
        assert "open in another Bojovka window" in message and f"process {first.pid}" in message
        assert second.document.path is None  # the second one's own fight is untouched
        assert second.recoverable() == []  # the first one's journal is alive: not offered
    finally:
        first.send_signal(signal.SIGKILL)  # the first Bojovka dies without closing anything
        first.wait()
    offered = second.recoverable()  # its journal is left behind, its lock went with it
    assert len(offered) == 1 and offered[0].file == fight_file.absolute() and offered[0].operations == 1
    second.recover(offered[0])
    assert second.document.modified and len(second.document.history.entries) == 10
    second.open(fight_file)  # the stale lock does not stand in the way
    assert second.document.path == fight_file
    second.close(keep_journal=False)


def test_the_window_of_the_second_bojovka_says_who_has_the_file(fight_file: Path, bojovka_home: Path,
                                                               tmp_path: Path, qtbot: Any,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from PySide6.QtWidgets import QMessageBox

    from ui.main_window import MainWindow

    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda _parent, _title, text, *_rest: shown.append(text))
    first = start_first(fight_file, bojovka_home, tmp_path / "library.sqlite3")
    window = MainWindow(Workspace(library=Library(tmp_path / "library.sqlite3")))
    try:
        before = fight_data(window.document.history)
        window.files.open_file(fight_file)
        assert len(shown) == 1 and f"process {first.pid}" in shown[0] and "Close it there first" in shown[0]
        assert fight_data(window.document.history) == before
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait()
    window.files.open_file(fight_file)
    assert window.document.path == fight_file and len(shown) == 1
    window.close()
