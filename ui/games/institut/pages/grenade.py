"""The Institute's grenade and explosion pages: the throw, then everyone caught in the blast with their own dice.

An impact grenade's blast is resolved with the throw (:class:`~rules.systems.institut.ops.ThrowGrenade`); a
timed one explodes at the end of the round, when its timer comes up and the Explosion page applies a
:class:`~rules.systems.institut.ops.Blast`.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.i18n import _
from rules.dice import Roller
from rules.encounter import Combatant, SlotKind, Status, Weapon, frozen_map
from rules.errors import RulesError
from rules.history import Operation
from rules.systems.institut.arms import DAMAGE, TIMED, table_values, weapon_kind
from rules.systems.institut.combat import DEFAULT_SIDES, Pool, pool
from rules.systems.institut.odds import throw_distribution, wound_class_distribution
from rules.systems.institut.ops import Blast, BlastRoll, ThrowGrenade, attack_penalties
from rules.systems.institut.tables import InstitutTables, WeaponKind
from ui.games.institut.odds import blast_chart, throw_chart
from ui.games.institut.pages.page import (
    NO_DICE,
    Context,
    Page,
    dice_expression,
    flat_faces,
    held_items,
    pool_html,
    side_by_side,
    wound_rows,
)
from ui.widgets.dice_entry import DiceEntry
from ui.widgets.inputs import Choice, spin_box
from ui.widgets.layout import column as _column
from ui.widgets.messages import text_label

# --- victims of an explosion -------------------------------------------------------------------------------


class VictimRow(QWidget):
    """One creature in a blast: caught or not, its damage dice (own cover and distance), the faces."""

    changed = Signal()

    def __init__(self, combatant: Combatant, roller: Roller) -> None:
        super().__init__()
        self.combatant_id = combatant.id
        self._roller = roller
        self.sides = DEFAULT_SIDES  # the encounter's die, set by the list
        self.caught = QCheckBox(combatant.name)
        self.dice = spin_box(0, 60)
        self.dice.setAccessibleName(_("{name}: damage dice").format(name=combatant.name))
        self.dice.setToolTip(_("The grenade's dice for this distance, less this creature's cover."))
        self.faces = QLineEdit(placeholderText=_("faces"))
        self.faces.setAccessibleName(_("{name}: faces rolled").format(name=combatant.name))
        self.roll_button = QToolButton()
        self.roll_button.setText(_("Roll"))
        self.total = QLabel()
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.caught, 2)
        layout.addWidget(self.dice)
        layout.addWidget(self.faces, 2)
        layout.addWidget(self.roll_button)
        layout.addWidget(self.total)
        self.total.setMinimumWidth(self.fontMetrics().horizontalAdvance("888") + 4)
        for signal in (self.caught.toggled, self.dice.valueChanged, self.faces.textChanged):
            signal.connect(self._update)
        self.roll_button.clicked.connect(self.roll)
        self._update()

    def roll(self) -> None:
        """Roll this creature's damage dice."""
        expression = dice_expression(self.dice.value(), self.sides)
        self.faces.setText(expression.roll(self._roller).faces_text() if expression is not None else "")

    def faces_rolled(self) -> tuple[int, ...] | None:
        """The faces (() for no dice), or None while they are missing or wrong."""
        expression = dice_expression(self.dice.value(), self.sides)
        if expression is None:
            return ()
        try:
            result = expression.from_faces(self.faces.text())
        except RulesError:
            return None
        return tuple(face for chain in result.faces for face in chain)

    def error(self) -> str:
        """Why the typed faces cannot be used ("" when they can or nothing is typed)."""
        expression = dice_expression(self.dice.value(), self.sides)
        if expression is None or not self.faces.text().strip():
            return ""
        try:
            expression.from_faces(self.faces.text())
        except RulesError as problem:
            return str(problem)
        return ""

    def _update(self) -> None:
        caught = self.caught.isChecked()
        for widget in (self.dice, self.faces, self.roll_button):
            widget.setEnabled(caught)
        faces = self.faces_rolled()
        self.total.setText(str(sum(faces)) if caught and faces is not None else "")
        self.changed.emit()


