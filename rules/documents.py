"""Fight documents: a whole fight as JSON-able data (schema 3), opened without replaying it.

A document holds:

- ``initial``: the state before the first operation; ``operations``: every operation in effect, oldest first;
- ``log``: per operation ``[round, pass, [line, …]]``, what it wrote to the combat log and when;
- ``checkpoints``: ``[{"at": n, "patch": …}]``, the state after ``n`` operations, kept as the fields and
  mapping items that differ from the next checkpoint (the last one: from ``state``), so a checkpoint costs
  what changed in its segment, not a whole fight;
- ``state``: the state after every operation.

A *trusted* document (the app checked that its bytes are exactly as Bojovka wrote them) opens from
``state``: its entries are pending (see :class:`rules.history.Entry`) and a segment between two checkpoints
is replayed the first time undo reaches it (the last two segments at once, on opening). Each replay must
arrive at the checkpoint after it and write the log lines saved for it, and undo replays one segment
*ahead*, so every state shown was checked, ``state`` first:
a file whose parts disagree (edited, forged, or saved by a Bojovka with other rules) stops undo at that
point with :class:`~rules.history.HistoryDamaged` and loses nothing else. Any other document (schema 1, a
file edited or damaged since it was saved) is replayed in full and checked against its ``state``.
"""

from __future__ import annotations

import typing
from collections.abc import Mapping, Sequence
from dataclasses import fields, replace
from types import MappingProxyType
from typing import Any, Final

from rules.encounter import Encounter, frozen_map
from rules.errors import RulesError, clipped
from rules.history import Checkpoint, Entry, History, HistoryDamaged, LogLine, Operation, diff
from rules.serialize import (
    FORMAT,
    MAX_OPERATIONS,
    MAX_TEXT,
    SCHEMA_VERSION,
    SchemaError,
    encounter_from_data,
    from_data,
    migrate,
    operation_from_data,
    to_data,
    type_hints,
)
from rules.state_checks import check_options, check_state
from rules.systems import get_system
from rules.systems.base import Reminder, RuleSystem
from rules.text import _

MAX_LOG_LINES: Final[int] = 1_000
MAX_LOG_ARGS: Final[int] = 100
#: Encounter fields that are mappings (patched item by item); annotations are strings here.
_MAPPINGS: Final[frozenset[str]] = frozenset(
    spec.name for spec in fields(Encounter) if str(spec.type).startswith("Mapping"))


def _fail(place: str, problem: str) -> SchemaError:
    return SchemaError(_("{place}: {problem}").format(place=place, problem=problem))


# --- state comparison and patches ---------------------------------------------------------------


def same_state(a: Encounter, b: Encounter) -> bool:
    """Equal values, and every mapping in the same order (the order is what the GM sees)."""
    return a == b and all(list(getattr(a, name)) == list(getattr(b, name)) for name in _MAPPINGS)


def _differs(old: Any, new: Any) -> bool:
    return old is not new and old != new


def encode_patch(state: Encounter, reference: Encounter) -> dict[str, Any]:
    """``state`` as what differs from ``reference``: whole fields, changed mapping items, new key orders."""
    whole: dict[str, Any] = {}
    items: dict[str, Any] = {}
    keys: dict[str, Any] = {}
    for spec in fields(Encounter):
        old, new = getattr(state, spec.name), getattr(reference, spec.name)
        if old is new:
            continue
        if spec.name in _MAPPINGS:
            changed = {key: to_data(value) for key, value in old.items() if key not in new or _differs(value, new[key])}
            if changed:
                items[spec.name] = changed
            if list(old) != list(new):
                keys[spec.name] = list(old)
        elif old != new:
            whole[spec.name] = to_data(old)
    return {"fields": whole, "items": items, "keys": keys}


def _patch_part(patch: dict[str, Any], part: str, place: str) -> dict[str, Any]:
    value = patch.get(part, {})
    if not isinstance(value, dict) or not set(value) <= {spec.name for spec in fields(Encounter)}:
        raise _fail(f"{place}.{part}", _("expected an object"))
    return value


