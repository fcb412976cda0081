"""The Institute's skill check page: any combatant rolls a skill (the GM may add an attribute) against a difficulty.

The pool comes from :func:`~rules.systems.institut.checks.check_pool`, the odds from
:func:`~rules.systems.institut.odds.success_probability`, and Resolve applies one
:class:`~rules.systems.institut.checks.SkillCheck`.
"""

from __future__ import annotations

import html

from PySide6.QtWidgets import QCheckBox, QFormLayout, QGroupBox, QLabel, QVBoxLayout

from app.i18n import _
from rules.dice import Roller
from rules.errors import OperationError, RulesError
from rules.history import Operation
from rules.systems.institut.checks import CHECK_ATTRIBUTES, CHECK_SKILLS, SkillCheck, check_penalties, check_pool
from rules.systems.institut.combat import Pool, Unit
from rules.systems.institut.odds import pool_total, success_probability
from ui.charts.odds_data import categories
from ui.games.institut.pages.page import (
    NO_DICE,
    Context,
    Page,
    dice_expression,
    entry_total,
    flat_faces,
    held_items,
    no_dice,
    pool_html,
    side_by_side,
)
from ui.widgets.dice_entry import DiceEntry
from ui.widgets.inputs import Choice, spin_box
from ui.widgets.layout import column as _column
from ui.widgets.messages import text_label


class CheckPage(Page):
    """A skill check of the combatant chosen as attacker (who rolls), against a difficulty."""

    uses_target = False
    uses_weapon = False

    def __init__(self, roller: Roller) -> None:
        super().__init__(roller)
        self._pool: Pool | None = None
        self._problem = ""
        self.skill = Choice((_(label), key) for key, label in CHECK_SKILLS.items())
        self.attribute = Choice[str]([(_("None"), ""), *((_(label), key) for key, label in CHECK_ATTRIBUTES.items())])
        self.attribute.setToolTip(_("The rules roll only the skill; add an attribute if the situation calls for it."))
        self.modifier = spin_box(-40, 40)
        self.modifier_label = QLabel()
        self.difficulty = spin_box(0, 999, 10)
        self.difficulty.setToolTip(_("Equalling the difficulty succeeds."))
        self.as_action = QCheckBox(_("Counts as one of this round's actions"))
        self.as_action.setChecked(True)
        self.as_action.setToolTip(_("Off for a check the GM asks for that costs no action."))
        self.held = Choice[str]()
        self.sheet_label = text_label(rich=True)
        self.check_entry = DiceEntry(_("Check"), roller)
        self._build_layout()
        self.edits.watch(self.skill, self.attribute, self.modifier, self.difficulty, self.as_action, self.held,
                         self.check_entry)

    def _build_layout(self) -> None:
        check = QGroupBox(_("Skill check"))
        form = QFormLayout(check)
        form.addRow(_("Skill"), self.skill)
        form.addRow(_("Add an attribute"), self.attribute)
        form.addRow(self.modifier_label, self.modifier)
        form.addRow(_("Difficulty"), self.difficulty)
        form.addRow(self.as_action)
        form.addRow(_("This action"), self.held)
        sheet = QGroupBox(_("Dice pools"))
        QVBoxLayout(sheet).addWidget(self.sheet_label)
        dice = QGroupBox(_("Odds and dice"))
        layout = QVBoxLayout(dice)
        layout.addWidget(self.odds)
        layout.addWidget(self.check_entry)
        result = QGroupBox(_("Result"))
        QVBoxLayout(result).addWidget(self.result)
        side_by_side(self, _column(check, sheet), _column(dice, result), _column(self.boxed_chart()))

    def entries(self) -> list[DiceEntry]:
        return [self.check_entry]

    def refresh(self, context: Context) -> None:
        points = context.unit() is Unit.POINTS
        self.modifier_label.setText(_("Situation (points)") if points else _("Situation (dice)"))
        with self.edits.quietly():
            self.held.set_items(held_items(context.attacker))
        self.held.setEnabled(self.as_action.isChecked())
        self._pool, self._problem = None, ""
        combatant = context.attacker
        if combatant is None:
            self._problem = _("Choose who rolls.")
        else:
            try:
                held = self.held.value() if self.as_action.isChecked() else ""
                wounds, actions = check_penalties(combatant, context.state, self.as_action.isChecked(), held)
                self._pool = check_pool(combatant, self.skill.value(), self.attribute.value(), wounds, actions,
                                        self.modifier.value(), points)
            except (RulesError, OperationError) as problem:
                self._problem = str(problem)
        self._show(context)

    def _show(self, context: Context) -> None:
        built, sides = self._pool, context.sides()
        labels = [_("Success"), _("Failure")]
        if built is None:
            self.sheet_label.setText("")
            self.show_unknown(labels)
            self.check_entry.set_expression(None, self._problem or _("Choose who rolls."))
            return
        difficulty = html.escape(_("Difficulty {difficulty} (equalling it succeeds)").format(
            difficulty=self.difficulty.value()))
        self.sheet_label.setText(f"{pool_html(_('Check'), built)}<br><b>{difficulty}</b>")
        made = success_probability(built.dice, self.difficulty.value(), sides=sides, points=built.points)
        rows = [(labels[0], made), (labels[1], 1 - made)]
        measure = pool_total(built.dice, sides=sides, points=built.points)
        self.show_odds(rows, categories([(label, label, p) for label, p in rows], _("Check"), measure=measure,
                                        measure_name=_("Sum of the dice")))
        with self.edits.quietly():
            self.check_entry.set_expression(dice_expression(built.dice, sides, built.points),
                                            _(NO_DICE) if not built.points else no_dice(built.points))

    def problem(self, context: Context) -> tuple[str, bool]:
        if self._pool is None:
            return self._problem or _("Choose who rolls."), True
        return self.dice_problem()

    def operation(self, context: Context) -> Operation | None:
        if context.attacker is None or self._pool is None or self.problem(context)[0]:
            return None
        as_action = self.as_action.isChecked()
        return SkillCheck(context.attacker.id, self.skill.value(), self.difficulty.value(),
                          flat_faces(self.check_entry), self.attribute.value(), self._pool.points, as_action,
                          self.held.value() if as_action else "")

    def outcome(self, operation: Operation, context: Context) -> str | None:
        if not isinstance(operation, SkillCheck) or self._pool is None:
            return None
        total = entry_total(self.check_entry, self._pool.points)
        if total is None:
            return None
        return _("Success") if total >= operation.difficulty else _("Failure")
