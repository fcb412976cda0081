"""The document's undo stack: commands do their work in redo()/undo(), the stack's index is the history's
position, a loaded fight's entries are pushed without replaying them, and a refused undo leaves the stack,
the history and the journal in step without waiting for the event loop."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import weakref
from pathlib import Path

import pytest

from app.document import Change, EncounterDocument
from app.recovery import Journal
from app.storage import SealedDocument, StorageError, load_encounter, save_encounter
from rules.combatants import AddCombatant, ApplyHarm, RemoveCombatant
from rules.encounter import Side
from rules.errors import OperationError
from rules.history import Entry, History, Operation
from rules.serialize import to_data
from rules.turns import NextTurn
from tests.app.test_long_fights import _forged_document
from tests.rules.sr3_scenes import eight_characters, roll_ones
from tests.rules.test_documents import expected_states, long_fight, spy_on_log


class FakeJournal:
    """Records what the document journals; ``full`` makes every record fail as a full disk would."""

    def __init__(self) -> None:
        self.records: list[str] = []
        self.restarts = 0
        self.full = False

    def _record(self, what: str) -> None:
        if self.full:
            raise StorageError("the disk is full", None)
        self.records.append(what)

    def record_operation(self, operation: Operation) -> None:
        self._record(f"op {operation.kind}")

    def record_undo(self) -> None:
        self._record("undo")

    def record_redo(self) -> None:
        self._record("redo")

    def restart(self, history: History, path: Path | None, unsaved: bool = False,
                sealed: SealedDocument | None = None) -> None:
        del history, path, unsaved, sealed
        self.restarts += 1

    def close(self) -> None:
        pass


def started() -> tuple[EncounterDocument, FakeJournal, dict[str, str], list[Change]]:
    history, ids = eight_characters()
    roll_ones(history, ids)
    journal = FakeJournal()
    document = EncounterDocument(history, None, journal)
    changes: list[Change] = []
    document.changed.connect(changes.append)
    return document, journal, ids, changes


def in_step(document: EncounterDocument) -> bool:
    stack = document.undo_stack
    return stack.index() == document.history.position and stack.count() == document.history.position + len(
        document.history.redo_entries)


def test_apply_pushes_a_command_whose_redo_commits_and_announces() -> None:
    document, journal, ids, changes = started()
    before = document.history.position
    asker = object()
    change = document.apply(ApplyHarm(ids["Dave"], "stun", 2, "club"), initiator=asker)
    assert document.history.position == before + 1 and in_step(document)
    assert changes == [change] and change.made_by(asker) and not change.undone
    assert journal.records == ["op apply_harm"]
    assert document.undo_stack.undoText() == change.entry.log[0].render()
    assert document.modified


def test_undo_and_redo_are_the_commands_own_and_journaled() -> None:
    document, journal, ids, changes = started()
    shown = to_data(document.state)
    document.apply(ApplyHarm(ids["Dave"], "stun", 2, "club"), initiator=object())
    after = to_data(document.state)
    document.undo_stack.undo()
    assert to_data(document.state) == shown and in_step(document) and changes[-1].undone
    document.undo_stack.redo()
    assert to_data(document.state) == after and in_step(document)
    assert changes[-1].initiator is None and not changes[-1].undone  # a redo is the undo stack's, not the dialog's
    assert journal.records == ["op apply_harm", "undo", "redo"]


def test_a_refused_operation_changes_nothing_and_pushes_nothing() -> None:
    document, journal, _ids, changes = started()
    count = document.undo_stack.count()
    with pytest.raises(OperationError):
        document.apply(ApplyHarm("nobody", "stun", 2, "club"))
    assert document.undo_stack.count() == count and journal.records == [] and changes == []


def test_an_operation_the_journal_cannot_record_never_happens() -> None:
    document, journal, ids, changes = started()
    state, count = document.state, document.undo_stack.count()
    journal.full = True
    with pytest.raises(StorageError):
        document.apply(ApplyHarm(ids["Dave"], "stun", 2, "club"))
    assert document.state is state and document.undo_stack.count() == count and changes == []
    assert not document.history.can_redo and in_step(document)


def test_an_undo_view_jump_steps_through_every_entry_and_journals_each() -> None:
    document, journal, ids, changes = started()
    start, states = document.undo_stack.index(), [to_data(document.state)]
    for amount in (1, 2, 3):
        document.apply(ApplyHarm(ids["Dave"], "stun", amount, "club"))
        states.append(to_data(document.state))
    del changes[:]
    document.undo_stack.setIndex(start)  # a click on an older row of the undo history
    assert to_data(document.state) == states[0] and in_step(document)
    assert [change.undone for change in changes] == [True, True, True]
    document.undo_stack.setIndex(start + 2)
    assert to_data(document.state) == states[2] and in_step(document)
    assert journal.records[3:] == ["undo"] * 3 + ["redo"] * 2


def test_the_clean_state_is_the_saved_one(tmp_path: Path) -> None:
    document, _journal, ids, _changes = started()
    path = tmp_path / "fight.bojovka"
    document.apply(NextTurn())
    save_encounter(document.history, path)
    document.mark_saved(path)
    assert not document.modified
    document.undo_stack.undo()
    assert document.modified
    document.undo_stack.redo()
    assert not document.modified
    document.apply(ApplyHarm(ids["Dave"], "stun", 1, "club"))
    assert document.modified


def test_a_new_operation_after_undo_replaces_what_could_be_redone() -> None:
    document, journal, ids, _changes = started()
    document.apply(ApplyHarm(ids["Dave"], "stun", 1, "club"))
    document.undo_stack.undo()
    document.apply(ApplyHarm(ids["Dave"], "physical", 1, "club"))
    assert not document.history.can_redo and not document.undo_stack.canRedo() and in_step(document)
    assert document.state.combatant(ids["Dave"]).boxes("stun") == 0
    assert journal.records == ["op apply_harm", "undo", "op apply_harm"]


def test_roster_changes_say_who_came_and_went_either_way() -> None:
    document, _journal, ids, changes = started()
    document.apply(AddCombatant("new", "Newcomer", Side.OPPONENT))
    assert changes[-1].added == {"new"} and not changes[-1].removed
    document.undo_stack.undo()
    assert changes[-1].removed == {"new"} and not changes[-1].added
    document.apply(RemoveCombatant(ids["Dave"]))
    assert changes[-1].removed == {ids["Dave"]}
    document.undo_stack.undo()
    assert changes[-1].added == {ids["Dave"]}


def test_the_stack_does_not_keep_the_initiator_alive() -> None:
    document, _journal, ids, _changes = started()

    class Dialog:
        pass

    dialog = Dialog()
    gone = weakref.ref(dialog)
    change = document.apply(ApplyHarm(ids["Dave"], "stun", 1, "club"), initiator=dialog)
    del change, dialog, _changes[:]
    gc.collect()
    assert gone() is None


# --- loaded fights --------------------------------------------------------------------------------


def pending(history: History) -> int:
    return sum(not entry.complete for entry in history.entries)


def test_a_loaded_fight_is_on_the_stack_without_replaying_it(tmp_path: Path) -> None:
    path = tmp_path / "long.bojovka"
    save_encounter(long_fight(), path)
    history = load_encounter(path)
    waiting = pending(history)
    document = EncounterDocument(history, path)
    assert pending(history) == waiting > 300  # pushing an entry already in effect does nothing
    assert in_step(document) and document.undo_stack.count() == len(history.entries)
    assert not document.modified
    document.undo_stack.undo()
    document.undo_stack.undo()
    assert to_data(document.state) == expected_states()[2] and document.modified
    document.undo_stack.redo()
    assert to_data(document.state) == expected_states()[1] and in_step(document)


def watched(document: EncounterDocument) -> tuple[FakeJournal, list[str]]:
    """Swap the document's journal for a fake one, to see what is recorded; collect the damage warnings."""
    real = document._journal
    assert isinstance(real, Journal)
    real.close()
    journal = FakeJournal()
    document._journal = journal
    problems: list[str] = []
    document.history_damaged.connect(problems.append)
    return journal, problems


