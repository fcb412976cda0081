"""A dock's content built on first use: the pattern that keeps heavy parts out of the start-up.

The start-up budget (README, "Quality": P1) has no room for importing pyqtgraph and numpy (~0.2 s) or for
building charts before the window first paints. A dock is created at start-up all the same (so the window
layout the GM left is restored with it), holding a :class:`LazyWidget`; the real content is built by its
factory once the dock is first painted (on screen: shown, and not a tab behind another dock), *after* that
paint, and never if the GM keeps the dock closed or its tab behind. The factory does its heavy imports inside
itself::

    def _passes_chart(self) -> QWidget:
        from ui.charts.passes import PassesChart  # pyqtgraph is imported here, not at start-up

        return PassesChart(self.document)

    self._dock(_("Initiative chart"), "dock_passes", LazyWidget(self._passes_chart), right)
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QPaintEvent
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from app.i18n import _


class LazyWidget(QWidget):
    """Shows a short placeholder, and builds ``factory()`` in its place once it has first been painted.

    Painted, not shown: while the window lays itself out before its first paint, Qt shows a dock's tab that
    sits behind another one for a moment (its show event comes, its paint never does), and a content built
    on that show was built before the first paint all the same.
    """

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
        self._scheduled = False

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if self._factory is not None and not self._scheduled:
            self._scheduled = True
            QTimer.singleShot(0, self.build)  # after this paint (never a widget built inside a paint)

    def build(self) -> QWidget:
        """Build the content now if it is not built yet (also for code that needs it before it is shown)."""
        if self._factory is not None:
            factory, self._factory = self._factory, None
            self.content = factory()
            self._layout.replaceWidget(self._placeholder, self.content)
            self.setSizePolicy(self.content.sizePolicy())  # a dock shares its room as the content would
            self.content.show()  # counted in the layout's size now (Qt would show it only later, sized as nothing)
            self._placeholder.hide()  # at once: deleteLater waits for the event loop
            self._placeholder.deleteLater()
            self.built.emit(self.content)
        assert self.content is not None
        return self.content
