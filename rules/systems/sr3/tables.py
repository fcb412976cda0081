"""SR3 combat tables: the bundled ``rules/systems/sr3/data.json`` merged with the GM's overrides and validated.

Every number the GM may want to change lives in the data file; code only names the keys. Overrides are
merged key by key (nested mappings recurse, lists and scalars replace) and the result is checked as a whole,
so a bad override is reported with the dotted path of the offending key.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import TYPE_CHECKING, Final, TypeVar

from rules.errors import RulesError
from rules.systems.sr3.levels import LEVELS
from rules.text import N_, _

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

SCHEMA: Final = 1
E = TypeVar("E", bound=StrEnum)
D = TypeVar("D", bound="DataclassInstance")


class RangeCategory(StrEnum):
    """Range columns of the weapon range table, from nearest to farthest."""

    SHORT = "short"
    MEDIUM = "medium"
    LONG = "long"
    EXTREME = "extreme"


class FiringMode(StrEnum):
    """Single shot, semi-automatic, short burst (2 rounds), burst (3 rounds), full auto."""

    SS = "SS"
    SA = "SA"
    SB = "SB"
    BF = "BF"
    FA = "FA"


class Vision(StrEnum):
    """Columns of the visibility table."""

    NORMAL = "normal"
    LOWLIGHT_CYBER = "lowlight_cyber"
    LOWLIGHT_NATURAL = "lowlight_natural"
    THERMO_CYBER = "thermo_cyber"
    THERMO_NATURAL = "thermo_natural"


class WeaponKind(StrEnum):
    """What delivers the damage; decides which armor counts against it."""

    FIREARM = "firearm"
    PROJECTILE = "projectile"
    MELEE = "melee"
    THROWN = "thrown"
    BLAST = "blast"


class ArmorType(StrEnum):
    """The two armor ratings of SR3 body armor."""

    BALLISTIC = "ballistic"
    IMPACT = "impact"


class RangeScale(StrEnum):
    """Whether a weapon's range bounds are metres or multiples of Strength."""

    METRES = "metres"
    STRENGTH = "strength"


class ReachRule(StrEnum):
    """How a melee reach advantage is applied (the encounter option ``reach_mode``)."""

    BONUS = "bonus"  # -1 TN per point for the fighter with the longer reach
    PENALTY = "penalty"  # +1 TN per point for the opponent


class TieRule(StrEnum):
    """What a tied melee exchange does (the encounter option ``melee_tie``)."""

    NOBODY = "nobody"  # nobody is hurt
    ATTACKER = "attacker"  # the attacker hits with base damage


class MeleeStaging(StrEnum):
    """How a melee hit's net successes and the resistance successes move the damage level (the encounter option
    ``melee_staging``; sr3.md Decision)."""

    ONCE = "once"  # compared once, 2 per level, as in ranged combat
    TWICE = "twice"  # the net successes stage the level up, then the resistance successes stage it down


#: Melee settings the data once held and the encounter options ``melee_tie`` and ``reach_mode`` now decide
#: (rules.systems.sr3.system.tables). They are no longer in the data file, but a fight saved before may override
#: them in its ``tables`` option: they are still accepted (and checked) there, with these defaults, so such a
#: fight opens and replays, and its choice stays in force while the option is at its default.
LEGACY_MELEE_DEFAULTS: Final[Mapping[str, str]] = MappingProxyType(
    {"reach_rule": ReachRule.BONUS.value, "tie_rule": TieRule.NOBODY.value}
)


WEAPON_CLASS_LABELS: Final[Mapping[str, str]] = MappingProxyType(
    {
        "holdout_pistol": N_("Hold-out pistol"),
        "light_pistol": N_("Light pistol"),
        "heavy_pistol": N_("Heavy pistol"),
        "smg": N_("Submachine gun"),
        "taser": N_("Taser"),
        "shotgun": N_("Shotgun"),
        "sporting_rifle": N_("Sporting rifle"),
        "sniper_rifle": N_("Sniper rifle"),
        "assault_rifle": N_("Assault rifle"),
        "lmg": N_("Light machine gun"),
        "mmg": N_("Medium machine gun"),
        "hmg": N_("Heavy machine gun"),
        "assault_cannon": N_("Assault cannon"),
        "grenade_launcher": N_("Grenade launcher"),
        "missile_launcher": N_("Missile launcher"),
        "bow": N_("Bow"),
        "light_crossbow": N_("Light crossbow"),
        "medium_crossbow": N_("Medium crossbow"),
        "heavy_crossbow": N_("Heavy crossbow"),
        "throwing_knife": N_("Throwing knife"),
        "shuriken": N_("Shuriken"),
        "standard_grenade": N_("Standard grenade"),
        "aerodynamic_grenade": N_("Aerodynamic grenade"),
    }
)

