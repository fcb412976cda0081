"""The Institute attack dialog: live pools and odds from the rules, typed or rolled dice, one operation."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.document import EncounterDocument
from rules.combatants import ApplyHarm, SetOption
from rules.dice import Roller
from rules.encounter import SlotKind
from rules.systems.institut import DeclareActions, HoldAction, SuppressionFire, attack_outcome_distribution, rounds
from rules.systems.institut.combat import Defence, FireMode
from rules.systems.institut.crossing import CrossSuppression
from rules.systems.institut.ops import Blast, InstitutAttack, SetInstitutFlag, ThrowGrenade
from rules.systems.institut.pyramid import CLASSES
from rules.systems.institut.sample import sample
from rules.systems.institut.tables import WeaponKind
from rules.turns import NextTurn
from tests.rules.test_institut_scenes import cast, roll
from ui.games import game_ui
from ui.games.institut.attack import InstitutAttackDialog
from ui.theme import apply_theme

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")

SHOTS = os.environ.get("BOJOVKA_SHOTS")
LAPTOP = (1366, 700)
DialogFactory = Callable[..., InstitutAttackDialog]


def fight() -> tuple[EncounterDocument, dict[str, str]]:
    """Round 1 under way: Sokolov 36 acts, then Vera 25, Bandit 1 16, Bandit 2 4."""
    history, ids = cast()
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


def wounds(document: EncounterDocument, combatant_id: str) -> list[int]:
    combatant = document.state.combatant(combatant_id)
    return [combatant.boxes(key) for key in CLASSES]


def test_the_window_finds_this_dialog_for_the_game() -> None:
    assert game_ui("institut").attack_dialog() is InstitutAttackDialog


def test_the_current_actor_attacks_a_foe_and_the_odds_come_before_the_dice(dialog_for: DialogFactory) -> None:
    document, ids = fight()
    dialog = dialog_for(document)
    page = dialog.attack
    assert dialog.attacker.currentData() == ids["Sokolov"] and dialog.target.currentData() == ids["Bandit 1"]
    assert page.skill.value() == 5 and page.defence_skill.value() == 2  # Shooting 5 against Dodge 2
    page.damage.setValue(6)
    expected = attack_outcome_distribution(5, Defence.DODGE, 2, 6)
    shown = dict(page.odds.outcomes())
    assert shown["Dodged"] == pytest.approx(expected["miss"])
    assert shown["Medium"] == pytest.approx(expected["medium"])
    assert not dialog.resolve_button.isEnabled()
    assert "Roll or type the dice" in dialog.status_label.text()


def test_typed_dice_resolve_as_one_operation(dialog_for: DialogFactory) -> None:
    document, ids = fight()
    dialog = dialog_for(document)
    page = dialog.attack
    page.name.setText("Makarov")
    page.damage.setValue(4)
    page.attack_entry.set_faces_text("6, 5, 4, 3, 2")
    page.defence_entry.set_faces_text("3, 3")
    page.damage_entries[0].set_faces_text("6, 5, 1, 1")
    assert dialog.resolve_button.isEnabled(), dialog.status_label.text()
    before = len(document.history.entries)
    dialog.resolve()
    assert len(document.history.entries) == before + 1
    assert wounds(document, ids["Bandit 1"]) == [0, 1, 0, 0, 0]
    assert "13 points: Bandit 1 takes 1 Medium wound." in page.result.text()
    assert page.odds.highlighted() == "Medium"
    assert page.attack_entry.faces() == () and not dialog.resolve_button.isEnabled()  # new dice for the next


def test_rolled_dice_resolve_too(dialog_for: DialogFactory) -> None:
    document, _ids = fight()
    dialog = dialog_for(document, seed=5)
    dialog.attack.damage.setValue(5)
    dialog.roll_remaining()
    assert dialog.resolve_button.isEnabled(), dialog.status_label.text()
    operation = dialog.operation()
    assert isinstance(operation, InstitutAttack) and len(operation.attack_faces) == 5
    dialog.resolve()
    assert isinstance(document.history.entries[-1].operation, InstitutAttack)


def test_a_miss_needs_no_damage_roll(dialog_for: DialogFactory) -> None:
    document, _ids = fight()
    dialog = dialog_for(document)
    page = dialog.attack
    page.attack_entry.set_faces_text("1, 1, 1, 1, 1")
    page.defence_entry.set_faces_text("6, 6")
    assert page.damage_entries[0].expression() is None
    assert dialog.resolve_button.isEnabled()
    dialog.resolve()
    assert "Bandit 1 dodges the attack." in page.result.text()


def test_a_refusal_is_shown_and_changes_nothing(dialog_for: DialogFactory) -> None:
    """Vera attacking out of turn with nothing held: the rules refuse, the dialog says so."""
    document, ids = fight()
    dialog = dialog_for(document, attacker_id=ids["Vera"], target_id=ids["Bandit 2"])
    page = dialog.attack
    page.defence.select(Defence.DIFFICULTY)
    page.difficulty.setValue(3)
    page.attack_entry.set_faces_text("2, 2, 2, 2")
    page.damage_entries[0].set_faces_text("1, 1")
    before = document.state
    dialog.resolve()
    assert "It is not Vera's turn" in dialog.status_label.text()
    assert document.state is before


def test_the_pools_follow_wounds_extra_actions_and_the_modes(dialog_for: DialogFactory) -> None:
    document, ids = fight()
    document.apply(ApplyHarm(ids["Sokolov"], "heavy", 1))  # −2 dice
    document.apply(DeclareActions(ids["Sokolov"], 3))  # −2 dice more
    dialog = dialog_for(document)
    page = dialog.attack
    assert page.attack_entry.dice_count() == 1  # Shooting 5 − 2 − 2
    page.burst.setText("3/2")
    page.mode.select(FireMode.AUTO)
    assert page.attack_entry.expression() is None  # 5 − 4 − 2: no dice, the roll is 0
    assert "A hit puts 3 wounds of the rolled class." in page.sheet_label.text()
    assert "Uses 6 rounds." in page.sheet_label.text()
    page.mode.select(FireMode.TWO_GUNS)
    page.damage.setValue(4)
    assert not page.damage_entries[1].isHidden() and page.damage_entries[1].expression() is not None
    page.identical.setChecked(False)
    assert page.damage_entries[1].isHidden()


def test_a_burst_puts_several_wounds_and_two_guns_roll_damage_twice(dialog_for: DialogFactory) -> None:
    document, ids = fight()
    dialog = dialog_for(document)
    page = dialog.attack
    page.burst.setText("3/2")
    page.mode.select(FireMode.BURST)
    page.damage.setValue(3)
    page.defence.select(Defence.DIFFICULTY)
    page.difficulty.setValue(10)
    page.attack_entry.set_faces_text("6, 6, 1, 1, 1")
    page.damage_entries[0].set_faces_text("3, 3, 1")
    dialog.resolve()
    assert wounds(document, ids["Bandit 1"]) == [2, 0, 0, 0, 0]
    document.apply(NextTurn())  # Vera's turn: two Makarovs
    dialog = dialog_for(document, target_id=ids["Bandit 2"])
    page = dialog.attack
    page.mode.select(FireMode.TWO_GUNS)
    page.damage.setValue(2)
    page.attack_entry.set_faces_text("4, 4, 4")  # Shooting 4 − 1 for two guns
    page.defence_entry.set_faces_text("1, 1")
    page.damage_entries[0].set_faces_text("5, 5")
    page.damage_entries[1].set_faces_text("2, 3")
    dialog.resolve()
    assert wounds(document, ids["Bandit 2"]) == [1, 1, 0, 0, 0]


def test_a_called_shot_at_the_pistol_makes_no_damage_roll(dialog_for: DialogFactory) -> None:
    document, _ids = fight()
    dialog = dialog_for(document)
    page = dialog.attack
    page.called.select("pistol")
    assert page.attack_entry.dice_count() == 0  # Shooting 5 − 5
    assert page.damage_entries[0].expression() is None
    assert dict(page.odds.outcomes())["Hit"] == pytest.approx(0.0)  # 0 points never beat a dodge of 2 dice
    page.defence.select(Defence.DIFFICULTY)
    dialog.resolve()
    assert "A hit, with no damage roll." in page.result.text()


def test_a_held_dodge_and_an_unseen_attacker(dialog_for: DialogFactory) -> None:
    document, ids = fight()
    document.apply(HoldAction(ids["Bandit 1"], "if shot at, I dodge"))
    dialog = dialog_for(document)
    page = dialog.attack
    page.target_held.select("if shot at, I dodge")
    assert page.defence_entry.dice_count() == 2  # the held dodge is Bandit 1's only declaration: no penalty
    document.apply(DeclareActions(ids["Bandit 1"], 1))
    assert page.defence_entry.dice_count() == 1  # two declarations now: −1
    page.unseen.setChecked(True)
    assert "cannot be dodged" in dialog.status_label.text() and not dialog.resolve_button.isEnabled()


def test_grenades_timed_and_on_impact(dialog_for: DialogFactory) -> None:
    document, ids = fight()
    dialog = dialog_for(document)
    dialog.tabs.setCurrentWidget(dialog.grenade)
    page = dialog.grenade
    page.distance.setValue(9)
    assert page.throw_entry.dice_count() == 2  # Sokolov's Athletics
    assert dict(page.odds.outcomes())["On target"] == pytest.approx(10 / 36)  # 2d6 ≥ 9
    page.throw_entry.set_faces_text("3, 2")
    dialog.resolve()
    grenade = next(iter(document.state.effects.values()))
    assert grenade.name == "F-1" and grenade.due == (1, 1, 0)
    assert "It lands 4 m off target" in page.result.text()
    document.apply(NextTurn())
    dialog = dialog_for(document)  # Vera now, an impact grenade
    dialog.tabs.setCurrentWidget(dialog.grenade)
    page = dialog.grenade
    page.timed.select(False)
    page.distance.setValue(6)
    page.throw_entry.set_faces_text("6, 1, 1")
    page.victims.rows[ids["Bandit 1"]].caught.setChecked(True)
    page.victims.rows[ids["Bandit 1"]].faces.setText("6, 6, 6, 1, 1, 1, 1, 1")
    page.victims.rows[ids["Bandit 2"]].caught.setChecked(True)
    assert not dialog.resolve_button.isEnabled()
    dialog.roll_remaining()
    dialog.resolve()
    assert isinstance(document.history.entries[-1].operation, ThrowGrenade)
    assert wounds(document, ids["Bandit 1"])[3] == 1  # 23 points: Critical


def test_an_ambusher_throws_a_grenade_with_the_ambush_dice_in_the_first_round(dialog_for: DialogFactory) -> None:
    # institut.md: ambush "+3 to its hit rolls ... in the first round"; Decision: "grenade throws included (a throw
    # is a roll to hit a spot)".
    document, ids = fight()
    document.apply(SetInstitutFlag(ids["Sokolov"], "ambush", True))
    dialog = dialog_for(document)
    dialog.tabs.setCurrentWidget(dialog.grenade)
    page = dialog.grenade
    assert page.ambush.isChecked()
    assert page.throw_entry.dice_count() == 2 + 3  # Sokolov's Athletics and the ambush
    page.ambush.setChecked(False)  # the GM's call: the throw was not from the ambush
    assert page.throw_entry.dice_count() == 2


def test_the_timed_grenade_goes_off_on_the_explosion_page(dialog_for: DialogFactory) -> None:
    document, ids = fight()
    document.apply(ThrowGrenade(ids["Sokolov"], "RGD-5", 5, (3, 3), timed=True))
    while document.state.clock.current is not None and document.state.clock.current.kind is not SlotKind.TIMER:
        document.apply(NextTurn())
    dialog = dialog_for(document)
    assert dialog.tabs.currentWidget() is dialog.blast and dialog.blast.source.text() == "RGD-5"
    dialog.blast.damage.setValue(3)
    row = dialog.blast.victims.rows[ids["Vera"]]
    row.caught.setChecked(True)
    assert row.dice.value() == 3
    row.faces.setText("4, 4, 4")
    dialog.resolve()
    assert isinstance(document.history.entries[-1].operation, Blast)
    assert wounds(document, ids["Vera"]) == [0, 1, 0, 0, 0]


def test_blast_rows_follow_the_grenades_dice_unless_the_gm_set_their_own(dialog_for: DialogFactory) -> None:
    document, ids = fight()
    dialog = dialog_for(document)
    for page in (dialog.grenade, dialog.blast):
        dialog.tabs.setCurrentWidget(page)
        if page is dialog.grenade:
            dialog.grenade.timed.select(False)  # an impact grenade: its blast is on this page
        rows = page.victims.rows
        assert {row.dice.value() for row in rows.values()} == {8}
        rows[ids["Vera"]].dice.setValue(5)  # further away, or behind cover
        page.damage.setValue(6)
        assert rows[ids["Vera"]].dice.value() == 5
        assert {row.dice.value() for key, row in rows.items() if key != ids["Vera"]} == {6}


def test_suppression_fire_and_someone_crossing_it(dialog_for: DialogFactory) -> None:
    document, ids = fight()
    dialog = dialog_for(document)
    dialog.tabs.setCurrentWidget(dialog.suppression)
    page = dialog.suppression
    page.bullets.setValue(2)
    page.weapon.setText("RPK")
    page.fire_damage.setValue(6)
    assert "Dodge difficulty 8" in page.sheet_label.text()
    dialog.resolve()
    fire = rounds.suppression(document.state.combatant(ids["Sokolov"]), document.state)
    assert fire is not None and fire["difficulty"] == 8
    page.opening.select(False)
    dialog.target.setCurrentIndex(dialog.target.findData(ids["Bandit 1"]))
    assert page.under_fire.value() == "the corridor" and page.damage.value() == 6
    assert page.dodge_entry.dice_count() == 2
    page.dodge_entry.set_faces_text("3, 2")
    page.damage_entry.set_faces_text("2, 2, 2, 2, 2, 2")
    dialog.resolve()
    assert isinstance(document.history.entries[-1].operation, CrossSuppression)
    assert wounds(document, ids["Bandit 1"]) == [0, 1, 0, 0, 0]


def test_suppression_after_acting_is_refused_in_the_status_line(dialog_for: DialogFactory) -> None:
    document, ids = fight()
    document.apply(SuppressionFire(ids["Sokolov"], "the yard", 1, 1))
    dialog = dialog_for(document)
    dialog.tabs.setCurrentWidget(dialog.suppression)
    dialog.resolve()
    assert "only action" in dialog.status_label.text()


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_screenshot_fits_a_laptop(qtbot: QtBot, tmp_path: Path, theme: str) -> None:
    application = QApplication.instance()
    assert isinstance(application, QApplication)
    apply_theme(application, theme)
    try:
        document = EncounterDocument(sample())
        dialog = InstitutAttackDialog(document, Roller.seeded(2), "c3", "c5")
        qtbot.addWidget(dialog)
        dialog.resize(*LAPTOP)
        dialog.show()
        dialog.attack.name.setText("TT")
        dialog.attack.damage.setValue(5)
        dialog.attack.attack_entry.set_faces_text("5, 4, 3")
        for index in range(dialog.tabs.count()):
            dialog.tabs.setCurrentIndex(index)
            QApplication.processEvents()
            assert dialog._content.minimumSizeHint().width() <= LAPTOP[0]
            image = dialog.grab()
            for folder in filter(None, (str(tmp_path), SHOTS)):
                image.save(str(Path(folder) / f"institut-dialog-{index}-{theme}.png"))
    finally:
        apply_theme(application, "light")


def test_the_weapon_list_comes_from_the_games_data_and_fills_the_form(dialog_for: DialogFactory) -> None:
    document, _ids = fight()
    dialog = dialog_for(document)
    page = dialog.attack
    items = [page.preset.itemText(index) for index in range(page.preset.count())]
    # The bundled table (the sample's weapons and those the seed names), grenades left to the Grenade page.
    assert items == ["Type the weapon in", "AK-47 (8 dice, burst 3/2)", "AK-74 (7 dice, burst 3/2)",
                     "Chair leg (Strength +0)", "Club (Strength +2)", "Kedr SMG (5 dice, burst 3/2)",
                     "Knife (Strength +1)", "Makarov (5 dice)", "PK machine gun (8 dice, burst 5/3)",
                     "Sawn-off (6 dice)", "Sword (Strength +3)", "TT pistol (5 dice)"]
    page.skill_name.select("melee")
    page.preset.select("AK-74")
    assert (page.name.text(), page.kind.value(), page.damage.value(), page.burst.text()) == (
        "AK-74", WeaponKind.FIREARM, 7, "3/2")
    assert page.skill_name.value() == "shooting" and page.skill.value() == 5  # Sokolov's Shooting
    page.mode.select(FireMode.BURST)
    assert "A hit puts 2 wounds of the rolled class." in page.sheet_label.text()
    page.preset.select("Knife")
    assert (page.name.text(), page.kind.value(), page.damage.value(), page.burst.text()) == (
        "Knife", WeaponKind.MELEE, 1, "")
    assert page.skill_name.value() == "melee" and page.mode.value() is FireMode.SINGLE


def test_the_gms_weapons_join_the_list_and_a_removed_one_leaves_it(dialog_for: DialogFactory) -> None:
    document, _ids = fight()
    dialog = dialog_for(document)
    document.apply(SetOption("weapons", {"RPK": {"damage": 8, "burst": "5/3"}, "Sawn-off": None}))
    page = dialog.attack
    items = [page.preset.itemText(index) for index in range(page.preset.count())]
    assert "RPK (8 dice, burst 5/3)" in items and not any(item.startswith("Sawn-off") for item in items)
    page.preset.select("RPK")
    assert (page.name.text(), page.damage.value(), page.burst.text()) == ("RPK", 8, "5/3")


def test_every_page_rolls_the_die_the_gm_chose(dialog_for: DialogFactory) -> None:
    # institut.md Decision: "d6, summed (default …; the die size is an option)".
    document, ids = fight()
    document.apply(SetOption("die", "10"))
    dialog = dialog_for(document)
    page = dialog.attack
    page.damage.setValue(6)
    expression = page.attack_entry.expression()
    assert expression is not None and expression.text == "5d10"  # Shooting 5
    expected = attack_outcome_distribution(5, Defence.DODGE, 2, 6, sides=10)
    assert dict(page.odds.outcomes())["Dodged"] == pytest.approx(expected["miss"])
    page.attack_entry.set_faces_text("10, 9, 8, 7, 11")
    assert "d10" in page.attack_entry.error_text()
    dialog.tabs.setCurrentWidget(dialog.grenade)
    grenade = dialog.grenade
    grenade.distance.setValue(9)
    assert dict(grenade.odds.outcomes())["On target"] == pytest.approx(72 / 100)  # 2d10 ≥ 9: 1 − 28/100
    grenade.timed.select(False)
    row = grenade.victims.rows[ids["Bandit 1"]]
    row.caught.setChecked(True)
    row.faces.setText("10, 10, 10, 10, 10, 10, 10, 10")
    assert row.error() == "" and row.faces_rolled() == (10,) * 8


def test_modifiers_in_points_are_worded_computed_and_recorded_as_points(dialog_for: DialogFactory) -> None:
    """institut.md "Dice (Decision)", option: ambush +3 and point blank +4 are points added to the total."""
    document, ids = fight()
    document.apply(SetOption("modifier_unit", "points"))
    dialog = dialog_for(document)
    page = dialog.attack
    page.damage.setValue(4)
    page.ambush.setChecked(True)
    page.point_blank.setChecked(True)
    assert page.ambush.text() == "Ambush, first round (+3 points to hit)"
    assert page.point_blank.text() == "Point blank (+4 damage points)"
    assert page.cover_label.text() == "Cover (points)"
    sheet = page.sheet_label.text()
    assert "Attack: 5 dice +3 points" in sheet and "+4 points" in sheet
    expected = attack_outcome_distribution(5, Defence.DODGE, 2, 4, attack_points=3, damage_points=4)
    assert dict(page.odds.outcomes())["Dodged"] == pytest.approx(expected["miss"])
    assert str(page.attack_entry.expression()) == "5d6+3"
    page.attack_entry.set_faces_text("1, 1, 1, 1, 1")  # 5 + 3 = 8 against 6 + 1 = 7: a hit
    page.defence_entry.set_faces_text("6, 1")
    page.damage_entries[0].set_faces_text("2, 2, 1, 1")  # 6 + 4 = 10: Medium
    operation = dialog.operation()
    assert isinstance(operation, InstitutAttack)
    assert (operation.attack_faces, operation.attack_points, operation.damage_points) == ((1,) * 5, 3, 4)
    dialog.resolve()
    assert wounds(document, ids["Bandit 1"]) == [0, 1, 0, 0, 0]
    assert "Modifiers to the attack roll: +3 points (in its total)." in page.result.text()


def test_modifiers_in_dice_are_worded_as_dice_by_default(dialog_for: DialogFactory) -> None:
    document, _ids = fight()
    dialog = dialog_for(document)
    page = dialog.attack
    page.ambush.setChecked(True)
    assert page.ambush.text() == "Ambush, first round (+3 dice to hit)"
    assert "Attack: 8 dice" in page.sheet_label.text() and "+3 dice" in page.sheet_label.text()
    assert str(page.attack_entry.expression()) == "8d6"


def test_a_skill_check_page_rolls_any_combatants_skill_against_a_difficulty(dialog_for: DialogFactory) -> None:
    """institut.md: the skill's rating in dice; equalling the difficulty succeeds."""
    from rules.systems.institut import SkillCheck
    from rules.systems.institut.odds import success_probability

    document, ids = fight()
    dialog = dialog_for(document)
    dialog.tabs.setCurrentWidget(dialog.check)
    page = dialog.check
    assert dialog.attacker_label.text() == "Who rolls" and not dialog.target.isEnabled()
    page.skill.select("athletics")
    page.difficulty.setValue(7)
    assert dict(page.odds.outcomes())["Success"] == pytest.approx(success_probability(2, 7))
    assert str(page.check_entry.expression()) == "2d6"
    page.check_entry.set_faces_text("4, 3")
    dialog.resolve()
    entry = document.history.entries[-1]
    assert isinstance(entry.operation, SkillCheck) and entry.operation.combatant_id == ids["Sokolov"]
    assert "Sokolov checks Athletics: 7 against difficulty 7 — success." in page.result.text()
    count = len(document.history.entries)
    document.undo_stack.undo()
    assert len(document.history.entries) == count - 1


