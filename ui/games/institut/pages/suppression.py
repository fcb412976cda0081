"""The Institute's suppression fire page: lay fire on an area, or dodge it when crossing or standing there.

Several shooters may fire at one area: the dodge is against all their bullets per square × 4
(:func:`~rules.systems.institut.rounds.suppressed_area`), once per square crossed or once for standing in it
(:class:`~rules.systems.institut.crossing.CrossSuppression`), each dodge its own dice and each failure a bullet.
"""

from __future__ import annotations

import html
from typing import Final

from PySide6.QtWidgets import QCheckBox, QFormLayout, QGroupBox, QLineEdit, QScrollArea, QVBoxLayout, QWidget

from app.i18n import _, ngettext
from rules.dice import Roller
from rules.encounter import Weapon
from rules.errors import RulesError
from rules.history import Operation
from rules.systems.institut import move_limit, rounds
from rules.systems.institut.arms import DAMAGE, weapon_burst, weapon_kind
from rules.systems.institut.combat import Pool, defence_pool, pool, suppression_difficulty
from rules.systems.institut.crossing import CrossSuppression, SuppressionRoll, dodges_needed
from rules.systems.institut.odds import bullets_distribution, success_probability, wound_class_distribution
from rules.systems.institut.ops import SuppressionFire, roll_penalties
from rules.systems.institut.pyramid import CLASS_LABELS, CLASSES
from rules.systems.institut.tables import WeaponKind
from rules.weapons import fire
from ui.games.institut.odds import crossing_chart
from ui.games.institut.pages.page import (
    NO_DICE,
    Context,
    Page,
    dice_expression,
    entry_total,
    flat_faces,
    pool_html,
    side_by_side,
    wound_rows,
)
from ui.widgets.dice_entry import DiceEntry
from ui.widgets.inputs import Choice, spin_box
from ui.widgets.layout import column as _column
from ui.widgets.messages import text_label

# --- suppression fire --------------------------------------------------------------------------------------

#: Squares the page offers to cross: more than a sprint through fire would cover in a round.
MOST_SQUARES: Final[int] = 40


def bullets_label(count: int) -> str:
    """The odds row of a crossing that took ``count`` bullets."""
    if not count:
        return _("Gets through")
    return ngettext("{count} bullet", "{count} bullets", count).format(count=count)


