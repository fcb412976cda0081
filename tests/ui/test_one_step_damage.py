"""Damage in one step and initiative as the player says it, through the window with key events.

D opens the Damage dialog with the amount focused; the GM types the game's notation (SR3 ``6S``), sees what it
means and presses Enter. Several rows selected take the same hit in one undo step. In Roll initiative (R) a total
the player announces lands as the score.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialog, QWidget
from pytestqt.qtbot import QtBot

from rules.systems.base import DiceSpec
from ui.dialogs.harm import HarmDialog
from ui.dialogs.initiative import RollInitiativeDialog, field_hint
from ui.main_window import MainWindow
from ui.models.initiative_model import InitiativeModel

Opener = Callable[..., MainWindow]


def _ids(window: MainWindow) -> dict[str, str]:
    return {c.name: c.id for c in window.document.state.combatants.values()}


def _shown(window: MainWindow, qtbot: QtBot) -> MainWindow:
    with qtbot.waitExposed(window):
        window.show()
    window.activateWindow()
    window.table.setFocus()
    return window


def _active(window: MainWindow, qtbot: QtBot) -> None:
    """Wait until the window is active again (a dialog just closed): its shortcuts answer only then."""
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)


def _in_dialog(window: MainWindow, qtbot: QtBot, key: Qt.Key, act: Callable[[QDialog], None]) -> list[str]:
    """Press ``key`` on the table as the GM does, then act in the modal dialog it opens; the dialog is closed
    whatever happens. Returns the class names of the dialogs met (none: the key opened nothing)."""
    met: list[str] = []

    def inside(tries: int = 0) -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QDialog):
            return
        if not dialog.isActiveWindow() and tries < 100:  # keys go where the GM's would once the window is active
            QTimer.singleShot(10, lambda: inside(tries + 1))
            return
        met.append(type(dialog).__name__)
        try:
            act(dialog)
        finally:
            if dialog.isVisible():
                dialog.reject()

    _active(window, qtbot)
    QTimer.singleShot(0, inside)
    QTest.keyClick(window.table, key)
    return met


def _row_point(window: MainWindow, combatant_id: str) -> QPoint:
    model = window.table.model()
    assert isinstance(model, InitiativeModel)
    return window.table.visualRect(model.index(model.row_of(combatant_id), 0)).center()


def _focused() -> QWidget:
    widget = QApplication.focusWidget()
    assert widget is not None
    return widget


def _type_and_enter(widget: QWidget, typed: str) -> None:
    QTest.keyClicks(widget, typed)
    QTest.keyClick(widget, Qt.Key.Key_Return)


def test_d_opens_with_the_amount_focused_and_enter_applies_the_typed_level(open_window: Opener,
                                                                          qtbot: QtBot) -> None:
    window = _shown(open_window(sample="sr3"), qtbot)
    ids = _ids(window)
    window.table.select_combatant(ids["Ganger 2"])
    seen: dict[str, object] = {}

    def act(dialog: QDialog) -> None:
        assert isinstance(dialog, HarmDialog)
        focused = _focused()
        seen["focused"] = focused is dialog.amount
        QTest.keyClicks(focused, "S")  # replaces the selected default; a level alone is marked as typed
        seen["meaning"] = dialog.meaning.text()
        QTest.keyClick(focused, Qt.Key.Key_Return)
        seen["closed"] = not dialog.isVisible()

    entries = len(window.document.history.entries)
    assert _in_dialog(window, qtbot, Qt.Key.Key_D, act) == ["HarmDialog"]
    assert seen == {"focused": True, "meaning": "Serious wound: 6 boxes on Physical", "closed": True}
    assert window.document.state.combatant(ids["Ganger 2"]).boxes("physical") == 6
    assert len(window.document.history.entries) == entries + 1


def test_a_refused_amount_keeps_the_dialog_open_and_says_why(open_window: Opener, qtbot: QtBot) -> None:
    window = _shown(open_window(sample="sr3"), qtbot)
    ids = _ids(window)
    window.table.select_combatant(ids["Ganger 2"])
    seen: dict[str, object] = {}

    def act(dialog: QDialog) -> None:
        assert isinstance(dialog, HarmDialog)
        _type_and_enter(_focused(), "V")  # the Czech Serious, in an English window
        seen["open"] = dialog.isVisible()
        seen["meaning"] = dialog.meaning.text()
        seen["message"] = dialog.message.text()

    before = window.document.state
    _in_dialog(window, qtbot, Qt.Key.Key_D, act)
    assert seen == {"open": True, "meaning": "“V” is not a damage level: use L, M, S, D.",
                    "message": "“V” is not a damage level: use L, M, S, D."}
    assert window.document.state is before


def test_two_rows_selected_take_the_same_hit_in_one_undo_step(open_window: Opener, qtbot: QtBot) -> None:
    window = _shown(open_window(sample="sr3"), qtbot)
    ids = _ids(window)
    window.table.select_combatant(ids["Ganger 2"])
    QTest.mouseClick(window.table.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ControlModifier,
                     _row_point(window, ids["Ganger 3"]))  # Ctrl+click adds a row
    assert set(window.table.selected_ids()) == {ids["Ganger 2"], ids["Ganger 3"]}
    seen: dict[str, object] = {}

    def act(dialog: QDialog) -> None:
        assert isinstance(dialog, HarmDialog)
        seen["targets"] = dialog.targets_label.text()
        seen["note"] = dialog.note.text()
        _type_and_enter(_focused(), "M")

    entries = len(window.document.history.entries)
    _in_dialog(window, qtbot, Qt.Key.Key_D, act)
    names = {combatant_id: name for name, combatant_id in ids.items()}
    in_table_order = ", ".join(names[combatant_id] for combatant_id in window.table.selected_ids())
    assert seen["targets"] == in_table_order and set(in_table_order.split(", ")) == {"Ganger 2", "Ganger 3"}
    assert "each target resists on its own" in str(seen["note"])
    state = window.document.state
    assert (state.combatant(ids["Ganger 2"]).boxes("physical"), state.combatant(ids["Ganger 3"]).boxes("physical")) \
        == (3, 3)
    assert len(window.document.history.entries) == entries + 1
    assert window.document.undo_stack.undoText() == f"Damage: {in_table_order}"
    _active(window, qtbot)
    QTest.keyClick(window.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # one undo: both unhurt
    state = window.document.state
    assert (state.combatant(ids["Ganger 2"]).boxes("physical"), state.combatant(ids["Ganger 3"]).boxes("physical")) \
        == (0, 0)


def test_a_grenade_on_three_rows_is_resisted_by_each_target_on_its_own(open_window: Opener, qtbot: QtBot) -> None:
    """sr3.md "Grenades": everyone in the blast resists separately, with their own impact armor."""
    window = _shown(open_window(sample="sr3"), qtbot)
    ids = _ids(window)
    targets = [ids["Ganger 2"], ids["Ganger 3"], ids["Ganger 4"]]
    window.table.select_combatant(targets[0])
    for other in targets[1:]:
        QTest.mouseClick(window.table.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ControlModifier,
                         _row_point(window, other))
    seen: dict[str, object] = {}

    def act(dialog: QDialog) -> None:
        assert isinstance(dialog, HarmDialog)
        amount = _focused()
        QTest.keyClicks(amount, "10S")
        blocks = dialog.rolls.blocks()
        seen["blocks"] = sorted(blocks) == sorted(targets)
        seen["odds"] = blocks[targets[0]].odds.text()
        seen["label"] = blocks[targets[0]].explanation.text()
        blocks[targets[1]].pool.setValue(2)  # Ganger 3 adds two combat pool dice
        blocks[targets[1]].entry.set_faces_text("6+4 6+5 3 2 1 5")  # the player's dice: 2 successes at TN 10
        QTest.keyClick(amount, Qt.Key.Key_Return)  # rolls the two nobody typed, shows them, does not apply yet
        seen["after first enter"] = (dialog.isVisible(), dialog.message.text())
        seen["rolled"] = all(block.is_complete() for block in blocks.values())
        QTest.keyClick(amount, Qt.Key.Key_Return)
        seen["closed"] = not dialog.isVisible()

    entries = len(window.document.history.entries)
    _in_dialog(window, qtbot, Qt.Key.Key_D, act)
    assert seen["blocks"] and seen["rolled"] and seen["closed"]
    assert seen["label"] == "Body 4 dice against TN 10 (10S − impact armor 0)"
    assert seen["odds"] == "Odds: Serious 96.3 % · Moderate 3.7 % · Light <0.1 %"
    after_first_enter = seen["after first enter"]
    assert isinstance(after_first_enter, tuple)
    visible, message = after_first_enter
    assert visible and str(message).startswith("Rolled for Ganger") and "Ganger 3" not in str(message)
    state = window.document.state
    assert state.combatant(ids["Ganger 3"]).boxes("physical") == 3  # Serious staged to Moderate by his dice
    assert all(state.combatant(target).boxes("physical") in (1, 3, 6) for target in targets)
    assert len(window.document.history.entries) == entries + 1
    log = window.document.history.entries[-1].log
    assert sum(line.render().endswith("resists 10S.") for line in log) == 3


def test_heal_takes_the_typed_amount_off_every_selected_row(open_window: Opener, qtbot: QtBot) -> None:
    window = _shown(open_window(sample="institut"), qtbot)
    ids = _ids(window)
    window.table.select_combatant(ids["Bandit 1"])  # 2 Light, 2 Heavy, 1 Critical
    QTest.mouseClick(window.table.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ControlModifier,
                     _row_point(window, ids["Bandit 2"]))
    seen: dict[str, str] = {}

    def act(dialog: QDialog) -> None:
        assert isinstance(dialog, HarmDialog)
        QTest.keyClicks(_focused(), "=17")
        seen["damage"] = dialog.meaning.text()

    _in_dialog(window, qtbot, Qt.Key.Key_D, act)
    # Read off each target's own pyramid: Bandit 1's Heavy row is full, so the wound would go on.
    assert seen["damage"] == ("Bandit 1: 17 points: 1 Heavy wound. The Heavy row is full: the wound goes to Mortal.\n"
                              "Bandit 2: 17 points: 1 Heavy wound")

    def heal(dialog: QDialog) -> None:
        _type_and_enter(_focused(), "Light")

    _in_dialog(window, qtbot, Qt.Key.Key_H, heal)
    state = window.document.state
    assert state.combatant(ids["Bandit 1"]).boxes("light") == 1
    assert state.combatant(ids["Bandit 2"]).boxes("light") == 0


def test_with_several_rows_selected_the_current_one_is_the_selected_one(open_window: Opener, qtbot: QtBot) -> None:
    window = _shown(open_window(sample="sr3"), qtbot)
    ids = _ids(window)
    window.table.select_combatant(ids["Ganger 2"])
    QTest.mouseClick(window.table.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ControlModifier,
                     _row_point(window, ids["Twitch"]))
    assert window.table.selected_id() == ids["Twitch"]  # the one clicked last, which the details panel shows
    model = window.table.model()
    assert isinstance(model, InitiativeModel)
    rows = sorted(model.row_of(i) for i in (ids["Ganger 2"], ids["Twitch"]))
    assert [model.row_of(i) for i in window.table.selected_ids()] == rows  # in the table's order


def _score(window: MainWindow, combatant_id: str) -> int:
    initiative = window.document.state.combatant(combatant_id).initiative
    assert initiative is not None
    return initiative.rolled


def _finish_round(window: MainWindow) -> None:
    for _step in range(60):
        if window.document.state.clock.current is None:
            return
        window.session.next_turn()
    raise AssertionError("the round never ended")


def test_a_typed_total_lands_as_the_score(open_window: Opener, qtbot: QtBot) -> None:
    window = _shown(open_window(sample="sr3"), qtbot)
    _finish_round(window)
    ids = _ids(window)
    seen: dict[str, str] = {}

    def act(dialog: QDialog) -> None:
        assert isinstance(dialog, RollInitiativeDialog)
        wedge, sharon = dialog.fields[ids["Wedge"]], dialog.fields[ids["Sharon"]]
        seen["hint"] = wedge.placeholderText()
        seen["one die"] = sharon.placeholderText()
        QTest.keyClicks(wedge, "17")
        seen["reading"] = dialog.readings[ids["Wedge"]].text()
        QTest.keyClicks(sharon, "4")  # one die: the die
        seen["die"] = dialog.readings[ids["Sharon"]].text()
        QTest.keyClicks(dialog.fields[ids["Liam"]], "25")
        seen["impossible"] = dialog.message.text()
        dialog.fields[ids["Liam"]].clear()
        QTest.keyClick(sharon, Qt.Key.Key_Return)

    _in_dialog(window, qtbot, Qt.Key.Key_R, act)
    assert seen == {
        "hint": "6 + 2d6: the total, e.g. 13, or each die, e.g. 4,2",
        "one die": "5 + 1d6: the die, e.g. 4, or the total after =, e.g. =9",
        "reading": "total: 17 → 7",
        "die": "dice: 9",
        "impossible": "Liam rolls 5 + 2d6 for initiative: the total is 7 to 17, not 25.",
    }
    state = window.document.state
    assert [_score(window, ids[name]) for name in ("Wedge", "Sharon")] == [17, 9]
    assert window.document.system.score_text(state.combatant(ids["Wedge"]), state) == "17 → 7"


@pytest.mark.parametrize(("spec", "hint"), [
    (DiceSpec(2, 6, 6), "6 + 2d6: the total, e.g. 13, or each die, e.g. 4,2"),
    (DiceSpec(7, 6), "7d6: the total, e.g. 25, or each die, e.g. 4,2,6,…"),
    (DiceSpec(1, 6, 5), "5 + 1d6: the die, e.g. 4, or the total after =, e.g. =9"),
    (DiceSpec(1, 12), "1d12: the die (the total), e.g. 4"),
    (DiceSpec(0, 10, 4), "4: the total, e.g. 4"),  # no dice: the base alone (main's describe)
])
def test_every_field_says_what_a_lone_number_means_for_its_roll(spec: DiceSpec, hint: str) -> None:
    assert field_hint(spec) == hint
