"""sr3.md "Delaying (optional rule: Odkládání akcí)", sentence by sentence, on the seed's eight characters.

- "Into the next pass: ... it replaces the normal action of that pass ... characters cannot delay to act twice in
  the same pass. Used before the own normal phase there, or it lapses and the normal action of that pass remains
  (it may be delayed in turn)."
- "Several interrupters in a phase, or actors at the end of a pass or turn: ordered as for tied initiative."
- "Example (Mike, 37): delays in pass 1 and acts last, at its end; or, after Rváč 1 declares, he announces that he
  acts in phase 26 too, and goes first."
"""

from __future__ import annotations

import pytest

from rules.combatants import SpendAction
from rules.encounter import Combatant, Delay, Encounter, Initiative, SlotKind, frozen_map
from rules.errors import OperationError
from rules.history import History
from rules.systems.sr3 import Sr3Aim
from rules.systems.sr3.aim import aim_of
from rules.systems.sr3.delays import end_of_pass
from rules.turns import DelayAction, NextTurn, TakeDelayedAction
from tests.rules.sr3_scenes import current_name, eight_characters, roll_ones


def _next_until(history: History, name: str) -> None:
    while current_name(history) != name:
        history.do(NextTurn())


def _actions_in_pass(history: History, pass_no: int) -> list[tuple[str, SlotKind, int | None]]:
    """Every slot played in ``pass_no`` from now to the end of the round: (who, normal or delayed, phase)."""
    played = []
    while history.state.clock.current is not None:
        clock = history.state.clock
        assert clock.current is not None
        if clock.pass_no == pass_no:
            played.append((current_name(history), clock.current.kind, clock.current.phase))
        history.do(NextTurn())
    return played


def _names(played: list[tuple[str, SlotKind, int | None]]) -> list[str]:
    return [name for name, _kind, _phase in played]


# --- Mike's example -------------------------------------------------------------------------------------------


def test_mike_delays_in_pass_1_and_acts_last_at_its_end() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    history.do(DelayAction(ids["Mike"]))
    first = _actions_in_pass(history, 1)
    assert _names(first) == ["Ganger 1", "Dave", "Ganger 2", "Sharon", "Richie", "Ganger 3", "Camilla", "Mike"]
    assert first[-1][1] is SlotKind.DELAYED  # the held action, after the last phase (Camilla's 9)


def test_mike_acts_in_phase_26_before_ganger_1_and_once_in_the_pass() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    history.do(DelayAction(ids["Mike"]))
    assert current_name(history) == "Ganger 1"
    history.do(TakeDelayedAction(ids["Mike"]))  # "he announces that he acts in phase 26 too, and goes first"
    slot = history.state.clock.current
    assert slot is not None and slot.kind is SlotKind.DELAYED and slot.phase == 26
    history.do(NextTurn())
    assert current_name(history) == "Ganger 1"
    played = _actions_in_pass(history, 1)
    assert "Mike" not in _names(played)  # the score is kept, but not a second action


def test_mike_keeps_his_score_and_opens_pass_2_at_27() -> None:
    """"The score is kept (−10 after the pass as usual)"."""
    history, ids = eight_characters()
    roll_ones(history, ids)
    history.do(DelayAction(ids["Mike"]))
    while history.state.clock.pass_no == 1:
        history.do(NextTurn())
    assert current_name(history) == "Mike" and history.state.clock.current is not None
    assert history.state.clock.current.phase == 27


# --- into the next pass: never two actions in one pass ---------------------------------------------------------


def test_a_delay_carried_into_pass_2_and_taken_replaces_the_normal_action_there() -> None:
    """Ganger 3 (15) delays into pass 2 and interrupts Mike's 27: there is no phase 5 for him in pass 2."""
    history, ids = eight_characters()
    roll_ones(history, ids)
    _next_until(history, "Ganger 3")
    history.do(DelayAction(ids["Ganger 3"], into_next_pass=True))
    history.do(NextTurn())  # Camilla done: pass 2 begins with Mike (27)
    assert history.state.clock.pass_no == 2 and current_name(history) == "Mike"
    history.do(TakeDelayedAction(ids["Ganger 3"]))
    second = _actions_in_pass(history, 2)
    assert second[0] == ("Ganger 3", SlotKind.DELAYED, 27)
    assert _names(second).count("Ganger 3") == 1
    assert ("Ganger 3", SlotKind.ACTORS, 5) not in second


def test_a_carried_delay_not_used_before_the_own_phase_lapses_and_one_action_remains() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    _next_until(history, "Ganger 3")
    history.do(DelayAction(ids["Ganger 3"], into_next_pass=True))
    history.do(NextTurn())
    second = _actions_in_pass(history, 2)
    assert [entry for entry in second if entry[0] == "Ganger 3"] == [("Ganger 3", SlotKind.ACTORS, 5)]
    lines = [line for entry in history.entries for line in entry.text().splitlines()]
    assert lines.count("Ganger 3 did not use the delayed action in time; it is lost.") == 1


def test_the_normal_action_left_after_a_lapse_may_be_delayed_in_turn() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    _next_until(history, "Ganger 3")
    history.do(DelayAction(ids["Ganger 3"], into_next_pass=True))
    history.do(NextTurn())
    _next_until(history, "Ganger 3")  # phase 5 of pass 2: the carried delay lapsed as it came up
    assert ids["Ganger 3"] not in history.state.delays
    history.do(DelayAction(ids["Ganger 3"]))
    second = _actions_in_pass(history, 2)
    assert second == [("Ganger 3", SlotKind.DELAYED, None)]  # held to the end of pass 2, once


