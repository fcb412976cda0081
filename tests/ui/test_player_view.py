"""The player view and its turn order model: what players may see, and only that."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QModelIndex, QRect, Qt
from PySide6.QtGui import QColor, QFontMetrics, QPalette
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from app.document import EncounterDocument
from app.i18n import install_language
from app.samples import _builders
from app.settings import load_settings
from rules.combatants import EditCombatant, SetDamage, SetHidden
from rules.effects import AddEffect
from rules.encounter import Effect, Side
from rules.systems import system_ids
from rules.turns import DelayAction, NextTurn
from tests.rules.sr3_scenes import eight_characters, roll_ones
from tests.ui.conftest import WindowFactory
from ui.models.order_model import ACTED, TurnOrderModel, order_rows
from ui.widgets.party_panel import PartyEntry, PartyPanel, wrapped_size
from ui.widgets.player_view import PlayerView


def _document(rolled: bool = True) -> tuple[EncounterDocument, dict[str, str]]:
    history, ids = eight_characters()
    if rolled:
        roll_ones(history, ids)
    return EncounterDocument(history), ids


def _names(model: TurnOrderModel) -> list[str]:
    return [model.index(row, 0).data(TurnOrderModel.NameRole) for row in range(model.rowCount())]


def _view(qtbot: QtBot, document: EncounterDocument) -> PlayerView:
    view = PlayerView(document)
    qtbot.addWidget(view)
    view.resize(1280, 720)
    with qtbot.waitExposed(view):
        view.show()
    return view


# --- the model -----------------------------------------------------------------------------------


def test_order_model_passes_the_model_tester_through_a_fight(qtmodeltester: Any) -> None:
    document, ids = _document(rolled=False)
    model = TurnOrderModel(document)
    qtmodeltester.check(model, force_py=True)  # keeps checking on every signal below
    assert model.rowCount() == 0
    history = document.history
    roll_ones(history, ids)
    document.replace_history(history, None)  # a fight changed outside the document comes back as a whole
    for _turn in range(3):
        document.apply(NextTurn())
    document.apply(SetDamage(ids["Camilla"], "stun", 10))  # knocked out: leaves the order
    document.apply(DelayAction(document.state.clock.current.ids[0]))  # type: ignore[union-attr]
    for _turn in range(4):
        document.apply(NextTurn())
    while document.undo_stack.canUndo():
        document.undo_stack.undo()
    assert model.rowCount() == 0
    qtmodeltester.check(model)


def test_current_first_then_the_pass_then_those_who_acted() -> None:
    document, _ids = _document()
    model = TurnOrderModel(document)
    assert _names(model) == ["Mike", "Ganger 1", "Dave", "Ganger 2", "Sharon", "Richie", "Ganger 3", "Camilla"]
    assert model.index(0, 0).data(TurnOrderModel.IsCurrentRole) is True
    assert model.index(1, 0).data(TurnOrderModel.IsCurrentRole) is False
    assert model.index(1, 0).data(TurnOrderModel.SideRole) == Side.OPPONENT.value
    assert model.index(0, 0).data(TurnOrderModel.StatusRole) == "active"
    document.apply(NextTurn())
    document.apply(NextTurn())
    assert _names(model) == ["Dave", "Ganger 2", "Sharon", "Richie", "Ganger 3", "Camilla", "Mike", "Ganger 1"]
    assert model.index(7, 0).data(TurnOrderModel.HasActedRole) is True
    assert model.index(7, 0).data(TurnOrderModel.KindRole) == ACTED


def test_next_turn_moves_rows_instead_of_resetting(qtbot: QtBot) -> None:
    document, _ids = _document()
    model = TurnOrderModel(document)
    changed: list[tuple[int, list[int]]] = []
    model.dataChanged.connect(lambda top, _bottom, roles: changed.append((top.row(), list(roles))))
    with qtbot.assertNotEmitted(model.modelReset), qtbot.waitSignal(model.layoutChanged):
        document.apply(NextTurn())
    mike_roles = next(roles for row, roles in changed if row == 7)  # Mike, now last
    assert TurnOrderModel.IsCurrentRole in mike_roles and TurnOrderModel.HasActedRole in mike_roles
    assert Qt.ItemDataRole.DisplayRole not in mike_roles  # his name did not change


def test_a_rename_only_emits_data_changed(qtbot: QtBot) -> None:
    document, ids = _document()
    model = TurnOrderModel(document)
    with qtbot.assertNotEmitted(model.modelReset), qtbot.assertNotEmitted(model.layoutChanged), \
            qtbot.waitSignal(model.dataChanged) as signal:
        document.apply(EditCombatant(ids["Dave"], "name", "Dave the Brave"))
    top: QModelIndex = signal.args[0]
    assert top.row() == 2
    assert TurnOrderModel.NameRole in signal.args[2]


def test_delayed_actions_and_timers_get_their_own_rows() -> None:
    document, ids = _document()
    document.apply(DelayAction(ids["Mike"]))
    rows = order_rows(document.state, document.system)
    assert rows[-1].display == "Mike (delayed action)"
    assert "Mike" not in [row.name for row in rows if row.kind == ACTED]  # not listed twice
    document.apply(AddEffect(Effect("t1", "Grenade", due=(1, 1, 20))))
    names = [row.name for row in order_rows(document.state, document.system)]
    assert names.index("Grenade") + 1 == names.index("Ganger 2")  # phase 20: after Dave (22), before 19


# --- the window ----------------------------------------------------------------------------------


def test_shows_round_pass_and_the_current_actor(qtbot: QtBot) -> None:
    document, _ids = _document()
    view = _view(qtbot, document)
    assert view.round_label.text() == "Round 1 · Initiative pass 1"
    assert view.current_label.text() == "Mike"
    document.apply(NextTurn())
    assert view.current_label.text() == "Ganger 1"
    assert view.model.index(0, 0).data() == "Ganger 1"


def test_before_the_fight_and_between_rounds(qtbot: QtBot) -> None:
    document, ids = _document(rolled=False)
    view = _view(qtbot, document)
    assert view.round_label.text() == "The fight has not begun"
    assert view.current_label.text() == "—"
    roll_ones(document.history, ids)
    document.replaced.emit()
    while document.state.clock.current is not None:
        document.apply(NextTurn())
    assert view.round_label.text() == "Round 1 is over · rolling initiative"


def _numbers_shown(view: PlayerView, document: EncounterDocument) -> set[str]:
    """Every number in the window's texts, once combatant names are taken out."""
    names = sorted((c.name for c in document.state.combatants.values()), key=len, reverse=True)  # longest first
    found: set[str] = set()
    pattern = re.compile("|".join(re.escape(name) for name in names))
    for shown in view.shown_texts():
        found |= set(re.findall(r"\d+", pattern.sub("", shown)))
    return found


