"""The Add combatants dialog, driven like a GM would: search, count, Enter, Undo; quick add; grunt groups."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from app.document import EncounterDocument
from app.library import EntryKind, Library, LibraryEntry
from rules.combatants import SHARED_MONITOR
from rules.encounter import Side
from rules.history import new_history
from rules.systems import get_system
from rules.systems.base import AttributeSpec
from rules.systems.sr3.system import Sr3System
from rules.turns import NextTurn
from tests.rules.test_walka_scenes import acting as walka_acting
from tests.rules.test_walka_scenes import roll as walka_roll
from tests.rules.test_walka_scenes import table as walka_table
from ui.dialogs.add_combatants import AddCombatantsDialog, QuickAddTab, names_summary
from ui.models.library_model import EntryRole, LibraryColumn, LibraryModel, LibraryRole

SR3 = get_system("sr3")

# The offscreen platform cannot resize a dialog to its layout's minimum; harmless there, absent on a desktop.
pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")


@pytest.fixture
def library(tmp_path: Path) -> Iterator[Library]:
    with Library(tmp_path / "library.sqlite3") as opened:
        yield opened


@pytest.fixture
def document() -> EncounterDocument:
    return EncounterDocument(new_history("sr3", "Warehouse"))


@pytest.fixture
def dialog(qtbot: QtBot, document: EncounterDocument, library: Library) -> AddCombatantsDialog:
    opened = AddCombatantsDialog(document, library)
    qtbot.addWidget(opened)
    with qtbot.waitExposed(opened):
        opened.show()
    return opened


def names(document: EncounterDocument) -> list[str]:
    return [combatant.name for combatant in document.state.combatants.values()]


def search(qtbot: QtBot, dialog: AddCombatantsDialog, text: str) -> None:
    dialog.roster_tab.search_edit.clear()
    qtbot.keyClicks(dialog.roster_tab.search_edit, text)


def status_is_error(dialog: AddCombatantsDialog) -> bool:
    return bool(dialog.status_label.property("error"))


# --- from the bestiary --------------------------------------------------------------------------

def test_three_gangers_from_the_bestiary_and_one_undo_removes_them(qtbot: QtBot, dialog: AddCombatantsDialog,
                                                                   document: EncounterDocument) -> None:
    assert dialog.roster_tab.search_edit.hasFocus()
    search(qtbot, dialog, "gang")
    assert [e.name for e in dialog.roster_tab.model._entries] == ["Ganger"]
    dialog.roster_tab.count_box.setValue(3)
    qtbot.keyClick(dialog.roster_tab.search_edit, Qt.Key.Key_Return)  # Enter adds the best match
    assert names(document) == ["Ganger 1", "Ganger 2", "Ganger 3"]
    assert all(c.attribute("body") == 4 and c.side is Side.OPPONENT for c in document.state.combatants.values())
    assert dialog.status_label.text() == "Added Ganger 1–3." and not status_is_error(dialog)
    assert dialog.isVisible()  # stays open for more
    assert document.undo_stack.count() == 1
    document.undo_stack.undo()
    assert names(document) == []


def test_adding_more_continues_the_numbering(qtbot: QtBot, dialog: AddCombatantsDialog,
                                             document: EncounterDocument) -> None:
    search(qtbot, dialog, "ganger")
    dialog.roster_tab.count_box.setValue(3)
    qtbot.mouseClick(dialog.add_button, Qt.MouseButton.LeftButton)
    dialog.roster_tab.count_box.setValue(2)
    qtbot.mouseClick(dialog.add_button, Qt.MouseButton.LeftButton)
    assert names(document) == [f"Ganger {n}" for n in range(1, 6)]
    assert dialog.status_label.text() == "Added Ganger 4–5."
    assert document.undo_stack.count() == 2


def test_one_troll_keeps_the_plain_name_and_the_side_can_be_overridden(qtbot: QtBot, dialog: AddCombatantsDialog,
                                                                       document: EncounterDocument) -> None:
    search(qtbot, dialog, "troll")
    side = dialog.roster_tab.side_combo
    side.setCurrentIndex(side.findData(Side.ALLY.value))
    qtbot.mouseClick(dialog.add_button, Qt.MouseButton.LeftButton)
    assert names(document) == ["Troll bouncer"]
    assert document.state.combatant("c1").side is Side.ALLY
    assert dialog.status_label.text() == "Added Troll bouncer."


def test_a_grunt_group_with_one_shared_monitor(qtbot: QtBot, dialog: AddCombatantsDialog,
                                               document: EncounterDocument) -> None:
    search(qtbot, dialog, "security")
    grunts = dialog.roster_tab.grunts
    assert not grunts.name_edit.isEnabled()
    grunts.enabled_box.setChecked(True)
    assert grunts.name_edit.isEnabled() and grunts.name_edit.text() == "Corporate security guard"
    grunts.name_edit.clear()
    qtbot.keyClicks(grunts.name_edit, "Lobby guards")
    grunts.shared_box.setChecked(True)
    dialog.roster_tab.count_box.setValue(2)
    qtbot.keyClick(grunts.name_edit, Qt.Key.Key_Return)
    added = list(document.state.combatants.values())
    assert [c.name for c in added] == ["Corporate security guard 1", "Corporate security guard 2"]
    assert {(c.group, c.extra.get(SHARED_MONITOR)) for c in added} == {("Lobby guards", True)}


def test_a_group_without_a_shared_monitor_has_no_shared_flag(qtbot: QtBot, dialog: AddCombatantsDialog,
                                                             document: EncounterDocument) -> None:
    search(qtbot, dialog, "ganger")
    dialog.roster_tab.grunts.enabled_box.setChecked(True)
    dialog.roster_tab.count_box.setValue(2)
    qtbot.mouseClick(dialog.add_button, Qt.MouseButton.LeftButton)
    assert {(c.group, SHARED_MONITOR in c.extra) for c in document.state.combatants.values()} == {("Ganger", False)}


def test_filters_by_kind_and_campaign_as_the_gm_types(qtbot: QtBot, library: Library, document: EncounterDocument,
                                                      ) -> None:
    for name, campaign in (("Dave", "Seattle"), ("Sharon", "Berlin")):
        library.add(LibraryEntry(kind=EntryKind.PC, system_id="sr3", name=name, campaign=campaign, side=Side.PLAYER))
    dialog = AddCombatantsDialog(document, library)
    qtbot.addWidget(dialog)
    tab = dialog.roster_tab

    def shown() -> list[str]:
        return [tab.model.data(tab.model.index(row, LibraryColumn.NAME)) for row in range(tab.model.rowCount())]

    assert len(shown()) == 14 + 2  # the bundled bestiary and the two player characters
    tab.kind_combo.setCurrentIndex(tab.kind_combo.findData("pc"))
    assert shown() == ["Dave", "Sharon"]
    tab.campaign_combo.setCurrentIndex(tab.campaign_combo.findData("Berlin"))
    assert shown() == ["Sharon"]
    tab.kind_combo.setCurrentIndex(tab.kind_combo.findData("npc"))
    assert shown() == []
    tab.campaign_combo.setCurrentIndex(0)
    qtbot.keyClicks(tab.search_edit, "SAM")
    assert shown() == ["Street samurai"]


def test_double_click_adds_the_entry(qtbot: QtBot, dialog: AddCombatantsDialog, document: EncounterDocument) -> None:
    search(qtbot, dialog, "samurai")
    table = dialog.roster_tab.table
    rect = table.visualRect(table.model().index(0, LibraryColumn.NAME))
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())  # a real double click
    qtbot.mouseDClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())  # starts with a press
    assert names(document) == ["Street samurai"]


# --- quick add ----------------------------------------------------------------------------------

def open_quick_add(qtbot: QtBot, dialog: AddCombatantsDialog) -> QuickAddTab:
    dialog.tabs.setCurrentWidget(dialog.quick_tab)
    qtbot.waitUntil(dialog.quick_tab.name_edit.hasFocus)
    return dialog.quick_tab


def test_quick_add_by_name_and_numbers(qtbot: QtBot, dialog: AddCombatantsDialog,
                                       document: EncounterDocument) -> None:
    tab = open_quick_add(qtbot, dialog)
    qtbot.keyClicks(tab.name_edit, "Rent-a-cop")
    tab.attribute_boxes["body"].setValue(5)
    tab.attribute_boxes["initiative_dice"].setValue(2)
    tab.count_box.setValue(2)
    qtbot.keyClick(tab.name_edit, Qt.Key.Key_Enter)
    added = list(document.state.combatants.values())
    assert [c.name for c in added] == ["Rent-a-cop 1", "Rent-a-cop 2"]
    assert added[0].attribute("body") == 5 and added[0].attribute("initiative_dice") == 2
    assert added[0].side is Side.OPPONENT
    assert tab.name_edit.hasFocus() and tab.name_edit.selectedText() == "Rent-a-cop"  # ready for the next one
    assert dialog.status_label.text() == "Added Rent-a-cop 1–2."
    assert [e.name for e in dialog.roster_tab.model._entries if e.name.startswith("Rent")] == []  # not saved


def test_quick_add_can_save_a_player_character_to_the_roster(qtbot: QtBot, dialog: AddCombatantsDialog,
                                                             document: EncounterDocument, library: Library) -> None:
    tab = open_quick_add(qtbot, dialog)
    qtbot.keyClicks(tab.name_edit, "Dave")
    tab.side_combo.setCurrentIndex(tab.side_combo.findData(Side.PLAYER.value))
    assert "roster" in tab.save_box.text() and tab.campaign_combo.isVisible()
    tab.save_box.setChecked(True)
    tab.attribute_boxes["quickness"].setValue(6)
    campaign = tab.campaign_combo.lineEdit()
    assert campaign is not None
    qtbot.keyClicks(campaign, "Seattle 2060")
    qtbot.keyClick(campaign, Qt.Key.Key_Return)  # Enter in the editable campaign field adds, once
    assert names(document) == ["Dave"] and document.state.combatant("c1").side is Side.PLAYER
    saved = library.search("Dave")
    assert [(e.kind, e.campaign, e.attributes["quickness"]) for e in saved] == [(EntryKind.PC, "Seattle 2060", 6)]
    assert dialog.status_label.text() == "Added Dave. Saved to the roster."
    assert dialog.roster_tab.campaign_combo.findData("Seattle 2060") >= 0  # the roster tab sees it at once


def test_quick_add_grunt_group_shares_a_monitor(qtbot: QtBot, dialog: AddCombatantsDialog,
                                                document: EncounterDocument) -> None:
    tab = open_quick_add(qtbot, dialog)
    qtbot.keyClicks(tab.name_edit, "Drone")
    tab.grunts.enabled_box.setChecked(True)
    assert tab.grunts.name_edit.text() == "Drone"  # follows the name as typed
    tab.grunts.shared_box.setChecked(True)
    tab.count_box.setValue(3)
    qtbot.keyClick(tab.count_box, Qt.Key.Key_Return)  # Enter in a spin box adds too
    assert {(c.group, c.extra.get(SHARED_MONITOR)) for c in document.state.combatants.values()} == {("Drone", True)}
    assert len(document.state.combatants) == 3


class _FewNumbers(Sr3System):
    """A game asking for other numbers than SR3 does (the dialog must not know any game)."""

    def attribute_specs(self) -> Sequence[AttributeSpec]:
        return (AttributeSpec("agility", "Agility", 2, 0, 6), AttributeSpec("wits", "Wits", 1, 1, 3))


def test_quick_add_asks_the_rule_system_what_to_show(qtbot: QtBot, library: Library) -> None:
    tab = QuickAddTab(library, _FewNumbers())
    qtbot.addWidget(tab)
    assert list(tab.attribute_boxes) == ["agility", "wits"]
    wits = tab.attribute_boxes["wits"]
    assert (wits.minimum(), wits.maximum(), wits.value()) == (1, 3, 1)
    sr3 = QuickAddTab(library, SR3)
    qtbot.addWidget(sr3)
    assert [(key, box.minimum(), box.maximum()) for key, box in sr3.attribute_boxes.items()] == [
        (spec.key, spec.minimum, spec.maximum) for spec in SR3.attribute_specs()]


# --- problems are shown, never raised -----------------------------------------------------------

def test_invalid_input_shows_a_message_and_adds_nothing(qtbot: QtBot, dialog: AddCombatantsDialog,
                                                        document: EncounterDocument) -> None:
    tab = open_quick_add(qtbot, dialog)
    qtbot.keyClick(tab.name_edit, Qt.Key.Key_Return)  # no name
    assert dialog.status_label.text() == "The name is empty." and status_is_error(dialog)
    qtbot.keyClicks(tab.name_edit, "Ganger")
    tab.grunts.enabled_box.setChecked(True)
    tab.grunts.name_edit.clear()
    qtbot.keyClicks(tab.grunts.name_edit, "  ")
    qtbot.keyClick(tab.name_edit, Qt.Key.Key_Return)
    assert dialog.status_label.text() == "A grunt group needs a name."
    tab.grunts.enabled_box.setChecked(False)
    tab.name_edit.setText("x" * 300)
    qtbot.keyClick(tab.name_edit, Qt.Key.Key_Return)
    assert "too long" in dialog.status_label.text()
    dialog.tabs.setCurrentWidget(dialog.roster_tab)
    search(qtbot, dialog, "no such thing")
    qtbot.keyClick(dialog.roster_tab.search_edit, Qt.Key.Key_Return)
    assert dialog.status_label.text() == "Pick an entry from the list first." and status_is_error(dialog)
    assert names(document) == [] and document.undo_stack.count() == 0
    search(qtbot, dialog, "ganger")
    qtbot.keyClick(dialog.roster_tab.search_edit, Qt.Key.Key_Return)
    assert not status_is_error(dialog)  # the next success clears the alarm


def test_a_library_that_cannot_be_read_is_reported_in_the_dialog(qtbot: QtBot, dialog: AddCombatantsDialog,
                                                                 library: Library) -> None:
    library.close()
    qtbot.keyClicks(dialog.roster_tab.search_edit, "g")
    assert "cannot be used" in dialog.status_label.text() and status_is_error(dialog)
    assert dialog.roster_tab.model.rowCount() == 0


def test_escape_closes_the_dialog(qtbot: QtBot, dialog: AddCombatantsDialog) -> None:
    qtbot.keyClick(dialog.roster_tab.search_edit, Qt.Key.Key_Escape)
    assert not dialog.isVisible()


def _tab_stops(start: QWidget, count: int) -> list[QWidget]:
    """The widgets Tab visits from ``start`` (focus chain, skipping what Tab cannot reach)."""
    stops, widget = [start], start
    while len(stops) < count:
        following = widget.nextInFocusChain()
        assert following is not None
        widget = following
        if widget.focusPolicy() & Qt.FocusPolicy.TabFocus and widget.isEnabled() and widget.isVisible() \
                and widget.focusProxy() is None:
            stops.append(widget)
    return stops


def test_tab_order_follows_the_layout(dialog: AddCombatantsDialog) -> None:
    tab = dialog.roster_tab
    expected = [tab.search_edit, tab.kind_combo, tab.campaign_combo, tab.table, tab.count_box, tab.side_combo,
                tab.grunts.enabled_box, dialog.add_button]
    assert _tab_stops(tab.search_edit, len(expected)) == expected
    quick = dialog.quick_tab
    dialog.tabs.setCurrentWidget(quick)
    expected = [quick.name_edit, quick.side_combo, quick.count_box, *quick.attribute_boxes.values(),
                quick.grunts.enabled_box, quick.save_box, dialog.add_button]
    assert _tab_stops(quick.name_edit, len(expected)) == expected


def test_names_summary() -> None:
    assert names_summary(["Ganger 1", "Ganger 2", "Ganger 3"]) == "Ganger 1–3"
    assert names_summary(["Troll bouncer"]) == "Troll bouncer"
    assert names_summary(["Dave", "Sharon"]) == "Dave, Sharon"


# --- the model ----------------------------------------------------------------------------------

def test_library_model_passes_the_model_tester(qtmodeltester: ModelTester, library: Library) -> None:
    model = LibraryModel(SR3)
    qtmodeltester.check(model)
    model.set_entries(library.search())
    qtmodeltester.check(model)
    model.set_entries(library.search("troll"))
    qtmodeltester.check(model)


def test_library_model_roles_and_columns(library: Library) -> None:
    model = LibraryModel(SR3)
    entries = library.search(system_id="sr3")  # an SR3 model: other games ship bestiaries of their own
    model.set_entries(entries)
    ganger = model.index(1, LibraryColumn.NAME)
    assert ganger.data() == "Ganger"
    assert ganger.data(EntryRole) == entries[1]
    assert ganger.data(LibraryRole.ENTRY_ID) == entries[1].id
    assert model.index(1, LibraryColumn.KIND).data() == "NPC template"
    assert model.index(1, LibraryColumn.STATS).data().startswith("B 4 · Q 4 · S 4")
    assert "Body: 4" in model.index(1, LibraryColumn.STATS).data(Qt.ItemDataRole.ToolTipRole)
    assert model.headerData(LibraryColumn.STATS, Qt.Orientation.Horizontal) == "Key stats"
    assert bytes(model.roleNames()[EntryRole].data()) == b"entry"
    assert model.row_of(entries[3].id) == 3 and model.row_of(-5) == -1


def test_walka_chances_start_at_one_for_player_characters_and_none_for_npcs(qtbot: QtBot, library: Library) -> None:
    # walka.md Decision: Chances are "a per-character counter, default 1 for player characters and 0 for NPCs (so
    # that extras simply drop)".
    document = EncounterDocument(new_history("walka", "Alley"))
    dialog = AddCombatantsDialog(document, library)
    qtbot.addWidget(dialog)
    dialog.show()
    tab = open_quick_add(qtbot, dialog)
    chances = tab.attribute_boxes["chances"]
    assert chances.value() == 0  # an opponent, as quick add starts
    tab.side_combo.setCurrentIndex(tab.side_combo.findData(Side.PLAYER.value))
    assert chances.value() == 1
    tab.side_combo.setCurrentIndex(tab.side_combo.findData(Side.ALLY.value))  # a drone, a follower: an NPC
    assert chances.value() == 0
    chances.setValue(2)  # the GM's number for this one stays, whatever the side
    tab.side_combo.setCurrentIndex(tab.side_combo.findData(Side.PLAYER.value))
    assert chances.value() == 2
    qtbot.keyClicks(tab.name_edit, "Kira")
    qtbot.keyClick(tab.name_edit, Qt.Key.Key_Enter)
    assert document.state.combatant("c1").attribute("chances") == 2


def test_an_ally_is_added_in_its_players_seat_and_acts_in_that_seats_turn(qtbot: QtBot, library: Library) -> None:
    # walka.md: "A seat acts for all its characters … a player's seat for that player's characters"; Decision:
    # "default one seat per player, a player's allies (drones, followers) in that player's seat".
    history, _ids = walka_table()
    document = EncounterDocument(history)
    dialog = AddCombatantsDialog(document, library)
    qtbot.addWidget(dialog)
    with qtbot.waitExposed(dialog):
        dialog.show()
    tab = open_quick_add(qtbot, dialog)
    assert not tab.seat.isVisibleTo(tab)  # an opponent sits with the GM
    tab.side_combo.setCurrentIndex(tab.side_combo.findData(Side.ALLY.value))
    assert tab.seat.isVisibleTo(tab)
    assert [tab.seat.combo.itemData(i) for i in range(tab.seat.combo.count())] == ["Ania", "Bartek", "Celina", "GM"]
    assert tab.seat.combo.currentData() == "Ania"  # a player's seat by default, not the GM's
    tab.seat.combo.setCurrentIndex(tab.seat.combo.findData("Bartek"))
    qtbot.keyClicks(tab.name_edit, "Hound")
    qtbot.keyClick(tab.name_edit, Qt.Key.Key_Enter)
    hound = next(c for c in document.state.combatants.values() if c.name == "Hound")
    assert hound.seat == "Bartek" and hound.side is Side.ALLY
    walka_roll(document.history, Ania=1, Bartek=5, Celina=7, GM=9)
    assert walka_acting(document.history) == ["Kira", "Drone"]  # Ania's seat starts, with her drone
    document.history.do(NextTurn())
    assert walka_acting(document.history) == ["Wedge", "Hound"]  # the hound acts in Bartek's seat


def test_a_game_without_seats_offers_no_seat(qtbot: QtBot, dialog: AddCombatantsDialog) -> None:
    tab = open_quick_add(qtbot, dialog)
    tab.side_combo.setCurrentIndex(tab.side_combo.findData(Side.ALLY.value))
    assert not tab.seat.isVisibleTo(tab)
    assert tab.request().seat is None


def test_an_ally_from_the_bestiary_is_given_a_players_seat_too(qtbot: QtBot, library: Library) -> None:
    library.add(LibraryEntry(kind=EntryKind.NPC, system_id="walka", name="Loyal hound", side=Side.ALLY))
    history, _ids = walka_table()
    document = EncounterDocument(history)
    dialog = AddCombatantsDialog(document, library)
    qtbot.addWidget(dialog)
    with qtbot.waitExposed(dialog):
        dialog.show()
    search(qtbot, dialog, "Loyal hound")
    tab = dialog.roster_tab
    tab.table.selectRow(0)
    assert tab.seat.isVisibleTo(tab)  # saved as an ally: offered a seat
    tab.seat.combo.setCurrentIndex(tab.seat.combo.findData("Celina"))
    qtbot.mouseClick(dialog.add_button, Qt.MouseButton.LeftButton)
    drone = next(c for c in document.state.combatants.values() if c.name == "Loyal hound")
    assert drone.seat == "Celina"
    tab.side_combo.setCurrentIndex(tab.side_combo.findData(Side.OPPONENT.value))
    assert not tab.seat.isVisibleTo(tab)  # added as an opponent instead: the GM's
