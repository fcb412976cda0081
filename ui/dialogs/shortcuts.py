"""Help → Keyboard shortcuts: every shortcut of the window, menu by menu, read from the window's own actions.

Nothing here lists a key by hand: the rows come from the QActions the menus hold (so a new command, or a
changed key, shows up by itself), then any other action of the window that has a key, then the player view's.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from PySide6.QtGui import QAction, QFont, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QMainWindow,
    QMenu,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.i18n import _
from ui.actions import COMMAND_NAME
from ui.widgets.player_view import own_shortcuts

_MNEMONIC = re.compile(r"&(.)")


def plain(text: str) -> str:
    """A menu text without its mnemonic marks ("Save &as…" → "Save as…"; "&&" stays one "&")."""
    return _MNEMONIC.sub(r"\1", text)


def command_name(action: QAction) -> str:
    """What the list calls ``action``: its fixed name if it has one, else its menu text, without mnemonics."""
    name = action.property(COMMAND_NAME)
    return plain(name if isinstance(name, str) and name else action.text())


def keys_text(action: QAction) -> str:
    """Every key of ``action``, as the menus show them on this system."""
    texts = (sequence.toString(QKeySequence.SequenceFormat.NativeText) for sequence in action.shortcuts())
    return ", ".join(dict.fromkeys(text for text in texts if text))  # a standard key may repeat one given


@dataclass(frozen=True)
class ShortcutGroup:
    """One menu's commands that have keys: (command, keys)."""

    title: str
    rows: tuple[tuple[str, str], ...]


def _menu_rows(menu: QMenu, seen: set[QAction], path: str = "") -> Iterator[tuple[str, str]]:
    menu.aboutToShow.emit()  # submenus filled or named when they open (New encounter's games) are made current
    for action in menu.actions():
        if action.isSeparator() or not action.isVisible():  # a command this game does not have
            continue
        submenu = action.menu()
        if isinstance(submenu, QMenu):
            yield from _menu_rows(submenu, seen, f"{path}{plain(submenu.title())} → ")
            continue
        if not action.shortcut().isEmpty() and action not in seen:
            seen.add(action)
            yield f"{path}{command_name(action)}", keys_text(action)


def shortcut_groups(window: QMainWindow) -> list[ShortcutGroup]:
    """The window's shortcuts grouped by menu, in menu-bar order; then the rest of its actions; then the
    player view's own."""
    seen: set[QAction] = set()
    groups = []
    for top in window.menuBar().actions():
        menu = top.menu()
        if isinstance(menu, QMenu):
            rows = tuple(_menu_rows(menu, seen))
            if rows:
                groups.append(ShortcutGroup(plain(menu.title()), rows))
    others = tuple((command_name(action), keys_text(action)) for action in window.findChildren(QAction)
                   if not action.shortcut().isEmpty() and action.isVisible() and action not in seen)
    if others:
        groups.append(ShortcutGroup(_("Elsewhere in the window"), others))
    view = tuple((text, keys.toString(QKeySequence.SequenceFormat.NativeText)) for text, keys in own_shortcuts())
    groups.append(ShortcutGroup(_("Player view"), view))
    return groups


class ShortcutsDialog(QDialog):
    """A two-column list of every shortcut: command and keys, under the menu that holds the command."""

    def __init__(self, window: QMainWindow, parent: QWidget | None = None) -> None:
        super().__init__(parent or window)
        self.setWindowTitle(_("Keyboard shortcuts"))
        self.tree = QTreeWidget()
        self.tree.setColumnCount(2)
        self.tree.setHeaderLabels([_("Command"), _("Keys")])
        self.tree.setRootIsDecorated(False)
        self.tree.setAlternatingRowColors(True)
        self.tree.setUniformRowHeights(True)
        self.groups = shortcut_groups(window)
        self._fill()
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tree, 1)
        layout.addWidget(buttons)
        self.resize(self._fitting_width(), min(720, window.height()))

    def _fill(self) -> None:
        bold = QFont(self.font())
        bold.setBold(True)
        for group in self.groups:
            heading = QTreeWidgetItem(self.tree, [group.title])
            heading.setFont(0, bold)
            heading.setFirstColumnSpanned(True)
            for command, keys in group.rows:
                QTreeWidgetItem(heading, [command, keys])
        self.tree.expandAll()
        header = self.tree.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)

    def _fitting_width(self) -> int:
        """Wide enough for the longest command and its keys, without a horizontal scroll bar."""
        return self.tree.sizeHintForColumn(0) + self.tree.sizeHintForColumn(1) + 80

    def rows(self) -> list[tuple[str, str, str]]:
        """(menu, command, keys) for every line of the list."""
        result = []
        for number in range(self.tree.topLevelItemCount()):
            heading = self.tree.topLevelItem(number)
            assert heading is not None
            for row in range(heading.childCount()):
                line = heading.child(row)
                assert line is not None
                result.append((heading.text(0), line.text(0), line.text(1)))
        return result
