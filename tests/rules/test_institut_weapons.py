"""Institute weapons as data: their fields and checks, the picker's line, ammunition, reloading, the last attack."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping

import pytest

from rules.combatants import AddCombatant, ApplyHarm
from rules.encounter import Encounter, JsonValue, Side, Weapon, frozen_map
from rules.errors import OperationError, RulesError
from rules.history import AttackRecord, History
from rules.serialize import history_from_document, history_to_document, to_data
from rules.systems.institut import InstitutAttack, SuppressionFire, ThrowGrenade, rounds
from rules.systems.institut.arms import (
    FIELDS,
    check_weapon,
    describe_weapon,
    ready_made,
    ready_made_weapons,
    usual_rounds,
    weapon_skill,
)
from rules.systems.institut.combat import FireMode
from rules.systems.institut.tables import load_tables
from rules.turns import NextTurn
from rules.weapons import MAGAZINE, ROUNDS, Reload, checked_weapons, last_attack
from tests.rules.test_institut_scenes import CAST, INSTITUT, roll

MODS = load_tables().modifiers


def weapon(name: str, **values: JsonValue) -> Weapon:
    return Weapon(name, frozen_map(values))


def armed(weapons: Mapping[str, tuple[Weapon, ...]]) -> tuple[History, dict[str, str]]:
    """Sokolov, Vera and Bandit 1 of the scenes' cast, carrying ``weapons`` (by name)."""
    history = History(Encounter("institut", "Weapons"))
    ids = {}
    for number, name in enumerate(("Sokolov", "Vera", "Bandit 1"), start=1):
        side, attributes = CAST[name]
        ids[name] = f"c{number}"
        history.do(AddCombatant(ids[name], name, side, frozen_map(attributes), weapons=weapons.get(name, ())))
    return history, ids


def in_round(history: History, ids: dict[str, str]) -> None:
    """Round 1: Sokolov acts first, then Vera, then Bandit 1."""
    roll(history, {ids["Sokolov"]: (6,) * 6, ids["Vera"]: (5,) * 5, ids["Bandit 1"]: (1,) * 4})


def shot(ids: dict[str, str], saved: str, fired: int, **changes: object) -> InstitutAttack:
    """Sokolov fires at Bandit 1: 14 against a dodge of 7, 10 damage points (a Medium wound)."""
    fields: dict[str, object] = {"attacker": ids["Sokolov"], "target": ids["Bandit 1"], "weapon": saved or "AK",
                                 "attack_faces": (6, 4, 4), "defence_faces": (4, 3), "damage_rolls": ((5, 5),),
                                 "rounds": fired, "saved_weapon": saved, **changes}
    return InstitutAttack(**fields)  # type: ignore[arg-type]


def rounds_left(history: History, combatant_id: str, name: str) -> int:
    carried = history.state.combatant(combatant_id).weapon(name)
    assert carried is not None
    return carried.number(ROUNDS)


# --- fields and checks ------------------------------------------------------------------------------------


def test_the_fields_are_the_ones_the_attack_form_needs_magazine_and_rounds_included() -> None:
    assert [spec.key for spec in INSTITUT.weapon_fields()] == [
        "kind", "damage", "hit", "burst", "mode", "one_handed", "skill", "timed", "radius", "falloff",
        MAGAZINE, ROUNDS]
    assert INSTITUT.weapon_fields() is FIELDS


def test_good_values_are_kept_and_the_burst_is_written_as_the_rules_write_it() -> None:
    (rifle, knife, grenade) = checked_weapons(
        [weapon("AK-74", damage=7, burst=" 3 / 2 ", mode="auto", magazine=30, rounds=12),
         weapon("Knife", kind="melee", damage=1, one_handed=True, skill="fencing"),
         weapon("F-1", kind="grenade", damage=8, timed=True)], INSTITUT)
    assert rifle.value("burst") == "3/2" and rifle.number(ROUNDS) == 12 and rifle.value("kind") == "firearm"
    assert knife.value("skill") == "fencing" and weapon_skill(knife) == "fencing"
    assert weapon_skill(grenade) == "athletics" and weapon_skill(rifle) == "shooting"
    (stick,) = checked_weapons([weapon("Stick", kind="melee", damage=-1)], INSTITUT)  # a clumsy one: Strength −1
    assert check_weapon(stick) == stick


