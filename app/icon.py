"""The application's identity on the desktop: its icon (drawn from the one SVG source) and desktop-entry name."""

from __future__ import annotations

from typing import Final

from PySide6.QtGui import QGuiApplication, QIcon

from app.paths import resource

#: Matches packaging/linux/bojovka.desktop, so Wayland and X11 docks group the window under the installed entry.
DESKTOP_FILE_NAME: Final[str] = "bojovka"
ICON_PARTS: Final[tuple[str, str]] = ("icons", "bojovka.svg")


def application_icon() -> QIcon:
    """Bojovka's icon at every size (Qt renders the SVG; the installers carry PNG/ICO/ICNS renderings of it)."""
    return QIcon(str(resource(*ICON_PARTS)))


def install_identity(application: QGuiApplication) -> None:
    """Give every window the icon and tie the app to its desktop entry."""
    application.setWindowIcon(application_icon())
    application.setDesktopFileName(DESKTOP_FILE_NAME)
