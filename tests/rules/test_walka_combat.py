"""Walka's opposed test and damage (walka.md, "Tests" and "Damage"): every statement is a test."""

from __future__ import annotations

import pytest

from rules.combatants import ApplyHarm, SetDamage, SetOption
from rules.encounter import Combatant, Encounter, JsonValue, Status, frozen_map
from rules.errors import OperationError, RulesError
from rules.history import History
from rules.serialize import history_from_document, history_to_document, operation_from_data, to_data
from rules.systems.walka import SYSTEM, SetDying, SpendChance, WalkaAction, WalkaAttack
from rules.systems.walka.actions import aimed_twice_now
from rules.systems.walka.contest import Outcome, contest, damage_pool, hit_points_removed, kept_face
from rules.systems.walka.outcomes import attack_probability, outcome_probability
from tests.rules.test_walka_scenes import acting, roll, table


def kira_acts(options: dict[str, JsonValue] | None = None) -> tuple[History, dict[str, str]]:
    history, ids = table(options)
    roll(history, Ania=1, Bartek=5, Celina=7, GM=9)
    assert acting(history) == ["Kira", "Drone"]
    return history, ids


def attack(ids: dict[str, str], attack_faces: tuple[int, ...], defence_faces: tuple[int, ...] = (),
           defence: str = "dodge", **changes: object) -> WalkaAttack:
    """Kira (Firearms 12, pistol 3 dice) shoots Ganger 1 (Dodge 8, 6 Hit Points)."""
    fields: dict[str, object] = {"attack_faces": attack_faces, "defence_faces": defence_faces,
                                 "weapon": "Pistol", "weapon_dice": 3, **changes}
    return WalkaAttack(ids["Kira"], ids["Ganger 1"], "firearms", 12, defence, 8, **fields)  # type: ignore[arg-type]


def hp_lost(history: History, ids: dict[str, str], name: str = "Ganger 1") -> int:
    return history.state.combatant(ids[name]).boxes("hp")


# --- the opposed roll-under test --------------------------------------------------------------------


@pytest.mark.parametrize(("attack_roll", "defence_roll", "expected"), [
    (7, 9, Outcome.HIT),  # both succeed: the lowest successful roll wins
    (7, 5, Outcome.DEFENDED),
    (7, 7, Outcome.DEFENDED),  # a tie goes to the defender
    (7, 15, Outcome.HIT),  # only the attacker succeeds
    (15, 5, Outcome.MISSED),  # only the defender succeeds
    (15, 16, Outcome.MISSED),  # neither succeeds: the attack fails
    (12, 11, Outcome.HIT),  # a roll equal to the skill succeeds (defender's 11 fails against 10)
    (13, 11, Outcome.MISSED),
])
def test_lowest_successful_roll_wins_ties_to_the_defender(attack_roll: int, defence_roll: int,
                                                        expected: Outcome) -> None:
    assert contest(attack_roll, 12, defence_roll, 10) is expected


def test_an_unaware_or_immobile_defender_does_not_roll() -> None:
    assert contest(12, 12, None, 18) is Outcome.HIT
    assert contest(13, 12, None, 18) is Outcome.MISSED


@pytest.mark.parametrize(("faces", "bonus", "penalty", "kept"), [
    ((14,), 0, 0, 14),
    ((14, 3), 1, 0, 3),  # a bonus die: keep the lowest
    ((14, 3), 0, 1, 14),  # a penalty die: keep the highest
    ((14,), 2, 2, 14),  # they cancel one for one
    ((5, 9, 2), 3, 1, 2),
    ((5, 9, 2), 1, 3, 9),
])
def test_bonus_and_penalty_dice_cancel_one_for_one(faces: tuple[int, ...], bonus: int, penalty: int,
                                                   kept: int) -> None:
    assert kept_face(faces, bonus, penalty) == kept


def test_the_attack_resolves_the_contest_and_logs_the_dice() -> None:
    history, ids = kira_acts()
    history.do(attack(ids, (7,), (5,)))
    text = history.entries[-1].text()
    assert "Kira attacks Ganger 1 with Pistol (d20, Firearms 12 against Dodge 8)." in text
    assert "Kira rolls 7 against 12: success." in text and "Ganger 1 rolls 5 against 8: success." in text
    assert "Ganger 1 defends" in text and hp_lost(history, ids) == 0


