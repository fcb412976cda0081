"""Whether an encounter file changed on disk since this Bojovka last read or wrote it.

Before Save writes over the file that is open, the workspace asks whether someone else wrote it meanwhile: a
Bojovka where no lock reaches (a file system without locks, another computer over a share), a sync tool, an
editor. Saving over that would lose their change without a word; the GM is asked instead.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from app.i18n import _
from app.storage import MAX_FILE_BYTES, SealedDocument, StorageError, read_limited, sealed_checksum

#: What the file system says of a file: device, inode, size and last modification (ns). Any write changes it.
Stamp = tuple[int, int, int, int]


class FileChangedOnDisk(StorageError):
    """Saving would write over changes someone else made to the file since it was opened or saved here."""


def stamp_of(path: Path) -> Stamp | None:
    """``path``'s stamp now, None when it cannot be read (gone, no permission)."""
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns


@dataclass(frozen=True)
class FileVersion:
    """An encounter file as this Bojovka last read or wrote it."""

    stamp: Stamp
    checksum: bytes | None  # a sealed file's own checksum (its content); None for a file not sealed

    @classmethod
    def of(cls, stamp: Stamp | None, sealed: SealedDocument | None) -> FileVersion | None:
        """The version whose stamp is ``stamp`` (taken *before* reading, so a write while reading shows later)
        and whose bytes were ``sealed`` (None: not sealed, or not read)."""
        return None if stamp is None else cls(stamp, sealed.checksum if sealed is not None else None)

    def changed(self, path: Path) -> bool:
        """Whether ``path`` now holds something else than this version.

        A file rewritten with the same content (a sync tool, another Bojovka saving the same fight) is the same
        when both are sealed with the same checksum. A file that is gone is not changed: saving writes it anew.
        """
        now = stamp_of(path)
        if now is None or now == self.stamp:
            return False
        if self.checksum is None:
            return True
        try:
            data = read_limited(path, MAX_FILE_BYTES)
        except StorageError:
            return True
        return sealed_checksum(data) != self.checksum


def changed_on_disk(path: Path) -> FileChangedOnDisk:
    """The error that stops a save over someone else's change (the window offers a copy or overwriting)."""
    return FileChangedOnDisk(_("“{file}” was changed on disk since you opened or last saved it: another Bojovka "
                               "window or another program wrote it. Saving now would overwrite those changes.")
                             .format(file=path.name), path)
