"""Saved weapons in the Walka attack dialog: the picker fills the form, rounds count down, the last weapon and target
come back, and Repeat last attack in the window goes from an NPC's turn to the damage in two inputs."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialog, QWidget
from pytestqt.qtbot import QtBot

from app.document import EncounterDocument
from rules.combatants import SetAttribute, SetOption
from rules.dice import Roller
from rules.systems.walka.sample import sample
from rules.turns import NextTurn
from rules.weapons import SetWeapons
from tests.ui.conftest import WindowFactory
from ui.games.walka.attack import WalkaAttackDialog
from ui.main_window import MainWindow

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")

# The sample: Ania's seat acts (Kira c1 with her heavy pistol, 9 of 10 rounds, one action left; Osa c2); Bartek's
# Wedge (c3) carries a monowire and a machete; Ganger 1 (c5) shot Wedge with its SMG, Ganger 2 (c6) shot at Nova (c4).
KIRA, WEDGE, NOVA, GANGER_1, GANGER_2, GANGER_3 = "c1", "c3", "c4", "c5", "c6", "c7"


@pytest.fixture
def document() -> EncounterDocument:
    return EncounterDocument(sample())


def dialog_for(qtbot: QtBot, document: EncounterDocument, **kwargs: Any) -> WalkaAttackDialog:
    dialog = WalkaAttackDialog(document, Roller.seeded(3), **kwargs)
    qtbot.addWidget(dialog)
    return dialog


def choose(dialog: WalkaAttackDialog, weapon: str) -> None:
    dialog.weapon_picker.setCurrentIndex(dialog.weapon_picker.findData(weapon))


def type_dice(dialog: WalkaAttackDialog, attack: str, defence: str = "", damage: str = "") -> None:
    dialog.dice.attack_entry.set_faces_text(attack)
    dialog.dice.defence_entry.set_faces_text(defence)
    dialog.dice.damage_entry.set_faces_text(damage)


def rounds(document: EncounterDocument, combatant_id: str, weapon: str) -> int:
    carried = document.state.combatant(combatant_id).weapon(weapon)
    assert carried is not None
    return carried.number("rounds")


def wedge_acts(document: EncounterDocument) -> None:
    document.apply(NextTurn())  # Bartek's seat
    assert document.state.clock.current is not None and document.state.clock.current.ids == (WEDGE,)


# --- the picker and the form ------------------------------------------------------------------------------------


def test_the_picker_sits_in_the_attack_box_over_the_inputs_it_fills(qtbot: QtBot,
                                                                    document: EncounterDocument) -> None:
    dialog = dialog_for(qtbot, document)
    dialog.show()
    assert dialog.weapon_picker.isVisible() and dialog.attack.isAncestorOf(dialog.weapon_picker)
    assert [dialog.weapon_picker.itemText(i) for i in range(dialog.weapon_picker.count())] == [
        "Heavy pistol · 3 dice", "Typed in the form"]
    assert dialog.ammunition.text() == "9/10 rounds" and dialog.ammunition.isVisible()


def test_a_saved_weapon_fills_every_weapon_input_and_the_gm_may_still_change_them(qtbot: QtBot,
                                                                                  document: EncounterDocument) -> None:
    wedge_acts(document)
    dialog = dialog_for(qtbot, document)
    assert dialog.weapon_picker.currentData() == "Monowire"  # no attack yet: the first weapon
    assert (dialog.attack.weapon.text(), dialog.attack.skill_key(), dialog.attack.value.value(),
            dialog.attack.weapon_dice.value()) == ("Monowire", "melee", 13, 4)
    assert dialog.defence.defence.findData("parry") >= 0  # a melee attack: Dodge or Parry
    choose(dialog, "Machete")
    assert (dialog.attack.weapon.text(), dialog.attack.weapon_dice.value()) == ("Machete", 3)
    assert dialog.ammunition.text() == ""  # a blade counts no rounds
    dialog.attack.weapon_dice.setValue(5)  # the GM's call for this attack
    dialog.modifiers.second.setChecked(False)
    type_dice(dialog, "20")
    operation = dialog.operation()
    assert operation is not None
    assert (operation.weapon, operation.weapon_dice, operation.skill) == ("Machete", 5, "melee")


def test_typed_in_the_form_leaves_the_inputs_as_typed(qtbot: QtBot, document: EncounterDocument) -> None:
    wedge_acts(document)
    dialog = dialog_for(qtbot, document)
    dialog.attack.weapon_dice.setValue(6)
    choose(dialog, "")
    assert dialog.chosen_weapon() is None and dialog.weapon_name() == ""
    assert (dialog.attack.weapon.text(), dialog.attack.skill_key(), dialog.attack.weapon_dice.value()) == (
        "Monowire", "melee", 6)
    assert dialog.ammunition.text() == ""


def test_renaming_the_weapon_makes_it_one_typed_in_the_form(qtbot: QtBot, document: EncounterDocument) -> None:
    dialog = dialog_for(qtbot, document)
    dialog.attack.weapon.selectAll()
    QTest.keyClicks(dialog.attack.weapon, "Zip gun")
    assert dialog.weapon_picker.currentData() == ""
    assert dialog.attack.weapon.text() == "Zip gun" and dialog.attack.weapon_dice.value() == 3
    type_dice(dialog, "20, 20")
    dialog.resolve()
    assert rounds(document, KIRA, "Heavy pistol") == 9  # not the pistol's rounds
    assert "with Zip gun" in dialog.result_label.text()


# --- rounds -------------------------------------------------------------------------------------------------------


def test_an_attack_fires_a_round_and_the_next_one_shows_what_is_left(qtbot: QtBot,
                                                                      document: EncounterDocument) -> None:
    dialog = dialog_for(qtbot, document, target_id=GANGER_1)
    type_dice(dialog, "20, 20")  # a miss still fires
    dialog.resolve()
    assert rounds(document, KIRA, "Heavy pistol") == 8
    dialog.next_attack()
    assert dialog.ammunition.text() == "8/10 rounds"
    document.undo_stack.undo()
    assert dialog.ammunition.text() == "9/10 rounds"  # the dialog follows the fight


def test_an_empty_weapon_stops_resolve_and_says_reload(qtbot: QtBot, document: EncounterDocument) -> None:
    pistol = document.state.combatant(KIRA).weapon("Heavy pistol")
    assert pistol is not None
    document.apply(SetWeapons(KIRA, (pistol.with_value("rounds", 0),)))
    dialog = dialog_for(qtbot, document, target_id=GANGER_1)
    type_dice(dialog, "20, 20")
    assert not dialog.resolve_button.isEnabled()
    assert dialog.status_label.text() == "Heavy pistol has 0 rounds left, not enough for 1: reload first."
    dialog.attack.counts.setChecked(False)
    document.apply(SetWeapons(KIRA, (pistol,)))  # reloaded in the panel: the dialog reads the fight again
    type_dice(dialog, "20, 20")
    assert dialog.resolve_button.isEnabled(), dialog.status_label.text()


# --- the last weapon and target -------------------------------------------------------------------------------------


def test_the_next_dialog_opens_with_the_last_weapon_and_target(qtbot: QtBot, document: EncounterDocument) -> None:
    wedge_acts(document)
    first = dialog_for(qtbot, document)
    assert first.target.currentData() == GANGER_1  # nobody attacked yet: the first able foe
    choose(first, "Machete")
    first.target.setCurrentIndex(first.target.findData(GANGER_3))
    type_dice(first, "20")
    first.resolve()
    assert document.history.entries[-1].operation.attack_record().weapon == "Machete"  # type: ignore[union-attr]
    again = dialog_for(qtbot, document)
    assert again.attacker.currentData() == WEDGE
    assert again.weapon_picker.currentData() == "Machete" and again.attack.weapon_dice.value() == 3
    assert again.target.currentData() == GANGER_3
    asked = dialog_for(qtbot, document, target_id=GANGER_2)  # a row the window passes wins over the last target
    assert asked.target.currentData() == GANGER_2 and asked.weapon_picker.currentData() == "Machete"


# --- through the window ----------------------------------------------------------------------------------------------


def _shown(window: MainWindow, qtbot: QtBot) -> MainWindow:
    with qtbot.waitExposed(window):
        window.show()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    window.table.setFocus()
    return window


def _dialogs_shown(monkeypatch: pytest.MonkeyPatch, qtbot: QtBot) -> list[QDialog]:
    """Run the window's dialogs without blocking (they are modal): shown, recorded, left open for the test."""
    shown: list[QDialog] = []

    def run(dialog: QDialog) -> None:
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        with qtbot.waitExposed(dialog):
            dialog.show()
        shown.append(dialog)

    monkeypatch.setattr("ui.commands.fight.run_dialog", run)
    return shown


