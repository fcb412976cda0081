"""The Institute's grenade and explosion pages: the throw, then everyone caught in the blast with their own dice.

An impact grenade's blast is resolved with the throw (:class:`~rules.systems.institut.ops.ThrowGrenade`); a
timed one explodes at the end of the round, when its timer comes up and the Explosion page applies a
:class:`~rules.systems.institut.ops.Blast`.
"""

from __future__ import annotations

import html

from PySide6.QtWidgets import QCheckBox, QFormLayout, QGroupBox, QLineEdit, QSpinBox, QToolButton, QVBoxLayout

from app.i18n import _
from rules.dice import Roller
from rules.encounter import Combatant, SlotKind, Status, Weapon, frozen_map
from rules.errors import RulesError
from rules.history import Operation
from rules.systems.institut import rounds
from rules.systems.institut.arms import DAMAGE, RADIUS, TIMED, table_values, weapon_falloff, weapon_kind
from rules.systems.institut.combat import HEX_DIRECTIONS, Landing, Pool, Unit, landing, pool
from rules.systems.institut.odds import throw_distribution, wound_class_distribution
from rules.systems.institut.ops import Blast, ThrowGrenade, attack_penalties
from rules.systems.institut.tables import MAX_RADIUS, Falloff, InstitutTables, WeaponKind, parse_falloff
from ui.games.institut.odds import blast_chart, throw_chart
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
    wound_rows,
)
from ui.games.institut.pages.victims import Profile, VictimList
from ui.widgets.dice_entry import DiceEntry
from ui.widgets.inputs import Choice, spin_box
from ui.widgets.layout import column as _column
from ui.widgets.layout import row as _row
from ui.widgets.messages import text_label


def _blast_targets(context: Context) -> list[Combatant]:
    return [c for c in context.state.combatants.values()
            if context.system.status(c, context.state) is not Status.DEAD]


class ProfileInputs:
    """A grenade's profile in a form: dice at the point of impact, blast radius and distance table (institut.md
    Decision: "grenade profiles (damage dice, radius, distance table) are data"), filled from a weapon."""

    def __init__(self, damage: int) -> None:
        self.damage = spin_box(0, 60, damage)
        self.damage.setToolTip(_("The grenade's damage dice at the point of impact."))
        self.radius: QSpinBox = spin_box(0, MAX_RADIUS, special=_("not given"), suffix=_(" m"))
        self.radius.setToolTip(_("Creatures further away are not caught (not given: you judge who is)."))
        self.falloff = QLineEdit(placeholderText=_("e.g. 3:0, 7:-2, 15:-4"))
        self.falloff.setToolTip(_("Up to each distance in metres, the dice the blast gains or loses there, "
                                  "nearest first; empty: the same dice all through the radius."))

    def widgets(self) -> tuple[QSpinBox, QSpinBox, QLineEdit]:
        """The inputs, for the page to watch."""
        return self.damage, self.radius, self.falloff

    def add_rows(self, form: QFormLayout) -> None:
        """The inputs as rows of ``form``."""
        form.addRow(_("Damage dice"), self.damage)
        form.addRow(_("Blast radius"), self.radius)
        form.addRow(_("Dice by distance"), self.falloff)

    def fill(self, weapon: Weapon, data: InstitutTables) -> None:
        """Take a grenade's dice, radius and distance table; a grenade carried without a radius or a table (saved
        before grenades had them) takes those of the GM's weapon list entry of its name."""
        listed = data.weapons.get(weapon.name)
        own = weapon.number(RADIUS) or weapon_falloff(weapon).steps
        profile = weapon if own or listed is None else Weapon(listed.key, frozen_map(table_values(listed)))
        self.damage.setValue(weapon.number(DAMAGE))
        self.radius.setValue(profile.number(RADIUS))
        self.falloff.setText(weapon_falloff(profile).text())

    def problem(self) -> str:
        """Why the distance table cannot be read ("" when it can)."""
        try:
            parse_falloff(self.falloff.text())
        except RulesError as problem:
            return str(problem)
        return ""

    def profile(self, unit: Unit = Unit.DICE) -> Profile:
        """The profile typed (a table that cannot be read counts as none: :meth:`problem` says why); cover counts
        in ``unit``."""
        try:
            falloff = parse_falloff(self.falloff.text())
        except RulesError:
            falloff = Falloff()
        return Profile(self.damage.value(), self.radius.value(), falloff, unit is Unit.POINTS)


# --- grenades ----------------------------------------------------------------------------------------------


