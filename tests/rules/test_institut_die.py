"""The Institute's die as an option (institut.md Decision: "d6, summed (default, a plain reading nothing in the
text contradicts; the die size is an option)"): every pool rolls the chosen die, and the odds follow it."""

from __future__ import annotations

from fractions import Fraction

import icepool
import pytest

from rules.combatants import SetOption
from rules.errors import OperationError, RulesError
from rules.history import History
from rules.systems.institut import InstitutAttack, attack_outcome_distribution, pool_total, success_probability
from rules.systems.institut.combat import Defence, DodgeTie
from rules.systems.institut.odds import MISS
from rules.systems.institut.outcomes import attack_probability
from rules.systems.institut.system import pool_die
from tests.rules.test_institut_scenes import INSTITUT, cast, roll


def test_the_die_is_a_d6_unless_the_gm_chooses_another() -> None:
    history, ids = cast(("Sokolov", "Vera"))
    assert pool_die(history.state) == 6
    spec = next(spec for spec in INSTITUT.option_specs() if spec.key == "die")
    assert [value for value, _label in spec.choices] == ["4", "6", "8", "10", "12", "20"]
    history.do(SetOption("die", "10"))
    assert pool_die(history.state) == 10
    dice = INSTITUT.initiative_dice(history.state.combatant(ids["Vera"]), history.state)
    assert dice.sides == 10  # Agility + Thinking d10, summed


def test_a_die_no_setting_offers_is_refused() -> None:
    history, _ids = cast(("Sokolov",))
    with pytest.raises(RulesError):
        history.do(SetOption("die", "7"))


def _d10_round() -> tuple[History, dict[str, str]]:
    history, ids = cast(("Sokolov", "Bandit 2"))
    history.do(SetOption("die", "10"))
    counts = {cid: INSTITUT.initiative_dice(history.state.combatant(cid), history.state).count for cid in ids.values()}
    roll(history, {ids["Sokolov"]: (10,) * counts[ids["Sokolov"]], ids["Bandit 2"]: (1,) * counts[ids["Bandit 2"]]})
    return history, ids


def test_faces_are_checked_against_the_chosen_die() -> None:
    history, ids = _d10_round()
    with pytest.raises(OperationError, match=r"A d10 shows 1 to 10\."):
        history.do(InstitutAttack(ids["Sokolov"], ids["Bandit 2"], "Makarov", (11, 5), "dodge", (3,)))
    history.do(InstitutAttack(ids["Sokolov"], ids["Bandit 2"], "Makarov", (10, 9), "dodge", (3,),
                              damage_rolls=((10, 2),)))
    assert "Sokolov attacks Bandit 2 with Makarov: 19 points." in history.entries[-1].text()
    default, default_ids = cast(("Sokolov", "Bandit 2"))
    roll(default, {default_ids["Sokolov"]: (6,) * 6, default_ids["Bandit 2"]: (1,) * 4})
    with pytest.raises(OperationError, match=r"A d6 shows 1 to 6\."):
        default.do(InstitutAttack(default_ids["Sokolov"], default_ids["Bandit 2"], "Makarov", (10, 9), "dodge", (3,)))


@pytest.mark.parametrize("sides", [4, 10, 20])
def test_pools_of_another_die_equal_icepools(sides: int) -> None:
    oracle = 3 @ icepool.d(sides)
    assert pool_total(3, exact=True, sides=sides).to_dict() == dict(zip(oracle.outcomes(), oracle.probabilities(),
                                                                        strict=True))
    reach = sum((p for total, p in zip(oracle.outcomes(), oracle.probabilities(), strict=True) if total >= 15),
                Fraction(0))
    assert success_probability(3, 15, exact=True, sides=sides) == reach


def test_a_d10_attack_by_hand() -> None:
    # One d10 against one d10, a dodge equal to the attack does not avoid it: P(attack ≥ dodge) = 55/100.
    odds = attack_outcome_distribution(1, Defence.DODGE, 1, None, tie=DodgeTie.ATTACKER, exact=True, sides=10)
    assert odds[MISS] == Fraction(45, 100)
    assert attack_outcome_distribution(1, Defence.DODGE, 1, None, exact=True)[MISS] == Fraction(15, 36)  # d6


def test_the_log_odds_of_a_resolved_attack_use_the_encounters_die() -> None:
    history, ids = _d10_round()
    before = history.state
    attack = InstitutAttack(ids["Sokolov"], ids["Bandit 2"], "Makarov", (1,), "dodge", (10,))
    history.do(attack)
    # Missed with the lowest roll: P(an outcome at least as bad) = P(miss) of 1d10 against 1d10 = 0.45.
    assert attack_probability(attack, before, INSTITUT) == pytest.approx(0.45)
