"""Export any chart as PNG or SVG, chosen by the file name the GM types."""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")

import pyqtgraph.exporters as pg_exporters
from PySide6.QtCore import QRectF, QSize
from PySide6.QtGui import QPainter
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QFileDialog, QGraphicsItem, QGraphicsScene, QWidget

from app.i18n import _

SUFFIXES = (".png", ".svg")
DEFAULT_DPI = 96


class ChartExportError(Exception):
    """The chart could not be written; the message is for the GM."""


def export_chart(item: QGraphicsItem, path: Path) -> Path:
    """Write ``item`` (a plot item or layout of a chart) to ``path`` as PNG or SVG; return the path written."""
    suffix = path.suffix.lower() or ".png"
    if suffix not in SUFFIXES:
        raise ChartExportError(_("Charts can be saved as PNG or SVG, not {suffix}.").format(suffix=path.suffix))
    target = path if path.suffix else path.with_suffix(suffix)
    try:
        if suffix == ".png":
            pg_exporters.ImageExporter(item).export(str(target))
        else:
            _write_svg(item, target)
    except OSError as error:
        raise ChartExportError(_("Could not save the chart to {path}: {reason}").format(
            path=target, reason=error.strerror or error)) from error
    if not target.is_file():
        raise ChartExportError(_("Could not save the chart to {path}.").format(path=target))
    return target


def _write_svg(item: QGraphicsItem, target: Path) -> None:
    # pyqtgraph's own SVG exporter fails on the SVG Qt 6.11 writes ("x,y = c.split(',')"), so render the
    # item's part of the scene through Qt's SVG generator instead: vector output, the same look as on screen.
    scene: QGraphicsScene | None = item.scene()
    if scene is None:
        raise ChartExportError(_("The chart is not shown, so it cannot be saved."))
    source = item.sceneBoundingRect()
    generator = QSvgGenerator()
    generator.setFileName(str(target))
    # Axes replay QPictures recorded at the screen's resolution; a QPicture played on a device of another
    # resolution is rescaled, so the SVG must have the screen's (else axes shrink away from the data).
    views = scene.views()
    generator.setResolution(views[0].logicalDpiX() if views else DEFAULT_DPI)
    generator.setSize(QSize(int(source.width()), int(source.height())))
    generator.setViewBox(QRectF(0, 0, source.width(), source.height()))
    generator.setTitle(_("Bojovka chart"))
    painter = QPainter(generator)
    try:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        scene.render(painter, QRectF(0, 0, source.width(), source.height()), source)
    finally:
        painter.end()


def ask_export_path(parent: QWidget, suggested_name: str) -> Path | None:
    """Ask where to save a chart; ``None`` when the GM cancels."""
    filters = ";;".join((_("PNG image (*.png)"), _("SVG drawing (*.svg)")))
    name, chosen_filter = QFileDialog.getSaveFileName(parent, _("Export chart"), suggested_name, filters)
    if not name:
        return None
    path = Path(name)
    if not path.suffix:
        path = path.with_suffix(".svg" if "*.svg" in chosen_filter else ".png")
    return path
