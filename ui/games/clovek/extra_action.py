"""What grants a Člověk character's extra action: one picker for the banks panel and the roll dialog.

"Extra actions come only from abilities, equipment or the situation" (clovek.md): an action after the first of
a round names its grant, and the rules refuse one that names none. The picker offers the grants with what each
costs (the off hand's cost is the GM's option), and is enabled only when the next action would be an extra one.
"""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QWidget

from app.i18n import _
from rules.encounter import Combatant, Encounter
from rules.systems.base import RuleSystem
from rules.systems.clovek.economy import (
    EXTRA_ACTION_LABELS,
    OFF_HAND_BURNS,
    ExtraAction,
    action_type,
    round_running,
)
from rules.text import N_
from ui.widgets.inputs import calm

#: The off hand's label once the GM's option makes it burn a stun wound (translated when shown).
OFF_HAND_BURNING = N_("the off hand, in a physical conflict (burns a stun wound)")


class ExtraActionPicker(QComboBox):
    """The grant of the next action, if it is an extra one ("" while none is chosen, or none is needed)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        calm(self)
        # The grants' texts are long (in Russian most of all): the closed box shows the start, the list all of it.
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.setMinimumContentsLength(16)
        self.setAccessibleName(_("What grants the extra action"))
        self.setToolTip(_("An action after the first of a round comes only from an ability, equipment or the "
                          "situation, and usually burns a stun wound of its type."))
        self.addItem(_("Granted by…"), "")
        for grant, label in EXTRA_ACTION_LABELS.items():
            self.addItem(_(label), grant.value)
        self._off_hand = self.findData(ExtraAction.OFF_HAND.value)
        self._hint = self.toolTip()
        self.currentIndexChanged.connect(self._show_choice)

    def _show_choice(self) -> None:
        """The closed box shows the start of a long grant: its tooltip says it whole."""
        self.setToolTip(self.currentText() if self.currentIndex() > 0 else self._hint)

    def follow(self, combatant: Combatant | None, state: Encounter, system: RuleSystem, acting: bool) -> None:
        """Enable the picker when ``combatant``'s next action (``acting``: the GM gives it as an action) is an
        extra one; name the off hand's cost as the encounter's option says."""
        extra = acting and combatant is not None and round_running(state) and action_type(combatant) is not None
        self.setEnabled(extra)
        if not extra:
            self.setCurrentIndex(0)
            return
        burns = system.option(state, OFF_HAND_BURNS) is True
        label = OFF_HAND_BURNING if burns else EXTRA_ACTION_LABELS[ExtraAction.OFF_HAND]
        self.setItemText(self._off_hand, _(label))

    def grant(self) -> str:
        """The chosen grant's value ("": none)."""
        return str(self.currentData() or "")
