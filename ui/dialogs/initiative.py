"""Roll initiative: NPCs roll automatically; for each player character the GM may type what was rolled, die by die,
or the total the player announces.

How a field is read (:func:`rules.initiative_text.read_initiative`): ``=17`` is a total, several numbers are the
dice, a lone number is the die when one die is rolled and the total otherwise. Each row's hint says which applies to
it, and the row shows its reading as it is typed (the game's score: ``17 → 7`` in SR3).
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from app.i18n import _, ngettext
from app.session import FightSession
from rules.encounter import Combatant, Initiative, Side
from rules.errors import RulesError
from rules.initiative_text import TypedInitiative, example_faces, example_total, read_initiative
from rules.systems.base import DiceSpec
from ui.widgets.messages import show_message


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
    """One row per combatant who can act: its dice, and a field for typed faces or a total (blank = the app rolls)."""

    def __init__(self, session: FightSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(_("Roll initiative"))
        self._session = session
        self.fields: dict[str, QLineEdit] = {}
        self.readings: dict[str, QLabel] = {}
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
        intro = QLabel(_("Type each die the player rolled, separated by commas (4,5,6), or the total the player "
                         "announces (17). Where one die is rolled, a lone number is that die: write the total as =10. "
                         "Leave a field empty and Bojovka rolls for that character."))
        intro.setWordWrap(True)
        layout.addWidget(intro)
        layout.addLayout(grid)
        layout.addWidget(self.message)
        layout.addWidget(buttons)

    def _add_rows(self, grid: QGridLayout) -> None:
        """Name | field | its reading, one row per combatant who can act (opponents: what they roll)."""
        document = self._session.document
        state, system = document.state, document.system
        reading_width = self.fontMetrics().horizontalAdvance(_("total: {score}").format(score="88 → 88 → 88"))
        for row, combatant in enumerate(c for c in state.combatants.values() if system.can_act(c, state)):
            spec = system.initiative_dice(combatant, state)
            grid.addWidget(QLabel(combatant.name), row, 0)
            if combatant.side is Side.OPPONENT:
                grid.addWidget(QLabel(_("{dice} — rolled automatically").format(dice=spec.describe())), row, 1, 1, 2)
                continue
            hint = field_hint(spec)
            field = QLineEdit(placeholderText=hint)
            field.setToolTip(hint)
            field.setMinimumWidth(min(self.fontMetrics().horizontalAdvance(hint) + 24, 480))  # the hint fits
            reading = QLabel()
            reading.setMinimumWidth(reading_width)
            field.textChanged.connect(lambda _text, cid=combatant.id: self._show_reading(cid))
            self.fields[combatant.id], self.readings[combatant.id] = field, reading
            grid.addWidget(field, row, 1)
            grid.addWidget(reading, row, 2)
        grid.setColumnStretch(1, 1)

    def _read(self, combatant: Combatant) -> TypedInitiative | None:
        """One field's reading (RulesError with the combatant's name if it is unreadable)."""
        document = self._session.document
        spec = document.system.initiative_dice(combatant, document.state)
        try:
            return read_initiative(self.fields[combatant.id].text(), spec)
        except RulesError as problem:
            raise RulesError(f"{combatant.name}: {problem}") from None

    def _show_reading(self, combatant_id: str) -> None:
        """What the field will give, as the game shows the score ("total: 17", "dice: 27 → 17 → 7"), or why not."""
        label = self.readings[combatant_id]
        try:
            text = self._reading(self._session.document.state.combatant(combatant_id))
        except RulesError as problem:
            show_message(label, "✗")
            show_message(self.message, str(problem))
            return
        show_message(label, text, error=False)
        show_message(self.message, "")

    def _reading(self, combatant: Combatant) -> str:
        document = self._session.document
        state, system = document.state, document.system
        typed = self._read(combatant)
        if typed is None:
            return ""
        spec = system.initiative_dice(combatant, state)
        if typed.total is not None:
            initiative, text = system.initiative_from_total(combatant, state, typed.total), _("total: {score}")
        elif len(typed.faces) != spec.count:
            raise RulesError(ngettext("{name} rolls {count} die for initiative, not {typed}.",
                                      "{name} rolls {count} dice for initiative, not {typed}.", spec.count).format(
                name=combatant.name, count=spec.count, typed=len(typed.faces)))
        else:
            initiative, text = Initiative(spec.base, typed.faces), _("dice: {score}")
        return text.format(score=system.score_text(replace(combatant, initiative=initiative), state))

    def typed(self) -> tuple[dict[str, tuple[int, ...]], dict[str, int]]:
        """The faces and the totals typed per combatant (RulesError with the combatant's name if one is unreadable)."""
        faces: dict[str, tuple[int, ...]] = {}
        totals: dict[str, int] = {}
        state = self._session.document.state
        for combatant_id in self.fields:
            typed = self._read(state.combatant(combatant_id))
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
            self._session.roll_initiative(faces, totals)
        except RulesError as problem:
            show_message(self.message, str(problem))
            return
        self.accept()
