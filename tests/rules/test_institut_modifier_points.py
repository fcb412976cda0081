"""Institute's modifier unit (institut.md "Dice (Decision)"): the seed gives an extra action's −1 ("на один кубик
меньше") and full auto's "в два кубика" in dice; all other modifiers (ambush +3, point blank +4, called shots
−4/−5, two guns −1, cover) count in dice by default, and the GM's option counts them as points added to the total.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import Any

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.combatants import SetOption
from rules.errors import RulesError
from rules.systems.institut import (
    DeclareActions,
    FireMode,
    InstitutAttack,
    SetInstitutFlag,
    Shot,
    attack_pool,
    damage_pool,
)
from rules.systems.institut.combat import Defence, DodgeTie, Unit
from rules.systems.institut.odds import attack_outcome_distribution, hit_probability, pool_total
from rules.systems.institut.ops import attack_penalties
from rules.systems.institut.pyramid import CLASSES
from rules.systems.institut.system import modifier_unit
from rules.systems.institut.tables import Burst, load_tables
from tests.rules.test_institut_rules import started

TABLES = load_tables()
MODS = TABLES.modifiers


def parts(built: Any) -> dict[str, tuple[int, bool]]:
    return {line.label: (line.dice, line.points) for line in built.lines}


def test_the_default_counts_every_modifier_in_dice() -> None:
    shot = Shot(skill=5, ambush=True, called=TABLES.called_shots["head"], point_blank=True, damage=6)
    attack, damage = attack_pool(shot, MODS), damage_pool(shot, MODS)
    assert damage is not None
    assert (attack.dice, attack.points) == (5 + 3 - 4, 0)  # ambush +3 dice, head −4 dice
    assert (damage.dice, damage.points) == (6 + 4 + 2, 0)  # point blank +4 dice, head +2 damage dice


def test_points_move_the_situational_modifiers_out_of_the_pool() -> None:
    """Ambush +3, head −4, two guns −1: points; the extra action's −1 stays one die fewer."""
    shot = Shot(skill=5, ambush=True, called=TABLES.called_shots["head"], mode=FireMode.TWO_GUNS,
                action_penalty=1, unit=Unit.POINTS)
    attack = attack_pool(shot, MODS)
    assert (attack.dice, attack.points) == (5 - 1, 3 - 4 - 1)
    assert parts(attack)["Additional actions this round"] == (-1, False)
    assert parts(attack)["Ambush (first round)"] == (3, True)


def test_full_auto_stays_two_dice_while_point_blank_and_cover_become_points() -> None:
    shot = Shot(skill=5, damage=7, mode=FireMode.AUTO, burst=Burst(3, 2), point_blank=True, cover=2, armor=1,
                unit=Unit.POINTS)
    attack, damage = attack_pool(shot, MODS), damage_pool(shot, MODS)
    assert damage is not None
    assert (attack.dice, attack.points) == (5 - 2, 0)  # full auto: −2 dice to hit, as the seed gives it
    assert (damage.dice, damage.points) == (7 + 2, 4 - 2 - 1)  # +2 dice; point blank +4, cover −2, armor −1 points


@cache
def oracle(dice: int, points: int) -> Any:
    return (dice @ icepool.d6 if dice else icepool.Die([0])) + points


def table(die: Any) -> dict[int, Fraction]:
    return {int(k): Fraction(v) for k, v in zip(die.outcomes(), die.probabilities(), strict=True)}


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10), st.integers(-6, 6))
def test_a_pool_with_points_equals_icepools_sum_plus_the_points(dice: int, points: int) -> None:
    assert pool_total(dice, exact=True, points=points).to_dict() == table(oracle(dice, points))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 8), st.integers(-5, 5), st.integers(0, 8), st.sampled_from(list(DodgeTie)))
def test_an_attack_with_points_against_a_dodge_equals_icepool(dice: int, points: int, dodge: int,
                                                              tie: DodgeTie) -> None:
    attack, defence = oracle(dice, points), oracle(dodge, 0)
    expected = (attack > defence).mean() if tie is DodgeTie.DEFENDER else (attack >= defence).mean()
    assert hit_probability(dice, Defence.DODGE, dodge, tie, exact=True, attack_points=points) == expected


