"""The Institute bestiary shipped in resources/: the opponents the rules describe, armed from the weapon table."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.library import EntryKind, Library, LibraryEntry, parse_library_file, to_operations
from app.paths import resource
from rules.combatants import AddCombatant
from rules.encounter import Encounter, Side, Weapon, frozen_map
from rules.history import Batch, History
from rules.systems import get_system
from rules.systems.institut import BlastRoll, InstitutAttack, ThrowGrenade
from rules.systems.institut.arms import (
    BURST,
    DAMAGE,
    KIND,
    ONE_HANDED,
    SKILL,
    TIMED,
    table_values,
    usual_rounds,
    weapon_burst,
    weapon_kind,
    weapon_mode,
)
from rules.systems.institut.combat import Shot, damage_rolls, wounds_per_hit
from rules.systems.institut.tables import WeaponKind, load_tables
from rules.weapons import MAGAZINE, ROUNDS, last_attack

INSTITUT = get_system("institut")
TABLES = load_tables()
BESTIARY = resource("bestiary", "institut.json")


def entries() -> list[LibraryEntry]:
    return parse_library_file(BESTIARY)


def test_the_bestiary_loads_with_at_least_twelve_armed_entries_in_the_games_own_terms() -> None:
    loaded = entries()
    assert len(loaded) >= 12
    specs = {spec.key: spec for spec in INSTITUT.attribute_specs()}
    names = [entry.name for entry in loaded]
    assert len(set(names)) == len(names)
    for entry in loaded:
        assert (entry.system_id, entry.kind) == ("institut", EntryKind.NPC), entry.name
        assert entry.weapons and entry.notes and entry.tags, entry.name
        assert set(entry.attributes) <= set(specs), entry.name
        for key, value in entry.attributes.items():
            assert specs[key].minimum <= value <= specs[key].maximum, (entry.name, key)
    assert {entry.side for entry in loaded} == {Side.OPPONENT, Side.ALLY}


def test_weapons_named_after_the_weapon_table_have_its_numbers_and_come_loaded() -> None:
    from_table = 0
    for entry in entries():
        for weapon in entry.weapons:
            if weapon.number(MAGAZINE):
                assert weapon.number(ROUNDS) == weapon.number(MAGAZINE), (entry.name, weapon.name)
            listed = TABLES.weapons.get(weapon.name)
            if listed is None:
                continue
            from_table += 1
            expected = table_values(listed)
            for key in (KIND, DAMAGE, BURST, ONE_HANDED, TIMED, MAGAZINE):
                assert weapon.value(key) == expected[key], (entry.name, weapon.name, key)
            assert weapon.value(SKILL) in ("", expected[SKILL]) or weapon_kind(weapon) is WeaponKind.MELEE
    assert from_table >= 20


def test_the_bestiary_uses_the_rules_weapons_of_every_kind() -> None:
    kinds = {weapon_kind(weapon) for entry in entries() for weapon in entry.weapons}
    assert kinds == set(WeaponKind)


def _fight_with(entry: LibraryEntry) -> tuple[History, list[str], str]:
    """A fight with two of ``entry`` and a target of the other side; the ids of the two and of the target."""
    history = History(Encounter("institut", "Bestiary"))
    target_side = Side.PLAYER if entry.side is Side.OPPONENT else Side.OPPONENT
    history.do(AddCombatant("t1", "Target", target_side, frozen_map({"dodge": 2})))
    added = to_operations(entry, 2, history.state, INSTITUT)
    history.do(Batch(tuple(added), entry.name))
    return history, [operation.combatant_id for operation in added], "t1"


def _attack(attacker: str, target: str, weapon: Weapon) -> InstitutAttack | ThrowGrenade:
    """One attack with ``weapon`` in its usual firing, every die a 6: it hits and wounds."""
    kind = weapon_kind(weapon)
    if kind is WeaponKind.GRENADE:
        blast = () if weapon.value(TIMED) is True else ((target, (6,) * weapon.number(DAMAGE)),)
        return ThrowGrenade(attacker, weapon.name, 5, (6, 6), weapon.value(TIMED) is True,
                            tuple(BlastRoll(who, faces) for who, faces in blast), saved_weapon=weapon.name)
    shot = Shot(kind=kind, mode=weapon_mode(weapon), burst=weapon_burst(weapon))
    rolls = ((6,) * max(1, weapon.number(DAMAGE) + 3),) * damage_rolls(shot)
    return InstitutAttack(attacker, target, weapon.name, (6, 6, 6), defence_faces=(1, 1), damage_rolls=rolls,
                          wounds_per_hit=wounds_per_hit(shot, TABLES.modifiers),
                          rounds=usual_rounds(weapon, TABLES.modifiers), saved_weapon=weapon.name)


@pytest.mark.parametrize("name", [entry.name for entry in entries()])
def test_every_entry_joins_a_fight_and_attacks_with_its_first_weapon(name: str) -> None:
    entry = next(entry for entry in entries() if entry.name == name)
    history, ids, target = _fight_with(entry)
    first = history.state.combatant(ids[0])
    assert first.weapons == entry.weapons and first.name == f"{name} 1"
    weapon = first.weapons[0]
    history.do(_attack(first.id, target, weapon))
    assert last_attack(history.entries, first.id) is not None
    after = history.state.combatant(first.id).weapon(weapon.name)
    assert after is not None
    assert after.number(ROUNDS) == weapon.number(ROUNDS) - (usual_rounds(weapon, TABLES.modifiers)
                                                             if weapon.number(MAGAZINE) else 0)
    if weapon_kind(weapon) is not WeaponKind.GRENADE or weapon.value(TIMED) is not True:
        assert any(history.state.combatant(target).damage.values()), history.entries[-1].text()
    assert history.state.combatant(ids[1]).weapons == entry.weapons  # the other one's magazines are untouched


def test_a_new_library_holds_the_institute_bestiary(tmp_path: Path) -> None:
    with Library(tmp_path / "library.sqlite3") as library:
        seeded = library.search(system_id="institut", kind="npc")
        assert sorted(e.name for e in seeded) == sorted(e.name for e in entries())
        assert {e.name: e.weapons for e in seeded} == {e.name: e.weapons for e in entries()}
        assert [e.name for e in library.search("machine gun", system_id="institut")] == ["Machine gunner"]
