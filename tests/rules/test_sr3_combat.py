"""SR3 combat rules: ranged TN, damage codes, ammunition, dodge, melee, movement, surprise, data overrides."""

from __future__ import annotations

import gettext
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules import text
from rules.errors import RulesError
from rules.systems.sr3.damage import (
    Ammo,
    CalledShotEffect,
    DamageCode,
    Misfire,
    TargetKind,
    ammo_damage_code,
    called_shot,
    damage_code,
    describe_damage_code,
    dodge_tn,
    explosive_misfire,
    format_damage_code,
    parse_damage_code,
    relevant_armor,
    resistance_tn,
    resolve_hit,
)
from rules.systems.sr3.levels import LEVELS
from rules.systems.sr3.melee import (
    MeleeFighter,
    Role,
    melee_tns,
    reach_modifiers,
    resolve_melee,
    unarmed_damage,
)
from rules.systems.sr3.movement import (
    MovementRates,
    athletics_bonus,
    athletics_tn,
    movement_rates,
    movement_tn_modifier,
    per_phase,
    phase_allowance,
    running_distance,
)
from rules.systems.sr3.pools import combat_pool
from rules.systems.sr3.ranged import (
    AttackerMovement,
    RangedAttack,
    TargetMovement,
    TargetNumber,
    category_for_distance,
    ranged_tn,
    shift_category,
)
from rules.systems.sr3.surprise import surprise_matrix, surprise_tn
from rules.systems.sr3.tables import (
    FiringMode,
    RangeCategory,
    Vision,
    WeaponKind,
    bundled_data,
    load_tables,
)

SHORT = RangeCategory.SHORT
TABLES = load_tables()
BASE = RangedAttack(range_category=SHORT)  # TN 4, no modifiers


def keys(tn: TargetNumber) -> dict[str, int]:
    return {line.key: line.value for line in tn.lines}


# --- worked examples from the seed ---

WEDGE = RangedAttack(
    range_category=SHORT,
    weapon_class="assault_rifle",
    laser_sight=True,
    recoil_compensation=4,
    mode=FiringMode.FA,
)


@pytest.mark.parametrize(
    ("rounds", "before", "target", "tn", "code"),
    [(3, 0, 1, 3, (11, "S")), (3, 3, 2, 7, (11, "S")), (4, 6, 3, 13, (12, "S"))],
)
def test_wedge_full_auto_at_three_punks(rounds: int, before: int, target: int, tn: int, code: tuple[int, str]) -> None:
    attack = replace(WEDGE, rounds=rounds, rounds_fired_before=before, target_index=target)
    assert ranged_tn(attack).value == tn
    assert damage_code(8, "M", "FA", rounds) == code


def test_wedge_third_target_lines() -> None:
    attack = replace(WEDGE, rounds=4, rounds_fired_before=6, target_index=3)
    assert keys(ranged_tn(attack)) == {
        "range": 4,
        "recoil": 10,
        "recoil_compensation": -4,
        "multiple_targets": 4,
        "laser_sight": -1,
    }


def test_mmg_ten_rounds_with_compensation_six_is_plus_eight() -> None:
    attack = RangedAttack(
        range_category=SHORT, weapon_class="mmg", mode=FiringMode.FA, rounds=10, recoil_compensation=6
    )
    tn = ranged_tn(attack)
    assert tn.value == 4 + 8
    assert keys(tn) == {"range": 4, "recoil": 10, "recoil_compensation": -6, "heavy_weapon": 4}


def test_liam_versus_snot_stages_to_serious() -> None:
    assert dodge_tn(wound_modifier=1).value == 5
    assert resistance_tn(9, 4, 0, WeaponKind.FIREARM) == 5
    outcome = resolve_hit("M", attacker_successes=5, dodge_successes=2, resistance_successes=1)
    assert (outcome.dodged, outcome.net, outcome.level) == (False, 2, "S")
    # Snot needs 4 net successes to take nothing at all.
    assert resolve_hit("M", 5, 2, 7).level is None
    assert resolve_hit("M", 5, 2, 5).level == "L"


def test_twitch_runs_six_and_walks_two_metres_per_phase() -> None:
    assert phase_allowance(6, "human", 3) == MovementRates(walk=2, run=6)


def test_surprise_every_pair_of_the_ambush() -> None:
    successes = {"Tess": 3, "Virgil": 4, "Winger": 5, "A": 4, "B": 2, "C": 0}
    sides = {
        "Tess": "runners",
        "Virgil": "runners",
        "Winger": "runners",
        "A": "killers",
        "B": "killers",
        "C": "killers",
    }
    result = surprise_matrix(successes, sides)
    expected = {
        ("Tess", "A"): False, ("Tess", "B"): True, ("Tess", "C"): True,
        ("Virgil", "A"): False, ("Virgil", "B"): True, ("Virgil", "C"): True,
        ("Winger", "A"): True, ("Winger", "B"): True, ("Winger", "C"): True,
        ("A", "Tess"): True, ("A", "Virgil"): False, ("A", "Winger"): False,
        ("B", "Tess"): False, ("B", "Virgil"): False, ("B", "Winger"): False,
        ("C", "Tess"): False, ("C", "Virgil"): False, ("C", "Winger"): False,
    }  # fmt: skip
    for (actor, opponent), allowed in expected.items():
        assert result.can_act_against(actor, opponent) is allowed, (actor, opponent)
        assert result.may_use_pool_against(actor, opponent) is allowed, (actor, opponent)
    # B beats nobody either: "killers B and C can do nothing against the runners".
    assert result.completely_surprised == {"B", "C"}
    assert not result.can_act_against("Tess", "Virgil")  # allies are not opponents


