"""Walka's operations: the seating order, the GM's call on a tie, actions, attacks, Chances, knock-downs.

Each carries everything it needs (dice faces rolled by the app or typed in by the GM), so replaying the
history gives the same result and the log can quote the dice.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Final

from rules.combatants import harm_lines
from rules.encounter import ADDED_LATER, Combatant, Encounter, SlotKind, Status, frozen_map
from rules.errors import OperationError
from rules.history import Applied, AttackRecord, LogArg, LogLine, Operation, require_combatant
from rules.systems.base import Reminder, RuleSystem
from rules.systems.walka import actions, contest, seating
from rules.systems.walka.contest import Outcome
from rules.systems.walka.skills import ATTACK_SKILLS, DEFENCE_SKILLS, defence_skill_label
from rules.systems.walka.system import CHANCE, HP, WalkaSystem, chances_left, hit_points
from rules.systems.walka.weapons import ROUNDS_PER_ATTACK
from rules.text import N_, NN_, _
from rules.turns import advance
from rules.weapons import fire

MAX_SEATS: Final[int] = 40
MAX_SEAT_NAME: Final[int] = 60
MAX_SKILL: Final[int] = 999
MAX_WEAPON_DICE: Final[int] = 100


def _walka(system: RuleSystem) -> WalkaSystem:
    if not isinstance(system, WalkaSystem):
        raise OperationError(_("This is an operation of Walka, not of this game."))
    return system


# --- the seating order --------------------------------------------------------------------------


def _checked_seats(seats: tuple[str, ...]) -> tuple[str, ...]:
    if len(seats) > MAX_SEATS:
        raise OperationError(_("At most {limit} seats around the table.").format(limit=MAX_SEATS))
    checked: list[str] = []
    for seat in seats:
        name = seat.strip()
        if not name:
            raise OperationError(_("A seat needs a name (the player's, say)."))
        if len(name) > MAX_SEAT_NAME:
            raise OperationError(_("A seat's name has at most {limit} characters.").format(limit=MAX_SEAT_NAME))
        if name.casefold() == seating.GM_SEAT.casefold():
            raise OperationError(_("“{name}” is the GM's own seat: the GM always sits there.").format(name=name))
        if name.casefold() in {other.casefold() for other in checked}:
            raise OperationError(_("Two seats cannot both be called “{name}”.").format(name=name))
        checked.append(name)
    return tuple(checked)


@dataclass(frozen=True)
class SetSeating(Operation):
    """The players' seats clockwise from the GM's left, and who sits where (``None``: the default seat).

    The seating applies to the whole encounter: it decides who rolls together and the order of play.
    """

    kind = "walka_set_seating"
    seats: tuple[str, ...]
    assignments: Mapping[str, str | None] = field(default_factory=frozen_map)

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        _walka(system)
        seats = _checked_seats(self.seats)
        state = seating.with_listed_seats(encounter, seats)
        moved: list[Combatant] = []
        for combatant_id, seat in self.assignments.items():
            combatant = require_combatant(encounter, combatant_id)
            if seat is not None and seat != seating.GM_SEAT and seat not in seats:
                raise OperationError(_("There is no seat “{seat}” at the table.").format(seat=seat))
            if combatant.seat != seat:
                moved.append(replace(combatant, seat=seat))
        if seats == seating.listed_seats(encounter) and not moved:
            raise OperationError(_("The seating is already like that."))
        for combatant in moved:
            state = state.with_combatant(combatant)
        return Applied(state, (_seating_line(seats), *(_seat_line(c) for c in moved)))


def _seating_line(seats: tuple[str, ...]) -> LogLine:
    if not seats:
        return LogLine("Seating order: no players' seats set; each player character has its own.")
    return LogLine("Seating order, clockwise from the GM's left: {seats}, then the GM.", {"seats": ", ".join(seats)})


def _seat_line(combatant: Combatant) -> LogLine:
    if combatant.seat == seating.GM_SEAT:
        return LogLine("The GM now acts for {name}.", {"name": combatant.name})
    if combatant.seat is None:
        return LogLine("{name} goes back to the seat it has by default.", {"name": combatant.name})
    return LogLine("{seat}'s seat now acts for {name}.", {"name": combatant.name, "seat": combatant.seat})


# --- the GM's call on a tie -----------------------------------------------------------------------


@dataclass(frozen=True)
class DecideGmTie(Operation):
    """The GM ties with players for the lowest roll: the GM decides which side goes first.

    If nobody has acted yet this round, the round starts again from the seat the decision puts first.
    """

    kind = "walka_gm_tie"
    players_first: bool

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        walka = _walka(system)
        reroll = walka.reroll_each_round(encounter)
        if walka.order(encounter).tie is None:
            raise OperationError(_("There is no tie between the GM and the players to decide."))
        if seating.decision(encounter, reroll) == self.players_first:
            raise OperationError(_("That is already the GM's decision."))
        state = seating.with_decision(encounter, self.players_first)
        text = (N_("The GM decides the tie: the players' side goes first.") if self.players_first
                else N_("The GM decides the tie: the GM's side goes first."))
        decided = Applied(state, (LogLine(text),))
        clock = state.clock
        slots = walka.remaining_slots(state)
        just_begun = clock.current is not None and clock.current.kind is SlotKind.ACTORS and not clock.acted
        if just_begun and slots and slots[0] != clock.current:
            return decided.then(advance(state.with_clock(current=None), system))
        return decided


# --- actions ---------------------------------------------------------------------------------------

#: The lines that count squares, as singular/plural pairs.
_COUNTED_LINES: Final[dict[str, tuple[str, str]]] = {
    actions.MOVE: NN_("{name} moves {count} square ({metres} m).", "{name} moves {count} squares ({metres} m)."),
    actions.RUN: NN_("{name} runs {count} square ({metres} m).", "{name} runs {count} squares ({metres} m)."),
}
#: The longest event a Prepare may name (a phrase, not a note).
MAX_EVENT: Final[int] = 200
_ACTION_LINES: Final[dict[str, str]] = {
    actions.ATTACK: N_("{name} attacks (resolved at the table)."),
    actions.CHANGE_WEAPON: N_("{name} changes weapon; an attack this round takes a penalty die."),
    actions.NON_COMBAT: N_("{name} takes a non-combat action."),
    actions.STAND_UP: N_("{name} stands up."),
    actions.PREPARE: N_("{name} prepares an action: one advantage die on it next round."),
    actions.AIM: N_("{name} aims: the next attack's damage pool is doubled."),
}


@dataclass(frozen=True)
class WalkaAction(Operation):
    """One of the combatant's two actions this round (move, run, change weapon, stand up, prepare, aim…)."""

    kind = "walka_action"
    combatant_id: str
    action: str
    #: A Move of fewer squares than 5 (0: the whole 5; walka.md Decision: "5 squares is the most per Move").
    squares: int = field(default=0, metadata=ADDED_LATER)
    #: What a Prepare is declared for (walka.md: "do konkretnego wydarzenia", for a specific event); "": unnamed.
    event: str = field(default="", metadata=ADDED_LATER)

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        combatant = require_combatant(encounter, self.combatant_id)
        kind = actions.check_kind(self.action)
        self._check_squares(kind, _walka(system), encounter)
        updated = system.spend_action(combatant, kind, encounter)
        moves = actions.cost(kind, 1) if kind in (actions.MOVE, actions.RUN) else 0
        squares = self.squares or moves * actions.SQUARES_PER_MOVE
        if self.squares:
            updated = actions.moved_short(updated, self.squares)
        event = self._event(kind)
        if event:
            updated = actions.name_prepared(updated, encounter, event)
        metres = squares * actions.METRES_PER_MOVE // actions.SQUARES_PER_MOVE
        args: dict[str, LogArg] = {"name": combatant.name, "count": squares, "metres": metres}
        if kind in _COUNTED_LINES:
            singular, plural = _COUNTED_LINES[kind]
            line = LogLine(singular, args, plural=plural, count=squares)
        elif event:
            line = LogLine("{name} prepares for “{event}”: one advantage die on it next round.",
                           {**args, "event": event})
        elif kind == actions.AIM and actions.aimed_now(combatant, encounter, _walka(system).aim_lasts(encounter)):
            line = LogLine(N_("{name} aims again: the next attack's damage pool is doubled again.")
                           if _walka(system).aim_again(encounter) else
                           N_("{name} aims again: a second Aim does not double the pool again."), args)
        else:
            line = LogLine(_ACTION_LINES[kind], args)
        return Applied(encounter.with_combatant(updated), (line,))

    def _event(self, kind: str) -> str:
        event = " ".join(self.event.split())
        if event and kind != actions.PREPARE:
            raise OperationError(_("Only a Prepare names an event."))
        if len(event) > MAX_EVENT:
            raise OperationError(_("An event is named in at most {limit} characters.").format(limit=MAX_EVENT))
        return event

    def _check_squares(self, kind: str, walka: WalkaSystem, encounter: Encounter) -> None:
        if not self.squares:
            return
        if kind != actions.MOVE:
            raise OperationError(_("Only a Move may cover fewer squares."))
        if not 1 <= self.squares <= actions.SQUARES_PER_MOVE:
            raise OperationError(_("A Move covers 1 to {most} squares.").format(most=actions.SQUARES_PER_MOVE))
        if walka.move_exactly(encounter) and self.squares != actions.SQUARES_PER_MOVE:
            raise OperationError(_("A Move is exactly {most} squares in this encounter (encounter settings).")
                                 .format(most=actions.SQUARES_PER_MOVE))


