"""Institute suppression fire from several shooters, from institut.md's text:

"For the whole round anyone crossing a covered square must dodge against difficulty = «общему числу выпущенных по
квадратному метру пуль» (the total number of bullets fired at that square metre, from all shooters) × 4, once per
square crossed, or take one bullet; anyone standing in the area dodges once." Decision: "bullets per square = the
rounds of each full-auto burst fired at it (one burst per square); the forced dodge is not an action".
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from rules.errors import OperationError
from rules.history import History
from rules.systems.institut import CrossSuppression, SuppressionFire, SuppressionRoll, rounds
from rules.systems.institut.odds import bullets_distribution
from rules.systems.institut.pyramid import CLASSES
from rules.systems.institut.system import tables
from rules.turns import NextTurn
from tests.rules.test_institut_rules import started
from tests.rules.test_institut_scenes import INSTITUT, play_round


def _wounds(history: History, cid: str) -> int:
    return sum(history.state.combatant(cid).boxes(key) for key in CLASSES)


def _two_shooters(a: int = 6, b: int = 4) -> tuple[History, dict[str, str]]:
    """Sokolov bursts ``a`` rounds into every square of the corridor, then Vera ``b`` rounds."""
    history, ids = started()
    history.do(SuppressionFire(ids["Sokolov"], "the corridor", 3, a, "PK", 8))
    history.do(NextTurn())
    history.do(SuppressionFire(ids["Vera"], "  The Corridor ", 2, b, "AK-74", 7))
    return history, ids


def test_two_shooters_bursts_on_one_square_make_the_difficulty_their_sum_times_four() -> None:
    history, ids = _two_shooters(6, 4)
    area = rounds.suppressed_area(history.state, "the corridor", tables(history.state).modifiers)
    assert area is not None
    assert area.bullets == 6 + 4 and area.difficulty == (6 + 4) * 4
    assert set(area.shooters) == {ids["Sokolov"], ids["Vera"]}
    text = history.entries[-1].text()
    assert "under fire from 2 shooters: 10 bullets per square metre in all, dodge difficulty 40" in text
    names = sorted(effect.name for effect in history.state.effects.values())
    assert names == ["Suppression fire: the corridor (difficulty 40)"] * 2  # both shooters' effects say the sum


def test_one_shooter_alone_keeps_the_difficulty_of_his_own_bullets() -> None:
    history, ids = started()
    history.do(SuppressionFire(ids["Sokolov"], "the door", 1, 6, "PK", 8))
    area = rounds.suppressed_area(history.state, "the door", tables(history.state).modifiers)
    assert area is not None and area.difficulty == 24


def test_different_areas_are_not_added_up() -> None:
    history, ids = started()
    history.do(SuppressionFire(ids["Sokolov"], "the door", 1, 6))
    history.do(NextTurn())
    history.do(SuppressionFire(ids["Vera"], "the window", 1, 4))
    areas = rounds.suppressed_areas(history.state, tables(history.state).modifiers)
    assert sorted((area.name, area.difficulty) for area in areas.values()) == [("the door", 24), ("the window", 16)]


def test_crossing_three_squares_is_three_dodges_each_failure_a_bullet() -> None:
    history, ids = _two_shooters(2, 1)  # difficulty (2 + 1) × 4 = 12
    bandit = ids["Bandit 1"]
    made, failed = SuppressionRoll((6, 6)), SuppressionRoll((5, 6), (5, 5))  # 12 gets through; 11 does not
    entry = history.do(CrossSuppression(bandit, "the corridor", 3, (made, failed, failed)))
    text = entry.text()
    assert "Bandit 1 crosses 3 squares under suppression fire on the corridor: a dodge against 12 in each." in text
    assert text.count("Bandit 1 takes a bullet.") == 2
    assert "Bandit 1 takes 2 bullets in the corridor." in text
    assert history.state.combatant(bandit).boxes("medium") == 2  # each bullet 10 points: Medium
    for count in (2, 4):
        with pytest.raises(OperationError, match="makes 3 dodges here"):
            history.do(CrossSuppression(bandit, "the corridor", 3, (made,) * count))


def test_standing_in_the_area_is_one_dodge() -> None:
    history, ids = _two_shooters(2, 1)
    bandit = ids["Bandit 2"]
    entry = history.do(CrossSuppression(bandit, "the corridor", 0, (SuppressionRoll((6, 6)),)))
    assert "stands in the suppression fire on the corridor: one dodge against 12." in entry.text()
    assert "Bandit 2 gets through the corridor unhurt." in entry.text() and _wounds(history, bandit) == 0
    with pytest.raises(OperationError, match="makes 1 dodge here, not 2"):
        history.do(CrossSuppression(bandit, "the corridor", 0, (SuppressionRoll((6, 6)),) * 2))


def test_the_forced_dodge_is_no_action_and_a_made_dodge_takes_no_damage_roll() -> None:
    history, ids = _two_shooters(2, 1)
    bandit = ids["Bandit 1"]
    before = history.state.combatant(bandit).actions_used
    history.do(CrossSuppression(bandit, "the corridor", 1, (SuppressionRoll((6, 6)),)))
    assert history.state.combatant(bandit).actions_used == before
    with pytest.raises(OperationError, match="no bullet"):
        history.do(CrossSuppression(bandit, "the corridor", 1, (SuppressionRoll((6, 6), (3,)),)))


def test_the_fire_lasts_the_round_and_an_unknown_area_is_refused() -> None:
    history, ids = _two_shooters()
    with pytest.raises(OperationError, match="Nobody lays suppression fire on the yard"):
        history.do(CrossSuppression(ids["Bandit 1"], "the yard", 1, (SuppressionRoll((6,)),)))
    play_round(history)
    with pytest.raises(OperationError, match="Nobody lays suppression fire on the corridor"):
        history.do(CrossSuppression(ids["Bandit 1"], "the corridor", 1, (SuppressionRoll((6,)),)))


def test_a_crossing_is_undone_as_one_step() -> None:
    history, ids = _two_shooters(2, 1)
    before = history.state
    history.do(CrossSuppression(ids["Bandit 1"], "the corridor", 2,
                                (SuppressionRoll((1, 1), (6, 6, 6)), SuppressionRoll((1, 1), (6, 6)))))
    assert _wounds(history, ids["Bandit 1"]) == 2
    history.undo()
    assert history.state == before


def test_the_bullets_taken_follow_a_binomial_of_the_dodge() -> None:
    # 2d6 against 12: only a double six, 1/36. Three dodges: no bullet (1/36)³ … three bullets (35/36)³.
    spread = bullets_distribution(2, 12, 3)
    made = Fraction(1, 36)
    expected = [made ** 3, 3 * made ** 2 * (1 - made), 3 * made * (1 - made) ** 2, (1 - made) ** 3]
    assert [spread[k] for k in range(4)] == pytest.approx([float(p) for p in expected])


def test_the_log_s_odds_of_a_crossing_are_those_of_its_bullet_count() -> None:
    history, ids = _two_shooters(2, 1)
    crossing = CrossSuppression(ids["Bandit 1"], "the corridor", 3,
                                (SuppressionRoll((6, 6)), SuppressionRoll((6, 6)), SuppressionRoll((6, 6))))
    made = 1 / 36
    assert INSTITUT.outcome_probability(crossing, history.state) == pytest.approx(made ** 3)
