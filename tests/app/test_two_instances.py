"""Two Bojovkas of the same user at once: a second one opening the same encounter is warned (whatever the name
it opens it by and whatever its data folder), never offered the first one's live journal, and takes both over once
the first has died (a stale lock is noticed). Where no lock reaches, saving over a file someone else wrote since
it was opened is stopped.

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

from app import locks
from app.disk_changes import FileChangedOnDisk
from app.library import Library
from app.paths import HOME_VARIABLE
from app.storage import StorageError, load_encounter, save_encounter
from app.workspace import Workspace
from rules.combatants import ApplyHarm
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


# --- the same file by another way (issue 19) ------------------------------------------------------


def _workspace(tmp_path: Path) -> Workspace:
    return Workspace(library=Library(tmp_path / "library.sqlite3"))


def test_a_bojovka_with_another_data_folder_is_warned_too(fight_file: Path, tmp_path: Path) -> None:
    """The lock file lives in the data folder: a Bojovka started with another BOJOVKA_HOME never met it, and the
    two saved over each other's actions. The encounter file's own lock is met whatever the data folder."""
    first = start_first(fight_file, tmp_path / "another-home", tmp_path / "library.sqlite3")
    second = _workspace(tmp_path)
    try:
        with pytest.raises(StorageError, match="open in another Bojovka window") as refused:
            second.open(fight_file)
        assert "another data folder" in str(refused.value)
        assert second.document.path is None
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait()
    second.open(fight_file)  # the lock went with the process
    assert second.document.path == fight_file
    second.close(keep_journal=False)


@pytest.mark.parametrize("make_name", [os.link, os.symlink], ids=["hard link", "symbolic link"])
def test_the_same_file_under_another_name_is_warned(fight_file: Path, tmp_path: Path, make_name: Any) -> None:
    other = tmp_path / "another-name.bojovka"
    make_name(fight_file, other)
    first, second = _workspace(tmp_path), _workspace(tmp_path)
    first.open(fight_file)
    with pytest.raises(StorageError, match="open in another Bojovka window"):
        second.open(other)
    assert second.document.path is None
    first.open_sample("sr3")  # the first window turns to another fight: the file is free
    second.open(other)
    with pytest.raises(StorageError, match="open in another Bojovka window"):
        first.open(fight_file)
    first.close(keep_journal=False)
    second.close(keep_journal=False)


def test_saving_as_a_file_open_in_another_window_is_refused(fight_file: Path, tmp_path: Path) -> None:
    first, second = _workspace(tmp_path), _workspace(tmp_path)
    first.open(fight_file)
    second.open_sample("walka")
    before = fight_file.read_bytes()
    with pytest.raises(StorageError, match="open in another Bojovka window"):
        second.save(fight_file)
    assert fight_file.read_bytes() == before and second.document.path is None
    second.save(tmp_path / "walka.bojovka")  # another name is fine
    first.close(keep_journal=False)
    second.close(keep_journal=False)


def test_opening_again_the_file_open_here_is_no_conflict(fight_file: Path, tmp_path: Path) -> None:
    """File → Open recent on the file this window has open said it was open in another window (this one)."""
    workspace = _workspace(tmp_path)
    workspace.open(fight_file)
    saved = fight_data(workspace.document.history)
    workspace.session.next_turn()
    workspace.open(fight_file)
    assert workspace.document.path == fight_file and fight_data(workspace.document.history) == saved
    other = _workspace(tmp_path)
    with pytest.raises(StorageError, match="open in another Bojovka window"):
        other.open(fight_file)  # and it is still locked
    workspace.close(keep_journal=False)


# --- a file changed on disk since it was opened -----------------------------------------------------


def _another_program_writes(path: Path, wounds: int = 4) -> None:
    """Another fight saved over ``path`` (a Bojovka no lock reached, a sync tool): a new file in its place."""
    history, ids = eight_characters()
    roll_ones(history, ids)
    history.do(ApplyHarm(ids["Dave"], "physical", wounds, "someone else's grenade"))
    save_encounter(history, path)


def test_a_file_changed_on_disk_is_not_overwritten_without_asking(fight_file: Path, tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    workspace.open(fight_file)
    workspace.session.next_turn()
    _another_program_writes(fight_file)
    theirs = fight_file.read_bytes()
    with pytest.raises(FileChangedOnDisk, match="changed on disk since you opened or last saved it"):
        workspace.save()
    assert fight_file.read_bytes() == theirs and workspace.document.modified
    copy = workspace.save(tmp_path / "fight (copy).bojovka")  # the copy keeps both
    assert fight_file.read_bytes() == theirs and workspace.document.path == copy
    assert fight_data(load_encounter(copy)) == fight_data(workspace.document.history)
    workspace.close(keep_journal=False)


def test_overwriting_a_file_changed_on_disk_is_the_gms_choice(fight_file: Path, tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    workspace.open(fight_file)
    workspace.session.next_turn()
    _another_program_writes(fight_file)
    workspace.save(overwrite=True)
    assert fight_data(load_encounter(fight_file)) == fight_data(workspace.document.history)
    workspace.session.next_turn()
    workspace.save()  # what is on disk is ours again: no question
    workspace.close(keep_journal=False)


def _touched(path: Path) -> None:
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 5 * 10**9))


def _rewritten_as_it_was(path: Path) -> None:
    copy = path.with_name("copy.tmp")
    copy.write_bytes(path.read_bytes())
    os.replace(copy, path)  # a sync tool putting the same bytes back: another file, same content


@pytest.mark.parametrize("behind_our_back", [_touched, _rewritten_as_it_was])
def test_a_file_written_back_as_it_was_is_saved_without_asking(fight_file: Path, tmp_path: Path,
                                                                behind_our_back: Any) -> None:
    workspace = _workspace(tmp_path)
    workspace.open(fight_file)
    workspace.session.next_turn()
    workspace.save()
    workspace.session.next_turn()
    behind_our_back(fight_file)
    workspace.save()
    assert fight_data(load_encounter(fight_file)) == fight_data(workspace.document.history)
    workspace.close(keep_journal=False)


def test_two_bojovkas_no_lock_reaches_do_not_save_over_each_other(fight_file: Path, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """A file system without locks (some network shares), two data folders: both open the file; the second to
    save is stopped instead of wiping out the first one's actions."""
    monkeypatch.setattr(locks, "_os_lock", lambda _fd, shared: None)
    monkeypatch.setenv(HOME_VARIABLE, str(tmp_path / "home-a"))
    first = _workspace(tmp_path)
    first.open(fight_file)
    monkeypatch.setenv(HOME_VARIABLE, str(tmp_path / "home-b"))
    second = _workspace(tmp_path)
    second.open(fight_file)  # nothing can tell them apart here
    first.session.next_turn()
    first.save()
    second.session.next_turn()
    with pytest.raises(FileChangedOnDisk):
        second.save()
    assert fight_data(load_encounter(fight_file)) == fight_data(first.document.history)
    first.close(keep_journal=False)
    second.close(keep_journal=False)


