"""The application's working set: settings, the open fight, its journal, files and the library.

Opening, saving, starting and recovering fights are application services here, so the window's slots
only call them and show what they return or raise (StorageError / RulesError messages for the GM).
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
from pathlib import Path
from typing import TYPE_CHECKING

from app.disk_changes import FileVersion, changed_on_disk, stamp_of
from app.document import EncounterDocument
from app.i18n import _
from app.locks import EncounterLock
from app.paths import ENCOUNTER_SUFFIX, documents_dir
from app.recovery import Journal, RecoveryCandidate, discard, find_recoverable, recover
from app.samples import sample_path
from app.session import FightSession
from app.settings import Settings, load_settings, save_settings, with_recent_file
from app.storage import SealedDocument, StorageError, open_encounter, peek_system_id, save_encounter
from rules.dice import Roller
from rules.encounter import Side
from rules.history import History, new_history
from rules.systems import system_ids

if TYPE_CHECKING:  # the library (SQLite, the merge rules) is imported when first used, not at start-up
    from app.library import Library, LibraryEntry

log = logging.getLogger(__name__)


def _shipped_sample(path: Path) -> str | None:
    """The game whose shipped sample ``path`` is, or None."""
    for system_id in system_ids():
        sample = sample_path(system_id)
        with contextlib.suppress(OSError):
            if sample.is_file() and path.is_file() and path.samefile(sample):
                return system_id
    return None


def _first_game(settings: Settings) -> str:
    """The game of the placeholder fight the workspace starts with: the last encounter's (read from its first
    bytes), so that opening it at start-up imports no other game (issue 14); else the GM's default game."""
    last = settings.last_encounter
    game = peek_system_id(Path(last)) if last else None
    return game if game in system_ids() else settings.default_system


def _open_elsewhere(path: Path, lock: EncounterLock) -> StorageError:
    """Why ``path`` cannot be opened here: another Bojovka has it open (named when its lock file says who)."""
    owner = lock.owner()
    if owner is None:  # it holds the file itself: under another name, or with another data folder
        return StorageError(_("{file} is open in another Bojovka window (perhaps under another name, or with "
                              "another data folder). Close it there first.").format(file=path.name), path)
    return StorageError(_("{file} is open in another Bojovka window ({owner}). Close it there first.")
                        .format(file=path.name, owner=owner.describe()), path)


