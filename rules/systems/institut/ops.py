"""Institute's operations: declarations, skipping a round, the pyramid, and resolved attacks with their dice.

Every roll is carried as the faces the dice showed (rolled by the app or typed in by the GM), so replaying
the history gives the same fight. Pools are summed d6: the operations add the faces up, compare them, read
the wound class off the target's pyramid and place the wounds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Final, Literal

from rules.encounter import (
    ADDED_LATER,
    STATUS_LABELS,
    Combatant,
    Effect,
    Encounter,
    Timing,
    frozen_map,
    with_item,
)
from rules.errors import OperationError, RulesError
from rules.history import Applied, AttackRecord, LogArg, LogLine, Operation, require_combatant
from rules.systems.base import Hook, Reminder, RuleSystem
from rules.systems.institut import rounds
from rules.systems.institut.combat import HEX_DIRECTIONS, Defence, Landing, grenade_throw, hits, landing
from rules.systems.institut.pyramid import MAX_CLASSES, MORTAL, pyramid_from_rows
from rules.systems.institut.system import (
    check_may_act,
    count_may_be_lowered_after_roll,
    dodge_tie,
    in_points,
    pool_die,
    pyramid_for,
    stored_pyramid,
    tables,
    wound_penalty,
)
from rules.systems.institut.two_guns import carried_pair, check_pair
from rules.text import N_, NN_, _, ngettext
from rules.turns import advance
from rules.weapons import ROUNDS, fire, uses_rounds

Faces = tuple[int, ...]
MAX_POOL: Final[int] = 100
MAX_DAMAGE_ROLLS: Final[int] = 4
MAX_WOUNDS: Final[int] = 30
MAX_TEXT: Final[int] = 200


# --- checks and shared steps ------------------------------------------------------------------------------


def _check_faces(faces: Faces, sides: int) -> None:
    """One roll of a pool: at most MAX_POOL dice, each a face of the encounter's die (:func:`pool_die`)."""
    if len(faces) > MAX_POOL:
        raise OperationError(_("At most {limit} dice in one roll.").format(limit=MAX_POOL))
    if any(not 1 <= face <= sides for face in faces):
        raise OperationError(_("A d{sides} shows 1 to {sides}.").format(sides=sides))


def _check_text(text: str, what: str) -> None:
    if len(text) > MAX_TEXT:
        raise OperationError(_("{what} is too long (at most {limit} characters).").format(what=what,
                                                                                           limit=MAX_TEXT))


def _require_round(encounter: Encounter) -> None:
    if not rounds.round_running(encounter):
        raise OperationError(_("Declarations are made during a round: roll initiative first."))


def _points(text: str, plural: str, args: dict[str, LogArg], points: int) -> LogLine:
    return LogLine(text, {**args, "points": points}, plural=plural, count=points)


def _take_action(encounter: Encounter, combatant: Combatant, held: str = "") -> Encounter:
    """Count one action of ``combatant`` (a held one if named); only while a round is running.

    In its own turn a combatant may always do one more (declaring it); out of turn only a held or an
    already declared action can be taken.
    """
    if not rounds.round_running(encounter):
        return encounter
    check_may_act(combatant, encounter)
    actions = rounds.round_actions(combatant)
    current = encounter.clock.current
    in_turn = current is not None and combatant.id in current.ids
    if not (in_turn or held or actions.free):
        raise OperationError(_("It is not {name}'s turn: out of turn only a held or declared action can be "
                               "taken.").format(name=combatant.name))
    return encounter.with_combatant(rounds.with_actions(combatant, rounds.after_action(actions, held)))


def defence_actions(target: Combatant, encounter: Encounter, held: str = "") -> tuple[rounds.RoundActions, bool]:
    """The target's counters once it dodges or blocks, and whether that costs it its turn still to come.

    A held declaration or a declared action left pays for it; with nothing declared and its turn still to
    come, the defence becomes its only action this round. Otherwise it has nothing to defend with.
    """
    if rounds.skips_this_round(target, encounter):
        raise OperationError(_("{name} gave up this round and cannot dodge or block.").format(name=target.name))
    check_may_act(target, encounter)
    actions = rounds.round_actions(target)
    if held or actions.free:
        return rounds.after_action(actions, held), False
    if actions.nothing_declared and target.id not in encounter.clock.acted:
        current = encounter.clock.current
        return rounds.after_action(actions), current is None or target.id not in current.ids
    raise OperationError(_("{name} has no declared action left to dodge or block with this round.").format(
        name=target.name))


def can_defend(target: Combatant, encounter: Encounter) -> bool:
    """Whether the target may dodge or block now: outside a round always; in one, with a declared action left,
    its one action still to come, or a held declaration the GM may say is this one."""
    if not rounds.round_running(encounter):
        return True
    try:
        if rounds.round_actions(target).pending:
            check_may_act(target, encounter)
        else:
            defence_actions(target, encounter)
    except OperationError:
        return False
    return True