def decode_patch(reference: Encounter, patch: Any, place: str) -> Encounter:
    """The state a patch describes relative to ``reference`` (validated like any other data)."""
    if not isinstance(patch, dict):
        raise _fail(place, _("expected an object"))
    hints = type_hints(Encounter)
    whole, items, keys = (_patch_part(patch, part, place) for part in ("fields", "items", "keys"))
    changes: dict[str, Any] = {}
    for name, data in whole.items():
        if name in _MAPPINGS:
            raise _fail(f"{place}.fields.{name}", _("expected an object"))
        changes[name] = from_data(hints[name], data, f"{place}.fields.{name}")
    for name in set(items) | set(keys):
        if name not in _MAPPINGS:
            raise _fail(f"{place}.items.{name}", _("expected an object"))
        item_type = typing.get_args(hints[name])[1]
        changes[name] = _patched_mapping(getattr(reference, name), items.get(name, {}), keys.get(name),
                                         item_type, f"{place}.items.{name}")
    try:
        return replace(reference, **changes)
    except (TypeError, ValueError) as error:
        raise _fail(place, str(error)) from None


def _patched_mapping(base: Mapping[str, Any], changed: Any, order: Any, item_type: Any,
                     place: str) -> Mapping[str, Any]:
    if not isinstance(changed, dict):
        raise _fail(place, _("expected an object"))
    if order is None:
        order = list(base)
    if not isinstance(order, list) or not all(isinstance(key, str) for key in order) or len(set(order)) != len(order):
        raise _fail(place, _("expected a list"))
    result = {}
    for key in order:
        if key in changed:
            result[key] = from_data(item_type, changed[key], f"{place}.{key}")
        elif key in base:
            result[key] = base[key]
        else:
            raise _fail(f"{place}.{key}", _("a value is missing"))
    if not set(changed) <= set(result):
        raise _fail(place, _("unexpected value {value!r}").format(value=sorted(set(changed) - set(result))[0]))
    return frozen_map(result)


# --- log lines ----------------------------------------------------------------------------------


def encode_line(line: LogLine) -> list[Any]:
    """A log line as a short list: ``[text, args]``, ``[text, args, plural, count, translate]`` or that and
    ``shown_as`` (the formats of arguments in a notation of their own, e.g. SR3's damage codes)."""
    args = dict(line.args)
    if line.shown_as:
        return [line.text, args, line.plural, line.count, list(line.translate), dict(line.shown_as)]
    if line.plural is None and not line.translate:
        return [line.text, args]
    return [line.text, args, line.plural, line.count, list(line.translate)]


def _text(value: Any, place: str) -> str:
    if not isinstance(value, str) or len(value) > MAX_TEXT:
        raise _fail(place, _("expected text"))
    return value


def _number(value: Any, place: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) > 10**9:
        raise _fail(place, _("expected a whole number"))
    return value


def decode_line(data: Any, place: str) -> LogLine:
    """Validate and decode one saved log line (a fast path: there may be tens of thousands)."""
    if not isinstance(data, list) or len(data) not in (2, 5, 6):
        raise _fail(place, _("expected a list"))
    text, args = _text(data[0], place), data[1]
    if not isinstance(args, dict) or len(args) > MAX_LOG_ARGS:
        raise _fail(place, _("expected an object"))
    for key, value in args.items():
        if not isinstance(value, str):
            _number(value, f"{place}.{key}")
        elif len(value) > MAX_TEXT:
            raise _fail(f"{place}.{key}", _("expected text"))
    # The dict was made by the JSON parser for this line alone: wrap it read-only rather than copy it.
    if len(data) == 2:
        return LogLine(text, MappingProxyType(args))
    plural = None if data[2] is None else _text(data[2], place)
    translate = data[4]
    if not isinstance(translate, list) or not all(isinstance(name, str) for name in translate):
        raise _fail(place, _("expected a list"))
    shown_as = data[5] if len(data) == 6 else {}
    if not isinstance(shown_as, dict) or len(shown_as) > MAX_LOG_ARGS or not all(
            isinstance(value, str) and len(value) <= MAX_TEXT for value in shown_as.values()):
        raise _fail(place, _("expected an object"))
    return LogLine(text, MappingProxyType(args), plural, _number(data[3], place), tuple(translate),
                   MappingProxyType(shown_as))


def encode_entry(entry: Entry) -> tuple[Any, list[Any]]:
    """An entry's operation and log record, encoded once and cached on the entry."""
    if entry.encoded is None:
        entry.encoded = (to_data(entry.operation),
                         [entry.round, entry.pass_no, [encode_line(line) for line in entry.log]])
    encoded: tuple[Any, list[Any]] = entry.encoded
    return encoded