@pytest.mark.parametrize(("values", "message"), [
    ({"burst": "2/3"}, "AK: A burst is written as rounds fired / rounds that hit, e.g. 3/2 (not '2/3')."),
    ({"burst": "three"}, "AK: A burst is written as rounds fired / rounds that hit"),
    ({"kind": "melee", "burst": "3/2"}, "Knife: only a firearm fires bursts, full auto or two at once."),
    ({"kind": "melee", "mode": "two_guns", "one_handed": True}, "only a firearm fires bursts"),
    ({"kind": "melee", "magazine": 10, "rounds": 10}, "Knife: only a firearm has a magazine."),
    ({"damage": -2}, "AK: a firearm's or a grenade's damage is its dice, 0 or more (not -2)."),
    ({"kind": "grenade", "damage": -1}, "damage is its dice, 0 or more"),
    ({"kind": "unarmed", "damage": 2}, "Fists: bare hands do Strength dice (+ Martial arts): leave the damage at 0."),
    ({"mode": "auto"}, "AK: give its burst (rounds fired / rounds that hit, e.g. 3/2) to fire short bursts or full"),
    ({"mode": "two_guns", "damage": 5}, "AK: two guns at once only with weapons held in one hand"),
    ({"timed": True}, "AK: only a grenade has a timed fuse."),
    ({"skill": "fencing"}, "AK: Fencing is not a skill for this kind of weapon (Firearm)."),
    ({"kind": "unarmed", "skill": "melee"}, "Fists: Melee is not a skill for this kind of weapon (Unarmed)."),
    ({"kind": "laser"}, "“Kind” cannot be 'laser'."),
    ({"damage": 41}, "“Damage dice” cannot be 41 (from -40 to 40)."),
    ({"magazine": 1000}, "“Magazine” cannot be 1000 (from 0 to 999)."),
    ({"magazine": 8, "rounds": 9}, "9 rounds loaded, but the magazine holds 8."),
    ({"one_handed": "yes"}, "“One-handed” cannot be 'yes'."),
    ({"calibre": "7.62"}, "this game's weapons have no field “calibre”."),
])
def test_values_the_game_cannot_read_are_refused_naming_weapon_and_field(values: dict[str, JsonValue],
                                                                         message: str) -> None:
    name = {"melee": "Knife", "unarmed": "Fists"}.get(str(values.get("kind")), "AK")
    with pytest.raises(RulesError) as refused:
        checked_weapons([weapon(name, **values)], INSTITUT)
    assert message in str(refused.value)


def test_a_huge_wrong_value_is_quoted_short() -> None:
    """Regression: a number field holding 1,000 characters of text (a damaged roster file) was quoted whole."""
    with pytest.raises(RulesError) as refused:
        checked_weapons([weapon("AK", rounds="x" * 1000)], INSTITUT)
    assert "“Rounds loaded” cannot be 'xxx" in str(refused.value) and len(str(refused.value)) < 200


def test_a_combatant_with_a_bad_weapon_is_not_added() -> None:
    history = History(Encounter("institut", "Bad"))
    with pytest.raises(OperationError, match="only a grenade has a timed fuse"):
        history.do(AddCombatant("c1", "Sokolov", Side.PLAYER, weapons=(weapon("AK", timed=True),)))
    assert not history.state.combatants


# --- the picker's line and the ready-made weapons ------------------------------------------------------------


@pytest.mark.parametrize(("carried", "line"), [
    (weapon("AK-74", damage=7, burst="3/2", mode="auto", magazine=30, rounds=24), "AK-74 (7 dice, burst 3/2)"),
    (weapon("Makarov", damage=5, one_handed=True, magazine=8, rounds=8), "Makarov (5 dice)"),
    (weapon("Derringer", damage=1), "Derringer (1 die)"),
    (weapon("Knife", kind="melee", damage=1), "Knife (Strength +1)"),
    (weapon("Scoped AK", damage=7, hit=2, burst="3/2"), "Scoped AK (7 dice, burst 3/2, +2 dice to hit)"),
    (weapon("Old rifle", damage=6, hit=-1), "Old rifle (6 dice, -1 die to hit)"),
    (weapon("Stick", kind="melee", damage=-1), "Stick (Strength -1)"),
    (weapon("Fists", kind="unarmed"), "Fists (Strength, bare hands)"),
    (weapon("F-1", kind="grenade", damage=8, timed=True), "F-1 (grenade, 8 dice)"),
])
def test_the_picker_line_gives_the_numbers_rolled_and_never_the_rounds(carried: Weapon, line: str) -> None:
    (checked,) = checked_weapons([carried], INSTITUT)
    assert INSTITUT.describe_weapon(checked) == describe_weapon(checked) == line
    assert "24" not in line and "round" not in line


