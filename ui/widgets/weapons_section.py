"""The details panel's Weapons section: what the selected combatant carries, one line each with the rounds left,
and Edit weapons… (the weapons editor in a dialog: one operation when the GM presses OK)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGridLayout, QGroupBox, QLabel, QPushButton, QVBoxLayout

from app.i18n import _
from rules.encounter import Combatant, Encounter, Weapon
from rules.history import Operation
from rules.systems.base import RuleSystem
from rules.weapons import MAGAZINE, ROUNDS, ammunition_text

if TYPE_CHECKING:
    from ui.dialogs.weapons_dialog import WeaponsDialog


def _clear(layout: QGridLayout) -> None:
    while layout.count():
        item = layout.takeAt(0)
        widget = item.widget() if item is not None else None
        if widget is not None:
            # Hidden and deleted, not made parentless: a parentless widget is a window of its own for a moment,
            # and the dialog opened next (D for damage) then never became the active window.
            widget.hide()
            widget.deleteLater()


class WeaponsSection(QGroupBox):
    """The combatant's weapons as the game describes them; hidden in a game that keeps no weapons."""

    def __init__(self, apply: Callable[[Operation], bool], problem: Callable[[], str]) -> None:
        super().__init__(_("Weapons"))
        self._apply, self._problem = apply, problem
        self._combatant: Combatant | None = None
        self._system: RuleSystem | None = None
        self._shown: list[tuple[str, str]] = []
        self.descriptions: list[QLabel] = []
        self.rounds: list[QLabel] = []
        self.dialog: WeaponsDialog | None = None  # the editor open, if any
        self._rows = QGridLayout()
        self._rows.setColumnStretch(0, 1)
        self.empty = QLabel(_("No weapons yet."))
        self.edit_button = QPushButton(_("Edit &weapons…"))
        self.edit_button.clicked.connect(self.edit)
        layout = QVBoxLayout(self)
        layout.addLayout(self._rows)
        layout.addWidget(self.empty)
        layout.addWidget(self.edit_button, 0, Qt.AlignmentFlag.AlignLeft)

    def refresh(self, combatant: Combatant, state: Encounter, system: RuleSystem) -> None:
        """Show ``combatant``'s weapons (rows are rebuilt only when the list itself changes)."""
        self._combatant, self._system = combatant, system
        self.setVisible(bool(system.weapon_fields()))
        shown = [(weapon.name, system.describe_weapon(weapon)) for weapon in combatant.weapons]
        if shown != self._shown:
            self._rebuild(combatant.weapons, shown)
        for weapon, label in zip(combatant.weapons, self.rounds, strict=True):
            label.setText(ammunition_text(weapon))
        self.empty.setVisible(not combatant.weapons)

    def _rebuild(self, weapons: tuple[Weapon, ...], shown: list[tuple[str, str]]) -> None:
        _clear(self._rows)
        self._shown, self.descriptions, self.rounds = shown, [], []
        for row, (weapon, (_name, text)) in enumerate(zip(weapons, shown, strict=True)):
            description, rounds = QLabel(text), QLabel()
            description.setWordWrap(True)
            description.setTextFormat(Qt.TextFormat.PlainText)
            rounds.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
            # As wide as a full magazine's text: firing a round never reflows the line (the panel stays calm).
            full = ammunition_text(weapon.with_value(ROUNDS, weapon.number(MAGAZINE)))
            rounds.setMinimumWidth(rounds.fontMetrics().horizontalAdvance(full))
            self._rows.addWidget(description, row, 0)
            self._rows.addWidget(rounds, row, 1)
            self.descriptions.append(description)
            self.rounds.append(rounds)

    def edit(self) -> WeaponsDialog | None:
        """Open the weapons editor on the combatant shown (None: none, or the game keeps no weapons)."""
        if self._combatant is None or self._system is None or not self._system.weapon_fields():
            return None
        from ui.dialogs.weapons_dialog import WeaponsDialog  # with the first edit: the editor is not start-up work

        dialog = WeaponsDialog(self._system, self._combatant, self._apply, self._problem, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.destroyed.connect(lambda: setattr(self, "dialog", None))
        self.dialog = dialog
        dialog.open()
        return dialog


