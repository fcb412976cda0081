"""SR3 operations: a resolved attack and timed explosives (the surprise test: :mod:`.surprise_ops`).

Each operation carries the dice faces (rolled by the app or typed in by the GM), so replaying the history
gives the same result and the log can quote the dice.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from rules.combatants import harm_lines, track_label
from rules.effects import AddEffect
from rules.encounter import ADDED_LATER, Combatant, Effect, Encounter, Pool, frozen_map
from rules.errors import OperationError
from rules.history import Applied, AttackRecord, LogLine, Operation, require_combatant
from rules.systems.base import RuleSystem
from rules.systems.sr3 import initiative
from rules.systems.sr3.aim import aim_of, check_pool_with_aim, lost_to_pool, without_aim
from rules.systems.sr3.damage import DAMAGE_CODE_FORMAT, Ammo, barrier_stops, explosive_misfire, resolve_hit
from rules.systems.sr3.dice import count_sr3_successes, rule_of_one
from rules.systems.sr3.karma import MAX_BOUGHT, burn_karma, rerolls_cost, spend_karma
from rules.systems.sr3.levels import LEVEL_BOXES, check_level
from rules.systems.sr3.monitor import PHYSICAL, STUN
from rules.systems.sr3.pools import check_pool_over_skill
from rules.systems.sr3.shot import ACTION_OF_MODE
from rules.systems.sr3.surprise import may_act_against_now
from rules.systems.sr3.system import (
    COMBAT_POOL,
    FREE,
    FULL_AUTO_ROUNDS,
    KARMA_ATTRIBUTE,
    SIMPLE,
    pool_at_most_skill,
    tables,
)
from rules.systems.sr3.tables import FiringMode
from rules.text import N_, NN_, _, ngettext
from rules.weapons import fire

Chains = tuple[tuple[int, ...], ...]
LEVEL_NAMES = {"L": N_("Light"), "M": N_("Moderate"), "S": N_("Serious"), "D": N_("Deadly")}
MAX_ROUNDS = 100  # a sanity limit on a shot's rounds (the tables say what a mode fires)
MAX_BARRIER = 100  # a sanity limit on a barrier's rating (no SR3 barrier comes near it)
MAX_KARMA_REROLLS = 20  # a sanity limit: each reroll costs one point more than the last
MAX_QUICK_DRAW_TN = 30  # a sanity limit on a typed number (4, +2 and +2 in the book)


# --- surprise -----------------------------------------------------------------------------------


def may_act_against(encounter: Encounter, actor: str, opponent: str) -> bool:
    """Whether the surprise test (if one is in force) lets ``actor`` act against ``opponent``."""
    allowed = may_act_against_now(encounter, actor)
    return allowed is None or opponent in allowed


# --- attacks ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Sr3Attack(Operation):
    """A resolved attack: attack, dodge and resistance dice, staged damage on the target's monitor.

    ``*_pool`` counts how many of those dice came from the combat pool (spent from it). The dodge is
    rolled from the combat pool only. With EX/HE ammunition and every attack die a 1, the round misfires:
    the attack misses, ``misfire_roll`` (1d6) stands in for the attacker's successes and ``resist_faces``
    are the *shooter's* resistance dice (without combat pool). ``weapon`` is the name the log shows;
    ``saved_weapon`` the attacker's saved weapon fired ("": typed in the form), whose rounds the shot counts down.
    """

    kind = "sr3_attack"
    attacker: str
    target: str
    weapon: str
    power: int
    level: str
    attack_tn: int
    attack_faces: Chains
    resist_tn: int
    resist_faces: Chains
    dodge_tn: int = 4
    dodge_faces: Chains = ()
    attack_pool: int = 0
    resist_pool: int = 0
    track: str = PHYSICAL
    ammo: str = "standard"  # an Ammo value
    misfire_roll: int | None = None
    #: The firing mode (a FiringMode value): the shot takes its simple or complex action from the attacker's
    #: budget. None: it takes none (the GM's call, e.g. an attack out of turn; fights saved before attacks counted).
    mode: str | None = None
    rounds: int = 1  # rounds fired (full auto counts them against the phase's limit)
    saved_weapon: str = field(default="", metadata=ADDED_LATER)
    #: Simple actions of aiming the attack TN counts (an aim over several phases allows no pool dice).
    aim_actions: int = field(default=0, metadata=ADDED_LATER)
    #: A called shot: "free action, +4" (the TN holds the +4); it takes the attacker's free action too.
    called_shot: bool = field(default=False, metadata=ADDED_LATER)
    #: Times the attacker's karma pool rerolled the attack's failed dice (``attack_faces`` are the final dice):
    #: 1 point, each further reroll of the test 1 more.
    attack_karma_rerolls: int = field(default=0, metadata=ADDED_LATER)
    #: The same for the dodge test (the target's karma) and the resistance test (the target's, or the shooter's
    #: when the round detonated in the weapon).
    dodge_karma_rerolls: int = field(default=0, metadata=ADDED_LATER)
    resist_karma_rerolls: int = field(default=0, metadata=ADDED_LATER)
    #: "1 point turns all 1s into a plain failure": the attacker pays a karma point and an all-ones attack test
    #: is a plain miss, so an explosive round does not detonate in the weapon.
    karma_averts_disaster: bool = field(default=False, metadata=ADDED_LATER)
    #: Successes bought with karma for each test (attack, dodge, resistance), "1 point each, permanently", by
    #: whoever rolled the test; each needs at least one rolled success.
    attack_bought: int = field(default=0, metadata=ADDED_LATER)
    dodge_bought: int = field(default=0, metadata=ADDED_LATER)
    resist_bought: int = field(default=0, metadata=ADDED_LATER)
    #: A quick draw (0: none): the Reaction test's TN and dice; "one success: draw and fire" in one simple action.
    quick_draw_tn: int = field(default=0, metadata=ADDED_LATER)
    quick_draw_faces: Chains = field(default=(), metadata=ADDED_LATER)
    #: The rating of a barrier shot at or through, as the ammunition leaves it (0: none in the way).
    barrier: int = field(default=0, metadata=ADDED_LATER)
    #: Full auto at a later target of the burst: rounds wasted changing to it (1 a metre, none with a smartgun).
    #: They leave the clip and count towards the phase's full-auto rounds, but hit nobody.
    wasted_rounds: int = field(default=0, metadata=ADDED_LATER)

    def fired_rounds(self) -> int:
        """Every round this share of the fire took from the clip: the target's and the wasted ones."""
        return self.rounds + self.wasted_rounds

    def stopped(self) -> bool:
        """Whether a hit meets a barrier "rated above the attack's Power", which stops it."""
        return barrier_stops(self.barrier, self.power)

    def attacker_id(self) -> str | None:
        return self.attacker

    def rolled_successes(self) -> tuple[int, int, int]:
        """(attack, dodge, resistance) successes on the dice; all 1s on the attack test: none."""
        hits = 0 if rule_of_one(self.attack_faces) else count_sr3_successes(self.attack_faces, self.attack_tn)
        dodge = count_sr3_successes(self.dodge_faces, self.dodge_tn) if self.dodge_faces else 0
        return hits, dodge, count_sr3_successes(self.resist_faces, self.resist_tn)

    def successes(self) -> tuple[int, int, int]:
        """(attack, dodge, resistance) successes, the ones bought with karma included."""
        hits, dodge, resist = self.rolled_successes()
        return hits + self.attack_bought, dodge + self.dodge_bought, resist + self.resist_bought

    def misfires(self) -> bool:
        """Whether the explosive round detonated in the weapon: all 1s, not made a plain failure with karma."""
        explosive = Ammo(self.ammo) in (Ammo.EX, Ammo.HE)
        return explosive and rule_of_one(self.attack_faces) and not self.karma_averts_disaster

    def attack_record(self) -> AttackRecord:
        return AttackRecord(self.attacker, self.target, self.saved_weapon)

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        require_combatant(encounter, self.attacker)
        require_combatant(encounter, self.target)
        self._validate()
        _check_surprise(encounter, self)
        check_pool_with_aim(encounter, self.attacker, self.aim_actions, self.attack_pool)
        if pool_at_most_skill(encounter):  # the dice that are not pool dice are the skill's
            check_pool_over_skill(len(self.attack_faces) - self.attack_pool, self.attack_pool)
        misfire = explosive_misfire(Ammo(self.ammo), [c[0] for c in self.attack_faces], self.misfire_roll or 0,
                                    self.power, self.level) if self.misfires() else None
        fired = fire(encounter, self.attacker, self.saved_weapon, self.fired_rounds())  # a burst fires its burst
        state, log = _spend_pools(_end_aim(_take_action(fired, system, self), self.attacker), system, self)
        log += lost_to_pool(aim_of(encounter.combatant(self.attacker)), encounter.combatant(self.attacker).name,
                            self.attack_pool)
        if misfire is not None:
            return _resolve_misfire(state, system, self, log, misfire.attacker_successes)
        return _resolve(state, system, self, log)

    def _validate(self) -> None:
        check_level(self.level)
        if self.track not in (PHYSICAL, STUN):
            raise OperationError(_("Damage goes on the physical or the stun track."))
        try:
            Ammo(self.ammo)
        except ValueError:
            raise OperationError(_("Unknown ammunition {ammo!r}.").format(ammo=self.ammo)) from None
        if not self.attack_faces:
            raise OperationError(_("The attacker needs at least one die."))
        for faces in (self.attack_faces, self.dodge_faces, self.resist_faces):
            check_chains(faces)
        if self.attack_pool > len(self.attack_faces) or self.resist_pool > len(self.resist_faces):
            raise OperationError(_("More pool dice than dice rolled."))
        if self.mode is not None and self.mode not in {mode.value for mode in FiringMode}:
            raise OperationError(_("Unknown firing mode {mode!r}.").format(mode=self.mode))
        if not 0 <= self.aim_actions <= MAX_ROUNDS:
            raise OperationError(_("Aim actions and skill cannot be negative."))
        if not 0 <= self.barrier <= MAX_BARRIER:
            raise OperationError(_("A barrier's rating is 0 to {limit}.").format(limit=MAX_BARRIER))
        self._validate_wasted()
        if not 1 <= self.rounds <= MAX_ROUNDS:
            raise OperationError(ngettext("A shot fires 1 to {count} round.", "A shot fires 1 to {count} rounds.",
                                          MAX_ROUNDS).format(count=MAX_ROUNDS))
        rerolls = (self.attack_karma_rerolls, self.dodge_karma_rerolls, self.resist_karma_rerolls)
        if not all(0 <= count <= MAX_KARMA_REROLLS for count in rerolls):
            raise OperationError(_("A test is rerolled with karma 0 to {count} times.").format(
                count=MAX_KARMA_REROLLS))
        if self.karma_averts_disaster and not rule_of_one(self.attack_faces):
            raise OperationError(_("Karma turns only an attack test of all 1s into a plain failure."))
        self._validate_bought()
        if self.quick_draw_tn:
            check_quick_draw(self.mode, self.quick_draw_tn, self.quick_draw_faces, drawn=True)

    def _validate_wasted(self) -> None:
        """Only a full-auto burst (or an attack taking no action) wastes rounds changing target."""
        full_auto = self.mode in (None, FiringMode.FA.value)
        if not 0 <= self.wasted_rounds <= MAX_ROUNDS or (self.wasted_rounds and not full_auto):
            raise OperationError(_("Rounds are wasted between targets only in full-auto fire: set the metres to 0."))

    def _validate_bought(self) -> None:
        """"Bought successes … need at least one rolled success", each test its own."""
        bought = (self.attack_bought, self.dodge_bought, self.resist_bought)
        if not all(0 <= count <= MAX_BOUGHT for count in bought):
            raise OperationError(_("Buy 1 to {limit} successes.").format(limit=MAX_BOUGHT))
        for count, rolled in zip(bought, self.rolled_successes(), strict=True):
            if count and not rolled:
                raise OperationError(_("Successes are bought with karma only for a test that rolled at least "
                                       "one."))


