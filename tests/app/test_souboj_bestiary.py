"""The bundled Souboj bestiary: it loads, its numbers fit the game, every entry joins a fight and attacks with its
first weapon through the rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.library import EntryKind, Library, LibraryEntry, parse_library_file, to_operations
from app.paths import HOME_VARIABLE, resource
from rules.combatants import AddCombatant
from rules.encounter import Combatant, Side, frozen_map
from rules.history import Batch, History, new_history
from rules.systems import get_system
from rules.systems.souboj import SoubojAttack
from rules.systems.souboj.combat import roll_bonus
from rules.systems.souboj.model import DEXTERITY, INTELLIGENCE, Kind
from rules.systems.souboj.system import tables
from rules.systems.souboj.weapons import SPELL_DAMAGE, weapon_kind
from rules.weapons import ROUNDS, uses_rounds

SOUBOJ = get_system("souboj")
ENTRIES = parse_library_file(resource("bestiary", "souboj.json"))


@pytest.fixture(autouse=True)
def _private_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(HOME_VARIABLE, str(tmp_path / "home"))


def test_at_least_twelve_templates_each_with_weapons_notes_and_tags() -> None:
    assert len(ENTRIES) >= 12
    assert len({entry.name for entry in ENTRIES}) == len(ENTRIES)
    for entry in ENTRIES:
        assert (entry.system_id, entry.kind, entry.side) == ("souboj", EntryKind.NPC, Side.OPPONENT), entry.name
        assert entry.weapons and entry.notes and entry.tags, entry.name


def test_the_attributes_are_the_games_own_and_in_range() -> None:
    specs = {spec.key: spec for spec in SOUBOJ.attribute_specs()}
    for entry in ENTRIES:
        assert set(entry.attributes) == set(specs), entry.name
        for key, value in entry.attributes.items():
            assert specs[key].minimum <= value <= specs[key].maximum, (entry.name, key)


def test_every_row_of_the_attack_table_is_armed_by_someone() -> None:
    kinds = {weapon_kind(weapon) for entry in ENTRIES for weapon in entry.weapons}
    assert kinds == set(Kind)


def test_a_firearms_number_is_half_dexterity_plus_half_intelligence_as_the_seed_says() -> None:
    firearms = [(entry, weapon) for entry in ENTRIES for weapon in entry.weapons if weapon_kind(weapon) is Kind.FIREARM]
    assert firearms
    for entry, weapon in firearms:
        expected = (entry.attributes[DEXTERITY] + entry.attributes[INTELLIGENCE]) // 2
        assert weapon.number("weapon_strength") == expected, entry.name
        assert uses_rounds(weapon) and weapon.number(ROUNDS) == weapon.number("magazine"), entry.name


def test_a_new_library_is_seeded_with_them(tmp_path: Path) -> None:
    with Library(tmp_path / "library.sqlite3") as library:
        seeded = library.search(system_id="souboj", kind="npc")
    assert sorted(entry.name for entry in seeded) == sorted(entry.name for entry in ENTRIES)
    by_name = {entry.name: entry for entry in seeded}
    assert all(by_name[entry.name].weapons == entry.weapons for entry in ENTRIES)


def _first_attack(attacker: Combatant, target: Combatant, history: History) -> SoubojAttack:
    """The attack the dialog would make with the attacker's first weapon, dice 6 against 1."""
    weapon = attacker.weapons[0]
    kind = weapon_kind(weapon)
    if kind is Kind.MAGIC:
        return SoubojAttack(attacker.id, target.id, kind, weapon.name, spell_damage=weapon.number(SPELL_DAMAGE))
    rule = tables(history.state).rule(kind)
    armed = {**attacker.attributes, "weapon_strength": weapon.number("weapon_strength")}
    return SoubojAttack(attacker.id, target.id, kind, weapon.name, roll_bonus(rule.attack, armed),
                        roll_bonus(rule.defence, target.attributes), 6, 1, attacker.attribute("strength"),
                        target.attribute("armor"), attacker.attribute("level"))


def _add(history: History, entry: LibraryEntry) -> list[AddCombatant]:
    operations = to_operations(entry, 2, history.state, SOUBOJ)
    history.do(Batch(tuple(operations), entry.name))
    return operations


def test_every_entry_joins_a_fight_and_attacks_with_its_first_weapon() -> None:
    history = new_history("souboj", "Bestiary")
    history.do(AddCombatant("dummy", "Training dummy", Side.PLAYER, frozen_map({"hit_points": 9999})))
    for entry in ENTRIES:
        (first, second) = _add(history, entry)
        assert [history.state.combatant(op.combatant_id).name for op in (first, second)] == [
            f"{entry.name} 1", f"{entry.name} 2"]
        attacker = history.state.combatant(first.combatant_id)
        assert attacker.weapons == entry.weapons
        history.do(_first_attack(attacker, history.state.combatant("dummy"), history))
        fired = history.state.combatant(first.combatant_id).weapons[0]
        if uses_rounds(entry.weapons[0]):
            assert fired.number(ROUNDS) == entry.weapons[0].number(ROUNDS) - 1, entry.name
        else:
            assert fired == entry.weapons[0]
    assert history.state.combatant("dummy").boxes("wounds") > 0
