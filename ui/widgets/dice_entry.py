"""Roll or type the dice of one test: how many dice, a Roll button, and the faces the players rolled.

The widget is game-agnostic: it is given a parsed :class:`~rules.dice.DiceExpression` (``7d6 TN 5``,
``2d10 skill 3``, ``1d6``) and checks what the GM types against it live (``read_faces``, the dice count,
the sides, the game's reroll rules). A problem is shown in red under the field; nothing ever raises.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QGridLayout, QLabel, QLineEdit, QPushButton, QWidget

from app.i18n import _, ngettext
from rules.dice import Chains, DiceExpression, Roller, RollResult
from rules.errors import RulesError
from ui.widgets.messages import plain, show_message

#: Readable reds for error text on light and on dark window backgrounds.


class DiceEntry(QWidget):
    """One test's dice: rolled with the injected roller, or typed in as the players rolled them.

    With no expression the test needs no dice (e.g. no dodge): the entry is complete with no faces.
    ``changed`` is emitted whenever the faces, their validity or the expression change.
    """

    changed = Signal()

    def __init__(self, title: str, roller: Roller, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._roller = roller
        self._expression: DiceExpression | None = None
        self._result: RollResult | None = None
        self._error = ""
        self._unused_reason = ""
        self.title_label = plain(QLabel(title))  # the lines below name who rolls and why not
        bold = QFont(self.title_label.font())
        bold.setBold(True)
        self.title_label.setFont(bold)
        self.count_label = plain(QLabel())
        self.result_label = plain(QLabel())
        self.faces_edit = QLineEdit(placeholderText=_("Faces rolled, e.g. 5, 5, 6+3, 1"))
        self.faces_edit.setToolTip(
            _("Type the faces the players rolled, separated by commas or spaces; write a die rolled again as 6+3. "
              "Dice of up to nine sides may be typed together: 4456 for 4d6.")
        )
        self.roll_button = QPushButton(_("Roll"))
        self.roll_button.setAutoDefault(False)  # Enter belongs to the dialog's default button
        self.error_label = plain(QLabel())
        self.error_label.setWordWrap(True)
        self._build_layout()
        self.faces_edit.textChanged.connect(self._validate)
        self.roll_button.clicked.connect(self.roll)
        self._show_expression()

    def _build_layout(self) -> None:
        layout = QGridLayout(self)
        layout.setContentsMargins(0, 2, 0, 2)
        layout.setVerticalSpacing(2)
        layout.addWidget(self.title_label, 0, 0)
        layout.addWidget(self.count_label, 0, 1, 1, 2)
        layout.addWidget(self.faces_edit, 1, 0, 1, 2)
        layout.addWidget(self.roll_button, 1, 2)
        layout.addWidget(self.result_label, 2, 0, 1, 3)
        layout.addWidget(self.error_label, 3, 0, 1, 3)
        layout.setColumnStretch(1, 1)
        self.count_label.setWordWrap(True)
        self.result_label.setWordWrap(True)

    # --- reading -----------------------------------------------------------------------------
    def expression(self) -> DiceExpression | None:
        """The test being entered (None: no dice needed)."""
        return self._expression

    def result(self) -> RollResult | None:
        """The checked result of the typed or rolled faces, or None while they are missing or wrong."""
        return self._result

    def faces(self) -> Chains:
        """The faces to record: () when no dice are needed or they are not entered correctly yet."""
        return self._result.faces if self._result is not None else ()

    def error_text(self) -> str:
        """Why the typed faces cannot be used ("" when they can, or when nothing is typed)."""
        return self._error

    def is_complete(self) -> bool:
        """Whether the test is settled: no dice needed, or valid faces for every die."""
        return self._expression is None or self._result is not None

    def dice_count(self) -> int:
        """How many dice the test rolls (0 with no expression)."""
        return len(self._expression.die_sides()) if self._expression is not None else 0

    # --- changing ----------------------------------------------------------------------------
    def set_expression(self, expression: DiceExpression | None, unused_reason: str = "") -> None:
        """Enter the dice of ``expression``; None means no dice are needed, ``unused_reason`` says why."""
        if expression == self._expression and unused_reason == self._unused_reason:
            return
        self._expression = expression
        self._unused_reason = unused_reason
        self._show_expression()
        self._validate()

    def set_faces_text(self, text: str) -> None:
        """Type ``text`` into the faces field (as the GM would)."""
        self.faces_edit.setText(text)

    def clear(self) -> None:
        """Forget the faces (for the next test)."""
        self.faces_edit.clear()

    def roll(self) -> None:
        """Roll the dice with the injected roller and show the faces as if typed."""
        if self._expression is None:
            return
        self.faces_edit.setText(self._expression.roll(self._roller).faces_text())

    # --- display -----------------------------------------------------------------------------
    def _show_expression(self) -> None:
        if self._expression is None:
            self.count_label.setText(self._unused_reason or _("No dice needed."))
        else:
            count = self.dice_count()
            text = ngettext("{count} die: {test}", "{count} dice: {test}", count)
            self.count_label.setText(text.format(count=count, test=self._expression.label()))
        self._update_enabled()

    def _update_enabled(self) -> None:
        usable = self._expression is not None
        self.faces_edit.setEnabled(usable)
        self.roll_button.setEnabled(usable)

    def _validate(self) -> None:
        self._result, self._error = self._check(self.faces_edit.text())
        show_message(self.error_label, self._error)
        self.error_label.setVisible(bool(self._error))
        self.result_label.setText(self._summary())
        self.result_label.setVisible(bool(self.result_label.text()))
        self.changed.emit()

    def _check(self, text: str) -> tuple[RollResult | None, str]:
        if self._expression is None or not text.strip():
            return None, ""
        try:
            return self._expression.from_faces(text), ""
        except RulesError as problem:  # DiceError: a message for the GM, never a traceback
            return None, str(problem)

    def _summary(self) -> str:
        if self._result is None or self._expression is None:
            return ""
        return self._expression.summarize(self._result)
