"""Institute movement per round, from institut.md's text:

"Moving more than once a round is allowed, but in total at most **Agility + Athletics metres** per round, minus 1 m
per additional action (a quick careful step, not a run). Sprinting at full speed as the only action of the round:
(Agility + Athletics) × 4 metres." Squares under suppression fire are square metres: crossing them is a move.
"""

from __future__ import annotations

import pytest

from rules.combatants import SetOption
from rules.errors import OperationError
from rules.history import History
from rules.systems.institut import CrossSuppression, DeclareActions, SuppressionFire, SuppressionRoll
from rules.systems.institut.move_limit import MOVEMENT_LIMIT, moved
from rules.turns import NextTurn
from tests.rules.test_institut_rules import started
from tests.rules.test_institut_scenes import INSTITUT, play_round

MADE = SuppressionRoll((6, 6, 6, 6))  # 24: through the difficulty of one burst of 6 (24)


def _under_fire(limit: bool = True) -> tuple[History, dict[str, str]]:
    """Sokolov keeps the corridor under fire (6 bullets a square: difficulty 24); Vera is to act.

    Vera: Agility 3 + Athletics 3 = 6 m a round; Bandit 1: 2 + 1 = 3 m."""
    history, ids = started()
    if limit:
        history.do(SetOption(MOVEMENT_LIMIT, True))  # a fight made now stores it; an older one does not
    history.do(SuppressionFire(ids["Sokolov"], "the corridor", 10, 6))
    history.do(NextTurn())
    return history, ids


def test_agility_plus_athletics_metres_a_round_in_total() -> None:
    history, ids = _under_fire()
    bandit = ids["Bandit 1"]
    with pytest.raises(OperationError) as refused:
        history.do(CrossSuppression(bandit, "the corridor", 4, (MADE,) * 4))
    assert str(refused.value) == ("Bandit 1 may move 3 m this round and has moved 0 m: not 4 m more. “in total at "
                                  "most Agility + Athletics metres per round, minus 1 m per additional action”.")
    history.do(CrossSuppression(bandit, "the corridor", 2, (MADE,) * 2))
    assert moved(history.state.combatant(bandit), history.state) == 2
    assert "Moved this round: 2 m." in INSTITUT.condition_notes(history.state.combatant(bandit), history.state)
    with pytest.raises(OperationError, match="has moved 2 m: not 2 m more"):  # "in total": the first move counts
        history.do(CrossSuppression(bandit, "the corridor", 2, (MADE,) * 2))
    history.do(CrossSuppression(bandit, "the corridor", 1, (MADE,)))
    history.do(CrossSuppression(bandit, "the corridor", 0, (MADE,)))  # standing in it moves no metre


def test_each_additional_action_takes_a_metre_off() -> None:
    history, ids = _under_fire()
    vera = ids["Vera"]
    history.do(DeclareActions(vera, 2, after_roll_checked=True, turn_checked=True))
    with pytest.raises(OperationError, match="Vera may move 5 m this round"):
        history.do(CrossSuppression(vera, "the corridor", 6, (MADE,) * 6))
    history.do(CrossSuppression(vera, "the corridor", 5, (MADE,) * 5))


def test_a_sprint_as_the_only_action_goes_four_times_as_far() -> None:
    history, ids = _under_fire()
    vera, bandit = ids["Vera"], ids["Bandit 1"]
    history.do(CrossSuppression(bandit, "the corridor", 12, (MADE,) * 12, sprinting=True))  # (2 + 1) × 4
    with pytest.raises(OperationError, match=r"\(Agility \+ Athletics\) × 4 metres"):
        history.do(CrossSuppression(bandit, "the corridor", 1, (MADE,), sprinting=True))
    history.do(DeclareActions(vera, 2, after_roll_checked=True, turn_checked=True))
    with pytest.raises(OperationError, match="Vera has declared 2 actions: a sprint is “the only action of the "
                                             "round”"):
        history.do(CrossSuppression(vera, "the corridor", 2, (MADE,) * 2, sprinting=True))


def test_the_gms_override_crosses_farther_and_the_log_says_so_and_undo_takes_it_back() -> None:
    history, ids = _under_fire()
    bandit = ids["Bandit 1"]
    entry = history.do(CrossSuppression(bandit, "the corridor", 5, (MADE,) * 5, gm_override=True))
    assert ("GM's override: Bandit 1 crosses 5 m, past what the rules allow this round (3 m, 0 m already moved)."
            in entry.text())
    assert moved(history.state.combatant(bandit), history.state) == 5
    history.undo()
    assert moved(history.state.combatant(bandit), history.state) == 0


def test_a_new_round_moves_afresh() -> None:
    history, ids = _under_fire()
    bandit = ids["Bandit 1"]
    history.do(CrossSuppression(bandit, "the corridor", 3, (MADE,) * 3))
    play_round(history)
    assert moved(history.state.combatant(bandit), history.state) == 0


def test_a_fight_saved_before_the_limit_replays_unlimited() -> None:
    history, ids = _under_fire(limit=False)
    entry = history.do(CrossSuppression(ids["Bandit 1"], "the corridor", 6, (MADE,) * 6))
    assert "override" not in entry.text()
    assert moved(history.state.combatant(ids["Bandit 1"]), history.state) == 0  # nothing counted either
