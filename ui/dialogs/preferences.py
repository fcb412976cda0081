"""Preferences: the language and the theme, applied at once (the window is rebuilt in the new language)."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QDialog, QDialogButtonBox, QFormLayout, QLabel, QVBoxLayout, QWidget

from app.i18n import LANGUAGES, NP_, _, pgettext
from app.settings import Settings

#: Theme value → its label (the values are the Settings' theme literals). "Light" is also a damage level, so
#: the labels have their own context.
THEMES: dict[str, str] = {"system": NP_("theme", "Follow the system"), "light": NP_("theme", "Light"),
                          "dark": NP_("theme", "Dark")}


class PreferencesDialog(QDialog):
    """Choose the language (each shown in its own language) and the theme."""

    def __init__(self, settings: Settings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(_("Preferences"))
        self.language = QComboBox()
        self.language.setObjectName("language")
        for code, name in LANGUAGES.items():
            self.language.addItem(name, code)
        self.language.setCurrentIndex(max(0, self.language.findData(settings.language)))
        self.theme = QComboBox()
        self.theme.setObjectName("theme")
        for value, label in THEMES.items():
            self.theme.addItem(pgettext("theme", label), value)
        self.theme.setCurrentIndex(max(0, self.theme.findData(settings.theme)))
        note = QLabel(_("A new language applies at once; open dialogs close first."))
        note.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form = QFormLayout()
        form.addRow(_("&Language:"), self.language)
        form.addRow(_("&Theme:"), self.theme)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(note)
        layout.addWidget(buttons)

    def chosen_language(self) -> str:
        """The language code picked."""
        return str(self.language.currentData())

    def chosen_theme(self) -> str:
        """The theme value picked."""
        return str(self.theme.currentData())
