"""The Člověk roll dialog: odds before the dice and live, typed or rolled dice, one undoable operation."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.document import EncounterDocument
from rules.combatants import SetAttribute
from rules.dice import Roller
from rules.serialize import to_data
from rules.systems.clovek import ClovekCheck, SetInitiativeDice, StartLongAction
from rules.systems.clovek.dice import SkillKind
from rules.systems.clovek.long_actions import LongKind, find_long_action
from rules.systems.clovek.odds import OUTCOMES, outcome_odds, roll_odds
from rules.systems.clovek.sample import sample
from rules.turns import NextTurn
from tests.rules.test_clovek_scenes import left, roll, seed_fight
from ui.games import game_ui
from ui.games.clovek.attack import ClovekCheckDialog
from ui.games.clovek.check_form import outcome_label
from ui.theme import apply_theme
from ui.widgets.odds_table import format_percent

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")

SHOTS = os.environ.get("BOJOVKA_SHOTS")
LAPTOP = (1366, 700)
DialogFactory = Callable[..., ClovekCheckDialog]


@pytest.fixture
def dialog_for(qtbot: QtBot) -> DialogFactory:
    def make(document: EncounterDocument, seed: int = 1, **kwargs: Any) -> ClovekCheckDialog:
        dialog = ClovekCheckDialog(document, Roller.seeded(seed), **kwargs)
        qtbot.addWidget(dialog)
        return dialog

    return make


def duel() -> EncounterDocument:
    """The seed's three, Cesare risking one die: Cesare 3 + 9 = 12 acts first, then Adriana 4, Beatrice 2."""
    history = seed_fight()
    history.do(SetInitiativeDice("c", 1))
    roll(history, {"c": (9,), "b": (), "a": ()})
    return EncounterDocument(history)


def test_the_window_finds_the_dialog() -> None:
    assert game_ui("clovek").attack_dialog() is ClovekCheckDialog


def test_odds_show_before_any_die_and_follow_the_form(dialog_for: DialogFactory) -> None:
    dialog = dialog_for(duel(), attacker_id="c")
    assert dialog.attacker.currentData() == "c" and dialog.role.currentData() == "action"
    dialog.roll_box.skill.setValue(3)
    dialog.roll_box.dice.setValue(4)
    expected = outcome_odds(roll_odds(4, 3, SkillKind.ABILITY))
    assert dialog.outcome_odds.displayed() == [(outcome_label(key), format_percent(expected[key]))
                                               for key in OUTCOMES]
    dialog.roll_box.bonus.setValue(2)
    with_bonus = outcome_odds(roll_odds(4, 3, SkillKind.ABILITY), bonus=2)
    assert dict(dialog.outcome_odds.outcomes())[outcome_label("failure")] == pytest.approx(with_bonus["failure"])
    assert dialog.roll_box.dice.maximum() == 6  # Cesare's physical bank (Agility 3)
    assert not dialog.power_odds_box.isVisibleTo(dialog)
    dialog.power_box.source.setCurrentIndex(1)
    assert dialog.power_box.value.value() == 4  # his Constitution
    assert dialog.power_odds.outcomes()[0][0] == "Action fails"


def test_typed_stealth_roll_two_successes(dialog_for: DialogFactory) -> None:
    document = EncounterDocument(seed_fight())  # no round: no turn rules, only the dice
    dialog = dialog_for(document, attacker_id="b")
    dialog.roll_box.skill_name.setText("Stealth")
    dialog.roll_box.skill.setValue(1)
    dialog.roll_box.dice.setValue(4)
    dialog.roll_entry.set_faces_text("2, 9, 5, 0+2")
    assert dialog.resolve_button.isEnabled(), dialog.status_label.text()
    dialog.resolve()
    assert "2 successes: full success." in dialog.result_label.text()
    assert dialog.outcome_odds.highlighted() == "Full success"
    assert left(document.history, "b") == (0, 6, 8)
    document.undo_stack.undo()
    assert left(document.history, "b") == (4, 6, 8)


