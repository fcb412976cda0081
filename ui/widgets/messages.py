"""One way to tell the GM something in a dialog: a label whose text turns red for problems; and the main window's
line of reminders.

Names the GM typed, and anything a file brought, are shown as written, never as markup: Qt reads a label, a tooltip
or a message box as rich text when its first line looks like HTML, and a combatant named ``<img src=…>`` made Qt
draw (and load) an image. Labels say so with :func:`plain`; tooltips and message boxes, which have no such switch,
get their text through :func:`as_written`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from PySide6.QtCore import QEvent, QObject, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPalette
from PySide6.QtGui import Qt as GuiQt
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

ERROR_ON_LIGHT = QColor("#c92a2a")
ERROR_ON_DARK = QColor("#ff8787")
SEPARATOR: Final[str] = "  ·  "


def error_color(palette: QPalette) -> QColor:
    """A red that reads well on the palette's window colour (light or dark theme)."""
    return ERROR_ON_DARK if palette.color(QPalette.ColorRole.Window).lightness() < 128 else ERROR_ON_LIGHT


def plain(label: QLabel) -> QLabel:
    """``label``, set to show its text as written (never as markup)."""
    label.setTextFormat(Qt.TextFormat.PlainText)
    return label


def as_written(text: str) -> str:
    """``text`` for a tooltip or a message box, which Qt reads as rich text if it looks like markup: unchanged,
    unless it does; then as the rich text that shows it as written."""
    return GuiQt.convertFromPlainText(text) if GuiQt.mightBeRichText(text) else text


def show_message(label: QLabel, text: str, error: bool = True) -> None:
    """Put ``text`` on ``label`` as written; a problem is drawn in red and bold (see :func:`mark_error`)."""
    mark_error(label, bool(error and text))
    plain(label).setText(text)


def mark_error(label: QLabel, error: bool) -> None:
    """Red and bold for a problem, else the label's window's own text colour.

    Only the red is the label's own (its palette's other roles, and all of them without a problem, come from
    its window and follow a theme switch); the red is chosen anew whenever the window's colours change. The
    ``error`` property says which.
    """
    label.setProperty("error", error)
    font = label.font()
    font.setBold(error)
    label.setFont(font)
    if error:
        if label.findChild(_RedOnItsWindow, options=Qt.FindChildOption.FindDirectChildrenOnly) is None:
            _RedOnItsWindow(label)
        _paint_red(label)
    else:
        label.setPalette(QPalette())  # no colour of its own: its window's, whatever the theme


def _paint_red(label: QLabel) -> None:
    parent = label.parentWidget()
    red = error_color(parent.palette() if parent is not None else QPalette())
    if label.testAttribute(Qt.WidgetAttribute.WA_SetPalette) and label.palette().color(
            QPalette.ColorRole.WindowText) == red:
        return  # already (and setting it again would announce another palette change)
    palette = QPalette()
    palette.setColor(QPalette.ColorRole.WindowText, red)
    label.setPalette(palette)


class _RedOnItsWindow(QObject):
    """Chooses a problem label's red anew when its window's colours change (a light/dark theme switch)."""

    def __init__(self, label: QLabel) -> None:
        super().__init__(label)
        label.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.PaletteChange and isinstance(watched, QLabel) \
                and watched.property("error") is True:
            _paint_red(watched)
        return False


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
        plain(self)  # reminders name combatants and effects
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
        self.setToolTip(as_written("\n".join(texts)))
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
