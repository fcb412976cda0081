"""The initiative chart: the seed's pass table on screen, updates without new items, scrubbing, export, themes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSize
from PySide6.QtGui import QColor, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from app.document import EncounterDocument
from rules.combatants import ApplyHarm
from rules.encounter import frozen_map
from rules.history import History
from rules.timeline import MarkKind
from rules.turns import DelayAction, NextTurn, RollInitiative, TakeDelayedAction
from tests.rules.sr3_scenes import EIGHT, eight_characters, play_round, roll_ones
from tests.rules.test_souboj_scene import fight
from tests.rules.test_souboj_scene import roll as souboj_roll
from tests.rules.test_walka_scenes import roll as walka_roll
from tests.rules.test_walka_scenes import table
from tests.ui.conftest import WindowFactory
from ui.charts.initiative_canvas import InitiativeCanvas
from ui.charts.initiative_chart import InitiativeChart, render_initiative_chart_image
from ui.charts.initiative_items import ColumnAxis, LaneAxis
from ui.charts.initiative_series import ChartSeries
from ui.charts.initiative_style import DARK, LIGHT, OKABE_ITO, ChartColors
from ui.theme import apply_theme
from ui.widgets.condition_track import contrast_ratio

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")

#: The seed's table: every character's score in each pass (37 → 27 → 17 → 7 …).
SEED: dict[str, list[tuple[int, int]]] = {
    name: [(n + 1, score - 10 * n) for n in range(4) if score - 10 * n > 0] for name, score in EIGHT.items()}


def _seed(rolled: bool = True) -> tuple[History, dict[str, str]]:
    history, ids = eight_characters()
    if rolled:
        roll_ones(history, ids)
    return history, ids


@pytest.fixture
def chart(qtbot: QtBot) -> Iterator[InitiativeChart]:
    history, _ids = _seed()
    widget = InitiativeChart(EncounterDocument(history))
    widget.resize(1000, 420)
    qtbot.addWidget(widget)
    widget.show()
    qtbot.waitExposed(widget)
    yield widget


def _document(chart: InitiativeChart) -> EncounterDocument:
    document = chart._document
    assert isinstance(document, EncounterDocument)
    return document


def _phases(series: ChartSeries, kind: MarkKind) -> dict[str, list[tuple[int, int]]]:
    """Read (pass, phase) back from the chart's x positions: each pass band counts down to its right edge."""
    xs, ys = series.points[kind]
    found: dict[str, list[tuple[int, int]]] = {name: [] for name in series.lane_names}
    for x, y in zip(xs, ys, strict=True):
        number, band = next((n, b) for n, b in enumerate(series.bands, start=1) if b.left <= x <= b.right)
        found[series.lane_names[int(y)]].append((number, round(band.right - x)))
    return {name: sorted(phases) for name, phases in found.items()}


# --- the seed's eight characters ------------------------------------------------------------------------


def test_at_the_roll_the_chart_shows_the_seeds_pass_table(chart: InitiativeChart) -> None:
    series = chart.canvas.series
    assert series.passes
    assert series.lane_names == tuple(EIGHT)
    shown = {name: sorted(_phases(series, MarkKind.ACTED)[name] + _phases(series, MarkKind.SCHEDULED)[name])
             for name in EIGHT}
    assert shown == SEED
    assert [band.title for band in series.bands] == ["Pass 1", "Pass 2", "Pass 3", "Pass 4"]
    mike = [label.text for label in series.labels if label.y == 0]
    assert sorted(mike, key=int, reverse=True) == ["37", "27", "17", "7"]
    assert series.now_x == series.bands[0].left  # Mike, phase 37: the top of pass 1
    assert chart.position.text() == "Turn 1 of 1"


def test_after_the_turn_every_mark_is_filled(chart: InitiativeChart) -> None:
    document = _document(chart)
    while document.state.clock.current is not None:
        document.apply(NextTurn())
    series = chart.canvas.series
    assert _phases(series, MarkKind.ACTED) == SEED
    assert series.points[MarkKind.SCHEDULED] == ((), ())
    assert series.now_x is None
    assert not chart.canvas.now_line.isVisible()


