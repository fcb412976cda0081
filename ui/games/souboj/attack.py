"""Souboj attack: kind, numbers and criticals in; the odds of a miss and of each amount of damage live;
the two 1d6 rolled or typed; one undoable operation out.

The form's numbers become an :class:`~ui.games.souboj.attack_parts.AttackInputs`; ``work_out`` there asks
the rules what each outcome would do to the target. Resolve applies one
:class:`~rules.systems.souboj.SoubojAttack` (or :class:`~rules.systems.souboj.FinishOff` for a dying target)
through the document.
"""

from __future__ import annotations

from typing import ClassVar, Final

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.document import Change, EncounterDocument
from app.i18n import _
from rules.dice import Roller
from rules.encounter import Combatant, Status
from rules.errors import RulesError
from rules.history import Operation
from rules.systems.souboj import FinishOff, SoubojAttack
from rules.systems.souboj.model import ARMOR, KIND_LABELS, LEVEL, STRENGTH, Action, Cause, Kind, declaration
from rules.systems.souboj.system import tables
from rules.systems.souboj.tables import SoubojTables, load_tables
from rules.turns import current_actor
from ui.charts.odds_chart import OddsChart
from ui.games.souboj.attack_parts import (
    AttackInputs,
    CriticalBox,
    DamageBox,
    Outcome,
    PartsBox,
    d6_plus,
    outcome_label,
    work_out,
)
from ui.games.souboj.odds import attack_chart
from ui.widgets.dice_entry import DiceEntry
from ui.widgets.inputs import Recompute, fill_combatants
from ui.widgets.messages import show_message
from ui.widgets.odds_table import OddsTable

#: The kind an attacker's declared action suggests.
KIND_FOR_ACTION: Final[dict[Action, Kind]] = {Action.MAGIC: Kind.MAGIC, Action.RANGED: Kind.RANGED,
                                              Action.MELEE: Kind.MELEE}


# --- the dialog ----------------------------------------------------------------------------------------------


