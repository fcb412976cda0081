"""SR3 ranged attack target number: base TN by range plus every situational modifier, itemised.

The result lists one line per modifier the GM selected, so the attack dialog can show each checkable line
next to the live TN. Every value comes from :class:`~rules.systems.sr3.tables.Sr3Tables`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Final

from rules.errors import RulesError
from rules.systems.sr3.tables import (
    VISIBILITY_LABELS,
    FiringMode,
    RangeCategory,
    RangeScale,
    Sr3Tables,
    Vision,
    WeaponKind,
    WeaponRange,
    label_for,
    load_tables,
)
from rules.text import N_, _


class AttackerMovement(StrEnum):
    """What the attacker is doing with its legs while attacking."""

    STILL = "still"
    WALKING = "walking"
    RUNNING = "running"


class TargetMovement(StrEnum):
    """How the target moves: normally (no modifier), running, or standing still."""

    NORMAL = "normal"
    RUNNING = "running"
    STATIONARY = "stationary"


RANGE_LABELS: Final[Mapping[RangeCategory, str]] = MappingProxyType(
    {
        RangeCategory.SHORT: N_("Short range"),
        RangeCategory.MEDIUM: N_("Medium range"),
        RangeCategory.LONG: N_("Long range"),
        RangeCategory.EXTREME: N_("Extreme range"),
    }
)

VISION_LABELS: Final[Mapping[Vision, str]] = MappingProxyType(
    {
        Vision.NORMAL: N_("Normal vision"),
        Vision.LOWLIGHT_CYBER: N_("Low-light (cybernetic)"),
        Vision.LOWLIGHT_NATURAL: N_("Low-light (natural)"),
        Vision.THERMO_CYBER: N_("Thermographic (cybernetic)"),
        Vision.THERMO_NATURAL: N_("Thermographic (natural)"),
    }
)

MODIFIER_LABELS: Final[Mapping[str, str]] = MappingProxyType(
    {
        "range": N_("Range"),
        "visibility": N_("Visibility"),
        "recoil": N_("Recoil"),
        "recoil_compensation": N_("Recoil compensation"),
        "heavy_weapon": N_("Heavy weapon (uncompensated recoil doubled)"),
        "other_firearm_recoil": N_("Recoil of the other firearm"),
        "gyro": N_("Gyro-stabilisation"),
        "blind_fire": N_("Blind fire"),
        "partial_cover": N_("Partial cover"),
        "multiple_targets": N_("Additional target"),
        "target_running": N_("Running target"),
        "target_stationary": N_("Stationary target"),
        "attacker_in_melee": N_("Attacker in melee"),
        "attacker_walking": N_("Attacker walking"),
        "attacker_walking_difficult": N_("Attacker walking (difficult terrain)"),
        "attacker_running": N_("Attacker running"),
        "attacker_running_difficult": N_("Attacker running (difficult terrain)"),
        "wounds": N_("Wound modifier"),
        "smartlink": N_("Smartlink"),
        "smartgoggles": N_("Smartgoggles"),
        "laser_sight": N_("Laser sight"),
        "second_firearm": N_("Second firearm"),
        "aim": N_("Aim"),
        "called_shot": N_("Called shot"),
        "barrier_breach": N_("Explosive rounds at a barrier (2 × its rating)"),
        "dodge": N_("Dodge"),
        "burst_rounds": N_("Burst or full-auto rounds"),
        "shotgun_spread": N_("Shotgun spread"),
        "area_weapon": N_("Area weapon"),
        "cramped": N_("Cramped or prone"),
        "melee": N_("Melee"),
        "reach": N_("Reach"),
        "position": N_("Position"),
        "surprise": N_("Surprise test"),
        "ambush_delayed": N_("Ambusher waiting (delayed action)"),
        "gm": N_("GM modifier"),
    }
)


@dataclass(frozen=True)
class ModifierLine:
    """One itemised part of a target number: data key, translated label, value."""

    key: str
    label: str
    value: int


@dataclass(frozen=True)
class TargetNumber:
    """A final target number (never below the minimum) with the lines that add up to it."""

    value: int
    lines: tuple[ModifierLine, ...]
    notes: tuple[str, ...] = ()

    @property
    def unclamped(self) -> int:
        """The plain sum of the lines, before the minimum TN applies."""
        return sum(line.value for line in self.lines)


def line(key: str, value: int, label: str | None = None) -> ModifierLine:
    """A modifier line labelled from :data:`MODIFIER_LABELS` unless ``label`` is given."""
    return ModifierLine(key, label if label is not None else _(MODIFIER_LABELS[key]), value)


def target_number(lines: Iterable[ModifierLine], minimum: int, notes: Iterable[str] = ()) -> TargetNumber:
    """Sum ``lines`` into a :class:`TargetNumber` that never drops below ``minimum``."""
    items = tuple(lines)
    return TargetNumber(max(minimum, sum(item.value for item in items)), items, tuple(notes))


def require(condition: bool, message: str) -> None:
    """Raise RulesError with the (already translated) ``message`` unless ``condition`` holds."""
    if not condition:
        raise RulesError(message)


@dataclass(frozen=True)
class RangedAttack:
    """Everything the GM can tick for one ranged attack (one shot, burst or full-auto volley)."""

    range_category: RangeCategory | None = None
    distance: float | None = None
    weapon_class: str | None = None
    strength: int | None = None
    magnification: int = 0
    visibility: str | None = None
    vision: Vision = Vision.NORMAL
    attacker_movement: AttackerMovement = AttackerMovement.STILL
    difficult_terrain: bool = False
    target_movement: TargetMovement = TargetMovement.NORMAL
    partial_cover: bool = False
    blind_fire: bool = False
    melee_opponents: int = 0
    target_index: int = 1
    smartgun: bool = False
    smartlink: bool = False
    smartgoggles: bool = False
    laser_sight: bool = False
    aim_actions: int = 0
    skill: int | None = None
    called_shot: bool = False
    weapon_kind: WeaponKind = WeaponKind.FIREARM
    second_firearm: bool = False
    other_firearm_recoil: int = 0
    wound_modifier: int = 0
    mode: FiringMode = FiringMode.SS
    rounds: int | None = None
    rounds_fired_before: int = 0
    recoil_compensation: int = 0
    gyro: int = 0
    heavy_weapon: bool | None = None
    gm_modifier: int = 0


@dataclass
class _Sheet:
    """Lines and notes collected while the TN is worked out."""

    lines: list[ModifierLine] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def add(self, key: str, value: int, label: str | None = None) -> None:
        self.lines.append(line(key, value, label))


# --- range ---


def weapon_range(tables: Sr3Tables, weapon_class: str) -> WeaponRange:
    """The range-table row for ``weapon_class``; a clear error names the classes the table knows."""
    row = tables.weapon_ranges.get(weapon_class)
    if row is None:
        known = ", ".join(sorted(tables.weapon_ranges))
        raise RulesError(_("Unknown weapon class {name!r}; known: {known}.").format(name=weapon_class, known=known))
    return row


def range_bounds(row: WeaponRange, strength: int | None) -> dict[RangeCategory, int]:
    """Upper bound of each range category in metres (Strength-based rows need ``strength``)."""
    if row.scale is RangeScale.METRES:
        return dict(row.upper)
    require(strength is not None and strength >= 0, _("This weapon's range depends on Strength; enter it."))
    return {category: bound * (strength or 0) for category, bound in row.upper.items()}


def category_for_distance(
    tables: Sr3Tables, weapon_class: str, distance: float, strength: int | None = None
) -> RangeCategory:
    """Range category of a target ``distance`` metres away, from the weapon range table."""
    row = weapon_range(tables, weapon_class)
    require(distance >= row.minimum, _("The target is closer than the weapon's minimum range."))
    for category, bound in range_bounds(row, strength).items():
        if distance <= bound:
            return category
    raise RulesError(_("The target is beyond the weapon's extreme range."))


def shift_category(category: RangeCategory, steps: int) -> RangeCategory:
    """Move ``category`` ``steps`` columns nearer (magnification), never nearer than short."""
    order = list(RangeCategory)
    return order[max(0, order.index(category) - steps)]


def base_tn(tables: Sr3Tables, category: RangeCategory, weapon_class: str | None = None) -> int:
    """Base TN of a range category; some weapons (grenades) have their own value for a column."""
    if weapon_class is not None:
        own = weapon_range(tables, weapon_class).base_tn.get(category)
        if own is not None:
            return own
    return tables.range_tn[category]


def _category(attack: RangedAttack, tables: Sr3Tables) -> RangeCategory:
    # The GM's direct choice wins: a missing or disputed table entry must never block the attack.
    if attack.range_category is not None:
        return attack.range_category
    distance, weapon_class = attack.distance, attack.weapon_class
    if distance is None or weapon_class is None:
        raise RulesError(_("Choose a range category, or give the distance and the weapon class."))
    return category_for_distance(tables, weapon_class, distance, attack.strength)


def _add_range(attack: RangedAttack, tables: Sr3Tables, sheet: _Sheet) -> None:
    require(attack.magnification >= 0, _("Magnification rating cannot be negative."))
    category = shift_category(_category(attack, tables), attack.magnification)
    sheet.add("range", base_tn(tables, category, attack.weapon_class), _(RANGE_LABELS[category]))


# --- recoil and movement ---


def rounds_for(tables: Sr3Tables, mode: FiringMode, rounds: int | None) -> int:
    """Rounds one attack in ``mode`` fires (default: the mode's minimum), checked against the mode."""
    rule = tables.firing_modes[mode]
    count = rule.min_rounds if rounds is None else rounds
    require(
        rule.min_rounds <= count <= rule.max_rounds,
        _("{mode} fires {low}–{high} rounds, not {count}.").format(
            mode=mode.value, low=rule.min_rounds, high=rule.max_rounds, count=count
        ),
    )
    return count


def raw_recoil(tables: Sr3Tables, mode: FiringMode, rounds: int, rounds_fired_before: int) -> int:
    """Recoil before compensation: rounds already fired this phase plus this attack's own recoil.

    SA's second shot gets +1 from the first round; a second burst +6; full auto counts every round.
    """
    rules = tables.recoil
    own = rounds * rules.full_auto_per_round if mode is FiringMode.FA else rules.own[mode]
    return rounds_fired_before * rules.per_round_already_fired + own


def is_heavy(attack: RangedAttack, tables: Sr3Tables) -> bool:
    """Whether uncompensated recoil is doubled: heavy weapons, and shotguns firing bursts."""
    if attack.heavy_weapon is not None:
        return attack.heavy_weapon
    bursting = attack.mode in (FiringMode.SB, FiringMode.BF, FiringMode.FA)
    recoil = tables.recoil
    return attack.weapon_class in recoil.heavy_classes or (
        bursting and attack.weapon_class in recoil.heavy_when_bursting
    )


def movement_modifier(tables: Sr3Tables, movement: AttackerMovement, difficult: bool) -> tuple[str, int]:
    """Modifier key and value for the attacker's own movement (also used by :mod:`movement`)."""
    mods = tables.ranged
    choices = {
        (AttackerMovement.WALKING, False): ("attacker_walking", mods.attacker_walking),
        (AttackerMovement.WALKING, True): ("attacker_walking_difficult", mods.attacker_walking_difficult),
        (AttackerMovement.RUNNING, False): ("attacker_running", mods.attacker_running),
        (AttackerMovement.RUNNING, True): ("attacker_running_difficult", mods.attacker_running_difficult),
    }
    return choices.get((movement, difficult), ("", 0))


def _check_recoil_inputs(attack: RangedAttack) -> None:
    require(attack.rounds_fired_before >= 0, _("Rounds already fired cannot be negative."))
    require(attack.recoil_compensation >= 0, _("Recoil compensation cannot be negative."))
    require(attack.gyro >= 0, _("Gyro-stabilisation rating cannot be negative."))
    require(attack.other_firearm_recoil >= 0, _("The other firearm's recoil cannot be negative."))


@dataclass(frozen=True)
class RecoilParts:
    """How the recoil modifier is made up; ``gyro_on_recoil`` is the gyro spent before heavy doubling."""

    raw: int
    compensated: int
    heavy_extra: int
    gyro_on_recoil: int

    @property
    def net(self) -> int:
        """Recoil left after compensation, early gyro and heavy doubling."""
        return self.raw - self.compensated - self.gyro_on_recoil + self.heavy_extra


def recoil_parts(attack: RangedAttack, tables: Sr3Tables) -> RecoilParts:
    """Raw recoil, compensation (never below 0 recoil) and heavy-weapon doubling for ``attack``."""
    _check_recoil_inputs(attack)
    rules = tables.recoil
    rounds = rounds_for(tables, attack.mode, attack.rounds)
    raw = raw_recoil(tables, attack.mode, rounds, attack.rounds_fired_before)
    compensated = min(raw, attack.recoil_compensation * rules.compensation_per_point)
    if not is_heavy(attack, tables):
        return RecoilParts(raw, compensated, 0, 0)
    uncompensated = raw - compensated
    # Spent before doubling, each gyro point is worth two: why the rule lets the player choose.
    early = min(attack.gyro * rules.gyro_per_rating, uncompensated) if rules.gyro_before_heavy_doubling else 0
    return RecoilParts(raw, compensated, (uncompensated - early) * (rules.heavy_multiplier - 1), early)


def _add_recoil_and_movement(attack: RangedAttack, tables: Sr3Tables, sheet: _Sheet) -> None:
    parts = recoil_parts(attack, tables)
    move_key, move_value = movement_modifier(tables, attack.attacker_movement, attack.difficult_terrain)
    gyro_left = attack.gyro * tables.recoil.gyro_per_rating - parts.gyro_on_recoil
    offset = max(0, min(gyro_left, parts.net + attack.other_firearm_recoil + move_value))
    _record_recoil(sheet, parts, attack.other_firearm_recoil)
    if move_key:
        sheet.add(move_key, move_value)
    if parts.gyro_on_recoil + offset:
        sheet.add("gyro", -(parts.gyro_on_recoil + offset))


def _record_recoil(sheet: _Sheet, parts: RecoilParts, other_firearm: int) -> None:
    optional = [
        ("recoil", parts.raw),
        ("recoil_compensation", -parts.compensated),
        ("heavy_weapon", parts.heavy_extra),
        ("other_firearm_recoil", other_firearm),
    ]
    for key, value in optional:
        if value:
            sheet.add(key, value)


# --- situation ---


def visibility_modifier(tables: Sr3Tables, row: str, vision: Vision) -> int:
    """Visibility modifier for the ``row`` condition seen with ``vision``."""
    values = tables.visibility.get(row)
    if values is None:
        known = ", ".join(sorted(tables.visibility))
        raise RulesError(_("Unknown visibility {name!r}; known: {known}.").format(name=row, known=known))
    return values[vision]


def _add_visibility(attack: RangedAttack, tables: Sr3Tables, sheet: _Sheet) -> None:
    if attack.blind_fire:
        sheet.add("blind_fire", tables.ranged.blind_fire)
        if attack.visibility is not None:
            # An unseen target cannot be seen worse: blind fire replaces the visibility table.
            sheet.notes.append(_("Blind fire replaces the visibility modifier."))
        return
    if attack.visibility is not None:
        value = visibility_modifier(tables, attack.visibility, attack.vision)
        sheet.add("visibility", value, label_for(VISIBILITY_LABELS, attack.visibility))


def _add_target(attack: RangedAttack, tables: Sr3Tables, sheet: _Sheet) -> None:
    require(attack.target_index >= 1, _("The first target of the phase is number 1."))
    require(attack.melee_opponents >= 0, _("The number of melee opponents cannot be negative."))
    mods = tables.ranged
    if attack.target_index > 1:
        sheet.add("multiple_targets", (attack.target_index - 1) * mods.extra_target)
    if attack.target_movement is TargetMovement.RUNNING:
        sheet.add("target_running", mods.target_running)
    elif attack.target_movement is TargetMovement.STATIONARY:
        sheet.add("target_stationary", mods.target_stationary)
    if attack.partial_cover:
        sheet.add("partial_cover", mods.partial_cover)
    if attack.melee_opponents:
        sheet.add("attacker_in_melee", attack.melee_opponents * mods.melee_opponent)


# --- sights, aim, called shot, second firearm ---


def _smart_bonus(attack: RangedAttack, tables: Sr3Tables, sheet: _Sheet) -> bool:
    """Add the smartlink or smartgoggles line if it applies; return whether one was added."""
    if not (attack.smartlink or attack.smartgoggles):
        return False
    if not attack.smartgun:
        sheet.notes.append(_("Smartlink and smartgoggles need a smartgun."))
        return False
    if attack.magnification and tables.ranged.magnification_blocks_smart:
        sheet.notes.append(_("Magnification cannot be used with a smart system."))
        return False
    # Smartlink and smartgoggles do the same job; only the better one counts.
    if attack.smartlink:
        sheet.add("smartlink", tables.ranged.smartlink)
    else:
        sheet.add("smartgoggles", tables.ranged.smartgoggles)
    return True


def _laser_blocked(attack: RangedAttack, tables: Sr3Tables) -> str | None:
    if attack.distance is not None and attack.distance > tables.ranged.laser_sight_max_metres:
        return _("The laser sight works only up to {metres} m.").format(metres=tables.ranged.laser_sight_max_metres)
    if attack.visibility in tables.blocks_laser:
        return _("The laser sight does not work in fog, smoke or rain.")
    return None


def _add_sights(attack: RangedAttack, tables: Sr3Tables, sheet: _Sheet) -> None:
    if attack.second_firearm:
        sheet.add("second_firearm", tables.ranged.second_firearm)
        if attack.smartlink or attack.smartgoggles or attack.laser_sight:
            sheet.notes.append(_("No smartlink, smartgoggles or laser bonus with a second firearm."))
        return
    smart = _smart_bonus(attack, tables, sheet)
    if not attack.laser_sight:
        return
    blocked = _laser_blocked(attack, tables)
    if blocked is None and smart and not tables.ranged.laser_stacks_with_smart:
        blocked = _("A laser sight does not add to a smart system.")
    if blocked is not None:
        sheet.notes.append(blocked)
    else:
        sheet.add("laser_sight", tables.ranged.laser_sight)


def aim_bonus(tables: Sr3Tables, aim_actions: int, skill: int) -> int:
    """TN change from ``aim_actions`` simple actions of aiming, capped at half the skill (round down)."""
    require(aim_actions >= 0 and skill >= 0, _("Aim actions and skill cannot be negative."))
    return min(aim_actions, skill // 2) * tables.ranged.aim_per_action


def _add_aim_and_called_shot(attack: RangedAttack, tables: Sr3Tables, sheet: _Sheet) -> None:
    if attack.aim_actions:
        require(attack.skill is not None, _("Aiming is capped at half the skill: enter the skill."))
        skill = attack.skill or 0
        if attack.aim_actions > skill // 2:
            sheet.notes.append(_("Aiming counts at most {cap} actions (half the skill).").format(cap=skill // 2))
        sheet.add("aim", aim_bonus(tables, attack.aim_actions, skill))
    if attack.called_shot:
        _check_called_shot(attack, tables)
        sheet.add("called_shot", tables.ranged.called_shot)


def _check_called_shot(attack: RangedAttack, tables: Sr3Tables) -> None:
    """"firearms only in SA, BF or FA"; a bow is no firearm; a throw (a grenade too) only as the tables say (the
    digest's Decision: the free-action list names throws and melee among what a called shot precedes)."""
    if attack.weapon_kind is WeaponKind.FIREARM:
        require(
            attack.mode in tables.called_shot_modes,
            _("A called shot needs one of these firing modes: {modes}.").format(
                modes=", ".join(sorted(mode.value for mode in tables.called_shot_modes))
            ),
        )
    elif attack.weapon_kind in (WeaponKind.THROWN, WeaponKind.BLAST):
        require(tables.called_shot_throws_and_melee,
                _("This encounter allows called shots with firearms and bows only, not with throws (option "
                  "\"Called shots with throws and in melee\")."))


def _add_other(attack: RangedAttack, sheet: _Sheet) -> None:
    if attack.wound_modifier:
        sheet.add("wounds", attack.wound_modifier)
    if attack.gm_modifier:
        sheet.add("gm", attack.gm_modifier)


def ranged_tn(attack: RangedAttack, tables: Sr3Tables | None = None) -> TargetNumber:
    """The attacker's target number for ``attack``, itemised (minimum TN applies to the total)."""
    tables = tables or load_tables()
    sheet = _Sheet()
    _add_range(attack, tables, sheet)
    _add_recoil_and_movement(attack, tables, sheet)
    _add_visibility(attack, tables, sheet)
    _add_target(attack, tables, sheet)
    _add_sights(attack, tables, sheet)
    _add_aim_and_called_shot(attack, tables, sheet)
    _add_other(attack, sheet)
    return target_number(sheet.lines, tables.minimum_tn, sheet.notes)


def quick_draw_tn(tables: Sr3Tables, holstered: bool, two_guns: bool) -> int:
    """The quick draw's Reaction TN: 4, +2 without a proper holster, +2 more for two guns (from the tables)."""
    rules = tables.quick_draw
    return rules.tn + (0 if holstered else rules.no_holster) + (rules.two_guns if two_guns else 0)
