"""SR3 damage: damage codes, firing-mode bonuses, ammunition, called shots, dodge and resistance.

Codes are kept canonical (``9M``, ``(STR+2)M Stun``, English level letters) so they can be stored and
parsed back; :func:`describe_damage_code` renders one in the GM's language, and :func:`read_typed_damage_code`
reads one as the GM types it from their book (Czech ``9S`` is Deadly, ``9V`` Serious).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Final

from rules.errors import RulesError
from rules.log_formats import register_log_format
from rules.systems.sr3.levels import check_level, level_letters, shift_level, shown_letters, stage
from rules.systems.sr3.ranged import ModifierLine, TargetNumber, line, require, rounds_for, target_number
from rules.systems.sr3.tables import ArmorType, FiringMode, Sr3Tables, WeaponKind, load_tables
from rules.text import N_, NP_, _, pgettext


class Ammo(StrEnum):
    """Ammunition types with an effect on damage or armor."""

    NORMAL = "standard"  # standard ammunition: the weapon's listed damage code
    APDS = "apds"
    EX = "ex"
    HE = "he"
    FLECHETTE = "flechette"


#: Explosive rounds: all ones on the attack dice and the round detonates in the weapon.
EXPLOSIVE_AMMO: Final[frozenset[Ammo]] = frozenset({Ammo.EX, Ammo.HE})


class TargetKind(StrEnum):
    """What is hit: a character (body armor), a vehicle or a barrier (one armor rating)."""

    CHARACTER = "character"
    VEHICLE = "vehicle"
    BARRIER = "barrier"


class CalledShotEffect(StrEnum):
    """The three things a called shot may buy (player's choice, GM's consent)."""

    EXTRA_LEVEL = "extra_level"
    VEHICLE_PART = "vehicle_part"
    UNARMORED_SPOT = "unarmored_spot"


def heavier(level: str, steps: int) -> str:
    """``level`` made ``steps`` (>= 0) levels heavier, capped at D."""
    require(steps >= 0, _("A damage level can only be raised here."))
    shifted = shift_level(level, steps)
    return shifted if shifted is not None else check_level(level)  # unreachable for steps >= 0


FIRING_MODE_LABELS: Final[Mapping[FiringMode, str]] = MappingProxyType(
    {
        FiringMode.SS: N_("Single shot"),
        FiringMode.SA: N_("Semi-automatic"),
        FiringMode.SB: N_("Short burst"),
        FiringMode.BF: N_("Burst fire"),
        FiringMode.FA: N_("Full auto"),
    }
)

AMMO_LABELS: Final[Mapping[Ammo, str]] = MappingProxyType(
    {
        Ammo.NORMAL: N_("Standard ammunition"),
        Ammo.APDS: N_("APDS"),
        Ammo.EX: N_("Explosive (EX)"),
        Ammo.HE: N_("High explosive (EX-EX)"),
        Ammo.FLECHETTE: N_("Flechette"),
    }
)

TARGET_KIND_LABELS: Final[Mapping[TargetKind, str]] = MappingProxyType(
    {
        TargetKind.CHARACTER: N_("Person"),
        TargetKind.VEHICLE: N_("Vehicle or drone"),
        TargetKind.BARRIER: N_("Barrier"),
    }
)

CALLED_SHOT_LABELS: Final[Mapping[CalledShotEffect, str]] = MappingProxyType(
    {
        CalledShotEffect.EXTRA_LEVEL: N_("+1 damage level"),
        CalledShotEffect.VEHICLE_PART: N_("Specific part of a vehicle"),
        CalledShotEffect.UNARMORED_SPOT: N_("Unarmored or weaker spot"),
    }
)


# --- damage codes ---


@dataclass(frozen=True)
class DamageCode:
    """Power and level; a Strength-based code (``(STR+2)M``) keeps the bonus in ``power``."""

    power: int
    level: str
    strength_based: bool = False
    stun: bool = False

    def for_strength(self, strength: int) -> DamageCode:
        """The concrete code for a wielder of ``strength`` (unchanged if not Strength-based)."""
        if not self.strength_based:
            return self
        return DamageCode(strength + self.power, self.level, stun=self.stun)


_POWER: Final = (r"^\s*(?:(?P<power>\d+)|\(\s*STR\s*(?:(?P<sign>[+-])\s*(?P<bonus>\d+))?\s*\)"
                 r"|STR\s*(?:(?P<bare_sign>[+-])\s*(?P<bare_bonus>\d+))?)")
_CODE: Final = re.compile(_POWER + r"\s*(?P<level>[LMSD])(?:\s+(?P<stun>STUN))?\s*$", re.IGNORECASE)
#: As typed in the GM's language: a level of up to three letters (Polish Śm, Russian Сер), any word for Stun.
_TYPED_CODE: Final = re.compile(_POWER + r"\s*(?P<level>[^\W\d_]{1,3})(?:\s+(?P<stun>[^\W\d_]+\.?))?\s*$",
                                re.IGNORECASE)


def parse_damage_code(text: str) -> DamageCode:
    """Parse ``9M``, ``(STR)M``, ``(STR+2)L Stun`` (also written ``STR+2 L Stun``) and the like; a clear
    RulesError otherwise."""
    match = _CODE.match(text)
    if match is None:
        raise RulesError(_("{text!r} is not a damage code such as 9M or (STR+2)M.").format(text=text))
    return _code_of(match, match["level"].upper(), stun=match["stun"] is not None)


def read_typed_damage_code(text: str) -> DamageCode:
    """Parse a code as the GM types it from their book: the level letters of their language (Czech ``9S`` is
    Deadly, ``9V`` Serious; English letters no level claims there still read), Stun in their language or in
    English (``8M omráčení``, ``8M Stun``, a prefix of three letters or more). A RulesError in their language
    says what a code looks like."""
    match = _TYPED_CODE.match(text)
    level = level_letters().get(match["level"].upper()) if match else None
    if match is None or level is None or (match["stun"] is not None and not _is_stun_word(match["stun"])):
        raise RulesError(_("“{text}” is not a damage code: type a Power and a level ({letters}), e.g. {example} or "
                           "{stun_example}.").format(text=text.strip()[:40], letters=shown_letters(),
                                                     example=describe_damage_code(DamageCode(9, "M")),
                                                     stun_example=describe_damage_code(DamageCode(8, "M", stun=True))))
    return _code_of(match, level, stun=match["stun"] is not None)


def canonical_damage_code(text: str) -> str:
    """A code typed in the GM's language as it is stored (``9S`` typed in Czech → ``9D``); RulesError if unreadable."""
    return format_damage_code(read_typed_damage_code(text))


