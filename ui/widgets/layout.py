"""Layout helpers every dialog uses: form rows, stacked columns, and a first size that fits the screen."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLayout, QVBoxLayout, QWidget


def row(*parts: QWidget | str) -> QWidget:
    """Widgets side by side in one form row; a string becomes a small label, the first widget stretches."""
    holder = QWidget()
    layout = QHBoxLayout(holder)
    layout.setContentsMargins(0, 0, 0, 0)
    for index, part in enumerate(parts):
        layout.addWidget(QLabel(part) if isinstance(part, str) else part, 1 if index == 0 else 0)
    return holder


def column(*parts: QWidget | QLayout) -> QVBoxLayout:
    """Widgets and layouts stacked from the top, the spare room left at the bottom."""
    layout = QVBoxLayout()
    for part in parts:
        if isinstance(part, QLayout):
            layout.addLayout(part)
        else:
            layout.addWidget(part)
    layout.addStretch(1)
    return layout


def fit_to_screen(window: QWidget, content: QSize, chrome_height: int) -> None:
    """Size ``window`` for ``content`` plus its buttons, never beyond the screen, and centre it there."""
    screen = window.screen() or QGuiApplication.primaryScreen()
    width, height = content.width() + 40, content.height() + chrome_height
    if screen is None:
        window.resize(width, height)
        return
    available = screen.availableGeometry()
    window.resize(min(width, available.width() - 20), min(height, available.height() - 40))
    window.move(available.center() - window.rect().center())  # placed before it grew: centre it again
