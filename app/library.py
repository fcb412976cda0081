"""The roster and the bestiary: player characters of campaigns and NPC templates, kept in SQLite.

One database file in the user data dir (``library.sqlite3``), shared by every open window and process: WAL
journal, a busy timeout and short ``BEGIN IMMEDIATE`` write transactions keep two writers from corrupting
it or failing each other. The schema is versioned with ``PRAGMA user_version`` and :data:`MIGRATIONS`.
Bundled bestiaries (``resources/bestiary/*.json``) are versioned by a hash of their content: a new version is
merged in (:mod:`app.library_merge`): templates of new names are added, templates the GM never edited follow
the new version, and a template the GM edited or deleted is left as the GM made it. Entries travel as a
versioned JSON format, validated on the way in like any file from outside: only data is read, nothing is
evaluated or unpickled; importing one merges it (added, updated, unchanged), never silently replacing.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import math
import os
import re
import sqlite3
import tempfile
import time
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final

from app.i18n import N_, _
from app.library_merge import (
    EntryKey,
    MergeReport,
    Seeded,
    adopt_legacy_seed,
    entry_key,
    fingerprint,
    key_text,
    plan_merge,
    plan_seed,
)
from app.paths import data_dir, resource
from app.storage import open_regular, os_reason
from rules.combatants import (
    HIDDEN,
    MAX_NAME,
    MAX_NOTES,
    SHARED_MONITOR,
    AddCombatant,
    next_combatant_id,
)
from rules.encounter import Combatant, Encounter, JsonValue, Side, Weapon, frozen_map
from rules.errors import RulesError
from rules.limits import ATTRIBUTE
from rules.systems import get_system, system_ids, system_title
from rules.systems.base import RuleSystem
from rules.weapons import MAX_WEAPONS, checked_weapons, fully_loaded, weapon_from_data, weapon_to_data

FORMAT: Final[str] = "bojovka-library"
FORMAT_VERSION: Final[int] = 2  # 2: entries carry weapons
DATABASE_NAME: Final[str] = "library.sqlite3"
BUSY_TIMEOUT_MS: Final[int] = 5000
MAX_FILE_BYTES: Final[int] = 20 * 1024 * 1024
MAX_ENTRIES: Final[int] = 100_000
MAX_ATTRIBUTES: Final[int] = 200
MAX_KEY: Final[int] = 64
MAX_TAGS: Final[int] = 1_000
MAX_EXTRA_CHARS: Final[int] = 100_000
MAX_DEPTH: Final[int] = 16
MAX_JSON_NUMBER: Final[int] = 10**9
MAX_COUNT: Final[int] = 99


class LibraryError(RulesError):
    """The library cannot do what was asked (bad entry, bad file, unreadable database); shown as is."""


class EntryKind(StrEnum):
    """A player character of a campaign (roster) or an NPC template (bestiary)."""

    PC = "pc"
    NPC = "npc"


KIND_LABELS: Final[Mapping[EntryKind, str]] = MappingProxyType(
    {EntryKind.PC: N_("Player character"), EntryKind.NPC: N_("NPC template")})


@dataclass(frozen=True, kw_only=True)
class LibraryEntry:
    """One saved character or template; ``id`` is None until the library stores it."""

    id: int | None = None
    kind: EntryKind
    system_id: str
    name: str
    campaign: str = ""
    side: Side = Side.OPPONENT
    attributes: Mapping[str, int] = field(default_factory=frozen_map)
    notes: str = ""
    extra: Mapping[str, JsonValue] = field(default_factory=frozen_map)
    weapons: tuple[Weapon, ...] = ()
    tags: str = ""
    created: str = ""  # ISO 8601, UTC
    updated: str = ""


# --- validation ---------------------------------------------------------------------------------

_FIELDS: Final[frozenset[str]] = frozenset(
    {"kind", "system_id", "name", "campaign", "side", "attributes", "notes", "extra", "weapons", "tags"})


def _text(value: object, limit: int, what: str) -> str:
    if not isinstance(value, str):
        raise LibraryError(_("{what} must be text.").format(what=what))
    if len(value) > limit:
        raise LibraryError(_("{what} is too long ({length} characters; at most {limit}).").format(
            what=what, length=len(value), limit=limit))
    return value


def _choice(enum: type[EntryKind] | type[Side], value: object, what: str) -> Any:
    try:
        return enum(value)  # type: ignore[arg-type]  # any value: the enum itself refuses what it is not
    except ValueError:
        allowed = ", ".join(member.value for member in enum)
        raise LibraryError(_("{what} must be one of: {allowed}.").format(what=what, allowed=allowed)) from None


def _attributes(value: object) -> Mapping[str, int]:
    if not isinstance(value, Mapping):
        raise LibraryError(_("The attributes must be an object of whole numbers."))
    if len(value) > MAX_ATTRIBUTES:
        raise LibraryError(_("Too many attributes (at most {limit}).").format(limit=MAX_ATTRIBUTES))
    checked: dict[str, int] = {}
    for key, number in value.items():
        _text(key, MAX_KEY, _("An attribute's name"))
        if isinstance(number, bool) or not isinstance(number, int) or not ATTRIBUTE.allows(number):
            raise LibraryError(_("Attribute {key} must be a whole number between −{limit} and {limit}.")
                               .format(key=key, limit=ATTRIBUTE.high))
        checked[key] = number
    return frozen_map(checked)


def _json_value(value: object, depth: int = 0) -> JsonValue:
    """A free-form value, frozen (tuples, read-only maps) and bounded in depth and size."""
    if depth > MAX_DEPTH:
        raise LibraryError(_("The extra data is nested too deeply."))
    if value is None or isinstance(value, bool | str):
        return value
    if isinstance(value, int) and abs(value) <= MAX_JSON_NUMBER:
        return value
    if isinstance(value, float) and math.isfinite(value) and abs(value) <= MAX_JSON_NUMBER:
        return value
    if isinstance(value, list | tuple):
        return tuple(_json_value(item, depth + 1) for item in value)
    if isinstance(value, Mapping) and all(isinstance(key, str) for key in value):
        return frozen_map({key: _json_value(item, depth + 1) for key, item in value.items()})
    raise LibraryError(_("The extra data holds a value that cannot be stored: {value}.").format(
        value=repr(value)[:40]))


def _extra(value: object) -> Mapping[str, JsonValue]:
    if not isinstance(value, Mapping):
        raise LibraryError(_("The extra data must be an object."))
    frozen = _json_value(value)
    if len(_dumps(frozen)) > MAX_EXTRA_CHARS:
        raise LibraryError(_("The extra data is too large."))
    assert isinstance(frozen, Mapping)
    return frozen


def _system_id(value: object) -> str:
    if not isinstance(value, str) or value not in system_ids():
        raise LibraryError(_("Unknown game {game!r}.").format(game=str(value)[:40]))
    return value


def _weapons(weapons: object, system_id: str) -> tuple[Weapon, ...]:
    if not isinstance(weapons, list | tuple):
        raise LibraryError(_("The weapons must be a list."))
    try:
        read = [weapon if isinstance(weapon, Weapon) else weapon_from_data(weapon) for weapon in weapons]
        return checked_weapons(read, get_system(system_id))
    except LibraryError:
        raise
    except RulesError as problem:
        raise LibraryError(str(problem)) from None


def validated(entry: LibraryEntry) -> LibraryEntry:
    """``entry`` checked and normalised (name trimmed, maps frozen); LibraryError says what is wrong."""
    name = _text(entry.name, MAX_NAME, _("The name")).strip()
    if not name:
        raise LibraryError(_("The name is empty."))
    system_id = _system_id(entry.system_id)
    return replace(
        entry, name=name, kind=_choice(EntryKind, entry.kind, _("The kind")), system_id=system_id,
        campaign=_text(entry.campaign, MAX_NAME, _("The campaign")).strip(),
        side=_choice(Side, entry.side, _("The side")), attributes=_attributes(entry.attributes),
        notes=_text(entry.notes, MAX_NOTES, _("The notes")), extra=_extra(entry.extra),
        weapons=_weapons(entry.weapons, system_id), tags=_text(entry.tags, MAX_TAGS, _("The tags")))


def _entry_from_data(data: object) -> LibraryEntry:
    if not isinstance(data, Mapping):
        raise LibraryError(_("An entry must be an object."))
    unknown = sorted(str(key)[:40] for key in data if key not in _FIELDS)
    if unknown:
        raise LibraryError(_("Unknown field {field!r}.").format(field=unknown[0]))
    for required in ("kind", "system_id", "name"):
        if required not in data:
            raise LibraryError(_("The field {field!r} is missing.").format(field=required))
    kind = _choice(EntryKind, data["kind"], _("The kind"))
    side = Side.PLAYER if kind is EntryKind.PC else Side.OPPONENT
    return validated(LibraryEntry(
        kind=kind, system_id=data["system_id"], name=data["name"], campaign=data.get("campaign", ""),
        side=data.get("side", side), attributes=data.get("attributes", {}), notes=data.get("notes", ""),
        extra=data.get("extra", {}), weapons=_listed_weapons(data.get("weapons", [])), tags=data.get("tags", "")))


def _listed_weapons(data: object) -> tuple[Weapon, ...]:
    if not isinstance(data, list):
        raise LibraryError(_("The weapons must be a list."))
    if len(data) > MAX_WEAPONS:
        raise LibraryError(_("At most {limit} weapons per combatant.").format(limit=MAX_WEAPONS))
    try:
        return tuple(weapon_from_data(item) for item in data)
    except RulesError as problem:
        raise LibraryError(str(problem)) from None


def _entry_to_data(entry: LibraryEntry) -> dict[str, Any]:
    return {"kind": entry.kind.value, "system_id": entry.system_id, "name": entry.name, "campaign": entry.campaign,
            "side": entry.side.value, "attributes": dict(entry.attributes), "notes": entry.notes,
            "extra": _plain(entry.extra), "weapons": _weapons_data(entry.weapons), "tags": entry.tags}


def _weapons_data(weapons: Iterable[Weapon]) -> list[dict[str, Any]]:
    return [{key: _plain(value) for key, value in weapon_to_data(weapon).items()} for weapon in weapons]


def _plain(value: JsonValue) -> Any:
    """Read-only maps and tuples back to what ``json`` writes."""
    if isinstance(value, Mapping):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, tuple):
        return [_plain(item) for item in value]
    return value


def _dumps(value: JsonValue) -> str:
    return json.dumps(_plain(value), ensure_ascii=False, sort_keys=True)


def _entry_name(data: object) -> str:
    name = data.get("name") if isinstance(data, Mapping) else None
    return name[:60] if isinstance(name, str) else "?"


def _reject_constant(value: str) -> Any:
    raise LibraryError(_("The file holds {value}, which is not a number.").format(value=value))


def parse_library_file(path: Path) -> list[LibraryEntry]:
    """Entries of a library JSON file, fully validated; LibraryError names the file's problem or entry."""
    try:
        with open_regular(path) as stream:  # a pipe or a device is refused, not waited on
            if os.fstat(stream.fileno()).st_size > MAX_FILE_BYTES:
                raise LibraryError(_("{file} is too large for a library file.").format(file=path.name))
            data = stream.read(MAX_FILE_BYTES + 1)
        if len(data) > MAX_FILE_BYTES:
            raise LibraryError(_("{file} is too large for a library file.").format(file=path.name))
        text = data.decode("utf-8")
        document = json.loads(text, parse_constant=_reject_constant)
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as error:
        if isinstance(error, LibraryError):
            raise
        reason = os_reason(error) if isinstance(error, OSError) else str(error)[:200]
        raise LibraryError(_("{file} is not a readable library file: {reason}").format(
            file=path.name, reason=reason)) from None
    return _entries_of(document, path.name)


