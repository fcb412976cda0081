"""The SR3 attack dialog: live TN and odds from the rules, typed or rolled dice, one undoable attack."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QLabel, QScrollArea
from pytestqt.qtbot import QtBot

from app.document import EncounterDocument
from rules.combatants import AddCombatant, ApplyHarm, SetAttribute, SetOption, SpendPool
from rules.dice import Roller, parse
from rules.encounter import JsonValue, Side, Weapon, frozen_map
from rules.history import Operation, new_history
from rules.systems.sr3 import SYSTEM as SR3
from rules.systems.sr3 import SurpriseTest, initiative, shot
from rules.systems.sr3.damage import Ammo
from rules.systems.sr3.dice import TargetNumberTest
from rules.systems.sr3.odds import OUTCOME_LABELS, OUTCOMES, attack_outcome_distribution
from rules.systems.sr3.ops import Sr3Attack, Sr3QuickDrawFailed
from rules.systems.sr3.tables import FiringMode, RangeCategory, WeaponKind
from rules.turns import NextTurn
from rules.weapons import SetWeapons
from tests.rules.sr3_scenes import eight_characters, roll_ones
from ui.games import game_ui
from ui.games.sr3.attack import Sr3AttackDialog
from ui.widgets.odds_table import format_percent

#: Set to a folder to keep the screenshots (they always go to the test's tmp_path as well).
SHOTS = os.environ.get("BOJOVKA_SHOTS")
#: The laptop the layout must fit: 1366×768 less a title bar and a task bar.
LAPTOP = (1366, 700)

DialogFactory = Callable[..., Sr3AttackDialog]


def fight(*before: Callable[[dict[str, str]], Operation]) -> tuple[EncounterDocument, dict[str, str]]:
    """The seed's eight characters (combat pool 6 each); ``before`` runs before initiative is rolled."""
    history, ids = eight_characters()
    for make in before:
        history.do(make(ids))
    roll_ones(history, ids)
    return EncounterDocument(history), ids


@pytest.fixture
def dialog_for(qtbot: QtBot) -> DialogFactory:
    def make(document: EncounterDocument, seed: int = 1, **kwargs: Any) -> Sr3AttackDialog:
        dialog = Sr3AttackDialog(document, Roller.seeded(seed), **kwargs)
        qtbot.addWidget(dialog)
        return dialog

    return make


def snot_is_armored_and_lightly_hurt() -> list[Callable[[dict[str, str]], Operation]]:
    """The seed's Snot: armor 4 and a Light wound (dodge TN 5, resistance TN 9 − 4)."""
    return [lambda ids: SetAttribute(ids["Ganger 1"], "ballistic", 4),
            lambda ids: ApplyHarm(ids["Ganger 1"], "physical", 1, "earlier")]


def wedge(dialog: Sr3AttackDialog) -> None:
    """AK-97 8M, full auto 3 rounds, recoil compensation 4, short range, laser sight."""
    dialog.weapon.name.setText("AK-97")
    dialog.weapon.code.setText("8M")
    dialog.weapon.mode.select(FiringMode.FA)
    dialog.weapon.rounds.setValue(3)
    dialog.weapon.compensation.setValue(4)
    dialog.weapon.range.select(RangeCategory.SHORT)
    dialog.situation.laser.setChecked(True)


def type_dice(dialog: Sr3AttackDialog, attack: str, dodge: str = "", resist: str = "") -> None:
    dialog.dice.attack_entry.set_faces_text(attack)
    dialog.dice.dodge_entry.set_faces_text(dodge)
    dialog.dice.resist_entry.set_faces_text(resist)


def tn_lines(dialog: Sr3AttackDialog) -> dict[str, int]:
    assert dialog.sheet is not None
    return {line.key: line.value for line in dialog.sheet.attack_tn.lines}


# --- the registry and the defaults --------------------------------------------------------------


def test_the_window_finds_the_dialog_by_game() -> None:
    assert game_ui("sr3").attack_dialog() is Sr3AttackDialog
    assert game_ui("no such game").attack_dialog() is None


def test_attacker_is_the_current_actor_and_target_the_first_foe(dialog_for: DialogFactory) -> None:
    document, ids = fight()
    dialog = dialog_for(document)
    assert dialog.attacker.currentData() == ids["Mike"]
    assert dialog.target.currentData() == ids["Ganger 1"]
    assert dialog.target.findData(ids["Mike"]) == -1  # nobody shoots themself
    chosen = dialog_for(document, attacker_id=ids["Ganger 2"], target_id=ids["Dave"])
    assert (chosen.attacker.currentData(), chosen.target.currentData()) == (ids["Ganger 2"], ids["Dave"])


# --- the live target number ----------------------------------------------------------------------


def test_wedge_full_auto_at_three_targets(dialog_for: DialogFactory) -> None:
    document, _ids = fight()
    dialog = dialog_for(document)
    wedge(dialog)
    assert dialog.tn_label.text() == "TN 3"
    assert tn_lines(dialog) == {"range": 4, "recoil": 3, "recoil_compensation": -3, "laser_sight": -1}
    assert "Laser sight" in dialog.tn_lines.text()
    assert "8M → 11S (FA, 3 rounds)" in dialog.damage_label.text()
    dialog.weapon.fired.setValue(3)
    dialog.situation.target_index.setValue(2)
    assert dialog.tn_label.text() == "TN 7"
    dialog.weapon.rounds.setValue(4)
    dialog.weapon.fired.setValue(6)
    dialog.situation.target_index.setValue(3)
    assert dialog.tn_label.text() == "TN 13"
    assert tn_lines(dialog) == {"range": 4, "recoil": 10, "recoil_compensation": -4, "multiple_targets": 4,
                                "laser_sight": -1}
    assert dialog.sheet is not None and (dialog.sheet.power, dialog.sheet.level) == (12, "S")