def test_ambushers_who_delayed_roll_against_two() -> None:
    assert surprise_tn(ambusher_delayed=True).value == 2
    assert surprise_tn().value == 4
    assert surprise_tn(gm_modifier=2).value == 6


# --- ranged modifiers, one at a time ---

SINGLE_MODIFIERS = [
    ("blind_fire", {"blind_fire": True}, 8),
    ("partial_cover", {"partial_cover": True}, 4),
    ("target_running", {"target_movement": TargetMovement.RUNNING}, 2),
    ("target_stationary", {"target_movement": TargetMovement.STATIONARY}, -1),
    ("attacker_in_melee", {"melee_opponents": 2}, 4),
    ("attacker_walking", {"attacker_movement": AttackerMovement.WALKING}, 1),
    (
        "attacker_walking_difficult",
        {"attacker_movement": AttackerMovement.WALKING, "difficult_terrain": True},
        2,
    ),
    ("attacker_running", {"attacker_movement": AttackerMovement.RUNNING}, 4),
    (
        "attacker_running_difficult",
        {"attacker_movement": AttackerMovement.RUNNING, "difficult_terrain": True},
        6,
    ),
    ("wounds", {"wound_modifier": 3}, 3),
    ("smartlink", {"smartgun": True, "smartlink": True}, -2),
    ("smartgoggles", {"smartgun": True, "smartgoggles": True}, -1),
    ("laser_sight", {"laser_sight": True}, -1),
    ("second_firearm", {"second_firearm": True}, 2),
    ("aim", {"aim_actions": 2, "skill": 6}, -2),
    ("called_shot", {"called_shot": True, "mode": FiringMode.SA}, 4),
    ("multiple_targets", {"target_index": 2}, 2),
    ("multiple_targets", {"target_index": 4}, 6),
    ("gm", {"gm_modifier": 3}, 3),
    ("recoil", {"mode": FiringMode.SA, "rounds_fired_before": 1}, 1),
    ("recoil", {"mode": FiringMode.BF}, 3),
    ("recoil", {"mode": FiringMode.BF, "rounds_fired_before": 3}, 6),
    ("recoil", {"mode": FiringMode.SB}, 2),
    ("recoil", {"mode": FiringMode.FA, "rounds": 7}, 7),
    ("other_firearm_recoil", {"second_firearm": True, "other_firearm_recoil": 1}, 1),
]


@pytest.mark.parametrize(("key", "change", "value"), SINGLE_MODIFIERS)
def test_single_modifier(key: str, change: dict[str, Any], value: int) -> None:
    tn = ranged_tn(replace(BASE, **change))
    assert keys(tn)[key] == value
    assert tn.value == max(2, 4 + sum(keys(tn).values()) - 4)


def test_first_semi_auto_shot_has_no_recoil() -> None:
    assert ranged_tn(replace(BASE, mode=FiringMode.SA)).value == 4


VISIBILITY = {
    "full_darkness": (8, 8, 8, 4, 2),
    "minimal_light": (6, 4, 2, 4, 2),
    "partial_light": (2, 1, 0, 2, 1),
    "glare": (2, 4, 2, 4, 2),
    "mist": (2, 2, 0, 0, 0),
    "light_smoke": (4, 4, 2, 0, 0),
    "heavy_smoke": (6, 6, 4, 1, 0),
}


@pytest.mark.parametrize("row", sorted(VISIBILITY))
@pytest.mark.parametrize("column", range(5))
def test_visibility_table_matches_the_rules(row: str, column: int) -> None:
    vision = list(Vision)[column]
    tn = ranged_tn(replace(BASE, visibility=row, vision=vision))
    assert keys(tn)["visibility"] == VISIBILITY[row][column]


def test_thermal_smoke_is_light_smoke_to_every_other_vision() -> None:
    # sr3.md, Decisions: "thermal smoke: thermographic +6 (the remnant), other vision as light smoke (it is still
    # smoke)"; light smoke: normal +4, low-light cyber +4 / natural +2.
    for vision, modifier in ((Vision.NORMAL, 4), (Vision.LOWLIGHT_CYBER, 4), (Vision.LOWLIGHT_NATURAL, 2)):
        assert keys(ranged_tn(replace(BASE, visibility="thermal_smoke", vision=vision)))["visibility"] == modifier
        assert keys(ranged_tn(replace(BASE, visibility="light_smoke", vision=vision)))["visibility"] == modifier


def test_thermal_smoke_blinds_thermographic_vision() -> None:
    for vision in (Vision.THERMO_CYBER, Vision.THERMO_NATURAL):
        assert keys(ranged_tn(replace(BASE, visibility="thermal_smoke", vision=vision)))["visibility"] == 6


def test_unknown_visibility_row_is_a_clear_error() -> None:
    with pytest.raises(RulesError, match="fog"):
        ranged_tn(replace(BASE, visibility="fog"))


def test_blind_fire_replaces_visibility() -> None:
    tn = ranged_tn(replace(BASE, blind_fire=True, visibility="full_darkness"))
    assert "visibility" not in keys(tn) and keys(tn)["blind_fire"] == 8
    assert tn.notes


def test_tn_never_below_two() -> None:
    attack = replace(BASE, smartgun=True, smartlink=True, target_movement=TargetMovement.STATIONARY, gm_modifier=-9)
    tn = ranged_tn(attack)
    assert tn.value == 2 and tn.unclamped < 2


# --- range ---


