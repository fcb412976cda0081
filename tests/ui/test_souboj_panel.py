"""Souboj's sections of the details panel: each control is one operation; refusals become the panel's message."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication, QComboBox, QWidget
from pytestqt.qtbot import QtBot

from app.document import EncounterDocument
from rules.combatants import AddCombatant, ApplyHarm, SetAttribute
from rules.encounter import Side, Status, frozen_map
from rules.errors import RulesError
from rules.history import new_history
from rules.systems.souboj import Declare, HoldReaction, JudgeLastAction, SoubojAttack, TimePasses
from rules.systems.souboj.model import Action, Kind, Placement, reaction, reactions
from rules.systems.souboj.sample import sample
from rules.turns import NextTurn, RollInitiative, SetInitiative
from ui.games.souboj.panel import DyingSection, FightSection, RoundSection
from ui.theme import apply_theme
from ui.widgets.details import CombatantDetails

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")

SHOTS = os.environ.get("BOJOVKA_SHOTS")
ALES, BORA, CYRIL, CHIEF, BANDIT_1, BANDIT_2 = "c1", "c2", "c3", "c4", "c5", "c6"


@pytest.fixture
def host(qtbot: QtBot) -> QWidget:
    widget = QWidget()
    qtbot.addWidget(widget)
    widget.resize(340, 1500)
    return widget


def _panel(qtbot: QtBot, host: QWidget, document: EncounterDocument, combatant: str) -> CombatantDetails:
    panel = CombatantDetails(document, host)
    panel.resize(host.size())
    panel.set_combatant(combatant)
    with qtbot.waitExposed(host):
        host.show()
    return panel


def _section(panel: CombatantDetails, kind: type[QWidget]) -> QWidget:
    found = [section for section in panel._game_sections if isinstance(section, kind)]
    assert len(found) == 1
    return found[0]


def _round(panel: CombatantDetails) -> RoundSection:
    section = _section(panel, RoundSection)
    assert isinstance(section, RoundSection)
    return section


def _choose(combo: QComboBox, data: str) -> None:
    """Pick an item as the GM would (``activated`` is what a click or the keyboard emits)."""
    index = combo.findData(data)
    assert index >= 0, data
    combo.setCurrentIndex(index)
    combo.activated.emit(index)


def test_the_game_adds_its_three_sections(qtbot: QtBot, host: QWidget) -> None:
    panel = _panel(qtbot, host, EncounterDocument(sample()), BORA)
    kinds = [type(section) for section in panel._game_sections]
    assert kinds == [RoundSection, DyingSection, FightSection]


def test_declaring_reorders_the_group_acting_now(qtbot: QtBot, host: QWidget) -> None:
    history = sample()
    history.undo()  # before Bora's fire bolt: nobody in the group has struck yet
    document = EncounterDocument(history)
    panel = _panel(qtbot, host, document, BANDIT_1)
    section = _round(panel)
    assert section.action.currentData() == Action.MELEE.value
    _choose(section.action, Action.NONCOMBAT.value)
    assert not section.placement.isHidden()  # where the GM puts it: last by default
    _choose(section.placement, "first")
    slot = document.state.clock.current
    assert slot is not None and slot.ids == (BANDIT_1, BORA, ALES)
    assert document.history.entries[-1].operation == Declare(BANDIT_1, Action.NONCOMBAT, Placement.FIRST)


def test_once_one_of_the_group_has_struck_its_declarations_are_refused_with_the_reason(
        qtbot: QtBot, host: QWidget) -> None:
    document = EncounterDocument(sample())  # Bora's fire bolt is resolved in the group at 4
    panel = _panel(qtbot, host, document, ALES)
    section = _round(panel)
    entries = len(document.history.entries)
    _choose(section.action, Action.RANGED.value)
    assert len(document.history.entries) == entries
    assert panel.message.text().startswith("Bora has already struck in the group acting now: the group's order by "
                                           "first actions (magic, then firearm and missile, then face to face) is "
                                           "settled, so Aleš's declaration can no longer change.")
    assert section.action.currentData() == Action.MELEE.value  # the fields show the state again


def test_act_after_someone_with_the_same_score(qtbot: QtBot, host: QWidget) -> None:
    document = EncounterDocument(sample())
    panel = _panel(qtbot, host, document, ALES)
    section = _round(panel)
    assert [section.after.itemData(i) for i in range(section.after.count())] == ["", BORA, BANDIT_1]
    _choose(section.after, BANDIT_1)
    slot = document.state.clock.current
    assert slot is not None and slot.ids == (BORA, BANDIT_1, ALES)
    assert document.system.score_text(document.state.combatant(ALES), document.state) == "4 · 3/3 · melee"


def test_holding_a_reaction_and_letting_it_go(qtbot: QtBot, host: QWidget) -> None:
    document = EncounterDocument(sample())
    panel = _panel(qtbot, host, document, CYRIL)
    section = _round(panel)
    # Cyril (2) holds a reaction; everyone acting now has 4, not a lower score: nobody to react to yet.
    assert section.reaction_label.text() == ("Holds a reaction. Shoots whoever charges Bora. "
                                             "Nobody with a lower score acts now.")
    assert section.against.count() == 0 and not section.react.isEnabled()
    section.drop.click()
    assert "reaction" not in document.state.combatant(CYRIL).extra
    assert section.reaction_label.text() == "Gave up this round's initiative."
    panel.set_combatant(ALES)  # in the group acting now
    section.carries.setChecked(True)
    section.hold.click()
    held = reaction(document.state.combatant(ALES))
    assert held is not None and held.carries_over
    slot = document.state.clock.current
    assert slot is not None and slot.ids == (BORA, BANDIT_1)


def test_a_reaction_answers_a_lower_score(qtbot: QtBot, host: QWidget) -> None:
    history = sample()
    history.do(SetInitiative(BANDIT_2, 1))  # the GM frees Bandit 2 from the reeds: he acts at 1
    history.do(HoldReaction(ALES))  # Aleš (4) gives up his place in the group for a reaction
    history.do(NextTurn())
    document = EncounterDocument(history)
    panel = _panel(qtbot, host, document, CYRIL)
    section = _round(panel)
    assert [section.against.itemData(i) for i in range(section.against.count())] == [BANDIT_2]
    section.timing.setCurrentIndex(section.timing.findData("after_instant"))  # the bandit blinks away
    section.react.click()
    assert "after it: an instant action is never interrupted" in document.history.entries[-1].text()
    slot = document.state.clock.current
    assert slot is not None and slot.ids == (BANDIT_2, CYRIL)  # Cyril acts together with the bandit
    panel.set_combatant(ALES)
    assert not section.drop_row.isHidden() and section.which.isHidden()  # one held: nothing to choose
    assert section.hold.text() == "Hold one more reaction" and section.hold.isEnabled()  # "as many as it wants"
    section.hold.click()
    assert len(reactions(document.state.combatant(ALES))) == 2 and not section.which.isHidden()
    section.which.setCurrentIndex(1)
    section.drop.click()  # the second goes; the first stays held
    assert len(reactions(document.state.combatant(ALES))) == 1
    document.apply(NextTurn())
    document.apply(TimePasses(10))
    assert "reaction" not in document.state.combatant(ALES).extra  # it did not carry over


def _bandit_2_dying_section(qtbot: QtBot, host: QWidget) -> tuple[EncounterDocument, DyingSection]:
    """The sample's Bandit 2 in the panel, and its Dying and death section."""
    document = EncounterDocument(sample())
    section = _section(_panel(qtbot, host, document, BANDIT_2), DyingSection)
    assert isinstance(section, DyingSection)
    return document, section


