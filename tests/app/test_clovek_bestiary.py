"""Člověk's bundled bestiary: drawn from the game's text, in the game's attribute keys and weapon fields; every
template joins a fight and attacks with its first weapon through the rules."""

from __future__ import annotations

from app.library import EntryKind, parse_library_file, to_operations
from app.paths import resource
from rules.encounter import Encounter, Weapon
from rules.history import Batch, History
from rules.systems.clovek import SYSTEM, ClovekCheck, PowerRoll, SkillRoll
from rules.systems.clovek.banks import CAPACITY, track_key
from rules.systems.clovek.dice import SkillKind
from rules.systems.clovek.rolls import PowerSource
from rules.systems.clovek.weapons import BANK, BONUS, DICE, HARM, KIND, POWER_BONUS, SKILL, SKILL_KIND, VALUE

ENTRIES = parse_library_file(resource("bestiary", "clovek.json"))


def test_at_least_twelve_templates_with_weapons_in_the_games_terms() -> None:
    assert len(ENTRIES) >= 12
    specs = {spec.key: spec for spec in SYSTEM.attribute_specs()}
    for entry in ENTRIES:
        assert entry.system_id == "clovek" and entry.kind is EntryKind.NPC, entry.name
        assert set(entry.attributes) == set(specs), entry.name
        for key, value in entry.attributes.items():
            assert specs[key].minimum <= value <= 6, (entry.name, key)  # people and beasts, no demigods
        assert entry.weapons and entry.notes and "Člověk, Mechanics" in entry.notes and entry.tags, entry.name
    named = {weapon.name for entry in ENTRIES for weapon in entry.weapons}
    assert {"Heavy pistol", "Rapier", "Halberd", "Heraldic shield"} <= named
    pistols = [w for entry in ENTRIES for w in entry.weapons if w.name == "Heavy pistol"]
    assert {(w.value(KIND), w.number(VALUE)) for w in pistols} == {("equipment", 3)}  # the seed's power value 3


def _attack(attacker_id: str, target_id: str, weapon: Weapon, encounter: Encounter) -> ClovekCheck:
    """The weapon's roll as the dialog fills it, every die a 9 (a success for skill 1 and up)."""
    dice = weapon.number(DICE) or 1
    bank = str(weapon.value(BANK))
    test = SkillRoll(bank, ((9,),) * dice, weapon.number(SKILL), SkillKind(str(weapon.value(SKILL_KIND))),
                     bonus=weapon.number(BONUS))
    net = test.result().successes
    source = PowerSource(str(weapon.value(KIND)))
    value = (weapon.number(VALUE) if source is PowerSource.EQUIPMENT
             else encounter.combatant(attacker_id).attribute(CAPACITY[bank]))
    power = PowerRoll(source, value, ((9,),) * net, weapon.number(POWER_BONUS), name=weapon.name)
    return ClovekCheck(attacker_id, test, "reaction", power, target_id,
                       track=track_key(bank, str(weapon.value(HARM))), weapon=weapon.name)


def test_every_template_joins_a_fight_and_attacks_with_its_first_weapon() -> None:
    history = History(Encounter("clovek", "Bestiary"))
    for entry in ENTRIES:
        history.do(Batch(tuple(to_operations(entry, 2, history.state, SYSTEM)), entry.name))
    fighters = list(history.state.combatants.values())
    assert len(fighters) == 2 * len(ENTRIES)
    for attacker, target in zip(fighters[::2], fighters[1::2], strict=True):
        weapon = attacker.weapons[0]
        done = history.do(_attack(attacker.id, target.id, weapon, history.state))
        marked = sum(history.state.combatant(target.id).damage.values())
        assert marked > 0 or "no lasting effect" in done.text(), (attacker.name, done.text())
