"""Effects with a game meaning: chosen in the effects form, shown in the table, read by the attack dialogs."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from app.document import EncounterDocument
from rules.dice import Roller
from rules.effects import AddEffect, RemoveEffect
from rules.encounter import Effect
from rules.history import new_history
from rules.systems.sr3.odds import OUTCOMES, attack_outcome_distribution
from rules.systems.walka.contest import Outcome
from rules.systems.walka.odds import outcome_chances
from rules.systems.walka.sample import sample as walka_sample
from tests.rules.sr3_scenes import eight_characters, roll_ones
from ui.games.sr3.attack import Sr3AttackDialog
from ui.games.walka.attack import WalkaAttackDialog
from ui.models.effects_model import Column
from ui.widgets.effects_list import EffectsPanel


def _document() -> tuple[EncounterDocument, dict[str, str]]:
    history, ids = eight_characters()
    roll_ones(history, ids)
    return EncounterDocument(history), ids


@pytest.fixture
def panel(qtbot: QtBot) -> Iterator[EffectsPanel]:
    host = QWidget()
    qtbot.addWidget(host)
    host.resize(520, 520)
    document, _ids = _document()
    made = EffectsPanel(document, host)
    made.resize(host.size())
    with qtbot.waitExposed(host):
        host.show()
    made.open_form()
    yield made  # the host (and with it the panel) lives until the test ends


def _dialog(qtbot: QtBot, document: EncounterDocument, **kwargs: Any) -> Sr3AttackDialog:
    dialog = Sr3AttackDialog(document, Roller.seeded(1), **kwargs)
    qtbot.addWidget(dialog)
    return dialog


# --- the effects form ------------------------------------------------------------------------------


def test_typing_smoke_and_enter_adds_a_smoke_effect(panel: EffectsPanel) -> None:
    form = panel.form
    assert form.meaning.isVisibleTo(form)
    assert form.meaning.itemText(0) == "None — a reminder only"
    QTest.keyClicks(form.name, "Smoke")
    assert form.meaning.currentData() == "light_smoke"
    QTest.keyClick(form.name, Qt.Key.Key_Return)
    effect = next(iter(panel._document.state.effects.values()))
    assert (effect.name, effect.meaning) == ("Smoke", "light_smoke")
    tooltip = panel.model.index(0, Column.NAME).data(Qt.ItemDataRole.ToolTipRole)
    assert tooltip == "Game meaning: Light smoke/fog/rain"


def test_a_name_that_means_nothing_adds_a_reminder_only(panel: EffectsPanel) -> None:
    form = panel.form
    QTest.keyClicks(form.name, "Smoke")
    QTest.keyClicks(form.name, " grenade")  # no longer a meaning's name
    assert form.meaning.currentData() == ""
    QTest.keyClick(form.name, Qt.Key.Key_Return)
    effect = next(iter(panel._document.state.effects.values()))
    assert effect.meaning == ""
    assert panel.model.index(0, Column.NAME).data(Qt.ItemDataRole.ToolTipRole) is None


def test_a_meaning_picked_by_hand_is_kept_while_typing(panel: EffectsPanel) -> None:
    form = panel.form
    QTest.keyClicks(form.name, "Cloud")
    index = form.meaning.findData("heavy_smoke")
    form.meaning.setCurrentIndex(index)
    form.meaning.activated.emit(index)  # the GM's pick, as a click in the popup sends it
    QTest.keyClicks(form.name, " of smoke")
    assert form.meaning.currentData() == "heavy_smoke"
    QTest.keyClick(form.name, Qt.Key.Key_Return)
    assert next(iter(panel._document.state.effects.values())).meaning == "heavy_smoke"
    panel.open_form()  # a fresh form forgets the pick
    assert form.meaning.currentData() == ""


# --- the SR3 attack dialog -------------------------------------------------------------------------


def test_smoke_on_the_encounter_presets_the_visibility_and_the_odds(qtbot: QtBot) -> None:
    document, _ids = _document()
    clear = _dialog(qtbot, document)
    clear.dice.skill.setValue(6)
    assert clear.situation.visibility.value() is None
    assert not clear.effects_note.isVisibleTo(clear)
    seen = dict(zip(OUTCOMES, (p for _label, p in clear.dice.odds.outcomes()), strict=True))
    document.apply(AddEffect(Effect("e1", "Smoke", meaning="light_smoke")))
    dialog = _dialog(qtbot, document)
    dialog.dice.skill.setValue(6)
    assert dialog.situation.visibility.value() == "light_smoke"
    assert dialog.effects_note.text() == "Smoke (whole encounter): visibility set to Light smoke/fog/rain"
    assert dialog.effects_note.isVisibleTo(dialog)
    assert dialog.sheet is not None and dialog.sheet.attack_tn.value == 8  # short 4 + light smoke 4
    # A miss depends on the attack dice alone: 6 dice at TN 8 in the smoke, at TN 4 in the clear.
    smoky = dict(zip(OUTCOMES, (p for _label, p in dialog.dice.odds.outcomes()), strict=True))
    assert smoky["miss"] == pytest.approx(attack_outcome_distribution(6, 8, 0, 4, 4, 4, "M")["miss"])
    assert seen["miss"] == pytest.approx(attack_outcome_distribution(6, 4, 0, 4, 4, 4, "M")["miss"])
    assert smoky["miss"] > seen["miss"]
    assert clear.situation.visibility.value() == "light_smoke"  # the dialog open before the smoke follows it


def test_the_worst_effect_of_attacker_target_and_encounter_wins(qtbot: QtBot) -> None:
    document, ids = _document()
    document.apply(AddEffect(Effect("e1", "Smoke", meaning="light_smoke")))
    document.apply(AddEffect(Effect("e2", "Blackout", target=ids["Ganger 1"], meaning="full_darkness")))
    document.apply(AddEffect(Effect("e3", "Glare", target=ids["Dave"], meaning="glare")))
    dialog = _dialog(qtbot, document, attacker_id=ids["Mike"], target_id=ids["Ganger 1"])
    assert dialog.situation.visibility.value() == "full_darkness"
    assert dialog.effects_note.text() == "Blackout (on Ganger 1): visibility set to Full darkness"
    dialog.target.setCurrentIndex(dialog.target.findData(ids["Dave"]))  # Dave's glare (+2) is lighter than smoke
    assert dialog.situation.visibility.value() == "light_smoke"


def test_the_gm_may_change_it_and_the_dialog_follows_the_effects(qtbot: QtBot) -> None:
    document, _ids = _document()
    document.apply(AddEffect(Effect("e1", "Smoke", meaning="heavy_smoke")))
    dialog = _dialog(qtbot, document)
    assert dialog.situation.visibility.value() == "heavy_smoke"
    dialog.situation.visibility.select("mist")  # the GM knows better
    document.apply(AddEffect(Effect("e2", "Dazed")))  # an unrelated change keeps the GM's choice
    assert dialog.situation.visibility.value() == "mist"
    document.apply(RemoveEffect("e1"))  # the smoke is gone, but the GM's mist stays
    assert dialog.situation.visibility.value() == "mist"
    assert not dialog.effects_note.isVisibleTo(dialog)
    document.apply(AddEffect(Effect("e3", "Fog", meaning="light_smoke")))  # laid while the dialog is open
    assert dialog.situation.visibility.value() == "light_smoke"
    document.apply(RemoveEffect("e3"))  # cleared: so is the visibility it set
    assert dialog.situation.visibility.value() is None


def test_a_fight_without_meanings_leaves_the_visibility_alone(qtbot: QtBot) -> None:
    document = EncounterDocument(new_history("sr3"))
    dialog = _dialog(qtbot, document)
    assert dialog.situation.visibility.value() is None


# --- the Walka attack dialog -------------------------------------------------------------------------


def test_walka_penalty_and_bonus_dice_come_from_effects(qtbot: QtBot) -> None:
    """Kira (c1, Firearms 14, a second attack: 1 penalty die) shoots Ganger 1 (c5, Dodge 8)."""
    document = EncounterDocument(walka_sample())
    document.apply(AddEffect(Effect("e1", "Dazed", target="c5", meaning="penalty_die")))
    document.apply(AddEffect(Effect("e2", "Good light", meaning="bonus_die")))
    dialog = WalkaAttackDialog(document, Roller.seeded(1), target_id="c5")
    qtbot.addWidget(dialog)
    modifiers = dialog.modifiers
    assert (modifiers.attack_bonus.value(), modifiers.attack_penalty.value()) == (1, 0)  # the light
    assert (modifiers.defence_bonus.value(), modifiers.defence_penalty.value()) == (1, 1)  # the light, dazed
    assert dialog.effects_note.text() == "Dazed (on Ganger 1): Penalty die\nGood light (whole encounter): Bonus die"
    chances = outcome_chances(14, 8, 20, 1, 1, 1, 1)
    assert dict(dialog.dice.odds.outcomes())["Defended"] == pytest.approx(chances[Outcome.DEFENDED])
    modifiers.attack_penalty.setValue(2)  # the GM adds a die of their own
    document.apply(RemoveEffect("e2"))  # the light goes: only its dice go with it
    assert (modifiers.attack_bonus.value(), modifiers.attack_penalty.value()) == (0, 2)
    assert (modifiers.defence_bonus.value(), modifiers.defence_penalty.value()) == (0, 1)
    assert dialog.effects_note.text() == "Dazed (on Ganger 1): Penalty die"
    dialog.target.setCurrentIndex(dialog.target.findData("c6"))  # someone not dazed
    assert modifiers.defence_penalty.value() == 0
    assert not dialog.effects_note.isVisibleTo(dialog)


def test_walka_offers_its_meanings_in_the_effects_form(qtbot: QtBot) -> None:
    host = QWidget()
    qtbot.addWidget(host)
    panel = EffectsPanel(EncounterDocument(walka_sample()), host)
    panel.open_form()
    QTest.keyClicks(panel.form.name, "penalty die")
    assert panel.form.meaning.currentData() == "penalty_die"
