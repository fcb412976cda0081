"""Switching the theme while Bojovka runs: every widget of the window follows the new palette at once.

Under the window's old style sheet Qt stopped handing the application's palette down: after a switch the
headers, dock titles and the status line kept the old theme's colours, dark on dark or light on light. The
contrast is measured on what is drawn (the window grabbed), and the palettes are checked to be the theme's.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest
from PySide6.QtCore import QRect
from PySide6.QtGui import QColor, QImage, QPalette
from PySide6.QtWidgets import QApplication, QDockWidget, QWidget

from tests.ui.conftest import WindowFactory
from ui.main_window import MainWindow
from ui.theme import apply_theme
from ui.widgets.condition_track import contrast_ratio

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")

READABLE = 4.5  # WCAG AA for body text
ROLES = (QPalette.ColorRole.Window, QPalette.ColorRole.WindowText, QPalette.ColorRole.Button,
         QPalette.ColorRole.ButtonText, QPalette.ColorRole.Base, QPalette.ColorRole.Text)


def _application() -> QApplication:
    application = QApplication.instance()
    assert isinstance(application, QApplication)
    return application


@pytest.fixture
def application() -> Iterator[QApplication]:
    yield _application()
    apply_theme(_application(), "light")  # the next test starts in the light theme, as the others expect


def _settle() -> None:
    for _round in range(3):
        QApplication.processEvents()


def drawn_contrast(image: QImage, rect: QRect) -> float:
    """The contrast of the ink drawn in ``rect`` of ``image``: its commonest colour is the background, the text
    is the pixel that stands out from it most (the core of a glyph's stem carries the full text colour)."""
    colours = Counter(image.pixel(x, y) for x in range(rect.left(), rect.right() + 1)
                      for y in range(rect.top(), rect.bottom() + 1))
    background = QColor.fromRgb(colours.most_common(1)[0][0])
    return max(contrast_ratio(QColor.fromRgb(colour), background) for colour in colours)


def _in_window(window: MainWindow, widget: QWidget, rect: QRect) -> QRect:
    return QRect(widget.mapTo(window, rect.topLeft()), rect.size())


def header_rect(window: MainWindow) -> QRect:
    """The first column's header section, inside its edges (the name "Name")."""
    header = window.table.horizontalHeader()
    left, width = header.sectionViewportPosition(0), header.sectionSize(0)
    return _in_window(window, header.viewport(), QRect(left + 3, 3, width - 6, header.height() - 6))


def dock_title_rect(window: MainWindow, dock: QDockWidget) -> QRect:
    """The left half of the dock's title bar (its float and close buttons sit on the right)."""
    inner = dock.widget().geometry()
    return _in_window(window, dock, QRect(0, 0, dock.width() // 2, inner.top()))


def status_rect(window: MainWindow) -> QRect:
    bar = window.statusBar()
    return _in_window(window, bar, QRect(0, 0, bar.width() // 2, bar.height()))


def assert_readable(window: MainWindow, theme: str) -> None:
    _settle()
    image = window.grab().toImage()
    places = {"header": header_rect(window), "status bar": status_rect(window),
              **{f"{dock.objectName()} title": dock_title_rect(window, dock)
                 for dock in (window.details_dock, window.log_dock, window.dice_dock)}}
    for what, rect in places.items():
        assert drawn_contrast(image, rect) >= READABLE, (theme, what)
    theirs = _application().palette()
    widgets = {"header": window.table.horizontalHeader(), "table": window.table, "status bar": window.statusBar(),
               "dock": window.details_dock, "round": window.round_label, "log": window.log_view}
    for what, widget in widgets.items():
        for role in ROLES:
            assert widget.palette().color(role) == theirs.color(role), (theme, what, role)
    header = window.table.horizontalHeader().palette()
    assert contrast_ratio(header.color(QPalette.ColorRole.ButtonText),
                          header.color(QPalette.ColorRole.Button)) >= READABLE
    status = window.statusBar().palette()
    assert contrast_ratio(status.color(QPalette.ColorRole.WindowText),
                          status.color(QPalette.ColorRole.Window)) >= READABLE


@pytest.mark.parametrize("themes", [("dark", "light", "dark"), ("light", "dark", "light")])
def test_every_widget_follows_a_theme_switch(application: QApplication, open_window: WindowFactory,
                                            themes: tuple[str, ...]) -> None:
    first, *switches = themes
    apply_theme(application, first)  # the theme Bojovka started in
    window = open_window(sample="walka")
    window.resize(1366, 768)
    window.show()
    assert_readable(window, first)
    for theme in switches:
        window.actions_by_name[f"theme_{theme}"].trigger()  # View → Theme
        assert window.workspace.settings.theme == theme
        assert_readable(window, theme)


def test_messages_follow_a_theme_switch(application: QApplication, open_window: WindowFactory) -> None:
    apply_theme(application, "dark")
    window = open_window("walka", "Night Market")
    window.show()
    line = window.dice_line
    line.expression.setText("12d6 tn 5")  # SR3's words in a Walka fight: a problem, in red
    line.roll()
    assert line.result.property("error") is True and line.result.font().bold()
    window.actions_by_name["theme_light"].trigger()
    _settle()
    red = line.result.palette().color(QPalette.ColorRole.WindowText)
    assert red.red() > red.green() + 60  # still red
    assert contrast_ratio(red, line.palette().color(QPalette.ColorRole.Window)) >= READABLE
    line.expression.setText("2d6")
    line.roll()
    assert line.result.property("error") is False and not line.result.font().bold()
    window.actions_by_name["theme_dark"].trigger()
    _settle()
    assert line.result.palette().color(QPalette.ColorRole.WindowText) == application.palette().color(
        QPalette.ColorRole.WindowText)
    text = window.round_label
    assert text.font().bold() and text.font().pointSize() > QApplication.font().pointSize()
    assert window.reminder.property("error") is True


def test_soft_text_is_worked_out_once_per_palette_and_follows_a_new_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every greyed cell of every repaint asks for the soft text colour: it is kept per pair of colours (it was
    24 contrast ratios a cell), each caller gets its own copy, and another palette gets its own colour."""
    from ui import theme

    worked: list[int] = []
    real = theme._softened
    monkeypatch.setattr(theme, "_SOFT_TEXT", {})

    def counted(ink: QColor, grounds: list[QColor]) -> QColor:
        worked.append(1)
        return real(ink, grounds)

    monkeypatch.setattr(theme, "_softened", counted)
    light = QPalette()
    for role, colour in ((QPalette.ColorRole.Text, "#000000"), (QPalette.ColorRole.Base, "#ffffff"),
                         (QPalette.ColorRole.AlternateBase, "#f0f0f0")):
        light.setColor(QPalette.ColorGroup.Active, role, QColor(colour))
    dark = QPalette(light)
    for role, colour in ((QPalette.ColorRole.Text, "#eeeeee"), (QPalette.ColorRole.Base, "#202020"),
                         (QPalette.ColorRole.AlternateBase, "#2a2a2a")):
        dark.setColor(QPalette.ColorGroup.Active, role, QColor(colour))
    first = theme.soft_text(light)
    first.setRed(255)  # a caller's change stays its own
    again = theme.soft_text(light)
    assert worked == [1] and again == real(QColor("#000000"), [QColor("#ffffff"), QColor("#f0f0f0")])
    assert theme.soft_text(dark) == real(QColor("#eeeeee"), [QColor("#202020"), QColor("#2a2a2a")])
    assert worked == [1, 1] and theme.soft_text(dark) != again
