"""Člověk: every worked example of the digest (clovek.md) as a test, plus the rules around them."""

from __future__ import annotations

import random

import pytest

from rules.combatants import ApplyHarm, SetAttribute, SetOption, SpendAction
from rules.dice import Roller
from rules.encounter import frozen_map
from rules.errors import OperationError, RulesError
from rules.history import History
from rules.systems.clovek import (
    ClovekBurn,
    ClovekCheck,
    ClovekSpend,
    PowerRoll,
    SetInitiativeDice,
    SkillRoll,
    success_number,
)
from rules.systems.clovek.dice import SkillKind
from rules.systems.clovek.economy import ACTION, REACTION
from rules.systems.clovek.rolls import (
    PowerSource,
    base_power,
    evaluate_check,
    modified_successes,
    reroll_number,
    resolve_power,
)
from rules.systems.clovek.system import initiative_score
from rules.turns import NextTurn, RollInitiative, SetInitiative, roll_initiative
from tests.rules.test_clovek_scenes import left, roll, seed_fight

# --- dice banks ------------------------------------------------------------------------------------------


def beatrice_first() -> History:
    """The GM puts Beatrice first (12, all her dice kept), then Cesare (3 + 2) and Adriana (4)."""
    history = seed_fight()
    history.do(SetInitiativeDice("c", 1))
    history.do(SetInitiative("b", 12))
    roll(history, {"c": (2,), "a": ()}, {"c": (1,), "a": (6,)})
    assert history.state.clock.current is not None and history.state.clock.current.ids == ("b",)
    return history


def test_a_tie_goes_to_the_higher_composure_before_the_roll_off() -> None:
    # clovek.md Decision: "ties (the seed is silent) go to the higher Composure, then a d10 roll-off". Cesare
    # (Composure 3) rolls 1: 4; Adriana risks no dice: her Composure, 4. The roll-off favours Cesare, Composure her.
    history = seed_fight()
    history.do(SetInitiativeDice("c", 1))
    history.do(SetInitiative("b", 12))
    roll(history, {"c": (1,), "a": ()}, {"c": (6,), "a": (1,)})
    history.do(NextTurn())
    assert history.state.clock.current is not None and history.state.clock.current.ids == ("a",)


def test_banks_are_twice_the_dexterity_attributes() -> None:
    history = seed_fight()
    assert left(history, "b") == (4, 6, 8)  # Agility 2, Charm 3, Intelligence 4
    history.do(SetAttribute("b", "agility", 3))
    assert history.state.combatant("b").pools["physical"].size == 6


def test_seed_bank_example_puddle_then_balance() -> None:
    """Three physical dice to jump the puddle, the last one to keep her balance: no physical defence left."""
    history = beatrice_first()
    history.do(ClovekSpend("b", "physical", 3, ACTION, purpose="jump the puddle"))
    history.do(ClovekSpend("b", "physical", 1, REACTION, purpose="keep her balance"))
    assert left(history, "b") == (0, 6, 8)
    with pytest.raises(OperationError, match="no physical dice left"):
        history.do(ClovekSpend("b", "physical", 1, REACTION, purpose="dodge a blow"))
    history.do(ClovekSpend("b", "social", 2, REACTION, purpose="resist intimidation"))
    assert left(history, "b") == (0, 4, 8)
    while history.state.clock.current is not None:
        history.do(NextTurn())
    assert left(history, "b") == (4, 6, 8)  # every bank refills at the end of the round


def test_the_banks_refill_at_the_end_of_the_round_or_by_option_at_the_start_of_the_next() -> None:
    # clovek.md: "Decision: ... the rules say the end throughout, so end (default), option: start."
    for option, after_the_round in (("end", (4, 6, 8)), ("start", (1, 6, 8))):
        history = beatrice_first()
        history.do(SetOption("banks_refill", option))
        history.do(ClovekSpend("b", "physical", 3, ACTION, purpose="jump the puddle"))
        while history.state.clock.current is not None:
            history.do(NextTurn())
        assert left(history, "b") == after_the_round, option
        roll(history, {"b": (), "c": (1,), "a": ()}, {"b": (1,), "c": (2,), "a": (3,)})  # the next round starts
        assert left(history, "b") == (4, 6, 8), option


