"""One way to tell the GM something in a dialog: a label whose text turns red for problems."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QLabel

ERROR_ON_LIGHT = QColor("#c92a2a")
ERROR_ON_DARK = QColor("#ff8787")


def error_color(palette: QPalette) -> QColor:
    """A red that reads well on the palette's window colour (light or dark theme)."""
    return ERROR_ON_DARK if palette.color(QPalette.ColorRole.Window).lightness() < 128 else ERROR_ON_LIGHT


def show_message(label: QLabel, text: str, error: bool = True) -> None:
    """Put ``text`` on ``label``; a problem is drawn in red and bold (see :func:`mark_error`)."""
    mark_error(label, bool(error and text))
    label.setText(text)


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