def _entries_of(document: object, file: str) -> list[LibraryEntry]:
    if not isinstance(document, Mapping) or document.get("format") != FORMAT:
        raise LibraryError(_("{file} is not a Bojovka library file.").format(file=file))
    version = document.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise LibraryError(_("{file} has no valid format version.").format(file=file))
    if version > FORMAT_VERSION:
        raise LibraryError(_("{file} was written by a newer version of Bojovka; please update.").format(file=file))
    items = document.get("entries")
    if not isinstance(items, list) or len(items) > MAX_ENTRIES:
        raise LibraryError(_("{file}: “entries” must be a list of at most {limit} entries.").format(
            file=file, limit=MAX_ENTRIES))
    entries = []
    for number, item in enumerate(items, start=1):
        try:
            entries.append(_entry_from_data(item))
        except LibraryError as error:
            raise LibraryError(_("{file}, entry {number} (“{name}”): {problem}").format(
                file=file, number=number, name=_entry_name(item), problem=error)) from None
    return entries


# --- the database -------------------------------------------------------------------------------

def _create_entries(connection: sqlite3.Connection) -> None:
    connection.execute("""
        CREATE TABLE entries (
            id INTEGER PRIMARY KEY,
            kind TEXT NOT NULL CHECK (kind IN ('pc', 'npc')),
            system_id TEXT NOT NULL,
            name TEXT NOT NULL,
            campaign TEXT NOT NULL DEFAULT '',
            side TEXT NOT NULL,
            attributes TEXT NOT NULL DEFAULT '{}',
            notes TEXT NOT NULL DEFAULT '',
            extra TEXT NOT NULL DEFAULT '{}',
            tags TEXT NOT NULL DEFAULT '',
            created TEXT NOT NULL,
            updated TEXT NOT NULL)""")
    connection.execute("CREATE INDEX entries_by_system ON entries (system_id, kind, campaign)")
    # Bundled bestiaries already copied in, so each is seeded once and deleted templates stay deleted.
    connection.execute("CREATE TABLE seeded_bestiaries (file TEXT PRIMARY KEY, seeded TEXT NOT NULL)")


