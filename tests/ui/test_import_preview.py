"""File → Import roster/bestiary… merges: a preview first lists what will be added, updated (with what changes)
and skipped; Import applies it, Cancel leaves the library alone; the status bar counts with real plurals."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QFileDialog, QMessageBox
from pytestqt.qtbot import QtBot

from app.library import EntryKind, Library, LibraryEntry
from app.library_merge import MergeReport
from rules.encounter import Side, Weapon, frozen_map
from tests.ui.conftest import WindowFactory
from ui.dialogs.import_preview import ImportPreviewDialog, PreviewColumn, import_summary, nothing_to_import
from ui.main_window import MainWindow

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")


KNIFE = Weapon("Knife", frozen_map({"kind": "melee", "damage": "(STR+1)L"}))


def _pc(name: str, **attributes: int) -> LibraryEntry:
    return LibraryEntry(kind=EntryKind.PC, system_id="sr3", name=name, campaign="Seattle", side=Side.PLAYER,
                        attributes=attributes)


def _party_file(window: MainWindow, tmp_path: Path) -> Path:
    """The library holds Dave (body 5) and Sharon; the file has Dave changed, Sharon as she is and Twitch."""
    library = window.workspace.library
    library.add(_pc("Dave", body=5))
    sharon = library.add(_pc("Sharon", body=3))
    path = tmp_path / "party.json"
    Library.export_json([replace(_pc("Dave", body=6), notes="New cyberdeck.", weapons=(KNIFE,)),
                         sharon, _pc("Twitch", body=4)], path)
    return path


def _run_preview(answer: QDialogButtonBox.StandardButton, seen: list[ImportPreviewDialog]) -> Callable[[], None]:
    def press() -> None:
        dialog = QApplication.activeModalWidget()
        assert isinstance(dialog, ImportPreviewDialog)
        seen.append(dialog)
        dialog.buttons.button(answer).click()
    return press


def _children(dialog: ImportPreviewDialog, group: str) -> list[list[str]]:
    item = dialog.groups[group]
    children = [item.child(row) for row in range(item.childCount())]
    return [[child.text(column) for column in PreviewColumn] for child in children if child is not None]


def test_the_preview_lists_what_changes_and_cancel_changes_nothing(qtbot: QtBot, open_window: WindowFactory,
                                                                   tmp_path: Path) -> None:
    window = open_window("sr3", "Ambush")
    path = _party_file(window, tmp_path)
    before = window.workspace.library.search()
    seen: list[ImportPreviewDialog] = []
    QTimer.singleShot(0, _run_preview(QDialogButtonBox.StandardButton.Cancel, seen))
    assert window.files.import_library(path) is None
    dialog = seen[0]
    assert dialog.windowTitle() == "Import roster/bestiary"
    assert [dialog.groups[key].text(0) for key in ("added", "updated", "unchanged")] == [
        "To add: 1 new entry", "To update: 1 entry", "Already there as they are: 1 entry"]
    assert _children(dialog, "added") == [["Twitch", "Player character", "Seattle", "Shadowrun, Third Edition", ""]]
    assert _children(dialog, "updated") == [["Dave", "Player character", "Seattle", "Shadowrun, Third Edition",
                                             "attributes, weapons, notes"]]
    assert _children(dialog, "unchanged")[0][0] == "Sharon" and not dialog.groups["unchanged"].isExpanded()
    assert window.workspace.library.search() == before  # nothing written


def test_import_applies_the_merge_and_says_what_it_did(qtbot: QtBot, open_window: WindowFactory,
                                                       tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    window = open_window("sr3", "Ambush")
    path = _party_file(window, tmp_path)
    library = window.workspace.library
    dave = library.search("dave")[0]
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *args: (str(path), ""))
    seen: list[ImportPreviewDialog] = []
    QTimer.singleShot(0, _run_preview(QDialogButtonBox.StandardButton.Ok, seen))
    window.actions_by_name["import_library"].trigger()  # File → Import roster/bestiary…
    assert len(seen) == 1
    assert window.statusBar().currentMessage() == (
        "Imported party.json: 1 entry added, 1 entry updated, 1 entry unchanged.")
    merged = library.search(campaign="Seattle")
    assert [e.name for e in merged] == ["Dave", "Sharon", "Twitch"]
    assert merged[0].id == dave.id and merged[0].attributes == {"body": 6}
    assert [weapon.name for weapon in merged[0].weapons] == ["Knife"]
    assert window.files.import_library(path) is not None  # again: nothing to do, so no preview at all
    assert window.statusBar().currentMessage() == (
        "Nothing to import: all 3 entries of party.json are already in the roster and bestiary.")


def test_a_bad_file_is_a_message_and_changes_nothing(qtbot: QtBot, open_window: WindowFactory, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    window = open_window("sr3", "Ambush")
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "bojovka-library", "version": 2, "entries": [{"kind": "pc"}]}', encoding="utf-8")
    warnings: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda _parent, _title, text: warnings.append(text))
    before = window.workspace.library.search()
    assert window.files.import_library(bad) is None
    assert warnings == ["bad.json, entry 1 (“?”): The field 'system_id' is missing."]
    assert window.workspace.library.search() == before


def test_the_counts_use_real_plural_forms(monkeypatch: pytest.MonkeyPatch) -> None:
    entry = _pc("Dave")
    report = MergeReport(added=(entry,) * 2, unchanged=(entry,) * 5)
    assert import_summary(report, "x.json") == (
        "Imported x.json: 2 entries added, 0 entries updated, 5 entries unchanged.")
    assert nothing_to_import(MergeReport(unchanged=(entry,)), "x.json") == (
        "Nothing to import: the 1 entry of x.json is already in the roster and bestiary.")
    asked: list[tuple[str, int]] = []

    def recording(singular: str, plural: str, count: int) -> str:
        asked.append((singular, count))
        return plural

    # Czech, Polish and Russian have three forms: each count goes to the catalog, never an "if n == 1".
    monkeypatch.setattr("ui.dialogs.import_preview.ngettext", recording)
    import_summary(MergeReport(added=(entry,) * 3, updated=(), unchanged=(entry,) * 21), "x.json")
    assert asked == [("{count} entry added", 3), ("{count} entry updated", 0), ("{count} entry unchanged", 21)]
