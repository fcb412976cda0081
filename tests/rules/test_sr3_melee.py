"""SR3 melee as one operation, and its odds (sr3.md, Melee).

"opposed, melee skill + pool vs 4 each, modified by reach … The winner's net successes stage its damage up; a winning
defender hits back (on full defence it only avoids). Resistance: Body + pool vs Power − impact armor. Unarmed
(Strength)M Stun. Decisions: a tie hurts nobody (default) or deals base damage; net and resistance successes are
compared once, 2 per level, as in ranged combat (default), or staged twice."
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from rules.combatants import SetOption
from rules.errors import OperationError
from rules.history import History
from rules.serialize import operation_from_data, to_data
from rules.systems.sr3 import Sr3Melee
from rules.systems.sr3.melee import Role, hit_level
from rules.systems.sr3.melee_odds import (
    NOBODY,
    ORDER,
    MeleeQuestion,
    Roll,
    exact_melee_outcome_distribution,
    melee_outcome_distribution,
    outcome_key,
)
from rules.systems.sr3.monitor import PHYSICAL, STUN
from rules.systems.sr3.tables import MeleeStaging, TieRule
from tests.rules.sr3_scenes import eight_characters, roll_ones
from tests.rules.test_sr3_odds import icepool_successes

ONCE, TWICE = MeleeStaging.ONCE, MeleeStaging.TWICE


@pytest.mark.parametrize(("level", "net", "resist", "once", "twice"), [
    ("M", 3, 1, "S", "S"),  # once: 2 net → one step up; twice: 3 up one step, 1 down none
    ("M", 2, 1, "M", "S"),  # once: 1 net → no step; twice: up one, down none
    ("M", 1, 3, "L", "L"),  # once: −2 → one step down; twice: no step up, 3 down one
    ("M", 0, 4, None, None),  # four resistance successes stage a Moderate blow away
    ("L", 4, 1, "M", "S"),  # once: 3 net → one step; twice: 4 up two steps, 1 down none
])
def test_the_staging_decision_by_hand(level: str, net: int, resist: int, once: str | None,
                                      twice: str | None) -> None:
    assert hit_level(level, net, resist, ONCE) == once
    assert hit_level(level, net, resist, TWICE) == twice


def _fight() -> tuple[History, dict[str, str]]:
    history, ids = eight_characters()
    roll_ones(history, ids)  # Mike acts first
    return history, ids


def _katana(ids: dict[str, str], **fields: Any) -> Sr3Melee:
    """Mike swings a katana (5M) at Ganger 1, who would strike back unarmed ((Strength 3)M stun)."""
    base: dict[str, Any] = {"attacker": ids["Mike"], "defender": ids["Ganger 1"], "weapon": "Katana", "power": 5,
                            "level": "M", "attack_tn": 4, "attack_faces": ((5,), (6, 3), (2,), (4,)),
                            "defence_tn": 4, "defence_faces": ((3,), (4,)), "resist_tn": 4,
                            "resist_faces": ((1,), (5,)), "defender_weapon": "Unarmed", "defender_power": 3,
                            "defender_level": "M", "defender_stun": True}
    base.update(fields)
    return Sr3Melee(**base)


def test_the_attacker_wins_and_the_net_and_resistance_are_compared_once() -> None:
    history, ids = _fight()
    entry = history.do(_katana(ids))
    # Mike: 5, 6+3, 2, 4 against 4 → 3; Ganger 1: 3, 4 → 1; net 2; resists 1, 5 against 4 → 1; 2 − 1 = 1: Moderate.
    assert history.state.combatant(ids["Ganger 1"]).boxes(PHYSICAL) == 3
    text = entry.text()
    assert "Mike attacks Ganger 1 in melee with Katana (5M)." in text
    assert "Mike wins the exchange by 2 net successes." in text
    assert "Ganger 1 resists: 1 success at TN 4." in text
    assert "Ganger 1 takes Moderate Physical damage." in text


def test_staged_twice_by_option() -> None:
    history, ids = _fight()
    history.do(SetOption("melee_staging", "twice"))
    history.do(_katana(ids))  # net 2 stages Moderate up to Serious; 1 resistance success stages nothing
    assert history.state.combatant(ids["Ganger 1"]).boxes(PHYSICAL) == 6


def test_a_winning_defender_strikes_back_unless_on_full_defence() -> None:
    history, ids = _fight()
    counter = _katana(ids, attack_faces=((1,), (2,)), defence_faces=((5,), (6, 1), (4,)), resist_faces=((2,),))
    assert counter.attacker_id() == ids["Ganger 1"]  # the harm is the defender's: the summary credits him
    entry = history.do(counter)
    assert "Ganger 1 wins the exchange by 3 net successes and strikes back with Unarmed (3M)." in entry.text()
    assert history.state.combatant(ids["Mike"]).boxes(STUN) == 6  # (3)M stun staged up by 3 − 0 = one step: S
    history, ids = _fight()
    guarded = _katana(ids, attack_faces=((1,), (2,)), defence_faces=((5,), (6, 1), (4,)), resist_faces=(),
                      full_defence=True)
    entry = history.do(guarded)
    assert "Ganger 1 fights on full defence." in entry.text()
    assert "Ganger 1 wins the exchange and avoids the blow." in entry.text()
    assert history.state.combatant(ids["Mike"]).boxes(STUN) == 0
    with pytest.raises(OperationError, match="nobody rolls resistance dice"):
        _fight()[0].do(_katana(ids, attack_faces=((1,),), defence_faces=((5,),), full_defence=True))


def test_a_tie_hurts_nobody_or_by_option_deals_base_damage() -> None:
    history, ids = _fight()
    tie = _katana(ids, attack_faces=((5,), (1,)), defence_faces=((4,),), resist_faces=())
    entry = history.do(tie)
    assert "A tie: nobody is hurt." in entry.text()
    history, ids = _fight()
    history.do(SetOption("melee_tie", "attacker"))
    entry = history.do(_katana(ids, attack_faces=((5,), (1,)), defence_faces=((4,),), resist_faces=((1,),)))
    assert "A tie: the blow lands with its base damage." in entry.text()
    assert history.state.combatant(ids["Ganger 1"]).boxes(PHYSICAL) == 3  # 5M, no net, no resistance


def test_melee_is_a_complex_action_and_spends_pools() -> None:
    history, ids = _fight()
    history.do(_katana(ids, attack_faces=((5,), (6, 3), (2,), (4,), (1,)), attack_pool=1, defence_pool=2,
                       resist_pool=1))
    assert history.state.combatant(ids["Mike"]).pools["combat"].spent == 1
    assert history.state.combatant(ids["Ganger 1"]).pools["combat"].spent == 3  # two to defend, one to resist
    with pytest.raises(OperationError, match="complex action"):
        history.do(_katana(ids))  # a second complex action in the same phase
    history.do(_katana(ids, counts_as_action=False))  # the GM's call: an attack out of turn


def test_bad_melee_input_is_refused_clearly() -> None:
    history, ids = _fight()
    with pytest.raises(OperationError, match="More pool dice than dice rolled"):
        history.do(_katana(ids, defence_pool=3))
    with pytest.raises(OperationError, match="cannot attack themself"):
        history.do(_katana(ids, defender=ids["Mike"]))
    with pytest.raises(OperationError, match="A d6 shows 1 to 6"):
        history.do(_katana(ids, attack_faces=((7,),)))


def test_a_melee_exchange_is_saved_and_read_back() -> None:
    _history, ids = _fight()
    melee = _katana(ids, full_defence=True)
    assert operation_from_data(to_data(melee)) == melee


# --- odds ---------------------------------------------------------------------------------------------------


def test_one_die_each_by_hand() -> None:
    # 1d6 against 4 on both sides: the attacker wins on (success, failure), 1/4; the defender on the reverse, 1/4,
    # striking back; a tie, 1/2, hurts nobody. One net success stages nothing, and no resistance dice: Moderate.
    question = MeleeQuestion(Roll(1, 4), Roll(1, 4), "M", Roll(0, 4), counter_level="M", attacker_resists=Roll(0, 4))
    odds = exact_melee_outcome_distribution(question)
    assert odds[outcome_key(Role.DEFENDER, "M")] == Fraction(1, 4)
    assert odds[outcome_key(Role.ATTACKER, "M")] == Fraction(1, 4)
    assert odds[NOBODY] == Fraction(1, 2)
    guarded = exact_melee_outcome_distribution(MeleeQuestion(Roll(1, 4), Roll(1, 4), "M", Roll(0, 4),
                                                             counter_level="M", full_defence=True))
    assert guarded[NOBODY] == Fraction(3, 4)


def _oracle(question: MeleeQuestion) -> dict[str, Fraction]:
    """Every pair of opposed results and every resistance result, enumerated from icepool's success counts."""
    def table(test: Roll) -> list[tuple[int, Fraction]]:
        die = icepool_successes(test.dice, test.tn)
        return list(zip(die.outcomes(), die.probabilities(), strict=True))

    result = dict.fromkeys(ORDER, Fraction(0))
    counter = question.counter_level if question.counterattacks and not question.full_defence else None
    for a, pa in table(question.attack):
        for d, pd in table(question.defence):
            if a > d or (a == d > 0 and question.tie is TieRule.ATTACKER):
                role, level, resist, net = Role.DEFENDER, question.attack_level, question.defender_resists, a - d
            elif d > a and counter is not None:
                role, level, resist, net = Role.ATTACKER, counter, question.attacker_resists, d - a
            else:
                result[NOBODY] += pa * pd
                continue
            for r, pr in table(resist):
                result[outcome_key(role, hit_level(level, net, r, question.staging))] += pa * pd * pr
    return result


