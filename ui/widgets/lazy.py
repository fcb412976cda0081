"""A dock's content built on first use: the pattern that keeps heavy parts out of the start-up.

The start-up budget (README, "Quality": P1) has no room for importing pyqtgraph and numpy (~0.2 s) or for
building charts before the window first paints. A dock is created at start-up all the same (so the window
layout the GM left is restored with it), holding a :class:`LazyWidget`; the real content is built by its
factory once the dock is first shown, *after* the window has painted, and never if the GM keeps the dock
closed. The factory does its heavy imports inside itself::

    def _passes_chart(self) -> QWidget:
        from ui.charts.passes import PassesChart  # pyqtgraph is imported here, not at start-up

        return PassesChart(self.document)

    self._dock(_("Initiative chart"), "dock_passes", LazyWidget(self._passes_chart), right)
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from app.i18n import _


class LazyWidget(QWidget):
    """Shows a short placeholder, and builds ``factory()`` in its place once it has first been shown."""

    built = Signal(QWidget)  # the content, once built

    def __init__(self, factory: Callable[[], QWidget], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._factory: Callable[[], QWidget] | None = factory
        self.content: QWidget | None = None
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._placeholder = QLabel(_("Loading…"))
        self._placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self._layout.addWidget(self._placeholder)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._factory is not None:
            QTimer.singleShot(0, self.build)  # after the paint that shows the window

    def build(self) -> QWidget:
        """Build the content now if it is not built yet (also for code that needs it before it is shown)."""
        if self._factory is not None:
            factory, self._factory = self._factory, None
            self.content = factory()
            self._layout.replaceWidget(self._placeholder, self.content)
            self._placeholder.deleteLater()
            self.built.emit(self.content)
        assert self.content is not None
        return self.content
