"""Shadowrun 3's change of position in the details panel: drop prone, stand up (with the Willpower test when
wounded, its odds shown before the roll).

sr3.md, Actions per phase: "Free: … drop prone"; "Change position: stand or drop prone; a wounded character stands
only on Willpower (2) + wound modifier." The rules are :mod:`rules.systems.sr3.position_ops`; here the GM types the
faces the player rolled, or rolls them, and clicks.
"""

from __future__ import annotations

import random

from PySide6.QtWidgets import QGroupBox, QHBoxLayout, QLabel, QLineEdit, QPushButton, QVBoxLayout

from app.i18n import _, ngettext
from rules.dice import Roller
from rules.encounter import Combatant, Encounter
from rules.errors import RulesError
from rules.systems.base import RuleSystem
from rules.systems.sr3 import Sr3DropProne, Sr3StandUp
from rules.systems.sr3.dice import TargetNumberTest
from rules.systems.sr3.position import is_prone, stand_up_chance, stand_up_dice, stand_up_tn
from ui.games.base import Apply
from ui.widgets.messages import show_message
from ui.widgets.odds_table import format_percent


class PositionSection(QGroupBox):
    """Standing or prone; Drop prone (a free action), Stand up (a simple action, on Willpower when wounded)."""

    def __init__(self, apply: Apply) -> None:
        super().__init__(_("Position"))
        self._apply = apply
        self._id = ""
        self._prone = False
        self._roller = Roller(random.Random())  # the panel hands over the session's (use_roller)
        self._test: TargetNumberTest | None = None
        self.state = QLabel()
        self.state.setWordWrap(True)
        self.drop = QPushButton(_("Drop prone (free action)"))
        self.stand = QPushButton(_("Stand up (simple action)"))
        self.faces = QLineEdit(placeholderText=_("Willpower faces, e.g. 5, 3, 1"))
        self.faces.setAccessibleName(_("Willpower faces to stand up"))
        self.roll = QPushButton(_("Roll"))
        self.result = QLabel()
        self.result.setWordWrap(True)
        # One button a row: side by side they widened the dock past its width in Czech.
        buttons = QVBoxLayout()
        for button in (self.drop, self.stand):
            row = QHBoxLayout()
            row.addWidget(button)
            row.addStretch(1)
            buttons.addLayout(row)
        dice = QHBoxLayout()
        dice.addWidget(self.faces, 1)
        dice.addWidget(self.roll)
        layout = QVBoxLayout(self)
        layout.addWidget(self.state)
        layout.addLayout(dice)
        layout.addWidget(self.result)
        layout.addLayout(buttons)
        self.drop.clicked.connect(lambda: self._apply(Sr3DropProne(self._id)))
        self.stand.clicked.connect(self.stand_up)
        self.roll.clicked.connect(self.roll_test)
        self.faces.textChanged.connect(self._show_faces)

    def use_roller(self, roller: Roller) -> None:
        """Roll with the session's roller."""
        self._roller = roller

    def refresh(self, combatant: Combatant, state: Encounter, system: RuleSystem) -> None:
        """Show ``combatant``'s position and, when it must roll to stand, the test and its odds."""
        if combatant.id != self._id:
            self.faces.clear()
        self._id = combatant.id
        self._prone = prone = is_prone(combatant)
        tn = stand_up_tn(combatant) if prone else None
        self._test = TargetNumberTest(stand_up_dice(combatant), tn) if tn is not None else None
        self.state.setText(position_text(combatant))
        for widget in (self.faces, self.roll, self.result):
            widget.setVisible(self._test is not None)
        self.drop.setEnabled(not prone)
        self._show_faces()

    def _faces(self) -> tuple[tuple[int, ...], ...] | None:
        """The typed faces as the test reads them (None: missing or wrong)."""
        if self._test is None or not self.faces.text().strip():
            return None
        try:
            return self._test.from_faces(self.faces.text()).faces
        except RulesError:
            return None

    def _show_faces(self) -> None:
        test = self._test
        if test is None:
            self.stand.setEnabled(self._prone)
            return
        text = self.faces.text().strip()
        if not text:
            self.result.setText(_("{test}: roll or type").format(test=test.label()))
        else:
            try:
                outcome = test.from_faces(text)
            except RulesError as problem:
                show_message(self.result, str(problem))
            else:
                show_message(self.result, _("{test}: {summary}").format(test=test.label(),
                                                                         summary=test.summarize(outcome)), error=False)
        self.stand.setEnabled(self._faces() is not None)

    def roll_test(self) -> None:
        """Roll the Willpower test into the faces (the GM may still change them)."""
        if self._test is not None:
            self.faces.setText(self._test.roll(self._roller).faces_text())

    def stand_up(self) -> None:
        """Record the attempt: no test when unwounded, else the faces typed or rolled."""
        test, faces = self._test, self._faces()
        if test is None:
            self._apply(Sr3StandUp(self._id))
        elif faces is not None and self._apply(Sr3StandUp(self._id, test.tn, faces)):
            self.faces.clear()


def position_text(combatant: Combatant) -> str:
    """"Standing." or "Prone.", and what standing up asks of a wounded character, with its odds."""
    if not is_prone(combatant):
        return _("Standing.")
    tn = stand_up_tn(combatant)
    if tn is None:
        return _("Prone. Unwounded: stands up without a test.")
    dice = stand_up_dice(combatant)
    return ngettext("Prone. Wounded: stands up only with a success on Willpower ({count} die) against TN {tn} (2 + "
                    "wound modifier); chance {chance}.",
                    "Prone. Wounded: stands up only with a success on Willpower ({count} dice) against TN {tn} (2 + "
                    "wound modifier); chance {chance}.", dice).format(
        count=dice, tn=tn, chance=format_percent(stand_up_chance(combatant)))