@pytest.mark.parametrize("question", [
    MeleeQuestion(Roll(6, 4), Roll(4, 5), "M", Roll(5, 3), counter_level="S", attacker_resists=Roll(4, 4)),
    MeleeQuestion(Roll(3, 6), Roll(5, 4), "S", Roll(4, 5), counter_level="M", attacker_resists=Roll(6, 3),
                  staging=TWICE, tie=TieRule.ATTACKER),
    MeleeQuestion(Roll(5, 7), Roll(5, 7), "D", Roll(6, 4), full_defence=True),
    MeleeQuestion(Roll(4, 4), Roll(2, 4), "L", Roll(3, 2), counter_level="D", counterattacks=False),
])
def test_the_odds_equal_icepools_enumeration(question: MeleeQuestion) -> None:
    exact = exact_melee_outcome_distribution(question)
    assert exact == _oracle(question)
    assert sum(exact.values()) == 1
    floats = melee_outcome_distribution(question)
    assert all(abs(floats[key] - float(exact[key])) < 1e-12 for key in ORDER)


# --- interception ("Zadržení") -------------------------------------------------------------------------------


def test_an_interception_is_free_out_of_turn_and_costs_the_interceptor_this_pass() -> None:
    # sr3.md, Interception: "A mover passing within 1 m of an opponent … may be attacked once by that opponent, a free
    # melee attack out of turn. The opponent needs actions left and may not act again that pass … the mover is on
    # full defence … A mover who takes damage is stopped."
    from rules.turns import NextTurn

    history, ids = _fight()  # Mike (37) acts and runs past Ganger 1 (26)
    intercept = Sr3Melee(ids["Ganger 1"], ids["Mike"], "Club", 5, "M", 4, ((5,), (6, 2), (4,)), 4, ((1,),),
                         resist_tn=5, resist_faces=((1,), (2,), (3,), (4,)), full_defence=True,
                         counts_as_action=False, interception=True)
    entry = history.do(intercept)
    text = entry.text()
    assert "Ganger 1 intercepts Mike in melee with Club (5M) and gives up the rest of this pass." in text
    assert "Mike is stopped." in text
    assert history.state.combatant(ids["Mike"]).boxes(PHYSICAL) == 6  # 3 net − 0 resisted: Moderate → Serious
    with pytest.raises(OperationError, match="no action left in this pass"):
        history.do(intercept)  # once a pass
    history.do(NextTurn())
    assert history.state.clock.current is not None
    assert history.state.combatant(history.state.clock.current.ids[0]).name == "Dave"  # Ganger 1's phase is gone


