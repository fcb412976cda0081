"""The commands that change how Bojovka looks and speaks (theme, preferences) and the Help menu's."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDialog, QMessageBox

from app.i18n import _
from rules.systems import system_ids, system_title
from ui.theme import apply_theme

if TYPE_CHECKING:
    from ui.main_window import MainWindow


class PreferenceCommands:
    """Theme and language, kept in the settings; a language switch is the window's to carry out."""

    def __init__(self, window: MainWindow) -> None:
        self._window = window

    def on_theme_system(self) -> None:
        self.set_theme("system")

    def on_theme_light(self) -> None:
        self.set_theme("light")

    def on_theme_dark(self) -> None:
        self.set_theme("dark")

    def follow_the_desktop(self) -> None:
        """The desktop switched light/dark: follow it when the GM chose "follow the system"."""
        if self._window.workspace.settings.theme == "system":
            apply_theme(_application(), "system")

    def set_theme(self, theme: str) -> None:
        """Show ``theme`` now and remember it."""
        apply_theme(_application(), theme)
        self._window.workspace.update_settings(theme=theme)

    def on_preferences(self) -> None:
        from ui.dialogs.preferences import PreferencesDialog

        workspace = self._window.workspace
        dialog = PreferencesDialog(workspace.settings, self._window)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return
        self.set_theme(dialog.chosen_theme())
        if dialog.chosen_language() != workspace.settings.language:
            workspace.update_settings(language=dialog.chosen_language())
            self._window.language_chosen.emit(dialog.chosen_language())

    def on_keyboard_shortcuts(self) -> None:
        from ui.dialogs.shortcuts import ShortcutsDialog

        dialog = ShortcutsDialog(self._window)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.show()  # not modal: the GM can keep it open beside the fight

    def on_about(self) -> None:
        QMessageBox.about(self._window, _("About Bojovka"), _(
            "Bojovka — an offline combat tracker for tabletop game masters.\n"
            "Games: {games}.").format(games=", ".join(_(system_title(s)) for s in system_ids())))


def _application() -> QApplication:
    application = QApplication.instance()
    assert isinstance(application, QApplication)
    return application
