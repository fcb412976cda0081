"""The journal of the fight being run, and crash recovery.

Each open document has one journal, ``state_dir()/journals/<uuid>.jsonl``. Its first line (the header)
holds the whole fight as it was when the file was last opened or saved (a copy of the file's own bytes then,
so the journal never depends on the file, which may change or go); every later line is one change:
``{"op": …}``, ``{"undo": 1}`` or ``{"redo": 1}``, written and fsynced before :meth:`Journal.record_operation`
returns, so a crash or a power cut loses at most the change in flight. A normal close deletes the journal;
a journal left behind belongs to a Bojovka that died, and :func:`find_recoverable` offers it on the next start.

Who is alive is decided by operating-system locks (:mod:`app.locks`): each journal has a lock file beside it,
held while its Bojovka runs.
"""

from __future__ import annotations

import contextlib
import json
import os
import uuid
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Final

from app.i18n import _
from app.locks import LOCK_SUFFIX, FileLock, now
from app.paths import journals_dir
from app.storage import (
    SealedDocument,
    StorageError,
    app_version,
    atomic_write_bytes,
    dump_json,
    is_sealed,
    os_reason,
    read_limited,
    seal,
    write_all,
)
from rules.errors import RulesError, clipped
from rules.history import History, Operation
from rules.serialize import history_from_document, history_to_document, operation_from_data, to_data

JOURNAL_FORMAT: Final[str] = "bojovka-journal"
JOURNAL_VERSION: Final[int] = 1
JOURNAL_SUFFIX: Final[str] = ".jsonl"
#: A journal holds a whole fight plus every change since the last save; far above any real session.
MAX_JOURNAL_BYTES: Final[int] = 256 * 1024 * 1024


# --- the journal --------------------------------------------------------------------------------


def _redo_operations(history: History) -> list[Operation]:
    """Operations undone and not yet redone, next to redo first.

    The header must carry them: after a save the GM may still press Redo, and the journal's ``{"redo": 1}``
    must find the operation on replay. History keeps them privately (a public accessor is requested).
    """
    return [entry.operation for entry in history.redo_entries]


def _with_document(header: str, history: History, sealed: SealedDocument | None) -> bytes:
    """The header's JSON with the whole fight as its ``document``, without the closing brace (for the seal).

    A fight just read from a sealed file, or just saved, is copied as those very bytes: they are what the history
    was decoded from (or encoded to), so recovery decodes it exactly as opening did, without json.dumps of the
    whole fight again (the largest part of opening a long fight that was not reading it).
    """
    if sealed is not None and sealed.holds(history):
        document = sealed.data
    else:
        document = dump_json(history_to_document(history)).encode("utf-8")
    return header[:-1].encode("utf-8") + b',"document":' + document


def _journals_folder() -> Path:
    """The journals folder, made if the disk lets it be (a full disk: writing the journal will say so)."""
    try:
        return journals_dir()
    except OSError:
        return journals_dir(create=False)


def _remove_temp_files(journal: Path) -> None:
    """Temp files left by a writer of ``journal`` who died while restarting it (the caller holds its lock)."""
    for temp in journal.parent.glob(f".{journal.name}.*.tmp"):
        with contextlib.suppress(OSError):
            temp.unlink()