def test_seed_actions_example_one_type_per_turn() -> None:
    """Jump (2 physical dice), a bonus physical action with the other hand (2 dice), then nothing physical left;
    social dice cannot pay for physical actions, nor may she switch to a social action this round."""
    history = beatrice_first()
    history.do(ClovekSpend("b", "physical", 2, ACTION, purpose="jump"))
    history.do(ClovekSpend("b", "physical", 2, ACTION, purpose="push Cesare", free_bonus_action=True))
    beatrice = history.state.combatant("b")
    assert left(history, "b") == (0, 6, 8)
    assert beatrice.actions_used == {"physical": 2}
    assert beatrice.boxes("physical_stun") == 0  # the situation granted the extra action for free
    with pytest.raises(OperationError, match="physical"):
        history.do(ClovekSpend("b", "social", 1, ACTION))


def test_a_bonus_action_burns_a_stun_wound_of_its_type() -> None:
    history = beatrice_first()
    history.do(ClovekSpend("b", "physical", 1, ACTION))
    entry = history.do(ClovekSpend("b", "physical", 1, ACTION))
    assert history.state.combatant("b").boxes("physical_stun") == 1
    assert "burns a physical stun wound for a bonus action" in entry.text()


def test_an_extra_action_needs_something_that_grants_it() -> None:
    """"Extra actions come only from abilities, equipment or the situation": an action after the first with
    nothing named is refused, and nothing changes."""
    history = beatrice_first()
    history.do(ClovekSpend("b", "physical", 1, ACTION, extra_action=""))  # the first needs no grant
    with pytest.raises(OperationError, match="extra actions come only from abilities, equipment or the situation"):
        history.do(ClovekSpend("b", "physical", 1, ACTION, extra_action=""))
    with pytest.raises(OperationError, match="not 'luck'"):
        history.do(ClovekSpend("b", "physical", 1, ACTION, extra_action="luck"))
    with pytest.raises(OperationError, match="not 'luck'"):  # refused on a first action too: no file keeps it
        beatrice_first().do(ClovekSpend("b", "physical", 1, ACTION, extra_action="luck"))
    assert left(history, "b") == (3, 6, 8) and history.state.combatant("b").boxes("physical_stun") == 0


@pytest.mark.parametrize(("grant", "stun"), [("ability", 1), ("situation", 1), ("ability_free", 0)])
def test_an_extra_action_usually_burns_a_stun_wound(grant: str, stun: int) -> None:
    """"one per extra action, usually ('většinou'; some equipment or abilities give one without burning)"."""
    history = beatrice_first()
    history.do(ClovekSpend("b", "physical", 1, ACTION))
    history.do(ClovekSpend("b", "physical", 1, ACTION, extra_action=grant))
    assert history.state.combatant("b").boxes("physical_stun") == stun
    assert left(history, "b") == (2, 6, 8)


def test_seed_off_hand_example() -> None:
    """Beatrice jumps with 2 physical dice, then "one more action may be made with the hand not used for the
    first": she shoves Cesare with her last 2 dice. The example names no burn (the Decision's default); the
    GM's option makes it cost one stun wound."""
    for burns, stun in ((False, 0), (True, 1)):
        history = beatrice_first()
        if burns:
            history.do(SetOption("off_hand_burns", True))
        history.do(ClovekSpend("b", "physical", 2, ACTION, purpose="jump", extra_action=""))
        history.do(ClovekSpend("b", "physical", 2, ACTION, purpose="shove Cesare", extra_action="off_hand"))
        assert left(history, "b") == (0, 6, 8)
        assert history.state.combatant("b").boxes("physical_stun") == stun
        history.do(ClovekBurn("b", "physical", 1))  # a die back for a second off-hand action…
        with pytest.raises(OperationError, match="already taken the off-hand action"):
            history.do(ClovekSpend("b", "physical", 1, ACTION, extra_action="off_hand"))  # …which one hand refuses


