"""The Institute attack dialog's suppression page with several shooters, and grenades by distance.

institut.md: crossing suppression fire is a dodge "against difficulty = … (the total number of bullets fired at that
square metre, from all shooters) × 4, once per square crossed, or take one bullet; anyone standing in the area dodges
once"; a grenade's damage "is rolled separately for each creature in the blast radius, with its own cover modifiers,
changed by distance per the grenade's table".
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

import pytest
from pytestqt.qtbot import QtBot

from rules.encounter import Weapon, frozen_map
from rules.systems.institut import CrossSuppression, SuppressionFire, ThrowGrenade
from rules.systems.institut.ops import Blast
from rules.turns import NextTurn
from rules.weapons import SetWeapons
from tests.ui.test_institut_attack import DialogFactory, dialog_for, fight, wounds
from tests.ui.test_institut_weapons import armed_fight
from ui.dialogs.encounter_settings import EncounterSettingsDialog
from ui.widgets.table_option import TableOptionEditor

__all__ = ["dialog_for"]  # the fixture, used by name

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")


def test_a_second_shooter_on_the_same_area_sees_the_sum_and_the_crossing_dodges_each_square(
        dialog_for: DialogFactory) -> None:
    document, ids = fight()
    dialog = dialog_for(document)
    dialog.tabs.setCurrentWidget(dialog.suppression)
    page = dialog.suppression
    page.bullets.setValue(2)
    dialog.resolve()  # Sokolov: 2 bullets a square on the corridor
    document.apply(NextTurn())
    dialog = dialog_for(document)  # Vera's turn
    dialog.tabs.setCurrentWidget(dialog.suppression)
    page = dialog.suppression
    page.area.setText("The corridor")
    page.bullets.setValue(1)
    assert "With the 1 shooter already firing there: 3 bullets per square, difficulty 12." in page.sheet_label.text()
    dialog.resolve()
    assert isinstance(document.history.entries[-1].operation, SuppressionFire)
    page.opening.select(False)
    dialog.target.setCurrentIndex(dialog.target.findData(ids["Bandit 1"]))
    assert page.under_fire.currentText() == "the corridor (2 shooters)"
    assert "Under fire from Sokolov, Vera: 3 bullets per square × 4." in page.sheet_label.text()
    page.dodge.setValue(2)
    page.crossed.setValue(4)
    page.crossed.setValue(3)  # the GM changed their mind: the fourth dodge goes away
    assert [entry.isVisibleTo(page) for entry in page.dodge_entries[:4]] == [True, True, True, False]
    assert all(entry.dice_count() == 2 for entry in page.dodge_entries[:3])
    made = Fraction(1, 36)  # 2d6 against (2 + 1) × 4 = 12
    shown = dict(page.odds.outcomes())
    assert list(shown) == ["Gets through", "1 bullet", "2 bullets", "3 bullets"]
    assert shown["2 bullets"] == pytest.approx(float(3 * made * (1 - made) ** 2))
    for entry, faces in zip(page.dodge_entries, ("6, 6", "1, 2", "3, 3"), strict=False):
        entry.set_faces_text(faces)
    assert page.damage_entries[0].expression() is None  # the first dodge got through
    assert not dialog.resolve_button.isEnabled()  # two bullets still to roll
    dialog.roll_remaining()
    dialog.resolve()
    crossing = document.history.entries[-1].operation
    assert isinstance(crossing, CrossSuppression) and crossing.squares == 3 and len(crossing.rolls) == 3
    assert crossing.rolls[0].damage_faces == () and all(roll.damage_faces for roll in crossing.rolls[1:])
    assert "Bandit 1 takes 2 bullets in the corridor." in document.history.entries[-1].text()
    document.undo_stack.undo()  # Edit → Undo
    assert wounds(document, ids["Bandit 1"]) == [0, 0, 0, 0, 0]


def test_standing_in_the_area_is_one_dodge(dialog_for: DialogFactory) -> None:
    document, ids = fight()
    document.apply(SuppressionFire(ids["Sokolov"], "the door", 1, 1, "RPK", 4))
    dialog = dialog_for(document)
    dialog.tabs.setCurrentWidget(dialog.suppression)
    page = dialog.suppression
    page.opening.select(False)
    dialog.target.setCurrentIndex(dialog.target.findData(ids["Vera"]))
    page.crossed.setValue(0)
    assert page.crossed.text() == "stands in it"
    assert len(page.entries()) == 2  # one dodge, and its bullet
    assert "Gets through" in dict(page.odds.outcomes())  # one dodge: through, or the bullet's wound
    page.dodge_entry.set_faces_text("4" * page.dodge_entry.dice_count())
    dialog.resolve()
    crossing = document.history.entries[-1].operation
    assert isinstance(crossing, CrossSuppression) and crossing.squares == 0 and len(crossing.rolls) == 1


def test_nobody_firing_says_so(dialog_for: DialogFactory) -> None:
    document, _ids = fight()
    dialog = dialog_for(document)
    dialog.tabs.setCurrentWidget(dialog.suppression)
    dialog.suppression.opening.select(False)
    assert "Nobody lays suppression fire this round." in dialog.status_label.text()
    assert not dialog.resolve_button.isEnabled()


def test_each_creature_in_a_blast_gets_the_dice_of_its_distance_and_cover(dialog_for: DialogFactory) -> None:
    document, ids = armed_fight()
    dialog = dialog_for(document)
    dialog.weapon_picker.setCurrentIndex(dialog.weapon_picker.findData("F-1"))
    page = dialog.grenade
    assert dialog.tabs.currentWidget() is page
    assert (page.damage.value(), page.blast.radius.value(), page.blast.falloff.text()) == (8, 15, "3:0, 7:-2, 15:-4")
    page.timed.select(False)  # thrown on impact this time
    page.distance.setValue(4)
    page.throw_entry.set_faces_text("6, 6")
    vera, bandit = page.victims.rows[ids["Vera"]], page.victims.rows[ids["Bandit 1"]]
    vera.caught.setChecked(True)
    vera.distance.setValue(2)
    assert vera.dice.value() == 8  # up to 3 m: the full dice
    bandit.caught.setChecked(True)
    bandit.distance.setValue(10)
    bandit.cover.setValue(1)
    assert bandit.dice.value() == 3  # up to 15 m: −4; cover −1
    bandit.distance.setValue(16)
    assert "Bandit 1 is 16 m away, outside the 15 m blast radius." in dialog.status_label.text()
    assert not dialog.resolve_button.isEnabled()
    bandit.distance.setValue(6)
    assert bandit.dice.value() == 5
    vera.faces.setText("1" * 8)
    bandit.faces.setText("2" * 5)
    dialog.resolve()
    throw = document.history.entries[-1].operation
    assert isinstance(throw, ThrowGrenade) and [(roll.distance, roll.cover) for roll in throw.blast] == [(2, 0), (6, 1)]
    text = document.history.entries[-1].text()
    assert "The blast catches Vera 2 m away." in text and "Bandit 1 6 m away, behind cover of 1 die." in text


def test_a_bad_distance_table_is_named_before_the_dice(dialog_for: DialogFactory) -> None:
    document, _ids = fight()
    dialog = dialog_for(document)
    dialog.tabs.setCurrentWidget(dialog.blast)
    dialog.blast.blast.falloff.setText("7:0, 3:-1")
    assert "nearest first" in dialog.status_label.text() and not dialog.resolve_button.isEnabled()


def test_a_timed_grenade_s_explosion_takes_its_profile_from_the_weapon_list(dialog_for: DialogFactory) -> None:
    document, ids = fight()
    document.apply(ThrowGrenade(ids["Sokolov"], "RGD-5", 5, (3, 3), timed=True))
    for _turn in range(4):
        document.apply(NextTurn())
    dialog = dialog_for(document)
    page = dialog.blast
    assert dialog.tabs.currentWidget() is page and page.source.text() == "RGD-5"
    assert (page.damage.value(), page.blast.radius.value(), page.blast.falloff.text()) == (6, 10, "2:0, 5:-2, 10:-4")
    row = page.victims.rows[ids["Vera"]]
    row.caught.setChecked(True)
    row.distance.setValue(4)
    assert row.dice.value() == 4
    row.faces.setText("3, 3, 3, 3")
    dialog.resolve()
    assert isinstance(document.history.entries[-1].operation, Blast)
    assert wounds(document, ids["Vera"]) == [0, 1, 0, 0, 0]  # 12 points: Medium


def test_the_gm_edits_a_grenade_profile_in_the_weapons_grid_and_the_grenade_page_takes_it(
        qtbot: QtBot, dialog_for: DialogFactory) -> None:
    document, ids = fight()
    settings = EncounterSettingsDialog(document)
    qtbot.addWidget(settings)
    weapons = settings.editors["weapons"]
    assert isinstance(weapons, TableOptionEditor)
    grid = weapons.grid
    headers = [grid.horizontalHeaderItem(index).text() for index in range(grid.columnCount())]  # type: ignore[union-attr]
    row = next(r for r in range(grid.rowCount()) if grid.item(r, 0).text() == "F-1")  # type: ignore[union-attr]
    grid.item(row, headers.index("Blast radius (m)")).setText("20")  # type: ignore[union-attr]
    grid.item(row, headers.index("Dice by distance")).setText("5:0, 20:-3")  # type: ignore[union-attr]
    settings.apply()
    stored = document.state.options["weapons"]
    assert isinstance(stored, Mapping) and isinstance(stored["F-1"], Mapping)
    assert (stored["F-1"]["radius"], stored["F-1"]["falloff"]) == (20, "5:0, 20:-3")
    dialog = dialog_for(document)
    dialog.tabs.setCurrentWidget(dialog.grenade)
    dialog.grenade.preset.select("F-1")
    assert (dialog.grenade.blast.radius.value(), dialog.grenade.blast.falloff.text()) == (20, "5:0, 20:-3")
    dialog.grenade.timed.select(False)
    row_widget = dialog.grenade.victims.rows[ids["Vera"]]
    row_widget.caught.setChecked(True)
    row_widget.distance.setValue(18)
    assert row_widget.dice.value() == 5  # 8 − 3


def test_a_grenade_carried_without_a_profile_takes_the_weapon_list_s(dialog_for: DialogFactory) -> None:
    document, ids = fight()
    bestiary_f1 = Weapon("F-1", frozen_map({"kind": "grenade", "damage": 7, "timed": True}))  # as the bestiary has it
    document.apply(SetWeapons(ids["Sokolov"], (bestiary_f1,)))
    dialog = dialog_for(document)
    dialog.weapon_picker.setCurrentIndex(dialog.weapon_picker.findData("F-1"))
    page = dialog.grenade
    assert (page.damage.value(), page.blast.radius.value(), page.blast.falloff.text()) == (7, 15, "3:0, 7:-2, 15:-4")
