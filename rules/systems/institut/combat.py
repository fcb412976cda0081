"""Institute's attack arithmetic: how many dice each roll gets, who wins, how many wounds a hit makes.

Every modifier counts in dice (−1 = one die fewer) and every roll is a pool of d6 summed; the GM's option
(institut.md Decision) may count the situational ones (ambush, point blank, called shots, two guns, cover…)
as points added to the total instead, while an extra action's −1 and full auto's two dice stay dice, as the
seed states them. A roll against a
difficulty succeeds when it reaches it; against an opposing roll the defender must roll *more* than the
attack to block it (and, by default, to dodge it). These functions only compute; the operations in
:mod:`rules.systems.institut.ops` record the dice and change the fight.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from rules.errors import RulesError
from rules.systems.institut.tables import Burst, CalledShot, Falloff, Modifiers, WeaponKind
from rules.text import N_, _

#: The die every pool rolls unless the GM chose another (institut.md Decision: "d6, summed … the die size is an
#: option"), and the dice the option offers.
DEFAULT_SIDES: Final[int] = 6
DIE_CHOICES: Final[tuple[int, ...]] = (4, 6, 8, 10, 12, 20)
#: The dice as a GM's language writes them (Czech and Polish books: k6), translated when shown.
DIE_LABELS: Final[dict[int, str]] = {4: N_("d4"), 6: N_("d6"), 8: N_("d8"), 10: N_("d10"), 12: N_("d12"),
                                     20: N_("d20")}


class FireMode(StrEnum):
    """How a firearm is fired."""

    SINGLE = "single"
    BURST = "burst"  # short burst: "Burst = fired/hits"
    AUTO = "auto"  # full auto
    TWO_GUNS = "two_guns"  # a pistol in each hand, one attack roll, two damage rolls


class Defence(StrEnum):
    """What the attack roll is compared with."""

    DODGE = "dodge"  # the target's Dodge roll
    BLOCK = "block"  # the target's Boxing, Melee or Fencing roll (melee, or a shot with a shield in hand)
    DIFFICULTY = "difficulty"  # a number the GM sets (an immobile or unaware target, by size)


class DodgeTie(StrEnum):
    """Who wins when a dodge roll equals the attack roll (GM option; a block must always beat the attack)."""

    ATTACKER = "attacker"
    DEFENDER = "defender"


FIRE_MODE_LABELS: Final[dict[FireMode, str]] = {
    FireMode.SINGLE: N_("Single shot"),
    FireMode.BURST: N_("Short burst"),
    FireMode.AUTO: N_("Full auto"),
    FireMode.TWO_GUNS: N_("Two guns"),
}
DEFENCE_LABELS: Final[dict[Defence, str]] = {
    Defence.DODGE: N_("Dodge"),
    Defence.BLOCK: N_("Block"),
    Defence.DIFFICULTY: N_("Difficulty"),
}
WEAPON_KIND_LABELS: Final[dict[WeaponKind, str]] = {
    WeaponKind.FIREARM: N_("Firearm"),
    WeaponKind.MELEE: N_("Melee weapon"),
    WeaponKind.UNARMED: N_("Unarmed"),
}


class Unit(StrEnum):
    """What a situational modifier counts in (institut.md Decision: dice by default; option: points)."""

    DICE = "dice"
    POINTS = "points"


UNIT_LABELS: Final[dict[Unit, str]] = {
    Unit.DICE: N_("dice (−2 is two dice fewer)"),
    Unit.POINTS: N_("points added to the roll's total"),
}


@dataclass(frozen=True)
class Line:
    """One part of a dice pool, for the GM to read: an English source label and its dice, or (``points``) the
    points it adds to the total."""

    label: str
    dice: int
    points: bool = False


@dataclass(frozen=True)
class Pool:
    """A dice pool and how it was built; ``dice`` never drops below 0 (no dice: the roll is 0); ``points`` is
    added to the sum of the dice."""

    lines: tuple[Line, ...]

    @property
    def dice(self) -> int:
        """Dice to roll."""
        return max(0, sum(line.dice for line in self.lines if not line.points))

    @property
    def points(self) -> int:
        """Points added to (or, negative, taken off) the sum of the dice."""
        return sum(line.dice for line in self.lines if line.points)


def pool(*lines: tuple[str, int], keep_zero: Sequence[str] = (), in_points: Sequence[str] = ()) -> Pool:
    """A pool from (label, dice) parts; zero parts are dropped unless named in ``keep_zero``; parts named in
    ``in_points`` count as points added to the total instead of dice."""
    return Pool(tuple(Line(label, dice, label in in_points) for label, dice in lines
                      if dice or label in keep_zero))


#: The situational modifiers of each roll, which the GM's option may count in points (the others, skill,
#: wounds, extra actions, full auto, a weapon's damage dice, stay dice).
HIT_MODIFIERS: Final[tuple[str, ...]] = (N_("Weapon"), N_("Ambush (first round)"), N_("Called shot"),
                                         N_("Two guns"), N_("Visibility and natural cover"))
DAMAGE_MODIFIERS: Final[tuple[str, ...]] = (N_("Point blank"), N_("Called shot"), N_("Armor"), N_("Cover"))


@dataclass(frozen=True)
class Shot:
    """Everything the GM set for one attack (the dialog's form as plain values)."""

    kind: WeaponKind = WeaponKind.FIREARM
    mode: FireMode = FireMode.SINGLE
    skill: int = 0  # Shooting (firearm) or Boxing / Melee / Fencing dice
    damage: int = 0  # firearm: weapon dice; melee weapon: its modifier to Strength
    weapon_hit: int = 0  # the weapon's own dice to hit, signed (its description's modifiers)
    strength: int = 0
    martial_arts: int = 0
    burst: Burst | None = None
    identical_guns: bool = True
    second_gun: bool = False  # two guns, the second one a weapon of its own with its own magazine
    bursts: bool = False  # two guns, each firing its short burst ("Стрелять очередями … можно, но толку … никакого")
    one_handed: bool = True  # two guns at once only with weapons held in one hand
    point_blank: bool = False
    called: CalledShot | None = None
    armor: int = 0  # the target's body armor, in damage dice
    cover: int = 0  # cover between them, in damage dice
    wound_penalty: int = 0  # the attacker's, positive
    action_penalty: int = 0  # the attacker's for this round once this attack is counted, positive
    ambush: bool = False  # in place first and prepared, round one
    visibility: int = 0  # the GM's dice for not seeing the target well or natural cover (negative: harder)
    unit: Unit = Unit.DICE  # what the situational modifiers count in (the GM's option)


def attack_pool(shot: Shot, modifiers: Modifiers) -> Pool:
    """The attacker's dice: skill, the weapon's own modifier, wounds, extra actions, ambush, called shot, full
    auto, two guns, sight."""
    mode = shot.mode if shot.kind is WeaponKind.FIREARM else FireMode.SINGLE
    return pool(
        (N_("Skill"), shot.skill),
        (N_("Weapon"), shot.weapon_hit),
        (N_("Wounds"), -shot.wound_penalty),
        (N_("Additional actions this round"), -shot.action_penalty),
        (N_("Ambush (first round)"), modifiers.ambush_hit if shot.ambush else 0),
        (N_("Called shot"), shot.called.hit if shot.called is not None else 0),
        (N_("Full auto"), modifiers.full_auto_hit if mode is FireMode.AUTO else 0),
        (N_("Two guns"), modifiers.two_guns_hit if mode is FireMode.TWO_GUNS else 0),
        (N_("Visibility and natural cover"), shot.visibility),
        keep_zero=(N_("Skill"),),
        in_points=HIT_MODIFIERS if shot.unit is Unit.POINTS else (),
    )


def armor_counts(shot: Shot) -> bool:
    """Body armor counts unless the shot is called at a part it does not protect."""
    return shot.called is None or shot.called.armor


def damage_pool(shot: Shot, modifiers: Modifiers) -> Pool | None:
    """The damage dice of one hit; None when a hit there wounds nobody (a pistol shot out of a hand)."""
    if shot.called is not None and shot.called.damage is None:
        return None
    if shot.kind is WeaponKind.FIREARM:
        base: tuple[tuple[str, int], ...] = ((N_("Weapon"), shot.damage),)
    elif shot.kind is WeaponKind.MELEE:
        base = ((N_("Strength"), shot.strength), (N_("Weapon"), shot.damage))
    else:
        base = ((N_("Strength"), shot.strength), (N_("Martial arts"), shot.martial_arts))
    firearm = shot.kind is WeaponKind.FIREARM
    return pool(
        *base,
        (N_("Point blank"), modifiers.point_blank_damage if firearm and shot.point_blank else 0),
        (N_("Full auto"), modifiers.full_auto_damage if firearm and shot.mode is FireMode.AUTO else 0),
        (N_("Called shot"), (shot.called.damage or 0) if shot.called is not None else 0),
        (N_("Armor"), -shot.armor if armor_counts(shot) else 0),
        (N_("Cover"), -shot.cover),
        keep_zero=(N_("Weapon"), N_("Strength")),
        in_points=DAMAGE_MODIFIERS if shot.unit is Unit.POINTS else (),
    )


def check_mode(shot: Shot) -> None:
    """Refuse a firing mode the weapon or the rules do not allow, saying why."""
    if shot.kind is not WeaponKind.FIREARM:
        return
    if (shot.mode in (FireMode.BURST, FireMode.AUTO) or (shot.mode is FireMode.TWO_GUNS and shot.bursts)) \
            and shot.burst is None:
        raise RulesError(_("Give the weapon's burst (rounds fired / rounds that hit, e.g. 3/2) to fire bursts."))
    if shot.mode is FireMode.TWO_GUNS and not shot.one_handed:
        # "только если вы можете держать их в одной руке — АК-47 точно не соответствует этому условию"
        raise RulesError(_("Two guns at once only with weapons held in one hand (pistols, at most submachine "
                           "guns)."))


def wounds_per_hit(shot: Shot, modifiers: Modifiers) -> int:
    """Wounds of the rolled class a hit puts on the pyramid: one, a burst's hits, or one more on full auto."""
    if shot.kind is not WeaponKind.FIREARM or shot.burst is None:
        return 1
    if shot.mode is FireMode.BURST:
        return shot.burst.hits
    if shot.mode is FireMode.AUTO:
        return shot.burst.hits + modifiers.full_auto_extra_hits
    return 1  # two guns firing bursts: allowed "но толку с этого никакого" (but no use), one wound a bullet


def damage_rolls(shot: Shot) -> int:
    """Damage rolls for one hit: two with two identical guns, otherwise one (different guns: one misses)."""
    if shot.kind is WeaponKind.FIREARM and shot.mode is FireMode.TWO_GUNS and shot.identical_guns:
        return 2
    return 1


def rounds_fired(shot: Shot, modifiers: Modifiers) -> int:
    """Ammunition one attack uses from its (first) weapon: one, a burst, twice a burst on full auto, or with two
    guns one (a burst with ``bursts``) per gun the weapon stands for."""
    if shot.kind is not WeaponKind.FIREARM:
        return 0
    if shot.mode is FireMode.BURST and shot.burst is not None:
        return shot.burst.fired
    if shot.mode is FireMode.AUTO and shot.burst is not None:
        return shot.burst.fired * modifiers.full_auto_ammo_multiplier
    if shot.mode is not FireMode.TWO_GUNS:
        return 1
    each = shot.burst.fired if shot.bursts and shot.burst is not None else 1
    # One weapon standing for both guns (fights saved before the second gun was a weapon of its own) holds both
    # guns' rounds; otherwise this is the first gun's share and the second gun's comes from its own magazine.
    return each if shot.second_gun else 2 * each


def defence_pool(skill: int, wound_penalty: int, action_penalty: int, visibility: int = 0) -> Pool:
    """The defender's dice: Dodge (or the blocking skill) less its wounds and extra actions."""
    return pool((N_("Skill"), skill), (N_("Wounds"), -wound_penalty),
                (N_("Additional actions this round"), -action_penalty),
                (N_("Situation"), visibility), keep_zero=(N_("Skill"),))


def blade_pool(strength: int, blade: int) -> Pool:
    """The damage a blade that blocks a bare fist does to the puncher: the blade's own damage, Strength plus its
    modifier ("когда меч блокирует кулак, бьющий получает повреждения от меча"; a fist is bare, so no armor)."""
    return pool((N_("Strength"), strength), (N_("Weapon"), blade), keep_zero=(N_("Strength"),))


def hits(attack: int, defence: Defence, opposing: int, dodge_tie: DodgeTie = DodgeTie.ATTACKER) -> bool:
    """Whether an attack total gets through: it reaches a difficulty, or the defender does not roll more."""
    if defence is Defence.DIFFICULTY:
        return attack >= opposing
    if defence is Defence.DODGE and dodge_tie is DodgeTie.DEFENDER:
        return attack > opposing
    return attack >= opposing


def suppression_difficulty(bullets_per_square: int, modifiers: Modifiers) -> int:
    """The dodge difficulty in a square under suppression fire: bullets in that square × 4."""
    return bullets_per_square * modifiers.suppression_per_bullet


def suppression_bullets(squares: int, burst: Burst, modifiers: Modifiers) -> int:
    """Rounds a suppression fire uses: one full-auto burst per square metre covered."""
    return squares * burst.fired * modifiers.full_auto_ammo_multiplier


@dataclass(frozen=True)
class Throw:
    """Where a grenade went: on target, or off it by (distance − roll) metres in a random direction."""

    on_target: bool
    deviation: int


def grenade_throw(distance: int, total: int) -> Throw:
    """Athletics against a difficulty equal to the distance in metres; a miss deviates by the shortfall."""
    if total >= distance:
        return Throw(True, 0)
    return Throw(False, distance - total)


#: The six directions of a hex, numbered as a d6 picks them, from straight beyond the target round to its left
#: (institut.md Decision: "the GM picks the direction (or a d6 on a hex)").
BEYOND, SHORT = 1, 4
HEX_DIRECTIONS: Final[dict[int, str]] = {
    1: N_("beyond the target"),
    2: N_("beyond, to the right"),
    3: N_("short, to the right"),
    4: N_("short, towards the thrower"),
    5: N_("short, to the left"),
    6: N_("beyond, to the left"),
}


@dataclass(frozen=True)
class Landing:
    """Where a thrown grenade lands: metres from the target and from the thrower, the hex direction it went off in
    (0: on target) and whether the throw was clearly short."""

    off_target: int
    from_thrower: int
    direction: int
    clearly_short: bool = False


def clearly_short(distance: int, total: int) -> bool:
    """institut.md Decision: "«clearly short» = a roll of at most half the distance" (and short of it)."""
    return total < distance and 2 * total <= distance


def landing(distance: int, total: int, direction: int) -> Landing:
    """Where a throw of ``total`` at ``distance`` metres lands, a miss going off in hex ``direction`` (1–6): a
    clearly short throw lands between thrower and target, ``total`` metres from the thrower ("is not to be read
    as an overshoot"); any other miss (distance − roll) metres from the target, the thrower's distance from there
    by the hex's angle (60° a step from straight beyond), to the nearest metre."""
    throw = grenade_throw(distance, total)
    if throw.on_target:
        return Landing(0, distance, 0)
    if clearly_short(distance, total):
        return Landing(throw.deviation, max(0, total), SHORT, clearly_short=True)
    if direction not in HEX_DIRECTIONS:
        raise RulesError(_("A direction on a hex is 1 to 6."))
    off = throw.deviation
    angle = math.radians(60 * (direction - 1))
    away = math.sqrt(max(0.0, distance ** 2 + off ** 2 + 2 * distance * off * math.cos(angle)))
    return Landing(off, round(away), direction)


def in_blast(radius: int, distance: int) -> bool:
    """Whether a creature ``distance`` metres from the explosion is caught (a radius of 0: not given, the GM says)."""
    return not radius or 0 <= distance <= radius


def blast_pool(damage: int, falloff: Falloff, distance: int, cover: int) -> Pool:
    """One creature's damage dice from a blast: the grenade's dice, changed by its distance table at ``distance``
    metres, less the creature's own cover (in dice): "rolled separately for each creature in the blast radius,
    with its own cover modifiers, changed by distance per the grenade's table"."""
    return pool((N_("Grenade"), damage), (N_("Distance"), falloff.change(distance)), (N_("Cover"), -cover),
                keep_zero=(N_("Grenade"),))
