"""Summary rows for the printed encounter summary and the prep sheet, derived from the history alone.

The history is walked step by step (a batch's operations one at a time, re-applied to the state before them,
so that an attack inside a batch is credited like any other): each step's state before and after gives the
harm taken on every condition track, whom to credit it to (:meth:`Operation.attacker_id`), who fell and
when, and how unlikely a roll's outcome was (:meth:`RuleSystem.outcome_probability`). Conditions are read
through the game's own ``tracks``/``status``/``condition_notes``, so nothing here knows which game it is.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Final

from rules.encounter import SIDE_LABELS, STATUS_LABELS, Combatant, Encounter, Side, SlotKind, Status, Weapon, frozen_map
from rules.history import Batch, Entry, History, LogLine, Operation, reapply
from rules.systems.base import RuleSystem
from rules.text import _
from rules.time_units import ROUNDS, TimeUnits
from rules.weapons import MAGAZINE, uses_rounds

#: Outcomes at most this likely (at least as extreme, see RuleSystem.outcome_probability) are notable.
NOTABLE_AT_MOST: Final[float] = 0.25
#: The summary lists at most this many notable moments, the least likely first.
NOTABLE_COUNT: Final[int] = 5
#: Worse statuses rank higher: a fall is a change to a higher rank.
STATUS_RANK: Final[Mapping[Status, int]] = {Status.ACTIVE: 0, Status.UNCONSCIOUS: 1, Status.DYING: 2,
                                            Status.DEAD: 3}


# --- texts shared with the window -----------------------------------------------------------------


def heading_text(round_number: int, pass_no: int, units: TimeUnits = ROUNDS) -> str:
    """The heading of a moment of the fight, as the combat log and the summary group it (the pass only in a
    game whose ``units`` have passes)."""
    if round_number == 0:
        return _("Before the fight")
    if pass_no == 0:
        return _("Round {round} · between rounds").format(round=round_number)
    if units.passes is None:
        return _("Round {round}").format(round=round_number)
    return _(units.passes.heading).format(round=round_number, pass_no=pass_no)


def pool_label(key: str) -> str:
    """A pool's name as shown (the games name pools by plain words such as ``combat``)."""
    return _(key.replace("_", " "))


def side_label(side: Side) -> str:
    """A side's name in the GM's language."""
    return _(SIDE_LABELS[side])


# --- conditions -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class TrackReading:
    """One condition track as it stands: ``marked`` of ``size`` (``label`` is the English source)."""

    key: str
    label: str
    marked: int
    size: int
    kind: str = "boxes"

    def text(self) -> str:
        """E.g. ``Physical 6/10`` in the GM's language."""
        return _("{track} {marked}/{size}").format(track=_(self.label), marked=self.marked, size=self.size)


@dataclass(frozen=True)
class Condition:
    """A combatant's condition as the game describes it: its tracks, status and notes (translated)."""

    tracks: tuple[TrackReading, ...]
    status: Status
    notes: tuple[str, ...] = ()

    @property
    def hurt(self) -> bool:
        """Whether any track is marked."""
        return any(track.marked for track in self.tracks)

    def text(self, every_track: bool = False) -> str:
        """``Physical 6/10 · Dying``; only marked tracks unless ``every_track`` ("Unhurt" when none is)."""
        return condition_text(self.tracks, self.status, every_track)


def track_readings(system: RuleSystem, combatant: Combatant, encounter: Encounter) -> tuple[TrackReading, ...]:
    """The combatant's condition tracks as they stand."""
    return tuple(TrackReading(spec.key, spec.label, combatant.boxes(spec.key), spec.size, spec.kind)
                 for spec in system.tracks(combatant, encounter))


def condition_text(tracks: Sequence[TrackReading], status: Status, every_track: bool = False) -> str:
    """``Physical 6/10 · Stun 0/10 · Dying`` (only marked tracks unless ``every_track``; "Unhurt" if none)."""
    parts = [track.text() for track in tracks if every_track or track.marked]
    if status is not Status.ACTIVE:
        parts.append(_(STATUS_LABELS[status]))
    return " · ".join(parts) if parts else _("Unhurt")


def condition_of(system: RuleSystem, combatant: Combatant, encounter: Encounter) -> Condition:
    """Read ``combatant``'s condition through the game's own tracks, status and notes."""
    return Condition(track_readings(system, combatant, encounter), system.status(combatant, encounter),
                     tuple(system.condition_notes(combatant, encounter)))


# --- walking the history ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One operation as it happened: the states around it and the lines it logged."""

    operation: Operation
    before: Encounter
    after: Encounter
    log: tuple[LogLine, ...]


