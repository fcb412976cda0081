"""The Odds dock: each game's what-if questions, answered by the rules, switching with the encounter's game."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QCheckBox, QComboBox, QDockWidget, QSpinBox
from pytestqt.qtbot import QtBot

from app.document import EncounterDocument
from app.library import Library
from app.settings import load_settings
from app.workspace import Workspace
from rules import odds
from rules.dice import Roller
from rules.errors import RulesError
from rules.history import new_history
from rules.systems import all_systems
from rules.systems.clovek.dice import SkillKind
from rules.systems.clovek.odds import OUTCOMES, PowerSpec, action_power_odds, modified, outcome_odds, roll_odds
from rules.systems.clovek.rolls import PowerSource
from rules.systems.institut.odds import pool_total, wound_class_distribution
from rules.systems.institut.pyramid import CLASSES
from rules.systems.souboj import attack_odds, critical_multiplier
from rules.systems.souboj.model import Kind
from rules.systems.sr3.odds import attack_outcome_distribution, successes_distribution
from rules.systems.walka.contest import Outcome
from rules.systems.walka.odds import hit_points_lost, outcome_chances
from tests.ui.conftest import WindowFactory
from ui.charts import odds_dock
from ui.charts.odds_data import View, categories
from ui.charts.odds_dock import OddsDock
from ui.charts.odds_questions import Field, Question
from ui.games import game_ui
from ui.games.base import GameUi
from ui.games.sr3.odds import ORDER
from ui.main_window import MainWindow

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")

TOLERANCE = 1e-12


def dock_for(qtbot: QtBot, system_id: str) -> tuple[OddsDock, EncounterDocument]:
    document = EncounterDocument(new_history(system_id))
    dock = OddsDock(document)
    qtbot.addWidget(dock)
    return dock, document


def set_fields(dock: OddsDock, **values: int | bool) -> None:
    """Type numbers into the form as the GM does."""
    for key, value in values.items():
        widget = dock.inputs()[key]
        if isinstance(widget, QSpinBox):
            widget.setValue(int(value))
        elif isinstance(widget, QCheckBox):
            widget.setChecked(bool(value))


def choose(dock: OddsDock, key: str, index: int) -> None:
    widget = dock.inputs()[key]
    assert isinstance(widget, QComboBox)
    widget.setCurrentIndex(index)


def test_every_game_has_questions() -> None:
    for system_id in all_systems():
        assert game_ui(system_id).odds_questions(), system_id


def test_sr3_successes_against_a_target_number(qtbot: QtBot) -> None:
    dock, _document = dock_for(qtbot, "sr3")
    dock.select("test")
    set_fields(dock, dice=8, tn=6)
    assert dock.chart.heights() == pytest.approx(successes_distribution(8, 6), abs=TOLERANCE)
    dock.chart.set_view(View.BY_POOL)
    assert dock.chart.curves()[1].chances[7] == pytest.approx(
        odds.Dist(0, tuple(successes_distribution(8, 6))).at_least(2))


def test_sr3_staged_damage_question(qtbot: QtBot) -> None:
    dock, _document = dock_for(qtbot, "sr3")
    dock.select("attack")
    set_fields(dock, attack_dice=7, attack_tn=5, dodge_dice=2, dodge_tn=4, resist_dice=5, resist_tn=6)
    choose(dock, "level", 2)  # Serious
    expected = attack_outcome_distribution(7, 5, 2, 4, 5, 6, "S")
    assert dock.chart.heights() == pytest.approx([expected[key] for key in ORDER], abs=TOLERANCE)


def test_walka_attack_and_damage_pool(qtbot: QtBot) -> None:
    dock, _document = dock_for(qtbot, "walka")
    dock.select("contest")
    set_fields(dock, attack=13, attack_bonus=1, defence=9, defence_penalty=1)
    chances = outcome_chances(13, 9, 20, 1, 0, 0, 1)
    assert dock.chart.heights() == pytest.approx([chances[o] for o in (Outcome.MISSED, Outcome.DEFENDED,
                                                                       Outcome.HIT)], abs=TOLERANCE)
    set_fields(dock, defence=0)  # no defence: missed or hit
    assert dock.chart.data() is not None and dock.chart.data().names == ("Missed", "Hit")  # type: ignore[union-attr]
    dock.select("damage")
    set_fields(dock, pool=5)
    assert dock.chart.heights() == pytest.approx(list(hit_points_lost(5).probs), abs=TOLERANCE)
    assert "Hit Points lost: mean 2.50" in dock.chart.stats_text()


def test_souboj_hit_chance_and_damage(qtbot: QtBot) -> None:
    dock, _document = dock_for(qtbot, "souboj")
    set_fields(dock, attack=6, defence=8, strength=4, armor=2, critical=3)
    choose(dock, "kind", 0)  # ranged
    expected = attack_odds(6, 8, Kind.RANGED, 4, 2, critical_multiplier(3))
    assert dock.chart.heights() == pytest.approx([expected.miss, *expected.damage.values()], abs=TOLERANCE)


def test_institut_sum_against_a_difficulty_and_wound(qtbot: QtBot) -> None:
    dock, _document = dock_for(qtbot, "institut")
    dock.select("difficulty")
    set_fields(dock, dice=4, difficulty=15)
    total = pool_total(4)
    assert dock.chart.heights() == pytest.approx(list(total.probs), abs=TOLERANCE)
    dock.chart.set_view(View.AT_LEAST)
    assert dock.chart.heights()[15 - 4] == pytest.approx(total.at_least(15))
    assert dock.chart.stats_text().startswith("Reaches 15: ")
    dock.select("wound")
    set_fields(dock, dice=6)
    classes = wound_class_distribution(6)
    assert dock.chart.view() is View.AT_LEAST  # the view the GM chose stays
    chances = [classes[None], *(classes[k] for k in CLASSES)]
    assert dock.chart.heights() == pytest.approx([sum(chances[i:]) for i in range(len(chances))])
    dock.chart.set_view(View.EXACTLY)
    assert dock.chart.heights() == pytest.approx(chances)


def test_clovek_outcome_and_power(qtbot: QtBot) -> None:
    dock, _document = dock_for(qtbot, "clovek")
    dock.select("outcome")
    set_fields(dock, dice=5, dots=2, bonus=1, supernatural=True)
    choose(dock, "kind", 0)  # talent
    expected = outcome_odds(roll_odds(5, 2, SkillKind.TALENT, True), bonus=1)
    assert dock.chart.heights() == pytest.approx([expected[key] for key in OUTCOMES], abs=TOLERANCE)
    dock.select("power")
    set_fields(dock, dice=3, dots=1, power=4)
    choose(dock, "source", 1)  # equipment
    data = dock.chart.data()
    assert data is not None and data.measure is not None
    attack = roll_odds(3, 1, SkillKind.ABILITY)
    powers = action_power_odds(modified(attack, 0, 0), PowerSpec(PowerSource.EQUIPMENT, 4))
    assert data.measure.mean() == pytest.approx(sum(value * p for value, p in powers.items() if value > 0))


def test_the_dock_follows_the_encounters_game(qtbot: QtBot) -> None:
    workspace = Workspace(roller=Roller.seeded(1))
    try:
        dock = OddsDock(workspace.document)
        qtbot.addWidget(dock)
        workspace.new("sr3")
        assert dock.question() is not None and dock.question().key == "test"  # type: ignore[union-attr]
        set_fields(dock, dice=9)
        workspace.new("walka")
        assert [dock.question_box.itemData(i) for i in range(dock.question_box.count())] == ["contest", "damage"]
        workspace.new("walka")  # the same game: the questions stay as the GM left them
        assert dock.question_box.count() == 2
    finally:
        workspace.close(keep_journal=False)


def test_a_refused_value_gets_a_message_and_no_chart(qtbot: QtBot, monkeypatch: pytest.MonkeyPatch) -> None:
    def answer(values: object) -> object:
        raise RulesError("Roll from 0 to 200 dice, not 300.")

    refusing = Question("bad", "Bad", (Field("dice", "Dice", 3),), answer)  # type: ignore[arg-type]
    fine = Question("fine", "Fine", (Field("dice", "Dice", 3),),
                    lambda values: categories([("Hit", "Hit", 1.0)], "Outcome"))
    offering = GameUi("sr3")
    monkeypatch.setattr(offering, "odds_questions", lambda: [refusing, fine])
    monkeypatch.setattr(odds_dock, "game_ui", lambda _system: offering)
    dock, _document = dock_for(qtbot, "sr3")
    assert dock.chart.data() is None
    assert dock.message.text() == "Roll from 0 to 200 dice, not 300."
    assert dock.message.property("error") is True
    dock.select("fine")
    assert dock.chart.heights() == [1.0] and dock.message.isHidden()


def test_the_window_has_the_dock_behind_a_shortcut(open_window: WindowFactory) -> None:
    window = open_window(seed=1)
    action = window.actions_by_name["odds"]
    assert action.shortcut().toString() == "Ctrl+Shift+O"
    window.show()
    assert not window.odds_dock.isVisible()  # opened when wanted: the log keeps its room
    action.trigger()
    assert window.odds_dock.isVisible()
    assert window.odds.question() is not None


def drawn(window: MainWindow, dock: QDockWidget) -> bool:
    """The GM sees the dock: shown, on the window and not hidden behind another (a lost dock is "visible" at
    negative coordinates, with nothing of it on screen)."""
    QApplication.processEvents()
    return (dock.isVisible() and not dock.visibleRegion().isEmpty()
            and window.rect().contains(dock.geometry()) and dock.toggleViewAction().isChecked())


def reopened(qtbot: QtBot, tmp_path: Path) -> MainWindow:
    """A window as the next start-up builds it, from the settings the last one saved."""
    window = MainWindow(Workspace(library=Library(tmp_path / "library.sqlite3")))
    qtbot.addWidget(window)
    window.resize(1366, 768)
    window.show()
    return window


def test_the_odds_open_beside_the_log_and_it_stays_after_a_restart(qtbot: QtBot, tmp_path: Path) -> None:
    window = reopened(qtbot, tmp_path)  # a fresh BOJOVKA_HOME: no layout remembered
    assert not window.workspace.settings.window_state
    assert drawn(window, window.log_dock)
    window.actions_by_name["odds"].trigger()  # Ctrl+Shift+O
    assert drawn(window, window.odds_dock)
    assert drawn(window, window.log_dock)  # Qt lost the log's tab group when the odds were split beside it
    assert window.dockWidgetArea(window.odds_dock) == Qt.DockWidgetArea.BottomDockWidgetArea
    assert window.log_dock.geometry().right() < window.odds_dock.geometry().left()  # side by side
    window.close()
    again = reopened(qtbot, tmp_path)
    assert again.workspace.settings.window_state
    assert drawn(again, again.log_dock)
    assert drawn(again, again.odds_dock)
    again.log_dock.raise_()
    assert drawn(again, again.log_dock)


def test_a_layout_the_old_odds_dock_broke_is_not_restored(qtbot: QtBot, tmp_path: Path) -> None:
    window = reopened(qtbot, tmp_path)
    window.splitDockWidget(window.log_dock, window.odds_dock, Qt.Orientation.Horizontal)  # what Ctrl+Shift+O did
    window.odds_dock.show()
    assert not drawn(window, window.log_dock)
    state = bytes(window.saveState().toBase64().data()).decode()  # saved as the Bojovka before the fix saved it
    window.close()
    window.workspace.update_settings(window_state=state)
    assert load_settings().window_state == state
    again = reopened(qtbot, tmp_path)
    assert drawn(again, again.log_dock)
    assert not again.odds_dock.isVisible()


def test_clovek_odds_under_either_reading_of_the_rolling_decisions(qtbot: QtBot) -> None:
    # clovek.md "Rolling": floor 5 for every skill (default) or supernatural skills only; a supernatural skill 11+
    # rerolls only its successes (default) or literally every die at 15 − skill or more.
    from rules.systems.clovek.dice import RollRules

    dock, _document = dock_for(qtbot, "clovek")
    dock.select("outcome")
    set_fields(dock, dice=3, dots=7)
    default = outcome_odds(roll_odds(3, 7, SkillKind.ABILITY))
    assert dock.chart.heights() == pytest.approx([default[key] for key in OUTCOMES], abs=TOLERANCE)
    set_fields(dock, floor_supernatural_only=True)
    floor = outcome_odds(roll_odds(3, 7, SkillKind.ABILITY, rules=RollRules(floor_every_skill=False)))
    assert dock.chart.heights() == pytest.approx([floor[key] for key in OUTCOMES], abs=TOLERANCE)
    assert floor["failure"] != default["failure"]
    set_fields(dock, floor_supernatural_only=False, dots=12, supernatural=True, literal_reroll=True)
    literal = outcome_odds(roll_odds(3, 12, SkillKind.ABILITY, True, RollRules(literal_reroll=True)))
    assert dock.chart.heights() == pytest.approx([literal[key] for key in OUTCOMES], abs=TOLERANCE)