def _check_surprise(encounter: Encounter, attack: Sr3Attack) -> None:
    """While a surprise test is in force, the surprised may not act against, nor pool-defend against, others."""
    attacker, target = encounter.combatant(attack.attacker), encounter.combatant(attack.target)
    if not may_act_against(encounter, attack.attacker, attack.target):
        raise OperationError(_("{attacker} is surprised by {target} and cannot act against them yet.").format(
            attacker=attacker.name, target=target.name))
    defends_with_pool = bool(attack.dodge_faces) or attack.resist_pool > 0
    if defends_with_pool and not may_act_against(encounter, attack.target, attack.attacker):
        raise OperationError(_("{target} is surprised by {attacker} and cannot use combat pool against them.")
                             .format(attacker=attacker.name, target=target.name))


def _take_action(encounter: Encounter, system: RuleSystem, attack: Sr3Attack) -> Encounter:
    """The attacker's simple or complex action for the shot; refused, with the rule, when none is left.

    Full-auto fire at several targets in one phase is one complex action (Wedge's 3, 3 and 4 rounds), up to
    the most rounds full auto fires in a phase.
    """
    if attack.mode is None:
        return encounter
    mode = FiringMode(attack.mode)
    attacker = encounter.combatant(attack.attacker)
    fired = attacker.actions_used.get(FULL_AUTO_ROUNDS, 0)
    limit = tables(encounter).firing_modes[FiringMode.FA].max_rounds
    if mode is FiringMode.FA and fired:  # the full-auto action of this phase goes on
        if fired + attack.fired_rounds() > limit:
            fired_text = ngettext("{name} has fired {count} round full auto in this phase.",
                                  "{name} has fired {count} rounds full auto in this phase.", fired)
            raise OperationError(_action_refused(fired_text.format(name=attacker.name, count=fired), mode, limit))
        return encounter.with_combatant(_with_rounds(attacker, fired + attack.fired_rounds()))
    single_shot = f"{SINGLE_SHOT_PREFIX}{attack.saved_weapon or attack.weapon}"
    if mode is FiringMode.SS and attacker.actions_used.get(single_shot, 0):
        # "SS: simple, once per phase" (a gun in each hand: each once).
        fired_text = _("{name} has already fired {weapon} in this phase, and a single-shot weapon fires once a "
                       "phase.").format(name=attacker.name, weapon=attack.weapon)
        raise OperationError(" ".join((fired_text, _("The GM may still record the attack as taking no action."))))
    if attack.called_shot:
        attacker = call_the_shot(system, attacker, encounter)
    try:
        acted = system.spend_action(attacker, ACTION_OF_MODE[mode], encounter)
    except OperationError as refusal:
        raise OperationError(_action_refused(str(refusal), mode, limit)) from None
    if mode is FiringMode.SS:
        acted = replace(acted, actions_used=frozen_map({**acted.actions_used, single_shot: 1}))
    return encounter.with_combatant(_with_rounds(acted, attack.fired_rounds()) if mode is FiringMode.FA else acted)