def steps(history: History) -> Iterator[Step]:
    """Every operation in effect, oldest first, with a batch opened up into its own operations."""
    state = history.initial
    for entry in history.entries:
        after = reapply(state, entry.delta)
        if isinstance(entry.operation, Batch):
            yield from _batch_steps(entry.operation, state, history.system)
        else:
            yield Step(entry.operation, state, after, entry.log)
        state = after


def _batch_steps(batch: Batch, before: Encounter, system: RuleSystem) -> Generator[Step, None, Encounter]:
    """The batch's operations one by one; returns the state after the last."""
    state = before
    for operation in batch.operations:
        if isinstance(operation, Batch):
            state = yield from _batch_steps(operation, state, system)
            continue
        applied = operation.apply(state, system)  # it applied once, so it applies again exactly
        yield Step(operation, state, applied.encounter, applied.log)
        state = applied.encounter
    return state


# --- the summary ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Fall:
    """A combatant's status got worse: when, to what, and by whose hand (None: nobody's in particular).

    ``recovered``: (round, pass) when it was back in the fight afterwards (a Chance spent, healed, woken up), or
    None while it stayed down.
    """

    round: int
    pass_no: int
    status: Status
    by: str | None = None
    units: TimeUnits = field(default=ROUNDS, compare=False)  # the game's words for when it happened
    recovered: tuple[int, int] | None = None

    def text(self) -> str:
        """E.g. ``Dying (round 1 · initiative pass 2, by Mike)``, and when the combatant got back up."""
        when = heading_text(self.round, self.pass_no, self.units)
        if self.by:
            fell = _("{status} ({when}, by {name})").format(status=_(STATUS_LABELS[self.status]), when=when,
                                                            name=self.by)
        else:
            fell = _("{status} ({when})").format(status=_(STATUS_LABELS[self.status]), when=when)
        if self.recovered is None:
            return fell
        return _("{fall}; back in the fight ({when})").format(
            fall=fell, when=heading_text(*self.recovered, self.units))


@dataclass(frozen=True)
class Participant:
    """One combatant's part in the fight (harm is keyed by the tracks' English labels)."""

    id: str
    name: str
    side: Side
    start: Condition
    end: Condition
    dealt: Mapping[str, int] = field(default_factory=frozen_map)
    taken: Mapping[str, int] = field(default_factory=frozen_map)
    falls: tuple[Fall, ...] = ()
    left: bool = False  # removed from the encounter before its end


@dataclass(frozen=True)
class Moment:
    """An unlikely outcome that happened: when, its log lines, and P(an outcome at least this extreme)."""

    round: int
    pass_no: int
    probability: float
    log: tuple[LogLine, ...]


@dataclass(frozen=True)
class LogGroup:
    """The log lines of one moment of the fight (a round's pass), one tuple per history entry."""

    round: int
    pass_no: int
    entries: tuple[tuple[LogLine, ...], ...]
    units: TimeUnits = field(default=ROUNDS, compare=False)  # the game's words for the heading

    def heading(self) -> str:
        """The group's heading in the GM's language."""
        return heading_text(self.round, self.pass_no, self.units)


@dataclass(frozen=True)
class Summary:
    """Everything the printed summary shows, in the order it shows it."""

    name: str
    system_id: str
    rounds: int
    passes: int
    turns: int
    participants: tuple[Participant, ...]
    moments: tuple[Moment, ...]
    log: tuple[LogGroup, ...]
    notes: str
    units: TimeUnits = ROUNDS  # the game's words for its rounds and passes


def moment_key(entry: Entry) -> tuple[int, int]:
    """(round, pass) an entry is logged under: entries with the same key share one log heading."""
    return entry.round, entry.pass_no


def log_groups(entries: Sequence[Entry], units: TimeUnits = ROUNDS) -> tuple[LogGroup, ...]:
    """The combat log grouped under "Round n · pass p" headings (``units``: the game's), as the log panel shows it."""
    groups: list[LogGroup] = []
    for entry in entries:
        if not entry.log:
            continue
        if groups and (groups[-1].round, groups[-1].pass_no) == moment_key(entry):
            last = groups[-1]
            groups[-1] = LogGroup(last.round, last.pass_no, (*last.entries, entry.log), units)
        else:
            groups.append(LogGroup(*moment_key(entry), (entry.log,), units))
    return tuple(groups)


