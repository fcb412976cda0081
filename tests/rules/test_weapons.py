"""Weapons as data: checked against a game's fields, rounds counted down and reloaded, the last attack found."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import cast

import pytest

from rules.combatants import AddCombatant
from rules.encounter import Combatant, Encounter, Weapon, frozen_map, with_item
from rules.errors import OperationError, RulesError
from rules.history import Applied, AttackRecord, Batch, Entry, Operation, new_history
from rules.serialize import history_from_document, history_to_document
from rules.systems import get_system
from rules.systems.base import OptionKind, OptionSpec, RuleSystem
from rules.systems.sr3.system import Sr3System as Sr3
from rules.weapons import (
    MAGAZINE,
    ROUNDS,
    Reload,
    SetWeapons,
    ammunition_text,
    checked_weapon,
    checked_weapons,
    fire,
    fully_loaded,
    last_attack,
    preferred_weapon,
    text_field,
    weapon_from_data,
    weapon_to_reload,
)

FIELDS: tuple[OptionSpec, ...] = (
    text_field("damage", "Damage", "1d6"),
    OptionSpec("bonus", "Bonus", OptionKind.INT, 0, minimum=-5, maximum=5),
    OptionSpec(MAGAZINE, "Magazine", OptionKind.INT, 0, minimum=0, maximum=100),
    OptionSpec(ROUNDS, "Rounds", OptionKind.INT, 0, minimum=0, maximum=100),
)


class ArmedSystem(Sr3):
    """SR3 whose weapons have a damage text, a bonus and a magazine, and a reload costs a "simple" action (passed
    to the operations directly: never registered)."""

    def weapon_fields(self) -> Sequence[OptionSpec]:
        return FIELDS

    def check_weapon(self, weapon: Weapon) -> Weapon:
        damage = str(weapon.value("damage"))
        if not damage.endswith(("d6", "d10")):
            raise RulesError(f"{weapon.name}: {damage} is not dice")
        return weapon

    def describe_weapon(self, weapon: Weapon) -> str:
        return weapon.name

    def reload_action(self, combatant: Combatant, weapon: Weapon, encounter: Encounter) -> str | None:
        return "simple"

    def spend_action(self, combatant: Combatant, kind: str, encounter: Encounter) -> Combatant:
        used = combatant.actions_used.get(kind, 0)
        if used >= 2:
            raise OperationError("no simple action left")
        return replace(combatant, actions_used=with_item(combatant.actions_used, kind, used + 1))


PISTOL = Weapon("Pistol", frozen_map({"damage": "2d6", "bonus": 1, MAGAZINE: 10, ROUNDS: 10}))
KNIFE = Weapon("Knife", frozen_map({"damage": "1d6"}))


def _armed(*weapons: Weapon) -> Encounter:
    state = new_history("sr3", "Armed").state
    return state.with_combatant(Combatant("c1", "Ganger", weapons=weapons))


# --- checking -----------------------------------------------------------------------------------

def test_a_checked_weapon_gets_every_fields_default_and_keeps_its_values() -> None:
    weapon = checked_weapon(Weapon(" Knife ", frozen_map({"bonus": 2})), FIELDS)
    assert weapon.name == "Knife"
    assert dict(weapon.values) == {"damage": "1d6", "bonus": 2, MAGAZINE: 0, ROUNDS: 0}


@pytest.mark.parametrize(("weapon", "message"), [
    (Weapon("", frozen_map()), "needs a name"),
    (Weapon("x" * 81, frozen_map()), "too long"),
    (Weapon("Gun", frozen_map({"calibre": 9})), "no field “calibre”"),
    (Weapon("Gun", frozen_map({"bonus": 9})), "“Bonus” cannot be 9 \\(from -5 to 5\\)"),
    (Weapon("Gun", frozen_map({"bonus": "two"})), "“Bonus” cannot be"),
    (Weapon("Gun", frozen_map({"damage": 3})), "“Damage” must be text"),
    (Weapon("Gun", frozen_map({MAGAZINE: 6, ROUNDS: 7})), "7 rounds loaded, but the magazine holds 6"),
])
def test_a_weapon_the_fields_cannot_hold_is_refused_with_its_name_and_field(weapon: Weapon, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        checked_weapon(weapon, FIELDS)


def test_the_game_checks_what_the_values_mean_and_names_must_differ() -> None:
    system = ArmedSystem()
    with pytest.raises(RulesError, match="3 is not dice"):
        checked_weapons([Weapon("Club", frozen_map({"damage": "3"}))], system)
    with pytest.raises(RulesError, match="Two weapons are called “knife”"):
        checked_weapons([KNIFE, Weapon("knife", frozen_map())], system)
    assert checked_weapons([PISTOL, KNIFE], system)[0] == PISTOL


def test_weapons_read_from_json_keep_plain_values_and_refuse_nested_ones() -> None:
    assert weapon_from_data({"name": "Pistol", "bonus": 1}) == Weapon("Pistol", frozen_map({"bonus": 1}))
    for bad in ({"bonus": 1}, {"name": "X", "bonus": [1]}, ["Pistol"]):
        with pytest.raises(RulesError):
            weapon_from_data(bad)


def test_adding_a_combatant_checks_its_weapons_with_the_game() -> None:
    state = new_history("sr3", "Armed").state
    added = AddCombatant("c1", "Ganger", weapons=(PISTOL,)).apply(state, ArmedSystem()).encounter
    assert added.combatant("c1").weapons == (PISTOL,)
    with pytest.raises(OperationError, match="no field “calibre”"):
        AddCombatant("c1", "Ganger", weapons=(Weapon("Gun", frozen_map({"calibre": 9})),)).apply(
            state, ArmedSystem())


# --- ammunition ---------------------------------------------------------------------------------

def test_firing_counts_the_rounds_down_and_refuses_more_than_are_loaded() -> None:
    state = fire(_armed(PISTOL, KNIFE), "c1", "Pistol", 3)
    assert state.combatant("c1").weapon("Pistol") == PISTOL.with_value(ROUNDS, 7)
    assert ammunition_text(state.combatant("c1").weapons[0]) == "7/10 rounds"
    with pytest.raises(OperationError, match="Pistol has 7 rounds left, not enough for 8: reload first"):
        fire(state, "c1", "Pistol", 8)


def test_weapons_without_a_magazine_and_attacks_typed_by_hand_fire_nothing() -> None:
    state = _armed(PISTOL, KNIFE)
    assert fire(state, "c1", "Knife", 5) is state
    assert fire(state, "c1", "", 5) is state
    assert fire(state, "c1", "Rocket", 5) is state
    assert ammunition_text(KNIFE) == ""


def test_reload_fills_the_magazine_and_spends_the_games_action() -> None:
    state = fire(_armed(PISTOL), "c1", "Pistol", 10)
    reloaded = Reload("c1", "Pistol").apply(state, ArmedSystem())
    ganger = reloaded.encounter.combatant("c1")
    assert ganger.weapon("Pistol") == PISTOL and ganger.actions_used["simple"] == 1
    assert reloaded.log[0].render() == "Ganger reloads the Pistol."


@pytest.mark.parametrize(("weapon", "message"), [
    ("Knife", "Knife has no magazine to reload"),
    ("Pistol", "Pistol is already fully loaded"),
    ("Rocket", "Ganger carries no weapon called “Rocket”"),
])
def test_a_reload_that_means_nothing_is_refused(weapon: str, message: str) -> None:
    with pytest.raises(OperationError, match=message):
        Reload("c1", weapon).apply(_armed(PISTOL, KNIFE), ArmedSystem())


def test_a_reload_without_the_action_it_costs_is_refused_by_the_game() -> None:
    state = fire(_armed(PISTOL), "c1", "Pistol", 1)
    state = state.with_combatant(replace(state.combatant("c1"), actions_used=frozen_map({"simple": 2})))
    with pytest.raises(OperationError, match="no simple action left"):
        Reload("c1", "Pistol").apply(state, ArmedSystem())


def test_what_a_reload_fills_and_what_a_fresh_copy_carries() -> None:
    rifle = Weapon("Rifle", frozen_map({MAGAZINE: 30, ROUNDS: 2}))
    empty_pistol = PISTOL.with_value(ROUNDS, 0)
    ganger = Combatant("c1", "Ganger", weapons=(empty_pistol, KNIFE, rifle))
    assert weapon_to_reload(ganger, None) == empty_pistol
    assert weapon_to_reload(ganger, AttackRecord("c1", "c2", "Rifle")) == rifle
    assert weapon_to_reload(Combatant("c1", "Ganger", weapons=(PISTOL, KNIFE)), None) is None
    assert fully_loaded(ganger.weapons) == (PISTOL, KNIFE, rifle.with_value(ROUNDS, 30))


def test_set_weapons_replaces_what_a_combatant_carries_after_the_game_checks_it() -> None:
    applied = SetWeapons("c1", (KNIFE,)).apply(_armed(PISTOL), ArmedSystem())
    assert applied.encounter.combatant("c1").weapons == (checked_weapon(KNIFE, FIELDS),)  # with the defaults
    with pytest.raises(OperationError, match="is not dice"):
        SetWeapons("c1", (Weapon("Club", frozen_map({"damage": "heavy"})),)).apply(_armed(), ArmedSystem())


# --- the last attack ----------------------------------------------------------------------------

@dataclass(frozen=True)
class _Attack(Operation):
    """An attack that only says who attacked whom (kind "": never registered)."""

    attacker: str
    target: str
    weapon: str = ""

    def apply(self, encounter: Encounter, system: RuleSystem) -> Applied:
        return Applied(encounter)

    def attack_record(self) -> AttackRecord | None:
        return AttackRecord(self.attacker, self.target, self.weapon)


@dataclass(frozen=True)
class _Entry:
    operation: Operation


def _entries(*operations: Operation) -> Sequence[Entry]:
    return cast("Sequence[Entry]", [_Entry(operation) for operation in operations])


def test_the_last_attack_is_the_attackers_latest_even_inside_a_batch() -> None:
    entries = _entries(_Attack("c1", "c2", "Pistol"), _Attack("c3", "c1", "Claws"),
                       Batch((_Attack("c1", "c4", "Knife"), _Attack("c3", "c2"))), AddCombatant("c9", "Late"))
    assert last_attack(entries, "c1") == AttackRecord("c1", "c4", "Knife")
    assert last_attack(entries, "c3") == AttackRecord("c3", "c2", "")
    assert last_attack(entries, "c2") is None


def test_the_last_attack_is_looked_for_among_recent_entries_only() -> None:
    entries = _entries(_Attack("c1", "c2", "Pistol"), *(AddCombatant(f"c{n}", "Extra") for n in range(10, 20)))
    assert last_attack(entries, "c1", limit=5) is None
    assert last_attack(entries, "c1", limit=20) == AttackRecord("c1", "c2", "Pistol")


def test_the_preferred_weapon_is_the_one_used_last_else_the_first() -> None:
    ganger = Combatant("c1", "Ganger", weapons=(PISTOL, KNIFE))
    assert preferred_weapon(ganger, AttackRecord("c1", "c2", "Knife")) == KNIFE
    assert preferred_weapon(ganger, AttackRecord("c1", "c2", "Sold rifle")) == PISTOL
    assert preferred_weapon(ganger, None) == PISTOL
    assert preferred_weapon(Combatant("c1", "Unarmed"), None) is None


# --- saving -------------------------------------------------------------------------------------

def test_weapons_are_saved_with_the_fight_and_a_fight_without_them_is_saved_as_before() -> None:
    history = new_history("sr3", "Armed")
    history.do(AddCombatant("c1", "Unarmed"))
    plain = json.dumps(history_to_document(history))
    assert "weapons" not in plain
    sr3 = get_system("sr3")
    stick = Weapon("Stick", frozen_map({"kind": "melee", "damage": "(STR+1)M"}))
    weapon = next(iter(checked_weapons([stick], sr3)), None)
    assert weapon is not None
    history.do(SetWeapons("c1", (weapon,)))
    restored = history_from_document(json.loads(json.dumps(history_to_document(history))))
    assert restored.state.combatant("c1").weapons == (weapon,)


def test_the_prep_sheet_lists_each_weapon_with_its_magazine() -> None:
    from rules.report import prep_rows

    rows = prep_rows(_armed(PISTOL, KNIFE), ArmedSystem())
    assert rows[0].weapons == ("Pistol · magazine 10", "Knife")
