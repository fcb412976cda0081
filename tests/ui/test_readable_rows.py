"""Rows of combatants whose turn is done stay readable (WCAG AA, 4.5:1 against both row colours) in the light
and the dark theme, softer than the others, and marked with a tick, not by colour alone."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QPalette
from PySide6.QtWidgets import QApplication

from app.document import EncounterDocument
from rules.systems import get_system
from ui.models.initiative_model import Column, InitiativeModel
from ui.theme import MIN_CONTRAST, apply_theme, contrast_ratio


@pytest.fixture(params=["light", "dark"])
def theme(request: pytest.FixtureRequest, qapp: QApplication) -> Iterator[str]:
    before = QApplication.palette()
    apply_theme(qapp, request.param)
    yield request.param
    QApplication.setPalette(before)


def test_done_rows_are_readable_softer_and_ticked(theme: str) -> None:
    document = EncounterDocument(get_system("sr3").sample())
    model = InitiativeModel(document)
    done = next(iter(document.state.clock.acted))
    row = model.row_of(done)
    brush = model.index(row, Column.NAME).data(Qt.ItemDataRole.ForegroundRole)
    assert isinstance(brush, QBrush)
    palette = QApplication.palette()
    text = palette.color(QPalette.ColorRole.Text)
    for ground in (QPalette.ColorRole.Base, QPalette.ColorRole.AlternateBase):
        ratio = contrast_ratio(brush.color(), palette.color(ground))
        assert ratio >= MIN_CONTRAST, f"{theme}: {brush.color().name()} on {palette.color(ground).name()}: {ratio:.2f}"
    assert brush.color() != text  # still visibly done…
    assert model.index(row, Column.ACTIONS).data() == "✓ done"  # …and said so, not by colour alone
    waiting = next(i for i in document.state.combatants if i not in document.state.clock.acted)
    assert model.index(model.row_of(waiting), Column.NAME).data(Qt.ItemDataRole.ForegroundRole) is None