def _defend(encounter: Encounter, target: Combatant, held: str) -> tuple[Encounter, list[LogLine]]:
    """Count the target's dodge or block (only while a round is running)."""
    if not rounds.round_running(encounter):
        return encounter, []
    only = rounds.round_actions(target).nothing_declared
    actions, loses_turn = defence_actions(target, encounter, held)
    state = encounter.with_combatant(rounds.with_actions(target, actions))
    if loses_turn:
        state = rounds.mark_acted(state, target.id)
    if not only:
        return state, []
    return state, [LogLine("That is {name}'s only action this round.", {"name": target.name})]


def may_declare_now(combatant: Combatant, encounter: Encounter) -> bool:
    """Whether the combatant may declare its count now: in its own turn, or out of turn while its turn is still
    to come (institut.md Decision: "the count goes with the declaration, not with the turn")."""
    current = encounter.clock.current
    return (current is not None and combatant.id in current.ids) or combatant.id not in encounter.clock.acted


def declaring(combatant: Combatant, count: int) -> Combatant:
    """The combatant as it would be with ``count`` plain actions declared (0: as it is)."""
    if not count:
        return combatant
    return rounds.with_actions(combatant, replace(rounds.round_actions(combatant), declared=count))


def roll_penalties(combatant: Combatant, encounter: Encounter, actions: rounds.RoundActions | None = None
                   ) -> tuple[int, int]:
    """(wound dice, extra-action dice) a roll of ``combatant`` loses, with ``actions`` as the round's counters."""
    counted = actions if actions is not None else rounds.round_actions(combatant)
    return wound_penalty(combatant, encounter), rounds.action_penalty(counted, tables(encounter).modifiers)


def attack_penalties(attacker: Combatant, encounter: Encounter, held: str = "") -> tuple[int, int]:
    """What the attacker's roll loses once the attack is counted as one of its actions (a held one if named)."""
    if not rounds.round_running(encounter):
        return roll_penalties(attacker, encounter)
    return roll_penalties(attacker, encounter, rounds.after_action(rounds.round_actions(attacker), held))


def defence_penalties(target: Combatant, encounter: Encounter, held: str = "") -> tuple[int, int]:
    """What the target's dodge or block loses once counted (RulesError if it has nothing to defend with)."""
    if not rounds.round_running(encounter):
        return roll_penalties(target, encounter)
    return roll_penalties(target, encounter, defence_actions(target, encounter, held)[0])


def _wound(state: Encounter, system: RuleSystem, target_id: str, total: int, count: int,
           log: list[LogLine]) -> Encounter:
    """Read the damage total off the target's pyramid and place ``count`` wounds of that class."""
    target = state.combatant(target_id)
    pyramid = pyramid_for(target, state)
    wound = pyramid.classify(total)
    if wound is None:
        log.append(_points("{points} point: below the pyramid, no wound.",
                           "{points} points: below the pyramid, no wound.", {}, total))
        return state
    filled, placed = pyramid.place(target.damage, wound, count)
    hurt = replace(target, damage=frozen_map({**target.damage, **filled}))
    state = state.with_combatant(hurt)
    args: dict[str, LogArg] = {"name": target.name, "wound": pyramid.label(wound), "count": count, "points": total}
    log.append(LogLine("{points} points: {name} takes {count} {wound} wound.", args,
                       plural="{points} points: {name} takes {count} {wound} wounds.", count=count,
                       translate=("wound",)))
    for placement in placed:
        if placement.overflow:
            log.append(LogLine("No box is free: the wound stays on the Mortal row.") if placement.landed == MORTAL
                       else LogLine("No box is free: the wound stays on the {wound} row.",
                                    {"wound": pyramid.label(placement.landed)}, translate=("wound",)))
        elif placement.landed != placement.rolled:
            log.append(LogLine("The {wound} row is full: the wound goes to {landed}.", {
                "wound": pyramid.label(placement.rolled), "landed": pyramid.label(placement.landed)},
                translate=("wound", "landed")))
    log.extend(_status_lines(system, target, hurt, state))
    return state


def _status_lines(system: RuleSystem, before: Combatant, after: Combatant, state: Encounter) -> list[LogLine]:
    old, new = system.status(before, state), system.status(after, state)
    if old is new:
        return []
    return [LogLine("{name} is now {status}.", {"name": after.name, "status": STATUS_LABELS[new]},
                    translate=("status",))]


def _fire(state: Encounter, combatant_id: str, weapon: str, used: int, log: list[LogLine]) -> Encounter:
    """Count ``used`` rounds off the combatant's saved weapon ``weapon`` ("" or none: nothing to count), saying
    what is left; OperationError when fewer are loaded."""
    state = fire(state, combatant_id, weapon, used)
    carried = state.combatant(combatant_id).weapon(weapon) if weapon else None
    if carried is not None and uses_rounds(carried) and used > 0:
        left = carried.number(ROUNDS)
        log.append(LogLine("{weapon}: {rounds} round left.", {"weapon": carried.name, "rounds": left},
                           plural="{weapon}: {rounds} rounds left.", count=left))
    return state


# --- declarations and the round ---------------------------------------------------------------------------


