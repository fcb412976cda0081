"""Damage (D) and Heal (H): pick the combatant, the track and the amount (with the game's quick amounts)."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.i18n import _
from app.session import FightSession
from rules.errors import RulesError
from ui.widgets.messages import show_message


class HarmDialog(QDialog):
    """Mark damage or healing on one condition track of one combatant."""

    def __init__(self, session: FightSession, combatant_id: str | None, heal: bool = False,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._session = session
        self._heal = heal
        self.setWindowTitle(_("Heal") if heal else _("Damage"))
        self.combatant = QComboBox()
        for combatant in session.document.state.combatants.values():
            self.combatant.addItem(combatant.name, combatant.id)
        if combatant_id is not None:
            self.combatant.setCurrentIndex(max(0, self.combatant.findData(combatant_id)))
        self.track = QComboBox()
        self.amount = QSpinBox(minimum=1, maximum=999, value=1)
        self.presets = QHBoxLayout()
        self.message = QLabel()
        self.combatant.currentIndexChanged.connect(self._fill_tracks)
        self.track.currentIndexChanged.connect(self._fill_presets)
        self._fill_tracks()
        self._layout()

    def _layout(self) -> None:
        form = QFormLayout()
        form.addRow(_("Combatant"), self.combatant)
        form.addRow(_("Track"), self.track)
        form.addRow(_("Amount"), self.amount)
        form.addRow("", self.presets)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.apply)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.message)
        layout.addWidget(buttons)

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
            button.clicked.connect(lambda _checked=False, value=amount: self.amount.setValue(value))
            self.presets.addWidget(button)

    def apply(self) -> None:
        """Apply the change, or show why it was refused."""
        amount = -self.amount.value() if self._heal else self.amount.value()
        try:
            self._session.harm(self.combatant.currentData(), self.track.currentData(), amount)
        except RulesError as problem:
            show_message(self.message, str(problem))
            return
        self.accept()
