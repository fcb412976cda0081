"""The details panel's Weapons section: the combatant's weapons with the rounds left, edited in the weapons
editor and applied as one SetWeapons operation (one undo step, one log line); calm while rounds are fired."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from app.document import EncounterDocument
from rules.combatants import AddCombatant, RemoveCombatant, SetDamage
from rules.encounter import Side, frozen_map
from rules.history import new_history
from rules.systems.base import RuleSystem
from rules.weapons import MAGAZINE, ROUNDS, Reload, SetWeapons, fire
from tests.ui.armed_toy import CLUB, PISTOL, armed_toy_game
from tests.ui.conftest import WindowFactory
from ui.widgets.details import CombatantDetails

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")


@pytest.fixture
def armed() -> Iterator[RuleSystem]:
    with armed_toy_game() as system:
        yield system


@pytest.fixture
def document(armed: RuleSystem) -> EncounterDocument:
    history = new_history(armed.id, "Cellar")
    history.do(AddCombatant("c1", "Ada", Side.PLAYER, frozen_map({"skill": 2}), weapons=(PISTOL, CLUB)))
    history.do(AddCombatant("c2", "Goblin", Side.OPPONENT))
    return EncounterDocument(history)


@pytest.fixture
def panel(qtbot: QtBot, document: EncounterDocument) -> CombatantDetails:
    host = QWidget()
    qtbot.addWidget(host)
    host.resize(320, 1200)
    details = CombatantDetails(document, host)
    details.resize(host.size())
    details.set_combatant("c1")
    with qtbot.waitExposed(host):
        host.show()
    details.host = host  # type: ignore[attr-defined]  # kept alive with the panel
    return details


def _log(document: EncounterDocument) -> list[str]:
    return [line.render() for entry in document.history.entries for line in entry.log]


def test_the_section_lists_the_weapons_with_the_rounds_left(panel: CombatantDetails) -> None:
    section = panel.weapons
    assert section.isVisible() and section.title() == "Weapons"
    assert [label.text() for label in section.descriptions] == ["Pistol (3)", "Club (1d6)"]
    assert [label.text() for label in section.rounds] == ["7/10 rounds", ""]  # a club has no magazine
    assert not section.empty.isVisible()


def test_firing_updates_the_rounds_without_moving_anything(qtbot: QtBot, panel: CombatantDetails,
                                                           document: EncounterDocument) -> None:
    section = panel.weapons
    before = [label.geometry() for label in (*section.descriptions, *section.rounds)] + [section.geometry()]
    labels = list(section.descriptions)
    state = fire(document.state, "c1", "Pistol", 6)
    document.apply(SetWeapons("c1", state.combatant("c1").weapons))  # as an attack would leave them
    qtbot.wait(10)
    assert [label.text() for label in section.rounds] == ["1/10 rounds", ""]
    assert section.descriptions == labels  # the same rows, not rebuilt
    after = [label.geometry() for label in (*section.descriptions, *section.rounds)] + [section.geometry()]
    assert after == before
    document.apply(Reload("c1", "Pistol"))
    assert [label.text() for label in section.rounds] == ["10/10 rounds", ""]  # refreshed from the change


def test_an_edit_is_one_operation_one_log_line_and_one_undo(qtbot: QtBot, panel: CombatantDetails,
                                                            document: EncounterDocument) -> None:
    steps = document.undo_stack.count()
    QTest.mouseClick(panel.weapons.edit_button, Qt.MouseButton.LeftButton)
    dialog = panel.weapons.dialog
    assert dialog is not None and dialog.isVisible() and dialog.windowTitle() == "Weapons of Ada"
    editor = dialog.editor
    assert editor.weapons() == (PISTOL, CLUB)
    model = editor.model
    model.setData(model.index(0, model.column_of(MAGAZINE)), 15)
    model.setData(model.index(0, model.column_of(ROUNDS)), 15)
    model.setData(model.index(1, 0), "Big club")
    editor.table.setCurrentIndex(model.index(1, 0))
    editor.remove_weapon()
    editor.add_weapon()
    assert dialog.save()
    combatant = document.state.combatant("c1")
    assert [(w.name, w.number(ROUNDS)) for w in combatant.weapons] == [("Pistol", 15), ("Weapon 1", 0)]
    assert document.undo_stack.count() == steps + 1
    assert _log(document)[-1] == "Ada's weapons changed."
    assert [label.text() for label in panel.weapons.descriptions] == ["Pistol (3)", "Weapon 1 (1)"]
    assert [label.text() for label in panel.weapons.rounds] == ["15/15 rounds", ""]
    document.undo_stack.undo()
    assert document.state.combatant("c1").weapons == (PISTOL, CLUB)
    assert [label.text() for label in panel.weapons.descriptions] == ["Pistol (3)", "Club (1d6)"]


def test_ok_with_nothing_changed_adds_no_step(qtbot: QtBot, panel: CombatantDetails,
                                               document: EncounterDocument) -> None:
    steps = document.undo_stack.count()
    dialog = panel.weapons.edit()
    assert dialog is not None and dialog.save() and document.undo_stack.count() == steps


def test_a_refused_edit_applies_nothing_and_keeps_what_was_typed(qtbot: QtBot, panel: CombatantDetails,
                                                                 document: EncounterDocument) -> None:
    steps = document.undo_stack.count()
    dialog = panel.weapons.edit()
    assert dialog is not None
    model = dialog.editor.model
    model.setData(model.index(0, model.column_of(ROUNDS)), 11)
    assert dialog.save() is False and dialog.isVisible()
    assert dialog.editor.message.text() == "Pistol: 11 rounds loaded, but the magazine holds 10."
    assert dialog.editor.weapons()[0].number(ROUNDS) == 11 and document.undo_stack.count() == steps
    document.apply(SetDamage("c2", "hp", 1))  # meanwhile the fight goes on; the typed weapons stay
    assert dialog.editor.weapons()[0].number(ROUNDS) == 11


def test_a_combatant_gone_meanwhile_is_a_message_not_a_loss(qtbot: QtBot, panel: CombatantDetails,
                                                            document: EncounterDocument) -> None:
    dialog = panel.weapons.edit()
    assert dialog is not None
    model = dialog.editor.model
    model.setData(model.index(0, 0), "Revolver")
    document.apply(RemoveCombatant("c1"))  # taken out by another window's step meanwhile
    assert dialog.save() is False and dialog.isVisible()
    assert "c1" in dialog.message.text() and dialog.editor.weapons()[0].name == "Revolver"


def test_no_weapons_yet(panel: CombatantDetails) -> None:
    panel.set_combatant("c2")
    assert panel.weapons.empty.isVisible() and panel.weapons.descriptions == []
    assert panel.weapons.empty.text() == "No weapons yet."


def test_a_game_without_weapon_fields_has_no_weapons_section(qtbot: QtBot, toy_game: RuleSystem) -> None:
    history = new_history(toy_game.id, "Cellar")
    history.do(AddCombatant("c1", "Ada", Side.PLAYER))
    host = QWidget()
    qtbot.addWidget(host)
    details = CombatantDetails(EncounterDocument(history), host)
    details.set_combatant("c1")
    host.show()
    assert not details.weapons.isVisible() and details.weapons.edit() is None


def test_the_weapons_dialog_of_a_game_with_many_fields_fits_the_screen(open_window: WindowFactory) -> None:
    # SR3's thirteen weapon fields made the table's minimum width 2,114 pixels: the dialog ran off a laptop's
    # screen. It now asks for that much and gets the screen's width, and the table scrolls.
    window = open_window(sample="sr3")
    ganger = next(c.id for c in window.document.state.combatants.values() if c.weapons)
    window.table.select_combatant(ganger)
    dialog = window.details.weapons.edit()
    assert dialog is not None
    try:
        available = dialog.screen().availableGeometry()
        assert dialog.width() <= available.width() and dialog.minimumSizeHint().width() <= available.width()
    finally:
        dialog.reject()
