"""Layout helpers every dialog uses: form rows, stacked columns, a scrolled body and a first size that fits the
screen."""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize, Qt, QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QLayout, QScrollArea, QVBoxLayout, QWidget


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


#: Pixels a window needs beside its content: the layout's margins and a scroll bar's room.
FRAME_ALLOWANCE = 40


def fit_to_screen(window: QWidget, content: QSize, chrome_height: int, centre: bool = True,
                  available: QRect | None = None) -> None:
    """Size ``window`` for ``content`` plus its margins and buttons (see :func:`size_window`)."""
    size_window(window, QSize(content.width() + FRAME_ALLOWANCE, content.height() + chrome_height), centre,
                available)


def size_window(window: QWidget, size: QSize, centre: bool = True, available: QRect | None = None) -> None:
    """Give ``window`` its ``size``, never beyond the screen, and centre it there (unless ``centre`` is False: it
    stays where it was placed). ``available``: a screen's free area other than the window's own screen's (a
    screenshot shows a laptop's view on any screen)."""
    if available is None:
        screen = window.screen() or QGuiApplication.primaryScreen()
        if screen is None:
            window.resize(size)
            return
        available = screen.availableGeometry()
    window.resize(min(size.width(), available.width() - 20), min(size.height(), available.height() - 40))
    if centre:
        window.move(available.center() - window.rect().center())  # placed before it grew: centre it again


class ScrolledContent:
    """``content`` in a frameless scroll area filling ``window``, with ``below`` (status line, buttons) under it.

    The window calls :meth:`shown` from its ``showEvent``: the first time, once Qt has laid the content out
    (earlier, size hints are too small), the window is sized for it within the screen and centred there
    (``centre`` False: left where it was placed), unless whoever opened it already chose a size.
    """

    def __init__(self, window: QWidget, content: QWidget, *below: QWidget, chrome_height: int,
                 centre: bool = True) -> None:
        # Not the window itself: it holds this object, and a reference back would keep a closed dialog alive
        # until Python's cycle collector came by. The content finds its window.
        self._content, self._chrome_height, self._centre = content, chrome_height, centre
        self._fitted = False
        scroll = QScrollArea()
        scroll.setWidget(content)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        layout = QVBoxLayout(window)
        # The scroll area already copes with any size, so no minimum is forced on the window manager
        # (which also keeps Qt's offscreen test platform from warning that it cannot pass size hints on).
        layout.setSizeConstraint(QLayout.SizeConstraint.SetNoConstraint)
        layout.addWidget(scroll, 1)
        for widget in below:
            layout.addWidget(widget)

    def shown(self) -> None:
        """Size the window for the content, the first time it is shown."""
        if self._fitted:
            return
        self._fitted = True
        window = self._content.window()
        if not window.testAttribute(Qt.WidgetAttribute.WA_Resized):
            self.fit()
            # Texts filled in as the window shows (a pool's "5 left", a translation's longer words) can widen the
            # content after this first fit: the Czech SR3 attack dialog opened 50 pixels too narrow, clipped.
            fitted = window.size()
            QTimer.singleShot(0, self._content, lambda: self._fit_again(fitted))

    def _fit_again(self, fitted: QSize) -> None:
        window = self._content.window()
        if window.size() == fitted and self._needed().width() + FRAME_ALLOWANCE > fitted.width():
            self.fit()  # only while the GM has not resized it: their size wins

    def _needed(self) -> QSize:
        """The content's preferred size, never below what it needs."""
        return self._content.sizeHint().expandedTo(self._content.minimumSizeHint())

    def fit(self, available: QRect | None = None) -> None:
        """Size the window for the content within ``available`` (by default, its screen's free area)."""
        fit_to_screen(self._content.window(), self._needed(), self._chrome_height, self._centre, available)
