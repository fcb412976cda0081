"""What every Institute attack page shares: the :class:`Context` it reads, the :class:`Page` base, and helpers.

Each page turns its form into the rules' values, shows how every pool was built and the exact odds as the GM
types, takes the dice rolled by the app or typed in, and gives the dialog ONE operation to apply.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Final

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QGroupBox, QHBoxLayout, QVBoxLayout, QWidget

from app.i18n import N_, _, ngettext
from rules.dice import DiceExpression, Roller, parse
from rules.encounter import Combatant, Encounter, JsonValue, Weapon
from rules.errors import RulesError
from rules.history import Operation
from rules.systems.base import RuleSystem
from rules.systems.institut import rounds
from rules.systems.institut.combat import DEFAULT_SIDES, DodgeTie, Pool, Unit
from rules.systems.institut.pyramid import CLASS_LABELS, CLASSES, Pyramid
from rules.systems.institut.system import dodge_tie, in_points, pool_die, pyramid_for
from rules.systems.institut.tables import InstitutTables
from ui.charts.odds_chart import OddsChart
from ui.charts.odds_data import OddsData
from ui.games.institut.odds import short_ticks
from ui.widgets.dice_entry import DiceEntry
from ui.widgets.inputs import Recompute, signed
from ui.widgets.messages import text_label
from ui.widgets.odds_table import OddsTable

NO_DICE: Final[str] = N_("No dice: the roll is 0.")


def dice_expression(dice: int, sides: int = DEFAULT_SIDES, points: int = 0) -> DiceExpression | None:
    """``dice`` dice of ``sides`` summed, e.g. ``3d6``, plus ``points`` (``3d6+2``: modifiers counted in points);
    None for no dice: the roll is ``points``."""
    return parse(f"{dice}d{sides}{points:+d}" if points else f"{dice}d{sides}") if dice > 0 else None


def no_dice(points: int) -> str:
    """Why a pool with no dice needs no roll, when modifiers in points still give it a total."""
    return ngettext("No dice: the roll is {points} point.", "No dice: the roll is {points} points.",
                    abs(points)).format(points=points)


def flat_faces(entry: DiceEntry) -> tuple[int, ...]:
    """The faces of an entered roll, one per die (these dice are never rolled again): () with no dice."""
    return tuple(face for chain in entry.faces() for face in chain)


def whole_number(value: JsonValue) -> int:
    """``value`` if it is an integer (a stored number), else 0."""
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def entry_total(entry: DiceEntry, points: int = 0) -> int | None:
    """The total of an entered roll (``points`` with no dice: its expression holds the points otherwise, see
    :func:`dice_expression`), None while its faces are missing."""
    if entry.expression() is None:
        return points
    result = entry.result()
    return None if result is None else result.total


def modifier_text(value: int, points: bool) -> str:
    """``−2 dice`` or ``−2 points``: a signed modifier in its unit (the GM's option)."""
    if points:
        return ngettext("{count} point", "{count} points", abs(value)).format(count=signed(value))
    return ngettext("{count} die", "{count} dice", abs(value)).format(count=signed(value))


def pool_html(title: str, built: Pool) -> str:
    """A pool's parts and its dice (and the points added to their sum), as a small table."""
    rows = "".join(f"<tr><td>{html.escape(_(line.label))}</td><td align='right'>&nbsp;&nbsp;"
                   f"{html.escape(modifier_text(line.dice, line.points)) if index else line.dice}</td></tr>"
                   for index, line in enumerate(built.lines))
    dice = ngettext("{count} die", "{count} dice", built.dice).format(count=built.dice)
    if built.points:
        dice = _("{dice} {points}").format(dice=dice, points=modifier_text(built.points, True))
    return f"<b>{html.escape(title)}: {dice}</b><table cellspacing='0'>{rows}</table>"


def side_by_side(page: QWidget, *columns: QVBoxLayout) -> None:
    """Lay ``columns`` side by side across the page, sharing the width."""
    row = QHBoxLayout(page)
    row.setContentsMargins(0, 0, 0, 0)
    for column in columns:
        row.addLayout(column, 1)


def wound_rows(classes: dict[str | None, float], count: int = 1,
               pyramid: Pyramid | None = None) -> list[tuple[str, float]]:
    """Odds rows for a damage roll: no wound, then each class (×n for a burst)."""
    rows = [(_("No wound"), classes[None])]
    for key in pyramid.keys if pyramid is not None else CLASSES:
        label = _(pyramid.label(key) if pyramid is not None else CLASS_LABELS[key])
        rows.append((_("{wound} ×{count}").format(wound=label, count=count) if count > 1 else label, classes[key]))
    return rows


@dataclass(frozen=True)
class Context:
    """What every page reads: the fight now, its tables, the attacker and target chosen, and the attacker's saved
    weapon chosen in the dialog's picker (None: typed in the form)."""

    state: Encounter
    system: RuleSystem
    data: InstitutTables
    attacker: Combatant | None
    target: Combatant | None
    weapon: Weapon | None = None

    def pyramid(self, combatant: Combatant) -> Pyramid:
        """The combatant's pyramid (its own, or the encounter's)."""
        try:
            return pyramid_for(combatant, self.state)
        except RulesError:
            return self.data.pyramid

    def sides(self) -> int:
        """The die every pool rolls (the encounter's option; d6 for a value no setting has: the operation then
        says what is wrong)."""
        try:
            return pool_die(self.state)
        except RulesError:
            return DEFAULT_SIDES

    def unit(self) -> Unit:
        """What the situational modifiers count in (the GM's option)."""
        return Unit.POINTS if in_points(self.state) else Unit.DICE

    def tie(self) -> DodgeTie:
        """The GM's rule for a dodge equal to the attack (the default for a value no setting has: the attack's
        operation then says what is wrong)."""
        try:
            return dodge_tie(self.state)
        except RulesError:
            return DodgeTie.ATTACKER


def held_items(combatant: Combatant | None) -> list[tuple[str, str]]:
    """Choices for "which declaration is this": a new action, or one of the pending held ones."""
    items = [(_("A declared or new action"), "")]
    if combatant is not None:
        items += [(_("Held: {condition}").format(condition=c), c) for c in rounds.round_actions(combatant).pending]
    return items


# --- a page ------------------------------------------------------------------------------------------------


class Page(QWidget):
    """One kind of resolution. ``changed`` asks the dialog to recompute; ``weapon_typed`` says the GM chose a
    weapon from the GM's list instead (the form no longer shows the saved weapon picked)."""

    changed = Signal()
    weapon_typed = Signal()
    uses_attacker = True
    uses_target = True
    uses_weapon = True
    #: The page's operation can carry the GM's override of a rule that refused it (the dialog offers the button).
    offers_override = False

    def __init__(self, roller: Roller) -> None:
        super().__init__()
        self.roller = roller
        self.gm_override = False  # set by the dialog while it builds the operation the GM overrides
        self.odds = OddsTable()
        self.chart = OddsChart(export_name=_("attack-odds"), compact=True)
        self.result = text_label()
        # Inputs the page watches (:meth:`Recompute.watch`) ask the dialog to recompute through ``changed``.
        self.edits = Recompute(self._ask_to_recompute)

    def _ask_to_recompute(self) -> None:
        self.changed.emit()

    def entries(self) -> list[DiceEntry]:
        """Dice entries in the order the rolls are made."""
        return []

    def boxed_chart(self) -> QGroupBox:
        """The chart in a group box of its own, for the page's layout."""
        box = QGroupBox(_("Odds chart"))
        QVBoxLayout(box).addWidget(self.chart)
        return box

    def show_odds(self, rows: list[tuple[str, float]], chart: OddsData | None) -> None:
        """Show the chances in the odds table and the chart (None: no chart, no rows either)."""
        self.odds.set_outcomes(rows)
        self.chart.set_data(chart)

    def show_unknown(self, labels: list[str]) -> None:
        """Show the outcomes without chances: the form cannot be worked out yet."""
        self.odds.set_unknown(labels)
        self.chart.set_unknown(short_ticks(labels))

    def mark(self, outcome: str | None) -> None:
        """Mark the outcome rolled (None: none) in the odds table and the chart alike."""
        self.odds.highlight(outcome)
        self.chart.highlight(outcome)

    def prefill(self, context: Context) -> None:
        """Fill in numbers read from the combatants (the GM may change them)."""

    def fits(self, weapon: Weapon) -> bool:
        """Whether this page attacks with weapons like ``weapon`` (a grenade is thrown, not shot)."""
        return False

    def apply_weapon(self, weapon: Weapon, context: Context) -> None:
        """Fill the page's weapon inputs from a saved weapon that :meth:`fits` it (the GM may change them)."""

    def saved_weapon(self, context: Context) -> str:
        """The name of the saved weapon this page's attack is made with ("": typed in the form)."""
        weapon = context.weapon
        return weapon.name if weapon is not None and self.fits(weapon) else ""

    def refresh(self, context: Context) -> None:
        """Recompute pools, odds and the dice each entry needs."""

    def problem(self, context: Context) -> tuple[str, bool]:
        """What stops Resolve ("" when nothing) and whether it is an error (or dice still to come)."""
        return "", False

    def operation(self, context: Context) -> Operation | None:
        """The operation the form stands for, or None while something is missing."""
        return None

    def outcome(self, operation: Operation, context: Context) -> str | None:
        """The odds row that happened."""
        return None

    def roll_missing(self) -> None:
        """Roll every needed roll still missing, in order (each may decide whether the next is needed)."""
        for entry in self.entries():
            if not entry.isHidden() and entry.expression() is not None and not entry.is_complete():
                entry.roll()

    def can_roll(self) -> bool:
        """Whether a needed roll is still missing (Roll the rest has something to do)."""
        return any(not entry.isHidden() and entry.expression() is not None and not entry.is_complete()
                   for entry in self.entries())

    def clear_dice(self) -> None:
        """Empty every dice field (after a resolution: the next one needs new dice)."""
        with self.edits.quietly():
            for entry in self.entries():
                entry.clear()

    def dice_problem(self) -> tuple[str, bool]:
        """A typing error in a dice field, or the dice still to come."""
        for entry in self.entries():
            if not entry.isHidden() and entry.error_text():
                return entry.error_text(), True
        if not all(entry.is_complete() for entry in self.entries() if not entry.isHidden()):
            return _("Roll or type the dice, then press Resolve."), False
        return "", False