@pytest.mark.parametrize(
    ("weapon", "distance", "category"),
    [
        ("heavy_pistol", 5, RangeCategory.SHORT),
        ("heavy_pistol", 6, RangeCategory.MEDIUM),
        ("heavy_pistol", 20, RangeCategory.MEDIUM),
        ("heavy_pistol", 21, RangeCategory.LONG),
        ("heavy_pistol", 60, RangeCategory.EXTREME),
        ("holdout_pistol", 30, RangeCategory.LONG),
        ("smg", 40, RangeCategory.MEDIUM),
        ("shotgun", 51, RangeCategory.EXTREME),
        ("sporting_rifle", 250, RangeCategory.MEDIUM),
        ("sniper_rifle", 1000, RangeCategory.EXTREME),
        ("assault_rifle", 50, RangeCategory.SHORT),
        ("lmg", 400, RangeCategory.LONG),
        ("mmg", 251, RangeCategory.LONG),
        ("hmg", 801, RangeCategory.EXTREME),
        ("assault_cannon", 300, RangeCategory.MEDIUM),
        ("grenade_launcher", 120, RangeCategory.LONG),
        ("missile_launcher", 3000, RangeCategory.EXTREME),
    ],
)
def test_range_category_from_distance(weapon: str, distance: int, category: RangeCategory) -> None:
    assert category_for_distance(TABLES, weapon, distance) == category


@pytest.mark.parametrize(
    ("distance", "category"),
    [
        (5, RangeCategory.SHORT),
        (6, RangeCategory.MEDIUM),
        (50, RangeCategory.MEDIUM),
        (51, RangeCategory.LONG),
        (150, RangeCategory.LONG),
        (151, RangeCategory.EXTREME),
        (300, RangeCategory.EXTREME),
    ],
)
def test_bow_range_scales_with_strength_minimum(distance: int, category: RangeCategory) -> None:
    # Seed: a Strength 5 bow is short 0-5, medium 6-50, long 51-150, extreme 151-300 metres.
    assert category_for_distance(TABLES, "bow", distance, strength=5) == category


def test_thrown_weapon_range_uses_strength() -> None:
    assert category_for_distance(TABLES, "throwing_knife", 8, strength=4) == RangeCategory.MEDIUM
    assert category_for_distance(TABLES, "standard_grenade", 40, strength=4) == RangeCategory.LONG


def test_grenades_at_long_range_have_tn_eight() -> None:
    for weapon in ("grenade_launcher", "standard_grenade", "aerodynamic_grenade"):
        attack = RangedAttack(range_category=RangeCategory.LONG, weapon_class=weapon)
        assert ranged_tn(attack).value == 8
    assert ranged_tn(RangedAttack(range_category=RangeCategory.LONG, weapon_class="mmg")).value == 6


@pytest.mark.parametrize(("category", "tn"), [("short", 4), ("medium", 5), ("long", 6), ("extreme", 9)])
def test_base_tn_per_range_category(category: str, tn: int) -> None:
    assert ranged_tn(RangedAttack(range_category=RangeCategory(category))).value == tn


def test_distance_and_weapon_give_the_base_tn() -> None:
    assert ranged_tn(RangedAttack(distance=30, weapon_class="heavy_pistol")).value == 6


def test_range_errors_are_clear() -> None:
    with pytest.raises(RulesError, match="minimum"):
        category_for_distance(TABLES, "grenade_launcher", 4)
    with pytest.raises(RulesError, match="extreme"):
        category_for_distance(TABLES, "heavy_pistol", 61)
    with pytest.raises(RulesError, match="Strength"):
        category_for_distance(TABLES, "bow", 10)
    with pytest.raises(RulesError, match="railgun"):
        category_for_distance(TABLES, "railgun", 10)
    with pytest.raises(RulesError, match="range category"):
        ranged_tn(RangedAttack())


def test_magnification_shifts_left_but_not_past_short() -> None:
    # Seed: rating 2 turns long range into short (TN 6 -> 4); medium also only reaches short.
    assert ranged_tn(RangedAttack(range_category=RangeCategory.LONG, magnification=2)).value == 4
    assert ranged_tn(RangedAttack(range_category=RangeCategory.MEDIUM, magnification=2)).value == 4
    assert ranged_tn(RangedAttack(range_category=RangeCategory.EXTREME, magnification=1)).value == 6
    assert shift_category(RangeCategory.SHORT, 3) == RangeCategory.SHORT


# --- recoil, compensation, gyro ---


def test_compensation_only_offsets_recoil() -> None:
    tn = ranged_tn(replace(BASE, mode=FiringMode.SA, rounds_fired_before=1, recoil_compensation=5, partial_cover=True))
    assert keys(tn)["recoil_compensation"] == -1
    assert tn.value == 8


def test_gyro_offsets_recoil_and_movement_only() -> None:
    running = replace(BASE, attacker_movement=AttackerMovement.RUNNING, gyro=3, partial_cover=True)
    assert ranged_tn(running).value == 4 + 4 - 3 + 4
    too_much = replace(running, gyro=6)
    assert keys(ranged_tn(too_much))["gyro"] == -4
    assert ranged_tn(too_much).value == 8


def test_gyro_combines_with_compensation() -> None:
    attack = replace(BASE, mode=FiringMode.FA, rounds=6, recoil_compensation=2, gyro=3)
    assert ranged_tn(attack).value == 4 + 6 - 2 - 3