def test_the_off_hand_is_physical_and_comes_back_next_round() -> None:
    history = beatrice_first()
    history.do(ClovekSpend("b", "social", 1, ACTION))
    with pytest.raises(OperationError, match="Only a physical conflict"):
        history.do(ClovekSpend("b", "social", 1, ACTION, extra_action="off_hand"))
    history = beatrice_first()
    history.do(ClovekSpend("b", "physical", 1, ACTION))
    history.do(ClovekSpend("b", "physical", 1, ACTION, extra_action="off_hand"))
    assert "off_hand_taken" in history.state.combatant("b").extra
    while history.state.clock.current is not None:
        history.do(NextTurn())
    assert "off_hand_taken" not in history.state.combatant("b").extra  # a new round, a free hand again


def test_a_fight_recorded_before_grants_were_asked_for_replays_as_it_was() -> None:
    """Older files carry no extra_action: any extra action went through, burning a stun wound unless free."""
    history = beatrice_first()
    history.do(ClovekSpend("b", "physical", 1, ACTION))
    history.do(ClovekSpend("b", "physical", 1, ACTION))
    history.do(ClovekSpend("b", "physical", 1, ACTION, free_bonus_action=True))
    assert history.state.combatant("b").boxes("physical_stun") == 1


def test_seed_reactions_example() -> None:
    """Social action with 4 dice; two attacks parried with 2 and 1 physical dice; 2 social dice against
    intimidation; the mental dice stay for mental reactions only."""
    history = beatrice_first()
    history.do(ClovekSpend("b", "social", 4, ACTION, purpose="negotiate"))
    history.do(NextTurn())  # Cesare's turn: reactions need no turn of their own
    history.do(ClovekSpend("b", "physical", 2, REACTION, purpose="first attack"))
    history.do(ClovekSpend("b", "physical", 1, REACTION, purpose="second attack"))
    history.do(ClovekSpend("b", "social", 2, REACTION, purpose="intimidation"))
    assert left(history, "b") == (1, 0, 8)
    with pytest.raises(OperationError, match="social"):
        history.do(ClovekSpend("b", "social", 1, REACTION))
    with pytest.raises(OperationError, match="own turn"):
        history.do(ClovekSpend("b", "mental", 1, ACTION))
    history.do(ClovekSpend("b", "mental", 2, REACTION, purpose="perception"))
    assert left(history, "b") == (1, 0, 6)


def test_actions_only_in_ones_own_turn_and_of_the_turns_type_even_with_a_bonus() -> None:
    history = beatrice_first()
    history.do(ClovekSpend("b", "social", 4, ACTION))
    with pytest.raises(OperationError, match="social"):
        history.do(ClovekSpend("b", "mental", 1, ACTION, free_bonus_action=True))
    with pytest.raises(OperationError, match="own turn"):
        history.do(ClovekSpend("c", "physical", 1, ACTION))


def test_the_budget_shows_the_turns_action_type() -> None:
    history = beatrice_first()
    system, state = history.system, history.state
    budget = system.action_budget(state.combatant("b"), state)
    assert [(item.key, item.left) for item in budget] == [("physical", 1), ("social", 1), ("mental", 1)]
    history.do(SpendAction("b", "mental"))  # the window's "Use" button: an action with one die
    assert history.entries[-1].text() == "Beatrice takes a mental action."
    state = history.state
    assert [(item.key, item.left) for item in system.action_budget(state.combatant("b"), state)] == [("mental", 0)]
    assert left(history, "b") == (4, 6, 7)


