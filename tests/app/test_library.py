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
from rules.encounter import Encounter, Side, Weapon, frozen_map
from rules.errors import RulesError
from rules.history import Batch, History
from rules.systems import get_system
from rules.turns import roll_initiative
from rules.weapons import checked_weapons

SR3 = get_system("sr3")
SEEDED = ["Corporate security guard", "Ganger", "Guard dog", "Halloweener punk", "Hell hound", "John Longbone",
          "Mafia soldier", "Mercenary", "Mitsuhama security guard", "Sniper", "Street brawler", "Street samurai",
          "Troll bouncer", "Yakuza enforcer"]
#: Every bundled bestiary's entries (each game ships its own file), in the order a search lists them.
BUNDLED = sorted((entry.name for path in sorted(resource("bestiary").glob("*.json"))
                  for entry in parse_library_file(path)), key=name_key)


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
    assert [e.name for e in seeded] == SEEDED
    specs = {spec.key: spec for spec in SR3.attribute_specs()}
    for entry in seeded:
        assert set(entry.attributes) == set(specs), entry.name
        for key, value in entry.attributes.items():
            assert specs[key].minimum <= value <= specs[key].maximum, (entry.name, key)
        assert entry.attributes["reaction"] >= entry.attributes["reaction_natural"]
        assert entry.side is Side.OPPONENT and entry.notes


def test_the_bestiary_is_seeded_once_so_deleted_templates_stay_deleted(db_path: Path) -> None:
    with Library(db_path) as library:
        for ganger in library.search("Ganger"):  # each game's
            assert ganger.id is not None
            library.delete(ganger.id)
    with Library(db_path) as library:
        assert [e.name for e in library.search()] == [name for name in BUNDLED if name != "Ganger"]


def test_the_bestiary_ships_as_a_resource_in_the_library_format() -> None:
    entries = parse_library_file(resource("bestiary", "sr3.json"))
    assert [e.name for e in entries] == ["Ganger", "Corporate security guard", "Troll bouncer", "Street samurai",
                                         "Halloweener punk", "Street brawler", "Mafia soldier", "Yakuza enforcer",
                                         "Mercenary", "Mitsuhama security guard", "John Longbone", "Guard dog",
                                         "Hell hound", "Sniper"]


def _version(path: Path) -> int:
    with sqlite3.connect(path) as connection:
        return int(connection.execute("PRAGMA user_version").fetchone()[0])


def test_a_version_0_file_is_migrated_to_the_current_schema(db_path: Path) -> None:
    sqlite3.connect(db_path).close()  # an empty SQLite file: user_version 0, no tables
    with Library(db_path) as library:
        assert library.integrity_ok()
        assert [e.name for e in library.search()] == BUNDLED
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
    assert len(document["entries"]) == len(BUNDLED) + 1
    with Library(tmp_path / "other.sqlite3", seed=False) as target:
        imported = target.import_json(exported)
        assert [content(e) for e in imported.added] == [content(e) for e in entries]
        again = target.import_json(exported)
        assert again.added == () == again.updated  # the same entries again are not duplicated
        assert [content(e) for e in again.unchanged] == [content(e) for e in entries]
        assert len(target.search()) == len(BUNDLED) + 1


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
        assert [e.name for e in library.search(kind="npc") if not e.name.startswith("Writer")] == BUNDLED  # once


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


def test_fresh_ids_are_the_ones_the_history_assigns_around_an_id_already_taken() -> None:
    """A fight whose file names a combatant ``c3`` ahead of its serial: the planned ids skip it, as adding the
    combatants one by one would."""
    history = _fight()
    history.do(AddCombatant("c3", "Early bird", Side.PLAYER))
    operations = _add(history, npc("Ganger"), 3)
    assert [op.combatant_id for op in operations] == ["c2", "c4", "c5"]
    assert list(history.state.combatants) == ["c3", "c2", "c4", "c5"]


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


