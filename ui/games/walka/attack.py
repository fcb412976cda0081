"""Walka attack: the opposed roll-under test and the damage pool, odds live before the dice, one operation out.

The form (``ui.games.walka.attack_form``) gives :class:`AttackInputs`; ``work_out`` asks the rules for the
:class:`AttackSheet` the dialog shows. The attacker's dice, then the defender's (only if the attacker
succeeded), then the damage pool (only on a hit) are rolled or typed; Resolve applies one
:class:`~rules.systems.walka.WalkaAttack` through the document.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QFormLayout, QGroupBox, QHBoxLayout, QPushButton, QVBoxLayout, QWidget

from app.document import Change
from app.i18n import _, ngettext
from rules.dice import DiceExpression, Roller, RollUnderTest, ThresholdCount
from rules.effects import effects_meaning, meaning_label
from rules.encounter import Combatant, Effect, Side, Status, Weapon
from rules.errors import RulesError
from rules.history import Operation
from rules.systems.walka import SpendChance, WalkaAttack, WalkaSystem
from rules.systems.walka import actions as walka_actions
from rules.systems.walka import weapons as walka_weapons
from rules.systems.walka.contest import HIT_FACE, Outcome, contest, hit_points_removed, succeeds
from rules.systems.walka.effect_meanings import effect_dice
from rules.systems.walka.skills import ATTACK_SKILLS
from rules.systems.walka.system import chances_left, hit_points, max_hit_points
from rules.weapons import fire
from ui.charts.odds_chart import OddsChart
from ui.dialogs.attack_dialog import AttackDialog, Marked
from ui.games.walka.attack_form import (
    NO_DEFENCE,
    AttackBox,
    AttackInputs,
    AttackSheet,
    DefenceBox,
    DiceBox,
    ModifiersBox,
    outcome_label,
    pool_text,
    work_out,
)
from ui.games.walka.odds import attack_chart
from ui.widgets.dice_entry import DiceEntry
from ui.widgets.layout import column as _column
from ui.widgets.messages import show_message, text_label

# --- the dialog ----------------------------------------------------------------------------------------


class WalkaAttackDialog(AttackDialog):
    """Resolve one Walka attack (or several in a row) with the odds shown before the dice."""

    @property
    def walka(self) -> WalkaSystem:
        """The game's rules (this dialog only opens on Walka encounters)."""
        system = self._document.system
        assert isinstance(system, WalkaSystem)
        return system

    @property
    def sheet(self) -> AttackSheet | None:
        """What the rules make of the form now."""
        return self._sheet

    # --- construction ---------------------------------------------------------------------------
    def _build(self, roller: Roller) -> None:
        self._sheet: AttackSheet | None = None
        self._from_effects: tuple[int, ...] = (0, 0, 0, 0)  # dice the effects added: attack, then defence
        self.effects_note = text_label()  # which effects added them
        self.effects_note.hide()
        self.attack = AttackBox(self.weapon_picker, self.ammunition)
        self.defence, self.modifiers = DefenceBox(), ModifiersBox()
        self.dice = DiceBox(roller)
        self.chart = OddsChart(export_name=_("attack-odds"), compact=True)
        self.chance_button = QPushButton()
        result_box = QGroupBox(_("Result"))
        result_layout = QVBoxLayout(result_box)
        result_layout.addWidget(self.result_label)
        result_layout.addWidget(self.chance_button, 0, Qt.AlignmentFlag.AlignLeft)
        self.chance_button.setVisible(False)
        self.chance_button.setAutoDefault(False)
        content = QWidget()
        columns = QHBoxLayout(content)
        columns.setContentsMargins(0, 0, 0, 0)
        chart_box = QGroupBox(_("Odds chart"))
        QVBoxLayout(chart_box).addWidget(self.chart)
        pickers = QFormLayout()  # the weapon picker sits in the Attack box, over the inputs it fills
        pickers.addRow(_("Attacker"), self.attacker)
        pickers.addRow(_("Target"), self.target)
        for column in (_column(pickers, self.attack, self.defence),
                       _column(self.modifiers, self.effects_note, result_box, chart_box), _column(self.dice)):
            columns.addLayout(column)
        self._lay_out(content, centre=False)  # sized on first show, where it was placed

    def _connect(self) -> None:
        super()._connect()
        self._edits.watch(self.attack.value, self.attack.weapon_dice, self.attack.modifier, self.defence.value,
                          self.defence.armor, self.modifiers.attack_bonus, self.modifiers.attack_penalty,
                          self.modifiers.defence_bonus, self.modifiers.defence_penalty, self.modifiers.second,
                          self.modifiers.prepared, self.modifiers.defence_prepared, self.modifiers.aimed,
                          self.modifiers.aimed_twice, self.attack.counts)
        self.attack.weapon.textEdited.connect(self._on_name_edited)
        self.attack.skill.currentIndexChanged.connect(self._on_skill)
        self.defence.defence.currentIndexChanged.connect(self._on_defence)
        self.dice.roll_all.clicked.connect(self.roll_remaining)
        self.chance_button.clicked.connect(self.spend_chance)

    def entries(self) -> tuple[DiceEntry, ...]:
        return self.dice.entries()

    def _odds_views(self) -> tuple[Marked, ...]:
        return (self.dice.odds, self.chart)

    # --- combatants -----------------------------------------------------------------------------
    def _targets(self, attacker: Combatant | None, wanted: str | None) -> list[Combatant]:
        return [c for c in self._document.state.combatants.values() if attacker is None or c.id != attacker.id]

    def _default_target(self, candidates: list[Combatant], attacker: Combatant) -> str | None:
        hostile = attacker.side is Side.OPPONENT  # players and their allies are one party
        foes = [c for c in candidates if (c.side is Side.OPPONENT) is not hostile and
                self.walka.status(c, self._document.state) is Status.ACTIVE]
        return (foes or candidates)[0].id if candidates else None

    def _prefill_attacker(self) -> None:
        """The attacker's best attack skill, its weapon dice, and what this round's actions leave it."""
        attacker = self._attacker()
        if attacker is None:
            return
        best = max(ATTACK_SKILLS, key=attacker.attribute)
        self.attack.skill.setCurrentIndex(max(0, self.attack.skill.findData(best)))
        self.attack.value.setValue(attacker.attribute(best))
        self.attack.weapon_dice.setValue(attacker.attribute("weapon_dice"))
        self._prefill_round(attacker)
        self._fill_defences()
        self._prefill_effects()

    def _apply_weapon(self, weapon: Weapon | None) -> None:
        """A saved weapon fills the name, the skill (with the attacker's value) and the weapon dice; the GM may
        still change them (a new name makes it a weapon typed in the form). None: everything stays as typed."""
        if weapon is None:
            return
        self.attack.weapon.setText(weapon.name)
        skill = walka_weapons.skill_of(weapon)
        self.attack.skill.setCurrentIndex(max(0, self.attack.skill.findData(skill)))
        attacker = self._attacker()
        if attacker is not None:
            self.attack.value.setValue(attacker.attribute(skill))
        self.attack.weapon_dice.setValue(weapon.number(walka_weapons.DICE))
        self._fill_defences()

    def _action_box(self) -> QCheckBox | None:
        return self.attack.counts

    def _prefill_round(self, attacker: Combatant) -> None:
        """Penalty die, prepared die, aim and whether it is the attacker's turn, from the state."""
        state = self._document.state
        acting = state.clock.current is not None and attacker.id in state.clock.current.ids
        self.attack.counts.setChecked(acting)
        self.modifiers.second.setChecked(acting and walka_actions.attack_penalty_dice(attacker) > 0)
        self.modifiers.prepared.setChecked(walka_actions.prepared_now(attacker, state))
        self.modifiers.aimed.setChecked(walka_actions.aimed_now(attacker, state, self.walka.aim_lasts(state)))
        again = self.walka.aim_again(state)
        self.modifiers.aimed_twice.setVisible(again)
        self.modifiers.aimed_twice.setChecked(again and walka_actions.aimed_twice_now(attacker, state,
                                                                                        self.walka.aim_lasts(state)))

    def _fill_defences(self) -> None:
        allowed = tuple(self.walka.defences(self._document.state).get(self.attack.skill_key(), ()))
        self.defence.fill(allowed, self._wanted_defence(allowed))
        self._prefill_defence_value()

    def _wanted_defence(self, allowed: tuple[str, ...]) -> str:
        """An unconscious target does not defend (walka.md: an unaware or immobile defender, "an unconscious one
        included", rolls no defence), unless the GM says otherwise; anyone else keeps the defence chosen."""
        target = self._target()
        if target is not None and self.walka.status(target, self._document.state) in (Status.UNCONSCIOUS,
                                                                                       Status.DYING):
            return NO_DEFENCE
        return self.defence.defence_key() or (allowed[0] if allowed else NO_DEFENCE)

    def _prefill_target(self) -> None:
        target = self._target()
        if target is not None:
            self.defence.armor.setValue(target.attribute("armor"))
        self.modifiers.defence_prepared.setChecked(
            target is not None and walka_actions.prepared_now(target, self._document.state))
        self._fill_defences()
        self._prefill_effects()

    def _prefill_effects(self) -> None:
        """Bonus and penalty dice from effects on the attacker, the target or everyone.

        Only what the effects add moves: dice the GM typed on top stay, and a change of the effects (or of who
        attacks whom) adds or takes back the difference.
        """
        attacker, target = self._attacker(), self._target()
        effects = effects_meaning(self._document.state, [c.id for c in (attacker, target) if c is not None])
        now = (*(effect_dice(effects, attacker.id) if attacker else (0, 0)),
               *(effect_dice(effects, target.id) if target else (0, 0)))
        spins = (self.modifiers.attack_bonus, self.modifiers.attack_penalty,
                 self.modifiers.defence_bonus, self.modifiers.defence_penalty)
        for spin, before, after in zip(spins, self._from_effects, now, strict=True):
            spin.setValue(max(0, spin.value() + after - before))
        self._from_effects = now
        lines = [self._effect_line(effect) for effect in effects]
        self.effects_note.setText("\n".join(lines))
        self.effects_note.setVisible(bool(lines))

    def _effect_line(self, effect: Effect) -> str:
        """Why a die was added: "Smoke (whole encounter): Penalty die"."""
        meaning = meaning_label(self._document.system, effect.meaning)
        if effect.target is None:
            return _("{effect} (whole encounter): {meaning}").format(effect=effect.name, meaning=meaning)
        return _("{effect} (on {target}): {meaning}").format(
            effect=effect.name, target=self._document.state.combatant(effect.target).name, meaning=meaning)

    def _prefill_defence_value(self) -> None:
        target, key = self._target(), self.defence.defence_key()
        if target is not None and key:
            self.defence.value.setValue(self.walka.defence_skill(target, key, self._document.state))
        self.defence.value.setEnabled(bool(key))

    # --- reacting to the GM ---------------------------------------------------------------------
    def _on_skill(self) -> None:
        if self._edits.quiet:
            return
        with self._edits.quietly():
            attacker = self._attacker()
            if attacker is not None:
                self.attack.value.setValue(attacker.attribute(self.attack.skill_key()))
            self._fill_defences()
        self._recompute()

    def _on_name_edited(self, text: str) -> None:
        """The GM renamed the saved weapon: it is another one now, typed in the form (its numbers stay)."""
        chosen = self.chosen_weapon()
        if chosen is not None and text.strip() != chosen.name:
            self.weapon_picker.setCurrentIndex(self.weapon_picker.findData(""))

    def _on_defence(self) -> None:
        if self._edits.quiet:
            return
        with self._edits.quietly():
            self._prefill_defence_value()
        self._recompute()

    def _catch_up(self, change: Change | None) -> None:
        attacker = self._attacker()
        if attacker is not None:
            self._prefill_round(attacker)  # this round's actions, as they are now
        if change is not None and (change.what.effect_list or change.what.effects):
            self._prefill_effects()  # an effect begun or ended while the dialog is open

    def _clear_for_next(self) -> None:
        super()._clear_for_next()
        self.chance_button.setVisible(False)

    # --- the live sheet -------------------------------------------------------------------------
    def inputs(self) -> AttackInputs | None:
        """The form as the rules take it (None without an attacker and a target)."""
        attacker, target = self._attacker(), self._target()
        if attacker is None or target is None:
            return None
        bonus, penalty = self.modifiers.attack_totals()
        defence = self.defence.defence_key()
        defence_bonus, defence_penalty = self.modifiers.defence_totals(defends=bool(defence))
        return AttackInputs(self.walka.test_die(self._document.state), self.attack.value.value(), defence,
                            self.defence.value.value(), bonus, penalty, defence_bonus,
                            defence_penalty, self.attack.weapon_dice.value(),
                            self.attack.modifier.value(), self.defence.armor.value(),
                            self.modifiers.aimed.isChecked(), hit_points(target),
                            self.walka.aim_before_armor(self._document.state),
                            self.walka.strictly_under(self._document.state),
                            self.walka.tens_dice(self._document.state), self._aimed_twice())

    def _aimed_twice(self) -> bool:
        """A second Aim doubling again: ticked, shown (the option allows it) and aimed at all."""
        box = self.modifiers
        return box.aimed.isChecked() and box.aimed_twice.isChecked() and self.walka.aim_again(self._document.state)

    def _recompute(self) -> None:
        inputs = self.inputs()
        self._sheet = work_out(inputs) if inputs is not None else None
        self._show_sheet(inputs)

    def _show_sheet(self, inputs: AttackInputs | None) -> None:
        sheet, target = self._sheet, self._target()
        if sheet is None or inputs is None or target is None:
            self.dice.odds.set_unknown([_("Missed"), _("Defended"), _("Hit")])
            self.chart.set_unknown([_("Miss"), _("Defended"), _("Hit")])
            self.dice.pool_label.setText("")
            return
        self.dice.odds.set_outcomes(sheet.rows)
        self.chart.set_data(attack_chart(sheet))
        self.dice.pool_label.setText(_("Damage pool {pool}; each die showing {face} or more removes 1 Hit "
                                       "Point.").format(pool=pool_text(inputs, sheet.pool), face=HIT_FACE))
        self._show_target()
        self.modifiers.summary.setText(self._dice_summary(inputs))

    def _show_target(self) -> None:
        """The target's Hit Points and Chances as they are now."""
        target = self._target()
        if target is None:
            self.defence.hp.setText("")
            return
        self.defence.hp.setText(_("{name}: {left} of {total} Hit Points, {chances}.").format(
            name=target.name, left=hit_points(target), total=max_hit_points(target),
            chances=ngettext("{count} Chance", "{count} Chances", chances_left(target)).format(
                count=chances_left(target))))

    @staticmethod
    def _dice_summary(inputs: AttackInputs) -> str:
        parts = [_side_summary(_("Attacker"), inputs.die, inputs.attack_bonus, inputs.attack_penalty, inputs.tens)]
        if inputs.defence:
            parts.append(_side_summary(_("Defender"), inputs.die, inputs.defence_bonus, inputs.defence_penalty,
                                       inputs.tens))
        else:
            parts.append(_("Defender does not roll."))
        return "\n".join(parts)

    # --- dice -----------------------------------------------------------------------------------
    def _follow_dice(self) -> None:
        inputs, sheet, dice = self.inputs(), self._sheet, self.dice
        if inputs is None or sheet is None:
            for entry in dice.entries():
                entry.set_expression(None, _("Choose an attacker and a target."))
            return
        dice.attack_entry.set_expression(RollUnderTest(inputs.die, inputs.attack_threshold, inputs.attack_bonus,
                                                       inputs.attack_penalty, inputs.tens))
        kept = _kept(dice.attack_entry)
        failed = kept is not None and not succeeds(kept, inputs.attack_threshold)
        defence: DiceExpression | None = None
        reason = _("Not needed: the defender is unaware or immobile.")
        if inputs.defence:
            reason = _("Not needed: the attack failed.")
            if not failed:
                defence = RollUnderTest(inputs.die, inputs.defence_threshold, inputs.defence_bonus,
                                        inputs.defence_penalty, inputs.tens)
        dice.defence_entry.set_expression(defence, reason)
        outcome = self._outcome(inputs)
        damage: DiceExpression | None = None
        if outcome is Outcome.HIT and sheet.pool > 0:
            damage = ThresholdCount(sheet.pool, 6, ">=", HIT_FACE)
        why = _("The pool is empty: no damage.") if outcome is Outcome.HIT else _("Only a hit rolls damage.")
        dice.damage_entry.set_expression(damage, why)

    def _outcome(self, inputs: AttackInputs) -> Outcome | None:
        """The test's outcome once its dice are in (None while some are missing)."""
        attack = _kept(self.dice.attack_entry)
        if attack is None:
            return None
        if not inputs.defence:
            return contest(attack, inputs.attack_threshold, None, 0)
        if not succeeds(attack, inputs.attack_threshold):
            return Outcome.MISSED
        defence = _kept(self.dice.defence_entry)
        return None if defence is None else contest(attack, inputs.attack_threshold, defence,
                                                    inputs.defence_threshold)

    def _resolve_problem(self) -> tuple[str, bool]:
        if self._sheet is None:
            return _("Choose an attacker and a target."), True
        empty = self._ammunition_problem()
        return (empty, True) if empty else super()._resolve_problem()

    def _ammunition_problem(self) -> str:
        """Why the chosen weapon cannot fire ("": it can, or it counts no rounds), as the rules would refuse it."""
        attacker = self._attacker()
        if attacker is None:
            return ""
        try:
            fire(self._document.state, attacker.id, self._weapon_named(), walka_weapons.ROUNDS_PER_ATTACK)
        except RulesError as problem:
            return str(problem)
        return ""

    # --- resolving ------------------------------------------------------------------------------
    def operation(self) -> WalkaAttack | None:
        """The attack as the form stands, or None while something is missing."""
        inputs, attacker, target = self.inputs(), self._attacker(), self._target()
        if inputs is None or attacker is None or target is None or self.problem():
            return None
        dice = self.dice
        return WalkaAttack(
            attacker.id, target.id, self.attack.skill_key(), inputs.attack_skill, inputs.defence,
            inputs.defence_skill, _faces(dice.attack_entry), _faces(dice.defence_entry), inputs.die,
            inputs.attack_bonus, inputs.attack_penalty, inputs.defence_bonus, inputs.defence_penalty,
            self._weapon_named(), inputs.weapon_dice, inputs.modifier, inputs.armor, inputs.aimed,
            self.modifiers.prepared.isChecked(), _faces(dice.damage_entry), self.attack.counts.isChecked(),
            defence_prepared=bool(inputs.defence) and self.modifiers.defence_prepared.isChecked(), tens=inputs.tens,
            aimed_twice=inputs.aimed_twice)

    def _weapon_named(self) -> str:
        """The weapon the attack names: the saved one chosen, else the name typed (a weapon the attacker carries
        by that name still has its rounds counted: it is that weapon, with the numbers typed)."""
        return self.weapon_name() or self.attack.weapon.text().strip()

    def rolled_outcome(self, operation: Operation) -> str | None:
        inputs = self.inputs()
        assert isinstance(operation, WalkaAttack) and inputs is not None
        return outcome_label(operation.outcome(inputs.under), hit_points_removed(operation.damage_faces),
                             inputs.hp_left)

    def _after_resolve(self, operation: Operation, change: Change) -> None:
        self._show_target()
        self._offer_chance()

    def _offer_chance(self) -> None:
        target = self._target()
        state = self._document.state
        down = target is not None and self.walka.status(target, state) in (Status.UNCONSCIOUS, Status.DYING)
        self.chance_button.setVisible(down and target is not None and chances_left(target) > 0)
        if target is not None:
            self.chance_button.setText(_("Spend a Chance: {name} stays conscious").format(name=target.name))

    def spend_chance(self) -> None:
        """The target's player spends a Chance to stay conscious at 0 Hit Points."""
        target = self._target()
        if target is None:
            return
        try:
            change = self._document.apply(SpendChance(target.id), initiator=self)
        except RulesError as problem:
            show_message(self.status_label, str(problem))
            return
        self.chance_button.setVisible(False)
        self.result_label.setText(self.result_label.text() + "\n" + change.entry.text())
        self._show_target()

    def _set_editable(self, editable: bool) -> None:
        super()._set_editable(editable)
        for widget in (self.attack, self.defence, self.modifiers, self.dice.roll_all):
            widget.setEnabled(editable)


def _kept(entry: DiceEntry) -> int | None:
    """The face a roll-under entry keeps (None while its dice are missing or it has none)."""
    result = entry.result()
    return None if result is None or entry.expression() is None else result.total


def _faces(entry: DiceEntry) -> tuple[int, ...]:
    return tuple(chain[0] for chain in entry.faces())


def _side_summary(who: str, die: int, bonus: int, penalty: int, tens: bool = False) -> str:
    net = bonus - penalty
    if net == 0:
        return _("{who} rolls 1d{die}.").format(who=who, die=die)
    if tens:
        count = 1 + abs(net)
        text = (ngettext("{who} rolls one units die and {count} tens die, and keeps the lowest.",
                         "{who} rolls one units die and {count} tens dice, and keeps the lowest.", count) if net > 0
                else ngettext("{who} rolls one units die and {count} tens die, and keeps the highest.",
                              "{who} rolls one units die and {count} tens dice, and keeps the highest.", count))
        return text.format(who=who, count=count)
    if net > 0:
        return _("{who} rolls {count}d{die} and keeps the lowest.").format(who=who, count=1 + net, die=die)
    return _("{who} rolls {count}d{die} and keeps the highest.").format(who=who, count=1 - net, die=die)
