"""The journal, crash recovery (with real SIGKILLs), and the lock that warns a second Bojovka."""

from __future__ import annotations

import errno
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from app import locks, recovery
from app.document import EncounterDocument
from app.library import Library
from app.locks import EncounterLock, FileLock, LockOwner
from app.paths import journals_dir
from app.recovery import (
    JOURNAL_VERSION,
    Journal,
    RecoveryCandidate,
    _redo_operations,
    discard,
    find_recoverable,
    recover,
)
from app.storage import SealedDocument, StorageError, is_sealed, load_encounter, open_encounter, save_encounter, seal
from app.workspace import Workspace
from rules.combatants import ApplyHarm, EditCombatant
from rules.documents import fight_data
from rules.history import History, Operation
from rules.serialize import history_to_document, to_data
from rules.turns import NextTurn
from tests.app.crash_worker import Step, build_script, expected_operations
from tests.rules.sr3_scenes import eight_characters, roll_ones
from tests.rules.test_souboj_scene import fight as souboj_fight
from tests.rules.test_souboj_scene import roll as souboj_roll
from tests.rules.test_walka_scenes import roll as walka_roll
from tests.rules.test_walka_scenes import table as walka_table
from ui.models.initiative_model import ordered_ids

ROOT = Path(__file__).resolve().parents[2]


def started_fight() -> tuple[History, dict[str, str]]:
    history, ids = eight_characters()
    roll_ones(history, ids)
    return history, ids


def open_document(path: Path | None = None) -> tuple[EncounterDocument, Journal, dict[str, str]]:
    history, ids = started_fight()
    journal = Journal.start(history, path)
    return EncounterDocument(history, path, journal), journal, ids


def abandon(journal: Journal) -> None:
    """What a crash does to a journal: the file stays, the process (and so its lock) is gone."""
    journal._close_file()
    journal._lock.release()


def only_candidate() -> RecoveryCandidate:
    candidates = find_recoverable()
    assert len(candidates) == 1, candidates
    return candidates[0]


def same(a: History, b: History) -> bool:
    return (fight_data(a) == fight_data(b)
            and [to_data(op) for op in _redo_operations(a)] == [to_data(op) for op in _redo_operations(b)])


# --- the journal --------------------------------------------------------------------------------


def test_every_change_is_on_disk_when_apply_returns() -> None:
    document, journal, ids = open_document()
    document.apply(NextTurn())
    lines = journal.path.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    assert header["format"] == "bojovka-journal" and header["version"] == JOURNAL_VERSION
    assert header["file"] is None and header["document"]["operations"]
    assert json.loads(lines[1]) == {"op": {"op": "next_turn"}}
    document.undo_stack.undo()
    document.undo_stack.redo()
    document.apply(ApplyHarm(ids["Dave"], "stun", 2, "club"))
    records = [json.loads(line) for line in journal.path.read_text(encoding="utf-8").splitlines()[1:]]
    assert records[1:3] == [{"undo": 1}, {"redo": 1}]
    assert records[3]["op"]["op"] == "apply_harm"


def test_a_running_journal_is_not_offered() -> None:
    document, journal, _ids = open_document()
    document.apply(NextTurn())
    assert find_recoverable() == []  # this very process owns it
    journal.close()


def test_recover_after_a_crash_gives_the_same_fight() -> None:
    document, journal, ids = open_document()
    for operation in (NextTurn(), ApplyHarm(ids["Mike"], "physical", 3, "shotgun"), NextTurn(), NextTurn()):
        document.apply(operation)
    document.undo_stack.undo()
    document.undo_stack.undo()
    document.undo_stack.redo()
    abandon(journal)
    candidate = only_candidate()
    assert candidate.file is None and candidate.name == "Seed example" and candidate.operations == 7
    assert candidate.newer_than_file and candidate.worth_offering and candidate.problem is None
    recovered = recover(candidate)
    assert same(recovered, document.history)
    assert recovered.redo() is not None and document.history.redo() is not None
    assert same(recovered, document.history)


# --- the order shown after a recovery -------------------------------------------------------------------


def _walka_two_seats_played() -> tuple[History, dict[str, str], list[str]]:
    """Walka: Ania's seat (Kira and her drone, d12 1) and Bartek's (Wedge, 5) have acted; Celina's is next."""
    history, ids = walka_table()
    walka_roll(history, Ania=1, Bartek=5, Celina=7, GM=9)
    return history, ids, ["Kira", "Drone", "Wedge", "Nova", "Ganger 1", "Ganger 2"]


def _souboj_group_played() -> tuple[History, dict[str, str], list[str]]:
    """Souboj: four act together at 4 (in roster order: nothing declared); the Chief, at 2, is next."""
    history, ids = souboj_fight()
    souboj_roll(history, ids, Aleš=4, Bora=4, Cyril=4, Bandit=4, Chief=2)
    return history, ids, ["Aleš", "Bora", "Cyril", "Bandit", "Chief"]


