"""The dice entry: typed faces are checked live against the test, rolled faces come from the injected roller."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from rules.dice import DiceExpression, Roller, parse
from rules.systems import get_system
from ui.widgets.dice_entry import DiceEntry
from ui.widgets.odds_table import OddsTable, format_percent


def sr3_test(line: str) -> DiceExpression:
    """An SR3 success test, parsed as the dice line of an SR3 fight reads it."""
    return parse(line, get_system("sr3").dice_words())


@pytest.fixture
def entry(qtbot: QtBot) -> DiceEntry:
    widget = DiceEntry("Attack", Roller.seeded(11))
    qtbot.addWidget(widget)
    widget.set_expression(sr3_test("4d6 tn 5"))
    return widget


def test_shows_how_many_dice_are_rolled(entry: DiceEntry) -> None:
    assert entry.dice_count() == 4
    assert entry.count_label.text() == "4 dice: 4d6 TN 5"
    entry.set_expression(parse("1d6"))
    assert entry.count_label.text() == "1 die: d6"


def test_typed_faces_give_the_result(entry: DiceEntry, qtbot: QtBot) -> None:
    with qtbot.waitSignal(entry.changed):
        qtbot.keyClicks(entry.faces_edit, "5,6,1,4")
    assert entry.is_complete()
    assert entry.faces() == ((5,), (6,), (1,), (4,))
    assert entry.result_label.text() == "2 successes"
    assert entry.error_text() == ""
    assert entry.error_label.isHidden()


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("5,6,x,4", "is not a face"),
        ("5,6,7,4", "cannot show 7"),
        ("5,6,4", "needs 4 faces, you typed 3"),
        ("5,6+2,4,4", "is not rolled again"),
        ("5,6,,4", "needs 4 faces, you typed 3"),
    ],
)
def test_bad_faces_show_a_red_message_and_never_raise(entry: DiceEntry, typed: str, message: str) -> None:
    entry.set_faces_text(typed)
    assert not entry.is_complete()
    assert entry.result() is None
    assert entry.faces() == ()
    assert message in entry.error_text()
    assert entry.error_label.text() == entry.error_text()
    assert not entry.error_label.isHidden()
    assert entry.error_label.property("error") is True
    red = entry.error_label.palette().color(entry.error_label.foregroundRole())
    assert red.red() > 2 * max(red.green(), red.blue())


def test_rule_of_six_chains_are_checked_against_the_tn(entry: DiceEntry) -> None:
    entry.set_expression(sr3_test("2d6 tn 8"))
    entry.set_faces_text("6,3")
    assert "type the reroll after a plus" in entry.error_text()
    entry.set_faces_text("6+3,3")
    assert entry.is_complete()
    assert entry.result_label.text() == "1 success"


def test_a_new_expression_rechecks_what_was_typed(entry: DiceEntry) -> None:
    entry.set_faces_text("5,6,1,4")
    assert entry.is_complete()
    entry.set_expression(sr3_test("5d6 tn 5"))
    assert not entry.is_complete()
    assert "needs 5 faces" in entry.error_text()


def test_roll_uses_the_injected_roller(entry: DiceEntry, qtbot: QtBot) -> None:
    qtbot.mouseClick(entry.roll_button, Qt.MouseButton.LeftButton)
    expected = sr3_test("4d6 tn 5").roll(Roller.seeded(11))
    assert entry.faces() == expected.faces
    assert entry.faces_edit.text() == expected.faces_text()
    assert entry.is_complete()


def test_no_expression_means_no_dice_needed(entry: DiceEntry) -> None:
    entry.set_faces_text("5,6,1,4")
    entry.set_expression(None, "Not needed: the attack missed.")
    assert entry.is_complete()
    assert entry.faces() == ()
    assert entry.count_label.text() == "Not needed: the attack missed."
    assert not entry.faces_edit.isEnabled()
    assert not entry.roll_button.isEnabled()
    entry.roll()  # nothing to roll: no error, no faces
    assert entry.faces() == ()


def test_clear_forgets_the_faces(entry: DiceEntry) -> None:
    entry.set_faces_text("5,6,1,4")
    entry.clear()
    assert not entry.is_complete()
    assert entry.error_text() == ""


def test_odds_table_rows_percentages_and_highlight(qtbot: QtBot) -> None:
    table = OddsTable()
    qtbot.addWidget(table)
    table.set_outcomes([("Miss", 0.25), ("Hit", 0.7499), ("Rare", 0.0001)])
    assert table.displayed() == [("Miss", "25.0 %"), ("Hit", "75.0 %"), ("Rare", "<0.1 %")]
    assert format_percent(0.99999) == ">99.9 %"
    assert format_percent(1.0) == "100.0 %"
    table.highlight("Hit")
    assert table.highlighted() == "Hit"
    table.set_outcomes([("Miss", 0.5), ("Hit", 0.5)])
    assert table.highlighted() == "Hit"  # still offered: the mark stays
    table.set_outcomes([("Other", 1.0)])
    assert table.highlighted() is None
    assert table.minimumSizeHint().height() == table.sizeHint().height()


def test_odds_table_paints_every_row(qtbot: QtBot) -> None:
    table = OddsTable()
    qtbot.addWidget(table)
    table.set_outcomes([("Miss", 0.0), ("Hit", 1.0)])
    table.highlight("Hit")
    table.resize(table.sizeHint())
    image = table.grab().toImage()
    assert image.width() == table.sizeHint().width()
    # The full bar of "Hit" is painted in the highlight colour somewhere in its row.
    row = table.sizeHint().height() * 3 // 4
    colours = {image.pixelColor(x, row).name() for x in range(image.width())}
    assert len(colours) > 2
