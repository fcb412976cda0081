"""Institute weapons as data: the fields a carried weapon has, what they mean, its picker line, ready-made ones.

A combatant's weapon (:class:`rules.encounter.Weapon`) holds what the attack form needs: its kind (a firearm's
own damage dice, a melee weapon's modifier to Strength, bare hands, a hand grenade thrown with Athletics), the
damage, the "Очередь" (Burst) parameter of the seed ("сколько пуль оно выпускает в режиме короткой очереди и
сколько из них попадает в цель": rounds fired / rounds that hit, e.g. 3/2), how it is usually fired, whether it
is held in one hand (only such weapons may be fired two at once, "АК-47 точно не соответствует этому
условию"), the skill it is used with, a grenade's fuse, and the magazine (:data:`rules.weapons.MAGAZINE`,
:data:`rules.weapons.ROUNDS`: a burst fires its burst, full auto twice that).

The bundled weapon table (:mod:`rules.systems.institut.tables`) is where the numbers come from: :func:`ready_made`
turns one of its entries into a weapon to carry, with a full magazine.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from rules.encounter import JsonValue, Weapon, frozen_map
from rules.errors import RulesError
from rules.systems.base import OptionKind, OptionSpec
from rules.systems.institut.combat import FIRE_MODE_LABELS, FireMode, Shot, rounds_fired
from rules.systems.institut.tables import (
    KIND_SKILLS,
    MAX_DICE,
    MAX_MAGAZINE,
    MAX_RADIUS,
    USUAL_SKILL,
    WEAPON_SKILLS,
    Burst,
    Falloff,
    InstitutTables,
    Modifiers,
    WeaponKind,
    load_tables,
    parse_burst,
    parse_falloff,
)
from rules.systems.institut.tables import Weapon as TableWeapon
from rules.text import N_, _, ngettext
from rules.weapons import MAGAZINE, ROUNDS, ammunition_fields, checked_weapon, text_field

KIND: Final[str] = "kind"
DAMAGE: Final[str] = "damage"
HIT: Final[str] = "hit"
BURST: Final[str] = "burst"
MODE: Final[str] = "mode"
ONE_HANDED: Final[str] = "one_handed"
SKILL: Final[str] = "skill"
TIMED: Final[str] = "timed"
RADIUS: Final[str] = "radius"
FALLOFF: Final[str] = "falloff"
#: Fields left out of a weapon's stored values at their default, so weapons saved before the fields existed (fights,
#: the roster, the weapons table) read back and replay exactly as they were saved.
_ADDED_FIELDS: Final[Mapping[str, JsonValue]] = MappingProxyType({HIT: 0, RADIUS: 0, FALLOFF: ""})

KIND_LABELS: Final[Mapping[WeaponKind, str]] = MappingProxyType({
    WeaponKind.FIREARM: N_("Firearm"),
    WeaponKind.MELEE: N_("Melee weapon"),
    WeaponKind.UNARMED: N_("Unarmed"),
    WeaponKind.GRENADE: N_("Hand grenade"),
})
SKILL_LABELS: Final[Mapping[str, str]] = MappingProxyType({
    "shooting": N_("Shooting"), "boxing": N_("Boxing"), "melee": N_("Melee"), "fencing": N_("Fencing"),
    "martial_arts": N_("Martial arts"), "athletics": N_("Athletics"),
})

FIELDS: Final[tuple[OptionSpec, ...]] = (
    OptionSpec(KIND, N_("Kind"), OptionKind.CHOICE, WeaponKind.FIREARM.value,
               choices=tuple((kind.value, label) for kind, label in KIND_LABELS.items())),
    OptionSpec(DAMAGE, N_("Damage dice"), OptionKind.INT, 0, minimum=-MAX_DICE, maximum=MAX_DICE,
               help=N_("A firearm's or grenade's damage dice; a melee weapon's dice added to Strength (may be "
                       "negative); 0 for bare hands (Strength and Martial arts).")),
    OptionSpec(HIT, N_("Dice to hit"), OptionKind.INT, 0, minimum=-MAX_DICE, maximum=MAX_DICE,
               help=N_("The weapon's own modifier to the attack roll, in dice (negative: harder to hit with).")),
    text_field(BURST, N_("Burst"), "", help=N_("Rounds fired / rounds that hit in a short burst, e.g. 3/2; "
                                               "empty: the weapon fires no bursts.")),
    OptionSpec(MODE, N_("Usual firing"), OptionKind.CHOICE, FireMode.SINGLE.value,
               choices=tuple((mode.value, label) for mode, label in FIRE_MODE_LABELS.items())),
    OptionSpec(ONE_HANDED, N_("One-handed"), OptionKind.BOOL, False,
               help=N_("Held in one hand (pistols, at most submachine guns): only such guns may be fired two at "
                       "once.")),
    OptionSpec(SKILL, N_("Skill"), OptionKind.CHOICE, "",
               choices=(("", N_("Usual for its kind")), *SKILL_LABELS.items())),
    OptionSpec(TIMED, N_("Timed fuse"), OptionKind.BOOL, False,
               help=N_("A grenade that explodes at the end of the round (otherwise on impact).")),
    OptionSpec(RADIUS, N_("Blast radius (m)"), OptionKind.INT, 0, minimum=0, maximum=MAX_RADIUS,
               help=N_("A grenade's blast radius in metres (0: not given, you judge who is caught).")),
    text_field(FALLOFF, N_("Dice by distance"), "", help=N_(
        "A grenade's distance table: up to each distance in metres, the dice its blast gains or loses there, "
        "nearest first, e.g. 3:0, 7:-2, 15:-4 (empty: the same dice all through the radius).")),
    *ammunition_fields(MAX_MAGAZINE, N_("Magazine"), N_("Rounds a full magazine holds (0: not loaded with rounds).")),
)


# --- reading a weapon ---------------------------------------------------------------------------------------


def weapon_kind(weapon: Weapon) -> WeaponKind:
    """What the weapon is (a firearm when it says nothing the game knows)."""
    try:
        return WeaponKind(str(weapon.value(KIND, WeaponKind.FIREARM.value)))
    except ValueError:
        return WeaponKind.FIREARM


def weapon_burst(weapon: Weapon) -> Burst | None:
    """The weapon's burst (None: it fires no bursts)."""
    text = weapon.value(BURST)
    try:
        return parse_burst(text) if isinstance(text, str) and text.strip() else None
    except RulesError:
        return None


