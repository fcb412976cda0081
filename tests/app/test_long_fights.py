"""Long fights on disk: sealed files open from their last state, edited ones are checked in full, and a
damaged history stops undo with a message instead of showing a wrong state."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication

from app.document import EncounterDocument
from app.recovery import Journal, find_recoverable, recover
from app.storage import StorageError, is_sealed, load_encounter, save_encounter, sealed_json
from rules.documents import fight_data
from rules.history import History
from rules.serialize import history_to_document, to_data
from rules.turns import NextTurn
from tests.rules.test_documents import expected_states, long_fight


def pending(history: History) -> int:
    return sum(not entry.complete for entry in history.entries)


def test_a_saved_file_is_sealed_and_opens_without_replaying(tmp_path: Path) -> None:
    path = tmp_path / "long.bojovka"
    save_encounter(long_fight(), path)
    data = path.read_bytes()
    assert is_sealed(data) and data.endswith(b'"}')
    loaded = load_encounter(path)
    assert pending(loaded) > 300  # opened from its state: most of the history is not replayed
    assert fight_data(loaded) == fight_data(long_fight())


@pytest.mark.parametrize("edit", [
    lambda text: text.replace('"name":"Seed example"', '"name":"Seed Example"', 1),
    lambda text: json.dumps(json.loads(text), indent=2),
    lambda text: text[:-3] + ("1" if text[-3] == "0" else "0") + text[-2:],  # the checksum itself
    lambda text: " " + text,
])
def test_an_edited_file_is_checked_in_full(tmp_path: Path, edit: Any) -> None:
    path = tmp_path / "long.bojovka"
    save_encounter(long_fight(200), path)
    path.write_text(edit(path.read_text(encoding="utf-8")), encoding="utf-8")
    assert not is_sealed(path.read_bytes())
    try:
        loaded = load_encounter(path)
    except StorageError as error:  # the name inside the history no longer matches the saved state
        assert "does not match" in str(error)
        return
    assert pending(loaded) == 0  # replayed in full, and it matched
    assert fight_data(loaded) == fight_data(long_fight(200))


def test_a_forged_seal_cannot_show_a_state_the_history_does_not_make(tmp_path: Path) -> None:
    document = history_to_document(long_fight())
    document["state"]["combatants"]["c1"]["damage"]["physical"] += 1  # a value the fight never reached
    path = tmp_path / "forged.bojovka"
    path.write_text(sealed_json(document), encoding="utf-8")  # the seal is easy to forge: it is not a signature
    with pytest.raises(StorageError, match="does not match"):
        load_encounter(path)


def test_seal_checks() -> None:
    sealed = sealed_json({"a": 1}).encode()
    assert is_sealed(sealed) and is_sealed(sealed + b"\n")
    assert not is_sealed(sealed.replace(b'"a":1', b'"a":2'))
    assert not is_sealed(b'{"a":1}') and not is_sealed(b"") and not is_sealed(sealed[:-1])


def test_recovery_of_a_long_fight_opens_from_the_journal_header() -> None:
    history = long_fight()
    journal = Journal.start(history, None)
    document = EncounterDocument(history, None, journal)
    document.apply(NextTurn())
    document.undo_stack.undo()
    document.undo_stack.undo()
    journal._close_file()  # a crash: the file stays, the lock goes with the process
    journal._lock.release()
    recovered = recover(find_recoverable()[0])
    assert pending(recovered) > 300
    assert to_data(recovered.state) == to_data(document.state)
    assert [entry.operation for entry in recovered.redo_entries] == [
        entry.operation for entry in document.history.redo_entries]


def _forged_document(tmp_path: Path) -> EncounterDocument:
    document: dict[str, Any] = copy.deepcopy(history_to_document(long_fight()))
    first = document["checkpoints"][0]["patch"]["items"].setdefault("combatants", {})
    first["c3"] = dict(document["state"]["combatants"]["c3"], notes="forged")
    path = tmp_path / "forged.bojovka"
    path.write_text(sealed_json(document), encoding="utf-8")
    history = load_encounter(path)
    return EncounterDocument(history, path, Journal.start(history, path))


def test_undo_into_a_damaged_history_is_refused_and_the_stack_stays_in_step(tmp_path: Path, qapp: Any) -> None:
    document = _forged_document(tmp_path)
    problems: list[str] = []
    document.history_damaged.connect(problems.append)
    stack, shown = document.undo_stack, [to_data(document.state)]
    while not problems:
        assert stack.canUndo()
        stack.undo()
        QCoreApplication.processEvents()
        shown.append(to_data(document.state))
    shown.pop()  # the refused step showed nothing new
    assert shown == expected_states()[: len(shown)] and "damaged at operation" in problems[0]
    assert stack.index() == len(document.history.entries)  # the refused step moved nothing
    stack.redo()
    assert to_data(document.state) == expected_states()[len(shown) - 2]  # redo still works from here
