"""Shadowrun 3 ranged attack: weapon, situation and dice in, TN and odds live, one undoable operation out.

The form (:mod:`ui.games.sr3.attack_form`) becomes a :class:`~rules.systems.sr3.shot.ShotInputs`;
:func:`~rules.systems.sr3.shot.work_out` asks the rules for the :class:`~rules.systems.sr3.shot.ShotSheet` the
dialog shows. Resolve builds one :class:`~rules.systems.sr3.Sr3Attack` and applies it through the document; the
rules put the damage on the monitor and move initiative.
"""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QShowEvent
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.document import Change, EncounterDocument
from app.i18n import _
from rules.dice import Roller
from rules.encounter import Combatant, Encounter, Status
from rules.errors import RulesError
from rules.systems.sr3.damage import EXPLOSIVE_AMMO, parse_damage_code
from rules.systems.sr3.monitor import PHYSICAL, STUN, wound_modifiers
from rules.systems.sr3.odds import OUTCOME_LABELS, OUTCOMES
from rules.systems.sr3.ops import Sr3Attack, may_act_against
from rules.systems.sr3.outcomes import outcome_key
from rules.systems.sr3.ranged import RangedAttack, is_heavy
from rules.systems.sr3.shot import RECOILING_MODES, ShotInputs, ShotSheet, work_out
from rules.systems.sr3.system import COMBAT_POOL, tables
from rules.systems.sr3.tables import Sr3Tables
from rules.turns import current_actor
from ui.charts.odds_chart import OddsChart
from ui.games.sr3.attack_form import DefenceBox, DiceBox, SituationBox, WeaponBox, damage_html, tn_lines_html
from ui.games.sr3.odds import ORDER, AttackQuestion, attack_chart, tick_text
from ui.widgets.inputs import Recompute, fill_combatants
from ui.widgets.layout import ScrolledContent
from ui.widgets.layout import column as _column
from ui.widgets.messages import show_message


def _pool_left(combatant: Combatant) -> int:
    pool = combatant.pools.get(COMBAT_POOL)
    return pool.remaining if pool is not None else 0


def _wounds(combatant: Combatant) -> int:
    return wound_modifiers(combatant.boxes(PHYSICAL), combatant.boxes(STUN))[0]


# --- the dialog ----------------------------------------------------------------------------------------------


