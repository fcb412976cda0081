"""One Člověk roll with everything that follows from it, as one operation: :class:`ClovekCheck`.

The roller's dice come out of the bank (an action keeps to the turn's one type; a bonus action burns a stun
wound), an optional defender's reaction dice come out of theirs and its successes are taken off, then the
successes after bonuses and penalties give the outcome word, a practice point, the power roll, wounds on the
target's track and progress on a long action. The faces are carried in the operation, so a replay is exact.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rules.combatants import harm_lines
from rules.dice import format_faces
from rules.encounter import ADDED_LATER, Combatant, Encounter
from rules.errors import OperationError
from rules.history import Applied, AttackRecord, LogLine, Operation, require_combatant
from rules.systems.base import RuleSystem
from rules.systems.clovek.banks import BANK_WORDS, check_bank
from rules.systems.clovek.dice import DEFAULT_ROLL_RULES, ClovekTest, RollRules, SkillKind
from rules.systems.clovek.economy import ACTION, burn_stun, check_role, grant_of, spend_dice, take_action
from rules.systems.clovek.long_actions import add_roll, find_long_action, with_long_action
from rules.systems.clovek.ops import bonus_line
from rules.systems.clovek.rolls import (
    POWER_CRITICAL_RANGE,
    TOTAL_SUCCESS,
    CheckResult,
    PowerResult,
    PowerSource,
    evaluate_check,
    power_source,
    resolve_power,
    roll_rules,
    skill_kind,
)
from rules.text import _
from rules.weapons import MAX_WEAPON_NAME, ROUNDS, fire

Chains = tuple[tuple[int, ...], ...]
MAX_MODIFIER = 50
MAX_NAME = 200


def _check_modifiers(*values: int) -> None:
    if any(not 0 <= value <= MAX_MODIFIER for value in values):
        raise OperationError(_("Bonuses and penalties are whole numbers from 0 to {limit}.").format(
            limit=MAX_MODIFIER))


@dataclass(frozen=True)
class SkillRoll:
    """A skill roll: which bank pays, the faces rolled, the skill and the bonuses and penalties to successes."""

    bank: str
    faces: Chains
    skill: int
    skill_kind: SkillKind = SkillKind.ABILITY
    supernatural: bool = False
    skill_name: str = ""
    bonus: int = 0
    penalty: int = 0

    def checked(self, rules: RollRules = DEFAULT_ROLL_RULES) -> Chains:
        """The faces as read (0 is 10), after checking every die and its rerolls; DiceError if wrong."""
        check_bank(self.bank)
        _check_modifiers(self.bonus, self.penalty)
        if not 0 <= self.skill <= 20:
            raise OperationError(_("A skill has 0 to 20 dots."))
        if len(self.skill_name) > MAX_NAME:
            raise OperationError(_("A skill's name has at most {limit} characters.").format(limit=MAX_NAME))
        if not self.faces:
            raise OperationError(_("Every activity needs at least one die."))
        test = ClovekTest(len(self.faces), self.skill, skill_kind(self.skill_kind), self.supernatural, rules)
        return test.from_chains(self.faces).faces

    def result(self, rules: RollRules = DEFAULT_ROLL_RULES) -> CheckResult:
        """Successes, outcome, critical failure and practice point, under the encounter's reading of the rules."""
        return evaluate_check(self.checked(rules), self.skill, skill_kind(self.skill_kind), self.supernatural,
                              self.bonus, self.penalty, rules)


@dataclass(frozen=True)
class PowerRoll:
    """The power roll of a successful action: as many dice as its successes, against ``value``."""

    source: PowerSource
    value: int
    faces: Chains
    bonus: int = 0
    penalty: int = 0
    drop_base: bool = False
    name: str = ""  # the capacity attribute or the item ("Constitution", "heavy pistol")

    def result(self, dice: int, critical_range: int, rules: RollRules = DEFAULT_ROLL_RULES) -> PowerResult:
        """Check that ``dice`` dice were rolled and work the power out."""
        _check_modifiers(self.bonus, self.penalty)
        if not 0 <= self.value <= 20 or len(self.name) > MAX_NAME:
            raise OperationError(_("A power value is from 0 to 20."))
        if len(self.faces) != dice:
            raise OperationError(_("The power roll takes one die per success: {needed}, not {typed}.").format(
                needed=dice, typed=len(self.faces)))
        faces = ClovekTest(dice, self.value, SkillKind.ABILITY, rules=rules).from_chains(self.faces).faces
        return resolve_power(power_source(self.source), self.value, faces, self.bonus, self.penalty, self.drop_base,
                             critical_range, rules)