def test_gyro_counts_before_heavy_doubling_by_default() -> None:
    attack = RangedAttack(
        range_category=SHORT, weapon_class="mmg", mode=FiringMode.FA, rounds=10, recoil_compensation=6, gyro=2
    )
    assert ranged_tn(attack).value == 4 + (10 - 6 - 2) * 2
    after = load_tables({"recoil": {"gyro_before_heavy_doubling": False}})
    assert ranged_tn(attack, after).value == 4 + (10 - 6) * 2 - 2


def test_burst_firing_shotgun_doubles_uncompensated_recoil() -> None:
    burst = RangedAttack(range_category=SHORT, weapon_class="shotgun", mode=FiringMode.BF)
    assert keys(ranged_tn(burst))["heavy_weapon"] == 3
    single = replace(burst, mode=FiringMode.SA, rounds_fired_before=1)
    assert "heavy_weapon" not in keys(ranged_tn(single))
    assert keys(ranged_tn(replace(BASE, mode=FiringMode.BF, heavy_weapon=True)))["heavy_weapon"] == 3


@pytest.mark.parametrize(("mode", "rounds"), [(FiringMode.FA, 11), (FiringMode.FA, 2), (FiringMode.SS, 2)])
def test_rounds_outside_the_mode_are_refused(mode: FiringMode, rounds: int) -> None:
    with pytest.raises(RulesError, match=mode.value):
        ranged_tn(replace(BASE, mode=mode, rounds=rounds))


def test_negative_recoil_inputs_are_refused() -> None:
    with pytest.raises(RulesError):
        ranged_tn(replace(BASE, recoil_compensation=-1))


# --- sights, aim, called shot ---


def test_smart_systems_need_a_smartgun() -> None:
    tn = ranged_tn(replace(BASE, smartlink=True, smartgoggles=True))
    assert "smartlink" not in keys(tn) and tn.notes


def test_smartlink_beats_goggles_and_a_laser_adds_to_both_by_default() -> None:
    # sr3.md, Decisions: "laser and smartlink both count (the seed bars no combination)".
    attack = replace(BASE, smartgun=True, smartlink=True, smartgoggles=True, laser_sight=True)
    tn = ranged_tn(attack)
    assert keys(tn) == {"range": 4, "smartlink": -2, "laser_sight": -1}
    assert tn.value == 2
    apart = load_tables({"ranged_modifiers": {"laser_stacks_with_smart": False}})  # the GM's table may say no
    assert keys(ranged_tn(attack, apart)) == {"range": 4, "smartlink": -2}


def test_laser_sight_limits() -> None:
    far = RangedAttack(distance=60, weapon_class="assault_rifle", laser_sight=True)
    assert "laser_sight" not in keys(ranged_tn(far))
    assert "laser_sight" in keys(ranged_tn(replace(far, distance=50)))
    for row in ("light_smoke", "heavy_smoke", "thermal_smoke"):
        assert "laser_sight" not in keys(ranged_tn(replace(BASE, laser_sight=True, visibility=row)))
    assert "laser_sight" in keys(ranged_tn(replace(BASE, laser_sight=True, visibility="partial_light")))


def test_second_firearm_loses_smart_and_laser_bonus() -> None:
    attack = replace(BASE, second_firearm=True, smartgun=True, smartlink=True, laser_sight=True)
    assert keys(ranged_tn(attack)) == {"range": 4, "second_firearm": 2}


def test_magnification_blocks_smart_systems() -> None:
    attack = RangedAttack(range_category=RangeCategory.LONG, magnification=1, smartgun=True, smartlink=True)
    assert keys(ranged_tn(attack)) == {"range": 5}


@pytest.mark.parametrize(("actions", "skill", "value"), [(1, 6, -1), (3, 6, -3), (5, 6, -3), (2, 3, -1), (1, 1, 0)])
def test_aim_is_capped_at_half_the_skill(actions: int, skill: int, value: int) -> None:
    assert keys(ranged_tn(replace(BASE, aim_actions=actions, skill=skill)))["aim"] == value


def test_aim_needs_the_skill() -> None:
    with pytest.raises(RulesError, match="skill"):
        ranged_tn(replace(BASE, aim_actions=2))


def test_called_shot_needs_an_automatic_mode() -> None:
    with pytest.raises(RulesError, match="called shot"):
        ranged_tn(replace(BASE, called_shot=True))
    for mode in (FiringMode.SA, FiringMode.BF, FiringMode.FA):
        assert keys(ranged_tn(replace(BASE, called_shot=True, mode=mode)))["called_shot"] == 4


def test_a_bow_and_by_default_a_throw_may_be_called_whatever_their_mode() -> None:
    """"firearms only in SA, BF or FA": a bow is no firearm; throws may be called too (the digest's Decision)."""
    for kind in (WeaponKind.PROJECTILE, WeaponKind.THROWN, WeaponKind.BLAST):
        assert keys(ranged_tn(replace(BASE, called_shot=True, weapon_kind=kind)))["called_shot"] == 4


def test_the_tables_may_keep_called_shots_to_firearms_and_bows() -> None:
    """The Decision's other choice, as data the GM edits: throws may not be called."""
    strict = load_tables({"called_shot": {"throws_and_melee": False}})
    with pytest.raises(RulesError, match="not with throws"):
        ranged_tn(replace(BASE, called_shot=True, weapon_kind=WeaponKind.THROWN), strict)
    assert keys(ranged_tn(replace(BASE, called_shot=True, weapon_kind=WeaponKind.PROJECTILE), strict))[
        "called_shot"] == 4