def _focused_in(dialog: QDialog) -> QWidget:
    dialog.activateWindow()
    focused = QApplication.focusWidget()
    return focused if focused is not None and dialog.isAncestorOf(focused) else dialog


def _gm_seat_in_round_2(window: MainWindow) -> None:
    while window.document.state.clock.round < 2:
        window.session.next_turn()
    current = window.document.state.clock.current
    assert current is not None and current.ids[:2] == (GANGER_1, GANGER_2)


def test_repeat_last_attack_goes_from_the_npc_s_turn_to_damage_in_two_inputs(
        open_window: WindowFactory, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    window = _shown(open_window(sample="walka", seed=3), qtbot)  # dice that hit and remove a Hit Point
    _gm_seat_in_round_2(window)
    shown = _dialogs_shown(monkeypatch, qtbot)
    hp_before = window.document.state.combatant(WEDGE).boxes("hp")
    QTest.keyClick(window.table, Qt.Key.Key_A, Qt.KeyboardModifier.ShiftModifier)  # input 1
    (dialog,) = shown
    assert isinstance(dialog, WalkaAttackDialog)
    assert (dialog.attacker.currentData(), dialog.weapon_picker.currentData(), dialog.target.currentData()) == (
        GANGER_1, "SMG", WEDGE)  # its last attack: the SMG at Wedge
    assert all(entry.is_complete() for entry in dialog.entries() if entry.expression() is not None)
    QTest.keyClick(_focused_in(dialog), Qt.Key.Key_Return)  # input 2
    attack = window.document.history.entries[-1].operation
    assert attack.attack_record() is not None and attack.attack_record().target_id == WEDGE  # type: ignore[union-attr]
    assert window.document.state.combatant(WEDGE).boxes("hp") > hp_before, dialog.result_label.text()
    assert rounds(window.document, GANGER_1, "SMG") == 28
    dialog.close()


def test_repeat_last_attack_for_another_npc_of_the_seat_is_a_click_on_its_row_more(
        open_window: WindowFactory, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    window = _shown(open_window(sample="walka", seed=2), qtbot)
    _gm_seat_in_round_2(window)
    shown = _dialogs_shown(monkeypatch, qtbot)
    window.table.select_combatant(GANGER_2)  # input 1: its row
    QTest.keyClick(window.table, Qt.Key.Key_A, Qt.KeyboardModifier.ShiftModifier)  # input 2
    (dialog,) = shown
    assert isinstance(dialog, WalkaAttackDialog)
    assert (dialog.attacker.currentData(), dialog.target.currentData()) == (GANGER_2, NOVA)
    entries = len(window.document.history.entries)
    QTest.keyClick(_focused_in(dialog), Qt.Key.Key_Return)  # input 3
    assert len(window.document.history.entries) == entries + 1
    assert window.document.history.entries[-1].operation.attack_record().attacker_id == GANGER_2  # type: ignore[union-attr]
    dialog.close()


def test_reload_in_the_window_fills_the_magazine_as_a_non_combat_action(open_window: WindowFactory,
                                                                        qtbot: QtBot) -> None:
    window = _shown(open_window(sample="walka"), qtbot)
    QTest.keyClick(window.table, Qt.Key.Key_R, Qt.KeyboardModifier.ShiftModifier)
    assert rounds(window.document, KIRA, "Heavy pistol") == 10
    kira = window.document.state.combatant(KIRA)
    assert dict(kira.actions_used) == {"attack": 1, "non-combat": 1}
    assert window.document.history.entries[-1].text() == "Kira reloads the Heavy pistol."


def test_parry_is_rolled_with_the_defenders_melee_weapons_skill_unless_the_gm_says_otherwise(
        qtbot: QtBot, document: EncounterDocument) -> None:
    # walka.md Decision: "Melee weapons → Dodge or Parry (rolled with the defender's Melee weapons skill)".
    document.apply(SetAttribute(GANGER_1, "melee", 12))
    document.apply(SetAttribute(GANGER_1, "parry", 7))
    wedge_acts(document)
    dialog = dialog_for(qtbot, document)
    dialog.target.setCurrentIndex(dialog.target.findData(GANGER_1))
    dialog.defence.defence.setCurrentIndex(dialog.defence.defence.findData("parry"))
    assert dialog.defence.value.value() == 12
    document.apply(SetOption("parry_with", "parry"))  # the GM's table gives Parry a skill of its own
    later = dialog_for(qtbot, document)
    later.target.setCurrentIndex(later.target.findData(GANGER_1))
    later.defence.defence.setCurrentIndex(later.defence.defence.findData("parry"))
    assert later.defence.value.value() == 7