@pytest.mark.parametrize("scene", [_walka_two_seats_played, _souboj_group_played])
def test_a_recovered_fight_shows_who_has_acted_in_the_order_they_acted(scene: Any) -> None:
    history, ids, expected = scene()
    journal = Journal.start(history, None)
    document = EncounterDocument(history, None, journal)
    while len(document.state.clock.acted) < (3 if document.system.id == "walka" else 4):
        document.apply(NextTurn())
    names = {cid: name for name, cid in ids.items()}
    live = [names[cid] for cid in ordered_ids(document.state, document.system)]
    abandon(journal)  # the crash: the document is dropped without closing
    recovered = recover(only_candidate())
    assert [names[cid] for cid in ordered_ids(recovered.state, recovered.system)] == live == expected
    # What a new process does: the same set of ids, iterated in another order.
    state = recovered.state
    shuffled = state.with_clock(acted=ReversedSet(state.clock.acted))
    assert [names[cid] for cid in ordered_ids(shuffled, recovered.system)] == expected


class ReversedSet(frozenset[str]):
    """A set of ids whose iteration order is the reverse of a plain frozenset's (as another hash seed may give)."""

    def __iter__(self) -> Iterator[str]:
        return reversed(list(super().__iter__()))


def test_redo_after_a_save_is_recovered(tmp_path: Path) -> None:
    """After a save the GM may still press Redo: the header must carry what can be redone."""
    path = tmp_path / "fight.bojovka"
    document, journal, ids = open_document()
    document.apply(ApplyHarm(ids["Dave"], "stun", 2, "club"))
    document.apply(NextTurn())
    document.undo_stack.undo()
    save_encounter(document.history, path)
    document.mark_saved(path)
    document.undo_stack.redo()
    abandon(journal)
    candidate = only_candidate()
    assert candidate.file == path.absolute() and candidate.operations == 1 and candidate.newer_than_file
    recovered = recover(candidate)
    assert to_data(recovered.state) == to_data(document.state)
    assert [e.operation for e in recovered.entries] == [e.operation for e in document.history.entries]


def test_saved_journal_without_changes_is_not_newer(tmp_path: Path) -> None:
    path = tmp_path / "fight.bojovka"
    document, journal, _ids = open_document()
    document.apply(NextTurn())
    save_encounter(document.history, path)
    document.mark_saved(path)
    abandon(journal)
    candidate = only_candidate()
    assert candidate.operations == 0 and not candidate.newer_than_file and not candidate.worth_offering
    path.unlink()  # the file is gone: the journal is all that is left
    assert only_candidate().newer_than_file


def _untouched_sample(workspace: Workspace) -> None:
    workspace.open_sample("sr3")  # what a first start shows behind the welcome page


def _untouched_new_fight(workspace: Workspace) -> None:
    workspace.start_new("walka")


def _placeholder(_workspace: Workspace) -> None:
    """Killed before anything opened: only the placeholder fight the workspace starts with."""


@pytest.mark.parametrize("start", [_untouched_sample, _untouched_new_fight, _placeholder])
def test_a_start_killed_before_any_change_offers_nothing(tmp_path: Path, start: Any) -> None:
    """Issue 19: a fresh start killed untouched offered to restore the sample "with unsaved changes"."""
    workspace = _workspace(tmp_path)
    start(workspace)
    abandon(workspace.journal)
    next_start = _workspace(tmp_path)
    assert next_start.recoverable() == []
    assert not workspace.journal.path.exists()  # nothing was in it: tidied away
    next_start.close(keep_journal=False)


