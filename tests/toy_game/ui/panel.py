"""The toy game's section of the combatant details panel: hit points left and the Skill an attack adds."""

from __future__ import annotations

from PySide6.QtWidgets import QGroupBox, QLabel, QVBoxLayout

from app.i18n import _, ngettext
from rules.encounter import Combatant, Encounter
from rules.systems.base import RuleSystem
from tests.toy_game.rules.system import hit_points, max_hit_points
from ui.games.base import Apply, SectionFactory


class HitPointsSection(QGroupBox):
    """``5 of 6 hit points left · Skill 2``."""

    def __init__(self, apply: Apply) -> None:
        super().__init__(_("Hit points"))
        self.label = QLabel()
        layout = QVBoxLayout(self)
        layout.addWidget(self.label)

    def refresh(self, combatant: Combatant, state: Encounter, system: RuleSystem) -> None:
        """Show ``combatant`` as it is in ``state``."""
        total = max_hit_points(combatant)
        left = ngettext("{left} of {total} hit point left", "{left} of {total} hit points left", total)
        self.label.setText(left.format(left=hit_points(combatant), total=total) + " · " + _("Skill {skill}").format(
            skill=combatant.attribute("skill")))


SECTIONS: tuple[SectionFactory, ...] = (HitPointsSection,)