def test_labels_are_translated() -> None:
    class Marked(gettext.NullTranslations):
        def gettext(self, message: str) -> str:
            return "»" + message

    text.install(Marked())
    try:
        labels = {line.key: line.label for line in ranged_tn(replace(BASE, partial_cover=True)).lines}
    finally:
        text.install(gettext.NullTranslations())
    assert labels == {"range": "»Short range", "partial_cover": "»Partial cover"}


# --- damage codes ---


@pytest.mark.parametrize(
    ("power", "level", "mode", "rounds", "expected"),
    [
        (8, "M", "SS", None, (8, "M")),
        (8, "M", "SA", 1, (8, "M")),
        (5, "M", "BF", None, (8, "S")),  # seed: 5M burst -> 8S
        (9, "M", "SB", None, (11, "M")),
        (8, "M", "FA", 3, (11, "S")),
        (8, "M", "FA", 5, (13, "S")),
        (8, "M", "FA", 6, (14, "D")),
        (8, "M", "FA", 10, (18, "D")),
        (6, "S", "BF", 3, (9, "D")),
        (6, "D", "BF", 3, (9, "D")),
        (6, "L", "fa", 9, (15, "D")),
    ],
)
def test_damage_code_by_firing_mode(
    power: int, level: str, mode: str, rounds: int | None, expected: tuple[int, str]
) -> None:
    assert damage_code(power, level, mode, rounds) == expected


@pytest.mark.parametrize(("mode", "rounds"), [("SS", 2), ("SA", 3), ("BF", 2), ("BF", 4), ("FA", 2), ("FA", 11)])
def test_damage_code_rounds_outside_mode(mode: str, rounds: int) -> None:
    with pytest.raises(RulesError, match=mode):
        damage_code(8, "M", mode, rounds)


def test_damage_code_unknown_mode_and_level() -> None:
    with pytest.raises(RulesError, match="XX"):
        damage_code(8, "M", "XX")
    with pytest.raises(RulesError):
        damage_code(8, "Q", "SS")


@pytest.mark.parametrize(
    ("source", "code", "canonical"),
    [
        ("9M", DamageCode(9, "M"), "9M"),
        (" 10 s ", DamageCode(10, "S"), "10S"),
        ("(STR)M", DamageCode(0, "M", strength_based=True), "(STR)M"),
        ("(str+2)l", DamageCode(2, "L", strength_based=True), "(STR+2)L"),
        ("(STR-1)M Stun", DamageCode(-1, "M", strength_based=True, stun=True), "(STR-1)M Stun"),
        ("6S stun", DamageCode(6, "S", stun=True), "6S Stun"),
        ("STR+2 L", DamageCode(2, "L", strength_based=True), "(STR+2)L"),  # as weapon lists write it
        ("str-1 M stun", DamageCode(-1, "M", strength_based=True, stun=True), "(STR-1)M Stun"),
        ("STR M", DamageCode(0, "M", strength_based=True), "(STR)M"),
    ],
)
def test_parse_and_format_damage_codes(source: str, code: DamageCode, canonical: str) -> None:
    assert parse_damage_code(source) == code
    assert format_damage_code(code) == canonical
    assert parse_damage_code(canonical) == code


@pytest.mark.parametrize("bad", ["", "M9", "9X", "(DEX)M", "9", "nine M", "9M stunned", "STR 2 L", "(STR+2 L"])
def test_bad_damage_codes(bad: str) -> None:
    with pytest.raises(RulesError):
        parse_damage_code(bad)


def test_strength_code_for_a_wielder_and_display() -> None:
    assert parse_damage_code("(STR+2)M").for_strength(5) == DamageCode(7, "M")
    assert describe_damage_code(DamageCode(5, "M", stun=True)) == "5M Stun"
    assert describe_damage_code(DamageCode(0, "L", strength_based=True)) == "(STR)L"


# --- ammunition, armor, resistance ---


@pytest.mark.parametrize(
    ("kind", "tn"),
    [
        (WeaponKind.FIREARM, 4),
        (WeaponKind.PROJECTILE, 4),
        (WeaponKind.MELEE, 6),
        (WeaponKind.THROWN, 6),
        (WeaponKind.BLAST, 6),
    ],
)
def test_resistance_uses_ballistic_or_impact_armor(kind: WeaponKind, tn: int) -> None:
    assert resistance_tn(9, 5, 3, kind) == tn


def test_resistance_tn_is_at_least_two() -> None:
    assert resistance_tn(6, 10, 0, WeaponKind.FIREARM) == 2


def test_apds_halves_armor_except_against_vehicles() -> None:
    assert relevant_armor(5, 3, WeaponKind.FIREARM, Ammo.APDS) == 2
    assert resistance_tn(9, 5, 3, WeaponKind.FIREARM, Ammo.APDS) == 7
    assert relevant_armor(7, 0, WeaponKind.FIREARM, Ammo.APDS, target=TargetKind.BARRIER) == 3
    assert relevant_armor(7, 0, WeaponKind.FIREARM, Ammo.APDS, target=TargetKind.VEHICLE) == 7


def test_explosive_rounds_add_power() -> None:
    assert resistance_tn(9, 4, 0, WeaponKind.FIREARM, Ammo.EX) == 6
    assert resistance_tn(9, 4, 0, WeaponKind.FIREARM, Ammo.HE) == 7
    assert ammo_damage_code(9, "M", Ammo.HE, 4) == (11, "M")


