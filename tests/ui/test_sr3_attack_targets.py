"""The SR3 attack dialog: shooting at a vehicle or a barrier, through a barrier, and dermal armor.

sr3.md: "APDS halves armor and barrier ratings (round down), standard against vehicles and drones … Flechette: +1
level vs unarmored (9M → 9S); … barrier and vehicle armor doubled; dermal armor cancels the level increase";
"Barriers: a barrier rated above the attack's Power stops it"; resistance with "modified Body (dermal armor
included)".
"""

from __future__ import annotations

from collections.abc import Callable

from app.document import EncounterDocument
from rules.combatants import SetAttribute
from rules.encounter import Weapon, frozen_map
from rules.history import Operation
from rules.systems.sr3.damage import Ammo, TargetKind
from rules.systems.sr3.dice import TargetNumberTest
from rules.systems.sr3.ops import Sr3Attack
from rules.systems.sr3.system import DERMAL_ARMOR
from rules.systems.sr3.tables import FiringMode, RangeCategory
from rules.weapons import SetWeapons
from tests.ui.test_sr3_attack import DialogFactory, dialog_for, fight, type_dice
from ui.games.sr3.attack import Sr3AttackDialog

__all__ = ["dialog_for"]  # the fixture, found by pytest through this module


def _pistol(dialog_for: DialogFactory, *before: Callable[[dict[str, str]], Operation]
            ) -> tuple[EncounterDocument, dict[str, str], Sr3AttackDialog]:
    document, ids = fight(*before)
    dialog = dialog_for(document)
    dialog.weapon.name.setText("Ares Predator")
    dialog.weapon.code.setText("9M")
    dialog.weapon.mode.select(FiringMode.SA)
    dialog.weapon.range.select(RangeCategory.SHORT)
    dialog.dice.skill.setValue(4)
    return document, ids, dialog


def test_a_barrier_above_the_power_stops_the_shot_and_the_dialog_says_so(dialog_for: DialogFactory) -> None:
    document, ids, dialog = _pistol(dialog_for)
    dialog.situation.hit.barrier.setValue(10)
    assert "The barrier (rating 10) stops the attack: it is rated above the Power 9." in dialog.barrier_note.text()
    type_dice(dialog, "5,6,2,3")
    assert dialog.dice.dodge_entry.expression() is None and dialog.dice.resist_entry.expression() is None
    assert dialog.dice.resist_entry.count_label.text() == "Not needed: the barrier stops the attack."
    target = ids["Ganger 1"]
    before = document.state.combatant(target).damage
    dialog.resolve()
    operation = document.history.entries[-1].operation
    assert isinstance(operation, Sr3Attack) and operation.barrier == 10
    assert "stops the attack" in dialog.result_label.text()
    assert document.state.combatant(target).damage == before
    document.undo_stack.undo()
    assert not any(entry.operation == operation for entry in document.history.entries)


def test_apds_halves_the_barrier_in_the_way(dialog_for: DialogFactory) -> None:
    _document, _ids, dialog = _pistol(dialog_for)
    dialog.weapon.ammo.select(Ammo.APDS)
    dialog.situation.hit.barrier.setValue(19)
    assert dialog.sheet is not None and dialog.sheet.barrier == 9 and not dialog.sheet.stopped
    assert "does not stop the attack" in dialog.barrier_note.text()


def test_a_vehicle_takes_its_armor_from_the_target_and_flechette_doubles_it(dialog_for: DialogFactory) -> None:
    _document, _ids, dialog = _pistol(dialog_for, lambda ids: SetAttribute(ids["Ganger 1"], "ballistic", 3))
    dialog.weapon.ammo.select(Ammo.FLECHETTE)
    dialog.situation.hit.kind.select(TargetKind.VEHICLE)
    assert dialog.defence.ballistic.value() == 3
    assert dialog.sheet is not None and (dialog.sheet.level, dialog.sheet.armor, dialog.sheet.resist_tn) == ("M", 6, 3)


