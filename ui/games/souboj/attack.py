"""Souboj attack: kind, numbers and criticals in; the odds of a miss and of each amount of damage live;
the two 1d6 rolled or typed; one undoable operation out.

The form's numbers become an :class:`~ui.games.souboj.attack_parts.AttackInputs`; ``work_out`` there asks
the rules what each outcome would do to the target. Resolve applies one
:class:`~rules.systems.souboj.SoubojAttack` (or :class:`~rules.systems.souboj.FinishOff` for a dying target)
through the document.

A saved weapon chosen in the picker fills the form's weapon part (:meth:`SoubojAttackDialog._apply_weapon`): its
kind, its name, its strength in the attack and a spell's damage; the GM may still change every number. The
target's weapon defence is read from the weapon it used last (else its first), when it carries any.
"""

from __future__ import annotations

from typing import ClassVar

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QScrollBar,
    QVBoxLayout,
    QWidget,
)

from app.document import Change
from app.i18n import N_, _
from rules.dice import Roller
from rules.effects import AddEffect
from rules.encounter import Combatant, Status, Weapon
from rules.errors import RulesError
from rules.history import Operation
from rules.systems.base import Hook
from rules.systems.souboj import FinishOff, MarkDead, SoubojAttack
from rules.systems.souboj.attack import KILLED_ON_THE_SPOT, attack_refusal
from rules.systems.souboj.model import (
    ARMOR,
    ARMOR_VS_THROWN,
    DEXTERITY,
    INTELLIGENCE,
    KIND_LABELS,
    LEVEL,
    STRENGTH,
    WEAPON_STRENGTH,
    Action,
    Cause,
    Kind,
    declaration,
)
from rules.systems.souboj.system import tables
from rules.systems.souboj.tables import SoubojTables, load_tables
from rules.systems.souboj.weapons import SPELL_DAMAGE, may_be_critical, suggested_firearm_number, weapon_kind
from rules.weapons import fire, last_attack, preferred_weapon
from ui.charts.odds_chart import OddsChart
from ui.dialogs.attack_dialog import AttackDialog, Marked
from ui.games.souboj.attack_parts import (
    KIND_FOR_ACTION,
    AttackInputs,
    CriticalBox,
    CriticalPrompt,
    DamageBox,
    Outcome,
    PartsBox,
    armed,
    d6_plus,
    outcome_label,
    work_out,
)
from ui.games.souboj.decisions import DecisionsBeforeDice
from ui.games.souboj.odds import attack_chart
from ui.widgets.dice_entry import DiceEntry
from ui.widgets.effects_list import DurationKind, build_effect
from ui.widgets.messages import show_message
from ui.widgets.odds_table import OddsTable

# --- the dialog ----------------------------------------------------------------------------------------------