@dataclass(frozen=True)
class SetKnockedDown(Operation):
    """The combatant is knocked down (must stand up before fighting again), or back on its feet."""

    kind = "walka_knock_down"
    combatant_id: str
    down: bool = True

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        combatant = require_combatant(encounter, self.combatant_id)
        if actions.knocked_down(combatant) == self.down:
            text = _("{name} is already knocked down.") if self.down else _("{name} is already standing.")
            raise OperationError(text.format(name=combatant.name))
        updated = actions.with_extra(combatant, actions.KNOCKED_DOWN, True if self.down else None)
        text = N_("{name} is knocked down.") if self.down else N_("{name} is back on their feet.")
        return Applied(encounter.with_combatant(updated), (LogLine(text, {"name": combatant.name}),))


@dataclass(frozen=True)
class SetDying(Operation):
    """The GM says a character at 0 Hit Points is dying, or that a team-mate has stabilised them (walka.md
    Decision: the chapter defines no dying state, "any such state is a GM-set status")."""

    kind = "walka_set_dying"
    combatant_id: str
    dying: bool = True

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        combatant = require_combatant(encounter, self.combatant_id)
        if actions.dying(combatant) == self.dying:
            text = _("{name} is already dying.") if self.dying else _("{name} is not dying.")
            raise OperationError(text.format(name=combatant.name))
        if self.dying and system.status(combatant, encounter) is not Status.UNCONSCIOUS:
            raise OperationError(_("Only a character unconscious at 0 Hit Points can be dying ({name} is not).")
                                 .format(name=combatant.name))
        updated = actions.with_extra(combatant, actions.DYING, True if self.dying else None)
        text = N_("{name} is dying.") if self.dying else N_("{name} is stabilised.")
        return Applied(encounter.with_combatant(updated), (LogLine(text, {"name": combatant.name}),))


