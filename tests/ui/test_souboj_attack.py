"""The Souboj attack dialog: odds from the rules before any die, typed or rolled dice, one undoable operation."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from app.document import EncounterDocument
from app.i18n import install_language
from app.library import Library
from app.workspace import Workspace
from rules.combatants import ApplyHarm, SetAttribute
from rules.dice import Roller
from rules.encounter import Status
from rules.serialize import to_data
from rules.systems.souboj import MarkDead, attack_odds
from rules.systems.souboj.model import Cause, Kind
from rules.systems.souboj.sample import sample
from rules.weapons import SetWeapons
from ui.games import game_ui
from ui.games.souboj.attack import SoubojAttackDialog
from ui.main_window import MainWindow
from ui.theme import apply_theme

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")

#: Set to a folder to keep the screenshots (they always go to the test's tmp_path as well).
SHOTS = os.environ.get("BOJOVKA_SHOTS")
LAPTOP = (1366, 700)
ALES, BORA, CYRIL, CHIEF, BANDIT_1, BANDIT_2 = "c1", "c2", "c3", "c4", "c5", "c6"


@pytest.fixture
def document() -> EncounterDocument:
    """The shipped sample: round 1, the group at 4 (Bora, Aleš, Bandit 1) acting; Bandit 1 has 9 of 16."""
    return EncounterDocument(sample())


def _dialog(qtbot: QtBot, document: EncounterDocument, attacker: str | None = ALES,
            target: str | None = BANDIT_1, seed: int = 5) -> SoubojAttackDialog:
    dialog = SoubojAttackDialog(document, Roller.seeded(seed), attacker, target)
    qtbot.addWidget(dialog)
    return dialog


def _select_kind(dialog: SoubojAttackDialog, kind: Kind) -> None:
    dialog.kind.setCurrentIndex(dialog.kind.findData(kind.value))


def test_the_window_finds_the_dialog_by_the_games_id() -> None:
    assert game_ui("souboj").attack_dialog() is SoubojAttackDialog


def test_the_numbers_come_from_the_combatants_and_the_kind(qtbot: QtBot, document: EncounterDocument) -> None:
    dialog = _dialog(qtbot, document)
    # Aleš declared melee: 1d6 + Strength 8 + weapon 6 against Bandit 1's 1d6 + Dexterity 5 + weapon defence 2.
    assert dialog.kind.currentData() == Kind.MELEE.value
    assert (dialog.attack_box.bonus(), dialog.defence_box.bonus()) == (14, 7)
    assert dialog.attack_box.total_label.text() == "1d6 + 14"
    assert (dialog.damage.strength.value(), dialog.damage.armor.value(), dialog.critical.level.value()) == (8, 1, 4)
    _select_kind(dialog, Kind.FIREARM)  # firearm: weapon strength only, defence Dexterity only, no armor
    assert (dialog.attack_box.bonus(), dialog.defence_box.bonus()) == (6, 5)
    assert not dialog.damage.armor.isEnabled() and not dialog.damage.strength.isEnabled()
    assert not dialog.critical.causes[Cause.GM].isHidden()


def test_armor_counts_against_a_thrown_weapon_only_when_marked(qtbot: QtBot, document: EncounterDocument) -> None:
    # souboj.md Decision: "which armors count against thrown weapons is a per-armor flag (default: not, unless
    # marked, since only some do)". Bandit 1 wears armor quality 1.
    dialog = _dialog(qtbot, document)
    _select_kind(dialog, Kind.THROWN)
    assert not dialog.damage.armor_counts.isChecked() and not dialog.damage.armor.isEnabled()
    document.apply(SetAttribute(BANDIT_1, "armor_vs_thrown", 1))  # the GM marks the bandit's armor
    marked = _dialog(qtbot, document)
    _select_kind(marked, Kind.THROWN)
    assert marked.damage.armor_counts.isChecked() and marked.damage.armor.value() == 1
    assert marked.damage.armor.isEnabled()


def test_odds_are_the_rules_odds_before_any_die_and_follow_every_edit(qtbot: QtBot,
                                                                      document: EncounterDocument) -> None:
    dialog = _dialog(qtbot, document)
    expected = attack_odds(14, 7, Kind.MELEE, 8, 1)
    rows = dialog.outcomes()
    assert rows[0].label == "Miss" and rows[0].probability == pytest.approx(expected.miss)
    assert {row.damage: row.probability for row in rows[1:]} == pytest.approx(dict(expected.damage))
    assert rows[1].label == "9 damage → dying"  # Bandit 1 has 9 hit points left
    assert dialog.odds.outcomes()  # shown before any die is rolled
    dialog.defence_box.other.setValue(10)  # a shield wall: now the attack can miss
    assert dialog.outcomes()[0].probability == pytest.approx(attack_odds(14, 17, Kind.MELEE, 8, 1).miss)
    dialog.damage.flat.setChecked(True)
    assert any(row.label.endswith("→ unconscious") for row in dialog.outcomes())
    dialog.critical.causes[Cause.BEHIND].setChecked(True)
    assert dialog.critical.multiplier_label.text() == "<b>damage × 4</b>"
    assert dialog.outcomes()[-1].damage == (6 + 14 - (1 + 17) + 8 - 1) * 4  # best margin 2, + 8 − 1, × level 4


def test_typed_dice_resolve_one_undoable_attack(qtbot: QtBot, document: EncounterDocument) -> None:
    dialog = _dialog(qtbot, document)
    steps = document.undo_stack.count()
    assert not dialog.resolve_button.isEnabled()
    dialog.attack_entry.set_faces_text("2")
    dialog.defence_entry.set_faces_text("5")
    assert dialog.resolve_button.isEnabled()
    dialog.resolve()  # 16 against 12: base 4 + 8 − 1 = 11 on Bandit 1's 9 hit points: dying
    bandit = document.state.combatant(BANDIT_1)
    assert bandit.boxes("wounds") == 7 + 11
    assert document.system.status(bandit, document.state) is Status.DYING
    assert document.undo_stack.count() == steps + 1
    assert dialog.odds.highlighted() == "11 damage → dying"
    assert dialog.result_label.text().splitlines()[1] == "Attack 2 + 14 = 16 against defence 5 + 7 = 12."
    assert not dialog.resolve_button.isEnabled() and dialog.next_button.isEnabled()
    dialog.next_attack()  # the same attacker, the dying bandit: finishing it off is offered
    assert not dialog.finish.isHidden() and dialog.finish.isChecked()
    assert dialog.attack_entry.expression() is None
    dialog.resolve()
    assert document.system.status(document.state.combatant(BANDIT_1), document.state) is Status.DEAD
    document.undo_stack.undo()
    document.undo_stack.undo()
    assert document.state.combatant(BANDIT_1).boxes("wounds") == 7


def test_rolled_dice_and_a_miss(qtbot: QtBot, document: EncounterDocument) -> None:
    dialog = _dialog(qtbot, document, attacker=CYRIL, target=CHIEF)
    _select_kind(dialog, Kind.RANGED)
    dialog.defence_box.other.setValue(20)  # the chief behind a wall: 1d6 + 14 against 1d6 + 29
    assert dialog.outcomes()[0].probability == 1.0
    dialog.roll_remaining()
    assert dialog.attack_entry.is_complete() and dialog.defence_entry.is_complete()
    dialog.resolve()
    assert dialog.result_label.text().splitlines()[-1] == "The attack misses."
    assert dialog.odds.highlighted() == "Miss"
    assert document.state.combatant(CHIEF).boxes("wounds") == 0


def test_a_spell_needs_no_dice(qtbot: QtBot, document: EncounterDocument) -> None:
    dialog = _dialog(qtbot, document, attacker=BORA, target=CHIEF)
    assert dialog.kind.currentData() == Kind.MAGIC.value  # Bora declared magic
    assert dialog.attack_entry.expression() is None and dialog.attack_box.isHidden()
    dialog.damage.spell.setValue(6)
    assert [row.label for row in dialog.outcomes()] == ["6 damage"]
    dialog.resolve()
    assert document.state.combatant(CHIEF).boxes("wounds") == 6


def test_the_causes_of_a_critical_are_prefilled_from_the_fight(qtbot: QtBot, document: EncounterDocument) -> None:
    document.apply(ApplyHarm(CHIEF, "shadow", 25))  # out cold, not dying: an immobile target
    dialog = _dialog(qtbot, document, target=CHIEF)
    assert dialog.critical.causes[Cause.IMMOBILE].isChecked()
    assert dialog.critical.causes[Cause.GM].isHidden()  # melee: no critical on the GM's call alone
    assert dialog.finish.isHidden()


def test_a_critical_wound_offers_its_after_effect_in_the_effects_form(qtbot: QtBot, document: EncounterDocument,
                                                                     tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    # souboj.md: "The GM may add effects (bleeding, amputation…) by the size of the wound."
    dialog = _dialog(qtbot, document, target=CHIEF)
    dialog.critical.causes[Cause.BEHIND].setChecked(True)
    dialog.critical.level.setValue(1)
    dialog.attack_entry.set_faces_text("2")
    dialog.defence_entry.set_faces_text("5")
    dialog.resolve()  # 16 against 11: base 5, + 8 − 3 = 10, × 1 on the Chief's 22 hit points
    assert dialog.after_effect_button.isVisibleTo(dialog)
    assert dialog.after_effect_button.text() == "Add an after-effect to Chief Radim…"
    with qtbot.waitSignal(dialog.effect_requested) as asked:
        qtbot.mouseClick(dialog.after_effect_button, Qt.MouseButton.LeftButton)
    assert asked.args == [CHIEF] and not dialog.isVisible()
    again = _dialog(qtbot, document, target=CHIEF)
    again.attack_entry.set_faces_text("2")
    again.defence_entry.set_faces_text("5")
    again.resolve()  # no cause: an ordinary wound asks for nothing
    assert not again.after_effect_button.isVisibleTo(again)
    # The window opens its effects form on the wounded one once the dialog has closed.
    monkeypatch.setenv("BOJOVKA_HOME", str(tmp_path))
    window = MainWindow(Workspace(library=Library(tmp_path / "library.sqlite3")))
    qtbot.addWidget(window)
    window.workspace.document.replace_history(sample(), None)
    window.fight._add_effect_later(CHIEF)
    qtbot.waitUntil(lambda: window.effects.form.isVisibleTo(window.effects))
    assert window.effects.form.target.currentData() == CHIEF


def test_a_refusal_is_shown_in_the_dialog_and_changes_nothing(qtbot: QtBot, document: EncounterDocument) -> None:
    dialog = _dialog(qtbot, document, attacker=ALES, target=CHIEF)
    dialog.attack_entry.set_faces_text("6")
    dialog.defence_entry.set_faces_text("1")
    document.apply(MarkDead(CHIEF))  # someone else killed the chief meanwhile
    before = to_data(document.state)
    dialog.resolve()
    assert dialog.status_label.text() == "Chief Radim is already dead."
    assert to_data(document.state) == before


def test_it_fits_a_laptop_screen_in_light_and_dark(qtbot: QtBot, document: EncounterDocument,
                                                   tmp_path: Path) -> None:
    application = QApplication.instance()
    assert isinstance(application, QApplication)
    for theme in ("light", "dark"):
        apply_theme(application, theme)
        dialog = _dialog(qtbot, document)
        dialog.attack_entry.set_faces_text("4")
        dialog.defence_entry.set_faces_text("3")
        dialog.show()
        qtbot.waitExposed(dialog)
        hint = dialog.sizeHint()
        assert hint.width() <= LAPTOP[0] and hint.height() <= LAPTOP[1]
        for folder in filter(None, (str(tmp_path), SHOTS)):
            assert dialog.grab().save(str(Path(folder) / f"souboj_attack_{theme}.png"))
        dialog.close()
    apply_theme(application, "light")


def test_a_closed_dialog_is_freed_at_once(qtbot: QtBot, document: EncounterDocument) -> None:
    # A lambda holding the dialog kept closed dialogs alive, refreshing on every change to the fight.
    import gc

    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QDialog, QWidget

    window = QWidget()
    qtbot.addWidget(window)
    gc.disable()
    try:
        dialog = SoubojAttackDialog(document, Roller.seeded(1), ALES, BANDIT_1, window)
        QTimer.singleShot(0, dialog.reject)
        dialog.exec()
        del dialog
        assert window.findChildren(QDialog) == []
    finally:
        gc.enable()


def test_one_edit_recomputes_once(qtbot: QtBot, document: EncounterDocument, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[None] = []
    original = SoubojAttackDialog._refresh

    def counted(self: SoubojAttackDialog) -> None:
        calls.append(None)
        original(self)

    monkeypatch.setattr(SoubojAttackDialog, "_refresh", counted)
    dialog = _dialog(qtbot, document)
    calls.clear()
    spin = next(iter(dialog.attack_box.spins.values()))
    spin.setValue(spin.value() + 1)
    assert len(calls) == 1


def test_a_firearm_without_a_number_gets_the_shooters_suggested_one(qtbot: QtBot, document: EncounterDocument) -> None:
    # souboj.md: "Decision: entered per weapon and shooter; suggested (shooter's Dex + Int) ÷ 2, rounded down."
    dialog = _dialog(qtbot, document, attacker=BORA)  # Dexterity 5, Intelligence 9, no firearm of her own
    dialog.weapon_picker.setCurrentIndex(dialog.weapon_picker.findData(""))  # a weapon typed in the form
    _select_kind(dialog, Kind.FIREARM)
    number = dialog.attack_box.spins["weapon_strength"]
    assert number.value() == 7 and dialog.attack_box.total_label.text() == "1d6 + 7"
    assert number.toolTip().startswith("Suggested for Bora: (Dexterity 5 + Intelligence 9) ÷ 2 = 7")
    number.setValue(9)  # the GM's number for this weapon and shooter stands
    assert dialog.attack_box.bonus() == 9
    _select_kind(dialog, Kind.MELEE)
    assert "weapon_strength" not in dialog.attack_box.spins or not dialog.attack_box.spins["weapon_strength"].toolTip()


# --- a dying attacker: refused, and the GM's override -----------------------------------------------------------


def test_a_dying_attacker_is_refused_before_the_dice_and_the_gm_may_override(qtbot: QtBot,
                                                                           document: EncounterDocument) -> None:
    # souboj.md, "Dying": "It can do nothing; but if it is dying at the start of its turn it may roll Endurance for one
    # last action." Bandit 2 falls while the group at 4 acts; its own turn is not now.
    document.apply(ApplyHarm(BANDIT_2, "wounds", 17))
    dialog = _dialog(qtbot, document, attacker=BANDIT_2, target=ALES)
    refusal = ("Bandit 2 is dying: “It can do nothing; but if it is dying at the start of its turn it may roll "
               "Endurance for one last action.” Judge that roll first (Dying and death).")
    assert dialog.status_label.text().startswith(refusal)
    assert not dialog.resolve_button.isEnabled()
    assert dialog.override_button.isVisibleTo(dialog) and not dialog.override_button.isEnabled()
    assert dialog.override_button.text() == "Resolve anyway (GM's override)"
    dialog.attack_entry.set_faces_text("6")
    dialog.defence_entry.set_faces_text("1")
    assert not dialog.resolve_button.isEnabled() and dialog.override_button.isEnabled()
    steps = document.undo_stack.count()
    qtbot.mouseClick(dialog.override_button, Qt.MouseButton.LeftButton)
    assert document.undo_stack.count() == steps + 1
    assert document.history.entries[-1].text().splitlines()[0] == (
        "Bandit 2 is dying and can do nothing, but the GM lets it act all the same.")
    assert document.state.combatant(ALES).boxes("wounds") > 0
    assert not dialog.override_button.isVisibleTo(dialog)
    dialog.next_attack()  # still dying: the next attack is refused again
    assert dialog.status_label.text().startswith(refusal) and not dialog.resolve_button.isEnabled()


def test_a_creature_felled_in_the_group_acting_now_still_strikes_from_the_dialog(qtbot: QtBot,
                                                                               document: EncounterDocument) -> None:
    # "Everyone with the same score acts at the same time": Bandit 1 (score 4, 9 hit points) falls to Aleš's blow.
    dialog = _dialog(qtbot, document)
    dialog.attack_entry.set_faces_text("2")
    dialog.defence_entry.set_faces_text("5")
    dialog.resolve()
    assert document.system.status(document.state.combatant(BANDIT_1), document.state) is Status.DYING
    answer = _dialog(qtbot, document, attacker=BANDIT_1, target=ALES)
    answer.attack_entry.set_faces_text("6")
    answer.defence_entry.set_faces_text("1")
    assert answer.resolve_button.isEnabled() and not answer.override_button.isVisibleTo(answer)
    answer.resolve()
    assert document.history.entries[-1].text().splitlines()[0] == (
        "Bandit 1 attacks Aleš with Short sword (Melee (face to face)).")


# --- a critical hit's prompts -------------------------------------------------------------------------------------


def _critical(qtbot: QtBot, document: EncounterDocument, target: str, flat: bool = False) -> SoubojAttackDialog:
    """Aleš's blow from behind at level 1, dice 2 and 5."""
    dialog = _dialog(qtbot, document, target=target)
    dialog.critical.causes[Cause.BEHIND].setChecked(True)
    dialog.critical.level.setValue(1)
    dialog.damage.flat.setChecked(flat)
    dialog.attack_entry.set_faces_text("2")
    dialog.defence_entry.set_faces_text("5")
    dialog.resolve()
    return dialog


