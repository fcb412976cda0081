"""Merging entries into the roster and bestiary: an imported file, a new version of a bundled bestiary.

Both match entries the same way, by game, kind, campaign and case-folded name (:func:`entry_key`), and never
silently replace anything: an import is planned first (:func:`plan_merge`) so the GM sees what will be added,
updated and skipped; a bundled bestiary only updates the templates it seeded that the GM never edited, and a
template the GM deleted stays deleted (:func:`plan_seed`). Pure functions over entries: the library applies
the plans inside one transaction.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Final

from app.i18n import N_, _
from rules.encounter import Weapon

if TYPE_CHECKING:
    from app.library import LibraryEntry

#: What tells two entries apart when merging: (game, kind, campaign, case-folded name).
EntryKey = tuple[str, str, str, str]

#: The parts of an entry an update can change, with the words the import preview uses for them.
CHANGE_LABELS: Final[Mapping[str, str]] = {
    "name": N_("name"), "side": N_("side"), "attributes": N_("attributes"), "weapons": N_("weapons"),
    "notes": N_("notes"), "tags": N_("tags"), "extra": N_("other data")}

#: Names of the templates versions before 3 seeded from each bundled file (they kept only the file's name), so
#: that a library seeded by them knows which missing templates the GM deleted and which are new.
SEEDED_BEFORE_VERSIONING: Final[Mapping[str, frozenset[str]]] = {
    "sr3.json": frozenset({"ganger", "corporate security guard", "troll bouncer", "street samurai"})}


def entry_key(entry: LibraryEntry) -> EntryKey:
    """How an imported or bundled entry finds its match in the library."""
    return entry.system_id, entry.kind.value, entry.campaign, entry.name.casefold()


def key_text(key: EntryKey) -> str:
    """The key as stored in the database."""
    return json.dumps(list(key), ensure_ascii=False)


def _json_default(value: object) -> object:
    if isinstance(value, Weapon):
        return {"name": value.name, **value.values}
    if isinstance(value, Mapping):
        return dict(value)
    raise TypeError(type(value).__name__)


def _part(value: object) -> str:
    return json.dumps(value, default=_json_default, ensure_ascii=False, sort_keys=True)


def _parts(entry: LibraryEntry) -> dict[str, str]:
    """Each changeable part of an entry in one canonical text (maps sorted, tuples as lists)."""
    return {"name": entry.name, "side": entry.side.value, "attributes": _part(entry.attributes),
            "weapons": _part(entry.weapons), "notes": entry.notes, "tags": entry.tags, "extra": _part(entry.extra)}


def fingerprint(entry: LibraryEntry) -> str:
    """A hash of the entry's content (not its id or times): equal for entries that say the same."""
    content = _part([*entry_key(entry)[:3], _parts(entry)])
    return hashlib.sha256(content.encode("utf-8")).hexdigest()


def changed_parts(before: LibraryEntry, after: LibraryEntry) -> tuple[str, ...]:
    """The keys of :data:`CHANGE_LABELS` whose content differs, in that order."""
    old, new = _parts(before), _parts(after)
    return tuple(part for part in CHANGE_LABELS if old[part] != new[part])


@dataclass(frozen=True)
class EntryUpdate:
    """A stored entry and what it becomes (same id and created time), with the parts that change."""

    before: LibraryEntry
    after: LibraryEntry
    changed: tuple[str, ...]

    def summary(self) -> str:
        """What changes, in the GM's language: "attributes, weapons"."""
        return ", ".join(_(CHANGE_LABELS[part]) for part in self.changed)


@dataclass(frozen=True)
class MergeReport:
    """What merging entries into the library adds, updates and leaves as it was (each in the file's order)."""

    added: tuple[LibraryEntry, ...] = ()
    updated: tuple[EntryUpdate, ...] = ()
    unchanged: tuple[LibraryEntry, ...] = ()

    @property
    def changes(self) -> int:
        """How many entries are added or updated."""
        return len(self.added) + len(self.updated)


@dataclass
class _Slot:
    """One incoming entry and what it will do."""

    entry: LibraryEntry
    match: LibraryEntry | None = None
    same: bool = False