def test_seed_burning_example() -> None:
    """Everyone else acted first and she defended twice with all her physical dice; on her turn she burns two
    physical stun wounds (Agility 2) for two dice to act with."""
    history = seed_fight()
    roll(history, {"b": (), "c": (), "a": ()})  # Adriana 4, Cesare 3, Beatrice 2
    history.do(ClovekSpend("b", "physical", 2, REACTION, purpose="first defence"))
    history.do(NextTurn())
    history.do(ClovekSpend("b", "physical", 2, REACTION, purpose="second defence"))
    history.do(NextTurn())
    assert history.state.clock.current is not None and history.state.clock.current.ids == ("b",)
    assert left(history, "b") == (0, 6, 8)
    history.do(ClovekBurn("b", "physical", 2))
    beatrice = history.state.combatant("b")
    assert left(history, "b") == (2, 6, 8)
    assert beatrice.boxes("physical_stun") == 2
    history.do(ClovekSpend("b", "physical", 2, ACTION, purpose="run"))
    with pytest.raises(OperationError, match="only 0 more physical stun"):
        history.do(ClovekBurn("b", "physical", 1))  # at most Agility stun wounds per round


def test_burning_never_fills_a_bank_above_its_maximum() -> None:
    history = beatrice_first()
    history.do(ClovekSpend("b", "social", 1, REACTION))
    with pytest.raises(OperationError, match="maximum"):
        history.do(ClovekBurn("b", "social", 2))
    history.do(ClovekBurn("b", "social", 1))
    assert left(history, "b") == (4, 6, 8)


def test_burning_needs_room_on_the_stun_track() -> None:
    history = beatrice_first()
    history.do(ApplyHarm("b", "physical_stun", 9))
    history.do(ClovekSpend("b", "physical", 4, REACTION))
    with pytest.raises(OperationError, match="room for only 1"):
        history.do(ClovekBurn("b", "physical", 2))


def test_the_burn_limit_starts_over_each_round() -> None:
    history = beatrice_first()
    history.do(ClovekSpend("b", "physical", 4, REACTION))
    history.do(ClovekBurn("b", "physical", 2))
    while history.state.clock.current is not None:
        history.do(NextTurn())
    roll(history, {"c": (1,), "a": ()}, {"c": (6,), "a": (1,)})
    history.do(ClovekSpend("b", "physical", 4, REACTION))
    history.do(ClovekBurn("b", "physical", 2))
    assert history.state.combatant("b").boxes("physical_stun") == 4


def test_stun_burnt_for_a_manoeuvre_or_equipment_brings_no_dice_back() -> None:
    """"Also burnt: … for some special manoeuvres or abilities; for special equipment, or equipment the
    character's attributes are too low for": stun wounds that pay for something, within the round's limit
    (Beatrice's Agility 2), with no die back."""
    history = beatrice_first()
    history.do(ClovekBurn("b", "physical", 1, "manoeuvre", "a leap over the cart"))
    beatrice = history.state.combatant("b")
    assert beatrice.boxes("physical_stun") == 1 and left(history, "b") == (4, 6, 8)  # banks full: no dice back
    assert history.entries[-1].text() == "Beatrice burns 1 physical stun wound for a manoeuvre or ability: " \
        "a leap over the cart."
    history.do(ClovekBurn("b", "physical", 1, "equipment"))
    assert history.entries[-1].text() == "Beatrice burns 1 physical stun wound for equipment."
    assert history.state.combatant("b").boxes("physical_stun") == 2
    with pytest.raises(OperationError, match="only 0 more physical stun"):
        history.do(ClovekBurn("b", "physical", 1, "manoeuvre"))  # the same limit as burning for dice
    with pytest.raises(OperationError, match="pays for"):
        history.do(ClovekBurn("b", "social", 1, "karma"))
    history.undo()
    assert history.state.combatant("b").boxes("physical_stun") == 1


# --- rolling -----------------------------------------------------------------------------------------------


def test_success_numbers() -> None:
    assert [success_number(skill) for skill in range(8)] == [10, 9, 8, 7, 6, 5, 5, 5]
    assert success_number(7, supernatural=True) == 5
    assert reroll_number(1) == 10
    assert [reroll_number(skill, supernatural=True) for skill in (1, 5, 7, 9)] == [10, 10, 8, 6]
    with pytest.raises(RulesError):
        success_number(-1)


