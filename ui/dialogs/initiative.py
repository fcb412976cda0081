"""Roll initiative: NPCs roll automatically; for each player character the GM may type what was rolled.

What a game lets the GM choose per combatant before the roll (:meth:`RuleSystem.initiative_inputs`, e.g. how
many dice to risk) is a spin box on the combatant's row; the choices and the roll are one operation, one undo step.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.i18n import _
from app.session import FightSession
from rules.dice import read_face, read_faces
from rules.encounter import Combatant, Side
from rules.errors import RulesError
from rules.systems.base import InitiativeInput
from ui.widgets.messages import show_message


class RollInitiativeDialog(QDialog):
    """One row per combatant who can act: the game's choices, its dice, and a field for typed faces (blank = the
    app rolls)."""

    def __init__(self, session: FightSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(_("Roll initiative"))
        self._session = session
        self.fields: dict[str, QLineEdit] = {}
        self.inputs: dict[str, dict[str, QSpinBox]] = {}
        self._specs: dict[str, tuple[InitiativeInput, ...]] = {}
        self._dice_labels: dict[str, QLabel] = {}
        self.message = QLabel()
        self.message.setWordWrap(True)
        grid = QGridLayout()
        self._add_rows(grid)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        roll = buttons.addButton(_("Roll"), QDialogButtonBox.ButtonRole.AcceptRole)
        roll.setDefault(True)
        buttons.accepted.connect(self.roll)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(_("Leave a field empty and Bojovka rolls for that character.")))
        layout.addLayout(grid)
        layout.addWidget(self.message)
        layout.addWidget(buttons)

    def _add_rows(self, grid: QGridLayout) -> None:
        """A row per combatant who acts: name, the game's choices (a column each), then the faces."""
        document = self._session.document
        state, system = document.state, document.system
        acting = [c for c in state.combatants.values() if system.can_act(c, state)]
        columns: dict[str, int] = {}
        for combatant in acting:
            self._specs[combatant.id] = tuple(system.initiative_inputs(combatant, state))
            self.inputs[combatant.id] = {}
            for spec in self._specs[combatant.id]:
                if spec.key not in columns:
                    columns[spec.key] = len(columns) + 1
                    grid.addWidget(QLabel(_(spec.label)), 0, columns[spec.key])
        faces_column = len(columns) + 1
        grid.setColumnStretch(faces_column, 1)
        for row, combatant in enumerate(acting, start=1):
            grid.addWidget(QLabel(combatant.name), row, 0)
            for spec in self._specs[combatant.id]:
                grid.addWidget(self._input_box(combatant, spec), row, columns[spec.key])
            if combatant.side is Side.OPPONENT:
                self._dice_labels[combatant.id] = QLabel()
                grid.addWidget(self._dice_labels[combatant.id], row, faces_column)
            else:
                field = QLineEdit()
                field.setAccessibleName(_("Initiative faces of {name}").format(name=combatant.name))
                field.textChanged.connect(lambda _text, key=combatant.id: self._faces_typed(key))
                self.fields[combatant.id] = field
                grid.addWidget(field, row, faces_column)
            self._describe_dice(combatant.id)

    def _input_box(self, combatant: Combatant, spec: InitiativeInput) -> QSpinBox:
        box = QSpinBox(minimum=spec.minimum, maximum=spec.maximum, value=spec.value)
        box.setAccessibleName(_("{choice} of {name}").format(choice=_(spec.label), name=combatant.name))
        if spec.help:
            box.setToolTip(_(spec.help))
        box.valueChanged.connect(lambda _value, key=combatant.id: self._describe_dice(key))
        self.inputs[combatant.id][spec.key] = box
        return box

    def _chosen_values(self, combatant_id: str) -> dict[str, int]:
        """The values the GM changed on this row (a dice count typed faces decide is left to the faces)."""
        field = self.fields.get(combatant_id)
        typed = field is not None and bool(field.text().strip())
        return {spec.key: self.inputs[combatant_id][spec.key].value() for spec in self._specs[combatant_id]
                if self.inputs[combatant_id][spec.key].value() != spec.value and not (typed and spec.counts_dice)}

    def _describe_dice(self, combatant_id: str) -> None:
        """Show what the row rolls with the choices as they stand (a choice out of range: as it was)."""
        document = self._session.document
        state, system = document.state, document.system
        values = {key: box.value() for key, box in self.inputs[combatant_id].items()}
        try:
            combatant = system.with_initiative_inputs(state.combatant(combatant_id), values, state)
        except RulesError:
            combatant = state.combatant(combatant_id)
        dice = system.initiative_dice(combatant, state.with_combatant(combatant)).describe()
        if combatant_id in self._dice_labels:
            self._dice_labels[combatant_id].setText(_("{dice} — rolled automatically").format(dice=dice))
        else:
            field = self.fields[combatant_id]
            field.setPlaceholderText(_("{dice}: type the faces, e.g. 2,6").format(dice=dice))
            wide = field.fontMetrics().horizontalAdvance(field.placeholderText()) + 4 * field.fontMetrics().height()
            field.setMinimumWidth(max(field.minimumWidth(), wide))

    def _faces_typed(self, combatant_id: str) -> None:
        """Typed faces say how many dice were rolled: a dice-count choice follows them."""
        try:
            count = sum(len(chain) for chain in read_faces(self.fields[combatant_id].text()))
        except RulesError:
            return
        for spec in self._specs[combatant_id]:
            if spec.counts_dice and count:
                self.inputs[combatant_id][spec.key].setValue(count)

    def chosen(self) -> dict[str, dict[str, int]]:
        """What the GM chose per combatant (only rows with a change)."""
        return {combatant_id: values for combatant_id in self.inputs
                if (values := self._chosen_values(combatant_id))}

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
            self._session.roll_initiative(self.typed_faces(), self.chosen())
        except RulesError as problem:
            show_message(self.message, str(problem))
            return
        self.accept()