def test_a_wound_is_a_step_with_the_rolled_place_left_as_a_ghost(chart: InitiativeChart) -> None:
    document = _document(chart)
    for _turn in range(3):
        document.apply(NextTurn())  # Ganger 2 acts now, in phase 19
    dave = document.state.combatants["c3"].id
    document.apply(ApplyHarm(dave, "physical", 3))
    series = chart.canvas.series
    assert _phases(series, MarkKind.SCHEDULED)["Dave"] == [(2, 10)]
    assert _phases(series, MarkKind.PLANNED)["Dave"] == [(2, 12), (3, 2)]
    assert len(series.steps[0]) == 1 and "−2" in [label.text for label in series.labels]
    assert len(series.shift_links[0]) == 2  # one segment: 12 → 10 in pass 2


def test_a_delay_is_drawn_where_it_was_taken(chart: InitiativeChart) -> None:
    document = _document(chart)
    document.apply(DelayAction("c1"))
    document.apply(TakeDelayedAction("c1"))
    series = chart.canvas.series
    assert _phases(series, MarkKind.DELAYED)["Mike"] == [(1, 37)]
    assert _phases(series, MarkKind.TAKEN)["Mike"] == [(1, 26)]
    assert series.delay_links == ((series.bands[0].left, series.bands[0].left + 11), (0.0, 0.0))


def test_held_actions_taken_at_the_end_of_a_pass_are_numbered_in_tie_order(chart: InitiativeChart) -> None:
    """sr3.md: "actors at the end of a pass or turn: ordered as for tied initiative". Camilla holds hers into pass
    2 first, then Mike (27) and Ganger 3 (5) hold theirs to its end: all three are drawn at its end, numbered
    Mike 1., Ganger 3 2., Camilla 3."""
    document = _document(chart)
    ids = {combatant.name: combatant.id for combatant in document.state.combatants.values()}
    for _turn in range(7):
        document.apply(NextTurn())
    document.apply(DelayAction(ids["Camilla"], into_next_pass=True))
    document.apply(DelayAction(ids["Mike"]))
    while document.state.clock.current is not None and document.state.clock.current.ids != (ids["Ganger 3"],):
        document.apply(NextTurn())
    document.apply(DelayAction(ids["Ganger 3"]))
    for _taken in range(3):
        document.apply(NextTurn())
    series = chart.canvas.series
    assert {name: phases for name, phases in _phases(series, MarkKind.TAKEN).items() if phases} == {
        "Mike": [(2, 0)], "Ganger 3": [(2, 0)], "Camilla": [(2, 0)]}
    numbered = {series.lane_names[round(label.y)]: label.text for label in series.labels if label.text.endswith(".")}
    assert numbered == {"Mike": "1.", "Ganger 3": "2.", "Camilla": "3."}


def test_a_last_action_moved_on_pass_by_pass_is_held_there_and_taken_at_the_end_of_the_turn(
        chart: InitiativeChart) -> None:
    """Camilla (9) holds her only action and moves it on at the end of passes 1, 2 and 3 (sr3.md: "Last actions of
    the turn may be held through later passes to the end of the turn"): held squares, one diamond at the end."""
    document = _document(chart)
    camilla = next(c.id for c in document.state.combatants.values() if c.name == "Camilla")
    while document.state.clock.current is not None and document.state.clock.current.ids != (camilla,):
        document.apply(NextTurn())
    document.apply(DelayAction(camilla))
    for _pass in range(3):
        while document.state.clock.current is not None and document.state.clock.current.ids != (camilla,):
            document.apply(NextTurn())
        document.apply(DelayAction(camilla, into_next_pass=True))
    while document.state.clock.current is not None:
        document.apply(NextTurn())
    series = chart.canvas.series
    assert _phases(series, MarkKind.DELAYED)["Camilla"] == [(1, 9), (2, 0), (3, 0)]
    assert _phases(series, MarkKind.TAKEN)["Camilla"] == [(4, 0)]


# --- incremental updates ----------------------------------------------------------------------------------