def test_seed_stealth_two_successes() -> None:
    """Stealth 1 dot, 4 dice: 2, 9, 5, 0 → 9 and 10 succeed; the 10 rerolls a 2 → 2 successes."""
    result = SkillRoll("physical", ((2,), (9,), (5,), (0, 2)), 1, SkillKind.ABILITY, skill_name="Stealth").result()
    assert (result.rolled, result.successes, result.critical, result.outcome) == (2, 2, False, "full success")


def test_seed_physics_critical_failure_and_the_four_dot_variant() -> None:
    faces = ((2,), (4,), (5,), (3,), (6,), (1,), (2,), (5,))
    three = evaluate_check(faces, 3, SkillKind.KNOWLEDGE)
    assert (three.rolled, three.critical, three.outcome) == (0, True, "critical failure")
    assert not three.practice  # never a practice point on a knowledge
    four = evaluate_check(faces, 4, SkillKind.KNOWLEDGE)
    assert (four.rolled, four.critical, four.outcome) == (1, False, "basic success")


def test_critical_ranges_by_skill_kind() -> None:
    assert evaluate_check(((2,), (5,)), 2, SkillKind.TALENT).critical is False
    assert evaluate_check(((1,), (5,)), 2, SkillKind.TALENT).critical is True
    assert evaluate_check(((2,), (5,)), 2, SkillKind.ABILITY).critical is True
    assert evaluate_check(((4,), (5,)), 2, SkillKind.ABILITY).critical is False
    assert evaluate_check(((4,), (5,)), 2, SkillKind.KNOWLEDGE).critical is True


def test_outcome_words() -> None:
    words = [evaluate_check(((10,) * n + (1,),) if n else ((5,),), 0, SkillKind.TALENT).outcome for n in range(7)]
    assert words == ["failure", "basic success", "full success", "very good success", "very good success",
                     "total success", "total success"]


def test_practice_points_for_criticals_and_total_successes_on_the_dice_alone() -> None:
    total = evaluate_check(((10, 10, 10, 10, 3),), 2, SkillKind.ABILITY)
    assert (total.rolled, total.practice) == (4, False)
    assert evaluate_check(((10, 10, 10, 10, 9),), 2, SkillKind.ABILITY).practice is True
    assert evaluate_check(((10, 10, 10, 10, 3),), 2, SkillKind.ABILITY, bonus=1).practice is False
    assert evaluate_check(((1,),), 2, SkillKind.TALENT).practice is True
    assert evaluate_check(((10, 10, 10, 10, 9),), 2, SkillKind.KNOWLEDGE).practice is False


def test_a_supernatural_skill_rerolls_from_fifteen_minus_the_skill() -> None:
    # Skill 7 supernatural: success ≥ 5, reroll ≥ 8: 8 → 9 → 3 is two successes from one die.
    assert evaluate_check(((8, 9, 3),), 7, SkillKind.TALENT, supernatural=True).rolled == 2
    with pytest.raises(RulesError, match="rolled again"):
        SkillRoll("mental", ((8, 9, 3),), 7, SkillKind.TALENT).result()  # not supernatural: only a 10 rerolls


# --- bonuses and penalties -------------------------------------------------------------------------------


def test_seed_shield_and_fear() -> None:
    """1 success + shield 2 − fear 1 = 2; no success: the shield does not count; 1 − 1 fails, not critically."""
    assert modified_successes(1, 2, 1) == 2
    assert modified_successes(0, 2, 1) <= 0
    no_shield = evaluate_check(((9,), (5,)), 1, SkillKind.ABILITY, penalty=1)
    assert (no_shield.successes, no_shield.critical, no_shield.outcome) == (0, False, "failure")
    defended = evaluate_check(((9,), (3,)), 1, SkillKind.ABILITY, bonus=2, penalty=1)
    assert (defended.rolled, defended.successes, defended.outcome) == (1, 2, "full success")


# --- power -------------------------------------------------------------------------------------------------