# --- writing ------------------------------------------------------------------------------------


def _encode_checkpoints(history: History, count: int) -> list[dict[str, Any]]:
    """Each checkpoint as a patch against the next one; a loaded patch whose next one is unchanged is reused."""
    kept = [(position, state) for position, state in history.checkpoints if 0 < position < count]
    successors = [position for position, _state in kept[1:]] + [count][: len(kept)]
    known = {position: state for position, state in kept if state is not None}
    known[count] = history.state

    def state_at(position: int) -> Encounter:
        if position not in known:
            assert history.source is not None, "only a loaded fight has checkpoints still to decode"
            known[position] = history.source.checkpoint(position)
        return known[position]

    encoded = []
    for (position, state), successor in zip(kept, successors, strict=True):
        saved = (history.source.saved_patch(position, successor, known.get(successor))
                 if state is None and history.source else None)
        patch = saved if saved is not None else encode_patch(state_at(position), state_at(successor))
        encoded.append({"at": position, "patch": patch})
    return encoded


def encode_history(history: History) -> dict[str, Any]:
    """The whole fight as a document (see the module docstring)."""
    encoded = [encode_entry(entry) for entry in history.entries]
    return {
        "format": FORMAT,
        "schema_version": SCHEMA_VERSION,
        "initial": to_data(history.initial),
        "operations": [operation for operation, _record in encoded],
        "log": [record for _operation, record in encoded],
        "checkpoints": _encode_checkpoints(history, len(encoded)),
        "state": to_data(history.state),
    }


# --- reading ------------------------------------------------------------------------------------


def decode_history(document: Any, trusted: bool = False) -> History:
    """Rebuild the fight from a document; ``trusted``: its bytes are as Bojovka wrote them (see above)."""
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise SchemaError(_("This is not a Bojovka encounter file."))
    document = migrate(dict(document))
    operations = document.get("operations")
    if not isinstance(operations, list) or len(operations) > MAX_OPERATIONS:
        raise _fail("operations", _("expected a list"))
    initial = encounter_from_data(document.get("initial"), "initial")
    check_state(initial, "initial")
    check_options(initial, get_system(initial.system_id), "initial")  # importing the game registers its operations
    if trusted and operations and "log" in document:
        return _resume(document, initial, operations)
    return _replay_all(document, initial, operations)


def _replay_all(document: dict[str, Any], initial: Encounter, operations: list[Any]) -> History:
    decoded = [operation_from_data(item, f"operations[{i}]") for i, item in enumerate(operations)]
    try:
        history = History.replay(initial, decoded)
    except RulesError as error:
        raise SchemaError(_("The fight's history cannot be replayed: {problem}").format(
            problem=clipped(str(error)))) from None
    check_state(history.state, "state")
    if "state" in document and to_data(history.state) != document["state"]:
        raise SchemaError(_("The saved state does not match the fight's history; the file was changed "
                            "or damaged."))
    _keep_saved_log(history, document.get("log"))
    return history


def _same_lines(replayed: Sequence[LogLine], saved: Sequence[LogLine]) -> bool:
    """Whether a replay wrote the saved lines: the same facts (arguments and counts), line for line. The
    wording is not compared, nor how a notation is shown (``shown_as``): a later release may say the same
    thing better (Souboj's "acts in phase 4" became "acts at initiative 4"), and an old fight must still undo."""
    return len(replayed) == len(saved) and all(
        (new.args, new.count, new.translate) == (old.args, old.count, old.translate)
        for new, old in zip(replayed, saved, strict=True))


def _keep_saved_log(history: History, saved: Any) -> None:
    """The log says what was written when it happened: a replayed fight keeps its saved lines, not today's
    wording of them, wherever they are readable and there is one record per operation."""
    if not isinstance(saved, list) or len(saved) != len(history.entries):
        return
    try:
        lines = [tuple(decode_line(line, f"log[{index}][{number}]") for number, line in enumerate(record[2]))
                 for index, record in enumerate(saved)]
    except (SchemaError, TypeError, IndexError, KeyError):
        return  # a damaged log is no reason to refuse a fight whose history replays: today's lines stand
    for entry, kept in zip(history.entries, lines, strict=True):
        entry.keep_log(kept)


