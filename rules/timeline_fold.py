"""The initiative timeline's data: the events read from the history and their fold into one round's chart.

:mod:`rules.timeline` reads the history into events; :class:`RoundFold` folds one round's events (fed one at
a time, so the round being played is never folded from its start again) and :meth:`RoundFold.result` adds
what is still to come, as things stand now.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from typing import Final

from rules.encounter import Clock, Encounter, SlotKind
from rules.systems.base import RuleSystem
from rules.turns import pass_slots

#: Passes looked ahead at most (a guard against a game that never runs out of passes).
MAX_PASSES: Final[int] = 50

class MarkKind(StrEnum):
    """What a mark on the chart stands for."""

    ACTED = "acted"  # the combatant's turn came here
    SCHEDULED = "scheduled"  # still to come in the round being played, as things stand
    DELAYED = "delayed"  # the turn came here and the action was held
    TAKEN = "taken"  # a held action was taken here
    PLANNED = "planned"  # where the roll had put the turn before the score changed


@dataclass(frozen=True)
class Mark:
    """One combatant at one place of a pass: ``slot`` is the place in the order (a simultaneous group shares
    one), ``phase`` the score the slot was played at (None in games without phase numbers; 0: end of the pass).
    """

    combatant: str
    pass_no: int
    slot: int
    phase: int | None
    kind: MarkKind
    caption: str = ""


@dataclass(frozen=True)
class DelayLink:
    """A held action: where the turn came (``held``) and where the action was taken (``taken``)."""

    held: Mark
    taken: Mark


@dataclass(frozen=True)
class ScoreStep:
    """A score changed within the round (a wound, the GM): ``after`` None means no turn left in that pass.

    ``at_phase`` / ``at_slot`` say where the fight stood when it happened.
    """

    combatant: str
    pass_no: int
    at_phase: int | None
    at_slot: int | None
    before: int
    after: int | None


@dataclass(frozen=True)
class Now:
    """Where the round being played stands: the slot in play and who acts in it."""

    pass_no: int
    slot: int | None
    phase: int | None
    ids: tuple[str, ...]


@dataclass(frozen=True)
class TurnTimeline:
    """One round (an SR3 combat turn) as the chart draws it."""

    round: int
    has_passes: bool
    passes: int
    order: tuple[str, ...]  # the first pass's order when the round began
    roster: tuple[str, ...]  # everyone in the fight during the round, roster order
    names: Mapping[str, str]
    marks: tuple[Mark, ...]
    links: tuple[DelayLink, ...] = ()
    steps: tuple[ScoreStep, ...] = ()
    now: Now | None = None

    @property
    def lanes(self) -> tuple[str, ...]:
        """Rows of the chart: the round's first order, then everyone else in roster order."""
        first = dict.fromkeys(self.order)
        return tuple(first) + tuple(i for i in self.roster if i not in first)

    @property
    def slots(self) -> Mapping[int, int]:
        """How many places each pass's order has (played and to come)."""
        count: dict[int, int] = {}
        for mark in self.marks:
            if mark.kind is not MarkKind.PLANNED:
                count[mark.pass_no] = max(count.get(mark.pass_no, 0), mark.slot + 1)
        return count

    def phases(self, combatant: str, *kinds: MarkKind) -> list[tuple[int, int | None]]:
        """(pass, phase) of a combatant's marks of these kinds (all turn marks when none given), pass order."""
        wanted = set(kinds) or {MarkKind.ACTED, MarkKind.SCHEDULED, MarkKind.DELAYED}
        return sorted((m.pass_no, m.phase) for m in self.marks if m.combatant == combatant and m.kind in wanted)


# --- events read from the history ----------------------------------------------------------------


@dataclass(frozen=True)
class RoundStarted:
    """A round began: the first pass's order, who is in the fight, each pass's phase as rolled."""

    round: int
    order: tuple[str, ...]
    roster: tuple[str, ...]
    planned: Mapping[tuple[str, int], int]


