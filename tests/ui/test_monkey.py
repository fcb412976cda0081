"""GUI monkey: seeded random clicks, typing and key presses over the main window and every dialog it opens.

``make test`` runs 500 events, ``make soak`` 5,000. The test fails on any unhandled exception (pytest-qt
captures those raised in slots and event handlers, and ``sys.excepthook`` is watched too) and on any Qt
warning (``qt_log_level_fail = WARNING``).

Modal dialogs would block the monkey: ``QDialog.exec`` shows the dialog modally and returns at once, and
the monkey then works inside the active modal dialog (as a GM must) until it closes it (Escape, a button).
Message boxes answer with a random one of their buttons, file dialogs with a random file (a saved fight,
a sample, junk, a new name) or a cancel. The player-view window is a target like any other.
"""

from __future__ import annotations

import random
import sys
import traceback
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType
from typing import Any

import pytest
from PySide6.QtCore import QEvent, QModelIndex, QPoint, Qt
from PySide6.QtGui import QAction, QKeyEvent
from PySide6.QtPrintSupport import QPageSetupDialog, QPrintDialog, QPrintPreviewDialog
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QDialog,
    QFileDialog,
    QLineEdit,
    QMenu,
    QMessageBox,
    QTabBar,
    QToolButton,
    QWidget,
)
from pytestqt.qtbot import QtBot

from app.library import Library
from app.samples import sample_path
from app.storage import save_encounter
from app.workspace import Workspace
from rules.dice import Roller
from rules.systems import system_ids
from ui.main_window import MainWindow

# The offscreen platform cannot resize to hints, raise a window or grab the keyboard (a popup does): nothing
# a GM would see.
pytestmark = pytest.mark.qt_log_ignore(
    r"This plugin does not support (propagateSizeHints\(\)|raise\(\)|grabbing the keyboard)")

EVENTS = 500
SOAK_EVENTS = 5000
TEXTS = ("3d6+2", "12d6 tn 5", "8d10 skill 3", "d20 under 12", "5,5,6+3,1", "6", "0", "-3", "99999999", "Ganger",
         "Čestmír", "", " ", "abc", "1d", "((2d6))", "x" * 300, "\u202e", "12", "3.5")
KEYS = (Qt.Key.Key_Space, Qt.Key.Key_R, Qt.Key.Key_A, Qt.Key.Key_D, Qt.Key.Key_H, Qt.Key.Key_L, Qt.Key.Key_I,
        Qt.Key.Key_Y, Qt.Key.Key_Insert, Qt.Key.Key_Delete, Qt.Key.Key_Escape, Qt.Key.Key_Return, Qt.Key.Key_Tab,
        Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_Left, Qt.Key.Key_Right, Qt.Key.Key_Z, Qt.Key.Key_E,
        Qt.Key.Key_F9, Qt.Key.Key_1, Qt.Key.Key_5, Qt.Key.Key_PageDown, Qt.Key.Key_Home, Qt.Key.Key_Backspace)
