"""SR3 weapons as data: the fields a saved weapon has, what they may hold, and its line in a weapon picker.

A weapon stores what the attack dialog's weapon box asks for: its damage code, its kind (which armor counts), its
class for the range table, the firing modes it has, recoil compensation, a smart system, the ammunition loaded,
the magazine and the rounds in it and how it is loaded (a detachable clip or not: what a reload costs). It also
keeps the wielder's skill rating with it (a template's Ganger shoots his Uzi with SMG 3: Repeat last attack rolls
those dice) and, for a melee weapon, its reach. Melee weapons are kept now; the ranged attack dialog refuses them
with a message, and the melee rules (:mod:`.melee`) read the same damage code and reach.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from functools import cache
from types import MappingProxyType
from typing import Final, TypeVar

from rules.encounter import JsonValue, Weapon
from rules.errors import RulesError
from rules.systems.base import OptionKind, OptionSpec
from rules.systems.sr3.damage import (
    AMMO_LABELS,
    Ammo,
    canonical_damage_code,
    describe_damage_code,
    format_damage_code,
    parse_damage_code,
)
from rules.systems.sr3.tables import WEAPON_CLASS_LABELS, FiringMode, WeaponKind, load_tables
from rules.text import N_, _
from rules.weapons import MAGAZINE, ammunition_fields, text_field

DAMAGE, KIND, WEAPON_CLASS, MODES, COMPENSATION, SMART, LASER, AMMO, LOADING, SKILL, REACH = (
    "damage", "kind", "weapon_class", "modes", "recoil_compensation", "smart", "laser_sight", "ammo", "loading",
    "skill", "reach")
#: sr3.md, Grenades: "Power falling with distance by the grenade's rate per metre, level unchanged"; the rate is the
#: weapon's (sr3.md's Decision: "grenade codes and fall-off … data, none fixed here").
BLAST_FALLOFF = "blast_falloff"
#: sr3.md, Shotguns: "shot spreads with range and choke" (the dodge's "+1 per shotgun spread step"); the Power each
#: step costs is the weapon's (the Decision: "shotgun spread and Power: data, none fixed here").
SPREAD_POWER = "spread_power"
#: sr3.md, Ranges: "bow STRmin ×1/10/30/60 (its Strength Minimum)": a bow's bands scale with the bow's own number.
STRENGTH_MINIMUM = "strength_minimum"

E = TypeVar("E", bound=StrEnum)

#: The modes a weapon lists (SR3's weapon tables: SS, SA, BF, FA); a short burst is what BF or FA fire when the
#: clip runs out, so it is offered with them and never listed.
LISTED_MODES: Final[tuple[FiringMode, ...]] = (FiringMode.SS, FiringMode.SA, FiringMode.BF, FiringMode.FA)
#: A weapon's ``modes`` as it is stored: the listed modes in this order, joined by "/".
MODE_SEPARATOR: Final[str] = "/"


class Loading(StrEnum):
    """How a firearm is loaded, which decides what a reload costs."""

    CLIP = "clip"  # a detachable clip: out with one simple action, a new one in with another
    INTERNAL = "internal"  # no detachable clip (internal magazine, cylinder): a complex action


class Smart(StrEnum):
    """The weapon's smart system: none, a smartgun, or a smartgun its wielder is linked to by a smartlink."""

    NONE = "none"
    SMARTGUN = "smartgun"
    SMARTLINK = "smartlink"


WEAPON_KIND_LABELS: Final[Mapping[WeaponKind, str]] = MappingProxyType({
    WeaponKind.FIREARM: N_("Firearm (ballistic armor)"),
    WeaponKind.PROJECTILE: N_("Bow or crossbow (ballistic armor)"),
    WeaponKind.THROWN: N_("Thrown weapon (impact armor)"),
    WeaponKind.BLAST: N_("Blast (impact armor)"),
    WeaponKind.MELEE: N_("Melee weapon (impact armor)"),
})
SMART_LABELS: Final[Mapping[Smart, str]] = MappingProxyType({
    Smart.NONE: N_("No smart system"),
    Smart.SMARTGUN: N_("Smartgun (no smartlink)"),
    Smart.SMARTLINK: N_("Smartgun with smartlink"),
})
LOADING_LABELS: Final[Mapping[Loading, str]] = MappingProxyType({
    Loading.CLIP: N_("Detachable clip"),
    Loading.INTERNAL: N_("No detachable clip (internal magazine, cylinder)"),
})


def _choices(labels: Mapping[E, str]) -> tuple[tuple[str, str], ...]:
    return tuple((value.value, label) for value, label in labels.items())


#: How a damage code is typed (the weapons table's column and the attack dialog's field alike).
DAMAGE_CODE_HELP: Final = N_("Power and level in the letters of your book, e.g. 9M, (STR+2)L or 6S Stun.")


