"""Shadowrun 3 melee in the attack dialog: both fighters' blows and tests, the exact odds, the dice, one operation.

The form becomes two :class:`~rules.systems.sr3.melee_odds.MeleeSide`; :func:`work_out_melee` gives the target
numbers and the odds; the dice make one :class:`~rules.systems.sr3.Sr3Melee`. The dialog
(:mod:`ui.games.sr3.attack`) puts its pickers on top of the first column and resolves through the document.
"""

from __future__ import annotations

import html
from dataclasses import replace
from typing import Final

from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from app.i18n import N_, _, pgettext
from rules.dice import Roller
from rules.encounter import Combatant, Weapon
from rules.errors import RulesError
from rules.systems.sr3 import Sr3Melee
from rules.systems.sr3.damage import (
    CALLED_SHOT_LABELS,
    CalledShotEffect,
    DamageCode,
    called_shot,
    describe_damage_code,
    read_typed_damage_code,
)
from rules.systems.sr3.levels import LEVEL_LABELS
from rules.systems.sr3.melee import MeleeFighter, Role
from rules.systems.sr3.melee_odds import NOBODY, ORDER, MeleeSheet, MeleeSide, work_out_melee
from rules.systems.sr3.pools import pool_cap
from rules.systems.sr3.system import resisting_body
from rules.systems.sr3.tables import Sr3Tables, TieRule, load_tables
from rules.systems.sr3.weapons import DAMAGE, REACH, SKILL, is_melee
from ui.charts.odds_chart import OddsChart
from ui.charts.odds_data import OddsData, categories
from ui.games.sr3.attack_form import pool_left, successes_entered, tn_lines_html, tn_test, wound_modifier
from ui.widgets.dice_entry import DiceEntry
from ui.widgets.inputs import Choice, spin_box
from ui.widgets.layout import column as _column
from ui.widgets.layout import row as _row
from ui.widgets.messages import text_label
from ui.widgets.odds_table import OddsTable

#: The blow of a fighter with no melee weapon (sr3.md: "Unarmed (Strength)M Stun"; the data decides the level).
UNARMED: Final[str] = N_("Unarmed")


def outcome_label(key: str, attacker: str, defender: str) -> str:
    """ "Kira takes Serious damage", "Nobody is hurt"."""
    if key == NOBODY:
        return _("Nobody is hurt")
    role, level = key.split(":")
    name = defender if role == Role.DEFENDER.value else attacker
    return _("{name} takes {level} damage").format(name=name, level=_(LEVEL_LABELS[level]))


def _melee_weapon(combatant: Combatant) -> Weapon | None:
    """The fighter's first saved melee weapon (None: unarmed)."""
    return next((weapon for weapon in combatant.weapons if is_melee(weapon)), None)


class BlowBox(QGroupBox):
    """One fighter's blow and test: the weapon's name and damage code, its reach, the skill rolled."""

    def __init__(self, title: str) -> None:
        super().__init__(title)
        self.name = QLineEdit(placeholderText=_(UNARMED))
        self.code = QLineEdit(placeholderText=_("e.g. 9M, (STR+2)M or (STR)M Stun"))
        self.code.setToolTip(_("The weapon's damage code as your book writes it; Stun puts it on the stun track."))
        self.reach = spin_box(0, 5)
        self.skill = spin_box(0, 40)
        self.skill.setToolTip(_("The melee skill (or Unarmed Combat) the fighter rolls."))
        form = QFormLayout(self)
        form.addRow(_("Weapon"), self.name)
        form.addRow(_("Damage code"), self.code)
        form.addRow(_("Reach"), self.reach)
        form.addRow(_("Skill dice"), self.skill)

    def fill(self, weapon: Weapon | None, unarmed: DamageCode) -> None:
        """A saved melee weapon's name, code, reach and skill; without one, unarmed (the skill stays)."""
        if weapon is None:
            self.name.clear()
            self.code.setText(describe_damage_code(unarmed))
            self.reach.setValue(0)
            return
        self.name.setText(weapon.name)
        self.code.setText(describe_damage_code(read_typed_damage_code(str(weapon.value(DAMAGE, "")))))
        self.reach.setValue(weapon.number(REACH))
        if weapon.number(SKILL):
            self.skill.setValue(weapon.number(SKILL))

    def weapon_name(self) -> str:
        return self.name.text().strip() or _(UNARMED)

    def blow(self, strength: int) -> DamageCode:
        """The code for a wielder of ``strength`` (RulesError for text that is no code)."""
        return read_typed_damage_code(self.code.text()).for_strength(strength)

    def inputs(self) -> list[QWidget]:
        return [self.name, self.code, self.reach, self.skill]


