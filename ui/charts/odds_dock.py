"""The "Odds" dock: a what-if calculator for the current encounter's game.

The GM picks one of the game's questions (its :class:`~ui.games.base.GameUi` offers them, see
:mod:`ui.charts.odds_questions`), sets its numbers and reads the chart; it switches with the encounter's
game. Nothing here names a game: the form is built from the question's fields.
"""

from __future__ import annotations

from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QBoxLayout,
    QCheckBox,
    QComboBox,
    QFormLayout,
    QLabel,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from app.document import EncounterDocument
from app.i18n import _
from rules.errors import RulesError
from ui.charts.odds_chart import OddsChart
from ui.charts.odds_questions import Field, Question
from ui.games import game_ui
from ui.widgets.messages import show_message

Input = QSpinBox | QCheckBox | QComboBox


def field_input(field: Field) -> Input:
    """The widget that edits ``field``, at its starting value."""
    if field.choices:
        combo = QComboBox()
        for text, _data in field.choices:
            combo.addItem(_(text))
        values = [data for _text, data in field.choices]
        combo.setCurrentIndex(values.index(field.value) if field.value in values else 0)
        return combo
    if field.check:
        box = QCheckBox()
        box.setChecked(bool(field.value))
        return box
    spin = QSpinBox()
    spin.setRange(field.low, field.high)
    spin.setValue(field.value if isinstance(field.value, int) else field.low)
    return spin


def input_value(field: Field, widget: Input) -> object:
    """What a field's widget holds now (a choice's own object: Qt would turn a string enum into a plain str)."""
    if isinstance(widget, QSpinBox):
        return widget.value()
    if isinstance(widget, QCheckBox):
        return widget.isChecked()
    return field.choices[widget.currentIndex()][1]


class OddsDock(QWidget):
    """Pick a question of the encounter's game, set its numbers, read the odds chart."""

    def __init__(self, document: EncounterDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._document = document
        self._system_id = ""
        self._questions: list[Question] = []
        self._inputs: dict[str, Input] = {}
        self._fields: dict[str, Field] = {}
        self.question_box = QComboBox()
        self.question_box.setAccessibleName(_("Question"))
        self.form = QFormLayout()
        self.message = QLabel()
        self.message.setWordWrap(True)
        self.chart = OddsChart(export_name=_("odds"))
        inputs = QVBoxLayout()
        inputs.setContentsMargins(0, 0, 0, 0)
        inputs.addWidget(self.question_box)
        inputs.addLayout(self.form)
        inputs.addWidget(self.message)
        inputs.addStretch(1)
        self._box = QBoxLayout(QBoxLayout.Direction.TopToBottom, self)
        self._box.addLayout(inputs)
        self._box.addWidget(self.chart, 1)
        self.question_box.currentIndexChanged.connect(self._on_question)
        document.replaced.connect(self.follow_document)
        self.follow_document()

    def resizeEvent(self, event: QResizeEvent) -> None:
        """Wide (a bottom dock): the form beside the chart; narrow (a side dock): the form above it."""
        super().resizeEvent(event)
        wide = event.size().width() > 1.5 * event.size().height()
        self._box.setDirection(QBoxLayout.Direction.LeftToRight if wide else QBoxLayout.Direction.TopToBottom)

    # --- the game and its questions ------------------------------------------------------------
    def follow_document(self) -> None:
        """Offer the questions of the open encounter's game (kept as they are if the game is the same)."""
        system_id = self._document.system.id
        if system_id == self._system_id:
            return
        self._system_id = system_id
        self._questions = list(game_ui(system_id).odds_questions())
        self.question_box.blockSignals(True)
        self.question_box.clear()
        for question in self._questions:
            self.question_box.addItem(_(question.title), question.key)
        self.question_box.blockSignals(False)
        self.question_box.setVisible(len(self._questions) > 1)
        self._on_question()

    def question(self) -> Question | None:
        """The question asked now (None for a game without questions)."""
        index = self.question_box.currentIndex()
        return self._questions[index] if 0 <= index < len(self._questions) else None

    def select(self, key: str) -> None:
        """Ask the question ``key`` of the current game."""
        self.question_box.setCurrentIndex(self.question_box.findData(key))

    def _on_question(self) -> None:
        self._build_form(self.question())
        self.recompute()

    def _build_form(self, question: Question | None) -> None:
        while self.form.rowCount():
            self.form.removeRow(0)
        self._inputs, self._fields = {}, {}
        for field in question.fields if question is not None else ():
            widget = field_input(field)
            if field.tip:
                widget.setToolTip(_(field.tip))
            self._connect(widget)
            self.form.addRow(_(field.label), widget)
            self._inputs[field.key] = widget
            self._fields[field.key] = field

    def _connect(self, widget: Input) -> None:
        if isinstance(widget, QSpinBox):
            widget.valueChanged.connect(self.recompute)
        elif isinstance(widget, QCheckBox):
            widget.toggled.connect(self.recompute)
        else:
            widget.currentIndexChanged.connect(self.recompute)

    # --- the answer ----------------------------------------------------------------------------
    def inputs(self) -> dict[str, Input]:
        """The widgets of the question's fields, by key (tests set them like the GM does)."""
        return dict(self._inputs)

    def values(self) -> dict[str, object]:
        """The question's fields as they are now."""
        return {key: input_value(self._fields[key], widget) for key, widget in self._inputs.items()}

    def recompute(self) -> None:
        """Ask the rules again; a value they refuse gets its message and an empty chart."""
        question = self.question()
        if question is None:
            self.chart.set_data(None)
            self._say(_("No odds questions for this game yet."), error=False)
            return
        try:
            data = question.answer(self.values())
        except RulesError as problem:
            self.chart.set_data(None)
            self._say(str(problem), error=True)
            return
        self._say("", error=False)
        self.chart.set_data(data)

    def _say(self, text: str, error: bool) -> None:
        show_message(self.message, text, error=error)
        self.message.setVisible(bool(text))