class SoubojAttackDialog(AttackDialog):
    """Resolve Souboj attacks one after another, with the odds shown before the dice."""

    override_text: ClassVar[str] = N_("Resolve anyway (GM's override)")
    override_tip: ClassVar[str] = N_("The rules refuse this attacker now (the reason is shown above the buttons). As "
                                     "the GM you may let it act all the same: the log notes your override.")

    # --- construction ---------------------------------------------------------------------------
    def _build(self, roller: Roller) -> None:
        self._outcomes: list[Outcome] = []
        self._problem = ""
        self._tables = self._load_tables()
        labels = {spec.key: spec.label for spec in self._document.system.attribute_specs()}
        self.kind = QComboBox()
        for kind, label in KIND_LABELS.items():
            self.kind.addItem(_(label), kind.value)
        self.kind.setCurrentIndex(self.kind.findData(Kind.MELEE.value))  # unless the attacker declared otherwise
        self.weapon = QLineEdit(placeholderText=_("e.g. long sword"))
        self.attack_box = PartsBox(_("Attack"), labels)
        self.defence_box = PartsBox(_("Defence"), labels)
        self.damage = DamageBox()
        self.critical = CriticalBox()
        self.finish = QCheckBox(_("Finish off automatically (the target is dying)"))
        self.odds = OddsTable()
        self.chart = OddsChart(export_name=_("attack-odds"), compact=True)
        self.attack_entry = DiceEntry(_("Attacker's 1d6"), roller)
        self.defence_entry = DiceEntry(_("Defender's 1d6"), roller)
        self.roll_all = QPushButton(_("Roll both"))
        self.roll_all.setAutoDefault(False)
        self.prompt = CriticalPrompt()  # shown when a critical hit asks the GM for more: bleeding, a lost limb…
        self.after_effect_button = self.prompt.other
        self._after_effect_on: str | None = None
        self._dead_on_spot: str | None = None
        self._refusal = ""  # why the rules refuse the attacker now ("": they do not)
        self._override = False  # the GM's override is being resolved
        self._follow_prompt = False  # a prompt is shown: the scrolled dialog keeps its bottom in view
        self.decisions = DecisionsBeforeDice((self.kind, self.damage.flat, *self.critical.causes.values(),
                                              self.finish), self.entries(), self._edits, self)
        self._build_layout()

    def _load_tables(self) -> SoubojTables:
        try:
            return tables(self._document.state)
        except RulesError:  # a bad override must not lock the GM out: the bundled tables still work
            return load_tables()

    def _build_layout(self) -> None:
        who = self._pickers_form()
        who.addRow(_("Kind"), self.kind)
        who.addRow(_("Weapon name"), self.weapon)
        left = QVBoxLayout()
        left.addLayout(who)
        sides = QHBoxLayout()
        sides.addWidget(self.attack_box)
        sides.addWidget(self.defence_box)
        left.addLayout(sides)
        left.addWidget(self.damage)
        left.addWidget(self.critical)
        left.addStretch(1)
        right = QVBoxLayout()
        right.addWidget(self.finish)
        odds_box = QGroupBox(_("Odds before rolling"))
        QVBoxLayout(odds_box).addWidget(self.odds)
        chart_box = QGroupBox(_("Odds chart"))
        QVBoxLayout(chart_box).addWidget(self.chart)
        odds_row = QHBoxLayout()  # the table and its chart side by side: one die a side leaves few rows
        odds_row.addWidget(odds_box, 2)
        odds_row.addWidget(chart_box, 3)
        right.addLayout(odds_row)
        dice_box = QGroupBox(_("Dice"))
        dice = QVBoxLayout(dice_box)
        dice.addWidget(self.attack_entry)
        dice.addWidget(self.defence_entry)
        dice.addWidget(self.roll_all, 0, Qt.AlignmentFlag.AlignRight)
        right.addWidget(dice_box)
        result_box = QGroupBox(_("Result"))
        result = QVBoxLayout(result_box)
        result.addWidget(self.result_label)
        result.addWidget(self.prompt)
        right.addWidget(result_box)
        right.addStretch(1)
        content = QWidget()
        columns = QHBoxLayout(content)
        columns.addLayout(left, 1)
        columns.addLayout(right, 1)
        # Scrolled on a small screen: a critical hit's prompts make the result taller than a laptop's height.
        self._lay_out(content)

    def _connect(self) -> None:
        super()._connect()
        self._edits.watch(*self._inputs())
        # A bound method, not a lambda: a lambda holding the dialog kept closed dialogs alive, refreshing on every
        # change to the fight until the garbage collector ran.
        self.kind.currentIndexChanged.connect(self._on_kind_index)
        self.roll_all.clicked.connect(self.roll_remaining)
        self.after_effect_button.clicked.connect(self.add_after_effect)
        self.prompt.bleeding.clicked.connect(self.add_bleeding)
        self.prompt.lost_limb.clicked.connect(self.add_lost_limb)
        self.prompt.not_dead.clicked.connect(self.take_back_death)
        bar = self._scroll_bar()
        if bar is not None:
            bar.rangeChanged.connect(self._on_scroll_range)

    def _inputs(self) -> list[QWidget]:
        # The parts' spin boxes are watched where they are made (_on_kind_changed): watching them here too
        # recomputed everything twice per edit.
        return [self.weapon, self.attack_box.other, self.defence_box.other, *self.damage.inputs(),
                *self.critical.inputs(), self.finish]

    def entries(self) -> tuple[DiceEntry, ...]:
        return (self.attack_entry, self.defence_entry)

    def _odds_views(self) -> tuple[Marked, ...]:
        return (self.odds, self.chart)

    # --- combatants -----------------------------------------------------------------------------
    def _attackers(self, wanted: str | None) -> list[Combatant]:
        """Who may attack: the able, and everyone in the group acting now (their blows are simultaneous)."""
        state, system = self._document.state, self._document.system
        acting = state.clock.current.ids if state.clock.current is not None else ()
        return [c for c in state.combatants.values()
                if system.status(c, state) in (Status.ACTIVE, Status.DYING) or c.id in acting or c.id == wanted]

    def _kind(self) -> Kind:
        return Kind(self.kind.currentData() or Kind.MELEE.value)

    def _armed_attacker(self) -> Combatant | None:
        """The attacker with the chosen weapon's numbers (typed in the form: its own)."""
        attacker = self._attacker()
        return armed(attacker, self.chosen_weapon()) if attacker is not None else None

    def _armed_target(self) -> Combatant | None:
        """The target with the weapon it used last, else its first (carrying none: its own numbers)."""
        target = self._target()
        if target is None or not target.weapons:
            return target
        return armed(target, preferred_weapon(target, last_attack(self._document.history.entries, target.id)))

    def _weapon_label(self) -> str:
        """The weapon the attack names: the saved one chosen, else what the GM typed."""
        return self.weapon_name() or self.weapon.text().strip()

    def _prefill(self) -> None:
        self._on_kind_changed(prefill=True)
        super()._prefill()

    def _prefill_attacker(self) -> None:
        """The attacker's numbers, level and Strength; its declared action suggests the kind."""
        attacker = self._attacker()
        if attacker is None:
            return
        declared = declaration(attacker)
        if declared is not None and declared.round == self._document.state.clock.round and \
                declared.action in KIND_FOR_ACTION:
            self.kind.setCurrentIndex(self.kind.findData(KIND_FOR_ACTION[declared.action].value))
            self._on_kind_changed(prefill=False)
        self._prefill_attack_parts(armed(attacker, self.chosen_weapon()))
        self.damage.strength.setValue(attacker.attribute(STRENGTH))
        self.critical.level.setValue(max(1, attacker.attribute(LEVEL, 1)))

    def _prefill_attack_parts(self, attacker: Combatant) -> None:
        """The attacker's numbers; a firearm without a number of its own gets the shooter's suggested one."""
        self.attack_box.prefill(attacker)
        number = self.attack_box.spins.get(WEAPON_STRENGTH)
        if number is None:
            return
        if self._kind() is not Kind.FIREARM:
            number.setToolTip("")
            return
        suggested = suggested_firearm_number(attacker)
        number.setToolTip(_("Suggested for {name}: (Dexterity {dexterity} + Intelligence {intelligence}) ÷ 2 = "
                            "{number}, the seed's “usually half Dexterity + half Intelligence”.").format(
            name=attacker.name, dexterity=attacker.attribute(DEXTERITY),
            intelligence=attacker.attribute(INTELLIGENCE), number=suggested))
        if number.value() == 0:  # the weapon gives none: the shooter's suggestion
            number.setValue(suggested)

    def _prefill_target(self) -> None:
        """The target's numbers and armor; an unconscious target is immobile, a non-combat one exposed."""
        target = self._target()
        if target is None:
            return
        state, system = self._document.state, self._document.system
        self.defence_box.prefill(self._armed_target() or target)
        self.damage.armor.setValue(target.attribute(ARMOR))
        self.damage.armor_counts.setChecked(target.attribute(ARMOR_VS_THROWN) > 0)
        status = system.status(target, state)
        self.critical.causes[Cause.IMMOBILE].setChecked(status in (Status.UNCONSCIOUS, Status.DYING))
        declared = declaration(target)
        last_noncombat = declared is not None and declared.action is Action.NONCOMBAT and (
            declared.round < state.clock.round or target.id in state.clock.acted)
        self.critical.causes[Cause.NONCOMBAT].setChecked(last_noncombat)
        self.finish.setVisible(status is Status.DYING)
        self.finish.setChecked(status is Status.DYING)

    def _apply_weapon(self, weapon: Weapon | None) -> None:
        """The saved weapon's kind, name, strength and a spell's damage into the form (None: left as typed)."""
        self.weapon.setEnabled(weapon is None and not self._resolved)  # a saved weapon's name is the picker's
        if weapon is None:
            return
        self.weapon.setText(weapon.name)
        was_blocked = self.kind.blockSignals(True)
        self.kind.setCurrentIndex(self.kind.findData(weapon_kind(weapon).value))
        self.kind.blockSignals(was_blocked)
        self._on_kind_changed(prefill=True)  # the kind's parts, the weapon's strength among them
        self.damage.spell.setValue(weapon.number(SPELL_DAMAGE))

    # --- reacting to the GM ---------------------------------------------------------------------
    def _on_kind_index(self, _index: int) -> None:
        self._on_kind_changed(prefill=True)

    def _on_kind_changed(self, prefill: bool) -> None:
        kind = self._kind()
        rule = None if kind is Kind.MAGIC else self._tables.rule(kind)
        with self._edits.quietly():
            for box, parts in ((self.attack_box, rule.attack if rule else ()),
                               (self.defence_box, rule.defence if rule else ())):
                for spin in box.set_parts(parts):
                    self._edits.watch(spin)
                box.setVisible(rule is not None)
            if prefill:
                attacker, target = self._armed_attacker(), self._armed_target()
                if attacker is not None:
                    self._prefill_attack_parts(attacker)
                if target is not None:
                    self.defence_box.prefill(target)
        self._edits.edited()

    def _catch_up(self, change: Change | None) -> None:
        if change is None:  # the GM's next attack: the target's new state (it may have fallen)
            self._fill_targets(self.target.currentData())
            self._prefill_target()
            return
        if "tables" in change.what.options:
            self._tables = self._load_tables()
        self._prefill_target_status()

    def _prefill_target_status(self) -> None:
        target = self._target()
        dying = target is not None and self._document.system.status(target, self._document.state) is Status.DYING
        if dying == self.finish.isHidden():
            self.finish.setVisible(dying)
            self.finish.setChecked(dying)

    # --- the live sheet -------------------------------------------------------------------------
    def inputs(self) -> AttackInputs | None:
        """The attack as the form stands (None without an attacker and a target)."""
        attacker, target = self._attacker(), self._target()
        if attacker is None or target is None:
            return None
        kind = self._kind()
        armor_counts = kind is not Kind.THROWN or self.damage.armor_counts.isChecked()
        return AttackInputs(attacker, target, kind, self.attack_box.bonus(), self.defence_box.bonus(),
                            self.damage.strength.value(), self.damage.armor.value() if armor_counts else 0,
                            self.critical.level.value(), self.critical.chosen(),
                            self.damage.flat.isChecked() and not self.damage.flat.isHidden(),
                            self.damage.spell.value())

    def outcomes(self) -> list[Outcome]:
        """The odds rows shown now."""
        return list(self._outcomes)

    def _finishing(self) -> bool:
        return self.finish.isChecked() and not self.finish.isHidden()

    def _recompute(self) -> None:
        kind = self._kind()
        self.damage.sync(kind, self._tables)
        self.critical.sync(kind, self._tables, self._spell_mark())
        for box in (self.attack_box, self.defence_box):
            box.show_total()
        inputs = self.inputs()
        self._outcomes, self._problem = [], ""
        self._refusal = "" if inputs is None else attack_refusal(self._document.state, self._document.system,
                                                                 inputs.attacker)
        if inputs is None:
            self._problem = _("Choose an attacker and a target.")
        elif self._finishing():
            self._outcomes = [Outcome(_("Finished off: dead"), 1.0, None)]
        else:
            try:
                self._check_rounds(inputs.attacker)
                self._outcomes = work_out(inputs, self._document.state, self._document.system, self._tables)
            except RulesError as problem:
                self._problem = str(problem)
        if self._outcomes:
            self.odds.set_outcomes([(row.label, row.probability) for row in self._outcomes])
            self.chart.set_data(attack_chart(self._outcomes))
        else:
            self.odds.set_unknown([_("Miss")])
            self.chart.set_unknown([_("Miss")])
        self._set_dice(inputs)

    def _spell_mark(self) -> bool | None:
        """A saved spell's mark "may be critical" (None: no saved spell chosen, the GM marks a typed one)."""
        weapon = self.chosen_weapon()
        if weapon is None or weapon_kind(weapon) is not Kind.MAGIC:
            return None
        return may_be_critical(weapon)

    def _check_rounds(self, attacker: Combatant) -> None:
        """Refuse before the dice, as the rules will: a weapon with too few rounds loaded (OperationError)."""
        if self._kind() is not Kind.MAGIC:
            fire(self._document.state, attacker.id, self._weapon_label(), 1)

    def _set_dice(self, inputs: AttackInputs | None) -> None:
        rolled = inputs is not None and inputs.kind is not Kind.MAGIC and not self._finishing()
        reason = _("No dice: the target is finished off.") if self._finishing() else _(
            "No dice here: magic follows the spell.")
        self.attack_entry.set_expression(d6_plus(inputs.attack_bonus) if rolled and inputs else None, reason)
        self.defence_entry.set_expression(d6_plus(inputs.defence_bonus) if rolled and inputs else None, reason)
        self.roll_all.setEnabled(rolled and not self._resolved)

    def _resolve_problem(self) -> tuple[str, bool]:
        if self._problem:
            return self._problem, True
        if self.decisions.note() and self._dice_problem():
            return self.decisions.note(), True
        if self._refusal:  # before the dice: the GM sees at once that only an override resolves it
            hint = _("As the GM you may resolve it anyway.") if not self._dice_problem() else _(
                "As the GM you may roll or type the dice and resolve it anyway.")
            return f"{self._refusal} {hint}", True
        return self._dice_problem(), False

    def _update_resolve(self) -> None:
        super()._update_resolve()
        offered = bool(self._refusal) and not self._problem and not self._resolved
        self.override_button.setVisible(offered)
        self.override_button.setEnabled(offered and not self._dice_problem())

    def _allowed_without_action(self) -> bool:
        """A refusal answered by the GM's override: the attacker's (a dying creature with no last action)."""
        return bool(self._refusal)

    def resolve_anyway(self) -> None:
        """The GM lets the refused attacker act all the same: resolved with the override, which the log notes."""
        self._override = True
        try:
            self.resolve()
        finally:
            self._override = False

    def _dice_problem(self) -> str:
        if not all(entry.is_complete() for entry in (self.attack_entry, self.defence_entry)):
            return _("Roll or type both dice, then press Enter to resolve.")
        return ""

    # --- resolving ------------------------------------------------------------------------------
    def operation(self) -> Operation | None:
        """The attack as the form stands, or None while something is missing."""
        inputs = self.inputs()
        if inputs is None or self._problem or self._dice_problem():
            return None
        if self._finishing():
            return FinishOff(inputs.attacker.id, inputs.target.id, self._override)
        magic = inputs.kind is Kind.MAGIC
        return SoubojAttack(
            inputs.attacker.id, inputs.target.id, inputs.kind, self._weapon_label(), inputs.attack_bonus,
            inputs.defence_bonus, None if magic else self._face(self.attack_entry),
            None if magic else self._face(self.defence_entry), inputs.strength, inputs.armor, inputs.level,
            inputs.causes, inputs.flat, inputs.spell_damage if magic else 0, self._override,
            self.critical.allowed(inputs.kind))

    @staticmethod
    def _face(entry: DiceEntry) -> int | None:
        faces = entry.faces()
        return faces[0][0] if faces else None

    def rolled_outcome(self, operation: Operation) -> str | None:
        return outcome_label(self._outcomes, operation, self._tables) if isinstance(operation, SoubojAttack) else None

    def _after_resolve(self, operation: Operation, change: Change) -> None:
        """A critical hit may ask the GM for more: an after-effect on the wounded one, or a death to take back."""
        self._after_effect_on = self._dead_on_spot = None
        self.prompt.clear()
        if not isinstance(operation, SoubojAttack) or not operation.causes:
            return
        state = self._document.state
        offered = next((reminder for reminder in change.reminders if reminder.offers_effect), None)
        if offered is not None and offered.combatant is not None:
            self._offer_after_effects(offered.text, offered.combatant)
        elif any(line.text == KILLED_ON_THE_SPOT for line in change.entry.log):
            self._dead_on_spot = operation.target
            self.prompt.offer_taking_back(_("“If the last wound was critical … it dies on the spot”: {name} is dead. "
                                            "A special circumstance may say otherwise.").format(
                name=state.combatant(operation.target).name))
            self._reveal_prompt()
        elif operation.flat and self._document.system.status(state.combatant(operation.target), state) \
                is not Status.ACTIVE:
            self.prompt.tell(_("A critical flat blow does not kill on the spot: shadow damage is not lethal."))
            self._reveal_prompt()

    def _offer_after_effects(self, note: str, combatant_id: str) -> None:
        self._after_effect_on = combatant_id
        self.prompt.offer_after_effects(note, self._document.state.combatant(combatant_id).name)
        self._reveal_prompt()

    def _reveal_prompt(self) -> None:
        """Keep the prompt in view: on a laptop the result ends below the dialog's visible part, and grows as the
        prompt adds its lines (the scroll range follows only once Qt has laid the content out again)."""
        self._follow_prompt = True
        bar = self._scroll_bar()
        if bar is not None:
            bar.setValue(bar.maximum())

    def _scroll_bar(self) -> QScrollBar | None:
        scroll = self.findChild(QScrollArea)
        return scroll.verticalScrollBar() if scroll is not None else None

    def _on_scroll_range(self, _minimum: int, maximum: int) -> None:
        bar = self._scroll_bar()
        if self._follow_prompt and bar is not None:
            bar.setValue(maximum)  # the result and its prompt end the right-hand column: the bottom shows them

    def _clear_for_next(self) -> None:
        super()._clear_for_next()
        self.decisions.forget()
        self._follow_prompt = False
        self._after_effect_on = self._dead_on_spot = None
        self.prompt.clear()

    def add_after_effect(self) -> None:
        """Close the dialog and add an effect (bleeding, a lost limb…) to the critically wounded one."""
        if self._after_effect_on is not None:
            self.effect_requested.emit(self._after_effect_on)
            self.accept()

    def add_bleeding(self) -> None:
        """Bleeding on the critically wounded one: a reminder at the start of every round, for as long as set."""
        self._add_after_effect(_("Bleeding"), Hook.ROUND_START, self.prompt.bleeding)

    def add_lost_limb(self) -> None:
        """A lost limb on the critically wounded one, for as long as set (by default until removed)."""
        self._add_after_effect(_("Lost limb"), None, self.prompt.lost_limb)

    def _add_after_effect(self, name: str, reminder: Hook | None, button: QPushButton) -> None:
        """One undoable operation: the effect, named in the GM's language, on the wounded one."""
        if self._after_effect_on is None:
            return
        rounds = self.prompt.duration.value()
        duration = DurationKind.ROUNDS if rounds else DurationKind.INDEFINITE
        effect = build_effect(self._document.state, name, self._after_effect_on, duration, max(1, rounds), None,
                              reminder)
        if self._apply_prompted(AddEffect(effect)):
            button.setEnabled(False)  # added once; the effects panel adds more

    def take_back_death(self) -> None:
        """The GM's call on the death on the spot: dying instead; then the wound's after-effects may follow."""
        target = self._dead_on_spot
        if target is None or not self._apply_prompted(MarkDead(target, dead=False)):
            return
        self._dead_on_spot = None
        self.prompt.not_dead.setVisible(False)
        name = self._document.state.combatant(target).name
        self._offer_after_effects(_("{name} is dying instead. Its critical wound may call for an after-effect "
                                    "(bleeding, a lost limb…, by the size of the wound).").format(name=name), target)

    def _apply_prompted(self, operation: Operation) -> bool:
        """Apply what a prompt asked for; its log lines join the result (a refusal is shown, nothing changes)."""
        try:
            change = self._document.apply(operation, initiator=self)
        except RulesError as problem:
            show_message(self.status_label, str(problem))
            return False
        self._show_result(f"{self.result_label.text()}\n{change.entry.text()}")
        self._reveal_prompt()
        return True

    def _set_editable(self, editable: bool) -> None:
        super()._set_editable(editable)
        for widget in (self.kind, self.attack_box, self.defence_box, self.damage, self.critical, self.finish):
            widget.setEnabled(editable)
        self.weapon.setEnabled(editable and self.chosen_weapon() is None)
        self.roll_all.setEnabled(editable and self.attack_entry.expression() is not None)
