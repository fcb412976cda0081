"""A whole Souboj fight driven through the main window: quick-add, initiative with a simultaneous group,
declarations and reactions in the details panel, attacks through the dialog (typed and rolled dice),
two rounds and time after the fight; then undo to the empty encounter and redo to the end."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication, QComboBox

from rules.encounter import Side, Status
from rules.serialize import to_data
from rules.systems.souboj.model import Action, Kind
from tests.ui.conftest import WindowFactory
from ui.dialogs.add_combatants import AddCombatantsDialog
from ui.dialogs.initiative import RollInitiativeDialog
from ui.games.souboj.attack import SoubojAttackDialog
from ui.games.souboj.panel import FightSection, RoundSection
from ui.main_window import MainWindow
from ui.models.initiative_model import Column
from ui.theme import apply_theme

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")

SHOTS = os.environ.get("BOJOVKA_SHOTS")
LAPTOP = (1366, 700)
PARTY = {"Aleš": {"strength": 8, "dexterity": 6, "level": 4, "hit_points": 24, "armor": 2, "weapon_strength": 6,
                  "weapon_defence": 3},
         "Bora": {"strength": 3, "dexterity": 5, "intelligence": 9, "level": 3, "hit_points": 14}}
BANDIT = {"strength": 6, "dexterity": 5, "level": 2, "hit_points": 16, "armor": 1, "weapon_strength": 4,
          "weapon_defence": 2}


@pytest.fixture
def window(open_window: WindowFactory) -> MainWindow:
    return open_window("souboj", "Ford", seed=11)


def _ids(window: MainWindow) -> dict[str, str]:
    return {c.name: c.id for c in window.document.state.combatants.values()}


def _trigger(window: MainWindow, name: str) -> None:
    window.actions_by_name[name].trigger()


def _add_everyone(window: MainWindow) -> None:
    dialog = AddCombatantsDialog(window.document, window.workspace.library, window)
    dialog.tabs.setCurrentWidget(dialog.quick_tab)
    quick = dialog.quick_tab
    for name, stats, side, count in (("Aleš", PARTY["Aleš"], Side.PLAYER, 1), ("Bora", PARTY["Bora"], Side.PLAYER, 1),
                                     ("Bandit", BANDIT, Side.OPPONENT, 2)):
        quick.name_edit.setText(name)
        quick.side_combo.setCurrentIndex(quick.side_combo.findData(side.value))
        quick.count_box.setValue(count)
        for key, value in stats.items():
            quick.attribute_boxes[key].setValue(value)
        dialog.add()
    dialog.close()


def _roll(window: MainWindow, **typed: str) -> None:
    ids = _ids(window)
    dialog = RollInitiativeDialog(window.session, window)
    for name, faces in typed.items():
        dialog.fields[ids[name]].setText(faces)
    dialog.roll()
    assert dialog.result() == dialog.DialogCode.Accepted


def _choose(combo: QComboBox, data: str) -> None:
    index = combo.findData(data)
    assert index >= 0, data
    combo.setCurrentIndex(index)
    combo.activated.emit(index)


def _round_section(window: MainWindow, name: str) -> RoundSection:
    window.table.select_combatant(_ids(window)[name])
    sections = [s for s in window.details._game_sections if isinstance(s, RoundSection)]
    return sections[0]


def _attack(window: MainWindow, attacker: str, target: str, attack: str = "", defence: str = "",
            kind: Kind | None = None, spell: int = 0, flat: bool = False) -> SoubojAttackDialog:
    ids = _ids(window)
    dialog = SoubojAttackDialog(window.document, window.session.roller, ids[attacker], ids[target], window)
    if kind is not None:
        dialog.kind.setCurrentIndex(dialog.kind.findData(kind.value))
    dialog.damage.spell.setValue(spell)
    dialog.damage.flat.setChecked(flat)
    if attack or defence:
        dialog.attack_entry.set_faces_text(attack)
        dialog.defence_entry.set_faces_text(defence)
    else:
        dialog.roll_remaining()
    assert dialog.resolve_button.isEnabled(), dialog.status_label.text()
    dialog.resolve()
    dialog.close()
    return dialog


def _initiative_texts(window: MainWindow) -> list[tuple[str, str]]:
    model = window.initiative_model
    return [(model.index(row, Column.NAME).data(), model.index(row, Column.INITIATIVE).data())
            for row in range(model.rowCount())]


def _screenshots(window: MainWindow, tmp_path: Path) -> None:
    application = QApplication.instance()
    assert isinstance(application, QApplication)
    window.resize(*LAPTOP)
    for theme in ("light", "dark"):
        apply_theme(application, theme)
        for folder in filter(None, (str(tmp_path), SHOTS)):
            assert window.grab().save(str(Path(folder) / f"souboj_window_{theme}.png"))
    apply_theme(application, "light")


def test_a_whole_souboj_fight_through_the_window(window: MainWindow, tmp_path: Path) -> None:
    empty = to_data(window.document.state)
    _add_everyone(window)
    ids = _ids(window)
    assert list(ids) == ["Aleš", "Bora", "Bandit 1", "Bandit 2"]

    # Round 1: the players type 4 and 4; the bandits roll 4 and 5 with this seed: a group of three at 4.
    _roll(window, Aleš="4", Bora="4")
    assert window.session.current_actor() == ids["Bandit 2"]
    _attack(window, "Bandit 2", "Bora")  # rolled dice
    _trigger(window, "next_turn")
    slot = window.document.state.clock.current
    assert slot is not None and slot.phase == 4 and set(slot.ids) == {ids["Aleš"], ids["Bora"], ids["Bandit 1"]}
    _choose(_round_section(window, "Bandit 1").action, Action.MELEE.value)
    _choose(_round_section(window, "Aleš").action, Action.MELEE.value)
    _choose(_round_section(window, "Bora").action, Action.MAGIC.value)
    assert _initiative_texts(window)[1:4] == [("Bora", "4 · 1/3 · magic"), ("Aleš", "4 · 2/3 · melee"),
                                              ("Bandit 1", "4 · 3/3 · melee")]
    _screenshots(window, tmp_path)
    _attack(window, "Bora", "Bandit 2", kind=Kind.MAGIC, spell=6)  # a spell: no dice
    _attack(window, "Aleš", "Bandit 1", "5", "2")  # 19 against 9: base 10 + 8 − 1 = 17 on 16: dying
    assert window.document.system.status(window.document.state.combatant(ids["Bandit 1"]),
                                         window.document.state) is Status.DYING
    _attack(window, "Bandit 1", "Aleš", "6", "1")  # simultaneous: the dying bandit's blow lands: 16 − 10 = 6 + 6 − 2
    assert window.document.state.combatant(ids["Aleš"]).boxes("wounds") == 10
    _trigger(window, "next_turn")
    assert window.document.state.clock.current is None and window.document.state.clock.round == 1

    # Round 2: Bora gives up her initiative for a reaction; Aleš knocks Bandit 2 out with a flat blow.
    _roll(window, Aleš="6", Bora="5")
    _round_section(window, "Bora").hold.click()
    assert window.session.current_actor() == ids["Aleš"]
    _attack(window, "Aleš", "Bandit 2", "6", "1", flat=True)  # 20 against 8: 12 + 8 − 1 = 19 shadow damage
    assert window.document.system.status(window.document.state.combatant(ids["Bandit 2"]),
                                         window.document.state) is Status.UNCONSCIOUS
    _trigger(window, "next_turn")
    assert window.document.state.clock.current is not None
    assert window.document.state.clock.current.ids == (ids["Bandit 1"],)  # dying: its last action, if Endurance
    assert "Bandit 1 is dying" in window.reminder.text()
    _trigger(window, "next_turn")

    # After the fight: ten minutes pass; three quarters of the shadow damage fade and Bandit 2 wakes up.
    window.table.select_combatant(ids["Aleš"])
    fight = next(s for s in window.details._game_sections if isinstance(s, FightSection))
    fight.seconds.setValue(600)
    fight.pass_time.click()

    state = window.document.state
    system = window.document.system
    bandit_2 = state.combatant(ids["Bandit 2"])
    assert (bandit_2.boxes("wounds"), bandit_2.boxes("shadow")) == (6, 19 - 14)
    assert system.status(bandit_2, state) is Status.ACTIVE
    assert system.status(state.combatant(ids["Bandit 1"]), state) is Status.DYING  # no countdown was set
    assert state.clock.round == 2 and state.clock.pass_no == 0
    assert "Round 2" in window.round_label.text()
    final = to_data(state)

    while window.document.undo_stack.canUndo():
        _trigger(window, "back")
    assert to_data(window.document.state) == empty
    assert window.initiative_model.rowCount() == 0 and window.log_model.rowCount() == 0
    while window.document.undo_stack.canRedo():
        window.actions_by_name["redo"].trigger()
    assert to_data(window.document.state) == final


def test_delay_and_let_ties_go_first_take_the_selected_member_of_the_group(window: MainWindow) -> None:
    _add_everyone(window)
    ids = _ids(window)
    _roll(window, Aleš="4", Bora="4")  # the bandits roll 4 and 5 with this seed
    _trigger(window, "next_turn")  # Bandit 2 (5) is done; Aleš, Bora and Bandit 1 act together at 4
    slot = window.document.state.clock.current
    assert slot is not None and slot.ids[0] == ids["Aleš"] and len(slot.ids) == 3
    window.table.select_combatant(ids["Bora"])
    _trigger(window, "delay")
    state = window.document.state
    assert list(state.delays) == [ids["Bora"]]  # the one the GM selected, not the first of the group
    assert state.clock.current is not None and state.clock.current.ids == (ids["Aleš"], ids["Bandit 1"])
    window.table.select_combatant(ids["Bandit 1"])
    _trigger(window, "yield_turn")
    assert window.document.state.clock.yielded == {ids["Bandit 1"]}
    window.table.select_combatant(ids["Bandit 2"])  # has acted: not one of those acting now
    _trigger(window, "delay")
    assert set(window.document.state.delays) == {ids["Bora"], ids["Aleš"]}  # so the current actor delays