@dataclass(frozen=True)
class DeclareActions(Operation):
    """How many plain actions the combatant declares this round (each beyond the first: −1 die on every roll)."""

    kind = "institut_declare"
    combatant_id: str
    count: int
    #: Checked against "cannot be lowered after a roll" (institut.md Decision); False for declarations recorded
    #: before that check, which replay as they were made.
    after_roll_checked: bool = field(default=False, metadata=ADDED_LATER)
    #: Checked against "declared in one's own turn, or (institut.md Decision) at an out-of-turn dodge by one who has
    #: not had its turn yet"; False for declarations recorded before that check, which replay as they were made.
    turn_checked: bool = field(default=False, metadata=ADDED_LATER)

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        combatant = require_combatant(encounter, self.combatant_id)
        _require_round(encounter)
        check_may_act(combatant, encounter)
        if self.turn_checked and not may_declare_now(combatant, encounter):
            raise OperationError(_("{name} has had its turn this round: its actions were declared then.").format(
                name=combatant.name))
        actions = rounds.round_actions(combatant)
        if not actions.taken <= self.count <= rounds.MAX_DECLARED:
            raise OperationError(_("{name} has already done {done}: declare {done} to {limit} actions.").format(
                name=combatant.name, done=actions.taken, limit=rounds.MAX_DECLARED))
        lowering_allowed = count_may_be_lowered_after_roll(encounter)
        if self.after_roll_checked and self.count < actions.declared and actions.taken and not lowering_allowed:
            raise OperationError(ngettext(
                "{name} has already rolled this round at the penalty of {declared} declared action: the count "
                "cannot be lowered after a roll.",
                "{name} has already rolled this round at the penalty of {declared} declared actions: the count "
                "cannot be lowered after a roll.", actions.declared).format(name=combatant.name,
                                                                           declared=actions.declared))
        updated = replace(actions, declared=self.count)
        penalty = rounds.action_penalty(updated, tables(encounter).modifiers)
        line = LogLine("{name} declares {count} action.",
                       {"name": combatant.name, "count": updated.total_declared, "penalty": penalty},
                       plural="{name} declares {count} actions: every roll this round is at −{penalty}.",
                       count=updated.total_declared)
        return Applied(encounter.with_combatant(rounds.with_actions(combatant, updated)), (line,))


@dataclass(frozen=True)
class HoldAction(Operation):
    """A conditional declaration ("if he shoots, I dodge"): one more declared action, used up either way.

    ``in_own_turn``: checked against institut.md's "во время своего хода" (made during one's own turn); False for
    declarations recorded before that check, which replay as they were made.
    """

    kind = "institut_hold"
    combatant_id: str
    condition: str
    in_own_turn: bool = field(default=False, metadata=ADDED_LATER)

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        combatant = require_combatant(encounter, self.combatant_id)
        _require_round(encounter)
        check_may_act(combatant, encounter)
        current = encounter.clock.current
        if self.in_own_turn and (current is None or combatant.id not in current.ids):
            raise OperationError(_("{name} can hold an action only during their own turn (“во время своего "
                                   "хода”).").format(name=combatant.name))
        condition = self.condition.strip()
        if not condition:
            raise OperationError(_("Say what the held action waits for, e.g. “if he shoots, I dodge”."))
        _check_text(condition, _("The condition"))
        actions = rounds.round_actions(combatant)
        if condition in actions.pending:
            raise OperationError(_("{name} already holds “{condition}”.").format(name=combatant.name,
                                                                                  condition=condition))
        if actions.total_declared >= rounds.MAX_DECLARED:
            raise OperationError(_("At most {limit} actions a round.").format(limit=rounds.MAX_DECLARED))
        updated = replace(actions, held=actions.held + 1, pending=(*actions.pending, condition))
        line = LogLine("{name} holds an action: “{condition}”.", {"name": combatant.name, "condition": condition})
        return Applied(encounter.with_combatant(rounds.with_actions(combatant, updated)), (line,))


@dataclass(frozen=True)
class ResolveHeld(Operation):
    """A held declaration's moment: its condition came (the action happens) or did not (it is used up)."""

    kind = "institut_resolve_held"
    combatant_id: str
    condition: str
    happened: bool

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        combatant = require_combatant(encounter, self.combatant_id)
        actions = rounds.after_action(rounds.round_actions(combatant), self.condition)
        text = (N_("{name}: “{condition}” — it happens, roll the action.") if self.happened
                else N_("{name}: “{condition}” did not happen; the declaration is used up."))
        line = LogLine(text, {"name": combatant.name, "condition": self.condition})
        return Applied(encounter.with_combatant(rounds.with_actions(combatant, actions)), (line,))


@dataclass(frozen=True)
class SkipRound(Operation):
    """Give up the whole round to act first in the next one."""

    kind = "institut_skip_round"
    combatant_id: str

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        combatant = require_combatant(encounter, self.combatant_id)
        _require_round(encounter)
        check_may_act(combatant, encounter)
        if combatant.id in encounter.clock.acted or not rounds.round_actions(combatant).nothing_declared:
            raise OperationError(_("{name} has already acted or declared this round.").format(name=combatant.name))
        marked = rounds.set_extra(combatant, rounds.SKIPPED, encounter.clock.round)
        state = rounds.mark_acted(encounter.with_combatant(marked), combatant.id)
        line = LogLine("{name} gives up this round to act first in the next.", {"name": combatant.name})
        current = state.clock.current
        if current is not None and combatant.id in current.ids:
            return Applied(state, (line,)).then(advance(state.with_clock(current=None), system))
        return Applied(state, (line,))