def _check_kinds(operations: list[Any]) -> None:
    """Cheap checks now, so a file from a Bojovka with more operations is refused at once, not on undo."""
    for index, item in enumerate(operations):
        kind = item.get("op") if isinstance(item, dict) else None
        if not isinstance(kind, str) or kind not in Operation.registry:
            operation_from_data(item, f"operations[{index}]")  # raises the precise message


def _positions(document: dict[str, Any], count: int) -> tuple[list[int], dict[int, Any]]:
    checkpoints = document.get("checkpoints", [])
    if not isinstance(checkpoints, list):
        raise _fail("checkpoints", _("expected a list"))
    positions, patches, last = [], {}, 0
    for index, item in enumerate(checkpoints):
        position = item.get("at") if isinstance(item, dict) else None
        if isinstance(position, bool) or not isinstance(position, int) or not last < position < count:
            raise _fail(f"checkpoints[{index}].at", _("expected a whole number"))
        positions.append(position)
        patches[position] = item.get("patch")
        last = position
    return positions, patches


def _pending_entries(archive: Archive, operations: list[Any], log: list[Any]) -> list[Entry]:
    """One pending entry per saved operation, its round and pass checked (a fast path: there may be 100,000)."""
    entries, pending, limit = [], Entry.pending, 10**9
    for index, (operation, record) in enumerate(zip(operations, log, strict=True)):
        # Exact types, so True is no round; anything else goes the slow way, which names what is wrong.
        if (type(record) is list and len(record) == 3 and type(round_no := record[0]) is int
                and type(pass_no := record[1]) is int and type(lines := record[2]) is list
                and -limit <= round_no <= limit and -limit <= pass_no <= limit and len(lines) <= MAX_LOG_LINES):
            entries.append(pending(archive, index, round_no, pass_no, (operation, record)))
        else:
            entries.append(pending(archive, index, *_round_and_pass(record, f"log[{index}]"), (operation, record)))
    return entries


def _round_and_pass(record: Any, place: str) -> tuple[int, int]:
    if not isinstance(record, list) or len(record) != 3 or not isinstance(record[2], list):
        raise _fail(place, _("expected a list"))
    if len(record[2]) > MAX_LOG_LINES:  # checked here: the log view counts an entry's lines without decoding them
        raise _fail(place, _("too many entries ({count})").format(count=len(record[2])))
    return _number(record[0], place), _number(record[1], place)


def _resume(document: dict[str, Any], initial: Encounter, operations: list[Any]) -> History:
    log = document.get("log")
    if not isinstance(log, list) or len(log) != len(operations):
        raise _fail("log", _("expected {count} values").format(count=len(operations)))
    _check_kinds(operations)
    positions, patches = _positions(document, len(operations))
    state = encounter_from_data(document.get("state"), "state")
    check_state(state, "state")
    check_options(state, get_system(initial.system_id), "state")
    archive = Archive(initial, state, operations, log, positions, patches)
    entries = _pending_entries(archive, operations, log)
    archive.attach(entries)
    checkpoints: list[Checkpoint] = [(0, initial), *((position, None) for position in positions),
                                     (len(operations), state)]
    history = History.resumed(initial, state, entries, checkpoints)
    history.source = archive
    try:  # the state the GM sees first is checked now (and the first undos are ready)
        archive.complete(len(operations) - 1)
    except HistoryDamaged:
        raise SchemaError(_("The saved state does not match the fight's history; the file was changed "
                            "or damaged.")) from None
    return history


Replayed = list[tuple[Operation, Any, tuple[Reminder, ...]]]


