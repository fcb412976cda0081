"""SR3 called shots in melee and with throws (sr3.md, Damage codes and firing modes).

"Called shot: free action, +4, may follow an aim … with consent one effect: +1 level; a part of a vehicle-size target
…; an unarmored or weaker spot. **Decision** (the free-action list: followed by "Zamíření, Výstřel, Vrh nebo Útok
zblízka", aim, shot, throw or melee): throws and melee may be called too (default), option: not."
"""

from __future__ import annotations

from rules.combatants import SetAttribute, SetOption
from rules.systems.sr3 import Sr3Melee
from rules.systems.sr3.damage import CalledShotEffect
from rules.systems.sr3.system import CALLED_THROWS_AND_MELEE, FREE
from rules.systems.sr3.tables import RangeCategory, WeaponKind
from tests.ui.test_sr3_attack import DialogFactory, _katana, dialog_for, fight

__all__ = ["dialog_for"]  # the fixture, found by pytest through this module


def test_a_called_melee_blow_is_4_harder_and_a_level_heavier(dialog_for: DialogFactory) -> None:
    document, ids = fight(_katana)
    dialog = dialog_for(document, target_id=ids["Ganger 1"])
    melee = dialog.melee
    plain = melee.sheet
    assert plain is not None and plain.attack_tn.value == 3  # melee 4, reach −1
    melee.situation.called.setChecked(True)
    called = melee.sheet
    assert called is not None and called.attack_tn.value == 3 + 4
    assert {line.key: line.value for line in called.attack_tn.lines}["called_shot"] == 4
    melee.defence.skill.setValue(1)
    melee.attack_entry.set_faces_text("6+1, 6+2, 6+3, 1, 2, 3")  # TN 7: three successes
    melee.defence_entry.set_faces_text("1")
    melee.resist_entry.set_faces_text("1, 1, 1, 1")
    assert dialog.resolve_button.isEnabled(), dialog.status_label.text()
    dialog.resolve()
    operation = document.history.entries[-1].operation
    assert isinstance(operation, Sr3Melee) and operation.called_shot and operation.level == "S"  # (STR+3)M: +1 level
    assert "A called shot (+4 TN, a free action)." in dialog.melee.result.text()
    mike = document.state.combatant(ids["Mike"])
    assert mike.actions_used.get(FREE) == 1
    document.undo_stack.undo()
    assert not document.state.combatant(ids["Mike"]).actions_used.get(FREE)


def test_a_called_melee_blow_at_a_weaker_spot_meets_its_armor(dialog_for: DialogFactory) -> None:
    document, ids = fight(_katana, lambda ids: SetAttribute(ids["Ganger 1"], "impact", 3))
    dialog = dialog_for(document, target_id=ids["Ganger 1"])
    melee = dialog.melee
    assert melee.sheet is not None and melee.sheet.defender_resist_tn == 6 - 3  # Power 3 + 3, impact 3
    melee.situation.called.setChecked(True)
    melee.situation.called_effect.select(CalledShotEffect.UNARMORED_SPOT)
    melee.situation.spot_armor.setValue(1)
    assert melee.sheet is not None and melee.sheet.defender_resist_tn == 6 - 1


def test_the_option_not_turns_off_called_shots_in_melee_and_with_throws(dialog_for: DialogFactory) -> None:
    document, ids = fight(_katana, lambda ids: SetOption(CALLED_THROWS_AND_MELEE, False))
    dialog = dialog_for(document, target_id=ids["Ganger 1"])
    assert not dialog.melee.situation.called.isEnabled()
    dialog.set_kind("ranged")
    dialog.weapon.kind.select(WeaponKind.THROWN)
    dialog.weapon.range.select(RangeCategory.SHORT)
    dialog.situation.called.setChecked(True)
    assert dialog.sheet is None and "not with throws" in dialog.status_label.text()