@dataclass(frozen=True)
class ClovekCheck(Operation):
    """A roll: an action or a reaction, optionally against a target who defends, with power and its wounds.

    ``track`` is the target's track the power goes on as wounds ("" = none); ``long_action`` names the
    roller's long action this roll adds to (it burns one stun wound of the action's type first). ``weapon`` names
    the roller's saved weapon the roll was made with ("" = typed in the form): a firearm's roll fires one round
    (Člověk has no bursts), refused when none is loaded.
    """

    kind = "clovek_check"
    combatant_id: str
    test: SkillRoll
    role: str = ACTION
    power: PowerRoll | None = None
    target: str | None = None
    defence: SkillRoll | None = None
    track: str = ""
    long_action: str = ""
    free_bonus_action: bool = False  # an older fight's "without burning" (before ``extra_action``)
    weapon: str = field(default="", metadata=ADDED_LATER)
    #: What grants an action after the first (see :class:`~rules.systems.clovek.ops.ClovekSpend`).
    extra_action: str | None = field(default=None, metadata=ADDED_LATER)

    def attacker_id(self) -> str | None:
        return self.combatant_id if self.target is not None else None

    def attack_record(self) -> AttackRecord | None:
        """An attack is a roll at a target or with a weapon; a stealth roll is none (the next attack starts from
        the one before it)."""
        if self.target is None and not self.weapon:
            return None
        return AttackRecord(self.combatant_id, self.target, self.weapon)

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        actor = require_combatant(encounter, self.combatant_id)
        check_role(self.role)
        self._check_target(encounter)
        rules = roll_rules(system, encounter)
        attack = self.test.result(rules)
        defence = self.defence.result(rules) if self.defence is not None else None
        state, log = self._pay(encounter, system, actor)
        state, rounds_left = self._fire(state)
        log += [*_roll_lines(actor.name, self.test, attack), *rounds_left]
        net = attack.successes
        if defence is not None and self.defence is not None and self.target is not None:
            defender = state.combatant(self.target)
            log += _roll_lines(defender.name, self.defence, defence)
            net = attack.successes - max(0, defence.successes) if attack.succeeded else attack.successes
            log.append(_net_line(defender.name, net, attack.succeeded))
        power = self._power(net, system, encounter)
        if power is not None and self.power is not None:
            log += _power_lines(actor.name, self.power, power)
        state, harm = self._harm(state, system, power)
        state, progress = self._progress(state, net > 0, attack.critical, power)
        return Applied(state, (*log, *harm, *progress))

    # --- checks -----------------------------------------------------------------------------------
    def _check_target(self, encounter: Encounter) -> None:
        if self.target is None:
            if self.defence is not None or self.track:
                raise OperationError(_("A defence or wounds need a target."))
            return
        require_combatant(encounter, self.target)
        if self.target == self.combatant_id:
            raise OperationError(_("A character cannot target themselves."))

    def _power(self, net: int, system: RuleSystem, encounter: Encounter) -> PowerResult | None:
        if self.power is None:
            if net > 0 and (self.track or self.long_action):
                raise OperationError(_("Roll the power: one die per success that got through."))
            return None
        if net <= 0:
            raise OperationError(_("The action failed: there is no power to roll."))
        critical_range = system.option(encounter, "power_critical_range")
        span = critical_range if isinstance(critical_range, int) else POWER_CRITICAL_RANGE
        return self.power.result(net, span, roll_rules(system, encounter))

    # --- consequences -----------------------------------------------------------------------------
    def _fire(self, state: Encounter) -> tuple[Encounter, tuple[LogLine, ...]]:
        """One round out of the weapon's magazine (a weapon without one: nothing counted)."""
        if len(self.weapon) > MAX_WEAPON_NAME:
            raise OperationError(_("A weapon's name has at most {limit} characters.").format(limit=MAX_WEAPON_NAME))
        fired = fire(state, self.combatant_id, self.weapon, 1)
        if fired is state:
            return state, ()
        fired_weapon = fired.combatant(self.combatant_id).weapon(self.weapon)
        left = fired_weapon.number(ROUNDS) if fired_weapon is not None else 0
        return fired, (LogLine("{weapon}: {count} round left.", {"weapon": self.weapon, "count": left},
                               plural="{weapon}: {count} rounds left.", count=left),)

    def _pay(self, encounter: Encounter, system: RuleSystem, actor: Combatant) -> tuple[Encounter, list[LogLine]]:
        """The dice of the roll (and of the defence), the bonus action's and the long action's stun."""
        log: list[LogLine] = []
        if self.role == ACTION:
            grant = grant_of(self.extra_action, self.free_bonus_action, encounter, system)
            actor, burnt = take_action(actor, self.test.bank, encounter, grant)
            if burnt:
                log.append(bonus_line(actor.name, self.test.bank))
        if self.long_action:
            action = find_long_action(actor, self.long_action)
            if action.bank != self.test.bank:
                raise OperationError(_("“{action}” is a {bank} long action: roll {bank} dice for it.").format(
                    action=action.name, bank=_(BANK_WORDS[action.bank])))
            actor = burn_stun(actor, action.bank, 1, encounter)
            log.append(LogLine("{name} burns a {bank} stun wound for a roll of “{action}”.",
                               {"name": actor.name, "bank": BANK_WORDS[action.bank], "action": action.name},
                               translate=("bank",)))
        state = encounter.with_combatant(spend_dice(actor, self.test.bank, len(self.test.faces)))
        if self.defence is not None and self.target is not None:
            defender = state.combatant(self.target)
            state = state.with_combatant(spend_dice(defender, self.defence.bank, len(self.defence.faces)))
        return state, log

    def _harm(self, state: Encounter, system: RuleSystem, power: PowerResult | None) -> tuple[
            Encounter, tuple[LogLine, ...]]:
        if not self.track or self.target is None or power is None:
            return state, ()
        target = state.combatant(self.target)
        labels = {spec.key: spec.label for spec in system.tracks(target, state)}
        if self.track not in labels:
            raise OperationError(_("{name} has no condition track {track!r}.").format(name=target.name,
                                                                                     track=self.track))
        if not power.lasting:
            return state, ()  # the power line already says it had no lasting effect
        hurt = system.apply_harm(target, self.track, power.total, state)
        state = state.with_combatant(hurt)
        return state, harm_lines(system, target, hurt, labels[self.track], power.total, state)

    def _progress(self, state: Encounter, succeeded: bool, critical: bool, power: PowerResult | None) -> tuple[
            Encounter, tuple[LogLine, ...]]:
        if not self.long_action:
            return state, ()
        actor = state.combatant(self.combatant_id)
        action = add_roll(find_long_action(actor, self.long_action), succeeded, critical,
                          power.total if power is not None else 0)
        state = state.with_combatant(with_long_action(actor, action))
        args: dict[str, str | int] = {"action": action.name, "power": action.power, "target": action.target}
        if critical:
            return state, (LogLine("Critical failure: “{action}” loses all its power.", args),)
        if action.power >= action.target:
            return state, (LogLine("“{action}” is complete: {power} of {target} power.", args),)
        return state, (LogLine("“{action}”: {power} of {target} power so far.", args),)


