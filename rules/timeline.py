"""The initiative timeline: who acted where in every round and pass, read from the history.

The history is the source of truth. :class:`Timeline` walks its entries once, turning each step from one
state to the next into a few small events (a round began, a slot of the order was entered, an action was
held, a score changed), and afterwards reads only the entries added since (undo forgets the events of the
entries it took back). :meth:`Timeline.turn` folds one round's events into a :class:`TurnTimeline`: a mark
per combatant and pass where its turn came, where a held action was taken, where the roll had put it before
a wound moved it, and, for the round being played, where it will act as things stand now.

Nothing here knows the game: phases come from :meth:`RuleSystem.pass_phase`, the order still to come from
:meth:`RuleSystem.remaining_slots`, slot labels from :meth:`RuleSystem.slot_caption`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from itertools import pairwise

from rules.encounter import Clock, Combatant, Encounter, SlotKind
from rules.errors import RulesError
from rules.history import Batch, Entry, History, Operation, reapply, revert
from rules.systems.base import RuleSystem
from rules.timeline_fold import (
    MAX_PASSES,
    DelayLink,
    Entered,
    Event,
    Held,
    Mark,
    MarkKind,
    Now,
    Projection,
    RoundFold,
    RoundStarted,
    ScoreChanged,
    ScoreStep,
    TurnTimeline,
)

__all__ = ["DelayLink", "Mark", "MarkKind", "Now", "ScoreStep", "Timeline", "TurnTimeline", "has_passes"]

# --- reading the history --------------------------------------------------------------------------


def has_passes(system: RuleSystem) -> bool:
    """Whether the game's rounds are split into passes, as its :meth:`RuleSystem.time_units` say."""
    return system.time_units().has_passes


def _batch_states(operation: Operation, before: Encounter, system: RuleSystem) -> list[Encounter]:
    """The states a batch walked through between its operations (none for a plain operation).

    Operations carry their dice, so applying them again gives the same states; if that ever failed, the
    batch is read as one step from its first state to its last.
    """
    if not isinstance(operation, Batch):
        return []
    states: list[Encounter] = []
    state = before
    try:
        for inner in operation.operations[:-1]:
            state = inner.apply(state, system).encounter
            states.append(state)
    except RulesError:
        return []
    return states


def round_started(after: Encounter, system: RuleSystem) -> RoundStarted:
    """The first pass's order and every pass's planned phase, as the round begins."""
    order: list[str] = []
    for slot in system.remaining_slots(after):
        if slot.kind is SlotKind.ACTORS:
            order.extend(i for i in slot.ids if i not in order)
    planned: dict[tuple[str, int], int] = {}
    if has_passes(system):
        for combatant in after.combatants.values():
            if system.can_act(combatant, after):
                for pass_no, phase in _phases_from(combatant.id, after, system, 1):
                    planned[(combatant.id, pass_no)] = phase
    return RoundStarted(after.clock.round, tuple(order), tuple(after.combatants), planned)


def _phases_from(combatant_id: str, state: Encounter, system: RuleSystem, first: int) -> Iterator[tuple[int, int]]:
    """(pass, phase) of every pass from ``first`` on in which the combatant acts, as things stand."""
    combatant = state.combatants[combatant_id]
    for pass_no in range(first, first + MAX_PASSES):
        phase = system.pass_phase(combatant, state, pass_no)
        if phase is None:
            return
        yield pass_no, phase


def events_between(before: Encounter, after: Encounter, system: RuleSystem) -> list[Event]:
    """What one operation did to the timeline: round start, score changes, held actions, a slot entered."""
    old, new = before.clock, after.clock
    if new.pass_no > 0 and (new.round != old.round or old.pass_no == 0):
        events: list[Event] = [round_started(after, system)]
    else:
        events = _score_changes(before, after, system)
    events += _held(before, after)
    entered = _entered(before, after, system)
    return events + ([entered] if entered is not None else [])


def _score_changes(before: Encounter, after: Encounter, system: RuleSystem) -> list[Event]:
    clock = after.clock
    if before.combatants is after.combatants or clock.pass_no == 0 or before.clock.round != clock.round:
        return []
    at = before.clock.current.phase if before.clock.current is not None else None
    events: list[Event] = []
    for combatant_id, combatant in after.combatants.items():
        old = before.combatants.get(combatant_id)
        if old is None or old is combatant:
            continue
        was = _phase(old, before, system, clock.pass_no)
        now = _phase(combatant, after, system, clock.pass_no)
        if was is not None and was != now:
            events.append(ScoreChanged(clock.round, clock.pass_no, combatant_id, at, was, now))
    return events


def _phase(combatant: Combatant, state: Encounter, system: RuleSystem, pass_no: int) -> int | None:
    """The combatant's phase in ``pass_no``, None when it has none (or cannot act any more).

    Both sides of a step are read for the same pass: a step that also ends a pass is not a score change.
    """
    if not system.can_act(combatant, state):
        return None
    return system.pass_phase(combatant, state, pass_no)


def _held(before: Encounter, after: Encounter) -> list[Event]:
    if before.delays is after.delays:
        return []
    return [Held(delay.round, delay.pass_no, combatant_id) for combatant_id, delay in after.delays.items()
            if before.delays.get(combatant_id) != delay]


