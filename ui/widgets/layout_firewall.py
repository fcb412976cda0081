"""A holder that keeps a busy widget's layout changes from travelling up to the whole window.

Any change inside a widget in a layout (a label's new text, a button shown) asks the parent layouts, up to the main
window, to lay out again; the main window then repaints everything it holds. The actor strip changes on every Next
and every spent action, but never changes height: laid out again each time, it cost a repaint of the window (the
table, the docks: 0.5 megapixels on a laptop) on every attack and every Next. Held here, it is laid out within its
own rectangle, and the window hears of it only when the height it needs changes.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QSize
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QSizePolicy, QWidget


class LayoutFirewall(QWidget):
    """Holds ``content`` filling its rectangle, as wide as the layout makes it (never wider for a long text: wrap
    or elide it), as tall as ``content`` needs at that width; tells its own layout of a change only when that
    height changes."""

    def __init__(self, content: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._content = content
        content.setParent(self)
        policy = content.sizePolicy()
        policy.setHorizontalPolicy(QSizePolicy.Policy.Ignored)  # never widens the window: the layout gives the width
        self.setSizePolicy(policy)
        self._height = self._needed_height()
        content.show()

    def content(self) -> QWidget:
        """The widget held."""
        return self._content

    def _needed_height(self) -> int:
        content = self._content
        if content.hasHeightForWidth() and self.width() > 0:  # wrapped text: as tall as it is at this width
            return max(content.heightForWidth(self.width()), content.minimumHeight())
        return max(content.sizeHint().height(), content.minimumHeight())

    def _check_height(self) -> None:
        needed = self._needed_height()
        if needed != self._height:
            self._height = needed
            self.updateGeometry()

    def sizeHint(self) -> QSize:
        return QSize(self._content.sizeHint().width(), self._height)

    def minimumSizeHint(self) -> QSize:
        return QSize(self._content.minimumSizeHint().width(), self._height)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._content.setGeometry(self.rect())
        if event.oldSize().width() != event.size().width():
            self._check_height()

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.LayoutRequest:  # the content's hints changed: ours only if its height did
            self._check_height()
            return True
        return super().event(event)
