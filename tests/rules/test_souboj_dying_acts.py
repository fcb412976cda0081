"""Souboj, "Dying": a dying creature can do nothing but its one last action; a critical wound kills on the spot.

souboj.md: "at 0 HP or less (the shadow rule aside) a creature is dying. It can do nothing; but if it is dying at the
start of its turn it may roll Endurance for one last action, regardless of how many actions it should have had."
Decisions: "the last action is allowed once (it is the *last*), its Endurance roll judged by the GM"; "a critical
flat blow does not kill on the spot (shadow damage is not lethal)". Round: "Everyone with the same score acts **at
the same time**".
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import pytest

from rules.combatants import ApplyHarm, SetAttribute, SetDamage, SetOption, SpendAction
from rules.encounter import JsonValue, Status
from rules.errors import OperationError
from rules.history import History
from rules.serialize import operation_from_data, to_data
from rules.systems.souboj import FinishOff, JudgeLastAction, MarkDead, SoubojAttack
from rules.systems.souboj.model import Cause, Kind
from rules.turns import NextTurn
from tests.rules.test_souboj_scene import SOUBOJ, current, fight, finish_round, roll

#: As a new fight has it: the option stored, so each dying is dated.
RULE: Mapping[str, JsonValue] = {"dying_last_action": True}


def _blow(attacker: str, target: str, **changes: object) -> SoubojAttack:
    """1d6 5 + 14 against 1d6 2 + 7: base 10, + Strength 8 − armor 1 = 17."""
    fields: dict[str, object] = {"attack_bonus": 14, "defence_bonus": 7, "attack_roll": 5, "defence_roll": 2,
                                 "strength": 8, "armor": 1, "level": 4}
    fields.update(changes)
    return SoubojAttack(attacker, target, Kind.MELEE, **fields)  # type: ignore[arg-type]


def _status(history: History, combatant_id: str) -> Status:
    return SOUBOJ.status(history.state.combatant(combatant_id), history.state)


def _to_bandits_turn(history: History, ids: dict[str, str]) -> None:
    roll(history, ids, Aleš=6, Bora=5, Cyril=3, Bandit=2, Chief=1)
    while current(history) != ["Bandit"]:
        history.do(NextTurn())


def _bandit_dying_at_its_turn(options: Mapping[str, JsonValue] | None = None) -> tuple[History, dict[str, str]]:
    """The Bandit (20 hit points) falls to −2 before the round; its turn comes at score 2."""
    history, ids = fight(RULE if options is None else options)
    history.do(ApplyHarm(ids["Bandit"], "wounds", 22))
    assert _status(history, ids["Bandit"]) is Status.DYING
    _to_bandits_turn(history, ids)
    return history, ids


# --- "It can do nothing" ----------------------------------------------------------------------------------------


def test_a_dying_creature_can_do_nothing_at_its_turn() -> None:
    history, ids = _bandit_dying_at_its_turn()
    before = history.state
    with pytest.raises(OperationError, match=re.escape(
            "Bandit is dying: “It can do nothing; but if it is dying at the start of its turn it may roll Endurance "
            "for one last action.” Judge that roll first (Dying and death).")):
        history.do(_blow(ids["Bandit"], ids["Aleš"]))
    with pytest.raises(OperationError, match="Bandit is dying"):
        history.do(SpendAction(ids["Bandit"], "action"))
    with pytest.raises(OperationError, match="Bandit is dying"):
        history.do(FinishOff(ids["Bandit"], ids["Aleš"]))
    assert history.state is before


def test_out_of_its_turn_a_dying_creature_can_do_nothing_either() -> None:
    history, ids = fight(RULE)
    history.do(ApplyHarm(ids["Bandit"], "wounds", 20))  # exactly 0: "0 nebo méně", dying
    with pytest.raises(OperationError, match="Bandit is dying"):
        history.do(_blow(ids["Bandit"], ids["Aleš"]))


def test_a_failed_endurance_roll_leaves_it_nothing() -> None:
    history, ids = _bandit_dying_at_its_turn()
    history.do(JudgeLastAction(ids["Bandit"], False))
    with pytest.raises(OperationError, match=re.escape(
            "failed its Endurance roll for one last action: “It can do nothing.”")):
        history.do(_blow(ids["Bandit"], ids["Aleš"]))


# --- "one last action", once ------------------------------------------------------------------------------------


def test_the_granted_last_action_is_taken_once_then_refused_again() -> None:
    history, ids = _bandit_dying_at_its_turn()
    history.do(JudgeLastAction(ids["Bandit"], True))
    history.do(_blow(ids["Bandit"], ids["Aleš"]))
    assert history.entries[-1].text().splitlines()[:2] == ["Bandit takes its one last action.",
                                                           "Bandit attacks Aleš (Melee (face to face))."]
    assert history.state.combatant(ids["Aleš"]).boxes("wounds") == 17
    with pytest.raises(OperationError, match="has taken its one last action: “It can do nothing” more"):
        history.do(_blow(ids["Bandit"], ids["Aleš"]))
    with pytest.raises(OperationError, match="has taken its one last action"):
        history.do(SpendAction(ids["Bandit"], "action"))
    history.undo()  # the attack undone: the last action is there again
    history.do(SpendAction(ids["Bandit"], "action"))
    with pytest.raises(OperationError, match="has taken its one last action"):
        history.do(_blow(ids["Bandit"], ids["Aleš"]))


def test_the_last_action_comes_regardless_of_how_many_actions_it_should_have_had() -> None:
    history, ids = fight(RULE)
    history.do(SetAttribute(ids["Bandit"], "actions_per_round", 0))
    history.do(ApplyHarm(ids["Bandit"], "wounds", 22))
    _to_bandits_turn(history, ids)
    history.do(JudgeLastAction(ids["Bandit"], True))
    history.do(SpendAction(ids["Bandit"], "action"))
    assert history.state.combatant(ids["Bandit"]).extra["last_action_taken"] is True


def test_healed_and_dying_again_it_may_roll_afresh() -> None:
    history, ids = _bandit_dying_at_its_turn()
    history.do(JudgeLastAction(ids["Bandit"], True))
    history.do(_blow(ids["Bandit"], ids["Aleš"]))
    history.do(ApplyHarm(ids["Bandit"], "wounds", -10))  # saved: that dying is over
    assert not {"last_action", "last_action_taken", "dying_since"} & set(history.state.combatant(ids["Bandit"]).extra)
    history.do(ApplyHarm(ids["Bandit"], "wounds", 10))
    history.do(JudgeLastAction(ids["Bandit"], True))
    history.do(_blow(ids["Bandit"], ids["Aleš"]))


# --- at the same time -------------------------------------------------------------------------------------------


def test_a_creature_felled_in_its_own_simultaneous_group_still_strikes_but_not_in_the_next_round() -> None:
    history, ids = fight(RULE)
    history.do(ApplyHarm(ids["Bandit"], "wounds", 5))  # 15 of 20 left
    roll(history, ids, Aleš=4, Bora=5, Cyril=3, Bandit=4, Chief=1)
    history.do(NextTurn())
    assert sorted(current(history)) == ["Aleš", "Bandit"]  # score 4: they act at the same time
    history.do(_blow(ids["Aleš"], ids["Bandit"]))  # 17 on 15: −2, dying
    assert _status(history, ids["Bandit"]) is Status.DYING
    history.do(_blow(ids["Bandit"], ids["Aleš"]))  # it was not dying when the group began: its blow lands
    assert history.state.combatant(ids["Aleš"]).boxes("wounds") == 17
    assert "Bandit takes its one last action." not in history.entries[-1].text()  # no last action spent on it
    finish_round(history)
    roll(history, ids, Aleš=4, Bora=5, Cyril=3, Bandit=4, Chief=1)
    history.do(NextTurn())
    assert sorted(current(history)) == ["Aleš", "Bandit"]
    with pytest.raises(OperationError, match="Bandit is dying"):  # dying since the round before
        history.do(_blow(ids["Bandit"], ids["Aleš"]))


def test_dying_since_an_earlier_group_of_the_same_round_it_can_do_nothing() -> None:
    history, ids = fight(RULE)
    roll(history, ids, Aleš=6, Bora=5, Cyril=3, Bandit=2, Chief=1)
    history.do(ApplyHarm(ids["Bandit"], "wounds", 20))  # felled while Aleš (score 6) acts
    while current(history) != ["Bandit"]:
        history.do(NextTurn())
    with pytest.raises(OperationError, match="Bandit is dying"):
        history.do(_blow(ids["Bandit"], ids["Aleš"]))


def test_a_track_set_by_hand_dates_the_dying_too() -> None:
    history, ids = fight(RULE)
    roll(history, ids, Aleš=4, Bora=5, Cyril=3, Bandit=4, Chief=1)
    history.do(NextTurn())
    history.do(SetDamage(ids["Bandit"], "wounds", 20))
    history.do(_blow(ids["Bandit"], ids["Aleš"]))  # felled in its own group: it still strikes
    history.do(SetDamage(ids["Bandit"], "wounds", 0))
    assert "dying_since" not in history.state.combatant(ids["Bandit"]).extra


# --- the GM's override, the option and old fights ----------------------------------------------------------------


def test_the_gm_may_let_a_dying_creature_act_all_the_same_and_the_log_says_so() -> None:
    history, ids = _bandit_dying_at_its_turn()
    history.do(_blow(ids["Bandit"], ids["Aleš"], gm_override=True))
    assert history.entries[-1].text().splitlines()[0] == (
        "Bandit is dying and can do nothing, but the GM lets it act all the same.")
    assert history.state.combatant(ids["Aleš"]).boxes("wounds") == 17
    assert "last_action_taken" not in history.state.combatant(ids["Bandit"]).extra  # no last action was spent
    history.do(ApplyHarm(ids["Chief"], "wounds", 28))
    with pytest.raises(OperationError, match="Bandit is dying"):
        history.do(FinishOff(ids["Bandit"], ids["Chief"]))
    history.do(FinishOff(ids["Bandit"], ids["Chief"], gm_override=True))
    assert history.entries[-1].text().splitlines() == [
        "Bandit is dying and can do nothing, but the GM lets it act all the same.", "Bandit finishes off Chief."]


def test_an_override_is_saved_only_when_given() -> None:
    plain, overridden = _blow("c4", "c1"), _blow("c4", "c1", gm_override=True)
    assert "gm_override" not in to_data(plain) and "gm_override" not in to_data(FinishOff("c1", "c4"))
    assert operation_from_data(to_data(overridden)) == overridden


def test_with_the_option_off_nothing_is_refused() -> None:
    history, ids = _bandit_dying_at_its_turn({"dying_last_action": False})
    history.do(_blow(ids["Bandit"], ids["Aleš"]))
    history.do(SetOption("dying_last_action", True))  # on again: its dying was never dated, it is since before
    with pytest.raises(OperationError, match="Bandit is dying"):
        history.do(_blow(ids["Bandit"], ids["Aleš"]))


def test_a_fight_saved_before_the_option_acts_as_it_was_played() -> None:
    history, ids = _bandit_dying_at_its_turn({})  # no option stored: nothing dated, nothing refused
    assert "dying_since" not in history.state.combatant(ids["Bandit"]).extra
    history.do(_blow(ids["Bandit"], ids["Aleš"]))
    assert history.entries[-1].text().splitlines()[0] == "Bandit attacks Aleš (Melee (face to face))."


def test_a_new_fight_stores_the_option() -> None:
    assert SOUBOJ.default_options()["dying_last_action"] is True


# --- "If the last wound was critical … it dies on the spot" ---------------------------------------------------


def test_a_critical_wound_to_zero_hit_points_kills_on_the_spot() -> None:
    history, ids = fight(RULE)
    history.do(ApplyHarm(ids["Bandit"], "wounds", 3))
    history.do(_blow(ids["Aleš"], ids["Bandit"], level=1, causes=(Cause.BEHIND,)))  # 17 × 1 on 17: exactly 0
    assert history.state.combatant(ids["Bandit"]).boxes("wounds") == 20
    assert _status(history, ids["Bandit"]) is Status.DEAD
    assert "The critical wound kills Bandit on the spot." in history.entries[-1].text().splitlines()
    history.undo()  # one undoable operation: the wound and the death go together
    assert _status(history, ids["Bandit"]) is Status.ACTIVE
    assert history.state.combatant(ids["Bandit"]).boxes("wounds") == 3


def test_an_ordinary_wound_to_zero_hit_points_only_leaves_it_dying() -> None:
    history, ids = fight(RULE)
    history.do(ApplyHarm(ids["Bandit"], "wounds", 3))
    history.do(_blow(ids["Aleš"], ids["Bandit"]))
    assert _status(history, ids["Bandit"]) is Status.DYING


def test_a_critical_flat_blow_does_not_kill_on_the_spot() -> None:
    history, ids = fight(RULE)
    history.do(_blow(ids["Aleš"], ids["Bandit"], level=2, flat=True, causes=(Cause.BEHIND,)))  # 17 × 2 = 34 shadow
    assert _status(history, ids["Bandit"]) is Status.UNCONSCIOUS
    history.do(ApplyHarm(ids["Chief"], "wounds", 28))  # the Chief is dying; a critical flat blow on it…
    history.do(_blow(ids["Aleš"], ids["Chief"], level=1, flat=True, causes=(Cause.BEHIND,)))
    assert _status(history, ids["Chief"]) is Status.DYING  # …is shadow damage: not lethal
    assert "on the spot" not in history.entries[-1].text()


def test_the_gm_may_take_back_a_death_on_the_spot() -> None:
    history, ids = fight(RULE)
    history.do(ApplyHarm(ids["Bandit"], "wounds", 3))
    history.do(_blow(ids["Aleš"], ids["Bandit"], level=1, causes=(Cause.BEHIND,)))
    history.do(MarkDead(ids["Bandit"], False))
    assert _status(history, ids["Bandit"]) is Status.DYING