class SuppressionPage(Page):
    """Lay suppression fire on an area (the attacker), or dodge it when crossing or standing there (the target).

    Crossing is moving: past the metres the round allows (:mod:`rules.systems.institut.move_limit`) the crossing is
    refused, the rule quoted before the dice, unless the GM overrides it.
    """

    offers_override = True

    def __init__(self, roller: Roller) -> None:
        super().__init__(roller)
        self._dodge: Pool | None = None
        self._area: rounds.SuppressedArea | None = None
        self._problem = ""
        self._prefill_damage = True
        self.opening = Choice([(_("Open fire on an area"), True), (_("Someone crosses or stands in it"), False)])
        self.area = QLineEdit(_("the corridor"))
        self.area.setToolTip(_("Shooters who name the same area add their bullets up."))
        self.squares = spin_box(1, 100, 1)
        self.bullets = spin_box(1, 200, 6)
        self.bullets.setToolTip(_("One full-auto burst per square: twice the weapon's short burst."))
        self.weapon = QLineEdit(placeholderText=_("e.g. RPK"))
        self.fire_damage = spin_box(0, 40, 7)
        self.under_fire = Choice[str]()
        self.crossed = spin_box(0, MOST_SQUARES, 1, special=_("stands in it"))
        self.crossed.setToolTip(_("Squares crossed under fire: a dodge in each. Standing in the area: one dodge."))
        self.sprinting = QCheckBox(_("Sprinting, its only action"))
        self.sprinting.setToolTip(_("Running flat out as the only action of the round: (Agility + Athletics) × 4 "
                                    "metres instead of Agility + Athletics."))
        self.dodge = spin_box(0, 40)
        self.damage = spin_box(0, 40)
        self.damage.setToolTip(_("A bullet's damage dice: the heaviest of the shooters' weapons unless you say."))
        self.sheet_label = text_label(rich=True)
        self.dodge_entries: list[DiceEntry] = []
        self.damage_entries: list[DiceEntry] = []
        self._rolls = QVBoxLayout()
        self._build_layout()
        self._ensure_entries(1)
        self.edits.watch(self.opening, self.area, self.squares, self.bullets, self.weapon, self.fire_damage,
                         self.under_fire, self.crossed, self.sprinting, self.dodge, self.damage)
        self.under_fire.currentIndexChanged.connect(self._on_area)

    @property
    def dodge_entry(self) -> DiceEntry:
        """The first dodge (the only one when standing in the area or crossing one square)."""
        return self.dodge_entries[0]

    @property
    def damage_entry(self) -> DiceEntry:
        """The first dodge's bullet."""
        return self.damage_entries[0]

    def _build_layout(self) -> None:
        self.fire_box = QGroupBox(_("Suppression fire"))
        form = QFormLayout(self.fire_box)
        form.addRow(_("Area"), self.area)
        form.addRow(_("Squares covered"), self.squares)
        form.addRow(_("Bullets per square"), self.bullets)
        form.addRow(_("Weapon"), self.weapon)
        form.addRow(_("Damage dice"), self.fire_damage)
        self.cross_box = QGroupBox(_("Crossing the fire"))
        form = QFormLayout(self.cross_box)
        form.addRow(_("Area under fire"), self.under_fire)
        form.addRow(_("Squares crossed"), self.crossed)
        form.addRow(self.sprinting)
        form.addRow(_("Dodge dice"), self.dodge)
        form.addRow(_("Damage dice"), self.damage)
        top = QFormLayout()
        top.addRow(_("What happens"), self.opening)
        sheet = QGroupBox(_("Dice pools"))
        QVBoxLayout(sheet).addWidget(self.sheet_label)
        self.dice_box = QGroupBox(_("Odds and dice"))
        layout = QVBoxLayout(self.dice_box)
        layout.addWidget(self.odds)
        rolls = QWidget()
        rolls.setLayout(self._rolls)
        self._rolls.setContentsMargins(0, 0, 0, 0)
        self._rolls.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(rolls)
        layout.addWidget(scroll, 1)
        result = QGroupBox(_("Result"))
        QVBoxLayout(result).addWidget(self.result)
        self.chart_box = self.boxed_chart()
        dice = QVBoxLayout()
        dice.addWidget(self.dice_box, 1)  # a long crossing's dodges fill the column's height before they scroll
        side_by_side(self, _column(top, self.fire_box, self.cross_box), _column(sheet, result, self.chart_box), dice)

    def _ensure_entries(self, count: int) -> None:
        """Dice entries for ``count`` dodges and their bullets (made as they are first needed, then kept)."""
        while len(self.dodge_entries) < count:
            number = len(self.dodge_entries) + 1
            dodge = DiceEntry(_("Dodge {number}").format(number=number), self.roller)
            damage = DiceEntry(_("Bullet {number}").format(number=number), self.roller)
            for entry in (dodge, damage):
                self._rolls.insertWidget(self._rolls.count() - 1, entry)  # above the stretch
                self.edits.watch(entry)
            self.dodge_entries.append(dodge)
            self.damage_entries.append(damage)

    @property
    def opening_fire(self) -> bool:
        """Laying the fire (True) or dodging it (False)."""
        return bool(self.opening.value())

    def dodges(self) -> int:
        """Dodges this crossing makes: one per square crossed, one for standing in the area."""
        return dodges_needed(self.crossed.value())

    def entries(self) -> list[DiceEntry]:
        if self.opening_fire:
            return []
        return [entry for pair in zip(self.dodge_entries, self.damage_entries, strict=True)
                for entry in pair][:2 * self.dodges()]

    def _on_area(self) -> None:
        self._prefill_damage = True

    def fits(self, weapon: Weapon) -> bool:
        """A gun that fires full auto: suppression fire is full-auto bursts."""
        return weapon_kind(weapon) is WeaponKind.FIREARM and weapon_burst(weapon) is not None

    def apply_weapon(self, weapon: Weapon, context: Context) -> None:
        burst = weapon_burst(weapon)
        if not self.fits(weapon) or burst is None:
            return
        with self.edits.quietly():
            self.weapon.setText(weapon.name)
            self.fire_damage.setValue(weapon.number(DAMAGE))
            # "Он расходует по одной очереди на квадратный метр": one full-auto burst, twice a short one.
            self.bullets.setValue(burst.fired * context.data.modifiers.full_auto_ammo_multiplier)

    def prefill(self, context: Context) -> None:
        if context.target is not None:
            with self.edits.quietly():
                self.dodge.setValue(context.target.attribute("dodge"))

    def refresh(self, context: Context) -> None:
        opening = self.opening_fire
        self.fire_box.setVisible(opening)
        self.cross_box.setVisible(not opening)
        self.dice_box.setVisible(not opening)
        self.chart_box.setVisible(not opening)
        if opening:
            self._refresh_opening(context)
            return
        self._ensure_entries(self.dodges())
        for index, (dodge, damage) in enumerate(zip(self.dodge_entries, self.damage_entries, strict=True)):
            dodge.setVisible(index < self.dodges())
            damage.setVisible(index < self.dodges())
        self._refresh_crossing(context)

    def _refresh_opening(self, context: Context) -> None:
        modifiers = context.data.modifiers
        difficulty = suppression_difficulty(self.bullets.value(), modifiers)
        rounds_used = self.squares.value() * self.bullets.value()
        joined = rounds.suppressed_area(context.state, self.area.text(), modifiers)
        together = ""
        if joined is not None and (context.attacker is None or context.attacker.id not in joined.shooters):
            total = joined.bullets + self.bullets.value()
            together = "<br>" + html.escape(ngettext(
                "With the {count} shooter already firing there: {bullets} bullets per square, difficulty "
                "{difficulty}.", "With the {count} shooters already firing there: {bullets} bullets per square, "
                "difficulty {difficulty}.", len(joined.shooters)).format(
                count=len(joined.shooters), bullets=total, difficulty=suppression_difficulty(total, modifiers)))
        self.sheet_label.setText("<b>{}</b><br>{}{}<br><i>{}</i>".format(
            html.escape(_("Dodge difficulty {difficulty}").format(difficulty=difficulty)),
            html.escape(_("Bullets per square × {factor}").format(factor=modifiers.suppression_per_bullet)),
            together,
            html.escape(ngettext("Uses {count} round; the shooter's only action this round.",
                                 "Uses {count} rounds; the shooter's only action this round.", rounds_used)
                        .format(count=rounds_used))))
        self.show_odds([], None)
        self._problem = "" if context.attacker is not None else _("Choose who fires.")
        if context.attacker is not None:
            try:  # the status line says so before Resolve: too few rounds loaded
                fire(context.state, context.attacker.id, self.saved_weapon(context), rounds_used)
            except RulesError as problem:
                self._problem = str(problem)

    def _areas(self, context: Context) -> list[rounds.SuppressedArea]:
        return list(rounds.suppressed_areas(context.state, context.data.modifiers).values())

    def _unknown_rows(self) -> list[str]:
        if self.dodges() > 1:
            return [bullets_label(count) for count in range(self.dodges() + 1)]
        return [_("Gets through"), _("No wound"), *(_(CLASS_LABELS[k]) for k in CLASSES)]

    def _refresh_crossing(self, context: Context) -> None:
        areas = self._areas(context)
        with self.edits.quietly():
            self.under_fire.set_items([(ngettext("{area} ({count} shooter)", "{area} ({count} shooters)",
                                                 len(area.shooters)).format(area=area.name, count=len(area.shooters)),
                                        area.name) for area in areas])
        chosen = self.under_fire.value() if areas else None
        self._area = next((area for area in areas if area.name == chosen), None)
        self._dodge, self._problem = None, ""
        if context.target is None or self._area is None:
            self._problem = _("Choose who crosses the fire.") if self._area is not None else _(
                "Nobody lays suppression fire this round.")
            self.sheet_label.setText("")
            self.show_unknown(self._unknown_rows())
            for entry in self.entries():
                entry.set_expression(None, self._problem)
            return
        area = self._area
        if self._prefill_damage:
            with self.edits.quietly():
                self.damage.setValue(area.damage)
            self._prefill_damage = False
        wounds, actions = roll_penalties(context.target, context.state)
        self._dodge = defence_pool(self.dodge.value(), wounds, actions)
        damage = pool((_("Weapon"), self.damage.value()), (_("Armor"), -context.target.attribute("armor")),
                      keep_zero=(_("Weapon"),))
        self.sheet_label.setText("{}<br>{}<br><b>{}</b><br>{}{}".format(
            html.escape(self._fire_text(context, area)),
            pool_html(_("Dodge"), self._dodge),
            html.escape(ngettext("Difficulty {difficulty}, {count} dodge", "Difficulty {difficulty}, {count} dodges",
                                 self.dodges()).format(difficulty=area.difficulty, count=self.dodges())),
            pool_html(_("Bullet's damage"), damage), self._movement_html(context)))
        self._show_crossing_odds(context, damage.dice)
        self._set_dice(context.sides(), damage.dice)

    def _movement_html(self, context: Context) -> str:
        """The metres the crosser may still move this round, or the rule the crossing breaks (before the dice)."""
        target = context.target
        if target is None or not move_limit.enforced(context.state):
            return ""
        modifiers = context.data.modifiers
        refused = move_limit.refusal(target, context.state, modifiers, self.crossed.value(), self.sprinting.isChecked())
        if refused:
            return "<br><b>{}</b> {}".format(html.escape(refused), html.escape(
                _("Resolve refuses it unless you override it.")))
        return "<br>" + html.escape(_("Movement this round: {done} of {limit} m moved before this.").format(
            done=move_limit.moved(target, context.state),
            limit=move_limit.allowance(target, modifiers, self.sprinting.isChecked())))

    @staticmethod
    def _fire_text(context: Context, area: rounds.SuppressedArea) -> str:
        names = ", ".join(context.state.combatant(shooter).name for shooter in area.shooters)
        return ngettext("Under fire from {names}: {bullets} bullet per square × {factor}.",
                        "Under fire from {names}: {bullets} bullets per square × {factor}.", area.bullets).format(
            names=names, bullets=area.bullets, factor=context.data.modifiers.suppression_per_bullet)

    def _show_crossing_odds(self, context: Context, damage_dice: int) -> None:
        assert self._dodge is not None and self._area is not None and context.target is not None
        sides, difficulty = context.sides(), self._area.difficulty
        if self.dodges() > 1:
            spread = bullets_distribution(self._dodge.dice, difficulty, self.dodges(), sides=sides)
            rows = [(bullets_label(count), p) for count, p in spread.items()]
        else:
            through = success_probability(self._dodge.dice, difficulty, sides=sides)
            pyramid = context.pyramid(context.target)
            classes = wound_class_distribution(damage_dice, pyramid, sides=sides)
            rows = [(_("Gets through"), through)]
            rows += [(label, (1 - through) * p) for label, p in wound_rows(classes, 1, pyramid)]
        self.show_odds(rows, crossing_chart(rows))

    def _set_dice(self, sides: int, damage_dice: int) -> None:
        assert self._dodge is not None and self._area is not None
        with self.edits.quietly():
            for dodge, damage in zip(self.dodge_entries[:self.dodges()], self.damage_entries, strict=False):
                dodge.set_expression(dice_expression(self._dodge.dice, sides), _(NO_DICE))
                dodged = entry_total(dodge)
                if dodged is not None and dodged >= self._area.difficulty:
                    damage.set_expression(None, _("Not needed: the dodge got through."))
                else:
                    damage.set_expression(dice_expression(damage_dice, sides), _(NO_DICE))

    def problem(self, context: Context) -> tuple[str, bool]:
        if self._problem:
            return self._problem, True
        if self.opening_fire:
            return "", False
        return self.dice_problem()

    def operation(self, context: Context) -> Operation | None:
        if self.problem(context)[0]:
            return None
        if self.opening_fire:
            assert context.attacker is not None
            return SuppressionFire(context.attacker.id, self.area.text(), self.squares.value(), self.bullets.value(),
                                   self.weapon.text().strip(), self.fire_damage.value(), self.saved_weapon(context))
        assert context.target is not None and self._area is not None
        return CrossSuppression(context.target.id, self._area.name, self.crossed.value(), self._rolls_made(),
                                self.sprinting.isChecked(), self.gm_override)

    def _rolls_made(self) -> tuple[SuppressionRoll, ...]:
        assert self._area is not None
        rolls = []
        for dodge, damage in zip(self.dodge_entries[:self.dodges()], self.damage_entries, strict=False):
            made = (entry_total(dodge) or 0) >= self._area.difficulty
            rolls.append(SuppressionRoll(flat_faces(dodge), () if made else flat_faces(damage)))
        return tuple(rolls)

    def outcome(self, operation: Operation, context: Context) -> str | None:
        if not isinstance(operation, CrossSuppression) or context.target is None or self._area is None:
            return None
        difficulty = self._area.difficulty
        failed = [roll for roll in operation.rolls if sum(roll.dodge_faces) < difficulty]
        if len(operation.rolls) > 1:
            return bullets_label(len(failed))
        if not failed:
            return _("Gets through")
        pyramid = context.pyramid(context.target)
        wound = pyramid.classify(sum(failed[0].damage_faces))
        return _(pyramid.label(wound)) if wound else _("No wound")