class SituationGrid(QGroupBox):
    """The modifiers the GM reads off the scene, for each fighter: visibility, position, the GM's own."""

    ROWS: Final[tuple[str, ...]] = (N_("Visibility"), N_("Position"), N_("GM modifier"))

    def __init__(self) -> None:
        super().__init__(_("Situation (TN modifiers)"))
        grid = QGridLayout(self)
        grid.addWidget(QLabel(_("Attacker")), 0, 1)
        grid.addWidget(QLabel(_("Defender")), 0, 2)
        self.attacker: list[QSpinBox] = []
        self.defender: list[QSpinBox] = []
        for row, label in enumerate(self.ROWS, start=1):
            grid.addWidget(QLabel(_(label)), row, 0)
            for column, boxes in ((1, self.attacker), (2, self.defender)):
                box = spin_box(-10, 20)
                grid.addWidget(box, row, column)
                boxes.append(box)
        self.full_defence = QCheckBox(_("Defender on full defence: avoids, never strikes back"))
        grid.addWidget(self.full_defence, len(self.ROWS) + 1, 0, 1, 3)
        self.interception = QCheckBox(_("Interception: the defender moves past the attacker"))
        self.interception.setToolTip(_("A free attack out of turn on a mover passing within 1 m: the mover is on "
                                       "full defence, the TN counts only reach, movement (as the GM modifier) and "
                                       "wounds, and the attacker gives up the rest of this pass."))
        grid.addWidget(self.interception, len(self.ROWS) + 2, 0, 1, 3)
        # "+4, the effects as for firearms" (sr3.md's Decision: melee may be called too, unless the GM's option).
        self.called = QCheckBox(_("Called shot"))
        self.called_effect: Choice[CalledShotEffect] = Choice(
            ((_(label), key) for key, label in CALLED_SHOT_LABELS.items()), min_length=12)
        self.spot_armor = spin_box(0, 30, name=_("Spot or part armor"))
        self.spot_armor.setToolTip(_("Armor of the spot hit, or the rating of the vehicle part."))
        grid.addWidget(_row(self.called, self.called_effect, _("Spot or part armor"), self.spot_armor),
                       len(self.ROWS) + 3, 0, 1, 3)
        self.interception.toggled.connect(self._follow_interception)

    def _follow_interception(self, intercepting: bool) -> None:
        """sr3.md, Interception: "the mover is on full defence", "TN 4 with only reach, movement and the
        attacker's wounds"."""
        if intercepting:
            self.full_defence.setChecked(True)
            for box in (*self.attacker[:2], *self.defender[:2]):
                box.setValue(0)
        self.full_defence.setEnabled(not intercepting)
        for box in (*self.attacker[:2], *self.defender[:2]):
            box.setEnabled(not intercepting)

    def fighter(self, boxes: list[QSpinBox], reach: int, wounds: int, called: bool = False) -> MeleeFighter:
        visibility, position, gm = (box.value() for box in boxes)
        return MeleeFighter(reach, wounds, visibility, position, gm, called)

    def inputs(self) -> list[QWidget]:
        return [*self.attacker, *self.defender, self.full_defence, self.interception, self.called,
                self.called_effect, self.spot_armor]

    def sync(self, allowed: bool) -> None:
        """The called shot only where the encounter allows it; its details only when it is called."""
        if not allowed and self.called.isChecked():
            self.called.setChecked(False)
        self.called.setEnabled(allowed)
        self.called_effect.setEnabled(self.called.isChecked())
        self.spot_armor.setEnabled(self.called.isChecked()
                                   and self.called_effect.value() is not CalledShotEffect.EXTRA_LEVEL)

    def called_blow(self, blow: DamageCode, impact: int, data: Sr3Tables) -> tuple[DamageCode, int]:
        """The attacker's blow and the defender's impact armor after a called shot (unchanged without one)."""
        if not self.called.isChecked():
            return blow, impact
        effect = self.called_effect.value()
        if effect is CalledShotEffect.EXTRA_LEVEL:
            return replace(blow, level=called_shot(effect, blow.level, impact, tables=data).level), impact
        spot = self.spot_armor.value()
        return blow, min(impact, spot) if effect is CalledShotEffect.UNARMORED_SPOT else spot