def test_flechette() -> None:
    assert ammo_damage_code(9, "M", Ammo.FLECHETTE) == (9, "S")
    assert ammo_damage_code(9, "D", Ammo.FLECHETTE) == (9, "D")
    assert ammo_damage_code(9, "M", Ammo.FLECHETTE, dermal=True) == (9, "M")
    assert ammo_damage_code(9, "M", Ammo.FLECHETTE, 4, 3) == (9, "M")
    assert relevant_armor(4, 3, WeaponKind.FIREARM, Ammo.FLECHETTE) == 6
    assert relevant_armor(5, 1, WeaponKind.FIREARM, Ammo.FLECHETTE) == 5
    assert relevant_armor(0, 0, WeaponKind.FIREARM, Ammo.FLECHETTE) == 0
    assert relevant_armor(6, 0, WeaponKind.FIREARM, Ammo.FLECHETTE, target=TargetKind.VEHICLE) == 12
    assert relevant_armor(4, 0, WeaponKind.FIREARM, Ammo.FLECHETTE, target=TargetKind.BARRIER) == 8


def test_explosive_misfire_on_all_ones() -> None:
    assert explosive_misfire(Ammo.EX, [1, 1, 1], 4, 9, "M") == Misfire(9, "M", 4)
    misfire = explosive_misfire(Ammo.HE, [1], 6, 9, "m")
    assert misfire is not None and misfire.attack_misses and not misfire.combat_pool_allowed
    assert explosive_misfire(Ammo.EX, [1, 2, 1], 4, 9, "M") is None
    assert explosive_misfire(Ammo.NORMAL, [1, 1], 4, 9, "M") is None
    assert explosive_misfire(Ammo.EX, [], 4, 9, "M") is None
    with pytest.raises(RulesError):
        explosive_misfire(Ammo.EX, [1, 1], 7, 9, "M")


def test_called_shot_options() -> None:
    extra = called_shot(CalledShotEffect.EXTRA_LEVEL, "M", 4)
    assert (extra.level, extra.armor) == ("S", 4)
    assert called_shot(CalledShotEffect.EXTRA_LEVEL, "D", 4).level == "D"
    spot = called_shot(CalledShotEffect.UNARMORED_SPOT, "M", 6)
    assert (spot.level, spot.armor) == ("M", 0)
    assert called_shot(CalledShotEffect.UNARMORED_SPOT, "M", 6, spot_armor=2).armor == 2
    part = called_shot(CalledShotEffect.VEHICLE_PART, "S", 10, spot_armor=3)
    assert (part.level, part.armor, part.barrier_rating) == ("S", 3, True)


@pytest.mark.parametrize(
    ("kwargs", "tn"),
    [
        ({}, 4),
        ({"rounds": 3}, 5),
        ({"rounds": 2}, 4),
        ({"rounds": 9}, 7),
        ({"shotgun_spread": 2}, 6),
        ({"wound_modifier": 1}, 5),
        ({"cramped": 2}, 6),
        ({"area_weapon": True}, 6),
        ({"gm_modifier": -3}, 2),
    ],
)
def test_dodge_tn(kwargs: dict[str, Any], tn: int) -> None:
    assert dodge_tn(**kwargs).value == tn


def test_hit_outcomes() -> None:
    assert resolve_hit("M", 0, 0, 3).missed
    dodged = resolve_hit("M", 3, 4, 0)
    assert dodged.dodged and dodged.level is None
    assert resolve_hit("M", 3, 3, 0).level == "M"  # equal dodge does not avoid; equal totals = base damage


def test_combat_pool() -> None:
    assert combat_pool(4, 5, 6) == 7
    assert combat_pool(6, 6, 6) == 9
    with pytest.raises(RulesError):
        combat_pool(-1, 4, 4)


# --- melee ---


def test_melee_base_and_reach() -> None:
    attacker, defender = melee_tns(MeleeFighter(reach=2), MeleeFighter())
    assert (attacker.value, defender.value) == (2, 4)
    attacker, defender = melee_tns(MeleeFighter(), MeleeFighter(reach=1))
    assert (attacker.value, defender.value) == (4, 3)
    penalty = load_tables({"melee": {"reach_rule": "penalty"}})
    assert reach_modifiers(2, 0, penalty) == (0, 2)
    assert reach_modifiers(0, 1, penalty) == (1, 0)


def test_melee_tn_lines() -> None:
    attacker, _ = melee_tns(MeleeFighter(wound_modifier=2, visibility_modifier=3, position_modifier=1), MeleeFighter())
    assert keys(attacker) == {"melee": 4, "wounds": 2, "visibility": 3, "position": 1}
    assert attacker.value == 10


KATANA = DamageCode(7, "S")
FISTS = DamageCode(5, "M", stun=True)


def test_attacker_wins_and_stages_up() -> None:
    outcome = resolve_melee(5, 1, KATANA, FISTS)
    assert (outcome.winner, outcome.net, outcome.hit) == (Role.ATTACKER, 4, Role.DEFENDER)
    assert outcome.damage == DamageCode(7, "D")


def test_defender_wins_and_hits_back_with_own_weapon() -> None:
    outcome = resolve_melee(1, 4, KATANA, FISTS)
    assert (outcome.winner, outcome.hit, outcome.damage) == (
        Role.DEFENDER,
        Role.ATTACKER,
        DamageCode(5, "S", stun=True),
    )
    assert resolve_melee(1, 4, KATANA, FISTS, full_defence=True).hit is None
    assert resolve_melee(1, 4, KATANA).hit is None
    no_counter = load_tables({"melee": {"defender_counterattacks": False}})
    assert resolve_melee(1, 4, KATANA, FISTS, tables=no_counter).hit is None


