"""The inputs every attack dialog shares: typed combo, combatant combo, spin box, signs, the recompute guard, and
the scrolled body that sizes a dialog on its first show."""

from __future__ import annotations

import gc
from enum import Enum

import pytest
from PySide6.QtCore import QSize, QTimer
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QDialog,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)
from pytestqt.qtbot import QtBot

from rules.dice import Roller, parse
from rules.encounter import Combatant, Side
from ui.widgets.dice_entry import DiceEntry
from ui.widgets.inputs import Choice, Recompute, fill_combatants, signed, spin_box, term
from ui.widgets.layout import ScrolledContent


class Mode(Enum):
    SINGLE = "single"
    BURST = "burst"


def test_a_choice_gives_back_python_values_and_keeps_its_choice(qtbot: QtBot) -> None:
    choice = Choice([("Single", Mode.SINGLE), ("Burst", Mode.BURST)], min_length=12)
    qtbot.addWidget(choice)
    assert choice.value() is Mode.SINGLE and choice.minimumContentsLength() == 12
    choice.select(Mode.BURST)
    assert choice.value() is Mode.BURST and choice.currentText() == "Burst"
    choice.select("nonsense")  # type: ignore[arg-type]  # not offered: nothing changes
    assert choice.value() is Mode.BURST
    with qtbot.assertNotEmitted(choice.currentIndexChanged):
        choice.set_items([("Burst again", Mode.BURST), ("Single again", Mode.SINGLE)])
    assert choice.value() is Mode.BURST and choice.values() == [Mode.BURST, Mode.SINGLE]
    choice.set_items([("Only single", Mode.SINGLE)])  # the choice is gone: the first item
    assert choice.value() is Mode.SINGLE


def test_an_empty_choice_starts_compact(qtbot: QtBot) -> None:
    choice = Choice[str]()
    qtbot.addWidget(choice)
    assert choice.count() == 0 and choice.minimumContentsLength() == 10
    assert choice.sizeAdjustPolicy() is QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon


def test_spin_box_range_value_and_texts(qtbot: QtBot) -> None:
    box = spin_box(0, 999, 10, special="not given", suffix=" m", name="Distance")
    qtbot.addWidget(box)
    assert (box.minimum(), box.maximum(), box.value()) == (0, 999, 10)
    assert box.suffix() == " m" and box.accessibleName() == "Distance"
    box.setValue(0)
    assert box.text() == "not given"
    assert spin_box(1, 5).value() == 1  # the value stays within the range


@pytest.mark.parametrize(("value", "modifier", "added"), [(4, "+4", "+ 4"), (-1, "−1", "− 1"), (0, "0", "+ 0")])
def test_signs_use_a_real_minus(value: int, modifier: str, added: str) -> None:
    assert signed(value) == modifier
    assert term(value) == added


def test_several_changes_recompute_once(qtbot: QtBot) -> None:
    calls: list[int] = []
    edits = Recompute(lambda: calls.append(1))
    spin, check, combo, line = spin_box(0, 9), QCheckBox(), QComboBox(), QLineEdit()
    entry = DiceEntry("Attack", Roller.seeded(1))
    combo.addItems(["a", "b"])
    for widget in (spin, check, combo, line, entry):
        qtbot.addWidget(widget)
    edits.watch(spin, check, combo, line, entry)
    spin.setValue(3)
    check.setChecked(True)
    combo.setCurrentIndex(1)
    line.setText("x")
    entry.set_expression(parse("1d6"))
    assert len(calls) == 5  # each input recomputes by itself
    calls.clear()
    with edits.quietly():
        with edits.quietly():
            spin.setValue(4)
        assert edits.quiet
        check.setChecked(False)
    assert calls == [] and not edits.quiet
    edits.edited()
    assert calls == [1]


def test_watching_a_widget_without_a_known_change_signal_is_refused(qtbot: QtBot) -> None:
    button = QPushButton()
    qtbot.addWidget(button)
    with pytest.raises(TypeError, match="QPushButton"):
        Recompute(lambda: None).watch(button)


def _people() -> list[Combatant]:
    return [Combatant("c1", "Ana", Side.PLAYER), Combatant("c2", "Bo", Side.OPPONENT)]


