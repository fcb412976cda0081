"""The form of Člověk's roll dialog: each side's roll, the power, and the odds rows they give.

:class:`CheckInputs` is what the odds depend on; :func:`outcome_rows` and :func:`power_rows` ask the rules
(:mod:`rules.systems.clovek.odds`) for the chances the dialog shows before any die is rolled.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QWidget,
)

from app.i18n import _
from rules.dice import RollResult, successes_phrase
from rules.encounter import Combatant
from rules.odds import Dist
from rules.systems.clovek import SkillRoll
from rules.systems.clovek.banks import BANK_TITLES, BANKS, bank
from rules.systems.clovek.dice import DEFAULT_ROLL_RULES, ClovekTest, RollRules, SkillKind, read_as_note
from rules.systems.clovek.odds import (
    OUTCOME_WORDS,
    OUTCOMES,
    PowerSpec,
    RollOdds,
    action_power_odds,
    modified,
    net_successes,
    outcome_odds,
    roll_odds,
)
from rules.systems.clovek.rolls import POWER_SOURCE_LABELS, PowerSource, base_power, reroll_number, success_number
from ui.widgets.inputs import spin_box

#: Power rows at most in the odds: each likely power, then the rest summed in an "or more" row.
POWER_ROWS = 8
#: Powers less likely than this get no row of their own.
SHOWN = 0.0005


@dataclass(frozen=True)
class SideInputs:
    """One side's roll as the form has it: bank, dice, skill and its modifiers."""

    bank: str
    dice: int
    skill: int
    kind: SkillKind = SkillKind.ABILITY
    supernatural: bool = False
    bonus: int = 0
    penalty: int = 0
    rules: RollRules = DEFAULT_ROLL_RULES  # the encounter's reading of the floor and the supernatural reroll

    def test(self) -> ClovekTest | None:
        """The dice to roll (None without dice)."""
        return ClovekTest(self.dice, self.skill, self.kind, self.supernatural, self.rules) if self.dice > 0 else None


@dataclass(frozen=True)
class CheckInputs:
    """Everything the odds depend on."""

    roll: SideInputs
    defence: SideInputs | None
    power: PowerSpec | None


def _side(side: SideInputs) -> RollOdds[float]:
    return roll_odds(side.dice, side.skill, side.kind, side.supernatural, side.rules)


def outcome_chances(inputs: CheckInputs) -> dict[str, float]:
    """P(each outcome key) of the action after its modifiers and the defence."""
    defence = inputs.defence
    return outcome_odds(_side(inputs.roll), inputs.roll.bonus, inputs.roll.penalty,
                        None if defence is None else _side(defence), defence.bonus if defence else 0,
                        defence.penalty if defence else 0)


def outcome_rows(inputs: CheckInputs) -> list[tuple[str, float]]:
    """(outcome word, chance) rows of the action after its modifiers and the defence."""
    chances = outcome_chances(inputs)
    return [(outcome_label(key), chances[key]) for key in OUTCOMES]


def outcome_label(key: str) -> str:
    """An outcome word as a row label."""
    return _(OUTCOME_WORDS[key]).capitalize()


@functools.lru_cache(maxsize=16)  # the table, the chart and the power rows all ask for the same form
def net_odds(inputs: CheckInputs) -> Dist[float]:
    """The action's net successes after its modifiers and the defence (0 or less: it fails)."""
    roll, defence = inputs.roll, inputs.defence
    taken = None if defence is None else modified(_side(defence), defence.bonus, defence.penalty)
    return net_successes(modified(_side(roll), roll.bonus, roll.penalty), taken)


@functools.lru_cache(maxsize=16)
def power_odds_of(inputs: CheckInputs, power: PowerSpec) -> Dist[float]:
    """The power of the action, given that it succeeds (a sub-distribution: its total is the success chance)."""
    return action_power_odds(net_odds(inputs), power)


def power_outcomes(inputs: CheckInputs) -> list[tuple[str, str, float]]:
    """(row label, short text for a chart, chance) of each power: the action fails, no lasting effect, then each
    likely power (the rest summed in an "or more" row)."""
    if inputs.power is None:
        return []
    net, powers = net_odds(inputs), power_odds_of(inputs, inputs.power)
    rows = [(_("Action fails"), _("Fails"), float(net.at_most(0))),
            (_("No lasting effect"), _("None"), float(powers.at_most(0)))]
    likely = [value for value in range(max(1, powers.low), powers.high + 1) if powers.probability(value) >= SHOWN]
    singles = likely[: POWER_ROWS - 1]
    rows += [(_("Power {value}").format(value=value), str(value), float(powers.probability(value)))
             for value in singles]
    if len(likely) > len(singles):
        rest = likely[len(singles)]
        rows.append((_("Power {value} or more").format(value=rest), _("{value}+").format(value=rest),
                     float(powers.at_least(rest))))
    return rows