class _Tally:
    """What the walk gathers, per combatant id."""

    def __init__(self) -> None:
        self.last: dict[str, tuple[Combatant, Encounter]] = {}
        self.start: dict[str, Condition] = {}
        self.dealt: dict[str, dict[str, int]] = {}
        self.taken: dict[str, dict[str, int]] = {}
        self.falls: dict[str, list[Fall]] = {}
        self.moments: list[Moment] = []
        self.passes: set[tuple[int, int]] = set()
        self.turns = 0
        self.rounds = 0

    def add(self, book: dict[str, dict[str, int]], combatant_id: str, track: str, amount: int) -> None:
        row = book.setdefault(combatant_id, {})
        row[track] = row.get(track, 0) + amount


def summarize(history: History) -> Summary:
    """The summary of the fight ``history`` records."""
    system, tally = history.system, _Tally()
    started = False
    for step in steps(history):
        if not started and step.after.clock.started:
            started = True
            _note_start(tally, system, step.before)
        _note_presence(tally, system, step.after, started)
        if started:
            _note_step(tally, system, step)
    final = history.state
    if not started:
        _note_start(tally, system, final)
    _note_presence(tally, system, final, started)
    units = system.time_units()
    return Summary(final.name, final.system_id, tally.rounds, len(tally.passes), tally.turns,
                   _participants(tally, system, final), _notable(tally.moments),
                   log_groups(history.entries, units), final.notes, units)


def _note_start(tally: _Tally, system: RuleSystem, state: Encounter) -> None:
    for combatant in state.combatants.values():
        tally.start.setdefault(combatant.id, condition_of(system, combatant, state))


def _note_presence(tally: _Tally, system: RuleSystem, state: Encounter, started: bool) -> None:
    """Remember everyone's latest self; someone joining a running fight starts as they join."""
    for combatant in state.combatants.values():
        tally.last[combatant.id] = (combatant, state)
        if started and combatant.id not in tally.start:
            tally.start[combatant.id] = condition_of(system, combatant, state)


def _note_step(tally: _Tally, system: RuleSystem, step: Step) -> None:
    clock = step.after.clock
    tally.rounds = max(tally.rounds, clock.round)
    if clock.pass_no:
        tally.passes.add((clock.round, clock.pass_no))
    if _new_turn(step):
        tally.turns += 1
    attacker = step.operation.attacker_id()
    for combatant_id, before in step.before.combatants.items():
        after = step.after.combatants.get(combatant_id)
        if after is not None and after is not before:
            _note_harm(tally, system, step, before, after, attacker)
    _note_moment(tally, system, step)


def _new_turn(step: Step) -> bool:
    """A combatant (or a group, or a delayed action) got the current slot."""
    old, new = step.before.clock, step.after.clock
    if new.current is None or new.current.kind is SlotKind.TIMER:
        return False
    return (old.round, old.pass_no, old.current) != (new.round, new.pass_no, new.current)


def _note_harm(tally: _Tally, system: RuleSystem, step: Step, before: Combatant, after: Combatant,
               attacker: str | None) -> None:
    credit = attacker if attacker in step.before.combatants and attacker != before.id else None
    for spec in system.tracks(after, step.after):
        amount = after.boxes(spec.key) - before.boxes(spec.key)
        if amount > 0:
            tally.add(tally.taken, before.id, spec.label, amount)
            if credit is not None:
                tally.add(tally.dealt, credit, spec.label, amount)
    old, new = system.status(before, step.before), system.status(after, step.after)
    clock = step.after.clock
    if STATUS_RANK[new] > STATUS_RANK[old]:
        by = step.before.combatants[credit].name if credit is not None else None
        tally.falls.setdefault(before.id, []).append(Fall(clock.round, clock.pass_no, new, by, system.time_units()))
    elif new is Status.ACTIVE and old is not Status.ACTIVE:
        _note_recovery(tally, before.id, (clock.round, clock.pass_no))


def _note_recovery(tally: _Tally, combatant_id: str, when: tuple[int, int]) -> None:
    """The combatant is back in the fight: every fall it had not got up from ends now."""
    falls = tally.falls.get(combatant_id, [])
    falls[:] = [fall if fall.recovered is not None else replace(fall, recovered=when) for fall in falls]


def _note_moment(tally: _Tally, system: RuleSystem, step: Step) -> None:
    probability = system.outcome_probability(step.operation, step.before)
    if probability is not None and probability <= NOTABLE_AT_MOST:
        clock = step.after.clock
        tally.moments.append(Moment(clock.round, clock.pass_no, probability, step.log))


def _notable(moments: list[Moment]) -> tuple[Moment, ...]:
    """The least likely moments, then shown in the order they happened."""
    chosen = sorted(range(len(moments)), key=lambda index: (moments[index].probability, index))[:NOTABLE_COUNT]
    return tuple(moments[index] for index in sorted(chosen))