def test_a_shot_is_blocked_only_with_a_suitable_object_already_in_hand(dialog_for: DialogFactory) -> None:
    """institut.md Defence: "A shot may be blocked instead of dodged only with a suitable object already in hand"."""
    document, ids = fight()
    dialog = dialog_for(document)
    page = dialog.attack
    assert not page.defence.is_enabled(Defence.BLOCK)  # Bandit 1 holds nothing: no block against a shot
    page.defence.select(Defence.BLOCK)
    assert "Bandit 1 has nothing in hand to block a shot with" in dialog.status_label.text()
    assert not dialog.resolve_button.isEnabled()
    page.kind.select(WeaponKind.MELEE)  # a blow may be blocked
    assert page.defence.is_enabled(Defence.BLOCK)
    assert "nothing in hand" not in dialog.status_label.text()
    page.kind.select(WeaponKind.FIREARM)
    applied = document.apply(SetInstitutFlag(ids["Bandit 1"], "in_hand", True))
    assert applied.entry.text() == "Bandit 1 holds an object that can block a shot."
    assert page.defence.is_enabled(Defence.BLOCK)
    page.attack_entry.set_faces_text("2, 2, 2, 2, 2")
    page.defence_entry.set_faces_text("6, 6")
    assert dialog.resolve_button.isEnabled(), dialog.status_label.text()
    dialog.resolve()
    assert "Bandit 1 blocks the blow." in page.result.text()