VISIBILITY_LABELS: Final[Mapping[str, str]] = MappingProxyType(
    {
        "full_darkness": N_("Full darkness"),
        "minimal_light": N_("Minimal light"),
        "partial_light": N_("Partial light"),
        "glare": N_("Glare"),
        "mist": N_("Mist"),
        "light_smoke": N_("Light smoke/fog/rain"),
        "heavy_smoke": N_("Heavy smoke/fog/rain"),
        "thermal_smoke": N_("Thermal smoke"),
    }
)


def label_for(labels: Mapping[str, str], key: str) -> str:
    """Translated label of a data key; a key the GM added without a label is shown as is."""
    return _(labels[key]) if key in labels else key


@dataclass(frozen=True)
class WeaponRange:
    """One row of the range table: upper bound of each category and the minimum range."""

    scale: RangeScale
    minimum: int
    upper: Mapping[RangeCategory, int]
    base_tn: Mapping[RangeCategory, int]


@dataclass(frozen=True)
class RangedModifiers:
    """The situational modifiers of the SR3 ranged-combat table."""

    blind_fire: int
    partial_cover: int
    extra_target: int
    target_running: int
    target_stationary: int
    melee_opponent: int
    attacker_walking: int
    attacker_walking_difficult: int
    attacker_running: int
    attacker_running_difficult: int
    smartlink: int
    smartgoggles: int
    laser_sight: int
    laser_sight_max_metres: int
    laser_stacks_with_smart: bool
    second_firearm: int
    aim_per_action: int
    called_shot: int
    magnification_blocks_smart: bool


@dataclass(frozen=True)
class RecoilRules:
    """Recoil per round and per mode, compensation, gyro-stabilisation and heavy-weapon doubling."""

    per_round_already_fired: int
    own: Mapping[FiringMode, int]
    full_auto_per_round: int
    compensation_per_point: int
    gyro_per_rating: int
    gyro_before_heavy_doubling: bool
    heavy_multiplier: int
    heavy_classes: frozenset[str]
    heavy_when_bursting: frozenset[str]


@dataclass(frozen=True)
class FiringModeRule:
    """Rounds a mode fires and how they raise the damage code."""

    min_rounds: int
    max_rounds: int
    power_per_round: int
    rounds_per_level: int


@dataclass(frozen=True)
class AmmoRules:
    """Special ammunition parameters."""

    apds_armor_divisor: int
    apds_vs_vehicles: bool
    ex_power: int
    he_power: int
    #: "through a barrier the attack TN is 2 × its rating" (explosive rounds breaching a barrier).
    ex_barrier_tn_multiplier: int
    flechette_levels_vs_unarmored: int
    flechette_impact_multiplier: int
    flechette_barrier_multiplier: int


@dataclass(frozen=True)
class DodgeRules:
    """Dodge test target number parts."""

    base_tn: int
    rounds_per_point: int
    area_weapon: int


@dataclass(frozen=True)
class MeleeRules:
    """The melee option set the GM adjusts; the tie and reach rules come from the encounter's options."""

    base_tn: int
    reach_rule: ReachRule
    reach_per_point: int
    tie_rule: TieRule
    defender_counterattacks: bool
    unarmed_level: str
    unarmed_stun: bool
    staging: MeleeStaging = MeleeStaging.ONCE  # the encounter's option (system.tables), never the data file


@dataclass(frozen=True)
class MovementRules:
    """Walk and run rates and the Athletics running test."""

    walk_multiplier: int
    run_multiplier: Mapping[str, int]
    athletics_tn: int
    athletics_metres_per_success: int


@dataclass(frozen=True)
class SurpriseRules:
    """Surprise test target number parts."""

    base_tn: int
    ambush_delayed: int


