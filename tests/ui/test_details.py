"""The combatant details panel and its condition track: every edit is one operation, refusals become messages."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor, QImage, QPalette
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from app.document import EncounterDocument
from rules.combatants import ApplyHarm, EditCombatant, SetAttribute, SetDamage, SetPool, SpendAction, SpendPool
from rules.effects import AddEffect
from rules.encounter import Effect, Side, Timing
from rules.history import Operation
from rules.systems.clovek import StartLongAction
from rules.systems.clovek.long_actions import LongKind
from rules.turns import NextTurn
from tests.rules.sr3_scenes import eight_characters, roll_ones
from tests.rules.test_clovek_scenes import seed_fight
from ui.widgets.condition_track import FILLED_RED, OVERFLOW_PURPLE, ConditionTrack, contrast_ratio, paint_track
from ui.widgets.details import CombatantDetails

LIGHT_BACKGROUND = QColor("#ffffff")
DARK_BACKGROUND = QColor("#202020")


def _fight() -> tuple[EncounterDocument, dict[str, str]]:
    """The eight characters, initiative rolled: Mike (c1) acts first."""
    history, ids = eight_characters()
    roll_ones(history, ids)
    return EncounterDocument(history), ids


@pytest.fixture
def host(qtbot: QtBot) -> QWidget:
    """A plain window to put panels in: a shown top-level with a layout makes the offscreen plugin warn."""
    widget = QWidget()
    qtbot.addWidget(widget)
    widget.resize(320, 1400)
    return widget


def _panel(qtbot: QtBot, host: QWidget, document: EncounterDocument, combatant: str | None) -> CombatantDetails:
    panel = CombatantDetails(document, host)
    panel.resize(host.size())
    panel.set_combatant(combatant)
    with qtbot.waitExposed(host):
        host.show()
    with qtbot.waitActive(host):  # focus events (notes commit on focus-out) need an active window
        host.activateWindow()
    return panel


def _last_operation(document: EncounterDocument) -> Operation:
    return document.history.entries[-1].operation


def _click_box(qtbot: QtBot, track: ConditionTrack, number: int) -> None:
    QTest.mouseClick(track, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, track.box_rect(number).center())


# --- the condition track -------------------------------------------------------------------------


def test_clicking_box_six_sets_damage_and_shows_the_wound_modifiers(qtbot: QtBot, host: QWidget) -> None:
    document, ids = _fight()
    dave = ids["Dave"]
    panel = _panel(qtbot, host, document, dave)
    physical = panel.condition.tracks()["physical"]
    _click_box(qtbot, physical, 6)
    assert _last_operation(document) == SetDamage(dave, "physical", 6)
    assert document.state.combatant(dave).boxes("physical") == 6
    assert physical.value() == 6
    assert "TN +3, initiative −3" in panel.condition.notes_text()
    _click_box(qtbot, physical, 6)  # the last filled box again: one box off
    assert _last_operation(document) == SetDamage(dave, "physical", 5)
    assert document.state.combatant(dave).boxes("physical") == 5


def test_the_notes_follow_the_state_exactly(qtbot: QtBot, host: QWidget) -> None:
    document, ids = _fight()
    panel = _panel(qtbot, host, document, ids["Dave"])
    physical = panel.condition.tracks()["physical"]
    _click_box(qtbot, physical, 6)
    assert panel.condition.notes_text() == "TN +3, initiative −3"
    _click_box(qtbot, physical, 6)
    assert panel.condition.notes_text() == "TN +2, initiative −2"
    _click_box(qtbot, physical, 1)
    assert panel.condition.notes_text() == "TN +1, initiative −1"
    _click_box(qtbot, physical, 1)
    assert panel.condition.notes_text() == ""


def test_a_track_click_is_undoable(qtbot: QtBot, host: QWidget) -> None:
    document, ids = _fight()
    panel = _panel(qtbot, host, document, ids["Sharon"])
    stun = panel.condition.tracks()["stun"]
    _click_box(qtbot, stun, 4)
    assert stun.value() == 4
    document.undo_stack.undo()
    assert stun.value() == 0
    assert document.state.combatant(ids["Sharon"]).boxes("stun") == 0
    document.undo_stack.redo()
    assert stun.value() == 4


def test_keyboard_on_the_track(qtbot: QtBot, host: QWidget) -> None:
    document, ids = _fight()
    mike = ids["Mike"]
    panel = _panel(qtbot, host, document, mike)
    physical = panel.condition.tracks()["physical"]
    physical.setFocus()
    assert physical.focusPolicy() & Qt.FocusPolicy.TabFocus
    QTest.keyClick(physical, Qt.Key.Key_Right)
    QTest.keyClick(physical, Qt.Key.Key_Right)
    assert document.state.combatant(mike).boxes("physical") == 2
    QTest.keyClick(physical, Qt.Key.Key_Left)
    assert _last_operation(document) == SetDamage(mike, "physical", 1)
    QTest.keyClick(physical, Qt.Key.Key_End)
    assert document.state.combatant(mike).boxes("physical") == 10
    QTest.keyClick(physical, Qt.Key.Key_Home)
    assert document.state.combatant(mike).boxes("physical") == 0
    entries = len(document.history.entries)
    QTest.keyClick(physical, Qt.Key.Key_Left)  # already 0: nothing to ask for
    assert len(document.history.entries) == entries


def test_track_tooltip_hover_and_overflow(qtbot: QtBot, host: QWidget) -> None:
    track = ConditionTrack("physical", "Physical", 10)
    qtbot.addWidget(track)
    track.resize(track.sizeHint())
    track.set_value(13)
    assert track.toolTip() == "Physical: 13 of 10 (3 overflow boxes)"
    assert track.box_at(track.box_rect(11).center().toPointF()) == 11  # overflow boxes are clickable too
    track.set_value(4)
    assert track.toolTip() == "Physical: 4 of 10"
    assert track.accessibleDescription() == "Physical: 4 of 10"
    with qtbot.waitSignal(track.damage_requested) as signal:
        QTest.mouseClick(track, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, track.box_rect(4).center())
    assert signal.args == ["physical", 3]
    assert track.sizeHint().width() >= 10 * 22
    assert track.minimumSizeHint().width() <= 260  # fits a 320 px dock


def test_filled_and_overflow_colours_contrast_on_light_and_dark() -> None:
    for color in (FILLED_RED, OVERFLOW_PURPLE):
        assert contrast_ratio(color, LIGHT_BACKGROUND) >= 3.0
        assert contrast_ratio(color, DARK_BACKGROUND) >= 3.0
        assert contrast_ratio(color, QColor("#ffffff")) >= 3.0  # the stroke drawn inside


def test_paint_track_draws_the_compact_bar(qtbot: QtBot, host: QWidget) -> None:
    image = QImage(200, 20, QImage.Format.Format_ARGB32)
    image.fill(QColor("#ffffff"))
    from PySide6.QtGui import QPainter

    painter = QPainter(image)
    paint_track(painter, image.rect(), 3, 10, 2, QApplication.palette())
    painter.end()
    colours = {image.pixelColor(x, 10).name() for x in range(200)}
    assert FILLED_RED.name() in colours
    assert OVERFLOW_PURPLE.name() in colours


# --- the panel -----------------------------------------------------------------------------------


def test_placeholder_when_nothing_is_selected_and_after_removal(qtbot: QtBot, host: QWidget) -> None:
    document, ids = _fight()
    panel = _panel(qtbot, host, document, None)
    assert panel._stack.currentIndex() == 0
    panel.set_combatant(ids["Camilla"])
    assert panel._stack.currentIndex() == 1
    assert panel.header.name.text() == "Camilla"
    from rules.combatants import RemoveCombatant

    document.apply(RemoveCombatant(ids["Camilla"]))
    assert panel.combatant_id() is None
    assert panel._stack.currentIndex() == 0
    document.undo_stack.undo()
    panel.set_combatant(ids["Camilla"])
    assert panel.header.name.text() == "Camilla"


def test_pool_minus_spends_and_plus_refunds(qtbot: QtBot, host: QWidget) -> None:
    document, ids = _fight()
    mike = ids["Mike"]
    panel = _panel(qtbot, host, document, mike)
    row = panel.pools.rows()["combat"]
    assert row.label.text() == "combat: 6 of 6 left"
    assert not row.refund.isEnabled()
    QTest.mouseClick(row.spend, Qt.MouseButton.LeftButton)
    assert _last_operation(document) == SpendPool(mike, "combat", 1)
    assert row.label.text() == "combat: 5 of 6 left"
    QTest.mouseClick(row.refund, Qt.MouseButton.LeftButton)
    assert _last_operation(document) == SpendPool(mike, "combat", -1)
    assert document.state.combatant(mike).pools["combat"].remaining == 6
    row.size_spin.setFocus()
    row.size_spin.lineEdit().selectAll()
    QTest.keyClicks(row.size_spin.lineEdit(), "9")
    QTest.keyClick(row.size_spin.lineEdit(), Qt.Key.Key_Return)
    assert _last_operation(document) == SetPool(mike, "combat", 9)
    assert row.label.text() == "combat: 9 of 9 left"


def test_editing_an_attribute_applies_exactly_one_operation(qtbot: QtBot, host: QWidget) -> None:
    document, ids = _fight()
    dave = ids["Dave"]
    panel = _panel(qtbot, host, document, dave)
    spin = panel.attribute_spins()["willpower"]
    before = len(document.history.entries)
    spin.setFocus()
    spin.lineEdit().selectAll()
    QTest.keyClicks(spin.lineEdit(), "12")  # two key presses
    QTest.keyClick(spin.lineEdit(), Qt.Key.Key_Up)  # and an arrow step: still the same edit
    assert len(document.history.entries) == before
    QTest.keyClick(spin.lineEdit(), Qt.Key.Key_Return)
    panel.header.name.setFocus()  # focus leaves too: editingFinished again, but nothing new to commit
    assert len(document.history.entries) == before + 1
    assert _last_operation(document) == SetAttribute(dave, "willpower", 13)
    assert panel.pools.rows()["combat"].label.text() == "combat: 10 of 10 left"  # the game recomputed the pool


def test_name_side_and_notes_edits(qtbot: QtBot, host: QWidget) -> None:
    document, ids = _fight()
    richie = ids["Richie"]
    panel = _panel(qtbot, host, document, richie)
    panel.header.name.setFocus()
    panel.header.name.selectAll()
    QTest.keyClicks(panel.header.name, "Richie the Rat")
    QTest.keyClick(panel.header.name, Qt.Key.Key_Return)
    assert _last_operation(document) == EditCombatant(richie, "name", "Richie the Rat")
    panel.header.side.setCurrentIndex(panel.header.side.findData(Side.ALLY.value))
    panel.header.side.activated.emit(panel.header.side.currentIndex())
    assert document.state.combatant(richie).side is Side.ALLY
    entries = len(document.history.entries)
    panel.notes.setFocus()
    QTest.keyClicks(panel.notes, "Owes the fixer")
    assert len(document.history.entries) == entries  # nothing per key press
    panel.header.name.setFocus()  # focus out commits
    assert _last_operation(document) == EditCombatant(richie, "notes", "Owes the fixer")
    panel.notes.setFocus()
    panel.header.name.setFocus()  # focus in and out without typing: nothing
    assert len(document.history.entries) == entries + 1


def test_a_refused_name_shows_a_message_and_restores_the_field(qtbot: QtBot, host: QWidget) -> None:
    document, ids = _fight()
    panel = _panel(qtbot, host, document, ids["Sharon"])
    entries = len(document.history.entries)
    panel.header.name.setFocus()
    panel.header.name.selectAll()
    QTest.keyClick(panel.header.name, Qt.Key.Key_Delete)
    QTest.keyClick(panel.header.name, Qt.Key.Key_Return)
    assert panel.message_text() == "A combatant needs a name."
    assert panel.header.name.text() == "Sharon"
    assert len(document.history.entries) == entries


def test_action_budget_buttons(qtbot: QtBot, host: QWidget) -> None:
    document, ids = _fight()
    mike = ids["Mike"]  # acting now
    panel = _panel(qtbot, host, document, mike)
    assert "acting now" in panel.header.status.text()
    QTest.mouseClick(panel.budget.buttons["simple"], Qt.MouseButton.LeftButton)
    assert _last_operation(document) == SpendAction(mike, "simple")
    assert not panel.budget.buttons["complex"].isEnabled()  # a simple action rules out a complex one
    QTest.mouseClick(panel.budget.buttons["simple"], Qt.MouseButton.LeftButton)
    assert not panel.budget.buttons["simple"].isEnabled()
    assert panel.budget._labels["simple"].text() == "simple: 0 of 2 left"
    document.apply(NextTurn())  # Mike's phase is over: the panel notices though Mike's own state is reset
    assert "acting now" not in panel.header.status.text()


def test_a_stun_box_clicked_clear_during_a_long_action_is_refused_with_the_rule(qtbot: QtBot, host: QWidget) -> None:
    # clovek.md, "Long actions": "Stun of that type does not heal while the long action lasts."
    history = seed_fight()
    history.do(StartLongAction("b", "book", "Decoding the old book", "mental", LongKind.INTERRUPTIBLE, 10))
    history.do(ApplyHarm("b", "mental_stun", 2))
    document = EncounterDocument(history)
    panel = _panel(qtbot, host, document, "b")
    stun = panel.condition.tracks()["mental_stun"]
    entries = len(document.history.entries)
    _click_box(qtbot, stun, 1)  # the first box: one stun wound left, one healed
    assert document.state.combatant("b").boxes("mental_stun") == 2 and len(document.history.entries) == entries
    assert panel.message_text() == "Beatrice's mental stun wounds do not heal while “Decoding the old book” goes on."


def test_an_invalid_action_shows_a_message_not_an_exception(qtbot: QtBot, host: QWidget) -> None:
    document, ids = _fight()
    panel = _panel(qtbot, host, document, ids["Camilla"])  # not her phase
    entries = len(document.history.entries)
    QTest.mouseClick(panel.budget.buttons["complex"], Qt.MouseButton.LeftButton)
    assert panel.message_text() == "Camilla can take simple and complex actions only in their own phase."
    assert len(document.history.entries) == entries
    QTest.mouseClick(panel.pools.rows()["combat"].spend, Qt.MouseButton.LeftButton)  # a good one clears it
    assert panel.message_text() == ""


def test_refreshes_only_when_its_combatant_changes(qtbot: QtBot, host: QWidget,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    document, ids = _fight()
    panel = _panel(qtbot, host, document, ids["Sharon"])
    calls: list[int] = []
    original = panel.refresh

    def counting_refresh() -> None:
        calls.append(1)
        original()

    monkeypatch.setattr(panel, "refresh", counting_refresh)
    document.apply(SetDamage(ids["Richie"], "stun", 2))
    assert calls == []
    document.apply(SetDamage(ids["Sharon"], "stun", 2))
    assert calls == [1]
    assert panel.condition.tracks()["stun"].value() == 2


def test_shows_the_combatants_effects(qtbot: QtBot, host: QWidget) -> None:
    document, ids = _fight()
    dave = ids["Dave"]
    panel = _panel(qtbot, host, document, dave)
    assert panel.effects.text() == "No effects"
    document.apply(AddEffect(Effect("e1", "Bleeding", target=dave, expires=Timing("round_end"), remaining=2)))
    document.apply(AddEffect(Effect("e2", "Smoke", expires=Timing("round_end"), remaining=1)))
    assert panel.effects.text() == "Bleeding — 2 rounds left"
    document.undo_stack.undo()
    document.undo_stack.undo()
    assert panel.effects.text() == "No effects"


def _dark_palette() -> QPalette:
    palette = QPalette()
    for role, colour in ((QPalette.ColorRole.Window, "#202020"), (QPalette.ColorRole.WindowText, "#eeeeee"),
                         (QPalette.ColorRole.Base, "#181818"), (QPalette.ColorRole.Text, "#eeeeee"),
                         (QPalette.ColorRole.Button, "#303030"), (QPalette.ColorRole.ButtonText, "#eeeeee")):
        palette.setColor(role, QColor(colour))
    return palette


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_screenshot_of_a_wounded_combatant(qtbot: QtBot, host: QWidget, tmp_path: Path, theme: str) -> None:
    document, ids = _fight()
    mike = ids["Mike"]
    document.apply(SetDamage(mike, "physical", 6))
    document.apply(SetDamage(mike, "stun", 2))
    panel = _panel(qtbot, host, document, mike)
    if theme == "dark":
        panel.setPalette(_dark_palette())
    qtbot.wait(10)  # let the layout settle
    image = panel.grab().toImage()
    image.save(str(tmp_path / f"details-{theme}.png"))
    track = panel.condition.tracks()["physical"]
    origin = track.mapTo(panel, QPoint(0, 0))
    filled = track.box_rect(3).translated(origin)
    empty = track.box_rect(9).translated(origin)
    # Sample just inside the border, away from the diagonal stroke.
    assert image.pixelColor(filled.left() + 3, filled.bottom() - 6).name() == FILLED_RED.name()
    assert image.pixelColor(empty.left() + 3, empty.bottom() - 6) != FILLED_RED
    assert track.height() >= track.sizeHint().height()  # not squeezed by the dock
