"""Institute's details-panel sections: the life pyramid drawn as a pyramid, and the round's declarations."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication, QToolButton
from pytestqt.qtbot import QtBot

from app.document import EncounterDocument
from rules.combatants import ApplyHarm, SpendAction
from rules.encounter import Status
from rules.systems.institut import rounds
from rules.systems.institut.pyramid import CLASSES
from rules.systems.institut.sample import sample
from tests.rules.test_institut_scenes import cast, roll
from ui.games import game_ui
from ui.games.institut.panel import PyramidSection, PyramidWidget, RoundSection
from ui.theme import apply_theme
from ui.widgets.details import CombatantDetails

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")

SHOTS = os.environ.get("BOJOVKA_SHOTS")


def details(qtbot: QtBot, document: EncounterDocument, combatant_id: str) -> CombatantDetails:
    panel = CombatantDetails(document)
    qtbot.addWidget(panel)
    panel.resize(380, 1200)
    panel.set_combatant(combatant_id)
    return panel


def section(panel: CombatantDetails, kind: type[PyramidSection] | type[RoundSection]) -> PyramidSection | RoundSection:
    found = panel.findChildren(kind)
    assert len(found) == 1
    return found[0]


def pyramid_of(panel: CombatantDetails) -> PyramidSection:
    found = section(panel, PyramidSection)
    assert isinstance(found, PyramidSection)
    return found


def round_of(panel: CombatantDetails) -> RoundSection:
    found = section(panel, RoundSection)
    assert isinstance(found, RoundSection)
    return found


def filled(document: EncounterDocument, combatant_id: str) -> list[int]:
    combatant = document.state.combatant(combatant_id)
    return [combatant.boxes(key) for key in CLASSES]


def click_box(widget: PyramidWidget, qtbot: QtBot, key: str, index: int) -> None:
    centre = widget.box_rects(key)[index].center().toPoint()
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton, pos=centre)


def test_the_game_registers_both_sections() -> None:
    assert list(game_ui("institut").sections()) == [PyramidSection, RoundSection]


def test_the_pyramid_is_drawn_narrowest_on_top_and_centred(qtbot: QtBot) -> None:
    history, ids = cast(("Vera",))
    panel = details(qtbot, EncounterDocument(history), ids["Vera"])
    panel.show()
    widget = pyramid_of(panel).pyramid
    rows = {key: widget.box_rects(key) for key in CLASSES}
    assert [len(rows[key]) for key in CLASSES] == [4, 3, 2, 1, 1]
    assert rows["mortal"][0].top() < rows["critical"][0].top() < rows["light"][0].top()
    centres = {round((r[0].left() + r[-1].right()) / 2) for r in rows.values()}
    assert max(centres) - min(centres) <= 1  # every row centred on the same axis
    assert "Light (5–9): 0 of 4" in widget.text()


def test_clicking_an_empty_box_adds_a_wound_and_a_filled_one_heals(qtbot: QtBot) -> None:
    history, ids = cast(("Vera",))
    document = EncounterDocument(history)
    vera = ids["Vera"]
    panel = details(qtbot, document, vera)
    panel.show()
    widget = pyramid_of(panel).pyramid
    click_box(widget, qtbot, "medium", 2)  # any empty box of a row: the wound takes the first free one
    assert filled(document, vera) == [0, 1, 0, 0, 0]
    click_box(widget, qtbot, "medium", 0)
    assert filled(document, vera) == [0, 0, 0, 0, 0]
    for _click in range(4):  # the last box stays empty until the row is full
        click_box(widget, qtbot, "light", 3)
    assert filled(document, vera) == [4, 0, 0, 0, 0]
    qtbot.keyClick(widget, Qt.Key.Key_Plus)  # one more Light wound: the full row passes it on to Medium
    assert filled(document, vera) == [4, 1, 0, 0, 0]
    assert "Worst wound: Medium; −1 die on every action." in pyramid_of(panel).summary.text()


def test_the_keyboard_moves_between_boxes_and_toggles(qtbot: QtBot) -> None:
    history, ids = cast(("Vera",))
    document = EncounterDocument(history)
    panel = details(qtbot, document, ids["Vera"])
    panel.show()
    widget = pyramid_of(panel).pyramid
    widget.setFocus()
    qtbot.keyClick(widget, Qt.Key.Key_Up)  # Medium
    qtbot.keyClick(widget, Qt.Key.Key_Up)  # Heavy
    qtbot.keyClick(widget, Qt.Key.Key_Space)
    assert filled(document, ids["Vera"]) == [0, 0, 1, 0, 0]
    qtbot.keyClick(widget, Qt.Key.Key_Plus)
    qtbot.keyClick(widget, Qt.Key.Key_Plus)  # the Heavy row is full: Critical
    assert filled(document, ids["Vera"]) == [0, 0, 2, 1, 0]
    qtbot.keyClick(widget, Qt.Key.Key_Minus)
    assert filled(document, ids["Vera"]) == [0, 0, 1, 1, 0]


def test_a_characters_own_pyramid_and_the_gms_ruling_on_death(qtbot: QtBot) -> None:
    history, ids = cast(("Sokolov",))
    document = EncounterDocument(history)
    sokolov = ids["Sokolov"]
    panel = details(qtbot, document, sokolov)
    part = pyramid_of(panel)
    part.own.setChecked(True)
    part.editor.lines[0][2].setValue(6)  # six Light boxes
    part.editor.lines[4][1].setValue(30)  # Mortal from 30
    part.editor.apply_button.click()
    assert [len(part.pyramid.box_rects(key)) for key in CLASSES] == [6, 3, 2, 1, 1]
    assert "Mortal (30+)" in part.pyramid.text()
    part.editor.lines[2][1].setValue(5)  # Heavy below Medium's threshold: refused, said in the panel
    part.editor.apply_button.click()
    assert "Heavy" in panel.message_text()
    part.editor.default_button.click()
    assert len(part.pyramid.box_rects("light")) == 4
    document.apply(ApplyHarm(sokolov, "mortal", 1))
    assert "Dying" in part.summary.text()
    part.dead.click()
    assert document.system.status(document.state.combatant(sokolov), document.state) is Status.DEAD


def _sokolov_declares_three(qtbot: QtBot) -> tuple[EncounterDocument, dict[str, str], CombatantDetails, RoundSection]:
    """Round 1, Sokolov first: his round section, three actions declared."""
    history, ids = cast(("Sokolov", "Vera"))
    roll(history, {ids["Sokolov"]: (6,) * 6, ids["Vera"]: (1,) * 5})
    document = EncounterDocument(history)
    panel = details(qtbot, document, ids["Sokolov"])
    part = round_of(panel)
    part.declared.setValue(3)
    part.declare.click()
    return document, ids, panel, part


def test_the_round_section_declares_holds_and_skips(qtbot: QtBot) -> None:
    document, ids, panel, part = _sokolov_declares_three(qtbot)
    assert "every roll −2 dice" in part.cost.text()
    assert "Movement: 3 m" in part.movement.text()
    part.condition.setText("if Vera shoots, I dodge")
    part.hold.click()
    assert part.held_rows() == 1 and part.condition.text() == ""
    assert "every roll −3 dice" in part.cost.text()
    lapses = [button for button in part.findChildren(QToolButton) if button.text() == "Lapses"]
    assert len(lapses) == 1
    lapses[0].click()
    assert part.held_rows() == 0
    assert not part.skip.isEnabled()  # Sokolov has declared: too late to give the round up
    panel.set_combatant(ids["Vera"])
    assert part.skip.isEnabled()
    # institut.md: held declarations are made "во время своего хода", during one's own turn: not in Sokolov's.
    assert not part.hold.isEnabled() and not part.condition.isEnabled() and part.declare.isEnabled()
    part.skip.click()
    assert "Gave up this round" in part.cost.text()
    part.ambush.click()
    assert document.state.combatant(ids["Vera"]).extra.get("ambush") is True


def test_before_the_round_declarations_wait(qtbot: QtBot) -> None:
    history, ids = cast(("Vera",))
    panel = details(qtbot, EncounterDocument(history), ids["Vera"])
    part = round_of(panel)
    assert not part.declare.isEnabled() and "once the round has started" in part.cost.text()


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_screenshot_of_the_panel_mid_fight(qtbot: QtBot, tmp_path: Path, theme: str) -> None:
    """The sample's badly hurt Bandit 1: Light 2, Heavy 2 and Critical 1, drawn as a pyramid."""
    application = QApplication.instance()
    assert isinstance(application, QApplication)
    apply_theme(application, theme)
    try:
        document = EncounterDocument(sample())
        panel = details(qtbot, document, "c4")
        panel.resize(380, 700)
        panel.show()
        part = pyramid_of(panel)
        assert [row.filled for row in part.pyramid.rows()] == [2, 0, 2, 1, 0]
        assert part.pyramid.width() >= part.pyramid.minimumSizeHint().width()
        image = part.grab()
        for folder in filter(None, (str(tmp_path), SHOTS)):
            image.save(str(Path(folder) / f"institut-pyramid-{theme}.png"))
        assert not image.isNull()
        centre = part.pyramid.box_rects("critical")[0].center().toPoint()
        pixel = part.pyramid.grab().toImage().pixelColor(QPoint(centre.x() - 6, centre.y() + 2))
        assert pixel.red() > pixel.green() + 40  # a filled Critical box is drawn in red
    finally:
        apply_theme(application, "light")


