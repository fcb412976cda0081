"""SR3 surprise with any number of sides, and mid-turn (sr3.md, Surprise):

"All involved roll Reaction vs 4; ambushers who delayed for their victims −2 … Successes are compared pair by pair
(any number of sides) … Failing against every opponent = completely surprised: no actions at all, not even free
ones." "Decided before the turn's first action, unless it arises mid-turn." "The losses apply to the current
action, or to the next phase if not acting now."

Example: "Tess (Reaction 6), Virgil (8), Winger (9) ambush three guards (Reaction 3). TN 2: Tess 3, Virgil 4,
Winger 5; TN 4: A 4, B 2, C 0. Tess → B, C; Virgil → B, C; Winger → all; A → Tess only; B, C completely surprised."
"""

from __future__ import annotations

import json

import pytest

from rules.encounter import Side, frozen_map
from rules.errors import OperationError
from rules.history import History, new_history
from rules.serialize import history_from_document, history_to_document
from rules.systems.sr3 import SYSTEM, SurpriseTest
from rules.systems.sr3.surprise import completely_surprised, may_act_against_now, surprise_in_force, surprise_tn
from rules.systems.sr3.system import FREE, SIMPLE
from rules.turns import NextTurn, RollInitiative
from tests.rules.sr3_scenes import add, current_name

#: The example's successes: the ambushers at TN 2 (they delayed for their victims), the guards at TN 4.
SUCCESSES = {"Tess": 3, "Virgil": 4, "Winger": 5, "Guard A": 4, "Guard B": 2, "Guard C": 0}


def ambush() -> tuple[History, dict[str, str]]:
    history = new_history("sr3", "Ambush")
    ids = {name: add(history, name, Side.PLAYER, reaction=reaction, body=4)
           for name, reaction in (("Tess", 6), ("Virgil", 8), ("Winger", 9))}
    ids.update({name: add(history, name, Side.OPPONENT, reaction=3, body=4)
                for name in ("Guard A", "Guard B", "Guard C")})
    return history, ids


def surprise(ids: dict[str, str], successes: dict[str, int], sides: dict[str, str] | None = None) -> SurpriseTest:
    return SurpriseTest(frozen_map({ids[name]: count for name, count in successes.items()}), ends_by_phase=True,
                        sides=frozen_map({ids[name]: side for name, side in (sides or {}).items()}))


def allowed(history: History, ids: dict[str, str], name: str) -> set[str] | None:
    found = may_act_against_now(history.state, ids[name])
    names = {cid: who for who, cid in ids.items()}
    return None if found is None else {names[cid] for cid in found}


AMBUSH_SIDES = {"Tess": "runners", "Virgil": "runners", "Winger": "runners",
                "Guard A": "guards", "Guard B": "guards", "Guard C": "guards"}


def test_the_seeds_ambush_with_sides_chosen_by_the_gm() -> None:
    assert (surprise_tn(ambusher_delayed=True).value, surprise_tn().value) == (2, 4)
    history, ids = ambush()
    history.do(surprise(ids, SUCCESSES, AMBUSH_SIDES))
    assert allowed(history, ids, "Tess") == {"Guard B", "Guard C"}
    assert allowed(history, ids, "Virgil") == {"Guard B", "Guard C"}
    assert allowed(history, ids, "Winger") == {"Guard A", "Guard B", "Guard C"}
    assert allowed(history, ids, "Guard A") == {"Tess"}
    assert completely_surprised(history.state) == {ids["Guard B"], ids["Guard C"]}
    assert "Guard A may act against: Tess." in [line.render() for line in history.entries[-1].log]


def test_a_third_side_makes_a_three_way_ambush() -> None:
    # Two runners fall out: on sides of their own, Tess and Virgil are opponents, compared like any other pair.
    history, ids = ambush()
    sides = {"Tess": "1", "Virgil": "2", "Guard A": "3"}
    history.do(surprise(ids, {"Tess": 3, "Virgil": 4, "Guard A": 2}, sides))
    assert allowed(history, ids, "Virgil") == {"Tess", "Guard A"}
    assert allowed(history, ids, "Tess") == {"Guard A"}
    assert completely_surprised(history.state) == {ids["Guard A"]}
    # Left out of the test: the others are not restricted at all.
    assert allowed(history, ids, "Winger") is None and allowed(history, ids, "Guard B") is None


def test_the_default_parties_keep_players_and_allies_together() -> None:
    history, ids = ambush()
    history.do(surprise(ids, {"Tess": 3, "Virgil": 4, "Guard A": 2}))
    assert allowed(history, ids, "Virgil") == {"Guard A"}
    assert allowed(history, ids, "Tess") == {"Guard A"}


def test_every_fighter_of_a_test_with_sides_needs_a_side() -> None:
    history, ids = ambush()
    with pytest.raises(OperationError, match="needs both a side"):
        history.do(surprise(ids, {"Tess": 3, "Guard A": 2}, {"Tess": "1"}))


def mid_turn_ambush() -> tuple[History, dict[str, str]]:
    """Initiative: Winger 15, Virgil 13, Guard A 9, Guard B 8, Tess 7, Guard C 6; pass 2: Winger 5, Virgil 3."""
    history, ids = ambush()
    faces = {"Winger": 6, "Virgil": 5, "Guard A": 6, "Guard B": 5, "Tess": 1, "Guard C": 3}
    history.do(RollInitiative(frozen_map({ids[name]: (face,) for name, face in faces.items()}), frozen_map()))
    return history, ids


def still_to_act(history: History) -> list[str]:
    state = history.state
    return [", ".join(state.combatant(cid).name for cid in slot.ids) for slot in SYSTEM.remaining_slots(state)]