def test_fill_combatants_chooses_the_wanted_one_or_the_first(qtbot: QtBot) -> None:
    combo = QComboBox()
    qtbot.addWidget(combo)
    fill_combatants(combo, _people(), "c2")
    assert [combo.itemText(i) for i in range(combo.count())] == ["Ana", "Bo"] and combo.currentData() == "c2"
    fill_combatants(combo, _people(), "gone")
    assert combo.currentData() == "c1"
    fill_combatants(combo, [], "c1")
    assert combo.currentIndex() == -1


def test_fill_combatants_silently_emits_nothing(qtbot: QtBot) -> None:
    combo = QComboBox()
    qtbot.addWidget(combo)
    with qtbot.assertNotEmitted(combo.currentIndexChanged):
        fill_combatants(combo, _people(), "c2", silently=True)
    assert combo.currentData() == "c2" and not combo.signalsBlocked()
    with qtbot.waitSignal(combo.currentIndexChanged):
        fill_combatants(combo, _people(), "c1")


def _dialog(qtbot: QtBot) -> tuple[QDialog, QWidget, ScrolledContent]:
    dialog, content = QDialog(), QWidget()
    inside = QLabel("content")
    inside.setFixedSize(300, 200)
    QVBoxLayout(content).addWidget(inside)
    qtbot.addWidget(dialog)
    body = ScrolledContent(dialog, content, QLabel("status"), chrome_height=50)
    return dialog, content, body


@pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")
def test_the_body_scrolls_and_sizes_the_window_once_unless_it_was_given_a_size(qtbot: QtBot) -> None:
    dialog, content, body = _dialog(qtbot)
    scroll = dialog.findChild(QScrollArea)
    assert scroll is not None and scroll.widget() is content
    body.shown()
    hint, screen = content.sizeHint(), dialog.screen().availableGeometry()
    assert hint.width() >= 300 and hint.height() >= 200
    assert dialog.size() == QSize(min(hint.width() + 40, screen.width() - 20), min(hint.height() + 50,
                                                                                  screen.height() - 40))
    dialog.resize(500, 400)
    body.shown()  # only the first show sizes the window: the GM's own size stays
    assert dialog.size() == QSize(500, 400)
    chosen, _content, chosen_body = _dialog(qtbot)
    chosen.resize(320, 260)
    chosen_body.shown()
    assert chosen.size() == QSize(320, 260)


@pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")
def test_content_that_grows_as_the_window_shows_is_fitted_again_unless_the_gm_resized_it(qtbot: QtBot) -> None:
    # The Czech SR3 attack dialog's texts were filled in after its first fit: it opened 1,132 px wide for content
    # of 1,181, clipped on the right with a sideways scroll bar, on a 1366-pixel laptop with room to spare.
    for resized_by_gm in (False, True):
        dialog, content, body = _dialog(qtbot)
        wide, layout = QLabel(""), content.layout()
        assert layout is not None
        layout.addWidget(wide)
        body.shown()
        first = dialog.size()
        wide.setMinimumWidth(500)  # a text set after the first fit
        if resized_by_gm:
            dialog.resize(first.width() + 10, first.height())
        QApplication.processEvents()
        if resized_by_gm:
            assert dialog.size() == QSize(first.width() + 10, first.height())
        else:
            assert dialog.width() >= 500 + 40 and dialog.height() == first.height()


class _Owner(QDialog):
    """A dialog as the attack dialogs use the helpers: it holds them, they call back into it."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.edits = Recompute(self.refresh)
        self.spin = spin_box(0, 9)
        content = QWidget()
        QVBoxLayout(content).addWidget(self.spin)
        self.body = ScrolledContent(self, content, chrome_height=50)
        self.edits.watch(self.spin)

    def refresh(self) -> None:
        """Nothing to recompute here."""


def test_the_helpers_do_not_keep_a_closed_dialog_alive(qtbot: QtBot) -> None:
    window = QWidget()
    qtbot.addWidget(window)
    gc.disable()  # a cycle through the helpers would keep the dialog until the cycle collector came by
    try:
        owner = _Owner(window)
        owner.spin.setValue(3)
        QTimer.singleShot(0, owner.reject)
        owner.exec()  # as the window opens an attack dialog
        del owner
        assert window.findChildren(QDialog) == []
    finally:
        gc.enable()
