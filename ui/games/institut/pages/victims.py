"""Everyone an Institute explosion may catch: a row each with its distance, its own cover, its dice and its faces.

institut.md: "Damage is rolled separately for each creature in the blast radius, with its own cover modifiers,
changed by distance per the grenade's table." Each row's dice follow the grenade's profile
(:func:`~rules.systems.institut.combat.blast_pool`) at the distance and cover typed there, until the GM sets the
row's dice by hand; a creature beyond the radius cannot be caught.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QCheckBox, QGroupBox, QHBoxLayout, QLabel, QLineEdit, QToolButton, QVBoxLayout, QWidget

from app.i18n import _
from rules.dice import Roller
from rules.encounter import Combatant
from rules.errors import RulesError
from rules.systems.institut.combat import DEFAULT_SIDES, blast_pool, in_blast
from rules.systems.institut.ops import BlastRoll
from rules.systems.institut.tables import Falloff
from ui.games.institut.pages.page import dice_expression
from ui.widgets.inputs import spin_box


@dataclass(frozen=True)
class Profile:
    """A grenade's profile as the page's form gives it: dice at the point of impact, radius (0: not given) and
    distance table."""

    damage: int
    radius: int = 0
    falloff: Falloff = field(default_factory=Falloff)
    cover_in_points: bool = False  # the GM's option counts modifiers in points: cover comes off the total

    def dice(self, distance: int, cover: int) -> int:
        """The dice of a creature ``distance`` metres away behind ``cover`` dice of cover (no dice off when cover
        counts in points)."""
        return blast_pool(self.damage, self.falloff, distance, 0 if self.cover_in_points else cover).dice

    def points(self, cover: int) -> int:
        """What ``cover`` takes off the total when it counts in points (0 otherwise)."""
        return -cover if self.cover_in_points else 0


class VictimRow(QWidget):
    """One creature in a blast: caught or not, its distance and cover, its damage dice, the faces."""

    changed = Signal()

    def __init__(self, combatant: Combatant, roller: Roller) -> None:
        super().__init__()
        self.combatant_id = combatant.id
        self._roller = roller
        self.sides = DEFAULT_SIDES  # the encounter's die, set by the list
        self.suggested = 0  # the dice the profile gives at this distance and cover (set by the list)
        self.cover_in_points = False  # set by the list from the profile
        self.caught = QCheckBox(combatant.name)
        self.distance = spin_box(0, 999, suffix=_(" m"), name=_("{name}: metres from the blast").format(
            name=combatant.name))
        self.distance.setToolTip(_("How far from the explosion this creature is, in metres."))
        self.cover = spin_box(0, 40, name=_("{name}: cover (dice)").format(name=combatant.name))
        self.cover.setToolTip(_("This creature's own cover between it and the blast, in dice off its damage."))
        self.dice = spin_box(0, 60)
        self.dice.setAccessibleName(_("{name}: damage dice").format(name=combatant.name))
        self.dice.setToolTip(_("The grenade's dice for this distance, less this creature's cover."))
        self.faces = QLineEdit(placeholderText=_("faces"))
        self.faces.setAccessibleName(_("{name}: faces rolled").format(name=combatant.name))
        self.roll_button = QToolButton()
        self.roll_button.setText(_("Roll"))
        self.total = QLabel()
        self._build_layout()
        for signal in (self.caught.toggled, self.dice.valueChanged, self.faces.textChanged,
                       self.distance.valueChanged, self.cover.valueChanged):
            signal.connect(self._update)
        self.roll_button.clicked.connect(self.roll)
        self._update()

    def _build_layout(self) -> None:
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.caught)
        for widget in (self.distance, self.cover, self.dice):
            layout.addWidget(widget)
        # The widest input, a roll of eight dice and more: all the room the row has, and at least five dice in sight.
        layout.addWidget(self.faces, 1)
        self.faces.setMinimumWidth(self.fontMetrics().horizontalAdvance("6, 6, 6, 6, 6") + 12)
        layout.addWidget(self.roll_button)
        layout.addWidget(self.total)
        self.total.setMinimumWidth(self.fontMetrics().horizontalAdvance("888") + 4)

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

    def follow(self, profile: Profile) -> None:
        """Take the profile's dice at this row's distance and cover, unless the GM set the row's dice by hand."""
        self.cover_in_points = profile.cover_in_points
        self.cover.setToolTip(_("This creature's own cover between it and the blast, in points off its damage.")
                              if profile.cover_in_points else
                              _("This creature's own cover between it and the blast, in dice off its damage."))
        suggested = profile.dice(self.distance.value(), self.cover.value())
        if self.dice.value() == self.suggested:
            self.dice.setValue(suggested)
        self.suggested = suggested

    def roll_record(self) -> BlastRoll:
        """This creature's damage roll, with its distance and cover for the log."""
        return BlastRoll(self.combatant_id, self.faces_rolled() or (), self.distance.value(), self.cover.value(),
                         self.points())

    def points(self) -> int:
        """Points added to this creature's roll: its cover, negated, when cover counts in points."""
        return -self.cover.value() if self.cover_in_points else 0

    def _update(self) -> None:
        caught = self.caught.isChecked()
        for widget in (self.distance, self.cover, self.dice, self.faces, self.roll_button):
            widget.setEnabled(caught)
        faces = self.faces_rolled()
        self.total.setText(str(sum(faces) + self.points()) if caught and faces is not None else "")
        self.changed.emit()