class MeleeForm(QWidget):
    """The melee page: blows, situation, pools, odds, dice and the result."""

    def __init__(self, roller: Roller) -> None:
        super().__init__()
        self.sheet: MeleeSheet | None = None
        self.problem = ""
        self._names = ("", "")
        self._tie_hits = False  # the GM's rules (set_rules): a tie hits the defender
        self._counterattacks = True  # a winning defender strikes back
        self._tables = load_tables()  # the encounter's, from set_rules
        self._pool_at_most_skill = False  # the encounter's SR3 core option, from set_rules
        self.attack = BlowBox(_("Attacker's blow"))
        self.defence = BlowBox(_("Defender's counterblow"))
        self.situation = SituationGrid()
        self.attack_pool = spin_box(0, 0)
        self.defence_pool = spin_box(0, 0)
        self.resist_pool = spin_box(0, 0)
        self.resist_pool.setToolTip(_("Combat pool dice the fighter who is hit adds to Body to resist."))
        self.pool_note = text_label()
        self.odds = OddsTable()
        self.tn_label = text_label(rich=True)
        self.attack_entry = DiceEntry(_("Attacker"), roller)
        self.defence_entry = DiceEntry(_("Defender"), roller)
        self.resist_entry = DiceEntry(_("Resistance"), roller)
        self.roll_all = QPushButton(_("Roll the rest"))
        self.roll_all.setAutoDefault(False)
        # The odds chart is made when the melee page is first shown: every SR3 attack dialog builds this page, and
        # most of its attacks are ranged (the chart's plot cost ~35 ms of each dialog's opening).
        self._chart: OddsChart | None = None
        self._chart_data: OddsData | None = None
        self._chart_slot = QWidget()
        QVBoxLayout(self._chart_slot).setContentsMargins(0, 0, 0, 0)
        self.sheet_tabs = QTabWidget()
        self.result = text_label()
        self.pickers_slot = QVBoxLayout()
        self._lay_out()

    def _lay_out(self) -> None:
        pools = QGroupBox(_("Dice and odds"))
        form = QFormLayout(pools)
        form.addRow(_("Attacker's pool dice"), self.attack_pool)
        form.addRow(_("Defender's pool dice"), self.defence_pool)
        form.addRow(_("Resistance pool dice"), self.resist_pool)
        form.addRow(self.pool_note)
        form.addRow(self.odds)
        for entry in self.entries():
            form.addRow(entry)
        form.addRow(self.roll_all)
        result = QGroupBox(_("Result"))
        QVBoxLayout(result).addWidget(self.result)
        tns = QWidget()
        tn_layout = QVBoxLayout(tns)
        tn_layout.addWidget(self.tn_label)
        tn_layout.addStretch(1)
        # As on the ranged page, the chart and the target numbers' lines share one place (the TNs themselves are
        # in the dice's headings), and the result goes under them: a laptop screen is 700 pixels high.
        self.sheet_tabs.addTab(self._chart_slot, _("Odds chart"))
        self.sheet_tabs.addTab(tns, _("Target numbers"))
        first = _column(self.attack, self.defence)
        first.insertLayout(0, self.pickers_slot)
        columns = QHBoxLayout(self)
        columns.setContentsMargins(0, 0, 0, 0)
        for column in (first, _column(self.situation, self.sheet_tabs, result), _column(pools)):
            columns.addLayout(column)

    @property
    def chart(self) -> OddsChart:
        """The melee odds chart, made the first time it is needed."""
        if self._chart is None:
            self._chart = OddsChart(export_name=_("melee-odds"), compact=True)
            layout = self._chart_slot.layout()
            assert layout is not None
            layout.addWidget(self._chart)
            self._chart.set_data(self._chart_data)
        return self._chart

    def showEvent(self, event: QShowEvent) -> None:
        """Shown: the chart is needed now."""
        super().showEvent(event)
        self.chart.setVisible(True)

    def _set_chart_data(self, data: OddsData | None) -> None:
        self._chart_data = data
        if self._chart is not None:
            self._chart.set_data(data)

    def entries(self) -> tuple[DiceEntry, ...]:
        """The tests in the order they are made."""
        return self.attack_entry, self.defence_entry, self.resist_entry

    def inputs(self) -> list[QWidget]:
        """What the GM edits (each edit works the sheet out again)."""
        return [*self.attack.inputs(), *self.defence.inputs(), *self.situation.inputs(), self.attack_pool,
                self.defence_pool, self.resist_pool]

    # --- filling ----------------------------------------------------------------------------
    def fill_attacker(self, weapon: Weapon | None, tables: Sr3Tables) -> None:
        """The attacker's blow: the saved melee weapon chosen, else unarmed."""
        self.attack.fill(weapon if weapon is not None and is_melee(weapon) else None, _unarmed(tables))

    def fill_defender(self, defender: Combatant, tables: Sr3Tables) -> None:
        """The defender's first saved melee weapon (or unarmed) for the counterblow."""
        self.defence.fill(_melee_weapon(defender), _unarmed(tables))

    # --- the sheet --------------------------------------------------------------------------
    def recompute(self, attacker: Combatant | None, defender: Combatant | None, tables: Sr3Tables,
                  barred: str) -> None:
        """Limits, then the target numbers and the odds (``barred``: why the defender may not use pool)."""
        self.sheet, self.problem = None, ""
        if attacker is None or defender is None:
            self.problem = _("Choose an attacker and a target.")
            self._show(None)
            return
        self._names = (attacker.name, defender.name)
        self._apply_limits(attacker, defender, barred)
        try:
            self.sheet = work_out_melee(*self._sides(attacker, defender), self.situation.full_defence.isChecked(),
                                        tables)
        except RulesError as problem:
            self.problem = str(problem)
        self._show(self.sheet)

    def _apply_limits(self, attacker: Combatant, defender: Combatant, barred: str) -> None:
        left, capped = pool_left(defender), self._pool_at_most_skill
        attack_cap = pool_cap(self.attack.skill.value(), pool_left(attacker), capped)
        defence_cap = pool_cap(self.defence.skill.value(), left, capped)
        self.attack_pool.setMaximum(attack_cap)
        self.defence_pool.setMaximum(0 if barred else defence_cap)
        self.resist_pool.setMaximum(max(pool_left(attacker), 0 if barred else left - self.defence_pool.value()))
        self.pool_note.setText(barred or _("Combat pool left: {attacker} {a}, {defender} {d}.").format(
            attacker=attacker.name, a=pool_left(attacker), defender=defender.name, d=left))
        self._show_cap(self.attack_pool, attack_cap < pool_left(attacker))
        self._show_cap(self.defence_pool, defence_cap < left and not barred)

    @staticmethod
    def _show_cap(field: QSpinBox, capped: bool) -> None:
        """Say on the pool field that the skill caps it (the encounter's option), the reason in its tooltip; in the
        field itself, as a longer note under the fields would widen the column."""
        field.setSuffix(_(" (skill cap)") if capped else "")
        field.setToolTip(_("This encounter allows no more combat pool dice in a test than the skill's rating (an SR3 "
                           "core option).") if capped else "")

    def _sides(self, attacker: Combatant, defender: Combatant) -> tuple[MeleeSide, MeleeSide]:
        situation = self.situation
        counter = None if situation.full_defence.isChecked() else self.defence.blow(defender.attribute("strength"))
        blow, impact = self._called(attacker, defender)
        mine = MeleeSide(self.attack.skill.value() + self.attack_pool.value(),
                         situation.fighter(situation.attacker, self.attack.reach.value(), wound_modifier(attacker),
                                           situation.called.isChecked()),
                         blow, resisting_body(attacker) + self.resist_pool.value(), attacker.attribute("impact"))
        theirs = MeleeSide(self.defence.skill.value() + self.defence_pool.value(),
                           situation.fighter(situation.defender, self.defence.reach.value(), wound_modifier(defender)),
                           counter, resisting_body(defender) + self.resist_pool.value(), impact)
        return mine, theirs

    def _called(self, attacker: Combatant, defender: Combatant) -> tuple[DamageCode, int]:
        """The attacker's blow and the defender's impact armor, a called shot's effect applied."""
        blow = self.attack.blow(attacker.attribute("strength"))
        return self.situation.called_blow(blow, defender.attribute("impact"), self._tables)

    def _show(self, sheet: MeleeSheet | None) -> None:
        if sheet is None:
            self.tn_label.setText(html.escape(self.problem))
            self.odds.set_unknown([outcome_label(NOBODY, *self._names)])
            self._set_chart_data(None)
            return
        attacker, defender = self._names
        self.tn_label.setText("<b>{}</b>{}<b>{}</b>{}".format(
            html.escape(_("{name}: TN {tn}").format(name=attacker, tn=sheet.attack_tn.value)),
            tn_lines_html(sheet.attack_tn),
            html.escape(_("{name}: TN {tn}").format(name=defender, tn=sheet.defence_tn.value)),
            tn_lines_html(sheet.defence_tn)))
        # The attacker's rows only where a counterblow can land: on full defence they would all read 0 %.
        keys = [key for key in ORDER if sheet.odds[key] or not key.startswith(Role.ATTACKER.value)]
        self.odds.set_outcomes([(outcome_label(key, attacker, defender), sheet.odds[key]) for key in keys])
        self._set_chart_data(chart_data(keys, sheet.odds, self._names))

    # --- dice -------------------------------------------------------------------------------
    def follow_dice(self, attacker: Combatant | None, defender: Combatant | None) -> None:
        """Each test as the form stands; the resistance test is the hit one's, once both tests are in."""
        sheet = self.sheet
        if sheet is None or attacker is None or defender is None:
            for entry in self.entries():
                entry.set_expression(None, _("Fix the attack first."))
            return
        attack_dice = self.attack.skill.value() + self.attack_pool.value()
        defence_dice = self.defence.skill.value() + self.defence_pool.value()
        self.attack_entry.set_expression(tn_test(attack_dice, sheet.attack_tn.value), _("Enter the skill dice."))
        self.defence_entry.set_expression(tn_test(defence_dice, sheet.defence_tn.value), _("No dice."))
        hit = self.hit_role()
        if hit is None:
            self.resist_entry.set_expression(None, _("Not needed: nobody is hit.") if self._exchanged()
                                             else _("Both tests first."))
            return
        hurt = defender if hit is Role.DEFENDER else attacker
        tn = sheet.defender_resist_tn if hit is Role.DEFENDER else sheet.attacker_resist_tn
        self.resist_entry.title_label.setText(_("{name} resists").format(name=hurt.name))
        self.resist_entry.set_expression(tn_test(resisting_body(hurt) + self.resist_pool.value(), tn or 2),
                                         _("No Body dice."))

    def _exchanged(self) -> bool:
        return successes_entered(self.attack_entry) is not None and successes_entered(self.defence_entry) is not None

    def hit_role(self) -> Role | None:
        """Who the exchange hits once both tests are in (None: nobody, or not known yet)."""
        attack, defence = successes_entered(self.attack_entry), successes_entered(self.defence_entry)
        if attack is None or defence is None or self.sheet is None:
            return None
        if attack > defence or (attack == defence > 0 and self._tie_hits):
            return Role.DEFENDER
        if defence > attack and self.sheet.attacker_resist_tn is not None and self._counterattacks:
            return Role.ATTACKER
        return None

    def set_rules(self, tables: Sr3Tables, pool_at_most_skill: bool = False) -> None:
        """The GM's tie and counterblow rules, for who must roll resistance; whether pool dice per test are capped
        at the skill's rating."""
        self._pool_at_most_skill = pool_at_most_skill
        self._tie_hits = tables.melee.tie_rule is TieRule.ATTACKER
        self._counterattacks = tables.melee.defender_counterattacks
        self._tables = tables
        self.situation.sync(tables.called_shot_throws_and_melee)

    # --- resolving --------------------------------------------------------------------------
    def operation(self, attacker: Combatant, defender: Combatant, counts: bool, saved_weapon: str) -> Sr3Melee | None:
        """The exchange as the form stands (None while something is missing)."""
        sheet = self.sheet
        if sheet is None:
            return None
        blow = self._called(attacker, defender)[0]
        counter = self.defence.blow(defender.attribute("strength"))
        hit = self.hit_role()
        resist_tn = (sheet.defender_resist_tn if hit is Role.DEFENDER else sheet.attacker_resist_tn or 0) if hit else 0
        return Sr3Melee(
            attacker.id, defender.id, self.attack.weapon_name(), blow.power, blow.level, sheet.attack_tn.value,
            self.attack_entry.faces(), sheet.defence_tn.value, self.defence_entry.faces(), resist_tn,
            self.resist_entry.faces() if hit else (), self.attack_pool.value(),
            self.defence_pool.value() if self.defence_entry.expression() is not None else 0,
            self.resist_pool.value() if hit and self.resist_entry.expression() is not None else 0, blow.stun,
            self.defence.weapon_name(), counter.power, counter.level, counter.stun,
            self.situation.full_defence.isChecked(), counts and not self.intercepting(), saved_weapon,
            self.intercepting(), self.situation.called.isChecked())

    def intercepting(self) -> bool:
        """Whether the exchange is an interception (a free attack out of turn on a mover)."""
        return self.situation.interception.isChecked()

    def label_for(self, key: str) -> str:
        """The odds row of an outcome key, with the fighters' names."""
        return outcome_label(key, *self._names)


def _tick(key: str) -> str:
    """A bar's short name: the level letter in the GM's language, ← for the attacker's own wound, 0 for none."""
    if key == NOBODY:
        return "0"
    role, level = key.split(":")
    letter = pgettext("sr3 damage level", level)
    return letter if role == Role.DEFENDER.value else f"← {letter}"


def chart_data(keys: list[str], odds: dict[str, float], names: tuple[str, str]) -> OddsData:
    """The exchange's outcomes as bars, from the defender's worst wound to the attacker's own."""
    return categories([(outcome_label(key, *names), _tick(key), odds[key]) for key in keys],
                      _("{defender}'s wound · nobody hurt · ← {attacker}'s wound").format(
                          defender=names[1], attacker=names[0]))


def _unarmed(tables: Sr3Tables) -> DamageCode:
    """(Strength)M Stun by default: the level and the stun are the data's."""
    rules = tables.melee
    return DamageCode(0, rules.unarmed_level, strength_based=True, stun=rules.unarmed_stun)
