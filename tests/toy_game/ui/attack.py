"""The toy game's attack dialog: the whole of it is the form, the odds and the operation (the shared base
does the rest)."""

from __future__ import annotations

from PySide6.QtWidgets import QVBoxLayout, QWidget

from app.i18n import _
from rules.dice import Roller, parse
from rules.history import Operation
from tests.toy_game.rules.ops import ToyAttack, hit_chance
from ui.dialogs.attack_dialog import AttackDialog, Marked
from ui.widgets.dice_entry import DiceEntry
from ui.widgets.odds_table import OddsTable

HIT, MISS = "Hit", "Miss"


class ToyAttackDialog(AttackDialog):
    """1d6 + Skill against the target's Defence, with the chance of a hit shown before the die."""

    def _build(self, roller: Roller) -> None:
        self.die = DiceEntry(_("Attack die"), roller)
        self.odds = OddsTable()
        content = QWidget()
        layout = QVBoxLayout(content)
        layout.addLayout(self._pickers_form())
        layout.addWidget(self.odds)
        layout.addWidget(self.die)
        layout.addWidget(self.result_label)
        self._lay_out(content)

    def entries(self) -> tuple[DiceEntry, ...]:
        return (self.die,)

    def _odds_views(self) -> tuple[Marked, ...]:
        return (self.odds,)

    def _recompute(self) -> None:
        attacker, target = self._attacker(), self._target()
        if attacker is None or target is None:
            self.odds.set_unknown([HIT, MISS])
            self.die.set_expression(None, _("Choose a target."))
            return
        chance = hit_chance(ToyAttack(attacker.id, target.id, 1), self._document.state)
        self.odds.set_outcomes([(HIT, chance), (MISS, 1.0 - chance)])
        self.die.set_expression(parse("1d6"))

    def operation(self) -> Operation | None:
        attacker, target = self._attacker(), self._target()
        if attacker is None or target is None or self.problem():
            return None
        return ToyAttack(attacker.id, target.id, self.die.faces()[0][0])

    def rolled_outcome(self, operation: Operation) -> str | None:
        assert isinstance(operation, ToyAttack)
        return HIT if operation.hits(self._document.state) else MISS
