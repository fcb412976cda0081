"""The actor strip over the initiative table: whoever acts now, what it may still do and its pools, in sight
whatever the details panel shows, with one-click controls that go through the document (so Undo takes them
back), a height that never changes, no focus taken from the table, and no word cut in any language."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLabel, QToolButton
from pytestqt.qtbot import QtBot

from app.i18n import install_language
from rules.combatants import EditCombatant, SetDamage
from rules.systems import system_ids
from rules.turns import current_actor
from tests.ui.conftest import WindowFactory
from ui.games import game_ui
from ui.main_window import MainWindow
from ui.widgets.actor_strip import ActorStrip

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support (propagateSizeHints|raise)\(\)")

GAMES = system_ids()
#: Whoever acts first in each game's sample, and what the strip shows of it (its actions and pools left of how
#: many), as the sample's rules have it.
SAMPLE_ACTORS = {
    "sr3": ("Wedge", ["free 3/3", "simple 2/2", "complex 1/1", "combat 6/6"]),
    "walka": ("Kira", ["actions 1/2", "attacks with a penalty die 1/2", "Chances 2/2"]),
    "souboj": ("Bora", ["action 1/1", "magic"]),
    "institut": ("Arkhipov", ["actions 1/1"]),
    "clovek": ("Cesare", ["physical 4/6", "social 6/6", "mental 3/4"]),
}
LAPTOP = (1366, 768)


def _window(open_window: WindowFactory, game: str) -> MainWindow:
    window = open_window(sample=game)
    window.table.clearSelection()  # the strip shows the current actor (a group's first) when nobody is picked
    return window


def _settle() -> None:
    QApplication.processEvents()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def _undo_count(window: MainWindow) -> int:
    return window.document.undo_stack.index()


@pytest.mark.parametrize("game", GAMES)
def test_the_strip_names_the_current_actor_and_what_it_has_left(open_window: WindowFactory, game: str) -> None:
    window = _window(open_window, game)
    strip, state = window.strip, window.document.state
    assert strip.actor_id() == current_actor(state)
    name, readings = SAMPLE_ACTORS[game]
    assert strip.name.text().startswith(name)
    assert strip.readings() == readings
    combatant = state.combatants[current_actor(state) or ""]
    shown = game_ui(game).essentials(combatant, state, window.document.system)
    assert strip.readings() == [reading.text for group in shown for reading in group.readings]


@pytest.mark.parametrize("game", GAMES)
def test_after_space_the_strip_shows_the_next_actor_at_the_same_height(qtbot: QtBot, open_window: WindowFactory,
                                                                       game: str) -> None:
    window = _window(open_window, game)
    window.resize(*LAPTOP)
    window.show()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    strip = window.strip
    height, first = strip.height(), strip.actor_id()
    window.table.setFocus()
    QTest.keyClick(window.table, Qt.Key.Key_Space)
    _settle()
    now = current_actor(window.document.state)
    assert now != first and strip.actor_id() == now
    if now is None:
        assert strip.name.text() == "Nobody acts now" and strip.readings() == []
    else:
        assert strip.name.text().startswith(window.document.state.combatants[now].name)
    assert strip.height() == height  # nothing under the pointer moves as the turn passes
    assert strip.minimumHeight() == strip.maximumHeight() == height


def test_the_strip_keeps_its_height_with_nobody_acting(open_window: WindowFactory) -> None:
    acting = _window(open_window, "sr3").strip
    empty = open_window("sr3", "Nobody yet").strip
    assert empty.actor_id() is None and empty.name.text() == "Nobody acts now"
    assert empty.height() == acting.height()


@pytest.mark.parametrize("game", GAMES)
def test_a_click_on_a_quick_control_is_one_undoable_operation(qtbot: QtBot, open_window: WindowFactory,
                                                              game: str) -> None:
    window = _window(open_window, game)
    strip = window.strip
    before, steps = strip.readings(), _undo_count(window)
    control = next(button for key in _keys(window) for number in range(2)
                   if (button := strip.control(key, number)) is not None and button.isEnabled())
    qtbot.mouseClick(control, Qt.MouseButton.LeftButton)
    _settle()
    assert _undo_count(window) == steps + 1
    assert strip.readings() != before
    window.document.undo_stack.undo()
    _settle()
    assert strip.readings() == before


def _keys(window: MainWindow) -> list[str]:
    state = window.document.state
    combatant = state.combatants[window.strip.actor_id() or ""]
    groups = game_ui(window.document.system.id).essentials(combatant, state, window.document.system)
    return [reading.key for group in groups for reading in group.readings]


def test_sr3_spends_from_the_combat_pool_and_uses_an_action(qtbot: QtBot, open_window: WindowFactory) -> None:
    window = _window(open_window, "sr3")
    strip = window.strip
    pool, simple = strip.control("combat"), strip.control("simple")
    assert pool is not None and simple is not None
    qtbot.mouseClick(pool, Qt.MouseButton.LeftButton)
    assert strip.reading("combat") == "combat 5/6"
    assert window.document.state.combatants[strip.actor_id() or ""].pools["combat"].remaining == 5
    qtbot.mouseClick(simple, Qt.MouseButton.LeftButton)
    assert strip.reading("simple") == "simple 1/2"
    assert strip.reading("free") == "free 2/2"  # the simple action left may still be a free one
    assert strip.reading("complex") == "complex 0/0"  # a simple action used: no complex one this phase
    complex_action = strip.control("complex")
    assert complex_action is not None and not complex_action.isEnabled()
    window.actions_by_name["undo"].trigger()
    window.actions_by_name["undo"].trigger()
    assert strip.readings() == SAMPLE_ACTORS["sr3"][1]


def test_clovek_spends_a_die_as_an_action_and_burns_stun_for_one(qtbot: QtBot, open_window: WindowFactory) -> None:
    window = _window(open_window, "clovek")
    strip = window.strip
    spend, burn = strip.control("physical", 0), strip.control("physical", 1)
    assert spend is not None and burn is not None and burn.isEnabled()  # Cesare has 2 physical dice spent
    qtbot.mouseClick(burn, Qt.MouseButton.LeftButton)
    _settle()
    assert strip.reading("physical") == "physical 5/6"
    spend = strip.control("physical", 0)
    assert spend is not None
    qtbot.mouseClick(spend, Qt.MouseButton.LeftButton)
    _settle()
    assert strip.reading("physical") == "physical 4/6"
    assert strip.reading("action_type") == "This round's actions: physical"  # the die went on an action


def test_the_strip_follows_the_one_picked_of_a_group_acting_together(open_window: WindowFactory) -> None:
    window = _window(open_window, "souboj")
    state = window.document.state
    group = state.clock.current.ids if state.clock.current else ()
    assert len(group) == 3 and window.strip.name.text() == f"{state.combatants[group[0]].name} +2"
    assert all(state.combatants[i].name in window.strip.name.toolTip() for i in group)
    window.table.select_combatant(group[1])
    assert window.strip.actor_id() == group[1]
    outsider = next(i for i in state.combatants if i not in group)
    window.table.select_combatant(outsider)  # not acting now: the strip goes back to the current actor
    assert window.strip.actor_id() == group[0]


def test_the_strip_refreshes_only_for_the_actor_the_turn_and_the_rules(open_window: WindowFactory,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    window = _window(open_window, "sr3")
    strip = window.strip
    refreshed: list[str | None] = []
    original = strip.refresh

    def counting() -> None:
        refreshed.append(strip.actor_id())
        original()

    monkeypatch.setattr(strip, "refresh", counting)
    bystander = next(i for i in window.document.state.combatants if i != strip.actor_id())
    window.document.apply(SetDamage(bystander, "stun", 2))
    assert refreshed == []
    window.document.apply(SetDamage(strip.actor_id() or "", "stun", 1))
    assert len(refreshed) == 1
    window.session.next_turn()
    assert len(refreshed) == 2


def test_the_strip_never_takes_the_focus_so_space_stays_next(qtbot: QtBot, open_window: WindowFactory) -> None:
    window = _window(open_window, "sr3")
    window.show()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    window.table.setFocus()
    qtbot.waitUntil(window.table.hasFocus)
    buttons = window.strip.findChildren(QToolButton)
    assert buttons and all(button.focusPolicy() == Qt.FocusPolicy.NoFocus for button in buttons)
    control = window.strip.control("combat")
    assert control is not None
    qtbot.mouseClick(control, Qt.MouseButton.LeftButton)
    assert window.table.hasFocus()
    before = window.document.state.clock.current
    QTest.keyClick(window.table, Qt.Key.Key_Space)
    assert window.document.state.clock.current != before


def test_a_long_name_is_elided_with_the_whole_name_in_the_tooltip(open_window: WindowFactory) -> None:
    window = _window(open_window, "sr3")
    window.resize(*LAPTOP)
    window.show()
    long_name = "Bartholomew Alexander Maximilian von Hohenzollern-Sigmaringen the Third"
    window.document.apply(EditCombatant(window.strip.actor_id() or "", "name", long_name))
    _settle()
    strip = window.strip
    assert strip.name.text() == long_name
    assert strip.name.shown_text() != long_name and strip.name.shown_text().endswith("…")
    assert long_name in strip.name.toolTip()
    assert strip.readings() == SAMPLE_ACTORS["sr3"][1]  # the numbers stay whole


@pytest.fixture(params=["cs", "pl", "ru"])
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    install_language(request.param)
    yield request.param
    install_language("en")


@pytest.mark.parametrize("game", GAMES)
def test_nothing_in_the_strip_is_cut_in_long_languages(open_window: WindowFactory, language: str,
                                                       game: str) -> None:
    window = _window(open_window, game)
    window.resize(*LAPTOP)
    window.show()
    _settle()
    strip = window.strip
    assert strip.readings(), f"{game} in {language}: an empty strip"
    assert strip.needed_width() <= strip.width(), f"{game} in {language}: {strip.needed_width()} px"
    for part in strip.parts()[1:]:  # the name elides (with a tooltip); nothing else may be squeezed
        assert part.width() >= part.sizeHint().width(), f"{game} in {language}: {part!r} cut"


def test_short_of_room_the_titles_go_first_and_the_numbers_stay(qtbot: QtBot, open_window: WindowFactory) -> None:
    window = _window(open_window, "sr3")
    strip = ActorStrip(window.document)  # on its own: no window's layout sets its width
    qtbot.addWidget(strip)
    strip.show()
    titles = [label for label in strip.findChildren(QLabel) if label.text() in strip.titles()]
    assert len(titles) == 2
    strip.resize(strip.needed_width(titled=False) + 4, strip.height())
    assert not any(title.isVisibleTo(strip) for title in titles)
    assert all(label.isVisibleTo(strip) for label in strip.findChildren(QLabel) if label.text() in strip.readings())
    strip.resize(strip.needed_width() + 4, strip.height())
    assert all(title.isVisibleTo(strip) for title in titles)