def _is_stun_word(word: str) -> bool:
    typed = word.casefold().rstrip(".")
    local = _("{code} Stun").replace("{code}", "").strip().casefold().rstrip(".")
    return len(typed) >= 3 and any(known.startswith(typed) or typed.startswith(known) for known in (local, "stun"))


def _code_of(match: re.Match[str], level: str, stun: bool) -> DamageCode:
    if match["power"] is not None:
        return DamageCode(int(match["power"]), level, stun=stun)
    sign, bonus = (match["sign"], match["bonus"]) if match["bonus"] else (match["bare_sign"], match["bare_bonus"])
    return DamageCode(int(bonus or 0) * (-1 if sign == "-" else 1), level, strength_based=True, stun=stun)


def format_damage_code(code: DamageCode) -> str:
    """Canonical text of ``code`` (parsable by :func:`parse_damage_code`)."""
    return f"{_power_text(code)}{code.level}" + (" Stun" if code.stun else "")


def _power_text(code: DamageCode) -> str:
    if not code.strength_based:
        return str(code.power)
    return f"(STR{code.power:+d})" if code.power else "(STR)"


#: The level letters as the GM's language abbreviates them (marked here for extraction; looked up per code).
LEVEL_LETTERS = (NP_("sr3 damage level", "L"), NP_("sr3 damage level", "M"), NP_("sr3 damage level", "S"),
                 NP_("sr3 damage level", "D"))


def describe_damage_code(code: DamageCode) -> str:
    """``code`` for display, with the level letter and Stun in the GM's language."""
    text = _power_text(code) + pgettext("sr3 damage level", code.level)
    return _("{code} Stun").format(code=text) if code.stun else text


#: The ``LogLine.shown_as`` name of a damage code kept as :func:`format_damage_code` writes it.
DAMAGE_CODE_FORMAT = "sr3 damage code"


def _shown_stored_code(stored: str) -> str:
    try:
        return describe_damage_code(parse_damage_code(stored))
    except RulesError:
        return stored  # not ours to judge in a log: shown as it was written


register_log_format(DAMAGE_CODE_FORMAT, _shown_stored_code)


def _mode(mode: FiringMode | str) -> FiringMode:
    try:
        return FiringMode(str(mode).strip().upper())
    except ValueError:
        choices = ", ".join(m.value for m in FiringMode)
        raise RulesError(_("Unknown firing mode {mode!r}; use {choices}.").format(mode=mode, choices=choices)) from None