def power_rows(inputs: CheckInputs) -> list[tuple[str, float]]:
    """(power, chance) rows of the odds table (see :func:`power_outcomes`)."""
    return [(label, chance) for label, _tick, chance in power_outcomes(inputs)]


def power_row_label(power: int, labels: list[str]) -> str | None:
    """The row of the power table a resolved power belongs to (its own, an "or more" row, or none)."""
    if power <= 0:
        return _("No lasting effect")
    own = _("Power {value}").format(value=power)
    if own in labels:
        return own
    for value in range(power, 0, -1):
        if _("Power {value} or more").format(value=value) in labels:
            return _("Power {value} or more").format(value=value)
    return None


def pair(first: QWidget, label: str, second: QWidget) -> QWidget:
    """Two fields side by side in one form row, with a small label between them."""
    holder = QWidget()
    row = QHBoxLayout(holder)
    row.setContentsMargins(0, 0, 0, 0)
    row.addWidget(first)
    row.addWidget(QLabel(label))
    row.addWidget(second)
    row.addStretch(1)
    return holder


def combo(items: list[tuple[str, object]]) -> QComboBox:
    """A combo box of (text, data) items."""
    box = QComboBox()
    for text, data in items:
        box.addItem(text, data)
    return box


class RollBox(QGroupBox):
    """One side's roll: bank, skill (name, dots, kind, supernatural), dice, bonuses and penalties."""

    def __init__(self, title: str) -> None:
        super().__init__(title)
        self.bank = combo([(_(BANK_TITLES[key]), key) for key in BANKS])
        self.skill_name = QLineEdit(placeholderText=_("e.g. Fencing"))
        self.skill_name.setMaxLength(200)
        self.skill = spin_box(0, 20, 1)
        self.kind = combo([(kind.label(), kind.value) for kind in SkillKind])
        self.kind.setCurrentIndex(1)
        self.supernatural = QCheckBox(_("Supernatural"))
        self.dice = spin_box(0, 0)
        self.dice_note = QLabel()
        self.bonus = spin_box(0, 50)
        self.penalty = spin_box(0, 50)
        self.info = QLabel()
        self.info.setWordWrap(True)
        #: The encounter's reading of the Rolling Decisions (the dialog sets it from the fight's options).
        self.rules = DEFAULT_ROLL_RULES
        self.form = QFormLayout(self)
        self.form.addRow(_("Bank"), self.bank)
        self.form.addRow(_("Skill"), self.skill_name)
        self.form.addRow(_("Dots"), pair(self.skill, "", self.kind))
        self.form.addRow("", self.supernatural)
        self.form.addRow(_("Dice"), pair(self.dice, "", self.dice_note))
        self.form.addRow(_("Bonus"), pair(self.bonus, _("penalty"), self.penalty))
        self.form.addRow(self.info)

    def inputs(self) -> list[QWidget]:
        """Widgets whose changes recompute the odds."""
        return [self.bank, self.skill, self.kind, self.supernatural, self.dice, self.bonus, self.penalty]

    def values(self) -> SideInputs:
        """The roll as the rules take it."""
        return SideInputs(str(self.bank.currentData()), self.dice.value(), self.skill.value(),
                          SkillKind(str(self.kind.currentData())), self.supernatural.isChecked(),
                          self.bonus.value(), self.penalty.value(), self.rules)

    def skill_roll(self, faces: tuple[tuple[int, ...], ...]) -> SkillRoll:
        """The operation's part for this side."""
        values = self.values()
        return SkillRoll(values.bank, faces, values.skill, values.kind, values.supernatural,
                         self.skill_name.text().strip(), values.bonus, values.penalty)

    def limit(self, combatant: Combatant | None) -> None:
        """Dice within what the bank has left; the success number spelled out."""
        left = bank(combatant, str(self.bank.currentData())).remaining if combatant is not None else 0
        self.dice.setMaximum(left)
        self.dice_note.setText(_("of {left} left").format(left=left))
        values = self.values()
        number = success_number(values.skill, values.supernatural, self.rules)
        reroll = reroll_number(values.skill, values.supernatural, self.rules)
        if number <= 1:
            text = _("Every die succeeds; {reroll} or more is rolled again.").format(reroll=reroll)
        elif reroll == 10:
            text = _("Success on {number} or more; a 10 is rolled again.").format(number=number)
        elif reroll < number:
            text = _("Success on {number} or more; {reroll} or more is rolled again, a failed die too.").format(
                number=number, reroll=reroll)
        else:
            text = _("Success on {number} or more; {reroll} or more is rolled again.").format(
                number=number, reroll=reroll)
        self.info.setText(text)