def test_an_operation_changes_data_not_items(chart: InitiativeChart) -> None:
    canvas = chart.canvas
    scene = canvas.scene()
    items = [*canvas.marks.values(), canvas.steps, canvas.now_ring, canvas.delay_links, canvas.shift_links,
             canvas.group_links, canvas.texts, canvas.now_line, canvas.lane_axis, canvas.legend]
    identities = [id(item) for item in items]
    in_scene = len(scene.items())
    acted_before = len(canvas.series.points[MarkKind.ACTED][0])
    _document(chart).apply(NextTurn())
    assert len(canvas.series.points[MarkKind.ACTED][0]) == acted_before + 1
    assert canvas.marks[MarkKind.ACTED].data.size == acted_before + 1  # the scatter item got the new point
    assert [id(item) for item in items] == identities
    assert len(scene.items()) == in_scene
    assert all(item.scene() is scene for item in canvas.marks.values())


def test_a_hidden_chart_catches_up_when_shown(chart: InitiativeChart) -> None:
    chart.hide()
    _document(chart).apply(NextTurn())
    _document(chart).apply(NextTurn())
    assert len(chart.canvas.series.points[MarkKind.ACTED][0]) == 1  # nothing redrawn while hidden
    chart.show()
    assert len(chart.canvas.series.points[MarkKind.ACTED][0]) == 3


def test_undo_takes_the_mark_back(chart: InitiativeChart) -> None:
    document = _document(chart)
    document.apply(NextTurn())
    document.undo_stack.undo()
    assert len(chart.canvas.series.points[MarkKind.ACTED][0]) == 1


# --- scrubbing ---------------------------------------------------------------------------------------------


def test_scrubbing_back_shows_an_earlier_turn_and_stays_there(chart: InitiativeChart) -> None:
    document = _document(chart)
    while document.state.clock.current is not None:
        document.apply(NextTurn())
    ids = list(document.state.combatants)
    document.apply(RollInitiative(frozen_map(dict.fromkeys(ids, (1,))), frozen_map(dict.fromkeys(ids, ()))))
    assert (chart.slider.maximum(), chart.slider.value()) == (2, 2)
    assert chart.position.text() == "Turn 2 of 2"
    assert chart.canvas.series.title.startswith("Round 2")
    chart.slider.setValue(1)
    assert chart.position.text() == "Turn 1 of 2"
    assert _phases(chart.canvas.series, MarkKind.ACTED) == SEED
    document.apply(NextTurn())
    assert chart.canvas.series.title.startswith("Round 1")  # scrubbed back: it does not jump away
    chart.slider.setValue(2)
    document.apply(NextTurn())
    assert chart.following and chart.canvas.series.title.startswith("Round 2")


def test_before_the_roll_the_chart_says_what_to_do(qtbot: QtBot) -> None:
    history, _ids = _seed(rolled=False)
    widget = InitiativeChart(EncounterDocument(history))
    qtbot.addWidget(widget)
    widget.show()
    assert widget.canvas.series.empty
    assert widget.position.text() == "No turns yet"
    assert not widget.slider.isEnabled()


# --- round-based games -------------------------------------------------------------------------------------


def test_a_souboj_tie_is_one_column_joined_by_a_bar(qtbot: QtBot) -> None:
    history, ids = fight()
    souboj_roll(history, ids, Aleš=6, Bora=4, Cyril=4, Bandit=4, Chief=1)
    widget = InitiativeChart(EncounterDocument(history))
    qtbot.addWidget(widget)
    widget.show()
    series = widget.canvas.series
    assert not series.passes and widget.position.text() == "Round 1 of 1"
    assert [text for _x, text in series.bands[0].ticks] == ["6", "4", "1"]
    xs, ys = series.group_links
    assert xs == (1.0, 1.0) and ys == (1.0, 3.0)  # Bora (lane 1) down to the Bandit (lane 3), one column
    scheduled = dict(zip(series.points[MarkKind.SCHEDULED][1], series.points[MarkKind.SCHEDULED][0], strict=True))
    assert scheduled == {1.0: 1.0, 2.0: 1.0, 3.0: 1.0, 4.0: 2.0}


