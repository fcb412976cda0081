"""The karma spent inside one SR3 shot: rerolls of each test's failed dice, successes bought for it, and the point
that turns all 1s into a plain failure.

sr3.md, Pools: "1 point rerolls a test's failed dice (each further reroll of it +1 point); 1 point turns all 1s into
a plain failure; bought successes cost 1 point each, permanently, and need at least one rolled success". Every test
can be rerolled and bought for, each counted on its own and paid by whoever rolls it: the attack by the attacker,
the dodge and the resistance by the target (by the shooter when the round detonated in the weapon). Nothing is paid
until the shot is resolved; the buttons only count, and each says what the next reroll costs.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from PySide6.QtWidgets import QCheckBox, QLabel, QPushButton, QSpinBox, QWidget

from app.i18n import _, ngettext
from rules.dice import Roller
from rules.dice_faces import format_faces
from rules.systems.sr3.dice import TargetNumberTest
from rules.systems.sr3.karma import failed_dice, reroll_cost, rerolls_cost, with_failures_rerolled
from ui.widgets.dice_entry import DiceEntry
from ui.widgets.inputs import spin_box


class Payer(Enum):
    """Whose karma pool pays for a test."""

    ATTACKER = "attacker"
    TARGET = "target"


class KarmaReroll(QPushButton):
    """Rolls one test's failed dice again with karma, and counts how often (what the shot pays when resolved)."""

    def __init__(self, entry: DiceEntry, explanation: str, roller: Roller) -> None:
        super().__init__()
        self.entry = entry
        self.rerolls = 0
        self._explanation = explanation
        self._roller = roller
        self.setAutoDefault(False)
        self.setVisible(False)
        # The entry's changed dice refresh the form; a connection to the button's own method keeps the dialog
        # free of a closure that would hold it alive after it closes.
        self.clicked.connect(self._on_clicked)

    def _on_clicked(self) -> None:
        if self.isEnabled():
            self.reroll(self._roller)

    def paid_rerolls(self) -> int:
        """The rerolls the shot pays for: none while the test is not rolled (a test no longer needed costs
        nothing)."""
        return self.rerolls if self.entry.expression() is not None and self.entry.faces() else 0

    def committed(self) -> int:
        return rerolls_cost(self.paid_rerolls())

    def offer(self, karma_left: int | None, editable: bool) -> None:
        """Shown when the payer has a karma pool and the test is needed; enabled while the dice are entered, some
        failed and the next reroll is affordable from ``karma_left`` (what this test may still spend)."""
        self.setVisible(karma_left is not None and self.entry.expression() is not None)
        rerolls = self.paid_rerolls()
        # Short: the dice column is narrow, and a longer button would widen the whole dialog past a laptop's.
        text = _("Reroll again (karma {count})") if rerolls else _("Reroll failures (karma {count})")
        self.setText(text.format(count=reroll_cost(rerolls)))
        self.setToolTip("\n".join((self._explanation, ngettext(
            "{count} reroll so far, karma spent: {points}.", "{count} rerolls so far, karma spent: {points}.",
            rerolls).format(count=rerolls, points=rerolls_cost(rerolls)))))
        affordable = karma_left is not None and rerolls_cost(rerolls + 1) <= karma_left
        self.setEnabled(editable and bool(self._failures()) and affordable)

    def reroll(self, roller: Roller) -> bool:
        """Roll the failed dice again (as if typed) and count it; False when there is nothing to reroll."""
        failures = self._failures()
        expression = self.entry.expression()
        result = self.entry.result()
        if not failures or not isinstance(expression, TargetNumberTest) or result is None:
            return False
        self.rerolls = self.paid_rerolls() + 1
        fresh = TargetNumberTest(len(failures), expression.tn).roll(roller).faces
        self.entry.set_faces_text(format_faces(with_failures_rerolled(result.faces, expression.tn, fresh)))
        return True

    def _failures(self) -> list[int]:
        result, expression = self.entry.result(), self.entry.expression()
        if result is None or not isinstance(expression, TargetNumberTest):
            return []
        return failed_dice(result.faces, expression.tn)


def rolled_successes(entry: DiceEntry) -> int:
    """The successes the entry's dice rolled (0 while none are entered)."""
    result = entry.result()
    return (result.successes or 0) if entry.expression() is not None and result is not None else 0


class BoughtSuccesses:
    """Successes bought with karma for one test: "1 point each, permanently, and need at least one rolled
    success"."""

    def __init__(self, entry: DiceEntry) -> None:
        self.entry = entry
        self.box: QSpinBox = spin_box(0, 0, special=_("none"))
        self.box.setPrefix("+")
        self.box.setToolTip(_("Successes bought with karma for this test: 1 point each, for good (the pool shrinks). "
                              "Only for a test that rolled at least one success."))
        self.label = QLabel(_("Bought:"))
        self.label.setBuddy(self.box)
        self.label.setToolTip(self.box.toolTip())
        self.box.setVisible(False)
        self.label.setVisible(False)

    def widgets(self) -> tuple[QWidget, ...]:
        return self.label, self.box

    def paid(self) -> int:
        """What the shot buys: nothing for a test that rolled no success (or is no longer needed)."""
        return self.box.value() if rolled_successes(self.entry) else 0

    def offer(self, karma_left: int | None, editable: bool) -> None:
        """Shown with the payer's karma pool while the test is needed; enabled once it rolled a success, up to
        what the payer has left (``karma_left``: what this test may still spend)."""
        shown = karma_left is not None and self.entry.expression() is not None
        self.box.setVisible(shown)
        self.label.setVisible(shown)
        blocked = self.box.blockSignals(True)  # the form is being refreshed already
        self.box.setMaximum(max(0, karma_left or 0))
        if not rolled_successes(self.entry):
            self.box.setValue(0)
        self.box.blockSignals(blocked)
        self.box.setEnabled(editable and rolled_successes(self.entry) > 0 and bool(karma_left))


def avert_disaster_box() -> QCheckBox:
    box = QCheckBox(_("Karma: a plain failure (1 point)"))
    box.setToolTip(_("The attacker's karma pool pays 1 point and the attack's all 1s are a plain failure: the "
                     "explosive round does not detonate in the weapon, the shot simply misses."))
    box.setVisible(False)
    return box


@dataclass(frozen=True)
class KarmaSpending:
    """What the shot's karma costs each payer, so that no control offers what another already took."""

    rerolls: tuple[tuple[KarmaReroll, Payer], ...]
    bought: tuple[tuple[BoughtSuccesses, Payer], ...]
    averting: bool

    def committed(self, payer: Payer) -> int:
        points = sum(button.committed() for button, paid_by in self.rerolls if paid_by is payer)
        points += sum(box.paid() for box, paid_by in self.bought if paid_by is payer)
        return points + (1 if self.averting and payer is Payer.ATTACKER else 0)

    def offer(self, left: dict[Payer, int | None], editable: bool) -> None:
        """Offer each reroll and purchase what its payer has left after the shot's other spending."""
        for button, payer in self.rerolls:
            button.offer(self._available(left[payer], payer, button.committed()), editable)
        for box, payer in self.bought:
            box.offer(self._available(left[payer], payer, box.paid()), editable)

    def _available(self, pool: int | None, payer: Payer, own: int) -> int | None:
        return None if pool is None else pool - self.committed(payer) + own
