"""The odds chart: bars of each outcome's chance (exactly / at least / at most), the mean and spread, a curve
over pool sizes, the outcome that was rolled marked, and export to PNG or SVG.

The widget computes nothing about a game: it reads the :class:`~ui.charts.odds_data.OddsData` a dialog or the
odds dock hands it. Its API follows :class:`~ui.widgets.odds_table.OddsTable` (``set_unknown``,
``highlight`` by the outcome's name), so a dialog drives both the same way.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QEvent, QLocale, QSize, Qt, Signal
from PySide6.QtGui import QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QSizePolicy,
    QStackedWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.i18n import N_, _
from ui.charts.bar_plot import BarPlot
from ui.charts.curve_plot import CurvePlot
from ui.charts.odds_data import Curve, OddsData, View
from ui.widgets.messages import as_written

#: View choices in the order the GM sees them.
VIEW_TEXTS = ((View.EXACTLY, N_("Exactly")), (View.AT_LEAST, N_("At least")), (View.AT_MOST, N_("At most")),
              (View.BY_POOL, N_("By pool size")))
VIEW_TIPS = {
    View.EXACTLY: N_("The chance of each outcome."),
    View.AT_LEAST: N_("The chance of this outcome or any to its right."),
    View.AT_MOST: N_("The chance of this outcome or any to its left."),
    View.BY_POOL: N_("How many dice does a result need? One line per result: its chance (or better) by pool size."),
}
#: The plot's comfortable height (in a dialog, where columns are full, and elsewhere), and the least it gives
#: up when a column runs short.
PLOT_HEIGHT, COMPACT_PLOT_HEIGHT, PLOT_MIN_HEIGHT = 160, 135, 100


def number(value: float) -> str:
    """A mean or spread as the GM's language writes it: two decimals below 10, one from there on."""
    return QLocale().toString(float(value), "f", 2 if abs(value) < 10 else 1)



def ask_export_path(parent: QWidget, name: str) -> Path | None:
    """Where to save a chart (:func:`ui.charts.export.ask_export_path`, imported on the first export)."""
    from ui.charts.export import ask_export_path as ask

    return ask(parent, name)

class ElidedLabel(QLabel):
    """A one-line label that shortens its text with "…" rather than widen its column; the tooltip has it all."""

    def __init__(self) -> None:
        super().__init__()
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setMinimumWidth(0)

    def setText(self, text: str) -> None:
        """Show ``text`` (elided when narrow) with a tooltip that explains the ± and gives it whole."""
        super().setText(text)
        self.setToolTip(_("{text}\n(mean ± standard deviation)").format(text=text) if text else "")

    def paintEvent(self, event: QPaintEvent) -> None:
        """Draw the text shortened to the width there is."""
        painter = QPainter(self)
        painter.setPen(self.palette().color(QPalette.ColorRole.WindowText))
        shown = self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight, self.width())
        painter.drawText(self.rect(), int(Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft), shown)
        painter.end()