def test_every_table_entry_is_a_ready_made_weapon_with_a_full_magazine() -> None:
    made = {w.name: w for w in ready_made_weapons()}
    assert set(made) == set(load_tables().weapons)
    assert checked_weapons(made.values(), INSTITUT) == tuple(made.values())
    rifle = made["AK-74"]
    assert (rifle.number("damage"), rifle.value("burst"), rifle.number(ROUNDS)) == (7, "3/2", 30)
    assert made["Knife"].value("kind") == "melee" and made["Knife"].number(MAGAZINE) == 0
    assert made["F-1"].value("timed") is True and made["Sword"].value("skill") == "fencing"
    pair = ready_made("Makarov", "Two Makarovs", mode="two_guns", magazine=16)
    assert (pair.name, pair.number(MAGAZINE), pair.number(ROUNDS), pair.value("mode")) == ("Two Makarovs", 16, 16,
                                                                                           "two_guns")
    with pytest.raises(RulesError, match="no weapon “Railgun” in the weapon table"):
        ready_made("Railgun")
    with pytest.raises(RulesError, match="two guns at once only"):
        ready_made("AK-74", mode="two_guns")


def test_a_gm_table_entry_with_a_magazine_on_a_knife_is_refused() -> None:
    with pytest.raises(RulesError, match=re.escape("weapons.Throwing knives: only a firearm has a burst or a ")):
        load_tables({"weapons": {"Throwing knives": {"kind": "melee", "damage": 1, "magazine": 3}}})
    with pytest.raises(RulesError, match=re.escape("weapons.Flare: only a grenade has a timed fuse")):
        load_tables({"weapons": {"Flare": {"damage": 1, "timed": True}}})
    with pytest.raises(RulesError, match=re.escape("weapons.Sword.skill must be one of")):
        load_tables({"weapons": {"Sword": {"skill": "shooting"}}})


def test_the_usual_firing_says_how_many_rounds_an_attack_uses() -> None:
    rifle = ready_made("AK-74")
    assert usual_rounds(rifle, MODS) == 1
    assert usual_rounds(rifle.with_value("mode", FireMode.BURST.value), MODS) == 3  # a burst fires its burst
    assert usual_rounds(rifle.with_value("mode", FireMode.AUTO.value), MODS) == 6  # full auto: twice a burst
    assert usual_rounds(ready_made("Makarov", mode="two_guns"), MODS) == 2
    assert usual_rounds(ready_made("Knife"), MODS) == 0


# --- ammunition ---------------------------------------------------------------------------------------------


def test_an_attack_with_a_saved_weapon_counts_its_rounds_down_hit_or_miss() -> None:
    history, ids = armed({"Sokolov": (ready_made("AK-74"),)})
    in_round(history, ids)
    history.do(shot(ids, "AK-74", 3, wounds_per_hit=2))
    assert rounds_left(history, ids["Sokolov"], "AK-74") == 27
    assert history.entries[-1].text().endswith("AK-74: 27 rounds left.")
    while history.state.clock.current is not None:
        history.do(NextTurn())
    roll(history, {ids["Sokolov"]: (6,) * 6, ids["Vera"]: (5,) * 5, ids["Bandit 1"]: (1,) * 4})
    history.do(shot(ids, "AK-74", 6, attack_faces=(1, 1, 1), damage_rolls=()))  # a miss fires them too
    assert rounds_left(history, ids["Sokolov"], "AK-74") == 21
    assert "Bandit 1 dodges the attack." in history.entries[-1].text()


def test_an_attack_needing_more_rounds_than_are_loaded_is_refused_and_changes_nothing() -> None:
    history, ids = armed({"Sokolov": (ready_made("AK-74", rounds=2),)})
    in_round(history, ids)
    before = history.state
    with pytest.raises(OperationError, match=re.escape("AK-74 has 2 rounds left, not enough for 3: reload first.")):
        history.do(shot(ids, "AK-74", 3))
    assert history.state == before


