"""SR3's encounter options do what the digest says: the optional delaying rule, free actions in other characters'
phases."""

from __future__ import annotations

import pytest

from rules.combatants import SetOption, SpendAction
from rules.errors import OperationError
from rules.history import History
from rules.systems import get_system
from rules.turns import DelayAction, NextTurn, TakeDelayedAction
from tests.rules.sr3_scenes import current_name, eight_characters, roll_ones

SR3 = get_system("sr3")


def _budget(history: History, combatant_id: str) -> dict[str, tuple[int, int]]:
    combatant = history.state.combatant(combatant_id)
    return {item.key: (item.used, item.allowed) for item in SR3.action_budget(combatant, history.state)}


# --- Delaying (optional rule: "Odkládání akcí (volitelné)") ---


def test_with_delaying_off_no_delay_of_either_kind_is_allowed() -> None:
    history, ids = eight_characters()
    history.do(SetOption("delaying", False))
    roll_ones(history, ids)
    entries = len(history.entries)
    for into_next_pass in (False, True):
        with pytest.raises(OperationError, match=r"optional rule.*Allow delaying actions \(optional rule\)"):
            history.do(DelayAction(ids["Mike"], into_next_pass))
    assert current_name(history) == "Mike" and not history.state.delays and len(history.entries) == entries


def test_with_delaying_on_mike_delays_and_interrupts_ganger_1() -> None:
    history, ids = eight_characters()
    roll_ones(history, ids)
    history.do(SetOption("delaying", True))
    history.do(DelayAction(ids["Mike"]))  # "Hráč může odložit akce ve své bojové fázi"
    assert current_name(history) == "Ganger 1"
    history.do(TakeDelayedAction(ids["Mike"]))
    assert current_name(history) == "Mike"


def test_turning_delaying_on_again_allows_it_at_once() -> None:
    history, ids = eight_characters()
    history.do(SetOption("delaying", False))
    roll_ones(history, ids)
    with pytest.raises(OperationError):
        history.do(DelayAction(ids["Mike"], into_next_pass=True))
    history.do(SetOption("delaying", True))
    history.do(DelayAction(ids["Mike"], into_next_pass=True))
    assert history.state.delays[ids["Mike"]].into_next_pass


# --- Free actions: "one per phase, also in others' phases" (the option turns the second half off) ---


def test_with_free_actions_in_other_phases_off_one_out_of_phase_is_refused() -> None:
    history, ids = eight_characters()
    history.do(SetOption("free_actions_in_other_phases", False))
    roll_ones(history, ids)
    mike = ids["Mike"]
    history.do(SpendAction(mike, "free"))  # in his own phase a free action is still his
    history.do(NextTurn())  # Mike has acted; Ganger 1's phase
    assert _budget(history, mike)["free"] == (0, 0)
    entries = len(history.entries)
    with pytest.raises(OperationError, match=r"another character's phase.*Free actions in other characters' phases"):
        history.do(SpendAction(mike, "free"))
    assert len(history.entries) == entries
    history.do(SpendAction(ids["Ganger 1"], "free"))  # the one whose phase it is


def test_with_free_actions_in_other_phases_on_one_is_allowed_after_acting() -> None:
    history, ids = eight_characters()
    history.do(SetOption("free_actions_in_other_phases", True))
    roll_ones(history, ids)
    history.do(NextTurn())
    assert _budget(history, ids["Mike"])["free"][1] > 0
    history.do(SpendAction(ids["Mike"], "free"))  # "dokonce i když se nejedná o její bojovou fázi"
    assert history.state.combatant(ids["Mike"]).actions_used["free"] == 1


def test_free_actions_off_leaves_the_own_phase_budget_alone() -> None:
    history, ids = eight_characters()
    history.do(SetOption("free_actions_in_other_phases", False))
    roll_ones(history, ids)
    history.do(SpendAction(ids["Mike"], "simple"))
    assert _budget(history, ids["Mike"]) == {"free": (0, 2), "simple": (1, 2), "complex": (0, 0)}
