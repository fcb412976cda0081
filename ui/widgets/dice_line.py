"""The dice line: any expression the open fight's game understands, rolled or typed in, with the result in the log."""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QPushButton, QVBoxLayout, QWidget

from app.i18n import _
from app.session import FightSession
from rules.dice import dice_examples
from rules.errors import RulesError
from ui.widgets.messages import show_message


class DiceLine(QWidget):
    """Expression field, optional typed faces, Roll button and the last result.

    The examples are the open fight's game's: its own words (SR3's ``tn``) and the forms every game knows.
    """

    def __init__(self, session: FightSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._session = session
        self.expression = QLineEdit()
        self.faces = QLineEdit(placeholderText=_("Faces rolled at the table (optional), e.g. 3,4,6+2"))
        self.roll_button = QPushButton(_("Roll"))
        self.result = QLabel(_("Type an expression and press Enter."))
        self.result.setWordWrap(True)
        for signal in (self.expression.returnPressed, self.faces.returnPressed, self.roll_button.clicked):
            signal.connect(self.roll)
        self._layout()
        self._show_examples()
        session.document.replaced.connect(self._show_examples)

    def examples(self) -> tuple[str, ...]:
        """Lines this fight's dice line reads, the game's own tests first."""
        generic = dice_examples()
        return tuple(sorted(dice_examples(self._session.document.system.dice_words()), key=lambda e: e in generic))

    def _show_examples(self) -> None:
        examples = self.examples()
        self.expression.setPlaceholderText(_("Dice, e.g. {example}").format(example=examples[0]))
        self.expression.setToolTip(_("Examples: {examples}").format(examples=" · ".join(examples)))

    def _layout(self) -> None:
        row = QHBoxLayout()
        row.addWidget(self.expression, 2)
        row.addWidget(self.faces, 3)
        row.addWidget(self.roll_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(row)
        layout.addWidget(self.result)

    def roll(self) -> None:
        """Roll the expression (or record the typed faces) and show the result or what is wrong."""
        if not self.expression.text().strip():
            return
        try:
            change = self._session.roll_dice(self.expression.text(), self.faces.text())
        except RulesError as problem:
            show_message(self.result, str(problem))
        else:
            show_message(self.result, change.entry.text(), error=False)
            self.faces.clear()