def test_a_version_1_database_gains_weapons_and_entries_keep_them(db_path: Path) -> None:
    with sqlite3.connect(db_path) as connection:  # as the code before entries had weapons left it
        MIGRATIONS[0](connection)
        connection.execute("INSERT INTO entries (kind, system_id, name, side, created, updated) VALUES "
                           "('pc', 'sr3', 'Dave', 'player', '2026-01-01T00:00:00+00:00', '2026-01-01T00:00:00+00:00')")
        connection.execute("PRAGMA user_version = 1")
    connection.close()
    with Library(db_path, seed=False) as library:
        dave = library.search()[0]
        assert (dave.name, dave.weapons) == ("Dave", ())
        stick = checked_weapons([Weapon("Stick", frozen_map({"kind": "melee", "damage": "(STR+1)M"}))], SR3)
        armed = library.update(replace(dave, weapons=stick))
    with Library(db_path, seed=False) as library:
        assert library.get(dave.id or 0) == armed and armed.weapons == stick
    assert _version(db_path) == len(MIGRATIONS)


def test_weapons_travel_in_library_files_and_bad_ones_are_refused(tmp_path: Path) -> None:
    stick = checked_weapons([Weapon("Stick", frozen_map({"kind": "melee", "damage": "(STR+1)M"}))], SR3)
    exported = tmp_path / "armed.json"
    Library.export_json([replace(pc("Dave"), weapons=stick)], exported)
    assert parse_library_file(exported)[0].weapons == stick
    document = json.loads(exported.read_text(encoding="utf-8"))
    document["entries"][0]["weapons"] = [{"name": "Gun", "calibre": 9}]
    exported.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(LibraryError, match=r"entry 1 .*no field “calibre”"):
        parse_library_file(exported)


# --- importing merges ---------------------------------------------------------------------------

def _write_library(path: Path, *entries: LibraryEntry) -> Path:
    Library.export_json(entries, path)
    return path


def test_an_import_adds_updates_and_skips_and_says_so(empty: Library, tmp_path: Path) -> None:
    dave = empty.add(pc("Dave", body=5))
    ganger = empty.add(npc("Ganger", tags="street", body=4))
    troll = empty.add(npc("Troll bouncer", body=9))
    time.sleep(1.1)  # an update's time differs from the creation's
    incoming = _write_library(
        tmp_path / "party.json",
        pc("DAVE", body=6),  # the same PC of the same campaign, any case: updated
        replace(npc("ganger", tags="street", body=4), name="Ganger"),  # identical: skipped
        npc("Troll bouncer", body=9, quickness=3),  # more attributes: updated
        pc("Dave", campaign="Berlin"),  # another campaign: another character
        npc("Combat mage", body=3))
    report = empty.import_json(incoming)
    assert [e.name for e in report.added] == ["Dave", "Combat mage"]
    assert [e.campaign for e in report.added] == ["Berlin", ""] and all(e.id for e in report.added)
    assert [(u.before.id, u.after.id, u.changed) for u in report.updated] == [
        (dave.id, dave.id, ("name", "attributes")), (troll.id, troll.id, ("attributes",))]
    assert report.updated[0].summary() == "name, attributes"
    assert report.unchanged == (ganger,) and report.changes == 4
    updated = empty.get(dave.id or 0)
    assert updated is not None and updated.name == "DAVE" and updated.attributes == {"body": 6}
    assert updated.created == dave.created and updated.updated != dave.updated  # the same entry, edited
    assert len(empty.search()) == 5
    again = empty.import_json(incoming)
    assert again.added == () == again.updated and len(again.unchanged) == 5  # nothing is ever doubled


def test_an_import_changes_only_what_the_file_holds_and_a_kind_is_its_own(empty: Library, tmp_path: Path) -> None:
    mine = empty.add(npc("Dave", body=2))  # an NPC template called Dave is not the PC Dave
    kept = empty.add(npc("Street samurai"))
    report = empty.import_json(_write_library(tmp_path / "one.json", pc("Dave", body=5)))
    assert [e.kind for e in report.added] == [EntryKind.PC] and report.updated == ()
    assert empty.get(mine.id or 0) == mine and empty.get(kept.id or 0) == kept  # never deleted or replaced


def test_a_preview_writes_nothing_and_the_merge_does_what_it_showed(empty: Library, tmp_path: Path) -> None:
    ganger = empty.add(npc("Ganger", body=4))
    file = _write_library(tmp_path / "in.json", npc("Ganger", body=5), npc("Combat mage"))
    planned = empty.plan_merge(parse_library_file(file))
    assert [e.name for e in planned.added] == ["Combat mage"] and planned.added[0].id is None
    assert [u.after.attributes for u in planned.updated] == [{"body": 5}] and planned.updated[0].after.id == ganger.id
    assert empty.search() == [ganger]  # only a plan
    merged = empty.merge(parse_library_file(file))
    assert [content(e) for e in merged.added] == [content(e) for e in planned.added]
    assert [u.changed for u in merged.updated] == [u.changed for u in planned.updated]


