"""One way to tell the GM something in a dialog: a label whose text turns red for problems."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QLabel

ERROR_ON_LIGHT = QColor("#c92a2a")
ERROR_ON_DARK = QColor("#ff8787")


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
