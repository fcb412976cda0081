"""The SR3 attack dialog splits a full-auto burst over several targets: the rounds given to each target, the metres
between targets and the rounds they waste ("1 round per metre between targets (never with a smartgun)")."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from app.document import EncounterDocument
from rules.dice import Roller
from rules.encounter import JsonValue, Weapon, frozen_map
from rules.systems.sr3 import SYSTEM as SR3
from rules.systems.sr3.ops import Sr3Attack
from rules.systems.sr3.tables import FiringMode
from rules.weapons import SetWeapons, checked_weapons
from tests.rules.test_sr3_odds import oracle_outcomes
from tests.ui.test_sr3_attack import fight, tn_lines, type_dice, wedge
from ui.games.sr3.attack import Sr3AttackDialog

AK: dict[str, JsonValue] = {"damage": "8M", "modes": "SA/BF/FA", "recoil_compensation": 4, "magazine": 38,
                            "rounds": 38, "laser_sight": True, "weapon_class": "assault_rifle"}


def _dialog(qtbot: QtBot, document: EncounterDocument) -> Sr3AttackDialog:
    dialog = Sr3AttackDialog(document, Roller.seeded(1))
    qtbot.addWidget(dialog)
    return dialog


def _rounds_left(document: EncounterDocument, ids: dict[str, str]) -> int:
    ak = document.state.combatant(ids["Mike"]).weapon("AK-97")
    assert ak is not None
    return ak.number("rounds")


def _carry_ak(ids: dict[str, str]) -> SetWeapons:
    (ak,) = checked_weapons([Weapon("AK-97", frozen_map(AK))], SR3)
    return SetWeapons(ids["Mike"], (ak,))


def _shoot(dialog: Sr3AttackDialog, document: EncounterDocument, ids: dict[str, str], target: str,
           rounds: int) -> Sr3Attack:
    dialog.target.setCurrentIndex(dialog.target.findData(ids[target]))
    dialog.weapon.rounds.setValue(rounds)
    type_dice(dialog, "1,2")
    dialog.resolve()
    assert dialog.next_button.isEnabled(), dialog.status_label.text()
    operation = document.history.entries[-1].operation
    assert isinstance(operation, Sr3Attack)
    return operation


def test_the_metres_to_the_next_target_waste_rounds_that_recoil_and_leave_the_clip(qtbot: QtBot) -> None:
    document, ids = fight(_carry_ak)
    dialog = _dialog(qtbot, document)
    dialog.weapon_picker.setCurrentIndex(dialog.weapon_picker.findData("AK-97"))
    dialog.weapon.mode.select(FiringMode.FA)
    dialog.dice.skill.setValue(2)
    assert not _shoot(dialog, document, ids, "Ganger 1", 3).wasted_rounds
    dialog.next_attack()
    assert dialog.weapon.fired.value() == 3
    dialog.situation.target_index.setValue(2)
    dialog.weapon.switch_metres.setValue(2)
    assert dialog.tn_label.text() == "TN 9"  # Wedge's 7, plus the 2 wasted rounds' recoil
    assert tn_lines(dialog)["recoil"] == 8
    assert "8M → 11S (FA, 3 rounds, 2 wasted)" in dialog.damage_label.text()
    assert "2 rounds wasted changing target" in dialog.tn_lines.text()
    sheet = dialog.sheet
    assert sheet is not None
    dice = dialog.dice.skill.value() + dialog.dice.attack_pool.value()
    oracle = oracle_outcomes((dice, 9, dialog.dice.dodge.value(), sheet.dodge_tn.value, dialog.dice.resist_dice(),
                              sheet.resist_tn, sheet.level))
    assert sheet.odds == pytest.approx({key: float(value) for key, value in oracle.items()}, abs=1e-12)
    operation = _shoot(dialog, document, ids, "Ganger 2", 3)
    assert (operation.rounds, operation.wasted_rounds, operation.attack_tn) == (3, 2, 9)
    assert "2 rounds wasted changing target." in document.history.entries[-1].text()
    assert _rounds_left(document, ids) == 38 - 8
    dialog.next_attack()
    assert dialog.weapon.fired.value() == 8  # the wasted rounds count in the phase's burst
    document.undo_stack.undo()
    assert _rounds_left(document, ids) == 38 - 3


def test_rounds_that_do_not_add_up_are_refused_with_the_rule(qtbot: QtBot) -> None:
    document, _ids = fight()
    dialog = _dialog(qtbot, document)
    wedge(dialog)
    dialog.weapon.fired.setValue(6)
    dialog.situation.target_index.setValue(3)
    dialog.weapon.switch_metres.setValue(2)
    dialog.weapon.rounds.setValue(3)
    assert dialog.sheet is None and dialog.tn_label.text() == "TN –"
    status = dialog.status_label.text()
    assert "6 fired before, 2 wasted changing target and 3 at this target make 11 rounds." in status
    assert "changing target wastes 1 round per metre between targets (never with a smartgun)" in status
    dialog.weapon.smartgun.setChecked(True)  # a smartgun never wastes: 6 + 3 adds up
    assert dialog.sheet is not None and dialog.sheet.wasted == 0


def test_only_full_auto_moves_between_targets(qtbot: QtBot) -> None:
    document, _ids = fight()
    dialog = _dialog(qtbot, document)
    wedge(dialog)
    assert dialog.weapon.switch_metres.isEnabled()
    dialog.weapon.fired.setValue(3)
    dialog.weapon.switch_metres.setValue(4)
    dialog.weapon.mode.select(FiringMode.SA)
    assert not dialog.weapon.switch_metres.isEnabled() and dialog.weapon.switch_metres.value() == 0