def test_seed_cesare_power_five() -> None:
    """Constitution 4: base 2; 3 successes → 7, 0, 1 (≥ 6) and the 0 rerolls a 6 → 3 → power 5."""
    power = resolve_power(PowerSource.ATTRIBUTE, 4, ((7,), (10, 6), (1,)))
    assert (power.base, power.rolled, power.critical, power.total) == (2, 3, False, 5)


def test_seed_cesare_critical_power_roll_and_practice_point() -> None:
    power = resolve_power(PowerSource.ATTRIBUTE, 4, ((1,), (1,), (5,)))
    assert (power.critical, power.total, power.practice) == (True, 1, True)


def test_seed_cesare_no_power_success_keeps_the_base_with_a_range_of_one() -> None:
    """The seed says 2, 5, 4 leaves power 2; the digest's range 1–2 makes it critical, hence the GM option."""
    assert resolve_power(PowerSource.ATTRIBUTE, 4, ((2,), (5,), (4,))).total == 1
    assert resolve_power(PowerSource.ATTRIBUTE, 4, ((2,), (5,), (4,)), critical_range=1).total == 2


def test_seed_heavy_pistol_power_seven() -> None:
    """Power value 3, 2 successes: base 6, roll 5, 8 (≥ 7) → 1 → power 7; equipment never drops its base."""
    power = resolve_power(PowerSource.EQUIPMENT, 3, ((5,), (8,)))
    assert (power.base, power.rolled, power.total, power.practice) == (6, 1, 7, False)
    with pytest.raises(RulesError):
        base_power(PowerSource.EQUIPMENT, 3, drop_base=True)


def test_seed_shield_blow_power_three_or_minus_one() -> None:
    """Constitution 1: base 1, shield +4, light armor −2; rolls 4, 5 → 3; a critical 1 → 1 − 2 = −1."""
    power = resolve_power(PowerSource.ATTRIBUTE, 1, ((4,), (5,)), bonus=4, penalty=2)
    assert (power.base, power.rolled, power.total, power.lasting) == (1, 0, 3, True)
    critical = resolve_power(PowerSource.ATTRIBUTE, 1, ((1,), (5,)), bonus=4, penalty=2)
    assert (critical.critical, critical.total, critical.lasting) == (True, -1, False)


def test_dropping_the_base_power() -> None:
    assert resolve_power(PowerSource.ATTRIBUTE, 4, ((7,),), bonus=1, drop_base=True).total == 2


# --- initiative --------------------------------------------------------------------------------------------


def test_seed_initiative_ten_with_three_mental_dice_left() -> None:
    history = seed_fight()
    history.do(SetInitiativeDice("b", 5))
    spec = history.system.initiative_dice(history.state.combatant("b"), history.state)
    assert (spec.count, spec.sides, spec.base) == (5, 10, 2)
    roll(history, {"b": (2, 5, 7, 8, 3), "c": (), "a": ()})
    beatrice = history.state.combatant("b")
    assert beatrice.initiative is not None and initiative_score(beatrice.initiative) == 10
    assert history.system.score_text(beatrice, history.state) == "10"
    assert left(history, "b") == (4, 6, 3)
    with pytest.raises(OperationError, match="only 3 mental dice"):
        history.do(ClovekSpend("b", "mental", 4, ACTION))
    history.do(ClovekSpend("b", "physical", 2, ACTION, purpose="run"))  # initiative was only a reaction


def test_seed_initiative_without_dice_is_composure() -> None:
    history = seed_fight()
    roll(history, {"b": (), "c": (), "a": ()})
    beatrice = history.state.combatant("b")
    assert history.system.score_text(beatrice, history.state) == "2"
    assert left(history, "b") == (4, 6, 8)
    history.do(NextTurn())  # Adriana 4, Cesare 3, Beatrice 2
    history.do(NextTurn())
    assert history.state.clock.current is not None and history.state.clock.current.ids == ("b",)
    history.do(ClovekSpend("b", "mental", 8, ACTION, purpose="remember the secret door"))


def test_initiative_dice_within_the_mental_bank() -> None:
    history = seed_fight()
    with pytest.raises(OperationError, match="0 to 8"):
        history.do(SetInitiativeDice("b", 9))
    with pytest.raises(OperationError):
        roll(history, {"b": (3,), "c": (), "a": ()})  # she chose no dice: one face is one too many