def test_melee_ties() -> None:
    assert resolve_melee(3, 3, KATANA, FISTS).hit is None
    attacker_rule = load_tables({"melee": {"tie_rule": "attacker"}})
    tie = resolve_melee(3, 3, KATANA, FISTS, tables=attacker_rule)
    assert (tie.winner, tie.hit, tie.damage) == (None, Role.DEFENDER, KATANA)
    assert resolve_melee(0, 0, KATANA, FISTS, tables=attacker_rule).hit is None


def test_melee_needs_a_concrete_code() -> None:
    with pytest.raises(RulesError, match="Strength"):
        resolve_melee(3, 0, parse_damage_code("(STR)M"))


def test_unarmed_damage_is_strength_moderate_stun() -> None:
    assert unarmed_damage(5) == DamageCode(5, "M", stun=True)
    assert unarmed_damage(5, load_tables({"melee": {"unarmed_level": "L"}})) == DamageCode(5, "L", stun=True)
    assert resistance_tn(unarmed_damage(6).power, 5, 2, WeaponKind.MELEE) == 4


# --- movement ---


@pytest.mark.parametrize(("race", "run"), [("human", 15), ("dwarf", 10), ("elf", 15), ("ork", 15), ("troll", 15)])
def test_run_rate_per_race(race: str, run: int) -> None:
    assert movement_rates(5, race) == MovementRates(5, run)


def test_per_phase_rounds_up() -> None:
    assert phase_allowance(5, "human", 2) == MovementRates(3, 8)
    assert per_phase(7, 3) == 3
    with pytest.raises(RulesError):
        per_phase(6, 0)


def test_athletics_running() -> None:
    assert athletics_tn() == 4
    assert athletics_bonus(3) == 3
    assert running_distance(6, "human", 3, athletics_successes=2) == 8


@pytest.mark.parametrize(
    ("movement", "difficult", "value"),
    [
        (AttackerMovement.STILL, False, 0),
        (AttackerMovement.WALKING, False, 1),
        (AttackerMovement.WALKING, True, 2),
        (AttackerMovement.RUNNING, False, 4),
        (AttackerMovement.RUNNING, True, 6),
    ],
)
def test_movement_tn_modifier(movement: AttackerMovement, difficult: bool, value: int) -> None:
    assert movement_tn_modifier(movement, difficult) == value


def test_unknown_race_and_added_race() -> None:
    with pytest.raises(RulesError, match="gnome"):
        movement_rates(5, "gnome")
    tables = load_tables({"movement": {"run_multiplier": {"gnome": 2}}})
    assert movement_rates(5, "gnome", tables).run == 10


# --- surprise ---


def test_surprise_input_errors_and_lone_combatant() -> None:
    with pytest.raises(RulesError):
        surprise_matrix({"a": 1}, {"a": "x", "b": "y"})
    with pytest.raises(RulesError):
        surprise_matrix({"a": -1}, {"a": "x"})
    assert surprise_matrix({"a": 0}, {"a": "x"}).completely_surprised == frozenset()


def test_surprise_tie_lets_neither_act() -> None:
    result = surprise_matrix({"a": 2, "b": 2}, {"a": "x", "b": "y"})
    assert result.completely_surprised == {"a", "b"}


# --- data and overrides ---


def test_bundled_data_has_schema_and_is_cached() -> None:
    assert bundled_data()["schema"] == 1
    assert load_tables() is load_tables()
    assert TABLES.range_tn[RangeCategory.EXTREME] == 9
    assert TABLES.movement.run_multiplier["dwarf"] == 2


def test_gm_override_changes_the_calculation() -> None:
    tables = load_tables({"ranged_modifiers": {"blind_fire": 6}, "range": {"base_tn": {"short": 3}}})
    assert ranged_tn(replace(BASE, blind_fire=True), tables).value == 9
    assert ranged_tn(replace(BASE, blind_fire=True)).value == 12  # the defaults are untouched


def test_gm_override_of_weapon_range_and_new_weapon() -> None:
    railgun = {
        "scale": "metres",
        "minimum": 0,
        "base_tn": {},
        "upper": {"short": 100, "medium": 400, "long": 1000, "extreme": 2000},
    }
    tables = load_tables({"weapon_ranges": {"smg": {"upper": {"short": 12}}, "railgun": railgun}})
    assert category_for_distance(tables, "smg", 12) == RangeCategory.SHORT
    assert category_for_distance(tables, "railgun", 500) == RangeCategory.LONG


def test_gm_override_of_firing_modes_and_visibility() -> None:
    tables = load_tables({"firing_modes": {"FA": {"max_rounds": 15}}, "visibility": {"rows": {"glare": {"normal": 3}}}})
    assert damage_code(8, "M", "FA", 15, tables) == (23, "D")
    assert keys(ranged_tn(replace(BASE, visibility="glare"), tables))["visibility"] == 3


