"""The Walka bestiary (resources/bestiary/walka.json): read like any library file, every template carries weapons in
Walka's own fields, joins a fight and attacks with its first weapon through the rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.library import EntryKind, Library, LibraryEntry, parse_library_file, to_operations
from app.paths import HOME_VARIABLE, resource
from rules.combatants import AddCombatant
from rules.encounter import Encounter, Side, frozen_map
from rules.history import Batch, History
from rules.systems.walka import SYSTEM, WalkaAttack
from rules.systems.walka.skills import ATTACK_SKILLS
from rules.systems.walka.weapons import DICE, KIND_SKILLS, ROUNDS_PER_ATTACK, skill_of
from rules.weapons import MAGAZINE, ROUNDS

ENTRIES = parse_library_file(resource("bestiary", "walka.json"))
TARGET = AddCombatant("dummy", "Target dummy", Side.PLAYER, frozen_map({"hit_points": 999, "dodge": 1}))


@pytest.fixture(autouse=True)
def _private_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(HOME_VARIABLE, str(tmp_path / "home"))


def test_at_least_twelve_templates_each_with_weapons_and_sensible_numbers() -> None:
    assert len(ENTRIES) >= 12
    specs = {spec.key: spec for spec in SYSTEM.attribute_specs()}
    for entry in ENTRIES:
        assert (entry.kind, entry.system_id, entry.side) == (EntryKind.NPC, "walka", Side.OPPONENT), entry.name
        assert entry.weapons and entry.notes and entry.tags, entry.name
        assert set(entry.attributes) == set(specs), entry.name  # the game's own attribute keys, every one
        for key, value in entry.attributes.items():
            assert specs[key].minimum <= value <= specs[key].maximum, (entry.name, key)
        assert entry.attributes["chances"] == 0, entry.name  # Chances are the players' (walka.md, a Decision)
        assert entry.attributes["weapon_dice"] == entry.weapons[0].number(DICE), entry.name
        for weapon in entry.weapons:
            assert entry.attributes[skill_of(weapon)] > 0, (entry.name, weapon.name)  # it can use what it carries
            assert weapon.number(ROUNDS) == weapon.number(MAGAZINE), (entry.name, weapon.name)  # loaded


def test_names_are_english_and_unique() -> None:
    names = [entry.name for entry in ENTRIES]
    assert len(set(names)) == len(names)
    assert all(name.isascii() for name in names)


def test_the_templates_cover_the_opponents_and_every_kind_of_attack_the_chapter_names() -> None:
    skills = {skill_of(weapon) for entry in ENTRIES for weapon in entry.weapons}
    assert skills == set(ATTACK_SKILLS)  # Firearms, Melee weapons, Brawling, Interface
    kinds = {str(weapon.value("kind")) for entry in ENTRIES for weapon in entry.weapons}
    assert kinds == set(KIND_SKILLS)
    tags = " ".join(entry.tags for entry in ENTRIES)
    for wanted in ("gang", "guard", "soldier", "animal", "drone", "netrunner", "police"):
        assert wanted in tags


def test_a_new_library_seeds_the_walka_bestiary(tmp_path: Path) -> None:
    with Library(tmp_path / "library.sqlite3") as library:
        seeded = library.search(system_id="walka", kind="npc")
        assert sorted(e.name for e in seeded) == sorted(e.name for e in ENTRIES)
        assert [w.name for w in library.search("netrunner", system_id="walka")[0].weapons]


def _fight() -> tuple[History, dict[str, str]]:
    """Every template once, and a target dummy, in one fight."""
    history = History(Encounter("walka", "Bestiary", options=frozen_map(SYSTEM.default_options())))
    history.do(TARGET)
    ids: dict[str, str] = {}
    for entry in ENTRIES:
        (operation,) = to_operations(entry, 1, history.state, SYSTEM)
        history.do(Batch((operation,), entry.name))
        ids[entry.name] = operation.combatant_id
    return history, ids


def _first_weapon_attack(history: History, entry: LibraryEntry, attacker_id: str) -> WalkaAttack:
    weapon = entry.weapons[0]
    skill = skill_of(weapon)
    defence = SYSTEM.defences(history.state)[skill][0]
    pool = max(0, weapon.number(DICE))  # the dummy wears no armor
    return WalkaAttack(attacker_id, TARGET.combatant_id, skill, entry.attributes[skill], defence, 1, (1,), (20,),
                       weapon=weapon.name, weapon_dice=weapon.number(DICE), damage_faces=(6,) * pool,
                       counts_as_action=False)


def test_every_template_joins_a_fight_and_attacks_with_its_first_weapon() -> None:
    history, ids = _fight()
    assert len(history.state.combatants) == len(ENTRIES) + 1
    for entry in ENTRIES:
        combatant = history.state.combatant(ids[entry.name])
        assert combatant.weapons == entry.weapons and combatant.notes == entry.notes
        lost = history.state.combatant(TARGET.combatant_id).boxes("hp")
        history.do(_first_weapon_attack(history, entry, ids[entry.name]))
        assert history.state.combatant(TARGET.combatant_id).boxes("hp") == lost + entry.weapons[0].number(DICE)
        first = history.state.combatant(ids[entry.name]).weapons[0]
        if first.number(MAGAZINE):
            assert first.number(ROUNDS) == first.number(MAGAZINE) - ROUNDS_PER_ATTACK, entry.name
