"""Institute movement in the attack dialog: crossing squares under suppression fire is a move.

institut.md, Movement: "in total at most **Agility + Athletics metres** per round, minus 1 m per additional
action … Sprinting at full speed as the only action of the round: (Agility + Athletics) × 4 metres."
"""

from __future__ import annotations

import pytest

from rules.combatants import SetOption
from rules.systems.institut import CrossSuppression
from rules.systems.institut.move_limit import MOVEMENT_LIMIT, moved
from tests.ui.test_institut_attack import DialogFactory, dialog_for, fight
from ui.games.institut.attack import InstitutAttackDialog

__all__ = ["dialog_for"]  # the fixture, used by name

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")


def _crossing(dialog_for: DialogFactory, squares: int) -> tuple[InstitutAttackDialog, str]:
    """Sokolov keeps the corridor under fire (1 bullet a square: difficulty 4); Bandit 1 (Agility 2 + Athletics 1:
    3 m a round) crosses ``squares`` squares of it."""
    document, ids = fight()
    document.apply(SetOption(MOVEMENT_LIMIT, True))  # as a fight made now stores it
    dialog = dialog_for(document)
    dialog.tabs.setCurrentWidget(dialog.suppression)
    page = dialog.suppression
    page.bullets.setValue(1)
    dialog.resolve()
    page.opening.select(False)
    dialog.target.setCurrentIndex(dialog.target.findData(ids["Bandit 1"]))
    page.dodge.setValue(2)
    page.crossed.setValue(squares)
    return dialog, ids["Bandit 1"]


def test_a_crossing_past_the_rounds_metres_is_refused_quoting_the_rule_and_the_gm_overrides_it_in_one_click(
        dialog_for: DialogFactory) -> None:
    dialog, bandit = _crossing(dialog_for, 4)
    page, document = dialog.suppression, dialog._document
    refusal = ("Bandit 1 may move 3 m this round and has moved 0 m: not 4 m more. “in total at most Agility + "
               "Athletics metres per round, minus 1 m per additional action”.")
    assert refusal in page.sheet_label.text()  # said before the dice
    dialog.roll_remaining()
    entries = len(document.history.entries)
    dialog.resolve()
    assert refusal in dialog.status_label.text()
    assert len(document.history.entries) == entries  # nothing applied
    assert dialog.override_button.isVisibleTo(dialog)
    dialog.override_button.click()
    last = document.history.entries[-1]
    assert isinstance(last.operation, CrossSuppression) and last.operation.gm_override
    assert "GM's override: Bandit 1 crosses 4 m, past what the rules allow this round (3 m, 0 m already moved)." \
        in last.text()
    assert moved(document.state.combatant(bandit), document.state) == 4
    assert not dialog.override_button.isVisibleTo(dialog)
    document.undo_stack.undo()  # Edit → Undo
    assert moved(document.state.combatant(bandit), document.state) == 0


def test_within_the_metres_the_crossing_resolves_and_a_sprint_goes_four_times_as_far(
        dialog_for: DialogFactory) -> None:
    dialog, bandit = _crossing(dialog_for, 3)
    page, document = dialog.suppression, dialog._document
    assert "Movement this round: 0 of 3 m moved before this." in page.sheet_label.text()
    dialog.roll_remaining()
    dialog.resolve()
    assert isinstance(document.history.entries[-1].operation, CrossSuppression)
    assert not dialog.override_button.isVisibleTo(dialog)
    page.crossed.setValue(9)
    assert "may move 3 m this round and has moved 3 m: not 9 m more" in page.sheet_label.text()
    page.sprinting.setChecked(True)
    assert "Movement this round: 3 of 12 m moved before this." in page.sheet_label.text()
    dialog.roll_remaining()
    dialog.resolve()
    operation = document.history.entries[-1].operation
    assert isinstance(operation, CrossSuppression) and operation.sprinting and not operation.gm_override
    assert moved(document.state.combatant(bandit), document.state) == 12