def test_after_a_roll_the_round_section_refuses_a_lower_count_with_the_rule(qtbot: QtBot) -> None:
    # institut.md Decision: the declared count "cannot be lowered after a roll (default)".
    document, ids, panel, part = _sokolov_declares_three(qtbot)
    document.apply(SpendAction(ids["Sokolov"], "action"))  # the first roll, at −2
    part.declared.setValue(1)
    part.declare.click()
    assert "cannot be lowered after a roll" in panel.message_text()
    assert rounds.round_actions(document.state.combatant(ids["Sokolov"])).declared == 3


def test_the_own_pyramid_form_edits_the_number_of_classes_and_their_names(qtbot: QtBot) -> None:
    """institut.md: "editable per character (number of classes, names, thresholds and boxes)"."""
    history, ids = cast(("Sokolov",))
    document = EncounterDocument(history)
    sokolov = ids["Sokolov"]
    panel = details(qtbot, document, sokolov)
    part = pyramid_of(panel)
    part.own.setChecked(True)
    editor = part.editor
    assert [line[0].text() for line in editor.lines] == ["Light", "Medium", "Heavy", "Critical", "Mortal"]
    editor.remove_button.click()
    editor.remove_button.click()  # Light, Medium, Heavy
    editor.lines[2][0].setText("Fatal")
    editor.lines[2][3].setValue(0)
    editor.add_button.click()  # a fourth, heavier: from Heavy's 15 + 5
    assert editor.lines[3][0].text() == "Class 4" and editor.lines[3][1].value() == 20
    editor.lines[3][0].setText("Gone")
    # a screen reader names each number by its class as named now (they were all ": boxes" before)
    assert [editor.lines[2][2].accessibleName(), editor.lines[3][1].accessibleName()] == [
        "Fatal: boxes", "Gone: damage that enters it"]
    editor.apply_button.click()
    pyramid = part.pyramid
    assert [row.label for row in pyramid.rows()] == ["Light", "Medium", "Fatal", "Gone"]
    assert [row.heaviest for row in pyramid.rows()] == [False, False, False, True]
    document.apply(ApplyHarm(sokolov, "class4", 1))
    assert "Dying: a box of the Gone class is filled" in part.summary.text()
    editor.lines[1][0].setText("light")  # two classes of one name: refused, said in the panel
    editor.apply_button.click()
    assert "Two classes are named light" in panel.message_text()
    assert [row.label for row in part.pyramid.rows()] == ["Light", "Medium", "Fatal", "Gone"]