FlagName = Literal["ambush", "dead", "in_hand"]
_FLAG_LINES: Final[dict[tuple[str, bool], str]] = {
    ("ambush", True): N_("{name} lies in ambush: +{count} dice to hit in the first round."),
    ("ambush points", True): N_("{name} lies in ambush: +{count} points to hit in the first round."),
    ("ambush", False): N_("{name} is no longer in ambush."),
    ("dead", True): N_("The GM rules that {name} is dead."),
    ("dead", False): N_("{name} is not dead after all."),
    ("in_hand", True): N_("{name} holds an object that can block a shot."),
    ("in_hand", False): N_("{name} no longer holds anything that can block a shot."),
}


@dataclass(frozen=True)
class SetInstitutFlag(Operation):
    """Mark a combatant as lying in ambush, as dead (the GM decides death), or as holding an object that can block
    a shot ("A shot may be blocked instead of dodged only with a suitable object already in hand")."""

    kind = "institut_flag"
    combatant_id: str
    flag: FlagName
    value: bool

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        combatant = require_combatant(encounter, self.combatant_id)
        if self.flag not in ("ambush", "dead", "in_hand"):
            raise OperationError(_("Unknown mark {flag!r}.").format(flag=self.flag))
        if rounds.flag(combatant, self.flag) == self.value:
            raise OperationError(_("Nothing to change."))
        updated = rounds.with_flag(combatant, self.flag, self.value)
        unit = " points" if self.flag == "ambush" and self.value and in_points(encounter) else ""
        line = LogLine(_FLAG_LINES[(self.flag + unit, self.value)], {
            "name": combatant.name, "count": tables(encounter).modifiers.ambush_hit})
        state = encounter.with_combatant(updated)
        return Applied(state, (line, *_status_lines(system, combatant, updated, state)))


@dataclass(frozen=True)
class SetPyramid(Operation):
    """Give a character its own pyramid, (threshold, boxes, penalty) per class lightest first; None: default.

    ``names``: the classes' own names, as many as rows (institut.md: "editable per character (number of classes,
    names, thresholds and boxes)"); () keeps the five default classes. Wounds move class by class in order
    (lightest first) to the new rows; a shrunken row's wounds pass on to the next heavier class, as any wound
    would.
    """

    kind = "institut_pyramid"
    combatant_id: str
    rows: tuple[tuple[int, int, int], ...] | None
    names: tuple[str, ...] = field(default=(), metadata=ADDED_LATER)

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        combatant = require_combatant(encounter, self.combatant_id)
        if len(self.names) > MAX_CLASSES:
            raise OperationError(_("A life pyramid has 1 to {limit} classes.").format(limit=MAX_CLASSES))
        names = self.names or None
        if self.rows is not None:
            pyramid_from_rows(self.rows, names)  # a RulesError says what is wrong
        old = pyramid_for(combatant, encounter)
        stored = stored_pyramid(self.rows, names) if self.rows is not None else None
        updated = rounds.set_extra(combatant, rounds.PYRAMID, stored)
        pyramid = pyramid_for(updated, encounter)
        filled = pyramid.carried_over(combatant.damage, old)
        kept = {key: boxes for key, boxes in combatant.damage.items() if key not in old.keys}
        updated = replace(updated, damage=frozen_map({**kept, **filled}))
        text = (N_("{name} gets a life pyramid of their own.") if self.rows is not None
                else N_("{name} uses the encounter's life pyramid again."))
        state = encounter.with_combatant(updated)
        return Applied(state, (LogLine(text, {"name": combatant.name}),
                               *_status_lines(system, combatant, updated, state)))


