"""The SR3 surprise test from the window: everyone involved rolls Reaction, the pairs are compared before Apply.

sr3.md, Surprise: "All involved roll Reaction vs 4; ambushers who delayed for their victims −2; GM modifiers …
Successes are compared pair by pair … More → may act against that opponent … Failing against every opponent =
completely surprised". The dialog shows each fighter's TN and successes as the dice are typed or rolled, and the
pair-by-pair outcome; Apply records one :class:`~rules.systems.sr3.SurpriseTest`, which the attack dialog and the
pass order then enforce.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.document import EncounterDocument
from app.i18n import N_, _
from rules.dice import Roller
from rules.encounter import Combatant, Status, frozen_map
from rules.errors import RulesError
from rules.systems.sr3 import SurpriseTest
from rules.systems.sr3.dice import TargetNumberTest
from rules.systems.sr3.surprise import SurpriseResult, surprise_matrix, surprise_tn
from rules.systems.sr3.surprise_test import party_of
from rules.systems.sr3.system import tables
from ui.widgets.inputs import spin_box
from ui.widgets.layout import ScrolledContent
from ui.widgets.messages import show_message, text_label

HEADINGS = (N_("Involved"), N_("Reaction dice"), N_("Ambusher who delayed (TN −2)"), N_("GM modifier"),
            N_("Faces rolled"), "", N_("Successes"))


class SurpriseRow(QWidget):
    """One fighter's test: in it or not, Reaction dice, the TN's modifiers, the faces, the successes."""

    changed = Signal()

    def __init__(self, combatant: Combatant, roller: Roller) -> None:
        super().__init__()
        self.combatant = combatant
        self._roller = roller
        self._test: TargetNumberTest | None = None
        self.successes: int | None = None  # None while the faces are missing or wrong
        self.involved = QCheckBox(combatant.name)
        self.involved.setChecked(True)
        self.dice = spin_box(0, 40, combatant.attribute("reaction"), name=_("{name}: Reaction dice").format(
            name=combatant.name))
        self.delayed = QCheckBox()
        self.delayed.setAccessibleName(_("{name}: ambusher who delayed").format(name=combatant.name))
        self.gm = spin_box(-10, 10, name=_("{name}: GM modifier").format(name=combatant.name))
        self.faces = QLineEdit(placeholderText=_("e.g. 5, 5, 6+3, 1"))
        self.faces.setAccessibleName(_("{name}: faces rolled").format(name=combatant.name))
        self.roll_button = QToolButton()
        self.roll_button.setText(_("Roll"))
        self.result = QLabel()
        for signal in (self.involved.toggled, self.dice.valueChanged, self.delayed.toggled, self.gm.valueChanged,
                       self.faces.textChanged):
            signal.connect(self.changed)
        self.roll_button.clicked.connect(self.roll)

    def widgets(self) -> list[QWidget]:
        """The row's cells, left to right."""
        return [self.involved, self.dice, self.delayed, self.gm, self.faces, self.roll_button, self.result]

    def test(self, document: EncounterDocument) -> TargetNumberTest | None:
        """Reaction dice against the surprise TN (None: no dice)."""
        tn = surprise_tn(ambusher_delayed=self.delayed.isChecked(), gm_modifier=self.gm.value(),
                         tables=tables(document.state))
        return TargetNumberTest(self.dice.value(), tn.value) if self.dice.value() > 0 else None

    def roll(self) -> None:
        """Roll this fighter's Reaction dice (the test :meth:`show_test` last set)."""
        if self._test is not None:
            self.faces.setText(self._test.roll(self._roller).faces_text())

    def show_test(self, test: TargetNumberTest | None) -> None:
        """The test as the row stands, and what its faces give."""
        self._test = test
        self.successes = None
        enabled = self.involved.isChecked()
        for widget in self.widgets()[1:]:
            widget.setEnabled(enabled)
        if not enabled:
            self.result.setText("")
            return
        if test is None:
            self.successes = 0
            self.result.setText(_("no dice: 0"))
            return
        if not self.faces.text().strip():
            self.result.setText(_("{test}: roll or type").format(test=test.label()))
            return
        try:
            outcome = test.from_faces(self.faces.text())
        except RulesError as problem:
            show_message(self.result, str(problem))
            return
        self.successes = outcome.successes or 0
        show_message(self.result, _("{test}: {summary}").format(test=test.label(),
                                                                 summary=test.summarize(outcome)), error=False)


