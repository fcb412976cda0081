"""The generic turn engine: rounds, passes, the current slot, delays and the timing hooks.

The engine never knows which game it runs. It asks the RuleSystem who still acts in this pass
(:meth:`RuleSystem.remaining_slots`, recomputed after every change so wounds re-order a pass at once),
whether another pass follows, and fires the hooks in the order every game shares:
round start → pass start → turn start/end … → pass end → round end.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from rules.dice import Roller
from rules.effects import fire_hook
from rules.encounter import (
    ADDED_LATER,
    Combatant,
    Delay,
    Encounter,
    Initiative,
    Slot,
    SlotKind,
    frozen_map,
    with_item,
    without_item,
)
from rules.errors import OperationError, RulesError
from rules.frozen import evolve
from rules.history import Applied, LogLine, Operation, require_combatant
from rules.initiative_text import TypedInitiative
from rules.limits import INITIATIVE_DICE, ROUND, SCORE, TIEBREAK_DICE, TYPED_SCORE
from rules.recent import Recent
from rules.systems.base import DiceSpec, Hook, Reminder, RuleSystem
from rules.text import N_, _, ngettext

# --- helpers the games use ----------------------------------------------------------------------


def delay_usable(delay: Delay, encounter: Encounter) -> bool:
    """Whether a held action can be taken in the current pass."""
    clock = encounter.clock
    if delay.round != clock.round:
        return False
    wanted = delay.pass_no + 1 if delay.into_next_pass else delay.pass_no
    return clock.pass_no == wanted


def delayed_slots(encounter: Encounter) -> list[Slot]:
    """Held actions still to be taken in this pass, to be played at its end (in roster order)."""
    return [Slot(SlotKind.DELAYED, (delay.combatant,), None)
            for delay in encounter.delays.values() if delay_usable(delay, encounter)]


def current_actor(encounter: Encounter) -> str | None:
    """The id of whoever acts now (the first of a simultaneous group), or None (no turn, or a timer's)."""
    slot = encounter.clock.current
    if slot is None or slot.kind is SlotKind.TIMER or not slot.ids:
        return None
    return slot.ids[0]


def actor_for(encounter: Encounter, selected: str | None) -> str | None:
    """Whom a command for "the actor" (delay, let the ties go first) means: ``selected`` when it is one of those
    acting now (a simultaneous group, a seat), else the current actor (the first of them)."""
    slot = encounter.clock.current
    if selected is not None and slot is not None and slot.kind is SlotKind.ACTORS and selected in slot.ids:
        return selected
    return current_actor(encounter)


#: The last few states' orders (a state is immutable; the turn engine, the table and the order view ask alike).
_SLOTS: Recent[tuple[Slot, ...]] = Recent()
_PLAYED: Recent[tuple[str, ...]] = Recent()
_FRESH: Recent[tuple[str, ...]] = Recent()


def pass_slots(encounter: Encounter, system: RuleSystem) -> list[Slot]:
    """``system.remaining_slots(encounter)``, worked out once per state: an encounter is immutable, and the same
    state is asked for its order by the turn engine (the next Next), the initiative table and the order view."""
    return list(_SLOTS.get((encounter, system), lambda: tuple(system.remaining_slots(encounter))))


def played_order(encounter: Encounter, system: RuleSystem) -> list[str]:
    """Those who have acted in this pass, in the order the game gives the pass (the order they acted in); worked
    out once per state (:func:`pass_slots`).

    ``clock.acted`` is a set: its iteration order depends on how it was built and on the process's string hashing,
    so it differs after a reload or crash recovery. The game's own order of the pass, asked as if nobody had acted
    yet, is the same every time; whoever it no longer places (knocked out after acting) follows, by score, then
    as the roster lists them.
    """
    return list(_PLAYED.get((encounter, system), lambda: tuple(_played_order(encounter, system))))


def _played_order(encounter: Encounter, system: RuleSystem) -> list[str]:
    """:func:`played_order`, worked out."""
    acted = encounter.clock.acted
    ordered = list(dict.fromkeys(cid for cid in _fresh_order(encounter, system) if cid in acted))
    roster = list(encounter.combatants)
    rest = sorted((cid for cid in acted if cid in encounter.combatants and cid not in ordered),
                  key=lambda cid: (-_rolled(encounter, cid), roster.index(cid)))
    return ordered + rest


def _fresh_order(encounter: Encounter, system: RuleSystem) -> tuple[str, ...]:
    """The actors of the current pass in the game's order as if nobody had acted yet.

    Worked out again only when something besides who has acted and who acts now changed: a turn within a pass
    (the most common change) changes only those two, and the whole order is ~2 ms at 300 combatants. Everything
    else the game may read is compared by identity (the encounter's parts are immutable, and the memo keeps them
    alive, so an identity is never reused while it is here) or by value."""
    clock = encounter.clock
    inputs = (system, encounter.system_id, encounter.name, encounter.options, encounter.combatants,
              encounter.effects, encounter.delays, encounter.game, encounter.notes, clock.round, clock.pass_no,
              clock.yielded)
    return _FRESH.get(inputs, lambda: _actors_as_if_nobody_acted(encounter, system))


def _actors_as_if_nobody_acted(encounter: Encounter, system: RuleSystem) -> tuple[str, ...]:
    fresh = encounter.with_clock(acted=frozenset(), current=None)
    return tuple(cid for slot in system.remaining_slots(fresh) if slot.kind is SlotKind.ACTORS for cid in slot.ids)


def _rolled(encounter: Encounter, combatant_id: str) -> int:
    initiative = encounter.combatants[combatant_id].initiative
    return initiative.rolled if initiative is not None else -10_000


def names(encounter: Encounter, ids: tuple[str, ...]) -> str:
    """Combatant names joined for a log line (timers and unknown ids are skipped)."""
    return ", ".join(encounter.combatants[i].name for i in ids if i in encounter.combatants)


# --- moving through the order -------------------------------------------------------------------


def _drop_lost_delays(encounter: Encounter, system: RuleSystem, slot: Slot) -> Applied:
    """Held actions the game says lapse as ``slot`` comes up (:meth:`RuleSystem.lost_delays`)."""
    lost = [d for d in system.lost_delays(encounter, slot) if d.combatant in encounter.delays]
    if not lost:
        return Applied(encounter)
    delays = encounter.delays
    for delay in lost:
        delays = without_item(delays, delay.combatant)
    text = N_("{name} did not use the delayed action in time; it is lost.")
    lines = tuple(LogLine(text, {"name": encounter.combatant(d.combatant).name}) for d in lost)
    reminders = tuple(Reminder(line.render(), d.combatant) for line, d in zip(lines, lost, strict=True))
    return Applied(evolve(encounter, delays=delays), lines, reminders)


def _enter(encounter: Encounter, system: RuleSystem, slot: Slot) -> Applied:
    result = _drop_lost_delays(encounter, system, slot)
    state = result.encounter.with_clock(current=slot)
    if slot.kind is SlotKind.TIMER:
        effect = state.effects[slot.ids[0]]
        line = LogLine("{effect} goes off.", {"effect": effect.name})
        return result.then(Applied(state, (line,), (Reminder(line.render(), effect.target),)))
    line = _turn_line(state, system, slot)
    return result.then(Applied(state, (line,))).then(fire_hook(state, system, Hook.TURN_START, slot.ids))


def _turn_line(encounter: Encounter, system: RuleSystem, slot: Slot) -> LogLine:
    who = names(encounter, slot.ids)
    if slot.kind is SlotKind.DELAYED:
        return LogLine("{name} takes the delayed action.", {"name": who})
    phases = system.time_units().phases
    if slot.phase is None or phases is None:
        return LogLine("{name} acts.", {"name": who})
    return LogLine(phases.acts, {"name": who, "phase": slot.phase})


def _lose_pass_delays(encounter: Encounter) -> Applied:
    """Held actions that could only be used in the pass that just ended are gone."""
    expired = [d for d in encounter.delays.values()
               if delay_usable(d, encounter) or (d.round, d.pass_no) < (encounter.clock.round,
                                                                        encounter.clock.pass_no - 1)]
    if not expired:
        return Applied(encounter)
    delays = frozen_map({k: d for k, d in encounter.delays.items() if d not in expired})
    lines = tuple(LogLine("{name}'s delayed action is lost.", {"name": encounter.combatant(d.combatant).name})
                  for d in expired if d.combatant in encounter.combatants)
    return Applied(evolve(encounter, delays=delays), lines)


def advance(encounter: Encounter, system: RuleSystem) -> Applied:
    """Enter the next slot of this pass, or end the pass (and the round) and go on."""
    slots = pass_slots(encounter, system)
    if slots:
        return _enter(encounter, system, slots[0])
    result = fire_hook(encounter.with_clock(current=None), system, Hook.PASS_END)
    result = result.then(_lose_pass_delays(result.encounter))
    state = result.encounter
    if system.has_next_pass(state):
        state = state.with_clock(pass_no=state.clock.pass_no + 1, acted=frozenset(), yielded=frozenset())
        passes = system.time_units().passes
        lines = (LogLine(passes.begins, {"number": state.clock.pass_no}),) if passes is not None else ()
        started = Applied(state, lines).then(fire_hook(state, system, Hook.PASS_START))
        return result.then(started).then(advance(started.encounter, system))
    return result.then(_end_round(state, system))


def _end_round(encounter: Encounter, system: RuleSystem) -> Applied:
    result = fire_hook(encounter, system, Hook.ROUND_END)
    state = evolve(result.encounter, delays=frozen_map())
    state = state.with_clock(pass_no=0, current=None, acted=frozenset(), yielded=frozenset())
    line = LogLine("Round {number} ends.", {"number": encounter.clock.round})
    ended = result.then(Applied(state, (line,)))
    if system.initiative_each_round(state):
        return ended
    return ended.then(start_round(state, system))


def start_round(encounter: Encounter, system: RuleSystem) -> Applied:
    """Begin the next round with the initiatives the combatants now have."""
    number = encounter.clock.round + 1
    if number > ROUND.high:  # a state past it could never be opened again
        raise OperationError(_("The fight has reached round {limit}, the last one Bojovka counts.").format(
            limit=ROUND.high))
    state = encounter.with_clock(round=number, pass_no=1, acted=frozenset(), yielded=frozenset(), current=None)
    result = Applied(state, (LogLine("Round {number} begins.", {"number": number}),))
    result = result.then(fire_hook(result.encounter, system, Hook.ROUND_START))
    result = result.then(fire_hook(result.encounter, system, Hook.PASS_START))
    return result.then(advance(result.encounter, system))


# --- operations ---------------------------------------------------------------------------------


def check_dice_count(count: int, name: str) -> None:
    """Refuse an initiative roll of more dice than :data:`~rules.limits.INITIATIVE_DICE` (OperationError)."""
    if count > INITIATIVE_DICE.high:
        raise OperationError(ngettext("{name} would roll {count} die for initiative; Bojovka rolls at most {limit}.",
                                      "{name} would roll {count} dice for initiative; Bojovka rolls at most {limit}.",
                                      count).format(name=name, count=count, limit=INITIATIVE_DICE.high))


def _check_tiebreak(faces: tuple[int, ...], name: str, sides: int) -> None:
    if len(faces) > TIEBREAK_DICE.high or not all(1 <= face <= sides for face in faces):
        if sides == 6:
            raise OperationError(_("{name}'s tie-break dice are not d6 faces.").format(name=name))
        raise OperationError(_("{name}'s tie-break dice are not d{sides} faces.").format(name=name, sides=sides))


def _check_faces(faces: tuple[int, ...], count: int, sides: int, name: str) -> None:
    check_dice_count(count, name)
    if len(faces) != count:
        raise OperationError(ngettext("{name} rolls {count} die for initiative, not {typed}.",
                                      "{name} rolls {count} dice for initiative, not {typed}.", count).format(
            name=name, count=count, typed=len(faces)))
    for face in faces:
        if not 1 <= face <= sides:
            raise OperationError(_("A d{sides} cannot show {face}.").format(sides=sides, face=face))


@dataclass(frozen=True)
class RollInitiative(Operation):
    """Initiative for a new round: the faces each combatant rolled (by the app or typed in by the GM), or the total
    a player announced (``totals``: the game turns it into what it stores, :meth:`RuleSystem.initiative_from_total`),
    and what the GM chose for those the game asks about (:meth:`RuleSystem.initiative_inputs`), in one undo step.
    """

    kind = "roll_initiative"
    rolls: Mapping[str, tuple[int, ...]]
    tiebreaks: Mapping[str, tuple[int, ...]]
    choices: Mapping[str, Mapping[str, int]] = field(default_factory=frozen_map)
    totals: Mapping[str, int] = field(default_factory=frozen_map, metadata=ADDED_LATER)
    #: The die the tie-break dice are (:meth:`RuleSystem.tiebreak_sides`); fights saved before it rolled d6.
    tiebreak_sides: int = field(default=6, metadata=ADDED_LATER)

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        if encounter.clock.current is not None:
            raise OperationError(_("The round is still running: finish it before rolling initiative."))
        if self.tiebreak_sides not in (6, system.tiebreak_sides()):
            raise OperationError(_("This game breaks initiative ties with d{sides}, not d{typed}.").format(
                sides=system.tiebreak_sides(), typed=self.tiebreak_sides))
        state = encounter
        for combatant_id in self.choices:
            if combatant_id not in self.rolls and combatant_id not in self.totals:
                raise OperationError(_("{name} makes initiative choices without rolling initiative.").format(
                    name=require_combatant(encounter, combatant_id).name))
        for combatant_id in (*self.rolls, *self.totals):  # the choices first: they may change the dice
            require_combatant(encounter, combatant_id)
            state = state.with_combatant(system.with_initiative_inputs(
                encounter.combatant(combatant_id), self.choices.get(combatant_id, {}), encounter))
        for combatant_id, faces in self.rolls.items():
            combatant = state.combatant(combatant_id)
            spec = system.initiative_dice(combatant, state)
            _check_faces(faces, spec.count, spec.sides, combatant.name)
            rolled = Initiative(spec.base, faces, self._tiebreak(combatant))
            if not SCORE.allows(rolled.rolled):
                raise OperationError(_("{name}'s initiative would be {score}; Bojovka counts scores from {low} to "
                                       "{high}.").format(name=combatant.name, score=rolled.rolled, low=SCORE.low,
                                                         high=SCORE.high))
            state = state.with_combatant(evolve(combatant, initiative=rolled))
        for combatant_id, total in self.totals.items():
            state = state.with_combatant(self._announced(state, system, combatant_id, total))
        named = (*self.rolls, *self.totals) if system.rolls_initiative(state) else ()
        log = tuple(LogLine("{name} rolls {total} for initiative.",
                            {"name": c.name, "total": system.score_text(c, state)})
                    for c in (state.combatant(i) for i in named))
        if self.tiebreak_sides == system.tiebreak_sides():  # an older fight's d6 tie-breaks logged nothing
            log += tuple(system.tie_lines(state))
        return Applied(state, log).then(start_round(state, system))

    def _announced(self, encounter: Encounter, system: RuleSystem, combatant_id: str, total: int) -> Combatant:
        combatant = require_combatant(encounter, combatant_id)
        if combatant_id in self.rolls:
            raise OperationError(_("{name} has both faces and a total for initiative: give one.").format(
                name=combatant.name))
        try:
            announced = system.initiative_from_total(combatant, encounter, total)
        except RulesError as problem:
            raise OperationError(str(problem)) from None
        return evolve(combatant, initiative=evolve(announced, tiebreak=self._tiebreak(combatant)))

    def _tiebreak(self, combatant: Combatant) -> tuple[int, ...]:
        faces = self.tiebreaks.get(combatant.id, ())
        _check_tiebreak(faces, combatant.name, self.tiebreak_sides)
        return faces


def initiative_choices(encounter: Encounter, system: RuleSystem, typed: Mapping[str, tuple[int, ...]],
                       chosen: Mapping[str, Mapping[str, int]]) -> dict[str, dict[str, int]]:
    """The GM's choices, plus the dice count the typed faces give where the game lets the GM choose it (typing
    five faces says five dice were rolled) and the GM did not pick it."""
    choices = {combatant_id: dict(values) for combatant_id, values in chosen.items() if values}
    for combatant_id, faces in typed.items():
        if not faces or combatant_id not in encounter.combatants:
            continue
        for spec in system.initiative_inputs(encounter.combatant(combatant_id), encounter):
            if spec.counts_dice:
                choices.setdefault(combatant_id, {}).setdefault(spec.key, len(faces))
    return choices


def roll_initiative(encounter: Encounter, system: RuleSystem, roller: Roller,
                    typed: Mapping[str, tuple[int, ...]] | None = None,
                    chosen: Mapping[str, Mapping[str, int]] | None = None,
                    totals: Mapping[str, int] | None = None) -> RollInitiative:
    """Build the round's initiative: typed faces or announced totals where the GM gave them, rolled dice for
    everyone else, with the GM's initiative choices (``chosen``: combatant id → input key → value) made first.

    Combatants the game groups together (:meth:`RuleSystem.initiative_group`: grunt groups, seats) share one roll:
    faces or a total typed for any member is the whole group's.
    """
    typed = typed or {}
    choices = initiative_choices(encounter, system, typed, chosen or {})
    given = {cid: TypedInitiative(faces=faces) for cid, faces in typed.items() if faces}
    given.update({cid: TypedInitiative(total=total) for cid, total in (totals or {}).items()})

    def spec_of(combatant: Combatant) -> DiceSpec:
        made = system.with_initiative_inputs(combatant, choices.get(combatant.id, {}), encounter)
        spec = system.initiative_dice(made, encounter.with_combatant(made))
        check_dice_count(spec.count, combatant.name)  # before rolling them: 10⁹ dice would never finish
        return spec

    rolls: dict[str, tuple[int, ...]] = {}
    announced: dict[str, int] = {}
    tiebreaks: dict[str, tuple[int, ...]] = {}
    by_group: dict[tuple[str, int], tuple[TypedInitiative, tuple[int, ...]]] = {}
    for combatant in encounter.combatants.values():  # a roll typed for any member is the whole group's roll
        group = system.initiative_group(combatant, encounter)
        if group and combatant.id in given and system.can_act(combatant, encounter):
            count = spec_of(combatant).count
            by_group.setdefault((group, count), (given[combatant.id], _tie_dice(roller, system)))
    for combatant in encounter.combatants.values():
        if not system.can_act(combatant, encounter):
            continue
        spec = spec_of(combatant)
        group = system.initiative_group(combatant, encounter)
        key = (group or "", spec.count)
        if group and key in by_group:  # the group's roll, or what the GM typed for this member, on its tie dice
            shared, tiebreaks[combatant.id] = by_group[key]
            roll = given.get(combatant.id) or shared
        else:
            roll = given.get(combatant.id) or TypedInitiative(faces=tuple(roller.dice(spec.count, spec.sides)))
            tiebreaks[combatant.id] = _tie_dice(roller, system)
            if group:
                by_group[key] = (roll, tiebreaks[combatant.id])
        if roll.total is not None:
            announced[combatant.id] = roll.total
        else:
            rolls[combatant.id] = roll.faces
    kept = {combatant_id: frozen_map(values) for combatant_id, values in choices.items()
            if combatant_id in rolls or combatant_id in announced}
    return RollInitiative(frozen_map(rolls), frozen_map(tiebreaks), frozen_map(kept), frozen_map(announced),
                          system.tiebreak_sides())


def _tie_dice(roller: Roller, system: RuleSystem) -> tuple[int, ...]:
    return tuple(roller.dice(system.tiebreak_dice(), system.tiebreak_sides()))


@dataclass(frozen=True)
class NextTurn(Operation):
    """The current actor is done: go to the next actor, pass or round (Space)."""

    kind = "next_turn"

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        slot = encounter.clock.current
        if slot is None:
            return _start_next_round(encounter, system)
        result = Applied(encounter)
        if slot.kind is not SlotKind.TIMER:
            result = fire_hook(encounter, system, Hook.TURN_END, slot.ids)
        return result.then(advance(_finish(result.encounter, slot), system))


def _start_next_round(encounter: Encounter, system: RuleSystem) -> Applied:
    if not encounter.clock.started or system.initiative_each_round(encounter):
        raise OperationError(_("Roll initiative to start the round."))
    return start_round(encounter, system)


def _finish(encounter: Encounter, slot: Slot) -> Encounter:
    """Record that ``slot`` has been played."""
    if slot.kind is SlotKind.TIMER:
        return evolve(encounter, effects=without_item(encounter.effects, slot.ids[0]))
    if slot.kind is SlotKind.DELAYED:
        delays = encounter.delays
        for combatant_id in slot.ids:
            delays = without_item(delays, combatant_id)
        return evolve(encounter, delays=delays)
    return encounter.with_clock(acted=encounter.clock.acted | set(slot.ids))


def _require_current_actor(encounter: Encounter, combatant_id: str) -> Slot:
    slot = encounter.clock.current
    if slot is None or slot.kind is not SlotKind.ACTORS or combatant_id not in slot.ids:
        name = encounter.combatants[combatant_id].name if combatant_id in encounter.combatants else combatant_id
        raise OperationError(_("{name} can only do that in their own turn.").format(name=name))
    return slot


def _leave_slot(encounter: Encounter, system: RuleSystem, slot: Slot, combatant_id: str) -> Applied:
    """Take one combatant out of the current slot (it delayed or yielded) and go on."""
    rest = tuple(i for i in slot.ids if i != combatant_id)
    if rest:
        return Applied(encounter.with_clock(current=evolve(slot, ids=rest)))
    return advance(encounter.with_clock(current=None), system)


@dataclass(frozen=True)
class DelayAction(Operation):
    """Hold the current actor's action to later in this pass, or into the next pass (games whose rounds have passes).

    Whether a held action lapses before it is used is the game's rule (:meth:`RuleSystem.lost_delays`).
    """

    kind = "delay_action"
    combatant_id: str
    into_next_pass: bool = False

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        require_combatant(encounter, self.combatant_id)
        slot = self._holder_slot(encounter)
        refusal = system.delay_refusal(encounter.combatant(self.combatant_id), encounter, self.into_next_pass)
        if refusal is not None:
            raise OperationError(refusal)
        if self.into_next_pass and not system.has_next_pass(encounter):
            raise OperationError(_("There is no next pass in this round to delay into."))
        clock = encounter.clock
        delay = Delay(self.combatant_id, clock.round, clock.pass_no, self.into_next_pass)
        paid = system.pay_for_delay(encounter.combatant(self.combatant_id), encounter)
        state = evolve(encounter.with_combatant(paid), delays=with_item(encounter.delays, self.combatant_id, delay))
        state = state.with_clock(acted=clock.acted | {self.combatant_id})
        passes = system.time_units().passes
        text = passes.delays_into if self.into_next_pass and passes is not None else N_("{name} delays the action.")
        line = LogLine(text, {"name": encounter.combatant(self.combatant_id).name})
        return Applied(state, (line,)).then(_leave_slot(state, system, slot, self.combatant_id))

    def _holder_slot(self, encounter: Encounter) -> Slot:
        """The slot the action is held from: the actor's own turn, or (into the next pass only) the moment its
        delayed action came up: a held action may be moved on into the next pass too (SR3's "Postavy si mohou
        přesunout odložené akce i do dalšího průběhu iniciativy"; its last actions of a turn, pass by pass to the
        turn's end)."""
        slot = encounter.clock.current
        if (self.into_next_pass and slot is not None and slot.kind is SlotKind.DELAYED
                and self.combatant_id in slot.ids):
            return slot
        return _require_current_actor(encounter, self.combatant_id)


@dataclass(frozen=True)
class TakeDelayedAction(Operation):
    """A combatant who delayed interrupts now, before whoever's turn it is."""

    kind = "take_delayed_action"
    combatant_id: str

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        require_combatant(encounter, self.combatant_id)
        delay = encounter.delays.get(self.combatant_id)
        if delay is None or not delay_usable(delay, encounter):
            raise OperationError(_("{name} has no delayed action to take now.").format(
                name=encounter.combatant(self.combatant_id).name))
        current = encounter.clock.current
        if current is not None and current.kind is SlotKind.DELAYED and self.combatant_id in current.ids:
            raise OperationError(_("{name} is taking the delayed action now.").format(
                name=encounter.combatant(self.combatant_id).name))
        phase = current.phase if current is not None else None
        return _enter(encounter, system, Slot(SlotKind.DELAYED, (self.combatant_id,), phase))


@dataclass(frozen=True)
class YieldTurn(Operation):
    """The current actor chooses to act after those it ties with (same score)."""

    kind = "yield_turn"
    combatant_id: str

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        require_combatant(encounter, self.combatant_id)
        _require_current_actor(encounter, self.combatant_id)
        refusal = system.yield_refusal(encounter.combatant(self.combatant_id), encounter)
        if refusal is not None:
            raise OperationError(refusal)
        state = encounter.with_clock(yielded=encounter.clock.yielded | {self.combatant_id}, current=None)
        line = LogLine("{name} lets the others with the same score go first.",
                       {"name": encounter.combatant(self.combatant_id).name})
        return Applied(state, (line,)).then(advance(state, system))


@dataclass(frozen=True)
class SetInitiative(Operation):
    """The GM overrides a combatant's initiative score (None returns to the rolled score)."""

    kind = "set_initiative"
    combatant_id: str
    score: int | None

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        combatant = require_combatant(encounter, self.combatant_id)
        if self.score is not None and not TYPED_SCORE.allows(self.score):
            raise OperationError(_("An initiative score must be between −{limit} and {limit}.").format(
                limit=TYPED_SCORE.high))
        base = combatant.initiative or Initiative(0)
        updated = evolve(combatant, initiative=evolve(base, override=self.score))
        state = encounter.with_combatant(updated)
        line = LogLine("The GM sets {name}'s initiative to {score}.",
                       {"name": combatant.name, "score": system.score_text(updated, state)})
        return Applied(state, (line,))
