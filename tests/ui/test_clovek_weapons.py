"""Člověk's saved weapons in the roll dialog: the picker fills the form, rounds count down, the next attack starts
from the last weapon and target, and Repeat last attack goes from an NPC's turn to wounds in two keys."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialog
from pytestqt.qtbot import QtBot

from app.document import EncounterDocument
from rules.dice import Roller
from rules.encounter import frozen_map
from rules.systems.clovek.sample import sample
from rules.turns import NextTurn, RollInitiative
from rules.weapons import ROUNDS, SetWeapons
from tests.ui.conftest import WindowFactory
from ui.games.clovek.attack import ClovekCheckDialog
from ui.main_window import MainWindow

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")


class Nines(random.Random):
    """Every die shows 9: with skill 3 or a power value 3 each one succeeds, none is rolled again."""

    def randint(self, a: int, b: int) -> int:
        return 9


@pytest.fixture
def dialog_for(qtbot: QtBot) -> Callable[..., ClovekCheckDialog]:
    def make(document: EncounterDocument, attacker_id: str | None = None,
             target_id: str | None = None) -> ClovekCheckDialog:
        dialog = ClovekCheckDialog(document, Roller(Nines()), attacker_id, target_id)
        qtbot.addWidget(dialog)
        return dialog

    return make


def rounds(document: EncounterDocument, combatant_id: str, name: str = "Heavy pistol") -> int:
    weapon = document.state.combatant(combatant_id).weapon(name)
    assert weapon is not None
    return weapon.number(ROUNDS)


# --- the picker fills the form ----------------------------------------------------------------------------

def test_the_picker_shows_the_weapons_and_a_firearm_fills_roll_and_power(dialog_for: Callable[
        ..., ClovekCheckDialog]) -> None:
    dialog = dialog_for(EncounterDocument(sample()), attacker_id="c4")  # Adriana, after her shot at Cesare
    picker = dialog.weapon_picker
    assert [picker.itemText(i) for i in range(picker.count())] == [
        "Heavy pistol · Pistols 3 · power 3", "Typed in the form"]
    assert dialog.weapon_picker.isVisibleTo(dialog) and dialog.ammunition.text() == "5/6 rounds"
    assert dialog.target.currentData() == "c2"  # her last target
    roll, power = dialog.roll_box, dialog.power_box
    assert (roll.bank.currentData(), roll.skill_name.text(), roll.skill.value(), roll.dice.value()) == (
        "physical", "Pistols", 3, 3)
    assert (power.source.currentData(), power.value.value(), power.item.text(), power.track.currentData()) == (
        "equipment", 3, "Heavy pistol", "physical_wounds")


def test_another_weapon_refills_the_form_and_typed_in_the_form_leaves_it(dialog_for: Callable[
        ..., ClovekCheckDialog]) -> None:
    dialog = dialog_for(EncounterDocument(sample()), attacker_id="c2")  # Cesare, whose turn it is
    picker, roll, power = dialog.weapon_picker, dialog.roll_box, dialog.power_box
    assert picker.currentData() == "Rapier" and dialog.ammunition.text() == ""  # no attack yet: the first
    assert (roll.skill_name.text(), roll.skill.value(), roll.dice.value()) == ("Fencing", 3, 3)
    assert (power.source.currentData(), power.value.value(), power.item.text()) == ("attribute", 4, "Constitution")
    picker.setCurrentIndex(picker.findData("Heavy pistol"))
    assert (roll.skill_name.text(), roll.skill.value(), power.source.currentData(), power.value.value()) == (
        "Pistols", 2, "equipment", 3)
    assert dialog.ammunition.text() == "6/6 rounds"
    roll.skill.setValue(4)  # the GM may still change what the weapon filled in
    roll.bonus.setValue(1)
    picker.setCurrentIndex(picker.findData(""))
    assert dialog.chosen_weapon() is None and dialog.weapon_name() == ""
    assert (roll.skill_name.text(), roll.skill.value(), roll.bonus.value(), power.value.value()) == (
        "Pistols", 4, 1, 3)
    assert dialog.ammunition.text() == ""


def test_a_shot_counts_down_and_the_next_attack_starts_from_its_weapon_and_target(dialog_for: Callable[
        ..., ClovekCheckDialog]) -> None:
    document = EncounterDocument(sample())
    dialog = dialog_for(document, attacker_id="c2", target_id="c5")
    dialog.weapon_picker.setCurrentIndex(dialog.weapon_picker.findData("Heavy pistol"))
    dialog.roll_remaining()
    dialog.resolve()
    assert "Heavy pistol: 5 rounds left." in dialog.result_label.text()
    assert rounds(document, "c2") == 5 and document.state.combatant("c5").boxes("physical_wounds") == 9  # 6 + 3
    assert dialog.ammunition.text() == "5/6 rounds"
    dialog.next_attack()
    assert dialog.ammunition.text() == "5/6 rounds" and dialog.weapon_name() == "Heavy pistol"
    again = dialog_for(document)  # the window opens it for the current actor: Cesare
    assert again.attacker.currentData() == "c2"
    assert again.weapon_name() == "Heavy pistol" and again.target.currentData() == "c5"
    assert again.roll_box.skill_name.text() == "Pistols"


def test_an_empty_magazine_is_refused_in_the_status_line(dialog_for: Callable[..., ClovekCheckDialog]) -> None:
    document = EncounterDocument(sample())
    cesare = document.state.combatant("c2")
    pistol = cesare.weapon("Heavy pistol")
    assert pistol is not None
    document.apply(SetWeapons("c2", (cesare.weapons[0], pistol.with_value(ROUNDS, 0))))
    dialog = dialog_for(document, attacker_id="c2", target_id="c4")
    dialog.weapon_picker.setCurrentIndex(dialog.weapon_picker.findData("Heavy pistol"))
    assert dialog.ammunition.text() == "0/6 rounds"
    entries = len(document.history.entries)
    dialog.roll_remaining()
    dialog.resolve()
    assert "Heavy pistol has 0 rounds left, not enough for 1: reload first." in dialog.status_label.text()
    assert len(document.history.entries) == entries


# --- Repeat last attack in the window ---------------------------------------------------------------------

def _round_two(window: MainWindow) -> None:
    """The sample's first round played out; in the second Adriana (4 + 9) acts first."""
    for _turn in range(4):
        window.document.apply(NextTurn())
    window.document.apply(RollInitiative(frozen_map({"c1": (1, 1, 1), "c2": (1,), "c4": (9, 9)}), frozen_map({})))
    assert window.session.current_actor() == "c4"


