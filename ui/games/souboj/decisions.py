"""Souboj: an attack's decisions are announced before its dice.

souboj.md, Effects and their timing: decisions "before an attack/defence/casting": "musí nejprve provést příslušnou
akci, pak oznámit rozhodnutí a pak až provést příslušné hody" (first carry out the action, then announce the decision,
and only then make the rolls). In the attack dialog the decisions are the kind of attack, a flat blow, the causes of
a critical hit and finishing off a dying target. Once dice are in, changing one of them clears the dice, and the
status line says why: the rolls are made again for the decision as now announced.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QCheckBox, QComboBox, QWidget

from app.i18n import _
from ui.widgets.dice_entry import DiceEntry
from ui.widgets.inputs import Recompute


class DecisionsBeforeDice(QObject):
    """Clears the dice when the GM changes a decision after they were rolled or typed (see the module)."""

    def __init__(self, decisions: Sequence[QCheckBox | QComboBox], entries: Sequence[DiceEntry], edits: Recompute,
                 parent: QWidget) -> None:
        super().__init__(parent)
        self._entries = tuple(entries)
        self._edits = edits
        self._cleared = False
        for widget in decisions:  # connected before the form recomputes, so that it recomputes without the dice
            if isinstance(widget, QCheckBox):
                widget.toggled.connect(self._on_decision)
            else:
                widget.currentIndexChanged.connect(self._on_decision)

    def _dice_in(self) -> bool:
        return any(entry.faces_edit.text().strip() for entry in self._entries)

    def _on_decision(self) -> None:
        if self._edits.quiet or not self._dice_in():  # the form filling itself in is no decision of the GM's
            return
        with self._edits.quietly():
            for entry in self._entries:
                entry.clear()
        self._cleared = True

    def note(self) -> str:
        """Why the dice are empty again, until the GM rolls or types new ones ("" otherwise)."""
        if self._cleared and self._dice_in():
            self._cleared = False
        if not self._cleared:
            return ""
        return _("A decision changed after the dice: “first carry out the action, then announce the decision, and "
                 "only then make the rolls”. The dice were cleared: roll or type them again.")

    def forget(self) -> None:
        """The attack was resolved or another begins: nothing to explain any more."""
        self._cleared = False