class Journal:
    """The write-ahead journal of one open document (implements ``app.document.Journal``).

    Call :meth:`restart` (or build it with :meth:`start`) before the first change is recorded. Locking the
    encounter *file* against a second Bojovka is :class:`EncounterLock`'s job, taken by whoever opens it.
    """

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = directory or _journals_folder()
        self.path = self.directory / f"{uuid.uuid4().hex}{JOURNAL_SUFFIX}"
        self._lock = FileLock(self.path.with_suffix(LOCK_SUFFIX))
        self._fd: int | None = None
        self._size = 0
        self._broken: StorageError | None = None

    @classmethod
    def start(cls, history: History, path: Path | None, directory: Path | None = None) -> Journal:
        """A new journal whose header is ``history`` (for a document opened from ``path``)."""
        journal = cls(directory)
        journal.restart(history, path)
        return journal

    def restart(self, history: History, path: Path | None, unsaved: bool = False,
                sealed: SealedDocument | None = None) -> None:
        """Write a new header holding ``history`` (atomically); later records extend it.

        ``unsaved``: the header itself holds changes the file does not (a recovered fight, or one whose journal
        missed a step and starts over), so it is worth offering after a crash even with no record after it.
        ``sealed``: the bytes ``history`` was just read from or saved to; while they still hold it (see
        :meth:`SealedDocument.holds`) the header copies them instead of encoding the fight again.

        On failure (StorageError) the journal refuses records until a restart succeeds: the old journal
        no longer matches the document.
        """
        self._close_file()  # Windows cannot replace a file that is open
        try:
            self._write_header(history, path, unsaved, sealed)
        except StorageError as error:
            self._close_file()
            self._broken = self._failure(error)
            raise self._broken from error
        self._broken = None

    def _write_header(self, history: History, path: Path | None, unsaved: bool,
                      sealed: SealedDocument | None) -> None:
        if not self._lock.acquire():
            raise StorageError(_("The recovery journal “{file}” is used by another process.").format(
                file=self.path), self.path)
        header = {
            "format": JOURNAL_FORMAT, "version": JOURNAL_VERSION,
            "file": str(path.absolute()) if path is not None else None,
            "started": now().isoformat(timespec="seconds"),
            "app_version": app_version(),
            "redo": [to_data(operation) for operation in _redo_operations(history)],
            "unsaved": unsaved,
        }
        atomic_write_bytes(self.path, seal(_with_document(dump_json(header), history, sealed)) + b"\n")
        try:
            self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | getattr(os, "O_BINARY", 0))
            self._size = os.fstat(self._fd).st_size
        except OSError as error:
            raise StorageError(os_reason(error), self.path) from error

    def _failure(self, error: OSError | StorageError) -> StorageError:
        cause = error.__cause__ if isinstance(error, StorageError) else error
        reason = os_reason(cause) if isinstance(cause, OSError) else str(error)
        return StorageError(_("The recovery journal could not be written ({reason}): until this is fixed, a crash "
                              "would lose changes. Save the encounter, to another disk if this one is full.")
                            .format(reason=reason), self.path)

    def _append(self, record: dict[str, Any]) -> None:
        if self._broken is not None:
            raise self._broken
        if self._fd is None:
            raise RuntimeError("Journal.restart() must be called before recording changes")
        line = (dump_json(record) + "\n").encode("utf-8")
        try:
            write_all(self._fd, line)
            os.fsync(self._fd)
        except OSError as error:
            failure = self._failure(error)
            try:  # cut the partial line off, so later records do not follow a torn one
                os.ftruncate(self._fd, self._size)
            except OSError:
                self._broken = failure  # refuse further records until restart() writes a fresh journal
            raise failure from error
        self._size += len(line)

    def record_operation(self, operation: Operation) -> None:
        """Append an operation; it is on disk when this returns."""
        self._append({"op": to_data(operation)})

    def record_undo(self) -> None:
        """Append an undo; it is on disk when this returns."""
        self._append({"undo": 1})

    def record_redo(self) -> None:
        """Append a redo; it is on disk when this returns."""
        self._append({"redo": 1})

    def _close_file(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None

    def close(self) -> None:
        """The fight was saved or discarded: delete the journal and give up its lock."""
        self._close_file()
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()
        self._lock.release()

    def take_over(self, journal: Path) -> None:
        """Carry on as ``journal``, one left behind whose fight is being restored (at start-up, while this
        journal holds nothing the GM did): its lock becomes this journal's, and this journal's file goes.

        Its records stay as they are until the next :meth:`restart` puts the restored fight in their place,
        atomically (the document restarts its journal on restoring). A crash at any moment before, during or
        after leaves exactly one journal of the fight: never none, never a second one to be offered again.
        """
        lock = FileLock(journal.with_suffix(LOCK_SUFFIX))
        if not lock.acquire():
            raise StorageError(_("The recovery journal “{file}” is in use by a running Bojovka.").format(
                file=journal), journal)
        self.close()
        _remove_temp_files(journal)
        self.directory, self.path, self._lock = journal.parent, journal, lock


# --- recovery -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class RecoveryCandidate:
    """A journal left behind by a Bojovka that did not close normally."""

    journal: Path
    file: Path | None  # the encounter file it extends, None for a fight never saved
    name: str  # the encounter's name, for "Restore the fight you were running?"
    operations: int  # changes recorded since the file was opened or saved (operations, undos, redos)
    changed: datetime  # the last change
    newer_than_file: bool  # the journal holds something the file does not
    problem: str | None = None  # why it cannot be recovered (recover() will raise StorageError)

    @property
    def worth_offering(self) -> bool:
        """Whether to ask the GM ("Restore the fight you were running?"): readable, with unsaved changes."""
        return self.problem is None and self.newer_than_file


def _journal_lines(path: Path) -> list[bytes]:
    """Complete lines only: a last line without its newline was being written when the process died."""
    lines = read_limited(path, MAX_JOURNAL_BYTES).split(b"\n")
    return lines[:-1]


def _damaged(path: Path, line: int, problem: str) -> StorageError:
    return StorageError(_("The recovery journal “{file}” is damaged at line {line}: {problem}").format(
        file=path, line=line, problem=clipped(problem)), path)


def _json_line(path: Path, raw: bytes, number: int) -> dict[str, Any]:
    try:
        record = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, RecursionError, ValueError) as error:
        raise _damaged(path, number, str(error)[:80]) from None
    if not isinstance(record, dict):
        raise _damaged(path, number, _("expected an object"))
    return record


