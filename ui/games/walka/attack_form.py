"""The Walka attack form: its values as the rules take them, what the rules make of them, and its group boxes.

:func:`work_out` turns :class:`AttackInputs` into an :class:`AttackSheet` (the damage pool and the chance of
each outcome, from ``damage_pool``, ``outcome_chances`` and ``hit_points_lost``); the boxes only collect values.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.i18n import _, ngettext
from rules.dice import Roller
from rules.systems.walka.contest import Outcome, damage_pool, threshold
from rules.systems.walka.odds import hit_points_lost, outcome_chances
from rules.systems.walka.skills import ATTACK_SKILLS, DEFENCE_SKILLS
from ui.widgets.dice_entry import DiceEntry
from ui.widgets.inputs import spin_box, term
from ui.widgets.messages import plain
from ui.widgets.odds_table import OddsTable

NO_DEFENCE: Final[str] = ""
EXTRA_DICE: Final[int] = 10


# --- the rules' view of the form -------------------------------------------------------------------------


@dataclass(frozen=True)
class AttackInputs:
    """Everything the GM set for one attack, as plain values (bonus and penalty dice are totals)."""

    die: int
    attack_skill: int
    defence: str
    defence_skill: int
    attack_bonus: int
    attack_penalty: int
    defence_bonus: int
    defence_penalty: int
    weapon_dice: int
    modifier: int
    armor: int
    aimed: bool
    hp_left: int
    aim_before_armor: bool = False  # the encounter option: an aim doubles the dice before armor
    under: bool = False  # the encounter option: a test succeeds only under the skill, not at it
    tens: bool = False  # the encounter option: a d100's bonus and penalty dice are extra tens dice
    aimed_twice: bool = False  # a second Aim doubled the pool again (only where the encounter option says so)

    @property
    def attack_threshold(self) -> int:
        """The highest attack roll that succeeds."""
        return threshold(self.attack_skill, self.under)

    @property
    def defence_threshold(self) -> int:
        """The highest defence roll that succeeds."""
        return threshold(self.defence_skill, self.under)


@dataclass(frozen=True)
class OutcomeRow:
    """One outcome of the odds: its row label, the short text under its bar, its chance, and the Hit Points
    the target loses with it (0 for a miss or a defence)."""

    label: str
    tick: str
    probability: float
    removed: int


@dataclass(frozen=True)
class AttackSheet:
    """What the rules make of :class:`AttackInputs`: the damage pool and the chance of each outcome."""

    pool: int
    outcomes: tuple[OutcomeRow, ...]

    @property
    def rows(self) -> list[tuple[str, float]]:
        """(label, chance) rows of the odds table."""
        return [(row.label, row.probability) for row in self.outcomes]

    def chance(self, label: str) -> float:
        """The chance shown for an outcome label (0 if not shown)."""
        return next((p for shown, p in self.rows if shown == label), 0.0)


def hit_label(removed: int, hp_left: int) -> str:
    """The outcome row of a hit removing ``removed`` Hit Points from a target with ``hp_left`` left."""
    if hp_left <= 0:
        return _("Hit")
    if removed >= hp_left:
        return ngettext("Hit, {count}+ Hit Point: down to 0", "Hit, {count}+ Hit Points: down to 0",
                        hp_left).format(count=hp_left)
    if removed == 0:
        return _("Hit, no Hit Point lost")
    return ngettext("Hit, {count} Hit Point lost", "Hit, {count} Hit Points lost", removed).format(count=removed)


def outcome_label(outcome: Outcome, removed: int = 0, hp_left: int = 1) -> str:
    """The row of the odds table an attack's result belongs to."""
    if outcome is Outcome.MISSED:
        return _("Missed")
    if outcome is Outcome.DEFENDED:
        return _("Defended")
    return hit_label(removed, hp_left)


def _hit_rows(hit: float, pool: int, hp_left: int) -> list[OutcomeRow]:
    """A hit's rows: each number of Hit Points lost, the target's last ones summed as "down to 0"."""
    if hp_left <= 0:
        return [OutcomeRow(hit_label(0, 0), _("Hit"), hit, 0)]
    lost = hit_points_lost(pool)
    rows = [OutcomeRow(hit_label(removed, hp_left), str(removed), hit * lost.probability(removed), removed)
            for removed in range(min(pool, hp_left - 1) + 1)]
    if pool >= hp_left:
        rows.append(OutcomeRow(hit_label(hp_left, hp_left), _("{count}+").format(count=hp_left),
                               hit * lost.at_least(hp_left), hp_left))
    return rows