def weapon_mode(weapon: Weapon) -> FireMode:
    """How the weapon is usually fired (single shots unless it says otherwise)."""
    try:
        return FireMode(str(weapon.value(MODE, FireMode.SINGLE.value)))
    except ValueError:
        return FireMode.SINGLE


def weapon_falloff(weapon: Weapon) -> Falloff:
    """A grenade's distance table (none when it has none, or one :func:`check_weapon` would refuse)."""
    text = weapon.value(FALLOFF)
    try:
        return parse_falloff(text) if isinstance(text, str) else Falloff()
    except RulesError:
        return Falloff()


def weapon_skill(weapon: Weapon) -> str:
    """The attribute key of the skill the weapon is used with: its own, else its kind's usual one."""
    skill = weapon.value(SKILL)
    return skill if isinstance(skill, str) and skill in WEAPON_SKILLS else USUAL_SKILL[weapon_kind(weapon)]


def usual_rounds(weapon: Weapon, modifiers: Modifiers) -> int:
    """Rounds one attack in the weapon's usual firing uses: one, a burst, twice a burst on full auto, two guns."""
    return rounds_fired(Shot(kind=weapon_kind(weapon), mode=weapon_mode(weapon), burst=weapon_burst(weapon)),
                        modifiers)


# --- checking -----------------------------------------------------------------------------------------------