# --- Chances -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SpendChance(Operation):
    """At 0 Hit Points the character falls unconscious unless the player spends a Chance: this spends it."""

    kind = "walka_spend_chance"
    combatant_id: str

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        combatant = require_combatant(encounter, self.combatant_id)
        if hit_points(combatant) > 0:
            raise OperationError(_("{name} still has Hit Points: a Chance is spent at 0.").format(
                name=combatant.name))
        if actions.holding_on(combatant):
            raise OperationError(_("{name} already stays conscious thanks to a Chance.").format(name=combatant.name))
        if chances_left(combatant) < 1:
            raise OperationError(_("{name} has no Chance left.").format(name=combatant.name))
        pool = combatant.pools[CHANCE]
        updated = actions.with_extra(combatant.with_pool(CHANCE, replace(pool, spent=pool.spent + 1)),
                                     actions.HOLDING_ON, True)
        state = encounter.with_combatant(updated)
        line = LogLine("{name} spends a Chance and stays conscious at 0 Hit Points.", {"name": combatant.name})
        return Applied(state, (line, *_status_lines(system, combatant, updated, state)))


def _status_lines(system: RuleSystem, before: Combatant, after: Combatant, state: Encounter) -> tuple[LogLine, ...]:
    return harm_lines(system, before, after, "", 0, state)[1:]


# --- attacks -------------------------------------------------------------------------------------------