def test_walka_columns_are_labelled_with_the_seats(qtbot: QtBot) -> None:
    history, _ids = table()
    walka_roll(history, Ania=8, Bartek=5, Celina=2, GM=11)
    widget = InitiativeChart(EncounterDocument(history))
    qtbot.addWidget(widget)
    widget.show()
    assert [text for _x, text in widget.canvas.series.bands[0].ticks] == ["Celina", "GM", "Ania", "Bartek"]


# --- export, images, themes ---------------------------------------------------------------------------------


def test_export_png_and_svg(chart: InitiativeChart, tmp_path: Path) -> None:
    png = chart.export_to(tmp_path / "chart.png")
    assert png is not None
    image = QImage(str(png))
    assert image.width() >= 900
    assert image.pixelColor(2, 2) == QColor(LIGHT.background)  # never transparent
    svg = chart.export_to(tmp_path / "chart.svg")
    assert svg is not None
    text = svg.read_text(encoding="utf-8")
    assert "<svg" in text and "Camilla" in text


def _extent(image: QImage, colour: QColor, columns: range) -> tuple[int, int]:
    """Top and bottom row where pixels close to ``colour`` appear within ``columns``."""
    def near(pixel: QColor) -> bool:
        return max(abs(pixel.red() - colour.red()), abs(pixel.green() - colour.green()),
                   abs(pixel.blue() - colour.blue())) < 40

    rows = [y for y in range(image.height()) for x in columns if near(image.pixelColor(x, y))]
    return min(rows), max(rows)