# --- quick draw ----------------------------------------------------------------------------------


def check_quick_draw(mode: str | None, tn: int, faces: Chains, drawn: bool) -> None:
    """"Quick draw: pistol-size weapons … fired by a simple action; Reaction (4), one success: draw and fire;
    failure: no shot from it this phase": a simple firing mode, the test's dice, and (``drawn``) one success, or
    (not ``drawn``) none."""
    if mode is not None and ACTION_OF_MODE[FiringMode(mode)] != SIMPLE:
        raise OperationError(_("A quick draw fires by a simple action: single shot, semi-automatic or a burst."))
    if not 2 <= tn <= MAX_QUICK_DRAW_TN:
        raise OperationError(_("A quick draw's target number is 2 to {limit}.").format(limit=MAX_QUICK_DRAW_TN))
    if not faces:
        raise OperationError(_("A quick draw needs the Reaction test's dice."))
    check_chains(faces)
    successes = count_sr3_successes(faces, tn)
    if drawn and not successes:
        raise OperationError(_("The quick draw failed: no shot from that weapon this phase."))
    if not drawn and successes:
        raise OperationError(_("The quick draw succeeded: resolve the shot."))


def quick_draw_line(faces: Chains, tn: int) -> LogLine:
    count = count_sr3_successes(faces, tn)
    return LogLine("Quick draw: {count} success at TN {tn}, drawn and fired in one simple action.",
                   {"count": count, "tn": tn},
                   plural="Quick draw: {count} successes at TN {tn}, drawn and fired in one simple action.",
                   count=count)


