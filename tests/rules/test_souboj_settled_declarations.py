"""Souboj: a group's declarations are settled once one of it has struck.

souboj.md, Round: "Everyone with the same score acts at the same time. Within one score, resolve first whoever has
magic as its first action, then firearm/missile attacks, then face-to-face attacks." The declared first actions
order the group; once an attack of the group acting now is resolved, that order has been played, so no declaration
of the group may change.
"""

from __future__ import annotations

import pytest

from rules.combatants import ApplyHarm, SetOption
from rules.encounter import frozen_map
from rules.errors import OperationError
from rules.history import History
from rules.systems.souboj import Declare, FinishOff, SoubojAttack
from rules.systems.souboj.acting import SETTLED_DECLARATIONS
from rules.systems.souboj.model import Action, Kind, declared_now
from rules.systems.souboj.sample import sample
from rules.turns import NextTurn, RollInitiative

ALES, BORA, BANDIT_1 = "c1", "c2", "c5"  # the sample's group at 4 acts now


def _declared() -> History:
    """The shipped sample just before Bora's fire bolt: the group at 4 has declared, nobody in it has struck."""
    history = sample()
    history.undo()
    return history


def _blow(history: History) -> None:
    history.do(SoubojAttack(ALES, BANDIT_1, Kind.MELEE, "long sword", 14, 7, 1, 6, strength=8, armor=1, level=4))


def test_in_the_shipped_sample_bora_has_struck_so_the_group_is_settled() -> None:
    with pytest.raises(OperationError, match="Bora has already struck in the group acting now"):
        sample().do(Declare(ALES, Action.RANGED))


def test_before_any_blow_the_group_may_still_declare() -> None:
    history = _declared()
    history.do(Declare(BORA, Action.MAGIC))
    found = declared_now(history.state.combatant(BORA), history.state)
    assert found is not None and found.action is Action.MAGIC


def test_once_a_member_has_struck_no_declaration_of_the_group_changes() -> None:
    history = _declared()
    _blow(history)
    for combatant in (BORA, ALES, BANDIT_1):
        with pytest.raises(OperationError) as refused:
            history.do(Declare(combatant, Action.MAGIC))
        assert str(refused.value).startswith("Aleš has already struck in the group acting now: the group's order by "
                                             "first actions (magic, then firearm and missile, then face to face) "
                                             "is settled")
    history.undo()  # the blow taken back: the group declares again
    history.do(Declare(BORA, Action.MAGIC))


def test_the_same_score_next_round_declares_afresh() -> None:
    history = _declared()
    _blow(history)
    history.do(NextTurn())  # Cyril holds a reaction and Bandit 2 lost the round: round 1 ends
    rolls = {"c1": (4,), "c2": (4,), "c3": (2,), "c4": (5,), "c5": (4,), "c6": (1,)}
    history.do(RollInitiative(frozen_map(rolls), frozen_map()))
    while (current := history.state.clock.current) is not None and ALES not in current.ids:
        history.do(NextTurn())
    history.do(Declare(BORA, Action.MAGIC))  # the group at 4 again, in round 2: nobody has struck in it yet


def test_a_fight_without_the_option_changes_declarations_as_before() -> None:
    history = _declared()
    history.do(SetOption(SETTLED_DECLARATIONS, False))
    _blow(history)
    history.do(Declare(BORA, Action.MAGIC))
    assert "struck" not in history.state.combatant(ALES).extra  # nothing marked: old fights replay unchanged


def test_finishing_off_is_a_blow_of_the_group_too() -> None:
    history = _declared()
    history.do(ApplyHarm(BANDIT_1, "wounds", 16))  # 16 hit points: at 0 he is dying
    history.do(FinishOff(ALES, BANDIT_1))
    with pytest.raises(OperationError, match="Aleš has already struck in the group acting now"):
        history.do(Declare(BORA, Action.MAGIC))