def damage_code(
    power: int, level: str, mode: FiringMode | str, rounds: int | None = None, tables: Sr3Tables | None = None
) -> tuple[int, str]:
    """Damage code of one attack in ``mode``: BF/FA add Power per round and a level per 3 rounds (cap D).

    ``rounds`` defaults to the mode's minimum (1 for SS/SA, 2 for a short burst, 3 for BF and FA).
    """
    tables = tables or load_tables()
    firing = _mode(mode)
    count = rounds_for(tables, firing, rounds)
    rule = tables.firing_modes[firing]
    steps = count // rule.rounds_per_level if rule.rounds_per_level else 0
    return power + count * rule.power_per_round, heavier(level, steps)


# --- ammunition and armor ---


def ammo_power(tables: Sr3Tables, ammo: Ammo) -> int:
    """Power bonus of explosive ammunition (0 for the others)."""
    return {Ammo.EX: tables.ammo.ex_power, Ammo.HE: tables.ammo.he_power}.get(ammo, 0)


def ammo_damage_code(
    power: int,
    level: str,
    ammo: Ammo,
    armor_ballistic: int = 0,
    armor_impact: int = 0,
    *,
    dermal: bool = False,
    target: TargetKind = TargetKind.CHARACTER,
    tables: Sr3Tables | None = None,
) -> tuple[int, str]:
    """Damage code after ammunition: EX/HE add Power, flechette adds a level against unarmored characters.

    Dermal armor is not worn armor, but it still negates the flechette level increase.
    """
    tables = tables or load_tables()
    unarmored = target is TargetKind.CHARACTER and armor_ballistic == 0 and armor_impact == 0
    steps = tables.ammo.flechette_levels_vs_unarmored if ammo is Ammo.FLECHETTE and unarmored and not dermal else 0
    return power + ammo_power(tables, ammo), heavier(level, steps)


def relevant_armor(
    armor_ballistic: int,
    armor_impact: int,
    weapon_kind: WeaponKind,
    ammo: Ammo = Ammo.NORMAL,
    *,
    target: TargetKind = TargetKind.CHARACTER,
    tables: Sr3Tables | None = None,
) -> int:
    """The armor rating subtracted from Power; for a vehicle or barrier pass its rating as ballistic."""
    tables = tables or load_tables()
    require(armor_ballistic >= 0 and armor_impact >= 0, _("Armor ratings cannot be negative."))
    rules = tables.ammo
    if target is not TargetKind.CHARACTER:
        return _object_armor(armor_ballistic, ammo, target, tables)
    worn = armor_ballistic if tables.armor_vs[weapon_kind] is ArmorType.BALLISTIC else armor_impact
    if ammo is Ammo.APDS:
        return worn // rules.apds_armor_divisor
    if ammo is Ammo.FLECHETTE and (armor_ballistic or armor_impact):
        return max(rules.flechette_impact_multiplier * armor_impact, armor_ballistic)
    return worn


def _object_armor(rating: int, ammo: Ammo, target: TargetKind, tables: Sr3Tables) -> int:
    rules = tables.ammo
    # APDS is not anti-vehicle ammunition: against vehicles it is standard unless the GM says otherwise.
    if ammo is Ammo.APDS and (target is TargetKind.BARRIER or rules.apds_vs_vehicles):
        return rating // rules.apds_armor_divisor
    if ammo is Ammo.FLECHETTE:
        return rating * rules.flechette_barrier_multiplier
    return rating


def blast_power(power: int, per_metre: int, metres: int) -> int:
    """A blast's Power ``metres`` from its centre: "Power falling with distance by the grenade's rate per metre,
    level unchanged"; never below 0."""
    require(per_metre >= 0 and metres >= 0, _("A blast's fall-off and distance cannot be negative."))
    return max(0, power - per_metre * metres)


def spread_power(power: int, per_step: int, steps: int) -> int:
    """A shotgun's Power after ``steps`` of spread at ``per_step`` each (the weapon's data); never below 0."""
    require(per_step >= 0 and steps >= 0, _("A shotgun's spread and its Power loss cannot be negative."))
    return max(0, power - per_step * steps)


def barrier_rating(rating: int, ammo: Ammo, tables: Sr3Tables | None = None) -> int:
    """A barrier's rating against ``ammo``: "APDS halves armor and barrier ratings (round down)", flechette doubles
    it ("barrier and vehicle armor doubled")."""
    tables = tables or load_tables()
    require(rating >= 0, _("A barrier's rating cannot be negative."))
    return _object_armor(rating, ammo, TargetKind.BARRIER, tables)


def barrier_stops(rating: int, power: int) -> bool:
    """"A barrier rated above the attack's Power stops it" (``rating`` as the ammunition leaves it)."""
    return rating > power