def test_the_grenade_page_shows_where_a_missed_throw_lands_and_sets_the_throwers_distance(
        dialog_for: DialogFactory) -> None:
    """10 m, 3 + 3 = 6: 4 m off; the GM picks direction 3 (short, to the right): 9 m from the thrower."""
    document, ids = fight()
    dialog = dialog_for(document)
    dialog.tabs.setCurrentWidget(dialog.grenade)
    page = dialog.grenade
    page.timed.select(False)
    page.distance.setValue(10)
    page.direction.select(3)
    assert page.landing_label.text() == "Where it lands shows once the throw is rolled."
    page.throw_entry.set_faces_text("3, 3")
    assert page.landing_label.text() == "Lands 4 m off target (short, to the right), 9 m from Sokolov."
    assert page.victims.rows[ids["Sokolov"]].distance.value() == 9
    page.throw_entry.set_faces_text("2, 2")  # 4: at most half the distance, clearly short
    assert page.landing_label.text() == "Clearly short: 6 m short of the target, 4 m from Sokolov."
    assert not page.direction.isEnabled()
    row = page.victims.rows[ids["Bandit 1"]]
    row.caught.setChecked(True)
    row.faces.setText(", ".join(["1"] * row.dice.value()))
    dialog.resolve()
    operation = document.history.entries[-1].operation
    assert isinstance(operation, ThrowGrenade) and operation.direction == 3
    assert "A clearly short throw: it lands 6 m short of the target" in page.result.text()


