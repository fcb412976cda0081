"""A whole Institute fight driven through the window: add, roll, declare, shoot, throw, undo all, redo all."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QApplication, QScrollArea

from rules.encounter import Side, SlotKind, Status
from rules.serialize import to_data
from rules.systems.institut.combat import Defence, FireMode
from rules.systems.institut.ops import Blast, InstitutAttack, ThrowGrenade
from rules.systems.institut.pyramid import CLASSES
from tests.ui.conftest import WindowFactory
from ui.dialogs.add_combatants import AddCombatantsDialog
from ui.dialogs.harm import HarmDialog
from ui.dialogs.initiative import RollInitiativeDialog
from ui.games.institut.attack import InstitutAttackDialog
from ui.games.institut.panel import PyramidSection, RoundSection
from ui.main_window import MainWindow
from ui.theme import apply_theme

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")

SHOTS = os.environ.get("BOJOVKA_SHOTS")
AGENTS = {"Sokolov": {"agility": 3, "thinking": 3, "shooting": 5, "dodge": 3, "athletics": 2, "armor": 2},
          "Vera": {"agility": 3, "thinking": 2, "shooting": 4, "dodge": 4, "athletics": 3}}
BANDIT = {"agility": 2, "thinking": 2, "shooting": 3, "dodge": 2, "athletics": 1}


@pytest.fixture
def window(open_window: WindowFactory) -> MainWindow:
    return open_window("institut", "Depot", seed=11)


def _ids(window: MainWindow) -> dict[str, str]:
    return {c.name: c.id for c in window.document.state.combatants.values()}


def _trigger(window: MainWindow, name: str) -> None:
    window.actions_by_name[name].trigger()


def _wounds(window: MainWindow, name: str) -> list[int]:
    combatant = window.document.state.combatant(_ids(window)[name])
    return [combatant.boxes(key) for key in CLASSES]


def _current(window: MainWindow) -> str:
    actor = window.session.current_actor()
    return window.document.state.combatant(actor).name if actor else ""


def _add_everyone(window: MainWindow) -> None:
    dialog = AddCombatantsDialog(window.document, window.workspace.library, window)
    dialog.tabs.setCurrentWidget(dialog.quick_tab)
    quick = dialog.quick_tab
    defaults = {spec.key: spec.default for spec in window.document.system.attribute_specs()}
    for name, stats in AGENTS.items():
        quick.name_edit.setText(name)
        quick.side_combo.setCurrentIndex(quick.side_combo.findData(Side.PLAYER.value))
        for key, box in quick.attribute_boxes.items():
            box.setValue(stats.get(key, defaults[key]))
        dialog.add()
    quick.name_edit.setText("Bandit")
    quick.side_combo.setCurrentIndex(quick.side_combo.findData(Side.OPPONENT.value))
    for key, box in quick.attribute_boxes.items():
        box.setValue(BANDIT.get(key, defaults[key]))
    quick.count_box.setValue(2)
    dialog.add()
    dialog.close()


def _roll(window: MainWindow, typed: dict[str, str]) -> None:
    ids = _ids(window)
    dialog = RollInitiativeDialog(window.session, window)
    for name, faces in typed.items():
        dialog.fields[ids[name]].setText(faces)
    dialog.roll()
    assert dialog.result() == dialog.DialogCode.Accepted, dialog.message.text()


def _attack_dialog(window: MainWindow, target: str) -> InstitutAttackDialog:
    return InstitutAttackDialog(window.document, window.session.roller, window.session.current_actor(),
                                  _ids(window)[target], window)


def _select(window: MainWindow, name: str) -> tuple[PyramidSection, RoundSection]:
    window.table.select_combatant(_ids(window)[name])
    pyramid = window.details.findChildren(PyramidSection)[0]
    round_part = window.details.findChildren(RoundSection)[0]
    return pyramid, round_part


def _finish_round(window: MainWindow) -> None:
    for _step in range(20):
        if window.document.state.clock.current is None:
            return
        _trigger(window, "next_turn")
    raise AssertionError("the round does not end")


def _next_until(window: MainWindow, name: str) -> None:
    for _step in range(20):
        if _current(window) == name:
            return
        assert window.document.state.clock.current is not None, f"{name} never comes"
        _trigger(window, "next_turn")
    raise AssertionError(f"{name} never comes")


def _faces(count: int, face: int) -> str:
    return ", ".join([str(face)] * count)


def test_a_whole_institute_fight_through_the_window(window: MainWindow) -> None:
    empty = to_data(window.document.state)
    _add_everyone(window)
    assert list(_ids(window)) == ["Sokolov", "Vera", "Bandit 1", "Bandit 2"]

    # Round 1: the agents' pools are typed (36 and 25 beat any 4-dice bandit roll), the bandits' rolled.
    _roll(window, {"Sokolov": "6,6,6,6,6,6", "Vera": "5,5,5,5,5"})
    assert _current(window) == "Sokolov"
    _pyramid, round_part = _select(window, "Sokolov")
    round_part.declared.setValue(2)  # shoot and run: every roll −1
    round_part.declare.click()
    dialog = _attack_dialog(window, "Bandit 1")
    page = dialog.attack
    page.name.setText("AK-74")
    page.damage.setValue(7)
    page.burst.setText("3/2")
    page.mode.select(FireMode.BURST)
    assert page.attack_entry.dice_count() == 4  # Shooting 5, one extra action
    page.attack_entry.set_faces_text("6, 5, 4, 2")
    page.defence_entry.set_faces_text("3, 1")
    page.damage_entries[0].set_faces_text("4, 3, 2, 2, 1, 1, 1")  # 14: Medium, twice
    assert dialog.resolve_button.isEnabled(), dialog.status_label.text()
    dialog.resolve()
    dialog.close()
    assert _wounds(window, "Bandit 1") == [0, 2, 0, 0, 0]
    _trigger(window, "next_turn")

    assert _current(window) == "Vera"
    _pyramid, round_part = _select(window, "Vera")
    round_part.condition.setText("if a bandit shoots at me, I dodge")
    round_part.hold.click()
    dialog = _attack_dialog(window, "Bandit 2")
    dialog.attack.damage.setValue(5)
    dialog.attack.defence.select(Defence.DIFFICULTY)  # Bandit 2 has not seen her: it keeps its turn
    dialog.attack.difficulty.setValue(8)
    dialog.roll_remaining()  # rolled dice this time
    assert dialog.resolve_button.isEnabled(), dialog.status_label.text()
    dialog.resolve()
    dialog.close()
    assert isinstance(window.document.history.entries[-1].operation, InstitutAttack)
    _trigger(window, "next_turn")

    _next_until(window, "Bandit 2")  # Bandit 1 dodged out of turn: that was its only action
    dialog = _attack_dialog(window, "Vera")
    page = dialog.attack
    page.name.setText("sawn-off")
    page.damage.setValue(6)
    page.target_held.select("if a bandit shoots at me, I dodge")
    assert page.defence_entry.dice_count() == 3  # Vera's held dodge: Dodge 4, −1 for her second declaration
    page.attack_entry.set_faces_text(_faces(page.attack_entry.dice_count(), 6))
    page.defence_entry.set_faces_text("1, 1, 1")
    page.damage_entries[0].set_faces_text("5, 4, 3, 3, 2, 1")  # 18: Heavy
    assert dialog.resolve_button.isEnabled(), dialog.status_label.text()
    dialog.resolve()
    dialog.close()
    assert _wounds(window, "Vera") == [0, 0, 1, 0, 0]
    _finish_round(window)
    assert window.document.state.clock.round == 1 and window.document.state.clock.pass_no == 0

    # Round 2: everyone rolls. Bandit 2 gives the round up; Vera throws a timed grenade; it goes off at the end.
    _roll(window, {})
    assert window.document.state.clock.round == 2
    _pyramid, round_part = _select(window, "Bandit 2")
    round_part.skip.click()  # acting now or still to come: it gives the round up either way
    assert window.document.system.score_text(window.document.state.combatant(_ids(window)["Bandit 2"]),
                                             window.document.state).endswith("(skips)")
    _next_until(window, "Vera")
    dialog = _attack_dialog(window, "Bandit 1")
    dialog.tabs.setCurrentWidget(dialog.grenade)
    dialog.grenade.distance.setValue(8)
    assert dialog.grenade.throw_entry.dice_count() == 1  # Athletics 3 − 2 for her Heavy wound
    dialog.grenade.throw_entry.set_faces_text("5")  # 5 of 8: it lands 3 m off
    dialog.resolve()
    dialog.close()
    assert isinstance(window.document.history.entries[-1].operation, ThrowGrenade)
    for _step in range(10):
        slot = window.document.state.clock.current
        assert slot is not None, "the grenade's timer never comes"
        if slot.kind is SlotKind.TIMER:
            break
        _trigger(window, "next_turn")
    dialog = InstitutAttackDialog(window.document, window.session.roller, parent=window)
    assert dialog.tabs.currentWidget() is dialog.blast and dialog.blast.source.text() == "F-1"
    dialog.blast.damage.setValue(4)
    row = dialog.blast.victims.rows[_ids(window)["Bandit 1"]]
    row.caught.setChecked(True)
    row.faces.setText("6, 6, 5, 5")  # 22: Critical
    dialog.resolve()
    dialog.close()
    assert isinstance(window.document.history.entries[-1].operation, Blast)
    _finish_round(window)

    # Round 3: Bandit 2 gave up round 2, so it acts first whatever it rolls.
    _roll(window, {"Sokolov": "6,6,6,6,6,6"})
    assert _current(window) == "Bandit 2"
    HarmDialog(window.session, _ids(window)["Bandit 2"], parent=window).apply()  # one Light wound by hand
    pyramid, _round = _select(window, "Bandit 1")
    pyramid.pyramid.wound_requested.emit("mortal", 1)  # the GM clicks a Mortal box
    _finish_round(window)

    state = window.document.state
    assert _wounds(window, "Bandit 1") == [0, 2, 0, 1, 1]
    assert window.document.system.status(state.combatant(_ids(window)["Bandit 1"]), state) is Status.DYING
    assert _wounds(window, "Bandit 2")[0] >= 1 and _wounds(window, "Vera") == [0, 0, 1, 0, 0]
    assert state.clock.round == 3 and state.clock.pass_no == 0
    assert "Round 3" in window.round_label.text()
    final = to_data(state)

    while window.document.undo_stack.canUndo():
        _trigger(window, "back")
    assert to_data(window.document.state) == empty
    assert window.initiative_model.rowCount() == 0 and window.log_model.rowCount() == 0
    while window.document.undo_stack.canRedo():
        window.actions_by_name["redo"].trigger()
    assert to_data(window.document.state) == final


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_screenshot_of_the_sample_mid_fight(window: MainWindow, tmp_path: Path, theme: str) -> None:
    """The shipped sample at a laptop's size, Bandit 1 selected: its pyramid in the details dock."""
    application = QApplication.instance()
    assert isinstance(application, QApplication)
    apply_theme(application, theme)
    try:
        window.workspace.open_sample("institut")
        window.show_fight()
        window.resize(1366, 700)
        window.effects_dock.hide()  # the effects dock closed: the details dock gets the whole right side
        window.show()
        window.table.select_combatant("c4")
        QApplication.processEvents()
        assert window.details.combatant_id() == "c4"
        pyramid = window.details.findChildren(PyramidSection)[0]
        scroll = window.details.findChild(QScrollArea)
        assert scroll is not None
        content = scroll.widget()
        assert content is not None
        top = pyramid.mapTo(content, QPoint(0, 0)).y()
        scroll.verticalScrollBar().setValue(top - 6)  # the dock shows the pyramid, as a GM scrolls to it
        QApplication.processEvents()
        image = window.grab()
        for folder in filter(None, (str(tmp_path), SHOTS)):
            image.save(str(Path(folder) / f"institut-window-{theme}.png"))
        assert not image.isNull()
        assert window.document.state.combatant("c4").boxes("critical") == 1
    finally:
        apply_theme(application, "light")


def test_the_defence_choice_in_the_window_dialog(window: MainWindow) -> None:
    _add_everyone(window)
    _roll(window, {"Sokolov": "6,6,6,6,6,6", "Vera": "5,5,5,5,5"})
    dialog = _attack_dialog(window, "Bandit 2")
    dialog.attack.defence.select(Defence.BLOCK)
    assert dialog.attack.defence_skill.value() == 0  # bandits have no Boxing, Melee or Fencing
    dialog.close()