def test_an_interception_takes_no_action_and_the_mover_is_on_full_defence() -> None:
    history, ids = _fight()
    base: dict[str, Any] = {"attacker": ids["Ganger 1"], "defender": ids["Mike"], "weapon": "Club", "power": 5,
            "level": "M",
            "attack_tn": 4, "attack_faces": ((5,),), "defence_tn": 4, "defence_faces": ((1,),),
            "resist_faces": ((1,),), "resist_tn": 5, "interception": True}
    with pytest.raises(OperationError, match="free attack out of turn"):
        history.do(Sr3Melee(**base, full_defence=True))  # counts as an action: refused
    with pytest.raises(OperationError, match="free attack out of turn"):
        history.do(Sr3Melee(**base, counts_as_action=False))  # the mover not on full defence: refused


def test_the_log_knows_how_unlikely_an_exchange_was() -> None:
    # One die each against 4, no resistance dice: the attacker lands its Moderate blow with 1/4 (success against
    # failure; one net success stages nothing). At the defender's end of the scale, "at least as extreme" is that 1/4.
    from rules.systems.sr3 import SYSTEM
    from rules.systems.sr3.outcomes import melee_probability

    history, ids = _fight()
    melee = _katana(ids, attack_faces=((5,),), defence_faces=((1,),), resist_faces=(), resist_tn=4)
    before = history.state
    assert melee_probability(melee, before) == pytest.approx(1 / 4)
    assert SYSTEM.outcome_probability(melee, before) == pytest.approx(1 / 4)