def test_mid_turn_the_losses_apply_to_the_current_action_or_the_next_phase() -> None:
    history, ids = mid_turn_ambush()
    history.do(NextTurn())  # Winger has acted; the shooting starts in Virgil's phase
    assert current_name(history) == "Virgil"
    history.do(surprise(ids, SUCCESSES, AMBUSH_SIDES))
    lines = [line.render() for line in history.entries[-1].log]
    assert "The surprise test comes mid-turn: the losses apply to each fighter's current action or next phase." \
        in lines
    assert ("Guard B is completely surprised: no actions at all, not even free ones, until their next phase "
            "(pass 1) has passed.") in lines
    assert allowed(history, ids, "Virgil") == {"Guard B", "Guard C"}  # his current action
    # B and C lose their phase of this pass: left out of its order, and no free action either.
    assert still_to_act(history) == ["Virgil", "Guard A", "Tess"]
    guard_b = history.state.combatant(ids["Guard B"])
    with pytest.raises(OperationError, match="completely surprised"):
        SYSTEM.spend_action(guard_b, FREE, history.state)
    assert not SYSTEM.can_act(guard_b, history.state)
    history.do(NextTurn())  # Virgil's phase ends, and his losses with it
    assert allowed(history, ids, "Virgil") is None
    assert allowed(history, ids, "Guard A") == {"Tess"}  # A's next phase is now
    history.do(NextTurn())  # A's phase (9) ends; Tess's (7) begins: B's phase (8) has come and gone
    assert current_name(history) == "Tess"
    assert allowed(history, ids, "Guard A") is None
    assert allowed(history, ids, "Guard B") is None
    assert SYSTEM.can_act(history.state.combatant(ids["Guard B"]), history.state)
    assert allowed(history, ids, "Guard C") == set()  # C's 6 is still to come
    history.do(NextTurn())  # the first pass ends: C's phase of it has passed
    assert allowed(history, ids, "Guard C") is None
    assert current_name(history) == "Winger"
    assert allowed(history, ids, "Winger") == {"Guard A", "Guard B", "Guard C"}  # his next phase: pass 2
    history.do(NextTurn())
    assert not surprise_in_force(history.state)


def test_mid_turn_one_who_has_acted_loses_the_next_pass() -> None:
    history, ids = mid_turn_ambush()
    history.do(NextTurn())
    history.do(NextTurn())  # Winger and Virgil have acted; Guard A's phase
    history.do(surprise(ids, {"Winger": 0, "Guard A": 2}, {"Winger": "1", "Guard A": "2"}))
    winger = history.state.combatant(ids["Winger"])
    with pytest.raises(OperationError, match="completely surprised"):
        SYSTEM.spend_action(winger, FREE, history.state)  # not even a free action in A's phase
    assert SYSTEM.can_act(winger, history.state)  # his lost phase is in pass 2, not this one
    for _slot in range(3):  # A, B, Tess; then C, and the pass ends
        history.do(NextTurn())
    history.do(NextTurn())
    assert history.state.clock.pass_no == 2
    assert current_name(history) == "Virgil"  # Winger's 5 is lost; Virgil's 3 begins, and Winger is free
    assert allowed(history, ids, "Winger") is None


def test_a_completely_surprised_current_actor_loses_the_rest_of_the_phase() -> None:
    history, ids = mid_turn_ambush()
    assert current_name(history) == "Winger"
    history.do(surprise(ids, {"Winger": 0, "Guard A": 2}, {"Winger": "1", "Guard A": "2"}))
    winger = history.state.combatant(ids["Winger"])
    with pytest.raises(OperationError, match="completely surprised"):
        SYSTEM.spend_action(winger, SIMPLE, history.state)
    assert all(item.left == 0 for item in SYSTEM.action_budget(winger, history.state))
    history.do(NextTurn())
    assert allowed(history, ids, "Winger") is None
    history.undo()
    assert allowed(history, ids, "Winger") == set()


def test_a_mid_turn_test_is_saved_and_opened_as_it_stood() -> None:
    history, ids = mid_turn_ambush()
    history.do(NextTurn())
    history.do(surprise(ids, SUCCESSES, AMBUSH_SIDES))
    document = json.loads(json.dumps(history_to_document(history)))
    opened = history_from_document(document)
    assert opened.state == history.state
    assert still_to_act(opened) == ["Virgil", "Guard A", "Tess"]
    assert history_to_document(opened) == document


def test_a_test_before_the_next_turn_replaces_a_mid_turn_one_still_in_force() -> None:
    # Tess has acted when a test in Guard C's phase leaves her completely surprised: she loses her next phase, next
    # turn's. A test before that turn replaces it, and leaves Guard B out of its first pass, as any such test does.
    history, ids = mid_turn_ambush()
    for _slot in range(5):
        history.do(NextTurn())
    assert current_name(history) == "Guard C"
    history.do(surprise(ids, {"Tess": 0, "Guard C": 4}, {"Tess": "1", "Guard C": "2"}))
    while history.state.clock.current is not None:
        history.do(NextTurn())
    assert allowed(history, ids, "Tess") == set()  # her lost phase is next turn's
    history.do(surprise(ids, {"Winger": 5, "Guard B": 2}, {"Winger": "1", "Guard B": "2"}))
    assert allowed(history, ids, "Tess") is None
    history.do(RollInitiative(frozen_map(dict.fromkeys(ids.values(), (1,))), frozen_map()))
    assert ids["Guard B"] not in [slot.ids[0] for slot in SYSTEM.remaining_slots(history.state)]
