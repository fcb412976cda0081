"""Each attack dialog's chart answers the dialog's question with the rules' numbers, follows a modifier at once,
and marks the outcome rolled, the same one the odds table marks."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from app.document import EncounterDocument
from rules.dice import Roller
from rules.systems.clovek.dice import SkillKind
from rules.systems.clovek.odds import OUTCOMES, outcome_odds, roll_odds
from rules.systems.institut import attack_outcome_distribution as institut_outcomes
from rules.systems.institut.combat import Defence
from rules.systems.institut.odds import pool_total, wound_class_distribution
from rules.systems.institut.pyramid import CLASSES
from rules.systems.souboj import attack_odds
from rules.systems.souboj.model import Kind
from rules.systems.souboj.sample import sample as souboj_sample
from rules.systems.sr3.levels import LEVEL_BOXES, LEVELS
from rules.systems.sr3.odds import attack_outcome_distribution
from rules.systems.walka.contest import Outcome
from rules.systems.walka.odds import hp_loss_distribution, outcome_chances
from rules.systems.walka.sample import sample as walka_sample
from tests.ui.test_clovek_attack import duel
from tests.ui.test_institut_attack import fight as institut_fight
from tests.ui.test_sr3_attack import fight as sr3_fight
from tests.ui.test_sr3_attack import snot_is_armored_and_lightly_hurt, type_dice, wedge
from ui.charts.odds_chart import OddsChart
from ui.charts.odds_data import View
from ui.games.clovek.attack import ClovekCheckDialog
from ui.games.institut.attack import InstitutAttackDialog
from ui.games.souboj.attack import SoubojAttackDialog
from ui.games.sr3.attack import Sr3AttackDialog
from ui.games.sr3.odds import ORDER
from ui.games.walka.attack import WalkaAttackDialog
from ui.widgets.odds_table import OddsTable

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support propagateSizeHints\(\)")

TOLERANCE = 1e-12


def same_outcomes(chart: OddsChart, table: OddsTable) -> None:
    """The chart's bars are the table's rows: the same names and chances (in the chart's own order)."""
    data = chart.data()
    assert data is not None
    rows = dict(table.outcomes())
    assert set(data.names) == set(rows)
    assert chart.heights() == pytest.approx([rows[name] for name in data.names], abs=TOLERANCE)


def marked_alike(chart: OddsChart, table: OddsTable) -> None:
    """The chart marks the outcome the table marks, by colour."""
    assert table.highlighted() is not None
    assert chart.highlighted() == table.highlighted()
    data = chart.data()
    assert data is not None
    index = data.index_of(chart.highlighted())
    assert index is not None and chart.bars.bar_brush(index) == chart.bars.colours().highlight


# --- Shadowrun 3 ---------------------------------------------------------------------------------------


def _sr3_expected(dialog: Sr3AttackDialog) -> dict[str, float]:
    sheet, dice = dialog.sheet, dialog.dice
    assert sheet is not None
    return attack_outcome_distribution(dice.skill.value() + dice.attack_pool.value(), sheet.attack_tn.value,
                                       dice.dodge.value(), sheet.dodge_tn.value,
                                       dice.body.value() + dice.resist_pool.value(), sheet.resist_tn, sheet.level)


def test_sr3_chart_is_the_attacks_odds_and_follows_a_modifier(qtbot: QtBot) -> None:
    document, _ids = sr3_fight(*snot_is_armored_and_lightly_hurt())
    dialog = Sr3AttackDialog(document, Roller.seeded(1))
    qtbot.addWidget(dialog)
    wedge(dialog)
    dialog.dice.skill.setValue(6)
    dialog.dice.dodge.setValue(2)
    expected = _sr3_expected(dialog)
    assert dialog.chart.heights() == pytest.approx([expected[key] for key in ORDER], abs=TOLERANCE)
    same_outcomes(dialog.chart, dialog.dice.odds)
    data = dialog.chart.data()
    assert data is not None and data.measure is not None
    assert data.measure.mean() == pytest.approx(sum(LEVEL_BOXES[level] * expected[level] for level in LEVELS))
    before = dialog.chart.heights()
    dialog.situation.gm.setValue(3)  # the GM makes the shot harder: the chart follows at once
    assert dialog.chart.heights() != before
    assert dialog.chart.heights() == pytest.approx([_sr3_expected(dialog)[key] for key in ORDER], abs=TOLERANCE)


def test_sr3_chart_sweeps_the_attack_dice(qtbot: QtBot) -> None:
    document, _ids = sr3_fight()
    dialog = Sr3AttackDialog(document, Roller.seeded(1))
    qtbot.addWidget(dialog)
    dialog.dice.skill.setValue(4)
    dialog.chart.set_view(View.BY_POOL)
    sheet, dice = dialog.sheet, dialog.dice
    assert sheet is not None
    data = dialog.chart.data()
    assert data is not None and data.sweep is not None and data.sweep.current == 4
    for index, level in enumerate(LEVELS):
        wanted = LEVELS[index:]
        expected = [sum(attack_outcome_distribution(size, sheet.attack_tn.value, dice.dodge.value(),
                                                    sheet.dodge_tn.value, dice.body.value(), sheet.resist_tn,
                                                    sheet.level)[key] for key in wanted)
                    for size in data.sweep.sizes]
        assert list(dialog.chart.curves()[index].chances) == pytest.approx(expected, abs=TOLERANCE), level


def test_sr3_chart_marks_the_rolled_outcome_until_the_next_shot(qtbot: QtBot) -> None:
    document, _ids = sr3_fight(*snot_is_armored_and_lightly_hurt())
    dialog = Sr3AttackDialog(document, Roller.seeded(1))
    qtbot.addWidget(dialog)
    dialog.dice.skill.setValue(6)
    dialog.dice.dodge.setValue(2)
    dialog.dice.resist_pool.setValue(1)
    type_dice(dialog, "5,5,6,4,4,1", "5,6", "5,1,2,3,4")
    dialog.resolve()
    assert dialog.chart.highlighted() == "Serious"
    marked_alike(dialog.chart, dialog.dice.odds)
    dialog.next_attack()
    assert dialog.chart.highlighted() is None


# --- Walka -------------------------------------------------------------------------------------------


def test_walka_chart_is_the_attacks_odds_with_hit_points_lost_as_the_mean(qtbot: QtBot) -> None:
    dialog = WalkaAttackDialog(EncounterDocument(walka_sample()), Roller.seeded(1), target_id="c5")
    qtbot.addWidget(dialog)
    same_outcomes(dialog.chart, dialog.dice.odds)
    hit = outcome_chances(14, 8, 20, 0, 1, 0, 0)[Outcome.HIT]
    loss = hp_loss_distribution(2)  # 3 weapon dice − armor 1; the ganger has 4 Hit Points, more than 2
    data = dialog.chart.data()
    assert data is not None and data.measure is not None
    assert data.measure.mean() == pytest.approx(hit * sum(lost * p for lost, p in enumerate(loss)))
    assert data.ticks[:2] == ("Miss", "Defended")
    before = dialog.chart.heights()
    dialog.modifiers.attack_bonus.setValue(2)
    assert dialog.chart.heights() != before
    same_outcomes(dialog.chart, dialog.dice.odds)


def test_walka_chart_marks_the_rolled_outcome(qtbot: QtBot) -> None:
    dialog = WalkaAttackDialog(EncounterDocument(walka_sample()), Roller.seeded(1), target_id="c5")
    qtbot.addWidget(dialog)
    dialog.dice.attack_entry.set_faces_text("9, 3")
    dialog.dice.defence_entry.set_faces_text("11")
    dialog.dice.damage_entry.set_faces_text("6, 2")
    dialog.resolve()
    assert dialog.chart.highlighted() == "Hit, 1 Hit Point lost"
    marked_alike(dialog.chart, dialog.dice.odds)
    dialog.next_attack()
    assert dialog.chart.highlighted() is None


# --- Souboj ------------------------------------------------------------------------------------------


def test_souboj_chart_is_the_hit_chance_and_damage(qtbot: QtBot) -> None:
    dialog = SoubojAttackDialog(EncounterDocument(souboj_sample()), Roller.seeded(5), "c1", "c5")
    qtbot.addWidget(dialog)
    dialog.defence_box.other.setValue(10)  # a shield wall, so that the attack can miss
    expected = attack_odds(14, 17, Kind.MELEE, 8, 1)
    assert dialog.chart.heights() == pytest.approx([expected.miss, *expected.damage.values()], abs=1e-12)
    same_outcomes(dialog.chart, dialog.odds)
    data = dialog.chart.data()
    assert data is not None and data.measure is not None
    assert data.measure.mean() == pytest.approx(sum(dealt * p for dealt, p in expected.damage.items()))
    assert data.ticks == ("Miss", *(str(dealt) for dealt in expected.damage))


def test_souboj_chart_marks_the_rolled_outcome(qtbot: QtBot) -> None:
    dialog = SoubojAttackDialog(EncounterDocument(souboj_sample()), Roller.seeded(5), "c1", "c5")
    qtbot.addWidget(dialog)
    dialog.attack_entry.set_faces_text("2")
    dialog.defence_entry.set_faces_text("5")
    dialog.resolve()
    assert dialog.chart.highlighted() == "11 damage → dying"
    marked_alike(dialog.chart, dialog.odds)


# --- Institute ---------------------------------------------------------------------------------------


def test_institut_chart_is_the_attacks_odds_and_the_damage_rolls_mean(qtbot: QtBot) -> None:
    document, _ids = institut_fight()
    dialog = InstitutAttackDialog(document, Roller.seeded(1))
    qtbot.addWidget(dialog)
    page = dialog.attack
    page.damage.setValue(6)
    expected = institut_outcomes(5, Defence.DODGE, 2, 6)
    assert page.chart.heights() == pytest.approx([expected[key] for key in ("miss", "none", *CLASSES)],
                                                 abs=TOLERANCE)
    same_outcomes(page.chart, page.odds)
    data = page.chart.data()
    assert data is not None and data.measure is not None
    assert data.measure.mean() == pytest.approx(6 * 3.5)
    assert data.ticks[:2] == ("Dodged", "No wound")
    page.damage.setValue(8)
    assert page.chart.heights() == pytest.approx(
        [institut_outcomes(5, Defence.DODGE, 2, 8)[key] for key in ("miss", "none", *CLASSES)], abs=TOLERANCE)


def test_institut_chart_marks_the_rolled_outcome_and_keeps_the_odds_of_that_roll(qtbot: QtBot) -> None:
    document, _ids = institut_fight()
    dialog = InstitutAttackDialog(document, Roller.seeded(1))
    qtbot.addWidget(dialog)
    page = dialog.attack
    page.damage.setValue(4)
    before = page.chart.heights()
    page.attack_entry.set_faces_text("6, 5, 4, 3, 2")
    page.defence_entry.set_faces_text("3, 3")
    page.damage_entries[0].set_faces_text("6, 5, 1, 1")
    dialog.resolve()
    assert page.chart.highlighted() == "Medium"
    marked_alike(page.chart, page.odds)
    assert page.chart.heights() == before  # the odds of the roll just made, until the next one


def test_institut_explosion_and_grenade_pages_chart_their_odds(qtbot: QtBot) -> None:
    document, _ids = institut_fight()
    dialog = InstitutAttackDialog(document, Roller.seeded(1))
    qtbot.addWidget(dialog)
    dialog.tabs.setCurrentWidget(dialog.blast)
    dialog.blast.damage.setValue(5)
    classes = wound_class_distribution(5)
    assert dialog.blast.chart.heights() == pytest.approx([classes[None], *(classes[key] for key in CLASSES)])
    blast = dialog.blast.chart.data()
    assert blast is not None and blast.measure == pool_total(5)
    dialog.tabs.setCurrentWidget(dialog.grenade)
    same_outcomes(dialog.grenade.chart, dialog.grenade.odds)
    assert dialog.grenade.chart.data() is not None


# --- Člověk ------------------------------------------------------------------------------------------


def test_clovek_charts_are_the_outcome_and_power_odds(qtbot: QtBot) -> None:
    dialog = ClovekCheckDialog(duel(), Roller.seeded(1), attacker_id="c")
    qtbot.addWidget(dialog)
    dialog.roll_box.skill.setValue(3)
    dialog.roll_box.dice.setValue(4)
    expected = outcome_odds(roll_odds(4, 3, SkillKind.ABILITY))
    assert dialog.outcome_chart.heights() == pytest.approx([expected[key] for key in OUTCOMES], abs=TOLERANCE)
    same_outcomes(dialog.outcome_chart, dialog.outcome_odds)
    assert not dialog.charts.isTabEnabled(1)  # no power roll yet
    dialog.roll_box.bonus.setValue(2)
    with_bonus = outcome_odds(roll_odds(4, 3, SkillKind.ABILITY), bonus=2)
    assert dialog.outcome_chart.heights() == pytest.approx([with_bonus[key] for key in OUTCOMES], abs=TOLERANCE)
    dialog.power_box.source.setCurrentIndex(1)
    assert dialog.charts.isTabEnabled(1)
    same_outcomes(dialog.power_chart, dialog.power_odds)


def test_clovek_chart_sweeps_the_dice_risked(qtbot: QtBot) -> None:
    dialog = ClovekCheckDialog(duel(), Roller.seeded(1), attacker_id="c")
    qtbot.addWidget(dialog)
    dialog.roll_box.skill.setValue(2)
    dialog.roll_box.dice.setValue(3)
    dialog.outcome_chart.set_view(View.BY_POOL)
    data = dialog.outcome_chart.data()
    assert data is not None and data.sweep is not None
    basic_or_better = [1 - sum(outcome_odds(roll_odds(size, 2, SkillKind.ABILITY))[key] for key in
                               ("critical", "failure")) for size in data.sweep.sizes]
    assert list(dialog.outcome_chart.curves()[0].chances) == pytest.approx(basic_or_better, abs=1e-9)


def test_clovek_charts_mark_the_rolled_outcome_and_power(qtbot: QtBot) -> None:
    document = duel()
    dialog = ClovekCheckDialog(document, Roller.seeded(1), attacker_id="c", target_id="a")
    qtbot.addWidget(dialog)
    dialog.roll_box.skill_name.setText("Fencing")
    dialog.roll_box.skill.setValue(3)
    dialog.roll_box.dice.setValue(3)
    dialog.defends.setChecked(True)
    dialog.defence_box.skill.setValue(2)
    dialog.defence_box.dice.setValue(2)
    dialog.power_box.source.setCurrentIndex(1)
    dialog.roll_entry.set_faces_text("9, 9, 10+3")
    dialog.defence_entry.set_faces_text("1, 10+1")
    dialog.power_entry.set_faces_text("7, 2")
    dialog.resolve()
    marked_alike(dialog.outcome_chart, dialog.outcome_odds)
    assert dialog.power_chart.highlighted() == "Power 3"
    marked_alike(dialog.power_chart, dialog.power_odds)
    dialog.next_attack()
    assert dialog.outcome_chart.highlighted() is None and dialog.power_chart.highlighted() is None
