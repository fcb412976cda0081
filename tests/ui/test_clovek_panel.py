"""Člověk's details-panel sections: the dice banks drawn as d10s (click to spend), burning, initiative dice,
long actions and capacity names, each a single operation through the document."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QApplication, QScrollArea, QWidget
from pytestqt.qtbot import QtBot

from app.document import EncounterDocument
from rules.serialize import to_data
from rules.systems.clovek.long_actions import LongState, find_long_action
from rules.systems.clovek.sample import sample
from tests.rules.test_clovek_scenes import left, roll, seed_fight
from ui.games import game_ui
from ui.games.clovek.dice import MAX_DRAWN_DICE, BankView, DiceBanksWidget
from ui.games.clovek.long_actions import LongActionsSection
from ui.games.clovek.panel import CapacityNamesSection, DiceBanksSection
from ui.theme import apply_theme
from ui.widgets.details import CombatantDetails

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")

SHOTS = os.environ.get("BOJOVKA_SHOTS")


@pytest.fixture
def light() -> Iterator[None]:
    application = QApplication.instance()
    assert isinstance(application, QApplication)
    apply_theme(application, "light")
    yield
    apply_theme(application, "light")


def details_for(qtbot: QtBot, document: EncounterDocument, combatant_id: str) -> CombatantDetails:
    details = CombatantDetails(document)
    qtbot.addWidget(details)
    details.resize(380, 1400)
    details.set_combatant(combatant_id)
    details.show()
    return details


def section(details: CombatantDetails, kind: type[QWidget]) -> QWidget:
    found = [part for part in details._game_sections if isinstance(part, kind)]
    assert len(found) == 1
    return found[0]


def banks_of(details: CombatantDetails) -> DiceBanksSection:
    part = section(details, DiceBanksSection)
    assert isinstance(part, DiceBanksSection)
    return part


def test_the_game_registers_its_sections_in_order() -> None:
    assert list(game_ui("clovek").sections()) == [DiceBanksSection, LongActionsSection, CapacityNamesSection]


def test_the_banks_widget_asks_for_the_dice_up_to_the_one_clicked(qtbot: QtBot) -> None:
    widget = DiceBanksWidget()
    qtbot.addWidget(widget)
    widget.set_banks([BankView("physical", "Physical", 4, 0), BankView("social", "Social", 6, 3),
                      BankView("mental", "Mental", 8, 0)])
    widget.resize(340, widget.heightForWidth(340))
    widget.show()
    with qtbot.waitSignal(widget.spend_requested) as blocker:
        qtbot.mouseClick(widget, Qt.MouseButton.LeftButton, pos=widget.die_rect(0, 2).center().toPoint())
    assert blocker.args == ["physical", 3]
    with qtbot.assertNotEmitted(widget.spend_requested):  # a spent die (greyed) cannot be spent again
        qtbot.mouseClick(widget, Qt.MouseButton.LeftButton, pos=widget.die_rect(1, 4).center().toPoint())
        qtbot.mouseClick(widget, Qt.MouseButton.LeftButton, pos=QPoint(1, 1))
    assert "Social: 3 of 6 dice left" in widget.text()


def test_the_banks_widget_works_from_the_keyboard(qtbot: QtBot) -> None:
    widget = DiceBanksWidget()
    qtbot.addWidget(widget)
    widget.set_banks([BankView("physical", "Physical", 4, 0), BankView("social", "Social", 6, 0),
                      BankView("mental", "Mental", 8, 5)])
    widget.show()
    widget.setFocus()
    for key in (Qt.Key.Key_Down, Qt.Key.Key_Down, Qt.Key.Key_Right, Qt.Key.Key_Right, Qt.Key.Key_Right):
        qtbot.keyClick(widget, key)
    with qtbot.waitSignal(widget.spend_requested) as blocker:
        qtbot.keyClick(widget, Qt.Key.Key_Return)
    assert blocker.args == ["mental", 3]  # four asked for, three are left


def test_dice_never_shrink_below_a_readable_size_and_wrap(qtbot: QtBot) -> None:
    widget = DiceBanksWidget()
    qtbot.addWidget(widget)
    widget.set_banks([BankView("physical", "Physical", 30, 0)])
    widget.resize(300, widget.heightForWidth(300))
    first, last = widget.die_rect(0, 0), widget.die_rect(0, 29)
    assert first.width() >= 15 and last.top() > first.top()
    assert widget.heightForWidth(300) > widget.heightForWidth(2000)


def test_a_bank_of_thousands_draws_a_hundred_dice_and_measures_its_labels_once(
        qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    """A bank is twice an attribute, and a roster entry may hold an attribute of 9,999: 20,000 dice per bank made a
    single repaint of the panel take half a minute (every die measured every label again)."""
    widget = DiceBanksWidget()
    qtbot.addWidget(widget)
    widget.set_banks([BankView(name, name.title(), 19_998, 0) for name in ("physical", "social", "mental")])
    widget.resize(340, widget.heightForWidth(340))
    painted: list[int] = []
    measured: list[int] = []
    real_paint, real_metrics = DiceBanksWidget._paint_die, DiceBanksWidget.fontMetrics

    def paint_die(self: DiceBanksWidget, *args: Any) -> None:
        painted.append(1)
        real_paint(self, *args)

    def font_metrics(self: DiceBanksWidget) -> QFontMetrics:
        measured.append(1)
        return real_metrics(self)

    monkeypatch.setattr(DiceBanksWidget, "_paint_die", paint_die)
    monkeypatch.setattr(DiceBanksWidget, "fontMetrics", font_metrics)
    widget.grab()
    assert len(painted) == 3 * MAX_DRAWN_DICE and len(measured) <= 1
    assert widget.heightForWidth(340) < 2000
    assert "19998 of 19998 dice left" in widget.text()  # the label still gives the whole bank
    with qtbot.waitSignal(widget.spend_requested) as blocker:
        qtbot.mouseClick(widget, Qt.MouseButton.LeftButton, pos=widget.die_rect(2, 4).center().toPoint())
    assert blocker.args == ["mental", 5]


def test_clicking_dice_spends_them_as_an_action_or_a_reaction(qtbot: QtBot) -> None:
    history = seed_fight()
    roll(history, {"b": (), "c": (), "a": ()})  # Adriana 4 acts first
    document = EncounterDocument(history)
    details = details_for(qtbot, document, "a")
    banks = banks_of(details)
    assert banks.role() == "action"  # her own turn
    qtbot.mouseClick(banks.dice, Qt.MouseButton.LeftButton, pos=banks.dice.die_rect(1, 1).center().toPoint())
    assert left(document.history, "a") == (6, 6, 6)
    assert document.state.combatant("a").actions_used == {"social": 1}
    assert "social" in banks.round_label.text()
    details.set_combatant("b")
    assert banks.role() == "reaction"
    qtbot.mouseClick(banks.dice, Qt.MouseButton.LeftButton, pos=banks.dice.die_rect(0, 3).center().toPoint())
    assert left(document.history, "b") == (0, 6, 8)
    banks.action.setChecked(True)  # not her turn: refused, the panel says why and nothing changes
    before = to_data(document.state)
    qtbot.mouseClick(banks.dice, Qt.MouseButton.LeftButton, pos=banks.dice.die_rect(1, 0).center().toPoint())
    assert to_data(document.state) == before
    assert "own turn" in details.message_text()


def test_an_extra_action_names_what_grants_it(qtbot: QtBot) -> None:
    history = seed_fight()
    roll(history, {"b": (), "c": (), "a": ()})  # Adriana 4 acts first
    document = EncounterDocument(history)
    details = details_for(qtbot, document, "a")
    banks = banks_of(details)
    assert not banks.extra_action.isEnabled()  # her first action needs no grant
    qtbot.mouseClick(banks.dice, Qt.MouseButton.LeftButton, pos=banks.dice.die_rect(0, 0).center().toPoint())
    assert banks.extra_action.isEnabled() and banks.extra_action.grant() == ""
    before = to_data(document.state)
    qtbot.mouseClick(banks.dice, Qt.MouseButton.LeftButton, pos=banks.dice.die_rect(0, 1).center().toPoint())
    assert to_data(document.state) == before  # nothing grants a second action: refused, the rule quoted
    assert "extra actions come only from abilities, equipment or the situation" in details.message_text()
    off_hand = banks.extra_action.findData("off_hand")
    assert banks.extra_action.itemText(off_hand) == "the off hand, in a physical conflict (no stun)"
    banks.extra_action.setCurrentIndex(off_hand)
    qtbot.mouseClick(banks.dice, Qt.MouseButton.LeftButton, pos=banks.dice.die_rect(0, 1).center().toPoint())
    adriana = document.state.combatant("a")
    assert adriana.actions_used == {"physical": 2} and adriana.boxes("physical_stun") == 0
    assert banks.extra_action.grant() == ""  # each extra action names its own grant
    banks.reaction.setChecked(True)
    assert not banks.extra_action.isEnabled()  # a reaction needs none


def test_burning_stun_and_the_initiative_dice(qtbot: QtBot) -> None:
    history = seed_fight()
    roll(history, {"b": (), "c": (), "a": ()})
    document = EncounterDocument(history)
    details = details_for(qtbot, document, "b")
    banks = banks_of(details)
    assert not banks.burn_button.isEnabled()  # nothing spent: nothing to restore
    qtbot.mouseClick(banks.dice, Qt.MouseButton.LeftButton, pos=banks.dice.die_rect(0, 2).center().toPoint())
    assert banks.burn_button.isEnabled() and banks.burn_count.maximum() == 2  # Agility 2
    banks.burn_count.setValue(2)
    banks.burn_button.click()
    beatrice = document.state.combatant("b")
    assert left(document.history, "b") == (3, 6, 8) and beatrice.boxes("physical_stun") == 2
    assert not banks.burn_button.isEnabled()
    banks.initiative_dice.setValue(5)
    assert document.state.combatant("b").extra["initiative_dice"] == 5
    banks.refill.click()
    assert left(document.history, "b") == (4, 6, 8)


def test_burning_stun_to_pay_for_a_manoeuvre(qtbot: QtBot) -> None:
    history = seed_fight()
    roll(history, {"b": (), "c": (), "a": ()})
    document = EncounterDocument(history)
    details = details_for(qtbot, document, "b")
    banks = banks_of(details)
    assert not banks.burn_button.isEnabled() and banks.burn_note.isHidden()  # dice back: none spent yet
    banks.burn_for.setCurrentIndex(banks.burn_for.findData("manoeuvre"))
    # Paying for a manoeuvre needs no spent dice, only the round's limit (Agility 2) and room on the track.
    assert banks.burn_button.isEnabled() and banks.burn_count.maximum() == 2 and not banks.burn_note.isHidden()
    banks.burn_note.setText("a leap over the cart")
    qtbot.keyClick(banks.burn_note, Qt.Key.Key_Return)
    assert document.state.combatant("b").boxes("physical_stun") == 1 and left(document.history, "b") == (4, 6, 8)
    assert document.history.entries[-1].text() == "Beatrice burns 1 physical stun wound for a manoeuvre or " \
        "ability: a leap over the cart."
    assert banks.burn_note.text() == "" and banks.burn_count.maximum() == 1  # one wound of the limit left
    document.undo_stack.undo()
    assert document.state.combatant("b").boxes("physical_stun") == 0 and banks.burn_count.maximum() == 2


def test_long_actions_start_pause_resume_and_give_up(qtbot: QtBot) -> None:
    document = EncounterDocument(seed_fight())
    details = details_for(qtbot, document, "b")
    part = section(details, LongActionsSection)
    assert isinstance(part, LongActionsSection)
    part.name.setText("Decode the book")
    part.bank.setCurrentIndex(part.bank.findData("mental"))
    part.kind.setCurrentIndex(part.kind.findData("interruptible"))
    part.target.setValue(10)
    part.start.click()
    action = find_long_action(document.state.combatant("b"), "long1")
    assert (action.name, action.target, action.bank) == ("Decode the book", 10, "mental")
    assert len(part.rows) == 1 and part.rows[0].progress.maximum() == 10
    part.rows[0].buttons["pause"].click()
    assert find_long_action(document.state.combatant("b"), "long1").state is LongState.PAUSED
    part.rows[0].buttons["resume"].click()
    part.rows[0].buttons["give_up"].click()
    assert part.rows == [] and part.empty.isVisibleTo(part)
    part.start.click()  # no name: refused with a message
    assert "name" in details.message_text()


def test_capacity_names_per_character(qtbot: QtBot) -> None:
    document = EncounterDocument(seed_fight())
    details = details_for(qtbot, document, "b")
    part = section(details, CapacityNamesSection)
    assert isinstance(part, CapacityNamesSection)
    part.edits["mental"].setText("Erudition")
    part.edits["mental"].setModified(True)
    part.edits["mental"].editingFinished.emit()
    assert "Erudition 4" in part.values.text()
    assert document.state.combatant("b").extra["capacity_names"] == {"mental": "Erudition"}


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_screenshot_of_the_sample_panel(qtbot: QtBot, tmp_path: Path, theme: str, light: None) -> None:
    application = QApplication.instance()
    assert isinstance(application, QApplication)
    apply_theme(application, theme)
    document = EncounterDocument(sample())
    details = details_for(qtbot, document, "c3")
    scroll = details._stack.widget(1)
    assert isinstance(scroll, QScrollArea)
    content = scroll.widget()
    assert content is not None
    content.resize(380, content.sizeHint().height())  # the whole panel, as if the dock were tall enough
    QApplication.processEvents()
    banks = banks_of(details)
    assert banks.dice.height() >= banks.dice.heightForWidth(banks.dice.width()) - 1  # never clipped
    image = content.grab()
    assert not image.isNull()
    for folder in filter(None, (str(tmp_path), SHOTS)):
        image.save(str(Path(folder) / f"clovek_panel_{theme}.png"))
