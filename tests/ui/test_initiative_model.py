"""The initiative table model: order of the pass, highlight roles, in-place edits as operations."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from app.document import EncounterDocument
from rules.combatants import ApplyHarm
from rules.turns import NextTurn
from tests.rules.sr3_scenes import eight_characters, roll_ones
from ui.models.initiative_model import Column, InitiativeModel, Role


def _document() -> tuple[EncounterDocument, dict[str, str]]:
    history, ids = eight_characters()
    return EncounterDocument(history), ids


def _names(model: InitiativeModel) -> list[str]:
    return [model.index(row, Column.NAME).data() for row in range(model.rowCount())]


def test_model_passes_qt_model_tester(qtmodeltester: Any) -> None:
    document, ids = _document()
    roll_ones(document.history, ids)  # before the model exists: fine
    model = InitiativeModel(EncounterDocument(document.history))
    qtmodeltester.check(model)


def test_rows_follow_the_pass_and_highlight_the_current_actor(qtmodeltester: Any) -> None:
    document, ids = _document()
    model = InitiativeModel(document)
    qtmodeltester.check(model, force_py=True)
    rolls = dict.fromkeys(ids.values(), (1,))
    from rules.encounter import frozen_map
    from rules.turns import RollInitiative

    document.apply(RollInitiative(frozen_map(rolls), frozen_map()))
    assert _names(model)[0] == "Mike"
    assert model.index(0, Column.NAME).data(Role.IS_CURRENT) is True
    assert model.index(0, Column.INITIATIVE).data() == "37 → 27 → 17 → 7"
    document.apply(NextTurn())
    assert _names(model)[:2] == ["Mike", "Ganger 1"]  # Mike has acted and stays on top, greyed
    assert model.index(0, Column.NAME).data(Role.HAS_ACTED) is True
    assert model.index(1, Column.NAME).data(Role.IS_CURRENT) is True
    document.apply(ApplyHarm(ids["Sharon"], "physical", 3))  # 18 → 16: now after Richie
    names = _names(model)
    assert names.index("Richie") < names.index("Sharon")


def test_selection_survives_reordering(qtbot: Any) -> None:
    from ui.widgets.initiative_table import InitiativeTable

    document, ids = _document()
    model = InitiativeModel(document)
    table = InitiativeTable(model)
    qtbot.addWidget(table)
    roll_ones(document.history, ids)
    model._on_replaced()  # the history changed behind the document's back in this test only
    table.select_combatant(ids["Sharon"])
    document.apply(ApplyHarm(ids["Sharon"], "physical", 3))
    assert table.selected_id() == ids["Sharon"]


def test_editing_name_and_initiative_goes_through_operations() -> None:
    document, ids = _document()
    model = InitiativeModel(document)
    row = _names(model).index("Dave")
    assert model.setData(model.index(row, Column.NAME), "Dave the Decker")
    assert document.state.combatant(ids["Dave"]).name == "Dave the Decker"
    row = _names(model).index("Dave the Decker")
    assert model.setData(model.index(row, Column.INITIATIVE), "25")
    assert document.state.combatant(ids["Dave"]).initiative is not None
    document.undo_stack.undo()
    document.undo_stack.undo()
    assert document.state.combatant(ids["Dave"]).name == "Dave"


def test_bad_edit_reports_an_error_and_changes_nothing(qtbot: Any) -> None:
    document, _ids = _document()
    model = InitiativeModel(document)
    with qtbot.waitSignal(model.error) as signal:
        assert not model.setData(model.index(0, Column.INITIATIVE), "fast")
    assert "whole number" in signal.args[0]
    with qtbot.waitSignal(model.error):
        assert not model.setData(model.index(0, Column.NAME), "   ")
    assert not document.history.entries[8:]  # only the eight additions


def test_condition_roles() -> None:
    document, ids = _document()
    model = InitiativeModel(document)
    document.apply(ApplyHarm(ids["Dave"], "stun", 3))
    row = _names(model).index("Dave")
    tracks = model.index(row, Column.CONDITION).data(Role.TRACKS)
    assert tracks == [("Physical", 0, 10), ("Stun", 3, 10)]
    assert model.index(row, Column.CONDITION).data(Qt.ItemDataRole.ToolTipRole) == "TN +2, initiative −2"


def test_a_delayed_actor_shows_where_it_comes_back() -> None:
    from rules.turns import DelayAction

    document, ids = _document()
    roll_ones(document.history, ids)
    model = InitiativeModel(EncounterDocument(document.history))
    model._document.apply(DelayAction(ids["Mike"], into_next_pass=True))
    row = model.row_of(ids["Mike"])
    assert model.index(row, Column.ACTIONS).data() == "Delayed into pass 2: act before your own phase there"


def test_held_actions_at_the_end_of_a_pass_show_their_tie_order(qtmodeltester: Any) -> None:
    """sr3.md: "actors at the end of a pass or turn: ordered as for tied initiative". Camilla (9) held her only
    action into pass 2 before Mike (27) held his: the rows and their words put Mike first."""
    from rules.turns import DelayAction

    document, ids = _document()
    roll_ones(document.history, ids)
    model = InitiativeModel(document)
    qtmodeltester.check(model, force_py=True)
    for _turn in range(7):
        document.apply(NextTurn())
    document.apply(DelayAction(ids["Camilla"], into_next_pass=True))
    document.apply(DelayAction(ids["Mike"]))  # pass 2, phase 27
    names = _names(model)
    assert names.index("Mike") < names.index("Camilla") and names[-2:] == ["Mike", "Camilla"]
    mike, camilla = model.row_of(ids["Mike"]), model.row_of(ids["Camilla"])
    assert model.index(mike, Column.ACTIONS).data().startswith("1 of 2 at the end · Delayed")
    assert model.index(camilla, Column.ACTIONS).data().startswith("2 of 2 at the end · Delayed into pass 2")


def _every_role(model: InitiativeModel, row: int) -> list[object]:
    roles = [*Role, Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole, Qt.ItemDataRole.FontRole,
             Qt.ItemDataRole.ForegroundRole, Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.DecorationRole,
             Qt.ItemDataRole.AccessibleTextRole, Qt.ItemDataRole.AccessibleDescriptionRole]
    return [model.index(row, column).data(role) for column in Column for role in roles]


def test_a_repaint_asks_the_game_for_each_status_once_per_state(monkeypatch: Any) -> None:
    """Every painted cell asks several roles that hang on the status: the model works it out once per combatant
    and state (it was asked about 60 times a row per repaint), and anew once the fight changes."""
    document, ids = _document()
    roll_ones(document.history, ids)
    model = InitiativeModel(EncounterDocument(document.history))
    asked: list[str] = []
    real = type(model._document.system).status

    def counted(system: Any, combatant: Any, state: Any) -> Any:
        asked.append(combatant.id)
        return real(system, combatant, state)

    monkeypatch.setattr(type(model._document.system), "status", counted)
    dave = _names(model).index("Dave")
    before = _every_role(model, dave)
    # Once by the model; SR3's condition notes ask it themselves (the tooltip and the screen readers' words).
    assert asked.count(ids["Dave"]) == 3
    # The second pass reads the cells the first one filled (before the cell cache, SR3's notes asked twice more).
    assert _every_role(model, dave) == before and asked.count(ids["Dave"]) == 3
    model._document.apply(ApplyHarm(ids["Dave"], "stun", 10))  # a new state: asked again, and now out
    dave = _names(model).index("Dave")
    assert model.index(dave, Column.CONDITION).data().startswith("Unconscious")
    assert asked.count(ids["Dave"]) >= 2


def test_damage_next_undo_and_redo_change_rows_in_place(qtmodeltester: Any) -> None:
    """The actions the GM repeats all fight long never reset the table; damage that moves nobody repaints only
    the damaged row."""
    document, ids = _document()
    model = InitiativeModel(document)
    qtmodeltester.check(model, force_py=True)
    resets: list[bool] = []
    changed: list[tuple[int, int, int, int]] = []
    moves: list[bool] = []
    model.modelReset.connect(lambda: resets.append(True))
    model.layoutChanged.connect(lambda *_args: moves.append(True))
    model.dataChanged.connect(lambda first, last, *_roles: changed.append(
        (first.row(), first.column(), last.row(), last.column())))
    dave = _names(model).index("Dave")
    document.apply(ApplyHarm(ids["Dave"], "stun", 1))  # nobody has initiative yet: the order stays
    assert not moves and changed == [(dave, 0, dave, len(Column) - 1)]
    roll_ones(document.history, ids)
    document.replace_history(document.history, None)  # loading another fight is the one reset
    resets.clear()
    for _index in range(3):
        document.apply(NextTurn())
        document.apply(ApplyHarm(ids["Dave"], "physical", 1))
    document.undo_stack.undo()
    document.undo_stack.undo()
    document.undo_stack.redo()
    assert not resets
    qtmodeltester.check(model)


def test_clovek_without_initiative_the_column_shows_and_takes_the_place_in_the_gms_order(qtbot: Any) -> None:
    # clovek.md: turns "ordered by alternation, by the conflict's logic or … by initiative"; the GM picks.
    from rules.combatants import SetOption
    from rules.encounter import frozen_map
    from rules.turns import RollInitiative
    from tests.rules.test_clovek_scenes import seed_fight

    document = EncounterDocument(seed_fight())
    document.apply(SetOption("turn_order", "logic"))
    model = InitiativeModel(document)
    assert [model.index(row, Column.INITIATIVE).data() for row in range(3)] == ["1", "2", "3"]
    row = _names(model).index("Adriana")
    assert model.setData(model.index(row, Column.INITIATIVE), "1")
    document.apply(RollInitiative(frozen_map(dict.fromkeys("bca", ())), frozen_map()))
    assert _names(model) == ["Adriana", "Beatrice", "Cesare"]
    assert [model.index(row, Column.INITIATIVE).data() for row in range(3)] == ["1", "2", "3"]
    with qtbot.waitSignal(model.error) as signal:
        assert not model.setData(model.index(0, Column.INITIATIVE), "9")
    assert "from 1 to 3" in signal.args[0]
    document.undo_stack.undo()  # the round's start
    document.undo_stack.undo()  # the place
    assert model.index(_names(model).index("Adriana"), Column.INITIATIVE).data() == "3"
