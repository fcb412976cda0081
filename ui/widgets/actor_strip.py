"""The actor strip: a slim bar over the initiative table with what matters every turn about whoever acts now.

Its name, what it may still do this turn or pass and its pools (banks, Chances), each with the numbers left of
how many, and beside them the same one-click controls the details panel offers (spend a die, use an action).
What to show comes from the game (:meth:`ui.games.base.GameUi.essentials`); a click becomes one operation for
the document, so Undo takes it back. The bar never scrolls and never changes height (nothing moves under the
pointer as the turn passes), and its buttons never take the keyboard focus (Space and Enter stay the table's).
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QFont, QPainter, QPaintEvent, QPalette, QResizeEvent
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QSizePolicy, QToolButton, QWidget

from app.document import Change, EncounterDocument
from app.i18n import _
from rules.errors import RulesError
from rules.history import Operation
from rules.turns import actor_for
from ui.games import game_ui
from ui.games.base import Essentials
from ui.widgets.messages import as_written, plain

#: The name's widest share, in average characters (a long name elides; its tooltip has it in full).
NAME_CHARACTERS = 22
#: At least this many characters of a name stay visible when the bar is short of room.
NAME_MINIMUM = 6
MARGIN = 3

#: The bar's shape: per group its title and, per reading, its key and how many controls it has.
Shape = tuple[tuple[str, tuple[tuple[str, int], ...]], ...]


class NameLabel(QWidget):
    """The actor's name in bold, elided to the room it has; the tooltip has it in full."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._text = ""
        font = QFont(self.font())
        font.setBold(True)
        self.setFont(font)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)  # centred in the row

    def set_text(self, text: str, italic: bool = False) -> None:
        """Show ``text`` (in italics: a placeholder rather than a name)."""
        font = QFont(self.font())
        font.setItalic(italic)
        self.setFont(font)
        self._text = text
        self.setAccessibleName(text)
        self.updateGeometry()
        self.update()

    def text(self) -> str:
        """The whole text, however much of it is drawn."""
        return self._text

    def shown_text(self) -> str:
        """The text as drawn in the room it has."""
        return self.fontMetrics().elidedText(self._text, Qt.TextElideMode.ElideRight, self.width())

    def sizeHint(self) -> QSize:
        metrics = self.fontMetrics()
        widest = metrics.averageCharWidth() * NAME_CHARACTERS
        return QSize(min(widest, metrics.horizontalAdvance(self._text) + 2), metrics.height())

    def minimumSizeHint(self) -> QSize:
        metrics = self.fontMetrics()
        return QSize(min(self.sizeHint().width(), metrics.averageCharWidth() * NAME_MINIMUM), metrics.height())

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setPen(self.palette().color(QPalette.ColorRole.WindowText))
        painter.drawText(self.rect(), int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                         self.shown_text())
        painter.end()


def _control_button(symbol: str) -> QToolButton:
    button = QToolButton()
    button.setText(symbol)
    button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # a click never takes Space and Enter from the table
    button.setAutoRaise(False)
    return button


def _separator() -> QFrame:
    line = QFrame()
    line.setFrameShape(QFrame.Shape.VLine)
    line.setFrameShadow(QFrame.Shadow.Plain)
    line.setForegroundRole(QPalette.ColorRole.Mid)  # a quiet line in either theme (a sunken one glares in dark)
    return line


