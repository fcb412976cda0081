"""The window reads and keeps the settings that spare the GM a step: the default game for Ctrl+N (the game
of the last encounter they started) and the folder the file dialogs start in.

(The player view's place is in tests/ui/test_player_view.py.)
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QFileDialog
from pytestqt.qtbot import QtBot

from app.paths import documents_dir
from app.settings import Settings, load_settings, save_settings
from rules.combatants import AddCombatant
from rules.encounter import Side
from rules.systems import system_ids
from tests.ui.conftest import WindowFactory
from ui.main_window import MainWindow

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")


def press_ctrl_n(window: MainWindow, qtbot: QtBot) -> None:
    window.show()
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    QTest.keyClick(window.table, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)


def ctrl_n_game(window: MainWindow) -> list[str]:
    """The games whose New encounter entry has the shortcut."""
    return [system_id for system_id, action in window.new_actions.items()
            if action.shortcut().toString() == "Ctrl+N"]


# --- Ctrl+N and the default game ---------------------------------------------------------------------


@pytest.mark.parametrize("game", ["walka", "institut"])
def test_ctrl_n_starts_an_encounter_of_the_default_game(game: str, open_window: WindowFactory,
                                                        qtbot: QtBot) -> None:
    save_settings(Settings(default_system=game))  # what an earlier run left
    window = open_window(sample="souboj")
    press_ctrl_n(window, qtbot)
    assert window.document.system.id == game
    assert not window.document.state.combatants  # a new encounter, not the sample
    assert ctrl_n_game(window) == [game]  # and the New encounter menu shows it


def test_the_game_the_gm_started_last_becomes_the_default(open_window: WindowFactory, qtbot: QtBot) -> None:
    window = open_window("sr3")
    assert ctrl_n_game(window) == [Settings().default_system]
    window.new_actions["souboj"].trigger()  # File → New encounter → Soubojový systém
    assert window.document.system.id == "souboj"
    assert window.workspace.settings.default_system == "souboj"
    assert load_settings().default_system == "souboj"  # for the next run too
    assert ctrl_n_game(window) == ["souboj"]  # the menu shows where Ctrl+N goes now
    window.document.apply(AddCombatant("c-ania", "Ania", Side.PLAYER))
    window.document.undo_stack.setClean()  # nothing to ask about
    press_ctrl_n(window, qtbot)
    assert window.document.system.id == "souboj" and not window.document.state.combatants
    window.welcome_page().new_requested.emit("clovek")  # the welcome page's New encounter button
    assert load_settings().default_system == "clovek" and ctrl_n_game(window) == ["clovek"]
    assert set(window.new_actions) == set(system_ids())


def test_a_restart_keeps_the_default_game(open_window: WindowFactory) -> None:
    first = open_window("sr3")
    first.new_actions["walka"].trigger()
    again = open_window()
    assert again.document.system.id == "walka"  # the fresh encounter at start-up is of that game too
    assert ctrl_n_game(again) == ["walka"]


# --- the folder the file dialogs start in --------------------------------------------------------------

Dialog = Callable[[MainWindow, Path], Path]  # prepares what the GM picks in ``folder``; returns it


def _open(window: MainWindow, folder: Path) -> Path:
    window.workspace.new("walka")
    window.document.apply(AddCombatant("c-ania", "Ania", Side.PLAYER))
    # A file of its own: one another window has open is locked (and would be refused with a message box).
    saved = window.workspace.save(folder / f"ambush-{len(list(folder.glob('*.bojovka')))}.bojovka")
    window.workspace.new("sr3")
    return saved


def _save_as(window: MainWindow, folder: Path) -> Path:
    # A name of its own: saving as a file another window has open is refused (with a message box).
    return folder / f"ambush-{len(list(folder.glob('*.bojovka')))}.bojovka"


def _import_library(window: MainWindow, folder: Path) -> Path:
    target = folder / "library.json"
    window.workspace.export_library(target)
    return target


def _export_library(window: MainWindow, folder: Path) -> Path:
    return folder / "exported.json"


def _export_summary_pdf(window: MainWindow, folder: Path) -> Path:
    return folder / "summary.pdf"


DIALOGS: dict[str, tuple[str, Dialog]] = {
    "open": ("getOpenFileName", _open),
    "save_as": ("getSaveFileName", _save_as),
    "import_library": ("getOpenFileName", _import_library),
    "export_library": ("getSaveFileName", _export_library),
    "export_summary_pdf": ("getSaveFileName", _export_summary_pdf),
}


def run_dialog(window: MainWindow, monkeypatch: pytest.MonkeyPatch, action: str, folder: Path) -> Path:
    """Trigger ``action`` with the GM picking a file in ``folder``; returns where the dialog started."""
    function, prepare = DIALOGS[action]
    picked = prepare(window, folder)
    started: list[str] = []

    def dialog(*args: object) -> tuple[str, str]:
        started.append(str(args[2]))
        return str(picked), str(args[4]) if len(args) > 4 else ""

    monkeypatch.setattr(QFileDialog, function, dialog)
    window.actions_by_name[action].trigger()
    assert len(started) == 1
    return Path(started[0])


def _in(started: Path, folder: Path) -> bool:
    """The dialog started in ``folder``, or on a file name suggested in it."""
    return folder in (started, started.parent)


@pytest.mark.parametrize("action", DIALOGS)
def test_file_dialogs_start_in_the_last_folder_and_remember_it(action: str, open_window: WindowFactory,
                                                               monkeypatch: pytest.MonkeyPatch,
                                                               tmp_path: Path) -> None:
    window = open_window(sample="sr3")
    first, second = tmp_path / "campaign", tmp_path / "one-shots"
    first.mkdir()
    second.mkdir()
    assert _in(run_dialog(window, monkeypatch, action, first), documents_dir())  # nothing remembered yet
    assert window.workspace.settings.last_directory == str(first)
    assert load_settings().last_directory == str(first)
    assert _in(run_dialog(window, monkeypatch, action, second), first)
    assert load_settings().last_directory == str(second)
    again = open_window(sample="sr3")  # the next run
    assert _in(run_dialog(again, monkeypatch, action, second), second)


def test_a_folder_that_is_gone_gives_the_documents_folder(open_window: WindowFactory,
                                                         monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    save_settings(Settings(last_directory=str(tmp_path / "unplugged-usb-stick")))
    window = open_window(sample="sr3")
    assert _in(run_dialog(window, monkeypatch, "save_as", tmp_path), documents_dir())


def test_a_cancelled_dialog_remembers_nothing(open_window: WindowFactory, monkeypatch: pytest.MonkeyPatch,
                                              tmp_path: Path) -> None:
    save_settings(Settings(last_directory=str(tmp_path)))
    window = open_window(sample="sr3")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *args: ("", ""))
    window.actions_by_name["open"].trigger()
    assert load_settings().last_directory == str(tmp_path)
