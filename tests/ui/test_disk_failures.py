"""A full disk and a read-only directory while saving and while journaling, seen from the window.

Each time: a clear message for the GM, the previous file (and its .bak) intact, the fight still in memory
and, as far as the disk allowed, in the journal (a crash now would still recover it). The disk is really
full or really read-only where the test may mount a small tmpfs (root on Linux); elsewhere the same
scenarios run with a failing writer (os functions that fail as the kernel would).
"""

from __future__ import annotations

import contextlib
import errno
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QApplication, QMessageBox
from pytestqt.qtbot import QtBot

from app.library import Library
from app.recovery import find_recoverable, recover
from app.storage import load_encounter
from app.workspace import Workspace
from rules.dice import Roller
from rules.documents import fight_data
from rules.serialize import to_data
from ui.main_window import MainWindow

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")


class Messages:
    """Every message box the window shows, answered without a human (the first button for questions)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.shown: list[tuple[str, str]] = []
        for name in ("warning", "critical", "information"):
            monkeypatch.setattr(QMessageBox, name, self._record(name))

    def _record(self, kind: str) -> Callable[..., Any]:
        def show(_parent: Any, title: str, text: str, *_args: Any) -> QMessageBox.StandardButton:
            self.shown.append((title, text))
            return QMessageBox.StandardButton.Ok

        return show

    def last(self) -> str:
        assert self.shown, "no message was shown"
        return self.shown[-1][1]


@pytest.fixture
def messages(monkeypatch: pytest.MonkeyPatch) -> Messages:
    return Messages(monkeypatch)


def make_window(qtbot: QtBot, tmp_path: Path) -> MainWindow:
    workspace = Workspace(roller=Roller.seeded(5), library=Library(tmp_path / "library.sqlite3"))
    window = MainWindow(workspace)
    workspace.open_sample("sr3")
    window.show_fight()
    window.show()
    return window


def close(window: MainWindow) -> None:
    window.document.undo_stack.setClean()
    window.close()
    window.deleteLater()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def files_of(directory: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(directory.iterdir()) if path.is_file()}


def crash_and_recover(window: MainWindow) -> Any:
    """What a crash now would leave: the journal, recovered by the next start."""
    journal = window.workspace.journal
    journal._close_file()
    journal._lock.release()
    candidates = [candidate for candidate in find_recoverable() if candidate.journal == journal.path]
    assert len(candidates) == 1
    return recover(candidates[0])


def act(window: MainWindow) -> None:
    """The GM presses Next (or rolls first when the round is over: the Roll dialog's OK, refused on the status
    line as the window refuses any action, so a full disk may refuse the roll as well as a Next)."""
    def roll() -> None:
        window.session.roll_initiative()

    if window.session.current_actor() is None:
        window._guarded(roll)
    else:
        window.actions_by_name["next_turn"].trigger()


# --- a failing writer (any platform) ------------------------------------------------------------


def failing(name: str, code: int) -> Callable[..., Any]:
    real = getattr(os, name)

    def fail(*args: Any, **kwargs: Any) -> Any:
        if name == "open" and not args[1] & (os.O_WRONLY | os.O_RDWR):
            return real(*args, **kwargs)  # reading still works
        raise OSError(code, os.strerror(code))

    return fail


@pytest.mark.parametrize(("name", "code", "reason"), [
    ("write", errno.ENOSPC, "the disk is full"), ("fsync", errno.ENOSPC, "the disk is full"),
    ("open", errno.EROFS, "the disk is read-only"), ("replace", errno.EACCES, "permission denied"),
])
def test_a_save_that_fails_leaves_everything_as_it_was(qtbot: QtBot, tmp_path: Path, messages: Messages,
                                                        monkeypatch: pytest.MonkeyPatch, name: str, code: int,
                                                        reason: str) -> None:
    window = make_window(qtbot, tmp_path)
    folder = tmp_path / "fights"
    folder.mkdir()
    path = window.workspace.save(folder / "fight.bojovka")
    act(window)
    window.workspace.save(path)  # a .bak now exists too
    act(window)
    before, state, fight = files_of(folder), to_data(window.document.state), fight_data(window.document.history)
    with monkeypatch.context() as patch:
        patch.setattr(os, name, failing(name, code))
        window.files.on_save()
    assert reason in messages.last() and "unchanged" in messages.last()
    assert files_of(folder) == before  # the file, its .bak, no temp file
    assert window.document.modified and window.isWindowModified()
    assert to_data(window.document.state) == state
    act(window)  # the fight goes on, journaled as before
    window.workspace.save(path)  # and saves once the disk is back
    assert fight_data(load_encounter(path)) == fight_data(window.document.history) != fight
    close(window)


def test_an_action_the_journal_cannot_record_is_refused_and_the_fight_kept(qtbot: QtBot, tmp_path: Path,
                                                                         messages: Messages,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    window = make_window(qtbot, tmp_path)
    act(window)
    state, entries = to_data(window.document.state), len(window.document.history.entries)
    with monkeypatch.context() as patch:
        patch.setattr(os, "fsync", failing("fsync", errno.ENOSPC))
        act(window)
    assert "could not be written" in window.statusBar().currentMessage()
    assert "the disk is full" in window.statusBar().currentMessage()
    assert to_data(window.document.state) == state and len(window.document.history.entries) == entries
    act(window)  # the disk has room again: the journal takes records again
    assert len(window.document.history.entries) == entries + 1
    recovered = crash_and_recover(window)
    assert fight_data(recovered) == fight_data(window.document.history)
    close(window)


def test_an_undo_the_journal_cannot_record_warns_and_stays_undone(qtbot: QtBot, tmp_path: Path, messages: Messages,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    window = make_window(qtbot, tmp_path)
    act(window)
    act(window)
    with monkeypatch.context() as patch:
        patch.setattr(os, "fsync", failing("fsync", errno.ENOSPC))
        window.actions_by_name["undo"].trigger()  # the undo happens: the GM is told the journal missed it
    assert any(title == "Autosave failed" and "the disk is full" in text for title, text in messages.shown)
    undone = to_data(window.document.state)
    window.actions_by_name["redo"].trigger()
    window.actions_by_name["undo"].trigger()
    assert to_data(window.document.state) == undone
    # The journal missed that undo, so it started over from the fight as it was: a crash now recovers it.
    assert fight_data(crash_and_recover(window)) == fight_data(window.document.history)
    close(window)


def failing_under(folder: Path, code: int) -> Callable[..., Any]:
    """os.open failing as a full (``code``) disk would, for files written in ``folder`` only: another disk."""
    real = os.open

    def fail(path: Any, flags: int, *args: Any, **kwargs: Any) -> Any:
        if flags & (os.O_WRONLY | os.O_RDWR) and Path(path).is_relative_to(folder):
            raise OSError(code, os.strerror(code))
        return real(path, flags, *args, **kwargs)

    return fail


def test_a_full_data_disk_at_start_is_told_not_a_traceback(qtbot: QtBot, tmp_path: Path, messages: Messages,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 19: with the disk of the data folder full, start-up showed a traceback which said every action was
    journaled. Now the window starts, says once that the journal is not written, and journals as soon as it can."""
    from app import main as entry

    with monkeypatch.context() as patch:
        patch.setattr(os, "fsync", failing("fsync", errno.ENOSPC))
        workspace = Workspace(roller=Roller.seeded(5), library=Library(tmp_path / "library.sqlite3"))
        shell = entry.start_window(workspace, None)  # the welcome page over the sample, on a first run
        window = shell.window
        assert workspace.document.journal_problem is not None
        told = entry._unexpected_problem(ValueError("boom"), Path("bojovka.log"), journaled=False)
    assert [title for title, _text in messages.shown] == ["Autosave failed"]
    assert "the disk is full" in messages.last()
    assert "journaled" not in told and "not being written" in told
    window.show_fight()
    act(window)  # the disk has room again: the journal starts over before the first action
    assert workspace.document.journal_problem is None
    assert fight_data(crash_and_recover(window)) == fight_data(window.document.history)
    close(window)


