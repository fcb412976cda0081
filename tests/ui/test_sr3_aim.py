"""Shadowrun 3's aim in the window (sr3.md, Aim: "−1 TN each, cumulative over phases and passes up to ½ the skill …;
lost on any other action"; "aiming over several phases: no pool dice at all; using them loses the aim"): the details
panel aims and loses the aim, the attack dialog reads the aim, drops it from the TN and the odds the moment pool dice
are entered, and says why."""

from __future__ import annotations

from typing import TypeVar

import pytest
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from app.document import EncounterDocument
from rules.dice import Roller
from rules.encounter import Weapon
from rules.history import History
from rules.systems.sr3 import Sr3Aim
from rules.systems.sr3.aim import aim_of
from rules.systems.sr3.ops import Sr3Attack
from rules.turns import NextTurn
from rules.weapons import SetWeapons
from tests.rules.sr3_scenes import current_name, eight_characters, roll_ones
from ui.games import game_ui
from ui.games.sr3.aim import AimSection
from ui.games.sr3.attack import Sr3AttackDialog
from ui.widgets.details import CombatantDetails

S = TypeVar("S", bound=QWidget)

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")

PREDATOR = Weapon("Ares Predator", {"damage": "9M", "modes": "SA", "skill": 4})


def _fight() -> tuple[History, dict[str, str]]:
    history, ids = eight_characters()
    history.do(SetWeapons(ids["Mike"], (PREDATOR,)))
    roll_ones(history, ids)
    return history, ids


def _to_mike_in_pass_2(history: History) -> None:
    while (history.state.clock.pass_no, current_name(history)) != (2, "Mike"):
        history.do(NextTurn())


def panel_section(qtbot: QtBot, document: EncounterDocument, combatant_id: str, kind: type[S]) -> tuple[QWidget, S]:
    """The details panel showing ``combatant_id`` (in a host the caller keeps), and its section of ``kind``."""
    host = QWidget()
    qtbot.addWidget(host)
    panel = CombatantDetails(document, host)
    panel.set_combatant(combatant_id)
    return host, next(widget for widget in panel.findChildren(kind))


def _panel(qtbot: QtBot, document: EncounterDocument, combatant_id: str) -> tuple[QWidget, AimSection]:
    """The details panel showing ``combatant_id``, and its aim section."""
    return panel_section(qtbot, document, combatant_id, AimSection)


def test_the_window_finds_the_aim_section_by_game() -> None:
    assert AimSection in game_ui("sr3").sections()


def test_the_panel_aims_over_two_phases_caps_at_half_the_skill_and_undoes(qtbot: QtBot) -> None:
    history, ids = _fight()
    document = EncounterDocument(history)
    _kept, section = _panel(qtbot, document, ids["Mike"])
    assert section.state.text() == "Not aiming." and section.aim.isEnabled() and not section.lose.isEnabled()
    section.aim.click()
    assert section.state.text().splitlines() == ["1 simple action of aiming over 1 phase",
                                                 "TN −1 for the next shot (at most half the skill 4)."]
    document.apply(NextTurn())
    assert not section.aim.isEnabled()  # Ganger 1's phase: Mike aims only in his own
    while (document.state.clock.pass_no, current_name(document.history)) != (2, "Mike"):
        document.apply(NextTurn())
    assert section.aim.isEnabled()
    section.aim.click()
    assert section.state.text().splitlines() == [
        "2 simple actions of aiming over 2 phases", "TN −2 for the next shot (at most half the skill 4).",
        "Aimed over several phases: no combat pool dice, or the aim is lost."]
    section.aim.click()  # skill 4: the third action would not count; refused with the reason
    assert aim_of(document.state.combatant(ids["Mike"])).actions == 2
    document.undo_stack.undo()
    assert section.state.text().startswith("1 simple action of aiming")
    document.undo_stack.redo()
    section.lose.click()
    assert section.state.text() == "Not aiming."
    assert document.history.entries[-1].text() == "Mike's aim is lost."


def _mike_aimed_over_two_phases(qtbot: QtBot) -> tuple[EncounterDocument, dict[str, str], Sr3AttackDialog]:
    """Mike aimed in pass 1 and again in pass 2; his attack dialog with his Ares Predator."""
    history, ids = _fight()
    history.do(Sr3Aim(ids["Mike"]))
    _to_mike_in_pass_2(history)
    history.do(Sr3Aim(ids["Mike"]))
    document = EncounterDocument(history)
    dialog = Sr3AttackDialog(document, Roller.seeded(1))
    qtbot.addWidget(dialog)
    dialog.weapon_picker.setCurrentIndex(dialog.weapon_picker.findData("Ares Predator"))
    return document, ids, dialog


def test_the_dialog_drops_an_aim_over_several_phases_once_pool_dice_are_entered(qtbot: QtBot) -> None:
    document, ids, dialog = _mike_aimed_over_two_phases(qtbot)
    assert dialog.dice.skill.value() == 4 and dialog.situation.aim.value() == 2
    assert dialog.sheet is not None
    aimed_tn, aimed_odds = dialog.sheet.attack_tn.value, dialog.sheet.odds
    assert "Combat pool dice would lose the aim." in dialog.aim_note.text() and dialog.aim_note.isVisibleTo(dialog)
    dialog.dice.attack_pool.setValue(2)
    assert dialog.sheet is not None
    assert dialog.sheet.attack_tn.value == aimed_tn + 2  # the aim's −2 is gone from the TN and the odds
    assert dialog.sheet.odds != aimed_odds
    assert "the aim is lost" in dialog.aim_note.text()
    dialog.dice.attack_entry.set_faces_text("6,6,5,2,3,3")
    dialog.dice.resist_entry.set_faces_text("1,1,1,1")
    operation = dialog.operation()
    assert isinstance(operation, Sr3Attack) and operation.aim_actions == 0 and operation.attack_pool == 2
    dialog.resolve()
    assert aim_of(document.state.combatant(ids["Mike"])).actions == 0
    text = document.history.entries[-1].text()
    assert "Mike uses combat pool dice after aiming over several phases: the aim is lost." in text
    dialog.dice.attack_pool.setValue(0)
    assert dialog.situation.aim.value() == 0  # the next shot starts unaimed


def test_the_dialog_keeps_the_aim_without_pool_dice(qtbot: QtBot) -> None:
    _document, _ids, dialog = _mike_aimed_over_two_phases(qtbot)
    assert dialog.sheet is not None and {line.key: line.value for line in dialog.sheet.attack_tn.lines}["aim"] == -2
    dialog.dice.attack_entry.set_faces_text("6,6,5,2")
    dialog.dice.resist_entry.set_faces_text("1,1,1,1")
    operation = dialog.operation()
    assert isinstance(operation, Sr3Attack) and operation.aim_actions == 2 and operation.attack_pool == 0
