"""The effects model and panel: add and remove as undoable operations, durations in words."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from app.document import EncounterDocument
from rules.combatants import EditCombatant
from rules.effects import AddEffect, RemoveEffect
from rules.encounter import Effect, Timing
from rules.systems.base import Hook
from rules.turns import NextTurn
from tests.rules.sr3_scenes import eight_characters, roll_ones
from ui.models.effects_model import Column, EffectsModel, duration_text, reminder_text
from ui.widgets.effects_list import DurationKind, EffectsPanel


def _document() -> tuple[EncounterDocument, dict[str, str]]:
    history, ids = eight_characters()
    roll_ones(history, ids)
    return EncounterDocument(history), ids


@pytest.fixture
def host(qtbot: QtBot) -> QWidget:
    """A plain window for the panel (a shown top-level with a layout makes the offscreen plugin warn)."""
    widget = QWidget()
    qtbot.addWidget(widget)
    widget.resize(520, 460)
    return widget


def _panel(qtbot: QtBot, host: QWidget, document: EncounterDocument) -> EffectsPanel:
    panel = EffectsPanel(document, host)
    panel.resize(host.size())
    with qtbot.waitExposed(host):
        host.show()
    return panel


def _choose(combo: Any, data: object) -> None:
    index = combo.findData(data)
    assert index >= 0, data
    combo.setCurrentIndex(index)


def _texts(model: EffectsModel, row: int) -> list[str]:
    return [model.index(row, column).data() for column in Column]


# --- the model -----------------------------------------------------------------------------------


def test_model_passes_the_model_tester_as_effects_come_tick_and_go(qtmodeltester: Any) -> None:
    document, ids = _document()
    model = EffectsModel(document)
    qtmodeltester.check(model, force_py=True)
    document.apply(AddEffect(Effect("e1", "Bleeding", ids["Dave"], expires=Timing("round_end"), remaining=2)))
    document.apply(AddEffect(Effect("e2", "Stunned", ids["Mike"], expires=Timing("turn_end", ids["Mike"]),
                                    remaining=1, reminds=Timing("turn_start", ids["Mike"]))))
    document.apply(NextTurn())  # Mike's turn ends: Stunned is over
    assert model.rowCount() == 1
    document.apply(EditCombatant(ids["Dave"], "name", "Dave B."))
    assert model.index(0, Column.TARGET).data() == "Dave B."
    document.undo_stack.undo()
    document.undo_stack.undo()
    assert model.rowCount() == 2
    qtmodeltester.check(model)


def test_columns_describe_each_effect() -> None:
    document, ids = _document()
    model = EffectsModel(document)
    dave, mike = ids["Dave"], ids["Mike"]
    document.apply(AddEffect(Effect("e1", "Bleeding", dave, expires=Timing("round_end"), remaining=3,
                                    reminds=Timing("round_start"), note="1 box per round")))
    document.apply(AddEffect(Effect("e2", "Smoke", expires=Timing("pass_end"), remaining=1)))
    document.apply(AddEffect(Effect("e3", "Stunned", mike, expires=Timing("turn_end", mike), remaining=2,
                                    reminds=Timing("turn_start", mike))))
    document.apply(AddEffect(Effect("e4", "Blessed", dave)))
    assert _texts(model, 0) == ["Bleeding", "Dave", "3 rounds left", "Start of each round"]
    assert _texts(model, 1) == ["Smoke", "Whole encounter", "1 initiative pass left", ""]
    assert _texts(model, 2) == ["Stunned", "Mike", "2 turns of Mike left", "Start of Mike's turns"]
    assert _texts(model, 3) == ["Blessed", "Dave", "Until removed", ""]
    assert model.index(0, Column.NAME).data(Qt.ItemDataRole.ToolTipRole) == "1 box per round"
    assert model.headerData(Column.DURATION, Qt.Orientation.Horizontal) == "Remaining"


def test_timers_and_unknown_hooks_are_described() -> None:
    document, _ids = _document()
    state = document.state
    grenade = Effect("t1", "Grenade", due=(1, 2, 17))
    assert duration_text(grenade, state) == "Goes off in round 1, pass 2, phase 17"
    strange = Effect("x", "Odd", expires=Timing("moon_rise"), remaining=2, reminds=Timing("moon_rise"))
    assert duration_text(strange, state) == "moon_rise: 2 times left"
    assert reminder_text(strange, state) == "moon_rise"


def test_durations_tick_down_in_the_table(qtbot: QtBot) -> None:
    document, _ids = _document()
    model = EffectsModel(document)
    document.apply(AddEffect(Effect("e1", "Smoke", expires=Timing("pass_end"), remaining=2)))
    with qtbot.waitSignal(model.dataChanged):
        while document.state.clock.pass_no == 1:
            document.apply(NextTurn())
    assert model.index(0, Column.DURATION).data() == "1 initiative pass left"


# --- the panel -----------------------------------------------------------------------------------


def test_add_an_effect_through_the_form_then_undo_and_redo(qtbot: QtBot, host: QWidget) -> None:
    document, ids = _document()
    panel = _panel(qtbot, host, document)
    QTest.mouseClick(panel.add_button, Qt.MouseButton.LeftButton)
    form = panel.form
    assert form.isVisible()
    QTest.keyClicks(form.name, "Bleeding")
    _choose(form.target, ids["Dave"])
    _choose(form.duration, DurationKind.ROUNDS.value)
    form.count.setValue(3)
    _choose(form.reminder, Hook.ROUND_START.value)
    QTest.mouseClick(form.add, Qt.MouseButton.LeftButton)
    operation = document.history.entries[-1].operation
    assert isinstance(operation, AddEffect)
    assert operation.effect == Effect(operation.effect.id, "Bleeding", target=ids["Dave"],
                                      expires=Timing(Hook.ROUND_END), remaining=3, reminds=Timing(Hook.ROUND_START))
    assert not form.isVisible()
    assert _texts(panel.model, 0) == ["Bleeding", "Dave", "3 rounds left", "Start of each round"]
    document.undo_stack.undo()
    assert panel.model.rowCount() == 0
    assert document.state.effects == {}
    document.undo_stack.redo()
    assert panel.model.rowCount() == 1


def test_until_the_end_of_someones_next_turn(qtbot: QtBot, host: QWidget) -> None:
    document, ids = _document()
    panel = _panel(qtbot, host, document)
    panel.open_form()
    form = panel.form
    form.name.setText("Stunned")
    _choose(form.target, ids["Ganger 1"])
    _choose(form.duration, DurationKind.TURNS.value)
    assert form.turn_of.currentData() == ids["Ganger 1"]  # follows the target
    assert form.turn_of.isVisibleTo(form)
    _choose(form.reminder, Hook.TURN_START.value)
    assert form.reminder.currentText() == "Start of Ganger 1's turns"
    QTest.keyClick(form.name, Qt.Key.Key_Return)
    effect = next(iter(document.state.effects.values()))
    assert effect.expires == Timing(Hook.TURN_END, ids["Ganger 1"]) and effect.remaining == 1
    assert effect.reminds == Timing(Hook.TURN_START, ids["Ganger 1"])
    document.apply(NextTurn())  # Mike → Ganger 1: reminded
    assert any("Stunned" in reminder.text for reminder in document.history.entries[-1].reminders)
    document.apply(NextTurn())  # Ganger 1's turn ends: the effect ends
    assert panel.model.rowCount() == 0


def test_indefinite_effects_have_no_count(qtbot: QtBot, host: QWidget) -> None:
    document, _ids = _document()
    panel = _panel(qtbot, host, document)
    panel.open_form()
    panel.form.name.setText("Cover")
    _choose(panel.form.duration, DurationKind.INDEFINITE.value)
    assert not panel.form.count.isEnabled()
    QTest.mouseClick(panel.form.add, Qt.MouseButton.LeftButton)
    effect = next(iter(document.state.effects.values()))
    assert (effect.target, effect.expires, effect.remaining) == (None, None, None)


def test_the_form_offers_the_games_hooks(qtbot: QtBot, host: QWidget) -> None:
    document, _ids = _document()
    panel = _panel(qtbot, host, document)
    panel.open_form()
    offered = {panel.form.reminder.itemData(i) for i in range(1, panel.form.reminder.count())}
    assert offered == {hook.value for hook in document.system.hooks()}
    assert panel.form.reminder.itemData(0) is None  # "No reminder"


def test_a_nameless_effect_is_refused_with_a_message(qtbot: QtBot, host: QWidget) -> None:
    document, _ids = _document()
    panel = _panel(qtbot, host, document)
    panel.open_form()
    entries = len(document.history.entries)
    QTest.mouseClick(panel.form.add, Qt.MouseButton.LeftButton)
    assert panel.message_text() == "An effect needs a name."
    assert len(document.history.entries) == entries
    assert panel.form.isVisible()
    QTest.keyClick(panel.form, Qt.Key.Key_Escape)
    assert not panel.form.isVisible()
    assert panel.message_text() == ""


def test_remove_the_selected_effect_and_undo(qtbot: QtBot, host: QWidget) -> None:
    document, ids = _document()
    document.apply(AddEffect(Effect("e1", "Bleeding", ids["Dave"])))
    document.apply(AddEffect(Effect("e2", "Smoke")))
    panel = _panel(qtbot, host, document)
    assert not panel.remove_button.isEnabled()
    panel.table.selectRow(1)
    assert panel.remove_button.isEnabled()
    QTest.mouseClick(panel.remove_button, Qt.MouseButton.LeftButton)
    assert document.history.entries[-1].operation == RemoveEffect("e2")
    assert list(document.state.effects) == ["e1"]
    assert not panel.remove_button.isEnabled()
    document.undo_stack.undo()
    assert list(document.state.effects) == ["e1", "e2"]
    assert panel.model.index(1, Column.NAME).data() == "Smoke"


def test_the_target_list_follows_the_roster(qtbot: QtBot, host: QWidget) -> None:
    from rules.combatants import RemoveCombatant

    document, ids = _document()
    panel = _panel(qtbot, host, document)
    panel.open_form()
    panel.form.name.setText("Half-typed")
    document.apply(RemoveCombatant(ids["Camilla"]))
    assert panel.form.target.findData(ids["Camilla"]) == -1
    assert panel.form.name.text() == "Half-typed"  # what the GM typed survives


def test_screenshot_of_the_effects_panel(qtbot: QtBot, host: QWidget, tmp_path: Path) -> None:
    document, ids = _document()
    document.apply(AddEffect(Effect("e1", "Bleeding", ids["Mike"], expires=Timing("round_end"), remaining=3,
                                    reminds=Timing("round_start"))))
    document.apply(AddEffect(Effect("e2", "Smoke", expires=Timing("pass_end"), remaining=2)))
    panel = _panel(qtbot, host, document)
    panel.open_form()
    qtbot.wait(10)
    image = panel.grab().toImage()
    image.save(str(tmp_path / "effects.png"))
    for column in Column:  # no column is cut short: each fits its widest text
        width = panel.table.columnWidth(column)
        text = max((panel.model.index(row, column).data() for row in range(2)), key=len)
        assert panel.table.fontMetrics().horizontalAdvance(text) <= width