def test_duplicate_names_round_trip_unchanged(empty: Library, tmp_path: Path) -> None:
    empty.add(npc("Ganger", body=4))
    empty.add(npc("Ganger", body=5))  # a library may hold two of one name
    file = _write_library(tmp_path / "out.json", *empty.search())
    report = empty.import_json(file)
    assert report.changes == 0 and len(report.unchanged) == 2
    changed = _write_library(tmp_path / "changed.json", npc("Ganger", body=5), npc("Ganger", body=6))
    report = empty.import_json(changed)  # the identical one pairs first; the other updates the body-4 one
    assert [u.before.attributes["body"] for u in report.updated] == [4] and report.added == ()
    assert sorted(e.attributes["body"] for e in empty.search()) == [5, 6]


def test_duplicating_an_entry_finds_a_free_name(empty: Library) -> None:
    ganger = empty.add(replace(npc("Ganger", body=4), notes="Knife."))
    first = empty.duplicate(ganger.id or 0)
    second = empty.duplicate(ganger.id or 0)
    assert [first.name, second.name] == ["Ganger (copy)", "Ganger (copy 2)"]
    assert content(replace(first, name="Ganger")) == content(ganger) and first.id not in (None, ganger.id)
    long = empty.add(npc("x" * 200))
    assert len(empty.duplicate(long.id or 0).name) == 200
    with pytest.raises(LibraryError, match="no entry"):
        empty.duplicate(9999)


# --- bundled bestiaries follow new versions -----------------------------------------------------

def _bundle(folder: Path, *entries: LibraryEntry, name: str = "sr3.json") -> Path:
    folder.mkdir(exist_ok=True)
    return _write_library(folder / name, *entries)


def _by_name(library: Library) -> dict[str, LibraryEntry]:
    return {entry.name: entry for entry in library.search()}


def test_a_new_bundled_version_adds_and_updates_only_what_the_gm_left_alone(db_path: Path, tmp_path: Path) -> None:
    folder = tmp_path / "bestiary"
    _bundle(folder, npc("Ganger", body=4), npc("Troll bouncer", body=9), npc("Street samurai", body=6),
            npc("Corporate security guard", body=4))
    with Library(db_path, bestiaries=folder) as library:
        seeded = _by_name(library)
        assert sorted(seeded) == ["Corporate security guard", "Ganger", "Street samurai", "Troll bouncer"]
        time.sleep(1.1)
        library.update(replace(seeded["Troll bouncer"], notes="My troll."))  # edited by the GM
        library.delete(seeded["Street samurai"].id or 0)  # deleted by the GM
        mage = library.add(npc("Combat mage", body=2))  # the GM's own, before the bundle has one
    _bundle(folder, npc("Ganger", body=5), npc("Troll bouncer", body=10), npc("Street samurai", body=7),
            npc("Corporate security guard", body=4), npc("Combat mage", body=3), npc("Decker", body=3))
    with Library(db_path, bestiaries=folder) as library:
        now = _by_name(library)
    assert sorted(now) == ["Combat mage", "Corporate security guard", "Decker", "Ganger", "Troll bouncer"]
    assert now["Ganger"].attributes == {"body": 5} and now["Ganger"].id == seeded["Ganger"].id  # followed
    assert now["Troll bouncer"].notes == "My troll." and now["Troll bouncer"].attributes == {"body": 9}
    assert now["Combat mage"] == mage and now["Decker"].attributes == {"body": 3}
    assert now["Corporate security guard"] == seeded["Corporate security guard"]  # unchanged: not touched
    _bundle(folder, npc("Ganger", body=6), npc("Decker", body=4))  # and again: what followed still follows
    with Library(db_path, bestiaries=folder) as library:
        again = _by_name(library)
    assert again["Ganger"].attributes == {"body": 6} and again["Decker"].attributes == {"body": 4}
    assert again["Troll bouncer"].notes == "My troll." and "Street samurai" not in again


