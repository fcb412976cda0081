"""Souboj: an attack's decisions come before its dice.

souboj.md, Effects and their timing: decisions "before an attack/defence/casting": "first carry out the action, then
announce the decision, and only then make the rolls". In the attack dialog the decisions are the kind, a flat blow,
the causes of a critical hit and finishing off; changing one once the dice are in clears the dice and says why.
"""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from app.document import EncounterDocument
from rules.dice import Roller
from rules.systems.souboj import SoubojAttack
from rules.systems.souboj.model import Cause, Kind
from rules.systems.souboj.sample import sample
from ui.games.souboj.attack import SoubojAttackDialog

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")

ALES, BANDIT_1 = "c1", "c5"
NOTE = ("A decision changed after the dice: “first carry out the action, then announce the decision, and only then "
        "make the rolls”. The dice were cleared: roll or type them again.")


def _rolled(qtbot: QtBot) -> tuple[SoubojAttackDialog, EncounterDocument]:
    """Aleš's blow at Bandit 1 (the shipped sample), both dice typed."""
    document = EncounterDocument(sample())
    dialog = SoubojAttackDialog(document, Roller.seeded(5), ALES, BANDIT_1)
    qtbot.addWidget(dialog)
    dialog.attack_entry.set_faces_text("5")
    dialog.defence_entry.set_faces_text("2")
    assert dialog.resolve_button.isEnabled(), dialog.status_label.text()
    return dialog, document


@pytest.mark.parametrize("decide", ["flat", "cause", "kind"])
def test_a_decision_changed_after_the_dice_clears_them_and_says_why(qtbot: QtBot, decide: str) -> None:
    dialog, document = _rolled(qtbot)
    if decide == "flat":
        dialog.damage.flat.setChecked(True)
    elif decide == "cause":
        dialog.critical.causes[Cause.BEHIND].setChecked(True)
    else:
        dialog.kind.setCurrentIndex(dialog.kind.findData(Kind.THROWN.value))
    assert dialog.attack_entry.faces_edit.text() == "" and dialog.defence_entry.faces_edit.text() == ""
    assert dialog.status_label.text() == NOTE
    assert not dialog.resolve_button.isEnabled()
    entries = len(document.history.entries)
    dialog.resolve()  # Enter: nothing is resolved with the old dice
    assert len(document.history.entries) == entries
    dialog.attack_entry.set_faces_text("6")  # rolled again for the decision as announced now
    assert dialog.status_label.text() != NOTE
    dialog.defence_entry.set_faces_text("1")
    dialog.resolve()
    operation = document.history.entries[-1].operation
    assert isinstance(operation, SoubojAttack) and operation.attack_roll == 6


def test_decisions_before_the_dice_are_free_and_the_numbers_are_no_decision(qtbot: QtBot) -> None:
    document = EncounterDocument(sample())
    dialog = SoubojAttackDialog(document, Roller.seeded(5), ALES, BANDIT_1)
    qtbot.addWidget(dialog)
    dialog.damage.flat.setChecked(True)  # announced before the dice: nothing to clear
    dialog.attack_entry.set_faces_text("5")
    dialog.defence_entry.set_faces_text("2")
    dialog.damage.armor.setValue(0)  # a number the GM corrects is no decision: the dice stay
    assert dialog.attack_entry.faces_edit.text() == "5"
    assert dialog.status_label.text() != NOTE
    dialog.resolve()
    operation = document.history.entries[-1].operation
    assert isinstance(operation, SoubojAttack) and operation.flat
