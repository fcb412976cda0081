"""The open encounter: its history, its file, its journal, bridged to Qt's undo stack.

Every change goes through :meth:`EncounterDocument.apply`: the operation is worked out against the current
state (a refused operation raises :class:`~rules.errors.RulesError` and changes nothing), written to the journal
and flushed to disk (an operation the journal cannot record does not happen), then pushed on the
``QUndoStack`` as a command whose ``redo()`` commits it to the history and announces it. Undo and redo are the
commands' own ``undo()`` and ``redo()``, so Edit → Undo/Redo, the undo view (jumps of several steps included)
and the window's modified mark are Qt's own, driven by the stack's index and clean state.

The command below the stack's index always holds the history's last entry. A command acts on its own entry
only, when the history is right next to it, so pushing the entries of a loaded fight (already in effect) does
nothing, and when the history refuses an undo (a loaded fight whose saved history does not replay) the stack
moves back to where the history stands within the same call.
"""

from __future__ import annotations

import contextlib
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from app.storage import SealedDocument, collector_paused, settle_heap
from rules.changes import Changes
from rules.encounter import Encounter
from rules.errors import RulesError
from rules.history import Entry, History, HistoryDamaged, Operation, Prepared
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


def _command_text(entry: Entry) -> str:
    """What Edit → Undo says: a batch's own label ("Ganger ×3"), else the entry's first log line."""
    return entry.label or (entry.log[0].render() if entry.log else _("Change"))


class _EntryCommand(QUndoCommand):
    """One entry of the history on Qt's undo stack: redo puts it in effect, undo takes it out.

    A command acts on its own entry only, and only when the history is right next to it: redo when the entry
    is the history's next redo (or is a new operation prepared against the current state, which it commits),
    undo when it is the history's last entry. Otherwise it does nothing: the entries of a loaded fight are
    pushed already in effect, and after a refused undo the stack steps back over commands whose entries never
    left the history.
    """

    def __init__(self, document: EncounterDocument, entry: Entry, prepared: Prepared | None = None,
                 announce: Change | None = None) -> None:
        # A loaded fight's commands are named when shown (see name()): naming 10,000 of them decoded every
        # entry's log on opening, the slowest part of it.
        super().__init__(_command_text(entry) if prepared is not None else "")
        self.named = prepared is not None
        # A weak reference: a strong one would make document → stack → command → document a cycle that
        # the garbage collector tears down in an order Qt's undo stack does not survive.
        self._document = weakref.ref(document)
        self.entry = entry
        self._prepared = prepared  # a new operation, worked out and journaled, until redo() commits it
        self._announce = announce

    def redo(self) -> None:
        document = self._document()
        if document is not None:
            document._forward(self.entry, self._prepared, self._announce)
        # Committed (or never to be): the history owns the states now, and a later redo is asked for by the
        # undo stack, not by whoever applied the operation (nor should the command keep that dialog alive).
        self._prepared = self._announce = None

    def undo(self) -> None:
        document = self._document()
        if document is not None:
            document._back(self.entry)

    def name(self) -> str:
        """The command's text, worked out the first time it is asked for."""
        if not self.named:
            self.setText(_command_text(self.entry))
            self.named = True
        return self.text()


def step_text(stack: QUndoStack, slot: int) -> str:
    """What the undo history shows for the command in ``slot`` (named on demand)."""
    command = stack.command(slot)
    return command.name() if isinstance(command, _EntryCommand) else command.text() if command else ""