def test_a_full_journal_disk_does_not_make_a_save_fail(qtbot: QtBot, tmp_path: Path, isolated_home: Path,
                                                       messages: Messages, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 19: the file was saved, but a journal (and settings) disk that was full made the window say it was not.
    Now the save is reported as done, and apart from it the GM is told the journal is not being written."""
    window = make_window(qtbot, tmp_path)
    path = window.workspace.save(tmp_path / "fight.bojovka")
    act(window)
    with monkeypatch.context() as patch:
        patch.setattr(os, "open", failing_under(isolated_home, errno.ENOSPC))
        window.files.on_save()
    assert window.statusBar().currentMessage() == "Saved fight.bojovka"
    assert [title for title, _text in messages.shown] == ["Autosave failed"]
    assert "the disk is full" in messages.last()
    assert fight_data(load_encounter(path)) == fight_data(window.document.history)
    assert not window.document.modified and not window.isWindowModified()
    act(window)  # room again: the journal starts over before the next action, so a crash now loses nothing
    assert window.document.journal_problem is None
    assert fight_data(crash_and_recover(window)) == fight_data(window.document.history)
    close(window)


# --- a real small disk (root on Linux) ----------------------------------------------------------


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 2 MB tmpfs, or a skip where this process may not mount one."""
    mount_point = tmp_path / "small-disk"
    mount_point.mkdir()
    if not sys.platform.startswith("linux") or os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root on Linux (the failing-writer tests cover the rest)")
    result = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mount_point)],
                            capture_output=True, check=False)
    if result.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {result.stderr.decode(errors='replace').strip()}")
    try:
        yield mount_point
    finally:
        subprocess.run(["umount", "-l", str(mount_point)], check=False)