@dataclass(frozen=True)
class QuickDrawRules:
    """sr3.md, Simple actions: "Quick draw: … Reaction (4), one success: draw and fire; +2 without a proper holster,
    +2 more for two guns"."""

    tn: int
    no_holster: int
    two_guns: int
    #: "pistol-size weapons (Concealability ≥ 4)": the weapon classes that are (the seed's concealability is not
    #: in the weapon data; SMGs are 4 or 5 in SR3's lists, rifles 2 or 3).
    weapon_classes: frozenset[str]


@dataclass(frozen=True)
class Sr3Tables:
    """All SR3 combat data after the GM's overrides; pass it to every calculator."""

    minimum_tn: int
    range_tn: Mapping[RangeCategory, int]
    weapon_ranges: Mapping[str, WeaponRange]
    visibility: Mapping[str, Mapping[Vision, int]]
    blocks_laser: frozenset[str]
    ranged: RangedModifiers
    recoil: RecoilRules
    firing_modes: Mapping[FiringMode, FiringModeRule]
    called_shot_modes: frozenset[FiringMode]
    called_shot_levels: int
    #: sr3.md Decision: throws and melee may be called too (the free-action list), or not.
    called_shot_throws_and_melee: bool
    quick_draw: QuickDrawRules
    ammo: AmmoRules
    armor_vs: Mapping[WeaponKind, ArmorType]
    dodge: DodgeRules
    melee: MeleeRules
    movement: MovementRules
    surprise: SurpriseRules
    combat_pool_divisor: int


# Mappings where the GM may add keys (a new weapon class, race or visibility row); elsewhere an unknown key
# is almost certainly a typo and is refused.
_OPEN_PATHS: Final = frozenset(
    {"weapon_ranges", "weapon_ranges.*.base_tn", "visibility.rows", "movement.run_multiplier"}
)


def _pattern(path: str) -> str:
    """``weapon_ranges.smg.base_tn`` -> ``weapon_ranges.*.base_tn`` (for matching open paths)."""
    parts = path.split(".")
    return ".".join("*" if i == 1 and parts[0] == "weapon_ranges" else p for i, p in enumerate(parts))


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _merge(default: Mapping[str, object], override: object, path: str) -> dict[str, object]:
    """Merge ``override`` into ``default`` key by key, refusing unknown keys outside open mappings."""
    if not isinstance(override, Mapping):
        raise RulesError(_("SR3 data: {path} must be a group of settings.").format(path=path or "/"))
    merged = dict(default)
    for key, value in override.items():
        child, base = _join(path, str(key)), default.get(key)
        if isinstance(base, Mapping):
            merged[key] = _merge(base, value, child)
        elif key in default or _pattern(path) in _OPEN_PATHS:
            merged[key] = value
        else:
            raise RulesError(_("SR3 data: unknown setting {path}.").format(path=child))
    return merged


@dataclass(frozen=True)
class _Node:
    """A value of the merged data with its dotted path, for checks with precise error messages."""

    value: object
    path: str

    def fail(self, expected: str) -> RulesError:
        """The error for a value that is not what ``expected`` (translated) describes."""
        message = _("SR3 data: {path} must be {expected}, not {value!r}.")
        return RulesError(message.format(path=self.path, expected=expected, value=self.value))

    def __getitem__(self, key: str) -> _Node:
        mapping = self.mapping()
        if key not in mapping:
            raise RulesError(_("SR3 data: {path} is missing.").format(path=_join(self.path, key)))
        return _Node(mapping[key], _join(self.path, key))

    def mapping(self) -> Mapping[str, object]:
        if not isinstance(self.value, Mapping):
            raise self.fail(_("a group of settings"))
        return self.value

    def items(self) -> Iterator[tuple[str, _Node]]:
        for key in self.mapping():
            yield str(key), self[str(key)]

    def integer(self, minimum: int | None = None) -> int:
        # bool is an int subclass in Python; a GM typing true for a number is still an error.
        if not isinstance(self.value, int) or isinstance(self.value, bool):
            raise self.fail(_("a whole number"))
        if minimum is not None and self.value < minimum:
            raise self.fail(_("at least {minimum}").format(minimum=minimum))
        return self.value

    def flag(self) -> bool:
        if not isinstance(self.value, bool):
            raise self.fail(_("true or false"))
        return self.value

    def one_of(self, choices: Iterable[str]) -> str:
        allowed = tuple(choices)
        if not isinstance(self.value, str) or self.value not in allowed:
            raise self.fail(_("one of {choices}").format(choices=", ".join(allowed)))
        return self.value

    def choice(self, enum: type[E]) -> E:
        return enum(self.one_of(member.value for member in enum))

    def choices(self, enum: type[E]) -> frozenset[E]:
        return frozenset(_Node(item, self.path).choice(enum) for item in self.strings())

    def strings(self) -> tuple[str, ...]:
        if not isinstance(self.value, list) or not all(isinstance(item, str) for item in self.value):
            raise self.fail(_("a list of names"))
        return tuple(self.value)

    def keyed(self, enum: type[E], minimum: int | None = None) -> Mapping[E, int]:
        """A mapping whose keys are members of ``enum`` (not necessarily all) and values integers."""
        return MappingProxyType({_Node(k, self.path).choice(enum): n.integer(minimum) for k, n in self.items()})

    def complete(self, enum: type[E], minimum: int | None = None) -> Mapping[E, int]:
        """Like :meth:`keyed` but every member of ``enum`` must be present."""
        result = self.keyed(enum, minimum)
        for member in enum:
            if member not in result:
                raise RulesError(_("SR3 data: {path} is missing.").format(path=_join(self.path, member)))
        return result


