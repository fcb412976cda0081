"""The Institute attack dialog with saved weapons: the picker fills every page's weapon inputs, rounds count down,
the last weapon and target come back, and Repeat last attack lands damage in two key presses."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialog
from pytestqt.qtbot import QtBot

import ui.commands.fight
from app.document import EncounterDocument
from rules.combatants import AddCombatant
from rules.dice import Roller
from rules.encounter import Encounter, frozen_map
from rules.history import History
from rules.systems.institut import DeclareActions, InstitutAttack, SuppressionFire, ThrowGrenade, rounds
from rules.systems.institut.arms import ready_made
from rules.systems.institut.combat import Defence, FireMode
from rules.systems.institut.pyramid import CLASSES
from rules.systems.institut.tables import WeaponKind
from rules.turns import NextTurn
from rules.weapons import ROUNDS, Reload
from tests.rules.test_institut_scenes import CAST, roll
from ui.games.institut.attack import InstitutAttackDialog
from ui.main_window import MainWindow

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")

DialogFactory = Callable[..., InstitutAttackDialog]


def armed_fight(rounds: int = 30) -> tuple[EncounterDocument, dict[str, str]]:
    """Round 1, Sokolov's turn: Sokolov (AK-74 on bursts, knife, F-1), Vera, Bandit 1 and Bandit 2 (PK)."""
    weapons = {"Sokolov": (ready_made("AK-74", mode=FireMode.BURST.value, rounds=rounds), ready_made("Knife"),
                           ready_made("F-1")),
               "Bandit 2": (ready_made("PK machine gun", mode=FireMode.AUTO.value),)}
    history = History(Encounter("institut", "Weapons"))
    ids = {}
    for number, name in enumerate(("Sokolov", "Vera", "Bandit 1", "Bandit 2"), start=1):
        side, attributes = CAST[name]
        ids[name] = f"c{number}"
        history.do(AddCombatant(ids[name], name, side, frozen_map(attributes), weapons=weapons.get(name, ())))
    roll(history, {ids["Sokolov"]: (6,) * 6, ids["Vera"]: (5,) * 5, ids["Bandit 1"]: (4,) * 4,
                   ids["Bandit 2"]: (1,) * 4})
    return EncounterDocument(history), ids


@pytest.fixture
def dialog_for(qtbot: QtBot) -> DialogFactory:
    def make(document: EncounterDocument, seed: int = 1, **kwargs: Any) -> InstitutAttackDialog:
        dialog = InstitutAttackDialog(document, Roller.seeded(seed), **kwargs)
        qtbot.addWidget(dialog)
        return dialog

    return make


def picker_items(dialog: InstitutAttackDialog) -> list[str]:
    return [dialog.weapon_picker.itemText(index) for index in range(dialog.weapon_picker.count())]


def choose(dialog: InstitutAttackDialog, name: str) -> None:
    """Pick a saved weapon (or "" for Typed in the form) as the GM does."""
    dialog.weapon_picker.setCurrentIndex(dialog.weapon_picker.findData(name))


def rounds_left(document: EncounterDocument, combatant_id: str, weapon: str) -> int:
    carried = document.state.combatant(combatant_id).weapon(weapon)
    assert carried is not None
    return carried.number(ROUNDS)


def type_a_hit(dialog: InstitutAttackDialog) -> None:
    """Sokolov's Shooting 5 against Bandit 1's Dodge 2: 20 against 6, then 7 dice of damage: 14, Medium."""
    page = dialog.attack
    page.attack_entry.set_faces_text("6, 5, 4, 3, 2")
    page.defence_entry.set_faces_text("3, 3")
    page.damage_entries[0].set_faces_text("2, 2, 2, 2, 2, 2, 2")


# --- the form follows the weapon -----------------------------------------------------------------------------


