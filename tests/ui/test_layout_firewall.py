"""The heading and the actor strip change on every Next; the window around them is not laid out again for it."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QApplication, QLabel, QVBoxLayout, QWidget

from tests.ui.conftest import WindowFactory
from ui.widgets.layout_firewall import LayoutFirewall


class _LayoutRequests(QObject):
    """Counts the layout requests that reach the watched widgets."""

    def __init__(self, *watched: QWidget) -> None:
        super().__init__()
        self.count = 0
        for widget in watched:
            widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.LayoutRequest:
            self.count += 1
        return False


def _settle() -> None:
    """The holder's new height is a layout request of its own, handled on the event loop's next turn."""
    for _turn in range(3):
        QApplication.processEvents()


def test_next_lays_out_the_heading_and_the_strip_only_within_their_rows(open_window: WindowFactory) -> None:
    window = open_window(sample="sr3")
    window.show()
    window.fight.on_next_turn()  # the details panel shows its first actor: its dock is laid out for it, once
    _settle()
    spy = _LayoutRequests(window, window.pages, window.fight_page)
    before = window.round_label.text()
    for _turn in range(3):
        window.fight.on_next_turn()
        _settle()
    assert window.round_label.text() != before  # the heading and the strip did change
    assert spy.count == 0  # ... and the window was not laid out again for it (each time, a repaint of it all)


def test_a_long_heading_wraps_and_pushes_the_table_down_never_widening_the_window(
        open_window: WindowFactory) -> None:
    window = open_window(sample="sr3")
    window.resize(760, 600)
    window.show()
    QApplication.processEvents()
    one_line = window.round_label.fontMetrics().lineSpacing()
    window.round_label.setText(" · ".join(["Round 12", "initiative pass 3", "Ganger with a very long name acts"] * 4))
    _settle()
    assert window.width() == 760
    assert window.round_label.height() >= 3 * one_line  # wrapped onto more lines, all of them shown
    assert window.strip.mapTo(window, window.strip.rect().topLeft()).y() >= \
        window.round_label.mapTo(window, window.round_label.rect().bottomLeft()).y()  # the strip moved down


def test_the_holder_takes_a_new_height_and_keeps_a_new_width_to_itself(qapp: QApplication) -> None:
    outer = QWidget()
    layout = QVBoxLayout(outer)
    label = QLabel("short")
    holder = LayoutFirewall(label)
    layout.addWidget(holder)
    layout.addStretch(1)
    outer.resize(300, 200)
    outer.show()
    QApplication.processEvents()
    one_line = holder.height()
    label.setText("a much longer text than the window is wide, on one line")
    QApplication.processEvents()
    assert outer.width() == 300 and holder.height() == one_line and holder.width() < label.sizeHint().width()
    label.setText("two\nlines")
    _settle()
    assert holder.height() == label.sizeHint().height() > one_line
    assert label.geometry() == holder.rect()
    outer.close()
