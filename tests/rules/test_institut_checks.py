"""Institute's general skill check (institut.md "Dice (Decision)"): "a skill check rolls the skill's rating in dice
(… the GM may add an attribute); equalling a difficulty («покрыть сложность», to cover the difficulty) succeeds"."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules.combatants import SetOption
from rules.errors import OperationError
from rules.systems.institut import DeclareActions, SkillCheck, rounds
from rules.systems.institut.checks import check_penalties, check_pool
from rules.systems.institut.odds import success_probability
from rules.systems.institut.outcomes import check_probability
from tests.rules.test_institut_rules import started


def test_equalling_the_difficulty_succeeds_and_one_short_fails() -> None:
    """Sokolov's Athletics 2 against 10: 6 + 4 covers it, 6 + 3 does not."""
    history, ids = started()
    made = history.do(SkillCheck(ids["Sokolov"], "athletics", 10, (6, 4)))
    assert made.log[0].render() == "Sokolov checks Athletics: 10 against difficulty 10 — success."
    history.undo()
    failed = history.do(SkillCheck(ids["Sokolov"], "athletics", 10, (6, 3)))
    assert failed.log[0].render() == "Sokolov checks Athletics: 9 against difficulty 10 — failure."


def test_the_pool_is_the_skills_rating_and_the_gm_may_add_an_attribute() -> None:
    history, ids = started()
    sokolov = history.state.combatant(ids["Sokolov"])
    assert check_pool(sokolov, "athletics", "", 0, 0, 0, False).dice == 2
    assert check_pool(sokolov, "athletics", "agility", 0, 0, 0, False).dice == 2 + 3
    line = history.do(SkillCheck(ids["Sokolov"], "athletics", 12, (6, 1, 1, 2, 2), "agility")).log[0].render()
    assert line == "Sokolov checks Athletics + Agility: 12 against difficulty 12 — success."


def test_a_check_is_an_action_at_the_rounds_penalty_and_counted() -> None:
    """Declaring 2 actions: every roll this round, the check included, is one die fewer."""
    history, ids = started()
    history.do(DeclareActions(ids["Sokolov"], 2))
    sokolov = history.state.combatant(ids["Sokolov"])
    assert check_penalties(sokolov, history.state, True) == (0, 1)
    assert check_pool(sokolov, "athletics", "", 0, 1, 0, False).dice == 1
    history.do(SkillCheck(ids["Sokolov"], "athletics", 3, (3,)))
    assert rounds.round_actions(history.state.combatant(ids["Sokolov"])).taken == 1
    history.undo()
    assert rounds.round_actions(history.state.combatant(ids["Sokolov"])).taken == 0


def test_out_of_turn_a_check_costs_no_action_only_if_the_gm_says_so() -> None:
    history, ids = started()
    with pytest.raises(OperationError, match="not Vera's turn"):
        history.do(SkillCheck(ids["Vera"], "dodge", 5, (3, 3, 3, 3)))
    history.do(SkillCheck(ids["Vera"], "dodge", 5, (3, 3, 3, 3), as_action=False))
    assert rounds.round_actions(history.state.combatant(ids["Vera"])).taken == 0


def test_modifiers_in_points_are_added_to_the_total() -> None:
    history, ids = started()
    history.do(SetOption("modifier_unit", "points"))
    sokolov = history.state.combatant(ids["Sokolov"])
    built = check_pool(sokolov, "athletics", "", 0, 0, 2, True)
    assert (built.dice, built.points) == (2, 2)
    applied = history.do(SkillCheck(ids["Sokolov"], "athletics", 10, (4, 4), points=2))
    assert [line.render() for line in applied.log] == ["Sokolov checks Athletics: 10 against difficulty 10 — "
                                                       "success.", "Modifiers: +2 points (in the total)."]


def test_bad_checks_are_refused_with_a_reason() -> None:
    history, ids = started()
    with pytest.raises(OperationError, match="Unknown skill"):
        history.do(SkillCheck(ids["Sokolov"], "piloting", 5, (3,)))
    with pytest.raises(OperationError, match="d6 shows 1 to 6"):
        history.do(SkillCheck(ids["Sokolov"], "athletics", 5, (7,)))
    with pytest.raises(OperationError, match="held"):
        history.do(SkillCheck(ids["Sokolov"], "athletics", 5, (3,), as_action=False, held="if he runs"))


def test_how_unlikely_a_check_was_is_its_chance_of_going_that_way() -> None:
    """Two dice against 10: P(reach) = 6/36."""
    history, ids = started()
    assert success_probability(2, 10, exact=True) == Fraction(6, 36)
    made = SkillCheck(ids["Sokolov"], "athletics", 10, (6, 4))
    assert check_probability(made, history.state) == pytest.approx(6 / 36)
    assert check_probability(SkillCheck(ids["Sokolov"], "athletics", 10, (1, 1)), history.state) == pytest.approx(
        30 / 36)