class PowerBox(QGroupBox):
    """Where the power comes from, its bonuses and penalties, and which of the target's tracks takes it."""

    NONE = "none"

    def __init__(self) -> None:
        super().__init__(_("Power"))
        self.source = combo([(_("No power roll"), self.NONE),
                              *((_(label), source.value) for source, label in POWER_SOURCE_LABELS.items())])
        self.value = spin_box(0, 20)
        self.item = QLineEdit(placeholderText=_("e.g. heavy pistol"))
        self.item.setMaxLength(200)
        self.bonus = spin_box(0, 50)
        self.penalty = spin_box(0, 50)
        self.drop_base = QCheckBox(_("Hold back: drop the base power"))
        self.track = QComboBox()
        self.info = QLabel()
        self.info.setWordWrap(True)
        self.rules = DEFAULT_ROLL_RULES  # as the roll boxes': the power roll works as a skill roll
        form = QFormLayout(self)
        form.addRow(_("From"), self.source)
        form.addRow(_("Value"), pair(self.value, "", self.item))
        form.addRow(_("Bonus"), pair(self.bonus, _("penalty"), self.penalty))
        form.addRow("", self.drop_base)
        form.addRow(_("Wounds on"), self.track)
        form.addRow(self.info)

    def inputs(self) -> list[QWidget]:
        """Widgets whose changes recompute the odds."""
        return [self.source, self.value, self.bonus, self.penalty, self.drop_base, self.track]

    def chosen(self) -> PowerSource | None:
        """The power's source, or None for no power roll."""
        data = str(self.source.currentData())
        return None if data == self.NONE else PowerSource(data)

    def spec(self, critical_range: int) -> PowerSpec | None:
        """The power as the odds take it."""
        source = self.chosen()
        if source is None:
            return None
        drop = self.drop_base.isChecked() and source is PowerSource.ATTRIBUTE
        return PowerSpec(source, self.value.value(), self.bonus.value(), self.penalty.value(), drop, critical_range,
                         self.rules)

    def sync(self) -> None:
        """Enable what matters for the chosen source."""
        source = self.chosen()
        for widget in (self.value, self.bonus, self.penalty):
            widget.setEnabled(source is not None)
        self.item.setEnabled(source is PowerSource.EQUIPMENT)
        self.track.setEnabled(source is not None and self.track.count() > 1)
        self.drop_base.setEnabled(source is PowerSource.ATTRIBUTE)
        if source is None:
            self.info.setText(_("Choose a source to roll power (needed for wounds and long actions)."))
            return
        base = base_power(source, self.value.value(), self.drop_base.isChecked() and self.drop_base.isEnabled())
        self.info.setText(_("Base {base}; one die per success that gets through, success on {number} or more.")
                          .format(base=base, number=success_number(self.value.value(), False, self.rules)))


class PowerDice(ClovekTest):
    """The power roll's dice: only the successes matter here (the rules decide on a critical failure)."""

    def label(self) -> str:
        """"2d10 against 4": the power value stands in for a skill."""
        return _("{dice} against {value}").format(dice=f"{self.count}d10", value=self.skill)

    def summarize(self, result: RollResult) -> str:
        return read_as_note(successes_phrase(result.successes or 0), result)


def fill(combo: QComboBox, items: list[tuple[str, object]], wanted: object) -> None:
    """Replace the items without signals; select ``wanted`` (the first item if it is not offered)."""
    combo.blockSignals(True)
    combo.clear()
    for text, data in items:
        combo.addItem(text, data)
    index = combo.findData(wanted) if wanted is not None else 0
    combo.setCurrentIndex(index if index >= 0 else 0)
    combo.blockSignals(False)