def test_a_refused_undo_is_in_step_at_once_and_journals_nothing(tmp_path: Path) -> None:
    document = _forged_document(tmp_path)
    journal, problems = watched(document)
    stack = document.undo_stack
    top = stack.index()
    while not problems:
        stack.undo()  # no event loop in between: nothing is left for later
        assert in_step(document)
    assert len(problems) == 1 and journal.records == ["undo"] * (top - stack.index()) != []
    stuck = to_data(document.state)
    stack.undo()  # trying again is refused again, and still in step
    assert to_data(document.state) == stuck and in_step(document) and len(problems) == 2


def test_an_undo_view_jump_into_damage_stops_at_it_with_one_warning(tmp_path: Path) -> None:
    document = _forged_document(tmp_path)
    journal, problems = watched(document)
    top = document.undo_stack.index()
    document.undo_stack.setIndex(0)  # a click on the first row of the undo history
    assert len(problems) == 1 and in_step(document)
    reached = document.undo_stack.index()
    assert 0 < reached < top and to_data(document.state) == expected_states()[top - reached]
    assert journal.records == ["undo"] * (top - reached)
    document.undo_stack.setIndex(top)
    assert to_data(document.state) == expected_states()[0] and in_step(document)


def test_a_recovered_fight_is_modified_even_without_entries() -> None:
    document = EncounterDocument(History(eight_characters()[0].initial))
    assert not document.modified
    document.replace_history(History(eight_characters()[0].initial), None, clean=False)
    assert document.modified