def test_a_critical_wound_offers_bleeding_and_a_lost_limb_in_one_click_each(qtbot: QtBot,
                                                                           document: EncounterDocument) -> None:
    # souboj.md, "Critical hits": "The GM may add effects (bleeding, amputation…) by the size of the wound."
    dialog = _critical(qtbot, document, CHIEF)  # 16 against 11: base 5, + 8 − 3 = 10 on the Chief's 22
    prompt = dialog.prompt
    assert prompt.note.text().startswith("A critical wound of 10 on Chief Radim")
    assert prompt.bleeding.isVisibleTo(dialog) and prompt.not_dead.isHidden()
    steps = document.undo_stack.count()
    prompt.duration.setValue(3)
    qtbot.mouseClick(prompt.bleeding, Qt.MouseButton.LeftButton)
    bleeding = list(document.state.effects.values())[-1]
    assert (bleeding.name, bleeding.target, bleeding.remaining) == ("Bleeding", CHIEF, 3)
    assert bleeding.reminds is not None and bleeding.reminds.hook == "round_start"
    assert document.undo_stack.count() == steps + 1 and not prompt.bleeding.isEnabled()
    assert dialog.result_label.text().splitlines()[-1] == "Bleeding begins on Chief Radim."
    prompt.duration.setValue(0)  # until removed
    qtbot.mouseClick(prompt.lost_limb, Qt.MouseButton.LeftButton)
    limb = list(document.state.effects.values())[-1]
    assert (limb.name, limb.target, limb.remaining, limb.expires) == ("Lost limb", CHIEF, None, None)
    document.undo_stack.undo()
    assert limb.id not in document.state.effects and bleeding.id in document.state.effects
    dialog.next_attack()
    assert prompt.note.isHidden() and not prompt.bleeding.isVisibleTo(dialog)


