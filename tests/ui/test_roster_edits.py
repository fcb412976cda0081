"""Keeping the roster and bestiary up from the Add combatants dialog: new, edit (F2), duplicate (Ctrl+D) and
delete (Del, asked first); the entry dialog with the game's attributes and weapons; Enter still adds."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox, QPushButton
from pytestqt.qtbot import QtBot

from app.document import EncounterDocument
from app.library import EntryKind, Library, LibraryEntry
from rules.encounter import Side, Weapon
from rules.history import new_history
from rules.systems import get_system
from rules.systems.base import RuleSystem
from rules.weapons import MAGAZINE, ROUNDS
from tests.ui.armed_toy import CLUB, PISTOL, armed_toy_game
from ui.dialogs.add_combatants import AddCombatantsDialog
from ui.dialogs.library_entry import EntryDialog
from ui.models.library_model import LibraryColumn

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")


def _npc(name: str, system_id: str = "sr3", **attributes: int) -> LibraryEntry:
    return LibraryEntry(kind=EntryKind.NPC, system_id=system_id, name=name, attributes=attributes,
                        notes="Knife.", tags="street")


@pytest.fixture
def library(tmp_path: Path) -> Iterator[Library]:
    with Library(tmp_path / "library.sqlite3", seed=False) as opened:
        opened.add(_npc("Ganger", body=4, quickness=4))
        opened.add(_npc("Troll bouncer", body=9))
        opened.add(LibraryEntry(kind=EntryKind.PC, system_id="sr3", name="Dave", campaign="Seattle",
                                side=Side.PLAYER, attributes={"body": 5}))
        yield opened


def _open(qtbot: QtBot, document: EncounterDocument, library: Library) -> AddCombatantsDialog:
    dialog = AddCombatantsDialog(document, library)
    qtbot.addWidget(dialog)
    with qtbot.waitExposed(dialog):
        dialog.show()
    return dialog


@pytest.fixture
def dialog(qtbot: QtBot, library: Library) -> AddCombatantsDialog:
    return _open(qtbot, EncounterDocument(new_history("sr3", "Warehouse")), library)


def _pick(qtbot: QtBot, dialog: AddCombatantsDialog, text: str) -> None:
    """Search for ``text`` and put the focus in the list, its first row picked."""
    tab = dialog.roster_tab
    tab.search_edit.clear()
    qtbot.keyClicks(tab.search_edit, text)
    dialog.activateWindow()  # back from a message box
    tab.table.setFocus()
    qtbot.waitUntil(tab.table.hasFocus)
    assert tab.selected_entry() is not None


def _default(key: str) -> int:
    return next(spec.default for spec in get_system("sr3").attribute_specs() if spec.key == key)


def _listed(dialog: AddCombatantsDialog) -> list[str]:
    model = dialog.roster_tab.model
    return [model.index(row, LibraryColumn.NAME).data() for row in range(model.rowCount())]


def _answer(button_text: str, seen: list[str]) -> Callable[[], None]:
    """Click ``button_text`` in the message box that will be open (and note its text in ``seen``)."""
    def click() -> None:
        box = QApplication.activeModalWidget()
        assert isinstance(box, QMessageBox)
        seen.append(box.text())
        chosen = next(b for b in box.buttons() if b.text().replace("&", "") == button_text)
        chosen.click()
    return click


def test_f2_edits_the_picked_entry_and_save_stores_it(qtbot: QtBot, dialog: AddCombatantsDialog,
                                                     library: Library) -> None:
    _pick(qtbot, dialog, "troll")
    qtbot.keyClick(dialog.roster_tab.table, Qt.Key.Key_F2)
    editor = dialog.roster_tab.entry_dialog
    assert isinstance(editor, EntryDialog) and editor.isVisible() and editor.windowTitle() == "Edit “Troll bouncer”"
    assert editor.name_edit.text() == "Troll bouncer"
    qtbot.waitUntil(editor.name_edit.hasFocus)
    assert editor.attribute_boxes["body"].value() == 9 and editor.notes_edit.toPlainText() == "Knife."
    assert editor.kind_combo.currentData() == "npc" and editor.tags_edit.text() == "street"
    editor.name_edit.selectAll()
    qtbot.keyClicks(editor.name_edit, "Troll doorman")
    editor.attribute_boxes["body"].setValue(10)
    editor.tags_edit.setText("club")
    qtbot.keyClick(editor.name_edit, Qt.Key.Key_Return)  # Enter saves
    assert not editor.isVisible()
    stored = library.search("doorman")
    assert [(e.name, e.attributes["body"], e.tags, e.notes) for e in stored] == [("Troll doorman", 10, "club",
                                                                                  "Knife.")]
    assert dialog.roster_tab.selected_entry() == stored[0]  # listed and picked again
    assert dialog.status_label.text() == "Saved “Troll doorman”."


def test_a_refused_entry_is_explained_in_the_dialog_and_nothing_typed_is_lost(qtbot: QtBot,
                                                                               dialog: AddCombatantsDialog,
                                                                               library: Library) -> None:
    _pick(qtbot, dialog, "ganger")
    editor = dialog.roster_tab.edit_selected()
    assert editor is not None
    editor.name_edit.clear()
    editor.notes_edit.setPlainText("A long note the GM typed.")
    height = editor.message.height()
    assert editor.save() is False
    assert editor.isVisible() and editor.message.text() == "The name is empty."
    assert editor.message.height() == height  # room was kept for it
    assert editor.notes_edit.toPlainText() == "A long note the GM typed."
    assert [e.notes for e in library.search("ganger")] == ["Knife."]  # nothing stored
    editor.name_edit.setText("Ganger")
    assert editor.save() is True and [e.notes for e in library.search("ganger")] == ["A long note the GM typed."]


def test_ctrl_d_duplicates_and_picks_the_copy(qtbot: QtBot, dialog: AddCombatantsDialog, library: Library) -> None:
    _pick(qtbot, dialog, "ganger")
    qtbot.keyClick(dialog.roster_tab.table, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier)
    assert _listed(dialog) == ["Ganger", "Ganger (copy)"]
    copy = dialog.roster_tab.selected_entry()
    assert copy is not None and copy.name == "Ganger (copy)" and copy.attributes == {"body": 4, "quickness": 4}
    assert dialog.status_label.text() == "Duplicated “Ganger” as “Ganger (copy)”."
    assert len(library.search()) == 4


def test_del_asks_naming_the_entry_and_only_then_deletes(qtbot: QtBot, dialog: AddCombatantsDialog,
                                                        library: Library) -> None:
    _pick(qtbot, dialog, "troll")
    seen: list[str] = []
    QTimer.singleShot(0, _answer("Cancel", seen))
    qtbot.keyClick(dialog.roster_tab.table, Qt.Key.Key_Delete)
    assert seen == ["Delete “Troll bouncer” from the bestiary? This cannot be undone."]
    assert [e.name for e in library.search("troll")] == ["Troll bouncer"]
    QTimer.singleShot(0, _answer("Delete", seen))
    qtbot.mouseClick(dialog.roster_tab.delete_button, Qt.MouseButton.LeftButton)
    assert library.search("troll") == [] and dialog.status_label.text() == "Deleted “Troll bouncer”."
    _pick(qtbot, dialog, "dave")
    QTimer.singleShot(0, _answer("Delete", seen))
    qtbot.keyClick(dialog.roster_tab.table, Qt.Key.Key_Delete)
    assert seen[-1] == "Delete “Dave” from the roster? This cannot be undone."


def test_enter_and_double_click_still_add_to_the_fight(qtbot: QtBot, dialog: AddCombatantsDialog) -> None:
    _pick(qtbot, dialog, "ganger")
    qtbot.keyClick(dialog.roster_tab.table, Qt.Key.Key_Return)
    document = dialog._document
    assert [c.name for c in document.state.combatants.values()] == ["Ganger"]
    assert dialog.roster_tab.entry_dialog is None  # Enter adds; only F2 edits


def test_the_edit_buttons_follow_the_pick_and_keep_the_tab_order(qtbot: QtBot, dialog: AddCombatantsDialog) -> None:
    tab = dialog.roster_tab
    qtbot.keyClicks(tab.search_edit, "nobody of that name")
    assert not any(b.isEnabled() for b in (tab.edit_button, tab.duplicate_button, tab.delete_button))
    assert tab.new_button.isEnabled() and not tab.list_actions["edit"].isEnabled()
    tab.search_edit.clear()
    assert all(b.isEnabled() for b in tab.edit_buttons())
    assert tab.edit_button.toolTip() == "Edit… (F2)"
    chain: list[QPushButton] = []
    widget = dialog.add_button.nextInFocusChain()
    while isinstance(widget, QPushButton) and widget in tab.edit_buttons():
        chain.append(widget)
        widget = widget.nextInFocusChain()
    assert chain == tab.edit_buttons()  # after Add: the quick path pick → count → Add comes first


def test_a_new_entry_is_added_to_the_library(qtbot: QtBot, dialog: AddCombatantsDialog, library: Library) -> None:
    tab = dialog.roster_tab
    tab.kind_combo.setCurrentIndex(tab.kind_combo.findData("pc"))
    editor = tab.new_entry()
    assert editor.windowTitle() == "New roster or bestiary entry" and editor.kind_combo.currentData() == "pc"
    assert editor.side_combo.currentData() == Side.PLAYER.value
    editor.kind_combo.setCurrentIndex(editor.kind_combo.findData("npc"))  # the usual side follows the kind
    assert editor.side_combo.currentData() == Side.OPPONENT.value
    editor.side_combo.setCurrentIndex(editor.side_combo.findData(Side.ALLY.value))
    editor.kind_combo.setCurrentIndex(editor.kind_combo.findData("pc"))  # a side the GM chose stays
    assert editor.side_combo.currentData() == Side.ALLY.value
    qtbot.keyClicks(editor.name_edit, "Sharon")
    editor.campaign_combo.setEditText("Berlin")
    assert editor.save()
    quick = dialog.quick_tab.campaign_combo  # quick add offers the new campaign at once
    assert [quick.itemText(i) for i in range(quick.count())] == ["Berlin", "Seattle"]
    sharon = library.search("sharon")
    assert [(e.kind, e.side, e.campaign, e.attributes["body"]) for e in sharon] == [
        (EntryKind.PC, Side.ALLY, "Berlin", _default("body"))]


# --- weapons, in a game that keeps them -----------------------------------------------------------

@pytest.fixture
def armed() -> Iterator[RuleSystem]:
    with armed_toy_game() as system:
        yield system


def test_the_entry_dialog_edits_the_games_weapons(qtbot: QtBot, armed: RuleSystem, library: Library) -> None:
    goblin = library.add(LibraryEntry(kind=EntryKind.NPC, system_id=armed.id, name="Goblin", weapons=(CLUB,)))
    dialog = _open(qtbot, EncounterDocument(new_history(armed.id, "Cellar")), library)
    _pick(qtbot, dialog, "goblin")
    editor = dialog.roster_tab.edit_selected()
    assert editor is not None and editor.weapons.isVisible() and editor.weapons.weapons() == (CLUB,)
    editor.weapons.model.insert_weapon(1, PISTOL.with_value(ROUNDS, 12))  # more than its magazine holds
    assert editor.weapons.problem() == "Pistol: 12 rounds loaded, but the magazine holds 10."
    assert editor.save() is False and editor.message.text() == editor.weapons.problem()
    assert library.get(goblin.id or 0) == goblin  # nothing stored, and nothing typed lost:
    assert editor.weapons.weapons()[1].number(ROUNDS) == 12
    editor.weapons.model.setData(editor.weapons.model.index(1, editor.weapons.model.column_of(MAGAZINE)), 15)
    assert editor.save() is True
    stored = library.get(goblin.id or 0)
    assert stored is not None and [w.name for w in stored.weapons] == ["Club", "Pistol"]
    assert stored.weapons[1].number(MAGAZINE) == 15 and stored.weapons[1].number(ROUNDS) == 12
    dialog.add()
    assert [w.name for w in dialog._document.state.combatant("c1").weapons] == ["Club", "Pistol"]


def test_a_game_without_weapon_fields_has_no_weapons_part(qtbot: QtBot, toy_game: RuleSystem,
                                                          library: Library) -> None:
    knife = Weapon("Knife")  # what another version stored stays when the form has nothing to show it in
    goblin = library.add(LibraryEntry(kind=EntryKind.NPC, system_id=toy_game.id, name="Goblin", weapons=(knife,)))
    dialog = _open(qtbot, EncounterDocument(new_history(toy_game.id, "Cellar")), library)
    _pick(qtbot, dialog, "goblin")
    editor = dialog.roster_tab.edit_selected()
    assert editor is not None and not editor.weapons.isVisible() and not editor.weapons.has_fields()
    editor.notes_edit.setPlainText("Sneaky.")
    assert editor.save()
    stored = library.get(goblin.id or 0)
    assert stored is not None and stored.weapons == (knife,) and stored.notes == "Sneaky."
