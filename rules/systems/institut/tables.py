"""Institute's data tables: the bundled ``rules/systems/institut/data.json`` with the GM's overrides merged in.

Four tables, each behind an encounter option of kind TABLE: the default life pyramid, the called-shot table,
the dice modifiers the seed names, and the weapon list. The seed gives no weapon list (a **Decision**): the
bundled one holds the weapons the sample fight and the option's help name, with the values they give there
(AK-74 7 dice, burst 3/2; Makarov and TT pistol 5 dice, one-handed; sawn-off 6 dice; knife Strength +1), and
the weapons the seed names or implies, with placeholder values of the same scale: the AK-47 its two-gun rule
names, a submachine gun (two guns: "самое большее — пистолетами-пулеметами"), the mounted machine gun its
suppression fire is "best done with", the sword, chair leg and stick of its melee rules, and hand grenades
(timed and impact fuses). Magazines are the real guns' (the seed counts rounds: a burst fires its burst). The seed
omits the grenades' damage-by-distance tables (a **Decision**: "grenade profiles (damage dice, radius, distance
table) are data"): each grenade's ``radius`` and ``falloff`` (up to metres: dice change) are placeholders of the
same scale, full dice near it, fewer further out, editable like every other weapon value.
These entries are the ready-made weapons of the bestiary and the sample (:mod:`rules.systems.institut.arms`).
An override is merged key by key (``null`` removes a called-shot part or a weapon) and the result is checked
as a whole, so a mistake is reported with the dotted path of the offending entry.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, fields
from enum import StrEnum
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Any, Final

from rules.encounter import JsonValue, frozen_map
from rules.errors import RulesError
from rules.systems.institut.pyramid import CLASSES, Pyramid, pyramid_from_rows
from rules.text import N_, _

SCHEMA: Final[int] = 1
TABLE_KEYS: Final[tuple[str, ...]] = ("pyramid", "called_shots", "modifiers", "weapons")
#: Tables whose keys the GM names (new parts and weapons may be added, ``null`` removes one).
_OPEN: Final[frozenset[str]] = frozenset({"called_shots", "weapons"})
MAX_DICE: Final[int] = 40


#: Names of the bundled called-shot parts (a part the GM adds is shown by its key).
CALLED_SHOT_LABELS: Final[Mapping[str, str]] = MappingProxyType({
    "head": N_("Head"),
    "pistol": N_("Pistol in the hand"),
    "limb": N_("Arm or leg"),
})


def called_shot_label(key: str) -> str:
    """The translated name of a called-shot part (the key itself for a part the GM added)."""
    return _(CALLED_SHOT_LABELS[key]) if key in CALLED_SHOT_LABELS else key


class WeaponKind(StrEnum):
    """What delivers the blow: a firearm's own damage dice, Strength (plus a weapon's modifier), or a grenade's
    blast (thrown with Athletics)."""

    FIREARM = "firearm"
    MELEE = "melee"
    UNARMED = "unarmed"
    GRENADE = "grenade"


#: The skills an attack is rolled with (attribute keys), and the one each kind uses unless a weapon says.
WEAPON_SKILLS: Final[tuple[str, ...]] = ("shooting", "boxing", "melee", "fencing", "martial_arts", "athletics")
USUAL_SKILL: Final[Mapping[WeaponKind, str]] = MappingProxyType({
    WeaponKind.FIREARM: "shooting", WeaponKind.MELEE: "melee", WeaponKind.UNARMED: "boxing",
    WeaponKind.GRENADE: "athletics"})
#: The skills that make sense for each kind: firearms are shot, grenades thrown (Athletics), blows struck with
#: Boxing, Melee or Fencing (the seed's melee skills; Martial arts for bare hands).
KIND_SKILLS: Final[Mapping[WeaponKind, frozenset[str]]] = MappingProxyType({
    WeaponKind.FIREARM: frozenset({"shooting"}),
    WeaponKind.MELEE: frozenset({"boxing", "melee", "fencing"}),
    WeaponKind.UNARMED: frozenset({"boxing", "martial_arts"}),
    WeaponKind.GRENADE: frozenset({"athletics"}),
})
MAX_MAGAZINE: Final[int] = 999


@dataclass(frozen=True)
class CalledShot:
    """One part a shooter may aim at: dice to hit, damage dice (None: the hit wounds nobody), armor."""

    key: str
    hit: int
    damage: int | None
    armor: bool  # whether the target's body armor still counts against a hit there


@dataclass(frozen=True)
class Modifiers:
    """The seed's dice modifiers (signed: −1 is one die fewer) and multipliers."""

    extra_action: int
    extra_action_metres: int
    sprint_multiplier: int
    ambush_hit: int
    point_blank_damage: int
    full_auto_hit: int
    full_auto_damage: int
    full_auto_extra_hits: int
    full_auto_ammo_multiplier: int
    two_guns_hit: int
    suppression_per_bullet: int


