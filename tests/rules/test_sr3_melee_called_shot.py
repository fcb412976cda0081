"""A called melee blow as an operation: "free action, +4" and "throws and melee may be called too (default),
option: not" (sr3.md, Damage codes and firing modes, and its Decision)."""

from __future__ import annotations

import pytest

from rules.combatants import SetOption
from rules.errors import OperationError
from rules.systems.sr3.melee import MeleeFighter, melee_tns
from rules.systems.sr3.system import CALLED_THROWS_AND_MELEE, FREE, tables
from tests.rules.test_sr3_melee import _fight, _katana


def test_a_called_blow_takes_the_free_action_and_says_so() -> None:
    history, ids = _fight()
    text = history.do(_katana(ids, called_shot=True)).text()
    assert "A called shot (+4 TN, a free action)." in text
    assert history.state.combatant(ids["Mike"]).actions_used.get(FREE) == 1


def test_the_option_not_refuses_a_called_blow() -> None:
    history, ids = _fight()
    history.do(SetOption(CALLED_THROWS_AND_MELEE, False))
    with pytest.raises(OperationError, match="not in melee"):
        history.do(_katana(ids, called_shot=True))
    assert not tables(history.state).called_shot_throws_and_melee


def test_a_called_blow_adds_4_to_the_attackers_tn_only() -> None:
    attack, defence = melee_tns(MeleeFighter(called_shot=True), MeleeFighter())
    assert (attack.value, defence.value) == (4 + 4, 4)