# --- attacks ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class InstitutAttack(Operation):
    """A resolved attack: the attack roll against a dodge, a block or a difficulty, then the damage rolls.

    ``damage_rolls`` holds one roll per bullet that hits (two with two identical guns; none when the hit does
    no damage, e.g. a pistol shot out of a hand); each puts ``wounds_per_hit`` wounds of its class on the
    target (a burst's hits). The attack is one action of the attacker (``attacker_held``: the held one it
    fulfils); a dodge or block is one action of the target (``target_held`` likewise). ``blade_faces``: a
    punch blocked with a blade, whose damage roll wounds the puncher ("когда меч блокирует кулак, бьющий
    получает повреждения от меча").
    """

    kind = "institut_attack"
    attacker: str
    target: str
    weapon: str
    attack_faces: Faces
    defence: str = Defence.DODGE.value
    defence_faces: Faces = ()
    difficulty: int = 0
    damage_rolls: tuple[Faces, ...] = ()
    wounds_per_hit: int = 1
    rounds: int = 1
    attacker_held: str = ""
    target_held: str = ""
    saved_weapon: str = field(default="", metadata=ADDED_LATER)
    blade_faces: Faces = field(default=(), metadata=ADDED_LATER)
    #: Modifiers the GM's option counts in points (institut.md Decision), added to the attack roll's total and to
    #: each damage roll's.
    attack_points: int = field(default=0, metadata=ADDED_LATER)
    damage_points: int = field(default=0, metadata=ADDED_LATER)
    #: The target declares this many actions at the moment of its dodge or block (institut.md Decision: one who has
    #: not had its turn yet may declare its count then); 0: no declaration.
    target_declares: int = field(default=0, metadata=ADDED_LATER)
    #: Two guns, the second a saved weapon of its own ("": none, or one weapon stands for both): its name and the
    #: rounds it fires from its own magazine (``rounds`` are then the first gun's).
    second_weapon: str = field(default="", metadata=ADDED_LATER)
    second_rounds: int = field(default=0, metadata=ADDED_LATER)

    def attacker_id(self) -> str | None:
        return self.attacker

    def attack_total(self) -> int:
        """The attack roll's total: its dice and the modifiers counted in points."""
        return sum(self.attack_faces) + self.attack_points

    def attack_record(self) -> AttackRecord | None:
        return AttackRecord(self.attacker, self.target, self.saved_weapon)

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        attacker = require_combatant(encounter, self.attacker)
        target = require_combatant(encounter, self.target)
        defence = self._validate(pool_die(encounter))
        if attacker.id == target.id:
            raise OperationError(_("A combatant cannot attack itself."))
        self._check_second_gun(attacker)
        state = _take_action(encounter, attacker, self.attacker_held)
        log = [_points("{attacker} attacks {target} with {weapon}: {points} point.",
                       "{attacker} attacks {target} with {weapon}: {points} points.",
                       {"attacker": attacker.name, "target": target.name, "weapon": self.weapon or _("a weapon")},
                       self.attack_total()), *_modifier_lines(self.attack_points, self.damage_points)]
        ammunition: list[LogLine] = []  # said last: the rounds are fired whether the attack hits or not
        state = _fire(state, attacker.id, self.saved_weapon, self.rounds, ammunition)
        if self.second_weapon:
            log.append(LogLine("Second gun: {weapon}.", {"weapon": self.second_weapon}))
            state = _fire(state, attacker.id, self.second_weapon, self.second_rounds, ammunition)
        opposing = self.difficulty
        if self.target_declares:
            if defence is Defence.DIFFICULTY:
                raise OperationError(_("Against a difficulty the target rolls nothing."))
            declared = DeclareActions(target.id, self.target_declares, after_roll_checked=True,
                                      turn_checked=True).apply(state, system)
            state, log = declared.encounter, [*log, *declared.log]
        if defence is not Defence.DIFFICULTY:
            state, defended = _defend(state, state.combatant(target.id), self.target_held)
            opposing = sum(self.defence_faces)
            dodged = defence is Defence.DODGE
            text = (NN_("{name} dodges: {points} point.", "{name} dodges: {points} points.") if dodged
                    else NN_("{name} blocks: {points} point.", "{name} blocks: {points} points."))
            log += [_points(*text, {"name": target.name}, opposing), *defended]
        else:
            log.append(LogLine("Difficulty {difficulty}.", {"difficulty": opposing}))
        try:
            tie = dodge_tie(encounter)
        except RulesError as problem:
            raise OperationError(str(problem)) from None
        if not hits(self.attack_total(), defence, opposing, tie):
            log.append(LogLine(_MISS_LINES[defence], {"name": target.name}))
            if self.blade_faces:
                log.append(_points("{target}'s blade stops the fist: {points} point against {attacker}.",
                                   "{target}'s blade stops the fist: {points} points against {attacker}.",
                                   {"target": target.name, "attacker": attacker.name}, sum(self.blade_faces)))
                state = _wound(state, system, attacker.id, sum(self.blade_faces), 1, log)
            return Applied(state, (*log, *ammunition))
        if self.blade_faces:
            raise OperationError(_("A blade hurts the puncher only when it blocks the blow."))
        if not self.damage_rolls:
            return Applied(state, (*log, LogLine("A hit, with no damage roll."), *ammunition))
        for faces in self.damage_rolls:
            state = _wound(state, system, target.id, sum(faces) + self.damage_points, self.wounds_per_hit, log)
        return Applied(state, (*log, *ammunition))

    def _check_second_gun(self, attacker: Combatant) -> None:
        """Refuse a second gun that is not the attacker's other one-handed gun, or is empty, quoting the rule."""
        if not self.second_weapon:
            return
        try:
            check_pair(*carried_pair(attacker, self.saved_weapon, self.second_weapon))
        except RulesError as problem:
            raise OperationError(str(problem)) from None

    def _validate(self, sides: int) -> Defence:
        try:
            defence = Defence(self.defence)
        except ValueError:
            raise OperationError(_("Unknown defence {defence!r}.").format(defence=self.defence)) from None
        for faces in (self.attack_faces, self.defence_faces, *self.damage_rolls, self.blade_faces):
            _check_faces(faces, sides)
        if self.blade_faces and defence is not Defence.BLOCK:
            raise OperationError(_("Only a block with a blade hurts the puncher."))
        if defence is Defence.DIFFICULTY and self.defence_faces:
            raise OperationError(_("Against a difficulty the target rolls nothing."))
        if not 0 <= self.difficulty <= 999:
            raise OperationError(_("A difficulty is between 0 and 999."))
        if len(self.damage_rolls) > MAX_DAMAGE_ROLLS or not 1 <= self.wounds_per_hit <= MAX_WOUNDS:
            raise OperationError(_("At most {rolls} damage rolls of at most {wounds} wounds each.").format(
                rolls=MAX_DAMAGE_ROLLS, wounds=MAX_WOUNDS))
        _check_text(self.weapon, _("The weapon's name"))
        if not (0 <= self.rounds <= 999 and 0 <= self.second_rounds <= 999):
            raise OperationError(_("Rounds fired must be between 0 and 999."))
        if not (-MAX_POOL <= self.attack_points <= MAX_POOL and -MAX_POOL <= self.damage_points <= MAX_POOL):
            raise OperationError(_("Modifiers in points are between −{limit} and +{limit}.").format(limit=MAX_POOL))
        return defence