# --- log lines ----------------------------------------------------------------------------------------------


def _roll_lines(name: str, test: SkillRoll, result: CheckResult) -> list[LogLine]:
    count = len(test.faces)
    args: dict[str, str | int] = {"name": name, "count": count, "bank": BANK_WORDS[test.bank], "dots": test.skill,
                                  "faces": format_faces(test.faces), "skill": test.skill_name}
    if test.skill_name:
        roll = LogLine("{name} rolls {skill} (skill {dots}) with {count} {bank} die: {faces}.", args,
                       plural="{name} rolls {skill} (skill {dots}) with {count} {bank} dice: {faces}.", count=count,
                       translate=("bank",))
    else:
        roll = LogLine("{name} rolls skill {dots} with {count} {bank} die: {faces}.", args,
                       plural="{name} rolls skill {dots} with {count} {bank} dice: {faces}.", count=count,
                       translate=("bank",))
    lines = [roll, _successes_line(test, result)]
    if result.successes >= TOTAL_SUCCESS:
        lines.append(LogLine("A total success may give {name} a temporary advantage.", {"name": name}))
    if result.practice:
        what = test.skill_name or _("the skill")
        lines.append(LogLine("{name} may mark a practice point on {skill}.", {"name": name, "skill": what}))
    return lines


def _successes_line(test: SkillRoll, result: CheckResult) -> LogLine:
    args: dict[str, str | int] = {"count": result.rolled, "final": result.successes, "outcome": result.outcome,
                                  "bonus": test.bonus, "penalty": test.penalty}
    if test.bonus or test.penalty:
        return LogLine("{count} success on the dice, {final} with +{bonus} − {penalty}: {outcome}.", args,
                       plural="{count} successes on the dice, {final} with +{bonus} − {penalty}: {outcome}.",
                       count=result.rolled, translate=("outcome",))
    return LogLine("{count} success: {outcome}.", args, plural="{count} successes: {outcome}.",
                   count=result.rolled, translate=("outcome",))


def _net_line(defender: str, net: int, attack_succeeded: bool) -> LogLine:
    if not attack_succeeded:
        return LogLine("The action fails; {name}'s defence is not needed.", {"name": defender})
    if net <= 0:
        return LogLine("{name} fends it off.", {"name": defender})
    return LogLine("{count} success gets through {name}'s defence.", {"name": defender, "count": net},
                   plural="{count} successes get through {name}'s defence.", count=net)


def _power_lines(name: str, roll: PowerRoll, power: PowerResult) -> Sequence[LogLine]:
    args: dict[str, str | int] = {"total": power.total, "base": power.base, "rolled": power.rolled,
                                  "bonus": power.bonus, "penalty": power.penalty, "faces": format_faces(roll.faces),
                                  "name": name, "what": roll.name or _("the attribute")}
    if power.critical:
        lines = [LogLine("Power roll {faces}: critical failure, power 1 − {penalty} = {total}.", args)]
        if power.practice:
            lines.append(LogLine("{name} may mark a practice point on {what}.", args))
    else:
        lines = [LogLine("Power roll {faces}: {total} = base {base} + {rolled} rolled + {bonus} − {penalty}.", args)]
    if not power.lasting:
        lines.append(LogLine("The action succeeds but has no lasting effect."))
    return lines

