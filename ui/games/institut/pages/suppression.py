"""The Institute's suppression fire page: lay fire on an area, or dodge it when crossing or standing there."""

from __future__ import annotations

import html
from collections.abc import Mapping

from PySide6.QtWidgets import QFormLayout, QGroupBox, QLineEdit, QVBoxLayout

from app.i18n import _, ngettext
from rules.dice import Roller
from rules.encounter import Combatant, JsonValue, Weapon
from rules.errors import RulesError
from rules.history import Operation
from rules.systems.institut import rounds
from rules.systems.institut.arms import DAMAGE, weapon_burst, weapon_kind
from rules.systems.institut.combat import Pool, defence_pool, pool, suppression_difficulty
from rules.systems.institut.odds import success_probability, wound_class_distribution
from rules.systems.institut.ops import SuppressionDodge, SuppressionFire, roll_penalties
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
    whole_number,
    wound_rows,
)
from ui.widgets.dice_entry import DiceEntry
from ui.widgets.inputs import Choice, spin_box
from ui.widgets.layout import column as _column
from ui.widgets.messages import text_label

# --- suppression fire --------------------------------------------------------------------------------------


class SuppressionPage(Page):
    """Lay suppression fire on an area (the attacker), or dodge it when crossing or standing there (the target)."""

    def __init__(self, roller: Roller) -> None:
        super().__init__(roller)
        self._dodge: Pool | None = None
        self._difficulty = 0
        self._problem = ""
        self._prefill_damage = True
        self.opening = Choice([(_("Open fire on an area"), True), (_("Someone crosses or stands in it"), False)])
        self.area = QLineEdit(_("the corridor"))
        self.squares = spin_box(1, 100, 1)
        self.bullets = spin_box(1, 200, 6)
        self.bullets.setToolTip(_("One full-auto burst per square: twice the weapon's short burst."))
        self.weapon = QLineEdit(placeholderText=_("e.g. RPK"))
        self.fire_damage = spin_box(0, 40, 7)
        self.shooter = Choice[str]()
        self.dodge = spin_box(0, 40)
        self.damage = spin_box(0, 40)
        self.sheet_label = text_label(rich=True)
        self.dodge_entry = DiceEntry(_("Dodge"), roller)
        self.damage_entry = DiceEntry(_("Bullet's damage"), roller)
        self._build_layout()
        self.edits.watch(self.opening, self.area, self.squares, self.bullets, self.weapon, self.fire_damage,
                         self.shooter, self.dodge, self.damage, self.dodge_entry, self.damage_entry)
        self.shooter.currentIndexChanged.connect(self._on_shooter)

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
        form.addRow(_("Under fire from"), self.shooter)
        form.addRow(_("Dodge dice"), self.dodge)
        form.addRow(_("Damage dice"), self.damage)
        top = QFormLayout()
        top.addRow(_("What happens"), self.opening)
        sheet = QGroupBox(_("Dice pools"))
        QVBoxLayout(sheet).addWidget(self.sheet_label)
        self.dice_box = QGroupBox(_("Odds and dice"))
        layout = QVBoxLayout(self.dice_box)
        layout.addWidget(self.odds)
        layout.addWidget(self.dodge_entry)
        layout.addWidget(self.damage_entry)
        result = QGroupBox(_("Result"))
        QVBoxLayout(result).addWidget(self.result)
        self.chart_box = self.boxed_chart()
        side_by_side(self, _column(top, self.fire_box, self.cross_box), _column(sheet, result, self.chart_box),
                 _column(self.dice_box))

    @property
    def opening_fire(self) -> bool:
        """Laying the fire (True) or dodging it (False)."""
        return bool(self.opening.value())

    def entries(self) -> list[DiceEntry]:
        return [] if self.opening_fire else [self.dodge_entry, self.damage_entry]

    def _on_shooter(self) -> None:
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
        for entry in (self.dodge_entry, self.damage_entry):
            entry.setVisible(not opening)
        modifiers = context.data.modifiers
        if opening:
            difficulty = suppression_difficulty(self.bullets.value(), modifiers)
            rounds_used = self.squares.value() * self.bullets.value()
            self.sheet_label.setText("<b>{}</b><br>{}<br><i>{}</i>".format(
                html.escape(_("Dodge difficulty {difficulty}").format(difficulty=difficulty)),
                html.escape(_("Bullets per square × {factor}").format(factor=modifiers.suppression_per_bullet)),
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
            return
        self._refresh_crossing(context)

    @staticmethod
    def _shooters(context: Context) -> list[Combatant]:
        return [c for c in context.state.combatants.values() if rounds.suppression(c, context.state) is not None]

    def _refresh_crossing(self, context: Context) -> None:
        shooters = self._shooters(context)
        with self.edits.quietly():
            self.shooter.set_items([(c.name, c.id) for c in shooters])
        fire = self._fire(context)
        self._dodge, self._problem = None, ""
        if context.target is None or fire is None:
            self._problem = _("Choose who crosses the fire.") if fire is not None else _(
                "Nobody lays suppression fire this round.")
            self.sheet_label.setText("")
            self.show_unknown([_("Gets through"), _("No wound"), *(_(CLASS_LABELS[k]) for k in CLASSES)])
            for entry in self.entries():
                entry.set_expression(None, self._problem)
            return
        if self._prefill_damage:
            with self.edits.quietly():
                self.damage.setValue(whole_number(fire.get("damage")))
            self._prefill_damage = False
        self._difficulty = whole_number(fire.get("difficulty"))
        wounds, actions = roll_penalties(context.target, context.state)
        self._dodge = defence_pool(self.dodge.value(), wounds, actions)
        damage = pool((_("Weapon"), self.damage.value()), (_("Armor"), -context.target.attribute("armor")),
                      keep_zero=(_("Weapon"),))
        self.sheet_label.setText("{}<br><b>{}</b><br>{}".format(
            pool_html(_("Dodge"), self._dodge),
            html.escape(_("Difficulty {difficulty}").format(difficulty=self._difficulty)),
            pool_html(_("Bullet's damage"), damage)))
        through = success_probability(self._dodge.dice, self._difficulty, sides=context.sides())
        classes = wound_class_distribution(damage.dice, context.pyramid(context.target), sides=context.sides())
        rows = [(_("Gets through"), through)]
        rows += [(label, (1 - through) * p) for label, p in wound_rows(classes)]
        self.show_odds(rows, crossing_chart(rows))
        with self.edits.quietly():
            self.dodge_entry.set_expression(dice_expression(self._dodge.dice, context.sides()), _(NO_DICE))
            dodged = entry_total(self.dodge_entry)
            if dodged is not None and dodged >= self._difficulty:
                self.damage_entry.set_expression(None, _("Not needed: the dodge got through."))
            else:
                self.damage_entry.set_expression(dice_expression(damage.dice, context.sides()), _(NO_DICE))

    def _fire(self, context: Context) -> Mapping[str, JsonValue] | None:
        chosen = context.state.combatants.get(self.shooter.value()) if self.shooter.values() else None
        return rounds.suppression(chosen, context.state) if chosen is not None else None

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
        assert context.target is not None
        dodged = entry_total(self.dodge_entry) or 0
        damage = flat_faces(self.damage_entry) if dodged < self._difficulty else ()
        return SuppressionDodge(context.target.id, self.shooter.value(), flat_faces(self.dodge_entry), damage)

    def outcome(self, operation: Operation, context: Context) -> str | None:
        if not isinstance(operation, SuppressionDodge) or context.target is None:
            return None
        if sum(operation.dodge_faces) >= self._difficulty:
            return _("Gets through")
        wound = context.pyramid(context.target).classify(sum(operation.damage_faces))
        return _(CLASS_LABELS[wound]) if wound else _("No wound")