def test_journal_of_a_real_document_still_replays(tmp_path: Path) -> None:
    """The same steps through a real journal (the crash test in test_recovery does it with SIGKILLs)."""
    history, ids = eight_characters()
    roll_ones(history, ids)
    journal = Journal.start(history, None)
    document = EncounterDocument(history, None, journal)
    document.apply(ApplyHarm(ids["Dave"], "stun", 1, "club"))
    document.undo_stack.undo()
    document.undo_stack.redo()
    lines = journal.path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 4
    journal.close()


_CYCLE_SCRIPT = """
import gc
from app.document import EncounterDocument
from rules.combatants import AddCombatant
from rules.history import new_history

def dropped_in_a_cycle():
    document = EncounterDocument(new_history("sr3", "Cycle"))
    for number in range(5):
        document.apply(AddCombatant(f"c{number}", f"Ganger {number}"))
    document.undo_stack.undo()
    document.apply(AddCombatant("c9", "Late"))  # the undone command is dropped by the stack
    holder = {"stack": document.undo_stack, "document": document}
    holder["self"] = holder
    try:
        raise ValueError("kept")
    except ValueError as error:
        holder["error"] = error  # a traceback that holds the frame that holds the document

for _round in range(20):
    dropped_in_a_cycle()
    gc.collect()
print("collected")
"""


def test_a_document_dropped_in_a_reference_cycle_is_collected_without_crashing(tmp_path: Path) -> None:
    # The garbage collector cleared the commands' Python side before the document's, whose undo stack then
    # freed them again: a segmentation fault at the end of the test run. Run apart, so a crash is a failure.
    environment = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    finished = subprocess.run([sys.executable, "-c", _CYCLE_SCRIPT], capture_output=True, text=True, timeout=120,
                              env=environment, cwd=tmp_path, check=False)
    assert (finished.returncode, finished.stdout.strip()) == (0, "collected"), finished.stderr[-2000:]



def _step_text(entry: Entry) -> str:
    return entry.label or entry.log[0].render()


def test_a_loaded_fight_names_only_the_steps_edit_undo_and_redo_show(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    # Naming every command on opening decoded every entry's log: most of opening a 10,000-step fight.
    path = tmp_path / "long.bojovka"
    save_encounter(long_fight(), path)
    history = load_encounter(path)
    decoded = spy_on_log(monkeypatch)
    document = EncounterDocument(history, path)
    stack, entries = document.undo_stack, history.entries
    assert len(entries) > 300 and len(decoded) <= 2  # the step Edit → Undo names (and the one before, for Redo)
    shown = [(stack.undoText(), stack.redoText())]
    stack.undo()
    shown.append((stack.undoText(), stack.redoText()))
    row = stack.text(3)  # a row of the undo history, named when shown
    assert len(decoded) <= 3
    stack.setIndex(10)  # a jump far back (replaying, and so checking, the saved log on the way): named for the menu
    shown.append((stack.undoText(), stack.redoText()))
    last = len(entries) - 1
    assert shown == [(_step_text(entries[last]), ""),
                     (_step_text(entries[last - 1]), _step_text(entries[last])),
                     (_step_text(entries[9]), _step_text(entries[10]))]
    assert row == _step_text(entries[3])