def _participants(tally: _Tally, system: RuleSystem, final: Encounter) -> tuple[Participant, ...]:
    sides = {side: rank for rank, side in enumerate(system.default_side_order())}
    joined = {cid: rank for rank, cid in enumerate(tally.start)}
    ids = sorted(joined, key=lambda cid: (sides.get(tally.last[cid][0].side, len(sides)), joined[cid]))
    return tuple(_participant(tally, system, final, cid) for cid in ids)


def _participant(tally: _Tally, system: RuleSystem, final: Encounter, combatant_id: str) -> Participant:
    combatant, state = tally.last[combatant_id]
    end = condition_of(system, combatant, state)
    if end.status is Status.ACTIVE:  # the final condition decides (a change of option may have stood it up)
        _note_recovery(tally, combatant_id, (state.clock.round, state.clock.pass_no))
    return Participant(combatant.id, combatant.name, combatant.side, tally.start[combatant_id],
                       end, frozen_map(tally.dealt.get(combatant_id, {})),
                       frozen_map(tally.taken.get(combatant_id, {})), tuple(tally.falls.get(combatant_id, ())),
                       combatant_id not in final.combatants)


def harm_text(harm: Mapping[str, int]) -> str:
    """``Physical 6 · Stun 3`` in the GM's language; an en dash when there is none."""
    if not harm:
        return "–"
    return " · ".join(_("{track} {amount}").format(track=_(label), amount=amount) for label, amount in harm.items())


# --- the prep sheet ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Stat:
    """One number of a stat line (``label`` and ``abbreviation`` are English sources)."""

    label: str
    abbreviation: str
    value: int

    def text(self) -> str:
        """E.g. ``Q 6`` (the abbreviation, or the whole name when the game gives none)."""
        return _("{stat} {value}").format(stat=_(self.abbreviation or self.label), value=self.value)


@dataclass(frozen=True)
class PrepRow:
    """What the table needs on paper before the fight: a combatant's numbers and blank condition tracks."""

    name: str
    side: Side
    stats: tuple[Stat, ...]
    pools: tuple[tuple[str, int], ...]  # (pool key, size)
    tracks: tuple[TrackReading, ...]  # every track, none marked: filled in by hand
    initiative: str  # what is rolled for initiative, e.g. ``9 + 3d6``
    group: str | None = None
    seat: str | None = None
    notes: str = ""
    now: Condition | None = None  # the condition already marked (someone hurt before the fight), else None
    weapons: tuple[str, ...] = ()  # each weapon as the game describes it, with its magazine


def prep_rows(encounter: Encounter, system: RuleSystem) -> tuple[PrepRow, ...]:
    """Every combatant's prep-sheet row, players first (the game's side order), then as the roster lists them."""
    sides = {side: rank for rank, side in enumerate(system.default_side_order())}
    ordered = sorted(enumerate(encounter.combatants.values()),
                     key=lambda item: (sides.get(item[1].side, len(sides)), item[0]))
    return tuple(_prep_row(system, combatant, encounter) for _index, combatant in ordered)


def _prep_row(system: RuleSystem, combatant: Combatant, encounter: Encounter) -> PrepRow:
    # An optional attribute at its default (SR3's "Karma 0", "Run× 3") says nothing on paper and cost the SR3
    # sample's prep sheet a second page.
    stats = tuple(Stat(spec.label, spec.abbreviation, value) for spec in system.attribute_specs()
                  if (value := combatant.attribute(spec.key, spec.default)) != spec.default or spec.filled_when_added)
    readings = track_readings(system, combatant, encounter)
    blank = tuple(TrackReading(t.key, t.label, 0, t.size, t.kind) for t in readings)
    condition = condition_of(system, combatant, encounter)
    hurt = condition.hurt or condition.status is not Status.ACTIVE
    return PrepRow(combatant.name, combatant.side, stats,
                   tuple((key, pool.size) for key, pool in combatant.pools.items()), blank,
                   system.initiative_dice(combatant, encounter).describe(), combatant.group, combatant.seat,
                   combatant.notes, condition if hurt else None, tuple(_weapon_line(system, weapon)
                                                                       for weapon in combatant.weapons))


def _weapon_line(system: RuleSystem, weapon: Weapon) -> str:
    """``Ares Predator (9M, SA) · 15 rounds``: what the prep sheet lists of a weapon."""
    text = system.describe_weapon(weapon)
    if uses_rounds(weapon):
        text = _("{weapon} · magazine {magazine}").format(weapon=text, magazine=weapon.number(MAGAZINE))
    return text
