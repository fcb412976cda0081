"""Roll initiative: NPCs roll automatically; for each player character the GM may type what was rolled, die by die,
or the total the player announces.

How a field is read (:func:`rules.initiative_text.read_initiative`): ``=17`` is a total, several numbers are the
dice, a lone number is the die when one die is rolled and the total otherwise. Each row's hint says which applies to
it, and the row shows its reading as it is typed (the game's score: ``17 → 7`` in SR3).

What a game lets the GM choose per combatant before the roll (:meth:`RuleSystem.initiative_inputs`, e.g. how
many dice to risk) is a spin box on the combatant's row; the choices and the roll are one operation, one undo step.
"""

from __future__ import annotations

from dataclasses import replace

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

from app.i18n import _, ngettext
from app.session import FightSession
from rules.encounter import Combatant, Encounter, Initiative, Side
from rules.errors import RulesError
from rules.initiative_text import TypedInitiative, example_faces, example_total, read_initiative
from rules.systems.base import DiceSpec, InitiativeInput
from ui.widgets.messages import plain, show_message


def field_hint(spec: DiceSpec) -> str:
    """What the field accepts for a roll of ``spec``, with examples (the field's placeholder)."""
    dice = spec.describe()
    if spec.count == 0:  # nothing to roll (a character may risk no dice): only a total
        return _("{dice}: the total, e.g. {total}").format(dice=dice, total=example_total(spec))
    if spec.count != 1:
        return _("{dice}: the total, e.g. {total}, or each die, e.g. {faces}").format(
            dice=dice, total=example_total(spec), faces=example_faces(spec))
    if spec.base:
        return _("{dice}: the die, e.g. {face}, or the total after =, e.g. ={total}").format(
            dice=dice, face=example_faces(spec), total=example_total(spec))
    return _("{dice}: the die (the total), e.g. {face}").format(dice=dice, face=example_faces(spec))


