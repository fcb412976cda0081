"""The SR3 attack dialog's dice: how many dice each side rolls, the odds, then the dice themselves.

:class:`DiceBox` decides which tests the dice entries need once the attack's dice are in (a quick draw, the
attack, the dodge and the resistance, or the shooter's own after a misfire) and offers the karma each test may buy.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGridLayout, QGroupBox, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from app.i18n import _
from rules.dice import DiceExpression, Roller, parse
from rules.encounter import Combatant
from rules.systems.sr3.dice import rule_of_one
from rules.systems.sr3.shot import ShotSheet
from ui.games.sr3.attack_form import attack_pool_limit, successes_entered, tn_test
from ui.games.sr3.karma_rerolls import BoughtSuccesses, KarmaReroll, KarmaSpending, Payer, avert_disaster_box
from ui.widgets.dice_entry import DiceEntry
from ui.widgets.inputs import spin_box
from ui.widgets.odds_table import OddsTable


class DiceBox(QGroupBox):
    """How many dice each side rolls, within the combat pools left; the odds; then the dice themselves."""

    def __init__(self, roller: Roller) -> None:
        super().__init__(_("Dice and odds"))
        self.skill = spin_box(0, 40)
        self.attack_pool = spin_box(0, 0)
        self.dodge = spin_box(0, 0)
        self.body = spin_box(0, 40)
        self.resist_pool = spin_box(0, 0)
        # "modified Body (dermal armor included)": it also cancels flechette's extra level.
        self.dermal = spin_box(0, 10, name=_("Dermal armor"))
        self.dermal.setToolTip(_("The target's dermal armor: it adds its dice to Body against damage and cancels the "
                                 "extra level of flechette rounds."))
        self.attacker_pool_note = QLabel()
        self.target_pool_note = QLabel()
        self.target_pool_note.setWordWrap(True)
        self.odds = OddsTable()
        self.quick_draw_entry = DiceEntry(_("Quick draw (Reaction)"), roller)
        self.quick_draw_entry.setVisible(False)
        self.attack_entry = DiceEntry(_("Attack"), roller)
        self.dodge_entry = DiceEntry(_("Dodge"), roller)
        self.resist_entry = DiceEntry(_("Resistance"), roller)
        self.misfire_entry = DiceEntry(_("Misfire staging"), roller)
        self.misfire_entry.setVisible(False)
        self.roll_all = QPushButton(_("Roll the rest"))
        self.roll_all.setAutoDefault(False)
        self.roll_all.setToolTip(_("Roll every test still missing, in order: attack, dodge, resistance."))
        self.attack_karma = KarmaReroll(self.attack_entry, _(
            "The attacker's karma pool rolls the failed attack dice again: 1 point, each further reroll of the test "
            "1 more."), roller)
        self.dodge_karma = KarmaReroll(self.dodge_entry, _(
            "The target's karma pool rolls the failed dodge dice again: 1 point, each further reroll of the test "
            "1 more."), roller)
        self.resist_karma = KarmaReroll(self.resist_entry, _(
            "Whoever resists pays from their karma pool to roll the failed resistance dice again: 1 point, each "
            "further reroll of the test 1 more."), roller)
        self.attack_bought = BoughtSuccesses(self.attack_entry)
        self.dodge_bought = BoughtSuccesses(self.dodge_entry)
        self.resist_bought = BoughtSuccesses(self.resist_entry)
        self.avert_disaster = avert_disaster_box()
        self._explosive = False
        self._build_layout()

    def entries(self) -> tuple[DiceEntry, ...]:
        """The dice entries in the order the tests are made."""
        return (self.quick_draw_entry, self.attack_entry, self.dodge_entry, self.resist_entry, self.misfire_entry)

    def quick_draw_failed(self) -> bool:
        """Whether the quick draw's Reaction test rolled no success: no shot from that weapon this phase."""
        if self.quick_draw_entry.expression() is None:
            return False
        result = self.quick_draw_entry.result()
        return result is not None and not result.successes

    def all_ones(self) -> bool:
        """Whether the attack test rolled all 1s (the rule of one)."""
        result = self.attack_entry.result()
        return result is not None and rule_of_one(result.faces)

    def misfired(self, explosive: bool) -> bool:
        """Whether an ``explosive`` round rolled all ones on the attack dice: it detonated in the weapon, unless
        the attacker's karma made it a plain failure."""
        return explosive and self.all_ones() and not self.averted()

    def averted(self) -> bool:
        return not self.avert_disaster.isHidden() and self.avert_disaster.isChecked()

    def karma_spending(self) -> KarmaSpending:
        resisting = Payer.ATTACKER if self.misfired(self._explosive) else Payer.TARGET
        rerolls = ((self.attack_karma, Payer.ATTACKER), (self.dodge_karma, Payer.TARGET),
                   (self.resist_karma, resisting))
        bought = ((self.attack_bought, Payer.ATTACKER), (self.dodge_bought, Payer.TARGET),
                  (self.resist_bought, resisting))
        return KarmaSpending(rerolls, bought, self.averted())

    def offer_karma(self, attacker_left: int | None, target_left: int | None, editable: bool) -> None:
        """Offer the karma rerolls of each test and, after all 1s with an explosive round, the point that makes it
        a plain failure; each within what its payer has left after the rest of the shot."""
        could_avert = self._explosive and self.all_ones() and attacker_left is not None
        self.avert_disaster.setVisible(could_avert)
        if not could_avert:
            self._uncheck_averting()  # new dice, or a pool gone: a later all-ones roll asks again
        spending = self.karma_spending()
        spending.offer({Payer.ATTACKER: attacker_left, Payer.TARGET: target_left}, editable)
        spare = (attacker_left or 0) - spending.committed(Payer.ATTACKER)
        self.avert_disaster.setEnabled(editable and (self.avert_disaster.isChecked() or spare >= 1))

    def clear_karma(self) -> None:
        for button in (self.attack_karma, self.dodge_karma, self.resist_karma):
            button.rerolls = 0
        for bought in (self.attack_bought, self.dodge_bought, self.resist_bought):
            blocked = bought.box.blockSignals(True)
            bought.box.setValue(0)
            bought.box.blockSignals(blocked)
        self._uncheck_averting()

    def _uncheck_averting(self) -> None:
        blocked = self.avert_disaster.blockSignals(True)  # the form is being refreshed already
        self.avert_disaster.setChecked(False)
        self.avert_disaster.blockSignals(blocked)

    def set_tests(self, sheet: ShotSheet | None, explosive: bool, shooter_body: int,
                  quick_draw: DiceExpression | None = None) -> None:
        """Give each entry the test it needs now; a quick draw's and the attack's results decide what follows."""
        self._explosive = explosive
        if sheet is None:
            for entry in self.entries():
                entry.set_expression(None, _("Fix the attack first."))
            return
        self.quick_draw_entry.setVisible(quick_draw is not None)
        self.quick_draw_entry.set_expression(quick_draw, _("No Reaction dice."))
        if self.quick_draw_failed():
            self.misfire_entry.setVisible(False)
            for entry in (self.attack_entry, self.dodge_entry, self.resist_entry, self.misfire_entry):
                entry.set_expression(None, _("Not needed: the quick draw failed."))
            return
        attack_dice = self.skill.value() + self.attack_pool.value()
        self.attack_entry.set_expression(tn_test(attack_dice, sheet.attack_tn.value), _("Enter the skill dice."))
        misfired = self.misfired(explosive)
        self.misfire_entry.setVisible(misfired)
        self.misfire_entry.set_expression(parse("1d6") if misfired else None)
        if misfired:
            self.dodge_entry.set_expression(None, _("Not needed: the round detonated in the weapon."))
            self.resist_entry.title_label.setText(_("Shooter's resistance"))
            self.resist_entry.set_expression(tn_test(shooter_body, sheet.misfire_resist_tn), _("No Body dice."))
        else:
            self._set_defence_tests(sheet)

    def _set_defence_tests(self, sheet: ShotSheet) -> None:
        """The target's dodge and resistance, each needed only if the attack is still on."""
        hits = successes_entered(self.attack_entry, no_dice=None)  # no attack dice yet: the rest still to come
        self.resist_entry.title_label.setText(_("Resistance"))
        missed = _("Not needed: the attack missed.")
        if sheet.stopped:  # a hit the barrier stops reaches nobody: nothing to dodge or resist
            for entry in (self.dodge_entry, self.resist_entry):
                entry.set_expression(None, missed if hits == 0 else _("Not needed: the barrier stops the attack."))
            return
        dodge = tn_test(self.dodge.value(), sheet.dodge_tn.value) if hits != 0 else None
        self.dodge_entry.set_expression(dodge, missed if hits == 0 else _("No dodge."))
        dodge_hits = successes_entered(self.dodge_entry)
        dodged = (hits is not None and dodge_hits is not None
                  and dodge_hits + self.dodge_bought.paid() > hits + self.attack_bought.paid())
        needed = hits != 0 and not dodged
        resist = tn_test(self.resist_dice(), sheet.resist_tn) if needed else None
        reason = missed if hits == 0 else (_("Not needed: the attack was dodged.") if dodged else _("No dice."))
        self.resist_entry.set_expression(resist, reason)

    def limit_attack_pool(self, attacker: Combatant | None, at_most_skill: bool) -> None:
        """The attacker's pool dice within what is left (and, by the encounter's option, the skill), the note
        beside them saying so."""
        cap, note, why = attack_pool_limit(attacker, self.skill.value(), at_most_skill)
        self.attack_pool.setMaximum(cap)
        self.attacker_pool_note.setText(note)
        self.attacker_pool_note.setToolTip(why)

    def resist_dice(self) -> int:
        """The resistance test's dice: Body, dermal armor and the combat pool dice put in."""
        return self.body.value() + self.dermal.value() + self.resist_pool.value()

    def _build_layout(self) -> None:
        grid = QGridLayout()
        cells = ((_("Attack skill"), self.skill, 0, 0), (_("+ combat pool"), self.attack_pool, 0, 2),
                 (_("Dodge (pool)"), self.dodge, 1, 0), (_("Body"), self.body, 2, 0),
                 (_("+ combat pool"), self.resist_pool, 2, 2), (_("+ dermal armor"), self.dermal, 3, 0))
        for text, widget, row, column in cells:
            grid.addWidget(QLabel(text), row, column)
            grid.addWidget(widget, row, column + 1)
        grid.addWidget(self.attacker_pool_note, 0, 4)
        grid.addWidget(self.target_pool_note, 1, 2, 1, 3)
        grid.setColumnStretch(4, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(grid)
        layout.addWidget(self.odds)
        karma: dict[DiceEntry, tuple[QWidget, ...]] = {
            self.attack_entry: (self.avert_disaster, *self.attack_bought.widgets(), self.attack_karma),
            self.dodge_entry: (*self.dodge_bought.widgets(), self.dodge_karma),
            self.resist_entry: (*self.resist_bought.widgets(), self.resist_karma)}
        for entry in self.entries():
            layout.addWidget(entry)
            if entry in karma:
                buttons = QHBoxLayout()
                buttons.addStretch(1)
                for button in karma[entry]:
                    buttons.addWidget(button)
                layout.addLayout(buttons)
        layout.addWidget(self.roll_all, 0, Qt.AlignmentFlag.AlignRight)