def check_weapon(weapon: Weapon) -> Weapon:
    """``weapon`` if its values mean something in the Institute (the burst written as ``3/2``); RulesError
    naming the weapon and what is wrong otherwise."""
    name, kind, mode = weapon.name, weapon_kind(weapon), weapon_mode(weapon)
    burst = _checked_burst(weapon)
    firearm = kind is WeaponKind.FIREARM
    if not firearm:
        _check_not_a_firearm(weapon, burst, mode)
    damage = weapon.number(DAMAGE)
    if kind in (WeaponKind.FIREARM, WeaponKind.GRENADE) and damage < 0:
        raise RulesError(_("{weapon}: a firearm's or a grenade's damage is its dice, 0 or more (not {damage}).")
                         .format(weapon=name, damage=damage))
    if kind is WeaponKind.UNARMED and damage:
        raise RulesError(_("{weapon}: bare hands do Strength dice (+ Martial arts): leave the damage at 0.").format(
            weapon=name))
    if mode in (FireMode.BURST, FireMode.AUTO) and burst is None:
        raise RulesError(_("{weapon}: give its burst (rounds fired / rounds that hit, e.g. 3/2) to fire short "
                           "bursts or full auto.").format(weapon=name))
    if mode is FireMode.TWO_GUNS and weapon.value(ONE_HANDED) is not True:
        raise RulesError(_("{weapon}: two guns at once only with weapons held in one hand (pistols, at most "
                           "submachine guns).").format(weapon=name))
    if weapon.value(TIMED) is True and kind is not WeaponKind.GRENADE:
        raise RulesError(_("{weapon}: only a grenade has a timed fuse.").format(weapon=name))
    falloff = _checked_falloff(weapon, kind)
    skill = weapon.value(SKILL)
    if isinstance(skill, str) and skill and skill not in KIND_SKILLS[kind]:
        raise RulesError(_("{weapon}: {skill} is not a skill for this kind of weapon ({kind}).").format(
            weapon=name, skill=_(SKILL_LABELS[skill]), kind=_(KIND_LABELS[kind])))
    if falloff is not None:
        weapon = weapon.with_value(FALLOFF, falloff.text())
    return _without_plain_hit(weapon.with_value(BURST, burst.text() if burst is not None else ""))


def _checked_falloff(weapon: Weapon, kind: WeaponKind) -> Falloff | None:
    """The grenade's distance table, written the usual way (None: the weapon has none)."""
    text = weapon.value(FALLOFF)
    if not isinstance(text, str) or not text.strip():
        falloff = None
    else:
        try:
            falloff = parse_falloff(text)
        except RulesError as problem:
            raise RulesError(_("{weapon}: {problem}").format(weapon=weapon.name, problem=problem)) from None
    if (falloff is not None or weapon.number(RADIUS)) and kind is not WeaponKind.GRENADE:
        raise RulesError(_("{weapon}: only a grenade has a blast radius or a distance table.").format(
            weapon=weapon.name))
    return falloff


def without_plain_hit(values: Mapping[str, JsonValue]) -> Mapping[str, JsonValue]:
    """A weapon's values as stored: no dice to hit, blast radius or distance table written when there are none, so
    weapons saved before those fields existed (fights, the roster, the weapons table) read back and replay exactly
    as they were saved."""
    plain = [key for key, default in _ADDED_FIELDS.items()
             if key in values and values[key] == default and not isinstance(values[key], bool)]
    if not plain:
        return values
    return frozen_map({key: value for key, value in values.items() if key not in plain})


def _without_plain_hit(weapon: Weapon) -> Weapon:
    return Weapon(weapon.name, without_plain_hit(weapon.values))


def _checked_burst(weapon: Weapon) -> Burst | None:
    text = weapon.value(BURST)
    if not isinstance(text, str) or not text.strip():
        return None
    try:
        return parse_burst(text)
    except RulesError as problem:
        raise RulesError(_("{weapon}: {problem}").format(weapon=weapon.name, problem=problem)) from None