def test_hides_opponents_numbers_and_gm_notes(qtbot: QtBot) -> None:
    document, ids = _document()
    for name in ("Ganger 1", "Mike"):
        document.apply(EditCombatant(ids[name], "notes", f"secret plan of {name}"))
    document.apply(SetDamage(ids["Ganger 1"], "physical", 7))
    document.apply(NextTurn())
    view = _view(qtbot, document)
    texts = view.shown_texts()
    for combatant in document.state.combatants.values():
        score = document.system.score_text(combatant, document.state)
        assert not any(score in text for text in texts)
    assert not any("secret" in text for text in texts)
    assert _numbers_shown(view, document) <= {"1"}  # round 1, pass 1: nothing else
    party = {entry.name for entry in view.party.entries()}
    assert party == {c.name for c in document.state.combatants.values() if c.side is Side.PLAYER}
    opponents = [c.name for c in document.state.combatants.values() if c.side is Side.OPPONENT]
    assert all(name not in view.party.texts() for name in opponents)  # no monitors for opponents


def test_party_bars_follow_damage(qtbot: QtBot) -> None:
    document, ids = _document()
    view = _view(qtbot, document)
    document.apply(SetDamage(ids["Dave"], "physical", 10))
    dave = next(entry for entry in view.party.entries() if entry.name == "Dave")
    assert dave.tracks[0] == ("Physical", 10, 10)
    assert dave.status == "Dying"


def test_full_screen_toggle_and_escape(qtbot: QtBot) -> None:
    document, _ids = _document()
    view = _view(qtbot, document)
    assert view.full_screen_action.shortcut().toString() == "F11"
    view.full_screen_action.trigger()
    qtbot.waitUntil(view.isFullScreen)
    assert view.full_screen_action.isChecked()
    assert not view.full_screen_button.isVisibleTo(view)
    view.leave_full_screen_action.trigger()
    qtbot.waitUntil(lambda: not view.isFullScreen())
    assert not view.full_screen_action.isChecked()


def test_text_scales_with_the_window_and_the_background_is_dark(qtbot: QtBot) -> None:
    document, _ids = _document()
    view = _view(qtbot, document)
    assert view.palette().color(QPalette.ColorRole.Window).lightness() < 40
    big = view.current_label.font().pixelSize()
    view.resize(640, 360)
    qtbot.waitUntil(lambda: view.current_label.font().pixelSize() < big)
    assert view.current_label.font().pixelSize() > view.order.font().pixelSize()