MODIFIERS = (Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.ShiftModifier,
             Qt.KeyboardModifier.ControlModifier,
             Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
#: Menu commands the monkey leaves alone: quitting would end the test, not find a bug.
SPARED = {"&Quit"}


class Monkey:
    """Seeded random GM: picks a window (the modal dialog if one is open) and does one thing in it."""

    def __init__(self, window: MainWindow, seed: int, files: tuple[list[str], list[str]]) -> None:
        self.window, self.rng = window, random.Random(seed)
        self.to_open, self.to_save = files
        self.counts: dict[str, int] = {}

    # --- answers for the blocking parts of Qt ------------------------------------------------------
    def exec_dialog(self, dialog: QDialog) -> int:
        dialog.setModal(True)
        dialog.show()
        return int(QDialog.DialogCode.Rejected)

    def answer(self, *args: Any, **_kwargs: Any) -> QMessageBox.StandardButton:
        buttons = next((arg for arg in args[3:] if isinstance(arg, QMessageBox.StandardButton)), None)
        choices = [button for button in QMessageBox.StandardButton
                   if buttons is not None and button != QMessageBox.StandardButton.NoButton and buttons & button]
        return self.rng.choice(choices or [QMessageBox.StandardButton.Ok])

    def open_file(self, *_args: Any, **_kwargs: Any) -> tuple[str, str]:
        return self.rng.choice(self.to_open), ""

    def save_file(self, *_args: Any, **_kwargs: Any) -> tuple[str, str]:
        return self.rng.choice(self.to_save), ""

    # --- one event ---------------------------------------------------------------------------------
    def target(self) -> QWidget:
        modal = QApplication.activeModalWidget()
        if modal is not None and modal.isVisible():
            return modal
        others = [w for w in QApplication.topLevelWidgets() if w.isVisible() and not isinstance(w, QMenu)
                  and w is not self.window]
        return self.rng.choice(others) if others and self.rng.random() < 0.1 else self.window

    def step(self) -> None:
        target = self.target()
        weights = (5, 2, 3, 1 if target is self.window else 0)
        kind = self.rng.choices(("click", "type", "key", "menu"), weights=weights)[0]
        self.counts[kind] = self.counts.get(kind, 0) + 1
        {"click": self.click, "type": self.type, "key": self.key, "menu": self.menu}[kind](target)
        QApplication.processEvents()

    def _visible(self, target: QWidget, kinds: tuple[type[QWidget], ...]) -> list[Any]:
        return [w for w in target.findChildren(QWidget) if isinstance(w, kinds) and w.isVisible() and w.isEnabled()
                and w.window() is target]

    def click(self, target: QWidget) -> None:
        widgets = [w for w in self._visible(target, (QAbstractButton, QComboBox, QAbstractItemView, QTabBar,
                                                      QAbstractSpinBox)) if not _opens_a_menu(w) and not _qts_own(w)]
        if not widgets:
            return
        widget = self.rng.choice(widgets)
        if isinstance(widget, QComboBox) and widget.count():
            widget.setCurrentIndex(self.rng.randrange(widget.count()))
            widget.activated.emit(widget.currentIndex())
        elif isinstance(widget, QTabBar) and widget.count():
            widget.setCurrentIndex(self.rng.randrange(widget.count()))
        elif isinstance(widget, QAbstractItemView):
            self._click_item(widget)
        else:
            point = QPoint(self.rng.randrange(max(1, widget.width())), self.rng.randrange(max(1, widget.height())))
            QTest.mouseClick(widget, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point)

    def _click_item(self, view: QAbstractItemView) -> None:
        model = view.model()
        root = QModelIndex()
        if model is None or not model.rowCount(root):
            return
        try:
            columns = model.columnCount(root)
        except TypeError:  # list models keep columnCount private: one column
            columns = 1
        index = model.index(self.rng.randrange(model.rowCount(root)), self.rng.randrange(max(1, columns)))
        rect = view.visualRect(index)
        if rect.isValid() and view.viewport().rect().contains(rect.center()):
            clicks = QTest.mouseDClick if self.rng.random() < 0.3 else QTest.mouseClick
            clicks(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, rect.center())

    def type(self, target: QWidget) -> None:
        fields = self._visible(target, (QLineEdit, QAbstractSpinBox))
        if fields:
            field = self.rng.choice(fields)
            field.setFocus()
            QTest.keyClick(field, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
            type_text(field, self.rng.choice(TEXTS))
            if self.rng.random() < 0.5:
                QTest.keyClick(field, Qt.Key.Key_Return)

    def key(self, target: QWidget) -> None:
        widget = QApplication.focusWidget()
        if widget is None or widget.window() is not target:
            widget = target
        QTest.keyClick(widget, self.rng.choice(KEYS), self.rng.choice(MODIFIERS))

    def menu(self, target: QWidget) -> None:
        actions = [action for action in self._menu_actions(self.window.menuBar().actions())
                   if action.isEnabled() and action.text() not in SPARED]
        self.rng.choice(actions).trigger()

    def _menu_actions(self, actions: list[QAction]) -> Iterator[QAction]:
        for action in actions:
            menu = action.menu()
            if isinstance(menu, QMenu):
                menu.aboutToShow.emit()  # as when the GM opens it (the New menu names its games then)
                yield from self._menu_actions(menu.actions())
            elif not action.isSeparator():
                yield action


def _qts_own(widget: QWidget) -> bool:
    """A button of Qt's own print preview: its Print and Page setup open Qt's modal dialogs from C++, where no
    patch of ``exec`` reaches (the monkey would wait on them for ever); Qt's dialogs are not ours to test."""
    return isinstance(widget, QToolButton) and isinstance(widget.window(), QPrintPreviewDialog)


def type_text(widget: QWidget, text: str) -> None:
    """Key presses for ``text`` (QTest's own typing aborts the process on a character outside ASCII)."""
    for char in text:
        if char.isascii() and char.isprintable():
            QTest.keyClick(widget, char)  # type: ignore[call-overload]  # (the stubs miss the char overload)
        else:
            for kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
                event = QKeyEvent(kind, Qt.Key.Key_unknown, Qt.KeyboardModifier.NoModifier, char)
                QApplication.sendEvent(widget, event)


def files_for_the_monkey(tmp_path: Path) -> tuple[list[str], list[str]]:
    """What the patched file dialogs answer (to open; to save): saved fights of each game, the shipped samples
    (to open only: they must never be overwritten), junk, new names, missing folders, and cancel ("")."""
    from app.storage import load_encounter

    saved = []
    for system_id in system_ids():
        copy = tmp_path / f"saved-{system_id}.bojovka"
        save_encounter(load_encounter(sample_path(system_id)), copy)
        saved.append(str(copy))
    junk = tmp_path / "junk.bojovka"
    junk.write_bytes(b"\x00not a fight")
    elsewhere = [str(junk), str(tmp_path / "new.bojovka"), str(tmp_path / "roster.json"),
                 str(tmp_path / "missing" / "nowhere.bojovka")]
    samples = [str(sample_path(system_id)) for system_id in system_ids()]
    return ["", "", *saved, *samples, *elsewhere], ["", *saved, *elsewhere]


def run_monkey(qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, events: int, seed: int) -> Monkey:
    samples_before = {sample_path(system_id): sample_path(system_id).read_bytes() for system_id in system_ids()}
    workspace = Workspace(roller=Roller.seeded(seed), library=Library(tmp_path / "library.sqlite3"))
    window = MainWindow(workspace)
    monkey = Monkey(window, seed, files_for_the_monkey(tmp_path))
    unhandled: list[str] = []

    def hook(kind: type[BaseException], error: BaseException, trace: TracebackType | None) -> None:
        unhandled.append("".join(traceback.format_exception(kind, error, trace)))

    monkeypatch.setattr(sys, "excepthook", hook)
    # A plain function, not the bound method: it becomes a method of every dialog (the dialog is its argument).
    monkeypatch.setattr(QDialog, "exec", lambda dialog: monkey.exec_dialog(dialog))  # noqa: PLW0108
    for dialog_class in (QPrintDialog, QPageSetupDialog):  # their bindings have an exec of their own
        monkeypatch.setattr(dialog_class, "exec", lambda _dialog: int(QDialog.DialogCode.Rejected))
    for name in ("question", "warning", "information", "critical", "about"):
        monkeypatch.setattr(QMessageBox, name, monkey.answer)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", monkey.open_file)
    monkeypatch.setattr(QFileDialog, "getSaveFileName", monkey.save_file)
    workspace.open_sample("sr3")
    window.show_fight()
    window.show()
    for _event in range(events):
        monkey.step()
    assert not unhandled, f"{len(unhandled)} unhandled exceptions, the first:\n{unhandled[0]}"
    assert all(path.read_bytes() == shipped for path, shipped in samples_before.items())  # never written
    for widget in QApplication.topLevelWidgets():
        if widget is not window and widget.isVisible():
            widget.close()
    window.document.undo_stack.setClean()
    window.close()
    window.deleteLater()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    return monkey


def test_500_random_events(qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkey = run_monkey(qtbot, tmp_path, monkeypatch, EVENTS, seed=8)
    assert sum(monkey.counts.values()) == EVENTS and len(monkey.counts) == 4


@pytest.mark.soak
def test_5000_random_events(qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkey = run_monkey(qtbot, tmp_path, monkeypatch, SOAK_EVENTS, seed=88)
    assert sum(monkey.counts.values()) == SOAK_EVENTS


def test_a_closed_dialog_is_gone_and_follows_no_other_fight(qtbot: QtBot, tmp_path: Path) -> None:
    """Every dialog the window runs is deleted once closed (the monkey, which runs them without blocking,
    found closed Walka attack dialogs alive and raising on every change of the SR3 fight opened next)."""
    from PySide6.QtCore import QTimer

    workspace = Workspace(roller=Roller.seeded(2), library=Library(tmp_path / "library.sqlite3"))
    window = MainWindow(workspace)
    workspace.open_sample("walka")
    window.show_fight()
    window.show()
    closed: list[str] = []

    def close_it() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, QDialog)
        closed.append(type(dialog).__name__)
        dialog.reject()

    fight = window.fight
    for command in (fight.on_attack, fight.on_damage, fight.on_roll_initiative, fight.on_encounter_settings):
        QTimer.singleShot(0, close_it)
        command()  # the real, blocking exec
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    assert closed == ["WalkaAttackDialog", "HarmDialog", "RollInitiativeDialog", "EncounterSettingsDialog"]
    assert window.findChildren(QDialog) == []
    workspace.open_sample("sr3")
    window.session.next_turn()  # no dialog left behind to object
    window.session.harm(next(iter(window.document.state.combatants)), "stun", 1)
    window.document.undo_stack.setClean()
    window.close()


def _opens_a_menu(widget: QWidget) -> bool:
    """A button whose click runs a menu in Qt's own event loop (the toolbar's overflow "»", a tool button with a
    menu): the monkey's click would wait there for ever. Menus are exercised through the menu bar instead."""
    from PySide6.QtWidgets import QToolButton

    return isinstance(widget, QToolButton) and (widget.menu() is not None
                                                or widget.objectName() == "qt_toolbar_ext_button")