def fill(directory: Path, leave: int = 0) -> Path:
    """Fill the disk holding ``directory`` (all but ``leave`` bytes, roughly)."""
    filler = directory / "filler"
    with filler.open("wb") as stream, contextlib.suppress(OSError):
        while True:
            free = os.statvfs(directory).f_bavail * os.statvfs(directory).f_frsize
            if free <= leave:
                break
            stream.write(b"\0" * min(65536, max(4096, free - leave)))
            stream.flush()
    return filler


def test_a_really_full_disk(qtbot: QtBot, small_disk: Path, tmp_path: Path, messages: Messages,
                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOJOVKA_HOME", str(small_disk / "home"))  # the journal lives on the small disk too
    window = make_window(qtbot, tmp_path)
    path = window.workspace.save(small_disk / "fight.bojovka")
    for _step in range(3):
        act(window)
    window.workspace.save(path)
    act(window)
    before, state = files_of(small_disk), to_data(window.document.state)
    filler = fill(small_disk)
    window.files.on_save()
    assert "the disk is full" in messages.last() and "unchanged" in messages.last()
    assert files_of(small_disk).keys() == before.keys() | {"filler"}
    assert all(files_of(small_disk)[name] == data for name, data in before.items())
    # The journal's last block still has room for a few records; then it cannot grow either, and the action
    # that does not fit is refused: the fight stays as it was before it.
    for _action in range(500):
        state, entries = to_data(window.document.state), len(window.document.history.entries)
        act(window)
        if len(window.document.history.entries) == entries:
            break
    assert "the disk is full" in window.statusBar().currentMessage()
    assert to_data(window.document.state) == state and len(window.document.history.entries) == entries
    filler.unlink()  # the GM frees some space
    act(window)
    window.files.on_save()
    assert fight_data(load_encounter(path)) == fight_data(window.document.history)
    assert fight_data(crash_and_recover(window)) == fight_data(window.document.history)
    close(window)


def test_a_really_read_only_folder(qtbot: QtBot, small_disk: Path, tmp_path: Path, messages: Messages) -> None:
    window = make_window(qtbot, tmp_path)
    path = window.workspace.save(small_disk / "fight.bojovka")
    act(window)
    window.workspace.save(path)
    act(window)
    before = files_of(small_disk)
    subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)
    try:
        window.files.on_save()
    finally:
        subprocess.run(["mount", "-o", "remount,rw", str(small_disk)], check=True)
    assert "the disk is read-only" in messages.last() and "unchanged" in messages.last()
    assert files_of(small_disk) == before
    assert fight_data(crash_and_recover(window)) == fight_data(window.document.history)  # journaled elsewhere
    close(window)
