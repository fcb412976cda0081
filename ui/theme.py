"""Light and dark themes: Fusion with our palettes, or the system's scheme, switchable at run time."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication, QLabel

THEMES = ("system", "light", "dark")

_DARK = {
    QPalette.ColorRole.Window: "#2b2d30",
    QPalette.ColorRole.WindowText: "#e6e6e6",
    QPalette.ColorRole.Base: "#1f2023",
    QPalette.ColorRole.AlternateBase: "#2a2c30",
    QPalette.ColorRole.ToolTipBase: "#3a3d42",
    QPalette.ColorRole.ToolTipText: "#f0f0f0",
    QPalette.ColorRole.Text: "#e6e6e6",
    QPalette.ColorRole.Button: "#34363a",
    QPalette.ColorRole.ButtonText: "#e6e6e6",
    QPalette.ColorRole.BrightText: "#ff6b6b",
    QPalette.ColorRole.Link: "#7ab7ff",
    QPalette.ColorRole.Highlight: "#3d6fb6",
    QPalette.ColorRole.HighlightedText: "#ffffff",
    QPalette.ColorRole.PlaceholderText: "#9a9a9a",
}
_DARK_DISABLED = "#8a8a8a"

HEADING_POINTS = 14


def make_heading(label: QLabel) -> None:
    """A heading: larger and bold.

    In the label's font, not a style sheet: under a style sheet Qt stops handing the application's palette
    down to the widgets, and after a theme switch the headers, dock titles and status line kept the old
    theme's colours (dark on dark, light on light)."""
    font = label.font()
    font.setPointSize(HEADING_POINTS)
    font.setBold(True)
    label.setFont(font)
    label.setProperty("heading", True)


def dark_palette() -> QPalette:
    """A dark palette with readable disabled text."""
    palette = QPalette()
    for role, colour in _DARK.items():
        palette.setColor(role, QColor(colour))
    for role in (QPalette.ColorRole.Text, QPalette.ColorRole.WindowText, QPalette.ColorRole.ButtonText):
        palette.setColor(QPalette.ColorGroup.Disabled, role, QColor(_DARK_DISABLED))
    return palette


def system_prefers_dark() -> bool:
    """Whether the desktop asks for a dark scheme (Qt 6.5+ reports it)."""
    return QGuiApplication.styleHints().colorScheme() == Qt.ColorScheme.Dark


def apply_theme(application: QApplication, theme: str) -> str:
    """Apply ``theme`` ("system", "light" or "dark"); returns the theme actually shown ("light"/"dark")."""
    if application.style().name().lower() != "fusion":
        # Only once: setting a style again deletes the old QStyle while widgets still hold it (the GUI monkey
        # crashed switching themes after a few thousand steps).
        application.setStyle("Fusion")
    dark = theme == "dark" or (theme == "system" and system_prefers_dark())
    application.setPalette(dark_palette() if dark else application.style().standardPalette())
    return "dark" if dark else "light"
