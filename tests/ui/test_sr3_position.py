"""Shadowrun 3's change of position from the window (sr3.md, Actions per phase): "Free: … drop prone"; "Change
position: stand or drop prone; a wounded character stands only on Willpower (2) + wound modifier"; and the dodge's
"GM +1..+2 when hemmed in or prone" prefilled for a prone target."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from app.document import EncounterDocument
from rules.combatants import ApplyHarm
from rules.dice import Roller
from rules.encounter import Side, frozen_map
from rules.history import new_history
from rules.systems.sr3 import Sr3DropProne
from rules.systems.sr3.position import is_prone
from rules.systems.sr3.system import FREE, SIMPLE
from rules.turns import RollInitiative
from tests.rules.sr3_scenes import add, eight_characters, roll_ones
from ui.games import game_ui
from ui.games.sr3.attack import Sr3AttackDialog
from ui.games.sr3.position import PositionSection
from ui.widgets.details import CombatantDetails

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")


#: The panel built and its host, kept alive for the test (the section is their child).
PANELS: list[QWidget] = []


def panel_on(qtbot: QtBot, shown: str = "Snot") -> tuple[EncounterDocument, str, PositionSection]:
    """Snot (Willpower 4) acting now, Liam (not yet acted), ``shown`` in the details panel."""
    history = new_history("sr3", "Alley")
    snot = add(history, "Snot", Side.OPPONENT, reaction=9, willpower=4, body=5)
    liam = add(history, "Liam", Side.PLAYER, reaction=8, willpower=3, body=4)
    history.do(RollInitiative(frozen_map({snot: (6,), liam: (1,)}), frozen_map()))
    document = EncounterDocument(history)
    host = QWidget()
    qtbot.addWidget(host)
    panel = CombatantDetails(document, host, roller=Roller.seeded(3))
    PANELS[:] = [panel, host]
    chosen = snot if shown == "Snot" else liam
    panel.set_combatant(chosen)
    return document, chosen, next(iter(panel.findChildren(PositionSection)))


def test_drop_prone_and_stand_up_unwounded(qtbot: QtBot) -> None:
    document, snot, section = panel_on(qtbot)
    assert section.state.text() == "Standing."
    assert section.drop.isEnabled() and not section.stand.isEnabled() and section.faces.isHidden()
    section.drop.click()
    combatant = document.state.combatant(snot)
    assert is_prone(combatant) and dict(combatant.actions_used) == {FREE: 1}
    assert section.state.text() == "Prone. Unwounded: stands up without a test."
    assert section.stand.isEnabled() and not section.drop.isEnabled()
    section.stand.click()
    assert not is_prone(document.state.combatant(snot))
    assert dict(document.state.combatant(snot).actions_used) == {FREE: 1, SIMPLE: 1}
    document.undo_stack.undo()
    assert section.state.text() == "Prone. Unwounded: stands up without a test."


def test_a_wounded_character_rolls_willpower_with_the_odds_shown_first(qtbot: QtBot) -> None:
    document, snot, section = panel_on(qtbot)
    section.drop.click()
    document.apply(ApplyHarm(snot, "physical", 3))  # Moderate: TN 2 + 2
    assert section.state.text() == ("Prone. Wounded: stands up only with a success on Willpower (4 dice) against "
                                    "TN 4 (2 + wound modifier); chance 93.8 %.")  # 1 − (1/2)⁴
    assert section.faces.isVisibleTo(section) and not section.stand.isEnabled()
    assert section.result.text() == "4d6 TN 4: roll or type"
    section.faces.setText("3, 1, 2, 3")
    assert section.stand.isEnabled()
    section.stand.click()  # no success: the simple action is spent, Snot stays down
    assert is_prone(document.state.combatant(snot))
    assert document.history.entries[-1].log[0].render() == (
        "Snot fails to stand up (no success on Willpower at TN 4) and stays prone.")
    assert section.faces.text() == ""
    section.roll.click()  # the session's roller
    assert section.faces.text() and section.result.text().startswith("4d6 TN 4: ")
    section.faces.setText("5, 1, 1, 1")
    section.stand.click()
    assert not is_prone(document.state.combatant(snot))
    assert document.history.entries[-1].log[0].render() == "Snot stands up: 1 success on Willpower at TN 4."


def test_a_refusal_is_shown_and_nothing_changes(qtbot: QtBot) -> None:
    document, liam, section = panel_on(qtbot, "Liam")
    section.drop.click()  # Snot's phase, and Liam has not acted yet: no free action
    assert not is_prone(document.state.combatant(liam))
    assert isinstance(PANELS[0], CombatantDetails)
    assert PANELS[0].message.text() == ("Liam cannot take free actions before their first phase. Dropping prone "
                                        "takes a free action.")


def test_a_prone_target_dodges_cramped_and_the_gms_value_stays(qtbot: QtBot) -> None:
    history, ids = eight_characters()
    history.do(Sr3DropProne(ids["Ganger 1"]))  # before initiative: no action
    roll_ones(history, ids)
    document = EncounterDocument(history)
    dialog = Sr3AttackDialog(document, Roller.seeded(1))
    qtbot.addWidget(dialog)
    assert dialog.target.currentData() == ids["Ganger 1"]
    assert dialog.defence.cramped.value() == 1
    dialog.target.setCurrentIndex(dialog.target.findData(ids["Ganger 2"]))
    assert dialog.defence.cramped.value() == 0
    dialog.target.setCurrentIndex(dialog.target.findData(ids["Ganger 1"]))
    dialog.defence.cramped.setValue(2)  # hemmed in as well: the GM's call
    document.apply(ApplyHarm(ids["Ganger 1"], "physical", 1))
    assert dialog.defence.cramped.value() == 2


def test_the_window_finds_the_section_by_game() -> None:
    assert PositionSection in game_ui("sr3").sections()
