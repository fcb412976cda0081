"""The odds chart: bars, cumulative views, mean and spread, the pool-size curves and the mark all come from
the odds engine's distribution; export writes PNG and SVG; the colours follow the theme."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QApplication, QMessageBox
from pytestqt.qtbot import QtBot

from rules import odds
from rules.odds import Dist
from rules.systems.sr3.odds import successes_distribution
from ui.charts import odds_chart
from ui.charts.chart_style import BLUE, ORANGE, SKY, VERMILLION
from ui.charts.odds_chart import OddsChart, number
from ui.charts.odds_data import OddsData, PoolSweep, View, categories, counts
from ui.games.sr3.odds import success_name, successes_chart
from ui.theme import apply_theme
from ui.widgets.odds_table import format_percent

TOLERANCE = 1e-12


def successes(dice: int, tn: int) -> Dist[float]:
    """The engine's SR3 success count, straight from the rules."""
    return Dist(0, tuple(successes_distribution(dice, tn)))


@pytest.fixture
def chart(qtbot: QtBot) -> OddsChart:
    widget = OddsChart()
    widget.resize(520, 260)
    qtbot.addWidget(widget)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


# --- the numbers ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("dice", "tn"), [(1, 2), (6, 4), (9, 5), (12, 13)])
def test_bars_are_the_engines_chances_in_every_view(chart: OddsChart, dice: int, tn: int) -> None:
    engine = successes(dice, tn)
    chart.set_data(successes_chart(dice, tn))
    assert chart.heights() == pytest.approx(list(engine.probs), abs=TOLERANCE)
    chart.set_view(View.AT_LEAST)
    assert chart.heights() == pytest.approx([engine.at_least(k) for k in range(dice + 1)], abs=TOLERANCE)
    chart.set_view(View.AT_MOST)
    assert chart.heights() == pytest.approx([engine.at_most(k) for k in range(dice + 1)], abs=TOLERANCE)


def test_mean_and_spread_are_the_distributions(chart: OddsChart) -> None:
    engine = successes(7, 5)
    chart.set_data(successes_chart(7, 5))
    assert chart.stats_text() == f"Successes: mean {number(engine.mean())} ± {number(engine.sd())}"
    assert engine.mean() == pytest.approx(7 * (2 / 6))  # the binomial's own mean, as a check on the engine


def test_categories_without_a_number_show_no_mean(chart: OddsChart) -> None:
    chart.set_data(categories([("Missed", "Miss", 0.25), ("Hit", "Hit", 0.75)], "Outcome"))
    assert chart.stats_text() == ""
    assert chart.heights() == [0.25, 0.75]
    assert chart.bars.tick_texts() == ["Miss", "Hit"]


def test_percentages_above_the_bars_and_on_hover(chart: OddsChart) -> None:
    engine = successes(4, 4)
    chart.set_data(successes_chart(4, 4))
    assert chart.bars.label_texts() == [format_percent(p) for p in engine.probs]
    assert chart.bars.hover_text(2) == f"2 successes: {format_percent(engine.probability(2))}"
    assert chart.bars.hover_text(9) == ""


def test_unknown_odds_show_the_outcomes_and_no_numbers(chart: OddsChart) -> None:
    chart.set_unknown(["Miss", "Hit"])
    assert chart.data() is None
    assert chart.heights() == [0.0, 0.0]
    assert chart.bars.label_texts() == ["", ""]
    assert chart.bars.hover_text(0) == "Miss: –"
    assert chart.stats_text() == "Mean –"


def test_a_note_states_the_answer(chart: OddsChart) -> None:
    data = counts(odds.sum_of(2, odds.die(6)), "Sum", str, note="Reaches 7: 58.3 %")
    chart.set_data(data)
    assert chart.stats_text().startswith("Reaches 7: 58.3 % · Sum: mean 7.00 ± ")


# --- the outcome rolled ---------------------------------------------------------------------------


def test_the_rolled_outcome_is_marked_by_colour_and_outline(chart: OddsChart) -> None:
    chart.set_data(successes_chart(5, 4))
    chart.highlight(success_name(3))
    assert chart.highlighted() == "3 successes"
    colours = chart.bars.colours()
    assert chart.bars.bar_brush(3) == colours.highlight
    assert chart.bars.bar_brush(2) == colours.bar
    assert colours.highlight != colours.bar
    chart.highlight(None)
    assert chart.bars.bar_brush(3) == colours.bar