def _modifier_lines(attack: int, damage: int) -> list[LogLine]:
    """What the modifiers counted in points add to the attack and to each damage roll, when they add anything."""
    lines = []
    if attack:
        lines.append(LogLine("Modifiers to the attack roll: {points:+d} point (in its total).", {"points": attack},
                             plural="Modifiers to the attack roll: {points:+d} points (in its total).",
                             count=abs(attack)))
    if damage:
        lines.append(LogLine("Modifiers to each damage roll: {points:+d} point.", {"points": damage},
                             plural="Modifiers to each damage roll: {points:+d} points.", count=abs(damage)))
    return lines


_MISS_LINES: Final[dict[Defence, str]] = {
    Defence.DODGE: N_("{name} dodges the attack."),
    Defence.BLOCK: N_("{name} blocks the blow."),
    Defence.DIFFICULTY: N_("The attack misses."),
}


# --- suppression fire -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SuppressionFire(Operation):
    """Full-auto bursts into an area, one per square metre: the shooter's only action this round.

    Until the round ends, anyone crossing a covered square (once per square) or standing in it (once) must
    dodge against bullets in that square × 4, or take one bullet (:class:`SuppressionDodge`).
    """

    kind = "institut_suppression"
    shooter: str
    area: str
    squares: int
    bullets_per_square: int
    weapon: str = ""
    damage: int = 0  # the weapon's damage dice, for whoever takes a bullet
    #: The shooter's own weapon ("": typed in the form), whose magazine loses squares × bullets per square.
    saved_weapon: str = field(default="", metadata=ADDED_LATER)

    def attack_record(self) -> AttackRecord | None:
        return AttackRecord(self.shooter, None, self.saved_weapon)

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        shooter = require_combatant(encounter, self.shooter)
        _require_round(encounter)
        check_may_act(shooter, encounter)
        area = self.area.strip() or _("the area")
        _check_text(area, _("The area"))
        _check_text(self.weapon, _("The weapon's name"))
        if not 1 <= self.squares <= 100 or not 1 <= self.bullets_per_square <= 200 or not 0 <= self.damage <= 40:
            raise OperationError(_("Cover 1 to 100 squares with 1 to 200 bullets each (damage 0 to 40 dice)."))
        actions = rounds.round_actions(shooter)
        if actions.taken or actions.held or actions.declared > 1:
            raise OperationError(_("Suppression fire must be {name}'s only action this round.").format(
                name=shooter.name))
        modifiers = tables(encounter).modifiers
        difficulty = self.bullets_per_square * modifiers.suppression_per_bullet
        ammunition: list[LogLine] = []
        state = _fire(encounter, shooter.id, self.saved_weapon, self.squares * self.bullets_per_square, ammunition)
        state, effect_id = state.new_id("suppression")
        marked = rounds.with_actions(state.combatant(shooter.id), rounds.RoundActions(declared=1, taken=1))
        marked = rounds.set_extra(marked, rounds.SUPPRESSION, frozen_map({
            "area": area, "difficulty": difficulty, "round": encounter.clock.round, "weapon": self.weapon,
            "damage": self.damage, "bullets": self.bullets_per_square, "squares": self.squares,
            "effect": effect_id}))
        state = state.with_combatant(marked)
        joined = rounds.suppressed_area(state, area, modifiers)
        assert joined is not None  # this shooter's fire is on it
        # State must not depend on the GM's language (a saved fight is replayed and compared on load): the name is
        # kept in English.
        effect = Effect(effect_id, _suppression_effect_name(joined), source=shooter.id,
                        expires=Timing(Hook.ROUND_END.value), remaining=1)
        state = replace(state, effects=with_item(state.effects, effect_id, effect))
        line = LogLine("{name} lays suppression fire on {area}: {squares} squares, {bullets} bullets each; "
                       "dodge difficulty {difficulty}.", {"name": shooter.name, "area": area,
                                                          "squares": self.squares,
                                                          "bullets": self.bullets_per_square,
                                                          "difficulty": difficulty})
        if len(joined.shooters) == 1:
            return Applied(state, (line, *ammunition))
        together = LogLine("{area} is under fire from {count} shooters: {bullets} bullets per square metre in all, "
                           "dodge difficulty {difficulty}.", {"area": joined.name, "count": len(joined.shooters),
                                                             "bullets": joined.bullets,
                                                             "difficulty": joined.difficulty})
        return Applied(_rename_area_effects(state, joined), (line, together, *ammunition))