def test_the_current_actor_opens_with_its_first_weapon_in_every_input_and_the_rounds_beside_it(
        dialog_for: DialogFactory) -> None:
    document, ids = armed_fight()
    dialog = dialog_for(document)
    page = dialog.attack
    assert dialog.attacker.currentData() == ids["Sokolov"] and dialog.target.currentData() == ids["Bandit 1"]
    assert picker_items(dialog) == ["AK-74 (7 dice, burst 3/2)", "Knife (Strength +1)",
                                    "F-1 (grenade, 8 dice, radius 15 m)", "Typed in the form"]
    assert dialog.weapon_picker.isVisibleTo(dialog) and dialog.ammunition.text() == "30/30 rounds"
    assert (page.name.text(), page.kind.value(), page.damage.value(), page.burst.text(), page.mode.value()) == (
        "AK-74", WeaponKind.FIREARM, 7, "3/2", FireMode.BURST)
    assert not page.one_handed.isChecked() and page.skill_name.value() == "shooting" and page.skill.value() == 5
    assert "A hit puts 2 wounds of the rolled class." in page.sheet_label.text()
    assert "Uses 3 rounds." in page.sheet_label.text()


def test_another_weapon_fills_the_form_and_typed_in_the_form_leaves_it_as_typed(dialog_for: DialogFactory) -> None:
    document, _ids = armed_fight()
    dialog = dialog_for(document)
    page = dialog.attack
    choose(dialog, "Knife")
    assert (page.name.text(), page.kind.value(), page.damage.value(), page.burst.text(), page.mode.value()) == (
        "Knife", WeaponKind.MELEE, 1, "", FireMode.SINGLE)
    assert page.skill_name.value() == "melee" and page.skill.value() == 0  # Sokolov has no Melee
    assert dialog.ammunition.text() == ""
    page.damage.setValue(2)  # the GM may still change what the weapon filled in
    choose(dialog, "")
    assert (page.name.text(), page.kind.value(), page.damage.value()) == ("Knife", WeaponKind.MELEE, 2)
    type_a_hit(dialog)
    operation = dialog.operation()
    assert isinstance(operation, InstitutAttack) and operation.saved_weapon == "" and operation.weapon == "Knife"


def test_a_grenade_is_thrown_on_the_grenade_page_and_a_gun_brings_the_shooting_page_back(
        dialog_for: DialogFactory) -> None:
    document, ids = armed_fight()
    dialog = dialog_for(document)
    choose(dialog, "F-1")
    assert dialog.page() is dialog.grenade
    grenade = dialog.grenade
    assert (grenade.grenade.text(), grenade.timed.value(), grenade.damage.value()) == ("F-1", True, 8)
    assert dialog.attack.name.text() == "AK-74"  # the shooting page keeps its gun
    grenade.distance.setValue(5)
    grenade.throw_entry.set_faces_text("6, 5")
    operation = dialog.operation()
    assert isinstance(operation, ThrowGrenade) and operation.saved_weapon == "F-1"
    choose(dialog, "AK-74")
    assert dialog.page() is dialog.attack
    dialog.tabs.setCurrentWidget(dialog.grenade)  # the GM's own page: its attack is not made with the rifle
    operation = dialog.operation()
    assert isinstance(operation, ThrowGrenade) and operation.saved_weapon == ""
    assert ids["Sokolov"] == operation.thrower


def test_the_suppression_page_takes_the_guns_burst_and_refuses_more_rounds_than_are_loaded(
        dialog_for: DialogFactory) -> None:
    document, ids = armed_fight()
    document.apply(NextTurn())
    document.apply(NextTurn())
    dialog = dialog_for(document, attacker_id=ids["Bandit 2"])
    dialog.tabs.setCurrentWidget(dialog.suppression)
    page = dialog.suppression
    assert (page.weapon.text(), page.fire_damage.value(), page.bullets.value()) == ("PK machine gun", 8, 10)
    page.squares.setValue(11)
    assert "PK machine gun has 100 rounds left, not enough for 110: reload first." in dialog.status_label.text()
    assert not dialog.resolve_button.isEnabled()
    page.squares.setValue(2)
    dialog.resolve()
    assert isinstance(document.history.entries[-1].operation, SuppressionFire)
    assert rounds_left(document, ids["Bandit 2"], "PK machine gun") == 80