@dataclass(frozen=True)
class Burst:
    """A weapon's "Burst = fired/hits" parameter, e.g. 3/2."""

    fired: int
    hits: int

    def text(self) -> str:
        """``3/2``."""
        return f"{self.fired}/{self.hits}"


@dataclass(frozen=True)
class Falloff:
    """A grenade's distance table (institut.md: damage "changed by distance per the grenade's table"): up to each
    distance in metres, the dice the blast gains or loses there; past the last distance its change still holds
    (the radius says where the blast ends)."""

    steps: tuple[tuple[int, int], ...] = ()

    def change(self, distance: int) -> int:
        """The dice change at ``distance`` metres (0 with no table)."""
        for metres, dice in self.steps:
            if distance <= metres:
                return dice
        return self.steps[-1][1] if self.steps else 0

    def text(self) -> str:
        """``3:0, 7:-2, 15:-4``."""
        return ", ".join(f"{metres}:{dice}" for metres, dice in self.steps)


@dataclass(frozen=True)
class Weapon:
    """A weapon from the GM's list: damage dice (a firearm, a grenade) or the modifier to Strength (a melee
    weapon); ``skill`` "" is the kind's usual one; ``magazine`` 0: not loaded with rounds."""

    key: str
    kind: WeaponKind
    damage: int
    burst: Burst | None = None
    one_handed: bool = False
    magazine: int = 0
    timed: bool = False
    skill: str = ""
    #: "к проверке навыка применяются модификаторы, описанные для соответствующего стрелкового оружия": the
    #: weapon's own dice to hit (signed), added to the attack roll.
    hit: int = 0
    radius: int = 0  # a grenade's blast radius in metres (0: not given, the GM judges who is caught)
    falloff: Falloff = Falloff()


@dataclass(frozen=True)
class InstitutTables:
    """Every table after the GM's overrides; pass it to the calculators."""

    pyramid: Pyramid
    called_shots: Mapping[str, CalledShot]
    modifiers: Modifiers
    weapons: Mapping[str, Weapon]


def parse_burst(text: str) -> Burst:
    """Read ``"3/2"`` (rounds fired / rounds that hit); RulesError with an example otherwise."""
    parts = text.replace(" ", "").split("/")
    if len(parts) == 2 and all(part.isascii() and part.isdigit() and len(part) <= 3 for part in parts):
        fired, hits = int(parts[0]), int(parts[1])
        if 1 <= hits <= fired:
            return Burst(fired, hits)
    raise RulesError(_("A burst is written as rounds fired / rounds that hit, e.g. 3/2 (not {text!r}).").format(
        text=text))


def parse_falloff(text: str) -> Falloff:
    """Read ``"3:0, 7:-2, 15:-4"`` (up to metres: dice change, nearest first; empty: no table); RulesError with
    an example otherwise."""
    steps: list[tuple[int, int]] = []
    for part in (piece.strip() for piece in text.replace(";", ",").split(",")):
        if not part:
            continue
        metres, _colon, dice = (item.strip() for item in part.partition(":"))
        number = dice.lstrip("+-")
        if not (_colon and metres.isascii() and metres.isdigit() and number.isascii() and number.isdigit()
                and len(metres) <= 3 and len(number) <= 2) or (steps and int(metres) <= steps[-1][0]):
            raise RulesError(_("A distance table is written as metres: dice change, nearest first, e.g. "
                               "3:0, 7:-2, 15:-4 (not {text!r}).").format(text=text))
        steps.append((int(metres), -int(number) if dice.startswith("-") else int(number)))
    return Falloff(tuple(steps))


# --- checked reading --------------------------------------------------------------------------------------


def _fail(path: str, expected: str, value: object) -> RulesError:
    return RulesError(_("Institute data: {path} must be {expected}, not {value!r}.").format(
        path=path, expected=expected, value=value))


