"""A compact table of outcomes and their chances, one horizontal bar per row, painted directly.

Each attack dialog shows an :class:`ui.charts.odds_chart.OddsChart` beside it; both share a small API, so a
dialog drives them alike: the outcomes (``set_outcomes`` here, ``set_data`` there), ``set_unknown``, and
``highlight`` (the outcome that actually happened, by the row's label).
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QLocale, QRect, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import QSizePolicy, QWidget

from app.i18n import _
from ui.widgets.messages import as_written

#: Bars never get narrower than this, so a long label cannot squeeze them away.
MIN_BAR_WIDTH = 60
PREFERRED_BAR_WIDTH = 160
_PADDING = 4
_GAP = 8


def format_percent(probability: float) -> str:
    """A probability as the GM reads it: one decimal, and "<0.1 %" rather than a misleading 0.0 %."""
    percent = 100.0 * probability
    if 0.0 < percent < 0.05:
        return _("<0.1 %")
    if 99.95 <= percent < 100.0:
        return _(">99.9 %")
    # The decimal separator follows the GM's language (Czech, Polish and Russian write 12,5 %).
    return _("{percent} %").format(percent=QLocale().toString(percent, "f", 1))


class OddsTable(QWidget):
    """Outcome → percentage rows with a bar each; one row can be highlighted as what happened."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._rows: list[tuple[str, float]] = []
        self._known = True
        self._highlighted: str | None = None
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setAccessibleName(_("Odds of each outcome"))

    # --- API shared with the chart -------------------------------------------------------------
    def set_outcomes(self, outcomes: Sequence[tuple[str, float]]) -> None:
        """Show these (label, probability) rows, in order; the highlight stays if its label is still shown."""
        self._show([(label, min(1.0, max(0.0, float(p)))) for label, p in outcomes], known=True)

    def set_unknown(self, labels: Sequence[str]) -> None:
        """Show the outcomes without chances ("–"): the inputs cannot be worked out yet."""
        self._show([(label, 0.0) for label in labels], known=False)

    def _show(self, rows: list[tuple[str, float]], known: bool) -> None:
        if rows == self._rows and known == self._known:
            return
        resized = len(rows) != len(self._rows)
        self._rows, self._known = rows, known
        if self._highlighted not in {label for label, _p in rows}:
            self._highlighted = None
        self._refresh(resized)

    def highlight(self, label: str | None) -> None:
        """Mark the outcome that actually happened (None: no mark)."""
        if label == self._highlighted:
            return
        self._highlighted = label
        self._refresh(resized=False)

    # --- reading (tests, accessibility, the chart issue) ----------------------------------------
    def outcomes(self) -> list[tuple[str, float]]:
        """The rows shown, as (label, probability); none while the chances are unknown."""
        return list(self._rows) if self._known else []

    def highlighted(self) -> str | None:
        """The highlighted label, if any."""
        return self._highlighted

    def displayed(self) -> list[tuple[str, str]]:
        """The rows as the GM reads them: (label, percentage text)."""
        return [(label, format_percent(p) if self._known else "–") for label, p in self._rows]

    # --- geometry and painting -----------------------------------------------------------------
    def _row_height(self) -> int:
        return self.fontMetrics().height() + 2 * _PADDING

    def _bold_metrics(self) -> QFontMetrics:
        return QFontMetrics(self._bold_font())

    def _bold_font(self) -> QFont:
        font = QFont(self.font())
        font.setBold(True)
        return font

    def _label_width(self) -> int:
        # Measured in bold: the highlighted row must not clip.
        metrics = self._bold_metrics()
        return max((metrics.horizontalAdvance(label) for label, _p in self._rows), default=0)

    def _percent_width(self) -> int:
        return self._bold_metrics().horizontalAdvance(format_percent(1.0)) + _PADDING

    def _fixed_width(self) -> int:
        return self._label_width() + self._percent_width() + 2 * _GAP + 2 * _PADDING

    def sizeHint(self) -> QSize:
        """Room for every label, a comfortable bar and the widest percentage."""
        return QSize(self._fixed_width() + PREFERRED_BAR_WIDTH, max(1, len(self._rows)) * self._row_height())

    def minimumSizeHint(self) -> QSize:
        """Never clip a label or a percentage; only the bars shrink."""
        return QSize(self._fixed_width() + MIN_BAR_WIDTH, max(1, len(self._rows)) * self._row_height())

    def _refresh(self, resized: bool) -> None:
        self.setToolTip(as_written("\n".join(f"{label}: {percent}" for label, percent in self.displayed())))
        if resized:
            self.updateGeometry()
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:
        """Label, bar and percentage per row; the highlighted row in bold on a tinted band."""
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        for index, (label, probability) in enumerate(self._rows):
            self._paint_row(painter, index, label, probability)
        painter.end()

    def _paint_row(self, painter: QPainter, index: int, label: str, probability: float) -> None:
        palette = self.palette()
        height = self._row_height()
        row = QRect(0, index * height, self.width(), height)
        marked = label == self._highlighted
        if marked:
            band = QColor(palette.color(QPalette.ColorRole.Highlight))
            band.setAlpha(60)
            painter.fillRect(row, band)
        painter.setFont(self._bold_font() if marked else self.font())
        painter.setPen(palette.color(QPalette.ColorRole.WindowText))
        label_rect = QRect(_PADDING, row.top(), self._label_width(), height)
        painter.drawText(label_rect, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, label)
        percent_rect = QRect(row.right() - self._percent_width() - _PADDING, row.top(), self._percent_width(), height)
        align = Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight
        painter.drawText(percent_rect, align, format_percent(probability) if self._known else "–")
        self._paint_bar(painter, row, label_rect.right() + _GAP, percent_rect.left() - _GAP, probability, marked)

    def _paint_bar(
        self, painter: QPainter, row: QRect, left: int, right: int, probability: float, marked: bool
    ) -> None:
        palette = self.palette()
        inner = QRect(left, row.top() + _PADDING + 1, max(0, right - left), row.height() - 2 * _PADDING - 2)
        trough = QColor(palette.color(QPalette.ColorRole.Mid))
        trough.setAlpha(70)
        painter.fillRect(inner, trough)
        filled = QRect(inner)
        filled.setWidth(round(inner.width() * probability))
        colour = palette.color(QPalette.ColorRole.Highlight)
        painter.fillRect(filled, colour.darker(130) if marked else colour)
