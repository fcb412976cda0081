"""Shadowrun 3's timed explosives from the details panel (sr3.md, Timed explosives: "They go off in the next pass at
the setter's phase; if the setter has no actions left this turn, at the end of the next pass … With a timer, the
moment is chosen when arming. Example: Sharon throws a grenade in phase 18 of pass 1 → it explodes in phase 8 of
pass 2")."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from app.document import EncounterDocument
from rules.encounter import SlotKind
from rules.errors import OperationError
from rules.history import History
from rules.systems.sr3 import grenade_timer
from rules.turns import NextTurn
from tests.rules.sr3_scenes import current_name, eight_characters, roll_ones
from tests.ui.test_sr3_aim import panel_section
from ui.games import game_ui
from ui.games.sr3.explosives import ON_A_TIMER, ExplosiveSection

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")


def _to_sharon() -> tuple[History, dict[str, str]]:
    history, ids = eight_characters()
    roll_ones(history, ids)
    while current_name(history) != "Sharon":
        history.do(NextTurn())
    return history, ids


def _section(qtbot: QtBot, document: EncounterDocument, combatant_id: str) -> tuple[QWidget, ExplosiveSection]:
    return panel_section(qtbot, document, combatant_id, ExplosiveSection)


def test_the_window_finds_the_explosives_section_by_game() -> None:
    assert ExplosiveSection in game_ui("sr3").sections()


def test_sharons_grenade_armed_in_phase_18_goes_off_in_phase_8_of_pass_2(qtbot: QtBot) -> None:
    history, ids = _to_sharon()
    document = EncounterDocument(history)
    _kept, section = _section(qtbot, document, ids["Sharon"])
    section.name.setText("Sharon's grenade")
    section.arm.click()
    grenade = next(iter(document.state.effects.values()))
    assert (grenade.name, grenade.due, grenade.source) == ("Sharon's grenade", (1, 2, 8), ids["Sharon"])
    while document.state.clock.current is not None and document.state.clock.current.kind is not SlotKind.TIMER:
        document.apply(NextTurn())
    assert (document.state.clock.pass_no, current_name(document.history)) == (2, "Sharon's grenade")


def test_a_timer_sets_its_own_moment_and_a_moment_already_past_is_refused(qtbot: QtBot) -> None:
    history, ids = _to_sharon()
    document = EncounterDocument(history)
    _kept, section = _section(qtbot, document, ids["Sharon"])
    section.when.select(ON_A_TIMER)
    section.pass_no.setValue(1)
    section.phase.setValue(20)  # phase 20 of pass 1 came before Sharon's 18
    section.arm.click()
    assert not section.problem.isHidden() and "has already come" in section.problem.text()
    assert not document.state.effects
    section.phase.setValue(5)
    section.arm.click()
    assert section.problem.isHidden()
    assert next(iter(document.state.effects.values())).due == (1, 1, 5)


def test_nothing_is_armed_before_initiative() -> None:
    history, ids = eight_characters()
    with pytest.raises(OperationError, match="Roll initiative first"):
        grenade_timer(history.state, ids["Sharon"], "Grenade", "e1")


def test_the_movement_section_shows_the_selected_characters_allowance(qtbot: QtBot) -> None:
    """Mike (37: four passes) with Quickness 6 runs 18 m a turn, 5 m a phase (18 ÷ 4 rounded up); a dwarf's run
    multiplier of 2 gives 12 m, 3 a phase."""
    from rules.combatants import SetAttribute
    from ui.games.sr3.movement import MovementSection

    history, ids = _to_sharon()
    history.do(SetAttribute(ids["Mike"], "quickness", 6))
    document = EncounterDocument(history)
    _kept, section = panel_section(qtbot, document, ids["Mike"], MovementSection)
    assert section.allowance.text() == ("Walk 6 m, run 18 m a turn. In each of its 4 passes: walk 2 m, run 5 m a "
                                        "phase.")
    document.apply(SetAttribute(ids["Mike"], "run_multiplier", 2))
    assert "run 12 m a turn" in section.allowance.text() and "run 3 m a phase" in section.allowance.text()
