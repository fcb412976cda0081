"""The initiative chart dock: who acted where in each pass (SR3) or in each round's order (the other games).

:class:`InitiativeChart` keeps a :class:`~rules.timeline.Timeline` of the document's history, catches it up
after every change and hands the shown turn's series to an
:class:`~ui.charts.initiative_canvas.InitiativeCanvas`. A slider scrubs back to any earlier turn (it follows
the fight while it sits at the latest one); the export button saves the chart as PNG or SVG. A hidden chart
does nothing until it is shown again.

:func:`render_initiative_chart_image` draws the chart into an image without any window (printed summary).
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from PySide6.QtCore import QEvent, QSize, Qt
from PySide6.QtGui import QImage, QShowEvent
from PySide6.QtWidgets import QApplication, QHBoxLayout, QLabel, QMessageBox, QPushButton, QSlider, QVBoxLayout, QWidget

from app.document import Change, EncounterDocument
from app.i18n import _
from rules.history import History
from rules.timeline import Timeline, TurnTimeline, has_passes
from ui.charts.initiative_canvas import InitiativeCanvas, render_image
from ui.charts.initiative_series import series_for
from ui.charts.initiative_style import DARK, LIGHT, colors_for
from ui.widgets.messages import as_written

#: Rounds shown side by side in a round-based game (the scrubbed one is the last).
ROUND_WINDOW: Final[int] = 4
DEFAULT_IMAGE_SIZE: Final[QSize] = QSize(1200, 640)


def turns_to_show(timeline: Timeline, round_no: int | None = None) -> list[TurnTimeline]:
    """The turns a chart of ``round_no`` shows (None: the latest): one turn with passes, else a few rounds."""
    rounds = timeline.rounds
    if not rounds:
        return []
    last = rounds.index(round_no) if round_no in rounds else len(rounds) - 1
    first = last if has_passes(timeline.system) else max(0, last - ROUND_WINDOW + 1)
    return [timeline.turn(number) for number in rounds[first:last + 1]]


class InitiativeChart(QWidget):
    """The dock's widget: the chart, a scrubber through the fight's turns and an export button."""

    def __init__(self, document: EncounterDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._document = document
        self._timeline = Timeline(document.history)
        self._dirty = True
        self.canvas = InitiativeCanvas()
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setObjectName("initiative_chart_scrubber")
        self.slider.setRange(1, 1)
        self.slider.setPageStep(1)
        self.slider.setToolTip(_("Scrub back to an earlier turn; at the right end the chart follows the fight"))
        self.position = QLabel()
        self.export_button = QPushButton(_("Export…"))
        self.export_button.setToolTip(_("Save the chart as a PNG image or an SVG drawing"))
        self._lay_out()
        self.slider.valueChanged.connect(self._on_scrubbed)
        self.export_button.clicked.connect(self.export)
        document.changed.connect(self._on_changed)
        document.replaced.connect(self._on_replaced)
        self.canvas.apply_colors(colors_for(self.palette()))

    def _lay_out(self) -> None:
        controls = QHBoxLayout()
        controls.addWidget(self.position)
        controls.addWidget(self.slider, 1)
        controls.addWidget(self.export_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(self.canvas, 1)
        layout.addLayout(controls)

    @property
    def timeline(self) -> Timeline:
        """The timeline the chart reads (kept up to date with the document)."""
        return self._timeline

    @property
    def following(self) -> bool:
        """Whether the chart shows the latest turn (and so follows the fight)."""
        return self.slider.value() >= self.slider.maximum()

    # --- keeping up ---------------------------------------------------------------------------------
    @property
    def on_screen(self) -> bool:
        """Whether the GM can see the chart (a dock in a tab behind another one is "visible" but off screen)."""
        return self.isVisible() and not self.visibleRegion().isEmpty()

    def _on_changed(self, _change: Change) -> None:
        if not self.on_screen:
            self._dirty = True  # caught up when shown: a chart nobody sees costs nothing per operation
            return
        self.refresh()

    def _on_replaced(self) -> None:
        self._timeline = Timeline(self._document.history)
        self.slider.setValue(self.slider.maximum())
        self._dirty = True
        self.catch_up()

    def catch_up(self) -> None:
        """Redraw if something happened while the chart was out of sight (its dock's tab was chosen, say)."""
        if self._dirty and self.on_screen:
            self.refresh()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._dirty:
            self.refresh()

    def refresh(self) -> None:
        """Read what happened since the last refresh and redraw the shown turn if it changed."""
        self._dirty = False
        following = self.following
        self._timeline.sync()
        count = len(self._timeline.rounds)
        self.slider.blockSignals(True)
        self.slider.setMaximum(max(1, count))
        if following:
            self.slider.setValue(self.slider.maximum())
        self.slider.blockSignals(False)
        self.slider.setEnabled(count > 1)
        self._show()

    def _on_scrubbed(self, _value: int) -> None:
        self._show()

    def _show(self) -> None:
        rounds = self._timeline.rounds
        shown = rounds[min(self.slider.value(), len(rounds)) - 1] if rounds else None
        self.canvas.show_series(series_for(turns_to_show(self._timeline, shown), self._timeline.system.time_units()))
        self.position.setText(self._position_text(rounds.index(shown) + 1 if shown else 0, len(rounds)))

    def _position_text(self, number: int, count: int) -> str:
        if not count:
            return _("No turns yet")
        return _(self._timeline.system.time_units().position).format(number=number, count=count)

    # --- theme and export ---------------------------------------------------------------------------
    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self.canvas.apply_colors(colors_for(self.palette()))

    def export(self) -> None:
        """Ask where to save the chart and save it; a failure is explained, never raised."""
        from ui.charts.export import ask_export_path  # pyqtgraph.exporters: only on export

        path = ask_export_path(self, _("initiative-chart.png"))
        if path is not None:
            self.export_to(path)

    def export_to(self, path: Path) -> Path | None:
        """Save the chart to ``path`` (PNG or SVG by its suffix); None after telling the GM why it failed."""
        from ui.charts.export import ChartExportError, export_chart  # pyqtgraph.exporters: only on export

        try:
            return export_chart(self.canvas.chart_item(), path)
        except ChartExportError as problem:
            QMessageBox.warning(self, _("Export chart"), as_written(str(problem)))
            return None


def render_initiative_chart_image(source: EncounterDocument | History, size: QSize = DEFAULT_IMAGE_SIZE,
                                  round_no: int | None = None, dark: bool = False, pixel_ratio: float = 1.0
                                  ) -> QImage:
    """The initiative chart of a fight as an image, drawn without showing any window.

    ``source`` is the open document or any history; ``round_no`` picks the turn (None: the latest; round-based
    games show it with up to three rounds before it). Light colours unless ``dark``, as paper wants.
    """
    history = source.history if isinstance(source, EncounterDocument) else source
    timeline = Timeline(history)
    timeline.sync()
    canvas = InitiativeCanvas()
    # Layouts (the names axis, the legend beside the plot) only settle in a shown widget: show it where no
    # screen displays it, let the layout run, then draw.
    canvas.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen, True)
    try:
        canvas.apply_colors(DARK if dark else LIGHT)
        canvas.resize(size)
        canvas.show()
        canvas.show_series(series_for(turns_to_show(timeline, round_no), timeline.system.time_units()))
        QApplication.processEvents()
        return render_image(canvas, size, pixel_ratio)
    finally:
        canvas.hide()
        canvas.deleteLater()