# --- power and wounds through a check ----------------------------------------------------------------------


def test_an_attack_with_defence_power_and_wounds() -> None:
    history = beatrice_first()
    history.do(NextTurn())
    assert history.state.clock.current is not None and history.state.clock.current.ids == ("c",)
    # Fencing 3 dots: 9, 9, 10+3 are 3 successes; Adriana parries at 2 dots: 1, 10+1 is 1 success.
    check = ClovekCheck("c", SkillRoll("physical", ((9,), (9,), (10, 3)), 3, skill_name="Fencing"), target="a",
                        defence=SkillRoll("physical", ((1,), (10, 1)), 2),
                        power=PowerRoll(PowerSource.ATTRIBUTE, 4, ((7,), (2,)), name="Constitution"),
                        track="physical_wounds")
    entry = history.do(check)
    # 2 successes get through: 2 power dice, the 7 succeeds (≥ 6): base 2 + 1 = 3 wounds.
    assert history.state.combatant("a").boxes("physical_wounds") == 3
    assert "2 successes get through Adriana's defence" in entry.text()
    assert left(history, "a") == (4, 8, 6)
    assert left(history, "c") == (3, 6, 3)  # one mental die went on initiative


def test_the_power_roll_has_one_die_per_success_that_got_through() -> None:
    history = beatrice_first()
    check = ClovekCheck("b", SkillRoll("physical", ((9,), (9,)), 1), target="c",
                        power=PowerRoll(PowerSource.ATTRIBUTE, 1, ((4,),)), track="physical_wounds")
    with pytest.raises(OperationError, match="one die per success"):
        history.do(check)


def test_wounds_need_a_power_roll_and_a_failed_action_has_none() -> None:
    history = beatrice_first()
    with pytest.raises(OperationError, match="Roll the power"):
        history.do(ClovekCheck("b", SkillRoll("physical", ((9,),), 1), target="c", track="physical_wounds"))
    with pytest.raises(OperationError, match="no power"):
        history.do(ClovekCheck("b", SkillRoll("physical", ((3,),), 1), target="c",
                               power=PowerRoll(PowerSource.ATTRIBUTE, 1, ((4,),)), track="physical_wounds"))


def test_the_power_critical_range_is_a_gm_option() -> None:
    history = beatrice_first()
    history.do(SetOption("power_critical_range", 1))
    check = ClovekCheck("b", SkillRoll("physical", ((9,),), 1), target="c",
                        power=PowerRoll(PowerSource.ATTRIBUTE, 4, ((2,),)), track="physical_wounds")
    history.do(check)
    assert history.state.combatant("c").boxes("physical_wounds") == 2  # base 2, not a critical 1


def test_an_unlasting_power_leaves_no_wounds() -> None:
    """Beatrice's shield blow with a critical power roll: 1 − 2 = −1, the blow glances off."""
    history = beatrice_first()
    power = PowerRoll(PowerSource.ATTRIBUTE, 1, ((1,), (5,)), bonus=4, penalty=2, name="Constitution")
    entry = history.do(ClovekCheck("b", SkillRoll("physical", ((9,), (9,)), 1), target="c", power=power,
                                   track="physical_wounds"))
    assert history.state.combatant("c").boxes("physical_wounds") == 0
    assert "critical failure, power 1 − 2 = -1" in entry.text()
    assert "no lasting effect" in entry.text()
    assert "practice point on Constitution" in entry.text()


def test_track_sizes_are_a_gm_table() -> None:
    history = seed_fight()
    history.do(SetOption("track_sizes", {"physical": {"wounds": 6}}))
    sizes = {spec.key: spec.size for spec in history.system.tracks(history.state.combatant("b"), history.state)}
    assert sizes["physical_wounds"] == 6 and sizes["physical_stun"] == 10 and sizes["mental_wounds"] == 10
    with pytest.raises(RulesError, match=r"physical\.wounds"):
        history.do(SetOption("track_sizes", {"physical": {"wounds": 0}}))
    history.do(ApplyHarm("b", "physical_wounds", 9))
    assert history.state.combatant("b").boxes("physical_wounds") == 6


