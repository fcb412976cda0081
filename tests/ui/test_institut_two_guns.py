"""Two guns on the Institute's shooting page with the second gun a weapon of its own (issue 15): the GM picks it
from the attacker's weapons, each gun fires from its own magazine, a gun not held in one hand or empty is refused
before the dice quoting the rule, and Undo gives both guns their rounds back."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import icepool
import pytest
from pytestqt.qtbot import QtBot

from app.document import EncounterDocument
from rules.combatants import AddCombatant
from rules.dice import Roller
from rules.encounter import Encounter, Weapon, frozen_map
from rules.history import History
from rules.systems.institut.arms import ready_made
from rules.systems.institut.combat import FireMode
from rules.weapons import ROUNDS
from tests.rules.test_institut_scenes import CAST, roll
from ui.games.institut.attack import InstitutAttackDialog

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")

DialogFactory = Callable[..., InstitutAttackDialog]


def pistols_fight(right_rounds: int = 5, *extra: Weapon) -> tuple[EncounterDocument, dict[str, str]]:
    """Round 1, Sokolov's turn: he carries two Makarovs (the right one with ``right_rounds``), a Kedr, an AK-74 and
    ``extra``."""
    guns = (ready_made("Makarov", "Makarov (left)"), ready_made("Makarov", "Makarov (right)", rounds=right_rounds),
            ready_made("Kedr SMG", "Kedr"), ready_made("AK-74"), *extra)
    history = History(Encounter("institut", "Two guns"))
    ids = {}
    for number, name in enumerate(("Sokolov", "Vera", "Bandit 1"), start=1):
        side, attributes = CAST[name]
        ids[name] = f"c{number}"
        history.do(AddCombatant(ids[name], name, side, frozen_map(attributes),
                                weapons=guns if name == "Sokolov" else ()))
    roll(history, {ids["Sokolov"]: (6,) * 6, ids["Vera"]: (5,) * 5, ids["Bandit 1"]: (1,) * 4})
    return EncounterDocument(history), ids


@pytest.fixture
def dialog_for(qtbot: QtBot) -> DialogFactory:
    def make(document: EncounterDocument, **kwargs: Any) -> InstitutAttackDialog:
        dialog = InstitutAttackDialog(document, Roller.seeded(1), **kwargs)
        qtbot.addWidget(dialog)
        return dialog

    return make


def two_guns(dialog: InstitutAttackDialog, second: str) -> None:
    """Makarov (left) first, ``second`` as the second gun, against Bandit 1."""
    dialog.weapon_picker.setCurrentIndex(dialog.weapon_picker.findData("Makarov (left)"))
    dialog.attack.mode.select(FireMode.TWO_GUNS)
    dialog.attack.second_gun.gun.select(second)


def left(document: EncounterDocument, combatant_id: str, weapon: str) -> int:
    carried = document.state.combatant(combatant_id).weapon(weapon)
    assert carried is not None
    return carried.number(ROUNDS)


def test_the_second_gun_is_picked_from_the_attackers_other_firearms(dialog_for: DialogFactory) -> None:
    document, _ids = pistols_fight()
    dialog = dialog_for(document)
    two_guns(dialog, "")
    picker = dialog.attack.second_gun.gun
    assert picker.values() == ["", "Makarov (right)", "Kedr", "AK-74"]
    assert picker.itemText(1) == "Makarov (right) (5 dice), 5/8 rounds"
    assert dialog.attack.second_gun.gun.isEnabled() and dialog.attack.second_gun.bursts.isEnabled()
    dialog.attack.mode.select(FireMode.SINGLE)
    assert not dialog.attack.second_gun.gun.isEnabled()


def test_identical_pistols_fire_a_round_each_roll_damage_twice_and_undo_gives_both_back(
        dialog_for: DialogFactory) -> None:
    document, ids = pistols_fight()
    dialog = dialog_for(document)
    two_guns(dialog, "Makarov (right)")
    page = dialog.attack
    assert page.identical.isChecked()  # the same Makarov: two damage rolls
    assert "Makarov (right) fires 1 round from its own magazine." in page.sheet_label.text()
    assert "Uses 1 round." in page.sheet_label.text()
    assert page.attack_entry.dice_count() == 5 - 1  # Shooting 5, "an extra −1"
    page.attack_entry.set_faces_text("6, 5, 4, 3")
    page.defence_entry.set_faces_text("1, 1")
    page.damage_entries[0].set_faces_text("2, 2, 2, 2, 2")
    page.damage_entries[1].set_faces_text("2, 2, 2, 2, 2")
    dialog.resolve()
    assert (left(document, ids["Sokolov"], "Makarov (left)"), left(document, ids["Sokolov"], "Makarov (right)")) == (
        7, 4)
    assert document.state.combatant(ids["Bandit 1"]).boxes("medium") == 2  # 10 points twice
    text = dialog.attack.result.text()
    assert "Makarov (left): 7 rounds left." in text and "Makarov (right): 4 rounds left." in text
    document.undo_stack.undo()
    assert (left(document, ids["Sokolov"], "Makarov (left)"), left(document, ids["Sokolov"], "Makarov (right)")) == (
        8, 5)


def test_different_guns_roll_damage_once(dialog_for: DialogFactory) -> None:
    document, _ids = pistols_fight()
    dialog = dialog_for(document)
    two_guns(dialog, "Kedr")
    assert not dialog.attack.identical.isChecked()  # "one bullet always misses"
    assert dialog.attack.damage_entries[1].isHidden()
    dialog.attack.second_gun.gun.select("Makarov (right)")
    assert dialog.attack.identical.isChecked()
    dialog.weapon_picker.setCurrentIndex(dialog.weapon_picker.findData("Kedr"))  # another first gun
    dialog.attack.mode.select(FireMode.TWO_GUNS)
    assert dialog.attack.second_gun.gun.value() == "Makarov (right)" and not dialog.attack.identical.isChecked()


def test_bursts_from_two_guns_take_each_guns_burst_and_a_gun_without_bursts_is_refused(
        dialog_for: DialogFactory) -> None:
    document, ids = pistols_fight(5, ready_made("Kedr SMG", "Kedr 2"))
    dialog = dialog_for(document)
    dialog.weapon_picker.setCurrentIndex(dialog.weapon_picker.findData("Kedr"))
    page = dialog.attack
    page.mode.select(FireMode.TWO_GUNS)
    page.second_gun.bursts.setChecked(True)
    page.second_gun.gun.select("Makarov (right)")
    assert "Makarov (right) fires no bursts: fire single shots from both guns." in dialog.status_label.text()
    page.second_gun.gun.select("Kedr 2")
    assert "Uses 3 rounds." in page.sheet_label.text()
    assert "Kedr 2 fires 3 rounds from its own magazine." in page.sheet_label.text()
    page.attack_entry.set_faces_text("6, 5, 4, 3")
    page.defence_entry.set_faces_text("1, 1")
    page.damage_entries[0].set_faces_text("2, 2, 2, 2, 2")
    page.damage_entries[1].set_faces_text("2, 2, 2, 2, 2")
    dialog.resolve()
    assert (left(document, ids["Sokolov"], "Kedr"), left(document, ids["Sokolov"], "Kedr 2")) == (17, 17)
    assert document.state.combatant(ids["Bandit 1"]).boxes("medium") == 2  # "useless": one wound a bullet


def test_a_gun_not_held_in_one_hand_or_empty_is_refused_before_the_dice(dialog_for: DialogFactory) -> None:
    document, _ids = pistols_fight(right_rounds=0)
    dialog = dialog_for(document)
    two_guns(dialog, "AK-74")
    assert ("AK-74 is not held in one hand: two guns at once only “if you can hold them in one hand”"
            in dialog.status_label.text())
    assert not dialog.resolve_button.isEnabled()
    dialog.attack.second_gun.gun.select("Makarov (right)")
    assert "Makarov (right) is empty: change its magazine first" in dialog.status_label.text()
    dialog.attack.second_gun.gun.select("")  # one weapon for both guns, as before: two rounds from the first
    assert "Uses 2 rounds." in dialog.attack.sheet_label.text()


def test_the_odds_before_the_roll_are_the_one_roll_at_an_extra_die_off(dialog_for: DialogFactory) -> None:
    """Two guns are one attack roll at −1 (Shooting 5: four dice) against Bandit 1's Dodge 2: icepool's odds."""
    document, _ids = pistols_fight()
    dialog = dialog_for(document)
    two_guns(dialog, "Makarov (right)")
    assert dialog.attack.defence_skill.value() == 2
    attack, dodge = 4 @ icepool.d6, 2 @ icepool.d6
    dodged = float((dodge > attack).probability(True))  # a dodge equal to the attack fails (Decision)
    assert dict(dialog.attack.odds.outcomes())["Dodged"] == pytest.approx(dodged, abs=1e-9)