def test_a_critical_wound_that_leaves_it_dying_kills_on_the_spot_and_the_gm_may_take_it_back(
        qtbot: QtBot, document: EncounterDocument) -> None:
    # "If the last wound was critical, or a special circumstance applies, it dies on the spot."
    dialog = _critical(qtbot, document, BANDIT_1)  # 11 on Bandit 1's 9 hit points: −2
    assert document.system.status(document.state.combatant(BANDIT_1), document.state) is Status.DEAD
    assert "The critical wound kills Bandit 1 on the spot." in dialog.result_label.text()
    prompt = dialog.prompt
    assert prompt.not_dead.isVisibleTo(dialog) and not prompt.bleeding.isVisibleTo(dialog)
    steps = document.undo_stack.count()
    qtbot.mouseClick(prompt.not_dead, Qt.MouseButton.LeftButton)
    assert document.undo_stack.count() == steps + 1
    assert document.system.status(document.state.combatant(BANDIT_1), document.state) is Status.DYING
    assert dialog.result_label.text().splitlines()[-1] == "The GM takes back Bandit 1's death."
    assert prompt.not_dead.isHidden() and prompt.bleeding.isVisibleTo(dialog)  # it lives on, with its wound


def test_a_critical_flat_blow_does_not_kill_on_the_spot(qtbot: QtBot, document: EncounterDocument) -> None:
    dialog = _critical(qtbot, document, BANDIT_1, flat=True)  # 11 shadow damage on 9 hit points: out cold
    assert document.system.status(document.state.combatant(BANDIT_1), document.state) is Status.UNCONSCIOUS
    assert dialog.prompt.note.text() == "A critical flat blow does not kill on the spot: shadow damage is not lethal."
    assert dialog.prompt.not_dead.isHidden() and not dialog.prompt.bleeding.isVisibleTo(dialog)