#: The damage pool's log line by the aim ("", "once", "twice") and whether the doubling came before the armor
#: (whole sentences: each language words the sum its own way).
_POOL_LINES: Final[dict[tuple[str, bool], tuple[str, str]]] = {
    ("twice", True): NN_("Damage pool {pool}d6 (({weapon}{modifier}) × 4 − armor {armor}, aimed twice): {faces} "
                         "removes {count} Hit Point.",
                         "Damage pool {pool}d6 (({weapon}{modifier}) × 4 − armor {armor}, aimed twice): {faces} "
                         "removes {count} Hit Points."),
    ("twice", False): NN_("Damage pool {pool}d6 (({weapon}{modifier} − armor {armor}) × 4, aimed twice): {faces} "
                          "removes {count} Hit Point.",
                          "Damage pool {pool}d6 (({weapon}{modifier} − armor {armor}) × 4, aimed twice): {faces} "
                          "removes {count} Hit Points."),
    ("once", True): NN_("Damage pool {pool}d6 (({weapon}{modifier}) × 2 − armor {armor}, aimed): {faces} removes "
                        "{count} Hit Point.",
                        "Damage pool {pool}d6 (({weapon}{modifier}) × 2 − armor {armor}, aimed): {faces} removes "
                        "{count} Hit Points."),
    ("once", False): NN_("Damage pool {pool}d6 (({weapon}{modifier} − armor {armor}) × 2, aimed): {faces} removes "
                         "{count} Hit Point.",
                         "Damage pool {pool}d6 (({weapon}{modifier} − armor {armor}) × 2, aimed): {faces} removes "
                         "{count} Hit Points."),
    ("", False): NN_("Damage pool {pool}d6 ({weapon}{modifier} − armor {armor}): {faces} removes {count} Hit Point.",
                     "Damage pool {pool}d6 ({weapon}{modifier} − armor {armor}): {faces} removes {count} Hit Points."),
}


