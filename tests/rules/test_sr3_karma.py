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


def _ganger_with_karma(history: History, ids: dict[str, str], points: int = 3) -> None:
    history.do(SetAttribute(ids["Ganger 1"], "karma_pool", points))
    while history.state.clock.current is not None and ids["Twitch"] not in history.state.clock.current.ids:
        history.do(NextTurn())


def test_the_target_pays_its_own_karma_for_dodge_and_resistance_rerolls() -> None:
    """"1 point rerolls a test's failed dice (each further reroll of it +1 point)": any test, so the target's dodge
    and resistance too, each counted on its own and paid from the target's pool."""
    history, ids = _fight()
    _ganger_with_karma(history, ids, 4)
    shot = Sr3Attack(ids["Twitch"], ids["Ganger 1"], "Ares Predator", 9, "M", 4, ((5,), (4,), (1,)), 4,
                     ((2,), (5,)), dodge_faces=((4,),), dodge_karma_rerolls=1, resist_karma_rerolls=2)
    entry = history.do(shot)
    assert _pool(history, ids["Ganger 1"], KARMA_POOL) == (4, 4)  # dodge 1 + resistance 1 + 2
    assert _pool(history, ids["Twitch"], KARMA_POOL) == (4, 0)
    text = entry.text()
    assert "Ganger 1 spends 1 karma point rerolling the failed dodge dice (1×)." in text
    assert "Ganger 1 spends 3 karma points rerolling the failed resistance dice (2×)." in text
    history.undo()
    assert _pool(history, ids["Ganger 1"], KARMA_POOL) == (4, 0)
    with pytest.raises(OperationError, match="Ganger 1 has only 1 karma point left"):
        history.do(replace(shot, dodge_karma_rerolls=2))  # 3 + 3 points


def test_a_karma_point_turns_all_ones_into_a_plain_failure() -> None:
    """"1 point turns all 1s into a plain failure": all ones with explosive rounds detonate in the weapon, unless
    the shooter pays a point; then the shot simply misses."""
    history, ids = _fight()
    _ganger_with_karma(history, ids)
    ones = Sr3Attack(ids["Twitch"], ids["Ganger 1"], "Ares Predator", 9, "M", 4, ((1,), (1,), (1,)), 4, ((3,),),
                     ammo="ex", misfire_roll=4)
    before = history.state.combatant(ids["Twitch"]).damage
    detonated = history.do(ones).text()
    assert "explosive round detonates in the weapon" in detonated
    history.undo()
    averted = history.do(replace(ones, karma_averts_disaster=True, resist_faces=(), misfire_roll=None)).text()
    assert "Twitch spends 1 karma point: the attack's all 1s are a plain failure." in averted
    assert "detonates" not in averted and "The attack misses." in averted
    assert _pool(history, ids["Twitch"], KARMA_POOL) == (4, 1)
    assert history.state.combatant(ids["Twitch"]).damage == before
    history.undo()
    with pytest.raises(OperationError, match="only an attack test of all 1s"):
        history.do(replace(ones, attack_faces=((1,), (5,), (1,)), karma_averts_disaster=True))


def test_the_shooter_pays_the_resistance_rerolls_against_its_own_detonation() -> None:
    history, ids = _fight()
    _ganger_with_karma(history, ids)
    ones = Sr3Attack(ids["Twitch"], ids["Ganger 1"], "Ares Predator", 9, "M", 4, ((1,), (1,)), 4, ((3,), (2,)),
                     ammo="ex", misfire_roll=4, resist_karma_rerolls=1)
    text = history.do(ones).text()
    assert "Twitch spends 1 karma point rerolling the failed resistance dice (1×)." in text
    assert _pool(history, ids["Twitch"], KARMA_POOL) == (4, 1)
    assert _pool(history, ids["Ganger 1"], KARMA_POOL) == (3, 0)


def test_successes_bought_for_a_test_count_in_it_and_burn_the_payers_karma_for_good() -> None:
    """"bought successes cost 1 point each, permanently, and need at least one rolled success": Twitch's 1 rolled
    success against TN 4 plus 2 bought beat Ganger 1's dodge of 2; the pool is 2 for good, and a refresh does not
    bring the points back."""
    history, ids = _fight()
    _ganger_with_karma(history, ids)
    shot = Sr3Attack(ids["Twitch"], ids["Ganger 1"], "Ares Predator", 9, "M", 4, ((5,), (2,), (1,)), 4,
                     ((1,), (1,)), dodge_faces=((4,), (6,)), attack_bought=2)
    assert shot.successes() == (3, 2, 0)
    text = history.do(shot).text()
    assert "Twitch buys 2 attack successes with karma: the pool is 2 for good." in text
    assert "The attack misses." not in text and "Ganger 1 takes" in text
    assert _pool(history, ids["Twitch"], KARMA_POOL) == (2, 0)
    history.do(RefreshKarma(ids["Twitch"]))
    assert _pool(history, ids["Twitch"], KARMA_POOL) == (2, 0)
    history.undo()
    history.undo()
    assert _pool(history, ids["Twitch"], KARMA_POOL) == (4, 0)
    with pytest.raises(OperationError, match="only for a test that rolled at least one"):
        history.do(replace(shot, dodge_faces=((1,), (2,)), dodge_bought=1))  # the dodge rolled none
    with pytest.raises(OperationError, match="only 3 karma points left"):
        history.do(replace(shot, attack_bought=0, dodge_bought=4))


def test_the_target_buys_dodge_successes_from_its_own_pool() -> None:
    history, ids = _fight()
    _ganger_with_karma(history, ids)
    shot = Sr3Attack(ids["Twitch"], ids["Ganger 1"], "Ares Predator", 9, "M", 4, ((5,), (6,), (1,)), 4,
                     ((1,), (1,)), dodge_faces=((4,), (2,)), dodge_bought=2)
    text = history.do(shot).text()
    assert "Ganger 1 buys 2 dodge successes with karma: the pool is 1 for good." in text
    assert "Ganger 1 dodges the attack completely." in text  # 1 rolled + 2 bought beat 2 hits
    assert _pool(history, ids["Ganger 1"], KARMA_POOL) == (1, 0)