def test_an_attack_typed_in_the_form_fires_nothing_from_a_saved_weapon_of_that_name() -> None:
    history, ids = armed({"Sokolov": (ready_made("AK-74"),)})
    in_round(history, ids)
    history.do(shot(ids, "", 3, weapon="AK-74"))
    assert rounds_left(history, ids["Sokolov"], "AK-74") == 30
    assert "rounds left" not in history.entries[-1].text()


def test_a_melee_weapon_has_nothing_to_count() -> None:
    history, ids = armed({"Sokolov": (ready_made("Knife"),)})
    in_round(history, ids)
    history.do(shot(ids, "Knife", 0))
    assert history.state.combatant(ids["Sokolov"]).weapon("Knife") == ready_made("Knife")


def test_suppression_fire_empties_a_burst_per_square_from_the_saved_weapon() -> None:
    history, ids = armed({"Sokolov": (ready_made("PK machine gun"),)})
    in_round(history, ids)
    with pytest.raises(OperationError, match="100 rounds left, not enough for 120"):
        history.do(SuppressionFire(ids["Sokolov"], "the yard", 12, 10, "PK", 8, saved_weapon="PK machine gun"))
    history.do(SuppressionFire(ids["Sokolov"], "the yard", 3, 10, "PK", 8, saved_weapon="PK machine gun"))
    assert rounds_left(history, ids["Sokolov"], "PK machine gun") == 70
    assert rounds.suppression(history.state.combatant(ids["Sokolov"]), history.state) is not None
    assert history.entries[-1].text().endswith("PK machine gun: 70 rounds left.")


# --- reloading ----------------------------------------------------------------------------------------------


def test_reloading_in_a_round_is_one_action_and_a_second_one_costs_a_die_on_every_roll() -> None:
    """"Сменить магазин в оружии" is one of the single actions of a turn."""
    history, ids = armed({"Sokolov": (ready_made("AK-74"),)})
    in_round(history, ids)
    history.do(shot(ids, "AK-74", 6))
    sokolov = history.state.combatant(ids["Sokolov"])
    assert INSTITUT.reload_action(sokolov, sokolov.weapons[0], history.state) == "action"
    history.do(Reload(ids["Sokolov"], "AK-74"))
    assert rounds_left(history, ids["Sokolov"], "AK-74") == 30
    actions = rounds.round_actions(history.state.combatant(ids["Sokolov"]))
    assert (actions.declared, actions.taken) == (2, 2)
    assert rounds.action_penalty(actions, MODS) == 1
    assert "Sokolov reloads the AK-74." in history.entries[-1].text()


def test_reloading_before_the_fight_costs_nothing() -> None:
    history, ids = armed({"Sokolov": (ready_made("AK-74", rounds=4),)})
    sokolov = history.state.combatant(ids["Sokolov"])
    assert INSTITUT.reload_action(sokolov, sokolov.weapons[0], history.state) is None
    history.do(Reload(ids["Sokolov"], "AK-74"))
    assert rounds_left(history, ids["Sokolov"], "AK-74") == 30
    assert not history.state.combatant(ids["Sokolov"]).actions_used


def test_the_dying_cannot_reload() -> None:
    history, ids = armed({"Sokolov": (ready_made("AK-74", rounds=4),)})
    in_round(history, ids)
    history.do(ApplyHarm(ids["Sokolov"], "mortal", 1))
    with pytest.raises(OperationError, match=re.escape("Sokolov cannot act now.")):
        history.do(Reload(ids["Sokolov"], "AK-74"))
    assert rounds_left(history, ids["Sokolov"], "AK-74") == 4


# --- the last attack ----------------------------------------------------------------------------------------


def test_attacks_say_who_attacked_whom_with_which_saved_weapon() -> None:
    history, ids = armed({"Sokolov": (ready_made("Knife"), ready_made("AK-74")), "Vera": (ready_made("F-1"),)})
    in_round(history, ids)
    assert last_attack(history.entries, ids["Sokolov"]) is None
    history.do(shot(ids, "AK-74", 1))
    assert last_attack(history.entries, ids["Sokolov"]) == AttackRecord(ids["Sokolov"], ids["Bandit 1"], "AK-74")
    history.do(NextTurn())
    history.do(ThrowGrenade(ids["Vera"], "F-1", 5, (6, 5), timed=True, saved_weapon="F-1"))
    assert last_attack(history.entries, ids["Vera"]) == AttackRecord(ids["Vera"], None, "F-1")
    fire = SuppressionFire(ids["Vera"], "the door", 1, 2, saved_weapon="Kedr")
    assert fire.attack_record() == AttackRecord(ids["Vera"], None, "Kedr")


