"""Light and dark themes: Fusion with our palettes, or the system's scheme, switchable at run time."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication, QLabel

from ui.widgets.inputs import guard_the_wheel

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
#: WCAG's minimum contrast for body text (AA): what a softened colour must keep against its background.
MIN_CONTRAST = 4.5


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


def _luminance(colour: QColor) -> float:
    """WCAG relative luminance of an sRGB colour."""
    def linear(channel: float) -> float:
        return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4

    return 0.2126 * linear(colour.redF()) + 0.7152 * linear(colour.greenF()) + 0.0722 * linear(colour.blueF())


def contrast_ratio(first: QColor, second: QColor) -> float:
    """WCAG contrast ratio of two colours, 1 (none) to 21 (black on white)."""
    light, dark = sorted((_luminance(first), _luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def _mix(ink: QColor, ground: QColor, share: float) -> QColor:
    """``ink`` with ``share`` of ``ground`` blended in."""
    return QColor.fromRgbF(*(a * (1 - share) + b * share for a, b in zip(
        (ink.redF(), ink.greenF(), ink.blueF()), (ground.redF(), ground.greenF(), ground.blueF()), strict=True)))


def soft_text(palette: QPalette) -> QColor:
    """Text for rows whose turn is done (or who are out of the fight): softer than the text, but still readable,
    at least MIN_CONTRAST against both row backgrounds. The palette's disabled grey was not (#bebebe on white,
    1.9:1), and the table draws a done row with a tick too, so the softer colour is never the only sign."""
    ink = palette.color(QPalette.ColorGroup.Active, QPalette.ColorRole.Text)
    grounds = [palette.color(QPalette.ColorGroup.Active, role)
               for role in (QPalette.ColorRole.Base, QPalette.ColorRole.AlternateBase)]
    key = (ink.rgba(), grounds[0].rgba(), grounds[1].rgba())
    known = _SOFT_TEXT.get(key)
    if known is None:  # every greyed cell of every repaint asks: work it out once per pair of colours
        known = _SOFT_TEXT[key] = _softened(ink, grounds)
    return QColor(known)


#: soft_text's answers by (text, base, alternate base) colours.
_SOFT_TEXT: dict[tuple[int, int, int], QColor] = {}


def _softened(ink: QColor, grounds: list[QColor]) -> QColor:
    for step in range(12, 0, -1):  # as soft as it may be: half-way to the background at most
        colour = _mix(ink, grounds[0], step / 24)
        if all(contrast_ratio(colour, ground) >= MIN_CONTRAST for ground in grounds):
            return colour
    return ink


def system_prefers_dark() -> bool:
    """Whether the desktop asks for a dark scheme (Qt 6.5+ reports it)."""
    return QGuiApplication.styleHints().colorScheme() == Qt.ColorScheme.Dark


def apply_theme(application: QApplication, theme: str) -> str:
    """Apply ``theme`` ("system", "light" or "dark"); returns the theme actually shown ("light"/"dark")."""
    guard_the_wheel(application)  # Fusion, set once
    dark = theme == "dark" or (theme == "system" and system_prefers_dark())
    application.setPalette(dark_palette() if dark else application.style().standardPalette())
    return "dark" if dark else "light"