def test_dying_countdown_and_the_gms_word_on_death(qtbot: QtBot, host: QWidget) -> None:
    document, section = _bandit_2_dying_section(qtbot, host)
    assert section.countdown_row.isHidden()
    document.apply(ApplyHarm(BANDIT_2, "wounds", 17))
    assert not section.countdown_row.isHidden()
    assert "How many rounds" in section.detail_label.text()
    section.countdown.setValue(2)
    section.set_countdown.click()
    assert document.state.combatant(BANDIT_2).extra["dying_rounds"] == 2
    assert section.detail_label.text() == "Dying: 2 rounds left."
    section.death.click()
    assert document.system.status(document.state.combatant(BANDIT_2), document.state) is Status.DEAD
    assert section.death.text() == "Not dead after all"
    section.death.click()
    assert document.system.status(document.state.combatant(BANDIT_2), document.state) is Status.DYING


def test_the_gm_judges_the_endurance_roll_for_one_last_action_once(qtbot: QtBot, host: QWidget) -> None:
    # souboj.md: "if it is dying at the start of its turn it may roll Endurance for one last action"; Decision: "the
    # last action is allowed once (it is the last), its Endurance roll judged by the GM".
    document, section = _bandit_2_dying_section(qtbot, host)
    assert section.last_row.isHidden()
    document.apply(ApplyHarm(BANDIT_2, "wounds", 17))
    assert not section.last_row.isHidden()
    section.last_granted.click()
    assert document.history.entries[-1].text() == "Bandit 2 rolls Endurance and has one last action."
    assert section.last_row.isHidden() and section.detail_label.text().endswith("Its last action was granted.")
    with pytest.raises(RulesError, match="already judged"):
        document.apply(JudgeLastAction(BANDIT_2, False))
    document.apply(ApplyHarm(BANDIT_2, "wounds", -17))  # healed: saved, that dying is over
    assert "last_action" not in document.state.combatant(BANDIT_2).extra


