"""Encounter files (``.bojovka``): compact JSON written atomically, validated on load.

Saving never leaves a half-written file: the document goes to a temporary file in the same directory, is
flushed and fsynced, the previous file is kept as ``name.bak``, and only then does ``os.replace`` put the
new file in place (an atomic rename on every platform Bojovka runs on). Loading treats the file as hostile:
a size cap before reading, UTF-8 and JSON errors with their line and column, then the rules layer's schema
validation, which names the place of any wrong value. Nothing is evaluated or unpickled.

Every failure is a :class:`StorageError` whose ``str()`` is a message for the GM.
"""

from __future__ import annotations

import contextlib
import errno
import gc
import hashlib
import hmac
import json
import os
import re
import stat
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, BinaryIO, Final

from app import __version__
from app.i18n import _
from rules.encounter import Encounter
from rules.errors import RulesError, clipped
from rules.history import Entry, History
from rules.serialize import FORMAT, history_from_document, history_to_document
from rules.systems import system_ids, system_title

#: Files larger than this are refused before reading (a fight of 100,000 operations is about 30 MB).
MAX_FILE_BYTES: Final[int] = 64 * 1024 * 1024
BACKUP_SUFFIX: Final[str] = ".bak"
TEMP_SUFFIX: Final[str] = ".tmp"


class StorageError(RulesError):
    """A file could not be read or written; ``str(error)`` is a message for the GM."""

    def __init__(self, message: str, path: Path | None = None) -> None:
        super().__init__(message)
        self.path = path


class NotARegularFile(OSError):
    """The path names a named pipe, a device or a socket: nothing Bojovka reads (see :func:`open_regular`)."""

    def __init__(self, path: Path) -> None:
        super().__init__(errno.ENXIO, "not a regular file", str(path))


def app_version() -> str:
    """Bojovka's version, as recorded in saved files."""
    return __version__


# --- messages -----------------------------------------------------------------------------------


def os_reason(error: OSError) -> str:
    """A short, translated reason for an operating-system error (disk full, read-only, no permission…)."""
    reasons = {
        errno.ENOSPC: _("the disk is full"),
        errno.EDQUOT: _("the disk quota is exhausted"),
        errno.EROFS: _("the disk is read-only"),
        errno.EACCES: _("permission denied"),
        errno.EPERM: _("permission denied"),
        errno.ENOENT: _("the file or folder does not exist"),
        errno.EISDIR: _("it is a folder, not a file"),
        errno.ENAMETOOLONG: _("the name is too long"),
        errno.EIO: _("the disk reported an input/output error"),
    }
    if isinstance(error, NotARegularFile):
        return _("it is not a file but a pipe, a device or a socket")
    if error.errno in reasons:
        return reasons[error.errno]
    return error.strerror or str(error) or type(error).__name__


def _write_failed(path: Path, error: OSError) -> StorageError:
    return StorageError(_("Could not save “{file}”: {reason}. The previous version of the file is unchanged.")
                        .format(file=path, reason=os_reason(error)), path)


def _read_failed(path: Path, problem: str) -> StorageError:
    return StorageError(_("Cannot open “{file}”: {problem}").format(file=path, problem=clipped(problem)), path)


# --- writing ------------------------------------------------------------------------------------


def _temp_path(path: Path) -> Path:
    # Same directory as the target, so os.replace is a rename and never a copy across file systems.
    return path.with_name(f".{path.name}.{uuid.uuid4().hex[:12]}{TEMP_SUFFIX}")