def test_an_attack_with_bonus_and_penalty_dice_keeps_the_right_die() -> None:
    history, ids = kira_acts()
    history.do(attack(ids, (17, 4), (2, 19), attack_bonus=1, defence_penalty=1, damage_faces=(4, 4, 1)))
    text = history.entries[-1].text()
    assert "Kira rolls 17, 4 and keeps 4 against 12: success." in text
    assert "Ganger 1 rolls 2, 19 and keeps 19 against 8: failure." in text
    assert hp_lost(history, ids) == 2


def test_the_number_of_test_dice_is_checked() -> None:
    history, ids = kira_acts()
    with pytest.raises(OperationError, match="Kira rolls 2 dice, not 1"):
        history.do(attack(ids, (7,), (5,), attack_penalty=1))
    with pytest.raises(OperationError, match="d20 cannot show 21"):
        history.do(attack(ids, (21,), (5,)))
    with pytest.raises(OperationError, match="does not defend"):
        history.do(attack(ids, (7,), (5,), defence=""))


def test_a_failed_attack_needs_no_defence_dice() -> None:
    history, ids = kira_acts()
    history.do(attack(ids, (15,), ()))
    text = history.entries[-1].text()
    assert "The attack misses." in text and "Ganger 1 rolls" not in text
    with pytest.raises(OperationError, match="Ganger 1 rolls 1 die, not 0"):
        history.do(attack(ids, (5,), ()))  # a successful attack does need the defender's roll


def test_the_unaware_defender_rolls_nothing_in_the_attack() -> None:
    history, ids = kira_acts()
    history.do(attack(ids, (12,), (), defence="", damage_faces=(6, 6, 6)))
    assert "is unaware or immobile and does not defend" in history.entries[-1].text()
    assert hp_lost(history, ids) == 3


def test_the_test_die_is_a_d20_or_by_option_a_d100() -> None:
    history, ids = kira_acts({"test_die": "100"})
    assert SYSTEM.test_die(history.state) == 100
    history.do(attack(ids, (57,), (80,), die=100))  # Firearms 12 on a d100: 57 fails
    assert "The attack misses." in history.entries[-1].text()
    with pytest.raises(OperationError, match="d20 or a d100"):
        history.do(attack(ids, (5,), (5,), die=12))


def test_the_defence_must_answer_the_attack_skill_as_the_table_says() -> None:
    history, ids = kira_acts()
    with pytest.raises(OperationError, match="Parry does not answer Firearms"):
        history.do(attack(ids, (7,), (5,), defence="parry"))
    history.do(SetOption("defences", frozen_map({"firearms": ("dodge", "parry")})))  # the GM's table
    history.do(attack(ids, (7,), (5,), defence="parry"))
    with pytest.raises(RulesError, match="no defence skill"):
        history.do(SetOption("defences", frozen_map({"firearms": ("duck",)})))


@pytest.mark.parametrize(("skill", "defence", "allowed"), [
    ("melee", "parry", True),  # parry answers melee weapons
    ("melee", "dodge", True),
    ("firearms", "parry", False),
    ("brawling", "parry", False),
    ("interface", "concentration", True),  # concentration answers cyber-attacks
    ("interface", "dodge", False),
    ("firearms", "concentration", False),
])
def test_which_defence_answers_which_attack(skill: str, defence: str, allowed: bool) -> None:
    history, ids = kira_acts()
    operation = WalkaAttack(ids["Kira"], ids["Ganger 1"], skill, 12, defence, 8, (15,), ())
    if allowed:
        history.do(operation)
        assert "The attack misses." in history.entries[-1].text()
    else:
        with pytest.raises(OperationError, match="does not answer"):
            history.do(operation)


def test_only_the_listed_defences_by_default() -> None:
    defences = SYSTEM.defences(table()[0].state)
    assert defences == {"firearms": ("dodge",), "melee": ("dodge", "parry"), "brawling": ("dodge",),
                        "interface": ("concentration",)}


# --- damage ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("weapon", "modifiers", "armor", "aimed", "pool"), [
    (3, 0, 0, False, 3),
    (3, 2, 1, False, 4),  # weapon dice + modifiers − armor
    (2, 0, 5, False, 0),  # never below 0
    (3, 1, 2, True, 4),  # aim doubles the pool
    (2, 0, 5, True, 0),
])
def test_damage_pool(weapon: int, modifiers: int, armor: int, aimed: bool, pool: int) -> None:
    assert damage_pool(weapon, modifiers, armor, aimed) == pool


