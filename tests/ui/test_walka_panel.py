"""Walka's details-panel sections: the seating order (drag and drop, buttons, the GM's tie) and the actions."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QMimeData, QModelIndex, Qt
from PySide6.QtWidgets import QApplication, QLabel, QScrollArea, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from app.document import EncounterDocument
from rules.combatants import AddCombatant, SetDamage
from rules.encounter import Side, Status
from rules.errors import RulesError
from rules.history import History, Operation
from rules.serialize import to_data
from rules.systems.walka import GM_SEAT
from rules.systems.walka.sample import sample
from rules.systems.walka.seating import listed_seats
from tests.rules.test_walka_scenes import roll, table
from ui.games import game_ui
from ui.games.walka.panel import ActionsSection, SeatingSection
from ui.games.walka.seating import MIME_TYPE, SeatingModel, SeatRole, turn_text
from ui.theme import apply_theme
from ui.widgets.details import CombatantDetails

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")

#: Set to a folder to keep the screenshots (they always go to the test's tmp_path as well).
SHOTS = os.environ.get("BOJOVKA_SHOTS")
#: The details dock on a 1366×768 laptop.
PANEL = (380, 640)

# The sample: Kira (c1) and Osa (c2) at Ania's seat, Wedge (c3) at Bartek's, Nova (c4) at Celina's, the GM's
# gangers c5–c7 and Ghost (c8); rolls Ania 7, Bartek 4, Celina 9, GM 4, the GM decided to go first; Ania acts.


class Host(QWidget):
    """Stands in for the main window: offers the document and applies operations as the panel does."""

    def __init__(self, document: EncounterDocument) -> None:
        super().__init__()
        self.document = document
        self.refused: list[str] = []
        QVBoxLayout(self)

    def apply(self, operation: Operation) -> bool:
        try:
            self.document.apply(operation)
        except RulesError as refused:
            self.refused.append(str(refused))
            return False
        return True


@pytest.fixture
def document() -> EncounterDocument:
    return EncounterDocument(sample())


def hosted(qtbot: QtBot, document: EncounterDocument, section_class: Any, combatant_id: str = "c1") -> Any:
    host = Host(document)
    section = section_class(host.apply)
    layout = host.layout()
    assert layout is not None
    layout.addWidget(section)
    qtbot.addWidget(host)
    section.refresh(document.state.combatant(combatant_id), document.state, document.system)
    return section


def seats(document: EncounterDocument) -> tuple[str, ...]:
    return tuple(listed_seats(document.state))


def names_by_seat(model: SeatingModel) -> list[tuple[str, list[str]]]:
    return [(row.seat, [member.name for member in row.members]) for row in model.rows()]


def drag(model: SeatingModel, index: QModelIndex) -> QMimeData:
    return model.mimeData([index])


def member_index(model: SeatingModel, seat: str, name: str) -> QModelIndex:
    parent = model.seat_index(seat)
    for row in range(model.rowCount(parent)):
        index = model.index(row, 0, parent)
        if index.data() == name:
            return index
    raise AssertionError(name)


# --- the model ---------------------------------------------------------------------------------------


def test_the_seating_model_passes_the_model_tester(qtmodeltester: Any, document: EncounterDocument) -> None:
    model = SeatingModel(lambda operation: True)
    model.set_state(document.state, document.system)
    qtmodeltester.check(model, force_py=True)


def test_seats_show_their_roll_their_turn_and_who_they_act_for(document: EncounterDocument) -> None:
    model = SeatingModel(lambda operation: True)
    model.set_state(document.state, document.system)
    assert names_by_seat(model) == [("Ania", ["Kira", "Osa"]), ("Bartek", ["Wedge"]), ("Celina", ["Nova"]),
                                    (GM_SEAT, ["Ganger 1", "Ganger 2", "Ganger 3", "Ghost"])]
    shown = [(model.index(row, 0).data(), model.index(row, 1).data(), model.index(row, 2).data())
             for row in range(model.rowCount())]
    assert shown == [("Ania", "7", "now"), ("Bartek", "4", "3."), ("Celina", "9", "4."), ("GM", "4", "done")]
    gm = model.rows()[-1]
    assert gm.start and gm.is_gm and turn_text(gm) == "done"
    assert model.seat_index(GM_SEAT).data(SeatRole.IS_GM) is True
    assert member_index(model, "Ania", "Osa").data(SeatRole.COMBATANT_ID) == "c2"


def test_dragging_a_seat_reorders_the_table_in_one_undoable_step(qtbot: QtBot, document: EncounterDocument) -> None:
    section = hosted(qtbot, document, SeatingSection)
    model, before = section.model, to_data(document.state)
    data = drag(model, model.seat_index("Celina"))
    assert model.canDropMimeData(data, Qt.DropAction.MoveAction, 0, 0, QModelIndex())
    assert model.dropMimeData(data, Qt.DropAction.MoveAction, 0, 0, QModelIndex())  # to the GM's left
    assert seats(document) == ("Celina", "Ania", "Bartek")
    assert [row.seat for row in model.rows()] == ["Celina", "Ania", "Bartek", GM_SEAT]  # followed the document
    assert "clockwise from the GM's left: Celina, Ania, Bartek, then the GM." in document.history.entries[-1].text()
    document.undo_stack.undo()
    assert to_data(document.state) == before


def test_a_seat_dropped_on_a_seat_goes_before_it_and_on_the_gm_to_the_gms_right(qtbot: QtBot,
                                                                                document: EncounterDocument) -> None:
    model = hosted(qtbot, document, SeatingSection).model
    assert model.dropMimeData(drag(model, model.seat_index("Celina")), Qt.DropAction.MoveAction, -1, -1,
                              model.seat_index("Bartek"))
    assert seats(document) == ("Ania", "Celina", "Bartek")
    assert model.dropMimeData(drag(model, model.seat_index("Ania")), Qt.DropAction.MoveAction, -1, -1,
                              model.seat_index(GM_SEAT))
    assert seats(document) == ("Celina", "Bartek", "Ania")


def test_dragging_a_character_onto_a_seat_gives_it_to_that_player(qtbot: QtBot,
                                                                 document: EncounterDocument) -> None:
    model = hosted(qtbot, document, SeatingSection).model
    assert model.dropMimeData(drag(model, member_index(model, "Ania", "Osa")), Qt.DropAction.MoveAction, -1, -1,
                              model.seat_index("Celina"))
    assert document.state.combatant("c2").seat == "Celina"
    assert "Celina's seat now acts for Osa." in document.history.entries[-1].text()
    ganger = member_index(model, GM_SEAT, "Ganger 3")
    assert model.dropMimeData(drag(model, ganger), Qt.DropAction.MoveAction, -1, -1,
                              member_index(model, "Bartek", "Wedge"))  # onto a member: that member's seat
    assert document.state.combatant("c7").seat == "Bartek"
    assert model.dropMimeData(drag(model, member_index(model, "Bartek", "Wedge")), Qt.DropAction.MoveAction, -1,
                              -1, model.seat_index(GM_SEAT))
    assert document.state.combatant("c3").seat == GM_SEAT


def test_a_character_dropped_on_a_seat_not_placed_yet_places_it(qtbot: QtBot) -> None:
    history, _ids = table()
    history.do(AddCombatant("c9", "Rook", Side.PLAYER))  # a seat of its own, not in the seating order yet
    document = EncounterDocument(history)
    model = hosted(qtbot, document, SeatingSection).model
    assert [row.seat for row in model.rows()] == ["Ania", "Bartek", "Celina", "Rook", GM_SEAT]
    assert model.dropMimeData(drag(model, member_index(model, GM_SEAT, "Ganger 2")), Qt.DropAction.MoveAction,
                              -1, -1, model.seat_index("Rook"))
    assert seats(document) == ("Ania", "Bartek", "Celina", "Rook")
    assert document.state.combatant("c6").seat == "Rook" and document.state.combatant("c9").seat == "Rook"
    assert names_by_seat(model)[3] == ("Rook", ["Ganger 2", "Rook"])


def test_drops_that_change_nothing_or_mean_nothing_are_refused(qtbot: QtBot, document: EncounterDocument) -> None:
    model = hosted(qtbot, document, SeatingSection).model
    entries = len(document.history.entries)
    same_place = drag(model, model.seat_index("Bartek"))
    assert not model.canDropMimeData(same_place, Qt.DropAction.MoveAction, 1, 0, QModelIndex())
    kira = drag(model, member_index(model, "Ania", "Kira"))
    assert not model.canDropMimeData(kira, Qt.DropAction.MoveAction, 2, 0, QModelIndex())  # between seats
    assert not model.canDropMimeData(kira, Qt.DropAction.MoveAction, -1, -1, model.seat_index("Ania"))
    assert not model.mimeData([model.seat_index(GM_SEAT)]).hasFormat(MIME_TYPE)  # the GM's seat stays put
    garbage = QMimeData()
    garbage.setData(MIME_TYPE, b"{not json")
    assert not model.dropMimeData(garbage, Qt.DropAction.MoveAction, 0, 0, QModelIndex())
    assert not model.flags(model.seat_index(GM_SEAT)) & Qt.ItemFlag.ItemIsDragEnabled
    assert len(document.history.entries) == entries


def test_a_seat_is_renamed_in_place_and_keeps_its_characters(qtbot: QtBot, document: EncounterDocument) -> None:
    model = hosted(qtbot, document, SeatingSection).model
    index = model.seat_index("Bartek")
    assert index.data(Qt.ItemDataRole.EditRole) == "Bartek"
    assert model.setData(index, "Bartosz")
    assert seats(document) == ("Ania", "Bartosz", "Celina")
    assert document.state.combatant("c3").seat == "Bartosz"
    assert not model.setData(model.seat_index(GM_SEAT), "Boss")


def test_buttons_add_move_and_remove_seats(qtbot: QtBot, document: EncounterDocument) -> None:
    section = hosted(qtbot, document, SeatingSection)
    section.new_seat.setText("Dana")
    qtbot.mouseClick(section.add_button, Qt.MouseButton.LeftButton)
    assert seats(document) == ("Ania", "Bartek", "Celina", "Dana")
    assert section.new_seat.text() == ""
    section.view.setCurrentIndex(section.model.seat_index("Dana"))
    assert section.up_button.isEnabled() and not section.down_button.isEnabled()
    qtbot.mouseClick(section.up_button, Qt.MouseButton.LeftButton)
    assert seats(document) == ("Ania", "Bartek", "Dana", "Celina")
    qtbot.mouseClick(section.remove_button, Qt.MouseButton.LeftButton)
    assert seats(document) == ("Ania", "Bartek", "Celina")
    section.new_seat.setText("gm")
    qtbot.mouseClick(section.add_button, Qt.MouseButton.LeftButton)
    host = section.parentWidget()
    assert isinstance(host, Host) and "the GM's own seat" in host.refused[-1]


def test_the_combo_gives_the_shown_character_a_seat(qtbot: QtBot, document: EncounterDocument) -> None:
    section = hosted(qtbot, document, SeatingSection, "c5")
    assert section.seat_combo.currentData() == GM_SEAT
    section.seat_combo.activated.emit(section.seat_combo.findData("Celina"))
    assert document.state.combatant("c5").seat == "Celina"
    assert section.seat_combo.currentData() == "Celina"


def tie_document() -> EncounterDocument:
    history, _ids = table()
    roll(history, Ania=9, Bartek=4, Celina=8, GM=4)
    return EncounterDocument(history)


def test_the_section_asks_the_gm_about_a_tie_and_applies_the_answer(qtbot: QtBot) -> None:
    document = tie_document()
    section = hosted(qtbot, document, SeatingSection)
    assert section.tie_box.isVisibleTo(section)
    assert "The GM ties with Bartek on 4" in section.tie_label.text()
    assert "Until you decide, the players' side goes first." in section.tie_label.text()
    qtbot.mouseClick(section.gm_first, Qt.MouseButton.LeftButton)
    assert "Decided: the GM's side goes first." in section.tie_label.text()
    assert not section.gm_first.isEnabled() and section.players_first.isEnabled()
    current = document.state.clock.current
    assert current is not None
    assert [document.state.combatant(i).name for i in current.ids] == ["Ganger 1", "Ganger 2"]
    assert section.diagram.describe() == "Ania (9, 2.) → Bartek (4, 3.) → Celina (8, 4.) → GM (4, now)"


def test_no_tie_no_question(qtbot: QtBot, document: EncounterDocument) -> None:
    history, _ids = table()
    roll(history, Ania=2, Bartek=4, Celina=8, GM=9)
    section = hosted(qtbot, EncounterDocument(history), SeatingSection)
    assert not section.tie_box.isVisibleTo(section)
    assert section.diagram.describe() == "Ania (2, now) → Bartek (4, 2.) → Celina (8, 3.) → GM (9, 4.)"


# --- the actions section -------------------------------------------------------------------------------


def test_the_actions_section_counts_and_acts(qtbot: QtBot, document: EncounterDocument) -> None:
    section = hosted(qtbot, document, ActionsSection, "c2")  # Osa moved once already
    assert section.counter.text() == "Actions this round: ●○ 1 of 2 left"
    assert section.buttons["move"].isEnabled() and not section.buttons["run"].isEnabled()
    assert "Run needs 2" in section.buttons["run"].toolTip()
    assert not section.buttons["stand_up"].isEnabled()
    qtbot.mouseClick(section.buttons["move"], Qt.MouseButton.LeftButton)
    assert document.history.entries[-1].text() == "Osa moves 5 squares (10 m)."
    section.refresh(document.state.combatant("c2"), document.state, document.system)
    assert section.counter.text() == "Actions this round: ○○ 0 of 2 left"
    assert not any(button.isEnabled() for button in section.buttons.values())


def test_a_shorter_move_from_the_squares_beside_the_button(qtbot: QtBot, document: EncounterDocument) -> None:
    section = hosted(qtbot, document, ActionsSection, "c2")  # Osa: one action left
    assert section.squares.value() == 5 and section.squares.isVisibleTo(section)
    section.squares.setValue(2)
    qtbot.mouseClick(section.buttons["move"], Qt.MouseButton.LeftButton)
    assert document.history.entries[-1].text() == "Osa moves 2 squares (4 m)."
    assert section.squares.value() == 5  # the next Move is a whole one again


def test_the_gm_marks_a_character_at_zero_dying_and_a_team_mate_stabilises_them(qtbot: QtBot,
                                                                               document: EncounterDocument) -> None:
    # walka.md Decision: "the chapter defines no dying or bleeding state, though stabilising a team-mate implies
    # one; any such state is a GM-set status".
    section = hosted(qtbot, document, ActionsSection, "c4")
    assert not section.dying.isEnabled()  # Hit Points left: nobody is dying
    document.apply(SetDamage("c4", "hp", 7))
    section.refresh(document.state.combatant("c4"), document.state, document.system)
    assert section.dying.isEnabled()
    section.dying.click()
    ganger = document.state.combatant("c4")
    assert document.system.status(ganger, document.state) is Status.DYING
    assert document.history.entries[-1].text().endswith("is dying.")
    assert any(note.startswith("Dying (the GM's call)") for note in document.system.condition_notes(
        ganger, document.state))
    section.refresh(ganger, document.state, document.system)
    section.dying.click()  # stabilised
    assert document.system.status(document.state.combatant("c4"), document.state) is Status.UNCONSCIOUS
    section.dying.click()
    document.apply(SetDamage("c4", "hp", 5))  # healed above 0: no longer dying
    assert document.system.status(document.state.combatant("c4"), document.state) is Status.ACTIVE
    assert "dying" not in document.state.combatant("c4").extra


def test_a_prepare_takes_the_event_typed_above_it(qtbot: QtBot, document: EncounterDocument) -> None:
    section = hosted(qtbot, document, ActionsSection, "c2")
    section.prepare_for.setText("Ganger 2 reaches for the alarm")
    qtbot.mouseClick(section.buttons["prepare"], Qt.MouseButton.LeftButton)
    assert "“Ganger 2 reaches for the alarm”" in document.history.entries[-1].text()
    assert section.prepare_for.text() == ""  # ready for the next one


def test_knocked_down_and_standing_up(qtbot: QtBot, document: EncounterDocument) -> None:
    section = hosted(qtbot, document, ActionsSection, "c1")
    section.knocked_down.click()
    assert document.state.combatant("c1").extra.get("knocked_down") is True
    section.refresh(document.state.combatant("c1"), document.state, document.system)
    assert section.buttons["stand_up"].isEnabled() and not section.buttons["aim"].isEnabled()
    qtbot.mouseClick(section.buttons["stand_up"], Qt.MouseButton.LeftButton)
    assert "knocked_down" not in document.state.combatant("c1").extra


def test_a_chance_keeps_a_character_conscious(qtbot: QtBot, document: EncounterDocument) -> None:
    document.apply(SetDamage("c4", "hp", 7))
    section = hosted(qtbot, document, ActionsSection, "c4")
    assert section.chances.text() == "Chances: 2 of 2 left"
    assert section.spend_chance.isEnabled()
    qtbot.mouseClick(section.spend_chance, Qt.MouseButton.LeftButton)
    nova = document.state.combatant("c4")
    assert document.system.status(nova, document.state) is Status.ACTIVE
    section.refresh(nova, document.state, document.system)
    assert section.chances.text() == "Chances: 1 of 2 left" and not section.spend_chance.isEnabled()


# --- in the details panel --------------------------------------------------------------------------------


def test_walka_registers_its_sections_in_order() -> None:
    assert list(game_ui("walka").sections())[:2] == [ActionsSection, SeatingSection]


def test_in_the_details_panel_the_seating_shows_its_own_edits(qtbot: QtBot, document: EncounterDocument) -> None:
    details = CombatantDetails(document)
    qtbot.addWidget(details)
    details.set_combatant("c3")
    seating = details.findChild(SeatingSection)
    actions = details.findChild(ActionsSection)
    assert seating is not None and actions is not None
    model = seating.model
    assert model.dropMimeData(drag(model, model.seat_index("Celina")), Qt.DropAction.MoveAction, 0, 0,
                              QModelIndex())
    assert [row.seat for row in model.rows()] == ["Celina", "Ania", "Bartek", GM_SEAT]  # the panel refreshed
    assert actions.chances.text() == "Chance: 1 of 1 left"  # Wedge's
    assert not actions.buttons["move"].isEnabled()
    assert "Wedge can act only in their seat's turn." in actions.buttons["move"].toolTip()
    seating.new_seat.setText("GM")
    qtbot.mouseClick(seating.add_button, Qt.MouseButton.LeftButton)
    assert "the GM's own seat" in details.message_text()  # refused: shown in the panel, never raised
    assert seating.new_seat.text() == "GM"  # kept for the GM to correct


# --- looking at it ---------------------------------------------------------------------------------------


@pytest.fixture
def shots(tmp_path: Path) -> Iterator[Path]:
    folder = Path(SHOTS) if SHOTS else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    yield folder


def _clipped_labels(widget: QWidget) -> list[str]:
    return [label.text() for label in widget.findChildren(QLabel)
            if label.isVisibleTo(widget) and label.text() and not label.wordWrap()
            and label.width() < label.minimumSizeHint().width()]


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_panel_fits_the_dock_in_both_themes(qtbot: QtBot, document: EncounterDocument, shots: Path,
                                                theme: str) -> None:
    application = QApplication.instance()
    assert isinstance(application, QApplication)
    apply_theme(application, theme)
    try:
        details = CombatantDetails(document)
        qtbot.addWidget(details)
        details.set_combatant("c1")
        details.resize(*PANEL)
        details.show()
        qtbot.waitExposed(details)
        qtbot.wait(50)
        scroll = details.findChild(QScrollArea)
        assert scroll is not None
        content = scroll.widget()
        assert content is not None
        assert content.minimumSizeHint().width() <= scroll.viewport().width()  # no sideways scrolling
        seating = details.findChild(SeatingSection)
        actions = details.findChild(ActionsSection)
        assert seating is not None and actions is not None
        assert _clipped_labels(seating) == [] and _clipped_labels(actions) == []
        assert all(button.width() >= button.minimumSizeHint().width() for button in actions.buttons.values())
        assert seating.diagram.height() >= seating.diagram.minimumSizeHint().height()
        assert seating.grab().save(str(shots / f"walka_seating_{theme}.png"))
        assert actions.grab().save(str(shots / f"walka_actions_{theme}.png"))
    finally:
        apply_theme(application, "light")


def test_history_of_the_sample_replays(document: EncounterDocument) -> None:
    replayed = History.replay(document.history.initial, [entry.operation for entry in document.history.entries])
    assert to_data(replayed.state) == to_data(document.state)
