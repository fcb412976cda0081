"""SR3 melee as one operation: both sides' opposed tests, the winner's blow (or counterblow), its resistance.

sr3.md, Melee: "opposed, melee skill + pool vs 4 each, modified by reach … The winner's net successes stage its
damage up; a winning defender hits back (on full defence it only avoids). Resistance: Body + pool vs Power − impact
armor." The tie, the counterblow and the staging are the GM's (:mod:`.melee`, the encounter's options). The
operation carries every die, so a replay gives the same exchange and the log can quote it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from rules.encounter import ADDED_LATER, Encounter
from rules.errors import OperationError
from rules.history import Applied, AttackRecord, LogLine, Operation, require_combatant
from rules.systems.base import RuleSystem
from rules.systems.sr3.damage import DAMAGE_CODE_FORMAT, DamageCode
from rules.systems.sr3.dice import count_sr3_successes
from rules.systems.sr3.levels import check_level
from rules.systems.sr3.melee import CALLED_MELEE_REFUSED, Role, hit_level, resolve_melee
from rules.systems.sr3.melee_odds import NOBODY, outcome_key
from rules.systems.sr3.monitor import PHYSICAL, STUN
from rules.systems.sr3.ops import (
    Chains,
    call_the_shot,
    check_chains,
    land_damage,
    may_act_against,
    successes_line,
    take_from_pool,
)
from rules.systems.sr3.pools import check_pool_over_skill
from rules.systems.sr3.system import COMPLEX, pool_at_most_skill, tables
from rules.text import N_, _

MAX_POWER = 100  # a sanity limit on a typed Power


@dataclass(frozen=True)
class Sr3Melee(Operation):
    """A resolved melee exchange (a complex action of the attacker's unless ``counts_as_action`` is off).

    ``weapon``/``power``/``level``/``stun`` are the attacker's blow; the ``defender_*`` fields the counterblow a
    winning defender strikes ("" for ``defender_weapon``: none). ``resist_*`` are the dice of whoever is hit (none
    when nobody is). ``*_pool`` counts how many of those dice came from the combat pool (spent from it).
    """

    kind = "sr3_melee"
    attacker: str
    defender: str
    weapon: str
    power: int
    level: str
    attack_tn: int
    attack_faces: Chains
    defence_tn: int
    defence_faces: Chains
    resist_tn: int = 0
    resist_faces: Chains = ()
    attack_pool: int = 0
    defence_pool: int = 0
    resist_pool: int = 0
    stun: bool = False
    defender_weapon: str = ""
    defender_power: int = 0
    defender_level: str = "M"
    defender_stun: bool = False
    full_defence: bool = False
    counts_as_action: bool = True
    saved_weapon: str = ""
    #: Interception ("Zadržení"): the attacker strikes a mover passing within 1 m, a free attack out of turn; the
    #: mover is on full defence, and the interceptor gives up the rest of this pass (sr3.md, Interception).
    interception: bool = field(default=False, metadata=ADDED_LATER)
    #: A called shot: "+4 TN (held in ``attack_tn``), the effects as for firearms" (held in ``level`` and
    #: ``resist_tn``); a free action of the attacker's (sr3.md's Decision: melee may be called too).
    called_shot: bool = field(default=False, metadata=ADDED_LATER)

    def attacker_id(self) -> str | None:
        """Whoever's blow lands (a winning defender's counterblow is the defender's harm)."""
        return self.defender if self._defender_struck() else self.attacker

    def attack_record(self) -> AttackRecord:
        return AttackRecord(self.attacker, self.defender, self.saved_weapon)

    def successes(self) -> tuple[int, int]:
        """The attacker's and the defender's successes."""
        return (count_sr3_successes(self.attack_faces, self.attack_tn),
                count_sr3_successes(self.defence_faces, self.defence_tn))

    def _defender_struck(self) -> bool:
        attack, defence = self.successes()
        return defence > attack and bool(self.defender_weapon) and not self.full_defence

    def blow(self, role: Role) -> DamageCode:
        """The damage code of one side's blow."""
        if role is Role.ATTACKER:
            return DamageCode(self.power, self.level, stun=self.stun)
        return DamageCode(self.defender_power, self.defender_level, stun=self.defender_stun)

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        attacker = require_combatant(encounter, self.attacker)
        defender = require_combatant(encounter, self.defender)
        if attacker.id == defender.id:
            raise OperationError(_("{name} cannot attack themself.").format(name=attacker.name))
        self._validate()
        self._check_surprise(encounter)
        if pool_at_most_skill(encounter):  # both roll a melee skill; the dice that are not pool dice are its
            for pool, faces in ((self.attack_pool, self.attack_faces), (self.defence_pool, self.defence_faces)):
                check_pool_over_skill(len(faces) - pool, pool)
        state = encounter
        if self.called_shot:
            if not tables(encounter).called_shot_throws_and_melee:
                raise OperationError(_(CALLED_MELEE_REFUSED))
            if self.counts_as_action and not self.interception:
                state = state.with_combatant(call_the_shot(system, attacker, state))
        if self.interception:
            state = self._intercept(state, system)
        elif self.counts_as_action:
            state = state.with_combatant(system.spend_action(state.combatant(self.attacker), COMPLEX, state))
        state = take_from_pool(state, state.combatant(self.attacker), self.attack_pool)
        state = take_from_pool(state, state.combatant(self.defender), self.defence_pool)
        rules = tables(encounter)
        attack, defence = self.successes()
        counter = self.blow(Role.DEFENDER) if self.defender_weapon else None
        outcome = resolve_melee(attack, defence, self.blow(Role.ATTACKER), counter, full_defence=self.full_defence,
                                tables=rules)
        log = self._opening(encounter, attack, defence)
        log.append(self._outcome_line(encounter, outcome.winner, outcome.hit, outcome.net))
        if outcome.hit is None:
            if self.resist_faces or self.resist_pool:
                raise OperationError(_("Nobody is hit, so nobody rolls resistance dice."))
            return Applied(state, tuple(log))
        hit_id = self.defender if outcome.hit is Role.DEFENDER else self.attacker
        state = take_from_pool(state, state.combatant(hit_id), self.resist_pool)
        hit = state.combatant(hit_id)
        code = self.blow(Role.ATTACKER if outcome.hit is Role.DEFENDER else Role.DEFENDER)
        resist = count_sr3_successes(self.resist_faces, self.resist_tn)
        log.append(successes_line("{name} resists: {count} success at TN {tn}.",
                                  "{name} resists: {count} successes at TN {tn}.", hit.name, resist, self.resist_tn))
        level = hit_level(code.level, outcome.net, resist, rules.melee.staging)
        landed = land_damage(state, system, hit, STUN if code.stun else PHYSICAL, level, log)
        if self.interception and level is not None and hit_id == self.defender:
            # "A mover who takes damage is stopped."
            return replace(landed, log=(*landed.log, LogLine("{name} is stopped.", {"name": hit.name})))
        return landed

    def _intercept(self, encounter: Encounter, system: RuleSystem) -> Encounter:
        """sr3.md: "The opponent needs actions left and may not act again that pass … the mover is on full
        defence": the interceptor's phase of this pass is given up."""
        interceptor, clock = encounter.combatant(self.attacker), encounter.clock
        if self.counts_as_action or not self.full_defence:
            raise OperationError(_("An interception is a free attack out of turn against a mover on full defence."))
        acting = clock.current.ids if clock.current is not None else ()
        if (system.pass_phase(interceptor, encounter, clock.pass_no) is None or interceptor.id in clock.acted
                or interceptor.id in acting):
            raise OperationError(_("{name} has no action left in this pass to intercept with.").format(
                name=interceptor.name))
        return encounter.with_clock(acted=clock.acted | {interceptor.id})

    # --- checks -----------------------------------------------------------------------------
    def _validate(self) -> None:
        check_level(self.level)
        if self.defender_weapon:
            check_level(self.defender_level)
        for power in (self.power, self.defender_power):
            if not 0 <= power <= MAX_POWER:
                raise OperationError(_("A Power is between 0 and {limit}.").format(limit=MAX_POWER))
        if not self.attack_faces:
            raise OperationError(_("The attacker needs at least one die."))
        for faces in (self.attack_faces, self.defence_faces, self.resist_faces):
            check_chains(faces)
        pools = ((self.attack_pool, self.attack_faces), (self.defence_pool, self.defence_faces),
                 (self.resist_pool, self.resist_faces))
        if any(not 0 <= pool <= len(faces) for pool, faces in pools):
            raise OperationError(_("More pool dice than dice rolled."))

    def _check_surprise(self, encounter: Encounter) -> None:
        """As for a shot: the surprised may not strike, nor spend pool defending against, whom they are surprised
        by."""
        attacker, defender = encounter.combatant(self.attacker), encounter.combatant(self.defender)
        if not may_act_against(encounter, self.attacker, self.defender):
            raise OperationError(_("{attacker} is surprised by {target} and cannot act against them yet.").format(
                attacker=attacker.name, target=defender.name))
        if (self.defence_pool or self.full_defence) and not may_act_against(encounter, self.defender,
                                                                              self.attacker):
            raise OperationError(_("{target} is surprised by {attacker} and cannot use combat pool against them.")
                                 .format(attacker=attacker.name, target=defender.name))

    # --- the log ----------------------------------------------------------------------------
    def _opening(self, encounter: Encounter, attack: int, defence: int) -> list[LogLine]:
        attacker, defender = encounter.combatant(self.attacker), encounter.combatant(self.defender)
        attacks = N_("{attacker} attacks {target} in melee with {weapon} ({code}).")
        intercepts = N_("{attacker} intercepts {target} in melee with {weapon} ({code}) and gives up the rest of "
                        "this pass.")
        text = intercepts if self.interception else attacks
        log = [LogLine(text, {"attacker": attacker.name, "target": defender.name, "weapon": self.weapon,
                              "code": f"{self.power}{self.level}"}, shown_as={"code": DAMAGE_CODE_FORMAT})]
        if self.called_shot:
            log.append(LogLine("A called shot (+4 TN, a free action)."))
        if self.full_defence:
            log.append(LogLine("{name} fights on full defence.", {"name": defender.name}))
        log.append(successes_line("{name}: {count} success at TN {tn}.", "{name}: {count} successes at TN {tn}.",
                                  attacker.name, attack, self.attack_tn))
        log.append(successes_line("{name}: {count} success at TN {tn}.", "{name}: {count} successes at TN {tn}.",
                                  defender.name, defence, self.defence_tn))
        return log

    def _outcome_line(self, encounter: Encounter, winner: Role | None, hit: Role | None, net: int) -> LogLine:
        attacker, defender = encounter.combatant(self.attacker), encounter.combatant(self.defender)
        if winner is None:
            return LogLine("A tie: the blow lands with its base damage.") if hit else LogLine(
                "A tie: nobody is hurt.")
        if winner is Role.ATTACKER:
            return LogLine("{name} wins the exchange by {count} net success.", {"name": attacker.name, "count": net},
                           plural="{name} wins the exchange by {count} net successes.", count=net)
        if hit is None:
            return LogLine("{name} wins the exchange and avoids the blow.", {"name": defender.name})
        return LogLine("{name} wins the exchange by {count} net success and strikes back with {weapon} ({code}).",
                       {"name": defender.name, "count": net, "weapon": self.defender_weapon,
                        "code": f"{self.defender_power}{self.defender_level}"},
                       plural="{name} wins the exchange by {count} net successes and strikes back with {weapon} "
                              "({code}).", count=net, shown_as={"code": DAMAGE_CODE_FORMAT})


def outcome_key_of(melee: Sr3Melee, encounter: Encounter) -> str:
    """The :data:`~rules.systems.sr3.melee_odds.ORDER` key the exchange's dice gave, as :meth:`Sr3Melee.apply`
    resolves it (``encounter``: the fight before it)."""
    rules = tables(encounter)
    attack, defence = melee.successes()
    counter = melee.blow(Role.DEFENDER) if melee.defender_weapon else None
    outcome = resolve_melee(attack, defence, melee.blow(Role.ATTACKER), counter, full_defence=melee.full_defence,
                            tables=rules)
    if outcome.hit is None:
        return NOBODY
    code = melee.blow(Role.ATTACKER if outcome.hit is Role.DEFENDER else Role.DEFENDER)
    resist = count_sr3_successes(melee.resist_faces, melee.resist_tn)
    return outcome_key(outcome.hit, hit_level(code.level, outcome.net, resist, rules.melee.staging))