@cache
def weapon_fields() -> tuple[OptionSpec, ...]:
    """The fields of an SR3 weapon, in the order a form shows them; the range classes are the bundled table's."""
    classes = tuple((key, WEAPON_CLASS_LABELS.get(key, key)) for key in load_tables().weapon_ranges)
    return (
        text_field(DAMAGE, N_("Damage code"), "9M", help=DAMAGE_CODE_HELP),
        OptionSpec(KIND, N_("Weapon kind"), OptionKind.CHOICE, WeaponKind.FIREARM.value,
                   choices=_choices(WEAPON_KIND_LABELS)),
        OptionSpec(WEAPON_CLASS, N_("Weapon class"), OptionKind.CHOICE, "", choices=(("", N_("Not given")), *classes)),
        text_field(MODES, N_("Firing modes"), "",
                   help=N_("The modes a firearm fires, e.g. SA or SA/BF/FA (SS, SA, BF, FA); none for other weapons.")),
        OptionSpec(COMPENSATION, N_("Recoil compensation"), OptionKind.INT, 0, minimum=0, maximum=30),
        OptionSpec(SMART, N_("Smart system"), OptionKind.CHOICE, Smart.NONE.value, choices=_choices(SMART_LABELS)),
        OptionSpec(LASER, N_("Laser sight"), OptionKind.BOOL, False),
        OptionSpec(AMMO, N_("Ammunition"), OptionKind.CHOICE, Ammo.NORMAL.value, choices=_choices(AMMO_LABELS)),
        *ammunition_fields(500, help=N_("The rounds a full load holds; 0: not loaded with rounds (a knife, a bow).")),
        OptionSpec(LOADING, N_("Loading"), OptionKind.CHOICE, Loading.CLIP.value, choices=_choices(LOADING_LABELS)),
        OptionSpec(SKILL, N_("Skill rating"), OptionKind.INT, 0, minimum=0, maximum=20,
                   help=N_("The wielder's skill dice with this weapon (Pistols 4: 4); 0: typed in each attack.")),
        OptionSpec(REACH, N_("Reach"), OptionKind.INT, 0, minimum=0, maximum=5,
                   help=N_("A melee weapon's reach (a troll's +1 included).")),
        OptionSpec(STRENGTH_MINIMUM, N_("Strength Minimum"), OptionKind.INT, 0, minimum=0, maximum=30, filled=False,
                   help=N_("A bow's Strength Minimum: its range bands scale with it, not with the wielder's "
                           "Strength; 0: the wielder's Strength.")),
        OptionSpec(BLAST_FALLOFF, N_("Power lost per metre"), OptionKind.INT, 0, minimum=0, maximum=20, filled=False,
                   help=N_("A grenade's or other blast's fall-off: its Power drops by this much for each metre "
                           "between the blast and the target, the level unchanged; 0: none.")),
        OptionSpec(SPREAD_POWER, N_("Power lost per spread step"), OptionKind.INT, 0, minimum=0, maximum=20,
                   filled=False,
                   help=N_("A shotgun's shot spreads with range and choke: each step of spread at the target lowers "
                           "the Power by this much (and makes the dodge 1 harder); 0: none.")),
    )


# --- reading a weapon ---------------------------------------------------------------------------

def weapon_kind(weapon: Weapon) -> WeaponKind:
    """What delivers the weapon's damage (a firearm when the value means nothing)."""
    try:
        return WeaponKind(str(weapon.value(KIND, WeaponKind.FIREARM.value)))
    except ValueError:
        return WeaponKind.FIREARM


def is_melee(weapon: Weapon) -> bool:
    """Whether the weapon is a melee weapon (the ranged dialog cannot resolve it)."""
    return weapon_kind(weapon) is WeaponKind.MELEE


def firing_modes(weapon: Weapon) -> tuple[FiringMode, ...]:
    """The modes the weapon fires, in the canonical order (none: not a firearm, or nothing listed)."""
    try:
        return _modes(str(weapon.value(MODES, "") or ""), weapon.name)
    except RulesError:
        return ()


def weapon_class(weapon: Weapon) -> str | None:
    """The weapon's range-table class (None: not given)."""
    value = weapon.value(WEAPON_CLASS)
    return value if isinstance(value, str) and value else None


def ammunition(weapon: Weapon) -> Ammo:
    """The ammunition loaded (standard when the value means nothing)."""
    try:
        return Ammo(str(weapon.value(AMMO, Ammo.NORMAL.value)))
    except ValueError:
        return Ammo.NORMAL


def smart_system(weapon: Weapon) -> Smart:
    """The weapon's smart system (none when the value means nothing)."""
    try:
        return Smart(str(weapon.value(SMART, Smart.NONE.value)))
    except ValueError:
        return Smart.NONE