def test_taking_a_carried_delay_can_be_undone() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    _next_until(history, "Ganger 3")
    history.do(DelayAction(ids["Ganger 3"], into_next_pass=True))
    history.do(NextTurn())
    before = history.state
    history.do(TakeDelayedAction(ids["Ganger 3"]))
    assert ids["Ganger 3"] in history.state.clock.acted
    history.undo()
    assert history.state == before and ids["Ganger 3"] not in history.state.clock.acted


# --- several at the end of a pass: as tied initiative ----------------------------------------------------------


def test_held_actions_at_the_end_of_a_pass_go_in_tie_order_not_in_the_order_held() -> None:
    """Camilla (9) holds her only action into pass 2 first; in pass 2 Mike (27) and Ganger 3 (5) hold theirs to
    its end. Tied initiative orders them by score before wounds: Mike, Ganger 3, Camilla."""
    history, ids = eight_characters()
    roll_ones(history, ids)
    _next_until(history, "Camilla")
    history.do(DelayAction(ids["Camilla"], into_next_pass=True))
    assert history.state.clock.pass_no == 2 and current_name(history) == "Mike"
    history.do(DelayAction(ids["Mike"]))
    _next_until(history, "Ganger 3")
    history.do(DelayAction(ids["Ganger 3"]))
    assert list(history.state.delays) == [ids["Camilla"], ids["Mike"], ids["Ganger 3"]]  # the order held
    second = _actions_in_pass(history, 2)
    assert second == [("Mike", SlotKind.DELAYED, None), ("Ganger 3", SlotKind.DELAYED, None),
                      ("Camilla", SlotKind.DELAYED, None)]


def _fighter(cid: str, reaction: int, natural: int, tiebreak: tuple[int, ...]) -> Combatant:
    return Combatant(cid, cid.upper(), attributes=frozen_map({"reaction": reaction, "reaction_natural": natural}),
                     initiative=Initiative(12, (), tiebreak))


def test_equal_scores_at_the_end_go_by_reaction_then_natural_reaction_then_the_dice() -> None:
    """Ties: "2. Higher modified Reaction. 3. Higher natural Reaction. 4. 1d6 each, reroll ties"."""
    fighters = [_fighter("a", 5, 5, (6,)), _fighter("b", 9, 3, (1,)), _fighter("c", 9, 4, (2,)),
                _fighter("d", 5, 5, (2,))]
    encounter = Encounter("sr3", combatants=frozen_map({f.id: f for f in fighters}),
                          delays=frozen_map({f.id: Delay(f.id, 1, 1) for f in fighters}))
    encounter = encounter.with_clock(round=1, pass_no=1)
    assert [slot.ids[0] for slot in end_of_pass(encounter)] == ["c", "b", "a", "d"]


# --- "Costs a free action" ---------------------------------------------------------------------------------------


def test_delaying_costs_a_free_action_and_loses_an_aim() -> None:
    """The seed's "Odložení akcí": the character holds its actions "tak, že obětuje volnou akci"; and an aim is
    "lost on any other action, free ones included"."""
    history, ids = eight_characters()
    roll_ones(history, ids)
    history.do(Sr3Aim(ids["Mike"]))
    history.do(DelayAction(ids["Mike"]))
    mike = history.state.combatant(ids["Mike"])
    assert aim_of(mike).actions == 0


def test_without_a_free_action_left_there_is_no_delay() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    for kind in ("simple", "simple", "free"):  # two simple actions leave one free action, now spent
        history.do(SpendAction(ids["Mike"], kind))
    with pytest.raises(OperationError, match=r"no free action left.*Delaying costs a free action"):
        history.do(DelayAction(ids["Mike"]))
    assert not history.state.delays


# --- held on into later passes: "Last actions of the turn may be held through later passes to the end of the turn" --


def test_camillas_last_action_is_held_pass_by_pass_to_the_end_of_the_turn() -> None:
    """Camilla (9) acts only in pass 1. She delays it, and each time it comes up at the end of a pass she moves it
    on into the next ("Postavy si mohou přesunout odložené akce i do dalšího průběhu iniciativy"); in pass 4, the
    last (Mike's 7 only), there is no next pass: she acts at its end, after Mike."""
    history, ids = eight_characters()
    roll_ones(history, ids)
    _next_until(history, "Camilla")
    history.do(DelayAction(ids["Camilla"]))
    for pass_no in (1, 2, 3):
        _next_until(history, "Camilla")
        slot = history.state.clock.current
        assert history.state.clock.pass_no == pass_no and slot is not None and slot.kind is SlotKind.DELAYED
        assert slot.phase is None  # at the end of the pass
        history.do(DelayAction(ids["Camilla"], into_next_pass=True))
    assert history.state.clock.pass_no == 4 and current_name(history) == "Mike"
    history.do(NextTurn())
    assert current_name(history) == "Camilla" and history.state.clock.pass_no == 4
    with pytest.raises(OperationError, match="no next pass"):
        history.do(DelayAction(ids["Camilla"], into_next_pass=True))  # "phase 1 of the last pass" at the latest
    assert _actions_in_pass(history, 4) == [("Camilla", SlotKind.DELAYED, None)]
    assert history.state.clock.round == 1 and history.state.clock.pass_no == 0  # the turn is over


def test_a_delayed_action_is_moved_on_only_into_the_next_pass_and_only_by_whoever_takes_it() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    history.do(DelayAction(ids["Mike"]))
    _next_until(history, "Camilla")
    history.do(NextTurn())
    assert current_name(history) == "Mike"  # his held action, at the end of pass 1
    with pytest.raises(OperationError, match="own turn"):
        history.do(DelayAction(ids["Mike"]))  # not again within the pass: it is taken now or moved on
    with pytest.raises(OperationError, match="own turn"):
        history.do(DelayAction(ids["Dave"], into_next_pass=True))
