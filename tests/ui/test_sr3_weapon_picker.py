"""The SR3 attack dialog with saved weapons: the picker fills the form, the rounds count down, the last attack
comes back, and Repeat last attack goes from an NPC's turn to damage in two keys."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog
from pytestqt.qtbot import QtBot

import ui.commands.fight
from app.document import EncounterDocument
from rules.dice import Roller
from rules.encounter import JsonValue, Weapon, frozen_map
from rules.systems.sr3 import SYSTEM as SR3
from rules.systems.sr3.damage import Ammo
from rules.systems.sr3.ops import Sr3Attack
from rules.systems.sr3.tables import FiringMode, WeaponKind
from rules.turns import current_actor
from rules.weapons import Reload, SetWeapons, checked_weapons
from tests.rules.sr3_scenes import eight_characters, roll_ones
from tests.ui.conftest import WindowFactory
from ui.games.sr3.attack import Sr3AttackDialog

UZI: Mapping[str, JsonValue] = {"damage": "6M", "weapon_class": "smg", "modes": "SA/BF", "recoil_compensation": 1,
                                "laser_sight": True, "magazine": 24, "rounds": 24, "skill": 3}
SMARTGUN: Mapping[str, JsonValue] = {"damage": "7M", "weapon_class": "lmg", "modes": "BF/FA", "recoil_compensation": 2,
                                     "smart": "smartlink", "ammo": "apds", "magazine": 32, "rounds": 32, "skill": 5}
KATANA: Mapping[str, JsonValue] = {"damage": "(STR+3)M", "kind": "melee", "reach": 1, "skill": 5}


def armed(**carried: Mapping[str, Any]) -> tuple[EncounterDocument, dict[str, str]]:
    """The seed's eight characters, Mike acting first and carrying ``carried`` (name → values)."""
    history, ids = eight_characters()
    roll_ones(history, ids)
    weapons = checked_weapons([Weapon(name, frozen_map(values)) for name, values in carried.items()], SR3)
    history.do(SetWeapons(ids["Mike"], weapons))
    return EncounterDocument(history), ids


def dialog_on(qtbot: QtBot, document: EncounterDocument, attacker_id: str | None = None) -> Sr3AttackDialog:
    dialog = Sr3AttackDialog(document, Roller.seeded(3), attacker_id)
    qtbot.addWidget(dialog)
    return dialog


def choose(dialog: Sr3AttackDialog, name: str) -> None:
    dialog.weapon_picker.setCurrentIndex(dialog.weapon_picker.findData(name))


def modes_offered(dialog: Sr3AttackDialog) -> list[FiringMode]:
    return dialog.weapon.mode.values()


def miss(dialog: Sr3AttackDialog) -> None:
    """Two ones on the attack dice, resolved: a miss, only the rounds and the record matter."""
    dialog.dice.skill.setValue(2)
    dialog.dice.attack_entry.set_faces_text("1,1")
    dialog.resolve()
    assert dialog.next_button.isEnabled(), dialog.status_label.text()


# --- the picker fills the form ------------------------------------------------------------------


def test_the_first_weapon_fills_every_weapon_input(qtbot: QtBot) -> None:
    document, _ids = armed(**{"Uzi III": UZI, "Ingram Smartgun": SMARTGUN})
    dialog = dialog_on(qtbot, document)
    assert dialog.weapon_picker.currentText() == "Uzi III · 6M · SA/BF"
    assert dialog.ammunition.text() == "24/24 rounds"
    box = dialog.weapon
    assert (box.name.text(), box.code.text(), box.compensation.value()) == ("Uzi III", "6M", 1)
    assert (box.weapon_class.value(), box.ammo.value(), box.kind.value()) == ("smg", Ammo.NORMAL, WeaponKind.FIREARM)
    assert modes_offered(dialog) == [FiringMode.SA, FiringMode.SB, FiringMode.BF]  # a short burst: the clip ran out
    assert box.firing_mode() is FiringMode.SA and not box.smartgun.isChecked() and not box.heavy.isChecked()
    assert dialog.situation.laser.isChecked() and not dialog.situation.smartlink.isChecked()
    assert dialog.dice.skill.value() == 3
    choose(dialog, "Ingram Smartgun")
    assert dialog.weapon_picker.currentText() == "Ingram Smartgun · 7M · BF/FA · APDS"
    assert (box.name.text(), box.code.text(), box.compensation.value()) == ("Ingram Smartgun", "7M", 2)
    assert modes_offered(dialog) == [FiringMode.SB, FiringMode.BF, FiringMode.FA]
    assert box.firing_mode() is FiringMode.BF and box.rounds.value() == 3
    assert box.ammo.value() is Ammo.APDS and box.smartgun.isChecked() and box.heavy.isChecked()  # an LMG's recoil
    assert dialog.situation.smartlink.isChecked() and not dialog.situation.laser.isChecked()
    assert dialog.dice.skill.value() == 5 and dialog.ammunition.text() == "32/32 rounds"
    assert dialog.sheet is not None and {line.key: line.value for line in dialog.sheet.attack_tn.lines} == {
        "range": 4, "recoil": 3, "recoil_compensation": -2, "heavy_weapon": 1, "smartlink": -2}


