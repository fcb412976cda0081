"""The open encounter: its history, its file, its journal, and the undo stack over that history.

Every change goes through :meth:`EncounterDocument.apply`: the operation is worked out against the current
state (a refused operation raises :class:`~rules.errors.RulesError` and changes nothing), written to the journal
and flushed to disk (an operation the journal cannot record does not happen), committed to the history and
announced. Undo and redo are the :class:`~app.undo.HistoryStack`'s, over the history itself, so Edit →
Undo/Redo, the undo history (jumps of several steps included) and the window's modified mark follow one index;
a step the history refuses (a loaded fight whose saved history does not replay there) moves nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QObject, Signal

from app.storage import SealedDocument, collector_paused, settle_heap
from app.undo import HistoryStack
from rules.changes import Changes
from rules.encounter import Encounter
from rules.errors import RulesError
from rules.history import Entry, History, HistoryDamaged, Operation
from rules.systems.base import Reminder, RuleSystem
from rules.text import _


class Journal(Protocol):
    """Where each completed change is recorded before the UI reports it (see app.recovery)."""

    def record_operation(self, operation: Operation) -> None:
        """Append an operation and flush it to disk."""

    def record_undo(self) -> None:
        """Append an undo and flush it."""

    def record_redo(self) -> None:
        """Append a redo and flush it."""

    def restart(self, history: History, path: Path | None, unsaved: bool = False,
                sealed: SealedDocument | None = None) -> None:
        """Start over (after a save, a load, a missed step): the journal now extends this history.

        ``unsaved``: the history holds changes the file does not. ``sealed``: the bytes the history was just
        read from or saved to (the journal may copy them rather than encode the fight again).
        """

    def close(self) -> None:
        """The fight was closed normally: the journal is no longer needed."""


@dataclass(frozen=True)
class Change:
    """What a change did, for views to refresh only what they must (like Anki's ``OpChanges``).

    ``what`` names the parts that changed; ``initiator`` is whoever asked for it (a dialog passes itself to
    :meth:`EncounterDocument.apply`), so a view can tell its own change from everyone else's without a flag.
    """

    entry: Entry
    what: Changes
    undone: bool = False
    initiator: object | None = None

    @property
    def combatants(self) -> frozenset[str]:
        """Ids of combatants whose state changed."""
        return self.what.combatants

    @property
    def added(self) -> frozenset[str]:
        """Ids of combatants that joined the fight with this change (those an undone add took out are removed)."""
        return self.what.removed if self.undone else self.what.added

    @property
    def removed(self) -> frozenset[str]:
        """Ids of combatants that left the fight with this change (undoing a removal adds them back)."""
        return self.what.added if self.undone else self.what.removed

    @property
    def roster_changed(self) -> bool:
        """Combatants were added, removed or reordered."""
        return self.what.roster

    @property
    def reminders(self) -> tuple[Reminder, ...]:
        """Things to tell the GM now (never repeated on undo)."""
        return () if self.undone else self.entry.reminders

    def made_by(self, initiator: object) -> bool:
        """Whether ``initiator`` asked for this change (and so already shows its outcome)."""
        return self.initiator is not None and self.initiator is initiator


class EncounterDocument(QObject):
    """The encounter being run: state + history + file path + modified flag + journal."""

    changed = Signal(object)  # Change
    replaced = Signal()  # a whole new history (new, open, recover)
    path_changed = Signal()
    journal_failed = Signal(str)  # the autosave journal could not be written (disk full…): warn the GM
    history_damaged = Signal(str)  # undo reached a part of a loaded fight's history that does not replay

    def __init__(self, history: History, path: Path | None = None, journal: Journal | None = None,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._history = history
        self._path = path
        self._journal = journal
        self._journal_behind = False  # it missed a step: it must start over before it records the next one
        self._journal_problem: str | None = None  # why it is behind, while it is
        self.undo_stack = HistoryStack(lambda: self._history, self._back, self._forward, self)
        self.undo_stack.cleanChanged.connect(self._on_clean_changed)

    def _on_clean_changed(self, _clean: bool) -> None:
        self.path_changed.emit()

    # --- reading -------------------------------------------------------------------------------
    @property
    def history(self) -> History:
        """The fight's history (read it; change it only through :meth:`apply`)."""
        return self._history

    @property
    def state(self) -> Encounter:
        """The current state."""
        return self._history.state

    @property
    def system(self) -> RuleSystem:
        """The game being played."""
        return self._history.system

    @property
    def path(self) -> Path | None:
        """The file, or None for an encounter never saved."""
        return self._path

    @property
    def modified(self) -> bool:
        """Whether there are changes not saved to the file."""
        return not self.undo_stack.isClean()

    @property
    def journal_problem(self) -> str | None:
        """Why the journal is not being written (a crash now would lose changes), None while it is."""
        return self._journal_problem

    def title(self) -> str:
        """For the title bar: file name (or the encounter's name) with Qt's ``[*]`` modified placeholder."""
        name = self._path.stem if self._path else (self.state.name or _("Untitled encounter"))
        return f"{name}[*]"

    # --- changing ------------------------------------------------------------------------------
    def accepts(self, operation: Operation | None) -> bool:
        """Whether ``operation`` would apply to the fight now (worked out, nothing changed): e.g. whether a GM's
        override would get past a refusal, before the button for it is offered."""
        if operation is None:
            return False
        try:
            self._history.prepare(operation)
        except RulesError:
            return False
        return True

    def apply(self, operation: Operation, initiator: object | None = None) -> Change:
        """Work out, journal, then push on the undo stack (which commits and announces). RulesError: nothing happened.

        ``initiator`` (a dialog, a panel) comes back in the :class:`Change`, so it can skip its own echo.
        """
        prepared = self._history.prepare(operation)
        if self._journal is not None:  # not journaled = not safe: the change must not happen
            if self._journal_behind:
                self._restart_journal(unsaved=True)
            self._journal.record_operation(operation)
        entry = prepared.entry
        change = Change(entry, Changes.of(entry.delta), initiator=initiator)
        was_at = self._history.position
        self._history.commit(prepared)
        self.changed.emit(change)
        self.undo_stack.moved(was_at)
        return change

    def _forward(self) -> bool:
        """The undo stack's redo of one step: bring back the next undone entry, journaled and announced."""
        entry = self._history.redo()
        if entry is None:
            return False
        self._journal_step(lambda journal: journal.record_redo())
        self.changed.emit(Change(entry, Changes.of(entry.delta)))
        return True

    def _back(self) -> bool:
        """The undo stack's undo of one step; a loaded fight's saved history may refuse (it is damaged there): the
        GM is told, and nothing moves."""
        try:
            entry = self._history.undo()
        except HistoryDamaged as damage:
            self.history_damaged.emit(str(damage))
            return False
        if entry is None:
            return False
        self._journal_step(lambda journal: journal.record_undo())
        self.changed.emit(Change(entry, Changes.of(entry.delta), undone=True))
        return True

    def _journal_step(self, record: Callable[[Journal], None]) -> None:
        """An undo or redo the journal cannot record still happens (the GM asked for it); the failure is reported.

        A journal that missed a step no longer replays to this fight, so instead of recording the next step it
        starts over from the fight as it now is (and apply() does the same before it records an operation).
        """
        if self._journal is None:
            return
        try:
            if self._journal_behind:
                self._restart_journal(unsaved=True)
            else:
                record(self._journal)
        except RulesError as problem:
            self._journal_behind = True
            self._journal_problem = str(problem)
            self.journal_failed.emit(str(problem))

    def _restart_journal(self, unsaved: bool, sealed: SealedDocument | None = None) -> None:
        """A fresh journal header holding the fight as it is now (StorageError: still behind)."""
        if self._journal is not None:
            self._journal_behind = True
            try:
                self._journal.restart(self._history, self._path, unsaved, sealed)
            except RulesError as problem:
                self._journal_problem = str(problem)
                raise
            self._journal_behind = False
            self._journal_problem = None

    def start_journal(self) -> None:
        """Journal the fight as it is (a document built over a journal not yet started). A disk that refuses is
        no error: :attr:`journal_problem` says why, for whoever shows the window."""
        self._journal_anew(unsaved=False)

    def _journal_anew(self, unsaved: bool, sealed: SealedDocument | None = None) -> str | None:
        """Journal the fight anew after what already happened (a load, a restore, a save): a journal the disk
        refuses does not undo that; it starts over before the next change (:attr:`journal_problem` says why
        meanwhile). Returns the problem when the journal has just stopped working, for :meth:`_warn`."""
        was_working = self._journal_problem is None
        try:
            self._restart_journal(unsaved, sealed)
        except RulesError as problem:
            return str(problem) if was_working else None
        return None

    def _warn(self, problem: str | None) -> None:
        """Tell the GM the journal stopped working (once the fight shows what happened; once until it works)."""
        if problem is not None:
            self.journal_failed.emit(problem)

    def replace_history(self, history: History, path: Path | None, clean: bool = True,
                        sealed: SealedDocument | None = None) -> None:
        """Load another fight into this document (new, open, recover); the undo stack starts over.

        ``sealed``: the bytes of the file ``history`` was read from, when it is sealed (for the journal).
        """
        self._history = history
        self._path = path
        with collector_paused():  # the old fight goes and the new one is journaled: both big
            problem = self._journal_anew(unsaved=not clean, sealed=sealed)
        # modified even when it holds no entry (a recovered new fight): no step leads back to clean
        self.undo_stack.reset(clean)
        self.replaced.emit()
        self.path_changed.emit()
        settle_heap()
        self._warn(problem)

    def mark_saved(self, path: Path, sealed: SealedDocument | None = None) -> None:
        """The file now holds the current state (``sealed``: what saving it wrote, for the journal)."""
        self._path = path
        self.undo_stack.setClean()
        problem = self._journal_anew(unsaved=False, sealed=sealed)  # saved, whether the journal can follow or not
        self.path_changed.emit()
        self._warn(problem)