@dataclass(frozen=True)
class Entered:
    """A slot of the order came: ``delayed`` for a held action taken (``held_in``: the pass it was held in)."""

    round: int
    pass_no: int
    delayed: bool
    ids: tuple[str, ...]
    phase: int | None
    caption: str
    held_in: Mapping[str, int]


@dataclass(frozen=True)
class Held:
    """A combatant held (delayed) the action of its turn in ``pass_no``."""

    round: int
    pass_no: int
    combatant: str


@dataclass(frozen=True)
class ScoreChanged:
    """A combatant's phase in the current pass changed within the round (None: no turn left in it)."""

    round: int
    pass_no: int
    combatant: str
    at_phase: int | None
    before: int
    after: int | None


Event = RoundStarted | Entered | Held | ScoreChanged


# --- folding one round --------------------------------------------------------------------------------


@dataclass
class _Turn:
    seq: int
    phase: int | None
    caption: str
    held: bool = False


@dataclass
class _Taken:
    seq: int
    phase: int | None
    caption: str
    held_in: int


@dataclass
class RoundFold:
    """One round's events folded so far (mutable: the timeline feeds it each new event)."""

    round: int
    start: RoundStarted | None = None
    turns: dict[tuple[int, str], _Turn] = field(default_factory=dict)
    taken: dict[tuple[int, str], _Taken] = field(default_factory=dict)
    next_seq: dict[int, int] = field(default_factory=dict)
    steps: list[tuple[ScoreChanged, int | None]] = field(default_factory=list)

    def feed(self, event: Event) -> None:
        """Take one more event of this round into account."""
        if isinstance(event, RoundStarted):
            self.start = event
        elif isinstance(event, Entered):
            self._enter(event)
        elif isinstance(event, Held):
            self._held(event)
        else:
            self.steps.append((event, self.next_seq.get(event.pass_no, 0) - 1))

    def _held(self, event: Held) -> None:
        """An action held in its turn; or a held action that came up and was moved on into the next pass (SR3):
        held there, not taken."""
        key = (event.pass_no, event.combatant)
        moved_on = self.taken.pop(key, None)
        if moved_on is not None and key not in self.turns:
            self.turns[key] = _Turn(moved_on.seq, moved_on.phase, moved_on.caption)
        turn = self.turns.get(key)
        if turn is not None:
            turn.held = True

    def _enter(self, event: Entered) -> None:
        # A later entry overwrites an earlier one: who yielded to a tie or was interrupted acts where it
        # finally acts, so the order on the chart is the order things happened in.
        seq = self.next_seq.get(event.pass_no, 0)
        self.next_seq[event.pass_no] = seq + 1
        for combatant in event.ids:
            key = (event.pass_no, combatant)
            if event.delayed:
                self.taken[key] = _Taken(seq, event.phase, event.caption, event.held_in.get(combatant, event.pass_no))
            else:
                self.turns[key] = _Turn(seq, event.phase, event.caption)

    def result(self, passes: bool, names: Mapping[str, str], live: Encounter | None, system: RuleSystem,
               projection: Projection) -> TurnTimeline:
        """The round as the chart draws it; ``live`` is the current state when this round is being played."""
        places = self._places()
        marks, links = self._played(places, passes)
        if live is not None:
            pass_no = live.clock.pass_no
            marks += _not_yet_played(projection.marks(live, system, passes), self.turns, live.clock.acted,
                                     pass_no, len(places.get(pass_no, {})))
        marks += self._planned(marks)
        start = self.start
        roster = dict.fromkeys(start.roster if start is not None else ())
        roster.update(dict.fromkeys(mark.combatant for mark in marks))
        return TurnTimeline(
            self.round, passes, max((mark.pass_no for mark in marks), default=1),
            start.order if start is not None else (), tuple(roster),
            {i: names.get(i, i) for i in roster}, tuple(marks), tuple(links), self._steps(places),
            _now(live, places, self.next_seq) if live is not None else None)

    def _places(self) -> dict[int, dict[int, int]]:
        """Per pass, each entered slot's place in the order, counting only slots someone is still shown in."""
        used: dict[int, set[int]] = {}
        for (pass_no, _combatant), turn in self.turns.items():
            used.setdefault(pass_no, set()).add(turn.seq)
        for (pass_no, _combatant), taken in self.taken.items():
            used.setdefault(pass_no, set()).add(taken.seq)
        return {pass_no: {seq: place for place, seq in enumerate(sorted(seqs))} for pass_no, seqs in used.items()}

    def _played(self, places: dict[int, dict[int, int]], passes: bool) -> tuple[list[Mark], list[DelayLink]]:
        marks: dict[tuple[int, str], Mark] = {}
        for (pass_no, combatant), turn in self.turns.items():
            kind = MarkKind.DELAYED if turn.held else MarkKind.ACTED
            marks[(pass_no, combatant)] = Mark(combatant, pass_no, places[pass_no][turn.seq], turn.phase, kind,
                                               turn.caption)
        links: list[DelayLink] = []
        taken_marks: list[Mark] = []
        for (pass_no, combatant), taken in self.taken.items():
            phase = 0 if passes and taken.phase is None else taken.phase  # no phase: the end of the pass
            mark = Mark(combatant, pass_no, places[pass_no][taken.seq], phase, MarkKind.TAKEN, taken.caption)
            taken_marks.append(mark)
            held = marks.get((taken.held_in, combatant))
            if held is not None:
                links.append(DelayLink(held, mark))
        return list(marks.values()) + taken_marks, links

    def _planned(self, marks: list[Mark]) -> list[Mark]:
        """Ghosts where the roll had put a turn that a changed score moved or took away."""
        if self.start is None or not self.start.planned:
            return []
        kinds = (MarkKind.ACTED, MarkKind.DELAYED, MarkKind.SCHEDULED)
        actual = {(m.combatant, m.pass_no): m for m in marks if m.kind in kinds}
        ghosts = []
        for (combatant, pass_no), phase in self.start.planned.items():
            mark = actual.get((combatant, pass_no))
            if mark is None or mark.phase != phase:
                slot = mark.slot if mark is not None else 0
                ghosts.append(Mark(combatant, pass_no, slot, phase, MarkKind.PLANNED))
        return ghosts

    def _steps(self, places: dict[int, dict[int, int]]) -> tuple[ScoreStep, ...]:
        steps = []
        for event, seq in self.steps:
            at_slot = _place_at(places.get(event.pass_no, {}), seq)
            steps.append(ScoreStep(event.combatant, event.pass_no, event.at_phase, at_slot, event.before,
                                   event.after))
        return tuple(steps)


