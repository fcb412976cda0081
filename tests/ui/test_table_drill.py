"""The table drill (tests/bench/drill.py) in every game: every step of a standard round is done through keys and
clicks, and the steps the issue "Faster than paper" names stay within their inputs (no time is asserted)."""

from __future__ import annotations

import pytest
from pytestqt.qtbot import QtBot

from tests.bench.drill import play
from tests.ui.conftest import WindowFactory

GAMES = ("sr3", "walka", "souboj", "institut", "clovek")
#: Inputs (key presses + clicks) allowed from an NPC's turn to the damage on its target, and for damage to a
#: row already selected.
GOALS = {"NPC attack, saved weapon": 3, "Damage to a selected row": 3}

pytestmark = pytest.mark.qt_log_ignore(r"This plugin does not support (propagateSizeHints\(\)|raise\(\))")


@pytest.mark.parametrize("game", GAMES)
def test_a_standard_round_is_played_by_keys_and_clicks_within_the_goals(game: str, open_window: WindowFactory,
                                                                        qtbot: QtBot) -> None:
    window = open_window(sample=game)
    with qtbot.waitExposed(window):
        window.show()
    steps = {step.name: step for step in play(window)}
    assert [name for name, step in steps.items() if not step.done] == [], {n: s.note for n, s in steps.items()}
    for name, goal in GOALS.items():
        assert steps[name].inputs <= goal, (name, steps[name])
    assert steps["Next actor"].inputs == 1