@dataclass(frozen=True)
class Sr3QuickDrawFailed(Operation):
    """A quick draw without a success: "failure: no shot from it this phase". The attempt takes the simple action
    (``counts``: as the attack dialog's "takes an action" box says)."""

    kind = "sr3_quick_draw_failed"
    attacker: str
    weapon: str
    tn: int
    faces: Chains
    counts: bool = True

    def attacker_id(self) -> str | None:
        return self.attacker

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        attacker = require_combatant(encounter, self.attacker)
        check_quick_draw(None, self.tn, self.faces, drawn=False)
        state = encounter
        if self.counts:
            state = encounter.with_combatant(system.spend_action(attacker, SIMPLE, encounter))
        line = LogLine("{name} fails the quick draw of {weapon} (no success at TN {tn}): no shot from it this phase.",
                       {"name": attacker.name, "weapon": self.weapon, "tn": self.tn})
        return Applied(state, (line,))


#: The per-phase counter of a single-shot weapon fired, by the weapon's name (reset with every phase's actions).
SINGLE_SHOT_PREFIX = "single_shot:"


def call_the_shot(system: RuleSystem, attacker: Combatant, encounter: Encounter) -> Combatant:
    """"Called shot: free action": spent before the shot's own action (the aim it may follow still counts in
    the TN the form worked out)."""
    try:
        return system.spend_action(attacker, FREE, encounter)
    except OperationError as refusal:
        raise OperationError(" ".join((str(refusal), _("A called shot takes a free action."),
                                       _("The GM may still record the attack as taking no action.")))) from None


