"""A seeded monkey: random clicks, key presses and typing over the main window and every dialog it opens.

Nothing it does may raise (pytest-qt fails a test on an exception in a slot or virtual method) or make Qt warn
(``qt_log_level_fail = WARNING``). Modal dialogs would block the monkey, so their ``exec`` is replaced by one
that pokes the dialog a few times and then closes it; message boxes answer at random; file dialogs are cancelled.
``make test`` runs a short monkey on every game; ``make soak`` runs 5,000 steps.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QPoint, Qt
from PySide6.QtPrintSupport import QPrintDialog, QPrintPreviewDialog
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QDialog,
    QFileDialog,
    QLineEdit,
    QMessageBox,
    QSpinBox,
    QWidget,
)
from pytestqt.qtbot import QtBot

from app.library import Library
from app.workspace import Workspace
from rules.dice import Roller
from ui.main_window import MainWindow

# The offscreen platform cannot raise windows or hint sizes to a window manager; nothing a GM would see.
pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support (propagateSizeHints|raise)\(\)")

GAMES = ("sr3", "walka", "souboj", "institut", "clovek")
#: Actions the monkey leaves alone: quitting ends the test, and the language switch is another test's subject.
SPARED = {"quit", "preferences"}
KEYS = (Qt.Key.Key_Space, Qt.Key.Key_Tab, Qt.Key.Key_Return, Qt.Key.Key_Escape, Qt.Key.Key_Up, Qt.Key.Key_Down,
        Qt.Key.Key_Left, Qt.Key.Key_Right, Qt.Key.Key_Delete, Qt.Key.Key_Backspace, Qt.Key.Key_1, Qt.Key.Key_6,
        Qt.Key.Key_A, Qt.Key.Key_D, Qt.Key.Key_L, Qt.Key.Key_R)
TEXTS = ("3,4,6+2", "12d6 tn 5", "2d10 skill 3", "d20 under 12", "9M", "(STR+2)M", "x" * 300, "-5", "", "Ganger",
         "999999999999", "((((((((", "6d6+", "Žluťoučký kůň", "Пирамидка")
QT_OWN_DIALOGS = (QPrintDialog, QPrintPreviewDialog, QFileDialog, QMessageBox)
#: How deep a dialog opened from a dialog may nest before the monkey just closes it.
MAX_DEPTH = 3


class Monkey:
    """Seeded random input for a window and the dialogs it opens."""

    def __init__(self, window: MainWindow, seed: int) -> None:
        self.window = window
        self.random = random.Random(seed)
        self.depth = 0
        self.steps = 0

    # --- one step ----------------------------------------------------------------------------
    def step(self, target: QWidget) -> None:
        """One random thing on ``target`` (the window or an open dialog)."""
        self.steps += 1
        choice = self.random.random()
        if choice < 0.25 and target is self.window:
            self._trigger_action()
        elif choice < 0.55:
            self._click(target)
        elif choice < 0.75:
            self._key(target)
        else:
            self._edit(target)
        QApplication.processEvents()

    def _trigger_action(self) -> None:
        names = sorted(name for name, action in self.window.actions_by_name.items()
                       if name not in SPARED and action.isEnabled())
        self.window.actions_by_name[self.random.choice(names)].trigger()

    def _visible(self, target: QWidget, kind: type[QWidget]) -> list[QWidget]:
        return [widget for widget in target.findChildren(kind)
                if widget.isVisible() and widget.isEnabled() and widget.window() is target]

    def _click(self, target: QWidget) -> None:
        buttons = [b for b in self._visible(target, QAbstractButton) if b.objectName() != "qt_toolbar_ext_button"]
        if buttons:
            button = self.random.choice(buttons)
            QTest.mouseClick(button, Qt.MouseButton.LeftButton, pos=QPoint(2, 2))

    def _key(self, target: QWidget) -> None:
        focus = QApplication.focusWidget()
        receiver = focus if focus is not None and focus.window() is target else target
        QTest.keyClick(receiver, self.random.choice(KEYS))

    def _edit(self, target: QWidget) -> None:
        editors = self._visible(target, QLineEdit) + self._visible(target, QAbstractSpinBox) \
            + self._visible(target, QComboBox)
        if not editors:
            return
        editor = self.random.choice(editors)
        if isinstance(editor, QLineEdit) and not editor.isReadOnly():
            editor.setText(self.random.choice(TEXTS))
            QTest.keyClick(editor, Qt.Key.Key_Return)
        elif isinstance(editor, QSpinBox):
            editor.setValue(self.random.randint(editor.minimum(), editor.maximum()))
        elif isinstance(editor, QComboBox) and editor.count():
            editor.setCurrentIndex(self.random.randrange(editor.count()))

    # --- modal dialogs -----------------------------------------------------------------------
    def run_dialog(self, dialog: QDialog) -> int:
        """What ``exec`` does while the monkey plays: poke the dialog a while, then close it."""
        dialog.show()
        QApplication.processEvents()
        # Qt's own dialogs open further dialogs from C++ (printer properties, a file chooser), out of the monkey's
        # reach: it only opens and closes them.
        ours = not isinstance(dialog, QT_OWN_DIALOGS)
        self.depth += 1
        try:
            for _ in range(self.random.randint(0, 12) if ours and self.depth <= MAX_DEPTH else 0):
                if not dialog.isVisible():
                    break
                self.step(dialog)
        finally:
            self.depth -= 1
        if dialog.isVisible():
            dialog.reject()
        return dialog.result()

    def answer(self, *_args: object, **_kwargs: object) -> QMessageBox.StandardButton:
        """A message box's answer, at random (Yes/No/Cancel/Discard/Save), as a GM might click."""
        return self.random.choice((QMessageBox.StandardButton.Yes, QMessageBox.StandardButton.No,
                                   QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Discard,
                                   QMessageBox.StandardButton.Ok))