def test_the_gms_list_replaces_the_saved_weapon(dialog_for: DialogFactory) -> None:
    document, _ids = armed_fight()
    dialog = dialog_for(document)
    dialog.attack.preset.select("Makarov")
    assert dialog.weapon_picker.currentData() == "" and dialog.ammunition.text() == ""
    assert dialog.attack.one_handed.isChecked() and dialog.attack.name.text() == "Makarov"
    dialog.grenade.preset.select("RGN")
    assert (dialog.grenade.grenade.text(), dialog.grenade.timed.value(), dialog.grenade.damage.value()) == (
        "RGN", False, 6)


def test_two_guns_only_with_one_handed_weapons(dialog_for: DialogFactory) -> None:
    document, _ids = armed_fight()
    dialog = dialog_for(document)
    dialog.attack.mode.select(FireMode.TWO_GUNS)
    assert "Two guns at once only with weapons held in one hand" in dialog.status_label.text()
    dialog.attack.one_handed.setChecked(True)
    assert "Two guns" not in dialog.status_label.text()


# --- ammunition ----------------------------------------------------------------------------------------------


def test_an_attack_counts_the_burst_down_and_the_label_follows(dialog_for: DialogFactory) -> None:
    document, ids = armed_fight()
    dialog = dialog_for(document)
    type_a_hit(dialog)
    dialog.resolve()
    assert rounds_left(document, ids["Sokolov"], "AK-74") == 27
    assert dialog.ammunition.text() == "27/30 rounds"
    assert "AK-74: 27 rounds left." in dialog.attack.result.text()
    assert document.state.combatant(ids["Bandit 1"]).boxes("medium") == 2  # a 3/2 burst: two wounds


def test_an_empty_magazine_is_said_before_the_dice_and_reloading_fills_it(dialog_for: DialogFactory) -> None:
    document, ids = armed_fight(rounds=2)
    dialog = dialog_for(document)
    assert "AK-74 has 2 rounds left, not enough for 3: reload first." in dialog.status_label.text()
    assert not dialog.resolve_button.isEnabled()
    dialog.attack.mode.select(FireMode.SINGLE)  # one round is there
    assert dialog.resolve_button.isEnabled() is False and "reload" not in dialog.status_label.text()
    document.apply(Reload(ids["Sokolov"], "AK-74"))
    assert dialog.ammunition.text() == "30/30 rounds"


def test_typed_in_the_form_stays_typed_for_the_next_attack(dialog_for: DialogFactory) -> None:
    """Regression: the next attack's first dice set the picker back to the first saved weapon (its rounds were
    then fired by an attack the GM had typed)."""
    document, ids = armed_fight()
    dialog = dialog_for(document)
    choose(dialog, "")
    type_a_hit(dialog)
    dialog.resolve()
    dialog.attack.attack_entry.set_faces_text("6, 6, 6, 6, 6")  # the next attack begins
    assert dialog.weapon_picker.currentData() == ""
    operation = dialog.operation()
    assert operation is None or (isinstance(operation, InstitutAttack) and operation.saved_weapon == "")
    assert rounds_left(document, ids["Sokolov"], "AK-74") == 30


# --- the last weapon and target ----------------------------------------------------------------------------


def test_the_next_dialog_opens_with_the_last_weapon_and_target(dialog_for: DialogFactory) -> None:
    document, ids = armed_fight()
    dialog = dialog_for(document, target_id=ids["Bandit 2"])
    choose(dialog, "Knife")
    page = dialog.attack
    page.attack_entry.set_faces_text("6, 6")
    page.defence_entry.set_faces_text("1, 1")
    page.damage_entries[0].set_faces_text("6, 6, 6")
    dialog.resolve()
    assert document.history.entries[-1].operation.attack_record().weapon == "Knife"  # type: ignore[union-attr]
    again = dialog_for(document)
    assert again.attacker.currentData() == ids["Sokolov"] and again.target.currentData() == ids["Bandit 2"]
    assert again.weapon_picker.currentData() == "Knife" and again.attack.name.text() == "Knife"
    assert again.attack.kind.value() is WeaponKind.MELEE