def _shown(window: MainWindow, qtbot: QtBot) -> MainWindow:
    with qtbot.waitExposed(window):
        window.show()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    window.table.setFocus()
    window.session.roller = Roller(Nines())
    return window


def _press_in_dialog(window: MainWindow, act: Callable[[ClovekCheckDialog], None]) -> list[str]:
    """Shift+A on the table as the GM presses it, then ``act`` in the modal dialog it opens (closed after)."""
    met: list[str] = []

    def inside(tries: int = 0) -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QDialog) or (not dialog.isActiveWindow() and tries < 100):
            QTimer.singleShot(10, lambda: inside(tries + 1))
            return
        met.append(type(dialog).__name__)
        try:
            assert isinstance(dialog, ClovekCheckDialog)
            act(dialog)
        finally:
            dialog.reject()

    QTimer.singleShot(0, inside)
    QTest.keyClick(window.table, Qt.Key.Key_A, Qt.KeyboardModifier.ShiftModifier)  # input 1
    return met


def test_repeat_last_attack_is_shift_a_then_enter_from_the_npcs_turn_to_the_wounds(open_window: WindowFactory,
                                                                                   qtbot: QtBot) -> None:
    window = _shown(open_window(sample="clovek"), qtbot)
    _round_two(window)
    before = window.document.state.combatant("c2").boxes("physical_wounds")
    seen: dict[str, object] = {}

    def act(dialog: ClovekCheckDialog) -> None:
        seen["picked"] = (dialog.attacker.currentData(), dialog.weapon_name(), dialog.target.currentData())
        # Input 2, where the GM's Enter goes: the focused field, or the dialog itself when none has the focus.
        QTest.keyClick(QApplication.focusWidget() or dialog, Qt.Key.Key_Return)
        seen["result"] = dialog.result_label.text()

    assert _press_in_dialog(window, act) == ["ClovekCheckDialog"]
    assert seen["picked"] == ("c4", "Heavy pistol", "c2")
    # Pistols 3 with her pistol's 3 dice: three 9s, three successes; power 2 × 3 + three 9s = 9 wounds.
    assert "Power roll 9, 9, 9: 9 = base 6 + 3 rolled + 0 − 0." in str(seen["result"])
    assert window.document.state.combatant("c2").boxes("physical_wounds") == min(10, before + 9)
    assert rounds(window.document, "c4") == 4


