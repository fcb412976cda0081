"""No game speaks another's language: a game without passes never reads "pass" or "phase" anywhere.

Each game's sample fight (:meth:`RuleSystem.sample`) is played through, and everything the GM reads about it is
gathered: every rendered log line and log heading, the status line after every step, the initiative table and
the effects table, the delay texts, the chart's titles and the printed summary. Parametrised over the registry,
so a sixth game is checked as it arrives.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from PySide6.QtCore import QModelIndex, Qt

from app.document import EncounterDocument
from app.summary import summary_document
from rules.errors import RulesError
from rules.history import History
from rules.report import log_groups, steps
from rules.systems import all_systems
from rules.systems.base import Hook, RuleSystem
from rules.text import _
from rules.timeline import Timeline, has_passes
from rules.turns import DelayAction, current_actor
from tests.ui.conftest import WindowFactory
from ui.charts.initiative_chart import turns_to_show
from ui.charts.initiative_series import series_for
from ui.models.effects_model import EffectsModel
from ui.models.initiative_model import InitiativeModel, delay_text
from ui.status import fight_status

SYSTEMS = list(all_systems().values())
IDS = [system.id for system in SYSTEMS]
#: SR3's words for its units of time, as they would leak into another game's texts.
PASS_WORDS = re.compile(r"\bpass(es)?\b|\bphases?\b", re.IGNORECASE)


def _model_texts(model: Any) -> list[str]:
    texts = [str(model.headerData(column, Qt.Orientation.Horizontal)) for column in range(model.columnCount())]
    for row in range(model.rowCount()):
        for column in range(model.columnCount()):
            index = model.index(row, column, QModelIndex())
            texts += [str(value) for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole)
                      if (value := index.data(role))]
    return texts


def _delayed(history: History, system: RuleSystem) -> list[str]:
    """The current actor of the sample's last state delays: its log line and its row in the table."""
    actor = current_actor(history.state)
    if actor is None:
        return []
    try:
        history.do(DelayAction(actor))
    except RulesError:
        return []
    table = InitiativeModel(EncounterDocument(history))
    return [line.render() for line in history.entries[-1].log] + _model_texts(table)


def everything_read(system: RuleSystem) -> list[str]:
    """Every text the GM reads about the game's sample fight, played to its end (and a delay after it)."""
    history = system.sample()
    units = system.time_units()
    texts: list[str] = []
    for step in steps(history):
        texts += [line.render() for line in step.log]
        texts.append(fight_status(step.after, system))
        texts += [delay_text(units, delay.into_next_pass, delay.pass_no) for delay in step.after.delays.values()]
    texts += [group.heading() for group in log_groups(history.entries, units)]
    texts += [delay_text(units, False, 1), _(units.delayed_tip), _(units.budget), _(units.position),
              _(units.delay_hint)]
    document = EncounterDocument(history)
    texts += _model_texts(InitiativeModel(document)) + _model_texts(EffectsModel(document))
    timeline = Timeline(history)
    timeline.sync()
    series = series_for(turns_to_show(timeline), units)
    texts += [series.title, *(band.title for band in series.bands)]
    texts.append(summary_document(history).toPlainText())
    return texts + _delayed(history, system)


@pytest.mark.parametrize("system", SYSTEMS, ids=IDS)
def test_a_game_without_passes_never_says_pass_or_phase(qapp: Any, system: RuleSystem) -> None:
    texts = everything_read(system)
    assert len(texts) > 20  # the sample was played: there is something to read
    if has_passes(system):
        assert any(PASS_WORDS.search(text) for text in texts)  # the check would see the words where they belong
        return
    leaks = [text for text in texts if PASS_WORDS.search(text)]
    assert leaks == [], f"{system.id}: {leaks[:3]}"


@pytest.mark.parametrize("system", SYSTEMS, ids=IDS)
def test_the_window_offers_delaying_into_a_pass_only_where_there_are_passes(open_window: WindowFactory,
                                                                           system: RuleSystem) -> None:
    window = open_window(system.id)
    assert window.actions_by_name["delay_next_pass"].isVisible() == has_passes(system)
    assert window.actions_by_name["surprise_test"].isVisible() == (system.id == "sr3")  # the only surprise rule
    tip = window.actions_by_name["delay"].toolTip()
    assert bool(PASS_WORDS.search(tip)) == has_passes(system), tip


@pytest.mark.parametrize("system", SYSTEMS, ids=IDS)
def test_a_game_with_pass_hooks_names_its_passes(system: RuleSystem) -> None:
    """The time units agree with the timing hooks: passes are described exactly where they fire."""
    assert has_passes(system) == (Hook.PASS_START in system.hooks())