def _place_at(places: Mapping[int, int], seq: int | None) -> int | None:
    """The place of the slot with ``seq``, or of the nearest earlier slot still shown.

    ``places`` maps sequence numbers in ascending order to 0, 1, 2…, so a place is a position in its keys.
    """
    if seq is None or seq < 0:
        return None
    place = bisect_right(list(places), seq) - 1
    return place if place >= 0 else None


#: Clock fields a remembered projection follows by itself: whoever has acted is filtered out of it, and the
#: current slot is the head of what is left.
_FOLLOWED_CLOCK: Final[frozenset[str]] = frozenset({"acted", "current"})
_STATE_FIELDS: Final[tuple[str, ...]] = tuple(spec.name for spec in fields(Encounter) if spec.name != "clock")
_CLOCK_FIELDS: Final[tuple[str, ...]] = tuple(spec.name for spec in fields(Clock) if spec.name not in _FOLLOWED_CLOCK)


def projection_key(state: Encounter) -> tuple[object, ...]:
    """Everything the order still to come may depend on: every field of the encounter (a game's own state
    included) and of its clock but those a projection follows by itself.

    Derived from the dataclasses, so a field added later can never be left out.
    """
    return (*(getattr(state, name) for name in _STATE_FIELDS), *(getattr(state.clock, name) for name in _CLOCK_FIELDS))


