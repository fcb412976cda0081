"""Shadowrun 3's timed explosives in the details panel: the selected character arms one, and it comes up in the turn
order when it goes off (the attack dialog then resolves the blast).

sr3.md, Timed explosives: "They go off in the next pass at the setter's phase; if the setter has no actions left this
turn, at the end of the next pass … With a timer, the moment is chosen when arming." The rule is
:func:`rules.systems.sr3.grenade_timer`; here only what the GM types and clicks.
"""

from __future__ import annotations

from PySide6.QtWidgets import QFormLayout, QGroupBox, QHBoxLayout, QLabel, QLineEdit, QPushButton, QVBoxLayout

from app.i18n import _
from rules.encounter import Combatant, Encounter
from rules.errors import RulesError
from rules.systems.base import RuleSystem
from rules.systems.sr3 import grenade_timer
from ui.games.base import Apply
from ui.widgets.effects_list import next_effect_id
from ui.widgets.inputs import Choice, spin_box
from ui.widgets.messages import show_message

ON_THE_SETTERS_PHASE, ON_A_TIMER = False, True


class ExplosiveSection(QGroupBox):
    """A name, when it goes off (the setter's phase next pass, or a pass and phase on its timer), and Arm."""

    def __init__(self, apply: Apply) -> None:
        super().__init__(_("Timed explosive"))
        self._apply = apply
        self._id = ""
        self._state: Encounter | None = None
        self.name = QLineEdit(_("Grenade"))
        self.when = Choice([(_("Next pass, at this character's phase"), ON_THE_SETTERS_PHASE),
                            (_("On its timer: the pass and phase below"), ON_A_TIMER)])
        self.pass_no = spin_box(1, 99, 2, name=_("Pass it goes off in"))
        self.phase = spin_box(0, 99, 0, special=_("the pass's end"), name=_("Phase it goes off in"))
        self.arm = QPushButton(_("Arm"))  # its tooltip follows the fight (refresh)
        self.problem = QLabel()
        self.problem.setWordWrap(True)
        self.problem.setVisible(False)
        self._build_layout()
        self.when.currentIndexChanged.connect(self._follow_when)
        self.arm.clicked.connect(self._on_arm)
        self._follow_when()

    def _build_layout(self) -> None:
        form = QFormLayout()
        form.addRow(_("Name"), self.name)
        form.addRow(_("Goes off"), self.when)
        timer = QHBoxLayout()
        timer.addWidget(QLabel(_("pass")))
        timer.addWidget(self.pass_no)
        timer.addWidget(QLabel(_("phase")))
        timer.addWidget(self.phase)
        timer.addStretch(1)
        form.addRow("", timer)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.arm)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.problem)
        layout.addLayout(buttons)

    def refresh(self, combatant: Combatant, state: Encounter, system: RuleSystem) -> None:
        """Arm for ``combatant``; the timer starts at the next pass's end."""
        if combatant.id != self._id or self._state is None or state.clock.pass_no != self._state.clock.pass_no:
            self.pass_no.setValue(state.clock.pass_no + 1)
        self._id, self._state = combatant.id, state
        self.arm.setEnabled(state.clock.pass_no >= 1)
        self.arm.setToolTip(_("It comes up in the turn order when it goes off; the attack dialog resolves the blast.")
                            if state.clock.pass_no >= 1 else _("Roll initiative first."))

    def _follow_when(self) -> None:
        on_timer = self.when.value() is ON_A_TIMER
        self.pass_no.setEnabled(on_timer)
        self.phase.setEnabled(on_timer)

    def _on_arm(self) -> None:
        if self._state is None:
            return
        moment = (self.pass_no.value(), self.phase.value()) if self.when.value() is ON_A_TIMER else None
        try:
            operation = grenade_timer(self._state, self._id, self.name.text(), next_effect_id(self._state), moment)
        except RulesError as refused:
            show_message(self.problem, str(refused))
            self.problem.setVisible(True)
            return
        self.problem.setVisible(False)
        self._apply(operation)
