"""The open encounter: its history, its file, its journal, bridged to Qt's undo stack.

Every change goes through :meth:`EncounterDocument.apply`: the operation is applied to the history (a
refused operation raises :class:`~rules.errors.RulesError` and changes nothing), written to the journal
and flushed to disk, and only then pushed on the ``QUndoStack`` and announced. Edit → Undo/Redo, the undo
view and the window's modified mark are Qt's own, driven by the stack's clean state.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

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

    def restart(self, history: History, path: Path | None) -> None:
        """Start over after a save or a load: the journal now extends this history."""

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


class _HistoryCommand(QUndoCommand):
    """One history entry on Qt's undo stack; the operation was already applied when it is pushed."""

    def __init__(self, document: EncounterDocument, entry: Entry) -> None:
        super().__init__(_command_text(entry))
        # A weak reference: a strong one would make document → stack → command → document a cycle that
        # the garbage collector tears down in an order Qt's undo stack does not survive.
        self._document = weakref.ref(document)
        self._pushed = False
        self._refused = False

    def redo(self) -> None:
        if not self._pushed or self._refused:  # pushed: already in the history; refused: it never left it
            self._pushed, self._refused = True, False
            return
        document = self._document()
        if document is not None:
            document._redo()

    def undo(self) -> None:
        document = self._document()
        if document is not None and not document._undo():
            # Qt's stack cannot refuse an undo: step it forward again once it has finished this one.
            self._refused = True
            QTimer.singleShot(0, document.undo_stack.redo)


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
        self.undo_stack = QUndoStack(self)
        self._fill_stack()
        self.undo_stack.setClean()
        self.undo_stack.cleanChanged.connect(self._on_clean_changed)

    def _on_clean_changed(self, _clean: bool) -> None:
        self.path_changed.emit()

    def _fill_stack(self) -> None:
        """One command per entry already in the history, so undo reaches back past a load."""
        for entry in self._history.entries:
            self.undo_stack.push(_HistoryCommand(self, entry))

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
        """Apply, journal, push on the undo stack, announce. RulesError: nothing happened.

        ``initiator`` (a dialog, a panel) comes back in the :class:`Change`, so it can skip its own echo.
        """
        entry = self._history.do(operation)
        if self._journal is not None:
            try:
                self._journal.record_operation(operation)
            except RulesError:
                self._history.retract()  # not journaled = not safe: the change must not happen
                raise
        self.undo_stack.push(_HistoryCommand(self, entry))
        change = Change(entry, Changes.of(entry.delta), initiator=initiator)
        self.changed.emit(change)
        return change

    def _undo(self) -> bool:
        """Undo in the history; False when a loaded fight's saved history refuses (it is damaged there)."""
        try:
            entry = self._history.undo()
        except HistoryDamaged as damage:
            self.history_damaged.emit(str(damage))
            return False
        if entry is None:
            return True
        self._journal_step(lambda journal: journal.record_undo())
        self.changed.emit(Change(entry, Changes.of(entry.delta), undone=True))
        return True

    def _redo(self) -> None:
        entry = self._history.redo()
        if entry is None:
            return
        self._journal_step(lambda journal: journal.record_redo())
        self.changed.emit(Change(entry, Changes.of(entry.delta)))

    def _journal_step(self, record: Callable[[Journal], None]) -> None:
        """Undo and redo come from Qt's stack and cannot be refused; a failed write is reported instead."""
        if self._journal is None:
            return
        try:
            record(self._journal)
        except RulesError as problem:
            self.journal_failed.emit(str(problem))

    def replace_history(self, history: History, path: Path | None, clean: bool = True) -> None:
        """Load another fight into this document (new, open, recover); the undo stack starts over."""
        self._history = history
        self._path = path
        self.undo_stack.clear()
        self._fill_stack()
        if clean:
            self.undo_stack.setClean()
        if self._journal is not None:
            self._journal.restart(history, path)
        self.replaced.emit()
        self.path_changed.emit()

    def mark_saved(self, path: Path) -> None:
        """The file now holds the current state."""
        self._path = path
        self.undo_stack.setClean()
        if self._journal is not None:
            self._journal.restart(self._history, path)
        self.path_changed.emit()