class ActorStrip(QFrame):
    """Whoever acts now: name, what it may still do, its pools, and one-click controls for them."""

    #: A refused click: why, for the status bar.
    refused = Signal(str)

    def __init__(self, document: EncounterDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("actorStrip")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self._document = document
        self._selected: str | None = None
        self._actor: str | None = None
        self._shape: Shape | None = None
        self._labels: dict[tuple[int, str], QLabel] = {}
        self._titles: list[QLabel] = []
        self._buttons: dict[tuple[int, str, int], QToolButton] = {}
        self._operations: dict[tuple[int, str, int], Operation | None] = {}
        self._parts: list[QWidget] = []
        self.name = NameLabel()
        self._row = QHBoxLayout(self)
        self._row.setContentsMargins(MARGIN * 2, MARGIN, MARGIN * 2, MARGIN)
        self._row.setSpacing(MARGIN * 2)
        self._row.addWidget(self.name)
        self._row.addStretch(1)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)  # it never widens the window
        self.setFixedHeight(self._height())
        document.changed.connect(self._on_changed)
        document.replaced.connect(self.refresh)
        self.refresh()

    def _height(self) -> int:
        """One row of controls, whoever acts (or nobody): the height is reserved, never changed."""
        probe = _control_button("−")
        row = max(probe.sizeHint().height(), self.fontMetrics().height() + 4)
        probe.deleteLater()
        return row + 2 * MARGIN + 2 * self.frameWidth()

    # --- public --------------------------------------------------------------------------------
    def actor_id(self) -> str | None:
        """The combatant shown (None: nobody acts now)."""
        return self._actor

    def readings(self) -> list[str]:
        """The readings as shown, left to right."""
        return [label.text() for label in self._labels.values()]

    def titles(self) -> list[str]:
        """The groups' titles as shown."""
        return [label.text() for label in self._titles]

    def reading(self, key: str) -> str:
        """The text of the first reading named ``key`` ("" if there is none)."""
        return next((label.text() for (_group, name), label in self._labels.items() if name == key), "")

    def control(self, key: str, number: int = 0) -> QToolButton | None:
        """The ``number``-th quick control of the first reading named ``key``."""
        return next((button for (_group, name, index), button in self._buttons.items()
                     if name == key and index == number), None)

    def parts(self) -> list[QWidget]:
        """Every widget the bar shows (for the tests that check nothing is cut)."""
        return [self.name, *self._parts]

    def follow_selection(self, combatant_id: str | None) -> None:
        """The GM selected a row: within a group acting together, the strip shows the one selected."""
        self._selected = combatant_id
        if actor_for(self._document.state, combatant_id) != self._actor:
            self.refresh()

    # --- showing -------------------------------------------------------------------------------
    def _on_changed(self, change: Change) -> None:
        what = change.what
        if what.clock or what.options or what.game_state or (self._actor or "") in what.combatants:
            self.refresh()

    def refresh(self) -> None:
        """Show whoever acts now as the document has it."""
        state, system = self._document.state, self._document.system
        self._actor = actor_for(state, self._selected)
        combatant = state.combatants.get(self._actor or "")
        if combatant is None:
            self._actor = None
            self.name.set_text(_("Nobody acts now"), italic=True)
            self.name.setToolTip("")
            self._show([])
            return
        self.name.set_text(self._name_text(combatant.name))
        self.name.setToolTip(as_written(self._name_tip(combatant.name)))
        self._show(game_ui(system.id).essentials(combatant, state, system))

    def _name_text(self, name: str) -> str:
        """The name, and "+2" when two more act together with it."""
        current = self._document.state.clock.current
        others = len(current.ids) - 1 if current is not None else 0
        return f"{name} +{others}" if others > 0 else name

    def _name_tip(self, name: str) -> str:
        current = self._document.state.clock.current
        state = self._document.state
        if current is None or len(current.ids) < 2:
            return _("{name} acts now").format(name=name)
        names = ", ".join(state.combatants[i].name for i in current.ids if i in state.combatants)
        return _("Acting together: {names}. Select one of them in the table to show theirs here.").format(
            names=names)

    def _show(self, groups: Sequence[Essentials]) -> None:
        shape: Shape = tuple((group.title, tuple((r.key, len(r.controls)) for r in group.readings))
                             for group in groups)
        if shape != self._shape:
            self._rebuild(shape)
        for number, group in enumerate(groups):
            for reading in group.readings:
                label = self._labels[number, reading.key]
                label.setText(reading.text)
                label.setToolTip(as_written(reading.tip))
                for index, control in enumerate(reading.controls):
                    button = self._buttons[number, reading.key, index]
                    button.setText(control.symbol)
                    button.setToolTip(as_written(control.tip))
                    button.setAccessibleName(f"{control.tip} ({reading.text})")
                    button.setEnabled(control.operation is not None)
                    self._operations[number, reading.key, index] = control.operation
        self._fit()

    def needed_width(self, titled: bool = True) -> int:
        """The width the bar needs to show every reading whole (the name at its shortest), with the groups'
        titles or without them."""
        parts = [part for part in self._parts if titled or part not in self._titles]
        margins = self._row.contentsMargins()
        return (margins.left() + margins.right() + 2 * self.frameWidth() + self.name.minimumSizeHint().width()
                + sum(part.sizeHint().width() for part in parts) + self._row.spacing() * len(parts))

    def _fit(self) -> None:
        """Short of room (a narrow window, long words), the groups' titles go first: the numbers stay whole."""
        titled = self.needed_width(titled=True) <= self.width()
        for title in self._titles:
            title.setVisible(titled)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    def _rebuild(self, shape: Shape) -> None:
        """New widgets for a new shape (another actor, another game): the old ones go once their signals are done."""
        for part in self._parts:
            self._row.removeWidget(part)
            part.hide()
            part.deleteLater()  # a clicked button may be what is being replaced: never delete it mid-signal
        self._parts, self._labels, self._titles, self._buttons, self._operations = [], {}, [], {}, {}
        place = 1  # after the name
        for number, (title, readings) in enumerate(shape):
            parts: list[QWidget] = [_separator()]
            if title:
                heading = QLabel(_("{title}:").format(title=title))
                self._titles.append(heading)
                parts.append(heading)
            for key, controls in readings:
                label = plain(QLabel())  # a reading may name someone
                self._labels[number, key] = label
                parts.append(label)
                for index in range(controls):
                    button = _control_button("−")
                    button.clicked.connect(lambda _checked=False, at=(number, key, index): self._click(at))
                    self._buttons[number, key, index] = button
                    parts.append(button)
            for part in parts:
                self._row.insertWidget(place, part)
                place += 1
            self._parts.extend(parts)
        self._shape = shape

    # --- changing ------------------------------------------------------------------------------
    def _click(self, at: tuple[int, str, int]) -> None:
        operation = self._operations.get(at)
        if operation is None:
            return
        try:
            self._document.apply(operation, initiator=self)
        except RulesError as refusal:
            self.refused.emit(str(refusal))
            self.refresh()
