"""SR3 core's limit, an encounter option (off: the seed defers it to another chapter): combat pool dice per attack
test at most the skill's rating (sr3.md, Success tests)."""

from __future__ import annotations

import pytest

from rules.combatants import SetOption
from rules.errors import OperationError
from rules.history import History
from rules.systems.sr3 import SYSTEM as SR3
from rules.systems.sr3 import Sr3Attack
from rules.systems.sr3.pools import pool_cap
from rules.systems.sr3.system import POOL_AT_MOST_SKILL
from tests.rules.sr3_scenes import eight_characters, roll_ones
from tests.rules.test_sr3_melee import _katana

REFUSAL = r"At most 2 combat pool dice: this encounter allows no more pool dice in a test than the skill's rating"


def _fight(capped: bool) -> tuple[History, dict[str, str]]:
    history, ids = eight_characters()
    if capped:
        history.do(SetOption(POOL_AT_MOST_SKILL, True))
    roll_ones(history, ids)
    return history, ids


def _shot(ids: dict[str, str], skill: int, pool: int) -> Sr3Attack:
    """Mike misses Ganger 1 with ``skill`` dice and ``pool`` combat pool dice."""
    return Sr3Attack(ids["Mike"], ids["Ganger 1"], "Predator", 9, "M", 4, ((1,),) * (skill + pool), 4, (),
                     attack_pool=pool)


def test_the_option_is_off_by_default_as_the_seed_does_not_state_the_limit() -> None:
    assert {spec.key: spec.default for spec in SR3.option_specs()}[POOL_AT_MOST_SKILL] is False
    history, ids = _fight(capped=False)
    history.do(_shot(ids, skill=2, pool=5))
    assert pool_cap(2, 6, at_most_skill=False) == 6


def test_with_the_option_an_attack_with_more_pool_dice_than_skill_is_refused() -> None:
    history, ids = _fight(capped=True)
    entries = len(history.entries)
    with pytest.raises(OperationError, match=REFUSAL):
        history.do(_shot(ids, skill=2, pool=3))
    assert len(history.entries) == entries
    history.do(_shot(ids, skill=2, pool=2))
    assert pool_cap(2, 6, at_most_skill=True) == 2 and pool_cap(4, 1, at_most_skill=True) == 1


def test_with_the_option_melee_pool_dice_are_capped_for_both_fighters() -> None:
    history, ids = _fight(capped=True)
    # attack: 4 dice, 3 of them pool (skill 1); defence: 2 dice, 2 pool (skill 0)
    with pytest.raises(OperationError, match="At most 1 combat pool die:"):
        history.do(_katana(ids, attack_pool=3))
    with pytest.raises(OperationError, match="At most 0 combat pool dice"):
        history.do(_katana(ids, defence_pool=2))
    history.do(_katana(ids, attack_pool=2, defence_pool=1))