def test_the_target_declares_its_count_at_the_moment_of_its_dodge(dialog_for: DialogFactory) -> None:
    """Vera's turn is still to come: she may declare 2 as she dodges (−1 on the dodge) and keep her turn."""
    document, ids = fight()
    dialog = dialog_for(document, target_id=ids["Vera"])
    page = dialog.attack
    assert page.target_declares.isEnabled()
    assert "Vera has declared nothing and its turn is still to come" in page.sheet_label.text()
    page.target_declares.setValue(2)
    assert "Additional actions this round" in page.sheet_label.text().split("Dodge")[1]
    assert "its turn is still to come" not in page.sheet_label.text()
    page.attack_entry.set_faces_text("1, 1, 1, 1, 1")
    page.defence_entry.set_faces_text("6, 6, 6")  # Dodge 4 − 1
    dialog.resolve()
    operation = document.history.entries[-1].operation
    assert isinstance(operation, InstitutAttack) and operation.target_declares == 2
    assert "Vera declares 2 actions: every roll this round is at −1." in page.result.text()
    assert ids["Vera"] not in document.state.clock.acted


def test_a_target_that_has_had_its_turn_declares_nothing_at_its_dodge(dialog_for: DialogFactory) -> None:
    document, ids = fight()
    document.apply(DeclareActions(ids["Sokolov"], 2))
    document.apply(NextTurn())  # Vera acts; Sokolov has had his turn
    dialog = dialog_for(document, attacker_id=ids["Vera"], target_id=ids["Sokolov"])
    assert not dialog.attack.target_declares.isEnabled()


