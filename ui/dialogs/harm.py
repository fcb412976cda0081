"""Damage (D) and Heal (H) in one step: type the amount as the game writes it, see what it means, press Enter.

The amount field has the focus: ``D``, ``6S``, Enter marks a Serious wound. The game reads the text
(:meth:`RuleSystem.parse_harm`: SR3 ``6S``, ``S``, ``3``; Institute ``2 Heavy``, ``=17``…) and the dialog shows
its reading for every target as it is typed. With several rows selected in the table (a grenade) every one
takes the same hit in one undo step, read for each target on its own, with what the game says about that.
Where the game has a target roll on its own against the hit (SR3 resists a damage code with each target's Body,
combat pool and impact armor) the dialog shows each target's dice and odds; Enter rolls the dice nobody typed,
shows them, and the next Enter applies.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.i18n import _
from app.session import FightSession
from rules.errors import RulesError
from rules.harm import MAX_HARM_TEXT, Harm
from ui.widgets.messages import show_message, text_label
from ui.widgets.own_rolls import OwnRolls


class HarmDialog(QDialog):
    """Mark damage or healing, typed in the game's notation, on one combatant or on several at once."""

    def __init__(self, session: FightSession, targets: str | Sequence[str] | None, heal: bool = False,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._session = session
        self._heal = heal
        self.setWindowTitle(_("Heal") if heal else _("Damage"))
        state = session.document.state
        chosen = [targets] if isinstance(targets, str) else list(targets or ())
        chosen = [combatant_id for combatant_id in chosen if combatant_id in state.combatants]
        self._several = chosen if len(chosen) > 1 else []
        self.combatant = QComboBox()
        for combatant in state.combatants.values():
            self.combatant.addItem(combatant.name, combatant.id)
        if chosen:
            self.combatant.setCurrentIndex(max(0, self.combatant.findData(chosen[0])))
        self.targets_label = text_label()
        self.targets_label.setText(", ".join(state.combatant(combatant_id).name for combatant_id in self._several))
        self.track = QComboBox()
        notation = session.document.system.harm_notation()
        self.amount = QLineEdit("1", placeholderText=notation, maxLength=MAX_HARM_TEXT)
        self.amount.setToolTip(notation)
        self.presets = QHBoxLayout()
        self.rolls = OwnRolls(session.roller)
        self._make_texts(notation, session.document.system.shared_harm_note(state) if self._several else "")
        self.combatant.currentIndexChanged.connect(self._fill_tracks)
        self.track.currentIndexChanged.connect(self._fill_presets)
        self.amount.textChanged.connect(self._show_meaning)
        self._fill_tracks()
        self._layout()
        self.setMinimumWidth(self.fontMetrics().averageCharWidth() * 70)  # room for a reading on one or two lines
        self.amount.selectAll()  # typing replaces the 1: D, 6S, Enter
        self.amount.setFocus()

    def _make_texts(self, notation: str, note: str) -> None:
        """The notation hint (secondary), the live reading (bold), the game's note on several targets, problems."""
        self.hint = text_label()
        self.hint.setText(notation)
        palette = self.hint.palette()
        palette.setColor(QPalette.ColorRole.WindowText, palette.color(QPalette.ColorRole.PlaceholderText))
        self.hint.setPalette(palette)
        self.meaning = text_label()
        bold = self.meaning.font()
        bold.setBold(True)
        self.meaning.setFont(bold)
        self.note = text_label()
        self.note.setText(note)
        self.note.setVisible(bool(note))
        self.message = QLabel()
        self.message.setWordWrap(True)

    def _layout(self) -> None:
        form = QFormLayout()
        if self._several:
            form.addRow(_("Targets"), self.targets_label)
        else:
            form.addRow(_("Combatant"), self.combatant)
        form.addRow(_("Track"), self.track)
        form.addRow(_("Amount"), self.amount)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setDefault(True)  # Enter in the amount field applies
        buttons.accepted.connect(self.apply)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.hint)
        layout.addWidget(self.meaning)
        layout.addLayout(self.presets)
        layout.addWidget(self.note)
        layout.addWidget(self.rolls, 1)
        layout.addWidget(self.message)
        layout.addWidget(buttons)

    def targets(self) -> list[str]:
        """The ids of whoever takes it: the selected rows, or the one combatant picked."""
        if self._several:
            return list(self._several)
        combatant_id = self.combatant.currentData()
        return [combatant_id] if combatant_id is not None else []

    def _fill_tracks(self) -> None:
        self.track.clear()
        document = self._session.document
        combatant = document.state.combatants.get(self.combatant.currentData())
        if combatant is None:
            return
        for spec in document.system.tracks(combatant, document.state):
            self.track.addItem(_(spec.label), spec.key)

    def _fill_presets(self) -> None:
        while (item := self.presets.takeAt(0)) is not None:
            widget = item.widget()
            if widget is not None:
                widget.deleteLater()
        for label, amount in self._session.document.system.harm_presets(self.track.currentData() or ""):
            button = QPushButton(f"{_(label)} ({amount})")
            button.setAutoDefault(False)  # Enter always applies what is typed, never the last preset clicked
            button.clicked.connect(lambda _checked=False, value=amount: self._preset(value))
            self.presets.addWidget(button)
        self._show_meaning()

    def _preset(self, amount: int) -> None:
        self.amount.setText(str(amount))
        self.amount.setFocus()

    def read(self) -> dict[str, Harm]:
        """What the typed amount means for each target (RulesError, with the target's name if several)."""
        track = self.track.currentData() or ""
        state = self._session.document.state
        harms = {}
        for combatant_id in self.targets():
            try:
                harms[combatant_id] = self._session.read_harm(self.amount.text(), combatant_id, track, self._heal)
            except RulesError as problem:
                if not self._several:
                    raise
                raise RulesError(f"{state.combatant(combatant_id).name}: {problem}") from None
        return harms

    def _show_meaning(self) -> None:
        show_message(self.message, "")
        try:
            show_message(self.meaning, self._meaning(self.read()), error=False)
            self._show_rolls()
        except RulesError as problem:
            show_message(self.meaning, str(problem))
            self.rolls.show_rolls({}, {})
        self._fit_height()

    def _show_rolls(self) -> None:
        """Each target's own roll against what is typed, if the game has one (never for healing)."""
        track = self.track.currentData() or ""
        state = self._session.document.state
        rolls = {} if self._heal else {
            combatant_id: roll for combatant_id in self.targets()
            if (roll := self._session.own_roll(self.amount.text(), combatant_id, track)) is not None}
        self.rolls.show_rolls(rolls, {combatant_id: state.combatant(combatant_id).name for combatant_id in rolls})
        # Each target's odds on one line beside its pool dice need more room than the amount alone.
        self.setMinimumWidth(self.fontMetrics().averageCharWidth() * (100 if rolls else 70))

    def _meaning(self, harms: dict[str, Harm]) -> str:
        meanings = {harm.meaning for harm in harms.values()}
        if len(meanings) <= 1:
            return next(iter(meanings), "")
        state = self._session.document.state
        return "\n".join(f"{state.combatant(combatant_id).name}: {harm.meaning}"
                         for combatant_id, harm in harms.items())

    def _fit_height(self) -> None:
        """Grow to show a reading that got longer (a window does not follow its wrapped labels by itself)."""
        layout = self.layout()
        if layout is None or not self.isVisible():
            return
        width = self.width()
        needed = layout.totalHeightForWidth(width) if layout.hasHeightForWidth() else layout.totalSizeHint().height()
        if needed > self.height():
            self.resize(self.width(), needed)

    def apply(self) -> None:
        """Apply the change (several targets: one undo step), or show why it was refused.

        Targets rolling on their own with no faces typed are rolled first and shown: the next Enter applies.
        """
        try:
            harms = self.read()
            if not self._rolls_ready():
                return
            self._session.harm_each(harms, heal=self._heal, rolled=self.rolls.rolled())
        except RulesError as problem:
            show_message(self.message, str(problem))
            return
        self.accept()

    def _rolls_ready(self) -> bool:
        """Whether every own roll has its faces; rolls the empty ones and says so (False) if not."""
        if not self.rolls.missing():
            return True
        state = self._session.document.state
        rolled = self.rolls.roll_empty()
        wrong = self.rolls.missing()
        if wrong:
            names = ", ".join(state.combatant(combatant_id).name for combatant_id in wrong)
            show_message(self.message, _("Check the dice of {names}.").format(names=names))
        else:
            names = ", ".join(state.combatant(combatant_id).name for combatant_id in rolled)
            show_message(self.message, _("Rolled for {names}: check the dice and press Enter to apply.").format(
                names=names), error=False)
        self._fit_height()
        return False
