"""The shell owns the main window and rebuilds it when the GM switches the language.

Every text in the window is set when a widget is built, so the surest way to show all of it in the new
language is to build the window again over the same workspace (the fight, its history and the undo stack
live there, untouched) and carry over the layout, the page and the selection.
"""

from __future__ import annotations

from PySide6.QtCore import QObject

from app.i18n import install_language
from app.workspace import Workspace
from ui.main_window import MainWindow


class Shell(QObject):
    """Holds the current main window."""

    def __init__(self, workspace: Workspace) -> None:
        super().__init__()
        self.workspace = workspace
        self.window = self._adopt(MainWindow(workspace))

    def _adopt(self, window: MainWindow) -> MainWindow:
        window.language_chosen.connect(self.switch_language)
        return window

    def switch_language(self, code: str) -> None:
        """Install ``code``'s catalogs and replace the window with one built in that language."""
        install_language(code)
        old = self.window
        new = self._adopt(MainWindow(self.workspace))
        new.restoreGeometry(old.saveGeometry())
        new.restoreState(old.saveState())
        new.pages.setCurrentIndex(old.pages.currentIndex())
        selected = old.table.selected_id()
        if selected is not None:
            new.table.select_combatant(selected)
        player_view_open = old.player_view is not None and old.player_view.isVisible()
        if old.isVisible():
            new.show()
        old.retire()
        old.deleteLater()
        self.window = new
        if player_view_open:
            new.open_player_view()
