"""The game's name is on screen: in the title bar, and beside each file in the welcome page's recent list and in
File → Open recent (read from the file's first bytes, never by opening the fight; a bad file says so)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QAction

from app import storage
from app.i18n import _, install_language
from app.storage import game_of_file, peek_system_id
from rules.systems import get_system
from tests.ui.conftest import WindowFactory
from ui.main_window import MainWindow

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")


def _title(game: str) -> str:
    return _(get_system(game).title)


def test_the_title_bar_names_the_encounter_and_its_game(open_window: WindowFactory) -> None:
    window = open_window("sr3", "Night Market")
    assert window.windowTitle() == f"Night Market[*] — {_title('sr3')} — Bojovka"
    window.workspace.new("walka", "Harbour")
    assert window.windowTitle() == f"Harbour[*] — {_title('walka')} — Bojovka"


def test_the_title_bar_names_the_game_in_the_gms_language(open_window: WindowFactory) -> None:
    install_language("cs")
    try:
        window = open_window("clovek", "Noc")
        assert _title("clovek") in window.windowTitle() and window.windowTitle().startswith("Noc[*] — ")
    finally:
        install_language("en")


def _files(window: MainWindow, tmp_path: Path) -> dict[str, Path]:
    """An SR3 file, a Walka file, a file that is no encounter, and one that is gone."""
    sr3 = window.workspace.save(tmp_path / "ambush.bojovka")
    window.workspace.new("walka", "Harbour")
    walka = window.workspace.save(tmp_path / "harbour.bojovka")
    junk = tmp_path / "junk.bojovka"
    junk.write_bytes(b"\x00\xffnot json at all")
    return {"sr3": sr3, "walka": walka, "junk": junk, "gone": tmp_path / "gone.bojovka"}


def test_a_files_game_is_read_from_its_first_bytes_without_opening_it(open_window: WindowFactory, tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    files = _files(open_window("sr3", "Ambush"), tmp_path)

    def no_opening(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("the recent lists must not open (or replay) a fight")

    monkeypatch.setattr(storage, "history_from_document", no_opening)
    monkeypatch.setattr(storage, "load_encounter", no_opening)
    assert peek_system_id(files["sr3"]) == "sr3" and peek_system_id(files["walka"]) == "walka"
    assert peek_system_id(files["junk"]) is None and peek_system_id(files["gone"]) is None
    assert game_of_file(files["sr3"]) == _title("sr3")
    assert game_of_file(files["junk"]) == "cannot be read"
    assert game_of_file(files["gone"]) == "file not found"
    stranger = tmp_path / "future.bojovka"
    stranger.write_text('{"format":"bojovka-encounter","schema_version":9,"initial":{"system_id":"dnd5"}}')
    assert game_of_file(stranger) == "unknown game “dnd5”"


def test_the_recent_lists_show_each_files_game(open_window: WindowFactory, tmp_path: Path) -> None:
    window = open_window("sr3", "Ambush")
    files = _files(window, tmp_path)
    window.workspace.update_settings(recent_files=tuple(str(path) for path in files.values()))
    window.actions_by_name["welcome"].trigger()
    assert window.welcome is not None
    shown = [window.welcome.recent.item(row).text() for row in range(window.welcome.recent.count())]
    expected = [_title("sr3"), _title("walka"), "cannot be read", "file not found"]
    assert [f"  —  {game}  —  " in text for text, game in zip(shown, expected, strict=True)] == [True] * 4
    assert shown[0].startswith("ambush") and shown[1].startswith("harbour")
    window.recent_menu.aboutToShow.emit()
    entries: list[QAction] = [a for a in window.recent_menu.actions() if not a.isSeparator()][:4]
    assert [f"  —  {game}  —  " in action.text() for action, game in zip(entries, expected, strict=True)] == [True] * 4
    assert entries[2].isEnabled() and not entries[3].isEnabled()  # an unreadable file may still be tried
