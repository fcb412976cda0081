"""SR3 weapons as data: the fields and what they may hold, the picker's line, rounds fired and reloads."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import pytest

from rules.encounter import JsonValue, Weapon, frozen_map
from rules.errors import OperationError, RulesError
from rules.history import History
from rules.serialize import to_data
from rules.systems.sr3 import SYSTEM as SR3
from rules.systems.sr3 import Sr3Attack
from rules.systems.sr3.weapons import Loading, Smart
from rules.turns import NextTurn
from rules.weapons import Reload, SetWeapons, checked_weapons, last_attack
from tests.rules.sr3_scenes import eight_characters, roll_ones


def weapon(name: str = "Uzi III", /, **values: JsonValue) -> Weapon:
    """A checked SR3 weapon."""
    (checked,) = checked_weapons([Weapon(name, frozen_map(values))], SR3)
    return checked


UZI: Mapping[str, JsonValue] = {"damage": "6M", "weapon_class": "smg", "modes": "SA/BF", "recoil_compensation": 1,
                                "magazine": 24, "rounds": 24, "skill": 3}


def fight(**carried: Mapping[str, Any]) -> tuple[History, dict[str, str]]:
    """The seed's eight characters, initiative rolled (Mike acts), Mike carrying ``carried`` (name → values)."""
    history, ids = eight_characters()
    roll_ones(history, ids)
    history.do(SetWeapons(ids["Mike"], tuple(weapon(name, **values) for name, values in carried.items())))
    return history, ids


def shot(ids: Mapping[str, str], saved: str, mode: str = "BF", rounds: int = 3) -> Sr3Attack:
    """Mike misses Ganger 1 (all ones are failures, not a misfire with standard rounds) with ``saved``."""
    return Sr3Attack(ids["Mike"], ids["Ganger 1"], saved or "a weapon", 6, "M", 4, ((1,), (2,)), 6, (),
                     mode=mode, rounds=rounds, saved_weapon=saved)


def rounds_left(history: History, ids: Mapping[str, str], name: str) -> int:
    carried = history.state.combatant(ids["Mike"]).weapon(name)
    assert carried is not None
    return carried.number("rounds")


def used(history: History, combatant_id: str) -> dict[str, int]:
    combatant = history.state.combatant(combatant_id)
    return {item.key: item.used for item in SR3.action_budget(combatant, history.state)}


# --- the fields -----------------------------------------------------------------------------------


def test_the_fields_are_the_dialogs_weapon_inputs() -> None:
    keys = [spec.key for spec in SR3.weapon_fields()]
    assert keys == ["damage", "kind", "weapon_class", "modes", "recoil_compensation", "smart", "laser_sight",
                    "ammo", "magazine", "rounds", "loading", "skill", "reach", "strength_minimum", "blast_falloff",
                    "spread_power"]
    classes = dict(next(spec for spec in SR3.weapon_fields() if spec.key == "weapon_class").choices)
    assert classes[""] == "Not given" and classes["assault_rifle"] == "Assault rifle" and "bow" in classes


@pytest.mark.parametrize(("values", "stored"), [
    ({"damage": "9m", "modes": "sa"}, {"damage": "9M", "modes": "SA"}),
    ({"damage": "8M", "modes": "fa, sa bf"}, {"damage": "8M", "modes": "SA/BF/FA"}),  # the tables' order
    ({"damage": "STR+2 L", "kind": "melee", "reach": 1}, {"damage": "(STR+2)L", "modes": ""}),
    ({"damage": "6s stun", "kind": "melee"}, {"damage": "6S Stun"}),
    ({"damage": "10S", "kind": "blast", "weapon_class": "standard_grenade"}, {"modes": ""}),  # no modes needed
    ({"damage": "14S", "modes": "SA", "loading": "internal", "magazine": 6, "rounds": 2}, {"rounds": 2}),
])
def test_good_values_are_kept_in_canonical_form(values: dict[str, JsonValue], stored: dict[str, JsonValue]) -> None:
    checked = weapon("W", **values)
    assert {key: checked.value(key) for key in stored} == stored
    assert checked.value("smart") == Smart.NONE.value and checked.value("loading") in set(Loading)


