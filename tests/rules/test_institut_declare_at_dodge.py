"""Declaring the count at an out-of-turn dodge (institut.md Round): "If the character has not declared more than one
action (and taken the penalty), an out-of-turn dodge is its only action this round. Decision: a character who has
not had its turn yet may declare its count at that moment (the count goes with the declaration, not with the
turn)"."""

from __future__ import annotations

import pytest

from rules.errors import OperationError
from rules.systems.institut import DeclareActions, InstitutAttack, rounds
from rules.systems.institut.combat import Defence
from rules.systems.institut.ops import defence_penalties, may_declare_now
from rules.turns import NextTurn
from tests.rules.test_institut_rules import started


def attack_on(ids: dict[str, str], target: str, declares: int = 0) -> InstitutAttack:
    return InstitutAttack(ids["Sokolov"], ids[target], "Makarov", (1, 1, 1, 1, 1), Defence.DODGE.value,
                          (6, 6, 6, 6), target_declares=declares)


def test_a_dodge_by_one_who_declared_nothing_is_its_only_action() -> None:
    history, ids = started()
    text = [line.render() for line in history.do(attack_on(ids, "Vera")).log]
    assert "That is Vera's only action this round." in text
    assert ids["Vera"] in history.state.clock.acted  # her turn will not come


def test_declaring_two_at_the_dodge_keeps_the_turn_and_both_rolls_take_the_penalty() -> None:
    """Vera declares 2 as she dodges: the dodge is at −1 and so is her own action later."""
    history, ids = started()
    vera = history.state.combatant(ids["Vera"])
    assert defence_penalties(vera, history.state) == (0, 0)
    text = [line.render() for line in history.do(attack_on(ids, "Vera", declares=2)).log]
    assert "Vera declares 2 actions: every roll this round is at −1." in text
    assert "That is Vera's only action this round." not in text
    vera = history.state.combatant(ids["Vera"])
    assert rounds.round_actions(vera) == rounds.RoundActions(declared=2, taken=1)
    assert ids["Vera"] not in history.state.clock.acted
    history.undo()
    assert rounds.round_actions(history.state.combatant(ids["Vera"])).nothing_declared


def test_one_who_has_had_its_turn_cannot_declare_out_of_it() -> None:
    history, ids = started()
    history.do(NextTurn())  # Sokolov's turn is over; Vera acts
    sokolov = history.state.combatant(ids["Sokolov"])
    assert not may_declare_now(sokolov, history.state)
    with pytest.raises(OperationError, match="has had its turn this round"):
        history.do(DeclareActions(ids["Sokolov"], 2, after_roll_checked=True, turn_checked=True))
    assert may_declare_now(history.state.combatant(ids["Bandit 1"]), history.state)
    history.do(DeclareActions(ids["Bandit 1"], 2, after_roll_checked=True, turn_checked=True))  # still to come
    history.do(DeclareActions(ids["Sokolov"], 2))  # recorded before the check: replays as it was


def test_declaring_at_the_dodge_is_refused_once_the_turn_is_over() -> None:
    history, ids = started()
    history.do(NextTurn())
    attack = InstitutAttack(ids["Vera"], ids["Sokolov"], "Makarov", (1, 1, 1, 1), Defence.DODGE.value, (6, 6, 6),
                            target_declares=2)
    with pytest.raises(OperationError, match="Sokolov has had its turn"):
        history.do(attack)
