"""The SR3 surprise test from the window, with sr3.md's example (Surprise):

"Tess (Reaction 6), Virgil (8), Winger (9) ambush three guards (Reaction 3). TN 2: Tess 3, Virgil 4, Winger 5;
TN 4: A 4, B 2, C 0. Tess → B, C; Virgil → B, C; Winger → all; A → Tess only; B, C completely surprised."
"""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QLabel
from pytestqt.qtbot import QtBot

from app.document import EncounterDocument
from rules.dice import Roller
from rules.encounter import Side
from rules.history import History, new_history
from rules.systems.sr3 import SurpriseTest
from rules.systems.sr3.surprise import completely_surprised, may_act_against_now
from rules.turns import NextTurn, RollInitiative
from tests.rules.sr3_scenes import add
from ui.games import game_ui
from ui.games.sr3.surprise import SurpriseDialog

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")

FACES = {"Tess": "2, 2, 2, 1, 1, 1", "Virgil": "2, 2, 2, 2, 1, 1, 1, 1", "Winger": "2, 2, 2, 2, 2, 1, 1, 1, 1",
         "Guard A": "4, 5, 6, 4", "Guard B": "4, 4, 1", "Guard C": "1, 2, 3"}


def ambush() -> tuple[History, dict[str, str]]:
    history = new_history("sr3", "Ambush")
    ids = {name: add(history, name, Side.PLAYER, reaction=reaction, body=4)
           for name, reaction in (("Tess", 6), ("Virgil", 8), ("Winger", 9))}
    ids.update({name: add(history, name, Side.OPPONENT, reaction=3, body=4)
                for name in ("Guard A", "Guard B", "Guard C")})
    return history, ids


def dialog_on(qtbot: QtBot, document: EncounterDocument) -> SurpriseDialog:
    dialog = SurpriseDialog(document, Roller.seeded(1))
    qtbot.addWidget(dialog)
    return dialog


def typed(dialog: SurpriseDialog) -> None:
    for row in dialog.rows:
        name = row.combatant.name
        row.delayed.setChecked(name in ("Tess", "Virgil", "Winger"))  # they delayed for their victims: TN 2
        if name == "Guard A":
            row.dice.setValue(4)  # the seed's A has 4 successes: the GM gives the dice the example needs
        row.faces.setText(FACES[name])


def test_the_seeds_ambush_is_compared_pair_by_pair_and_recorded(qtbot: QtBot) -> None:
    history, ids = ambush()
    document = EncounterDocument(history)
    dialog = dialog_on(qtbot, document)
    assert not dialog.apply_button.isEnabled()
    assert dialog.status_label.text() == "Roll or type every fighter's Reaction dice."
    typed(dialog)
    assert [row.successes for row in dialog.rows] == [3, 4, 5, 4, 2, 0]
    assert "6d6 TN 2: 3 successes" in dialog.rows[0].result.text()
    assert dialog.outcome.text().splitlines() == [
        "Tess may act against: Guard B, Guard C.",
        "Virgil may act against: Guard B, Guard C.",
        "Winger may act against: Guard A, Guard B, Guard C.",
        "Guard A may act against: Tess.",
        "Guard B is completely surprised: no actions at all, not even free ones.",
        "Guard C is completely surprised: no actions at all, not even free ones."]
    dialog.apply()
    state = document.state
    assert set(may_act_against_now(state, ids["Tess"]) or ()) == {ids["Guard B"], ids["Guard C"]}
    assert may_act_against_now(state, ids["Guard A"]) == (ids["Tess"],)
    assert completely_surprised(state) == {ids["Guard B"], ids["Guard C"]}
    document.undo_stack.undo()
    assert completely_surprised(document.state) == frozenset()


def test_the_losses_end_with_each_fighters_next_phase(qtbot: QtBot) -> None:
    history, ids = ambush()
    document = EncounterDocument(history)
    dialog = dialog_on(qtbot, document)
    typed(dialog)
    dialog.apply()
    rolls = {ids["Winger"]: (6,), ids["Guard A"]: (5,), ids["Tess"]: (1,), ids["Virgil"]: (1,),
             ids["Guard B"]: (1,), ids["Guard C"]: (1,)}
    document.apply(RollInitiative(rolls, {}))
    assert document.state.clock.current is not None
    first = document.state.clock.current.ids[0]
    assert first == ids["Winger"]  # 9 + 6
    document.apply(NextTurn())  # Winger's phase ends: so do the test's losses for Winger
    assert may_act_against_now(document.state, ids["Winger"]) is None
    assert may_act_against_now(document.state, ids["Guard A"]) == (ids["Tess"],)  # still before Guard A's phase
    acting = {cid for slot_ids in [document.state.clock.current.ids] for cid in slot_ids}
    assert ids["Guard B"] not in acting and ids["Guard C"] not in acting