class SoubojAttackDialog(QDialog):
    """Resolve Souboj attacks one after another, with the odds shown before the dice."""

    system_id: ClassVar[str] = "souboj"

    def __init__(self, document: EncounterDocument, roller: Roller, attacker_id: str | None = None,
                 target_id: str | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(_("Attack"))
        self._document = document
        self._edits = Recompute(self._refresh)
        self._applying = False
        self._resolved = False
        self._outcomes: list[Outcome] = []
        self._problem = ""
        self._tables = self._load_tables()
        labels = {spec.key: spec.label for spec in document.system.attribute_specs()}
        self.attacker = QComboBox()
        self.target = QComboBox()
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
        self.result_label = QLabel()
        self.status_label = QLabel()
        self.buttons = QDialogButtonBox()
        self.resolve_button = self.buttons.addButton(_("Resolve"), QDialogButtonBox.ButtonRole.ActionRole)
        self.next_button = self.buttons.addButton(_("Next attack"), QDialogButtonBox.ButtonRole.ActionRole)
        self.close_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Close)
        self._build_layout()
        with self._edits.quietly():
            fill_combatants(self.attacker, self._able(attacker_id), attacker_id or current_actor(document.state),
                            silently=True)
            self._fill_targets(target_id)
            self._on_kind_changed(prefill=True)
            self._prefill_attacker()
            self._prefill_target()
        self._connect()
        self._set_resolved(False)
        self._refresh()

    # --- construction ---------------------------------------------------------------------------
    def _load_tables(self) -> SoubojTables:
        try:
            return tables(self._document.state)
        except RulesError:  # a bad override must not lock the GM out: the bundled tables still work
            return load_tables()

    def _build_layout(self) -> None:
        who = QFormLayout()
        who.addRow(_("Attacker"), self.attacker)
        who.addRow(_("Target"), self.target)
        who.addRow(_("Kind"), self.kind)
        who.addRow(_("Weapon"), self.weapon)
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
        QVBoxLayout(result_box).addWidget(self.result_label)
        right.addWidget(result_box)
        right.addStretch(1)
        for label in (self.result_label, self.status_label):
            label.setWordWrap(True)
            label.setTextFormat(Qt.TextFormat.PlainText)  # log lines carry names the GM typed
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        columns = QHBoxLayout()
        columns.addLayout(left, 1)
        columns.addLayout(right, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(columns, 1)
        layout.addWidget(self.status_label)
        layout.addWidget(self.buttons)

    def _connect(self) -> None:
        self._edits.watch(*self._inputs())
        self.attacker.currentIndexChanged.connect(self._on_attacker)
        self.target.currentIndexChanged.connect(self._on_target)
        # A bound method, not a lambda: a lambda holding the dialog kept closed dialogs alive, refreshing on every
        # change to the fight until the garbage collector ran.
        self.kind.currentIndexChanged.connect(self._on_kind_index)
        for entry in (self.attack_entry, self.defence_entry):
            entry.changed.connect(self._update_resolve)
        self.roll_all.clicked.connect(self.roll_remaining)
        self.resolve_button.clicked.connect(self.resolve)
        self.next_button.clicked.connect(self.next_attack)
        self.close_button.clicked.connect(self.reject)
        self._document.changed.connect(self._on_document_changed)
        self._document.replaced.connect(self.reject)  # another fight was loaded: this attack is moot

    def _inputs(self) -> list[QWidget]:
        # The parts' spin boxes are watched where they are made (_on_kind_changed): watching them here too
        # recomputed everything twice per edit.
        return [self.attack_box.other, self.defence_box.other, *self.damage.inputs(), *self.critical.inputs(),
                self.finish]

    # --- combatants -----------------------------------------------------------------------------
    def _able(self, wanted: str | None) -> list[Combatant]:
        """Who may attack: the able, and everyone in the group acting now (their blows are simultaneous)."""
        state, system = self._document.state, self._document.system
        acting = state.clock.current.ids if state.clock.current is not None else ()
        return [c for c in state.combatants.values()
                if system.status(c, state) in (Status.ACTIVE, Status.DYING) or c.id in acting or c.id == wanted]

    def _fill_targets(self, wanted: str | None) -> None:
        state, system = self._document.state, self._document.system
        attacker = self._attacker()
        present = [c for c in state.combatants.values() if (attacker is None or c.id != attacker.id)
                   and (system.status(c, state) is not Status.DEAD or c.id == wanted)]
        if wanted not in {c.id for c in present} and attacker is not None:
            foes = [c for c in present if c.side is not attacker.side] or present
            wanted = foes[0].id if foes else None
        fill_combatants(self.target, present, wanted, silently=True)

    def _attacker(self) -> Combatant | None:
        return self._document.state.combatants.get(self.attacker.currentData())

    def _target(self) -> Combatant | None:
        return self._document.state.combatants.get(self.target.currentData())

    def _kind(self) -> Kind:
        return Kind(self.kind.currentData() or Kind.MELEE.value)

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
        self.attack_box.prefill(attacker)
        self.damage.strength.setValue(attacker.attribute(STRENGTH))
        self.critical.level.setValue(max(1, attacker.attribute(LEVEL, 1)))

    def _prefill_target(self) -> None:
        """The target's numbers and armor; an unconscious target is immobile, a non-combat one exposed."""
        target = self._target()
        if target is None:
            return
        state, system = self._document.state, self._document.system
        self.defence_box.prefill(target)
        self.damage.armor.setValue(target.attribute(ARMOR))
        status = system.status(target, state)
        self.critical.causes[Cause.IMMOBILE].setChecked(status in (Status.UNCONSCIOUS, Status.DYING))
        declared = declaration(target)
        last_noncombat = declared is not None and declared.action is Action.NONCOMBAT and (
            declared.round < state.clock.round or target.id in state.clock.acted)
        self.critical.causes[Cause.NONCOMBAT].setChecked(last_noncombat)
        self.finish.setVisible(status is Status.DYING)
        self.finish.setChecked(status is Status.DYING)

    # --- reacting to the GM ---------------------------------------------------------------------
    def _on_attacker(self) -> None:
        with self._edits.quietly():
            self._fill_targets(self.target.currentData())
            self._prefill_attacker()
            self._prefill_target()
        self._refresh()

    def _on_target(self) -> None:
        with self._edits.quietly():
            self._prefill_target()
        self._refresh()

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
                attacker, target = self._attacker(), self._target()
                if attacker is not None:
                    self.attack_box.prefill(attacker)
                if target is not None:
                    self.defence_box.prefill(target)
        self._edits.edited()

    def _on_document_changed(self, change: Change) -> None:
        if self._applying:
            return  # our own attack: the result stays on screen until the next attack
        if "tables" in change.what.options:
            self._tables = self._load_tables()
        with self._edits.quietly():
            if change.roster_changed:
                fill_combatants(self.attacker, self._able(self.attacker.currentData()), self.attacker.currentData(),
                                silently=True)
                self._fill_targets(self.target.currentData())
            if self._resolved:
                self._clear_dice()
            self._prefill_target_status()
        self._set_resolved(False)
        self._refresh()

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

    def _refresh(self) -> None:
        kind = self._kind()
        self.damage.sync(kind, self._tables)
        self.critical.sync(kind, self._tables)
        for box in (self.attack_box, self.defence_box):
            box.show_total()
        inputs = self.inputs()
        self._outcomes, self._problem = [], ""
        if inputs is None:
            self._problem = _("Choose an attacker and a target.")
        elif self._finishing():
            self._outcomes = [Outcome(_("Finished off: dead"), 1.0, None)]
        else:
            try:
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
        self._update_resolve()

    def _set_dice(self, inputs: AttackInputs | None) -> None:
        rolled = inputs is not None and inputs.kind is not Kind.MAGIC and not self._finishing()
        reason = _("No dice: the target is finished off.") if self._finishing() else _(
            "No dice here: magic follows the spell.")
        self.attack_entry.set_expression(d6_plus(inputs.attack_bonus) if rolled and inputs else None, reason)
        self.defence_entry.set_expression(d6_plus(inputs.defence_bonus) if rolled and inputs else None, reason)
        self.roll_all.setEnabled(rolled and not self._resolved)

    def _update_resolve(self) -> None:
        problem = self._problem or self._dice_problem()
        self.resolve_button.setEnabled(not problem and not self._resolved)
        self.resolve_button.setDefault(not self._resolved)
        self.next_button.setDefault(self._resolved)
        if self._resolved:
            show_message(self.status_label, _("Enter sets up the next attack; Esc closes."), error=False)
        else:
            show_message(self.status_label, problem, error=bool(self._problem))

    def _dice_problem(self) -> str:
        if not all(entry.is_complete() for entry in (self.attack_entry, self.defence_entry)):
            return _("Roll or type both dice, then press Enter to resolve.")
        return ""

    def roll_remaining(self) -> None:
        """Roll whichever of the two dice is still missing."""
        for entry in (self.attack_entry, self.defence_entry):
            if entry.expression() is not None and not entry.is_complete():
                entry.roll()

    # --- resolving ------------------------------------------------------------------------------
    def operation(self) -> Operation | None:
        """The attack as the form stands, or None while something is missing."""
        inputs = self.inputs()
        if inputs is None or self._problem or self._dice_problem():
            return None
        if self._finishing():
            return FinishOff(inputs.attacker.id, inputs.target.id)
        magic = inputs.kind is Kind.MAGIC
        return SoubojAttack(
            inputs.attacker.id, inputs.target.id, inputs.kind, self.weapon.text().strip(), inputs.attack_bonus,
            inputs.defence_bonus, None if magic else self._face(self.attack_entry),
            None if magic else self._face(self.defence_entry), inputs.strength, inputs.armor, inputs.level,
            inputs.causes, inputs.flat, inputs.spell_damage if magic else 0)

    @staticmethod
    def _face(entry: DiceEntry) -> int | None:
        faces = entry.faces()
        return faces[0][0] if faces else None

    def resolve(self) -> None:
        """Apply the attack as one operation; a refusal is shown here and nothing changes."""
        operation = self.operation()
        if operation is None:
            return
        self._applying = True
        try:
            change = self._document.apply(operation)
        except RulesError as problem:
            show_message(self.status_label, str(problem))
            return
        finally:
            self._applying = False
        if isinstance(operation, SoubojAttack):
            self._mark(outcome_label(self._outcomes, operation, self._tables))
        self.result_label.setText("\n".join(line.render() for line in change.entry.log))
        self._set_resolved(True)

    def _mark(self, outcome: str | None) -> None:
        """Mark the outcome rolled (None: none) in the odds table and the chart alike."""
        self.odds.highlight(outcome)
        self.chart.highlight(outcome)

    def _set_resolved(self, resolved: bool) -> None:
        self._resolved = resolved
        for widget in (self.attacker, self.target, self.kind, self.weapon, self.attack_box, self.defence_box,
                       self.damage, self.critical, self.finish, self.attack_entry, self.defence_entry):
            widget.setEnabled(not resolved)
        self.next_button.setEnabled(resolved)
        self.roll_all.setEnabled(not resolved and self.attack_entry.expression() is not None)
        self._update_resolve()

    def _clear_dice(self) -> None:
        for entry in (self.attack_entry, self.defence_entry):
            entry.clear()
        self._mark(None)
        self.result_label.clear()

    def next_attack(self) -> None:
        """Set up the next attack: same attacker and numbers, fresh dice, the target's new state."""
        if not self._resolved:
            return
        with self._edits.quietly():
            self._clear_dice()
            self._fill_targets(self.target.currentData())
            self._prefill_target()
        self._set_resolved(False)
        self._refresh()
