"""Operating-system locks: who is alive is decided by the OS, which drops a lock when its process dies.

``flock`` on POSIX, ``msvcrt.locking`` on Windows. Lock files also record the owner's pid, host and start time,
for the GM's warning and as a fallback where a file system has no locks: then a POSIX owner is alive while
``os.kill(pid, 0)`` finds its pid on this host, and on Windows (where ``os.kill`` would terminate the process)
or another host a lock counts as alive until it is a day old.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import socket
import sys
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Final

from app.i18n import _
from app.paths import journals_dir
from app.storage import StorageError, os_reason, write_all

LOCK_SUFFIX: Final[str] = ".lock"
#: Where no OS lock can be checked, a lock this old is taken to be left behind.
STALE_AFTER: Final[timedelta] = timedelta(days=1)


def now() -> datetime:
    """The local time, with its zone (lock owners and journals record it)."""
    return datetime.now().astimezone()


# --- operating-system locks ---------------------------------------------------------------------

if sys.platform == "win32":
    import msvcrt

    # msvcrt locks are mandatory: lock one byte far beyond the owner text so others can still read it.
    _WINDOWS_LOCK_OFFSET: Final[int] = 1 << 30

    def _os_lock(fd: int, shared: bool) -> bool | None:
        """Lock ``fd`` without waiting: True locked, False held by someone else, None not supported."""
        del shared  # msvcrt has exclusive locks only; a probe takes and drops one
        os.lseek(fd, _WINDOWS_LOCK_OFFSET, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError as error:
            if error.errno in (errno.EACCES, errno.EDEADLK):
                return False
            return None
        return True

    def _os_unlock(fd: int) -> None:
        os.lseek(fd, _WINDOWS_LOCK_OFFSET, os.SEEK_SET)
        with contextlib.suppress(OSError):
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)

else:
    import fcntl

    def _os_lock(fd: int, shared: bool) -> bool | None:
        """Lock ``fd`` without waiting: True locked, False held by someone else, None not supported."""
        try:
            fcntl.flock(fd, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        except OSError as error:
            if error.errno in (errno.EAGAIN, errno.EACCES):
                return False
            return None  # ENOLCK, EOPNOTSUPP…: this file system keeps no locks
        return True

    def _os_unlock(fd: int) -> None:
        with contextlib.suppress(OSError):
            fcntl.flock(fd, fcntl.LOCK_UN)


@dataclass(frozen=True)
class LockOwner:
    """Who holds a lock: for the GM's warning ("open in another Bojovka since 21:04")."""

    pid: int
    host: str
    since: datetime | None

    def describe(self) -> str:
        """A sentence fragment naming the owner, in the GM's language."""
        if self.since is None:
            return _("Bojovka (process {pid}) on {host}").format(pid=self.pid, host=self.host or "?")
        return _("Bojovka (process {pid}) on {host}, since {time}").format(
            pid=self.pid, host=self.host or "?", time=self.since.strftime("%Y-%m-%d %H:%M"))


def _me() -> LockOwner:
    return LockOwner(os.getpid(), socket.gethostname(), now())


def _owner_to_text(owner: LockOwner) -> str:
    since = owner.since.isoformat(timespec="seconds") if owner.since else None
    return json.dumps({"pid": owner.pid, "host": owner.host, "since": since})


def _owner_from_text(text: str) -> LockOwner | None:
    try:
        data = json.loads(text)
        since = datetime.fromisoformat(data["since"]) if isinstance(data.get("since"), str) else None
        pid, host = data["pid"], data["host"]
    except (ValueError, TypeError, KeyError, AttributeError):
        return None
    if isinstance(pid, bool) or not isinstance(pid, int) or not isinstance(host, str):
        return None
    return LockOwner(pid, host, since)


def _read_owner(fd: int) -> LockOwner | None:
    os.lseek(fd, 0, os.SEEK_SET)
    return _owner_from_text(os.read(fd, 4096).decode("utf-8", "replace"))


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)  # signal 0: only asks whether the process exists (POSIX)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: it exists but belongs to someone else
        return True
    return True


def _presumed_alive(owner: LockOwner | None, lock_file: Path) -> bool:
    """The fallback when no OS lock can be checked (see the module docstring)."""
    if owner is not None and os.name == "posix" and owner.host == socket.gethostname():
        return _pid_alive(owner.pid)
    since = owner.since if owner is not None and owner.since is not None else None
    if since is None:
        try:
            since = datetime.fromtimestamp(lock_file.stat().st_mtime).astimezone()
        except OSError:
            return False
    return now() - since < STALE_AFTER