def test_typed_in_the_form_leaves_the_inputs_as_typed(qtbot: QtBot) -> None:
    document, ids = armed(**{"Uzi III": UZI})
    dialog = dialog_on(qtbot, document)
    choose(dialog, "")
    assert dialog.weapon_picker.currentText() == "Typed in the form" and dialog.ammunition.text() == ""
    assert dialog.weapon.name.text() == "Uzi III" and dialog.weapon.code.text() == "6M"  # nothing cleared
    assert modes_offered(dialog) == list(FiringMode)  # a typed weapon may fire any mode
    dialog.weapon.name.setText("Pipe gun")
    dialog.weapon.code.setText("5L")
    dialog.weapon.mode.select(FiringMode.FA)
    dialog.weapon.heavy.setChecked(True)
    dialog.weapon.weapon_class.select(None)
    choose(dialog, "Uzi III")
    choose(dialog, "")
    assert (dialog.weapon.name.text(), dialog.weapon.code.text()) == ("Uzi III", "6M")  # Uzi III refilled them
    dialog.weapon.code.setText("5L")
    dialog.weapon.heavy.setChecked(True)
    dialog.attacker.setCurrentIndex(dialog.attacker.findData(ids["Dave"]))  # Dave carries no saved weapon
    assert dialog.weapon_picker.currentText() == "Typed in the form"
    assert dialog.weapon.code.text() == "5L" and dialog.weapon.heavy.isChecked()


def test_a_melee_weapon_turns_the_dialog_to_melee_and_ranged_picks_a_gun(qtbot: QtBot) -> None:
    document, _ids = armed(**{"Katana": KATANA, "Uzi III": UZI})
    dialog = dialog_on(qtbot, document)
    assert dialog.weapon_picker.currentText() == "Katana · (STR+3)M · reach 1"
    assert dialog.is_melee() and dialog.melee.attack.code.text() == "(STR+3)M"
    dialog.kind.setCurrentIndex(dialog.kind.findData("ranged"))  # a shot: the first saved gun is chosen
    assert dialog.weapon_name() == "Uzi III"
    assert dialog.problem() == "Roll or type the dice, then press Enter to resolve."  # its skill dice: 3
    assert dialog.weapon.code.text() == "6M" and dialog.tn_label.text() == "TN 3"
    choose(dialog, "Katana")
    assert dialog.is_melee()


def test_ranged_with_only_a_melee_weapon_saved_is_typed_in_the_form(qtbot: QtBot) -> None:
    document, _ids = armed(Katana=KATANA)
    dialog = dialog_on(qtbot, document)
    dialog.kind.setCurrentIndex(dialog.kind.findData("ranged"))  # a thrown bottle, say: typed by the GM
    assert dialog.weapon_picker.currentText() == "Typed in the form" and dialog.weapon_name() == ""
    assert dialog.problem() == "Enter the attacker's skill dice (and combat pool dice, if any)."


# --- rounds ---------------------------------------------------------------------------------------------


def test_a_burst_counts_down_the_rounds_shown_and_an_empty_clip_stops_resolve(qtbot: QtBot) -> None:
    document, ids = armed(**{"Uzi III": {**UZI, "magazine": 4, "rounds": 4}})
    dialog = dialog_on(qtbot, document)
    dialog.weapon.mode.select(FiringMode.BF)
    miss(dialog)
    attack = document.history.entries[-1].operation
    assert isinstance(attack, Sr3Attack) and (attack.saved_weapon, attack.rounds) == ("Uzi III", 3)
    dialog.next_attack()
    assert dialog.ammunition.text() == "1/4 rounds"
    dialog.dice.attack_entry.set_faces_text("1,1")
    assert dialog.problem() == "Uzi III has 1 round left, not enough for 3: reload first."
    assert not dialog.resolve_button.isEnabled()
    dialog.weapon.mode.select(FiringMode.SA)  # the last round, one shot
    assert dialog.resolve_button.isEnabled()
    dialog.resolve()
    carried = document.state.combatant(ids["Mike"]).weapon("Uzi III")
    assert carried is not None and carried.number("rounds") == 0


