"""Any chart can be saved as PNG or SVG; other suffixes and unwritable places get a clear message."""

from __future__ import annotations

from pathlib import Path

import pyqtgraph as pg
import pytest
from PySide6.QtGui import QImage
from pytestqt.qtbot import QtBot

from ui.charts.export import ChartExportError, export_chart


@pytest.fixture
def plot(qtbot: QtBot) -> pg.PlotWidget:
    widget = pg.PlotWidget()
    widget.plot([1, 2, 3], [3, 1, 2])
    widget.resize(400, 300)
    qtbot.addWidget(widget)
    widget.show()
    return widget


def test_png_is_an_image_of_the_chart(plot: pg.PlotWidget, tmp_path: Path) -> None:
    written = export_chart(plot.getPlotItem(), tmp_path / "odds.png")
    image = QImage(str(written))
    assert not image.isNull()
    assert image.width() >= 300


def test_svg_is_a_vector_drawing(plot: pg.PlotWidget, tmp_path: Path) -> None:
    written = export_chart(plot.getPlotItem(), tmp_path / "odds.svg")
    text = written.read_text(encoding="utf-8")
    assert text.lstrip().startswith("<?xml")
    assert "<svg" in text
    assert "<path" in text or "<polyline" in text


def test_name_without_suffix_becomes_png(plot: pg.PlotWidget, tmp_path: Path) -> None:
    assert export_chart(plot.getPlotItem(), tmp_path / "odds").suffix == ".png"


def test_unknown_suffix_is_refused_with_a_message(plot: pg.PlotWidget, tmp_path: Path) -> None:
    with pytest.raises(ChartExportError, match="PNG or SVG"):
        export_chart(plot.getPlotItem(), tmp_path / "odds.gif")


def test_unwritable_place_is_reported(plot: pg.PlotWidget, tmp_path: Path) -> None:
    with pytest.raises(ChartExportError, match="Could not save"):
        export_chart(plot.getPlotItem(), tmp_path / "missing" / "odds.png")