def _group(value: object, path: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise _fail(path, _("a group of settings"), value)
    return value


def _integer(value: object, path: str, low: int, high: int) -> int:
    # bool is an int in Python; a GM typing true for a number is still a mistake.
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(path, _("a whole number"), value)
    if not low <= value <= high:
        raise _fail(path, _("between {low} and {high}").format(low=low, high=high), value)
    return value


def _flag(value: object, path: str) -> bool:
    if not isinstance(value, bool):
        raise _fail(path, _("true or false"), value)
    return value


def _entry(group: Mapping[str, Any], key: str, path: str) -> object:
    if key not in group:
        raise RulesError(_("Institute data: {path} is missing.").format(path=f"{path}.{key}"))
    return group[key]


def _only(group: Mapping[str, Any], allowed: tuple[str, ...], path: str) -> None:
    for key in group:
        if key not in allowed:
            raise RulesError(_("Institute data: unknown setting {path}.").format(path=f"{path}.{key}"))


def _pyramid(node: object) -> Pyramid:
    group = _group(node, "pyramid")
    _only(group, CLASSES, "pyramid")
    rows = []
    for key in CLASSES:
        path = f"pyramid.{key}"
        row = _group(_entry(group, key, "pyramid"), path)
        _only(row, ("from", "boxes", "penalty"), path)
        rows.append((_integer(_entry(row, "from", path), f"{path}.from", 1, 999),
                     _integer(_entry(row, "boxes", path), f"{path}.boxes", 1, 20),
                     _integer(_entry(row, "penalty", path), f"{path}.penalty", 0, 20)))
    try:
        return pyramid_from_rows(rows)
    except RulesError as problem:
        raise RulesError(_("Institute data: pyramid: {problem}").format(problem=problem)) from None


def _called_shot(key: str, node: object) -> CalledShot:
    path = f"called_shots.{key}"
    group = _group(node, path)
    _only(group, ("hit", "damage", "armor"), path)
    damage = _entry(group, "damage", path)
    return CalledShot(key, _integer(_entry(group, "hit", path), f"{path}.hit", -MAX_DICE, MAX_DICE),
                      None if damage is None else _integer(damage, f"{path}.damage", -MAX_DICE, MAX_DICE),
                      _flag(_entry(group, "armor", path), f"{path}.armor"))


def _modifiers(node: object) -> Modifiers:
    group = _group(node, "modifiers")
    names = tuple(spec.name for spec in fields(Modifiers))
    _only(group, names, "modifiers")
    values = {name: _integer(_entry(group, name, "modifiers"), f"modifiers.{name}", -MAX_DICE, MAX_DICE)
              for name in names}
    for name in ("sprint_multiplier", "full_auto_ammo_multiplier", "suppression_per_bullet"):
        if values[name] < 1:
            raise _fail(f"modifiers.{name}", _("at least 1"), values[name])
    return Modifiers(**values)


_WEAPON_FIELDS: Final[tuple[str, ...]] = ("kind", "damage", "hit", "burst", "one_handed", "magazine", "timed",
                                          "skill", "radius", "falloff")
MAX_RADIUS: Final[int] = 999
_TABLE_KINDS: Final[tuple[str, ...]] = (WeaponKind.FIREARM.value, WeaponKind.MELEE.value, WeaponKind.GRENADE.value)


def _weapon(key: str, node: object) -> Weapon:
    path = f"weapons.{key}"
    group = _group(node, path)
    _only(group, _WEAPON_FIELDS, path)
    kind_text = group.get("kind", WeaponKind.FIREARM.value)
    if kind_text not in _TABLE_KINDS:
        raise _fail(f"{path}.kind", _("“firearm”, “melee” or “grenade”"), kind_text)
    kind = WeaponKind(kind_text)
    burst = group.get("burst")
    if burst is not None and not isinstance(burst, str):
        raise _fail(f"{path}.burst", _("text such as “3/2”"), burst)
    try:
        parsed = parse_burst(burst) if burst else None
    except RulesError as problem:
        raise RulesError(f"{path}.burst: {problem}") from None
    skill = group.get("skill", "")
    if skill != "" and skill not in KIND_SKILLS[kind]:
        raise _fail(f"{path}.skill", _("one of {choices}").format(
            choices=", ".join(f"“{name}”" for name in sorted(KIND_SKILLS[kind]))), skill)
    magazine = _integer(group.get("magazine", 0), f"{path}.magazine", 0, MAX_MAGAZINE)
    if (parsed is not None or magazine) and kind is not WeaponKind.FIREARM:
        raise RulesError(_("Institute data: {path}: only a firearm has a burst or a magazine.").format(path=path))
    timed = _flag(group.get("timed", False), f"{path}.timed")
    if timed and kind is not WeaponKind.GRENADE:
        raise RulesError(_("Institute data: {path}: only a grenade has a timed fuse.").format(path=path))
    radius, falloff = _blast_profile(group, path, kind)
    return Weapon(key, kind, _integer(_entry(group, "damage", path), f"{path}.damage", -MAX_DICE, MAX_DICE),
                  parsed, _flag(group.get("one_handed", False), f"{path}.one_handed"), magazine, timed, skill,
                  _integer(group.get("hit", 0), f"{path}.hit", -MAX_DICE, MAX_DICE), radius, falloff)


def _blast_profile(group: Mapping[str, Any], path: str, kind: WeaponKind) -> tuple[int, Falloff]:
    """A grenade's radius and distance table (nothing for any other weapon)."""
    radius = _integer(group.get("radius", 0), f"{path}.radius", 0, MAX_RADIUS)
    text = group.get("falloff", "")
    if not isinstance(text, str):
        raise _fail(f"{path}.falloff", _("text such as “3:0, 7:-2, 15:-4”"), text)
    try:
        falloff = parse_falloff(text)
    except RulesError as problem:
        raise RulesError(f"{path}.falloff: {problem}") from None
    if (radius or falloff.steps) and kind is not WeaponKind.GRENADE:
        raise RulesError(_("Institute data: {path}: only a grenade has a blast radius or a distance table.").format(
            path=path))
    return radius, falloff


def _build(data: Mapping[str, Any]) -> InstitutTables:
    if data.get("schema") != SCHEMA:
        raise RulesError(_("Institute data: schema {found!r} is not supported (expected {expected}).").format(
            found=data.get("schema"), expected=SCHEMA))
    called = _group(data["called_shots"], "called_shots")
    weapons = _group(data["weapons"], "weapons")
    return InstitutTables(
        pyramid=_pyramid(data["pyramid"]),
        called_shots=MappingProxyType({str(k): _called_shot(str(k), v) for k, v in called.items()}),
        modifiers=_modifiers(data["modifiers"]),
        weapons=MappingProxyType({str(k): _weapon(str(k), v) for k, v in weapons.items()}),
    )


# --- merging the GM's overrides ---------------------------------------------------------------------------


def _merge(default: object, override: object, path: str, open_keys: bool, fields: tuple[str, ...] = ()) -> object:
    """``override`` over ``default``: groups merge key by key, anything else replaces; ``fields`` are keys an
    entry may add though the bundled one leaves them out (a bundled weapon given its own dice to hit)."""
    if not isinstance(override, Mapping) or not isinstance(default, Mapping):
        return override
    merged = dict(default)
    for key, value in override.items():
        if value is None and open_keys:
            merged.pop(key, None)
        elif key in default:
            merged[key] = _merge(default[key], value, f"{path}.{key}", False, fields)
        elif open_keys or key in fields:
            merged[key] = value
        else:
            raise RulesError(_("Institute data: unknown setting {path}.").format(path=f"{path}.{key}"))
    return merged


@cache
def _bundled_text() -> str:
    return resources.files("rules.systems.institut").joinpath("data.json").read_text(encoding="utf-8")


def bundled_data() -> dict[str, Any]:
    """A fresh copy of the bundled data (the defaults the GM's overrides are merged over)."""
    data: dict[str, Any] = json.loads(_bundled_text())
    return data


def frozen_json(value: Any) -> JsonValue:
    """JSON data as the immutable values an encounter option holds (read-only mappings, tuples)."""
    if isinstance(value, Mapping):
        return frozen_map({str(key): frozen_json(item) for key, item in value.items()})
    if isinstance(value, list | tuple):
        return tuple(frozen_json(item) for item in value)
    result: JsonValue = value
    return result


def default_table(key: str) -> JsonValue:
    """The bundled table behind option ``key`` (what the settings dialog shows until the GM edits it)."""
    return frozen_json(bundled_data()[key])


@cache
def _default_tables() -> InstitutTables:
    return _build(bundled_data())


def load_tables(overrides: Mapping[str, object] | None = None) -> InstitutTables:
    """The tables with the GM's overrides (by table key) merged in; RulesError naming a bad entry."""
    given = {key: value for key, value in (overrides or {}).items() if value is not None}
    if not given:
        return _default_tables()
    data = bundled_data()
    for key, value in given.items():
        if key not in TABLE_KEYS:
            raise RulesError(_("Institute data: unknown table {key!r}.").format(key=key))
        if not isinstance(value, Mapping):
            raise _fail(key, _("a group of settings"), value)
        data[key] = _merge(data[key], value, key, key in _OPEN, _WEAPON_FIELDS if key == "weapons" else ())
    return _build(data)