class OddsChart(QWidget):
    """A chart of one question's odds; ``view_changed`` tells when the GM picks another view."""

    view_changed = Signal()

    def __init__(self, parent: QWidget | None = None, export_name: str = "", compact: bool = False) -> None:
        super().__init__(parent)
        self._compact = compact  # a dialog's chart: no axis title on screen (its box says what it is)
        self._data: OddsData | None = None
        self._unknown: list[str] = []
        self._highlighted: str | None = None
        self._curves: list[Curve] = []
        self.export_name = export_name or _("odds")
        self.view_box = QComboBox()
        for view, text in VIEW_TEXTS:
            self.view_box.addItem(_(text), view)
            self.view_box.setItemData(self.view_box.count() - 1, _(VIEW_TIPS[view]), Qt.ItemDataRole.ToolTipRole)
        self.view_box.setAccessibleName(_("Odds chart view"))
        self.stats = ElidedLabel()
        self.stats.setAccessibleName(_("Mean and spread"))
        self.export_button = QToolButton()
        self.export_button.setText(_("Export…"))
        self.export_button.setToolTip(_("Save this chart as a PNG image or an SVG drawing."))
        self.bars = BarPlot()
        self._curve: CurvePlot | None = None
        self.stack = QStackedWidget()
        self.stack.addWidget(self.bars)
        self.stack.setMinimumHeight(PLOT_MIN_HEIGHT)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.setAccessibleName(_("Odds chart"))
        self._build_layout()
        self.view_box.currentIndexChanged.connect(self._on_view)
        self.export_button.clicked.connect(self.ask_export)
        self._redraw()

    def _build_layout(self) -> None:
        bar = QHBoxLayout()
        bar.setContentsMargins(0, 0, 0, 0)
        bar.addWidget(self.view_box)
        bar.addStretch(1)
        bar.addWidget(self.export_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(bar)
        layout.addWidget(self.stats)  # a line of its own: the mean and spread of a long measure name fit
        layout.addWidget(self.stack, 1)

    def sizeHint(self) -> QSize:
        """Room for a readable chart under its row of controls."""
        return QSize(360, (COMPACT_PLOT_HEIGHT if self._compact else PLOT_HEIGHT) + 60)

    # --- what to show --------------------------------------------------------------------------
    def set_data(self, data: OddsData | None) -> None:
        """Show ``data`` (None: nothing to show); the highlight stays if its outcome is still there."""
        self._data, self._unknown = data, []
        if data is None or data.index_of(self._highlighted) is None:
            self._highlighted = None
        self._redraw()

    def set_unknown(self, ticks: Sequence[str]) -> None:
        """Show the outcomes without chances: the inputs cannot be worked out yet."""
        self._data, self._unknown, self._highlighted = None, list(ticks), None
        self._redraw()

    def highlight(self, name: str | None) -> None:
        """Mark the outcome that was rolled, by the name the odds table gives it (None: no mark)."""
        if name == self._highlighted:
            return
        self._highlighted = name if self._data is not None and self._data.index_of(name) is not None else None
        if self._data is not None and self.shown_view() is not View.BY_POOL:
            self.bars.set_highlighted(self._data.index_of(self._highlighted))  # the bars stand: only the mark moves
        else:
            self._redraw_bars()

    def set_view(self, view: View) -> None:
        """Show another view (the pool-size view only when the data has a sweep)."""
        self.view_box.setCurrentIndex(self.view_box.findData(view))

    # --- reading (tests, the dock, accessibility) ----------------------------------------------
    def data(self) -> OddsData | None:
        """What the chart shows (None while unknown or empty)."""
        return self._data

    def view(self) -> View:
        """The view chosen."""
        view = self.view_box.currentData()
        assert isinstance(view, View)
        return view

    def shown_view(self) -> View:
        """The view drawn: the pool-size view falls back to the bars when the data has no sweep."""
        view = self.view()
        return View.EXACTLY if view is View.BY_POOL and not self._has_sweep() else view

    def highlighted(self) -> str | None:
        """The name of the marked outcome."""
        return self._highlighted

    def heights(self) -> list[float]:
        """The bar heights drawn (chances, 0..1)."""
        return self.bars.heights()

    def curves(self) -> list[Curve]:
        """The lines of the pool-size view (computed when that view is shown)."""
        return list(self._curves)

    def stats_text(self) -> str:
        """The mean and spread line ("" when the outcomes are only categories)."""
        return self.stats.text()

    # --- drawing -------------------------------------------------------------------------------
    def _has_sweep(self) -> bool:
        return self._data is not None and self._data.sweep is not None

    @property
    def curve(self) -> CurvePlot:
        """The odds over pool sizes, made the first time that view is shown: a plot costs about 30 ms to build, and
        every attack dialog opens with a chart whose curve view most fights never show."""
        if self._curve is None:
            self._curve = CurvePlot()
            self._curve.restyle(self.palette())
            self.stack.addWidget(self._curve)
        return self._curve

    def _on_view(self) -> None:
        self._redraw()
        self.view_changed.emit()

    def _redraw(self) -> None:
        by_pool = self.shown_view() is View.BY_POOL
        self.stack.setCurrentWidget(self.curve if by_pool else self.bars)
        self.stats.setText(self._stats())
        self._set_pool_choice()
        if by_pool:
            self._redraw_curves()
        else:
            self._curves = []
            self._redraw_bars()

    def _set_pool_choice(self) -> None:
        # Offered only when the question has a pool to vary: a disabled item says why it is missing.
        item = self.view_box.model().item(self.view_box.findData(View.BY_POOL))  # type: ignore[attr-defined]
        item.setEnabled(self._has_sweep())

    def _redraw_bars(self) -> None:
        data = self._data
        if data is None:
            self.bars.show_bars(self._unknown, self._unknown, [0.0] * len(self._unknown), None, known=False)
            return
        self.bars.show_bars(data.ticks, data.names, data.chances(self.shown_view()),
                            data.index_of(self._highlighted))
        self.bars.setAccessibleDescription("; ".join(
            self.bars.hover_text(index) for index in range(len(data.ticks))))
        self.bars.set_axis_title(data.axis, shown=not self._compact)

    def _redraw_curves(self) -> None:
        data = self._data
        assert data is not None and data.sweep is not None
        self._curves = data.curves()
        self.curve.show_curves(data.sweep.sizes, self._curves, data.sweep.current, html.escape(data.sweep.axis))

    def _stats(self) -> str:
        data = self._data
        if data is None:
            return _("Mean –") if self._unknown else ""
        parts = [data.note] if data.note else []
        if data.measure is not None:
            parts.append(_("{what}: mean {mean} ± {spread}").format(
                what=data.measure_name, mean=number(data.measure.mean()), spread=number(data.measure.sd())))
        return " · ".join(parts)

    def changeEvent(self, event: QEvent) -> None:
        """Follow a theme change (the palette) and a font change."""
        super().changeEvent(event)
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.FontChange):
            # The children's palettes catch up after this event: hand them the chart's own.
            self.bars.restyle(self.palette())
            if self._curve is not None:
                self._curve.restyle(self.palette())
            self._redraw()

    # --- export --------------------------------------------------------------------------------
    def export(self, path: Path) -> Path:
        """Write the chart shown to ``path`` (PNG or SVG by its suffix); ChartExportError says what failed."""
        from ui.charts.export import export_chart  # pyqtgraph.exporters: only on export

        bars = self.stack.currentWidget() is self.bars
        item = (self.bars if bars else self.curve).getPlotItem()
        # A saved image must say what it shows: the view, the mean and spread, and what the axis counts.
        item.setTitle(html.escape(self._export_title()), color=self.bars.colours().text, size="9pt")
        if bars and self._data is not None:
            self.bars.set_axis_title(self._data.axis, shown=True)
        try:
            item.layout.activate()
            return export_chart(item, path)
        finally:
            item.setTitle(None)
            if bars and self._data is not None:
                self.bars.set_axis_title(self._data.axis, shown=not self._compact)

    def _export_title(self) -> str:
        view = self.view_box.currentText()
        stats = self.stats.text()
        return _("{view} · {stats}").format(view=view, stats=stats) if stats else view

    def ask_export(self) -> None:
        """Ask where to save the chart, then save it; a failure gets a message and changes nothing."""
        from ui.charts.export import ChartExportError  # pyqtgraph.exporters: only on export

        path = ask_export_path(self, f"{self.export_name}.png")
        if path is None:
            return
        try:
            self.export(path)
        except ChartExportError as problem:
            QMessageBox.warning(self, _("Export chart"), as_written(str(problem)))