def test_recoil_accumulates_from_shot_to_shot(dialog_for: DialogFactory, qtbot: QtBot) -> None:
    document, ids = fight()
    dialog = dialog_for(document)
    wedge(dialog)
    dialog.dice.skill.setValue(4)
    type_dice(dialog, "1,2,1,1")  # a clean miss: no dodge or resistance dice needed
    qtbot.mouseClick(dialog.resolve_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(dialog.next_button, Qt.MouseButton.LeftButton)
    assert dialog.weapon.fired.value() == 3
    dialog.target.setCurrentIndex(dialog.target.findData(ids["Ganger 2"]))
    dialog.situation.target_index.setValue(2)
    assert dialog.tn_label.text() == "TN 7"
    type_dice(dialog, "1,2,1,1")
    dialog.resolve()
    dialog.next_attack()
    assert dialog.weapon.fired.value() == 6
    dialog.weapon.rounds.setValue(4)
    dialog.situation.target_index.setValue(3)
    assert dialog.tn_label.text() == "TN 13"
    dialog.weapon.mode.select(FiringMode.SS)
    assert not dialog.weapon.rounds.isEnabled()


def test_a_bad_entry_is_explained_and_blocks_resolve(dialog_for: DialogFactory) -> None:
    document, _ids = fight()
    dialog = dialog_for(document)
    dialog.weapon.code.setText("9X")
    assert "is not a damage code: type a Power and a level (L, M, S, D)" in dialog.weapon.code_error.text()
    assert not dialog.weapon.code_error.isHidden()
    assert dialog.tn_label.text() == "TN –"
    assert {percent for _label, percent in dialog.dice.odds.displayed()} == {"–"}  # no made-up odds
    assert not dialog.resolve_button.isEnabled()
    dialog.weapon.code.setText("9M")
    assert dialog.weapon.code_error.isHidden()
    assert dialog.weapon.mode.value() is FiringMode.SA  # a weapon typed in starts semi-automatic
    dialog.weapon.mode.select(FiringMode.SS)
    dialog.situation.called.setChecked(True)  # a called shot needs SA, SB, BF or FA
    assert "called shot needs" in dialog.problem()
    assert dialog.status_label.text() == dialog.problem()
    dialog.weapon.mode.select(FiringMode.SA)
    assert tn_lines(dialog)["called_shot"] == 4


def test_the_gm_may_pick_the_range_or_let_the_table_decide(dialog_for: DialogFactory) -> None:
    document, _ids = fight()
    dialog = dialog_for(document)
    dialog.weapon.range.select(None)
    assert "Choose a range category" in dialog.problem()
    dialog.weapon.weapon_class.select("assault_rifle")
    dialog.weapon.distance.setValue(200)
    assert tn_lines(dialog)["range"] == 6  # 200 m with an assault rifle is long range
    dialog.weapon.range.select(RangeCategory.MEDIUM)
    assert tn_lines(dialog)["range"] == 5  # the GM's choice wins
    dialog.weapon.weapon_class.select("mmg")
    assert dialog.weapon.heavy.isChecked()  # heavy weapons double uncompensated recoil


def test_a_bows_ranges_scale_with_its_strength_minimum_not_the_wielders_strength(
        dialog_for: DialogFactory) -> None:
    """sr3.md, Ranges: "bow STRmin ×1/10/30/60 (its Strength Minimum) … Example: bow, STR 5: 0–5 / 6–50 / 51–150 /
    151–300 m". Mike (Strength 3) with a Strength Minimum 5 bow: 40 m is medium (TN 5), not long as with his own
    Strength (3 × 10 = 30 m)."""
    document, ids = fight()
    bow = Weapon("Ranger X", frozen_map({"kind": "projectile", "damage": "(STR+2)M", "weapon_class": "bow",
                                        "strength_minimum": 5}))
    document.apply(SetWeapons(ids["Mike"], (bow,)))
    dialog = dialog_for(document, target_id=ids["Ganger 1"])
    assert dialog.weapon_name() == "Ranger X"
    dialog.weapon.range.select(None)
    dialog.weapon.distance.setValue(40)
    assert tn_lines(dialog)["range"] == 5  # medium: 6–50 m
    dialog.weapon.distance.setValue(51)
    assert tn_lines(dialog)["range"] == 6  # long: 51–150 m
    document.apply(SetWeapons(ids["Mike"], (bow.with_value("strength_minimum", 0),)))
    dialog.next_button.click()
    dialog.weapon.range.select(None)
    dialog.weapon.distance.setValue(40)
    assert tn_lines(dialog)["range"] == 6  # the wielder's Strength 3: 31–90 m is long


def test_wound_modifiers_are_prefilled_from_the_monitors(dialog_for: DialogFactory) -> None:
    document, _ids = fight(lambda ids: ApplyHarm(ids["Mike"], "physical", 3, "earlier"),
                          *snot_is_armored_and_lightly_hurt())
    dialog = dialog_for(document)
    assert dialog.situation.wounds.value() == 2  # Moderate
    assert dialog.defence.wounds.value() == 1  # Light: dodge TN 5
    assert dialog.defence.ballistic.value() == 4
    assert dialog.dice.body.value() == 4
    assert tn_lines(dialog)["wounds"] == 2


def test_before_any_attack_dice_the_defence_dice_wait(dialog_for: DialogFactory) -> None:
    document, _ids = fight()
    dialog = dialog_for(document)
    dialog.dice.dodge.setValue(2)
    assert dialog.dice.attack_entry.count_label.text() == "Enter the skill dice."
    assert dialog.dice.dodge_entry.count_label.text() == "2 dice: 2d6 TN 4"
    assert dialog.dice.resist_entry.count_label.text() == "4 dice: 4d6 TN 9"
    assert dialog.problem() == "Enter the attacker's skill dice (and combat pool dice, if any)."
    assert dialog.status_label.property("error") is False  # a first step, not an error
    assert "Dodge TN 4<br>" in dialog.damage_label.text() or dialog.damage_label.text().endswith("Dodge TN 4")


def test_notes_say_why_a_bonus_was_dropped(dialog_for: DialogFactory) -> None:
    document, _ids = fight()
    dialog = dialog_for(document)
    dialog.situation.laser.setChecked(True)
    dialog.situation.smartlink.setChecked(True)
    assert "Smartlink and smartgoggles need a smartgun." in dialog.tn_lines.text()
    dialog.weapon.smartgun.setChecked(True)
    # sr3.md, Decisions: "laser and smartlink both count (the seed bars no combination)"
    assert tn_lines(dialog) == {"range": 4, "smartlink": -2, "laser_sight": -1}
    assert "A laser sight does not add to a smart system." not in dialog.tn_lines.text()


def test_the_gms_own_tables_apply(dialog_for: DialogFactory) -> None:
    overrides: JsonValue = {"range": {"base_tn": {"short": 3}}, "dodge": {"base_tn": 5}}
    document, _ids = fight(lambda _ids: SetOption("tables", overrides))
    dialog = dialog_for(document)
    assert tn_lines(dialog)["range"] == 3
    assert dialog.sheet is not None and dialog.sheet.dodge_tn.value == 5
    document.apply(SetOption("tables", {"range": {"base_tn": {"short": 2}}}))
    assert tn_lines(dialog)["range"] == 2


def test_the_form_follows_the_fight(dialog_for: DialogFactory, qtbot: QtBot) -> None:
    document, ids = fight()
    dialog = dialog_for(document)
    dialog.weapon.fired.setValue(3)
    document.apply(AddCombatant("c9", "Ganger 4", Side.OPPONENT, frozen_map({"body": 5})))
    assert dialog.target.findData("c9") >= 0
    assert dialog.weapon.fired.value() == 3  # still Mike's phase
    document.apply(ApplyHarm(ids["Ganger 1"], "physical", 3, "grenade"))
    assert dialog.defence.wounds.value() == 2  # the target's new wound modifier
    document.apply(NextTurn())
    assert dialog.weapon.fired.value() == 0  # a new phase: nothing fired yet
    with qtbot.waitSignal(dialog.rejected, timeout=1000):  # another fight loaded: this attack is moot
        document.replace_history(new_history("sr3"), None)


# --- odds ----------------------------------------------------------------------------------------


def test_the_odds_shown_are_the_rules_odds(dialog_for: DialogFactory) -> None:
    document, _ids = fight()
    dialog = dialog_for(document)
    wedge(dialog)
    dialog.dice.skill.setValue(6)
    dialog.dice.attack_pool.setValue(2)
    dialog.dice.dodge.setValue(2)
    dialog.dice.resist_pool.setValue(1)
    # 8 dice at TN 3; dodge 2 dice at 4 + 1 (three rounds); Body 4 + 1 at 11S − no armor.
    expected = attack_outcome_distribution(8, 3, 2, 5, 5, 11, "S")
    assert dialog.dice.odds.displayed() == [(OUTCOME_LABELS[key], format_percent(expected[key])) for key in OUTCOMES]
    dialog.dice.dodge.setValue(0)
    expected = attack_outcome_distribution(8, 3, 0, 5, 5, 11, "S")
    assert dialog.dice.odds.outcomes() == [(OUTCOME_LABELS[key], expected[key]) for key in OUTCOMES]


def test_one_computation_per_change(dialog_for: DialogFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    document, ids = fight()
    dialog = dialog_for(document)
    calls: list[tuple[object, ...]] = []

    def counting(*args: Any) -> dict[str, float]:
        calls.append(args)
        return attack_outcome_distribution(*args)

    monkeypatch.setattr(shot, "attack_outcome_distribution", counting)
    changes: list[Callable[[], None]] = [
        lambda: dialog.dice.skill.setValue(5),
        lambda: dialog.weapon.mode.select(FiringMode.FA),
        lambda: dialog.weapon.weapon_class.select("smg"),
        lambda: dialog.attacker.setCurrentIndex(dialog.attacker.findData(ids["Dave"])),
        lambda: dialog.target.setCurrentIndex(dialog.target.findData(ids["Ganger 3"])),
        lambda: dialog.situation.cover.setChecked(True),
        lambda: dialog.weapon.code.setText("10S"),
    ]
    for change in changes:
        calls.clear()
        change()
        assert len(calls) == 1
    calls.clear()
    dialog.dice.attack_entry.set_faces_text("1,2,3,4,5")  # dice never change the odds
    assert calls == []


# --- resolving -----------------------------------------------------------------------------------


def test_liam_shoots_snot_with_typed_dice(dialog_for: DialogFactory) -> None:
    document, ids = fight(*snot_is_armored_and_lightly_hurt())
    snot = ids["Ganger 1"]
    score_before = initiative.score(document.state.combatant(snot), 1)
    dialog = dialog_for(document)
    dialog.weapon.name.setText("Ares Predator")
    dialog.dice.skill.setValue(6)
    dialog.dice.dodge.setValue(2)
    dialog.dice.resist_pool.setValue(1)
    assert dialog.sheet is not None
    assert (dialog.sheet.attack_tn.value, dialog.sheet.dodge_tn.value, dialog.sheet.resist_tn) == (4, 5, 5)
    type_dice(dialog, "5,5,6,4,4,1", "5,6", "5,1,2,3,4")  # 5 hits vs 2 dodged + 1 resisted: M → S
    assert dialog.resolve_button.isEnabled()
    dialog.resolve()
    target = document.state.combatant(snot)
    assert target.boxes("physical") == 1 + 6
    assert target.pools["combat"].remaining == 6 - 3
    assert initiative.score(target, 1) == (score_before or 0) - 2  # Light −1 became Serious −3 at once
    assert dialog.dice.odds.highlighted() == OUTCOME_LABELS["S"]
    assert "Ganger 1 takes Serious Physical damage." in dialog.result_label.text()
    assert "Mike attacks Ganger 1 with Ares Predator (9M)." in dialog.result_label.text()
    assert not dialog.resolve_button.isEnabled() and dialog.next_button.isEnabled()
    assert len(document.history.entries) == 1 + len(snot_is_armored_and_lightly_hurt()) + 8 + 1


def test_after_a_shot_the_dice_stay_and_any_other_edit_sets_up_the_next(dialog_for: DialogFactory) -> None:
    document, _ids = fight(*snot_is_armored_and_lightly_hurt())
    dialog = dialog_for(document)
    dialog.weapon.name.setText("Ares Predator")
    dialog.dice.skill.setValue(6)
    dialog.dice.dodge.setValue(2)
    dialog.dice.resist_pool.setValue(1)
    type_dice(dialog, "5,5,6,4,4,1", "5,6", "5,1,2,3,4")
    entries = len(document.history.entries)
    dialog.resolve()
    assert len(document.history.entries) == entries + 1
    entries += 1
    dice = dialog.dice
    assert not any(entry.isEnabled() for entry in dice.entries()) and not dice.roll_all.isEnabled()
    assert dice.attack_entry.faces() == ((5,), (5,), (6,), (4,), (4,), (1,))  # as rolled, for the table to see
    assert dialog.weapon.isEnabled() and dialog.situation.isEnabled() and dice.skill.isEnabled()
    assert dialog.status_label.text() == "Enter sets up the next shot, and so does any change to the form; Esc closes."
    dice.skill.setValue(5)  # the second shot, with another skill: no press of Next
    assert dice.skill.value() == 5 and dice.attack_entry.faces() == () and dice.attack_entry.isEnabled()
    assert dialog.chart.highlighted() is None and not dialog.next_button.isEnabled()
    assert len(document.history.entries) == entries  # set up, not resolved (the last shot's lines stay in sight)
    type_dice(dialog, "1,1,1,1,1")  # five ones: a miss, no defence dice
    dialog.resolve()
    assert len(document.history.entries) == entries + 1, dialog.problem()


def test_rolled_dice_resolve_the_same_way_every_time(dialog_for: DialogFactory) -> None:
    def shoot() -> tuple[Operation, int]:
        document, ids = fight()
        dialog = dialog_for(document, seed=2024)
        dialog.dice.skill.setValue(6)
        dialog.dice.dodge.setValue(2)
        dialog.roll_remaining()
        dialog.resolve()
        return document.history.entries[-1].operation, document.state.combatant(ids["Ganger 1"]).boxes("physical")

    first, second = shoot(), shoot()
    assert first == second
    attack = first[0]
    assert isinstance(attack, Sr3Attack)
    assert attack.attack_faces == parse("6d6 tn 4", SR3.dice_words()).roll(Roller.seeded(2024)).faces


def test_a_miss_needs_no_dodge_and_spends_no_defence_pool(dialog_for: DialogFactory) -> None:
    document, ids = fight()
    dialog = dialog_for(document)
    dialog.dice.skill.setValue(3)
    dialog.dice.dodge.setValue(3)
    dialog.dice.resist_pool.setValue(2)
    dialog.dice.attack_entry.set_faces_text("1,2,3")
    assert dialog.dice.dodge_entry.count_label.text() == "Not needed: the attack missed."
    assert dialog.dice.resist_entry.expression() is None
    dialog.resolve()
    assert document.state.combatant(ids["Ganger 1"]).pools["combat"].spent == 0
    assert dialog.dice.odds.highlighted() == OUTCOME_LABELS["miss"]


def test_a_full_dodge_needs_no_resistance(dialog_for: DialogFactory) -> None:
    document, ids = fight()
    dialog = dialog_for(document)
    dialog.dice.skill.setValue(2)
    dialog.dice.dodge.setValue(3)
    type_dice(dialog, "5,2", "4,5,6")
    assert dialog.dice.resist_entry.count_label.text() == "Not needed: the attack was dodged."
    dialog.resolve()
    assert document.state.combatant(ids["Ganger 1"]).boxes("physical") == 0
    assert dialog.dice.odds.highlighted() == OUTCOME_LABELS["dodged"]


def test_explosive_rounds_can_blow_up_in_the_weapon(dialog_for: DialogFactory) -> None:
    document, ids = fight()
    dialog = dialog_for(document)
    dialog.weapon.ammo.select(Ammo.EX)
    dialog.dice.skill.setValue(3)
    dialog.dice.attack_entry.set_faces_text("1,1,1")
    assert not dialog.dice.misfire_entry.isHidden()
    assert dialog.dice.resist_entry.title_label.text() == "Shooter's resistance"
    assert not dialog.resolve_button.isEnabled()
    dialog.dice.misfire_entry.set_faces_text("2")  # stands in for 2 attacker successes
    dialog.dice.resist_entry.set_faces_text("1,2,3,4")  # Body 4 against 9 − no armor: none
    dialog.resolve()
    assert document.state.combatant(ids["Mike"]).boxes("physical") == 6  # 9M staged up once: Serious
    assert document.state.combatant(ids["Ganger 1"]).boxes("physical") == 0
    assert dialog.dice.odds.highlighted() == OUTCOME_LABELS["miss"]


def test_a_karma_point_makes_all_ones_a_plain_failure_instead_of_a_detonation(dialog_for: DialogFactory) -> None:
    """"1 point turns all 1s into a plain failure": offered after all 1s with explosive rounds; the shot misses."""
    document, ids = fight(lambda ids: SetAttribute(ids["Mike"], "karma_pool", 2))
    dialog = dialog_for(document)
    dialog.weapon.ammo.select(Ammo.EX)
    dialog.dice.skill.setValue(3)
    avert = dialog.dice.avert_disaster
    dialog.dice.attack_entry.set_faces_text("1,2,1")
    assert avert.isHidden()  # not all 1s
    dialog.dice.attack_entry.set_faces_text("1,1,1")
    assert not avert.isHidden() and avert.isEnabled()
    avert.setChecked(True)
    assert dialog.dice.misfire_entry.isHidden()  # no detonation: a plain miss needs no more dice
    assert dialog.dice.resist_entry.count_label.text() == "Not needed: the attack missed."
    dialog.resolve()
    operation = document.history.entries[-1].operation
    assert isinstance(operation, Sr3Attack) and operation.karma_averts_disaster
    assert document.state.combatant(ids["Mike"]).boxes("physical") == 0
    assert document.state.combatant(ids["Mike"]).pools["karma"].spent == 1
    assert "the attack's all 1s are a plain failure" in document.history.entries[-1].text()
    dialog.next_button.click()
    assert not avert.isChecked()  # the next shot starts without it


def test_the_target_rerolls_failed_dodge_and_resistance_dice_with_its_own_karma(dialog_for: DialogFactory) -> None:
    """Every test may be rerolled with karma, paid by whoever rolls it: here the target, 1 point for the dodge and
    1 for the resistance, from its pool of 2 (a third point is not offered)."""
    document, ids = fight(lambda ids: SetAttribute(ids["Ganger 1"], "karma_pool", 2))
    dialog = dialog_for(document)
    dialog.weapon.name.setText("Ares Predator")
    dialog.dice.skill.setValue(4)
    dialog.dice.dodge.setValue(2)
    assert dialog.dice.attack_karma.isHidden()  # Mike has no karma pool
    type_dice(dialog, "6,6,5,5", "1,2")
    dodge_karma, resist_karma = dialog.dice.dodge_karma, dialog.dice.resist_karma
    assert dodge_karma.isEnabled() and dodge_karma.text() == "Reroll failures (karma 1)"
    dodge_karma.click()
    assert len(dialog.dice.dodge_entry.faces()) == 2 and dodge_karma.text() == "Reroll again (karma 2)"
    dialog.dice.dodge_entry.set_faces_text("1,2")  # failed again, as typed
    assert not dodge_karma.isEnabled()  # 2 more points: 3 of 2
    dialog.dice.resist_entry.set_faces_text("1,1,2,3")
    assert resist_karma.isEnabled()
    resist_karma.click()
    assert not resist_karma.isEnabled()  # the pool's 2 points are both committed
    dialog.roll_remaining()
    dialog.resolve()
    operation = document.history.entries[-1].operation
    assert isinstance(operation, Sr3Attack)
    assert (operation.dodge_karma_rerolls, operation.resist_karma_rerolls) == (1, 1)
    assert document.state.combatant(ids["Ganger 1"]).pools["karma"].spent == 2


def test_the_damage_steps_name_only_what_changed_the_code(dialog_for: DialogFactory) -> None:
    """Explosive rounds without a called shot: the step says ammunition, not a called shot that was not made."""
    document, _ids = fight()
    dialog = dialog_for(document)
    dialog.weapon.name.setText("Ares Predator")
    dialog.weapon.ammo.select(Ammo.EX)
    assert "9M → 10M (ammunition)" in dialog.damage_label.text()
    dialog.situation.called.setChecked(True)
    assert "(ammunition, called shot)" in dialog.damage_label.text()


def test_successes_bought_with_karma_turn_a_dodge_and_burn_the_pool_for_good(dialog_for: DialogFactory) -> None:
    """"bought successes cost 1 point each, permanently, and need at least one rolled success": Ganger 1 dodges 1
    success of Mike's 2 and buys 2 more, so the attack is dodged; no resistance is needed."""
    document, ids = fight(lambda ids: SetAttribute(ids["Ganger 1"], "karma_pool", 3))
    dialog = dialog_for(document)
    dialog.weapon.name.setText("Ares Predator")
    dialog.dice.skill.setValue(3)
    dialog.dice.dodge.setValue(2)
    bought = dialog.dice.dodge_bought.box
    type_dice(dialog, "6,5,1", "1,2")
    assert not bought.isHidden() and not bought.isEnabled()  # no rolled success: nothing to buy for
    dialog.dice.dodge_entry.set_faces_text("6,2")
    assert bought.isEnabled() and bought.maximum() == 3
    bought.setValue(2)
    assert dialog.dice.resist_entry.count_label.text() == "Not needed: the attack was dodged."
    dialog.resolve()
    operation = document.history.entries[-1].operation
    assert isinstance(operation, Sr3Attack) and operation.dodge_bought == 2
    ganger = document.state.combatant(ids["Ganger 1"])
    assert ganger.attribute("karma_pool") == 1 and ganger.boxes("physical") == 0
    assert dialog.dice.odds.highlighted() == OUTCOME_LABELS["dodged"]
    dialog.next_button.click()
    assert bought.value() == 0


def test_a_quick_draw_rolls_reaction_first_and_a_success_draws_and_fires(dialog_for: DialogFactory) -> None:
    """"Quick draw: … Reaction (4), one success: draw and fire; +2 without a proper holster, +2 more for two guns;
    failure: no shot from it this phase"."""
    document, ids = fight()
    dialog = dialog_for(document)
    dialog.weapon.name.setText("Ares Predator")
    dialog.dice.skill.setValue(4)
    assert dialog.dice.quick_draw_entry.isHidden()
    dialog.situation.quick_draw.setChecked(True)
    entry = dialog.dice.quick_draw_entry
    assert not entry.isHidden() and entry.expression() == TargetNumberTest(
        document.state.combatant(ids["Mike"]).attribute("reaction"), 4)
    dialog.situation.holstered.setChecked(False)
    dialog.situation.second.setChecked(True)
    assert getattr(entry.expression(), "tn", None) == 8  # 4 + 2 without a holster + 2 for two guns
    dialog.situation.second.setChecked(False)
    dialog.situation.holstered.setChecked(True)
    reaction = document.state.combatant(ids["Mike"]).attribute("reaction")
    entry.set_faces_text(",".join(["5"] + ["1"] * (reaction - 1)))  # one success at TN 4
    assert not dialog.dice.quick_draw_failed()
    type_dice(dialog, "6,5,1,2", "", "1,1,1,1")
    dialog.roll_remaining()
    dialog.resolve()
    operation = document.history.entries[-1].operation
    assert isinstance(operation, Sr3Attack) and operation.quick_draw_tn == 4
    assert "drawn and fired in one simple action" in document.history.entries[-1].text()
    dialog.next_button.click()
    assert not dialog.situation.quick_draw.isChecked() and entry.isHidden()  # the gun is in hand now


def test_only_a_pistol_size_weapon_is_quick_drawn(dialog_for: DialogFactory) -> None:
    """"Quick draw: pistol-size weapons (Concealability ≥ 4)": an assault rifle is not; a heavy pistol, an SMG or a
    weapon of no class (the GM's call) is."""
    document, _ids = fight()
    dialog = dialog_for(document)
    quick_draw = dialog.situation.quick_draw
    quick_draw.setChecked(True)
    dialog.weapon.weapon_class.select("assault_rifle")
    assert not quick_draw.isEnabled() and not quick_draw.isChecked()
    assert "Concealability" in quick_draw.toolTip()
    for weapon_class in ("heavy_pistol", "smg", None):
        dialog.weapon.weapon_class.select(weapon_class)
        assert quick_draw.isEnabled(), weapon_class


def test_a_failed_quick_draw_fires_nothing_and_needs_no_more_dice(dialog_for: DialogFactory) -> None:
    document, ids = fight()
    dialog = dialog_for(document)
    dialog.weapon.name.setText("Ares Predator")
    dialog.dice.skill.setValue(4)
    dialog.situation.quick_draw.setChecked(True)
    reaction = document.state.combatant(ids["Mike"]).attribute("reaction")
    dialog.dice.quick_draw_entry.set_faces_text(",".join(["3"] * reaction))  # no success at TN 4
    assert dialog.dice.attack_entry.count_label.text() == "Not needed: the quick draw failed."
    assert dialog.resolve_button.isEnabled()
    dialog.resolve()
    operation = document.history.entries[-1].operation
    assert isinstance(operation, Sr3QuickDrawFailed) and operation.tn == 4
    assert document.state.combatant(ids["Ganger 1"]).boxes("physical") == 0
    assert dialog.dice.odds.highlighted() == OUTCOME_LABELS["miss"]


def test_invalid_faces_keep_resolve_disabled(dialog_for: DialogFactory, qtbot: QtBot) -> None:
    document, _ids = fight()
    dialog = dialog_for(document)
    dialog.dice.skill.setValue(4)
    dialog.dice.attack_entry.set_faces_text("5,5,x,1")
    assert "“x” is not a face" in dialog.dice.attack_entry.error_label.text()
    assert not dialog.dice.attack_entry.error_label.isHidden()
    assert not dialog.resolve_button.isEnabled()
    dialog.dice.attack_entry.set_faces_text("5,5,7,1")
    assert "A d6 cannot show 7." in dialog.dice.attack_entry.error_text()
    qtbot.keyClick(dialog.dice.attack_entry.faces_edit, Qt.Key.Key_Return)
    dialog.resolve()
    assert len(document.history.entries) == 9  # eight added, initiative rolled: nothing more


def test_a_refusal_is_shown_and_nothing_is_applied(dialog_for: DialogFactory) -> None:
    document, ids = fight()
    dialog = dialog_for(document)
    dialog.dice.skill.setValue(2)
    dialog.dice.attack_pool.setValue(4)
    # The pool is spent behind the dialog's back (no change signal): the rules still refuse.
    document.history.do(SpendPool(ids["Mike"], "combat", 5, "elsewhere"))
    type_dice(dialog, "1,1,1,1,1,2")
    dialog.resolve()
    assert "only 1 combat pool dice left" in dialog.status_label.text()
    assert len(document.history.entries) == 10
    assert not dialog.next_button.isEnabled()


def _actions_used(document: EncounterDocument, combatant_id: str) -> dict[str, int]:
    combatant = document.state.combatant(combatant_id)
    return {item.key: item.used for item in SR3.action_budget(combatant, document.state)}


def test_a_shot_takes_the_attackers_action_and_a_third_one_is_refused(dialog_for: DialogFactory,
                                                                     qtbot: QtBot) -> None:
    document, ids = fight()
    dialog = dialog_for(document)
    dialog.weapon.mode.select(FiringMode.SA)
    assert dialog.counts.isChecked() and dialog.counts.text() == "Takes a simple action"  # Mike acts now
    dialog.dice.skill.setValue(2)
    for _shot in range(2):
        type_dice(dialog, "1,2")  # a miss: only the action it takes matters
        dialog.resolve()
        assert dialog.next_button.isEnabled(), dialog.status_label.text()
        dialog.next_attack()
    assert _actions_used(document, ids["Mike"])["simple"] == 2
    entries = len(document.history.entries)
    type_dice(dialog, "1,2")
    dialog.resolve()
    assert "Mike has no simple action left in this phase. A phase allows two simple actions or one complex action"\
        in dialog.status_label.text()
    assert len(document.history.entries) == entries
    assert dialog.override_button.isVisibleTo(dialog)  # the GM's call, in one click
    dialog.weapon.compensation.setValue(1)  # an edit: the refusal shown may no longer stand
    assert not dialog.override_button.isVisibleTo(dialog)
    dialog.resolve()
    assert dialog.override_button.isVisibleTo(dialog) and dialog.counts.isChecked()  # tried, not changed
    assert len(document.history.entries) == entries
    qtbot.mouseClick(dialog.override_button, Qt.MouseButton.LeftButton)  # this one takes no action
    assert not dialog.counts.isChecked() and not dialog.override_button.isVisibleTo(dialog)
    assert len(document.history.entries) == entries + 1
    operation = document.history.entries[-1].operation
    assert isinstance(operation, Sr3Attack) and operation.mode is None
    document.undo_stack.undo()
    document.undo_stack.undo()  # undoing a shot gives its action back
    assert _actions_used(document, ids["Mike"])["simple"] == 1


def test_wedges_three_full_auto_bursts_are_one_complex_action(dialog_for: DialogFactory) -> None:
    document, ids = fight()
    dialog = dialog_for(document)
    wedge(dialog)
    assert dialog.counts.text() == "Takes a complex action"
    dialog.dice.skill.setValue(2)
    for target, rounds in (("Ganger 1", 3), ("Ganger 2", 3), ("Ganger 3", 4)):
        dialog.target.setCurrentIndex(dialog.target.findData(ids[target]))
        dialog.weapon.rounds.setValue(rounds)
        type_dice(dialog, "1,2")
        dialog.resolve()
        assert dialog.next_button.isEnabled(), dialog.status_label.text()
        operation = document.history.entries[-1].operation
        assert isinstance(operation, Sr3Attack) and (operation.mode, operation.rounds) == ("FA", rounds)
        dialog.next_attack()
    assert _actions_used(document, ids["Mike"]) == {"free": 0, "simple": 0, "complex": 1}


def test_an_attacker_out_of_its_phase_takes_no_action_by_default(dialog_for: DialogFactory) -> None:
    document, ids = fight()
    dialog = dialog_for(document, attacker_id=ids["Dave"], target_id=ids["Ganger 1"])
    assert not dialog.counts.isChecked()
    dialog.attacker.setCurrentIndex(dialog.attacker.findData(ids["Mike"]))
    assert dialog.counts.isChecked()
    document.apply(NextTurn())  # Ganger 1's phase now: Mike's shot would take no action of his
    assert not dialog.counts.isChecked()


def test_undo_after_resolving_restores_the_target(dialog_for: DialogFactory) -> None:
    document, ids = fight()
    dialog = dialog_for(document)
    dialog.dice.skill.setValue(4)
    dialog.dice.attack_pool.setValue(2)
    dialog.dice.dodge.setValue(1)
    type_dice(dialog, "6,6,6,6,5,5", "1", "1,1,1,1")
    dialog.resolve()
    assert document.state.combatant(ids["Ganger 1"]).boxes("physical") == 10
    assert document.state.combatant(ids["Mike"]).pools["combat"].remaining == 4
    document.undo_stack.undo()
    assert document.state.combatant(ids["Ganger 1"]).boxes("physical") == 0
    assert document.state.combatant(ids["Ganger 1"]).pools["combat"].spent == 0
    assert dialog.dice.attack_pool.maximum() == 6
    assert dialog.next_button.isEnabled() is False and dialog.weapon.isEnabled()
    assert dialog.dice.odds.highlighted() is None


def test_pools_limit_the_dice(dialog_for: DialogFactory) -> None:
    document, ids = fight()
    dialog = dialog_for(document)
    dice = dialog.dice
    assert dice.attack_pool.maximum() == 6
    dice.attack_pool.setValue(9)
    assert dice.attack_pool.value() == 6
    dice.dodge.setValue(4)
    assert dice.resist_pool.maximum() == 2
    dice.resist_pool.setValue(2)
    dice.dodge.setValue(6)
    assert (dice.resist_pool.maximum(), dice.resist_pool.value()) == (0, 0)
    dice.skill.setValue(5)
    assert dialog.situation.aim.maximum() == 2  # aiming counts up to half the skill
    dice.attack_pool.setValue(2)
    dice.dodge.setValue(0)
    type_dice(dialog, "1,2,1,2,1,1,1")
    dialog.resolve()
    dialog.next_attack()
    assert dice.attack_pool.maximum() == 4
    assert dialog.dice.attacker_pool_note.text() == "4 left"
    assert document.state.combatant(ids["Mike"]).pools["combat"].remaining == 4


def test_surprise_bars_the_pool_and_the_attack(dialog_for: DialogFactory) -> None:
    def surprise(ids: dict[str, str]) -> Operation:
        return SurpriseTest(frozen_map({ids["Mike"]: 3, ids["Ganger 1"]: 1, ids["Richie"]: 0}))

    document, ids = fight(surprise)
    dialog = dialog_for(document, attacker_id=ids["Mike"], target_id=ids["Ganger 1"])
    assert not dialog.dice.dodge.isEnabled() and dialog.dice.dodge.maximum() == 0
    assert not dialog.dice.resist_pool.isEnabled()
    assert dialog.dice.target_pool_note.text() == "Ganger 1 is surprised by Mike: no combat pool against them."
    assert dialog.problem() == "Enter the attacker's skill dice (and combat pool dice, if any)."
    ganger = dialog_for(document, attacker_id=ids["Ganger 1"], target_id=ids["Mike"])
    assert ganger.problem() == "Ganger 1 is surprised by Mike and cannot act against them yet."
    assert ganger.status_label.text() == ganger.problem()
    assert not ganger.resolve_button.isEnabled()
    assert ganger.dice.dodge.isEnabled()  # Mike may defend with his pool against Ganger 1


# --- keyboard, layout, screenshots ---------------------------------------------------------------


def test_enter_resolves_when_the_dice_are_in_and_escape_closes(dialog_for: DialogFactory, qtbot: QtBot) -> None:
    document, ids = fight()
    dialog = dialog_for(document)
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.dice.skill.setValue(3)
    dialog.dice.attack_entry.set_faces_text("6,5")  # one die short
    qtbot.keyClick(dialog.dice.attack_entry.faces_edit, Qt.Key.Key_Return)
    assert len(document.history.entries) == 9
    dialog.dice.attack_entry.set_faces_text("6,5,1")
    dialog.dice.resist_entry.set_faces_text("1,1,1,1")
    qtbot.keyClick(dialog.dice.attack_entry.faces_edit, Qt.Key.Key_Return)
    assert len(document.history.entries) == 10
    assert document.state.combatant(ids["Ganger 1"]).boxes("physical") == 6  # 2 net hits: 9M staged to S
    hint = dialog.status_label  # a hint, not a problem: drawn in the ordinary text colour
    assert hint.property("error") is False
    assert hint.palette().color(QPalette.ColorRole.WindowText) == dialog.palette().color(QPalette.ColorRole.WindowText)
    qtbot.keyClick(dialog, Qt.Key.Key_Return)  # once resolved, Enter sets up the next shot
    assert dialog.resolve_button.isEnabled() is False and dialog.weapon.isEnabled()
    with qtbot.waitSignal(dialog.rejected):
        qtbot.keyClick(dialog, Qt.Key.Key_Escape)


def _settled_grab(qtbot: QtBot, dialog: Sr3AttackDialog, path: Path) -> None:
    """Let the event loop run the cascade of layout requests (as before any frame the GM sees), then save."""
    qtbot.wait(50)
    assert dialog.grab().save(str(path))


def _clipped_labels(dialog: Sr3AttackDialog) -> list[str]:
    return [label.text() for label in dialog.findChildren(QLabel)
            if label.isVisibleTo(dialog) and label.text() and not label.wordWrap()
            and label.width() < label.minimumSizeHint().width()]


@pytest.fixture
def shots(tmp_path: Path) -> Iterator[Path]:
    folder = Path(SHOTS) if SHOTS else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    yield folder


def test_fits_a_laptop_screen_without_clipping(dialog_for: DialogFactory, shots: Path, qtbot: QtBot) -> None:
    document, _ids = fight(*snot_is_armored_and_lightly_hurt())
    dialog = dialog_for(document)
    dialog.resize(*LAPTOP)
    dialog.show()  # layouts settle only on shown widgets, as at the table
    qtbot.waitExposed(dialog)
    wedge(dialog)
    dialog.dice.skill.setValue(6)
    dialog.dice.dodge.setValue(2)
    dialog.dice.resist_pool.setValue(1)
    _settled_grab(qtbot, dialog, shots / "sr3_attack_before.png")
    scroll = dialog.findChild(QScrollArea)
    assert scroll is not None
    content = scroll.widget()
    assert content is not None
    assert content.minimumSizeHint().width() <= scroll.viewport().width()  # no scrolling on a laptop
    assert content.minimumSizeHint().height() <= scroll.viewport().height()
    assert _clipped_labels(dialog) == []
    type_dice(dialog, "5,5,6,4,4,1", "5,6", "5,1,2,3,4")
    dialog.resolve()
    _settled_grab(qtbot, dialog, shots / "sr3_attack_after.png")
    assert _clipped_labels(dialog) == []
    odds = dialog.dice.odds
    assert odds.height() >= odds.sizeHint().height()  # every outcome row, the highlighted one included
    assert dialog.result_label.height() >= dialog.result_label.heightForWidth(dialog.result_label.width())


# --- melee (sr3.md, Melee) ---------------------------------------------------------------------------------------


def _katana(ids: dict[str, str]) -> Operation:
    return SetWeapons(ids["Mike"], (Weapon("Katana", frozen_map({"kind": "melee", "damage": "(STR+3)M", "reach": 1,
                                                                 "skill": 6})),))


def test_a_saved_melee_weapon_turns_the_dialog_to_melee_and_fills_the_blow(dialog_for: DialogFactory) -> None:
    document, ids = fight(_katana)
    dialog = dialog_for(document, target_id=ids["Ganger 1"])
    assert dialog.is_melee() and dialog.weapon_name() == "Katana"
    melee = dialog.melee
    assert (melee.attack.name.text(), melee.attack.reach.value(), melee.attack.skill.value()) == ("Katana", 1, 6)
    assert melee.defence.code.text() == "(STR)M Stun"  # the ganger is unarmed: sr3.md "Unarmed (Strength)M Stun"
    assert dialog.counts.text() == "Takes a complex action"
    sheet = melee.sheet
    assert sheet is not None and sheet.attack_tn.value == 3  # melee 4, reach −1
    assert sheet.defender_resist_tn == 3 + 3  # Power: Mike's Strength 3 + 3; the ganger wears no impact armor


def test_melee_odds_come_from_the_rules_before_any_dice(dialog_for: DialogFactory) -> None:
    from rules.systems.sr3.melee_odds import ORDER, melee_outcome_distribution

    document, ids = fight(_katana)
    dialog = dialog_for(document, target_id=ids["Ganger 1"])
    melee = dialog.melee
    melee.defence.skill.setValue(3)
    shown = dict(melee.odds.outcomes())
    sheet = melee.sheet
    assert sheet is not None
    for key in ORDER:
        label = melee.label_for(key)
        if label in shown:
            assert shown[label] == pytest.approx(sheet.odds[key])
    assert sum(shown.values()) == pytest.approx(1)
    assert shown["Ganger 1 takes Moderate damage"] == pytest.approx(sum(
        p for key, p in melee_outcome_distribution(_question(sheet, melee)).items() if key == "defender:M"))


def _question(sheet: Any, melee: Any) -> Any:
    from rules.systems.sr3.melee_odds import MeleeQuestion, Roll

    return MeleeQuestion(Roll(6, sheet.attack_tn.value), Roll(3, sheet.defence_tn.value), "M",
                         Roll(4, sheet.defender_resist_tn), "M", Roll(4, sheet.attacker_resist_tn))


def test_a_melee_exchange_resolves_as_one_undoable_operation(dialog_for: DialogFactory) -> None:
    from rules.systems.sr3 import Sr3Melee

    document, ids = fight(_katana)
    before = document.state
    dialog = dialog_for(document, target_id=ids["Ganger 1"])
    melee = dialog.melee
    melee.defence.skill.setValue(3)
    assert melee.resist_entry.expression() is None  # who resists is known once both tests are in
    melee.attack_entry.set_faces_text("5, 6, 2, 4, 3, 3")  # TN 3: five successes
    melee.defence_entry.set_faces_text("3, 4, 1")  # TN 4: one
    assert melee.resist_entry.title_label.text() == "Ganger 1 resists"
    melee.resist_entry.set_faces_text("1, 5, 2, 3")  # TN 6: none; net 4 − 0: Moderate two steps up, Deadly
    assert dialog.resolve_button.isEnabled(), dialog.status_label.text()
    dialog.resolve()
    operation = document.history.entries[-1].operation
    assert isinstance(operation, Sr3Melee) and operation.saved_weapon == "Katana"
    assert document.state.combatant(ids["Ganger 1"]).boxes("physical") == 10
    assert melee.odds.highlighted() == "Ganger 1 takes Deadly damage"
    assert "Mike wins the exchange by 4 net successes." in melee.result.text()
    document.undo_stack.undo()
    assert document.state == before


def test_a_winning_defender_strikes_back_and_full_defence_only_avoids(dialog_for: DialogFactory) -> None:
    document, ids = fight(_katana)
    dialog = dialog_for(document, target_id=ids["Ganger 1"])
    melee = dialog.melee
    melee.attack.skill.setValue(2)
    melee.defence.skill.setValue(4)
    melee.attack_entry.set_faces_text("1, 2")
    melee.defence_entry.set_faces_text("4, 5, 6, 1")
    assert melee.resist_entry.title_label.text() == "Mike resists"  # the ganger's fist, (3)M Stun, TN 3
    melee.resist_entry.set_faces_text("1, 1, 1, 1")
    dialog.resolve()
    assert document.state.combatant(ids["Mike"]).boxes("stun") == 6  # net 3: Moderate one step up, Serious
    dialog.next_attack()
    melee.situation.full_defence.setChecked(True)
    assert not any(key.startswith("Mike takes") for key, _p in melee.odds.outcomes())
    melee.attack_entry.set_faces_text("1, 2")
    melee.defence_entry.set_faces_text("4, 5, 6, 1")
    assert melee.resist_entry.expression() is None
    assert dialog.problem() == ""
    dialog.resolve_anyway()  # Mike's complex action of this phase is spent: the GM's one click past the limit
    assert "Ganger 1 wins the exchange and avoids the blow." in melee.result.text()


def test_the_kind_can_be_chosen_and_a_firearm_turns_it_back(dialog_for: DialogFactory) -> None:
    document, ids = fight()
    dialog = dialog_for(document, target_id=ids["Ganger 1"])
    assert not dialog.is_melee()
    dialog.kind.setCurrentIndex(dialog.kind.findData("melee"))
    assert dialog.is_melee() and dialog.pages.currentWidget() is dialog.melee
    assert dialog.melee.attack.code.text() == "(STR)M Stun"  # typed in the form: unarmed to start with
    assert dialog.pickers.parent() is not None and dialog.melee.isAncestorOf(dialog.pickers)
    dialog.kind.setCurrentIndex(dialog.kind.findData("ranged"))
    assert not dialog.is_melee() and not dialog.melee.isAncestorOf(dialog.pickers)


def test_choosing_melee_picks_a_melee_weapon_or_none(dialog_for: DialogFactory) -> None:
    document, ids = fight()
    document.apply(SetWeapons(ids["Mike"], (Weapon("Ares Predator", frozen_map({"kind": "firearm", "damage": "9M",
                                                                                "modes": "SA"})),)))
    dialog = dialog_for(document, target_id=ids["Ganger 1"])
    assert dialog.weapon_name() == "Ares Predator"
    dialog.kind.setCurrentIndex(dialog.kind.findData("melee"))
    assert dialog.weapon_name() == "" and dialog.ammunition.text() == ""  # no gun beside a melee exchange
    dialog.kind.setCurrentIndex(dialog.kind.findData("ranged"))
    assert dialog.weapon_name() == "Ares Predator" and dialog.weapon.code.text() == "9M"


def test_an_interception_from_the_melee_page(dialog_for: DialogFactory) -> None:
    from rules.systems.sr3 import Sr3Melee

    document, ids = fight()  # Mike acts and runs past Ganger 1
    dialog = dialog_for(document, attacker_id=ids["Ganger 1"], target_id=ids["Mike"])
    dialog.kind.setCurrentIndex(dialog.kind.findData("melee"))
    melee = dialog.melee
    melee.situation.interception.setChecked(True)
    assert melee.situation.full_defence.isChecked() and not melee.situation.full_defence.isEnabled()
    assert not dialog.counts.isEnabled()
    assert not any(key.startswith("Ganger 1 takes") for key, _p in melee.odds.outcomes())  # no counterblow
    melee.attack.skill.setValue(3)
    melee.defence.skill.setValue(1)
    melee.attack_entry.set_faces_text("5, 6, 4")
    melee.defence_entry.set_faces_text("1")
    melee.resist_entry.set_faces_text("1, 2, 3, 4")
    dialog.resolve()
    operation = document.history.entries[-1].operation
    assert isinstance(operation, Sr3Melee) and operation.interception and not operation.counts_as_action
    assert "Mike is stopped." in melee.result.text()


def test_the_melee_chart_is_built_when_the_melee_page_is_first_shown(dialog_for: DialogFactory) -> None:
    # Every SR3 dialog builds the melee page; most attacks are ranged (issue 14: the plot cost its opening time).
    document, ids = fight()
    dialog = dialog_for(document, target_id=ids["Ganger 1"])
    dialog.show()
    assert not dialog.is_melee() and dialog.melee._chart is None
    dialog.kind.setCurrentIndex(dialog.kind.findData("melee"))
    assert dialog.is_melee() and dialog.melee._chart is not None
    assert dialog.melee.chart.bars.tick_texts()  # the odds worked out before the chart existed are on it


def test_a_called_shot_from_the_dialog_takes_the_free_action_and_a_thrown_knife_may_be_called(
        dialog_for: DialogFactory) -> None:
    document, ids = fight()
    dialog = dialog_for(document)
    dialog.weapon.name.setText("Ares Predator")
    dialog.dice.skill.setValue(6)
    dialog.situation.called.setChecked(True)
    assert tn_lines(dialog)["called_shot"] == 4
    type_dice(dialog, "1,1,1,1,1,1")  # a miss: only what the shot costs matters
    dialog.resolve()
    operation = document.history.entries[-1].operation
    assert isinstance(operation, Sr3Attack) and operation.called_shot
    assert dict(document.state.combatant(ids["Mike"]).actions_used) == {"free": 1, "simple": 1}
    dialog.next_button.click()
    dialog.weapon.kind.select(WeaponKind.THROWN)
    dialog.weapon.mode.select(FiringMode.SS)
    assert tn_lines(dialog)["called_shot"] == 4  # the digest's Decision: throws may be called


def test_the_attackers_karma_rerolls_the_failed_attack_dice_and_the_shot_pays_for_it(
        dialog_for: DialogFactory) -> None:
    """"1 point rerolls a test's failed dice (each further reroll of it +1 point)": 1, then 2 more, of 4."""
    document, ids = fight(lambda ids: SetAttribute(ids["Mike"], "karma_pool", 4))
    dialog = dialog_for(document)
    dialog.weapon.name.setText("Ares Predator")
    dialog.dice.skill.setValue(4)
    reroll = dialog.dice.attack_karma
    assert not reroll.isHidden() and not reroll.isEnabled()  # no dice yet
    type_dice(dialog, "5,1,2,6")
    assert reroll.isEnabled() and reroll.text() == "Reroll failures (karma 1)"
    for expected_text, so_far in (("Reroll again (karma 2)", "1 reroll so far, karma spent: 1."),
                                  ("Reroll again (karma 3)", "2 rerolls so far, karma spent: 3.")):
        type_dice(dialog, "5,1,2,6")  # the dice failed again (as the GM may type the new faces over)
        reroll.click()
        faces = dialog.dice.attack_entry.faces()
        assert faces[0] == (5,) and faces[3] == (6,) and len(faces) == 4  # the successes stay
        assert reroll.text() == expected_text and reroll.toolTip().endswith(so_far)
    type_dice(dialog, "5,1,2,6")
    assert not reroll.isEnabled()  # a third reroll would cost 3 more points: 6 of 4
    dialog.roll_remaining()
    dialog.resolve()
    operation = document.history.entries[-1].operation
    assert isinstance(operation, Sr3Attack) and operation.attack_karma_rerolls == 2
    assert document.state.combatant(ids["Mike"]).pools["karma"].spent == 3
    dialog.next_button.click()
    assert dialog.dice.attack_karma.text() == "Reroll failures (karma 1)"  # the next test
