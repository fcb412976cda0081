"""The Souboj attack dialog with saved weapons: the picker fills the form, rounds count down, the last weapon and
target come back, and Repeat last attack (Shift+A, Enter) takes an NPC's turn to damage on its target."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialog, QWidget
from pytestqt.qtbot import QtBot

from app.document import EncounterDocument
from rules.combatants import AddCombatant
from rules.dice import Roller
from rules.encounter import Side, Weapon, frozen_map
from rules.systems.souboj import SoubojAttack
from rules.systems.souboj.model import Kind
from rules.systems.souboj.sample import sample
from rules.turns import NextTurn, RollInitiative
from rules.weapons import SetWeapons
from ui.games.souboj.attack import SoubojAttackDialog
from ui.main_window import MainWindow

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")

Opener = Callable[..., MainWindow]
ALES, BORA, CYRIL, CHIEF, BANDIT_1 = "c1", "c2", "c3", "c4", "c5"
DAGGER = Weapon("Dagger", frozen_map({"kind": "thrown", "weapon_strength": 2, "weapon_defence": 1}))
PISTOL = Weapon("Pistol", frozen_map({"kind": "firearm", "weapon_strength": 7, "magazine": 2, "rounds": 2}))
LONG_SWORD = Weapon("Long sword", frozen_map({"kind": "melee", "weapon_strength": 6, "weapon_defence": 3}))


@pytest.fixture
def document() -> EncounterDocument:
    """The shipped sample, Aleš carrying a dagger, a two-shot pistol and his long sword (in that order)."""
    document = EncounterDocument(sample())
    document.apply(SetWeapons(ALES, (DAGGER, PISTOL, LONG_SWORD)))
    return document


def _dialog(qtbot: QtBot, document: EncounterDocument, attacker: str | None = ALES,
            target: str | None = BANDIT_1) -> SoubojAttackDialog:
    dialog = SoubojAttackDialog(document, Roller.seeded(5), attacker, target)
    qtbot.addWidget(dialog)
    return dialog


def _pick(dialog: SoubojAttackDialog, name: str) -> None:
    index = dialog.weapon_picker.findData(name)
    assert index >= 0, name
    dialog.weapon_picker.setCurrentIndex(index)


def _form(dialog: SoubojAttackDialog) -> tuple[str, str, int, int]:
    """Kind, weapon name, attack and defence added to the 1d6."""
    return dialog.kind.currentData(), dialog.weapon.text(), dialog.attack_box.bonus(), dialog.defence_box.bonus()


def test_the_picker_is_in_the_form_and_lists_the_weapons_with_the_rounds_beside_it(
        qtbot: QtBot, document: EncounterDocument) -> None:
    dialog = _dialog(qtbot, document)
    dialog.show()
    qtbot.waitExposed(dialog)
    assert dialog.weapon_picker.isVisible() and dialog.isAncestorOf(dialog.weapon_picker)
    items = [dialog.weapon_picker.itemText(row) for row in range(dialog.weapon_picker.count())]
    assert items == ["Dagger (thrown 2/1)", "Pistol (firearm 7)", "Long sword (melee 6/3)", "Typed in the form"]
    assert dialog.weapon_picker.currentData() == "Dagger"  # no attack yet: the first
    assert dialog.ammunition.text() == ""
    _pick(dialog, "Pistol")
    assert dialog.ammunition.text() == "2/2 rounds" and dialog.ammunition.isVisible()


def test_choosing_a_weapon_fills_every_weapon_input_and_the_gm_may_still_change_them(
        qtbot: QtBot, document: EncounterDocument) -> None:
    dialog = _dialog(qtbot, document)
    # The dagger, thrown: 1d6 + Dexterity 6 + 2 against Bandit 1's 1d6 + Dexterity 5 + short sword's defence 2.
    assert _form(dialog) == (Kind.THROWN.value, "Dagger", 8, 7)
    assert not dialog.weapon.isEnabled()  # the saved weapon's name is the picker's
    _pick(dialog, "Pistol")  # a firearm: its strength only, against Dexterity only
    assert _form(dialog) == (Kind.FIREARM.value, "Pistol", 7, 5)
    _pick(dialog, "Long sword")  # face to face: Strength 8 + 6
    assert _form(dialog) == (Kind.MELEE.value, "Long sword", 14, 7)
    dialog.attack_box.spins["weapon_strength"].setValue(9)  # the GM's own number for this blow
    dialog.attack_entry.set_faces_text("3")
    dialog.defence_entry.set_faces_text("3")
    operation = dialog.operation()
    assert isinstance(operation, SoubojAttack)
    assert (operation.weapon, operation.weapon_kind, operation.attack_bonus) == ("Long sword", Kind.MELEE, 17)


def test_a_spell_fills_its_damage(qtbot: QtBot, document: EncounterDocument) -> None:
    dialog = _dialog(qtbot, document, attacker=BORA, target=CHIEF)
    assert dialog.weapon_picker.currentText() == "Fire bolt (magic, 7 damage)"
    assert (dialog.kind.currentData(), dialog.damage.spell.value()) == (Kind.MAGIC.value, 7)
    assert [row.label for row in dialog.outcomes()] == ["7 damage"]


def test_typed_in_the_form_leaves_the_inputs_as_typed(qtbot: QtBot, document: EncounterDocument) -> None:
    dialog = _dialog(qtbot, document)
    _pick(dialog, "Pistol")
    dialog.attack_box.spins["weapon_strength"].setValue(4)
    _pick(dialog, "")  # Typed in the form
    assert dialog.weapon_picker.currentText() == "Typed in the form"
    assert _form(dialog) == (Kind.FIREARM.value, "Pistol", 4, 5)
    assert dialog.weapon.isEnabled() and dialog.ammunition.text() == ""
    dialog.weapon.setText("Old blunderbuss")
    dialog.attack_entry.set_faces_text("6")
    dialog.defence_entry.set_faces_text("1")
    operation = dialog.operation()
    assert isinstance(operation, SoubojAttack) and operation.weapon == "Old blunderbuss"
    dialog.resolve()
    pistol = document.state.combatant(ALES).weapon("Pistol")
    assert pistol is not None and pistol.number("rounds") == 2  # typed by hand: no saved weapon fired


def test_the_rounds_count_down_and_an_empty_weapon_stops_resolve_before_the_dice(
        qtbot: QtBot, document: EncounterDocument) -> None:
    dialog = _dialog(qtbot, document)
    _pick(dialog, "Pistol")
    for left in (1, 0):
        dialog.attack_entry.set_faces_text("2")
        dialog.defence_entry.set_faces_text("5")
        dialog.resolve()
        pistol = document.state.combatant(ALES).weapon("Pistol")
        assert pistol is not None and pistol.number("rounds") == left
        dialog.next_attack()
        assert dialog.weapon_picker.currentData() == "Pistol"
        assert dialog.ammunition.text() == f"{left}/2 rounds"
    assert dialog.status_label.text() == "Pistol has 0 rounds left, not enough for 1: reload first."
    dialog.attack_entry.set_faces_text("2")
    dialog.defence_entry.set_faces_text("5")
    assert not dialog.resolve_button.isEnabled()
    _pick(dialog, "Long sword")  # another weapon: the attack can go on
    assert dialog.status_label.text() != "Pistol has 0 rounds left, not enough for 1: reload first."
    assert dialog.resolve_button.isEnabled()


def test_the_next_dialog_opens_with_the_last_weapon_and_target(qtbot: QtBot, document: EncounterDocument) -> None:
    fresh = _dialog(qtbot, document, target=None)
    assert fresh.weapon_picker.currentData() == "Dagger" and fresh.target.currentData() == CHIEF  # the first foe
    dialog = _dialog(qtbot, document, target="c6")
    _pick(dialog, "Long sword")
    dialog.attack_entry.set_faces_text("1")
    dialog.defence_entry.set_faces_text("6")
    dialog.resolve()
    again = _dialog(qtbot, document, target=None)  # the window passes no row: the last attack's target
    assert (again.weapon_picker.currentData(), again.target.currentData()) == ("Long sword", "c6")
    assert _form(again)[:2] == (Kind.MELEE.value, "Long sword")
    chief = _dialog(qtbot, document, attacker=CHIEF, target=None)  # the sample's crossbow shot at Cyril
    assert (chief.weapon_picker.currentData(), chief.target.currentData()) == ("Crossbow", CYRIL)
    assert chief.ammunition.text() == "0/1 round"


def test_the_targets_weapon_defence_is_its_last_used_weapons(qtbot: QtBot, document: EncounterDocument) -> None:
    # The chief shot his crossbow last: no weapon defence; Aleš, who carries the dagger first, defends with 1.
    assert _dialog(qtbot, document, target=CHIEF).defence_box.bonus() == 6 + 0
    assert _dialog(qtbot, document, attacker=CHIEF, target=ALES).defence_box.bonus() == 6 + 1


# --- Repeat last attack through the window ---------------------------------------------------------------------

SHORT_SWORD = Weapon("Short sword", frozen_map({"kind": "melee", "weapon_strength": 4, "weapon_defence": 2}))
BANDIT = frozen_map({"strength": 6, "dexterity": 5, "hit_points": 16})


def _round(window: MainWindow, **faces: int) -> None:
    ids = {c.name: c.id for c in window.document.state.combatants.values()}
    window.document.apply(RollInitiative(frozen_map({ids[name]: (face,) for name, face in faces.items()}),
                                         frozen_map()))


def _finish_round(window: MainWindow) -> None:
    while window.document.state.clock.current is not None:
        window.document.apply(NextTurn())


def _focused() -> QWidget:
    widget = QApplication.focusWidget()
    assert widget is not None
    return widget


def _keys_in_the_attack(window: MainWindow, qtbot: QtBot, act: Callable[[SoubojAttackDialog], None]) -> list[str]:
    """Shift+A on the table as the GM presses it, then ``act`` in the modal dialog it opens (closed after)."""
    met: list[str] = []

    def inside(tries: int = 0) -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QDialog):
            if tries < 100:
                QTimer.singleShot(10, lambda: inside(tries + 1))
            return
        if not dialog.isActiveWindow() and tries < 100:
            QTimer.singleShot(10, lambda: inside(tries + 1))
            return
        met.append(type(dialog).__name__)
        try:
            assert isinstance(dialog, SoubojAttackDialog)
            act(dialog)
        finally:
            if dialog.isVisible():
                dialog.reject()

    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    QTimer.singleShot(0, inside)
    QTest.keyClick(window.table, Qt.Key.Key_A, Qt.KeyboardModifier.ShiftModifier)
    return met


def _shown(window: MainWindow, qtbot: QtBot) -> MainWindow:
    with qtbot.waitExposed(window):
        window.show()
    window.activateWindow()
    window.table.setFocus()
    return window


def test_repeat_last_attack_is_shift_a_then_enter_from_the_npcs_turn_to_the_damage(open_window: Opener,
                                                                                  qtbot: QtBot) -> None:
    window = _shown(open_window("souboj", "Barn"), qtbot)
    document = window.document
    document.apply(AddCombatant("c1", "Aleš", Side.PLAYER, frozen_map({"dexterity": 6, "hit_points": 30})))
    document.apply(AddCombatant("c2", "Peasant", Side.PLAYER, frozen_map({"dexterity": 0, "hit_points": 40})))
    document.apply(AddCombatant("c3", "Bandit", Side.OPPONENT, BANDIT, weapons=(DAGGER, SHORT_SWORD)))
    _round(window, Bandit=6, Aleš=3, Peasant=1)
    # Round 1: the bandit strikes the peasant with his short sword (not his first weapon, not the first foe).
    document.apply(SoubojAttack("c3", "c2", Kind.MELEE, "Short sword", 10, 0, 1, 6))
    _finish_round(window)
    _round(window, Bandit=5, Aleš=3, Peasant=1)
    assert window.session.current_actor() == "c3"
    hurt_before = document.state.combatant("c2").boxes("wounds")
    seen: dict[str, object] = {}

    def act(dialog: SoubojAttackDialog) -> None:
        seen["form"] = (dialog.attacker.currentData(), dialog.weapon_picker.currentData(),
                        dialog.target.currentData(), dialog.attack_box.bonus(), dialog.defence_box.bonus())
        seen["rolled"] = dialog.attack_entry.is_complete() and dialog.defence_entry.is_complete()
        QTest.keyClick(_focused(), Qt.Key.Key_Return)  # the second input: Enter resolves
        seen["result"] = dialog.result_label.text().splitlines()[0]

    assert _keys_in_the_attack(window, qtbot, act) == ["SoubojAttackDialog"]
    # 1d6 + Strength 6 + 4 against the peasant's 1d6 + 0: a hit whatever the dice.
    assert seen["form"] == ("c3", "Short sword", "c2", 10, 0) and seen["rolled"] is True
    assert seen["result"] == "Bandit attacks Peasant with Short sword (Melee (face to face))."
    assert document.state.combatant("c2").boxes("wounds") > hurt_before


def test_an_empty_crossbow_is_reloaded_with_shift_r_then_repeated_with_shift_a_and_enter(open_window: Opener,
                                                                                      qtbot: QtBot) -> None:
    window = _shown(open_window(sample="souboj"), qtbot)
    document = window.document
    _finish_round(window)
    _round(window, **{"Chief Radim": 6, "Aleš": 3, "Bora": 2, "Cyril": 1, "Bandit 1": 1, "Bandit 2": 1})
    assert window.session.current_actor() == CHIEF
    window.table.select_combatant(CHIEF)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow)
    QTest.keyClick(window.table, Qt.Key.Key_R, Qt.KeyboardModifier.ShiftModifier)  # the one input the bolt costs
    crossbow = document.state.combatant(CHIEF).weapon("Crossbow")
    assert crossbow is not None and crossbow.number("rounds") == 1
    (action,) = document.system.action_budget(document.state.combatant(CHIEF), document.state)
    assert action.left == 0  # the reload spent the chief's action (the Decision's default)
    entries = len(document.history.entries)
    seen: dict[str, object] = {}

    def act(dialog: SoubojAttackDialog) -> None:
        seen["form"] = (dialog.weapon_picker.currentData(), dialog.target.currentData(), dialog.ammunition.text())
        QTest.keyClick(_focused(), Qt.Key.Key_Return)

    assert _keys_in_the_attack(window, qtbot, act) == ["SoubojAttackDialog"]
    assert seen["form"] == ("Crossbow", CYRIL, "1/1 round")
    assert len(document.history.entries) == entries + 1
    assert isinstance(document.history.entries[-1].operation, SoubojAttack)
    crossbow = document.state.combatant(CHIEF).weapon("Crossbow")
    assert crossbow is not None and crossbow.number("rounds") == 0