class VictimList(QGroupBox):
    """Everyone the explosion may catch; tick those in the radius and give each its distance and cover."""

    changed = Signal()

    def __init__(self, roller: Roller, default_dice: int) -> None:
        super().__init__(_("Caught in the blast: metres, cover, dice"))
        self._roller = roller
        self._profile = Profile(default_dice)
        self._layout = QVBoxLayout(self)
        self.rows: dict[str, VictimRow] = {}

    def show_combatants(self, combatants: list[Combatant], profile: Profile, sides: int = DEFAULT_SIDES) -> None:
        """One row per combatant (kept as they are when the roster did not change), each a die of ``sides`` (the
        encounter's option), at the dice ``profile`` gives for its distance and cover.

        When the profile or a row's distance or cover change, the rows still at the dice the profile gave them
        follow; the others keep what the GM set by hand.
        """
        if [c.id for c in combatants] != list(self.rows):
            self._rebuild(combatants)
        self._profile = profile
        for row in self.rows.values():
            row.sides = sides
            row.follow(profile)

    def _rebuild(self, combatants: list[Combatant]) -> None:
        while (item := self._layout.takeAt(0)) is not None:
            widget = item.widget()
            if widget is not None:
                widget.setParent(None)
                widget.deleteLater()
        self.rows = {}
        for combatant in combatants:
            row = VictimRow(combatant, self._roller)
            row.follow(self._profile)
            row.changed.connect(self._row_changed)
            self.rows[combatant.id] = row
            self._layout.addWidget(row)

    def _row_changed(self) -> None:
        for row in self.rows.values():  # a distance or a cover changed: that row's dice follow
            row.follow(self._profile)
        self.changed.emit()

    def caught(self) -> list[VictimRow]:
        """Rows ticked as caught."""
        return [row for row in self.rows.values() if row.caught.isChecked()]

    def problem(self) -> tuple[str, bool]:
        """Someone beyond the radius, a wrong face, or dice still missing."""
        radius = self._profile.radius
        for row in self.caught():
            if not in_blast(radius, row.distance.value()):
                return _("{name} is {distance} m away, outside the {radius} m blast radius.").format(
                    name=row.caught.text(), distance=row.distance.value(), radius=radius), True
            if row.error():
                return f"{row.caught.text()}: {row.error()}", True
        if any(row.faces_rolled() is None for row in self.caught()):
            return _("Roll or type the blast damage of everyone caught."), False
        return "", False

    def rolls(self) -> tuple[BlastRoll, ...]:
        """The damage rolls of everyone caught."""
        return tuple(row.roll_record() for row in self.caught())

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