def test_screenshot_mid_fight(qtbot: QtBot, tmp_path: Path) -> None:
    document, ids = _document()
    document.apply(SetDamage(ids["Mike"], "physical", 6))
    document.apply(SetDamage(ids["Dave"], "physical", 12))
    document.apply(NextTurn())
    view = _view(qtbot, document)
    qtbot.wait(10)
    image = view.grab().toImage()
    image.save(str(tmp_path / "player-view.png"))
    assert image.width() == 1280 and image.height() == 720  # the text fits the window, not the other way
    band = view.order.visualRect(view.model.index(0, 0)).center()
    band = view.order.viewport().mapTo(view, band)
    assert image.pixelColor(band.x() + 200, band.y()) == QColor("#ffb300")  # the current actor's band
    assert image.pixelColor(5, 5).lightness() < 40


def test_follows_the_application_theme_when_asked(qtbot: QtBot) -> None:
    document, _ids = _document()
    view = PlayerView(document, dark=False)
    qtbot.addWidget(view)
    window = QPalette.ColorRole.Window
    assert view.palette().color(window) == QApplication.palette().color(window)


# --- hidden from the players, the F9 toggle, the keys, the headings -----------------------------


def test_a_hidden_npc_is_left_out_until_revealed(qtbot: QtBot, qtmodeltester: Any) -> None:
    document, ids = _document()
    view = _view(qtbot, document)
    qtmodeltester.check(view.model, force_py=True)
    document.apply(SetHidden(ids["Ganger 1"], True))
    assert "Ganger 1" not in _names(view.model)
    assert not any("Ganger 1" in text for text in view.shown_texts())
    document.apply(NextTurn())  # the hidden ganger acts: the players see nobody acting, not the name
    assert view.current_label.text() == "—"
    assert _names(view.model)[0] == "Dave" and not view.model.row(0).is_current
    document.apply(SetHidden(ids["Ganger 1"], False))
    assert view.current_label.text() == "Ganger 1"
    document.undo_stack.undo()
    assert "Ganger 1" not in _names(view.model)


def test_a_hidden_member_of_a_group_leaves_only_their_name(qtbot: QtBot) -> None:
    from rules.encounter import Slot, SlotKind

    document, ids = _document()
    document.apply(SetHidden(ids["Ganger 2"], True))
    state = document.state
    slot = Slot(SlotKind.ACTORS, (ids["Ganger 1"], ids["Ganger 2"]), 5)
    row = order_rows(replace(state, clock=replace(state.clock, current=slot)), document.system)[0]
    assert row.name == "Ganger 1" and row.key[1] == (ids["Ganger 1"],)  # not even the hidden one's id


@pytest.mark.qt_log_ignore(r"This plugin does not support (propagateSizeHints|raise)\(\)")
def test_f9_opens_and_closes_and_space_is_next_on_the_players_screen(qtbot: QtBot,
                                                                      open_window: WindowFactory) -> None:
    window = open_window(sample="sr3")
    window.show()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    action = window.actions_by_name["player_view"]
    QTest.keyClick(window, Qt.Key.Key_F9)
    view = window.player_view
    assert view is not None and view.isVisible() and action.isChecked()
    view.activateWindow()
    qtbot.waitUntil(view.isActiveWindow)
    before = window.document.state.clock.current
    QTest.keyClick(view, Qt.Key.Key_Space)  # the GM's Space still means Next with the players' screen focused
    assert window.document.state.clock.current != before
    assert not view.isFullScreen()
    QTest.keyClick(view, Qt.Key.Key_F9)  # F9 there closes it too
    assert not view.isVisible() and not action.isChecked()
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    QTest.keyClick(window, Qt.Key.Key_F9)
    assert view.isVisible() and action.isChecked()
    view.close()  # its own close button
    assert not action.isChecked()


def test_nothing_on_the_players_screen_takes_the_focus(qtbot: QtBot) -> None:
    document, _ids = _document()
    view = _view(qtbot, document)
    focusable = [type(widget).__name__ for widget in view.findChildren(QWidget)
                 if widget.focusPolicy() != Qt.FocusPolicy.NoFocus]
    assert focusable == []  # so Space or Enter can never press the full-screen button
    view.activateWindow()
    qtbot.waitUntil(view.isActiveWindow)
    QTest.keyClick(view, Qt.Key.Key_Space)
    assert not view.isFullScreen() and not view.full_screen_action.isChecked()