def test_each_die_showing_four_or_more_removes_one_hit_point() -> None:
    assert hit_points_removed((1, 2, 3)) == 0
    assert hit_points_removed((4, 5, 6, 3)) == 3


def test_a_hit_rolls_the_pool_and_removes_hit_points() -> None:
    history, ids = kira_acts()
    history.do(attack(ids, (3,), (11,), damage_modifier=1, armor=1, damage_faces=(6, 2, 4)))
    text = history.entries[-1].text()
    assert "Damage pool 3d6 (3 + 1 − armor 1): 6, 2, 4 removes 2 Hit Points." in text
    assert hp_lost(history, ids) == 2


def test_aimed_damage_doubles_the_pool_dice() -> None:
    history, ids = kira_acts()
    with pytest.raises(OperationError, match="damage pool is 6 dice, not 3"):
        history.do(attack(ids, (3,), (11,), aimed=True, damage_faces=(6, 2, 4)))
    history.do(attack(ids, (3,), (11,), aimed=True, damage_faces=(6, 2, 4, 1, 1, 5)))
    assert "× 2, aimed" in history.entries[-1].text() and hp_lost(history, ids) == 3


def test_aim_doubles_after_armor_or_by_option_before_it() -> None:
    # walka.md: "Aim doubles the pool: Decision: the pool after armor is doubled (default, since the pool is
    # defined after armor); option: before armor."
    assert damage_pool(3, 0, 1, aimed=True) == 4  # (3 − 1) × 2
    assert damage_pool(3, 0, 1, aimed=True, before_armor=True) == 5  # 3 × 2 − 1
    assert damage_pool(1, 0, 3, aimed=True, before_armor=True) == 0  # never below 0
    assert damage_pool(3, 0, 1, aimed=False, before_armor=True) == 2  # no aim, nothing to double
    history, ids = kira_acts({"aim_doubles": "before_armor"})
    with pytest.raises(OperationError, match="damage pool is 5 dice, not 4"):
        history.do(attack(ids, (3,), (11,), armor=1, aimed=True, damage_faces=(6, 2, 4, 1)))
    history.do(attack(ids, (3,), (11,), armor=1, aimed=True, damage_faces=(6, 2, 4, 1, 5)))
    assert "((3) × 2 − armor 1, aimed)" in history.entries[-1].text() and hp_lost(history, ids) == 3


def test_a_second_aim_before_the_same_attack_does_not_double_again_unless_the_option_says_so() -> None:
    # walka.md Decision: "a second Aim before the same attack does not double again (default: the seed says
    # doubles, once; option: it does)". Kira's pistol: 3 dice, no armor: 6 dice aimed, 12 aimed twice.
    history, ids = kira_acts()
    history.do(WalkaAction(ids["Kira"], "aim"))
    history.do(WalkaAction(ids["Kira"], "aim"))
    assert history.entries[-1].text() == "Kira aims again: a second Aim does not double the pool again."
    assert not aimed_twice_now(history.state.combatant(ids["Kira"]), history.state, "next_round")
    with pytest.raises(OperationError, match="does not double the pool again"):
        history.do(attack(ids, (3,), (11,), aimed=True, aimed_twice=True, counts_as_action=False,
                          damage_faces=(1,) * 12))
    history.do(attack(ids, (3,), (11,), aimed=True, counts_as_action=False, damage_faces=(1,) * 6))

    history, ids = kira_acts({"aim_twice": "again"})
    history.do(WalkaAction(ids["Kira"], "aim"))
    history.do(WalkaAction(ids["Kira"], "aim"))
    assert history.entries[-1].text() == "Kira aims again: the next attack's damage pool is doubled again."
    assert aimed_twice_now(history.state.combatant(ids["Kira"]), history.state, "next_round")
    with pytest.raises(OperationError, match="damage pool is 12 dice, not 6"):
        history.do(attack(ids, (3,), (11,), aimed=True, aimed_twice=True, counts_as_action=False,
                          damage_faces=(1,) * 6))
    history.do(attack(ids, (3,), (11,), aimed=True, aimed_twice=True, counts_as_action=False,
                      damage_faces=(4, 5, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1)))
    assert "Damage pool 12d6 ((3 − armor 0) × 4, aimed twice)" in history.entries[-1].text()
    assert hp_lost(history, ids) == 2
    kira = history.state.combatant(ids["Kira"])
    assert not aimed_twice_now(kira, history.state, "next_round")  # used up by the attack, both
    history.undo()
    assert aimed_twice_now(history.state.combatant(ids["Kira"]), history.state, "next_round")


