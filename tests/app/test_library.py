"""The roster and bestiary: CRUD, search, migrations, JSON files (including hostile ones), two writers, naming."""

from __future__ import annotations

import json
import multiprocessing
import sqlite3
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import app.library as library_module
from app.library import (
    FORMAT,
    FORMAT_VERSION,
    MIGRATIONS,
    EntryKind,
    Library,
    LibraryEntry,
    LibraryError,
    from_combatant,
    name_key,
    numbered_names,
    parse_library_file,
    to_operations,
)
from app.paths import HOME_VARIABLE, resource
from rules.combatants import SHARED_MONITOR, AddCombatant
from rules.dice import Roller
from rules.encounter import Encounter, Side
from rules.errors import RulesError
from rules.history import Batch, History
from rules.systems import get_system
from rules.turns import roll_initiative

SR3 = get_system("sr3")
SR3_SEEDED = ["Corporate security guard", "Ganger", "Street samurai", "Troll bouncer"]


def _bundled_names() -> list[str]:
    """Every template the shipped bestiaries hold (one file per game), in the library's name order."""
    return sorted((entry.name for path in sorted(resource("bestiary").glob("*.json"))
                   for entry in parse_library_file(path)), key=name_key)


#: A new library holds every shipped bestiary once (SR3's and each other game's).
SEEDED = _bundled_names()


@pytest.fixture(autouse=True)
def _private_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(HOME_VARIABLE, str(tmp_path / "home"))


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "library.sqlite3"


@pytest.fixture
def empty(db_path: Path) -> Any:
    with Library(db_path, seed=False) as library:
        yield library


def pc(name: str, campaign: str = "Seattle 2060", **attributes: int) -> LibraryEntry:
    return LibraryEntry(kind=EntryKind.PC, system_id="sr3", name=name, campaign=campaign, side=Side.PLAYER,
                        attributes=attributes)


def npc(name: str, tags: str = "", **attributes: int) -> LibraryEntry:
    return LibraryEntry(kind=EntryKind.NPC, system_id="sr3", name=name, tags=tags, attributes=attributes)


def content(entry: LibraryEntry) -> LibraryEntry:
    """The entry without what the database assigns."""
    return replace(entry, id=None, created="", updated="")


# --- CRUD and search ----------------------------------------------------------------------------

def test_add_get_update_delete(empty: Library) -> None:
    stored = empty.add(pc("  Dave  ", body=5))
    assert stored.id is not None and stored.name == "Dave" and stored.created == stored.updated != ""
    assert empty.get(stored.id) == stored
    renamed = empty.update(replace(stored, name="Dave the Decker", attributes={"body": 6}, notes="cyberdeck"))
    assert renamed.created == stored.created
    assert empty.get(stored.id) == renamed
    assert renamed.attributes == {"body": 6} and renamed.notes == "cyberdeck"
    empty.delete(stored.id)
    assert empty.get(stored.id) is None
    with pytest.raises(LibraryError, match="no entry"):
        empty.delete(stored.id)
    with pytest.raises(LibraryError, match="no entry"):
        empty.update(renamed)


def test_the_library_error_is_a_rules_error() -> None:
    assert issubclass(LibraryError, RulesError)


@pytest.mark.parametrize(("entry", "message"), [
    (npc("   "), "The name is empty"),
    (npc("x" * 201), "too long"),
    (replace(npc("Ganger"), system_id="chess"), "Unknown game 'chess'"),
    (replace(npc("Ganger"), kind="boss"), "kind must be one of: pc, npc"),  # type: ignore[arg-type]
    (replace(npc("Ganger"), side="neutral"), "side must be one of"),  # type: ignore[arg-type]
    (npc("Ganger", body=10_000), "Attribute body must be a whole number"),
    (replace(npc("Ganger"), attributes={"body": True}), "Attribute body"),
    (replace(npc("Ganger"), extra={"weapon": {1, 2}}), "cannot be stored"),  # type: ignore[dict-item]
])
def test_bad_entries_are_refused_with_a_message(empty: Library, entry: LibraryEntry, message: str) -> None:
    with pytest.raises(LibraryError, match=message):
        empty.add(entry)
    assert empty.search() == []


