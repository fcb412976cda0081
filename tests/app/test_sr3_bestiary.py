"""The bundled SR3 bestiary: every template loads, joins a fight with its weapons and attacks with the first one."""

from __future__ import annotations

import pytest

from app.library import LibraryEntry, parse_library_file, to_operations
from app.paths import resource
from rules.dice import Roller, parse
from rules.encounter import Encounter, Side, Weapon
from rules.history import Batch, History
from rules.systems.sr3 import SYSTEM as SR3
from rules.systems.sr3 import Sr3Attack
from rules.systems.sr3.damage import CalledShotEffect
from rules.systems.sr3.ranged import RangedAttack
from rules.systems.sr3.shot import Defence, ShotInputs, work_out
from rules.systems.sr3.system import tables
from rules.systems.sr3.tables import FiringMode, RangeCategory
from rules.systems.sr3.weapons import SKILL, ammunition, firing_modes, weapon_class, weapon_kind
from rules.weapons import uses_rounds

ENTRIES = parse_library_file(resource("bestiary", "sr3.json"))


def test_the_bestiary_holds_a_dozen_armed_templates_in_the_games_own_terms() -> None:
    specs = {spec.key: spec for spec in SR3.attribute_specs()}
    assert len(ENTRIES) >= 12 and len({entry.name for entry in ENTRIES}) == len(ENTRIES)
    for entry in ENTRIES:
        assert entry.system_id == "sr3" and entry.side is Side.OPPONENT and entry.notes and entry.tags, entry.name
        assert set(entry.attributes) == set(specs), entry.name
        assert all(specs[key].minimum <= value <= specs[key].maximum for key, value in entry.attributes.items())
        assert entry.attributes["reaction"] >= entry.attributes["reaction_natural"], entry.name
        assert entry.weapons and all(weapon.number(SKILL) > 0 for weapon in entry.weapons), entry.name
        assert all(weapon.number("rounds") == weapon.number("magazine") for weapon in entry.weapons), entry.name
        assert "Weapons:" not in entry.notes, entry.name  # the weapons are data now, not free text


def test_the_seeds_weapons_are_there() -> None:
    by_name = {entry.name: entry for entry in ENTRIES}
    predator = by_name["Ganger"].weapons[0]
    assert (predator.name, predator.value("damage"), predator.value("modes")) == ("Ares Predator", "9M", "SA")
    browning = by_name["Mercenary"].weapons[0]
    assert browning.name == "Browning Max-Power"  # T-Rex's quick-drawn pistol
    assert [weapon.value("kind") for weapon in by_name["Halloweener punk"].weapons] == ["melee", "melee"]
    assert by_name["Mitsuhama security guard"].attributes["reaction"] == 3  # the surprise example's guards


def _fight_with(entry: LibraryEntry) -> tuple[History, str, str]:
    """A runner and the template in one fight (added as the Add dialog adds it); the runner is the target."""
    history = History(Encounter("sr3", "Bestiary"))
    runner = LibraryEntry(kind=entry.kind, system_id="sr3", name="Runner", side=Side.PLAYER,
                          attributes={"body": 5, "ballistic": 5, "impact": 3})
    history.do(Batch(tuple(to_operations(runner, 1, history.state, SR3)), "Runner"))
    history.do(Batch(tuple(to_operations(entry, 2, history.state, SR3)), entry.name))
    target = next(c.id for c in history.state.combatants.values() if c.name == "Runner")
    attacker = next(c.id for c in history.state.combatants.values() if c.name == f"{entry.name} 1")
    return history, attacker, target


def _attack(history: History, attacker_id: str, target_id: str, weapon: Weapon) -> Sr3Attack:
    """The rules' sheet for the weapon's first mode at short range, its dice rolled, as one attack."""
    attacker, target = history.state.combatant(attacker_id), history.state.combatant(target_id)
    mode = (firing_modes(weapon) or (FiringMode.SS,))[0]
    data = tables(history.state)
    rounds = data.firing_modes[mode].min_rounds
    inputs = ShotInputs(
        code_text=str(weapon.value("damage")), strength=attacker.attribute("strength"), kind=weapon_kind(weapon),
        ammo=ammunition(weapon),
        attack=RangedAttack(range_category=RangeCategory.SHORT, weapon_class=weapon_class(weapon), mode=mode,
                            rounds=rounds),
        defence=Defence(target.attribute("ballistic"), target.attribute("impact")),
        called_effect=CalledShotEffect.EXTRA_LEVEL, spot_armor=0, attack_dice=weapon.number(SKILL), dodge_dice=0,
        resist_dice=target.attribute("body"))
    sheet = work_out(inputs, data)
    roller = Roller.seeded(7)
    attack = parse(f"{weapon.number(SKILL)}d6 tn {sheet.attack_tn.value}", SR3.dice_words()).roll(roller)
    resist = parse(f"{target.attribute('body')}d6 tn {sheet.resist_tn}", SR3.dice_words()).roll(roller)
    return Sr3Attack(attacker_id, target_id, weapon.name, sheet.power, sheet.level, sheet.attack_tn.value,
                     attack.faces, sheet.resist_tn, resist.faces, track=sheet.track, ammo=inputs.ammo.value,
                     rounds=rounds, saved_weapon=weapon.name)


@pytest.mark.parametrize("entry", ENTRIES, ids=[entry.name for entry in ENTRIES])
def test_every_template_joins_a_fight_and_attacks_with_its_first_weapon(entry: LibraryEntry) -> None:
    history, attacker_id, target_id = _fight_with(entry)
    carried = history.state.combatant(attacker_id).weapons
    assert carried == entry.weapons  # checked by the game on the way in, every magazine full
    first = carried[0]
    entry_done = history.do(_attack(history, attacker_id, target_id, first))
    assert f"attacks Runner with {first.name} (" in entry_done.text()
    after = history.state.combatant(attacker_id).weapon(first.name)
    assert after is not None
    mode = (firing_modes(first) or (FiringMode.SS,))[0]
    burst = tables(history.state).firing_modes[mode].min_rounds if uses_rounds(first) else 0
    assert first.number("rounds") - after.number("rounds") == burst  # a burst fires its burst


def test_all_templates_fit_in_one_fight() -> None:
    history = History(Encounter("sr3", "Everyone"))
    for entry in ENTRIES:
        history.do(Batch(tuple(to_operations(entry, 1, history.state, SR3)), entry.name))
    assert len(history.state.combatants) == len(ENTRIES)
    assert sum(len(c.weapons) for c in history.state.combatants.values()) == sum(len(e.weapons) for e in ENTRIES)
