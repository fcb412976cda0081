"""A combatant's weapons, edited in the fight: the weapons editor, applied as one SetWeapons operation (one
undo step, one log line) when the GM presses OK; nothing is applied while the game refuses what was typed."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QVBoxLayout, QWidget

from app.i18n import _
from rules.encounter import Combatant
from rules.history import Operation
from rules.systems.base import RuleSystem
from rules.weapons import SetWeapons
from ui.widgets.layout import size_window
from ui.widgets.messages import show_message, text_label
from ui.widgets.weapons_editor import WeaponsEditor

SIZE = (720, 380)


class WeaponsDialog(QDialog):
    """Edit what one combatant carries; ``apply`` hands the operation to the document (False: refused, and
    ``problem`` says why)."""

    def __init__(self, system: RuleSystem, combatant: Combatant, apply: Callable[[Operation], bool],
                 problem: Callable[[], str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(_("Weapons of {name}").format(name=combatant.name))
        self._combatant, self._apply, self._problem = combatant, apply, problem
        self.editor = WeaponsEditor(system, combatant.weapons)
        self.message = text_label()
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        layout = QVBoxLayout(self)
        layout.addWidget(self.editor, 1)
        layout.addWidget(self.message)
        layout.addWidget(self.buttons)
        self.message.hide()
        self.buttons.accepted.connect(self.save)
        self.buttons.rejected.connect(self.reject)
        size_window(self, self.sizeHint().expandedTo(QSize(*SIZE)))
        self.editor.table.setFocus()

    def save(self) -> bool:
        """Apply the weapons as typed and close; a refusal keeps the dialog open with what was typed."""
        if self.editor.problem():
            self.editor.table.setFocus()  # the editor says what is wrong, right under the table
            return False
        weapons = self.editor.checked()
        if weapons != self._combatant.weapons and not self._apply(SetWeapons(self._combatant.id, weapons)):
            show_message(self.message, self._problem() or _("The weapons were not changed."), error=True)
            self.message.show()
            return False
        self.accept()
        return True
