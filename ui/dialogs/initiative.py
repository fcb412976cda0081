"""Roll initiative: NPCs roll automatically; for each player character the GM may type what was rolled."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit, QVBoxLayout, QWidget

from app.i18n import _
from app.session import FightSession
from rules.dice import read_face, read_faces
from rules.encounter import Side
from rules.errors import RulesError
from ui.widgets.messages import show_message


class RollInitiativeDialog(QDialog):
    """One row per combatant who can act: its dice, and a field for typed faces (blank = the app rolls)."""

    def __init__(self, session: FightSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(_("Roll initiative"))
        self._session = session
        self.fields: dict[str, QLineEdit] = {}
        self.message = QLabel()
        self.message.setWordWrap(True)
        form = QFormLayout()
        self._add_rows(form)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        roll = buttons.addButton(_("Roll"), QDialogButtonBox.ButtonRole.AcceptRole)
        roll.setDefault(True)
        buttons.accepted.connect(self.roll)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(_("Leave a field empty and Bojovka rolls for that character.")))
        layout.addLayout(form)
        layout.addWidget(self.message)
        layout.addWidget(buttons)

    def _add_rows(self, form: QFormLayout) -> None:
        document = self._session.document
        state, system = document.state, document.system
        for combatant in state.combatants.values():
            if not system.can_act(combatant, state):
                continue
            dice = system.initiative_dice(combatant, state).describe()
            if combatant.side is Side.OPPONENT:
                form.addRow(combatant.name, QLabel(_("{dice} — rolled automatically").format(dice=dice)))
                continue
            field = QLineEdit(placeholderText=_("{dice}: type the faces, e.g. 2,6").format(dice=dice))
            self.fields[combatant.id] = field
            form.addRow(combatant.name, field)

    def typed_faces(self) -> dict[str, tuple[int, ...]]:
        """The faces typed per combatant (RulesError with the combatant's name if one is unreadable)."""
        typed = {}
        state = self._session.document.state
        for combatant_id, field in self.fields.items():
            if not field.text().strip():
                continue
            try:
                chains = read_faces(field.text())
            except RulesError as problem:
                raise RulesError(f"{state.combatant(combatant_id).name}: {problem}") from None
            sides = self._session.document.system.initiative_dice(state.combatant(combatant_id), state).sides
            try:  # read_face turns a d10's "0" into 10, as players call it
                typed[combatant_id] = tuple(read_face(face, sides) for chain in chains for face in chain)
            except RulesError as problem:
                raise RulesError(f"{state.combatant(combatant_id).name}: {problem}") from None
        return typed

    def roll(self) -> None:
        """Apply the round's initiative, or show what is wrong and keep the dialog open."""
        try:
            self._session.roll_initiative(self.typed_faces())
        except RulesError as problem:
            show_message(self.message, str(problem))
            return
        self.accept()