def test_an_attack_with_defence_power_and_wounds(dialog_for: DialogFactory) -> None:
    document = duel()
    dialog = dialog_for(document, attacker_id="c", target_id="a")
    dialog.roll_box.skill_name.setText("Fencing")
    dialog.roll_box.skill.setValue(3)
    dialog.roll_box.dice.setValue(3)
    dialog.defends.setChecked(True)
    dialog.defence_box.skill.setValue(2)
    dialog.defence_box.dice.setValue(2)
    dialog.power_box.source.setCurrentIndex(1)
    assert dialog.power_box.track.currentData() == "physical_wounds"
    assert not dialog.power_entry.faces_edit.isEnabled()  # the power waits for the action
    dialog.roll_entry.set_faces_text("9, 9, 10+3")
    dialog.defence_entry.set_faces_text("1, 10+1")
    assert dialog.net_successes() == 2 and dialog.power_entry.dice_count() == 2
    dialog.power_entry.set_faces_text("7, 2")
    dialog.resolve()
    assert document.state.combatant("a").boxes("physical_wounds") == 3
    assert dialog.power_odds.highlighted() == "Power 3"
    assert not dialog.resolve_button.isEnabled() and dialog.next_button.isEnabled()
    dialog.next_attack()
    assert dialog.roll_entry.faces_edit.text() == "" and dialog.result_label.text() == ""


def test_rolled_dice_with_the_seeded_roller(dialog_for: DialogFactory) -> None:
    document = duel()
    dialog = dialog_for(document, seed=5, attacker_id="c", target_id="a")
    dialog.roll_box.skill.setValue(4)
    dialog.roll_box.dice.setValue(5)
    dialog.power_box.source.setCurrentIndex(2)  # a pistol: power value 3
    dialog.power_box.value.setValue(3)
    dialog.roll_remaining()
    if dialog.power_entry.expression() is not None:
        assert dialog.power_entry.is_complete()
    assert dialog.resolve_button.isEnabled(), dialog.status_label.text()
    operation = dialog.operation()
    assert operation is not None and len(operation.test.faces) == 5
    dialog.resolve()
    assert document.history.entries[-1].operation == operation  # exactly the dice shown, nothing rolled again
    net = dialog.net_successes()
    assert net is not None
    wounds = document.state.combatant("a").boxes("physical_wounds")
    if net > 0:
        assert operation.power is not None
        assert wounds == max(0, operation.power.result(net, 2).total)
    else:
        assert wounds == 0 and operation.power is None
    assert left(document.history, "c") == (1, 6, 3)


def test_a_refusal_is_shown_not_raised(dialog_for: DialogFactory) -> None:
    document = duel()
    dialog = dialog_for(document, attacker_id="b")  # not her turn
    dialog.role.setCurrentIndex(0)  # … yet an action
    dialog.roll_box.dice.setValue(1)
    dialog.roll_entry.set_faces_text("5")
    before = to_data(document.state)
    dialog.resolve()
    assert "own turn" in dialog.status_label.text()
    assert to_data(document.state) == before


def test_a_second_roll_as_an_action_names_what_grants_it(dialog_for: DialogFactory) -> None:
    document = duel()  # Cesare's turn
    dialog = dialog_for(document, attacker_id="c")
    assert dialog.role.currentData() == "action" and not dialog.extra_action.isEnabled()
    dialog.roll_box.dice.setValue(1)
    dialog.roll_entry.set_faces_text("5")
    dialog.resolve()
    dialog.next_attack()
    assert dialog.extra_action.isEnabled()  # Cesare has acted: the next action is an extra one
    dialog.roll_box.dice.setValue(1)
    dialog.roll_entry.set_faces_text("6")
    before = to_data(document.state)
    dialog.resolve()
    assert "extra actions come only from abilities" in dialog.status_label.text()
    assert to_data(document.state) == before
    dialog.extra_action.setCurrentIndex(dialog.extra_action.findData("ability"))
    dialog.roll_entry.set_faces_text("6")
    dialog.resolve()
    bank = dialog.roll_box.bank.currentData()
    assert document.state.combatant("c").boxes(f"{bank}_stun") == 1  # "one per extra action, usually"
    assert "burns a" in document.history.entries[-1].text()


