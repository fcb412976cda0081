"""The table drill: one standard round of each game, driven through the real window by keys and clicks.

A GM with four players waiting measures a tool in key presses and seconds. The drill plays, on each game's shipped
sample fight, the steps every round is made of, as the GM would at the table:

1. **NPC attack, saved weapon**: Next until an NPC with a loaded weapon acts, then Repeat last attack (the weapon used
   last, else the first; the last target, else the first enemy; the dice rolled) and Enter: the damage is on the
   target. The dialog is then closed with Esc (counted apart: the damage is already done).
2. **PC attack, table dice**: Next until a player character acts, Attack, the player's faces typed into the
   first dice field, the rest rolled with one click (the GM's dice for the NPC), Enter.
3. **Damage to a selected row**: D, the amount in the game's own notation, Enter.
4. **Damage to two rows**: a click on one row, a Ctrl+click on another, D, the amount, Enter (the same hit on each).
5. **One effect**: E, its name, Enter, on the selected combatant.
6. **Next actor**: Space.

Every key press and click is counted (a typed "6S" is two presses). :func:`play` returns one :class:`Step` per
step; ``make bench`` prints them with the time each took, and ``tests/ui/test_table_drill.py`` holds the input
counts to the issue's goals (no test asserts a time).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialog, QPushButton, QWidget

from rules.encounter import Side
from rules.weapons import ROUNDS, last_attack, preferred_weapon, uses_rounds

if TYPE_CHECKING:
    from ui.main_window import MainWindow
    from ui.widgets.dice_entry import DiceEntry

#: What the drill types as "the same hit" in each game's own notation (an SR3 Serious wound; elsewhere 2 points).
AMOUNTS: Final[dict[str, str]] = {"sr3": "S"}
DEFAULT_AMOUNT: Final[str] = "2"
EFFECT_NAME: Final[str] = "Smoke"
MAX_NEXT: Final[int] = 60  # Next presses looked for a wanted actor before the drill says it found none


@dataclass
class Step:
    """One step of the round: how many key presses and clicks it took, how long, and whether it did its job."""

    name: str
    keys: int = 0
    clicks: int = 0
    seconds: float = 0.0
    done: bool = False
    note: str = ""
    after: int = 0  # inputs after the step's job was done (closing a dialog): not part of the figure
    started: float = 0.0

    @property
    def inputs(self) -> int:
        """Key presses plus clicks up to the step's result."""
        return self.keys + self.clicks