def test_one_aim_is_not_an_aim_twice_even_where_a_second_would_double_again() -> None:
    history, ids = kira_acts({"aim_twice": "again"})
    history.do(WalkaAction(ids["Kira"], "aim"))
    assert not aimed_twice_now(history.state.combatant(ids["Kira"]), history.state, "next_round")
    assert damage_pool(3, 0, 1, aimed=True, twice=True) == 8  # (3 − 1) × 4
    assert damage_pool(3, 0, 1, aimed=True, before_armor=True, twice=True) == 11  # 3 × 4 − 1


def test_a_roll_equal_to_the_skill_fails_when_the_option_says_under() -> None:
    # walka.md Decision: "a roll succeeds if it is ≤ the skill (option: < the skill)". Kira's Firearms is 12.
    history, ids = kira_acts()
    history.do(attack(ids, (12,), (20,), damage_faces=(1, 1, 1)))
    assert "Kira rolls 12 against 12: success." in history.entries[-1].text()
    history, ids = kira_acts({"test_success": "under"})
    history.do(attack(ids, (12,)))
    assert "Kira rolls 12 against 12: failure." in history.entries[-1].text()
    with pytest.raises(OperationError, match="did not hit"):
        history.do(attack(ids, (12,), (20,), damage_faces=(6, 6, 6)))
    history.do(attack(ids, (11,), (8,), damage_faces=(1, 1, 1)))  # Ganger 1's 8 against Dodge 8 fails: a hit
    assert "Ganger 1 rolls 8 against 8: failure." in history.entries[-1].text()


def test_dying_is_the_gms_status_at_zero_hit_points_only() -> None:
    # walka.md Decision: "any such state is a GM-set status".
    history, ids = kira_acts()
    with pytest.raises(OperationError, match="Only a character unconscious at 0 Hit Points"):
        history.do(SetDying(ids["Ganger 1"]))
    history.do(ApplyHarm(ids["Ganger 1"], "hp", 6))
    history.do(SetDying(ids["Ganger 1"]))
    assert SYSTEM.status(history.state.combatant(ids["Ganger 1"]), history.state) is Status.DYING
    assert operation_from_data(to_data(SetDying(ids["Ganger 1"], False))) == SetDying(ids["Ganger 1"], False)
    history.do(ApplyHarm(ids["Ganger 1"], "hp", -1))  # healed: up and no longer dying
    ganger = history.state.combatant(ids["Ganger 1"])
    assert SYSTEM.status(ganger, history.state) is Status.ACTIVE and "dying" not in ganger.extra


def test_no_damage_dice_without_a_hit() -> None:
    history, ids = kira_acts()
    with pytest.raises(OperationError, match="did not hit"):
        history.do(attack(ids, (15,), (5,), damage_faces=(6, 6, 6)))


def test_unconscious_at_zero_hit_points_unless_a_chance_is_spent() -> None:
    history, ids = kira_acts()
    history.do(ApplyHarm(ids["Ganger 1"], "hp", 4))
    history.do(attack(ids, (3,), (11,), damage_faces=(6, 5, 4)))
    ganger = history.state.combatant(ids["Ganger 1"])
    assert ganger.boxes("hp") == 6 and SYSTEM.status(ganger, history.state) is Status.UNCONSCIOUS
    entry = history.entries[-1]
    assert "Ganger 1 is now Unconscious." in entry.text()
    assert entry.reminders[0].text == "Ganger 1 drops to 0 Hit Points: spend a Chance to stay conscious?"
    assert "1 Chance left to stay conscious" in SYSTEM.condition_notes(ganger, history.state)[1]
    history.do(SpendChance(ids["Ganger 1"]))
    ganger = history.state.combatant(ids["Ganger 1"])
    assert SYSTEM.status(ganger, history.state) is Status.ACTIVE
    assert ganger.pools["chance"].remaining == 0
    assert "Ganger 1 spends a Chance and stays conscious at 0 Hit Points." in history.entries[-1].text()
    assert "Ganger 1 is now Active." in history.entries[-1].text()