def test_a_target_with_nothing_left_to_dodge_with_is_shot_at_against_a_difficulty(
        dialog_for: DialogFactory) -> None:
    document, ids = armed_fight()
    document.apply(NextTurn())
    document.apply(DeclareActions(ids["Vera"], 2))  # her second action is left to dodge with
    document.apply(NextTurn())
    document.apply(NextTurn())  # Bandit 2's turn: Sokolov has had his and declared nothing more
    dialog = dialog_for(document, attacker_id=ids["Bandit 2"], target_id=ids["Sokolov"])
    page = dialog.attack
    assert page.defence.value() is Defence.DIFFICULTY
    assert "Sokolov has no action left to dodge or block with" in page.sheet_label.text()
    assert page.defence_entry.count_label.text() == "Sokolov has no action left to dodge with."
    dialog.target.setCurrentIndex(dialog.target.findData(ids["Vera"]))
    assert page.defence.value() is Defence.DODGE and page.defence_skill.value() == 4
    dialog.target.setCurrentIndex(dialog.target.findData(ids["Sokolov"]))
    page.defence.select(Defence.BLOCK)  # the GM's own choice stays
    dialog.target.setCurrentIndex(dialog.target.findData(ids["Vera"]))
    assert page.defence.value() is Defence.BLOCK


# --- Repeat last attack in the window ------------------------------------------------------------------------


def _active(window: MainWindow, qtbot: QtBot) -> None:
    with qtbot.waitExposed(window):
        window.show()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    window.table.setFocus()