def test_marking_an_outcome_moves_only_the_mark(chart: OddsChart) -> None:
    """The bars stay as they were; the rolled one's percentage turns bold and its tick always shows."""
    chart.set_data(successes_chart(5, 4))
    heights, labels = chart.heights(), chart.bars.label_texts()
    assert all(labels)  # room for every percentage
    chart.highlight(success_name(3))
    assert chart.heights() == heights and chart.bars.label_texts() == labels
    bold = [label.textItem.font().bold() for label in chart.bars._labels[:len(heights)]]
    assert bold == [index == 3 for index in range(len(heights))]
    chart.highlight(success_name(2))
    assert [label.textItem.font().bold() for label in chart.bars._labels[:len(heights)]] == [
        index == 2 for index in range(len(heights))]


def test_a_mark_stays_while_its_outcome_is_shown_and_goes_with_it(chart: OddsChart) -> None:
    chart.set_data(successes_chart(5, 4))
    chart.highlight("5 successes")
    chart.set_data(successes_chart(6, 4))  # the GM adds a die: 5 successes is still a bar
    assert chart.highlighted() == "5 successes"
    chart.set_data(successes_chart(3, 4))
    assert chart.highlighted() is None
    chart.highlight("no such outcome")
    assert chart.highlighted() is None


def test_ticks_make_room_for_each_other_but_the_rolled_one_always_shows(chart: OddsChart) -> None:
    words = [f"Outcome number {index}" for index in range(12)]
    rows = [(word, word, 1 / 12) for word in words]
    chart.set_data(categories(rows, "Outcome"))
    shown = chart.bars.tick_texts()
    assert 0 < len(shown) < len(words)
    chart.highlight(words[5])
    assert words[5] in chart.bars.tick_texts()
    chart.set_data(successes_chart(6, 4))
    assert chart.bars.tick_texts() == [str(k) for k in range(7)]  # short numbers all fit


# --- how many dice ----------------------------------------------------------------------------------


def test_pool_size_curves_are_the_engines_chances(chart: OddsChart) -> None:
    chart.set_data(successes_chart(6, 5))
    chart.set_view(View.BY_POOL)
    assert chart.shown_view() is View.BY_POOL
    sizes = range(1, 13)
    expected = [[successes(size, 5).at_least(k) for size in sizes] for k in (1, 2, 3, 4)]
    assert [list(curve.chances) for curve in chart.curves()] == [pytest.approx(row, abs=TOLERANCE)
                                                                 for row in expected]
    assert chart.curve.legend_texts() == ["1 success or more", "2 successes or more", "3 successes or more",
                                          "4 successes or more"]
    xs, ys = chart.curve.drawn(1)
    assert xs == list(map(float, sizes))
    assert ys == pytest.approx([100 * p for p in expected[1]], abs=1e-9)


def test_the_curve_plot_is_built_only_when_its_view_is_first_shown(chart: OddsChart) -> None:
    # Building a plot costs about 30 ms, and every attack dialog opens with a chart (issue 14).
    chart.set_data(successes_chart(6, 5))
    assert chart.stack.count() == 1 and chart.stack.currentWidget() is chart.bars
    chart.set_view(View.BY_POOL)
    assert chart.stack.count() == 2 and chart.stack.currentWidget() is chart.curve
    chart.set_view(View.EXACTLY)
    assert chart.stack.currentWidget() is chart.bars and chart.stack.count() == 2  # kept once made


def test_curves_follow_a_change_and_bars_come_back(chart: OddsChart) -> None:
    chart.set_data(successes_chart(6, 5))
    chart.set_view(View.BY_POOL)
    chart.set_data(successes_chart(6, 8))
    assert chart.curves()[0].chances[5] == pytest.approx(successes(6, 8).at_least(1))
    chart.set_view(View.EXACTLY)
    assert chart.curves() == []
    assert chart.heights() == pytest.approx(list(successes(6, 8).probs))


def test_no_pool_no_pool_view(chart: OddsChart) -> None:
    chart.set_data(categories([("Miss", "Miss", 0.5), ("Hit", "Hit", 0.5)], "Outcome"))
    chart.set_view(View.BY_POOL)
    assert chart.shown_view() is View.EXACTLY  # the bars stay: there is nothing to sweep
    assert chart.stack.currentWidget() is chart.bars


