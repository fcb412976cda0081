"""What an SR3 shot hits: vehicles and drones, barriers, dermal armor (sr3.md, Ammunition, Barriers, Ranged combat).

Every number comes from the digest's words: "APDS halves armor and barrier ratings (round down), standard against
vehicles and drones. EX Power +1, HE +2; through a barrier the attack TN is 2 × its rating, the barrier damaged as
if half … Flechette: +1 level vs unarmored (9M → 9S); vs armor the greater of 2 × impact and ballistic; barrier and
vehicle armor doubled; dermal armor cancels the level increase." "Barriers: a barrier rated above the attack's
Power stops it." Step 5: "modified Body (dermal armor included)".
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.dice import Chains
from rules.errors import RulesError
from rules.systems.sr3 import SYSTEM as SR3
from rules.systems.sr3.damage import Ammo, CalledShotEffect, DamageCode, TargetKind, blast_power, spread_power
from rules.systems.sr3.ops import Sr3Attack
from rules.systems.sr3.outcomes import attack_probability, outcome_key
from rules.systems.sr3.ranged import RangedAttack
from rules.systems.sr3.resistance import resistance
from rules.systems.sr3.shot import Defence, ShotInputs, work_out
from rules.systems.sr3.system import DERMAL_ARMOR
from rules.systems.sr3.tables import RangeCategory, WeaponKind, load_tables
from rules.systems.sr3.typed_harm import TypedCode
from tests.rules.sr3_scenes import eight_characters, roll_ones

DATA = load_tables()
#: A heavy pistol, 9M, at short range (base TN 4), nothing else.
PISTOL = ShotInputs(
    code_text="9M", strength=4, kind=WeaponKind.FIREARM, ammo=Ammo.NORMAL,
    attack=RangedAttack(range_category=RangeCategory.SHORT, skill=6), defence=Defence(),
    called_effect=CalledShotEffect.EXTRA_LEVEL, spot_armor=0, attack_dice=6, dodge_dice=0, resist_dice=4,
)


def _shot(ammo: Ammo = Ammo.NORMAL, **defence: object) -> ShotInputs:
    return replace(PISTOL, ammo=ammo, defence=replace(Defence(), **defence))  # type: ignore[arg-type]


# --- flechette: "+1 level vs unarmored (9M → 9S)", but not past a vehicle's, a barrier's or dermal armor ---


def test_flechette_adds_a_level_against_an_unarmored_person() -> None:
    sheet = work_out(_shot(Ammo.FLECHETTE), DATA)
    assert (sheet.power, sheet.level) == (9, "S")


def test_dermal_armor_cancels_flechettes_level_increase() -> None:
    sheet = work_out(_shot(Ammo.FLECHETTE, dermal=1), DATA)
    assert (sheet.power, sheet.level) == (9, "M")


@pytest.mark.parametrize("kind", [TargetKind.VEHICLE, TargetKind.BARRIER])
def test_flechette_adds_no_level_against_a_vehicle_or_a_barrier(kind: TargetKind) -> None:
    sheet = work_out(_shot(Ammo.FLECHETTE, target=kind, barrier=1), DATA)
    assert sheet.level == "M"


def test_flechette_doubles_vehicle_armor() -> None:
    sheet = work_out(_shot(Ammo.FLECHETTE, target=TargetKind.VEHICLE, ballistic=3), DATA)
    assert sheet.armor == 6 and sheet.resist_tn == 9 - 6


# --- APDS: "halves armor and barrier ratings (round down), standard against vehicles and drones" ---


def test_apds_is_standard_against_a_vehicle() -> None:
    sheet = work_out(_shot(Ammo.APDS, target=TargetKind.VEHICLE, ballistic=5), DATA)
    assert sheet.armor == 5 and sheet.resist_tn == 4


def test_apds_halves_a_barriers_rating_rounding_down() -> None:
    sheet = work_out(_shot(Ammo.APDS, target=TargetKind.BARRIER, barrier=7), DATA)
    assert sheet.armor == 3 and sheet.barrier == 3 and sheet.resist_tn == 6


def test_a_vehicles_armor_ignores_impact_whatever_the_weapon() -> None:
    thrown = replace(_shot(target=TargetKind.VEHICLE, ballistic=4, impact=1), kind=WeaponKind.THROWN)
    assert work_out(thrown, DATA).armor == 4


# --- barriers: "a barrier rated above the attack's Power stops it" ---


def test_a_barrier_rated_above_the_power_stops_the_attack() -> None:
    sheet = work_out(_shot(barrier=10), DATA)
    assert sheet.barrier == 10 and sheet.stopped
    assert sheet.odds["miss"] > 0 and sheet.odds["none"] == pytest.approx(1 - sheet.odds["miss"])
    assert all(sheet.odds[level] == 0 for level in "LMSD") and sheet.odds["dodged"] == 0


def test_a_barrier_rated_at_the_power_does_not_stop_it() -> None:
    sheet = work_out(_shot(barrier=9), DATA)
    assert not sheet.stopped and sheet.odds == work_out(PISTOL, DATA).odds


def test_apds_halves_a_barrier_in_the_way_and_flechette_doubles_it() -> None:
    assert not work_out(_shot(Ammo.APDS, barrier=19), DATA).stopped  # 19 // 2 = 9, not above 9
    assert work_out(_shot(Ammo.FLECHETTE, barrier=5), DATA).stopped  # 2 × 5 = 10 > 9


def test_explosive_power_counts_against_the_barrier() -> None:
    assert work_out(_shot(barrier=10), DATA).stopped
    assert not work_out(_shot(Ammo.EX, barrier=10), DATA).stopped  # EX Power +1: 10, no longer above


def test_explosive_rounds_at_a_barrier_roll_against_twice_its_rating_and_damage_it_as_if_half() -> None:
    sheet = work_out(_shot(Ammo.HE, target=TargetKind.BARRIER, barrier=6), DATA)
    lines = {line.key: line.value for line in sheet.attack_tn.lines}
    assert lines == {"barrier_breach": 12} and sheet.attack_tn.value == 12  # in place of the range's 4
    assert sheet.power == 11 and sheet.armor == 3 and sheet.resist_tn == 11 - 3


def test_a_barrier_shot_at_needs_its_rating() -> None:
    with pytest.raises(RulesError, match="rating of the barrier"):
        work_out(_shot(target=TargetKind.BARRIER), DATA)


# --- the operation: the stop in the log, no dodge, no damage, undone ---


def _chains(*faces: int) -> Chains:
    return tuple((face,) for face in faces)


def test_a_stopped_attack_hurts_nobody_says_why_and_undoes() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    state = history.state
    before = state.combatant(ids["Ganger 1"])
    shot = Sr3Attack(ids["Mike"], ids["Ganger 1"], "Ares Predator", 9, "M", 4, _chains(5, 6, 2), 4, (), barrier=10)
    text = history.do(shot).text()
    assert "The barrier (rating 10) stops the attack: it is rated above the Power 9." in text
    assert history.state.combatant(ids["Ganger 1"]).damage == before.damage
    assert outcome_key(shot) == "none"
    # No damage is the attacker's best result now: the chance of any hit, 3 dice at TN 4 (a half each).
    assert attack_probability(shot) == pytest.approx(1 - 0.5 ** 3)
    history.undo()
    assert history.state == state


def test_a_barrier_not_above_the_power_lets_the_hit_land() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    shot = Sr3Attack(ids["Mike"], ids["Ganger 1"], "Ares Predator", 9, "M", 4, _chains(5, 6, 2), 4, _chains(1),
                     barrier=9)
    text = history.do(shot).text()
    assert "stops" not in text and history.state.combatant(ids["Ganger 1"]).boxes("physical") == 6  # S: 2 net


def test_a_barriers_rating_is_checked() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    with pytest.raises(Exception, match="barrier's rating"):
        history.do(Sr3Attack(ids["Mike"], ids["Ganger 1"], "Pistol", 9, "M", 4, _chains(5), 4, (), barrier=-1))


# --- "modified Body (dermal armor included)" ---


def test_dermal_armor_adds_to_the_body_that_resists_a_typed_code() -> None:
    history, ids = eight_characters(body=5)
    target = history.state.combatant(ids["Ganger 1"]).with_attribute(DERMAL_ARMOR, 1)
    code = TypedCode(10, "S", SR3.tracks(target, history.state)[0])
    assert resistance(code, target, history.state).body == 6


def test_dermal_armor_is_an_optional_attribute() -> None:
    spec = next(spec for spec in SR3.attribute_specs() if spec.key == DERMAL_ARMOR)
    assert spec.default == 0 and not spec.filled_when_added


# --- grenades: "Power falling with distance by the grenade's rate per metre, level unchanged" ---


def test_a_blasts_power_falls_by_its_rate_per_metre_and_keeps_its_level() -> None:
    grenade = replace(PISTOL, code_text="10S", kind=WeaponKind.BLAST, falloff=1, blast_metres=3)
    sheet = work_out(grenade, DATA)
    assert (sheet.power, sheet.level) == (7, "S") and sheet.weapon_code == DamageCode(10, "S")
    assert sheet.resist_tn == 7  # impact armor 0


def test_a_blast_at_its_centre_keeps_its_code_and_never_falls_below_zero() -> None:
    grenade = replace(PISTOL, code_text="10S", kind=WeaponKind.BLAST, falloff=2)
    assert work_out(grenade, DATA).weapon_code is None
    assert blast_power(10, 2, 8) == 0
    with pytest.raises(RulesError):
        blast_power(10, -1, 3)


# --- shotguns: "shot spreads with range and choke"; "+1 per shotgun spread step" on the dodge ---


def test_each_spread_step_lowers_the_shotguns_power_and_eases_the_dodge() -> None:
    shotgun = replace(PISTOL, code_text="10S", spread_power=1, defence=Defence(shotgun_spread=2))
    sheet = work_out(shotgun, DATA)
    assert (sheet.power, sheet.level) == (8, "S") and sheet.weapon_code == DamageCode(10, "S")
    assert {line.key: line.value for line in sheet.dodge_tn.lines} == {"dodge": 4, "shotgun_spread": 2}


def test_a_shotgun_without_a_power_loss_per_step_keeps_its_power() -> None:
    sheet = work_out(replace(PISTOL, code_text="10S", defence=Defence(shotgun_spread=3)), DATA)
    assert sheet.power == 10 and sheet.weapon_code is None
    with pytest.raises(RulesError):
        spread_power(10, 1, -1)