class Projection:
    """What is still to come in the round being played, as things stand.

    Asking the game for the rest of the order costs a sort of everyone, so it is asked again only when
    something it depends on changed; a Next only marks someone as having acted, and whoever has acted is
    filtered out of the remembered order (taking people out of a sorted order leaves it sorted). Undoing a
    Next gives someone their turn back, and the remembered order lacks them: it is asked again then.
    """

    def __init__(self) -> None:
        self._key: tuple[object, ...] = ()
        self._acted: frozenset[str] = frozenset()  # who had acted when the order was asked
        self._marks: list[Mark] = []

    def marks(self, state: Encounter, system: RuleSystem, passes: bool) -> list[Mark]:
        """Scheduled marks: the rest of the current pass in order (its slots numbered from 0), later passes."""
        clock = state.clock
        key = projection_key(state)
        if len(key) != len(self._key) or not self._acted <= clock.acted or not all(
                new is old or (not isinstance(new, Mapping) and new == old) for new, old in zip(key, self._key,
                                                                                              strict=True)):
            self._key, self._acted = key, clock.acted
            self._marks = _still_to_come(state, system) + (_later_passes(state, system) if passes else [])
        return self._marks


def _still_to_come(state: Encounter, system: RuleSystem) -> list[Mark]:
    pass_no = state.clock.pass_no
    marks: list[Mark] = []
    # pass_slots: the state's order, worked out once for the turn engine, the table and the chart alike
    for place, slot in enumerate(s for s in pass_slots(state, system) if s.kind is SlotKind.ACTORS):
        caption = system.slot_caption(slot, state)
        marks += [Mark(i, pass_no, place, slot.phase, MarkKind.SCHEDULED, caption) for i in slot.ids]
    return marks


def _not_yet_played(projected: list[Mark], turns: Mapping[tuple[int, str], _Turn], acted: frozenset[str],
                    pass_no: int, first_place: int) -> list[Mark]:
    """Projected marks of those whose turn has not come, the current pass's places following the played ones.

    Whoever has acted in this pass is left out even without a turn of their own in it: a delay carried into the
    pass and taken there is that pass's action (SR3), and the remembered projection still holds their own slot.
    """
    kept: list[Mark] = []
    place, last = first_place - 1, -1
    for mark in projected:
        if (mark.pass_no, mark.combatant) in turns or (mark.pass_no == pass_no and mark.combatant in acted):
            continue
        if mark.pass_no != pass_no:
            kept.append(mark)
            continue
        if mark.slot != last:
            place, last = place + 1, mark.slot
        kept.append(replace(mark, slot=place))
    return kept


def _later_passes(state: Encounter, system: RuleSystem) -> list[Mark]:
    by_pass: dict[int, list[tuple[int, str]]] = {}
    able = [c for c in state.combatants.values() if system.can_act(c, state)]
    for pass_no in range(state.clock.pass_no + 1, state.clock.pass_no + 1 + MAX_PASSES):
        phases = [(phase, c.id) for c in able if (phase := system.pass_phase(c, state, pass_no)) is not None]
        if not phases:
            break
        by_pass[pass_no] = sorted(phases, key=lambda item: -item[0])
    return [Mark(combatant, pass_no, place, phase, MarkKind.SCHEDULED)
            for pass_no, phases in by_pass.items() for place, (phase, combatant) in enumerate(phases)]


def _now(state: Encounter, places: Mapping[int, Mapping[int, int]], next_seq: Mapping[int, int]) -> Now | None:
    clock = state.clock
    slot = clock.current
    if slot is None:
        return None
    if slot.kind is SlotKind.TIMER:
        return Now(clock.pass_no, None, slot.phase, ())
    place = _place_at(places.get(clock.pass_no, {}), next_seq.get(clock.pass_no, 0) - 1)
    return Now(clock.pass_no, place, slot.phase, slot.ids)
