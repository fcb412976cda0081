"""Translations: one gettext catalog for the rules, app and ui layers, and Qt's own for its dialogs.

Every layer calls ``_()`` / ``ngettext()`` (re-exported here from :mod:`rules.text`); this module installs
the catalog of the chosen language there and a ``QTranslator`` for Qt's standard dialogs (file, print).
Catalogs live in ``resources/locale/<lang>/LC_MESSAGES/bojovka.mo``; English is the source language.
"""

from __future__ import annotations

import gettext
from typing import Final

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from app.paths import resource
from rules import text
from rules.text import N_, NN_, NP_, _, ngettext, pgettext

__all__ = ["LANGUAGES", "NN_", "NP_", "N_", "_", "install_language", "ngettext", "pgettext"]

DOMAIN: Final[str] = "bojovka"
#: Language code → its own name (shown in its own language in the settings).
LANGUAGES: Final[dict[str, str]] = {"en": "English", "cs": "Čeština", "pl": "Polski", "ru": "Русский"}

_qt_translator: QTranslator | None = None


def install_language(code: str) -> str:
    """Install ``code``'s catalogs (falling back to English) and return the code actually used."""
    code = code if code in LANGUAGES else "en"
    catalog = gettext.translation(DOMAIN, localedir=str(resource("locale")), languages=[code], fallback=True)
    text.install(catalog)
    QLocale.setDefault(QLocale(code))
    _install_qt_translator(code)
    return code


def _install_qt_translator(code: str) -> None:
    global _qt_translator  # noqa: PLW0603  (one translator per application, replaced on switch)
    application = QCoreApplication.instance()
    if application is None:
        return
    if _qt_translator is not None:
        application.removeTranslator(_qt_translator)
        _qt_translator = None
    if code == "en":
        return
    translator = QTranslator(application)
    if translator.load(f"qtbase_{code}", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
        application.installTranslator(translator)
        _qt_translator = translator