def _entry_of(stack: QUndoStack, slot: int) -> Entry | None:
    """The entry of the command in ``slot`` (None below the first)."""
    command = stack.command(slot) if slot >= 0 else None
    return command.entry if isinstance(command, _EntryCommand) else None


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
        self.undo_stack = QUndoStack(self)
        self.undo_stack.indexChanged.connect(self._keep_in_step)
        self._fill_stack()
        self.undo_stack.setClean()
        self.undo_stack.cleanChanged.connect(self._on_clean_changed)

    def __del__(self) -> None:
        """Empty the undo stack while every command's Python side is still alive.

        A document dropped inside a reference cycle (a traceback that holds the frame that held it) is torn
        down by the garbage collector, which clears the Python side of objects in any order: the stack, deleted
        with the document, then freed commands whose Python side was already gone and the interpreter crashed.
        Finalisers run before anything in the cycle is cleared, so the commands go here, cleanly.
        """
        with contextlib.suppress(RuntimeError):  # the C++ side may be gone already (the application quit)
            self.undo_stack.blockSignals(True)  # nothing is told: the document is going
            self.undo_stack.clear()

    def _on_clean_changed(self, _clean: bool) -> None:
        self.path_changed.emit()

    def _fill_stack(self) -> None:
        """One command per entry already in the history, so undo reaches back past a load.

        Each push finds its entry in effect already, so it does nothing: opening a long fight replays nothing.
        The stack stays quiet until the last push, which tells the views and actions once (the stack's signals
        carry its state, not each step's), and the commands stay unnamed until shown.
        """
        stack, entries = self.undo_stack, self._history.entries
        quiet = stack.blockSignals(True)
        try:
            for entry in entries[:-1]:
                stack.push(_EntryCommand(self, entry))
        finally:
            stack.blockSignals(quiet)
        if entries:
            stack.push(_EntryCommand(self, entries[-1]))

    def _keep_in_step(self, index: int) -> None:
        """Qt's stack cannot refuse a step: after one the history refused, go back to where the history stands.

        In step, the command below the index holds the history's last entry. After a refused undo that command
        is at or above the index; the commands stepped over to get back above it do nothing (their entries
        never left the history), so this only moves the index, within the same call.
        """
        stack, last = self.undo_stack, self._history.last_done
        if _entry_of(stack, index - 1) is not last:
            for slot in range(index, stack.count()):  # empty while the stack is being filled: the index is on top
                if _entry_of(stack, slot) is last:
                    stack.setIndex(slot + 1)
                    return
        # Edit → Undo and Redo name the commands either side of the index: the stack tells them right after this.
        for slot in (index - 1, index):
            if 0 <= slot < stack.count():
                step_text(stack, slot)

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

    def title(self) -> str:
        """For the title bar: file name (or the encounter's name) with Qt's ``[*]`` modified placeholder."""
        name = self._path.stem if self._path else (self.state.name or _("Untitled encounter"))
        return f"{name}[*]"

    # --- changing ------------------------------------------------------------------------------
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
        self.undo_stack.push(_EntryCommand(self, entry, prepared, change))
        return change

    def _forward(self, entry: Entry, prepared: Prepared | None, announce: Change | None) -> None:
        """A command's redo: bring back an undone entry, or commit a new operation prepared against this state."""
        history = self._history
        if history.next_redo is entry:
            history.redo()
            self._journal_step(lambda journal: journal.record_redo())
        elif prepared is not None and prepared.before is history.state:
            history.commit(prepared)  # journaled by apply()
        else:
            return  # already in effect: a loaded fight's entry, or one a refused undo left in place
        self.changed.emit(announce if announce is not None else Change(entry, Changes.of(entry.delta)))

    def _back(self, entry: Entry) -> None:
        """A command's undo; a loaded fight's saved history may refuse (it is damaged there): the GM is told."""
        history = self._history
        if history.last_done is not entry:
            return  # an undo before it in the same jump was refused: the entry stays, like the history
        try:
            history.undo()
        except HistoryDamaged as damage:
            self.history_damaged.emit(str(damage))
            return
        self._journal_step(lambda journal: journal.record_undo())
        self.changed.emit(Change(entry, Changes.of(entry.delta), undone=True))

    def _journal_step(self, record: Callable[[Journal], None]) -> None:
        """Undo and redo come from Qt's stack and cannot be refused; a failed write is reported instead.

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
            self.journal_failed.emit(str(problem))

    def _restart_journal(self, unsaved: bool, sealed: SealedDocument | None = None) -> None:
        """A fresh journal header holding the fight as it is now (StorageError: still behind)."""
        if self._journal is not None:
            self._journal_behind = True
            self._journal.restart(self._history, self._path, unsaved, sealed)
            self._journal_behind = False

    def replace_history(self, history: History, path: Path | None, clean: bool = True,
                        sealed: SealedDocument | None = None) -> None:
        """Load another fight into this document (new, open, recover); the undo stack starts over.

        ``sealed``: the bytes of the file ``history`` was read from, when it is sealed (for the journal).
        """
        self._history = history
        self._path = path
        with collector_paused():  # the old fight's commands go, the new one's come and it is journaled: all big
            self.undo_stack.clear()
            self._fill_stack()
            if clean:
                self.undo_stack.setClean()
            else:
                self.undo_stack.resetClean()  # modified even when it holds no entry (a recovered new fight)
            self._restart_journal(unsaved=not clean, sealed=sealed)
        self.replaced.emit()
        self.path_changed.emit()
        settle_heap()

    def mark_saved(self, path: Path, sealed: SealedDocument | None = None) -> None:
        """The file now holds the current state (``sealed``: what saving it wrote, for the journal)."""
        self._path = path
        self.undo_stack.setClean()
        self._restart_journal(unsaved=False, sealed=sealed)
        self.path_changed.emit()