def _header(path: Path, lines: list[bytes]) -> dict[str, Any]:
    if not lines:
        raise _damaged(path, 1, _("the journal is empty"))
    header = _json_line(path, lines[0], 1)
    if header.get("format") != JOURNAL_FORMAT:
        raise _damaged(path, 1, _("this is not a Bojovka journal"))
    version = header.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise _damaged(path, 1, _("the journal has no valid version"))
    if version > JOURNAL_VERSION:
        raise StorageError(_("The recovery journal “{file}” was written by a newer version of Bojovka. Please "
                             "update Bojovka to restore it.").format(file=path), path)
    return header


def _file_of(header: dict[str, Any]) -> Path | None:
    file = header.get("file")
    return Path(file) if isinstance(file, str) and file else None


def _name_of(header: dict[str, Any], file: Path | None) -> str:
    document = header.get("document")
    state = document.get("state") if isinstance(document, dict) else None
    name = state.get("name") if isinstance(state, dict) else None
    if isinstance(name, str) and name.strip():
        return name.strip()[:200]
    return file.stem if file is not None else _("Untitled encounter")


def _newer_than_file(header: dict[str, Any], file: Path | None, changes: int, changed: datetime) -> bool:
    if header.get("unsaved") is True:
        return True
    if file is None:
        if "unsaved" in header:  # a fight never saved, as it was opened or started: a sample, a new fight
            return changes > 0
        # A journal of the release before "unsaved" was recorded: a recovered fight started a header like this.
        document = header.get("document")
        operations = document.get("operations") if isinstance(document, dict) else None
        return changes > 0 or bool(operations)
    try:
        saved = datetime.fromtimestamp(file.stat().st_mtime).astimezone()
    except OSError:
        return True  # the file is gone: the journal is all there is
    return changes > 0 and changed >= saved


