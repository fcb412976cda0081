"""Encounter files: round trips, atomic saves that keep a .bak, and clear messages for every bad file."""

from __future__ import annotations

import errno
import gc
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app import storage
from app.storage import (
    MAX_FILE_BYTES,
    StorageError,
    atomic_write_text,
    load_encounter,
    save_encounter,
)
from rules.combatants import EditCombatant
from rules.documents import fight_data
from rules.errors import RulesError
from rules.history import History
from rules.serialize import SCHEMA_VERSION, history_from_document, history_to_document, to_data
from tests.app.crash_worker import build_script
from tests.rules.sr3_scenes import eight_characters, play_round, roll_ones


def fight() -> History:
    """The seed's eight characters after one whole round."""
    history, ids = eight_characters()
    roll_ones(history, ids)
    play_round(history)
    return history


def long_fight(operations: int) -> History:
    """A fight of ``operations`` operations (plus the roster), from the crash test's script without undos."""
    history, _ids = eight_characters()
    for step in build_script(7, operations, only_operations=True):
        assert step.operation is not None
        history.do(step.operation)
    return history


def same(a: History, b: History) -> bool:
    return fight_data(a) == fight_data(b)


def snapshot(directory: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(directory.iterdir())}


# --- saving -------------------------------------------------------------------------------------


def test_round_trip(tmp_path: Path) -> None:
    history = fight()
    path = tmp_path / "fight.bojovka"
    save_encounter(history, path)
    loaded = load_encounter(path)
    assert same(loaded, history)
    assert to_data(loaded.state) == to_data(history.state)
    document = json.loads(path.read_text(encoding="utf-8"))
    assert document["schema_version"] == SCHEMA_VERSION
    assert document["app_version"] and document["saved"].endswith("+00:00")


def test_compact_json_keeps_non_ascii_names(tmp_path: Path) -> None:
    history = fight()
    history.do(EditCombatant("c1", "name", "Žluťoučký kůň Ёжик Łukasz"))
    path = tmp_path / "fight.bojovka"
    save_encounter(history, path)
    text = path.read_text(encoding="utf-8")
    assert "Žluťoučký kůň Ёжик Łukasz" in text
    assert '": ' not in text and ", " not in text.replace("Łukasz, ", "")
    assert load_encounter(path).state.combatant("c1").name == "Žluťoučký kůň Ёжик Łukasz"


def test_previous_file_is_kept_as_bak(tmp_path: Path) -> None:
    path = tmp_path / "fight.bojovka"
    first = fight()
    save_encounter(first, path)
    first_bytes = path.read_bytes()
    second = fight()
    second.do(EditCombatant("c2", "name", "Renamed"))
    save_encounter(second, path)
    backup = tmp_path / "fight.bojovka.bak"
    assert backup.read_bytes() == first_bytes
    assert same(load_encounter(backup), first)
    assert same(load_encounter(path), second)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fight.bojovka", "fight.bojovka.bak"]