def _landing_line(thrower: str, where: Landing) -> LogLine:
    """Where a missed throw lands, from the target and from the thrower (institut.md Grenades Decision)."""
    args: dict[str, LogArg] = {"metres": where.off_target, "thrower": where.from_thrower, "name": thrower,
                               "direction": HEX_DIRECTIONS[where.direction]}
    if where.clearly_short:
        return LogLine("A clearly short throw: it lands {metres} m short of the target, between {name} and the "
                       "target, {thrower} m from {name}.", args)
    return LogLine("It lands {metres} m off target, {direction}: {thrower} m from {name}.", args,
                   translate=("direction",))


def _suppression_effect_name(area: rounds.SuppressedArea) -> str:
    return N_("Suppression fire: {area} (difficulty {difficulty})").format(area=area.name,
                                                                          difficulty=area.difficulty)


def _rename_area_effects(state: Encounter, area: rounds.SuppressedArea) -> Encounter:
    """Every shooter's effect on ``area`` names the difficulty of all their fire together."""
    effects = state.effects
    for shooter in area.shooters:
        fire = rounds.suppression(state.combatant(shooter), state)
        effect_id = fire.get("effect") if fire is not None else None
        if isinstance(effect_id, str) and effect_id in effects:
            effects = with_item(effects, effect_id, replace(effects[effect_id], name=_suppression_effect_name(area)))
    return replace(state, effects=effects)


@dataclass(frozen=True)
class SuppressionDodge(Operation):
    """Someone crosses (or stands in) a suppressed square: a dodge against one shooter's difficulty, or one bullet.

    Kept so fights recorded with it replay as they were; the dialog now records
    :class:`~rules.systems.institut.crossing.CrossSuppression`, against every shooter's bullets together.
    """

    kind = "institut_suppression_dodge"
    target: str
    shooter: str
    dodge_faces: Faces
    damage_faces: Faces = ()

    def attacker_id(self) -> str | None:
        return self.shooter

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        target = require_combatant(encounter, self.target)
        shooter = require_combatant(encounter, self.shooter)
        fire = rounds.suppression(shooter, encounter)
        if fire is None:
            raise OperationError(_("{name} lays no suppression fire this round.").format(name=shooter.name))
        sides = pool_die(encounter)
        _check_faces(self.dodge_faces, sides)
        _check_faces(self.damage_faces, sides)
        difficulty = fire.get("difficulty")
        if not isinstance(difficulty, int):
            raise OperationError(_("{name}'s suppression fire has no difficulty.").format(name=shooter.name))
        dodged = sum(self.dodge_faces)
        log = [_points("{name} dodges the suppression fire on {area}: {points} point against {difficulty}.",
                       "{name} dodges the suppression fire on {area}: {points} points against {difficulty}.",
                       {"name": target.name, "area": str(fire.get("area", "")), "difficulty": difficulty}, dodged)]
        if dodged >= difficulty:
            return Applied(encounter, (*log, LogLine("{name} gets through unhurt.", {"name": target.name})))
        log.append(LogLine("{name} takes a bullet.", {"name": target.name}))
        state = _wound(encounter, system, target.id, sum(self.damage_faces), 1, log)
        return Applied(state, tuple(log))


# --- grenades ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BlastRoll:
    """One creature's damage roll from an explosion (its own cover and distance already in the dice: the grenade's
    distance table, :func:`rules.systems.institut.combat.blast_pool`); ``distance`` and ``cover`` say which, for
    the log (None: not given, as in rolls recorded before they were kept)."""

    target: str
    faces: Faces
    distance: int | None = field(default=None, metadata=ADDED_LATER)
    cover: int = field(default=0, metadata=ADDED_LATER)
    #: Points added to the roll's total: the cover, negated, when the GM's option counts modifiers in points (the
    #: faces then hold no cover).
    points: int = field(default=0, metadata=ADDED_LATER)


def _blast(state: Encounter, system: RuleSystem, rolls: Sequence[BlastRoll], log: list[LogLine]) -> Encounter:
    seen = set()
    for roll in rolls:
        require_combatant(state, roll.target)
        if roll.target in seen:
            raise OperationError(_("{name} is caught in the blast once.").format(
                name=state.combatant(roll.target).name))
        seen.add(roll.target)
        _check_faces(roll.faces, pool_die(state))
        if not -MAX_POOL <= roll.points <= MAX_POOL:
            raise OperationError(_("Modifiers in points are between −{limit} and +{limit}.").format(limit=MAX_POOL))
        log.append(_caught_line(state.combatant(roll.target).name, roll))
        state = _wound(state, system, roll.target, sum(roll.faces) + roll.points, 1, log)
    return state