@pytest.mark.qt_log_ignore(r"This plugin does not support (propagateSizeHints|raise)\(\)")
@pytest.mark.parametrize("language", ["en", "cs", "pl", "ru"])
@pytest.mark.parametrize("game", system_ids())
def test_no_heading_is_cut_in_any_game_or_language(qtbot: QtBot, game: str, language: str) -> None:
    install_language(language)
    try:
        view = PlayerView(EncounterDocument(_builders()[game]()))
        qtbot.addWidget(view)
        for size in ((1280, 720), (1024, 640), (1920, 1080)):
            view.resize(*size)
            with qtbot.waitExposed(view):
                view.show()
            rows = view.model.rowCount()
            # Once the layout has settled (the text scales in steps), no order row and no party line is cut off.
            qtbot.waitUntil(lambda: rows * view.order.sizeHintForRow(0) <= view.order.viewport().height()  # noqa: B023
                            and view.party.sizeHint().height() <= view.party.height() + 1, timeout=3000)
            _assert_headings_fit(view, f"{game} {language} {size}")
    finally:
        install_language("en")


def _assert_headings_fit(view: PlayerView, where: str) -> None:
    party_panel = view.party
    labels = party_panel._shared_labels()
    assert labels, where
    metrics = QFontMetrics(party_panel.heading_font())
    height = party_panel._heading_height()
    for cell, label in zip(party_panel._heading_cells(len(labels)), labels, strict=True):
        size = wrapped_size(metrics, label, cell.width(), party_panel.heading_wrap())
        assert size.width() <= cell.width() and size.height() <= height, f"{where}: {label!r} is cut"
    for caption in (view.round_label, view.now_caption, view.order_caption, view.party_caption):
        assert caption.fontMetrics().horizontalAdvance(caption.text()) <= caption.width(), f"{where}: {caption.text()}"


# --- its place on the screen --------------------------------------------------------------------------

PLACE = QRect(60, 90, 640, 400)  # inside the offscreen platform's 800×800 screen (a place off it is moved)
#: What the offscreen platform says when the main window and the player view are raised.
OFFSCREEN = pytest.mark.qt_log_ignore(r"This plugin does not support (raise|propagateSizeHints)\(\)")


def _open_player_view(window_factory: WindowFactory, qtbot: QtBot) -> PlayerView:
    window = window_factory(sample="sr3")
    window.on_player_view()
    view = window.player_view
    assert view is not None
    qtbot.waitExposed(view)
    return view


@OFFSCREEN
def test_the_player_view_opens_where_the_gm_put_it_last_time(open_window: WindowFactory, qtbot: QtBot) -> None:
    view = _open_player_view(open_window, qtbot)
    assert not load_settings().player_view_geometry  # a fresh BOJOVKA_HOME: Qt's place
    view.setGeometry(PLACE)  # moved to the projector and sized to it
    qtbot.waitUntil(lambda: view.geometry() == PLACE)
    view.close()  # the GM closes it
    assert load_settings().player_view_geometry
    again = _open_player_view(open_window, qtbot)  # the next run
    assert again.geometry() == PLACE


@OFFSCREEN
def test_closing_the_window_keeps_the_player_views_place(open_window: WindowFactory, qtbot: QtBot) -> None:
    view = _open_player_view(open_window, qtbot)
    view.setGeometry(PLACE.translated(20, 10))
    qtbot.waitUntil(lambda: view.geometry() == PLACE.translated(20, 10))
    owner = open_window.opened[-1]
    owner.close()  # quitting Bojovka with the player view open
    assert not view.isVisible()
    assert _open_player_view(open_window, qtbot).geometry() == PLACE.translated(20, 10)


def test_a_one_line_heading_sits_on_the_line_of_a_two_line_one_beside_it(qtbot: QtBot) -> None:
    """"Wounds" beside "Shadow damage" wrapped on two lines: both start on the top line (not "Wounds" a line
    lower, level with the second half of its neighbour), so the headings read as one row over the bars."""
    panel = PartyPanel()
    qtbot.addWidget(panel)
    panel.set_entries([PartyEntry("Aleš", "", (("Wounds", 2, 10), ("Shadow damage", 1, 10)))])
    line = panel.fontMetrics().lineSpacing()
    for width in range(400, 60, -4):
        panel.resize(width, 200)
        wounds, shadow = panel.heading_places()
        if shadow.height() > wounds.height() + line // 2:  # "Shadow damage" wraps, "Wounds" does not
            break
    else:
        pytest.fail("no width wraps one heading and not the other")
    assert wounds.top() == shadow.top()