def test_the_section_says_when_the_one_last_action_is_taken(qtbot: QtBot, host: QWidget) -> None:
    # Decision: "the last action is allowed once (it is the *last*)".
    document, section = _bandit_2_dying_section(qtbot, host)
    document.apply(ApplyHarm(BANDIT_2, "wounds", 17))
    section.last_granted.click()
    document.apply(SoubojAttack(BANDIT_2, "c1", Kind.MELEE, attack_roll=6, defence_roll=1))
    assert document.history.entries[-1].text().splitlines()[0] == "Bandit 2 takes its one last action."
    assert section.detail_label.text().endswith("Its one last action is taken: it can do nothing more.")
    with pytest.raises(RulesError, match="has taken its one last action"):
        document.apply(SoubojAttack(BANDIT_2, "c1", Kind.MELEE, attack_roll=6, defence_roll=1))


def test_surprise_is_chosen_before_the_fight_and_time_passes_after_it(qtbot: QtBot, host: QWidget) -> None:
    history = new_history("souboj", "Camp")
    history.do(AddCombatant("c1", "Aleš", Side.PLAYER, frozen_map({"hit_points": 20})))
    history.do(AddCombatant("c2", "Wolf", Side.OPPONENT, frozen_map({"hit_points": 8})))
    document = EncounterDocument(history)
    panel = _panel(qtbot, host, document, "c1")
    section = _section(panel, FightSection)
    assert isinstance(section, FightSection)
    assert section.surprise.isEnabled() and not section.attackers.isEnabled()
    _choose(section.surprise, "reactions_only")
    assert section.attackers.isEnabled()
    _choose(section.attackers, "party")
    options = document.state.options
    assert (options["surprise"], options["surprise_attackers"]) == ("reactions_only", "party")
    document.apply(ApplyHarm("c1", "shadow", 4))
    section.seconds.setValue(600)
    section.pass_time.click()
    assert document.state.combatant("c1").boxes("shadow") == 1  # 3 of 4 faded after 10 minutes


def test_a_refused_change_becomes_the_panels_message(qtbot: QtBot, host: QWidget) -> None:
    document = EncounterDocument(sample())
    panel = _panel(qtbot, host, document, BORA)
    section = _round(panel)
    section.modifier.setValue(0)
    section.add_modifier.click()
    assert panel.message_text() == "An initiative modifier is between −20 and +20, and not 0."
    section.modifier.setValue(2)
    section.modifier_rounds.setValue(3)
    section.add_modifier.click()
    assert panel.message_text() == ""
    effect = document.state.effects["e2"]
    assert (effect.target, effect.remaining, effect.name) == (BORA, 3, "Initiative +2")