def _end_aim(encounter: Encounter, attacker_id: str) -> Encounter:
    """The shot used the attacker's aim, and is another action anyway: the aim ends (also for a shot recorded as
    taking no action)."""
    attacker = encounter.combatant(attacker_id)
    aimless = without_aim(attacker)
    return encounter if aimless is attacker else encounter.with_combatant(aimless)


def _with_rounds(combatant: Combatant, rounds: int) -> Combatant:
    return replace(combatant, actions_used=frozen_map({**combatant.actions_used, FULL_AUTO_ROUNDS: rounds}))


def _action_refused(problem: str, mode: FiringMode, limit: int) -> str:
    """The refusal, the rule it follows, and the way out."""
    if mode is FiringMode.FA:
        rule = ngettext("A phase allows two simple actions or one complex action, plus one free action; full-auto "
                        "fire is a complex action, at most {count} round a phase.",
                        "A phase allows two simple actions or one complex action, plus one free action; full-auto "
                        "fire is a complex action, at most {count} rounds a phase.", limit).format(count=limit)
    else:
        rule = _("A phase allows two simple actions or one complex action, plus one free action; a shot in "
                 "{mode} mode is a simple action.").format(mode=mode.value)
    return " ".join((problem, rule, _("The GM may still record the attack as taking no action.")))


def check_chains(chains: Chains) -> None:
    if len(chains) > 200:
        raise OperationError(_("At most 200 dice per roll."))
    for chain in chains:
        if not chain or len(chain) > 100 or any(not 1 <= face <= 6 for face in chain):
            raise OperationError(_("A d6 shows 1 to 6."))


def take_from_pool(encounter: Encounter, combatant: Combatant, dice: int) -> Encounter:
    if dice == 0:
        return encounter
    pool = combatant.pools.get(COMBAT_POOL, Pool(0))
    if dice > pool.remaining:
        raise OperationError(_("{name} has only {left} combat pool dice left.").format(
            name=combatant.name, left=pool.remaining))
    return encounter.with_combatant(combatant.with_pool(COMBAT_POOL, replace(pool, spent=pool.spent + dice)))


#: Per test rerolled with karma: the log line (singular, plural) of the points spent.
_KARMA_REROLL_LINES = {
    "attack": NN_("{name} spends {count} karma point rerolling the failed attack dice ({rerolls}×).",
               "{name} spends {count} karma points rerolling the failed attack dice ({rerolls}×)."),
    "dodge": NN_("{name} spends {count} karma point rerolling the failed dodge dice ({rerolls}×).",
              "{name} spends {count} karma points rerolling the failed dodge dice ({rerolls}×)."),
    "resistance": NN_("{name} spends {count} karma point rerolling the failed resistance dice ({rerolls}×).",
                   "{name} spends {count} karma points rerolling the failed resistance dice ({rerolls}×)."),
}


_BOUGHT_LINES = {
    "attack": NN_("{name} buys {count} attack success with karma: the pool is {size} for good.",
                  "{name} buys {count} attack successes with karma: the pool is {size} for good."),
    "dodge": NN_("{name} buys {count} dodge success with karma: the pool is {size} for good.",
                 "{name} buys {count} dodge successes with karma: the pool is {size} for good."),
    "resistance": NN_("{name} buys {count} resistance success with karma: the pool is {size} for good.",
                      "{name} buys {count} resistance successes with karma: the pool is {size} for good."),
}