def test_a_fight_never_saved_is_offered_after_its_first_change(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    workspace.open_sample("sr3")
    workspace.document.apply(NextTurn())
    abandon(workspace.journal)
    (candidate,) = _workspace(tmp_path).recoverable()
    assert candidate.file is None and candidate.operations == 1
    assert same(recover(candidate), workspace.document.history)


def test_close_deletes_the_journal_and_its_lock() -> None:
    document, journal, _ids = open_document()
    document.apply(NextTurn())
    journal.close()
    assert list(journals_dir().iterdir()) == []
    assert find_recoverable() == []


def test_record_before_start_is_a_programming_error() -> None:
    with pytest.raises(RuntimeError, match="restart"):
        Journal().record_undo()


def test_torn_last_line_is_ignored() -> None:
    document, journal, _ids = open_document()
    document.apply(NextTurn())
    expected = fight_data(document.history)
    abandon(journal)
    with journal.path.open("ab") as stream:
        stream.write(b'{"op":{"op":"next_tu')  # the process died in the middle of this write
    recovered = recover(only_candidate())
    assert fight_data(recovered) == expected


@pytest.mark.parametrize(("line", "problem"), [
    (b"this is not json", "line 3"),
    (b'{"op":{"op":"no_such_thing"}}', "unknown operation"),
    (b'{"redo":1}', "a redo with nothing to redo"),
    (b'{"comment":"hello"}', "unknown record"),
    (b"[1,2]", "expected an object"),
])
def test_damage_before_the_last_line_is_reported(line: bytes, problem: str) -> None:
    document, journal, _ids = open_document()
    document.apply(NextTurn())
    abandon(journal)
    with journal.path.open("ab") as stream:
        stream.write(line + b'\n{"undo":1}\n')
    with pytest.raises(StorageError) as error:
        recover(only_candidate())
    assert "recovery journal" in str(error.value) and "damaged at line 3" in str(error.value)
    assert problem in str(error.value)


@pytest.mark.parametrize(("content", "problem"), [
    (b"", "the journal is empty"),
    (b"garbage\n", "damaged at line 1"),
    (b'{"format":"something else"}\n', "not a Bojovka journal"),
    (b'{"format":"bojovka-journal","version":"one"}\n', "no valid version"),
    (b'{"format":"bojovka-journal","version":99}\n', "update Bojovka"),
])
def test_unreadable_header(content: bytes, problem: str) -> None:
    journal = journals_dir() / "0123456789abcdef.jsonl"
    journal.write_bytes(content)
    candidate = only_candidate()
    assert candidate.problem is not None and problem in candidate.problem
    assert not candidate.worth_offering
    with pytest.raises(StorageError, match=problem):
        recover(candidate)
    discard(candidate)
    assert not journal.exists()


def test_tampered_header_document() -> None:
    _document, journal, _ids = open_document()
    abandon(journal)
    lines = journal.path.read_bytes().split(b"\n")
    header = json.loads(lines[0])
    header["document"]["state"]["name"] = "Forged"
    journal.path.write_bytes(json.dumps(header).encode() + b"\n")
    with pytest.raises(StorageError, match="does not match"):
        recover(only_candidate())


def test_discard() -> None:
    document, journal, _ids = open_document()
    document.apply(NextTurn())
    abandon(journal)
    (journals_dir() / f".{journal.path.name}.abc123.tmp").write_text("half a header")
    discard(only_candidate())
    assert list(journals_dir().iterdir()) == []


def test_a_live_journal_cannot_be_discarded() -> None:
    document, journal, _ids = open_document()
    document.apply(NextTurn())
    candidate = RecoveryCandidate(journal.path, None, "x", 1, datetime.now().astimezone(), True)
    with pytest.raises(StorageError, match="in use"):
        discard(candidate)
    assert journal.path.exists()
    journal.close()


def test_leftover_temp_files_of_dead_journals_are_swept() -> None:
    leftover = journals_dir() / ".deadbeef.jsonl.0a1b2c.tmp"
    leftover.write_text("half a header")
    _document, journal, _ids = open_document()
    live = journals_dir() / f".{journal.path.name}.0a1b2c.tmp"
    live.write_text("being written")
    find_recoverable()
    assert not leftover.exists() and live.exists()
    journal.close()


def test_full_disk_while_journaling(monkeypatch: pytest.MonkeyPatch) -> None:
    document, journal, ids = open_document()
    document.apply(NextTurn())
    size = journal.path.stat().st_size

    def full(_fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    with monkeypatch.context() as patch, pytest.raises(StorageError, match="the disk is full"):
        patch.setattr(os, "fsync", full)
        journal.record_operation(ApplyHarm(ids["Dave"], "stun", 1, "club"))
    assert journal.path.stat().st_size == size  # the partial record was cut off again
    document.apply(NextTurn())  # the disk has room again: journaling goes on
    abandon(journal)
    assert same(recover(only_candidate()), document.history)


def _disk_full(*_args: object) -> None:
    raise OSError(errno.ENOSPC, "No space left on device")


def test_an_undo_the_journal_missed_is_caught_up_before_the_next_record(monkeypatch: pytest.MonkeyPatch) -> None:
    document, journal, ids = open_document()
    document.apply(ApplyHarm(ids["Dave"], "stun", 1, "club"))
    document.apply(NextTurn())
    failures: list[str] = []
    document.journal_failed.connect(failures.append)
    with monkeypatch.context() as patch:
        patch.setattr(os, "fsync", _disk_full)
        document.undo_stack.undo()  # it happens, the GM is warned, the journal is a step behind
    assert failures and "the disk is full" in failures[0]
    document.undo_stack.redo()  # the disk has room again: the journal starts over from the fight as it is
    document.undo_stack.undo()
    document.apply(ApplyHarm(ids["Dave"], "physical", 1, "club"))
    abandon(journal)
    assert same(recover(only_candidate()), document.history)


def test_a_redo_the_journal_missed_is_caught_up_and_still_offered(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "fight.bojovka"
    document, journal, ids = open_document()
    document.apply(ApplyHarm(ids["Dave"], "stun", 1, "club"))
    document.undo_stack.undo()
    save_encounter(document.history, path)
    document.mark_saved(path)
    with monkeypatch.context() as patch:
        patch.setattr(os, "fsync", _disk_full)
        document.undo_stack.redo()
    document.apply(NextTurn())  # catches the journal up first: a fresh header, then this operation
    document.undo_stack.undo()
    abandon(journal)
    candidate = only_candidate()
    assert candidate.worth_offering  # the header holds changes the file does not
    assert same(recover(candidate), document.history)


def test_a_recovered_fight_is_offered_again_after_another_crash(tmp_path: Path) -> None:
    path = tmp_path / "fight.bojovka"
    document, journal, _ids = open_document()
    save_encounter(document.history, path)
    document.mark_saved(path)
    document.apply(NextTurn())
    abandon(journal)
    recovered = recover(only_candidate())
    discard(only_candidate())
    second = Journal.start(History(recovered.initial), None)
    again = EncounterDocument(History(recovered.initial), None, second)
    again.replace_history(recovered, path, clean=False)  # what Workspace.recover does
    abandon(second)
    candidate = only_candidate()
    assert candidate.worth_offering and same(recover(candidate), document.history)


def test_a_journal_that_cannot_be_truncated_refuses_records(monkeypatch: pytest.MonkeyPatch) -> None:
    document, journal, _ids = open_document()

    def broken(*_args: object) -> None:
        raise OSError(errno.EIO, "Input/output error")

    with monkeypatch.context() as patch, pytest.raises(StorageError, match="input/output error"):
        patch.setattr(os, "fsync", broken)
        patch.setattr(os, "ftruncate", broken)
        journal.record_operation(NextTurn())
    with pytest.raises(StorageError, match="could not be written"):
        journal.record_undo()  # the torn record is still there: refuse until a fresh journal
    journal.restart(document.history, None)
    journal.record_operation(NextTurn())
    journal.close()


def test_restart_that_fails_keeps_the_old_journal(monkeypatch: pytest.MonkeyPatch) -> None:
    document, journal, _ids = open_document()
    document.apply(NextTurn())
    before = journal.path.read_bytes()

    def full(*_args: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    with monkeypatch.context() as patch, pytest.raises(StorageError, match="the disk is full"):
        patch.setattr(os, "replace", full)
        journal.restart(document.history, None)
    assert journal.path.read_bytes() == before
    with pytest.raises(StorageError):
        journal.record_undo()
    journal.close()


def test_journal_in_a_folder_that_is_gone(tmp_path: Path) -> None:
    history, _ids = started_fight()
    journal = Journal(tmp_path / "deleted")
    with pytest.raises(StorageError, match="does not exist"):
        journal.restart(history, None)
    with pytest.raises(StorageError, match="could not be written"):
        journal.record_operation(NextTurn())


# --- a header that copies the file's own bytes ----------------------------------------------------


def _saved_fight(tmp_path: Path) -> Path:
    history, _ids = started_fight()
    path = tmp_path / "fight.bojovka"
    save_encounter(history, path)
    return path


def _dave(history: History) -> str:
    return next(combatant.id for combatant in history.state.combatants.values() if combatant.name == "Dave")


def _workspace(tmp_path: Path) -> Workspace:
    return Workspace(library=Library(tmp_path / "library.sqlite3"))


def _header_line(journal: Journal) -> bytes:
    return journal.path.read_bytes().split(b"\n")[0]


def _no_encoding(_history: History) -> None:
    raise AssertionError("the journal encoded the whole fight again")


def test_opening_a_sealed_file_journals_its_own_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 14: opening a long fight spent more on json.dumps of it for the journal than on anything but reading
    it. The header now holds the file's very bytes, and recovery decodes them exactly as opening did."""
    path = _saved_fight(tmp_path)
    workspace = _workspace(tmp_path)
    with monkeypatch.context() as patch:
        patch.setattr(recovery, "history_to_document", _no_encoding)
        workspace.open(path)
        document = workspace.document
        document.apply(NextTurn())
        document.undo_stack.undo()  # pending entries of the file, replayed on undo: journaled as records
        document.undo_stack.undo()
        document.undo_stack.redo()
    header = _header_line(workspace.journal)
    assert path.read_bytes() in header and is_sealed(header)
    assert json.loads(header)["document"] == json.loads(path.read_bytes())
    abandon(workspace.journal)
    candidate = only_candidate()
    assert candidate.file == path.absolute() and candidate.operations == 4 and candidate.worth_offering
    recovered = recover(candidate)
    assert same(recovered, document.history) and recovered.state.name == "Seed example"
    workspace.close(keep_journal=True)


def test_a_sample_is_journaled_in_full(tmp_path: Path) -> None:
    """The shipped samples are readable JSON of many lines, not sealed: their fight is encoded for the header."""
    workspace = _workspace(tmp_path)
    workspace.open_sample("walka")
    assert b"Ambush at the Night Market" in _header_line(workspace.journal)
    workspace.document.apply(NextTurn())
    abandon(workspace.journal)
    assert same(recover(only_candidate()), workspace.document.history)


def test_saving_journals_the_bytes_it_wrote_and_keeps_what_can_be_redone(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    workspace = _workspace(tmp_path)
    workspace.open(_saved_fight(tmp_path))
    document = workspace.document
    document.apply(ApplyHarm(_dave(document.history), "stun", 2, "club"))
    document.apply(NextTurn())
    document.undo_stack.undo()
    with monkeypatch.context() as patch:
        patch.setattr(recovery, "history_to_document", _no_encoding)
        saved = workspace.save(tmp_path / "saved.bojovka")
    assert saved.read_bytes() in _header_line(workspace.journal)
    document.undo_stack.redo()  # the header's redo list is the history's, not the file's
    abandon(workspace.journal)
    candidate = only_candidate()
    assert candidate.file == saved.absolute() and candidate.operations == 1 and candidate.worth_offering
    assert same(recover(candidate), document.history)
    workspace.close(keep_journal=True)


def _replace_with_another_fight(path: Path) -> None:
    other, ids = started_fight()
    other.do(ApplyHarm(ids["Dave"], "physical", 5, "grenade"))
    other.do(EditCombatant(ids["Dave"], "notes", "someone else's fight"))
    save_encounter(other, path)  # a new file in its place (another inode)


def _edit_in_place(path: Path) -> None:
    data = path.read_bytes()
    assert b"Seed example" in data
    with path.open("r+b") as stream:  # the same file, rewritten
        stream.write(data.replace(b"Seed example", b"Seed exampla"))


@pytest.mark.parametrize("behind_our_back", [_replace_with_another_fight, _edit_in_place, Path.unlink])
def test_a_journal_recovers_its_own_base_whatever_became_of_the_file(tmp_path: Path, behind_our_back: Any) -> None:
    """The header is a copy of the file as it was opened, never a reference to it: a file replaced, edited or
    deleted after opening cannot make recovery apply the journal to another fight."""
    path = _saved_fight(tmp_path)
    workspace = _workspace(tmp_path)
    workspace.open(path)
    document = workspace.document
    document.apply(NextTurn())
    behind_our_back(path)
    document.apply(NextTurn())
    document.undo_stack.undo()
    abandon(workspace.journal)
    candidate = only_candidate()
    assert candidate.name == "Seed example" and candidate.worth_offering
    recovered = recover(candidate)
    assert same(recovered, document.history) and recovered.state.name == "Seed example"
    workspace.close(keep_journal=True)


def test_bytes_that_no_longer_hold_the_fight_are_not_journaled(tmp_path: Path) -> None:
    path = _saved_fight(tmp_path)
    history, sealed = open_encounter(path)
    assert sealed is not None and sealed.holds(history) and sealed.data == path.read_bytes()
    other, _other_sealed = open_encounter(path)
    assert not sealed.holds(other)  # the same fight, another history
    history.do(NextTurn())
    assert not sealed.holds(history)
    history.undo()  # back to the same entries, but through a state of its own
    assert not sealed.holds(history)
    for changed in (history, _redone(path)):
        journal = Journal()
        journal.restart(changed, path, sealed=sealed)
        header = _header_line(journal)
        assert sealed.data not in header and is_sealed(header)
        abandon(journal)
        candidate = only_candidate()
        assert same(recover(candidate), changed)
        discard(candidate)


def _redone(path: Path) -> History:
    """A fight read from ``path``, its last entry undone and redone (the same entries, a new state)."""
    history, _sealed = open_encounter(path)
    history.undo()
    history.redo()
    return history


def test_only_one_line_of_sealed_json_is_copied(tmp_path: Path) -> None:
    """A file opened as edited (replayed in full) is encoded again: copied into a sealed header it would be
    trusted on recovery. So is a sealed file of several lines, which would cut the journal's first line."""
    path = _saved_fight(tmp_path)
    data = path.read_bytes()
    edited = tmp_path / "edited.bojovka"
    edited.write_bytes(data.replace(b'"Seed example"', b'"Seed example" '))
    document = json.loads(data)
    del document["checksum"]
    pretty = tmp_path / "pretty.bojovka"
    pretty.write_bytes(seal(json.dumps(document, indent=1)[:-1].rstrip().encode("utf-8")))
    assert is_sealed(pretty.read_bytes()) and b"\n" in pretty.read_bytes()
    history, _sealed = open_encounter(path)
    assert SealedDocument.of(b"\xef\xbb\xbf" + data, history) is None  # a byte-order mark
    assert SealedDocument.of(data.replace(b"Seed example", b"Seed exampla"), history) is None  # not sealed
    for file in (edited, pretty):
        assert open_encounter(file)[1] is None
        workspace = _workspace(tmp_path)
        workspace.open(file)
        workspace.document.apply(NextTurn())
        abandon(workspace.journal)
        candidate = only_candidate()
        assert same(recover(candidate), workspace.document.history)
        discard(candidate)
        workspace.close(keep_journal=True)


# --- locks --------------------------------------------------------------------------------------


def test_encounter_lock_in_two_windows(tmp_path: Path) -> None:
    path = tmp_path / "fight.bojovka"
    first, second = EncounterLock(path), EncounterLock(tmp_path / "." / "fight.bojovka")
    assert first.acquire() and first.held
    assert first.acquire()  # taking it again is harmless
    assert not second.acquire()
    owner = second.owner()
    assert owner is not None and owner.pid == os.getpid() and owner.host == socket.gethostname()
    assert str(os.getpid()) in owner.describe()
    first.release()
    assert second.owner() is None
    assert second.acquire()
    second.release()
    assert not second.lock_file.exists()
    assert EncounterLock(tmp_path / "other.bojovka").lock_file != first.lock_file


def _hold_lock_in_subprocess(lock_file: Path) -> subprocess.Popen[str]:
    code = ("import sys; from pathlib import Path; from app.locks import FileLock; "
            "lock = FileLock(Path(sys.argv[1])); print(lock.acquire(), flush=True); sys.stdin.read()")
    process = subprocess.Popen([sys.executable, "-c", code, str(lock_file)], cwd=ROOT, text=True,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert process.stdout is not None and process.stdout.readline().strip() == "True"
    return process


def test_lock_of_a_killed_process_is_stale_and_taken_over(tmp_path: Path) -> None:
    lock_file = tmp_path / "fight.lock"
    process = _hold_lock_in_subprocess(lock_file)
    lock = FileLock(lock_file)
    try:
        owner = lock.owner()
        assert owner is not None and owner.pid == process.pid
        assert not lock.acquire()
    finally:
        process.kill()
        process.wait()
    assert lock_file.exists()  # left behind by the dead process
    assert lock.owner() is None
    assert lock.acquire()
    owner = lock.owner()
    assert owner is not None and (owner.pid, owner.host) == (os.getpid(), socket.gethostname())
    lock.release()


def _write_owner(lock_file: Path, pid: int, host: str, since: datetime) -> None:
    lock_file.write_text(json.dumps({"pid": pid, "host": host, "since": since.isoformat()}))


def test_fallback_without_os_locks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """File systems without locks: pid liveness on this host, a day's age elsewhere."""
    monkeypatch.setattr(locks, "_os_lock", lambda _fd, shared: None)
    now = datetime.now().astimezone()
    lock_file = tmp_path / "x.lock"
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True,
                          check=True)
    _write_owner(lock_file, int(dead.stdout), socket.gethostname(), now)
    assert FileLock(lock_file).owner() is None  # that pid is gone
    _write_owner(lock_file, os.getpid(), socket.gethostname(), now)
    assert not FileLock(lock_file).acquire()  # alive (this very process)
    _write_owner(lock_file, 1234, "another-computer", now - timedelta(hours=2))
    assert FileLock(lock_file).owner() is not None  # cannot ask another host: young means alive
    _write_owner(lock_file, 1234, "another-computer", now - timedelta(days=2))
    lock = FileLock(lock_file)
    assert lock.owner() is None and lock.acquire()
    lock.release()
    lock_file.write_text("garbage")
    os.utime(lock_file, (time.time() - 3 * 86400,) * 2)
    assert FileLock(lock_file).owner() is None  # unreadable and old: stale


def test_a_new_lock_is_taken_where_the_file_system_has_no_locks(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The fallback took a lock file it had just created, still empty, for a live owner's: without OS locks no
    journal could start and no encounter could be opened."""
    monkeypatch.setattr(locks, "_os_lock", lambda _fd, shared: None)
    lock = FileLock(tmp_path / "fresh.lock")
    assert lock.acquire()
    assert not FileLock(tmp_path / "fresh.lock").acquire()  # and now it is held
    lock.release()
    document, journal, _ids = open_document()
    document.apply(NextTurn())
    journal.close()


def test_owner_text_is_validated() -> None:
    assert locks._owner_from_text('{"pid": true, "host": "x"}') is None
    assert locks._owner_from_text('{"pid": 5, "host": 7}') is None
    assert locks._owner_from_text("[]") is None
    owner = locks._owner_from_text('{"pid": 5, "host": "x", "since": null}')
    assert owner == LockOwner(5, "x", None) and owner.describe() == "Bojovka (process 5) on x"


# --- the Qt binding must keep Python's singletons alive -----------------------------------------


def test_qt_binding_does_not_drop_references_to_none_and_bools() -> None:
    """PySide6 6.12.0 on Python 3.11 drops a reference to None on every void call (QUndoStack.setClean, undo,
    QObject.setObjectName…) and to True/False on every Signal(bool) emission; the interpreter then aborts with
    "deallocating None/True" after enough GM actions. 6.11.2 and 6.11.3 do not: keep this guard when the pin moves."""
    from PySide6.QtCore import QObject, Signal
    from PySide6.QtGui import QUndoStack

    class Emitter(QObject):
        flag = Signal(bool)

    stack, emitter = QUndoStack(), Emitter()
    emitter.flag.connect(lambda _value: None)
    before = sys.getrefcount(None), sys.getrefcount(True)
    for _index in range(50):
        stack.setClean()
        emitter.flag.emit(True)
    assert (sys.getrefcount(None), sys.getrefcount(True)) == before


# --- crash safety with real SIGKILLs ------------------------------------------------------------

SEED = 20260
STEPS = 300


@dataclass
class KillReport:
    """What one killed worker reported before it died."""

    done: list[tuple[int, int]] = field(default_factory=list)  # (entries, step index)
    killed: bool = False


def _worker(home: Path, file: Path, opened: bool = False) -> subprocess.Popen[str]:
    env = dict(os.environ, BOJOVKA_HOME=str(home), QT_QPA_PLATFORM="offscreen", PYTHONDONTWRITEBYTECODE="1")
    command = [sys.executable, "-m", "tests.app.crash_worker", "--seed", str(SEED), "--steps", str(STEPS),
               "--file", str(file), *(["--open"] if opened else [])]
    process = subprocess.Popen(command, cwd=ROOT, env=env, text=True, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL)
    assert process.stdout is not None
    assert process.stdout.readline().strip() == "ready"
    return process


def _parse(output: str) -> list[tuple[int, int]]:
    done = []
    for line in output.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0] == "done":  # a line cut by the kill has fewer parts
            done.append((int(parts[1]), int(parts[2])))
    return done


def _run_and_kill(home: Path, file: Path, after_step: int, delay: float, opened: bool) -> KillReport:
    """Kill the worker ``delay`` seconds after it reports step ``after_step`` done (-1: after it is ready).

    The kill is placed by the worker's own progress, not by a clock measured in another run: a loaded machine
    slows every run differently, and a kill timed from a slow calibration run mostly came after the end."""
    process = _worker(home, file, opened)
    assert process.stdout is not None
    seen = []
    while after_step >= 0:
        line = process.stdout.readline()
        seen.append(line)
        parsed = _parse(line)
        if not line or line == "finished\n" or (parsed and parsed[0][1] >= after_step):
            break
    time.sleep(delay)
    process.send_signal(signal.SIGKILL)
    output = "".join(seen) + process.communicate()[0]
    return KillReport(_parse(output), killed="finished" not in output)  # else it was killed too late


def _timed_full_run(home: Path) -> float:
    """One run to the end: it closes its journal normally, and tells how long the script takes."""
    file = home / "full.bojovka"
    process = _worker(home, file)
    assert process.stdout is not None
    started = time.perf_counter()
    lines = list(iter(process.stdout.readline, "finished\n"))
    duration = time.perf_counter() - started
    output = "".join(lines) + process.communicate()[0]
    assert len(_parse(output)) == STEPS
    assert find_recoverable(home / "state" / "journals") == []  # a normal end leaves nothing to recover
    assert load_encounter(file) is not None
    return duration


def _check_recovery(home: Path, file: Path, report: KillReport, script: list[Step],
                    expected: list[tuple[Operation, ...]]) -> tuple[int, str]:
    """Recover what the killed worker left; return the entries recovered and the kind of step in flight."""
    candidates = find_recoverable(home / "state" / "journals")
    assert len(candidates) == 1, candidates
    history = recover(candidates[0])
    last_step = report.done[-1][1] if report.done else -1
    last_entries = report.done[-1][0] if report.done else len(expected[0])
    recovered = tuple(entry.operation for entry in history.entries)
    # Everything reported done is there; the step in flight may or may not have completed.
    allowed = [expected[last_step + 1]] + ([expected[last_step + 2]] if last_step + 2 < len(expected) else [])
    assert recovered in allowed, (last_step, len(recovered), last_entries)
    in_flight = script[last_step + 1] if last_step + 1 < len(script) else None
    if in_flight is None or in_flight.kind in ("do", "redo"):
        assert last_entries <= len(recovered) <= last_entries + 1
    for saved in (file, file.with_name(file.name + ".bak")):  # what is on disk always opens
        if saved.exists():
            load_encounter(saved)
    round_trip = home / "round-trip.bojovka"
    save_encounter(history, round_trip)
    assert fight_data(load_encounter(round_trip)) == fight_data(history)
    discard(candidates[0])
    return len(recovered), in_flight.kind if in_flight else "end"


def _restore_and_kill(home: Path, die_at_write: int | None = None) -> str:
    """The next start: the GM answers Yes to the fight offered and is killed (SIGKILL) right after the restore, or
    inside it, just before its ``die_at_write``-th write to the disk; returns what it printed ("" if it died)."""
    env = dict(os.environ, BOJOVKA_HOME=str(home), QT_QPA_PLATFORM="offscreen", PYTHONDONTWRITEBYTECODE="1")
    command = [sys.executable, "-m", "tests.app.crash_worker", "--restore",
               *(["--die-at-write", str(die_at_write)] if die_at_write else [])]
    process = subprocess.Popen(command, cwd=ROOT, env=env, text=True, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL)
    assert process.stdout is not None
    said = process.stdout.readline().strip()
    process.send_signal(signal.SIGKILL)  # nothing done after the restore (if it is not dead already)
    process.communicate()
    return said


def _worth_offering(home: Path) -> list[RecoveryCandidate]:
    return [candidate for candidate in find_recoverable(home / "state" / "journals") if candidate.worth_offering]


def _crash_test(tmp_path: Path, kills: int, seed: int) -> None:
    script = build_script(SEED, STEPS)
    expected = expected_operations(script)
    duration = _timed_full_run(tmp_path / "calibration")
    rng = random.Random(seed)
    made, attempt, counts, in_flight, opened_kills, restored_kills = 0, 0, [], Counter[str](), 0, 0
    while made < kills:
        attempt += 1
        assert attempt < kills * 3, "the worker finished before most kills: the script is too short"
        home = tmp_path / f"kill-{attempt}"
        file = home / "fight.bojovka"
        opened = attempt % 2 == 0  # every other fight starts as a file opened (its header: the file's bytes)
        step_time = duration / STEPS
        report = _run_and_kill(home, file, rng.randrange(-1, STEPS - 1), rng.uniform(0.0, 2 * step_time), opened)
        finished = bool(report.done) and report.done[-1][1] == len(script) - 1
        if not report.killed or finished:  # a kill after the last step (the worker was exiting) tests nothing
            continue
        made += 1
        opened_kills += opened
        if made % 2 and _worth_offering(home):  # the next start restores it and is killed right away
            assert _restore_and_kill(home).startswith("restored ")
            restored_kills += 1
        count, kind = _check_recovery(home, file, report, script, expected)
        counts.append(count)
        in_flight[kind] += 1
    assert 0 < opened_kills < made, "both a new fight and a file opened must be killed"
    assert restored_kills > 0, "a restore must be killed too"
    print(f"\ncrash test: {made} SIGKILLs ({opened_kills} of a file opened, {restored_kills} restored and killed "
          f"again right after) in {attempt} runs; script "
          f"{duration * 1000:.0f} ms; recovered entries "
          f"min {min(counts)}, max {max(counts)}, distinct {len(set(counts))}; step in flight {dict(in_flight)}")


def test_crash_safety_20_kills(tmp_path: Path) -> None:
    _crash_test(tmp_path, kills=20, seed=1)


@pytest.mark.soak
def test_crash_safety_200_kills(tmp_path: Path) -> None:
    _crash_test(tmp_path, kills=200, seed=2)


def _crash(workspace: Workspace) -> None:
    """What a crash does to a workspace: its files stay, its process (and so every lock it held) is gone."""
    abandon(workspace.journal)
    workspace._release()


def _played_and_crashed(tmp_path: Path) -> History:
    """A saved fight opened, three actions, the last undone (Redo would bring it back), and a crash."""
    workspace = _workspace(tmp_path)
    workspace.open(_saved_fight(tmp_path))
    document = workspace.document
    for operation in (NextTurn(), ApplyHarm(_dave(document.history), "stun", 2, "club"), NextTurn()):
        document.apply(operation)
    document.undo_stack.undo()
    _crash(workspace)
    return document.history


def test_a_restored_fight_survives_a_second_crash_with_nothing_done(tmp_path: Path) -> None:
    """Issue 19: open a saved fight, act, crash; restart, restore, do nothing, crash again: the next start must
    still offer it, with what Redo brings back."""
    played = _played_and_crashed(tmp_path)
    for _start in range(3):
        workspace = _workspace(tmp_path)
        (candidate,) = workspace.recoverable()
        assert candidate.worth_offering
        workspace.recover(candidate)
        assert same(workspace.document.history, played) and workspace.document.undo_stack.canRedo()
        assert sorted(journals_dir().glob("*.jsonl")) == [candidate.journal]  # carried on in its own journal
        _crash(workspace)
    workspace = _workspace(tmp_path)
    (candidate,) = workspace.recoverable()
    workspace.recover(candidate)
    workspace.document.undo_stack.redo()
    played.redo()
    assert same(workspace.document.history, played)
    workspace.close(keep_journal=False)


def test_a_restore_killed_at_any_write_leaves_the_fight_offered_exactly_once(tmp_path: Path) -> None:
    """A SIGKILL just before each write the restore makes to the disk, and one right after it: the next start
    offers the fight once (never lost, never a second copy to be offered again later), as it was played."""
    played = _played_and_crashed(tmp_path)
    left_behind = journals_dir()

    def home(name: str) -> Path:
        shutil.copytree(left_behind, tmp_path / name / "state" / "journals")
        return tmp_path / name

    right_after = home("right-after")
    said = _restore_and_kill(right_after).split()
    assert said[:2] == ["restored", str(len(played.entries))]
    writes = int(said[2])
    (candidate,) = _worth_offering(right_after)
    assert same(recover(candidate), played)
    for number in range(1, writes + 1):
        inside = home(f"write-{number}")
        assert _restore_and_kill(inside, number) == ""  # it died inside the restore
        offered = _worth_offering(inside)
        assert len(offered) == 1, (number, offered)
        assert same(recover(offered[0]), played), number
    print(f"\nrestore killed at each of its {writes} writes and right after it")


def test_the_script_mixes_every_kind_of_step() -> None:
    kinds = {step.kind for step in build_script(SEED, STEPS)}
    assert kinds == {"do", "undo", "redo", "save"}
    assert build_script(SEED, STEPS) == build_script(SEED, STEPS)


def test_worker_edits_survive_a_json_round_trip() -> None:
    """Sanity check of the comparison the crash test relies on: decoded operations equal the originals."""
    operation = EditCombatant("c1", "notes", "Ёжик")
    history, _ids = started_fight()
    history.do(operation)
    document: dict[str, Any] = json.loads(json.dumps(history_to_document(history)))
    from rules.serialize import history_from_document

    assert history_from_document(document).entries[-1].operation == operation