def test_an_npcs_first_repeat_takes_its_first_weapon_at_the_first_foe(open_window: WindowFactory,
                                                                      qtbot: QtBot) -> None:
    window = _shown(open_window(sample="clovek"), qtbot)
    window.document.apply(NextTurn())  # Dante
    window.document.apply(NextTurn())  # the second of the Count's guards
    guard = window.session.current_actor()
    assert guard == "c6"
    seen: dict[str, object] = {}

    def act(dialog: ClovekCheckDialog) -> None:
        seen["picked"] = (dialog.weapon_name(), dialog.target.currentData())
        QTest.keyClick(QApplication.focusWidget() or dialog, Qt.Key.Key_Return)

    assert _press_in_dialog(window, act) == ["ClovekCheckDialog"]
    assert seen["picked"] == ("Halberd", "c1")
    # Polearms 2 (8+), two 9s; Constitution 3 (base 2) rolls two 9s; the halberd's +2: 6 wounds on Beatrice.
    assert window.document.state.combatant("c1").boxes("physical_wounds") == 6


def test_reload_in_the_window_fills_the_actors_pistol_as_her_physical_action(open_window: WindowFactory) -> None:
    window = open_window(sample="clovek")
    _round_two(window)
    window.table.clearSelection()
    window.actions_by_name["reload"].trigger()  # Shift+R: the acting combatant's weapon used last
    adriana = window.document.state.combatant("c4")
    assert rounds(window.document, "c4") == 6
    assert adriana.actions_used.get("physical") == 1 and adriana.pools["physical"].spent == 1
    assert "Adriana reloads the Heavy pistol." in window.document.history.entries[-1].text()


def test_a_supernatural_skills_weapon_ticks_supernatural_and_its_reroll_shows(dialog_for: Callable[
        ..., ClovekCheckDialog]) -> None:
    # clovek.md: "Supernatural skills reroll every die showing ≥ 15 − skill": skill 8 rerolls 7 or more.
    from rules.encounter import Weapon

    document = EncounterDocument(sample())
    curse = Weapon("Evil eye", frozen_map({"bank": "mental", "skill_name": "Curses", "skill": 8,
                                           "supernatural": True}))
    rapier = document.state.combatant("c2").weapon("Rapier")
    assert rapier is not None
    document.apply(SetWeapons("c2", (rapier, curse)))
    dialog = dialog_for(document, attacker_id="c2")
    picker, roll = dialog.weapon_picker, dialog.roll_box
    assert picker.itemText(picker.findData("Evil eye")) == "Evil eye · Curses 8 · mental · supernatural"
    picker.setCurrentIndex(picker.findData("Evil eye"))
    assert roll.supernatural.isChecked() and roll.info.text() == "Success on 5 or more; 7 or more is rolled again."
    picker.setCurrentIndex(picker.findData("Rapier"))
    assert not roll.supernatural.isChecked()