def test_the_rounds_shown_follow_a_reload_made_elsewhere(qtbot: QtBot) -> None:
    document, ids = armed(**{"Uzi III": {**UZI, "rounds": 5}})
    dialog = dialog_on(qtbot, document)
    assert dialog.ammunition.text() == "5/24 rounds"
    document.apply(Reload(ids["Mike"], "Uzi III"))
    assert dialog.ammunition.text() == "24/24 rounds"


# --- the last attack --------------------------------------------------------------------------------


def test_the_next_dialog_starts_with_the_last_weapon_and_target(qtbot: QtBot) -> None:
    document, ids = armed(**{"Uzi III": UZI, "Ingram Smartgun": SMARTGUN})
    first = dialog_on(qtbot, document)
    assert first.target.currentData() == ids["Ganger 1"]  # no attack yet: the first foe, the first weapon
    choose(first, "Ingram Smartgun")
    first.target.setCurrentIndex(first.target.findData(ids["Ganger 3"]))
    miss(first)
    first.reject()
    again = dialog_on(qtbot, document)
    assert again.attacker.currentData() == ids["Mike"]
    assert (again.weapon_picker.currentData(), again.target.currentData()) == ("Ingram Smartgun", ids["Ganger 3"])
    assert again.weapon.name.text() == "Ingram Smartgun" and again.dice.skill.value() == 5
    other = dialog_on(qtbot, document, attacker_id=ids["Dave"])
    assert other.target.currentData() == ids["Ganger 1"]  # Dave has attacked nobody yet


# --- Repeat last attack in the window ------------------------------------------------------------------


@pytest.fixture
def shown_dialogs(monkeypatch: pytest.MonkeyPatch) -> list[QDialog]:
    """The window's dialogs, shown without blocking (run_dialog would wait for the GM)."""
    shown: list[QDialog] = []

    def show(dialog: QDialog) -> None:
        shown.append(dialog)
        dialog.show()

    monkeypatch.setattr(ui.commands.fight, "run_dialog", show)
    return shown


def test_repeat_last_attack_goes_from_the_npcs_turn_to_damage_in_two_keys(
        qtbot: QtBot, open_window: WindowFactory, shown_dialogs: list[QDialog]) -> None:
    window = open_window(sample="sr3", seed=1)  # dice that hit (the point is the keys, not the luck)
    window.show()
    qtbot.waitExposed(window)
    state = window.document.state
    while state.combatant(current_actor(state) or "").side.value != "opponent":
        window.actions_by_name["next_turn"].trigger()
        state = window.document.state
    ganger = current_actor(state)
    assert ganger is not None and state.combatant(ganger).name.startswith("Ganger")
    window.actions_by_name["attack"].trigger()  # the ganger's first attack, made by hand
    (first,) = shown_dialogs
    assert isinstance(first, Sr3AttackDialog) and first.attacker.currentData() == ganger
    assert first.weapon_picker.currentData() == "Uzi III" and first.dice.skill.value() == 3
    target = first.target.currentData()
    first.roll_remaining()
    first.resolve()
    first.close()
    boxes = window.document.state.combatant(target).boxes("physical")
    entries = len(window.document.history.entries)

    window.activateWindow()  # the window's shortcuts answer once it is active again, as at the table
    qtbot.waitUntil(window.isActiveWindow)
    qtbot.keyClick(window.table, Qt.Key.Key_A, Qt.KeyboardModifier.ShiftModifier)  # 1: Repeat last attack
    repeat = shown_dialogs[-1]
    assert repeat is not first and isinstance(repeat, Sr3AttackDialog)
    qtbot.waitExposed(repeat)
    assert (repeat.attacker.currentData(), repeat.target.currentData()) == (ganger, target)
    assert repeat.weapon_picker.currentData() == "Uzi III"
    assert repeat.dice.attack_entry.is_complete()  # every die rolled as it showed
    qtbot.keyClick(repeat, Qt.Key.Key_Return)  # 2: resolve
    assert len(window.document.history.entries) == entries + 1
    attack = window.document.history.entries[-1].operation
    assert isinstance(attack, Sr3Attack) and (attack.attacker, attack.target, attack.saved_weapon) == (
        ganger, target, "Uzi III")
    assert window.document.state.combatant(target).boxes("physical") > boxes  # damage on the target
    carried = window.document.state.combatant(ganger).weapon("Uzi III")
    assert carried is not None and carried.number("rounds") == 24 - 2  # two semi-automatic shots
    repeat.close()