def test_old_files_stay_byte_identical_an_attack_without_a_saved_weapon_writes_no_new_field() -> None:
    typed = InstitutAttack("c1", "c2", "AK", (6,), rounds=3)
    for operation in (typed, SuppressionFire("c1", "a", 1, 1), ThrowGrenade("c1", "F-1", 5, (6,), timed=True)):
        assert "saved_weapon" not in to_data(operation)
    assert to_data(InstitutAttack("c1", "c2", "AK", (6,), saved_weapon="AK"))["saved_weapon"] == "AK"


def test_counted_rounds_survive_saving_and_replaying() -> None:
    history, ids = armed({"Sokolov": (ready_made("AK-74"),)})
    in_round(history, ids)
    history.do(shot(ids, "AK-74", 6))
    document = json.loads(json.dumps(history_to_document(history)))
    reopened = history_from_document(document, trusted=False)
    assert rounds_left(reopened, ids["Sokolov"], "AK-74") == 24
    assert last_attack(reopened.entries, ids["Sokolov"]) == AttackRecord(ids["Sokolov"], ids["Bandit 1"], "AK-74")


# --- the weapon's own modifier to hit ----------------------------------------------------------------------
# "к проверке навыка применяются модификаторы, описанные для соответствующего стрелкового оружия" (the
# modifiers listed for that firearm apply to the skill check): per-weapon data, in dice like every modifier.


def test_a_weapons_own_dice_to_hit_come_from_the_table_and_change_the_attack_pool() -> None:
    from rules.systems.institut.combat import Shot, attack_pool

    data = load_tables({"weapons": {"Sawn-off": {"hit": 1}, "Old rifle": {"damage": 6, "hit": -2}}})
    assert (data.weapons["Sawn-off"].hit, data.weapons["Old rifle"].hit, data.weapons["AK-74"].hit) == (1, -2, 0)
    rifle = ready_made("Old rifle", data=data)
    assert rifle.number("hit") == -2
    pool = attack_pool(Shot(skill=5, weapon_hit=rifle.number("hit")), MODS)
    assert pool.dice == 3 and [(line.label, line.dice) for line in pool.lines] == [("Skill", 5), ("Weapon", -2)]
    assert attack_pool(Shot(skill=5), MODS).dice == 5  # no modifier: no line


def test_dice_to_hit_that_are_not_a_number_are_refused_naming_the_entry() -> None:
    with pytest.raises(RulesError, match=re.escape("weapons.AK-74.hit must be a whole number")):
        load_tables({"weapons": {"AK-74": {"hit": "two"}}})
    with pytest.raises(RulesError, match="Dice to hit"):
        checked_weapons([weapon("Pistol", damage=5, hit=99)], INSTITUT)


def test_a_weapon_with_no_modifier_to_hit_is_stored_as_before_the_field_existed() -> None:
    (plain, sighted) = checked_weapons([weapon("AK", damage=7), weapon("Scoped", damage=7, hit=1)], INSTITUT)
    assert "hit" not in plain.values and sighted.number("hit") == 1


def test_the_weapons_table_form_shows_a_dice_to_hit_column_for_every_weapon() -> None:
    history = History(Encounter("institut", "Weapons"))
    shown = INSTITUT.shown_table(history.state, "weapons")
    assert isinstance(shown, Mapping)
    assert all(isinstance(record, Mapping) and "hit" in record for record in shown.values())
    rifle = shown["AK-74"]
    assert isinstance(rifle, Mapping) and list(rifle)[:3] == ["kind", "damage", "hit"]


def test_the_tables_are_built_once_per_set_of_overrides_and_again_when_the_gm_edits_one() -> None:
    """Every table cell asks for the tables: they are remembered, but an edited option is never served stale."""
    from rules.combatants import SetOption
    from rules.systems.institut.system import tables

    history = History(Encounter("institut", "tables"))
    first = tables(history.state)
    assert tables(history.state) is first
    history.do(SetOption("weapons", frozen_map({"Sawn-off": frozen_map({"hit": 1})})))
    edited = tables(history.state)
    assert edited is not first and edited.weapons["Sawn-off"].hit == 1
    assert tables(history.state) is edited
    history.undo()
    assert tables(history.state).weapons["Sawn-off"].hit == first.weapons["Sawn-off"].hit