def test_search_by_name_and_tags_in_any_case_ordered_by_name(empty: Library) -> None:
    for entry in (npc("troll bouncer", tags="club"), npc("Ganger", tags="street, gang"), npc("Čestmír"),
                  npc("Gang boss", tags="street"), pc("Dave")):
        empty.add(entry)
    assert [e.name for e in empty.search()] == ["Čestmír", "Dave", "Gang boss", "Ganger", "troll bouncer"]
    assert [e.name for e in empty.search("GANG")] == ["Gang boss", "Ganger"]
    assert [e.name for e in empty.search("street")] == ["Gang boss", "Ganger"]
    assert [e.name for e in empty.search("CLUB")] == ["troll bouncer"]
    assert [e.name for e in empty.search("čEST")] == ["Čestmír"]  # not only ASCII folds
    assert [e.name for e in empty.search(kind=EntryKind.PC)] == ["Dave"]
    assert [e.name for e in empty.search("a", kind="npc")] == ["Gang boss", "Ganger"]
    assert empty.search("100%") == [] and empty.search("_") == []  # no LIKE wildcards leak through


def test_search_filters_by_game_and_campaign(empty: Library, monkeypatch: pytest.MonkeyPatch) -> None:
    empty.add(pc("Dave", campaign="Seattle 2060"))
    empty.add(pc("Sharon", campaign="Berlin"))
    empty.add(pc("Mike", campaign=""))
    assert [e.name for e in empty.search(campaign="Berlin")] == ["Sharon"]
    assert [e.name for e in empty.search(system_id="sr3", campaign="")] == ["Mike"]
    assert empty.search(system_id="walka") == []
    assert empty.campaigns("sr3") == ["Berlin", "Seattle 2060"]
    assert empty.campaigns("walka") == []


# --- seeding and migrations ---------------------------------------------------------------------

def test_a_new_library_holds_the_bundled_bestiary_with_sensible_numbers(db_path: Path) -> None:
    with Library(db_path) as library:
        seeded = library.search(system_id="sr3", kind="npc")
    assert [e.name for e in seeded] == SR3_SEEDED
    specs = {spec.key: spec for spec in SR3.attribute_specs()}
    for entry in seeded:
        assert set(entry.attributes) == set(specs), entry.name
        for key, value in entry.attributes.items():
            assert specs[key].minimum <= value <= specs[key].maximum, (entry.name, key)
        assert entry.attributes["reaction"] >= entry.attributes["reaction_natural"]
        assert entry.side is Side.OPPONENT and entry.notes


def test_the_bestiary_is_seeded_once_so_deleted_templates_stay_deleted(db_path: Path) -> None:
    with Library(db_path) as library:
        ganger = library.search("Ganger")[0]
        assert ganger.id is not None
        library.delete(ganger.id)
    with Library(db_path) as library:
        assert [e.name for e in library.search()] == [name for name in SEEDED if name != "Ganger"]


def test_the_bestiary_ships_as_a_resource_in_the_library_format() -> None:
    entries = parse_library_file(resource("bestiary", "sr3.json"))
    assert [e.name for e in entries] == ["Ganger", "Corporate security guard", "Troll bouncer", "Street samurai"]


def _version(path: Path) -> int:
    with sqlite3.connect(path) as connection:
        return int(connection.execute("PRAGMA user_version").fetchone()[0])