def _caught_line(name: str, roll: BlastRoll) -> LogLine:
    if roll.distance is None:
        return LogLine("The blast catches {name}.", {"name": name})
    if not 0 <= roll.distance <= 999 or not -MAX_POOL <= roll.cover <= MAX_POOL:
        raise OperationError(_("A blast reaches 0 to 999 metres, and cover is at most {limit} dice.").format(
            limit=MAX_POOL))
    args: dict[str, LogArg] = {"name": name, "distance": roll.distance, "cover": roll.cover}
    if roll.points:
        return LogLine("The blast catches {name} {distance} m away, behind cover of {cover} point.", args,
                       plural="The blast catches {name} {distance} m away, behind cover of {cover} points.",
                       count=roll.cover)
    if roll.cover:
        return LogLine("The blast catches {name} {distance} m away, behind cover of {cover} die.", args,
                       plural="The blast catches {name} {distance} m away, behind cover of {cover} dice.",
                       count=roll.cover)
    return LogLine("The blast catches {name} {distance} m away.", args)


@dataclass(frozen=True)
class ThrowGrenade(Operation):
    """Athletics against the distance in metres; a miss lands (distance − roll) metres off, direction random.

    An impact grenade explodes at once (``blast``: each creature's damage roll); a timed one at the end of the
    round, after everyone has acted (a timer in the turn order, resolved with :class:`Blast`).
    """

    kind = "institut_grenade"
    thrower: str
    grenade: str
    distance: int
    throw_faces: Faces
    timed: bool
    blast: tuple[BlastRoll, ...] = ()
    held: str = ""
    #: The thrower's own grenade ("": typed in the form): the next attack dialog starts from it.
    saved_weapon: str = field(default="", metadata=ADDED_LATER)
    #: The hex direction (1–6, as a d6 picks it, :data:`HEX_DIRECTIONS`) a miss goes off in; 0: not given (throws
    #: recorded before it was kept, logged as they were).
    direction: int = field(default=0, metadata=ADDED_LATER)
    #: Modifiers the GM's option counts in points (ambush, sight), added to the throw's total.
    points: int = field(default=0, metadata=ADDED_LATER)

    def attacker_id(self) -> str | None:
        return self.thrower

    def total(self) -> int:
        """The throw's total: its dice and the modifiers counted in points."""
        return sum(self.throw_faces) + self.points

    def attack_record(self) -> AttackRecord | None:
        return AttackRecord(self.thrower, None, self.saved_weapon)

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        thrower = require_combatant(encounter, self.thrower)
        _check_faces(self.throw_faces, pool_die(encounter))
        _check_text(self.grenade, _("The grenade's name"))
        if not 0 <= self.distance <= 999:
            raise OperationError(_("A throw reaches 0 to 999 metres."))
        if self.timed and self.blast:
            raise OperationError(_("A timed grenade explodes at the end of the round, not now."))
        if not 0 <= self.direction <= 6:
            raise OperationError(_("A direction on a hex is 1 to 6."))
        if not -MAX_POOL <= self.points <= MAX_POOL:
            raise OperationError(_("Modifiers in points are between −{limit} and +{limit}.").format(limit=MAX_POOL))
        name = self.grenade.strip() or _("a grenade")
        state = _take_action(encounter, thrower, self.held)
        total = self.total()
        throw = grenade_throw(self.distance, total)
        args: dict[str, LogArg] = {"name": thrower.name, "grenade": name, "distance": self.distance}
        log = [_points("{name} throws {grenade} {distance} m: {points} point.",
                       "{name} throws {grenade} {distance} m: {points} points.", args, total),
               *_modifier_lines(self.points, 0)]
        if throw.on_target:
            log.append(LogLine("It lands where it was thrown."))
        elif not self.direction:
            log.append(LogLine("It lands {metres} m off target, in a random direction (a clearly short throw "
                               "falls short, not beyond).", {"metres": throw.deviation}))
        else:
            log.append(_landing_line(thrower.name, landing(self.distance, total, self.direction)))
        if self.timed:
            return self._set_timer(state, name, log)
        log.append(LogLine("{grenade} explodes on impact.", {"grenade": name}))
        state = _blast(state, system, self.blast, log)
        reminder = () if self.blast else (Reminder(_("Roll blast damage for everyone in the radius."), None),)
        return Applied(state, tuple(log), reminder)

    def _set_timer(self, encounter: Encounter, name: str, log: list[LogLine]) -> Applied:
        state, effect_id = encounter.new_id("grenade")
        due_round = encounter.clock.round if rounds.round_running(encounter) else encounter.clock.round + 1
        effect = Effect(effect_id, name, source=self.thrower, due=(max(1, due_round), 1, 0),
                        note=N_("explodes at the end of the round"))  # English in the state; shown translated
        state = replace(state, effects=with_item(state.effects, effect_id, effect))
        log.append(LogLine("{grenade} will explode at the end of the round.", {"grenade": name}))
        return Applied(state, tuple(log))


@dataclass(frozen=True)
class Blast(Operation):
    """An explosion's damage: one roll per creature in the radius (a timed grenade going off, a mine…)."""

    kind = "institut_blast"
    source: str
    rolls: tuple[BlastRoll, ...]

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        _check_text(self.source, _("The name"))
        if not self.rolls:
            raise OperationError(_("Nobody is caught in the blast: nothing to resolve."))
        log = [LogLine("{source} explodes.", {"source": self.source.strip() or _("The grenade")})]
        state = _blast(encounter, system, self.rolls, log)
        return Applied(state, tuple(log))

