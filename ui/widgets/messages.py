"""One way to tell the GM something in a dialog: a label whose text turns red for problems; and the main window's
line of reminders."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPalette
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

ERROR_ON_LIGHT = QColor("#c92a2a")
ERROR_ON_DARK = QColor("#ff8787")
SEPARATOR: Final[str] = "  ·  "


def error_color(palette: QPalette) -> QColor:
    """A red that reads well on the palette's window colour (light or dark theme)."""
    return ERROR_ON_DARK if palette.color(QPalette.ColorRole.Window).lightness() < 128 else ERROR_ON_LIGHT


def show_message(label: QLabel, text: str, error: bool = True) -> None:
    """Put ``text`` on ``label``; a problem is drawn in red.

    The colour is set in the label's palette, so it also works in a dialog opened without the main window's
    style sheet; the ``error`` property lets a style sheet restyle it.
    """
    palette = label.palette()
    parent = label.parentWidget()
    base = parent.palette() if parent is not None else QPalette()
    palette.setColor(QPalette.ColorRole.WindowText,
                     error_color(palette) if error and text else base.color(QPalette.ColorRole.WindowText))
    label.setPalette(palette)
    label.setProperty("error", bool(error and text))
    label.setText(text)
    label.style().unpolish(label)  # a dynamic property only restyles after a re-polish
    label.style().polish(label)


def text_label(rich: bool = False) -> QLabel:
    """A wrapping, selectable label: plain text (names the GM typed are never markup) unless ``rich``."""
    label = QLabel()
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.RichText if rich else Qt.TextFormat.PlainText)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


class ReminderLine(QLabel):
    """One line of reminders under the round label that keeps its place while hidden, so the table never jumps.

    Several reminders share the line; when they do not fit, each is shortened to its share of it (so a long one
    never hides the next); the tooltip has them in full, one a line. ``text()`` is the whole line.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWordWrap(False)
        policy = QSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)  # never widens the window
        policy.setRetainSizeWhenHidden(True)
        self.setSizePolicy(policy)
        self.setVisible(False)
        self._texts: tuple[str, ...] = ()

    def show_reminders(self, texts: Sequence[str]) -> None:
        """Show these reminders (none: hide the line, keeping its place)."""
        self._texts = tuple(texts)
        self.setText(SEPARATOR.join(texts))
        self.setToolTip("\n".join(texts))
        self.setVisible(bool(texts))

    def sizeHint(self) -> QSize:
        margins = self.contentsMargins()
        return QSize(0, self.fontMetrics().height() + margins.top() + margins.bottom())

    def minimumSizeHint(self) -> QSize:
        return self.sizeHint()

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        rect = self.contentsRect()
        painter.setPen(self.palette().color(QPalette.ColorRole.WindowText))
        align = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
        painter.drawText(rect, align, self.shown_text(rect.width()))
        painter.end()

    def shown_text(self, width: int) -> str:
        """The line as drawn in ``width`` pixels."""
        metrics = self.fontMetrics()
        if metrics.horizontalAdvance(self.text()) <= width or len(self._texts) < 2:
            return metrics.elidedText(self.text(), Qt.TextElideMode.ElideRight, width)
        share = (width - metrics.horizontalAdvance(SEPARATOR) * (len(self._texts) - 1)) // len(self._texts)
        return SEPARATOR.join(metrics.elidedText(text, Qt.TextElideMode.ElideRight, share) for text in self._texts)