def _weapon_range(node: _Node) -> WeaponRange:
    upper = node["upper"].complete(RangeCategory, minimum=1)
    bounds = [upper[c] for c in RangeCategory]
    if bounds != sorted(set(bounds)):
        raise RulesError(_("SR3 data: {path} must grow from short to extreme.").format(path=node["upper"].path))
    minimum = node["minimum"].integer(minimum=0)
    if minimum >= upper[RangeCategory.EXTREME]:
        raise RulesError(_("SR3 data: {path} must be below the extreme range.").format(path=node["minimum"].path))
    return WeaponRange(node["scale"].choice(RangeScale), minimum, upper, node["base_tn"].keyed(RangeCategory, 0))


def _visibility(node: _Node) -> Mapping[str, Mapping[Vision, int]]:
    return MappingProxyType({key: row.complete(Vision) for key, row in node.items()})


def _names_in(node: _Node, known: Mapping[str, object]) -> frozenset[str]:
    names = node.strings()
    for name in names:
        if name not in known:
            raise RulesError(
                _("SR3 data: {path} names {name!r}, which is not defined.").format(path=node.path, name=name)
            )
    return frozenset(names)


def _dataclass_ints(cls: type[D], node: _Node, minimum: int | None = None, **extra: object) -> D:
    """Build ``cls`` from integer settings named like its fields; ``extra`` supplies the other fields."""
    names = [field.name for field in dataclasses.fields(cls) if field.name not in extra]
    return cls(**{name: node[name].integer(minimum) for name in names}, **extra)


def _ranged(node: _Node) -> RangedModifiers:
    flags = {name: node[name].flag() for name in ("magnification_blocks_smart", "laser_stacks_with_smart")}
    return _dataclass_ints(RangedModifiers, node, **flags)


def _recoil(node: _Node, weapon_ranges: Mapping[str, WeaponRange]) -> RecoilRules:
    return _dataclass_ints(
        RecoilRules,
        node,
        minimum=0,
        own=_own_recoil(node["own"]),
        gyro_before_heavy_doubling=node["gyro_before_heavy_doubling"].flag(),
        heavy_classes=_names_in(node["heavy_classes"], weapon_ranges),
        heavy_when_bursting=_names_in(node["heavy_when_bursting"], weapon_ranges),
    )


def _own_recoil(node: _Node) -> Mapping[FiringMode, int]:
    # Full auto is counted per round (full_auto_per_round), so it has no fixed entry here.
    given = node.keyed(FiringMode, minimum=0)
    return MappingProxyType({mode: given.get(mode, 0) for mode in FiringMode})


def _firing_modes(node: _Node) -> Mapping[FiringMode, FiringModeRule]:
    result: dict[FiringMode, FiringModeRule] = {}
    for mode in FiringMode:
        rule = _dataclass_ints(FiringModeRule, node[mode.value], minimum=0)
        if not 1 <= rule.min_rounds <= rule.max_rounds:
            raise RulesError(_("SR3 data: {path} needs 1 <= min_rounds <= max_rounds.").format(path=node[mode].path))
        result[mode] = rule
    return MappingProxyType(result)