def test_the_window_saves_a_copy_of_a_fight_whose_file_changed_on_disk(fight_file: Path, tmp_path: Path,
                                                                       qtbot: Any,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from PySide6.QtWidgets import QFileDialog, QMessageBox

    from ui.main_window import MainWindow

    shown: list[str] = []
    answers = ["Overwrite", "Save as a copy"]

    def answer(box: QMessageBox) -> int:
        shown.append(box.text())
        chosen = answers.pop()
        next(button for button in box.buttons() if button.text().replace("&", "").startswith(chosen)).click()
        return 0

    suggested: list[str] = []

    def save_dialog(_parent: Any, _title: str, start: str, _filter: str) -> tuple[str, str]:
        suggested.append(start)
        return start, ""

    monkeypatch.setattr(QMessageBox, "exec", answer)
    monkeypatch.setattr(QFileDialog, "getSaveFileName", save_dialog)
    window = MainWindow(_workspace(tmp_path))
    qtbot.addWidget(window)
    window.files.open_file(fight_file)
    window.actions_by_name["next_turn"].trigger()
    _another_program_writes(fight_file)
    theirs = fight_file.read_bytes()
    window.files.on_save()  # the GM chooses the copy
    assert len(shown) == 1 and "changed on disk" in shown[0]
    copy = tmp_path / "fight (copy).bojovka"
    assert suggested == [str(copy)] and fight_file.read_bytes() == theirs
    assert window.document.path == copy and not window.document.modified
    assert fight_data(load_encounter(copy)) == fight_data(window.document.history)
    window.files.open_file(fight_file)
    window.actions_by_name["next_turn"].trigger()
    _another_program_writes(fight_file, wounds=2)
    window.files.on_save()  # the GM chooses to overwrite
    assert len(shown) == 2 and fight_data(load_encounter(fight_file)) == fight_data(window.document.history)
    assert window.statusBar().currentMessage() == "Saved fight.bojovka"
    window.close()


def test_a_fight_restored_while_its_file_is_open_elsewhere_is_restored_as_a_copy(fight_file: Path,
                                                                                  tmp_path: Path) -> None:
    crashed = _workspace(tmp_path)
    crashed.open(fight_file)
    crashed.session.next_turn()
    played = fight_data(crashed.document.history)
    crashed.journal._close_file()  # a crash: the journal stays, every lock goes with the process
    crashed.journal._lock.release()
    crashed._release()
    other = _workspace(tmp_path)
    other.open(fight_file)  # meanwhile another window opened the file
    restoring = _workspace(tmp_path)
    (candidate,) = restoring.recoverable()
    note = restoring.recover(candidate)
    assert note is not None and "restored as a copy" in note and "fight.bojovka" in note
    assert restoring.document.path is None and fight_data(restoring.document.history) == played
    with pytest.raises(StorageError, match="Choose a file name first"):
        restoring.save()  # never over the file the other window has open
    other.close(keep_journal=False)
    restoring.close(keep_journal=False)