def test_a_long_action_roll(dialog_for: DialogFactory) -> None:
    history = seed_fight()
    history.do(StartLongAction("b", "book", "Decode the book", "mental", LongKind.INTERRUPTIBLE, 10))
    document = EncounterDocument(history)
    dialog = dialog_for(document, attacker_id="b")
    dialog.long_action.setCurrentIndex(dialog.long_action.findData("book"))
    assert dialog.roll_box.bank.currentData() == "mental" and not dialog.roll_box.bank.isEnabled()
    assert dialog.power_box.chosen() is not None and dialog.power_box.value.value() == 4
    dialog.roll_box.skill.setValue(3)
    dialog.roll_box.dice.setValue(1)
    dialog.roll_entry.set_faces_text("8")
    dialog.power_entry.set_faces_text("6")
    dialog.resolve()
    action = find_long_action(document.state.combatant("b"), "book")
    assert action.power == 3 and document.state.combatant("b").boxes("mental_stun") == 1


def test_the_dialog_keeps_up_with_the_fight(dialog_for: DialogFactory) -> None:
    document = duel()
    dialog = dialog_for(document, attacker_id="c")
    dialog.roll_box.dice.setValue(2)
    dialog.roll_entry.set_faces_text("3, 4")
    document.apply(NextTurn())
    assert dialog.roll_entry.faces_edit.text() == ""  # someone else changed the fight: start over


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_screenshot_at_laptop_size(dialog_for: DialogFactory, tmp_path: Path, theme: str) -> None:
    application = QApplication.instance()
    assert isinstance(application, QApplication)
    apply_theme(application, theme)
    try:
        dialog = dialog_for(EncounterDocument(sample()), seed=3, attacker_id="c2", target_id="c4")
        dialog.roll_box.skill_name.setText("Fencing")
        dialog.roll_box.skill.setValue(3)
        dialog.roll_box.dice.setValue(4)
        dialog.defends.setChecked(True)
        dialog.defence_box.dice.setValue(2)
        dialog.power_box.source.setCurrentIndex(1)
        dialog.resize(*LAPTOP)
        dialog.show()
        QApplication.processEvents()
        for entry in dialog.entries():
            assert entry.isVisible() or entry is dialog.defence_entry
        content = dialog._content
        assert content.height() <= LAPTOP[1]  # no scrolling needed on a laptop
        image = dialog.grab()
        for folder in filter(None, (str(tmp_path), SHOTS)):
            image.save(str(Path(folder) / f"clovek_roll_{theme}.png"))
    finally:
        apply_theme(application, "light")


def test_the_targets_armor_is_a_power_penalty_the_gm_may_add_to(dialog_for: DialogFactory) -> None:
    # clovek.md: "Armor (from the examples): a power penalty on incoming attacks (light armor −2)"; Beatrice's
    # shield blow: "the opponent's light armor −2".
    history = seed_fight()
    history.do(SetAttribute("a", "armor", 2))  # Adriana in light armor
    history.do(SetInitiativeDice("c", 1))
    roll(history, {"c": (9,), "b": (), "a": ()})
    dialog = dialog_for(EncounterDocument(history), attacker_id="c", target_id="a")
    assert dialog.power_box.penalty.value() == 2
    dialog.power_box.penalty.setValue(3)  # the GM adds a penalty of their own
    dialog.target.setCurrentIndex(dialog.target.findData("b"))  # Beatrice wears none
    assert dialog.power_box.penalty.value() == 1
    dialog.target.setCurrentIndex(dialog.target.findData("a"))
    assert dialog.power_box.penalty.value() == 3