def loading(weapon: Weapon) -> Loading:
    """How the weapon is loaded (a detachable clip when the value means nothing)."""
    try:
        return Loading(str(weapon.value(LOADING, Loading.CLIP.value)))
    except ValueError:
        return Loading.CLIP


# --- checking and describing --------------------------------------------------------------------

def _modes(text: str, name: str) -> tuple[FiringMode, ...]:
    """``SA/BF/FA`` (any case, separated by /, commas or spaces) as modes; RulesError names a stray one."""
    given: set[FiringMode] = set()
    for word in text.replace(",", " ").replace(MODE_SEPARATOR, " ").replace("+", " ").split():
        mode = next((mode for mode in LISTED_MODES if mode.value == word.upper()), None)
        if mode is None:
            raise RulesError(_("{weapon}: “{mode}” is not a firing mode; use SS, SA, BF or FA.").format(
                weapon=name, mode=word[:20]))
        given.add(mode)
    return tuple(mode for mode in LISTED_MODES if mode in given)


def _damage(weapon: Weapon) -> str:
    try:
        return format_damage_code(parse_damage_code(str(weapon.value(DAMAGE, ""))))
    except RulesError as problem:
        raise RulesError(_("{weapon}: {problem}").format(weapon=weapon.name, problem=problem)) from None


def _ranged_only(weapon: Weapon, modes: tuple[FiringMode, ...]) -> str | None:
    """The label of the first field a melee weapon has set that only a ranged weapon has (None: none is)."""
    fields = {spec.key: spec for spec in weapon_fields()}
    set_fields = (
        (MODES, bool(modes)),
        (WEAPON_CLASS, weapon_class(weapon) is not None),
        (COMPENSATION, weapon.number(COMPENSATION) > 0),
        (SMART, smart_system(weapon) is not Smart.NONE),
        (LASER, weapon.value(LASER) is True),
        (AMMO, ammunition(weapon) is not Ammo.NORMAL),
        (MAGAZINE, weapon.number(MAGAZINE) > 0),
    )
    return next((fields[key].label for key, is_set in set_fields if is_set), None)


def check_weapon(weapon: Weapon) -> Weapon:
    """``weapon`` (its fields checked) if SR3 can read it, with its damage code and modes in canonical form."""
    code = _damage(weapon)
    modes = _modes(str(weapon.value(MODES, "") or ""), weapon.name)
    kind = weapon_kind(weapon)
    if kind is WeaponKind.MELEE:
        field = _ranged_only(weapon, modes)
        if field is not None:
            raise RulesError(_("{weapon}: a melee weapon has no “{field}”.").format(weapon=weapon.name,
                                                                                    field=_(field)))
    elif weapon.number(REACH) > 0:
        raise RulesError(_("{weapon}: only a melee weapon has reach.").format(weapon=weapon.name))
    if kind is WeaponKind.FIREARM and not modes:
        raise RulesError(_("{weapon}: a firearm needs its firing modes, e.g. SA or SA/BF/FA.").format(
            weapon=weapon.name))
    return weapon.with_value(DAMAGE, code).with_value(MODES, MODE_SEPARATOR.join(mode.value for mode in modes))


def shown_value(key: str, value: JsonValue) -> JsonValue:
    """A stored field as the GM reads it: the damage code in the level letters of their language (Czech ``9S``
    for a stored Deadly ``9D``); anything else, or a code that does not read, as it is."""
    if key != DAMAGE or not isinstance(value, str):
        return value
    try:
        return describe_damage_code(parse_damage_code(value))
    except RulesError:
        return value


def typed_value(key: str, text: str) -> JsonValue:
    """A field as the GM typed it, as it is stored: a damage code read in their language's letters and stored
    canonical (Czech ``9S`` → ``9D``); unreadable text stays as typed, for :func:`check_weapon` to refuse."""
    if key != DAMAGE:
        return text
    try:
        return canonical_damage_code(text)
    except RulesError:
        return text


def describe_weapon(weapon: Weapon) -> str:
    """``Ares Predator · 9M · SA``; a melee weapon ``Katana · (STR+3)M · reach 1``; special ammunition named."""
    text = str(weapon.value(DAMAGE, ""))
    try:
        code = describe_damage_code(parse_damage_code(text))
    except RulesError:
        code = text
    parts = [weapon.name, code]
    if is_melee(weapon):
        if weapon.number(REACH):
            parts.append(_("reach {reach}").format(reach=weapon.number(REACH)))
        return " · ".join(parts)
    modes = firing_modes(weapon)
    if modes:
        parts.append(MODE_SEPARATOR.join(mode.value for mode in modes))
    if ammunition(weapon) is not Ammo.NORMAL:
        parts.append(_(AMMO_LABELS[ammunition(weapon)]))
    return " · ".join(parts)