class GrenadePage(Page):
    """Throw a grenade: Athletics against the distance; an impact grenade's blast is resolved at once."""

    uses_target = False

    def __init__(self, roller: Roller, data: InstitutTables) -> None:
        super().__init__(roller)
        self._pool: Pool | None = None
        self._problem = ""
        self.preset = Choice[str | None]()
        self.grenade = QLineEdit(_("F-1"))
        # Short: the form's column is narrow in every language (the note beside it tells the rest).
        self.timed = Choice([(_("Timed (end of the round)"), True), (_("Impact (at once)"), False)])
        self.distance = spin_box(0, 999, 10, suffix=_(" m"))
        self.athletics = spin_box(0, 40)
        self.visibility = spin_box(-20, 20)
        # institut.md Decision: the ambush's +3 to hit counts for "grenade throws included (a throw is a roll to
        # hit a spot)".
        self.ambush = QCheckBox()
        self.held = Choice[str]()
        # institut.md Decision: a miss deviates "in a direction the GM picks (or a d6 on a hex)".
        self.direction = Choice((f"{number}: {_(label)}", number) for number, label in HEX_DIRECTIONS.items())
        self.direction.setToolTip(_("Where a missed throw goes off to, seen from the thrower; a clearly short "
                                    "throw (at most half the distance) always falls between thrower and target."))
        self.direction_die = QToolButton()
        self.direction_die.setText(_("d6"))
        self.direction_die.setToolTip(_("Roll a d6 for the direction on a hex."))
        self.landing_label = text_label()
        self._landing: Landing | None = None
        self._unit = Unit.DICE
        self.blast = ProfileInputs(8)
        self.damage = self.blast.damage
        self.sheet_label = text_label(rich=True)
        self.throw_entry = DiceEntry(_("Throw"), roller)
        self.victims = VictimList(roller, self.damage.value())
        self.set_tables(data)
        self._build_layout()
        self.edits.watch(self.grenade, self.timed, self.distance, self.athletics, self.visibility, self.ambush,
                         self.held, self.direction,
                         *self.blast.widgets(), self.throw_entry)
        self.direction_die.clicked.connect(lambda: self.direction.select(roller.die(6)))
        self.victims.changed.connect(self.edits.edited)
        self.preset.currentIndexChanged.connect(self._on_preset)

    def set_tables(self, data: InstitutTables) -> None:
        """Offer the grenades of the GM's weapon list."""
        self._data = data
        grenades = sorted((key for key, weapon in data.weapons.items() if weapon.kind is WeaponKind.GRENADE),
                          key=str.casefold)
        self.preset.set_items([(_("Type the grenade in"), None), *((key, key) for key in grenades)])
        self._label_ambush()

    def _label_ambush(self) -> None:
        count = self._data.modifiers.ambush_hit
        self.ambush.setText(_("Ambush, first round (+{count} points to hit)").format(count=count)
                            if self._unit is Unit.POINTS else
                            _("Ambush, first round (+{count} dice to hit)").format(count=count))

    def _on_preset(self) -> None:
        key = self.preset.value()
        weapon = self._data.weapons.get(key) if key else None
        if weapon is None:
            return
        self._fill_from(Weapon(weapon.key, frozen_map(table_values(weapon))))
        self.weapon_typed.emit()  # the GM's list, not the thrower's own grenade
        self.edits.edited()

    def fits(self, weapon: Weapon) -> bool:
        return weapon_kind(weapon) is WeaponKind.GRENADE

    def apply_weapon(self, weapon: Weapon, context: Context) -> None:
        if self.fits(weapon):
            with self.edits.quietly():
                self.preset.select(None)
            self._fill_from(weapon)

    def _fill_from(self, weapon: Weapon) -> None:
        with self.edits.quietly():
            self.grenade.setText(weapon.name)
            self.timed.select(weapon.value(TIMED) is True)
            self.blast.fill(weapon, self._data)

    def _build_layout(self) -> None:
        throw = QGroupBox(_("Grenade"))
        form = QFormLayout(throw)
        form.addRow(_("From the list"), self.preset)
        form.addRow(_("Name"), self.grenade)
        form.addRow(_("Fuse"), self.timed)
        form.addRow(_("Distance"), self.distance)
        form.addRow(_("Athletics dice"), self.athletics)
        form.addRow(_("Sight, obstacles"), self.visibility)
        form.addRow(self.ambush)
        form.addRow(_("This action"), self.held)
        form.addRow(_("If it misses"), _row(self.direction, self.direction_die))
        self.blast.add_rows(form)
        sheet = QGroupBox(_("Dice pools"))
        QVBoxLayout(sheet).addWidget(self.sheet_label)
        dice = QGroupBox(_("Odds and dice"))
        layout = QVBoxLayout(dice)
        layout.addWidget(self.odds)
        layout.addWidget(self.throw_entry)
        layout.addWidget(self.landing_label)
        result = QGroupBox(_("Result"))
        QVBoxLayout(result).addWidget(self.result)
        self.timed_note = QGroupBox(_("Blast"))
        note = text_label()
        note.setText(_("A timed grenade explodes at the end of the round, after everyone has acted: its timer "
                       "comes up in the turn order, and the Explosion page resolves the blast then."))
        QVBoxLayout(self.timed_note).addWidget(note)
        side_by_side(self, _column(throw, sheet), _column(dice, result, self.boxed_chart()),
                 _column(self.victims, self.timed_note))

    def entries(self) -> list[DiceEntry]:
        return [self.throw_entry]

    def prefill(self, context: Context) -> None:
        if context.attacker is not None:
            with self.edits.quietly():
                self.athletics.setValue(context.attacker.attribute("athletics"))
                self.ambush.setChecked(rounds.flag(context.attacker, rounds.AMBUSH) and context.state.clock.round <= 1)

    def refresh(self, context: Context) -> None:
        if context.unit() is not self._unit:
            self._unit = context.unit()
            self._label_ambush()
        with self.edits.quietly():
            self.held.set_items(held_items(context.attacker))
            self.victims.show_combatants(_blast_targets(context), self.blast.profile(context.unit()),
                                         context.sides())
        self.victims.setVisible(not self.timed.value())
        self.timed_note.setVisible(self.timed.value())
        self._pool, self._problem = None, ""
        if context.attacker is None:
            self._problem = _("Choose who throws.")
        else:
            try:
                wounds, actions = attack_penalties(context.attacker, context.state, self.held.value())
                self._pool = pool((_("Athletics"), self.athletics.value()), (_("Wounds"), -wounds),
                                  (_("Additional actions this round"), -actions),
                                  (_("Sight, obstacles"), self.visibility.value()),
                                  (_("Ambush (first round)"), self._data.modifiers.ambush_hit if self.ambush.isChecked()
                                   else 0), keep_zero=(_("Athletics"),),
                                  in_points=(_("Sight, obstacles"), _("Ambush (first round)"))
                                  if self._unit is Unit.POINTS else ())
            except RulesError as problem:
                self._problem = str(problem)
        self._show(context.sides())
        self._show_landing(context)

    def _show_landing(self, context: Context) -> None:
        """Where the throw lands once its dice are in: metres from the target and from the thrower; the thrower's
        own distance from the blast follows it (the GM sets everyone else's from there)."""
        total = entry_total(self.throw_entry, self._pool.points) if self._pool is not None else None
        where = landing(self.distance.value(), total, self.direction.value()) if total is not None else None
        self.direction.setEnabled(where is None or not where.clearly_short)
        thrower = context.attacker
        if where is None or thrower is None:
            self.landing_label.setText(_("Where it lands shows once the throw is rolled."))
        elif where.direction == 0:
            self.landing_label.setText(_("On target: {metres} m from {name}.").format(metres=where.from_thrower,
                                                                                     name=thrower.name))
        elif where.clearly_short:
            self.landing_label.setText(_("Clearly short: {metres} m short of the target, {thrower} m from "
                                         "{name}.").format(metres=where.off_target, thrower=where.from_thrower,
                                                           name=thrower.name))
        else:
            self.landing_label.setText(_("Lands {metres} m off target ({direction}), {thrower} m from {name}.").format(
                metres=where.off_target, direction=_(HEX_DIRECTIONS[where.direction]), thrower=where.from_thrower,
                name=thrower.name))
        if where != self._landing and where is not None and thrower is not None and thrower.id in self.victims.rows:
            with self.edits.quietly():
                self.victims.rows[thrower.id].distance.setValue(where.from_thrower)
        self._landing = where

    def _show(self, sides: int) -> None:
        built, distance = self._pool, self.distance.value()
        if built is None:
            self.sheet_label.setText("")
            self.show_unknown([_("On target"), _("1–2 m off"), _("3–5 m off"), _("6 m or more off")])
            self.throw_entry.set_expression(None, _("Choose who throws."))
            return
        difficulty = html.escape(_("Difficulty {difficulty} (the distance in metres)").format(difficulty=distance))
        self.sheet_label.setText(f"{pool_html(_('Throw'), built)}<br><b>{difficulty}</b>")
        spread = throw_distribution(built.dice, distance, sides=sides, points=built.points)
        bands = ((_("On target"), 0, 0), (_("1–2 m off"), 1, 2), (_("3–5 m off"), 3, 5),
                 (_("6 m or more off"), 6, None))
        rows = [(label, sum(p for off, p in spread.items() if off >= low and (high is None or off <= high)))
                for label, low, high in bands]
        self.show_odds(rows, throw_chart(rows, spread))
        with self.edits.quietly():
            self.throw_entry.set_expression(dice_expression(built.dice, sides, built.points),
                                            _(NO_DICE) if not built.points else no_dice(built.points))

    def problem(self, context: Context) -> tuple[str, bool]:
        if self._pool is None:
            return self._problem or _("Choose who throws."), True
        problem = self.dice_problem()
        if problem[0] or self.timed.value():
            return problem
        if self.blast.problem():
            return self.blast.problem(), True
        return self.victims.problem()

    def can_roll(self) -> bool:
        return super().can_roll() or (not self.timed.value() and self.victims.missing())

    def roll_missing(self) -> None:
        super().roll_missing()
        if not self.timed.value():
            self.victims.roll_missing()

    def clear_dice(self) -> None:
        super().clear_dice()
        with self.edits.quietly():
            self.victims.clear()

    def operation(self, context: Context) -> Operation | None:
        if context.attacker is None or self._pool is None or self.problem(context)[0]:
            return None
        timed = self.timed.value()
        return ThrowGrenade(context.attacker.id, self.grenade.text().strip() or _("a grenade"),
                            self.distance.value(), flat_faces(self.throw_entry), timed,
                            () if timed else self.victims.rolls(), self.held.value(), self.saved_weapon(context),
                            self.direction.value(), self._pool.points)

    def outcome(self, operation: Operation, context: Context) -> str | None:
        if not isinstance(operation, ThrowGrenade):
            return None
        off = max(0, operation.distance - operation.total())
        return (_("On target") if off == 0 else _("1–2 m off") if off <= 2 else _("3–5 m off") if off <= 5
                else _("6 m or more off"))