def _inspect(journal: Path) -> RecoveryCandidate:
    try:
        changed = datetime.fromtimestamp(journal.stat().st_mtime).astimezone()
    except OSError:
        changed = now()
    try:
        lines = _journal_lines(journal)
        header = _header(journal, lines)
    except StorageError as error:
        return RecoveryCandidate(journal, None, _("Damaged recovery journal"), 0, changed, False, str(error))
    file = _file_of(header)
    changes = len(lines) - 1
    return RecoveryCandidate(journal, file, _name_of(header, file), changes, changed,
                             _newer_than_file(header, file, changes, changed))


def _sweep_temp_files(directory: Path) -> None:
    """Remove temp files of journals whose writer died while restarting them."""
    for temp in directory.glob(f".*{JOURNAL_SUFFIX}.*.tmp"):
        journal_name = temp.name[1:].split(f"{JOURNAL_SUFFIX}.", 1)[0] + JOURNAL_SUFFIX
        if FileLock((directory / journal_name).with_suffix(LOCK_SUFFIX)).owner() is None:
            with contextlib.suppress(OSError):
                temp.unlink()


def find_recoverable(directory: Path | None = None) -> list[RecoveryCandidate]:
    """Journals no running Bojovka owns, most recently changed first."""
    directory = directory or journals_dir()
    _sweep_temp_files(directory)
    candidates = [_inspect(journal) for journal in directory.glob(f"*{JOURNAL_SUFFIX}")
                  if FileLock(journal.with_suffix(LOCK_SUFFIX)).owner() is None]
    return sorted(candidates, key=lambda candidate: candidate.changed, reverse=True)


def _replay(history: History, record: dict[str, Any], path: Path, number: int) -> None:
    if "op" in record:
        try:
            history.do(operation_from_data(record["op"], "op"))
        except RecursionError:
            raise _damaged(path, number, _("the data is nested too deeply")) from None
        except RulesError as error:
            raise _damaged(path, number, str(error)) from None
    elif "undo" in record:
        if history.undo() is None:
            raise _damaged(path, number, _("an undo with nothing to undo"))
    elif "redo" in record:
        if history.redo() is None:
            raise _damaged(path, number, _("a redo with nothing to redo"))
    else:
        raise _damaged(path, number, _("unknown record"))


def _restore_redo(history: History, header: dict[str, Any], path: Path) -> None:
    """Put back the operations that were undone (and redoable) when the header was written."""
    redo = header.get("redo", [])
    if not isinstance(redo, list):
        raise _damaged(path, 1, _("expected a list"))
    try:
        operations = [operation_from_data(item, f"redo[{index}]") for index, item in enumerate(redo)]
        for operation in operations:
            history.do(operation)
    except RulesError as error:
        raise _damaged(path, 1, str(error)) from None
    for _operation in operations:
        history.undo()


def recover(candidate: RecoveryCandidate) -> History:
    """Rebuild the fight: the header's document, then every complete record replayed in order."""
    path = candidate.journal
    lines = _journal_lines(path)
    header = _header(path, lines)
    try:
        history = history_from_document(header.get("document"), trusted=is_sealed(lines[0]))
    except RecursionError:
        raise _damaged(path, 1, _("the data is nested too deeply")) from None
    except RulesError as error:
        raise _damaged(path, 1, str(error)) from None
    _restore_redo(history, header, path)
    for number, raw in enumerate(lines[1:], start=2):
        _replay(history, _json_line(path, raw, number), path, number)
    return history


def discard(candidate: RecoveryCandidate) -> None:
    """Delete a journal left behind (the GM declined it, or it holds nothing unsaved)."""
    lock = FileLock(candidate.journal.with_suffix(LOCK_SUFFIX))
    if not lock.acquire():
        raise StorageError(_("The recovery journal “{file}” is in use by a running Bojovka.").format(
            file=candidate.journal), candidate.journal)
    try:
        with contextlib.suppress(FileNotFoundError):
            candidate.journal.unlink()
        _remove_temp_files(candidate.journal)
    finally:
        lock.release()