BAD_OVERRIDES = [
    ({"ranged_modifiers": {"blind_fyre": 6}}, "ranged_modifiers.blind_fyre"),
    ({"ranged_modifiers": {"blind_fire": "8"}}, "ranged_modifiers.blind_fire"),
    ({"ranged_modifiers": {"blind_fire": True}}, "ranged_modifiers.blind_fire"),
    ({"ranged_modifiers": {"laser_stacks_with_smart": 1}}, "laser_stacks_with_smart"),
    ({"ranged_modifiers": 3}, "ranged_modifiers"),
    ({"melee": {"tie_rule": "coin"}}, "melee.tie_rule"),
    ({"melee": {"unarmed_level": "X"}}, "melee.unarmed_level"),
    ({"weapon_ranges": {"smg": {"upper": {"short": 100}}}}, "weapon_ranges.smg.upper"),
    ({"weapon_ranges": {"smg": {"base_tn": {"far": 7}}}}, "weapon_ranges.smg.base_tn"),
    ({"weapon_ranges": {"smg": {"scale": "feet"}}}, "weapon_ranges.smg.scale"),
    ({"weapon_ranges": {"railgun": {"scale": "metres"}}}, "weapon_ranges.railgun"),
    ({"recoil": {"heavy_classes": ["railgun"]}}, "recoil.heavy_classes"),
    ({"recoil": {"heavy_classes": "lmg"}}, "recoil.heavy_classes"),
    ({"recoil": {"own": {"XX": 1}}}, "recoil.own"),
    ({"firing_modes": {"FA": {"min_rounds": 11}}}, "firing_modes.FA"),
    ({"called_shot": {"modes": ["auto"]}}, "called_shot.modes"),
    ({"visibility": {"blocks_laser": ["snow"]}}, "visibility.blocks_laser"),
    ({"visibility": {"rows": {"snow": {"normal": 2}}}}, "visibility.rows.snow"),
    ({"resistance": {"armor_vs": {"melee": "dermal"}}}, "resistance.armor_vs.melee"),
    ({"movement": {"run_multiplier": {"troll": -1}}}, "movement.run_multiplier.troll"),
    ({"pools": {"combat_pool_divisor": 0}}, "pools.combat_pool_divisor"),
    ({"schema": 2}, "schema"),
]


@pytest.mark.parametrize(("override", "path"), BAD_OVERRIDES)
def test_bad_override_names_the_setting(override: dict[str, Any], path: str) -> None:
    with pytest.raises(RulesError, match=path.replace(".", r"\.")):
        load_tables(override)


# --- properties ---

attacks = st.builds(
    RangedAttack,
    range_category=st.sampled_from(list(RangeCategory)),
    weapon_class=st.sampled_from([None, "assault_rifle", "mmg", "shotgun", "grenade_launcher"]),
    magnification=st.integers(0, 3),
    visibility=st.sampled_from([None, *sorted(TABLES.visibility)]),
    vision=st.sampled_from(list(Vision)),
    attacker_movement=st.sampled_from(list(AttackerMovement)),
    difficult_terrain=st.booleans(),
    target_movement=st.sampled_from(list(TargetMovement)),
    partial_cover=st.booleans(),
    blind_fire=st.booleans(),
    melee_opponents=st.integers(0, 3),
    target_index=st.integers(1, 4),
    smartgun=st.booleans(),
    smartlink=st.booleans(),
    smartgoggles=st.booleans(),
    laser_sight=st.booleans(),
    aim_actions=st.integers(0, 4),
    skill=st.integers(0, 8),
    second_firearm=st.booleans(),
    wound_modifier=st.integers(0, 6),
    mode=st.just(FiringMode.FA),
    rounds=st.integers(3, 10),
    rounds_fired_before=st.integers(0, 10),
    recoil_compensation=st.integers(0, 8),
    gyro=st.integers(0, 6),
    gm_modifier=st.integers(-20, 20),
)


@given(attacks)
def test_property_tn_never_below_two(attack: RangedAttack) -> None:
    tn = ranged_tn(attack)
    assert tn.value >= 2
    assert tn.value == max(2, tn.unclamped)


@given(attacks, st.integers(1, 6))
def test_property_more_compensation_never_raises_tn(attack: RangedAttack, more: int) -> None:
    better = replace(attack, recoil_compensation=attack.recoil_compensation + more)
    assert ranged_tn(better).value <= ranged_tn(attack).value


@given(attacks, st.integers(1, 6))
def test_property_more_gyro_never_raises_tn(attack: RangedAttack, more: int) -> None:
    assert ranged_tn(replace(attack, gyro=attack.gyro + more)).value <= ranged_tn(attack).value


def _mode_and_rounds() -> st.SearchStrategy[tuple[str, int]]:
    return st.one_of(
        st.tuples(st.sampled_from(["SS", "SA"]), st.just(1)),
        st.just(("SB", 2)),
        st.just(("BF", 3)),
        st.tuples(st.just("FA"), st.integers(3, 10)),
    )


@given(st.integers(0, 30), st.sampled_from(LEVELS), _mode_and_rounds())
def test_property_damage_level_never_above_deadly(power: int, level: str, mode_rounds: tuple[str, int]) -> None:
    mode, rounds = mode_rounds
    new_power, new_level = damage_code(power, level, mode, rounds)
    assert new_level in LEVELS
    assert LEVELS.index(new_level) >= LEVELS.index(level)
    assert new_power >= power


@given(st.dictionaries(st.text(min_size=1, max_size=3), st.tuples(st.integers(0, 6), st.sampled_from("xy"))))
def test_property_surprise_is_never_mutual(combatants: dict[str, tuple[int, str]]) -> None:
    result = surprise_matrix({k: v[0] for k, v in combatants.items()}, {k: v[1] for k, v in combatants.items()})
    for a in combatants:
        for b in combatants:
            assert not (result.can_act_against(a, b) and result.can_act_against(b, a))


def _pairs() -> Iterator[tuple[int, int]]:
    yield from ((a, d) for a in range(6) for d in range(6))


def test_melee_exactly_one_side_hit_or_none() -> None:
    for attacker, defender in _pairs():
        outcome = resolve_melee(attacker, defender, KATANA, FISTS)
        assert outcome.hit in (None, Role.ATTACKER, Role.DEFENDER)
        assert (outcome.hit is None) == (outcome.damage is None)
