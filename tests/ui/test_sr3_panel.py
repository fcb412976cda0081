"""Shadowrun 3's karma section of the details panel (sr3.md, Pools: the karma pool "refreshes every 24 h or when the GM
decides, never per turn"; "bought successes cost 1 point each, permanently")."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from app.document import EncounterDocument
from rules.combatants import SpendPool
from rules.encounter import Side
from rules.systems.sr3.system import KARMA_POOL
from tests.rules.sr3_scenes import add, eight_characters, roll_ones
from ui.games import game_ui
from ui.games.sr3.panel import KarmaSection
from ui.widgets.details import CombatantDetails

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")


def test_the_karma_section_refreshes_and_buys_successes(qtbot: QtBot) -> None:
    history, ids = eight_characters()
    twitch = add(history, "Twitch", Side.PLAYER, reaction=5, body=3, karma_pool=3)
    roll_ones(history, {**ids, "Twitch": twitch})
    history.do(SpendPool(twitch, KARMA_POOL, 2, "reroll"))
    document = EncounterDocument(history)
    host = QWidget()
    qtbot.addWidget(host)
    panel = CombatantDetails(document, host)
    panel.set_combatant(twitch)
    section = next(widget for widget in panel.findChildren(KarmaSection))
    assert section.left.text() == "1 of 3 karma points left"
    assert section.refresh_one.isEnabled() and section.refresh_all.isEnabled()
    section.refresh_one.click()
    assert section.left.text() == "3 of 3 karma points left" and not section.refresh_one.isEnabled()
    section.buy.click()
    assert section.left.text() == "2 of 2 karma points left"
    document.undo_stack.undo()
    assert section.left.text() == "3 of 3 karma points left"
    panel.set_combatant(ids["Mike"])
    assert section.left.text().startswith("No karma pool") and not section.buy.isEnabled()


def test_the_window_finds_the_section_by_game() -> None:
    assert KarmaSection in game_ui("sr3").sections()