@dataclass(frozen=True)
class WalkaAttack(Operation):
    """A resolved attack: the opposed roll-under test, then the damage pool on the target's Hit Points.

    ``defence`` is the defence skill rolled, or "" when the defender does not roll (unaware or immobile).
    The bonus and penalty dice are the totals each side rolled with (situation, second attack, prepared
    action); ``prepared`` and ``aimed`` say whether a prepared action's advantage die and an aim were used
    (both are used up). ``counts_as_action`` spends one of the attacker's actions this round.
    """

    kind = "walka_attack"
    attacker: str
    target: str
    skill: str
    attack_skill: int
    defence: str
    defence_skill: int
    attack_faces: tuple[int, ...]
    defence_faces: tuple[int, ...] = ()
    die: int = 20
    attack_bonus: int = 0
    attack_penalty: int = 0
    defence_bonus: int = 0
    defence_penalty: int = 0
    weapon: str = ""
    weapon_dice: int = 0
    damage_modifier: int = 0
    armor: int = 0
    aimed: bool = False
    prepared: bool = False
    damage_faces: tuple[int, ...] = ()
    counts_as_action: bool = True
    #: The defender used an advantage die it prepared last round (walka.md: "on the prepared action, whatever it
    #: is (attack, defence or another test)"): used up like the attacker's.
    defence_prepared: bool = field(default=False, metadata=ADDED_LATER)
    #: A d100's bonus and penalty dice were rolled as extra tens dice (walka.md Decision, the test die option).
    tens: bool = field(default=False, metadata=ADDED_LATER)
    #: A second Aim before this attack doubled the pool again (× 4; walka.md Decision, only where the option says so).
    aimed_twice: bool = field(default=False, metadata=ADDED_LATER)

    def attacker_id(self) -> str | None:
        return self.attacker

    def attack_record(self) -> AttackRecord:
        return AttackRecord(self.attacker, self.target, self.weapon)

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        walka = _walka(system)
        attacker, target = require_combatant(encounter, self.attacker), require_combatant(encounter, self.target)
        under = walka.strictly_under(encounter)
        self._validate(walka, encounter, attacker, target, under)
        outcome = self.outcome(under)
        before_armor = walka.aim_before_armor(encounter)
        if outcome is not Outcome.HIT and self.damage_faces:
            raise OperationError(_("No damage dice: the attack did not hit."))
        if outcome is Outcome.HIT:
            contest.check_damage_faces(self.damage_faces, self.pool(before_armor))
        fired = fire(encounter, self.attacker, self.weapon, ROUNDS_PER_ATTACK)
        state = fired.with_combatant(self._spent(walka, encounter, fired.combatant(self.attacker)))
        if self.defence_prepared and self.defence:
            state = state.with_combatant(actions.use_prepared_die(state.combatant(self.target), encounter))
        log = [self._opening(attacker, target), *self._rolls(attacker, target, under), _outcome_line(outcome, target)]
        if outcome is not Outcome.HIT:
            return Applied(state, tuple(log))
        return self._damage(system, state, log, before_armor)

    # --- checks -----------------------------------------------------------------------------
    def _validate(self, walka: WalkaSystem, encounter: Encounter, attacker: Combatant, target: Combatant,
                  under: bool) -> None:
        if attacker.id == target.id:
            raise OperationError(_("{name} cannot attack themself.").format(name=attacker.name))
        if walka.status(attacker, encounter) is not Status.ACTIVE:
            raise OperationError(_("{name} is unconscious and cannot attack.").format(name=attacker.name))
        if actions.knocked_down(attacker) and actions.ATTACK in walka.down_forbids(encounter):
            actions.refuse_while_down(attacker, actions.ATTACK)
        self._validate_skills(walka, encounter)
        if self.die not in contest.TEST_DICE:
            raise OperationError(_("A Walka test rolls a d20 or a d100, not a d{sides}.").format(sides=self.die))
        contest.check_tens(self.die, self.tens)
        if self.aimed_twice and not (self.aimed and walka.aim_again(encounter)):
            raise OperationError(_("A second Aim before the same attack does not double the pool again (encounter "
                                   "settings)."))
        contest.check_extra_dice(self.attack_bonus, self.attack_penalty)
        contest.check_extra_dice(self.defence_bonus, self.defence_penalty)
        contest.check_faces(self.attack_faces, self.die, self.attack_bonus, self.attack_penalty, attacker.name,
                            self.tens)
        attack_succeeds = contest.succeeds(self.attack_kept(), contest.threshold(self.attack_skill, under))
        if self.defence and (self.defence_faces or attack_succeeds):
            # The defence roll only matters once the attacker succeeds; a failed attack needs no defence dice.
            contest.check_faces(self.defence_faces, self.die, self.defence_bonus, self.defence_penalty, target.name,
                                self.tens)
        elif self.defence_faces:
            raise OperationError(_("{name} does not defend, so rolls no dice.").format(name=target.name))
        if not 0 <= self.weapon_dice <= MAX_WEAPON_DICE or abs(self.damage_modifier) > MAX_WEAPON_DICE or not (
                0 <= self.armor <= MAX_WEAPON_DICE):
            raise OperationError(_("Weapon dice, modifiers and armor must be between 0 and {limit}.").format(
                limit=MAX_WEAPON_DICE))

    def _validate_skills(self, walka: WalkaSystem, encounter: Encounter) -> None:
        if self.skill not in ATTACK_SKILLS:
            raise OperationError(_("Unknown attack skill {skill!r}.").format(skill=self.skill))
        for value in (self.attack_skill, self.defence_skill):
            if not -MAX_SKILL <= value <= MAX_SKILL:
                raise OperationError(_("A skill must be between −{limit} and {limit}.").format(limit=MAX_SKILL))
        if not self.defence:
            return
        allowed = walka.defences(encounter).get(self.skill, ())
        if self.defence not in DEFENCE_SKILLS or self.defence not in allowed:
            names = ", ".join(defence_skill_label(key) for key in allowed) or _("none")
            raise OperationError(_("{defence} does not answer {skill}; it can be answered with: {names}.").format(
                defence=defence_skill_label(self.defence), skill=_(ATTACK_SKILLS[self.skill]), names=names))

    # --- the test ---------------------------------------------------------------------------
    def attack_kept(self) -> int:
        """The attacker's die that counts."""
        return contest.kept_face(self.attack_faces, self.attack_bonus, self.attack_penalty)

    def defence_kept(self) -> int | None:
        """The defender's die that counts (None: the defender does not roll, or needed not to)."""
        if not self.defence or not self.defence_faces:
            return None
        return contest.kept_face(self.defence_faces, self.defence_bonus, self.defence_penalty)

    def outcome(self, strictly_under: bool = False) -> Outcome:
        """Missed, defended or hit (``strictly_under``: the option that a roll must be under the skill)."""
        return contest.contest(self.attack_kept(), contest.threshold(self.attack_skill, strictly_under),
                               self.defence_kept(), contest.threshold(self.defence_skill, strictly_under))

    def pool(self, aim_before_armor: bool = False) -> int:
        """The damage pool in d6 (``aim_before_armor``: the option's other reading of an aim)."""
        return contest.damage_pool(self.weapon_dice, self.damage_modifier, self.armor, self.aimed, aim_before_armor,
                                   self.aimed_twice)

    def _spent(self, walka: WalkaSystem, encounter: Encounter, attacker: Combatant) -> Combatant:
        """The attacker after the attack: one action spent (if it counts), aim and prepared die used up."""
        updated = walka.spend_action(attacker, actions.ATTACK, encounter) if self.counts_as_action else attacker
        if actions.aimed_now(attacker, encounter, walka.aim_lasts(encounter)):
            updated = actions.with_extra(updated, actions.AIMED, None)  # the next attack uses the aim, or loses it
            updated = actions.with_extra(updated, actions.AIMED_TWICE, None)
        if self.prepared:
            updated = actions.use_prepared_die(updated, encounter)
        return updated

    # --- the log ----------------------------------------------------------------------------
    def _opening(self, attacker: Combatant, target: Combatant) -> LogLine:
        args: dict[str, LogArg] = {"attacker": attacker.name, "target": target.name,
                                   "weapon": self.weapon or _("a weapon"), "skill": ATTACK_SKILLS[self.skill],
                                   "value": self.attack_skill, "die": self.die}
        if not self.defence:
            return LogLine("{attacker} attacks {target} with {weapon} (d{die}, {skill} {value}); {target} is "
                           "unaware or immobile and does not defend.", args, translate=("skill",))
        args.update(defence=DEFENCE_SKILLS[self.defence], defence_value=self.defence_skill)
        return LogLine("{attacker} attacks {target} with {weapon} (d{die}, {skill} {value} against {defence} "
                       "{defence_value}).", args, translate=("skill", "defence"))

    def _rolls(self, attacker: Combatant, target: Combatant, under: bool) -> list[LogLine]:
        lines = [_roll_line(attacker.name, self.attack_faces, self.attack_kept(), self.attack_skill, under)]
        kept = self.defence_kept()
        if kept is not None:
            lines.append(_roll_line(target.name, self.defence_faces, kept, self.defence_skill, under))
        return lines

    def _damage(self, system: RuleSystem, state: Encounter, log: list[LogLine], before_armor: bool) -> Applied:
        target = state.combatant(self.target)
        removed = contest.hit_points_removed(self.damage_faces)
        log.append(self._pool_line(removed, before_armor))
        if not removed:
            return Applied(state, tuple(log))
        hurt = system.apply_harm(target, HP, removed, state)
        state = state.with_combatant(hurt)
        log += harm_lines(system, target, hurt, "", removed, state)[1:]
        reminders: tuple[Reminder, ...] = ()
        if system.status(hurt, state) is Status.UNCONSCIOUS and chances_left(hurt):
            reminders = (Reminder(_("{name} drops to 0 Hit Points: spend a Chance to stay conscious?").format(
                name=hurt.name), hurt.id),)
        return Applied(state, tuple(log), reminders)

    def _pool_line(self, removed: int, before_armor: bool) -> LogLine:
        modifier = self.damage_modifier
        args: dict[str, LogArg] = {"pool": self.pool(before_armor), "weapon": self.weapon_dice, "armor": self.armor,
                                   "modifier": f" + {modifier}" if modifier > 0 else (
                                       f" − {-modifier}" if modifier < 0 else ""), "count": removed,
                                   "faces": ", ".join(str(face) for face in self.damage_faces) or "–"}
        aim = "twice" if self.aimed_twice else ("once" if self.aimed else "")
        text, plural = _POOL_LINES[(aim, before_armor and bool(aim))]
        return LogLine(text, args, plural=plural, count=removed)


def _roll_line(name: str, faces: tuple[int, ...], kept: int, skill: int, under: bool) -> LogLine:
    result = N_("success") if contest.succeeds(kept, contest.threshold(skill, under)) else N_("failure")
    args: dict[str, LogArg] = {"name": name, "kept": kept, "skill": skill, "result": result,
                               "faces": ", ".join(str(face) for face in faces)}
    if len(faces) == 1:
        return LogLine("{name} rolls {kept} against {skill}: {result}.", args, translate=("result",))
    return LogLine("{name} rolls {faces} and keeps {kept} against {skill}: {result}.", args, translate=("result",))


def _outcome_line(outcome: Outcome, target: Combatant) -> LogLine:
    if outcome is Outcome.MISSED:
        return LogLine("The attack misses.")
    if outcome is Outcome.DEFENDED:
        return LogLine("{name} defends: the lowest successful roll wins, a tie goes to the defender.",
                       {"name": target.name})
    return LogLine("The attack hits.")