class BlastPage(Page):
    """An explosion goes off (a timed grenade at the end of the round, a mine…): damage for each creature."""

    uses_attacker = False
    uses_target = False

    def __init__(self, roller: Roller) -> None:
        super().__init__(roller)
        self.source = QLineEdit()
        self.source.setPlaceholderText(_("e.g. F-1"))
        self.blast = ProfileInputs(8)
        self.damage = self.blast.damage
        self.victims = VictimList(roller, self.damage.value())
        explosion = QGroupBox(_("Explosion"))
        form = QFormLayout(explosion)
        form.addRow(_("What explodes"), self.source)
        self.blast.add_rows(form)
        note = text_label()
        note.setText(_("Each creature in the radius rolls its own damage: the grenade's dice for its distance, "
                       "less its own cover. Give each its metres and cover."))
        form.addRow(note)
        odds = QGroupBox(_("Wound at these dice"))
        QVBoxLayout(odds).addWidget(self.odds)
        result = QGroupBox(_("Result"))
        QVBoxLayout(result).addWidget(self.result)
        side_by_side(self, _column(explosion, odds, result), _column(self.victims, self.boxed_chart()))
        self.edits.watch(self.source, *self.blast.widgets())
        self.victims.changed.connect(self.edits.edited)

    def prefill(self, context: Context) -> None:
        """A timed grenade going off now: its name, and its profile if the thrower carries it as a weapon or the
        GM's weapon list has it."""
        slot = context.state.clock.current
        if slot is None or slot.kind is not SlotKind.TIMER or slot.ids[0] not in context.state.effects:
            return
        effect = context.state.effects[slot.ids[0]]
        self.source.setText(effect.name)
        thrower = context.state.combatants.get(effect.source or "")
        grenade = thrower.weapon(effect.name) if thrower is not None else None
        listed = context.data.weapons.get(effect.name)
        if grenade is None and listed is not None:
            grenade = Weapon(listed.key, frozen_map(table_values(listed)))
        if grenade is not None and weapon_kind(grenade) is WeaponKind.GRENADE:
            with self.edits.quietly():
                self.blast.fill(grenade, context.data)

    def refresh(self, context: Context) -> None:
        with self.edits.quietly():
            self.victims.show_combatants(_blast_targets(context), self.blast.profile(context.unit()),
                                         context.sides())
        rows = wound_rows(wound_class_distribution(self.damage.value(), context.data.pyramid, sides=context.sides()))
        self.show_odds(rows, blast_chart(rows, self.damage.value(), context.sides()))

    def problem(self, context: Context) -> tuple[str, bool]:
        if self.blast.problem():
            return self.blast.problem(), True
        if not self.victims.caught():
            return _("Tick everyone caught in the blast."), False
        return self.victims.problem()

    def can_roll(self) -> bool:
        return self.victims.missing()

    def roll_missing(self) -> None:
        self.victims.roll_missing()

    def clear_dice(self) -> None:
        with self.edits.quietly():
            self.victims.clear()

    def operation(self, context: Context) -> Operation | None:
        if self.problem(context)[0]:
            return None
        return Blast(self.source.text().strip() or _("The grenade"), self.victims.rolls())