def _karma_payments(attack: Sr3Attack, bought: bool) -> list[tuple[str, str, int]]:
    """(who pays, which test, count) of every test rerolled with karma (or, ``bought``, given bought
    successes); the shooter resists a detonation."""
    resisting = attack.attacker if attack.misfires() else attack.target
    counts = ((attack.attack_bought, attack.dodge_bought, attack.resist_bought) if bought else
              (attack.attack_karma_rerolls, attack.dodge_karma_rerolls, attack.resist_karma_rerolls))
    payers = ((attack.attacker, "attack"), (attack.target, "dodge"), (resisting, "resistance"))
    return [(who, test, count) for (who, test), count in zip(payers, counts, strict=True) if count]


def _spend_karma_rerolls(encounter: Encounter, attack: Sr3Attack) -> tuple[Encounter, list[LogLine]]:
    lines = []
    if attack.karma_averts_disaster:
        attacker = encounter.combatant(attack.attacker)
        encounter = spend_karma(encounter, attacker, 1)
        lines.append(LogLine("{name} spends 1 karma point: the attack's all 1s are a plain failure.",
                             {"name": attacker.name}))
    for who, test, rerolls in _karma_payments(attack, bought=False):
        payer = encounter.combatant(who)
        points = rerolls_cost(rerolls)
        text, plural = _KARMA_REROLL_LINES[test]
        lines.append(LogLine(text, {"name": payer.name, "count": points, "rerolls": rerolls}, plural=plural,
                             count=points))
        encounter = spend_karma(encounter, payer, points)
    return encounter, lines


def _burn_bought_successes(encounter: Encounter, system: RuleSystem,
                           attack: Sr3Attack) -> tuple[Encounter, list[LogLine]]:
    lines = []
    for who, test, count in _karma_payments(attack, bought=True):
        payer = encounter.combatant(who)
        encounter = burn_karma(encounter, system, payer, count)
        text, plural = _BOUGHT_LINES[test]
        lines.append(LogLine(text, {"name": payer.name, "count": count,
                                    "size": encounter.combatant(who).attribute(KARMA_ATTRIBUTE)},
                             plural=plural, count=count))
    return encounter, lines


def _spend_pools(encounter: Encounter, system: RuleSystem, attack: Sr3Attack) -> tuple[Encounter, list[LogLine]]:
    encounter, karma_lines = _spend_karma_rerolls(encounter, attack)
    encounter, bought_lines = _burn_bought_successes(encounter, system, attack)
    karma_lines += bought_lines
    state = take_from_pool(encounter, encounter.combatant(attack.attacker), attack.attack_pool)
    defence = len(attack.dodge_faces) + attack.resist_pool
    state = take_from_pool(state, state.combatant(attack.target), defence)
    log = karma_lines
    for who, dice in ((attack.attacker, attack.attack_pool), (attack.target, defence)):
        if dice:
            log.append(LogLine("{name} uses {count} combat pool die.", {"name": state.combatant(who).name,
                                                                         "count": dice},
                               plural="{name} uses {count} combat pool dice.", count=dice))
    return state, log


def successes_line(text: str, plural: str, name: str, count: int, tn: int) -> LogLine:
    return LogLine(text, {"name": name, "count": count, "tn": tn}, plural=plural, count=count)


