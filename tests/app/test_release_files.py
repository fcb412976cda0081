"""Files written by an earlier release open exactly as that release showed them.

tests/app/release_files holds encounter files and crash-recovery journals written by the release before the
game's own state moved into one field (schema 2), with what opening each one showed then: every combatant's
name, side, status and tracks, the clock, the order still to come, the log in English, every state undo
passes through and the state at the start (tests/app/release_files/observe.py). Each is opened here the way
the app opens it and must show exactly the same, whichever way it is read: from its saved state (sealed,
undo replaying the saved segments) or replayed in full (edited since).
"""

from __future__ import annotations

import copy
import json
import random
import shutil
from pathlib import Path
from typing import Any

import pytest

from app.recovery import find_recoverable, recover
from app.storage import StorageError, is_sealed, load_encounter, save_encounter, sealed_json
from rules.history import History
from rules.serialize import history_from_document
from tests.app.release_files.observe import OPTIONS_ADDED_SINCE, observe, observe_state
from tests.app.test_hostile_files import _junk, _paths, _use, mutants

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


@pytest.mark.parametrize("name", FIGHTS)
def test_an_old_file_opens_with_the_defaults_of_options_added_since(name: str) -> None:
    history = load_encounter(FILES / name)
    system = history.system
    added = [spec for spec in system.option_specs() if spec.key in OPTIONS_ADDED_SINCE.get(system.id, frozenset())]
    for state in (history.state, history.initial):
        assert all(spec.key not in state.options for spec in added)
        assert {spec.key: system.option(state, spec.key) for spec in added} == {spec.key: spec.default
                                                                                for spec in added}


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


def _damaged_game_parts(document: dict[str, Any], rng: random.Random) -> bytes:
    """The document with one or two values the migration rewrites (a checkpoint's patch, the state's seats,
    surprise or options) replaced by junk or deleted; sealed again half the time (as a forger would)."""
    changed = copy.deepcopy(document)
    targets = [changed["checkpoints"], changed["state"]]
    for _change in range(rng.randint(1, 2)):
        paths = [path for target in targets for path in _paths(target)]
        parent, key = paths[rng.randrange(len(paths))]
        if isinstance(parent, dict) and rng.random() < 0.3:
            del parent[key]
        else:
            parent[key] = _junk(rng)
    try:
        return (sealed_json(changed) if rng.random() < 0.5 else json.dumps(changed)).encode("utf-8")
    except (ValueError, RecursionError):
        return b"{}"


#: Damaged old files tried, in parts of one test each (`make test` spreads them over the cores).
DAMAGED, DAMAGED_PARTS = 80, 2


@pytest.mark.parametrize("part", range(DAMAGED_PARTS))
def test_damaged_old_files_open_or_are_refused_clearly(part: int, tmp_path: Path) -> None:
    """The migration meets damaged old files too: bit flips, values retyped anywhere, or in what it rewrites."""
    originals = [json.loads((FILES / name).read_text(encoding="utf-8")) for name in FIGHTS
                 if name.endswith("-long.bojovka")]
    rng = random.Random(3 + part)
    path, outcomes = tmp_path / "damaged.bojovka", {"opened": 0, "refused": 0}
    per_part = DAMAGED // DAMAGED_PARTS
    for number in range(part * per_part, (part + 1) * per_part):
        document = originals[number % len(originals)]
        if number % 2:
            data, how = next(mutants(document, 1, 3_000 + number, first=number // 2))
        else:
            data, how = _damaged_game_parts(document, rng), "game parts"
        path.write_bytes(data)
        try:
            _use(path, tmp_path)
        except StorageError as error:
            assert str(error).startswith("Cannot open") and len(str(error)) < 1000, (how, str(error)[:300])
            outcomes["refused"] += 1
        else:
            outcomes["opened"] += 1
    print(f"\ndamaged old files, part {part + 1} of {DAMAGED_PARTS}: {outcomes}")
    assert outcomes["refused"] and outcomes["opened"], outcomes
