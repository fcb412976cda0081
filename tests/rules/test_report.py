"""The printed summary's rows, derived from the history: a scripted three-round SR3 fight and one fight per game."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from rules.combatants import AddCombatant, ApplyHarm, RemoveCombatant
from rules.dice import Roller
from rules.encounter import Side, Status, frozen_map
from rules.history import Batch, History
from rules.report import (
    NOTABLE_COUNT,
    Fall,
    Participant,
    Summary,
    harm_text,
    heading_text,
    log_groups,
    prep_rows,
    summarize,
)
from rules.systems import all_systems, get_system
from rules.systems.clovek.sample import sample as clovek_sample
from rules.systems.institut.sample import sample as institut_sample
from rules.systems.souboj.sample import sample as souboj_sample
from rules.systems.sr3 import Sr3Attack
from rules.systems.walka import SpendChance, WalkaAttack
from rules.systems.walka.sample import sample as walka_sample
from rules.turns import NextTurn, roll_initiative
from tests.rules.sr3_scenes import eight_characters, play_round, roll_ones
from tests.rules.test_institut_rules import started as institut_started
from tests.rules.test_sr3_scripted_fight import _first_round, _second_pass, chains
from tests.rules.test_walka_scenes import roll as walka_roll
from tests.rules.test_walka_scenes import table as walka_table

SR3 = get_system("sr3")


def three_round_fight() -> History:
    """The scripted SR3 fight of test_sr3_scripted_fight: a surprise round, wounds, a grenade, 3 combat turns."""
    history, ids = eight_characters()
    _first_round(history, ids)
    _second_pass(history, ids)
    roller = Roller.seeded(2026)
    for _round in (2, 3):
        history.do(roll_initiative(history.state, SR3, roller))
        play_round(history)
    return history


def by_name(summary: Summary) -> dict[str, Participant]:
    return {participant.name: participant for participant in summary.participants}


def log_lines(history: History) -> list[str]:
    return [line.render() for entry in history.entries for line in entry.log]


# --- the scripted SR3 fight -----------------------------------------------------------------------


def test_the_fight_counts_its_rounds_passes_and_turns_as_the_log_tells_them() -> None:
    history = three_round_fight()
    summary = summarize(history)
    lines = log_lines(history)
    turns = [line for line in lines if " acts in phase " in line or line.endswith("takes the delayed action.")]
    later_passes = [line for line in lines if line.startswith("Initiative pass ")]
    assert summary.name == "Seed example" and summary.system_id == "sr3"
    assert summary.rounds == 3
    assert summary.passes == 3 + len(later_passes)
    assert summary.turns == len(turns) > 20


def test_damage_dealt_and_taken_is_credited_to_the_attacker() -> None:
    people = by_name(summarize(three_round_fight()))
    # Ganger 1: Richie Serious (6) in pass 1 and Dave Moderate (3) in pass 2; the grenade's 3 boxes are nobody's.
    assert dict(people["Ganger 1"].dealt) == {"Physical": 9}
    assert dict(people["Ganger 1"].taken) == {"Physical": 3}
    assert dict(people["Mike"].dealt) == {"Physical": 6} and dict(people["Mike"].taken) == {"Physical": 6}
    assert dict(people["Ganger 2"].taken) == {"Physical": 12}  # Mike's Serious + the grenade's 6
    assert dict(people["Ganger 3"].dealt) == {"Physical": 6}
    assert dict(people["Sharon"].dealt) == {} and dict(people["Sharon"].taken) == {}
    total_dealt = sum(sum(p.dealt.values()) for p in people.values())
    assert total_dealt == 9 + 6 + 3 + 6  # everything but the grenade (ApplyHarm names no attacker)


def test_start_and_final_conditions_and_who_fell_when() -> None:
    summary = summarize(three_round_fight())
    people = by_name(summary)
    assert [p.name for p in summary.participants][:5] == ["Mike", "Dave", "Sharon", "Richie", "Camilla"]
    assert all(p.side is Side.OPPONENT for p in summary.participants[5:])
    assert all(p.start.text() == "Unhurt" for p in summary.participants)
    ganger = people["Ganger 2"]
    assert ganger.end.status is Status.DYING
    assert ganger.end.text() == "Physical 12/10 · Dying"
    assert ganger.falls == (Fall(1, 2, Status.DYING, None),)
    assert ganger.falls[0].text() == "Dying (Round 1 · initiative pass 2)"
    assert people["Mike"].end.text(every_track=True) == "Physical 6/10 · Stun 0/10"
    assert "TN +3, initiative −3" in people["Mike"].end.notes
    assert [p.name for p in summary.participants if p.falls] == ["Ganger 2"]


def test_the_log_is_grouped_as_the_log_panel_groups_it() -> None:
    history = three_round_fight()
    groups = summarize(history).log
    assert [line for group in groups for entry in group.entries for line in entry] == [
        line for entry in history.entries for line in entry.log]
    assert groups[0].heading() == "Before the fight"
    assert groups[1].heading() == "Round 1 · initiative pass 1"
    assert all((a.round, a.pass_no) != (b.round, b.pass_no) for a, b in itertools.pairwise(groups))
    assert heading_text(2, 0) == "Round 2 · between rounds"


def test_an_ordinary_fight_has_no_notable_moments() -> None:
    # Every attack of the script landed about as expected (each tail chance is above a quarter).
    assert summarize(three_round_fight()).moments == ()


# --- notable moments, batches, comings and goings -----------------------------------------------------


def _shooting_range() -> tuple[History, dict[str, str]]:
    history, ids = eight_characters()
    roll_ones(history, ids)
    return history, ids


def test_the_least_likely_outcomes_are_notable_with_their_probability() -> None:
    history, ids = _shooting_range()
    # Six dice at TN 4 all showing 1: a miss with chance (1/2)⁶, the least likely outcome there is.
    history.do(Sr3Attack(ids["Mike"], ids["Ganger 1"], "Ares Predator", 9, "M", 4, chains(1, 1, 1, 1, 1, 1), 4,
                         chains(1, 1, 1, 1)))
    moments = summarize(history).moments
    assert len(moments) == 1
    assert moments[0].probability == pytest.approx(float(Fraction(1, 64)), abs=1e-12)
    assert moments[0].log[0].render() == "Mike attacks Ganger 1 with Ares Predator (9M)."
    assert (moments[0].round, moments[0].pass_no) == (1, 1)


def test_at_most_the_rarest_few_are_kept_in_the_order_they_happened() -> None:
    history, ids = _shooting_range()
    for dice in range(2, 9):  # misses ever less likely: (1/2)^dice
        history.do(Sr3Attack(ids["Mike"], ids["Ganger 1"], f"Shot {dice}", 9, "M", 4, chains(*[1] * dice), 4,
                             chains(1)))
    moments = summarize(history).moments
    assert len(moments) == NOTABLE_COUNT
    assert [m.log[0].args["weapon"] for m in moments] == [f"Shot {dice}" for dice in range(4, 9)]


def test_an_attack_inside_a_batch_is_credited_like_any_other() -> None:
    history, ids = _shooting_range()
    attack = Sr3Attack(ids["Mike"], ids["Ganger 1"], "Ares Predator", 9, "M", 4, chains(6, 6, 5, 5), 4, chains(1))
    history.do(Batch((attack, NextTurn()), "Shoot and pass"))
    people = by_name(summarize(history))
    assert dict(people["Mike"].dealt) == {"Physical": 10}  # 4 net successes stage M twice, to Deadly
    assert people["Ganger 1"].falls == (Fall(1, 1, Status.DYING, "Mike"),)


def test_someone_who_joins_or_leaves_mid_fight_is_still_in_the_summary() -> None:
    history, ids = _shooting_range()
    history.do(AddCombatant("late", "Latecomer", Side.ALLY, frozen_map({"body": 5})))
    history.do(RemoveCombatant(ids["Camilla"]))
    people = by_name(summarize(history))
    assert people["Latecomer"].start.text() == "Unhurt" and not people["Latecomer"].left
    assert people["Camilla"].left and "Camilla" in [p.name for p in summarize(history).participants]


def test_a_fight_not_started_yet_starts_and_ends_as_it_is_now() -> None:
    history, _ids = eight_characters()
    summary = summarize(history)
    assert (summary.rounds, summary.passes, summary.turns) == (0, 0, 0)
    assert len(summary.participants) == 8 and summary.moments == ()
    assert log_groups(history.entries)[0].heading() == "Before the fight"


# --- who is out of the fight: the final condition decides ------------------------------------------------


def chance_spent() -> History:
    """Walka, round 1: Kira shot to 0 Hit Points spends her Chance; Ganger 2 at 0 spends none."""
    history, ids = walka_table()
    walka_roll(history, Ania=1, Bartek=5, Celina=7, GM=9)  # Ania's seat acts: the gangers shoot out of turn
    history.do(ApplyHarm(ids["Kira"], "hp", 4))
    history.do(WalkaAttack(ids["Ganger 1"], ids["Kira"], "firearms", 12, "dodge", 8, attack_faces=(3,),
                           defence_faces=(11,), weapon="Pistol", weapon_dice=3, damage_faces=(6, 5, 4),
                           counts_as_action=False))  # Kira at 0 Hit Points: unconscious …
    history.do(SpendChance(ids["Kira"]))  # … unless she spends a Chance: she does
    history.do(ApplyHarm(ids["Ganger 2"], "hp", 6))
    return history


def test_a_walka_character_who_spends_a_chance_is_back_in_the_fight_and_one_who_does_not_stays_out() -> None:
    people = by_name(summarize(chance_spent()))
    kira, ganger = people["Kira"], people["Ganger 2"]
    assert kira.end.status is Status.ACTIVE and kira.end.text() == "Hit Points lost 6/6"
    assert kira.falls == (Fall(1, 1, Status.UNCONSCIOUS, "Ganger 1", recovered=(1, 1)),)
    assert kira.falls[0].text() == "Unconscious (Round 1, by Ganger 1); back in the fight (Round 1)"
    assert ganger.end.status is Status.UNCONSCIOUS
    assert ganger.falls == (Fall(1, 1, Status.UNCONSCIOUS, None),)
    assert ganger.falls[0].text() == "Unconscious (Round 1)"


def test_an_institute_agent_healed_from_dying_is_back_in_the_fight_until_the_next_fall() -> None:
    history, ids = institut_started()
    sokolov = ids["Sokolov"]
    history.do(ApplyHarm(sokolov, "mortal", 1))  # a filled Mortal box: dying
    history.do(NextTurn())
    history.do(ApplyHarm(sokolov, "mortal", -1))  # first aid: the box is free again
    [fall] = by_name(summarize(history))["Sokolov"].falls
    assert fall == Fall(1, 1, Status.DYING, None, recovered=(1, 1))
    assert by_name(summarize(history))["Sokolov"].end.text() == "Unhurt"
    history.do(ApplyHarm(sokolov, "mortal", 1))  # down again, and this time for good
    agent = by_name(summarize(history))["Sokolov"]
    assert agent.end.status is Status.DYING
    assert [f.recovered for f in agent.falls] == [(1, 1), None]
    assert agent.falls[1].text() == "Dying (Round 1)"


# --- one fight per game ---------------------------------------------------------------------------------


def test_walka_sample() -> None:
    summary = summarize(walka_sample())
    people = by_name(summary)
    assert harm_text(people["Kira"].dealt) == "Hit Points lost 2"
    assert harm_text(people["Ganger 1"].taken) == "Hit Points lost 2"
    assert harm_text(people["Ganger 1"].dealt) == "Hit Points lost 1" == harm_text(people["Wedge"].taken)
    assert people["Wedge"].end.text() == "Hit Points lost 1/10"
    # Both hits are notable: 1 HP of a 1-die pool (P = 0.2 at the extreme), 2 of 2 dice (0.1225).
    assert [round(m.probability, 4) for m in summary.moments] == [0.2, 0.1225]


def test_souboj_sample() -> None:
    people = by_name(summarize(souboj_sample()))
    assert dict(people["Chief Radim"].dealt) == {"Wounds": 4} and dict(people["Cyril"].taken) == {"Wounds": 4}
    assert dict(people["Bora"].dealt) == {"Wounds": 7}  # the fire bolt: a spell credits its caster too
    assert people["Bandit 1"].end.text() == "Wounds 7/16"


def test_institut_sample_keeps_harm_before_the_fight_out_of_the_damage_taken() -> None:
    summary = summarize(institut_sample())
    people = by_name(summary)
    bandit = people["Bandit 1"]
    assert bandit.start.text() == "Light 2/4"  # the chase before the fight
    assert dict(bandit.taken) == {"Heavy": 2, "Critical": 1} == dict(people["Sokolov"].dealt)
    assert bandit.end.text() == "Light 2/4 · Heavy 2/2 · Critical 1/1"
    assert [m.log[0].render() for m in summary.moments] == ["Sokolov attacks Bandit 1 with AK-74: 16 points."]


def test_clovek_sample() -> None:
    people = by_name(summarize(clovek_sample()))
    assert dict(people["Adriana"].dealt) == {"Physical wounds": 7} == dict(people["Cesare"].taken)
    assert people["Dante"].start.text() == "Mental stun 1/10" and dict(people["Dante"].taken) == {}


@pytest.mark.parametrize("system_id", list(all_systems()))
def test_every_sample_summarizes_everyone_in_it(system_id: str) -> None:
    history = get_system(system_id).sample()
    summary = summarize(history)
    assert sorted(p.id for p in summary.participants) == sorted(history.state.combatants)
    assert summary.rounds == 1 and summary.turns >= 1


# --- the prep sheet ---------------------------------------------------------------------------------


def test_prep_rows_give_stat_lines_pools_blank_tracks_and_notes() -> None:
    history = institut_sample()
    rows = {row.name: row for row in prep_rows(history.state, history.system)}
    sokolov = rows["Sokolov"]
    assert " ".join(stat.text() for stat in sokolov.stats).startswith("Agi 4 Thi 3 Str 3 Ath 2 Sho 6")
    assert [track.text() for track in sokolov.tracks] == [
        "Light 0/4", "Medium 0/3", "Heavy 0/2", "Critical 0/1", "Mortal 0/1"]
    assert sokolov.notes == "AK-74: 7 dice, burst 3/2; body armor 2" and sokolov.now is None
    bandit = rows["Bandit 1"]
    assert all(track.marked == 0 for track in bandit.tracks)  # blank, to fill in at the table
    assert bandit.now is not None and "Light 2/4" in bandit.now.text()


def test_prep_rows_list_pools_and_what_initiative_rolls() -> None:
    history, _ids = eight_characters()
    rows = prep_rows(history.state, SR3)
    mike = rows[0]
    assert mike.name == "Mike" and mike.initiative == "36 + 1d6"
    assert mike.pools == (("combat", 6),)
    assert [row.side for row in rows] == sorted((row.side for row in rows),
                                                key=lambda side: SR3.default_side_order().index(side))


def test_an_optional_attribute_at_its_default_is_left_off_the_prep_sheet() -> None:
    """SR3's karma pool (0) and run multiplier (3) are optional: at their defaults they are not printed, so the
    sample's eight combatants fit one page; a karma pool of 4 is printed."""
    from rules.combatants import SetAttribute
    from rules.report import prep_rows
    from rules.systems import get_system

    system = get_system("sr3")
    history = system.sample()
    first = next(iter(history.state.combatants))
    shown = {stat.abbreviation for stat in prep_rows(history.state, system)[0].stats}
    assert "Karma" not in shown and "Run×" not in shown and "B" in shown
    history.do(SetAttribute(first, "karma_pool", 4))
    row = next(row for row in prep_rows(history.state, system) if row.name == history.state.combatant(first).name)
    assert ("Karma", 4) in {(stat.abbreviation, stat.value) for stat in row.stats}
