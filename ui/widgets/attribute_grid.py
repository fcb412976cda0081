"""The game's attributes as spin boxes in columns, filled top to bottom in the game's own order (quick add, the
roster's entry dialog)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PySide6.QtWidgets import QGridLayout, QGroupBox, QLabel, QSpinBox

from app.i18n import _
from rules.systems.base import AttributeSpec
from ui.widgets.inputs import spin_box


def attribute_box(spec: AttributeSpec, value: int | None = None) -> QSpinBox:
    """A spin box for one attribute, within the game's range (a saved value outside it is shown, not clamped)."""
    shown = spec.default if value is None else value
    return spin_box(min(spec.minimum, shown), max(spec.maximum, shown), shown, name=_(spec.label))


def attribute_group(title: str, specs: Sequence[AttributeSpec], boxes: Mapping[str, QSpinBox]) -> QGroupBox:
    """A titled group of label + spin box pairs: one column up to 4, two up to 8, else three."""
    group = QGroupBox(title)
    grid = QGridLayout(group)
    columns = 1 if len(specs) <= 4 else 2 if len(specs) <= 8 else 3
    rows = max(1, -(-len(specs) // columns))
    for position, spec in enumerate(specs):
        row, column = position % rows, (position // rows) * 3
        label = QLabel(_("{label}:").format(label=_(spec.label)))
        label.setBuddy(boxes[spec.key])
        grid.addWidget(label, row, column)
        grid.addWidget(boxes[spec.key], row, column + 1)
        grid.setColumnMinimumWidth(column + 2, 24)  # a gutter before the next column
    grid.setColumnStretch(3 * columns, 1)
    return group