def work_out(inputs: AttackInputs) -> AttackSheet:
    """The pool and the odds of every outcome: missed, defended, and each number of Hit Points lost."""
    pool = damage_pool(inputs.weapon_dice, inputs.modifier, inputs.armor, inputs.aimed, inputs.aim_before_armor,
                       inputs.aimed_twice)
    chances = outcome_chances(inputs.attack_threshold, inputs.defence_threshold if inputs.defence else None, inputs.die,
                              inputs.attack_bonus, inputs.attack_penalty, inputs.defence_bonus,
                              inputs.defence_penalty, inputs.tens)
    rows = [OutcomeRow(outcome_label(Outcome.MISSED), _("Miss"), chances[Outcome.MISSED], 0)]
    if inputs.defence:
        rows.append(OutcomeRow(outcome_label(Outcome.DEFENDED), _("Defended"), chances[Outcome.DEFENDED], 0))
    return AttackSheet(pool, tuple(rows + _hit_rows(chances[Outcome.HIT], pool, inputs.hp_left)))


def pool_text(inputs: AttackInputs, pool: int) -> str:
    """"(3 + 1 − armor 2) × 2 = 4d6": how the pool was made."""
    weapon = f"{inputs.weapon_dice} {term(inputs.modifier)}" if inputs.modifier else str(inputs.weapon_dice)
    twice = inputs.aimed and inputs.aimed_twice
    if twice and inputs.aim_before_armor:
        return _("({weapon}) × 4 − armor {armor} = {pool}d6").format(weapon=weapon, armor=inputs.armor, pool=pool)
    if inputs.aimed and inputs.aim_before_armor:
        return _("({weapon}) × 2 − armor {armor} = {pool}d6").format(weapon=weapon, armor=inputs.armor, pool=pool)
    base = _("{weapon} − armor {armor}").format(weapon=weapon, armor=inputs.armor)
    if twice:
        return _("({base}) × 4 = {pool}d6").format(base=base, pool=pool)
    if inputs.aimed:
        return _("({base}) × 2 = {pool}d6").format(base=base, pool=pool)
    return _("{base} = {pool}d6").format(base=base, pool=pool)


# --- the form's group boxes ----------------------------------------------------------------------------


class AttackBox(QGroupBox):
    """The attacker's side: the saved weapon (the dialog's ``picker``, with the rounds left in ``ammunition``
    beside the name, so the picker keeps the row's whole width for its line) and the inputs it fills (name, skill,
    weapon dice), the damage modifiers, and whether the attack counts as one of the round's actions."""

    def __init__(self, picker: QComboBox, ammunition: QLabel) -> None:
        super().__init__(_("Attack"))
        self.skill = QComboBox()
        for key, label in ATTACK_SKILLS.items():
            self.skill.addItem(_(label), key)
        self.value = spin_box(0, 999)
        self.weapon = QLineEdit(placeholderText=_("e.g. Heavy pistol"))
        self.weapon.setAccessibleName(_("Name"))
        self.weapon_dice = spin_box(0, 100)
        self.modifier = spin_box(-100, 100)
        self.modifier.setToolTip(_("Damage modifiers: dice added to or taken from the pool."))
        self.counts = QCheckBox(_("Counts as one of the attacker's two actions"))
        form = QFormLayout(self)
        form.addRow(_("Weapon"), picker)
        name = QHBoxLayout()
        name.addWidget(self.weapon, 1)
        name.addWidget(ammunition)
        form.addRow(_("Name"), name)
        form.addRow(_("Skill"), _pair(self.skill, self.value))
        form.addRow(_("Weapon dice"), self.weapon_dice)
        form.addRow(_("Damage modifiers"), self.modifier)
        form.addRow(self.counts)

    def skill_key(self) -> str:
        """The attack skill chosen."""
        return str(self.skill.currentData())


class DefenceBox(QGroupBox):
    """The defender's side: which defence it rolls (or none, unaware or immobile), and its armor."""

    def __init__(self) -> None:
        super().__init__(_("Defence"))
        self.defence = QComboBox()
        self.value = spin_box(0, 999)
        self.armor = spin_box(0, 100)
        self.hp = plain(QLabel())  # names the defender
        self.hp.setWordWrap(True)
        form = QFormLayout(self)
        form.addRow(_("Defends with"), _pair(self.defence, self.value))
        form.addRow(_("Armor class"), self.armor)
        form.addRow(self.hp)

    def fill(self, allowed: tuple[str, ...], wanted: str) -> None:
        """Offer the defences that answer the attack skill, then "does not defend"."""
        self.defence.clear()
        for key in allowed:
            self.defence.addItem(_(DEFENCE_SKILLS[key]), key)
        self.defence.addItem(_("Does not defend (unaware or immobile)"), NO_DEFENCE)
        index = self.defence.findData(wanted)
        self.defence.setCurrentIndex(index if index >= 0 else 0)

    def defence_key(self) -> str:
        """The defence chosen ("" when the defender does not roll)."""
        return str(self.defence.currentData() or NO_DEFENCE)