def _check_not_a_firearm(weapon: Weapon, burst: Burst | None, mode: FireMode) -> None:
    if burst is not None or mode is not FireMode.SINGLE:
        raise RulesError(_("{weapon}: only a firearm fires bursts, full auto or two at once.").format(
            weapon=weapon.name))
    if weapon.number(MAGAZINE):
        raise RulesError(_("{weapon}: only a firearm has a magazine.").format(weapon=weapon.name))


# --- showing ------------------------------------------------------------------------------------------------


def describe_weapon(weapon: Weapon) -> str:
    """``AK-74 (7 dice, burst 3/2)``, ``Scoped AK (7 dice, +2 dice to hit)``, ``Knife (Strength +1)``, ``F-1
    (grenade, 8 dice)``: the numbers the GM rolls, never the rounds (the attack dialog shows them beside the picker)."""
    kind, damage = weapon_kind(weapon), weapon.number(DAMAGE)
    if kind is WeaponKind.MELEE:
        details = _("Strength {modifier:+d}").format(modifier=damage)
    elif kind is WeaponKind.UNARMED:
        details = _("Strength, bare hands")
    else:
        dice = ngettext("{count} die", "{count} dice", damage).format(count=damage)
        burst = weapon_burst(weapon)
        radius = weapon.number(RADIUS)
        if kind is WeaponKind.GRENADE and radius:
            details = _("grenade, {dice}, radius {radius} m").format(dice=dice, radius=radius)
        elif kind is WeaponKind.GRENADE:
            details = _("grenade, {dice}").format(dice=dice)
        elif burst is not None:
            details = _("{dice}, burst {burst}").format(dice=dice, burst=burst.text())
        else:
            details = dice
    hit = weapon.number(HIT)
    if hit and kind is not WeaponKind.GRENADE:
        details = _("{details}, {hit} to hit").format(details=details, hit=ngettext(
            "{count:+d} die", "{count:+d} dice", abs(hit)).format(count=hit))
    return _("{weapon} ({details})").format(weapon=weapon.name, details=details)


# --- ready-made weapons from the data tables ----------------------------------------------------------------


def table_values(entry: TableWeapon) -> dict[str, JsonValue]:
    """A weapon table entry as a carried weapon's values (single shots, a full magazine)."""
    return {KIND: entry.kind.value, DAMAGE: entry.damage, HIT: entry.hit,
            BURST: entry.burst.text() if entry.burst else "", MODE: FireMode.SINGLE.value,
            ONE_HANDED: entry.one_handed, SKILL: entry.skill, TIMED: entry.timed,
            MAGAZINE: entry.magazine, ROUNDS: entry.magazine, RADIUS: entry.radius, FALLOFF: entry.falloff.text()}


def ready_made(key: str, name: str = "", data: InstitutTables | None = None, **changes: JsonValue) -> Weapon:
    """The weapon table's entry ``key`` as a weapon to carry, called ``name`` (default: the key), with
    ``changes`` (e.g. ``mode="auto"``; a new ``magazine`` comes full unless ``rounds`` is given); checked."""
    tables = data if data is not None else load_tables()
    entry = tables.weapons.get(key)
    if entry is None:
        raise RulesError(_("There is no weapon “{weapon}” in the weapon table.").format(weapon=key))
    values = {**table_values(entry), **changes}
    if MAGAZINE in changes and ROUNDS not in changes:
        values[ROUNDS] = values[MAGAZINE]
    return check_weapon(checked_weapon(Weapon(name or key, frozen_map(values)), FIELDS))


def ready_made_weapons(data: InstitutTables | None = None) -> tuple[Weapon, ...]:
    """Every entry of the weapon table as a weapon to carry (a roster editor offers these)."""
    tables = data if data is not None else load_tables()
    return tuple(ready_made(key, data=tables) for key in sorted(tables.weapons, key=str.casefold))