class RollInitiativeDialog(QDialog):
    """One row per combatant who can act: the game's choices, its dice, and a field for typed faces or a total
    (blank = the app rolls), with the field's reading."""

    def __init__(self, session: FightSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(_("Roll initiative"))
        self._session = session
        self.fields: dict[str, QLineEdit] = {}
        self.readings: dict[str, QLabel] = {}
        self.inputs: dict[str, dict[str, QSpinBox]] = {}
        self._specs: dict[str, tuple[InitiativeInput, ...]] = {}
        self._dice_labels: dict[str, QLabel] = {}
        self.message = QLabel()
        self.message.setWordWrap(True)
        grid = QGridLayout()
        self._add_rows(grid)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        roll = buttons.addButton(_("Roll"), QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.accepted.connect(self.roll)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        intro = QLabel(_("Type each die the player rolled, separated by commas (4,5,6), or the total the player "
                         "announces (17). Where one die is rolled, a lone number is that die: write the total as =10. "
                         "Leave a field empty and Bojovka rolls for that character."))
        intro.setWordWrap(True)
        layout.addWidget(intro)
        layout.addLayout(grid)
        layout.addWidget(self.message)
        layout.addWidget(buttons)
        roll.setDefault(True)  # once in the dialog: Enter in a field rolls (set before, the dialog picked Cancel)

    def _add_rows(self, grid: QGridLayout) -> None:
        """A row per combatant who acts: name, the game's choices (a column each), the field, its reading
        (opponents: what they roll)."""
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
        field_column = len(columns) + 1
        grid.setColumnStretch(field_column, 1)
        reading_width = self.fontMetrics().horizontalAdvance(_("total: {score}").format(score="88 → 88 → 88"))
        for row, combatant in enumerate(acting, start=1):
            grid.addWidget(plain(QLabel(combatant.name)), row, 0)  # a name is never markup
            for spec in self._specs[combatant.id]:
                grid.addWidget(self._input_box(combatant, spec), row, columns[spec.key])
            if combatant.side is Side.OPPONENT:
                self._dice_labels[combatant.id] = plain(QLabel())
                grid.addWidget(self._dice_labels[combatant.id], row, field_column, 1, 2)
            else:
                field = QLineEdit()
                field.setAccessibleName(_("Initiative of {name}").format(name=combatant.name))
                reading = QLabel()
                reading.setMinimumWidth(reading_width)
                field.textChanged.connect(lambda _text, key=combatant.id: self._typed_changed(key))
                self.fields[combatant.id], self.readings[combatant.id] = field, reading
                grid.addWidget(field, row, field_column)
                grid.addWidget(reading, row, field_column + 1)
            self._describe_dice(combatant.id)

    def _input_box(self, combatant: Combatant, spec: InitiativeInput) -> QSpinBox:
        box = QSpinBox(minimum=spec.minimum, maximum=spec.maximum, value=spec.value)
        box.setAccessibleName(_("{choice} of {name}").format(choice=_(spec.label), name=combatant.name))
        if spec.help:
            box.setToolTip(_(spec.help))
        box.valueChanged.connect(lambda _value, key=combatant.id: self._choice_changed(key))
        self.inputs[combatant.id][spec.key] = box
        return box

    def _made(self, combatant_id: str) -> tuple[Combatant, Encounter]:
        """The combatant with the row's choices as they stand (a choice out of range: as it was), in its state."""
        document = self._session.document
        state, system = document.state, document.system
        values = {key: box.value() for key, box in self.inputs.get(combatant_id, {}).items()}
        try:
            combatant = system.with_initiative_inputs(state.combatant(combatant_id), values, state)
        except RulesError:
            combatant = state.combatant(combatant_id)
        return combatant, state.with_combatant(combatant)

    def _dice(self, combatant_id: str) -> DiceSpec:
        combatant, state = self._made(combatant_id)
        return self._session.document.system.initiative_dice(combatant, state)

    def _typed_faces(self, combatant_id: str) -> bool:
        """Whether the row's field holds faces (then they, not the choice, say how many dice were rolled)."""
        try:
            typed = self._read(combatant_id)
        except RulesError:
            return bool(self.fields[combatant_id].text().strip())
        return typed is not None and typed.total is None

    def _chosen_values(self, combatant_id: str) -> dict[str, int]:
        """The values the GM changed on this row (a dice count typed faces decide is left to the faces)."""
        faces = combatant_id in self.fields and self._typed_faces(combatant_id)
        return {spec.key: self.inputs[combatant_id][spec.key].value() for spec in self._specs[combatant_id]
                if self.inputs[combatant_id][spec.key].value() != spec.value and not (faces and spec.counts_dice)}

    def _choice_changed(self, combatant_id: str) -> None:
        self._describe_dice(combatant_id)
        if combatant_id in self.fields:
            self._show_reading(combatant_id)

    def _describe_dice(self, combatant_id: str) -> None:
        """Show what the row rolls with the choices as they stand."""
        spec = self._dice(combatant_id)
        if combatant_id in self._dice_labels:
            self._dice_labels[combatant_id].setText(_("{dice} — rolled automatically").format(dice=spec.describe()))
            return
        field = self.fields[combatant_id]
        hint = field_hint(spec)
        field.setPlaceholderText(hint)
        field.setToolTip(hint)
        wide = min(field.fontMetrics().horizontalAdvance(hint) + 2 * field.fontMetrics().height(), 480)
        field.setMinimumWidth(max(field.minimumWidth(), wide))  # the hint fits

    def _typed_changed(self, combatant_id: str) -> None:
        """Typed faces say how many dice were rolled: a dice-count choice follows them; then the reading."""
        try:
            typed = self._read(combatant_id)
        except RulesError:
            typed = None
        if typed is not None and typed.faces:
            for spec in self._specs[combatant_id]:
                if spec.counts_dice:
                    self.inputs[combatant_id][spec.key].setValue(len(typed.faces))
        self._show_reading(combatant_id)

    def chosen(self) -> dict[str, dict[str, int]]:
        """What the GM chose per combatant (only rows with a change)."""
        return {combatant_id: values for combatant_id in self.inputs
                if (values := self._chosen_values(combatant_id))}

    def _read(self, combatant_id: str) -> TypedInitiative | None:
        """One field's reading (RulesError with the combatant's name if it is unreadable)."""
        try:
            spec, state = self._dice(combatant_id), self._session.document.state
            typed = self._session.document.system.typed_faces(self.fields[combatant_id].text(), spec, state)
            return read_initiative(typed, spec)
        except RulesError as problem:
            name = self._session.document.state.combatant(combatant_id).name
            raise RulesError(f"{name}: {problem}") from None

    def _show_reading(self, combatant_id: str) -> None:
        """What the field will give, as the game shows the score ("total: 17", "dice: 27 → 17 → 7"), or why not."""
        label = self.readings[combatant_id]
        try:
            text = self._reading(combatant_id)
        except RulesError as problem:
            show_message(label, "✗")
            show_message(self.message, str(problem))
            return
        show_message(label, text, error=False)
        show_message(self.message, "")
        wanted = label.sizeHint().width() - label.width()
        if wanted > 0 and self.isVisible():  # a long reading (Člověk's "read as 2, 5, 7, 8, 3") is never clipped
            self.resize(self.width() + wanted, self.height())

    def _reading(self, combatant_id: str) -> str:
        system = self._session.document.system
        typed = self._read(combatant_id)
        if typed is None:
            return ""
        combatant, state = self._made(combatant_id)
        spec = system.initiative_dice(combatant, state)
        if typed.total is not None:
            initiative, text = system.initiative_from_total(combatant, state, typed.total), _("total: {score}")
        elif len(typed.faces) != spec.count:
            raise RulesError(ngettext("{name} rolls {count} die for initiative, not {typed}.",
                                      "{name} rolls {count} dice for initiative, not {typed}.", spec.count).format(
                name=combatant.name, count=spec.count, typed=len(typed.faces)))
        else:
            initiative, text = Initiative(spec.base, typed.faces), _("dice: {score}")
        reading = text.format(score=system.score_text(replace(combatant, initiative=initiative), state))
        as_typed = self.fields[combatant_id].text()
        if typed.faces and system.typed_faces(as_typed, spec, state) != as_typed:  # Člověk's two-digit d10s
            return _("{summary} (read as {faces})").format(summary=reading, faces=", ".join(map(str, typed.faces)))
        return reading

    def typed(self) -> tuple[dict[str, tuple[int, ...]], dict[str, int]]:
        """The faces and the totals typed per combatant (RulesError with the combatant's name if one is unreadable)."""
        faces: dict[str, tuple[int, ...]] = {}
        totals: dict[str, int] = {}
        for combatant_id in self.fields:
            typed = self._read(combatant_id)
            if typed is None:
                continue
            if typed.total is not None:
                totals[combatant_id] = typed.total
            else:
                faces[combatant_id] = typed.faces
        return faces, totals

    def roll(self) -> None:
        """Apply the round's initiative, or show what is wrong and keep the dialog open."""
        try:
            faces, totals = self.typed()
            self._session.roll_initiative(faces, self.chosen(), totals)
        except RulesError as problem:
            show_message(self.message, str(problem))
            return
        self.accept()