def test_hit_points_never_go_below_zero_and_a_new_hit_at_zero_needs_a_new_chance() -> None:
    history, ids = kira_acts()
    history.do(ApplyHarm(ids["Kira"], "hp", 9))
    kira = history.state.combatant(ids["Kira"])
    assert kira.boxes("hp") == 6  # 0 Hit Points, not −3
    history.do(SpendChance(ids["Kira"]))
    history.do(ApplyHarm(ids["Kira"], "hp", 1))
    kira = history.state.combatant(ids["Kira"])
    assert SYSTEM.status(kira, history.state) is Status.UNCONSCIOUS
    with pytest.raises(OperationError, match="no Chance left"):
        history.do(SpendChance(ids["Kira"]))


def test_healing_ends_the_hold_of_a_chance() -> None:
    history, ids = kira_acts()
    history.do(SetDamage(ids["Wedge"], "hp", 6))
    history.do(SpendChance(ids["Wedge"]))
    history.do(ApplyHarm(ids["Wedge"], "hp", -2))
    wedge = history.state.combatant(ids["Wedge"])
    assert "holding_on" not in wedge.extra and SYSTEM.status(wedge, history.state) is Status.ACTIVE


def test_a_chance_only_at_zero_hit_points_and_only_once() -> None:
    history, ids = kira_acts()
    with pytest.raises(OperationError, match="still has Hit Points"):
        history.do(SpendChance(ids["Wedge"]))
    history.do(SetDamage(ids["Wedge"], "hp", 6))
    history.do(SpendChance(ids["Wedge"]))
    with pytest.raises(OperationError, match="already stays conscious"):
        history.do(SpendChance(ids["Wedge"]))


def test_the_hit_points_track_and_the_chance_counter_follow_the_attributes() -> None:
    history, ids = kira_acts()
    kira = history.state.combatant(ids["Kira"])
    assert [(t.key, t.label, t.size) for t in SYSTEM.tracks(kira, history.state)] == [("hp", "Hit Points lost", 6)]
    assert kira.pools["chance"].size == 1
    assert SYSTEM.condition_notes(kira, history.state)[0] == "6 of 6 Hit Points left"


def test_an_unconscious_attacker_cannot_attack_nor_anyone_attack_themself() -> None:
    history, ids = kira_acts()
    history.do(ApplyHarm(ids["Kira"], "hp", 6))
    with pytest.raises(OperationError, match="unconscious"):
        history.do(attack(ids, (3,), (11,)))
    with pytest.raises(OperationError, match="themself"):
        history.do(WalkaAttack(ids["Drone"], ids["Drone"], "firearms", 12, "dodge", 8, (3,), (11,)))


def test_a_whole_attack_replays_from_the_saved_document() -> None:
    history, ids = kira_acts()
    history.do(attack(ids, (17, 4), (2, 19), attack_bonus=1, defence_penalty=1, damage_faces=(4, 4, 1)))
    again = history_from_document(history_to_document(history))
    assert to_data(again.state) == to_data(history.state)


def test_how_unlikely_an_attack_was_reads_the_encounters_options() -> None:
    # The summary's "how unlikely" follows the same rules as the attack: under the skill, aim before armor.
    aimed_hit = attack(kira_acts()[1], (3,), (11,), aimed=True, armor=1, damage_faces=(6, 6, 6, 6))
    for options, under, before_armor in (({}, False, False),
                                         ({"test_success": "under", "aim_doubles": "before_armor"}, True, True)):
        history, _ids = kira_acts(dict(options))
        assert outcome_probability(aimed_hit, history.state, SYSTEM) == attack_probability(
            aimed_hit, before_armor, under)
    plain, strict = (outcome_probability(aimed_hit, kira_acts(dict(options))[0].state, SYSTEM)
                     for options in ({}, {"test_success": "under"}))
    assert plain != strict


def test_parry_uses_the_melee_weapons_skill_by_default_and_its_own_skill_as_an_option() -> None:
    # walka.md Decision: Parry is "rolled with the defender's Melee weapons skill" ("Parowaniem (Broń biała)").
    defender = Combatant("c1", "Wedge", attributes=frozen_map({"melee": 13, "parry": 11, "dodge": 8}))
    encounter = Encounter("walka", "Parry")
    assert SYSTEM.defence_skill(defender, "parry", encounter) == 13
    assert SYSTEM.defence_skill(defender, "dodge", encounter) == 8
    own = SetOption("parry_with", "parry").apply(encounter, SYSTEM).encounter
    assert SYSTEM.defence_skill(defender, "parry", own) == 11