@pytest.mark.parametrize(("values", "message"), [
    ({"damage": "9X", "modes": "SA"}, "W: '9X' is not a damage code such as 9M or (STR+2)M."),
    ({"damage": "9M"}, "W: a firearm needs its firing modes, e.g. SA or SA/BF/FA."),
    ({"damage": "9M", "modes": "SA/SB"}, "W: “SB” is not a firing mode; use SS, SA, BF or FA."),
    ({"damage": "9M", "modes": "SA", "reach": 1}, "W: only a melee weapon has reach."),
    ({"damage": "(STR)L", "kind": "melee", "modes": "SA"}, "W: a melee weapon has no “Firing modes”."),
    ({"damage": "(STR)L", "kind": "melee", "magazine": 3}, "W: a melee weapon has no “Magazine (rounds)”."),
    ({"damage": "(STR)L", "kind": "melee", "ammo": "apds"}, "W: a melee weapon has no “Ammunition”."),
    ({"damage": "(STR)L", "kind": "melee", "laser_sight": True}, "W: a melee weapon has no “Laser sight”."),
    ({"kind": "laser"}, "W: “Weapon kind” cannot be 'laser'."),
    ({"damage": "9M", "modes": "SA", "smart": "yes"}, "W: “Smart system” cannot be 'yes'."),
    ({"damage": "9M", "modes": "SA", "recoil_compensation": -1},
     "W: “Recoil compensation” cannot be -1 (from 0 to 30)."),
    ({"damage": "9M", "modes": "SA", "weapon_class": "railgun"}, "W: “Weapon class” cannot be 'railgun'."),
    ({"damage": "9M", "modes": "SA", "rounds": 3}, "W: 3 rounds loaded, but the magazine holds 0."),
    ({"damage": "9M", "modes": "SA", "calibre": "9mm"}, "W: this game's weapons have no field “calibre”."),
])
def test_values_the_game_cannot_read_are_refused_with_a_message(values: dict[str, JsonValue], message: str) -> None:
    with pytest.raises(RulesError) as refused:
        weapon("W", **values)
    assert str(refused.value) == message


def test_a_refused_value_is_quoted_short_whatever_its_length() -> None:
    with pytest.raises(RulesError) as refused:
        weapon("W", damage="9M", modes="SA", skill="x" * 1000)  # a mutated file's text in a number field
    assert str(refused.value) == f"W: “Skill rating” cannot be {repr('x' * 1000)[:40]} (from 0 to 20)."


def test_the_picker_line_names_the_numbers_a_gm_knows_a_weapon_by() -> None:
    assert SR3.describe_weapon(weapon(**UZI)) == "Uzi III · 6M · SA/BF"  # nothing about rounds: the dialog shows them
    katana = weapon("Katana", damage="(STR+3)M", kind="melee", reach=1)
    assert SR3.describe_weapon(katana) == "Katana · (STR+3)M · reach 1"
    assert SR3.describe_weapon(weapon("Knife", damage="(STR)L", kind="melee")) == "Knife · (STR)L"
    apds = weapon("Predator", damage="9M", modes="SA", ammo="apds")
    assert SR3.describe_weapon(apds) == "Predator · 9M · SA · APDS"
    assert SR3.describe_weapon(weapon("Baton", damage="6S Stun", kind="melee", reach=1)) == "Baton · 6S Stun · reach 1"


# --- rounds -----------------------------------------------------------------------------------------


def test_a_burst_fires_its_burst_and_undo_gives_the_rounds_back() -> None:
    history, ids = fight(**{"Uzi III": UZI})
    history.do(shot(ids, "Uzi III", "BF", 3))
    assert rounds_left(history, ids, "Uzi III") == 21
    history.do(shot(ids, "Uzi III", "SA", 1))
    assert rounds_left(history, ids, "Uzi III") == 20
    history.undo()
    history.undo()
    assert rounds_left(history, ids, "Uzi III") == 24


def test_full_auto_fires_every_round_announced() -> None:
    ak = {"damage": "8M", "modes": "SA/BF/FA", "recoil_compensation": 4, "magazine": 38, "rounds": 38}
    history, ids = fight(**{"AK-97": ak})
    for rounds in (3, 3, 4):  # Wedge's three volleys: one complex action
        history.do(shot(ids, "AK-97", "FA", rounds))
    assert rounds_left(history, ids, "AK-97") == 38 - 10


def test_an_empty_weapon_is_refused_and_nothing_changes() -> None:
    history, ids = fight(**{"Uzi III": {**UZI, "magazine": 4, "rounds": 4}})
    history.do(shot(ids, "Uzi III", "BF", 3))
    entries = len(history.entries)
    with pytest.raises(OperationError) as refused:
        history.do(shot(ids, "Uzi III", "BF", 3))
    assert str(refused.value) == "Uzi III has 1 round left, not enough for 3: reload first."
    assert len(history.entries) == entries and used(history, ids["Mike"])["simple"] == 1
    history.do(shot(ids, "Uzi III", "SA", 1))  # the last round
    assert rounds_left(history, ids, "Uzi III") == 0


def test_a_weapon_typed_in_the_form_or_without_a_magazine_counts_nothing() -> None:
    history, ids = fight(**{"Uzi III": UZI, "Bow": {"damage": "6M", "kind": "projectile", "weapon_class": "bow"}})
    history.do(shot(ids, "", "SA", 1))
    history.do(shot(ids, "Bow", "SS", 1))
    assert rounds_left(history, ids, "Uzi III") == 24
    assert history.state.combatant(ids["Mike"]).weapon("Bow") == weapon("Bow", damage="6M", kind="projectile",
                                                                         weapon_class="bow")


