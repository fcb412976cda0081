"""SR3's karma pool (sr3.md, Pools): "Karma pool (seed): refreshes every 24 h or when the GM decides, never per turn;
… bought successes cost 1 point each, permanently, and need at least one rolled success."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.combatants import SetAttribute, SpendPool
from rules.encounter import Side
from rules.errors import OperationError
from rules.history import History
from rules.systems.sr3 import BuyKarmaSuccesses, RefreshKarma, Sr3Attack
from rules.systems.sr3.karma import failed_dice, reroll_cost, rerolls_cost, with_failures_rerolled
from rules.systems.sr3.system import COMBAT_POOL, KARMA_POOL
from rules.turns import NextTurn
from tests.rules.sr3_scenes import add, eight_characters, roll_ones


def _fight() -> tuple[History, dict[str, str]]:
    history, ids = eight_characters()
    ids["Twitch"] = add(history, "Twitch", Side.PLAYER, reaction=5, body=3, quickness=5, intelligence=4,
                        willpower=3, karma_pool=4)
    roll_ones(history, ids)
    return history, ids


def _pool(history: History, combatant_id: str, key: str) -> tuple[int, int]:
    pool = history.state.combatant(combatant_id).pools[key]
    return pool.size, pool.spent


def test_only_a_character_with_karma_has_the_pool() -> None:
    history, ids = _fight()
    assert _pool(history, ids["Twitch"], KARMA_POOL) == (4, 0)
    assert KARMA_POOL not in history.state.combatant(ids["Mike"]).pools
    history.do(SetAttribute(ids["Mike"], "karma_pool", 2))
    assert _pool(history, ids["Mike"], KARMA_POOL) == (2, 0)


def test_karma_does_not_refresh_with_the_combat_turn_but_when_the_gm_says() -> None:
    history, ids = _fight()
    history.do(SpendPool(ids["Twitch"], KARMA_POOL, 1, "reroll the failed dice"))
    history.do(SpendPool(ids["Twitch"], COMBAT_POOL, 2))
    while history.state.clock.current is not None:
        history.do(NextTurn())
    roll_ones(history, ids)  # the next combat turn
    assert _pool(history, ids["Twitch"], COMBAT_POOL)[1] == 0  # the combat pool came back
    assert _pool(history, ids["Twitch"], KARMA_POOL) == (4, 1)  # karma did not
    entry = history.do(RefreshKarma(ids["Twitch"]))
    assert entry.text() == "Twitch's karma pool refreshes."
    assert _pool(history, ids["Twitch"], KARMA_POOL) == (4, 0)
    history.do(SpendPool(ids["Twitch"], KARMA_POOL, 3))
    assert history.do(RefreshKarma()).text() == "Every karma pool refreshes."
    assert _pool(history, ids["Twitch"], KARMA_POOL) == (4, 0)
    with pytest.raises(OperationError, match="Mike has no karma pool"):
        history.do(RefreshKarma(ids["Mike"]))


def test_bought_successes_burn_karma_for_good() -> None:
    history, ids = _fight()
    entry = history.do(BuyKarmaSuccesses(ids["Twitch"], 2))
    assert entry.text() == "Twitch buys 2 successes with karma: the pool is 2 for good."
    assert _pool(history, ids["Twitch"], KARMA_POOL) == (2, 0)
    history.do(RefreshKarma(ids["Twitch"]))
    assert _pool(history, ids["Twitch"], KARMA_POOL) == (2, 0)  # a refresh does not bring them back
    with pytest.raises(OperationError, match="only 2 karma points left"):
        history.do(BuyKarmaSuccesses(ids["Twitch"], 3))


def test_a_reroll_costs_a_point_and_each_further_reroll_of_the_test_one_more() -> None:
    """"1 point rerolls a test's failed dice (each further reroll of it +1 point)"."""
    assert [reroll_cost(done) for done in range(4)] == [1, 2, 3, 4]
    assert [rerolls_cost(count) for count in range(5)] == [0, 1, 3, 6, 10]


def test_only_the_failed_dice_are_rolled_again() -> None:
    chains = ((5,), (2,), (6, 3), (1,), (6, 1))  # TN 9: 6+3 succeeds, 6+1 fails
    assert failed_dice(chains, 9) == [0, 1, 3, 4]
    assert with_failures_rerolled(chains, 5, ((6,), (1,))) == ((5,), (6,), (6, 3), (1,), (6, 1))
    with pytest.raises(OperationError, match="each failed die"):
        with_failures_rerolled(chains, 5, ((6,),))


def test_an_attack_rerolled_with_karma_spends_the_attackers_points_and_undo_gives_them_back() -> None:
    history, ids = _fight()
    while history.state.clock.current is not None and ids["Twitch"] not in history.state.clock.current.ids:
        history.do(NextTurn())
    shot = Sr3Attack(ids["Twitch"], ids["Ganger 1"], "Ares Predator", 9, "M", 4, ((5,), (4,), (1,)), 4, (),
                     attack_karma_rerolls=2)
    history.do(shot)
    assert _pool(history, ids["Twitch"], KARMA_POOL) == (4, 3)  # 1 + 2 points
    assert "Twitch spends 3 karma points rerolling the failed attack dice (2×)." in history.entries[-1].text()
    history.undo()
    assert _pool(history, ids["Twitch"], KARMA_POOL) == (4, 0)
    with pytest.raises(OperationError, match="only 4 karma points left"):
        history.do(replace(shot, attack_karma_rerolls=3))  # 1 + 2 + 3 = 6 points
    with pytest.raises(OperationError, match="only 0 karma points left"):
        history.do(replace(shot, attacker=ids["Mike"], attack_karma_rerolls=1))  # Mike has no karma pool