class Workspace:
    """Settings + the open encounter document + its journal + the roster/bestiary library."""

    def __init__(self, settings: Settings | None = None, roller: Roller | None = None,
                 library: Library | None = None) -> None:
        self.settings = settings or load_settings()
        history = new_history(_first_game(self.settings))
        self.journal = Journal()
        self.document = EncounterDocument(history, None, self.journal)
        self.document.start_journal()  # a full disk is no crash at start: the window tells the GM (journal_problem)
        self.session = FightSession(self.document, roller)
        self._library = library
        self._lock: EncounterLock | None = None
        self._on_disk: FileVersion | None = None  # the open file as last read or written here

    @property
    def library(self) -> Library:
        """The roster/bestiary database, opened on first use (keeps start-up fast)."""
        if self._library is None:
            from app.library import Library

            self._library = Library()
        return self._library

    # --- starting and opening ------------------------------------------------------------------
    def new(self, system_id: str, name: str = "") -> None:
        """An empty encounter of a game."""
        self._release()
        self.document.replace_history(new_history(system_id, name), None)

    def start_new(self, system_id: str) -> None:
        """A new encounter the GM asked for: its game becomes the default (the next Ctrl+N starts one too)."""
        self.new(system_id)
        if system_id != self.settings.default_system:
            self.remember(default_system=system_id)

    def open(self, path: Path) -> None:
        """Load an encounter file; on StorageError the current fight is untouched.

        A shipped sample chosen in the Open dialog opens as from the welcome page, as a copy: Save asks for a new
        file (Ctrl+S wrote over the sample, and the next GM's sample was someone's half-played fight)."""
        shipped = _shipped_sample(path)
        if shipped is not None:
            self.open_sample(shipped)
            return
        stamp = stamp_of(path)  # before reading: a write while reading shows at the next save
        history, sealed = open_encounter(path)
        self._hold(self._lock_for(path))
        self._on_disk = FileVersion.of(stamp, sealed)
        self.document.replace_history(history, path, sealed=sealed)
        self._remember(path)

    def _lock_for(self, path: Path) -> EncounterLock:
        """The lock of ``path`` (the one held already when it is the file open here); StorageError when another
        Bojovka has it open."""
        if self._lock is not None and self._lock.guards(path):
            self._lock.path = path  # the name it goes by now: a save puts the new file there
            return self._lock
        lock = EncounterLock(path)
        if not lock.acquire():
            raise _open_elsewhere(path, lock)
        return lock

    def _hold(self, lock: EncounterLock | None) -> None:
        """``lock`` is now the one of the open file (the previous one, if another, is given up)."""
        if self._lock is not None and self._lock is not lock:
            self._lock.release()
        self._lock = lock
        if lock is None:
            self._on_disk = None

    def open_sample(self, system_id: str) -> None:
        """A copy of a game's sample fight (saving asks for a new file; the sample stays pristine)."""
        history, sealed = open_encounter(sample_path(system_id))
        self._release()
        self.document.replace_history(history, None, sealed=sealed)

    def open_last_or_sample(self) -> None:
        """What start-up shows: the last encounter if it still opens, else the sample of the GM's default game."""
        last = self.settings.last_encounter
        if last and Path(last).is_file():
            try:
                self.open(Path(last))
                return
            except StorageError:
                pass  # a moved or damaged last file must not block start-up; the sample opens instead
        self.open_sample(self.settings.default_system)

    # --- saving --------------------------------------------------------------------------------
    def save(self, path: Path | None = None, overwrite: bool = False) -> Path:
        """Save to ``path`` (or the current file); returns where it was saved.

        Refused (StorageError) onto a file another Bojovka has open, and (FileChangedOnDisk) over the open file
        when someone else wrote it since it was opened or saved here, unless ``overwrite``.
        """
        target = path or self.document.path
        if target is None:
            raise StorageError(_("Choose a file name first."))
        if target.suffix != ENCOUNTER_SUFFIX:
            target = target.with_name(target.name + ENCOUNTER_SUFFIX)
        lock = self._lock_for(target)
        try:
            if lock is self._lock and self._on_disk is not None and not overwrite and self._on_disk.changed(target):
                raise changed_on_disk(target)
            sealed = self._write(target, lock)
        except BaseException:
            if lock is not self._lock:
                lock.release()
            raise
        self._hold(lock)
        self.document.mark_saved(target, sealed)
        self._remember(target)
        return target

    def _write(self, target: Path, lock: EncounterLock) -> SealedDocument | None:
        """Write the fight to ``target``, its lock following the new file; remember what is on disk now."""
        lock.before_save()
        try:
            sealed = save_encounter(self.document.history, target)
        finally:
            lock.after_save()
        self._on_disk = FileVersion.of(stamp_of(target), sealed)
        return sealed

    # --- the roster and bestiary ---------------------------------------------------------------
    def keep_in_library(self, combatant_id: str) -> LibraryEntry:
        """Save a combatant of the fight: player characters to the roster, everyone else to the bestiary."""
        from app.library import EntryKind, from_combatant

        combatant = self.document.state.combatant(combatant_id)
        kind = EntryKind.PC if combatant.side is Side.PLAYER else EntryKind.NPC
        return self.library.add(from_combatant(combatant, kind, self.document.system.id))

    def export_library(self, path: Path) -> int:
        """Write this game's roster and bestiary to a JSON file; returns how many entries."""
        entries = self.library.search(system_id=self.document.system.id)
        self.library.export_json(entries, path)
        return len(entries)

    def import_library(self, path: Path) -> int:
        """Merge the entries of a JSON file in (all or none); returns how many were added or updated."""
        return self.library.import_json(path).changes

    # --- crash recovery ------------------------------------------------------------------------
    def recoverable(self) -> list[RecoveryCandidate]:
        """Fights left unsaved by a crash or power cut (journals with nothing unsaved are tidied away)."""
        offered = []
        for candidate in find_recoverable():
            if candidate.worth_offering:
                offered.append(candidate)
            elif candidate.problem is None:
                discard(candidate)  # a clean exit that could not delete it: nothing would be lost
        return offered

    def recover(self, candidate: RecoveryCandidate) -> str | None:
        """Restore a fight from its journal (marked modified: it has unsaved changes); returns a note for the GM
        when its file is open in another Bojovka (the fight is then restored as a copy: saving asks for a name).

        The journal carries on in the candidate's own file: restoring rewrites it whole, atomically, with the
        fight restored (what Redo brings back and "unsaved" included), so it is offered again after another crash
        even if the GM does nothing, and a crash at any moment leaves exactly one journal of it.
        """
        history: History = recover(candidate)
        self.journal.take_over(candidate.journal)
        path, note = self._reclaim(candidate.file)
        self.document.replace_history(history, path, clean=False)
        return note

    def _reclaim(self, file: Path | None) -> tuple[Path | None, str | None]:
        """The file a restored fight belongs to, now locked here; None, and why, when another Bojovka has it open."""
        if file is None:
            self._release()
            return None, None
        try:
            self._hold(self._lock_for(file))
        except StorageError:
            self._release()
            return None, _("“{file}” is open in another Bojovka window, so the fight is restored as a copy: save it "
                           "under another name (saving over that file would overwrite what the other window "
                           "saves).").format(file=file.name)
        self._on_disk = FileVersion.of(stamp_of(file), None)  # not read here: any later write is someone else's
        return file, None

    def discard(self, candidate: RecoveryCandidate) -> None:
        """Throw a leftover journal away (the GM said no)."""
        discard(candidate)

    # --- settings and shutdown -----------------------------------------------------------------
    def update_settings(self, **changes: object) -> None:
        """Change settings and save them at once."""
        self.settings = dataclasses.replace(self.settings, **changes)  # type: ignore[arg-type]
        save_settings(self.settings)

    def clear_recent_files(self) -> None:
        """Forget the recent files (File → Open recent → Clear list); the files themselves stay."""
        self.update_settings(recent_files=())

    def remember(self, **changes: object) -> None:
        """Change settings that are conveniences (where dialogs start, the default game, a window's place):
        a disk that refuses them is logged, never an error that stops what the GM was doing."""
        try:
            self.update_settings(**changes)
        except StorageError as problem:
            log.warning("settings: could not remember %s: %s", ", ".join(changes), problem)

    def start_directory(self) -> Path:
        """Where a file dialog opens: the folder of the last file the GM chose there, else the documents."""
        last = self.settings.last_directory
        return Path(last) if last and Path(last).is_dir() else documents_dir()

    def chose_file(self, path: Path) -> None:
        """The GM chose ``path`` in a file dialog: the next dialog starts in its folder."""
        folder = str(path.absolute().parent)
        if folder != self.settings.last_directory:
            self.remember(last_directory=folder)

    def _remember(self, path: Path) -> None:
        """The file opened or saved is the last and most recent one; a disk that refuses the settings does not
        make the open or the save fail (it happened)."""
        self.settings = dataclasses.replace(with_recent_file(self.settings, path), last_encounter=str(path))
        try:
            save_settings(self.settings)
        except StorageError as problem:
            log.warning("settings: could not remember %s: %s", path, problem)

    def _release(self) -> None:
        self._hold(None)

    def close(self, keep_journal: bool) -> None:
        """Quit: the journal is deleted only when nothing unsaved is left in it."""
        if not keep_journal:
            self.journal.close()
        self._release()
