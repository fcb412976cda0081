"""Člověk long actions in the details panel: progress toward the target, pause / resume / give up, start one.

Rolls for a long action are made in the check dialog (choose the action there); this section shows where each
stands and changes its state, each button one operation.
"""

from __future__ import annotations

import html

from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.i18n import _
from rules.encounter import Combatant, Encounter
from rules.history import Operation
from rules.systems.base import RuleSystem
from rules.systems.clovek import EndLongAction, PauseLongAction, ResumeLongAction, StartLongAction
from rules.systems.clovek.banks import BANK_TITLES, BANK_WORDS, BANKS
from rules.systems.clovek.long_actions import (
    KIND_LABELS,
    KIND_WORDS,
    LONG_ACTIONS,
    MAX_TARGET,
    STATE_LABELS,
    LongAction,
    LongKind,
    LongState,
    long_actions,
)
from ui.games.base import Apply


def new_action_id(combatant: Combatant) -> str:
    """An id none of the combatant's long actions has."""
    ids = {action.id for action in long_actions(combatant)}
    number = len(ids) + 1
    while f"long{number}" in ids:
        number += 1
    return f"long{number}"


class LongActionRow(QWidget):
    """One long action: name, kind and type, power toward the target, and what may be done with it now."""

    def __init__(self, apply: Apply, combatant_id: str, action: LongAction) -> None:
        super().__init__()
        self.action = action
        self.title = QLabel(f"<b>{html.escape(action.name)}</b>")
        self.kind = QLabel(_("{kind} {bank} · {state}").format(kind=_(KIND_WORDS[action.kind]),
                                                                bank=_(BANK_WORDS[action.bank]),
                                                                state=_(STATE_LABELS[action.state])))
        self.progress = QProgressBar()
        self.progress.setRange(0, action.target)
        self.progress.setValue(min(action.power, action.target))
        self.progress.setFormat(_("{power} of {target} power").format(power=action.power, target=action.target))
        self.progress.setAccessibleName(_("Power of {action}").format(action=action.name))
        self.buttons: dict[str, QPushButton] = {}
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        for key, text, operation in self._choices(combatant_id, action):
            button = QPushButton(text)
            button.setAutoDefault(False)
            button.clicked.connect(lambda _checked=False, op=operation: apply(op))
            row.addWidget(button)
            self.buttons[key] = button
        row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 2, 0, 4)
        layout.setSpacing(2)
        layout.addWidget(self.title)
        layout.addWidget(self.kind)
        layout.addWidget(self.progress)
        layout.addLayout(row)

    @staticmethod
    def _choices(combatant_id: str, action: LongAction) -> list[tuple[str, str, Operation]]:
        if action.state is LongState.COMPLETE:
            return [("finish", _("Done"), EndLongAction(combatant_id, action.id))]
        choices: list[tuple[str, str, Operation]] = []
        if action.state is LongState.RUNNING:
            label = _("Break off") if action.kind is LongKind.UNINTERRUPTIBLE else (
                _("Defer") if action.kind is LongKind.DEFERRABLE else _("Pause"))
            choices.append(("pause", label, PauseLongAction(combatant_id, action.id)))
        else:
            choices.append(("resume", _("Resume"), ResumeLongAction(combatant_id, action.id)))
        choices.append(("give_up", _("Give up"), EndLongAction(combatant_id, action.id)))
        return choices


class LongActionsSection(QGroupBox):
    """The character's long actions and a form to start one."""

    def __init__(self, apply: Apply) -> None:
        super().__init__(_("Long actions"))
        self._apply = apply
        self._id = ""
        self._shown: list[LongAction] = []
        self._next_id = "long1"
        self.rows: list[LongActionRow] = []
        self.empty = QLabel(_("None under way."))
        self._list = QVBoxLayout()
        self._list.setContentsMargins(0, 0, 0, 0)
        self.name = QLineEdit(placeholderText=_("e.g. Decode the book"))
        self.name.setMaxLength(200)
        self.bank = QComboBox()
        for key in BANKS:
            self.bank.addItem(_(BANK_TITLES[key]), key)
        self.kind = QComboBox()
        for kind in LongKind:
            self.kind.addItem(_(KIND_LABELS[kind]), kind.value)
        self.kind.setToolTip(_("Uninterruptible: a break loses all the power. Interruptible: may pause, its stun "
                               "does not heal meanwhile. Deferrable: may pause, stun heals, the power is kept."))
        self.target = QSpinBox(minimum=1, maximum=MAX_TARGET, value=10)
        self.target.setAccessibleName(_("Target power"))
        self.start = QPushButton(_("Start"))
        self.start.setAutoDefault(False)
        self.start.clicked.connect(self._start)
        self._build_layout()

    def _build_layout(self) -> None:
        kind_row = QGridLayout()
        kind_row.setContentsMargins(0, 0, 0, 0)
        kind_row.addWidget(self.bank, 0, 0)
        kind_row.addWidget(self.kind, 0, 1)
        target_row = QHBoxLayout()
        target_row.addWidget(self.target)
        target_row.addStretch(1)
        target_row.addWidget(self.start)
        form = QFormLayout()
        form.addRow(_("New:"), self.name)
        form.addRow("", kind_row)
        form.addRow(_("Target power:"), target_row)
        layout = QVBoxLayout(self)
        layout.addWidget(self.empty)
        layout.addLayout(self._list)
        layout.addLayout(form)

    def refresh(self, combatant: Combatant, state: Encounter, system: RuleSystem) -> None:
        """Rebuild the rows when the long actions changed."""
        actions = long_actions(combatant) if LONG_ACTIONS in combatant.extra else []
        if combatant.id == self._id and actions == self._shown:
            return
        self._id, self._shown = combatant.id, actions
        for row in self.rows:
            row.setParent(None)
            row.deleteLater()
        self.rows = [LongActionRow(self._apply, combatant.id, action) for action in actions]
        for row in self.rows:
            self._list.addWidget(row)
        self.empty.setVisible(not self.rows)
        self._next_id = new_action_id(combatant)

    def _start(self) -> None:
        name = self.name.text().strip()
        operation = StartLongAction(self._id, self._next_id, name, str(self.bank.currentData()),
                                    LongKind(str(self.kind.currentData())), self.target.value())
        if self._apply(operation):
            self.name.clear()