def _add_weapons(connection: sqlite3.Connection) -> None:
    """Version 2: entries carry weapons (a JSON list of ``{"name": …, <field>: value}``)."""
    connection.execute("ALTER TABLE entries ADD COLUMN weapons TEXT NOT NULL DEFAULT '[]'")


def _version_seeds(connection: sqlite3.Connection) -> None:
    """Version 3: bundled bestiaries are seeded by version (a hash of the file; '' for a file seeded before,
    by name only) and each template they seeded is remembered by its key, so a new version updates only what
    the GM left as seeded (``content``: the fingerprint seeded; '' never updates) and a deleted one (its
    ``entry_id`` set to NULL with the entry) stays deleted."""
    connection.execute("ALTER TABLE seeded_bestiaries ADD COLUMN hash TEXT NOT NULL DEFAULT ''")
    connection.execute("""
        CREATE TABLE seeded_entries (
            file TEXT NOT NULL,
            entry_key TEXT NOT NULL,
            entry_id INTEGER REFERENCES entries (id) ON DELETE SET NULL,
            content TEXT NOT NULL DEFAULT '',
            PRIMARY KEY (file, entry_key))""")
    connection.execute("CREATE INDEX seeded_entries_by_entry ON seeded_entries (entry_id)")


#: Schema migrations: ``MIGRATIONS[n]`` takes a database from version n to n + 1, inside one transaction.
MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = [_create_entries, _add_weapons, _version_seeds]