def write_all(fd: int, data: bytes) -> None:
    """Write every byte (``os.write`` may write fewer than asked)."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _write_temp(temp: Path, data: bytes, mode_from: Path) -> None:
    """Create ``temp`` (honouring the umask, or the replaced file's mode), write, flush and fsync it."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    fd = os.open(temp, flags, 0o666)
    try:
        with contextlib.suppress(FileNotFoundError):  # a new file: the umask decided
            os.chmod(fd if os.chmod in os.supports_fd else temp, mode_from.stat().st_mode & 0o7777)
        write_all(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)


def _keep_backup(path: Path) -> None:
    """Keep the current ``path`` as ``path.bak``, atomically, so the backup is always a whole file."""
    if not path.is_file():
        return
    backup = path.with_name(path.name + BACKUP_SUFFIX)
    staged = _temp_path(backup)
    try:
        try:
            os.link(path, staged)  # a second name for the old contents: no copying
        except OSError:
            _write_temp(staged, path.read_bytes(), path)  # file systems without hard links (FAT, some shares)
        os.replace(staged, backup)
    except BaseException:
        _remove(staged)
        raise


def _remove(temp: Path) -> None:
    """Tidy a temp file away; on a read-only disk even that fails (EROFS), and there is nothing to tidy."""
    with contextlib.suppress(OSError):
        temp.unlink(missing_ok=True)


def _sync_directory(directory: Path) -> None:
    """Make the rename durable (POSIX); Windows cannot open a directory for fsync and needs no such step."""
    if os.name == "nt":
        return
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems refuse to fsync a directory; the file itself is already on disk
    finally:
        os.close(fd)


def atomic_write_bytes(path: Path, data: bytes, backup: bool = False) -> None:
    """Replace ``path`` with ``data`` atomically (temp file, fsync, rename); optionally keep ``path.bak``.

    Raises StorageError on any OSError; the previous file is then intact and the temp file removed.
    """
    temp = _temp_path(path)
    try:
        _write_temp(temp, data, path)
        if backup:
            _keep_backup(path)
        os.replace(temp, path)
    except OSError as error:
        _remove(temp)
        raise _write_failed(path, error) from error
    except BaseException:
        _remove(temp)
        raise
    _sync_directory(path.parent)


def atomic_write_text(path: Path, text: str, backup: bool = False) -> None:
    """:func:`atomic_write_bytes` for UTF-8 text."""
    atomic_write_bytes(path, text.encode("utf-8"), backup)


def encounter_document(history: History) -> dict[str, Any]:
    """The document saved for ``history``: the rules layer's document plus who saved it and when."""
    document = history_to_document(history)
    document["app_version"] = app_version()
    document["saved"] = datetime.now(UTC).isoformat(timespec="seconds")
    return document


def dump_json(document: Any) -> str:
    """Compact JSON, non-ASCII kept as is (names in Czech, Polish, Russian stay readable)."""
    return json.dumps(document, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


#: The last member of a sealed document: a SHA-256 of every byte before it.
_SEAL: Final[bytes] = b',"checksum":"sha256:'


def sealed_json(document: dict[str, Any]) -> str:
    """Compact JSON of a (non-empty) object, with a checksum of its own bytes as the last member.

    A sealed file is known to be exactly as Bojovka wrote it, so it may open from its saved state without
    replaying its history (rules.documents); an edited or damaged one is replayed and checked in full.
    """
    return seal(dump_json(document)[:-1].encode("utf-8")).decode("utf-8")


def seal(body: bytes) -> bytes:
    """Close ``body``, the UTF-8 JSON of an object without its closing brace, with the checksum of its bytes."""
    digest = hashlib.sha256(body).hexdigest().encode("ascii")
    return body + _SEAL + digest + b'"}'


def is_sealed(data: bytes) -> bool:
    """Whether ``data`` ends with a checksum that matches the bytes before it."""
    return sealed_checksum(data) is not None


def sealed_checksum(data: bytes) -> bytes | None:
    """The checksum a sealed document ends with (a digest of everything it holds), None when ``data`` is not
    sealed (no checksum, or one that does not match the bytes before it)."""
    data = data.rstrip()
    position = data.rfind(_SEAL)
    if position < 0 or not data.endswith(b'"}'):
        return None
    digest = hashlib.sha256(data[:position]).hexdigest().encode("ascii")
    return digest if hmac.compare_digest(digest, data[position + len(_SEAL):-2]) else None


@dataclass(frozen=True, eq=False)
class SealedDocument:
    """A fight's document as the very bytes of a sealed file (just read, or just saved) and the history they hold.

    The journal's header reuses them instead of encoding the whole fight again (most of what opening or saving
    a long fight spent of its own), but only while the history stands exactly where it stood when they were
    read or written: see :meth:`holds`.
    """

    data: bytes  # one line of compact JSON, an object: a sealed document's bytes, checksum included
    history: History
    state: Encounter
    last: Entry | None
    position: int

    @classmethod
    def of(cls, data: bytes, history: History, checked: bool = False) -> SealedDocument | None:
        """``data``, a sealed document's bytes, for ``history`` as it stands now; None unless they are sealed
        (``checked``: the caller just checked or wrote the checksum) and one line of JSON (Bojovka writes nothing
        else, but a sealed file may have been written by anyone)."""
        data = data.rstrip()
        if data[:1] != b"{" or b"\n" in data or not (checked or is_sealed(data)):
            return None
        return cls(data, history, history.state, history.last_done, history.position)

    @property
    def checksum(self) -> bytes:
        """The checksum these bytes end with: what they hold, in 64 hex digits (see :func:`sealed_checksum`)."""
        return self.data[self.data.rfind(_SEAL) + len(_SEAL):-2]

    def holds(self, history: History) -> bool:
        """Whether these bytes are still ``history``'s entries and state: the same history, at the same entry.

        The entries in effect are a stack, so the same last entry at the same position means the same entries
        (an undo and a new operation push a new entry; an undo and a redo push the same one, but make a new state).
        The redo stack is not in the document: the journal records it apart.
        """
        return (history is self.history and history.state is self.state and history.last_done is self.last
                and history.position == self.position)


def save_encounter(history: History, path: Path) -> SealedDocument | None:
    """Write the fight to ``path`` atomically, keeping the previous file as ``path.bak``; returns what was written
    (for the journal's next header)."""
    data = sealed_json(encounter_document(history)).encode("utf-8")
    if len(data) > MAX_FILE_BYTES:  # it could never be opened again: say so now, while the fight is in memory
        raise StorageError(_("Could not save “{file}”: the fight is too large for one file ({size} MB; the limit "
                             "is {limit} MB).").format(file=path, size=-(-len(data) // 2**20),
                                                       limit=MAX_FILE_BYTES // 2**20), path)
    atomic_write_bytes(path, data, backup=True)
    return SealedDocument.of(data, history, checked=True)


# --- reading ------------------------------------------------------------------------------------


#: Opening never waits: a named pipe (FIFO) opened without it blocks until something writes into it.
_READ_FLAGS: Final[int] = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)


def open_regular(path: Path) -> BinaryIO:
    """``path`` opened for reading, if it is a regular file: NotARegularFile for a named pipe (opening one waited
    for a writer for ever: a FIFO named ``x.bojovka`` hung Open), a device (``/dev/zero`` never ends) or a socket;
    IsADirectoryError for a folder. The opened file itself is checked, so nothing can be swapped in between."""
    fd = os.open(path, _READ_FLAGS)
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if not stat.S_ISREG(mode):
            raise NotARegularFile(path)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_limited(path: Path, limit: int) -> bytes:
    """The bytes of ``path``, refusing files over ``limit`` before reading them; StorageError otherwise."""
    try:
        with open_regular(path) as stream:
            size = os.fstat(stream.fileno()).st_size
            if size > limit:
                raise _read_failed(path, _("the file is too large ({size} MB; the limit is {limit} MB).").format(
                    size=-(-size // 2**20), limit=limit // 2**20))  # rounded up: never "1 MB; the limit is 1 MB"
            data = stream.read(limit + 1)  # the file may have grown since it was measured
    except OSError as error:
        raise _read_failed(path, os_reason(error) + ".") from error
    if len(data) > limit:
        raise _read_failed(path, _("the file is too large (the limit is {limit} MB).").format(limit=limit // 2**20))
    return data


def _refuse_constant(name: str) -> Any:
    """NaN and Infinity are not JSON (Python's json module accepts them unless told otherwise)."""
    raise ValueError(_("{value} is not a number JSON allows").format(value=name))


def parse_json(path: Path, data: bytes) -> Any:
    """Decode UTF-8 JSON with a message naming the line and column of a syntax error."""
    if not data.strip():
        raise _read_failed(path, _("the file is empty."))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise _read_failed(path, _("this is not a text file (undecodable byte at position {offset}).").format(
            offset=error.start)) from None
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as error:
        raise _read_failed(path, _("the file is damaged or not a Bojovka file (line {line}, column {column}: "
                                   "{problem}).").format(line=error.lineno, column=error.colno,
                                                         problem=error.msg)) from None
    except RecursionError:
        raise _read_failed(path, _("the data is nested too deeply.")) from None
    except ValueError as error:  # e.g. an integer with more digits than Python converts
        raise _read_failed(path, _("the file holds a value that cannot be read ({problem}).").format(
            problem=str(error)[:80])) from None


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cycle collector held off while a whole fight is built (or dropped) at once.

    Decoding a long fight makes a million small objects, none of them garbage: the collector went over them
    again and again as they piled up, about half of opening a 10,000-step fight. It runs once afterwards.
    """
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


def settle_heap() -> None:
    """Put everything alive now (a fight just opened, its window filled) beyond the cycle collector's reach.

    A long fight is a million small objects that live as long as it is open. Python's full collection walks them
    all (~170 ms for a 5,000-operation fight) whenever enough new objects have piled up, which stalled a GM's
    action at random every few hundred actions. Frozen objects are still freed when nothing refers to them; only a
    reference cycle among them would wait (opening a fight again leaves none: measured, see the tests).
    """
    gc.freeze()


def load_encounter(path: Path) -> History:
    """Read and validate a ``.bojovka`` file; every problem is a StorageError naming the file and the place."""
    return open_encounter(path)[0]


def open_encounter(path: Path) -> tuple[History, SealedDocument | None]:
    """:func:`load_encounter`, and the file's bytes when it is sealed (for the journal's header; else None)."""
    data = read_limited(path, MAX_FILE_BYTES)
    with collector_paused():
        sealed = is_sealed(data)
        history = _decoded(path, data, sealed)
    return history, SealedDocument.of(data, history, checked=True) if sealed else None


def _decoded(path: Path, data: bytes, sealed: bool) -> History:
    document = parse_json(path, data)
    try:
        return history_from_document(document, trusted=sealed)
    except RulesError as error:
        raise _read_failed(path, str(error)) from None
    except RecursionError:
        raise _read_failed(path, _("the data is nested too deeply.")) from None


# --- a file's game, at a glance -------------------------------------------------------------------

#: How much of a file :func:`peek_system_id` reads: the header and the start of the initial state, where the
#: game's id is the first field (a file is written in that order; see rules.documents.encode_history).
PEEK_BYTES: Final[int] = 4096
_FORMAT_MARK: Final = re.compile(rb'"format"\s*:\s*"' + FORMAT.encode("ascii") + rb'"')
_SYSTEM_ID: Final = re.compile(rb'"system_id"\s*:\s*"([A-Za-z0-9_-]{1,40})"')


def peek_system_id(path: Path) -> str | None:
    """The game of an encounter file, read from its first bytes without opening (let alone replaying) the fight,
    for the lists of recent files; None when the file cannot be read or is no Bojovka encounter."""
    try:
        with open_regular(path) as stream:  # a pipe named in the recent files must not hang the start
            head = stream.read(PEEK_BYTES)
    except OSError:
        return None
    found = _SYSTEM_ID.search(head) if _FORMAT_MARK.search(head) else None
    return found.group(1).decode("ascii") if found else None


def game_of_file(path: Path) -> str:
    """The game of an encounter file as the recent lists name it: its title in the GM's language, or why not."""
    if not path.is_file():
        return _("file not found")
    system_id = peek_system_id(path)
    if system_id is None:
        return _("cannot be read")
    if system_id not in system_ids():
        return _("unknown game “{game}”").format(game=system_id)
    return _(system_title(system_id))  # without importing the game (the welcome page lists every recent file)
