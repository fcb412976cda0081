"""LazyWidget: a dock's content is built once, after its first paint, and never for a dock kept closed or behind."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QApplication,
    QDockWidget,
    QLabel,
    QMainWindow,
    QSizePolicy,
    QUndoView,
    QVBoxLayout,
    QWidget,
)
from pytestqt.qtbot import QtBot

from ui.widgets.lazy import LazyWidget

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")


class Factory:
    def __init__(self) -> None:
        self.calls = 0

    def __call__(self) -> QWidget:
        self.calls += 1
        return QLabel("chart")


def test_the_content_is_built_after_the_first_show_only_once(qtbot: QtBot) -> None:
    factory = Factory()
    lazy = LazyWidget(factory)
    qtbot.addWidget(lazy)
    assert factory.calls == 0 and lazy.content is None
    with qtbot.waitSignal(lazy.built):
        lazy.show()
        assert factory.calls == 0  # not during show: the window paints first
    assert factory.calls == 1 and isinstance(lazy.content, QLabel) and lazy.content.parent() is lazy
    lazy.hide()
    lazy.show()
    QApplication.processEvents()
    assert factory.calls == 1


def test_a_closed_dock_never_builds_its_content(qtbot: QtBot) -> None:
    window = QMainWindow()
    qtbot.addWidget(window)
    factory = Factory()
    dock = QDockWidget("Chart", window)
    dock.setObjectName("dock_chart")
    dock.setWidget(LazyWidget(factory))
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
    dock.setVisible(False)
    window.show()
    QApplication.processEvents()
    assert factory.calls == 0
    dock.setVisible(True)
    qtbot.waitUntil(lambda: factory.calls == 1)


def test_build_on_demand_before_any_show(qtbot: QtBot) -> None:
    factory = Factory()
    lazy = LazyWidget(factory)
    qtbot.addWidget(lazy)
    assert lazy.build() is lazy.build() and factory.calls == 1


def test_a_tab_behind_another_dock_is_built_when_its_tab_is_chosen(qtbot: QtBot) -> None:
    """Qt shows a tab behind another dock for a moment while the window first lays out; only a paint builds."""
    window = QMainWindow()
    qtbot.addWidget(window)
    front = QDockWidget("Log", window)
    front.setObjectName("dock_log")
    front.setWidget(QLabel("log"))
    factory = Factory()
    behind = QDockWidget("Chart", window)
    behind.setObjectName("dock_chart")
    lazy = LazyWidget(factory)
    behind.setWidget(lazy)
    window.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, front)
    window.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, behind)
    window.tabifyDockWidget(front, behind)
    front.raise_()
    window.show()
    qtbot.waitExposed(window)
    for _round in range(3):
        QApplication.processEvents()
    assert factory.calls == 0 and lazy.content is None
    behind.raise_()
    qtbot.waitUntil(lambda: factory.calls == 1)
    assert lazy.content is not None and lazy.content.isVisible()


def test_a_content_built_in_a_shown_widget_counts_at_once(qtbot: QtBot) -> None:
    """Built while shown (a dock the GM just opened, placed next): it has its content's size and policy at once,
    and the placeholder is gone; a dock split with a placeholder's size came out squeezed."""
    holder = QWidget()
    qtbot.addWidget(holder)
    lazy = LazyWidget(QUndoView)
    layout = QVBoxLayout(holder)
    layout.addWidget(lazy)
    holder.show()
    qtbot.waitExposed(holder)
    content = lazy.build()  # no event loop turn in between
    assert lazy.sizeHint() == content.sizeHint() and lazy.sizePolicy() == content.sizePolicy()
    assert content.sizePolicy().verticalPolicy() == QSizePolicy.Policy.Expanding  # not the placeholder's
    assert not content.isHidden()
    assert [label for label in lazy.findChildren(QLabel) if label.isVisible()] == []