def test_the_panel_fits_its_dock_in_light_and_dark(qtbot: QtBot, host: QWidget, tmp_path: Path) -> None:
    application = QApplication.instance()
    assert isinstance(application, QApplication)
    document = EncounterDocument(sample())
    panel = _panel(qtbot, host, document, BANDIT_1)
    for section in panel._game_sections:
        assert section.minimumSizeHint().width() <= 320, type(section).__name__
    for theme in ("light", "dark"):
        apply_theme(application, theme)
        for folder in filter(None, (str(tmp_path), SHOTS)):
            assert host.grab().save(str(Path(folder) / f"souboj_panel_{theme}.png"))
    apply_theme(application, "light")


def test_the_shadow_clock_is_chosen_in_the_panel_and_the_details_say_what_fades_when(qtbot: QtBot,
                                                                                     host: QWidget) -> None:
    history = new_history("souboj", "Camp")
    history.do(AddCombatant("c1", "Aleš", Side.PLAYER, frozen_map({"hit_points": 20})))
    document = EncounterDocument(history)
    panel = _panel(qtbot, host, document, "c1")
    section = _section(panel, FightSection)
    assert isinstance(section, FightSection)
    assert section.shadow_clock.currentData() == "per_wound"
    document.apply(ApplyHarm("c1", "shadow", 8))
    document.apply(TimePasses(100))
    document.apply(ApplyHarm("c1", "shadow", 4))
    assert panel.condition.notes_text().count("Shadow wound of") == 2
    assert "Shadow wound of 8: −6 in 50 rounds" in panel.condition.notes_text()
    _choose(section.shadow_clock, "per_creature")
    assert document.state.options["shadow_clock"] == "per_creature"
    assert "Shadow wound of" not in panel.condition.notes_text()
    document.undo_stack.undo()
    assert section.shadow_clock.currentData() == "per_wound"
    assert "Shadow wound of 4: −3 in 60 rounds" in panel.condition.notes_text()


def test_round_one_with_the_readier_side_first_is_a_preset_of_the_whole_fight_section(qtbot: QtBot,
                                                                                      host: QWidget) -> None:
    history = new_history("souboj", "Camp")
    history.do(AddCombatant("c1", "Aleš", Side.PLAYER, frozen_map({"hit_points": 20})))
    history.do(AddCombatant("c2", "Wolf", Side.OPPONENT, frozen_map({"hit_points": 8})))
    document = EncounterDocument(history)
    panel = _panel(qtbot, host, document, "c1")
    section = _section(panel, FightSection)
    assert isinstance(section, FightSection)
    _choose(section.surprise, "readier_first")
    assert section.attackers.isEnabled()
    document.apply(RollInitiative(frozen_map({"c1": (6,), "c2": (1,)}), frozen_map()))
    assert document.state.clock.current is not None
    assert document.state.clock.current.ids == ("c2",)  # the wolves were readier: 1 before 6 in round 1


def test_the_gm_grants_one_more_action_in_one_click_and_the_budget_shows_the_minor_ones(qtbot: QtBot,
                                                                                        host: QWidget) -> None:
    document = EncounterDocument(sample())
    document.apply(SetAttribute(BORA, "minor_actions", 1))
    panel = _panel(qtbot, host, document, BORA)
    section = _round(panel)
    assert section.grant_row.isVisibleTo(section)
    assert set(panel.budget.buttons) == {"action", "minor"}
    section.grant_minor.click()
    assert document.history.entries[-1].text() == "The GM grants Bora one more minor action this round."
    assert panel.budget._labels["minor"].text() == "minor action: 2 of 2 left"
    section.grant_major.click()
    assert document.history.entries[-1].text() == "The GM grants Bora one more action this round."