def test_an_after_effect_is_named_and_logged_in_the_gms_language(qtbot: QtBot, document: EncounterDocument) -> None:
    install_language("cs")
    try:
        dialog = _critical(qtbot, document, CHIEF)
        qtbot.mouseClick(dialog.prompt.bleeding, Qt.MouseButton.LeftButton)
        added = list(document.state.effects.values())[-1]
        assert added.name != "Bleeding" and added.name in document.history.entries[-1].text()
        assert dialog.result_label.text().splitlines()[-1] == document.history.entries[-1].text()
        assert "begins" not in document.history.entries[-1].text()
    finally:
        install_language("en")


def test_a_spell_offers_the_critical_only_when_it_may_be_critical(qtbot: QtBot, document: EncounterDocument) -> None:
    # souboj.md, "Critical hits": "Possible with all weapons, only with some spells".
    dialog = _dialog(qtbot, document, attacker=BORA, target=CHIEF)
    assert dialog.weapon_name() == "Fire bolt"  # a saved spell, not marked as one that may be critical
    assert not dialog.critical.spell_allows.isChecked() and not dialog.critical.spell_allows.isEnabled()
    assert all(box.isHidden() for box in dialog.critical.causes.values())
    assert dialog.critical.chosen() == ()
    dialog.close()
    bora = document.state.combatant(BORA)
    marked = tuple(weapon.with_value("may_be_critical", True) if weapon.name == "Fire bolt" else weapon
                   for weapon in bora.weapons)
    document.apply(SetWeapons(BORA, marked))
    dialog = _dialog(qtbot, document, attacker=BORA, target=CHIEF)
    assert dialog.critical.spell_allows.isChecked()
    assert not dialog.critical.causes[Cause.BEHIND].isHidden()
    assert dialog.critical.causes[Cause.GM].isHidden()  # a spell is never critical on the GM's call alone
    dialog.critical.causes[Cause.BEHIND].setChecked(True)
    dialog.resolve()
    assert "Critical hit (attack from behind): 7 × 3 = 21." in document.history.entries[-1].text().splitlines()


def test_a_spell_typed_in_the_form_is_marked_by_the_gm_in_the_dialog(qtbot: QtBot,
                                                                    document: EncounterDocument) -> None:
    dialog = _dialog(qtbot, document, attacker=BORA, target=CHIEF)
    dialog.weapon_picker.setCurrentIndex(dialog.weapon_picker.findData(""))  # typed in the form
    assert dialog.critical.spell_allows.isEnabled() and not dialog.critical.spell_allows.isChecked()
    assert dialog.critical.causes[Cause.BEHIND].isHidden()
    dialog.critical.spell_allows.setChecked(True)
    assert not dialog.critical.causes[Cause.BEHIND].isHidden()
    _select_kind(dialog, Kind.MELEE)  # any weapon may be critical: no mark asked
    assert dialog.critical.spell_allows.isHidden() and not dialog.critical.causes[Cause.BEHIND].isHidden()
