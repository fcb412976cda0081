"""Člověk roll: an action or a reaction, optionally against a target who defends, with its power and wounds.

The form becomes :class:`CheckInputs`; the rules' odds (:mod:`rules.systems.clovek.odds`) give the chance of each
outcome word and of each power before any die is rolled, and follow every change. The dice are rolled with the
injected roller or typed in; Resolve applies one :class:`~rules.systems.clovek.ClovekCheck` through the document
(spent dice, defence, power, wounds and long-action progress all in one undoable step).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.document import Change
from app.i18n import N_, _
from rules.dice import Roller
from rules.encounter import Combatant, Encounter, Weapon
from rules.errors import RulesError
from rules.history import Operation
from rules.systems.clovek import ClovekCheck, PowerRoll
from rules.systems.clovek.banks import ARMOR, BANKS, CAPACITY, WOUNDS, capacity_name, track_key
from rules.systems.clovek.dice import RollRules, SkillKind
from rules.systems.clovek.economy import ACTION, REACTION, action_type, round_running
from rules.systems.clovek.long_actions import LongState, long_actions
from rules.systems.clovek.odds import (
    OUTCOMES,
    outcome_key,
)
from rules.systems.clovek.rolls import (
    POWER_CRITICAL_RANGE,
    PowerSource,
    evaluate_check,
    roll_rules,
)
from rules.systems.clovek.weapons import (
    BANK,
    BONUS,
    DICE,
    HARM,
    KIND,
    POWER_BONUS,
    SKILL,
    SKILL_KIND,
    SKILL_NAME,
    SUPERNATURAL,
    VALUE,
)
from rules.turns import current_actor
from ui.charts.odds_chart import OddsChart
from ui.dialogs.attack_dialog import AttackDialog, Marked
from ui.games.clovek.check_form import (
    CheckInputs,
    PowerBox,
    PowerDice,
    RollBox,
    combo,
    fill,
    outcome_label,
    outcome_rows,
    pair,
    power_row_label,
    power_rows,
)
from ui.games.clovek.extra_action import ExtraActionPicker
from ui.games.clovek.odds import TICKS, outcome_chart, power_chart
from ui.widgets.dice_entry import DiceEntry
from ui.widgets.layout import column as _column
from ui.widgets.odds_table import OddsTable


class ClovekCheckDialog(AttackDialog):
    """Resolve one Člověk roll (an attack with its defence and power, or any action or reaction)."""

    title = N_("Roll")
    next_text = N_("Next roll")
    resolved_hint = N_("Enter sets up the next roll; Esc closes.")
    no_target = N_("No target")

    # --- construction ---------------------------------------------------------------------------
    def _build(self, roller: Roller) -> None:
        self._problem = ""
        self._armor = 0  # the target's armor in the power penalty now (what the GM typed on top stays)
        self.role = combo([(_("Action"), ACTION), (_("Reaction"), REACTION)])
        self.extra_action = ExtraActionPicker()
        self.long_action = QComboBox()
        self.roll_box = RollBox(_("Roll"))
        self.defends = QCheckBox(_("The target defends with a reaction"))
        self.defence_box = RollBox(_("Defence"))
        self.power_box = PowerBox()
        self.outcome_odds = OddsTable()
        self.power_odds = OddsTable()
        self.outcome_chart = OddsChart(export_name=_("roll-odds"), compact=True)
        self.power_chart = OddsChart(export_name=_("power-odds"), compact=True)
        self.charts = QTabWidget()
        self.charts.addTab(self.outcome_chart, _("Outcome chart"))
        self.charts.addTab(self.power_chart, _("Power chart"))
        self.roll_entry = DiceEntry(_("Roll"), roller)
        self.defence_entry = DiceEntry(_("Defence"), roller)
        self.power_entry = DiceEntry(_("Power"), roller)
        self.roll_all = QPushButton(_("Roll the rest"))
        self.roll_all.setAutoDefault(False)
        self._build_layout()

    def _build_layout(self) -> None:
        who = QGroupBox(_("Who"))
        form = QFormLayout(who)
        form.addRow(_("Roller"), self.attacker)
        form.addRow(_("Weapon"), self.weapon_row())
        form.addRow(_("As"), pair(self.role, "", self.extra_action))
        form.addRow(_("Long action"), self.long_action)
        self.defence_box.setTitle(_("Target and defence"))
        self.defence_box.form.insertRow(0, _("Target"), self.target)
        self.defence_box.form.insertRow(1, "", self.defends)
        odds = QGroupBox(_("Odds of the outcome"))
        QVBoxLayout(odds).addWidget(self.outcome_odds)
        self.power_odds_box = QGroupBox(_("Odds of the power"))
        QVBoxLayout(self.power_odds_box).addWidget(self.power_odds)
        dice = QGroupBox(_("Dice"))
        dice_layout = QVBoxLayout(dice)
        for entry in self.entries():
            dice_layout.addWidget(entry)
        dice_layout.addWidget(self.roll_all, 0, Qt.AlignmentFlag.AlignRight)
        result = QGroupBox(_("Result"))
        QVBoxLayout(result).addWidget(self.result_label)
        content = QWidget()
        columns = QHBoxLayout(content)
        columns.setContentsMargins(0, 0, 0, 0)
        # The charts go under the dice, the result beside them, so that the dialog fits a laptop screen.
        for column in ((who, self.roll_box, self.power_box), (self.defence_box, self.power_odds_box, result),
                       (odds, dice, self.charts)):
            columns.addLayout(_column(*column), 1)
        self._lay_out(content, chrome_height=100)

    def entries(self) -> tuple[DiceEntry, ...]:
        """The dice entries in the order they are rolled."""
        return (self.roll_entry, self.defence_entry, self.power_entry)

    def _odds_views(self) -> tuple[Marked, ...]:
        return (self.outcome_odds, self.outcome_chart)

    def _connect(self) -> None:
        super()._connect()
        self._edits.watch(*self._inputs())
        self.roll_box.bank.currentIndexChanged.connect(self._on_bank)
        self.power_box.source.currentIndexChanged.connect(self._on_source)
        self.long_action.currentIndexChanged.connect(self._on_long_action)
        self.roll_all.clicked.connect(self.roll_remaining)

    def _inputs(self) -> list[QWidget]:
        return [self.role, self.extra_action, self.defends, *self.roll_box.inputs(), *self.defence_box.inputs(),
                *self.power_box.inputs()]

    # --- combatants -----------------------------------------------------------------------------
    @property
    def _state(self) -> Encounter:
        return self._document.state

    def _targets(self, attacker: Combatant | None, wanted: str | None) -> list[Combatant]:
        return [c for c in self._state.combatants.values() if attacker is None or c.id != attacker.id]

    def _default_target(self, candidates: list[Combatant], attacker: Combatant) -> str | None:
        """The first foe for a roll in the roller's own turn; out of it, no target."""
        foes = [c for c in candidates if c.side is not attacker.side]
        return foes[0].id if foes and attacker.id == current_actor(self._state) else None

    def _prefill_attacker(self) -> None:
        """From the roller: the role (action in one's own turn), its turn's type, long actions, power value."""
        roller = self._attacker()
        if roller is None:
            return
        acting = roller.id == current_actor(self._state)
        self.role.setCurrentIndex(0 if acting or not round_running(self._state) else 1)
        chosen = action_type(roller)
        if chosen is not None and acting:
            self.roll_box.bank.setCurrentIndex(BANKS.index(chosen))
        running = [a for a in long_actions(roller) if a.state is LongState.RUNNING]
        fill(self.long_action, [(_("None"), None), *((a.name, a.id) for a in running)], None)
        self.long_action.setEnabled(bool(running))
        self._prefill_power()

    def _prefill_power(self) -> None:
        roller = self._attacker()
        name = str(self.roll_box.bank.currentData())
        if roller is not None and self.power_box.chosen() is PowerSource.ATTRIBUTE:
            self.power_box.value.setValue(roller.attribute(CAPACITY[name]))
            self.power_box.item.setText(capacity_name(roller, name, self._state))
        self._fill_tracks()

    def _fill_tracks(self) -> None:
        """The target's tracks; with a power roll the wounds of the roll's type by default, else none."""
        target = self._target()
        current = self.power_box.track.currentData()
        items: list[tuple[str, object]] = [(_("No wounds"), "")]
        if target is not None:
            items += [(_(spec.label), spec.key) for spec in self._document.system.tracks(target, self._state)]
        rolled = target is not None and self.power_box.chosen() is not None
        default = track_key(str(self.roll_box.bank.currentData()), WOUNDS) if rolled else ""
        fill(self.power_box.track, items, (current or default) if rolled else "")

    def _apply_weapon(self, weapon: Weapon | None) -> None:
        """The saved weapon's roll and power into the form (None, typed in the form: left as the GM typed it)."""
        if weapon is None:
            return
        roll = self.roll_box
        bank = str(weapon.value(BANK))
        roll.bank.setCurrentIndex(BANKS.index(bank))
        roll.skill_name.setText(str(weapon.value(SKILL_NAME) or ""))
        roll.skill.setValue(weapon.number(SKILL))
        roll.kind.setCurrentIndex(max(0, roll.kind.findData(weapon.value(SKILL_KIND))))
        roll.supernatural.setChecked(weapon.value(SUPERNATURAL) is True)
        roll.bonus.setValue(weapon.number(BONUS))
        if weapon.number(DICE):
            roll.limit(self._attacker())  # the bank chosen above caps the dice
            roll.dice.setValue(weapon.number(DICE))
        power = self.power_box
        power.source.setCurrentIndex(max(0, power.source.findData(weapon.value(KIND))))
        power.bonus.setValue(weapon.number(POWER_BONUS))
        self._prefill_power()  # a capacity attribute's value and name, and the target's tracks
        if power.chosen() is PowerSource.EQUIPMENT:
            power.value.setValue(weapon.number(VALUE))
            power.item.setText(weapon.name)
        power.track.setCurrentIndex(max(0, power.track.findData(track_key(bank, str(weapon.value(HARM))))))

    # --- reacting to the GM ---------------------------------------------------------------------
    def _prefill_target(self) -> None:
        self._fill_tracks()
        self._prefill_armor()

    def _prefill_armor(self) -> None:
        """The target's armor as a penalty to the power (clovek.md: "the opponent's light armor −2"): another target
        takes back the last one's and adds its own; a penalty the GM typed on top stays."""
        target = self._target()
        armor = target.attribute(ARMOR) if target is not None else 0
        penalty = self.power_box.penalty
        penalty.setValue(max(0, penalty.value() + armor - self._armor))
        self._armor = armor

    def _on_bank(self) -> None:
        if self._edits.quiet:
            return
        with self._edits.quietly():
            self._prefill_power()
            self.power_box.track.setCurrentIndex(max(0, self.power_box.track.findData(
                track_key(str(self.roll_box.bank.currentData()), WOUNDS))))
        self._refresh()

    def _on_source(self) -> None:
        if self._edits.quiet:
            return
        with self._edits.quietly():
            self._prefill_power()
        self._refresh()

    def _on_long_action(self) -> None:
        if self._edits.quiet:
            return
        roller, chosen = self._attacker(), self.long_action.currentData()
        with self._edits.quietly():
            action = next((a for a in long_actions(roller) if a.id == chosen), None) if roller else None
            self.roll_box.bank.setEnabled(action is None)
            if action is not None:
                self.roll_box.bank.setCurrentIndex(BANKS.index(action.bank))
                if self.power_box.chosen() is None:
                    self.power_box.source.setCurrentIndex(1)
                self._prefill_power()
        self._refresh()

    def _catch_up(self, change: Change | None) -> None:
        if change is None:
            return
        self._clear_for_next()  # someone else changed the fight: the dice entered may no longer stand
        if change.roster_changed:
            self._fill_tracks()

    def _clear_for_next(self) -> None:
        super()._clear_for_next()
        for marked in (self.power_odds, self.power_chart):
            marked.highlight(None)

    # --- the live sheet -------------------------------------------------------------------------
    def _critical_range(self) -> int:
        value = self._document.system.option(self._state, "power_critical_range")
        return value if isinstance(value, int) else POWER_CRITICAL_RANGE

    def _rules(self) -> RollRules:
        return roll_rules(self._document.system, self._state)

    def inputs_now(self) -> CheckInputs:
        """The form as the odds take it."""
        defence = self.defence_box.values() if self._defending() else None
        return CheckInputs(self.roll_box.values(), defence, self.power_box.spec(self._critical_range()))

    def _defending(self) -> bool:
        return self._target() is not None and self.defends.isChecked()

    def _recompute(self) -> None:
        with self._edits.quietly():
            rules = self._rules()
            self.roll_box.rules = self.defence_box.rules = self.power_box.rules = rules
            self.roll_box.limit(self._attacker())
            self.defence_box.limit(self._target())
            self.power_box.sync()
            self._set_editable(not self._resolved)
        self._show_odds()

    def _show_odds(self) -> None:
        inputs = self.inputs_now()
        try:
            self.outcome_odds.set_outcomes(outcome_rows(inputs))
            self.outcome_chart.set_data(outcome_chart(inputs))
            rows = power_rows(inputs)
            self.power_chart.set_data(power_chart(inputs))
        except RulesError as problem:
            self._problem = str(problem)
            self.outcome_odds.set_unknown([outcome_label(key) for key in OUTCOMES])
            self.outcome_chart.set_unknown([_(TICKS[key]) for key in OUTCOMES])
            self.power_chart.set_data(None)
            rows = []
        else:
            self._problem = ""
        self.power_odds.set_outcomes(rows)
        self.power_odds_box.setVisible(bool(rows))
        self.charts.setTabEnabled(1, bool(rows))

    # --- dice -----------------------------------------------------------------------------------
    def _follow_dice(self) -> None:
        inputs = self.inputs_now()
        self.roll_entry.set_expression(inputs.roll.test(), _("Choose how many dice to roll."))
        defence = inputs.defence.test() if inputs.defence is not None else None
        self.defence_entry.set_expression(defence, _("No defence."))
        self.defence_entry.setVisible(self._target() is not None)
        net = self.net_successes()
        power = inputs.power
        if power is None:
            self.power_entry.set_expression(None, _("No power roll."))
        elif net is None:
            self.power_entry.set_expression(None, _("Roll the action first."))
        elif net <= 0:
            self.power_entry.set_expression(None, _("Not needed: the action failed."))
        else:
            self.power_entry.set_expression(PowerDice(net, power.value, SkillKind.ABILITY, rules=power.rules))

    def net_successes(self) -> int | None:
        """Successes that get through once the roll (and the defence) are entered, else None."""
        roll = self.roll_entry.result()
        if roll is None:
            return None
        values = self.roll_box.values()
        attack = evaluate_check(roll.faces, values.skill, values.kind, values.supernatural, values.bonus,
                                values.penalty, values.rules)
        if not self._defending() or self.defence_entry.expression() is None or not attack.succeeded:
            return attack.successes
        defence = self.defence_entry.result()
        if defence is None:
            return None
        d = self.defence_box.values()
        held = evaluate_check(defence.faces, d.skill, d.kind, d.supernatural, d.bonus, d.penalty, d.rules)
        return attack.successes - max(0, held.successes)

    def _resolve_problem(self) -> tuple[str, bool]:
        if self._attacker() is None:
            return _("Choose who rolls."), True
        if self._problem:
            return self._problem, True
        if self.roll_entry.expression() is None:
            return _("Choose how many dice to roll."), True
        needs_power = bool(self.power_box.track.currentData()) or self.long_action.currentData() is not None
        if needs_power and self.power_box.chosen() is None:
            return _("Wounds and long actions need a power roll: choose where the power comes from."), True
        if not all(entry.is_complete() for entry in self.entries()):
            return _("Roll or type the dice, then press Enter to resolve."), False
        return "", False

    # --- resolving ------------------------------------------------------------------------------
    def operation(self) -> ClovekCheck | None:
        """The roll as the form stands, or None while something is missing."""
        roller = self._attacker()
        if roller is None or self._resolve_problem()[0]:
            return None
        target = self._target()
        defence = self.defence_box.skill_roll(self.defence_entry.faces()) if self.defence_entry.faces() else None
        power = None
        source = self.power_box.chosen()
        if source is not None and self.power_entry.faces():
            box = self.power_box
            power = PowerRoll(source, box.value.value(), self.power_entry.faces(), box.bonus.value(),
                              box.penalty.value(), box.drop_base.isChecked() and source is PowerSource.ATTRIBUTE,
                              box.item.text().strip())
        track = str(self.power_box.track.currentData() or "") if target is not None and power is not None else ""
        long_action = self.long_action.currentData()
        return ClovekCheck(roller.id, self.roll_box.skill_roll(self.roll_entry.faces()),
                           str(self.role.currentData()), power, target.id if target else None, defence, track,
                           long_action if isinstance(long_action, str) else "",
                           False, self.weapon_name(), self.extra_action.grant())

    def rolled_outcome(self, operation: Operation) -> str | None:
        assert isinstance(operation, ClovekCheck)
        result = operation.test.result(self._rules())
        net = self.net_successes()
        return outcome_label("critical" if result.critical else
                             outcome_key(net if net is not None else result.successes))

    def _after_resolve(self, operation: Operation, change: Change) -> None:
        """The power rolled, marked in its own table and chart."""
        assert isinstance(operation, ClovekCheck)
        net = self.net_successes()
        if operation.power is not None and net is not None and net > 0:
            total = operation.power.result(net, self._critical_range(), self._rules()).total
            labels = [label for label, _p in self.power_odds.outcomes()]
            self.power_odds.highlight(power_row_label(total, labels))
            self.power_chart.highlight(power_row_label(total, labels))

    def _set_editable(self, editable: bool) -> None:
        super()._set_editable(editable)
        for widget in (self.role, self.roll_box, self.power_box, self.roll_all):
            widget.setEnabled(editable)
        self.long_action.setEnabled(editable and self.long_action.count() > 1)
        self.defends.setEnabled(editable and self._target() is not None)
        for defence in (*self.defence_box.inputs(), self.defence_box.skill_name):
            defence.setEnabled(editable and self._defending())
        document = self._document
        self.extra_action.follow(self._attacker(), document.state, document.system,
                                 self.role.currentData() == ACTION)
        self.extra_action.setEnabled(editable and self.extra_action.isEnabled())
