"""The dice line: any expression the rules understand, rolled or typed in, with the result in the log."""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QPushButton, QVBoxLayout, QWidget

from app.i18n import _
from app.session import FightSession
from rules.errors import RulesError
from ui.widgets.messages import show_message


class DiceLine(QWidget):
    """Expression field, optional typed faces, Roll button and the last result."""

    EXAMPLES = "12d6 tn 5 · 3d6+2 · 8d10 skill 3 ability · d20 under 12 +1b · 4d6 >=4"

    def __init__(self, session: FightSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._session = session
        self.expression = QLineEdit(placeholderText=_("Dice, e.g. 12d6 tn 5"))
        self.expression.setToolTip(_("Examples: {examples}").format(examples=self.EXAMPLES))
        self.faces = QLineEdit(placeholderText=_("Faces rolled at the table (optional), e.g. 3,4,6+2"))
        self.roll_button = QPushButton(_("Roll"))
        self.result = QLabel(_("Type an expression and press Enter."))
        self.result.setWordWrap(True)
        for signal in (self.expression.returnPressed, self.faces.returnPressed, self.roll_button.clicked):
            signal.connect(self.roll)
        self._layout()

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