def test_the_wound_odds_add_the_damage_points_before_reading_the_pyramid() -> None:
    """One die plus 9 points: 10–15, so Medium (10–14) five times in six and Heavy (15) once."""
    odds = attack_outcome_distribution(3, Defence.DIFFICULTY, 0, 1, exact=True, damage_points=9)
    assert odds["miss"] == 0 and odds["medium"] == Fraction(5, 6) and odds["heavy"] == Fraction(1, 6)


def test_the_operation_adds_the_points_to_the_attack_and_each_damage_roll() -> None:
    """Ambush +3 points: 2+2 = 4 rolled is 7 against a dodge of 6 — a hit; 3+3+2 damage + 4 point blank = 12:
    Medium (in dice the same faces would be a dodge)."""
    history, ids = started()
    history.do(SetOption("modifier_unit", "points"))
    attack = InstitutAttack(ids["Sokolov"], ids["Bandit 1"], "Makarov", (2, 2), Defence.DODGE.value, (3, 3),
                            damage_rolls=((3, 3, 2),), attack_points=3, damage_points=4)
    applied = history.do(attack)
    text = [line.render() for line in applied.log]
    assert text[0] == "Sokolov attacks Bandit 1 with Makarov: 7 points."
    assert "Modifiers to the attack roll: +3 points (in its total)." in text
    assert "Modifiers to each damage roll: +4 points." in text
    assert "12 points: Bandit 1 takes 1 Medium wound." in text
    bandit = history.state.combatant(ids["Bandit 1"])
    assert [bandit.boxes(key) for key in CLASSES] == [0, 1, 0, 0, 0]
    history.undo()
    assert history.state.combatant(ids["Bandit 1"]).boxes("medium") == 0


def test_without_points_the_same_faces_are_dodged() -> None:
    history, ids = started()
    applied = history.do(InstitutAttack(ids["Sokolov"], ids["Bandit 1"], "Makarov", (2, 2), Defence.DODGE.value,
                                        (3, 3)))
    assert "Bandit 1 dodges the attack." in [line.render() for line in applied.log]


def test_the_option_is_read_and_a_bad_value_is_refused() -> None:
    history, ids = started()
    assert modifier_unit(history.state) is Unit.DICE
    history.do(SetOption("modifier_unit", "points"))
    assert modifier_unit(history.state) is Unit.POINTS
    line = history.do(SetInstitutFlag(ids["Vera"], "ambush", True)).log[0].render()
    assert line == "Vera lies in ambush: +3 points to hit in the first round."
    with pytest.raises(RulesError, match="Situational modifiers count in"):
        history.do(SetOption("modifier_unit", "inches"))


def test_the_extra_action_stays_a_die_in_points_mode() -> None:
    """Peek out, shoot and duck back: 3 actions, the shot at −2 — dice, whatever the option."""
    history, ids = started()
    history.do(SetOption("modifier_unit", "points"))
    history.do(DeclareActions(ids["Sokolov"], 3))
    assert attack_penalties(history.state.combatant(ids["Sokolov"]), history.state) == (0, 2)
    attack = attack_pool(Shot(skill=5, action_penalty=2, ambush=True, unit=Unit.POINTS), MODS)
    assert (attack.dice, attack.points) == (3, 3)


def test_blast_cover_in_points_comes_off_each_creatures_total() -> None:
    """Each creature in a blast rolls "with its own cover modifiers": in points, 2 of cover takes 12 to 10."""
    from rules.systems.institut import Blast, BlastRoll

    history, ids = started()
    history.do(SetOption("modifier_unit", "points"))
    text = [line.render() for line in history.do(Blast("F-1", (BlastRoll(ids["Vera"], (6, 6), 3, 2, -2),))).log]
    assert "The blast catches Vera 3 m away, behind cover of 2 points." in text
    assert "10 points: Vera takes 1 Medium wound." in text