class Archive:
    """The saved history of a fight opened from its last state: decodes and replays it on demand."""

    def __init__(self, initial: Encounter, state: Encounter, operations: list[Any], log: list[Any],
                 positions: list[int], patches: dict[int, Any]) -> None:
        self.system: RuleSystem = get_system(initial.system_id)
        self._operations, self._log, self._patches = operations, log, patches
        self._positions = [0, *positions, len(operations)]
        self._states: dict[int, Encounter] = {0: initial, len(operations): state}
        self._replayed: dict[int, Replayed] = {}
        self._damage: HistoryDamaged | None = None
        self._entries: list[Entry] = []

    # --- EntrySource ------------------------------------------------------------------------------
    def operation(self, index: int) -> Operation:
        """Decode one saved operation."""
        try:
            return operation_from_data(self._operations[index], f"operations[{index}]")
        except RecursionError:
            raise _fail(f"operations[{index}]", _("nested too deeply")) from None

    def log(self, index: int) -> tuple[LogLine, ...]:
        """Decode one entry's saved log lines."""
        lines = self._log[index][2]
        if len(lines) > MAX_LOG_LINES:
            raise _fail(f"log[{index}]", _("too many entries ({count})").format(count=len(lines)))
        return tuple(decode_line(line, f"log[{index}][{number}]") for number, line in enumerate(lines))

    def checkpoint(self, position: int) -> Encounter:
        """The state after ``position`` operations, decoded from the checkpoints after it."""
        # Walk back from the nearest decoded checkpoint after it (no recursion: there may be thousands).
        index = self._positions.index(position)
        later = index
        while self._positions[later] not in self._states:
            later += 1
        for step in range(later - 1, index - 1, -1):
            at = self._positions[step]
            decoded = decode_patch(self._states[self._positions[step + 1]], self._patches[at], f"checkpoints[at={at}]")
            check_state(decoded, f"checkpoints[at={at}]")
            check_options(decoded, self.system, f"checkpoints[at={at}]")
            self._states[at] = decoded
        return self._states[position]

    def saved_patch(self, position: int, successor: int, successor_state: Encounter | None) -> Any:
        """The patch saved for a checkpoint, if the next checkpoint is still the saved one (else None).

        The next one must be the same position *and* the same state: still pending (``None``), or the very
        object this archive decoded (after an undo and a new operation the position may hold another state).
        """
        following = self._positions[self._positions.index(position) + 1]
        if following != successor or (successor_state is not None
                                       and successor_state is not self._states.get(successor)):
            return None
        return self._patches[position]

    def complete(self, index: int) -> None:
        """Fill in the entries of the segment holding ``index``, after checking it and the segment before."""
        if self._damage is not None:
            raise self._damage
        start = self._segment_start(index)
        try:
            replayed = self._replay(start)
            if start > 0:
                self._replay(self._segment_start(start - 1))
        except HistoryDamaged as damage:
            self._damage = damage
            raise
        entries = self._entries_of(index)
        for entry, (operation, delta, reminders) in zip(entries, replayed, strict=True):
            entry.fill(operation, delta, reminders)

    # --- replaying ----------------------------------------------------------------------------------
    def attach(self, entries: Sequence[Entry]) -> None:
        """The pending entries this archive completes (by index)."""
        self._entries = list(entries)

    def _entries_of(self, index: int) -> list[Entry]:
        start = self._segment_start(index)
        end = self._positions[self._positions.index(start) + 1]
        return self._entries[start:end]

    def _segment_start(self, index: int) -> int:
        return max(position for position in self._positions if position <= index)

    def _replay(self, start: int) -> Replayed:
        if start not in self._replayed:
            try:
                self._replayed[start] = self._replay_segment(start)
            except RecursionError:
                raise self._damaged(start, _("nested too deeply")) from None
            except RulesError as problem:
                raise self._damaged(start, str(problem)) from None
        return self._replayed[start]

    def _replay_segment(self, start: int) -> Replayed:
        end = self._positions[self._positions.index(start) + 1]
        state = self.checkpoint(start)
        replayed: Replayed = []
        for index in range(start, end):
            operation = self.operation(index)
            applied = operation.apply(state, self.system)
            clock = applied.encounter.clock
            if [clock.round, clock.pass_no] != self._log[index][:2] or not _same_lines(applied.log, self.log(index)):
                raise self._damaged(index, _("the log does not match the operation"))
            replayed.append((operation, diff(state, applied.encounter), applied.reminders))
            state = applied.encounter
        if not same_state(state, self.checkpoint(end)):
            raise self._damaged(end, _("the saved state does not match the operations before it"))
        return replayed

    @staticmethod
    def _damaged(index: int, problem: str) -> HistoryDamaged:
        return HistoryDamaged(_("The saved history of this fight is damaged at operation {number} ({problem}); "
                                "undo cannot go back past it. Everything after it is intact.").format(
            number=index + 1, problem=clipped(problem)))


def fight_data(history: History) -> dict[str, Any]:
    """The document without its checkpoints: two histories of the same fight give the same data.

    Checkpoints are derived data, and where they fall depends on where the fight was last opened.
    """
    document = encode_history(history)
    del document["checkpoints"]
    return document