@dataclass
class Drill:
    """Drives one window, counting every input into the step being played."""

    window: MainWindow
    steps: list[Step] = field(default_factory=list)
    _step: Step | None = None

    # --- inputs -------------------------------------------------------------------------------------
    def key(self, key: Qt.Key, modifiers: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier,
            widget: QWidget | None = None) -> None:
        """One key press where the focus is (or on ``widget``); counted before it is sent, as a key that opens a
        modal dialog returns only once the dialog has closed."""
        self._count(keys=1)
        QTest.keyClick(widget or _focus(self.window), key, modifiers)

    def type(self, text: str, widget: QWidget | None = None) -> None:
        """Type ``text`` where the focus is: one press per character."""
        self._count(keys=len(text))
        QTest.keyClicks(widget or _focus(self.window), text)

    def click(self, widget: QWidget, point: QPoint | None = None,
              modifiers: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
        """One left click on ``widget`` (at ``point``, else its centre)."""
        self._count(clicks=1)
        QTest.mouseClick(widget, Qt.MouseButton.LeftButton, modifiers, point or widget.rect().center())

    def _count(self, keys: int = 0, clicks: int = 0) -> None:
        step = self._step
        if step is None:
            return
        if step.done:
            step.after += keys + clicks
        else:
            step.keys += keys
            step.clicks += clicks

    # --- steps --------------------------------------------------------------------------------------
    @contextmanager
    def step(self, name: str) -> Iterator[Step]:
        """Count and time what happens inside as the step ``name``; it is done when the history grows (or when
        the body says so)."""
        step = Step(name, started=time.perf_counter())
        self._step = step
        entries = len(self.window.document.history.entries)
        try:
            yield step
        finally:
            QApplication.processEvents()
            if not step.done:
                step.seconds = time.perf_counter() - step.started
            step.done = step.done or len(self.window.document.history.entries) > entries
            self._step = None
            self.steps.append(step)

    def mark_done(self) -> None:
        """The step's job is done now (later inputs only close what it opened)."""
        if self._step is not None and not self._step.done:
            QApplication.processEvents()  # the repaint that shows the result belongs to the step
            self._step.done = True
            self._step.seconds = time.perf_counter() - self._step.started

    def in_dialog(self, key: Qt.Key, act: Callable[[QDialog], None],
                  modifiers: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> bool:
        """Press ``key`` on the table and act in the modal dialog it opens (closed afterwards if still open).
        Returns whether a dialog opened."""
        met: list[QDialog] = []

        def inside(tries: int = 0) -> None:
            dialog = QApplication.activeModalWidget()
            if not isinstance(dialog, QDialog):
                if tries < 200:
                    QTimer.singleShot(10, lambda: inside(tries + 1))
                return
            if not dialog.isActiveWindow() and tries < 200:
                QTimer.singleShot(10, lambda: inside(tries + 1))
                return
            met.append(dialog)
            try:
                act(dialog)
            finally:
                if dialog.isVisible():
                    dialog.reject()

        self._activate()
        QTimer.singleShot(0, inside)
        self.key(key, modifiers, self.window.table)
        return bool(met)

    def _activate(self) -> None:
        self.window.activateWindow()
        deadline = time.monotonic() + 2
        while not self.window.isActiveWindow() and time.monotonic() < deadline:
            QApplication.processEvents()
        self.window.table.setFocus()

    # --- the round ----------------------------------------------------------------------------------
    def next_until(self, wanted: Callable[[str], bool]) -> bool:
        """Press Next (not counted: the turns between the drill's steps) until the current actor is ``wanted``."""
        session = self.window.session
        for _press in range(MAX_NEXT):
            actor = session.current_actor()
            if actor is not None and wanted(actor):
                return True
            if self.window.document.state.clock.current is None:
                session.roll_initiative()
            else:
                self.window.fight.on_next_turn()
            QApplication.processEvents()
        return False

    def npc_attack(self) -> None:
        """Repeat last attack for an NPC with a weapon: Shift+A, Enter; Esc closes."""
        armed = self.next_until(self._loaded_npc)
        with self.step("NPC attack, saved weapon") as step:
            if not armed:
                step.note = "no NPC with a saved weapon acts"
                return

            def act(dialog: QDialog) -> None:
                self.key(Qt.Key.Key_Return, widget=_focus(dialog))
                if len(self.window.document.history.entries) > entries:
                    self.mark_done()
                else:
                    step.note = dialog_problem(dialog)
                self.key(Qt.Key.Key_Escape, widget=_focus(dialog))

            entries = len(self.window.document.history.entries)
            self.in_dialog(Qt.Key.Key_A, act, Qt.KeyboardModifier.ShiftModifier)

    def _loaded_npc(self, combatant_id: str) -> bool:
        """An NPC whose weapon of choice is ready: the one it used last (else its first), loaded if it takes
        rounds (an empty one needs a reload first, which in some games is the turn's action)."""
        document = self.window.document
        combatant = document.state.combatants[combatant_id]
        weapon = preferred_weapon(combatant, last_attack(document.history.entries, combatant_id))
        return (combatant.side is not Side.PLAYER and weapon is not None
                and (not uses_rounds(weapon) or weapon.number(ROUNDS) > 0))

    def pc_attack(self) -> None:
        """Attack for a player character: the player's faces typed, the GM's dice rolled with one click, Enter."""
        state = self.window.document.state
        found = self.next_until(lambda c: state.combatants[c].side is Side.PLAYER)
        with self.step("PC attack, table dice typed") as step:
            if not found:
                step.note = "no player character acts"
                return

            def act(dialog: QDialog) -> None:
                entries_of = getattr(dialog, "entries", None)
                dice = [entry for entry in (entries_of() if entries_of else ()) if entry.isEnabled()
                        and entry.expression() is not None and not entry.is_complete()]
                if dice:
                    first = dice[0]
                    self.click(first.faces_edit)
                    self.type(_faces(first), first.faces_edit)
                roll_rest = _button(dialog, "roll_all") or _button(dialog, "roll_button")
                if roll_rest is not None and roll_rest.isEnabled():
                    self.click(roll_rest)
                else:
                    for entry in dice[1:]:
                        if entry.isEnabled() and not entry.is_complete():
                            self.click(entry.roll_button)
                before = len(self.window.document.history.entries)
                self.key(Qt.Key.Key_Return, widget=_focus(dialog))
                if len(self.window.document.history.entries) > before:
                    self.mark_done()
                else:
                    step.note = dialog_problem(dialog)
                self.key(Qt.Key.Key_Escape, widget=_focus(dialog))

            self.in_dialog(Qt.Key.Key_A, act)

    def damage_selected(self) -> None:
        """D, the amount, Enter on the row already selected."""
        opponents = self._opponents()
        with self.step("Damage to a selected row") as step:
            if not opponents:
                step.note = "no opponent to hurt"
                return
            self.window.table.select_combatant(opponents[0])  # selected before the step: the GM's eye did it
            self.in_dialog(Qt.Key.Key_D, self._type_amount)

    def damage_two_rows(self) -> None:
        """A click and a Ctrl+click on two rows, then D, the amount, Enter."""
        opponents = self._opponents()
        with self.step("Damage to two rows") as step:
            if len(opponents) < 2:
                step.note = "fewer than two opponents"
                return
            table = self.window.table
            self.click(table.viewport(), self._row_point(opponents[0]))
            self.click(table.viewport(), self._row_point(opponents[1]), Qt.KeyboardModifier.ControlModifier)
            self.in_dialog(Qt.Key.Key_D, self._type_amount)

    def effect(self) -> None:
        """E, the effect's name, Enter."""
        with self.step("One effect"):
            self._activate()
            self.key(Qt.Key.Key_E, widget=self.window.table)  # the effects dock's form, its name focused
            self.type(EFFECT_NAME)
            self.key(Qt.Key.Key_Return)

    def next_actor(self) -> None:
        """Space."""
        with self.step("Next actor"):
            self._activate()
            self.key(Qt.Key.Key_Space, widget=self.window.table)

    def _type_amount(self, dialog: QDialog) -> None:
        self.type(AMOUNTS.get(self.window.document.system.id, DEFAULT_AMOUNT), _focus(dialog))
        self.key(Qt.Key.Key_Return, widget=_focus(dialog))

    def _opponents(self) -> list[str]:
        state, system = self.window.document.state, self.window.document.system
        return [c.id for c in state.combatants.values() if c.side is Side.OPPONENT
                and system.status(c, state).value == "active"]

    def _row_point(self, combatant_id: str) -> QPoint:
        model = self.window.table.model()
        row = model.row_of(combatant_id)  # type: ignore[attr-defined]  # the initiative model
        return self.window.table.visualRect(model.index(row, 0)).center()


def dialog_problem(dialog: QDialog) -> str:
    """What the dialog's status line says stops it (for the drill's note)."""
    status = getattr(dialog, "status_label", None)
    return status.text() if status is not None else "not resolved"


def _button(dialog: QDialog, name: str) -> QPushButton | None:
    """The dialog's own button called ``name`` (on the dialog or its dice box), if it has one."""
    for owner in (dialog, getattr(dialog, "dice", None)):
        button = getattr(owner, name, None) if owner is not None else None
        if isinstance(button, QPushButton) and button.isVisible():
            return button
    return None


def _faces(entry: DiceEntry) -> str:
    """Fours for every die, typed as a GM would: together for dice of up to nine sides, else with spaces."""
    expression = entry.expression()
    sides = expression.die_sides() if expression is not None else ()
    if len(sides) > 1 and max(sides) <= 9:
        return "4" * len(sides)
    return " ".join("4" for _side in sides) or "4"


def _focus(widget: QWidget) -> QWidget:
    return QApplication.focusWidget() or widget


def play(window: MainWindow) -> list[Step]:
    """The standard round on the fight open in ``window`` (shown and active)."""
    drill = Drill(window)
    drill.npc_attack()
    drill.pc_attack()
    drill.damage_selected()
    drill.damage_two_rows()
    drill.effect()
    drill.next_actor()
    return drill.steps