def test_dermal_armor_comes_from_the_target_and_cancels_flechettes_extra_level(dialog_for: DialogFactory) -> None:
    _document, _ids, dialog = _pistol(dialog_for, lambda ids: SetAttribute(ids["Ganger 1"], DERMAL_ARMOR, 2))
    dialog.weapon.ammo.select(Ammo.FLECHETTE)
    assert dialog.dice.dermal.value() == 2
    assert dialog.sheet is not None and dialog.sheet.level == "M"  # not 9S: dermal armor
    dialog.dice.dermal.setValue(0)
    assert dialog.sheet is not None and dialog.sheet.level == "S"


def test_dermal_armor_adds_its_dice_to_body_in_resistance(dialog_for: DialogFactory) -> None:
    _document, _ids, dialog = _pistol(dialog_for, lambda ids: SetAttribute(ids["Ganger 1"], DERMAL_ARMOR, 2))
    body = dialog.dice.body.value()
    type_dice(dialog, "5,6,2,3")
    expression = dialog.dice.resist_entry.expression()
    assert isinstance(expression, TargetNumberTest) and expression.count == body + 2


def test_explosive_rounds_at_a_barrier_aim_at_twice_its_rating(dialog_for: DialogFactory) -> None:
    _document, _ids, dialog = _pistol(dialog_for)
    dialog.weapon.ammo.select(Ammo.EX)
    dialog.situation.hit.kind.select(TargetKind.BARRIER)
    assert dialog.sheet is None  # a barrier shot at needs its rating
    dialog.situation.hit.barrier.setValue(4)
    assert dialog.sheet is not None and dialog.sheet.attack_tn.value == 8


def test_a_saved_grenades_fall_off_lowers_the_power_with_the_targets_distance(dialog_for: DialogFactory) -> None:
    """sr3.md, Grenades: "Power falling with distance by the grenade's rate per metre, level unchanged"."""
    document, ids = fight()
    grenade = Weapon("Offensive grenade", frozen_map({"kind": "blast", "damage": "10S",
                                                      "weapon_class": "standard_grenade", "blast_falloff": 1}))
    document.apply(SetWeapons(ids["Mike"], (grenade,)))
    dialog = dialog_for(document, target_id=ids["Ganger 1"])
    assert dialog.weapon.falloff.value() == 1 and dialog.defence.blast_metres.isEnabled()
    dialog.weapon.range.select(RangeCategory.SHORT)
    dialog.defence.blast_metres.setValue(4)
    assert dialog.sheet is not None and (dialog.sheet.power, dialog.sheet.level) == (6, "S")
    assert "(4 m from the blast)" in dialog.damage_label.text()
    dialog.dice.skill.setValue(3)
    type_dice(dialog, "5,5,1", "", "1,1,1,1")
    dialog.resolve()
    operation = document.history.entries[-1].operation
    assert isinstance(operation, Sr3Attack) and (operation.power, operation.level) == (6, "S")


def test_a_saved_shotguns_power_falls_with_each_spread_step(dialog_for: DialogFactory) -> None:
    """sr3.md, Shotguns: "shot spreads with range and choke"; the Power per step is the weapon's data."""
    document, ids = fight()
    shotgun = Weapon("Remington Roomsweeper", frozen_map({"kind": "firearm", "damage": "9S", "modes": "SA",
                                                         "weapon_class": "shotgun", "spread_power": 1}))
    document.apply(SetWeapons(ids["Mike"], (shotgun,)))
    dialog = dialog_for(document, target_id=ids["Ganger 1"])
    assert dialog.weapon.spread_power.value() == 1
    dialog.weapon.range.select(RangeCategory.SHORT)
    dialog.defence.spread.setValue(3)
    assert dialog.sheet is not None and (dialog.sheet.power, dialog.sheet.level) == (6, "S")
    assert dialog.sheet.dodge_tn.value == 4 + 3
    assert "(spread 3)" in dialog.damage_label.text()
