"""Form inputs every attack dialog uses: a combo of Python values, the combatants' combo, spin boxes, signed
numbers, the guard that lets a dialog change several inputs and recompute once, and the application's style
that keeps the mouse wheel from editing a number it merely passes over."""

from __future__ import annotations

import inspect
import weakref
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, Generic, TypeVar

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QStandardItemModel
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QApplication,
    QCheckBox,
    QComboBox,
    QLineEdit,
    QProxyStyle,
    QSpinBox,
    QStyleFactory,
    QWidget,
)

from rules.encounter import Combatant
from ui.widgets.dice_entry import DiceEntry

T = TypeVar("T")


class Choice(QComboBox, Generic[T]):
    """A combo box of Python values (Qt would turn enum members into plain strings).

    ``min_length`` is how many characters the closed box shows: long item texts must not widen the whole
    column, and the popup still shows them in full.
    """

    def __init__(self, items: Iterable[tuple[str, T]] = (), min_length: int = 10) -> None:
        super().__init__()
        calm(self)
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.setMinimumContentsLength(min_length)
        self._values: list[T] = []
        self.set_items(items)

    def set_items(self, items: Iterable[tuple[str, T]]) -> None:
        """Replace the items, keeping the chosen value when it is still offered."""
        kept = self._values[self.currentIndex()] if 0 <= self.currentIndex() < len(self._values) else None
        self.blockSignals(True)
        self.clear()
        self._values = []
        for text, value in items:
            self.addItem(text)
            self._values.append(value)
        self.blockSignals(False)
        if kept is not None and kept in self._values:
            self.setCurrentIndex(self._values.index(kept))
        elif self._values:
            self.setCurrentIndex(0)

    def value(self) -> T:
        """The chosen value."""
        return self._values[max(0, self.currentIndex())]

    def values(self) -> list[T]:
        """Every value offered."""
        return list(self._values)

    def select(self, value: T) -> None:
        """Choose ``value`` (ignored if it is not offered)."""
        if value in self._values:
            self.setCurrentIndex(self._values.index(value))

    def set_enabled(self, value: T, enabled: bool) -> None:
        """Offer ``value``, or grey it out in the list (still listed: the GM sees it exists and reads why not in
        the tooltip)."""
        model = self.model()
        if value in self._values and isinstance(model, QStandardItemModel):
            item = model.item(self._values.index(value))
            if item is not None:
                item.setEnabled(enabled)

    def is_enabled(self, value: T) -> bool:
        """Whether ``value`` is offered (listed and not greyed out)."""
        model = self.model()
        if value not in self._values or not isinstance(model, QStandardItemModel):
            return value in self._values
        item = model.item(self._values.index(value))
        return item is None or item.isEnabled()


def fill_combatants(combo: QComboBox, combatants: list[Combatant], wanted: str | None, *,
                    silently: bool = False, none: str = "") -> None:
    """Offer ``combatants`` by name (their id as the item data) and choose ``wanted``, else the first.

    ``silently``: the combo emits no change signal (the caller updates the form itself afterwards).
    ``none``: the text of a first item standing for no combatant (its data None), chosen when ``wanted`` is
    not offered.
    """
    was_blocked = combo.blockSignals(silently or combo.signalsBlocked())
    combo.clear()
    if none:
        combo.addItem(none, None)
    for combatant in combatants:
        combo.addItem(combatant.name, combatant.id)
    index = combo.findData(wanted) if wanted is not None else -1
    combo.setCurrentIndex(index if index >= 0 else (0 if combo.count() else -1))
    combo.blockSignals(was_blocked)


def spin_box(minimum: int, maximum: int, value: int = 0, *, special: str = "", suffix: str = "",
             name: str = "") -> QSpinBox:
    """A spin box with its range and value; ``special`` stands for the minimum, ``name`` is for screen readers."""
    box = QSpinBox()
    calm(box)
    box.setRange(minimum, maximum)
    box.setValue(value)
    if special:
        box.setSpecialValueText(special)
    if suffix:
        box.setSuffix(suffix)
    if name:
        box.setAccessibleName(name)
    return box


_WHEEL = QEvent.Type.Wheel
_WHEELED = (QAbstractSpinBox, QComboBox)


