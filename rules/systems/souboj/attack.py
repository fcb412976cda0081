"""Souboj attacks as operations: one resolved attack (dice included) and finishing off a dying creature.

The attack carries every number the dialog showed the GM (the sums added to each 1d6, Strength, armor, the
attacker's level) and the two faces, so a replay gives the same result and the log can quote it all.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from rules.combatants import harm_lines
from rules.encounter import ADDED_LATER, Combatant, Encounter, Status
from rules.errors import OperationError
from rules.history import Applied, AttackRecord, LogArg, LogLine, Operation, require_combatant
from rules.systems.base import Reminder, RuleSystem
from rules.systems.souboj import acting, condition
from rules.systems.souboj.combat import base_damage, critical_multiplier, damage_from_base
from rules.systems.souboj.model import CAUSE_LABELS, KIND_LABELS, SHADOW, WOUNDS, Cause, Kind, marked_dead
from rules.systems.souboj.system import tables
from rules.text import N_, _
from rules.weapons import fire

LIMIT: Final = 999
MAX_SPELL_DAMAGE: Final = 9999
_CRITICAL_LINES: Final = (
    N_("Critical hit ({c1}): {damage} × {multiplier} = {total}."),
    N_("Critical hit ({c1}; {c2}): {damage} × {multiplier} = {total}."),
    N_("Critical hit ({c1}; {c2}; {c3}): {damage} × {multiplier} = {total}."),
    N_("Critical hit ({c1}; {c2}; {c3}; {c4}): {damage} × {multiplier} = {total}."),
)


#: The log line of a critical wound that kills on the spot (the attack dialog offers to take that death back).
KILLED_ON_THE_SPOT: Final = N_("The critical wound kills {name} on the spot.")


def _able(encounter: Encounter, system: RuleSystem, attacker: Combatant,
          override: bool) -> tuple[Combatant, tuple[LogLine, ...]]:
    """The attacker as it strikes (a dying one's last action taken) and what the log says of it; OperationError
    when it cannot act now, unless the GM ``override``s the rules (logged)."""
    status = system.status(attacker, encounter)
    current = encounter.clock.current
    in_group = current is not None and attacker.id in current.ids  # its group acts simultaneously
    problem = None
    if not in_group and status not in (Status.ACTIVE, Status.DYING):
        problem = _("{name} cannot attack now.").format(name=attacker.name)
    else:
        judged = acting.verdict(attacker, encounter, status)
        if judged is acting.Verdict.LAST_ACTION:
            return acting.take_last_action(attacker), (
                LogLine("{name} takes its one last action.", {"name": attacker.name}),)
        if judged is acting.Verdict.REFUSED:
            problem = acting.refusal(attacker, status)
    if problem is None:
        return attacker, ()
    if not override:
        raise OperationError(problem)
    text = (N_("{name} is dying and can do nothing, but the GM lets it act all the same.")
            if status is Status.DYING else N_("{name} cannot act now, but the GM lets it act all the same."))
    return attacker, (LogLine(text, {"name": attacker.name}),)


def attack_refusal(encounter: Encounter, system: RuleSystem, attacker: Combatant) -> str:
    """Why the rules refuse ``attacker``'s attack now, whoever the target ("" when they do not): what the GM's
    override (``gm_override``) would set aside."""
    try:
        _able(encounter, system, attacker, override=False)
    except OperationError as problem:
        return str(problem)
    return ""


def _require_alive(encounter: Encounter, system: RuleSystem, target: Combatant) -> None:
    if system.status(target, encounter) is Status.DEAD:
        raise OperationError(_("{name} is already dead.").format(name=target.name))


@dataclass(frozen=True)
class SoubojAttack(Operation):
    """A resolved attack: 1d6 + ``attack_bonus`` against 1d6 + ``defence_bonus``, damage by kind, criticals.

    Magic follows the spell: no dice here, ``spell_damage`` is what the spell dealt. ``flat`` (melee only)
    deals shadow damage. Any of ``causes`` makes the hit critical: damage × min(10, ``level``). ``weapon`` names
    the weapon for the log; when the attacker carries a weapon of that name loaded with rounds, the attack fires
    one of them (the seed knows no bursts: one attack, one shot).
    """

    kind = "souboj_attack"
    attacker: str
    target: str
    weapon_kind: Kind
    weapon: str = ""
    attack_bonus: int = 0
    defence_bonus: int = 0
    attack_roll: int | None = None
    defence_roll: int | None = None
    strength: int = 0
    armor: int = 0
    level: int = 1
    causes: tuple[Cause, ...] = ()
    flat: bool = False
    spell_damage: int = 0
    #: The GM lets the attacker act although the rules refuse it (a dying creature with no last action): logged.
    gm_override: bool = field(default=False, metadata=ADDED_LATER)
    #: Whether the spell cast may be critical ("possible with all weapons, only with some spells"), as the dialog
    #: read it from the spell's mark; attacks saved before the mark existed are taken as allowed.
    spell_may_be_critical: bool = field(default=True, metadata=ADDED_LATER)

    def attacker_id(self) -> str | None:
        return self.attacker

    def attack_record(self) -> AttackRecord | None:
        return AttackRecord(self.attacker, self.target, self.weapon)

    def rounds_fired(self) -> int:
        """Rounds the attack takes from its weapon's magazine: one a shot, none for a spell."""
        return 0 if self.weapon_kind is Kind.MAGIC else 1

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        attacker = require_combatant(encounter, self.attacker)
        target = require_combatant(encounter, self.target)
        self._validate(encounter)
        acting_now, acting_lines = _able(encounter, system, attacker, self.gm_override)
        _require_alive(encounter, system, target)
        encounter = encounter.with_combatant(acting.mark_struck(acting_now, encounter))
        encounter = fire(encounter, self.attacker, self.weapon, self.rounds_fired())
        log = [*acting_lines, self._opening(attacker, target)]
        dealt = self._damage(encounter, log)
        if dealt is None:
            return Applied(encounter, (*log, LogLine("The attack misses.")))
        return _land(encounter, system, target, dealt, self.flat, bool(self.causes), log)

    # --- checks ---------------------------------------------------------------------------------
    def _validate(self, encounter: Encounter) -> None:
        if self.attacker == self.target:
            raise OperationError(_("A combatant cannot attack itself."))
        if len(self.weapon) > 200:
            raise OperationError(_("A weapon's name has at most 200 characters."))
        if any(abs(n) > LIMIT for n in (self.attack_bonus, self.defence_bonus, self.strength, self.armor)):
            raise OperationError(_("The numbers of an attack are between −{limit} and {limit}.").format(limit=LIMIT))
        if self.strength < 0 or self.armor < 0:
            raise OperationError(_("Strength and armor cannot be negative."))
        if not 1 <= self.level <= 99:
            raise OperationError(_("A level is between 1 and 99."))
        if len(set(self.causes)) != len(self.causes):
            raise OperationError(_("Each cause of a critical hit counts once."))
        if self.weapon_kind is Kind.MAGIC:
            self._validate_spell()
        else:
            self._validate_weapon(encounter)

    def _validate_spell(self) -> None:
        if self.attack_roll is not None or self.defence_roll is not None:
            raise OperationError(_("Magic follows the spell: its rolls are not made here."))
        if not 0 <= self.spell_damage <= MAX_SPELL_DAMAGE:
            raise OperationError(_("A spell deals between 0 and {limit} damage.").format(limit=MAX_SPELL_DAMAGE))
        if self.flat or Cause.GM in self.causes:
            raise OperationError(_("A spell cannot be flat, nor critical on the GM's call alone."))
        if self.causes and not self.spell_may_be_critical:
            raise OperationError(_("This spell cannot be critical: a critical hit is “possible with all weapons, "
                                   "only with some spells”. Mark the spell as one that may be (Edit weapons)."))

    def _validate_weapon(self, encounter: Encounter) -> None:
        for roll in (self.attack_roll, self.defence_roll):
            if roll is None or not 1 <= roll <= 6:
                raise OperationError(_("Attack and defence each roll one d6 (1 to 6)."))
        if self.spell_damage:
            raise OperationError(_("Only a spell deals its damage directly."))
        rule = tables(encounter).rule(self.weapon_kind)
        if self.flat and not rule.flat:
            raise OperationError(_("Only a melee attack can be made flat."))
        if Cause.GM in self.causes and not rule.gm_critical:
            raise OperationError(_("Only a firearm can be critical on the GM's call alone."))

    # --- resolving ------------------------------------------------------------------------------
    def _opening(self, attacker: Combatant, target: Combatant) -> LogLine:
        args: dict[str, LogArg] = {"attacker": attacker.name, "target": target.name,
                                   "kind": KIND_LABELS[self.weapon_kind]}
        if self.weapon.strip():
            args["weapon"] = self.weapon.strip()
            return LogLine("{attacker} attacks {target} with {weapon} ({kind}).", args, translate=("kind",))
        return LogLine("{attacker} attacks {target} ({kind}).", args, translate=("kind",))

    def totals(self) -> tuple[int, int]:
        """(attack total, defence total) of a weapon attack."""
        return (self.attack_bonus + (self.attack_roll or 0), self.defence_bonus + (self.defence_roll or 0))

    def _damage(self, encounter: Encounter, log: list[LogLine]) -> int | None:
        """The damage dealt (criticals included), or None for a miss; explains the numbers in ``log``."""
        data = tables(encounter)
        if self.weapon_kind is Kind.MAGIC:
            dealt = self.spell_damage
            log.append(LogLine("The spell deals {damage}.", {"damage": dealt}))
        else:
            attack, defence = self.totals()
            log.append(LogLine("Attack {roll} + {bonus} = {total} against defence {defence_roll} + "
                               "{defence_bonus} = {defence}.", {
                                   "roll": self.attack_roll or 0, "bonus": self.attack_bonus, "total": attack,
                                   "defence_roll": self.defence_roll or 0, "defence_bonus": self.defence_bonus,
                                   "defence": defence}))
            base = base_damage(attack, defence)
            if base is None:
                return None
            dealt = damage_from_base(base, data.rule(self.weapon_kind), self.strength, self.armor)
            log.append(LogLine("Hit: base {base}, damage {damage}.", {"base": base, "damage": dealt}))
        if not self.causes:
            return dealt
        multiplier = critical_multiplier(self.level, data)
        log.append(_critical_line(self.causes, dealt, multiplier))
        return dealt * multiplier


def _critical_line(causes: Sequence[Cause], dealt: int, multiplier: int) -> LogLine:
    named = {f"c{index}": CAUSE_LABELS[cause] for index, cause in enumerate(causes[:4], start=1)}
    args: dict[str, LogArg] = {**named, "damage": dealt, "multiplier": multiplier, "total": dealt * multiplier}
    return LogLine(_CRITICAL_LINES[len(named) - 1], args, translate=tuple(named))


def _land(encounter: Encounter, system: RuleSystem, target: Combatant, dealt: int, flat: bool, critical: bool,
          log: list[LogLine]) -> Applied:
    """Put the damage on the right track; a critical wound that leaves the target dying kills it."""
    if dealt <= 0:
        return Applied(encounter, (*log, LogLine("{name} is not hurt.", {"name": target.name})))
    track = SHADOW if flat else WOUNDS
    hurt = system.apply_harm(target, track, dealt, encounter)
    if critical and not flat and system.status(hurt, encounter) is Status.DYING:
        hurt = condition.mark_dead(hurt)
        log.append(LogLine(KILLED_ON_THE_SPOT, {"name": target.name}))
    state = encounter.with_combatant(hurt)
    label = "Shadow damage" if flat else "Wounds"
    lines = harm_lines(system, target, hurt, label, dealt, state)
    reminders = _dying_reminder(system, target, hurt, state)
    if critical and not flat and not marked_dead(hurt):  # shadow damage neither bleeds nor cuts
        reminders = (_after_effect_reminder(target, dealt), *reminders)
    return Applied(state, (*log, *lines), reminders)


def _after_effect_reminder(target: Combatant, dealt: int) -> Reminder:
    """souboj.md, "Critical hits": "The GM may add effects (bleeding, amputation…) by the size of the wound"."""
    return Reminder(_("A critical wound of {damage} on {name}: add its after-effect if it has one (bleeding, a lost "
                      "limb…, by the size of the wound).").format(damage=dealt, name=target.name), target.id,
                    offers_effect=True)


def _dying_reminder(system: RuleSystem, before: Combatant, after: Combatant,
                    state: Encounter) -> tuple[Reminder, ...]:
    if system.status(after, state) is not Status.DYING or system.status(before, state) is Status.DYING:
        return ()
    return (Reminder(_("{name} is dying: set how many rounds it has (Endurance roll, the wound, your call).")
                     .format(name=after.name), after.id),)


@dataclass(frozen=True)
class FinishOff(Operation):
    """Anyone attacking a dying creature may finish it off automatically."""

    kind = "souboj_finish_off"
    attacker: str
    target: str
    #: As :attr:`SoubojAttack.gm_override`.
    gm_override: bool = field(default=False, metadata=ADDED_LATER)

    def attacker_id(self) -> str | None:
        return self.attacker

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        attacker = require_combatant(encounter, self.attacker)
        target = require_combatant(encounter, self.target)
        if attacker.id == target.id:
            raise OperationError(_("A combatant cannot attack itself."))
        acting_now, acting_lines = _able(encounter, system, attacker, self.gm_override)
        if system.status(target, encounter) is not Status.DYING:
            raise OperationError(_("Only a dying creature can be finished off ({name} is not dying).").format(
                name=target.name))
        state = encounter.with_combatant(condition.mark_dead(target))
        state = state.with_combatant(acting.mark_struck(acting_now, encounter))
        return Applied(state, (*acting_lines, LogLine("{attacker} finishes off {target}.", {
            "attacker": attacker.name, "target": target.name})))