def _resolve(state: Encounter, system: RuleSystem, attack: Sr3Attack, log: list[LogLine]) -> Applied:
    attacker, target = state.combatant(attack.attacker), state.combatant(attack.target)
    hits, dodge, resist = attack.successes()
    # The code as earlier releases logged it (a saved fight's lines must replay to the same facts), shown in the
    # GM's letters whenever the log is read.
    log.insert(0, LogLine("{attacker} attacks {target} with {weapon} ({code}).", {
        "attacker": attacker.name, "target": target.name, "weapon": attack.weapon,
        "code": f"{attack.power}{attack.level}"}, shown_as={"code": DAMAGE_CODE_FORMAT}))
    if attack.wasted_rounds:
        log.insert(1, LogLine("{count} round wasted changing target.", {"count": attack.wasted_rounds},
                              plural="{count} rounds wasted changing target.", count=attack.wasted_rounds))
    if attack.called_shot:
        log.insert(1, LogLine("A called shot (+4 TN, a free action)."))
    if attack.quick_draw_tn:
        log.insert(1, quick_draw_line(attack.quick_draw_faces, attack.quick_draw_tn))
    log.append(successes_line("{name}: {count} success at TN {tn}.", "{name}: {count} successes at TN {tn}.",
                               attacker.name, hits, attack.attack_tn))
    outcome = resolve_hit(attack.level, hits, dodge, resist)
    if outcome.missed:
        return Applied(state, (*log, LogLine("The attack misses.")))
    if attack.stopped():
        return Applied(state, (*log, LogLine("The barrier (rating {rating}) stops the attack: it is rated above "
                                             "the Power {power}.", {"rating": attack.barrier,
                                                                    "power": attack.power})))
    if attack.dodge_faces:
        log.append(successes_line("{name} dodges: {count} success at TN {tn}.",
                                   "{name} dodges: {count} successes at TN {tn}.", target.name, dodge,
                                   attack.dodge_tn))
    if outcome.dodged:
        return Applied(state, (*log, LogLine("{name} dodges the attack completely.", {"name": target.name})))
    log.append(successes_line("{name} resists: {count} success at TN {tn}.",
                               "{name} resists: {count} successes at TN {tn}.", target.name, resist,
                               attack.resist_tn))
    return land_damage(state, system, target, attack.track, outcome.level, log)


def land_damage(state: Encounter, system: RuleSystem, target: Combatant, track: str, level: str | None,
          log: list[LogLine]) -> Applied:
    """Put the staged damage on the monitor (or log that it was staged away)."""
    if level is None:
        return Applied(state, (*log, LogLine("The damage is staged away: {name} is unhurt.", {"name": target.name})))
    boxes = LEVEL_BOXES[level]
    hurt = system.apply_harm(target, track, boxes, state)
    state = state.with_combatant(hurt)
    label = track_label(system, target, state, track)  # "Physical"/"Stun": the key "physical" is Člověk's bank word
    line = LogLine("{name} takes {level} {track} damage.", {"name": target.name, "level": LEVEL_NAMES[level],
                                                             "track": label}, translate=("level", "track"))
    status = harm_lines(system, target, hurt, track, boxes, state)[1:]
    return Applied(state, (*log, line, *status))


def _resolve_misfire(state: Encounter, system: RuleSystem, attack: Sr3Attack, log: list[LogLine],
                     staging: int) -> Applied:
    shooter = state.combatant(attack.attacker)
    log.append(LogLine("{name}'s explosive round detonates in the weapon!", {"name": shooter.name}))
    resist = attack.successes()[2]
    outcome = resolve_hit(attack.level, staging, 0, resist)
    return land_damage(state, system, shooter, PHYSICAL, outcome.level, log)


# --- timed explosives ---------------------------------------------------------------------------


def grenade_timer(encounter: Encounter, thrower: str, name: str, effect_id: str,
                  moment: tuple[int, int] | None = None) -> AddEffect:
    """A grenade set off now explodes in the next pass at the thrower's phase, or at the end of the next
    pass if the thrower has no action left this turn; with a timer (``moment``: pass and phase of this turn, phase
    0 for the pass's end) "the moment is chosen when arming", and must be still to come."""
    require_combatant(encounter, thrower)
    clock = encounter.clock
    if clock.pass_no < 1:
        raise OperationError(_("Roll initiative first: a timed explosive goes off at a pass and phase of the turn."))
    if moment is None:
        next_pass = clock.pass_no + 1
        phase = initiative.score(encounter.combatant(thrower), next_pass) or 0
        moment = (next_pass, max(0, phase))
    elif not _still_to_come(encounter, *moment):
        raise OperationError(_("Pass {pass_no}, phase {phase} has already come in this turn: set a later moment.")
                             .format(pass_no=moment[0], phase=moment[1]))
    effect = Effect(effect_id, name.strip() or _("Explosive"), source=thrower, due=(clock.round, *moment))
    return AddEffect(effect)


def _still_to_come(encounter: Encounter, pass_no: int, phase: int) -> bool:
    """Whether the moment (phase 0: the pass's end) lies after now in this turn (phases count down)."""
    clock = encounter.clock
    if pass_no != clock.pass_no:
        return pass_no > clock.pass_no
    now = clock.current.phase if clock.current is not None and clock.current.phase is not None else None
    return now is None or phase < now