_COLUMNS: Final[str] = ("id, kind, system_id, name, campaign, side, attributes, notes, extra, weapons, tags, created, "
                        "updated")
_INSERT: Final[str] = f"INSERT INTO entries ({_COLUMNS}) VALUES (NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
_UPDATE: Final[str] = ("UPDATE entries SET kind = ?, system_id = ?, name = ?, campaign = ?, side = ?, attributes = ?, "
                       "notes = ?, extra = ?, weapons = ?, tags = ?, updated = ? WHERE id = ?")
_REMEMBER: Final[str] = ("INSERT INTO seeded_entries (file, entry_key, entry_id, content) VALUES (?, ?, ?, ?) "
                         "ON CONFLICT (file, entry_key) DO UPDATE SET entry_id = excluded.entry_id, "
                         "content = excluded.content")


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


#: Rows whose check is remembered (a row is checked again only when its stored text changed).
CHECKED_ROWS: Final[int] = 20_000


def _row_to_entry(row: sqlite3.Row) -> LibraryEntry:
    """A stored row, checked again: the database file may have been edited by other tools.

    The check (every field, every weapon against its game) costs about 0.3 ms a row, and the Add combatants
    search reads every row at each key press: a row whose stored values are the same as last time is not
    checked again (the check depends on those values alone).
    """
    return _checked_row(tuple(row.keys()), tuple(row))


@functools.lru_cache(maxsize=CHECKED_ROWS)
def _checked_row(columns: tuple[str, ...], values: tuple[object, ...]) -> LibraryEntry:
    row: Mapping[str, Any] = dict(zip(columns, values, strict=True))
    try:
        entry = LibraryEntry(
            id=row["id"], kind=row["kind"], system_id=row["system_id"], name=row["name"], campaign=row["campaign"],
            side=row["side"], attributes=json.loads(row["attributes"]), notes=row["notes"],
            extra=json.loads(row["extra"]), weapons=_listed_weapons(json.loads(row["weapons"])), tags=row["tags"],
            created=row["created"], updated=row["updated"])
        return validated(entry)
    except (ValueError, TypeError, RecursionError) as error:
        raise LibraryError(_("Entry {id} (“{name}”) of the roster and bestiary is damaged: {problem}").format(
            id=row["id"], name=str(row["name"])[:60], problem=str(error)[:200])) from None


