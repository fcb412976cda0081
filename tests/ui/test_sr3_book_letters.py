"""SR3 damage codes in the window, typed and shown in the letters of the GM's book (sr3.md: "the Czech L/M/V/S
(lehké, mírné, vážné, smrtelné) has S = Deadly, V = Serious (Czech 11V = 11S, Czech 9S = 9D)"), stored in English."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from app.i18n import install_language
from rules.dice import Roller
from rules.encounter import Weapon, frozen_map
from rules.systems import get_system
from rules.systems.sr3.weapons import DAMAGE
from tests.ui.test_sr3_attack import fight
from ui.games.sr3.attack import Sr3AttackDialog
from ui.models.weapons_model import WeaponsModel

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")


@pytest.fixture
def czech() -> Iterator[None]:
    install_language("cs")
    yield
    install_language("en")


def _dialog(qtbot: QtBot) -> Sr3AttackDialog:
    document, _ids = fight()
    dialog = Sr3AttackDialog(document, Roller.seeded(1))
    qtbot.addWidget(dialog)
    return dialog


def test_the_attack_dialog_reads_czech_9s_as_deadly_and_says_so_before_it_is_applied(
        czech: None, qtbot: QtBot) -> None:
    dialog = _dialog(qtbot)
    dialog.weapon.code.setText("9S")  # Czech 9S = 9D
    assert dialog.weapon.code_error.isHidden()
    assert dialog.sheet is not None and (dialog.sheet.power, dialog.sheet.level) == (9, "D")
    assert "Smrtelné" in dialog.damage_label.text()  # the level read, named before Resolve
    dialog.weapon.code.setText("11V")  # Czech 11V = 11S
    assert dialog.sheet is not None and (dialog.sheet.power, dialog.sheet.level) == (11, "S")
    assert "Vážné" in dialog.damage_label.text()
    dialog.weapon.code.setText("9X")
    assert "(L, M, V, S)" in dialog.weapon.code_error.text()  # the refusal names the Czech letters


def test_a_saved_weapon_fills_the_field_in_czech_letters(czech: None, qtbot: QtBot) -> None:
    dialog = _dialog(qtbot)
    dialog.weapon.fill(Weapon("Ares Predator", frozen_map({DAMAGE: "9D", "modes": "SA"})))
    assert dialog.weapon.code.text() == "9S"
    assert dialog.sheet is not None and dialog.sheet.level == "D"


def test_the_weapons_table_shows_czech_letters_and_keeps_english_ones(czech: None) -> None:
    system = get_system("sr3")
    model = WeaponsModel(system.weapon_fields(), None, system.shown_weapon_value, system.typed_weapon_value)
    model.set_weapons([Weapon("Ares Predator", frozen_map({DAMAGE: "9D"}))])
    cell = model.index(0, model.column_of(DAMAGE))
    assert cell.data(Qt.ItemDataRole.DisplayRole) == "9S"
    assert cell.data(Qt.ItemDataRole.EditRole) == "9S"
    assert model.setData(cell, "11V")
    assert model.weapons()[0].value(DAMAGE) == "11S"
    assert cell.data(Qt.ItemDataRole.DisplayRole) == "11V"
    assert model.setData(cell, "11Q")  # kept as typed: the editor's check refuses it, saying why
    assert model.weapons()[0].value(DAMAGE) == "11Q"
