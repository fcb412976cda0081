"""The initiative model's cell cache and its narrow repaints: what a row shows is worked out once per change of
that row, a turn within a pass repaints only the rows whose turn began or ended, and the pass order is worked
out once per state. Every game's sample is played through and read against a model built afresh."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QIcon

from app.document import EncounterDocument
from app.samples import sample_path
from app.storage import load_encounter
from rules.combatants import AddCombatant, ApplyHarm, RemoveCombatant
from rules.dice import Roller
from rules.errors import RulesError
from rules.turns import NextTurn, pass_slots, played_order, roll_initiative
from tests.rules.sr3_scenes import eight_characters, roll_ones
from ui.models.initiative_model import Column, InitiativeModel, Role

GAMES = ("sr3", "walka", "souboj", "institut", "clovek")
ROLES = (*Role, Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole, Qt.ItemDataRole.FontRole,
         Qt.ItemDataRole.ForegroundRole, Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.DecorationRole,
         Qt.ItemDataRole.TextAlignmentRole, Qt.ItemDataRole.AccessibleTextRole,
         Qt.ItemDataRole.AccessibleDescriptionRole)


def _shown(value: Any) -> Any:
    return ("icon", not value.isNull()) if isinstance(value, QIcon) else value


def _rows(model: InitiativeModel) -> dict[str, list[Any]]:
    """Every cell of every row in every role, by combatant."""
    return {model.combatant_id(row): [_shown(model.index(row, column).data(role)) for column in Column
                                      for role in ROLES]
            for row in range(model.rowCount())}


def _step(document: EncounterDocument, number: int) -> None:
    """Next (rolling a new round when one ends), damage, undo and redo, in turn; every sixth step a newcomer joins
    (a copy of someone, by the roster's add) and every ninth one leaves."""
    state = document.state
    if number % 6 == 5:
        model = next(iter(state.combatants.values()))
        document.apply(AddCombatant(f"new{number}", f"Newcomer {number}", model.side, model.attributes))
        return
    if number % 9 == 8 and len(state.combatants) > 2:
        document.apply(RemoveCombatant(list(state.combatants)[number % len(state.combatants)]))
        return
    kind = number % 4
    if kind == 0:
        if state.clock.current is None:
            document.apply(roll_initiative(state, document.system, Roller.seeded(number)))
        else:
            document.apply(NextTurn())
    elif kind == 1:
        ids = list(state.combatants)
        target = state.combatants[ids[number % len(ids)]]
        tracks = document.system.tracks(target, state)
        if tracks:
            document.apply(ApplyHarm(target.id, tracks[0].key, 1))
    elif kind == 2:
        document.undo_stack.undo()
    else:
        document.undo_stack.redo()


@pytest.mark.parametrize("game", GAMES)
def test_cached_cells_match_a_fresh_model_and_changed_rows_are_announced(game: str) -> None:
    """Through Next, damage, undo and redo, the model's cached cells read as a model built on the state does, and
    every row that reads differently after a change was announced (dataChanged, a move, an insertion)."""
    document = EncounterDocument(load_encounter(sample_path(game)))
    model = InitiativeModel(document)
    announced: set[str] = set()
    everything: list[bool] = []
    model.dataChanged.connect(lambda first, last, *_roles: announced.update(
        model.combatant_id(row) for row in range(first.row(), last.row() + 1)))
    for signal in (model.layoutChanged, model.rowsInserted, model.rowsRemoved, model.modelReset):
        signal.connect(lambda *_args: everything.append(True))
    before = _rows(model)
    for number in range(40):
        announced.clear()
        everything.clear()
        try:
            _step(document, number)
        except RulesError:  # a game refusing a step (a sample's own state) is not what is tested here
            continue
        after = _rows(model)
        fresh = InitiativeModel(document)
        assert after == _rows(fresh), f"step {number}: cached cells differ from a fresh model's"
        fresh.deleteLater()
        if not everything:
            changed = {cid for cid, cells in after.items() if before.get(cid) != cells}
            assert changed <= announced, f"step {number}: rows changed without dataChanged: {changed - announced}"
        before = after


def test_a_turn_within_a_pass_repaints_only_the_rows_whose_turn_began_or_ended() -> None:
    history, ids = eight_characters()
    document = EncounterDocument(history)
    roll_ones(document.history, ids)
    model = InitiativeModel(EncounterDocument(document.history))
    document = model._document
    rows: list[tuple[int, int]] = []
    model.dataChanged.connect(lambda first, last, *_roles: rows.append((first.row(), last.row())))
    before = document.state.clock.current
    document.apply(NextTurn())
    after = document.state.clock.current
    assert before is not None and after is not None
    assert document.state.clock.pass_no == 1
    expected = {model.row_of(cid) for cid in (*before.ids, *after.ids)}
    assert {row for first, last in rows for row in range(first, last + 1)} == expected
    assert len(expected) < model.rowCount()


def test_a_row_is_worked_out_again_only_when_its_combatant_changes(monkeypatch: Any) -> None:
    history, ids = eight_characters()
    document = EncounterDocument(history)
    roll_ones(document.history, ids)
    model = InitiativeModel(EncounterDocument(document.history))
    document = model._document
    asked: list[str] = []
    real = type(document.system).score_text

    def counted(system: Any, combatant: Any, state: Any) -> str:
        asked.append(combatant.id)
        return str(real(system, combatant, state))

    monkeypatch.setattr(type(document.system), "score_text", counted)
    _rows(model)
    assert sorted(asked) == sorted(ids.values())  # once a row
    asked.clear()
    _rows(model)
    assert asked == []  # read from the cache
    document.apply(ApplyHarm(ids["Dave"], "stun", 1))
    _rows(model)
    assert asked == [ids["Dave"]]  # only the row the damage changed
    asked.clear()
    document.apply(NextTurn())  # a new current actor: its row and the last one's
    _rows(model)
    assert 1 <= len(asked) <= 2 and set(asked) <= set(ids.values())


def test_the_pass_order_is_worked_out_once_per_state(monkeypatch: Any) -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    document = EncounterDocument(history)
    system = document.system
    asked: list[Any] = []
    real = type(system).remaining_slots

    def counted(this: Any, encounter: Any) -> Any:
        asked.append(encounter)
        return real(this, encounter)

    monkeypatch.setattr(type(system), "remaining_slots", counted)
    state = document.state
    first = pass_slots(state, system)
    first.clear()  # a caller's list is its own
    assert pass_slots(state, system) == real(system, state) and len(asked) == 1
    order = played_order(state, system)
    assert played_order(state, system) == order and len(asked) == 2  # the pass asked as if nobody had acted
    document.apply(NextTurn())
    asked.clear()
    model = InitiativeModel(document)  # a turn in the same pass: the order as if nobody had acted still stands
    assert asked == [document.state]
    pass_slots(document.state, system)
    played_order(document.state, system)
    assert len(asked) == 1
    acted = sorted(document.state.clock.acted)
    assert played_order(document.state, system) == acted  # the one who acted
    asked.clear()
    document.apply(ApplyHarm(ids["Mike"], "physical", 10))  # the scores moved: the table asks both again
    played_order(document.state, system)
    pass_slots(document.state, system)
    assert len(asked) == 2 and {len(state.clock.acted) for state in asked} == {0, len(acted)}
    model.deleteLater()
