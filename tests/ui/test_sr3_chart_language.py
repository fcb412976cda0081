"""The SR3 attack dialog's odds chart speaks the GM's language: every text under its bars, none left in English
and none thinned off the axis (Russian lost "Dodged": its tick was the outcome's long full name, and the damage
letters stayed Latin). The language is installed after the chart's modules were imported, as in the app."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from pytestqt.qtbot import QtBot

from app.i18n import install_language
from rules.dice import Roller
from rules.systems.sr3.odds import OUTCOME_LABELS
from tests.ui.test_sr3_attack import fight
from ui.games.sr3.attack import Sr3AttackDialog
from ui.games.sr3.odds import ORDER, tick_text

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")

ENGLISH_TICKS = ("Miss", "Dodged", "None", "L", "M", "S", "D")


@pytest.fixture
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    code = install_language(request.param)
    yield code
    install_language("en")


def _dialog(qtbot: QtBot) -> Sr3AttackDialog:
    document, _ids = fight()
    dialog = Sr3AttackDialog(document, Roller.seeded(1))
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def test_the_english_ticks_are_the_short_ones() -> None:
    assert [tick_text(key) for key in ORDER] == list(ENGLISH_TICKS)


@pytest.mark.parametrize("language", ["ru"], indirect=True)
def test_the_russian_chart_has_no_english_label_left(qtbot: QtBot, language: str) -> None:
    dialog = _dialog(qtbot)
    unknown = dialog.chart.bars.tick_texts()  # no dice yet: grey bars, the same ticks
    dialog.dice.skill.setValue(6)
    ticks = dialog.chart.bars.tick_texts()
    assert len(ticks) == len(ORDER), ticks  # none thinned away
    left_in_english = [tick for tick, english in zip(ticks, ENGLISH_TICKS, strict=True) if tick == english]
    assert left_in_english == []
    assert unknown == ticks
    data = dialog.chart.data()
    assert data is not None
    assert not set(data.names) & set(OUTCOME_LABELS.values())  # the names shown on hover and in the table


@pytest.mark.parametrize("language", ["en", "cs", "pl", "ru"], indirect=True)
def test_every_tick_fits_under_its_bar(qtbot: QtBot, language: str) -> None:
    dialog = _dialog(qtbot)
    dialog.dice.skill.setValue(6)
    assert dialog.chart.bars.tick_texts() == [tick_text(key) for key in ORDER]
