"""Hostile files: 1,000 mutated encounter files and 1,000 mutated roster exports.

Mutations: truncations, bit flips, values of the wrong type at random places, deep nesting, enormous numbers
and strings, junk bytes and other encodings. Half the mutated encounters are sealed again afterwards (as a
forger would), so they take the fast path that opens from the saved state, and get checked lazily.

Every file either opens (and then its fight can be undone to the start or to the damage, and saved again) or
is refused with a clear message; nothing else may happen, and no code path that executes content
(``eval``, ``exec``, ``compile``, unpickling, importing an unknown module) is ever reached while loading.
"""

from __future__ import annotations

import builtins
import contextlib
import copy
import dataclasses
import importlib
import json
import marshal
import pickle
import random
import sys
import typing
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from app.library import Library, LibraryError
from app.samples import samples
from app.storage import StorageError, load_encounter, save_encounter, sealed_json
from rules.combatants import AddCombatant
from rules.encounter import Encounter, Side, frozen_map
from rules.history import History, HistoryDamaged, Operation
from rules.serialize import FORMAT, SCHEMA_VERSION, history_to_document, to_data, type_hints
from rules.systems import all_systems
from rules.turns import RollInitiative
from tests.rules.test_documents import long_fight

FILES = 1000
SEED = 8
#: The files are tried in this many parts, one test each, so that `make test` spreads them over the cores
#: (one part's mutants are the same as before: file ``number`` is made from the same seed).
PARTS = 4
PART_FILES = FILES // PARTS


# --- no code runs from a file ---------------------------------------------------------------------


