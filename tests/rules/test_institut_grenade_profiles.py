"""Institute grenades by distance, from institut.md: "Timed grenades explode at the end of the round, after everyone
has acted; impact grenades at once. Damage is rolled separately for each creature in the blast radius, with its own
cover modifiers, changed by distance per the grenade's table." Decision: "grenade profiles (damage dice, radius,
distance table) are data"."""

from __future__ import annotations

import pytest

from rules.combatants import SetOption
from rules.encounter import SlotKind, frozen_map
from rules.errors import RulesError
from rules.systems.institut import Blast, BlastRoll, ThrowGrenade
from rules.systems.institut.arms import FALLOFF, RADIUS, describe_weapon, ready_made, weapon_falloff
from rules.systems.institut.combat import blast_pool, in_blast
from rules.systems.institut.pyramid import CLASSES
from rules.systems.institut.system import tables
from rules.systems.institut.tables import Falloff, load_tables, parse_falloff
from rules.turns import NextTurn
from tests.rules.test_institut_rules import started
from tests.rules.test_institut_scenes import INSTITUT, current

F1 = load_tables().weapons["F-1"]


def test_a_grenade_profile_is_data_dice_radius_and_distance_table() -> None:
    assert (F1.damage, F1.radius, F1.falloff.steps) == (8, 15, ((3, 0), (7, -2), (15, -4)))
    assert load_tables().weapons["RGN"].radius == 10 and not load_tables().weapons["RGN"].timed


@pytest.mark.parametrize(("distance", "cover", "dice"), [
    (0, 0, 8), (3, 0, 8), (4, 0, 6), (7, 0, 6), (8, 0, 4), (15, 0, 4),  # the table's rows
    (5, 2, 4), (12, 1, 3), (14, 9, 0),  # its own cover takes dice off, never below none
])
def test_each_creature_s_dice_follow_the_distance_table_and_its_own_cover(distance: int, cover: int,
                                                                           dice: int) -> None:
    assert blast_pool(F1.damage, F1.falloff, distance, cover).dice == dice


def test_the_radius_says_who_is_caught() -> None:
    assert in_blast(15, 15) and not in_blast(15, 16)
    assert in_blast(0, 40)  # no radius given: the GM judges


def test_a_distance_table_is_written_nearest_first() -> None:
    assert parse_falloff(" 2:+1; 5:0, 9:-3 ") == Falloff(((2, 1), (5, 0), (9, -3)))
    assert parse_falloff("") == Falloff()
    assert Falloff().change(30) == 0 and Falloff(((2, 1),)).change(30) == 1  # past the last row: its change
    for bad in ("5:-1, 3:0", "3", "a:1", "3:x", "3:-1:2"):
        with pytest.raises(RulesError, match="nearest first"):
            parse_falloff(bad)


def test_the_gm_edits_a_grenade_profile_in_the_weapons_table() -> None:
    history, _ids = started()
    history.do(SetOption("weapons", frozen_map({"F-1": frozen_map({"radius": 20, "falloff": "5:0, 20:-3"}),
                                                "Molotov": frozen_map({"kind": "grenade", "damage": 4,
                                                                      "falloff": "2:0"})})))
    data = tables(history.state)
    assert data.weapons["F-1"].radius == 20 and data.weapons["F-1"].falloff.change(6) == -3
    assert data.weapons["Molotov"].falloff.change(1) == 0
    with pytest.raises(RulesError, match="only a grenade has a blast radius"):
        history.do(SetOption("weapons", frozen_map({"AK-74": frozen_map({"radius": 3})})))
    with pytest.raises(RulesError, match="nearest first"):
        history.do(SetOption("weapons", frozen_map({"F-1": frozen_map({"falloff": "9:0, 2:1"})})))


def test_a_carried_grenade_keeps_its_profile_and_other_weapons_store_none() -> None:
    grenade = ready_made("F-1")
    assert grenade.number(RADIUS) == 15 and weapon_falloff(grenade) == F1.falloff
    assert describe_weapon(grenade) == "F-1 (grenade, 8 dice, radius 15 m)"
    rifle = ready_made("AK-74")
    assert RADIUS not in rifle.values and FALLOFF not in rifle.values  # saved weapons replay unchanged
    with pytest.raises(RulesError, match="only a grenade"):
        ready_made("AK-74", radius=5)


def test_an_impact_grenade_rolls_each_creature_separately_at_its_distance() -> None:
    history, ids = started()
    rgn = load_tables().weapons["RGN"]
    vera = blast_pool(rgn.damage, rgn.falloff, 2, 0).dice
    bandit = blast_pool(rgn.damage, rgn.falloff, 9, 1).dice
    assert (vera, bandit) == (6, 1)  # 6 dice up to 2 m; 6 − 4 at up to 10 m, − 1 for cover
    entry = history.do(ThrowGrenade(ids["Sokolov"], "RGN", 10, (6, 6), timed=False, blast=(
        BlastRoll(ids["Vera"], (3,) * vera, 2), BlastRoll(ids["Bandit 1"], (4,) * bandit, 9, 1))))
    text = entry.text()
    assert "The blast catches Vera 2 m away." in text
    assert "The blast catches Bandit 1 9 m away, behind cover of 1 die." in text
    assert history.state.combatant(ids["Vera"]).boxes("heavy") == 1  # 6 × 3 = 18: Heavy
    assert "4 points: below the pyramid, no wound." in text  # Bandit 1: one die, a 4


def test_a_timed_grenade_explodes_only_at_the_round_s_end() -> None:
    history, ids = started()
    history.do(ThrowGrenade(ids["Sokolov"], "F-1", 8, (5, 3), timed=True))
    slots = INSTITUT.remaining_slots(history.state)
    assert [slot.kind for slot in slots][-1] is SlotKind.TIMER  # after everyone still to act
    assert sum(1 for slot in slots if slot.kind is SlotKind.TIMER) == 1
    for name in ("Vera", "Bandit 1", "Bandit 2"):
        history.do(NextTurn())
        assert current(history) == name  # nothing explodes while anyone has yet to act
        assert all(sum(history.state.combatant(cid).boxes(k) for k in CLASSES) == 0 for cid in ids.values())
    history.do(NextTurn())
    assert current(history) == "F-1"  # now: the end of the round
    history.do(Blast("F-1", (BlastRoll(ids["Vera"], (2,) * 6, 5),)))
    assert history.state.combatant(ids["Vera"]).boxes("medium") == 1
    history.do(NextTurn())
    assert not history.state.effects and history.state.clock.current is None