class WheelGuard(QObject):
    """Spin boxes and combo boxes take the mouse wheel only once they have the focus.

    Scrolling a dialog or a dock over a form would otherwise change every number and choice the pointer passes
    (a GM scrolling the details panel changed a Body score). :class:`WheelCalmingStyle` installs the guard on
    each spin box and combo box as it is polished and gives it ``StrongFocus`` (Qt's default ``WheelFocus``
    would hand it the focus on the first turn of the wheel); a wheel event reaching one without the focus is
    ignored, so Qt passes it on to the scroll area around it.
    """

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == _WHEEL and isinstance(watched, QWidget) and not watched.hasFocus():
            event.ignore()
            return True
        return False


class WheelCalmingStyle(QProxyStyle):
    """Fusion, with every spin box and combo box guarded against a passing wheel as Qt polishes it.

    The style sees each widget once, when it is polished, so the guard watches only those widgets. (An event
    filter on the application saw every event of every widget, ~500 for one resolved attack, and cost about
    4 ms of each.)
    """

    def __init__(self) -> None:
        super().__init__(QStyleFactory.create("Fusion"))
        self._guard = WheelGuard(self)

    def polish(self, target: Any) -> None:  # one name for QStyle's three overloads
        if isinstance(target, _WHEELED):
            calm(target)
            target.removeEventFilter(self._guard)  # polished again on a theme change: one guard each
            target.installEventFilter(self._guard)
        super().polish(target)


def calm(widget: QWidget) -> None:
    """Let ``widget`` take the wheel only when it has the focus (a chosen ``NoFocus`` or ``TabFocus`` stays)."""
    if widget.focusPolicy() == Qt.FocusPolicy.WheelFocus:
        widget.setFocusPolicy(Qt.FocusPolicy.StrongFocus)


def guard_the_wheel(application: QApplication) -> None:
    """Give ``application`` the :class:`WheelCalmingStyle`, once: setting a style again deletes the old one while
    widgets still hold it (the GUI monkey crashed switching themes after a few thousand steps)."""
    if not isinstance(application.style(), WheelCalmingStyle):
        application.setStyle(WheelCalmingStyle())


def signed(value: int) -> str:
    """A modifier: +4, −1 (a real minus sign), 0."""
    return f"+{value}" if value > 0 else (f"−{-value}" if value < 0 else "0")


def term(value: int) -> str:
    """A number added to a sum, with its operator: "+ 4", "− 1", "+ 0"."""
    return f"+ {value}" if value >= 0 else f"− {-value}"


def _weakly(function: Callable[[], object]) -> Callable[[], Callable[[], object] | None]:
    """A getter for ``function``: a weak one for a bound method (None once its object is gone)."""
    if inspect.ismethod(function):
        return weakref.WeakMethod(function)
    return lambda: function


class Recompute:
    """Change several inputs, recompute once.

    The inputs' change signals go to :meth:`edited`, which recomputes at once, except inside a
    :meth:`quietly` block: code that sets several inputs runs there and recomputes itself at the end.
    """

    def __init__(self, recompute: Callable[[], object]) -> None:
        # A dialog's own method is held weakly: the dialog holds this guard, and a strong reference back would
        # keep a closed dialog alive (and recomputing on every change of the fight) until Python's cycle collector
        # came by.
        self._recompute = _weakly(recompute)
        self._depth = 0

    @property
    def quiet(self) -> bool:
        """Whether a :meth:`quietly` block is running (a reaction to an input should wait for its end)."""
        return self._depth > 0

    @contextmanager
    def quietly(self) -> Iterator[None]:
        """Inputs changed in this block do not recompute (blocks nest)."""
        self._depth += 1
        try:
            yield
        finally:
            self._depth -= 1

    def edited(self) -> None:
        """An input changed: recompute, unless a :meth:`quietly` block runs."""
        recompute = self._recompute()
        if not self._depth and recompute is not None:
            recompute()

    def watch(self, *widgets: QWidget) -> None:
        """Call :meth:`edited` whenever one of ``widgets`` changes."""
        for widget in widgets:
            if isinstance(widget, QSpinBox):
                widget.valueChanged.connect(self.edited)
            elif isinstance(widget, QCheckBox):
                widget.toggled.connect(self.edited)
            elif isinstance(widget, QComboBox):
                widget.currentIndexChanged.connect(self.edited)
            elif isinstance(widget, QLineEdit):
                widget.textChanged.connect(self.edited)
            elif isinstance(widget, DiceEntry):
                widget.changed.connect(self.edited)
            else:
                raise TypeError(f"no change signal known for {type(widget).__name__}")