class ModifiersBox(QGroupBox):
    """Bonus and penalty dice of each side (they cancel one for one), and aiming."""

    def __init__(self) -> None:
        super().__init__(_("Bonus and penalty dice"))
        self.attack_bonus, self.attack_penalty = spin_box(0, EXTRA_DICE), spin_box(0, EXTRA_DICE)
        self.defence_bonus, self.defence_penalty = spin_box(0, EXTRA_DICE), spin_box(0, EXTRA_DICE)
        self.second = QCheckBox(_("Second attack, or after a weapon change: +1 penalty die"))
        self.prepared = QCheckBox(_("Prepared last round: +1 advantage die"))
        # walka.md: the prepared die goes "on the prepared action, whatever it is (attack, defence or another test)".
        self.defence_prepared = QCheckBox(_("Prepared last round: +1 advantage die"))
        self.defence_prepared.setAccessibleName(_("The defender prepared last round: +1 advantage die"))
        self.aimed = QCheckBox(_("Aimed: the damage pool is doubled"))
        # Shown only where a second Aim doubles again (the encounter option; by default it does not).
        self.aimed_twice = QCheckBox(_("Aimed twice: doubled again (× 4)"))
        self.aimed_twice.setVisible(False)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        form = QFormLayout(self)
        form.addRow(_("Attacker"), _pair(QLabel(_("bonus")), self.attack_bonus, QLabel(_("penalty")),
                                         self.attack_penalty))
        form.addRow(self.second)
        form.addRow(self.prepared)
        form.addRow(_("Defender"), _pair(QLabel(_("bonus")), self.defence_bonus, QLabel(_("penalty")),
                                         self.defence_penalty))
        form.addRow(self.defence_prepared)
        form.addRow(self.aimed)
        form.addRow(self.aimed_twice)
        form.addRow(self.summary)
        for spin in (self.attack_bonus, self.attack_penalty, self.defence_bonus, self.defence_penalty):
            spin.setToolTip(_("Situational dice (cover, assisted aim, cyberware, conditions, wounds)."))

    def attack_totals(self) -> tuple[int, int]:
        """(bonus, penalty) dice of the attacker, the ticked ones included."""
        return (self.attack_bonus.value() + int(self.prepared.isChecked()),
                self.attack_penalty.value() + int(self.second.isChecked()))

    def defence_totals(self, defends: bool) -> tuple[int, int]:
        """(bonus, penalty) dice of the defender, a prepared die included when it defends."""
        prepared = int(defends and self.defence_prepared.isChecked())
        return self.defence_bonus.value() + prepared, self.defence_penalty.value()


class DiceBox(QGroupBox):
    """The odds, then the dice of the attacker, the defender and the damage pool."""

    def __init__(self, roller: Roller) -> None:
        super().__init__(_("Odds and dice"))
        self.odds = OddsTable()
        self.pool_label = QLabel()
        self.pool_label.setWordWrap(True)
        self.attack_entry = DiceEntry(_("Attacker"), roller)
        self.defence_entry = DiceEntry(_("Defender"), roller)
        self.damage_entry = DiceEntry(_("Damage pool"), roller)
        self.roll_all = QPushButton(_("Roll the rest"))
        self.roll_all.setAutoDefault(False)
        self.roll_all.setToolTip(_("Roll every test still missing, in order: attacker, defender, damage."))
        layout = QVBoxLayout(self)
        layout.addWidget(self.odds)
        layout.addWidget(self.pool_label)
        for entry in self.entries():
            layout.addWidget(entry)
        layout.addWidget(self.roll_all, 0, Qt.AlignmentFlag.AlignRight)

    def entries(self) -> tuple[DiceEntry, ...]:
        """The dice entries in the order the dice are rolled."""
        return (self.attack_entry, self.defence_entry, self.damage_entry)


def _pair(*widgets: QWidget) -> QWidget:
    holder = QWidget()
    row = QHBoxLayout(holder)
    row.setContentsMargins(0, 0, 0, 0)
    for index, widget in enumerate(widgets):
        row.addWidget(widget, 1 if index == 0 and isinstance(widget, QComboBox) else 0)
    if not isinstance(widgets[0], QComboBox):
        row.addStretch(1)
    return holder
