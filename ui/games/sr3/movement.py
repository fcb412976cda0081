"""Shadowrun 3's movement in the details panel: what the selected character may walk or run, per turn and per phase.

sr3.md, Movement: "Walk rate = Quickness, run = Quickness × 3 (dwarf × 2). Per-phase allowance = rate ÷ passes this
turn, round up; a phase without movement still uses up its share; movement goes on in others' phases; it costs no
action." The GM reads it when a player asks "how far can I get?"; the arithmetic is
:func:`rules.systems.sr3.movement.movement_text`.
"""

from __future__ import annotations

from PySide6.QtWidgets import QGroupBox, QLabel, QVBoxLayout

from app.i18n import _
from rules.encounter import Combatant, Encounter
from rules.systems.base import RuleSystem
from rules.systems.sr3.initiative import pass_scores
from rules.systems.sr3.movement import movement_text, moving_tn_text
from rules.systems.sr3.system import RUN_MULTIPLIER, tables
from ui.games.base import Apply


class MovementSection(QGroupBox):
    """Walk and run per turn and per phase (by the passes this turn), and the TN of acting once moved."""

    def __init__(self, apply: Apply) -> None:
        super().__init__(_("Movement"))
        del apply  # moving costs no action: nothing here changes the fight
        self.allowance = QLabel()
        self.allowance.setWordWrap(True)
        self.modifiers = QLabel()
        self.modifiers.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.allowance)
        layout.addWidget(self.modifiers)

    def refresh(self, combatant: Combatant, state: Encounter, system: RuleSystem) -> None:
        passes = len(pass_scores(combatant)) if combatant.initiative is not None else 0
        gm_tables = tables(state)
        self.allowance.setText(movement_text(combatant.attribute("quickness"),
                                             combatant.attribute(RUN_MULTIPLIER, 3), passes, gm_tables))
        self.modifiers.setText(moving_tn_text(gm_tables))
