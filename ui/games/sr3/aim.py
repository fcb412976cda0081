"""Shadowrun 3's aim in the window: the attack dialog's aim field follows the attacker's tracked aim, and the
details panel aims (a simple action) or says the aim is lost.

sr3.md, Aim: "−1 TN each, cumulative over phases and passes up to ½ the skill … (round down); lost on any other
action, free ones included"; "aiming over several phases: no pool dice at all; using them loses the aim". The rules
are :mod:`rules.systems.sr3.aim`; here only what the GM sees and clicks.
"""

from __future__ import annotations

from PySide6.QtWidgets import QGroupBox, QHBoxLayout, QLabel, QPushButton, QSpinBox, QVBoxLayout

from app.i18n import _, ngettext
from rules.encounter import Combatant, Encounter
from rules.systems.base import RuleSystem
from rules.systems.sr3 import Sr3Aim, Sr3LoseAim
from rules.systems.sr3.aim import NO_AIM, Aim, ShotAim, aim_for_shot, aim_of, aim_skill, aim_text
from ui.games.base import Apply


class AimField:
    """The attack dialog's "Aim actions": prefilled from the attacker's tracked aim (until the GM types another
    number), capped at half the skill, and the line under the dice saying what the aim does to this shot."""

    def __init__(self, spin: QSpinBox, note: QLabel) -> None:
        self.spin, self.note = spin, note
        self._aim = NO_AIM
        self._name = ""
        self._set = 0  # the value last put in from the tracked aim: another one is the GM's

    def attacker(self, combatant: Combatant | None) -> None:
        """Read the (new) attacker's aim into the field."""
        self._aim = aim_of(combatant) if combatant is not None else NO_AIM
        self._name = combatant.name if combatant is not None else ""
        self.spin.setValue(self._aim.actions)
        self._set = self.spin.value()

    def limit(self, skill: int) -> None:
        """At most half the skill counts (round down); a prefilled value follows the new cap."""
        self.spin.setMaximum(max(0, skill) // 2)
        if self.spin.value() == self._set:  # the GM has not typed another number
            self.spin.setValue(self._aim.actions)
            self._set = self.spin.value()

    def for_shot(self, pool_dice: int) -> ShotAim:
        """The aim the shot counts with ``pool_dice`` from the combat pool."""
        return aim_for_shot(self._aim, self.spin.value(), pool_dice)

    def show(self, pool_dice: int) -> None:
        """The line under the dice: the tracked aim, and whether pool dice lose it."""
        text = note_for(self._aim, self._name, self.for_shot(pool_dice), self.spin.maximum())
        self.note.setText(text)
        self.note.setVisible(bool(text))


def note_for(aim: Aim, name: str, shot: ShotAim, cap: int) -> str:
    """What the dialog says about the attacker's aim ("" when it is not aiming)."""
    if aim.actions <= 0:
        return ""
    said = _("{name}: {aim}.").format(name=name, aim=aim_text(aim))
    if shot.lost:
        return " ".join((said, _("Combat pool dice are used: the aim is lost, and its TN bonus is out of the odds "
                                 "(aiming over several phases allows no pool dice). Set the pool to 0 to keep it.")))
    if aim.actions > cap:
        said = " ".join((said, ngettext("At most {count} counts (half the skill).",
                                        "At most {count} count (half the skill).", cap).format(count=cap)))
    if aim.over_several_phases:
        return " ".join((said, _("Combat pool dice would lose the aim.")))
    return said


class AimSection(QGroupBox):
    """The details panel's aim: how far the character has aimed, Aim (a simple action of its phase), and the GM's
    word that the aim is lost (another action the app does not record)."""

    def __init__(self, apply: Apply) -> None:
        super().__init__(_("Aim"))
        self._apply = apply
        self._id = ""
        self._skill: int | None = None
        self.state = QLabel()
        self.state.setWordWrap(True)
        self.aim = QPushButton(_("Aim (simple action)"))
        self.aim.setToolTip(_("−1 TN for the next shot per simple action, cumulative over phases and passes up to "
                              "half the skill; any other action, free ones included, loses it."))
        self.lose = QPushButton(_("Aim lost"))
        self.lose.setToolTip(_("The character took another action: the aim is lost."))
        buttons = QHBoxLayout()
        buttons.addWidget(self.aim)
        buttons.addWidget(self.lose)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.state)
        layout.addLayout(buttons)
        self.aim.clicked.connect(lambda: self._apply(Sr3Aim(self._id, self._skill)))
        self.lose.clicked.connect(lambda: self._apply(Sr3LoseAim(self._id)))

    def refresh(self, combatant: Combatant, state: Encounter, system: RuleSystem) -> None:
        """Show ``combatant``'s aim; Aim only in its own phase."""
        self._id, self._skill = combatant.id, aim_skill(combatant)
        aim = aim_of(combatant)
        self.state.setText(section_text(aim, self._skill))
        current = state.clock.current
        self.aim.setEnabled(current is not None and combatant.id in current.ids)
        self.lose.setEnabled(aim.actions > 0)


def section_text(aim: Aim, skill: int | None) -> str:
    """The panel's words for an aim: how far, the TN it gives, and the pool rule when it spans several phases."""
    if aim.actions <= 0:
        return aim_text(aim)
    lines = [aim_text(aim)]
    if skill is not None:
        lines.append(_("TN −{count} for the next shot (at most half the skill {skill}).").format(
            count=aim.counted(skill), skill=skill))
    if aim.over_several_phases:
        lines.append(_("Aimed over several phases: no combat pool dice, or the aim is lost."))
    return "\n".join(lines)