def resistance_tn(
    power: int,
    armor_ballistic: int,
    armor_impact: int,
    weapon_kind: WeaponKind,
    ammo: Ammo = Ammo.NORMAL,
    *,
    target: TargetKind = TargetKind.CHARACTER,
    tables: Sr3Tables | None = None,
) -> int:
    """Damage resistance TN: Power (with EX/HE bonus) minus the relevant armor, never below the minimum.

    ``power`` is the code after the firing mode but before ammunition.
    """
    tables = tables or load_tables()
    armor = relevant_armor(armor_ballistic, armor_impact, weapon_kind, ammo, target=target, tables=tables)
    return max(tables.minimum_tn, power + ammo_power(tables, ammo) - armor)


@dataclass(frozen=True)
class Misfire:
    """Explosive rounds detonating on the shooter: the shooter resists, the attack misses."""

    power: int
    level: str
    attacker_successes: int
    combat_pool_allowed: bool = False
    attack_misses: bool = True


def explosive_misfire(
    ammo: Ammo, attack_faces: Sequence[int], staging_roll: int, power: int, level: str
) -> Misfire | None:
    """The misfire if EX/HE ammo rolled all 1s, else None.

    ``power``/``level`` are the weapon's standard code (no EX bonus); ``staging_roll`` is the 1d6 that stands
    in for the attacker's successes (rolled or typed in by the GM).
    """
    if ammo not in EXPLOSIVE_AMMO or not attack_faces or any(face != 1 for face in attack_faces):
        return None
    require(1 <= staging_roll <= 6, _("The misfire staging roll is one d6 (1–6)."))
    return Misfire(power, check_level(level), staging_roll)


# --- called shots, dodge, outcome ---


@dataclass(frozen=True)
class CalledShotResult:
    """Damage level and armor after a called shot; ``barrier_rating`` when a vehicle part's rating applies."""

    level: str
    armor: int
    barrier_rating: bool = False


def called_shot(
    effect: CalledShotEffect, level: str, armor: int, *, spot_armor: int = 0, tables: Sr3Tables | None = None
) -> CalledShotResult:
    """Apply a called shot's effect; ``spot_armor`` is the weaker armor of the spot or the part's rating."""
    tables = tables or load_tables()
    require(armor >= 0 and spot_armor >= 0, _("Armor ratings cannot be negative."))
    if effect is CalledShotEffect.EXTRA_LEVEL:
        return CalledShotResult(heavier(level, tables.called_shot_levels), armor)
    if effect is CalledShotEffect.UNARMORED_SPOT:
        return CalledShotResult(check_level(level), min(armor, spot_armor))
    return CalledShotResult(check_level(level), spot_armor, barrier_rating=True)


def dodge_tn(
    rounds: int = 1,
    *,
    shotgun_spread: int = 0,
    wound_modifier: int = 0,
    cramped: int = 0,
    area_weapon: bool = False,
    gm_modifier: int = 0,
    tables: Sr3Tables | None = None,
) -> TargetNumber:
    """Dodge TN: base, +1 per 3 rounds of a burst, shotgun spread, wounds, cramped/prone, area weapons."""
    tables = tables or load_tables()
    require(rounds >= 1 and shotgun_spread >= 0 and cramped >= 0, _("Dodge modifiers cannot be negative."))
    rules = tables.dodge
    optional = [
        ("burst_rounds", rounds // rules.rounds_per_point if rules.rounds_per_point else 0),
        ("shotgun_spread", shotgun_spread),
        ("wounds", wound_modifier),
        ("cramped", cramped),
        ("area_weapon", rules.area_weapon if area_weapon else 0),
        ("gm", gm_modifier),
    ]
    lines: list[ModifierLine] = [line("dodge", rules.base_tn)]
    lines += [line(key, value) for key, value in optional if value]
    return target_number(lines, tables.minimum_tn)


@dataclass(frozen=True)
class HitOutcome:
    """Result of comparing attack successes with dodge and resistance successes."""

    missed: bool
    dodged: bool
    net: int
    level: str | None


def resolve_hit(level: str, attacker_successes: int, dodge_successes: int, resistance_successes: int) -> HitOutcome:
    """Dodge more than the attacker avoids the hit; otherwise every 2 net successes stage ``level``."""
    require(
        min(attacker_successes, dodge_successes, resistance_successes) >= 0,
        _("Successes cannot be negative."),
    )
    if attacker_successes == 0:
        return HitOutcome(missed=True, dodged=False, net=0, level=None)
    if dodge_successes > attacker_successes:
        return HitOutcome(missed=False, dodged=True, net=0, level=None)
    # Dodge successes that did not avoid the hit still count toward resisting it.
    net = attacker_successes - dodge_successes - resistance_successes
    return HitOutcome(missed=False, dodged=False, net=net, level=stage(level, net))