def _entered(before: Encounter, after: Encounter, system: RuleSystem) -> Entered | None:
    """The slot the operation entered, if it entered a new one (not the same slot with someone gone)."""
    slot, previous = after.clock.current, before.clock.current
    if slot is None or slot.kind is SlotKind.TIMER or after.clock.pass_no == 0:
        return None
    same_time = (before.clock.round, before.clock.pass_no) == (after.clock.round, after.clock.pass_no)
    if (same_time and previous is not None and previous.kind is slot.kind and previous.phase == slot.phase
            and set(slot.ids) <= set(previous.ids)):
        return None
    held_in = {i: before.delays[i].pass_no for i in slot.ids if i in before.delays}
    return Entered(after.clock.round, after.clock.pass_no, slot.kind is SlotKind.DELAYED, slot.ids, slot.phase,
                   system.slot_caption(slot, after), held_in)


# --- the timeline -------------------------------------------------------------------------------


@dataclass
class _Recorded:
    """Events read so far, each with the index of the history entry that caused it."""

    events: list[tuple[int, Event]] = field(default_factory=list)
    round_first: dict[int, int] = field(default_factory=dict)  # round → index of its first event
    names: dict[str, str] = field(default_factory=dict)

    def add(self, entry_index: int, event: Event) -> None:
        if isinstance(event, RoundStarted):
            self.round_first[event.round] = len(self.events)
        self.events.append((entry_index, event))

    def forget_from(self, entry_index: int) -> None:
        """Drop the events of entries ``entry_index`` and later (they were undone)."""
        while self.events and self.events[-1][0] >= entry_index:
            self.events.pop()
        for round_no in [r for r, first in self.round_first.items() if first >= len(self.events)]:
            del self.round_first[round_no]

    def of_round(self, round_no: int) -> Sequence[tuple[int, Event]]:
        first = self.round_first[round_no]
        later = [start for r, start in self.round_first.items() if r > round_no]
        return self.events[first:min(later, default=len(self.events))]


class Timeline:
    """The initiative timeline of one history, kept up to date by :meth:`sync` (cheap after each operation)."""

    def __init__(self, history: History) -> None:
        self.history = history
        self.system = history.system
        self._seen: list[Entry] = []
        self._state: Encounter = history.initial
        self._recorded = _Recorded()
        self._folds: dict[int, tuple[int, RoundFold]] = {}
        self._projection = Projection()
        if history.initial.clock.pass_no > 0:  # a history that starts mid-round: that round began before it
            for event in events_between(replace(history.initial, clock=Clock()), history.initial, self.system):
                self._recorded.add(-1, event)

    @property
    def rounds(self) -> tuple[int, ...]:
        """Rounds that have begun, oldest first."""
        return tuple(self._recorded.round_first)

    def sync(self) -> None:
        """Catch up with the history: forget undone entries, read new ones."""
        entries = self.history.entries
        keep = self._common_prefix(entries)
        if keep < len(self._seen):
            self._recorded.forget_from(keep)
            self._forget_folds()
            del self._seen[keep:]
            self._state = self._state_after(entries, keep)
        for index in range(keep, len(entries)):
            self._read(index, entries[index], index == len(entries) - 1)

    def _common_prefix(self, entries: Sequence[Entry]) -> int:
        seen = self._seen
        length = min(len(seen), len(entries))
        if length and entries[length - 1] is seen[length - 1]:
            return length  # the usual case: nothing undone, maybe something new
        while length and entries[length - 1] is not seen[length - 1]:
            length -= 1
        return length

    def _forget_folds(self) -> None:
        """Folds of rounds that lost events must be folded again (a redo may bring as many new events)."""
        for round_no, (count, _fold) in list(self._folds.items()):
            if round_no not in self._recorded.round_first or count > len(self._recorded.of_round(round_no)):
                del self._folds[round_no]

    def _state_after(self, entries: Sequence[Entry], count: int) -> Encounter:
        """The state once the first ``count`` entries were applied, walked back from the current state."""
        state = self.history.state
        for entry in reversed(entries[count:]):
            state = revert(state, entry.delta)
        return state

    def _read(self, index: int, entry: Entry, last: bool) -> None:
        before = self._state
        after = self.history.state if last else reapply(before, entry.delta)
        states = [before, *_batch_states(entry.operation, before, self.system), after]
        for old, new in pairwise(states):
            for event in events_between(old, new, self.system):
                self._recorded.add(index, event)
        self._remember_names(before, after)
        self._seen.append(entry)
        self._state = after

    def _remember_names(self, before: Encounter, after: Encounter) -> None:
        """Names outlive removal: a combatant taken out of the fight still labels its row in old rounds."""
        if before.combatants is after.combatants and self._recorded.names:
            return
        names = self._recorded.names
        for combatant_id, combatant in after.combatants.items():
            if before.combatants.get(combatant_id) is not combatant or combatant_id not in names:
                names[combatant_id] = combatant.name

    def turn(self, round_no: int) -> TurnTimeline:
        """The chart of one round; the round being played also shows what is still to come."""
        fold = self._fold(round_no)
        state = self.history.state
        live = state.clock.round == round_no and state.clock.pass_no > 0
        return fold.result(has_passes(self.system), dict(self._recorded.names),
                           state if live else None, self.system, self._projection)

    def latest(self) -> TurnTimeline | None:
        """The most recent round, or None before the first initiative roll."""
        rounds = self.rounds
        return self.turn(rounds[-1]) if rounds else None

    def _fold(self, round_no: int) -> RoundFold:
        """The round's events folded; the cached fold is fed only the events added since (undo refolds)."""
        events = self._recorded.of_round(round_no)
        cached = self._folds.get(round_no)
        if cached is None or cached[0] > len(events):
            cached = (0, RoundFold(round_no))
        count, fold = cached
        for _index, event in events[count:]:
            fold.feed(event)
        self._folds[round_no] = (len(events), fold)
        return fold