def _values(entry: LibraryEntry) -> tuple[object, ...]:
    return (entry.kind.value, entry.system_id, entry.name, entry.campaign, entry.side.value,
            json.dumps(dict(entry.attributes), sort_keys=True), entry.notes, _dumps(entry.extra),
            json.dumps(_weapons_data(entry.weapons), ensure_ascii=False), entry.tags)


def default_path() -> Path:
    """Where the GM's library lives."""
    return data_dir() / DATABASE_NAME


def _file_hash(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError as error:
        raise LibraryError(_("{file} cannot be read: {reason}").format(file=path.name, reason=error)) from None


def copy_name(name: str, taken: Iterable[str], limit: int = MAX_NAME) -> str:
    """A name for a copy that none of ``taken`` has, at most ``limit`` characters: "Ganger (copy)", "Ganger (copy
    2)"… (a long name is shortened to make room)."""
    used = {other.casefold() for other in taken}
    for number in range(1, MAX_ENTRIES + 2):
        template = _("{name} (copy)") if number == 1 else _("{name} (copy {number})")
        room = limit - len(template.format(name="", number=number))
        candidate = template.format(name=name[:max(1, room)].rstrip(), number=number)
        if candidate.casefold() not in used:
            return candidate
    raise LibraryError(_("No free name for a copy of “{name}”.").format(name=name[:60]))


class Library:
    """The roster and bestiary database. Use one per thread; close it (or use ``with``) when done."""

    def __init__(self, path: Path | None = None, seed: bool = True, bestiaries: Path | None = None) -> None:
        self.path = path or default_path()
        self._bestiaries = bestiaries or resource("bestiary")
        with self._errors():
            self._connection = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
        self._connection.row_factory = sqlite3.Row
        # Unicode-aware case folding: SQLite's own LIKE/lower only fold ASCII ("Čestmír" must match "čest").
        self._connection.create_function("casefold", 1, _casefold, deterministic=True)
        try:
            with self._errors():
                self._configure()
                self._migrate(seed)
        except LibraryError:
            self._connection.close()
            raise

    def __enter__(self) -> Library:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the database connection."""
        self._connection.close()

    @contextmanager
    def _errors(self) -> Iterator[None]:
        """SQLite failures (locked too long, disk full, not a database) as a message for the GM."""
        try:
            yield
        except sqlite3.Error as error:
            raise LibraryError(_("The roster and bestiary ({file}) cannot be used: {reason}").format(
                file=self.path, reason=error)) from error

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction; IMMEDIATE takes the write lock up front so concurrent writers queue."""
        with self._errors():
            self._connection.execute("BEGIN IMMEDIATE")
            try:
                yield self._connection
            except BaseException:
                self._connection.execute("ROLLBACK")
                raise
            self._connection.execute("COMMIT")

    def _configure(self) -> None:
        self._connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        self._enable_wal()
        self._connection.execute("PRAGMA foreign_keys = ON")

    def _enable_wal(self) -> None:
        """Switch to WAL (persistent, so a no-op after the first time), retrying while another process holds it.

        SQLite does not call the busy handler for this switch, so two windows opening a new database at the
        same moment would otherwise fail at once with "database is locked".
        """
        deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
        while True:
            try:
                self._connection.execute("PRAGMA journal_mode = WAL")
                return
            except sqlite3.OperationalError as error:
                if error.sqlite_errorcode != sqlite3.SQLITE_BUSY or time.monotonic() > deadline:
                    raise
            time.sleep(0.01)

    def _migrate(self, seed: bool) -> None:
        with self._write() as connection:
            version = connection.execute("PRAGMA user_version").fetchone()[0]
            if version > len(MIGRATIONS):
                raise LibraryError(_("The roster and bestiary ({file}) was written by a newer version of Bojovka; "
                                     "please update.").format(file=self.path))
            for migration in MIGRATIONS[version:]:
                migration(connection)
            connection.execute(f"PRAGMA user_version = {len(MIGRATIONS)}")
            if seed:
                self._seed(connection)

    def _seed(self, connection: sqlite3.Connection) -> None:
        """Bring in each bundled bestiary the database has not seen in this version (an unchanged file costs one
        hash at start-up, no parsing)."""
        folder = self._bestiaries
        seen = {row["file"]: row["hash"] for row in connection.execute("SELECT file, hash FROM seeded_bestiaries")}
        for path in sorted(folder.glob("*.json")) if folder.is_dir() else ():
            digest = _file_hash(path)
            if seen.get(path.name) != digest:
                self._seed_file(connection, path.name, parse_library_file(path), legacy=seen.get(path.name) == "")
                connection.execute(
                    "INSERT INTO seeded_bestiaries (file, seeded, hash) VALUES (?, ?, ?) ON CONFLICT (file) "
                    "DO UPDATE SET seeded = excluded.seeded, hash = excluded.hash", (path.name, _now(), digest))

    def _seed_file(self, connection: sqlite3.Connection, file: str, entries: list[LibraryEntry],
                   legacy: bool) -> None:
        by_id = {entry.id: entry for entry in self._all(connection, skip_damaged=True) if entry.id is not None}
        stored: dict[EntryKey, LibraryEntry] = {}
        for entry in by_id.values():
            stored.setdefault(entry_key(entry), entry)
        remembered = self._remembered(connection, file)
        if legacy:  # seeded by a version that kept only the file's name
            adopted = adopt_legacy_seed(file, entries, stored)
            remembered = {**adopted, **remembered}
            self._remember(connection, file, adopted)
        plan = plan_seed(entries, remembered, stored, by_id)
        self._remember(connection, file, plan.remember)
        for entry in plan.update:
            self._update_row(connection, entry)
        self._remember(connection, file, {entry_key(entry): Seeded(entry.id, fingerprint(entry))
                                          for entry in [*plan.update, *self._insert(connection, plan.insert)]})

    @staticmethod
    def _remembered(connection: sqlite3.Connection, file: str) -> dict[EntryKey, Seeded]:
        rows = connection.execute("SELECT entry_key, entry_id, content FROM seeded_entries WHERE file = ?", (file,))
        return {tuple(json.loads(row["entry_key"])): Seeded(row["entry_id"], row["content"])
                for row in rows}

    @staticmethod
    def _remember(connection: sqlite3.Connection, file: str, records: Mapping[EntryKey, Seeded]) -> None:
        for key, record in records.items():
            connection.execute(_REMEMBER, (file, key_text(key), record.entry_id, record.content))

    @staticmethod
    def _all(connection: sqlite3.Connection, skip_damaged: bool = False) -> list[LibraryEntry]:
        """Every stored entry; ``skip_damaged`` leaves out rows another tool broke instead of refusing (seeding
        at start-up must not lock the GM out of the whole library: :meth:`search` names such a row)."""
        entries = []
        for row in connection.execute(f"SELECT {_COLUMNS} FROM entries ORDER BY id"):
            try:
                entries.append(_row_to_entry(row))
            except LibraryError:
                if not skip_damaged:
                    raise
        return entries

    def _insert(self, connection: sqlite3.Connection, entries: Iterable[LibraryEntry]) -> list[LibraryEntry]:
        stored = []
        for entry in entries:
            now = _now()
            cursor = connection.execute(_INSERT, (*_values(entry), now, now))
            stored.append(replace(entry, id=cursor.lastrowid, created=now, updated=now))
        return stored

    def _update_row(self, connection: sqlite3.Connection, entry: LibraryEntry) -> LibraryEntry:
        """Store ``entry``'s content over the row of its id (kept: the id and the created time)."""
        now = _now()
        if connection.execute(_UPDATE, (*_values(entry), now, entry.id)).rowcount != 1:
            raise self._missing(entry.id)
        created = connection.execute("SELECT created FROM entries WHERE id = ?", (entry.id,)).fetchone()[0]
        return replace(entry, created=created, updated=now)

    # --- entries ----------------------------------------------------------------------------------
    def add(self, entry: LibraryEntry) -> LibraryEntry:
        """Store a new entry (its ``id`` is ignored) and return it with its id and timestamps."""
        checked = validated(entry)
        with self._write() as connection:
            return self._insert(connection, [checked])[0]

    def update(self, entry: LibraryEntry) -> LibraryEntry:
        """Replace a stored entry's content; returns it with the new ``updated`` time."""
        checked = validated(entry)
        with self._write() as connection:
            return self._update_row(connection, checked)

    def duplicate(self, entry_id: int) -> LibraryEntry:
        """Store a copy of an entry under a name no entry of its game has ("Ganger (copy)")."""
        with self._write() as connection:
            row = connection.execute(f"SELECT {_COLUMNS} FROM entries WHERE id = ?", (entry_id,)).fetchone()
            if row is None:
                raise self._missing(entry_id)
            original = _row_to_entry(row)
            taken = [name for (name,) in connection.execute("SELECT name FROM entries WHERE system_id = ?",
                                                             (original.system_id,))]
            copy = validated(replace(original, name=copy_name(original.name, taken)))
            return self._insert(connection, [copy])[0]

    def delete(self, entry_id: int) -> None:
        """Remove an entry."""
        with self._write() as connection:
            if connection.execute("DELETE FROM entries WHERE id = ?", (entry_id,)).rowcount != 1:
                raise self._missing(entry_id)

    def get(self, entry_id: int) -> LibraryEntry | None:
        """The entry with that id, or None."""
        with self._errors():
            row = self._connection.execute(f"SELECT {_COLUMNS} FROM entries WHERE id = ?", (entry_id,)).fetchone()
        return None if row is None else _row_to_entry(row)

    @staticmethod
    def _missing(entry_id: int | None) -> LibraryError:
        return LibraryError(_("The roster and bestiary has no entry {id}.").format(id=entry_id))

    def search(self, text: str = "", system_id: str | None = None, kind: EntryKind | str | None = None,
               campaign: str | None = None) -> list[LibraryEntry]:
        """Entries whose name or tags contain ``text`` (any case), filtered, ordered by name."""
        clauses: list[str] = ["1"]
        params: list[object] = []
        needle = text.strip().casefold()
        if needle:
            clauses.append("(instr(casefold(name), ?) > 0 OR instr(casefold(tags), ?) > 0)")
            params += [needle, needle]
        for column, value in (("system_id", system_id), ("kind", kind), ("campaign", campaign)):
            if value is not None:
                clauses.append(f"{column} = ?")
                params.append(str(value))
        query = f"SELECT {_COLUMNS} FROM entries WHERE {' AND '.join(clauses)} ORDER BY id"
        with self._errors():
            entries = [_row_to_entry(row) for row in self._connection.execute(query, params)]
        return sorted(entries, key=lambda entry: name_key(entry.name))

    def campaigns(self, system_id: str) -> list[str]:
        """Campaign names used by entries of a game, sorted."""
        query = "SELECT DISTINCT campaign FROM entries WHERE system_id = ? AND campaign != ''"
        with self._errors():
            names = [row[0] for row in self._connection.execute(query, (system_id,))]
        return sorted(names, key=name_key)

    def integrity_ok(self) -> bool:
        """SQLite's own consistency check."""
        with self._errors():
            return bool(self._connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok")

    # --- files ------------------------------------------------------------------------------------
    @staticmethod
    def export_json(entries: Iterable[LibraryEntry], path: Path) -> None:
        """Write entries to a library JSON file, atomically (a crash leaves the old file or the new one)."""
        document = {"format": FORMAT, "version": FORMAT_VERSION, "entries": [_entry_to_data(e) for e in entries]}
        text = json.dumps(document, ensure_ascii=False, indent=2) + "\n"
        try:
            _write_atomically(path, text)
        except OSError as error:
            raise LibraryError(_("{file} cannot be written: {reason}").format(file=path.name, reason=error)) from error

    def plan_merge(self, entries: Iterable[LibraryEntry]) -> MergeReport:
        """What :meth:`merge` would do with ``entries`` now (nothing is written): for a preview."""
        checked = [validated(entry) for entry in entries]
        with self._errors():
            return plan_merge(self._all(self._connection), checked)

    def merge(self, entries: Iterable[LibraryEntry]) -> MergeReport:
        """Merge entries in (all or none): an entry matching none is added, a matching one with other content
        updates it (its id and created time kept), an identical one is skipped. Planned again inside the write,
        so another window's change since a preview is taken into account."""
        checked = [validated(entry) for entry in entries]
        with self._write() as connection:
            plan = plan_merge(self._all(connection), checked)
            updated = tuple(replace(update, after=self._update_row(connection, update.after))
                            for update in plan.updated)
            return replace(plan, added=tuple(self._insert(connection, plan.added)), updated=updated)

    def import_json(self, path: Path) -> MergeReport:
        """Merge the entries of a library file in (all or none; see :meth:`merge`)."""
        return self.merge(parse_library_file(path))


def name_key(name: str) -> tuple[str, str]:
    """Sort key for names: letters with accents next to their base letter ("Čestmír" among the Cs)."""
    folded = name.casefold()
    bare = "".join(char for char in unicodedata.normalize("NFD", folded) if not unicodedata.combining(char))
    return bare, folded


def _casefold(value: object) -> str:
    return value.casefold() if isinstance(value, str) else ""


def _write_atomically(path: Path, text: str) -> None:
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):  # a read-only disk refuses even this
            Path(temporary).unlink(missing_ok=True)
        raise


# --- entries and combatants ---------------------------------------------------------------------

def from_combatant(combatant: Combatant, kind: EntryKind | str, system_id: str) -> LibraryEntry:
    """A library entry from a combatant of the fight (its damage and initiative are not kept)."""
    # How this fight treats it (a shared monitor, kept from the players' eyes) is not what the creature is.
    extra = {key: value for key, value in combatant.extra.items() if key not in (SHARED_MONITOR, HIDDEN)}
    return LibraryEntry(kind=EntryKind(kind), system_id=system_id, name=combatant.name, side=combatant.side,
                        attributes=frozen_map(combatant.attributes), notes=combatant.notes, extra=frozen_map(extra),
                        weapons=fully_loaded(combatant.weapons))


def numbered_names(base: str, count: int, taken: Iterable[str]) -> list[str]:
    """``count`` names for copies of ``base`` that continue any numbering already in ``taken``.

    One copy keeps the plain name unless it (or a numbered one) is taken; "Ganger" alone counts as number 1.
    """
    base = base.strip()
    folded = base.casefold()
    pattern = re.compile(re.escape(folded) + r" ([0-9]{1,9})")
    highest, plain = 0, False
    for name in taken:
        other = name.strip().casefold()
        if not other.startswith(folded):  # most names of a big fight are someone else's: no pattern to try
            continue
        plain = plain or other == folded
        match = pattern.fullmatch(other)
        highest = max(highest, int(match[1])) if match else highest
    if count == 1 and not plain and not highest:
        return [base]
    start = max(highest, 1 if plain else 0) + 1
    return [f"{base} {number}" for number in range(start, start + count)]


def _fresh_ids(state: Encounter, count: int) -> list[str]:
    """Ids the combatants will get when added one after another (as the history would assign them: each add takes
    :func:`next_combatant_id` and counts the serial on by one). The fight's roster is not copied per id: a
    thousand combatants made each copy cost 0.1 ms."""
    ids: list[str] = []
    for offset in range(count):
        ids.append(next_combatant_id(state, state.serial + offset, ids))
    return ids


def to_operations(entry: LibraryEntry, count: int, state: Encounter, system: RuleSystem, group: str | None = None,
                  shared_monitor: bool = False, side: Side | None = None,
                  seat: str | None = None) -> list[AddCombatant]:
    """Operations adding ``count`` combatants made from ``entry`` (apply them as one Batch).

    ``group`` makes them a grunt group (one initiative roll); ``shared_monitor`` gives the group one condition
    monitor; ``side`` overrides the entry's side; ``seat``: who acts for them (Walka's seats: an ally with its
    player).
    """
    if entry.system_id != system.id:
        raise LibraryError(_("“{name}” is for another game ({game}).").format(
            name=entry.name, game=_(system_title(entry.system_id))
            if entry.system_id in system_ids() else entry.system_id))
    if not 1 <= count <= MAX_COUNT:
        raise LibraryError(_("Add between 1 and {limit} at a time.").format(limit=MAX_COUNT))
    entry = validated(entry)
    group = group.strip() if group else None
    if shared_monitor and not group:
        raise LibraryError(_("A shared condition monitor needs a group name."))
    extra = {**entry.extra, SHARED_MONITOR: True} if shared_monitor else dict(entry.extra)
    names = numbered_names(entry.name, count, (c.name for c in state.combatants.values()))
    return [AddCombatant(combatant_id, name, side or entry.side, frozen_map(entry.attributes), group=group,
                         seat=seat, notes=entry.notes, extra=frozen_map(extra), weapons=entry.weapons)
            for combatant_id, name in zip(_fresh_ids(state, count), names, strict=True)]