class FileLock:
    """A lock file held by one running process; a lock whose process died is stale and is taken over."""

    def __init__(self, lock_file: Path) -> None:
        self.lock_file = lock_file
        self._fd: int | None = None
        self._owner: LockOwner | None = None

    @property
    def held(self) -> bool:
        """Whether this object holds the lock."""
        return self._fd is not None

    def acquire(self) -> bool:
        """Take the lock (True), or leave it to the live process holding it (False). Never waits."""
        if self._fd is not None:
            return True
        for _attempt in range(5):
            created, fd = self._open()
            locked = _os_lock(fd, shared=False)
            # Without OS locks, a lock file just created here is ours; one that was there is someone's, or stale.
            if locked is False or (locked is None and not created
                                   and _presumed_alive(_read_owner(fd), self.lock_file)):
                os.close(fd)
                return False
            if not self._still_linked(fd):  # the previous owner deleted it while we opened it: try again
                self._close(fd)
                continue
            try:
                self._write_owner(fd)
            except OSError as error:
                self._close(fd)
                raise StorageError(_("Cannot write the lock file “{file}”: {reason}.").format(
                    file=self.lock_file, reason=os_reason(error)), self.lock_file) from error
            self._fd = fd
            return True
        return False

    def _open(self) -> tuple[bool, int]:
        """The lock file, open for reading and writing, and whether it was created by this call."""
        flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_BINARY", 0)
        try:
            try:
                return True, os.open(self.lock_file, flags | os.O_EXCL, 0o644)
            except FileExistsError:
                return False, os.open(self.lock_file, flags, 0o644)
        except OSError as error:
            raise StorageError(_("Cannot create the lock file “{file}”: {reason}.").format(
                file=self.lock_file, reason=os_reason(error)), self.lock_file) from error

    def _write_owner(self, fd: int) -> None:
        self._owner = _me()
        os.ftruncate(fd, 0)
        os.lseek(fd, 0, os.SEEK_SET)
        write_all(fd, _owner_to_text(self._owner).encode("utf-8"))

    def _still_linked(self, fd: int) -> bool:
        try:
            return os.path.samestat(os.fstat(fd), os.stat(self.lock_file))
        except OSError:
            return False

    @staticmethod
    def _close(fd: int) -> None:
        _os_unlock(fd)
        os.close(fd)

    def release(self) -> None:
        """Give the lock up and delete the lock file."""
        fd, self._fd, self._owner = self._fd, None, None
        if fd is None:
            return
        if os.name == "nt":  # Windows cannot delete a file that is still open
            self._close(fd)
            with contextlib.suppress(OSError):
                self.lock_file.unlink()
            return
        # POSIX: unlink while still locked, so nobody can lock the old file and think it is current.
        with contextlib.suppress(OSError):
            self.lock_file.unlink()
        self._close(fd)

    def owner(self) -> LockOwner | None:
        """The live holder of the lock (this process included), or None when it is free or stale."""
        if self._fd is not None:
            return self._owner
        try:
            fd = os.open(self.lock_file, os.O_RDWR | getattr(os, "O_BINARY", 0))
        except OSError:
            return None
        try:
            locked = _os_lock(fd, shared=True)
            if locked:
                _os_unlock(fd)
                return None
            owner = _read_owner(fd)
            if locked is None and not _presumed_alive(owner, self.lock_file):
                return None
            return owner or LockOwner(0, "", None)
        finally:
            os.close(fd)


def _same_file(one: Path, other: Path) -> bool:
    """Whether two paths name one file (a hard link or a symbolic link to it included)."""
    try:
        return os.path.samefile(one, other)
    except OSError:  # one of them does not exist (yet): compare the names
        return os.path.normcase(os.path.abspath(one)) == os.path.normcase(os.path.abspath(other))


class EncounterLock(FileLock):
    """Marks an encounter file as open in this Bojovka, so that another window opening it is warned.

    Two locks. The lock file in the journals folder, named by a hash of the file's full path, says who holds it
    (for the warning). The OS lock on the encounter file itself is what a Bojovka with another data folder
    (``BOJOVKA_HOME``) meets as well, and what a hard link or a symbolic link to the file leads to: it belongs to
    the file, not to a name or a data folder. Saving puts a new file in place of the old one (see
    app.storage), so :meth:`after_save` moves that lock to the new file.
    """

    def __init__(self, path: Path, directory: Path | None = None) -> None:
        key = hashlib.sha256(os.path.normcase(str(path.resolve())).encode("utf-8")).hexdigest()[:32]
        super().__init__((directory or journals_dir()) / f"encounter-{key}{LOCK_SUFFIX}")
        self.path = path
        self._file: int | None = None  # the encounter file itself, open and locked

    def acquire(self) -> bool:
        """Take both locks (True), or neither when another Bojovka has the file open (False). Never waits."""
        if self.held:
            return True
        if not super().acquire():
            return False
        if not self._lock_the_file():
            super().release()
            return False
        return True

    def _lock_the_file(self) -> bool:
        """Lock the file now at :attr:`path`: False while another process holds it."""
        try:
            fd = os.open(self.path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
        except OSError:
            return True  # not there yet (Save as a new name), or unreadable: saving or opening says why
        locked = _os_lock(fd, shared=False)
        if not locked:
            os.close(fd)
            return locked is None  # None: a file system without locks (the check before saving still guards)
        self._file = fd
        return True

    def _let_go_of_the_file(self) -> None:
        fd, self._file = self._file, None
        if fd is not None:
            _os_unlock(fd)
            os.close(fd)

    def guards(self, path: Path) -> bool:
        """Whether this lock is for the file ``path`` names (under whatever name)."""
        return _same_file(self.path, path)

    def before_save(self) -> None:
        """Windows cannot put a new file in place of one that is open: the file's own lock waits for the save."""
        if os.name == "nt":
            self._let_go_of_the_file()

    def after_save(self) -> None:
        """The file was saved (or the save failed): hold the lock of the file now at :attr:`path`."""
        if self._file is not None:
            try:
                if os.path.samestat(os.fstat(self._file), os.stat(self.path)):
                    return  # the very file still (the save failed before replacing it)
            except OSError:
                pass
        old, self._file = self._file, None
        self._lock_the_file()  # the instant after the rename another process may have taken it: saving checks too
        if old is not None:
            _os_unlock(old)
            os.close(old)

    def release(self) -> None:
        """Give both locks up."""
        self._let_go_of_the_file()
        super().release()