def test_blast_cover_in_points_keeps_the_dice_and_takes_points_off(dialog_for: DialogFactory) -> None:
    document, ids = fight()
    document.apply(SetOption("modifier_unit", "points"))
    dialog = dialog_for(document)
    dialog.tabs.setCurrentWidget(dialog.blast)
    row = dialog.blast.victims.rows[ids["Vera"]]
    row.caught.setChecked(True)
    row.cover.setValue(2)
    assert row.dice.value() == 8  # the grenade's 8 dice: cover is no dice off
    row.faces.setText("1, 1, 1, 1, 1, 1, 2, 2")
    assert row.total.text() == "8"  # 10 rolled − 2 points of cover
    assert row.roll_record().points == -2


def test_fencing_and_melee_cannot_block_with_empty_hands(dialog_for: DialogFactory) -> None:
    """institut.md Defence: "Fencing and Melee cannot block with empty hands" — Vera (Fencing 3) holds nothing."""
    document, ids = fight()
    dialog = dialog_for(document, target_id=ids["Vera"])
    page = dialog.attack
    page.kind.select(WeaponKind.UNARMED)
    page.defence.select(Defence.BLOCK)
    assert page.block_skill.value() == "fencing" and page.defence_skill.value() == 3  # her best block skill
    assert "Fencing and Melee cannot block with empty hands: Vera holds nothing" in dialog.status_label.text()
    page.block_skill.select("boxing")
    assert page.defence_skill.value() == 0 and "empty hands" not in dialog.status_label.text()
    document.apply(SetInstitutFlag(ids["Vera"], "in_hand", True))
    page.block_skill.select("fencing")
    assert page.defence_skill.value() == 3 and "empty hands" not in dialog.status_label.text()
