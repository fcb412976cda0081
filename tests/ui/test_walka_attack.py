"""The Walka attack dialog: odds from the rules before any dice, typed or rolled dice, one undoable attack."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel, QScrollArea
from pytestqt.qtbot import QtBot

from app.document import EncounterDocument
from rules.combatants import SetDamage
from rules.dice import Roller
from rules.encounter import Status
from rules.serialize import to_data
from rules.systems.walka import WalkaAction, WalkaAttack, attack_win_probability, hp_loss_distribution
from rules.systems.walka import actions as walka_actions
from rules.systems.walka.contest import Outcome
from rules.systems.walka.odds import outcome_chances
from rules.systems.walka.sample import sample
from rules.turns import NextTurn
from tests.rules.test_walka_scenes import acting, roll, round_order, table
from ui.games import game_ui
from ui.games.walka.attack import WalkaAttackDialog
from ui.games.walka.attack_form import AttackInputs, hit_label, pool_text, work_out
from ui.theme import apply_theme
from ui.widgets.odds_table import format_percent

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")

SHOTS = os.environ.get("BOJOVKA_SHOTS")
LAPTOP = (1366, 700)
TOLERANCE = 1e-12

DialogFactory = Callable[..., WalkaAttackDialog]

# The sample: Kira (c1, Firearms 14, 3 weapon dice) acts; Ganger 1 (c5, Dodge 8, armor 1) has 4 of 6 Hit Points.


@pytest.fixture
def document() -> EncounterDocument:
    return EncounterDocument(sample())


@pytest.fixture
def dialog_for(qtbot: QtBot) -> DialogFactory:
    def make(document: EncounterDocument, seed: int = 1, **kwargs: Any) -> WalkaAttackDialog:
        dialog = WalkaAttackDialog(document, Roller.seeded(seed), **kwargs)
        qtbot.addWidget(dialog)
        return dialog

    return make


def odds(dialog: WalkaAttackDialog) -> dict[str, float]:
    return dict(dialog.dice.odds.outcomes())


def type_dice(dialog: WalkaAttackDialog, attack: str, defence: str = "", damage: str = "") -> None:
    dialog.dice.attack_entry.set_faces_text(attack)
    dialog.dice.defence_entry.set_faces_text(defence)
    dialog.dice.damage_entry.set_faces_text(damage)


def test_the_window_finds_the_dialog_by_game() -> None:
    assert game_ui("walka").attack_dialog() is WalkaAttackDialog


def test_prefilled_from_the_attacker_the_target_and_the_round(dialog_for: DialogFactory,
                                                             document: EncounterDocument) -> None:
    dialog = dialog_for(document, target_id="c5")
    assert dialog.attacker.currentData() == "c1"  # the current actor
    assert dialog.attack.skill_key() == "firearms" and dialog.attack.value.value() == 14
    assert dialog.attack.weapon_dice.value() == 3
    assert dialog.defence.defence_key() == "dodge" and dialog.defence.value.value() == 8
    assert dialog.defence.armor.value() == 1
    assert dialog.attack.counts.isChecked()
    assert dialog.modifiers.second.isChecked()  # Kira already attacked this round: one penalty die
    assert not dialog.modifiers.prepared.isChecked() and not dialog.modifiers.aimed.isChecked()
    assert dialog.defence.hp.text() == "Ganger 1: 4 of 6 Hit Points, 0 Chances."
    default = dialog_for(document)
    assert default.target.currentData() == "c5"  # the first able foe


def test_odds_come_from_the_rules_before_any_dice(dialog_for: DialogFactory, document: EncounterDocument) -> None:
    dialog = dialog_for(document, target_id="c5")
    shown = odds(dialog)
    chances = outcome_chances(14, 8, 20, 0, 1, 0, 0)
    assert shown["Missed"] == pytest.approx(chances[Outcome.MISSED], abs=TOLERANCE)
    assert shown["Defended"] == pytest.approx(chances[Outcome.DEFENDED], abs=TOLERANCE)
    hit = attack_win_probability(14, 8, attack_penalty=1)
    loss = hp_loss_distribution(2)  # 3 weapon dice − armor 1
    for removed in range(3):
        assert shown[hit_label(removed, 4)] == pytest.approx(hit * loss[removed], abs=TOLERANCE)
    assert sum(shown.values()) == pytest.approx(1.0)
    assert dialog.dice.pool_label.text().startswith("Damage pool 3 − armor 1 = 2d6")
    assert dialog.modifiers.summary.text() == "Attacker rolls 2d20 and keeps the highest.\nDefender rolls 1d20."


def test_odds_follow_every_change_live(dialog_for: DialogFactory, document: EncounterDocument) -> None:
    dialog = dialog_for(document, target_id="c5")
    before = odds(dialog)["Missed"]
    dialog.modifiers.second.setChecked(False)
    dialog.modifiers.attack_bonus.setValue(1)
    assert odds(dialog)["Missed"] < before
    dialog.modifiers.aimed.setChecked(True)  # (3 − 1) × 2 = 4 dice: enough to bring the ganger to 0
    assert hit_label(4, 4) in odds(dialog)
    assert odds(dialog)[hit_label(4, 4)] == pytest.approx(
        attack_win_probability(14, 8, attack_bonus=1) * hp_loss_distribution(4)[4], abs=TOLERANCE)
    dialog.defence.defence.setCurrentIndex(dialog.defence.defence.findData(""))
    assert "Defended" not in odds(dialog)
    assert dialog.modifiers.summary.text().endswith("Defender does not roll.")


def test_work_out_rows_add_up_and_cover_a_target_at_zero() -> None:
    inputs = AttackInputs(20, 12, "dodge", 9, 1, 0, 0, 2, 5, 1, 2, False, 3)
    sheet = work_out(inputs)
    assert sheet.pool == 4
    assert [label for label, _p in sheet.rows] == ["Missed", "Defended", "Hit, no Hit Point lost",
                                                   "Hit, 1 Hit Point lost", "Hit, 2 Hit Points lost",
                                                   "Hit, 3+ Hit Points: down to 0"]
    assert sum(p for _label, p in sheet.rows) == pytest.approx(1.0)
    down = work_out(AttackInputs(100, 40, "", 0, 0, 0, 0, 0, 3, 0, 0, True, 0))
    assert [label for label, _p in down.rows] == ["Missed", "Hit"]
    assert down.chance("Hit") == pytest.approx(0.4)


def test_under_the_skill_by_option_in_the_dialog(dialog_for: DialogFactory) -> None:
    # walka.md Decision: "a roll succeeds if it is ≤ the skill (option: < the skill)".
    history, ids = table({"test_success": "under"})
    roll(history, Ania=1, Bartek=5, Celina=7, GM=9)
    dialog = dialog_for(EncounterDocument(history), target_id=ids["Ganger 1"])
    expression = dialog.dice.attack_entry.expression()
    assert expression is not None and expression.label().startswith("d20 under 11")  # Firearms 12: 11 or less
    assert odds(dialog)["Missed"] == pytest.approx(1 - 11 / 20)
    type_dice(dialog, "12")
    assert dialog.dice.defence_entry.expression() is None  # 12 fails: no defence to roll


def test_the_sheet_follows_the_aim_option() -> None:
    # walka.md Decision: the pool after armor is doubled (default); option: before armor.
    after = AttackInputs(20, 12, "dodge", 9, 0, 0, 0, 0, 3, 0, 1, True, 6)
    before = AttackInputs(20, 12, "dodge", 9, 0, 0, 0, 0, 3, 0, 1, True, 6, aim_before_armor=True)
    assert (work_out(after).pool, pool_text(after, work_out(after).pool)) == (4, "(3 − armor 1) × 2 = 4d6")
    assert (work_out(before).pool, pool_text(before, work_out(before).pool)) == (5, "(3) × 2 − armor 1 = 5d6")


def test_typed_dice_resolve_one_undoable_attack(dialog_for: DialogFactory, document: EncounterDocument) -> None:
    before = to_data(document.state)
    dialog = dialog_for(document, target_id="c5")
    dialog.attack.weapon.setText("Heavy pistol")
    assert dialog.dice.defence_entry.expression() is not None
    assert dialog.dice.damage_entry.expression() is None  # only a hit rolls damage
    type_dice(dialog, "9, 3", "11")
    assert dialog.dice.damage_entry.expression() is not None
    assert not dialog.resolve_button.isEnabled()
    dialog.dice.damage_entry.set_faces_text("6, 2")
    assert dialog.resolve_button.isEnabled(), dialog.status_label.text()
    dialog.resolve()
    assert document.state.combatant("c5").boxes("hp") == 3
    assert "Kira rolls 9, 3 and keeps 9 against 14: success." in dialog.result_label.text()
    assert dialog.dice.odds.highlighted() == "Hit, 1 Hit Point lost"
    assert dialog.defence.hp.text() == "Ganger 1: 3 of 6 Hit Points, 0 Chances."
    assert not dialog.resolve_button.isEnabled() and dialog.next_button.isEnabled()
    document.undo_stack.undo()
    assert to_data(document.state) == before


def test_a_failed_attack_needs_no_defence_or_damage_dice(dialog_for: DialogFactory,
                                                         document: EncounterDocument) -> None:
    dialog = dialog_for(document, target_id="c5")
    type_dice(dialog, "17, 15")
    assert dialog.dice.defence_entry.expression() is None
    assert "the attack failed" in dialog.dice.defence_entry.count_label.text()
    assert dialog.resolve_button.isEnabled()
    dialog.resolve()
    assert dialog.dice.odds.highlighted() == "Missed"
    assert "The attack misses." in dialog.result_label.text()


def test_rolled_dice_and_the_next_attack(dialog_for: DialogFactory, document: EncounterDocument) -> None:
    dialog = dialog_for(document, seed=5, target_id="c6")
    dialog.roll_remaining()
    assert all(entry.is_complete() for entry in dialog.dice.entries())
    dialog.resolve()
    assert len(document.history.entries[-1].log) >= 3
    dialog.next_attack()
    assert dialog.dice.attack_entry.faces() == () and dialog.resolve_button.isEnabled() is False
    assert not dialog.attack.counts.isEnabled() or dialog.attack.counts.isChecked()


def test_a_refusal_is_shown_and_nothing_changes(dialog_for: DialogFactory, document: EncounterDocument) -> None:
    document.apply(WalkaAction("c1", "non-combat"))  # Kira's last action this round
    dialog = dialog_for(document, target_id="c5")
    before = to_data(document.state)
    type_dice(dialog, "19, 20", "")
    dialog.resolve()
    assert "0 of 2 actions left" in dialog.status_label.text()
    assert to_data(document.state) == before
    dialog.attack.counts.setChecked(False)  # the GM allows it outside the action budget
    dialog.resolve()
    assert "The attack misses." in dialog.result_label.text()


def test_a_chance_can_be_spent_when_the_target_drops(dialog_for: DialogFactory, qtbot: QtBot) -> None:
    history, ids = table()
    roll(history, Ania=1, Bartek=5, Celina=7, GM=9)
    history.do(SetDamage(ids["Wedge"], "hp", 5))
    document = EncounterDocument(history)
    dialog = dialog_for(document, target_id=ids["Wedge"])
    assert dialog.attacker.currentData() == ids["Kira"]
    type_dice(dialog, "3", "12", "6, 1, 1")
    dialog.resolve()
    assert dialog.chance_button.isVisibleTo(dialog)
    assert dialog.chance_button.text() == "Spend a Chance: Wedge stays conscious"
    qtbot.mouseClick(dialog.chance_button, Qt.MouseButton.LeftButton)
    wedge = document.state.combatant(ids["Wedge"])
    assert document.system.status(wedge, document.state) is Status.ACTIVE
    assert "Wedge spends a Chance" in dialog.result_label.text()
    assert not dialog.chance_button.isVisibleTo(dialog)


def test_an_unconscious_target_does_not_defend_unless_the_gm_says_so(dialog_for: DialogFactory) -> None:
    # walka.md: "An unaware or immobile defender (an unconscious one included) rolls no defence".
    history, ids = table()
    roll(history, Ania=1, Bartek=5, Celina=7, GM=9)
    history.do(SetDamage(ids["Wedge"], "hp", 6))  # all six Hit Points gone, no Chance spent: unconscious
    document = EncounterDocument(history)
    assert document.system.status(document.state.combatant(ids["Wedge"]), document.state) is Status.UNCONSCIOUS
    dialog = dialog_for(document, target_id=ids["Wedge"])
    assert dialog.defence.defence_key() == "" and not dialog.defence.value.isEnabled()
    assert dialog.dice.defence_entry.expression() is None  # no defence die to roll
    dialog.target.setCurrentIndex(dialog.target.findData(ids["Ganger 1"]))  # someone awake defends again
    assert dialog.defence.defence_key() == "dodge"
    dialog.target.setCurrentIndex(dialog.target.findData(ids["Wedge"]))
    dialog.defence.defence.setCurrentIndex(dialog.defence.defence.findData("dodge"))  # the GM's call wins
    assert dialog.defence.defence_key() == "dodge"


def test_a_third_attack_is_refused_and_the_gm_may_allow_it_in_one_click(dialog_for: DialogFactory,
                                                                        document: EncounterDocument,
                                                                        qtbot: QtBot) -> None:
    # walka.md: "two actions per round"; the dialog quotes the refusal and offers the GM's override.
    dialog = dialog_for(document, target_id="c5")
    for _attack in range(2):
        type_dice(dialog, "17, 15")  # misses: only the actions matter
        dialog.resolve()
        dialog.next_attack()
    entries = len(document.history.entries)
    type_dice(dialog, "17, 15")
    dialog.resolve()
    assert "actions left this round" in dialog.status_label.text() and len(document.history.entries) == entries
    assert dialog.override_button.isVisibleTo(dialog)
    qtbot.mouseClick(dialog.override_button, Qt.MouseButton.LeftButton)
    assert len(document.history.entries) == entries + 1 and not dialog.attack.counts.isChecked()


def test_a_defender_who_prepared_last_round_defends_with_the_advantage_die(dialog_for: DialogFactory) -> None:
    # walka.md, Prepare: "one advantage die next round on the prepared action, whatever it is (attack, defence or
    # another test)".
    history, ids = table()
    roll(history, Ania=1, Bartek=5, Celina=7, GM=9)
    while "Ganger 1" not in acting(history):
        history.do(NextTurn())
    history.do(WalkaAction(ids["Ganger 1"], "prepare"))  # braced for the attack to come
    round_order(history)  # round 2: Kira's seat first again
    document = EncounterDocument(history)
    dialog = dialog_for(document, target_id=ids["Ganger 1"])
    assert dialog.modifiers.defence_prepared.isChecked() and not dialog.modifiers.prepared.isChecked()
    inputs = dialog.inputs()
    assert inputs is not None and inputs.defence_bonus == 1  # the odds count the die
    type_dice(dialog, "3", "12, 15", "1, 1, 1")  # the defender keeps the lower of two dice
    dialog.resolve()
    operation = document.history.entries[-1].operation
    assert isinstance(operation, WalkaAttack) and operation.defence_prepared and operation.defence_bonus == 1
    ganger = document.state.combatant(ids["Ganger 1"])
    assert not walka_actions.prepared_now(ganger, document.state)  # used up


def test_d100_by_option(dialog_for: DialogFactory) -> None:
    history, ids = table({"test_die": "100"})
    roll(history, Ania=1, Bartek=5, Celina=7, GM=9)
    dialog = dialog_for(EncounterDocument(history), target_id=ids["Ganger 1"])
    expression = dialog.dice.attack_entry.expression()
    assert expression is not None and expression.die_sides() == (100,)
    assert odds(dialog)["Missed"] == pytest.approx(1 - 12 / 100)


def test_d100_with_tens_dice_by_option(dialog_for: DialogFactory) -> None:
    # walka.md Decision: "(option for d100: an extra tens die)". Kira aims a prepared shot: one bonus die.
    history, ids = table({"test_die": "100_tens"})
    roll(history, Ania=1, Bartek=5, Celina=7, GM=9)
    history.do(WalkaAction(ids["Kira"], "prepare"))
    round_order(history)
    document = EncounterDocument(history)
    dialog = dialog_for(document, target_id=ids["Ganger 1"])
    assert dialog.modifiers.prepared.isChecked()
    expression = dialog.dice.attack_entry.expression()
    assert expression is not None and expression.text == "d100 under 12 +1b tens"
    assert "Attacker rolls one units die and 2 tens dice, and keeps the lowest." in dialog.modifiers.summary.text()
    exact = outcome_chances(12, 8, 100, 1, 0, 0, 0, tens=True)
    assert odds(dialog)["Missed"] == pytest.approx(exact[Outcome.MISSED], abs=TOLERANCE)
    assert exact[Outcome.MISSED] != pytest.approx(outcome_chances(12, 8, 100, 1, 0, 0, 0)[Outcome.MISSED])
    type_dice(dialog, "75, 36")
    assert "same digit" in dialog.dice.attack_entry.error_text()
    type_dice(dialog, "75, 5", "18", "4, 5, 1")
    assert dialog.resolve_button.isEnabled(), dialog.status_label.text()
    dialog.resolve()
    operation = document.history.entries[-1].operation
    assert isinstance(operation, WalkaAttack) and operation.tens and operation.attack_faces == (75, 5)


def test_an_outside_change_resets_a_shown_result(dialog_for: DialogFactory, document: EncounterDocument) -> None:
    dialog = dialog_for(document, target_id="c5")
    type_dice(dialog, "17, 15")
    dialog.resolve()
    document.undo_stack.undo()  # the GM takes it back from the window
    assert not dialog.next_button.isEnabled() and dialog.result_label.text() == ""
    assert dialog.dice.attack_entry.faces() == ()


# --- looking at it ---------------------------------------------------------------------------------------


@pytest.fixture
def shots(tmp_path: Path) -> Iterator[Path]:
    folder = Path(SHOTS) if SHOTS else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    yield folder


def _clipped_labels(dialog: WalkaAttackDialog) -> list[str]:
    return [label.text() for label in dialog.findChildren(QLabel)
            if label.isVisibleTo(dialog) and label.text() and not label.wordWrap()
            and label.width() < label.minimumSizeHint().width()]


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_fits_a_laptop_screen_in_both_themes(dialog_for: DialogFactory, document: EncounterDocument, shots: Path,
                                            qtbot: QtBot, theme: str) -> None:
    application = QApplication.instance()
    assert isinstance(application, QApplication)
    apply_theme(application, theme)
    try:
        dialog = dialog_for(document, target_id="c5")
        dialog.resize(*LAPTOP)
        dialog.show()
        qtbot.waitExposed(dialog)
        dialog.attack.weapon.setText("Heavy pistol")
        qtbot.wait(50)
        assert dialog.grab().save(str(shots / f"walka_attack_before_{theme}.png"))
        scroll = dialog.findChild(QScrollArea)
        assert scroll is not None
        content = scroll.widget()
        assert content is not None
        assert content.minimumSizeHint().width() <= scroll.viewport().width()  # no scrolling on a laptop
        assert content.minimumSizeHint().height() <= scroll.viewport().height()
        assert _clipped_labels(dialog) == []
        type_dice(dialog, "9, 3", "11", "6, 2")
        dialog.resolve()
        qtbot.wait(50)
        assert dialog.grab().save(str(shots / f"walka_attack_after_{theme}.png"))
        assert _clipped_labels(dialog) == []
        assert dialog.result_label.height() >= dialog.result_label.heightForWidth(dialog.result_label.width())
        assert dialog.dice.odds.height() >= dialog.dice.odds.sizeHint().height()
        assert dialog.dice.odds.displayed()[0][1] == format_percent(odds(dialog)["Missed"])
    finally:
        apply_theme(application, "light")


def test_the_odds_dock_asks_about_tens_dice_too() -> None:
    # Skill 45, one bonus die, no defence: 0.695 with a tens die, 0.6975 with a whole d100 (worked by hand in
    # tests/rules/test_walka_tens_dice.py).
    from ui.games.walka.odds import QUESTIONS

    contest = QUESTIONS[0]
    die_field = next(field for field in contest.fields if field.key == "die")
    assert [value for _text, value in die_field.choices] == [(20, False), (100, False), (100, True)]
    values: dict[str, object] = {field.key: field.value for field in contest.fields}
    values.update(attack=45, attack_bonus=1, defence=0)
    hits = {}
    for die in ((100, False), (100, True)):
        values["die"] = die
        data = contest.answer(values)
        hits[die] = dict(zip(data.names, data.dist.probs, strict=True))["Hit"]
    assert hits == {(100, False): pytest.approx(0.6975), (100, True): pytest.approx(0.695)}


def test_a_second_aim_doubles_again_in_the_dialog_only_where_the_option_says_so(dialog_for: DialogFactory) -> None:
    # walka.md Decision: "a second Aim before the same attack does not double again (default …; option: it does)".
    for option, shown in (("once", False), ("again", True)):
        history, ids = table({"aim_twice": option})
        roll(history, Ania=1, Bartek=5, Celina=7, GM=9)
        history.do(WalkaAction(ids["Kira"], "aim"))
        history.do(WalkaAction(ids["Kira"], "aim"))
        dialog = dialog_for(EncounterDocument(history), attacker_id=ids["Kira"], target_id=ids["Ganger 1"])
        assert dialog.modifiers.aimed.isChecked()
        assert dialog.modifiers.aimed_twice.isVisibleTo(dialog) is shown
        assert dialog.modifiers.aimed_twice.isChecked() is shown
        inputs = dialog.inputs()
        assert inputs is not None and inputs.aimed_twice is shown


def test_the_sheet_shows_a_pool_doubled_again() -> None:
    twice = AttackInputs(20, 12, "dodge", 9, 0, 0, 0, 0, 3, 0, 1, True, 6, aimed_twice=True)
    assert (work_out(twice).pool, pool_text(twice, work_out(twice).pool)) == (8, "(3 − armor 1) × 4 = 8d6")
