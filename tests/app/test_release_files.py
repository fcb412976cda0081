"""Files written by an earlier release open exactly as that release showed them.

tests/app/release_files holds encounter files and crash-recovery journals written by the release before the
game's own state moved into one field (schema 2), with what opening each one showed then: every combatant's
name, side, status and tracks, the clock, the order still to come, the log in English, every state undo
passes through and the state at the start (tests/app/release_files/observe.py). Each is opened here the way
the app opens it and must show exactly the same, whichever way it is read: from its saved state (sealed,
undo replaying the saved segments) or replayed in full (edited since).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from app.recovery import find_recoverable, recover
from app.storage import is_sealed, load_encounter, save_encounter
from rules.history import History
from rules.serialize import history_from_document
from tests.app.release_files.observe import observe, observe_state

FILES = Path(__file__).parent / "release_files"
FIGHTS = sorted(path.name for path in FILES.glob("*.bojovka"))
JOURNALS = sorted(path.name for path in FILES.glob("*.jsonl"))


def expected(name: str) -> dict[str, Any]:
    result: dict[str, Any] = json.loads((FILES / f"{name}.expected.json").read_text(encoding="utf-8"))
    return result


def observed(history: History, name: str) -> dict[str, Any]:
    """What the history shows, as the recorded JSON has it (undo steps in full or as digests, likewise)."""
    result: dict[str, Any] = json.loads(json.dumps(observe(history, steps="undo_steps" in expected(name))))
    return result


def test_the_folder_holds_every_kind_of_file() -> None:
    assert len(FIGHTS) >= 9 and len(JOURNALS) == 2
    assert all((FILES / f"{name}.expected.json").exists() for name in FIGHTS + JOURNALS)


@pytest.mark.parametrize("name", FIGHTS)
def test_an_old_file_opens_as_it_did(name: str) -> None:
    assert observed(load_encounter(FILES / name), name) == expected(name)


@pytest.mark.parametrize("name", [name for name in FIGHTS if is_sealed((FILES / name).read_bytes())])
def test_an_old_file_replayed_in_full_shows_the_same(name: str) -> None:
    document = json.loads((FILES / name).read_text(encoding="utf-8"))
    assert observed(history_from_document(document, trusted=False), name) == expected(name)


@pytest.mark.parametrize("name", FIGHTS)
def test_an_old_fight_redoes_to_where_it_was_and_saves_again(name: str, tmp_path: Path) -> None:
    history = load_encounter(FILES / name)
    opened = observe_state(history.state, history.system)
    while history.can_undo:
        history.undo()
    while history.can_redo:
        history.redo()
    assert observe_state(history.state, history.system) == opened
    save_encounter(history, tmp_path / name)
    assert observed(load_encounter(tmp_path / name), name) == expected(name)


@pytest.mark.parametrize("name", JOURNALS)
def test_an_old_journal_recovers_as_it_did(name: str, tmp_path: Path) -> None:
    shutil.copyfile(FILES / name, tmp_path / name)
    (candidate,) = find_recoverable(tmp_path)
    assert candidate.problem is None
    assert observed(recover(candidate), name) == expected(name)
