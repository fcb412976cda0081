"""The fight's undo stack: the history's own entries, done and undone, offered with Qt's ``QUndoStack`` API.

Qt's stack needed one ``QUndoCommand`` per entry: opening a 10,000-step fight made 10,000 Python commands
(~40 ms, a quarter of opening it), and as Qt's stack cannot refuse a step, a refused undo had to be walked back
afterwards. Here the history is the stack: the index is how many entries are in effect, the count adds the
undone ones Redo would bring back, and a step the history refuses moves nothing. Each step is named when it is
shown (Edit → Undo, the undo history), so a loaded fight's log lines are decoded only for the rows on screen.

The signals and their order are Qt's, so menus, actions and views follow it as they followed Qt's stack.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Signal, SignalInstance
from PySide6.QtGui import QAction

from rules.history import Entry, History
from rules.text import _

#: The clean index of a stack that can no longer return to its saved state (Qt's -1).
UNREACHABLE = -1


def step_name(entry: Entry) -> str:
    """What Edit → Undo says: a batch's own label ("Ganger ×3"), else the entry's first log line."""
    return entry.label or (entry.log[0].render() if entry.log else _("Change"))


class HistoryStack(QObject):
    """Undo and redo over a history, told by the document when it moves (:meth:`moved`, :meth:`reset`).

    ``history`` gives the history now (a document replaces it on opening); ``back`` and ``forward`` take one
    step and say whether the history took it (a damaged saved history may refuse an undo).
    """

    indexChanged = Signal(int)
    cleanChanged = Signal(bool)
    canUndoChanged = Signal(bool)
    canRedoChanged = Signal(bool)
    undoTextChanged = Signal(str)
    redoTextChanged = Signal(str)

    def __init__(self, history: Callable[[], History], back: Callable[[], bool], forward: Callable[[], bool],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._history = history
        self._back = back
        self._forward = forward
        self._clean = self.index()
        self._clean_shown = True  # what cleanChanged last told (a replaced history is compared with it)

    # --- reading ---------------------------------------------------------------------------------
    def index(self) -> int:
        """How many steps are in effect (the row of the current step in the undo history)."""
        return self._history().position

    def count(self) -> int:
        """Every step: those in effect and those Redo would bring back."""
        history = self._history()
        return history.position + history.redo_count

    def canUndo(self) -> bool:  # Qt's names: the stack stands in for QUndoStack
        return self.index() > 0

    def canRedo(self) -> bool:
        return self._history().redo_count > 0

    def text(self, slot: int) -> str:
        """The name of the step in ``slot`` (0 the oldest), "" outside the stack."""
        entry = self._history().step(slot)
        return "" if entry is None else step_name(entry)  # a loaded entry decodes its log once, when first named

    def undoText(self) -> str:
        return self.text(self.index() - 1)

    def redoText(self) -> str:
        return self.text(self.index())

    def isClean(self) -> bool:
        return self.index() == self._clean

    def cleanIndex(self) -> int:
        return self._clean

    # --- moving ----------------------------------------------------------------------------------
    def undo(self) -> None:
        self.setIndex(self.index() - 1)

    def redo(self) -> None:
        self.setIndex(self.index() + 1)

    def setIndex(self, index: int) -> None:
        """Step back or forward to ``index``, stopping where the history refuses a step."""
        start = self.index()
        target = max(0, min(index, self.count()))
        while self.index() > target and self._back():
            pass
        while self.index() < target and self._forward():
            pass
        if self.index() != start:
            self._announce()

    def moved(self, was_at: int) -> None:
        """A new step went on at ``was_at``: the steps that were undone there are gone, the saved one with them."""
        if self._clean > was_at:
            self._clean = UNREACHABLE
        self._announce()

    def reset(self, clean: bool) -> None:
        """Another history (new, open, recover): clean at its end, or modified with no way back to clean."""
        self._clean = self.index() if clean else UNREACHABLE
        self._announce()

    def setClean(self) -> None:
        """The fight as it stands now is saved."""
        self._clean = self.index()
        self._tell_clean()

    # --- actions ---------------------------------------------------------------------------------
    def createUndoAction(self, parent: QObject, prefix: str) -> QAction:
        """Edit → Undo: "prefix step", enabled while there is a step to undo."""
        return self._action(parent, prefix, self.canUndo, self.undoText, self.canUndoChanged,
                            self.undoTextChanged, self.undo)

    def createRedoAction(self, parent: QObject, prefix: str) -> QAction:
        """Edit → Redo, likewise."""
        return self._action(parent, prefix, self.canRedo, self.redoText, self.canRedoChanged,
                            self.redoTextChanged, self.redo)

    @staticmethod
    def _action(parent: QObject, prefix: str, enabled: Callable[[], bool], text: Callable[[], str],
                enabled_changed: SignalInstance, text_changed: SignalInstance, run: Callable[[], None]) -> QAction:
        action = _StepAction(prefix, parent)
        action.show_step(text())
        action.setEnabled(enabled())
        # Bound to the action's own methods: Qt drops the connections when the action goes (a window closed
        # before its document), as it does for QUndoStack's actions.
        enabled_changed.connect(action.setEnabled)
        text_changed.connect(action.show_step)
        action.triggered.connect(run)
        return action

    # --- inside ----------------------------------------------------------------------------------
    def _announce(self) -> None:
        """Qt's signals after a move, in Qt's order (the texts name the steps either side of the index)."""
        self.indexChanged.emit(self.index())
        self.canUndoChanged.emit(self.canUndo())
        self.undoTextChanged.emit(self.undoText())
        self.canRedoChanged.emit(self.canRedo())
        self.redoTextChanged.emit(self.redoText())
        self._tell_clean()

    def _tell_clean(self) -> None:
        if self.isClean() != self._clean_shown:
            self._clean_shown = self.isClean()
            self.cleanChanged.emit(self._clean_shown)


class _StepAction(QAction):
    """Edit → Undo or Redo: its prefix, then the name of the step it would take ("&Undo Ganger 1 joins the fight.")."""

    def __init__(self, prefix: str, parent: QObject) -> None:
        super().__init__(parent)
        self._prefix = prefix

    def show_step(self, name: str) -> None:
        self.setText(f"{self._prefix} {name}" if name else self._prefix)