def test_a_version_0_file_is_migrated_to_the_current_schema(db_path: Path) -> None:
    sqlite3.connect(db_path).close()  # an empty SQLite file: user_version 0, no tables
    with Library(db_path) as library:
        assert library.integrity_ok()
        assert [e.name for e in library.search()] == SEEDED
    assert _version(db_path) == len(MIGRATIONS)
    with sqlite3.connect(db_path) as connection:
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_an_old_database_is_migrated_and_keeps_its_entries(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with Library(db_path, seed=False) as library:
        dave = library.add(pc("Dave"))
    calls = []

    def add_portrait(connection: sqlite3.Connection) -> None:
        calls.append(1)
        connection.execute("ALTER TABLE entries ADD COLUMN portrait TEXT NOT NULL DEFAULT ''")

    monkeypatch.setattr(library_module, "MIGRATIONS", [*MIGRATIONS, add_portrait])
    for _attempt in range(2):
        with Library(db_path, seed=False) as library:
            assert library.get(dave.id or 0) == dave
    assert calls == [1]  # run once, then the version says it is done
    assert _version(db_path) == len(MIGRATIONS) + 1
    with sqlite3.connect(db_path) as connection:
        assert connection.execute("SELECT portrait FROM entries").fetchall() == [("",)]


def test_a_failing_migration_changes_nothing(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with Library(db_path, seed=False) as library:
        library.add(pc("Dave"))

    def broken(connection: sqlite3.Connection) -> None:
        connection.execute("ALTER TABLE entries ADD COLUMN portrait TEXT")
        connection.execute("THIS IS NOT SQL")

    monkeypatch.setattr(library_module, "MIGRATIONS", [*MIGRATIONS, broken])
    with pytest.raises(LibraryError, match="cannot be used"):
        Library(db_path, seed=False)
    assert _version(db_path) == len(MIGRATIONS)
    monkeypatch.setattr(library_module, "MIGRATIONS", MIGRATIONS)
    with Library(db_path, seed=False) as library:
        assert [e.name for e in library.search()] == ["Dave"]


def test_a_database_from_a_newer_version_is_refused_politely(db_path: Path) -> None:
    Library(db_path).close()
    with sqlite3.connect(db_path) as connection:
        connection.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    with pytest.raises(LibraryError, match="newer version of Bojovka"):
        Library(db_path)


def test_a_file_that_is_not_a_database_gives_a_message_and_is_left_alone(db_path: Path) -> None:
    db_path.write_bytes(b"this is my shopping list, not a database" * 100)
    with pytest.raises(LibraryError, match="cannot be used"):
        Library(db_path)
    assert db_path.read_bytes() == b"this is my shopping list, not a database" * 100


def test_a_row_damaged_by_another_tool_is_reported_by_name(empty: Library, db_path: Path) -> None:
    dave = empty.add(pc("Dave"))
    with sqlite3.connect(db_path) as connection:
        connection.execute("UPDATE entries SET attributes = '{\"body\": \"lots\"}' WHERE id = ?", (dave.id,))
    with pytest.raises(LibraryError, match=r"“Dave”.* is damaged: Attribute body"):
        empty.search()
    with pytest.raises(LibraryError, match="is damaged"):
        empty.get(dave.id or 0)


def test_the_default_path_is_in_the_data_dir(tmp_path: Path) -> None:
    with Library() as library:
        assert library.path == tmp_path / "home" / "data" / "library.sqlite3"
        assert library.path.exists()


# --- JSON files ---------------------------------------------------------------------------------

def test_export_then_import_round_trips_every_field(db_path: Path, tmp_path: Path) -> None:
    exported = tmp_path / "party.json"
    dave = replace(pc("Dave", body=5, reaction=6), notes="Line 1\nŘádek 2", tags="decker",
                   extra={"cyberware": ("datajack", {"rating": 2}), "karma": 12.5, "dead": None})
    with Library(db_path) as source:
        source.add(dave)
        entries = source.search()
        Library.export_json(entries, exported)
    document = json.loads(exported.read_text(encoding="utf-8"))
    assert document["format"] == FORMAT and document["version"] == 2
    assert len(document["entries"]) == len(SEEDED) + 1  # the bundled bestiaries and Dave
    with Library(tmp_path / "other.sqlite3", seed=False) as target:
        imported = target.import_json(exported)
        assert [content(e) for e in imported] == [content(e) for e in entries]
        assert target.import_json(exported) == []  # the same entries again are not duplicated
        assert len(target.search()) == len(SEEDED) + 1


def test_export_replaces_the_file_atomically(tmp_path: Path) -> None:
    target = tmp_path / "exports" / "out.json"
    target.parent.mkdir()
    target.write_text("old", encoding="utf-8")
    Library.export_json([npc("Ganger")], target)
    assert json.loads(target.read_text(encoding="utf-8"))["entries"][0]["name"] == "Ganger"
    assert [p.name for p in target.parent.iterdir()] == ["out.json"]  # no temporary left behind


def _library_file(*entries: Any, **top: Any) -> str:
    return json.dumps({"format": FORMAT, "version": 1, "entries": list(entries), **top})


GOOD: dict[str, Any] = {"kind": "npc", "system_id": "sr3", "name": "Good"}

HOSTILE: list[tuple[str, str]] = [
    ("{not json", "not a readable library file"),
    ("[1, 2, 3]", "not a Bojovka library file"),
    (json.dumps({"format": "bojovka-encounter", "version": 1, "entries": []}), "not a Bojovka library file"),
    (_library_file(version=FORMAT_VERSION + 1), "newer version of Bojovka"),
    (_library_file(version="1"), "no valid format version"),
    (_library_file(entries={"name": "x"}), "must be a list"),
    (_library_file(GOOD, "Ganger"), "entry 2 (“?”): An entry must be an object"),
    (_library_file(GOOD, {**GOOD, "name": "Bad", "atributes": {}}), "entry 2 (“Bad”): Unknown field 'atributes'"),
    (_library_file({"kind": "npc", "system_id": "sr3"}), "entry 1 (“?”): The field 'name' is missing"),
    (_library_file({**GOOD, "name": 7}), "The name must be text"),
    (_library_file({**GOOD, "name": "Bad", "attributes": {"body": "4"}}), "(“Bad”): Attribute body must be"),
    (_library_file({**GOOD, "name": "Bad", "attributes": {"body": 10**100}}), "(“Bad”): Attribute body must be"),
    (_library_file({**GOOD, "name": "Bad", "attributes": [4, 4]}), "(“Bad”): The attributes must be an object"),
    (_library_file({**GOOD, "name": "Bad", "system_id": "dnd"}), "(“Bad”): Unknown game 'dnd'"),
    (_library_file({**GOOD, "name": "Bad", "side": 3}), "(“Bad”): The side must be one of"),
    (_library_file({**GOOD, "name": "Bad", "kind": ["npc"]}), "(“Bad”): The kind must be one of"),
    (_library_file({**GOOD, "name": "Bad", "extra": {"x": 10**12}}), "(“Bad”): The extra data holds a value"),
    (_library_file({**GOOD, "name": "Bad", "notes": "x" * 100_001}), "(“Bad”): The notes is too long"),
    ('{"format": "bojovka-library", "version": 1, "entries": [{"kind": "npc", "system_id": "sr3", "name": "Bad",'
     ' "extra": {"x": NaN}}]}', "not a number"),
    ('{"format": "bojovka-library", "version": 1, "entries": [{"kind": "npc", "system_id": "sr3", "name": "N",'
     ' "attributes": {"body": ' + "9" * 5000 + "}}]}", "not a readable library file"),
    (_library_file({**GOOD, "name": "Deep", "extra": {"x": json.loads("[" * 40 + "]" * 40)}}), "nested too deeply"),
    ("[" * 100_000 + "]" * 100_000, "not a readable library file"),
]


@pytest.mark.parametrize(("text", "message"), HOSTILE)
def test_hostile_import_files_give_a_clear_message_and_add_nothing(empty: Library, tmp_path: Path, text: str,
                                                                   message: str) -> None:
    hostile = tmp_path / "hostile.json"
    hostile.write_text(text, encoding="utf-8")
    with pytest.raises(LibraryError) as raised:
        empty.import_json(hostile)
    assert message in str(raised.value)
    assert empty.search() == []


def test_binary_junk_and_huge_files_are_refused(empty: Library, tmp_path: Path) -> None:
    junk = tmp_path / "junk.json"
    junk.write_bytes(bytes(range(256)) * 10)
    with pytest.raises(LibraryError, match="not a readable library file"):
        empty.import_json(junk)
    huge = tmp_path / "huge.json"
    with huge.open("wb") as stream:
        stream.truncate(library_module.MAX_FILE_BYTES + 1)  # sparse: costs no disk
    with pytest.raises(LibraryError, match="too large"):
        empty.import_json(huge)
    with pytest.raises(LibraryError, match="not a readable library file"):
        empty.import_json(tmp_path / "missing.json")


# --- two processes at once ----------------------------------------------------------------------

def _writer(path: str, tag: str, start: Any, count: int) -> None:
    start.wait(60)
    with Library(Path(path)) as library:
        for number in range(count):
            library.add(npc(f"Writer {tag} {number}", tags="concurrent"))
            time.sleep(0.001)  # let the other writer in between transactions, as two windows would


def test_two_processes_writing_at_once_never_corrupt_the_library(db_path: Path) -> None:
    context = multiprocessing.get_context("spawn")  # no fork of a process that may hold Qt
    start = context.Barrier(2)  # both create, migrate and seed the new database at the same moment, then write
    writers = [context.Process(target=_writer, args=(str(db_path), tag, start, 200)) for tag in "AB"]
    for process in writers:
        process.start()
    for process in writers:
        process.join(120)
        assert process.exitcode == 0
    with Library(db_path) as library:
        assert library.integrity_ok()
        assert len(library.search("Writer")) == 400
        ids = {tag: [e.id or 0 for e in library.search(f"Writer {tag}")] for tag in "AB"}
        assert len(ids["A"]) == len(ids["B"]) == 200
        assert min(ids["A"]) < max(ids["B"]) and min(ids["B"]) < max(ids["A"])  # they really wrote at once
        assert [e.name for e in library.search(kind="npc") if not e.name.startswith("Writer")] == SEEDED  # once


# --- entries into the fight ---------------------------------------------------------------------

def _fight() -> History:
    return History(Encounter("sr3", "Test"))


def _add(history: History, entry: LibraryEntry, count: int, **options: Any) -> list[AddCombatant]:
    operations = to_operations(entry, count, history.state, SR3, **options)
    history.do(Batch(tuple(operations), "add"))
    return operations


def test_three_gangers_are_numbered_with_fresh_ids() -> None:
    history = _fight()
    ganger = npc("Ganger", body=4, reaction=3)
    operations = _add(history, ganger, 3)
    assert [op.name for op in operations] == ["Ganger 1", "Ganger 2", "Ganger 3"]
    assert [op.combatant_id for op in operations] == ["c1", "c2", "c3"]
    assert [c.name for c in history.state.combatants.values()] == ["Ganger 1", "Ganger 2", "Ganger 3"]
    assert all(c.attribute("body") == 4 and c.side is Side.OPPONENT for c in history.state.combatants.values())
    history.undo()
    assert history.state.combatants == {}


def test_numbering_continues_after_names_already_in_the_fight() -> None:
    history = _fight()
    ganger = npc("Ganger")
    _add(history, ganger, 3)
    more = _add(history, ganger, 2)
    assert [op.name for op in more] == ["Ganger 4", "Ganger 5"]
    assert [op.combatant_id for op in more] == ["c4", "c5"]
    assert [op.name for op in _add(history, ganger, 1)] == ["Ganger 6"]


def test_one_copy_keeps_the_plain_name_until_it_is_taken() -> None:
    history = _fight()
    assert [op.name for op in _add(history, npc("Troll bouncer"), 1)] == ["Troll bouncer"]
    assert [op.name for op in _add(history, npc("Troll bouncer"), 2)] == ["Troll bouncer 2", "Troll bouncer 3"]
    assert numbered_names("Ganger", 1, ["ganger 7", "Gangers 9", "Ganger x"]) == ["Ganger 8"]
    assert numbered_names("Ganger", 2, ["Ganger 99999999999999999999"]) == ["Ganger 1", "Ganger 2"]


def test_ids_skip_ones_already_taken() -> None:
    history = _fight()
    history.do(AddCombatant("c2", "Dave", Side.PLAYER))  # a hand-made id ahead of the serial
    operations = _add(history, npc("Ganger"), 3)
    assert [op.combatant_id for op in operations] == ["c3", "c4", "c5"]


def test_a_grunt_group_shares_initiative_and_optionally_a_monitor() -> None:
    history = _fight()
    operations = _add(history, npc("Ganger", reaction=3), 3, group=" Gangers ", shared_monitor=True,
                      side=Side.ALLY)
    assert {(op.group, op.extra[SHARED_MONITOR], op.side) for op in operations} == {("Gangers", True, Side.ALLY)}
    ids = [op.combatant_id for op in operations]
    history.do(roll_initiative(history.state, SR3, Roller.seeded(7)))
    assert len({history.state.combatant(i).initiative for i in ids}) == 1  # one roll for the group
    with pytest.raises(LibraryError, match="needs a group name"):
        to_operations(npc("Ganger"), 2, history.state, SR3, shared_monitor=True)


def test_refused_requests() -> None:
    state = _fight().state
    with pytest.raises(LibraryError, match="another game"):
        to_operations(replace(npc("Ganger"), system_id="walka"), 1, state, SR3)
    with pytest.raises(LibraryError, match="between 1 and 99"):
        to_operations(npc("Ganger"), 0, state, SR3)
    with pytest.raises(LibraryError, match="The name is empty"):
        to_operations(npc(" "), 3, state, SR3)  # not "1", "2", "3"
    with pytest.raises(LibraryError, match="Attribute body"):
        to_operations(npc("Ganger", body=123_456), 1, state, SR3)


def test_a_combatant_saved_from_the_fight_comes_back_the_same(empty: Library) -> None:
    history = _fight()
    _add(history, npc("Ganger", body=5, quickness=6), 2, group="G", shared_monitor=True)
    combatant = history.state.combatant("c1")
    entry = empty.add(from_combatant(combatant, EntryKind.NPC, "sr3"))
    assert entry.name == "Ganger 1" and SHARED_MONITOR not in entry.extra
    assert dict(entry.attributes) == dict(combatant.attributes)
    again = to_operations(entry, 1, _fight().state, SR3)[0]
    assert again.attributes == combatant.attributes and again.group is None