def test_svg_axes_line_up_with_the_marks(chart: InitiativeChart, tmp_path: Path) -> None:
    svg = chart.export_to(tmp_path / "chart.svg")
    assert svg is not None
    renderer = QSvgRenderer(str(svg))
    image = QImage(renderer.defaultSize(), QImage.Format.Format_ARGB32)
    image.fill(QColor(LIGHT.background))
    painter = QPainter(image)
    renderer.render(painter)
    painter.end()
    axis_width = int(chart.canvas.lane_axis.width())
    names = _extent(image, QColor(LIGHT.text), range(0, axis_width, 2))
    marks = _extent(image, QColor(LIGHT.turn), range(axis_width, image.width() // 2, 2))
    # Mike's name on the first lane, Camilla's on the last: the names span the marks' rows.
    assert abs(names[0] - marks[0]) < 20 and abs(names[1] - marks[1]) < 20


def test_export_failure_is_explained(chart: InitiativeChart, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shown: list[str] = []
    monkeypatch.setattr("ui.charts.initiative_chart.QMessageBox.warning",
                        lambda _parent, _title, text: shown.append(text))
    assert chart.export_to(tmp_path / "missing" / "chart.png") is None
    assert shown and "Could not save" in shown[0]


def test_the_chart_image_is_drawn_without_a_window() -> None:
    history, _ids = _seed()
    play_round(history)
    image = render_initiative_chart_image(history, QSize(900, 420))
    assert (image.width(), image.height()) == (900, 420)
    colors = {image.pixelColor(x, y).name() for x in range(0, 900, 7) for y in range(0, 420, 7)}
    assert OKABE_ITO["blue"].lower() in colors  # the acted marks
    assert LIGHT.background in colors


def test_the_dark_theme_switches_the_chart(chart: InitiativeChart) -> None:
    application = QApplication.instance()
    assert isinstance(application, QApplication)
    try:
        apply_theme(application, "dark")
        QApplication.processEvents()
        assert chart.canvas.colors is DARK
        assert chart.canvas.lane_axis.textPen().color() == QColor(DARK.text)
        assert chart.canvas.marks[MarkKind.ACTED].opts["brush"].color() == QColor(DARK.turn)
    finally:
        apply_theme(application, "light")
        QApplication.processEvents()
    assert chart.canvas.colors is LIGHT


@pytest.mark.parametrize("colors", [LIGHT, DARK], ids=["light", "dark"])
def test_every_colour_stands_out_from_the_background(colors: ChartColors) -> None:
    background = QColor(colors.background)
    for value in (colors.text, colors.turn, colors.delay, colors.wound, colors.ghost, colors.group, colors.now):
        assert contrast_ratio(QColor(value), background) >= 3.0, value
    assert contrast_ratio(QColor(colors.text), QColor(colors.lane)) >= 4.5


def test_dense_lanes_are_thinned_on_the_axis(qtbot: QtBot) -> None:
    axis = LaneAxis("left")
    axis.set_names([f"Fighter {n}" for n in range(300)])
    ((step, values),) = axis.tickValues(-0.5, 299.5, 300.0)
    assert step > 1 and len(values) <= 300 / step + 1
    assert axis.tickStrings(values[:2], 1.0, step) == ["Fighter 0", f"Fighter {int(step)}"]
    columns = ColumnAxis("bottom")
    columns.set_labels([(float(x), str(x)) for x in range(100)])
    ((_spacing, shown),) = columns.tickValues(0.0, 99.0, 200.0)
    assert 1 < len(shown) < 100


def test_the_canvas_renders_offscreen_in_both_themes(qtbot: QtBot) -> None:
    canvas = InitiativeCanvas()
    qtbot.addWidget(canvas)
    for colors in (LIGHT, DARK):
        canvas.apply_colors(colors)
        assert canvas.backgroundBrush().color() == QColor(colors.background)
        assert canvas.legend.opts["labelTextColor"] is not None


# --- in the main window ---------------------------------------------------------------------------------------


def _settle(qtbot: QtBot, window: QWidget) -> None:
    qtbot.waitExposed(window)
    for _round in range(3):  # the first paint, and the zero-timers it starts
        QApplication.processEvents()


def _drawn_like_a_chart_built_now(chart: InitiativeChart, document: EncounterDocument, qtbot: QtBot) -> None:
    fresh = InitiativeChart(document)
    qtbot.addWidget(fresh)
    fresh.refresh()
    assert chart.canvas.series.lane_names == fresh.canvas.series.lane_names
    assert chart.canvas.series.now_x == fresh.canvas.series.now_x and chart.canvas.series.now_x is not None
    assert chart.position.text() == fresh.position.text()


def test_the_chart_behind_the_log_is_built_when_its_tab_is_first_chosen(open_window: WindowFactory,
                                                                       qtbot: QtBot) -> None:
    """Start-up (issue 14): the chart tab behind the log is not built for the first paint; chosen, it draws."""
    window = open_window(sample="sr3", seed=3)
    window.show()
    _settle(qtbot, window)
    assert window._chart_content.content is None
    window.session.next_turn()  # the fight goes on while the chart is not built
    window.chart_dock.raise_()  # the GM clicks its tab
    qtbot.waitUntil(lambda: window._chart_content.content is not None)
    chart = window.initiative_chart
    qtbot.waitUntil(lambda: chart.on_screen)
    _drawn_like_a_chart_built_now(chart, window.document, qtbot)
    window.session.next_turn()  # on screen now: it follows the fight
    _drawn_like_a_chart_built_now(chart, window.document, qtbot)


def test_a_chart_in_front_at_start_up_is_drawn_right_after_the_first_paint(open_window: WindowFactory,
                                                                           qtbot: QtBot) -> None:
    """A layout the GM left with the chart's tab in front: the chart is built after the first paint and drawn."""
    window = open_window(sample="sr3", seed=3)
    window.chart_dock.raise_()
    window.show()
    qtbot.waitUntil(lambda: window._chart_content.content is not None)
    chart = window.initiative_chart
    qtbot.waitUntil(lambda: chart.on_screen)
    _drawn_like_a_chart_built_now(chart, window.document, qtbot)


def test_the_view_action_shows_the_chart_dock(open_window: WindowFactory) -> None:
    window = open_window(sample="sr3", seed=3)
    window.show()
    QApplication.processEvents()
    chart = window.initiative_chart
    assert not chart.on_screen  # a tab behind the combat log at first: it draws nothing
    drawn = chart.canvas.series
    window.session.next_turn()
    assert chart.canvas.series is drawn
    action = window.actions_by_name["initiative_chart"]
    assert action.shortcut().toString() == "Ctrl+Shift+T"
    action.trigger()
    QApplication.processEvents()
    assert chart.on_screen
    series = chart.canvas.series
    assert series.passes and len(series.lanes) == len(window.document.state.combatants)
    assert series is not drawn and series.now_x is not None
