"""Souboj's round operations: declarations, "act after", held reactions, dying, time after the fight.

Each is an event with JSON-able fields, applied and reversed by the history like any other operation.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Final

from rules.effects import AddEffect, fire_hook
from rules.encounter import (
    ADDED_LATER,
    STATUS_LABELS,
    Combatant,
    Effect,
    Encounter,
    JsonValue,
    SlotKind,
    Status,
    frozen_map,
)
from rules.errors import OperationError
from rules.history import Applied, LogLine, Operation, require_combatant
from rules.systems.base import Hook, Reminder, RuleSystem
from rules.systems.souboj import acting, condition, order
from rules.systems.souboj.model import (
    ACT_AFTER,
    ACTION_LABELS,
    DEAD,
    DECLARED,
    DYING_ROUNDS,
    GAVE_UP,
    INITIATIVE_EFFECTS,
    LAST_ACTION,
    PLACEMENT_LABELS,
    SHADOW,
    Action,
    Declaration,
    Placement,
    Reaction,
    act_after,
    gave_up_now,
    granted,
    initiative_modifiers,
    last_action,
    marked_dead,
    reactions,
    with_extra,
    with_granted,
    with_reactions,
)
from rules.systems.souboj.system import tables
from rules.text import N_, _, ngettext
from rules.turns import advance

MAX_NOTE = 200
MAX_REACTIONS = 20  # reactions one creature holds at once: "as many as it wants", within what a panel can list
MAX_DYING_ROUNDS = 999
MAX_INITIATIVE_MODIFIER = 20
MAX_GRANTED = 9  # more actions of one kind the GM grants a creature in one round
#: Time after the fight is counted in rounds of 10 seconds; an hour at most per step keeps a step quick.
MAX_TICKS = 360


def _require_round(encounter: Encounter) -> None:
    if encounter.clock.pass_no == 0:
        raise OperationError(_("Roll this round's initiative first."))


def _require_not_acted(encounter: Encounter, combatant: Combatant) -> None:
    if combatant.id in encounter.clock.acted:
        raise OperationError(_("{name} has already acted this round.").format(name=combatant.name))


# --- declarations and "act after" ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Declare(Operation):
    """What a combatant will do this round (None withdraws it); orders its simultaneous group."""

    kind = "souboj_declare"
    combatant_id: str
    action: Action | None
    placement: Placement = Placement.LAST

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        combatant = require_combatant(encounter, self.combatant_id)
        _require_round(encounter)
        _require_not_acted(encounter, combatant)
        if refused := acting.declaration_refusal(combatant, encounter):
            raise OperationError(refused)
        value = None if self.action is None else Declaration(encounter.clock.round, self.action,
                                                              self.placement).to_json()
        state = order.reorder_current(encounter.with_combatant(with_extra(combatant, DECLARED, value)))
        return Applied(state, (self._line(combatant),))

    def _line(self, combatant: Combatant) -> LogLine:
        if self.action is None:
            return LogLine("{name} withdraws the declared action.", {"name": combatant.name})
        if self.action is Action.NONCOMBAT:
            return LogLine("{name} declares a non-combat action, resolved {placement}.",
                           {"name": combatant.name, "placement": PLACEMENT_LABELS[self.placement]},
                           translate=("placement",))
        return LogLine("{name} declares {action}.", {"name": combatant.name, "action": ACTION_LABELS[self.action]},
                       translate=("action",))


@dataclass(frozen=True)
class ActAfter(Operation):
    """A combatant chooses to act after another one with the same score (None: back to the usual order)."""

    kind = "souboj_act_after"
    combatant_id: str
    leader: str | None

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        combatant = require_combatant(encounter, self.combatant_id)
        _require_round(encounter)
        _require_not_acted(encounter, combatant)
        if self.leader is None:
            state = encounter.with_combatant(with_extra(combatant, ACT_AFTER, None))
            line = LogLine("{name} keeps the usual place in the group.", {"name": combatant.name})
            return Applied(order.reorder_current(state), (line,))
        leader = require_combatant(encounter, self.leader)
        self._check(encounter, system, combatant, leader)
        record: Mapping[str, JsonValue] = frozen_map({"round": encounter.clock.round, "leader": leader.id})
        state = order.reorder_current(encounter.with_combatant(with_extra(combatant, ACT_AFTER, record)))
        line = LogLine("{name} acts after {leader}, still at {score}.",
                       {"name": combatant.name, "leader": leader.name, "score": order.score(combatant) or 0})
        return Applied(state, (line,))

    @staticmethod
    def _check(encounter: Encounter, system: RuleSystem, combatant: Combatant, leader: Combatant) -> None:
        if leader.id == combatant.id:
            raise OperationError(_("A combatant cannot act after itself."))
        _require_not_acted(encounter, leader)
        both = all(order.takes_part(c, encounter, system.can_act) for c in (combatant, leader))
        if not both or not order.same_group(combatant, leader, encounter):
            raise OperationError(_("{name} can only act after someone with the same score this round.").format(
                name=combatant.name))
        following, seen = leader, set()
        while (next_id := act_after(following, encounter)) is not None and next_id not in seen:
            if next_id == combatant.id:
                raise OperationError(_("{leader} already acts after {name}.").format(
                    leader=leader.name, name=combatant.name))
            seen.add(next_id)
            following = encounter.combatants.get(next_id, following)


# --- actions beyond the creature's number ---------------------------------------------------------------------

GRANT_LINES: Final[dict[str, str]] = {
    "action": N_("The GM grants {name} one more action this round."),
    "minor": N_("The GM grants {name} one more minor action this round."),
}


@dataclass(frozen=True)
class GrantAction(Operation):
    """The GM's override: one more major (``"action"``) or minor (``"minor"``) action for a creature this round,
    beyond its own number (souboj.md Decision: "actions per round, major and minor, are per-creature data")."""

    kind = "souboj_grant_action"
    combatant_id: str
    action: str

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        combatant = require_combatant(encounter, self.combatant_id)
        _require_round(encounter)
        if self.action not in GRANT_LINES:
            raise OperationError(_("Souboj counts major and minor actions only ({kind!r} is not one).").format(
                kind=self.action))
        if granted(combatant, encounter, self.action) >= MAX_GRANTED:
            raise OperationError(_("{name} has been granted {limit} more actions of that kind this round already.")
                                 .format(name=combatant.name, limit=MAX_GRANTED))
        state = encounter.with_combatant(with_granted(combatant, encounter, self.action))
        return Applied(state, (LogLine(GRANT_LINES[self.action], {"name": combatant.name}),))


# --- reactions ------------------------------------------------------------------------------------------------


class ReactionTiming(StrEnum):
    """How a reaction and the action it answers resolve."""

    TOGETHER = "together"  # the seed's "většinou nastejno", usually at the same time (default)
    AFTER = "after"  # one after the other, the GM's call this time
    AFTER_INSTANT = "after_instant"  # the action answered is instant: the reaction always comes after it


REACTION_LINES: Final[dict[ReactionTiming, str]] = {
    ReactionTiming.TOGETHER: N_("{name} reacts to {opponent}."),
    ReactionTiming.AFTER: N_("{name} reacts to {opponent}, once {opponent}'s action is done."),
    ReactionTiming.AFTER_INSTANT: N_("{name} reacts to {opponent}'s instant action, after it: an instant action is "
                                     "never interrupted."),
}



@dataclass(frozen=True)
class HoldReaction(Operation):
    """Give up this round's initiative in favour of a reaction (some reactions carry over to the next round); once
    it is given up, each further one is one more reaction held beside the others (souboj.md: "Reakcí si bytost může
    schovat kolik chce", as many as it wants)."""

    kind = "souboj_hold_reaction"
    combatant_id: str
    carries_over: bool = False
    note: str = ""

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        combatant = require_combatant(encounter, self.combatant_id)
        _require_round(encounter)
        self._check(encounter, system, combatant)
        held = Reaction(encounter.clock.round, self.carries_over, self.note.strip())
        updated = with_reactions(combatant, (*reactions(combatant), held))
        if gave_up_now(combatant, encounter):  # one more reaction; the initiative is already given up
            text = (N_("{name} holds one more reaction, which carries over to the next round.")
                    if self.carries_over else N_("{name} holds one more reaction."))
            return Applied(encounter.with_combatant(updated), (LogLine(text, {"name": combatant.name}),))
        state = encounter.with_combatant(with_extra(updated, GAVE_UP, encounter.clock.round))
        text = (N_("{name} gives up the initiative for a reaction that carries over to the next round.")
                if self.carries_over else N_("{name} gives up the initiative for a reaction."))
        return Applied(state, (LogLine(text, {"name": combatant.name}),)).then(_leave_current(state, system,
                                                                                                combatant.id))

    def _check(self, encounter: Encounter, system: RuleSystem, combatant: Combatant) -> None:
        if len(self.note) > MAX_NOTE:
            raise OperationError(_("A reaction's note has at most {limit} characters.").format(limit=MAX_NOTE))
        if len(reactions(combatant)) >= MAX_REACTIONS:
            raise OperationError(_("{name} already holds {limit} reactions.").format(name=combatant.name,
                                                                                    limit=MAX_REACTIONS))
        if system.status(combatant, encounter) is not Status.ACTIVE:
            raise OperationError(_("{name} has no initiative to give up this round.").format(name=combatant.name))
        if gave_up_now(combatant, encounter):
            return  # holding one more beside those already held
        _require_not_acted(encounter, combatant)
        if not order.takes_part(combatant, encounter, system.can_act):
            raise OperationError(_("{name} has no initiative to give up this round.").format(name=combatant.name))


def _leave_current(encounter: Encounter, system: RuleSystem, combatant_id: str) -> Applied:
    """Take a combatant out of the group acting now; an emptied group ends and the order goes on."""
    current = encounter.clock.current
    if current is None or combatant_id not in current.ids:
        return Applied(encounter)
    rest = tuple(i for i in current.ids if i != combatant_id)
    if rest:
        return Applied(encounter.with_clock(current=replace(current, ids=rest)))
    return advance(encounter.with_clock(current=None), system)


@dataclass(frozen=True)
class UseReaction(Operation):
    """Use a held reaction (``index``: which, oldest first) against someone acting now (with a lower score, unless a
    surprise granted it)."""

    kind = "souboj_use_reaction"
    combatant_id: str
    against: str
    index: int = field(default=0, metadata=ADDED_LATER)
    #: How the two resolve (souboj.md Decision: "together by default … the GM may switch each time"); an instant
    #: action (a blink) is never interrupted: "there the reaction ALWAYS comes after the instant action".
    timing: str = field(default=ReactionTiming.TOGETHER.value, metadata=ADDED_LATER)

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        combatant = require_combatant(encounter, self.combatant_id)
        opponent = require_combatant(encounter, self.against)
        held = _held(combatant, self.index)
        _check_reaction(encounter, system, combatant, opponent, held)
        try:
            timing = ReactionTiming(self.timing)
        except ValueError:
            raise OperationError(_("Unknown reaction timing {timing!r}.").format(timing=self.timing)) from None
        updated = _without(combatant, self.index)
        state = encounter.with_combatant(updated)
        current = encounter.clock.current
        if gave_up_now(combatant, encounter) and current is not None and combatant.id not in current.ids:
            # It acts together with the action it answers (the GM decides whether it comes first).
            at = current.ids.index(opponent.id) + 1
            state = state.with_clock(current=replace(current, ids=(*current.ids[:at], combatant.id,
                                                                   *current.ids[at:])))
        line = LogLine(REACTION_LINES[timing], {"name": combatant.name, "opponent": opponent.name})
        return Applied(state, (line,))



def _held(combatant: Combatant, index: int) -> Reaction:
    """The held reaction at ``index`` (OperationError naming the combatant when there is none)."""
    held = reactions(combatant)
    if not held:
        raise OperationError(_("{name} holds no reaction.").format(name=combatant.name))
    if not 0 <= index < len(held):
        raise OperationError(ngettext("{name} holds {count} reaction.", "{name} holds {count} reactions.",
                                      len(held)).format(name=combatant.name, count=len(held)))
    return held[index]


def _without(combatant: Combatant, index: int) -> Combatant:
    held = reactions(combatant)
    return with_reactions(combatant, (*held[:index], *held[index + 1:]))


def _check_reaction(encounter: Encounter, system: RuleSystem, combatant: Combatant, opponent: Combatant,
                    held: Reaction) -> None:
    current = encounter.clock.current
    if current is None or current.kind is not SlotKind.ACTORS or opponent.id not in current.ids:
        raise OperationError(_("A reaction answers an action: {opponent} is not acting now.").format(
            opponent=opponent.name))
    if opponent.id == combatant.id:
        raise OperationError(_("A combatant cannot react to itself."))
    if system.status(combatant, encounter) is not Status.ACTIVE:
        raise OperationError(_("{name} cannot react now.").format(name=combatant.name))
    if held.surprise:
        return  # the surprised side's reactions answer whoever attacks them
    own, theirs = order.score(combatant), order.score(opponent)
    if own is None:
        raise OperationError(_("{name} has no initiative this round.").format(name=combatant.name))
    if theirs is None or theirs >= own:
        raise OperationError(_("A held reaction only works against a lower score: {opponent} has {theirs}, "
                               "{name} {own}.").format(opponent=opponent.name, theirs=theirs if theirs is not None
                                                       else "–", name=combatant.name, own=own))


@dataclass(frozen=True)
class DropReaction(Operation):
    """Let a held reaction (``index``: which, oldest first) go unused (the initiative given up for it stays given
    up)."""

    kind = "souboj_drop_reaction"
    combatant_id: str
    index: int = field(default=0, metadata=ADDED_LATER)

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        combatant = require_combatant(encounter, self.combatant_id)
        _held(combatant, self.index)
        state = encounter.with_combatant(_without(combatant, self.index))
        return Applied(state, (LogLine("{name} lets the held reaction go.", {"name": combatant.name}),))


# --- dying and death ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class JudgeLastAction(Operation):
    """The GM's word on a dying creature's Endurance roll for one last action, once in its dying (souboj.md: "it
    may roll Endurance for one last action … regardless of how many actions it should have had")."""

    kind = "souboj_last_action"
    combatant_id: str
    granted: bool

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        combatant = require_combatant(encounter, self.combatant_id)
        if system.status(combatant, encounter) is not Status.DYING:
            raise OperationError(_("{name} is not dying.").format(name=combatant.name))
        if last_action(combatant) is not None:
            raise OperationError(_("{name}'s Endurance roll for a last action is already judged: it is the last.")
                                 .format(name=combatant.name))
        state = encounter.with_combatant(with_extra(combatant, LAST_ACTION, self.granted))
        text = (N_("{name} rolls Endurance and has one last action.") if self.granted
                else N_("{name} fails the Endurance roll: no last action."))
        return Applied(state, (LogLine(text, {"name": combatant.name}),))


@dataclass(frozen=True)
class SetDyingCountdown(Operation):
    """How many more rounds a dying creature has (Endurance roll, wound, GM's call); None clears it."""

    kind = "souboj_dying_countdown"
    combatant_id: str
    rounds: int | None

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        combatant = require_combatant(encounter, self.combatant_id)
        if system.status(combatant, encounter) is not Status.DYING:
            raise OperationError(_("{name} is not dying.").format(name=combatant.name))
        if self.rounds is not None and not 1 <= self.rounds <= MAX_DYING_ROUNDS:
            raise OperationError(_("A dying creature has between 1 and {limit} rounds.").format(
                limit=MAX_DYING_ROUNDS))
        state = encounter.with_combatant(with_extra(combatant, DYING_ROUNDS, self.rounds))
        if self.rounds is None:
            return Applied(state, (LogLine("{name}'s dying countdown is cleared.", {"name": combatant.name}),))
        line = LogLine("{name} dies in {count} round unless healed.", {"name": combatant.name, "count": self.rounds},
                       plural="{name} dies in {count} rounds unless healed.", count=self.rounds)
        return Applied(state, (line,))


@dataclass(frozen=True)
class MarkDead(Operation):
    """The GM's word: dead now (a special circumstance), or not dead after all."""

    kind = "souboj_mark_dead"
    combatant_id: str
    dead: bool = True

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        combatant = require_combatant(encounter, self.combatant_id)
        if marked_dead(combatant) == self.dead:
            raise OperationError(_("Nothing to change for {name}.").format(name=combatant.name))
        if self.dead:
            state = encounter.with_combatant(condition.mark_dead(combatant))
            return Applied(state, (LogLine("The GM declares {name} dead.", {"name": combatant.name}),))
        state = encounter.with_combatant(with_extra(combatant, DEAD, None))
        return Applied(state, (LogLine("The GM takes back {name}'s death.", {"name": combatant.name}),))


# --- time after the fight -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TimePasses(Operation):
    """After the fight: per-round effects (bleeding, countdowns, fading shadow damage) tick every 10 seconds."""

    kind = "souboj_time_passes"
    seconds: int

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        step = tables(encounter).seconds_per_round
        ticks = self._ticks(encounter, step)
        result = Applied(encounter, (LogLine("{count} second passes.", {"count": self.seconds},
                                             plural="{count} seconds pass.", count=self.seconds),))
        for _tick in range(ticks):
            result = result.then(fire_hook(result.encounter, system, Hook.ROUND_START))
            result = result.then(fire_hook(result.encounter, system, Hook.ROUND_END))
        lines = _changes(encounter, result.encounter, system)
        return Applied(result.encounter, result.log + lines, _collapse(result.reminders))

    def _ticks(self, encounter: Encounter, step: int) -> int:
        clock = encounter.clock
        if clock.current is not None or clock.pass_no != 0:
            raise OperationError(_("Finish the round first: time passes between rounds or after the fight."))
        if self.seconds < step or self.seconds % step:
            raise OperationError(_("Time passes in steps of {step} seconds.").format(step=step))
        ticks = self.seconds // step
        if ticks > MAX_TICKS:
            raise OperationError(_("At most {limit} seconds at a time.").format(limit=MAX_TICKS * step))
        return ticks


def _changes(before: Encounter, after: Encounter, system: RuleSystem) -> tuple[LogLine, ...]:
    """Log lines for what the passing time did to each combatant."""
    lines = []
    for combatant_id, old in before.combatants.items():
        new = after.combatants.get(combatant_id, old)
        faded = old.boxes(SHADOW) - new.boxes(SHADOW)
        if faded > 0:
            lines.append(LogLine("{count} shadow damage of {name} fades.", {"count": faded, "name": new.name}))
        old_status, new_status = system.status(old, before), system.status(new, after)
        if old_status is not new_status:
            lines.append(LogLine("{name} is now {status}.", {"name": new.name, "status": STATUS_LABELS[new_status]},
                                 translate=("status",)))
    return tuple(lines)


def _collapse(reminders: tuple[Reminder, ...]) -> tuple[Reminder, ...]:
    """The same reminder every 10 seconds once, with how many times it came."""
    counts = Counter(reminders)
    unique = list(dict.fromkeys(reminders))
    return tuple(reminder if counts[reminder] == 1 else replace(
        reminder, text=_("{reminder} (×{count})").format(reminder=reminder.text, count=counts[reminder]))
        for reminder in unique)


# --- initiative modifiers -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AddInitiativeEffect(Operation):
    """An effect on a combatant that changes its initiative rolls for as long as the effect lasts."""

    kind = "souboj_initiative_effect"
    effect: Effect
    modifier: int

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        if self.effect.target is None:
            raise OperationError(_("An initiative modifier needs a combatant to act on."))
        if self.modifier == 0 or abs(self.modifier) > MAX_INITIATIVE_MODIFIER:
            raise OperationError(_("An initiative modifier is between −{limit} and +{limit}, and not 0.").format(
                limit=MAX_INITIATIVE_MODIFIER))
        added = AddEffect(self.effect).apply(encounter, system)
        target = added.encounter.combatant(self.effect.target)
        modifiers = frozen_map({**initiative_modifiers(target), self.effect.id: self.modifier})
        state = added.encounter.with_combatant(with_extra(target, INITIATIVE_EFFECTS, modifiers))
        sign = f"+{self.modifier}" if self.modifier > 0 else f"−{-self.modifier}"
        line = LogLine("{name} rolls initiative {modifier} while {effect} lasts.",
                       {"name": target.name, "modifier": sign, "effect": self.effect.name})
        return Applied(state, (*added.log, line))