def test_mid_turn_the_dialog_applies_the_losses_to_the_next_phase(qtbot: QtBot) -> None:
    # "Decided before the turn's first action, unless it arises mid-turn": Winger 15 has acted, Virgil 13 acts;
    # guards B (8) and C (6) lose their phase of this pass.
    history, ids = ambush()
    faces = {"Winger": 6, "Virgil": 5, "Guard A": 6, "Guard B": 5, "Tess": 1, "Guard C": 3}
    history.do(RollInitiative({ids[name]: (face,) for name, face in faces.items()}, {}))
    history.do(NextTurn())
    document = EncounterDocument(history)
    dialog = dialog_on(qtbot, document)
    assert any("The turn is under way" in label.text() for label in dialog.findChildren(QLabel))
    typed(dialog)
    assert dialog.apply_button.isEnabled()
    dialog.apply()
    state = document.state
    assert completely_surprised(state) == {ids["Guard B"], ids["Guard C"]}
    slots = document.system.remaining_slots(state)
    assert [state.combatant(slot.ids[0]).name for slot in slots] == ["Virgil", "Guard A", "Tess"]
    document.undo_stack.undo()
    assert [slot.ids[0] for slot in document.system.remaining_slots(document.state)] == [
        ids[name] for name in ("Virgil", "Guard A", "Guard B", "Tess", "Guard C")]


def test_a_third_side_and_a_fighter_left_out(qtbot: QtBot) -> None:
    # A three-way ambush: Tess turns on Virgil (side 3); Winger is not concerned (left out of the test).
    history, ids = ambush()
    document = EncounterDocument(history)
    dialog = dialog_on(qtbot, document)
    typed(dialog)
    rows = {row.combatant.name: row for row in dialog.rows}
    assert [rows[name].side.currentText() for name in ("Tess", "Guard A")] == ["Side 1", "Side 2"]
    rows["Tess"].side.setCurrentIndex(2)
    rows["Winger"].involved.setChecked(False)
    assert dialog.outcome.text().splitlines() == [
        "Tess may act against: Guard B, Guard C.",
        "Virgil may act against: Guard B, Guard C, Tess.",
        "Guard A may act against: Tess.",
        "Guard B is completely surprised: no actions at all, not even free ones.",
        "Guard C is completely surprised: no actions at all, not even free ones."]
    dialog.apply()
    operation = document.history.entries[-1].operation
    assert isinstance(operation, SurpriseTest) and operation.sides[ids["Tess"]] == "3"
    assert may_act_against_now(document.state, ids["Virgil"]) == tuple(sorted(
        (ids["Guard B"], ids["Guard C"], ids["Tess"])))
    assert may_act_against_now(document.state, ids["Winger"]) is None


def test_the_window_finds_the_dialog_by_game() -> None:
    assert game_ui("sr3").surprise_dialog() is SurpriseDialog
    assert game_ui("walka").surprise_dialog() is None


def test_a_test_recorded_before_the_phase_rule_holds_to_the_end_of_the_first_pass() -> None:
    from rules.encounter import frozen_map
    from rules.systems.sr3 import SurpriseTest

    for ends_by_phase, lifted in ((False, False), (True, True)):
        history, ids = ambush()
        history.do(SurpriseTest(frozen_map({ids["Winger"]: 5, ids["Guard A"]: 4}), ends_by_phase=ends_by_phase))
        history.do(RollInitiative({ids["Winger"]: (6,), ids["Guard A"]: (1,), **dict.fromkeys(
            (ids[name] for name in ("Tess", "Virgil", "Guard B", "Guard C")), (1,))}, {}))
        history.do(NextTurn())  # Winger's phase ends
        assert (may_act_against_now(history.state, ids["Winger"]) is None) is lifted


def test_roll_the_rest_then_enter_applies_the_test(qtbot: QtBot) -> None:
    # Played in the window: after a click on Roll the rest, Enter cancelled the whole test (Cancel had become the
    # dialog's default button).
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    history, _ids = ambush()
    document = EncounterDocument(history)
    dialog = dialog_on(qtbot, document)
    dialog.show()
    qtbot.mouseClick(dialog.roll_all, Qt.MouseButton.LeftButton)
    QTest.keyClick(dialog, Qt.Key.Key_Return)
    assert isinstance(document.history.entries[-1].operation, SurpriseTest)