def test_a_sweep_needs_matching_names() -> None:
    dist = Dist(0, (0.5, 0.5))
    with pytest.raises(ValueError, match="one tick and one name"):
        OddsData(dist, ("a",), ("a", "b"), "axis")
    sweep = PoolSweep("Dice", range(1, 3), 1, lambda n: odds.binomial(n, 0.5), (5,), "{outcome} or more")
    data = OddsData(odds.binomial(1, 0.5), ("0", "1"), ("0", "1"), "Hits", sweep=sweep)
    assert [curve.label for curve in data.curves()] == ["5 or more"]  # past the chart: named by its number
    named = counts(odds.binomial(0, 0.5), "Hits", lambda k: f"{k} hits", sweep=sweep)
    assert [curve.label for curve in named.curves()] == ["5 hits or more"]  # or by the chart's own words


# --- export ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("view", [View.EXACTLY, View.BY_POOL])
def test_export_writes_png_and_svg(chart: OddsChart, tmp_path: Path, view: View) -> None:
    chart.set_data(successes_chart(6, 4))
    chart.set_view(view)
    png = chart.export(tmp_path / "odds.png")
    image = QImage(str(png))
    assert not image.isNull() and image.width() >= 300
    svg = chart.export(tmp_path / "odds.svg").read_text(encoding="utf-8")
    assert "<svg" in svg
    assert "mean" in svg or "Successes" in svg  # the saved drawing says what it shows
    assert not chart.bars.getPlotItem().titleLabel.isVisible()  # the title was only for the file


def test_export_button_asks_where_and_reports_a_failure(chart: OddsChart, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    chart.set_data(successes_chart(6, 4))
    target = tmp_path / "chosen.svg"
    monkeypatch.setattr(odds_chart, "ask_export_path", lambda _parent, name: target)
    chart.export_button.click()
    assert target.is_file()
    warnings: list[str] = []
    monkeypatch.setattr(odds_chart, "ask_export_path", lambda _parent, name: tmp_path / "missing" / "x.png")
    monkeypatch.setattr(QMessageBox, "warning", lambda _parent, _title, text: warnings.append(text))
    chart.export_button.click()
    assert warnings and "Could not save" in warnings[0]
    monkeypatch.setattr(odds_chart, "ask_export_path", lambda _parent, name: None)
    chart.export_button.click()  # cancelled: nothing happens
    assert len(warnings) == 1


# --- colours -----------------------------------------------------------------------------------------


def _luminance(colour: QColor) -> float:
    def channel(value: float) -> float:
        return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(colour.redF()) + 0.7152 * channel(colour.greenF()) + 0.0722 * channel(colour.blueF())


def _contrast(first: QColor, second: QColor) -> float:
    high, low = sorted((_luminance(first), _luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize(("theme", "bar", "mark"), [("light", BLUE, VERMILLION), ("dark", SKY, ORANGE)])
def test_colours_are_okabe_ito_and_readable_in_each_theme(qtbot: QtBot, theme: str, bar: str, mark: str) -> None:
    application = QApplication.instance()
    assert isinstance(application, QApplication)
    apply_theme(application, theme)
    try:
        widget = OddsChart()
        qtbot.addWidget(widget)
        widget.set_data(successes_chart(4, 4))
        colours = widget.bars.colours()
        assert colours.bar == QColor(bar) and colours.highlight == QColor(mark)
        assert colours.dark is (theme == "dark")
        assert _contrast(colours.text, colours.background) >= 7  # axis texts and percentages
        assert _contrast(colours.bar, colours.background) >= 3  # bars as graphics (WCAG 1.4.11)
        assert _contrast(colours.highlight, colours.background) >= 3
    finally:
        apply_theme(application, "light")


def test_a_theme_change_restyles_a_chart_already_shown(chart: OddsChart) -> None:
    application = QApplication.instance()
    assert isinstance(application, QApplication)
    chart.set_data(successes_chart(4, 4))
    try:
        apply_theme(application, "dark")
        QApplication.processEvents()
        assert chart.bars.colours().dark
        assert chart.bars.bar_brush(0) == QColor(SKY)
    finally:
        apply_theme(application, "light")
    QApplication.processEvents()
    assert chart.bars.bar_brush(0) == QColor(BLUE)
