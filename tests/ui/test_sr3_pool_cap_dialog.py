"""The attack dialog's pool fields follow the encounter's SR3 core option: pool dice per test at most the skill."""

from __future__ import annotations

from pytestqt.qtbot import QtBot

from app.document import EncounterDocument
from rules.combatants import SetOption
from rules.dice import Roller
from rules.history import Operation
from rules.systems.sr3.system import POOL_AT_MOST_SKILL
from tests.ui.test_sr3_attack import _katana, fight
from ui.games.sr3.attack import MELEE, Sr3AttackDialog


def _capped(_ids: dict[str, str]) -> Operation:
    return SetOption(POOL_AT_MOST_SKILL, True)


def _dialog(qtbot: QtBot, document: EncounterDocument) -> Sr3AttackDialog:
    dialog = Sr3AttackDialog(document, Roller.seeded(1))
    qtbot.addWidget(dialog)
    return dialog


def test_the_attackers_pool_is_capped_at_the_skill_and_the_note_says_why(qtbot: QtBot) -> None:
    document, _ids = fight(_capped)
    dialog = _dialog(qtbot, document)
    dice = dialog.dice
    dice.skill.setValue(2)
    dice.attack_pool.setValue(5)
    assert (dice.attack_pool.maximum(), dice.attack_pool.value()) == (2, 2)
    assert dice.attacker_pool_note.text() == "at most 2"
    assert dice.attacker_pool_note.toolTip().startswith("6 left. At most 2 combat pool dice")
    assert "no more pool dice in a test than the skill's rating" in dice.attacker_pool_note.toolTip()
    dice.skill.setValue(6)
    assert dice.attack_pool.maximum() == 6 and dice.attacker_pool_note.text() == "6 left"
    assert dice.attacker_pool_note.toolTip() == ""


def test_without_the_option_the_pool_left_is_the_only_limit(qtbot: QtBot) -> None:
    document, _ids = fight()
    dialog = _dialog(qtbot, document)
    dialog.dice.skill.setValue(2)
    assert dialog.dice.attack_pool.maximum() == 6 and dialog.dice.attacker_pool_note.text() == "6 left"


def test_melee_caps_both_fighters_pool_at_their_skill(qtbot: QtBot) -> None:
    document, _ids = fight(_katana, _capped)
    dialog = _dialog(qtbot, document)
    dialog.set_kind(MELEE)
    melee = dialog.melee
    melee.attack.skill.setValue(3)
    melee.defence.skill.setValue(1)
    assert (melee.attack_pool.maximum(), melee.defence_pool.maximum()) == (3, 1)
    assert melee.attack_pool.suffix() == melee.defence_pool.suffix() == " (skill cap)"
    assert "no more combat pool dice in a test than the skill's rating" in melee.defence_pool.toolTip()
    melee.defence.skill.setValue(6)
    assert (melee.defence_pool.maximum(), melee.defence_pool.suffix(), melee.defence_pool.toolTip()) == (6, "", "")