def test_bak_is_made_by_copy_where_hard_links_fail(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "fight.bojovka"
    save_encounter(fight(), path)
    first_bytes = path.read_bytes()

    def no_links(*_args: object) -> None:
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    save_encounter(long_fight(20), path)
    assert (tmp_path / "fight.bojovka.bak").read_bytes() == first_bytes


def test_save_keeps_the_file_mode(tmp_path: Path) -> None:
    path = tmp_path / "fight.bojovka"
    save_encounter(fight(), path)
    path.chmod(0o640)
    save_encounter(fight(), path)
    assert path.stat().st_mode & 0o777 == 0o640


def test_atomic_write_text(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    atomic_write_text(path, "první\n")
    atomic_write_text(path, "druhý\n")
    assert path.read_text(encoding="utf-8") == "druhý\n"
    assert [p.name for p in tmp_path.iterdir()] == ["settings.json"]  # no .bak unless asked


def _failing(name: str, after: int = 0) -> Callable[..., Any]:
    """A replacement for ``os.<name>`` that works ``after`` times, then fails as a full disk does."""
    real = getattr(os, name)
    calls = {"count": 0}

    def fail(*args: Any, **kwargs: Any) -> Any:
        calls["count"] += 1
        if calls["count"] > after:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(*args, **kwargs)

    return fail


@pytest.mark.parametrize(("name", "after"), [("fsync", 0), ("replace", 0), ("replace", 1), ("write", 0),
                                             ("open", 0), ("link", 0)])
def test_full_disk_leaves_the_previous_file_intact(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str,
                                                   after: int) -> None:
    path = tmp_path / "fight.bojovka"
    save_encounter(fight(), path)
    save_encounter(fight(), path)  # now there is a .bak too
    before = snapshot(tmp_path)
    history = long_fight(30)
    with monkeypatch.context() as patch, pytest.raises(StorageError) as error:
        patch.setattr(os, name, _failing(name, after))
        if name == "link":  # a failing hard link falls back to a copy, which fails on the full disk too
            patch.setattr(os, "write", _failing("write", 0))
        save_encounter(history, path)
    message = str(error.value)
    assert str(path) in message and "the disk is full" in message and "unchanged" in message
    after_failure = snapshot(tmp_path)
    assert set(after_failure) == set(before)  # no temp file left behind
    assert after_failure[path.name] == before[path.name]
    # The .bak is whole: the old one, or (when only the last rename failed) a copy of the file it backs up.
    assert after_failure[path.name + ".bak"] in (before[path.name + ".bak"], before[path.name])
    assert same(load_encounter(path), fight())


def test_write_that_stops_half_way(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "fight.bojovka"
    save_encounter(fight(), path)
    before = snapshot(tmp_path)
    real_write = os.write

    def short_then_full(fd: int, data: bytes | memoryview) -> int:
        if len(data) > 100:
            return real_write(fd, bytes(data)[:100])  # a short write, then the disk fills up
        raise OSError(errno.ENOSPC, "No space left on device")

    history = long_fight(10)
    with monkeypatch.context() as patch, pytest.raises(StorageError, match="the disk is full"):
        patch.setattr(os, "write", short_then_full)
        save_encounter(history, path)
    assert snapshot(tmp_path) == before


def test_read_only_file_system(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "fight.bojovka"
    save_encounter(fight(), path)
    before = snapshot(tmp_path)
    real_open = os.open

    def read_only(file: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if flags & (os.O_WRONLY | os.O_RDWR):
            raise OSError(errno.EROFS, "Read-only file system")
        return real_open(file, flags, *args, **kwargs)

    history = long_fight(10)
    with monkeypatch.context() as patch, pytest.raises(StorageError, match="the disk is read-only"):
        patch.setattr(os, "open", read_only)
        save_encounter(history, path)
    assert snapshot(tmp_path) == before


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root may write anywhere")
def test_read_only_directory(tmp_path: Path) -> None:
    folder = tmp_path / "locked"
    folder.mkdir()
    path = folder / "fight.bojovka"
    save_encounter(fight(), path)
    before = snapshot(folder)
    folder.chmod(0o555)
    try:
        with pytest.raises(StorageError, match="permission denied"):
            save_encounter(long_fight(10), path)
    finally:
        folder.chmod(0o755)
    assert snapshot(folder) == before


def test_missing_folder(tmp_path: Path) -> None:
    with pytest.raises(StorageError, match="does not exist"):
        save_encounter(fight(), tmp_path / "nowhere" / "fight.bojovka")


def test_a_fight_too_large_to_reopen_is_not_saved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(storage, "MAX_FILE_BYTES", 1000)
    with pytest.raises(StorageError, match="too large"):
        save_encounter(fight(), tmp_path / "fight.bojovka")
    assert list(tmp_path.iterdir()) == []


# --- loading bad files --------------------------------------------------------------------------


def _real_document() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(json.dumps(history_to_document(fight())))
    return document


def _bad_files() -> dict[str, tuple[bytes, str]]:
    real = json.dumps(_real_document()).encode()
    wrong_type = _real_document()
    wrong_type["operations"][0]["attributes"]["body"] = "four"
    huge = _real_document()
    huge["operations"][0]["attributes"]["reaction"] = 10**30
    newer = dict(_real_document(), schema_version=SCHEMA_VERSION + 1)
    return {
        "truncated": (real[: len(real) // 2], "line 1, column"),
        "not json": (b"Hello, this is my shopping list.\n", "line 1, column 1"),
        "empty": (b"", "the file is empty"),
        "blank": (b" \n\t\n", "the file is empty"),
        "binary junk": (bytes(range(128, 256)) * 40, "not a text file"),
        "wrong type": (json.dumps(wrong_type).encode(), "operations[0].attributes.body: expected a whole number"),
        "huge number": (json.dumps(huge).encode(), "too large"),
        "endless digits": (b'{"format": ' + b"9" * 50_000 + b"}", "cannot be read"),
        "deep nesting": (b"[" * 200_000 + b"]" * 200_000, "nested too deeply"),
        "newer version": (json.dumps(newer).encode(), "update Bojovka"),
        "another json": (b'{"name": "my grocery list"}', "not a Bojovka encounter file"),
        "a list": (b"[1, 2, 3]", "not a Bojovka encounter file"),
        "hostile op": (json.dumps(dict(_real_document(), operations=[{"op": "__import__('os').system('id')"}]))
                       .encode(), "unknown operation"),
        "nan": (real.replace(b'"round": 1', b'"round": NaN', 1), "NaN is not a number JSON allows"),
        "infinity": (real.replace(b'"round": 1', b'"round": -Infinity', 1), "-Infinity is not a number"),
    }


BAD_FILES = _bad_files()


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_bad_file_gives_a_clear_message_and_stays_unchanged(tmp_path: Path, case: str) -> None:
    content, expected = BAD_FILES[case]
    path = tmp_path / "bad.bojovka"
    path.write_bytes(content)
    stamp = path.stat().st_mtime_ns
    with pytest.raises(StorageError) as error:
        load_encounter(path)
    message = str(error.value)
    assert expected in message
    assert message.startswith(f"Cannot open “{path}”")
    assert "Traceback" not in message and len(message) < 400
    assert path.read_bytes() == content and path.stat().st_mtime_ns == stamp
    assert [p.name for p in tmp_path.iterdir()] == ["bad.bojovka"]


def test_storage_error_is_a_rules_error(tmp_path: Path) -> None:
    with pytest.raises(RulesError):
        load_encounter(tmp_path / "missing.bojovka")


def test_missing_file_and_folder(tmp_path: Path) -> None:
    with pytest.raises(StorageError, match="does not exist"):
        load_encounter(tmp_path / "missing.bojovka")
    with pytest.raises(StorageError, match="folder"):
        load_encounter(tmp_path)


def test_100_megabytes_of_junk_is_refused_before_reading(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "junk.bojovka"
    block = os.urandom(1 << 20)
    with path.open("wb") as stream:
        for _index in range(100):
            stream.write(block)
    assert path.stat().st_size > MAX_FILE_BYTES

    real_open = storage.open_regular

    class Unread:
        """The opened file, measured but never read: refused from its size alone, before a byte is read."""

        def __init__(self, stream: Any) -> None:
            self._stream = stream

        def __enter__(self) -> Unread:
            return self

        def __exit__(self, *_details: object) -> None:
            self._stream.close()

        def fileno(self) -> int:
            return int(self._stream.fileno())

        def read(self, *_args: object) -> bytes:
            raise AssertionError("the file was read")

    monkeypatch.setattr(storage, "open_regular", lambda opened: Unread(real_open(opened)))
    with pytest.raises(StorageError, match=r"too large \(100 MB; the limit is 64 MB\)"):
        load_encounter(path)


needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are a POSIX feature")


@needs_fifo
@pytest.mark.timeout(30)
def test_a_named_pipe_is_refused_before_it_is_waited_on(tmp_path: Path) -> None:
    """A FIFO named like an encounter hung Open: opening a pipe waits for something to write into it."""
    pipe = tmp_path / "pipe.bojovka"
    os.mkfifo(pipe)
    with pytest.raises(StorageError) as refused:
        load_encounter(pipe)
    assert str(refused.value) == f"Cannot open “{pipe}”: it is not a file but a pipe, a device or a socket."
    assert storage.peek_system_id(pipe) is None  # the recent files list at start-up reads a file's first bytes
    from app.library import LibraryError, parse_library_file

    with pytest.raises(LibraryError, match="not a file but a pipe"):  # File → Import roster/bestiary
        parse_library_file(pipe)


@pytest.mark.timeout(30)
@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
def test_a_device_that_never_ends_is_refused() -> None:
    with pytest.raises(StorageError, match="not a file but a pipe, a device or a socket"):
        load_encounter(Path("/dev/zero"))


def test_a_file_that_grows_while_read_is_cut_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "growing.bojovka"
    path.write_bytes(b"[" + b"1," * 600 + b"1]")
    monkeypatch.setattr(storage, "MAX_FILE_BYTES", 1000)
    with pytest.raises(StorageError, match="too large"):
        load_encounter(path)


def test_a_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "notepad.bojovka"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(_real_document()).encode())
    assert same(load_encounter(path), fight())


def test_a_failed_load_leaves_the_open_fight_alone(tmp_path: Path) -> None:
    current = fight()
    before = history_to_document(current)
    path = tmp_path / "bad.bojovka"
    path.write_bytes(BAD_FILES["truncated"][0])
    with pytest.raises(StorageError):
        current = load_encounter(path)
    assert history_to_document(current) == before


# --- random damage ------------------------------------------------------------------------------

SAVED = json.dumps(_real_document(), separators=(",", ":")).encode()


@st.composite
def damaged(draw: st.DrawFn) -> bytes:
    """The saved fight truncated, with flipped bits, or with bytes dropped in or cut out."""
    data = bytearray(SAVED)
    for _index in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["truncate", "flip", "insert", "delete"]))
        position = draw(st.integers(0, max(len(data) - 1, 0)))
        if kind == "truncate":
            del data[position:]
        elif kind == "flip" and data:
            data[position] ^= 1 << draw(st.integers(0, 7))
        elif kind == "insert":
            data[position:position] = draw(st.sampled_from(
                [b"9" * 40, b"[[[[", b"-", b"1e999", b'"x"', b"null", b",{}", b"\xff\xfe", b"\\u0000"]))
        else:
            del data[position:position + draw(st.integers(1, 50))]
    return bytes(data)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(content=damaged())
def test_random_damage_loads_or_gives_a_storage_error(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "damaged.bojovka"
    path.write_bytes(content)
    try:
        load_encounter(path)
    except StorageError as error:
        assert str(error).startswith("Cannot open")
    assert path.read_bytes() == content


# --- a long fight -------------------------------------------------------------------------------


def test_a_1000_operation_fight_saves_and_loads_exactly(tmp_path: Path) -> None:
    history = long_fight(1000)
    assert len(history.entries) == 1008
    path = tmp_path / "long.bojovka"
    save_encounter(history, path)
    assert same(load_encounter(path), history)  # how long it takes is measured by `make bench` (P4), not here


def test_a_fight_is_decoded_with_the_cycle_collector_held_off_and_it_runs_again_after(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The collector went over a long fight's million fresh objects again and again while it was decoded.
    history, _ids = eight_characters()
    path = tmp_path / "fight.bojovka"
    save_encounter(history, path)
    seen: list[bool] = []
    real = history_from_document

    def decode(document: Any, trusted: bool = False) -> History:
        seen.append(gc.isenabled())
        return real(document, trusted=trusted)

    monkeypatch.setattr(storage, "history_from_document", decode)
    assert gc.isenabled()
    load_encounter(path)
    assert seen == [False] and gc.isenabled()
    path.write_text("{}", encoding="utf-8")
    with pytest.raises(StorageError):
        load_encounter(path)
    assert gc.isenabled()  # a refused file leaves it running too
    gc.disable()
    try:
        with storage.collector_paused():
            pass
        assert not gc.isenabled()  # whoever had stopped it keeps it stopped
    finally:
        gc.enable()
