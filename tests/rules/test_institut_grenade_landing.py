"""Where a missed grenade lands (institut.md Grenades): "Failure: it deviates in a random direction by (distance −
roll) metres; a clearly short throw (roll much lower than the distance) is not to be read as an overshoot".
Decision: "the GM picks the direction (or a d6 on a hex); «clearly short» = a roll of at most half the distance,
landing between thrower and target"."""

from __future__ import annotations

from fractions import Fraction

import icepool
import pytest

from rules.combatants import SetOption
from rules.systems.institut import ThrowGrenade
from rules.systems.institut.combat import Landing, clearly_short, landing
from rules.systems.institut.odds import throw_distribution
from tests.rules.test_institut_rules import started


@pytest.mark.parametrize(("direction", "from_thrower"), [(1, 14), (2, 12), (3, 9), (4, 6), (5, 9), (6, 12)])
def test_a_miss_lands_distance_minus_roll_off_target_in_the_hex_direction(direction: int, from_thrower: int) -> None:
    """10 m, a roll of 6: 4 m off; beyond the target 14 m from the thrower, towards him 6 m, 60° steps between."""
    assert landing(10, 6, direction) == Landing(4, from_thrower, direction)


def test_a_clearly_short_throw_lands_between_thrower_and_target_whatever_the_direction() -> None:
    """10 m, a roll of 5 (half the distance): 5 m short, 5 m from the thrower — not beyond, even if 1 was picked."""
    assert clearly_short(10, 5) and not clearly_short(10, 6) and not clearly_short(10, 10)
    assert landing(10, 5, 1) == Landing(5, 5, 4, clearly_short=True)
    assert landing(10, 10, 1) == Landing(0, 10, 0)  # reached: on target


def test_the_throw_is_logged_with_where_it_lands_and_undone() -> None:
    history, ids = started()
    text = [line.render() for line in history.do(ThrowGrenade(ids["Sokolov"], "F-1", 10, (3, 3), True,
                                                               direction=3)).log]
    assert text[:2] == ["Sokolov throws F-1 10 m: 6 points.",
                        "It lands 4 m off target, short, to the right: 9 m from Sokolov."]
    history.undo()
    text = [line.render() for line in history.do(ThrowGrenade(ids["Sokolov"], "F-1", 10, (2, 2), True,
                                                               direction=1)).log]
    assert text[1] == ("A clearly short throw: it lands 6 m short of the target, between Sokolov and the target, "
                       "4 m from Sokolov.")


def test_an_old_throw_without_a_direction_is_logged_as_it_was() -> None:
    history, ids = started()
    text = [line.render() for line in history.do(ThrowGrenade(ids["Sokolov"], "F-1", 10, (3, 3), True)).log]
    assert text[1].startswith("It lands 4 m off target, in a random direction")


def test_ambush_points_are_added_to_the_throw() -> None:
    """Modifiers counted in points (the option): +3 for the ambush makes 6 rolled a 9, 1 m off."""
    history, ids = started()
    history.do(SetOption("modifier_unit", "points"))
    text = [line.render() for line in history.do(ThrowGrenade(ids["Sokolov"], "F-1", 10, (3, 3), True,
                                                               direction=4, points=3)).log]
    assert text[0] == "Sokolov throws F-1 10 m: 9 points."
    assert "It lands 1 m off target, short, towards the thrower: 9 m from Sokolov." in text


def test_the_landing_odds_with_points_equal_icepool() -> None:
    oracle = 2 @ icepool.d6 + 3
    table = {int(k): Fraction(v) for k, v in zip(oracle.outcomes(), oracle.probabilities(), strict=True)}
    expected = {0: sum((p for total, p in table.items() if total >= 10), Fraction(0))}
    expected.update({10 - total: p for total, p in table.items() if total < 10})
    assert throw_distribution(2, 10, exact=True, points=3) == dict(sorted(expected.items()))