class VictimList(QGroupBox):
    """Everyone the explosion may catch; tick those in the radius and give each its own dice."""

    changed = Signal()

    def __init__(self, roller: Roller, default_dice: int) -> None:
        super().__init__(_("Caught in the blast"))
        self._roller = roller
        self._default_dice = default_dice
        self._layout = QVBoxLayout(self)
        self.rows: dict[str, VictimRow] = {}

    def show_combatants(self, combatants: list[Combatant], default_dice: int, sides: int = DEFAULT_SIDES) -> None:
        """One row per combatant (kept as they are when the roster did not change) with the grenade's dice, each a
        die of ``sides`` (the encounter's option).

        When the grenade's dice change, the rows still at its former dice follow; the others keep what the GM
        set for their distance and cover.
        """
        if [c.id for c in combatants] != list(self.rows):
            self._rebuild(combatants, default_dice)
        if default_dice != self._default_dice:
            self._follow_default_dice(default_dice)
        for row in self.rows.values():
            row.sides = sides

    def _rebuild(self, combatants: list[Combatant], default_dice: int) -> None:
        while (item := self._layout.takeAt(0)) is not None:
            widget = item.widget()
            if widget is not None:
                widget.setParent(None)
                widget.deleteLater()
        self.rows = {}
        for combatant in combatants:
            row = VictimRow(combatant, self._roller)
            row.dice.setValue(default_dice)
            row.changed.connect(self.changed)
            self.rows[combatant.id] = row
            self._layout.addWidget(row)

    def _follow_default_dice(self, new: int) -> None:
        """The grenade's dice changed: rows still at the old default follow."""
        for row in self.rows.values():
            if row.dice.value() == self._default_dice:
                row.dice.setValue(new)
        self._default_dice = new

    def caught(self) -> list[VictimRow]:
        """Rows ticked as caught."""
        return [row for row in self.rows.values() if row.caught.isChecked()]

    def problem(self) -> tuple[str, bool]:
        """A wrong face, or dice still missing."""
        for row in self.caught():
            if row.error():
                return f"{row.caught.text()}: {row.error()}", True
        if any(row.faces_rolled() is None for row in self.caught()):
            return _("Roll or type the blast damage of everyone caught."), False
        return "", False

    def rolls(self) -> tuple[BlastRoll, ...]:
        """The damage rolls of everyone caught."""
        return tuple(BlastRoll(row.combatant_id, row.faces_rolled() or ()) for row in self.caught())

    def missing(self) -> bool:
        """Someone caught still has no faces."""
        return any(not row.faces.text().strip() and row.dice.value() > 0 for row in self.caught())

    def roll_missing(self) -> None:
        """Roll for everyone caught without faces yet."""
        for row in self.caught():
            if not row.faces.text().strip():
                row.roll()

    def clear(self) -> None:
        """Untick everyone and forget the faces."""
        for row in self.rows.values():
            row.faces.clear()
            row.caught.setChecked(False)