# --- initiative ties: Composure, then a d10 roll-off ------------------------------------------------------


class RecordingRoller(Roller):
    """A seeded roller that remembers the dice it was asked for (count, sides)."""

    def __init__(self, seed: int) -> None:
        super().__init__(random.Random(seed))
        self.asked: list[tuple[int, int]] = []

    def dice(self, count: int, sides: int) -> list[int]:
        self.asked.append((count, sides))
        return super().dice(count, sides)


def tied_at_four() -> History:
    """Cesare's Composure raised to Adriana's 4; neither risks a mental die: both at 4, Composure 4."""
    history = seed_fight()
    history.do(SetAttribute("c", "composure", 4))
    return history


def test_the_roll_off_is_a_d10_rolled_for_everyone_and_replayed_from_history() -> None:
    # clovek.md Decision: "ties (the seed is silent) go to the higher Composure, then a d10 roll-off".
    history = tied_at_four()
    roller = RecordingRoller(3)
    operation = roll_initiative(history.state, history.system, roller)
    assert operation.tiebreak_sides == 10
    assert {sides for _count, sides in roller.asked} == {10}  # no die of the roll is a d6
    assert all(1 <= face <= 10 for faces in operation.tiebreaks.values() for face in faces)
    entry = history.do(operation)
    order = [slot.ids[0] for slot in history.system.remaining_slots(history.state)]
    first, second = sorted(("c", "a"), key=lambda cid: operation.tiebreaks[cid], reverse=True)
    assert order.index(first) < order.index(second)
    tie = next(line for line in entry.log if "roll-off" in line.text)
    assert tie.args["score"] == 4 and tie.args["composure"] == 4
    replayed = History.replay(history.initial, [e.operation for e in history.entries])
    assert [slot.ids for slot in history.system.remaining_slots(replayed.state)] == [(cid,) for cid in order]
    assert replayed.entries[-1].text() == entry.text()


def test_the_roll_off_line_names_each_ones_d10_winner_first_and_the_dice_it_took() -> None:
    history = tied_at_four()
    entry = history.do(RollInitiative(frozen_map({"c": (), "a": (), "b": ()}),
                                      frozen_map({"c": (7, 2), "a": (9, 1), "b": (10, 10)}), tiebreak_sides=10))
    assert "Tie at 4, Composure 4 too: the d10 roll-off gives Adriana 9; Cesare 7." in entry.text()
    assert "Beatrice" not in entry.text().split("roll-off")[1]  # Composure 2: no tie with anyone
    assert history.state.clock.current is not None and history.state.clock.current.ids == ("a",)
    history.undo()
    entry = history.do(RollInitiative(frozen_map({"c": (), "a": ()}),
                                      frozen_map({"c": (7, 8), "a": (7, 2)}), tiebreak_sides=10))
    assert "the d10 roll-off gives Cesare 7, 8; Adriana 7, 2." in entry.text()


def test_a_roll_off_face_must_be_a_d10s_and_an_older_fights_d6_tie_dice_still_replay() -> None:
    history = tied_at_four()
    with pytest.raises(OperationError, match="not d10 faces"):
        history.do(RollInitiative(frozen_map({"c": (), "a": ()}), frozen_map({"c": (11,), "a": (1,)}),
                                  tiebreak_sides=10))
    with pytest.raises(OperationError, match="d10, not d8"):
        history.do(RollInitiative(frozen_map({"c": (), "a": ()}), frozen_map({"c": (1,), "a": (2,)}),
                                  tiebreak_sides=8))
    older = history.do(RollInitiative(frozen_map({"c": (), "a": ()}), frozen_map({"c": (6,), "a": (1,)})))
    assert "roll-off" not in older.text()  # saved before the roll-off was logged: the same lines as then
    assert history.state.clock.current is not None and history.state.clock.current.ids == ("c",)
