"""Rows follow the fight by insertions, removals and moves, never a reset: the helper every model uses, then the
initiative and effects tables as the GM adds and removes combatants and effects (and undoes it)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest
from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtTest import QAbstractItemModelTester
from pytestqt.modeltest import ModelTester
from pytestqt.qtbot import QtBot

from app.document import EncounterDocument
from app.library import EntryKind, LibraryEntry
from rules.combatants import AddCombatant, RemoveCombatant
from rules.effects import AddEffect, RemoveEffect
from rules.encounter import Effect, Side
from rules.history import Batch
from rules.systems import get_system
from tests.rules.sr3_scenes import eight_characters, roll_ones
from ui.models.base import sync_rows
from ui.models.effects_model import EffectsModel
from ui.models.library_model import LibraryModel, LibraryRole
from ui.widgets.effects_list import EffectsPanel
from ui.widgets.initiative_table import InitiativeTable

Index = QModelIndex | QPersistentModelIndex


@dataclass
class Signals:
    """Which structural signals a model emitted, in order."""

    seen: list[tuple[str, int, int]] = field(default_factory=list)

    def kinds(self) -> set[str]:
        return {kind for kind, _first, _last in self.seen}


@contextmanager
def recorded(model: Any) -> Iterator[Signals]:
    signals = Signals()
    slots = {
        "inserted": lambda _parent, first, last: signals.seen.append(("inserted", first, last)),
        "removed": lambda _parent, first, last: signals.seen.append(("removed", first, last)),
        "moved": lambda *_args: signals.seen.append(("moved", -1, -1)),
        "reset": lambda: signals.seen.append(("reset", -1, -1)),
    }
    model.rowsInserted.connect(slots["inserted"])
    model.rowsRemoved.connect(slots["removed"])
    model.layoutChanged.connect(slots["moved"])
    model.modelReset.connect(slots["reset"])
    try:
        yield signals
    finally:
        model.rowsInserted.disconnect(slots["inserted"])
        model.rowsRemoved.disconnect(slots["removed"])
        model.layoutChanged.disconnect(slots["moved"])
        model.modelReset.disconnect(slots["reset"])


# --- the helper -----------------------------------------------------------------------------------


class KeyList(QAbstractListModel):
    """The smallest model over keys: each row shows its key."""

    def __init__(self, keys: list[str]) -> None:
        super().__init__()
        self.keys = list(keys)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else len(self.keys)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and index.isValid() and 0 <= index.row() < len(self.keys):
            return self.keys[index.row()]
        return None

    def follow(self, new: list[str]) -> None:
        sync_rows(self, self.keys, new, self._show)

    def _show(self, keys: list[str]) -> None:
        self.keys = keys


def _random_rows(rng: random.Random) -> list[str]:
    keys = [f"k{number}" for number in range(rng.randint(0, 12))]
    rng.shuffle(keys)
    return keys[:rng.randint(0, len(keys))]


@pytest.mark.parametrize("seed", range(60))
def test_any_rows_become_any_other_rows_without_a_reset(seed: int) -> None:
    rng = random.Random(seed)
    old, new = _random_rows(rng), _random_rows(rng)
    model = KeyList(old)
    checker = ModelTester(None)
    checker.check(model, force_py=True)  # rechecks the whole model on every signal
    qt_checker = QAbstractItemModelTester(model, QAbstractItemModelTester.FailureReportingMode.Warning)
    kept = {key: QPersistentModelIndex(model.index(row, 0)) for row, key in enumerate(old)}
    with recorded(model) as signals:
        model.follow(new)
    checker._cleanup()
    del qt_checker
    assert model.keys == new
    assert "reset" not in signals.kinds()
    for key, index in kept.items():  # a selection on a row that stays stays on it
        assert index.isValid() == (key in new)
        if key in new:
            assert index.data() == key
    removed, inserted = set(old) - set(new), set(new) - set(old)
    assert sum(last - first + 1 for kind, first, last in signals.seen if kind == "removed") == len(removed)
    assert sum(last - first + 1 for kind, first, last in signals.seen if kind == "inserted") == len(inserted)
    assert ("moved" in signals.kinds()) == ([k for k in old if k in new] != [k for k in new if k in old])


def test_consecutive_rows_come_and_go_as_one_range() -> None:
    model = KeyList(["a", "b", "c", "d", "e"])
    with recorded(model) as signals:
        model.follow(["a", "x", "y", "d", "e", "z"])
    assert signals.seen == [("removed", 1, 2), ("inserted", 1, 2), ("inserted", 5, 5)]


# --- the initiative table -------------------------------------------------------------------------


def _fight() -> tuple[EncounterDocument, dict[str, str]]:
    history, ids = eight_characters()
    roll_ones(history, ids)
    return EncounterDocument(history), ids


def _table(qtbot: QtBot, document: EncounterDocument) -> InitiativeTable:
    from ui.models.initiative_model import InitiativeModel

    table = InitiativeTable(InitiativeModel(document))
    qtbot.addWidget(table)
    return table


def test_adding_and_removing_combatants_inserts_and_removes_rows(qtbot: QtBot, qtmodeltester: Any) -> None:
    document, ids = _fight()
    table = _table(qtbot, document)
    model = table.model()
    qtmodeltester.check(model, force_py=True)
    table.select_combatant(ids["Sharon"])
    rows = model.rowCount()
    grunts = Batch((AddCombatant("g1", "Grunt 1", Side.OPPONENT), AddCombatant("g2", "Grunt 2", Side.OPPONENT)))
    with recorded(model) as signals:
        document.apply(grunts)
        assert model.rowCount() == rows + 2 and table.selected_id() == ids["Sharon"]
        document.apply(RemoveCombatant(ids["Dave"]))
        assert model.rowCount() == rows + 1 and table.selected_id() == ids["Sharon"]
        document.undo_stack.undo()  # Dave is back
        document.undo_stack.undo()  # the grunts are gone
        assert model.rowCount() == rows and table.selected_id() == ids["Sharon"]
        document.undo_stack.redo()
        assert model.rowCount() == rows + 2 and table.selected_id() == ids["Sharon"]
    assert "reset" not in signals.kinds()
    assert [kind for kind, _first, _last in signals.seen if kind != "moved"] == [
        "inserted", "removed", "inserted", "removed", "inserted"]
    qtmodeltester.check(model)


def test_removing_the_selected_combatant_selects_nobody(qtbot: QtBot) -> None:
    document, ids = _fight()
    table = _table(qtbot, document)
    shown: list[object] = []
    table.selected.connect(shown.append)
    table.select_combatant(ids["Dave"])
    document.apply(RemoveCombatant(ids["Dave"]))
    assert table.selected_id() is None and shown[-1] is None  # not the neighbour Qt would pick
    document.undo_stack.undo()
    assert table.selected_id() is None
    table.select_combatant(ids["Mike"])
    document.apply(RemoveCombatant(ids["Dave"]))
    assert table.selected_id() == ids["Mike"]


def test_loading_another_fight_still_resets(qtbot: QtBot) -> None:
    document, _ids = _fight()
    table = _table(qtbot, document)
    other, _other_ids = eight_characters()
    with recorded(table.model()) as signals:
        document.replace_history(other, None)
    assert signals.kinds() == {"reset"}


# --- the effects table ----------------------------------------------------------------------------


def test_adding_and_removing_effects_inserts_and_removes_rows(qtbot: QtBot, qtmodeltester: Any) -> None:
    document, ids = _fight()
    panel = EffectsPanel(document)
    qtbot.addWidget(panel)
    model = panel.model
    qtmodeltester.check(model, force_py=True)
    for number, name in enumerate(("Bleeding", "Smoke", "Blessed"), start=1):
        document.apply(AddEffect(Effect(f"e{number}", name, ids["Dave"])))
    panel.table.selectRow(2)
    assert panel.selected_effect() == "e3"
    with recorded(model) as signals:
        document.apply(RemoveEffect("e1"))
        assert panel.selected_effect() == "e3" and model.rowCount() == 2
        document.apply(AddEffect(Effect("e4", "Stunned", ids["Mike"])))
        assert panel.selected_effect() == "e3" and model.rowCount() == 3
        document.undo_stack.undo()
        document.undo_stack.undo()  # Bleeding is back on top
        assert panel.selected_effect() == "e3" and model.index(0, 0).data() == "Bleeding"
    assert signals.seen == [("removed", 0, 0), ("inserted", 2, 2), ("removed", 2, 2), ("inserted", 0, 0)]
    assert panel.remove_button.isEnabled()
    qtmodeltester.check(model)


def test_an_effect_ticking_down_changes_data_not_rows(qtmodeltester: Any) -> None:
    from rules.encounter import Timing
    from rules.turns import NextTurn

    document, ids = _fight()
    model = EffectsModel(document)
    document.apply(AddEffect(Effect("e1", "Bleeding", ids["Dave"], expires=Timing("round_end"), remaining=3)))
    qtmodeltester.check(model)
    with recorded(model) as signals:
        document.apply(NextTurn())
    assert signals.seen == []


# --- the library results --------------------------------------------------------------------------


def _entry(entry_id: int, name: str) -> LibraryEntry:
    return LibraryEntry(id=entry_id, kind=EntryKind.NPC, system_id="sr3", name=name)


def test_library_results_keep_the_selected_entry_as_the_search_narrows(qtbot: QtBot, qtmodeltester: Any) -> None:
    from PySide6.QtWidgets import QTableView

    model = LibraryModel(get_system("sr3"))
    qtmodeltester.check(model, force_py=True)
    table = QTableView()
    qtbot.addWidget(table)
    table.setModel(model)
    model.set_entries([_entry(1, "Ganger"), _entry(2, "Troll bouncer"), _entry(3, "Troll shaman")])
    table.selectRow(2)
    with recorded(model) as signals:
        model.set_entries([_entry(2, "Troll bouncer"), _entry(3, "Troll shaman")])  # "troll"
        model.set_entries([_entry(3, "Troll shaman (edited)"), _entry(2, "Troll bouncer")])
    assert "reset" not in signals.kinds()
    assert table.selectionModel().selectedRows()[0].data(LibraryRole.ENTRY_ID) == 3
    assert table.selectionModel().selectedRows()[0].data() == "Troll shaman (edited)"
    qtmodeltester.check(model)


# --- the players' turn order ----------------------------------------------------------------------


def test_a_knocked_out_combatant_leaves_the_turn_order_as_a_removed_row(qtmodeltester: Any) -> None:
    from rules.combatants import SetDamage
    from ui.models.order_model import TurnOrderModel

    document, ids = _fight()
    model = TurnOrderModel(document)
    qtmodeltester.check(model, force_py=True)
    rows = model.rowCount()
    with recorded(model) as signals:
        document.apply(SetDamage(ids["Camilla"], "stun", 10))
        assert model.rowCount() == rows - 1
        document.undo_stack.undo()
        assert model.rowCount() == rows
    assert [kind for kind, _first, _last in signals.seen] == ["removed", "inserted"]
    qtmodeltester.check(model)
