"""One SR3 ranged shot worked out before the dice: target numbers, damage codes and the odds of each outcome.

The attack dialog turns its form into a :class:`ShotInputs`; :func:`work_out` asks the rules (``ranged_tn``,
``damage_code``, ``ammo_damage_code``, ``resistance_tn``, ``dodge_tn``, ``attack_outcome_distribution``) for
the :class:`ShotSheet` it shows, and the resolved :class:`~rules.systems.sr3.ops.Sr3Attack` is built from it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Final

from rules.systems.sr3.damage import (
    EXPLOSIVE_AMMO,
    Ammo,
    CalledShotEffect,
    DamageCode,
    TargetKind,
    ammo_damage_code,
    barrier_rating,
    barrier_stops,
    blast_power,
    called_shot,
    damage_code,
    dodge_tn,
    parse_damage_code,
    relevant_armor,
    resistance_tn,
    spread_power,
)
from rules.systems.sr3.full_auto import check_burst, wasted_rounds
from rules.systems.sr3.monitor import PHYSICAL, STUN
from rules.systems.sr3.odds import attack_outcome_distribution, stopped_by_barrier
from rules.systems.sr3.ranged import RangedAttack, TargetNumber, line, ranged_tn, require, target_number
from rules.systems.sr3.system import COMPLEX, SIMPLE
from rules.systems.sr3.tables import FiringMode, Sr3Tables, WeaponKind
from rules.text import _, ngettext

#: Rounds a mode fires count as "already fired" for the next shot's recoil (a single shot never recoils).
RECOILING_MODES: Final[frozenset[FiringMode]] = frozenset({FiringMode.SA, FiringMode.SB, FiringMode.BF,
                                                           FiringMode.FA})

#: The action a shot takes (the digest's "Actions per phase" and firing modes): SS, SA and bursts are simple
#: actions, full auto a complex one (the rounds of one phase's full-auto fire, at several targets too, are one).
ACTION_OF_MODE: Final[Mapping[FiringMode, str]] = MappingProxyType({
    FiringMode.SS: SIMPLE, FiringMode.SA: SIMPLE, FiringMode.SB: SIMPLE, FiringMode.BF: SIMPLE,
    FiringMode.FA: COMPLEX})


@dataclass(frozen=True)
class Defence:
    """The target's side of the shot: armor worn, what makes dodging harder, what is hit and what is in the way.

    A vehicle's one armor rating is ``ballistic``; ``barrier`` is the rating of the barrier shot at (``target`` a
    barrier) or through (0: none in the way); ``dermal`` the dermal armor rating, part of the modified Body.
    """

    ballistic: int = 0
    impact: int = 0
    wound_modifier: int = 0
    shotgun_spread: int = 0
    cramped: int = 0
    area_weapon: bool = False
    target: TargetKind = TargetKind.CHARACTER
    barrier: int = 0
    dermal: int = 0


@dataclass(frozen=True)
class ShotInputs:
    """Everything the GM set for one shot, as plain values."""

    code_text: str
    strength: int
    kind: WeaponKind
    ammo: Ammo
    attack: RangedAttack
    defence: Defence
    called_effect: CalledShotEffect
    spot_armor: int
    attack_dice: int
    dodge_dice: int
    resist_dice: int
    shooter_armor: tuple[int, int] = (0, 0)
    #: A blast's Power lost per metre and the target's distance from its centre in metres.
    falloff: int = 0
    blast_metres: int = 0
    #: A shotgun's Power lost per step of spread (the steps are the defence's ``shotgun_spread``).
    spread_power: int = 0
    #: Full auto at a later target of the burst: metres from the previous target (a round wasted per metre).
    switch_metres: int = 0


@dataclass(frozen=True)
class ShotSheet:
    """What the rules make of a :class:`ShotInputs`: target numbers, damage codes and the odds."""

    attack_tn: TargetNumber
    base: DamageCode
    mode_code: tuple[int, str]
    power: int
    level: str
    armor: int
    resist_tn: int
    dodge_tn: TargetNumber
    misfire_resist_tn: int
    odds: dict[str, float]
    #: The barrier's rating as the ammunition leaves it (0: none): above the Power, it stops the attack.
    barrier: int = 0
    #: The weapon's own code when a blast's fall-off or a shotgun's spread lowered ``base`` (None: neither did).
    weapon_code: DamageCode | None = None
    #: Rounds the burst wasted changing to this target: fired (recoil, ammunition), hitting nobody.
    wasted: int = 0

    @property
    def stopped(self) -> bool:
        """"A barrier rated above the attack's Power stops it"."""
        return barrier_stops(self.barrier, self.power)

    @property
    def track(self) -> str:
        """Stun codes go on the stun track."""
        return STUN if self.base.stun else PHYSICAL


def _armor_after_called_shot(inputs: ShotInputs) -> tuple[int, int, TargetKind]:
    """(ballistic, impact, kind) the resistance test uses: a called shot at a spot or part replaces the armor, a
    barrier shot at has its rating (an explosive round damages it "as if half")."""
    defence = inputs.defence
    if defence.target is TargetKind.BARRIER:
        rating = defence.barrier // 2 if inputs.ammo in EXPLOSIVE_AMMO else defence.barrier
        return rating, rating, TargetKind.BARRIER
    ballistic, impact = defence.ballistic, defence.impact
    if not inputs.attack.called_shot or inputs.called_effect is CalledShotEffect.EXTRA_LEVEL:
        return ballistic, impact, defence.target
    if inputs.called_effect is CalledShotEffect.UNARMORED_SPOT:
        return min(ballistic, inputs.spot_armor), min(impact, inputs.spot_armor), defence.target
    # A vehicle part (windows, tyres): "barrier rating", whatever the weapon.
    return inputs.spot_armor, inputs.spot_armor, TargetKind.BARRIER


def _barrier(inputs: ShotInputs, data: Sr3Tables) -> int:
    """The rating of the barrier shot at or through, as the ammunition leaves it (0: none)."""
    defence = inputs.defence
    if defence.target is TargetKind.BARRIER and inputs.ammo in EXPLOSIVE_AMMO:
        return defence.barrier // 2  # "the barrier damaged as if half"
    return barrier_rating(defence.barrier, inputs.ammo, data)


def burst_wasted(inputs: ShotInputs, data: Sr3Tables) -> int:
    """Rounds the full-auto burst wastes changing to this target, once its share of the burst adds up."""
    attack = inputs.attack
    wasted = wasted_rounds(attack.mode, inputs.switch_metres, attack.smartgun)
    rounds = attack.rounds if attack.rounds is not None else data.firing_modes[attack.mode].min_rounds
    check_burst(data, attack.mode, attack.rounds_fired_before, inputs.switch_metres, wasted, rounds)
    return wasted


def _wasted_note(wasted: int) -> str:
    return ngettext("{count} round wasted changing target: it adds to the recoil.",
                    "{count} rounds wasted changing target: they add to the recoil.", wasted).format(count=wasted)


def _attack_tn(inputs: ShotInputs, data: Sr3Tables, wasted: int = 0) -> TargetNumber:
    """The ranged TN; an explosive round at a barrier: "the attack TN is 2 × its rating" in place of the range.
    Rounds wasted changing target were fired in this phase: they recoil like the others."""
    attack = replace(inputs.attack, rounds_fired_before=inputs.attack.rounds_fired_before + wasted)
    tn = ranged_tn(attack, data)
    if wasted:
        tn = target_number(tn.lines, data.minimum_tn, (*tn.notes, _wasted_note(wasted)))
    if inputs.defence.target is not TargetKind.BARRIER or inputs.ammo not in EXPLOSIVE_AMMO:
        return tn
    breach = line("barrier_breach", data.ammo.ex_barrier_tn_multiplier * inputs.defence.barrier)
    rest = [item for item in tn.lines if item.key != "range"]
    return target_number([breach, *rest], data.minimum_tn, tn.notes)


def work_out(inputs: ShotInputs, data: Sr3Tables) -> ShotSheet:
    """Ask the rules for the shot's TNs, damage and odds; RulesError names what the GM must fix."""
    weapon_code = parse_damage_code(inputs.code_text).for_strength(inputs.strength)
    lowered = blast_power(weapon_code.power, inputs.falloff, inputs.blast_metres)
    base = replace(weapon_code, power=spread_power(lowered, inputs.spread_power, inputs.defence.shotgun_spread))
    require(inputs.defence.target is not TargetKind.BARRIER or inputs.defence.barrier > 0,
            _("Type the rating of the barrier shot at."))
    require(inputs.defence.dermal >= 0, _("Armor ratings cannot be negative."))
    wasted = burst_wasted(inputs, data)
    attack_tn = _attack_tn(inputs, data, wasted)
    rounds = inputs.attack.rounds
    mode_power, mode_level = damage_code(base.power, base.level, inputs.attack.mode, rounds, data)
    defence = inputs.defence
    ballistic, impact, kind = _armor_after_called_shot(inputs)
    # Flechette's extra level is for an unarmored character: not a vehicle, a barrier, nor dermal armor.
    power, level = ammo_damage_code(mode_power, mode_level, inputs.ammo, defence.ballistic, defence.impact,
                                    dermal=defence.dermal > 0, target=defence.target, tables=data)
    if inputs.attack.called_shot and inputs.called_effect is CalledShotEffect.EXTRA_LEVEL:
        level = called_shot(inputs.called_effect, level, 0, tables=data).level
    armor = relevant_armor(ballistic, impact, inputs.kind, inputs.ammo, target=kind, tables=data)
    resist = resistance_tn(mode_power, ballistic, impact, inputs.kind, inputs.ammo, target=kind, tables=data)
    dodge = dodge_tn(rounds or 1, shotgun_spread=defence.shotgun_spread, wound_modifier=defence.wound_modifier,
                     cramped=defence.cramped, area_weapon=defence.area_weapon, tables=data)
    misfire = resistance_tn(weapon_code.power, *inputs.shooter_armor, inputs.kind, Ammo.NORMAL, tables=data)
    odds = attack_outcome_distribution(inputs.attack_dice, attack_tn.value, inputs.dodge_dice, dodge.value,
                                       inputs.resist_dice, resist, level)
    barrier = _barrier(inputs, data)
    if barrier_stops(barrier, power):
        odds = stopped_by_barrier(odds)
    return ShotSheet(attack_tn, base, (mode_power, mode_level), power, level, armor, resist, dodge, misfire, odds,
                     barrier, weapon_code if weapon_code != base else None, wasted)
