"""Every shortcut of the main window is bound once, on every desktop's key bindings; Ctrl+Shift+Z redoes.

Qt refuses a key sequence bound twice in one window, even twice to one action: it prints "Ambiguous shortcut
overload" and the key does nothing. Redo was Ctrl+Shift+Z plus the desktop's Redo, which on macOS and plain X11
is Ctrl+Shift+Z again. The offscreen platform has Windows' bindings, so the tests also build the window with
X11's (through ``ui.actions.platform_bindings``, which every shortcut of the window asks).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMenu, QToolBar
from pytestqt.qtbot import QtBot

from rules.combatants import AddCombatant
from rules.encounter import Side
from tests.ui.conftest import WindowFactory
from ui import actions
from ui.main_window import MainWindow

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")

StandardKey = QKeySequence.StandardKey
#: Qt's bindings for the X11 keyboard scheme (KDE and GNOME add Ctrl+Y to Redo; macOS has Ctrl+Shift+Z alone).
X11: dict[StandardKey, list[QKeySequence]] = {
    StandardKey.Undo: [QKeySequence("Ctrl+Z"), QKeySequence(Qt.Key.Key_Undo)],
    StandardKey.Redo: [QKeySequence("Ctrl+Shift+Z"), QKeySequence(Qt.Key.Key_Redo)],
}
MAC: dict[StandardKey, list[QKeySequence]] = {StandardKey.Redo: [QKeySequence("Ctrl+Shift+Z")]}


def desktop(bindings: dict[StandardKey, list[QKeySequence]]) -> Callable[[StandardKey], list[QKeySequence]]:
    real = actions.platform_bindings
    return lambda key: list(bindings[key]) if key in bindings else real(key)


@pytest.fixture(params=["offscreen", "x11", "mac"])
def window(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, open_window: WindowFactory) -> MainWindow:
    if request.param == "x11":
        monkeypatch.setattr(actions, "platform_bindings", desktop(X11))
    elif request.param == "mac":
        monkeypatch.setattr(actions, "platform_bindings", desktop(MAC))
    return open_window("walka", "Night Market")


def _menu_actions(menu: QMenu) -> Iterable[QAction]:
    for action in menu.actions():
        yield action
        submenu = action.menu()
        if isinstance(submenu, QMenu):
            yield from _menu_actions(submenu)


def every_action(window: MainWindow) -> list[QAction]:
    """The window's actions, its menus' (submenus too), its toolbars' and any other QAction under it."""
    found: list[QAction] = [*window.actions(), *window.findChildren(QAction)]
    for top in window.menuBar().actions():
        found.append(top)
        menu = top.menu()
        if isinstance(menu, QMenu):
            found.extend(_menu_actions(menu))
    for toolbar in window.findChildren(QToolBar):
        found.extend(toolbar.actions())
    unique: dict[int, QAction] = {}
    for action in found:
        unique.setdefault(id(action), action)
    return list(unique.values())


def bound_keys(window: MainWindow) -> list[tuple[str, str]]:
    """(key sequence, whose) for every shortcut of every action and QShortcut of the window."""
    keys = [(sequence.toString(), action.objectName() or action.text())
            for action in every_action(window) for sequence in action.shortcuts()]
    keys += [(shortcut.key().toString(), type(shortcut.parent()).__name__)
             for shortcut in window.findChildren(QShortcut)]
    return keys


def test_every_shortcut_of_the_window_is_bound_once(window: MainWindow) -> None:
    keys = bound_keys(window)
    assert len(keys) > 30  # the File, Fight and View menus, Undo/Redo, New encounter: the collection found them
    counts = Counter(key for key, _owner in keys)
    twice = {key: [owner for bound, owner in keys if bound == key] for key, count in counts.items() if count > 1}
    assert not twice


def test_the_redo_shortcuts(window: MainWindow) -> None:
    redo = [sequence.toString() for sequence in window.actions_by_name["redo"].shortcuts()]
    assert redo[0] == "Ctrl+Shift+Z"  # the one the Edit menu shows
    assert len(redo) == len(set(redo))


def test_ctrl_shift_z_redoes(window: MainWindow, qtbot: QtBot) -> None:
    window.show()
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    window.document.apply(AddCombatant("c-ania", "Ania", Side.PLAYER))
    window.actions_by_name["undo"].trigger()
    assert not window.document.state.combatants
    window.table.setFocus()
    QTest.keyClick(window.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert [c.name for c in window.document.state.combatants.values()] == ["Ania"]
