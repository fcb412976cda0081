"""Shadowrun 3's sections of the combatant details panel: the position (:mod:`ui.games.sr3.position`), the aim
(:mod:`ui.games.sr3.aim`), and the karma pool, refreshed when the GM says.

sr3.md, Pools: the karma pool "refreshes every 24 h or when the GM decides, never per turn"; "bought successes cost
1 point each, permanently, and need at least one rolled success". Points spent on rerolls go through the actor
strip's pool buttons like any pool's.
"""

from __future__ import annotations

from PySide6.QtWidgets import QGroupBox, QHBoxLayout, QLabel, QPushButton, QVBoxLayout

from app.i18n import _
from rules.encounter import Combatant, Encounter
from rules.systems.base import RuleSystem
from rules.systems.sr3 import BuyKarmaSuccesses, RefreshKarma
from rules.systems.sr3.karma import karma_text
from rules.systems.sr3.system import KARMA_POOL
from ui.games.base import Apply, SectionFactory
from ui.games.sr3.aim import AimSection
from ui.games.sr3.explosives import ExplosiveSection
from ui.games.sr3.movement import MovementSection
from ui.games.sr3.position import PositionSection


class KarmaSection(QGroupBox):
    """The karma points left, the GM's refresh (this one or everyone), and a success bought for good."""

    def __init__(self, apply: Apply) -> None:
        super().__init__(_("Karma pool"))
        self._apply = apply
        self._id = ""
        self.left = QLabel()
        self.left.setWordWrap(True)
        self.refresh_one = QPushButton(_("Refresh"))
        self.refresh_one.setToolTip(_("Karma refreshes when the GM says (every 24 hours of game time), never per "
                                      "combat turn."))
        self.refresh_all = QPushButton(_("Refresh everyone's"))
        self.buy = QPushButton(_("Buy a success"))
        self.buy.setToolTip(_("For a test that rolled at least one success: one more, for a karma point lost for "
                              "good."))
        refreshes = QHBoxLayout()  # two rows: three buttons in one overflowed the dock in Russian
        refreshes.addWidget(self.refresh_one)
        refreshes.addWidget(self.refresh_all)
        buying = QHBoxLayout()
        buying.addWidget(self.buy)
        buying.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.left)
        layout.addLayout(refreshes)
        layout.addLayout(buying)
        self.refresh_one.clicked.connect(lambda: self._apply(RefreshKarma(self._id)))
        self.refresh_all.clicked.connect(lambda: self._apply(RefreshKarma()))
        self.buy.clicked.connect(lambda: self._apply(BuyKarmaSuccesses(self._id)))

    def refresh(self, combatant: Combatant, state: Encounter, system: RuleSystem) -> None:
        """Show ``combatant``'s karma pool (or that it has none)."""
        self._id = combatant.id
        pool = combatant.pools.get(KARMA_POOL)
        if pool is None:
            self.left.setText(_("No karma pool: give the character a Karma pool in its stats."))
        else:
            self.left.setText(karma_text(pool.remaining, pool.size))
        self.refresh_one.setEnabled(pool is not None and pool.spent > 0)
        self.buy.setEnabled(pool is not None and pool.remaining > 0)
        self.refresh_all.setEnabled(any(KARMA_POOL in c.pools and c.pools[KARMA_POOL].spent
                                        for c in state.combatants.values()))


SECTIONS: tuple[SectionFactory, ...] = (PositionSection, AimSection, KarmaSection, MovementSection, ExplosiveSection)
