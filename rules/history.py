"""History: the source of truth of an encounter.

Every change is an :class:`Operation` (an event carrying everything it needs, including dice already
rolled, so replaying it gives the same result). Applying one yields the new state, log lines and
reminders; the history records a :class:`Delta` of what changed, so undo and redo restore states
exactly and cheaply. The combat log, autosave journal, summary and charts are all read from here.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, Protocol

from rules.encounter import Clock, Combatant, Encounter, frozen_map
from rules.errors import OperationError, RulesError
from rules.frozen import evolve
from rules.log_formats import shown_in_language
from rules.systems import get_system
from rules.systems.base import Reminder, RuleSystem
from rules.text import _, ngettext

LogArg = str | int


@dataclass(frozen=True)
class LogLine:
    """A log sentence kept as its English source and arguments, translated when it is rendered.

    ``plural`` and ``count`` select a plural form; arguments named in ``translate`` are themselves
    source strings (e.g. a damage level's name) translated at render time; an argument named in ``shown_as``
    is written by the :mod:`rules.log_formats` format it names (SR3's "9D" is "9S" in Czech).
    """

    text: str
    args: Mapping[str, LogArg] = field(default_factory=dict)
    plural: str | None = None
    count: int = 0
    translate: tuple[str, ...] = ()
    shown_as: Mapping[str, str] = field(default_factory=dict)

    def render(self) -> str:
        """The sentence in the installed language."""
        template = ngettext(self.text, self.plural, self.count) if self.plural else _(self.text)
        return template.format(**{key: self._shown(key, value) for key, value in self.args.items()})

    def _shown(self, key: str, value: LogArg) -> LogArg:
        if not isinstance(value, str):
            return value
        if key in self.translate:
            return _(value)
        format_name = self.shown_as.get(key)
        return value if format_name is None else shown_in_language(format_name, value)


@dataclass(frozen=True)
class Applied:
    """The result of applying an operation: new state, what to log, what to tell the GM now."""

    encounter: Encounter
    log: tuple[LogLine, ...] = ()
    reminders: tuple[Reminder, ...] = ()

    def then(self, other: Applied) -> Applied:
        """Chain another result after this one (its state wins, logs and reminders add up)."""
        return Applied(other.encounter, self.log + other.log, self.reminders + other.reminders)


@dataclass(frozen=True)
class AttackRecord:
    """Who attacked whom with what, as an attack operation tells it (``weapon`` "": typed by hand)."""

    attacker_id: str
    target_id: str | None
    weapon: str = ""


class Operation(ABC):
    """An event that changes an encounter. Subclasses are frozen dataclasses with JSON-able fields."""

    kind: ClassVar[str] = ""
    registry: ClassVar[dict[str, type[Operation]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.__dict__.get("kind"):
            if cls.kind in Operation.registry:
                raise TypeError(f"operation kind {cls.kind!r} registered twice")
            Operation.registry[cls.kind] = cls

    @abstractmethod
    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        """Return the new state (never mutate ``encounter``); raise OperationError if not possible."""

    def attacker_id(self) -> str | None:
        """The combatant whose action deals the harm this operation does to others (None: nobody's).

        Attacks name their attacker, so the summary can credit the damage dealt and say who felled whom.
        """
        return None

    def attack_record(self) -> AttackRecord | None:
        """Who attacked whom with which weapon, if this is an attack (the next attack dialog starts from it)."""
        return None

    def parts(self) -> Sequence[Operation]:
        """The operations this one is made of (itself, unless it is a batch)."""
        return (self,)


def require_combatant(encounter: Encounter, combatant_id: str) -> Combatant:
    """The combatant with that id, or a clear OperationError if there is none."""
    combatant = encounter.combatants.get(combatant_id)
    if combatant is None:
        raise OperationError(_("No combatant with id {id!r} in this encounter.").format(id=combatant_id))
    return combatant


@dataclass(frozen=True)
class Batch(Operation):
    """Several operations as one step of the history (one undo): "Ganger ×3", a whole attack sequence."""

    kind = "batch"
    operations: tuple[Operation, ...]
    label: str = ""

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        if not self.operations:
            raise OperationError(_("Nothing to do."))
        result = Applied(encounter)
        for operation in self.operations:
            result = result.then(operation.apply(result.encounter, system))
        return result

    def parts(self) -> Sequence[Operation]:
        return tuple(part for operation in self.operations for part in operation.parts())


# --- deltas -------------------------------------------------------------------------------------

_MISSING: Any = object()


@dataclass(frozen=True)
class Delta:
    """What one operation changed: whole fields (old, new) and, for mappings, changed items only."""

    fields: Mapping[str, Any]  # (old, new), but the clock's is a ClockChange
    items: Mapping[str, Mapping[str, tuple[Any, Any]]]

    @property
    def empty(self) -> bool:
        """True when the operation changed nothing."""
        return not self.fields and not self.items

    def changed_items(self, field_name: str) -> frozenset[str]:
        """Keys of a mapping field that changed (e.g. combatant ids), for views to refresh."""
        change = self.fields.get(field_name)
        if isinstance(change, tuple):
            old, new = change
            return frozenset(old) | frozenset(new) if isinstance(old, Mapping) else frozenset()
        if change is not None:  # the clock: no items
            return frozenset()
        return frozenset(self.items.get(field_name, {}))


@dataclass(frozen=True, slots=True)
class ClockChange:
    """How one operation moved the clock, kept small: the clock on either side with its ``acted`` and ``yielded``
    sets left empty, and who joined or left each set.

    Every Next adds one combatant to ``acted``; keeping both whole clocks kept a set of up to every combatant for
    each entry (61 MB of a 5,000-operation fight of 1,000 combatants). The sets are worked out again from the
    clock on the other side (:meth:`clock_from`), which undo and redo always have at hand.
    """

    before: Clock
    after: Clock
    acted_in: frozenset[str]
    acted_out: frozenset[str]
    yielded_in: frozenset[str]
    yielded_out: frozenset[str]

    @classmethod
    def between(cls, old: Clock, new: Clock) -> ClockChange:
        """The change from ``old`` to ``new``."""
        return cls(evolve(old, acted=frozenset(), yielded=frozenset()),
                   evolve(new, acted=frozenset(), yielded=frozenset()),
                   new.acted - old.acted, old.acted - new.acted, new.yielded - old.yielded, old.yielded - new.yielded)

    def clock_from(self, clock: Clock, side: int) -> Clock:
        """The clock on ``side`` (0: before, 1: after) of the change, given the clock on the other side."""
        if side == 0:
            return evolve(self.before, acted=(clock.acted - self.acted_in) | self.acted_out,
                           yielded=(clock.yielded - self.yielded_in) | self.yielded_out)
        return evolve(self.after, acted=(clock.acted - self.acted_out) | self.acted_in,
                       yielded=(clock.yielded - self.yielded_out) | self.yielded_in)


def diff(before: Encounter, after: Encounter) -> Delta:
    """Compute the delta between two states that share unchanged parts (compared by identity); the clock's change
    is a :class:`ClockChange`."""
    whole: dict[str, Any] = {}
    items: dict[str, Mapping[str, tuple[Any, Any]]] = {}
    for spec in fields(Encounter):
        old, new = getattr(before, spec.name), getattr(after, spec.name)
        if old is new:
            continue
        if isinstance(old, Clock) and isinstance(new, Clock):
            if old != new:
                whole[spec.name] = ClockChange.between(old, new)
            continue
        if isinstance(old, Mapping) and isinstance(new, Mapping):
            if list(old) != list(new):  # keys added, removed or reordered: keep both whole
                whole[spec.name] = (old, new)
                continue
            changed = {key: (old[key], new[key]) for key in old if old[key] is not new[key]}
            if changed:
                items[spec.name] = changed
        elif old != new:
            whole[spec.name] = (old, new)
    return Delta(whole, items)


def _apply_delta(state: Encounter, delta: Delta, side: int) -> Encounter:
    changes: dict[str, Any] = {
        name: pair.clock_from(state.clock, side) if isinstance(pair, ClockChange) else pair[side]
        for name, pair in delta.fields.items()}
    for name, changed in delta.items.items():
        merged = dict(getattr(state, name))
        merged.update({key: pair[side] for key, pair in changed.items()})
        changes[name] = frozen_map(merged)
    return evolve(state, **changes)


def revert(state: Encounter, delta: Delta) -> Encounter:
    """The state before the delta."""
    return _apply_delta(state, delta, 0)


def reapply(state: Encounter, delta: Delta) -> Encounter:
    """The state after the delta."""
    return _apply_delta(state, delta, 1)


# --- the history --------------------------------------------------------------------------------


class HistoryDamaged(RulesError):
    """Part of a loaded fight's history cannot be replayed to the states that were saved with it."""


class EntrySource(Protocol):
    """Completes the entries of a loaded fight on demand (implemented by rules.documents)."""

    def operation(self, index: int) -> Operation:
        """Decode the operation of entry ``index``."""

    def log(self, index: int) -> tuple[LogLine, ...]:
        """Decode the saved log lines of entry ``index``."""

    def complete(self, index: int) -> None:
        """Replay the segment holding entry ``index`` and fill in its entries; HistoryDamaged if it disagrees."""

    def checkpoint(self, position: int) -> Encounter:
        """The saved state after ``position`` operations."""

    def saved_patch(self, position: int, successor: int, successor_state: Encounter | None) -> Any:
        """The checkpoint's saved form, if still valid before ``successor`` (None: encode it again)."""


class Entry:
    """One recorded operation, what it changed, and the round and pass the fight stood at after it.

    An entry of a loaded fight starts *pending*: its round, pass and log come from the file, its operation
    is decoded on first use, and its delta and reminders are filled in when its segment is replayed (the
    first time undo reaches it), so opening a long fight does not replay it. ``encoded`` caches the
    entry's serialised form for the next save.
    """

    __slots__ = ("_delta", "_log", "_operation", "_reminders", "_source", "encoded", "index", "pass_no", "round")

    def __init__(self, operation: Operation | None, delta: Delta | None, log: tuple[LogLine, ...] | None,
                 reminders: tuple[Reminder, ...] | None, round: int, pass_no: int) -> None:
        self._operation, self._delta, self._log, self._reminders = operation, delta, log, reminders
        self.round, self.pass_no = round, pass_no
        self._source: EntrySource | None = None
        self.index = -1
        self.encoded: Any = None

    @classmethod
    def pending(cls, source: EntrySource, index: int, round: int, pass_no: int,
                encoded: Any) -> Entry:
        """An entry of a loaded fight, completed on demand by ``source``."""
        entry = cls.__new__(cls)  # each slot set once: a long fight makes 100,000 of them when it opens
        entry._operation = entry._delta = entry._log = entry._reminders = None
        entry.round, entry.pass_no = round, pass_no
        entry._source, entry.index, entry.encoded = source, index, encoded
        return entry

    def _need(self) -> EntrySource:
        assert self._source is not None, "a pending entry always has a source"
        return self._source

    @property
    def operation(self) -> Operation:
        """The operation (decoded on first use for a loaded entry)."""
        if self._operation is None:
            self._operation = self._need().operation(self.index)
        return self._operation

    @property
    def log(self) -> tuple[LogLine, ...]:
        """What the operation wrote to the combat log."""
        if self._log is None:
            self._log = self._need().log(self.index)
        return self._log

    @property
    def log_size(self) -> int:
        """How many lines :attr:`log` holds; a loaded entry's are counted in the file, not decoded."""
        if self._log is None and self.encoded is not None:
            lines: list[Any] = self.encoded[1][2]
            return len(lines)
        return len(self.log)

    @property
    def delta(self) -> Delta:
        """What the operation changed (a loaded entry's segment is replayed the first time)."""
        if self._delta is None:
            self._need().complete(self.index)
        assert self._delta is not None
        return self._delta

    @property
    def reminders(self) -> tuple[Reminder, ...]:
        """What the GM was told when the operation was applied."""
        if self._reminders is None:
            self._need().complete(self.index)
        assert self._reminders is not None
        return self._reminders

    @property
    def label(self) -> str:
        """A batch's own label ("Ganger ×3"), else ""; read from a loaded entry without decoding it."""
        if self._operation is not None:
            return self._operation.label if isinstance(self._operation, Batch) else ""
        data = self.encoded[0] if self.encoded else None
        label = data.get("label") if isinstance(data, dict) and data.get("op") == Batch.kind else None
        return label[:200] if isinstance(label, str) else ""

    @property
    def complete(self) -> bool:
        """Whether the delta is known (always, except for entries of a loaded fight not yet replayed)."""
        return self._delta is not None

    def fill(self, operation: Operation, delta: Delta, reminders: tuple[Reminder, ...]) -> None:
        """Complete a pending entry from its replay (called by its source)."""
        self._operation, self._delta, self._reminders = operation, delta, reminders

    def keep_log(self, lines: tuple[LogLine, ...]) -> None:
        """Show ``lines``, the log saved with a replayed fight, instead of what its replay wrote today."""
        self._log = lines

    def text(self) -> str:
        """The log lines in the GM's language, one per line."""
        return "\n".join(line.render() for line in self.log)


@dataclass(frozen=True)
class Prepared:
    """An operation worked out against ``before`` but not yet in the history (see :meth:`History.prepare`)."""

    entry: Entry
    before: Encounter
    after: Encounter


#: A checkpoint: the state after ``position`` entries, or None while a loaded one is not yet decoded.
Checkpoint = tuple[int, Encounter | None]


def checkpoint_gap(combatants: int) -> int:
    """Entries between checkpoints: replaying one segment costs about the same in any fight (~10 ms), but never
    fewer than 16, since each checkpoint keeps its own map of every combatant (~40 KB at 1,000 combatants: at 8,
    a 5,000-operation fight of 1,000 kept 26 MB of them)."""
    return max(16, min(128, 2048 // max(1, combatants)))


class History:
    """The operations applied to an encounter, with undo and redo.

    :meth:`do` is :meth:`prepare` (work the operation out, nothing changes) then :meth:`commit` (record it), so a
    caller can refuse an operation between the two (the app does when its journal cannot record it).

    Every few entries (:func:`checkpoint_gap`) the history remembers the state as a checkpoint (a shared
    reference, nearly free); saved files keep them, so a long fight opens from its last state and replays
    only the segment that undo reaches.
    """

    def __init__(self, initial: Encounter) -> None:
        self.initial = initial
        self.state = initial
        self.system: RuleSystem = get_system(initial.system_id)
        self._done: list[Entry] = []
        self._undone: list[Entry] = []
        self.checkpoints: list[Checkpoint] = [(0, initial)]
        self.source: EntrySource | None = None  # completes the pending entries of a loaded fight
        self._entries: tuple[Entry, ...] | None = ()

    @classmethod
    def resumed(cls, initial: Encounter, state: Encounter, entries: list[Entry],
                checkpoints: list[Checkpoint]) -> History:
        """A loaded fight at ``state`` whose ``entries`` are pending (see :class:`Entry`)."""
        history = cls(initial)
        history.state = state
        history._done = entries
        history.checkpoints = checkpoints
        history._entries = None
        return history

    @property
    def entries(self) -> Sequence[Entry]:
        """Operations currently in effect, oldest first."""
        if self._entries is None:
            self._entries = tuple(self._done)
        return self._entries

    @property
    def redo_entries(self) -> Sequence[Entry]:
        """Undone operations that Redo would bring back, the next one first."""
        return tuple(reversed(self._undone))

    @property
    def redo_count(self) -> int:
        """How many undone operations Redo could bring back."""
        return len(self._undone)

    def step(self, slot: int) -> Entry | None:
        """The entry in ``slot`` of the undo stack (0 the oldest in effect, then the undone ones in redo order)."""
        done = len(self._done)
        if 0 <= slot < done:
            return self._done[slot]
        redo = slot - done
        return self._undone[-1 - redo] if 0 <= redo < len(self._undone) else None

    @property
    def can_undo(self) -> bool:
        """Whether there is an operation to undo."""
        return bool(self._done)

    @property
    def can_redo(self) -> bool:
        """Whether there is an undone operation to redo."""
        return bool(self._undone)

    @property
    def position(self) -> int:
        """How many operations are in effect (the undo stack's index)."""
        return len(self._done)

    @property
    def last_done(self) -> Entry | None:
        """The entry Undo would take back, if any."""
        return self._done[-1] if self._done else None

    @property
    def next_redo(self) -> Entry | None:
        """The entry Redo would bring back, if any."""
        return self._undone[-1] if self._undone else None

    def prepare(self, operation: Operation) -> Prepared:
        """Work out what ``operation`` does to the current state without recording it.

        OperationError when it is not possible; either way nothing changes until :meth:`commit`.
        """
        before = self.state
        applied = operation.apply(before, self.system)
        after = applied.encounter.clock  # group the log by where the fight stands once the change is made
        entry = Entry(operation, diff(before, applied.encounter), applied.log, applied.reminders,
                      after.round, after.pass_no)
        return Prepared(entry, before, applied.encounter)

    def commit(self, prepared: Prepared) -> Entry:
        """Record a prepared operation: it takes effect and the redo stack is cleared."""
        if prepared.before is not self.state:
            raise ValueError("the operation was prepared against another state of the fight")
        self.state = prepared.after
        self._undone.clear()
        self._forget_checkpoints_after(len(self._done))
        self._done.append(prepared.entry)
        self._entries = None
        self._maybe_checkpoint()
        return prepared.entry

    def do(self, operation: Operation) -> Entry:
        """Apply ``operation``; on OperationError nothing changes. Clears the redo stack."""
        return self.commit(self.prepare(operation))

    def _forget_checkpoints_after(self, position: int) -> None:
        while self.checkpoints[-1][0] > position:
            self.checkpoints.pop()

    def _maybe_checkpoint(self) -> None:
        position = len(self._done)
        if position - self.checkpoints[-1][0] >= checkpoint_gap(len(self.state.combatants)):
            self.checkpoints.append((position, self.state))

    def undo(self) -> Entry | None:
        """Undo the last operation and return it (None when there is nothing to undo).

        HistoryDamaged (nothing changed) when a loaded fight's history cannot be replayed back to here.
        """
        if not self._done:
            return None
        entry = self._done[-1]
        self.state = revert(self.state, entry.delta)  # a pending entry is replayed first, and may refuse
        self._done.pop()
        self._undone.append(entry)
        self._entries = None
        return entry

    def redo(self) -> Entry | None:
        """Re-apply the last undone operation exactly as it was (no new dice)."""
        if not self._undone:
            return None
        entry = self._undone.pop()
        self.state = reapply(self.state, entry.delta)
        self._done.append(entry)
        self._entries = None
        return entry

    @classmethod
    def replay(cls, initial: Encounter, operations: Sequence[Operation]) -> History:
        """Rebuild a history by applying ``operations`` to ``initial`` in order."""
        history = cls(initial)
        for operation in operations:
            history.do(operation)
        return history


def new_history(system_id: str, name: str = "") -> History:
    """An empty encounter of a game, with the game's default options."""
    system = get_system(system_id)
    return History(Encounter(system_id, name, options=frozen_map(system.default_options())))
