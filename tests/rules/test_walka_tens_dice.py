"""Walka's d100 option "an extra tens die" (walka.md Decision: "a bonus die = roll one more die and keep the lowest,
a penalty die = keep the highest (option for d100: an extra tens die)").

The units die is rolled once; each bonus or penalty die left after cancelling is one more tens die beside it. The
numbers below are worked by hand, and the odds are checked against icepool.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import Any

import icepool
import pytest

from rules.dice import DiceError, Roller, RollUnderTest, parse
from rules.errors import OperationError
from rules.history import History
from rules.serialize import to_data
from rules.systems.walka import SYSTEM, WalkaAttack
from rules.systems.walka.contest import Outcome, contest
from rules.systems.walka.odds import exact_kept_distribution, exact_outcome_chances, outcome_chances
from tests.rules.test_walka_scenes import roll, table


def hand_face(tens: int, units: int) -> int:
    """Percentile dice as the book reads them: tens 00 and units 0 make 100."""
    return 10 * tens + units if (tens, units) != (0, 0) else 100


@cache
def icepool_tens_kept(bonus: int, penalty: int) -> Any:
    """One units die and 1 + |net| tens dice (0..9 each), the lowest or highest face kept."""
    net = bonus - penalty
    count = 1 + abs(net)
    keep = min if net > 0 else max

    def kept(units: int, *tens: int) -> int:
        return keep(hand_face(digit, units) for digit in tens)

    digit = icepool.d10 - 1
    return icepool.map(kept, digit, *([digit] * count))


def test_a_bonus_tens_die_by_hand() -> None:
    # Skill 45, one bonus die. Whole d100s: 1 − (55/100)² = 0.6975. Tens dice: units 1–5 succeed with tens 0–4
    # (1 − (5/10)² = 0.75), units 6–9 and 0 with tens 0–3 (1 − (6/10)² = 0.64): (5·0.75 + 5·0.64)/10 = 0.695.
    assert exact_kept_distribution(100, 1, 0, tens=True).at_most(45) == Fraction(695, 1000)
    assert exact_kept_distribution(100, 1, 0).at_most(45) == Fraction(6975, 10000)


def test_a_penalty_tens_die_by_hand() -> None:
    # Skill 45, one penalty die: units 1–5 need both tens at 0–4 ((5/10)² = 0.25), the others both at 0–3 (0.16):
    # (5·0.25 + 5·0.16)/10 = 0.205, against 0.45² = 0.2025 with whole dice.
    assert exact_kept_distribution(100, 0, 1, tens=True).at_most(45) == Fraction(205, 1000)
    assert exact_kept_distribution(100, 0, 1).at_most(45) == Fraction(2025, 10000)


def test_without_extra_dice_the_tens_option_changes_nothing() -> None:
    assert exact_kept_distribution(100, 0, 0, tens=True) == exact_kept_distribution(100)
    assert exact_kept_distribution(100, 2, 2, tens=True) == exact_kept_distribution(100)


@pytest.mark.parametrize(("bonus", "penalty"), [(1, 0), (2, 0), (0, 1), (0, 2), (3, 1)])
def test_the_kept_face_matches_icepool(bonus: int, penalty: int) -> None:
    oracle = icepool_tens_kept(bonus, penalty)
    ours = exact_kept_distribution(100, bonus, penalty, tens=True)
    assert ours.to_dict() == {face: p for face, p in zip(oracle.outcomes(), oracle.probabilities(), strict=True)
                              if p}


@pytest.mark.parametrize(("attack_skill", "defence_skill", "ab", "ap", "db", "dp"), [
    (45, 60, 1, 0, 0, 0), (45, 60, 0, 1, 1, 0), (80, 30, 2, 0, 0, 2), (100, 100, 1, 0, 1, 0), (45, None, 1, 0, 0, 0),
])
def test_attack_outcomes_match_icepool(attack_skill: int, defence_skill: int | None, ab: int, ap: int, db: int,
                                       dp: int) -> None:
    attacker = icepool_tens_kept(ab, ap)
    if defence_skill is None:
        judged = attacker.map(lambda a: contest(a, attack_skill, None, 0).value)
    else:
        defender = icepool_tens_kept(db, dp)  # the defender rolls their own units die
        judged = icepool.map(lambda a, d: contest(a, attack_skill, d, defence_skill).value, attacker, defender)
    table_ = dict(zip(judged.outcomes(), judged.probabilities(), strict=True))
    exact = exact_outcome_chances(attack_skill, defence_skill, 100, ab, ap, db, dp, tens=True)
    assert exact == {outcome: table_.get(outcome.value, Fraction(0)) for outcome in Outcome}
    floats = outcome_chances(attack_skill, defence_skill, 100, ab, ap, db, dp, tens=True)
    assert all(abs(floats[key] - float(exact[key])) < 1e-12 for key in Outcome)


def test_the_dice_line_reads_and_writes_tens_dice() -> None:
    test = parse("d100 under 45 +1b tens")
    assert test == RollUnderTest(100, 45, 1, 0, tens=True)
    assert parse(test.text) == test
    assert test.label() == "d100 under 45, 1 bonus die, as tens dice"
    with pytest.raises(DiceError, match="Only a d100 has tens dice"):
        parse("d20 under 12 +1b tens")


def test_rolled_tens_dice_share_their_units_die() -> None:
    test, roller = RollUnderTest(100, 45, 2, 0, tens=True), Roller.seeded(7)
    seen_units = set()
    for _ in range(300):
        faces = [chain[0] for chain in test.roll(roller).faces]
        assert len(faces) == 3 and len({face % 10 for face in faces}) == 1
        assert all(1 <= face <= 100 for face in faces)
        seen_units.add(faces[0] % 10)
    assert seen_units == set(range(10))


def test_typed_faces_must_end_alike() -> None:
    test = RollUnderTest(100, 45, 1, 0, tens=True)
    assert test.from_faces("75, 35").total == 35
    assert test.from_faces("100, 40").total == 40  # 00 and 0 is 100, the highest face
    with pytest.raises(DiceError, match="same digit"):
        test.from_faces("75, 36")
    assert RollUnderTest(100, 45, 1, 0).from_faces("75, 36").total == 36  # whole dice: any two faces


def _tens_table() -> History:
    history, _ids = table({"test_die": "100_tens"})
    roll(history, Ania=1, Bartek=5, Celina=7, GM=9)
    return history


def test_the_option_asks_for_tens_dice_and_the_attack_checks_them() -> None:
    history = _tens_table()
    assert SYSTEM.tens_dice(history.state) and SYSTEM.test_die(history.state) == 100
    with pytest.raises(OperationError, match="same digit"):
        history.do(WalkaAttack("c1", "c5", "firearms", 12, "dodge", 8, (75, 6), (), 100, attack_bonus=1, tens=True))
    history.do(WalkaAttack("c1", "c5", "firearms", 12, "dodge", 8, (75, 5), (18,), 100, attack_bonus=1, tens=True,
                           weapon_dice=3, damage_faces=(4, 5, 1)))
    assert history.state.combatant("c5").boxes("hp") == 2  # kept 5 ≤ 12 beats the failed 18; 2 dice of 3 hit


def test_a_d20_attack_cannot_claim_tens_dice() -> None:
    history, _ids = table()
    roll(history, Ania=1, Bartek=5, Celina=7, GM=9)
    with pytest.raises(OperationError, match="Only a d100 has tens dice"):
        history.do(WalkaAttack("c1", "c5", "firearms", 12, "dodge", 8, (3, 13), (), 20, attack_bonus=1, tens=True))


def test_an_attack_without_tens_dice_is_saved_as_before() -> None:
    attack = WalkaAttack("c1", "c5", "firearms", 12, "dodge", 8, (3,), (9,))
    assert "tens" not in to_data(attack)  # old files and old readers see the same operation