def test_repeat_last_attack_takes_an_npc_from_its_turn_to_damage_in_two_keys(
        open_window: Callable[..., MainWindow], qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    window = open_window(sample="institut", seed=3)
    window.session.next_turn()  # Arkhipov is done: Bandit 2's turn, his sawn-off loaded
    bandit = window.session.current_actor()
    assert bandit is not None and window.document.state.combatant(bandit).name == "Bandit 2"
    keys: list[str] = []
    seen: list[tuple[str, str, str]] = []

    def run(dialog: QDialog) -> None:  # the modal dialog, driven as the GM's keys would
        assert isinstance(dialog, InstitutAttackDialog)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        with qtbot.waitExposed(dialog):
            dialog.show()  # Repeat last attack rolls every die as it shows
        seen.append((dialog.attacker.currentText(), dialog.weapon_picker.currentData(), dialog.target.currentText()))
        QTest.keyClick(dialog.focusWidget() or dialog, Qt.Key.Key_Return)
        keys.append("Enter")
        dialog.close()

    monkeypatch.setattr(ui.commands.fight, "run_dialog", run)
    _active(window, qtbot)
    QTest.keyClick(window, Qt.Key.Key_A, Qt.KeyboardModifier.ShiftModifier)
    keys.insert(0, "Shift+A")
    assert seen == [("Bandit 2", "Sawn-off", "Sokolov")]  # no attack yet: the first weapon, the first foe
    operation = window.document.history.entries[-1].operation
    assert isinstance(operation, InstitutAttack) and operation.damage_rolls, window.document.history.entries[-1].text()
    sokolov = window.document.state.combatant(operation.target)
    assert sum(sokolov.boxes(key) for key in CLASSES) > 0  # damage on the target
    assert rounds_left(window.document, bandit, "Sawn-off") == 1
    assert keys == ["Shift+A", "Enter"] and len(keys) <= 3
    # The next time, the same weapon and the same target come back by themselves.
    _active(window, qtbot)
    window.actions_by_name["repeat_attack"].trigger()
    assert seen[-1] == ("Bandit 2", "Sawn-off", "Sokolov")
    assert rounds_left(window.document, bandit, "Sawn-off") == 0
    # Both barrels fired: Enter does nothing until he reloads (Shift+R), which is one more action of his round.
    steps = len(window.document.history.entries)
    window.actions_by_name["repeat_attack"].trigger()
    assert len(window.document.history.entries) == steps
    before = rounds.round_actions(window.document.state.combatant(bandit))
    _active(window, qtbot)
    QTest.keyClick(window, Qt.Key.Key_R, Qt.KeyboardModifier.ShiftModifier)
    assert rounds_left(window.document, bandit, "Sawn-off") == 2
    after = rounds.round_actions(window.document.state.combatant(bandit))
    assert after.taken == before.taken + 1 and after.declared == before.declared + 1
    QApplication.processEvents()


def attack_dice_of(entry: Any) -> str:
    """The dice a dice entry asks for ("7d6"; "" when it needs none)."""
    expression = entry.expression()
    return expression.text if expression is not None else ""


def test_a_weapons_own_dice_to_hit_fill_the_form_and_the_attack_roll(dialog_for: DialogFactory) -> None:
    """The seed: the modifiers listed for the firearm apply to the Shooting check; a scoped AK-74 with +2 dice."""
    history = History(Encounter("institut", "Weapons"))
    scoped = ready_made("AK-74", "Scoped AK", hit=2)
    for number, name in enumerate(("Sokolov", "Bandit 1"), start=1):
        side, attributes = CAST[name]
        history.do(AddCombatant(f"c{number}", name, side, frozen_map(attributes),
                                weapons=(scoped,) if name == "Sokolov" else ()))
    roll(history, {"c1": (6,) * 6, "c2": (1,) * 4})
    dialog = dialog_for(EncounterDocument(history))
    page = dialog.attack
    assert page.weapon_hit.value() == 2 and page.skill.value() == 5
    assert attack_dice_of(page.attack_entry) == "7d6"  # Shooting 5 + the weapon's 2
    choose(dialog, "")
    page.weapon_hit.setValue(-1)  # the GM may type a weapon's modifier in
    assert attack_dice_of(page.attack_entry) == "4d6"


def test_a_punch_blocked_with_a_club_wounds_the_puncher_with_the_clubs_damage(dialog_for: DialogFactory) -> None:
    """The seed: "когда меч блокирует кулак, бьющий получает повреждения от меча". Sokolov punches Bandit 1,
    who blocks with his club (+2 to Strength 3): the club's 5 dice go against Sokolov's fist."""
    history = History(Encounter("institut", "Weapons"))
    for number, name in enumerate(("Sokolov", "Bandit 1"), start=1):
        side, attributes = CAST[name]
        history.do(AddCombatant(f"c{number}", name, side, frozen_map(attributes),
                                weapons=(ready_made("Club"),) if name == "Bandit 1" else ()))
    roll(history, {"c1": (6,) * 6, "c2": (1,) * 4})
    document = EncounterDocument(history)
    dialog = dialog_for(document)
    page = dialog.attack
    page.kind.select(WeaponKind.UNARMED)
    assert not page.blade.isEnabled()  # a dodge: no blade in play
    page.defence.select(Defence.BLOCK)
    assert page.blade.isEnabled() and page.blade.isChecked() and page.blade_dice.value() == 2
    assert page.defence_skill.value() == 2  # Bandit 1's Melee
    assert not page.blade_entry.isHidden() and attack_dice_of(page.blade_entry) == "5d6"
    page.attack_entry.set_faces_text("3, 3")  # Boxing 2: 6 against the block's 7
    page.defence_entry.set_faces_text("4, 3")
    assert dialog.status_label.text() == "Roll or type the dice, then press Resolve."
    page.blade_entry.set_faces_text("3, 3, 3, 3, 2")
    assert dialog.resolve_button.isEnabled(), dialog.status_label.text()
    dialog.resolve()
    operation = document.history.entries[-1].operation
    assert isinstance(operation, InstitutAttack) and operation.blade_faces == (3, 3, 3, 3, 2)
    assert document.state.combatant("c1").boxes("medium") == 1  # 14 points: a Medium wound on Sokolov
    page.attack_entry.set_faces_text("6, 6")  # a punch that gets through: the blade's dice are not needed
    page.defence_entry.set_faces_text("1, 1")
    assert attack_dice_of(page.blade_entry) == ""
    page.blade.setChecked(False)
    assert page.blade_entry.isHidden()