def test_the_round_section_marks_an_object_in_hand_to_block_shots(qtbot: QtBot) -> None:
    history, ids = cast(("Sokolov",))
    document = EncounterDocument(history)
    panel = details(qtbot, document, ids["Sokolov"])
    part = round_of(panel)
    part.in_hand.click()
    assert rounds.flag(document.state.combatant(ids["Sokolov"]), rounds.IN_HAND)
    document.undo_stack.undo()
    assert not rounds.flag(document.state.combatant(ids["Sokolov"]), rounds.IN_HAND)
    assert not part.in_hand.isChecked()


def test_the_count_is_declared_in_the_own_turn_or_while_the_turn_is_to_come(qtbot: QtBot) -> None:
    """institut.md: the count is declared before the first roll; one who has not had its turn may declare at an
    out-of-turn dodge. Once Sokolov's turn is over, his panel declares nothing more."""
    from rules.turns import NextTurn

    history, ids = cast(("Sokolov", "Vera"))
    roll(history, {ids["Sokolov"]: (6,) * 6, ids["Vera"]: (1,) * 5})
    document = EncounterDocument(history)
    vera = round_of(details(qtbot, document, ids["Vera"]))
    assert vera.declare.isEnabled()  # her turn is still to come
    document.apply(NextTurn())
    sokolov = round_of(details(qtbot, document, ids["Sokolov"]))
    assert not sokolov.declare.isEnabled()
    assert sokolov.declare.toolTip() == "The count was declared in this combatant's turn."


def test_a_class_name_that_looks_like_markup_is_shown_as_typed(qtbot: QtBot) -> None:
    from rules.systems.institut import SetPyramid

    history, ids = cast(("Sokolov",))
    document = EncounterDocument(history)
    document.apply(SetPyramid(ids["Sokolov"], ((5, 2, 0), (12, 1, 1)), ("<img src=x>", "Dead")))
    part = pyramid_of(details(qtbot, document, ids["Sokolov"]))
    assert "<img" not in part.pyramid.toolTip() and "&lt;img src=x&gt;" in part.pyramid.toolTip()