def test_armor_came_later_so_an_old_fight_replays_to_the_state_it_saved() -> None:
    history = seed_fight()  # added without armor, as every fight saved before there was one
    assert "armor" not in history.state.combatant("b").attributes
    assert history.state.combatant("b").attribute("armor") == 0
    spec = next(spec for spec in history.system.attribute_specs() if spec.key == "armor")
    assert spec.default == 0 and not spec.filled_when_added


def test_the_dialog_counts_odds_hints_and_dice_by_the_encounters_rolling_options(dialog_for: DialogFactory) -> None:
    # clovek.md "Rolling" Decisions: floor 5 for every skill (default) or supernatural skills only; at skill 11+ a
    # supernatural skill rerolls only its successes (default) or literally from 15 − skill.
    from rules.combatants import SetOption
    from rules.systems.clovek.dice import RollRules

    document = EncounterDocument(seed_fight())
    dialog = dialog_for(document, attacker_id="b")
    dialog.roll_box.skill.setValue(7)
    dialog.roll_box.dice.setValue(2)
    assert dialog.roll_box.info.text() == "Success on 5 or more; a 10 is rolled again."
    assert dict(dialog.outcome_odds.outcomes())["Failure"] == pytest.approx(
        outcome_odds(roll_odds(2, 7, SkillKind.ABILITY))["failure"])
    document.apply(SetOption("success_floor", "supernatural"))
    assert dialog.roll_box.info.text() == "Success on 3 or more; a 10 is rolled again."
    assert dict(dialog.outcome_odds.outcomes())["Failure"] == pytest.approx(
        outcome_odds(roll_odds(2, 7, SkillKind.ABILITY, rules=RollRules(floor_every_skill=False)))["failure"])
    dialog.roll_entry.set_faces_text("3, 4")
    dialog.resolve()
    assert "2 successes: full success." in dialog.result_label.text()
    dialog.next_attack()
    document.apply(SetOption("supernatural_reroll", "literal"))
    dialog.roll_box.skill.setValue(12)
    dialog.roll_box.supernatural.setChecked(True)
    assert dialog.roll_box.info.text() == ("Success on 5 or more; 3 or more is rolled again, a failed die too.")
    dialog.roll_entry.set_faces_text("3+10+2, 1")
    assert dialog.resolve_button.isEnabled(), dialog.status_label.text()
    assert dialog.net_successes() == 1
    dialog.resolve()
    assert "1 success: basic success." in dialog.result_label.text()


def test_faces_typed_as_two_digit_d10s_show_them_are_read_and_shown_as_read(dialog_for: DialogFactory) -> None:
    # clovek.md: "On d10s with two-digit faces ignore the second digit: "10" = 1, "20" = 2, "00" = 10".
    from rules.combatants import SetOption

    document = EncounterDocument(seed_fight())
    dialog = dialog_for(document, attacker_id="b")
    dialog.roll_box.skill.setValue(1)
    dialog.roll_box.dice.setValue(4)
    dialog.roll_entry.set_faces_text("20, 90, 50, 00+20")
    assert dialog.roll_entry.result_label.text() == "2 successes, full success (read as 2, 9, 5, 10+2)"
    dialog.roll_entry.set_faces_text("20, 90, 55, 00+20")
    assert "“55” is no d10 face" in dialog.roll_entry.error_text() and not dialog.resolve_button.isEnabled()
    document.apply(SetOption("d10_faces", "two_digit"))
    dialog.roll_entry.set_faces_text("10, 90, 50, 00+20")
    assert dialog.roll_entry.faces() == ((1,), (9,), (5,), (10, 2))
    dialog.resolve()
    assert "2 successes: full success." in dialog.result_label.text()
    operation = document.history.entries[-1].operation
    assert isinstance(operation, ClovekCheck)
    assert operation.test.faces == ((1,), (9,), (5,), (10, 2))  # the history keeps the faces as read