def test_an_unchanged_bundle_is_not_read_again(db_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "bestiary"
    _bundle(folder, npc("Ganger"))
    Library(db_path, bestiaries=folder).close()

    def refuse(path: Path) -> list[LibraryEntry]:
        raise AssertionError(f"{path.name} was parsed again")

    monkeypatch.setattr(library_module, "parse_library_file", refuse)
    with Library(db_path, bestiaries=folder) as library:
        assert [e.name for e in library.search()] == ["Ganger"]


def test_a_template_the_gm_imported_over_is_the_gms(db_path: Path, tmp_path: Path) -> None:
    folder = tmp_path / "bestiary"
    _bundle(folder, npc("Ganger", body=4))
    with Library(db_path, bestiaries=folder) as library:
        library.import_json(_write_library(tmp_path / "mine.json", npc("Ganger", body=3)))
    _bundle(folder, npc("Ganger", body=5))
    with Library(db_path, bestiaries=folder) as library:
        assert [e.attributes for e in library.search()] == [{"body": 3}]


def _old_database(db_path: Path, version: int) -> None:
    """A library written by the release of that schema version (tests/app/library_files/make.py)."""
    script = (Path(__file__).parent / "library_files" / f"v{version}.sql").read_text(encoding="utf-8")
    connection = sqlite3.connect(db_path)
    connection.executescript(script)
    connection.close()


def _new_bundled_sr3(folder: Path) -> None:
    """The shipped sr3.json in a new version: two templates changed, one more (whatever sr3.json holds now)."""
    old = {e.name: e for e in parse_library_file(Path(__file__).parent / "library_files" / "sr3-v1.json")}
    _bundle(folder, *[replace(entry, notes=entry.notes + " (new edition)") for entry in old.values()],
            npc("Combat mage", body=3))


@pytest.mark.parametrize("version", [1, 2])
def test_a_library_seeded_before_versioning_follows_the_new_bestiary(db_path: Path, tmp_path: Path,
                                                                      version: int) -> None:
    _old_database(db_path, version)
    assert _version(db_path) == version
    folder = tmp_path / "bestiary"
    _new_bundled_sr3(folder)
    with Library(db_path, bestiaries=folder) as library:
        assert library.integrity_ok()
        now = _by_name(library)
    assert _version(db_path) == len(MIGRATIONS)
    assert sorted(now) == ["Combat mage", "Corporate security guard", "Dave", "Street samurai", "Troll bouncer"]
    assert now["Street samurai"].notes.endswith("(new edition)")  # never edited: follows
    assert now["Corporate security guard"].notes.endswith("(new edition)")
    assert now["Troll bouncer"].notes == "The GM's own troll: club only."  # edited: the GM's
    assert now["Dave"].campaign == "Seattle 2060" and now["Dave"].weapons == ()  # deleted Ganger stays deleted
    with Library(db_path, bestiaries=folder) as library:  # and the next start changes nothing
        assert _by_name(library) == now


@pytest.mark.parametrize("version", [1, 2])
def test_an_old_library_opens_with_the_shipped_bestiary(db_path: Path, version: int) -> None:
    _old_database(db_path, version)
    with Library(db_path) as library:
        names = {e.name for e in library.search(system_id="sr3")}  # other games ship a Ganger of their own
        everything = {e.name for e in library.search()}
    assert {"Corporate security guard", "Street samurai", "Troll bouncer", "Dave"} <= names
    assert "Ganger" not in names  # deleted by the GM before the bestiary was versioned
    assert {"Halloweener punk", "Bandit chief"} <= everything  # new entries and other games' bestiaries came in


def test_a_damaged_row_does_not_keep_a_new_bundle_out_or_the_library_shut(db_path: Path, tmp_path: Path) -> None:
    folder = tmp_path / "bestiary"
    _bundle(folder, npc("Ganger", body=4))
    with Library(db_path, bestiaries=folder) as library:
        dave = library.add(pc("Dave"))
    with sqlite3.connect(db_path) as connection:
        connection.execute("UPDATE entries SET attributes = '{\"body\": \"lots\"}' WHERE id = ?", (dave.id,))
    _bundle(folder, npc("Ganger", body=5), npc("Decker"))
    with Library(db_path, bestiaries=folder) as library:  # opens, and the new version is in
        with pytest.raises(LibraryError, match=r"“Dave”.* is damaged"):
            library.search()  # the damaged row is still named where it is read
        with sqlite3.connect(db_path) as connection:
            names = sorted(name for (name,) in connection.execute("SELECT name FROM entries"))
    assert names == ["Dave", "Decker", "Ganger"]
