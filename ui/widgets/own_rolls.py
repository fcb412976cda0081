"""Each target's own roll against a hit typed in the Damage dialog (SR3: Body against a grenade's ``10S``).

One block per target: what it rolls and against what, the pool dice the GM adds, the odds of each outcome
before the roll, and the faces (rolled here or typed as the player rolled them). The game decides all of it
(:meth:`RuleSystem.own_roll`); this widget only shows the rolls and collects the faces.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QScrollArea, QVBoxLayout, QWidget

from app.i18n import _
from app.session import RolledHarm
from rules.dice import Roller
from rules.harm import OwnRoll
from ui.widgets.dice_entry import DiceEntry
from ui.widgets.inputs import spin_box
from ui.widgets.messages import text_label
from ui.widgets.odds_table import format_percent

#: Targets shown before the list scrolls (a grenade among a whole gang must not grow past the screen).
VISIBLE_TARGETS = 3
#: The most of the screen's height the list takes, whatever the targets (the rest of the dialog stays in view).
SCREEN_SHARE = 0.45


def odds_text(odds: Sequence[tuple[str, float]]) -> str:
    """``Serious 62.0 % · Moderate 30.1 % · No damage 0.2 %``."""
    return " · ".join(f"{outcome} {format_percent(chance)}" for outcome, chance in odds)


class OwnRollBlock(QWidget):
    """One target's roll: its dice and TN, pool dice, odds, faces."""

    changed = Signal()

    def __init__(self, name: str, roller: Roller, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._roll: OwnRoll | None = None
        self.name = QLabel(name)  # plain text: a name is never markup
        self.name.setTextFormat(Qt.TextFormat.PlainText)
        bold = self.name.font()
        bold.setBold(True)
        self.name.setFont(bold)
        self.explanation = text_label()
        secondary = self.explanation.palette()
        secondary.setColor(QPalette.ColorRole.WindowText, secondary.color(QPalette.ColorRole.PlaceholderText))
        self.explanation.setPalette(secondary)
        self.pool_label = QLabel()
        self.pool = spin_box(0, 0)
        self.pool_label.setBuddy(self.pool)
        self.odds = text_label()
        self.entry = DiceEntry(_("Roll"), roller)
        self.entry.title_label.hide()  # the block's header names whose dice these are
        self._layout()
        self.pool.valueChanged.connect(self._show_roll)
        self.entry.changed.connect(self.changed)

    def _layout(self) -> None:
        """Who and against what, the pool dice and the odds before the roll, then the faces."""
        header = QHBoxLayout()
        header.addWidget(self.name)
        header.addWidget(self.explanation, 1)
        pool_row = QHBoxLayout()
        pool_row.addWidget(self.pool_label)
        pool_row.addWidget(self.pool)
        pool_row.addWidget(self.odds, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 4)
        layout.setSpacing(2)
        layout.addLayout(header)
        layout.addLayout(pool_row)
        layout.addWidget(self.entry)

    def set_roll(self, roll: OwnRoll) -> None:
        """Show ``roll``; faces already typed stay (re-checked against the new dice)."""
        self._roll = roll
        self.pool_label.setText(_("+ {pool} (left: {left})").format(pool=roll.pool_label, left=roll.pool_left))
        self.explanation.setText(roll.label)
        self.pool_label.setVisible(bool(roll.pool_label))
        self.pool.setVisible(bool(roll.pool_label))
        self.pool.setMaximum(roll.pool_left)
        self._show_roll()

    def pool_dice(self) -> int:
        """The pool dice the GM added."""
        return self.pool.value() if self._roll is not None and self._roll.pool_label else 0

    def _show_roll(self) -> None:
        if self._roll is None:
            return
        self.entry.set_expression(self._roll.expression(self.pool_dice()), _("No dice: the hit is marked as read."))
        self.odds.setText(_("Odds: {odds}").format(odds=odds_text(self._roll.odds(self.pool_dice()))))

    def is_complete(self) -> bool:
        """Whether the faces are there and valid (or no dice are needed)."""
        return self.entry.is_complete()

    def roll_if_empty(self) -> bool:
        """Roll when nothing is typed yet (True if it rolled)."""
        if self.entry.is_complete() or self.entry.faces_edit.text().strip():
            return False
        self.entry.roll()
        return True

    def rolled(self) -> RolledHarm | None:
        """The roll with its faces, or None while they are missing or wrong."""
        if self._roll is None or not self.entry.is_complete():
            return None
        return RolledHarm(self._roll, self.entry.faces(), self.pool_dice())


class OwnRolls(QScrollArea):
    """The blocks of every target that rolls on its own, in the targets' order; hidden when none does."""

    changed = Signal()

    def __init__(self, roller: Roller, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._roller = roller
        self._blocks: dict[str, OwnRollBlock] = {}
        self._inner = QWidget()
        self._column = QVBoxLayout(self._inner)
        self._column.setContentsMargins(0, 0, 0, 0)
        self._column.addStretch(1)
        self.setWidget(self._inner)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setVisible(False)

    def show_rolls(self, rolls: Mapping[str, OwnRoll], names: Mapping[str, str]) -> None:
        """One block per target in ``rolls`` (the others' blocks hidden, their faces kept for a retyped code)."""
        for combatant_id, block in self._blocks.items():
            block.setVisible(combatant_id in rolls)
        for combatant_id, roll in rolls.items():
            if combatant_id not in self._blocks:
                self._add_block(combatant_id, names[combatant_id])
            self._blocks[combatant_id].set_roll(roll)
        self.setVisible(bool(rolls))
        self._fit(len(rolls))

    def _add_block(self, combatant_id: str, name: str) -> None:
        block = self._blocks[combatant_id] = OwnRollBlock(name, self._roller)
        block.changed.connect(self.changed)
        self._column.insertWidget(self._column.count() - 1, block)

    def _fit(self, shown: int) -> None:
        """Tall enough for a few targets without scrolling; more scroll."""
        if not shown:
            return
        block_height = max(block.sizeHint().height() for block in self._blocks.values())
        wanted = block_height * min(shown, VISIBLE_TARGETS) + 4
        screen = self.screen()
        if screen is not None:
            wanted = min(wanted, int(screen.availableGeometry().height() * SCREEN_SHARE))
        self.setMinimumHeight(wanted)

    def blocks(self) -> dict[str, OwnRollBlock]:
        """The visible blocks by combatant id."""
        return {combatant_id: block for combatant_id, block in self._blocks.items() if not block.isHidden()}

    def missing(self) -> list[str]:
        """The ids of the targets whose faces are missing or wrong."""
        return [combatant_id for combatant_id, block in self.blocks().items() if not block.is_complete()]

    def roll_empty(self) -> list[str]:
        """Roll every target with nothing typed; the ids rolled."""
        return [combatant_id for combatant_id, block in self.blocks().items() if block.roll_if_empty()]

    def rolled(self) -> dict[str, RolledHarm]:
        """Every complete roll by combatant id."""
        return {combatant_id: rolled for combatant_id, block in self.blocks().items()
                if (rolled := block.rolled()) is not None}