def _refuse(name: str) -> Callable[..., Any]:
    def refused(*_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError(f"{name} was called while loading a file")

    return refused


@contextlib.contextmanager
def nothing_executes(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Make every way of running content fail loudly (imports of modules already loaded stay allowed)."""
    real_import = builtins.__import__

    def known_only(name: str, *args: Any, **kwargs: Any) -> Any:
        if name not in sys.modules:
            raise AssertionError(f"import of {name!r} while loading a file")
        return real_import(name, *args, **kwargs)

    with monkeypatch.context() as patch:
        for module, name in ((builtins, "eval"), (builtins, "exec"), (builtins, "compile"), (pickle, "loads"),
                             (pickle, "load"), (marshal, "loads"), (importlib, "import_module")):
            patch.setattr(module, name, _refuse(f"{module.__name__}.{name}"))
        patch.setattr(builtins, "__import__", known_only)
        yield


def resolve_every_type_hint() -> None:
    """The codec reads each class's annotations the first time it decodes one (``typing`` compiles our own
    annotation strings then): do it for every class now, so that loading a file compiles nothing at all."""
    pending: list[Any] = [Encounter, *Operation.registry.values()]
    seen: set[Any] = set()
    while pending:
        kind = pending.pop()
        if kind in seen:
            continue
        seen.add(kind)
        if isinstance(kind, type) and dataclasses.is_dataclass(kind):
            pending.extend(type_hints(kind).values())
        pending.extend(typing.get_args(kind))


# --- mutations ------------------------------------------------------------------------------------


def _paths(root: Any) -> list[tuple[Any, Any]]:
    """(container, key) of every value down to depth 40 (iterative: junk may already be deeply nested)."""
    found: list[tuple[Any, Any]] = []
    pending = [(root, 0)]
    while pending:
        node, depth = pending.pop()
        children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for key, child in children:
            found.append((node, key))
            if depth < 40:
                pending.append((child, depth + 1))
    return found


#: The key paths of each original document, in :func:`_paths` order, worked out once: the first change of each
#: mutant is made at one of them (walking a 300-operation fight for every mutant was a fifth of the test).
_ORIGINAL_PATHS: dict[int, tuple[Any, list[tuple[Any, ...]]]] = {}


def _key_paths(root: Any) -> list[tuple[Any, ...]]:
    """The keys leading to every value, in the order of :func:`_paths` (the same walk)."""
    found: list[tuple[Any, ...]] = []
    pending: list[tuple[Any, tuple[Any, ...]]] = [(root, ())]
    while pending:
        node, keys = pending.pop()
        children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for key, child in children:
            found.append((*keys, key))
            if len(keys) < 40:
                pending.append((child, (*keys, key)))
    return found


def _original_paths(original: Any) -> list[tuple[Any, ...]]:
    kept = _ORIGINAL_PATHS.get(id(original))
    if kept is None or kept[0] is not original:  # the document is kept with its paths, so its id stays its own
        kept = _ORIGINAL_PATHS[id(original)] = (original, _key_paths(original))
    return kept[1]


def _still_there(root: Any, keys: tuple[Any, ...]) -> tuple[Any, Any]:
    """(container, key) of the value ``keys`` lead to, or (None, None) if a change took the way there."""
    parent = root
    for key in keys:
        if not ((isinstance(parent, dict) and key in parent)
                or (isinstance(parent, list) and isinstance(key, int) and 0 <= key < len(parent))):
            return None, None
        container, parent = parent, parent[key]
    return container, keys[-1]


_JUNK: tuple[Any, ...] = (None, True, False, 0, -1, 7, 10**30, -(10**12), 1.5, float(2**70), "", "c1", "Ø" * 3,
                          "x" * 1000, "x" * 200_000, [], [1, 2, 3], {}, {"op": "next_turn"},
                          {"__class__": "os.system", "args": ["rm -rf /"]}, "__import__('os').system('true')")


def _junk(rng: random.Random) -> Any:
    """A value of any type, size or depth (one in ~20 deeply nested: built only when it is the one chosen)."""
    choice = rng.randrange(len(_JUNK) + 1)
    if choice < len(_JUNK):
        return copy.deepcopy(_JUNK[choice])  # a mutant may change it further: never the shared one
    deep: Any = "x"
    for _level in range(rng.choice((30, 200, 5000))):
        deep = [deep] if rng.random() < 0.5 else {"a": deep}
    return deep


def _retyped(data: Any, rng: random.Random, count: int) -> Any:
    """``count`` values somewhere in ``data`` replaced by junk of any type (a key may also be deleted)."""
    first = _original_paths(data)
    data = json.loads(json.dumps(data))
    for _change in range(count):
        # Most of the original's paths are still there after a change (walking the copy again took long); one
        # that went with the last change is replaced by one of the copy's own paths.
        parent, key = _still_there(data, first[rng.randrange(len(first))])
        if parent is None:
            paths = _paths(data)
            parent, key = paths[rng.randrange(len(paths))]
        if isinstance(parent, dict) and rng.random() < 0.2:
            del parent[key]
        else:
            parent[key] = _junk(rng)
    return data


def _dumps(document: Any) -> bytes:
    try:
        return json.dumps(document, ensure_ascii=False).encode("utf-8")
    except RecursionError:  # too deep for the encoder itself: write the nesting by hand
        return b'{"format":"bojovka-encounter","schema_version":2,"initial":' + b"[" * 100_000 + b"]" * 100_000 + b"}"


def _byte_damage(data: bytes, rng: random.Random) -> bytes:
    choice = rng.randrange(7)
    if choice == 0:
        return data[: rng.randrange(len(data))]
    if choice == 1:
        damaged = bytearray(data)
        for _flip in range(rng.randint(1, 8)):
            damaged[rng.randrange(len(damaged))] ^= 1 << rng.randrange(8)
        return bytes(damaged)
    if choice == 2:
        at = rng.randrange(len(data))
        return data[:at] + bytes(rng.randrange(256) for _ in range(rng.randint(1, 64))) + data[at:]
    if choice == 3:
        return data.decode("utf-8").encode(rng.choice(["utf-16", "utf-32", "latin-1", "cp1250"]), "replace")
    if choice == 4:
        number = b"1" + b"0" * rng.choice((400, 5000, 100_000))
        return data.replace(b'"serial":', b'"serial":' + number + b",\"x\":", 1)
    if choice == 5:
        return data.replace(b":", b":NaN,\"y\":", 1) if rng.random() < 0.5 else b"\x00" * rng.randint(1, 99)
    return data.replace(b"{", b'{"format":"other",', 1)


def mutants(document: dict[str, Any], count: int, seed: int,
            sealed: bytes | None = None, first: int = 0) -> Iterator[tuple[bytes, str]]:
    """``count`` damaged versions of ``document``: (bytes, what was done); ``sealed``: the document's sealed
    bytes, when the caller has them already (sealing a long fight costs more than mutating it). The kind of
    damage goes round by the mutant's number, counted from ``first``: a caller taking one mutant at a time
    passes its own count, or every mutant would be the first kind."""
    rng = random.Random(seed)
    sealed = sealed if sealed is not None else sealed_json(document).encode("utf-8")
    for number in range(first, first + count):
        if number % 2:
            yield _byte_damage(sealed, rng), "bytes"
        elif number % 4 == 0:
            yield _dumps(_retyped(document, rng, rng.randint(1, 3))), "retyped"
        else:  # retyped, then sealed again: the fast path must find the damage itself
            changed = _retyped(document, rng, rng.randint(1, 3))
            try:
                yield sealed_json(changed).encode("utf-8"), "retyped and sealed"
            except (ValueError, RecursionError):
                yield _dumps(changed), "retyped"


# --- encounter files ------------------------------------------------------------------------------


def _originals() -> list[dict[str, Any]]:
    fights = [long_fight(300), *(builder() for builder in samples().values())]
    return [json.loads(json.dumps(history_to_document(fight))) for fight in fights]


def _use(path: Path, tmp_path: Path) -> None:
    """What the GM does with a file that opened: look, undo back to the start (or the damage), save it."""
    history = load_encounter(path)
    to_data(history.state)
    with contextlib.suppress(HistoryDamaged):
        for _step in range(400):
            if history.undo() is None:
                break
    while history.redo() is not None:
        pass
    again = tmp_path / "again.bojovka"
    save_encounter(history, again)
    load_encounter(again)


@pytest.mark.parametrize("part", range(PARTS))
def test_1000_mutated_encounter_files_open_or_are_refused_clearly(part: int, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    all_systems()  # every game imported now, so loading imports nothing
    resolve_every_type_hint()
    originals = _originals()
    sealed = [sealed_json(original).encode("utf-8") for original in originals]
    path, outcomes, kinds = tmp_path / "hostile.bojovka", {"opened": 0, "refused": 0}, dict[str, int]()
    for warm_up in (sealed_json(originals[0]).encode(), b"\xff{"):  # the standard library's lazy imports, once
        path.write_bytes(warm_up)
        with contextlib.suppress(StorageError):
            _use(path, tmp_path)
    for number in range(part * PART_FILES, (part + 1) * PART_FILES):
        which = number % len(originals)
        data, how = next(mutants(originals[which], 1, SEED * 10_000 + number, sealed[which], first=number))
        path.write_bytes(data)
        try:
            with nothing_executes(monkeypatch):
                _use(path, tmp_path)
        except StorageError as error:
            message = str(error)
            assert message.startswith("Cannot open") and len(message) < 1000, (how, message[:300])
            assert "Traceback" not in message
            outcomes["refused"] += 1
        else:
            outcomes["opened"] += 1
        assert path.read_bytes() == data  # a failed load never touches the file
        kinds[how] = kinds.get(how, 0) + 1
    print(f"\nhostile encounter files, part {part + 1} of {PARTS}: {outcomes}, {kinds}")
    assert set(kinds) == {"bytes", "retyped", "retyped and sealed"}, kinds
    assert outcomes["refused"] > PART_FILES / 2 and outcomes["opened"] > 0, outcomes


# --- roster and bestiary exports ------------------------------------------------------------------


@pytest.mark.parametrize("part", range(PARTS))
def test_1000_mutated_roster_exports_are_imported_whole_or_refused_clearly(part: int, tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    resolve_every_type_hint()
    library = Library(tmp_path / "library.sqlite3")
    export = tmp_path / "export.json"
    library.export_json(library.search(), export)
    original = json.loads(export.read_text(encoding="utf-8"))
    rng, target, outcomes = random.Random(SEED * 10 + part), tmp_path / "hostile.json", {"added": 0, "refused": 0}
    for warm_up in (b"\xff{", b"[1]"):  # the standard library's lazy imports, once
        target.write_bytes(warm_up)
        with contextlib.suppress(LibraryError):
            library.import_json(target)
    for number in range(PART_FILES):
        if number % 2:
            data = _byte_damage(export.read_bytes(), rng)
        else:
            data = _dumps(_retyped(original, rng, rng.randint(1, 3)))
        target.write_bytes(data)
        before = len(library.search())
        try:
            with nothing_executes(monkeypatch):
                added = library.import_json(target).added
        except LibraryError as error:
            assert 10 < len(str(error)) < 1000 and "Traceback" not in str(error)
            assert len(library.search()) == before  # all or nothing
            outcomes["refused"] += 1
        else:
            assert len(library.search()) == before + len(added)
            outcomes["added"] += 1
    assert library.integrity_ok()
    print(f"\nhostile roster exports, part {part + 1} of {PARTS}: {outcomes}")
    assert outcomes["refused"] > PART_FILES / 2 and outcomes["added"] > 0, outcomes


# --- numbers past the window's limits (issue 19) ----------------------------------------------------------------


def _small_fight_document() -> dict[str, Any]:
    """A started SR3 fight of three, its state as a file holds it (a few kilobytes)."""
    history = History(Encounter("sr3", "Small"))
    for number, name in enumerate(("Twitch", "Wedge", "Ganger"), start=1):
        history.do(AddCombatant(f"c{number}", name, Side.PLAYER, frozen_map({"reaction": 5, "initiative_dice": 1})))
    history.do(RollInitiative(frozen_map({"c1": (4,), "c2": (2,), "c3": (6,)}),
                              frozen_map({"c1": (1,), "c2": (2,), "c3": (3,)})))
    document: dict[str, Any] = json.loads(json.dumps(history_to_document(history)))
    return document


def _with_state_change(change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    """A file of no operations whose first (and last) state is the small fight's, changed by ``change``."""
    state = _small_fight_document()["state"]
    change(state)
    return {"format": FORMAT, "schema_version": SCHEMA_VERSION, "initial": state, "operations": []}


def _padded(document: dict[str, Any], size: int) -> dict[str, Any]:
    """``document`` grown to about ``size`` bytes with notes (a hostile file looks like any other)."""
    document["initial"]["notes"] = "x" * max(0, size - len(json.dumps(document)))
    return document


HOSTILE_NUMBERS: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("round 10^9", lambda state: state["clock"].__setitem__("round", 10**9),
     "initial.clock.round: the round number must be between 0 and 99999, not 1000000000."),
    ("pass 10^9", lambda state: state["clock"].__setitem__("pass_no", 10**9),
     "initial.clock.pass_no: the pass number must be between 0 and 10000, not 1000000000."),
    ("initiative dice 10^9",
     lambda state: state["combatants"]["c1"]["attributes"].__setitem__("initiative_dice", 10**9),
     "initial.combatants.c1.attributes.initiative_dice: an attribute must be between -9999 and 9999, not 1000000000."),
    ("100,000 faces", lambda state: state["combatants"]["c1"]["initiative"].__setitem__("dice", [3] * 100_000),
     "initial.combatants.c1.initiative.dice: initiative dice: at most 999, not 100000."),
]


@pytest.mark.timeout(60)
@pytest.mark.parametrize("sealed", [False, True], ids=["edited", "sealed"])
@pytest.mark.parametrize(("what", "change", "expected"), HOSTILE_NUMBERS, ids=[case[0] for case in HOSTILE_NUMBERS])
def test_a_number_past_the_windows_limit_is_refused_at_once_naming_the_field_and_the_limit(
        what: str, change: Callable[[dict[str, Any]], None], expected: str, sealed: bool, tmp_path: Path) -> None:
    """A 10 KB file with a round of 10⁹ made the window grow to 24 GB; initiative dice of 10⁹ froze Roll initiative;
    100,000 faces froze the first paint. The file is refused when opened, before anything is drawn."""
    document = _padded(_with_state_change(change), 10_000)
    path = tmp_path / "hostile.bojovka"
    path.write_text(sealed_json(document) if sealed else json.dumps(document), encoding="utf-8")
    with pytest.raises(StorageError) as refused:
        load_encounter(path)
    assert str(refused.value) == f"Cannot open “{path}”: {expected}", what
