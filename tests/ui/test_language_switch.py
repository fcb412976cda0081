"""Switching the language rebuilds the window in it at once: menus, headers and old log lines, the fight kept."""

from __future__ import annotations

import gettext
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QLocale
from PySide6.QtWidgets import QApplication, QDialog
from pytestqt.qtbot import QtBot

from app.i18n import DOMAIN, install_language
from app.library import Library
from app.paths import resource
from app.workspace import Workspace
from rules.combatants import AddCombatant
from rules.dice import Roller
from rules.encounter import Side
from ui.actions import Menu
from ui.dialogs.preferences import PreferencesDialog
from ui.main_window import MainWindow
from ui.models.initiative_model import Column
from ui.shell import Shell

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")

LANGUAGES = ("cs", "pl", "ru")


@pytest.fixture
def shell(qtbot: QtBot, tmp_path: Path) -> Iterator[Shell]:
    workspace = Workspace(roller=Roller.seeded(5), library=Library(tmp_path / "library.sqlite3"))
    made = Shell(workspace)
    workspace.new("sr3", "Warehouse")
    workspace.document.apply(AddCombatant("twitch", "Twitch", Side.PLAYER, {"reaction": 9, "initiative_dice": 3}))
    made.window.show_fight()
    made.window.show()
    yield made
    install_language("en")
    made.window.document.undo_stack.setClean()
    made.window.close()
    made.window.deleteLater()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    workspace.close(keep_journal=False)


def _catalog(code: str) -> gettext.GNUTranslations:
    return gettext.translation(DOMAIN, localedir=str(resource("locale")), languages=[code])


def _menu_titles(window: MainWindow) -> list[str]:
    return [action.text() for action in window.menuBar().actions()]


def _choose_in_preferences(monkeypatch: pytest.MonkeyPatch, code: str) -> None:
    def accept(dialog: PreferencesDialog) -> int:
        dialog.language.setCurrentIndex(dialog.language.findData(code))
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(PreferencesDialog, "exec", accept)


@pytest.mark.parametrize("code", LANGUAGES)
def test_menus_and_log_switch_language_at_once(shell: Shell, monkeypatch: pytest.MonkeyPatch, code: str) -> None:
    catalog = _catalog(code)
    old = shell.window
    _choose_in_preferences(monkeypatch, code)
    old.actions_by_name["preferences"].trigger()
    window = shell.window
    assert window is not old
    assert _menu_titles(window) == [catalog.gettext(menu.value) for menu in Menu]
    assert all(title != menu.value for title, menu in zip(_menu_titles(window), Menu, strict=True))
    header = window.initiative_model.headerData(Column.NAME, orientation=window.table.horizontalHeader().orientation())
    assert header == catalog.gettext("Name")
    joined = catalog.gettext("{name} joins the fight.").format(name="Twitch")
    assert joined != "Twitch joins the fight."
    lines = [window.log_model.index(row, 0).data() for row in range(window.log_model.rowCount())]
    assert joined in lines  # a line logged in English before the switch now reads in the new language
    assert QLocale().name().startswith(code)
    assert window.workspace.settings.language == code


def test_the_fight_survives_the_switch(shell: Shell, monkeypatch: pytest.MonkeyPatch) -> None:
    document = shell.window.document
    before = document.state
    _choose_in_preferences(monkeypatch, "cs")
    shell.window.actions_by_name["preferences"].trigger()
    assert shell.window.document is document
    assert document.state == before
    assert document.undo_stack.canUndo()
    shell.window.actions_by_name["next_turn"].trigger()  # the new window drives the same fight
    assert shell.window.isVisible()


def test_cancel_changes_nothing(shell: Shell, monkeypatch: pytest.MonkeyPatch) -> None:
    old = shell.window
    monkeypatch.setattr(PreferencesDialog, "exec", lambda dialog: QDialog.DialogCode.Rejected)
    old.actions_by_name["preferences"].trigger()
    assert shell.window is old
    assert shell.workspace.settings.language == "en"


@pytest.mark.parametrize(("code", "cancel"), [("cs", "Zrušit"), ("pl", "Anuluj"), ("ru", "Отмена")])
def test_qt_own_dialogs_follow_the_language(qtbot: QtBot, code: str, cancel: str) -> None:
    from PySide6.QtCore import QCoreApplication

    try:
        install_language(code)
        assert QCoreApplication.translate("QPlatformTheme", "Cancel") == cancel
    finally:
        install_language("en")
    assert QCoreApplication.translate("QPlatformTheme", "Cancel") == "Cancel"