class Sr3AttackDialog(QDialog):
    """Resolve one SR3 ranged attack (or several in a row) with the odds shown before the dice."""

    system_id: ClassVar[str] = "sr3"

    def __init__(self, document: EncounterDocument, roller: Roller, attacker_id: str | None = None,
                 target_id: str | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(_("Attack"))
        self._document = document
        self._edits = Recompute(self._refresh)
        self._applying = False
        self._resolved = False
        self._sheet: ShotSheet | None = None
        self._problem = ""
        self._changed_ids: set[str] = set()
        self._clock_slot = document.state.clock.current
        self._tables = self._load_tables()
        self.attacker = QComboBox()
        self.target = QComboBox()
        self.weapon = WeaponBox(self._tables)
        self.situation = SituationBox(self._tables)
        self.defence = DefenceBox()
        self.dice = DiceBox(roller)
        self.chart = OddsChart(export_name=_("attack-odds"), compact=True)
        self.sheet_tabs = QTabWidget()
        self.tn_label = QLabel()
        self.tn_lines = QLabel()
        self.damage_label = QLabel()
        self.result_label = QLabel()
        self.status_label = QLabel()
        self.buttons = QDialogButtonBox()
        self.resolve_button = self.buttons.addButton(_("Resolve"), QDialogButtonBox.ButtonRole.ActionRole)
        self.next_button = self.buttons.addButton(_("Next shot"), QDialogButtonBox.ButtonRole.ActionRole)
        self.close_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Close)
        self._build_layout()
        self._connect()
        with self._edits.quietly():
            self._fill_attackers(attacker_id or current_actor(document.state))
            self._fill_targets(target_id)
            self.weapon.limit_rounds(self._tables)
            self._prefill(self._attacker(), self._target())
        self._set_resolved(False)
        self._refresh()

    @property
    def sheet(self) -> ShotSheet | None:
        """What the rules make of the form now (None while something must be fixed)."""
        return self._sheet

    def problem(self) -> str:
        """What stops Resolve now ("" when the attack can be resolved)."""
        return self._resolve_problem()[0]

    # --- construction ---------------------------------------------------------------------------
    def _load_tables(self) -> Sr3Tables:
        try:
            return tables(self._document.state)
        except RulesError:  # a bad override must not lock the GM out: the bundled tables still work
            return tables(replace(self._document.state, options={}))

    def _build_layout(self) -> None:
        who = QFormLayout()
        who.addRow(_("Attacker"), self.attacker)
        who.addRow(_("Target"), self.target)
        content = QWidget()
        columns = QHBoxLayout(content)
        columns.setContentsMargins(0, 0, 0, 0)
        tn_page, damage_box, result_box = self._sheet_boxes()
        # The chart and the target number's lines share one place: a laptop screen has room for one of them
        # under the modifiers (the TN itself stays in sight, on its tab and in the dice's headings).
        self.sheet_tabs.addTab(self.chart, _("Odds chart"))
        self.sheet_tabs.addTab(tn_page, _("Target number"))
        # Three columns so the whole dialog, odds included, fits a 1280-pixel laptop window.
        for column in (_column(who, self.weapon, self.defence, damage_box), _column(self.situation, self.sheet_tabs),
                       _column(self.dice, result_box)):
            columns.addLayout(column)  # natural widths: equal stretch would widen every column to the widest
        self._content = content
        # One scroll area for small screens; on a 1366×768 laptop everything fits without scrolling.
        self._body = ScrolledContent(self, content, self.status_label, self.buttons, chrome_height=110)

    def _sheet_boxes(self) -> tuple[QWidget, QGroupBox, QGroupBox]:
        big = QFont(self.tn_label.font())
        big.setPointSizeF(big.pointSizeF() * 1.6)
        big.setBold(True)
        self.tn_label.setFont(big)
        tn_box = QWidget()
        # Wrapped labels would let this column collapse; keep room for a modifier and its value per line.
        tn_box.setMinimumWidth(self.fontMetrics().averageCharWidth() * 38)
        tn_layout = QVBoxLayout(tn_box)
        tn_layout.addWidget(self.tn_label)
        tn_layout.addWidget(self.tn_lines)
        tn_layout.addStretch(1)
        damage_box = QGroupBox(_("Damage"))
        QVBoxLayout(damage_box).addWidget(self.damage_label)
        result_box = QGroupBox(_("Result"))
        QVBoxLayout(result_box).addWidget(self.result_label)
        for label in (self.tn_lines, self.damage_label, self.result_label, self.status_label):
            label.setWordWrap(True)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # Log lines and notes carry names the GM typed: never let them be read as markup.
        for label in (self.result_label, self.status_label, self.dice.target_pool_note):
            label.setTextFormat(Qt.TextFormat.PlainText)
        for label in (self.tn_lines, self.damage_label):
            label.setTextFormat(Qt.TextFormat.RichText)
        return tn_box, damage_box, result_box

    def showEvent(self, event: QShowEvent) -> None:
        """Size the dialog to its content once Qt has laid it out (earlier, size hints are too small)."""
        super().showEvent(event)
        self._body.shown()

    def _connect(self) -> None:
        self._edits.watch(*self._inputs())
        self.weapon.mode.currentIndexChanged.connect(self._on_class_or_mode)
        self.weapon.weapon_class.currentIndexChanged.connect(self._on_class_or_mode)
        self.attacker.currentIndexChanged.connect(self._on_attacker)
        self.target.currentIndexChanged.connect(self._on_target)
        for entry in self.dice.entries():
            entry.changed.connect(self._update_dice)
        self.dice.roll_all.clicked.connect(self.roll_remaining)
        self.resolve_button.clicked.connect(self.resolve)
        self.next_button.clicked.connect(self.next_shot)
        self.close_button.clicked.connect(self.reject)
        self._document.changed.connect(self._on_document_changed)
        self._document.replaced.connect(self.reject)  # another fight was loaded: this attack is moot

    def _inputs(self) -> list[QWidget]:
        dice = self.dice
        return [*self.weapon.inputs(), *self.situation.inputs(), *self.defence.inputs(),
                dice.skill, dice.attack_pool, dice.dodge, dice.body, dice.resist_pool]

    # --- combatants -----------------------------------------------------------------------------
    def _fill_attackers(self, wanted: str | None) -> None:
        state, system = self._document.state, self._document.system
        able = [c for c in state.combatants.values() if system.can_act(c, state) or c.id == wanted]
        fill_combatants(self.attacker, able, wanted)

    def _fill_targets(self, wanted: str | None) -> None:
        state, system = self._document.state, self._document.system
        attacker = self._attacker()
        present = [c for c in state.combatants.values()
                   if (attacker is None or c.id != attacker.id)
                   and (system.status(c, state) is not Status.DEAD or c.id == wanted)]
        if wanted not in {c.id for c in present} and attacker is not None:
            wanted = self._default_target(present, attacker, state)
        fill_combatants(self.target, present, wanted)

    @staticmethod
    def _default_target(present: list[Combatant], attacker: Combatant, state: Encounter) -> str | None:
        foes = [c for c in present if c.side is not attacker.side and may_act_against(state, attacker.id, c.id)]
        chosen = foes or present
        return chosen[0].id if chosen else None

    def _attacker(self) -> Combatant | None:
        return self._document.state.combatants.get(self.attacker.currentData())

    def _target(self) -> Combatant | None:
        return self._document.state.combatants.get(self.target.currentData())

    def _prefill(self, attacker: Combatant | None, target: Combatant | None) -> None:
        """Numbers read from the combatants: wound modifiers, armor, Body (the GM may change them)."""
        if attacker is not None:
            self.situation.wounds.setValue(_wounds(attacker))
        if target is not None:
            self.defence.ballistic.setValue(target.attribute("ballistic"))
            self.defence.impact.setValue(target.attribute("impact"))
            self.defence.wounds.setValue(_wounds(target))
            self.dice.body.setValue(target.attribute("body"))

    # --- reacting to the GM ---------------------------------------------------------------------
    def _on_class_or_mode(self) -> None:
        if self._edits.quiet:
            return
        with self._edits.quietly():
            self.weapon.limit_rounds(self._tables)
            probe = RangedAttack(weapon_class=self.weapon.weapon_class.value(), mode=self.weapon.firing_mode())
            self.weapon.heavy.setChecked(is_heavy(probe, self._tables))
        self._refresh()

    def _on_attacker(self) -> None:
        if self._edits.quiet:
            return
        with self._edits.quietly():
            self._fill_targets(self.target.currentData())
            self.weapon.fired.setValue(0)  # another shooter: nothing fired yet
            self._prefill(self._attacker(), self._target())
        self._refresh()

    def _on_target(self) -> None:
        if self._edits.quiet:
            return
        with self._edits.quietly():
            self._prefill(None, self._target())
        self._refresh()

    def _on_document_changed(self, change: Change) -> None:
        self._changed_ids |= change.combatants
        if self._applying:
            return  # our own attack: the result stays on screen until the next shot
        if "tables" in change.what.options:
            self._tables = self._load_tables()  # the GM edited a table: new numbers from now on
        # Someone else changed the fight (undo, next turn…): a shown result may no longer stand.
        self._start_next_shot(count_rounds=False, roster=change.roster_changed)

    def _catch_up(self, roster: bool) -> None:
        """Bring the form up to date with the fight after changes made since it was last filled."""
        state = self._document.state
        if roster:
            self._fill_attackers(self.attacker.currentData())
            self._fill_targets(self.target.currentData())
        if state.clock.current != self._clock_slot:
            self.weapon.fired.setValue(0)  # a new phase: nothing fired yet
            self._clock_slot = state.clock.current
        attacker, target = self._attacker(), self._target()
        changed = self._changed_ids if not roster else {c.id for c in (attacker, target) if c is not None}
        self._prefill(attacker if attacker and attacker.id in changed else None,
                      target if target and target.id in changed else None)
        self._changed_ids.clear()

    # --- the live sheet -------------------------------------------------------------------------
    def _refresh(self) -> None:
        """Limits first (they may clamp values), then one recomputation of TN, damage and odds."""
        with self._edits.quietly():
            self._apply_limits()
        self._recompute()

    def _apply_limits(self) -> None:
        attacker, target, dice = self._attacker(), self._target(), self.dice
        dice.attack_pool.setMaximum(_pool_left(attacker) if attacker else 0)
        self.situation.aim.setMaximum(dice.skill.value() // 2)
        self.weapon.limit_rounds(self._tables)
        left = _pool_left(target) if target else 0
        barred = self._pool_barred()
        dice.dodge.setMaximum(0 if barred else left)
        dice.resist_pool.setMaximum(0 if barred else max(0, left - dice.dodge.value()))
        self.situation.sync()
        self._update_enabled()
        dice.attacker_pool_note.setText(_("{left} left").format(left=_pool_left(attacker)) if attacker else "")
        dice.target_pool_note.setText(barred or (_("Target's combat pool: {left} left").format(left=left)
                                                 if target else ""))

    def _pool_barred(self) -> str:
        """Why the target may not use combat pool against the attacker ("" when it may)."""
        attacker, target = self._attacker(), self._target()
        if attacker is None or target is None or may_act_against(self._document.state, target.id, attacker.id):
            return ""
        return _("{target} is surprised by {attacker}: no combat pool against them.").format(
            target=target.name, attacker=attacker.name)

    def _inputs_now(self) -> ShotInputs | None:
        attacker, target = self._attacker(), self._target()
        if attacker is None or target is None:
            return None
        weapon, dice = self.weapon, self.dice
        return ShotInputs(
            code_text=weapon.code.text(), strength=attacker.attribute("strength"),
            kind=weapon.kind.value(), ammo=weapon.ammo.value(), attack=self._ranged_attack(),
            defence=self.defence.values(), called_effect=self.situation.called_effect.value(),
            spot_armor=self.situation.spot_armor.value(),
            attack_dice=dice.skill.value() + dice.attack_pool.value(), dodge_dice=dice.dodge.value(),
            resist_dice=dice.body.value() + dice.resist_pool.value(),
            shooter_armor=(attacker.attribute("ballistic"), attacker.attribute("impact")))

    def _ranged_attack(self) -> RangedAttack:
        weapon, place = self.weapon, self.situation
        distance = weapon.distance.value()
        return RangedAttack(
            range_category=weapon.range.value(), distance=distance or None,
            weapon_class=weapon.weapon_class.value(), strength=self._strength(),
            magnification=place.magnification.value(), visibility=place.visibility.value(),
            vision=place.vision.value(), attacker_movement=place.attacker_movement.value(),
            difficult_terrain=place.difficult.isChecked(), target_movement=place.target_movement.value(),
            partial_cover=place.cover.isChecked(), blind_fire=place.blind.isChecked(),
            melee_opponents=place.melee.value(), target_index=place.target_index.value(),
            smartgun=weapon.smartgun.isChecked(), smartlink=place.smartlink.isChecked(),
            smartgoggles=place.goggles.isChecked(), laser_sight=place.laser.isChecked(),
            aim_actions=place.aim.value(), skill=self.dice.skill.value(), called_shot=place.called.isChecked(),
            second_firearm=place.second.isChecked(), other_firearm_recoil=place.other_recoil.value(),
            wound_modifier=place.wounds.value(), mode=weapon.firing_mode(), rounds=weapon.rounds.value(),
            rounds_fired_before=weapon.fired.value(), recoil_compensation=weapon.compensation.value(),
            gyro=weapon.gyro.value(), heavy_weapon=weapon.heavy.isChecked(), gm_modifier=place.gm.value())

    def _strength(self) -> int | None:
        attacker = self._attacker()
        return attacker.attribute("strength") if attacker is not None else None

    def _recompute(self) -> None:
        inputs = self._inputs_now()
        self._sheet, self._problem = None, ""
        if inputs is None:
            self._problem = _("Choose an attacker and a target.")
        else:
            try:
                self._sheet = work_out(inputs, self._tables)
            except RulesError as problem:
                self._problem = str(problem)
        self._show_sheet(inputs)
        self._update_dice()

    def _show_sheet(self, inputs: ShotInputs | None) -> None:
        code_problem = self._code_problem()
        show_message(self.weapon.code_error, code_problem)
        self.weapon.code_error.setVisible(bool(code_problem))
        sheet = self._sheet
        if sheet is None or inputs is None:
            self.tn_label.setText(_("TN –"))
            self.sheet_tabs.setTabText(1, _("Target number"))
            self.tn_lines.setText("")
            self.damage_label.setText("")
            self.dice.odds.set_unknown([_(OUTCOME_LABELS[key]) for key in OUTCOMES])
            self.chart.set_unknown([tick_text(key) for key in ORDER])
            return
        self.tn_label.setText(_("TN {tn}").format(tn=sheet.attack_tn.value))
        self.sheet_tabs.setTabText(1, _("Target number: {tn}").format(tn=sheet.attack_tn.value))
        self.tn_lines.setText(tn_lines_html(sheet.attack_tn))
        self.damage_label.setText(damage_html(sheet, inputs))
        self.dice.odds.set_outcomes([(_(OUTCOME_LABELS[key]), sheet.odds[key]) for key in OUTCOMES])
        question = AttackQuestion(inputs.attack_dice, sheet.attack_tn.value, inputs.dodge_dice, sheet.dodge_tn.value,
                                  inputs.resist_dice, sheet.resist_tn, sheet.level)
        self.chart.set_data(attack_chart(question, sheet.odds))

    def _code_problem(self) -> str:
        try:
            parse_damage_code(self.weapon.code.text())
        except RulesError as problem:
            return str(problem)
        return ""

    # --- dice -----------------------------------------------------------------------------------
    def _explosive(self) -> bool:
        return self.weapon.ammo.value() in EXPLOSIVE_AMMO

    def _misfired(self) -> bool:
        return self.dice.misfired(self._explosive())

    def _update_dice(self) -> None:
        """Give each dice entry the test it needs now; the attack's result decides what follows."""
        if self._edits.quiet:
            return
        attacker = self._attacker()
        with self._edits.quietly():
            self.dice.set_tests(self._sheet, self._explosive(), attacker.attribute("body") if attacker else 0)
        self._update_resolve()

    def _update_resolve(self) -> None:
        problem, is_error = self._resolve_problem()
        self.resolve_button.setEnabled(not problem and not self._resolved)
        # Enter resolves while the dice are being entered, and starts the next shot once resolved.
        self.resolve_button.setDefault(not self._resolved)
        self.next_button.setDefault(self._resolved)
        if self._resolved:
            self._show_status(_("Enter sets up the next shot; Esc closes."), is_error=False)
        else:
            self._show_status(problem, is_error)

    def _show_status(self, message: str, is_error: bool) -> None:
        show_message(self.status_label, message, error=is_error)

    def _resolve_problem(self) -> tuple[str, bool]:
        """What stops Resolve now, and whether it is an error (or only the dice still to come)."""
        attacker, target = self._attacker(), self._target()
        if self._sheet is None or attacker is None or target is None:
            return self._problem or _("Choose an attacker and a target."), True
        if not may_act_against(self._document.state, attacker.id, target.id):
            return _("{attacker} is surprised by {target} and cannot act against them yet.").format(
                attacker=attacker.name, target=target.name), True
        if self.dice.attack_entry.expression() is None:
            return _("Enter the attacker's skill dice (and combat pool dice, if any)."), False
        if not all(entry.is_complete() for entry in self.dice.entries()):
            return _("Roll or type the dice, then press Enter to resolve."), False
        return "", False

    def roll_remaining(self) -> None:
        """Roll every test that is still missing, in order (each result decides whether the next is needed)."""
        for entry in self.dice.entries():
            if entry.isEnabled() and entry.expression() is not None and not entry.is_complete():
                entry.roll()

    # --- resolving ------------------------------------------------------------------------------
    def operation(self) -> Sr3Attack | None:
        """The attack as the form stands, or None while something is missing."""
        attacker, target, sheet, dice = self._attacker(), self._target(), self._sheet, self.dice
        if attacker is None or target is None or sheet is None or self._resolve_problem()[0]:
            return None
        attack = Sr3Attack(
            attacker.id, target.id, self.weapon.name.text().strip() or _("a weapon"),
            sheet.power, sheet.level, sheet.attack_tn.value, dice.attack_entry.faces(), sheet.resist_tn,
            dice.resist_entry.faces(), dodge_tn=sheet.dodge_tn.value, dodge_faces=dice.dodge_entry.faces(),
            attack_pool=dice.attack_pool.value(), track=sheet.track, ammo=self.weapon.ammo.value().value,
            resist_pool=dice.resist_pool.value() if dice.resist_entry.expression() is not None else 0)
        if not self._misfired():
            return attack
        # The round detonated: the shooter resists the weapon's standard code, without combat pool.
        misfire = dice.misfire_entry.result()
        return replace(attack, power=sheet.base.power, level=sheet.base.level, resist_tn=sheet.misfire_resist_tn,
                       dodge_faces=(), resist_pool=0, track=PHYSICAL,
                       misfire_roll=misfire.total if misfire is not None else None)

    def resolve(self) -> None:
        """Apply the attack as one operation; a refusal is shown here and nothing changes."""
        attack = self.operation()
        if attack is None:
            return
        misfired = self._misfired()
        self._applying = True
        try:
            change = self._document.apply(attack)
        except RulesError as problem:
            self._show_status(str(problem), is_error=True)
            return
        finally:
            self._applying = False
        self._mark(_(OUTCOME_LABELS["miss" if misfired else outcome_key(attack)]))  # a misfire misses the target
        self.result_label.setText("\n".join(line.render() for line in change.entry.log))
        self._set_resolved(True)

    def _mark(self, outcome: str | None) -> None:
        """Mark the outcome rolled (None: none) in the odds table and the chart alike."""
        self.dice.odds.highlight(outcome)
        self.chart.highlight(outcome)

    def _set_resolved(self, resolved: bool) -> None:
        """After resolving, the form shows what happened, read-only, until the next shot."""
        self._resolved = resolved
        self._update_enabled()
        self._update_resolve()

    def _update_enabled(self) -> None:
        editable = not self._resolved
        dice = self.dice
        for widget in (self.attacker, self.target, self.weapon, self.situation, self.defence, dice.skill,
                       dice.attack_pool, dice.body, dice.roll_all, *dice.entries()):
            widget.setEnabled(editable)
        pool_allowed = editable and not self._pool_barred()
        dice.dodge.setEnabled(pool_allowed)
        dice.resist_pool.setEnabled(pool_allowed)
        self.next_button.setEnabled(self._resolved)

    def next_shot(self) -> None:
        """Set up the next shot: the rounds just fired add to the recoil, the dice start empty."""
        if self._resolved:
            self._start_next_shot(count_rounds=True, roster=False)

    def _start_next_shot(self, count_rounds: bool, roster: bool) -> None:
        with self._edits.quietly():
            if self._resolved:
                if count_rounds and self.weapon.firing_mode() in RECOILING_MODES:
                    self.weapon.fired.setValue(self.weapon.fired.value() + self.weapon.rounds.value())
                for entry in self.dice.entries():
                    entry.clear()
                self._mark(None)
            self._catch_up(roster)
        self._set_resolved(False)
        self._refresh()