@pytest.fixture
def monkey_window(qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[MainWindow]:
    workspace = Workspace(roller=Roller.seeded(7), library=Library(tmp_path / "library.sqlite3"))
    window = MainWindow(workspace)
    window.resize(1366, 768)
    window.show()
    yield window
    window.document.undo_stack.setClean()
    window.close()
    window.deleteLater()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    workspace.close(keep_journal=False)


def _tame_modal_dialogs(monkeypatch: pytest.MonkeyPatch, monkey: Monkey) -> None:
    for dialog_class in (QDialog, *QT_OWN_DIALOGS):
        # A plain function, so that ``dialog.exec()`` binds the dialog to it.
        monkeypatch.setattr(dialog_class, "exec", lambda dialog: monkey.run_dialog(dialog))  # noqa: PLW0108
    for name in ("question", "warning", "information", "critical"):
        monkeypatch.setattr(QMessageBox, name, monkey.answer)
    monkeypatch.setattr(QMessageBox, "about", lambda *_args: None)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *_args, **_kwargs: ("", ""))
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *_args, **_kwargs: ("", ""))


def _play(window: MainWindow, monkeypatch: pytest.MonkeyPatch, game: str, steps: int, seed: int) -> Monkey:
    monkey = Monkey(window, seed)
    _tame_modal_dialogs(monkeypatch, monkey)
    window.workspace.open_sample(game)
    window.show_fight()
    while monkey.steps < steps:
        if not window.isVisible():  # a random Escape may have closed a page; the window itself must stay
            window.show()
        monkey.step(window)
    return monkey


@pytest.mark.parametrize("game", GAMES)
def test_a_short_monkey_breaks_nothing(monkey_window: MainWindow, monkeypatch: pytest.MonkeyPatch,
                                       game: str) -> None:
    monkey = _play(monkey_window, monkeypatch, game, steps=150, seed=GAMES.index(game))
    assert monkey.steps >= 150
    assert monkey_window.document.history is not None  # the fight is still there, whatever was clicked


@pytest.mark.soak
@pytest.mark.parametrize("game", GAMES)
def test_5000_random_steps_break_nothing(monkey_window: MainWindow, monkeypatch: pytest.MonkeyPatch,
                                         game: str) -> None:
    monkey = _play(monkey_window, monkeypatch, game, steps=5000, seed=100 + GAMES.index(game))
    assert monkey.steps >= 5000