def _melee(node: _Node) -> MeleeRules:
    return MeleeRules(
        base_tn=node["base_tn"].integer(0),
        reach_rule=node["reach_rule"].choice(ReachRule),
        reach_per_point=node["reach_per_point"].integer(0),
        tie_rule=node["tie_rule"].choice(TieRule),
        defender_counterattacks=node["defender_counterattacks"].flag(),
        unarmed_level=node["unarmed_level"].one_of(LEVELS),
        unarmed_stun=node["unarmed_stun"].flag(),
    )


def _movement(node: _Node) -> MovementRules:
    races = MappingProxyType({race: n.integer(minimum=0) for race, n in node["run_multiplier"].items()})
    return _dataclass_ints(MovementRules, node, minimum=0, run_multiplier=races)


def _build(root: _Node) -> Sr3Tables:
    if root["schema"].integer() != SCHEMA:
        raise RulesError(
            _("SR3 data: schema {found} is not supported (expected {expected}).").format(
                found=root["schema"].value, expected=SCHEMA
            )
        )
    weapon_ranges = MappingProxyType({k: _weapon_range(n) for k, n in root["weapon_ranges"].items()})
    visibility = _visibility(root["visibility"]["rows"])
    return Sr3Tables(
        minimum_tn=root["success_test"]["minimum_tn"].integer(minimum=0),
        range_tn=root["range"]["base_tn"].complete(RangeCategory, 0),
        weapon_ranges=weapon_ranges,
        visibility=visibility,
        blocks_laser=_names_in(root["visibility"]["blocks_laser"], visibility),
        ranged=_ranged(root["ranged_modifiers"]),
        recoil=_recoil(root["recoil"], weapon_ranges),
        firing_modes=_firing_modes(root["firing_modes"]),
        called_shot_modes=root["called_shot"]["modes"].choices(FiringMode),
        called_shot_levels=root["called_shot"]["extra_levels"].integer(minimum=0),
        called_shot_throws_and_melee=root["called_shot"]["throws_and_melee"].flag(),
        quick_draw=_dataclass_ints(QuickDrawRules, root["quick_draw"], minimum=0, weapon_classes=_names_in(
            root["quick_draw"]["weapon_classes"], weapon_ranges)),
        ammo=_dataclass_ints(
            AmmoRules,
            root["ammunition"],
            minimum=0,
            apds_vs_vehicles=root["ammunition"]["apds_vs_vehicles"].flag(),
        ),
        armor_vs=MappingProxyType(
            {kind: root["resistance"]["armor_vs"][kind].choice(ArmorType) for kind in WeaponKind}
        ),
        dodge=_dataclass_ints(DodgeRules, root["dodge"], minimum=0),
        melee=_melee(root["melee"]),
        movement=_movement(root["movement"]),
        surprise=_dataclass_ints(SurpriseRules, root["surprise"]),
        combat_pool_divisor=root["pools"]["combat_pool_divisor"].integer(minimum=1),
    )


@cache
def _bundled_text() -> str:
    return resources.files("rules.systems.sr3").joinpath("data.json").read_text(encoding="utf-8")


def bundled_data() -> dict[str, object]:
    """A fresh copy of the bundled data (for a settings editor to show the defaults)."""
    data: dict[str, object] = json.loads(_bundled_text())
    return data


def _known_data() -> dict[str, object]:
    """The bundled data plus the legacy melee settings an old fight's override may still name."""
    data = bundled_data()
    melee = data["melee"]
    assert isinstance(melee, dict)
    data["melee"] = {**melee, **LEGACY_MELEE_DEFAULTS}
    return data


@cache
def _default_tables() -> Sr3Tables:
    return _build(_Node(_known_data(), ""))


def load_tables(overrides: Mapping[str, object] | None = None) -> Sr3Tables:
    """The SR3 tables with the GM's ``overrides`` merged in key by key; RulesError if they do not fit.

    The melee tie and reach rules are the encounter's options: :func:`rules.systems.sr3.system.tables` puts
    them in. Here they are the defaults, or what a legacy override (LEGACY_MELEE_DEFAULTS) names.
    """
    if not overrides:
        return _default_tables()
    return _build(_Node(_merge(_known_data(), overrides, ""), ""))