def plan_merge(stored: Sequence[LibraryEntry], incoming: Iterable[LibraryEntry]) -> MergeReport:
    """What merging ``incoming`` into ``stored`` does; ``updated[i].after`` carries the stored id and times.

    Each stored entry answers at most one incoming entry: identical pairs first, then the rest in order (so a
    file holding two entries of one name, like a library may, round-trips unchanged); an incoming entry left
    without a match is added.
    """
    free: dict[EntryKey, list[LibraryEntry]] = {}
    for entry in stored:
        free.setdefault(entry_key(entry), []).append(entry)
    slots = [_Slot(entry) for entry in incoming]
    for slot in slots:  # identical first, so a changed duplicate does not take an identical one's match
        candidates = free.get(entry_key(slot.entry), [])
        same = next((entry for entry in candidates if fingerprint(entry) == fingerprint(slot.entry)), None)
        if same is not None:
            candidates.remove(same)
            slot.match, slot.same = same, True
    for slot in slots:
        candidates = free.get(entry_key(slot.entry), [])
        if slot.match is None and candidates:
            slot.match = candidates.pop(0)
    return MergeReport(
        added=tuple(slot.entry for slot in slots if slot.match is None),
        updated=tuple(_update(slot.match, slot.entry) for slot in slots if slot.match is not None and not slot.same),
        unchanged=tuple(slot.match for slot in slots if slot.match is not None and slot.same))


def _update(before: LibraryEntry, incoming: LibraryEntry) -> EntryUpdate:
    after = replace(incoming, id=before.id, created=before.created, updated=before.updated)
    return EntryUpdate(before, after, changed_parts(before, after))


# --- bundled bestiaries ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Seeded:
    """A template a bundled file seeded: its entry (None: the GM deleted it, or it is the GM's own) and the
    fingerprint of what was seeded ("": never update it)."""

    entry_id: int | None
    content: str


@dataclass(frozen=True)
class SeedPlan:
    """What a new version of a bundled file does to the library."""

    insert: tuple[LibraryEntry, ...] = ()
    update: tuple[LibraryEntry, ...] = ()  # stored ids, the bundled content
    remember: Mapping[EntryKey, Seeded] = field(default_factory=dict)  # records to write besides those


def adopt_legacy_seed(file: str, entries: Sequence[LibraryEntry],
                      stored: Mapping[EntryKey, LibraryEntry]) -> dict[EntryKey, Seeded]:
    """Records for a file seeded before versioning: a template still there and never edited (its ``updated``
    is its ``created``) was seeded and may follow the new version; an edited one is the GM's; a known one that
    is missing was deleted and stays so. A file of unknown history gives records only for what is there."""
    known = SEEDED_BEFORE_VERSIONING.get(file)
    games = sorted({entry.system_id for entry in entries})
    names = known if known is not None else {entry.name.casefold() for entry in entries}
    records: dict[EntryKey, Seeded] = {}
    for key in ((game, "npc", "", name) for game in games for name in sorted(names)):
        entry = stored.get(key)
        if entry is not None:
            untouched = entry.created == entry.updated
            records[key] = Seeded(entry.id, fingerprint(entry)) if untouched else Seeded(None, "")
        elif known is not None:
            records[key] = Seeded(None, "")
    return records


def plan_seed(entries: Sequence[LibraryEntry], remembered: Mapping[EntryKey, Seeded],
              stored: Mapping[EntryKey, LibraryEntry], by_id: Mapping[int, LibraryEntry]) -> SeedPlan:
    """A bundled file's entries against the library: add what has no template of its name yet, update what
    this file seeded and the GM left as seeded, leave the rest alone (``stored``: the first entry of each key;
    ``by_id``: every stored entry)."""
    insert: list[LibraryEntry] = []
    update: list[LibraryEntry] = []
    remember: dict[EntryKey, Seeded] = {}
    inserted: set[EntryKey] = set()
    for entry in entries:
        key = entry_key(entry)
        record = remembered.get(key)
        if record is None:
            if key in stored:
                remember[key] = Seeded(None, "")  # the GM's own template of that name: never touched
            elif key not in inserted:
                insert.append(entry)
                inserted.add(key)
            continue
        current = by_id.get(record.entry_id) if record.entry_id is not None and record.content else None
        if current is not None and fingerprint(current) == record.content != fingerprint(entry):
            update.append(replace(entry, id=current.id, created=current.created, updated=current.updated))
    return SeedPlan(tuple(insert), tuple(update), remember)
