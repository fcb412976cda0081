"""SR3 quick draw (sr3.md, Simple actions): "Quick draw: pistol-size weapons (Concealability ≥ 4) fired by a simple
action; Reaction (4), one success: draw and fire; +2 without a proper holster, +2 more for two guns; failure: no shot
from it this phase"."""

from __future__ import annotations

from dataclasses import replace

import pytest

from rules.errors import OperationError
from rules.history import History
from rules.systems.sr3 import Sr3Attack, Sr3QuickDrawFailed
from rules.systems.sr3.ranged import quick_draw_tn
from rules.systems.sr3.tables import load_tables
from tests.rules.sr3_scenes import eight_characters, roll_ones


def _mike_acts() -> tuple[History, dict[str, str]]:
    history, ids = eight_characters()
    roll_ones(history, ids)  # Mike (37) acts first
    return history, ids


def _actions(history: History, combatant_id: str) -> dict[str, int]:
    return dict(history.state.combatant(combatant_id).actions_used)


def test_the_tn_is_4_plus_2_without_a_holster_plus_2_more_for_two_guns() -> None:
    tables = load_tables()
    assert [quick_draw_tn(tables, True, False), quick_draw_tn(tables, False, False),
            quick_draw_tn(tables, False, True)] == [4, 6, 8]
    assert quick_draw_tn(load_tables({"quick_draw": {"tn": 5}}), True, False) == 5  # the GM's data


def test_one_success_draws_and_fires_in_one_simple_action() -> None:
    history, ids = _mike_acts()
    shot = Sr3Attack(ids["Mike"], ids["Ganger 1"], "Ares Predator", 9, "M", 4, ((5,), (6,)), 4, ((1,),),
                     mode="SA", quick_draw_tn=4, quick_draw_faces=((4,), (1,)))
    text = history.do(shot).text()
    assert "Quick draw: 1 success at TN 4, drawn and fired in one simple action." in text
    assert _actions(history, ids["Mike"]).get("simple") == 1  # the draw cost nothing more than the shot
    history.undo()
    with pytest.raises(OperationError, match="quick draw failed"):
        history.do(replace(shot, quick_draw_faces=((3,), (1,))))
    with pytest.raises(OperationError, match="by a simple action"):
        history.do(replace(shot, mode="FA", rounds=3))


def test_a_failed_quick_draw_takes_the_simple_action_and_fires_nothing() -> None:
    history, ids = _mike_acts()
    failed = Sr3QuickDrawFailed(ids["Mike"], "Ares Predator", 6, ((5,), (2,)))
    entry = history.do(failed)
    assert entry.text() == ("Mike fails the quick draw of Ares Predator (no success at TN 6): no shot from it this "
                            "phase.")
    assert _actions(history, ids["Mike"]).get("simple") == 1
    history.undo()
    assert _actions(history, ids["Mike"]).get("simple", 0) == 0
    with pytest.raises(OperationError, match="succeeded"):
        history.do(replace(failed, faces=((6,), (2,))))
    history.do(replace(failed, counts=False))
    assert _actions(history, ids["Mike"]).get("simple", 0) == 0