class SurpriseDialog(QDialog):
    """The surprise test: one row per fighter, the pairs compared live, Apply records it (one undo step)."""

    def __init__(self, document: EncounterDocument, roller: Roller, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(_("Surprise test"))
        self._document = document
        self.rows = [SurpriseRow(combatant, roller) for combatant in document.state.combatants.values()
                     if document.system.status(combatant, document.state) is Status.ACTIVE]
        self.outcome = text_label()
        self.status_label = text_label()
        self.buttons = QDialogButtonBox()
        self.roll_all = self.buttons.addButton(_("Roll the rest"), QDialogButtonBox.ButtonRole.ActionRole)
        self.apply_button = self.buttons.addButton(_("Apply"), QDialogButtonBox.ButtonRole.AcceptRole)
        self.buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        for button in self.buttons.buttons():
            # Only Apply answers Enter: after a click on Roll the rest, Enter cancelled the whole test.
            if isinstance(button, QPushButton):
                button.setAutoDefault(button is self.apply_button)
        self.apply_button.setDefault(True)
        self._lay_out()
        for row in self.rows:
            row.changed.connect(self._refresh)
        self.roll_all.clicked.connect(self.roll_remaining)
        self.apply_button.clicked.connect(self.apply)
        self.buttons.rejected.connect(self.reject)
        self._refresh()

    def _lay_out(self) -> None:
        content = QWidget()
        layout = QVBoxLayout(content)
        note = text_label()
        note.setText(_("Reaction against 4 (2 for an ambusher who delayed for the victims), plus the GM's modifiers. "
                       "Against each opponent, more successes lets a fighter act against them until their next "
                       "phase; fewer against everyone leaves them completely surprised."))
        layout.addWidget(note)
        grid = QGridLayout()
        for column, heading in enumerate(HEADINGS):
            grid.addWidget(QLabel(_(heading) if heading else ""), 0, column)
        for number, row in enumerate(self.rows, start=1):
            for column, widget in enumerate(row.widgets()):
                grid.addWidget(widget, number, column)
        grid.setColumnStretch(4, 1)
        layout.addLayout(grid)
        # Room for the outcome from the start (one line a fighter): the dialog is sized once, when it opens.
        self.outcome.setMinimumHeight(self.fontMetrics().lineSpacing() * (len(self.rows) + 1))
        layout.addWidget(self.outcome)
        layout.addStretch(1)
        self._body = ScrolledContent(self, content, self.status_label, self.buttons, chrome_height=110)

    def showEvent(self, event: QShowEvent) -> None:
        """Sized for its content once Qt has laid it out."""
        super().showEvent(event)
        self._body.shown()

    # --- live ------------------------------------------------------------------------------
    def involved(self) -> list[SurpriseRow]:
        """The rows ticked as taking part."""
        return [row for row in self.rows if row.involved.isChecked()]

    def _refresh(self) -> None:
        for row in self.rows:
            row.show_test(row.test(self._document))
        result = self.compared()
        self.outcome.setText(self._outcome_text(result) if result is not None else "")
        problem = self.problem(result)
        show_message(self.status_label, problem, error=bool(problem) and result is not None)
        self.apply_button.setEnabled(not problem)

    def compared(self) -> SurpriseResult | None:
        """The pairs compared, once every fighter involved has its successes (None before)."""
        rows = self.involved()
        if not rows or any(row.successes is None for row in rows):
            return None
        successes = {row.combatant.id: row.successes or 0 for row in rows}
        sides = {row.combatant.id: party_of(row.combatant.side) for row in rows}
        return surprise_matrix(successes, sides)

    def problem(self, result: SurpriseResult | None) -> str:
        """What stops Apply ("" when nothing does)."""
        if self._document.state.clock.current is not None:
            return _("Make the surprise test before rolling initiative.")
        if result is None:
            return _("Roll or type every fighter's Reaction dice.")
        return ""

    def _outcome_text(self, result: SurpriseResult) -> str:
        names = {row.combatant.id: row.combatant.name for row in self.rows}
        lines = []
        for row in self.involved():
            fighter = row.combatant.id
            if fighter in result.completely_surprised:
                lines.append(_("{name} is completely surprised: no actions at all, not even free ones.").format(
                    name=names[fighter]))
                continue
            opponents = sorted(names[other] for other in result.may_act_against.get(fighter, frozenset()))
            if opponents:
                lines.append(_("{name} may act against: {opponents}.").format(name=names[fighter],
                                                                              opponents=", ".join(opponents)))
        return "\n".join(lines)

    def roll_remaining(self) -> None:
        """Roll every involved fighter whose faces are still missing."""
        for row in self.involved():
            if row.successes is None and not row.faces.text().strip():
                row.roll()

    def apply(self) -> None:
        """Record the test (one undo step); a refusal is shown and nothing changes."""
        result = self.compared()
        if self.problem(result):
            self._refresh()
            return
        successes = {row.combatant.id: row.successes or 0 for row in self.involved()}
        try:
            self._document.apply(SurpriseTest(frozen_map(successes), ends_by_phase=True), initiator=self)
        except RulesError as problem:
            show_message(self.status_label, str(problem))
            return
        self.accept()