def test_an_old_attack_is_saved_as_before_and_a_new_one_names_its_weapon() -> None:
    _history, ids = fight(**{"Uzi III": UZI})
    typed, saved = to_data(shot(ids, "", "SA", 1)), to_data(shot(ids, "Uzi III", "SA", 1))
    assert "saved_weapon" not in typed  # files written before the field stay byte for byte what they were
    assert saved["saved_weapon"] == "Uzi III"
    assert json.loads(json.dumps(saved)) == {**typed, "saved_weapon": "Uzi III", "weapon": "Uzi III"}


# --- the last attack ------------------------------------------------------------------------------


def test_the_attack_tells_who_attacked_whom_with_what() -> None:
    history, ids = fight(**{"Uzi III": UZI, "Predator": {"damage": "9M", "modes": "SA", "magazine": 15,
                                                         "rounds": 15}})
    history.do(shot(ids, "Uzi III", "BF", 3))
    history.do(Sr3Attack(ids["Mike"], ids["Ganger 2"], "Predator", 9, "M", 4, ((1,),), 6, (), mode="SA",
                         saved_weapon="Predator"))
    record = last_attack(history.entries, ids["Mike"])
    assert record is not None and (record.target_id, record.weapon) == (ids["Ganger 2"], "Predator")
    assert last_attack(history.entries, ids["Dave"]) is None


# --- reloading --------------------------------------------------------------------------------------


def _fired_empty(history: History, ids: Mapping[str, str], name: str, rounds: int) -> None:
    """Mike empties ``name`` at nobody's cost: the shots take no action (the GM's call)."""
    history.do(Sr3Attack(ids["Mike"], ids["Ganger 1"], name, 6, "M", 4, ((1,),), 6, (), mode=None, rounds=rounds,
                         saved_weapon=name))


def test_a_detachable_clip_takes_two_simple_actions() -> None:
    history, ids = fight(**{"Uzi III": UZI})
    _fired_empty(history, ids, "Uzi III", 24)
    history.do(Reload(ids["Mike"], "Uzi III"))
    assert rounds_left(history, ids, "Uzi III") == 24
    assert used(history, ids["Mike"]) == {"free": 0, "simple": 2, "complex": 0}  # clip out, clip in


def test_a_reload_without_the_actions_left_is_refused_with_the_rule() -> None:
    history, ids = fight(**{"Uzi III": UZI})
    history.do(shot(ids, "Uzi III", "BF", 3))  # one simple action gone
    with pytest.raises(OperationError) as refused:
        history.do(Reload(ids["Mike"], "Uzi III"))
    assert str(refused.value) == ("Mike has no simple action left in this phase. Reloading a detachable clip takes "
                                  "two simple actions: the old clip out, the new one in.")
    assert rounds_left(history, ids, "Uzi III") == 21 and used(history, ids["Mike"])["simple"] == 1


def test_a_smartlink_ejects_the_clip_with_a_free_action() -> None:
    history, ids = fight(**{"Ingram Smartgun": {"damage": "7M", "modes": "BF/FA", "smart": "smartlink",
                                                "magazine": 32, "rounds": 10}})
    history.do(Reload(ids["Mike"], "Ingram Smartgun"))
    assert used(history, ids["Mike"]) == {"free": 1, "simple": 1, "complex": 0}
    history.do(shot(ids, "Ingram Smartgun", "BF", 3))  # the second simple action is still there
    assert rounds_left(history, ids, "Ingram Smartgun") == 29


def test_a_weapon_without_a_detachable_clip_loads_with_a_complex_action() -> None:
    history, ids = fight(**{"Remington 990": {"damage": "9S", "weapon_class": "shotgun", "modes": "SA",
                                              "loading": "internal", "magazine": 8, "rounds": 0}})
    history.do(Reload(ids["Mike"], "Remington 990"))
    assert used(history, ids["Mike"]) == {"free": 0, "simple": 0, "complex": 1}
    assert rounds_left(history, ids, "Remington 990") == 8


def test_a_reload_out_of_ones_phase_is_refused_and_before_initiative_it_is_free() -> None:
    history, ids = fight(**{"Uzi III": {**UZI, "rounds": 0}})
    history.do(NextTurn())  # Ganger 1's phase now
    with pytest.raises(OperationError, match="Mike can take simple and complex actions only in their own phase"):
        history.do(Reload(ids["Mike"], "Uzi III"))
    fresh, fresh_ids = eight_characters()  # no initiative rolled: no phase is under way
    fresh.do(SetWeapons(fresh_ids["Mike"], (weapon(**{**UZI, "rounds": 0}),)))
    fresh.do(Reload(fresh_ids["Mike"], "Uzi III"))
    assert rounds_left(fresh, fresh_ids, "Uzi III") == 24 and used(fresh, fresh_ids["Mike"])["simple"] == 0
