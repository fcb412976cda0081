"""SR3 shot sheet: work_out puts the ranged TN, damage codes, armor and odds together as the rules give them."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.errors import RulesError
from rules.systems.sr3.damage import Ammo, CalledShotEffect, DamageCode, relevant_armor, resistance_tn
from rules.systems.sr3.monitor import PHYSICAL, STUN
from rules.systems.sr3.odds import attack_outcome_distribution
from rules.systems.sr3.ranged import RangedAttack, ranged_tn
from rules.systems.sr3.shot import RECOILING_MODES, Defence, ShotInputs, work_out
from rules.systems.sr3.tables import FiringMode, RangeCategory, WeaponKind, load_tables

DATA = load_tables()
PLAIN = ShotInputs(
    code_text="9M", strength=4, kind=WeaponKind.FIREARM, ammo=Ammo.NORMAL,
    attack=RangedAttack(range_category=RangeCategory.SHORT, skill=6), defence=Defence(ballistic=5, impact=3),
    called_effect=CalledShotEffect.EXTRA_LEVEL, spot_armor=0, attack_dice=6, dodge_dice=2, resist_dice=5,
)
CALLED = replace(PLAIN, attack=replace(PLAIN.attack, called_shot=True, mode=FiringMode.SA))


def test_a_plain_shot_is_the_rules_tn_code_and_odds() -> None:
    sheet = work_out(PLAIN, DATA)
    assert sheet.attack_tn == ranged_tn(PLAIN.attack, DATA)
    assert sheet.base == DamageCode(9, "M") and sheet.mode_code == (9, "M") and (sheet.power, sheet.level) == (9, "M")
    assert sheet.armor == relevant_armor(5, 3, WeaponKind.FIREARM, Ammo.NORMAL, tables=DATA) == 5
    assert sheet.resist_tn == resistance_tn(9, 5, 3, WeaponKind.FIREARM, Ammo.NORMAL, tables=DATA) == 4
    assert sheet.odds == attack_outcome_distribution(6, sheet.attack_tn.value, 2, sheet.dodge_tn.value, 5, 4, "M")
    assert sheet.track == PHYSICAL


def test_burst_fire_raises_the_code_but_the_misfire_uses_the_standard_one() -> None:
    burst = replace(PLAIN, attack=replace(PLAIN.attack, mode=FiringMode.BF), shooter_armor=(2, 0))
    sheet = work_out(burst, DATA)
    assert sheet.mode_code == (12, "S")  # three rounds: +3 Power, one level
    assert sheet.resist_tn == resistance_tn(12, 5, 3, WeaponKind.FIREARM, Ammo.NORMAL, tables=DATA)
    assert sheet.misfire_resist_tn == resistance_tn(9, 2, 0, WeaponKind.FIREARM, Ammo.NORMAL, tables=DATA)


@pytest.mark.parametrize(("effect", "spot", "armor", "level"), [
    (CalledShotEffect.EXTRA_LEVEL, 1, (5, 3), "S"),  # a level more, the armor stays
    (CalledShotEffect.UNARMORED_SPOT, 1, (1, 1), "M"),  # the spot's armor, never more than worn
    (CalledShotEffect.UNARMORED_SPOT, 9, (5, 3), "M"),
    (CalledShotEffect.VEHICLE_PART, 9, (9, 9), "M"),  # a vehicle part's own rating, whatever the weapon
])
def test_a_called_shot_changes_the_level_or_the_armor(effect: CalledShotEffect, spot: int, armor: tuple[int, int],
                                                      level: str) -> None:
    sheet = work_out(replace(CALLED, called_effect=effect, spot_armor=spot), DATA)
    assert sheet.level == level
    assert sheet.resist_tn == resistance_tn(9, *armor, WeaponKind.FIREARM, Ammo.NORMAL, tables=DATA)


def test_the_spot_armor_counts_only_for_a_called_shot() -> None:
    sheet = work_out(replace(PLAIN, called_effect=CalledShotEffect.VEHICLE_PART, spot_armor=9), DATA)
    assert sheet.resist_tn == work_out(PLAIN, DATA).resist_tn


def test_stun_damage_goes_on_the_stun_track() -> None:
    assert work_out(replace(PLAIN, code_text="6S Stun"), DATA).track == STUN


def test_a_bad_code_is_a_rules_error() -> None:
    with pytest.raises(RulesError):
        work_out(replace(PLAIN, code_text="nine"), DATA)


def test_only_a_single_shot_leaves_no_recoil_for_the_next() -> None:
    assert set(FiringMode) - RECOILING_MODES == {FiringMode.SS}
