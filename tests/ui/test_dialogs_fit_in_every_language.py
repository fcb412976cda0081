"""Every game's attack dialog fits a 1366-pixel laptop screen in every language (Russian and Polish run longest)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import QApplication, QScrollArea
from pytestqt.qtbot import QtBot

from app.document import EncounterDocument
from app.i18n import install_language
from app.samples import _builders
from rules.dice import Roller
from rules.systems import system_ids
from ui.games import game_ui

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")

LAPTOP_WIDTH = 1366
#: The dialog is at most 1346 px wide (fit_to_screen); its margins, frame and vertical scroll bar take the rest.
CHROME = 40 + 20
GAMES = system_ids()


@pytest.fixture(params=["en", "cs", "pl", "ru"])
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    install_language(request.param)
    yield request.param
    install_language("en")


@pytest.mark.parametrize("game", GAMES)
def test_attack_dialog_needs_no_sideways_scrolling(qtbot: QtBot, language: str, game: str) -> None:
    document = EncounterDocument(_builders()[game]())
    dialog_class = game_ui(game).attack_dialog()
    assert dialog_class is not None
    dialog = dialog_class(document, Roller.seeded(1), None, None, None)
    qtbot.addWidget(dialog)
    dialog.show()
    QApplication.processEvents()
    scrolled = [widget for area in dialog.findChildren(QScrollArea) if (widget := area.widget()) is not None]
    widest = max((widget.minimumSizeHint().width() for widget in scrolled), default=dialog.minimumSizeHint().width())
    assert widest + CHROME <= LAPTOP_WIDTH, f"{game} in {language}: {widest} px of content"


#: The widest the Člověk banks section was before burning for a manoeuvre came (Russian: 418 px); the details dock
#: is narrower than that by default, so the section must not grow (a row of its own for what the stun pays for).
BANKS_WIDEST = 420


def test_the_clovek_banks_section_grows_no_wider_in_any_language(qtbot: QtBot, language: str) -> None:
    from ui.games.clovek.panel import DiceBanksSection
    from ui.widgets.details import CombatantDetails

    document = EncounterDocument(_builders()["clovek"]())
    details = CombatantDetails(document)
    qtbot.addWidget(details)
    details.set_combatant(next(iter(document.state.combatants)))
    details.show()
    banks = details.findChildren(DiceBanksSection)
    assert banks and banks[0].minimumSizeHint().width() <= BANKS_WIDEST, (language, banks[0].minimumSizeHint())
