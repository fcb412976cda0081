"""Shadowrun 3 attacks: ranged or melee; weapon, situation and dice in, TN and odds live, one undoable operation out.

The form (:mod:`ui.games.sr3.attack_form`) becomes a :class:`~rules.systems.sr3.shot.ShotInputs`;
:func:`~rules.systems.sr3.shot.work_out` asks the rules for the :class:`~rules.systems.sr3.shot.ShotSheet` the
dialog shows. Resolve builds one :class:`~rules.systems.sr3.Sr3Attack` and applies it through the document; the
rules put the damage on the monitor and move initiative. Melee (chosen beside the target, or by picking a saved melee
weapon) is the page of :mod:`ui.games.sr3.melee_form`, resolved as one :class:`~rules.systems.sr3.Sr3Melee`.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QStackedWidget,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.document import Change
from app.i18n import N_, _
from rules.dice import DiceExpression, Roller
from rules.effects import effects_meaning
from rules.encounter import Combatant, Effect, Weapon
from rules.errors import OperationError, RulesError
from rules.history import Operation
from rules.systems.sr3.damage import EXPLOSIVE_AMMO
from rules.systems.sr3.effect_meanings import worst_visibility
from rules.systems.sr3.melee_ops import Sr3Melee, outcome_key_of
from rules.systems.sr3.monitor import PHYSICAL
from rules.systems.sr3.odds import OUTCOME_LABELS, OUTCOMES
from rules.systems.sr3.ops import Sr3Attack, Sr3QuickDrawFailed, may_act_against
from rules.systems.sr3.outcomes import outcome_key
from rules.systems.sr3.position import PRONE_DODGE, is_prone
from rules.systems.sr3.ranged import RangedAttack, is_heavy, quick_draw_tn
from rules.systems.sr3.shot import ACTION_OF_MODE, RECOILING_MODES, Defence, ShotInputs, ShotSheet, work_out
from rules.systems.sr3.system import DERMAL_ARMOR, SIMPLE, pool_at_most_skill, resisting_body, tables
from rules.systems.sr3.tables import VISIBILITY_LABELS, Sr3Tables, label_for
from rules.systems.sr3.weapons import (
    DAMAGE,
    LASER,
    SKILL,
    STRENGTH_MINIMUM,
    Smart,
    is_melee,
    smart_system,
    typed_value,
)
from rules.weapons import fire
from ui.charts.odds_chart import OddsChart
from ui.dialogs.attack_dialog import AttackDialog, Marked, ResolvedForm
from ui.games.sr3.aim import AimField
from ui.games.sr3.attack_dice import DiceBox
from ui.games.sr3.attack_form import (
    COMBO_LENGTH,
    DefenceBox,
    SituationBox,
    WeaponBox,
    damage_code_problem,
    damage_html,
    karma_left,
    pool_left,
    ranged_attack,
    tn_lines_html,
    tn_test,
    wound_modifier,
)
from ui.games.sr3.attack_target import barrier_text
from ui.games.sr3.melee_form import MeleeForm
from ui.games.sr3.odds import ORDER, AttackQuestion, attack_chart, tick_text
from ui.widgets.dice_entry import DiceEntry
from ui.widgets.layout import column as _column
from ui.widgets.layout import row as _row
from ui.widgets.messages import show_message, text_label

# --- the dialog ----------------------------------------------------------------------------------------------


RANGED, MELEE = "ranged", "melee"


class Sr3AttackDialog(AttackDialog):
    """Resolve one SR3 ranged or melee attack (or several in a row) with the odds shown before the dice."""

    next_text = N_("Next shot")
    resolved_hint = N_("Enter sets up the next shot, and so does any change to the form; Esc closes.")
    #: The dice stay as rolled; a new target or modifier for the second shot of a phase needs no press of Next.
    resolved_form = ResolvedForm.DICE_LOCKED

    @property
    def sheet(self) -> ShotSheet | None:
        """What the rules make of the form now (None while something must be fixed)."""
        return self._sheet

    # --- construction ---------------------------------------------------------------------------
    def _build(self, roller: Roller) -> None:
        self._roller = roller
        self._sheet: ShotSheet | None = None
        self._problem = ""
        self._changed_ids: set[str] = set()
        self._clock_slot = self._document.state.clock.current
        self._from_effects: tuple[str, str] | None = None  # (effect id, visibility row) last preset
        self._from_position = 0  # the dodge's "cramped or prone" last preset for a prone target
        self._tables = self._load_tables()
        self.weapon = WeaponBox(self._tables)
        self.situation = SituationBox(self._tables)
        self.defence = DefenceBox()
        self.dice = DiceBox(roller)
        self.chart = OddsChart(export_name=_("attack-odds"), compact=True)
        self.sheet_tabs = QTabWidget()
        self.tn_label = QLabel()
        self.effects_note = text_label()  # why the visibility is preset (an effect's game meaning)
        self.effects_note.hide()
        self.aim_note = text_label()  # what the attacker's tracked aim does to this shot
        self.aim_note.hide()
        self.barrier_note = text_label()  # what the barrier shot at or through does (the first column is full)
        self.barrier_note.hide()
        self.aim = AimField(self.situation.aim, self.aim_note)
        self.tn_lines = text_label(rich=True)
        self.damage_label = text_label(rich=True)
        self.counts = QCheckBox()
        self.counts.setToolTip(_("The attack takes the attacker's action: a simple one (single shot, "
                                 "semi-automatic, burst) or a complex one (full auto, melee). Untick it for an attack "
                                 "that takes none."))
        self.kind = QComboBox()
        self.kind.addItem(_("Ranged"), RANGED)
        self.kind.addItem(_("Melee"), MELEE)
        self.kind.setAccessibleName(_("Kind of attack"))
        self.kind.setToolTip(_("A shot, or a melee exchange (picking a saved melee weapon chooses Melee)."))
        self.melee = MeleeForm(roller)
        self.pages = QStackedWidget()
        self._build_layout()

    def _load_tables(self) -> Sr3Tables:
        try:
            return tables(self._document.state)
        except RulesError:  # a bad override must not lock the GM out: the bundled tables still work
            return tables(replace(self._document.state, options={}))

    def _build_layout(self) -> None:
        content = QWidget()
        columns = QHBoxLayout(content)
        columns.setContentsMargins(0, 0, 0, 0)
        tn_page, damage_box, result_box = self._sheet_boxes()
        # The chart and the target number's lines share one place: a laptop screen has room for one of them
        # under the modifiers (the TN itself stays in sight, on its tab and in the dice's headings).
        self.sheet_tabs.addTab(self.chart, _("Odds chart"))
        self.sheet_tabs.addTab(tn_page, _("Target number"))
        # The effects' line goes over the result, the one column with room to spare on a 700-pixel screen.
        # Three columns so the whole dialog, odds included, fits a 1280-pixel laptop window.
        self.pickers = QWidget()  # shared by both pages: it moves to the page shown (_show_kind)
        pickers = self._pickers()
        pickers.setContentsMargins(0, 0, 0, 0)
        self.pickers.setLayout(pickers)
        self._ranged_first = _column(self.pickers, self.weapon, self.defence, damage_box)
        for column in (self._ranged_first, _column(self.situation, self.sheet_tabs),
                       _column(self.dice, self.barrier_note, self.aim_note, self.effects_note,
                                                                  result_box)):
            columns.addLayout(column)  # natural widths: equal stretch would widen every column to the widest
        self._ranged_page = content
        self.pages.addWidget(content)
        self.pages.addWidget(self.melee)
        # One scroll area for small screens; on a 1366×768 laptop everything fits without scrolling.
        self._lay_out(self.pages)

    def _pickers(self) -> QFormLayout:
        """Attacker (with the action the shot takes beside it: the first column must fit a 768-pixel laptop
        screen), the saved weapon with its rounds left, and the target."""
        # A long weapon line must not widen the whole column: the list shows it in full.
        self.weapon_picker.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.weapon_picker.setMinimumContentsLength(COMBO_LENGTH)
        form = QFormLayout()
        form.addRow(_("Attacker"), _row(self.attacker, self.counts))
        form.addRow(_("Weapon"), self.weapon_row())
        form.addRow(_("Target"), _row(self.target, self.kind))
        return form

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
        # The note carries names the GM typed: never let it be read as markup.
        self.dice.target_pool_note.setTextFormat(Qt.TextFormat.PlainText)
        return tn_box, damage_box, result_box

    def _connect(self) -> None:
        super()._connect()
        self._edits.watch(*self._inputs())
        self.weapon.mode.currentIndexChanged.connect(self._on_class_or_mode)
        self.weapon.weapon_class.currentIndexChanged.connect(self._on_class_or_mode)
        self.dice.roll_all.clicked.connect(self.roll_remaining)
        self.dice.avert_disaster.toggled.connect(self._on_dice)
        for bought in (self.dice.attack_bought, self.dice.dodge_bought, self.dice.resist_bought):
            bought.box.valueChanged.connect(self._on_dice)
        self._edits.watch(*self.melee.inputs())
        for entry in self.melee.entries():
            entry.changed.connect(self._on_dice)
        self.melee.roll_all.clicked.connect(self.roll_remaining)
        self.kind.currentIndexChanged.connect(self._on_kind)

    def _inputs(self) -> list[QWidget]:
        dice = self.dice
        return [*self.weapon.inputs(), *self.situation.inputs(), *self.defence.inputs(),
                dice.skill, dice.attack_pool, dice.dodge, dice.body, dice.resist_pool, dice.dermal]

    def entries(self) -> tuple[DiceEntry, ...]:
        return self.melee.entries() if self.is_melee() else self.dice.entries()

    def _odds_views(self) -> tuple[Marked, ...]:
        return (self.melee.odds, self.melee.chart) if self.is_melee() else (self.dice.odds, self.chart)

    # --- ranged or melee ------------------------------------------------------------------------
    def is_melee(self) -> bool:
        """Whether the dialog resolves a melee exchange (else a shot)."""
        return bool(self.kind.currentData() == MELEE)

    def set_kind(self, kind: str) -> None:
        """Show the ranged or the melee page, the pickers on top of it."""
        self.kind.setCurrentIndex(self.kind.findData(kind))
        self._show_kind()

    def _show_kind(self) -> None:
        melee = self.is_melee()
        if melee:
            self.melee.pickers_slot.addWidget(self.pickers)
        else:
            self._ranged_first.insertWidget(0, self.pickers)
        self.pages.setCurrentWidget(self.melee if melee else self._ranged_page)
        self.next_button.setText(_("Next attack") if melee else _(self.next_text))
        self._name_action()

    def _on_kind(self) -> None:
        if self._edits.quiet:
            return
        with self._edits.quietly():
            self._show_kind()
            self._pick_weapon_of_kind()
            self._prefill_melee()
        self._refresh()

    def _pick_weapon_of_kind(self) -> None:
        """After the GM chose the kind: the attacker's first saved weapon of that kind (else "Typed in the form"),
        so the picker never shows a gun beside a melee exchange."""
        attacker, chosen, melee = self._attacker(), self.chosen_weapon(), self.is_melee()
        if attacker is None or (chosen is not None and is_melee(chosen) == melee):
            return
        fitting = next((weapon for weapon in attacker.weapons if is_melee(weapon) == melee), None)
        self.weapon_picker.setCurrentIndex(self.weapon_picker.findData(fitting.name if fitting is not None else ""))
        self._show_ammunition()
        if fitting is not None and not melee:
            self._apply_weapon(fitting)

    def _prefill_melee(self) -> None:
        """Both fighters' blows, from their saved melee weapons (or unarmed)."""
        target = self._target()
        self.melee.fill_attacker(self.chosen_weapon(), self._tables)
        if target is not None:
            self.melee.fill_defender(target, self._tables)

    # --- combatants -----------------------------------------------------------------------------
    def _default_target(self, candidates: list[Combatant], attacker: Combatant) -> str | None:
        state = self._document.state
        foes = [c for c in candidates if c.side is not attacker.side and may_act_against(state, attacker.id, c.id)]
        chosen = foes or candidates
        return chosen[0].id if chosen else None

    def _prefill(self) -> None:
        self.weapon.limit_rounds(self._tables)
        super()._prefill()
        self._prefill_counts()

    def _action_box(self) -> QCheckBox | None:
        return self.counts

    def _prefill_counts(self) -> None:
        """The shot takes an action when the attacker is acting now (the GM may untick it)."""
        attacker, current = self._attacker(), self._document.state.clock.current
        self.counts.setChecked(attacker is not None and current is not None and attacker.id in current.ids)
        self._name_action()

    def _name_action(self) -> None:
        """Which action the chosen firing mode takes (melee: a complex one)."""
        simple = not self.is_melee() and ACTION_OF_MODE[self.weapon.firing_mode()] == SIMPLE
        self.counts.setText(_("Takes a simple action") if simple else _("Takes a complex action"))

    def _prefill_attacker(self) -> None:
        """The attacker's wound modifier; the visibility effects on it or everyone."""
        attacker = self._attacker()
        if attacker is not None:
            self.situation.wounds.setValue(wound_modifier(attacker))
        self.aim.attacker(attacker)
        self._prefill_effects()

    def _prefill_target(self) -> None:
        """The target's armor, wound modifier and Body; the visibility effects on it or everyone."""
        target = self._target()
        if target is not None:
            self.defence.ballistic.setValue(target.attribute("ballistic"))
            self.defence.impact.setValue(target.attribute("impact"))
            self.defence.wounds.setValue(wound_modifier(target))
            self._prefill_position(target)
            self.dice.body.setValue(target.attribute("body"))
            self.dice.dermal.setValue(target.attribute(DERMAL_ARMOR))
            self.melee.fill_defender(target, self._tables)
        self._prefill_effects()

    def _prefill_position(self, target: Combatant) -> None:
        """A prone target dodges at "GM +1..+2 when hemmed in or prone": the least preset, and taken back when it
        stands; a value the GM typed stays."""
        preset = PRONE_DODGE if is_prone(target) else 0
        if self.defence.cramped.value() == self._from_position and preset != self._from_position:
            self.defence.cramped.setValue(preset)
        self._from_position = preset

    def _prefill_effects(self) -> None:
        """Visibility from the worst smoke, fog or darkness effect on the encounter, the attacker or the target.

        Only a new answer moves the field: a visibility the GM changed stays until the effects say otherwise.
        """
        ids = [c.id for c in (self._attacker(), self._target()) if c is not None]
        effects = effects_meaning(self._document.state, ids)
        found = worst_visibility(effects, self._tables, self.situation.vision.value())
        now = (found[0].id, found[1]) if found is not None else None
        if now == self._from_effects:
            return
        if found is not None:
            self.situation.visibility.select(found[1])
        elif self._from_effects is not None and self.situation.visibility.value() == self._from_effects[1]:
            self.situation.visibility.select(None)  # the effect ended: clear again, unless the GM chose otherwise
        self._from_effects = now
        self.effects_note.setText(self._effect_line(found[0], found[1]) if found is not None else "")
        self.effects_note.setVisible(found is not None)

    def _effect_line(self, effect: Effect, row: str) -> str:
        """Why the visibility is what it is: "Smoke (whole encounter): visibility set to Light smoke/fog/rain"."""
        visibility = label_for(VISIBILITY_LABELS, row)
        if effect.target is None:
            return _("{effect} (whole encounter): visibility set to {visibility}").format(
                effect=effect.name, visibility=visibility)
        return _("{effect} (on {target}): visibility set to {visibility}").format(
            effect=effect.name, target=self._document.state.combatant(effect.target).name, visibility=visibility)

    # --- reacting to the GM ---------------------------------------------------------------------
    def _apply_weapon(self, weapon: Weapon | None) -> None:
        """A saved ranged weapon fills the weapon box, its sights and the skill; typed (None): every mode is
        offered again and the numbers stay as typed; a melee weapon turns the dialog to melee and fills the blow."""
        if weapon is not None and is_melee(weapon):
            self.set_kind(MELEE)
            self.melee.fill_attacker(weapon, self._tables)
            return
        if weapon is not None and self.is_melee():
            self.set_kind(RANGED)  # a saved firearm or bow: the shot's page
        if weapon is None:
            self.weapon.offer_modes(None)  # the mode chosen stays: nothing typed changes
            if self.is_melee():
                self.melee.fill_attacker(None, self._tables)  # typed: unarmed until the GM types
        else:
            self.weapon.fill(weapon)
            self.situation.smartlink.setChecked(smart_system(weapon) is Smart.SMARTLINK)
            self.situation.laser.setChecked(weapon.value(LASER) is True)
            if weapon.number(SKILL):
                self.dice.skill.setValue(weapon.number(SKILL))
            self._follow_class_and_mode()

    def _on_class_or_mode(self) -> None:
        if self._edits.quiet:
            return
        with self._edits.quietly():
            self._follow_class_and_mode()
        self._refresh()

    def _follow_class_and_mode(self) -> None:
        """The rounds the mode fires, heavy recoil for the class, the action the mode takes."""
        self.weapon.limit_rounds(self._tables)
        probe = RangedAttack(weapon_class=self.weapon.weapon_class.value(), mode=self.weapon.firing_mode())
        self.weapon.heavy.setChecked(is_heavy(probe, self._tables))
        self._name_action()

    def _attacker_chosen(self) -> None:
        self.weapon.fired.setValue(0)  # another shooter: nothing fired yet
        super()._attacker_chosen()
        self._prefill_counts()

    def _catch_up(self, change: Change | None) -> None:
        """Bring the form up to date with the fight after changes made since it was last filled."""
        if change is None and self.weapon.firing_mode() in RECOILING_MODES:
            self.weapon.fired.setValue(self.weapon.fired.value() + self._fired_now())  # recoil adds up
        if change is not None:
            self._changed_ids |= change.combatants
            if "tables" in change.what.options:
                self._tables = self._load_tables()  # the GM edited a table: new numbers from now on
            if change.what.effect_list or change.what.effects:
                self._prefill_effects()  # smoke laid or cleared while the dialog is open
        if self._document.state.clock.current != self._clock_slot:
            self.weapon.fired.setValue(0)  # a new phase: nothing fired yet
            self._clock_slot = self._document.state.clock.current
            self._prefill_counts()
        self._prefill_changed(roster=change is not None and change.roster_changed)

    def _prefill_changed(self, roster: bool) -> None:
        """Read again whichever of the attacker and the target changed (both after a new roster)."""
        attacker, target = self._attacker(), self._target()
        if roster or (attacker is not None and attacker.id in self._changed_ids):
            self._prefill_attacker()
        if roster or (target is not None and target.id in self._changed_ids):
            self._prefill_target()
        self._changed_ids.clear()

    def _clear_for_next(self) -> None:
        self.dice.clear_karma()
        if self.is_melee() or not self.dice.quick_draw_failed():
            self.situation.quick_draw.setChecked(False)  # drawn now: the next shot needs no quick draw
        for entry in self.entries():
            entry.clear()
        self._mark(None)  # the last shot's log lines stay in sight while the next one is set up

    # --- the live sheet -------------------------------------------------------------------------
    def _apply_limits(self) -> None:
        attacker, target, dice = self._attacker(), self._target(), self.dice
        dice.limit_attack_pool(attacker, pool_at_most_skill(self._document.state))
        self.aim.limit(dice.skill.value())
        self.weapon.limit_rounds(self._tables)
        left = pool_left(target) if target else 0
        barred = self._pool_barred()
        dice.dodge.setMaximum(0 if barred else left)
        dice.resist_pool.setMaximum(0 if barred else max(0, left - dice.dodge.value()))
        self.situation.sync()
        self.defence.blast_metres.setEnabled(self.weapon.falloff.value() > 0)
        self.situation.offer_quick_draw(self.weapon.weapon_class.value(), self._tables)
        self._set_editable(not self._form_locked())
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
        # The code as stored (Czech 9S → 9D): the history reads the same in every language.
        return ShotInputs(
            code_text=str(typed_value(DAMAGE, weapon.code.text())), strength=attacker.attribute("strength"),
            kind=weapon.kind.value(), ammo=weapon.ammo.value(), attack=self._ranged_attack(),
            defence=self._defence(), called_effect=self.situation.called_effect.value(),
            spot_armor=self.situation.spot_armor.value(), resist_dice=dice.resist_dice(),
            attack_dice=dice.skill.value() + dice.attack_pool.value(), dodge_dice=dice.dodge.value(),
            shooter_armor=(attacker.attribute("ballistic"), attacker.attribute("impact")),
            falloff=weapon.falloff.value(), blast_metres=self.defence.blast_metres.value(),
            spread_power=weapon.spread_power.value(), switch_metres=weapon.switch_metres.value())

    def _defence(self) -> Defence:
        hit = self.situation.hit
        return replace(self.defence.values(), target=hit.kind.value(), barrier=hit.barrier.value(),
                       dermal=self.dice.dermal.value())

    def _ranged_attack(self) -> RangedAttack:
        aimed = self.aim.for_shot(self.dice.attack_pool.value()).counted
        return ranged_attack(self.weapon, self.situation, aimed, self.dice.skill.value(), self._strength())

    def _strength(self) -> int | None:
        """The Strength a Strength-scaled range row uses: a saved bow's own Strength Minimum, else the wielder's."""
        chosen = self.chosen_weapon()
        if chosen is not None and chosen.number(STRENGTH_MINIMUM) > 0:
            return chosen.number(STRENGTH_MINIMUM)
        attacker = self._attacker()
        return attacker.attribute("strength") if attacker is not None else None

    def _recompute(self) -> None:
        """Limits first (they may clamp values), then one recomputation of TN, damage and odds."""
        if self.is_melee():
            with self._edits.quietly():
                # An interception takes no action (a free attack out of turn): the box says so, greyed.
                self.counts.setEnabled(not self.melee.intercepting() and not self._form_locked())
                self.melee.set_rules(self._tables, pool_at_most_skill(self._document.state))
                self.melee.recompute(self._attacker(), self._target(), self._tables, self._pool_barred())
            return
        with self._edits.quietly():
            self._apply_limits()
        inputs = self._inputs_now()
        self._sheet, self._problem = None, ""
        if inputs is None:
            self._problem = _("Choose an attacker and a target.")
        elif self._melee_weapon():
            self._problem = self._melee_weapon()
        else:
            try:
                self._sheet = work_out(inputs, self._tables)
            except RulesError as problem:
                self._problem = str(problem)
        self.aim.show(self.dice.attack_pool.value())
        self._show_sheet(inputs)

    def _show_sheet(self, inputs: ShotInputs | None) -> None:
        code_problem = damage_code_problem(self.weapon.code.text())
        show_message(self.weapon.code_error, code_problem)
        self.weapon.code_error.setVisible(bool(code_problem))
        sheet = self._sheet
        self.barrier_note.setText(barrier_text(sheet) if sheet is not None else "")
        self.barrier_note.setVisible(bool(self.barrier_note.text()))
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
                                  inputs.resist_dice, sheet.resist_tn, sheet.level, sheet.stopped)
        self.chart.set_data(attack_chart(question, sheet.odds))

    def _melee_weapon(self) -> str:
        """Why the chosen saved weapon cannot be fired here ("": it can, or the weapon is typed in the form)."""
        weapon = self.chosen_weapon()
        if weapon is None or not is_melee(weapon):
            return ""
        return _("{weapon} is a melee weapon: choose Melee beside the target, or a ranged weapon.").format(
            weapon=weapon.name)

    def _ammunition_problem(self) -> str:
        """Why the chosen weapon cannot fire the rounds the mode needs ("": it can), as the rules would refuse it."""
        attacker = self._attacker()
        if attacker is None or not self.weapon_name():
            return ""
        try:
            fire(self._document.state, attacker.id, self.weapon_name(), self._fired_now())
        except OperationError as problem:
            return str(problem)
        return ""

    def _fired_now(self) -> int:
        """Rounds this shot takes from the clip: its own and those a burst wastes changing target."""
        return self.weapon.rounds.value() + (self._sheet.wasted if self._sheet is not None else 0)

    # --- dice -----------------------------------------------------------------------------------
    def _explosive(self) -> bool:
        return self.weapon.ammo.value() in EXPLOSIVE_AMMO

    def _misfired(self) -> bool:
        return self.dice.misfired(self._explosive())

    def _follow_dice(self) -> None:
        """Give each dice entry the test it needs now; the attack's result decides what follows."""
        attacker = self._attacker()
        if self.is_melee():
            self.melee.follow_dice(attacker, self._target())
            return
        self.dice.set_tests(self._sheet, self._explosive(), resisting_body(attacker) if attacker else 0,
                            self._quick_draw_test())

    def _quick_draw_tn(self) -> int:
        """The quick draw's TN (0: no quick draw): 4, +2 without a proper holster, +2 more for two guns."""
        if not self.situation.quick_draw.isChecked():
            return 0
        return quick_draw_tn(self._tables, self.situation.holstered.isChecked(), self.situation.second.isChecked())

    def _quick_draw_test(self) -> DiceExpression | None:
        attacker, tn = self._attacker(), self._quick_draw_tn()
        return tn_test(attacker.attribute("reaction"), tn) if tn and attacker is not None else None

    def _resolve_problem(self) -> tuple[str, bool]:
        """What stops Resolve now, and whether it is an error (or only the dice still to come)."""
        attacker, target = self._attacker(), self._target()
        if self.is_melee():
            return self._melee_problem()
        if self._sheet is None or attacker is None or target is None:
            return self._problem or _("Choose an attacker and a target."), True
        if not may_act_against(self._document.state, attacker.id, target.id):
            return _("{attacker} is surprised by {target} and cannot act against them yet.").format(
                attacker=attacker.name, target=target.name), True
        if self._ammunition_problem():
            return self._ammunition_problem(), True
        if self.dice.attack_entry.expression() is None and not self.dice.quick_draw_failed():
            return _("Enter the attacker's skill dice (and combat pool dice, if any)."), False
        return super()._resolve_problem()

    def _update_resolve(self) -> None:
        super()._update_resolve()
        self.dice.offer_karma(karma_left(self._attacker()), karma_left(self._target()), not self._dice_locked())
        if self._resolved and self.is_melee():
            show_message(self.status_label, _("Enter sets up the next attack, and so does any change to the form; "
                                              "Esc closes."), error=False)

    def _melee_problem(self) -> tuple[str, bool]:
        attacker, target = self._attacker(), self._target()
        if self.melee.sheet is None or attacker is None or target is None:
            return self.melee.problem or _("Choose an attacker and a target."), True
        if not may_act_against(self._document.state, attacker.id, target.id):
            return _("{attacker} is surprised by {target} and cannot act against them yet.").format(
                attacker=attacker.name, target=target.name), True
        if self.melee.attack_entry.expression() is None:
            return _("Enter the attacker's skill dice (and combat pool dice, if any)."), False
        return super()._resolve_problem()

    # --- resolving ------------------------------------------------------------------------------
    def operation(self) -> Sr3Attack | Sr3Melee | Sr3QuickDrawFailed | None:
        """The attack as the form stands, or None while something is missing."""
        if self.is_melee():
            return self._melee_operation()
        attacker, target, sheet, dice = self._attacker(), self._target(), self._sheet, self.dice
        if attacker is None or target is None or sheet is None or self._resolve_problem()[0]:
            return None
        if dice.quick_draw_failed():
            return Sr3QuickDrawFailed(attacker.id, self.weapon.name.text().strip() or _("a weapon"),
                                      self._quick_draw_tn(), dice.quick_draw_entry.faces(), self.counts.isChecked())
        attack = Sr3Attack(
            attacker.id, target.id, self.weapon.name.text().strip() or _("a weapon"),
            sheet.power, sheet.level, sheet.attack_tn.value, dice.attack_entry.faces(), sheet.resist_tn,
            dice.resist_entry.faces(), dodge_tn=sheet.dodge_tn.value, dodge_faces=dice.dodge_entry.faces(),
            attack_pool=dice.attack_pool.value(), track=sheet.track, ammo=self.weapon.ammo.value().value,
            resist_pool=dice.resist_pool.value() if dice.resist_entry.expression() is not None else 0,
            mode=self.weapon.firing_mode().value if self.counts.isChecked() else None,
            rounds=self.weapon.rounds.value(), saved_weapon=self.weapon_name(),
            aim_actions=self.aim.for_shot(dice.attack_pool.value()).counted,
            called_shot=self.situation.called.isChecked(), attack_karma_rerolls=dice.attack_karma.paid_rerolls(),
            dodge_karma_rerolls=dice.dodge_karma.paid_rerolls(), resist_karma_rerolls=dice.resist_karma.paid_rerolls(),
            karma_averts_disaster=dice.averted(), attack_bought=dice.attack_bought.paid(),
            dodge_bought=dice.dodge_bought.paid(), resist_bought=dice.resist_bought.paid(),
            quick_draw_tn=self._quick_draw_tn(), quick_draw_faces=dice.quick_draw_entry.faces(), barrier=sheet.barrier,
            wasted_rounds=sheet.wasted)
        if not self._misfired():
            return attack
        # The round detonated: the shooter resists the weapon's standard code, without combat pool.
        misfire = dice.misfire_entry.result()
        return replace(attack, power=sheet.base.power, level=sheet.base.level, resist_tn=sheet.misfire_resist_tn,
                       dodge_faces=(), dodge_karma_rerolls=0, dodge_bought=0, resist_pool=0, track=PHYSICAL,
                       misfire_roll=misfire.total if misfire is not None else None)

    def _melee_operation(self) -> Sr3Melee | None:
        attacker, target = self._attacker(), self._target()
        if attacker is None or target is None or self._resolve_problem()[0]:
            return None
        chosen = self.chosen_weapon()
        saved = self.weapon_name() if chosen is not None and is_melee(chosen) else ""
        try:
            return self.melee.operation(attacker, target, self.counts.isChecked(), saved)
        except RulesError:
            return None  # a code typed wrong: the sheet already says so

    def rolled_outcome(self, operation: Operation) -> str | None:
        if isinstance(operation, Sr3Melee):
            return self.melee.label_for(outcome_key_of(operation, self._document.state))
        if isinstance(operation, Sr3QuickDrawFailed):
            return _(OUTCOME_LABELS["miss"])  # no shot: as a miss, for the odds' mark
        assert isinstance(operation, Sr3Attack)
        return _(OUTCOME_LABELS["miss" if self._misfired() else outcome_key(operation)])  # a misfire misses

    def _set_dice_editable(self, editable: bool) -> None:
        super()._set_dice_editable(editable)
        self.dice.roll_all.setEnabled(editable)
        self.melee.roll_all.setEnabled(editable)

    def _show_result(self, text: str) -> None:
        (self.melee.result if self.is_melee() else self.result_label).setText(text)

    def _after_resolve(self, operation: Operation, change: Change) -> None:
        self._changed_ids |= change.combatants  # read again for the next shot

    def _set_editable(self, editable: bool) -> None:
        super()._set_editable(editable)
        dice = self.dice
        for widget in (dice.skill, dice.attack_pool, dice.body, dice.dermal, self.counts):
            widget.setEnabled(editable)
        pool_allowed = editable and not self._pool_barred()
        dice.dodge.setEnabled(pool_allowed)
        dice.resist_pool.setEnabled(pool_allowed)