def _blast_targets(context: Context) -> list[Combatant]:
    return [c for c in context.state.combatants.values()
            if context.system.status(c, context.state) is not Status.DEAD]


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
        self.timed = Choice([(_("Timed: explodes at the end of the round"), True),
                             (_("Impact: explodes at once"), False)])
        self.distance = spin_box(0, 999, 10, suffix=_(" m"))
        self.athletics = spin_box(0, 40)
        self.visibility = spin_box(-20, 20)
        self.held = Choice[str]()
        self.damage = spin_box(0, 60, 8)
        self.damage.setToolTip(_("The grenade's damage dice at the point of impact."))
        self.sheet_label = text_label(rich=True)
        self.throw_entry = DiceEntry(_("Throw"), roller)
        self.victims = VictimList(roller, self.damage.value())
        self.set_tables(data)
        self._build_layout()
        self.edits.watch(self.grenade, self.timed, self.distance, self.athletics, self.visibility, self.held,
                         self.damage, self.throw_entry)
        self.victims.changed.connect(self.edits.edited)
        self.preset.currentIndexChanged.connect(self._on_preset)

    def set_tables(self, data: InstitutTables) -> None:
        """Offer the grenades of the GM's weapon list."""
        self._data = data
        grenades = sorted((key for key, weapon in data.weapons.items() if weapon.kind is WeaponKind.GRENADE),
                          key=str.casefold)
        self.preset.set_items([(_("Type the grenade in"), None), *((key, key) for key in grenades)])

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
            self.damage.setValue(weapon.number(DAMAGE))

    def _build_layout(self) -> None:
        throw = QGroupBox(_("Grenade"))
        form = QFormLayout(throw)
        form.addRow(_("From the list"), self.preset)
        form.addRow(_("Name"), self.grenade)
        form.addRow(_("Fuse"), self.timed)
        form.addRow(_("Distance"), self.distance)
        form.addRow(_("Athletics dice"), self.athletics)
        form.addRow(_("Sight, obstacles"), self.visibility)
        form.addRow(_("This action"), self.held)
        form.addRow(_("Damage dice"), self.damage)
        sheet = QGroupBox(_("Dice pools"))
        QVBoxLayout(sheet).addWidget(self.sheet_label)
        dice = QGroupBox(_("Odds and dice"))
        layout = QVBoxLayout(dice)
        layout.addWidget(self.odds)
        layout.addWidget(self.throw_entry)
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

    def refresh(self, context: Context) -> None:
        with self.edits.quietly():
            self.held.set_items(held_items(context.attacker))
            self.victims.show_combatants(_blast_targets(context), self.damage.value(), context.sides())
        self.victims.setVisible(not self.timed.value())
        self.timed_note.setVisible(self.timed.value())
        self.damage.setEnabled(not self.timed.value())
        self._pool, self._problem = None, ""
        if context.attacker is None:
            self._problem = _("Choose who throws.")
        else:
            try:
                wounds, actions = attack_penalties(context.attacker, context.state, self.held.value())
                self._pool = pool((_("Athletics"), self.athletics.value()), (_("Wounds"), -wounds),
                                  (_("Additional actions this round"), -actions),
                                  (_("Sight, obstacles"), self.visibility.value()), keep_zero=(_("Athletics"),))
            except RulesError as problem:
                self._problem = str(problem)
        self._show(context.sides())

    def _show(self, sides: int) -> None:
        built, distance = self._pool, self.distance.value()
        if built is None:
            self.sheet_label.setText("")
            self.show_unknown([_("On target"), _("1–2 m off"), _("3–5 m off"), _("6 m or more off")])
            self.throw_entry.set_expression(None, _("Choose who throws."))
            return
        difficulty = html.escape(_("Difficulty {difficulty} (the distance in metres)").format(difficulty=distance))
        self.sheet_label.setText(f"{pool_html(_('Throw'), built)}<br><b>{difficulty}</b>")
        spread = throw_distribution(built.dice, distance, sides=sides)
        bands = ((_("On target"), 0, 0), (_("1–2 m off"), 1, 2), (_("3–5 m off"), 3, 5),
                 (_("6 m or more off"), 6, None))
        rows = [(label, sum(p for off, p in spread.items() if off >= low and (high is None or off <= high)))
                for label, low, high in bands]
        self.show_odds(rows, throw_chart(rows, spread))
        with self.edits.quietly():
            self.throw_entry.set_expression(dice_expression(built.dice, sides), _(NO_DICE))

    def problem(self, context: Context) -> tuple[str, bool]:
        if self._pool is None:
            return self._problem or _("Choose who throws."), True
        problem = self.dice_problem()
        if problem[0] or self.timed.value():
            return problem
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
                            () if timed else self.victims.rolls(), self.held.value(), self.saved_weapon(context))

    def outcome(self, operation: Operation, context: Context) -> str | None:
        if not isinstance(operation, ThrowGrenade):
            return None
        off = max(0, operation.distance - sum(operation.throw_faces))
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
        self.damage = spin_box(0, 60, 8)
        self.victims = VictimList(roller, self.damage.value())
        explosion = QGroupBox(_("Explosion"))
        form = QFormLayout(explosion)
        form.addRow(_("What explodes"), self.source)
        form.addRow(_("Damage dice"), self.damage)
        note = text_label()
        note.setText(_("Each creature in the radius rolls its own damage: the grenade's dice for its distance, "
                       "less its own cover."))
        form.addRow(note)
        odds = QGroupBox(_("Wound at these dice"))
        QVBoxLayout(odds).addWidget(self.odds)
        result = QGroupBox(_("Result"))
        QVBoxLayout(result).addWidget(self.result)
        side_by_side(self, _column(explosion, odds, result), _column(self.victims, self.boxed_chart()))
        self.edits.watch(self.source, self.damage)
        self.victims.changed.connect(self.edits.edited)

    def prefill(self, context: Context) -> None:
        """A timed grenade going off now: its name, and its dice if the thrower carries it as a weapon."""
        slot = context.state.clock.current
        if slot is not None and slot.kind is SlotKind.TIMER and slot.ids[0] in context.state.effects:
            effect = context.state.effects[slot.ids[0]]
            self.source.setText(effect.name)
            thrower = context.state.combatants.get(effect.source or "")
            grenade = thrower.weapon(effect.name) if thrower is not None else None
            if grenade is not None and weapon_kind(grenade) is WeaponKind.GRENADE:
                self.damage.setValue(grenade.number(DAMAGE))

    def refresh(self, context: Context) -> None:
        with self.edits.quietly():
            self.victims.show_combatants(_blast_targets(context), self.damage.value(), context.sides())
        rows = wound_rows(wound_class_distribution(self.damage.value(), context.data.pyramid, sides=context.sides()))
        self.show_odds(rows, blast_chart(rows, self.damage.value(), context.sides()))

    def problem(self, context: Context) -> tuple[str, bool]:
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
