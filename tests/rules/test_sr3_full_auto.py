"""SR3 full auto spread over several targets: "Changing target wastes 1 round per metre between targets (never with
a smartgun)" (sr3.md, firing modes). The wasted rounds leave the clip and recoil, but hit nobody."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.errors import OperationError, RulesError
from rules.serialize import to_data
from rules.systems.sr3 import Sr3Attack
from rules.systems.sr3.damage import Ammo, CalledShotEffect
from rules.systems.sr3.full_auto import wasted_rounds
from rules.systems.sr3.ranged import RangedAttack
from rules.systems.sr3.shot import Defence, ShotInputs, work_out
from rules.systems.sr3.system import FULL_AUTO_ROUNDS
from rules.systems.sr3.tables import FiringMode, RangeCategory, WeaponKind, load_tables
from tests.rules.test_sr3_odds import oracle_outcomes
from tests.rules.test_sr3_weapons import fight, rounds_left

DATA = load_tables()
#: Wedge's AK-97 (8M, compensation 4, laser) at punk 2: 3 rounds, 3 fired at punk 1 before.
PUNK_2 = ShotInputs(
    code_text="8M", strength=4, kind=WeaponKind.FIREARM, ammo=Ammo.NORMAL,
    attack=RangedAttack(range_category=RangeCategory.SHORT, weapon_class="assault_rifle", laser_sight=True,
                        recoil_compensation=4, mode=FiringMode.FA, rounds=3, rounds_fired_before=3, target_index=2),
    defence=Defence(ballistic=2), called_effect=CalledShotEffect.EXTRA_LEVEL, spot_armor=0, attack_dice=6,
    dodge_dice=2, resist_dice=4)


def test_close_targets_waste_nothing_as_in_wedges_example() -> None:
    sheet = work_out(PUNK_2, DATA)
    assert (sheet.attack_tn.value, sheet.power, sheet.level, sheet.wasted) == (7, 11, "S", 0)


def test_each_metre_between_targets_wastes_a_round_that_recoils_but_does_not_hit() -> None:
    sheet = work_out(replace(PUNK_2, switch_metres=2), DATA)
    assert sheet.wasted == 2
    # recoil 3 + 2 wasted + 3 = 8, − 4 compensation = 4; +2 second target; short 4, laser −1 → 9
    assert sheet.attack_tn.value == 9
    assert {line.key: line.value for line in sheet.attack_tn.lines}["recoil"] == 8
    assert "2 rounds wasted changing target: they add to the recoil." in sheet.attack_tn.notes
    assert (sheet.power, sheet.level) == (11, "S")  # the code counts only the 3 rounds at this target
    assert sheet.dodge_tn.value == 5  # +1 per 3 rounds at this target, not per round wasted


def test_the_odds_before_the_roll_equal_icepools_enumeration() -> None:
    inputs = replace(PUNK_2, switch_metres=2)
    sheet = work_out(inputs, DATA)
    oracle = oracle_outcomes((inputs.attack_dice, sheet.attack_tn.value, inputs.dodge_dice, sheet.dodge_tn.value,
                              inputs.resist_dice, sheet.resist_tn, sheet.level))
    assert sheet.odds == pytest.approx({key: float(value) for key, value in oracle.items()}, abs=1e-12)


def test_a_smartgun_never_wastes_rounds() -> None:
    smart = replace(PUNK_2, switch_metres=5, attack=replace(PUNK_2.attack, smartgun=True))
    assert work_out(smart, DATA).wasted == 0
    assert wasted_rounds(FiringMode.FA, 5, smartgun=True) == 0
    assert wasted_rounds(FiringMode.FA, 5, smartgun=False) == 5


def test_rounds_that_do_not_add_up_are_refused_with_the_rule() -> None:
    too_many = replace(PUNK_2, switch_metres=2, attack=replace(PUNK_2.attack, rounds_fired_before=6))
    with pytest.raises(RulesError, match=r"6 fired before, 2 wasted changing target and 3 at this target make 11 "
                                         r"rounds\. Full auto: .*at most 10 rounds a phase; changing target wastes "
                                         r"1 round per metre"):
        work_out(too_many, DATA)
    first = replace(PUNK_2, switch_metres=1, attack=replace(PUNK_2.attack, rounds_fired_before=0))
    with pytest.raises(RulesError, match="The first target of a burst has no previous target"):
        work_out(first, DATA)
    single = replace(PUNK_2, switch_metres=1, attack=replace(PUNK_2.attack, mode=FiringMode.SA, rounds=1))
    with pytest.raises(RulesError, match="only in full-auto fire"):
        work_out(single, DATA)


AK = {"damage": "8M", "modes": "SA/BF/FA", "recoil_compensation": 4, "magazine": 38, "rounds": 38}


def _volley(ids: dict[str, str], target: str, rounds: int, wasted: int = 0) -> Sr3Attack:
    return Sr3Attack(ids["Mike"], ids[target], "AK-97", 11, "S", 7, ((1,), (2,)), 6, (), mode="FA", rounds=rounds,
                     saved_weapon="AK-97", wasted_rounds=wasted)


def test_the_clip_and_the_phase_count_the_whole_burst_once_and_undo_gives_it_back() -> None:
    history, ids = fight(**{"AK-97": AK})
    history.do(_volley(ids, "Ganger 1", 3))
    history.do(_volley(ids, "Ganger 2", 3, wasted=2))
    assert rounds_left(history, ids, "AK-97") == 38 - 8
    assert history.state.combatant(ids["Mike"]).actions_used[FULL_AUTO_ROUNDS] == 8
    assert "2 rounds wasted changing target." in history.entries[-1].text()
    with pytest.raises(OperationError, match="at most 10 rounds a phase"):
        history.do(_volley(ids, "Ganger 3", 3))  # 8 + 3 > 10
    history.undo()
    assert rounds_left(history, ids, "AK-97") == 38 - 3


def test_an_old_attack_replays_unchanged_and_a_burst_shot_refuses_waste() -> None:
    history, ids = fight(**{"AK-97": AK})
    assert "wasted_rounds" not in to_data(_volley(ids, "Ganger 1", 3))  # saved fights read as before
    with pytest.raises(OperationError, match="only in full-auto fire"):
        history.do(replace(_volley(ids, "Ganger 1", 3, wasted=1), mode="BF"))
